#pragma once
/// @file
/// @brief ScaleImage's per-pixel definition (and the bilinear blend the warps share): one expression each,
/// used by the vision library's scale_image for the pixels it does not vectorise and by libopenvx's
/// per-pixel path (U1 and strided images), so that both compute every byte identically. Compile callers
/// with -ffp-contract=off: the roundings of these sums of products are part of the definition.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vg::vision {

/// @brief The source coordinate of output index @p i (pixel centres at integer coordinates), in float.
inline float scale_source_coordinate(std::uint32_t i, float size_in, float size_out) noexcept {
  return ((static_cast<float>(i) + 0.5f) * size_in / size_out) - 0.5f;
}

/// @brief NEAREST_NEIGHBOR's pick along one axis: the pixel below @p s unless @p s is at least half-way to
/// the next (halves round up), as a whole-numbered float.
inline float nearest_half_up(float s) noexcept {
  const float whole = std::floor(s);
  return s - whole >= 0.5f ? whole + 1.0f : whole;
}

/// @brief The bilinear blend of four pixels at fractions @p s (x) and @p t (y), rounded, at most @p top
/// (255, or 1 for U1).
inline std::uint8_t bilinear_blend(float s, float t, std::uint8_t p00, std::uint8_t p10, std::uint8_t p01, std::uint8_t p11,
                                   float top = 255.0f) noexcept {
  const float v = (1.0f - s) * (1.0f - t) * p00 + s * (1.0f - t) * p10 + (1.0f - s) * t * p01 + s * t * p11;
  return static_cast<std::uint8_t>(std::min(v + 0.5f, top));  // v >= 0: the weights are non-negative
}

/// @brief AREA's value of output pixel (@p x, @p y): the input pixels it covers (@p pixel(x, y) at
/// whole-numbered float coordinates, border included), each weighted by the part it covers (wx * wy),
/// summed in double row by row, divided by the weights' sum, rounded, at most @p top.
template <typename PixelAt>
std::uint8_t area_value(const PixelAt& pixel, double fx, double fy, std::uint32_t x, std::uint32_t y, double top = 255.0) {
  const double x0 = x * fx, x1 = (x + 1) * fx, y0 = y * fy, y1 = (y + 1) * fy;
  double sum = 0.0, total = 0.0;
  for (double yi = std::floor(y0); yi < y1; yi += 1.0) {
    const double wy = std::min(y1, yi + 1.0) - std::max(y0, yi);
    if (wy <= 0.0) continue;
    for (double xi = std::floor(x0); xi < x1; xi += 1.0) {
      const double wx = std::min(x1, xi + 1.0) - std::max(x0, xi);
      if (wx <= 0.0) continue;
      sum += wx * wy * pixel(static_cast<float>(xi), static_cast<float>(yi));
      total += wx * wy;
    }
  }
  const double mean = total > 0.0 ? sum / total : 0.0;
  return static_cast<std::uint8_t>(std::min(mean + 0.5, top));
}

}  // namespace vg::vision
