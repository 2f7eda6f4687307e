// The standard kernels' VX_DF_IMAGE_U1 forms (OpenVX 1.3): Not, And, Or and Xor on U1 images, Threshold
// into a U1 image, ConvertDepth between U1 and U8 / S16, Dilate3x3, Erode3x3, Median3x3 and NonLinearFilter
// on U1 images under each border, MeanStdDev of a U1 image (over its valid region, as for U8). Graph nodes and immediate mode against plain
// reference loops, widths that are not multiples of 8 (the padding bits of a row's last byte), outputs
// that are regions of a larger U1 image (the parent's bits past the region must stay), a chain through a
// virtual U1 image, and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::expect_pixels_eq;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::random_pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::run_node;
using vg_openvx_test::status_of;

using Bits = Pixels<vx_uint8>;  // one U1 pixel per value, 0 or 1
using U8 = Pixels<vx_uint8>;
using S16 = Pixels<vx_int16>;

const vx_uint32 kSizes[][2] = {{13, 5}, {37, 3}, {1, 1}, {64, 2}, {15, 17}};

std::string size_name(vx_uint32 w, vx_uint32 h) { return std::to_string(w) + "x" + std::to_string(h); }

/// The addressing of a packed U1 buffer: rows of whole bytes, pixel x at bit x % 8 of byte x / 8.
vx_imagepatch_addressing_t u1_addressing(vx_uint32 width, vx_uint32 height) {
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = width;
  addr.dim_y = height;
  addr.stride_x = 0;
  addr.stride_x_bits = 1;
  addr.stride_y = static_cast<vx_int32>((width + 7) / 8);
  return addr;
}

void write_bits(vx_image image, const Bits& bits) {
  const vx_uint32 row = (bits.width + 7) / 8;
  std::vector<vx_uint8> buffer(static_cast<std::size_t>(row) * bits.height, 0);
  for (vx_uint32 y = 0; y < bits.height; ++y) {
    for (vx_uint32 x = 0; x < bits.width; ++x) buffer[y * row + x / 8] |= static_cast<vx_uint8>((bits.at(x, y) & 1) << (x % 8));
  }
  const vx_rectangle_t all{0, 0, bits.width, bits.height};
  vx_imagepatch_addressing_t addr = u1_addressing(bits.width, bits.height);
  ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &addr, buffer.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

Bits read_bits(vx_image image) {
  vx_uint32 width = 0, height = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
  const vx_uint32 row = (width + 7) / 8;
  std::vector<vx_uint8> buffer(static_cast<std::size_t>(row) * height, 0);
  const vx_rectangle_t all{0, 0, width, height};
  vx_imagepatch_addressing_t addr = u1_addressing(width, height);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &addr, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  Bits bits(width, height);
  for (vx_uint32 y = 0; y < height; ++y) {
    for (vx_uint32 x = 0; x < width; ++x) bits.at(x, y) = static_cast<vx_uint8>((buffer[y * row + x / 8] >> (x % 8)) & 1);
  }
  return bits;
}

Bits random_bits(vx_uint32 width, vx_uint32 height, std::mt19937& rng) { return random_pixels<vx_uint8>(width, height, rng, 0, 1); }

vx_image u1_image_of(vx_context context, const Bits& bits) {
  vx_image image = vxCreateImage(context, bits.width, bits.height, VX_DF_IMAGE_U1);
  EXPECT_EQ(status_of(image), VX_SUCCESS);
  write_bits(image, bits);
  return image;
}

vx_image u1_image(vx_context context, vx_uint32 width, vx_uint32 height) {
  vx_image image = vxCreateImage(context, width, height, VX_DF_IMAGE_U1);
  EXPECT_EQ(status_of(image), VX_SUCCESS);
  return image;
}

// --- reference loops -------------------------------------------------------------------------------------

template <typename Op>
Bits reference_bits(const Bits& a, const Bits& b, Op op) {
  Bits out(a.width, a.height);
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] = static_cast<vx_uint8>(op(a.values[i], b.values[i]) & 1);
  return out;
}

template <typename T>
Bits reference_threshold(const Pixels<T>& in, vx_enum type, int value, int lower, int upper) {
  Bits out(in.width, in.height);
  for (std::size_t i = 0; i < out.values.size(); ++i) {
    const int p = in.values[i];
    const bool pass = type == VX_THRESHOLD_TYPE_BINARY ? p > value : !(p > upper || p < lower);
    out.values[i] = pass ? 1 : 0;
  }
  return out;
}

// --- Not, And, Or, Xor -----------------------------------------------------------------------------------

using BinaryNode = vx_node (*)(vx_graph, vx_image, vx_image, vx_image);
using BinaryVxu = vx_status (*)(vx_context, vx_image, vx_image, vx_image);

struct BinaryOp {
  const char* name;
  BinaryNode node;
  BinaryVxu vxu;
  int (*op)(int, int);
};

const BinaryOp kBinaryOps[] = {
    {"And", vxAndNode, vxuAnd, [](int a, int b) { return a & b; }},
    {"Or", vxOrNode, vxuOr, [](int a, int b) { return a | b; }},
    {"Xor", vxXorNode, vxuXor, [](int a, int b) { return a ^ b; }},
};

class U1Kernels : public OpenVx {};

TEST_F(U1Kernels, NotInvertsEveryPixelInGraphAndImmediateMode) {
  std::mt19937 rng(11);
  for (const auto& size : kSizes) {
    const Bits in = random_bits(size[0], size[1], rng);
    Bits expected(in.width, in.height);
    for (std::size_t i = 0; i < in.values.size(); ++i) expected.values[i] = static_cast<vx_uint8>(1 - in.values[i]);
    vx_image input = u1_image_of(context_, in);
    vx_image output = u1_image(context_, in.width, in.height);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxNotNode(g, input, output); }), VX_SUCCESS);
    expect_pixels_eq(read_bits(output), expected, "Not graph " + size_name(in.width, in.height));
    write_bits(output, Bits(in.width, in.height));
    ASSERT_EQ(vxuNot(context_, input, output), VX_SUCCESS);
    expect_pixels_eq(read_bits(output), expected, "vxuNot " + size_name(in.width, in.height));
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  }
}

TEST_F(U1Kernels, AndOrXorCombineEveryPixelInGraphAndImmediateMode) {
  std::mt19937 rng(12);
  for (const BinaryOp& op : kBinaryOps) {
    for (const auto& size : kSizes) {
      const Bits a = random_bits(size[0], size[1], rng), b = random_bits(size[0], size[1], rng);
      const Bits expected = reference_bits(a, b, op.op);
      vx_image in1 = u1_image_of(context_, a);
      vx_image in2 = u1_image_of(context_, b);
      vx_image out = u1_image(context_, a.width, a.height);
      const std::string what = std::string(op.name) + " " + size_name(a.width, a.height);
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return op.node(g, in1, in2, out); }), VX_SUCCESS) << what;
      expect_pixels_eq(read_bits(out), expected, what + " graph");
      write_bits(out, Bits(a.width, a.height));
      ASSERT_EQ(op.vxu(context_, in1, in2, out), VX_SUCCESS) << what;
      expect_pixels_eq(read_bits(out), expected, what + " vxu");
      EXPECT_EQ(vxReleaseImage(&in1), VX_SUCCESS);
      EXPECT_EQ(vxReleaseImage(&in2), VX_SUCCESS);
      EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
    }
  }
}

TEST_F(U1Kernels, OutputRegionKeepsTheParentsBitsPastItsWidth) {
  // A 13-pixel-wide region of a 24-pixel-wide U1 image shares its second byte with parent pixels 13..15.
  std::mt19937 rng(13);
  const Bits parent_bits = random_bits(24, 4, rng);
  const Bits a = random_bits(13, 4, rng), b = random_bits(13, 4, rng);
  for (const BinaryOp& op : kBinaryOps) {
    vx_image parent = u1_image_of(context_, parent_bits);
    const vx_rectangle_t rect{8, 0, 21, 4};
    vx_image region = vxCreateImageFromROI(parent, &rect);
    ASSERT_EQ(status_of(region), VX_SUCCESS);
    vx_image in1 = u1_image_of(context_, a);
    vx_image in2 = u1_image_of(context_, b);
    ASSERT_EQ(op.vxu(context_, in1, in2, region), VX_SUCCESS);
    Bits expected = parent_bits;
    const Bits result = reference_bits(a, b, op.op);
    for (vx_uint32 y = 0; y < 4; ++y) {
      for (vx_uint32 x = 0; x < 13; ++x) expected.at(x + 8, y) = result.at(x, y);
    }
    expect_pixels_eq(read_bits(parent), expected, std::string(op.name) + " into a region");
    EXPECT_EQ(vxReleaseImage(&in1), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&in2), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&region), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&parent), VX_SUCCESS);
  }
  // Not into a region whose width is a multiple of 8 but whose parent continues.
  vx_image parent = u1_image_of(context_, parent_bits);
  const vx_rectangle_t rect{0, 1, 5, 3};
  vx_image region = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(region), VX_SUCCESS);
  const Bits in_bits = random_bits(5, 2, rng);
  vx_image input = u1_image_of(context_, in_bits);
  ASSERT_EQ(vxuNot(context_, input, region), VX_SUCCESS);
  Bits expected = parent_bits;
  for (vx_uint32 y = 0; y < 2; ++y) {
    for (vx_uint32 x = 0; x < 5; ++x) expected.at(x, y + 1) = static_cast<vx_uint8>(1 - in_bits.at(x, y));
  }
  expect_pixels_eq(read_bits(parent), expected, "Not into a 5-pixel region");
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&region), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&parent), VX_SUCCESS);
}

TEST_F(U1Kernels, BitwiseOutputTakesTheInputsFormatAndMixedFormatsAreRefused) {
  vx_graph graph = vxCreateGraph(context_);
  vx_image a = u1_image(context_, 37, 3);
  vx_image b = u1_image(context_, 37, 3);
  vx_image u8 = vxCreateImage(context_, 37, 3, VX_DF_IMAGE_U8);
  vx_image u8_out = vxCreateImage(context_, 37, 3, VX_DF_IMAGE_U8);
  vx_image virt = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node n = vxAndNode(graph, a, b, virt);
  ASSERT_EQ(status_of(n), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(virt, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U1));
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);

  EXPECT_NE(vxuAnd(context_, a, u8, b), VX_SUCCESS);     // U1 and U8 in
  EXPECT_NE(vxuOr(context_, a, b, u8_out), VX_SUCCESS);  // U1 in, U8 out
  EXPECT_NE(vxuNot(context_, a, u8_out), VX_SUCCESS);
  EXPECT_NE(vxuNot(context_, u8, b), VX_SUCCESS);
  vx_image small = u1_image(context_, 36, 3);
  EXPECT_NE(vxuXor(context_, a, b, small), VX_SUCCESS);
  for (vx_image* image : {&a, &b, &u8, &u8_out, &virt, &small}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}

// --- Threshold -------------------------------------------------------------------------------------------

template <typename T>
void check_threshold_u1(vx_context context, vx_enum type, bool graph, std::mt19937& rng) {
  for (const auto& size : kSizes) {
    const Pixels<T> in = std::is_same_v<T, vx_uint8> ? random_pixels<T>(size[0], size[1], rng)
                                                      : random_pixels<T>(size[0], size[1], rng, -300, 300);
    const int value = std::is_same_v<T, vx_uint8> ? 100 : -20, lower = std::is_same_v<T, vx_uint8> ? 60 : -100,
              upper = std::is_same_v<T, vx_uint8> ? 190 : 150;
    vx_image input = image_of(context, in);
    vx_image output = u1_image(context, in.width, in.height);
    vx_threshold thresh = vxCreateThresholdForImage(context, type, vg_openvx_test::format_of<T>(), VX_DF_IMAGE_U1);
    ASSERT_EQ(status_of(thresh), VX_SUCCESS);
    vx_pixel_value_t v{}, lo{}, hi{}, t{}, f{};
    v.S32 = value;
    lo.S32 = lower;
    hi.S32 = upper;
    if constexpr (std::is_same_v<T, vx_int16>) {
      v.S16 = static_cast<vx_int16>(value);
      lo.S16 = static_cast<vx_int16>(lower);
      hi.S16 = static_cast<vx_int16>(upper);
    }
    t.S32 = 255;  // as the conformance suite sets it: any non-zero true value sets the bit
    f.S32 = 0;
    if (type == VX_THRESHOLD_TYPE_BINARY) {
      ASSERT_EQ(vxCopyThresholdValue(thresh, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    } else {
      ASSERT_EQ(vxCopyThresholdRange(thresh, &lo, &hi, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    }
    ASSERT_EQ(vxCopyThresholdOutput(thresh, &t, &f, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    const vx_status status = graph ? run_node(context, [&](vx_graph g) { return vxThresholdNode(g, input, thresh, output); })
                                   : vxuThreshold(context, input, thresh, output);
    ASSERT_EQ(status, VX_SUCCESS);
    expect_pixels_eq(read_bits(output), reference_threshold(in, type, value, lower, upper),
                     std::string("Threshold to U1 ") + (type == VX_THRESHOLD_TYPE_BINARY ? "BINARY " : "RANGE ") +
                         (graph ? "graph " : "vxu ") + size_name(in.width, in.height));
    EXPECT_EQ(vxReleaseThreshold(&thresh), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  }
}

TEST_F(U1Kernels, ThresholdIntoU1BinaryAndRangeFromU8AndS16) {
  std::mt19937 rng(14);
  for (vx_enum type : {VX_THRESHOLD_TYPE_BINARY, VX_THRESHOLD_TYPE_RANGE}) {
    for (bool graph : {true, false}) {
      check_threshold_u1<vx_uint8>(context_, type, graph, rng);
      check_threshold_u1<vx_int16>(context_, type, graph, rng);
    }
  }
}

TEST_F(U1Kernels, ThresholdDefaultTrueValueSetsTheBitAndFormatsMustMatch) {
  std::mt19937 rng(15);
  const U8 in = random_pixels<vx_uint8>(13, 3, rng);
  vx_image input = image_of(context_, in);
  vx_image output = u1_image(context_, 13, 3);
  vx_image u8_out = vxCreateImage(context_, 13, 3, VX_DF_IMAGE_U8);
  vx_threshold thresh = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U1);
  vx_pixel_value_t v{};
  v.U8 = 128;
  ASSERT_EQ(vxCopyThresholdValue(thresh, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxuThreshold(context_, input, thresh, output), VX_SUCCESS);
  expect_pixels_eq(read_bits(output), reference_threshold(in, VX_THRESHOLD_TYPE_BINARY, 128, 0, 0), "default true and false values");
  EXPECT_NE(vxuThreshold(context_, input, thresh, u8_out), VX_SUCCESS);  // the threshold makes U1
  vx_threshold thresh_u8 = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  EXPECT_NE(vxuThreshold(context_, input, thresh_u8, output), VX_SUCCESS);  // the threshold makes U8
  EXPECT_EQ(vxReleaseThreshold(&thresh), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&thresh_u8), VX_SUCCESS);
  for (vx_image* image : {&input, &output, &u8_out}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}

// --- ConvertDepth ----------------------------------------------------------------------------------------

vx_status convert(vx_context context, vx_image in, vx_image out, vx_enum policy, vx_int32 shift, bool graph) {
  if (!graph) return vxuConvertDepth(context, in, out, policy, shift);
  vx_scalar s = vxCreateScalar(context, VX_TYPE_INT32, &shift);
  const vx_status status = run_node(context, [&](vx_graph g) { return vxConvertDepthNode(g, in, out, policy, s); });
  EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  return status;
}

TEST_F(U1Kernels, ConvertDepthToU1SetsNonZeroPixelsIgnoringPolicyAndShift) {
  std::mt19937 rng(16);
  for (const auto& size : kSizes) {
    U8 in8 = random_pixels<vx_uint8>(size[0], size[1], rng, 0, 3);  // many zeros
    S16 in16 = random_pixels<vx_int16>(size[0], size[1], rng, -2, 2);
    Bits expected8(in8.width, in8.height), expected16(in16.width, in16.height);
    for (std::size_t i = 0; i < in8.values.size(); ++i) expected8.values[i] = in8.values[i] != 0 ? 1 : 0;
    for (std::size_t i = 0; i < in16.values.size(); ++i) expected16.values[i] = in16.values[i] != 0 ? 1 : 0;
    vx_image src8 = image_of(context_, in8);
    vx_image src16 = image_of(context_, in16);
    vx_image out = u1_image(context_, in8.width, in8.height);
    for (bool graph : {true, false}) {
      for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
        for (vx_int32 shift : {0, 3, 7}) {
          const std::string what = size_name(in8.width, in8.height) + (graph ? " graph" : " vxu") + " shift " + std::to_string(shift);
          ASSERT_EQ(convert(context_, src8, out, policy, shift, graph), VX_SUCCESS) << what;
          expect_pixels_eq(read_bits(out), expected8, "U8 -> U1 " + what);
          ASSERT_EQ(convert(context_, src16, out, policy, shift, graph), VX_SUCCESS) << what;
          expect_pixels_eq(read_bits(out), expected16, "S16 -> U1 " + what);
        }
      }
    }
    for (vx_image* image : {&src8, &src16, &out}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
  }
}

TEST_F(U1Kernels, ConvertDepthFromU1GivesAllBitsSetOrZero) {
  std::mt19937 rng(17);
  for (const auto& size : kSizes) {
    const Bits in = random_bits(size[0], size[1], rng);
    U8 expected8(in.width, in.height);
    S16 expected16(in.width, in.height);
    for (std::size_t i = 0; i < in.values.size(); ++i) {
      expected8.values[i] = in.values[i] != 0 ? 255 : 0;
      expected16.values[i] = static_cast<vx_int16>(in.values[i] != 0 ? -1 : 0);
    }
    vx_image src = u1_image_of(context_, in);
    vx_image out8 = vxCreateImage(context_, in.width, in.height, VX_DF_IMAGE_U8);
    vx_image out16 = vxCreateImage(context_, in.width, in.height, VX_DF_IMAGE_S16);
    for (bool graph : {true, false}) {
      for (vx_int32 shift : {0, 5}) {
        const std::string what = size_name(in.width, in.height) + (graph ? " graph" : " vxu") + " shift " + std::to_string(shift);
        ASSERT_EQ(convert(context_, src, out8, VX_CONVERT_POLICY_SATURATE, shift, graph), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_uint8>(out8), expected8, "U1 -> U8 " + what);
        ASSERT_EQ(convert(context_, src, out16, VX_CONVERT_POLICY_WRAP, shift, graph), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_int16>(out16), expected16, "U1 -> S16 " + what);
      }
    }
    for (vx_image* image : {&src, &out8, &out16}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
  }
}

TEST_F(U1Kernels, ConvertDepthRefusesU1ToU1AndSizeMismatch) {
  vx_image a = u1_image(context_, 16, 4);
  vx_image b = u1_image(context_, 16, 4);
  vx_image wide = vxCreateImage(context_, 24, 4, VX_DF_IMAGE_U8);
  EXPECT_NE(vxuConvertDepth(context_, a, b, VX_CONVERT_POLICY_WRAP, 0), VX_SUCCESS);
  EXPECT_NE(vxuConvertDepth(context_, a, wide, VX_CONVERT_POLICY_WRAP, 0), VX_SUCCESS);
  EXPECT_NE(vxuConvertDepth(context_, wide, a, VX_CONVERT_POLICY_WRAP, 0), VX_SUCCESS);
  for (vx_image* image : {&a, &b, &wide}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}

// --- Dilate3x3, Erode3x3, Median3x3, NonLinearFilter --------------------------------------------------------

/// Input pixel (x, y), outside the image the border's: CONSTANT its U1 value, otherwise the nearest edge
/// pixel (REPLICATE; UNDEFINED is compared only where the window lies inside).
int bit_sample(const Bits& in, int x, int y, const vx_border_t& border) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  if (x < 0 || y < 0 || x >= w || y >= h) {
    if (border.mode == VX_BORDER_CONSTANT) return border.constant_value.U1 != vx_false_e ? 1 : 0;
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
  }
  return in.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
}

/// MIN, MAX or MEDIAN (the value at index n / 2 of the n selected values sorted) over the pixels a mask of
/// @p rows x @p cols with origin (@p ox, @p oy) selects.
Bits reference_nonlinear(const Bits& in, vx_enum function, const std::vector<vx_uint8>& mask, int rows, int cols, int ox, int oy,
                         const vx_border_t& border) {
  Bits out(in.width, in.height);
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      std::vector<int> v;
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
          if (mask[static_cast<std::size_t>(r * cols + c)] != 0) v.push_back(bit_sample(in, static_cast<int>(x) + c - ox, static_cast<int>(y) + r - oy, border));
        }
      }
      std::sort(v.begin(), v.end());
      const int value = function == VX_NONLINEAR_FILTER_MIN ? v.front() : function == VX_NONLINEAR_FILTER_MAX ? v.back() : v[v.size() / 2];
      out.at(x, y) = static_cast<vx_uint8>(value);
    }
  }
  return out;
}

using FilterNode = vx_node (*)(vx_graph, vx_image, vx_image);
using FilterVxu = vx_status (*)(vx_context, vx_image, vx_image);

struct Filter3x3 {
  const char* name;
  FilterNode node;
  FilterVxu vxu;
  vx_enum function;  // the NonLinearFilter function it equals on a full 3x3 mask
};

const Filter3x3 kFilters[] = {
    {"Dilate3x3", vxDilate3x3Node, vxuDilate3x3, VX_NONLINEAR_FILTER_MAX},
    {"Erode3x3", vxErode3x3Node, vxuErode3x3, VX_NONLINEAR_FILTER_MIN},
    {"Median3x3", vxMedian3x3Node, vxuMedian3x3, VX_NONLINEAR_FILTER_MEDIAN},
};

vx_border_t u1_border(vx_enum mode, bool constant = false) {
  vx_border_t b{};
  b.mode = mode;
  b.constant_value.U1 = constant ? vx_true_e : vx_false_e;
  return b;
}

const vx_border_t kU1Borders[] = {u1_border(VX_BORDER_UNDEFINED), u1_border(VX_BORDER_REPLICATE), u1_border(VX_BORDER_CONSTANT, false),
                                  u1_border(VX_BORDER_CONSTANT, true)};

TEST_F(U1Kernels, Dilate3x3Erode3x3Median3x3OnU1UnderEveryBorder) {
  std::mt19937 rng(19);
  const std::vector<vx_uint8> full(9, 1);
  for (const Filter3x3& f : kFilters) {
    for (const vx_border_t& border : kU1Borders) {
      for (const auto& size : kSizes) {
        const Bits in = random_bits(size[0], size[1], rng);
        const Bits expected = reference_nonlinear(in, f.function, full, 3, 3, 1, 1, border);
        const vx_uint32 margin = border.mode == VX_BORDER_UNDEFINED ? 1 : 0;
        vx_image input = u1_image_of(context_, in);
        vx_image output = u1_image(context_, in.width, in.height);
        const std::string what = std::string(f.name) + " " + size_name(in.width, in.height) + " border " + std::to_string(border.mode) +
                                 "/" + std::to_string(border.constant_value.U1);
        ASSERT_EQ(run_node(context_,
                           [&](vx_graph g) {
                             vx_node n = f.node(g, input, output);
                             EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
                             return n;
                           }),
                  VX_SUCCESS)
            << what;
        expect_pixels_eq(read_bits(output), expected, what + " graph", margin, margin);
        ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
        write_bits(output, Bits(in.width, in.height));
        ASSERT_EQ(f.vxu(context_, input, output), VX_SUCCESS) << what;
        expect_pixels_eq(read_bits(output), expected, what + " vxu", margin, margin);
        EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
        EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
      }
    }
  }
  const vx_border_t undefined = u1_border(VX_BORDER_UNDEFINED);
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &undefined, sizeof undefined), VX_SUCCESS);
}

TEST_F(U1Kernels, NonLinearFilterOnU1WithMasksWithHolesAndOffCentre) {
  std::mt19937 rng(20);
  struct Mask {
    vx_matrix matrix;
    int cols, rows, ox, oy;
    std::vector<vx_uint8> values;
  };
  // A 5x3 mask (columns x rows) with holes, centred; a 3x5 box whose origin is its bottom-left entry.
  const std::vector<vx_uint8> holes = {1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1};
  vx_matrix with_holes = vxCreateMatrix(context_, VX_TYPE_UINT8, 5, 3);
  ASSERT_EQ(vxCopyMatrix(with_holes, const_cast<vx_uint8*>(holes.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  Mask masks[] = {{with_holes, 5, 3, 2, 1, holes},
                  {vxCreateMatrixFromPatternAndOrigin(context_, VX_PATTERN_BOX, 3, 5, 0, 4), 3, 5, 0, 4, std::vector<vx_uint8>(15, 1)}};
  for (Mask& mask : masks) {
    ASSERT_EQ(status_of(mask.matrix), VX_SUCCESS);
    for (vx_enum function : {VX_NONLINEAR_FILTER_MIN, VX_NONLINEAR_FILTER_MAX, VX_NONLINEAR_FILTER_MEDIAN}) {
      for (const vx_border_t& border : kU1Borders) {
        if (border.mode == VX_BORDER_UNDEFINED) continue;
        for (const auto& size : kSizes) {
          const Bits in = random_bits(size[0], size[1], rng);
          const Bits expected = reference_nonlinear(in, function, mask.values, mask.rows, mask.cols, mask.ox, mask.oy, border);
          vx_image input = u1_image_of(context_, in);
          vx_image output = u1_image(context_, in.width, in.height);
          const std::string what = "NonLinearFilter " + std::to_string(function) + " mask " + std::to_string(mask.cols) + "x" +
                                   std::to_string(mask.rows) + " " + size_name(in.width, in.height) + " border " +
                                   std::to_string(border.mode) + "/" + std::to_string(border.constant_value.U1);
          ASSERT_EQ(run_node(context_,
                             [&](vx_graph g) {
                               vx_node n = vxNonLinearFilterNode(g, function, input, mask.matrix, output);
                               EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
                               return n;
                             }),
                    VX_SUCCESS)
              << what;
          expect_pixels_eq(read_bits(output), expected, what + " graph");
          ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
          write_bits(output, Bits(in.width, in.height));
          ASSERT_EQ(vxuNonLinearFilter(context_, function, input, mask.matrix, output), VX_SUCCESS) << what;
          expect_pixels_eq(read_bits(output), expected, what + " vxu");
          EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
          EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
        }
      }
    }
    EXPECT_EQ(vxReleaseMatrix(&mask.matrix), VX_SUCCESS);
  }
  const vx_border_t undefined = u1_border(VX_BORDER_UNDEFINED);
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &undefined, sizeof undefined), VX_SUCCESS);
}

TEST_F(U1Kernels, FiltersWithoutAU1FormRefuseIt) {
  vx_image in = u1_image(context_, 13, 5);
  vx_image out = u1_image(context_, 13, 5);
  vx_image u8_out = vxCreateImage(context_, 13, 5, VX_DF_IMAGE_U8);
  EXPECT_NE(vxuBox3x3(context_, in, out), VX_SUCCESS);
  EXPECT_NE(vxuGaussian3x3(context_, in, out), VX_SUCCESS);
  EXPECT_NE(vxuDilate3x3(context_, in, u8_out), VX_SUCCESS);  // U1 in makes U1 out
  for (vx_image* image : {&in, &out, &u8_out}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}

// --- MeanStdDev -------------------------------------------------------------------------------------------

/// Mean and population standard deviation of @p values in the rectangle [x0, x1) x [y0, y1).
std::pair<double, double> reference_mean_stddev(const Pixels<vx_uint8>& values, vx_uint32 x0, vx_uint32 y0, vx_uint32 x1, vx_uint32 y1) {
  double sum = 0, n = 0;
  for (vx_uint32 y = y0; y < y1; ++y) {
    for (vx_uint32 x = x0; x < x1; ++x) sum += values.at(x, y), n += 1;
  }
  const double mean = sum / n;
  double squares = 0;
  for (vx_uint32 y = y0; y < y1; ++y) {
    for (vx_uint32 x = x0; x < x1; ++x) squares += (values.at(x, y) - mean) * (values.at(x, y) - mean);
  }
  return {mean, std::sqrt(squares / n)};
}

TEST_F(U1Kernels, MeanStdDevOfU1PixelsOverTheValidRegion) {
  std::mt19937 rng(21);
  for (const auto& size : kSizes) {
    const Bits in = random_bits(size[0], size[1], rng);
    vx_image input = u1_image_of(context_, in);
    for (vx_uint32 shrink : {0u, 1u, 3u}) {
      if (2 * shrink >= in.width || 2 * shrink >= in.height) continue;
      const vx_rectangle_t rect{shrink, shrink, in.width - shrink, in.height - shrink};
      ASSERT_EQ(vxSetImageValidRectangle(input, &rect), VX_SUCCESS);
      const auto [mean, stddev] = reference_mean_stddev(in, rect.start_x, rect.start_y, rect.end_x, rect.end_y);
      for (bool graph : {true, false}) {
        vx_float32 m = -1, d = -1;
        if (graph) {
          vx_scalar ms = vxCreateScalar(context_, VX_TYPE_FLOAT32, &m), ds = vxCreateScalar(context_, VX_TYPE_FLOAT32, &d);
          ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxMeanStdDevNode(g, input, ms, ds); }), VX_SUCCESS);
          EXPECT_EQ(vxCopyScalar(ms, &m, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
          EXPECT_EQ(vxCopyScalar(ds, &d, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
          EXPECT_EQ(vxReleaseScalar(&ms), VX_SUCCESS);
          EXPECT_EQ(vxReleaseScalar(&ds), VX_SUCCESS);
        } else {
          ASSERT_EQ(vxuMeanStdDev(context_, input, &m, &d), VX_SUCCESS);
        }
        const std::string what = size_name(in.width, in.height) + " shrink " + std::to_string(shrink) + (graph ? " graph" : " vxu");
        EXPECT_NEAR(m, mean, 1e-5) << what;
        EXPECT_NEAR(d, stddev, 1e-5) << what;
      }
    }
    EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
  }
}

TEST_F(U1Kernels, MeanStdDevOfU8PixelsOverTheValidRegion) {
  std::mt19937 rng(22);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng);
  vx_image input = image_of(context_, in);
  const vx_rectangle_t rect{7, 2, 30, 11};
  ASSERT_EQ(vxSetImageValidRectangle(input, &rect), VX_SUCCESS);
  const auto [mean, stddev] = reference_mean_stddev(in, rect.start_x, rect.start_y, rect.end_x, rect.end_y);
  vx_float32 m = -1, d = -1;
  ASSERT_EQ(vxuMeanStdDev(context_, input, &m, &d), VX_SUCCESS);
  EXPECT_NEAR(m, mean, 1e-3);
  EXPECT_NEAR(d, stddev, 1e-3);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

// --- a chain --------------------------------------------------------------------------------------------

TEST_F(U1Kernels, ChainThroughVirtualU1Images) {
  // U8 -> Threshold -> virtual U1 -> Not -> virtual U1 -> Xor with a U1 image -> U1 -> ConvertDepth -> U8.
  std::mt19937 rng(18);
  const U8 in = random_pixels<vx_uint8>(37, 9, rng);
  const Bits other = random_bits(37, 9, rng);
  vx_graph graph = vxCreateGraph(context_);
  vx_image input = image_of(context_, in);
  vx_image other_image = u1_image_of(context_, other);
  vx_image v1 = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image v2 = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image v3 = vxCreateVirtualImage(graph, 37, 9, VX_DF_IMAGE_U1);
  vx_image output = vxCreateImage(context_, 37, 9, VX_DF_IMAGE_U8);
  vx_threshold thresh = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U1);
  vx_pixel_value_t v{};
  v.U8 = 90;
  ASSERT_EQ(vxCopyThresholdValue(thresh, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_int32 zero = 0;
  vx_scalar shift = vxCreateScalar(context_, VX_TYPE_INT32, &zero);
  vx_node nodes[] = {vxThresholdNode(graph, input, thresh, v1), vxNotNode(graph, v1, v2), vxXorNode(graph, v2, other_image, v3),
                     vxConvertDepthNode(graph, v3, output, VX_CONVERT_POLICY_SATURATE, shift)};
  for (vx_node n : nodes) ASSERT_EQ(status_of(n), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    U8 expected(37, 9);
    for (std::size_t i = 0; i < in.values.size(); ++i) {
      const int bit = (in.values[i] > 90 ? 0 : 1) ^ other.values[i];
      expected.values[i] = bit != 0 ? 255 : 0;
    }
    expect_pixels_eq(read_pixels<vx_uint8>(output), expected, "chain run " + std::to_string(run));
  }
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&shift), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&thresh), VX_SUCCESS);
  for (vx_image* image : {&input, &other_image, &v1, &v2, &v3, &output}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

}  // namespace
