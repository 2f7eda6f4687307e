// vx_khr_pipelining beyond the queues: frames of one graph overlapping in time on different targets with
// results equal to unpipelined runs (virtual objects copied per frame, shared objects ordered across
// frames), and pipe-up (VX_KERNEL_PIPEUP_OUTPUT_DEPTH, VX_KERNEL_PIPEUP_INPUT_DEPTH, VX_NODE_STATE).
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using vg_openvx_test::int32_output;
using vg_openvx_test::OpenVx;
using vg_openvx_test::read_int32;
using vg_openvx_test::write_int32;

/// One kernel call: which kernel (by its first argument's role), when, with what input, in what state.
struct Call {
  int stage;
  std::chrono::steady_clock::time_point start, end;
  vx_int32 input;
  vx_enum state;
  vx_reference output;
};
std::mutex calls_lock;
std::vector<Call> calls;

std::vector<Call> calls_of(int stage) {
  const std::lock_guard guard(calls_lock);
  std::vector<Call> out;
  for (const Call& c : calls) {
    if (c.stage == stage) out.push_back(c);
  }
  return out;
}

// out = in * 2 + 1 after 3 ms, recording the call; the stage is the node's name ("0", "1", "2").
vx_status VX_CALLBACK slow_step(vx_node node, const vx_reference* parameters, vx_uint32) {
  Call c{};
  c.start = std::chrono::steady_clock::now();
  vx_char* name = nullptr;
  (void)vxQueryReference(reinterpret_cast<vx_reference>(node), VX_REFERENCE_NAME, &name, sizeof name);
  c.stage = name != nullptr ? name[0] - '0' : -1;
  (void)vxQueryNode(node, VX_NODE_STATE, &c.state, sizeof c.state);
  vx_int32 v = 0;
  if (vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  c.input = v;
  c.output = parameters[1];
  std::this_thread::sleep_for(3ms);
  v = v * 2 + 1;
  const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  c.end = std::chrono::steady_clock::now();
  const std::lock_guard guard(calls_lock);
  calls.push_back(c);
  return s;
}

class OpenVxOverlap : public OpenVx {
 protected:
  static constexpr int kRefs = 4;
  static constexpr int kFrames = 16;
  void SetUp() override {
    OpenVx::SetUp();
    {
      const std::lock_guard guard(calls_lock);
      calls.clear();
    }
    kernel_ = add_kernel("org.visiongraph.test.slow_step", 1, 1);
    graph_ = vxCreateGraph(context_);
    for (int i = 0; i < kRefs; ++i) {
      ins_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
      outs_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    }
  }
  void TearDown() override {
    for (vx_node& n : nodes_) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    for (vx_scalar& s : between_) EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    for (int i = 0; i < kRefs; ++i) {
      EXPECT_EQ(vxReleaseScalar(&ins_[i]), VX_SUCCESS);
      EXPECT_EQ(vxReleaseScalar(&outs_[i]), VX_SUCCESS);
    }
    for (vx_kernel k : kernels_) EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
    OpenVx::TearDown();
  }
  /// A user kernel running slow_step, (in scalar, out scalar), with the given pipe-up depths.
  vx_kernel add_kernel(const char* name, vx_uint32 input_depth, vx_uint32 output_depth) {
    vx_enum id = 0;
    EXPECT_EQ(vxAllocateUserKernelId(context_, &id), VX_SUCCESS);
    vx_kernel k = vxAddUserKernel(context_, name, id, slow_step, 2, int32_output, nullptr, nullptr);
    EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    EXPECT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_PIPEUP_INPUT_DEPTH, &input_depth, sizeof input_depth), VX_SUCCESS);
    EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_PIPEUP_OUTPUT_DEPTH, &output_depth, sizeof output_depth), VX_SUCCESS);
    EXPECT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
    kernels_.push_back(k);
    return k;
  }
  /// in -> stage 0 (cpu0) -> stage 1 (cpu1) -> stage 2 (npu0) -> out; the objects between the stages are
  /// virtual, or plain scalars the frames must share. Graph parameters 0 (in) and 1 (out).
  void build_chain(bool virtual_between, vx_kernel first = nullptr, vx_kernel last = nullptr) {
    const char* targets[3] = {"cpu0", "cpu1", "npu0"};
    for (int k = 0; k < 2; ++k) {
      between_.push_back(virtual_between ? vxCreateVirtualScalar(graph_, VX_TYPE_INT32) : vxCreateScalar(context_, VX_TYPE_INT32, nullptr));
    }
    for (int k = 0; k < 3; ++k) {
      vx_kernel kernel = k == 0 && first != nullptr ? first : k == 2 && last != nullptr ? last : kernel_;
      vx_node n = vxCreateGenericNode(graph_, kernel);
      const char name[2] = {static_cast<char>('0' + k), '\0'};
      EXPECT_EQ(vxSetReferenceName(ref(n), name), VX_SUCCESS);
      EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, targets[k]), VX_SUCCESS);
      EXPECT_EQ(vxSetParameterByIndex(n, 0, k == 0 ? ref(ins_[0]) : ref(between_[k - 1])), VX_SUCCESS);
      EXPECT_EQ(vxSetParameterByIndex(n, 1, k == 2 ? ref(outs_[0]) : ref(between_[k])), VX_SUCCESS);
      nodes_.push_back(n);
    }
    for (auto [node, index] : {std::pair{nodes_[0], 0u}, std::pair{nodes_[2], 1u}}) {
      vx_parameter p = vxGetParameterByIndex(node, index);
      EXPECT_EQ(vxAddParameterToGraph(graph_, p), VX_SUCCESS);
      EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
  }
  vx_status configure(vx_enum mode) {
    vx_graph_parameter_queue_params_t params[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins_)},
                                                   {1, kRefs, reinterpret_cast<vx_reference*>(outs_)}};
    return vxSetGraphScheduleConfig(graph_, mode, 2, params);
  }
  /// Runs kFrames frames through the queues (input f is f * 3), in @p mode; returns the outputs in order.
  std::vector<vx_int32> run_queued(vx_enum mode) {
    std::vector<vx_int32> results;
    EXPECT_EQ(configure(mode), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
    int sent = 0;
    auto send = [&](int i) {
      write_int32(ins_[i], sent * 3);
      vx_reference in = ref(ins_[i]), out = ref(outs_[i]);
      EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_SUCCESS);
      EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 1, &out, 1), VX_SUCCESS);
      ++sent;
    };
    for (int i = 0; i < kRefs; ++i) send(i);
    if (mode == VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL) {
      EXPECT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
    }
    while (static_cast<int>(results.size()) < kFrames) {
      vx_reference out = nullptr, in = nullptr;
      vx_uint32 n = 0;
      if (vxGraphParameterDequeueDoneRef(graph_, 1, &out, 1, &n) != VX_SUCCESS || n != 1) {
        ADD_FAILURE() << "no output after " << results.size() << " frames";
        break;
      }
      results.push_back(read_int32(out));
      EXPECT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, &in, 1, &n), VX_SUCCESS);
      if (sent < kFrames) {
        const int i = static_cast<int>(std::find(ins_, ins_ + kRefs, reinterpret_cast<vx_scalar>(in)) - ins_);
        EXPECT_EQ(out, ref(outs_[i])) << "inputs and outputs come back together";
        send(i);
        if (mode == VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL) {
      EXPECT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
    }
      }
    }
    EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
    return results;
  }
  static vx_int32 expected(vx_int32 in) { return ((in * 2 + 1) * 2 + 1) * 2 + 1; }

  vx_kernel kernel_ = nullptr;
  std::vector<vx_kernel> kernels_;
  vx_graph graph_ = nullptr;
  std::vector<vx_node> nodes_;
  std::vector<vx_scalar> between_;
  vx_scalar ins_[kRefs] = {}, outs_[kRefs] = {};
};

/// Whether any call of stage @p a overlaps in time any call of stage @p b.
bool overlap(int a, int b) {
  for (const Call& x : calls_of(a)) {
    for (const Call& y : calls_of(b)) {
      if (x.start < y.end && y.start < x.end) return true;
    }
  }
  return false;
}

TEST_F(OpenVxOverlap, FramesOverlapAcrossTargetsAndGiveTheUnpipelinedResultsInEveryQueueMode) {
  build_chain(true);
  for (vx_enum mode : {VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL}) {
    {
      const std::lock_guard guard(calls_lock);
      calls.clear();
    }
    const std::vector<vx_int32> results = run_queued(mode);
    ASSERT_EQ(results.size(), static_cast<std::size_t>(kFrames));
    for (int f = 0; f < kFrames; ++f) EXPECT_EQ(results[f], expected(f * 3)) << "frame " << f << ", mode " << mode;
    // Each stage saw the frames in order...
    for (int stage = 0; stage < 3; ++stage) {
      const std::vector<Call> seen = calls_of(stage);
      ASSERT_EQ(seen.size(), static_cast<std::size_t>(kFrames));
      for (int f = 1; f < kFrames; ++f) EXPECT_GE(seen[f].start, seen[f - 1].end) << "a node runs one frame at a time";
    }
    // ...while the first and last stages worked on different frames at the same time.
    EXPECT_TRUE(overlap(0, 2)) << "mode " << mode;
    EXPECT_TRUE(overlap(0, 1)) << "virtual objects have a copy per frame: stage 0 runs ahead of stage 1";
  }
}

TEST_F(OpenVxOverlap, AnObjectTheFramesShareIsNotOverwrittenWhileTheLastFrameStillReadsIt) {
  build_chain(false);  // plain scalars between the stages: one object for every frame
  const std::vector<vx_int32> results = run_queued(VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO);
  ASSERT_EQ(results.size(), static_cast<std::size_t>(kFrames));
  for (int f = 0; f < kFrames; ++f) EXPECT_EQ(results[f], expected(f * 3)) << "frame " << f;
  // Stage k + 1 reads what stage k wrote: stage k starts frame f + 1 only after stage k + 1 read frame f.
  for (int stage = 0; stage < 2; ++stage) {
    const std::vector<Call> writer = calls_of(stage), reader = calls_of(stage + 1);
    ASSERT_EQ(writer.size(), reader.size());
    for (std::size_t f = 0; f + 1 < writer.size(); ++f) EXPECT_GE(writer[f + 1].start, reader[f].end) << "stage " << stage << " frame " << f + 1;
  }
  EXPECT_TRUE(overlap(0, 2)) << "stages 0 and 2 share nothing, so they still overlap";
}

TEST_F(OpenVxOverlap, StreamingOverlapsFramesToo) {
  build_chain(true);
  EXPECT_EQ(vxEnableGraphStreaming(graph_, nodes_[0]), VX_SUCCESS);
  write_int32(ins_[0], 1);
  ASSERT_EQ(vxStartGraphStreaming(graph_), VX_SUCCESS);
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (calls_of(2).size() < 12 && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(2ms);
  ASSERT_EQ(vxStopGraphStreaming(graph_), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  EXPECT_GE(calls_of(2).size(), 12u);
  EXPECT_EQ(calls_of(0).size(), calls_of(2).size()) << "every frame started finished: nothing in flight after the stop";
  for (const Call& c : calls_of(2)) EXPECT_EQ(c.input, 7) << "(1 * 2 + 1) * 2 + 1 in every frame: copies per slot never mix frames";
  EXPECT_EQ(read_int32(outs_[0]), expected(1));
  EXPECT_TRUE(overlap(0, 2));
}

TEST_F(OpenVxOverlap, OutputPipeUpCallsTheSourceWithOtherOutputsBeforeItsFirstSteadyCall) {
  vx_kernel source = add_kernel("org.visiongraph.test.pipeup_source", 1, 3);
  vx_uint32 depth = 0;
  EXPECT_EQ(vxQueryKernel(source, VX_KERNEL_PIPEUP_OUTPUT_DEPTH, &depth, sizeof depth), VX_SUCCESS);
  EXPECT_EQ(depth, 3u);
  build_chain(true, source);
  write_int32(ins_[0], 2);
  for (int run = 0; run < 3; ++run) ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  std::vector<Call> first = calls_of(0);
  ASSERT_EQ(first.size(), 5u) << "two pipe-up calls, then one steady call per run";
  EXPECT_EQ(first[0].state, VX_NODE_STATE_PIPEUP);
  EXPECT_EQ(first[1].state, VX_NODE_STATE_PIPEUP);
  EXPECT_NE(first[0].output, first[1].output) << "a different set of outputs for each pipe-up call";
  for (int k = 0; k < 2; ++k) {
    EXPECT_NE(first[k].output, ref(between_[0])) << "pipe-up outputs never reach the next node";
    EXPECT_EQ(first[k].input, 2) << "the same inputs for each pipe-up call";
  }
  for (std::size_t k = 2; k < first.size(); ++k) {
    EXPECT_EQ(first[k].state, VX_NODE_STATE_STEADY);
    EXPECT_EQ(first[k].output, ref(between_[0]));
  }
  EXPECT_EQ(calls_of(1).size(), 3u) << "the next node runs once per graph run";
  EXPECT_EQ(read_int32(outs_[0]), expected(2));
  vx_enum state = 0;
  EXPECT_EQ(vxQueryNode(nodes_[0], VX_NODE_STATE, &state, sizeof state), VX_SUCCESS);
  EXPECT_EQ(state, VX_NODE_STATE_STEADY);
  // Verified again: pipe-up again.
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  first = calls_of(0);
  ASSERT_EQ(first.size(), 8u);
  EXPECT_EQ(first[5].state, VX_NODE_STATE_PIPEUP);
  EXPECT_EQ(first[7].state, VX_NODE_STATE_STEADY);
}

TEST_F(OpenVxOverlap, InputPipeUpKeepsTheSinksFirstInputsBackUntilLaterFramesReplaceThem) {
  // The last stage reads the queued input directly here: in -> stage 0 -> ... and in -> sink.
  vx_kernel sink = add_kernel("org.visiongraph.test.pipeup_sink", 3, 1);
  build_chain(true, nullptr, sink);
  // Re-point the sink at the queued input, so it is the one keeping input references.
  EXPECT_EQ(vxSetParameterByIndex(nodes_[2], 0, ref(ins_[0])), VX_SUCCESS);
  EXPECT_EQ(configure(VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (int i = 0; i < kRefs; ++i) {
    write_int32(ins_[i], i);
    vx_reference in = ref(ins_[i]), out = ref(outs_[i]);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_SUCCESS);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 1, &out, 1), VX_SUCCESS);
  }
  ASSERT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  const std::vector<Call> seen = calls_of(2);
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(kRefs));
  EXPECT_EQ(seen[0].state, VX_NODE_STATE_PIPEUP);
  EXPECT_EQ(seen[1].state, VX_NODE_STATE_PIPEUP);
  EXPECT_EQ(seen[2].state, VX_NODE_STATE_STEADY);
  EXPECT_EQ(seen[3].state, VX_NODE_STATE_STEADY);
  // Four frames done, the sink keeps the last two inputs: the first two come back, oldest first.
  vx_reference back[kRefs] = {};
  vx_uint32 n = 0;
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, back, kRefs, &n), VX_SUCCESS);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(back[0], ref(ins_[0]));
  EXPECT_EQ(back[1], ref(ins_[1]));
  vx_reference kept = ref(ins_[2]);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &kept, 1), VX_ERROR_INVALID_PARAMETERS) << "still the sink's";
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, back, kRefs, &n), VX_SUCCESS);
  EXPECT_EQ(n, static_cast<vx_uint32>(kRefs)) << "outputs are not kept";
  // Verifying again stops the graph: the kept inputs come back.
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, back, kRefs, &n), VX_SUCCESS);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(back[0], ref(ins_[2]));
  EXPECT_EQ(back[1], ref(ins_[3]));
}

}  // namespace
