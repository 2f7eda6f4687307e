#pragma once
/// @file
/// @brief OpenVX's CannyEdgeDetector on a U8 plane: Sobel gradients of size 3, 5 or 7, L1 or L2 magnitude,
/// non-maximum suppression along the quantised direction and hysteresis, edges 255 and the rest 0.
#include <cstddef>
#include <cstdint>
#include <span>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

enum class CannyNorm : std::uint8_t { l1, l2 };

/// @brief What the gradients read outside the image. undefined: OpenVX's UNDEFINED border as its conformance
/// suite expects it: the frame of gradient_size / 2 + 1 pixels on each side is 0 and takes no part in the
/// tracing.
enum class CannyBorder : std::uint8_t { replicate, constant, undefined };

struct CannyOptions {
  std::int32_t low = 0;    ///< a pixel is a candidate when its magnitude is > low
  std::int32_t high = 0;   ///< a candidate is an edge when its magnitude is > high (or joins one)
  int gradient_size = 3;   ///< 3, 5 or 7
  CannyNorm norm = CannyNorm::l1;
  CannyBorder border = CannyBorder::replicate;
  std::uint8_t constant = 0;  ///< read outside the image when border is constant
};

/// @brief The scratch bytes canny() needs for a @p width x @p height plane, whatever its options; 0 when
/// that size is too large (the edge map's indices must fit in 32 bits).
std::size_t canny_scratch_size(std::uint32_t width, std::uint32_t height) noexcept;

/// @brief The detector (OpenVX 1.3's CannyEdgeDetector, bit for bit as its conformance suite checks it):
///   1. dx and dy: the input convolved with the Sobel kernels of gradient_size (each a binomial smoothing
///      row times a derivative row: [1 2 1] x [-1 0 1], [1 4 6 4 1] x [-1 -2 0 2 1],
///      [1 6 15 20 15 6 1] x [-1 -4 -5 0 5 4 1]), exactly in integers. Magnitude m = |dx| + |dy| (L1) or
///      sqrt(dx^2 + dy^2) (L2, compared squared with squared thresholds).
///   2. The direction: horizontal when (|dx| + |dy|)^2 < 2 dx^2, vertical when (|dx| + |dy|)^2 < 2 dy^2,
///      else the diagonal of dx * dy's sign. A pixel is a candidate when m > low and m is > its neighbour
///      before along the direction (left, above, above on the diagonal) and >= the one after (horizontal,
///      vertical) or > it (diagonals). Neighbours outside the image count 0.
///   3. Hysteresis: candidates with m > high are edges, and so are candidates 8-connected to an edge
///      through candidates.
/// @p out (the size of @p in) gets 255 on edges and 0 elsewhere. Returns false (writing nothing) when the
/// sizes differ, an option is out of range or @p scratch is smaller than canny_scratch_size(). Allocates
/// nothing.
bool canny(ConstPlane in, Plane out, const CannyOptions& options, std::span<std::uint8_t> scratch) noexcept;

}  // namespace vg::vision
