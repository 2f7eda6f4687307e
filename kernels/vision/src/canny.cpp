// CannyEdgeDetector (canny.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// One gradient row at a time into a ring of three, suppression a row behind, then the tracing:
//  1. Vertical pass (i16 lanes): per column, the smoothing and derivative sums down the window's rows.
//     Rows outside the image are the nearest edge row (replicate; undefined reads them so too, unused) or
//     a row of the constant. The sums fit 16 bits for every size (at most 64 * 255 and 10 * 255); the
//     columns outside the image get the sums a constant or replicated column has.
//  2. Horizontal pass, magnitude and direction (i32 lanes): dx, dy along the sums, m = |dx| + |dy| (stored
//     u16, at most 48960 for size 5) or dx^2 + dy^2 (u32, at most 1.2e9), and the direction code from
//     (|dx| + |dy|)^2 against 2 dx^2 and 2 dy^2, exact in u32 for sizes 3 and 5.
//  3. Suppression (lanes of the magnitude's width): each lane picks its neighbours before and after along
//     its direction, the candidate / edge codes go to a byte map with a one-pixel frame of 0, and edges onto
//     the tracing stack.
//  4. Tracing (scalar): candidates next to a stacked edge become edges and are stacked in turn; each pixel
//     is stacked at most once. Then the map's edges become 255 (u8 lanes).
// Gradient size 7 overflows those widths (|dx| up to 326400, squares past 2^32): its horizontal pass and
// suppression run the scalar forms below on u64 magnitudes, as do rows narrower than a vector and the
// suppression's columns after the last whole vector. The vector passes 1, 2 and 4 end with a vector that
// overlaps the one before it (its values are rewritten the same).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "canny.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "true_lanes-inl.h"
#include "visiongraph/kernels/vision/canny.hpp"

#ifndef VG_VISION_CANNY_SCALAR
#define VG_VISION_CANNY_SCALAR
namespace vg::vision::detail {

constexpr int kCannyMaxRadius = 3;  // gradient size 7

// The Sobel kernels' factors by radius - 1: sobel_x(r, c) = smoothing[r] * derivative[c], sobel_y its
// transpose.
constexpr std::int32_t kCannySmoothing[kCannyMaxRadius][2 * kCannyMaxRadius + 1] = {
    {1, 2, 1}, {1, 4, 6, 4, 1}, {1, 6, 15, 20, 15, 6, 1}};
constexpr std::int32_t kCannyDerivative[kCannyMaxRadius][2 * kCannyMaxRadius + 1] = {
    {-1, 0, 1}, {-1, -2, 0, 2, 1}, {-1, -4, -5, 0, 5, 4, 1}};

// Direction codes and map values.
constexpr std::uint8_t kHorizontal = 0, kVertical = 1, kDiagonalDown = 2 /* dx, dy of one sign */, kDiagonalUp = 3;
constexpr std::uint8_t kNone = 0, kCandidate = 1, kEdge = 2;

/// The frame's state and where its working memory lies.
struct CannyWork {
  std::uint32_t width = 0, height = 0;
  int radius = 1;
  bool l2 = false;
  CannyBorder border = CannyBorder::replicate;
  std::uint8_t constant = 0;
  std::int64_t lower = 0, upper = 0;  // comparable with the magnitudes (squared for L2; -1 when negative)
  std::uint32_t frame = 0;            // columns / rows on each side that are never candidates
  void* magnitudes = nullptr;         // 4 rows of width + 2 (3 ring slots and a row of zeros); column x at x + 1
  std::uint8_t* directions = nullptr;  // 3 rows of width
  std::int16_t* smoothed = nullptr;    // width + 2 * kCannyMaxRadius: column x at x + kCannyMaxRadius
  std::int16_t* derived = nullptr;
  std::uint8_t* constant_row = nullptr;  // width bytes of the constant
  std::uint32_t* stack = nullptr;        // width * height map indices
  std::size_t stack_size = 0;
  std::uint8_t* map = nullptr;  // (width + 2) x (height + 2); image pixel (x, y) at (x + 1, y + 1)
  std::ptrdiff_t map_stride = 0;

  std::ptrdiff_t magnitude_pitch() const noexcept { return static_cast<std::ptrdiff_t>(width) + 2; }
  template <class M>
  M* magnitude_slot(std::uint32_t y) const noexcept {
    return static_cast<M*>(magnitudes) + (y % 3) * magnitude_pitch();
  }
  /// Row y's magnitudes at column 0, or the row of zeros outside the image.
  template <class M>
  const M* magnitude_row(long long y) const noexcept {
    if (y < 0 || y >= static_cast<long long>(height)) return static_cast<const M*>(magnitudes) + 3 * magnitude_pitch() + 1;
    return magnitude_slot<M>(static_cast<std::uint32_t>(y)) + 1;
  }
  std::uint8_t* direction_row(std::uint32_t y) const noexcept { return directions + (y % 3) * static_cast<std::ptrdiff_t>(width); }
  std::uint8_t* map_row(std::uint32_t y) const noexcept { return map + (static_cast<std::ptrdiff_t>(y) + 1) * map_stride + 1; }
};

/// Vertical sums of columns [begin, end) from the window's rows (top first).
inline void canny_vertical_columns(int radius, const std::uint8_t* const* rows, std::uint32_t begin, std::uint32_t end, std::int16_t* s,
                                   std::int16_t* d) noexcept {
  const std::int32_t* smoothing = kCannySmoothing[radius - 1];
  const std::int32_t* derivative = kCannyDerivative[radius - 1];
  for (std::uint32_t x = begin; x < end; ++x) {
    std::int32_t sum_s = 0, sum_d = 0;
    for (int i = 0; i <= 2 * radius; ++i) {
      sum_s += smoothing[i] * rows[i][x];
      sum_d += derivative[i] * rows[i][x];
    }
    s[x] = static_cast<std::int16_t>(sum_s);
    d[x] = static_cast<std::int16_t>(sum_d);
  }
}

/// Magnitudes and directions of columns [begin, end) from the vertical sums (columns -radius .. width +
/// radius - 1 valid).
template <class M>
void canny_gradient_columns(int radius, bool l2, const std::int16_t* s, const std::int16_t* d, std::uint32_t begin, std::uint32_t end, M* m,
                            std::uint8_t* direction) noexcept {
  const std::int32_t* smoothing = kCannySmoothing[radius - 1];
  const std::int32_t* derivative = kCannyDerivative[radius - 1];
  for (std::uint32_t x = begin; x < end; ++x) {
    std::int64_t dx = 0, dy = 0;
    const std::int16_t* sx = s + static_cast<std::ptrdiff_t>(x) - radius;
    const std::int16_t* dxs = d + static_cast<std::ptrdiff_t>(x) - radius;
    for (int j = 0; j <= 2 * radius; ++j) {
      dx += derivative[j] * sx[j];
      dy += smoothing[j] * dxs[j];
    }
    const std::int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    m[x] = static_cast<M>(l2 ? ax * ax + ay * ay : ax + ay);
    const std::int64_t l1_squared = (ax + ay) * (ax + ay);
    if (l1_squared < 2 * ax * ax) {
      direction[x] = kHorizontal;
    } else if (l1_squared < 2 * ay * ay) {
      direction[x] = kVertical;
    } else {
      direction[x] = (dx < 0) == (dy < 0) ? kDiagonalDown : kDiagonalUp;
    }
  }
}

/// Suppression of columns [begin, end) of one row: codes into @p map_row, edges onto the stack.
template <class M>
void canny_suppress_columns(CannyWork& w, const M* above, const M* here, const M* below, const std::uint8_t* direction,
                            std::uint8_t* map_row, std::ptrdiff_t begin, std::ptrdiff_t end) noexcept {
  for (std::ptrdiff_t x = begin; x < end; ++x) {
    const auto m = static_cast<std::int64_t>(here[x]);
    std::uint8_t code = kNone;
    if (m > w.lower) {
      bool maximum;
      switch (direction[x]) {
        case kHorizontal: maximum = m > static_cast<std::int64_t>(here[x - 1]) && m >= static_cast<std::int64_t>(here[x + 1]); break;
        case kVertical: maximum = m > static_cast<std::int64_t>(above[x]) && m >= static_cast<std::int64_t>(below[x]); break;
        case kDiagonalDown: maximum = m > static_cast<std::int64_t>(above[x - 1]) && m > static_cast<std::int64_t>(below[x + 1]); break;
        default: maximum = m > static_cast<std::int64_t>(above[x + 1]) && m > static_cast<std::int64_t>(below[x - 1]); break;
      }
      if (maximum) code = m > w.upper ? kEdge : kCandidate;
    }
    map_row[x] = code;
    if (code == kEdge) w.stack[w.stack_size++] = static_cast<std::uint32_t>(&map_row[x] - w.map);
  }
}

/// Hysteresis: candidates reachable from an edge become edges. The map's frame is kNone, so the neighbours
/// of any stacked pixel are inside the map.
inline void canny_trace(CannyWork& w) noexcept {
  const std::ptrdiff_t s = w.map_stride;
  const std::ptrdiff_t neighbours[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  std::uint8_t* const map = w.map;
  std::uint32_t* const stack = w.stack;
  std::size_t size = w.stack_size;
  while (size > 0) {
    std::uint8_t* const at = map + stack[--size];
    for (const std::ptrdiff_t n : neighbours) {
      std::uint8_t* const v = at + n;
      if (*v != kCandidate) continue;
      *v = kEdge;
      stack[size++] = static_cast<std::uint32_t>(v - map);
    }
  }
  w.stack_size = 0;
}

}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using detail::CannyWork;

/// Step 1 for one row: the window's rows (top first) into the vertical sums, then the columns outside.
template <int R>
void VerticalRow(const CannyWork& w, const std::uint8_t* const* rows) {
  const hn::ScalableTag<std::int16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t n = hn::Lanes(d16), width = w.width;
  std::int16_t* s = w.smoothed + detail::kCannyMaxRadius;
  std::int16_t* d = w.derived + detail::kCannyMaxRadius;
  if (width < n) {
    detail::canny_vertical_columns(R, rows, 0, w.width, s, d);
  } else {
    const auto at = [&](int i, std::size_t x) { return hn::PromoteTo(d16, hn::LoadU(d8, rows[i] + x)); };
    for (std::size_t x = 0;; x += n) {
      if (x + n > width) x = width - n;
      if constexpr (R == 1) {
        const auto p0 = at(0, x), p2 = at(2, x);
        hn::StoreU(hn::Add(hn::Add(p0, p2), hn::ShiftLeft<1>(at(1, x))), d16, s + x);
        hn::StoreU(hn::Sub(p2, p0), d16, d + x);
      } else {
        auto sum_s = hn::Zero(d16), sum_d = hn::Zero(d16);
        for (int i = 0; i <= 2 * R; ++i) {
          const auto p = at(i, x);
          sum_s = hn::Add(sum_s, hn::Mul(p, hn::Set(d16, static_cast<std::int16_t>(detail::kCannySmoothing[R - 1][i]))));
          if (i != R) sum_d = hn::Add(sum_d, hn::Mul(p, hn::Set(d16, static_cast<std::int16_t>(detail::kCannyDerivative[R - 1][i]))));
        }
        hn::StoreU(sum_s, d16, s + x);
        hn::StoreU(sum_d, d16, d + x);
      }
      if (x + n == width) break;
    }
  }
  // A constant column sums to constant * 2^(2R) (the smoothing weights' sum) and 0; otherwise the
  // nearest edge column's sums.
  const bool constant = w.border == CannyBorder::constant;
  const auto last = static_cast<std::ptrdiff_t>(width) - 1;
  for (int c = 1; c <= R; ++c) {
    if (constant) {
      s[-c] = s[last + c] = static_cast<std::int16_t>(w.constant << (2 * R));
      d[-c] = d[last + c] = 0;
    } else {
      s[-c] = s[0];
      d[-c] = d[0];
      s[last + c] = s[last];
      d[last + c] = d[last];
    }
  }
}

/// Step 2 for one row: magnitudes (M: u16 for L1, u32 for L2) and direction codes from the sums.
template <int R, class M>
void GradientRow(const CannyWork& w, M* m, std::uint8_t* direction) {
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<std::uint32_t, decltype(d32)> du32;
  const hn::Rebind<std::int16_t, decltype(d32)> d16;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const hn::Rebind<M, decltype(d32)> dm;
  const std::size_t n = hn::Lanes(d32), width = w.width;
  const std::int16_t* s = w.smoothed + detail::kCannyMaxRadius;
  const std::int16_t* d = w.derived + detail::kCannyMaxRadius;
  if (width < n) {
    detail::canny_gradient_columns<M>(R, w.l2, s, d, 0, w.width, m, direction);
    return;
  }
  const auto at = [&](const std::int16_t* row, std::size_t x, int offset) {
    return hn::PromoteTo(d32, hn::LoadU(d16, row + static_cast<std::ptrdiff_t>(x) + offset));
  };
  for (std::size_t x = 0;; x += n) {
    if (x + n > width) x = width - n;
    hn::Vec<decltype(d32)> dx, dy;
    if constexpr (R == 1) {
      dx = hn::Sub(at(s, x, 1), at(s, x, -1));
      dy = hn::Add(hn::Add(at(d, x, -1), at(d, x, 1)), hn::ShiftLeft<1>(at(d, x, 0)));
    } else {
      dx = hn::Zero(d32);
      dy = hn::Zero(d32);
      for (int j = 0; j <= 2 * R; ++j) {
        if (j != R) dx = hn::Add(dx, hn::Mul(at(s, x, j - R), hn::Set(d32, detail::kCannyDerivative[R - 1][j])));
        dy = hn::Add(dy, hn::Mul(at(d, x, j - R), hn::Set(d32, detail::kCannySmoothing[R - 1][j])));
      }
    }
    const auto ax = hn::BitCast(du32, hn::Abs(dx)), ay = hn::BitCast(du32, hn::Abs(dy));
    const auto sum = hn::Add(ax, ay);
    const auto sum_squared = hn::Mul(sum, sum);
    const auto ax_squared = hn::Mul(ax, ax), ay_squared = hn::Mul(ay, ay);
    const auto horizontal = hn::Lt(sum_squared, hn::ShiftLeft<1>(ax_squared));
    const auto vertical = hn::Lt(sum_squared, hn::ShiftLeft<1>(ay_squared));
    // dx and dy of one sign: their xor's sign bit is clear.
    const auto diagonal = hn::IfThenElse(hn::Lt(hn::Xor(dx, dy), hn::Zero(d32)), hn::Set(d32, detail::kDiagonalUp), hn::Set(d32, detail::kDiagonalDown));
    const auto code = hn::IfThenElse(hn::RebindMask(d32, horizontal), hn::Set(d32, detail::kHorizontal),
                                     hn::IfThenElse(hn::RebindMask(d32, vertical), hn::Set(d32, detail::kVertical), diagonal));
    hn::StoreU(hn::DemoteTo(d8, code), d8, direction + x);
    if constexpr (sizeof(M) == 2) {
      hn::StoreU(hn::DemoteTo(dm, hn::BitCast(d32, sum)), dm, m + x);
    } else {
      hn::StoreU(hn::Add(ax_squared, ay_squared), dm, m + x);
    }
    if (x + n == width) break;
  }
}

/// Step 3 for one row (M lanes; the columns after the last whole vector in scalar).
template <class M>
void SuppressRow(CannyWork& w, std::uint32_t y) {
  const hn::ScalableTag<M> dm;
  using DS = hn::RebindToSigned<decltype(dm)>;
  const DS ds;
  const hn::Rebind<std::uint8_t, decltype(dm)> d8;
  const std::size_t n = hn::Lanes(dm);
  const M* above = w.magnitude_row<M>(static_cast<long long>(y) - 1);
  const M* here = w.magnitude_row<M>(y);
  const M* below = w.magnitude_row<M>(static_cast<long long>(y) + 1);
  const std::uint8_t* direction = w.direction_row(y);
  std::uint8_t* map_row = w.map_row(y);
  const auto end = static_cast<std::ptrdiff_t>(w.width) - static_cast<std::ptrdiff_t>(w.frame);
  auto x = static_cast<std::ptrdiff_t>(w.frame);
  // m > t as m >= t + 1 (every magnitude is below M's largest value, so t + 1 clamped to it decides alike).
  const auto bound = [](std::int64_t t) {
    return static_cast<M>(std::clamp<std::int64_t>(t + 1, 0, static_cast<std::int64_t>(static_cast<M>(~M{0}))));
  };
  const auto lower = hn::Set(dm, bound(w.lower)), upper = hn::Set(dm, bound(w.upper));
  const auto horizontal_code = hn::Set(dm, detail::kHorizontal), vertical_code = hn::Set(dm, detail::kVertical);
  const auto down_code = hn::Set(dm, detail::kDiagonalDown);
  const auto candidate = hn::Set(dm, detail::kCandidate), edge = hn::Set(dm, detail::kEdge);
  for (; x + static_cast<std::ptrdiff_t>(n) <= end; x += static_cast<std::ptrdiff_t>(n)) {
    const auto m = hn::LoadU(dm, here + x);
    const auto over_lower = hn::Not(hn::Lt(m, lower));
    if (hn::AllFalse(dm, over_lower)) {
      hn::StoreU(hn::Zero(d8), d8, map_row + x);
      continue;
    }
    const auto code = hn::PromoteTo(dm, hn::LoadU(d8, direction + x));
    const auto is_horizontal = hn::Eq(code, horizontal_code), is_vertical = hn::Eq(code, vertical_code);
    const auto is_down = hn::Eq(code, down_code);
    const auto before = hn::IfThenElse(
        is_horizontal, hn::LoadU(dm, here + x - 1),
        hn::IfThenElse(is_vertical, hn::LoadU(dm, above + x), hn::IfThenElse(is_down, hn::LoadU(dm, above + x - 1), hn::LoadU(dm, above + x + 1))));
    const auto after = hn::IfThenElse(
        is_horizontal, hn::LoadU(dm, here + x + 1),
        hn::IfThenElse(is_vertical, hn::LoadU(dm, below + x), hn::IfThenElse(is_down, hn::LoadU(dm, below + x + 1), hn::LoadU(dm, below + x - 1))));
    // Horizontal and vertical directions let the neighbour after be equal; the diagonals do not.
    const auto straight = hn::Or(is_horizontal, is_vertical);
    const auto beats_after = hn::Or(hn::Gt(m, after), hn::And(straight, hn::Eq(m, after)));
    const auto keep = hn::And(over_lower, hn::And(hn::Gt(m, before), beats_after));
    const auto strong = hn::AndNot(hn::Lt(m, upper), keep);
    const auto codes = hn::IfThenElseZero(keep, hn::IfThenElse(strong, edge, candidate));
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(ds, codes)), d8, map_row + x);
    if (hn::AllFalse(dm, strong)) continue;
    for_each_true_lane(dm, strong, [&](std::size_t lane) {
      const std::ptrdiff_t at = x + static_cast<std::ptrdiff_t>(lane);
      w.stack[w.stack_size++] = static_cast<std::uint32_t>(map_row + at - w.map);
    });
  }
  detail::canny_suppress_columns<M>(w, above, here, below, direction, map_row, x, end);
}

/// The window's rows of gradient row @p y (top first): the constant row outside the image under a constant
/// border, else the nearest edge row.
inline void WindowRows(const CannyWork& w, ConstPlane in, std::uint32_t y, int radius, const std::uint8_t** rows) {
  for (int i = 0; i <= 2 * radius; ++i) {
    const long long yy = static_cast<long long>(y) + i - radius;
    const bool outside = yy < 0 || yy >= static_cast<long long>(w.height);
    if (outside && w.border == CannyBorder::constant) {
      rows[i] = w.constant_row;
    } else {
      rows[i] = in.row(static_cast<std::uint32_t>(std::clamp<long long>(yy, 0, static_cast<long long>(w.height) - 1)));
    }
  }
}

/// Steps 1 to 3 over the image for radius R and magnitudes M (u64: the scalar horizontal pass and
/// suppression).
template <int R, class M>
void Detect(CannyWork& w, ConstPlane in) {
  const std::uint32_t h = w.height, frame = w.frame;
  // Gradient rows first .. last (inclusive) feed the suppression of rows frame .. height - 1 - frame.
  const std::uint32_t first = frame > 0 ? frame - 1 : 0, last = frame > 0 ? h - frame : h - 1;
  std::uint32_t next = first;
  const std::uint8_t* rows[2 * detail::kCannyMaxRadius + 1];
  std::fill_n(static_cast<M*>(w.magnitudes) + 3 * w.magnitude_pitch(), w.magnitude_pitch(), M{0});  // the row of zeros
  for (std::uint32_t y = frame; y + frame < h; ++y) {
    while (next <= std::min(y + 1, last)) {
      WindowRows(w, in, next, R, rows);
      VerticalRow<R>(w, rows);
      M* m = w.magnitude_slot<M>(next) + 1;
      if constexpr (sizeof(M) == 8) {
        detail::canny_gradient_columns<M>(R, w.l2, w.smoothed + detail::kCannyMaxRadius, w.derived + detail::kCannyMaxRadius, 0, w.width, m,
                                          w.direction_row(next));
      } else {
        GradientRow<R, M>(w, m, w.direction_row(next));
      }
      m[-1] = 0;
      m[w.width] = 0;
      ++next;
    }
    if constexpr (sizeof(M) == 8) {
      detail::canny_suppress_columns<M>(w, w.magnitude_row<M>(static_cast<long long>(y) - 1), w.magnitude_row<M>(y),
                                        w.magnitude_row<M>(static_cast<long long>(y) + 1), w.direction_row(y), w.map_row(y),
                                        static_cast<std::ptrdiff_t>(frame), static_cast<std::ptrdiff_t>(w.width - frame));
    } else {
      SuppressRow<M>(w, y);
    }
  }
}

/// Step 4's output: 255 where the map holds an edge, 0 elsewhere.
void WriteEdges(const CannyWork& w, Plane out) {
  const hn::ScalableTag<std::uint8_t> d8;
  const std::size_t n = hn::Lanes(d8), width = w.width;
  const auto edge = hn::Set(d8, detail::kEdge);
  for (std::uint32_t y = 0; y < w.height; ++y) {
    const std::uint8_t* m = w.map_row(y);
    std::uint8_t* o = out.row(y);
    if (width < n) {
      for (std::size_t x = 0; x < width; ++x) o[x] = m[x] == detail::kEdge ? 255 : 0;
      continue;
    }
    for (std::size_t x = 0;; x += n) {
      if (x + n > width) x = width - n;
      hn::StoreU(hn::VecFromMask(d8, hn::Eq(hn::LoadU(d8, m + x), edge)), d8, o + x);
      if (x + n == width) break;
    }
  }
}

void CannyRun(ConstPlane in, Plane out, CannyWork& w) {
  const std::uint32_t width = w.width, height = w.height, frame = w.frame;
  const std::size_t stride = static_cast<std::size_t>(w.map_stride);
  // The map's frame and the columns and rows the suppression does not write are kNone.
  if (width <= 2 * frame || height <= 2 * frame) {
    std::memset(w.map, detail::kNone, stride * (static_cast<std::size_t>(height) + 2));
  } else {
    std::memset(w.map, detail::kNone, stride * (frame + 1));
    std::memset(w.map_row(height - frame) - 1, detail::kNone, stride * (frame + 1));
    for (std::uint32_t y = frame; y + frame < height; ++y) {
      std::memset(w.map_row(y) - 1, detail::kNone, frame + 1);
      std::memset(w.map_row(y) + width - frame, detail::kNone, frame + 1);
    }
    if (w.border == CannyBorder::constant) std::memset(w.constant_row, w.constant, width);
    w.stack_size = 0;
    const bool l2 = w.l2;
    switch (w.radius) {
      case 1: l2 ? Detect<1, std::uint32_t>(w, in) : Detect<1, std::uint16_t>(w, in); break;
      case 2: l2 ? Detect<2, std::uint32_t>(w, in) : Detect<2, std::uint16_t>(w, in); break;
      default: Detect<3, std::uint64_t>(w, in); break;
    }
    detail::canny_trace(w);
  }
  WriteEdges(w, out);
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(CannyRun);

namespace {

constexpr std::size_t kAlign = 64;

/// Where each part of the working memory lies, as offsets from a 64-byte aligned start.
struct CannyLayout {
  std::size_t magnitudes = 0, directions = 0, smoothed = 0, derived = 0, constant_row = 0, stack = 0, map = 0, total = 0;

  /// false when the sizes do not fit (or the map's indices would not fit in 32 bits).
  bool lay_out(std::uint32_t width, std::uint32_t height) noexcept {
    const std::uint64_t w = width, h = height;
    const std::uint64_t map_bytes = (w + 2) * (h + 2);
    if (map_bytes > UINT32_MAX) return false;  // also bounds every other part
    std::uint64_t at = 0;
    const auto part = [&at](std::uint64_t bytes) {
      const std::uint64_t start = at;
      at += (bytes + kAlign - 1) / kAlign * kAlign;
      return static_cast<std::size_t>(start);
    };
    magnitudes = part(4 * (w + 2) * sizeof(std::uint64_t));
    directions = part(3 * w);
    smoothed = part((w + 2 * detail::kCannyMaxRadius) * sizeof(std::int16_t));
    derived = part((w + 2 * detail::kCannyMaxRadius) * sizeof(std::int16_t));
    constant_row = part(w);
    stack = part(w * h * sizeof(std::uint32_t));
    map = part(map_bytes);
    if (at + kAlign > SIZE_MAX) return false;
    total = static_cast<std::size_t>(at + kAlign);  // room to align the start
    return true;
  }
};

}  // namespace

std::size_t canny_scratch_size(std::uint32_t width, std::uint32_t height) noexcept {
  CannyLayout layout;
  return layout.lay_out(width, height) ? layout.total : 0;
}

bool canny(ConstPlane in, Plane out, const CannyOptions& options, std::span<std::uint8_t> scratch) noexcept {
  if (out.width != in.width || out.height != in.height) return false;
  if (options.gradient_size != 3 && options.gradient_size != 5 && options.gradient_size != 7) return false;
  CannyLayout layout;
  if (!layout.lay_out(in.width, in.height) || scratch.size() < layout.total) return false;
  if (in.width == 0 || in.height == 0) return true;
  std::uint8_t* base = scratch.data() + (kAlign - reinterpret_cast<std::uintptr_t>(scratch.data()) % kAlign) % kAlign;
  detail::CannyWork w;
  w.width = in.width;
  w.height = in.height;
  w.radius = options.gradient_size / 2;
  w.l2 = options.norm == CannyNorm::l2;
  w.border = options.border;
  w.constant = options.constant;
  const auto comparable = [l2 = w.l2](std::int32_t t) -> std::int64_t {
    if (t < 0) return -1;  // every magnitude exceeds it
    return l2 ? static_cast<std::int64_t>(t) * t : t;
  };
  w.lower = comparable(options.low);
  w.upper = comparable(options.high);
  w.frame = options.border == CannyBorder::undefined ? static_cast<std::uint32_t>(w.radius) + 1 : 0;
  w.magnitudes = base + layout.magnitudes;
  w.directions = base + layout.directions;
  w.smoothed = reinterpret_cast<std::int16_t*>(base + layout.smoothed);
  w.derived = reinterpret_cast<std::int16_t*>(base + layout.derived);
  w.constant_row = base + layout.constant_row;
  w.stack = reinterpret_cast<std::uint32_t*>(base + layout.stack);
  w.map = base + layout.map;
  w.map_stride = static_cast<std::ptrdiff_t>(in.width) + 2;
  HWY_DYNAMIC_DISPATCH(CannyRun)(in, out, w);
  return true;
}

}  // namespace vg::vision
#endif
