// VX_VALID_RECT_CALLBACK: vxVerifyGraph gives each output image (or pyramid level) the valid rectangle
// its kernel's callback computes from the node's input valid rectangles, in data-flow order, so a chain
// of nodes propagates them; VX_NODE_VALID_RECT_RESET makes the outputs whole instead; failing and
// out-of-bounds callbacks fail verification naming the node.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::log_lines;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;

constexpr vx_uint32 kWidth = 64, kHeight = 48;

struct CallbackCall {
  vx_uint32 index = 0;
  vx_rectangle_t input{};
};
std::vector<CallbackCall> calls;
vx_status callback_result = VX_SUCCESS;
vx_uint32 overshoot = 0;  // added to end_x: pushes the rectangle past the image

// A 3x3 filter's valid region: the input's, one pixel less on each side.
vx_status VX_CALLBACK shrink_by_one(vx_node, vx_uint32 index, const vx_rectangle_t* const input_valid[],
                                    vx_rectangle_t* const output_valid[]) {
  calls.push_back({index, *input_valid[0]});
  const vx_rectangle_t& in = *input_valid[0];
  *output_valid[0] = vx_rectangle_t{in.start_x + 1, in.start_y + 1, in.end_x - 1 + overshoot, in.end_y - 1};
  return callback_result;
}

vx_status VX_CALLBACK nothing(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

// Output image 1 is like input image 0, with the shrinking callback.
vx_status VX_CALLBACK validate_filter(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  vx_uint32 width = 0, height = 0;
  vx_df_image format = VX_DF_IMAGE_VIRT;
  vx_image input = reinterpret_cast<vx_image>(parameters[0]);
  vx_status s = vxQueryImage(input, VX_IMAGE_WIDTH, &width, sizeof width);
  if (s == VX_SUCCESS) s = vxQueryImage(input, VX_IMAGE_HEIGHT, &height, sizeof height);
  if (s == VX_SUCCESS) s = vxQueryImage(input, VX_IMAGE_FORMAT, &format, sizeof format);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_IMAGE_WIDTH, &width, sizeof width);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_IMAGE_HEIGHT, &height, sizeof height);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_IMAGE_FORMAT, &format, sizeof format);
  const vx_kernel_image_valid_rectangle_f callback = shrink_by_one;
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
  return s;
}

// Output pyramid 1 (2 levels, half scale) from input image 0: level k's valid region is the input's >> k.
vx_status VX_CALLBACK halve_per_level(vx_node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                      vx_rectangle_t* const output_valid[]) {
  for (vx_uint32 k = 0; k < 2; ++k) {
    const vx_rectangle_t& in = *input_valid[0];
    *output_valid[k] = vx_rectangle_t{in.start_x >> k, in.start_y >> k, in.end_x >> k, in.end_y >> k};
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK validate_pyramid(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  const vx_size levels = 2;
  const vx_float32 scale = VX_SCALE_PYRAMID_HALF;
  const vx_uint32 width = kWidth, height = kHeight;
  const vx_df_image format = VX_DF_IMAGE_U8;
  const vx_kernel_image_valid_rectangle_f callback = halve_per_level;
  vx_status s = vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_LEVELS, &levels, sizeof levels);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_SCALE, &scale, sizeof scale);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_WIDTH, &width, sizeof width);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_HEIGHT, &height, sizeof height);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_FORMAT, &format, sizeof format);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
  return s;
}

bool same(const vx_rectangle_t& a, const vx_rectangle_t& b) {
  return a.start_x == b.start_x && a.start_y == b.start_y && a.end_x == b.end_x && a.end_y == b.end_y;
}

vx_rectangle_t valid_region(vx_image image) {
  vx_rectangle_t r{};
  EXPECT_EQ(vxGetValidRegionImage(image, &r), VX_SUCCESS);
  return r;
}

class ValidRectangles : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    calls.clear();
    callback_result = VX_SUCCESS;
    overshoot = 0;
    filter_ = add_kernel("org.visiongraph.test.filter3x3", VX_TYPE_IMAGE, validate_filter);
    to_pyramid_ = add_kernel("org.visiongraph.test.to_pyramid", VX_TYPE_PYRAMID, validate_pyramid);
    input_ = vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8);
    const vx_rectangle_t inner{2, 2, 60, 40};
    ASSERT_EQ(vxSetImageValidRectangle(input_, &inner), VX_SUCCESS);
    output_ = vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8);
    graph_ = vxCreateGraph(context_);
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&input_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&output_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(filter_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(to_pyramid_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_kernel add_kernel(const char* name, vx_enum output_type, vx_kernel_validate_f validate) {
    return add_user_kernel(context_, name, nothing, {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, output_type}}, validate);
  }
  vx_node node(vx_kernel kernel, vx_reference in, vx_reference out) {
    vx_node n = vxCreateGenericNode(graph_, kernel);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, in), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, out), VX_SUCCESS);
    return n;
  }
  /// input -> filter -> (virtual) -> filter -> output; returns the second node.
  vx_node two_filters() {
    vx_image middle = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node second = node(filter_, ref(middle), ref(output_));  // added first: order comes from the data
    vx_node first = node(filter_, ref(input_), ref(middle));
    EXPECT_EQ(vxReleaseNode(&first), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&middle), VX_SUCCESS);
    return second;
  }

  vx_kernel filter_ = nullptr, to_pyramid_ = nullptr;
  vx_image input_ = nullptr, output_ = nullptr;
  vx_graph graph_ = nullptr;
};

TEST_F(ValidRectangles, ACallbackChainPropagatesTheValidRegionInDataFlowOrder) {
  vx_node second = two_filters();
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].index, 1u) << "the output parameter's index";
  EXPECT_TRUE(same(calls[0].input, vx_rectangle_t{2, 2, 60, 40})) << "the application's valid region of the input";
  EXPECT_TRUE(same(calls[1].input, vx_rectangle_t{3, 3, 59, 39})) << "what the first node's callback said";
  EXPECT_TRUE(same(valid_region(output_), vx_rectangle_t{4, 4, 58, 38}));
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_TRUE(same(valid_region(output_), vx_rectangle_t{4, 4, 58, 38}));
  EXPECT_EQ(vxReleaseNode(&second), VX_SUCCESS);
}

TEST_F(ValidRectangles, ResettingANodeMakesItsOutputWholeWithoutCallingTheCallback) {
  vx_node second = two_filters();
  const vx_bool reset = vx_true_e;
  ASSERT_EQ(vxSetNodeAttribute(second, VX_NODE_VALID_RECT_RESET, &reset, sizeof reset), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(calls.size(), 1u) << "only the first node's callback";
  EXPECT_TRUE(same(valid_region(output_), vx_rectangle_t{0, 0, kWidth, kHeight}));
  EXPECT_EQ(vxReleaseNode(&second), VX_SUCCESS);
}

TEST_F(ValidRectangles, AFailingOrOutOfBoundsCallbackFailsVerificationNamingTheNode) {
  vx_node n = node(filter_, ref(input_), ref(output_));
  callback_result = VX_ERROR_INVALID_VALUE;
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("valid-rectangle callback returned")) << (log_lines.empty() ? "" : log_lines.back());
  callback_result = VX_SUCCESS;
  overshoot = 10;  // end_x 69 on a 64-pixel-wide image
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("(3,3)-(69,39) for a 64x48 image")) << (log_lines.empty() ? "" : log_lines.back());
  overshoot = 0;
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
}

TEST_F(ValidRectangles, APyramidOutputGetsOneRectanglePerLevel) {
  vx_pyramid pyramid = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_node n = node(to_pyramid_, ref(input_), ref(pyramid));
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS) << (log_lines.empty() ? "" : log_lines.back());
  const vx_rectangle_t expected[2] = {{2, 2, 60, 40}, {1, 1, 30, 20}};
  for (vx_uint32 k = 0; k < 2; ++k) {
    vx_image level = vxGetPyramidLevel(pyramid, k);
    EXPECT_TRUE(same(valid_region(level), expected[k])) << "level " << k;
    EXPECT_EQ(vxReleaseImage(&level), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
}

}  // namespace
