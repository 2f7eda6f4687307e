#pragma once
/// @file
/// @brief OpenVX's FastCorners: FAST9 corners of a U8 plane, their strengths and the optional non-maximum
/// suppression, in raster order.
#include <cstddef>
#include <cstdint>
#include <span>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief FAST9's circle: the 16 pixels at radius 3 around a candidate, clockwise from the right (y down),
/// and the length of the arc that makes a corner. One table for the vectorised function and for
/// libopenvx's per-pixel path (images whose pixels are not packed).
inline constexpr std::uint32_t kFastRadius = 3;
inline constexpr int kFastCircle = 16;
inline constexpr int kFastArc = 9;
inline constexpr int kFastCircleX[kFastCircle] = {3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1, 0, 1, 2, 3};
inline constexpr int kFastCircleY[kFastCircle] = {0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1};

/// @brief One corner: its pixel and its strength (see fast_corners()).
struct FastCorner {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t strength = 0;  ///< 0 .. 254

  friend bool operator==(const FastCorner&, const FastCorner&) = default;
};

/// @brief Receives the corners in raster order, a batch at a time.
class FastCornerSink {
 public:
  virtual void take(std::span<const FastCorner> corners) noexcept = 0;

 protected:
  ~FastCornerSink() = default;
};

/// @brief How the corners are chosen.
struct FastCornerOptions {
  std::uint8_t threshold = 0;       ///< t: the circle pixels must differ from the centre by more than t
  bool nonmax_suppression = false;  ///< keep only the corners stronger than their neighbours (below)
};

/// @brief The scratch bytes fast_corners() needs for a plane @p width pixels wide (three rows of strengths).
constexpr std::size_t fast_corners_scratch_size(std::uint32_t width) noexcept { return 3 * static_cast<std::size_t>(width); }

/// @brief FAST9: the 16 pixels of the Bresenham circle of radius 3 around a pixel p are read in order round
/// it; p is a corner when 9 contiguous of them (the circle wraps) are all brighter than I_p + t, or all
/// darker than I_p - t (strict comparisons). Only pixels 3 or more from every edge are candidates.
///
/// A corner's strength is the largest threshold for which it is still a corner: over every arc of 9, the
/// smallest |I_x - I_p| of one sign, maximised over the arcs and both signs, less 1. With non-maximum
/// suppression a corner stays only when its strength is >= that of its left, upper-left, upper and
/// upper-right neighbours and > that of the other four (a pixel that is no corner counts as 0; so a corner
/// of strength 0 never stays).
///
/// Passes every corner kept to @p sink in raster order, sets @p found to how many and returns true; returns
/// false (passing none) when @p scratch is smaller than fast_corners_scratch_size(in.width). Allocates
/// nothing.
bool fast_corners(ConstPlane in, FastCornerOptions options, std::span<std::uint8_t> scratch, FastCornerSink& sink,
                  std::size_t& found) noexcept;

/// @brief fast_corners() into @p out: the first out.size() corners in raster order are written there, and
/// @p found gets how many there are in all (which can exceed out.size()).
bool fast_corners(ConstPlane in, FastCornerOptions options, std::span<std::uint8_t> scratch, std::span<FastCorner> out,
                  std::size_t& found) noexcept;

}  // namespace vg::vision
