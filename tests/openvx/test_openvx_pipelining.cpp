// vx_khr_pipelining: graph parameter queues (auto and manual), events (graph parameter consumed, graph
// completed, node completed, node error, user) and streaming, with results equal to unpipelined runs.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using vg_openvx_test::read_int32;
using vg_openvx_test::write_int32;
using vg_openvx_test::int32_output;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;


std::atomic<int> calls{0};
std::atomic<bool> fail_next{false};

// out = in * 2 + 1; fails once when asked.
vx_status VX_CALLBACK twice_plus_one(vx_node, const vx_reference* parameters, vx_uint32) {
  calls.fetch_add(1);
  if (fail_next.exchange(false)) return VX_ERROR_INVALID_VALUE;
  vx_int32 v = 0;
  if (vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  v = v * 2 + 1;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

class OpenVxPipelining : public OpenVx {
 protected:
  static constexpr int kRefs = 4;
  void SetUp() override {
    OpenVx::SetUp();
    calls = 0;
    fail_next = false;
    kernel_ = add_user_kernel(context_, "org.visiongraph.test.twice_plus_one", twice_plus_one,
                              {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}, int32_output);
    graph_ = vxCreateGraph(context_);
    for (int i = 0; i < kRefs; ++i) {
      ins_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
      outs_[i] = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    }
    // in -> first (cpu0) -> virtual -> second (cpu1) -> out: out = (in * 2 + 1) * 2 + 1.
    vx_scalar between = vxCreateVirtualScalar(graph_, VX_TYPE_INT32);
    first_ = vxCreateGenericNode(graph_, kernel_);
    second_ = vxCreateGenericNode(graph_, kernel_);
    EXPECT_EQ(vxSetParameterByIndex(first_, 1, ref(between)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(second_, 0, ref(between)), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(first_, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(second_, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&between), VX_SUCCESS);
    for (auto [node, index] : {std::pair{first_, 0u}, std::pair{second_, 1u}}) {
      vx_parameter p = vxGetParameterByIndex(node, index);
      EXPECT_EQ(vxAddParameterToGraph(graph_, p), VX_SUCCESS);
      EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseNode(&first_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&second_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    for (int i = 0; i < kRefs; ++i) {
      EXPECT_EQ(vxReleaseScalar(&ins_[i]), VX_SUCCESS);
      EXPECT_EQ(vxReleaseScalar(&outs_[i]), VX_SUCCESS);
    }
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_status configure(vx_enum mode) {
    vx_graph_parameter_queue_params_t params[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins_)},
                                                   {1, kRefs, reinterpret_cast<vx_reference*>(outs_)}};
    return vxSetGraphScheduleConfig(graph_, mode, 2, params);
  }
  void enqueue(int i) {
    vx_reference in = ref(ins_[i]), out = ref(outs_[i]);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_SUCCESS);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 1, &out, 1), VX_SUCCESS);
  }
  /// The expected output for input @p v (what an unpipelined run gives).
  static vx_int32 expected(vx_int32 v) { return (v * 2 + 1) * 2 + 1; }

  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_node first_ = nullptr, second_ = nullptr;
  vx_scalar ins_[kRefs] = {}, outs_[kRefs] = {};
};

TEST_F(OpenVx, TheContextListsThePipeliningExtension) {
  vx_size size = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS_SIZE, &size, sizeof size), VX_SUCCESS);
  std::vector<vx_char> extensions(size);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS, extensions.data(), extensions.size()), VX_SUCCESS);
  EXPECT_NE(std::string(extensions.data()).find(OPENVX_KHR_PIPELINING), std::string::npos);
}

TEST_F(OpenVxPipelining, QueueAutoRunsAFramePerEnqueuedSetAndReturnsTheReferencesInOrder) {
  // The unpipelined result first.
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 0, ref(ins_[0])), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 1, ref(outs_[0])), VX_SUCCESS);
  write_int32(ins_[0], 5);
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  const vx_int32 unpipelined = read_int32(outs_[0]);
  EXPECT_EQ(unpipelined, expected(5));

  ASSERT_EQ(configure(VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO), VX_SUCCESS);
  vx_enum mode = 0;
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_SCHEDULE_MODE, &mode, sizeof mode), VX_SUCCESS);
  EXPECT_EQ(mode, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_NOT_SUPPORTED) << "a queued graph runs from its queues";
  for (int frame = 0; frame < 12; ++frame) {
    const int i = frame % kRefs;
    if (frame >= kRefs) {  // take the reference back before enqueueing it again
      vx_reference done[1] = {};
      vx_uint32 n = 0;
      ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, done, 1, &n), VX_SUCCESS);
      ASSERT_EQ(n, 1u);
      EXPECT_EQ(done[0], ref(outs_[i])) << "outputs come back in the order they went in";
      EXPECT_EQ(read_int32(outs_[i]), expected(frame - kRefs)) << "frame " << frame - kRefs << " equals an unpipelined run";
      ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, done, 1, &n), VX_SUCCESS);
      EXPECT_EQ(done[0], ref(ins_[i]));
    }
    write_int32(ins_[i], frame);
    enqueue(i);
  }
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  vx_uint32 done_count = 0;
  EXPECT_EQ(vxGraphParameterCheckDoneRef(graph_, 1, &done_count), VX_SUCCESS);
  EXPECT_EQ(done_count, static_cast<vx_uint32>(kRefs));
  vx_reference done[kRefs] = {};
  vx_uint32 n = 0;
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, done, kRefs, &n), VX_SUCCESS);
  ASSERT_EQ(n, static_cast<vx_uint32>(kRefs));
  for (int k = 0; k < kRefs; ++k) EXPECT_EQ(read_int32(reinterpret_cast<vx_scalar>(done[k])), expected(12 - kRefs + k));
  EXPECT_EQ(calls.load(), 2 * (12 + 1));
}

TEST_F(OpenVxPipelining, QueueManualRunsWhatIsEnqueuedWhenScheduled) {
  ASSERT_EQ(configure(VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL), VX_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    write_int32(ins_[i], 10 * i);
    enqueue(i);
  }
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(calls.load(), 0) << "nothing runs before vxScheduleGraph";
  ASSERT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(calls.load(), 6);
  vx_uint32 n = 0;
  EXPECT_EQ(vxGraphParameterCheckDoneRef(graph_, 1, &n), VX_SUCCESS);
  EXPECT_EQ(n, 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(read_int32(outs_[i]), expected(10 * i));
  EXPECT_EQ(vxScheduleGraph(graph_), VX_FAILURE) << "nothing enqueued";
  // A failing frame is reported by vxWaitGraph; the references still come back.
  vx_reference back[3] = {};
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, back, 3, &n), VX_SUCCESS);
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, back, 3, &n), VX_SUCCESS);
  enqueue(0);
  fail_next = true;
  ASSERT_EQ(vxScheduleGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(graph_), VX_ERROR_INVALID_VALUE);
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, back, 3, &n), VX_SUCCESS);
  EXPECT_EQ(n, 1u);
}

TEST_F(OpenVxPipelining, QueueErrorsAreReportedNotHung) {
  vx_graph_parameter_queue_params_t bad[1] = {{7, kRefs, reinterpret_cast<vx_reference*>(ins_)}};
  EXPECT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 1, bad), VX_ERROR_INVALID_PARAMETERS);
  vx_graph_parameter_queue_params_t wrong_type[1] = {{0, 1, reinterpret_cast<vx_reference*>(&graph_)}};
  EXPECT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 1, wrong_type), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxSetGraphScheduleConfig(graph_, 12345, 0, nullptr), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetGraphScheduleConfig(nullptr, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 0, nullptr), VX_ERROR_INVALID_REFERENCE);
  vx_reference in = ref(ins_[0]);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_ERROR_INVALID_PARAMETERS) << "not a queued parameter yet";
  ASSERT_EQ(configure(VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO), VX_SUCCESS);
  vx_scalar stranger = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_reference other = ref(stranger);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &other, 1), VX_ERROR_INVALID_PARAMETERS) << "not in the list";
  ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_SUCCESS);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph_, 0, &in, 1), VX_ERROR_INVALID_PARAMETERS) << "queued already";
  EXPECT_EQ(vxScheduleGraph(graph_), VX_ERROR_NOT_SUPPORTED) << "auto mode schedules itself";
  // Only the input is queued: no frame can run, so waiting for an output does not hang.
  vx_reference done[1] = {};
  vx_uint32 n = 7;
  EXPECT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, done, 1, &n), VX_FAILURE);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, done, 0, &n), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGraphParameterCheckDoneRef(graph_, 1, nullptr), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGraphParameterCheckDoneRef(nullptr, 1, &n), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&stranger), VX_SUCCESS);
}

// The conformance suite's ScalarOutput test lists graph parameter 1 twice for parameters 1 and 2; the repeated
// entry configures the parameter at its own list position. Here: entries {0, ins}, {0, outs} for parameters 0, 1.
TEST_F(OpenVxPipelining, AScheduleEntryRepeatingAnIndexConfiguresTheParameterAtItsPosition) {
  vx_graph_parameter_queue_params_t params[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins_)},
                                                 {0, kRefs, reinterpret_cast<vx_reference*>(outs_)}};
  ASSERT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, params), VX_SUCCESS);
  write_int32(ins_[1], 4);
  enqueue(1);
  vx_reference done[1] = {};
  vx_uint32 n = 0;
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, done, 1, &n), VX_SUCCESS);
  EXPECT_EQ(done[0], ref(outs_[1]));
  EXPECT_EQ(read_int32(outs_[1]), expected(4));
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, done, 1, &n), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  // Where the position is taken too (or named by a later entry), the list is refused.
  vx_graph_parameter_queue_params_t twice[2] = {{1, kRefs, reinterpret_cast<vx_reference*>(outs_)},
                                                {1, kRefs, reinterpret_cast<vx_reference*>(outs_)}};
  EXPECT_EQ(vxSetGraphScheduleConfig(graph_, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, twice), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("names graph parameter 1 twice"));
}

std::vector<vx_event_t> drain(vx_context context) {
  std::vector<vx_event_t> events;
  vx_event_t e{};
  while (vxWaitEvent(context, &e, vx_true_e) == VX_SUCCESS) events.push_back(e);
  return events;
}

TEST_F(OpenVxPipelining, EventsComeInTheOrderThingsHappen) {
  ASSERT_EQ(configure(VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO), VX_SUCCESS);
  EXPECT_EQ(vxEnableEvents(context_), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_GRAPH_PARAMETER_CONSUMED, 0, 100), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_GRAPH_COMPLETED, 0, 200), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(first_), VX_EVENT_NODE_COMPLETED, 0, 301), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(second_), VX_EVENT_NODE_COMPLETED, 0, 302), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(second_), VX_EVENT_NODE_ERROR, 0, 402), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (int i = 0; i < 2; ++i) enqueue(i);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  const std::vector<vx_event_t> events = drain(context_);
  // Per frame: first, second, the graph, then the consumed input. The two frames overlap (first runs the
  // second frame while second runs the first), so the order holds frame by frame: the k-th event of each
  // kind belongs to frame k, and within a frame the kinds come in that order.
  ASSERT_EQ(events.size(), 8u);
  const vx_uint32 per_frame[4] = {301, 302, 200, 100};
  for (int frame = 0; frame < 2; ++frame) {
    std::size_t previous = 0;
    for (int kind = 0; kind < 4; ++kind) {
      std::size_t position = 0;
      for (int seen = -1; position < events.size(); ++position) {
        if (events[position].app_value == per_frame[kind] && ++seen == frame) break;
      }
      ASSERT_LT(position, events.size()) << "frame " << frame << " has no event " << per_frame[kind];
      if (kind > 0) {
        EXPECT_GT(position, previous) << "frame " << frame << ": event " << per_frame[kind] << " after " << per_frame[kind - 1];
      }
      previous = position;
    }
  }
  for (std::size_t k = 1; k < events.size(); ++k) EXPECT_GE(events[k].timestamp, events[k - 1].timestamp);
  for (const vx_event_t& e : events) {
    switch (e.app_value) {
      case 301:
        EXPECT_EQ(e.type, VX_EVENT_NODE_COMPLETED);
        EXPECT_EQ(e.event_info.node_completed.node, first_);
        EXPECT_EQ(e.event_info.node_completed.graph, graph_);
        break;
      case 200:
        EXPECT_EQ(e.type, VX_EVENT_GRAPH_COMPLETED);
        EXPECT_EQ(e.event_info.graph_completed.graph, graph_);
        break;
      case 100:
        EXPECT_EQ(e.type, VX_EVENT_GRAPH_PARAMETER_CONSUMED);
        EXPECT_EQ(e.event_info.graph_parameter_consumed.graph_parameter_index, 0u);
        break;
      default: break;
    }
  }
  // Disabled events are not queued.
  vx_reference back[2] = {};
  vx_uint32 n = 0;
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 0, back, 2, &n), VX_SUCCESS);
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph_, 1, back, 2, &n), VX_SUCCESS);
  EXPECT_EQ(vxDisableEvents(context_), VX_SUCCESS);
  enqueue(0);
  EXPECT_EQ(vxWaitGraph(graph_), VX_SUCCESS);
  EXPECT_TRUE(drain(context_).empty()) << "disabled: nothing queued";
  EXPECT_EQ(vxSendUserEvent(context_, 76, nullptr), VX_FAILURE) << "a user event sent while disabled is dropped, and said so";
  EXPECT_EQ(vxEnableEvents(context_), VX_SUCCESS);
  // User events carry the application's value and pointer.
  int payload = 0;
  EXPECT_EQ(vxSendUserEvent(context_, 77, &payload), VX_SUCCESS);
  vx_event_t user{};
  ASSERT_EQ(vxWaitEvent(context_, &user, vx_false_e), VX_SUCCESS);
  EXPECT_EQ(user.type, VX_EVENT_USER);
  EXPECT_EQ(user.app_value, 77u);
  EXPECT_EQ(user.event_info.user_event.user_event_parameter, &payload);
  vx_event_t none{};
  EXPECT_EQ(vxWaitEvent(context_, &none, vx_true_e), VX_FAILURE) << "nothing left, and told not to block";
}

TEST_F(OpenVxPipelining, ANodeErrorIsAnEvent) {
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 0, ref(ins_[0])), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 1, ref(outs_[0])), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(first_), VX_EVENT_NODE_ERROR, 0, 401), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_GRAPH_COMPLETED, 0, 200), VX_SUCCESS);
  fail_next = true;
  EXPECT_EQ(vxProcessGraph(graph_), VX_ERROR_INVALID_VALUE);
  const std::vector<vx_event_t> events = drain(context_);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, VX_EVENT_NODE_ERROR);
  EXPECT_EQ(events[0].app_value, 401u);
  EXPECT_EQ(events[0].event_info.node_error.node, first_);
  EXPECT_EQ(events[0].event_info.node_error.status, VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(events[1].type, VX_EVENT_GRAPH_COMPLETED);
}

TEST_F(OpenVxPipelining, EventRegistrationIsChecked) {
  EXPECT_EQ(vxRegisterEvent(ref(first_), VX_EVENT_GRAPH_COMPLETED, 0, 0), VX_ERROR_INVALID_PARAMETERS) << "a node is no graph";
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_NODE_COMPLETED, 0, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_GRAPH_PARAMETER_CONSUMED, 9, 0), VX_ERROR_INVALID_PARAMETERS) << "no parameter 9";
  EXPECT_EQ(vxRegisterEvent(ref(graph_), VX_EVENT_USER, 0, 0), VX_ERROR_INVALID_PARAMETERS) << "user events are sent";
  EXPECT_EQ(vxRegisterEvent(nullptr, VX_EVENT_GRAPH_COMPLETED, 0, 0), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxWaitEvent(nullptr, nullptr, vx_true_e), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxWaitEvent(context_, nullptr, vx_true_e), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxEnableEvents(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSendUserEvent(nullptr, 0, nullptr), VX_ERROR_INVALID_REFERENCE);
}

// A source: writes 1, 2, 3, ... to its output, one per run.
std::atomic<vx_int32> produced{0};
// The source runs at most this many frames: the test keeps it a bounded distance ahead of the events it
// has read, so the context's event ring (256) never overflows however the threads are scheduled.
std::atomic<vx_int32> allowance{std::numeric_limits<vx_int32>::max()};
vx_status VX_CALLBACK count_up(vx_node, const vx_reference* parameters, vx_uint32) {
  while (produced.load() >= allowance.load()) std::this_thread::sleep_for(100us);
  vx_int32 v = produced.fetch_add(1) + 1;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

TEST_F(OpenVxPipelining, StreamingRunsFrameAfterFrameWithoutGapsUntilStopped) {
  produced = 0;
  vx_kernel source = add_user_kernel(context_, "org.visiongraph.test.count_up", count_up, {{VX_OUTPUT, VX_TYPE_SCALAR}}, int32_output);
  vx_graph graph = vxCreateGraph(context_);
  vx_scalar counted = vxCreateVirtualScalar(graph, VX_TYPE_INT32);
  vx_node producer = vxCreateGenericNode(graph, source);
  vx_node consumer = vxCreateGenericNode(graph, kernel_);
  EXPECT_EQ(vxSetParameterByIndex(producer, 0, ref(counted)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(consumer, 0, ref(counted)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(consumer, 1, ref(outs_[0])), VX_SUCCESS);
  EXPECT_EQ(vxRegisterEvent(ref(consumer), VX_EVENT_NODE_COMPLETED, 0, 1), VX_SUCCESS);
  EXPECT_EQ(vxStartGraphStreaming(graph), VX_FAILURE) << "not enabled";
  EXPECT_EQ(vxEnableGraphStreaming(graph, producer), VX_SUCCESS);
  constexpr vx_int32 ahead = 100;
  allowance = ahead;
  ASSERT_EQ(vxStartGraphStreaming(graph), VX_SUCCESS);
  EXPECT_EQ(vxStartGraphStreaming(graph), VX_FAILURE) << "started already";
  // Runs by itself: read 20 frames' completions, then stop from another thread while still reading.
  int seen = 0;
  auto read_one = [&] {
    vx_event_t e{};
    if (vxWaitEvent(context_, &e, vx_true_e) != VX_SUCCESS) return false;
    ++seen;
    allowance = seen + ahead;
    return true;
  };
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (seen < 20 && std::chrono::steady_clock::now() < give_up) {
    if (!read_one()) std::this_thread::sleep_for(1ms);
  }
  std::atomic<bool> stopped{false};
  vx_status stop_status = VX_FAILURE;
  std::thread stopper([&] {
    stop_status = vxStopGraphStreaming(graph);
    stopped = true;
  });
  while (!stopped.load()) {
    if (!read_one()) std::this_thread::sleep_for(1ms);
  }
  stopper.join();
  allowance = std::numeric_limits<vx_int32>::max();
  ASSERT_EQ(stop_status, VX_SUCCESS);
  EXPECT_EQ(vxStopGraphStreaming(graph), VX_FAILURE) << "stopped already";
  EXPECT_EQ(vxWaitGraph(graph), VX_SUCCESS);
  seen += static_cast<int>(drain(context_).size());
  const vx_int32 frames = produced.load();
  EXPECT_GE(frames, 20);
  EXPECT_EQ(seen, frames) << "every frame the source produced was consumed: no gaps";
  EXPECT_EQ(read_int32(outs_[0]), frames * 2 + 1) << "the last frame's result";
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(produced.load(), frames) << "nothing runs after the stop";
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxReleaseNode(&producer), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&consumer), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&counted), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(source), VX_SUCCESS);
}

TEST_F(OpenVxPipelining, ReleasingAStreamingGraphStopsIt) {
  ASSERT_EQ(vxEnableGraphStreaming(graph_, nullptr), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 0, ref(ins_[0])), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 1, ref(outs_[0])), VX_SUCCESS);
  ASSERT_EQ(vxStartGraphStreaming(graph_), VX_SUCCESS);
  const auto give_up = std::chrono::steady_clock::now() + 10s;  // a loaded machine may take a while
  while (calls.load() == 0 && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(1ms);
  EXPECT_GT(calls.load(), 0);
  // TearDown releases the graph while it streams: the executor stops first.
}

}  // namespace

namespace {
// An application that stops half-way (the conformance suite after a failed assertion): frames queued and in
// flight, references still enqueued, every handle still held, and then only vxReleaseContext.
TEST(OpenVxPipeliningContext, ReleasingTheContextWithFramesInFlightTakesEverything) {
  for (int round = 0; round < 20; ++round) {
    vx_context context = vxCreateContext();
    vx_kernel kernel = vg_openvx_test::add_user_kernel(context, "org.visiongraph.test.twice_plus_one", twice_plus_one,
                                                       {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}},
                                                       vg_openvx_test::int32_output);
    vx_graph graph = vxCreateGraph(context);
    vx_scalar ins[3], outs[3];
    for (int i = 0; i < 3; ++i) {
      ins[i] = vxCreateScalar(context, VX_TYPE_INT32, nullptr);
      outs[i] = vxCreateScalar(context, VX_TYPE_INT32, nullptr);
    }
    vx_scalar between = vxCreateVirtualScalar(graph, VX_TYPE_INT32);
    vx_node first = vxCreateGenericNode(graph, kernel), second = vxCreateGenericNode(graph, kernel);
    ASSERT_EQ(vxSetParameterByIndex(first, 0, reinterpret_cast<vx_reference>(ins[0])), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(first, 1, reinterpret_cast<vx_reference>(between)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(second, 0, reinterpret_cast<vx_reference>(between)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(second, 1, reinterpret_cast<vx_reference>(outs[0])), VX_SUCCESS);
    ASSERT_EQ(vxSetNodeTarget(first, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
    ASSERT_EQ(vxSetNodeTarget(second, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
    for (auto [node, index] : {std::pair{first, 0u}, std::pair{second, 1u}}) {
      vx_parameter p = vxGetParameterByIndex(node, index);
      ASSERT_EQ(vxAddParameterToGraph(graph, p), VX_SUCCESS);
      ASSERT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
    vx_graph_parameter_queue_params_t params[2] = {{0, 3, reinterpret_cast<vx_reference*>(ins)},
                                                   {1, 3, reinterpret_cast<vx_reference*>(outs)}};
    ASSERT_EQ(vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, params), VX_SUCCESS);
    for (int i = 0; i < 3; ++i) {
      vx_reference in = reinterpret_cast<vx_reference>(ins[i]), out = reinterpret_cast<vx_reference>(outs[i]);
      ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, &in, 1), VX_SUCCESS);
      if (i < 2) {  // the third input is left waiting
        ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph, 1, &out, 1), VX_SUCCESS);
      }
    }
    EXPECT_EQ(vxReleaseContext(&context), VX_SUCCESS);  // ASan: nothing leaks, nothing is used after it goes
    EXPECT_EQ(context, nullptr);
  }
}
}  // namespace
