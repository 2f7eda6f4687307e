#pragma once
// The two ends of an output row for the neighbourhood functions that vectorise the whole frame (convolve.cpp,
// non_linear_filter.cpp): the end vectors read short padded copies of their window rows, with the border
// applied, so the frame takes the same vector code as the middle.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"

namespace vg::vision::detail {

/// Where the end vectors run: output columns [0, left) and [width - right, width), each the frame's rx
/// columns rounded up to whole vectors; `vectors` is false when the row is too narrow for a whole vector
/// between them (then the caller goes pixel by pixel).
struct EdgeSpan {
  std::size_t left = 0, right = 0;
  bool vectors = false;
};
inline EdgeSpan edge_span(std::size_t width, std::size_t rx, std::size_t lanes) noexcept {
  EdgeSpan s;
  s.left = s.right = (rx + lanes - 1) / lanes * lanes;
  s.vectors = rx == 0 ? width >= lanes : width >= s.left + s.right + lanes;
  return s;
}

/// Padded copies of up to kMaxRows window rows for the end vectors, each kWidth bytes (at least the span
/// plus 2 rx). left_rows / right_rows point at them so that the vector code reads them as it reads
/// image rows, from output column x on (the left copy at x, the right one at x - (width - right)).
template <std::size_t kWidth, int kMaxRows>
struct EdgeRows {
  EdgeRows() noexcept {
    for (int r = 0; r < kMaxRows; ++r) {
      left_rows[r] = left[r];
      right_rows[r] = right[r];
    }
  }
  /// Copies columns -rx .. left + rx - 1 and width - right - rx .. width + rx - 1 of @p rows window rows.
  void fill(const std::uint8_t* const* source, int rows, std::size_t width, std::size_t rx, const EdgeSpan& span, Border border) noexcept {
    for (int r = 0; r < rows; ++r) {
      const std::uint8_t* row = source[r];
      const std::uint8_t before = border.mode == BorderMode::constant ? border.constant : row[0];
      const std::uint8_t after = border.mode == BorderMode::constant ? border.constant : row[width - 1];
      std::fill_n(left[r], rx, before);
      std::copy_n(row, span.left + rx, left[r] + rx);
      std::copy_n(row + width - span.right - rx, span.right + rx, right[r]);
      std::fill_n(right[r] + span.right + rx, rx, after);
    }
  }
  std::uint8_t left[kMaxRows][kWidth];
  std::uint8_t right[kMaxRows][kWidth];
  const std::uint8_t* left_rows[kMaxRows];
  const std::uint8_t* right_rows[kMaxRows];
};

}  // namespace vg::vision::detail
