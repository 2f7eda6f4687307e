// YUV (every OpenVX layout) to packed RGB / RGBX (yuv_to_rgb.hpp). Compiled once per Highway target as
// filter3x3.cpp is, and with -ffp-contract=off (CMakeLists.txt): the formula's multiplications and
// additions stay separate roundings, as in the scalar definition, on every target.
//
// A row goes in chunks of up to 256 pixels: the chunk's chroma is first spread to one U and one V byte per
// pixel on the stack (vectors of NV12's pairs or 4:2:2's quads split, IYUV's rows loaded, and each byte
// stored twice; 4:2:2's lumas are split out too; YUV4's planes are read in place), then the vector loop
// reads luma, U and V as three byte rows, widens them to float lanes and stores three (or four)
// interleaved channels. YUYV and UYVY are read in place, their chroma lanes duplicated after widening (the
// scalar target, one lane a vector, spreads them as the other layouts).
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

/// The formula on one vector of pixels (luma, Cu, Cv as float lanes), stored as RGB or RGBX at @p o.
template <class DF>
HWY_INLINE void StoreRgb(DF df, const YuvToRgbFactors& f, hn::Vec<DF> yf, hn::Vec<DF> cu, hn::Vec<DF> cv, bool rgbx, std::uint8_t* o) {
  const hn::Rebind<std::int32_t, DF> di;
  const hn::Rebind<std::uint8_t, DF> d8;
  const auto half = hn::Set(df, 0.5f);
  const auto r = hn::Add(hn::Add(yf, hn::Mul(hn::Set(df, f.rv), cv)), half);
  const auto g = hn::Add(hn::Sub(hn::Sub(yf, hn::Mul(hn::Set(df, f.gu), cu)), hn::Mul(hn::Set(df, f.gv), cv)), half);
  const auto b = hn::Add(hn::Add(yf, hn::Mul(hn::Set(df, f.bu), cu)), half);
  // Truncation toward zero as the definition's cast, then the clamp to 0..255 (a saturating narrowing).
  const auto r8 = hn::DemoteTo(d8, hn::ConvertTo(di, r));
  const auto g8 = hn::DemoteTo(d8, hn::ConvertTo(di, g));
  const auto b8 = hn::DemoteTo(d8, hn::ConvertTo(di, b));
  if (rgbx) {
    hn::StoreInterleaved4(r8, g8, b8, hn::Set(d8, std::uint8_t{255}), d8, o);
  } else {
    hn::StoreInterleaved3(r8, g8, b8, d8, o);
  }
}

void YuvToRgbRows(const ConstYuvImage& in, Plane out, bool rgbx, const YuvToRgbFactors& f, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = in.width, channels = rgbx ? 4 : 3;
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df);
  const auto bias = hn::Set(df, 128.0f);
  const auto to_float = [&](std::uint8_t const* p) { return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, p))); };
  alignas(64) std::uint8_t y_buf[kChunk], u_buf[kChunk], v_buf[kChunk];
#if HWY_TARGET != HWY_SCALAR
  if (in.layout == YuvLayout::yuyv || in.layout == YuvLayout::uyvy) {
    // Read in place: each pixel's two bytes, one 16-bit lane widened to 32 bits (little-endian: the first
    // byte low), split into its luma and its chroma byte, U V U V along the row (the U of an even
    // pixel's quad, the V of an odd one's); those lanes' even ones duplicated give each pixel's U, the odd
    // ones its V. Vectors hold whole quads: lanes is even on every target but the scalar one.
    const bool yuyv = in.layout == YuvLayout::yuyv;
    const hn::Rebind<std::uint16_t, decltype(df)> du16;
    const hn::Rebind<std::uint32_t, decltype(df)> du32;
    const auto low_byte = hn::Set(du32, 0xFFu);
    for (std::uint32_t y = begin; y < end; ++y) {
      const std::uint8_t* src = in.data[0] + static_cast<std::ptrdiff_t>(y) * in.stride[0];
      std::uint8_t* dst = out.row(y);
      std::size_t x = 0;
      for (; x + lanes <= width; x += lanes) {
        const auto pair = hn::PromoteTo(du32, hn::LoadU(du16, reinterpret_cast<const std::uint16_t*>(src + 2 * x)));
        const auto first = hn::And(pair, low_byte), second = hn::ShiftRight<8>(pair);
        const auto yf = hn::ConvertTo(df, hn::BitCast(di, yuyv ? first : second));
        const auto chroma = hn::Sub(hn::ConvertTo(df, hn::BitCast(di, yuyv ? second : first)), bias);
        StoreRgb(df, f, yf, hn::DupEven(chroma), hn::DupOdd(chroma), rgbx, dst + x * channels);
      }
      const std::size_t y_at = yuyv ? 0 : 1, u_at = yuyv ? 1 : 0;
      for (; x < width; ++x) {
        std::uint8_t* o = dst + x * channels;
        detail::yuv_pixel(f, src[2 * x + y_at], src[x / 2 * 4 + u_at], src[x / 2 * 4 + u_at + 2], o);
        if (rgbx) o[3] = 255;
      }
    }
    return;
  }
#endif
  for (std::uint32_t y = begin; y < end; ++y) {
    std::uint8_t* dst = out.row(y);
    for (std::size_t start = 0; start < width; start += kChunk) {
      const std::size_t n = std::min(kChunk, width - start);
      const std::uint8_t *ys = nullptr, *us = nullptr, *vs = nullptr;
      SpreadRow(in, y, start, n, y_buf, u_buf, v_buf, ys, us, vs);
      std::size_t i = 0;
      for (; i + lanes <= n; i += lanes) {
        StoreRgb(df, f, to_float(ys + i), hn::Sub(to_float(us + i), bias), hn::Sub(to_float(vs + i), bias), rgbx, dst + (start + i) * channels);
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
