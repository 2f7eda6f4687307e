// Local binary patterns (lbp.hpp). Compiled once per Highway target as filter3x3.cpp is: each of the eight
// neighbours is one shifted load of the row it lies on, compared with the centre (or the modified form's
// mean, in 16-bit lanes) a vector at a time; the pixels whose window leaves the image go one at a time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "lbp.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/lbp.hpp"

#ifndef VG_VISION_LBP_ONCE
#define VG_VISION_LBP_ONCE
namespace vg::vision::lbp_detail {

/// The pattern of pixel (x, y), every read clamped into the image.
inline std::uint8_t pattern_at(ConstPlane in, LbpFormat format, int size, int x, int y) noexcept {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  return lbp_pattern([&](int yy, int xx) { return int{in.row(static_cast<std::uint32_t>(std::clamp(yy, 0, h - 1)))[std::clamp(xx, 0, w - 1)]}; },
                     format, size, x, y);
}

}  // namespace vg::vision::lbp_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using lbp_detail::Offset;

// The modified form: the eight neighbours' mean needs 16-bit lanes, so its vectors are of 16-bit lanes.
void modified_row(const std::uint8_t* const* p, std::uint8_t* o, std::uint32_t x_begin, std::uint32_t x_end) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::uint32_t lanes = static_cast<std::uint32_t>(hn::Lanes(d16));
  for (std::uint32_t x = x_begin;; x += lanes) {
    const std::uint32_t at = std::min(x, x_end - lanes);
    auto sum = hn::Set(d16, std::uint16_t{1});
    for (int k = 0; k < 8; ++k) sum = hn::Add(sum, hn::PromoteTo(d16, hn::LoadU(d8, p[k] + at)));
    const auto mean = hn::ShiftRight<3>(sum);
    auto bits = hn::Zero(d16);
    for (int k = 0; k < 8; ++k) {
      const auto g = hn::PromoteTo(d16, hn::LoadU(d8, p[k] + at));
      bits = hn::Or(bits, hn::IfThenElseZero(hn::Gt(g, mean), hn::Set(d16, static_cast<std::uint16_t>(1u << k))));
    }
    hn::StoreU(hn::TruncateTo(d8, bits), d8, o + at);  // bits fit a byte
    if (at + lanes >= x_end) break;
  }
}

// LBP and its uniform form in byte lanes.
void binary_row(const std::uint8_t* const* p, const std::uint8_t* centre, std::uint8_t* o, bool uniform, std::uint32_t x_begin,
                std::uint32_t x_end) {
  const hn::ScalableTag<std::uint8_t> d8;
  const std::uint32_t lanes = static_cast<std::uint32_t>(hn::Lanes(d8));
  const auto two = hn::Set(d8, std::uint8_t{2}), nine = hn::Set(d8, std::uint8_t{9});
  for (std::uint32_t x = x_begin;; x += lanes) {
    const std::uint32_t at = std::min(x, x_end - lanes);
    const auto c = hn::LoadU(d8, centre + at);
    auto bits = hn::Zero(d8);
    for (int k = 0; k < 8; ++k) {
      const auto g = hn::LoadU(d8, p[k] + at);
      // g >= c, unsigned: max(g, c) == g.
      bits = hn::Or(bits, hn::IfThenElseZero(hn::Eq(hn::Max(g, c), g), hn::Set(d8, static_cast<std::uint8_t>(1u << k))));
    }
    if (uniform) {
      // Bit 7 to bit 0, then each bit to the next: more than two changes is not uniform.
      const auto rotated = hn::Or(hn::ShiftLeft<1>(bits), hn::ShiftRight<7>(bits));
      bits = hn::IfThenElse(hn::Gt(hn::PopulationCount(hn::Xor(bits, rotated)), two), nine, bits);
    }
    hn::StoreU(bits, d8, o + at);
    if (at + lanes >= x_end) break;
  }
}

void LbpRows(ConstPlane in, Plane out, LbpFormat format, int size, std::uint32_t begin, std::uint32_t end) {
  const Offset* n = lbp_detail::neighbours_of(format, size);
  const std::uint32_t r = static_cast<std::uint32_t>(size / 2);
  const std::uint32_t w = in.width, h = in.height;
  const std::uint32_t lanes = static_cast<std::uint32_t>(format == LbpFormat::modified ? hn::Lanes(hn::ScalableTag<std::uint16_t>())
                                                                                      : hn::Lanes(hn::ScalableTag<std::uint8_t>()));
  for (std::uint32_t y = begin; y < end; ++y) {
    std::uint8_t* o = out.row(y);
    std::uint32_t x_begin = 0, x_end = 0;  // the columns the vectors write
    if (y >= r && y + r < h && w >= 2 * r + lanes) {
      const std::uint8_t* p[8];
      for (int k = 0; k < 8; ++k) p[k] = in.row(static_cast<std::uint32_t>(static_cast<int>(y) + n[k].dy)) + n[k].dx;
      x_begin = r;
      x_end = w - r;
      if (format == LbpFormat::modified) modified_row(p, o, x_begin, x_end);
      else binary_row(p, in.row(y), o, format == LbpFormat::uniform, x_begin, x_end);
    }
    for (std::uint32_t x = 0; x < w; ++x) {
      if (x == x_begin && x_end > x_begin) x = x_end;
      if (x >= w) break;
      o[x] = lbp_detail::pattern_at(in, format, size, static_cast<int>(x), static_cast<int>(y));
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(LbpRows);

bool local_binary_pattern(ConstPlane in, Plane out, LbpFormat format, int kernel_size, Rows rows) noexcept {
  if ((kernel_size != 3 && kernel_size != 5) || (format == LbpFormat::modified && kernel_size != 5) || in.width != out.width ||
      in.height != out.height) {
    return false;
  }
  const std::uint32_t end = std::min(rows.end, out.height);
  if (in.width > 0 && rows.begin < end) HWY_DYNAMIC_DISPATCH(LbpRows)(in, out, format, kernel_size, rows.begin, end);
  return true;
}

}  // namespace vg::vision
#endif
