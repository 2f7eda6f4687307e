#pragma once
/// @file
/// @brief Whole-image statistics: the pixels' sum and sum of squares (OpenVX's MeanStdDev, exact in 64 bits);
/// the extrema, how often each occurs and where (OpenVX's MinMaxLoc).
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

struct PixelSums {
  std::uint64_t sum = 0;      ///< of the pixels
  std::uint64_t squares = 0;  ///< of their squares
};

/// @brief The sums over every pixel of @p in (exact: at most 2^32 pixels of 255^2 fit in 64 bits).
PixelSums pixel_sums(ConstPlane in) noexcept;

/// @brief OpenVX's MeanStdDev from a plane's sums over @p count pixels: the mean, and the population standard
/// deviation sqrt(count * squares - sum^2) / count. The numerator is exact (128-bit integers), so the only
/// roundings are the final divisions and square root in double, then to float. Zeros for no pixels.
struct MeanStdDev {
  float mean = 0;
  float stddev = 0;
};
MeanStdDev mean_stddev(PixelSums sums, std::uint64_t count) noexcept;

/// @brief The smallest and largest pixel of a U8 or S16 plane and how many pixels equal each.
struct Extrema {
  std::int32_t min = 0;
  std::int32_t max = 0;
  std::uint64_t min_count = 0;
  std::uint64_t max_count = 0;
};

/// @brief The extrema of @p in (not empty).
Extrema extrema(ConstPixels in) noexcept;

/// @brief A plane of 32-bit unsigned pixels (OpenVX's U32 images): @p stride bytes between rows.
struct U32Plane {
  std::uint32_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;

  std::uint32_t* row(std::uint32_t y) const noexcept {
    return reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint8_t*>(data) + static_cast<std::ptrdiff_t>(y) * stride);
  }
};

/// @brief OpenVX's IntegralImage: out(x, y) = the sum of in(x', y') over x' <= x and y' <= y, modulo 2^32.
/// Both planes have one size.
void integral(ConstPlane in, U32Plane out) noexcept;

/// @brief A pixel position.
struct PixelPosition {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
};

/// @brief The first @p capacity positions, in raster order from @p from on, of the pixels of @p in equal to
/// @p value; returns how many were written to @p out (call again from the position after the last one for
/// more). Runs without @p value are passed over a vector at a time.
std::size_t locate(ConstPixels in, std::int32_t value, PixelPosition* out, std::size_t capacity,
                   PixelPosition from = {}) noexcept;

}  // namespace vg::vision
