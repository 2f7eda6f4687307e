// The standard kernels Remap and FastCorners, pixel by pixel and corner by corner against plain
// references written here: odd sizes, each interpolation and border mode, graph and immediate forms, and
// the refusals.
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
using vg_openvx_test::read_pixels;
using vg_openvx_test::sample;
using vg_openvx_test::status_of;

// --- Remap ------------------------------------------------------------------------------------------------

/// A table for @p dst_w x @p dst_h pixels, each entry drawn from [-3, size + 3) on each axis, so some
/// pixels read outside the source. With @p avoid_halves the fractions are 0.25 or 0.75, away from the
/// point where nearest-neighbour rounding turns.
std::vector<vx_coordinates2df_t> random_table(vx_uint32 src_w, vx_uint32 src_h, vx_uint32 dst_w, vx_uint32 dst_h, std::mt19937& rng,
                                              bool avoid_halves) {
  std::vector<vx_coordinates2df_t> table(static_cast<std::size_t>(dst_w) * dst_h);
  std::uniform_int_distribution<int> xs(-3, static_cast<int>(src_w) + 2), ys(-3, static_cast<int>(src_h) + 2), quarter(0, 1);
  std::uniform_real_distribution<float> fraction(0.0f, 1.0f);
  for (vx_coordinates2df_t& c : table) {
    if (avoid_halves) {
      c.x = static_cast<float>(xs(rng)) + (quarter(rng) != 0 ? 0.75f : 0.25f);
      c.y = static_cast<float>(ys(rng)) + (quarter(rng) != 0 ? 0.75f : 0.25f);
    } else {
      c.x = static_cast<float>(xs(rng)) + fraction(rng);
      c.y = static_cast<float>(ys(rng)) + fraction(rng);
    }
  }
  return table;
}

vx_remap remap_of(vx_context context, vx_uint32 src_w, vx_uint32 src_h, vx_uint32 dst_w, vx_uint32 dst_h,
                  std::vector<vx_coordinates2df_t>& table) {
  vx_remap remap = vxCreateRemap(context, src_w, src_h, dst_w, dst_h);
  EXPECT_EQ(status_of(remap), VX_SUCCESS);
  const vx_rectangle_t all{0, 0, dst_w, dst_h};
  EXPECT_EQ(vxCopyRemapPatch(remap, &all, dst_w * sizeof(vx_coordinates2df_t), table.data(), VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY,
                             VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  return remap;
}

bool inside(const Pixels<vx_uint8>& in, int x, int y) {
  return x >= 0 && y >= 0 && x < static_cast<int>(in.width) && y < static_cast<int>(in.height);
}

/// The reference: nearest neighbour reads (floor(x + 0.5), floor(y + 0.5)); bilinear weighs the four pixels
/// around (floor(x), floor(y)) in double. Sets @p defined false where UNDEFINED leaves the value open (a
/// pixel read outside the source).
double reference_remap(const Pixels<vx_uint8>& in, vx_coordinates2df_t c, vx_enum policy, const vx_border_t& border, bool& defined) {
  defined = true;
  if (policy == VX_INTERPOLATION_NEAREST_NEIGHBOR) {
    const int x = static_cast<int>(std::floor(c.x + 0.5)), y = static_cast<int>(std::floor(c.y + 0.5));
    if (!inside(in, x, y) && border.mode == VX_BORDER_UNDEFINED) defined = false;
    return sample(in, x, y, border);
  }
  const double x0 = std::floor(static_cast<double>(c.x)), y0 = std::floor(static_cast<double>(c.y));
  const double s = c.x - x0, t = c.y - y0;
  const int xi = static_cast<int>(x0), yi = static_cast<int>(y0);
  if (border.mode == VX_BORDER_UNDEFINED && !(inside(in, xi, yi) && inside(in, xi + 1, yi + 1))) defined = false;
  return (1 - s) * (1 - t) * sample(in, xi, yi, border) + s * (1 - t) * sample(in, xi + 1, yi, border) +
         (1 - s) * t * sample(in, xi, yi + 1, border) + s * t * sample(in, xi + 1, yi + 1, border);
}

/// Runs Remap in a graph (@p immediate: through vxuRemap) under @p border; the output's pixels.
Pixels<vx_uint8> run_remap(vx_context context, const Pixels<vx_uint8>& in, vx_uint32 dst_w, vx_uint32 dst_h,
                           std::vector<vx_coordinates2df_t>& table, vx_enum policy, const vx_border_t& border, bool immediate) {
  vx_image input = image_of(context, in);
  vx_image output = vxCreateImage(context, dst_w, dst_h, VX_DF_IMAGE_U8);
  vx_remap remap = remap_of(context, in.width, in.height, dst_w, dst_h, table);
  if (immediate) {
    EXPECT_EQ(vxSetContextAttribute(context, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
    EXPECT_EQ(vxuRemap(context, input, remap, policy, output), VX_SUCCESS);
  } else {
    vx_graph graph = vxCreateGraph(context);
    vx_node node = vxRemapNode(graph, input, remap, policy, output);
    EXPECT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    // A second run of the verified graph gives the same pixels (nothing prepared is consumed).
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  Pixels<vx_uint8> out = read_pixels<vx_uint8>(output);
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  return out;
}

TEST_F(OpenVx, RemapMatchesTheReferenceForEachInterpolationAndBorder) {
  std::mt19937 rng(7);
  const vx_uint32 src_w = 37, src_h = 23, dst_w = 29, dst_h = 31;
  const Pixels<vx_uint8> in = random_pixels<vx_uint8>(src_w, src_h, rng);
  for (const vx_enum policy : {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}) {
    const bool nn = policy == VX_INTERPOLATION_NEAREST_NEIGHBOR;
    for (const vx_border_t& border :
         {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_CONSTANT, 0), border_of(VX_BORDER_CONSTANT, 201), border_of(VX_BORDER_REPLICATE)}) {
      for (const bool immediate : {false, true}) {
        std::vector<vx_coordinates2df_t> table = random_table(src_w, src_h, dst_w, dst_h, rng, nn);
        const Pixels<vx_uint8> out = run_remap(context_, in, dst_w, dst_h, table, policy, border, immediate);
        ASSERT_EQ(out.width, dst_w);
        const std::string what = std::string(nn ? "nearest" : "bilinear") + " " + border_name(border) + (immediate ? " vxu" : " graph");
        int wrong = 0, defined_count = 0;
        for (vx_uint32 y = 0; y < dst_h; ++y) {
          for (vx_uint32 x = 0; x < dst_w; ++x) {
            bool defined = true;
            const double expected = reference_remap(in, table[y * dst_w + x], policy, border, defined);
            if (!defined) continue;
            ++defined_count;
            // Nearest neighbour is exact; bilinear rounds to nearest (float arithmetic: within 0.5 + a little).
            const bool ok = nn ? out.at(x, y) == static_cast<int>(expected) : std::abs(out.at(x, y) - expected) <= 0.51;
            if (!ok && ++wrong <= 5) {
              ADD_FAILURE() << what << ": pixel (" << x << ", " << y << ") is " << +out.at(x, y) << ", expected " << expected;
            }
          }
        }
        EXPECT_EQ(wrong, 0) << what;
        EXPECT_GT(defined_count, static_cast<int>(dst_w * dst_h / 2)) << what;
      }
    }
  }
}

TEST_F(OpenVx, RemapIdentityTableCopiesAndNonFiniteCoordinatesReadTheBorder) {
  std::mt19937 rng(11);
  const vx_uint32 w = 13, h = 9;
  const Pixels<vx_uint8> in = random_pixels<vx_uint8>(w, h, rng);
  std::vector<vx_coordinates2df_t> table(w * h);
  for (vx_uint32 y = 0; y < h; ++y) {
    for (vx_uint32 x = 0; x < w; ++x) table[y * w + x] = {static_cast<float>(x), static_cast<float>(y)};
  }
  table[0] = {NAN, 1.0f};
  table[1] = {1e30f, -1e30f};
  for (const vx_enum policy : {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}) {
    const Pixels<vx_uint8> out = run_remap(context_, in, w, h, table, policy, border_of(VX_BORDER_CONSTANT, 77), false);
    ASSERT_EQ(out.width, w);
    EXPECT_EQ(out.at(0, 0), 77);
    EXPECT_EQ(out.at(1, 0), 77);
    for (vx_uint32 i = 2; i < w * h; ++i) EXPECT_EQ(out.values[i], in.values[i]) << "pixel " << i;
  }
}

TEST_F(OpenVx, RemapRefusesWrongFormatsSizesAndPolicies) {
  vx_image s16 = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_S16);
  vx_image u8 = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_image u8_other = vxCreateImage(context_, 9, 8, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_U8);
  vx_image out_s16 = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_S16);
  vx_image out_big = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_remap remap = vxCreateRemap(context_, 8, 8, 4, 4);
  EXPECT_EQ(vxuRemap(context_, s16, remap, VX_INTERPOLATION_BILINEAR, out), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("only U8"));
  EXPECT_EQ(vxuRemap(context_, u8, remap, VX_INTERPOLATION_BILINEAR, out_s16), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuRemap(context_, u8_other, remap, VX_INTERPOLATION_BILINEAR, out), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(vxuRemap(context_, u8, remap, VX_INTERPOLATION_AREA, out), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuRemap(context_, u8, remap, VX_INTERPOLATION_NEAREST_NEIGHBOR, out_big), VX_ERROR_INVALID_PARAMETERS);  // 8x8, not 4x4
  // In a graph the refusal comes at verification.
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxRemapNode(graph, s16, remap, VX_INTERPOLATION_NEAREST_NEIGHBOR, out);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* i : {&s16, &u8, &u8_other, &out, &out_s16, &out_big}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
}

// --- FastCorners ------------------------------------------------------------------------------------------

/// Whether (x, y) is a FAST9 corner at threshold @p t, by the definition: 9 contiguous circle pixels all
/// brighter than centre + t, or all darker than centre - t.
bool is_fast_corner(const Pixels<vx_uint8>& in, int x, int y, int t) {
  static const int cx[16] = {0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1};
  static const int cy[16] = {-3, -3, -2, -1, 0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3};
  const int c = in.at(x, y);
  for (int start = 0; start < 16; ++start) {
    bool bright = true, dark = true;
    for (int k = 0; k < 9; ++k) {
      const int i = (start + k) % 16;
      const int v = in.at(x + cx[i], y + cy[i]);
      bright = bright && v > c + t;
      dark = dark && v < c - t;
    }
    if (bright || dark) return true;
  }
  return false;
}

struct Corner {
  int x, y, strength;
  bool operator==(const Corner&) const = default;
};

/// The reference corners in raster order: strength the largest threshold at which the pixel stays a
/// corner; non-maximum suppression over the strength image (0 off corners): >= the upper and left
/// neighbours, > the others.
std::vector<Corner> reference_fast(const Pixels<vx_uint8>& in, int t, bool nonmax) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  std::vector<int> strength(static_cast<std::size_t>(w) * h, 0);
  std::vector<bool> corner(strength.size(), false);
  for (int y = 3; y + 3 < h; ++y) {
    for (int x = 3; x + 3 < w; ++x) {
      if (!is_fast_corner(in, x, y, t)) continue;
      int s = t;
      while (s + 1 < 255 && is_fast_corner(in, x, y, s + 1)) ++s;
      strength[y * w + x] = s;
      corner[y * w + x] = true;
    }
  }
  std::vector<Corner> result;
  for (int y = 3; y + 3 < h; ++y) {
    for (int x = 3; x + 3 < w; ++x) {
      if (!corner[y * w + x]) continue;
      const int s = strength[y * w + x];
      auto at = [&](int dx, int dy) { return strength[(y + dy) * w + x + dx]; };
      if (nonmax && !(s >= at(-1, -1) && s >= at(0, -1) && s >= at(1, -1) && s >= at(-1, 0) && s > at(1, 0) && s > at(-1, 1) &&
                      s > at(0, 1) && s > at(1, 1))) {
        continue;
      }
      result.push_back({x, y, s});
    }
  }
  return result;
}

/// An image with structure for FAST: random bright and dark squares on a mid-grey noisy ground.
Pixels<vx_uint8> corner_image(vx_uint32 w, vx_uint32 h, std::mt19937& rng) {
  Pixels<vx_uint8> p = random_pixels<vx_uint8>(w, h, rng, 100, 140);
  std::uniform_int_distribution<int> px(0, static_cast<int>(w) - 1), py(0, static_cast<int>(h) - 1), side(2, 7), level(0, 255);
  for (int n = 0; n < 25; ++n) {
    const int x0 = px(rng), y0 = py(rng), s = side(rng);
    const auto v = static_cast<vx_uint8>(level(rng));
    for (int y = y0; y < std::min(y0 + s, static_cast<int>(h)); ++y) {
      for (int x = x0; x < std::min(x0 + s, static_cast<int>(w)); ++x) p.at(x, y) = v;
    }
  }
  return p;
}

std::vector<Corner> read_corners(vx_array array) {
  vx_size count = 0;
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_NUMITEMS, &count, sizeof count), VX_SUCCESS);
  std::vector<vx_keypoint_t> items(count);
  if (count > 0) {
    EXPECT_EQ(vxCopyArrayRange(array, 0, count, sizeof(vx_keypoint_t), items.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  std::vector<Corner> corners;
  for (const vx_keypoint_t& k : items) {
    EXPECT_EQ(k.tracking_status, 1);
    EXPECT_EQ(k.scale, 0.0f);
    corners.push_back({k.x, k.y, static_cast<int>(k.strength)});
    EXPECT_EQ(static_cast<float>(corners.back().strength), k.strength);
  }
  return corners;
}

TEST_F(OpenVx, FastCornersMatchTheReferenceCornerByCorner) {
  std::mt19937 rng(3);
  const vx_uint32 w = 41, h = 33;
  const Pixels<vx_uint8> in = corner_image(w, h, rng);
  for (const float threshold : {0.0f, 10.0f, 40.7f, 120.0f}) {
    for (const bool nonmax : {false, true}) {
      for (const bool immediate : {false, true}) {
        const std::vector<Corner> expected = reference_fast(in, static_cast<int>(threshold), nonmax);
        vx_image input = image_of(context_, in);
        vx_scalar thresh = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold);
        vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, w * h);
        vx_size found = 12345;
        vx_scalar num = vxCreateScalar(context_, VX_TYPE_SIZE, &found);
        const vx_bool nm = nonmax ? vx_true_e : vx_false_e;
        if (immediate) {
          EXPECT_EQ(vxuFastCorners(context_, input, thresh, nm, corners, num), VX_SUCCESS);
        } else {
          vx_graph graph = vxCreateGraph(context_);
          vx_node node = vxFastCornersNode(graph, input, thresh, nm, corners, num);
          EXPECT_EQ(status_of(node), VX_SUCCESS);
          EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
          EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
          EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);  // the array is refilled, not appended to
          EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
          EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
        }
        const std::string what = "threshold " + std::to_string(threshold) + (nonmax ? " nonmax" : "") + (immediate ? " vxu" : " graph");
        EXPECT_EQ(read_corners(corners), expected) << what;
        EXPECT_EQ(vxCopyScalar(num, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
        EXPECT_EQ(found, expected.size()) << what;
        if (threshold == 10.0f) {
          EXPECT_GT(expected.size(), 10u) << what << ": the image should have corners";
        }
        EXPECT_EQ(vxReleaseScalar(&num), VX_SUCCESS);
        EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
        EXPECT_EQ(vxReleaseScalar(&thresh), VX_SUCCESS);
        EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
      }
    }
  }
}

// Packed images take the vision library's function, others (here a handle whose pixels are 3 bytes apart)
// the kernel's own per-pixel walk: both give the reference's corners, for the same pixels.
TEST_F(OpenVx, FastCornersOnPackedAndStridedImagesAgree) {
  std::mt19937 rng(11);
  const vx_uint32 w = 83, h = 29;  // wider than a vector of every instruction set
  const Pixels<vx_uint8> in = corner_image(w, h, rng);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 3;
  addr.stride_y = static_cast<vx_int32>(w * 3 + 2);
  std::vector<vx_uint8> memory(static_cast<std::size_t>(addr.stride_y) * h, 0xEE);
  for (vx_uint32 y = 0; y < h; ++y)
    for (vx_uint32 x = 0; x < w; ++x) memory[static_cast<std::size_t>(y) * static_cast<std::size_t>(addr.stride_y) + 3 * x] = in.at(x, y);
  void* planes[] = {memory.data()};
  vx_image strided = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, planes, VX_MEMORY_TYPE_HOST);
  vx_image packed = image_of(context_, in);
  for (const float threshold : {0.0f, 10.0f, 60.0f}) {
    for (const bool nonmax : {false, true}) {
      const std::vector<Corner> expected = reference_fast(in, static_cast<int>(threshold), nonmax);
      vx_scalar thresh = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold);
      for (vx_image input : {packed, strided}) {
        vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, w * h);
        EXPECT_EQ(vxuFastCorners(context_, input, thresh, nonmax ? vx_true_e : vx_false_e, corners, nullptr), VX_SUCCESS);
        EXPECT_EQ(read_corners(corners), expected) << "threshold " << threshold << (nonmax ? " nonmax" : "")
                                                   << (input == packed ? " packed" : " strided");
        EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
      }
      EXPECT_EQ(vxReleaseScalar(&thresh), VX_SUCCESS);
    }
  }
  EXPECT_EQ(vxReleaseImage(&strided), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&packed), VX_SUCCESS);
}

TEST_F(OpenVx, FastCornersFillTheArrayToItsCapacityAndCountEveryCorner) {
  std::mt19937 rng(5);
  const Pixels<vx_uint8> in = corner_image(57, 45, rng);
  const std::vector<Corner> expected = reference_fast(in, 10, false);
  ASSERT_GT(expected.size(), 8u);
  vx_image input = image_of(context_, in);
  const vx_float32 threshold = 10.0f;
  vx_scalar thresh = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold);
  vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, 8);
  vx_size found = 0;
  vx_scalar num = vxCreateScalar(context_, VX_TYPE_SIZE, &found);
  EXPECT_EQ(vxuFastCorners(context_, input, thresh, vx_false_e, corners, num), VX_SUCCESS);
  EXPECT_EQ(read_corners(corners), std::vector<Corner>(expected.begin(), expected.begin() + 8));
  EXPECT_EQ(vxCopyScalar(num, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(found, expected.size());
  // num_corners is optional.
  EXPECT_EQ(vxuFastCorners(context_, input, thresh, vx_false_e, corners, nullptr), VX_SUCCESS);
  EXPECT_EQ(read_corners(corners).size(), 8u);
  EXPECT_EQ(vxReleaseScalar(&num), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&thresh), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

TEST_F(OpenVx, FastCornersIntoAVirtualArrayOfOpenTypeAndCapacity) {
  std::mt19937 rng(9);
  const Pixels<vx_uint8> in = corner_image(31, 27, rng);
  const std::vector<Corner> expected = reference_fast(in, 20, true);
  vx_image input = image_of(context_, in);
  const vx_float32 threshold = 20.0f;
  vx_scalar thresh = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold);
  vx_size found = 0;
  vx_scalar num = vxCreateScalar(context_, VX_TYPE_SIZE, &found);
  vx_graph graph = vxCreateGraph(context_);
  vx_array corners = vxCreateVirtualArray(graph, 0, 0);
  vx_node node = vxFastCornersNode(graph, input, thresh, vx_true_e, corners, num);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  vx_enum item_type = 0;
  EXPECT_EQ(vxQueryArray(corners, VX_ARRAY_ITEMTYPE, &item_type, sizeof item_type), VX_SUCCESS);
  EXPECT_EQ(item_type, VX_TYPE_KEYPOINT);
  EXPECT_EQ(vxCopyScalar(num, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(found, expected.size());
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&corners), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&num), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&thresh), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

TEST_F(OpenVx, FastCornersRefuseWrongFormatsTypesAndThresholds) {
  vx_image s16 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_S16);
  vx_image u8 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  const vx_float32 good = 10.0f, bad = 300.0f;
  const vx_int32 int_threshold = 10;
  vx_scalar thresh = vxCreateScalar(context_, VX_TYPE_FLOAT32, &good);
  vx_scalar too_big = vxCreateScalar(context_, VX_TYPE_FLOAT32, &bad);
  vx_scalar int_thresh = vxCreateScalar(context_, VX_TYPE_INT32, &int_threshold);
  vx_array keypoints = vxCreateArray(context_, VX_TYPE_KEYPOINT, 100);
  vx_array coordinates = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 100);
  const vx_uint32 count32 = 0;
  vx_scalar wrong_count = vxCreateScalar(context_, VX_TYPE_UINT32, &count32);
  EXPECT_EQ(vxuFastCorners(context_, s16, thresh, vx_true_e, keypoints, nullptr), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("only U8"));
  EXPECT_EQ(vxuFastCorners(context_, u8, too_big, vx_true_e, keypoints, nullptr), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuFastCorners(context_, u8, int_thresh, vx_true_e, keypoints, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuFastCorners(context_, u8, thresh, vx_true_e, coordinates, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuFastCorners(context_, u8, thresh, vx_true_e, keypoints, wrong_count), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuFastCorners(context_, u8, thresh, vx_true_e, keypoints, nullptr), VX_SUCCESS);
  for (vx_scalar* s : {&thresh, &too_big, &int_thresh, &wrong_count}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&keypoints), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&coordinates), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&s16), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&u8), VX_SUCCESS);
}

}  // namespace
