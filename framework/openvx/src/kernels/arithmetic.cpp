// The arithmetic standard kernels Add, Subtract, AbsDiff, Min, Max and Multiply: each a function and a
// validate (standard_kernel_support.hpp).
//
// Formats (OpenVX 1.3):
//   Add        U8 or S16 inputs; out U8 only when both inputs are U8 and the application made it U8, else
//              S16 (so an output of open format, a virtual image, is S16); in1 + in2 wrapped or saturated.
//   AbsDiff    U8 or S16 inputs; out U8 when both inputs are U8 (a virtual output of open format then
//              becomes U8, as the Khronos conformance suite's inference test expects), else S16;
//              |in1 - in2| taken in int, saturated to the output type.
//   Subtract   as Add, in1 - in2.
//   Min, Max   U8 x U8 -> U8 or S16 x S16 -> S16: one format for all three images.
//   Multiply   as Subtract for formats; out = overflow(round(in1 * in2 * scale)) where the product of the
//              two pixels is an exact int32, converted to double and multiplied by (double)scale, then
//              rounded to zero or to nearest even, as the specification's reference formulas say.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/accumulate.hpp"
#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/rounding.hpp"

namespace vg::openvx {
namespace {

constexpr vx_df_image kU8 = VX_DF_IMAGE_U8;
constexpr vx_df_image kS16 = VX_DF_IMAGE_S16;

// --- per-pixel arithmetic ----------------------------------------------------------------------------

/// @p v brought to Out keeping its low bits (two's complement), as the WRAP policy says.
template <typename Out>
constexpr Out wrap_to(std::int64_t v) noexcept {
  return static_cast<Out>(static_cast<std::make_unsigned_t<Out>>(v));
}

/// @p v clamped to Out's range, as the SATURATE policy says.
template <typename Out>
constexpr Out saturate_to(int v) noexcept {
  return static_cast<Out>(std::clamp(v, static_cast<int>(std::numeric_limits<Out>::min()), static_cast<int>(std::numeric_limits<Out>::max())));
}

/// Calls @p f with value-initialised pixel types (In1{}, In2{}, Out{}) for the format combination, the
/// combinations validate allows for the "U8 or S16 in, U8 or S16 out" kernels; VX_ERROR_INVALID_FORMAT
/// for any other.
template <typename F>
vx_status with_pixel_types(vx_df_image f1, vx_df_image f2, vx_df_image fo, F&& f) noexcept {
  if (f1 == kU8 && f2 == kU8 && fo == kU8) return f(vx_uint8{}, vx_uint8{}, vx_uint8{});
  if (f1 == kU8 && f2 == kU8 && fo == kS16) return f(vx_uint8{}, vx_uint8{}, vx_int16{});
  if (f1 == kU8 && f2 == kS16 && fo == kS16) return f(vx_uint8{}, vx_int16{}, vx_int16{});
  if (f1 == kS16 && f2 == kU8 && fo == kS16) return f(vx_int16{}, vx_uint8{}, vx_int16{});
  if (f1 == kS16 && f2 == kS16 && fo == kS16) return f(vx_int16{}, vx_int16{}, vx_int16{});
  return VX_ERROR_INVALID_FORMAT;  // validate allows none other
}

/// The formats of parameters @p i1, @p i2 and @p io, settled by verification.
struct Formats {
  vx_df_image in1, in2, out;
};
Formats formats_of(const vx_reference* parameters, vx_uint32 i1, vx_uint32 i2, vx_uint32 io) noexcept {
  return {as<_vx_image>(parameters[i1])->format, as<_vx_image>(parameters[i2])->format, as<_vx_image>(parameters[io])->format};
}

/// What the vision library computes for a kernel (Add, Subtract, AbsDiff, or Multiply with its scale and
/// rounding), when it does.
struct VisionArithmetic {
  bool available = false;
  vision::Arithmetic op = vision::Arithmetic::add;
  vision::Overflow overflow = vision::Overflow::wrap;
  bool multiply = false;
  double scale = 1.0;
  bool nearest_even = false;
};

/// Maps images @p i1, @p i2 (read) and @p io (written) and runs out = op(in1, in2) with the pixel types of
/// their formats. @p make_op(In1{}, In2{}, Out{}) gives the per-pixel operation. With @p vision available
/// and packed pixels, the vision library's vectorised function (the same results) runs instead.
template <typename MakeOp>
vx_status run_binary(const vx_reference* parameters, vx_uint32 i1, vx_uint32 i2, vx_uint32 io, MakeOp make_op,
                     VisionArithmetic vision = {}) noexcept {
  const Formats f = formats_of(parameters, i1, i2, io);
  const MappedImage in1(image_at(parameters, i1), VX_READ_ONLY);
  const MappedImage in2(image_at(parameters, i2), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, io), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
  if (vision.available) {
    vision::Pixels a, b, o;
    if (vision_pixels(in1, f.in1, a) && vision_pixels(in2, f.in2, b) && vision_pixels(out, f.out, o) &&
        (vision.multiply ? vision::multiply(a, b, o, vision.scale, vision.overflow, vision.nearest_even)
                         : vision::arithmetic(vision.op, a, b, o, vision.overflow))) {
      return VX_SUCCESS;
    }
  }
  return with_pixel_types(f.in1, f.in2, f.out, [&](auto a, auto b, auto o) {
    using In1 = decltype(a);
    using In2 = decltype(b);
    using Out = decltype(o);
    for_each_pixel<In1, In2, Out>(in1, in2, out, make_op(a, b, o));
    return VX_SUCCESS;
  });
}

/// The value of a VX_TYPE_ENUM scalar parameter at run time (a virtual scalar has one only then).
vx_status read_enum(const vx_reference* parameters, vx_uint32 index, vx_enum& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[index]), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

/// An integral double brought to Out keeping its low bits. Beyond int64's range (a large scale) the low
/// 16 bits are taken with fmod, exact for every double; 2^16 is a multiple of every output type's span.
template <typename Out>
inline Out wrap_double(double r) noexcept {
  if (std::fabs(r) < 0x1p62) return wrap_to<Out>(static_cast<std::int64_t>(r));
  return wrap_to<Out>(static_cast<std::int64_t>(std::fmod(r, 0x1p16)));
}

template <typename Out>
inline Out saturate_double(double r) noexcept {
  constexpr double low = std::numeric_limits<Out>::min(), high = std::numeric_limits<Out>::max();
  return static_cast<Out>(r < low ? low : r > high ? high : r);
}

/// A scale Multiply takes: finite and not negative (the specification's "non-negative" scale; every such
/// value is computed as the reference formulas say, beyond the 1/2^n and 1/255 that must be supported).
inline bool scale_allowed(vx_float32 scale) noexcept { return std::isfinite(scale) && scale >= 0.0f; }

// --- validate helpers ------------------------------------------------------------------------------------

/// Two input images of one size, each U8 or S16.
vx_status u8_or_s16_inputs(vx_node node, const vx_reference parameters[], const _vx_image*& in1, const _vx_image*& in2) noexcept {
  if (const vx_status s = input_image(node, parameters, 0, "in1", in1); s != VX_SUCCESS) return s;
  if (const vx_status s = input_image(node, parameters, 1, "in2", in2); s != VX_SUCCESS) return s;
  for (const auto& [image, name] : {std::pair{in1, "in1"}, std::pair{in2, "in2"}}) {
    if (!u8_or_s16(image->format)) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only U8 or S16 is supported", name, format_name(image->format));
    }
  }
  return same_size(node, in1, "in1", in2, "in2");
}

/// The output of Add, Subtract, AbsDiff and Multiply: U8 only when both inputs are U8 and the
/// application made the output U8; S16 otherwise (so an output of open format, a virtual image, is S16).
vx_status promoted_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const _vx_image* in1, const _vx_image* in2,
                          vx_meta_format metas[], bool open_u8_stays_u8 = false) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "out is not an image");
  const vx_df_image asked = as<_vx_image>(parameters[index])->declared_format;
  if (asked != VX_DF_IMAGE_VIRT && !u8_or_s16(asked)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "out has format %s, only U8 or S16 is supported", format_name(asked));
  }
  if (asked == kU8 && !(in1->format == kU8 && in2->format == kU8)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is %s and in2 is %s: a U8 output needs two U8 inputs",
                  format_name(in1->format), format_name(in2->format));
  }
  const bool both_u8 = in1->format == kU8 && in2->format == kU8;
  const vx_df_image format = asked == kU8 || (asked == VX_DF_IMAGE_VIRT && open_u8_stays_u8 && both_u8) ? kU8 : kS16;
  return output_image(node, parameters, index, "out", in1->width, in1->height, format, metas[index]);
}

// --- AbsDiff -----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK absdiff_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = u8_or_s16_inputs(node, parameters, in1, in2); s != VX_SUCCESS) return s;
  return promoted_output(node, parameters, 2, in1, in2, metas, /*open_u8_stays_u8=*/true);
}

vx_status VX_CALLBACK absdiff_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  // |in1 - in2| in int (exact for every pair), saturated to the output: 65535 for S16 inputs becomes 32767;
  // two U8 inputs never pass 255.
  return run_binary(parameters, 0, 1, 2, [](auto a, auto b, auto o) {
    using Out = decltype(o);
    return [](decltype(a) x, decltype(b) y) {
      const int d = static_cast<int>(x) - static_cast<int>(y);
      return saturate_to<Out>(d < 0 ? -d : d);
    };
  }, VisionArithmetic{true, vision::Arithmetic::absdiff, vision::Overflow::saturate});
}

// --- Add, Subtract ------------------------------------------------------------------------------------------

/// in1, in2 U8 or S16 of one size, an overflow policy, the promoted out.
vx_status VX_CALLBACK add_subtract_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = u8_or_s16_inputs(node, parameters, in1, in2); s != VX_SUCCESS) return s;
  vx_enum policy = 0;
  if (const vx_status s = policy_parameter(node, parameters, 2, policy); s != VX_SUCCESS) return s;
  return promoted_output(node, parameters, 3, in1, in2, metas);
}

/// Add (@p kSign 1) and Subtract (-1). Sums and differences are taken in int, where no pair of U8 and S16
/// values overflows, then brought to the output type: WRAP keeps the low bits, SATURATE clamps.
template <int kSign>
vx_status add_or_subtract(const vx_reference* parameters, vx_uint32 num) noexcept {
  constexpr vision::Arithmetic kVisionOp = kSign > 0 ? vision::Arithmetic::add : vision::Arithmetic::subtract;
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  if (const vx_status s = read_enum(parameters, 2, policy); s != VX_SUCCESS) return s;
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  if (policy == VX_CONVERT_POLICY_SATURATE) {
    return run_binary(parameters, 0, 1, 3, [](auto a, auto b, auto o) {
      using Out = decltype(o);
      return [](decltype(a) x, decltype(b) y) { return saturate_to<Out>(static_cast<int>(x) + kSign * static_cast<int>(y)); };
    }, VisionArithmetic{true, kVisionOp, vision::Overflow::saturate});
  }
  return run_binary(parameters, 0, 1, 3, [](auto a, auto b, auto o) {
    using Out = decltype(o);
    return [](decltype(a) x, decltype(b) y) { return wrap_to<Out>(static_cast<int>(x) + kSign * static_cast<int>(y)); };
  }, VisionArithmetic{true, kVisionOp, vision::Overflow::wrap});
}

vx_status VX_CALLBACK add_function(vx_node, const vx_reference* parameters, vx_uint32 num) { return add_or_subtract<1>(parameters, num); }
vx_status VX_CALLBACK subtract_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return add_or_subtract<-1>(parameters, num);
}

// --- Min, Max ----------------------------------------------------------------------------------------------

/// Min and Max: in1 and in2 U8 or S16 of one size and one format; out of that format and size.
vx_status VX_CALLBACK min_max_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = u8_or_s16_inputs(node, parameters, in1, in2); s != VX_SUCCESS) return s;
  if (in1->format != in2->format) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "in1 is %s but in2 is %s: they must have the same format", format_name(in1->format),
                  format_name(in2->format));
  }
  return output_image(node, parameters, 2, "out", in1->width, in1->height, in1->format, metas[2]);
}

template <bool kMin>
vx_status min_max(const vx_reference* parameters, vx_uint32 num) noexcept {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const Formats f = formats_of(parameters, 0, 1, 2);
  if (f.in1 != f.in2 || f.in1 != f.out) return VX_ERROR_INVALID_FORMAT;  // validate allows none other
  {
    const MappedImage in1(image_at(parameters, 0), VX_READ_ONLY);
    const MappedImage in2(image_at(parameters, 1), VX_READ_ONLY);
    const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
    if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
    vision::Pixels a, b, o;
    if (vision_pixels(in1, f.in1, a) && vision_pixels(in2, f.in2, b) && vision_pixels(out, f.out, o) && vision::min_max(kMin, a, b, o)) {
      return VX_SUCCESS;  // packed: the vision library's vectorised function
    }
  }
  return run_binary(parameters, 0, 1, 2, [](auto a, auto, auto) {
    using T = decltype(a);
    return [](T x, T y) { return kMin ? std::min(x, y) : std::max(x, y); };
  });
}

vx_status VX_CALLBACK min_function(vx_node, const vx_reference* parameters, vx_uint32 num) { return min_max<true>(parameters, num); }
vx_status VX_CALLBACK max_function(vx_node, const vx_reference* parameters, vx_uint32 num) { return min_max<false>(parameters, num); }

// --- Multiply ----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK multiply_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 6) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 6 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = u8_or_s16_inputs(node, parameters, in1, in2); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "scale is not a scalar");
  const auto* scale = as<_vx_scalar>(parameters[2]);
  if (scale->data_type != VX_TYPE_FLOAT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "scale is a scalar of type 0x%x, it must be VX_TYPE_FLOAT32", static_cast<unsigned>(scale->data_type));
  }
  if (!scale->is_virtual) {  // a virtual scale gets its value only while the graph runs: checked then
    vx_float32 value = 0;
    std::memcpy(&value, scale->bytes.data(), sizeof value);
    if (!scale_allowed(value)) {
      return refuse(node, VX_ERROR_INVALID_VALUE, "scale is %g, it must be a finite number not below 0", static_cast<double>(value));
    }
  }
  vx_enum overflow = 0, rounding = 0;
  if (const vx_status s = enum_parameter(node, parameters, 3, "overflow_policy", {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}, overflow);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s =
          enum_parameter(node, parameters, 4, "rounding_policy", {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}, rounding);
      s != VX_SUCCESS) {
    return s;
  }
  return promoted_output(node, parameters, 5, in1, in2, metas);
}

/// Multiply with the policies fixed: the product of the two pixels is an exact int32 (at most 2^30 in
/// magnitude), converted to double and multiplied by (double)scale in one IEEE operation, then rounded and
/// brought to the output type: the specification's reference formulas, operation for operation.
template <bool kSaturate, bool kNearestEven>
vx_status multiply_pixels(const vx_reference* parameters, double scale) noexcept {
  VisionArithmetic vision{true, vision::Arithmetic::add, kSaturate ? vision::Overflow::saturate : vision::Overflow::wrap, true, scale,
                          kNearestEven};
  return run_binary(parameters, 0, 1, 5, [scale](auto a, auto b, auto o) {
    using Out = decltype(o);
    return [scale](decltype(a) x, decltype(b) y) {
      const std::int32_t product = static_cast<std::int32_t>(x) * static_cast<std::int32_t>(y);
      const double scaled = static_cast<double>(product) * scale;
      const double rounded = kNearestEven ? vision::round_half_even(scaled) : std::trunc(scaled);
      if constexpr (kSaturate) {
        return saturate_double<Out>(rounded);
      } else {
        return wrap_double<Out>(rounded);
      }
    };
  }, vision);
}

vx_status VX_CALLBACK multiply_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 6) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 scale = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &scale, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  if (!scale_allowed(scale)) return VX_ERROR_INVALID_VALUE;
  vx_enum overflow = 0, rounding = 0;
  if (const vx_status s = read_enum(parameters, 3, overflow); s != VX_SUCCESS) return s;
  if (const vx_status s = read_enum(parameters, 4, rounding); s != VX_SUCCESS) return s;
  if (overflow != VX_CONVERT_POLICY_WRAP && overflow != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  if (rounding != VX_ROUND_POLICY_TO_ZERO && rounding != VX_ROUND_POLICY_TO_NEAREST_EVEN) return VX_ERROR_INVALID_VALUE;
  const bool saturate = overflow == VX_CONVERT_POLICY_SATURATE, nearest_even = rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN;
  const double s = scale;
  if (saturate) return nearest_even ? multiply_pixels<true, true>(parameters, s) : multiply_pixels<true, false>(parameters, s);
  return nearest_even ? multiply_pixels<false, true>(parameters, s) : multiply_pixels<false, false>(parameters, s);
}

// --- WeightedAverage and the accumulations ------------------------------------------------------------
//
// WeightedAverage     out = (1 - alpha) * img2 + alpha * img1, computed in float and truncated to U8 (as the
//                     Khronos sample implementation does); alpha a VX_TYPE_FLOAT32 scalar in [0, 1].
// Accumulate          accum(S16) = saturate(accum + input(U8)).
// AccumulateWeighted  accum(U8) = (1 - alpha) * accum + alpha * input, in float, truncated; alpha in [0, 1].
// AccumulateSquare    accum(S16) = saturate(accum + ((input * input) >> shift)); shift a VX_TYPE_UINT32
//                     scalar in [0, 15].
// The accumulator is bidirectional: an image the application made, of the input's size; validate describes
// it with its own attributes (verification applies a meta to every parameter that is not an input).

/// A scalar parameter of @p type; its value (when it can be read now, i.e. not virtual) in @p value.
template <typename T>
vx_status scalar_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type, T& value,
                           bool& known) noexcept {
  known = false;
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type != type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be of type 0x%x", name,
                  static_cast<unsigned>(scalar->data_type), static_cast<unsigned>(type));
  }
  if (!scalar->is_virtual && scalar->bytes.size() == sizeof value) {
    std::memcpy(&value, scalar->bytes.data(), sizeof value);
    known = true;
  }
  return VX_SUCCESS;
}

inline bool alpha_allowed(vx_float32 alpha) noexcept { return alpha >= 0.0f && alpha <= 1.0f; }

vx_status alpha_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index) noexcept {
  vx_float32 alpha = 0;
  bool known = false;
  if (const vx_status s = scalar_parameter(node, parameters, index, "alpha", VX_TYPE_FLOAT32, alpha, known); s != VX_SUCCESS) return s;
  if (known && !alpha_allowed(alpha)) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "alpha is %g, it must be in [0, 1]", static_cast<double>(alpha));
  }
  return VX_SUCCESS;
}

vx_status read_float(const vx_reference* parameters, vx_uint32 index, vx_float32& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[index]), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

/// (1 - alpha) * keep + alpha * take in float arithmetic (each product and the sum rounded to float, as the
/// reference's C expression is), truncated. Each step is an exact double operation rounded once to float,
/// so the compiler cannot fuse them into a multiply-add that would round differently.
inline vx_uint8 weighted(vx_uint8 keep, vx_uint8 take, vx_float32 alpha) noexcept {
  const vx_float32 beta = 1.0f - alpha;
  const auto p1 = static_cast<vx_float32>(static_cast<double>(beta) * keep);   // exact in double, rounded once
  const auto p2 = static_cast<vx_float32>(static_cast<double>(alpha) * take);
  const auto sum = static_cast<vx_float32>(static_cast<double>(p1) + static_cast<double>(p2));  // correctly rounded
  return static_cast<vx_uint8>(sum);
}

vx_status VX_CALLBACK weighted_average_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* img1 = nullptr;
  const _vx_image* img2 = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "img1", img1); s != VX_SUCCESS) return s;
  if (const vx_status s = alpha_parameter(node, parameters, 1); s != VX_SUCCESS) return s;
  if (const vx_status s = u8_input(node, parameters, 2, "img2", img2); s != VX_SUCCESS) return s;
  if (const vx_status s = same_size(node, img1, "img1", img2, "img2"); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 3, "output", img1->width, img1->height, kU8, metas[3]);
}

vx_status VX_CALLBACK weighted_average_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 alpha = 0;
  if (const vx_status s = read_float(parameters, 1, alpha); s != VX_SUCCESS) return s;
  if (!alpha_allowed(alpha)) return VX_ERROR_INVALID_VALUE;
  const MappedImage in1(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage in2(image_at(parameters, 2), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
  if (packed(in1, 1) && packed(in2, 1) && packed(out, 1)) {  // the vision library: the same values, vectorised
    vision::weighted_average(const_plane(in2), const_plane(in1), alpha, plane(out));
    return VX_SUCCESS;
  }
  for_each_pixel<vx_uint8, vx_uint8, vx_uint8>(in1, in2, out, [alpha](vx_uint8 a, vx_uint8 b) { return weighted(b, a, alpha); });
  return VX_SUCCESS;
}

/// The accumulator (parameter @p index): an image of @p format and the input's size, described by its own
/// attributes in @p meta.
vx_status accumulator_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index, const _vx_image* input, vx_df_image format,
                                vx_meta_format meta) noexcept {
  const _vx_image* accum = nullptr;
  if (const vx_status s = input_image(node, parameters, index, "accum", accum); s != VX_SUCCESS) return s;
  if (accum->format != format) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "accum has format %s, it must be %s", format_name(accum->format), format_name(format));
  }
  if (const vx_status s = same_size(node, input, "input", accum, "accum"); s != VX_SUCCESS) return s;
  return output_image(node, parameters, index, "accum", accum->width, accum->height, format, meta);
}

vx_status VX_CALLBACK accumulate_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  return accumulator_parameter(node, parameters, 1, input, kS16, metas[1]);
}

vx_status VX_CALLBACK accumulate_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage accum(image_at(parameters, 1), VX_READ_AND_WRITE);
  if (const vx_status s = mapped(in, accum); s != VX_SUCCESS) return s;
  vision::Pixels sums;
  if (packed(in, 1) && vision_pixels(accum, kS16, sums) && vision::accumulate(const_plane(in), sums)) return VX_SUCCESS;
  for_each_pixel<vx_uint8, vx_int16, vx_int16>(in, accum, accum, [](vx_uint8 a, vx_int16 acc) { return saturate_to<vx_int16>(acc + a); });
  return VX_SUCCESS;
}

vx_status VX_CALLBACK accumulate_weighted_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (const vx_status s = alpha_parameter(node, parameters, 1); s != VX_SUCCESS) return s;
  return accumulator_parameter(node, parameters, 2, input, kU8, metas[2]);
}

vx_status VX_CALLBACK accumulate_weighted_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 alpha = 0;
  if (const vx_status s = read_float(parameters, 1, alpha); s != VX_SUCCESS) return s;
  if (!alpha_allowed(alpha)) return VX_ERROR_INVALID_VALUE;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage accum(image_at(parameters, 2), VX_READ_AND_WRITE);
  if (const vx_status s = mapped(in, accum); s != VX_SUCCESS) return s;
  if (packed(in, 1) && packed(accum, 1)) {
    vision::weighted_average(const_plane(accum), const_plane(in), alpha, plane(accum));
    return VX_SUCCESS;
  }
  for_each_pixel<vx_uint8, vx_uint8, vx_uint8>(in, accum, accum, [alpha](vx_uint8 a, vx_uint8 acc) { return weighted(acc, a, alpha); });
  return VX_SUCCESS;
}

vx_status VX_CALLBACK accumulate_square_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  vx_uint32 shift = 0;
  bool known = false;
  if (const vx_status s = scalar_parameter(node, parameters, 1, "shift", VX_TYPE_UINT32, shift, known); s != VX_SUCCESS) return s;
  if (known && shift > 15) return refuse(node, VX_ERROR_INVALID_VALUE, "shift is %u, it must be in [0, 15]", shift);
  return accumulator_parameter(node, parameters, 2, input, kS16, metas[2]);
}

vx_status VX_CALLBACK accumulate_square_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_uint32 shift = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &shift, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  if (shift > 15) return VX_ERROR_INVALID_VALUE;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage accum(image_at(parameters, 2), VX_READ_AND_WRITE);
  if (const vx_status s = mapped(in, accum); s != VX_SUCCESS) return s;
  vision::Pixels sums;
  if (packed(in, 1) && vision_pixels(accum, kS16, sums) && vision::accumulate_square(const_plane(in), sums, shift)) return VX_SUCCESS;
  for_each_pixel<vx_uint8, vx_int16, vx_int16>(in, accum, accum, [shift](vx_uint8 a, vx_int16 acc) {
    const int square = static_cast<int>((static_cast<vx_uint32>(a) * a) >> shift);
    return saturate_to<vx_int16>(acc + square);
  });
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kArithmetic[] = {
    {VX_KERNEL_ADD, &add_function, &add_subtract_validate},
    {VX_KERNEL_SUBTRACT, &subtract_function, &add_subtract_validate},
    {VX_KERNEL_ABSDIFF, &absdiff_function, &absdiff_validate},
    {VX_KERNEL_MIN, &min_function, &min_max_validate},
    {VX_KERNEL_MAX, &max_function, &min_max_validate},
    {VX_KERNEL_MULTIPLY, &multiply_function, &multiply_validate},
    {VX_KERNEL_WEIGHTED_AVERAGE, &weighted_average_function, &weighted_average_validate},
    {VX_KERNEL_ACCUMULATE, &accumulate_function, &accumulate_validate},
    {VX_KERNEL_ACCUMULATE_WEIGHTED, &accumulate_weighted_function, &accumulate_weighted_validate},
    {VX_KERNEL_ACCUMULATE_SQUARE, &accumulate_square_function, &accumulate_square_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> arithmetic_kernels() noexcept { return kArithmetic; }

}  // namespace vg::openvx
