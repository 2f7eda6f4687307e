// Deadlines: a process, control or create call that never returns is reported while it runs, given up on
// after its node's deadline (its target marked faulted, its frames failed with timeout), and nothing the
// application calls afterwards (process, stop, send_command, ~Graph, verify) waits for it. Other
// targets keep working. vg.test.hang blocks until the test releases it at the end.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "test_kernels.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::mutex g_log_mu;
std::vector<std::string> g_log;
void capture_log(std::string_view line) {
  std::lock_guard lock(g_log_mu);
  g_log.emplace_back(line);
}
std::string logged() {
  std::lock_guard lock(g_log_mu);
  std::string all;
  for (const auto& l : g_log) all += l + "\n";
  return all;
}

class DeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    {
      std::lock_guard lock(g_log_mu);
      g_log.clear();
    }
    vg::ContextConfig config = vg::ContextConfig::defaults();
    config.log = &capture_log;
    ctx = std::make_unique<vg::Context>(config);
    ctx->load_module(vg::test::make_test_module());
  }
  void TearDown() override {
    vg::test::release_hangs();  // the abandoned threads return and exit
    ctx.reset();
  }
  double ms_since(Clock::time_point t0) const {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  std::unique_ptr<vg::Context> ctx;
};

TEST_F(DeadlineTest, AProcessPastItsDeadlineIsGivenUpOnAndOtherTargetsKeepWorking) {
  auto stuck = std::make_unique<vg::Graph>(*ctx, "stuck");
  auto hang = stuck->add_node("hang", "vg.test.hang");
  stuck->bind(hang, "out", stuck->add_virtual("v", vg::DataKind::scalar)).set_target(hang, "cpu1");
  stuck->set_attribute(hang, "hang_frame", 1).set_deadline(hang, 50ms);
  stuck->verify();

  vg::Graph healthy(*ctx, "healthy");
  auto rec = healthy.add_node("rec", "vg.test.recorder");
  healthy.bind(rec, "out", healthy.add_virtual("x", vg::DataKind::scalar)).set_target(rec, "cpu0");
  healthy.verify();

  EXPECT_EQ(stuck->process(), vg::Status::ok);
  auto t0 = Clock::now();
  EXPECT_EQ(stuck->process(5s), vg::Status::timeout);
  EXPECT_LT(ms_since(t0), 1000) << "given up on after the 50 ms deadline, not after the 5 s wait";
  EXPECT_EQ(vg::test::hanging(), 1) << "the call itself still runs";

  const auto err = stuck->last_error();
  EXPECT_EQ(err.node, "hang");
  EXPECT_EQ(err.status, vg::Status::timeout);
  EXPECT_EQ(err.frame, 1u);
  const auto node = stuck->stats().nodes.at(0);
  EXPECT_TRUE(node.stuck);
  EXPECT_EQ(node.deadline_misses, 1u);
  EXPECT_EQ(node.deadline_ns, 50'000'000);
  EXPECT_GE(node.running_ns, 50'000'000);
  const std::string log = logged();
  for (const char* part : {"node 'hang'", "kernel 'vg.test.hang'", "on cpu1", "frame 1", "50.0 ms deadline", "faulted"})
    EXPECT_NE(log.find(part), std::string::npos) << part << " missing from: " << log;
  EXPECT_NE(stuck->report_text().find("STUCK"), std::string::npos) << stuck->report_text();

  t0 = Clock::now();
  EXPECT_EQ(stuck->process(5s), vg::Status::timeout) << "the target is faulted: its frames fail at once";
  EXPECT_LT(ms_since(t0), 500);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(healthy.process(1s), vg::Status::ok) << "cpu0 is not affected";

  t0 = Clock::now();
  stuck.reset();  // release + destroy: must not wait for the hung call
  EXPECT_LT(ms_since(t0), 1000);
  EXPECT_EQ(healthy.process(1s), vg::Status::ok);
}

TEST_F(DeadlineTest, AStuckReplicaFailsOnlyItsOwnFramesAndTheOtherReplicaGoesOn) {
  auto g = std::make_unique<vg::Graph>(*ctx, "replicated");
  auto hang = g->add_node("hang", "vg.test.hang");
  auto v = g->add_virtual("v", vg::DataKind::scalar);
  g->bind(hang, "out", v).set_targets(hang, {"cpu0", "cpu1"});
  g->set_attribute(hang, "hang_frame", 1).set_deadline(hang, 50ms);  // frame 1 is replica 1's (cpu1)
  g->verify();
  EXPECT_EQ(g->process(5s), vg::Status::ok);
  auto t0 = Clock::now();
  EXPECT_EQ(g->process(5s), vg::Status::timeout);
  EXPECT_LT(ms_since(t0), 1000);
  const auto err = g->last_error();
  EXPECT_EQ(err.node, "hang");
  EXPECT_EQ(err.target, "cpu1");
  EXPECT_EQ(err.frame, 1u);
  for (std::uint64_t frame = 2; frame < 8; ++frame) {
    const vg::Status s = g->process(5s);
    if (frame % 2 == 0) {
      EXPECT_EQ(s, vg::Status::ok) << "frame " << frame << " is replica 0's, on a healthy target";
      EXPECT_DOUBLE_EQ(g->scalar(v).get<double>(), double(frame));
    } else {
      EXPECT_EQ(s, vg::Status::timeout) << "frame " << frame << " is the faulted replica's";
    }
  }
  bool replica_stuck = false, whole_stuck = false;
  for (const auto& n : g->stats().nodes) {
    if (n.name == "hang[cpu1]") replica_stuck = n.stuck;
    if (n.name == "hang") whole_stuck = n.stuck;
  }
  EXPECT_TRUE(replica_stuck);
  EXPECT_TRUE(whole_stuck);
  t0 = Clock::now();
  g.reset();  // release + destroy: bounded although replica 1's call never returned
  EXPECT_LT(ms_since(t0), 1000);
}

TEST_F(DeadlineTest, StopWhileStreamingReturnsPromptlyAndEveryBufferComesBack) {
  vg::Graph g(*ctx, "stream");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto first = g.add_node("first", "vg.test.recorder");
  auto mid = g.add_virtual("mid", vg::DataKind::scalar);
  g.bind(first, "in", in).bind(first, "out", mid).set_target(first, "cpu0");
  auto hang = g.add_node("hang", "vg.test.hang");
  g.bind(hang, "out", g.add_virtual("v", vg::DataKind::scalar)).set_target(hang, "cpu1");
  g.set_attribute(hang, "hang_frame", 2).set_deadline(hang, 40ms);
  auto gin = g.add_graph_parameter(first, "in", 6);
  g.set_input_policy(gin, vg::InputPolicy::block, 6);
  g.verify();
  ASSERT_EQ(g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 6; ++k) ASSERT_EQ(g.enqueue(gin, k), vg::Status::ok);
  std::vector<vg::Status> statuses;
  vg::DequeuedBuffer d;
  while (statuses.size() < 6 && g.dequeue(gin, d, 3s) == vg::Status::ok) statuses.push_back(d.status);
  ASSERT_EQ(statuses.size(), 6u) << "every frame ends, also the ones after the stuck call";
  EXPECT_EQ(statuses[0], vg::Status::ok);
  EXPECT_EQ(statuses[1], vg::Status::ok);
  for (std::size_t i = 2; i < 6; ++i) EXPECT_NE(statuses[i], vg::Status::ok) << "frame " << i;
  const auto t0 = Clock::now();
  EXPECT_EQ(g.stop(), vg::Status::ok);
  EXPECT_LT(ms_since(t0), 500);
  const auto s = g.stats();
  EXPECT_EQ(s.frames_completed, 2u);
  EXPECT_EQ(s.frames_failed, 4u);
  EXPECT_EQ(s.frames_in_flight, 0u);
}

TEST_F(DeadlineTest, AControlCommandPastTheDeadlineIsAnsweredWithTimeout) {
  vg::Graph g(*ctx, "control");
  auto hang = g.add_node("hang", "vg.test.hang");
  g.bind(hang, "out", g.add_virtual("v", vg::DataKind::scalar)).set_target(hang, "cpu1");
  g.set_attribute(hang, "hang_in", std::string("control")).set_deadline(hang, 50ms);
  g.verify();
  EXPECT_EQ(g.process(), vg::Status::ok);
  const auto t0 = Clock::now();
  EXPECT_EQ(g.send_command(hang, vg::ControlCommand::make(vg::test::kCmdPing), 10s), vg::Status::timeout);
  EXPECT_LT(ms_since(t0), 1000) << "answered by the watchdog, not by the caller's 10 s timeout";
  EXPECT_NE(logged().find("a control command"), std::string::npos) << logged();
  EXPECT_EQ(g.send_command(hang, vg::ControlCommand::make(vg::test::kCmdPing), 1s), vg::Status::timeout)
      << "no callback runs on a faulted target";
  EXPECT_EQ(g.process(1s), vg::Status::timeout);
}

TEST_F(DeadlineTest, VerifyGivesUpOnACreateThatNeverReturns) {
  auto g = std::make_unique<vg::Graph>(*ctx, "create");
  auto ok = g->add_node("ok", "vg.test.recorder");
  g->bind(ok, "out", g->add_virtual("a", vg::DataKind::scalar)).set_target(ok, "cpu0");
  auto hang = g->add_node("hang", "vg.test.hang");
  g->bind(hang, "out", g->add_virtual("v", vg::DataKind::scalar)).set_target(hang, "cpu1");
  g->set_attribute(hang, "hang_in", std::string("create")).set_deadline(hang, 0ms, 100ms);
  const auto t0 = Clock::now();
  try {
    g->verify();
    FAIL() << "verify should give up";
  } catch (const vg::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("node 'hang'"), std::string::npos) << what;
    EXPECT_NE(what.find("100 ms create deadline"), std::string::npos) << what;
  }
  EXPECT_LT(ms_since(t0), 1000);
  EXPECT_FALSE(g->is_verified());
  EXPECT_EQ(vg::test::live_recorders(), 0) << "the node created before it was deleted again";
  g.reset();
}

TEST_F(DeadlineTest, TheKernelsDefaultRunDeadlineAppliesUnlessTheNodeOverridesIt) {
  auto g = std::make_unique<vg::Graph>(*ctx, "defaults");
  auto hang = g->add_node("hang", "vg.test.hang_with_deadline");
  g->bind(hang, "out", g->add_virtual("v", vg::DataKind::scalar)).set_target(hang, "cpu1");
  g->set_attribute(hang, "hang_frame", 1);
  auto calm = g->add_node("calm", "vg.test.hang_with_deadline");
  g->bind(calm, "out", g->add_virtual("w", vg::DataKind::scalar)).set_target(calm, "cpu0");
  g->set_deadline(calm, 0ms);  // none for this node, whatever its kernel says
  g->verify();
  const auto before = g->stats();
  EXPECT_EQ(before.nodes.at(0).deadline_ns, 50'000'000) << "the kernel's default";
  EXPECT_EQ(before.nodes.at(1).deadline_ns, 0) << "overridden per node";

  EXPECT_EQ(g->process(), vg::Status::ok);
  const auto t0 = Clock::now();
  EXPECT_EQ(g->process(5s), vg::Status::timeout);
  EXPECT_LT(ms_since(t0), 1000) << "given up on after the kernel's 50 ms, with no set_deadline";
  EXPECT_EQ(g->last_error().node, "hang");
  const auto t1 = Clock::now();
  g.reset();
  EXPECT_LT(ms_since(t1), 1000) << "~Graph does not wait for the stuck call";
}

TEST_F(DeadlineTest, TheKernelsDefaultCreateDeadlineApplies) {
  vg::Graph creating(*ctx, "create_default");
  auto c = creating.add_node("hang", "vg.test.hang_with_deadline");
  creating.bind(c, "out", creating.add_virtual("v", vg::DataKind::scalar)).set_target(c, "cpu1");
  creating.set_attribute(c, "hang_in", std::string("create"));
  try {
    creating.verify();
    FAIL() << "verify should give up on the create after the kernel's 100 ms";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("100 ms create deadline"), std::string::npos) << e.what();
  }
}

TEST_F(DeadlineTest, ACallThatReturnsInTimeIsNotAFault) {
  vg::Graph g(*ctx, "fine");
  auto rec = g.add_node("rec", "vg.test.recorder");
  g.bind(rec, "out", g.add_virtual("x", vg::DataKind::scalar)).set_target(rec, "cpu1");
  g.set_attribute(rec, "sleep_us", 2000).set_deadline(rec, 500ms);
  g.verify();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(g.process(1s), vg::Status::ok);
  const auto node = g.stats().nodes.at(0);
  EXPECT_FALSE(node.stuck);
  EXPECT_EQ(node.deadline_misses, 0u);
  EXPECT_EQ(logged(), "");
}

}  // namespace
