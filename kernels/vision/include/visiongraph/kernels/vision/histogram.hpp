#pragma once
/// @file
/// @brief The histogram of a U8 plane: how many pixels hold each of the 256 values (OpenVX's Histogram and
/// the first half of EqualizeHist).
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief counts[v] = the number of pixels of @p in equal to v, for every v in 0..255 (64-bit: exact for any
/// plane). An empty plane gives zeros.
void value_counts(ConstPlane in, std::uint64_t (&counts)[256]) noexcept;

}  // namespace vg::vision
