#pragma once
/// @file
/// @brief OpenVX's Convolve on U8 input: out(x, y) = the sum over the window of in * C (the matrix given
/// flipped both ways, so that coefficient i of @p flipped meets the window's pixel i in row order), divided by
/// 2^shift truncating toward zero, saturated to U8 or S16.
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"

namespace vg::vision {

/// @brief Writes the output rows of @p band (all by default), the frame included: a window reaching past the
/// image reads @p border there (replicate: the nearest edge pixel; constant: its value). The window is
/// @p columns x @p rows, odd sides up to 15. Returns false (writing nothing) for other sides, a shift above
/// 31, or an output that is not of the input's size.
bool convolve(ConstPlane in, Pixels out, const std::int16_t* flipped, int columns, int rows, unsigned shift, Border border = {},
              Rows band = {}) noexcept;

}  // namespace vg::vision
