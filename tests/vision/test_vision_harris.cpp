// The vision library's HarrisCorners (kernels/vision/harris.hpp) on every instruction set Highway compiled
// in and this CPU runs, against a reference written here from the header's definition, pixel by pixel: the
// 2-D Sobel kernels built from Pascal's triangle and applied at every offset, the block sums and scores
// per pixel, the suppression rule, a stable sort and the distance test against every corner taken. Every
// gradient and block size and border, odd sizes (narrower than a vector too), padded rows; the corners
// must match bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/harris.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// A U8 plane with @p padding random bytes after each row.
struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * h) {}
  ConstPlane plane() const { return {bytes.data(), width, height, stride}; }
  std::uint8_t& at(std::uint32_t x, std::uint32_t y) { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  int at(std::uint32_t x, std::uint32_t y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

/// Random pixels: noise, a 3x3 mean of it (slopes and blobs), or rectangles of a few levels on a flat
/// ground (corners of equal strength, plateaus, ties).
Image test_image(std::uint32_t w, std::uint32_t h, std::uint32_t padding, int kind, std::mt19937& rng) {
  Image img(w, h, padding);
  for (auto& b : img.bytes) b = static_cast<std::uint8_t>(rng());
  if (kind == 1) {
    const Image noise = img;
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        int sum = 0, n = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int sx = static_cast<int>(x) + dx, sy = static_cast<int>(y) + dy;
            if (sx < 0 || sy < 0 || sx >= static_cast<int>(w) || sy >= static_cast<int>(h)) continue;
            sum += noise.at(static_cast<std::uint32_t>(sx), static_cast<std::uint32_t>(sy));
            ++n;
          }
        }
        img.at(x, y) = static_cast<std::uint8_t>(sum / n);
      }
    }
  } else if (kind == 2) {
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) img.at(x, y) = 60;
    for (int n = 0; n < 6; ++n) {
      const std::uint32_t x0 = rng() % w, y0 = rng() % h, x1 = x0 + 2 + rng() % 8, y1 = y0 + 2 + rng() % 8;
      const auto level = static_cast<std::uint8_t>(rng() % 2 ? 200 : 0);
      for (std::uint32_t y = y0; y < std::min(y1, h); ++y)
        for (std::uint32_t x = x0; x < std::min(x1, w); ++x) img.at(x, y) = level;
    }
  }
  return img;
}

/// The plane extended by the border.
int pixel(const Image& in, int x, int y, HarrisBorder border) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  if (x >= 0 && y >= 0 && x < w && y < h) return in.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
  if (border.mode == HarrisBorderMode::constant) return border.constant;
  auto fold = [&](int i, int n) {
    if (border.mode == HarrisBorderMode::replicate) return std::clamp(i, 0, n - 1);
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;  // reflect about the edge pixels
    return i;
  };
  return in.at(static_cast<std::uint32_t>(fold(x, w)), static_cast<std::uint32_t>(fold(y, h)));
}

/// Row n of Pascal's triangle.
std::vector<long> pascal(int n) {
  std::vector<long> row{1};
  for (int i = 0; i < n; ++i) {
    std::vector<long> next(row.size() + 1, 0);
    for (std::size_t j = 0; j < row.size(); ++j) {
      next[j] += row[j];
      next[j + 1] += row[j];
    }
    row = next;
  }
  return row;
}

/// The header's definition, pixel by pixel.
std::vector<HarrisCorner> reference(const Image& in, const HarrisOptions& o) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height), g = o.gradient_size, b = o.block_size;
  const int rg = g / 2, rb = b / 2;
  const std::vector<long> smooth = pascal(g - 1), lower = pascal(g - 2);
  std::vector<long> derivative(static_cast<std::size_t>(g));
  for (int i = 0; i < g; ++i) derivative[i] = (i > 0 ? lower[i - 1] : 0) - (i < g - 1 ? lower[i] : 0);  // (-1, 1) * lower
  const auto s = static_cast<float>(1.0 / (static_cast<double>(1 << (g - 1)) * 255.0 * b));
  // The three products at every gradient position, the image's plus rb on each side.
  const int gw = w + 2 * rb, gh = h + 2 * rb;
  std::vector<float> xx(static_cast<std::size_t>(gw) * gh), xy(xx.size()), yy(xx.size());
  for (int gy = 0; gy < gh; ++gy) {
    for (int gx = 0; gx < gw; ++gx) {
      long sx = 0, sy = 0;
      for (int r = 0; r < g; ++r) {
        for (int c = 0; c < g; ++c) {
          const int v = pixel(in, gx - rb + c - rg, gy - rb + r - rg, o.border);
          sx += smooth[r] * derivative[c] * v;  // derivative along the row
          sy += derivative[r] * smooth[c] * v;  // down the column
        }
      }
      const float fx = static_cast<float>(sx) * s, fy = static_cast<float>(sy) * s;
      const std::size_t i = static_cast<std::size_t>(gy) * gw + gx;
      xx[i] = fx * fx;
      xy[i] = fx * fy;
      yy[i] = fy * fy;
    }
  }
  const double threshold = std::max(0.0, static_cast<double>(o.threshold)), k = o.sensitivity;
  std::vector<float> score(static_cast<std::size_t>(w) * h, 0.0f);
  for (int y = 0; y < h; ++y) {
    // The block's rows in the order of ((image row + b/2) mod b).
    std::vector<int> order;
    for (int slot = 0; slot < b; ++slot)
      for (int r = y - rb; r <= y + rb; ++r)
        if ((r + rb) % b == slot) order.push_back(r);
    for (int x = 0; x < w; ++x) {
      float sums[3] = {0, 0, 0};
      const std::vector<float>* products[3] = {&xx, &xy, &yy};
      for (int p = 0; p < 3; ++p) {
        float along = 0;
        for (int c = x - rb; c <= x + rb; ++c) {
          float down = 0;
          for (std::size_t i = 0; i < order.size(); ++i) {
            const float v = (*products[p])[static_cast<std::size_t>(order[i] + rb) * gw + (c + rb)];
            down = i == 0 ? v : down + v;
          }
          along = c == x - rb ? down : along + down;
        }
        sums[p] = along;
      }
      const double a = sums[0], m = sums[1], cc = sums[2];
      const double trace = a + cc;
      const double mc = a * cc - m * m - k * trace * trace;
      score[static_cast<std::size_t>(y) * w + x] = mc > threshold ? static_cast<float>(mc) : 0.0f;
    }
  }
  std::vector<HarrisCorner> candidates;
  for (int y = 1; y + 1 < h; ++y) {
    for (int x = 1; x + 1 < w; ++x) {
      auto at = [&](int dx, int dy) { return score[static_cast<std::size_t>(y + dy) * w + x + dx]; };
      const float v = at(0, 0);
      if (v != 0 && v >= at(-1, -1) && v >= at(0, -1) && v >= at(1, -1) && v >= at(-1, 0) && v > at(1, 0) && v > at(-1, 1) && v > at(0, 1) &&
          v > at(1, 1)) {
        candidates.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), v});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const HarrisCorner& l, const HarrisCorner& r) { return l.strength > r.strength; });
  std::vector<HarrisCorner> taken;
  const double r2 = static_cast<double>(o.min_distance) * o.min_distance;
  for (const HarrisCorner& c : candidates) {
    const bool near = std::any_of(taken.begin(), taken.end(), [&](const HarrisCorner& t) {
      const double dx = static_cast<double>(t.x) - c.x, dy = static_cast<double>(t.y) - c.y;
      return dx * dx + dy * dy < r2;
    });
    if (!near) taken.push_back(c);
  }
  return taken;
}

std::string describe(const Image& in, const HarrisOptions& o) {
  const char* modes[] = {"replicate", "constant", "mirror"};
  return std::to_string(in.width) + "x" + std::to_string(in.height) + " g " + std::to_string(o.gradient_size) + " b " +
         std::to_string(o.block_size) + " " + modes[static_cast<int>(o.border.mode)] + " T " + std::to_string(o.threshold) + " r " +
         std::to_string(o.min_distance) + " k " + std::to_string(o.sensitivity);
}

/// The library's corners against the reference's: pixels and strengths' bits, in order. Returns how many.
std::size_t expect_reference(const Image& in, const HarrisOptions& o) {
  const std::vector<HarrisCorner> want = reference(in, o);
  std::vector<std::uint8_t> scratch(harris_corners_scratch_size(in.width, in.height) + 1);
  // An unaligned start: the function aligns its areas itself.
  const std::span<std::uint8_t> unaligned(scratch.data() + 1, scratch.size() - 1);
  std::vector<HarrisCorner> got(harris_corners_max_count(in.width, in.height) + 1);
  std::size_t found = 12345;
  EXPECT_TRUE(harris_corners(in.plane(), o, unaligned, std::span<HarrisCorner>(got), found)) << describe(in, o);
  EXPECT_EQ(found, want.size()) << describe(in, o);
  for (std::size_t i = 0; i < std::min(found, want.size()); ++i) {
    const bool same = got[i].x == want[i].x && got[i].y == want[i].y &&
                      std::bit_cast<std::uint32_t>(got[i].strength) == std::bit_cast<std::uint32_t>(want[i].strength);
    if (!same) {
      ADD_FAILURE() << describe(in, o) << ": corner " << i << " is (" << got[i].x << ", " << got[i].y << ", " << got[i].strength << "), not ("
                    << want[i].x << ", " << want[i].y << ", " << want[i].strength << ")";
      break;
    }
  }
  return want.size();
}

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards (as test_vision_functions).
class HarrisEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

TEST_P(HarrisEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(HarrisEverySimdTarget, EveryGradientBlockSizeAndBorderMatchesTheDefinition) {
  std::mt19937 rng(2024);
  const HarrisBorder borders[] = {{HarrisBorderMode::replicate, 0}, {HarrisBorderMode::constant, 0}, {HarrisBorderMode::constant, 173},
                                  {HarrisBorderMode::mirror, 0}};
  std::size_t corners = 0;
  for (const int g : {3, 5, 7}) {
    for (const int b : {3, 5, 7}) {
      for (const HarrisBorder border : borders) {
        const std::uint32_t w = 3 + rng() % 70, h = 3 + rng() % 30;
        const Image in = test_image(w, h, rng() % 3 == 0 ? 0 : rng() % 9, static_cast<int>(rng() % 3), rng);
        HarrisOptions o;
        o.gradient_size = g;
        o.block_size = b;
        o.border = border;
        o.threshold = (rng() % 4 == 0) ? -1.0f : 1e-6f;
        o.sensitivity = (rng() % 2 == 0) ? 0.04f : 0.15f;
        o.min_distance = static_cast<float>(rng() % 4 == 0 ? 0.0 : (rng() % 60) / 10.0);
        corners += expect_reference(in, o);
      }
    }
  }
  EXPECT_GT(corners, 36u * 5) << "the cases should find corners";
}

TEST_P(HarrisEverySimdTarget, SmallAndOddSizesMatchTheDefinition) {
  std::mt19937 rng(77);
  const std::uint32_t sizes[][2] = {{1, 1}, {2, 9}, {9, 2}, {3, 3}, {4, 4}, {5, 3}, {7, 7}, {8, 5}, {15, 4}, {16, 6}, {17, 5}, {31, 4}, {33, 9}, {65, 5}};
  for (const auto& size : sizes) {
    for (const auto mode : {HarrisBorderMode::replicate, HarrisBorderMode::constant, HarrisBorderMode::mirror}) {
      HarrisOptions o;
      o.gradient_size = 3 + 2 * static_cast<int>(rng() % 3);
      o.block_size = 3 + 2 * static_cast<int>(rng() % 3);
      o.border = {mode, static_cast<std::uint8_t>(rng())};
      o.threshold = 0.0f;
      o.min_distance = 3.0f;
      expect_reference(test_image(size[0], size[1], rng() % 2, static_cast<int>(rng() % 3), rng), o);
    }
  }
}

TEST_P(HarrisEverySimdTarget, EachMinimumDistanceMatchesTheDefinition) {
  std::mt19937 rng(5);
  const Image in = test_image(97, 61, 3, 1, rng);
  for (const float r : {0.0f, 1.0f, 1.5f, 2.0f, 2.01f, 2.9f, 3.0f, 4.5f, 7.0f, 25.0f, 500.0f}) {
    HarrisOptions o;
    o.threshold = 1e-7f;
    o.min_distance = r;
    expect_reference(in, o);
  }
}

TEST_P(HarrisEverySimdTarget, TheSpanKeepsTheStrongestAndCountsAll) {
  std::mt19937 rng(9);
  const Image in = test_image(80, 40, 0, 0, rng);
  HarrisOptions o;
  std::vector<std::uint8_t> scratch(harris_corners_scratch_size(in.width, in.height));
  std::vector<HarrisCorner> all(harris_corners_max_count(in.width, in.height)), first(5);
  std::size_t found_all = 0, found_first = 0;
  ASSERT_TRUE(harris_corners(in.plane(), o, scratch, std::span<HarrisCorner>(all), found_all));
  ASSERT_TRUE(harris_corners(in.plane(), o, scratch, std::span<HarrisCorner>(first), found_first));
  ASSERT_GT(found_all, first.size());
  EXPECT_EQ(found_first, found_all);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], all[i]);
}

TEST_P(HarrisEverySimdTarget, RefusesTooLittleScratchAndWrongParameters) {
  std::mt19937 rng(3);
  const Image in = test_image(40, 30, 0, 0, rng);
  std::vector<std::uint8_t> scratch(harris_corners_scratch_size(in.width, in.height));
  std::vector<HarrisCorner> out(10);
  std::size_t found = 7;
  EXPECT_FALSE(harris_corners(in.plane(), {}, std::span<std::uint8_t>(scratch).first(scratch.size() - 1), std::span<HarrisCorner>(out), found));
  EXPECT_EQ(found, 0u);
  auto refused = [&](HarrisOptions o) {
    found = 7;
    return !harris_corners(in.plane(), o, scratch, std::span<HarrisCorner>(out), found) && found == 0;
  };
  HarrisOptions o;
  o.gradient_size = 4;
  EXPECT_TRUE(refused(o));
  o = {};
  o.block_size = 9;
  EXPECT_TRUE(refused(o));
  o = {};
  o.min_distance = -1.0f;
  EXPECT_TRUE(refused(o));
  o = {};
  o.threshold = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(refused(o));
  o = {};
  o.sensitivity = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(refused(o));
  EXPECT_EQ(harris_corners_scratch_size(70000, 70000), std::numeric_limits<std::size_t>::max());
}

INSTANTIATE_TEST_SUITE_P(Simd, HarrisEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
