#pragma once
/// @file
/// @brief Halving an image's width and height (OpenVX's ScaleImage at exactly 2:1, where its sampling
/// positions fall on pixel pairs).
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief out(x, y) from the 2x2 block of @p in at (2x, 2y): with @p average the rounded mean
/// (sum + 2) >> 2 (ScaleImage's BILINEAR and AREA there), otherwise in(2x + 1, 2y + 1) (its
/// NEAREST_NEIGHBOR, whose half-way positions round up). @p in is at least 2 out.width x 2 out.height.
/// Output rows @p rows only.
void downscale_2x(ConstPlane in, Plane out, bool average, Rows rows = {}) noexcept;

}  // namespace vg::vision
