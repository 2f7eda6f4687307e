#pragma once
/// @file
/// @brief OpenVX's HalfScaleGaussian (and GaussianPyramid's halving levels): the binomial filter [1 2 1] or
/// [1 4 6 4 1] in both directions, the sum truncated (>> 4 or >> 8), sampled by nearest neighbour at half
/// size. An output of (n + 1) / 2 for an input side of n samples input 2x + 1 when n is even and 2x when n
/// is odd (where OpenVX's nearest-neighbour rule, (x + 0.5) * n / out - 0.5 rounded halves up, lands).
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief Writes the output rows of @p band (all by default), the frame included: a window reaching past the
/// image reads @p border there. Each side of @p in is twice @p out's, or twice less one. Returns false
/// (writing nothing) for a @p kernel_size other than 3 or 5, or another shape.
bool gaussian_half(ConstPlane in, Plane out, int kernel_size, Border border = {}, Rows band = {}) noexcept;

}  // namespace vg::vision
