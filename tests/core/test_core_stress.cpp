// Concurrency stress: many send_command calls from several threads while frames stream.

#include <gtest/gtest.h>

#include <thread>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

TEST(CommandStressTest, ManyCommandsFromSeveralThreadsWhileFramesRun) {
  vg::Context ctx;
  ctx.load_module(vg::examples::make_module());
  vg::Graph g(ctx, "stress");
  auto c = g.add_virtual("c", vg::DataKind::scalar), s = g.add_virtual("s", vg::DataKind::scalar);
  auto sum = g.add_virtual("sum", vg::DataKind::scalar);
  g.bind(g.add_node("count", "vg.example.counter"), "out", c);
  auto sc = g.add_node("scale", "vg.example.scale");
  g.bind(sc, "in", c).bind(sc, "out", s).set_target(sc, "cpu1");
  auto add = g.add_node("add", "vg.example.add");
  g.bind(add, "a", s).bind(add, "b", c).bind(add, "sum", sum);
  g.set_pipeline_depth(2);
  g.verify();

  std::atomic<bool> done{false};
  std::atomic<int> ok{0}, failed{0}, timeouts{0};
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t)
    senders.emplace_back([&, t] {
      int i = 0;
      while (!done.load()) {
        vg::CommandReply reply;
        const auto cmd = (i++ % 2) ? vg::ControlCommand::make(vg::examples::kSetBias, double(t))
                                   : vg::ControlCommand::make(vg::examples::kGetBias);
        const vg::Status st = g.send_command(add, cmd, (i % 50 == 0) ? 1us : 1s, &reply);
        if (st == vg::Status::ok) ++ok;
        else if (st == vg::Status::timeout) ++timeouts;
        else if (st != vg::Status::busy) ++failed;
      }
    });
  int frames_ok = 0;
  const auto deadline = std::chrono::steady_clock::now() + 1500ms;
  while (std::chrono::steady_clock::now() < deadline) frames_ok += g.process() == vg::Status::ok;
  done = true;
  for (auto& t : senders) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_GT(ok.load(), 100);
  EXPECT_GT(frames_ok, 100);
  // A command that timed out was discarded safely: the graph still answers.
  EXPECT_EQ(g.send_command(add, vg::ControlCommand::make(vg::examples::kGetBias), 1s), vg::Status::ok);
}

}  // namespace
