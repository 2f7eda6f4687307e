// Replicated nodes (Graph::set_targets): one instance per target, frames dealt out in turn, results in
// frame order, commands to every replica or one, telemetry per replica.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "test_kernels.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::test::EventLog;

vg::ContextConfig five_targets() {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

class ReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EventLog::instance().clear();
    ctx.load_module(vg::test::make_test_module());
  }
  void TearDown() override {
    vg::test::set_hook(nullptr, nullptr);
    EXPECT_EQ(vg::test::live_recorders(), 0);
  }
  vg::Context ctx{five_targets()};
};

/// in -> pre (cpu0) -> det (replicated) -> post (cpu1) -> out; recorders add 1 each, so out = in + 3.
struct Replicated {
  Replicated(vg::Context& ctx, std::vector<std::string> targets, const std::string& det_kernel = "vg.test.recorder",
             std::size_t buffers = 8)
      : g(ctx, "replicated") {
    in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
    auto a = g.add_virtual("a", vg::DataKind::scalar), b = g.add_virtual("b", vg::DataKind::scalar);
    out = g.add_virtual("out", vg::DataKind::scalar);
    pre = g.add_node("pre", "vg.test.recorder");
    g.bind(pre, "in", in).bind(pre, "out", a).set_target(pre, "cpu0");
    det = g.add_node("det", det_kernel);
    g.bind(det, "in", a).bind(det, "out", b).set_targets(det, std::move(targets));
    post = g.add_node("post", "vg.test.recorder");
    g.bind(post, "in", b).bind(post, "out", out).set_target(post, "cpu1");
    gin = g.add_graph_parameter(pre, "in", buffers);
    gout = g.add_graph_parameter(post, "out", buffers);
  }
  vg::Graph g;
  vg::DataId in, out;
  vg::NodeId pre, det, post;
  vg::GraphParamId gin, gout;
};

struct Result {
  std::uint64_t sequence;
  vg::Status status;
  double value;
};

/// Streams values[i] through a started graph; returns what was dequeued, in dequeue order.
std::vector<Result> stream(vg::Graph& g, vg::GraphParamId gin, vg::GraphParamId gout, vg::DataId in, vg::DataId out,
                           const std::vector<double>& values) {
  std::vector<Result> results;
  const auto buffers = static_cast<std::uint32_t>(g.num_buffers(in));
  for (std::uint32_t k = 0; k < buffers; ++k) EXPECT_EQ(g.enqueue(gout, k), vg::Status::ok);
  std::vector<std::uint32_t> free_in;
  for (std::uint32_t k = 0; k < buffers; ++k) free_in.push_back(k);
  std::size_t sent = 0;
  while (results.size() < values.size()) {
    while (sent < values.size() && !free_in.empty() && sent - results.size() < buffers) {
      const auto k = free_in.back();
      free_in.pop_back();
      g.scalar(in, k).set(values[sent++]);
      EXPECT_EQ(g.enqueue(gin, k), vg::Status::ok);
    }
    vg::DequeuedBuffer done;
    if (g.dequeue(gout, done, 10s) != vg::Status::ok) {
      ADD_FAILURE() << "dequeue timed out after " << results.size() << " results";
      break;
    }
    results.push_back({done.sequence, done.status, g.scalar(out, done.index).get<double>()});
    EXPECT_EQ(g.enqueue(gout, done.index), vg::Status::ok);
    vg::DequeuedBuffer used;
    EXPECT_EQ(g.dequeue(gin, used, 10s), vg::Status::ok);
    free_in.push_back(used.index);
  }
  return results;
}

// Random per-frame latencies (fixed seed) in the hook kernel, replicated over three targets.
std::vector<int> g_sleep_us;
void sleep_for_frame(void*, std::uint64_t frame) {
  std::this_thread::sleep_for(std::chrono::microseconds(g_sleep_us[frame % g_sleep_us.size()]));
}

TEST_F(ReplicaTest, OrderPreservedUnderRandomPerFrameLatencies) {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> us(0, 3000);
  g_sleep_us.clear();
  for (int i = 0; i < 97; ++i) g_sleep_us.push_back(us(rng));
  vg::test::set_hook(&sleep_for_frame, nullptr);
  vg::ContextConfig config = five_targets();
  config.targets.push_back({"cpu2", "cpu", -1, 256});
  vg::Context cpus(config);
  cpus.load_module(vg::test::make_test_module());
  Replicated r(cpus, {"cpu0", "cpu1", "cpu2"}, "vg.test.hook");  // hook: out = in, after the sleep
  r.g.verify();
  EXPECT_EQ(r.g.num_replicas(r.det), 3u);
  EXPECT_EQ(r.g.node_targets(r.det), (std::vector<std::string>{"cpu0", "cpu1", "cpu2"}));
  ASSERT_EQ(r.g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 120; ++i) values.push_back(1000.0 + i * 7);
  const auto results = stream(r.g, r.gin, r.gout, r.in, r.out, values);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_EQ(results[i].status, vg::Status::ok);
    EXPECT_DOUBLE_EQ(results[i].value, values[i] + 2.0) << "frame " << i;  // pre +1, hook +0, post +1
  }
  EXPECT_EQ(r.g.stop(), vg::Status::ok);
}

TEST_F(ReplicaTest, AReplicatedWriterOfAGraphOutputHandsItOverInFrameOrder) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> us(0, 2000);
  g_sleep_us.clear();
  for (int i = 0; i < 31; ++i) g_sleep_us.push_back(us(rng));
  vg::test::set_hook(&sleep_for_frame, nullptr);
  vg::ContextConfig config = five_targets();
  config.targets.push_back({"cpu2", "cpu", -1, 256});
  vg::Context cpus(config);
  cpus.load_module(vg::test::make_test_module());
  vg::Graph g(cpus, "writer");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto det = g.add_node("det", "vg.test.hook");
  g.bind(det, "in", in).bind(det, "out", out).set_targets(det, {"cpu0", "cpu1", "cpu2"});
  auto gin = g.add_graph_parameter(det, "in", 6);
  auto gout = g.add_graph_parameter(det, "out", 6);
  g.verify();
  EXPECT_EQ(g.pipeline_depth(), 3u);
  ASSERT_EQ(g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 90; ++i) values.push_back(i * 3.0);
  const auto results = stream(g, gin, gout, in, out, values);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_DOUBLE_EQ(results[i].value, values[i]);
  }
  EXPECT_EQ(g.stop(), vg::Status::ok);
}

TEST_F(ReplicaTest, EachReplicaIsCreatedAndDeletedOnceOnItsOwnTargetAndRunsItsFrames) {
  {
    Replicated r(ctx, {"npu0", "npu1", "npu2"});
    r.g.verify();
    // default depth: one per target used (cpu0, npu0, cpu1) plus one per extra replica
    EXPECT_EQ(r.g.pipeline_depth(), 3u + 2u);
    for (int i = 0; i < 12; ++i) {
      r.g.scalar(r.in, 0).set(double(i));
      ASSERT_EQ(r.g.process(), vg::Status::ok);
      EXPECT_DOUBLE_EQ(r.g.scalar(r.out).get<double>(), i + 3.0);
    }
  }
  std::vector<vg::test::Event> creates, deletes;
  std::map<std::uint64_t, std::thread::id> process_thread;
  for (const auto& e : EventLog::instance().events()) {
    if (e.node != "det") continue;
    if (e.callback == "create") creates.push_back(e);
    if (e.callback == "delete") deletes.push_back(e);
    if (e.callback == "process") process_thread[e.frame] = e.thread;
  }
  ASSERT_EQ(creates.size(), 3u);
  ASSERT_EQ(deletes.size(), 3u);
  std::set<std::thread::id> threads;
  for (const auto& c : creates) threads.insert(c.thread);
  EXPECT_EQ(threads.size(), 3u) << "each replica is created on its own target's thread";
  for (const auto& d : deletes) EXPECT_EQ(threads.count(d.thread), 1u);
  ASSERT_EQ(process_thread.size(), 12u);
  // creates run in replica order: replica r runs frames f with f % 3 == r, on its create's thread
  for (const auto& [frame, thread] : process_thread) EXPECT_EQ(thread, creates[frame % 3].thread) << "frame " << frame;
}

TEST_F(ReplicaTest, DefaultDepthCountsReplicasAndAnExplicitDepthWins) {
  Replicated r(ctx, {"cpu0", "cpu1"});  // pre cpu0, det cpu0+cpu1, post cpu1: 2 targets + 1 extra replica
  r.g.verify();
  EXPECT_EQ(r.g.pipeline_depth(), 3u);
  r.g.release();
  r.g.set_pipeline_depth(2);
  r.g.verify();
  EXPECT_EQ(r.g.pipeline_depth(), 2u);
  r.g.scalar(r.in, 0).set(5.0);
  ASSERT_EQ(r.g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(r.g.scalar(r.out).get<double>(), 8.0);
}

TEST_F(ReplicaTest, BadTargetListsAreErrorsNamingTheNode) {
  Replicated r(ctx, {"npu0", "npu1"});
  try {
    r.g.set_targets(r.det, {});
    FAIL() << "an empty target list must be refused";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'det'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(r.g.set_targets(r.det, std::vector<std::string>(65, "npu0")), vg::Error);
  r.g.set_targets(r.det, {"npu0", "npu7"});
  try {
    r.g.verify();
    FAIL() << "an unknown target must be refused";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'npu7'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'det'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(r.g.is_verified());
  EXPECT_EQ(r.g.num_nodes(), 3u);
}

TEST_F(ReplicaTest, AReplicaFailingAFrameFailsOnlyThatFrame) {
  Replicated r(ctx, {"npu0", "npu1", "npu2"});
  r.g.set_attribute(r.det, "fail_in", std::string("process")).set_attribute(r.det, "fail_frame", std::int64_t{4});
  r.g.verify();
  ASSERT_EQ(r.g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 12; ++i) values.push_back(10.0 * i);
  const auto results = stream(r.g, r.gin, r.gout, r.in, r.out, values);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    if (i == 4) {
      EXPECT_EQ(results[i].status, vg::Status::kernel_error);
    } else {
      EXPECT_EQ(results[i].status, vg::Status::ok) << "frame " << i;
      EXPECT_DOUBLE_EQ(results[i].value, values[i] + 3.0);
    }
  }
  EXPECT_EQ(r.g.stop(), vg::Status::ok);
  const auto stats = r.g.stats();
  EXPECT_EQ(stats.frames_failed, 1u);
  EXPECT_EQ(stats.frames_completed, 11u);
  const auto error = r.g.last_error();
  EXPECT_EQ(error.node, "det");
  EXPECT_EQ(error.target, "npu1");  // frame 4 belongs to replica 4 % 3 = 1
  EXPECT_EQ(error.frame, 4u);
}

TEST_F(ReplicaTest, CommandsGoToEveryReplicaOrToOne) {
  Replicated r(ctx, {"npu0", "npu1", "npu2"});
  r.g.verify();
  ASSERT_EQ(r.g.process(), vg::Status::ok);
  std::vector<std::thread::id> create_threads;
  for (const auto& e : EventLog::instance().events())
    if (e.node == "det" && e.callback == "create") create_threads.push_back(e.thread);
  ASSERT_EQ(create_threads.size(), 3u);
  auto controls = [] {
    std::vector<std::thread::id> out;
    for (const auto& e : EventLog::instance().events())
      if (e.node == "det" && e.callback == "control") out.push_back(e.thread);
    return out;
  };
  vg::CommandReply reply;
  reply.replica = 99;
  ASSERT_EQ(r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply), vg::Status::ok);
  EXPECT_EQ(reply.replica, 0u);
  auto seen = controls();
  ASSERT_EQ(seen.size(), 3u) << "every replica runs the command";
  EXPECT_EQ(std::set<std::thread::id>(seen.begin(), seen.end()),
            std::set<std::thread::id>(create_threads.begin(), create_threads.end()));

  ASSERT_EQ(r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply, 2), vg::Status::ok);
  EXPECT_EQ(reply.replica, 2u);
  seen = controls();
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen.back(), create_threads[2]) << "replica 2 runs on its own target";

  EXPECT_EQ(r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply, 3),
            vg::Status::invalid_argument);
  EXPECT_EQ(r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdFail), 2s, &reply), vg::Status::kernel_error);
  EXPECT_EQ(controls().size(), 7u);
  EXPECT_EQ(r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdFail), 2s, &reply, 1), vg::Status::kernel_error);
  EXPECT_EQ(reply.replica, 1u);
  // an unreplicated node: replica 0 is the node itself
  EXPECT_EQ(r.g.send_command(r.pre, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply, 0), vg::Status::ok);
  EXPECT_EQ(r.g.send_command(r.pre, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply, 1),
            vg::Status::invalid_argument);
  ASSERT_EQ(r.g.process(), vg::Status::ok);
}

TEST_F(ReplicaTest, CommandsWhileStreamingRunBetweenEachReplicasFrames) {
  Replicated r(ctx, {"npu0", "npu1"});
  r.g.set_attribute(r.det, "sleep_us", std::int64_t{500});
  r.g.verify();
  ASSERT_EQ(r.g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 40; ++i) values.push_back(i);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::thread commander([&] {
    while (!done.load()) {
      vg::CommandReply reply;
      if (r.g.send_command(r.det, vg::ControlCommand::make(vg::test::kCmdPing), 2s, &reply) != vg::Status::ok) ++failures;
      std::this_thread::sleep_for(1ms);
    }
  });
  const auto results = stream(r.g, r.gin, r.gout, r.in, r.out, values);
  done = true;
  commander.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_DOUBLE_EQ(results[i].value, values[i] + 3.0);
  }
  EXPECT_EQ(r.g.stop(), vg::Status::ok);
}

TEST_F(ReplicaTest, StopDrainsFramesInFlightOnEveryReplica) {
  Replicated r(ctx, {"npu0", "npu1", "npu2"});
  r.g.set_attribute(r.det, "sleep_us", std::int64_t{3000});
  r.g.verify();
  ASSERT_EQ(r.g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 8; ++k) ASSERT_EQ(r.g.enqueue(r.gout, k), vg::Status::ok);
  for (std::uint32_t k = 0; k < 5; ++k) {
    r.g.scalar(r.in, k).set(100.0 + k);
    ASSERT_EQ(r.g.enqueue(r.gin, k), vg::Status::ok);
  }
  std::this_thread::sleep_for(2ms);
  ASSERT_EQ(r.g.stop(vg::StopMode::drain), vg::Status::ok);
  std::vector<vg::DequeuedBuffer> ins, outs;
  vg::DequeuedBuffer d;
  while (r.g.dequeue(r.gin, d, 1s) == vg::Status::ok) ins.push_back(d);
  while (r.g.dequeue(r.gout, d, 1s) == vg::Status::ok)
    if (d.completed_ns != 0) outs.push_back(d);  // not the buffers that never entered a frame
  ASSERT_EQ(ins.size(), 5u);
  std::uint64_t ok_frames = 0;
  for (const auto& o : outs) {
    if (o.status != vg::Status::ok) continue;
    EXPECT_EQ(o.sequence, ok_frames) << "drained frames come out in order";
    EXPECT_DOUBLE_EQ(r.g.scalar(r.out, o.index).get<double>(), 100.0 + o.sequence + 3.0);
    ++ok_frames;
  }
  const auto stats = r.g.stats();
  EXPECT_EQ(stats.frames_completed, ok_frames);
  EXPECT_EQ(stats.frames_completed + stats.frames_aborted, 5u);
  EXPECT_EQ(stats.frames_failed, 0u);
  EXPECT_EQ(stats.frames_in_flight, 0u);
}

TEST_F(ReplicaTest, StopAbandonWithReplicasInFlightThenRelease) {
  for (int round = 0; round < 3; ++round) {
    Replicated r(ctx, {"npu0", "npu1", "npu2"});
    r.g.set_attribute(r.det, "sleep_us", std::int64_t{2000});
    r.g.verify();
    ASSERT_EQ(r.g.start(), vg::Status::ok);
    for (std::uint32_t k = 0; k < 8; ++k) ASSERT_EQ(r.g.enqueue(r.gout, k), vg::Status::ok);
    for (std::uint32_t k = 0; k < 6; ++k) ASSERT_EQ(r.g.enqueue(r.gin, k), vg::Status::ok);
    std::this_thread::sleep_for(std::chrono::microseconds(500 * round));
    ASSERT_EQ(r.g.stop(vg::StopMode::abandon), vg::Status::ok);
    const auto stats = r.g.stats();
    EXPECT_EQ(stats.frames_in_flight, 0u);
    EXPECT_EQ(stats.frames_failed, 0u);
    EXPECT_EQ(stats.frames_completed + stats.frames_aborted, 6u);
    std::uint64_t last = 0;
    bool first = true;
    vg::DequeuedBuffer d;
    while (r.g.dequeue(r.gout, d, 1s) == vg::Status::ok) {
      if (d.completed_ns == 0) continue;  // never entered a frame
      if (!first) {
        EXPECT_GT(d.sequence, last);
      }
      last = d.sequence;
      first = false;
    }
    r.g.release();
    EXPECT_EQ(vg::test::live_recorders(), 0);
  }
}

TEST_F(ReplicaTest, ThroughputScalesWithReplicasButOnlyOrderIsAsserted) {
  Replicated r(ctx, {"npu0", "npu1", "npu2"});
  r.g.set_attribute(r.det, "sleep_us", std::int64_t{2000});
  r.g.verify();
  ASSERT_EQ(r.g.start(), vg::Status::ok);
  std::vector<double> values;
  for (int i = 0; i < 30; ++i) values.push_back(i * 0.5);
  const auto results = stream(r.g, r.gin, r.gout, r.in, r.out, values);
  ASSERT_EQ(results.size(), values.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_DOUBLE_EQ(results[i].value, values[i] + 3.0);
  }
  EXPECT_EQ(r.g.stop(), vg::Status::ok);
  // Each replica ran exactly its third of the frames; the node as a whole ran them all.
  const auto stats = r.g.stats();
  std::map<std::string, const vg::NodeStats*> by_name;
  for (const auto& n : stats.nodes) by_name[n.name] = &n;
  ASSERT_TRUE(by_name.count("det"));
  EXPECT_EQ(by_name["det"]->executions, 30u);
  EXPECT_EQ(by_name["det"]->target, "npu0,npu1,npu2");
  EXPECT_TRUE(by_name["det"]->replica_of.empty());
  for (const char* name : {"det[npu0]", "det[npu1]", "det[npu2]"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    EXPECT_EQ(by_name[name]->executions, 10u) << name;
    EXPECT_EQ(by_name[name]->replica_of, "det");
  }
  EXPECT_EQ(r.g.executions(r.det).size(), 30u);
  const std::string report = r.g.report_text();
  EXPECT_NE(report.find("det[npu1]"), std::string::npos) << report;
  std::ostringstream trace;
  r.g.write_trace(trace);
  EXPECT_NE(trace.str().find("\"det[npu2]\""), std::string::npos);
  EXPECT_NE(trace.str().find("\"node\":\"det\",\"replica\":2"), std::string::npos) << trace.str().substr(0, 2000);
  std::ostringstream dot;
  r.g.write_dot(dot);
  EXPECT_EQ(dot.str().find("det[npu2]"), std::string::npos) << "the drawing shows the node once";
}

TEST_F(ReplicaTest, ReverifyAfterReleaseRebuildsReplicas) {
  Replicated r(ctx, {"npu0", "npu1"});
  for (int round = 0; round < 3; ++round) {
    r.g.verify();
    EXPECT_EQ(r.g.num_nodes(), 3u);
    for (int i = 0; i < 5; ++i) {
      r.g.scalar(r.in, 0).set(double(i));
      ASSERT_EQ(r.g.process(), vg::Status::ok);
      EXPECT_DOUBLE_EQ(r.g.scalar(r.out).get<double>(), i + 3.0);
    }
    r.g.release();
  }
  r.g.set_target(r.det, "npu2");  // back to one target
  r.g.verify();
  EXPECT_EQ(r.g.num_replicas(r.det), 1u);
  ASSERT_EQ(r.g.process(), vg::Status::ok);
}

}  // namespace
