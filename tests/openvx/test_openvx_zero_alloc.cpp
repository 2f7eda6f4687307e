// After verification, OpenVX frames allocate nothing: vxProcessGraph of user and standard kernels, and a
// queued graph whose frames overlap on two targets (enqueue, run, dequeue), counted over every thread.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "alloc_counter.hpp"
#include "openvx_zero_alloc.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::add_user_kernel;
using vg_openvx_test::int32_output;
using vg_openvx_test::OpenVx;
using vg_openvx_test::read_int32;
using vg_openvx_test::write_int32;

vx_status VX_CALLBACK plus_one(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_int32 v = 0;
  if (vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  v += 1;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

class OpenVxZeroAlloc : public OpenVx {
 protected:
  static constexpr int kRefs = 4;
  void SetUp() override {
    OpenVx::SetUp();
    kernel_ = add_user_kernel(context_, "org.visiongraph.test.zero_alloc.plus_one", plus_one,
                              {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}, int32_output);
    graph_ = vxCreateGraph(context_);
    for (int i = 0; i < kRefs; ++i) {
      ins_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
      outs_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    }
    // in -> first (cpu0) -> virtual -> second (cpu1) -> out.
    vx_scalar between = vxCreateVirtualScalar(graph_, VX_TYPE_INT32);
    vx_node first = vxCreateGenericNode(graph_, kernel_), second = vxCreateGenericNode(graph_, kernel_);
    EXPECT_EQ(vxSetParameterByIndex(first, 0, ref(ins_[0])), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(first, 1, ref(between)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(second, 0, ref(between)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(second, 1, ref(outs_[0])), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(first, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(second, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
    for (auto [node, index] : {std::pair{first, 0u}, std::pair{second, 1u}}) {
      vx_parameter p = vxGetParameterByIndex(node, index);
      EXPECT_EQ(vxAddParameterToGraph(graph_, p), VX_SUCCESS);
      EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
    EXPECT_EQ(vxReleaseNode(&first), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&second), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&between), VX_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    for (int i = 0; i < kRefs; ++i) {
      EXPECT_EQ(vxReleaseScalar(&ins_[i]), VX_SUCCESS);
      EXPECT_EQ(vxReleaseScalar(&outs_[i]), VX_SUCCESS);
    }
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_scalar ins_[kRefs] = {}, outs_[kRefs] = {};
};

TEST_F(OpenVxZeroAlloc, ProcessGraphAllocatesNothingPerFrame) {
  write_int32(ins_[0], 1);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph_, 10, 200));
  EXPECT_EQ(read_int32(outs_[0]), 3);
}

TEST_F(OpenVxZeroAlloc, StandardKernelsAllocateNothingPerFrame) {
  // A chain of standard kernels of each family through virtual images: filter, bitwise, arithmetic and
  // conversion kernels map and unmap their images every frame.
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8), out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image blurred = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT), inverted = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image difference = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);  // U8: AbsDiff of two U8 images
  vx_image lowered = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);     // S16: Subtract's open output
  vx_pixel_value_t value{};
  value.U8 = 40;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  vx_int32 no_shift = 0;
  vx_scalar shift = vxCreateScalar(context_, VX_TYPE_INT32, &no_shift);
  vx_node nodes[5] = {vxGaussian3x3Node(graph, in, blurred), vxNotNode(graph, blurred, inverted), vxAbsDiffNode(graph, inverted, in, difference),
                      vxSubtractNode(graph, difference, in, VX_CONVERT_POLICY_SATURATE, lowered),
                      vxConvertDepthNode(graph, lowered, out, VX_CONVERT_POLICY_SATURATE, shift)};
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 100));
  vx_uint8 pixel = 0;
  const vx_rectangle_t one{5, 5, 6, 6};
  vx_imagepatch_addressing_t addressing{1, 1, 1, 1, VX_SCALE_UNITY, VX_SCALE_UNITY, 1, 1, 0};
  ASSERT_EQ(vxCopyImagePatch(out, &one, 0, &addressing, &pixel, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(pixel, 255 - 40 - 40 - 40) << "|(255 - 40) - 40| - 40";
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_image* i : {&in, &out, &blurred, &inverted, &difference, &lowered}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&shift), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, FusedFilterChainAllocatesNothingPerFrame) {
  // Gaussian3x3 -> Box3x3 -> Median3x3 -> Erode3x3 over virtual images runs as one chain, band by band
  // (rings allocated at verification), its frame split over two targets at this size; a small one too.
  for (const std::array<vx_uint32, 2> size : {std::array<vx_uint32, 2>{640, 480}, std::array<vx_uint32, 2>{37, 13}}) {
    const vx_uint32 w = size[0], h = size[1];
    vx_graph graph = vxCreateGraph(context_);
    vx_image in = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8), out = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
    vx_image a = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8), b = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8);
    vx_image c = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8);
    vx_pixel_value_t value{};
    value.U8 = 90;
    ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
    vx_node nodes[4] = {vxGaussian3x3Node(graph, in, a), vxBox3x3Node(graph, a, b), vxMedian3x3Node(graph, b, c), vxErode3x3Node(graph, c, out)};
    const vx_border_t border{VX_BORDER_CONSTANT, {}};
    ASSERT_EQ(vxSetNodeAttribute(nodes[1], VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    ASSERT_EQ(vxDirective(reinterpret_cast<vx_reference>(context_), VX_DIRECTIVE_ENABLE_PERFORMANCE), VX_SUCCESS);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 50));
    vx_uint8 pixel = 0;
    const vx_rectangle_t one{5, 5, 6, 6};
    vx_imagepatch_addressing_t addressing{1, 1, 1, 1, VX_SCALE_UNITY, VX_SCALE_UNITY, 1, 1, 0};
    ASSERT_EQ(vxCopyImagePatch(out, &one, 0, &addressing, &pixel, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(pixel, 90) << "a uniform image away from the border stays as it is";
    for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    for (vx_image* i : {&in, &out, &a, &b, &c}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
}

TEST_F(OpenVxZeroAlloc, StatisticsKernelsAllocateNothingPerFrame) {
  // Kernels writing scalars, arrays and a distribution: EqualizeHist, Histogram, IntegralImage, MinMaxLoc.
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8), sums = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U32);
  vx_image equalized = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_pixel_value_t value{};
  value.U8 = 9;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  vx_distribution histogram = vxCreateDistribution(context_, 16, 0, 256);
  vx_scalar min_value = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr), max_value = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr);
  vx_scalar min_count = vxCreateScalar(context_, VX_TYPE_SIZE, nullptr), max_count = vxCreateScalar(context_, VX_TYPE_SIZE, nullptr);
  vx_array min_places = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 8), max_places = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 8);
  vx_node nodes[4] = {vxEqualizeHistNode(graph, in, equalized), vxHistogramNode(graph, equalized, histogram), vxIntegralImageNode(graph, in, sums),
                      vxMinMaxLocNode(graph, in, min_value, max_value, min_places, max_places, min_count, max_count)};
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 100));
  vx_size found = 0;
  EXPECT_EQ(vxCopyScalar(min_count, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(found, 37u * 13u) << "every pixel is the minimum of a uniform image";
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_image* i : {&in, &sums, &equalized}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  for (vx_scalar* sc : {&min_value, &max_value, &min_count, &max_count}) EXPECT_EQ(vxReleaseScalar(sc), VX_SUCCESS);
  for (vx_array* a : {&min_places, &max_places}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDistribution(&histogram), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, PyramidKernelsAllocateNothingPerFrame) {
  // GaussianPyramid (ORB), HalfScaleGaussian, LaplacianPyramid and LaplacianReconstruct (whose scratch is
  // the node's local data, allocated at verification).
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 37, 29, VX_DF_IMAGE_U8), half = vxCreateImage(context_, 19, 15, VX_DF_IMAGE_U8);
  vx_image rebuilt = vxCreateImage(context_, 37, 29, VX_DF_IMAGE_U8);
  vx_pixel_value_t value{};
  value.U8 = 77;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  vx_pyramid gaussian = vxCreatePyramid(context_, 4, VX_SCALE_PYRAMID_ORB, 37, 29, VX_DF_IMAGE_U8);
  vx_pyramid laplacian = vxCreateVirtualPyramid(graph, 3, VX_SCALE_PYRAMID_HALF, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image lowest = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node nodes[4] = {vxGaussianPyramidNode(graph, in, gaussian), vxHalfScaleGaussianNode(graph, in, half, 5),
                      vxLaplacianPyramidNode(graph, in, laplacian, lowest), vxLaplacianReconstructNode(graph, laplacian, lowest, rebuilt)};
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 100));
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_image* i : {&in, &half, &rebuilt, &lowest}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  for (vx_pyramid* p : {&gaussian, &laplacian}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, RemapFastAndHarrisCornersAllocateNothingPerFrame) {
  // Remap reads its table in place; FastCorners keeps its rows of strengths, HarrisCorners its rows, candidates
  // and grid in the node's local data (allocated when the graph is verified), and both fill their arrays
  // through a batch on the stack.
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8), out = vxCreateImage(context_, 29, 17, VX_DF_IMAGE_U8);
  vx_remap table = vxCreateRemap(context_, 37, 13, 29, 17);
  std::vector<vx_coordinates2df_t> entries(29 * 17);
  for (vx_uint32 i = 0; i < entries.size(); ++i) entries[i] = {static_cast<float>(i % 29) * 1.3f - 2.0f, static_cast<float>(i / 29) * 0.7f + 0.4f};
  const vx_rectangle_t all{0, 0, 29, 17};
  ASSERT_EQ(vxCopyRemapPatch(table, &all, 29 * sizeof(vx_coordinates2df_t), entries.data(), VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY,
                             VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  std::vector<vx_uint8> pixels(37 * 13);
  for (vx_uint32 i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<vx_uint8>((i * 97u) ^ (i / 37u * 31u));
  vx_imagepatch_addressing_t addressing{37, 13, 1, 37, VX_SCALE_UNITY, VX_SCALE_UNITY, 1, 1, 0};
  const vx_rectangle_t whole{0, 0, 37, 13};
  ASSERT_EQ(vxCopyImagePatch(in, &whole, 0, &addressing, pixels.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_float32 threshold = 20.0f;
  vx_scalar strength = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold), count = vxCreateScalar(context_, VX_TYPE_SIZE, nullptr);
  vx_array corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, 100);
  const vx_float32 harris_threshold = 1e-6f, min_distance = 3.0f, sensitivity = 0.04f;
  vx_scalar harris_strength = vxCreateScalar(context_, VX_TYPE_FLOAT32, &harris_threshold);
  vx_scalar distance = vxCreateScalar(context_, VX_TYPE_FLOAT32, &min_distance);
  vx_scalar k = vxCreateScalar(context_, VX_TYPE_FLOAT32, &sensitivity), harris_count = vxCreateScalar(context_, VX_TYPE_SIZE, nullptr);
  vx_array harris_corners = vxCreateArray(context_, VX_TYPE_KEYPOINT, 100);
  vx_node nodes[3] = {vxRemapNode(graph, in, table, VX_INTERPOLATION_BILINEAR, out), vxFastCornersNode(graph, in, strength, vx_true_e, corners, count),
                      vxHarrisCornersNode(graph, in, harris_strength, distance, k, 5, 3, harris_corners, harris_count)};
  const vx_border_t border{VX_BORDER_CONSTANT, {}};
  ASSERT_EQ(vxSetNodeAttribute(nodes[0], VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 100));
  vx_size found = 0;
  EXPECT_EQ(vxCopyScalar(count, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_GT(found, 0u) << "the pattern has corners";
  found = 0;
  EXPECT_EQ(vxCopyScalar(harris_count, &found, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_GT(found, 0u) << "the pattern has Harris corners";
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_image* i : {&in, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  for (vx_scalar* sc : {&strength, &count, &harris_strength, &distance, &k, &harris_count}) EXPECT_EQ(vxReleaseScalar(sc), VX_SUCCESS);
  for (vx_array* a : {&corners, &harris_corners}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
  EXPECT_EQ(vxReleaseRemap(&table), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, BilateralFilterAndHogAllocateNothingPerFrame) {
  // BilateralFilter keeps its ring of rows, weights and colour table, HOGCells its table of orientation bins
  // and HOGFeatures its blocks in the nodes' local data (allocated when the graph is verified).
  vx_graph graph = vxCreateGraph(context_);
  const vx_size dims[2] = {37, 13}, channels[3] = {3, 37, 13};
  vx_tensor src = vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0), dst = vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0);
  vx_tensor src3 = vxCreateTensor(context_, 3, channels, VX_TYPE_INT16, 8), dst3 = vxCreateTensor(context_, 3, channels, VX_TYPE_INT16, 8);
  std::vector<vx_uint8> bytes(37 * 13);
  for (vx_uint32 i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<vx_uint8>((i * 97u) ^ (i / 37u * 31u));
  const vx_size start[3] = {0, 0, 0}, strides[2] = {1, 37};
  ASSERT_EQ(vxCopyTensorPatch(src, 2, start, dims, strides, bytes.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  std::vector<vx_int16> values(3 * 37 * 13);
  for (vx_uint32 i = 0; i < values.size(); ++i) values[i] = static_cast<vx_int16>((i * 7919u) % 2000u) - 1000;
  const vx_size strides3[3] = {2, 6, 6 * 37};
  ASSERT_EQ(vxCopyTensorPatch(src3, 3, start, channels, strides3, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_image in = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_imagepatch_addressing_t addressing{37, 13, 1, 37, VX_SCALE_UNITY, VX_SCALE_UNITY, 1, 1, 0};
  const vx_rectangle_t whole{0, 0, 37, 13};
  ASSERT_EQ(vxCopyImagePatch(in, &whole, 0, &addressing, bytes.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_size cells[3] = {9, 3, 9};
  vx_tensor magnitudes = vxCreateTensor(context_, 2, cells, VX_TYPE_INT16, 8), bins = vxCreateTensor(context_, 3, cells, VX_TYPE_INT16, 8);
  const vx_hog_t params{4, 4, 8, 8, 4, 9, 16, 12, 4, 0.2f};
  const vx_size feature_dims[3] = {6, 1, 3 * 2 * 4 * 9};
  vx_tensor features = vxCreateTensor(context_, 3, feature_dims, VX_TYPE_INT16, 8);
  vx_node nodes[4] = {vxBilateralFilterNode(graph, src, 5, 2.0f, 20.0f, dst), vxBilateralFilterNode(graph, src3, 7, 3.0f, 200.0f, dst3),
                      vxHOGCellsNode(graph, in, 4, 4, 9, magnitudes, bins),
                      vxHOGFeaturesNode(graph, in, magnitudes, bins, &params, sizeof params, features)};
  const vx_border_t border{VX_BORDER_CONSTANT, {}};
  ASSERT_EQ(vxSetNodeAttribute(nodes[1], VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 3, 20));
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_tensor* t : {&src, &dst, &src3, &dst3, &magnitudes, &bins, &features}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, TensorArithmeticAllocatesNothingPerFrame) {
  // The element-wise kernels, the lookup, the transpose, the depth conversion and the matrix product run the
  // vision library's tensor functions on the tensors' memory through their strides: nothing to allocate.
  vx_graph graph = vxCreateGraph(context_);
  const vx_size dims[3] = {7, 5, 3}, row[3] = {7, 1, 3}, swapped[3] = {3, 5, 7}, square[2] = {6, 6};
  vx_tensor a = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8), b = vxCreateTensor(context_, 3, row, VX_TYPE_INT16, 8);
  vx_tensor sum = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8), difference = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8);
  vx_tensor product = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8), looked_up = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 8);
  vx_tensor transposed = vxCreateTensor(context_, 3, swapped, VX_TYPE_INT16, 8), bytes = vxCreateTensor(context_, 3, dims, VX_TYPE_UINT8, 0);
  vx_tensor m1 = vxCreateTensor(context_, 2, square, VX_TYPE_INT16, 8), m2 = vxCreateTensor(context_, 2, square, VX_TYPE_INT16, 8);
  vx_tensor m3 = vxCreateTensor(context_, 2, square, VX_TYPE_INT16, 8);
  std::vector<vx_int16> values(7 * 5 * 3);
  for (vx_uint32 i = 0; i < values.size(); ++i) values[i] = static_cast<vx_int16>((i * 7919u) % 4000u) - 2000;
  const vx_size start[3] = {0, 0, 0};
  for (vx_tensor t : {a, b, m1, m2}) {
    vx_size n = 0, d[3] = {};
    ASSERT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_SUCCESS);
    ASSERT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, d, n * sizeof(vx_size)), VX_SUCCESS);
    const vx_size s[3] = {2, 2 * d[0], 2 * d[0] * d[1]};
    ASSERT_EQ(vxCopyTensorPatch(t, n, start, d, s, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  vx_lut lut = vxCreateLUT(context_, VX_TYPE_INT16, 65536);
  vx_float32 half = 0.5f, norm = 4.0f, offset = 1.0f;
  vx_scalar scale = vxCreateScalar(context_, VX_TYPE_FLOAT32, &half), norm_s = vxCreateScalar(context_, VX_TYPE_FLOAT32, &norm);
  vx_scalar offset_s = vxCreateScalar(context_, VX_TYPE_FLOAT32, &offset);
  const vx_tensor_matrix_multiply_params_t mm{vx_false_e, vx_true_e, vx_false_e};
  vx_node nodes[7] = {vxTensorAddNode(graph, a, b, VX_CONVERT_POLICY_SATURATE, sum),
                      vxTensorSubtractNode(graph, a, b, VX_CONVERT_POLICY_WRAP, difference),
                      vxTensorMultiplyNode(graph, a, b, scale, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_NEAREST_EVEN, product),
                      vxTensorTableLookupNode(graph, a, lut, looked_up),
                      vxTensorTransposeNode(graph, a, transposed, 0, 2),
                      vxTensorConvertDepthNode(graph, a, VX_CONVERT_POLICY_SATURATE, norm_s, offset_s, bytes),
                      vxTensorMatrixMultiplyNode(graph, m1, m2, m1, &mm, m3)};
  for (vx_node n : nodes) ASSERT_NE(n, nullptr);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 3, 20));
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_tensor* t : {&a, &b, &sum, &difference, &product, &looked_up, &transposed, &bytes, &m1, &m2, &m3}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
  for (vx_scalar* sc : {&scale, &norm_s, &offset_s}) EXPECT_EQ(vxReleaseScalar(sc), VX_SUCCESS);
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVxZeroAlloc, OverlappingQueuedFramesAllocateNothing) {
  vx_graph_parameter_queue_params_t params[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins_)},
                                                 {1, kRefs, reinterpret_cast<vx_reference*>(outs_)}};
  ASSERT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, params), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (int i = 0; i < kRefs; ++i) {
    write_int32(ins_[i], i);
    vx_reference in = ref(ins_[i]), out = ref(outs_[i]);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_SUCCESS);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 1, &out, 1), VX_SUCCESS);
  }
  // One frame out, its references back in; the first 20 frames warm up, the next 400 are counted.
  bool ok = true;
  vx_int32 last = -1;
  for (int f = 0; f < 420; ++f) {
    if (f == 20) vg::test::arm_alloc_counter();
    vx_reference out = nullptr, in = nullptr;
    vx_uint32 n = 0;
    ok = ok && vxGraphParameterDequeueDoneRef(graph_, 1, &out, 1, &n) == VX_SUCCESS && n == 1;
    ok = ok && vxGraphParameterDequeueDoneRef(graph_, 0, &in, 1, &n) == VX_SUCCESS && n == 1;
    if (!ok) break;
    vx_int32 v = 0;
    ok = ok && vxCopyScalar(reinterpret_cast<vx_scalar>(out), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) == VX_SUCCESS;
    ok = ok && (last < 0 || v == last + 1);  // inputs count up by one per frame: outputs in frame order
    last = v;
    vx_int32 next = 0;
    ok = ok && vxCopyScalar(reinterpret_cast<vx_scalar>(in), &next, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) == VX_SUCCESS;
    next += kRefs;
    ok = ok && vxCopyScalar(reinterpret_cast<vx_scalar>(in), &next, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST) == VX_SUCCESS;
    ok = ok && vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1) == VX_SUCCESS;
    ok = ok && vxGraphParameterEnqueueReadyRef(graph_, 1, &out, 1) == VX_SUCCESS;
  }
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_TRUE(ok);
  EXPECT_EQ(counts.news, 0u);
  EXPECT_EQ(counts.mallocs, 0u);
  EXPECT_EQ(last, 419 + 2) << "frame 419's input was 419";
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
}

}  // namespace
