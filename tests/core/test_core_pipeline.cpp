// Pipelining: graph parameters, depth, input policies, streaming start/stop, FIFO and parallel targets.

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "test_kernels.hpp"
#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::test::EventLog;

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EventLog::instance().clear();
    ctx.load_module(vg::examples::make_module());
    ctx.load_module(vg::test::make_test_module());
  }
  void TearDown() override {
    vg::test::set_hook(nullptr, nullptr);
    EXPECT_EQ(vg::test::live_recorders(), 0);
  }
  vg::Context ctx;
};

/// in -> stage1 (cpu0) -> stage2 (npu0) -> stage3 (cpu1) -> out, each recorder adds 1.
struct ThreeStage {
  ThreeStage(vg::Context& ctx, std::size_t depth, std::int64_t sleep_us, std::size_t in_buffers = 6)
      : g(ctx, "three") {
    in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
    auto a = g.add_virtual("a", vg::DataKind::scalar), b = g.add_virtual("b", vg::DataKind::scalar);
    out = g.add_virtual("out", vg::DataKind::scalar);
    const char* targets[] = {"cpu0", "npu0", "cpu1"};
    vg::DataId wires[] = {in, a, b, out};
    for (int i = 0; i < 3; ++i) {
      stages[i] = g.add_node("stage" + std::to_string(i + 1), "vg.test.recorder");
      g.bind(stages[i], "in", wires[i]).bind(stages[i], "out", wires[i + 1]).set_target(stages[i], targets[i]);
      g.set_attribute(stages[i], "sleep_us", sleep_us);
    }
    gin = g.add_graph_parameter(stages[0], "in", in_buffers);
    gout = g.add_graph_parameter(stages[2], "out", 4);
    g.set_pipeline_depth(depth);
  }
  vg::Graph g;
  vg::DataId in, out;
  vg::NodeId stages[3];
  vg::GraphParamId gin, gout;
};

/// Feeds `values` through a verified, started ThreeStage graph; returns outputs in dequeue order.
std::vector<double> run_stream(ThreeStage& t, const std::vector<double>& values) {
  std::vector<double> results;
  for (std::uint32_t k = 0; k < 4; ++k) EXPECT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  std::vector<std::uint32_t> free_in;
  for (std::uint32_t k = 0; k < t.g.num_buffers(t.in); ++k) free_in.push_back(k);
  std::size_t sent = 0;
  while (results.size() < values.size()) {
    // Never hold more frames than there are output buffers: the app must hand outputs back too.
    while (sent < values.size() && !free_in.empty() && sent - results.size() < 4) {
      const auto k = free_in.back();
      free_in.pop_back();
      t.g.scalar(t.in, k).set(values[sent++]);
      EXPECT_EQ(t.g.enqueue(t.gin, k), vg::Status::ok);
    }
    vg::DequeuedBuffer done;
    if (t.g.dequeue(t.gout, done, 5s) != vg::Status::ok) {
      ADD_FAILURE() << "dequeue timed out";
      break;
    }
    EXPECT_EQ(done.sequence, results.size());  // frames complete in order
    results.push_back(t.g.scalar(t.out, done.index).get<double>());
    EXPECT_EQ(t.g.enqueue(t.gout, done.index), vg::Status::ok);
    vg::DequeuedBuffer used;
    EXPECT_EQ(t.g.dequeue(t.gin, used, 5s), vg::Status::ok);
    free_in.push_back(used.index);
  }
  return results;
}

TEST_F(PipelineTest, PipelinedResultsEqualSequentialResultsFrameForFrame) {
  std::vector<double> values;
  for (int i = 0; i < 200; ++i) values.push_back(i * 1.5);
  std::vector<double> sequential;
  {
    ThreeStage t(ctx, 1, 0);
    t.g.verify();
    for (double v : values) {
      t.g.scalar(t.in, 0).set(v);
      ASSERT_EQ(t.g.process(), vg::Status::ok);
      sequential.push_back(t.g.scalar(t.out).get<double>());
    }
  }
  for (std::size_t depth : {1u, 2u, 3u, 4u}) {
    ThreeStage t(ctx, depth, 0);
    t.g.verify();
    ASSERT_EQ(t.g.start(), vg::Status::ok);
    EXPECT_EQ(run_stream(t, values), sequential) << "depth " << depth;
    EXPECT_EQ(t.g.stop(), vg::Status::ok);
    EXPECT_EQ(t.g.stats().frames_completed, values.size());
  }
  EXPECT_EQ(sequential[10], 15.0 + 3.0);
}

TEST_F(PipelineTest, FrameSampleGivesEachStageOfAFrameInOrder) {
  ThreeStage t(ctx, 3, 2000);
  vg::FrameSample sample;
  EXPECT_EQ(t.g.frame_sample(0, sample), vg::Status::not_verified);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  for (std::uint32_t k = 0; k < 3; ++k) {
    t.g.scalar(t.in, k).set(1.0);
    ASSERT_EQ(t.g.enqueue(t.gin, k), vg::Status::ok);
  }
  for (int f = 0; f < 3; ++f) {
    vg::DequeuedBuffer done;
    ASSERT_EQ(t.g.dequeue(t.gout, done, 5s), vg::Status::ok);
    ASSERT_EQ(t.g.frame_sample(done.sequence, sample), vg::Status::ok);
    EXPECT_EQ(sample.sequence, done.sequence);
    ASSERT_EQ(sample.count, 3u) << "frame " << done.sequence;
    for (std::size_t i = 0; i < 3; ++i) {
      const vg::StageSample& s = sample.stages[i];
      EXPECT_STREQ(s.name, ("stage" + std::to_string(i + 1)).c_str()) << "in the order they ran";
      EXPECT_EQ(s.status, vg::Status::ok);
      EXPECT_EQ(s.code, 0);
      EXPECT_GE(s.end_ns - s.start_ns, 1'500'000) << "each stage sleeps 2 ms";
      if (i > 0) {
        EXPECT_GE(s.start_ns, sample.stages[i - 1].end_ns) << "a stage starts after the one it reads";
      }
    }
    EXPECT_LE(sample.stages[2].end_ns, done.completed_ns) << "the last stage ended before the frame was handed back";
    EXPECT_EQ(sample.failed_mask, 0u);
    EXPECT_EQ(sample.runtime_code, 0);
  }
  EXPECT_EQ(t.g.frame_sample(1000, sample), vg::Status::no_data) << "a frame that never ran";
  EXPECT_EQ(sample.count, 0u);
  EXPECT_EQ(t.g.stop(), vg::Status::ok);
}

TEST_F(PipelineTest, FrameSampleMarksTheFailedStageWithItsRuntimeCode) {
  ThreeStage t(ctx, 2, 0);
  t.g.set_attribute(t.stages[1], "fail_in", std::string("process"));
  t.g.set_attribute(t.stages[1], "fail_frame", std::int64_t{1});
  t.g.verify();
  for (int f = 0; f < 3; ++f) {
    const vg::Status s = t.g.process();
    vg::FrameSample sample;
    ASSERT_EQ(t.g.frame_sample(static_cast<std::uint64_t>(f), sample), vg::Status::ok);
    ASSERT_GE(sample.count, 2u);
    EXPECT_STREQ(sample.stages[1].name, "stage2");
    if (f == 1) {
      EXPECT_NE(s, vg::Status::ok);
      EXPECT_EQ(sample.stages[1].status, vg::Status::kernel_error);
      EXPECT_EQ(sample.stages[1].code, -42);
      EXPECT_EQ(sample.failed_mask, 1u << 1);
      EXPECT_EQ(sample.runtime_code, -42);
    } else {
      EXPECT_EQ(s, vg::Status::ok);
      EXPECT_EQ(sample.failed_mask, 0u) << "frame " << f;
      EXPECT_EQ(sample.stages[1].code, 0) << "a code belongs to its call only";
    }
  }
}

TEST_F(PipelineTest, TargetsOverlapWhilePipelinedAndEachTargetRunsOneCommandAtATime) {
  ThreeStage t(ctx, 3, 20000);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  std::vector<double> values(12, 1.0);
  ASSERT_EQ(run_stream(t, values).size(), values.size());
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  // Some execution of stage1 overlaps one of stage2 (different targets run in parallel)...
  auto s1 = t.g.executions(t.stages[0]), s2 = t.g.executions(t.stages[1]);
  bool overlap = false;
  for (const auto& x : s1)
    for (const auto& y : s2) overlap |= x.start_ns < y.end_ns && y.start_ns < x.end_ns;
  EXPECT_TRUE(overlap);
  // ...while executions of one node never overlap, and follow frame order.
  for (auto& node : t.stages) {
    auto runs = t.g.executions(node);
    for (std::size_t i = 1; i < runs.size(); ++i) {
      EXPECT_GE(runs[i].start_ns, runs[i - 1].end_ns);
      EXPECT_EQ(runs[i].frame, runs[i - 1].frame + 1);
    }
  }
}

TEST_F(PipelineTest, OrderAcrossFramesMakesTheNextFrameOfOneNodeWaitForAnother) {
  // stage1 of frame f + 1 waits for stage3 of frame f (as if stage1 overwrote memory stage3 reads);
  // stage2 stays free to overlap stage1 and stage3.
  ThreeStage t(ctx, 3, 10000);
  t.g.order_across_frames(t.stages[2], t.stages[0]);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 10; ++i) values.push_back(i);
  const std::vector<double> results = run_stream(t, values);
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(results[i], values[i] + 3.0);
  const auto first = t.g.executions(t.stages[0]), last = t.g.executions(t.stages[2]);
  ASSERT_EQ(first.size(), values.size());
  ASSERT_EQ(last.size(), values.size());
  for (std::size_t f = 0; f + 1 < values.size(); ++f) {
    ASSERT_EQ(first[f + 1].frame, last[f].frame + 1);
    EXPECT_GE(first[f + 1].start_ns, last[f].end_ns) << "frame " << f + 1;
  }
  // Without the order, stage1 runs ahead: some frame f + 1 starts before stage3 has finished frame f.
  ThreeStage free_running(ctx, 3, 10000);
  free_running.g.verify();
  ASSERT_EQ(free_running.g.start(), vg::Status::ok);
  ASSERT_EQ(run_stream(free_running, values).size(), values.size());
  ASSERT_EQ(free_running.g.stop(), vg::Status::ok);
  const auto a = free_running.g.executions(free_running.stages[0]), c = free_running.g.executions(free_running.stages[2]);
  bool ahead = false;
  for (std::size_t f = 0; f + 1 < a.size() && f < c.size(); ++f) ahead |= a[f + 1].start_ns < c[f].end_ns;
  EXPECT_TRUE(ahead);
}

TEST_F(PipelineTest, OrderAcrossFramesRefusesAnUnknownNode) {
  ThreeStage t(ctx, 2, 0);
  EXPECT_THROW(t.g.order_across_frames(t.stages[0], vg::NodeId{99}), vg::Error);
}

TEST_F(PipelineTest, CommandsAndFramesOnOneTargetRunInArrivalOrder) {
  // Two nodes on cpu0: their callbacks never overlap, and a command lands between two process calls
  // (whichever thread runs them: cpu0's worker, or a caller that found cpu0 idle, run_on_caller).
  vg::Graph g(ctx, "fifo");
  auto x = g.add_virtual("x", vg::DataKind::scalar);
  auto a = g.add_node("a", "vg.test.recorder");
  g.bind(a, "out", x).set_attribute(a, "sleep_us", 2000);
  auto b = g.add_node("b", "vg.test.recorder");
  g.bind(b, "in", x).set_attribute(b, "sleep_us", 2000);
  g.verify();
  std::thread commander([&] {
    for (int i = 0; i < 20; ++i) {
      EXPECT_EQ(g.send_command(b, vg::ControlCommand::make(vg::test::kCmdPing), 2s), vg::Status::ok);
      std::this_thread::sleep_for(1ms);
    }
  });
  for (int i = 0; i < 30; ++i) ASSERT_EQ(g.process(), vg::Status::ok);
  commander.join();
  auto events = EventLog::instance().events();
  std::vector<vg::test::Event> on_cpu0;
  for (const auto& e : events)
    if (e.callback == "process" || e.callback == "control") on_cpu0.push_back(e);
  std::sort(on_cpu0.begin(), on_cpu0.end(), [](auto& l, auto& r) { return l.start_ns < r.start_ns; });
  for (std::size_t i = 1; i < on_cpu0.size(); ++i) {
    EXPECT_GE(on_cpu0[i].start_ns, on_cpu0[i - 1].end_ns) << "callbacks on one target overlapped";
  }
  const auto seq = EventLog::instance().sequence("b");
  EXPECT_EQ(std::count(seq.begin(), seq.end(), "control"), 20);
}

TEST_F(PipelineTest, LatestWinsDropsTheOldestWaitingFrameAndHandsItBack) {
  ThreeStage t(ctx, 1, 30000, 8);
  t.g.set_input_policy(t.gin, vg::InputPolicy::latest_wins, 1);
  t.g.verify();
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  // Burst 8 frames into a graph that takes ~90 ms per frame: most must be dropped, none lost.
  for (std::uint32_t k = 0; k < 8; ++k) {
    t.g.scalar(t.in, k).set(double(k));
    ASSERT_EQ(t.g.enqueue(t.gin, k), vg::Status::ok);
  }
  std::vector<vg::DequeuedBuffer> inputs;
  while (inputs.size() < 8) {
    vg::DequeuedBuffer d;
    ASSERT_EQ(t.g.dequeue(t.gin, d, 5s), vg::Status::ok);
    inputs.push_back(d);
  }
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  const auto dropped = std::count_if(inputs.begin(), inputs.end(), [](auto& d) { return d.status == vg::Status::dropped; });
  const auto done = std::count_if(inputs.begin(), inputs.end(), [](auto& d) { return d.status == vg::Status::ok; });
  EXPECT_EQ(dropped + done, 8);
  EXPECT_GE(dropped, 5);
  const auto stats = t.g.stats();
  EXPECT_EQ(stats.frames_dropped, static_cast<std::uint64_t>(dropped));
  EXPECT_EQ(stats.frames_completed, static_cast<std::uint64_t>(done));
  EXPECT_EQ(stats.frames_in, 8u);
  // the newest frame was never dropped
  for (const auto& d : inputs) {
    if (d.index == 7) {
      EXPECT_EQ(d.status, vg::Status::ok);
    }
  }
}

TEST_F(PipelineTest, AFramesTagComesBackWithItsOutputsAndWithItsInputWhenDropped) {
  ThreeStage t(ctx, 1, 20000, 8);
  t.g.set_input_policy(t.gin, vg::InputPolicy::latest_wins, 1);
  t.g.verify();
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  // Tags 1000 + k: the application's own frame numbers; most frames are dropped, so the graph's
  // sequence numbers and the tags disagree, and only the tag says which input an output came from.
  for (std::uint32_t k = 0; k < 8; ++k) {
    t.g.scalar(t.in, k).set(double(k));
    ASSERT_EQ(t.g.enqueue(t.gin, k, vg::FrameStamp{0, 0, 1000u + k}), vg::Status::ok);
  }
  std::size_t ran = 0;
  for (std::size_t seen = 0; seen < 8; ++seen) {
    vg::DequeuedBuffer d;
    ASSERT_EQ(t.g.dequeue(t.gin, d, 5s), vg::Status::ok);
    EXPECT_EQ(d.tag, 1000u + d.index) << "input buffer " << d.index;
    if (d.status == vg::Status::ok) ++ran;
  }
  for (std::size_t f = 0; f < ran; ++f) {
    vg::DequeuedBuffer out;
    ASSERT_EQ(t.g.dequeue(t.gout, out, 5s), vg::Status::ok);
    // Each stage adds 1: the output's value names its input, and so must its tag.
    const double input_value = t.g.scalar(t.out, out.index).get<double>() - 3.0;
    EXPECT_EQ(out.tag, 1000u + static_cast<std::uint64_t>(input_value)) << "output of frame " << out.sequence;
    EXPECT_EQ(t.g.enqueue(t.gout, out.index), vg::Status::ok);
  }
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  EXPECT_LT(ran, 8u);
}

TEST_F(PipelineTest, RejectNewRefusesFramesWhileTheQueueIsFull) {
  ThreeStage t(ctx, 1, 30000, 8);
  t.g.set_input_policy(t.gin, vg::InputPolicy::reject_new, 1);
  t.g.verify();
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  int rejected = 0, accepted = 0;
  for (std::uint32_t k = 0; k < 8; ++k) (t.g.enqueue(t.gin, k) == vg::Status::rejected ? rejected : accepted)++;
  EXPECT_GE(rejected, 5);
  EXPECT_EQ(t.g.stats().frames_rejected, static_cast<std::uint64_t>(rejected));
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  int returned = 0;
  vg::DequeuedBuffer d;
  while (t.g.dequeue(t.gin, d, 1s) == vg::Status::ok) ++returned;
  EXPECT_EQ(returned, accepted);  // every accepted buffer comes back
}

TEST_F(PipelineTest, BlockPolicyWaitsForRoomAndTimesOut) {
  ThreeStage t(ctx, 1, 50000, 8);
  t.g.set_input_policy(t.gin, vg::InputPolicy::block, 1);
  t.g.verify();
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  ASSERT_EQ(t.g.enqueue(t.gin, 0), vg::Status::ok);  // admitted at once
  ASSERT_EQ(t.g.enqueue(t.gin, 1), vg::Status::ok);  // waits in the queue
  EXPECT_EQ(t.g.enqueue(t.gin, 2, 0, 5ms), vg::Status::timeout);  // queue full, frame 0 still running
  EXPECT_EQ(t.g.enqueue(t.gin, 3, 0, 2s), vg::Status::ok);        // room appears when frame 0 completes
  EXPECT_EQ(t.g.stop(), vg::Status::ok);
  EXPECT_EQ(t.g.stats().frames_dropped, 0u);
}

TEST_F(PipelineTest, StopWhileFramesAreInFlightDrainsOrAbandonsWithoutLosingBuffers) {
  for (auto mode : {vg::StopMode::drain, vg::StopMode::abandon}) {
    ThreeStage t(ctx, 3, 10000, 6);
    t.g.set_input_policy(t.gin, vg::InputPolicy::block, 3);
    t.g.verify();
    for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t.g.enqueue(t.gout, k), vg::Status::ok);
    ASSERT_EQ(t.g.start(), vg::Status::ok);
    for (std::uint32_t k = 0; k < 6; ++k) ASSERT_EQ(t.g.enqueue(t.gin, k), vg::Status::ok);
    std::this_thread::sleep_for(15ms);
    ASSERT_EQ(t.g.stop(mode), vg::Status::ok);
    EXPECT_EQ(t.g.stats().frames_in_flight, 0u);
    std::vector<vg::DequeuedBuffer> back;
    vg::DequeuedBuffer d;
    while (t.g.dequeue(t.gin, d, 1s) == vg::Status::ok) back.push_back(d);
    EXPECT_EQ(back.size(), 6u) << "every input buffer comes back";
    int outputs = 0;
    while (t.g.dequeue(t.gout, d, 1s) == vg::Status::ok) ++outputs;
    EXPECT_EQ(outputs, 4) << "every output buffer comes back";
    const auto s = t.g.stats();
    EXPECT_EQ(s.frames_completed + s.frames_aborted, 6u);
    if (mode == vg::StopMode::abandon) {
      EXPECT_GT(s.frames_aborted, 0u);
    }
    EXPECT_EQ(t.g.dequeue(t.gin, d, 1s), vg::Status::stopped);
  }
}

// source (cpu0) -> det (graph output) -> slow overlay (cpu1) -> ann (graph output). Detections are handed
// out when 'source' finishes, not when the frame completes; handed back at once, a detections buffer is
// not reused while the overlay of its frame still reads it.
TEST_F(PipelineTest, AnOutputIsDequeuedWhenItsWriterFinishesAndReusedOnlyAfterItsFrame) {
  vg::Graph g(ctx, "publish");
  auto det = g.add_data("det", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto ann = g.add_data("ann", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto source = g.add_node("source", "vg.test.recorder");
  g.bind(source, "out", det).set_target(source, "cpu0");
  auto overlay = g.add_node("overlay", "vg.test.recorder");
  g.bind(overlay, "in", det).bind(overlay, "out", ann).set_target(overlay, "cpu1");
  g.set_attribute(overlay, "sleep_us", 20000);
  auto gdet = g.add_graph_parameter(source, "out", 2);
  auto gann = g.add_graph_parameter(overlay, "out", 3);
  g.set_pipeline_depth(2);
  g.verify();
  for (std::uint32_t k = 0; k < 2; ++k) ASSERT_EQ(g.enqueue(gdet, k), vg::Status::ok);
  for (std::uint32_t k = 0; k < 3; ++k) ASSERT_EQ(g.enqueue(gann, k), vg::Status::ok);
  ASSERT_EQ(g.start(), vg::Status::ok);

  constexpr int kFrames = 8;
  std::vector<std::int64_t> det_at(kFrames, 0);
  std::thread detections([&] {
    for (int f = 0; f < kFrames; ++f) {
      vg::DequeuedBuffer d;
      ASSERT_EQ(g.dequeue(gdet, d, 5s), vg::Status::ok);
      det_at[f] = vg::now_ns();
      EXPECT_EQ(d.sequence, static_cast<std::uint64_t>(f));
      EXPECT_EQ(d.status, vg::Status::ok);
      EXPECT_EQ(g.scalar(det, d.index).get<double>(), static_cast<double>(f));
      ASSERT_EQ(g.enqueue(gdet, d.index), vg::Status::ok);  // at once: the overlay of frame f may still read it
    }
  });
  std::vector<double> annotated;
  for (int f = 0; f < kFrames; ++f) {
    vg::DequeuedBuffer a;
    ASSERT_EQ(g.dequeue(gann, a, 5s), vg::Status::ok);
    EXPECT_EQ(a.sequence, static_cast<std::uint64_t>(f));
    annotated.push_back(g.scalar(ann, a.index).get<double>());
    ASSERT_EQ(g.enqueue(gann, a.index), vg::Status::ok);
  }
  detections.join();
  ASSERT_EQ(g.stop(), vg::Status::ok);

  for (int f = 0; f < kFrames; ++f)
    EXPECT_EQ(annotated[f], f + 1.0) << "frame " << f << ": the overlay read another frame's detections";
  std::vector<std::int64_t> overlay_end(kFrames, 0);
  for (const auto& e : EventLog::instance().events())
    if (e.node == "overlay" && e.callback == "process" && e.frame < kFrames) overlay_end[e.frame] = e.end_ns;
  for (int f = 0; f < kFrames; ++f)
    EXPECT_LT(det_at[f], overlay_end[f]) << "frame " << f << "'s detections waited for its overlay";
}

TEST_F(PipelineTest, StopTwiceAndStopWithABlockedDequeueReturnPromptly) {
  ThreeStage t(ctx, 2, 0);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  std::atomic<int> result{-1};
  std::thread waiter([&] {
    vg::DequeuedBuffer d;
    result = static_cast<int>(t.g.dequeue(t.gout, d, 10s));
  });
  std::this_thread::sleep_for(20ms);
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  waiter.join();
  EXPECT_EQ(result.load(), static_cast<int>(vg::Status::stopped));
  EXPECT_EQ(t.g.stop(), vg::Status::ok);
  EXPECT_EQ(t.g.stop(vg::StopMode::abandon), vg::Status::ok);
  EXPECT_EQ(t.g.enqueue(t.gin, 0), vg::Status::stopped);
  ASSERT_EQ(t.g.start(), vg::Status::ok);  // and it can run again
  std::vector<double> values = {1, 2, 3};
  EXPECT_EQ(run_stream(t, values), (std::vector<double>{4, 5, 6}));
}

struct StopFromCallback {
  vg::Graph* graph = nullptr;
  std::atomic<int> stops{0};
  std::atomic<int> status{-1};
};

TEST_F(PipelineTest, StopFromACallbackDoesNotDeadlock) {
  vg::Graph g(ctx, "self-stop");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto h = g.add_node("hook", "vg.test.hook");
  g.bind(h, "in", in).bind(h, "out", out);
  auto gin = g.add_graph_parameter(h, "in", 4);
  g.set_input_policy(gin, vg::InputPolicy::block, 4);
  g.verify();
  StopFromCallback state;
  state.graph = &g;
  vg::test::set_hook(
      [](void* arg, std::uint64_t frame) {
        auto* s = static_cast<StopFromCallback*>(arg);
        if (frame == 1) {
          s->status = static_cast<int>(s->graph->stop());
          ++s->stops;
        }
      },
      &state);
  ASSERT_EQ(g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(g.enqueue(gin, k), vg::Status::ok);
  int back = 0;
  vg::DequeuedBuffer d;
  while (g.dequeue(gin, d, 2s) == vg::Status::ok) ++back;
  EXPECT_EQ(back, 4);
  EXPECT_EQ(state.stops.load(), 1);
  EXPECT_EQ(state.status.load(), static_cast<int>(vg::Status::ok));
  EXPECT_EQ(g.wait_idle(2s), vg::Status::ok);
}

TEST_F(PipelineTest, DestroyingARunningGraphStopsIt) {
  auto t = std::make_unique<ThreeStage>(ctx, 3, 5000, 6);
  t->g.verify();
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(t->g.enqueue(t->gout, k), vg::Status::ok);
  ASSERT_EQ(t->g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 3; ++k) ASSERT_EQ(t->g.enqueue(t->gin, k), vg::Status::ok);
  t.reset();  // must not hang or leak (ASan), all deletes ran (TearDown checks)
}

TEST(PipelineSleepTest, WorkersThatNeverSpinWakeForEveryCommand) {
  // spin_us = 0: every hand-off goes through the futex sleep/wake path (no lost wake-up may hang it).
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.spin_us = 0;
  vg::Context sleepy(config);
  sleepy.load_module(vg::test::make_test_module());
  ThreeStage t(sleepy, 3, 0);
  for (auto& s : t.stages) t.g.set_attribute(s, "record", false);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  std::vector<double> values(300);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(i);
  const auto out = run_stream(t, values);
  ASSERT_EQ(out.size(), values.size());
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], values[i] + 3.0);
  EXPECT_EQ(t.g.stop(), vg::Status::ok);
  vg::CommandReply reply;
  EXPECT_EQ(t.g.send_command(t.stages[1], vg::ControlCommand::make(vg::test::kCmdPing), 1s, &reply), vg::Status::ok);
}

TEST_F(PipelineTest, LatencyAndCountsAreReported) {
  ThreeStage t(ctx, 2, 1000);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  run_stream(t, std::vector<double>(30, 0.0));
  ASSERT_EQ(t.g.stop(), vg::Status::ok);
  const auto s = t.g.stats();
  EXPECT_EQ(s.frames_in, 30u);
  EXPECT_EQ(s.frames_completed, 30u);
  EXPECT_GT(s.latency_p50_ns, 3 * 1000 * 1000 - 1);  // three stages sleeping 1 ms each
  EXPECT_GE(s.latency_p99_ns, s.latency_p50_ns);
  EXPECT_EQ(s.pipeline_depth, 2u);
  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[1].target, "npu0");
  EXPECT_GE(s.nodes[1].p50_ns, 1000 * 1000);
  ASSERT_EQ(s.queues.size(), 2u);
  EXPECT_EQ(s.queues[0].name, "in");
  EXPECT_TRUE(s.queues[0].is_input);
  EXPECT_EQ(s.queues[0].capacity, 1u);
  EXPECT_EQ(s.queues[1].done, 4u);  // after stop every output buffer is back, waiting for dequeue
  EXPECT_NE(t.g.report_json().find("\"queues\""), std::string::npos);
}

}  // namespace
