// Convolve's interior (convolve.hpp). Compiled once per Highway target as filter3x3.cpp is. Each output
// vector accumulates its window tap by tap in 32-bit lanes (at most 225 * 255 * 32768 in magnitude: exact),
// then divides truncating toward zero and narrows with saturation.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "convolve.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/convolve.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class Out>
void convolve_rows(ConstPlane in, Pixels out, const std::int16_t* c, int columns, int rows, unsigned shift) {
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const hn::Rebind<Out, decltype(d32)> dout;
  const std::size_t lanes = hn::Lanes(d32);
  const std::uint32_t rx = static_cast<std::uint32_t>(columns / 2), ry = static_cast<std::uint32_t>(rows / 2);
  const std::uint32_t width = in.width, height = in.height;
  const auto bias = hn::Set(d32, static_cast<std::int32_t>((std::int64_t{1} << shift) - 1));
  const int s = static_cast<int>(shift);
  constexpr int lo = sizeof(Out) == 1 ? 0 : -32768, hi = sizeof(Out) == 1 ? 255 : 32767;
  for (std::uint32_t y = ry; y + ry < height; ++y) {
    const std::uint8_t* window_rows[15];
    for (int r = 0; r < rows; ++r) window_rows[r] = in.row(y - ry + static_cast<std::uint32_t>(r));
    Out* dst = out.row<Out>(y);
    std::uint32_t x = rx;
    for (; x + rx + lanes <= width; x += static_cast<std::uint32_t>(lanes)) {
      auto sum = hn::Zero(d32);
      const std::int16_t* coefficient = c;
      for (int r = 0; r < rows; ++r) {
        const std::uint8_t* p = window_rows[r] + (x - rx);
        for (int k = 0; k < columns; ++k, ++coefficient) {
          sum = hn::Add(sum, hn::Mul(hn::Set(d32, *coefficient), hn::PromoteTo(d32, hn::LoadU(d8, p + k))));
        }
      }
      const auto negative = hn::Lt(sum, hn::Zero(d32));
      auto quotient = hn::ShiftRightSame(hn::IfThenElse(negative, hn::Add(sum, bias), sum), s);
      // Clamped before narrowing to U8: Highway 1.0.3's AVX2 / AVX-512 int32 -> uint8 narrowing mangles
      // values from 32768 to 65535 (it clears their top bit), where it should give 255.
      if constexpr (sizeof(Out) == 1) quotient = hn::Min(hn::Max(quotient, hn::Zero(d32)), hn::Set(d32, 255));
      hn::StoreU(hn::DemoteTo(dout, quotient), dout, dst + x);
    }
    for (; x + rx < width; ++x) {
      std::int32_t sum = 0;
      const std::int16_t* coefficient = c;
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < columns; ++k) sum += std::int32_t{window_rows[r][x - rx + static_cast<std::uint32_t>(k)]} * *coefficient++;
      const std::int64_t v = (std::int64_t{sum} + (sum < 0 ? (std::int64_t{1} << shift) - 1 : 0)) >> shift;
      dst[x] = static_cast<Out>(std::clamp<std::int64_t>(v, lo, hi));
    }
  }
}

bool ConvolveRows(ConstPlane in, Pixels out, const std::int16_t* c, int columns, int rows, unsigned shift) {
  if (out.type == PixelType::u8) {
    convolve_rows<std::uint8_t>(in, out, c, columns, rows, shift);
  } else {
    convolve_rows<std::int16_t>(in, out, c, columns, rows, shift);
  }
  return true;
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ConvolveRows);

bool convolve_interior(ConstPlane in, Pixels out, const std::int16_t* flipped, int columns, int rows, unsigned shift) noexcept {
  if (columns < 1 || rows < 1 || columns > 15 || rows > 15 || columns % 2 == 0 || rows % 2 == 0 || shift > 31) return false;
  if (in.width <= static_cast<std::uint32_t>(columns - 1) || in.height <= static_cast<std::uint32_t>(rows - 1)) return true;  // all frame
  return HWY_DYNAMIC_DISPATCH(ConvolveRows)(in, out, flipped, columns, rows, shift);
}

}  // namespace vg::vision
#endif
