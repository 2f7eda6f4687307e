// The 3x3 filters (filter3x3.hpp). Highway compiles this file once per instruction set (foreach_target.h
// includes it again for each); HWY_DYNAMIC_DISPATCH picks the best one the CPU has on the first call.
//
// Rows whose window lies inside the image, or that a replicate border makes valid by clamping the row
// index, run the vector loop over columns 1 .. width-2; the first and last column, and under a constant
// border the first and last row, gather their window one pixel at a time (scalar_pixel). Nothing is
// allocated.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filter3x3.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "filter3x3_scalar.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class V>
HWY_INLINE void order(V& a, V& b) {
  const V lo = hn::Min(a, b);
  b = hn::Max(a, b);
  a = lo;
}

/// The three rows of a window and the output row; x reads columns x-1, x, x+1.
struct RowSet {
  const std::uint8_t* top;
  const std::uint8_t* mid;
  const std::uint8_t* bottom;
  std::uint8_t* out;
};

// Byte-wide operations (median, erode, dilate): one u8 vector per window position.
template <Filter3x3 F>
HWY_INLINE void byte_block(const RowSet& r, std::size_t x) {
  const hn::ScalableTag<std::uint8_t> d;
  auto a0 = hn::LoadU(d, r.top + x - 1), a1 = hn::LoadU(d, r.top + x), a2 = hn::LoadU(d, r.top + x + 1);
  auto b0 = hn::LoadU(d, r.mid + x - 1), b1 = hn::LoadU(d, r.mid + x), b2 = hn::LoadU(d, r.mid + x + 1);
  auto c0 = hn::LoadU(d, r.bottom + x - 1), c1 = hn::LoadU(d, r.bottom + x), c2 = hn::LoadU(d, r.bottom + x + 1);
  if constexpr (F == Filter3x3::erode) {
    const auto m = hn::Min(hn::Min(hn::Min(a0, a1), hn::Min(a2, b0)), hn::Min(hn::Min(b1, b2), hn::Min(hn::Min(c0, c1), c2)));
    hn::StoreU(m, d, r.out + x);
  } else if constexpr (F == Filter3x3::dilate) {
    const auto m = hn::Max(hn::Max(hn::Max(a0, a1), hn::Max(a2, b0)), hn::Max(hn::Max(b1, b2), hn::Max(hn::Max(c0, c1), c2)));
    hn::StoreU(m, d, r.out + x);
  } else {
    // The same 19-exchange network as the scalar form: p0..p8 are the window in row order.
    auto &p0 = a0, &p1 = a1, &p2 = a2, &p3 = b0, &p4 = b1, &p5 = b2, &p6 = c0, &p7 = c1, &p8 = c2;
    order(p1, p2), order(p4, p5), order(p7, p8);
    order(p0, p1), order(p3, p4), order(p6, p7);
    order(p1, p2), order(p4, p5), order(p7, p8);
    order(p0, p3), order(p5, p8), order(p4, p7);
    order(p3, p6), order(p1, p4), order(p2, p5);
    order(p4, p7), order(p4, p2), order(p6, p4);
    order(p4, p2);
    hn::StoreU(p4, d, r.out + x);
  }
}

// Sums (box, gaussian): 16-bit lanes, each loaded from half as many bytes. Signed lanes, because Highway
// narrows i16 to u8 with saturation (the sums here never exceed 4080, so the sign bit stays clear).
template <Filter3x3 F>
HWY_INLINE void sum_block(const RowSet& r, std::size_t x) {
  const hn::ScalableTag<std::int16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  auto at = [&](const std::uint8_t* row, std::ptrdiff_t dx) { return hn::PromoteTo(d16, hn::LoadU(d8, row + x + dx)); };
  if constexpr (F == Filter3x3::box) {
    const auto sum = hn::Add(hn::Add(hn::Add(at(r.top, -1), at(r.top, 0)), hn::Add(at(r.top, 1), at(r.mid, -1))),
                             hn::Add(hn::Add(at(r.mid, 0), at(r.mid, 1)),
                                     hn::Add(hn::Add(at(r.bottom, -1), at(r.bottom, 0)), at(r.bottom, 1))));
    // floor(sum / 9) for sum <= 2295 is (sum * 7282) >> 16 (7282 = ceil(2^16 / 9); the error stays under
    // 1/9, checked for every sum by the tests).
    hn::StoreU(hn::DemoteTo(d8, hn::MulHigh(sum, hn::Set(d16, 7282))), d8, r.out + x);
  } else {
    // Column sums top + 2 * mid + bottom at x-1, x, x+1, then left + 2 * centre + right.
    auto column = [&](std::ptrdiff_t dx) { return hn::Add(hn::Add(at(r.top, dx), at(r.bottom, dx)), hn::ShiftLeft<1>(at(r.mid, dx))); };
    const auto sum = hn::Add(hn::Add(column(-1), column(1)), hn::ShiftLeft<1>(column(0)));
    hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<4>(sum)), d8, r.out + x);
  }
}

/// Output columns [1, width-1) of one row. The last block is placed to end at width-1 (it overlaps the
/// previous one: recomputing a few pixels is cheaper than a scalar tail). Rows narrower than one block
/// run the scalar form.
template <Filter3x3 F>
HWY_INLINE void interior_row(const RowSet& r, std::size_t width) {
  constexpr bool kBytes = F == Filter3x3::median || F == Filter3x3::erode || F == Filter3x3::dilate;
  const std::size_t lanes = kBytes ? hn::Lanes(hn::ScalableTag<std::uint8_t>()) : hn::Lanes(hn::ScalableTag<std::int16_t>());
  const std::size_t end = width - 1;  // exclusive
  if (end - 1 < lanes) {
    for (std::size_t x = 1; x < end; ++x) r.out[x] = scalar::apply(F, scalar::window_at(r.top, r.mid, r.bottom, x));
    return;
  }
  for (std::size_t x = 1;; x += lanes) {
    if (x + lanes > end) x = end - lanes;
    if constexpr (kBytes) {
      byte_block<F>(r, x);
    } else {
      sum_block<F>(r, x);
    }
    if (x + lanes == end) break;
  }
}

template <Filter3x3 F>
void filter_rows(ConstPlane in, Plane out, Border border, std::uint32_t begin, std::uint32_t end) {
  const std::uint32_t w = in.width, h = in.height;
  for (std::uint32_t y = begin; y < end; ++y) {
    const bool edge_row = y == 0 || y + 1 == h;
    if (w < 3 || (edge_row && border.mode == BorderMode::constant)) {
      for (std::uint32_t x = 0; x < w; ++x) out.row(y)[x] = scalar::apply(F, scalar::window(in, border, x, y));
      continue;
    }
    // Rows inside, or clamped under a replicate border.
    const RowSet rows{in.row(y == 0 ? 0 : y - 1), in.row(y), in.row(y + 1 == h ? y : y + 1), out.row(y)};
    interior_row<F>(rows, w);
    out.row(y)[0] = scalar::apply(F, scalar::window(in, border, 0, y));
    out.row(y)[w - 1] = scalar::apply(F, scalar::window(in, border, w - 1, y));
  }
}

void Filter3x3Rows(Filter3x3 filter, ConstPlane in, Plane out, Border border, std::uint32_t begin, std::uint32_t end) {
  switch (filter) {
    case Filter3x3::gaussian: return filter_rows<Filter3x3::gaussian>(in, out, border, begin, end);
    case Filter3x3::box: return filter_rows<Filter3x3::box>(in, out, border, begin, end);
    case Filter3x3::median: return filter_rows<Filter3x3::median>(in, out, border, begin, end);
    case Filter3x3::erode: return filter_rows<Filter3x3::erode>(in, out, border, begin, end);
    case Filter3x3::dilate: return filter_rows<Filter3x3::dilate>(in, out, border, begin, end);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(Filter3x3Rows);

void filter3x3(Filter3x3 filter, ConstPlane in, Plane out, Border border, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (in.width == 0 || in.height == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(Filter3x3Rows)(filter, in, out, border, rows.begin, end);
}

bool parse_filter3x3(std::string_view text, Filter3x3& filter) noexcept {
  for (Filter3x3 f : {Filter3x3::gaussian, Filter3x3::box, Filter3x3::median, Filter3x3::erode, Filter3x3::dilate}) {
    if (text == to_string(f)) {
      filter = f;
      return true;
    }
  }
  return false;
}

std::string_view to_string(Filter3x3 filter) noexcept {
  switch (filter) {
    case Filter3x3::gaussian: return "gaussian";
    case Filter3x3::box: return "box";
    case Filter3x3::median: return "median";
    case Filter3x3::erode: return "erode";
    case Filter3x3::dilate: return "dilate";
  }
  return "?";
}

bool parse_border_mode(std::string_view text, BorderMode& mode) noexcept {
  if (text == "replicate" || text == "undefined") {
    mode = BorderMode::replicate;
  } else if (text == "constant") {
    mode = BorderMode::constant;
  } else {
    return false;
  }
  return true;
}

}  // namespace vg::vision
#endif
