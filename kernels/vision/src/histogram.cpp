// The histogram of a U8 plane (histogram.hpp) and the 256-entry table lookup (lookup.hpp). The lookup is
// compiled once per Highway target as filter3x3.cpp is; the counting is scalar on every CPU (a vector
// histogram needs scatter-increments with conflict detection, which costs more than it saves here).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "histogram.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/lookup.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// 16 table lookups within 16-byte blocks, one per high nibble, each kept where the pixel's high nibble
// selects its table: three operations per table for a whole vector of pixels, against a load and a store
// per pixel for the scalar loop.
void LookupRows(ConstPlane in, Plane out, const std::uint8_t* table) {
  const std::size_t width = std::min(in.width, out.width);
  const std::uint32_t height = std::min(in.height, out.height);
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
#if HWY_HAVE_SCALABLE
  // SVE vectors are sizeless and cannot be array elements: the 16-byte tables are loaded where used.
  const auto table_of = [&](int i) { return hn::LoadDup128(d, table + 16 * i); };
  const auto selector_of = [&](int i) { return hn::Set(d, static_cast<std::uint8_t>(i)); };
#else
  using V = hn::Vec<decltype(d)>;
  V tables[16];
  V selectors[16];
  for (int i = 0; i < 16; ++i) {
    tables[i] = hn::LoadDup128(d, table + 16 * i);
    selectors[i] = hn::Set(d, static_cast<std::uint8_t>(i));
  }
  const auto table_of = [&](int i) { return tables[i]; };
  const auto selector_of = [&](int i) { return selectors[i]; };
#endif
  const auto low_nibble = hn::Set(d, std::uint8_t{0x0F});
#endif
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* dst = out.row(y);
    std::size_t x = 0;
#if HWY_TARGET != HWY_SCALAR
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::LoadU(d, src + x);
      const auto low = hn::And(v, low_nibble), high = hn::ShiftRight<4>(v);
      auto r = hn::TableLookupBytes(table_of(0), low);
      for (int i = 1; i < 16; ++i) r = hn::IfThenElse(hn::Eq(high, selector_of(i)), hn::TableLookupBytes(table_of(i), low), r);
      hn::StoreU(r, d, dst + x);
    }
#endif
    for (; x < width; ++x) dst[x] = table[src[x]];
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(LookupRows);

void lookup(ConstPlane in, Plane out, const std::uint8_t (&table)[256]) noexcept {
  if (std::min(in.width, out.width) == 0 || std::min(in.height, out.height) == 0) return;
  HWY_DYNAMIC_DISPATCH(LookupRows)(in, out, table);
}

// Eight sub-histograms, pixel i of a row into sub-histogram i % 8, summed at the end: with one histogram,
// neighbouring pixels of one value increment one counter back to back, and each increment waits for the
// previous store to reach its load (a flat image is the worst case: 6.3 times slower than random pixels
// with one histogram, 1.9 with four, 1.4 with eight). Byte loads measured faster than shifting bytes out
// of a 64-bit word. 32-bit counters keep the eight in 8 KiB of stack; they are moved to the 64-bit totals
// before any could wrap.
void value_counts(ConstPlane in, std::uint64_t (&counts)[256]) noexcept {
  std::fill(std::begin(counts), std::end(counts), std::uint64_t{0});
  if (in.width == 0 || in.height == 0) return;
  std::uint32_t sub[8][256] = {};
  const auto flush = [&] {
    for (int v = 0; v < 256; ++v) {
      for (auto& h : sub) {
        counts[v] += h[v];
        h[v] = 0;
      }
    }
  };
  const std::size_t width = in.width;
  std::uint64_t pending = 0;  // pixels counted since the last flush: a bound on every counter
  for (std::uint32_t y = 0; y < in.height; ++y) {
    if (pending + width > UINT32_MAX) {
      flush();
      pending = 0;
    }
    pending += width;
    const std::uint8_t* row = in.row(y);
    std::size_t x = 0;
    for (; x + 8 <= width; x += 8) {
      ++sub[0][row[x]];
      ++sub[1][row[x + 1]];
      ++sub[2][row[x + 2]];
      ++sub[3][row[x + 3]];
      ++sub[4][row[x + 4]];
      ++sub[5][row[x + 5]];
      ++sub[6][row[x + 6]];
      ++sub[7][row[x + 7]];
    }
    for (; x < width; ++x) ++sub[x % 8][row[x]];
  }
  flush();
}

void equalization_table(const std::uint64_t (&counts)[256], std::uint8_t (&table)[256]) noexcept {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += c;
  int first = 0;
  while (first < 255 && counts[first] == 0) ++first;
  const std::uint64_t cdf_min = counts[first];
  const std::uint64_t scale = total - cdf_min;
  std::uint64_t cdf = 0;
  for (int v = 0; v < 256; ++v) {
    cdf += counts[v];
    if (scale == 0) {
      table[v] = static_cast<std::uint8_t>(v);
    } else if (v < first) {
      table[v] = 0;
    } else {
      const std::uint64_t value = ((cdf - cdf_min) * 255 + scale / 2) / scale;
      table[v] = static_cast<std::uint8_t>(value > 255 ? 255 : value);
    }
  }
}

bool bin_counts(const std::uint64_t (&counts)[256], std::int64_t offset, std::uint32_t range, std::size_t bin_count,
                std::uint32_t* bins) noexcept {
  if (bin_count == 0 || range == 0) return false;
  std::fill(bins, bins + bin_count, std::uint32_t{0});
  const std::int64_t low = offset, high = offset + static_cast<std::int64_t>(range);  // [low, high)
  for (std::int64_t v = std::max<std::int64_t>(low, 0); v < std::min<std::int64_t>(high, 256); ++v) {
    // (v - low) < 256: the product fits 64 bits for any bin count a distribution can have.
    const std::uint64_t bin = static_cast<std::uint64_t>(v - low) * bin_count / range;
    if (bin < bin_count) bins[bin] += static_cast<std::uint32_t>(counts[v]);  // wraps modulo 2^32, as 32-bit counters
  }
  return true;
}

void equalize_histogram(ConstPlane in, Plane out) noexcept {
  std::uint64_t counts[256];
  value_counts(in, counts);
  std::uint8_t table[256];
  equalization_table(counts, table);
  lookup(in, out, table);
}

}  // namespace vg::vision
#endif
