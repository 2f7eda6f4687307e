// The standard kernels ScaleImage, WarpAffine and WarpPerspective against references written here from the
// specification: each interpolation and border, graph and immediate forms, U1 images, the input's valid
// region, and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

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

/// Bilinear at (x, y) from the four pixels around it, rounded (double precision).
int bilinear_at(const Pixels<vx_uint8>& in, double x, double y, const vx_border_t& border) {
  const double x0 = std::floor(x), y0 = std::floor(y), s = x - x0, t = y - y0;
  const int xi = static_cast<int>(x0), yi = static_cast<int>(y0);
  const double v = (1 - s) * (1 - t) * sample(in, xi, yi, border) + s * (1 - t) * sample(in, xi + 1, yi, border) +
                   (1 - s) * t * sample(in, xi, yi + 1, border) + s * t * sample(in, xi + 1, yi + 1, border);
  return static_cast<int>(v + 0.5);
}

class GeometricKernels : public OpenVx {
 protected:
  /// Runs @p make's node with @p border set on it; returns the output pixels.
  template <typename Make>
  Pixels<vx_uint8> run(vx_image out, const vx_border_t& border, Make make) {
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = make(graph);
    EXPECT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    return read_pixels<vx_uint8>(out);
  }
  vx_matrix matrix_of(vx_size columns, const std::vector<vx_float32>& m) {
    vx_matrix matrix = vxCreateMatrix(context_, VX_TYPE_FLOAT32, columns, 3);
    EXPECT_EQ(vxCopyMatrix(matrix, const_cast<vx_float32*>(m.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    return matrix;
  }
};

// --- ScaleImage ---------------------------------------------------------------------------------------------

TEST_F(GeometricKernels, ScaleSamplesAtPixelCentresWithEachInterpolation) {
  std::mt19937 rng(7);
  const Pixels<vx_uint8> in = random_pixels<vx_uint8>(37, 23, rng);
  vx_image src = image_of(context_, in);
  for (auto [w, h] : {std::pair{74u, 46u}, std::pair{18u, 11u}, std::pair{50u, 17u}}) {
    for (vx_enum type : {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR, VX_INTERPOLATION_AREA}) {
      for (const vx_border_t border : {border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 9)}) {
        vx_image dst = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
        const Pixels<vx_uint8> out = run(dst, border, [&](vx_graph g) { return vxScaleImageNode(g, src, dst, type); });
        std::size_t wrong = 0;
        for (vx_uint32 y = 0; y < h; ++y)
          for (vx_uint32 x = 0; x < w; ++x) {
            // x_src = (x + 0.5) * w_in / w_out - 0.5
            const double sx = (x + 0.5) * in.width / w - 0.5, sy = (y + 0.5) * in.height / h - 0.5;
            int want = 0, tolerance = 0;
            if (type == VX_INTERPOLATION_NEAREST_NEIGHBOR) {
              want = sample(in, static_cast<int>(std::floor(sx + 0.5)), static_cast<int>(std::floor(sy + 0.5)), border);
            } else if (type == VX_INTERPOLATION_BILINEAR) {
              want = bilinear_at(in, sx, sy, border);
              tolerance = 1;  // single vs double precision
            } else {
              // The area the output pixel covers, each input pixel weighted by its share.
              const double fx = static_cast<double>(in.width) / w, fy = static_cast<double>(in.height) / h;
              double sum = 0, total = 0;
              for (int yi = static_cast<int>(std::floor(y * fy)); yi < (y + 1) * fy; ++yi)
                for (int xi = static_cast<int>(std::floor(x * fx)); xi < (x + 1) * fx; ++xi) {
                  const double wx = std::min((x + 1) * fx, xi + 1.0) - std::max(x * fx, static_cast<double>(xi));
                  const double wy = std::min((y + 1) * fy, yi + 1.0) - std::max(y * fy, static_cast<double>(yi));
                  if (wx <= 0 || wy <= 0) continue;
                  sum += wx * wy * sample(in, xi, yi, border);
                  total += wx * wy;
                }
              want = static_cast<int>(sum / total + 0.5);
              tolerance = 1;
            }
            if (std::abs(want - out.at(x, y)) > tolerance && ++wrong <= 3)
              ADD_FAILURE() << w << "x" << h << " type " << type << " " << border_name(border) << ": (" << x << ", " << y
                            << ") is " << +out.at(x, y) << ", expected " << want;
          }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
      }
    }
  }
  EXPECT_EQ(vxReleaseImage(&src), VX_SUCCESS);
}

TEST_F(GeometricKernels, ScaleOfU1ImagesAndTheImmediateForm) {
  // A U1 checkerboard of 2x2 blocks, doubled: each output 4x4 block is one input pixel.
  vx_image src = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U1);
  vx_image dst = vxCreateImage(context_, 32, 16, VX_DF_IMAGE_U1);
  vx_image u8 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
  Pixels<vx_uint8> board(16, 8);
  for (vx_uint32 y = 0; y < 8; ++y)
    for (vx_uint32 x = 0; x < 16; ++x) board.at(x, y) = ((x / 2 + y / 2) % 2) ? 255 : 0;
  vg_openvx_test::write_pixels(u8, board);
  vx_threshold t = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U1);
  vx_pixel_value_t level{};
  level.U8 = 127;
  ASSERT_EQ(vxCopyThresholdValue(t, &level, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxuThreshold(context_, u8, t, src), VX_SUCCESS);
  ASSERT_EQ(vxuScaleImage(context_, src, dst, VX_INTERPOLATION_NEAREST_NEIGHBOR), VX_SUCCESS);
  vx_image back = vxCreateImage(context_, 32, 16, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuConvertDepth(context_, dst, back, VX_CONVERT_POLICY_SATURATE, 0), VX_SUCCESS);
  const Pixels<vx_uint8> out = read_pixels<vx_uint8>(back);
  for (vx_uint32 y = 0; y < 16; ++y)
    for (vx_uint32 x = 0; x < 32; ++x) ASSERT_EQ(out.at(x, y) != 0, board.at(x / 2, y / 2) != 0) << x << ", " << y;
  for (vx_image* i : {&src, &dst, &u8, &back}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&t), VX_SUCCESS);
}

// --- WarpAffine, WarpPerspective ----------------------------------------------------------------------------

TEST_F(GeometricKernels, WarpsReadTheInputWhereTheMatrixMapsEachOutputPixel) {
  std::mt19937 rng(3);
  const Pixels<vx_uint8> in = random_pixels<vx_uint8>(41, 29, rng);
  vx_image src = image_of(context_, in);
  // Affine (2 columns, 3 rows, element (r, c) at r * 2 + c): x0 = m0 x + m2 y + m4, y0 = m1 x + m3 y + m5.
  const std::vector<vx_float32> affine = {0.9f, 0.2f, -0.15f, 1.1f, 3.25f, -2.5f};
  // Perspective (3 x 3): x0 = (m0 x + m3 y + m6) / (m2 x + m5 y + m8), y0 likewise with m1, m4, m7.
  const std::vector<vx_float32> perspective = {1.0f, 0.1f, 0.001f, -0.05f, 0.95f, 0.002f, 2.0f, 1.5f, 1.0f};
  for (bool is_affine : {true, false}) {
    vx_matrix matrix = is_affine ? matrix_of(2, affine) : matrix_of(3, perspective);
    const std::vector<vx_float32>& m = is_affine ? affine : perspective;
    for (vx_enum type : {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}) {
      for (const vx_border_t border : {border_of(VX_BORDER_CONSTANT, 200), border_of(VX_BORDER_REPLICATE)}) {
        vx_image dst = vxCreateImage(context_, 30, 20, VX_DF_IMAGE_U8);
        const Pixels<vx_uint8> out = run(dst, border, [&](vx_graph g) {
          return is_affine ? vxWarpAffineNode(g, src, matrix, type, dst) : vxWarpPerspectiveNode(g, src, matrix, type, dst);
        });
        std::size_t wrong = 0;
        for (vx_uint32 y = 0; y < 20; ++y)
          for (vx_uint32 x = 0; x < 30; ++x) {
            double sx, sy;
            if (is_affine) {
              sx = m[0] * x + m[2] * y + m[4];
              sy = m[1] * x + m[3] * y + m[5];
            } else {
              const double z = m[2] * x + m[5] * y + m[8];
              sx = (m[0] * x + m[3] * y + m[6]) / z;
              sy = (m[1] * x + m[4] * y + m[7]) / z;
            }
            int want = 0;
            bool ok = false;
            if (type == VX_INTERPOLATION_BILINEAR) {
              want = bilinear_at(in, sx, sy, border);
              ok = std::abs(want - out.at(x, y)) <= 1;
            } else {
              // A coordinate within rounding of a half may go to either neighbour.
              want = sample(in, static_cast<int>(std::floor(sx + 0.5)), static_cast<int>(std::floor(sy + 0.5)), border);
              for (double dx : {-1e-4, 0.0, 1e-4})
                for (double dy : {-1e-4, 0.0, 1e-4})
                  ok = ok || sample(in, static_cast<int>(std::floor(sx + dx + 0.5)), static_cast<int>(std::floor(sy + dy + 0.5)),
                                    border) == out.at(x, y);
            }
            if (!ok && ++wrong <= 3)
              ADD_FAILURE() << (is_affine ? "affine" : "perspective") << " type " << type << " " << border_name(border) << ": ("
                            << x << ", " << y << ") is " << +out.at(x, y) << ", expected " << want;
          }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
      }
    }
    EXPECT_EQ(vxReleaseMatrix(&matrix), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseImage(&src), VX_SUCCESS);
}

TEST_F(GeometricKernels, PixelsOutsideTheInputsValidRegionAreBorderPixels) {
  Pixels<vx_uint8> in(16, 16);
  for (vx_uint8& v : in.values) v = 50;
  vx_image src = image_of(context_, in);
  const vx_rectangle_t valid{4, 4, 12, 12};
  ASSERT_EQ(vxSetImageValidRectangle(src, &valid), VX_SUCCESS);
  vx_matrix identity = matrix_of(2, {1, 0, 0, 1, 0, 0});
  vx_image dst = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  const vx_border_t constant = border_of(VX_BORDER_CONSTANT, 7);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &constant, sizeof constant), VX_SUCCESS);
  ASSERT_EQ(vxuWarpAffine(context_, src, identity, VX_INTERPOLATION_NEAREST_NEIGHBOR, dst), VX_SUCCESS);
  const Pixels<vx_uint8> out = read_pixels<vx_uint8>(dst);
  EXPECT_EQ(out.at(0, 0), 7) << "outside the valid region: the constant";
  EXPECT_EQ(out.at(3, 8), 7);
  EXPECT_EQ(out.at(4, 4), 50) << "inside it: the pixel";
  EXPECT_EQ(out.at(11, 11), 50);
  EXPECT_EQ(out.at(12, 11), 7);
  EXPECT_EQ(vxReleaseImage(&src), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&identity), VX_SUCCESS);
}

TEST_F(GeometricKernels, VerifyRefusesAMissingSizeAWrongMatrixAndAreaForWarps) {
  vx_image src = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_matrix three_by_three = matrix_of(3, std::vector<vx_float32>(9, 1.0f));
  auto verify = [&](auto make) {
    vx_graph g = vxCreateGraph(context_);
    vx_node n = make(g);
    const vx_status s = status_of(n) == VX_SUCCESS ? vxVerifyGraph(g) : status_of(n);
    if (status_of(n) == VX_SUCCESS) {
      EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    }
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
    return s;
  };
  EXPECT_NE(verify([&](vx_graph g) {
              vx_image open = vxCreateVirtualImage(g, 0, 0, VX_DF_IMAGE_U8);
              vx_node n = vxScaleImageNode(g, src, open, VX_INTERPOLATION_BILINEAR);
              vxReleaseImage(&open);
              return n;
            }),
            VX_SUCCESS);
  EXPECT_TRUE(logged("output has no size")) << "the log says why";
  vx_image dst = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  EXPECT_NE(verify([&](vx_graph g) { return vxWarpAffineNode(g, src, three_by_three, VX_INTERPOLATION_BILINEAR, dst); }), VX_SUCCESS);
  EXPECT_TRUE(logged("matrix must be FLOAT32 with 2 columns and 3 rows"));
  EXPECT_NE(verify([&](vx_graph g) { return vxWarpPerspectiveNode(g, src, three_by_three, VX_INTERPOLATION_AREA, dst); }),
            VX_SUCCESS);
  vx_image s16 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_S16);
  EXPECT_NE(vxuScaleImage(context_, s16, dst, VX_INTERPOLATION_NEAREST_NEIGHBOR), VX_SUCCESS);
  for (vx_image* i : {&src, &dst, &s16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&three_by_three), VX_SUCCESS);
}

}  // namespace
