// The vision library's Canny (kernels/vision/canny.hpp) on every instruction set Highway compiled in and
// this CPU runs, against a reference written here from the definition: the Sobel kernels applied as 2-D
// windows (not separated), the magnitude in double (sqrt for L2), the direction from atan2 in degrees, and
// the hysteresis grown to a fixed point by sweeping the whole image (not traced from a stack).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/canny.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// A U8 plane with @p padding bytes after each row (random too: a read of them would show).
struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding, std::uint32_t seed)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * h) {
    std::mt19937 rng(seed);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  }
  ConstPlane plane() const { return {bytes.data(), width, height, stride}; }
  Plane plane() { return {bytes.data(), width, height, stride}; }
  std::uint8_t& at(std::uint32_t x, std::uint32_t y) { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  int at(std::uint32_t x, std::uint32_t y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

/// Smooth shapes (rings, a ramp, steps) plus noise: edges of every direction and length, and flat parts.
void draw_scene(Image& img, std::uint32_t seed, int noise) {
  std::mt19937 rng(seed);
  const double cx = img.width * 0.4, cy = img.height * 0.6, period = 4.0 + rng() % 12;
  for (std::uint32_t y = 0; y < img.height; ++y) {
    for (std::uint32_t x = 0; x < img.width; ++x) {
      const double r = std::hypot(x - cx, y - cy);
      int v = (static_cast<int>(r / period) % 2 == 0) ? 60 : 180;
      if (x > img.width * 3 / 4) v = static_cast<int>(y * 255 / std::max<std::uint32_t>(1, img.height));  // a ramp
      if (noise > 0) v += static_cast<int>(rng() % (2 * noise + 1)) - noise;
      img.at(x, y) = static_cast<std::uint8_t>(std::clamp(v, 0, 255));
    }
  }
}

/// The reference: 255 on edges, 0 elsewhere, width * height bytes.
std::vector<std::uint8_t> reference_canny(const Image& img, const CannyOptions& o) {
  static constexpr int kSmoothing[3][7] = {{1, 2, 1}, {1, 4, 6, 4, 1}, {1, 6, 15, 20, 15, 6, 1}};
  static constexpr int kDerivative[3][7] = {{-1, 0, 1}, {-1, -2, 0, 2, 1}, {-1, -4, -5, 0, 5, 4, 1}};
  const int w = static_cast<int>(img.width), h = static_cast<int>(img.height), r = o.gradient_size / 2;
  const auto pixel = [&](int x, int y) {
    if (o.border == CannyBorder::constant && (x < 0 || y < 0 || x >= w || y >= h)) return static_cast<int>(o.constant);
    return img.at(static_cast<std::uint32_t>(std::clamp(x, 0, w - 1)), static_cast<std::uint32_t>(std::clamp(y, 0, h - 1)));
  };
  std::vector<double> mag(static_cast<std::size_t>(w) * h);
  std::vector<int> sector(mag.size());  // 0 horizontal, 1 vertical, 2 diagonal "\" (gx * gy > 0), 3 "/"
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      long long gx = 0, gy = 0;
      for (int i = -r; i <= r; ++i) {
        for (int j = -r; j <= r; ++j) {
          const int p = pixel(x + j, y + i);
          gx += static_cast<long long>(kSmoothing[r - 1][i + r]) * kDerivative[r - 1][j + r] * p;
          gy += static_cast<long long>(kDerivative[r - 1][i + r]) * kSmoothing[r - 1][j + r] * p;
        }
      }
      const double ax = std::fabs(static_cast<double>(gx)), ay = std::fabs(static_cast<double>(gy));
      const std::size_t at = static_cast<std::size_t>(y) * w + x;
      mag[at] = o.norm == CannyNorm::l1 ? ax + ay : std::sqrt(ax * ax + ay * ay);
      const double degrees = std::atan2(ay, ax) * 180.0 / M_PI;  // 0 .. 90
      sector[at] = degrees < 22.5 ? 0 : degrees > 67.5 ? 1 : ((gx < 0) == (gy < 0) ? 2 : 3);
    }
  }
  const int frame = o.border == CannyBorder::undefined ? r + 1 : 0;
  const auto m_at = [&](int x, int y) { return (x < 0 || y < 0 || x >= w || y >= h) ? 0.0 : mag[static_cast<std::size_t>(y) * w + x]; };
  std::vector<int> state(mag.size(), 0);  // 0 none, 1 candidate, 2 edge
  for (int y = frame; y < h - frame; ++y) {
    for (int x = frame; x < w - frame; ++x) {
      const double m = m_at(x, y);
      if (!(m > o.low)) continue;  // a negative low: every pixel passes
      bool keep = false;
      switch (sector[static_cast<std::size_t>(y) * w + x]) {
        case 0: keep = m > m_at(x - 1, y) && m >= m_at(x + 1, y); break;
        case 1: keep = m > m_at(x, y - 1) && m >= m_at(x, y + 1); break;
        case 2: keep = m > m_at(x - 1, y - 1) && m > m_at(x + 1, y + 1); break;
        default: keep = m > m_at(x + 1, y - 1) && m > m_at(x - 1, y + 1); break;
      }
      if (keep) state[static_cast<std::size_t>(y) * w + x] = m > o.high ? 2 : 1;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        int& s = state[static_cast<std::size_t>(y) * w + x];
        if (s != 1) continue;
        for (int dy = -1; dy <= 1 && s == 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || state[static_cast<std::size_t>(ny) * w + nx] != 2) continue;
            s = 2;
            changed = true;
            break;
          }
        }
      }
    }
  }
  std::vector<std::uint8_t> out(mag.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = state[i] == 2 ? 255 : 0;
  return out;
}

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards (as test_vision_functions).
class CannyEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

/// Runs canny() on @p img and compares with the reference; returns the edge count.
std::size_t check(const Image& img, const CannyOptions& o, const std::string& where) {
  std::vector<std::uint8_t> scratch(canny_scratch_size(img.width, img.height) + 3);
  Image out(img.width, img.height, 3, 99);
  // An unaligned scratch start: the function aligns what it needs itself.
  EXPECT_TRUE(canny(img.plane(), out.plane(), o, {scratch.data() + 3, scratch.size() - 3})) << where;
  const std::vector<std::uint8_t> want = reference_canny(img, o);
  std::size_t edges = 0, wrong = 0;
  for (std::uint32_t y = 0; y < img.height; ++y) {
    for (std::uint32_t x = 0; x < img.width; ++x) {
      const int got = out.at(x, y), expected = want[static_cast<std::size_t>(y) * img.width + x];
      edges += expected != 0;
      if (got != expected && wrong++ < 5) ADD_FAILURE() << where << " at (" << x << ", " << y << "): " << got << " != " << expected;
    }
  }
  EXPECT_EQ(wrong, 0u) << where;
  return edges;
}

TEST_P(CannyEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(CannyEverySimdTarget, MatchesTheDefinitionForEverySizeNormAndBorder) {
  std::mt19937 rng(20240611);
  // Narrower than any vector, around the vector widths, and wider; heights small and odd.
  constexpr std::uint32_t kWidths[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 47, 64, 65, 97, 130};
  // A step of height H gives an L1 magnitude of about 4 H, 48 H and 640 H for sizes 3, 5 and 7.
  constexpr int kScale[] = {4, 48, 640};
  std::size_t edges = 0;
  for (const int size : {3, 5, 7}) {
    for (const CannyNorm norm : {CannyNorm::l1, CannyNorm::l2}) {
      for (const CannyBorder border : {CannyBorder::replicate, CannyBorder::constant, CannyBorder::undefined}) {
        for (const std::uint32_t width : kWidths) {
          const std::uint32_t height = 1 + rng() % 40;
          const std::uint32_t seed = static_cast<std::uint32_t>(rng());
          Image img(width, height, rng() % 2 == 0 ? 0 : 7, seed);
          const int kind = static_cast<int>(rng() % 3);  // pure noise, a noisy scene, a clean one
          if (kind > 0) draw_scene(img, seed, kind == 1 ? 20 : 0);
          CannyOptions o;
          o.gradient_size = size;
          o.norm = norm;
          o.border = border;
          o.constant = static_cast<std::uint8_t>(rng());
          const int scale = kScale[size / 2 - 1];
          o.low = std::min(32767, scale * static_cast<int>(5 + rng() % 30));
          o.high = std::min(32767, o.low + scale * static_cast<int>(rng() % 60));
          if (rng() % 8 == 0) o.low = -1 - static_cast<int>(rng() % 100);  // every pixel over the lower threshold
          if (rng() % 8 == 0) std::swap(o.low, o.high);                     // upper below lower
          const std::string where = "size " + std::to_string(size) + (norm == CannyNorm::l1 ? " L1" : " L2") + " border " +
                                    std::to_string(static_cast<int>(border)) + " " + std::to_string(width) + "x" + std::to_string(height) +
                                    " kind " + std::to_string(kind) + " low " + std::to_string(o.low) + " high " + std::to_string(o.high);
          edges += check(img, o, where);
        }
      }
    }
  }
  EXPECT_GT(edges, 1000u) << "the inputs have edges";
}

TEST_P(CannyEverySimdTarget, LargerSceneWithLongChains) {
  // Wide enough for several vectors per row at every width, and rings long enough for deep tracing.
  for (const int size : {3, 5, 7}) {
    Image img(211, 157, 9, 5);
    draw_scene(img, 17, 8);
    CannyOptions o;
    o.gradient_size = size;
    o.norm = size == 5 ? CannyNorm::l2 : CannyNorm::l1;
    const int scale = size == 3 ? 4 : size == 5 ? 48 : 640;
    o.low = std::min(32767, 10 * scale);
    o.high = std::min(32767, 40 * scale);
    EXPECT_GT(check(img, o, "size " + std::to_string(size)), 500u);
  }
}

TEST(Canny, RefusesWhatItCannotDo) {
  Image img(40, 30, 0, 1), out(40, 30, 0, 2), small(39, 30, 0, 3);
  std::vector<std::uint8_t> scratch(canny_scratch_size(40, 30));
  CannyOptions o;
  EXPECT_FALSE(canny(img.plane(), small.plane(), o, scratch)) << "sizes differ";
  o.gradient_size = 4;
  EXPECT_FALSE(canny(img.plane(), out.plane(), o, scratch)) << "gradient size 4";
  o.gradient_size = 3;
  EXPECT_FALSE(canny(img.plane(), out.plane(), o, {scratch.data(), scratch.size() - 1})) << "scratch too small";
  EXPECT_TRUE(canny(img.plane(), out.plane(), o, scratch));
  EXPECT_EQ(canny_scratch_size(70000, 70000), 0u) << "the map's indices would pass 32 bits";
}

INSTANTIATE_TEST_SUITE_P(Simd, CannyEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
