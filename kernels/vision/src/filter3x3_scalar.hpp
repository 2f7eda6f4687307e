#pragma once
// The 3x3 filters one pixel at a time: the image's frame (where the window reaches past an edge) and rows
// too narrow for a vector. Included once per Highway target; header-only and target-independent.
#include <algorithm>
#include <cstdint>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision::scalar {

struct Window {
  std::uint8_t v[9];  // row order; v[4] is the centre
};

/// The window around (x, y) under @p border.
inline Window window(ConstPlane in, Border border, std::uint32_t x, std::uint32_t y) noexcept {
  Window w{};
  const int width = static_cast<int>(in.width), height = static_cast<int>(in.height);
  for (int dy = -1, i = 0; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx, ++i) {
      int sx = static_cast<int>(x) + dx, sy = static_cast<int>(y) + dy;
      if (sx < 0 || sy < 0 || sx >= width || sy >= height) {
        if (border.mode == BorderMode::constant) {
          w.v[i] = border.constant;
          continue;
        }
        sx = std::clamp(sx, 0, width - 1);
        sy = std::clamp(sy, 0, height - 1);
      }
      w.v[i] = in.row(static_cast<std::uint32_t>(sy))[sx];
    }
  }
  return w;
}

/// The window at column x of three rows (x - 1 and x + 1 must be inside them).
inline Window window_at(const std::uint8_t* top, const std::uint8_t* mid, const std::uint8_t* bottom, std::size_t x) noexcept {
  return Window{{top[x - 1], top[x], top[x + 1], mid[x - 1], mid[x], mid[x + 1], bottom[x - 1], bottom[x], bottom[x + 1]}};
}

inline void order(std::uint8_t& a, std::uint8_t& b) noexcept {
  const std::uint8_t lo = std::min(a, b);
  b = std::max(a, b);
  a = lo;
}

inline std::uint8_t apply(Filter3x3 filter, Window w) noexcept {
  std::uint8_t* p = w.v;
  switch (filter) {
    case Filter3x3::gaussian: {
      const unsigned corners = unsigned{p[0]} + p[2] + p[6] + p[8], edges = unsigned{p[1]} + p[3] + p[5] + p[7];
      return static_cast<std::uint8_t>((corners + 2u * edges + 4u * p[4]) >> 4);
    }
    case Filter3x3::box: {
      unsigned sum = 0;
      for (int i = 0; i < 9; ++i) sum += p[i];
      return static_cast<std::uint8_t>(sum / 9u);
    }
    case Filter3x3::erode: return *std::min_element(p, p + 9);
    case Filter3x3::dilate: return *std::max_element(p, p + 9);
    case Filter3x3::median:
      order(p[1], p[2]), order(p[4], p[5]), order(p[7], p[8]);
      order(p[0], p[1]), order(p[3], p[4]), order(p[6], p[7]);
      order(p[1], p[2]), order(p[4], p[5]), order(p[7], p[8]);
      order(p[0], p[3]), order(p[5], p[8]), order(p[4], p[7]);
      order(p[3], p[6]), order(p[1], p[4]), order(p[2], p[5]);
      order(p[4], p[7]), order(p[4], p[2]), order(p[6], p[4]);
      order(p[4], p[2]);
      return p[4];
  }
  return 0;
}

}  // namespace vg::vision::scalar
