#pragma once
/// @file
/// @brief A plane of 8-bit pixels as the vision functions read and write it: a pointer, a size and the
/// bytes from one row to the next. The functions own nothing and allocate nothing.
#include <cstddef>
#include <cstdint>

namespace vg::vision {

/// @brief A read-only plane of one byte per pixel (a gray8 image, one channel of a planar format).
struct ConstPlane {
  const std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;  ///< bytes from a row's start to the next row's; at least width

  const std::uint8_t* row(std::uint32_t y) const noexcept { return data + static_cast<std::ptrdiff_t>(y) * stride; }
};

/// @brief A writable plane of one byte per pixel.
struct Plane {
  std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;

  std::uint8_t* row(std::uint32_t y) const noexcept { return data + static_cast<std::ptrdiff_t>(y) * stride; }
  operator ConstPlane() const noexcept { return {data, width, height, stride}; }
};

/// @brief A packed three-channel image (bgr24 or rgb24): three bytes per pixel.
struct ConstPackedRgb {
  const std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;  ///< at least 3 * width
  bool bgr = true;            ///< byte order of a pixel: B, G, R (true) or R, G, B

  const std::uint8_t* row(std::uint32_t y) const noexcept { return data + static_cast<std::ptrdiff_t>(y) * stride; }
};

/// @brief A band of rows: [begin, end). Every function that takes one writes only those output rows, so
/// one frame can be split into bands processed on several threads (each band reads the input rows its
/// window needs, which may lie outside the band).
struct Rows {
  std::uint32_t begin = 0;
  std::uint32_t end = UINT32_MAX;  ///< clipped to the output's height
};

}  // namespace vg::vision
