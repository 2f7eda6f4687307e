#pragma once
/// @file
/// @brief OpenVX's NonLinearFilter on U8 planes: each output pixel is the median, minimum or maximum of the
/// input pixels a mask selects around it. The median of n selected values is the one at index n / 2 of
/// them sorted ascending (for an even n the upper of the two middle values, as the Khronos sample
/// implementation and conformance reference take it).
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class NonLinearFunction : std::uint8_t { median, min, max };

/// @brief "median", "min", "max"; false on another name.
bool parse_non_linear_function(std::string_view text, NonLinearFunction& function) noexcept;
std::string_view to_string(NonLinearFunction function) noexcept;

/// The largest mask side the function takes: OpenVX masks are at most 9 a side, but their origin may lie
/// off the centre; libopenvx centres them in a window of up to 15 a side (the most its neighbourhood
/// kernels take).
inline constexpr int kMaxNonLinearSide = 15;

/// @brief Filters @p in into @p out (same size, different memory), output rows @p band only, the frame
/// included: a mask entry outside the image reads @p border there (replicate: the nearest edge pixel;
/// constant: its value). @p mask holds @p columns x @p rows bytes row by row, centred on the output pixel
/// (entry (r, c) reads input (x + c - columns / 2, y + r - rows / 2)); its non-zero entries select. Returns
/// false (writing nothing) when a side is even or outside 1..kMaxNonLinearSide, the mask selects nothing,
/// or the planes differ in size.
bool non_linear_filter(NonLinearFunction function, ConstPlane in, Plane out, const std::uint8_t* mask, int columns, int rows,
                       Border border = {}, Rows band = {}) noexcept;

/// @brief One output pixel, the definition one pixel at a time: @p read(y, x) gives any input pixel, also
/// outside the image (the caller's border). The vectorised function uses it for images too narrow for a
/// vector, and libopenvx for images whose pixels are not packed.
template <class Read>
std::uint8_t non_linear_value(Read&& read, NonLinearFunction function, const std::uint8_t* mask, int columns, int rows, int x,
                              int y) noexcept {
  std::uint8_t values[kMaxNonLinearSide * kMaxNonLinearSide];
  int n = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (mask[r * columns + c] != 0) values[n++] = read(y + r - rows / 2, x + c - columns / 2);
    }
  }
  if (function == NonLinearFunction::min) return *std::min_element(values, values + n);
  if (function == NonLinearFunction::max) return *std::max_element(values, values + n);
  std::nth_element(values, values + n / 2, values + n);
  return values[n / 2];
}

}  // namespace vg::vision
