// Where nodes left on "any" run (placement.hpp): a graph of large images spreads its independent
// branches over cpu0 and cpu1 and keeps each chain on one target; a graph of small images stays on one
// target; a node the application placed stays there; two such graphs of one context start on different
// targets, so scheduled together they overlap. Each node records the name of the thread it ran on.
#include <VX/vx.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::add_user_kernel;
using vg_openvx_test::Param;

std::mutex g_lock;
std::map<vx_node, std::string> g_thread_of;

vx_status VX_CALLBACK record_thread(vx_node node, const vx_reference*, vx_uint32) {
  char name[32] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  std::lock_guard guard(g_lock);
  g_thread_of[node] = name;
  return VX_SUCCESS;
}

vx_status VX_CALLBACK same_as_input(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  vx_uint32 w = 0, h = 0;
  vx_df_image format = VX_DF_IMAGE_U8;
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_WIDTH, &w, sizeof w);
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_HEIGHT, &h, sizeof h);
  vxSetMetaFormatAttribute(metas[1], VX_IMAGE_WIDTH, &w, sizeof w);
  vxSetMetaFormatAttribute(metas[1], VX_IMAGE_HEIGHT, &h, sizeof h);
  return vxSetMetaFormatAttribute(metas[1], VX_IMAGE_FORMAT, &format, sizeof format);
}

class Placement : public vg_openvx_test::OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    g_thread_of.clear();
    kernel_ = add_user_kernel(context_, "org.visiongraph.test.placement_thread", record_thread,
                              {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_IMAGE}}, same_as_input);
  }
  void TearDown() override {
    for (vx_node& n : nodes_) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    for (vx_image& i : images_) EXPECT_EQ(vxReleaseImage(&i), VX_SUCCESS);
    for (vx_graph& g : graphs_) EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_graph graph() {
    graphs_.push_back(vxCreateGraph(context_));
    return graphs_.back();
  }
  vx_image image(vx_uint32 w, vx_uint32 h) {
    images_.push_back(vxCreateImage(context_, w, h, VX_DF_IMAGE_U8));
    return images_.back();
  }
  vx_node node(vx_graph g, vx_image in, vx_image out) {
    vx_node n = vxCreateGenericNode(g, kernel_);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(in)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(out)), VX_SUCCESS);
    nodes_.push_back(n);
    return n;
  }
  /// in -> a -> a2 and in -> b -> b2: two branches of two nodes each, images of w x h.
  struct Branches {
    vx_node a, a2, b, b2;
  };
  Branches branches(vx_graph g, vx_uint32 w, vx_uint32 h) {
    vx_image in = image(w, h);
    vx_image va = vxCreateVirtualImage(g, w, h, VX_DF_IMAGE_U8), vb = vxCreateVirtualImage(g, w, h, VX_DF_IMAGE_U8);
    images_.push_back(va);
    images_.push_back(vb);
    Branches r{node(g, in, va), nullptr, node(g, in, vb), nullptr};
    r.a2 = node(g, va, image(w, h));
    r.b2 = node(g, vb, image(w, h));
    return r;
  }
  static std::string thread_of(vx_node n) {
    std::lock_guard guard(g_lock);
    return g_thread_of[n];
  }
  /// Runs @p g on the targets' workers (vxScheduleGraph never runs a frame on the caller's thread).
  static void run(vx_graph g) {
    ASSERT_EQ(vxScheduleGraph(g), VX_SUCCESS);
    ASSERT_EQ(vxWaitGraph(g), VX_SUCCESS);
  }

  vx_kernel kernel_ = nullptr;
  std::vector<vx_graph> graphs_;
  std::vector<vx_image> images_;
  std::vector<vx_node> nodes_;
};

TEST_F(Placement, BranchesOfLargeImagesRunOnTwoTargetsEachChainOnOne) {
  vx_graph g = graph();
  const Branches b = branches(g, 320, 240);  // 76,800 pixels: worth a target of their own
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  run(g);
  EXPECT_EQ(thread_of(b.a), thread_of(b.a2)) << "a chain stays on its target";
  EXPECT_EQ(thread_of(b.b), thread_of(b.b2));
  EXPECT_NE(thread_of(b.a), thread_of(b.b)) << "independent branches run on different targets";
  for (vx_node n : {b.a, b.b}) EXPECT_EQ(thread_of(n).rfind("vg-cpu", 0), 0u) << thread_of(n);
}

TEST_F(Placement, SmallImagesStayOnOneTarget) {
  vx_graph g = graph();
  const Branches b = branches(g, 64, 48);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  run(g);
  for (vx_node n : {b.a2, b.b, b.b2}) EXPECT_EQ(thread_of(n), thread_of(b.a));
}

TEST_F(Placement, ANodeTheApplicationPlacedStaysThere) {
  vx_graph g = graph();
  const Branches b = branches(g, 320, 240);
  for (vx_node n : {b.a, b.a2, b.b, b.b2}) ASSERT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  run(g);
  for (vx_node n : {b.a, b.a2, b.b, b.b2}) EXPECT_EQ(thread_of(n), "vg-cpu0");
}

TEST_F(Placement, TwoGraphsOfOneContextStartOnDifferentTargets) {
  vx_graph first = graph(), second = graph();
  vx_node f = node(first, image(320, 240), image(320, 240));
  vx_node s = node(second, image(320, 240), image(320, 240));
  ASSERT_EQ(vxVerifyGraph(first), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(second), VX_SUCCESS);
  ASSERT_EQ(vxScheduleGraph(first), VX_SUCCESS);
  ASSERT_EQ(vxScheduleGraph(second), VX_SUCCESS);
  ASSERT_EQ(vxWaitGraph(first), VX_SUCCESS);
  ASSERT_EQ(vxWaitGraph(second), VX_SUCCESS);
  EXPECT_NE(thread_of(f), thread_of(s));
}

}  // namespace
