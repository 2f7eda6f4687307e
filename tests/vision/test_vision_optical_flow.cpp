// Pyramidal Lucas-Kanade (optical_flow.hpp): a texture moved by a known shift is followed to within a
// twentieth of a pixel; the level-by-level form gives the same floats; points are lost where the
// definition loses them; bad arguments change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/optical_flow.hpp"
#include "moving_texture.hpp"

namespace {

namespace vv = vg::vision;
namespace vt = vg::vision::test;

/// A gray8 image and its HALF Gaussian pyramid (the library's halving, as OpenVX's GaussianPyramid).
struct Pyramid {
  Pyramid(const std::vector<std::uint8_t>& image, std::uint32_t w, std::uint32_t h, int levels) {
    pixels.push_back(image);
    planes.push_back({pixels.back().data(), w, h, static_cast<std::ptrdiff_t>(w)});
    for (int i = 1; i < levels; ++i) {
      const vv::ConstPlane below = planes.back();
      const std::uint32_t cw = (below.width + 1) / 2, ch = (below.height + 1) / 2;
      pixels.emplace_back(std::size_t{cw} * ch);
      EXPECT_TRUE(vv::gaussian_half(below, {pixels.back().data(), cw, ch, static_cast<std::ptrdiff_t>(cw)}, 5));
      planes.push_back({pixels.back().data(), cw, ch, static_cast<std::ptrdiff_t>(cw)});
    }
    // planes point into pixels: no reallocation after the reserve below.
  }
  std::vector<std::vector<std::uint8_t>> pixels = reserved();
  std::vector<vv::ConstPlane> planes;
  static std::vector<std::vector<std::uint8_t>> reserved() {
    std::vector<std::vector<std::uint8_t>> v;
    v.reserve(16);
    return v;
  }
};

TEST(VisionOpticalFlow, FollowsAShiftedTextureOnEveryLevelCount) {
  constexpr std::uint32_t W = 160, H = 120;
  const auto scratch = std::make_unique<vv::LucasKanadeScratch>();
  for (const int levels : {1, 2, 4}) {
    const Pyramid old_pyr(vt::texture(W, H, 0, 0), W, H, levels), new_pyr(vt::texture(W, H, 3, -2), W, H, levels);
    std::vector<vv::TrackPoint> points;
    for (float y = 30; y <= 90; y += 15)
      for (float x = 30; x <= 130; x += 25) points.push_back({x, y, x, y, true});
    ASSERT_TRUE(vv::track_points(old_pyr.planes, new_pyr.planes, 0.5, {}, *scratch, points));
    for (const vv::TrackPoint& p : points) {
      EXPECT_TRUE(p.tracked) << levels << " levels, from " << p.old_x << "," << p.old_y;
      EXPECT_NEAR(p.x, p.old_x + 3, 0.05) << levels << " levels";
      EXPECT_NEAR(p.y, p.old_y - 2, 0.05) << levels << " levels";
    }
  }
}

TEST(VisionOpticalFlow, LevelByLevelGivesTheSameFloats) {
  constexpr std::uint32_t W = 97, H = 71;  // odd sides: levels round up
  const Pyramid old_pyr(vt::texture(W, H, 0, 0), W, H, 3), new_pyr(vt::texture(W, H, -2, 1), W, H, 3);
  std::vector<vv::TrackPoint> whole, stepped;
  for (float y = 3; y < H; y += 9)
    for (float x = 2; x < W; x += 11) whole.push_back({x, y, x + 1, y, (static_cast<int>(x + y) % 7) != 0});
  stepped = whole;
  const auto scratch = std::make_unique<vv::LucasKanadeScratch>();
  vv::LucasKanadeOptions o;
  o.window = 9;
  o.iterations = 12;
  ASSERT_TRUE(vv::track_points(old_pyr.planes, new_pyr.planes, 0.5, o, *scratch, whole));
  vv::track_points_start(stepped, 0.5, 2);
  for (int level = 2; level >= 0; --level)
    ASSERT_TRUE(vv::track_points_level(old_pyr.planes[static_cast<std::size_t>(level)], new_pyr.planes[static_cast<std::size_t>(level)], level, 2,
                                       0.5, o, *scratch, stepped));
  for (std::size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(whole[i].x, stepped[i].x) << i;
    EXPECT_EQ(whole[i].y, stepped[i].y) << i;
    EXPECT_EQ(whole[i].tracked, stepped[i].tracked) << i;
  }
}

TEST(VisionOpticalFlow, PointsAreLostOffTheImageAndOnFlatGroundAndUntrackedOnesStayPut) {
  constexpr std::uint32_t W = 64, H = 48;
  const auto scratch = std::make_unique<vv::LucasKanadeScratch>();
  const Pyramid old_pyr(vt::texture(W, H, 0, 0), W, H, 1), new_pyr(vt::texture(W, H, -6, 0), W, H, 1);
  std::vector<vv::TrackPoint> points = {{10, 20, -3, 20, true},      // its start lies off the new image
                                        {-1, 20, -1, 20, true},      // starts off it
                                        {30, 20, 30, 20, false},     // not followed
                                        {30, 20, 30, 20, true}};     // followed
  ASSERT_TRUE(vv::track_points(old_pyr.planes, new_pyr.planes, 0.5, {}, *scratch, points));
  EXPECT_FALSE(points[0].tracked);
  EXPECT_FALSE(points[1].tracked);
  EXPECT_FALSE(points[2].tracked);
  EXPECT_EQ(points[2].x, 30);
  EXPECT_EQ(points[2].y, 20);
  EXPECT_TRUE(points[3].tracked);
  EXPECT_NEAR(points[3].x, 24, 0.05);

  const std::vector<std::uint8_t> flat(std::size_t{W} * H, 90);
  const Pyramid flat_old(flat, W, H, 2), flat_new(flat, W, H, 2);
  std::vector<vv::TrackPoint> on_flat = {{30, 20, 30, 20, true}};
  ASSERT_TRUE(vv::track_points(flat_old.planes, flat_new.planes, 0.5, {}, *scratch, on_flat));
  EXPECT_FALSE(on_flat[0].tracked) << "no texture to follow";
}

TEST(VisionOpticalFlow, BadArgumentsChangeNothing) {
  constexpr std::uint32_t W = 32, H = 24;
  const auto scratch = std::make_unique<vv::LucasKanadeScratch>();
  const Pyramid a(vt::texture(W, H, 0, 0), W, H, 2), b(vt::texture(W, H, 1, 0), W, H, 2), one(vt::texture(W, H, 1, 0), W, H, 1);
  std::vector<vv::TrackPoint> points = {{10, 10, 10, 10, true}};
  vv::LucasKanadeOptions wide;
  wide.window = vv::kMaxTrackWindow + 1;
  EXPECT_FALSE(vv::track_points(a.planes, b.planes, 0.5, wide, *scratch, points));
  EXPECT_FALSE(vv::track_points(a.planes, one.planes, 0.5, {}, *scratch, points));
  EXPECT_FALSE(vv::track_points(a.planes, b.planes, 1.0, {}, *scratch, points));
  EXPECT_FALSE(vv::track_points({}, {}, 0.5, {}, *scratch, points));
  EXPECT_FALSE(vv::track_points_level(a.planes[0], b.planes[0], 2, 1, 0.5, {}, *scratch, points));
  EXPECT_EQ(points[0].x, 10);
  EXPECT_TRUE(points[0].tracked);
}

}  // namespace
