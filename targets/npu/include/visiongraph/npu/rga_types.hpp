#pragma once
/// @file
/// @brief The part of librga's im2d C ABI that visiongraph calls, declared from the vendor's published facts
///        (airockchip/librga include/im2d_type.h, im2d_buffer.h, im2d_single.h, im2d_common.h, rga.h;
///        unchanged from 1.9.0 to 1.10.3). docs/npu.md lists each fact with its source.
///
/// Only the entry points librga exports with C linkage are used: the convenience forms (`imfill`,
/// `imresize`, `importbuffer_fd(fd, size)`, the 10-argument `improcess`, `immakeBorder`) are C++ overloads
/// with mangled names and default arguments, so a library loaded with dlopen offers only their `_t` forms.

#include <cstddef>
#include <cstdint>

namespace vg::npu::rga {

/// rga_buffer_handle_t: what importbuffer_* returns; 0 means the import failed.
using BufferHandle = std::uint32_t;

/// IM_STATUS. Checks (imcheck_t) answer kNoError; operations (improcess, imfill_t) answer kSuccess.
enum Status : int {
  kStatusNoError = 2,
  kStatusSuccess = 1,
  kStatusFailed = 0,
  kStatusNotSupported = -1,
  kStatusOutOfMemory = -2,
  kStatusInvalidParam = -3,
  kStatusIllegalParam = -4,
  kStatusErrorVersion = -5,
  kStatusNoSession = -6,  ///< 1.10.3 and later
};

/// IM_USAGE bits passed to improcess. Without kUsageAsync a call blocks until the job is done.
enum Usage : int {
  kUsageSync = 1 << 19,
  kUsageColorFill = 1 << 21,
  kUsageAsync = 1 << 26,  ///< needs a release fence pointer, which the 7-argument improcess cannot take
};

/// IM_INFORMATION: what querystring answers.
enum Information : int {
  kInfoVendor = 0,
  kInfoVersion = 1,
  kInfoMaxInput = 2,
  kInfoMaxOutput = 3,
  kInfoByteStride = 4,
  kInfoScaleLimit = 5,
  kInfoInputFormat = 6,
  kInfoOutputFormat = 7,
  kInfoFeature = 8,
  kInfoExpected = 9,
  kInfoAll = 10,
};

/// RK_FORMAT_* (rga.h): index << 8. RGB_888 is bytes R,G,B; BGR_888 bytes B,G,R; YCbCr_420_SP is NV12.
enum Format : int {
  kFormatRgba8888 = 0x0 << 8,
  kFormatRgbx8888 = 0x1 << 8,
  kFormatRgb888 = 0x2 << 8,
  kFormatBgra8888 = 0x3 << 8,
  kFormatBgr888 = 0x7 << 8,
  kFormatYCbCr422Sp = 0x8 << 8,
  kFormatYCbCr420Sp = 0xa << 8,  ///< NV12
  kFormatYCrCb420Sp = 0xe << 8,  ///< NV21
  kFormatYuyv422 = 0x1c << 8,
};

/// IM_COLOR_SPACE_MODE, read from the destination buffer's color_space_mode (0 = BT.601 limited for YUV->RGB).
enum ColorSpace : int {
  kColorSpaceDefault = 0,
  kYuvToRgbBt601Limit = 1,
  kYuvToRgbBt601Full = 2,
  kYuvToRgbBt709Limit = 3,
};

/// im_rect. A zeroed rect means the whole image.
struct Rect {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
};

/// im_colorkey_range.
struct ColorKeyRange {
  int max = 0;
  int min = 0;
};

/// im_nn_t: per-channel quantisation (unused here).
struct NnParams {
  int scale_r = 0, scale_g = 0, scale_b = 0;
  int offset_r = 0, offset_g = 0, offset_b = 0;
};

/// rga_buffer_t, passed by value. Of the ways to name memory the library takes, in priority order,
/// handle, phy_addr, fd, then vir_addr. wstride/hstride are in pixels and rows.
struct Buffer {
  void* vir_addr = nullptr;
  void* phy_addr = nullptr;
  int fd = 0;
  int width = 0;
  int height = 0;
  int wstride = 0;
  int hstride = 0;
  int format = 0;
  int color_space_mode = 0;
  int global_alpha = 0;  ///< a union with two 16-bit alpha values from 1.10.1 on; same size and place
  int rd_mode = 0;
  int color = 0;  ///< legacy
  ColorKeyRange colorkey_range;
  NnParams nn;
  int rop_code = 0;
  BufferHandle handle = 0;
};

/// im_handle_param_t: what an import describes. width and height are the strides (pixels, rows); an
/// import whose buffer is smaller than this fails.
struct HandleParam {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t format = 0;
};

// The layout is the ABI: these hold on every platform the vendor ships (LP64 and ILP32).
static_assert(sizeof(Rect) == 16);
static_assert(sizeof(HandleParam) == 12);
static_assert(offsetof(Buffer, fd) == 2 * sizeof(void*));
static_assert(offsetof(Buffer, format) == 2 * sizeof(void*) + 20);
static_assert(offsetof(Buffer, color_space_mode) == 2 * sizeof(void*) + 24);
static_assert(offsetof(Buffer, colorkey_range) == 2 * sizeof(void*) + 40);
static_assert(offsetof(Buffer, nn) == 2 * sizeof(void*) + 48);
static_assert(offsetof(Buffer, rop_code) == 2 * sizeof(void*) + 72);
static_assert(offsetof(Buffer, handle) == 2 * sizeof(void*) + 76);
static_assert(sizeof(Buffer) == (sizeof(void*) == 8 ? 96 : 88));

// The C-linkage entry points (names in rga_runtime.cpp).
using QueryStringFn = const char* (*)(int name);
using StrErrorFn = const char* (*)(int status);
using ImportFdFn = BufferHandle (*)(int fd, HandleParam* param);
using ImportVirtualAddrFn = BufferHandle (*)(void* va, HandleParam* param);
using ReleaseHandleFn = int (*)(BufferHandle handle);
using WrapHandleFn = Buffer (*)(BufferHandle handle, int width, int height, int wstride, int hstride, int format);
using WrapVirtualAddrFn = Buffer (*)(void* va, int width, int height, int wstride, int hstride, int format);
using CheckFn = int (*)(const Buffer src, const Buffer dst, const Buffer pat, const Rect src_rect, const Rect dst_rect,
                        const Rect pat_rect, const int usage);
using ProcessFn = int (*)(Buffer src, Buffer dst, Buffer pat, Rect src_rect, Rect dst_rect, Rect pat_rect, int usage);
using FillFn = int (*)(Buffer dst, Rect rect, int color, int sync);

/// imfill's colour: 0xAABBGGRR (red in the low byte), as the vendor's samples pack it.
constexpr int fill_color(std::uint8_t r, std::uint8_t g, std::uint8_t b) noexcept {
  return static_cast<int>(0xff000000u | (static_cast<std::uint32_t>(b) << 16) | (static_cast<std::uint32_t>(g) << 8) | r);
}

}  // namespace vg::npu::rga
