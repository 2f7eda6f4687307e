// The control protocol without a transport: answer_control_request against a running graph of example
// kernels. The reply texts are the ones `visiongraph ctl` users and tests/cli rely on.

#include <gtest/gtest.h>

#include "service_test_support.hpp"
#include "visiongraph/service/control_protocol.hpp"

namespace {

using vg::service::answer_control_request;
using vg::test::RunningGraph;

class ControlProtocolTest : public ::testing::Test {
 protected:
  std::string ask(std::string_view line) { return answer_control_request(g.graph(), g.context(), line); }
  RunningGraph g;
};

TEST_F(ControlProtocolTest, HelpListsNodesAndCommandsInExecutionOrder) {
  const std::string help = ask("help");
  EXPECT_EQ(help.rfind("ok nodes and commands: ", 0), 0u) << help;
  EXPECT_NE(help.find("adder(vg.example.add)[set_bias:number,get_bias:none]"), std::string::npos) << help;
  EXPECT_NE(help.find("waiter(vg.example.wait)[set_micros:integer]"), std::string::npos) << help;
  EXPECT_EQ(help, vg::service::control_help(g.graph(), g.context()));
  EXPECT_EQ(ask("  help \t"), help);
}

TEST_F(ControlProtocolTest, CommandReachesTheRunningKernelAndItsFrames) {
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
  EXPECT_EQ(ask("adder set_bias 0.6"), "ok bias=0.6");
  EXPECT_EQ(ask("  adder   set_bias   2.5  "), "ok bias=2.5");
  ASSERT_TRUE(g.wait_frames(3));
  EXPECT_DOUBLE_EQ(g.last_sum(), 1 + 1 + 2.5);
  EXPECT_EQ(ask("waiter set_micros 10"), "ok");
}

TEST_F(ControlProtocolTest, BadRequestsGetErrorRepliesAndChangeNothing) {
  EXPECT_EQ(ask("adder set_bias 3"), "ok bias=3");
  EXPECT_EQ(ask(""), "error empty request: expected NODE COMMAND [ARGUMENT] or help");
  EXPECT_EQ(ask("   "), "error empty request: expected NODE COMMAND [ARGUMENT] or help");
  EXPECT_EQ(ask("nobody get_bias"), "error unknown node 'nobody' (send 'help' for the nodes)");
  EXPECT_EQ(ask("addr get_bias"), "error unknown node 'addr'; did you mean 'adder'? (send 'help' for the nodes)");
  EXPECT_EQ(ask("adder get_bais"),
            "error node 'adder' (kernel vg.example.add) has no command 'get_bais'; did you mean 'get_bias'? "
            "(commands: set_bias, get_bias)");
  EXPECT_EQ(ask("adder"), "error missing command for node 'adder' (send 'help' for the commands)");
  EXPECT_EQ(ask("adder explode"),
            "error node 'adder' (kernel vg.example.add) has no command 'explode' (commands: set_bias, get_bias)");
  EXPECT_EQ(ask("adder set_bias high"), "error command 'set_bias' expects a number argument, got 'high'");
  EXPECT_EQ(ask("adder set_bias 0.6x"), "error command 'set_bias' expects a number argument, got '0.6x'");
  EXPECT_EQ(ask("adder set_bias"), "error command 'set_bias' expects a number argument, got ''");
  EXPECT_EQ(ask("adder set_bias inf"), "error command 'set_bias' expects a number argument, got 'inf'");
  EXPECT_EQ(ask("adder set_bias nan"), "error command 'set_bias' expects a number argument, got 'nan'");
  EXPECT_EQ(ask("adder get_bias now"), "error command 'get_bias' takes no argument");
  EXPECT_EQ(ask("waiter set_micros 1.5"), "error command 'set_micros' expects an integer argument, got '1.5'");
  EXPECT_EQ(ask("waiter set_micros 99999999999999999999"),
            "error command 'set_micros' expects an integer argument, got '99999999999999999999'");
  // The kernel refuses a negative sleep: the status comes back as the error.
  EXPECT_EQ(ask("waiter set_micros -5"), "error invalid_argument: an argument is out of range or malformed");
  EXPECT_EQ(ask("adder get_bias"), "ok bias=3") << "none of the bad requests changed the kernel";
  ASSERT_TRUE(g.wait_frames(3));
  EXPECT_DOUBLE_EQ(g.last_sum(), 5.0);
}

TEST(ControlProtocol, AReplicatedNodeTakesCommandsForEveryReplicaOrForOne) {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 64}, {"cpu1", "cpu", -1, 64}};
  vg::Context ctx(config);
  ctx.load_module(vg::examples::make_module());
  vg::Graph graph(ctx, "replicated");
  auto a = graph.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto b = graph.add_data("b", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto sum = graph.add_virtual("sum", vg::DataKind::scalar);
  auto adder = graph.add_node("adder", "vg.example.add");
  graph.bind(adder, "a", a).bind(adder, "b", b).bind(adder, "sum", sum).set_targets(adder, {"cpu0", "cpu1"});
  graph.verify();
  auto ask = [&](std::string_view line) { return answer_control_request(graph, ctx, line); };
  EXPECT_NE(ask("help").find("adder(vg.example.add; 2 replicas, one alone as adder#0..1)[set_bias:number"),
            std::string::npos)
      << ask("help");
  EXPECT_EQ(ask("adder#1 set_bias 2"), "ok replica=1 bias=2");
  EXPECT_EQ(ask("adder#0 get_bias"), "ok replica=0 bias=0") << "only replica 1 took the command";
  EXPECT_EQ(ask("adder set_bias 1.5"), "ok replica=0 bias=1.5");
  EXPECT_EQ(ask("adder#1 get_bias"), "ok replica=1 bias=1.5") << "every replica took it";
  EXPECT_EQ(ask("adder#2 get_bias"), "error node 'adder' has no replica '2' (it has 2: #0..#1)");
  EXPECT_EQ(ask("adder#x get_bias"), "error node 'adder' has no replica 'x' (it has 2: #0..#1)");
  EXPECT_EQ(ask("adder# get_bias"), "error node 'adder' has no replica '' (it has 2: #0..#1)");
  EXPECT_EQ(ask("nobody#1 get_bias"), "error unknown node 'nobody' (send 'help' for the nodes)");
}

TEST(ControlProtocol, UnverifiedGraphAnswersNotVerified) {
  vg::Context ctx;
  ctx.load_module(vg::examples::make_module());
  vg::Graph graph(ctx, "unverified");
  graph.add_node("adder", "vg.example.add");
  EXPECT_EQ(answer_control_request(graph, ctx, "adder get_bias"),
            "error not_verified: the graph or node is not verified");
}

}  // namespace
