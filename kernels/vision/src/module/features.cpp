// The vg.vision kernels that find features: fast_corners and lbp (over the library's fast_corners and
// local_binary_pattern, the functions libopenvx's FastCorners and LBP run).
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/lbp.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr std::int64_t kMaxCorners = 1 << 20;

struct FastKernel {
  explicit FastKernel(KernelContext& ctx)
      : options{static_cast<std::uint8_t>(ctx.integer("threshold")), ctx.boolean("nonmax_suppression")},
        scratch(fast_corners_scratch_size(ctx.meta(0).image.width)) {}
  Status process(KernelContext& ctx) noexcept {
    ArrayView<FastCorner> corners = ctx.array<FastCorner>(1);
    const std::size_t capacity = corners.capacity();
    (void)corners.resize(capacity);
    std::size_t found = 0;
    if (!fast_corners(const_plane(ctx.image(0)), options, scratch, std::span<FastCorner>(corners.data(), capacity), found)) {
      return Status::invalid_argument;
    }
    (void)corners.resize(std::min(found, capacity));
    // Corners past the capacity are not kept; num_corners says how many there were.
    if (ctx.is_bound(2)) ctx.scalar(2).set(static_cast<std::uint32_t>(std::min<std::size_t>(found, UINT32_MAX)));
    return Status::ok;
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

}  // namespace

void add_feature_kernels(Module& m) {
  add_fast_corners(m);
  add_lbp(m);
}

}  // namespace vg::vision
