#pragma once
/// @file
/// @brief OpenVX's WarpAffine, WarpPerspective and Remap on U8 planes, byte for byte as libopenvx's
/// per-pixel definition computes them (framework/openvx/src/kernels/sampling.hpp):
/// - pixel centres at integer coordinates;
/// - NEAREST: the pixel at (floor(x + 0.5), floor(y + 0.5)), in float;
/// - BILINEAR: the four pixels around (x0, y0) = (floor(x), floor(y)) weighted by s = x - x0, t = y - y0,
///   in float, summed as (1-s)(1-t) p00 + s(1-t) p10 + (1-s)t p01 + st p11 in that order, + 0.5, at most
///   255, truncated;
/// - outside the source's valid rectangle: a constant, or the rectangle's nearest edge pixel; a source
///   coordinate that is not finite (as a float) reads as x or y = -2.
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class Interpolation : std::uint8_t { nearest, bilinear };

/// @brief The source of a geometric function: its pixels, the rectangle read as valid (pixels outside it
/// are border pixels), and the border.
struct SampleSource {
  ConstPlane plane;
  std::uint32_t x_begin = 0, y_begin = 0;
  std::uint32_t x_end = UINT32_MAX, y_end = UINT32_MAX;  ///< clipped to the plane's size
  bool constant_border = true;                           ///< false: the valid rectangle's nearest edge pixel
  std::uint8_t constant = 0;
};

/// @brief out(x, y) = src at (m[0] x + m[2] y + m[4], m[1] x + m[3] y + m[5]), each coordinate computed in
/// double from the float matrix (OpenVX's 2-column, 3-row matrix, row-major) and rounded to float.
/// Returns false, writing nothing, when the planes are empty or too large for 32-bit offsets, or the valid
/// rectangle is empty: the caller then computes the pixels itself. Allocates nothing.
bool warp_affine(const SampleSource& src, const float m[6], Interpolation interpolation, Plane out) noexcept;

/// @brief out(x, y) = src at (x' / z, y' / z) with x' = m[0] x + m[3] y + m[6], y' = m[1] x + m[4] y + m[7],
/// z = m[2] x + m[5] y + m[8] (OpenVX's 3x3 matrix, row-major), in double, each quotient rounded to float.
/// Returns false as warp_affine does.
bool warp_perspective(const SampleSource& src, const float m[9], Interpolation interpolation, Plane out) noexcept;

/// @brief out(x, y) = src at the table's (x, y) float pair for (x, y): rows of out.width pairs, @p table_stride
/// bytes apart (no alignment needed). Returns false as warp_affine does.
bool remap(const SampleSource& src, const void* table, std::ptrdiff_t table_stride, Interpolation interpolation,
           Plane out) noexcept;

}  // namespace vg::vision
