#pragma once
/// @file
/// @brief A 256-entry table applied to every pixel of a U8 plane (OpenVX's TableLookup on U8 with offset 0,
/// and the second half of EqualizeHist).
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief out(x, y) = table[in(x, y)]. Both planes have one size (the smaller is used); they may be the same.
void lookup(ConstPlane in, Plane out, const std::uint8_t (&table)[256]) noexcept;

}  // namespace vg::vision
