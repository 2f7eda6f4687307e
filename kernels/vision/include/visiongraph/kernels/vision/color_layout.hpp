#pragma once
/// @file
/// @brief YUV images in OpenVX's layouts, and the conversions between layouts that change no colour value:
/// YUV to YUV (the luma copied, chroma de-interleaved, interleaved, repeated or, 4:2:2 to 4:2:0, the two
/// rows' samples averaged rounding down) and RGB to RGBX and back (X becomes 255), as OpenVX's
/// ColorConvert defines them. Byte copies and integer means: the same bytes on every instruction set.
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief The YUV layouts: semi-planar 4:2:0 (NV12: luma plane, then U V pairs at half width and height;
/// NV21: V U pairs), planar 4:2:0 (IYUV: Y, U, V planes, chroma at half width and height), planar 4:4:4
/// (YUV4: three full planes), and interleaved 4:2:2 (YUYV: Y0 U Y1 V for each pixel pair; UYVY: U Y0 V Y1).
enum class YuvLayout : std::uint8_t { nv12, nv21, iyuv, yuv4, yuyv, uyvy };

/// @brief A read-only YUV image: its size in pixels and the start and row stride of each plane in layout
/// order (NV12 / NV21: luma, pairs; IYUV / YUV4: Y, U, V; YUYV / UYVY: the one plane of 2 bytes a pixel).
/// 4:2:2 layouts have an even width; 4:2:0 ones' chroma covers (width + 1) / 2 by (height + 1) / 2 samples.
struct ConstYuvImage {
  YuvLayout layout = YuvLayout::nv12;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  const std::uint8_t* data[3] = {};
  std::ptrdiff_t stride[3] = {};
};

/// @brief A writable YUV image, planes as in ConstYuvImage.
struct YuvImage {
  YuvLayout layout = YuvLayout::nv12;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint8_t* data[3] = {};
  std::ptrdiff_t stride[3] = {};
  operator ConstYuvImage() const noexcept {
    return {layout, width, height, {data[0], data[1], data[2]}, {stride[0], stride[1], stride[2]}};
  }
};

/// @brief Converts @p in (NV12, NV21, IYUV, YUYV or UYVY) into @p out (NV12, NV21, IYUV or YUV4, not
/// the input's layout; the same size, even width and height when either side is subsampled): the luma
/// copied; each output chroma sample is the input's sample covering it, except 4:2:2 to 4:2:0, whose
/// sample is (top + bottom) / 2 rounded down. Output rows @p rows only (a 4:2:0 chroma row with its
/// luma row pair's first row). Other layouts write nothing.
void yuv_to_yuv(const ConstYuvImage& in, const YuvImage& out, Rows rows = {}) noexcept;

/// @brief Packed RGB (3 bytes a pixel) to RGBX (4, X = 255) or back: @p in_channels and @p out_channels
/// are 3 and 4 or 4 and 3; the planes' widths are in pixels, @p out's size. Output rows @p rows only.
void repack_rgb(ConstPlane in, int in_channels, Plane out, int out_channels, Rows rows = {}) noexcept;

}  // namespace vg::vision
