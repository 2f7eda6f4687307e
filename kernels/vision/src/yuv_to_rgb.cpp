// Semi-planar YUV 4:2:0 to packed RGB / RGBX (yuv_to_rgb.hpp). Compiled once per Highway target as
// filter3x3.cpp is, and with -ffp-contract=off (CMakeLists.txt): the formula's multiplications and
// additions stay separate roundings, as in the scalar definition, on every target.
//
// A row goes in chunks of up to 256 pixels: the chunk's chroma is first spread to one U and one V byte per
// pixel on the stack (vectors of pairs split and each byte stored twice), then the vector loop reads luma, U and V as three byte rows,
// widens them to float lanes and stores three (or four) interleaved channels.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "yuv_to_rgb.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "float_to_byte.hpp"
#include "visiongraph/kernels/vision/yuv_to_rgb.hpp"

#ifndef VG_VISION_YUV_TO_RGB_SCALAR
#define VG_VISION_YUV_TO_RGB_SCALAR
namespace vg::vision::detail {
/// One pixel, the definition itself (the vector code's remainder and reference).
inline void yuv_pixel(const YuvToRgbFactors& f, std::uint8_t y, std::uint8_t u, std::uint8_t v, std::uint8_t* rgb) noexcept {
  const float yf = y, cu = static_cast<float>(u) - 128.0f, cv = static_cast<float>(v) - 128.0f;
  rgb[0] = truncate_to_byte(yf + f.rv * cv + 0.5f);
  rgb[1] = truncate_to_byte(yf - f.gu * cu - f.gv * cv + 0.5f);
  rgb[2] = truncate_to_byte(yf + f.bu * cu + 0.5f);
}
}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kChunk = 256;

void YuvToRgbRows(const ConstSemiPlanar& in, Plane out, bool rgbx, const YuvToRgbFactors& f, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = in.luma.width, channels = rgbx ? 4 : 3;
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df);
  const hn::ScalableTag<std::uint8_t> d8full;
  const std::size_t lanes8 = hn::Lanes(d8full);
  const auto rv = hn::Set(df, f.rv), gu = hn::Set(df, f.gu), gv = hn::Set(df, f.gv), bu = hn::Set(df, f.bu);
  const auto half = hn::Set(df, 0.5f), bias = hn::Set(df, 128.0f);
  const auto opaque = hn::Set(d8, std::uint8_t{255});
  alignas(64) std::uint8_t us[kChunk], vs[kChunk];
  const std::size_t u_at = in.vu_order ? 1 : 0, v_at = 1 - u_at;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* luma = in.luma.row(y);
    const std::uint8_t* chroma = in.chroma + static_cast<std::ptrdiff_t>(y / 2) * in.chroma_stride;
    std::uint8_t* dst = out.row(y);
    for (std::size_t start = 0; start < width; start += kChunk) {
      const std::size_t n = std::min(kChunk, width - start);
      // Each chroma pair to two pixels: a vector of pairs split into U and V, each stored twice over.
      std::size_t i = 0;
      const std::uint8_t* pairs = chroma + start;  // start is even: chunk boundaries fall between pairs
      for (; 2 * i + 2 * lanes8 <= n; i += lanes8) {
        auto first = hn::Zero(d8full), second = hn::Zero(d8full);
        hn::LoadInterleaved2(d8full, pairs + 2 * i, first, second);
        const auto u = u_at == 0 ? first : second, v = u_at == 0 ? second : first;
        hn::StoreInterleaved2(u, u, d8full, us + 2 * i);
        hn::StoreInterleaved2(v, v, d8full, vs + 2 * i);
      }
      for (i *= 2; i < n; ++i) {
        const std::size_t pair = (i / 2) * 2;
        us[i] = pairs[pair + u_at];
        vs[i] = pairs[pair + v_at];
      }
      i = 0;
      for (; i + lanes <= n; i += lanes) {
        const auto yf = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, luma + start + i)));
        const auto cu = hn::Sub(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, us + i))), bias);
        const auto cv = hn::Sub(hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, vs + i))), bias);
        const auto r = hn::Add(hn::Add(yf, hn::Mul(rv, cv)), half);
        const auto g = hn::Add(hn::Sub(hn::Sub(yf, hn::Mul(gu, cu)), hn::Mul(gv, cv)), half);
        const auto b = hn::Add(hn::Add(yf, hn::Mul(bu, cu)), half);
        // Truncation toward zero as the definition's cast, then the clamp to 0..255 (a saturating narrowing).
        const auto r8 = hn::DemoteTo(d8, hn::ConvertTo(di, r));
        const auto g8 = hn::DemoteTo(d8, hn::ConvertTo(di, g));
        const auto b8 = hn::DemoteTo(d8, hn::ConvertTo(di, b));
        std::uint8_t* o = dst + (start + i) * channels;
        if (rgbx) {
          hn::StoreInterleaved4(r8, g8, b8, opaque, d8, o);
        } else {
          hn::StoreInterleaved3(r8, g8, b8, d8, o);
        }
      }
      for (; i < n; ++i) {
        std::uint8_t* o = dst + (start + i) * channels;
        detail::yuv_pixel(f, luma[start + i], us[i], vs[i], o);
        if (rgbx) o[3] = 255;
      }
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

YuvToRgbFactors YuvToRgbFactors::of(float kr, float kb) noexcept {
  const float kg = 1.0f - kr - kb;
  YuvToRgbFactors f;
  f.rv = 2.0f * (1.0f - kr);
  f.bu = 2.0f * (1.0f - kb);
  f.gu = kb * f.bu / kg;
  f.gv = kr * f.rv / kg;
  return f;
}

HWY_EXPORT(YuvToRgbRows);

void yuv420sp_to_rgb(const ConstSemiPlanar& in, Plane out, bool rgbx, const YuvToRgbFactors& f, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, std::min(in.luma.height, out.height));
  if (in.luma.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(YuvToRgbRows)(in, out, rgbx, f, rows.begin, end);
}

}  // namespace vg::vision
#endif
