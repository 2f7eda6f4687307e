#pragma once
/// @file
/// @brief Whole-image sums: the pixels' sum and sum of squares (OpenVX's MeanStdDev, exact in 64 bits).
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

struct PixelSums {
  std::uint64_t sum = 0;      ///< of the pixels
  std::uint64_t squares = 0;  ///< of their squares
};

/// @brief The sums over every pixel of @p in (exact: at most 2^32 pixels of 255^2 fit in 64 bits).
PixelSums pixel_sums(ConstPlane in) noexcept;

}  // namespace vg::vision
