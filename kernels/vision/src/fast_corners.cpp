// FastCorners (fast_corners.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// A row at a time, a vector of candidates at a time (one u8 lane each):
//  1. Quick rejection. Any arc of 9 holds two neighbouring compass pixels (0 and 4, 4 and 8, 8 and 12, or
//     12 and 0), so a corner of either sign needs (p0 or p8) and (p4 or p12) past the threshold on that
//     side. Vectors over flat or gently sloping areas stop here.
//  2. Otherwise the strength of every lane at once: the differences of one sign saturate at 0 (u8
//     saturating subtraction), the minima over the arcs of 9 come from minima over runs of 2, 4 and 8
//     (LargestArcMinimum), and the maximum of those over the 16 arcs and both signs is the strength + 1
//     ("best"). A lane is a corner exactly when best > t (some arc then has every difference > t), so no
//     separate corner test is needed. Clamping negative differences to 0 changes no maximum, as the
//     maximum starts at 0.
// The row's codes (best for a corner, 0 otherwise; columns within 3 of the edges stay 0) go to a ring of
// three rows, and a row is suppressed once the row below it is known: with codes c = strength + 1, the rule
// "s >= the upper four and left, s > the others, non-corners counting 0" is c >= their codes and
// c > max(their codes, 1). Corners go out through a batch on the stack, in raster order.
//
// Rows with fewer candidates than a vector holds take the scalar forms below. The last vector of a row
// overlaps the one before it: codes are rewritten with the same values, and corners already passed on are
// masked off.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fast_corners.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sink_batch.hpp"
#include "true_lanes-inl.h"
#include "visiongraph/kernels/vision/fast_corners.hpp"

#ifndef VG_VISION_FAST_CORNERS_SCALAR
#define VG_VISION_FAST_CORNERS_SCALAR
namespace vg::vision::detail {

// The circle (fast_corners.hpp).
constexpr int kCircle = kFastCircle;
constexpr int kArc = kFastArc;
constexpr const int (&kCircleX)[kCircle] = kFastCircleX;
constexpr const int (&kCircleY)[kCircle] = kFastCircleY;

/// Corners to the sink a batch at a time; add(x, y, code) turns a code into the strength (code - 1).
class CornerBatch : public SinkBatch<FastCorner, FastCornerSink> {
 public:
  using SinkBatch::SinkBatch;
  void add(std::uint32_t x, std::uint32_t y, std::uint32_t code) noexcept { SinkBatch::add(FastCorner{x, y, code - 1}); }
};

/// The code of the candidate at @p p: best (strength + 1) when it is a corner at @p threshold, else 0.
inline std::uint8_t scalar_code(const std::uint8_t* p, std::ptrdiff_t stride, int threshold) noexcept {
  const int c = p[0];
  int d[kCircle];
  for (int i = 0; i < kCircle; ++i) d[i] = p[kCircleY[i] * stride + kCircleX[i]] - c;
  int best = 0;
  for (int start = 0; start < kCircle; ++start) {
    int low_bright = 255, low_dark = 255;
    for (int k = 0; k < kArc; ++k) {
      const int v = d[(start + k) % kCircle];
      low_bright = std::min(low_bright, v);
      low_dark = std::min(low_dark, -v);
    }
    best = std::max(best, std::max(low_bright, low_dark));
  }
  return static_cast<std::uint8_t>(best > threshold ? best : 0);
}

/// Whether the code at column @p x of @p mid survives suppression (see the file's comment).
inline bool scalar_survives(const std::uint8_t* top, const std::uint8_t* mid, const std::uint8_t* bottom, std::size_t x) noexcept {
  const int c = mid[x];
  const int weak = std::max({top[x - 1], top[x], top[x + 1], mid[x - 1]});
  const int strict = std::max({mid[x + 1], bottom[x - 1], bottom[x], bottom[x + 1], std::uint8_t{1}});
  return c >= weak && c > strict;
}

}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<std::uint8_t>;
using V = hn::Vec<D>;

/// The seven rows around a candidate row, at column 0.
struct Window {
  const std::uint8_t* up3;
  const std::uint8_t* up2;
  const std::uint8_t* up1;
  const std::uint8_t* mid;
  const std::uint8_t* down1;
  const std::uint8_t* down2;
  const std::uint8_t* down3;
};

/// The largest, over the 16 arcs of 9 circle positions, of the smallest of @p s0 .. @p s15 on the arc.
/// Two arcs from i and i + 1 (i even) share the run of 8 from i + 1, so the larger of their minima is
/// min(run of 8 from i + 1, max(s_i, s_i+9)): only the 8 runs of 8 from odd positions are needed, built from
/// runs of 2 and 4 from odd positions. Named values, not arrays: SVE's vectors have no size and cannot be
/// array elements.
HWY_INLINE V LargestArcMinimum(V s0, V s1, V s2, V s3, V s4, V s5, V s6, V s7, V s8, V s9, V s10, V s11, V s12, V s13, V s14,
                               V s15) {
  const V r2_1 = hn::Min(s1, s2), r2_3 = hn::Min(s3, s4), r2_5 = hn::Min(s5, s6), r2_7 = hn::Min(s7, s8);
  const V r2_9 = hn::Min(s9, s10), r2_11 = hn::Min(s11, s12), r2_13 = hn::Min(s13, s14), r2_15 = hn::Min(s15, s0);
  const V r4_1 = hn::Min(r2_1, r2_3), r4_3 = hn::Min(r2_3, r2_5), r4_5 = hn::Min(r2_5, r2_7), r4_7 = hn::Min(r2_7, r2_9);
  const V r4_9 = hn::Min(r2_9, r2_11), r4_11 = hn::Min(r2_11, r2_13), r4_13 = hn::Min(r2_13, r2_15), r4_15 = hn::Min(r2_15, r2_1);
  const V r8_1 = hn::Min(r4_1, r4_5), r8_3 = hn::Min(r4_3, r4_7), r8_5 = hn::Min(r4_5, r4_9), r8_7 = hn::Min(r4_7, r4_11);
  const V r8_9 = hn::Min(r4_9, r4_13), r8_11 = hn::Min(r4_11, r4_15), r8_13 = hn::Min(r4_13, r4_1), r8_15 = hn::Min(r4_15, r4_3);
  const V arcs_0 = hn::Min(r8_1, hn::Max(s0, s9)), arcs_2 = hn::Min(r8_3, hn::Max(s2, s11));
  const V arcs_4 = hn::Min(r8_5, hn::Max(s4, s13)), arcs_6 = hn::Min(r8_7, hn::Max(s6, s15));
  const V arcs_8 = hn::Min(r8_9, hn::Max(s8, s1)), arcs_10 = hn::Min(r8_11, hn::Max(s10, s3));
  const V arcs_12 = hn::Min(r8_13, hn::Max(s12, s5)), arcs_14 = hn::Min(r8_15, hn::Max(s14, s7));
  return hn::Max(hn::Max(hn::Max(arcs_0, arcs_2), hn::Max(arcs_4, arcs_6)), hn::Max(hn::Max(arcs_8, arcs_10), hn::Max(arcs_12, arcs_14)));
}

/// The codes of the Lanes(d) candidates from column @p x (see the file's comment).
HWY_INLINE void DetectVector(const Window& w, std::size_t x, V threshold, std::uint8_t* codes) {
  const D d;
  const V c = hn::LoadU(d, w.mid + x);
  const V p0 = hn::LoadU(d, w.mid + x + 3), p4 = hn::LoadU(d, w.down3 + x), p8 = hn::LoadU(d, w.mid + x - 3), p12 = hn::LoadU(d, w.up3 + x);
  const V high = hn::SaturatedAdd(c, threshold), low = hn::SaturatedSub(c, threshold);
  // A bright or dark compass pixel past a saturated bound cannot be: x > 255 and x < 0 never hold.
  const auto bright = hn::And(hn::Or(hn::Gt(p0, high), hn::Gt(p8, high)), hn::Or(hn::Gt(p4, high), hn::Gt(p12, high)));
  const auto dark = hn::And(hn::Or(hn::Lt(p0, low), hn::Lt(p8, low)), hn::Or(hn::Lt(p4, low), hn::Lt(p12, low)));
  if (hn::AllFalse(d, hn::Or(bright, dark))) {
    hn::StoreU(hn::Zero(d), d, codes + x);
    return;
  }
  const V p1 = hn::LoadU(d, w.down1 + x + 3), p2 = hn::LoadU(d, w.down2 + x + 2), p3 = hn::LoadU(d, w.down3 + x + 1);
  const V p5 = hn::LoadU(d, w.down3 + x - 1), p6 = hn::LoadU(d, w.down2 + x - 2), p7 = hn::LoadU(d, w.down1 + x - 3);
  const V p9 = hn::LoadU(d, w.up1 + x - 3), p10 = hn::LoadU(d, w.up2 + x - 2), p11 = hn::LoadU(d, w.up3 + x - 1);
  const V p13 = hn::LoadU(d, w.up3 + x + 1), p14 = hn::LoadU(d, w.up2 + x + 2), p15 = hn::LoadU(d, w.up1 + x + 3);
  const V best_bright = LargestArcMinimum(
      hn::SaturatedSub(p0, c), hn::SaturatedSub(p1, c), hn::SaturatedSub(p2, c), hn::SaturatedSub(p3, c), hn::SaturatedSub(p4, c),
      hn::SaturatedSub(p5, c), hn::SaturatedSub(p6, c), hn::SaturatedSub(p7, c), hn::SaturatedSub(p8, c), hn::SaturatedSub(p9, c),
      hn::SaturatedSub(p10, c), hn::SaturatedSub(p11, c), hn::SaturatedSub(p12, c), hn::SaturatedSub(p13, c), hn::SaturatedSub(p14, c),
      hn::SaturatedSub(p15, c));
  const V best_dark = LargestArcMinimum(
      hn::SaturatedSub(c, p0), hn::SaturatedSub(c, p1), hn::SaturatedSub(c, p2), hn::SaturatedSub(c, p3), hn::SaturatedSub(c, p4),
      hn::SaturatedSub(c, p5), hn::SaturatedSub(c, p6), hn::SaturatedSub(c, p7), hn::SaturatedSub(c, p8), hn::SaturatedSub(c, p9),
      hn::SaturatedSub(c, p10), hn::SaturatedSub(c, p11), hn::SaturatedSub(c, p12), hn::SaturatedSub(c, p13), hn::SaturatedSub(c, p14),
      hn::SaturatedSub(c, p15));
  const V best = hn::Max(best_bright, best_dark);
  hn::StoreU(hn::IfThenElseZero(hn::Gt(best, threshold), best), d, codes + x);
}

/// The codes of one candidate row into @p codes (columns 3 .. width-4).
HWY_INLINE void DetectRow(const Window& w, std::ptrdiff_t stride, std::size_t width, std::uint8_t threshold, std::uint8_t* codes) {
  const D d;
  const std::size_t n = hn::Lanes(d), begin = kFastRadius, end = width - kFastRadius;
  if (end - begin < n) {
    for (std::size_t x = begin; x < end; ++x) codes[x] = detail::scalar_code(w.mid + x, stride, threshold);
    return;
  }
  const V t = hn::Set(d, threshold);
  std::size_t x = begin;
  for (; x + n <= end; x += n) DetectVector(w, x, t, codes);
  if (x < end) DetectVector(w, end - n, t, codes);
}

/// Passes on the corners among the Lanes(d) codes of @p mid from column @p x, but for the first @p done
/// (passed on already).
HWY_INLINE void EmitVector(const std::uint8_t* top, const std::uint8_t* mid, const std::uint8_t* bottom, std::size_t x, std::size_t done,
                           bool nonmax, std::uint32_t y, detail::CornerBatch& out) {
  const D d;
  const V c = hn::LoadU(d, mid + x);
  auto keep = hn::AndNot(hn::FirstN(d, done), hn::Gt(c, hn::Zero(d)));
  if (hn::AllFalse(d, keep)) return;
  if (nonmax) {
    const V weak = hn::Max(hn::Max(hn::LoadU(d, top + x - 1), hn::LoadU(d, top + x)), hn::Max(hn::LoadU(d, top + x + 1), hn::LoadU(d, mid + x - 1)));
    const V strict = hn::Max(hn::Max(hn::LoadU(d, mid + x + 1), hn::LoadU(d, bottom + x - 1)),
                             hn::Max(hn::LoadU(d, bottom + x), hn::LoadU(d, bottom + x + 1)));
    keep = hn::And(keep, hn::AndNot(hn::Gt(weak, c), hn::Gt(c, hn::Max(strict, hn::Set(d, 1)))));
    if (hn::AllFalse(d, keep)) return;
  }
  for_each_true_lane(d, keep, [&](std::size_t lane) {
    const std::size_t at = x + lane;
    out.add(static_cast<std::uint32_t>(at), y, mid[at]);
  });
}

/// Passes on the corners of row @p y, whose codes are @p mid (@p top and @p bottom: the rows around it,
/// read only with @p nonmax).
HWY_INLINE void EmitRow(const std::uint8_t* top, const std::uint8_t* mid, const std::uint8_t* bottom, std::size_t width, bool nonmax,
                        std::uint32_t y, detail::CornerBatch& out) {
  const D d;
  const std::size_t n = hn::Lanes(d), begin = kFastRadius, end = width - kFastRadius;
  if (end - begin < n) {
    for (std::size_t x = begin; x < end; ++x) {
      if (mid[x] != 0 && (!nonmax || detail::scalar_survives(top, mid, bottom, x))) out.add(static_cast<std::uint32_t>(x), y, mid[x]);
    }
    return;
  }
  std::size_t x = begin;
  for (; x + n <= end; x += n) EmitVector(top, mid, bottom, x, 0, nonmax, y, out);
  if (x < end) EmitVector(top, mid, bottom, end - n, n - (end - x), nonmax, y, out);
}

void FastCornersRows(ConstPlane in, std::uint8_t threshold, bool nonmax, std::uint8_t* scratch, detail::CornerBatch& out) {
  const std::size_t width = in.width;
  const std::uint32_t height = in.height;
  // The ring's rows start all 0: the row above the first candidate row, and the edge columns, stay so.
  std::memset(scratch, 0, fast_corners_scratch_size(in.width));
  const auto codes = [scratch, width](std::uint32_t y) { return scratch + (y % 3) * width; };
  for (std::uint32_t y = kFastRadius; y + kFastRadius < height; ++y) {
    const Window w{in.row(y - 3), in.row(y - 2), in.row(y - 1), in.row(y), in.row(y + 1), in.row(y + 2), in.row(y + 3)};
    DetectRow(w, in.stride, width, threshold, codes(y));
    if (!nonmax) {
      EmitRow(nullptr, codes(y), nullptr, width, false, y, out);
    } else if (y > kFastRadius) {
      EmitRow(codes(y - 2), codes(y - 1), codes(y), width, true, y - 1, out);
    }
  }
  if (nonmax) {
    // The last candidate row, below which no pixel is a candidate.
    const std::uint32_t last = height - kFastRadius - 1;
    std::memset(codes(last + 1), 0, width);
    EmitRow(codes(last - 1), codes(last), codes(last + 1), width, true, last, out);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(FastCornersRows);

bool fast_corners(ConstPlane in, FastCornerOptions options, std::span<std::uint8_t> scratch, FastCornerSink& sink,
                  std::size_t& found) noexcept {
  found = 0;
  if (scratch.size() < fast_corners_scratch_size(in.width)) return false;
  if (in.width <= 2 * kFastRadius || in.height <= 2 * kFastRadius) return true;  // no candidate
  detail::CornerBatch batch(sink);
  HWY_DYNAMIC_DISPATCH(FastCornersRows)(in, options.threshold, options.nonmax_suppression, scratch.data(), batch);
  found = batch.finish();
  return true;
}

bool fast_corners(ConstPlane in, FastCornerOptions options, std::span<std::uint8_t> scratch, std::span<FastCorner> out,
                  std::size_t& found) noexcept {
  detail::SpanSink<FastCorner, FastCornerSink> sink(out);
  return fast_corners(in, options, scratch, sink, found);
}

}  // namespace vg::vision
#endif
