#pragma once
/// @file
/// @brief The histogram of a U8 plane: how many pixels hold each of the 256 values (OpenVX's Histogram), and
/// EqualizeHist built on it.
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief counts[v] = the number of pixels of @p in equal to v, for every v in 0..255 (64-bit: exact for any
/// plane). An empty plane gives zeros.
void value_counts(ConstPlane in, std::uint64_t (&counts)[256]) noexcept;

/// @brief OpenVX's Histogram from a plane's @p counts: bins[b] = the number of pixels whose value v is in
/// [offset, offset + range) and has (v - offset) * bin_count / range == b, modulo 2^32 (32-bit counters, as
/// OpenVX's distributions hold). Writes all @p bin_count bins; false (writing nothing) when @p bin_count or
/// @p range is 0.
bool bin_counts(const std::uint64_t (&counts)[256], std::int64_t offset, std::uint32_t range, std::size_t bin_count,
                std::uint32_t* bins) noexcept;

/// @brief OpenVX EqualizeHist's table from a plane's @p counts: with cdf the cumulative count and cdf_min
/// its value at the smallest value present, table[v] = round((cdf(v) - cdf_min) * 255 / (N - cdf_min))
/// (halves up, in integers) from that value on, 0 below it; a plane of one value keeps its values.
void equalization_table(const std::uint64_t (&counts)[256], std::uint8_t (&table)[256]) noexcept;

/// @brief OpenVX EqualizeHist: @p out is @p in through its equalization table (both of one size).
void equalize_histogram(ConstPlane in, Plane out) noexcept;

}  // namespace vg::vision
