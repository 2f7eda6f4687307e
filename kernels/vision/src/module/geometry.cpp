// The vg.vision kernels that change an image's geometry: scale, half_scale_gaussian, warp_affine,
// warp_perspective and remap, over the library's scale_image, gaussian_half, warp and remap functions (the
// ones libopenvx's ScaleImage, HalfScaleGaussian, WarpAffine, WarpPerspective and Remap run).
#include <cmath>
#include <string>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/scale.hpp"
#include "visiongraph/kernels/vision/warp.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr std::int64_t kMaxSide = 1 << 15;  // far above any camera; keeps 32-bit offsets safe

struct ScaleKernel {
  explicit ScaleKernel(KernelContext& ctx)
      : type(static_cast<ScaleInterpolation>(ctx.string("interpolation") == "nearest"    ? 0
                                             : ctx.string("interpolation") == "bilinear" ? 1
                                                                                         : 2)),
        border(border_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    scale_image(const_plane(ctx.image(0)), plane(ctx.image(1)), type, border);
    return Status::ok;
  }
  ScaleInterpolation type;
  Border border;
};
static_assert(static_cast<int>(ScaleInterpolation::nearest) == 0 && static_cast<int>(ScaleInterpolation::bilinear) == 1 &&
              static_cast<int>(ScaleInterpolation::area) == 2);

void add_scale(Module& m) {
  KernelDecl decl("vg.vision.scale", "OpenVX ScaleImage on gray8: resize to width x height (nearest, bilinear or area)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of width x height")
      .required_attribute("width", AttrType::integer, "the output's width")
      .required_attribute("height", AttrType::integer, "the output's height")
      .attribute("interpolation", "bilinear", "nearest, bilinear or area (the mean of the source pixels each output covers)");
  border_attributes(decl).validate([](ValidateContext& v) {
    image_input(v, 0, "input", {ImageFormat::gray8});
    choice_attribute(v, "interpolation", {"nearest", "bilinear", "area"});
    border_attributes_valid(v);
    const std::uint32_t width = positive_attribute(v, "width", kMaxSide), height = positive_attribute(v, "height", kMaxSide);
    v.set_meta(1, DataMeta::image_of(width, height, ImageFormat::gray8));
  });
  m.add(std::move(decl));
  m.implement("vg.vision.scale", "cpu", callbacks_for<ScaleKernel>());
}

struct HalfScaleKernel {
  explicit HalfScaleKernel(KernelContext& ctx) : kernel_size(static_cast<int>(ctx.integer("kernel_size"))), border(border_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    return gaussian_half(const_plane(ctx.image(0)), plane(ctx.image(1)), kernel_size, border) ? Status::ok : Status::invalid_argument;
  }
  int kernel_size;
  Border border;
};

void add_half_scale(Module& m) {
  KernelDecl decl("vg.vision.half_scale_gaussian",
                  "OpenVX HalfScaleGaussian on gray8: a 3x3 or 5x5 Gaussian, then every second pixel (one pyramid level)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of half the size, rounded up")
      .attribute("kernel_size", 5, "3 or 5: the Gaussian's window");
  border_attributes(decl).validate([](ValidateContext& v) {
    const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
    const std::int64_t size = v.integer("kernel_size");
    if (size != 3 && size != 5) v.fail("kernel_size", "must be 3 or 5, got " + std::to_string(size));
    border_attributes_valid(v);
    v.set_meta(1, DataMeta::image_of((in.image.width + 1) / 2, (in.image.height + 1) / 2, ImageFormat::gray8));
  });
  m.add(std::move(decl));
  m.implement("vg.vision.half_scale_gaussian", "cpu", callbacks_for<HalfScaleKernel>());
}

/// The warps read `matrix` as the user writes it, row-major (2x3 or 3x3, mapping output pixel (x, y, 1) to
/// the source point), and hand it to the library in OpenVX's order (the transpose).
template <int Rows>
struct WarpKernel {
  explicit WarpKernel(KernelContext& ctx)
      : interpolation(ctx.string("interpolation") == "nearest" ? Interpolation::nearest : Interpolation::bilinear), border(border_of(ctx)) {
    const std::vector<double>& m = ctx.numbers("matrix");
    for (int r = 0; r < Rows; ++r)
      for (int c = 0; c < 3; ++c) openvx_order[c * Rows + r] = static_cast<float>(m[static_cast<std::size_t>(r * 3 + c)]);
  }
  Status process(KernelContext& ctx) noexcept {
    const SampleSource src{const_plane(ctx.image(0)), 0, 0, UINT32_MAX, UINT32_MAX, border.mode == BorderMode::constant, border.constant};
    const Plane out = plane(ctx.image(1));
    const bool done = Rows == 2 ? warp_affine(src, openvx_order, interpolation, out) : warp_perspective(src, openvx_order, interpolation, out);
    return done ? Status::ok : Status::invalid_argument;
  }
  float openvx_order[3 * Rows] = {};
  Interpolation interpolation;
  Border border;
};

template <int Rows>
void add_warp(Module& m, const char* name, const char* description, const char* matrix_text) {
  KernelDecl decl(name, description);
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of width x height")
      .required_attribute("matrix", AttrType::numbers, matrix_text)
      .required_attribute("width", AttrType::integer, "the output's width")
      .required_attribute("height", AttrType::integer, "the output's height")
      .attribute("interpolation", "bilinear", "nearest or bilinear");
  border_attributes(decl).validate([](ValidateContext& v) {
    image_input(v, 0, "input", {ImageFormat::gray8});
    const std::vector<double>& matrix = v.numbers("matrix");
    if (matrix.size() != 3 * Rows)
      v.fail("matrix", "must hold " + std::to_string(3 * Rows) + " numbers (" + std::to_string(Rows) + " rows of 3), got " +
                           std::to_string(matrix.size()));
    for (const double e : matrix)
      if (!std::isfinite(e) || std::fabs(e) > 3.4e38) v.fail("matrix", "holds " + std::to_string(e) + ": every number must be a finite float");
    choice_attribute(v, "interpolation", {"nearest", "bilinear"});
    border_attributes_valid(v);
    const std::uint32_t width = positive_attribute(v, "width", kMaxSide), height = positive_attribute(v, "height", kMaxSide);
    v.set_meta(1, DataMeta::image_of(width, height, ImageFormat::gray8));
  });
  m.add(std::move(decl));
  m.implement(name, "cpu", callbacks_for<WarpKernel<Rows>>());
}

struct RemapKernel {
  explicit RemapKernel(KernelContext& ctx)
      : interpolation(ctx.string("interpolation") == "nearest" ? Interpolation::nearest : Interpolation::bilinear), border(border_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    const SampleSource src{const_plane(ctx.image(0)), 0, 0, UINT32_MAX, UINT32_MAX, border.mode == BorderMode::constant, border.constant};
    const Plane out = plane(ctx.image(2));
    return remap(src, ctx.tensor(1).data(), static_cast<std::ptrdiff_t>(out.width) * 2 * sizeof(float), interpolation, out)
               ? Status::ok
               : Status::invalid_argument;
  }
  Interpolation interpolation;
  Border border;
};

void add_remap(Module& m) {
  KernelDecl decl("vg.vision.remap", "OpenVX Remap on gray8: output (x, y) samples the input where the map says (e.g. undoing lens distortion)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .input("map", DataKind::tensor, true, "f32 tensor [height, width, 2]: for each output pixel the input's (x, y) to read")
      .output("output", DataKind::image, true, "gray8 image of the map's width x height")
      .attribute("interpolation", "bilinear", "nearest or bilinear");
  border_attributes(decl).validate([](ValidateContext& v) {
    image_input(v, 0, "input", {ImageFormat::gray8});
    const DataMeta& map = v.meta(1);
    const TensorMeta& t = map.tensor;
    if (map.kind != DataKind::tensor || t.type != ElementType::f32 || t.rank != 3 || t.dims[2] != 2 || t.dims[0] < 1 || t.dims[1] < 1 ||
        t.dims[0] > kMaxSide || t.dims[1] > kMaxSide)
      v.fail("map", "expects an f32 tensor [height, width, 2] (an (x, y) pair per output pixel), got " + map.describe());
    choice_attribute(v, "interpolation", {"nearest", "bilinear"});
    border_attributes_valid(v);
    v.set_meta(2, DataMeta::image_of(static_cast<std::uint32_t>(t.dims[1]), static_cast<std::uint32_t>(t.dims[0]), ImageFormat::gray8));
  });
  m.add(std::move(decl));
  m.implement("vg.vision.remap", "cpu", callbacks_for<RemapKernel>());
}

}  // namespace

void add_geometry_kernels(Module& m) {
  add_remap(m);
  add_scale(m);
  add_half_scale(m);
  add_warp<2>(m, "vg.vision.warp_affine", "OpenVX WarpAffine on gray8: output (x, y) samples the input at matrix * (x, y, 1)",
              "6 numbers, 2 rows of 3: output (x, y) reads the input at (m0 x + m1 y + m2, m3 x + m4 y + m5)");
  add_warp<3>(m, "vg.vision.warp_perspective",
              "OpenVX WarpPerspective on gray8: output (x, y) samples the input at the projection of matrix * (x, y, 1)",
              "9 numbers, 3 rows of 3: output (x, y) reads the input at (X / Z, Y / Z), (X, Y, Z) = matrix * (x, y, 1)");
}

}  // namespace vg::vision
