// The vision library's HoughLinesP (kernels/vision/hough_lines.hpp) on every instruction set Highway compiled
// in and this CPU runs, against the scalar form libopenvx ran before the library had the function (kept here
// as the reference: one point at a time, 32-bit votes, rho rounded by lrint, interleaved angle table), on
// random edge images (scattered points and drawn lines) of odd sizes, U8 and U1, whole images and regions,
// and parameters that take both the 16-bit and the 32-bit accumulator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/hough_lines.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// Edge points: one byte per pixel, 0 or 1.
struct EdgeImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> on;
  bool at(std::uint32_t x, std::uint32_t y) const { return on[static_cast<std::size_t>(y) * width + x] != 0; }
};

/// The region of an image whose points count.
struct Region {
  std::uint32_t start_x = 0, start_y = 0, end_x = 0, end_y = 0;
};

/// The reference: the scalar transform as libopenvx computed it.
std::vector<HoughSegment> reference(const EdgeImage& img, Region reg, const HoughLinesOptions& p) {
  const std::uint32_t width = img.width, height = img.height;
  const int angles = static_cast<int>(std::nearbyint((p.theta_max - p.theta_min) / p.theta));
  const int rhos = static_cast<int>(std::nearbyint(((width + height) * 2.0 + 1.0) / p.rho));
  std::vector<std::int32_t> acc(static_cast<std::size_t>(angles) * static_cast<std::size_t>(rhos), 0);
  std::vector<float> trig(2 * static_cast<std::size_t>(angles));
  const float inv_rho = 1.0f / p.rho;
  for (int n = 0; n < angles; ++n) {
    const double a = p.theta_min + n * static_cast<double>(p.theta);
    trig[2 * n] = static_cast<float>(std::cos(a) * inv_rho);
    trig[2 * n + 1] = static_cast<float>(std::sin(a) * inv_rho);
  }
  const int rho_offset = (rhos - 1) / 2;
  std::vector<int> points;
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(width) * height, 0);
  for (std::uint32_t y = reg.start_y; y < reg.end_y; ++y) {
    for (std::uint32_t x = reg.start_x; x < reg.end_x; ++x) {
      if (!img.at(x, y)) continue;
      points.push_back(static_cast<int>(x));
      points.push_back(static_cast<int>(y));
      mask[static_cast<std::size_t>(y) * width + x] = 1;
    }
  }
  std::vector<HoughSegment> out;
  const int shift = 16;
  std::uint64_t state = ~std::uint64_t{0};
  auto next_index = [&state](std::size_t n) {
    state = static_cast<std::uint64_t>(static_cast<std::uint32_t>(state)) * 4164903690u + (state >> 32);
    return static_cast<std::size_t>(static_cast<std::uint32_t>(state) % static_cast<std::uint32_t>(n));
  };
  const auto outside = [&](int ix, int iy) {
    return ix < static_cast<int>(reg.start_x) || ix >= static_cast<int>(reg.end_x) || iy < static_cast<int>(reg.start_y) ||
           iy >= static_cast<int>(reg.end_y);
  };
  for (std::size_t count = points.size() / 2; count > 0; --count) {
    const std::size_t k = next_index(count);
    const int x = points[2 * k], y = points[2 * k + 1];
    points[2 * k] = points[2 * (count - 1)];
    points[2 * k + 1] = points[2 * (count - 1) + 1];
    if (!mask[static_cast<std::size_t>(y) * width + static_cast<std::size_t>(x)]) continue;
    int best = p.threshold - 1, best_angle = -1;
    for (int n = 0; n < angles; ++n) {
      const int r = static_cast<int>(std::lrint(static_cast<float>(x) * trig[2 * n] + static_cast<float>(y) * trig[2 * n + 1])) + rho_offset;
      if (r < 0 || r >= rhos) continue;
      const int votes = ++acc[static_cast<std::size_t>(n) * rhos + r];
      if (votes > best) {
        best = votes;
        best_angle = n;
      }
    }
    if (best_angle < 0) continue;
    const float a = -trig[2 * best_angle + 1], b = trig[2 * best_angle];
    int x0 = x, y0 = y, dx0, dy0;
    const bool x_major = std::fabs(a) > std::fabs(b);
    if (x_major) {
      dx0 = a > 0 ? 1 : -1;
      dy0 = static_cast<int>(std::lrint(b * static_cast<float>(1 << shift) / std::fabs(a)));
      y0 = (y0 << shift) + (1 << (shift - 1));
    } else {
      dy0 = b > 0 ? 1 : -1;
      dx0 = static_cast<int>(std::lrint(a * static_cast<float>(1 << shift) / std::fabs(b)));
      x0 = (x0 << shift) + (1 << (shift - 1));
    }
    int ends[2][2] = {};
    for (int side = 0; side < 2; ++side) {
      int gap = 0, px = x0, py = y0;
      const int dx = side ? -dx0 : dx0, dy = side ? -dy0 : dy0;
      for (;; px += dx, py += dy) {
        const int ix = x_major ? px : px >> shift, iy = x_major ? py >> shift : py;
        if (outside(ix, iy)) break;
        if (mask[static_cast<std::size_t>(iy) * width + static_cast<std::size_t>(ix)]) {
          gap = 0;
          ends[side][0] = ix;
          ends[side][1] = iy;
        } else if (++gap > p.line_gap) {
          break;
        }
      }
    }
    const bool long_enough = std::abs(ends[1][0] - ends[0][0]) >= p.line_length || std::abs(ends[1][1] - ends[0][1]) >= p.line_length;
    for (int side = 0; side < 2; ++side) {
      int px = x0, py = y0;
      const int dx = side ? -dx0 : dx0, dy = side ? -dy0 : dy0;
      for (;; px += dx, py += dy) {
        const int ix = x_major ? px : px >> shift, iy = x_major ? py >> shift : py;
        if (outside(ix, iy)) break;
        std::uint8_t& m = mask[static_cast<std::size_t>(iy) * width + static_cast<std::size_t>(ix)];
        if (m) {
          if (long_enough) {
            for (int n = 0; n < angles; ++n) {
              const int r = static_cast<int>(std::lrint(static_cast<float>(ix) * trig[2 * n] + static_cast<float>(iy) * trig[2 * n + 1])) +
                            rho_offset;
              if (r >= 0 && r < rhos) --acc[static_cast<std::size_t>(n) * rhos + r];
            }
          }
          m = 0;
        }
        if (ix == ends[side][0] && iy == ends[side][1]) break;
      }
    }
    if (long_enough) out.push_back(HoughSegment{ends[0][0], ends[0][1], ends[1][0], ends[1][1]});
  }
  return out;
}

/// Scattered points (@p density in 1000) and @p lines straight lines of random ends, some dashed.
EdgeImage random_edges(std::uint32_t w, std::uint32_t h, std::uint32_t seed, int density, int lines) {
  EdgeImage img{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * h, 0)};
  std::mt19937 rng(seed);
  for (auto& v : img.on) v = static_cast<int>(rng() % 1000) < density ? 1 : 0;
  for (int l = 0; l < lines; ++l) {
    const double x0 = rng() % w, y0 = rng() % h, x1 = rng() % w, y1 = rng() % h;
    const int steps = static_cast<int>(std::max(std::fabs(x1 - x0), std::fabs(y1 - y0))) + 1;
    const int dash = static_cast<int>(rng() % 4);  // 0: solid; else gaps of dash pixels every 8
    for (int i = 0; i <= steps; ++i) {
      if (dash != 0 && i % 8 < dash) continue;
      const double t = static_cast<double>(i) / steps;
      const auto x = static_cast<std::uint32_t>(std::lround(x0 + t * (x1 - x0))), y = static_cast<std::uint32_t>(std::lround(y0 + t * (y1 - y0)));
      img.on[static_cast<std::size_t>(y) * w + x] = 1;
    }
  }
  return img;
}

class Collect final : public HoughSegmentSink {
 public:
  void take(const HoughSegment& s) noexcept override { segments.push_back(s); }
  std::vector<HoughSegment> segments;
};

/// The library's segments for @p img as U8 (non-zero bytes of random value, @p step bytes apart, rows padded)
/// or U1 (packed bits).
std::vector<HoughSegment> library(const EdgeImage& img, Region reg, const HoughLinesOptions& p, bool bits, std::ptrdiff_t step = 1) {
  std::mt19937 rng(img.width * 31 + img.height);
  std::vector<std::uint8_t> bytes;
  HoughEdges e;
  e.width = img.width;
  e.height = img.height;
  e.bits = bits;
  e.pixel_step = step;
  e.stride = bits ? static_cast<std::ptrdiff_t>((img.width + 7) / 8 + 3) : static_cast<std::ptrdiff_t>(img.width) * step + 7;
  bytes.assign(static_cast<std::size_t>(e.stride) * img.height, 0);
  for (std::uint32_t y = 0; y < img.height; ++y) {
    for (std::uint32_t x = 0; x < img.width; ++x) {
      if (!img.at(x, y)) continue;
      if (bits) {
        bytes[static_cast<std::size_t>(y) * e.stride + x / 8] |= static_cast<std::uint8_t>(1u << (x % 8));
      } else {
        bytes[static_cast<std::size_t>(y) * e.stride + x * step] = static_cast<std::uint8_t>(1 + rng() % 255);
      }
    }
  }
  e.data = bytes.data();
  e.start_x = reg.start_x;
  e.start_y = reg.start_y;
  e.end_x = reg.end_x;
  e.end_y = reg.end_y;
  const std::size_t size = hough_lines_p_scratch_size(img.width, img.height, p);
  EXPECT_GT(size, 0u);
  std::vector<std::uint8_t> scratch(size + 1);
  Collect sink;
  std::size_t found = 0;
  // Off the allocation's alignment: the function aligns its working memory itself.
  EXPECT_TRUE(hough_lines_p(e, p, {scratch.data() + 1, size}, sink, found));
  EXPECT_EQ(found, sink.segments.size());
  return sink.segments;
}

class HoughLinesEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

constexpr float kPi = 3.14159265358979f;

TEST_P(HoughLinesEverySimdTarget, RandomEdgesMatchTheReference) {
  struct Case {
    std::uint32_t w, h;
    int density, lines;
    HoughLinesOptions p;
  };
  const Case cases[] = {
      {97, 61, 20, 6, {1.0f, kPi / 180, 10, 10, 3, kPi, 0.0f}},
      {160, 120, 40, 10, {1.0f, kPi / 180, 30, 20, 5, kPi, 0.0f}},
      {203, 151, 5, 12, {0.5f, kPi / 90, 15, 15, 2, kPi, 0.0f}},
      {131, 77, 60, 4, {2.0f, kPi / 170, 8, 5, 0, kPi, 0.0f}},
      {120, 90, 30, 8, {1.0f, kPi / 360, 12, 8, 4, kPi / 2, kPi / 4}},  // a part of the angles
      {50, 40, 80, 3, {1.0f, 0.2f, 5, 3, 1, 1.0f, 0.0f}},                 // 5 angles: fewer than a vector
      {64, 64, 10, 5, {1.5f, kPi / 180, 1, 0, 0, kPi, 0.0f}},             // every vote reaches the threshold
      {400, 300, 30, 12, {100.0f, kPi / 180, 200, 20, 5, kPi, 0.0f}},    // counts past 16 bits: 32-bit votes
      {33, 17, 300, 2, {1.0f, kPi / 180, 3, 2, 1, 2 * kPi, -kPi / 2}},   // negative rhos, angles past pi
  };
  std::uint32_t seed = 1;
  for (const Case& c : cases) {
    for (int variant = 0; variant < 3; ++variant) {
      const EdgeImage img = random_edges(c.w, c.h, seed++, c.density, c.lines);
      const Region whole{0, 0, c.w, c.h}, inner{3, 2, c.w - 5, c.h - 1};
      const std::string where = std::to_string(c.w) + "x" + std::to_string(c.h) + " rho " + std::to_string(c.p.rho) + " variant " +
                                std::to_string(variant);
      const std::vector<HoughSegment> want = reference(img, whole, c.p);
      EXPECT_EQ(library(img, whole, c.p, false), want) << where << " U8";
      EXPECT_EQ(library(img, whole, c.p, true), want) << where << " U1";
      EXPECT_EQ(library(img, whole, c.p, false, 2), want) << where << " U8, 2 bytes a pixel";
      EXPECT_EQ(library(img, inner, c.p, false), reference(img, inner, c.p)) << where << " region";
      if (variant == 0) {
        EXPECT_FALSE(want.empty()) << where;
      }
    }
  }
}

TEST_P(HoughLinesEverySimdTarget, RefusesBadOptionsSmallScratchAndRegionsOutsideTheImage) {
  const HoughLinesOptions good{1.0f, kPi / 180, 10, 10, 3, kPi, 0.0f};
  EXPECT_EQ(hough_lines_p_scratch_size(40, 30, HoughLinesOptions{0.0f, kPi / 180, 10, 10, 3, kPi, 0.0f}), 0u);
  EXPECT_EQ(hough_lines_p_scratch_size(40, 30, HoughLinesOptions{1.0f, kPi / 180, 0, 10, 3, kPi, 0.0f}), 0u);
  EXPECT_EQ(hough_lines_p_scratch_size(40, 30, HoughLinesOptions{1.0f, kPi / 180, 10, -1, 3, kPi, 0.0f}), 0u);
  EXPECT_EQ(hough_lines_p_scratch_size(40, 30, HoughLinesOptions{1.0f, kPi / 180, 10, 10, 3, 0.0f, kPi}), 0u);
  const std::size_t size = hough_lines_p_scratch_size(40, 30, good);
  ASSERT_GT(size, 0u);
  std::vector<std::uint8_t> pixels(40 * 30, 1), scratch(size);
  HoughEdges e{pixels.data(), 40, 30, 40, 1, false, 0, 0, 40, 30};
  Collect sink;
  std::size_t found = 9;
  EXPECT_FALSE(hough_lines_p(e, good, {scratch.data(), size - 1}, sink, found));
  EXPECT_EQ(found, 0u);
  e.end_x = 41;
  EXPECT_FALSE(hough_lines_p(e, good, scratch, sink, found));
  e.end_x = 40;
  EXPECT_TRUE(hough_lines_p(e, good, scratch, sink, found));
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(Simd, HoughLinesEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
