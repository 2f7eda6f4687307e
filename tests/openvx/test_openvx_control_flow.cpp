// The enhanced-vision control-flow kernels Select and ScalarOperation, and Copy of the container objects
// (pyramids, object arrays, thresholds), written from the specification (and the conformance suite's
// conversions, where it decides).
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

class ControlFlow : public OpenVx {
 protected:
  template <typename T>
  vx_scalar scalar(vx_enum type, T value) {
    return vxCreateScalar(context_, type, &value);
  }
  template <typename T>
  T read(vx_scalar s) {
    T v{};
    EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    return v;
  }
  /// Runs one node made by @p make; returns the graph's status.
  template <typename Make>
  vx_status run(Make make) {
    vx_graph g = vxCreateGraph(context_);
    vx_node n = make(g);
    vx_status s = vxGetStatus(reinterpret_cast<vx_reference>(n));
    if (s == VX_SUCCESS) s = vxVerifyGraph(g);
    if (s == VX_SUCCESS) s = vxProcessGraph(g);
    if (vxGetStatus(reinterpret_cast<vx_reference>(n)) == VX_SUCCESS) {
      EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    }
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
    return s;
  }
  void release(std::initializer_list<vx_scalar> scalars) {
    for (vx_scalar s : scalars) {
      vx_scalar copy = s;
      EXPECT_EQ(vxReleaseScalar(&copy), VX_SUCCESS);
    }
  }
};

TEST_F(ControlFlow, ScalarOperationsComputeOnIntegersOrFloatsAndConvertToTheOutputsType) {
  vx_scalar seven = scalar<vx_size>(VX_TYPE_SIZE, 7), two = scalar<vx_size>(VX_TYPE_SIZE, 2);
  vx_scalar f = scalar<vx_float32>(VX_TYPE_FLOAT32, 0.0f);
  // Integers divide as integers, then convert: 7 / 2 = 3, written as 3.0.
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_DIVIDE, seven, two, f); }), VX_SUCCESS);
  EXPECT_FLOAT_EQ(read<vx_float32>(f), 3.0f);
  // A float input makes it floating point: min(0.5, 1) = 0.5, into a UINT32 by truncation: 0.
  vx_scalar half = scalar<vx_float32>(VX_TYPE_FLOAT32, 0.5f), one = scalar<vx_uint32>(VX_TYPE_UINT32, 1), u = scalar<vx_uint32>(VX_TYPE_UINT32, 9);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_MIN, half, one, u); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_uint32>(u), 0u);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_MAX, half, one, u); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_uint32>(u), 1u);
  // Signed integers, modulus, and the comparisons into a BOOL.
  vx_scalar a = scalar<vx_int16>(VX_TYPE_INT16, -7), b = scalar<vx_int16>(VX_TYPE_INT16, 3), r = scalar<vx_int16>(VX_TYPE_INT16, 0);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_MODULUS, a, b, r); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_int16>(r), -1);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_SUBTRACT, a, b, r); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_int16>(r), -10);
  vx_scalar flag = scalar<vx_bool>(VX_TYPE_BOOL, vx_false_e);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_LESS, a, b, flag); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_bool>(flag), vx_true_e);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_GREATEREQ, a, b, flag); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_bool>(flag), vx_false_e);
  // Logical operations on BOOLs.
  vx_scalar t = scalar<vx_bool>(VX_TYPE_BOOL, vx_true_e), fa = scalar<vx_bool>(VX_TYPE_BOOL, vx_false_e);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_NAND, t, fa, flag); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_bool>(flag), vx_true_e);
  ASSERT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_XOR, t, t, flag); }), VX_SUCCESS);
  EXPECT_EQ(read<vx_bool>(flag), vx_false_e);
  // Refusals: a division by zero fails the node; a comparison into a number, logic on numbers, at verify.
  vx_scalar zero = scalar<vx_size>(VX_TYPE_SIZE, 0);
  EXPECT_NE(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_DIVIDE, seven, zero, f); }), VX_SUCCESS);
  EXPECT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_EQUAL, a, b, r); }), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("a comparison writes a VX_TYPE_BOOL output"));
  EXPECT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, VX_SCALAR_OP_AND, a, b, flag); }), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(run([&](vx_graph g) { return vxScalarOperationNode(g, 0x12345, a, b, flag); }), VX_ERROR_INVALID_PARAMETERS);
  release({seven, two, f, half, one, u, a, b, r, flag, t, fa, zero});
}

TEST_F(ControlFlow, SelectCopiesTheChosenObjectIntoTheOutput) {
  vx_scalar yes = scalar<vx_bool>(VX_TYPE_BOOL, vx_true_e), no = scalar<vx_bool>(VX_TYPE_BOOL, vx_false_e);
  // Scalars.
  vx_scalar x = scalar<vx_int32>(VX_TYPE_INT32, 11), y = scalar<vx_int32>(VX_TYPE_INT32, 22), out = scalar<vx_int32>(VX_TYPE_INT32, 0);
  ASSERT_EQ(run([&](vx_graph g) { return vxSelectNode(g, yes, reinterpret_cast<vx_reference>(x), reinterpret_cast<vx_reference>(y),
                                                      reinterpret_cast<vx_reference>(out)); }),
            VX_SUCCESS);
  EXPECT_EQ(read<vx_int32>(out), 11);
  ASSERT_EQ(run([&](vx_graph g) { return vxSelectNode(g, no, reinterpret_cast<vx_reference>(x), reinterpret_cast<vx_reference>(y),
                                                      reinterpret_cast<vx_reference>(out)); }),
            VX_SUCCESS);
  EXPECT_EQ(read<vx_int32>(out), 22);
  // Pyramids: every level.
  vx_pyramid p1 = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8);
  vx_pyramid p2 = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8);
  vx_pyramid po = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8);
  for (vx_uint32 level = 0; level < 3; ++level) {
    vx_image image = vxGetPyramidLevel(p2, level);
    vx_pixel_value_t v{};
    v.U8 = static_cast<vx_uint8>(40 + level);
    ASSERT_EQ(vxSetImagePixelValues(image, &v), VX_SUCCESS);
    ASSERT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
  ASSERT_EQ(run([&](vx_graph g) { return vxSelectNode(g, no, reinterpret_cast<vx_reference>(p1), reinterpret_cast<vx_reference>(p2),
                                                      reinterpret_cast<vx_reference>(po)); }),
            VX_SUCCESS);
  for (vx_uint32 level = 0; level < 3; ++level) {
    vx_image image = vxGetPyramidLevel(po, level);
    vx_uint8 pixel = 0;
    const vx_rectangle_t one_pixel{1, 1, 2, 2};
    vx_imagepatch_addressing_t a = VX_IMAGEPATCH_ADDR_INIT;
    a.dim_x = a.dim_y = 1;
    a.stride_x = a.stride_y = 1;
    ASSERT_EQ(vxCopyImagePatch(image, &one_pixel, 0, &a, &pixel, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(pixel, 40 + level) << "level " << level;
    ASSERT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
  // Mismatched types are refused at verify.
  EXPECT_EQ(run([&](vx_graph g) { return vxSelectNode(g, yes, reinterpret_cast<vx_reference>(x), reinterpret_cast<vx_reference>(p1),
                                                      reinterpret_cast<vx_reference>(out)); }),
            VX_ERROR_INVALID_TYPE);
  for (vx_pyramid* p : {&p1, &p2, &po}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
  release({yes, no, x, y, out});
}

TEST_F(ControlFlow, CopyTakesThresholdsAndObjectArrays) {
  vx_threshold in = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_threshold out = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_pixel_value_t lower{}, upper{};
  lower.U8 = 10;
  upper.U8 = 200;
  ASSERT_EQ(vxCopyThresholdRange(in, &lower, &upper, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxuCopy(context_, reinterpret_cast<vx_reference>(in), reinterpret_cast<vx_reference>(out)), VX_SUCCESS);
  vx_pixel_value_t got_lower{}, got_upper{};
  ASSERT_EQ(vxCopyThresholdRange(out, &got_lower, &got_upper, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(got_lower.U8, 10);
  EXPECT_EQ(got_upper.U8, 200);

  vx_int32 zero = 0;
  vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT32, &zero);
  vx_object_array from = vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), 4);
  vx_object_array to = vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), 4);
  for (vx_uint32 i = 0; i < 4; ++i) {
    vx_scalar item = reinterpret_cast<vx_scalar>(vxGetObjectArrayItem(from, i));
    vx_int32 v = 100 + static_cast<vx_int32>(i);
    ASSERT_EQ(vxCopyScalar(item, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(vxReleaseScalar(&item), VX_SUCCESS);
  }
  ASSERT_EQ(vxuCopy(context_, reinterpret_cast<vx_reference>(from), reinterpret_cast<vx_reference>(to)), VX_SUCCESS);
  for (vx_uint32 i = 0; i < 4; ++i) {
    vx_scalar item = reinterpret_cast<vx_scalar>(vxGetObjectArrayItem(to, i));
    EXPECT_EQ(read<vx_int32>(item), 100 + static_cast<vx_int32>(i));
    ASSERT_EQ(vxReleaseScalar(&item), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseThreshold(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&from), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&to), VX_SUCCESS);
  release({exemplar});
}

}  // namespace
