#pragma once
/// @file
/// @brief OpenVX's Convolve on U8 input: out(x, y) = the sum over the window of in * C (the matrix given
/// flipped both ways, so that coefficient i of @p flipped meets the window's pixel i in row order), divided by
/// 2^shift truncating toward zero, saturated to U8 or S16.
#include <cstdint>

#include "visiongraph/kernels/vision/pixels.hpp"

namespace vg::vision {

/// @brief Writes the output pixels whose @p columns x @p rows window (odd sides up to 15) lies inside @p in;
/// the frame of width columns / 2 and rows / 2 is left to the caller (it needs the border). Returns false
/// (writing nothing) for other sides, a shift above 31 or an output that is neither U8 nor S16.
bool convolve_interior(ConstPlane in, Pixels out, const std::int16_t* flipped, int columns, int rows, unsigned shift) noexcept;

}  // namespace vg::vision
