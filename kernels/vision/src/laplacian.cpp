// LaplacianPyramid and LaplacianReconstruct, one level each (laplacian.hpp). Compiled once per Highway target
// as gaussian_half.cpp is.
//
// The expansion, for one output row: the vertical taps (1 6 1 for an even row, 4 4 for an odd one) are
// summed for every coarse column, then each coarse column k gives the pair of outputs 2k (taps 1 6 1 on
// columns k - 1, k, k + 1) and 2k + 1 (4 4 on k, k + 1), interleaved on the store. Sums stay below 2^14
// (64 * 255): 16-bit lanes. A coarse column outside the image is the nearest column's vertical sum
// (replicate) or the constant's; a coarse row outside is the nearest row or a row of the constant. The
// expanded row, chunk by chunk, is then subtracted from the finer level or added to the Laplacian level.
//
// laplacian_level interleaves gaussian_half's bands of coarse rows with the differences those rows complete,
// so the finer level is read by both while it is still in the cache.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "laplacian.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/laplacian.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kChunk = 512;  // coarse columns per pass: 1024 output columns

/// Calls combine(x, count, e) for each chunk of output row @p y of a @p width-wide expansion of @p coarse, e
/// holding expand(coarse) at output columns x .. x + count - 1.
template <class Combine>
void ExpandRow(ConstPlane coarse, Border border, std::uint32_t width, std::uint32_t y, Combine&& combine) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16);
  const std::int64_t gw = coarse.width, gh = coarse.height;
  const bool constant = border.mode == BorderMode::constant;
  alignas(64) std::uint16_t vertical[kChunk + 2];  // coarse column k0 - 1 + i at i
  alignas(64) std::uint16_t expanded[2 * kChunk];
  alignas(64) std::uint8_t constant_row[kChunk + 2];  // a coarse row above or below the image, constant border
  if (constant) std::fill_n(constant_row, sizeof constant_row, border.constant);

  // Vertical taps: rows h - 1, h, h + 1 weighing 1 6 1 (even y), or h, h + 1 weighing 4 4 (odd y).
  const bool even_row = y % 2 == 0;
  const std::int64_t h = y / 2, first = even_row ? h - 1 : h;
  const int taps = even_row ? 3 : 2;
  const std::uint8_t* rows[3] = {};
  bool constant_rows[3] = {};
  for (int r = 0; r < taps; ++r) {
    const std::int64_t yy = first + r;
    constant_rows[r] = constant && (yy < 0 || yy >= gh);
    rows[r] = coarse.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, gh - 1)));
  }
  auto column_sum = [&](std::int64_t c) {
    const bool outside = c < 0 || c >= gw;
    const std::int64_t cc = std::clamp<std::int64_t>(c, 0, gw - 1);
    unsigned v[3] = {};
    for (int r = 0; r < taps; ++r) v[r] = constant_rows[r] || (outside && constant) ? border.constant : rows[r][cc];
    return static_cast<std::uint16_t>(even_row ? v[0] + 6 * v[1] + v[2] : 4 * (v[0] + v[1]));
  };
  const auto four = hn::Set(d16, std::uint16_t{4}), six = hn::Set(d16, std::uint16_t{6});

  for (std::int64_t k0 = 0; 2 * k0 < width; k0 += kChunk) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(kChunk, gw - k0));  // output pairs
    const std::size_t sums = n + 2;
    // Sums [inside_begin, inside_end) have their column inside the image: vectors, the last moved back.
    const std::size_t inside_begin = k0 == 0 ? 1 : 0;
    const auto inside_end = static_cast<std::size_t>(std::clamp<std::int64_t>(gw - k0 + 1, 0, static_cast<std::int64_t>(sums)));
    const bool vectors = inside_end >= inside_begin + lanes;
    if (vectors) {
      for (std::size_t i = inside_begin;; i += lanes) {
        const std::size_t at = std::min(i, inside_end - lanes);
        const std::uint8_t* p[3];
        for (int r = 0; r < taps; ++r) p[r] = constant_rows[r] ? constant_row + at : rows[r] + (k0 - 1 + static_cast<std::int64_t>(at));
        const auto r0 = hn::PromoteTo(d16, hn::LoadU(d8, p[0])), r1 = hn::PromoteTo(d16, hn::LoadU(d8, p[1]));
        const auto sum = even_row ? hn::Add(hn::Add(r0, hn::PromoteTo(d16, hn::LoadU(d8, p[2]))), hn::Mul(six, r1))
                                  : hn::Mul(four, hn::Add(r0, r1));
        hn::StoreU(sum, d16, vertical + at);
        if (at + lanes >= inside_end) break;
      }
    }
    for (std::size_t i = 0; i < sums; ++i) {
      if (vectors && i == inside_begin) i = inside_end;  // done by the vectors
      if (i >= sums) break;
      vertical[i] = column_sum(k0 - 1 + static_cast<std::int64_t>(i));
    }
    // Horizontal: pair j is outputs 2j (1 6 1 on sums j, j + 1, j + 2) and 2j + 1 (4 4 on j + 1, j + 2).
    std::size_t j = 0;
    if (n >= lanes) {
      for (;; j += lanes) {
        const std::size_t at = std::min(j, n - lanes);
        const auto left = hn::LoadU(d16, vertical + at), centre = hn::LoadU(d16, vertical + at + 1), right = hn::LoadU(d16, vertical + at + 2);
        const auto even = hn::Add(hn::Add(left, right), hn::Mul(six, centre));
        const auto odd = hn::Mul(four, hn::Add(centre, right));
        hn::StoreInterleaved2(hn::ShiftLeft<2>(hn::ShiftRight<8>(even)), hn::ShiftLeft<2>(hn::ShiftRight<8>(odd)), d16, expanded + 2 * at);
        if (at + lanes >= n) break;
      }
      j = n;
    }
    for (; j < n; ++j) {
      const unsigned even = vertical[j] + 6u * vertical[j + 1] + vertical[j + 2], odd = 4u * (vertical[j + 1] + vertical[j + 2]);
      expanded[2 * j] = static_cast<std::uint16_t>((even >> 8) * 4);
      expanded[2 * j + 1] = static_cast<std::uint16_t>((odd >> 8) * 4);
    }
    const auto x = static_cast<std::uint32_t>(2 * k0);
    combine(x, std::min<std::size_t>(2 * n, width - x), static_cast<const std::uint16_t*>(expanded));
  }
}

/// Applies op(i) to i = 0 .. count - 1 by vectors of @p lanes (the last moved back), then singly when
/// count is below one vector: scalar(i).
template <class Vector, class Scalar>
void Elementwise(std::size_t count, std::size_t lanes, Vector&& vector, Scalar&& scalar) {
  if (count < lanes) {
    for (std::size_t i = 0; i < count; ++i) scalar(i);
    return;
  }
  for (std::size_t i = 0;; i += lanes) {
    const std::size_t at = std::min(i, count - lanes);
    vector(at);
    if (at + lanes >= count) break;
  }
}

/// laplacian rows [begin, end) = fine - expand(coarse).
void LaplacianRows(ConstPlane fine, ConstPlane coarse, Pixels laplacian, Border border, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int16_t> di;
  const hn::RebindToUnsigned<decltype(di)> du;
  const hn::Rebind<std::uint8_t, decltype(di)> d8;
  const std::size_t lanes = hn::Lanes(di);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* in = fine.row(y);
    std::int16_t* out = laplacian.row<std::int16_t>(y);
    ExpandRow(coarse, border, fine.width, y, [&](std::uint32_t x0, std::size_t count, const std::uint16_t* e) {
      const std::uint8_t* f = in + x0;
      std::int16_t* o = out + x0;
      Elementwise(
          count, lanes,
          [&](std::size_t at) {
            const auto value = hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(d8, f + at)));
            hn::StoreU(hn::Sub(value, hn::BitCast(di, hn::LoadU(du, e + at))), di, o + at);
          },
          [&](std::size_t i) { o[i] = static_cast<std::int16_t>(f[i] - e[i]); });
    });
  }
}

/// out rows [begin, end) = expand(coarse) + laplacian, saturated to out's type.
void ReconstructRows(ConstPlane coarse, ConstPixels laplacian, Pixels out, Border border, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int16_t> di;
  const hn::RebindToUnsigned<decltype(di)> du;
  const hn::Rebind<std::uint8_t, decltype(di)> d8;
  const std::size_t lanes = hn::Lanes(di);
  const bool u8 = out.type == PixelType::u8;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int16_t* in = laplacian.row<std::int16_t>(y);
    ExpandRow(coarse, border, out.width, y, [&](std::uint32_t x0, std::size_t count, const std::uint16_t* e) {
      const std::int16_t* l = in + x0;
      if (u8) {
        std::uint8_t* o = out.row<std::uint8_t>(y) + x0;
        Elementwise(
            count, lanes,
            [&](std::size_t at) {
              const auto sum = hn::SaturatedAdd(hn::LoadU(di, l + at), hn::BitCast(di, hn::LoadU(du, e + at)));
              hn::StoreU(hn::DemoteTo(d8, sum), d8, o + at);
            },
            [&](std::size_t i) { o[i] = static_cast<std::uint8_t>(std::clamp(l[i] + e[i], 0, 255)); });
      } else {
        std::int16_t* o = out.row<std::int16_t>(y) + x0;
        Elementwise(
            count, lanes,
            [&](std::size_t at) { hn::StoreU(hn::SaturatedAdd(hn::LoadU(di, l + at), hn::BitCast(di, hn::LoadU(du, e + at))), di, o + at); },
            [&](std::size_t i) { o[i] = static_cast<std::int16_t>(std::clamp(l[i] + e[i], -32768, 32767)); });
      }
    });
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(LaplacianRows);
HWY_EXPORT(ReconstructRows);

namespace {

bool half_of(std::uint32_t fine, std::uint32_t coarse) noexcept { return coarse > 0 && coarse == fine / 2 + fine % 2; }

bool same_size(ConstPixels a, std::uint32_t width, std::uint32_t height) noexcept { return a.width == width && a.height == height; }

}  // namespace

bool laplacian_level(ConstPlane fine, Plane coarse, Pixels laplacian, Border border) noexcept {
  if (!half_of(fine.width, coarse.width) || !half_of(fine.height, coarse.height) || laplacian.type != PixelType::s16 ||
      !same_size(laplacian, fine.width, fine.height)) {
    return false;
  }
  // Bands of coarse rows; fine row y reads coarse rows up to y / 2 + 1, so a band ending at coarse row e
  // completes the fine rows below 2e - 2 (all of them after the last band).
  constexpr std::uint32_t kBand = 16;
  std::uint32_t done = 0;
  for (std::uint32_t b = 0; b < coarse.height; b += kBand) {
    const std::uint32_t e = std::min(coarse.height, b + kBand);
    gaussian_half(fine, coarse, 5, border, {b, e});
    const std::uint32_t complete = e == coarse.height ? fine.height : std::min(fine.height, 2 * e - 2);
    if (complete > done) HWY_DYNAMIC_DISPATCH(LaplacianRows)(fine, coarse, laplacian, border, done, complete);
    done = std::max(done, complete);
  }
  return true;
}

bool laplacian_reconstruct_level(ConstPlane coarse, ConstPixels laplacian, Pixels out, Border border, Rows band) noexcept {
  if (!half_of(out.width, coarse.width) || !half_of(out.height, coarse.height) || laplacian.type != PixelType::s16 ||
      !same_size(laplacian, out.width, out.height)) {
    return false;
  }
  const std::uint32_t end = std::min(band.end, out.height);
  if (band.begin < end) HWY_DYNAMIC_DISPATCH(ReconstructRows)(coarse, laplacian, out, border, band.begin, end);
  return true;
}

}  // namespace vg::vision
#endif
