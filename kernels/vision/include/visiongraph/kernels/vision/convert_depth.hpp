#pragma once
/// @file
/// @brief OpenVX's ConvertDepth between U8 and S16: up, out = in << shift; down, out = in >> shift
/// (arithmetic), then saturated to 0..255 or wrapped (its low 8 bits).
#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"

namespace vg::vision {

/// @brief U8 @p in to S16 @p out, or S16 to U8, with @p shift 0..7; output rows @p rows only. Returns false
/// (writing nothing) for another pair of types or shift.
bool convert_depth(ConstPixels in, Pixels out, int shift, Overflow overflow, Rows rows = {}) noexcept;

}  // namespace vg::vision
