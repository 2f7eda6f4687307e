#pragma once
/// @file
/// @brief Letterbox geometry: the one mapping between source-image pixels and network-input pixels.

namespace vg::detection {

/// @brief Aspect-preserving, centred fit of a src_w x src_h image into a dst_w x dst_h network input.
///
/// Coordinates are continuous pixel coordinates (pixel i spans [i, i+1)), so the mapping is exact for
/// box corners and keypoints: `x_net = x_src * scale + pad_x` and `x_src = (x_net - pad_x) / scale`.
/// The pads are not rounded: this is the MediaPipe convention (PadRoi + DetectionLetterboxRemoval),
/// which keeps forward and inverse maps exact inverses of each other.
/// Computed once (at create) and then treated as immutable.
/// @code
/// auto g = vg::detection::make_letterbox(548, 342, 128, 128);
/// vg::detection::Point p = g.to_source({64.f, 64.f});   // centre of the tensor -> centre of the image
/// @endcode
struct LetterboxGeometry {
  int src_w = 0;
  int src_h = 0;
  int dst_w = 0;
  int dst_h = 0;
  float scale = 1.0f;  ///< network pixels per source pixel
  float pad_x = 0.0f;  ///< left padding in network pixels
  float pad_y = 0.0f;  ///< top padding in network pixels

  /// @brief True when all sizes are positive and scale is finite and positive.
  bool valid() const noexcept;
};

/// @brief A 2-D point (pixels).
struct Point {
  float x = 0.0f;
  float y = 0.0f;
};

/// @brief An axis-aligned box given by its corners (pixels), x0 <= x1, y0 <= y1 when valid.
struct Box {
  float x0 = 0.0f;
  float y0 = 0.0f;
  float x1 = 0.0f;
  float y1 = 0.0f;
};

/// @brief Geometry of a centred, aspect-preserving letterbox. Returns an invalid geometry (valid() ==
///        false) if any size is not positive.
LetterboxGeometry make_letterbox(int src_w, int src_h, int dst_w, int dst_h) noexcept;

/// @brief Source pixel -> network pixel (not clamped).
Point to_network(const LetterboxGeometry& g, Point p) noexcept;
/// @brief Source box -> network box (not clamped).
Box to_network(const LetterboxGeometry& g, const Box& b) noexcept;

/// @brief Network pixel -> source pixel, clamped to [0, src_w] x [0, src_h].
Point to_source(const LetterboxGeometry& g, Point p) noexcept;
/// @brief Network box -> source box, each corner clamped to the source image.
Box to_source(const LetterboxGeometry& g, const Box& b) noexcept;

}  // namespace vg::detection
