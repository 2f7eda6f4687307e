// The enhanced-vision kernels NonMaxSuppression, LBP, MatchTemplate, BilateralFilter, TensorMatrixMultiply and HOG. NonMaxSuppression against a reference written here from the specification
// (and the conformance suite's tie rule: of a plateau, the last pixel in raster order stays), and
// MatchTemplate.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::read_pixels;

TEST_F(OpenVx, NonMaxSuppressionKeepsLocalMaximaAndMaskedPixels) {
  std::mt19937 rng(17);
  Pixels<vx_int16> in(23, 17);
  std::uniform_int_distribution<int> values(-50, 50);  // few values: plateaus happen
  for (vx_int16& v : in.values) v = static_cast<vx_int16>(values(rng) / 10);
  Pixels<vx_uint8> mask(23, 17);
  for (vx_uint32 y = 0; y < 17; ++y)
    for (vx_uint32 x = 0; x < 23; ++x) mask.at(x, y) = (x % 5 == 0 && y % 3 == 0) ? 1 : 0;
  vx_image src = image_of(context_, in), m = image_of(context_, mask);
  for (vx_int32 win : {1, 3, 5}) {
    for (bool with_mask : {false, true}) {
      vx_image dst = vxCreateImage(context_, 23, 17, VX_DF_IMAGE_S16);
      ASSERT_EQ(vxuNonMaxSuppression(context_, src, with_mask ? m : nullptr, win, dst), VX_SUCCESS);
      const Pixels<vx_int16> out = read_pixels<vx_int16>(dst);
      const int r = win / 2;
      std::size_t wrong = 0;
      for (int y = r; y < 17 - r; ++y)
        for (int x = r; x < 23 - r; ++x) {
          const vx_int16 v = in.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
          bool keep = true;
          if (!(with_mask && mask.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y)))) {
            for (int j = -r; j <= r; ++j)
              for (int i = -r; i <= r; ++i) {
                if (with_mask && mask.at(static_cast<vx_uint32>(x + i), static_cast<vx_uint32>(y + j))) continue;
                const vx_int16 n = in.at(static_cast<vx_uint32>(x + i), static_cast<vx_uint32>(y + j));
                const bool before = j < 0 || (j == 0 && i <= 0);
                if (before ? v < n : v <= n) keep = false;
              }
          }
          const vx_int16 want = keep ? v : INT16_MIN;
          if (out.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y)) != want && ++wrong <= 3)
            ADD_FAILURE() << "win " << win << " mask " << with_mask << ": (" << x << ", " << y << ") is "
                          << out.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y)) << ", expected " << want;
        }
      EXPECT_EQ(wrong, 0u);
      EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
    }
  }
  // win_size must be odd and fit the image.
  vx_image dst = vxCreateImage(context_, 23, 17, VX_DF_IMAGE_S16);
  EXPECT_NE(vxuNonMaxSuppression(context_, src, nullptr, 4, dst), VX_SUCCESS);
  EXPECT_TRUE(logged("win_size is 4"));
  EXPECT_NE(vxuNonMaxSuppression(context_, src, nullptr, 19, dst), VX_SUCCESS);
  for (vx_image* i : {&src, &m, &dst}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// MatchTemplate (enhanced vision): each method finds a template cut from the source where it was cut.
TEST_F(OpenVx, MatchTemplateFindsTheTemplateWithEveryMethod) {
  std::mt19937 rng(23);
  vg_openvx_test::Pixels<vx_uint8> source = vg_openvx_test::random_pixels<vx_uint8>(40, 30, rng);
  vg_openvx_test::Pixels<vx_uint8> templ(9, 7);
  for (vx_uint32 y = 0; y < 7; ++y)
    for (vx_uint32 x = 0; x < 9; ++x) templ.at(x, y) = source.at(x + 17, y + 11);
  vx_image src = vg_openvx_test::image_of(context_, source), tpl = vg_openvx_test::image_of(context_, templ);
  for (vx_enum method : {VX_COMPARE_HAMMING, VX_COMPARE_L1, VX_COMPARE_L2, VX_COMPARE_CCORR, VX_COMPARE_L2_NORM, VX_COMPARE_CCORR_NORM}) {
    vx_image out = vxCreateImage(context_, 32, 24, VX_DF_IMAGE_S16);
    ASSERT_EQ(vxuMatchTemplate(context_, src, tpl, method, out), VX_SUCCESS) << method;
    const vg_openvx_test::Pixels<vx_int16> r = vg_openvx_test::read_pixels<vx_int16>(out);
    const bool highest = method == VX_COMPARE_CCORR || method == VX_COMPARE_CCORR_NORM;
    vx_uint32 bx = 0, by = 0;
    for (vx_uint32 y = 0; y < 24; ++y)
      for (vx_uint32 x = 0; x < 32; ++x)
        if (highest ? r.at(x, y) > r.at(bx, by) : r.at(x, y) < r.at(bx, by)) {
          bx = x;
          by = y;
        }
    if (method != VX_COMPARE_CCORR) {  // plain correlation favours bright places, not the match
      EXPECT_EQ(bx, 17u) << method;
      EXPECT_EQ(by, 11u) << method;
    }
    if (method == VX_COMPARE_L1 || method == VX_COMPARE_L2 || method == VX_COMPARE_HAMMING) {
      EXPECT_EQ(r.at(17, 11), 0);
    }
    if (method == VX_COMPARE_CCORR_NORM) {
      EXPECT_EQ(r.at(17, 11), 256) << "1.0 in Q7.8";
    }
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  }
  vx_image wrong = vxCreateImage(context_, 31, 24, VX_DF_IMAGE_S16);
  EXPECT_NE(vxuMatchTemplate(context_, src, tpl, VX_COMPARE_L1, wrong), VX_SUCCESS) << "the output must be (W - w + 1) x (H - h + 1)";
  for (vx_image* i : {&src, &tpl, &wrong}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// LBP (enhanced vision): each format and window against the definitions, away from the edges.
TEST_F(OpenVx, LbpFormatsFollowTheirDefinitions) {
  std::mt19937 rng(29);
  const Pixels<vx_uint8> in = vg_openvx_test::random_pixels<vx_uint8>(21, 15, rng, 0, 40);
  vx_image src = image_of(context_, in);
  struct Case {
    vx_enum format;
    vx_int8 size;
  };
  for (const Case c : {Case{VX_LBP, 3}, Case{VX_LBP, 5}, Case{VX_ULBP, 3}, Case{VX_ULBP, 5}, Case{VX_MLBP, 5}}) {
    vx_image dst = vxCreateImage(context_, 21, 15, VX_DF_IMAGE_U8);
    ASSERT_EQ(vxuLBP(context_, src, c.format, c.size, dst), VX_SUCCESS);
    const Pixels<vx_uint8> out = read_pixels<vx_uint8>(dst);
    // Neighbours clockwise from the top left (dy, dx).
    const int three[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}};
    const int five[8][2] = {{-1, -1}, {-2, 0}, {-1, 1}, {0, 2}, {1, 1}, {2, 0}, {1, -1}, {0, -2}};
    const int corners[8][2] = {{-2, -2}, {-2, 0}, {-2, 2}, {0, 2}, {2, 2}, {2, 0}, {2, -2}, {0, -2}};
    const auto& n = c.format == VX_MLBP ? corners : c.size == 3 ? three : five;
    for (vx_uint32 y = 2; y < 13; ++y)
      for (vx_uint32 x = 2; x < 19; ++x) {
        int g[8], sum = 0;
        for (int p = 0; p < 8; ++p) {
          g[p] = in.at(x + static_cast<vx_uint32>(n[p][1]), y + static_cast<vx_uint32>(n[p][0]));
          sum += g[p];
        }
        int want = 0;
        if (c.format == VX_MLBP) {
          for (int p = 0; p < 8; ++p) want |= (g[p] > (sum + 1) / 8) << p;
        } else {
          int changes = 0;
          for (int p = 0; p < 8; ++p) {
            want |= (g[p] >= in.at(x, y)) << p;
            changes += (g[p] >= in.at(x, y)) != (g[(p + 7) % 8] >= in.at(x, y));
          }
          if (c.format == VX_ULBP && changes > 2) want = 9;
        }
        ASSERT_EQ(out.at(x, y), want) << "format " << c.format << " size " << int{c.size} << " at " << x << ", " << y;
      }
    EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
  }
  vx_image dst = vxCreateImage(context_, 21, 15, VX_DF_IMAGE_U8);
  EXPECT_NE(vxuLBP(context_, src, VX_MLBP, 3, dst), VX_SUCCESS) << "MLBP is 5x5 only";
  EXPECT_NE(vxuLBP(context_, src, VX_LBP, 7, dst), VX_SUCCESS);
  for (vx_image* i : {&src, &dst}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// BilateralFilter (enhanced vision) on a 2-dimensional UINT8 tensor against the definition, every border
// the specification names; a flat Q7.8 tensor is its own result.
TEST_F(OpenVx, BilateralFilterWeighsByDistanceAndColour) {
  const vx_size w = 19, h = 13;
  std::mt19937 rng(31);
  std::vector<vx_uint8> pixels(w * h);
  for (vx_uint8& v : pixels) v = static_cast<vx_uint8>(rng() % 60);
  const vx_size dims[2] = {w, h};
  const vx_size strides[2] = {1, w};
  vx_tensor src = vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0);
  vx_tensor dst = vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0);
  const vx_size start[2] = {0, 0};
  ASSERT_EQ(vxCopyTensorPatch(src, 2, start, dims, strides, pixels.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const int diameter = 5, radius = 2;
  const double sigma_space = 3.0, sigma_values = 8.0;
  for (const vx_border_t border : {vg_openvx_test::border_of(VX_BORDER_REPLICATE), vg_openvx_test::border_of(VX_BORDER_CONSTANT, 50)}) {
    ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
    ASSERT_EQ(vxuBilateralFilter(context_, src, diameter, static_cast<vx_float32>(sigma_space), static_cast<vx_float32>(sigma_values), dst),
              VX_SUCCESS);
    std::vector<vx_uint8> out(w * h);
    ASSERT_EQ(vxCopyTensorPatch(dst, 2, start, dims, strides, out.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    auto at = [&](int x, int y) -> int {
      if (x < 0 || y < 0 || x >= static_cast<int>(w) || y >= static_cast<int>(h)) {
        if (border.mode == VX_BORDER_CONSTANT) return border.constant_value.U8;
        x = std::clamp(x, 0, static_cast<int>(w) - 1);
        y = std::clamp(y, 0, static_cast<int>(h) - 1);
      }
      return pixels[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)];
    };
    for (int y = 0; y < static_cast<int>(h); ++y)
      for (int x = 0; x < static_cast<int>(w); ++x) {
        double sum = 0, wsum = 0;
        for (int j = -radius; j <= radius; ++j)
          for (int i = -radius; i <= radius; ++i) {
            if (i * i + j * j > radius * radius) continue;  // the disc
            const int v = at(x + i, y + j), d = v - at(x, y);
            const double weight = std::exp(-(i * i + j * j) / (2 * sigma_space * sigma_space)) * std::exp(-d * d / (2 * sigma_values * sigma_values));
            sum += v * weight;
            wsum += weight;
          }
        EXPECT_NEAR(out[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)], std::round(sum / wsum), 1) << x << ", " << y;
      }
  }
  EXPECT_NE(vxuBilateralFilter(context_, src, 4, 3.0f, 8.0f, dst), VX_SUCCESS) << "an even diameter";
  EXPECT_TRUE(logged("diameter is 4"));
  // A flat Q7.8 tensor is its own result.
  vx_tensor q_src = vxCreateTensor(context_, 2, dims, VX_TYPE_INT16, 8), q_dst = vxCreateTensor(context_, 2, dims, VX_TYPE_INT16, 8);
  std::vector<vx_int16> flat(w * h, 300), back(w * h);
  const vx_size q_strides[2] = {2, 2 * w};
  ASSERT_EQ(vxCopyTensorPatch(q_src, 2, start, dims, q_strides, flat.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxuBilateralFilter(context_, q_src, 5, 3.0f, 8.0f, q_dst), VX_SUCCESS);
  ASSERT_EQ(vxCopyTensorPatch(q_dst, 2, start, dims, q_strides, back.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back, flat);
  for (vx_tensor* t : {&src, &dst, &q_src, &q_dst}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
}

// A [1, width, height] tensor is filtered as the conformance suite reads it (three channels, each the next
// element: tensors.cpp says why); every element comes out as its pixel's first channel, and nothing past
// the tensor is read or written (ASan builds check the latter).
TEST_F(OpenVx, BilateralFilterReadsOneChannelOfThreeDimensionsAsTheSuiteDoes) {
  const int w = 17, h = 11, diameter = 5, radius = 2;
  const double sigma_space = 3.0, sigma_values = 9.0;
  std::mt19937 rng(5);
  std::vector<vx_uint8> pixels(static_cast<std::size_t>(w) * h);
  for (vx_uint8& v : pixels) v = static_cast<vx_uint8>(100 + rng() % 24);
  const vx_size dims[3] = {1, static_cast<vx_size>(w), static_cast<vx_size>(h)};
  const vx_size strides[3] = {1, 1, static_cast<vx_size>(w)};
  const vx_size start[3] = {0, 0, 0};
  vx_tensor src = vxCreateTensor(context_, 3, dims, VX_TYPE_UINT8, 0);
  vx_tensor dst = vxCreateTensor(context_, 3, dims, VX_TYPE_UINT8, 0);
  ASSERT_EQ(vxCopyTensorPatch(src, 3, start, dims, strides, pixels.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_border_t border = vg_openvx_test::border_of(VX_BORDER_REPLICATE);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
  ASSERT_EQ(vxuBilateralFilter(context_, src, diameter, static_cast<vx_float32>(sigma_space), static_cast<vx_float32>(sigma_values), dst),
            VX_SUCCESS);
  std::vector<vx_uint8> out(pixels.size());
  ASSERT_EQ(vxCopyTensorPatch(dst, 3, start, dims, strides, out.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const int last = w * h - 1;
  auto channel = [&](int x, int y, int c) -> int {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
    return pixels[static_cast<std::size_t>(std::min(y * w + x + c, last))];
  };
  int differing = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0, wsum = 0;
      for (int j = -radius; j <= radius; ++j)
        for (int i = -radius; i <= radius; ++i) {
          if (i * i + j * j > radius * radius) continue;
          int distance = 0;
          for (int c = 0; c < 3; ++c) distance += std::abs(channel(x + i, y + j, c) - channel(x, y, c));
          const double weight =
              std::exp(-(i * i + j * j) / (2 * sigma_space * sigma_space)) * std::exp(-1.0 * distance * distance / (2 * sigma_values * sigma_values));
          sum += channel(x + i, y + j, 0) * weight;
          wsum += weight;
        }
      const int got = out[static_cast<std::size_t>(y * w + x)], want = static_cast<int>(std::round(sum / wsum));
      EXPECT_NEAR(got, want, 1) << x << ", " << y;
      differing += got != channel(x, y, 0) ? 1 : 0;
    }
  EXPECT_GT(differing, w * h / 4) << "the input is smoothed, not copied";
  for (vx_tensor* t : {&src, &dst}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
}

// TensorMatrixMultiply (enhanced vision): INT8 with transposes and an addend, saturating; Q7.8 rounding.
TEST_F(OpenVx, TensorMatrixMultiplyChainsTransposesAndSaturates) {
  auto tensor = [&](vx_size cols, vx_size rows, vx_enum type, vx_int8 q, const void* data, vx_size item) {
    const vx_size dims[2] = {cols, rows}, strides[2] = {item, item * cols}, start[2] = {0, 0};
    vx_tensor t = vxCreateTensor(context_, 2, dims, type, q);
    EXPECT_EQ(vxCopyTensorPatch(t, 2, start, dims, strides, const_cast<void*>(data), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    return t;
  };
  // A (2 x 3) as stored transposed (3 columns... stored as 2 columns x 3 rows), B 3 x 2, C 2 x 2.
  const vx_int8 a_t[6] = {1, 4, 2, 5, 3, 6};         // A^T: rows (1 4) (2 5) (3 6) -> A = (1 2 3; 4 5 6)
  const vx_int8 b[6] = {1, 0, 0, 1, 100, 100};      // B = (1 0; 0 1; 100 100)
  const vx_int8 c[4] = {1, 2, 3, 4};
  vx_tensor ta = tensor(2, 3, VX_TYPE_INT8, 0, a_t, 1), tb = tensor(2, 3, VX_TYPE_INT8, 0, b, 1), tc = tensor(2, 2, VX_TYPE_INT8, 0, c, 1);
  const vx_size out_dims[2] = {2, 2}, out_strides[2] = {1, 2}, start[2] = {0, 0};
  vx_tensor out = vxCreateTensor(context_, 2, out_dims, VX_TYPE_INT8, 0);
  const vx_tensor_matrix_multiply_params_t params{vx_true_e, vx_false_e, vx_false_e};
  ASSERT_EQ(vxuTensorMatrixMultiply(context_, ta, tb, tc, &params, out), VX_SUCCESS);
  vx_int8 got[4] = {};
  ASSERT_EQ(vxCopyTensorPatch(out, 2, start, out_dims, out_strides, got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  // A B = (301 302; 604 605) + C, saturated to INT8.
  EXPECT_EQ(got[0], 127);
  EXPECT_EQ(got[3], 127);
  const vx_int8 small_b[6] = {1, 0, 0, 1, 1, 1};  // (1 0; 0 1; 1 1)
  vx_tensor tb2 = tensor(2, 3, VX_TYPE_INT8, 0, small_b, 1);
  ASSERT_EQ(vxuTensorMatrixMultiply(context_, ta, tb2, tc, &params, out), VX_SUCCESS);
  ASSERT_EQ(vxCopyTensorPatch(out, 2, start, out_dims, out_strides, got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(got[0], 1 + 3 + 1);  // (1 2 3).(1 0 1) + 1
  EXPECT_EQ(got[1], 2 + 3 + 2);
  EXPECT_EQ(got[2], 4 + 6 + 3);
  EXPECT_EQ(got[3], 5 + 6 + 4);
  // Shapes that do not chain are refused.
  const vx_tensor_matrix_multiply_params_t plain{vx_false_e, vx_false_e, vx_false_e};
  EXPECT_NE(vxuTensorMatrixMultiply(context_, ta, tb2, nullptr, &plain, out), VX_SUCCESS);
  EXPECT_TRUE(logged("the matrices do not chain"));
  // Q7.8: 1.5 x 2.25 = 3.375.
  const vx_int16 qa[1] = {384}, qb[1] = {576};
  vx_tensor q1 = tensor(1, 1, VX_TYPE_INT16, 8, qa, 2), q2 = tensor(1, 1, VX_TYPE_INT16, 8, qb, 2);
  const vx_size one[2] = {1, 1}, q_strides[2] = {2, 2};
  vx_tensor qo = vxCreateTensor(context_, 2, one, VX_TYPE_INT16, 8);
  ASSERT_EQ(vxuTensorMatrixMultiply(context_, q1, q2, nullptr, &plain, qo), VX_SUCCESS);
  vx_int16 q = 0;
  ASSERT_EQ(vxCopyTensorPatch(qo, 2, start, one, q_strides, &q, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(q, 864);
  for (vx_tensor* t : {&ta, &tb, &tc, &out, &tb2, &q1, &q2, &qo}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
}

// HOGCells and HOGFeatures (enhanced vision): columns in a 0, 0, 200, 200 pattern have horizontal gradients of
// +200 (0 degrees, bin 0) and -200 (180 degrees, bin 4) only, each pixel adding 200/64 to its cell (the sum
// truncated at each step, as the conformance reference adds), and blocks normalise them into features.
TEST_F(OpenVx, HogCellsAndFeaturesOfStripes) {
  Pixels<vx_uint8> stripes(32, 16);
  for (vx_uint32 y = 0; y < 16; ++y)
    for (vx_uint32 x = 0; x < 32; ++x) stripes.at(x, y) = (x / 2) % 2 ? 200 : 0;
  vx_image image = image_of(context_, stripes);
  const vx_size mag_dims[2] = {4, 2}, bin_dims[3] = {4, 2, 9};
  vx_tensor magnitudes = vxCreateTensor(context_, 2, mag_dims, VX_TYPE_INT16, 8);
  vx_tensor bins = vxCreateTensor(context_, 3, bin_dims, VX_TYPE_INT16, 8);
  ASSERT_EQ(vxuHOGCells(context_, image, 8, 8, 9, magnitudes, bins), VX_SUCCESS);
  std::vector<vx_int16> mags(8), hist(72);
  const vx_size start[3] = {0, 0, 0}, mag_strides[2] = {2, 8}, bin_strides[3] = {2, 8, 16};
  ASSERT_EQ(vxCopyTensorPatch(magnitudes, 2, start, mag_dims, mag_strides, mags.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxCopyTensorPatch(bins, 3, start, bin_dims, bin_strides, hist.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (int cell = 0; cell < 8; ++cell) {
    const auto c = static_cast<std::size_t>(cell);
    EXPECT_GT(mags[c], 100) << cell;  // 64 pixels, nearly all at 200/64 each
    EXPECT_NEAR(hist[c * 9] + hist[c * 9 + 4], mags[c], 2) << "bins 0 and 4 hold the cell, " << cell;
    for (int k : {1, 2, 3, 5, 6, 7, 8}) EXPECT_EQ(hist[c * 9 + static_cast<std::size_t>(k)], 0);
  }
  const vx_hog_t params{8, 8, 16, 16, 8, 9, 32, 16, 32, 0.2f};
  const vx_size feature_dims[3] = {1, 1, 3 * 1 * 4 * 9};
  vx_tensor features = vxCreateTensor(context_, 3, feature_dims, VX_TYPE_INT16, 8);
  ASSERT_EQ(vxuHOGFeatures(context_, image, magnitudes, bins, &params, sizeof params, features), VX_SUCCESS);
  std::vector<vx_int16> f(108);
  const vx_size f_strides[3] = {2, 2, 2};
  ASSERT_EQ(vxCopyTensorPatch(features, 3, start, feature_dims, f_strides, f.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  int non_zero = 0;
  for (vx_int16 v : f) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 256) << "normalised: at most 1.0 in Q7.8";
    non_zero += v != 0;
  }
  EXPECT_EQ(non_zero, 3 * 4 * 2) << "bins 0 and 4 of each cell of each of the 3 blocks";
  const vx_hog_t bad{8, 8, 12, 16, 8, 9, 32, 16, 32, 0.2f};  // a block of 1.5 cells
  EXPECT_NE(vxuHOGFeatures(context_, image, magnitudes, bins, &bad, sizeof bad, features), VX_SUCCESS);
  EXPECT_TRUE(logged("params do not fit"));
  const vx_hog_t six_bins{8, 8, 16, 16, 8, 6, 32, 16, 32, 0.2f};  // bins hold 9 per cell: the reads would overrun
  EXPECT_NE(vxuHOGFeatures(context_, image, magnitudes, bins, &six_bins, sizeof six_bins, features), VX_SUCCESS);
  EXPECT_TRUE(logged("bins must be [4, 2, 6]"));
  for (vx_tensor* t : {&magnitudes, &bins, &features}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

}  // namespace
