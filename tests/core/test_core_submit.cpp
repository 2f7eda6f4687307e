// Graph::submit / wait_submitted: process() in two halves (start one frame, return at once; wait for it
// later, from any thread). One submitted frame at a time; what it refuses, and release with one running.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "test_kernels.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::Status;

/// Holds the hook kernel's process until opened (or for at most 10 s, so a failing test cannot hang).
struct Gate {
  std::atomic<bool> open{true};
  std::atomic<int> entered{0};
  static void hook(void* arg, std::uint64_t) {
    auto* gate = static_cast<Gate*>(arg);
    gate->entered.fetch_add(1);
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (!gate->open.load() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(1ms);
  }
};

class SubmitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx.load_module(vg::test::make_test_module());
    vg::test::set_hook(&Gate::hook, &gate);
  }
  void TearDown() override {
    gate.open = true;
    vg::test::set_hook(nullptr, nullptr);
    EXPECT_EQ(vg::test::live_recorders(), 0);
  }
  vg::Context ctx;
  Gate gate;
};

/// in -> gate (vg.test.hook, cpu0: out = in) -> add (vg.test.recorder, cpu1: out = in + 1) -> out
struct Chain {
  explicit Chain(vg::Context& ctx) : g(ctx, "submit") {
    in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
    auto mid = g.add_virtual("mid", vg::DataKind::scalar);
    out = g.add_virtual("out", vg::DataKind::scalar);
    auto gate = g.add_node("gate", "vg.test.hook");
    g.bind(gate, "in", in).bind(gate, "out", mid).set_target(gate, "cpu0");
    add = g.add_node("add", "vg.test.recorder");
    g.bind(add, "in", mid).bind(add, "out", out).set_target(add, "cpu1");
  }
  double result() const { return g.scalar(out).get<double>(); }
  vg::Graph g;
  vg::DataId in, out;
  vg::NodeId add;
};

TEST_F(SubmitTest, SubmitReturnsBeforeTheFrameEndsAndWaitGivesItsStatusAndResults) {
  Chain c(ctx);
  c.g.verify();
  gate.open = false;
  c.g.scalar(c.in).set(41.0);
  ASSERT_EQ(c.g.submit(), Status::ok) << "submit does not wait for the frame";
  EXPECT_EQ(c.g.wait_submitted(20ms), Status::timeout) << "the gate holds the frame";
  EXPECT_EQ(c.g.wait_submitted(0ns), Status::timeout) << "still submitted after a timed-out wait";
  gate.open = true;
  EXPECT_EQ(c.g.wait_submitted(), Status::ok);
  EXPECT_DOUBLE_EQ(c.result(), 42.0);
  EXPECT_EQ(c.g.wait_submitted(), Status::no_data) << "its status was taken";
  // Frame after frame, as process() would run them.
  for (int i = 0; i < 20; ++i) {
    c.g.scalar(c.in).set(static_cast<double>(i));
    ASSERT_EQ(c.g.submit(), Status::ok);
    ASSERT_EQ(c.g.wait_submitted(), Status::ok);
    EXPECT_DOUBLE_EQ(c.result(), i + 1.0) << "frame " << i;
  }
  EXPECT_EQ(c.g.stats().frames_completed, 21u);
}

TEST_F(SubmitTest, OneSubmittedFrameAtATime) {
  Chain c(ctx);
  c.g.verify();
  gate.open = false;
  ASSERT_EQ(c.g.submit(), Status::ok);
  EXPECT_EQ(c.g.submit(), Status::busy);
  EXPECT_EQ(c.g.process(), Status::busy);
  EXPECT_EQ(c.g.start(), Status::busy);
  gate.open = true;
  EXPECT_EQ(c.g.wait_submitted(), Status::ok);
  EXPECT_EQ(c.g.process(), Status::ok) << "free again";
  // Streaming refuses submit, and submit refuses nothing once streaming has stopped.
  ASSERT_EQ(c.g.start(), Status::ok);
  EXPECT_EQ(c.g.submit(), Status::busy);
  EXPECT_EQ(c.g.stop(), Status::ok);
  EXPECT_EQ(c.g.submit(), Status::ok);
  EXPECT_EQ(c.g.wait_submitted(), Status::ok);
  EXPECT_GE(gate.entered.load(), 3) << "(a graph without graph parameters streams free-running frames)";
}

// Each failed frame keeps its own error: a later failure does not overwrite what an earlier frame reports.
TEST_F(SubmitTest, EachFailedFrameKeepsItsOwnError) {
  Chain c(ctx);
  c.g.set_attribute(c.add, "fail_in", std::string("process")).set_attribute(c.add, "fail_frame", std::int64_t{-1});
  c.g.verify();
  for (std::uint64_t frame = 0; frame < 100; ++frame) {
    ASSERT_EQ(c.g.submit(), Status::ok);
    EXPECT_EQ(c.g.wait_submitted(), Status::kernel_error);
  }
  EXPECT_EQ(c.g.last_error().frame, 99u);
  for (std::uint64_t frame : {40u, 70u, 99u}) {
    const vg::RunError e = c.g.frame_error(frame);
    EXPECT_EQ(e.status, Status::kernel_error) << frame;
    EXPECT_EQ(e.frame, frame);
    EXPECT_EQ(e.node, "add");
    EXPECT_NE(e.describe().find("failed on frame " + std::to_string(frame)), std::string::npos) << e.describe();
  }
  EXPECT_EQ(c.g.frame_error(10).status, Status::ok) << "older than the 64 most recent failures";
  EXPECT_EQ(c.g.frame_error(1000).status, Status::ok) << "a frame that never failed";
}

TEST_F(SubmitTest, AFailingFrameIsReportedByWaitAndTheNextFrameRuns) {
  Chain c(ctx);
  c.g.set_attribute(c.add, "fail_in", std::string("process")).set_attribute(c.add, "fail_frame", std::int64_t{1});
  c.g.verify();
  for (std::uint64_t frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(c.g.submit(), Status::ok);
    EXPECT_EQ(c.g.wait_submitted(), frame == 1 ? Status::kernel_error : Status::ok) << "frame " << frame;
  }
  EXPECT_EQ(c.g.last_error().node, "add");
}

TEST_F(SubmitTest, WaitFromAnotherThread) {
  Chain c(ctx);
  c.g.verify();
  for (int i = 0; i < 10; ++i) {
    gate.open = false;
    c.g.scalar(c.in).set(static_cast<double>(i));
    ASSERT_EQ(c.g.submit(), Status::ok);
    Status waited = Status::error;
    std::thread waiter([&] { waited = c.g.wait_submitted(); });
    gate.open = true;
    waiter.join();
    EXPECT_EQ(waited, Status::ok);
    EXPECT_DOUBLE_EQ(c.result(), i + 1.0);
  }
}

TEST_F(SubmitTest, UnverifiedGraphAndNothingSubmitted) {
  Chain c(ctx);
  EXPECT_EQ(c.g.submit(), Status::not_verified);
  EXPECT_EQ(c.g.wait_submitted(), Status::no_data);
  c.g.verify();
  EXPECT_EQ(c.g.wait_submitted(), Status::no_data);
}

TEST_F(SubmitTest, ReleaseWithASubmittedFrameNotWaitedFor) {
  {
    Chain c(ctx);
    c.g.verify();
    gate.open = false;
    ASSERT_EQ(c.g.submit(), Status::ok);
    std::thread opener([&] {
      std::this_thread::sleep_for(20ms);
      gate.open = true;
    });
    c.g.release();  // waits for the frame; a verify afterwards starts with nothing submitted
    opener.join();
    c.g.verify();
    EXPECT_EQ(c.g.wait_submitted(), Status::no_data);
    ASSERT_EQ(c.g.submit(), Status::ok);
    // ~Graph with a submitted frame not waited for
  }
  EXPECT_EQ(vg::test::live_recorders(), 0);
}

}  // namespace
