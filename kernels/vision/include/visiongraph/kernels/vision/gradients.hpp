#pragma once
/// @file
/// @brief OpenVX's Sobel3x3 (U8 in, S16 gradients out), Magnitude (S16 gradients in, S16 out) and Phase (U8 out),
/// vectorised with Highway.
#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief gx = [-1 0 +1; -2 0 +2; -1 0 +1] and gy = [-1 -2 -1; 0 0 0; +1 +2 +1] applied as printed (x to the
/// right, y downwards), into S16 planes of @p in's size; either may have null data (not computed). Output
/// rows @p rows only.
void sobel3x3(ConstPlane in, Pixels gx, Pixels gy, Border border = {}, Rows rows = {}) noexcept;

/// @brief out = min(floor(sqrt(gx^2 + gy^2) + 0.5), 32767), all S16 of one size (OpenVX's definition,
/// computed in double as it gives it). Output rows @p rows only.
void magnitude(ConstPixels gx, ConstPixels gy, Pixels out, Rows rows = {}) noexcept;

/// @brief out = the orientation of (gx, gy) in 256 steps per turn: v = atan2(gy, gx) * 256 / (2 pi), plus 256
/// when negative, rounded half up, 256 wrapping to 0 (OpenVX's Phase as the conformance suite computes it;
/// every byte equals that definition in double). S16 gradients, U8 out, one size. Output rows @p rows only.
void phase(ConstPixels gx, ConstPixels gy, Plane out, Rows rows = {}) noexcept;

}  // namespace vg::vision
