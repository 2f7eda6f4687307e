// HalfScaleGaussian's interior (gaussian_half.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// Separable: for one output row, the vertical binomial sum of its 5 (or 3) input rows is taken for every
// input column, split into even and odd columns as it is computed (E[k] = column 2k, O[k] = column 2k + 1);
// output x then reads O[x-1] + 4 E[x] + 6 O[x] + 4 E[x+1] + O[x+1] (5x5) or E[x] + 2 O[x] + E[x+1] (3x3).
// Sums stay below 2^16 (255 * 256): 16-bit lanes throughout.
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

void GaussianHalfRows(ConstPlane in, Plane out, int kernel_size) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16);
  const bool five = kernel_size == 5;
  const std::uint32_t ow = out.width, oh = out.height;
  // Output rows and columns whose window is inside: 5x5 reads 2x - 1 .. 2x + 3, 3x3 reads 2x .. 2x + 2.
  const std::uint32_t first = five ? 1 : 0, last = ow - 1;  // columns [first, last)
  const std::uint32_t first_row = five ? 1 : 0, last_row = oh - 1;
  if (ow < 3 || oh < 3) return;
  alignas(64) std::uint16_t even[kChunk + 2 + 64], odd[kChunk + 2 + 64];
  const auto four = hn::Set(d16, std::uint16_t{4}), six = hn::Set(d16, std::uint16_t{6}), two = hn::Set(d16, std::uint16_t{2});
  for (std::uint32_t y = first_row; y < last_row; ++y) {
    const std::uint32_t top = five ? 2 * y - 1 : 2 * y;
    const std::uint8_t* r[5];
    for (int i = 0; i < (five ? 5 : 3); ++i) r[i] = in.row(top + static_cast<std::uint32_t>(i));
    std::uint8_t* dst = out.row(y);
    for (std::uint32_t start = first; start < last; start += kChunk) {
      const std::uint32_t n = std::min<std::uint32_t>(kChunk, last - start);
      // Pairs k = start - 1 .. start + n (5x5) or start .. start + n (3x3): even[j] is E[k0 + j].
      const std::uint32_t k0 = five ? start - 1 : start, pairs = five ? n + 2 : n + 1;
      std::size_t j = 0;
      for (; j + lanes <= pairs; j += lanes) {
        const std::size_t c = 2 * (k0 + j);
        auto e0 = hn::Zero(d8), o0 = hn::Zero(d8), e1 = hn::Zero(d8), o1 = hn::Zero(d8), e2 = hn::Zero(d8), o2 = hn::Zero(d8);
        hn::LoadInterleaved2(d8, r[0] + c, e0, o0);
        hn::LoadInterleaved2(d8, r[1] + c, e1, o1);
        hn::LoadInterleaved2(d8, r[2] + c, e2, o2);
        auto se = hn::PromoteTo(d16, e0), so = hn::PromoteTo(d16, o0);
        if (five) {
          auto e3 = hn::Zero(d8), o3 = hn::Zero(d8), e4 = hn::Zero(d8), o4 = hn::Zero(d8);
          hn::LoadInterleaved2(d8, r[3] + c, e3, o3);
          hn::LoadInterleaved2(d8, r[4] + c, e4, o4);
          se = hn::Add(hn::Add(se, hn::PromoteTo(d16, e4)), hn::Add(hn::Mul(four, hn::Add(hn::PromoteTo(d16, e1), hn::PromoteTo(d16, e3))),
                                                                   hn::Mul(six, hn::PromoteTo(d16, e2))));
          so = hn::Add(hn::Add(so, hn::PromoteTo(d16, o4)), hn::Add(hn::Mul(four, hn::Add(hn::PromoteTo(d16, o1), hn::PromoteTo(d16, o3))),
                                                                   hn::Mul(six, hn::PromoteTo(d16, o2))));
        } else {
          se = hn::Add(hn::Add(se, hn::PromoteTo(d16, e2)), hn::Mul(two, hn::PromoteTo(d16, e1)));
          so = hn::Add(hn::Add(so, hn::PromoteTo(d16, o2)), hn::Mul(two, hn::PromoteTo(d16, o1)));
        }
        hn::Store(se, d16, even + j);
        hn::Store(so, d16, odd + j);
      }
      for (; j < pairs; ++j) {
        const std::size_t c = 2 * (k0 + j);
        auto column = [&](std::size_t col) {
          return five ? static_cast<std::uint16_t>(r[0][col] + 4 * r[1][col] + 6 * r[2][col] + 4 * r[3][col] + r[4][col])
                      : static_cast<std::uint16_t>(r[0][col] + 2 * r[1][col] + r[2][col]);
        };
        even[j] = column(c);
        odd[j] = column(c + 1);
      }
      // Horizontal: output start + i reads pairs at j = i .. i + 2 (5x5: O[j], E[j+1], O[j+1], E[j+2], O[j+2])
      // or i .. i + 1 (3x3: E[j], O[j], E[j+1]).
      std::size_t i = 0;
      for (; i + lanes <= n; i += lanes) {
        std::uint16_t* o_base = odd + i;
        std::uint16_t* e_base = even + i;
        hn::Vec<decltype(d16)> sum = hn::Zero(d16);
        if (five) {
          sum = hn::Add(hn::Add(hn::LoadU(d16, o_base), hn::LoadU(d16, o_base + 2)),
                        hn::Add(hn::Mul(four, hn::Add(hn::LoadU(d16, e_base + 1), hn::LoadU(d16, e_base + 2))),
                                hn::Mul(six, hn::LoadU(d16, o_base + 1))));
          hn::StoreU(hn::TruncateTo(d8, hn::ShiftRight<8>(sum)), d8, dst + start + i);
        } else {
          sum = hn::Add(hn::Add(hn::LoadU(d16, e_base), hn::LoadU(d16, e_base + 1)), hn::Mul(two, hn::LoadU(d16, o_base)));
          hn::StoreU(hn::TruncateTo(d8, hn::ShiftRight<4>(sum)), d8, dst + start + i);
        }
      }
      for (; i < n; ++i) {
        const unsigned s = five ? odd[i] + 4u * even[i + 1] + 6u * odd[i + 1] + 4u * even[i + 2] + odd[i + 2]
                                : even[i] + 2u * odd[i] + even[i + 1];
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

bool gaussian_half_interior(ConstPlane in, Plane out, int kernel_size) noexcept {
  if ((kernel_size != 3 && kernel_size != 5) || in.width != 2 * out.width || in.height != 2 * out.height) return false;
  HWY_DYNAMIC_DISPATCH(GaussianHalfRows)(in, out, kernel_size);
  return true;
}

}  // namespace vg::vision
#endif
