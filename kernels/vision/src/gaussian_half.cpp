// HalfScaleGaussian (gaussian_half.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// Separable: for one output row, the vertical binomial sum of its 5 (or 3) input rows is taken for every
// input column, split into even and odd columns as it is computed (E[k] = column 2k, O[k] = column 2k + 1);
// each output then adds its 5 (or 3) columns from E and O. Sums stay below 2^16 (255 * 256): 16-bit lanes.
//
// The border: a window row outside the image is the nearest row (replicate) or a row of the constant; a
// column outside is the nearest column's vertical sum or the constant's, computed one pair at a time. So the
// frame runs the same vectors as the interior, and nothing is written twice.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gaussian_half.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/gaussian_half.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kChunk = 512;  // output columns per pass
constexpr int kMaxTaps = 5;

void GaussianHalfRows(ConstPlane in, Plane out, int kernel_size, Border border, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16);
  const bool five = kernel_size == 5;
  const int radius = five ? 2 : 1, taps = 2 * radius + 1;
  const unsigned weights[kMaxTaps] = {1, five ? 4u : 2u, five ? 6u : 1u, 4, 1};
  const std::int64_t w = in.width, h = in.height;
  const std::uint32_t ow = out.width;
  // The sampled input pixel of output x is 2x + odd_x (1 for an even width, 0 for an odd one).
  const std::int64_t odd_x = w % 2 == 0 ? 1 : 0, odd_y = h % 2 == 0 ? 1 : 0;
  const bool constant = border.mode == BorderMode::constant;
  alignas(64) std::uint16_t even[kChunk + 2], odd[kChunk + 2];
  alignas(64) std::uint8_t constant_row[2 * (kChunk + 2)];  // a window row above or below the image, constant border
  if (constant) std::fill_n(constant_row, sizeof constant_row, border.constant);
  // 5x5 output i of a chunk reads A[i], B[i+b], A[i+1], B[i+b+1], A[i+2]; 3x3 reads B[i+b], A[i+1], B[i+b+1]
  // (A the sampled column's parity, B the other, b = 1 for an even width).
  const std::uint16_t* a = odd_x ? odd : even;
  const std::uint16_t* b = odd_x ? even : odd;
  const std::size_t b_offset = odd_x ? 1 : 0;
  const auto four = hn::Set(d16, std::uint16_t{4}), six = hn::Set(d16, std::uint16_t{6}), two = hn::Set(d16, std::uint16_t{2});

  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int64_t top = 2 * static_cast<std::int64_t>(y) + odd_y - radius;
    const std::uint8_t* rows[kMaxTaps] = {};
    bool constant_rows[kMaxTaps] = {};
    for (int r = 0; r < taps; ++r) {
      const std::int64_t yy = top + r;
      constant_rows[r] = constant && (yy < 0 || yy >= h);
      rows[r] = in.row(static_cast<std::uint32_t>(std::clamp<std::int64_t>(yy, 0, h - 1)));
    }
    // The vertical sum of input column c (any column: outside the image it reads the border).
    auto column_sum = [&](std::int64_t c) {
      unsigned sum = 0;
      const bool outside = c < 0 || c >= w;
      const std::int64_t cc = std::clamp<std::int64_t>(c, 0, w - 1);
      for (int r = 0; r < taps; ++r) {
        const unsigned v = constant_rows[r] || (outside && constant) ? border.constant : rows[r][cc];
        sum += weights[r] * v;
      }
      return static_cast<std::uint16_t>(sum);
    };
    std::uint8_t* dst = out.row(y);
    for (std::uint32_t start = 0; start < ow; start += kChunk) {
      const std::size_t n = std::min<std::size_t>(kChunk, ow - start);
      const std::int64_t k0 = static_cast<std::int64_t>(start) - 1;  // pair j is pair k0 + j
      const std::size_t pairs = n + 2;
      // Pairs [inside_begin, inside_end) have both columns inside the image: vectors, the last moved back.
      const std::size_t inside_begin = k0 < 0 ? 1 : 0;
      const std::size_t inside_end = static_cast<std::size_t>(std::clamp<std::int64_t>(w / 2 - k0, 0, static_cast<std::int64_t>(pairs)));
      const bool vectors = inside_end >= inside_begin + lanes;
      if (vectors) {
        for (std::size_t j = inside_begin;; j += lanes) {
          const std::size_t at = std::min(j, inside_end - lanes);
          const std::uint8_t* p[kMaxTaps];
          for (int r = 0; r < taps; ++r) {
            p[r] = constant_rows[r] ? constant_row + 2 * at : rows[r] + 2 * (k0 + static_cast<std::int64_t>(at));
          }
          auto e0 = hn::Zero(d8), o0 = hn::Zero(d8), e1 = hn::Zero(d8), o1 = hn::Zero(d8), e2 = hn::Zero(d8), o2 = hn::Zero(d8);
          hn::LoadInterleaved2(d8, p[0], e0, o0);
          hn::LoadInterleaved2(d8, p[1], e1, o1);
          hn::LoadInterleaved2(d8, p[2], e2, o2);
          auto se = hn::PromoteTo(d16, e0), so = hn::PromoteTo(d16, o0);
          if (five) {
            auto e3 = hn::Zero(d8), o3 = hn::Zero(d8), e4 = hn::Zero(d8), o4 = hn::Zero(d8);
            hn::LoadInterleaved2(d8, p[3], e3, o3);
            hn::LoadInterleaved2(d8, p[4], e4, o4);
            se = hn::Add(hn::Add(se, hn::PromoteTo(d16, e4)),
                         hn::Add(hn::Mul(four, hn::Add(hn::PromoteTo(d16, e1), hn::PromoteTo(d16, e3))), hn::Mul(six, hn::PromoteTo(d16, e2))));
            so = hn::Add(hn::Add(so, hn::PromoteTo(d16, o4)),
                         hn::Add(hn::Mul(four, hn::Add(hn::PromoteTo(d16, o1), hn::PromoteTo(d16, o3))), hn::Mul(six, hn::PromoteTo(d16, o2))));
          } else {
            se = hn::Add(hn::Add(se, hn::PromoteTo(d16, e2)), hn::Mul(two, hn::PromoteTo(d16, e1)));
            so = hn::Add(hn::Add(so, hn::PromoteTo(d16, o2)), hn::Mul(two, hn::PromoteTo(d16, o1)));
          }
          hn::StoreU(se, d16, even + at);
          hn::StoreU(so, d16, odd + at);
          if (at + lanes >= inside_end) break;
        }
      }
      for (std::size_t j = 0; j < pairs; ++j) {
        if (vectors && j == inside_begin) j = inside_end;  // done by the vectors
        if (j >= pairs) break;
        const std::int64_t c = 2 * (k0 + static_cast<std::int64_t>(j));
        even[j] = column_sum(c);
        odd[j] = column_sum(c + 1);
      }
      // Horizontal: the output's columns from E and O, the last vector moved back.
      std::size_t i = 0;
      if (n >= lanes) {
        for (;; i += lanes) {
          const std::size_t at = std::min(i, n - lanes);
          if (five) {
            const auto sum = hn::Add(hn::Add(hn::LoadU(d16, a + at), hn::LoadU(d16, a + at + 2)),
                                     hn::Add(hn::Mul(four, hn::Add(hn::LoadU(d16, b + at + b_offset), hn::LoadU(d16, b + at + b_offset + 1))),
                                             hn::Mul(six, hn::LoadU(d16, a + at + 1))));
            hn::StoreU(hn::TruncateTo(d8, hn::ShiftRight<8>(sum)), d8, dst + start + at);
          } else {
            const auto sum = hn::Add(hn::Add(hn::LoadU(d16, b + at + b_offset), hn::LoadU(d16, b + at + b_offset + 1)),
                                     hn::Mul(two, hn::LoadU(d16, a + at + 1)));
            hn::StoreU(hn::TruncateTo(d8, hn::ShiftRight<4>(sum)), d8, dst + start + at);
          }
          if (at + lanes >= n) break;
        }
        i = n;
      }
      for (; i < n; ++i) {
        const unsigned s = five ? a[i] + 4u * b[i + b_offset] + 6u * a[i + 1] + 4u * b[i + b_offset + 1] + a[i + 2]
                                : b[i + b_offset] + 2u * a[i + 1] + b[i + b_offset + 1];
        dst[start + i] = static_cast<std::uint8_t>(s >> (five ? 8 : 4));
      }
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(GaussianHalfRows);

bool gaussian_half(ConstPlane in, Plane out, int kernel_size, Border border, Rows band) noexcept {
  auto halves = [](std::uint32_t from, std::uint32_t to) { return to > 0 && (from == 2 * to || from + 1 == 2 * to); };
  if ((kernel_size != 3 && kernel_size != 5) || !halves(in.width, out.width) || !halves(in.height, out.height)) return false;
  const std::uint32_t end = std::min(band.end, out.height);
  if (band.begin < end) HWY_DYNAMIC_DISPATCH(GaussianHalfRows)(in, out, kernel_size, border, band.begin, end);
  return true;
}

}  // namespace vg::vision
#endif
