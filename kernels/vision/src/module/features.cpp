// The vg.vision kernels that find features: canny, fast_corners, harris_corners, hough_lines, lbp,
// non_max_suppression and hog (over the library's functions that libopenvx's Canny, FastCorners,
// HarrisCorners, HoughLinesP, LBP, NonMaxSuppression, HOGCells and HOGFeatures run).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/canny.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/harris.hpp"
#include "visiongraph/kernels/vision/hog.hpp"
#include "visiongraph/kernels/vision/hough_lines.hpp"
#include "visiongraph/kernels/vision/lbp.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/kernels/vision/non_max_suppression.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr std::int64_t kMaxCorners = 1 << 20;

struct FastKernel {
  explicit FastKernel(KernelContext& ctx)
      : options{static_cast<std::uint8_t>(ctx.integer("threshold")), ctx.boolean("nonmax_suppression")},
        scratch(fast_corners_scratch_size(ctx.meta(0).image.width)) {}
  Status process(KernelContext& ctx) noexcept {
    const ConstPlane in = const_plane(ctx.image(0));
    return fill_array<FastCorner>(ctx, 1, 2, [&](std::span<FastCorner> out, std::size_t& found) { return fast_corners(in, options, scratch, out, found); });
  }
  FastCornerOptions options;
  std::vector<std::uint8_t> scratch;  // three rows of strengths, sized at create
};

void add_fast_corners(Module& m) {
  m.add(KernelDecl("vg.vision.fast_corners", "OpenVX FastCorners: FAST9 corners of a gray8 image with their strengths, in raster order")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("corners", DataKind::array, true, "array of vg.vision.fast_corner (x, y, strength: uint32 each)")
            .output("num_corners", DataKind::scalar, false, "u32: how many corners there were, also those past the capacity")
            .attribute("threshold", 20, "0..255: the circle's pixels must differ from the centre by more than this")
            .attribute("nonmax_suppression", true, "keep only corners stronger than their neighbours")
            .attribute("capacity", 10000, "the most corners the array holds")
            .validate([](ValidateContext& v) {
              image_input(v, 0, "input", {ImageFormat::gray8});
              byte_attribute(v, "threshold");
              const std::uint32_t capacity = positive_attribute(v, "capacity", kMaxCorners);
              v.set_meta(1, DataMeta::array_of<FastCorner>("vg.vision.fast_corner", capacity));
              if (v.is_bound(2)) v.set_meta(2, DataMeta::scalar_of(ElementType::u32));
            }));
  m.implement("vg.vision.fast_corners", "cpu", callbacks_for<FastKernel>());
}

struct HarrisKernel {
  explicit HarrisKernel(KernelContext& ctx) : scratch(harris_corners_scratch_size(ctx.meta(0).image.width, ctx.meta(0).image.height)) {
    options.threshold = static_cast<float>(ctx.number("threshold"));
    options.min_distance = static_cast<float>(ctx.number("min_distance"));
    options.sensitivity = static_cast<float>(ctx.number("sensitivity"));
    options.gradient_size = static_cast<int>(ctx.integer("gradient_size"));
    options.block_size = static_cast<int>(ctx.integer("block_size"));
    const std::string& border = ctx.string("border");
    options.border.mode = border == "constant" ? HarrisBorderMode::constant : border == "mirror" ? HarrisBorderMode::mirror : HarrisBorderMode::replicate;
    options.border.constant = static_cast<std::uint8_t>(ctx.integer("border_value"));
  }
  Status process(KernelContext& ctx) noexcept {
    // The strongest corners are kept when there are more than the capacity.
    const ConstPlane in = const_plane(ctx.image(0));
    return fill_array<HarrisCorner>(ctx, 1, 2, [&](std::span<HarrisCorner> out, std::size_t& found) { return harris_corners(in, options, scratch, out, found); });
  }
  HarrisOptions options;
  std::vector<std::uint8_t> scratch;  // rows of gradients, sums and scores, the candidates, sized at create
};

void add_harris(Module& m) {
  m.add(KernelDecl("vg.vision.harris_corners", "OpenVX HarrisCorners: Harris-Stephens corners of a gray8 image, strongest first")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("corners", DataKind::array, true, "array of vg.vision.harris_corner (x, y: uint32; strength: float)")
            .output("num_corners", DataKind::scalar, false, "u32: how many corners there were, also those past the capacity")
            .attribute("threshold", 1e-4, "a corner's score (OpenVX's normalised Mc) must exceed it")
            .attribute("min_distance", 5.0, "no corner closer than this (pixels) to a stronger one")
            .attribute("sensitivity", 0.04, "k in Mc = det - k trace^2")
            .attribute("gradient_size", 3, "the Sobel window: 3, 5 or 7")
            .attribute("block_size", 3, "the window the gradient products are summed over: 3, 5 or 7")
            .attribute("capacity", 10000, "the most corners the array holds (the strongest are kept)")
            .attribute("border", "replicate", "outside the image: replicate, constant, or mirror (what OpenVX's UNDEFINED computes)")
            .attribute("border_value", 0, "the constant border's value, 0..255")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              for (const char* key : {"threshold", "sensitivity"})
                if (!std::isfinite(v.number(key))) v.fail(key, "must be a finite number, got " + std::to_string(v.number(key)));
              const double distance = v.number("min_distance");
              if (!std::isfinite(distance) || distance < 0) v.fail("min_distance", "must be a finite number not below 0, got " + std::to_string(distance));
              for (const char* key : {"gradient_size", "block_size"}) {
                const std::int64_t size = v.integer(key);
                if (size != 3 && size != 5 && size != 7) v.fail(key, "must be 3, 5 or 7, got " + std::to_string(size));
              }
              choice_attribute(v, "border", {"replicate", "constant", "mirror"});
              byte_attribute(v, "border_value");
              if (harris_corners_scratch_size(in.image.width, in.image.height) == SIZE_MAX) v.fail("input", "is too large: " + in.describe());
              const std::uint32_t capacity = positive_attribute(v, "capacity", kMaxCorners);
              v.set_meta(1, DataMeta::array_of<HarrisCorner>("vg.vision.harris_corner", capacity));
              if (v.is_bound(2)) v.set_meta(2, DataMeta::scalar_of(ElementType::u32));
            }));
  m.implement("vg.vision.harris_corners", "cpu", callbacks_for<HarrisKernel>());
}

/// Segments into the output array up to its capacity, counting all.
class ArraySegmentSink final : public HoughSegmentSink {
 public:
  explicit ArraySegmentSink(ArrayView<HoughSegment> out) noexcept : out_(out) { out_.clear(); }
  void take(const HoughSegment& segment) noexcept override { (void)out_.push_back(segment); }

 private:
  ArrayView<HoughSegment> out_;
};

struct HoughKernel {
  explicit HoughKernel(KernelContext& ctx) : options(options_of(ctx)) {
    scratch.resize(hough_lines_p_scratch_size(ctx.meta(0).image.width, ctx.meta(0).image.height, options));
  }
  template <class Context>
  static HoughLinesOptions options_of(const Context& ctx) {
    HoughLinesOptions o;
    o.rho = static_cast<float>(ctx.number("rho"));
    o.theta = static_cast<float>(ctx.number("theta"));
    o.threshold = static_cast<int>(ctx.integer("threshold"));
    o.line_length = static_cast<int>(ctx.integer("line_length"));
    o.line_gap = static_cast<int>(ctx.integer("line_gap"));
    o.theta_min = static_cast<float>(ctx.number("theta_min"));
    o.theta_max = static_cast<float>(ctx.number("theta_max"));
    return o;
  }
  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(0);
    const HoughEdges edges{in.plane(0), in.width(), in.height(), static_cast<std::ptrdiff_t>(in.stride(0)), 1, false, 0, 0, in.width(), in.height()};
    ArraySegmentSink sink(ctx.array<HoughSegment>(1));
    std::size_t found = 0;
    if (!hough_lines_p(edges, options, scratch, sink, found)) return Status::invalid_argument;
    // Segments past the capacity are not kept; num_lines says how many there were.
    if (ctx.is_bound(2)) ctx.scalar(2).set(static_cast<std::uint32_t>(std::min<std::size_t>(found, UINT32_MAX)));
    return Status::ok;
  }
  HoughLinesOptions options;
  std::vector<std::uint8_t> scratch;  // accumulator, angle tables, point list and mask, sized at create
};

void add_hough_lines(Module& m) {
  m.add(KernelDecl("vg.vision.hough_lines", "OpenVX HoughLinesP: line segments of a binary edge image (the probabilistic Hough transform)")
            .input("input", DataKind::image, true, "gray8 edge image (non-zero pixels are edge points), e.g. vg.vision.canny's output")
            .output("lines", DataKind::array, true, "array of vg.vision.line_segment (x0, y0, x1, y1: int32 each)")
            .output("num_lines", DataKind::scalar, false, "u32: how many segments there were, also those past the capacity")
            .attribute("rho", 1.0, "the accumulator's distance step (pixels), above 0")
            .attribute("theta", 0.017453292519943295, "its angle step (radians), above 0: one degree by default")
            .attribute("threshold", 50, "the votes a line needs, at least 1")
            .attribute("line_length", 30, "the shortest segment reported (pixels)")
            .attribute("line_gap", 5, "the longest run of missing points a segment bridges (pixels)")
            .attribute("theta_min", 0.0, "the first angle (radians)")
            .attribute("theta_max", 3.141592653589793, "the angles end before it (radians)")
            .attribute("capacity", 1000, "the most segments the array holds")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              for (const char* key : {"rho", "theta"})
                if (!(v.number(key) > 0) || !std::isfinite(v.number(key))) v.fail(key, "must be a finite number above 0, got " + std::to_string(v.number(key)));
              if (v.integer("threshold") < 1) v.fail("threshold", "must be at least 1, got " + std::to_string(v.integer("threshold")));
              for (const char* key : {"line_length", "line_gap"})
                if (v.integer(key) < 0 || v.integer(key) > INT32_MAX) v.fail(key, "must be 0.." + std::to_string(INT32_MAX) + ", got " + std::to_string(v.integer(key)));
              if (!(v.number("theta_max") > v.number("theta_min")))
                v.fail("theta_max", "must be above theta_min (" + std::to_string(v.number("theta_min")) + "), got " + std::to_string(v.number("theta_max")));
              if (hough_lines_p_scratch_size(in.image.width, in.image.height, HoughKernel::options_of(v)) == 0)
                v.fail("theta", "with this image (" + in.describe() + ") and these steps the accumulator would not fit; make rho or theta larger");
              const std::uint32_t capacity = positive_attribute(v, "capacity", kMaxCorners);
              v.set_meta(1, DataMeta::array_of<HoughSegment>("vg.vision.line_segment", capacity));
              if (v.is_bound(2)) v.set_meta(2, DataMeta::scalar_of(ElementType::u32));
            }));
  m.implement("vg.vision.hough_lines", "cpu", callbacks_for<HoughKernel>());
}

struct LbpKernel {
  explicit LbpKernel(KernelContext& ctx)
      : format(ctx.string("format") == "modified" ? LbpFormat::modified : ctx.string("format") == "uniform" ? LbpFormat::uniform : LbpFormat::lbp),
        size(static_cast<int>(ctx.integer("kernel_size"))) {}
  Status process(KernelContext& ctx) noexcept {
    return local_binary_pattern(const_plane(ctx.image(0)), plane(ctx.image(1)), format, size) ? Status::ok : Status::invalid_argument;
  }
  LbpFormat format;
  int size;
};

void add_lbp(Module& m) {
  m.add(KernelDecl("vg.vision.lbp", "OpenVX LBP: each pixel's local binary pattern (8 neighbours against the centre, one bit each)")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::image, true, "gray8 image of the input's size: the patterns")
            .attribute("format", "lbp", "lbp, uniform (non-uniform patterns become 9) or modified (against the neighbours' mean; 5x5 only)")
            .attribute("kernel_size", 3, "3 or 5")
            .validate([](ValidateContext& v) {
              const std::size_t format = choice_attribute(v, "format", {"lbp", "uniform", "modified"});
              const std::int64_t size = v.integer("kernel_size");
              if (size != 3 && size != 5) v.fail("kernel_size", "must be 3 or 5, got " + std::to_string(size));
              if (format == 2 && size != 5) v.fail("kernel_size", "must be 5 for the modified format, got " + std::to_string(size));
              validate_image_to_gray8(v, {ImageFormat::gray8});
            }));
  m.implement("vg.vision.lbp", "cpu", callbacks_for<LbpKernel>());
}

struct CannyKernel {
  explicit CannyKernel(KernelContext& ctx) : scratch(canny_scratch_size(ctx.meta(0).image.width, ctx.meta(0).image.height)) {
    options.low = static_cast<std::int32_t>(ctx.integer("low"));
    options.high = static_cast<std::int32_t>(ctx.integer("high"));
    options.gradient_size = static_cast<int>(ctx.integer("gradient_size"));
    options.norm = ctx.string("norm") == "l2" ? CannyNorm::l2 : CannyNorm::l1;
    const std::string& border = ctx.string("border");
    options.border = border == "constant" ? CannyBorder::constant : border == "undefined" ? CannyBorder::undefined : CannyBorder::replicate;
    options.constant = static_cast<std::uint8_t>(ctx.integer("border_value"));
  }
  Status process(KernelContext& ctx) noexcept {
    return canny(const_plane(ctx.image(0)), plane(ctx.image(1)), options, scratch) ? Status::ok : Status::invalid_argument;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) noexcept {
    std::int64_t value = 0;
    if ((cmd.id != kSetLowThreshold && cmd.id != kSetHighThreshold) || !cmd.read(value) || value < 0 || value > kMaxThreshold) {
      return Status::invalid_argument;
    }
    (cmd.id == kSetLowThreshold ? options.low : options.high) = static_cast<std::int32_t>(value);
    char text[48];
    std::snprintf(text, sizeof text, "low=%d high=%d", static_cast<int>(options.low), static_cast<int>(options.high));
    reply.write_text(text);
    return Status::ok;
  }
  // Above any magnitude (7x7 gradients reach 2 * 255 * 64^2 in L1): a threshold there keeps nothing.
  static constexpr std::int64_t kMaxThreshold = 1 << 21;
  CannyOptions options;
  std::vector<std::uint8_t> scratch;  // the edge map and the tracing stack, sized at create
};

void add_canny(Module& m) {
  KernelDecl decl("vg.vision.canny", "OpenVX CannyEdgeDetector on gray8: edges 255, the rest 0 (Sobel gradients, suppression, hysteresis)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of the input's size: 255 on edges")
      .attribute("low", 50, "hysteresis: a pixel whose gradient magnitude is above it may join an edge")
      .attribute("high", 100, "hysteresis: a pixel whose magnitude is above it starts an edge")
      .attribute("gradient_size", 3, "the Sobel window: 3, 5 or 7")
      .attribute("norm", "l1", "the magnitude: l1 (|dx| + |dy|) or l2 (sqrt(dx^2 + dy^2))")
      .attribute("border", "replicate", "outside the image: replicate, constant, or undefined (OpenVX's: a frame of 0s)")
      .attribute("border_value", 0, "the constant border's value, 0..255")
      .command(kSetLowThreshold, "set_low", PayloadKind::integer, "replace low; replies with both thresholds")
      .command(kSetHighThreshold, "set_high", PayloadKind::integer, "replace high; replies with both thresholds")
      .validate([](ValidateContext& v) {
        const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
        for (const char* key : {"low", "high"}) {
          const std::int64_t t = v.integer(key);
          if (t < 0 || t > CannyKernel::kMaxThreshold) v.fail(key, "must be 0.." + std::to_string(CannyKernel::kMaxThreshold) + ", got " + std::to_string(t));
        }
        if (v.integer("low") > v.integer("high"))
          v.fail("low", "is above high (" + std::to_string(v.integer("low")) + " > " + std::to_string(v.integer("high")) + ")");
        const std::int64_t size = v.integer("gradient_size");
        if (size != 3 && size != 5 && size != 7) v.fail("gradient_size", "must be 3, 5 or 7, got " + std::to_string(size));
        choice_attribute(v, "norm", {"l1", "l2"});
        choice_attribute(v, "border", {"replicate", "constant", "undefined"});
        byte_attribute(v, "border_value");
        if (canny_scratch_size(in.image.width, in.image.height) == 0) v.fail("input", "is too large for the edge tracing: " + in.describe());
        v.set_meta(1, DataMeta::image_of(in.image.width, in.image.height, ImageFormat::gray8));
      });
  m.add(std::move(decl));
  m.implement("vg.vision.canny", "cpu", callbacks_for<CannyKernel>());
}

struct SuppressionKernel {
  explicit SuppressionKernel(KernelContext& ctx) : window(static_cast<int>(ctx.integer("window"))) {}
  Status process(KernelContext& ctx) noexcept {
    SuppressionMask mask;
    if (ctx.is_bound(1)) {
      const ImageView m = ctx.image(1);
      mask = {m.plane(0), static_cast<std::ptrdiff_t>(m.stride(0))};
    }
    const Plane out = plane(ctx.image(2));
    if (!non_max_suppression(pixels_of(const_plane(ctx.image(0))), mask, pixels_of(out), window)) return Status::invalid_argument;
    // The frame the function leaves as it was: 0, so that nothing of an earlier frame shows.
    const auto r = static_cast<std::uint32_t>(window / 2);
    for (std::uint32_t y = 0; y < out.height; ++y) {
      std::uint8_t* row = out.row(y);
      if (y < r || y + r >= out.height) {
        std::memset(row, 0, out.width);
      } else {
        std::memset(row, 0, r);
        std::memset(row + out.width - r, 0, r);
      }
    }
    return Status::ok;
  }
  int window;
};

void add_non_max_suppression(Module& m) {
  m.add(KernelDecl("vg.vision.non_max_suppression",
                   "OpenVX NonMaxSuppression on gray8: a pixel stays where it is the window's maximum (the last in raster order on a "
                   "plateau), else 0; the frame of window / 2 is 0")
            .input("input", DataKind::image, true, "gray8 image (a response: corners, edges, a heat map)")
            .input("mask", DataKind::image, false, "gray8 image of the input's size: non-zero pixels are copied and left out of windows")
            .output("output", DataKind::image, true, "gray8 image of the input's size")
            .attribute("window", 3, "the window's side: odd, 1 up to the image's smaller side")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              if (v.is_bound(1)) {
                const DataMeta& mask = image_input(v, 1, "mask", {ImageFormat::gray8});
                if (mask.image.width != in.image.width || mask.image.height != in.image.height)
                  v.fail("mask", "is " + mask.describe() + " but the input is " + in.describe() + ": they must have one size");
              }
              const std::int64_t window = v.integer("window");
              if (window < 1 || window % 2 == 0 || window > std::min(in.image.width, in.image.height))
                v.fail("window", "must be odd, 1.." + std::to_string(std::min(in.image.width, in.image.height)) + ", got " + std::to_string(window));
              v.set_meta(2, DataMeta::image_of(in.image.width, in.image.height, ImageFormat::gray8));
            }));
  m.implement("vg.vision.non_max_suppression", "cpu", callbacks_for<SuppressionKernel>());
}

// --- hog ----------------------------------------------------------------------------------------------------

/// The HOG geometry of the node's attributes.
HogFeaturesOptions hog_options(const auto& c) {
  HogFeaturesOptions o;
  o.cell_width = static_cast<int>(c.integer("cell_width"));
  o.cell_height = static_cast<int>(c.integer("cell_height"));
  o.bins = static_cast<int>(c.integer("bins"));
  o.block_width = static_cast<int>(c.integer("block_width"));
  o.block_height = static_cast<int>(c.integer("block_height"));
  o.block_stride = static_cast<int>(c.integer("block_stride"));
  o.window_width = static_cast<int>(c.integer("window_width"));
  o.window_height = static_cast<int>(c.integer("window_height"));
  o.window_stride = static_cast<int>(c.integer("window_stride"));
  o.threshold = static_cast<float>(c.number("threshold"));
  return o;
}

struct HogKernel {
  explicit HogKernel(KernelContext& ctx) : options(hog_options(ctx)) {
    const ImageMeta& in = ctx.meta(0).image;
    cells_x = in.width / static_cast<std::uint32_t>(options.cell_width);
    cells_y = in.height / static_cast<std::uint32_t>(options.cell_height);
    windows_x = (in.width - static_cast<std::uint32_t>(options.window_width)) / static_cast<std::uint32_t>(options.window_stride) + 1;
    windows_y = (in.height - static_cast<std::uint32_t>(options.window_height)) / static_cast<std::uint32_t>(options.window_stride) + 1;
    // The cells go straight into the outputs that are bound (dense i16 of the same layout); only the others
    // need memory of the node's.
    const std::size_t cells = std::size_t{cells_x} * cells_y;
    if (!ctx.is_bound(2)) magnitudes.resize(cells);
    if (!ctx.is_bound(3)) bins.resize(cells * static_cast<std::size_t>(options.bins));
    cells_scratch.resize(hog_cells_scratch_size(in.width, {options.cell_width, options.cell_height, options.bins}));  // zeroed, as hog_cells asks
    features_scratch.resize(hog_features_scratch_size(cells_x, cells_y, options));
  }
  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(0);
    const HogImage image{in.plane(0), in.width(), in.height(), static_cast<std::ptrdiff_t>(in.stride(0)), 1};
    std::int16_t* cell_magnitudes = ctx.is_bound(2) ? ctx.tensor(2).data_as<std::int16_t>() : magnitudes.data();
    std::int16_t* cell_bins = ctx.is_bound(3) ? ctx.tensor(3).data_as<std::int16_t>() : bins.data();
    if (!hog_cells(image, {options.cell_width, options.cell_height, options.bins}, cell_magnitudes, cell_bins, cells_scratch))
      return Status::invalid_argument;
    const TensorView features = ctx.tensor(1);
    return hog_features(cell_magnitudes, cell_bins, cells_x, cells_y, options, windows_x, windows_y, features.data_as<std::int16_t>(),
                        features.byte_size() / sizeof(std::int16_t), features_scratch)
               ? Status::ok
               : Status::invalid_argument;
  }
  HogFeaturesOptions options;
  std::uint32_t cells_x, cells_y, windows_x, windows_y;
  std::vector<std::int16_t> magnitudes, bins;  // for the cell outputs that are not bound
  std::vector<std::uint8_t> cells_scratch, features_scratch;
};

void add_hog(Module& m) {
  m.add(KernelDecl("vg.vision.hog",
                   "OpenVX HOGCells then HOGFeatures: histograms of oriented gradients per cell of a gray8 image, normalised per "
                   "block, for every detection window (e.g. a person detector's input), INT16 Q7.8 (256 is 1.0)")
            .input("input", DataKind::image, true, "gray8 image of at least one window")
            .output("features", DataKind::tensor, true, "i16 tensor [windows down, windows across, values per window]")
            .output("magnitudes", DataKind::tensor, false, "i16 tensor [cells down, cells across]: each cell's mean gradient magnitude")
            .output("bins", DataKind::tensor, false, "i16 tensor [cells down, cells across, bins]: each cell's orientation histogram")
            .attribute("cell_width", 8, "pixels").attribute("cell_height", 8, "pixels")
            .attribute("bins", 9, "orientation bins over 360 degrees, 1..360")
            .attribute("block_width", 16, "pixels, whole cells").attribute("block_height", 16, "pixels, whole cells")
            .attribute("block_stride", 8, "pixels between blocks, whole cells")
            .attribute("window_width", 64, "pixels, at least a block").attribute("window_height", 128, "pixels, at least a block")
            .attribute("window_stride", 8, "pixels between windows, whole cells")
            .attribute("threshold", 0.2, "the clip of each normalised value before the second normalisation, above 0")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              for (const char* key : {"cell_width", "cell_height", "block_width", "block_height", "block_stride", "window_width", "window_height", "window_stride"})
                positive_attribute(v, key, 1 << 15);
              positive_attribute(v, "bins", kMaxHogBins);
              const HogFeaturesOptions o = hog_options(v);
              if (o.block_width % o.cell_width != 0 || o.block_height % o.cell_height != 0) v.fail("block_width", "blocks must be whole cells");
              if (o.block_stride % o.cell_width != 0 || o.block_stride % o.cell_height != 0) v.fail("block_stride", "must be whole cells");
              if (o.window_stride % o.cell_width != 0 || o.window_stride % o.cell_height != 0) v.fail("window_stride", "must be whole cells");
              if (o.window_width < o.block_width || o.window_height < o.block_height) v.fail("window_width", "a window must hold a block");
              if (static_cast<std::uint32_t>(o.window_width) > in.image.width || static_cast<std::uint32_t>(o.window_height) > in.image.height)
                v.fail("window_width", "a " + std::to_string(o.window_width) + "x" + std::to_string(o.window_height) + " window does not fit the " +
                                           std::to_string(in.image.width) + "x" + std::to_string(in.image.height) + " input");
              if (!(o.threshold > 0)) v.fail("threshold", "must be above 0");
              const std::int64_t wx = (in.image.width - o.window_width) / o.window_stride + 1;
              const std::int64_t wy = (in.image.height - o.window_height) / o.window_stride + 1;
              v.set_meta(1, DataMeta::tensor_of({wy, wx, static_cast<std::int64_t>(hog_features_per_window(o))}, ElementType::i16));
              const std::int64_t cx = in.image.width / o.cell_width, cy = in.image.height / o.cell_height;
              if (v.is_bound(2)) v.set_meta(2, DataMeta::tensor_of({cy, cx}, ElementType::i16));
              if (v.is_bound(3)) v.set_meta(3, DataMeta::tensor_of({cy, cx, static_cast<std::int64_t>(o.bins)}, ElementType::i16));
            }));
  m.implement("vg.vision.hog", "cpu", callbacks_for<HogKernel>());
}

}  // namespace

void add_feature_kernels(Module& m) {
  add_hog(m);
  add_non_max_suppression(m);
  add_canny(m);
  add_fast_corners(m);
  add_harris(m);
  add_hough_lines(m);
  add_lbp(m);
}

}  // namespace vg::vision
