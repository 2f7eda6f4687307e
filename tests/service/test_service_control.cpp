// The control socket server against a running graph: what it does with the file at its path, the
// socket's mode, many clients at once, the connection limit, line framing (half lines, pieces, over-long
// lines), idle and non-reading clients, and a bounded stop() that removes only its own socket.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <vector>

#include "service_test_support.hpp"
#include "visiongraph/service/control_client.hpp"
#include "visiongraph/service/control_server.hpp"

namespace {

using namespace std::chrono_literals;
using vg::service::ControlServer;
using vg::service::ControlServerOptions;
using vg::service::send_control_request;
using vg::test::eventually;
using vg::test::RawClient;
using vg::test::RunningGraph;
using vg::test::TempDir;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct stat lstat_of(const std::string& path) {
  struct stat st{};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Names in @p dir other than @p keep (the private bind directories must never be left behind).
std::vector<std::string> leftovers(const fs::path& dir, const std::string& keep) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != keep) out.push_back(e.path().filename().string());
  return out;
}

class ControlServerTest : public ::testing::Test {
 protected:
  std::unique_ptr<ControlServer> make_server(const ControlServerOptions& options = {}) {
    return std::make_unique<ControlServer>(g.graph(), g.context(), options);
  }
  std::string ask(const std::string& line) { return send_control_request(path, line, 5s); }

  RunningGraph g;
  TempDir dir;
  const std::string path = dir / "ctl.sock";
};

// ---- the file at the path ----

TEST_F(ControlServerTest, RegularFileAtThePathIsLeftUntouchedAndStartThrowsNamingIt) {
  { std::ofstream(path) << "precious data"; }
  const struct stat before = lstat_of(path);
  auto server = make_server();
  try {
    server->start(path);
    FAIL() << "start replaced a regular file";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("exists and is not a socket"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not removing it"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(server->is_running());
  const struct stat after = lstat_of(path);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_TRUE(S_ISREG(after.st_mode));
  EXPECT_EQ(read_file(path), "precious data");
  EXPECT_EQ(leftovers(dir.path(), "ctl.sock"), std::vector<std::string>{});
}

TEST_F(ControlServerTest, DirectoryOrSymlinkAtThePathIsRefused) {
  fs::create_directory(path);
  auto server = make_server();
  EXPECT_THROW(server->start(path), vg::Error);
  EXPECT_TRUE(fs::is_directory(path));
  fs::remove(path);
  // A symlink is refused even when it points at a stale socket: the link is not ours to follow.
  const std::string target = dir / "target.sock";
  vg::test::make_stale_socket(target);
  fs::create_symlink(target, path);
  try {
    server->start(path);
    FAIL() << "start went through a symlink";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_symlink(path));
  EXPECT_TRUE(fs::is_socket(target));
}

TEST_F(ControlServerTest, SecondServerOnALiveSocketIsRefusedAndTheFirstKeepsServing) {
  auto first = make_server();
  first->start(path);
  const struct stat before = lstat_of(path);
  auto second = make_server();
  try {
    second->start(path);
    FAIL() << "a second server took over a live socket";
  } catch (const vg::Error& e) {
    EXPECT_EQ(std::string(e.what()), "control socket " + path + " is in use by a running process");
  }
  EXPECT_EQ(lstat_of(path).st_ino, before.st_ino);
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
  EXPECT_EQ(first->requests(), 1u);
}

TEST_F(ControlServerTest, StaleSocketIsReplaced) {
  vg::test::make_stale_socket(path);
  const ino_t stale = lstat_of(path).st_ino;
  auto server = make_server();
  server->start(path);
  const struct stat now = lstat_of(path);
  EXPECT_TRUE(S_ISSOCK(now.st_mode));
  EXPECT_NE(now.st_ino, stale);
  EXPECT_EQ(ask("adder set_bias 1.5"), "ok bias=1.5");
}

TEST_F(ControlServerTest, SocketModeIs0600WhateverTheUmask) {
  for (const mode_t mask : {mode_t{000}, mode_t{077}, mode_t{022}}) {
    const mode_t previous = ::umask(mask);
    auto server = make_server();
    server->start(path);
    ::umask(previous);
    const struct stat st = lstat_of(path);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 07777, 0600u) << "umask " << std::oct << mask;
    EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
    EXPECT_EQ(leftovers(dir.path(), "ctl.sock"), std::vector<std::string>{}) << "the private bind directory is gone";
    server->stop();
    EXPECT_FALSE(fs::exists(fs::symlink_status(path)));
  }
}

TEST_F(ControlServerTest, BadPathsAndOptionsAreRefused) {
  auto server = make_server();
  EXPECT_THROW(server->start(""), vg::Error);
  EXPECT_THROW(server->start(dir / std::string(120, 'x')), vg::Error);
  try {
    server->start("/nonexistent_dir_vg/ctl.sock");
    FAIL();
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent_dir_vg/ctl.sock"), std::string::npos) << e.what();
  }
  ControlServerOptions zero;
  zero.max_connections = 0;
  EXPECT_THROW(make_server(zero), vg::Error);
  EXPECT_THROW(ControlServer(vg::service::ControlRequestHandler{}), vg::Error);
  server->start(path);
  EXPECT_THROW(server->start(path), vg::Error);
  server->stop();
  server->start(path);  // a stopped server starts again
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
}

// ---- many clients ----

TEST_F(ControlServerTest, FiftyConcurrentClientsAllGetTheirOwnReplies) {
  auto server = make_server();  // the default limit (64) lets all 50 be connected at the same moment
  server->start(path);
  constexpr int kClients = 50;
  std::vector<std::string> replies(kClients);
  std::atomic<bool> go{false};
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i)
    clients.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      try {
        replies[i] = send_control_request(path, "adder set_bias " + std::to_string(i), 10s);
      } catch (const std::exception& e) {
        replies[i] = e.what();
      }
    });
  const auto t0 = Clock::now();
  go.store(true);
  for (auto& t : clients) t.join();
  EXPECT_LT(Clock::now() - t0, 10s);
  for (int i = 0; i < kClients; ++i) EXPECT_EQ(replies[i], "ok bias=" + std::to_string(i));
  EXPECT_EQ(server->stats().requests, static_cast<std::uint64_t>(kClients));
  EXPECT_EQ(server->stats().refused, 0u);
  EXPECT_TRUE(g.wait_frames(2)) << "frames kept flowing";
}

TEST_F(ControlServerTest, IdleConnectionsUpToTheLimitDoNotStopAWorkingClient) {
  auto server = make_server();  // the default limit
  const std::size_t limit = server->options().max_connections;
  ASSERT_EQ(limit, 64u);
  server->start(path);
  std::vector<std::unique_ptr<RawClient>> idle;
  for (std::size_t i = 0; i + 1 < limit; ++i) {
    idle.push_back(std::make_unique<RawClient>(path));
    ASSERT_TRUE(idle.back()->connected());
  }
  ASSERT_TRUE(eventually([&] { return server->stats().open == limit - 1; }));
  const auto t0 = Clock::now();
  EXPECT_EQ(ask("adder set_bias 4"), "ok bias=4");  // the last free connection
  EXPECT_LT(Clock::now() - t0, 2s);
  ASSERT_TRUE(eventually([&] { return server->stats().open == limit - 1; })) << "the working client's connection is closed";

  idle.push_back(std::make_unique<RawClient>(path));  // now `limit` idle ones
  ASSERT_TRUE(eventually([&] { return server->stats().open == limit; }));
  EXPECT_TRUE(idle.back()->silent_for(50ms)) << "the last one is served, not refused";
  EXPECT_EQ(server->stats().refused, 0u);
  RawClient extra(path);  // one too many
  ASSERT_TRUE(extra.connected());
  EXPECT_EQ(extra.read_line(5s), std::optional<std::string>("error too many connections"));
  EXPECT_TRUE(extra.closed_within(5s));
  EXPECT_EQ(ask("adder get_bias"), "error too many connections");
  EXPECT_EQ(server->stats().refused, 2u);

  idle.front()->close();  // one slot free again
  ASSERT_TRUE(eventually([&] { return server->stats().open == limit - 1; }));
  EXPECT_EQ(ask("adder get_bias"), "ok bias=4");
  for (std::size_t i = 1; i < idle.size(); ++i) EXPECT_TRUE(idle[i]->silent_for(10ms)) << "idle ones stay open";
}

// ---- framing ----

TEST_F(ControlServerTest, HalfLineIsNeverExecuted) {
  auto server = make_server();
  server->start(path);
  for (const char* cut : {"adder set_bias 7", "adder set_bias 0.", "adder set_bias 7\r"}) {
    RawClient client(path);
    ASSERT_TRUE(client.send(cut));
    EXPECT_TRUE(client.silent_for(100ms)) << "no reply without a newline";
    client.close();
  }
  ASSERT_TRUE(eventually([&] { return server->stats().partial_discarded == 3 && server->stats().open == 0; }));
  EXPECT_EQ(server->requests(), 0u);
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
  ASSERT_TRUE(g.wait_frames(3));
  EXPECT_DOUBLE_EQ(g.last_sum(), 2.0) << "the frames never saw another bias";
}

TEST_F(ControlServerTest, LineInTwoPiecesIsExecutedOnceComplete) {
  auto server = make_server();
  server->start(path);
  RawClient client(path);
  ASSERT_TRUE(client.send("adder set_bias 0."));
  EXPECT_TRUE(client.silent_for(300ms));
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0") << "the first piece alone did nothing";
  ASSERT_TRUE(client.send("6\n"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("ok bias=0.6"));
  ASSERT_TRUE(g.wait_frames(3));
  EXPECT_DOUBLE_EQ(g.last_sum(), 2.6);
}

TEST_F(ControlServerTest, RequestsOfOneConnectionAreAnsweredInOrder) {
  auto server = make_server();
  server->start(path);
  RawClient client(path);
  ASSERT_TRUE(client.send("adder set_bias 1\nadder set_bias 2\r\nnobody x\n\nadder get_bias\nhelp\n"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("ok bias=1"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("ok bias=2"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("error unknown node 'nobody' (send 'help' for the nodes)"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("error empty request: expected NODE COMMAND [ARGUMENT] or help"));
  EXPECT_EQ(client.read_line(), std::optional<std::string>("ok bias=2"));
  const auto help = client.read_line();
  ASSERT_TRUE(help.has_value());
  EXPECT_EQ(help->rfind("ok nodes and commands: adder(vg.example.add)", 0), 0u) << *help;
  // Complete lines sent just before the client closes its side are still answered.
  RawClient half(path);
  ASSERT_TRUE(half.send("adder get_bias\n"));
  ASSERT_EQ(::shutdown(half.fd(), SHUT_WR), 0);
  EXPECT_EQ(half.read_line(), std::optional<std::string>("ok bias=2"));
  EXPECT_TRUE(half.closed_within(5s));
}

TEST_F(ControlServerTest, OverLongLineIsRefusedAndNeverExecuted) {
  auto server = make_server();
  server->start(path);
  {  // with its newline: padding that trimming would have ignored, so executing it would have worked
    RawClient client(path);
    ASSERT_TRUE(client.send("adder set_bias 7" + std::string(5000, ' ') + "\n"));
    EXPECT_EQ(client.read_line(), std::optional<std::string>("error request too long"));
    EXPECT_TRUE(client.closed_within(5s));
  }
  {  // without one: refused as soon as it is longer than the limit
    RawClient client(path);
    ASSERT_TRUE(client.send("adder set_bias 7" + std::string(5000, ' ')));
    EXPECT_EQ(client.read_line(), std::optional<std::string>("error request too long"));
    EXPECT_TRUE(client.closed_within(5s));
  }
  EXPECT_EQ(server->stats().too_long, 2u);
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
  {  // exactly at the limit: answered
    std::string line = "adder set_bias 3";
    line += std::string(4096 - line.size(), ' ');
    RawClient client(path);
    ASSERT_TRUE(client.send(line + "\n"));
    EXPECT_EQ(client.read_line(), std::optional<std::string>("ok bias=3"));
  }
}

// ---- clients that misbehave ----

TEST_F(ControlServerTest, IdleConnectionIsClosedAfterTheTimeout) {
  ControlServerOptions options;
  options.idle_timeout = 300ms;
  auto server = make_server(options);
  server->start(path);
  RawClient idle(path);
  RawClient busy(path);
  const auto t0 = Clock::now();
  // The busy one keeps talking and stays open; the idle one is closed.
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(busy.send("adder get_bias\n"));
    EXPECT_EQ(busy.read_line(), std::optional<std::string>("ok bias=0"));
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(idle.closed_within(3s));
  EXPECT_GE(Clock::now() - t0, 300ms);
  ASSERT_TRUE(busy.send("adder get_bias\n"));
  EXPECT_EQ(busy.read_line(), std::optional<std::string>("ok bias=0"));
  EXPECT_EQ(server->stats().idle_closed, 1u);
}

// One byte now and then keeps a connection from ever being idle; the line timeout still closes it, so
// slow clients cannot hold the connection slots. A line sent at once is unaffected.
TEST_F(ControlServerTest, ALineTrickledSlowerThanTheLineTimeoutIsRefusedAndClosed) {
  ControlServerOptions options;
  options.idle_timeout = 10s;
  options.line_timeout = 400ms;
  auto server = make_server(options);
  server->start(path);
  RawClient slow(path);
  RawClient quick(path);
  const auto t0 = Clock::now();
  bool closed = false;
  for (char c : std::string("adder get_bias")) {  // one byte every 100 ms: 1.4 s for the line
    if (!slow.send(std::string(1, c))) {
      closed = true;
      break;
    }
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(slow.read_line(), std::optional<std::string>("error request not completed in time"));
  EXPECT_TRUE(closed || slow.closed_within(3s));
  EXPECT_GE(Clock::now() - t0, 400ms);
  EXPECT_EQ(server->stats().slow_closed, 1u);
  EXPECT_EQ(server->stats().requests, 0u) << "the unfinished line was never executed";
  ASSERT_TRUE(quick.send("adder get_bias\n"));
  EXPECT_EQ(quick.read_line(), std::optional<std::string>("ok bias=0"));
}

TEST_F(ControlServerTest, ClientNotReadingItsRepliesDoesNotBlockTheOthers) {
  ControlServerOptions options;
  options.max_pending_output = 1 << 20;  // room for every reply: this client stays connected
  auto server = make_server(options);
  server->start(path);
  RawClient lazy(path);
  std::string burst;
  for (int i = 0; i < 2000; ++i) burst += "help\n";
  ASSERT_TRUE(lazy.send(burst));  // far more replies than its socket buffer holds; it reads none yet
  ASSERT_TRUE(eventually([&] { return server->stats().requests == 2000; }, 10s));
  const auto t0 = Clock::now();
  EXPECT_EQ(ask("adder set_bias 5"), "ok bias=5");
  EXPECT_LT(Clock::now() - t0, 2s);
  EXPECT_TRUE(eventually([&] { return server->stats().open == 1; })) << "the lazy client is still connected";
  for (int i = 0; i < 2000; ++i) {  // and gets every reply, in order, once it reads
    const auto line = lazy.read_line();
    ASSERT_TRUE(line.has_value()) << "reply " << i;
    ASSERT_EQ(line->rfind("ok nodes and commands: adder", 0), 0u) << *line;
  }
}

TEST_F(ControlServerTest, ClientWhoseRepliesOverflowIsDroppedAndOthersAreServed) {
  ControlServerOptions options;
  options.max_pending_output = 4096;
  auto server = make_server(options);
  server->start(path);
  RawClient flooder(path);
  ASSERT_TRUE(flooder.connected());
  ASSERT_EQ(::fcntl(flooder.fd(), F_SETFL, O_NONBLOCK), 0);
  std::string burst;
  for (int i = 0; i < 200; ++i) burst += "help\n";
  bool dropped = false;
  const auto deadline = Clock::now() + 20s;
  while (!dropped && Clock::now() < deadline) {
    const ssize_t n = ::send(flooder.fd(), burst.data(), burst.size(), MSG_NOSIGNAL);
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) dropped = true;
    if (n < 0 && errno == EAGAIN) std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(dropped) << "the server kept a client that never reads";
  EXPECT_EQ(server->stats().overflow_closed, 1u);
  EXPECT_EQ(ask("adder get_bias"), "ok bias=0");
}

// ---- stop ----

TEST_F(ControlServerTest, StopWithClientsConnectedIsBoundedAndRemovesTheSocket) {
  auto server = make_server();
  server->start(path);
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < 10; ++i) clients.push_back(std::make_unique<RawClient>(path));
  ASSERT_TRUE(clients[0]->send("adder set_bias 9"));  // a half line in flight
  ASSERT_TRUE(eventually([&] { return server->stats().open == 10; }));
  const auto t0 = Clock::now();
  server->stop();
  EXPECT_LT(Clock::now() - t0, 1s);
  EXPECT_FALSE(server->is_running());
  EXPECT_FALSE(fs::exists(fs::symlink_status(path)));
  for (auto& c : clients) EXPECT_TRUE(c->closed_within(2s));
  EXPECT_EQ(leftovers(dir.path(), ""), std::vector<std::string>{});
  vg::CommandReply reply;
  ASSERT_EQ(g.graph().send_command(g.graph().find_node("adder"), vg::ControlCommand::make(vg::examples::kGetBias), 2s,
                                   &reply),
            vg::Status::ok);
  EXPECT_EQ(reply.text(), "bias=0");
  server->stop();  // idempotent
}

TEST_F(ControlServerTest, StopLeavesASocketFileReplacedBySomeoneElse) {
  auto server = make_server();
  server->start(path);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  vg::test::make_stale_socket(path);  // someone else's socket now has the name
  const ino_t theirs = lstat_of(path).st_ino;
  server->stop();
  ASSERT_TRUE(fs::is_socket(path)) << "stop() removed a socket it did not create";
  EXPECT_EQ(lstat_of(path).st_ino, theirs);
}

TEST_F(ControlServerTest, StopWaitsForASlowHandlerOnlyAsLongAsItRuns) {
  std::atomic<bool> in_handler{false};
  ControlServer server([&](std::string_view) {
    in_handler.store(true);
    std::this_thread::sleep_for(300ms);
    return std::string("ok slow");
  });
  server.start(path);
  RawClient client(path);
  ASSERT_TRUE(client.send("anything\nnever answered\n"));
  ASSERT_TRUE(eventually([&] { return in_handler.load(); }));
  const auto t0 = Clock::now();
  server.stop();
  EXPECT_LT(Clock::now() - t0, 1s);
  EXPECT_EQ(server.requests(), 1u) << "the second line was not started after stop()";
  EXPECT_FALSE(fs::exists(fs::symlink_status(path)));
}

TEST_F(ControlServerTest, HandlerExceptionsAndLineBreaksInRepliesKeepOneLinePerReply) {
  ControlServer server([](std::string_view line) -> std::string {
    if (line == "throw") throw std::runtime_error("boom");
    return "ok two\nlines";
  });
  server.start(path);
  EXPECT_EQ(ask("throw"), "error internal error: boom");
  EXPECT_EQ(ask("x"), "ok two lines");
}

}  // namespace
