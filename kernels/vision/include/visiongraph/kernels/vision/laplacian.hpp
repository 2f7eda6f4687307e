#pragma once
/// @file
/// @brief OpenVX's LaplacianPyramid and LaplacianReconstruct, one level at a time.
///
/// Both expand a coarser level g (half the size, rounded up) to the finer level's size: g zero-inserted
/// (g at the even positions of an image twice its size, zeros between) under the 5x5 binomial
/// [1 4 6 4 1]^T [1 4 6 4 1], the sum truncated (>> 8) and then multiplied by 4:
///   expand(g)(x, y) = 4 * ((sum of w(x - 2i) w(y - 2j) g(i, j)) >> 8), w = 1 4 6 4 1 centred on 0,
/// which leaves taps 1 6 1 on g's pixels x/2 - 1, x/2, x/2 + 1 for an even x, 4 4 on (x - 1)/2 and
/// (x + 1)/2 for an odd one (and the same in y). g's pixels outside g read @p border (OpenVX asks for
/// replicate: g's nearest pixel).
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief One level of the Laplacian pyramid: @p coarse = gaussian_half(@p fine, 5, @p border) (the next
/// Gaussian level) and @p laplacian = fine - expand(coarse) (S16, fine's size; never out of S16's range).
/// @p coarse may be read by the caller as the next level's fine. Returns false (writing nothing) when
/// @p coarse is not half of @p fine (each side (n + 1) / 2) or @p laplacian is not S16 of fine's size.
bool laplacian_level(ConstPlane fine, Plane coarse, Pixels laplacian, Border border = {}) noexcept;

/// @brief One level of the reconstruction: @p out = expand(@p coarse) + @p laplacian (S16), saturated to
/// @p out's type (U8 or S16), rows @p band only (all by default). A coarse level held as S16 is expanded
/// from its values saturated to 0..255 (OpenVX's definition): the caller converts it first. Returns false
/// (writing nothing) when @p coarse is not half of @p out, @p laplacian is not S16 of out's size, or
/// @p out is neither U8 nor S16.
bool laplacian_reconstruct_level(ConstPlane coarse, ConstPixels laplacian, Pixels out, Border border = {}, Rows band = {}) noexcept;

}  // namespace vg::vision
