// Threshold (threshold.hpp), packed RGB to gray (to_gray.hpp) and ConvertDepth (convert_depth.hpp): one pixel
// in, one out; and the whole-image statistics (statistics.hpp). Compiled once per
// Highway target as filter3x3.cpp is.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "pointwise.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/convert_depth.hpp"
#include "visiongraph/kernels/vision/downscale.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"
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

bool ConvertDepthRows(ConstPixels in, Pixels out, int shift, Overflow overflow, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16), width = out.width;
  if (in.type == PixelType::u8 && out.type == PixelType::s16) {
    for (std::uint32_t y = begin; y < end; ++y) {
      const std::uint8_t* src = in.row<std::uint8_t>(y);
      std::int16_t* dst = out.row<std::int16_t>(y);
      std::size_t x = 0;
      for (; x + lanes <= width; x += lanes) hn::StoreU(hn::ShiftLeftSame(hn::PromoteTo(d16, hn::LoadU(d8, src + x)), shift), d16, dst + x);
      for (; x < width; ++x) dst[x] = static_cast<std::int16_t>(src[x] << shift);
    }
    return true;
  }
  if (in.type != PixelType::s16 || out.type != PixelType::u8) return false;
  const bool saturate = overflow == Overflow::saturate;
  const auto low_byte = hn::Set(d16, std::int16_t{0xFF});
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int16_t* src = in.row<std::int16_t>(y);
    std::uint8_t* dst = out.row<std::uint8_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::ShiftRightSame(hn::LoadU(d16, src + x), shift);  // arithmetic: int16 lanes
      // Saturate: the narrowing clamps to 0..255. Wrap: the low byte, which the narrowing then keeps as is.
      hn::StoreU(hn::DemoteTo(d8, saturate ? v : hn::And(v, low_byte)), d8, dst + x);
    }
    for (; x < width; ++x) {
      const int v = src[x] >> shift;
      dst[x] = saturate ? static_cast<std::uint8_t>(std::clamp(v, 0, 255)) : static_cast<std::uint8_t>(v);
    }
  }
  return true;
}

// MeanStdDev's sums. A whole vector of pixels at a time: the sum by SumsOf8 (sums of eight bytes in u64
// lanes, which cannot wrap), the squares by multiplying u16 pairs into i32 lanes (pmaddwd on x86), each
// lane gaining at most 2 x 255^2 a vector, moved to 64 bits every 8,192 vectors; against a widening to u32
// lanes and a 32-bit multiply for every quarter vector before.
PixelSums SumRows(ConstPlane in) {
  PixelSums total;
#if HWY_TARGET == HWY_SCALAR
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* row = in.row(y);
    for (std::size_t x = 0; x < in.width; ++x) {
      total.sum += row[x];
      total.squares += static_cast<std::uint32_t>(row[x]) * row[x];
    }
  }
#else
  const hn::ScalableTag<std::uint8_t> d8;
  const hn::Repartition<std::uint16_t, decltype(d8)> d16;
  const hn::Repartition<std::int16_t, decltype(d8)> di16;
  const hn::Repartition<std::int32_t, decltype(d8)> d32;
  const hn::Repartition<std::uint64_t, decltype(d8)> d64;
  const std::size_t lanes = hn::Lanes(d8), width = in.width;
  // A lane of each accumulator (two per half, as some targets split the products between sum0 and sum1)
  // gains at most 2 x 255^2 = 130,050 a vector: 8,192 vectors stay under 2^31.
  constexpr std::size_t kBlock = 8192;
  const auto zero = hn::Zero(d8);
  auto sums = hn::Zero(d64);
  auto lo0 = hn::Zero(d32), lo1 = hn::Zero(d32), hi0 = hn::Zero(d32), hi1 = hn::Zero(d32);
  std::size_t vectors = 0;
  const auto flush = [&] {
    HWY_ALIGN std::int32_t lanes_of[4][hn::MaxLanes(d32)];
    hn::Store(lo0, d32, lanes_of[0]);
    hn::Store(lo1, d32, lanes_of[1]);
    hn::Store(hi0, d32, lanes_of[2]);
    hn::Store(hi1, d32, lanes_of[3]);
    for (const auto& a : lanes_of)
      for (std::size_t i = 0; i < hn::Lanes(d32); ++i) total.squares += static_cast<std::uint32_t>(a[i]);
    lo0 = lo1 = hi0 = hi1 = hn::Zero(d32);
    vectors = 0;
  };
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* row = in.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      if (vectors == kBlock) flush();
      ++vectors;
      const auto v = hn::LoadU(d8, row + x);
      sums = hn::Add(sums, hn::SumsOf8(v));
      const auto lo = hn::BitCast(di16, hn::ZipLower(d16, v, zero)), hi = hn::BitCast(di16, hn::ZipUpper(d16, v, zero));
      lo0 = hn::ReorderWidenMulAccumulate(d32, lo, lo, lo0, lo1);
      hi0 = hn::ReorderWidenMulAccumulate(d32, hi, hi, hi0, hi1);
    }
    for (; x < width; ++x) {
      total.sum += row[x];
      total.squares += static_cast<std::uint32_t>(row[x]) * row[x];
    }
  }
  flush();
  total.sum += hn::GetLane(hn::SumOfLanes(d64, sums));
#endif
  return total;
}

// Extrema: the vector minimum and maximum over every row, then one more pass counting the pixels equal to
// each (the counts exact in 64 bits).
template <typename T>
Extrema ExtremaOf(ConstPixels in) {
  const hn::ScalableTag<T> d;
  const std::size_t lanes = hn::Lanes(d), width = in.width;
  T low = in.row<T>(0)[0], high = low;
  auto vlow = hn::Set(d, low), vhigh = vlow;
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const T* row = in.row<T>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::LoadU(d, row + x);
      vlow = hn::Min(vlow, v);
      vhigh = hn::Max(vhigh, v);
    }
    for (; x < width; ++x) {
      low = std::min(low, row[x]);
      high = std::max(high, row[x]);
    }
  }
  HWY_ALIGN T lanes_low[hn::MaxLanes(d)];
  HWY_ALIGN T lanes_high[hn::MaxLanes(d)];
  hn::Store(vlow, d, lanes_low);
  hn::Store(vhigh, d, lanes_high);
  for (std::size_t i = 0; i < lanes; ++i) {
    low = std::min(low, lanes_low[i]);
    high = std::max(high, lanes_high[i]);
  }
  Extrema e;
  e.min = low;
  e.max = high;
  vlow = hn::Set(d, low);
  vhigh = hn::Set(d, high);
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const T* row = in.row<T>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::LoadU(d, row + x);
      e.min_count += hn::CountTrue(d, hn::Eq(v, vlow));
      e.max_count += hn::CountTrue(d, hn::Eq(v, vhigh));
    }
    for (; x < width; ++x) {
      e.min_count += row[x] == low ? 1u : 0u;
      e.max_count += row[x] == high ? 1u : 0u;
    }
  }
  return e;
}

Extrema ExtremaRows(ConstPixels in) {
  return in.type == PixelType::u8 ? ExtremaOf<std::uint8_t>(in) : ExtremaOf<std::int16_t>(in);
}

template <typename T>
std::size_t LocateOf(ConstPixels in, T value, PixelPosition* out, std::size_t capacity, PixelPosition from) {
  const hn::ScalableTag<T> d;
  const std::size_t lanes = hn::Lanes(d), width = in.width;
  const auto wanted = hn::Set(d, value);
  std::size_t found = 0;
  for (std::uint32_t y = from.y; y < in.height && found < capacity; ++y) {
    const T* row = in.row<T>(y);
    std::size_t x = y == from.y ? from.x : 0;
    for (; x + lanes <= width && found < capacity; x += lanes) {
      if (hn::AllFalse(d, hn::Eq(hn::LoadU(d, row + x), wanted))) continue;
      for (std::size_t i = x; i < x + lanes && found < capacity; ++i)
        if (row[i] == value) out[found++] = {static_cast<std::uint32_t>(i), y};
    }
    for (; x < width && found < capacity; ++x)
      if (row[x] == value) out[found++] = {static_cast<std::uint32_t>(x), y};
  }
  return found;
}

std::size_t LocateRows(ConstPixels in, std::int32_t value, PixelPosition* out, std::size_t capacity, PixelPosition from) {
  if (in.type == PixelType::u8) return LocateOf<std::uint8_t>(in, static_cast<std::uint8_t>(value), out, capacity, from);
  return LocateOf<std::int16_t>(in, static_cast<std::int16_t>(value), out, capacity, from);
}

// IntegralImage: each row's running sum a vector of pixels at a time (an in-vector prefix sum, plus the sum
// so far broadcast), plus the row above. Shuffles bound this loop. On AVX2 and AVX-512, 2 x lanes pixels
// at a time: an 8-pixel prefix in u16 lanes by in-block byte shifts, widened to u32, the first eight's
// total added to the next eight with one lane permutation (AVX-512), then the sum so far; 16 pixels take
// 5.5 shuffles, against 16 with four pixels at a time. Elsewhere 128-bit vectors, whose in-block lane
// shifts are the whole vector's.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
void IntegralRows(ConstPlane in, U32Plane out) {
  const hn::ScalableTag<std::uint32_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  constexpr int kSteps = kLanes == 16 ? 4 : 3;
  static_assert(kLanes == (std::size_t{1} << kSteps));
  using Indices = decltype(hn::SetTableIndices(d, static_cast<const std::int32_t*>(nullptr)));
  using Mask = decltype(hn::FirstN(d, 1));
  // The remainder of a row, lanes pixels at a time: log2(lanes) additions of the vector moved up by
  // 1, 2, 4, (8) lanes with a permutation, zeros shifted in.
  Indices up[kSteps];  // lane i takes lane i - 2^k (lane 0 where that is negative; masked to zero)
  Mask tail[kSteps];   // the lanes from 2^k on (the first 2^k take zeros)
  HWY_ALIGN std::int32_t table[kLanes];
  for (int k = 0; k < kSteps; ++k) {
    const std::size_t shift = std::size_t{1} << k;
    for (std::size_t i = 0; i < kLanes; ++i) table[i] = static_cast<std::int32_t>(i >= shift ? i - shift : 0);
    up[k] = hn::SetTableIndices(d, table);
    tail[k] = hn::Not(hn::FirstN(d, shift));
  }
  for (std::size_t i = 0; i < kLanes; ++i) table[i] = static_cast<std::int32_t>(kLanes - 1);
  const Indices last = hn::SetTableIndices(d, table);
  for (std::size_t i = 0; i < kLanes; ++i) table[i] = 7;
  const Indices lane7 = hn::SetTableIndices(d, table);
  const Mask second_eight = hn::Not(hn::FirstN(d, 8));
  // Twice as many pixels in u16 lanes: their first prefix steps stay within 128-bit blocks (byte shifts,
  // no masks), and one widening serves 16 pixels.
  const hn::Repartition<std::uint16_t, decltype(d)> d16;
  const hn::Half<decltype(d16)> d16h;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8w;
  const std::size_t width = in.width;
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint32_t* dst = out.row(y);
    const std::uint32_t* above = y > 0 ? out.row(y - 1) : nullptr;
    auto carry = hn::Zero(d);
    std::size_t x = 0;
    for (; x + 2 * kLanes <= width; x += 2 * kLanes) {
      auto w = hn::PromoteTo(d16, hn::LoadU(d8w, src + x));
      w = hn::Add(w, hn::ShiftLeftLanes<1>(d16, w));
      w = hn::Add(w, hn::ShiftLeftLanes<2>(d16, w));
      w = hn::Add(w, hn::ShiftLeftLanes<4>(d16, w));  // each 8 pixels' prefix: at most 2,040
      auto lo = hn::PromoteTo(d, hn::LowerHalf(d16h, w)), hi = hn::PromoteTo(d, hn::UpperHalf(d16h, w));
      if constexpr (kLanes == 16) {  // lanes 8..15 follow lanes 0..7
        lo = hn::Add(lo, hn::IfThenElseZero(second_eight, hn::TableLookupLanes(lo, lane7)));
        hi = hn::Add(hi, hn::IfThenElseZero(second_eight, hn::TableLookupLanes(hi, lane7)));
      }
      lo = hn::Add(lo, carry);
      carry = hn::TableLookupLanes(lo, last);
      hi = hn::Add(hi, carry);
      carry = hn::TableLookupLanes(hi, last);
      if (above != nullptr) {
        lo = hn::Add(lo, hn::LoadU(d, above + x));
        hi = hn::Add(hi, hn::LoadU(d, above + x + kLanes));
      }
      hn::StoreU(lo, d, dst + x);
      hn::StoreU(hi, d, dst + x + kLanes);
    }
    for (; x + kLanes <= width; x += kLanes) {
      auto v = hn::PromoteTo(d, hn::LoadU(d8, src + x));
      for (int k = 0; k < kSteps; ++k) v = hn::Add(v, hn::IfThenElseZero(tail[k], hn::TableLookupLanes(v, up[k])));
      v = hn::Add(v, carry);
      carry = hn::TableLookupLanes(v, last);
      hn::StoreU(above != nullptr ? hn::Add(v, hn::LoadU(d, above + x)) : v, d, dst + x);
    }
    std::uint32_t sum = hn::GetLane(carry);
    for (; x < width; ++x) {
      sum += src[x];
      dst[x] = sum + (above != nullptr ? above[x] : 0u);
    }
  }
}
#else
void IntegralRows(ConstPlane in, U32Plane out) {
#if HWY_TARGET == HWY_SCALAR
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint32_t* dst = out.row(y);
    const std::uint32_t* above = y > 0 ? out.row(y - 1) : nullptr;
    std::uint32_t sum = 0;
    for (std::size_t x = 0; x < in.width; ++x) {
      sum += src[x];
      dst[x] = sum + (above != nullptr ? above[x] : 0u);
    }
  }
#else
  const hn::FixedTag<std::uint32_t, 4> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const std::size_t width = in.width;
  for (std::uint32_t y = 0; y < in.height; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint32_t* dst = out.row(y);
    const std::uint32_t* above = y > 0 ? out.row(y - 1) : nullptr;
    auto carry = hn::Zero(d);
    std::size_t x = 0;
    for (; x + 4 <= width; x += 4) {
      auto v = hn::PromoteTo(d, hn::LoadU(d8, src + x));
      v = hn::Add(v, hn::ShiftLeftLanes<1>(d, v));
      v = hn::Add(v, hn::ShiftLeftLanes<2>(d, v));
      const auto total = hn::Broadcast<3>(v);  // off the carry's dependency chain
      v = hn::Add(v, carry);
      carry = hn::Add(carry, total);
      hn::StoreU(above != nullptr ? hn::Add(v, hn::LoadU(d, above + x)) : v, d, dst + x);
    }
    std::uint32_t sum = hn::GetLane(carry);
    for (; x < width; ++x) {
      sum += src[x];
      dst[x] = sum + (above != nullptr ? above[x] : 0u);
    }
  }
#endif
}
#endif

void Downscale2xRows(ConstPlane in, Plane out, bool average, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16), width = out.width;
  const auto two = hn::Set(d16, std::uint16_t{2});
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* top = in.row(2 * y);
    const std::uint8_t* bottom = in.row(2 * y + 1);
    std::uint8_t* dst = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      auto t0 = hn::Zero(d8), t1 = hn::Zero(d8), b0 = hn::Zero(d8), b1 = hn::Zero(d8);
      hn::LoadInterleaved2(d8, top + 2 * x, t0, t1);     // even and odd pixels of the top row
      hn::LoadInterleaved2(d8, bottom + 2 * x, b0, b1);  // and of the bottom row
      if (!average) {
        hn::StoreU(b1, d8, dst + x);
        continue;
      }
      const auto sum = hn::Add(hn::Add(hn::PromoteTo(d16, t0), hn::PromoteTo(d16, t1)), hn::Add(hn::PromoteTo(d16, b0), hn::PromoteTo(d16, b1)));
      hn::StoreU(hn::TruncateTo(d8, hn::ShiftRight<2>(hn::Add(sum, two))), d8, dst + x);  // at most 255
    }
    for (; x < width; ++x) {
      dst[x] = average ? static_cast<std::uint8_t>((top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + 2) >> 2) : bottom[2 * x + 1];
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ThresholdRows);
HWY_EXPORT(ToGrayRows);
HWY_EXPORT(ConvertDepthRows);
HWY_EXPORT(SumRows);
HWY_EXPORT(Downscale2xRows);
HWY_EXPORT(ExtremaRows);
HWY_EXPORT(IntegralRows);

void integral(ConstPlane in, U32Plane out) noexcept {
  if (in.width == 0 || in.height == 0 || in.width != out.width || in.height != out.height) return;
  HWY_DYNAMIC_DISPATCH(IntegralRows)(in, out);
}
HWY_EXPORT(LocateRows);

Extrema extrema(ConstPixels in) noexcept {
  if (in.width == 0 || in.height == 0) return {};
  return HWY_DYNAMIC_DISPATCH(ExtremaRows)(in);
}

std::size_t locate(ConstPixels in, std::int32_t value, PixelPosition* out, std::size_t capacity, PixelPosition from) noexcept {
  if (in.width == 0 || in.height == 0 || capacity == 0 || out == nullptr) return 0;
  if (from.x >= in.width) from = {0, from.y + 1};
  if (from.y >= in.height) return 0;
  const std::int32_t lowest = in.type == PixelType::u8 ? 0 : -32768, highest = in.type == PixelType::u8 ? 255 : 32767;
  if (value < lowest || value > highest) return 0;
  return HWY_DYNAMIC_DISPATCH(LocateRows)(in, value, out, capacity, from);
}

void downscale_2x(ConstPlane in, Plane out, bool average, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (out.width == 0 || rows.begin >= end || in.width < 2 * out.width || in.height < 2 * end) return;
  HWY_DYNAMIC_DISPATCH(Downscale2xRows)(in, out, average, rows.begin, end);
}

PixelSums pixel_sums(ConstPlane in) noexcept {
  if (in.width == 0 || in.height == 0) return {};
  return HWY_DYNAMIC_DISPATCH(SumRows)(in);
}

namespace {
// A 128-bit unsigned integer from two 64-bit halves: armhf has no __int128.
struct Wide {
  std::uint64_t high = 0, low = 0;
  static Wide product(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + (lo_hi & 0xffffffffu);
    return {hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32), (middle << 32) | (lo_lo & 0xffffffffu)};
  }
  Wide operator-(const Wide& other) const noexcept { return {high - other.high - (low < other.low ? 1u : 0u), low - other.low}; }
  double to_double() const noexcept { return std::ldexp(static_cast<double>(high), 64) + static_cast<double>(low); }
};
}  // namespace

MeanStdDev mean_stddev(PixelSums sums, std::uint64_t count) noexcept {
  if (count == 0) return {};
  // count * squares - sum^2 = count^2 * variance, exact in 128 bits.
  const double numerator = (Wide::product(count, sums.squares) - Wide::product(sums.sum, sums.sum)).to_double();
  const double n = static_cast<double>(count);
  return {static_cast<float>(static_cast<double>(sums.sum) / n), static_cast<float>(std::sqrt(numerator / n / n))};
}

bool convert_depth(ConstPixels in, Pixels out, int shift, Overflow overflow, Rows rows) noexcept {
  if (shift < 0 || shift > 7) return false;
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (in.width == 0 || rows.begin >= end) return (in.type == PixelType::u8) != (out.type == PixelType::u8);
  return HWY_DYNAMIC_DISPATCH(ConvertDepthRows)(in, out, shift, overflow, rows.begin, end);
}

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
