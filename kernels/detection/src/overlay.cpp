#include "visiongraph/kernels/detection/overlay.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include <opencv2/imgproc.hpp>

namespace vg::detection {
namespace {

struct Canvas {
  std::uint8_t* data;
  int w;
  int h;
  std::size_t stride;

  void fill(int x0, int y0, int x1, int y1, const std::uint8_t c[3]) const noexcept {
    x0 = std::max(x0, 0);
    y0 = std::max(y0, 0);
    x1 = std::min(x1, w);
    y1 = std::min(y1, h);
    for (int y = y0; y < y1; ++y) {
      std::uint8_t* p = data + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x0) * 3;
      for (int x = x0; x < x1; ++x, p += 3) {
        p[0] = c[0];
        p[1] = c[1];
        p[2] = c[2];
      }
    }
  }
  void blend(int x, int y, const std::uint8_t c[3], int alpha) const noexcept {
    if (x < 0 || y < 0 || x >= w || y >= h || alpha <= 0) return;
    std::uint8_t* p = data + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x) * 3;
    for (int k = 0; k < 3; ++k) p[k] = static_cast<std::uint8_t>((p[k] * (255 - alpha) + c[k] * alpha + 127) / 255);
  }
};

int to_px(float v, int limit) noexcept {
  if (!std::isfinite(v)) return 0;
  return std::clamp(static_cast<int>(std::lround(v)), -1, limit + 1);
}

}  // namespace

Overlay::Overlay(const OverlayStyle& style, std::vector<std::string> labels)
    : style_(style), labels_(std::move(labels)) {
  const int font = cv::FONT_HERSHEY_SIMPLEX;
  int max_w = 1;
  int ascent = 1;
  int descent = 0;
  advance_.resize(kNumGlyphs);
  for (int g = 0; g < kNumGlyphs; ++g) {
    int base = 0;
    const cv::Size sz = cv::getTextSize(std::string(1, static_cast<char>(kFirstGlyph + g)), font,
                                        style_.font_scale, 1, &base);
    max_w = std::max(max_w, sz.width);
    ascent = std::max(ascent, sz.height);
    descent = std::max(descent, base);
    advance_[static_cast<std::size_t>(g)] = static_cast<std::uint8_t>(std::clamp(sz.width, 1, 255));
  }
  glyph_w_ = max_w + 2;
  glyph_h_ = ascent + descent + 2;
  baseline_ = ascent + 1;
  atlas_.assign(static_cast<std::size_t>(kNumGlyphs) * static_cast<std::size_t>(glyph_w_ * glyph_h_), 0);
  for (int g = 0; g < kNumGlyphs; ++g) {
    cv::Mat cell(glyph_h_, glyph_w_, CV_8UC1,
                 atlas_.data() + static_cast<std::size_t>(g) * static_cast<std::size_t>(glyph_w_ * glyph_h_));
    cv::putText(cell, std::string(1, static_cast<char>(kFirstGlyph + g)), cv::Point(0, baseline_), font,
                style_.font_scale, cv::Scalar(255), 1, cv::LINE_AA);
  }
}

void Overlay::class_color(int class_id, std::uint8_t bgr[3]) noexcept {
  static constexpr std::uint8_t kPalette[][3] = {
      {0, 255, 0},   {255, 128, 0}, {0, 128, 255}, {255, 0, 255}, {0, 255, 255},
      {255, 255, 0}, {128, 0, 255}, {0, 0, 255},   {255, 0, 0},   {128, 255, 128},
  };
  constexpr int n = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);
  const int i = ((class_id % n) + n) % n;
  std::memcpy(bgr, kPalette[i], 3);
}

void Overlay::draw_text(std::uint8_t* bgr, int width, int height, std::size_t stride, int x, int y,
                        const char* text, const std::uint8_t color[3]) const noexcept {
  const Canvas cv_{bgr, width, height, stride};
  int pen = x;
  for (const char* s = text; *s != '\0'; ++s) {
    const int g = static_cast<unsigned char>(*s) - kFirstGlyph;
    if (g < 0 || g >= kNumGlyphs) continue;
    const std::uint8_t* cell =
        atlas_.data() + static_cast<std::size_t>(g) * static_cast<std::size_t>(glyph_w_ * glyph_h_);
    for (int gy = 0; gy < glyph_h_; ++gy)
      for (int gx = 0; gx < glyph_w_; ++gx) cv_.blend(pen + gx, y + gy, color, cell[gy * glyph_w_ + gx]);
    pen += advance_[static_cast<std::size_t>(g)];
  }
}

void Overlay::draw(std::uint8_t* bgr, int width, int height, std::size_t stride,
                   const DetectionPacket& packet) const noexcept {
  if (bgr == nullptr || width <= 0 || height <= 0) return;
  const Canvas canvas{bgr, width, height, stride};
  const std::uint32_t n = std::min<std::uint32_t>(packet.count, kMaxDetections);
  const int t = std::max(style_.thickness, 1);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Detection& d = packet.items[i];
    std::uint8_t color[3];
    class_color(d.class_id, color);
    const int x0 = to_px(d.x0, width);
    const int y0 = to_px(d.y0, height);
    const int x1 = to_px(d.x1, width);
    const int y1 = to_px(d.y1, height);
    // Four bands form the rectangle outline (inside the box, so it never covers a neighbour's label).
    canvas.fill(x0, y0, x1, std::min(y0 + t, y1), color);
    canvas.fill(x0, std::max(y1 - t, y0), x1, y1, color);
    canvas.fill(x0, y0, std::min(x0 + t, x1), y1, color);
    canvas.fill(std::max(x1 - t, x0), y0, x1, y1, color);

    if (style_.draw_keypoints) {
      const int r = std::max(style_.keypoint_radius, 1);
      static constexpr std::uint8_t kKeypointColor[3] = {0, 0, 255};
      const int nk = std::clamp(d.num_keypoints, 0, kMaxKeypoints);
      for (int k = 0; k < nk; ++k) {
        const int kx = to_px(d.keypoints[k].x, width);
        const int ky = to_px(d.keypoints[k].y, height);
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= r * r) canvas.blend(kx + dx, ky + dy, kKeypointColor, 255);
      }
    }

    if (style_.draw_labels) {
      char text[64];
      std::size_t len = 0;
      const bool named = d.class_id >= 0 && static_cast<std::size_t>(d.class_id) < labels_.size();
      if (named) {
        const std::string& name = labels_[static_cast<std::size_t>(d.class_id)];
        len = std::min(name.size(), std::size_t{40});
        std::memcpy(text, name.data(), len);
      } else {
        len = static_cast<std::size_t>(std::to_chars(text, text + 16, d.class_id).ptr - text);
      }
      text[len++] = ' ';
      const int pct = std::clamp(static_cast<int>(std::lround(d.score * 100.0f)), 0, 100);
      len = static_cast<std::size_t>(std::to_chars(text + len, text + len + 8, pct).ptr - text);
      text[len++] = '%';
      if (d.track_id > 0) {  // the tracker's id: "face 97% #12"
        text[len++] = ' ';
        text[len++] = '#';
        len = static_cast<std::size_t>(std::to_chars(text + len, text + len + 11, d.track_id).ptr - text);
      }
      text[len] = '\0';
      int text_w = 0;
      for (std::size_t k = 0; k < len; ++k) {
        const int g = static_cast<unsigned char>(text[k]) - kFirstGlyph;
        if (g >= 0 && g < kNumGlyphs) text_w += advance_[static_cast<std::size_t>(g)];
      }
      // Above the box when there is room, otherwise just inside its top edge.
      const int ly = y0 - glyph_h_ >= 0 ? y0 - glyph_h_ : y0;
      canvas.fill(x0, ly, x0 + text_w + 2, ly + glyph_h_, color);
      static constexpr std::uint8_t kTextColor[3] = {0, 0, 0};
      draw_text(bgr, width, height, stride, x0 + 1, ly, text, kTextColor);
    }
  }
}

}  // namespace vg::detection
