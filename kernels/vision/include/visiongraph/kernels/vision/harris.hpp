#pragma once
/// @file
/// @brief OpenVX's HarrisCorners: Harris-Stephens scores of a U8 plane, thresholded, non-maximum suppressed,
/// strongest first and thinned by a minimum distance.
#include <cstddef>
#include <cstdint>
#include <span>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief What the gradients and block sums read outside the plane: the nearest edge pixel (replicate), a
/// fixed value (constant), or the plane mirrored about its edge pixels, the edge pixel not repeated
/// (mirror: -1 reads 1, width reads width - 2; what libopenvx computes for OpenVX's UNDEFINED border).
enum class HarrisBorderMode : std::uint8_t { replicate, constant, mirror };

struct HarrisBorder {
  HarrisBorderMode mode = HarrisBorderMode::replicate;
  std::uint8_t constant = 0;  ///< read outside the plane when mode is constant
};

/// @brief The parameters (OpenVX's names in brackets).
struct HarrisOptions {
  float threshold = 0.0f;     ///< T (strength_thresh): a score must exceed max(T, 0)
  float min_distance = 0.0f;  ///< r (min_distance), >= 0: no corner closer than r to a stronger one
  float sensitivity = 0.04f;  ///< k (sensitivity)
  int gradient_size = 3;      ///< g: 3, 5 or 7
  int block_size = 3;         ///< b: 3, 5 or 7
  HarrisBorder border{};
};

/// @brief One corner: its pixel and its score Mc.
struct HarrisCorner {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  float strength = 0.0f;

  friend bool operator==(const HarrisCorner&, const HarrisCorner&) = default;
};

/// @brief Receives the corners strongest first, a batch at a time.
class HarrisCornerSink {
 public:
  virtual void take(std::span<const HarrisCorner> corners) noexcept = 0;

 protected:
  ~HarrisCornerSink() = default;
};

/// @brief How many corners a width x height plane can have at most (suppression leaves at most one in each
/// 2 x 2 square).
constexpr std::size_t harris_corners_max_count(std::uint32_t width, std::uint32_t height) noexcept {
  return static_cast<std::size_t>((width + 1) / 2) * ((height + 1) / 2);
}

/// @brief The scratch bytes harris_corners() needs for a width x height plane (any gradient and block size);
/// SIZE_MAX when the plane is too large for it (width * height must stay below 2^32 - 1).
std::size_t harris_corners_scratch_size(std::uint32_t width, std::uint32_t height) noexcept;

/// @brief Harris corners (Harris-Stephens), computed as follows, bit for bit:
///  1. Gx and Gy: the separable Sobel of size g (smoothing taps: row g - 1 of Pascal's triangle; derivative
///     taps: row g - 2 convolved with (-1, 1)), Gx the derivative along the row, Gy down the column, on the
///     plane extended by options.border. Whole numbers, exact; then as floats fx = Gx * s, fy = Gy * s with
///     the float s = 1 / (2^(g-1) * 255 * b) (computed in double), and the float products fx^2, fx fy, fy^2.
///  2. Their sums over the b x b block centred on a pixel, in float: first down each column of the block,
///     then along the row of those column sums from left to right. Down a column the block's rows are added
///     in the order of ((their image row + b/2) mod b): 0 first, then 1, and so on.
///  3. With a, m, c the sums of fx^2, fx fy, fy^2 widened to double: trace = a + c, Mc = a c - m m -
///     k trace trace (each operation rounded to double in that order, k widened); the score is Mc rounded
///     to float where Mc > max(T, 0), else 0.
///  4. A pixel with all eight neighbours inside the plane and a score v != 0 is a candidate when v >= its
///     upper-left, upper, upper-right and left neighbours' scores and v > its other four neighbours'.
///  5. Candidates by decreasing score, ties in raster order, become corners unless a corner already taken
///     lies at a Euclidean distance below r (squares compared in double).
///
/// Passes every corner to @p sink strongest first, sets @p found to how many and returns true. Returns false
/// (passing none, @p found 0) when @p scratch is smaller than harris_corners_scratch_size(), g or b is not
/// 3, 5 or 7, T, r or k is not finite, or r < 0. Allocates nothing.
bool harris_corners(ConstPlane in, const HarrisOptions& options, std::span<std::uint8_t> scratch, HarrisCornerSink& sink,
                    std::size_t& found) noexcept;

/// @brief harris_corners() into @p out: the first out.size() corners, strongest first, are written there,
/// and @p found gets how many there are in all (which can exceed out.size()).
bool harris_corners(ConstPlane in, const HarrisOptions& options, std::span<std::uint8_t> scratch, std::span<HarrisCorner> out,
                    std::size_t& found) noexcept;

}  // namespace vg::vision
