// vxReplicateNode: a node set up with item 0 of object arrays (or level 0 of pyramids) runs once per
// item, each replica on its own items with its own local data; failures, queries and refusals.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::read_int32;
using vg_openvx_test::status_of;
using vg_openvx_test::write_int32;
using vg_openvx_test::int32_output;
using vg_openvx_test::OpenVx;



std::atomic<int> runs{0};
std::atomic<int> local_data_seen{0};

// out = in + addend; counts its runs in its local data (each replica has its own); fails on in == -1.
vx_status VX_CALLBACK add(vx_node node, const vx_reference* parameters, vx_uint32) {
  runs.fetch_add(1);
  int* mine = nullptr;
  if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &mine, sizeof mine) == VX_SUCCESS && mine != nullptr) {
    ++*mine;
    local_data_seen.fetch_add(*mine == 1 ? 1 : 0);
  }
  vx_int32 in = 0, addend = 0;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &in, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &addend, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (in == -1) return VX_ERROR_INVALID_VALUE;
  vx_int32 out = in + addend;
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &out, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return s;
}

class Replicate : public OpenVx {
 protected:
  static constexpr vx_size kItems = 5;
  void SetUp() override {
    OpenVx::SetUp();
    runs = 0;
    local_data_seen = 0;
    vx_enum id = 0;
    ASSERT_EQ(vxAllocateUserKernelId(context_, &id), VX_SUCCESS);
    kernel_ = vxAddUserKernel(context_, "org.visiongraph.test.replicated_add", id, add, 3, int32_output, nullptr, nullptr);
    EXPECT_EQ(vxAddParameterToKernel(kernel_, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    EXPECT_EQ(vxAddParameterToKernel(kernel_, 1, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    EXPECT_EQ(vxAddParameterToKernel(kernel_, 2, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    const vx_size local = sizeof(int);
    EXPECT_EQ(vxSetKernelAttribute(kernel_, VX_KERNEL_LOCAL_DATA_SIZE, &local, sizeof local), VX_SUCCESS);
    EXPECT_EQ(vxFinalizeKernel(kernel_), VX_SUCCESS);
    graph_ = vxCreateGraph(context_);
    vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    ins_ = vxCreateObjectArray(context_, ref(exemplar), kItems);
    outs_ = vxCreateObjectArray(context_, ref(exemplar), kItems);
    EXPECT_EQ(vxReleaseScalar(&exemplar), VX_SUCCESS);
    const vx_int32 ten = 10;
    addend_ = vxCreateScalar(context_, VX_TYPE_INT32, &ten);
    for (vx_uint32 i = 0; i < kItems; ++i) {
      vx_reference item = vxGetObjectArrayItem(ins_, i);
      write_int32(item, static_cast<vx_int32>(100 * i));
      EXPECT_EQ(vxReleaseReference(&item), VX_SUCCESS);
    }
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseObjectArray(&ins_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseObjectArray(&outs_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&addend_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  /// A node on item 0 of ins and outs and the shared addend.
  vx_node node_on_first_items() {
    vx_node node = vxCreateGenericNode(graph_, kernel_);
    vx_reference in0 = vxGetObjectArrayItem(ins_, 0), out0 = vxGetObjectArrayItem(outs_, 0);
    EXPECT_EQ(vxSetParameterByIndex(node, 0, in0), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 1, ref(addend_)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 2, out0), VX_SUCCESS);
    EXPECT_EQ(vxReleaseReference(&in0), VX_SUCCESS);
    EXPECT_EQ(vxReleaseReference(&out0), VX_SUCCESS);
    return node;
  }
  vx_int32 out(vx_uint32 i) {
    vx_reference item = vxGetObjectArrayItem(outs_, i);
    const vx_int32 v = read_int32(item);
    EXPECT_EQ(vxReleaseReference(&item), VX_SUCCESS);
    return v;
  }

  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_object_array ins_ = nullptr, outs_ = nullptr;
  vx_scalar addend_ = nullptr;
};

TEST_F(Replicate, EveryItemIsProcessedByItsOwnReplica) {
  vx_node node = node_on_first_items();
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  ASSERT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_SUCCESS);
  vx_bool replicated = vx_false_e, got[3] = {};
  EXPECT_EQ(vxQueryNode(node, VX_NODE_IS_REPLICATED, &replicated, sizeof replicated), VX_SUCCESS);
  EXPECT_EQ(replicated, vx_true_e);
  EXPECT_EQ(vxQueryNode(node, VX_NODE_REPLICATE_FLAGS, got, sizeof got), VX_SUCCESS);
  EXPECT_EQ(got[0], vx_true_e);
  EXPECT_EQ(got[1], vx_false_e);
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    for (vx_uint32 i = 0; i < kItems; ++i) EXPECT_EQ(out(i), static_cast<vx_int32>(100 * i + 10)) << "item " << i;
  }
  EXPECT_EQ(runs.load(), static_cast<int>(3 * kItems));
  EXPECT_EQ(local_data_seen.load(), static_cast<int>(kItems)) << "each replica has its own local data";
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
}

// Queued graph parameters are items 0 of object arrays (as in the conformance suite's GraphPipeline
// ReplicateImage): each replica works on the items of the arrays whose item 0 the frame enqueued, not on the
// siblings of the items the node was created with.
TEST_F(Replicate, QueuedItemsBringTheirOwnArraysToEveryReplica) {
  vx_node node = node_on_first_items();
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  ASSERT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_SUCCESS);
  for (vx_uint32 index : {0u, 2u}) {
    vx_parameter p = vxGetParameterByIndex(node, index);
    ASSERT_EQ(vxAddParameterToGraph(graph_, p), VX_SUCCESS);
    EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  }
  // A second pair of arrays; item 0 of each array is what gets enqueued.
  vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_object_array ins2 = vxCreateObjectArray(context_, ref(exemplar), kItems);
  vx_object_array outs2 = vxCreateObjectArray(context_, ref(exemplar), kItems);
  EXPECT_EQ(vxReleaseScalar(&exemplar), VX_SUCCESS);
  for (vx_uint32 i = 0; i < kItems; ++i) {
    vx_reference item = vxGetObjectArrayItem(ins2, i);
    write_int32(item, static_cast<vx_int32>(1000 + i));
    EXPECT_EQ(vxReleaseReference(&item), VX_SUCCESS);
  }
  vx_reference in_items[2] = {vxGetObjectArrayItem(ins_, 0), vxGetObjectArrayItem(ins2, 0)};
  vx_reference out_items[2] = {vxGetObjectArrayItem(outs_, 0), vxGetObjectArrayItem(outs2, 0)};
  vx_graph_parameter_queue_params_t queues[2] = {{0, 2, in_items}, {1, 2, out_items}};
  ASSERT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, queues), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (int k : {1, 0}) {  // the second arrays first, then the ones the node was made with
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in_items[k], 1), VX_SUCCESS);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 1, &out_items[k], 1), VX_SUCCESS);
  }
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  for (vx_uint32 i = 0; i < kItems; ++i) {
    vx_reference item = vxGetObjectArrayItem(outs2, i);
    EXPECT_EQ(read_int32(item), static_cast<vx_int32>(1000 + i + 10)) << "item " << i << " of the enqueued array";
    EXPECT_EQ(vxReleaseReference(&item), VX_SUCCESS);
    EXPECT_EQ(out(i), static_cast<vx_int32>(100 * i + 10)) << "item " << i << " of the node's own array";
  }
  for (vx_uint32 param : {0u, 1u}) {
    vx_reference done[2] = {};
    vx_uint32 n = 0;
    EXPECT_EQ(vxGraphParameterDequeueDoneRef(graph_, param, done, 2, &n), VX_SUCCESS);
    EXPECT_EQ(n, 2u);
  }
  for (vx_reference& r : in_items) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  for (vx_reference& r : out_items) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);  // before the arrays its queues hold
  graph_ = vxCreateGraph(context_);
  EXPECT_EQ(vxReleaseObjectArray(&ins2), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&outs2), VX_SUCCESS);
}

TEST_F(Replicate, EventsRegisteredAfterVerificationComeFromEveryReplicaNamingTheNode) {
  vx_node node = node_on_first_items();
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  ASSERT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  ASSERT_EQ(vxRegisterEvent(ref(node), VX_EVENT_NODE_COMPLETED, 0, 7), VX_SUCCESS);  // after verification
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  vx_size completed = 0;
  vx_event_t e{};
  while (vxWaitEvent(context_, &e, vx_true_e) == VX_SUCCESS) {
    if (e.type != VX_EVENT_NODE_COMPLETED) continue;
    ++completed;
    EXPECT_EQ(e.app_value, 7u);
    EXPECT_EQ(e.event_info.node_completed.node, node) << "the replicated node, not an internal replica";
  }
  EXPECT_EQ(completed, kItems);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
}

TEST_F(Replicate, AFailingReplicaIsTheNodesStatus) {
  vx_node node = node_on_first_items();
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  ASSERT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_SUCCESS);
  vx_reference third = vxGetObjectArrayItem(ins_, 3);
  write_int32(third, -1);
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_INVALID_VALUE);
  vx_status status = VX_SUCCESS;
  EXPECT_EQ(vxQueryNode(node, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
  EXPECT_EQ(status, VX_ERROR_INVALID_VALUE);
  write_int32(third, 3);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(out(3), 13);
  EXPECT_EQ(vxReleaseReference(&third), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
}

TEST_F(Replicate, AVirtualObjectArrayBetweenReplicatedNodes) {
  // first: ins[i] + 10 -> between[i]; second: between[i] + 10 -> outs[i]; both replicated.
  vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_object_array between = vxCreateVirtualObjectArray(graph_, ref(exemplar), kItems);
  EXPECT_EQ(vxReleaseScalar(&exemplar), VX_SUCCESS);
  vx_reference b0 = vxGetObjectArrayItem(between, 0), in0 = vxGetObjectArrayItem(ins_, 0), out0 = vxGetObjectArrayItem(outs_, 0);
  vx_node second = vxCreateGenericNode(graph_, kernel_);  // created first: data flow orders them
  vx_node first = vxCreateGenericNode(graph_, kernel_);
  EXPECT_EQ(vxSetParameterByIndex(first, 0, in0), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(first, 1, ref(addend_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(first, 2, b0), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 0, b0), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 1, ref(addend_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 2, out0), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(first, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(second, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  ASSERT_EQ(vxReplicateNode(graph_, first, flags, 3), VX_SUCCESS);
  ASSERT_EQ(vxReplicateNode(graph_, second, flags, 3), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  for (vx_uint32 i = 0; i < kItems; ++i) EXPECT_EQ(out(i), static_cast<vx_int32>(100 * i + 20)) << "item " << i;
  for (vx_reference* r : {&b0, &in0, &out0}) EXPECT_EQ(vxReleaseReference(r), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&between), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&first), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&second), VX_SUCCESS);
}

TEST_F(Replicate, WhatCannotBeReplicatedIsRefused) {
  vx_node node = node_on_first_items();
  vx_bool addend_flag[3] = {vx_false_e, vx_true_e, vx_false_e};
  EXPECT_EQ(vxReplicateNode(graph_, node, addend_flag, 3), VX_ERROR_INVALID_PARAMETERS) << "the addend is no item";
  EXPECT_TRUE(logged("parameter 1 must be item 0"));
  vx_bool none[3] = {vx_false_e, vx_false_e, vx_false_e};
  EXPECT_EQ(vxReplicateNode(graph_, node, none, 3), VX_ERROR_INVALID_PARAMETERS);
  vx_bool flags[3] = {vx_true_e, vx_false_e, vx_true_e};
  EXPECT_EQ(vxReplicateNode(graph_, node, flags, 2), VX_ERROR_INVALID_PARAMETERS) << "one flag per parameter";
  EXPECT_EQ(vxReplicateNode(graph_, node, nullptr, 3), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReplicateNode(nullptr, node, flags, 3), VX_ERROR_INVALID_REFERENCE);
  // Item 1 is not item 0.
  vx_reference in1 = vxGetObjectArrayItem(ins_, 1);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, in1), VX_SUCCESS);
  EXPECT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseReference(&in1), VX_SUCCESS);
  // Object arrays of different sizes.
  vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_object_array short_array = vxCreateObjectArray(context_, ref(exemplar), kItems - 1);
  vx_reference short0 = vxGetObjectArrayItem(short_array, 0);
  vx_reference in0 = vxGetObjectArrayItem(ins_, 0);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, in0), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 2, short0), VX_SUCCESS);
  EXPECT_EQ(vxReplicateNode(graph_, node, flags, 3), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("has 4 items, another replicated one 5") || logged("has 5 items, another replicated one 4"));
  for (vx_reference* r : {&short0, &in0}) EXPECT_EQ(vxReleaseReference(r), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&short_array), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&exemplar), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(status_of(graph_), VX_SUCCESS);
}

}  // namespace
