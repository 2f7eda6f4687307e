// <VX/vx_khr_nn.h> and <VX/vx_compatibility.h> at run time: the layer creators fail cleanly (not implemented
// yet), the OpenVX 1.0 / 1.1 functions forward to their replacements, and the ones without one fail cleanly.
#include <VX/vx.h>
#include <VX/vx_compatibility.h>
#include <VX/vx_khr_nn.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::status_of;
using vg_openvx_test::write_pixels;

constexpr vx_uint32 kW = 8, kH = 4;

TEST_F(OpenVx, NeuralNetworkLayersAreNotImplementedYet) {
  vx_graph graph = vxCreateGraph(context_);
  const vx_size dims[3] = {4, 4, 2};
  vx_tensor in = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8);
  vx_tensor out = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8);
  const vx_nn_convolution_params_t conv{0, 0, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO,
                                        VX_NN_DS_SIZE_ROUNDING_FLOOR, 0, 0};
  const vx_nn_deconvolution_params_t deconv{0, 0, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO, 0, 0};
  const vx_nn_roi_pool_params_t roi{VX_NN_POOLING_MAX};
  const std::vector<vx_node> nodes = {
      vxConvolutionLayer(graph, in, in, nullptr, &conv, sizeof conv, out),
      vxFullyConnectedLayer(graph, in, in, nullptr, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO, out),
      vxPoolingLayer(graph, in, VX_NN_POOLING_AVG, 2, 2, 0, 0, VX_NN_DS_SIZE_ROUNDING_CEILING, out),
      vxSoftmaxLayer(graph, in, out),
      vxLocalResponseNormalizationLayer(graph, in, VX_NN_NORMALIZATION_ACROSS_MAPS, 3, 1e-4f, 0.75f, 1.0f, out),
      vxActivationLayer(graph, in, VX_NN_ACTIVATION_RELU, 0.0f, 0.0f, out),
      vxROIPoolingLayer(graph, in, in, &roi, sizeof roi, out),
      vxDeconvolutionLayer(graph, in, in, nullptr, &deconv, sizeof deconv, out),
      vxNormalizationLayer(graph, in, VX_NN_NORMALIZATION_SAME_MAP, 3, 1e-4f, 0.75f, out)};
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(status_of(nodes[i]), VX_ERROR_NOT_IMPLEMENTED) << i;
  vx_uint32 count = 99;
  EXPECT_EQ(vxQueryGraph(graph, VX_GRAPH_NUMNODES, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(vxReleaseTensor(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVx, OldReadAndWriteFunctionsCopyLikeTheirReplacements) {
  vx_int32 seven = 7, value = 0;
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, &seven);
  EXPECT_EQ(vxReadScalarValue(scalar, &value), VX_SUCCESS);
  EXPECT_EQ(value, 7);
  const vx_int32 nine = 9;
  EXPECT_EQ(vxWriteScalarValue(scalar, &nine), VX_SUCCESS);
  EXPECT_EQ(vg_openvx_test::read_int32(scalar), 9);
  EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
  EXPECT_EQ(vxReadScalarValue(nullptr, &value), VX_ERROR_INVALID_REFERENCE);

  vx_matrix matrix = vxCreateMatrix(context_, VX_TYPE_FLOAT32, 2, 2);
  const std::array<vx_float32, 4> m_in{1.5f, -2.0f, 0.25f, 8.0f};
  std::array<vx_float32, 4> m_out{};
  EXPECT_EQ(vxWriteMatrix(matrix, m_in.data()), VX_SUCCESS);
  EXPECT_EQ(vxReadMatrix(matrix, m_out.data()), VX_SUCCESS);
  EXPECT_EQ(m_out, m_in);
  EXPECT_EQ(vxReleaseMatrix(&matrix), VX_SUCCESS);

  vx_convolution conv = vxCreateConvolution(context_, 3, 3);
  const std::array<vx_int16, 9> c_in{1, 2, 1, 0, -4, 0, -1, -2, -1};
  std::array<vx_int16, 9> c_out{};
  EXPECT_EQ(vxWriteConvolutionCoefficients(conv, c_in.data()), VX_SUCCESS);
  EXPECT_EQ(vxReadConvolutionCoefficients(conv, c_out.data()), VX_SUCCESS);
  EXPECT_EQ(c_out, c_in);
  EXPECT_EQ(vxReleaseConvolution(&conv), VX_SUCCESS);

  vx_remap remap = vxCreateRemap(context_, 16, 16, 8, 8);
  EXPECT_EQ(vxSetRemapPoint(remap, 3, 5, 6.5f, 10.25f), VX_SUCCESS);
  vx_float32 x = 0, y = 0;
  EXPECT_EQ(vxGetRemapPoint(remap, 3, 5, &x, &y), VX_SUCCESS);
  EXPECT_EQ(x, 6.5f);
  EXPECT_EQ(y, 10.25f);
  EXPECT_NE(vxGetRemapPoint(remap, 8, 0, &x, &y), VX_SUCCESS);  // outside the destination
  EXPECT_EQ(vxGetRemapPoint(remap, 0, 0, nullptr, &y), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
}

TEST_F(OpenVx, OldThresholdHasTheDataTypeAsInputAndEightBitOutput) {
  vx_threshold threshold = vxCreateThreshold(context_, VX_THRESHOLD_TYPE_RANGE, VX_TYPE_INT16);
  ASSERT_EQ(status_of(threshold), VX_SUCCESS);
  vx_enum type = 0;
  vx_df_image input = 0, output = 0;
  EXPECT_EQ(vxQueryThreshold(threshold, VX_THRESHOLD_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(vxQueryThreshold(threshold, VX_THRESHOLD_INPUT_FORMAT, &input, sizeof input), VX_SUCCESS);
  EXPECT_EQ(vxQueryThreshold(threshold, VX_THRESHOLD_OUTPUT_FORMAT, &output, sizeof output), VX_SUCCESS);
  EXPECT_EQ(type, VX_THRESHOLD_TYPE_RANGE);
  EXPECT_EQ(input, static_cast<vx_df_image>(VX_DF_IMAGE_S16));
  EXPECT_EQ(output, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
  EXPECT_EQ(vxReleaseThreshold(&threshold), VX_SUCCESS);
  EXPECT_NE(status_of(vxCreateThreshold(context_, VX_THRESHOLD_TYPE_BINARY, VX_TYPE_FLOAT32)), VX_SUCCESS);
  EXPECT_EQ(vxCreateThreshold(nullptr, VX_THRESHOLD_TYPE_BINARY, VX_TYPE_UINT8), nullptr);
}

TEST_F(OpenVx, AccumulateNodesAndImmediateFunctionsRunTheStandardKernels) {
  Pixels<vx_uint8> input(kW, kH);
  Pixels<vx_int16> accum(kW, kH);
  for (std::size_t i = 0; i < input.values.size(); ++i) {
    input.values[i] = static_cast<vx_uint8>(i * 7);
    accum.values[i] = static_cast<vx_int16>(100 - static_cast<int>(i));
  }
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image acc = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_S16);
  write_pixels(in, input);
  write_pixels(acc, accum);

  // accum += input, once in a graph and once immediately.
  EXPECT_EQ(vg_openvx_test::run_node(context_, [&](vx_graph g) { return vxAccumulateImageNode(g, in, acc); }), VX_SUCCESS);
  EXPECT_EQ(vxuAccumulateImage(context_, in, acc), VX_SUCCESS);
  for (std::size_t i = 0; i < accum.values.size(); ++i) accum.values[i] = static_cast<vx_int16>(accum.values[i] + 2 * input.values[i]);
  EXPECT_EQ(read_pixels<vx_int16>(acc).values, accum.values);

  // accum += input * input >> 4.
  const vx_uint32 shift = 4;
  vx_scalar shift_scalar = vxCreateScalar(context_, VX_TYPE_UINT32, &shift);
  EXPECT_EQ(vg_openvx_test::run_node(context_, [&](vx_graph g) { return vxAccumulateSquareImageNode(g, in, shift_scalar, acc); }),
            VX_SUCCESS);
  EXPECT_EQ(vxuAccumulateSquareImage(context_, in, shift_scalar, acc), VX_SUCCESS);
  for (std::size_t i = 0; i < accum.values.size(); ++i) {
    const int sq = (input.values[i] * input.values[i]) >> shift;
    int v = accum.values[i];
    for (int k = 0; k < 2; ++k) v = std::min(32767, v + sq);
    accum.values[i] = static_cast<vx_int16>(v);
  }
  EXPECT_EQ(read_pixels<vx_int16>(acc).values, accum.values);

  // alpha 1: the U8 accumulator becomes the input.
  Pixels<vx_uint8> zeros(kW, kH);
  vx_image acc8 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  write_pixels(acc8, zeros);
  const vx_float32 one = 1.0f;
  vx_scalar alpha = vxCreateScalar(context_, VX_TYPE_FLOAT32, &one);
  EXPECT_EQ(vg_openvx_test::run_node(context_, [&](vx_graph g) { return vxAccumulateWeightedImageNode(g, in, alpha, acc8); }),
            VX_SUCCESS);
  EXPECT_EQ(read_pixels<vx_uint8>(acc8).values, input.values);
  write_pixels(acc8, zeros);
  EXPECT_EQ(vxuAccumulateWeightedImage(context_, in, alpha, acc8), VX_SUCCESS);
  EXPECT_EQ(read_pixels<vx_uint8>(acc8).values, input.values);

  EXPECT_EQ(vxuAccumulateImage(nullptr, in, acc), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAccumulateImageNode(nullptr, in, acc), nullptr);
  for (vx_scalar* s : {&shift_scalar, &alpha}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  for (vx_image* i : {&in, &acc, &acc8}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

vx_status VX_CALLBACK nothing(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

TEST_F(OpenVx, OldAccessFunctionsAndAddKernelFailCleanly) {
  vx_kernel kernel = vxAddKernel(context_, "org.example.old", VX_KERNEL_BASE(VX_ID_USER, 0), nothing, 1, nullptr, nullptr,
                                 nullptr, nullptr);
  EXPECT_EQ(status_of(kernel), VX_ERROR_NOT_IMPLEMENTED);
  vx_image image = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  const vx_rectangle_t rect{0, 0, kW, kH};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  EXPECT_EQ(vxComputeImagePatchSize(image, &rect, 0), 0u);
  EXPECT_EQ(vxAccessImagePatch(image, &rect, 0, &addr, &ptr, VX_READ_ONLY), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxCommitImagePatch(image, &rect, 0, &addr, ptr), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  vx_lut lut = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
  EXPECT_EQ(vxAccessLUT(lut, &ptr, VX_READ_ONLY), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxCommitLUT(lut, ptr), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
  vx_distribution distribution = vxCreateDistribution(context_, 16, 0, 256);
  EXPECT_EQ(vxAccessDistribution(distribution, &ptr, VX_READ_ONLY), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxCommitDistribution(distribution, ptr), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxReleaseDistribution(&distribution), VX_SUCCESS);
  vx_array array = vxCreateArray(context_, VX_TYPE_UINT32, 4);
  vx_size stride = 0;
  EXPECT_EQ(vxAccessArrayRange(array, 0, 1, &stride, &ptr, VX_READ_ONLY), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxCommitArrayRange(array, 0, 1, ptr), VX_ERROR_NOT_IMPLEMENTED);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

}  // namespace
