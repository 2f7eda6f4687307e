#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "visiongraph/kernels/detection/letterbox.hpp"

namespace {

using vg::detection::Box;
using vg::detection::LetterboxGeometry;
using vg::detection::make_letterbox;
using vg::detection::Point;

struct Sizes {
  int sw, sh, dw, dh;
};

const Sizes kSizes[] = {
    {548, 342, 128, 128},  {548, 342, 256, 256}, {342, 548, 128, 128},   {1920, 1080, 640, 640},
    {1080, 1920, 640, 640}, {640, 640, 640, 640}, {333, 777, 320, 192},   {1, 1, 128, 128},
    {7, 3, 640, 640},       {3001, 17, 128, 128}, {720, 528, 256, 256},   {1280, 720, 640, 384},
    {101, 99, 97, 103},     {128, 128, 256, 256}, {4096, 2160, 640, 640}, {17, 3001, 640, 480},
};

TEST(LetterboxTest, GeometryFitsCentredAndKeepsAspect) {
  for (const Sizes& s : kSizes) {
    const LetterboxGeometry g = make_letterbox(s.sw, s.sh, s.dw, s.dh);
    ASSERT_TRUE(g.valid());
    const float cw = s.sw * g.scale;
    const float ch = s.sh * g.scale;
    EXPECT_LE(cw, s.dw + 1e-3f);
    EXPECT_LE(ch, s.dh + 1e-3f);
    // One axis fills the tensor exactly; the other is centred.
    EXPECT_TRUE(std::abs(cw - s.dw) < 1e-3f || std::abs(ch - s.dh) < 1e-3f);
    EXPECT_NEAR(g.pad_x * 2 + cw, static_cast<float>(s.dw), 1e-3f);
    EXPECT_NEAR(g.pad_y * 2 + ch, static_cast<float>(s.dh), 1e-3f);
    EXPECT_GE(g.pad_x, -1e-4f);
    EXPECT_GE(g.pad_y, -1e-4f);
  }
}

TEST(LetterboxTest, ForwardThenInverseReturnsWithinAPixelForManySizes) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> side(1, 4000);
  std::uniform_int_distribution<int> net(32, 1024);
  int checked = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Sizes s = trial < static_cast<int>(std::size(kSizes)) ? kSizes[trial]
                                                          : Sizes{side(rng), side(rng), net(rng), net(rng)};
    const LetterboxGeometry g = make_letterbox(s.sw, s.sh, s.dw, s.dh);
    std::uniform_real_distribution<float> ux(0.0f, static_cast<float>(s.sw));
    std::uniform_real_distribution<float> uy(0.0f, static_cast<float>(s.sh));
    for (int k = 0; k < 50; ++k) {
      const Point p{ux(rng), uy(rng)};
      const Point n = to_network(g, p);
      EXPECT_GE(n.x, -1e-3f);
      EXPECT_LE(n.x, s.dw + 1e-3f);
      EXPECT_GE(n.y, -1e-3f);
      EXPECT_LE(n.y, s.dh + 1e-3f);
      const Point back = to_source(g, n);
      // Float rounding grows with the source extent (pad / scale); still far below one pixel.
      const float tol = 1e-4f + 2e-5f * static_cast<float>(std::max(s.sw, s.sh));
      ASSERT_NEAR(back.x, p.x, tol) << s.sw << "x" << s.sh << "->" << s.dw << "x" << s.dh;
      ASSERT_NEAR(back.y, p.y, tol) << s.sw << "x" << s.sh << "->" << s.dw << "x" << s.dh;
      ++checked;
    }
    const Box b = to_source(g, to_network(g, Box{1.0f, 0.5f, s.sw - 0.5f, s.sh - 1.0f}));
    EXPECT_NEAR(b.x0, 1.0f, 0.01f + 2e-5f * std::max(s.sw, s.sh));
    EXPECT_NEAR(b.x1, s.sw - 0.5f, 0.01f + 2e-5f * std::max(s.sw, s.sh));
  }
  EXPECT_EQ(checked, 600 * 50);
}

TEST(LetterboxTest, InverseClampsPointsInThePaddingToTheImage) {
  for (const Sizes& s : kSizes) {
    const LetterboxGeometry g = make_letterbox(s.sw, s.sh, s.dw, s.dh);
    const Point corners[] = {{-50.f, -50.f}, {s.dw + 50.f, s.dh + 50.f}, {0.f, 0.f},
                             {static_cast<float>(s.dw), static_cast<float>(s.dh)}};
    for (const Point& c : corners) {
      const Point p = to_source(g, c);
      EXPECT_GE(p.x, 0.0f);
      EXPECT_LE(p.x, static_cast<float>(s.sw));
      EXPECT_GE(p.y, 0.0f);
      EXPECT_LE(p.y, static_cast<float>(s.sh));
    }
    const Box b = to_source(g, Box{-10.f, -10.f, s.dw + 10.f, s.dh + 10.f});
    EXPECT_FLOAT_EQ(b.x0, 0.0f);
    EXPECT_FLOAT_EQ(b.y0, 0.0f);
    EXPECT_FLOAT_EQ(b.x1, static_cast<float>(s.sw));
    EXPECT_FLOAT_EQ(b.y1, static_cast<float>(s.sh));
  }
}

TEST(LetterboxTest, MatchesTheMediaPipeLetterboxRemovalFormula) {
  // X = x_t * side + (W - side) / 2 with side = max(W, H) (reference §2.4).
  const int w = 548, h = 342, s = 128;
  const LetterboxGeometry g = make_letterbox(w, h, s, s);
  const float side = static_cast<float>(std::max(w, h));
  for (float xt : {0.3f, 0.5f, 0.71f}) {
    for (float yt : {0.35f, 0.5f, 0.6f}) {
      const Point p = to_source(g, Point{xt * s, yt * s});
      EXPECT_NEAR(p.x, xt * side + (w - side) / 2, 1e-3f);
      EXPECT_NEAR(p.y, yt * side + (h - side) / 2, 1e-3f);
    }
  }
}

TEST(LetterboxTest, NonPositiveSizesGiveAnInvalidGeometry) {
  EXPECT_FALSE(make_letterbox(0, 10, 10, 10).valid());
  EXPECT_FALSE(make_letterbox(10, 10, 10, -1).valid());
}

}  // namespace
