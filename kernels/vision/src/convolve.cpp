// Convolve (convolve.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// Each output vector adds its window tap by tap, zero coefficients skipped: in 16-bit lanes when no sum can
// leave int16 (255 times the positive coefficients and 255 times the negative ones each in range, and a
// shift of at most 15), which does twice the pixels per instruction; otherwise in 32-bit lanes (at most
// 225 * 255 * 32768 in magnitude: exact). Then it divides truncating toward zero and narrows with saturation.
//
// The frame: a window row above or below the image is the nearest row (replicate) or adds the constant
// times that row's coefficients (constant); the first and last vectors of a row read short padded copies
// of their window rows, so the frame costs a few vectors a row. Images narrower than that go pixel by pixel.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "convolve.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "edge_rows.hpp"
#include "visiongraph/kernels/vision/convolve.hpp"

#ifndef VG_VISION_CONVOLVE_ONCE
#define VG_VISION_CONVOLVE_ONCE
namespace vg::vision::convolve_detail {

constexpr int kMaxSide = 15;

struct Tap {
  std::int32_t coefficient;
  std::int32_t row;     // window row, 0 at the top
  std::int32_t column;  // window column, 0 at the left
};

// The window's non-zero taps and what the definition needs beside them.
struct Window {
  Tap taps[kMaxSide * kMaxSide];
  int count = 0;
  std::int32_t row_sums[kMaxSide] = {};  // each window row's coefficients, summed (for a constant border row)
  int columns = 0, rows = 0;
  unsigned shift = 0;
  bool fits_16_bits = false;
};

inline Window window_of(const std::int16_t* flipped, int columns, int rows, unsigned shift) noexcept {
  Window w;
  w.columns = columns;
  w.rows = rows;
  w.shift = shift;
  std::int64_t positive = 0, negative = 0;
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < columns; ++k) {
      const std::int32_t c = flipped[r * columns + k];
      w.row_sums[r] += c;
      (c > 0 ? positive : negative) += c;
      if (c != 0) w.taps[w.count++] = {c, r, k};
    }
  }
  w.fits_16_bits = 255 * positive <= 32767 && 255 * negative >= -32768 && shift <= 15;
  return w;
}

// sum / 2^shift truncated toward zero, saturated to Out.
template <class Out>
Out divided(std::int64_t sum, unsigned shift) noexcept {
  const std::int64_t q = (sum + (sum < 0 ? (std::int64_t{1} << shift) - 1 : 0)) >> shift;
  constexpr std::int64_t lo = sizeof(Out) == 1 ? 0 : -32768, hi = sizeof(Out) == 1 ? 255 : 32767;
  return static_cast<Out>(std::clamp(q, lo, hi));
}

// One output pixel with the border applied to every read (small images).
template <class Out>
Out border_pixel(ConstPlane in, const Window& w, Border border, std::int64_t x, std::int64_t y) noexcept {
  const std::int64_t width = in.width, height = in.height, rx = w.columns / 2, ry = w.rows / 2;
  std::int64_t sum = 0;
  for (int t = 0; t < w.count; ++t) {
    const Tap& tap = w.taps[t];
    const std::int64_t xx = x - rx + tap.column, yy = y - ry + tap.row;
    std::int64_t v;
    if (border.mode == BorderMode::constant && (xx < 0 || xx >= width || yy < 0 || yy >= height)) {
      v = border.constant;
    } else {
      v = in.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, height - 1)))[std::clamp<std::int64_t>(xx, 0, width - 1)];
    }
    sum += v * tap.coefficient;
  }
  return divided<Out>(sum, w.shift);
}

}  // namespace vg::vision::convolve_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using convolve_detail::Tap;
using convolve_detail::Window;

// Lanes(ds) outputs from the window rows @p source (each row read from column x on), plus @p constant_term.
template <class DS, class Out>
HWY_INLINE void sum_vector(DS ds, const std::uint8_t* const* source, const Tap* taps, int count, std::int32_t constant_term, std::size_t x,
                           unsigned shift, Out* dst) {
  using T = hn::TFromD<DS>;
  const hn::Rebind<std::uint8_t, DS> d8;
  auto sum = hn::Set(ds, static_cast<T>(constant_term));
  for (int t = 0; t < count; ++t) {
    const auto pixels = hn::PromoteTo(ds, hn::LoadU(d8, source[taps[t].row] + x + static_cast<std::size_t>(taps[t].column)));
    sum = hn::Add(sum, hn::Mul(hn::Set(ds, static_cast<T>(taps[t].coefficient)), pixels));
  }
  const int s = static_cast<int>(shift);
  const auto bias = hn::Set(ds, static_cast<T>((std::int64_t{1} << shift) - 1));
  auto quotient = hn::ShiftRightSame(hn::IfThenElse(hn::Lt(sum, hn::Zero(ds)), hn::Add(sum, bias), sum), s);
  if constexpr (sizeof(T) == sizeof(Out)) {
    hn::StoreU(quotient, ds, dst);  // 16-bit sums into S16: in range by construction
  } else {
    const hn::Rebind<Out, DS> dout;
    // Clamped before narrowing int32 to U8: Highway 1.0.3's AVX2 / AVX-512 int32 -> uint8 narrowing mangles
    // values from 32768 to 65535 (it clears their top bit), where it should give 255.
    if constexpr (sizeof(T) == 4 && sizeof(Out) == 1) quotient = hn::Min(hn::Max(quotient, hn::Zero(ds)), hn::Set(ds, 255));
    hn::StoreU(hn::DemoteTo(dout, quotient), dout, dst);
  }
}

template <class DS, class Out>
void convolve_rows(DS ds, ConstPlane in, Pixels out, const Window& w, Border border, std::uint32_t begin, std::uint32_t end) {
  const std::size_t lanes = hn::Lanes(ds);
  const std::size_t width = in.width;
  const std::int64_t height = in.height;
  const std::size_t rx = static_cast<std::size_t>(w.columns / 2);
  const int ry = w.rows / 2;
  const detail::EdgeSpan span = detail::edge_span(width, rx, lanes);
  detail::EdgeRows<HWY_MAX_BYTES + 4 * convolve_detail::kMaxSide, convolve_detail::kMaxSide> edges;
  Tap edge_taps[convolve_detail::kMaxSide * convolve_detail::kMaxSide];
  for (std::uint32_t y = begin; y < end; ++y) {
    Out* dst = out.row<Out>(y);
    if (!span.vectors) {
      for (std::size_t x = 0; x < width; ++x) {
        dst[x] = convolve_detail::border_pixel<Out>(in, w, border, static_cast<std::int64_t>(x), y);
      }
      continue;
    }
    // The window's rows: under a constant border a row outside the image leaves the taps and adds its
    // constant term instead; otherwise it is the nearest row.
    const std::uint8_t* source[convolve_detail::kMaxSide];
    const Tap* taps = w.taps;
    int count = w.count;
    std::int32_t constant_term = 0;
    const bool outside = static_cast<std::int64_t>(y) < ry || static_cast<std::int64_t>(y) + ry >= height;
    for (int r = 0; r < w.rows; ++r) {
      const std::int64_t yy = static_cast<std::int64_t>(y) - ry + r;
      source[r] = in.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, height - 1)));
    }
    if (outside && border.mode == BorderMode::constant) {
      count = 0;
      for (int t = 0; t < w.count; ++t) {
        const std::int64_t yy = static_cast<std::int64_t>(y) - ry + w.taps[t].row;
        if (yy >= 0 && yy < height) edge_taps[count++] = w.taps[t];
      }
      for (int r = 0; r < w.rows; ++r) {
        const std::int64_t yy = static_cast<std::int64_t>(y) - ry + r;
        if (yy < 0 || yy >= height) constant_term += std::int32_t{border.constant} * w.row_sums[r];
      }
      taps = edge_taps;
    }
    if (rx > 0) {
      edges.fill(source, w.rows, width, rx, span, border);
      for (std::size_t x = 0; x < span.left; x += lanes) sum_vector(ds, edges.left_rows, taps, count, constant_term, x, w.shift, dst + x);
      for (std::size_t x = 0; x < span.right; x += lanes) {
        sum_vector(ds, edges.right_rows, taps, count, constant_term, x, w.shift, dst + width - span.right + x);
      }
    }
    // The middle [left, width - right), the last vector moved back to end there (rewriting a few pixels).
    const std::size_t middle_end = width - span.right;
    for (std::size_t x = span.left; x < middle_end; x += lanes) {
      const std::size_t at = std::min(x, middle_end - lanes);
      sum_vector(ds, source, taps, count, constant_term, at - rx, w.shift, dst + at);
    }
  }
}

void ConvolveRows(ConstPlane in, Pixels out, const Window& w, Border border, std::uint32_t begin, std::uint32_t end) {
  if (w.fits_16_bits) {
    const hn::ScalableTag<std::int16_t> d16;
    if (out.type == PixelType::u8) return convolve_rows<decltype(d16), std::uint8_t>(d16, in, out, w, border, begin, end);
    return convolve_rows<decltype(d16), std::int16_t>(d16, in, out, w, border, begin, end);
  }
  const hn::ScalableTag<std::int32_t> d32;
  if (out.type == PixelType::u8) return convolve_rows<decltype(d32), std::uint8_t>(d32, in, out, w, border, begin, end);
  return convolve_rows<decltype(d32), std::int16_t>(d32, in, out, w, border, begin, end);
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ConvolveRows);

bool convolve(ConstPlane in, Pixels out, const std::int16_t* flipped, int columns, int rows, unsigned shift, Border border, Rows band) noexcept {
  if (columns < 1 || rows < 1 || columns > convolve_detail::kMaxSide || rows > convolve_detail::kMaxSide || columns % 2 == 0 ||
      rows % 2 == 0 || shift > 31 || in.width != out.width || in.height != out.height) {
    return false;
  }
  const std::uint32_t end = std::min(band.end, in.height);
  if (in.width == 0 || band.begin >= end) return true;
  const convolve_detail::Window window = convolve_detail::window_of(flipped, columns, rows, shift);
  HWY_DYNAMIC_DISPATCH(ConvolveRows)(in, out, window, border, band.begin, end);
  return true;
}

}  // namespace vg::vision
#endif
