// YUV (every OpenVX layout) to packed RGB / RGBX (yuv_to_rgb.hpp). Compiled once per Highway target as
// filter3x3.cpp is, and with -ffp-contract=off (CMakeLists.txt): the formula's multiplications and
// additions stay separate roundings, as in the scalar definition, on every target.
//
// A row goes in chunks of up to 256 pixels: the chunk's chroma is first spread to one U and one V byte per
// pixel on the stack (vectors of NV12's pairs or 4:2:2's quads split, IYUV's rows loaded, and each byte
// stored twice; 4:2:2's lumas are split out too; YUV4's planes are read in place), then the vector loop
// reads luma, U and V as three byte rows, widens them to float lanes and stores three (or four)
// interleaved channels.
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

/// Pixels [start, start + n) of row @p y as three byte rows: @p ys, @p us, @p vs point at each pixel's Y,
/// U and V, in the image where it holds them so (luma planes, 4:4:4 chroma) or in the buffers.
void SpreadRow(const ConstYuvImage& in, std::uint32_t y, std::size_t start, std::size_t n, std::uint8_t* y_buf, std::uint8_t* u_buf,
               std::uint8_t* v_buf, const std::uint8_t*& ys, const std::uint8_t*& us, const std::uint8_t*& vs) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  ys = in.data[0] + static_cast<std::ptrdiff_t>(y) * in.stride[0] + start;
  us = u_buf;
  vs = v_buf;
  std::size_t i = 0;  // pixel pairs done
  switch (in.layout) {
    case YuvLayout::nv12:
    case YuvLayout::nv21: {
      // Each chroma pair to two pixels: a vector of pairs split into U and V, each stored twice over.
      const std::uint8_t* pairs = in.data[1] + static_cast<std::ptrdiff_t>(y / 2) * in.stride[1] + start;  // start is even
      const std::size_t u_at = in.layout == YuvLayout::nv21 ? 1 : 0;
      for (; 2 * i + 2 * lanes <= n; i += lanes) {
        auto first = hn::Zero(d), second = hn::Zero(d);
        hn::LoadInterleaved2(d, pairs + 2 * i, first, second);
        const auto u = u_at == 0 ? first : second, v = u_at == 0 ? second : first;
        hn::StoreInterleaved2(u, u, d, u_buf + 2 * i);
        hn::StoreInterleaved2(v, v, d, v_buf + 2 * i);
      }
      for (i *= 2; i < n; ++i) {
        u_buf[i] = pairs[i / 2 * 2 + u_at];
        v_buf[i] = pairs[i / 2 * 2 + 1 - u_at];
      }
      break;
    }
    case YuvLayout::iyuv: {
      const std::uint8_t* u_row = in.data[1] + static_cast<std::ptrdiff_t>(y / 2) * in.stride[1] + start / 2;
      const std::uint8_t* v_row = in.data[2] + static_cast<std::ptrdiff_t>(y / 2) * in.stride[2] + start / 2;
      for (; 2 * i + 2 * lanes <= n; i += lanes) {
        const auto u = hn::LoadU(d, u_row + i), v = hn::LoadU(d, v_row + i);
        hn::StoreInterleaved2(u, u, d, u_buf + 2 * i);
        hn::StoreInterleaved2(v, v, d, v_buf + 2 * i);
      }
      for (i *= 2; i < n; ++i) {
        u_buf[i] = u_row[i / 2];
        v_buf[i] = v_row[i / 2];
      }
      break;
    }
    case YuvLayout::yuv4:
      us = in.data[1] + static_cast<std::ptrdiff_t>(y) * in.stride[1] + start;
      vs = in.data[2] + static_cast<std::ptrdiff_t>(y) * in.stride[2] + start;
      break;
    case YuvLayout::yuyv:
    case YuvLayout::uyvy: {
      // Each quad (two pixels) split into its two lumas and one U and V, each of those stored twice over.
      const std::uint8_t* quads = in.data[0] + static_cast<std::ptrdiff_t>(y) * in.stride[0] + 2 * start;
      const bool yuyv = in.layout == YuvLayout::yuyv;
      ys = y_buf;
      for (; 2 * i + 2 * lanes <= n; i += lanes) {
        auto b0 = hn::Zero(d), b1 = hn::Zero(d), b2 = hn::Zero(d), b3 = hn::Zero(d);
        hn::LoadInterleaved4(d, quads + 4 * i, b0, b1, b2, b3);
        const auto u = yuyv ? b1 : b0, v = yuyv ? b3 : b2;
        if (yuyv) {
          hn::StoreInterleaved2(b0, b2, d, y_buf + 2 * i);
        } else {
          hn::StoreInterleaved2(b1, b3, d, y_buf + 2 * i);
        }
        hn::StoreInterleaved2(u, u, d, u_buf + 2 * i);
        hn::StoreInterleaved2(v, v, d, v_buf + 2 * i);
      }
      const std::size_t y_at = yuyv ? 0 : 1, u_at = yuyv ? 1 : 0;
      for (i *= 2; i < n; ++i) {
        y_buf[i] = quads[2 * i + y_at];
        u_buf[i] = quads[i / 2 * 4 + u_at];
        v_buf[i] = quads[i / 2 * 4 + u_at + 2];
      }
      break;
    }
  }
}

void YuvToRgbRows(const ConstYuvImage& in, Plane out, bool rgbx, const YuvToRgbFactors& f, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = in.width, channels = rgbx ? 4 : 3;
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df);
  const auto rv = hn::Set(df, f.rv), gu = hn::Set(df, f.gu), gv = hn::Set(df, f.gv), bu = hn::Set(df, f.bu);
  const auto half = hn::Set(df, 0.5f), bias = hn::Set(df, 128.0f);
  const auto opaque = hn::Set(d8, std::uint8_t{255});
  alignas(64) std::uint8_t y_buf[kChunk], u_buf[kChunk], v_buf[kChunk];
  for (std::uint32_t y = begin; y < end; ++y) {
    std::uint8_t* dst = out.row(y);
    for (std::size_t start = 0; start < width; start += kChunk) {
      const std::size_t n = std::min(kChunk, width - start);
      const std::uint8_t *ys = nullptr, *us = nullptr, *vs = nullptr;
      SpreadRow(in, y, start, n, y_buf, u_buf, v_buf, ys, us, vs);
      std::size_t i = 0;
      for (; i + lanes <= n; i += lanes) {
        const auto yf = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, ys + i)));
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
        detail::yuv_pixel(f, ys[i], us[i], vs[i], o);
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

void yuv_to_rgb(const ConstYuvImage& in, Plane out, bool rgbx, const YuvToRgbFactors& f, Rows rows) noexcept {
  const bool interleaved_422 = in.layout == YuvLayout::yuyv || in.layout == YuvLayout::uyvy;
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (in.width == 0 || rows.begin >= end || (interleaved_422 && in.width % 2 != 0)) return;
  HWY_DYNAMIC_DISPATCH(YuvToRgbRows)(in, out, rgbx, f, rows.begin, end);
}

void yuv420sp_to_rgb(const ConstSemiPlanar& in, Plane out, bool rgbx, const YuvToRgbFactors& f, Rows rows) noexcept {
  const ConstYuvImage yuv{in.vu_order ? YuvLayout::nv21 : YuvLayout::nv12, in.luma.width, in.luma.height, {in.luma.data, in.chroma, nullptr},
                          {in.luma.stride, in.chroma_stride, 0}};
  yuv_to_rgb(yuv, out, rgbx, f, rows);
}
}  // namespace vg::vision
#endif
