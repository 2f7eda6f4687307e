#pragma once
/// @file
/// @brief A plane of U8 or S16 pixels (OpenVX's two arithmetic image formats), for the functions that take
/// either.
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class PixelType : std::uint8_t { u8, s16 };

constexpr std::size_t pixel_size(PixelType type) noexcept { return type == PixelType::u8 ? 1 : 2; }

/// @brief A read-only plane of U8 or S16 pixels (S16 rows hold width int16_t values).
struct ConstPixels {
  const void* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;  ///< bytes from one row to the next
  PixelType type = PixelType::u8;

  template <class T>
  const T* row(std::uint32_t y) const noexcept {
    return reinterpret_cast<const T*>(static_cast<const std::uint8_t*>(data) + static_cast<std::ptrdiff_t>(y) * stride);
  }
};

/// @brief A writable plane of U8 or S16 pixels.
struct Pixels {
  void* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;
  PixelType type = PixelType::u8;

  template <class T>
  T* row(std::uint32_t y) const noexcept {
    return reinterpret_cast<T*>(static_cast<std::uint8_t*>(data) + static_cast<std::ptrdiff_t>(y) * stride);
  }
  operator ConstPixels() const noexcept { return {data, width, height, stride, type}; }
};

inline ConstPixels pixels_of(ConstPlane p) noexcept { return {p.data, p.width, p.height, p.stride, PixelType::u8}; }
inline Pixels pixels_of(Plane p) noexcept { return {p.data, p.width, p.height, p.stride, PixelType::u8}; }

}  // namespace vg::vision
