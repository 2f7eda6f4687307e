// YUV layouts to YUV layouts, and RGB to RGBX and back (color_layout.hpp). Compiled once per Highway target
// as filter3x3.cpp is.
//
// A YUV row goes in chunks of up to 256 chroma samples: the input's chroma row is read into a U and a V
// row (split out of pairs or 4:2:2 quads; IYUV's planes are read in place), 4:2:2 to 4:2:0 takes the next
// row's too and keeps the floor means, then the samples are written in the output's layout: interleaved,
// planar, or each one twice (4:4:4). The luma is a row copy, or taken out of 4:2:2's pairs.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "color_layout.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "visiongraph/kernels/vision/color_layout.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t kChunk = 256;

inline bool IsInterleaved422(YuvLayout layout) { return layout == YuvLayout::yuyv || layout == YuvLayout::uyvy; }

/// Pixel row @p y's luma into @p dst.
void CopyLuma(const ConstYuvImage& in, std::uint32_t y, std::uint8_t* dst) {
  const std::size_t width = in.width;
  const std::uint8_t* src = in.data[0] + static_cast<std::ptrdiff_t>(y) * in.stride[0];
  if (!IsInterleaved422(in.layout)) {
    std::memcpy(dst, src, width);
    return;
  }
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), y_at = in.layout == YuvLayout::yuyv ? 0 : 1;
  std::size_t x = 0;
  for (; x + lanes <= width; x += lanes) {
    auto even = hn::Zero(d), odd = hn::Zero(d);
    hn::LoadInterleaved2(d, src + 2 * x, even, odd);
    hn::StoreU(y_at == 0 ? even : odd, d, dst + x);
  }
  for (; x < width; ++x) dst[x] = src[2 * x + y_at];
}

/// Chroma samples [c0, c0 + m) of the input's chroma row @p row (a 4:2:0 chroma row, a 4:2:2 pixel row):
/// @p u and @p v point at them, in @p u_buf / @p v_buf or in the image.
void ReadChroma(const ConstYuvImage& in, std::uint32_t row, std::size_t c0, std::size_t m, std::uint8_t* u_buf, std::uint8_t* v_buf,
                const std::uint8_t*& u, const std::uint8_t*& v) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  u = u_buf;
  v = v_buf;
  std::size_t i = 0;
  switch (in.layout) {
    case YuvLayout::nv12:
    case YuvLayout::nv21: {
      const std::uint8_t* pairs = in.data[1] + static_cast<std::ptrdiff_t>(row) * in.stride[1] + 2 * c0;
      const std::size_t u_at = in.layout == YuvLayout::nv21 ? 1 : 0;
      for (; i + lanes <= m; i += lanes) {
        auto first = hn::Zero(d), second = hn::Zero(d);
        hn::LoadInterleaved2(d, pairs + 2 * i, first, second);
        hn::StoreU(u_at == 0 ? first : second, d, u_buf + i);
        hn::StoreU(u_at == 0 ? second : first, d, v_buf + i);
      }
      for (; i < m; ++i) {
        u_buf[i] = pairs[2 * i + u_at];
        v_buf[i] = pairs[2 * i + 1 - u_at];
      }
      break;
    }
    case YuvLayout::iyuv:
    case YuvLayout::yuv4:
      u = in.data[1] + static_cast<std::ptrdiff_t>(row) * in.stride[1] + c0;
      v = in.data[2] + static_cast<std::ptrdiff_t>(row) * in.stride[2] + c0;
      break;
    case YuvLayout::yuyv:
    case YuvLayout::uyvy: {
      const std::uint8_t* quads = in.data[0] + static_cast<std::ptrdiff_t>(row) * in.stride[0] + 4 * c0;
      const bool yuyv = in.layout == YuvLayout::yuyv;
      for (; i + lanes <= m; i += lanes) {
        auto b0 = hn::Zero(d), b1 = hn::Zero(d), b2 = hn::Zero(d), b3 = hn::Zero(d);
        hn::LoadInterleaved4(d, quads + 4 * i, b0, b1, b2, b3);
        hn::StoreU(yuyv ? b1 : b0, d, u_buf + i);
        hn::StoreU(yuyv ? b3 : b2, d, v_buf + i);
      }
      const std::size_t u_at = yuyv ? 1 : 0;
      for (; i < m; ++i) {
        u_buf[i] = quads[4 * i + u_at];
        v_buf[i] = quads[4 * i + u_at + 2];
      }
      break;
    }
  }
}

/// a = (a + b) / 2 rounded down, @p m bytes.
void FloorMean(std::uint8_t* a, const std::uint8_t* b, std::size_t m) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + lanes <= m; i += lanes) {
    const auto x = hn::LoadU(d, a + i), y = hn::LoadU(d, b + i);
    // x + y = 2 (x & y) + (x ^ y), halved without overflowing a byte. (Not AverageRound: it rounds up, and
    // Highway 1.0.3's SVE (not SVE2) version wraps 8-bit sums.)
    hn::StoreU(hn::Add(hn::And(x, y), hn::ShiftRight<1>(hn::Xor(x, y))), d, a + i);
  }
  for (; i < m; ++i) a[i] = static_cast<std::uint8_t>((a[i] + b[i]) >> 1);
}

/// Chroma samples [c0, c0 + m) into the output's chroma row @p row in its layout (4:4:4: each sample to
/// two pixels, up to the image's width).
void WriteChroma(const YuvImage& out, std::uint32_t row, std::size_t c0, std::size_t m, const std::uint8_t* u, const std::uint8_t* v) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  switch (out.layout) {
    case YuvLayout::nv12:
    case YuvLayout::nv21: {
      std::uint8_t* pairs = out.data[1] + static_cast<std::ptrdiff_t>(row) * out.stride[1] + 2 * c0;
      const bool vu = out.layout == YuvLayout::nv21;
      for (; i + lanes <= m; i += lanes) {
        const auto uv = hn::LoadU(d, u + i), vv = hn::LoadU(d, v + i);
        if (vu) {
          hn::StoreInterleaved2(vv, uv, d, pairs + 2 * i);
        } else {
          hn::StoreInterleaved2(uv, vv, d, pairs + 2 * i);
        }
      }
      for (; i < m; ++i) {
        pairs[2 * i + (vu ? 1 : 0)] = u[i];
        pairs[2 * i + (vu ? 0 : 1)] = v[i];
      }
      break;
    }
    case YuvLayout::iyuv:
      std::memcpy(out.data[1] + static_cast<std::ptrdiff_t>(row) * out.stride[1] + c0, u, m);
      std::memcpy(out.data[2] + static_cast<std::ptrdiff_t>(row) * out.stride[2] + c0, v, m);
      break;
    case YuvLayout::yuv4: {
      std::uint8_t* u_row = out.data[1] + static_cast<std::ptrdiff_t>(row) * out.stride[1] + 2 * c0;
      std::uint8_t* v_row = out.data[2] + static_cast<std::ptrdiff_t>(row) * out.stride[2] + 2 * c0;
      const std::size_t pixels = std::min(2 * m, out.width - 2 * c0);
      for (; 2 * (i + lanes) <= pixels; i += lanes) {
        const auto uv = hn::LoadU(d, u + i), vv = hn::LoadU(d, v + i);
        hn::StoreInterleaved2(uv, uv, d, u_row + 2 * i);
        hn::StoreInterleaved2(vv, vv, d, v_row + 2 * i);
      }
      for (std::size_t x = 2 * i; x < pixels; ++x) {
        u_row[x] = u[x / 2];
        v_row[x] = v[x / 2];
      }
      break;
    }
    default: break;
  }
}

void YuvToYuvRows(const ConstYuvImage& in, const YuvImage& out, std::uint32_t begin, std::uint32_t end) {
  alignas(64) std::uint8_t u0[kChunk], v0[kChunk], u1[kChunk], v1[kChunk];
  const std::size_t chroma_width = (static_cast<std::size_t>(in.width) + 1) / 2;
  const bool out_420 = out.layout != YuvLayout::yuv4, in_422 = IsInterleaved422(in.layout);
  for (std::uint32_t y = begin; y < end; ++y) {
    CopyLuma(in, y, out.data[0] + static_cast<std::ptrdiff_t>(y) * out.stride[0]);
    if (out_420 && y % 2 != 0) continue;  // the chroma row goes with its pair's first row
    const std::uint32_t out_row = out_420 ? y / 2 : y, in_row = in_422 ? y : y / 2;
    for (std::size_t c0 = 0; c0 < chroma_width; c0 += kChunk) {
      const std::size_t m = std::min(kChunk, chroma_width - c0);
      const std::uint8_t *u = nullptr, *v = nullptr;
      ReadChroma(in, in_row, c0, m, u0, v0, u, v);
      if (in_422 && out_420) {
        const std::uint8_t *u_next = nullptr, *v_next = nullptr;
        ReadChroma(in, std::min(y + 1, in.height - 1), c0, m, u1, v1, u_next, v_next);
        FloorMean(u0, u_next, m);
        FloorMean(v0, v_next, m);
      }
      WriteChroma(out, out_row, c0, m, u, v);
    }
  }
}

void RepackRgbRows(ConstPlane in, int in_channels, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = out.width;
  const auto opaque = hn::Set(d, std::uint8_t{255});
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* dst = out.row(y);
    std::size_t x = 0;
    auto r = hn::Zero(d), g = hn::Zero(d), b = hn::Zero(d), a = hn::Zero(d);
    if (in_channels == 3) {
      for (; x + lanes <= width; x += lanes) {
        hn::LoadInterleaved3(d, src + 3 * x, r, g, b);
        hn::StoreInterleaved4(r, g, b, opaque, d, dst + 4 * x);
      }
      for (; x < width; ++x) {
        std::memcpy(dst + 4 * x, src + 3 * x, 3);
        dst[4 * x + 3] = 255;
      }
    } else {
      for (; x + lanes <= width; x += lanes) {
        hn::LoadInterleaved4(d, src + 4 * x, r, g, b, a);
        hn::StoreInterleaved3(r, g, b, d, dst + 3 * x);
      }
      for (; x < width; ++x) std::memcpy(dst + 3 * x, src + 4 * x, 3);
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(YuvToYuvRows);
HWY_EXPORT(RepackRgbRows);

void yuv_to_yuv(const ConstYuvImage& in, const YuvImage& out, Rows rows) noexcept {
  const bool in_ok = in.layout != YuvLayout::yuv4, out_ok = out.layout != YuvLayout::yuyv && out.layout != YuvLayout::uyvy;
  if (!in_ok || !out_ok || in.layout == out.layout || in.width != out.width || in.height != out.height || in.width == 0 ||
      in.width % 2 != 0 || in.height % 2 != 0) {
    return;
  }
  const std::uint32_t end = std::min(rows.end, in.height);
  if (rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(YuvToYuvRows)(in, out, rows.begin, end);
}

void repack_rgb(ConstPlane in, int in_channels, Plane out, int out_channels, Rows rows) noexcept {
  if (!((in_channels == 3 && out_channels == 4) || (in_channels == 4 && out_channels == 3))) return;
  const std::uint32_t end = std::min(rows.end, std::min(in.height, out.height));
  if (out.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(RepackRgbRows)(in, in_channels, out, rows.begin, end);
}

}  // namespace vg::vision
#endif
