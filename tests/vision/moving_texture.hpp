#pragma once
// A smooth random texture seen moved by a whole-pixel shift, for the optical-flow tests.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace vg::vision::test {

/// A smooth random texture (random values, box-blurred three times) @p w x @p h, seen moved by
/// (@p dx, @p dy) whole pixels: texture(x - dx, y - dy).
inline std::vector<std::uint8_t> texture(std::uint32_t w, std::uint32_t h, int dx, int dy) {
  const int margin = 16, tw = static_cast<int>(w) + 2 * margin, th = static_cast<int>(h) + 2 * margin;
  std::mt19937 rng(11);
  std::vector<float> t(static_cast<std::size_t>(tw * th));
  for (float& v : t) v = static_cast<float>(rng() % 256);
  for (int pass = 0; pass < 3; ++pass) {
    std::vector<float> b(t.size());
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tw; ++x) {
        float sum = 0;
        for (int j = -2; j <= 2; ++j)
          for (int i = -2; i <= 2; ++i) sum += t[static_cast<std::size_t>(std::clamp(y + j, 0, th - 1) * tw + std::clamp(x + i, 0, tw - 1))];
        b[static_cast<std::size_t>(y * tw + x)] = sum / 25;
      }
    t = b;
  }
  float lo = 255, hi = 0;
  for (float v : t) lo = std::min(lo, v), hi = std::max(hi, v);
  std::vector<std::uint8_t> out(std::size_t{w} * h);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const float v = t[static_cast<std::size_t>((static_cast<int>(y) - dy + margin) * tw + static_cast<int>(x) - dx + margin)];
      out[y * w + x] = static_cast<std::uint8_t>((v - lo) * 255 / (hi - lo));
    }
  return out;
}

}  // namespace vg::vision::test
