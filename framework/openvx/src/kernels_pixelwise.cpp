// The per-pixel standard kernels: bitwise Not, And, Or on U8 images, and arithmetic Add (U8 and S16, wrap or
// saturate), each a function and a validate (standard_kernel_support.hpp).
#include <VX/vx.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "scalar.hpp"
#include "standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

vx_image image_at(const vx_reference* parameters, vx_uint32 index) noexcept { return reinterpret_cast<vx_image>(parameters[index]); }

/// The first failed mapping's status, or VX_SUCCESS.
vx_status mapped(const MappedImage& a, const MappedImage& b, const MappedImage& c) noexcept {
  for (const MappedImage* m : {&a, &b, &c}) {
    if (m->status() != VX_SUCCESS) return m->status();
  }
  return VX_SUCCESS;
}

/// Runs out = op(in1, in2) on the U8 images of parameters 0, 1 and 2 (And, Or).
template <typename Op>
vx_status bitwise_binary(const vx_reference* parameters, vx_uint32 num, Op op) noexcept {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in1(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage in2(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
  for_each_pixel<vx_uint8, vx_uint8, vx_uint8>(in1, in2, out, op);
  return VX_SUCCESS;
}

vx_status u8_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept {
  if (const vx_status s = input_image(node, parameters, index, name, image); s != VX_SUCCESS) return s;
  if (image->format != VX_DF_IMAGE_U8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only U8 is supported", name, format_name(image->format));
  }
  return VX_SUCCESS;
}

bool u8_or_s16(vx_df_image format) noexcept { return format == VX_DF_IMAGE_U8 || format == VX_DF_IMAGE_S16; }

/// The overflow policy of Add (parameter 2). Its value is checked when it can be read: a virtual scalar
/// gets its value only while the graph runs, and is checked then.
vx_status policy_parameter(vx_node node, const vx_reference parameters[], vx_enum& policy) noexcept {
  if (!valid(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "policy is not a scalar");
  const auto* scalar = as<_vx_scalar>(parameters[2]);
  if (scalar->data_type != VX_TYPE_ENUM) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "policy is a scalar of type 0x%x, it must be VX_TYPE_ENUM", static_cast<unsigned>(scalar->data_type));
  }
  if (scalar->is_virtual) {
    policy = VX_CONVERT_POLICY_WRAP;
    return VX_SUCCESS;
  }
  std::memcpy(&policy, scalar->bytes.data(), sizeof policy);
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "policy is 0x%x, neither VX_CONVERT_POLICY_WRAP nor VX_CONVERT_POLICY_SATURATE",
                  static_cast<unsigned>(policy));
  }
  return VX_SUCCESS;
}

// Add, per pixel. Sums are taken in int, where no pair of U8 and S16 values overflows, then brought to the
// output type: WRAP keeps the low bits (two's complement), SATURATE clamps to the type's range.
constexpr vx_uint8 add_wrap_u8(int a, int b) noexcept { return static_cast<vx_uint8>(a + b); }
constexpr vx_uint8 add_saturate_u8(int a, int b) noexcept { return static_cast<vx_uint8>(std::min(a + b, 255)); }
constexpr vx_int16 add_wrap_s16(int a, int b) noexcept { return static_cast<vx_int16>(static_cast<vx_uint16>(a + b)); }
constexpr vx_int16 add_saturate_s16(int a, int b) noexcept { return static_cast<vx_int16>(std::clamp(a + b, -32768, 32767)); }

template <typename In1, typename In2, typename Out>
void add_pixels(const MappedImage& in1, const MappedImage& in2, const MappedImage& out, bool saturate) noexcept {
  if constexpr (sizeof(Out) == 1) {
    if (saturate) {
      for_each_pixel<In1, In2, Out>(in1, in2, out, [](In1 a, In2 b) { return add_saturate_u8(a, b); });
    } else {
      for_each_pixel<In1, In2, Out>(in1, in2, out, [](In1 a, In2 b) { return add_wrap_u8(a, b); });
    }
  } else if (saturate) {
    for_each_pixel<In1, In2, Out>(in1, in2, out, [](In1 a, In2 b) { return add_saturate_s16(a, b); });
  } else {
    for_each_pixel<In1, In2, Out>(in1, in2, out, [](In1 a, In2 b) { return add_wrap_s16(a, b); });
  }
}

}  // namespace

// --- Not ----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK not_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 1, "output", input->width, input->height, VX_DF_IMAGE_U8, metas[1]);
}

vx_status VX_CALLBACK not_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out, out); s != VX_SUCCESS) return s;
  for_each_pixel<vx_uint8, vx_uint8>(in, out, [](vx_uint8 a) { return static_cast<vx_uint8>(~a); });
  return VX_SUCCESS;
}

// --- And, Or ------------------------------------------------------------------------------------------

vx_status VX_CALLBACK bitwise_binary_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "in1", in1); s != VX_SUCCESS) return s;
  if (const vx_status s = u8_input(node, parameters, 1, "in2", in2); s != VX_SUCCESS) return s;
  if (const vx_status s = same_size(node, in1, "in1", in2, "in2"); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 2, "out", in1->width, in1->height, VX_DF_IMAGE_U8, metas[2]);
}

vx_status VX_CALLBACK and_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return bitwise_binary(parameters, num, [](vx_uint8 a, vx_uint8 b) { return static_cast<vx_uint8>(a & b); });
}

vx_status VX_CALLBACK or_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return bitwise_binary(parameters, num, [](vx_uint8 a, vx_uint8 b) { return static_cast<vx_uint8>(a | b); });
}

// --- Add ----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK add_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "in1", in1); s != VX_SUCCESS) return s;
  if (const vx_status s = input_image(node, parameters, 1, "in2", in2); s != VX_SUCCESS) return s;
  for (const auto& [image, name] : {std::pair{in1, "in1"}, std::pair{in2, "in2"}}) {
    if (!u8_or_s16(image->format)) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only U8 or S16 is supported", name, format_name(image->format));
    }
  }
  if (const vx_status s = same_size(node, in1, "in1", in2, "in2"); s != VX_SUCCESS) return s;
  vx_enum policy = 0;
  if (const vx_status s = policy_parameter(node, parameters, policy); s != VX_SUCCESS) return s;
  // The output is U8 only when both inputs are U8 and the application made it U8; otherwise S16 (so an
  // output of open format, a virtual image, is S16).
  if (!valid(parameters[3], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "out is not an image");
  const vx_df_image asked = as<_vx_image>(parameters[3])->declared_format;
  const bool both_u8 = in1->format == VX_DF_IMAGE_U8 && in2->format == VX_DF_IMAGE_U8;
  if (asked != VX_DF_IMAGE_VIRT && !u8_or_s16(asked)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "out has format %s, only U8 or S16 is supported", format_name(asked));
  }
  if (asked == VX_DF_IMAGE_U8 && !both_u8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is %s and in2 is %s: a U8 output needs two U8 inputs",
                  format_name(in1->format), format_name(in2->format));
  }
  const vx_df_image format = asked == VX_DF_IMAGE_U8 ? VX_DF_IMAGE_U8 : VX_DF_IMAGE_S16;
  return output_image(node, parameters, 3, "out", in1->width, in1->height, format, metas[3]);
}

vx_status VX_CALLBACK add_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &policy, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  const bool saturate = policy == VX_CONVERT_POLICY_SATURATE;
  // The formats were settled by verification: read them as they are.
  const vx_df_image f1 = as<_vx_image>(parameters[0])->format;
  const vx_df_image f2 = as<_vx_image>(parameters[1])->format;
  const vx_df_image fo = as<_vx_image>(parameters[3])->format;
  const MappedImage in1(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage in2(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
  constexpr vx_df_image U8 = VX_DF_IMAGE_U8, S16 = VX_DF_IMAGE_S16;
  if (f1 == U8 && f2 == U8 && fo == U8) {
    add_pixels<vx_uint8, vx_uint8, vx_uint8>(in1, in2, out, saturate);
  } else if (f1 == U8 && f2 == U8 && fo == S16) {
    add_pixels<vx_uint8, vx_uint8, vx_int16>(in1, in2, out, saturate);
  } else if (f1 == U8 && f2 == S16 && fo == S16) {
    add_pixels<vx_uint8, vx_int16, vx_int16>(in1, in2, out, saturate);
  } else if (f1 == S16 && f2 == U8 && fo == S16) {
    add_pixels<vx_int16, vx_uint8, vx_int16>(in1, in2, out, saturate);
  } else if (f1 == S16 && f2 == S16 && fo == S16) {
    add_pixels<vx_int16, vx_int16, vx_int16>(in1, in2, out, saturate);
  } else {
    return VX_ERROR_INVALID_FORMAT;  // validate allows none other
  }
  return VX_SUCCESS;
}

}  // namespace vg::openvx
