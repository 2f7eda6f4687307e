// Running vx graphs: vxProcessGraph, vxScheduleGraph / vxWaitGraph on visiongraph targets, user kernels
// through trampolines with their initialize / deinitialize, local data, node callbacks, failures.
// Data objects are scalars here (the others come with the rest of stage 2, docs/openvx.md).

#include <VX/vx.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using vg_openvx_test::add_user_kernel;

vx_reference ref(void* handle) { return static_cast<vx_reference>(handle); }

vx_int32 read(vx_scalar s) {
  vx_int32 v = -1;
  EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return v;
}
void write(vx_scalar s, vx_int32 v) { EXPECT_EQ(vxCopyScalar(s, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS); }

// What the kernels saw, reset per test.
struct Seen {
  std::mutex lock;
  std::vector<std::string> runs;  // node names in run order
  std::set<std::thread::id> threads;
  int initializes = 0, deinitializes = 0, callbacks = 0;  // initializes: the successful ones
  vx_size local_size_seen = 0;
  bool local_data_zeroed = true;
  std::atomic<bool> gate_open{true};
  std::atomic<int> entered{0};  // kernel calls started
  vx_status fail_with = VX_SUCCESS;  // returned by nodes named "fails"
  vx_status init_with = VX_SUCCESS;
  vx_action callback_action = VX_ACTION_CONTINUE;
};
Seen* seen = nullptr;

std::string name_of(vx_node node) {
  const vx_char* name = nullptr;
  if (vxQueryReference(ref(node), VX_REFERENCE_NAME, &name, sizeof name) != VX_SUCCESS || name == nullptr) return {};
  return name;
}

// out = in + 1 (int32 scalars); waits while the gate is closed (at most 10 s).
vx_status VX_CALLBACK add_one(vx_node node, const vx_reference* parameters, vx_uint32 count) {
  if (count != 2) return VX_ERROR_INVALID_PARAMETERS;
  seen->entered.fetch_add(1);
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (!seen->gate_open.load() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(1ms);
  const std::string name = name_of(node);
  {
    std::lock_guard guard(seen->lock);
    seen->runs.push_back(name);
    seen->threads.insert(std::this_thread::get_id());
    void* local = nullptr;
    vx_size size = 0;
    if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &local, sizeof local) == VX_SUCCESS &&
        vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size) == VX_SUCCESS && local != nullptr) {
      seen->local_size_seen = size;
    }
  }
  if (name == "fails") return seen->fail_with;
  vx_int32 v = 0;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s != VX_SUCCESS) return s;
  v += 1;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

vx_status VX_CALLBACK validate(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  const vx_enum type = VX_TYPE_INT32;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

vx_status VX_CALLBACK initialize(vx_node node, const vx_reference*, vx_uint32) {
  std::lock_guard guard(seen->lock);
  if (seen->init_with != VX_SUCCESS) return seen->init_with;
  ++seen->initializes;  // successful ones: each is matched by one deinitialize
  void* local = nullptr;
  vx_size size = 0;
  if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &local, sizeof local) == VX_SUCCESS &&
      vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size) == VX_SUCCESS && local != nullptr) {
    for (vx_size i = 0; i < size; ++i) seen->local_data_zeroed &= static_cast<unsigned char*>(local)[i] == 0;
  }
  return seen->init_with;
}

vx_status VX_CALLBACK deinitialize(vx_node, const vx_reference*, vx_uint32) {
  std::lock_guard guard(seen->lock);
  ++seen->deinitializes;
  return VX_SUCCESS;
}

vx_action VX_CALLBACK node_done(vx_node) {
  std::lock_guard guard(seen->lock);
  ++seen->callbacks;
  return seen->callback_action;
}

class OpenVxRun : public ::testing::Test {
 protected:
  void SetUp() override {
    seen = &seen_;
    context_ = vxCreateContext();
    ASSERT_EQ(vxGetStatus(ref(context_)), VX_SUCCESS);
    vx_enum id = 0;
    ASSERT_EQ(vxAllocateUserKernelId(context_, &id), VX_SUCCESS);
    kernel_ = vxAddUserKernel(context_, "org.visiongraph.test.run_add_one", id, add_one, 2, validate, initialize, deinitialize);
    ASSERT_EQ(vxGetStatus(ref(kernel_)), VX_SUCCESS);
    EXPECT_EQ(vxAddParameterToKernel(kernel_, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    EXPECT_EQ(vxAddParameterToKernel(kernel_, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    const vx_size local = 24;
    EXPECT_EQ(vxSetKernelAttribute(kernel_, VX_KERNEL_LOCAL_DATA_SIZE, &local, sizeof local), VX_SUCCESS);
    EXPECT_EQ(vxFinalizeKernel(kernel_), VX_SUCCESS);
    graph_ = vxCreateGraph(context_);
    in_ = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    out_ = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    write(in_, 10);
    EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &references_at_start_, sizeof references_at_start_), VX_SUCCESS);
  }
  void TearDown() override {
    seen_.gate_open = true;
    vx_uint32 references = 0;
    EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &references, sizeof references), VX_SUCCESS);
    EXPECT_EQ(references, references_at_start_) << "the test left references";
    for (vx_reference r : {ref(in_), ref(out_), ref(graph_)}) {
      if (r != nullptr) {
        EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
      }
    }
    EXPECT_EQ(seen_.deinitializes, seen_.initializes) << "deinitialize once per initialize";
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseContext(&context_), VX_SUCCESS);
    seen = nullptr;
  }
  /// A node of the kernel named @p name reading @p in, writing @p out, on @p target ("any" for none).
  vx_node add_node(const char* name, vx_scalar in, vx_scalar out, const char* target = "any") {
    vx_node n = vxCreateGenericNode(graph_, kernel_);
    EXPECT_EQ(vxSetReferenceName(ref(n), name), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, target), VX_SUCCESS);
    return n;
  }
  /// in -> a (cpu0) -> v1 -> b (cpu1) -> v2 -> c (npu0) -> out: out = in + 3. Node handles are released
  /// (the graph holds them) unless asked for.
  void chain(vx_node* a = nullptr, vx_node* c = nullptr) {
    vx_scalar v1 = vxCreateVirtualScalar(graph_, VX_TYPE_INT32), v2 = vxCreateVirtualScalar(graph_, VX_TYPE_INVALID);
    vx_node na = add_node("a", in_, v1, "cpu0");
    vx_node nb = add_node("b", v1, v2, "cpu1");
    vx_node nc = add_node("c", v2, out_, "npu0");
    for (vx_reference r : {ref(v1), ref(v2), ref(nb)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    if (a != nullptr) *a = na; else EXPECT_EQ(vxReleaseNode(&na), VX_SUCCESS);
    if (c != nullptr) *c = nc; else EXPECT_EQ(vxReleaseNode(&nc), VX_SUCCESS);
  }
  vx_enum state() {
    vx_enum s = 0;
    EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_STATE, &s, sizeof s), VX_SUCCESS);
    return s;
  }

  Seen seen_;
  vx_context context_ = nullptr;
  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_scalar in_ = nullptr, out_ = nullptr;
  vx_uint32 references_at_start_ = 0;
};

TEST_F(OpenVxRun, AChainOfUserKernelsRunsOnItsTargetsInDataFlowOrder) {
  chain();
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS) << "verifies first when needed";
  EXPECT_EQ(read(out_), 13);
  EXPECT_EQ(seen_.runs, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(seen_.threads.count(std::this_thread::get_id()), 0u) << "kernels run on the targets' threads";
  EXPECT_EQ(seen_.threads.size(), 3u) << "cpu0, cpu1 and npu0 are three threads";
  EXPECT_EQ(state(), VX_GRAPH_STATE_COMPLETED);
  // Frame after frame with new input; no re-verification.
  for (vx_int32 i = 0; i < 50; ++i) {
    write(in_, i);
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(read(out_), i + 3);
  }
  EXPECT_EQ(seen_.initializes, 3) << "once per node, at verification";
  vx_perf_t perf{};
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_PERFORMANCE, &perf, sizeof perf), VX_SUCCESS);
  EXPECT_EQ(perf.num, 51u);
  EXPECT_GE(perf.max, perf.min);
  EXPECT_EQ(seen_.local_size_seen, 24u) << "VX_KERNEL_LOCAL_DATA_SIZE bytes for each node";
  EXPECT_TRUE(seen_.local_data_zeroed);
}

TEST_F(OpenVxRun, ChangingTheGraphReinitializesItsNodesAtTheNextRun) {
  vx_node a = nullptr;
  chain(&a);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(seen_.initializes, 3);
  EXPECT_EQ(seen_.deinitializes, 0);
  // a reads another input now: its graph is released at once, and built again by the next run.
  vx_scalar other = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  write(other, 100);
  EXPECT_EQ(vxSetParameterByIndex(a, 0, ref(other)), VX_SUCCESS);
  EXPECT_EQ(seen_.deinitializes, 3) << "the old graph's nodes went at the change";
  EXPECT_EQ(vxIsGraphVerified(graph_), vx_false_e);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(read(out_), 103);
  EXPECT_EQ(seen_.initializes, 6);
  EXPECT_EQ(vxReleaseScalar(&other), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
}

TEST_F(OpenVxRun, AFailingKernelStopsTheNodesAfterItAndNamesItsStatus) {
  vx_scalar v = vxCreateVirtualScalar(graph_, VX_TYPE_INT32);
  vx_node fails = add_node("fails", in_, v, "cpu0");
  vx_node after = add_node("after", v, out_, "cpu1");
  seen_.fail_with = VX_ERROR_INVALID_VALUE;
  write(out_, -5);
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(seen_.runs, (std::vector<std::string>{"fails"})) << "the node after it did not run";
  EXPECT_EQ(read(out_), -5);
  vx_status node_status = VX_SUCCESS;
  EXPECT_EQ(vxQueryNode(fails, VX_NODE_STATUS, &node_status, sizeof node_status), VX_SUCCESS);
  EXPECT_EQ(node_status, VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(state(), VX_GRAPH_STATE_ABANDONED);
  // The next run succeeds once the kernel does.
  seen_.fail_with = VX_SUCCESS;
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxQueryNode(fails, VX_NODE_STATUS, &node_status, sizeof node_status), VX_SUCCESS);
  EXPECT_EQ(node_status, VX_SUCCESS);
  for (vx_reference r : {ref(v), ref(fails), ref(after)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVxRun, ANodeCallbackCanAbandonTheGraph) {
  vx_node a = nullptr;
  chain(&a);
  EXPECT_EQ(vxAssignNodeCallback(a, node_done), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(seen_.callbacks, 1);
  seen_.callback_action = VX_ACTION_ABANDON;
  seen_.runs.clear();
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_GRAPH_ABANDONED);
  EXPECT_EQ(seen_.runs, (std::vector<std::string>{"a"}));
  EXPECT_EQ(state(), VX_GRAPH_STATE_ABANDONED);
  EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
}

TEST_F(OpenVxRun, ScheduleReturnsAtOnceAndWaitGivesTheResult) {
  chain();
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  seen_.gate_open = false;
  write(in_, 1);
  ASSERT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(state(), VX_GRAPH_STATE_RUNNING);
  EXPECT_EQ(vxScheduleGraph(graph_), VX_ERROR_GRAPH_SCHEDULED);
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_GRAPH_SCHEDULED);
  seen_.gate_open = true;
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(read(out_), 4);
  EXPECT_EQ(state(), VX_GRAPH_STATE_COMPLETED);
  EXPECT_EQ(vxWaitGraph(graph_), VX_FAILURE) << "nothing scheduled";
  // Unverified graphs are verified by vxScheduleGraph; a failure there is its status.
  for (vx_int32 i = 0; i < 20; ++i) {
    write(in_, i);
    ASSERT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
    ASSERT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(read(out_), i + 3);
  }
  vx_graph empty = vxCreateGraph(context_);
  EXPECT_EQ(vxScheduleGraph(empty), VX_ERROR_INVALID_GRAPH);
  EXPECT_EQ(vxReleaseGraph(&empty), VX_SUCCESS);
  EXPECT_EQ(vxScheduleGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxWaitGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxProcessGraph(reinterpret_cast<vx_graph>(in_)), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(OpenVxRun, ReleasingAScheduledGraphAbandonsItsRun) {
  chain();
  seen_.gate_open = false;
  ASSERT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (seen_.entered.load() == 0 && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(seen_.entered.load(), 1) << "a is running (held by the gate)";
  std::thread opener([&] {
    std::this_thread::sleep_for(20ms);
    seen_.gate_open = true;
  });
  EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS) << "returns once the running kernel has returned";
  opener.join();
  EXPECT_EQ(seen_.runs, (std::vector<std::string>{"a"})) << "the nodes after the running one are skipped";
  EXPECT_EQ(seen_.deinitializes, 3);
  graph_ = vxCreateGraph(context_);  // the fixture's count
}

TEST_F(OpenVxRun, AFailingInitializerFailsVerification) {
  chain();
  seen_.init_with = VX_ERROR_NO_RESOURCES;
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(vxIsGraphVerified(graph_), vx_false_e);
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_NO_RESOURCES);
  seen_.init_with = VX_SUCCESS;
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(read(out_), 13);
}

TEST_F(OpenVxRun, ReleasingTheContextWithAVerifiedGraphDeinitializesItsNodes) {
  chain();
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  // The context goes with everything in it (TearDown releases what is left, after this context is gone).
  vx_context c = vxCreateContext();
  vx_kernel k = add_user_kernel(c, "x.other", add_one, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}, validate,
                                initialize, deinitialize);
  vx_graph g = vxCreateGraph(c);
  vx_scalar i = vxCreateScalar(c, VX_TYPE_INT32, nullptr), o = vxCreateVirtualScalar(g, VX_TYPE_INVALID);
  vx_node n = vxCreateGenericNode(g, k);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(i)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(o)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  const int before = seen_.deinitializes;
  EXPECT_EQ(vxReleaseContext(&c), VX_SUCCESS) << "graph, node, scalars and kernel still held";
  EXPECT_EQ(seen_.deinitializes, before + 1);
}

}  // namespace
