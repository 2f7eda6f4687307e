// Standard kernels (image_misc): results exact to the specification, refusals with a reason, in graphs and
// in immediate mode.
//
// NonLinearFilter (median / min / max over box, cross, disk and custom masks, every border mode; the median of
// an even count is the upper one, index n / 2 of the sorted values, as the Khronos conformance reference
// has it), WeightedAverage (float, truncated), Accumulate, AccumulateWeighted and AccumulateSquare (generic
// nodes: OpenVX 1.3 has no creators for them; the accumulator is bidirectional) and Copy (images of one and
// several planes, scalars, arrays, tensors; virtual outputs; refusals), against plain reference loops.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::random_pixels;
using vg_openvx_test::status_of;

constexpr vx_uint32 kW = 37, kH = 13;

using U8 = Pixels<vx_uint8>;
using S16 = Pixels<vx_int16>;

/// U8 pixels with edge values: blocks of 0 and 255 and random 0 / 1 / 254 / 255 pixels.
U8 edge_u8(std::mt19937& rng) {
  U8 p = random_pixels<vx_uint8>(kW, kH, rng, 0, 255);
  constexpr vx_uint8 kEdges[] = {0, 1, 254, 255};
  std::uniform_int_distribution<int> pick(0, 3);
  for (vx_uint32 y = 0; y < kH; ++y) {
    for (vx_uint32 x = 0; x < kW; ++x) {
      if (y % 3 == 0) p.at(x, y) = kEdges[pick(rng)];
      if (y == 4) p.at(x, y) = 255;
    }
  }
  return p;
}

template <typename T>
void write_plane(vx_image image, const Pixels<T>& p, vx_uint32 plane = 0, vx_uint32 elem = sizeof(T), vx_uint32 step = 1) {
  const vx_rectangle_t all{0, 0, p.width * step, p.height * step};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = p.width * step;
  addr.dim_y = p.height * step;
  addr.stride_x = static_cast<vx_int32>(elem);
  addr.stride_y = static_cast<vx_int32>(p.width * elem);
  addr.step_x = step;
  addr.step_y = step;
  ASSERT_EQ(vxCopyImagePatch(image, &all, plane, &addr, const_cast<T*>(p.values.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

template <typename T>
Pixels<T> read_plane(vx_image image, vx_uint32 width, vx_uint32 height, vx_uint32 plane = 0, vx_uint32 elem = sizeof(T), vx_uint32 step = 1) {
  Pixels<T> p{width, height, std::vector<T>(static_cast<std::size_t>(width) * height * elem / sizeof(T))};
  const vx_rectangle_t all{0, 0, width * step, height * step};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = width * step;
  addr.dim_y = height * step;
  addr.stride_x = static_cast<vx_int32>(elem);
  addr.stride_y = static_cast<vx_int32>(width * elem);
  addr.step_x = step;
  addr.step_y = step;
  EXPECT_EQ(vxCopyImagePatch(image, &all, plane, &addr, p.values.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return p;
}

vx_df_image format_of(vx_image image) {
  vx_df_image f = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &f, sizeof f), VX_SUCCESS);
  return f;
}
vx_uint32 width_of(vx_image image) {
  vx_uint32 w = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  return w;
}

/// A generic node of a standard kernel with @p args (by index).
vx_node generic_node(vx_context context, vx_graph graph, vx_enum kernel_enum, std::initializer_list<vx_reference> args) {
  vx_kernel kernel = vxGetKernelByEnum(context, kernel_enum);
  EXPECT_EQ(status_of(kernel), VX_SUCCESS);
  vx_node node = vxCreateGenericNode(graph, kernel);
  EXPECT_EQ(status_of(node), VX_SUCCESS);
  vx_uint32 i = 0;
  for (vx_reference a : args) EXPECT_EQ(vxSetParameterByIndex(node, i++, a), VX_SUCCESS);
  EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  return node;
}

// --- NonLinearFilter ------------------------------------------------------------------------------------

struct Mask {
  vx_size columns, rows;
  vx_uint32 ox, oy;
  std::vector<vx_uint8> m;
};

Mask mask_of(vx_matrix matrix) {
  Mask k{};
  EXPECT_EQ(vxQueryMatrix(matrix, VX_MATRIX_COLUMNS, &k.columns, sizeof k.columns), VX_SUCCESS);
  EXPECT_EQ(vxQueryMatrix(matrix, VX_MATRIX_ROWS, &k.rows, sizeof k.rows), VX_SUCCESS);
  vx_coordinates2d_t origin{};
  EXPECT_EQ(vxQueryMatrix(matrix, VX_MATRIX_ORIGIN, &origin, sizeof origin), VX_SUCCESS);
  k.ox = origin.x;
  k.oy = origin.y;
  k.m.resize(k.columns * k.rows);
  EXPECT_EQ(vxCopyMatrix(matrix, k.m.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return k;
}

U8 reference_nonlinear(vx_enum function, const U8& in, const Mask& k, const vx_border_t& border) {
  U8 out{in.width, in.height, std::vector<vx_uint8>(in.values.size())};
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      std::vector<int> v;
      for (int r = 0; r < static_cast<int>(k.rows); ++r) {
        for (int c = 0; c < static_cast<int>(k.columns); ++c) {
          if (k.m[r * k.columns + c] == 0) continue;
          const int xx = x + c - static_cast<int>(k.ox), yy = y + r - static_cast<int>(k.oy);
          if ((xx < 0 || yy < 0 || xx >= w || yy >= h) && border.mode == VX_BORDER_CONSTANT) {
            v.push_back(border.constant_value.U8);
          } else {
            v.push_back(in.at(static_cast<vx_uint32>(std::clamp(xx, 0, w - 1)), static_cast<vx_uint32>(std::clamp(yy, 0, h - 1))));
          }
        }
      }
      std::sort(v.begin(), v.end());
      const int r = function == VX_NONLINEAR_FILTER_MIN ? v.front() : function == VX_NONLINEAR_FILTER_MAX ? v.back() : v[v.size() / 2];
      out.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y)) = static_cast<vx_uint8>(r);
    }
  }
  return out;
}

vx_matrix custom_mask(vx_context context, vx_size columns, vx_size rows, const std::vector<vx_uint8>& m) {
  vx_matrix matrix = vxCreateMatrix(context, VX_TYPE_UINT8, columns, rows);
  EXPECT_EQ(vxCopyMatrix(matrix, const_cast<vx_uint8*>(m.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return matrix;
}

TEST_F(OpenVx, NonLinearFilterMatchesTheReferenceForEveryMaskFunctionAndBorder) {
  std::mt19937 rng(11);
  const U8 pixels[] = {random_pixels<vx_uint8>(kW, kH, rng, 0, 255), edge_u8(rng)};
  std::vector<vx_matrix> masks = {
      vxCreateMatrixFromPattern(context_, VX_PATTERN_BOX, 3, 3),   vxCreateMatrixFromPattern(context_, VX_PATTERN_CROSS, 5, 5),
      vxCreateMatrixFromPattern(context_, VX_PATTERN_DISK, 7, 7),  vxCreateMatrixFromPattern(context_, VX_PATTERN_BOX, 9, 3),
      vxCreateMatrixFromPattern(context_, VX_PATTERN_DISK, 9, 9),
      custom_mask(context_, 3, 3, {1, 0, 1, 0, 0, 0, 1, 0, 1}),  // four entries: an even count, the upper median
      vxCreateMatrixFromPatternAndOrigin(context_, VX_PATTERN_BOX, 3, 5, 0, 4),
  };
  for (vx_matrix m : masks) ASSERT_EQ(status_of(m), VX_SUCCESS);
  vx_border_t borders[3] = {};
  borders[0].mode = VX_BORDER_REPLICATE;
  borders[1].mode = VX_BORDER_CONSTANT;
  borders[1].constant_value.U8 = 7;
  borders[2].mode = VX_BORDER_UNDEFINED;
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  for (const U8& p : pixels) {
    write_plane(in, p);
    for (vx_matrix matrix : masks) {
      const Mask k = mask_of(matrix);
      for (vx_enum function : {VX_NONLINEAR_FILTER_MEDIAN, VX_NONLINEAR_FILTER_MIN, VX_NONLINEAR_FILTER_MAX}) {
        for (const vx_border_t& border : borders) {
          vx_graph graph = vxCreateGraph(context_);
          vx_node node = vxNonLinearFilterNode(graph, function, in, matrix, out);
          ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
          ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
          ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
          const U8 got = read_plane<vx_uint8>(out, kW, kH);
          const U8 want = reference_nonlinear(function, p, k, border);
          // Under UNDEFINED only the pixels whose mask lies inside the image are defined.
          const bool undefined = border.mode == VX_BORDER_UNDEFINED;
          const vx_uint32 x0 = undefined ? k.ox : 0, y0 = undefined ? k.oy : 0;
          const vx_uint32 x1 = undefined ? kW - (static_cast<vx_uint32>(k.columns) - 1 - k.ox) : kW;
          const vx_uint32 y1 = undefined ? kH - (static_cast<vx_uint32>(k.rows) - 1 - k.oy) : kH;
          int bad = 0;
          for (vx_uint32 y = y0; y < y1; ++y) {
            for (vx_uint32 x = x0; x < x1; ++x) {
              if (got.at(x, y) != want.at(x, y) && bad++ < 3) {
                ADD_FAILURE() << "at (" << x << ", " << y << ") got " << int(got.at(x, y)) << " want " << int(want.at(x, y)) << " mask "
                              << k.columns << "x" << k.rows << " function " << function << " border " << border.mode;
              }
            }
          }
          if (undefined) {
            vx_rectangle_t valid{};
            ASSERT_EQ(vxGetValidRegionImage(out, &valid), VX_SUCCESS);
            EXPECT_EQ(valid.start_x, x0);
            EXPECT_EQ(valid.start_y, y0);
            EXPECT_EQ(valid.end_x, x1);
            EXPECT_EQ(valid.end_y, y1);
          }
          EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
          EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
        }
      }
    }
  }
  // Immediate mode, with the context's border.
  vx_border_t replicate{};
  replicate.mode = VX_BORDER_REPLICATE;
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxuNonLinearFilter(context_, VX_NONLINEAR_FILTER_MEDIAN, in, masks[1], out), VX_SUCCESS);
  EXPECT_EQ(read_plane<vx_uint8>(out, kW, kH).values, reference_nonlinear(VX_NONLINEAR_FILTER_MEDIAN, pixels[1], mask_of(masks[1]), replicate).values);
  for (vx_matrix& m : masks) EXPECT_EQ(vxReleaseMatrix(&m), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
}

TEST_F(OpenVx, NonLinearFilterVirtualOutputAndRefusals) {
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_matrix box = vxCreateMatrixFromPattern(context_, VX_PATTERN_BOX, 3, 3);
  vx_matrix int32 = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 3);
  vx_matrix even = vxCreateMatrix(context_, VX_TYPE_UINT8, 4, 3);
  vx_matrix zero = vxCreateMatrix(context_, VX_TYPE_UINT8, 3, 3);
  {  // a virtual output of open format and size becomes U8 of the input's size
    vx_graph graph = vxCreateGraph(context_);
    vx_image virt = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node a = vxNonLinearFilterNode(graph, VX_NONLINEAR_FILTER_MAX, in, box, virt);
    vx_node b = vxNotNode(graph, virt, out);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(format_of(virt), static_cast<vx_df_image>(VX_DF_IMAGE_U8));
    EXPECT_EQ(width_of(virt), kW);
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&virt), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  struct Case {
    vx_enum function;
    vx_image input;
    vx_matrix mask;
    vx_status status;
    const char* log;
  };
  const Case cases[] = {
      {VX_NONLINEAR_FILTER_MEDIAN, s16, box, VX_ERROR_INVALID_FORMAT, "input"},
      {VX_NONLINEAR_FILTER_MEDIAN, in, int32, VX_ERROR_INVALID_TYPE, "mask"},
      {VX_NONLINEAR_FILTER_MEDIAN, in, even, VX_ERROR_INVALID_DIMENSION, "mask"},
      {VX_NONLINEAR_FILTER_MEDIAN, in, zero, VX_ERROR_INVALID_VALUE, "mask"},
      {VX_BORDER_CONSTANT, in, box, VX_ERROR_INVALID_VALUE, "function"},
  };
  for (const Case& c : cases) {
    vg_openvx_test::log_lines.clear();
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxNonLinearFilterNode(graph, c.function, c.input, c.mask, out);
    EXPECT_EQ(vxVerifyGraph(graph), c.status) << c.log;
    EXPECT_TRUE(logged(c.log)) << c.log;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseMatrix(&box), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&int32), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&even), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&zero), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&s16), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
}

// --- WeightedAverage ----------------------------------------------------------------------------------------

/// The conformance reference's expression: float arithmetic, truncated (products kept apart so that no
/// multiply-add fuses them).
vx_uint8 reference_weighted(vx_uint8 keep, vx_uint8 take, float alpha) {
  volatile float p1 = (1.0f - alpha) * static_cast<float>(keep);
  volatile float p2 = alpha * static_cast<float>(take);
  const float sum = p1 + p2;
  return static_cast<vx_uint8>(sum);
}

TEST_F(OpenVx, WeightedAverageMatchesTheReferenceInGraphsAndImmediateMode) {
  std::mt19937 rng(5);
  const U8 a = edge_u8(rng), b = random_pixels<vx_uint8>(kW, kH, rng, 0, 255);
  vx_image img1 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image img2 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  write_plane(img1, a);
  write_plane(img2, b);
  for (float alpha : {0.0f, 0.25f, 0.5f, 0.7f, 1.0f, 0.1f}) {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_FLOAT32, &alpha);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxWeightedAverageNode(graph, img1, s, img2, out);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    const U8 got = read_plane<vx_uint8>(out, kW, kH);
    for (vx_uint32 y = 0; y < kH; ++y) {
      for (vx_uint32 x = 0; x < kW; ++x) {
        ASSERT_EQ(int(got.at(x, y)), int(reference_weighted(b.at(x, y), a.at(x, y), alpha))) << alpha << " at " << x << "," << y;
      }
    }
    ASSERT_EQ(vxuWeightedAverage(context_, img2, s, img1, out), VX_SUCCESS);  // swapped: img2 weighted by alpha
    const U8 got2 = read_plane<vx_uint8>(out, kW, kH);
    for (vx_uint32 i = 0; i < got2.values.size(); ++i) {
      ASSERT_EQ(int(got2.values[i]), int(reference_weighted(a.values[i], b.values[i], alpha))) << alpha;
    }
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseImage(&img1), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&img2), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
}

TEST_F(OpenVx, WeightedAverageVirtualOutputAndRefusals) {
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image small = vxCreateImage(context_, kW - 1, kH, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_float32 half = 0.5f, big = 1.5f;
  vx_int32 one = 1;
  vx_scalar alpha = vxCreateScalar(context_, VX_TYPE_FLOAT32, &half);
  vx_scalar too_big = vxCreateScalar(context_, VX_TYPE_FLOAT32, &big);
  vx_scalar int32 = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  {
    vx_graph graph = vxCreateGraph(context_);
    vx_image virt = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node a = vxWeightedAverageNode(graph, in, alpha, in, virt);
    vx_node b = vxNotNode(graph, virt, out);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(format_of(virt), static_cast<vx_df_image>(VX_DF_IMAGE_U8));
    EXPECT_EQ(width_of(virt), kW);
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&virt), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  struct Case {
    vx_image img1;
    vx_scalar alpha;
    vx_image img2;
    vx_status status;
    const char* log;
  };
  const Case cases[] = {
      {s16, alpha, in, VX_ERROR_INVALID_FORMAT, "img1"},
      {in, alpha, s16, VX_ERROR_INVALID_FORMAT, "img2"},
      {in, alpha, small, VX_ERROR_INVALID_PARAMETERS, "img2"},
      {in, int32, in, VX_ERROR_INVALID_TYPE, "alpha"},
      {in, too_big, in, VX_ERROR_INVALID_VALUE, "alpha"},
  };
  for (const Case& c : cases) {
    vg_openvx_test::log_lines.clear();
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxWeightedAverageNode(graph, c.img1, c.alpha, c.img2, out);
    EXPECT_EQ(vxVerifyGraph(graph), c.status) << c.log;
    EXPECT_TRUE(logged(c.log)) << c.log;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  for (vx_scalar* s : {&alpha, &too_big, &int32}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  for (vx_image* i : {&in, &small, &s16, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- the accumulations ----------------------------------------------------------------------------------

TEST_F(OpenVx, AccumulateSaturatesIntoTheS16Accumulator) {
  std::mt19937 rng(3);
  const U8 input = edge_u8(rng);
  S16 accum = random_pixels<vx_int16>(kW, kH, rng, -32768, 32767);
  for (vx_uint32 x = 0; x < kW; ++x) {
    accum.at(x, 0) = 32767;
    accum.at(x, 1) = -32768;
    accum.at(x, 2) = static_cast<vx_int16>(32767 - static_cast<int>(x) * 8);
  }
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image acc = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  write_plane(in, input);
  write_plane(acc, accum);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = generic_node(context_, graph, VX_KERNEL_ACCUMULATE, {ref(in), ref(acc)});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    for (std::size_t i = 0; i < accum.values.size(); ++i) {
      accum.values[i] = static_cast<vx_int16>(std::clamp(accum.values[i] + input.values[i], -32768, 32767));
    }
    EXPECT_EQ(read_plane<vx_int16>(acc, kW, kH).values, accum.values) << run;
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&acc), VX_SUCCESS);
}

TEST_F(OpenVx, AccumulateWeightedMatchesTheReference) {
  std::mt19937 rng(4);
  const U8 input = edge_u8(rng);
  U8 accum = random_pixels<vx_uint8>(kW, kH, rng, 0, 255);
  for (vx_uint32 x = 0; x < kW; ++x) accum.at(x, 1) = x % 2 == 0 ? 0 : 255;
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image acc = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  write_plane(in, input);
  write_plane(acc, accum);
  for (float alpha : {0.3f, 0.0f, 1.0f, 0.5f}) {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_FLOAT32, &alpha);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = generic_node(context_, graph, VX_KERNEL_ACCUMULATE_WEIGHTED, {ref(in), ref(s), ref(acc)});
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    for (std::size_t i = 0; i < accum.values.size(); ++i) accum.values[i] = reference_weighted(accum.values[i], input.values[i], alpha);
    EXPECT_EQ(read_plane<vx_uint8>(acc, kW, kH).values, accum.values) << alpha;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&acc), VX_SUCCESS);
}

TEST_F(OpenVx, AccumulateSquareShiftsAndSaturates) {
  std::mt19937 rng(6);
  const U8 input = edge_u8(rng);
  S16 accum = random_pixels<vx_int16>(kW, kH, rng, -32768, 32767);
  for (vx_uint32 x = 0; x < kW; ++x) {
    accum.at(x, 0) = 32767;
    accum.at(x, 1) = -32768;
  }
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image acc = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  write_plane(in, input);
  write_plane(acc, accum);
  for (vx_uint32 shift : {0u, 3u, 15u, 1u}) {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_UINT32, &shift);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = generic_node(context_, graph, VX_KERNEL_ACCUMULATE_SQUARE, {ref(in), ref(s), ref(acc)});
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    for (std::size_t i = 0; i < accum.values.size(); ++i) {
      const int sq = (static_cast<int>(input.values[i]) * input.values[i]) >> shift;
      accum.values[i] = static_cast<vx_int16>(std::clamp(accum.values[i] + sq, -32768, 32767));
    }
    EXPECT_EQ(read_plane<vx_int16>(acc, kW, kH).values, accum.values) << shift;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&acc), VX_SUCCESS);
}

TEST_F(OpenVx, AccumulationsRefuseWrongFormatsSizesAndScalars) {
  vx_image u8 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image u8b = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  vx_image s16_small = vxCreateImage(context_, kW, kH - 1, VX_DF_IMAGE_S16);
  vx_float32 half = 0.5f, big = 2.0f;
  vx_uint32 shift16 = 16, shift2 = 2;
  vx_scalar alpha = vxCreateScalar(context_, VX_TYPE_FLOAT32, &half);
  vx_scalar bad_alpha = vxCreateScalar(context_, VX_TYPE_FLOAT32, &big);
  vx_scalar shift = vxCreateScalar(context_, VX_TYPE_UINT32, &shift2);
  vx_scalar bad_shift = vxCreateScalar(context_, VX_TYPE_UINT32, &shift16);
  struct Case {
    vx_enum kernel;
    std::vector<vx_reference> args;
    vx_status status;
    const char* log;
  };
  const Case cases[] = {
      {VX_KERNEL_ACCUMULATE, {ref(s16), ref(s16)}, VX_ERROR_INVALID_FORMAT, "input"},
      {VX_KERNEL_ACCUMULATE, {ref(u8), ref(u8b)}, VX_ERROR_INVALID_FORMAT, "accum"},
      {VX_KERNEL_ACCUMULATE, {ref(u8), ref(s16_small)}, VX_ERROR_INVALID_PARAMETERS, "accum"},
      {VX_KERNEL_ACCUMULATE_WEIGHTED, {ref(u8), ref(bad_alpha), ref(u8b)}, VX_ERROR_INVALID_VALUE, "alpha"},
      {VX_KERNEL_ACCUMULATE_WEIGHTED, {ref(u8), ref(shift), ref(u8b)}, VX_ERROR_INVALID_TYPE, "alpha"},
      {VX_KERNEL_ACCUMULATE_WEIGHTED, {ref(u8), ref(alpha), ref(s16)}, VX_ERROR_INVALID_FORMAT, "accum"},
      {VX_KERNEL_ACCUMULATE_SQUARE, {ref(u8), ref(bad_shift), ref(s16)}, VX_ERROR_INVALID_VALUE, "shift"},
      {VX_KERNEL_ACCUMULATE_SQUARE, {ref(u8), ref(alpha), ref(s16)}, VX_ERROR_INVALID_TYPE, "shift"},
  };
  for (const Case& c : cases) {
    vg_openvx_test::log_lines.clear();
    vx_graph graph = vxCreateGraph(context_);
    vx_kernel kernel = vxGetKernelByEnum(context_, c.kernel);
    vx_node node = vxCreateGenericNode(graph, kernel);
    for (vx_uint32 i = 0; i < c.args.size(); ++i) ASSERT_EQ(vxSetParameterByIndex(node, i, c.args[i]), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), c.status) << c.log;
    EXPECT_TRUE(logged(c.log)) << c.log;
    EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  for (vx_scalar* s : {&alpha, &bad_alpha, &shift, &bad_shift}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  for (vx_image* i : {&u8, &u8b, &s16, &s16_small}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- Copy ---------------------------------------------------------------------------------------------

TEST_F(OpenVx, CopyCopiesImagesOfEveryPlane) {
  std::mt19937 rng(8);
  {  // U8, through a virtual image of open attributes: in -> virt -> out
    const U8 p = edge_u8(rng);
    vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
    vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
    write_plane(in, p);
    vx_graph graph = vxCreateGraph(context_);
    vx_image virt = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node a = vxCopyNode(graph, ref(in), ref(virt));
    vx_node b = vxCopyNode(graph, ref(virt), ref(out));
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    EXPECT_EQ(format_of(virt), static_cast<vx_df_image>(VX_DF_IMAGE_U8));
    EXPECT_EQ(width_of(virt), kW);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(read_plane<vx_uint8>(out, kW, kH).values, p.values);
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&virt), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  }
  {  // RGB, immediate mode
    const U8 p = random_pixels<vx_uint8>(kW * 3, kH, rng, 0, 255);
    vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_RGB);
    vx_image out = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_RGB);
    write_plane(in, U8{kW, kH, p.values}, 0, 3);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    EXPECT_EQ(read_plane<vx_uint8>(out, kW, kH, 0, 3).values, p.values);
    EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  }
  {  // NV12 (38x14: even sizes), both planes, in a graph
    constexpr vx_uint32 w = 38, h = 14;
    const U8 y = random_pixels<vx_uint8>(w, h, rng, 0, 255);
    const U8 uv = random_pixels<vx_uint8>(w, h / 2, rng, 0, 255);  // w / 2 pairs per row
    vx_image in = vxCreateImage(context_, w, h, VX_DF_IMAGE_NV12);
    vx_image out = vxCreateImage(context_, w, h, VX_DF_IMAGE_NV12);
    write_plane(in, y);
    write_plane(in, U8{w / 2, h / 2, uv.values}, 1, 2, 2);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxCopyNode(graph, ref(in), ref(out));
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(read_plane<vx_uint8>(out, w, h).values, y.values);
    EXPECT_EQ(read_plane<vx_uint8>(out, w / 2, h / 2, 1, 2, 2).values, uv.values);
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  }
}

TEST_F(OpenVx, CopyCopiesScalarsArraysAndTensors) {
  {  // scalar
    vx_int32 a = -123456, b = 0;
    vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &a);
    vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, &b);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    EXPECT_EQ(vg_openvx_test::read_int32(out), -123456);
    EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&out), VX_SUCCESS);
  }
  {  // array: the items and their count
    vx_array in = vxCreateArray(context_, VX_TYPE_INT32, 10);
    vx_array out = vxCreateArray(context_, VX_TYPE_INT32, 10);
    const vx_int32 items[] = {1, -2, 2147483647, -2147483647 - 1, 5};
    const vx_int32 old[] = {9, 9};
    ASSERT_EQ(vxAddArrayItems(in, 5, items, sizeof(vx_int32)), VX_SUCCESS);
    ASSERT_EQ(vxAddArrayItems(out, 2, old, sizeof(vx_int32)), VX_SUCCESS);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxCopyNode(graph, ref(in), ref(out));
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    vx_size n = 0;
    ASSERT_EQ(vxQueryArray(out, VX_ARRAY_NUMITEMS, &n, sizeof n), VX_SUCCESS);
    ASSERT_EQ(n, 5u);
    vx_int32 got[5] = {};
    ASSERT_EQ(vxCopyArrayRange(out, 0, 5, sizeof(vx_int32), got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_TRUE(std::equal(got, got + 5, items));
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseArray(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseArray(&out), VX_SUCCESS);
  }
  {  // tensor, 3-D S16
    const vx_size dims[3] = {5, 3, 2};
    vx_tensor in = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 0);
    vx_tensor out = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 0);
    std::vector<vx_int16> values(30);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<vx_int16>(i % 2 == 0 ? 32767 - i : -32768 + i);
    const vx_size start[3] = {0, 0, 0};
    const vx_size strides[3] = {2, 10, 30};
    ASSERT_EQ(vxCopyTensorPatch(in, 3, start, dims, strides, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    std::vector<vx_int16> got(30);
    ASSERT_EQ(vxCopyTensorPatch(out, 3, start, dims, strides, got.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(got, values);
    EXPECT_EQ(vxReleaseTensor(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseTensor(&out), VX_SUCCESS);
  }
}

TEST_F(OpenVx, CopyCopiesLutsMatricesConvolutionsAndDistributions) {
  {  // LUT
    vx_lut in = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
    vx_lut out = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
    std::vector<vx_uint8> table(256);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<vx_uint8>(255 - i * 7);
    ASSERT_EQ(vxCopyLUT(in, table.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    std::vector<vx_uint8> got(256);
    ASSERT_EQ(vxCopyLUT(out, got.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(got, table);
    EXPECT_EQ(vxReleaseLUT(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseLUT(&out), VX_SUCCESS);
  }
  {  // matrix, in a graph
    vx_matrix in = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 2);
    vx_matrix out = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 2);
    vx_int32 m[6] = {1, -2, 2147483647, -2147483647 - 1, 0, 7};
    ASSERT_EQ(vxCopyMatrix(in, m, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxCopyNode(graph, ref(in), ref(out));
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    vx_int32 got[6] = {};
    ASSERT_EQ(vxCopyMatrix(out, got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_TRUE(std::equal(got, got + 6, m));
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseMatrix(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseMatrix(&out), VX_SUCCESS);
  }
  {  // convolution: coefficients and scale
    vx_convolution in = vxCreateConvolution(context_, 3, 3);
    vx_convolution out = vxCreateConvolution(context_, 3, 3);
    vx_int16 c[9] = {1, 2, 1, 0, -32768, 0, 32767, -2, -1};
    ASSERT_EQ(vxCopyConvolutionCoefficients(in, c, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    vx_uint32 scale = 16;
    ASSERT_EQ(vxSetConvolutionAttribute(in, VX_CONVOLUTION_SCALE, &scale, sizeof scale), VX_SUCCESS);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    vx_int16 got[9] = {};
    ASSERT_EQ(vxCopyConvolutionCoefficients(out, got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_TRUE(std::equal(got, got + 9, c));
    vx_uint32 got_scale = 0;
    ASSERT_EQ(vxQueryConvolution(out, VX_CONVOLUTION_SCALE, &got_scale, sizeof got_scale), VX_SUCCESS);
    EXPECT_EQ(got_scale, 16u);
    EXPECT_EQ(vxReleaseConvolution(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseConvolution(&out), VX_SUCCESS);
  }
  {  // distribution
    vx_distribution in = vxCreateDistribution(context_, 16, 0, 256);
    vx_distribution out = vxCreateDistribution(context_, 16, 0, 256);
    vx_uint32 bins[16];
    for (vx_uint32 i = 0; i < 16; ++i) bins[i] = i * 1000003u;
    ASSERT_EQ(vxCopyDistribution(in, bins, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(vxuCopy(context_, ref(in), ref(out)), VX_SUCCESS);
    vx_uint32 got[16] = {};
    ASSERT_EQ(vxCopyDistribution(out, got, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_TRUE(std::equal(got, got + 16, bins));
    EXPECT_EQ(vxReleaseDistribution(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseDistribution(&out), VX_SUCCESS);
  }
}

TEST_F(OpenVx, CopyRefusesMismatchedAndUnsupportedObjects) {
  vx_image u8 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  vx_image small = vxCreateImage(context_, kW - 2, kH, VX_DF_IMAGE_U8);
  vx_int32 zero = 0;
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, &zero);
  vx_pyramid pyr1 = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8);
  vx_pyramid pyr2 = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8);  // another shape
  struct Case {
    vx_reference in, out;
    vx_status status;
    const char* log;
  };
  const Case cases[] = {
      {ref(u8), ref(scalar), VX_ERROR_INVALID_TYPE, "one type"},
      {ref(pyr1), ref(pyr2), VX_ERROR_INVALID_PARAMETERS, "levels"},
      {ref(u8), ref(s16), VX_ERROR_INVALID_FORMAT, "output"},
      {ref(u8), ref(small), VX_ERROR_INVALID_PARAMETERS, "output"},
  };
  for (const Case& c : cases) {
    vg_openvx_test::log_lines.clear();
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxCopyNode(graph, c.in, c.out);
    EXPECT_EQ(vxVerifyGraph(graph), c.status) << c.log;
    EXPECT_TRUE(logged(c.log)) << c.log;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleasePyramid(&pyr1), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&pyr2), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
  for (vx_image* i : {&u8, &s16, &small}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- images from handles with gaps ------------------------------------------------------------------------

/// An image on host memory whose pixels are @p gap_x elements apart and rows padded: kernels must step by
/// the strides.
struct GappedImage {
  std::vector<vx_uint8> memory;
  vx_image image = nullptr;
  GappedImage(vx_context context, vx_df_image format, vx_uint32 elem) {
    vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
    addr.dim_x = kW;
    addr.dim_y = kH;
    addr.stride_x = static_cast<vx_int32>(2 * elem);
    addr.stride_y = static_cast<vx_int32>(2 * elem * kW + 5);
    memory.assign(static_cast<std::size_t>(addr.stride_y) * kH, 0xAB);
    void* ptrs[] = {memory.data()};
    image = vxCreateImageFromHandle(context, format, &addr, ptrs, VX_MEMORY_TYPE_HOST);
  }
};

TEST_F(OpenVx, KernelsStepByTheStridesOfImagesFromHandles) {
  std::mt19937 rng(21);
  const U8 p = edge_u8(rng);
  GappedImage gapped_in(context_, VX_DF_IMAGE_U8, 1), gapped_out(context_, VX_DF_IMAGE_U8, 1), gapped_acc(context_, VX_DF_IMAGE_S16, 2);
  ASSERT_EQ(status_of(gapped_in.image), VX_SUCCESS);
  write_plane(gapped_in.image, p);
  vx_image packed = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  // Copy: gaps -> packed -> gaps.
  ASSERT_EQ(vxuCopy(context_, ref(gapped_in.image), ref(packed)), VX_SUCCESS);
  EXPECT_EQ(read_plane<vx_uint8>(packed, kW, kH).values, p.values);
  ASSERT_EQ(vxuCopy(context_, ref(packed), ref(gapped_out.image)), VX_SUCCESS);
  EXPECT_EQ(read_plane<vx_uint8>(gapped_out.image, kW, kH).values, p.values);
  for (vx_uint32 y = 0; y < kH; ++y) {  // the gaps are left alone
    EXPECT_EQ(gapped_out.memory[static_cast<std::size_t>(y) * (2 * kW + 5) + 1], 0xAB);
  }
  // NonLinearFilter: gaps in and out.
  vx_matrix cross = vxCreateMatrixFromPattern(context_, VX_PATTERN_CROSS, 5, 5);
  vx_border_t replicate{};
  replicate.mode = VX_BORDER_REPLICATE;
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxuNonLinearFilter(context_, VX_NONLINEAR_FILTER_MEDIAN, gapped_in.image, cross, gapped_out.image), VX_SUCCESS);
  EXPECT_EQ(read_plane<vx_uint8>(gapped_out.image, kW, kH).values,
            reference_nonlinear(VX_NONLINEAR_FILTER_MEDIAN, p, mask_of(cross), replicate).values);
  // Accumulate into an S16 accumulator with gaps.
  S16 acc = random_pixels<vx_int16>(kW, kH, rng, -32768, 32767);
  write_plane(gapped_acc.image, acc);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = generic_node(context_, graph, VX_KERNEL_ACCUMULATE, {ref(gapped_in.image), ref(gapped_acc.image)});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  for (std::size_t i = 0; i < acc.values.size(); ++i) acc.values[i] = static_cast<vx_int16>(std::clamp(acc.values[i] + p.values[i], -32768, 32767));
  EXPECT_EQ(read_plane<vx_int16>(gapped_acc.image, kW, kH).values, acc.values);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&cross), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&packed), VX_SUCCESS);
  for (GappedImage* g : {&gapped_in, &gapped_out, &gapped_acc}) EXPECT_EQ(vxReleaseImage(&g->image), VX_SUCCESS);
}

}  // namespace
