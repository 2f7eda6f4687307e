// Packed RGB / RGBX to YUV 4:2:0 and 4:4:4 (rgb_to_yuv.hpp). Compiled once per Highway target as filter3x3.cpp is, and
// with -ffp-contract=off (CMakeLists.txt) so that every product and sum is rounded as the definition's.
//
// Two rows at a time, in chunks of up to 256 pixels: the vector loop computes each pixel's Y (stored) and
// its clamped U and V (kept on the stack for both rows), then each 2x2 block's chroma is averaged, also a
// vector at a time. 4:4:4 stores each pixel's three values straight into the planes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "rgb_to_yuv.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "float_to_byte.hpp"
#include "visiongraph/kernels/vision/rgb_to_yuv.hpp"

#ifndef VG_VISION_RGB_TO_YUV_SCALAR
#define VG_VISION_RGB_TO_YUV_SCALAR
namespace vg::vision::detail {
/// One pixel, the definition itself (the vector code's remainder).
inline void rgb_pixel(const RgbToYuvFactors& f, const std::uint8_t* p, std::uint8_t& y, std::uint8_t& u, std::uint8_t& v) noexcept {
  const float r = p[0], g = p[1], b = p[2];
  y = truncate_to_byte(r * f.kr + g * f.kg + b * f.kb + 0.5f);
  u = truncate_to_byte(r * f.ur + g * f.ug + b * f.ub + 128.5f);
  v = truncate_to_byte(r * f.vr + g * f.vg + b * f.vb + 128.5f);
}
}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kChunk = 256;

/// Pixels [0, n) of @p src (@p n_ch bytes each) to their Y, U and V, each clamped, into three byte rows.
HWY_INLINE void RgbSpanToYuv(const RgbToYuvFactors& f, const std::uint8_t* src, std::size_t n_ch, std::size_t n, std::uint8_t* y_out,
                             std::uint8_t* u_out, std::uint8_t* v_out) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df);
  const auto kr = hn::Set(df, f.kr), kg = hn::Set(df, f.kg), kb = hn::Set(df, f.kb);
  const auto ur = hn::Set(df, f.ur), ug = hn::Set(df, f.ug), ub = hn::Set(df, f.ub);
  const auto vr = hn::Set(df, f.vr), vg = hn::Set(df, f.vg), vb = hn::Set(df, f.vb);
  const auto half = hn::Set(df, 0.5f), chroma_bias = hn::Set(df, 128.5f);
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    auto c0 = hn::Zero(d8), c1 = hn::Zero(d8), c2 = hn::Zero(d8), c3 = hn::Zero(d8);
    if (n_ch == 4) {
      hn::LoadInterleaved4(d8, src + i * 4, c0, c1, c2, c3);
    } else {
      hn::LoadInterleaved3(d8, src + i * 3, c0, c1, c2);
    }
    const auto rf = hn::ConvertTo(df, hn::PromoteTo(di, c0));
    const auto gf = hn::ConvertTo(df, hn::PromoteTo(di, c1));
    const auto bf = hn::ConvertTo(df, hn::PromoteTo(di, c2));
    const auto yv = hn::Add(hn::Add(hn::Add(hn::Mul(rf, kr), hn::Mul(gf, kg)), hn::Mul(bf, kb)), half);
    const auto uv = hn::Add(hn::Add(hn::Add(hn::Mul(rf, ur), hn::Mul(gf, ug)), hn::Mul(bf, ub)), chroma_bias);
    const auto vv = hn::Add(hn::Add(hn::Add(hn::Mul(rf, vr), hn::Mul(gf, vg)), hn::Mul(bf, vb)), chroma_bias);
    // Truncation toward zero, then the clamp to 0..255 (the saturating narrowing).
    hn::StoreU(hn::DemoteTo(d8, hn::ConvertTo(di, yv)), d8, y_out + i);
    hn::StoreU(hn::DemoteTo(d8, hn::ConvertTo(di, uv)), d8, u_out + i);
    hn::StoreU(hn::DemoteTo(d8, hn::ConvertTo(di, vv)), d8, v_out + i);
  }
  for (; i < n; ++i) detail::rgb_pixel(f, src + i * n_ch, y_out[i], u_out[i], v_out[i]);
}

void RgbToYuvRows(ConstPlane in, int channels, const Yuv420Out& out, const RgbToYuvFactors& f, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = out.luma.width, n_ch = static_cast<std::size_t>(channels);
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8h;
  const std::size_t lanes16 = hn::Lanes(d16);
  alignas(64) std::uint8_t us[2][kChunk], vs[2][kChunk];
  const bool interleaved = out.uv.data != nullptr;
  for (std::uint32_t y = begin & ~1u; y < end; y += 2) {
    for (std::size_t start = 0; start < width; start += kChunk) {
      const std::size_t n = std::min(kChunk, width - start);
      for (std::uint32_t r = 0; r < 2; ++r) {
        RgbSpanToYuv(f, in.row(y + r) + start * n_ch, n_ch, n, out.luma.row(y + r) + start, us[r], vs[r]);
      }
      // Each 2x2 block's chroma: the truncated mean of its four clamped values, a vector of blocks at a time
      // (even and odd columns split as they are loaded, summed in 16-bit lanes).
      const std::uint32_t cy = y / 2;
      std::uint8_t* uv_row = interleaved ? out.uv.row(cy) : nullptr;
      std::size_t i = 0;
      for (; i + 2 * lanes16 <= n; i += 2 * lanes16) {
        auto mean = [&](const std::uint8_t* top, const std::uint8_t* bottom) {
          auto e0 = hn::Zero(d8h), o0 = hn::Zero(d8h), e1 = hn::Zero(d8h), o1 = hn::Zero(d8h);
          hn::LoadInterleaved2(d8h, top, e0, o0);
          hn::LoadInterleaved2(d8h, bottom, e1, o1);
          const auto sum = hn::Add(hn::Add(hn::PromoteTo(d16, e0), hn::PromoteTo(d16, o0)), hn::Add(hn::PromoteTo(d16, e1), hn::PromoteTo(d16, o1)));
          return hn::TruncateTo(d8h, hn::ShiftRight<2>(sum));
        };
        const auto u = mean(us[0] + i, us[1] + i), v = mean(vs[0] + i, vs[1] + i);
        const std::size_t cx = (start + i) / 2;
        if (interleaved) {
          if (out.vu_order) {
            hn::StoreInterleaved2(v, u, d8h, uv_row + 2 * cx);
          } else {
            hn::StoreInterleaved2(u, v, d8h, uv_row + 2 * cx);
          }
        } else {
          hn::StoreU(u, d8h, out.u.row(cy) + cx);
          hn::StoreU(v, d8h, out.v.row(cy) + cx);
        }
      }
      for (; i + 1 < n; i += 2) {
        const auto u = static_cast<std::uint8_t>((us[0][i] + us[0][i + 1] + us[1][i] + us[1][i + 1]) / 4);
        const auto v = static_cast<std::uint8_t>((vs[0][i] + vs[0][i + 1] + vs[1][i] + vs[1][i + 1]) / 4);
        const std::size_t cx = (start + i) / 2;
        if (interleaved) {
          std::uint8_t* pair = out.uv.row(cy) + 2 * cx;
          pair[out.vu_order ? 1 : 0] = u;
          pair[out.vu_order ? 0 : 1] = v;
        } else {
          out.u.row(cy)[cx] = u;
          out.v.row(cy)[cx] = v;
        }
      }
    }
  }
}

void RgbToYuv444Rows(ConstPlane in, int channels, const YuvImage& out, const RgbToYuvFactors& f, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = out.width, n_ch = static_cast<std::size_t>(channels);
  for (std::uint32_t y = begin; y < end; ++y) {
    const auto plane_row = [&](int p) { return out.data[p] + static_cast<std::ptrdiff_t>(y) * out.stride[p]; };
    RgbSpanToYuv(f, in.row(y), n_ch, width, plane_row(0), plane_row(1), plane_row(2));
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

RgbToYuvFactors RgbToYuvFactors::of(float kr, float kb) noexcept {
  RgbToYuvFactors f;
  f.kr = kr;
  f.kb = kb;
  f.kg = 1.0f - kr - kb;
  f.ub = 0.5f;
  f.ur = -0.5f * kr / (1.0f - kb);
  f.ug = -0.5f * f.kg / (1.0f - kb);
  f.vr = 0.5f;
  f.vg = -0.5f * f.kg / (1.0f - kr);
  f.vb = -0.5f * kb / (1.0f - kr);
  return f;
}

HWY_EXPORT(RgbToYuvRows);
HWY_EXPORT(RgbToYuv444Rows);

void rgb_to_yuv420(ConstPlane in, int channels, const Yuv420Out& out, const RgbToYuvFactors& f, Rows rows) noexcept {
  const std::uint32_t height = out.luma.height & ~1u;
  const std::uint32_t end = std::min((rows.end == UINT32_MAX ? height : (rows.end + 1) & ~1u), height);
  if ((channels != 3 && channels != 4) || out.luma.width < 2 || (rows.begin & ~1u) >= end) return;
  HWY_DYNAMIC_DISPATCH(RgbToYuvRows)(in, channels, out, f, rows.begin, end);
}

void rgb_to_yuv(ConstPlane in, int channels, const YuvImage& out, const RgbToYuvFactors& f, Rows rows) noexcept {
  const auto plane = [&](int p, std::uint32_t w, std::uint32_t h) { return Plane{out.data[p], w, h, out.stride[p]}; };
  switch (out.layout) {
    case YuvLayout::nv12:
    case YuvLayout::nv21:
    case YuvLayout::iyuv: {
      Yuv420Out yuv;
      yuv.luma = plane(0, out.width, out.height);
      if (out.layout == YuvLayout::iyuv) {
        yuv.u = plane(1, out.width / 2, out.height / 2);
        yuv.v = plane(2, out.width / 2, out.height / 2);
      } else {
        yuv.uv = plane(1, out.width, out.height / 2);
        yuv.vu_order = out.layout == YuvLayout::nv21;
      }
      rgb_to_yuv420(in, channels, yuv, f, rows);
      return;
    }
    case YuvLayout::yuv4: {
      const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
      if ((channels != 3 && channels != 4) || out.width == 0 || rows.begin >= end) return;
      HWY_DYNAMIC_DISPATCH(RgbToYuv444Rows)(in, channels, out, f, rows.begin, end);
      return;
    }
    default: return;
  }
}

}  // namespace vg::vision
#endif
