// The vg.vision module (module.hpp): thin kernels over the functions of this library (the filters,
// threshold, arithmetic and bitwise ones here; geometry.cpp and pixels.cpp hold the others). Validate checks the
// formats and attributes (naming the parameter or attribute at fault); create reads the attributes once;
// process maps the frame's buffers to planes and calls the function.
#include "visiongraph/kernels/vision/module.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/threshold.hpp"
#include "visiongraph/kernels/vision/to_gray.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::vision {
namespace {

using module_support::byte_attribute;
using module_support::const_plane;
using module_support::plane;
using module_support::validate_image_to_gray8;
using module_support::validate_two_gray8;

template <Filter3x3 F>
struct FilterKernel {
  explicit FilterKernel(KernelContext& ctx) : border(module_support::border_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    filter3x3(F, const_plane(ctx.image(0)), plane(ctx.image(1)), border);
    return Status::ok;
  }
  Border border;
};

struct ThresholdKernel {
  explicit ThresholdKernel(KernelContext& ctx) {
    t.type = ctx.string("type") == "range" ? Threshold::Type::range : Threshold::Type::binary;
    t.value = static_cast<std::uint8_t>(ctx.integer("value"));
    t.lower = static_cast<std::uint8_t>(ctx.integer("lower"));
    t.upper = static_cast<std::uint8_t>(ctx.integer("upper"));
    t.true_value = static_cast<std::uint8_t>(ctx.integer("true_value"));
    t.false_value = static_cast<std::uint8_t>(ctx.integer("false_value"));
  }
  Status process(KernelContext& ctx) noexcept {
    threshold(t, const_plane(ctx.image(0)), plane(ctx.image(1)));
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) noexcept {
    if (cmd.id != kSetThreshold) return Status::invalid_argument;
    std::int64_t value = 0;
    if (!cmd.read(value) || value < 0 || value > 255) return Status::invalid_argument;
    t.value = static_cast<std::uint8_t>(value);
    char text[32];
    std::snprintf(text, sizeof text, "value=%d", static_cast<int>(t.value));
    reply.write_text(text);
    return Status::ok;
  }
  Threshold t;
};

Status to_gray_process(KernelContext& ctx) noexcept {
  const ImageView in = ctx.image(0);
  const ConstPackedRgb rgb{in.plane(0), in.width(), in.height(), static_cast<std::ptrdiff_t>(in.stride(0)),
                           in.format() == ImageFormat::bgr24};
  to_gray(rgb, plane(ctx.image(1)));
  return Status::ok;
}

template <Arithmetic Op>
struct ArithmeticKernel {
  explicit ArithmeticKernel(KernelContext& ctx)
      : overflow(ctx.string("overflow") == "wrap" ? Overflow::wrap : Overflow::saturate) {}
  Status process(KernelContext& ctx) noexcept {
    const ImageView a = ctx.image(0), b = ctx.image(1), o = ctx.image(2);
    return arithmetic(Op, pixels_of(const_plane(a)), pixels_of(const_plane(b)), pixels_of(plane(o)), overflow) ? Status::ok
                                                                                                                : Status::invalid_argument;
  }
  Overflow overflow;
};

template <Arithmetic Op>
void add_arithmetic(Module& m, const char* name, const char* description) {
  m.add(KernelDecl(name, description)
            .input("in1", DataKind::image, true, "gray8 image")
            .input("in2", DataKind::image, true, "gray8 image of in1's size")
            .output("out", DataKind::image, true, "gray8 image of that size")
            .attribute("overflow", "saturate", "a result outside 0..255: saturate (clamp) or wrap (low 8 bits); absdiff always saturates")
            .validate([](ValidateContext& v) {
              const std::string& overflow = v.string("overflow");
              if (overflow != "saturate" && overflow != "wrap") v.fail("overflow", "must be saturate or wrap, got '" + overflow + "'");
              validate_two_gray8(v);
            }));
  m.implement(name, "cpu", callbacks_for<ArithmeticKernel<Op>>());
}

struct MultiplyKernel {
  explicit MultiplyKernel(KernelContext& ctx)
      : scale(ctx.number("scale")),
        overflow(ctx.string("overflow") == "wrap" ? Overflow::wrap : Overflow::saturate),
        nearest_even(ctx.string("rounding") == "nearest_even") {}
  Status process(KernelContext& ctx) noexcept {
    const ImageView a = ctx.image(0), b = ctx.image(1), o = ctx.image(2);
    return multiply(pixels_of(const_plane(a)), pixels_of(const_plane(b)), pixels_of(plane(o)), scale, overflow, nearest_even)
               ? Status::ok
               : Status::invalid_argument;
  }
  double scale;
  Overflow overflow;
  bool nearest_even;
};

void add_multiply(Module& m) {
  m.add(KernelDecl("vg.vision.multiply", "OpenVX Multiply on gray8: in1 * in2 * scale, rounded (e.g. masking by a soft mask, scale 1/255)")
            .input("in1", DataKind::image, true, "gray8 image")
            .input("in2", DataKind::image, true, "gray8 image of in1's size")
            .output("out", DataKind::image, true, "gray8 image of that size")
            .attribute("scale", 1.0, "factor applied to the product, finite and not negative (1/255 keeps 0..255 in 0..255)")
            .attribute("overflow", "saturate", "a result outside 0..255: saturate (clamp) or wrap (low 8 bits)")
            .attribute("rounding", "zero", "zero (truncate) or nearest_even")
            .validate([](ValidateContext& v) {
              const double scale = v.number("scale");
              if (!std::isfinite(scale) || scale < 0) v.fail("scale", "must be a finite number not below 0, got " + std::to_string(scale));
              const std::string& overflow = v.string("overflow");
              if (overflow != "saturate" && overflow != "wrap") v.fail("overflow", "must be saturate or wrap, got '" + overflow + "'");
              const std::string& rounding = v.string("rounding");
              if (rounding != "zero" && rounding != "nearest_even")
                v.fail("rounding", "must be zero or nearest_even, got '" + rounding + "'");
              validate_two_gray8(v);
            }));
  m.implement("vg.vision.multiply", "cpu", callbacks_for<MultiplyKernel>());
}

template <Bitwise Op>
Status bitwise_process(KernelContext& ctx) noexcept {
  const ImageView a = ctx.image(0);
  if constexpr (Op == Bitwise::not_) {
    bitwise(Op, const_plane(a), const_plane(a), plane(ctx.image(1)));
  } else {
    bitwise(Op, const_plane(a), const_plane(ctx.image(1)), plane(ctx.image(2)));
  }
  return Status::ok;
}

template <Bitwise Op>
void add_bitwise(Module& m, const char* name, const char* description) {
  KernelDecl decl(name, description);
  if constexpr (Op == Bitwise::not_) {
    decl.input("input", DataKind::image, true, "gray8 image").output("output", DataKind::image, true, "gray8 image of its size");
    decl.validate([](ValidateContext& v) { validate_image_to_gray8(v, {ImageFormat::gray8}); });
  } else {
    decl.input("in1", DataKind::image, true, "gray8 image")
        .input("in2", DataKind::image, true, "gray8 image of in1's size")
        .output("out", DataKind::image, true, "gray8 image of that size");
    decl.validate([](ValidateContext& v) { validate_two_gray8(v); });
  }
  m.add(std::move(decl));
  m.implement(name, "cpu", KernelCallbacks{nullptr, &bitwise_process<Op>, nullptr, nullptr});
}

template <Filter3x3 F>
void add_filter(Module& m, const char* name, const char* description) {
  KernelDecl decl(name, description);
  decl.input("input", DataKind::image, true, "gray8 image of any size").output("output", DataKind::image, true, "gray8 image of the input's size");
  module_support::border_attributes(decl).validate([](ValidateContext& v) {
    module_support::border_attributes_valid(v);
    validate_image_to_gray8(v, {ImageFormat::gray8});
  });
  m.add(std::move(decl));
  m.implement(name, "cpu", callbacks_for<FilterKernel<F>>());
}

}  // namespace

Module make_vision_module() {
  Module m("vg.vision");
  m.add(KernelDecl("vg.vision.to_gray", "packed BGR or RGB to gray (BT.601 luma, as OpenCV's cvtColor)")
            .input("input", DataKind::image, true, "bgr24 or rgb24 image of any size")
            .output("output", DataKind::image, true, "gray8 image of the input's size")
            .validate([](ValidateContext& v) { validate_image_to_gray8(v, {ImageFormat::bgr24, ImageFormat::rgb24}); }));
  m.implement("vg.vision.to_gray", "cpu", KernelCallbacks{nullptr, &to_gray_process, nullptr, nullptr});

  add_filter<Filter3x3::gaussian>(m, "vg.vision.gaussian3x3", "OpenVX Gaussian3x3: [1 2 1; 2 4 2; 1 2 1] / 16, truncated");
  add_filter<Filter3x3::box>(m, "vg.vision.box3x3", "OpenVX Box3x3: the 3x3 mean, truncated");
  add_filter<Filter3x3::median>(m, "vg.vision.median3x3", "OpenVX Median3x3: the median of the 3x3 window");
  add_filter<Filter3x3::erode>(m, "vg.vision.erode3x3", "OpenVX Erode3x3: the minimum of the 3x3 window");
  add_filter<Filter3x3::dilate>(m, "vg.vision.dilate3x3", "OpenVX Dilate3x3: the maximum of the 3x3 window");

  m.add(KernelDecl("vg.vision.threshold", "OpenVX Threshold: binary (in > value) or range (lower <= in <= upper)")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::image, true, "gray8 image of the input's size")
            .attribute("type", "binary", "binary or range")
            .attribute("value", 127, "binary: pixels above it are true_value")
            .attribute("lower", 0, "range: lowest pixel value that is true_value")
            .attribute("upper", 255, "range: highest pixel value that is true_value")
            .attribute("true_value", 255, "output where the test holds")
            .attribute("false_value", 0, "output elsewhere")
            .command(kSetThreshold, "set_threshold", PayloadKind::integer, "binary: replace value (0..255); replies with it")
            .validate([](ValidateContext& v) {
              const std::string& type = v.string("type");
              if (type != "binary" && type != "range") v.fail("type", "must be binary or range, got '" + type + "'");
              for (const char* key : {"value", "lower", "upper", "true_value", "false_value"}) byte_attribute(v, key);
              if (type == "range" && v.integer("lower") > v.integer("upper"))
                v.fail("lower", "is above upper (" + std::to_string(v.integer("lower")) + " > " + std::to_string(v.integer("upper")) + ")");
              validate_image_to_gray8(v, {ImageFormat::gray8});
            }));
  m.implement("vg.vision.threshold", "cpu", callbacks_for<ThresholdKernel>());

  add_arithmetic<Arithmetic::add>(m, "vg.vision.add", "OpenVX Add on gray8: in1 + in2");
  add_arithmetic<Arithmetic::subtract>(m, "vg.vision.subtract", "OpenVX Subtract on gray8: in1 - in2");
  add_arithmetic<Arithmetic::absdiff>(m, "vg.vision.absdiff", "OpenVX AbsDiff on gray8: |in1 - in2| (e.g. motion between two frames)");
  add_multiply(m);
  add_bitwise<Bitwise::not_>(m, "vg.vision.not", "OpenVX Not: ~input");
  add_bitwise<Bitwise::and_>(m, "vg.vision.and", "OpenVX And: in1 & in2 (e.g. masking)");
  add_bitwise<Bitwise::or_>(m, "vg.vision.or", "OpenVX Or: in1 | in2");
  add_bitwise<Bitwise::xor_>(m, "vg.vision.xor", "OpenVX Xor: in1 ^ in2");
  add_geometry_kernels(m);
  add_pixel_kernels(m);
  add_feature_kernels(m);
  add_measure_kernels(m);
  add_motion_kernels(m);
  add_control_kernels(m);
  add_tensor_kernels(m);
  return m;
}

}  // namespace vg::vision
