// The standard kernel CannyEdgeDetector: small images worked out by hand, then every gradient size, norm,
// border mode and output format against a plain reference written here (2-D Sobel windows, the
// direction from atan2, flood-fill hysteresis), the graph and immediate forms, the valid region, and the
// refusals of its validate.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
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
using vg_openvx_test::read_pixels;
using vg_openvx_test::sample;
using vg_openvx_test::status_of;
using vg_openvx_test::valid_region;

using U8 = Pixels<vx_uint8>;

// --- helpers ------------------------------------------------------------------------------------------------

/// A RANGE threshold for @p format (U8 or S16) input with @p lower and @p upper.
vx_threshold hysteresis(vx_context context, int lower, int upper, vx_df_image format = VX_DF_IMAGE_U8,
                        vx_enum type = VX_THRESHOLD_TYPE_RANGE) {
  vx_threshold t = vxCreateThresholdForImage(context, type, format, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(t), VX_SUCCESS);
  vx_pixel_value_t lo{}, hi{};
  if (format == VX_DF_IMAGE_S16) {
    lo.S16 = static_cast<vx_int16>(lower);
    hi.S16 = static_cast<vx_int16>(upper);
  } else {
    lo.U8 = static_cast<vx_uint8>(lower);
    hi.U8 = static_cast<vx_uint8>(upper);
  }
  if (type == VX_THRESHOLD_TYPE_RANGE) {
    EXPECT_EQ(vxCopyThresholdRange(t, &lo, &hi, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  return t;
}

/// A U1 image's pixels as 0 / 1 values.
U8 read_bits(vx_image image) {
  vx_uint32 width = 0, height = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
  const vx_uint32 row = (width + 7) / 8;
  std::vector<vx_uint8> buffer(static_cast<std::size_t>(row) * height, 0);
  const vx_rectangle_t all{0, 0, width, height};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = width;
  addr.dim_y = height;
  addr.stride_x = 0;
  addr.stride_x_bits = 1;
  addr.stride_y = static_cast<vx_int32>(row);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &addr, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  U8 bits(width, height);
  for (vx_uint32 y = 0; y < height; ++y) {
    for (vx_uint32 x = 0; x < width; ++x) bits.at(x, y) = static_cast<vx_uint8>((buffer[y * row + x / 8] >> (x % 8)) & 1);
  }
  return bits;
}

struct CannyCase {
  vx_int32 gradient_size = 3;
  vx_enum norm = VX_NORM_L1;
  vx_border_t border = border_of(VX_BORDER_UNDEFINED);
  vx_df_image output_format = VX_DF_IMAGE_U8;
};

/// Runs a Canny node on @p in with @p hyst; the output as 0 / 255 (a U1 output's bits scaled to 255).
U8 run_canny(vx_context context, const U8& in, vx_threshold hyst, const CannyCase& s, vx_status* status = nullptr,
             vx_rectangle_t* valid = nullptr) {
  vx_image input = image_of(context, in);
  vx_image output = vxCreateImage(context, in.width, in.height, s.output_format);
  vx_graph graph = vxCreateGraph(context);
  vx_node node = vxCannyEdgeDetectorNode(graph, input, hyst, s.gradient_size, s.norm, output);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &s.border, sizeof s.border), VX_SUCCESS);
  const vx_status st = vxProcessGraph(graph);
  if (status != nullptr) {
    *status = st;
  } else {
    EXPECT_EQ(st, VX_SUCCESS);
  }
  if (valid != nullptr) *valid = valid_region(output);
  U8 result = s.output_format == VX_DF_IMAGE_U1 ? read_bits(output) : read_pixels<vx_uint8>(output);
  if (s.output_format == VX_DF_IMAGE_U1) {
    for (vx_uint8& v : result.values) v = v != 0 ? 255 : 0;
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  return result;
}

// --- the reference ----------------------------------------------------------------------------------------

/// The specification's Sobel kernel of @p size as a full 2-D matrix: sobel_x[r][c] = binomial[r] * derivative[c].
std::vector<std::vector<int>> sobel_x(int size) {
  std::vector<int> binomial{1}, derivative;
  for (int n = 1; n < size; ++n) {  // binomial row of size entries: Pascal's triangle
    std::vector<int> next(binomial.size() + 1, 0);
    for (std::size_t i = 0; i < binomial.size(); ++i) {
      next[i] += binomial[i];
      next[i + 1] += binomial[i];
    }
    binomial = next;
  }
  // The derivative row is the binomial row of size - 2 convolved with [-1, 0, 1].
  std::vector<int> inner{1};
  for (int n = 1; n < size - 2; ++n) {
    std::vector<int> next(inner.size() + 1, 0);
    for (std::size_t i = 0; i < inner.size(); ++i) {
      next[i] += inner[i];
      next[i + 1] += inner[i];
    }
    inner = next;
  }
  derivative.assign(static_cast<std::size_t>(size), 0);
  for (std::size_t i = 0; i < inner.size(); ++i) {
    derivative[i] -= inner[i];
    derivative[i + 2] += inner[i];
  }
  std::vector<std::vector<int>> m(static_cast<std::size_t>(size), std::vector<int>(static_cast<std::size_t>(size)));
  for (int r = 0; r < size; ++r) {
    for (int c = 0; c < size; ++c) m[r][c] = binomial[r] * derivative[c];
  }
  return m;
}

/// Canny as the header comment of the kernel describes it, written the plain way. Returns 0 / 255.
U8 reference_canny(const U8& in, int lower, int upper, const CannyCase& s) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height), k = s.gradient_size, r = k / 2;
  const auto kx = sobel_x(k);
  std::vector<double> magnitude(static_cast<std::size_t>(w) * h);
  std::vector<int> sector(magnitude.size());  // 0, 45, 90, 135 degrees
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      long long dx = 0, dy = 0;
      for (int i = 0; i < k; ++i) {
        for (int j = 0; j < k; ++j) {
          const int p = sample(in, x + j - r, y + i - r, s.border);
          dx += static_cast<long long>(kx[i][j]) * p;
          dy += static_cast<long long>(kx[j][i]) * p;  // sobel_y is the transpose
        }
      }
      const double fx = static_cast<double>(dx), fy = static_cast<double>(dy);
      magnitude[y * w + x] = s.norm == VX_NORM_L1 ? std::fabs(fx) + std::fabs(fy) : std::sqrt(fx * fx + fy * fy);
      double angle = std::atan2(fy, fx) * 180.0 / std::numbers::pi;
      if (angle < 0) angle += 180.0;
      if (angle >= 180.0) angle -= 180.0;
      sector[y * w + x] = angle < 22.5 || angle >= 157.5 ? 0 : angle < 67.5 ? 45 : angle < 112.5 ? 90 : 135;
    }
  }
  const int frame = s.border.mode == VX_BORDER_UNDEFINED ? r + 1 : 0;
  auto mag = [&](int x, int y) { return x < 0 || y < 0 || x >= w || y >= h ? 0.0 : magnitude[y * w + x]; };
  // 0 none, 1 candidate, 2 edge
  std::vector<int> state(magnitude.size(), 0);
  for (int y = frame; y < h - frame; ++y) {
    for (int x = frame; x < w - frame; ++x) {
      const double m = mag(x, y);
      if (!(m > lower)) continue;
      bool keep = false;
      switch (sector[y * w + x]) {
        case 0: keep = m > mag(x - 1, y) && m >= mag(x + 1, y); break;
        case 90: keep = m > mag(x, y - 1) && m >= mag(x, y + 1); break;
        case 45: keep = m > mag(x - 1, y - 1) && m > mag(x + 1, y + 1); break;  // gradient down-right (y grows downwards)
        default: keep = m > mag(x + 1, y - 1) && m > mag(x - 1, y + 1); break;
      }
      if (keep) state[y * w + x] = m > upper ? 2 : 1;
    }
  }
  // Hysteresis by sweeping until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (state[y * w + x] != 1) continue;
        for (int dy = -1; dy <= 1 && state[y * w + x] == 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = x + dx, yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= w || yy >= h || state[yy * w + xx] != 2) continue;
            state[y * w + x] = 2;
            changed = true;
            break;
          }
        }
      }
    }
  }
  U8 out(in.width, in.height);
  for (std::size_t i = 0; i < state.size(); ++i) out.values[i] = state[i] == 2 ? 255 : 0;
  return out;
}

/// Smooth random content (random values blurred with a box a few times), so the edges form lines.
U8 smooth_random(vx_uint32 w, vx_uint32 h, std::mt19937& rng) {
  U8 p = vg_openvx_test::random_pixels<vx_uint8>(w, h, rng);
  for (int pass = 0; pass < 2; ++pass) {
    U8 next(w, h);
    const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
    for (int y = 0; y < static_cast<int>(h); ++y) {
      for (int x = 0; x < static_cast<int>(w); ++x) {
        int sum = 0;
        for (int i = -1; i <= 1; ++i) {
          for (int j = -1; j <= 1; ++j) sum += sample(p, x + j, y + i, replicate);
        }
        next.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y)) = static_cast<vx_uint8>(sum / 9);
      }
    }
    p = next;
  }
  return p;
}

/// A width x height image: @p left where x < @p step, @p right from there on.
U8 vertical_step(vx_uint32 w, vx_uint32 h, vx_uint32 step, vx_uint8 left, vx_uint8 right) {
  U8 p(w, h);
  for (vx_uint32 y = 0; y < h; ++y) {
    for (vx_uint32 x = 0; x < w; ++x) p.at(x, y) = x < step ? left : right;
  }
  return p;
}

U8 transposed(const U8& p) {
  U8 t(p.height, p.width);
  for (vx_uint32 y = 0; y < p.height; ++y) {
    for (vx_uint32 x = 0; x < p.width; ++x) t.at(y, x) = p.at(x, y);
  }
  return t;
}

// --- worked by hand ---------------------------------------------------------------------------------------

// A step of 200 between columns 5 and 6: with the 3x3 Sobel both columns have dx = 4 * 200 = 800 and
// dy = 0; column 5 beats its left neighbour (0) and equals its right one, so it stays; column 6 does not
// beat column 5. The edge is column 5, on every row with REPLICATE, inside the 2-pixel frame with UNDEFINED.
TEST_F(OpenVx, CannyVerticalStepMarksTheColumnBeforeTheStep) {
  const U8 in = vertical_step(12, 10, 6, 0, 200);
  vx_threshold hyst = hysteresis(context_, 50, 100);
  for (vx_enum mode : {VX_BORDER_REPLICATE, VX_BORDER_UNDEFINED}) {
    CannyCase s;
    s.border = border_of(mode);
    const U8 out = run_canny(context_, in, hyst, s);
    U8 expected(12, 10);
    const vx_uint32 frame = mode == VX_BORDER_UNDEFINED ? 2 : 0;
    for (vx_uint32 y = frame; y + frame < 10; ++y) expected.at(5, y) = 255;
    expect_pixels_eq(out, expected, border_name(s.border));
  }
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// The same step on its side: the edge is row 5 (dy = 800, the vertical direction).
TEST_F(OpenVx, CannyHorizontalStepMarksTheRowBeforeTheStep) {
  const U8 in = transposed(vertical_step(12, 10, 6, 0, 200));
  vx_threshold hyst = hysteresis(context_, 50, 100);
  CannyCase s;
  s.border = border_of(VX_BORDER_REPLICATE);
  s.norm = VX_NORM_L2;
  const U8 out = run_canny(context_, in, hyst, s);
  U8 expected(10, 12);
  for (vx_uint32 x = 0; x < 10; ++x) expected.at(x, 5) = 255;
  expect_pixels_eq(out, expected, "L2");
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// A step of 20 gives magnitude 80: above the lower threshold 50, so a candidate, but an edge only when the
// upper threshold is below 80 (nothing else can make it one: it touches no edge).
TEST_F(OpenVx, CannyWeakEdgeAloneIsNoEdge) {
  const U8 in = vertical_step(12, 10, 6, 100, 120);
  CannyCase s;
  s.border = border_of(VX_BORDER_REPLICATE);
  vx_threshold strict = hysteresis(context_, 50, 100);
  EXPECT_EQ(run_canny(context_, in, strict, s).values, U8(12, 10).values);
  vx_threshold lenient = hysteresis(context_, 50, 79);
  const U8 out = run_canny(context_, in, lenient, s);
  for (vx_uint32 y = 0; y < 10; ++y) EXPECT_EQ(out.at(5, y), 255) << y;
  vx_threshold too_high = hysteresis(context_, 80, 90);  // m > lower fails at m = lower
  EXPECT_EQ(run_canny(context_, in, too_high, s).values, U8(12, 10).values);
  EXPECT_EQ(vxReleaseThreshold(&strict), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&lenient), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&too_high), VX_SUCCESS);
}

// A step whose upper half has contrast 200 (magnitude 800: strong) and lower half contrast 20 (80: weak):
// the weak part is connected to the strong part, so hysteresis makes the whole column an edge. The rows
// where the contrast changes have a dy too; the reference settles those.
TEST_F(OpenVx, CannyHysteresisFollowsAWeakEdgeFromAStrongOne) {
  U8 in(12, 16);
  for (vx_uint32 y = 0; y < 16; ++y) {
    for (vx_uint32 x = 0; x < 12; ++x) in.at(x, y) = x < 6 ? 100 : (y < 8 ? 255 : 120);
  }
  CannyCase s;
  s.border = border_of(VX_BORDER_REPLICATE);
  vx_threshold hyst = hysteresis(context_, 50, 100);
  const U8 out = run_canny(context_, in, hyst, s);
  expect_pixels_eq(out, reference_canny(in, 50, 100, s), "against the reference");
  for (vx_uint32 y = 12; y < 16; ++y) EXPECT_EQ(out.at(5, y), 255) << "weak row " << y;
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// --- against the reference ----------------------------------------------------------------------------------

/// Thresholds near the 70th and 90th percentiles of the magnitudes, clamped to what an S16 threshold holds.
void pick_thresholds(const U8& in, const CannyCase& s, int& lower, int& upper) {
  CannyCase probe = s;
  std::vector<double> m;
  const auto kx = sobel_x(s.gradient_size);
  const int r = s.gradient_size / 2;
  for (int y = 0; y < static_cast<int>(in.height); ++y) {
    for (int x = 0; x < static_cast<int>(in.width); ++x) {
      double dx = 0, dy = 0;
      for (int i = 0; i < s.gradient_size; ++i) {
        for (int j = 0; j < s.gradient_size; ++j) {
          const int p = sample(in, x + j - r, y + i - r, probe.border);
          dx += kx[i][j] * p;
          dy += kx[j][i] * p;
        }
      }
      m.push_back(s.norm == VX_NORM_L1 ? std::fabs(dx) + std::fabs(dy) : std::sqrt(dx * dx + dy * dy));
    }
  }
  std::sort(m.begin(), m.end());
  lower = static_cast<int>(std::min(32000.0, m[m.size() * 7 / 10]));
  upper = static_cast<int>(std::min(32767.0, m[m.size() * 9 / 10]));
  if (upper <= lower) upper = lower + 1;
}

TEST_F(OpenVx, CannyMatchesTheReferenceForEverySizeNormBorderAndFormat) {
  std::mt19937 rng(7);
  const U8 in = smooth_random(37, 29, rng);
  for (vx_int32 size : {3, 5, 7}) {
    for (vx_enum norm : {VX_NORM_L1, VX_NORM_L2}) {
      for (const vx_border_t& border : {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                        border_of(VX_BORDER_CONSTANT, 200)}) {
        for (vx_df_image format : {VX_DF_IMAGE_U8, VX_DF_IMAGE_U1}) {
          CannyCase s{size, norm, border, format};
          int lower = 0, upper = 0;
          pick_thresholds(in, s, lower, upper);
          const vx_df_image threshold_format = upper > 255 ? VX_DF_IMAGE_S16 : VX_DF_IMAGE_U8;
          vx_threshold hyst = hysteresis(context_, lower, upper, threshold_format);
          const std::string what = std::to_string(size) + (norm == VX_NORM_L1 ? " L1 " : " L2 ") + border_name(border) +
                                   (format == VX_DF_IMAGE_U1 ? " U1" : " U8") + " thresholds " + std::to_string(lower) + ".." +
                                   std::to_string(upper);
          const U8 out = run_canny(context_, in, hyst, s);
          const U8 expected = reference_canny(in, lower, upper, s);
          expect_pixels_eq(out, expected, what);
          EXPECT_GT(std::count(expected.values.begin(), expected.values.end(), 255), 10) << what << ": the case finds edges";
          EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
        }
      }
    }
  }
}

// A larger image, where hysteresis runs long chains (the tracing stack and map grow with the image).
TEST_F(OpenVx, CannyMatchesTheReferenceOnALargerImageWithLowThresholds) {
  std::mt19937 rng(11);
  const U8 in = smooth_random(160, 120, rng);
  CannyCase s;
  s.norm = VX_NORM_L2;
  vx_threshold hyst = hysteresis(context_, 5, 60);
  expect_pixels_eq(run_canny(context_, in, hyst, s), reference_canny(in, 5, 60, s), "160x120");
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// A negative lower threshold (S16) lets every local maximum be a candidate; a magnitude of 0 never is one
// (it cannot beat its neighbour).
TEST_F(OpenVx, CannyTakesANegativeLowerThreshold) {
  std::mt19937 rng(3);
  const U8 in = smooth_random(21, 19, rng);
  CannyCase s;
  s.border = border_of(VX_BORDER_REPLICATE);
  vx_threshold hyst = hysteresis(context_, -5, 150, VX_DF_IMAGE_S16);
  expect_pixels_eq(run_canny(context_, in, hyst, s), reference_canny(in, -5, 150, s), "lower -5");
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

TEST_F(OpenVx, CannyImmediateMatchesTheGraphAndUsesTheImmediateBorder) {
  std::mt19937 rng(5);
  const U8 in = smooth_random(30, 22, rng);
  vx_threshold hyst = hysteresis(context_, 40, 120);
  for (vx_enum mode : {VX_BORDER_UNDEFINED, VX_BORDER_REPLICATE}) {
    const vx_border_t border = border_of(mode);
    ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
    vx_image input = image_of(context_, in);
    vx_image output = vxCreateImage(context_, in.width, in.height, VX_DF_IMAGE_U8);
    ASSERT_EQ(vxuCannyEdgeDetector(context_, input, hyst, 5, VX_NORM_L1, output), VX_SUCCESS);
    CannyCase s;
    s.gradient_size = 5;
    s.border = border;
    expect_pixels_eq(read_pixels<vx_uint8>(output), reference_canny(in, 40, 120, s), "vxu " + border_name(border));
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// Images from handles with gaps between pixels (stride_x 3): the input is read and the output written
// through the node's staging planes, with the same answer as packed images, and the gaps stay untouched.
TEST_F(OpenVx, CannyReadsAndWritesImagesWithGapsBetweenPixels) {
  std::mt19937 rng(13);
  const vx_uint32 w = 37, h = 29;
  const U8 in = smooth_random(w, h, rng);
  const vx_int32 stride_y = static_cast<vx_int32>(w * 3 + 5);
  std::vector<vx_uint8> in_memory(static_cast<std::size_t>(stride_y) * h, 0xEE), out_memory(in_memory.size(), 0xEE);
  for (vx_uint32 y = 0; y < h; ++y) {
    for (vx_uint32 x = 0; x < w; ++x) in_memory[static_cast<std::size_t>(y) * stride_y + 3 * x] = in.at(x, y);
  }
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 3;
  addr.stride_y = stride_y;
  void* in_planes[] = {in_memory.data()};
  void* out_planes[] = {out_memory.data()};
  vx_image input = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, in_planes, VX_MEMORY_TYPE_HOST);
  vx_image output = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, out_planes, VX_MEMORY_TYPE_HOST);
  vx_threshold hyst = hysteresis(context_, 40, 120);
  const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxuCannyEdgeDetector(context_, input, hyst, 3, VX_NORM_L1, output), VX_SUCCESS);
  CannyCase s;
  s.border = replicate;
  expect_pixels_eq(read_pixels<vx_uint8>(output), reference_canny(in, 40, 120, s), "handles with stride_x 3");
  for (vx_uint32 y = 0; y < h; ++y) {
    EXPECT_EQ(out_memory[static_cast<std::size_t>(y) * stride_y + 1], 0xEE);
    EXPECT_EQ(out_memory[static_cast<std::size_t>(y) * stride_y + 3 * w], 0xEE);
  }
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// The working memory is set up once: a graph run twice, with new thresholds in between, gives each
// run's answer.
TEST_F(OpenVx, CannyGraphRunsAgainWithNewThresholds) {
  std::mt19937 rng(9);
  const U8 in = smooth_random(25, 20, rng);
  vx_threshold hyst = hysteresis(context_, 30, 90);
  vx_image input = image_of(context_, in);
  vx_image output = vxCreateImage(context_, in.width, in.height, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxCannyEdgeDetectorNode(graph, input, hyst, 3, VX_NORM_L2, output);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  CannyCase s;
  s.norm = VX_NORM_L2;
  expect_pixels_eq(read_pixels<vx_uint8>(output), reference_canny(in, 30, 90, s), "first run");
  vx_pixel_value_t lo{}, hi{};
  lo.U8 = 60;
  hi.U8 = 200;
  ASSERT_EQ(vxCopyThresholdRange(hyst, &lo, &hi, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(output), reference_canny(in, 60, 200, s), "second run");
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// Images too small for any pixel outside the UNDEFINED frame come out empty; tiny ones under REPLICATE
// still match the reference.
TEST_F(OpenVx, CannyOnTinyImages) {
  std::mt19937 rng(1);
  vx_threshold hyst = hysteresis(context_, 10, 30);
  for (vx_uint32 w : {1u, 2u, 5u}) {
    for (vx_uint32 h : {1u, 3u, 6u}) {
      const U8 in = vg_openvx_test::random_pixels<vx_uint8>(w, h, rng);
      for (vx_enum mode : {VX_BORDER_UNDEFINED, VX_BORDER_REPLICATE}) {
        CannyCase s;
        s.gradient_size = 5;
        s.border = border_of(mode);
        expect_pixels_eq(run_canny(context_, in, hyst, s), reference_canny(in, 10, 30, s),
                         std::to_string(w) + "x" + std::to_string(h) + " " + border_name(s.border));
      }
    }
  }
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

TEST_F(OpenVx, CannyValidRegionShrinksByTheFrameUnderUndefinedOnly) {
  const U8 in = vertical_step(20, 16, 9, 0, 100);
  vx_threshold hyst = hysteresis(context_, 50, 100);
  for (vx_int32 size : {3, 5, 7}) {
    CannyCase s;
    s.gradient_size = size;
    vx_rectangle_t valid{};
    (void)run_canny(context_, in, hyst, s, nullptr, &valid);
    const vx_uint32 frame = static_cast<vx_uint32>(size / 2 + 1);
    expect_rect(valid, frame, frame, 20 - frame, 16 - frame, "UNDEFINED " + std::to_string(size));
    s.border = border_of(VX_BORDER_REPLICATE);
    (void)run_canny(context_, in, hyst, s, nullptr, &valid);
    expect_rect(valid, 0, 0, 20, 16, "REPLICATE " + std::to_string(size));
  }
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
}

// --- refusals ---------------------------------------------------------------------------------------------

/// vxVerifyGraph's status for a Canny node with these arguments (all objects released afterwards).
vx_status verify_canny(vx_context context, vx_df_image input_format, vx_threshold hyst, vx_int32 size, vx_enum norm, vx_df_image output_format,
                       vx_uint32 output_width = 16) {
  vx_image input = vxCreateImage(context, 16, 12, input_format);
  vx_image output = vxCreateImage(context, output_width, 12, output_format);
  vx_graph graph = vxCreateGraph(context);
  vx_node node = vxCannyEdgeDetectorNode(graph, input, hyst, size, norm, output);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  const vx_status status = vxVerifyGraph(graph);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  return status;
}

TEST_F(OpenVx, CannyValidateRefusesWrongFormatsThresholdsAndValues) {
  vx_threshold range = hysteresis(context_, 10, 20);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 3, VX_NORM_L1, VX_DF_IMAGE_U8), VX_SUCCESS);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 7, VX_NORM_L2, VX_DF_IMAGE_U1), VX_SUCCESS);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_S16, range, 3, VX_NORM_L1, VX_DF_IMAGE_U8), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("input has format S16"));
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 3, VX_NORM_L1, VX_DF_IMAGE_S16), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 3, VX_NORM_L1, VX_DF_IMAGE_U8, 15), VX_ERROR_INVALID_PARAMETERS);
  for (vx_int32 size : {0, 1, 4, 9, -3}) {
    EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, size, VX_NORM_L1, VX_DF_IMAGE_U8), VX_ERROR_INVALID_VALUE) << size;
  }
  EXPECT_TRUE(logged("gradient_size is 4"));
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 3, VX_NORM_L1 + 7, VX_DF_IMAGE_U8), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, range, 3, VX_BORDER_CONSTANT, VX_DF_IMAGE_U8), VX_ERROR_INVALID_VALUE);
  vx_threshold binary = hysteresis(context_, 10, 20, VX_DF_IMAGE_U8, VX_THRESHOLD_TYPE_BINARY);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, binary, 3, VX_NORM_L1, VX_DF_IMAGE_U8), VX_ERROR_INVALID_TYPE);
  vx_threshold wide = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_S32, VX_DF_IMAGE_U8);
  ASSERT_EQ(status_of(wide), VX_SUCCESS);
  EXPECT_EQ(verify_canny(context_, VX_DF_IMAGE_U8, wide, 3, VX_NORM_L1, VX_DF_IMAGE_U8), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("hyst is for S32 input"));
  EXPECT_EQ(vxReleaseThreshold(&range), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&binary), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&wide), VX_SUCCESS);
}

// Through a generic node, the scalars can be of the wrong type or missing.
TEST_F(OpenVx, CannyValidateRefusesScalarsOfTheWrongType) {
  vx_kernel kernel = vxGetKernelByEnum(context_, VX_KERNEL_CANNY_EDGE_DETECTOR);
  ASSERT_EQ(status_of(kernel), VX_SUCCESS);
  vx_image input = vxCreateImage(context_, 16, 12, VX_DF_IMAGE_U8);
  vx_image output = vxCreateImage(context_, 16, 12, VX_DF_IMAGE_U8);
  vx_threshold hyst = hysteresis(context_, 10, 20);
  const vx_uint32 size_u32 = 3;
  const vx_int32 size_i32 = 3;
  const vx_enum l1 = VX_NORM_L1;
  vx_scalar wrong_size = vxCreateScalar(context_, VX_TYPE_UINT32, &size_u32);
  vx_scalar size = vxCreateScalar(context_, VX_TYPE_INT32, &size_i32);
  vx_scalar norm_as_int = vxCreateScalar(context_, VX_TYPE_INT32, &size_i32);
  vx_scalar norm = vxCreateScalar(context_, VX_TYPE_ENUM, &l1);
  struct Case {
    vx_reference size, norm, hyst;
    vx_status expected;
  };
  const Case cases[] = {
      {ref(size), ref(norm), ref(hyst), VX_SUCCESS},
      {ref(wrong_size), ref(norm), ref(hyst), VX_ERROR_INVALID_TYPE},
      {ref(size), ref(norm_as_int), ref(hyst), VX_ERROR_INVALID_TYPE},
  };
  for (const Case& c : cases) {
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxCreateGenericNode(graph, kernel);
    ASSERT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(input)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 1, c.hyst), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 2, c.size), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 3, c.norm), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 4, ref(output)), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), c.expected);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  EXPECT_TRUE(logged("gradient_size is a scalar of type"));
  for (vx_scalar* s : {&wrong_size, &size, &norm_as_int, &norm}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
}

}  // namespace
