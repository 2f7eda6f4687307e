// The vg.vision kernels over consecutive frames, each keeping its state itself (so a graph needs no delay
// object) and forgetting it on the `reset` command:
// - optical_flow: the points of the previous frame (corners, say) followed into this one by the library's
//   pyramidal Lucas-Kanade (the code libopenvx's OpticalFlowPyrLK runs), on OpenVX HALF pyramids the node
//   builds with the library's 5x5 Gaussian halving;
// - accumulate, accumulate_squared, accumulate_weighted: OpenVX's accumulations (libopenvx's functions)
//   into an accumulator the node holds, copied to the output every frame.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/accumulate.hpp"
#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/kernels/vision/optical_flow.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr std::int64_t kMaxLevels = 12;
constexpr const char* kPointTypes[] = {"vg.vision.fast_corner", "vg.vision.harris_corner", "vg.vision.position"};

/// A pyramid of gray8 levels, each side half the one below rounded up, in memory allocated at create.
class Pyramid {
 public:
  Pyramid(std::uint32_t width, std::uint32_t height, int levels) {
    for (int i = 0; i < levels; ++i) {
      pixels_.emplace_back(static_cast<std::size_t>(width) * height);
      levels_.push_back(ConstPlane{pixels_.back().data(), width, height, static_cast<std::ptrdiff_t>(width)});
      width = (width + 1) / 2;
      height = (height + 1) / 2;
    }
  }
  /// Level 0 a copy of @p frame, each level above its Gaussian half.
  void build(ConstPlane frame) noexcept {
    for (std::uint32_t y = 0; y < frame.height; ++y) std::memcpy(pixels_[0].data() + std::size_t{y} * frame.width, frame.row(y), frame.width);
    for (std::size_t i = 1; i < levels_.size(); ++i) (void)gaussian_half(levels_[i - 1], writable(i), 5, Border{});
  }
  std::span<const ConstPlane> levels() const noexcept { return levels_; }

 private:
  Plane writable(std::size_t i) noexcept { return {pixels_[i].data(), levels_[i].width, levels_[i].height, levels_[i].stride}; }
  std::vector<std::vector<std::uint8_t>> pixels_;
  std::vector<ConstPlane> levels_;
};

struct OpticalFlowKernel {
  explicit OpticalFlowKernel(KernelContext& ctx)
      : previous(ctx.meta(0).image.width, ctx.meta(0).image.height, static_cast<int>(ctx.integer("levels"))),
        current(ctx.meta(0).image.width, ctx.meta(0).image.height, static_cast<int>(ctx.integer("levels"))),
        scratch(std::make_unique<LucasKanadeScratch>()), points(ctx.meta(1).array.capacity),
        item_size(ctx.meta(1).array.item_size) {
    options.window = static_cast<int>(ctx.integer("window"));
    options.iterations = static_cast<std::uint32_t>(ctx.integer("iterations"));
    options.use_epsilon = ctx.string("termination") != "iterations";
    options.epsilon = static_cast<float>(ctx.number("epsilon"));
    if (ctx.string("termination") == "epsilon") options.iterations = kEpsilonOnlyIterations;
  }

  Status process(KernelContext& ctx) noexcept {
    current.build(const_plane(ctx.image(0)));
    ArrayView<PointTrack> tracks = ctx.array<PointTrack>(2);
    const std::span<TrackPoint> followed(points.data(), previous_count);
    std::uint32_t still = 0;
    if (have_previous && track_points(previous.levels(), current.levels(), 0.5, options, *scratch, followed)) {
      (void)tracks.resize(previous_count);  // the same capacity: validate made it so
      for (std::size_t i = 0; i < previous_count; ++i) {
        const TrackPoint& p = points[i];
        tracks[i] = {p.old_x, p.old_y, p.x, p.y, p.tracked ? 1u : 0u};
        still += p.tracked ? 1 : 0;
      }
    } else {
      tracks.clear();
    }
    if (ctx.is_bound(3)) ctx.scalar(3).set(still);
    // This frame's points, to follow into the next one. Every accepted item type begins with uint32 x, y.
    const ArrayView<std::uint8_t> given = ctx.array<std::uint8_t>(1);
    const std::uint8_t* items = given.data();
    previous_count = given.size() < points.size() ? given.size() : points.size();
    for (std::size_t i = 0; i < previous_count; ++i) {
      std::uint32_t xy[2];
      std::memcpy(xy, items + i * item_size, sizeof xy);
      const auto x = static_cast<float>(xy[0]), y = static_cast<float>(xy[1]);
      points[i] = {x, y, x, y, true};
    }
    std::swap(previous, current);
    have_previous = true;
    return Status::ok;
  }

  Status control(KernelContext&, const ControlCommand& cmd, CommandReply&) noexcept {
    if (cmd.id != kReset) return Status::invalid_argument;
    have_previous = false;
    previous_count = 0;
    return Status::ok;
  }

  Pyramid previous, current;
  std::unique_ptr<LucasKanadeScratch> scratch;
  std::vector<TrackPoint> points;  // the previous frame's, then the tracking's results
  std::size_t previous_count = 0;
  std::size_t item_size;
  LucasKanadeOptions options;
  bool have_previous = false;
};

/// accumulate and accumulate_squared: an S16 sum of frames (saturated), from zeros.
template <bool Squared>
struct AccumulateKernel {
  explicit AccumulateKernel(KernelContext& ctx)
      : shift(Squared ? static_cast<unsigned>(ctx.integer("shift")) : 0u),
        sums(static_cast<std::size_t>(ctx.meta(0).image.width) * ctx.meta(0).image.height) {}
  Status process(KernelContext& ctx) noexcept {
    const ConstPlane in = const_plane(ctx.image(0));
    const Pixels accum{sums.data(), in.width, in.height, static_cast<std::ptrdiff_t>(in.width) * 2, PixelType::s16};
    const bool done = Squared ? accumulate_square(in, accum, shift) : accumulate(in, accum);
    if (!done) return Status::invalid_argument;
    std::memcpy(ctx.tensor(1).data(), sums.data(), sums.size() * sizeof(std::int16_t));
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply&) noexcept {
    if (cmd.id != kReset) return Status::invalid_argument;
    std::fill(sums.begin(), sums.end(), std::int16_t{0});
    return Status::ok;
  }
  unsigned shift;
  std::vector<std::int16_t> sums;
};

/// accumulate_weighted: a running blend of the frames, the first frame its start.
struct AccumulateWeightedKernel {
  explicit AccumulateWeightedKernel(KernelContext& ctx)
      : alpha(static_cast<float>(ctx.number("alpha"))),
        blend(static_cast<std::size_t>(ctx.meta(0).image.width) * ctx.meta(0).image.height) {}
  Status process(KernelContext& ctx) noexcept {
    const ConstPlane in = const_plane(ctx.image(0));
    const Plane model{blend.data(), in.width, in.height, static_cast<std::ptrdiff_t>(in.width)};
    if (started) {
      weighted_average(model, in, alpha, model);
    } else {
      for (std::uint32_t y = 0; y < in.height; ++y) std::memcpy(model.row(y), in.row(y), in.width);
      started = true;
    }
    const Plane out = plane(ctx.image(1));
    for (std::uint32_t y = 0; y < in.height; ++y) std::memcpy(out.row(y), model.row(y), in.width);
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply&) noexcept {
    if (cmd.id != kReset) return Status::invalid_argument;
    started = false;
    return Status::ok;
  }
  float alpha;
  std::vector<std::uint8_t> blend;
  bool started = false;
};

void add_accumulations(Module& m) {
  const auto s16_sum = [](ValidateContext& v) {
    const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
    v.set_meta(1, s16_plane(in.image.width, in.image.height));
  };
  m.add(KernelDecl("vg.vision.accumulate", "OpenVX Accumulate over the frames: the sum of every frame so far, saturated to S16 (from zeros)")
            .input("input", DataKind::image, true, "gray8 image")
            .output("output", DataKind::tensor, true, "S16 plane (i16 tensor [height, width]): the sum so far")
            .command(kReset, "reset", PayloadKind::none, "start again from zeros")
            .validate(s16_sum));
  m.implement("vg.vision.accumulate", "cpu", callbacks_for<AccumulateKernel<false>>());
  m.add(KernelDecl("vg.vision.accumulate_squared",
                   "OpenVX AccumulateSquared over the frames: the sum of (pixel^2 >> shift) of every frame so far, saturated to S16")
            .input("input", DataKind::image, true, "gray8 image")
            .output("output", DataKind::tensor, true, "S16 plane (i16 tensor [height, width]): the sum so far")
            .attribute("shift", 0, "0..15")
            .command(kReset, "reset", PayloadKind::none, "start again from zeros")
            .validate([s16_sum](ValidateContext& v) {
              const std::int64_t shift = v.integer("shift");
              if (shift < 0 || shift > 15) v.fail("shift", "must be 0..15, got " + std::to_string(shift));
              s16_sum(v);
            }));
  m.implement("vg.vision.accumulate_squared", "cpu", callbacks_for<AccumulateKernel<true>>());
  m.add(KernelDecl("vg.vision.accumulate_weighted",
                   "OpenVX AccumulateWeighted over the frames: model = (1 - alpha) model + alpha frame, truncated; the first frame "
                   "starts the model (e.g. a background for motion detection)")
            .input("input", DataKind::image, true, "gray8 image")
            .output("output", DataKind::image, true, "gray8 image: the model after this frame")
            .attribute("alpha", 0.05, "the new frame's weight, 0..1")
            .command(kReset, "reset", PayloadKind::none, "let the next frame start the model again")
            .validate([](ValidateContext& v) {
              const double alpha = v.number("alpha");
              if (!(alpha >= 0 && alpha <= 1)) v.fail("alpha", "must be 0..1, got " + std::to_string(alpha));
              validate_image_to_gray8(v, {ImageFormat::gray8});
            }));
  m.implement("vg.vision.accumulate_weighted", "cpu", callbacks_for<AccumulateWeightedKernel>());
}

}  // namespace

void add_motion_kernels(Module& m) {
  add_accumulations(m);
  m.add(KernelDecl("vg.vision.optical_flow",
                   "OpenVX OpticalFlowPyrLK between consecutive frames: the points given with the previous frame, followed into this "
                   "one by pyramidal Lucas-Kanade on HALF Gaussian pyramids the node builds and keeps")
            .input("input", DataKind::image, true, "gray8 image: this frame")
            .input("points", DataKind::array, true,
                   "this frame's points, followed into the next frame: an array of vg.vision.fast_corner, vg.vision.harris_corner or "
                   "vg.vision.position")
            .output("tracks", DataKind::array, true,
                    "array of vg.vision.track (from_x, from_y, x, y: float; tracked: uint32, 0 = lost), one per point of the previous "
                    "frame, in its order; empty on the first frame")
            .output("num_tracked", DataKind::scalar, false, "u32: how many tracks were followed (not lost)")
            .attribute("levels", 4, "pyramid levels, 1..12, each half the size of the one below")
            .attribute("window", 21, "the window's side in pixels, 3..31")
            .attribute("termination", "both", "iterations, epsilon or both: stop a level after `iterations` steps, once a step is "
                                              "shorter than sqrt(epsilon), or at the first of the two")
            .attribute("iterations", 30, "the most steps per level, 1..1000 (epsilon alone: 100)")
            .attribute("epsilon", 0.01, "the squared step length that ends a level, in pixels^2, 0 or more")
            .command(kReset, "reset", PayloadKind::none, "forget the previous frame: the next frame has no tracks")
            .validate([](ValidateContext& v) {
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8});
              const DataMeta& given = v.meta(1);
              bool known = false;
              for (const char* type : kPointTypes) known = known || (given.kind == DataKind::array && given.array.name() == type);
              if (!known) v.fail("points", "expects an array of vg.vision.fast_corner, harris_corner or position, got " + given.describe());
              const std::uint32_t levels = positive_attribute(v, "levels", kMaxLevels);
              std::uint32_t smallest = in.image.width < in.image.height ? in.image.width : in.image.height;
              for (std::uint32_t i = 1; i < levels; ++i) smallest = (smallest + 1) / 2;
              if (levels > 1 && smallest < 2)
                v.fail("levels", std::to_string(levels) + " levels of a " + std::to_string(in.image.width) + "x" + std::to_string(in.image.height) +
                                     " image leave a top level under 2 pixels; use fewer");
              const std::int64_t window = v.integer("window");
              if (window < kMinTrackWindow || window > kMaxTrackWindow) v.fail("window", "must be 3..31, got " + std::to_string(window));
              choice_attribute(v, "termination", {"iterations", "epsilon", "both"});
              positive_attribute(v, "iterations", 1000);
              const double epsilon = v.number("epsilon");
              if (!(epsilon >= 0)) v.fail("epsilon", "must be 0 or more, got " + std::to_string(epsilon));
              v.set_meta(2, DataMeta::array_of<PointTrack>("vg.vision.track", given.array.capacity));
              if (v.is_bound(3)) v.set_meta(3, DataMeta::scalar_of(ElementType::u32));
            }));
  m.implement("vg.vision.optical_flow", "cpu", callbacks_for<OpticalFlowKernel>());
}

}  // namespace vg::vision
