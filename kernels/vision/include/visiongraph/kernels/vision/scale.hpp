#pragma once
/// @file
/// @brief OpenVX's ScaleImage on a U8 plane at any ratio, NEAREST_NEIGHBOR, BILINEAR and AREA, byte for byte
/// as its definition computes them (2:1 has its own faster function: downscale.hpp).
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class ScaleInterpolation : std::uint8_t { nearest, bilinear, area };

/// @brief out(x, y) = @p in sampled at sx = (x + 0.5f) * w_in / w_out - 0.5f (sy likewise), every step in
/// float; pixel centres at integer coordinates.
///   nearest:  the pixel at floor(sx), or the next one when sx - floor(sx) >= 0.5 (halves round up);
///   bilinear: the four pixels around (x0, y0) = (floor(sx), floor(sy)) at s = sx - x0, t = sy - y0:
///             v = (1-s)(1-t) p00 + s(1-t) p10 + (1-s) t p01 + s t p11, summed left to right in float
///             without fused multiply-adds, then min(v + 0.5f, 255) truncated;
///   area:     output pixel x covers input columns [x fx, (x + 1) fx), fx = double(w_in) / w_out (rows
///             likewise); every input pixel it covers, weighted by wx * wy (the parts covered), summed in
///             double row by row, column by column, divided by the weights' sum, min(mean + 0.5, 255)
///             truncated.
/// Pixels outside @p in read @p border. Output rows @p rows only. Nothing is allocated.
void scale_image(ConstPlane in, Plane out, ScaleInterpolation type, Border border, Rows rows = {}) noexcept;

}  // namespace vg::vision
