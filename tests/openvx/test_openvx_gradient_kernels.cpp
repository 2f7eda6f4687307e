// The gradient standard kernels: results exact to the specification, formats refused with a reason, in
// graphs and in immediate mode.
//
// Sobel3x3 (the specification's Gx, Gy applied as printed), Magnitude (round(sqrt(x^2 + y^2)) saturated to
// 32767, computed here in integers), Phase (the conformance reference's quantisation of atan2 to 0..255) and
// Convolve (the matrix applied flipped, sum / scale truncated towards zero, saturated to U8 or S16) against
// plain reference loops, on random and edge-valued images of odd and degenerate sizes, under each border
// mode; valid regions; handles with gaps; virtual outputs of open format and size; and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::border_name;
using vg_openvx_test::border_of;
using vg_openvx_test::expect_pixels_eq;
using vg_openvx_test::expect_rect;
using vg_openvx_test::format_of;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::sample;
using vg_openvx_test::status_of;
using vg_openvx_test::valid_region;
using vg_openvx_test::write_pixels;

using U8 = Pixels<vx_uint8>;
using S16 = Pixels<vx_int16>;

U8 random_u8(vx_uint32 width, vx_uint32 height, std::mt19937& rng, bool edges = false) {
  U8 p(width, height);
  std::uniform_int_distribution<int> dist(0, 255);
  constexpr vx_uint8 kEdges[] = {0, 255, 0, 255, 1, 254};
  std::uniform_int_distribution<int> pick(0, 5);
  for (vx_uint8& v : p.values) v = edges ? kEdges[pick(rng)] : static_cast<vx_uint8>(dist(rng));
  return p;
}

/// Random S16 values with the extremes and their neighbours mixed in.
S16 random_s16(vx_uint32 width, vx_uint32 height, std::mt19937& rng) {
  S16 p(width, height);
  std::uniform_int_distribution<int> dist(-32768, 32767);
  constexpr vx_int16 kEdges[] = {-32768, -32767, -1, 0, 1, 32766, 32767};
  std::uniform_int_distribution<int> pick(0, 9);
  for (vx_int16& v : p.values) {
    const int k = pick(rng);
    v = k < 7 ? kEdges[k] : static_cast<vx_int16>(dist(rng));
  }
  return p;
}

const vx_border_t kBorders[] = {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                border_of(VX_BORDER_CONSTANT, 255), border_of(VX_BORDER_CONSTANT, 77)};

// --- references -----------------------------------------------------------------------------------------

/// Sobel: the specification's matrices, applied as printed (row r, column c weighs in(x + c - 1, y + r - 1)).
void sobel_reference(const U8& in, const vx_border_t& border, S16& gx, S16& gy) {
  constexpr int kGx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
  constexpr int kGy[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};
  gx = S16(in.width, in.height);
  gy = S16(in.width, in.height);
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      int sx = 0, sy = 0;
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
          const int v = sample(in, static_cast<int>(x) + c - 1, static_cast<int>(y) + r - 1, border);
          sx += kGx[r][c] * v;
          sy += kGy[r][c] * v;
        }
      }
      gx.at(x, y) = static_cast<vx_int16>(sx);
      gy.at(x, y) = static_cast<vx_int16>(sy);
    }
  }
}

/// round-half-up(sqrt(x^2 + y^2)) in integers: the largest z with (2z - 1)^2 <= 4 (x^2 + y^2), saturated.
vx_int16 magnitude_reference(int x, int y) {
  const std::int64_t s4 = 4 * (std::int64_t{x} * x + std::int64_t{y} * y);
  std::int64_t z = 0;
  while ((2 * (z + 1) - 1) * (2 * (z + 1) - 1) <= s4) ++z;
  return static_cast<vx_int16>(z > 32767 ? 32767 : z);
}

constexpr double kPi = 3.14159265358979323846;

/// The conformance reference's quantisation: 256 steps per turn, rounded half up, 256 wrapping to 0.
vx_uint8 phase_reference(int x, int y) {
  double v = std::atan2(static_cast<double>(y), static_cast<double>(x)) * 256 / (kPi * 2);
  if (v < 0) v += 256.;
  int q = static_cast<int>(std::floor(v + 0.5));
  if (q >= 256) q -= 256;
  return static_cast<vx_uint8>(q);
}

/// Convolve as the specification writes it: sum over k < columns, l < rows of
/// input(x + columns/2 - k, y + rows/2 - l) * C(row l, column k); sum / scale truncated; saturated.
template <typename Out>
Pixels<Out> convolve_reference(const U8& in, const vx_border_t& border, const std::vector<vx_int16>& c, int columns, int rows,
                              vx_uint32 scale) {
  Pixels<Out> out(in.width, in.height);
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      std::int64_t sum = 0;
      for (int l = 0; l < rows; ++l) {
        for (int k = 0; k < columns; ++k) {
          sum += std::int64_t{c[static_cast<std::size_t>(l * columns + k)]} *
                 sample(in, static_cast<int>(x) + columns / 2 - k, static_cast<int>(y) + rows / 2 - l, border);
        }
      }
      std::int64_t v = sum / static_cast<std::int64_t>(scale);  // C division: towards zero
      const std::int64_t lo = sizeof(Out) == 1 ? 0 : -32768, hi = sizeof(Out) == 1 ? 255 : 32767;
      v = v < lo ? lo : v > hi ? hi : v;
      out.at(x, y) = static_cast<Out>(v);
    }
  }
  return out;
}

vx_convolution convolution_of(vx_context context, const std::vector<vx_int16>& c, int columns, int rows, vx_uint32 scale) {
  vx_convolution conv = vxCreateConvolution(context, static_cast<vx_size>(columns), static_cast<vx_size>(rows));
  EXPECT_EQ(status_of(conv), VX_SUCCESS);
  EXPECT_EQ(vxCopyConvolutionCoefficients(conv, const_cast<vx_int16*>(c.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxSetConvolutionAttribute(conv, VX_CONVOLUTION_SCALE, &scale, sizeof scale), VX_SUCCESS);
  return conv;
}

std::vector<vx_int16> random_coefficients(int n, std::mt19937& rng, int lo, int hi) {
  std::vector<vx_int16> c(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> dist(lo, hi);
  for (vx_int16& v : c) v = static_cast<vx_int16>(dist(rng));
  return c;
}

struct Size {
  vx_uint32 width, height;
};
constexpr Size kSizes[] = {{37, 13}, {1, 1}, {2, 2}, {3, 1}, {1, 3}, {3, 3}, {4, 5}, {65, 3}};

// --- Sobel3x3 -------------------------------------------------------------------------------------------

TEST_F(OpenVx, SobelMatchesTheReferenceInGraphsUnderEveryBorderMode) {
  std::mt19937 rng(1127);
  for (const Size& size : kSizes) {
    for (int kind = 0; kind < 2; ++kind) {
      const U8 in = random_u8(size.width, size.height, rng, kind == 1);
      vx_image input = image_of(context_, in);
      for (const vx_border_t& border : kBorders) {
        // Three nodes: both outputs, x only, y only.
        vx_graph graph = vxCreateGraph(context_);
        vx_image gx = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
        vx_image gy = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
        vx_image only_x = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
        vx_image only_y = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
        vx_node nodes[3] = {vxSobel3x3Node(graph, input, gx, gy), vxSobel3x3Node(graph, input, only_x, nullptr),
                            vxSobel3x3Node(graph, input, nullptr, only_y)};
        for (vx_node& n : nodes) {
          ASSERT_EQ(status_of(n), VX_SUCCESS);
          ASSERT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
          EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
        }
        ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
        ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
        const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height) + (kind == 0 ? " random " : " edges ") +
                                 border_name(border);
        S16 ex, ey;
        // UNDEFINED: the specification defines the interior only; this library's frame is REPLICATE's.
        sobel_reference(in, border.mode == VX_BORDER_UNDEFINED ? border_of(VX_BORDER_REPLICATE) : border, ex, ey);
        expect_pixels_eq(read_pixels<vx_int16>(gx), ex, "Sobel x " + what);
        expect_pixels_eq(read_pixels<vx_int16>(gy), ey, "Sobel y " + what);
        expect_pixels_eq(read_pixels<vx_int16>(only_x), ex, "Sobel x alone " + what);
        expect_pixels_eq(read_pixels<vx_int16>(only_y), ey, "Sobel y alone " + what);
        if (border.mode == VX_BORDER_UNDEFINED && size.width == 37) {
          expect_rect(valid_region(gx), 1, 1, 36, 12, "Sobel x UNDEFINED valid region");
          expect_rect(valid_region(only_y), 1, 1, 36, 12, "Sobel y UNDEFINED valid region");
        } else if (size.width == 37) {
          expect_rect(valid_region(gy), 0, 0, 37, 13, "Sobel " + border_name(border) + " valid region");
        }
        EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
        for (vx_image* i : {&gx, &gy, &only_x, &only_y}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
      }
      EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    }
  }
}

TEST_F(OpenVx, SobelSignsAndExtremes) {
  // A vertical step from 0 to 255 (bright on the right): Gx = 4 * 255 on the step, Gy = 0. A horizontal
  // step (bright below): Gy = 4 * 255. The opposite steps give -1020.
  U8 right(6, 5), below(6, 5);
  for (vx_uint32 y = 0; y < 5; ++y) {
    for (vx_uint32 x = 0; x < 6; ++x) {
      right.at(x, y) = x >= 3 ? 255 : 0;
      below.at(x, y) = y >= 3 ? 255 : 0;
    }
  }
  vx_image a = image_of(context_, right), b = image_of(context_, below);
  vx_image gx = vxCreateImage(context_, 6, 5, VX_DF_IMAGE_S16), gy = vxCreateImage(context_, 6, 5, VX_DF_IMAGE_S16);
  ASSERT_EQ(vxuSobel3x3(context_, a, gx, gy), VX_SUCCESS);
  S16 x = read_pixels<vx_int16>(gx), y = read_pixels<vx_int16>(gy);
  EXPECT_EQ(x.at(2, 2), 1020);
  EXPECT_EQ(x.at(3, 2), 1020);
  EXPECT_EQ(x.at(1, 2), 0);
  EXPECT_EQ(y.at(2, 2), 0);
  ASSERT_EQ(vxuSobel3x3(context_, b, gx, gy), VX_SUCCESS);
  x = read_pixels<vx_int16>(gx);
  y = read_pixels<vx_int16>(gy);
  EXPECT_EQ(y.at(2, 2), 1020);
  EXPECT_EQ(y.at(2, 3), 1020);
  EXPECT_EQ(x.at(2, 2), 0);
  for (vx_uint8& v : right.values) v = static_cast<vx_uint8>(255 - v);
  write_pixels(a, right);
  ASSERT_EQ(vxuSobel3x3(context_, a, gx, nullptr), VX_SUCCESS);
  EXPECT_EQ(read_pixels<vx_int16>(gx).at(3, 1), -1020);
  for (vx_image* i : {&a, &b, &gx, &gy}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- Magnitude and Phase --------------------------------------------------------------------------------

TEST_F(OpenVx, MagnitudeAndPhaseMatchTheReferenceInGraphsAndImmediateMode) {
  std::mt19937 rng(77);
  for (const Size& size : {Size{37, 13}, Size{1, 1}, Size{3, 1}, Size{65, 3}}) {
    S16 x = random_s16(size.width, size.height, rng), y = random_s16(size.width, size.height, rng);
    vx_image gx = image_of(context_, x), gy = image_of(context_, y);
    vx_image mag = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
    vx_image phase = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
    S16 expected_mag(size.width, size.height);
    U8 expected_phase(size.width, size.height);
    for (std::size_t i = 0; i < x.values.size(); ++i) {
      expected_mag.values[i] = magnitude_reference(x.values[i], y.values[i]);
      expected_phase.values[i] = phase_reference(x.values[i], y.values[i]);
    }
    const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height);
    vx_graph graph = vxCreateGraph(context_);
    vx_node n1 = vxMagnitudeNode(graph, gx, gy, mag), n2 = vxPhaseNode(graph, gx, gy, phase);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_int16>(mag), expected_mag, "Magnitude graph " + what);
    expect_pixels_eq(read_pixels<vx_uint8>(phase), expected_phase, "Phase graph " + what);
    // Immediate mode, the outputs cleared first.
    write_pixels(mag, S16(size.width, size.height));
    write_pixels(phase, U8(size.width, size.height));
    ASSERT_EQ(vxuMagnitude(context_, gx, gy, mag), VX_SUCCESS);
    ASSERT_EQ(vxuPhase(context_, gx, gy, phase), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_int16>(mag), expected_mag, "vxuMagnitude " + what);
    expect_pixels_eq(read_pixels<vx_uint8>(phase), expected_phase, "vxuPhase " + what);
    for (vx_node* n : {&n1, &n2}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    for (vx_image* i : {&gx, &gy, &mag, &phase}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, MagnitudeAndPhaseEdgeValues) {
  struct Case {
    vx_int16 x, y;
    vx_int16 mag;
    vx_uint8 phase;
  };
  // Magnitude: rounding half up (1.414 -> 1, 2.236 -> 2, 3.606 -> 4), saturation at 32767 (sqrt(2^31) =
  // 46341). Phase: 64 steps per quarter turn, y downwards positive; just below a full turn wraps to 0.
  const Case cases[] = {
      {0, 0, 0, 0},          {1, 0, 1, 0},         {0, 1, 1, 64},          {-1, 0, 1, 128},         {0, -1, 1, 192},
      {1, 1, 1, 32},         {-1, 1, 1, 96},       {-1, -1, 1, 160},       {1, -1, 1, 224},         {3, 4, 5, 38},
      {1, 2, 2, 45},         {2, 3, 4, 40},        {-32768, 0, 32767, 128}, {32767, 0, 32767, 0},   {-32768, -32768, 32767, 160},
      {32767, 32767, 32767, 32}, {32767, -1, 32767, 0}, {-32768, -1, 32767, 128}, {23170, 23170, 32767, 32}, {23169, 23169, 32766, 32},
  };
  const vx_uint32 n = static_cast<vx_uint32>(std::size(cases));
  S16 x(n, 1), y(n, 1);
  for (vx_uint32 i = 0; i < n; ++i) {
    x.at(i, 0) = cases[i].x;
    y.at(i, 0) = cases[i].y;
  }
  vx_image gx = image_of(context_, x), gy = image_of(context_, y);
  vx_image mag = vxCreateImage(context_, n, 1, VX_DF_IMAGE_S16), phase = vxCreateImage(context_, n, 1, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuMagnitude(context_, gx, gy, mag), VX_SUCCESS);
  ASSERT_EQ(vxuPhase(context_, gx, gy, phase), VX_SUCCESS);
  const S16 m = read_pixels<vx_int16>(mag);
  const U8 p = read_pixels<vx_uint8>(phase);
  for (vx_uint32 i = 0; i < n; ++i) {
    EXPECT_EQ(m.at(i, 0), cases[i].mag) << "magnitude of (" << cases[i].x << ", " << cases[i].y << ")";
    EXPECT_EQ(m.at(i, 0), magnitude_reference(cases[i].x, cases[i].y));
    EXPECT_EQ(+p.at(i, 0), +cases[i].phase) << "phase of (" << cases[i].x << ", " << cases[i].y << ")";
  }
  for (vx_image* i : {&gx, &gy, &mag, &phase}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, MagnitudeFollowsTheStridesOfHandles) {
  std::mt19937 rng(5);
  const vx_uint32 w = 19, h = 7;
  const S16 x = random_s16(w, h, rng), y = random_s16(w, h, rng);
  // grad_x from a handle with a gap after each pixel and padding after each row.
  std::vector<vx_int16> memory(static_cast<std::size_t>(w * 2 + 3) * h, 0x5555);
  for (vx_uint32 r = 0; r < h; ++r) {
    for (vx_uint32 c = 0; c < w; ++c) memory[static_cast<std::size_t>(r) * (w * 2 + 3) + c * 2] = x.at(c, r);
  }
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 4;
  addr.stride_y = static_cast<vx_int32>((w * 2 + 3) * 2);
  void* planes[] = {memory.data()};
  vx_image gx = vxCreateImageFromHandle(context_, VX_DF_IMAGE_S16, &addr, planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(gx), VX_SUCCESS);
  vx_image gy = image_of(context_, y);
  vx_image mag = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  ASSERT_EQ(vxuMagnitude(context_, gx, gy, mag), VX_SUCCESS);
  S16 expected(w, h);
  for (std::size_t i = 0; i < x.values.size(); ++i) expected.values[i] = magnitude_reference(x.values[i], y.values[i]);
  expect_pixels_eq(read_pixels<vx_int16>(mag), expected, "Magnitude from a handle with gaps");
  for (vx_image* i : {&gx, &gy, &mag}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- Convolve -------------------------------------------------------------------------------------------

TEST_F(OpenVx, ConvolveMatchesTheReferenceForEverySizeScaleOutputAndBorder) {
  std::mt19937 rng(2026);
  struct Conv {
    int columns, rows;
  };
  const Conv convs[] = {{3, 3}, {5, 3}, {3, 7}, {9, 9}, {15, 15}, {15, 3}};
  const vx_uint32 scales[] = {1, 4, 256, 0x80000000u};
  const vx_border_t borders[] = {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                 border_of(VX_BORDER_CONSTANT, 200)};
  for (const Size& size : {Size{37, 13}, Size{2, 2}, Size{16, 17}}) {
    const U8 in = random_u8(size.width, size.height, rng, size.width == 16);
    vx_image input = image_of(context_, in);
    for (const Conv& cv : convs) {
      for (std::size_t si = 0; si < std::size(scales); ++si) {
        const vx_uint32 scale = scales[si];
        // Small coefficients for the small scales (results in range), the full range for the others
        // (saturation both ways); the 2^31 scale with the full range too.
        const std::vector<vx_int16> c = si < 2 ? random_coefficients(cv.columns * cv.rows, rng, -8, 8)
                                               : random_coefficients(cv.columns * cv.rows, rng, -32768, 32767);
        vx_convolution conv = convolution_of(context_, c, cv.columns, cv.rows, scale);
        for (const vx_border_t& border : borders) {
          vx_graph graph = vxCreateGraph(context_);
          vx_image out8 = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
          vx_image out16 = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_S16);
          vx_node a = vxConvolveNode(graph, input, conv, out8), b = vxConvolveNode(graph, input, conv, out16);
          for (vx_node n : {a, b}) ASSERT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
          ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
          ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
          const vx_border_t as = border.mode == VX_BORDER_UNDEFINED ? border_of(VX_BORDER_REPLICATE) : border;
          const std::string what = std::to_string(cv.columns) + "x" + std::to_string(cv.rows) + " scale " + std::to_string(scale) + " on " +
                                   std::to_string(size.width) + "x" + std::to_string(size.height) + " " + border_name(border);
          expect_pixels_eq(read_pixels<vx_uint8>(out8), convolve_reference<vx_uint8>(in, as, c, cv.columns, cv.rows, scale), "U8 " + what);
          expect_pixels_eq(read_pixels<vx_int16>(out16), convolve_reference<vx_int16>(in, as, c, cv.columns, cv.rows, scale),
                           "S16 " + what);
          if (border.mode == VX_BORDER_UNDEFINED && size.width == 37) {
            const vx_uint32 rx = static_cast<vx_uint32>(cv.columns / 2), ry = static_cast<vx_uint32>(cv.rows / 2);
            const vx_rectangle_t r = valid_region(out16);
            if (2 * ry < 13) {
              expect_rect(r, rx, ry, 37 - rx, 13 - ry, "UNDEFINED valid region " + what);
            } else {
              EXPECT_TRUE(r.start_y >= r.end_y) << "empty valid region " << what;
            }
          }
          for (vx_node* n : {&a, &b}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
          EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
          for (vx_image* i : {&out8, &out16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
        }
        EXPECT_EQ(vxReleaseConvolution(&conv), VX_SUCCESS);
      }
    }
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  }
}

TEST_F(OpenVx, ConvolveAppliesTheMatrixFlippedAndTruncatesTowardsZero) {
  // 5x3 with a single 1 at the top left (row 0, column 0): out(x, y) = in(x + 2, y + 1), a true convolution.
  U8 in(9, 6);
  for (vx_uint32 y = 0; y < 6; ++y) {
    for (vx_uint32 x = 0; x < 9; ++x) in.at(x, y) = static_cast<vx_uint8>(10 * y + x);
  }
  std::vector<vx_int16> c(15, 0);
  c[0] = 1;
  vx_image input = image_of(context_, in);
  vx_image out = vxCreateImage(context_, 9, 6, VX_DF_IMAGE_S16);
  vx_convolution conv = convolution_of(context_, c, 5, 3, 1);
  const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxuConvolve(context_, input, conv, out), VX_SUCCESS);
  S16 got = read_pixels<vx_int16>(out);
  EXPECT_EQ(got.at(3, 2), in.at(5, 3));
  EXPECT_EQ(got.at(0, 0), in.at(2, 1));
  EXPECT_EQ(got.at(8, 5), in.at(8, 5));  // replicated
  // Negative sums are truncated towards zero: -1 * 5 / 2 = -2 (not -3), then 0 for U8.
  std::vector<vx_int16> d(9, 0);
  d[4] = -1;
  vx_convolution neg = convolution_of(context_, d, 3, 3, 2);
  U8 fives(4, 4);
  for (vx_uint8& v : fives.values) v = 5;
  vx_image five = image_of(context_, fives);
  vx_image out16 = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_S16), out8 = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuConvolve(context_, five, neg, out16), VX_SUCCESS);
  ASSERT_EQ(vxuConvolve(context_, five, neg, out8), VX_SUCCESS);
  for (vx_int16 v : read_pixels<vx_int16>(out16).values) EXPECT_EQ(v, -2);
  for (vx_uint8 v : read_pixels<vx_uint8>(out8).values) EXPECT_EQ(v, 0);
  for (vx_convolution* k : {&conv, &neg}) EXPECT_EQ(vxReleaseConvolution(k), VX_SUCCESS);
  for (vx_image* i : {&input, &out, &five, &out16, &out8}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ConvolveInImmediateModeTakesTheContextBorderAndFollowsStrides) {
  std::mt19937 rng(31);
  const U8 in = random_u8(23, 11, rng);
  const std::vector<vx_int16> c = random_coefficients(15, rng, -300, 300);
  vx_convolution conv = convolution_of(context_, c, 3, 5, 8);
  vx_image input = image_of(context_, in);
  // The output: S16 from a handle with a gap after each pixel and padding after each row.
  const vx_uint32 w = 23, h = 11;
  std::vector<vx_int16> memory(static_cast<std::size_t>(w * 3 + 1) * h, 0x7777);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 6;
  addr.stride_y = static_cast<vx_int32>((w * 3 + 1) * 2);
  void* planes[] = {memory.data()};
  vx_image handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_S16, &addr, planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(handle), VX_SUCCESS);
  for (const vx_border_t& border : kBorders) {
    ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
    ASSERT_EQ(vxuConvolve(context_, input, conv, handle), VX_SUCCESS);
    const vx_border_t as = border.mode == VX_BORDER_UNDEFINED ? border_of(VX_BORDER_REPLICATE) : border;
    expect_pixels_eq(read_pixels<vx_int16>(handle), convolve_reference<vx_int16>(in, as, c, 3, 5, 8), "vxuConvolve " + border_name(border));
    EXPECT_EQ(memory[1], 0x7777);
    EXPECT_EQ(memory[static_cast<std::size_t>(w * 3)], 0x7777);
    // Sobel in immediate mode under the same border.
    vx_image gx = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16), gy = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
    ASSERT_EQ(vxuSobel3x3(context_, input, gx, gy), VX_SUCCESS);
    S16 ex, ey;
    sobel_reference(in, as, ex, ey);
    expect_pixels_eq(read_pixels<vx_int16>(gx), ex, "vxuSobel3x3 x " + border_name(border));
    expect_pixels_eq(read_pixels<vx_int16>(gy), ey, "vxuSobel3x3 y " + border_name(border));
    for (vx_image* i : {&gx, &gy}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseConvolution(&conv), VX_SUCCESS);
  for (vx_image* i : {&input, &handle}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- virtual outputs ----------------------------------------------------------------------------------

TEST_F(OpenVx, GradientVirtualOutputsOfOpenFormatAndSizeGetTheRightOnes) {
  std::mt19937 rng(41);
  const U8 in = random_u8(37, 13, rng);
  vx_image input = image_of(context_, in);
  vx_image mag = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_image phase = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  const std::vector<vx_int16> c = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  vx_convolution conv = convolution_of(context_, c, 3, 3, 16);
  vx_graph graph = vxCreateGraph(context_);
  // Convolve -> (open: S16) ; Sobel -> gx, gy (open: S16) -> Magnitude -> (open: S16), Phase -> (open: U8).
  vx_image v_conv = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image v_gx = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT), v_gy = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image v_mag = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT), v_phase = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image conv8 = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_U8);
  vx_node nodes[] = {vxConvolveNode(graph, input, conv, v_conv), vxConvolveNode(graph, input, conv, conv8),
                     vxSobel3x3Node(graph, input, v_gx, v_gy),   vxMagnitudeNode(graph, v_gx, v_gy, v_mag),
                     vxPhaseNode(graph, v_gx, v_gy, v_phase),    vxMagnitudeNode(graph, v_gx, v_gy, mag),
                     vxPhaseNode(graph, v_gx, v_gy, phase)};
  const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
  for (vx_node n : nodes) ASSERT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
  const std::pair<vx_image, vx_df_image> expected[] = {{v_conv, VX_DF_IMAGE_S16}, {conv8, VX_DF_IMAGE_U8},  {v_gx, VX_DF_IMAGE_S16},
                                                       {v_gy, VX_DF_IMAGE_S16},   {v_mag, VX_DF_IMAGE_S16}, {v_phase, VX_DF_IMAGE_U8}};
  for (const auto& [image, format] : expected) {
    vx_uint32 width = 0, height = 0;
    vx_df_image f = VX_DF_IMAGE_VIRT;
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &f, sizeof f), VX_SUCCESS);
    EXPECT_EQ(width, 37u);
    EXPECT_EQ(height, 13u);
    EXPECT_EQ(f, format);
  }
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  S16 ex, ey;
  sobel_reference(in, replicate, ex, ey);
  S16 expected_mag(37, 13);
  U8 expected_phase(37, 13);
  for (std::size_t i = 0; i < ex.values.size(); ++i) {
    expected_mag.values[i] = magnitude_reference(ex.values[i], ey.values[i]);
    expected_phase.values[i] = phase_reference(ex.values[i], ey.values[i]);
  }
  expect_pixels_eq(read_pixels<vx_int16>(mag), expected_mag, "Magnitude of Sobel over virtual images");
  expect_pixels_eq(read_pixels<vx_uint8>(phase), expected_phase, "Phase of Sobel over virtual images");
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* i : {&v_conv, &v_gx, &v_gy, &v_mag, &v_phase, &conv8, &input, &mag, &phase}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseConvolution(&conv), VX_SUCCESS);
}

// --- refusals -----------------------------------------------------------------------------------------

class OpenVxGradientRefusals : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
    u8_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    s16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    s16b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    rgb_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_RGB);
    small_s16_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_S16);
    conv_ = vxCreateConvolution(context_, 3, 3);
  }
  void TearDown() override {
    for (vx_reference r : {ref(graph_), ref(u8_), ref(s16_), ref(s16b_), ref(rgb_), ref(small_s16_), ref(conv_)}) {
      EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    }
    OpenVx::TearDown();
  }
  void expect_refused(vx_node node, vx_status status, const std::string& logged_part) {
    ASSERT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph_), status) << logged_part;
    EXPECT_TRUE(logged(logged_part)) << "no log line has '" << logged_part << "'; last: "
                                     << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  }

  vx_graph graph_ = nullptr;
  vx_image u8_ = nullptr, s16_ = nullptr, s16b_ = nullptr, rgb_ = nullptr, small_s16_ = nullptr;
  vx_convolution conv_ = nullptr;
};

TEST_F(OpenVxGradientRefusals, WrongFormatsAreInvalidFormat) {
  const std::string sobel = "org.khronos.openvx.sobel_3x3: ", mag = "org.khronos.openvx.magnitude: ", phase = "org.khronos.openvx.phase: ",
                    conv = "org.khronos.openvx.custom_convolution: ";
  expect_refused(vxSobel3x3Node(graph_, s16_, s16b_, nullptr), VX_ERROR_INVALID_FORMAT, sobel + "input has format S16");
  expect_refused(vxSobel3x3Node(graph_, u8_, s16_, u8_), VX_ERROR_INVALID_FORMAT, sobel + "output_y has format U8");
  expect_refused(vxSobel3x3Node(graph_, u8_, rgb_, nullptr), VX_ERROR_INVALID_FORMAT, sobel + "output_x has format RGB");
  expect_refused(vxMagnitudeNode(graph_, u8_, s16_, s16b_), VX_ERROR_INVALID_FORMAT, mag + "grad_x has format U8");
  expect_refused(vxMagnitudeNode(graph_, s16_, rgb_, s16b_), VX_ERROR_INVALID_FORMAT, mag + "grad_y has format RGB");
  expect_refused(vxMagnitudeNode(graph_, s16_, s16b_, u8_), VX_ERROR_INVALID_FORMAT, mag + "mag has format U8");
  expect_refused(vxPhaseNode(graph_, s16_, u8_, rgb_), VX_ERROR_INVALID_FORMAT, phase + "grad_y has format U8");
  vx_image s16c = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
  expect_refused(vxPhaseNode(graph_, s16_, s16b_, s16c), VX_ERROR_INVALID_FORMAT, phase + "orientation has format S16");
  expect_refused(vxConvolveNode(graph_, s16_, conv_, s16b_), VX_ERROR_INVALID_FORMAT, conv + "input has format S16");
  expect_refused(vxConvolveNode(graph_, u8_, conv_, rgb_), VX_ERROR_INVALID_FORMAT, conv + "output has format RGB");
  EXPECT_EQ(vxReleaseImage(&s16c), VX_SUCCESS);
}

TEST_F(OpenVxGradientRefusals, SizeMismatchesAndMissingOutputsAreInvalidParameters) {
  const std::string sobel = "org.khronos.openvx.sobel_3x3: ";
  expect_refused(vxSobel3x3Node(graph_, u8_, nullptr, nullptr), VX_ERROR_INVALID_PARAMETERS, sobel + "neither output_x nor output_y");
  expect_refused(vxSobel3x3Node(graph_, u8_, s16_, small_s16_), VX_ERROR_INVALID_PARAMETERS, sobel + "output_y is 15x8 but the inputs are 16x8");
  expect_refused(vxMagnitudeNode(graph_, s16_, small_s16_, s16b_), VX_ERROR_INVALID_PARAMETERS,
                 "org.khronos.openvx.magnitude: grad_x is 16x8 but grad_y is 15x8");
  expect_refused(vxMagnitudeNode(graph_, s16_, s16b_, small_s16_), VX_ERROR_INVALID_PARAMETERS,
                 "org.khronos.openvx.magnitude: mag is 15x8 but the inputs are 16x8");
  expect_refused(vxPhaseNode(graph_, small_s16_, s16b_, u8_), VX_ERROR_INVALID_PARAMETERS,
                 "org.khronos.openvx.phase: grad_x is 15x8 but grad_y is 16x8");
  expect_refused(vxConvolveNode(graph_, u8_, conv_, small_s16_), VX_ERROR_INVALID_PARAMETERS,
                 "org.khronos.openvx.custom_convolution: output is 15x8 but the inputs are 16x8");
  vx_image nobody = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
  expect_refused(vxPhaseNode(graph_, nobody, s16_, u8_), VX_ERROR_INVALID_PARAMETERS,
                 "org.khronos.openvx.phase: grad_x is a virtual image no node before this one produces");
  EXPECT_EQ(vxReleaseImage(&nobody), VX_SUCCESS);
}

TEST_F(OpenVxGradientRefusals, WrongParameterTypesAreRefused) {
  // No scalar parameters here: the typed parameter is Convolve's conv. A generic node given a matrix there
  // is refused when the parameter is set (its type is checked), and an unset one by vxVerifyGraph.
  vx_kernel kernel = vxGetKernelByName(context_, "org.khronos.openvx.custom_convolution");
  ASSERT_EQ(status_of(kernel), VX_SUCCESS);
  vx_node node = vxCreateGenericNode(graph_, kernel);
  ASSERT_EQ(status_of(node), VX_SUCCESS);
  vx_matrix matrix = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 3);
  ASSERT_EQ(status_of(matrix), VX_SUCCESS);
  EXPECT_NE(vxSetParameterByIndex(node, 1, ref(matrix)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(u8_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 2, ref(s16_)), VX_SUCCESS);
  EXPECT_NE(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 1, ref(conv_)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&matrix), VX_SUCCESS);
  EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  // Immediate mode refuses what the node refuses.
  EXPECT_EQ(vxuMagnitude(context_, s16_, s16b_, u8_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuPhase(context_, u8_, s16b_, u8_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuSobel3x3(context_, s16_, s16b_, nullptr), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuConvolve(context_, u8_, conv_, small_s16_), VX_ERROR_INVALID_PARAMETERS);
}

}  // namespace
