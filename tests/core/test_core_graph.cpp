// Building, verifying and running graphs; callback order; failures; control commands.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "test_kernels.hpp"
#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::test::EventLog;

class GraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EventLog::instance().clear();
    ctx.load_module(vg::examples::make_module());
    ctx.load_module(vg::test::make_test_module());
  }
  void TearDown() override { EXPECT_EQ(vg::test::live_recorders(), 0); }

  vg::DataId f64(vg::Graph& g, const std::string& name, double value = 0) {
    auto id = g.add_data(name, vg::DataMeta::scalar_of(vg::ElementType::f64));
    values.emplace_back(id, value);
    return id;
  }
  void fill(vg::Graph& g) {
    for (auto [id, v] : values) g.scalar(id).set(v);
  }
  vg::Context ctx;
  std::vector<std::pair<vg::DataId, double>> values;
};

TEST_F(GraphTest, ProcessRunsAChainAndProducesTheSum) {
  vg::Graph g(ctx, "sum");
  auto a = f64(g, "a", 2), b = f64(g, "b", 3);
  auto s = g.add_virtual("s", vg::DataKind::scalar);
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto add = g.add_node("add", "vg.example.add");
  g.bind(add, "a", a).bind(add, "b", b).bind(add, "sum", s).set_attribute(add, "bias", 1.0);
  auto scale = g.add_node("scale", "vg.example.scale");
  g.bind(scale, "in", s).bind(scale, "out", out).set_attribute(scale, "factor", 10.0).set_target(scale, "cpu1");
  g.verify();
  fill(g);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(out).get<double>(), 60.0);
  EXPECT_EQ(g.node_target(add), "cpu0");
  EXPECT_EQ(g.node_target(scale), "cpu1");
}

TEST_F(GraphTest, CallbacksRunCreateThenProcessesThenDeleteOnTheNodesTarget) {
  {
    vg::Graph g(ctx, "order");
    auto n = g.add_node("rec", "vg.test.recorder");
    g.set_target(n, "cpu1");
    g.verify();
    for (int i = 0; i < 3; ++i) ASSERT_EQ(g.process(), vg::Status::ok);
    vg::CommandReply reply;
    ASSERT_EQ(g.send_command(n, vg::ControlCommand::make(vg::test::kCmdPing), 1s, &reply), vg::Status::ok);
    EXPECT_EQ(reply.text(), "pong");
    ASSERT_EQ(g.process(), vg::Status::ok);
  }
  const auto seq = EventLog::instance().sequence("rec");
  const std::vector<std::string> expected = {"create", "process", "process", "process", "control", "process", "delete"};
  EXPECT_EQ(seq, expected);
  // create and delete run on the target's worker; process and control of this one-target graph run there
  // or on the calling thread when it finds the target idle (ContextConfig::run_on_caller;
  // test_core_caller_thread covers both settings).
  const auto events = EventLog::instance().events();
  const std::thread::id worker = events.front().thread;
  for (const auto& e : events) {
    if (e.callback == "create" || e.callback == "delete") EXPECT_EQ(e.thread, worker) << e.callback;
    else EXPECT_TRUE(e.thread == worker || e.thread == std::this_thread::get_id()) << e.callback;
  }
  EXPECT_NE(worker, std::this_thread::get_id());
}

struct FailCase {
  const char* callback;
};
class FailingCallbackTest : public GraphTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(FailingCallbackTest, AFailingCallbackLeavesGraphAndFrameworkConsistent) {
  const std::string where = GetParam();
  {
    vg::Graph g(ctx, "fail");
    auto first = g.add_node("first", "vg.test.recorder");
    auto x = g.add_virtual("x", vg::DataKind::scalar);
    auto y = g.add_virtual("y", vg::DataKind::scalar);
    g.bind(first, "out", x);
    auto bad = g.add_node("bad", "vg.test.recorder");
    g.bind(bad, "in", x).bind(bad, "out", y).set_attribute(bad, "fail_in", where).set_attribute(bad, "fail_frame", 1);
    auto after = g.add_node("after", "vg.test.recorder");
    g.bind(after, "in", y);
    if (where == "create") {
      try {
        g.verify();
        FAIL() << "verify should fail";
      } catch (const vg::Error& e) {
        EXPECT_NE(std::string(e.what()).find("node 'bad'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("create failed"), std::string::npos) << e.what();
      }
      EXPECT_FALSE(g.is_verified());
      // the successful create of 'first' was undone, 'after' never created
      EXPECT_EQ(EventLog::instance().sequence("first"), (std::vector<std::string>{"create", "delete"}));
      EXPECT_EQ(EventLog::instance().sequence("after"), std::vector<std::string>{});
      return;
    }
    g.verify();
    EXPECT_EQ(g.process(), vg::Status::ok);
    if (where == "process") {
      EXPECT_EQ(g.process(), vg::Status::kernel_error);
      const auto err = g.last_error();
      EXPECT_EQ(err.node, "bad");
      EXPECT_EQ(err.kernel, "vg.test.recorder");
      EXPECT_EQ(err.target, "cpu0");
      EXPECT_EQ(err.frame, 1u);
      EXPECT_NE(err.describe().find("told to fail"), std::string::npos);
    } else if (where == "control") {
      EXPECT_EQ(g.send_command(bad, vg::ControlCommand::make(vg::test::kCmdPing), 1s), vg::Status::kernel_error);
    }
    EXPECT_EQ(g.process(), vg::Status::ok);  // the graph stays usable
  }
  // every successful create got exactly one delete
  for (const char* node : {"first", "bad", "after"}) {
    const auto seq = EventLog::instance().sequence(node);
    EXPECT_EQ(std::count(seq.begin(), seq.end(), "create"), 1) << node;
    EXPECT_EQ(std::count(seq.begin(), seq.end(), "delete"), 1) << node;
    EXPECT_EQ(seq.back(), "delete") << node;
  }
  if (where == "process") {
    // 'after' was skipped on the failing frame (its input was invalid)
    const auto seq = EventLog::instance().sequence("after");
    EXPECT_EQ(std::count(seq.begin(), seq.end(), "process"), 2);
  }
}
INSTANTIATE_TEST_SUITE_P(EachCallback, FailingCallbackTest, ::testing::Values("create", "process", "control", "delete"));

TEST_F(GraphTest, AnExceptionFromACallbackFailsThatFrameOrCommandAndNamesTheNode) {
  vg::Graph g(ctx, "throws");
  auto node = g.add_node("careless", "vg.test.thrower");
  g.bind(node, "out", g.add_virtual("v", vg::DataKind::scalar)).set_attribute(node, "throw_frame", 1);
  g.verify();
  EXPECT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(g.process(), vg::Status::kernel_error);
  const auto err = g.last_error();
  EXPECT_EQ(err.node, "careless");
  EXPECT_EQ(err.frame, 1u);
  EXPECT_NE(err.describe().find("threw an exception: boom in process"), std::string::npos) << err.describe();
  EXPECT_EQ(g.process(), vg::Status::ok) << "the process and the graph go on";

  EXPECT_EQ(g.send_command(node, vg::ControlCommand::make(vg::test::kCmdPing), 1s), vg::Status::kernel_error);
  EXPECT_EQ(g.send_command(node, vg::ControlCommand::make(vg::test::kCmdFail), 1s), vg::Status::kernel_error);
  vg::CommandReply reply;
  EXPECT_EQ(g.send_command(node, vg::ControlCommand::make(vg::test::kCmdDouble), 1s, &reply), vg::Status::ok);
  EXPECT_EQ(reply.text(), "fine");
  EXPECT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(g.stats().nodes.at(0).failures, 1u);
}

// ---- verify errors, one each ----
std::string verify_error(vg::Graph& g) {
  try {
    g.verify();
  } catch (const vg::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(GraphTest, VerifyRejectsAMissingRequiredParameter) {
  vg::Graph g(ctx);
  auto n = g.add_node("add", "vg.example.add");
  g.bind(n, "a", f64(g, "a"));
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("node 'add'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'b' is not bound"), std::string::npos) << msg;
}

TEST_F(GraphTest, BindRejectsAWrongType) {
  vg::Graph g(ctx);
  auto n = g.add_node("add", "vg.example.add");
  auto img = g.add_data("img", vg::DataMeta::image_of(4, 4, vg::ImageFormat::gray8));
  try {
    g.bind(n, "a", img);
    FAIL();
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 'a': wrong type: expects scalar"), std::string::npos) << e.what();
  }
}

TEST_F(GraphTest, VerifyRejectsBadMetadataThroughValidate) {
  vg::Graph g(ctx);
  auto n = g.add_node("add", "vg.example.add");
  g.bind(n, "a", g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::i32))).bind(n, "b", f64(g, "b"));
  g.bind(n, "sum", g.add_virtual("s", vg::DataKind::scalar));
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("node 'add'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'a': expects an f64 scalar"), std::string::npos) << msg;
}

TEST_F(GraphTest, VerifyRejectsTwoWriters) {
  vg::Graph g(ctx);
  auto s = g.add_virtual("s", vg::DataKind::scalar);
  g.bind(g.add_node("c1", "vg.example.counter"), "out", s);
  g.bind(g.add_node("c2", "vg.example.counter"), "out", s);
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("'s' has two writers"), std::string::npos) << msg;
}

TEST_F(GraphTest, VerifyRejectsACycle) {
  vg::Graph g(ctx);
  auto x = g.add_virtual("x", vg::DataKind::scalar), y = g.add_virtual("y", vg::DataKind::scalar);
  g.bind(g.add_node("p", "vg.example.scale"), "in", x).bind(g.find_node("p"), "out", y);
  g.bind(g.add_node("q", "vg.example.scale"), "in", y).bind(g.find_node("q"), "out", x);
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("cycle through nodes 'p', 'q'"), std::string::npos) << msg;
}

TEST_F(GraphTest, AddNodeRejectsAnUnknownKernel) {
  vg::Graph g(ctx);
  try {
    g.add_node("n", "vg.nope");
    FAIL();
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown kernel 'vg.nope'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("vg.example.add"), std::string::npos) << "lists known kernels";
  }
}

TEST_F(GraphTest, VerifyRejectsAnUnknownTarget) {
  vg::Graph g(ctx);
  auto n = g.add_node("c", "vg.example.counter");
  g.bind(n, "out", g.add_virtual("o", vg::DataKind::scalar)).set_target(n, "dsp7");
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("unknown target 'dsp7'"), std::string::npos) << msg;
}

TEST_F(GraphTest, VerifyRejectsAKernelNotImplementedOnTheChosenTarget) {
  vg::Graph g(ctx);
  auto n = g.add_node("c", "vg.example.counter");
  g.bind(n, "out", g.add_virtual("o", vg::DataKind::scalar)).set_target(n, "npu0");
  const auto msg = verify_error(g);
  EXPECT_NE(msg.find("not implemented on target 'npu0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("implemented on: cpu"), std::string::npos) << msg;
}

TEST_F(GraphTest, VerifyRejectsUnknownAndMistypedAttributes) {
  vg::Graph g(ctx);
  auto n = g.add_node("s", "vg.example.scale");
  g.bind(n, "in", f64(g, "i")).bind(n, "out", g.add_virtual("o", vg::DataKind::scalar));
  g.set_attribute(n, "factr", 2.0);
  EXPECT_NE(verify_error(g).find("unknown attribute 'factr'"), std::string::npos);
  vg::Graph h(ctx);
  auto m = h.add_node("s", "vg.example.scale");
  h.bind(m, "in", f64(h, "i")).bind(m, "out", h.add_virtual("o", vg::DataKind::scalar));
  h.set_attribute(m, "factor", std::string("big"));
  EXPECT_NE(verify_error(h).find("attribute 'factor': wrong type: expects number, got string"), std::string::npos);
}

TEST_F(GraphTest, StaticOutputIsWrittenOnceInCreateAndReadByConsumers) {
  vg::Graph g(ctx);
  auto v = g.add_virtual("v", vg::DataKind::scalar);
  auto o = g.add_virtual("o", vg::DataKind::scalar);
  g.bind(g.add_node("src", "vg.test.static_source"), "value", v);
  auto s = g.add_node("s", "vg.example.scale");
  g.bind(s, "in", v).bind(s, "out", o).set_attribute(s, "factor", 2.0);
  g.set_pipeline_depth(3);
  g.verify();
  EXPECT_EQ(g.num_buffers(v), 1u);
  EXPECT_EQ(g.num_buffers(o), 3u);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(o).get<double>(), 84.0);
}

TEST_F(GraphTest, SendCommandChangesStateBetweenFrames) {
  vg::Graph g(ctx);
  auto a = f64(g, "a", 1), b = f64(g, "b", 1);
  auto s = g.add_virtual("s", vg::DataKind::scalar);
  auto n = g.add_node("add", "vg.example.add");
  g.bind(n, "a", a).bind(n, "b", b).bind(n, "sum", s);
  g.verify();
  fill(g);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(s).get<double>(), 2.0);
  vg::CommandReply reply;
  ASSERT_EQ(g.send_command(n, vg::ControlCommand::make(vg::examples::kSetBias, 5.0), 1s, &reply), vg::Status::ok);
  EXPECT_EQ(reply.text(), "bias=5");
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(s).get<double>(), 7.0);
  EXPECT_EQ(g.send_command(n, vg::ControlCommand::make(999), 1s), vg::Status::unknown_command);
}

TEST_F(GraphTest, SendCommandPassesDataObjectsByReference) {
  vg::Graph g(ctx);
  auto n = g.add_node("rec", "vg.test.recorder");
  auto table = f64(g, "table");  // an object of the graph that no node reads: a command payload
  g.verify();
  g.scalar(table).set(21.0);
  auto cmd = vg::ControlCommand::make(vg::test::kCmdDouble);
  ASSERT_TRUE(cmd.attach(g.data_ref(table)));
  vg::CommandReply reply;
  ASSERT_EQ(g.send_command(n, cmd, 1s, &reply), vg::Status::ok);
  EXPECT_EQ(reply.text(), "doubled");
  EXPECT_DOUBLE_EQ(g.scalar(table).get<double>(), 42.0);  // written in place by the control callback
  // A command without its object is refused by the kernel, and attach() refuses bad or extra objects.
  EXPECT_EQ(g.send_command(n, vg::ControlCommand::make(vg::test::kCmdDouble), 1s), vg::Status::invalid_argument);
  EXPECT_FALSE(cmd.attach(vg::DataRef{}));
  for (std::size_t i = 1; i < vg::kMaxCommandObjects; ++i) EXPECT_TRUE(cmd.attach(g.data_ref(table)));
  EXPECT_FALSE(cmd.attach(g.data_ref(table)));
  EXPECT_FALSE(g.data_ref(vg::DataId{}).valid());
}

TEST_F(GraphTest, SendCommandToAnUnverifiedGraphIsRefused) {
  vg::Graph g(ctx);
  auto n = g.add_node("c", "vg.example.add");
  EXPECT_EQ(g.send_command(n, vg::ControlCommand::make(vg::examples::kGetBias), 1s), vg::Status::not_verified);
}

TEST_F(GraphTest, SendCommandTimesOutWhileTheTargetIsBusyAndTheCommandIsDiscarded) {
  vg::Graph g(ctx);
  auto slow = g.add_node("slow", "vg.test.recorder");
  g.set_attribute(slow, "sleep_us", 300000);
  g.verify();
  std::thread runner([&] { EXPECT_EQ(g.process(), vg::Status::ok); });
  std::this_thread::sleep_for(50ms);  // let process start on cpu0
  EXPECT_EQ(g.send_command(slow, vg::ControlCommand::make(vg::test::kCmdPing), 20ms), vg::Status::timeout);
  runner.join();
  ASSERT_EQ(g.wait_idle(2s), vg::Status::ok);
  // The discarded command never ran; the next one works.
  std::this_thread::sleep_for(20ms);
  const auto seq = EventLog::instance().sequence("slow");
  EXPECT_EQ(std::count(seq.begin(), seq.end(), "control"), 0);
  EXPECT_EQ(g.send_command(slow, vg::ControlCommand::make(vg::test::kCmdPing), 1s), vg::Status::ok);
}

TEST_F(GraphTest, ImportHandleSwapsExternalMemoryWithoutCopying) {
  vg::Graph g(ctx);
  auto in = f64(g, "in", 1);
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto s = g.add_node("s", "vg.example.scale");
  g.bind(s, "in", in).bind(s, "out", out).set_attribute(s, "factor", 3.0);
  g.verify();
  alignas(8) double external = 7.0;
  vg::MemoryBlock block;
  block.data = &external;
  block.size = sizeof(external);
  ASSERT_EQ(g.import_handle(in, 0, block), vg::Status::ok);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(out).get<double>(), 21.0);
  external = 2.0;  // the graph reads the application's memory directly
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(out).get<double>(), 6.0);
  vg::MemoryBlock previous;
  ASSERT_EQ(g.import_handle(in, 0, vg::MemoryBlock{}, &previous), vg::Status::ok);  // back to graph memory
  EXPECT_EQ(previous.data, &external);
  vg::MemoryBlock tiny;
  tiny.data = &external;
  tiny.size = 1;
  EXPECT_EQ(g.import_handle(in, 0, tiny), vg::Status::invalid_argument);
}

// A name longer than its column widens the column: it never runs into the kernel's name.
TEST_F(GraphTest, TheReportsTableFitsLongNames) {
  vg::Graph g(ctx, "long_names");
  const std::string name = "counts_every_frame_with_a_long_node_name";
  auto c = g.add_node(name, "vg.example.counter");
  g.bind(c, "out", g.add_virtual("x", vg::DataKind::scalar));
  g.verify();
  ASSERT_EQ(g.process(), vg::Status::ok);
  const auto text = g.report_text();
  const auto header = text.find("node ");
  const auto row = text.find(name + " ");
  ASSERT_NE(row, std::string::npos) << text;
  ASSERT_NE(header, std::string::npos) << text;
  // The kernel column starts at the same offset in the header and the row.
  const auto line_start = [&](std::size_t at) { return text.rfind('\n', at) + 1; };
  EXPECT_EQ(text.find("kernel", header) - line_start(header), text.find("vg.example.counter", row) - line_start(row)) << text;
}

TEST_F(GraphTest, ReportsTraceAndDotDescribeTheGraph) {
  vg::Graph g(ctx, "observed");
  auto c = g.add_node("count", "vg.example.counter");
  auto x = g.add_virtual("x", vg::DataKind::scalar);
  g.bind(c, "out", x);
  auto s = g.add_node("double", "vg.example.scale");
  g.bind(s, "in", x).bind(s, "out", g.add_virtual("y", vg::DataKind::scalar)).set_target(s, "cpu1");
  g.verify();
  for (int i = 0; i < 5; ++i) ASSERT_EQ(g.process(), vg::Status::ok);
  const auto stats = g.stats();
  ASSERT_EQ(stats.nodes.size(), 2u);
  EXPECT_EQ(stats.nodes[0].executions, 5u);
  EXPECT_EQ(stats.frames_completed, 5u);
  const auto text = g.report_text();
  EXPECT_NE(text.find("count"), std::string::npos);
  EXPECT_NE(text.find("cpu1"), std::string::npos);
  EXPECT_NE(g.report_json().find("\"executions\": 5"), std::string::npos);
  std::ostringstream trace, dot;
  g.write_trace(trace);
  EXPECT_NE(trace.str().find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(trace.str().find("\"thread_name\""), std::string::npos);
  EXPECT_NE(trace.str().find("\"frame\":4"), std::string::npos);
  g.write_dot(dot);
  EXPECT_NE(dot.str().find("digraph \"observed\""), std::string::npos);
  EXPECT_NE(dot.str().find("@cpu1"), std::string::npos);
  EXPECT_NE(dot.str().find(" buffer"), std::string::npos);
  // Top to bottom, scaled down to a 16:9 slide when larger, with a legend of the target colours.
  EXPECT_NE(dot.str().find("rankdir=TB"), std::string::npos) << dot.str();
  EXPECT_NE(dot.str().find("size=\"13.33,7.5\""), std::string::npos) << dot.str();
  EXPECT_NE(dot.str().find("legend [shape=plaintext"), std::string::npos) << dot.str();
  EXPECT_NE(dot.str().find("<td bgcolor=\"#fdb462\" width=\"16\"></td><td align=\"left\">cpu1 (cpu)</td>"),
            std::string::npos)
      << dot.str();
  EXPECT_NE(dot.str().find("fillcolor=\"#fdb462\", label=\"double\\nvg.example.scale @cpu1\""), std::string::npos)
      << dot.str();
  EXPECT_EQ(dot.str().find("npu0"), std::string::npos) << "the legend lists only the targets in use\n" << dot.str();
}

TEST_F(GraphTest, DotOfAnUnverifiedGraphExplainsTheWhiteNodes) {
  vg::Graph g(ctx, "draft");
  auto s = g.add_node("scale", "vg.example.scale");
  g.bind(s, "in", g.add_virtual("x", vg::DataKind::scalar));
  std::ostringstream dot;
  g.write_dot(dot);
  EXPECT_NE(dot.str().find("fillcolor=\"#ffffff\", label=\"scale\\nvg.example.scale @auto\""), std::string::npos)
      << dot.str();
  EXPECT_NE(dot.str().find("<td bgcolor=\"#ffffff\" width=\"16\"></td><td align=\"left\">auto (not verified yet)</td>"),
            std::string::npos)
      << dot.str();
  EXPECT_EQ(dot.str().find(" buffer"), std::string::npos) << "no buffers before verify\n" << dot.str();
}

TEST(ContextTest, ATargetCanBePinnedToACoreAndAnImpossibleCoreIsAClearError) {
  vg::ContextConfig config;
  config.targets = {{"cpu0", "cpu", 0, 64}, {"npu0", "", -1, 64}};
  vg::Context pinned(config);
  // Find vg-cpu0 among this process's threads and read its allowed CPUs.
  std::string allowed;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name != "vg-cpu0") continue;
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("Cpus_allowed_list:", 0) == 0) allowed = line.substr(line.find_last_of("\t ") + 1);
  }
  EXPECT_EQ(allowed, "0");
  EXPECT_EQ(pinned.target_names(), (std::vector<std::string>{"cpu0", "npu0"}));
  config.targets = {{"cpu0", "cpu", 4095, 64}};
  try {
    vg::Context impossible(config);
    FAIL() << "pinning to core 4095 should fail";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("target 'cpu0': cannot pin its thread to core 4095"), std::string::npos) << e.what();
  }
  config.targets = {{"cpu0", "", -1, 64}, {"cpu0", "", -1, 64}};
  EXPECT_THROW(vg::Context twice(config), vg::Error);
}

TEST_F(GraphTest, ModulesCannotLoadTwiceOrUnloadWhileUsed) {
  EXPECT_THROW(ctx.load_module(vg::examples::make_module()), vg::Error);
  {
    vg::Graph g(ctx);
    g.bind(g.add_node("c", "vg.example.counter"), "out", g.add_virtual("o", vg::DataKind::scalar));
    g.verify();
    try {
      ctx.unload_module("vg.example");
      FAIL();
    } catch (const vg::Error& e) {
      EXPECT_NE(std::string(e.what()).find("used by 1 verified graph"), std::string::npos) << e.what();
    }
  }
  ctx.unload_module("vg.example");
  EXPECT_EQ(ctx.find_kernel("vg.example.add"), nullptr);
  EXPECT_THROW(ctx.unload_module("vg.example"), vg::Error);
  ctx.load_module(vg::examples::make_module());  // and back
  EXPECT_NE(ctx.find_kernel("vg.example.add"), nullptr);
}

TEST_F(GraphTest, ANodeOnTheNpuTargetRunsThereAndTargetThreadsAreNamed) {
  vg::Graph g(ctx);
  auto n = g.add_node("n", "vg.test.recorder");
  g.set_target(n, "npu0");
  g.verify();
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(g.node_target(n), "npu0");
  std::set<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.insert(name);
  }
  for (const char* expected : {"vg-cpu0", "vg-cpu1", "vg-npu0"}) EXPECT_TRUE(names.count(expected)) << expected;
}

}  // namespace
