// The standard kernel HarrisCorners against a plain reference written here (the 2-D Sobel and the block
// sums pixel by pixel in double, the suppression and the distance test by their definitions): every
// gradient and block size, several sensitivities and distances, each border mode, graph and immediate
// forms; a symmetric picture checked by hand; the array's capacity and count; and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::border_name;
using vg_openvx_test::border_of;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::random_pixels;
using vg_openvx_test::status_of;

struct Params {
  float threshold = 1e-4f, min_distance = 0.0f, sensitivity = 0.04f;
  int gradient_size = 3, block_size = 3;
};

std::string describe(const Params& p, const vx_border_t& border) {
  return "g " + std::to_string(p.gradient_size) + " b " + std::to_string(p.block_size) + " k " + std::to_string(p.sensitivity) + " r " +
         std::to_string(p.min_distance) + " T " + std::to_string(p.threshold) + " " + border_name(border);
}

/// The input at (x, y), possibly outside: CONSTANT's value, REPLICATE's nearest edge pixel, and for
/// UNDEFINED the image mirrored about its edge pixels (what this library reads there).
int pixel(const Pixels<vx_uint8>& in, int x, int y, const vx_border_t& border) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  if (x >= 0 && y >= 0 && x < w && y < h) return in.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
  if (border.mode == VX_BORDER_CONSTANT) return border.constant_value.U8;
  auto mirror = [](int i, int n) {
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
  };
  if (border.mode == VX_BORDER_REPLICATE) {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
  } else {
    x = mirror(x, w);
    y = mirror(y, h);
  }
  return in.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
}

/// The Sobel kernels of the specification: Gx(r, c) = binomial(r) * derivative(c), Gy the transpose.
void sobel_kernels(int g, std::vector<int>& binomial, std::vector<int>& derivative) {
  // Row g - 1 of Pascal's triangle; the derivative is row g - 2 convolved with (-1, 1).
  binomial.assign(1, 1);
  std::vector<int> previous;
  for (int n = 1; n < g; ++n) {
    previous = binomial;
    binomial.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i <= n; ++i) binomial[i] = (i > 0 ? previous[i - 1] : 0) + (i < n ? previous[i] : 0);
  }
  derivative.assign(static_cast<std::size_t>(g), 0);
  for (int i = 0; i < g; ++i) derivative[i] = (i > 0 ? previous[i - 1] : 0) - (i < g - 1 ? previous[i] : 0);
}

struct Corner {
  int x, y;
  double strength;
};

/// The reference corners, strongest first.
std::vector<Corner> reference_harris(const Pixels<vx_uint8>& in, const Params& p, const vx_border_t& border) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  const int g = p.gradient_size, b = p.block_size, rg = g / 2, rb = b / 2;
  std::vector<int> binomial, derivative;
  sobel_kernels(g, binomial, derivative);
  const double norm = 1.0 / ((1 << (g - 1)) * 255.0 * b);
  auto gradient = [&](int x, int y, double& gx, double& gy) {
    long sx = 0, sy = 0;
    for (int r = 0; r < g; ++r) {
      for (int c = 0; c < g; ++c) {
        const int v = pixel(in, x + c - rg, y + r - rg, border);
        sx += static_cast<long>(binomial[r]) * derivative[c] * v;
        sy += static_cast<long>(derivative[r]) * binomial[c] * v;
      }
    }
    gx = sx * norm;
    gy = sy * norm;
  };
  const double threshold = std::max(0.0, static_cast<double>(p.threshold));
  std::vector<double> vc(static_cast<std::size_t>(w) * h, 0.0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double a = 0, m = 0, c = 0;
      for (int dy = -rb; dy <= rb; ++dy) {
        for (int dx = -rb; dx <= rb; ++dx) {
          double gx = 0, gy = 0;
          gradient(x + dx, y + dy, gx, gy);
          a += gx * gx;
          m += gx * gy;
          c += gy * gy;
        }
      }
      const double mc = a * c - m * m - p.sensitivity * (a + c) * (a + c);
      if (mc > threshold) vc[static_cast<std::size_t>(y) * w + x] = mc;
    }
  }
  std::vector<Corner> candidates;
  for (int y = 1; y + 1 < h; ++y) {
    for (int x = 1; x + 1 < w; ++x) {
      const double v = vc[static_cast<std::size_t>(y) * w + x];
      auto at = [&](int dx, int dy) { return vc[static_cast<std::size_t>(y + dy) * w + x + dx]; };
      if (v > 0 && v >= at(-1, -1) && v >= at(0, -1) && v >= at(1, -1) && v >= at(-1, 0) && v > at(1, 0) && v > at(-1, 1) &&
          v > at(0, 1) && v > at(1, 1)) {
        candidates.push_back({x, y, v});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const Corner& l, const Corner& r) { return l.strength > r.strength; });
  std::vector<Corner> taken;
  const double r2 = static_cast<double>(p.min_distance) * p.min_distance;
  for (const Corner& c : candidates) {
    const bool near = std::any_of(taken.begin(), taken.end(), [&](const Corner& t) {
      return static_cast<double>(t.x - c.x) * (t.x - c.x) + static_cast<double>(t.y - c.y) * (t.y - c.y) < r2;
    });
    if (!near) taken.push_back(c);
  }
  return taken;
}

std::vector<vx_keypoint_t> read_keypoints(vx_array array) {
  vx_size count = 0;
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_NUMITEMS, &count, sizeof count), VX_SUCCESS);
  std::vector<vx_keypoint_t> items(count);
  if (count > 0) {
    EXPECT_EQ(vxCopyArrayRange(array, 0, count, sizeof(vx_keypoint_t), items.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  return items;
}

/// The kernel's corners against the reference: the same pixels in the same order, strengths within a
/// float's rounding of the largest, the other fields as the specification fixes them.
void expect_corners(const std::vector<vx_keypoint_t>& actual, const std::vector<Corner>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  double largest = 0;
  for (const Corner& c : expected) largest = std::max(largest, c.strength);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const vx_keypoint_t& k = actual[i];
    EXPECT_EQ(k.x, expected[i].x) << what << ": corner " << i;
    EXPECT_EQ(k.y, expected[i].y) << what << ": corner " << i;
    EXPECT_NEAR(k.strength, expected[i].strength, 1e-5 * largest) << what << ": corner " << i;
    EXPECT_EQ(k.tracking_status, 1) << what;
    EXPECT_EQ(k.scale, 0.0f) << what;
    EXPECT_EQ(k.orientation, 0.0f) << what;
    EXPECT_EQ(k.error, 0.0f) << what;
    if (i > 0) {
      EXPECT_GE(actual[i - 1].strength, k.strength) << what << ": strongest first";
    }
  }
}

/// Bright and dark rectangles (well apart in level) on a noisy mid-grey ground: corners of every
/// strength, some near the edges.
Pixels<vx_uint8> corner_image(vx_uint32 w, vx_uint32 h, std::mt19937& rng) {
  Pixels<vx_uint8> p = random_pixels<vx_uint8>(w, h, rng, 118, 138);
  std::uniform_int_distribution<int> px(-2, static_cast<int>(w) - 3), py(-2, static_cast<int>(h) - 3), side(3, 9), level(0, 255);
  for (int n = 0; n < 14; ++n) {
    const int x0 = px(rng), y0 = py(rng), sw = side(rng), sh = side(rng);
    const auto v = static_cast<vx_uint8>(level(rng));
    for (int y = std::max(y0, 0); y < std::min(y0 + sh, static_cast<int>(h)); ++y) {
      for (int x = std::max(x0, 0); x < std::min(x0 + sw, static_cast<int>(w)); ++x) p.at(x, y) = v;
    }
  }
  return p;
}

struct Scalars {
  vx_scalar threshold, min_distance, sensitivity, count;
  Scalars(vx_context context, const Params& p, vx_size initial_count = 12345) {
    threshold = vxCreateScalar(context, VX_TYPE_FLOAT32, &p.threshold);
    min_distance = vxCreateScalar(context, VX_TYPE_FLOAT32, &p.min_distance);
    sensitivity = vxCreateScalar(context, VX_TYPE_FLOAT32, &p.sensitivity);
    count = vxCreateScalar(context, VX_TYPE_SIZE, &initial_count);
  }
  ~Scalars() {
    for (vx_scalar* s : {&threshold, &min_distance, &sensitivity, &count}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  }
  vx_size found() const {
    vx_size n = 0;
    EXPECT_EQ(vxCopyScalar(count, &n, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    return n;
  }
};

/// Runs HarrisCorners on @p in (@p immediate: through vxuHarrisCorners) into an array of @p capacity.
std::vector<vx_keypoint_t> run_harris(vx_context context, const Pixels<vx_uint8>& in, const Params& p, const vx_border_t& border,
                                      bool immediate, vx_size capacity, vx_size& found) {
  vx_image input = image_of(context, in);
  const Scalars s(context, p);
  vx_array corners = vxCreateArray(context, VX_TYPE_KEYPOINT, capacity);
  if (immediate) {
    EXPECT_EQ(vxSetContextAttribute(context, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
    EXPECT_EQ(vxuHarrisCorners(context, input, s.threshold, s.min_distance, s.sensitivity, p.gradient_size, p.block_size, corners, s.count),
              VX_SUCCESS);
  } else {
    vx_graph graph = vxCreateGraph(context);
    vx_node node =
        vxHarrisCornersNode(graph, input, s.threshold, s.min_distance, s.sensitivity, p.gradient_size, p.block_size, corners, s.count);
    EXPECT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);  // the array is refilled, not appended to
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  found = s.found();
  std::vector<vx_keypoint_t> result = read_keypoints(corners);
  EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  return result;
}

TEST_F(OpenVx, HarrisCornersMatchTheReferenceForEveryGradientAndBlockSize) {
  std::mt19937 rng(11);
  const Pixels<vx_uint8> in = corner_image(37, 29, rng);
  const vx_border_t undefined = border_of(VX_BORDER_UNDEFINED);
  for (int g : {3, 5, 7}) {
    for (int b : {3, 5, 7}) {
      for (float k : {0.04f, 0.15f}) {
        Params p;
        p.gradient_size = g;
        p.block_size = b;
        p.sensitivity = k;
        p.threshold = 1e-6f;
        const bool immediate = (g + b) % 4 == 0;
        const std::vector<Corner> expected = reference_harris(in, p, undefined);
        EXPECT_GT(expected.size(), 10u) << describe(p, undefined) << ": the picture should have corners";
        vx_size found = 0;
        expect_corners(run_harris(context_, in, p, undefined, immediate, 37 * 29, found), expected, describe(p, undefined));
        EXPECT_EQ(found, expected.size()) << describe(p, undefined);
      }
    }
  }
}

TEST_F(OpenVx, HarrisCornersMatchTheReferenceForEachDistanceThresholdAndBorder) {
  std::mt19937 rng(17);
  const Pixels<vx_uint8> in = corner_image(41, 33, rng);
  for (const vx_border_t& border : {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                    border_of(VX_BORDER_CONSTANT, 200)}) {
    for (float r : {0.0f, 1.0f, 1.5f, 2.0f, 4.5f, 12.0f, 60.0f}) {
      for (float t : {0.0f, 1e-5f, 3e-4f}) {
        for (bool immediate : {false, true}) {
          Params p;
          p.gradient_size = 5;
          p.block_size = 3;
          p.min_distance = r;
          p.threshold = t;
          const std::vector<Corner> expected = reference_harris(in, p, border);
          vx_size found = 0;
          const std::string what = describe(p, border) + (immediate ? " vxu" : " graph");
          expect_corners(run_harris(context_, in, p, border, immediate, 41 * 33, found), expected, what);
          EXPECT_EQ(found, expected.size()) << what;
          if (r == 60.0f) {  // beyond the picture's diagonal: only the strongest stays
            EXPECT_LE(expected.size(), 1u) << what;
          }
        }
      }
    }
  }
}

TEST_F(OpenVx, HarrisCornersFindTheFourCornersOfASquareWithEqualStrength) {
  // A bright 8x8 square centred in a dark 24x24 picture: by symmetry its four corners score the same,
  // and they are the only strong points (the edges between them score below 0).
  Pixels<vx_uint8> in(24, 24);
  for (vx_uint32 y = 8; y < 16; ++y) {
    for (vx_uint32 x = 8; x < 16; ++x) in.at(x, y) = 250;
  }
  Params p;
  p.threshold = 1e-3f;
  p.min_distance = 3.0f;
  vx_size found = 0;
  const std::vector<vx_keypoint_t> corners = run_harris(context_, in, p, border_of(VX_BORDER_UNDEFINED), false, 100, found);
  ASSERT_EQ(corners.size(), 4u);
  EXPECT_EQ(found, 4u);
  // One corner in each quadrant, within a pixel of the square's corner (between pixels 7 and 8, or 15
  // and 16, on each axis).
  bool quadrant[2][2] = {};
  for (const vx_keypoint_t& k : corners) {
    EXPECT_NEAR(k.strength, corners[0].strength, 1e-5f * corners[0].strength);
    EXPECT_TRUE(k.x == 7 || k.x == 8 || k.x == 15 || k.x == 16) << k.x;
    EXPECT_TRUE(k.y == 7 || k.y == 8 || k.y == 15 || k.y == 16) << k.y;
    quadrant[k.x > 11][k.y > 11] = true;
  }
  EXPECT_TRUE(quadrant[0][0] && quadrant[0][1] && quadrant[1][0] && quadrant[1][1]);
}

TEST_F(OpenVx, HarrisCornersOfAFlatPictureAreNone) {
  Pixels<vx_uint8> in(20, 15);
  std::fill(in.values.begin(), in.values.end(), vx_uint8{77});
  Params p;
  p.threshold = 0.0f;
  vx_size found = 99;
  EXPECT_TRUE(run_harris(context_, in, p, border_of(VX_BORDER_CONSTANT, 77), true, 50, found).empty());
  EXPECT_EQ(found, 0u);
  EXPECT_TRUE(run_harris(context_, in, p, border_of(VX_BORDER_REPLICATE), true, 50, found).empty());
  EXPECT_EQ(found, 0u);
  EXPECT_TRUE(run_harris(context_, in, p, border_of(VX_BORDER_UNDEFINED), false, 50, found).empty());
  EXPECT_EQ(found, 0u);
}

TEST_F(OpenVx, HarrisCornersFillTheArrayWithTheStrongestAndCountEveryCorner) {
  std::mt19937 rng(23);
  const Pixels<vx_uint8> in = corner_image(45, 38, rng);
  Params p;
  p.threshold = 1e-6f;
  p.min_distance = 2.0f;
  const vx_border_t undefined = border_of(VX_BORDER_UNDEFINED);
  const std::vector<Corner> expected = reference_harris(in, p, undefined);
  ASSERT_GT(expected.size(), 8u);
  vx_size found = 0;
  expect_corners(run_harris(context_, in, p, undefined, true, 8, found), std::vector<Corner>(expected.begin(), expected.begin() + 8),
                 "capacity 8");
  EXPECT_EQ(found, expected.size());
  // num_corners is optional.
  vx_image input = image_of(context_, in);
  const Scalars s(context_, p);
  vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, 5);
  EXPECT_EQ(vxuHarrisCorners(context_, input, s.threshold, s.min_distance, s.sensitivity, 3, 3, corners, nullptr), VX_SUCCESS);
  EXPECT_EQ(read_keypoints(corners).size(), 5u);
  EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

TEST_F(OpenVx, HarrisCornersOfAnImageWhosePixelsAreNotPackedAreThePackedOnes) {
  // Two bytes per pixel (a handle's layout): the kernel copies it into a packed plane first.
  std::mt19937 rng(23);
  const Pixels<vx_uint8> in = corner_image(45, 31, rng);
  std::vector<vx_uint8> spread(2 * 45 * 31, 0);
  for (vx_uint32 y = 0; y < 31; ++y) {
    for (vx_uint32 x = 0; x < 45; ++x) spread[2 * (y * 45 + x)] = in.at(x, y);
  }
  vx_imagepatch_addressing_t addressing{};
  addressing.dim_x = 45;
  addressing.dim_y = 31;
  addressing.stride_x = 2;
  addressing.stride_y = 90;
  void* pointers[1] = {spread.data()};
  vx_image strided = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addressing, pointers, VX_MEMORY_TYPE_HOST);
  vx_image packed = image_of(context_, in);
  Params p;
  p.gradient_size = 5;
  p.min_distance = 2.5f;
  p.threshold = 1e-6f;
  const Scalars s(context_, p);
  const vx_border_t border = border_of(VX_BORDER_REPLICATE);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
  std::vector<vx_keypoint_t> results[2];
  vx_image images[2] = {packed, strided};
  for (int i = 0; i < 2; ++i) {
    vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, 45 * 31);
    EXPECT_EQ(vxuHarrisCorners(context_, images[i], s.threshold, s.min_distance, s.sensitivity, 5, 3, corners, s.count), VX_SUCCESS);
    results[i] = read_keypoints(corners);
    EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  }
  EXPECT_GT(results[0].size(), 5u);
  ASSERT_EQ(results[0].size(), results[1].size());
  for (std::size_t i = 0; i < results[0].size(); ++i) {
    EXPECT_EQ(results[0][i].x, results[1][i].x);
    EXPECT_EQ(results[0][i].y, results[1][i].y);
    EXPECT_EQ(results[0][i].strength, results[1][i].strength);
  }
  for (vx_image* image : {&packed, &strided}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}

TEST_F(OpenVx, HarrisCornersReadTheirScalarsEachRunAndFillAVirtualArray) {
  std::mt19937 rng(29);
  const Pixels<vx_uint8> in = corner_image(33, 31, rng);
  Params p;
  p.threshold = 1e-6f;
  const vx_border_t undefined = border_of(VX_BORDER_UNDEFINED);
  vx_image input = image_of(context_, in);
  const Scalars s(context_, p);
  vx_graph graph = vxCreateGraph(context_);
  vx_array corners = vxCreateVirtualArray(graph, 0, 0);
  vx_node node = vxHarrisCornersNode(graph, input, s.threshold, s.min_distance, s.sensitivity, 3, 3, corners, s.count);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_enum item_type = 0;
  EXPECT_EQ(vxQueryArray(corners, VX_ARRAY_ITEMTYPE, &item_type, sizeof item_type), VX_SUCCESS);
  EXPECT_EQ(item_type, VX_TYPE_KEYPOINT);
  for (float r : {0.0f, 3.0f, 7.5f}) {
    p.min_distance = r;
    EXPECT_EQ(vxCopyScalar(s.min_distance, &p.min_distance, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(s.found(), reference_harris(in, p, undefined).size()) << "min_distance " << r;
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

TEST_F(OpenVx, HarrisCornersRefuseWrongFormatsTypesAndValues) {
  vx_image s16 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_S16);
  vx_image u8 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  const vx_float32 good = 0.001f, negative = -1.0f, nan = std::nanf("");
  const vx_int32 int_value = 3;
  const vx_uint32 count32 = 0;
  vx_scalar f = vxCreateScalar(context_, VX_TYPE_FLOAT32, &good);
  vx_scalar neg = vxCreateScalar(context_, VX_TYPE_FLOAT32, &negative);
  vx_scalar not_a_number = vxCreateScalar(context_, VX_TYPE_FLOAT32, &nan);
  vx_scalar i32 = vxCreateScalar(context_, VX_TYPE_INT32, &int_value);
  vx_scalar wrong_count = vxCreateScalar(context_, VX_TYPE_UINT32, &count32);
  vx_array keypoints = vxCreateArray(context_, VX_TYPE_KEYPOINT, 100);
  vx_array coordinates = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 100);
  EXPECT_EQ(vxuHarrisCorners(context_, s16, f, f, f, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("only U8"));
  EXPECT_EQ(vxuHarrisCorners(context_, u8, i32, f, f, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, i32, f, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, i32, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, not_a_number, f, f, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, neg, f, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("min_distance"));
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, not_a_number, 3, 3, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, f, 4, 3, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("gradient_size"));
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, f, 3, 9, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("block_size"));
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, f, 3, 3, coordinates, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, f, 3, 3, keypoints, wrong_count), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuHarrisCorners(context_, u8, f, f, f, 3, 3, keypoints, nullptr), VX_SUCCESS);
  // A generic node whose size parameters are not INT32 scalars.
  vx_graph graph = vxCreateGraph(context_);
  vx_kernel kernel = vxGetKernelByEnum(context_, VX_KERNEL_HARRIS_CORNERS);
  vx_node node = vxCreateGenericNode(graph, kernel);
  const vx_reference params[] = {ref(u8), ref(f), ref(f), ref(f), ref(f), ref(i32), ref(keypoints)};
  for (vx_uint32 i = 0; i < 7; ++i) EXPECT_EQ(vxSetParameterByIndex(node, i, params[i]), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxSetParameterByIndex(node, 4, ref(i32)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_scalar* s : {&f, &neg, &not_a_number, &i32, &wrong_count}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&keypoints), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&coordinates), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&s16), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&u8), VX_SUCCESS);
}

}  // namespace
