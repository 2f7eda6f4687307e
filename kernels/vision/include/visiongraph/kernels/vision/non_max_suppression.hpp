#pragma once
/// @file
/// @brief OpenVX's NonMaxSuppression (enhanced vision) on U8 or S16 pixels, with an optional byte mask.
///
/// A pixel whose mask is non-zero is copied. Otherwise it is kept when, among the window's pixels whose
/// mask is zero, it is at least every one before it in raster order (the rows above, and the same row to the
/// left) and greater than every one after it, so of a plateau exactly one pixel stays; else it becomes the
/// type's lowest value (0 for U8, INT16_MIN for S16), as the conformance suite's reference makes it. Pixels
/// closer than window / 2 to an edge are not computed (left as they were), as that reference leaves them.
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/pixels.hpp"

namespace vg::vision {

/// @brief A byte per pixel, non-zero where the pixel is masked (copied, and left out of its neighbours'
/// windows); null data: no mask.
struct SuppressionMask {
  const std::uint8_t* data = nullptr;
  std::ptrdiff_t stride = 0;  ///< bytes from one row to the next
};

/// @brief Whether pixel (x, y) is kept, the definition one pixel at a time: @p at(x, y) gives a pixel,
/// @p masked(x, y) its mask. The vectorised function uses it for narrow images, libopenvx for images whose
/// pixels are not packed and for U1 masks.
template <class T, class At, class Masked>
bool suppression_keeps(At&& at, Masked&& masked, int x, int y, int radius) noexcept {
  if (masked(x, y)) return true;
  const T v = at(x, y);
  for (int j = -radius; j <= radius; ++j)
    for (int i = -radius; i <= radius; ++i) {
      if (masked(x + i, y + j)) continue;
      const T n = at(x + i, y + j);
      const bool before = j < 0 || (j == 0 && i <= 0);
      if (before ? v < n : v <= n) return false;
    }
  return true;
}

/// @brief Writes the output rows @p rows (within the computed interior) of @p out, which has @p in's size
/// and type. Returns false (writing nothing) for an even window, one below 1 or above the smaller side, or
/// planes that differ.
bool non_max_suppression(ConstPixels in, SuppressionMask mask, Pixels out, int window, Rows rows = {}) noexcept;

}  // namespace vg::vision
