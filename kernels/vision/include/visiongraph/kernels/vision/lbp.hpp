#pragma once
/// @file
/// @brief OpenVX's LBP (local binary patterns) of a U8 plane. Each pixel compares eight neighbours g_0..g_7,
/// clockwise from the top left, and sets bit p when neighbour p passes:
///   - lbp, 3x3: the eight adjacent pixels; bit p = g_p >= g_c (the centre);
///   - lbp, 5x5: the diagonal neighbours at distance 1 and the straight ones at distance 2;
///   - uniform: as lbp when the bits change at most twice around the circle, 9 otherwise;
///   - modified (5x5 only): the corners and edge midpoints of the 5x5 window; bit p = g_p > (sum of the
///     eight + 1) / 8 (integer division), what the conformance suite's golden images fix.
/// Reads outside the image take the nearest edge pixel (the specification leaves those pixels open).
#include <bit>
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class LbpFormat : std::uint8_t { lbp, modified, uniform };

namespace lbp_detail {
struct Offset {
  int dy, dx;
};
inline constexpr Offset kNeighbours3[8] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}};
inline constexpr Offset kNeighbours5[8] = {{-1, -1}, {-2, 0}, {-1, 1}, {0, 2}, {1, 1}, {2, 0}, {1, -1}, {0, -2}};
inline constexpr Offset kModified5[8] = {{-2, -2}, {-2, 0}, {-2, 2}, {0, 2}, {2, 2}, {2, 0}, {2, -2}, {0, -2}};
constexpr const Offset* neighbours_of(LbpFormat format, int size) noexcept {
  return format == LbpFormat::modified ? kModified5 : size == 3 ? kNeighbours3 : kNeighbours5;
}
}  // namespace lbp_detail

/// @brief The pattern of pixel (x, y), the definition one pixel at a time: @p read(y, x) gives any pixel,
/// also outside the image (the caller's border). The vectorised function uses it for the pixels near the
/// edges, and libopenvx for images whose pixels are not packed.
template <class Read>
std::uint8_t lbp_pattern(Read&& read, LbpFormat format, int kernel_size, int x, int y) noexcept {
  const lbp_detail::Offset* n = lbp_detail::neighbours_of(format, kernel_size);
  int g[8];
  int sum = 0;
  for (int p = 0; p < 8; ++p) {
    g[p] = read(y + n[p].dy, x + n[p].dx);
    sum += g[p];
  }
  unsigned bits = 0;
  if (format == LbpFormat::modified) {
    const int mean = (sum + 1) / 8;
    for (int p = 0; p < 8; ++p) bits |= (g[p] > mean ? 1u : 0u) << p;
    return static_cast<std::uint8_t>(bits);
  }
  const int c = read(y, x);
  for (int p = 0; p < 8; ++p) bits |= (g[p] >= c ? 1u : 0u) << p;
  if (format == LbpFormat::uniform) {
    const unsigned rotated = ((bits << 1) | (bits >> 7)) & 0xFFu;  // bit 7 to bit 0, then each to the next
    if (std::popcount(bits ^ rotated) > 2) bits = 9;               // more than two changes: not uniform
  }
  return static_cast<std::uint8_t>(bits);
}

/// @brief Writes the output rows @p rows of @p out (@p in's size). Returns false (writing nothing) for a
/// @p kernel_size other than 3 or 5, modified with 3, or planes of different sizes.
bool local_binary_pattern(ConstPlane in, Plane out, LbpFormat format, int kernel_size, Rows rows = {}) noexcept;

}  // namespace vg::vision
