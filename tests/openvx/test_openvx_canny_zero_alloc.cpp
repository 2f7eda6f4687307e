// After verification, a CannyEdgeDetector frame allocates nothing: its working memory (magnitude rows,
// the edge map, the tracing stack) is the node's local data, allocated when the graph is set up.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <vector>

#include "alloc_counter.hpp"
#include "openvx_zero_alloc.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

TEST_F(OpenVx, CannyAllocatesNothingPerFrame) {
  constexpr vx_uint32 kW = 61, kH = 47;
  std::vector<vx_uint8> pixels(kW * kH);
  // Rings around the centre: edges in every direction, long chains for the tracing.
  for (vx_uint32 y = 0; y < kH; ++y) {
    for (vx_uint32 x = 0; x < kW; ++x) {
      const int dx = static_cast<int>(x) - 30, dy = static_cast<int>(y) - 23;
      pixels[y * kW + x] = static_cast<vx_uint8>(((dx * dx + dy * dy) / 40) % 2 == 0 ? 40 : 200);
    }
  }
  vx_image in = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8);
  vx_image out_u8 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U8), out_u1 = vxCreateImage(context_, kW, kH, VX_DF_IMAGE_U1);
  vx_imagepatch_addressing_t addressing{kW, kH, 1, kW, VX_SCALE_UNITY, VX_SCALE_UNITY, 1, 1, 0};
  const vx_rectangle_t whole{0, 0, kW, kH};
  ASSERT_EQ(vxCopyImagePatch(in, &whole, 0, &addressing, pixels.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_threshold hyst = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_RANGE, VX_DF_IMAGE_S16, VX_DF_IMAGE_U8);
  vx_pixel_value_t lower{}, upper{};
  lower.S16 = 300;
  upper.S16 = 900;
  ASSERT_EQ(vxCopyThresholdRange(hyst, &lower, &upper, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_graph graph = vxCreateGraph(context_);
  vx_node nodes[2] = {vxCannyEdgeDetectorNode(graph, in, hyst, 5, VX_NORM_L2, out_u8), vxCannyEdgeDetectorNode(graph, in, hyst, 3, VX_NORM_L1, out_u1)};
  const vx_border_t replicate{VX_BORDER_REPLICATE, {}};
  ASSERT_EQ(vxSetNodeAttribute(nodes[1], VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 5, 50));
  std::vector<vx_uint8> edges(kW * kH);
  ASSERT_EQ(vxCopyImagePatch(out_u8, &whole, 0, &addressing, edges.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_uint32 count = 0;
  for (vx_uint8 e : edges) count += e == 255 ? 1 : 0;
  EXPECT_GT(count, 50u) << "the rings have edges";
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_image* i : {&in, &out_u8, &out_u1}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  EXPECT_EQ(vxReleaseThreshold(&hyst), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

}  // namespace
