// WeightedAverage and the accumulations (accumulate.hpp). Compiled once per Highway target as filter3x3.cpp
// is, and with -ffp-contract=off (CMakeLists.txt): the blend's products and sum are separate roundings.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "accumulate.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/accumulate.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void WeightedRows(ConstPlane keep, ConstPlane take, float alpha, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df), width = out.width;
  const float beta = 1.0f - alpha;
  const auto va = hn::Set(df, alpha), vb = hn::Set(df, beta);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* k = keep.row(y);
    const std::uint8_t* t = take.row(y);
    std::uint8_t* o = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto kf = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, k + x)));
      const auto tf = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, t + x)));
      const auto sum = hn::Add(hn::Mul(vb, kf), hn::Mul(va, tf));
      hn::StoreU(hn::DemoteTo(d8, hn::ConvertTo(di, sum)), d8, o + x);  // truncation, then 0..255
    }
    for (; x < width; ++x) {
      const float sum = beta * static_cast<float>(k[x]) + alpha * static_cast<float>(t[x]);
      o[x] = static_cast<std::uint8_t>(std::clamp(static_cast<int>(sum), 0, 255));
    }
  }
}

void AccumulateRows(ConstPlane in, Pixels accum, unsigned shift, bool square, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<std::int16_t, decltype(d32)> d16;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const std::size_t lanes = hn::Lanes(d32), width = accum.width;
  const int s = static_cast<int>(shift);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* src = in.row(y);
    std::int16_t* acc = accum.row<std::int16_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      auto v = hn::PromoteTo(d32, hn::LoadU(d8, src + x));
      if (square) v = hn::ShiftRightSame(hn::Mul(v, v), s);
      hn::StoreU(hn::DemoteTo(d16, hn::Add(hn::PromoteTo(d32, hn::LoadU(d16, acc + x)), v)), d16, acc + x);
    }
    for (; x < width; ++x) {
      const int v = square ? static_cast<int>((static_cast<unsigned>(src[x]) * src[x]) >> shift) : src[x];
      acc[x] = static_cast<std::int16_t>(std::clamp(acc[x] + v, -32768, 32767));
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(WeightedRows);
HWY_EXPORT(AccumulateRows);

void weighted_average(ConstPlane keep, ConstPlane take, float alpha, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (out.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(WeightedRows)(keep, take, alpha, out, rows.begin, end);
}

bool accumulate(ConstPlane in, Pixels accum, Rows rows) noexcept {
  if (accum.type != PixelType::s16) return false;
  const std::uint32_t end = std::min(rows.end, accum.height);
  if (accum.width == 0 || rows.begin >= end) return true;
  HWY_DYNAMIC_DISPATCH(AccumulateRows)(in, accum, 0u, false, rows.begin, end);
  return true;
}

bool accumulate_square(ConstPlane in, Pixels accum, unsigned shift, Rows rows) noexcept {
  if (accum.type != PixelType::s16 || shift > 15) return false;
  const std::uint32_t end = std::min(rows.end, accum.height);
  if (accum.width == 0 || rows.begin >= end) return true;
  HWY_DYNAMIC_DISPATCH(AccumulateRows)(in, accum, shift, true, rows.begin, end);
  return true;
}

}  // namespace vg::vision
#endif
