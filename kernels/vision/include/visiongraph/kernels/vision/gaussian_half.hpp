#pragma once
/// @file
/// @brief OpenVX's HalfScaleGaussian (and GaussianPyramid's levels) for an input of even width and height:
/// the binomial filter [1 2 1] or [1 4 6 4 1] in both directions, the sum truncated (>> 4 or >> 8), taken at
/// input pixel (2x + 1, 2y + 1) for output (x, y), where nearest-neighbour halving samples.
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief Writes the output pixels whose window lies inside @p in: columns and rows 1 .. n - 2 of @p out
/// for @p kernel_size 5, 0 .. n - 2 for 3 (the rest needs the border: the caller's). @p in is exactly
/// 2 out.width x 2 out.height. Returns false (writing nothing) for another kernel size or shape.
bool gaussian_half_interior(ConstPlane in, Plane out, int kernel_size) noexcept;

}  // namespace vg::vision
