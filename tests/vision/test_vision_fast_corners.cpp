// The vision library's FastCorners (kernels/vision/fast_corners.hpp) on every instruction set Highway
// compiled in and this CPU runs, against a reference written here from the definition, pixel by pixel:
// a corner test per threshold, the strength found by searching for the largest threshold the pixel is
// still a corner at (not by the library's formula), and the suppression rule read off the definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// A U8 plane with @p padding bytes after each row (random too: a read of them would show). Padding 0 packs
/// the rows, so that ASan sees a read past the last pixel.
struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding = 5)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * h) {
    std::mt19937 rng(w * 7919u + h);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  }
  ConstPlane plane() const { return {bytes.data(), width, height, stride}; }
  std::uint8_t& at(std::uint32_t x, std::uint32_t y) { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  int at(std::uint32_t x, std::uint32_t y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  template <class F>
  Image& fill(F value) {
    for (std::uint32_t y = 0; y < height; ++y)
      for (std::uint32_t x = 0; x < width; ++x) at(x, y) = static_cast<std::uint8_t>(value(x, y));
    return *this;
  }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

Image random_image(std::uint32_t w, std::uint32_t h, std::uint32_t seed, int max = 255, std::uint32_t padding = 5) {
  Image img(w, h, padding);
  std::mt19937 rng(seed);
  return img.fill([&](std::uint32_t, std::uint32_t) { return static_cast<int>(rng() % static_cast<unsigned>(max + 1)); });
}

/// Random pixels averaged over 5x5 (wrapping): a picture's slopes, blobs and ties rather than pure noise.
Image smooth_image(std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
  const Image noise = random_image(w, h, seed);
  Image img(w, h);
  return img.fill([&](std::uint32_t x, std::uint32_t y) {
    int sum = 0;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        sum += noise.at(static_cast<std::uint32_t>((static_cast<int>(x) + dx + static_cast<int>(w)) % static_cast<int>(w)),
                        static_cast<std::uint32_t>((static_cast<int>(y) + dy + static_cast<int>(h)) % static_cast<int>(h)));
    return sum / 25;
  });
}

// --- the reference ---------------------------------------------------------------------------------------

// The Bresenham circle of radius 3, clockwise from the right (y down).
constexpr int kCircleX[16] = {3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1, 0, 1, 2, 3};
constexpr int kCircleY[16] = {0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1};

bool candidate(const Image& in, int x, int y) {
  return x >= 3 && y >= 3 && x + 3 < static_cast<int>(in.width) && y + 3 < static_cast<int>(in.height);
}

/// FAST9 at threshold @p t: 9 contiguous circle pixels all > I_p + t, or all < I_p - t.
bool is_corner(const Image& in, int x, int y, int t) {
  const int c = in.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
  for (int start = 0; start < 16; ++start) {
    bool bright = true, dark = true;
    for (int k = 0; k < 9; ++k) {
      const int i = (start + k) % 16;
      const int v = in.at(static_cast<std::uint32_t>(x + kCircleX[i]), static_cast<std::uint32_t>(y + kCircleY[i]));
      bright = bright && v > c + t;
      dark = dark && v < c - t;
    }
    if (bright || dark) return true;
  }
  return false;
}

/// The largest threshold at which the candidate is still a corner (searched: a corner at t is one at every
/// smaller threshold), or -1 when it is none at @p t.
int strength(const Image& in, int x, int y, int t) {
  if (!is_corner(in, x, y, t)) return -1;
  int low = t, high = 255;  // a corner at low, none at high (no pixel exceeds I_p + 255)
  while (high - low > 1) {
    const int mid = (low + high) / 2;
    (is_corner(in, x, y, mid) ? low : high) = mid;
  }
  return low;
}

std::vector<FastCorner> reference(const Image& in, int t, bool nonmax) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  std::vector<int> strengths(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (candidate(in, x, y)) strengths[static_cast<std::size_t>(y * w + x)] = strength(in, x, y, t);
  // Non-maximum suppression's view: a pixel that is no corner (or no candidate, or outside) counts as 0.
  const auto neighbour = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= w || y >= h) return 0;
    return std::max(strengths[static_cast<std::size_t>(y * w + x)], 0);
  };
  std::vector<FastCorner> out;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int s = strengths[static_cast<std::size_t>(y * w + x)];
      if (s < 0) continue;
      if (nonmax) {
        const bool at_least_before = s >= neighbour(x - 1, y - 1) && s >= neighbour(x, y - 1) && s >= neighbour(x + 1, y - 1) &&
                                     s >= neighbour(x - 1, y);
        const bool above_after =
            s > neighbour(x + 1, y) && s > neighbour(x - 1, y + 1) && s > neighbour(x, y + 1) && s > neighbour(x + 1, y + 1);
        if (!at_least_before || !above_after) continue;
      }
      out.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(s)});
    }
  }
  return out;
}

// --- running the library ---------------------------------------------------------------------------------

/// Collects every corner, and how many batches came.
class Collect final : public FastCornerSink {
 public:
  void take(std::span<const FastCorner> batch) noexcept override {
    corners.insert(corners.end(), batch.begin(), batch.end());
    ++batches;
  }
  std::vector<FastCorner> corners;
  std::size_t batches = 0;
};

std::vector<FastCorner> detect(const Image& in, int t, bool nonmax) {
  std::vector<std::uint8_t> scratch(fast_corners_scratch_size(in.width));
  Collect sink;
  std::size_t found = 12345;
  EXPECT_TRUE(fast_corners(in.plane(), {static_cast<std::uint8_t>(t), nonmax}, scratch, sink, found));
  EXPECT_EQ(found, sink.corners.size());
  return sink.corners;
}

std::string describe(const FastCorner& c) {
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ") strength " + std::to_string(c.strength);
}

/// Compares the library's corners with the reference's; returns how many corners there are.
std::size_t expect_matches_reference(const Image& in, int t, bool nonmax, const std::string& what) {
  const std::vector<FastCorner> want = reference(in, t, nonmax);
  const std::vector<FastCorner> got = detect(in, t, nonmax);
  const std::string where = what + " " + std::to_string(in.width) + "x" + std::to_string(in.height) + " t=" + std::to_string(t) +
                            (nonmax ? " nonmax" : "");
  const std::size_t common = std::min(want.size(), got.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (!(got[i] == want[i])) {
      ADD_FAILURE() << where << ": corner " << i << " is " << describe(got[i]) << ", expected " << describe(want[i]);
      return want.size();
    }
  }
  EXPECT_EQ(got.size(), want.size()) << where;
  return want.size();
}

constexpr int kThresholds[] = {0, 1, 2, 10, 20, 50, 100, 200, 254, 255};

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards (as test_vision_functions).
class FastCornersEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

TEST_P(FastCornersEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

// Worked by hand: one pixel of 100 on 10s is a dark-circled corner of strength 89 (every difference is 90;
// the candidates near it do not have it on their circle), and it survives suppression. A bright ring would
// make the centre the corner of the other sign.
TEST_P(FastCornersEverySimdTarget, OneDotIsOneCornerOfKnownStrength) {
  Image dot(9, 9);
  dot.fill([](std::uint32_t x, std::uint32_t y) { return x == 4 && y == 4 ? 100 : 10; });
  for (const bool nonmax : {false, true}) {
    const std::vector<FastCorner> corners = detect(dot, 20, nonmax);
    ASSERT_EQ(corners.size(), 1u);
    EXPECT_EQ(corners[0], (FastCorner{4, 4, 89}));
    EXPECT_TRUE(detect(dot, 89, nonmax).size() == 1);
    EXPECT_TRUE(detect(dot, 90, nonmax).empty());
  }
  Image pit(80, 9);  // wide enough for a whole vector on every target
  pit.fill([](std::uint32_t x, std::uint32_t y) { return x == 40 && y == 4 ? 0 : 255; });
  EXPECT_EQ(detect(pit, 0, true), (std::vector<FastCorner>{{40, 4, 254}}));
  expect_matches_reference(dot, 20, true, "dot");
  expect_matches_reference(pit, 0, false, "pit");
}

// Random images of many widths (narrower than a vector, vectors and a part, an exact number of them) and
// heights, pixels of the whole range and of small ranges (ties everywhere: the suppression's >= and > matter),
// at every threshold, with and without suppression.
TEST_P(FastCornersEverySimdTarget, RandomImagesMatchTheReference) {
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{7, 7},  {8, 7},   {7, 12},  {13, 9},  {22, 8},  {23, 11}, {38, 10},
                                                           {39, 9}, {70, 8},  {71, 12}, {77, 13}, {134, 9}, {135, 7}, {200, 21}};
  const int ranges[] = {255, 40, 3};
  std::uint32_t seed = 1;
  std::size_t corners = 0;
  for (const auto& [w, h] : sizes) {
    for (const int max : ranges) {
      const Image img = random_image(w, h, seed, max, seed % 3 == 0 ? 0 : 5);
      ++seed;
      for (const int t : kThresholds) {
        if (max < 255 && t > max) continue;  // no corner: covered by the full range
        for (const bool nonmax : {false, true}) corners += expect_matches_reference(img, t, nonmax, "random 0.." + std::to_string(max));
      }
    }
  }
  EXPECT_GT(corners, 10000u);
}

TEST_P(FastCornersEverySimdTarget, SmoothImagesMatchTheReference) {
  std::size_t corners = 0;
  std::uint32_t seed = 100;
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{97, 40}, {160, 33}, {31, 31}}) {
    const Image img = smooth_image(w, h, seed++);
    for (const int t : {0, 1, 3, 8, 20})
      for (const bool nonmax : {false, true}) corners += expect_matches_reference(img, t, nonmax, "smooth");
  }
  EXPECT_GT(corners, 1000u);
}

// Pictures with structure: flat, checkerboards of several cell sizes, ramps, bars, squares and dots.
TEST_P(FastCornersEverySimdTarget, StructuredImagesMatchTheReference) {
  struct Picture {
    const char* name;
    int (*value)(std::uint32_t x, std::uint32_t y);
  };
  const Picture pictures[] = {
      {"constant", [](std::uint32_t, std::uint32_t) { return 128; }},
      {"black", [](std::uint32_t, std::uint32_t) { return 0; }},
      {"white", [](std::uint32_t, std::uint32_t) { return 255; }},
      {"checkerboard 1", [](std::uint32_t x, std::uint32_t y) { return (x + y) % 2 ? 255 : 0; }},
      {"checkerboard 2", [](std::uint32_t x, std::uint32_t y) { return (x / 2 + y / 2) % 2 ? 200 : 30; }},
      {"checkerboard 5", [](std::uint32_t x, std::uint32_t y) { return (x / 5 + y / 5) % 2 ? 255 : 0; }},
      {"checkerboard 8", [](std::uint32_t x, std::uint32_t y) { return (x / 8 + y / 8) % 2 ? 180 : 60; }},
      {"ramp x", [](std::uint32_t x, std::uint32_t) { return static_cast<int>(x * 7 % 256); }},
      {"ramp y", [](std::uint32_t, std::uint32_t y) { return static_cast<int>(y * 13 % 256); }},
      {"ramp xy", [](std::uint32_t x, std::uint32_t y) { return static_cast<int>((x * 5 + y * 9) % 256); }},
      {"steep ramp", [](std::uint32_t x, std::uint32_t y) { return static_cast<int>(std::min(255u, x * 40 + y)); }},
      {"bars", [](std::uint32_t x, std::uint32_t) { return x % 6 < 2 ? 250 : 5; }},
      {"squares", [](std::uint32_t x, std::uint32_t y) { return (x % 11 < 5 && y % 9 < 4) ? 220 : 20; }},
      {"dots", [](std::uint32_t x, std::uint32_t y) { return (x % 7 == 3 && y % 7 == 3) ? 255 : 0; }},
      {"pits", [](std::uint32_t x, std::uint32_t y) { return (x % 9 == 4 && y % 8 == 4) ? 0 : 255; }},
      {"diagonal", [](std::uint32_t x, std::uint32_t y) { return x > y ? 170 : 90; }},
  };
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{7, 7}, {12, 9}, {45, 17}, {130, 15}};
  std::size_t corners = 0;
  for (const Picture& p : pictures) {
    for (const auto& [w, h] : sizes) {
      Image img(w, h);
      img.fill(p.value);
      for (const int t : kThresholds)
        for (const bool nonmax : {false, true}) corners += expect_matches_reference(img, t, nonmax, p.name);
    }
  }
  EXPECT_GT(corners, 1000u);
}

TEST_P(FastCornersEverySimdTarget, FlatImagesHaveNoCorners) {
  for (const int v : {0, 77, 255}) {
    Image img(150, 20);
    img.fill([v](std::uint32_t, std::uint32_t) { return v; });
    for (const int t : {0, 1, 255}) EXPECT_TRUE(detect(img, t, false).empty()) << v << " t=" << t;
  }
}

// Below 7 pixels either way no pixel is 3 from every edge: no corner, whatever the pixels.
TEST_P(FastCornersEverySimdTarget, ImagesSmallerThanTheCircleHaveNoCandidate) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{0, 0}, {1, 1}, {6, 6}, {6, 100}, {100, 6}, {3, 50}, {6, 7}, {7, 6}}) {
    Image img(w, h);
    img.fill([](std::uint32_t x, std::uint32_t y) { return (x + y) % 2 ? 255 : 0; });
    EXPECT_TRUE(detect(img, 0, false).empty()) << w << "x" << h;
    EXPECT_TRUE(detect(img, 0, true).empty()) << w << "x" << h;
  }
  // And a 7x7 of one candidate, which is a corner.
  Image seven(7, 7);
  seven.fill([](std::uint32_t x, std::uint32_t y) { return x == 3 && y == 3 ? 0 : 200; });
  EXPECT_EQ(detect(seven, 10, true), (std::vector<FastCorner>{{3, 3, 199}}));
}

// More corners than the output holds: the first ones in raster order, and the count of all of them.
TEST_P(FastCornersEverySimdTarget, OutputSmallerThanTheCountKeepsTheFirstAndCountsAll) {
  const Image img = random_image(300, 40, 77);
  const std::vector<FastCorner> all = reference(img, 10, false);
  ASSERT_GT(all.size(), 1000u);  // several batches
  std::vector<std::uint8_t> scratch(fast_corners_scratch_size(img.width));
  for (const std::size_t capacity : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{257}, all.size() - 1,
                                     all.size(), all.size() + 10}) {
    std::vector<FastCorner> out(capacity, FastCorner{9999, 9999, 9999});
    std::size_t found = 0;
    ASSERT_TRUE(fast_corners(img.plane(), {10, false}, scratch, std::span<FastCorner>(out), found));
    EXPECT_EQ(found, all.size()) << "capacity " << capacity;
    const std::size_t kept = std::min(capacity, all.size());
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(kept), all.begin())) << "capacity " << capacity;
    for (std::size_t i = kept; i < capacity; ++i) ASSERT_EQ(out[i], (FastCorner{9999, 9999, 9999})) << "capacity " << capacity;
  }
}

TEST_P(FastCornersEverySimdTarget, RefusesTooSmallAScratch) {
  const Image img = random_image(50, 20, 3);
  std::vector<std::uint8_t> scratch(fast_corners_scratch_size(img.width) - 1);
  Collect sink;
  std::size_t found = 7;
  EXPECT_FALSE(fast_corners(img.plane(), {0, false}, scratch, sink, found));
  EXPECT_EQ(found, 0u);
  EXPECT_TRUE(sink.corners.empty());
  scratch.resize(fast_corners_scratch_size(img.width));
  EXPECT_TRUE(fast_corners(img.plane(), {0, false}, scratch, sink, found));
  EXPECT_GT(found, 0u);
}

INSTANTIATE_TEST_SUITE_P(Simd, FastCornersEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
