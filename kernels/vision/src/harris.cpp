// HarrisCorners (harris.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off (CMakeLists.txt): every float and double operation is rounded where the definition
// rounds it (no fused multiply-adds where the target has them).
//
// A row at a time, nothing copied from the image, templated on g and b so the taps are constants:
//  1. The vertical Sobel pass (int32 lanes) of gradient row j (image row j - b/2) reads the g image rows
//     around it, picked by the border (a row of the constant for CONSTANT), into two rows of sums, smooth
//     and derivative, b/2 + g/2 columns wider on each side; those edge columns come from the border too (a
//     constant column smooths to constant * 2^(g-1) and differentiates to 0).
//  2. The horizontal pass gives Gx and Gy (exact int32), fx and fy (float) and the three products, into
//     slot j mod b of a ring of b rows per product.
//  3. Once b gradient rows are in, the ring's slots summed in slot order give the column sums of image row
//     y = j + 1 - b (that is the definition's order), the sums along b of them the block sums; the score
//     follows in double lanes (f64 where the target has them, per pixel otherwise) into a ring of three
//     score rows.
//  4. Row y - 1 is suppressed once row y is scored: vectors of candidates compared with their neighbours,
//     the survivors appended in raster order as 64-bit keys (the score's bits inverted above the pixel
//     index), so one integer sort orders them strongest first, ties in raster order.
// The passes after the first run over whole vectors into rows with room to spare; the columns past the
// image's there are computed from zeros (the smooth and derivative rows' spare room is cleared) and never
// become candidates. Per-pixel code remains only for the vertical pass's last width mod lanes columns and for
// the score on targets without f64 lanes (32-bit NEON).
//
// The minimum distance test keeps the corners taken in a grid whose cells hold at most one (side s with
// (s - 1) sqrt 2 < r), so each candidate checks only the cells around it. Survivors of the suppression are
// never neighbours, so r <= 2 (which only neighbours are closer than) takes every candidate without it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "harris.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "sink_batch.hpp"
#include "true_lanes-inl.h"
#include "visiongraph/kernels/vision/harris.hpp"

#ifndef VG_VISION_HARRIS_SHARED
#define VG_VISION_HARRIS_SHARED
namespace vg::vision::detail {

constexpr int kHarrisMaxRadius = 3;                          // of the largest gradient and block sizes (7)
constexpr std::size_t kHarrisMaxPad = 2 * kHarrisMaxRadius;  // columns each side: g/2 + b/2
// Room past a row's last column for passes that run over whole vectors: two vectors of the widest target
// (SVE: 64 lanes of 32 bits) and the taps' reach.
constexpr std::size_t kHarrisRowSlack = 2 * 64 + 16;
constexpr std::size_t kHarrisAlign = 64;

/// The separable Sobel's taps of size G (index t is the offset t - G/2).
template <int G>
struct SobelTaps;
template <>
struct SobelTaps<3> {
  static constexpr int smooth[3] = {1, 2, 1};
  static constexpr int derivative[3] = {-1, 0, 1};
};
template <>
struct SobelTaps<5> {
  static constexpr int smooth[5] = {1, 4, 6, 4, 1};
  static constexpr int derivative[5] = {-1, -2, 0, 2, 1};
};
template <>
struct SobelTaps<7> {
  static constexpr int smooth[7] = {1, 6, 15, 20, 15, 6, 1};
  static constexpr int derivative[7] = {-1, -4, -5, 0, 5, 4, 1};
};

/// The working rows and lists, carved out of the caller's scratch.
struct HarrisScratch {
  std::size_t row_capacity = 0;  // elements of every row below
  std::uint8_t* constant_row = nullptr;
  std::int32_t* smooth = nullptr;
  std::int32_t* derivative = nullptr;
  float* ring = nullptr;    // 3 * 7 rows: slot s holds fx^2, fx fy, fy^2 at rows 3 s, 3 s + 1, 3 s + 2
  float* columns = nullptr;  // 3 rows: the column sums of fx^2, fx fy, fy^2
  float* scores = nullptr;   // 3 rows, image row y at y mod 3
  std::uint64_t* candidates = nullptr;
  std::uint32_t* grid = nullptr;
  std::size_t total = 0;  // bytes, alignment slack included

  /// Lays the areas out from @p base, aligned to kHarrisAlign (null: only sizes them); false when a size
  /// overflows. total counts the room a caller's unaligned buffer needs to align the base.
  bool plan(std::uint32_t width, std::uint32_t height, std::uint8_t* base) noexcept {
    constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    if (height != 0 && pixels / height != width) return false;
    if (pixels >= 0xFFFFFFFFu) return false;  // indices are 32-bit
    if (width > kMax / 8 - 2 * kHarrisMaxPad - kHarrisRowSlack) return false;
    row_capacity = width + 2 * kHarrisMaxPad + kHarrisRowSlack;
    const std::size_t max_count = harris_corners_max_count(width, height);
    if (max_count > kMax / 16) return false;
    std::size_t at = 0;
    auto area = [&](auto*& pointer, std::size_t bytes) {
      using T = std::remove_reference_t<decltype(*pointer)>;
      pointer = base == nullptr ? nullptr : reinterpret_cast<T*>(base + at);
      at += (bytes + kHarrisAlign - 1) / kHarrisAlign * kHarrisAlign;
    };
    area(constant_row, row_capacity);
    area(smooth, row_capacity * sizeof(std::int32_t));
    area(derivative, row_capacity * sizeof(std::int32_t));
    area(ring, 3 * 7 * row_capacity * sizeof(float));
    area(columns, 3 * row_capacity * sizeof(float));
    area(scores, 3 * row_capacity * sizeof(float));
    area(candidates, max_count * sizeof(std::uint64_t));
    area(grid, max_count * sizeof(std::uint32_t));  // cells of side 2 or more (see take_corners)
    total = at + kHarrisAlign;
    return true;
  }
};

/// Index @p i (possibly outside [0, n)) mirrored into it about the edge pixels (the edge not repeated).
inline std::int64_t mirrored(std::int64_t i, std::int64_t n) noexcept {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return i;
}

/// Where the border sends index @p i of [0, n); -1 for the constant.
inline std::int64_t border_index(std::int64_t i, std::int64_t n, HarrisBorderMode mode) noexcept {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case HarrisBorderMode::constant: return -1;
    case HarrisBorderMode::replicate: return i < 0 ? 0 : n - 1;
    default: return mirrored(i, n);
  }
}

/// The score of one pixel from its block sums (the definition's step 3).
inline float harris_score(float a, float m, float c, double k, double threshold) noexcept {
  const double trace = static_cast<double>(a) + c;
  const double mc = static_cast<double>(a) * c - static_cast<double>(m) * m - k * trace * trace;
  return mc > threshold ? static_cast<float>(mc) : 0.0f;
}

/// A candidate as a sort key: ascending keys run by decreasing score (positive floats order as their bits),
/// then by pixel index.
inline std::uint64_t candidate_key(float score, std::uint32_t index) noexcept {
  return (std::uint64_t{0xFFFFFFFFu - std::bit_cast<std::uint32_t>(score)} << 32) | index;
}
inline float key_score(std::uint64_t key) noexcept { return std::bit_cast<float>(0xFFFFFFFFu - static_cast<std::uint32_t>(key >> 32)); }
inline std::uint32_t key_index(std::uint64_t key) noexcept { return static_cast<std::uint32_t>(key); }

/// What one call computes with, resolved from the options.
struct HarrisRun {
  ConstPlane in;
  HarrisBorder border;
  float scale;
  double k, threshold;
};

}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DI = hn::ScalableTag<std::int32_t>;
using DF = hn::ScalableTag<float>;  // as many lanes as DI
using D8 = hn::Rebind<std::uint8_t, DI>;

/// Sum over t of Taps[t] * load(t). The taps are constants: the loop unrolls and the zero taps go. (A
/// fold over an index sequence would say so outright, but GCC 12 fails on it for SVE.)
template <int G, const int (&Taps)[G], class Load>
HWY_INLINE hn::Vec<DI> TapSum(Load load) {
  const DI d;
  auto sum = hn::Zero(d);
  for (int t = 0; t < G; ++t) {
    const int tap = Taps[t];
    if (tap == 0) continue;
    const auto v = load(static_cast<std::size_t>(t));
    if (tap == 1) sum = hn::Add(sum, v);
    else if (tap == -1) sum = hn::Sub(sum, v);
    else sum = hn::Add(sum, hn::Mul(v, hn::Set(d, tap)));
  }
  return sum;
}

/// Step 1: the vertical pass of one gradient row from the image rows @p rows (g of them), into @p smooth and
/// @p derivative at column 0 (the caller offsets them by the pad).
template <int G>
HWY_INLINE void VerticalPass(const std::uint8_t* const* rows, std::size_t width, std::int32_t* smooth, std::int32_t* derivative) {
  using Taps = detail::SobelTaps<G>;
  const DI d;
  const D8 d8;
  const std::size_t n = hn::Lanes(d);
  std::size_t x = 0;
  for (; x + n <= width; x += n) {
    auto pixels = [&](std::size_t t) { return hn::PromoteTo(d, hn::LoadU(d8, rows[t] + x)); };
    hn::StoreU(TapSum<G, Taps::smooth>(pixels), d, smooth + x);
    hn::StoreU(TapSum<G, Taps::derivative>(pixels), d, derivative + x);
  }
  for (; x < width; ++x) {
    int s = 0, v = 0;
    for (int t = 0; t < G; ++t) {
      s += Taps::smooth[t] * rows[t][x];
      v += Taps::derivative[t] * rows[t][x];
    }
    smooth[x] = s;
    derivative[x] = v;
  }
}

/// Step 2: Gx, Gy, fx, fy and the products of @p count gradient columns (whole vectors) into a ring slot.
template <int G>
HWY_INLINE void HorizontalPass(const std::int32_t* smooth, const std::int32_t* derivative, std::size_t count, float scale, float* xx, float* xy,
                               float* yy) {
  using Taps = detail::SobelTaps<G>;
  const DI di;
  const DF df;
  const std::size_t n = hn::Lanes(df);
  const auto s = hn::Set(df, scale);
  for (std::size_t i = 0; i < count; i += n) {
    const auto gx = TapSum<G, Taps::derivative>([&](std::size_t t) { return hn::LoadU(di, smooth + i + t); });
    const auto gy = TapSum<G, Taps::smooth>([&](std::size_t t) { return hn::LoadU(di, derivative + i + t); });
    const auto fx = hn::Mul(hn::ConvertTo(df, gx), s), fy = hn::Mul(hn::ConvertTo(df, gy), s);
    hn::StoreU(hn::Mul(fx, fx), df, xx + i);
    hn::StoreU(hn::Mul(fx, fy), df, xy + i);
    hn::StoreU(hn::Mul(fy, fy), df, yy + i);
  }
}

/// Step 3, down the columns: the B slots of each product summed in slot order, @p count columns.
template <int B>
HWY_INLINE void ColumnSums(const float* ring, std::size_t capacity, std::size_t count, float* columns) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
  for (std::size_t product = 0; product < 3; ++product) {
    const float* first = ring + product * capacity;
    float* out = columns + product * capacity;
    for (std::size_t i = 0; i < count; i += n) {
      auto sum = hn::LoadU(df, first + i);
      for (int slot = 1; slot < B; ++slot) sum = hn::Add(sum, hn::LoadU(df, first + 3 * static_cast<std::size_t>(slot) * capacity + i));
      hn::StoreU(sum, df, out + i);
    }
  }
}

/// Step 3, along the row: block sums and scores of @p count pixels (whole vectors) into @p scores.
template <int B>
HWY_INLINE void ScoreRow(const float* columns, std::size_t capacity, std::size_t count, double k, double threshold, float* scores) {
  const float* a_columns = columns;
  const float* m_columns = columns + capacity;
  const float* c_columns = columns + 2 * capacity;
#if HWY_HAVE_FLOAT64
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> dh;  // half vectors of floats, one per double lane
  const std::size_t n = hn::Lanes(dd);
  const auto vk = hn::Set(dd, k), vt = hn::Set(dd, threshold);
  auto block = [&](const float* row, std::size_t x) {
    auto sum = hn::LoadU(dh, row + x);
    for (int t = 1; t < B; ++t) sum = hn::Add(sum, hn::LoadU(dh, row + x + static_cast<std::size_t>(t)));
    return hn::PromoteTo(dd, sum);
  };
  for (std::size_t x = 0; x < count; x += n) {
    const auto a = block(a_columns, x), m = block(m_columns, x), c = block(c_columns, x);
    const auto trace = hn::Add(a, c);
    const auto mc = hn::Sub(hn::Sub(hn::Mul(a, c), hn::Mul(m, m)), hn::Mul(hn::Mul(vk, trace), trace));
    hn::StoreU(hn::DemoteTo(dh, hn::IfThenElseZero(hn::Gt(mc, vt), mc)), dh, scores + x);
  }
#else
  auto block = [](const float* row, std::size_t x) {
    float sum = row[x];
    for (int t = 1; t < B; ++t) sum += row[x + static_cast<std::size_t>(t)];
    return sum;
  };
  for (std::size_t x = 0; x < count; ++x) {
    scores[x] = detail::harris_score(block(a_columns, x), block(m_columns, x), block(c_columns, x), k, threshold);
  }
#endif
}

/// Step 4: the candidates of row @p y (scores @p mid, between @p up and @p down), appended to @p out.
HWY_INLINE void SuppressRow(const float* up, const float* mid, const float* down, std::uint32_t width, std::uint32_t y, std::uint64_t* out,
                            std::size_t& count) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
  const auto zero = hn::Zero(df);
  const std::size_t end = width - 1;  // candidates are columns 1 .. width - 2
  for (std::size_t x = 1; x < end; x += n) {
    const auto v = hn::LoadU(df, mid + x);
    auto keep = hn::Ne(v, zero);
    if (hn::AllFalse(df, keep)) continue;
    const auto weak = hn::And(hn::And(hn::Ge(v, hn::LoadU(df, up + x - 1)), hn::Ge(v, hn::LoadU(df, up + x))),
                              hn::And(hn::Ge(v, hn::LoadU(df, up + x + 1)), hn::Ge(v, hn::LoadU(df, mid + x - 1))));
    const auto strict = hn::And(hn::And(hn::Gt(v, hn::LoadU(df, mid + x + 1)), hn::Gt(v, hn::LoadU(df, down + x - 1))),
                                hn::And(hn::Gt(v, hn::LoadU(df, down + x)), hn::Gt(v, hn::LoadU(df, down + x + 1))));
    keep = hn::And(hn::And(keep, hn::FirstN(df, end - x)), hn::And(weak, strict));
    if (hn::AllFalse(df, keep)) continue;
    for_each_true_lane(df, keep, [&](std::size_t lane) {
      const std::size_t at = x + lane;
      out[count++] = detail::candidate_key(mid[at], static_cast<std::uint32_t>(y * static_cast<std::size_t>(width) + at));
    });
  }
}

template <int G, int B>
std::size_t Candidates(const detail::HarrisRun& run, const detail::HarrisScratch& s) {
  constexpr int kGradientRadius = G / 2, kBlockRadius = B / 2, kPad = kGradientRadius + kBlockRadius;
  const ConstPlane in = run.in;
  const std::uint32_t width = in.width, height = in.height;
  const std::size_t n = hn::Lanes(DF());
  const std::size_t capacity = s.row_capacity;
  // Scored pixels: whole vectors over the width; gradient columns: whole vectors over what they read.
  const std::size_t scored = (width + n - 1) / n * n;
  const std::size_t gradient_columns = (scored + B - 1 + n - 1) / n * n;
  // The rows' spare room reads as 0 (the vertical pass writes only the pad and the image's columns).
  const std::size_t filled = width + 2 * static_cast<std::size_t>(kPad);
  std::fill(s.smooth + filled, s.smooth + capacity, 0);
  std::fill(s.derivative + filled, s.derivative + capacity, 0);
  for (int row = 0; row < 3; ++row) std::fill(s.scores + row * capacity + scored, s.scores + (row + 1) * capacity, 0.0f);
  const HarrisBorderMode mode = run.border.mode;
  if (mode == HarrisBorderMode::constant) std::memset(s.constant_row, run.border.constant, width);
  // The edge columns: which image column each reads, or the constant's sums.
  const int constant_smooth = run.border.constant << (G - 1);
  auto extend = [&](std::int32_t* row, bool smooth) {
    for (int p = 1; p <= kPad; ++p) {
      const std::int64_t left = detail::border_index(-p, width, mode), right = detail::border_index(width - 1 + p, width, mode);
      const std::int32_t outside = smooth ? constant_smooth : 0;
      row[kPad - p] = left < 0 ? outside : row[kPad + left];
      row[kPad + width - 1 + p] = right < 0 ? outside : row[kPad + right];
    }
  };

  std::size_t count = 0;
  const std::uint32_t gradient_rows = height + 2 * kBlockRadius;
  for (std::uint32_t j = 0; j < gradient_rows; ++j) {
    const std::uint8_t* rows[G];
    for (int t = 0; t < G; ++t) {
      const std::int64_t r = detail::border_index(static_cast<std::int64_t>(j) - kBlockRadius + t - kGradientRadius, height, mode);
      rows[t] = r < 0 ? s.constant_row : in.row(static_cast<std::uint32_t>(r));
    }
    VerticalPass<G>(rows, width, s.smooth + kPad, s.derivative + kPad);
    extend(s.smooth, true);
    extend(s.derivative, false);
    float* slot = s.ring + 3 * (j % B) * capacity;
    HorizontalPass<G>(s.smooth, s.derivative, gradient_columns, run.scale, slot, slot + capacity, slot + 2 * capacity);
    if (j + 1 < static_cast<std::uint32_t>(B)) continue;
    const std::uint32_t y = j + 1 - B;
    ColumnSums<B>(s.ring, capacity, gradient_columns, s.columns);
    ScoreRow<B>(s.columns, capacity, scored, run.k, run.threshold, s.scores + (y % 3) * capacity);
    if (y >= 2) {
      SuppressRow(s.scores + ((y - 2) % 3) * capacity, s.scores + ((y - 1) % 3) * capacity, s.scores + (y % 3) * capacity, width, y - 1,
                  s.candidates, count);
    }
  }
  return count;
}

/// Steps 1 to 4 for gradient size @p g and block size @p b: the candidates, in raster order, as keys.
std::size_t HarrisCandidates(const detail::HarrisRun& run, const detail::HarrisScratch& scratch, int g, int b) {
  switch (g * 10 + b) {
    case 33: return Candidates<3, 3>(run, scratch);
    case 35: return Candidates<3, 5>(run, scratch);
    case 37: return Candidates<3, 7>(run, scratch);
    case 53: return Candidates<5, 3>(run, scratch);
    case 55: return Candidates<5, 5>(run, scratch);
    case 57: return Candidates<5, 7>(run, scratch);
    case 73: return Candidates<7, 3>(run, scratch);
    case 75: return Candidates<7, 5>(run, scratch);
    default: return Candidates<7, 7>(run, scratch);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(HarrisCandidates);

namespace {

constexpr std::uint32_t kNoCorner = 0xFFFFFFFFu;

/// Corners to the sink a batch at a time (one virtual call per batch).
class CornerBatch : public detail::SinkBatch<HarrisCorner, HarrisCornerSink> {
 public:
  using SinkBatch::SinkBatch;
  void add(std::uint32_t x, std::uint32_t y, float strength) noexcept { SinkBatch::add(HarrisCorner{x, y, strength}); }
};

/// Step 5 over the sorted keys (see the file's comment for the grid).
void take_corners(const std::uint64_t* keys, std::size_t count, std::uint32_t width, std::uint32_t height, float min_distance,
                  std::uint32_t* grid, CornerBatch& out) noexcept {
  if (!(min_distance > 2.0f)) {
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t index = detail::key_index(keys[i]);
      out.add(index % width, index / width, detail::key_score(keys[i]));
    }
    return;
  }
  const double r = min_distance;
  const double r2 = r * r;
  const double max_side = std::max(width, height);
  // r > 2 makes the side 2 or more: the grid has at most harris_corners_max_count() cells.
  const auto side = static_cast<std::uint32_t>(std::min(std::ceil(r / std::sqrt(2.0)), max_side));
  const std::uint32_t grid_w = (width + side - 1) / side, grid_h = (height + side - 1) / side;
  // A corner D cells away on an axis is at least (D - 1) * side + 1 pixels away on it.
  const auto reach = static_cast<std::uint32_t>(std::min((r - 1.0) / side + 1.0, max_side));
  std::fill(grid, grid + static_cast<std::size_t>(grid_w) * grid_h, kNoCorner);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t index = detail::key_index(keys[i]);
    const std::uint32_t x = index % width, y = index / width;
    const std::uint32_t cx = x / side, cy = y / side;
    const std::uint32_t x0 = cx > reach ? cx - reach : 0, x1 = std::min(cx + reach, grid_w - 1);
    const std::uint32_t y0 = cy > reach ? cy - reach : 0, y1 = std::min(cy + reach, grid_h - 1);
    bool free = true;
    for (std::uint32_t gy = y0; gy <= y1 && free; ++gy) {
      for (std::uint32_t gx = x0; gx <= x1; ++gx) {
        const std::uint32_t taken = grid[static_cast<std::size_t>(gy) * grid_w + gx];
        if (taken == kNoCorner) continue;
        const double dx = static_cast<double>(taken % width) - x, dy = static_cast<double>(taken / width) - y;
        if (dx * dx + dy * dy < r2) {
          free = false;
          break;
        }
      }
    }
    if (!free) continue;
    grid[static_cast<std::size_t>(cy) * grid_w + cx] = index;
    out.add(x, y, detail::key_score(keys[i]));
  }
}

bool odd_size_allowed(int size) noexcept { return size == 3 || size == 5 || size == 7; }


}  // namespace

std::size_t harris_corners_scratch_size(std::uint32_t width, std::uint32_t height) noexcept {
  detail::HarrisScratch layout;
  return layout.plan(width, height, nullptr) ? layout.total : std::numeric_limits<std::size_t>::max();
}

bool harris_corners(ConstPlane in, const HarrisOptions& options, std::span<std::uint8_t> scratch, HarrisCornerSink& sink,
                    std::size_t& found) noexcept {
  found = 0;
  if (!odd_size_allowed(options.gradient_size) || !odd_size_allowed(options.block_size) || !std::isfinite(options.threshold) ||
      !std::isfinite(options.sensitivity) || !std::isfinite(options.min_distance) || options.min_distance < 0.0f) {
    return false;
  }
  detail::HarrisScratch layout;
  if (!layout.plan(in.width, in.height, nullptr) || scratch.size() < layout.total) return false;
  // The areas from the first aligned byte (plan() counted the room for it).
  const auto address = reinterpret_cast<std::uintptr_t>(scratch.data());
  const std::size_t skip = (detail::kHarrisAlign - address % detail::kHarrisAlign) % detail::kHarrisAlign;
  layout.plan(in.width, in.height, scratch.data() + skip);
  // Candidates need all eight neighbours inside the plane.
  if (in.width < 3 || in.height < 3) return true;
  const int g = options.gradient_size, b = options.block_size;
  const detail::HarrisRun run{in, options.border, static_cast<float>(1.0 / (static_cast<double>(1u << (g - 1)) * 255.0 * b)),
                              static_cast<double>(options.sensitivity), std::max(static_cast<double>(options.threshold), 0.0)};
  const std::size_t count = HWY_DYNAMIC_DISPATCH(HarrisCandidates)(run, layout, g, b);
  std::sort(layout.candidates, layout.candidates + count);
  CornerBatch batch(sink);
  take_corners(layout.candidates, count, in.width, in.height, options.min_distance, layout.grid, batch);
  found = batch.finish();
  return true;
}

bool harris_corners(ConstPlane in, const HarrisOptions& options, std::span<std::uint8_t> scratch, std::span<HarrisCorner> out,
                    std::size_t& found) noexcept {
  detail::SpanSink<HarrisCorner, HarrisCornerSink> sink(out);
  return harris_corners(in, options, scratch, sink, found);
}

}  // namespace vg::vision
#endif
