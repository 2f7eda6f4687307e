// LUTs, matrices, convolutions, thresholds and distributions of the OpenVX C API: creation, queries,
// copies and maps, refusals, and each (but the threshold) passed as a virtual object between user kernels.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;

// ---- LUT ----

TEST_F(OpenVx, LutsOfUint8AndInt16AreCreatedAndQueried) {
  vx_lut u8 = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
  ASSERT_EQ(vxGetStatus(ref(u8)), VX_SUCCESS);
  vx_enum type = 0;
  vx_size count = 0, size = 0;
  vx_uint32 offset = 99;
  EXPECT_EQ(vxQueryLUT(u8, VX_LUT_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_UINT8);
  EXPECT_EQ(vxQueryLUT(u8, VX_LUT_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 256u);
  EXPECT_EQ(vxQueryLUT(u8, VX_LUT_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 256u);
  EXPECT_EQ(vxQueryLUT(u8, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 0u);
  vx_uint64 wide = 0;  // larger than vx_uint32 on every ABI
  EXPECT_EQ(vxQueryLUT(u8, VX_LUT_OFFSET, &wide, sizeof wide), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryLUT(u8, VX_MATRIX_ROWS, &size, sizeof size), VX_ERROR_NOT_SUPPORTED);
  vx_lut s16 = vxCreateLUT(context_, VX_TYPE_INT16, 65536);
  ASSERT_EQ(vxGetStatus(ref(s16)), VX_SUCCESS);
  EXPECT_EQ(vxQueryLUT(s16, VX_LUT_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 2u * 65536u);
  EXPECT_EQ(vxQueryLUT(s16, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 32768u) << "input 0 is in the middle of an INT16 table";
  EXPECT_EQ(vxReleaseLUT(&u8), VX_SUCCESS);
  EXPECT_EQ(u8, nullptr);
  EXPECT_EQ(vxReleaseLUT(&s16), VX_SUCCESS);
}

TEST_F(OpenVx, LutCreationRefusesBadTypesAndCounts) {
  EXPECT_EQ(vxCreateLUT(nullptr, VX_TYPE_UINT8, 256), nullptr);
  EXPECT_EQ(vxCreateVirtualLUT(nullptr, VX_TYPE_UINT8, 256), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateLUT(context_, VX_TYPE_INT32, 16))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateLUT(context_, VX_TYPE_INVALID, 16))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateLUT(context_, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateLUT(context_, VX_TYPE_UINT8, 257))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateLUT(context_, VX_TYPE_INT16, 65537))), VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(OpenVx, LutCopiesAndMapsReadBackWhatWasWritten) {
  vx_lut lut = vxCreateLUT(context_, VX_TYPE_INT16, 100);
  std::vector<vx_int16> values(100);
  for (int i = 0; i < 100; ++i) values[i] = static_cast<vx_int16>(i * 3 - 150);
  ASSERT_EQ(vxCopyLUT(lut, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_map_id id = 0;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapLUT(lut, &id, &ptr, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  auto* mapped = static_cast<vx_int16*>(ptr);
  EXPECT_EQ(mapped[0], -150);
  EXPECT_EQ(mapped[99], 147);
  mapped[50] = 12345;
  // A second map at the same time sees the same memory.
  vx_map_id id2 = 0;
  void* ptr2 = nullptr;
  ASSERT_EQ(vxMapLUT(lut, &id2, &ptr2, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(ptr2, ptr);
  EXPECT_NE(id2, id);
  EXPECT_EQ(vxUnmapLUT(lut, id2), VX_SUCCESS);
  EXPECT_EQ(vxUnmapLUT(lut, id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapLUT(lut, id), VX_ERROR_INVALID_PARAMETERS) << "unmapped already";
  EXPECT_EQ(vxUnmapLUT(lut, 777), VX_ERROR_INVALID_PARAMETERS) << "never mapped";
  std::vector<vx_int16> back(100);
  ASSERT_EQ(vxCopyLUT(lut, back.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back[50], 12345);
  EXPECT_EQ(back[51], 3);
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
}

TEST_F(OpenVx, LutCallsRefuseBadHandlesUsagesAndTooManyMaps) {
  vx_lut lut = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
  vx_uint8 buffer[256] = {};
  vx_map_id id = 0;
  void* ptr = nullptr;
  vx_size count = 0;
  auto wrong = reinterpret_cast<vx_lut>(context_);
  for (vx_lut bad : {static_cast<vx_lut>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryLUT(bad, VX_LUT_COUNT, &count, sizeof count), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyLUT(bad, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxMapLUT(bad, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxUnmapLUT(bad, 1), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseLUT(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseLUT(&wrong), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCopyLUT(lut, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyLUT(lut, buffer, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyLUT(lut, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapLUT(lut, nullptr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapLUT(lut, &id, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapLUT(lut, &id, &ptr, 12, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapLUT(lut, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE, 0), VX_ERROR_INVALID_PARAMETERS);
  std::vector<vx_map_id> ids;
  vx_status s = VX_SUCCESS;
  while ((s = vxMapLUT(lut, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0)) == VX_SUCCESS && ids.size() < 1000) ids.push_back(id);
  EXPECT_EQ(s, VX_ERROR_NO_RESOURCES);
  for (vx_map_id i : ids) EXPECT_EQ(vxUnmapLUT(lut, i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
}

// ---- Matrix ----

TEST_F(OpenVx, MatricesAreCreatedQueriedAndCopied) {
  vx_matrix m = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 2);  // 3 columns, 2 rows
  ASSERT_EQ(vxGetStatus(ref(m)), VX_SUCCESS);
  vx_enum type = 0, pattern = 0;
  vx_size rows = 0, columns = 0, size = 0;
  vx_coordinates2d_t origin{9, 9};
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT32);
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_ROWS, &rows, sizeof rows), VX_SUCCESS);
  EXPECT_EQ(rows, 2u);
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_COLUMNS, &columns, sizeof columns), VX_SUCCESS);
  EXPECT_EQ(columns, 3u);
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 6u * sizeof(vx_int32));
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_ORIGIN, &origin, sizeof origin), VX_SUCCESS);
  EXPECT_EQ(origin.x, 1u);
  EXPECT_EQ(origin.y, 1u);
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_PATTERN, &pattern, sizeof pattern), VX_SUCCESS);
  EXPECT_EQ(pattern, VX_PATTERN_OTHER);
  EXPECT_EQ(vxQueryMatrix(m, VX_MATRIX_ROWS, &rows, sizeof(vx_uint16)), VX_ERROR_INVALID_PARAMETERS);
  const vx_int32 values[2][3] = {{1, 2, 3}, {-4, -5, -6}};
  ASSERT_EQ(vxCopyMatrix(m, const_cast<vx_int32*>(&values[0][0]), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_int32 back[2][3] = {};
  ASSERT_EQ(vxCopyMatrix(m, &back[0][0], VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(std::memcmp(back, values, sizeof back), 0);
  EXPECT_EQ(vxCopyMatrix(m, &back[0][0], VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyMatrix(m, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyMatrix(m, &back[0][0], VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  vx_matrix f = vxCreateMatrix(context_, VX_TYPE_FLOAT32, 4, 4);
  EXPECT_EQ(vxGetStatus(ref(f)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&f), VX_SUCCESS);
  EXPECT_EQ(vxReleaseMatrix(&m), VX_SUCCESS);
}

TEST_F(OpenVx, MatrixCallsRefuseBadArguments) {
  EXPECT_EQ(vxCreateMatrix(nullptr, VX_TYPE_INT32, 3, 3), nullptr);
  EXPECT_EQ(vxCreateMatrixFromPattern(nullptr, VX_PATTERN_BOX, 3, 3), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrix(context_, VX_TYPE_INT16, 3, 3))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrix(context_, VX_TYPE_INT32, 0, 3))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrix(context_, VX_TYPE_INT32, 3, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrix(context_, VX_TYPE_INT32, ~vx_size{0}, 4))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrixFromPattern(context_, VX_PATTERN_OTHER, 3, 3))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrixFromPattern(context_, VX_PATTERN_BOX, 0, 3))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrixFromPatternAndOrigin(context_, VX_PATTERN_BOX, 3, 3, 3, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateMatrixFromPatternAndOrigin(context_, VX_PATTERN_BOX, 3, 3, 0, 3))), VX_ERROR_INVALID_PARAMETERS);
  vx_size rows = 0;
  vx_int32 buffer[9];
  auto wrong = reinterpret_cast<vx_matrix>(context_);
  for (vx_matrix bad : {static_cast<vx_matrix>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryMatrix(bad, VX_MATRIX_ROWS, &rows, sizeof rows), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyMatrix(bad, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseMatrix(&wrong), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseMatrix(nullptr), VX_ERROR_INVALID_REFERENCE);
}

std::vector<vx_uint8> matrix_bytes(vx_matrix m, vx_size n) {
  std::vector<vx_uint8> data(n);
  EXPECT_EQ(vxCopyMatrix(m, data.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return data;
}

TEST_F(OpenVx, MatricesFromPatterns) {
  vx_matrix box = vxCreateMatrixFromPattern(context_, VX_PATTERN_BOX, 3, 2);
  ASSERT_EQ(vxGetStatus(ref(box)), VX_SUCCESS);
  vx_enum type = 0, pattern = 0;
  EXPECT_EQ(vxQueryMatrix(box, VX_MATRIX_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_UINT8);
  EXPECT_EQ(vxQueryMatrix(box, VX_MATRIX_PATTERN, &pattern, sizeof pattern), VX_SUCCESS);
  EXPECT_EQ(pattern, VX_PATTERN_BOX);
  EXPECT_EQ(matrix_bytes(box, 6), std::vector<vx_uint8>(6, 255));

  vx_matrix cross = vxCreateMatrixFromPattern(context_, VX_PATTERN_CROSS, 5, 5);
  const std::vector<vx_uint8> data = matrix_bytes(cross, 25);
  for (vx_size r = 0; r < 5; ++r)
    for (vx_size c = 0; c < 5; ++c) EXPECT_EQ(data[r * 5 + c], (r == 2 || c == 2) ? 255 : 0) << r << "," << c;

  vx_matrix disk = vxCreateMatrixFromPattern(context_, VX_PATTERN_DISK, 5, 5);
  const std::vector<vx_uint8> d = matrix_bytes(disk, 25);
  EXPECT_EQ(d[0], 0) << "corners are outside the disk";
  EXPECT_EQ(d[4], 0);
  EXPECT_EQ(d[24], 0);
  EXPECT_EQ(d[12], 255) << "the centre is inside";
  EXPECT_EQ(d[2], 255) << "the middle of each edge is inside";
  EXPECT_EQ(d[10], 255);
  EXPECT_EQ(vxQueryMatrix(disk, VX_MATRIX_PATTERN, &pattern, sizeof pattern), VX_SUCCESS);
  EXPECT_EQ(pattern, VX_PATTERN_DISK);

  // A cross stays through the centre whatever the origin (what the conformance suite's NonLinearFilter
  // with a non-default origin expects); the origin only places the mask over the pixel.
  vx_matrix corner = vxCreateMatrixFromPatternAndOrigin(context_, VX_PATTERN_CROSS, 3, 3, 0, 2);
  ASSERT_EQ(vxGetStatus(ref(corner)), VX_SUCCESS);
  vx_coordinates2d_t origin{};
  EXPECT_EQ(vxQueryMatrix(corner, VX_MATRIX_ORIGIN, &origin, sizeof origin), VX_SUCCESS);
  EXPECT_EQ(origin.x, 0u);
  EXPECT_EQ(origin.y, 2u);
  EXPECT_EQ(matrix_bytes(corner, 9), (std::vector<vx_uint8>{0, 255, 0, 255, 255, 255, 0, 255, 0}));
  for (vx_matrix* m : {&box, &cross, &disk, &corner}) EXPECT_EQ(vxReleaseMatrix(m), VX_SUCCESS);
}

// ---- Convolution ----

TEST_F(OpenVx, ConvolutionsAreCreatedQueriedScaledAndCopied) {
  vx_convolution conv = vxCreateConvolution(context_, 5, 3);
  ASSERT_EQ(vxGetStatus(ref(conv)), VX_SUCCESS);
  vx_size rows = 0, columns = 0, size = 0;
  vx_uint32 scale = 0;
  EXPECT_EQ(vxQueryConvolution(conv, VX_CONVOLUTION_ROWS, &rows, sizeof rows), VX_SUCCESS);
  EXPECT_EQ(rows, 3u);
  EXPECT_EQ(vxQueryConvolution(conv, VX_CONVOLUTION_COLUMNS, &columns, sizeof columns), VX_SUCCESS);
  EXPECT_EQ(columns, 5u);
  EXPECT_EQ(vxQueryConvolution(conv, VX_CONVOLUTION_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 15u * sizeof(vx_int16));
  EXPECT_EQ(vxQueryConvolution(conv, VX_CONVOLUTION_SCALE, &scale, sizeof scale), VX_SUCCESS);
  EXPECT_EQ(scale, 1u);
  scale = 16;
  EXPECT_EQ(vxSetConvolutionAttribute(conv, VX_CONVOLUTION_SCALE, &scale, sizeof scale), VX_SUCCESS);
  scale = 0;
  EXPECT_EQ(vxQueryConvolution(conv, VX_CONVOLUTION_SCALE, &scale, sizeof scale), VX_SUCCESS);
  EXPECT_EQ(scale, 16u);
  for (vx_uint32 bad : {0u, 3u, 12u}) EXPECT_EQ(vxSetConvolutionAttribute(conv, VX_CONVOLUTION_SCALE, &bad, sizeof bad), VX_ERROR_INVALID_PARAMETERS);
  const vx_uint64 wide_scale = 16;  // larger than vx_uint32 on every ABI
  EXPECT_EQ(vxSetConvolutionAttribute(conv, VX_CONVOLUTION_SCALE, &wide_scale, sizeof wide_scale), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetConvolutionAttribute(conv, VX_CONVOLUTION_ROWS, &rows, sizeof rows), VX_ERROR_NOT_SUPPORTED) << "read-only";
  std::vector<vx_int16> coefficients(15);
  for (int i = 0; i < 15; ++i) coefficients[i] = static_cast<vx_int16>(i - 7);
  ASSERT_EQ(vxCopyConvolutionCoefficients(conv, coefficients.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  std::vector<vx_int16> back(15);
  ASSERT_EQ(vxCopyConvolutionCoefficients(conv, back.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back, coefficients);
  EXPECT_EQ(vxCopyConvolutionCoefficients(conv, back.data(), VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyConvolutionCoefficients(conv, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseConvolution(&conv), VX_SUCCESS);
  EXPECT_EQ(conv, nullptr);
}

TEST_F(OpenVx, ConvolutionCallsRefuseBadSizesAndHandles) {
  vx_size max = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_CONVOLUTION_MAX_DIMENSION, &max, sizeof max), VX_SUCCESS);
  EXPECT_EQ(vxCreateConvolution(nullptr, 3, 3), nullptr);
  for (auto [c, r] : {std::pair<vx_size, vx_size>{1, 3}, {3, 4}, {2, 2}, {0, 3}, {max + 2, 3}, {3, max + 2}}) {
    EXPECT_EQ(vxGetStatus(ref(vxCreateConvolution(context_, c, r))), VX_ERROR_INVALID_PARAMETERS) << c << "x" << r;
  }
  vx_convolution largest = vxCreateConvolution(context_, max, max);
  EXPECT_EQ(vxGetStatus(ref(largest)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseConvolution(&largest), VX_SUCCESS);
  auto wrong = reinterpret_cast<vx_convolution>(context_);
  vx_size rows = 0;
  vx_int16 buffer[9];
  for (vx_convolution bad : {static_cast<vx_convolution>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryConvolution(bad, VX_CONVOLUTION_ROWS, &rows, sizeof rows), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetConvolutionAttribute(bad, VX_CONVOLUTION_SCALE, &rows, sizeof(vx_uint32)), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyConvolutionCoefficients(bad, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseConvolution(&wrong), VX_ERROR_INVALID_REFERENCE);
}

// ---- Threshold ----

TEST_F(OpenVx, BinaryThresholdsHoldAValueAndOutputs) {
  vx_threshold t = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_S16, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxGetStatus(ref(t)), VX_SUCCESS);
  vx_enum type = 0;
  vx_df_image input = 0, output = 0;
  EXPECT_EQ(vxQueryThreshold(t, VX_THRESHOLD_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_THRESHOLD_TYPE_BINARY);
  EXPECT_EQ(vxQueryThreshold(t, VX_THRESHOLD_INPUT_FORMAT, &input, sizeof input), VX_SUCCESS);
  EXPECT_EQ(input, static_cast<vx_df_image>(VX_DF_IMAGE_S16));
  EXPECT_EQ(vxQueryThreshold(t, VX_THRESHOLD_OUTPUT_FORMAT, &output, sizeof output), VX_SUCCESS);
  EXPECT_EQ(output, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
  vx_pixel_value_t true_value{}, false_value{};
  false_value.U8 = 77;
  ASSERT_EQ(vxCopyThresholdOutput(t, &true_value, &false_value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(true_value.U8, 255) << "by default, the output format's largest value";
  EXPECT_EQ(false_value.U8, 0);
  vx_pixel_value_t value{};
  value.S16 = -300;
  ASSERT_EQ(vxCopyThresholdValue(t, &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  value.S16 = 0;
  ASSERT_EQ(vxCopyThresholdValue(t, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value.S16, -300);
  true_value.U8 = 200;
  false_value.U8 = 10;
  ASSERT_EQ(vxCopyThresholdOutput(t, &true_value, &false_value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  true_value.U8 = false_value.U8 = 0;
  ASSERT_EQ(vxCopyThresholdOutput(t, &true_value, &false_value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(true_value.U8, 200);
  EXPECT_EQ(false_value.U8, 10);
  // A binary threshold has no range; bad arguments.
  vx_pixel_value_t lower{}, upper{};
  EXPECT_EQ(vxCopyThresholdRange(t, &lower, &upper, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyThresholdValue(t, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyThresholdValue(t, &value, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyThresholdValue(t, &value, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyThresholdOutput(t, &true_value, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetThresholdAttribute(t, VX_THRESHOLD_TYPE, &type, sizeof type), VX_ERROR_NOT_SUPPORTED) << "read-only";
  EXPECT_EQ(vxQueryThreshold(t, VX_THRESHOLD_TYPE, &type, 1), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseThreshold(&t), VX_SUCCESS);
  EXPECT_EQ(t, nullptr);
}

TEST_F(OpenVx, RangeThresholdsHoldLowerAndUpper) {
  vx_threshold t = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U1);
  ASSERT_EQ(vxGetStatus(ref(t)), VX_SUCCESS);
  vx_pixel_value_t lower{}, upper{};
  lower.U8 = 20;
  upper.U8 = 200;
  ASSERT_EQ(vxCopyThresholdRange(t, &lower, &upper, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  lower.U8 = upper.U8 = 0;
  ASSERT_EQ(vxCopyThresholdRange(t, &lower, &upper, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(lower.U8, 20);
  EXPECT_EQ(upper.U8, 200);
  EXPECT_EQ(vxCopyThresholdValue(t, &lower, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyThresholdRange(t, &lower, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_pixel_value_t true_value{}, false_value{};
  ASSERT_EQ(vxCopyThresholdOutput(t, &true_value, &false_value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(true_value.U1, vx_true_e) << "a U1 output is true or false";
  EXPECT_EQ(false_value.U1, vx_false_e);
  EXPECT_EQ(vxReleaseThreshold(&t), VX_SUCCESS);
}

TEST_F(OpenVx, ThresholdCallsRefuseBadTypesFormatsAndHandles) {
  EXPECT_EQ(vxCreateThresholdForImage(nullptr, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateThresholdForImage(context_, VX_TYPE_UINT8, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8))),
            VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_RGB, VX_DF_IMAGE_U8))),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_IYUV))),
            VX_ERROR_INVALID_PARAMETERS);
  vx_pixel_value_t v{};
  vx_enum type = 0;
  auto wrong = reinterpret_cast<vx_threshold>(context_);
  for (vx_threshold bad : {static_cast<vx_threshold>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryThreshold(bad, VX_THRESHOLD_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetThresholdAttribute(bad, VX_THRESHOLD_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyThresholdValue(bad, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyThresholdRange(bad, &v, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyThresholdOutput(bad, &v, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseThreshold(&wrong), VX_ERROR_INVALID_REFERENCE);
}

// ---- Distribution ----

TEST_F(OpenVx, DistributionsAreCreatedQueriedMappedAndCopied) {
  vx_distribution d = vxCreateDistribution(context_, 16, 10, 256);
  ASSERT_EQ(vxGetStatus(ref(d)), VX_SUCCESS);
  vx_size dims = 0, bins = 0, size = 0;
  vx_int32 offset = 0;
  vx_uint32 range = 0, window = 0;
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_DIMENSIONS, &dims, sizeof dims), VX_SUCCESS);
  EXPECT_EQ(dims, 1u);
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 10);
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_RANGE, &range, sizeof range), VX_SUCCESS);
  EXPECT_EQ(range, 256u);
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_BINS, &bins, sizeof bins), VX_SUCCESS);
  EXPECT_EQ(bins, 16u);
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_WINDOW, &window, sizeof window), VX_SUCCESS);
  EXPECT_EQ(window, 16u);
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 16u * sizeof(vx_int32));
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_BINS, &bins, sizeof(vx_uint16)), VX_ERROR_INVALID_PARAMETERS);
  vx_int32 zeros[16];
  ASSERT_EQ(vxCopyDistribution(d, zeros, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (vx_int32 z : zeros) EXPECT_EQ(z, 0) << "a new distribution counts nothing";
  vx_map_id id = 0;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapDistribution(d, &id, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  for (int i = 0; i < 16; ++i) static_cast<vx_int32*>(ptr)[i] = i * i;
  EXPECT_EQ(vxUnmapDistribution(d, id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapDistribution(d, id), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapDistribution(d, 4242), VX_ERROR_INVALID_PARAMETERS);
  vx_int32 back[16] = {};
  ASSERT_EQ(vxCopyDistribution(d, back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back[15], 225);
  back[3] = -1;
  ASSERT_EQ(vxCopyDistribution(d, back, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxMapDistribution(d, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(static_cast<vx_int32*>(ptr)[3], -1);
  EXPECT_EQ(vxUnmapDistribution(d, id), VX_SUCCESS);
  EXPECT_EQ(vxCopyDistribution(d, back, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapDistribution(d, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE, 0), VX_ERROR_INVALID_PARAMETERS);
  // A range that is not a whole number of bins has no window.
  vx_distribution uneven = vxCreateDistribution(context_, 3, 0, 10);
  EXPECT_EQ(vxQueryDistribution(uneven, VX_DISTRIBUTION_WINDOW, &window, sizeof window), VX_SUCCESS);
  EXPECT_EQ(window, 0u);
  EXPECT_EQ(vxReleaseDistribution(&uneven), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDistribution(&d), VX_SUCCESS);
  EXPECT_EQ(d, nullptr);
}

TEST_F(OpenVx, DistributionCallsRefuseBadBinsAndHandles) {
  EXPECT_EQ(vxCreateDistribution(nullptr, 16, 0, 256), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDistribution(context_, 0, 0, 256))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDistribution(context_, 16, 0, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDistribution(context_, 300, 0, 256))), VX_ERROR_INVALID_PARAMETERS);
  auto wrong = reinterpret_cast<vx_distribution>(context_);
  vx_size bins = 0;
  vx_int32 buffer[4];
  vx_map_id id = 0;
  void* ptr = nullptr;
  for (vx_distribution bad : {static_cast<vx_distribution>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryDistribution(bad, VX_DISTRIBUTION_BINS, &bins, sizeof bins), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyDistribution(bad, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxMapDistribution(bad, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxUnmapDistribution(bad, 1), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseDistribution(&wrong), VX_ERROR_INVALID_REFERENCE);
}

// ---- Virtual objects, outside and inside graphs ----

TEST_F(OpenVx, VirtualSmallObjectsAreNotAccessibleToTheApplication) {
  vx_graph graph = vxCreateGraph(context_);
  vx_lut lut = vxCreateVirtualLUT(graph, VX_TYPE_UINT8, 256);
  vx_matrix matrix = vxCreateVirtualMatrix(graph, VX_TYPE_INT32, 3, 3);
  vx_convolution conv = vxCreateVirtualConvolution(graph, 3, 3);
  vx_threshold threshold = vxCreateVirtualThresholdForImage(graph, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_distribution dist = vxCreateVirtualDistribution(graph, 16, 0, 256);
  for (vx_reference r : {ref(lut), ref(matrix), ref(conv), ref(threshold), ref(dist)}) ASSERT_EQ(vxGetStatus(r), VX_SUCCESS);
  std::vector<vx_uint8> buffer(1024);
  vx_map_id id = 0;
  void* ptr = nullptr;
  vx_pixel_value_t v{};
  EXPECT_EQ(vxCopyLUT(lut, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapLUT(lut, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyMatrix(matrix, buffer.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyConvolutionCoefficients(conv, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyThresholdValue(threshold, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyDistribution(dist, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapDistribution(dist, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  // Their attributes can be queried.
  vx_size count = 0;
  EXPECT_EQ(vxQueryLUT(lut, VX_LUT_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 256u);
  // Open attributes are allowed on virtual objects only.
  vx_lut open_lut = vxCreateVirtualLUT(graph, VX_TYPE_INVALID, 0);
  vx_matrix open_matrix = vxCreateVirtualMatrix(graph, VX_TYPE_INVALID, 0, 0);
  vx_convolution open_conv = vxCreateVirtualConvolution(graph, 0, 0);
  vx_distribution open_dist = vxCreateVirtualDistribution(graph, 0, 0, 0);
  for (vx_reference r : {ref(open_lut), ref(open_matrix), ref(open_conv), ref(open_dist)}) EXPECT_EQ(vxGetStatus(r), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualLUT(graph, VX_TYPE_FLOAT32, 0))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualConvolution(graph, 4, 3))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualDistribution(graph, 20, 0, 10))), VX_ERROR_INVALID_PARAMETERS);
  for (vx_reference r : {ref(lut), ref(matrix), ref(conv), ref(threshold), ref(dist), ref(open_lut), ref(open_matrix),
                         ref(open_conv), ref(open_dist)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

// Two user kernels pass a virtual object of one type: the first describes it with vxSetMetaFormatAttribute,
// the second describes its own (non-virtual) output with vxSetMetaFormatFromReference. Each adds 1 to every
// byte of the data, reading with a map where the type has one, writing with a copy.

vx_enum type_of(vx_reference r) {
  vx_enum type = VX_TYPE_INVALID;
  return vxQueryReference(r, VX_REFERENCE_TYPE, &type, sizeof type) == VX_SUCCESS ? type : VX_TYPE_INVALID;
}

vx_size data_size(vx_reference r) {
  vx_size size = 0;
  switch (type_of(r)) {
    case VX_TYPE_LUT: vxQueryLUT(reinterpret_cast<vx_lut>(r), VX_LUT_SIZE, &size, sizeof size); break;
    case VX_TYPE_MATRIX: vxQueryMatrix(reinterpret_cast<vx_matrix>(r), VX_MATRIX_SIZE, &size, sizeof size); break;
    case VX_TYPE_CONVOLUTION: vxQueryConvolution(reinterpret_cast<vx_convolution>(r), VX_CONVOLUTION_SIZE, &size, sizeof size); break;
    case VX_TYPE_DISTRIBUTION: vxQueryDistribution(reinterpret_cast<vx_distribution>(r), VX_DISTRIBUTION_SIZE, &size, sizeof size); break;
    case VX_TYPE_THRESHOLD: {
      // As bytes: the value (binary) or lower and upper (range), then the true and false outputs.
      vx_enum type = 0;
      vxQueryThreshold(reinterpret_cast<vx_threshold>(r), VX_THRESHOLD_TYPE, &type, sizeof type);
      size = (type == VX_THRESHOLD_TYPE_RANGE ? 4 : 3) * sizeof(vx_pixel_value_t);
      break;
    }
    default: break;
  }
  return size;
}

vx_status copy_threshold(vx_threshold t, std::vector<vx_uint8>& data, vx_enum usage) {
  auto* values = reinterpret_cast<vx_pixel_value_t*>(data.data());
  const bool range = data.size() == 4 * sizeof(vx_pixel_value_t);
  const vx_status s = range ? vxCopyThresholdRange(t, &values[0], &values[1], usage, VX_MEMORY_TYPE_HOST)
                            : vxCopyThresholdValue(t, &values[0], usage, VX_MEMORY_TYPE_HOST);
  if (s != VX_SUCCESS) return s;
  return vxCopyThresholdOutput(t, &values[range ? 2 : 1], &values[range ? 3 : 2], usage, VX_MEMORY_TYPE_HOST);
}

vx_status read_data(vx_reference r, std::vector<vx_uint8>& data) {
  data.assign(data_size(r), 0);
  if (data.empty()) return VX_FAILURE;
  vx_map_id id = 0;
  void* ptr = nullptr;
  vx_status s = VX_SUCCESS;
  switch (type_of(r)) {
    case VX_TYPE_LUT:
      s = vxMapLUT(reinterpret_cast<vx_lut>(r), &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
      if (s != VX_SUCCESS) return s;
      std::memcpy(data.data(), ptr, data.size());
      return vxUnmapLUT(reinterpret_cast<vx_lut>(r), id);
    case VX_TYPE_DISTRIBUTION:
      s = vxMapDistribution(reinterpret_cast<vx_distribution>(r), &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
      if (s != VX_SUCCESS) return s;
      std::memcpy(data.data(), ptr, data.size());
      return vxUnmapDistribution(reinterpret_cast<vx_distribution>(r), id);
    case VX_TYPE_MATRIX: return vxCopyMatrix(reinterpret_cast<vx_matrix>(r), data.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_CONVOLUTION:
      return vxCopyConvolutionCoefficients(reinterpret_cast<vx_convolution>(r), data.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_THRESHOLD: return copy_threshold(reinterpret_cast<vx_threshold>(r), data, VX_READ_ONLY);
    default: return VX_FAILURE;
  }
}

vx_status write_data(vx_reference r, std::vector<vx_uint8>& data) {
  if (data.size() != data_size(r)) return VX_FAILURE;
  switch (type_of(r)) {
    case VX_TYPE_LUT: return vxCopyLUT(reinterpret_cast<vx_lut>(r), data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_DISTRIBUTION:
      return vxCopyDistribution(reinterpret_cast<vx_distribution>(r), data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_MATRIX: return vxCopyMatrix(reinterpret_cast<vx_matrix>(r), data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_CONVOLUTION:
      return vxCopyConvolutionCoefficients(reinterpret_cast<vx_convolution>(r), data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    case VX_TYPE_THRESHOLD: return copy_threshold(reinterpret_cast<vx_threshold>(r), data, VX_WRITE_ONLY);
    default: return VX_FAILURE;
  }
}

vx_status VX_CALLBACK add_one_to_bytes(vx_node, const vx_reference* parameters, vx_uint32) {
  std::vector<vx_uint8> data;
  if (const vx_status s = read_data(parameters[0], data); s != VX_SUCCESS) return s;
  for (vx_uint8& b : data) b = static_cast<vx_uint8>(b + 1);
  return write_data(parameters[1], data);
}

/// Describes output 1 like input 0, attribute by attribute.
vx_status VX_CALLBACK describe_by_attributes(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  vx_reference in = parameters[0];
  vx_status s = VX_SUCCESS;
  switch (type_of(in)) {
    case VX_TYPE_LUT: {
      vx_enum type = 0;
      vx_size count = 0;
      s |= vxQueryLUT(reinterpret_cast<vx_lut>(in), VX_LUT_TYPE, &type, sizeof type);
      s |= vxQueryLUT(reinterpret_cast<vx_lut>(in), VX_LUT_COUNT, &count, sizeof count);
      s |= vxSetMetaFormatAttribute(metas[1], VX_LUT_TYPE, &type, sizeof type);
      s |= vxSetMetaFormatAttribute(metas[1], VX_LUT_COUNT, &count, sizeof count);
      break;
    }
    case VX_TYPE_MATRIX: {
      vx_enum type = 0;
      vx_size rows = 0, columns = 0;
      s |= vxQueryMatrix(reinterpret_cast<vx_matrix>(in), VX_MATRIX_TYPE, &type, sizeof type);
      s |= vxQueryMatrix(reinterpret_cast<vx_matrix>(in), VX_MATRIX_ROWS, &rows, sizeof rows);
      s |= vxQueryMatrix(reinterpret_cast<vx_matrix>(in), VX_MATRIX_COLUMNS, &columns, sizeof columns);
      s |= vxSetMetaFormatAttribute(metas[1], VX_MATRIX_TYPE, &type, sizeof type);
      s |= vxSetMetaFormatAttribute(metas[1], VX_MATRIX_ROWS, &rows, sizeof rows);
      s |= vxSetMetaFormatAttribute(metas[1], VX_MATRIX_COLUMNS, &columns, sizeof columns);
      break;
    }
    case VX_TYPE_CONVOLUTION: {
      vx_size rows = 0, columns = 0;
      s |= vxQueryConvolution(reinterpret_cast<vx_convolution>(in), VX_CONVOLUTION_ROWS, &rows, sizeof rows);
      s |= vxQueryConvolution(reinterpret_cast<vx_convolution>(in), VX_CONVOLUTION_COLUMNS, &columns, sizeof columns);
      s |= vxSetMetaFormatAttribute(metas[1], VX_CONVOLUTION_ROWS, &rows, sizeof rows);
      s |= vxSetMetaFormatAttribute(metas[1], VX_CONVOLUTION_COLUMNS, &columns, sizeof columns);
      break;
    }
    case VX_TYPE_DISTRIBUTION: {
      vx_size bins = 0;
      vx_int32 offset = 0;
      vx_uint32 range = 0;
      s |= vxQueryDistribution(reinterpret_cast<vx_distribution>(in), VX_DISTRIBUTION_BINS, &bins, sizeof bins);
      s |= vxQueryDistribution(reinterpret_cast<vx_distribution>(in), VX_DISTRIBUTION_OFFSET, &offset, sizeof offset);
      s |= vxQueryDistribution(reinterpret_cast<vx_distribution>(in), VX_DISTRIBUTION_RANGE, &range, sizeof range);
      s |= vxSetMetaFormatAttribute(metas[1], VX_DISTRIBUTION_BINS, &bins, sizeof bins);
      s |= vxSetMetaFormatAttribute(metas[1], VX_DISTRIBUTION_OFFSET, &offset, sizeof offset);
      s |= vxSetMetaFormatAttribute(metas[1], VX_DISTRIBUTION_RANGE, &range, sizeof range);
      break;
    }
    case VX_TYPE_THRESHOLD: {
      vx_enum type = 0;
      s |= vxQueryThreshold(reinterpret_cast<vx_threshold>(in), VX_THRESHOLD_TYPE, &type, sizeof type);
      s |= vxSetMetaFormatAttribute(metas[1], VX_THRESHOLD_TYPE, &type, sizeof type);
      break;
    }
    default: return VX_ERROR_INVALID_TYPE;
  }
  return s == VX_SUCCESS ? VX_SUCCESS : VX_FAILURE;
}

vx_status VX_CALLBACK describe_by_reference(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  return vxSetMetaFormatFromReference(metas[1], parameters[0]);
}

class OpenVxSmallObjectGraph : public OpenVx {
 protected:
  void TearDown() override {
    for (vx_kernel k : kernels_) EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_kernel add_kernel(vx_enum type, vx_kernel_validate_f validate, const char* name) {
    vx_kernel k = add_user_kernel(context_, name, add_one_to_bytes, {{VX_INPUT, type}, {VX_OUTPUT, type}}, validate);
    kernels_.push_back(k);
    return k;
  }
  /// in -> (attributes) -> middle (virtual) -> (reference) -> out; out's bytes are in's plus 2.
  void chain(vx_enum type, vx_reference in, vx_reference middle, vx_reference out) {
    const std::string base = "org.visiongraph.test.small." + std::to_string(type);
    vx_kernel first = add_kernel(type, describe_by_attributes, (base + ".a").c_str());
    vx_kernel second = add_kernel(type, describe_by_reference, (base + ".b").c_str());
    std::vector<vx_uint8> data;
    ASSERT_EQ(read_data(in, data), VX_SUCCESS);
    for (vx_size i = 0; i < data.size(); ++i) data[i] = static_cast<vx_uint8>(i * 7);
    ASSERT_EQ(write_data(in, data), VX_SUCCESS);
    vx_node a = vxCreateGenericNode(graph_, first);
    vx_node b = vxCreateGenericNode(graph_, second);
    EXPECT_EQ(vxSetParameterByIndex(a, 0, in), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(a, 1, middle), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(b, 0, middle), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(b, 1, out), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(data_size(middle), data.size()) << "verification settled the virtual object";
    std::vector<vx_uint8> result;
    ASSERT_EQ(read_data(out, result), VX_SUCCESS);
    ASSERT_EQ(result.size(), data.size());
    for (vx_size i = 0; i < data.size(); ++i) EXPECT_EQ(result[i], static_cast<vx_uint8>(i * 7 + 2)) << i;
    EXPECT_EQ(read_data(middle, result), VX_ERROR_OPTIMIZED_AWAY);
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
  }
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
  }
  void release(std::initializer_list<vx_reference> refs) {
    for (vx_reference r : refs) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
  }

  std::vector<vx_kernel> kernels_;
  vx_graph graph_ = nullptr;
};

TEST_F(OpenVxSmallObjectGraph, AVirtualLutBetweenTwoKernels) {
  vx_lut in = vxCreateLUT(context_, VX_TYPE_INT16, 300), out = vxCreateLUT(context_, VX_TYPE_INT16, 300);
  vx_lut middle = vxCreateVirtualLUT(graph_, VX_TYPE_INVALID, 0);
  chain(VX_TYPE_LUT, ref(in), ref(middle), ref(out));
  vx_uint32 offset = 0;
  EXPECT_EQ(vxQueryLUT(middle, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 150u);
  release({ref(in), ref(middle), ref(out)});
}

TEST_F(OpenVxSmallObjectGraph, AVirtualMatrixBetweenTwoKernels) {
  vx_matrix in = vxCreateMatrix(context_, VX_TYPE_FLOAT32, 4, 3), out = vxCreateMatrix(context_, VX_TYPE_FLOAT32, 4, 3);
  vx_matrix middle = vxCreateVirtualMatrix(graph_, VX_TYPE_FLOAT32, 0, 0);
  chain(VX_TYPE_MATRIX, ref(in), ref(middle), ref(out));
  vx_coordinates2d_t origin{};
  EXPECT_EQ(vxQueryMatrix(middle, VX_MATRIX_ORIGIN, &origin, sizeof origin), VX_SUCCESS);
  EXPECT_EQ(origin.x, 2u);
  EXPECT_EQ(origin.y, 1u);
  release({ref(in), ref(middle), ref(out)});
}

TEST_F(OpenVxSmallObjectGraph, AVirtualConvolutionBetweenTwoKernels) {
  vx_convolution in = vxCreateConvolution(context_, 5, 3), out = vxCreateConvolution(context_, 5, 3);
  vx_convolution middle = vxCreateVirtualConvolution(graph_, 0, 0);
  chain(VX_TYPE_CONVOLUTION, ref(in), ref(middle), ref(out));
  release({ref(in), ref(middle), ref(out)});
}

TEST_F(OpenVxSmallObjectGraph, AVirtualDistributionBetweenTwoKernels) {
  vx_distribution in = vxCreateDistribution(context_, 8, -4, 64), out = vxCreateDistribution(context_, 8, -4, 64);
  vx_distribution middle = vxCreateVirtualDistribution(graph_, 0, 0, 0);
  chain(VX_TYPE_DISTRIBUTION, ref(in), ref(middle), ref(out));
  vx_int32 offset = 0;
  EXPECT_EQ(vxQueryDistribution(middle, VX_DISTRIBUTION_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, -4) << "taken from validate";
  release({ref(in), ref(middle), ref(out)});
}

TEST_F(OpenVxSmallObjectGraph, AVirtualThresholdBetweenTwoKernels) {
  vx_threshold in = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_threshold out = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_threshold middle = vxCreateVirtualThresholdForImage(graph_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  chain(VX_TYPE_THRESHOLD, ref(in), ref(middle), ref(out));
  release({ref(in), ref(middle), ref(out)});
}

TEST_F(OpenVxSmallObjectGraph, OutputsThatDoNotMatchValidateFailVerification) {
  vx_kernel k = add_kernel(VX_TYPE_MATRIX, describe_by_attributes, "org.visiongraph.test.small.mismatch");
  vx_matrix in = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 3);
  vx_matrix out = vxCreateMatrix(context_, VX_TYPE_INT32, 3, 5);
  vx_node n = vxCreateGenericNode(graph_, k);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_DIMENSION);
  vx_matrix wrong_type = vxCreateVirtualMatrix(graph_, VX_TYPE_FLOAT32, 0, 0);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(wrong_type)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  // A threshold of another type than validate says.
  vx_kernel t = add_kernel(VX_TYPE_THRESHOLD, describe_by_reference, "org.visiongraph.test.small.threshold_mismatch");
  vx_threshold binary = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_threshold range = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8);
  vx_graph lone = vxCreateGraph(context_);
  vx_node tn2 = vxCreateGenericNode(lone, t);
  EXPECT_EQ(vxSetParameterByIndex(tn2, 0, ref(binary)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(tn2, 1, ref(range)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(lone), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxReleaseNode(&tn2), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&lone), VX_SUCCESS);
  release({ref(in), ref(out), ref(wrong_type), ref(binary), ref(range)});
}

}  // namespace
