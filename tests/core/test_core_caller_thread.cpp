// Graph::process() on the caller's thread (ContextConfig::run_on_caller): where every node is on one
// idle cpu target and nothing needs another thread, the frame runs on the thread that calls process();
// elsewhere, and when turned off, on the target's worker. Either way a target never runs two callbacks at
// once, and commands keep their order.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "test_kernels.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::test::EventLog;

vg::ContextConfig config_with(bool on_caller) {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.run_on_caller = on_caller;
  return config;
}

/// A chain of `length` recorders on `target`, each spinning `busy_us` per frame.
struct Chain {
  std::vector<vg::NodeId> nodes;
  std::vector<vg::DataId> outs;
};
Chain chain(vg::Graph& g, const std::string& prefix, int length, const std::string& target, int busy_us = 0) {
  Chain c;
  for (int i = 0; i < length; ++i) {
    auto n = g.add_node(prefix + std::to_string(i), "vg.test.recorder");
    auto out = g.add_virtual(prefix + "v" + std::to_string(i), vg::DataKind::scalar);
    if (i > 0) g.bind(n, "in", c.outs.back());
    g.bind(n, "out", out).set_target(n, target).set_attribute(n, "busy_us", static_cast<std::int64_t>(busy_us));
    c.nodes.push_back(n);
    c.outs.push_back(out);
  }
  return c;
}

std::vector<std::thread::id> process_threads(const std::string& node) {
  std::vector<std::thread::id> threads;
  for (const auto& e : EventLog::instance().events())
    if (e.node == node && e.callback == "process") threads.push_back(e.thread);
  return threads;
}

class CallerThread : public ::testing::Test {
 protected:
  void SetUp() override { EventLog::instance().clear(); }
  void TearDown() override { EXPECT_EQ(vg::test::live_recorders(), 0); }
};

TEST_F(CallerThread, OneTargetChainRunsOnTheThreadThatCallsProcess) {
  vg::Context ctx(config_with(true));
  ctx.load_module(vg::test::make_test_module());
  {
    vg::Graph g(ctx, "small");
    const Chain c = chain(g, "n", 8, "cpu0");
    g.verify();
    for (int i = 0; i < 20; ++i) ASSERT_EQ(g.process(), vg::Status::ok);
    EXPECT_DOUBLE_EQ(g.scalar(c.outs.back()).get<double>(), 19.0 + 7.0);  // the last frame, +1 per later node  // frame 4, +1 per later node
  }
  // A frame goes to the worker when cpu0 is not idle at that moment, e.g. the worker still finishing the
  // create commands of verify, or the previous such frame: most frames run here, not all of them.
  for (const char* node : {"n0", "n7"}) {
    const auto threads = process_threads(node);
    ASSERT_EQ(threads.size(), 20u) << node;
    EXPECT_GE(std::count(threads.begin(), threads.end(), std::this_thread::get_id()), 10) << node;
  }
}

TEST_F(CallerThread, TurnedOffEveryFrameRunsOnTheWorker) {
  vg::Context ctx(config_with(false));
  ctx.load_module(vg::test::make_test_module());
  {
    vg::Graph g(ctx, "small");
    chain(g, "n", 2, "cpu0");
    g.verify();
    for (int i = 0; i < 3; ++i) ASSERT_EQ(g.process(), vg::Status::ok);
  }
  for (auto t : process_threads("n1")) EXPECT_NE(t, std::this_thread::get_id());
}

// send_command to a node of an idle cpu target runs its control callback on the calling thread; with a
// deadline on the node, or turned off, on the worker. The reply is the same either way.
TEST_F(CallerThread, ACommandToAnIdleTargetRunsOnTheCaller) {
  for (const bool on_caller : {true, false}) {
    EventLog::instance().clear();
    vg::Context ctx(config_with(on_caller));
    ctx.load_module(vg::test::make_test_module());
    {
      vg::Graph g(ctx, "commands");
      const Chain c = chain(g, "c", 2, "cpu0");
      g.set_deadline(c.nodes[1], 1s);
      g.verify();
      // c0's ten commands in a row, then c1's: after a command the worker ran, the next caller may find it
      // still letting go of the target (and then queues to it), so c0's are not interleaved with c1's.
      for (vg::NodeId node : c.nodes)
        for (int i = 0; i < 10; ++i) {
          vg::CommandReply reply;
          ASSERT_EQ(g.send_command(node, vg::ControlCommand::make(vg::test::kCmdPing), 1s, &reply), vg::Status::ok);
          EXPECT_EQ(reply.text(), "pong");
        }
    }
    int here_c0 = 0;
    for (const auto& e : EventLog::instance().events()) {
      if (e.callback != "control") continue;
      const bool here = e.thread == std::this_thread::get_id();
      if (e.node == "c0") here_c0 += here ? 1 : 0;
      else EXPECT_FALSE(here) << "c1 has a deadline: its commands stay on the worker";
    }
    // As for frames: a command finding the worker still busy (just after verify) goes to it; most run here.
    if (on_caller) EXPECT_GE(here_c0, 5);
    else EXPECT_EQ(here_c0, 0);
  }
}

// Two targets, a deadline, an npu target: each keeps its frames on the targets' own threads.
TEST_F(CallerThread, GraphsThatNeedOtherThreadsStayOnTheirWorkers) {
  vg::Context ctx(config_with(true));
  ctx.load_module(vg::test::make_test_module());
  {
    vg::Graph two(ctx, "two_targets");
    const Chain a = chain(two, "a", 1, "cpu0");
    auto b = two.add_node("b", "vg.test.recorder");
    two.bind(b, "in", a.outs[0]).bind(b, "out", two.add_virtual("bv", vg::DataKind::scalar)).set_target(b, "cpu1");
    two.verify();
    ASSERT_EQ(two.process(), vg::Status::ok);

    vg::Graph timed(ctx, "deadline");
    const Chain d = chain(timed, "d", 1, "cpu0");
    timed.set_deadline(d.nodes[0], 1s);
    timed.verify();
    ASSERT_EQ(timed.process(), vg::Status::ok);

    vg::Graph npu(ctx, "npu");
    chain(npu, "p", 1, "npu0");
    npu.verify();
    ASSERT_EQ(npu.process(), vg::Status::ok);
  }
  for (const char* node : {"a0", "b", "d0", "p0"})
    for (auto t : process_threads(node)) EXPECT_NE(t, std::this_thread::get_id()) << node;
}

// Two graphs on cpu0 processed from two threads (each may borrow the target) while a third thread sends
// commands to one of their nodes: no two callbacks of cpu0 ever overlap, every frame and command runs.
TEST_F(CallerThread, ABorrowedTargetNeverRunsTwoCallbacksAtOnce) {
  vg::Context ctx(config_with(true));
  ctx.load_module(vg::test::make_test_module());
  constexpr int kFrames = 150;
  {
    vg::Graph first(ctx, "first"), second(ctx, "second");
    const Chain f = chain(first, "f", 2, "cpu0", 20);
    chain(second, "s", 2, "cpu0", 20);
    first.verify();
    second.verify();
    std::atomic<int> failures{0}, commands{0};
    std::atomic<bool> done{false};
    std::thread other([&] {
      for (int i = 0; i < kFrames; ++i)
        if (second.process(5s) != vg::Status::ok) ++failures;
    });
    std::thread commander([&] {
      while (!done.load()) {
        if (first.send_command(f.nodes[1], vg::ControlCommand::make(vg::test::kCmdPing), 5s) != vg::Status::ok) ++failures;
        ++commands;
        std::this_thread::sleep_for(100us);
      }
    });
    for (int i = 0; i < kFrames; ++i)
      if (first.process(5s) != vg::Status::ok) ++failures;
    other.join();
    done = true;
    commander.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_GT(commands.load(), 0);
  }
  auto events = EventLog::instance().events();
  events.erase(std::remove_if(events.begin(), events.end(), [](const vg::test::Event& e) {
                 return e.callback != "process" && e.callback != "control";
               }),
               events.end());
  EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const auto& e) { return e.callback == "process"; }), 4 * kFrames);
  std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  for (std::size_t i = 1; i < events.size(); ++i)
    EXPECT_GE(events[i].start_ns, events[i - 1].end_ns)
        << events[i - 1].node << " " << events[i - 1].callback << " and " << events[i].node << " " << events[i].callback << " overlap";
  // Some frames ran on the calling threads, some on the worker (whoever found cpu0 idle).
  const auto f0 = process_threads("f0");
  EXPECT_GT(std::count(f0.begin(), f0.end(), std::this_thread::get_id()), 0);
}

// A command queued before process() runs before the frame (the target was not idle: no borrow).
TEST_F(CallerThread, ACommandAlreadyQueuedRunsBeforeTheFrame) {
  vg::Context ctx(config_with(true));
  ctx.load_module(vg::test::make_test_module());
  {
    vg::Graph busy(ctx, "busy"), small(ctx, "small");
    chain(busy, "b", 1, "cpu0", 300'000);  // keeps cpu0 busy for 300 ms
    const Chain sc = chain(small, "s", 1, "cpu0");
    busy.verify();
    small.verify();
    ASSERT_EQ(busy.submit(), vg::Status::ok);  // runs on the worker
    std::this_thread::sleep_for(20ms);
    std::thread commander([&] { (void)small.send_command(sc.nodes[0], vg::ControlCommand::make(vg::test::kCmdPing), 5s); });
    std::this_thread::sleep_for(100ms);  // the command waits in cpu0's queue behind the busy frame
    ASSERT_EQ(small.process(5s), vg::Status::ok);
    commander.join();
    ASSERT_EQ(busy.wait_submitted(5s), vg::Status::ok);
  }
  const auto seq = EventLog::instance().sequence("s0");
  const std::vector<std::string> expected = {"create", "control", "process", "delete"};
  EXPECT_EQ(seq, expected);
}

}  // namespace
