#pragma once
/// @file
/// @brief Draw detections (box, label + score, keypoints) onto a BGR image in place.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "visiongraph/kernels/detection/detections.hpp"

namespace vg::detection {

/// @brief Overlay style.
struct OverlayStyle {
  int thickness = 2;          ///< box line width in pixels
  int keypoint_radius = 3;    ///< keypoint disc radius in pixels
  double font_scale = 0.5;    ///< OpenCV Hershey simplex scale of the labels
  bool draw_labels = true;
  bool draw_keypoints = true;
};

/// @brief Draws DetectionPacket contents on BGR24 images.
///
/// Glyphs are rendered once at construction with cv::putText into a small atlas (cv::putText allocates a
/// point vector on every call), and boxes/discs are plain loops, so draw() never allocates.
/// @code
/// vg::detection::Overlay ov({}, {"person", "bicycle"});     // create
/// ov.draw(bgr_ptr, width, height, stride, packet);          // per frame
/// @endcode
/// @note draw() is const and re-entrant.
class Overlay {
 public:
  /// @param labels optional class names (index = class id); ids without a name are printed as numbers
  explicit Overlay(const OverlayStyle& style = {}, std::vector<std::string> labels = {});

  /// @brief Draw @p packet onto a BGR24 image (@p stride bytes per row). Clips at the borders.
  void draw(std::uint8_t* bgr, int width, int height, std::size_t stride,
            const DetectionPacket& packet) const noexcept;

  /// @brief BGR colour used for a class (stable palette).
  static void class_color(int class_id, std::uint8_t bgr[3]) noexcept;

 private:
  void draw_text(std::uint8_t* bgr, int width, int height, std::size_t stride, int x, int y,
                 const char* text, const std::uint8_t color[3]) const noexcept;

  static constexpr int kFirstGlyph = 32;
  static constexpr int kNumGlyphs = 95;  ///< printable ASCII 32..126
  OverlayStyle style_;
  std::vector<std::string> labels_;
  int glyph_w_ = 0;   ///< cell width of one glyph in the atlas
  int glyph_h_ = 0;   ///< cell height (ascent + descent)
  int baseline_ = 0;  ///< rows from the cell top to the baseline
  std::vector<std::uint8_t> advance_;  ///< per glyph advance in pixels
  std::vector<std::uint8_t> atlas_;    ///< kNumGlyphs cells of glyph_w_ x glyph_h_ coverage (0..255)
};

}  // namespace vg::detection
