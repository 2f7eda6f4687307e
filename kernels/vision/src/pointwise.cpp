// Threshold (threshold.hpp) and packed RGB to gray (to_gray.hpp): one pixel in, one out. Compiled once per
// Highway target as filter3x3.cpp is.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "pointwise.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/threshold.hpp"
#include "visiongraph/kernels/vision/to_gray.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ThresholdRows(const Threshold& t, ConstPlane in, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = in.width;
  const auto yes = hn::Set(d, t.true_value), no = hn::Set(d, t.false_value);
  const auto value = hn::Set(d, t.value), lower = hn::Set(d, t.lower), upper = hn::Set(d, t.upper);
  const bool binary = t.type == Threshold::Type::binary;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* dst = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::LoadU(d, src + x);
      if (binary) {
        hn::StoreU(hn::IfThenElse(hn::Gt(v, value), yes, no), d, dst + x);
      } else {
        hn::StoreU(hn::IfThenElse(hn::Or(hn::Lt(v, lower), hn::Gt(v, upper)), no, yes), d, dst + x);
      }
    }
    for (; x < width; ++x) {
      const std::uint8_t v = src[x];
      const bool on = binary ? v > t.value : (v >= t.lower && v <= t.upper);
      dst[x] = on ? t.true_value : t.false_value;
    }
  }
}

// Luma in 15-bit fixed point (0.114, 0.587, 0.299 rounded; the three sum to 2^15), as OpenCV computes it
// for 8-bit images.
constexpr std::uint32_t kB = 3735, kG = 19235, kR = 9798, kHalf = 1u << 14;

void ToGrayRows(ConstPackedRgb in, Plane out, std::uint32_t begin, std::uint32_t end) {
  // 32-bit lanes for the products (signed: Highway narrows i32 to u8; the sums stay under 2^23); the bytes
  // of as many pixels are loaded deinterleaved.
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<std::uint8_t, decltype(d32)> d8;
  const std::size_t lanes = hn::Lanes(d32), width = in.width;
  const std::uint32_t c0 = in.bgr ? kB : kR, c2 = in.bgr ? kR : kB;
  const auto k0 = hn::Set(d32, static_cast<std::int32_t>(c0)), k1 = hn::Set(d32, static_cast<std::int32_t>(kG));
  const auto k2 = hn::Set(d32, static_cast<std::int32_t>(c2)), half = hn::Set(d32, static_cast<std::int32_t>(kHalf));
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* dst = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      hn::Vec<decltype(d8)> a, b, c;
      hn::LoadInterleaved3(d8, src + 3 * x, a, b, c);
      auto sum = hn::Add(hn::Mul(hn::PromoteTo(d32, a), k0), half);
      sum = hn::Add(sum, hn::Mul(hn::PromoteTo(d32, b), k1));
      sum = hn::Add(sum, hn::Mul(hn::PromoteTo(d32, c), k2));
      hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<15>(sum)), d8, dst + x);
    }
    for (; x < width; ++x) {
      const std::uint8_t* p = src + 3 * x;
      dst[x] = static_cast<std::uint8_t>((p[0] * c0 + p[1] * kG + p[2] * c2 + kHalf) >> 15);
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ThresholdRows);
HWY_EXPORT(ToGrayRows);

void threshold(const Threshold& t, ConstPlane in, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (in.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(ThresholdRows)(t, in, out, rows.begin, end);
}

void to_gray(ConstPackedRgb in, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (in.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(ToGrayRows)(in, out, rows.begin, end);
}

}  // namespace vg::vision
#endif
