// NonMaxSuppression (non_max_suppression.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// A vector of centres at a time: each window offset is one shifted load compared with the centres (>= before
// the centre in raster order, > after it), a masked neighbour passing whatever it holds; the window stops
// early once no lane can be kept. With a mask, its bytes are loaded beside the pixels (widened for S16).
// Rows narrower than a vector go one pixel at a time (suppression_keeps).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "non_max_suppression.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "visiongraph/kernels/vision/non_max_suppression.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
void suppress_rows(ConstPixels in, SuppressionMask mask, Pixels out, int radius, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<T> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const std::size_t lanes = hn::Lanes(d);
  const auto w = static_cast<std::ptrdiff_t>(in.width);
  const auto r = static_cast<std::ptrdiff_t>(radius);
  const bool has_mask = mask.data != nullptr;
  const auto lowest = hn::Set(d, std::numeric_limits<T>::min());
  // The mask's bytes as lanes of T: non-zero is masked.
  auto masked_lanes = [&](const std::uint8_t* bytes) {
    if constexpr (sizeof(T) == 1) {
      return hn::Ne(hn::LoadU(d, reinterpret_cast<const T*>(bytes)), hn::Zero(d));
    } else {
      const hn::Rebind<std::uint16_t, decltype(d)> du;
      return hn::RebindMask(d, hn::Ne(hn::PromoteTo(du, hn::LoadU(d8, bytes)), hn::Zero(du)));
    }
  };
  for (std::uint32_t y = begin; y < end; ++y) {
    const T* centre_row = in.row<T>(y);
    T* dst = out.row<T>(y);
    const std::ptrdiff_t first = r, last = w - r;  // computed columns [first, last)
    if (last - first < static_cast<std::ptrdiff_t>(lanes)) {
      auto at = [&](int xx, int yy) { return in.row<T>(static_cast<std::uint32_t>(yy))[xx]; };
      auto masked = [&](int xx, int yy) { return has_mask && mask.data[yy * mask.stride + xx] != 0; };
      for (std::ptrdiff_t x = first; x < last; ++x) {
        const int xi = static_cast<int>(x), yi = static_cast<int>(y);
        dst[x] = suppression_keeps<T>(at, masked, xi, yi, radius) ? centre_row[x] : std::numeric_limits<T>::min();
      }
      continue;
    }
    for (std::ptrdiff_t x = first;; x += static_cast<std::ptrdiff_t>(lanes)) {
      const std::ptrdiff_t at = std::min(x, last - static_cast<std::ptrdiff_t>(lanes));
      const auto v = hn::LoadU(d, centre_row + at);
      auto keep = hn::FirstN(d, lanes);  // all true
      for (std::ptrdiff_t j = -r; j <= r; ++j) {
        const T* row = in.row<T>(static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(y) + j));
        const std::uint8_t* mask_row = has_mask ? mask.data + (static_cast<std::ptrdiff_t>(y) + j) * mask.stride : nullptr;
        for (std::ptrdiff_t i = -r; i <= r; ++i) {
          const auto n = hn::LoadU(d, row + at + i);
          const bool before = j < 0 || (j == 0 && i <= 0);
          auto passes = before ? hn::Not(hn::Gt(n, v)) : hn::Gt(v, n);  // v >= n before the centre, v > n after
          if (has_mask) passes = hn::Or(passes, masked_lanes(mask_row + at + i));
          keep = hn::And(keep, passes);
        }
        if (!has_mask && hn::AllFalse(d, keep)) break;  // (with a mask, masked centres are kept below)
      }
      if (has_mask) keep = hn::Or(keep, masked_lanes(mask.data + static_cast<std::ptrdiff_t>(y) * mask.stride + at));
      hn::StoreU(hn::IfThenElse(keep, v, lowest), d, dst + at);
      if (at + static_cast<std::ptrdiff_t>(lanes) >= last) break;
    }
  }
}

void SuppressRows(ConstPixels in, SuppressionMask mask, Pixels out, int radius, std::uint32_t begin, std::uint32_t end) {
  if (in.type == PixelType::u8) return suppress_rows<std::uint8_t>(in, mask, out, radius, begin, end);
  return suppress_rows<std::int16_t>(in, mask, out, radius, begin, end);
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(SuppressRows);

bool non_max_suppression(ConstPixels in, SuppressionMask mask, Pixels out, int window, Rows rows) noexcept {
  if (window < 1 || window % 2 == 0 || static_cast<std::uint32_t>(window) > std::min(in.width, in.height) || in.width != out.width ||
      in.height != out.height || in.type != out.type) {
    return false;
  }
  const std::uint32_t radius = static_cast<std::uint32_t>(window / 2);
  const std::uint32_t begin = std::max(rows.begin, radius), end = std::min(rows.end, in.height - radius);
  if (begin < end) HWY_DYNAMIC_DISPATCH(SuppressRows)(in, mask, out, static_cast<int>(radius), begin, end);
  return true;
}

}  // namespace vg::vision
#endif
