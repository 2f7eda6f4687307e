// The vg.vision kernels whose results are not gray8 images, or that take such results: sobel3x3, magnitude,
// phase, convert_depth_to_s16 / _to_gray8, integral_image, histogram, mean_stddev, min_max_loc (and _s16), match_template,
// laplacian_level and laplacian_reconstruct_level;
// and the two-image weighted_average, min and max (and their S16 forms). Each runs the library function libopenvx's kernel of the
// same name runs. S16 planes are i16 tensors [height, width] (support.hpp); integral images u32 tensors of
// that shape; histograms u32 tensors [bins].
#include <span>
#include <string>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/accumulate.hpp"
#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/convert_depth.hpp"
#include "visiongraph/kernels/vision/gradients.hpp"
#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/laplacian.hpp"
#include "visiongraph/kernels/vision/match_template.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr std::int64_t kMaxLocations = 1 << 24;

// --- sobel3x3, magnitude, phase ------------------------------------------------------------------------------

struct SobelKernel {
  explicit SobelKernel(KernelContext& ctx) : border(border_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    const Pixels gx = ctx.is_bound(1) ? s16_pixels(ctx.tensor(1)) : Pixels{};
    const Pixels gy = ctx.is_bound(2) ? s16_pixels(ctx.tensor(2)) : Pixels{};
    sobel3x3(const_plane(ctx.image(0)), gx, gy, border);
    return Status::ok;
  }
  Border border;
};

void add_sobel(Module& m) {
  KernelDecl decl("vg.vision.sobel3x3",
                  "OpenVX Sobel3x3: the horizontal and vertical 3x3 Sobel gradients of a gray8 image, as S16 planes "
                  "(x to the right, y downwards)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("grad_x", DataKind::tensor, false, "i16 tensor [height, width]: [-1 0 1; -2 0 2; -1 0 1]")
      .output("grad_y", DataKind::tensor, false, "i16 tensor [height, width]: [-1 -2 -1; 0 0 0; 1 2 1]");
  border_attributes(decl).validate([](ValidateContext& v) {
    const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
    if (!v.is_bound(1) && !v.is_bound(2)) v.fail("grad_x", "and grad_y are both unbound: bind at least one");
    for (std::size_t i : {1u, 2u})
      if (v.is_bound(i)) v.set_meta(i, s16_plane(in.image.width, in.image.height));
    border_attributes_valid(v);
  });
  m.add(std::move(decl));
  m.implement("vg.vision.sobel3x3", "cpu", callbacks_for<SobelKernel>());
}

/// Two S16 planes of one size (parameters 0, 1); returns the first.
const DataMeta& two_gradients(ValidateContext& v) {
  const DataMeta& gx = s16_plane_input(v, 0, "grad_x");
  const DataMeta& gy = s16_plane_input(v, 1, "grad_y");
  if (gx.tensor.dims[0] != gy.tensor.dims[0] || gx.tensor.dims[1] != gy.tensor.dims[1])
    v.fail("grad_y", "is " + gy.describe() + " but grad_x is " + gx.describe() + ": they must have one shape");
  return gx;
}

Status magnitude_process(KernelContext& ctx) noexcept {
  magnitude(s16_pixels(ctx.tensor(0)), s16_pixels(ctx.tensor(1)), s16_pixels(ctx.tensor(2)));
  return Status::ok;
}

Status phase_process(KernelContext& ctx) noexcept {
  phase(s16_pixels(ctx.tensor(0)), s16_pixels(ctx.tensor(1)), plane(ctx.image(2)));
  return Status::ok;
}

void add_magnitude_phase(Module& m) {
  m.add(KernelDecl("vg.vision.magnitude", "OpenVX Magnitude: sqrt(gx^2 + gy^2) rounded, saturated to 32767")
            .input("grad_x", DataKind::tensor, true, "S16 plane (i16 tensor [height, width])")
            .input("grad_y", DataKind::tensor, true, "S16 plane of grad_x's shape")
            .output("output", DataKind::tensor, true, "S16 plane of that shape")
            .validate([](ValidateContext& v) {
              const TensorMeta& t = two_gradients(v).tensor;
              v.set_meta(2, s16_plane(static_cast<std::uint32_t>(t.dims[1]), static_cast<std::uint32_t>(t.dims[0])));
            }));
  m.implement("vg.vision.magnitude", "cpu", KernelCallbacks{nullptr, &magnitude_process, nullptr, nullptr});
  m.add(KernelDecl("vg.vision.phase", "OpenVX Phase: the gradient's orientation atan2(gy, gx) in 256 steps per turn, as gray8")
            .input("grad_x", DataKind::tensor, true, "S16 plane (i16 tensor [height, width])")
            .input("grad_y", DataKind::tensor, true, "S16 plane of grad_x's shape")
            .output("output", DataKind::image, true, "gray8 image of that size")
            .validate([](ValidateContext& v) {
              const TensorMeta& t = two_gradients(v).tensor;
              v.set_meta(2, DataMeta::image_of(static_cast<std::uint32_t>(t.dims[1]), static_cast<std::uint32_t>(t.dims[0]), ImageFormat::gray8));
            }));
  m.implement("vg.vision.phase", "cpu", KernelCallbacks{nullptr, &phase_process, nullptr, nullptr});
}

// --- convert_depth_to_s16, convert_depth_to_gray8 ----------------------------------------------------------------

struct ConvertDepthKernel {
  explicit ConvertDepthKernel(KernelContext& ctx)
      : shift(static_cast<int>(ctx.integer("shift"))), overflow(ctx.string("overflow") == "wrap" ? Overflow::wrap : Overflow::saturate),
        to_s16(ctx.meta(0).kind == DataKind::image) {}
  Status process(KernelContext& ctx) noexcept {
    const bool done = to_s16 ? convert_depth(pixels_of(const_plane(ctx.image(0))), s16_pixels(ctx.tensor(1)), shift, overflow)
                             : convert_depth(s16_pixels(ctx.tensor(0)), pixels_of(plane(ctx.image(1))), shift, overflow);
    return done ? Status::ok : Status::invalid_argument;
  }
  int shift;
  Overflow overflow;
  bool to_s16;
};

void convert_depth_attributes_valid(ValidateContext& v) {
  const std::int64_t shift = v.integer("shift");
  if (shift < 0 || shift > 7) v.fail("shift", "must be 0..7, got " + std::to_string(shift));
  choice_attribute(v, "overflow", {"saturate", "wrap"});
}

void add_convert_depth(Module& m) {
  m.add(KernelDecl("vg.vision.convert_depth_to_s16", "OpenVX ConvertDepth up: a gray8 image into an S16 plane, each pixel << shift")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::tensor, true, "S16 plane (i16 tensor [height, width])")
            .attribute("shift", 0, "0..7")
            .attribute("overflow", "saturate", "unused going up (kept so both directions read alike)")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              convert_depth_attributes_valid(v);
              v.set_meta(1, s16_plane(in.image.width, in.image.height));
            }));
  m.implement("vg.vision.convert_depth_to_s16", "cpu", callbacks_for<ConvertDepthKernel>());
  m.add(KernelDecl("vg.vision.convert_depth_to_gray8",
                   "OpenVX ConvertDepth down: an S16 plane into a gray8 image, each value >> shift (arithmetic), then saturated or wrapped")
            .input("input", DataKind::tensor, true, "S16 plane (i16 tensor [height, width])")
            .output("output", DataKind::image, true, "gray8 image of that size")
            .attribute("shift", 0, "0..7")
            .attribute("overflow", "saturate", "saturate (clamp to 0..255) or wrap (the low 8 bits)")
            .validate([](ValidateContext& v) {
              const TensorMeta& t = s16_plane_input(v, 0, "input").tensor;
              convert_depth_attributes_valid(v);
              v.set_meta(1, DataMeta::image_of(static_cast<std::uint32_t>(t.dims[1]), static_cast<std::uint32_t>(t.dims[0]), ImageFormat::gray8));
            }));
  m.implement("vg.vision.convert_depth_to_gray8", "cpu", callbacks_for<ConvertDepthKernel>());
}

// --- integral_image, histogram, mean_stddev, min_max_loc -----------------------------------------------------

Status integral_process(KernelContext& ctx) noexcept {
  const ConstPlane in = const_plane(ctx.image(0));
  integral(in, U32Plane{ctx.tensor(1).data_as<std::uint32_t>(), in.width, in.height, static_cast<std::ptrdiff_t>(in.width) * 4});
  return Status::ok;
}

struct HistogramKernel {
  explicit HistogramKernel(KernelContext& ctx)
      : offset(ctx.integer("offset")), range(static_cast<std::uint32_t>(ctx.integer("range"))),
        bins(static_cast<std::size_t>(ctx.integer("bins"))) {}
  Status process(KernelContext& ctx) noexcept {
    std::uint64_t counts[256];
    value_counts(const_plane(ctx.image(0)), counts);
    return bin_counts(counts, offset, range, bins, ctx.tensor(1).data_as<std::uint32_t>()) ? Status::ok : Status::invalid_argument;
  }
  std::int64_t offset;
  std::uint32_t range;
  std::size_t bins;
};

Status mean_stddev_process(KernelContext& ctx) noexcept {
  const ConstPlane in = const_plane(ctx.image(0));
  const MeanStdDev result = mean_stddev(pixel_sums(in), std::uint64_t{in.width} * in.height);
  if (ctx.is_bound(1)) ctx.scalar(1).set(result.mean);
  if (ctx.is_bound(2)) ctx.scalar(2).set(result.stddev);
  return Status::ok;
}

/// Parameter @p index as pixels: a gray8 image, or an S16 plane (i16 tensor).
template <bool S16>
ConstPixels input_pixels(const KernelContext& ctx, std::size_t index) noexcept {
  if constexpr (S16) {
    return s16_pixels(ctx.tensor(index));
  } else {
    return pixels_of(const_plane(ctx.image(index)));
  }
}

template <bool S16>
Status min_max_loc_process(KernelContext& ctx) noexcept {
    const ConstPixels in = input_pixels<S16>(ctx, 0);
    const Extrema e = extrema(in);
    if (ctx.is_bound(1)) ctx.scalar(1).set(e.min);
    if (ctx.is_bound(2)) ctx.scalar(2).set(e.max);
    for (const auto& [array, value] : {std::pair{std::size_t{3}, e.min}, std::pair{std::size_t{4}, e.max}}) {
      if (!ctx.is_bound(array)) continue;
      ArrayView<PixelPosition> positions = ctx.array<PixelPosition>(array);
      (void)positions.resize(locate(in, value, positions.data(), positions.capacity()));
    }
    const auto clamp32 = [](std::uint64_t n) { return static_cast<std::uint32_t>(n < UINT32_MAX ? n : UINT32_MAX); };
    if (ctx.is_bound(5)) ctx.scalar(5).set(clamp32(e.min_count));
    if (ctx.is_bound(6)) ctx.scalar(6).set(clamp32(e.max_count));
    return Status::ok;
}

void add_statistics(Module& m) {
  m.add(KernelDecl("vg.vision.integral_image", "OpenVX IntegralImage: each pixel the sum of those above and left of it, itself included, modulo 2^32")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::tensor, true, "u32 tensor [height, width]")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              v.set_meta(1, DataMeta::tensor_of({in.image.height, in.image.width}, ElementType::u32));
            }));
  m.implement("vg.vision.integral_image", "cpu", KernelCallbacks{nullptr, &integral_process, nullptr, nullptr});

  m.add(KernelDecl("vg.vision.histogram",
                   "OpenVX Histogram: how many pixels fall in each of `bins` equal bins over [offset, offset + range); "
                   "value v counts in bin (v - offset) * bins / range")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::tensor, true, "u32 tensor [bins]")
            .attribute("bins", 256, "1..256, at most range")
            .attribute("offset", 0, "the first value counted, 0..255")
            .attribute("range", 256, "how many values are counted from offset, 1..256 - offset")
            .validate([](ValidateContext& v) {
              image_input(v, 0, "input", {ImageFormat::gray8});
              const std::int64_t offset = byte_attribute(v, "offset");
              const std::uint32_t range = positive_attribute(v, "range", 256 - offset);
              const std::uint32_t bins = positive_attribute(v, "bins", range);
              v.set_meta(1, DataMeta::tensor_of({bins}, ElementType::u32));
            }));
  m.implement("vg.vision.histogram", "cpu", callbacks_for<HistogramKernel>());

  m.add(KernelDecl("vg.vision.mean_stddev", "OpenVX MeanStdDev: the mean of a gray8 image's pixels and their population standard deviation")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("mean", DataKind::scalar, false, "f32")
            .output("stddev", DataKind::scalar, false, "f32")
            .validate([](ValidateContext& v) {
              image_input(v, 0, "input", {ImageFormat::gray8});
              if (!v.is_bound(1) && !v.is_bound(2)) v.fail("mean", "and stddev are both unbound: bind at least one");
              for (std::size_t i : {1u, 2u})
                if (v.is_bound(i)) v.set_meta(i, DataMeta::scalar_of(ElementType::f32));
            }));
  m.implement("vg.vision.mean_stddev", "cpu", KernelCallbacks{nullptr, &mean_stddev_process, nullptr, nullptr});

  for (const bool s16 : {false, true}) {
    const char* name = s16 ? "vg.vision.min_max_loc_s16" : "vg.vision.min_max_loc";
    m.add(KernelDecl(name, s16 ? "OpenVX MinMaxLoc on an S16 plane (e.g. where a gradient is strongest): as vg.vision.min_max_loc"
                               : "OpenVX MinMaxLoc: a gray8 image's smallest and largest pixel values, how many pixels hold each, and "
                                 "where (raster order, the first `capacity`)")
              .input("input", s16 ? DataKind::tensor : DataKind::image, true, s16 ? "S16 plane (i16 tensor [height, width])" : "gray8 image of any size")
              .output("min", DataKind::scalar, false, "i32")
              .output("max", DataKind::scalar, false, "i32")
              .output("min_locations", DataKind::array, false, "array of vg.vision.position (x, y: uint32 each)")
              .output("max_locations", DataKind::array, false, "array of vg.vision.position")
              .output("min_count", DataKind::scalar, false, "u32: every pixel holding the minimum, also those past the capacity")
              .output("max_count", DataKind::scalar, false, "u32")
              .attribute("capacity", 1000, "the most positions each array holds")
              .validate([s16](ValidateContext& v) {
                if (s16) {
                  s16_plane_input(v, 0, "input");
                } else {
                  image_input(v, 0, "input", {ImageFormat::gray8});
                }
                const std::uint32_t capacity = positive_attribute(v, "capacity", kMaxLocations);
                bool any = false;
                for (std::size_t i = 1; i <= 6; ++i) {
                  if (!v.is_bound(i)) continue;
                  any = true;
                  v.set_meta(i, i == 3 || i == 4 ? DataMeta::array_of<PixelPosition>("vg.vision.position", capacity)
                                                 : DataMeta::scalar_of(i <= 2 ? ElementType::i32 : ElementType::u32));
                }
                if (!any) v.fail("min", "and every other output are unbound: bind at least one");
              }));
    m.implement(name, "cpu", KernelCallbacks{nullptr, s16 ? &min_max_loc_process<true> : &min_max_loc_process<false>, nullptr, nullptr});
  }
}

// --- match_template ----------------------------------------------------------------------------------------------

// In CompareMethod's order.
constexpr const char* kCompareMethods[] = {"hamming", "l1", "l2", "ccorr", "l2_norm", "ccorr_norm"};

struct MatchTemplateKernel {
  explicit MatchTemplateKernel(KernelContext& ctx) {
    for (std::size_t i = 0; i < std::size(kCompareMethods); ++i)
      if (ctx.string("method") == kCompareMethods[i]) method = static_cast<CompareMethod>(i);  // validate checked it
  }
  Status process(KernelContext& ctx) noexcept {
    return match_template(const_plane(ctx.image(0)), const_plane(ctx.image(1)), method, s16_pixels(ctx.tensor(2))) ? Status::ok
                                                                                                                  : Status::invalid_argument;
  }
  CompareMethod method = CompareMethod::l2;
};

void add_match_template(Module& m) {
  m.add(KernelDecl("vg.vision.match_template",
                   "OpenVX MatchTemplate: how well a gray8 template matches each placement of its top-left corner in a gray8 image, "
                   "as S16 (the normalised methods in Q7.8: 256 is 1.0)")
            .input("input", DataKind::image, true, "gray8 image")
            .input("template", DataKind::image, true, "gray8 image no larger than the input")
            .output("output", DataKind::tensor, true, "S16 plane [height - template height + 1, width - template width + 1]")
            .attribute("method", "l2", "hamming, l1, l2, ccorr, l2_norm or ccorr_norm")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              const DataMeta& t = image_input(v, 1, "template", {ImageFormat::gray8});
              if (t.image.width > in.image.width || t.image.height > in.image.height)
                v.fail("template", "is " + std::to_string(t.image.width) + "x" + std::to_string(t.image.height) + ", larger than the input (" +
                                       std::to_string(in.image.width) + "x" + std::to_string(in.image.height) + ")");
              choice_attribute(v, "method", kCompareMethods);
              v.set_meta(2, s16_plane(in.image.width - t.image.width + 1, in.image.height - t.image.height + 1));
            }));
  m.implement("vg.vision.match_template", "cpu", callbacks_for<MatchTemplateKernel>());
}

// --- laplacian_level, laplacian_reconstruct_level ------------------------------------------------------------

Status laplacian_level_process(KernelContext& ctx) noexcept {
  return laplacian_level(const_plane(ctx.image(0)), plane(ctx.image(1)), s16_pixels(ctx.tensor(2)), Border{}) ? Status::ok
                                                                                                            : Status::invalid_argument;
}

Status laplacian_reconstruct_process(KernelContext& ctx) noexcept {
  return laplacian_reconstruct_level(const_plane(ctx.image(0)), s16_pixels(ctx.tensor(1)), pixels_of(plane(ctx.image(2))), Border{})
             ? Status::ok
             : Status::invalid_argument;
}

void add_laplacian(Module& m) {
  m.add(KernelDecl("vg.vision.laplacian_level",
                   "One level of OpenVX LaplacianPyramid: the next Gaussian level (5x5, half the size) and what it loses, "
                   "input - expand(coarse), as S16; a chain of these is the pyramid (each coarse the next node's input)")
            .input("input", DataKind::image, true, "gray8 image: this level")
            .output("coarse", DataKind::image, true, "gray8 image of half the size, rounded up: the next Gaussian level")
            .output("laplacian", DataKind::tensor, true, "S16 plane (i16 tensor [height, width]) of the input's size")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              v.set_meta(1, DataMeta::image_of((in.image.width + 1) / 2, (in.image.height + 1) / 2, ImageFormat::gray8));
              v.set_meta(2, s16_plane(in.image.width, in.image.height));
            }));
  m.implement("vg.vision.laplacian_level", "cpu", KernelCallbacks{nullptr, &laplacian_level_process, nullptr, nullptr});
  m.add(KernelDecl("vg.vision.laplacian_reconstruct_level",
                   "One level of OpenVX LaplacianReconstruct: expand(coarse) + laplacian, saturated to gray8 (the inverse of "
                   "laplacian_level: coarse and laplacian from it give its input back)")
            .input("coarse", DataKind::image, true, "gray8 image: the coarser level")
            .input("laplacian", DataKind::tensor, true, "S16 plane (i16 tensor [height, width]) whose sides halved, rounded up, are coarse's")
            .output("output", DataKind::image, true, "gray8 image of the laplacian's size")
            .validate([](ValidateContext& v) {
              const DataMeta& coarse = image_input(v, 0, "coarse", {ImageFormat::gray8});
              const TensorMeta& t = s16_plane_input(v, 1, "laplacian").tensor;
              const auto w = static_cast<std::uint32_t>(t.dims[1]), h = static_cast<std::uint32_t>(t.dims[0]);
              if ((w + 1) / 2 != coarse.image.width || (h + 1) / 2 != coarse.image.height)
                v.fail("coarse", "is " + std::to_string(coarse.image.width) + "x" + std::to_string(coarse.image.height) + " but the " +
                                     std::to_string(w) + "x" + std::to_string(h) + " laplacian needs " + std::to_string((w + 1) / 2) + "x" +
                                     std::to_string((h + 1) / 2));
              v.set_meta(2, DataMeta::image_of(w, h, ImageFormat::gray8));
            }));
  m.implement("vg.vision.laplacian_reconstruct_level", "cpu", KernelCallbacks{nullptr, &laplacian_reconstruct_process, nullptr, nullptr});
}

// --- weighted_average, min, max ------------------------------------------------------------------------------------

struct WeightedAverageKernel {
  explicit WeightedAverageKernel(KernelContext& ctx) : alpha(static_cast<float>(ctx.number("alpha"))) {}
  Status process(KernelContext& ctx) noexcept {
    weighted_average(const_plane(ctx.image(1)), const_plane(ctx.image(0)), alpha, plane(ctx.image(2)));
    return Status::ok;
  }
  float alpha;
};

template <bool TakeMin, bool S16>
Status min_max_process(KernelContext& ctx) noexcept {
  const Pixels out = S16 ? s16_pixels(ctx.tensor(2)) : pixels_of(plane(ctx.image(2)));
  return min_max(TakeMin, input_pixels<S16>(ctx, 0), input_pixels<S16>(ctx, 1), out) ? Status::ok : Status::invalid_argument;
}

void add_two_image_kernels(Module& m) {
  m.add(KernelDecl("vg.vision.weighted_average", "OpenVX WeightedAverage: alpha * in1 + (1 - alpha) * in2, truncated (e.g. a running background)")
            .input("in1", DataKind::image, true, "gray8 image")
            .input("in2", DataKind::image, true, "gray8 image of in1's size")
            .output("out", DataKind::image, true, "gray8 image of that size")
            .attribute("alpha", 0.5, "in1's weight, 0..1")
            .validate([](ValidateContext& v) {
              const double alpha = v.number("alpha");
              if (!(alpha >= 0 && alpha <= 1)) v.fail("alpha", "must be 0..1, got " + std::to_string(alpha));
              validate_two_gray8(v);
            }));
  m.implement("vg.vision.weighted_average", "cpu", callbacks_for<WeightedAverageKernel>());
  for (const auto& [name, description, process] :
       {std::tuple{"vg.vision.min", "OpenVX Min: the smaller of in1 and in2, pixel by pixel", &min_max_process<true, false>},
        std::tuple{"vg.vision.max", "OpenVX Max: the larger of in1 and in2, pixel by pixel", &min_max_process<false, false>}}) {
    m.add(KernelDecl(name, description)
              .input("in1", DataKind::image, true, "gray8 image")
              .input("in2", DataKind::image, true, "gray8 image of in1's size")
              .output("out", DataKind::image, true, "gray8 image of that size")
              .validate([](ValidateContext& v) { validate_two_gray8(v); }));
    m.implement(name, "cpu", KernelCallbacks{nullptr, process, nullptr, nullptr});
  }
  for (const auto& [name, description, process] :
       {std::tuple{"vg.vision.min_s16", "OpenVX Min on S16 planes: the smaller of in1 and in2, element by element", &min_max_process<true, true>},
        std::tuple{"vg.vision.max_s16", "OpenVX Max on S16 planes: the larger of in1 and in2, element by element", &min_max_process<false, true>}}) {
    m.add(KernelDecl(name, description)
              .input("in1", DataKind::tensor, true, "S16 plane (i16 tensor [height, width])")
              .input("in2", DataKind::tensor, true, "S16 plane of in1's shape")
              .output("out", DataKind::tensor, true, "S16 plane of that shape")
              .validate([](ValidateContext& v) {
                const TensorMeta& a = s16_plane_input(v, 0, "in1").tensor;
                const TensorMeta& b = s16_plane_input(v, 1, "in2").tensor;
                if (a.dims[0] != b.dims[0] || a.dims[1] != b.dims[1]) v.fail("in2", "has another shape than in1: they must have one shape");
                v.set_meta(2, s16_plane(static_cast<std::uint32_t>(a.dims[1]), static_cast<std::uint32_t>(a.dims[0])));
              }));
    m.implement(name, "cpu", KernelCallbacks{nullptr, process, nullptr, nullptr});
  }
}

}  // namespace

void add_measure_kernels(Module& m) {
  add_sobel(m);
  add_magnitude_phase(m);
  add_convert_depth(m);
  add_statistics(m);
  add_match_template(m);
  add_laplacian(m);
  add_two_image_kernels(m);
}

}  // namespace vg::vision
