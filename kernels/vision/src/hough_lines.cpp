// HoughLinesP (hough_lines.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off (CMakeLists.txt): rho = x cos + y sin is two products and a sum, each rounded to float,
// as the definition (and OpenCV) computes it.
//
// Where the time goes is the voting: every drawn point adds a vote on each angle's row of the accumulator.
// So a point's rhos for all angles are computed a vector of angles at a time (products, sum, round to
// nearest even: the same float operations lane by lane), and only the increments and the running maximum
// stay scalar. The accumulator holds 16-bit counts when no cell can pass 32767 in either direction (a
// cell's count is at most the points whose rho rounds to it, which the angle's step across a row or a
// column bounds), halving the memory the votes scatter over; 32-bit counts otherwise. The point list
// holds each point's pixel index (4 bytes). Draws, walks and results are those of the scalar definition.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hough_lines.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "visiongraph/kernels/vision/hough_lines.hpp"

#ifndef VG_VISION_HOUGH_LINES_SCALAR
#define VG_VISION_HOUGH_LINES_SCALAR
namespace vg::vision::detail {

constexpr std::size_t kHoughAlign = 64;
/// The largest count a 16-bit accumulator holds, either way.
constexpr double kNarrowCountLimit = 32767;

/// Where each part of the working memory lies, in bytes from the scratch's first 64-byte boundary.
struct HoughPlan {
  int angles = 0, rhos = 0;
  bool narrow = false;  // 16-bit counts
  std::size_t accumulator = 0, cosines = 0, sines = 0, rho_indices = 0, points = 0, mask = 0, total = 0;
};

constexpr std::size_t aligned(std::size_t bytes) noexcept { return (bytes + kHoughAlign - 1) / kHoughAlign * kHoughAlign; }

/// Angle @p n's cos and sin over the rho step, as the tables hold them.
inline void hough_trig(const HoughLinesOptions& o, int n, float& cos_over_rho, float& sin_over_rho) noexcept {
  const float inv_rho = 1.0f / o.rho;
  const double a = o.theta_min + n * static_cast<double>(o.theta);
  cos_over_rho = static_cast<float>(std::cos(a) * inv_rho);
  sin_over_rho = static_cast<float>(std::sin(a) * inv_rho);
}

/// The most points of a @p width x @p height image whose rho on one angle rounds to one cell: along a row
/// rho steps by |cos| / rho, so at most floor(1 / step) + 1 neighbours share a cell (+1 and 0.1 % spare for
/// the float roundings); likewise down a column; a cell's points are bounded by either count.
inline double hough_cell_bound(std::uint32_t width, std::uint32_t height, const HoughLinesOptions& o, int angles) noexcept {
  const double w = width, h = height;
  double bound = 0;
  for (int n = 0; n < angles; ++n) {
    float c = 0, s = 0;
    hough_trig(o, n, c, s);
    const double along_row = c != 0.0f ? std::floor(1.001 / std::fabs(static_cast<double>(c))) + 2 : w;
    const double down_column = s != 0.0f ? std::floor(1.001 / std::fabs(static_cast<double>(s))) + 2 : h;
    bound = std::max(bound, std::min({h * std::min(w, along_row), w * std::min(h, down_column), w * h}));
  }
  return bound;
}

inline bool plan_hough(std::uint32_t width, std::uint32_t height, const HoughLinesOptions& o, HoughPlan& plan) noexcept {
  if (!(o.rho > 0.0f) || !(o.theta > 0.0f) || !(o.theta_max > o.theta_min) || o.threshold < 1 || o.line_length < 0 || o.line_gap < 0) {
    return false;
  }
  // Rounded, not truncated: a range of pi in steps of pi/170 is 170 angles, whatever the float error.
  const double angles_d = std::nearbyint((o.theta_max - o.theta_min) / o.theta);
  const double rhos_d = std::nearbyint(((width + height) * 2.0 + 1.0) / o.rho);
  if (!(angles_d >= 1.0 && angles_d < 1e5 && rhos_d >= 1.0 && rhos_d < 1e6)) return false;
  plan.angles = static_cast<int>(angles_d);
  plan.rhos = static_cast<int>(rhos_d);
  plan.narrow = hough_cell_bound(width, height, o, plan.angles) <= kNarrowCountLimit;
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  const std::size_t cells = static_cast<std::size_t>(plan.angles) * static_cast<std::size_t>(plan.rhos);
  const std::size_t per_angle = aligned(static_cast<std::size_t>(plan.angles) * sizeof(float));
  plan.accumulator = 0;
  plan.cosines = aligned(cells * (plan.narrow ? sizeof(std::int16_t) : sizeof(std::int32_t)));
  plan.sines = plan.cosines + per_angle;
  plan.rho_indices = plan.sines + per_angle;
  plan.points = plan.rho_indices + per_angle;
  plan.mask = plan.points + aligned(pixels * sizeof(std::uint32_t));
  plan.total = plan.mask + pixels + kHoughAlign;  // the slack aligns the caller's scratch
  return plan.total < (std::size_t{1} << 31);
}

/// Lists the region's edge points (pixel indices, raster order) and marks them in the mask; returns how many.
inline std::size_t gather_edge_points(const HoughEdges& e, std::uint32_t* points, std::uint8_t* mask) noexcept {
  std::memset(mask, 0, static_cast<std::size_t>(e.width) * e.height);
  std::size_t count = 0;
  for (std::uint32_t y = e.start_y; y < e.end_y; ++y) {
    const std::uint8_t* row = e.data + static_cast<std::ptrdiff_t>(y) * e.stride;
    const std::uint32_t first = y * e.width;
    for (std::uint32_t x = e.start_x; x < e.end_x; ++x) {
      const bool on = e.bits ? ((row[x / 8] >> (x % 8)) & 1u) != 0 : row[static_cast<std::ptrdiff_t>(x) * e.pixel_step] != 0;
      if (!on) continue;
      points[count++] = first + x;
      mask[first + x] = 1;
    }
  }
  return count;
}

/// The random draw: uniform in [0, n), multiply-with-carry, then modulo.
class PointDraw {
 public:
  std::size_t next(std::size_t n) noexcept {
    state_ = static_cast<std::uint64_t>(static_cast<std::uint32_t>(state_)) * 4164903690u + (state_ >> 32);
    return static_cast<std::size_t>(static_cast<std::uint32_t>(state_) % static_cast<std::uint32_t>(n));
  }

 private:
  std::uint64_t state_ = ~std::uint64_t{0};
};

/// The line through a point along an angle, walked a pixel at a time on its major axis in 16.16 fixed point.
struct LineWalk {
  static constexpr int kShift = 16;
  int x0 = 0, y0 = 0, dx0 = 0, dy0 = 0;
  bool x_major = false;

  /// The line through (@p x, @p y) whose normal is (@p cos_over_rho, @p sin_over_rho).
  LineWalk(int x, int y, float cos_over_rho, float sin_over_rho) noexcept : x0(x), y0(y) {
    const float a = -sin_over_rho, b = cos_over_rho;
    x_major = std::fabs(a) > std::fabs(b);
    if (x_major) {
      dx0 = a > 0 ? 1 : -1;
      dy0 = static_cast<int>(std::lrint(b * static_cast<float>(1 << kShift) / std::fabs(a)));
      y0 = (y0 << kShift) + (1 << (kShift - 1));
    } else {
      dy0 = b > 0 ? 1 : -1;
      dx0 = static_cast<int>(std::lrint(a * static_cast<float>(1 << kShift) / std::fabs(b)));
      x0 = (x0 << kShift) + (1 << (kShift - 1));
    }
  }
};

}  // namespace vg::vision::detail
#endif  // VG_VISION_HOUGH_LINES_SCALAR

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// rho + offset of each angle's line through (@p x, @p y) into @p out, or -1 where that falls outside
/// [0, rhos). The last vector overlaps the one before (same values); fewer angles than a vector: scalar.
HWY_INLINE void LineRhos(const float* cosines, const float* sines, int angles, int rhos, int rho_offset, int x, int y,
                         std::int32_t* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t lanes = hn::Lanes(df), count = static_cast<std::size_t>(angles);
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  if (count < lanes) {
    for (std::size_t n = 0; n < count; ++n) {
      const int r = static_cast<int>(std::lrint(fx * cosines[n] + fy * sines[n])) + rho_offset;
      out[n] = r >= 0 && r < rhos ? r : -1;
    }
    return;
  }
  const auto vx = hn::Set(df, fx), vy = hn::Set(df, fy);
  const auto offset = hn::Set(di, rho_offset), limit = hn::Set(di, rhos), none = hn::Set(di, -1), zero = hn::Zero(di);
  auto one = [&](std::size_t n) {
    const auto r = hn::Add(hn::NearestInt(hn::Add(hn::Mul(vx, hn::LoadU(df, cosines + n)), hn::Mul(vy, hn::LoadU(df, sines + n)))), offset);
    const auto inside = hn::And(hn::Not(hn::Lt(r, zero)), hn::Lt(r, limit));
    hn::StoreU(hn::IfThenElse(inside, r, none), di, out + n);
  };
  std::size_t n = 0;
  for (; n + lanes <= count; n += lanes) one(n);
  if (n < count) one(count - lanes);
}

/// Adds a vote to each angle's cell in @p rho_of; returns the first angle whose count, the highest, passes
/// @p best (-1 when none does).
template <typename Count>
HWY_NOINLINE int Vote(Count* HWY_RESTRICT acc, const std::int32_t* HWY_RESTRICT rho_of, int angles, int rhos, int best) {
  int best_angle = -1;
  for (int n = 0; n < angles; ++n, acc += rhos) {
    const std::int32_t r = rho_of[n];
    if (r < 0) continue;
    const int votes = ++acc[r];
    if (votes > best) {
      best = votes;
      best_angle = n;
    }
  }
  return best_angle;
}

/// Takes a vote from each angle's cell in @p rho_of.
template <typename Count>
HWY_NOINLINE void Unvote(Count* HWY_RESTRICT acc, const std::int32_t* HWY_RESTRICT rho_of, int angles, int rhos) {
  for (int n = 0; n < angles; ++n, acc += rhos) {
    const std::int32_t r = rho_of[n];
    if (r >= 0) --acc[r];
  }
}

template <typename Count>
std::size_t HoughLinesPCounts(const HoughEdges& e, const HoughLinesOptions& o, const detail::HoughPlan& plan, std::uint8_t* base,
                              HoughSegmentSink& sink) {
  auto* acc = reinterpret_cast<Count*>(base + plan.accumulator);
  auto* cosines = reinterpret_cast<float*>(base + plan.cosines);
  auto* sines = reinterpret_cast<float*>(base + plan.sines);
  auto* rho_of = reinterpret_cast<std::int32_t*>(base + plan.rho_indices);
  auto* points = reinterpret_cast<std::uint32_t*>(base + plan.points);
  std::uint8_t* mask = base + plan.mask;
  const int angles = plan.angles, rhos = plan.rhos;
  const int rho_offset = (rhos - 1) / 2;  // rho may be negative: index rho + offset
  std::memset(acc, 0, static_cast<std::size_t>(angles) * static_cast<std::size_t>(rhos) * sizeof(Count));
  for (int n = 0; n < angles; ++n) detail::hough_trig(o, n, cosines[n], sines[n]);
  const std::uint32_t width = e.width;
  std::size_t count = detail::gather_edge_points(e, points, mask);

  const int left = static_cast<int>(e.start_x), right = static_cast<int>(e.end_x);
  const int top = static_cast<int>(e.start_y), bottom = static_cast<int>(e.end_y);
  const auto outside = [&](int x, int y) { return x < left || x >= right || y < top || y >= bottom; };
  const auto at = [&](int x, int y) -> std::uint8_t& { return mask[static_cast<std::size_t>(y) * width + static_cast<std::size_t>(x)]; };
  std::size_t found = 0;
  detail::PointDraw draw;
  for (; count > 0; --count) {
    // Draw a point, and move the last one into its place.
    const std::size_t k = draw.next(count);
    const std::uint32_t point = points[k];
    points[k] = points[count - 1];
    if (!mask[point]) continue;  // taken by a segment
    const int x = static_cast<int>(point % width), y = static_cast<int>(point / width);
    // Vote, and find the strongest line through this point (the first angle of the most votes).
    LineRhos(cosines, sines, angles, rhos, rho_offset, x, y, rho_of);
    const int best_angle = Vote(acc, rho_of, angles, rhos, o.threshold - 1);
    if (best_angle < 0) continue;
    // Follow the line through (x, y) both ways: the direction perpendicular to its normal.
    const detail::LineWalk line(x, y, cosines[best_angle], sines[best_angle]);
    constexpr int kShift = detail::LineWalk::kShift;
    int ends[2][2] = {};
    for (int side = 0; side < 2; ++side) {
      int gap = 0, px = line.x0, py = line.y0;
      const int dx = side ? -line.dx0 : line.dx0, dy = side ? -line.dy0 : line.dy0;
      for (;; px += dx, py += dy) {
        const int ix = line.x_major ? px : px >> kShift, iy = line.x_major ? py >> kShift : py;
        if (outside(ix, iy)) break;
        if (at(ix, iy)) {
          gap = 0;
          ends[side][0] = ix;
          ends[side][1] = iy;
        } else if (++gap > o.line_gap) {
          break;
        }
      }
    }
    const bool long_enough = std::abs(ends[1][0] - ends[0][0]) >= o.line_length || std::abs(ends[1][1] - ends[0][1]) >= o.line_length;
    // Take the segment's points out of the mask (and, for a reported segment, their votes out of the
    // accumulator), walking it again.
    for (int side = 0; side < 2; ++side) {
      int px = line.x0, py = line.y0;
      const int dx = side ? -line.dx0 : line.dx0, dy = side ? -line.dy0 : line.dy0;
      for (;; px += dx, py += dy) {
        const int ix = line.x_major ? px : px >> kShift, iy = line.x_major ? py >> kShift : py;
        if (outside(ix, iy)) break;
        std::uint8_t& m = at(ix, iy);
        if (m) {
          if (long_enough) {
            // Points the draw had not reached yet lose a vote they never cast, as OpenCV's do.
            LineRhos(cosines, sines, angles, rhos, rho_offset, ix, iy, rho_of);
            Unvote(acc, rho_of, angles, rhos);
          }
          m = 0;
        }
        if (ix == ends[side][0] && iy == ends[side][1]) break;
      }
    }
    if (long_enough) {
      ++found;
      sink.take(HoughSegment{ends[0][0], ends[0][1], ends[1][0], ends[1][1]});
    }
  }
  return found;
}

std::size_t HoughLinesP(const HoughEdges& e, const HoughLinesOptions& o, const detail::HoughPlan& plan, std::uint8_t* base,
                        HoughSegmentSink& sink) {
  return plan.narrow ? HoughLinesPCounts<std::int16_t>(e, o, plan, base, sink) : HoughLinesPCounts<std::int32_t>(e, o, plan, base, sink);
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(HoughLinesP);

std::size_t hough_lines_p_scratch_size(std::uint32_t width, std::uint32_t height, const HoughLinesOptions& options) noexcept {
  detail::HoughPlan plan;
  return detail::plan_hough(width, height, options, plan) ? plan.total : 0;
}

bool hough_lines_p(const HoughEdges& edges, const HoughLinesOptions& options, std::span<std::uint8_t> scratch, HoughSegmentSink& sink,
                   std::size_t& found) noexcept {
  found = 0;
  detail::HoughPlan plan;
  if (!detail::plan_hough(edges.width, edges.height, options, plan) || scratch.size() < plan.total) return false;
  if (edges.data == nullptr || edges.start_x > edges.end_x || edges.end_x > edges.width || edges.start_y > edges.end_y ||
      edges.end_y > edges.height) {
    return false;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(scratch.data());
  std::uint8_t* base = scratch.data() + ((detail::kHoughAlign - address % detail::kHoughAlign) % detail::kHoughAlign);
  found = HWY_DYNAMIC_DISPATCH(HoughLinesP)(edges, options, plan, base, sink);
  return true;
}

}  // namespace vg::vision
#endif
