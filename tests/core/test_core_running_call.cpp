// vg::running_call: inside a kernel callback the worker thread can tell which node, kernel, target,
// callback and frame it runs (what the crash report prints); outside any callback it is null.
#include <gtest/gtest.h>

#include <string>

#include "visiongraph/visiongraph.hpp"

namespace {

using namespace vg;

struct Seen {
  std::string node, kernel, target, callback;
  std::uint64_t frame = 99;
};
Seen g_process, g_control;

struct Recorder {
  explicit Recorder(KernelContext&) {}
  Status process(KernelContext&) noexcept {
    const RunningCall* call = running_call();
    if (call == nullptr) return Status::kernel_error;
    g_process = {call->node, call->kernel, call->target, call->callback, call->frame};
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand&, CommandReply&) noexcept {
    const RunningCall* call = running_call();
    if (call == nullptr) return Status::kernel_error;
    g_control = {call->node, call->kernel, call->target, call->callback, call->frame};
    return Status::ok;
  }
};

TEST(RunningCallTest, NamesTheCallbackOnItsThreadAndNothingElsewhere) {
  Context ctx;
  Module m("test.recorder");
  m.add(KernelDecl("test.recorder", "records vg::running_call()").command(1, "ping", PayloadKind::none));
  m.implement("test.recorder", "cpu", callbacks_for<Recorder>());
  ctx.load_module(std::move(m));
  Graph g(ctx, "calls");
  const NodeId n = g.add_node("watcher", "test.recorder");
  g.set_target(n, "cpu1");
  g.verify();
  EXPECT_EQ(running_call(), nullptr) << "the application's thread runs no callback";
  for (int i = 0; i < 3; ++i) ASSERT_EQ(g.process(), Status::ok);
  EXPECT_EQ(g_process.node, "watcher");
  EXPECT_EQ(g_process.kernel, "test.recorder");
  EXPECT_EQ(g_process.target, "cpu1");
  EXPECT_EQ(g_process.callback, "process");
  EXPECT_EQ(g_process.frame, 2u);
  ASSERT_EQ(g.send_command(n, ControlCommand::make(1), std::chrono::seconds(5)), Status::ok);
  EXPECT_EQ(g_control.node, "watcher");
  EXPECT_EQ(g_control.callback, "control");
  EXPECT_EQ(running_call(), nullptr);
}

}  // namespace
