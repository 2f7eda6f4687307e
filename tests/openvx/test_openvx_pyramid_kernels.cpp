// GaussianPyramid, HalfScaleGaussian, LaplacianPyramid and LaplacianReconstruct: results exact to the
// specification (and to the Khronos conformance reference), formats refused with a reason, in graphs and in
// immediate mode.
//
// The reference here is written plainly: the binomial window ([1 2 1] or [1 4 6 4 1], both ways, the sum
// truncated) over the whole image under the border, then nearest-neighbour sampling with the source pixel
// in exact integers, floor((2x + 1) * src / (2 * dst)) clamped into the image (the specification's
// x_src = (x + 0.5) * src / dst - 0.5 rounded half up). Odd and tiny sizes, each border mode, both pyramid
// scales; the levels' sizes and valid regions; the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::border_name;
using vg_openvx_test::border_of;
using vg_openvx_test::expect_pixels_eq;
using vg_openvx_test::expect_rect;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::random_pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::sample;
using vg_openvx_test::status_of;
using vg_openvx_test::valid_region;

using U8 = Pixels<vx_uint8>;

// --- the reference ----------------------------------------------------------------------------------------

/// @p in filtered with the binomial window of @p kernel_size (1, 3 or 5) under @p border, same size.
U8 binomial(const U8& in, int kernel_size, const vx_border_t& border) {
  static const std::vector<int> kWeights[] = {{1}, {1, 2, 1}, {1, 4, 6, 4, 1}};
  const std::vector<int>& w = kWeights[kernel_size / 2];
  const int radius = kernel_size / 2;
  const int shift = kernel_size == 1 ? 0 : kernel_size == 3 ? 4 : 8;
  U8 out(in.width, in.height);
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      int sum = 0;
      for (int r = -radius; r <= radius; ++r) {
        for (int c = -radius; c <= radius; ++c) {
          sum += w[r + radius] * w[c + radius] * sample(in, static_cast<int>(x) + c, static_cast<int>(y) + r, border);
        }
      }
      out.at(x, y) = static_cast<vx_uint8>(sum >> shift);
    }
  }
  return out;
}

/// The nearest-neighbour source of output coordinate @p x, in exact integers.
vx_uint32 source_of(vx_uint32 x, vx_uint32 src, vx_uint32 dst) {
  const std::uint64_t s = (2ull * x + 1) * src / (2ull * dst);
  return static_cast<vx_uint32>(std::min<std::uint64_t>(s, src - 1));
}

U8 nearest(const U8& in, vx_uint32 width, vx_uint32 height) {
  U8 out(width, height);
  for (vx_uint32 y = 0; y < height; ++y) {
    for (vx_uint32 x = 0; x < width; ++x) out.at(x, y) = in.at(source_of(x, in.width, width), source_of(y, in.height, height));
  }
  return out;
}

/// Level @p level's size: the previous one halved and rounded up (HALF), or level 0 times 2^(-level/4)
/// rounded up (ORB, as the conformance suite sizes them).
void level_size(vx_float32 scale, vx_uint32 w0, vx_uint32 h0, vx_size level, vx_uint32& w, vx_uint32& h) {
  if (scale == VX_SCALE_PYRAMID_ORB) {
    w = static_cast<vx_uint32>(std::ceil(w0 * std::pow(2.0, -static_cast<double>(level) / 4.0)));
    h = static_cast<vx_uint32>(std::ceil(h0 * std::pow(2.0, -static_cast<double>(level) / 4.0)));
  } else {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
}

std::vector<U8> reference_pyramid(const U8& in, vx_size levels, vx_float32 scale, const vx_border_t& border) {
  std::vector<U8> out{in};
  vx_uint32 w = in.width, h = in.height;
  for (vx_size level = 1; level < levels; ++level) {
    level_size(scale, in.width, in.height, level, w, h);
    out.push_back(nearest(binomial(out.back(), 5, border), w, h));
  }
  return out;
}

std::vector<U8> read_levels(vx_pyramid pyramid) {
  vx_size levels = 0;
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_LEVELS, &levels, sizeof levels), VX_SUCCESS);
  std::vector<U8> out;
  for (vx_size level = 0; level < levels; ++level) {
    vx_image image = vxGetPyramidLevel(pyramid, static_cast<vx_uint32>(level));
    out.push_back(read_pixels<vx_uint8>(image));
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
  return out;
}

void expect_levels_eq(const std::vector<U8>& actual, const std::vector<U8>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t level = 0; level < actual.size(); ++level) expect_pixels_eq(actual[level], expected[level], what + ", level " + std::to_string(level));
}

const vx_border_t kBorders[] = {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                border_of(VX_BORDER_CONSTANT, 201)};

struct Size {
  vx_uint32 width, height;
};
const Size kSizes[] = {{37, 23}, {64, 48}, {17, 40}, {5, 3}, {1, 1}, {2, 7}};

std::string scale_name(vx_float32 scale) { return scale == VX_SCALE_PYRAMID_ORB ? "ORB" : "HALF"; }

// --- GaussianPyramid ---------------------------------------------------------------------------------------

TEST_F(OpenVx, GaussianPyramidMatchesTheReferenceInGraphs) {
  std::mt19937 rng(11);
  for (const Size& size : kSizes) {
    const U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    for (vx_float32 scale : {VX_SCALE_PYRAMID_HALF, VX_SCALE_PYRAMID_ORB}) {
      for (const vx_border_t& border : kBorders) {
        const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height) + " " + scale_name(scale) + " " +
                                 border_name(border);
        constexpr vx_size kLevels = 5;
        vx_image input = image_of(context_, in);
        vx_pyramid pyramid = vxCreatePyramid(context_, kLevels, scale, size.width, size.height, VX_DF_IMAGE_U8);
        ASSERT_EQ(status_of(pyramid), VX_SUCCESS) << what;
        vx_graph graph = vxCreateGraph(context_);
        vx_node node = vxGaussianPyramidNode(graph, input, pyramid);
        ASSERT_EQ(status_of(node), VX_SUCCESS) << what;
        ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
        ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << what;
        // Twice: the second frame is the same (nothing carried over).
        ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << what;
        expect_levels_eq(read_levels(pyramid), reference_pyramid(in, kLevels, scale, border), what);
        EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
        EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
        EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
        EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
      }
    }
  }
}

TEST_F(OpenVx, GaussianPyramidInImmediateModeTakesTheContextBorder) {
  std::mt19937 rng(12);
  const U8 in = random_pixels<vx_uint8>(45, 31, rng);
  for (vx_float32 scale : {VX_SCALE_PYRAMID_HALF, VX_SCALE_PYRAMID_ORB}) {
    for (const vx_border_t& border : kBorders) {
      const std::string what = std::string("vxuGaussianPyramid ") + scale_name(scale) + " " + border_name(border);
      ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
      vx_image input = image_of(context_, in);
      vx_pyramid pyramid = vxCreatePyramid(context_, 4, scale, in.width, in.height, VX_DF_IMAGE_U8);
      ASSERT_EQ(vxuGaussianPyramid(context_, input, pyramid), VX_SUCCESS) << what;
      expect_levels_eq(read_levels(pyramid), reference_pyramid(in, 4, scale, border), what);
      EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
      EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    }
  }
}

TEST_F(OpenVx, OrbPyramidLevelsComeFromLevelZero) {
  // 640 wide: 539, 453, 381 (chaining the rounded-up sizes would give 539, 454, 382).
  vx_pyramid pyramid = vxCreatePyramid(context_, 4, VX_SCALE_PYRAMID_ORB, 640, 480, VX_DF_IMAGE_U8);
  const vx_uint32 widths[] = {640, 539, 453, 381}, heights[] = {480, 404, 340, 286};
  for (vx_uint32 level = 0; level < 4; ++level) {
    vx_image image = vxGetPyramidLevel(pyramid, level);
    vx_uint32 w = 0, h = 0;
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
    EXPECT_EQ(w, widths[level]) << "level " << level;
    EXPECT_EQ(h, heights[level]) << "level " << level;
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
}

TEST_F(OpenVx, GaussianPyramidValidRegionsShrinkOnlyUnderUndefined) {
  for (const vx_border_t& border : {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE)}) {
    vx_image input = vxCreateImage(context_, 32, 32, VX_DF_IMAGE_U8);
    vx_pyramid pyramid = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 32, 32, VX_DF_IMAGE_U8);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxGaussianPyramidNode(graph, input, pyramid);
    ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    vx_image levels[3];
    for (vx_uint32 l = 0; l < 3; ++l) levels[l] = vxGetPyramidLevel(pyramid, l);
    expect_rect(valid_region(levels[0]), 0, 0, 32, 32, "level 0 " + border_name(border));
    if (border.mode == VX_BORDER_UNDEFINED) {
      // Level 1 pixel x reads level 0 around 2x + 1, whose 5x5 window is inside for 2x + 1 in [2, 30).
      expect_rect(valid_region(levels[1]), 1, 1, 15, 15, "level 1 UNDEFINED");
      // Level 2 reads level 1 around 2x + 1, inside its valid [1, 15) less 2: [3, 13).
      expect_rect(valid_region(levels[2]), 1, 1, 6, 6, "level 2 UNDEFINED");
    } else {
      expect_rect(valid_region(levels[1]), 0, 0, 16, 16, "level 1 REPLICATE");
      expect_rect(valid_region(levels[2]), 0, 0, 8, 8, "level 2 REPLICATE");
    }
    for (vx_image& l : levels) EXPECT_EQ(vxReleaseImage(&l), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  }
}

TEST_F(OpenVx, GaussianPyramidFillsAVirtualPyramidOfOpenSize) {
  // A virtual pyramid with size and format left open takes them from the input; a second node reads a level.
  std::mt19937 rng(13);
  const U8 in = random_pixels<vx_uint8>(21, 13, rng);
  vx_image input = image_of(context_, in);
  vx_image copy = vxCreateImage(context_, 21, 13, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_pyramid pyramid = vxCreateVirtualPyramid(graph, 2, VX_SCALE_PYRAMID_HALF, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image level0 = vxGetPyramidLevel(pyramid, 0);
  vx_node make = vxGaussianPyramidNode(graph, input, pyramid);
  vx_node read = vxBox3x3Node(graph, level0, copy);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  const vx_border_t undefined = border_of(VX_BORDER_UNDEFINED);
  // Box3x3 of level 0 (= the input) inside the frame.
  U8 box(in.width, in.height);
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      int sum = 0;
      for (int r = -1; r <= 1; ++r) {
        for (int c = -1; c <= 1; ++c) sum += sample(in, static_cast<int>(x) + c, static_cast<int>(y) + r, undefined);
      }
      box.at(x, y) = static_cast<vx_uint8>(sum / 9);
    }
  }
  expect_pixels_eq(read_pixels<vx_uint8>(copy), box, "Box3x3 of level 0", 1, 1);
  for (vx_node* n : {&make, &read}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&level0), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* i : {&input, &copy}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- HalfScaleGaussian --------------------------------------------------------------------------------------

U8 reference_half_scale(const U8& in, int kernel_size, const vx_border_t& border) {
  return nearest(binomial(in, kernel_size, border), (in.width + 1) / 2, (in.height + 1) / 2);
}

TEST_F(OpenVx, HalfScaleGaussianMatchesTheReference) {
  std::mt19937 rng(21);
  for (const Size& size : kSizes) {
    const U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    for (int kernel_size : {1, 3, 5}) {
      for (const vx_border_t& border : kBorders) {
        const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height) + " k=" + std::to_string(kernel_size) +
                                 " " + border_name(border);
        const U8 expected = reference_half_scale(in, kernel_size, border);
        vx_image input = image_of(context_, in);
        vx_image graph_out = vxCreateImage(context_, expected.width, expected.height, VX_DF_IMAGE_U8);
        vx_image immediate_out = vxCreateImage(context_, expected.width, expected.height, VX_DF_IMAGE_U8);
        vx_graph graph = vxCreateGraph(context_);
        vx_node node = vxHalfScaleGaussianNode(graph, input, graph_out, kernel_size);
        ASSERT_EQ(status_of(node), VX_SUCCESS) << what;
        ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
        ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_uint8>(graph_out), expected, what + " (graph)");
        ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
        ASSERT_EQ(vxuHalfScaleGaussian(context_, input, immediate_out, kernel_size), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_uint8>(immediate_out), expected, what + " (immediate)");
        EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
        EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
        for (vx_image* i : {&input, &graph_out, &immediate_out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
      }
    }
  }
}

TEST_F(OpenVx, HalfScaleGaussianValidRegion) {
  // 20x20 to 10x10: output x reads input 2x + 1; under UNDEFINED its window of radius k / 2 must be inside.
  const vx_uint32 expected_start[] = {0, 0, 1}, expected_end[] = {10, 9, 9};
  for (int kernel_size : {1, 3, 5}) {
    vx_image input = vxCreateImage(context_, 20, 20, VX_DF_IMAGE_U8);
    vx_image output = vxCreateImage(context_, 10, 10, VX_DF_IMAGE_U8);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxHalfScaleGaussianNode(graph, input, output, kernel_size);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    const std::size_t i = static_cast<std::size_t>(kernel_size / 2);
    expect_rect(valid_region(output), expected_start[i], expected_start[i], expected_end[i], expected_end[i], "k=" + std::to_string(kernel_size));
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    for (vx_image* im : {&input, &output}) EXPECT_EQ(vxReleaseImage(im), VX_SUCCESS);
  }
}

// --- LaplacianPyramid and LaplacianReconstruct --------------------------------------------------------------

/// 4 * ((the 5x5 binomial of g zero-inserted to w x h, g's pixels replicated outside it) >> 8), written as
/// the specification's sum over the whole window.
Pixels<int> expand(const Pixels<int>& g, vx_uint32 w, vx_uint32 h) {
  static const int kW[5] = {1, 4, 6, 4, 1};
  Pixels<int> out(w, h);
  for (vx_uint32 y = 0; y < h; ++y) {
    for (vx_uint32 x = 0; x < w; ++x) {
      int sum = 0;
      for (int r = -2; r <= 2; ++r) {
        for (int c = -2; c <= 2; ++c) {
          const int xx = static_cast<int>(x) + c, yy = static_cast<int>(y) + r;
          if (((xx % 2) + 2) % 2 != 0 || ((yy % 2) + 2) % 2 != 0) continue;  // the inserted zeros
          const int gx = std::clamp(xx / 2 - (xx < 0 ? 1 : 0), 0, static_cast<int>(g.width) - 1);
          const int gy = std::clamp(yy / 2 - (yy < 0 ? 1 : 0), 0, static_cast<int>(g.height) - 1);
          sum += kW[r + 2] * kW[c + 2] * std::clamp(g.at(static_cast<vx_uint32>(gx), static_cast<vx_uint32>(gy)), 0, 255);
        }
      }
      out.at(x, y) = (sum >> 8) * 4;
    }
  }
  return out;
}

Pixels<int> widen(const U8& p) {
  Pixels<int> out(p.width, p.height);
  for (std::size_t i = 0; i < p.values.size(); ++i) out.values[i] = p.values[i];
  return out;
}

/// The laplacian levels and the lowest Gaussian level of @p in (L levels).
void reference_laplacian(const U8& in, vx_size levels, std::vector<Pixels<vx_int16>>& laplacian, U8& lowest) {
  const std::vector<U8> g = reference_pyramid(in, levels + 1, VX_SCALE_PYRAMID_HALF, border_of(VX_BORDER_REPLICATE));
  laplacian.clear();
  for (vx_size i = 0; i < levels; ++i) {
    const Pixels<int> up = expand(widen(g[i + 1]), g[i].width, g[i].height);
    Pixels<vx_int16> l(g[i].width, g[i].height);
    for (std::size_t k = 0; k < l.values.size(); ++k) l.values[k] = static_cast<vx_int16>(g[i].values[k] - up.values[k]);
    laplacian.push_back(l);
  }
  lowest = g[levels];
}

/// expand(lower) + level, level after level from the lowest (expand takes its values saturated to 0..255),
/// each saturated to 0..255 but level 0, saturated to @p low .. @p high (the output's format).
Pixels<int> reference_reconstruct(const std::vector<Pixels<vx_int16>>& laplacian, const Pixels<int>& lowest, int low, int high) {
  Pixels<int> current = lowest;
  for (std::size_t l = laplacian.size(); l-- > 0;) {
    const Pixels<int> up = expand(current, laplacian[l].width, laplacian[l].height);
    Pixels<int> next(up.width, up.height);
    for (std::size_t k = 0; k < next.values.size(); ++k) {
      next.values[k] = std::clamp(up.values[k] + laplacian[l].values[k], l == 0 ? low : 0, l == 0 ? high : 255);
    }
    current = next;
  }
  return current;
}

/// The reconstruction as U8.
U8 reference_reconstruct(const std::vector<Pixels<vx_int16>>& laplacian, const U8& lowest) {
  const Pixels<int> current = reference_reconstruct(laplacian, widen(lowest), 0, 255);
  U8 out(current.width, current.height);
  for (std::size_t k = 0; k < out.values.size(); ++k) out.values[k] = static_cast<vx_uint8>(current.values[k]);
  return out;
}

TEST_F(OpenVx, LaplacianPyramidAndReconstructMatchTheReference) {
  std::mt19937 rng(31);
  const Size sizes[] = {{64, 48}, {37, 23}, {9, 6}};
  for (const Size& size : sizes) {
    const U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    constexpr vx_size kLevels = 3;
    std::vector<Pixels<vx_int16>> expected;
    U8 lowest;
    reference_laplacian(in, kLevels, expected, lowest);
    const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height);
    for (const vx_border_t& border : {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_CONSTANT, 99)}) {  // the node's border does not matter
      vx_image input = image_of(context_, in);
      vx_pyramid laplacian = vxCreatePyramid(context_, kLevels, VX_SCALE_PYRAMID_HALF, size.width, size.height, VX_DF_IMAGE_S16);
      vx_image low = vxCreateImage(context_, lowest.width, lowest.height, VX_DF_IMAGE_U8);
      vx_image rebuilt = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
      vx_graph graph = vxCreateGraph(context_);
      vx_node node = vxLaplacianPyramidNode(graph, input, laplacian, low);
      ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
      ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << what;
      expect_pixels_eq(read_pixels<vx_uint8>(low), lowest, what + " lowest level");
      for (vx_uint32 l = 0; l < kLevels; ++l) {
        vx_image level = vxGetPyramidLevel(laplacian, l);
        expect_pixels_eq(read_pixels<vx_int16>(level), expected[l], what + " laplacian level " + std::to_string(l));
        EXPECT_EQ(vxReleaseImage(&level), VX_SUCCESS);
      }
      // Immediate mode reconstructs from them, as the reference does.
      ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
      ASSERT_EQ(vxuLaplacianReconstruct(context_, laplacian, low, rebuilt), VX_SUCCESS) << what;
      expect_pixels_eq(read_pixels<vx_uint8>(rebuilt), reference_reconstruct(expected, lowest), what + " reconstructed");
      EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
      EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
      EXPECT_EQ(vxReleasePyramid(&laplacian), VX_SUCCESS);
      for (vx_image* i : {&input, &low, &rebuilt}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
    }
  }
}

TEST_F(OpenVx, LaplacianKernelsInAGraphRunTwiceAlike) {
  // Pyramid, then reconstruction in one graph through a virtual pyramid and image; the scratch of the
  // reconstruction is set up once, and a second frame gives the same result.
  std::mt19937 rng(32);
  const U8 in = random_pixels<vx_uint8>(40, 30, rng);
  std::vector<Pixels<vx_int16>> expected;
  U8 lowest;
  reference_laplacian(in, 4, expected, lowest);
  vx_image input = image_of(context_, in);
  vx_image rebuilt = vxCreateImage(context_, 40, 30, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_pyramid laplacian = vxCreateVirtualPyramid(graph, 4, VX_SCALE_PYRAMID_HALF, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image low = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node make = vxLaplacianPyramidNode(graph, input, laplacian, low);
  vx_node back = vxLaplacianReconstructNode(graph, laplacian, low, rebuilt);
  for (int frame = 0; frame < 2; ++frame) {
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << "frame " << frame;
    expect_pixels_eq(read_pixels<vx_uint8>(rebuilt), reference_reconstruct(expected, lowest), "frame " + std::to_string(frame));
  }
  for (vx_node* n : {&make, &back}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&low), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&laplacian), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* i : {&input, &rebuilt}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

/// Plane memory of w x h pixels of T, each @p step bytes from the next (gaps of 0xEE between them), and an
/// image on it.
template <typename T>
struct SpacedImage {
  SpacedImage(vx_context context, vx_uint32 w, vx_uint32 h, vx_int32 step)
      : stride_y(static_cast<vx_int32>(w) * step + 3), memory(static_cast<std::size_t>(stride_y) * h, 0xEE) {
    vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
    addr.dim_x = w;
    addr.dim_y = h;
    addr.stride_x = step;
    addr.stride_y = stride_y;
    void* planes[] = {memory.data()};
    image = vxCreateImageFromHandle(context, vg_openvx_test::format_of<T>(), &addr, planes, VX_MEMORY_TYPE_HOST);
  }
  vx_int32 stride_y;
  std::vector<vx_uint8> memory;
  vx_image image = nullptr;
};

TEST_F(OpenVx, LaplacianKernelsTakeS16AndSpacedImages) {
  // The input, the lowest level and the reconstruction on images whose pixels have gaps between them (the
  // kernels stage them through their local data), the lowest level and the reconstruction as S16 too; an
  // S16 lowest level holding values outside 0..255 is expanded from them saturated.
  std::mt19937 rng(33);
  const U8 in = random_pixels<vx_uint8>(45, 27, rng);
  for (const vx_size levels : {vx_size{1}, vx_size{3}}) {
    std::vector<Pixels<vx_int16>> expected;
    U8 lowest;
    reference_laplacian(in, levels, expected, lowest);
    const std::string what = std::to_string(levels) + " levels";
    SpacedImage<vx_uint8> input(context_, in.width, in.height, 3);
    write_pixels(input.image, in);
    SpacedImage<vx_int16> low(context_, lowest.width, lowest.height, 4);
    SpacedImage<vx_int16> rebuilt(context_, in.width, in.height, 6);
    vx_pyramid laplacian = vxCreatePyramid(context_, levels, VX_SCALE_PYRAMID_HALF, in.width, in.height, VX_DF_IMAGE_S16);
    ASSERT_EQ(vxuLaplacianPyramid(context_, input.image, laplacian, low.image), VX_SUCCESS) << what;
    Pixels<vx_int16> lowest_s16(lowest.width, lowest.height);
    for (std::size_t k = 0; k < lowest.values.size(); ++k) lowest_s16.values[k] = lowest.values[k];
    expect_pixels_eq(read_pixels<vx_int16>(low.image), lowest_s16, what + " lowest level");
    for (vx_uint32 l = 0; l < levels; ++l) {
      vx_image level = vxGetPyramidLevel(laplacian, l);
      expect_pixels_eq(read_pixels<vx_int16>(level), expected[l], what + " laplacian level " + std::to_string(l));
      EXPECT_EQ(vxReleaseImage(&level), VX_SUCCESS);
    }
    // The lowest level pushed out of 0..255 where it was at its ends: the expansion saturates it back.
    Pixels<vx_int16> pushed = lowest_s16;
    for (vx_int16& v : pushed.values) v = static_cast<vx_int16>(v < 64 ? v - 700 : v > 192 ? v + 900 : v);
    write_pixels(low.image, pushed);
    ASSERT_EQ(vxuLaplacianReconstruct(context_, laplacian, low.image, rebuilt.image), VX_SUCCESS) << what;
    Pixels<int> pushed_int(pushed.width, pushed.height);
    for (std::size_t k = 0; k < pushed.values.size(); ++k) pushed_int.values[k] = pushed.values[k];
    const Pixels<int> want = reference_reconstruct(expected, pushed_int, -32768, 32767);
    Pixels<vx_int16> want_s16(want.width, want.height);
    for (std::size_t k = 0; k < want.values.size(); ++k) want_s16.values[k] = static_cast<vx_int16>(want.values[k]);
    expect_pixels_eq(read_pixels<vx_int16>(rebuilt.image), want_s16, what + " reconstructed");
    for (vx_uint32 y = 0; y < in.height; ++y) {  // the gaps untouched
      for (vx_uint32 x = 0; x < in.width; ++x) {
        for (int b = 2; b < 6; ++b) ASSERT_EQ(rebuilt.memory[static_cast<std::size_t>(y) * rebuilt.stride_y + 6 * x + b], 0xEE) << what;
      }
    }
    EXPECT_EQ(vxReleasePyramid(&laplacian), VX_SUCCESS);
    for (vx_image* i : {&input.image, &low.image, &rebuilt.image}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

// --- refusals -----------------------------------------------------------------------------------------------

/// Verifying a graph holding only the node @p make builds gives @p status, and the log names @p why.
template <typename Make>
void expect_verify_refused(vx_context context, Make make, vx_status status, const std::string& why) {
  vg_openvx_test::log_lines.clear();
  vx_graph graph = vxCreateGraph(context);
  vx_node node = make(graph);
  ASSERT_EQ(status_of(node), VX_SUCCESS) << why;
  EXPECT_EQ(vxVerifyGraph(graph), status) << why;
  bool logged = false;
  for (const std::string& line : vg_openvx_test::log_lines) logged = logged || line.find(why) != std::string::npos;
  EXPECT_TRUE(logged) << "no log line holds \"" << why << "\"";
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVx, PyramidKernelsRefuseWhatTheyDoNotTake) {
  vx_image u8 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
  vx_image half = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_U8);
  vx_image half_s16 = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_S16);
  vx_image wrong = vxCreateImage(context_, 7, 4, VX_DF_IMAGE_U8);
  vx_pyramid pyramid = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 16, 8, VX_DF_IMAGE_U8);
  vx_pyramid pyramid_s16 = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 16, 8, VX_DF_IMAGE_S16);
  vx_pyramid pyramid_small = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 8, 8, VX_DF_IMAGE_U8);
  vx_pyramid pyramid_third = vxCreatePyramid(context_, 2, 0.33f, 16, 8, VX_DF_IMAGE_U8);

  const std::string gp = "org.khronos.openvx.gaussian_pyramid: ", hs = "org.khronos.openvx.halfscale_gaussian: ";
  expect_verify_refused(context_, [&](vx_graph g) { return vxGaussianPyramidNode(g, s16, pyramid); }, VX_ERROR_INVALID_FORMAT,
                        gp + "input has format S16");
  expect_verify_refused(context_, [&](vx_graph g) { return vxGaussianPyramidNode(g, u8, pyramid_s16); }, VX_ERROR_INVALID_FORMAT,
                        gp + "gaussian has format S16");
  expect_verify_refused(context_, [&](vx_graph g) { return vxGaussianPyramidNode(g, u8, pyramid_small); }, VX_ERROR_INVALID_DIMENSION,
                        gp + "gaussian's level 0 is 8x8");
  expect_verify_refused(context_, [&](vx_graph g) { return vxGaussianPyramidNode(g, u8, pyramid_third); }, VX_ERROR_INVALID_PARAMETERS,
                        gp + "gaussian has scale 0.33");
  expect_verify_refused(context_, [&](vx_graph g) { return vxHalfScaleGaussianNode(g, s16, half, 3); }, VX_ERROR_INVALID_FORMAT,
                        hs + "input has format S16");
  expect_verify_refused(context_, [&](vx_graph g) { return vxHalfScaleGaussianNode(g, u8, half_s16, 3); }, VX_ERROR_INVALID_FORMAT,
                        hs + "output has format S16");
  expect_verify_refused(context_, [&](vx_graph g) { return vxHalfScaleGaussianNode(g, u8, wrong, 3); }, VX_ERROR_INVALID_DIMENSION,
                        hs + "output is 7x4");
  expect_verify_refused(context_, [&](vx_graph g) { return vxHalfScaleGaussianNode(g, u8, half, 4); }, VX_ERROR_INVALID_VALUE,
                        hs + "kernel_size is 4");
  vx_pyramid laplacian = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 16, 8, VX_DF_IMAGE_S16);
  vx_image quarter = vxCreateImage(context_, 4, 2, VX_DF_IMAGE_U8);
  const std::string lp = "org.khronos.openvx.laplacian_pyramid: ", lr = "org.khronos.openvx.laplacian_reconstruct: ";
  expect_verify_refused(context_, [&](vx_graph g) { return vxLaplacianPyramidNode(g, s16, laplacian, quarter); }, VX_ERROR_INVALID_FORMAT,
                        lp + "input has format S16");
  expect_verify_refused(context_, [&](vx_graph g) { return vxLaplacianPyramidNode(g, u8, pyramid, quarter); }, VX_ERROR_INVALID_FORMAT,
                        lp + "laplacian has format U8");
  expect_verify_refused(context_, [&](vx_graph g) { return vxLaplacianPyramidNode(g, u8, laplacian, half); }, VX_ERROR_INVALID_PARAMETERS,
                        lp + "output is 8x4");
  expect_verify_refused(context_, [&](vx_graph g) { return vxLaplacianReconstructNode(g, pyramid, quarter, u8); }, VX_ERROR_INVALID_FORMAT,
                        lr + "laplacian has format U8");
  expect_verify_refused(context_, [&](vx_graph g) { return vxLaplacianReconstructNode(g, laplacian, half, u8); }, VX_ERROR_INVALID_DIMENSION,
                        lr + "input is 8x4");
  EXPECT_EQ(vxuLaplacianPyramid(context_, s16, laplacian, quarter), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxReleasePyramid(&laplacian), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&quarter), VX_SUCCESS);
  // Immediate mode returns what verification refused.
  EXPECT_EQ(vxuGaussianPyramid(context_, s16, pyramid), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuHalfScaleGaussian(context_, s16, half, 5), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuHalfScaleGaussian(context_, u8, half, 7), VX_ERROR_INVALID_VALUE);

  for (vx_pyramid* p : {&pyramid, &pyramid_s16, &pyramid_small, &pyramid_third}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
  for (vx_image* i : {&u8, &s16, &half, &half_s16, &wrong}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

}  // namespace
