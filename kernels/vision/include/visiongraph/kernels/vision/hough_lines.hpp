#pragma once
/// @file
/// @brief OpenVX's HoughLinesP: the progressive probabilistic Hough transform for line segments of a
/// binary edge image, reproducing OpenCV's cv::HoughLinesP exactly (the conformance suite's expected lines
/// are its output).
#include <cstddef>
#include <cstdint>
#include <span>

namespace vg::vision {

/// @brief The transform's parameters (vx_hough_lines_p_t's).
struct HoughLinesOptions {
  float rho = 1.0f;        ///< the accumulator's distance step, > 0
  float theta = 0.0f;      ///< its angle step (radians), > 0
  int threshold = 1;       ///< the votes a line needs, >= 1
  int line_length = 0;     ///< the shortest segment reported, >= 0
  int line_gap = 0;        ///< the longest run of missing points a segment bridges, >= 0
  float theta_max = 0.0f;  ///< the angles are theta_min + n theta, n = 0 .. round((theta_max - theta_min) / theta) - 1
  float theta_min = 0.0f;
};

/// @brief The edge image: its non-zero pixels in [start_x, end_x) x [start_y, end_y) are the edge points.
struct HoughEdges {
  const std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;      ///< bytes from a row's start to the next row's
  std::ptrdiff_t pixel_step = 1;  ///< bytes from a pixel to the next (one byte per pixel)
  bool bits = false;              ///< one bit per pixel instead, the first pixel in a byte's lowest bit (U1)
  std::uint32_t start_x = 0, start_y = 0, end_x = 0, end_y = 0;  ///< the region, within the image
};

/// @brief A segment's end points, in whole pixels.
struct HoughSegment {
  std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;

  friend bool operator==(const HoughSegment&, const HoughSegment&) = default;
};

/// @brief Receives the segments in the order they are found.
class HoughSegmentSink {
 public:
  virtual void take(const HoughSegment& segment) noexcept = 0;

 protected:
  ~HoughSegmentSink() = default;
};

/// @brief The scratch bytes hough_lines_p() needs for a @p width x @p height image (accumulator, angle
/// tables, point list and point mask); 0 when @p options are out of range (see HoughLinesOptions) or the
/// scratch would reach 2 GiB.
std::size_t hough_lines_p_scratch_size(std::uint32_t width, std::uint32_t height, const HoughLinesOptions& options) noexcept;

/// @brief The progressive probabilistic Hough transform. Edge points are drawn one at a time in a
/// pseudo-random order (a multiply-with-carry generator, multiplier 4164903690, state seeded with all
/// ones, the index the state's low word modulo the points left: cv::RNG's sequence); each votes for every
/// angle's line through it (rho = x cos + y sin over the rho step, rounded to nearest even, in float).
/// When the strongest of its lines reaches the threshold, the line through the point is followed both ways
/// in 16.16 fixed point across gaps of at most line_gap pixels; its points leave the mask and, when the
/// segment spans at least line_length on x or y, also the accumulator (each of their lines loses a vote,
/// drawn or not), and the segment goes to @p sink.
///
/// Sets @p found to the segments reported and returns true; returns false (reporting none) when the
/// options are out of range, the region is not within the image or @p scratch is smaller than
/// hough_lines_p_scratch_size(). Allocates nothing.
bool hough_lines_p(const HoughEdges& edges, const HoughLinesOptions& options, std::span<std::uint8_t> scratch, HoughSegmentSink& sink,
                   std::size_t& found) noexcept;

}  // namespace vg::vision
