#include "visiongraph/kernels/detection/letterbox.hpp"

#include <algorithm>
#include <cmath>

namespace vg::detection {

bool LetterboxGeometry::valid() const noexcept {
  return src_w > 0 && src_h > 0 && dst_w > 0 && dst_h > 0 && std::isfinite(scale) && scale > 0.0f;
}

LetterboxGeometry make_letterbox(int src_w, int src_h, int dst_w, int dst_h) noexcept {
  LetterboxGeometry g;
  g.src_w = src_w;
  g.src_h = src_h;
  g.dst_w = dst_w;
  g.dst_h = dst_h;
  if (src_w <= 0 || src_h <= 0 || dst_w <= 0 || dst_h <= 0) {
    g.scale = 0.0f;
    return g;
  }
  // Computed in double so the fitted side lands exactly on the tensor edge (no 1-ulp overshoot in pads).
  const double sx = static_cast<double>(dst_w) / src_w;
  const double sy = static_cast<double>(dst_h) / src_h;
  const double s = std::min(sx, sy);
  g.scale = static_cast<float>(s);
  g.pad_x = static_cast<float>((dst_w - src_w * s) * 0.5);
  g.pad_y = static_cast<float>((dst_h - src_h * s) * 0.5);
  return g;
}

Point to_network(const LetterboxGeometry& g, Point p) noexcept {
  return {p.x * g.scale + g.pad_x, p.y * g.scale + g.pad_y};
}

Box to_network(const LetterboxGeometry& g, const Box& b) noexcept {
  const Point a = to_network(g, Point{b.x0, b.y0});
  const Point c = to_network(g, Point{b.x1, b.y1});
  return {a.x, a.y, c.x, c.y};
}

Point to_source(const LetterboxGeometry& g, Point p) noexcept {
  const float inv = 1.0f / g.scale;
  const float x = (p.x - g.pad_x) * inv;
  const float y = (p.y - g.pad_y) * inv;
  // std::clamp keeps NaN as NaN; treat NaN as 0 so downstream drawing never sees it.
  const float cx = std::isnan(x) ? 0.0f : std::clamp(x, 0.0f, static_cast<float>(g.src_w));
  const float cy = std::isnan(y) ? 0.0f : std::clamp(y, 0.0f, static_cast<float>(g.src_h));
  return {cx, cy};
}

Box to_source(const LetterboxGeometry& g, const Box& b) noexcept {
  const Point a = to_source(g, Point{b.x0, b.y0});
  const Point c = to_source(g, Point{b.x1, b.y1});
  return {a.x, a.y, c.x, c.y};
}

}  // namespace vg::detection
