// After verify, process(), submit()/wait_submitted(), send_command() and streaming enqueue/dequeue make zero
// heap allocations.

#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "test_kernels.hpp"
#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

class ZeroAllocTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx.load_module(vg::examples::make_module()); }
  vg::Context ctx;
};

// counter(cpu0) -> scale(cpu1) -> add(cpu0, with the counter again) -> scale(cpu1): hops between two targets.
struct Chain {
  explicit Chain(vg::Context& ctx) : g(ctx, "chain") {
    auto c = g.add_virtual("c", vg::DataKind::scalar), s1 = g.add_virtual("s1", vg::DataKind::scalar);
    sum = g.add_virtual("sum", vg::DataKind::scalar);
    out = g.add_virtual("out", vg::DataKind::scalar);
    g.bind(g.add_node("count", "vg.example.counter"), "out", c);
    auto a = g.add_node("double", "vg.example.scale");
    g.bind(a, "in", c).bind(a, "out", s1).set_attribute(a, "factor", 2.0).set_target(a, "cpu1");
    add = g.add_node("add", "vg.example.add");
    g.bind(add, "a", s1).bind(add, "b", c).bind(add, "sum", sum).set_target(add, "cpu0");
    auto b = g.add_node("triple", "vg.example.scale");
    g.bind(b, "in", sum).bind(b, "out", out).set_attribute(b, "factor", 3.0).set_target(b, "cpu1");
  }
  vg::Graph g;
  vg::DataId sum, out;
  vg::NodeId add;
};

/// Streams frames through a started graph: input values 0, 1, 2, ... on graph parameter @p gin (data
/// @p in), every output on @p gout (data @p out) checked, in frame order, against expected(k) for the k-th
/// frame, and after_output(received) called after each one (commands). Fixed arrays only: it allocates
/// nothing itself. Returns the number of problems.
struct Streamer {
  Streamer(vg::Graph& graph, vg::GraphParamId gin, vg::GraphParamId gout, vg::DataId in, vg::DataId out)
      : g(graph), gin(gin), gout(gout), in(in), out(out) {
    const auto outs = static_cast<std::uint32_t>(g.num_buffers(out));
    for (std::uint32_t k = 0; k < outs; ++k) EXPECT_EQ(g.enqueue(gout, k), vg::Status::ok);
    for (std::uint32_t k = 0; k < g.num_buffers(in) && k < 64; ++k) free_in[free_count++] = k;
  }
  template <class Expected, class AfterOutput>
  int run(int frames, Expected expected, AfterOutput after_output) {
    int bad = 0, sent = 0, received = 0;
    while (received < frames) {
      while (sent < frames && free_count > 0) {
        const std::uint32_t k = free_in[--free_count];
        g.scalar(in, k).set(next_value++);
        if (g.enqueue(gin, k) != vg::Status::ok) ++bad;
        ++sent;
      }
      vg::DequeuedBuffer done;
      if (g.dequeue(gout, done, 2s) != vg::Status::ok || done.status != vg::Status::ok) {
        ++bad;
        break;
      }
      if (g.scalar(out, done.index).get<double>() != expected(next_expected++)) ++bad;
      last_sequence = done.sequence;
      if (g.enqueue(gout, done.index) != vg::Status::ok) ++bad;
      vg::DequeuedBuffer used;
      if (g.dequeue(gin, used, 2s) != vg::Status::ok) ++bad;
      free_in[free_count++] = used.index;
      ++received;
      bad += after_output(received);
    }
    return bad;
  }
  vg::Graph& g;
  vg::GraphParamId gin, gout;
  vg::DataId in, out;
  std::uint32_t free_in[64] = {};
  std::uint32_t free_count = 0;
  double next_value = 0, next_expected = 0;
  std::uint64_t last_sequence = 0;  // of the newest output
};

/// Runs @p frames under the allocation counter and expects no allocation at all.
template <class Run>
void expect_no_allocation(Run run) {
  vg::test::arm_alloc_counter();
  const int bad = run();
  const auto counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(counts.news, 0u);
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u);
  }
}

TEST_F(ZeroAllocTest, ProcessAndSendCommandAllocateNothingOver1000Frames) {
  Chain chain(ctx);
  chain.g.verify();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(chain.g.process(), vg::Status::ok);  // warm up
  vg::CommandReply reply;
  vg::test::arm_alloc_counter();
  int failures = 0;
  for (int i = 0; i < 1000; ++i) {
    if (chain.g.process() != vg::Status::ok) ++failures;
    if (i % 10 == 0 &&
        chain.g.send_command(chain.add, vg::ControlCommand::make(vg::examples::kSetBias, double(i)), 1s, &reply) != vg::Status::ok)
      ++failures;
  }
  const auto counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(counts.news, 0u);
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u);
  }
  // frame 1019 (20 warm-up frames): count=1019, (2*1019 + 1019 + bias 990) * 3
  EXPECT_DOUBLE_EQ(chain.g.scalar(chain.out).get<double>(), (3 * 1019 + 990) * 3.0);
}

TEST_F(ZeroAllocTest, SubmitAndWaitAllocateNothingOver1000Frames) {
  Chain chain(ctx);
  chain.g.verify();
  for (int i = 0; i < 20; ++i) {  // warm up
    ASSERT_EQ(chain.g.submit(), vg::Status::ok);
    ASSERT_EQ(chain.g.wait_submitted(), vg::Status::ok);
  }
  vg::test::arm_alloc_counter();
  int failures = 0;
  for (int i = 0; i < 1000; ++i) {
    if (chain.g.submit() != vg::Status::ok) ++failures;
    if (chain.g.wait_submitted() != vg::Status::ok) ++failures;
  }
  const auto counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(counts.news, 0u);
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u);
  }
}

TEST_F(ZeroAllocTest, StreamingEnqueueDequeueWithCommandsAllocatesNothing) {
  vg::Graph g(ctx, "stream");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto mid = g.add_virtual("mid", vg::DataKind::scalar);
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto a = g.add_node("a", "vg.example.scale");
  g.bind(a, "in", in).bind(a, "out", mid).set_attribute(a, "factor", 2.0);
  auto b = g.add_node("b", "vg.example.add");
  g.bind(b, "a", mid).bind(b, "b", mid).bind(b, "sum", out).set_target(b, "cpu1");
  auto gin = g.add_graph_parameter(a, "in", 4);
  auto gout = g.add_graph_parameter(b, "sum", 4);
  g.set_input_policy(gin, vg::InputPolicy::block, 2);
  g.set_pipeline_depth(3);
  g.verify();
  ASSERT_EQ(g.start(), vg::Status::ok);
  Streamer stream(g, gin, gout, in, out);
  // frames complete in order: the k-th output belongs to the k-th input (out = 2x + 2x + bias 0)
  auto expected = [](double k) { return 4.0 * k; };
  ASSERT_EQ(stream.run(20, expected, [](int) { return 0; }), 0);  // warm up
  vg::FrameSample sample;  // each frame's stages too (what `visiongraph run --stage-times` takes per frame)
  expect_no_allocation([&] {
    return stream.run(1000, expected, [&](int received) {
      const bool sampled = g.frame_sample(stream.last_sequence, sample) == vg::Status::ok && sample.count == 2;
      return static_cast<int>(!sampled) +
             static_cast<int>(received % 10 == 0 &&
                              g.send_command(b, vg::ControlCommand::make(vg::examples::kSetBias, 0.0), 1s) != vg::Status::ok);
    });
  });
  EXPECT_EQ(g.stop(), vg::Status::ok);
  EXPECT_EQ(g.stats().frames_completed, 1020u);
}

// An output dequeued as soon as its writer finishes (before the slow reader of the same frame), handed
// back at once and reused only after its frame: the early-publishing path allocates nothing either.
TEST_F(ZeroAllocTest, AnOutputLeavingBeforeItsFrameCompletesAllocatesNothing) {
  vg::Graph g(ctx, "early");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto early = g.add_data("early", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto late = g.add_data("late", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto a = g.add_node("a", "vg.example.scale");
  g.bind(a, "in", in).bind(a, "out", early).set_attribute(a, "factor", 2.0).set_target(a, "cpu0");
  auto slow = g.add_node("slow", "vg.example.wait");
  g.bind(slow, "in", early).bind(slow, "out", late).set_attribute(slow, "micros", 300).set_target(slow, "cpu1");
  auto gin = g.add_graph_parameter(a, "in", 4);
  auto gearly = g.add_graph_parameter(a, "out", 3);
  auto glate = g.add_graph_parameter(slow, "out", 3);
  g.set_input_policy(gin, vg::InputPolicy::block, 2);
  g.set_pipeline_depth(2);
  g.verify();
  for (std::uint32_t k = 0; k < 3; ++k) ASSERT_EQ(g.enqueue(glate, k), vg::Status::ok);
  ASSERT_EQ(g.start(), vg::Status::ok);
  Streamer stream(g, gin, gearly, in, early);
  double next_late = 0;
  auto expected = [](double k) { return 2.0 * k; };
  auto late_output = [&](int) {  // the slow reader's output of the same frame, after the early one
    vg::DequeuedBuffer d;
    if (g.dequeue(glate, d, 2s) != vg::Status::ok || d.status != vg::Status::ok) return 1;
    const int wrong = g.scalar(late, d.index).get<double>() != 2.0 * next_late++ ? 1 : 0;
    return wrong + (g.enqueue(glate, d.index) != vg::Status::ok ? 1 : 0);
  };
  ASSERT_EQ(stream.run(20, expected, late_output), 0);  // warm up
  expect_no_allocation([&] { return stream.run(300, expected, late_output); });
  EXPECT_EQ(g.stop(), vg::Status::ok);
  EXPECT_EQ(g.stats().frames_completed, 320u);
}

// A node replicated over three targets, graph parameters sized by verify (kAutoBuffers), commands to
// every replica and to one: still nothing allocated per frame.
TEST(ZeroAllocReplicas, AReplicatedNodeStreamingWithCommandsAllocatesNothing) {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"cpu2", "cpu", -1, 256}};
  vg::Context ctx(config);
  ctx.load_module(vg::examples::make_module());
  vg::Graph g(ctx, "replicas");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto mid = g.add_virtual("mid", vg::DataKind::scalar);
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto a = g.add_node("a", "vg.example.scale");
  g.bind(a, "in", in).bind(a, "out", mid).set_attribute(a, "factor", 2.0).set_targets(a, {"cpu0", "cpu1", "cpu2"});
  auto b = g.add_node("b", "vg.example.add");
  g.bind(b, "a", mid).bind(b, "b", mid).bind(b, "sum", out).set_targets(b, {"cpu1", "cpu2"});
  auto gin = g.add_graph_parameter(a, "in");
  auto gout = g.add_graph_parameter(b, "sum");
  g.verify();
  ASSERT_GE(g.num_buffers(out), 4u);
  ASSERT_EQ(g.start(), vg::Status::ok);
  Streamer stream(g, gin, gout, in, out);
  auto expected = [](double k) { return 4.0 * k; };  // in frame order
  vg::CommandReply reply;
  auto commands = [&](int received) {
    if (received % 10 == 0) return g.send_command(b, vg::ControlCommand::make(vg::examples::kSetBias, 0.0), 1s, &reply) != vg::Status::ok;
    if (received % 10 == 5) return g.send_command(b, vg::ControlCommand::make(vg::examples::kSetBias, 0.0), 1s, &reply, 1) != vg::Status::ok;
    return false;
  };
  ASSERT_EQ(stream.run(20, expected, commands), 0);  // warm up
  expect_no_allocation([&] { return stream.run(1000, expected, commands); });
  EXPECT_EQ(g.stop(), vg::Status::ok);
  EXPECT_EQ(g.stats().frames_completed, 1020u);
}

// Asynchronous kernels: process returns pending, complete runs when the fence signals (the fence thread)
// or queued behind the target's work; three replicas on one target. Nothing allocated per frame.
TEST(ZeroAllocAsync, AsynchronousReplicasOnOneTargetAllocateNothing) {
  for (bool fence : {true, false}) {
    SCOPED_TRACE(fence ? "with a fence" : "without a fence");
    vg::ContextConfig config = vg::ContextConfig::defaults();
    config.targets = {{"cpu0", "cpu", -1, 256}, {"npu0", "npu", -1, 256}};
    vg::Context ctx(config);
    ctx.load_module(vg::test::make_test_module());
    vg::Graph g(ctx, "async");
    auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
    auto out = g.add_virtual("out", vg::DataKind::scalar);
    auto det = g.add_node("det", "vg.test.async");
    g.bind(det, "in", in).bind(det, "out", out).set_targets(det, {"npu0", "npu0", "npu0"});
    g.set_attribute(det, "latency_us", std::int64_t{100}).set_attribute(det, "fence", fence);
    auto gin = g.add_graph_parameter(det, "in");
    auto gout = g.add_graph_parameter(det, "out");
    g.verify();
    ASSERT_EQ(g.start(), vg::Status::ok);
    Streamer stream(g, gin, gout, in, out);
    auto expected = [](double k) { return k + 1.0; };  // in frame order
    ASSERT_EQ(stream.run(20, expected, [](int) { return 0; }), 0);  // warm up
    expect_no_allocation([&] { return stream.run(300, expected, [](int) { return 0; }); });
    EXPECT_EQ(g.stop(), vg::Status::ok);
  }
}

}  // namespace
