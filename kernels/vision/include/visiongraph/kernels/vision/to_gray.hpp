#pragma once
/// @file
/// @brief Packed BGR / RGB to gray (BT.601 luma), bit-identical to OpenCV's cvtColor(COLOR_BGR2GRAY /
/// COLOR_RGB2GRAY) for 8-bit images: (3735 B + 19235 G + 9798 R + 2^14) >> 15.
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief Converts @p in into @p out (same width and height), output rows @p rows only.
void to_gray(ConstPackedRgb in, Plane out, Rows rows = {}) noexcept;

}  // namespace vg::vision
