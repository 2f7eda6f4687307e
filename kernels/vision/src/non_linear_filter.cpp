// NonLinearFilter (non_linear_filter.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// Each output vector reads its mask's selected taps, one shifted load per tap:
//   - min / max fold the taps with vector Min / Max;
//   - median selects per lane, bit by bit from the top: the median m (index n / 2 of the sorted taps) is the
//     largest value with at most n / 2 taps below it, so each of the 8 steps counts the taps below a
//     candidate (m with the next bit set) in byte lanes (at most 225 taps: no overflow) and keeps the bit
//     where the count allows. That costs 8 passes over the taps but works for any mask, where a sorting
//     network would be fixed to one tap count.
// A full 3x3 mask is Median3x3 / Erode3x3 / Dilate3x3: filter3x3's dedicated network runs it. The median of
// 25 taps (the 5x5 box) takes a fixed forgetful-selection network (ForgetfulMedian) on targets with sized
// vectors. Min and max of a separable mask (a box, a row, a column: every selected row selects the same
// columns) go down the rows and then along the columns (separable_row).
//
// The frame: under a replicate border a window row above or below the image is the nearest row; under a
// constant border its taps leave the list and count as that many constant values. The first and last
// vectors of a row read short padded copies of their window rows, so the frame costs a few vectors a row.
// Images narrower than that go pixel by pixel (non_linear_value). Nothing is allocated.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "non_linear_filter.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <utility>
#include <cstddef>
#include <cstdint>

#include "edge_rows.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/non_linear_filter.hpp"

#ifndef VG_VISION_NON_LINEAR_FILTER_ONCE
#define VG_VISION_NON_LINEAR_FILTER_ONCE
namespace vg::vision::non_linear_detail {

constexpr int kMaxTaps = kMaxNonLinearSide * kMaxNonLinearSide;

struct Tap {
  std::int32_t row;     // window row, 0 at the top
  std::int32_t column;  // window column, 0 at the left
};

struct Mask {
  Tap taps[kMaxTaps];
  int count = 0;
  int columns = 0, rows = 0;
  const std::uint8_t* bytes = nullptr;
  // A mask whose selected rows all select the same columns (a box, say) is that row set times that column
  // set: min and max then go down the rows once and along the columns once.
  bool separable = false;
  int row_set[kMaxNonLinearSide] = {}, row_count = 0;
  int column_set[kMaxNonLinearSide] = {}, column_count = 0;
};

inline void find_separable(Mask& m) noexcept {
  int first = -1;
  m.separable = true;
  for (int r = 0; r < m.rows; ++r) {
    bool any = false;
    for (int c = 0; c < m.columns; ++c) any = any || m.bytes[r * m.columns + c] != 0;
    if (!any) continue;
    m.row_set[m.row_count++] = r;
    if (first < 0) {
      first = r;
      for (int c = 0; c < m.columns; ++c)
        if (m.bytes[r * m.columns + c] != 0) m.column_set[m.column_count++] = c;
      continue;
    }
    for (int c = 0; c < m.columns; ++c) m.separable = m.separable && ((m.bytes[r * m.columns + c] != 0) == (m.bytes[first * m.columns + c] != 0));
  }
}

// The median of exactly kN values by forgetful selection, as a fixed list of compare-exchanges (computed
// here at compile time): keep a set of kSet values (enough that neither the median nor a value it must be
// compared with can be dropped), move the set's minimum and maximum out of it, which cannot be the median,
// add the next value, and again, until one value is left. 25 values (the 5x5 box) take 168 compare-exchanges,
// where the bitwise selection takes 8 passes over the 25.
template <int kN>
struct ForgetfulMedian {
  static constexpr int kRank = kN / 2;  // the upper median for an even count, as the definition's index n / 2
  static constexpr int kSet = std::max(kRank + 2, kN - kRank + 1) < kN ? std::max(kRank + 2, kN - kRank + 1) : kN;
  struct Step {
    int low, high;  // after the step the smaller value is in slot low, the larger in slot high
  };
  static constexpr int kMaxSteps = kN * kN * 2;
  struct Network {
    Step steps[kMaxSteps] = {};
    int count = 0;
    int result = 0;  // the slot the median ends in
  };
  static constexpr Network make() {
    Network net;
    int set[kN] = {}, size = 0, next = 0;
    for (; next < kSet; ++next) set[size++] = next;  // slot i holds value i
    int dropped_low = 0, dropped_high = 0;
    while (size > 1) {
      const int unseen = kN - next;
      // Dropping the set's minimum is safe while fewer than kRank values are known to be below it; its
      // maximum likewise from above.
      const bool drop_low = dropped_low + unseen < kRank, drop_high = dropped_high + unseen < kN - 1 - kRank;
      if (drop_low) {
        for (int i = 1; i < size; ++i) net.steps[net.count++] = {set[0], set[i]};
        for (int i = 0; i + 1 < size; ++i) set[i] = set[i + 1];
        --size;
        ++dropped_low;
      }
      if (drop_high && size > 1) {
        for (int i = 0; i + 1 < size; ++i) net.steps[net.count++] = {set[i], set[size - 1]};
        --size;
        ++dropped_high;
      }
      if (next < kN) set[size++] = next++;
      else if (!drop_low && !drop_high) break;  // cannot happen: the median is what is left
    }
    net.result = set[0];
    return net;
  }
  static constexpr Network kNetwork = make();
};

}  // namespace vg::vision::non_linear_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using non_linear_detail::Mask;
using non_linear_detail::Tap;

// a <= b in unsigned byte lanes.
template <class D, class V>
HWY_INLINE auto AtMost(D, V a, V b) {
  return hn::Eq(hn::Min(a, b), a);
}

// What a row's taps outside the image (constant border) add: @p outside taps of value @p constant.
struct Outside {
  int count = 0;
  std::uint8_t constant = 0;
};

#if !HWY_HAVE_SCALABLE
// The median of 25 taps (a full 5x5 mask, or any 25 of a larger one), lane by lane: the taps in registers (an array of vectors,
// which scalable targets cannot have: they take the bitwise selection), then the forgetful network.
template <class D, std::size_t... I>
HWY_INLINE hn::Vec<D> median_of_25(D d, const std::uint8_t* const* source, const Tap* taps, std::size_t x, std::index_sequence<I...>) {
  using Net = non_linear_detail::ForgetfulMedian<25>;
  hn::Vec<D> v[25] = {hn::LoadU(d, source[taps[I].row] + x + static_cast<std::size_t>(taps[I].column))...};
  auto exchange = [&](int low, int high) {
    const auto a = v[low], b = v[high];
    v[low] = hn::Min(a, b);
    v[high] = hn::Max(a, b);
  };
  [&]<std::size_t... S>(std::index_sequence<S...>) {
    (exchange(Net::kNetwork.steps[S].low, Net::kNetwork.steps[S].high), ...);
  }(std::make_index_sequence<Net::kNetwork.count>());
  return v[Net::kNetwork.result];
}
#endif

// Lanes(d) outputs from the window rows @p source (each row read from column x on).
template <NonLinearFunction F, class D>
HWY_INLINE void filter_vector(D d, const std::uint8_t* const* source, const Tap* taps, int count, Outside outside, std::uint8_t half,
                              std::size_t x, std::uint8_t* dst) {
  const auto load = [&](int t) { return hn::LoadU(d, source[taps[t].row] + x + static_cast<std::size_t>(taps[t].column)); };
  if constexpr (F == NonLinearFunction::min || F == NonLinearFunction::max) {
    constexpr bool is_min = F == NonLinearFunction::min;
    auto acc = hn::Set(d, static_cast<std::uint8_t>(outside.count > 0 ? outside.constant : is_min ? 255 : 0));
    for (int t = 0; t < count; ++t) acc = is_min ? hn::Min(acc, load(t)) : hn::Max(acc, load(t));
    hn::StoreU(acc, d, dst);
  } else {
#if !HWY_HAVE_SCALABLE
    if (count == 25 && outside.count == 0) {
      hn::StoreU(median_of_25(d, source, taps, x, std::make_index_sequence<25>()), d, dst);
      return;
    }
#endif
    const auto limit = hn::Set(d, half);
    const auto constant = hn::Set(d, outside.constant);
    const auto constant_count = hn::Set(d, static_cast<std::uint8_t>(outside.count));
    auto median = hn::Zero(d);
    for (unsigned bit = 128; bit != 0; bit >>= 1) {
      const auto candidate = hn::Or(median, hn::Set(d, static_cast<std::uint8_t>(bit)));
      const auto below = hn::Sub(candidate, hn::Set(d, std::uint8_t{1}));  // a tap under the candidate is at most this
      auto under = hn::IfThenElseZero(AtMost(d, constant, below), constant_count);
      // The mask is all ones where the tap is under: subtracting it counts.
      for (int t = 0; t < count; ++t) under = hn::Sub(under, hn::VecFromMask(d, AtMost(d, load(t), below)));
      median = hn::IfThenElse(AtMost(d, under, limit), candidate, median);
    }
    hn::StoreU(median, d, dst);
  }
}

// Min or max of a separable mask over a whole output row (at least a vector wide): down the selected rows
// for each input column a chunk needs, into a buffer whose columns outside the image take the border (the
// nearest column's value, or the constant), then along the selected columns of the buffer. Two loads per
// selected row and column instead of one per tap, and the frame needs no padded copies.
template <NonLinearFunction F, class D>
void separable_row(D d, const std::uint8_t* const* source, const int* rows, int row_count, const Mask& mask, Outside outside, Border border,
                   std::size_t rx, std::size_t width, std::uint8_t* dst) {
  constexpr bool is_min = F == NonLinearFunction::min;
  constexpr std::size_t kChunk = 512;
  const std::size_t lanes = hn::Lanes(d);
  alignas(64) std::uint8_t down[kChunk + 2 * kMaxNonLinearSide];
  const auto initial = hn::Set(d, static_cast<std::uint8_t>(outside.count > 0 ? outside.constant : is_min ? 255 : 0));
  auto fold = [](auto a, auto b) { return is_min ? hn::Min(a, b) : hn::Max(a, b); };
  for (std::size_t start = 0; start < width; start += kChunk) {
    std::size_t n = std::min(kChunk, width - start);
    if (n < lanes) {  // the last piece: moved back to a whole vector
      start = width - lanes;
      n = lanes;
    }
    // down[j] is input column start - rx + j; the columns inside the image are [inside_begin, inside_end).
    const std::size_t inside_begin = start >= rx ? 0 : rx - start;
    const std::size_t inside_end = std::min(n + 2 * rx, width + rx - start);
    const std::size_t m = inside_end - inside_begin;  // at least a vector: n columns are inside
    const std::uint8_t* from[kMaxNonLinearSide];  // each selected row at the chunk's first column
    for (int r = 0; r < row_count; ++r) from[r] = source[rows[r]] + start - rx;
    for (std::size_t j = 0;; j += lanes) {
      const std::size_t at = inside_begin + std::min(j, m - lanes);
      auto acc = fold(initial, hn::LoadU(d, from[0] + at));
      for (int r = 1; r < row_count; ++r) acc = fold(acc, hn::LoadU(d, from[r] + at));
      hn::StoreU(acc, d, down + at);
      if (at + lanes >= inside_end) break;
    }
    const bool constant = border.mode == BorderMode::constant;
    for (std::size_t j = 0; j < inside_begin; ++j) down[j] = constant ? border.constant : down[inside_begin];
    for (std::size_t j = inside_end; j < n + 2 * rx; ++j) down[j] = constant ? border.constant : down[inside_end - 1];
    for (std::size_t i = 0;; i += lanes) {
      const std::size_t at = std::min(i, n - lanes);
      auto acc = hn::LoadU(d, down + at + static_cast<std::size_t>(mask.column_set[0]));
      for (int c = 1; c < mask.column_count; ++c) acc = fold(acc, hn::LoadU(d, down + at + static_cast<std::size_t>(mask.column_set[c])));
      hn::StoreU(acc, d, dst + start + at);
      if (at + lanes >= n) break;
    }
  }
}

template <NonLinearFunction F>
void filter_rows(ConstPlane in, Plane out, const Mask& mask, Border border, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t width = in.width;
  const std::int64_t height = in.height;
  const std::size_t rx = static_cast<std::size_t>(mask.columns / 2);
  const int ry = mask.rows / 2;
  const auto half = static_cast<std::uint8_t>(mask.count / 2);
  const detail::EdgeSpan span = detail::edge_span(width, rx, lanes);
  detail::EdgeRows<HWY_MAX_BYTES + 3 * kMaxNonLinearSide, kMaxNonLinearSide> edges;
  Tap inside_taps[non_linear_detail::kMaxTaps];
  for (std::uint32_t y = begin; y < end; ++y) {
    std::uint8_t* dst = out.row(y);
    if (!span.vectors) {
      const auto read = [&](int yy, int xx) -> std::uint8_t {
        if (border.mode == BorderMode::constant && (xx < 0 || yy < 0 || xx >= static_cast<int>(width) || yy >= height)) return border.constant;
        return in.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, height - 1)))[std::clamp<std::int64_t>(xx, 0, static_cast<std::int64_t>(width) - 1)];
      };
      for (std::size_t x = 0; x < width; ++x) {
        dst[x] = non_linear_value(read, F, mask.bytes, mask.columns, mask.rows, static_cast<int>(x), static_cast<int>(y));
      }
      continue;
    }
    const std::uint8_t* source[kMaxNonLinearSide];
    for (int r = 0; r < mask.rows; ++r) {
      const std::int64_t yy = static_cast<std::int64_t>(y) - ry + r;
      source[r] = in.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, height - 1)));
    }
    const Tap* taps = mask.taps;
    int count = mask.count;
    Outside outside;
    if (border.mode == BorderMode::constant && (static_cast<std::int64_t>(y) < ry || static_cast<std::int64_t>(y) + ry >= height)) {
      count = 0;
      for (int t = 0; t < mask.count; ++t) {
        const std::int64_t yy = static_cast<std::int64_t>(y) - ry + mask.taps[t].row;
        if (yy >= 0 && yy < height) inside_taps[count++] = mask.taps[t];
      }
      outside = {mask.count - count, border.constant};
      taps = inside_taps;
    }
    if constexpr (F != NonLinearFunction::median) {
      if (mask.separable && width >= lanes) {
        int rows_inside[kMaxNonLinearSide], row_count = 0;  // the selected rows the taps still read
        for (int r = 0; r < mask.row_count; ++r) {
          const std::int64_t yy = static_cast<std::int64_t>(y) - ry + mask.row_set[r];
          if (border.mode != BorderMode::constant || (yy >= 0 && yy < height)) rows_inside[row_count++] = mask.row_set[r];
        }
        if (row_count > 0) {
          separable_row<F>(d, source, rows_inside, row_count, mask, outside, border, rx, width, dst);
          continue;
        }
      }
    }
    if (rx > 0) {
      edges.fill(source, mask.rows, width, rx, span, border);
      for (std::size_t x = 0; x < span.left; x += lanes) filter_vector<F>(d, edges.left_rows, taps, count, outside, half, x, dst + x);
      for (std::size_t x = 0; x < span.right; x += lanes) {
        filter_vector<F>(d, edges.right_rows, taps, count, outside, half, x, dst + width - span.right + x);
      }
    }
    // The middle [left, width - right), the last vector moved back to end there (rewriting a few pixels).
    const std::size_t middle_end = width - span.right;
    for (std::size_t x = span.left; x < middle_end; x += lanes) {
      const std::size_t at = std::min(x, middle_end - lanes);
      filter_vector<F>(d, source, taps, count, outside, half, at - rx, dst + at);
    }
  }
}

void NonLinearRows(NonLinearFunction function, ConstPlane in, Plane out, const Mask& mask, Border border, std::uint32_t begin,
                   std::uint32_t end) {
  switch (function) {
    case NonLinearFunction::median: return filter_rows<NonLinearFunction::median>(in, out, mask, border, begin, end);
    case NonLinearFunction::min: return filter_rows<NonLinearFunction::min>(in, out, mask, border, begin, end);
    case NonLinearFunction::max: return filter_rows<NonLinearFunction::max>(in, out, mask, border, begin, end);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(NonLinearRows);

bool non_linear_filter(NonLinearFunction function, ConstPlane in, Plane out, const std::uint8_t* mask, int columns, int rows,
                       Border border, Rows band) noexcept {
  if (columns < 1 || rows < 1 || columns > kMaxNonLinearSide || rows > kMaxNonLinearSide || columns % 2 == 0 || rows % 2 == 0 ||
      in.width != out.width || in.height != out.height) {
    return false;
  }
  non_linear_detail::Mask m;
  m.columns = columns;
  m.rows = rows;
  m.bytes = mask;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (mask[r * columns + c] != 0) m.taps[m.count++] = {r, c};
    }
  }
  if (m.count == 0) return false;
  non_linear_detail::find_separable(m);
  const std::uint32_t end = std::min(band.end, in.height);
  if (in.width == 0 || band.begin >= end) return true;
  if (columns == 3 && rows == 3 && m.count == 9) {
    const Filter3x3 same = function == NonLinearFunction::median ? Filter3x3::median
                           : function == NonLinearFunction::min  ? Filter3x3::erode
                                                                 : Filter3x3::dilate;
    filter3x3(same, in, out, border, {band.begin, end});
    return true;
  }
  HWY_DYNAMIC_DISPATCH(NonLinearRows)(function, in, out, m, border, band.begin, end);
  return true;
}

bool parse_non_linear_function(std::string_view text, NonLinearFunction& function) noexcept {
  for (NonLinearFunction f : {NonLinearFunction::median, NonLinearFunction::min, NonLinearFunction::max}) {
    if (text == to_string(f)) {
      function = f;
      return true;
    }
  }
  return false;
}

std::string_view to_string(NonLinearFunction function) noexcept {
  switch (function) {
    case NonLinearFunction::median: return "median";
    case NonLinearFunction::min: return "min";
    case NonLinearFunction::max: return "max";
  }
  return "?";
}

}  // namespace vg::vision
#endif
