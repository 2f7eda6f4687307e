// send_control_request against servers that are absent, silent, refusing or slow (sockets made by the
// test itself, so every misbehaviour is exact).

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstring>
#include <vector>

#include "service_test_support.hpp"
#include "visiongraph/service/control_client.hpp"
#include "visiongraph/service/control_server.hpp"

namespace {

using namespace std::chrono_literals;
using vg::service::send_control_request;
using vg::test::TempDir;
using Clock = std::chrono::steady_clock;

/// A listening socket that never accepts: connections wait in its backlog, nobody answers.
struct SilentListener {
  explicit SilentListener(const std::string& path, int backlog = 4) {
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd, backlog) != 0)
      throw std::runtime_error("cannot listen on " + path);
  }
  ~SilentListener() { ::close(fd); }
  int fd = -1;
};

/// Closes a socket the test opened by hand.
struct OwnedFd {
  explicit OwnedFd(int f) : fd(f) {}
  OwnedFd(OwnedFd&& o) noexcept : fd(o.fd) { o.fd = -1; }
  OwnedFd& operator=(OwnedFd&&) = delete;
  ~OwnedFd() {
    if (fd >= 0) ::close(fd);
  }
  int fd;
};

std::string error_of(const std::string& path, std::string_view line, std::chrono::milliseconds timeout) {
  try {
    return "no error, reply: " + send_control_request(path, line, timeout);
  } catch (const vg::Error& e) {
    return e.what();
  }
}

TEST(ControlClient, MissingSocketNamesThePath) {
  TempDir dir;
  const std::string path = dir / "absent.sock";
  const std::string e = error_of(path, "help", 1s);
  EXPECT_EQ(e.rfind("cannot connect to control socket '" + path + "': No such file or directory", 0), 0u) << e;
}

TEST(ControlClient, StaleSocketIsRefusedAtOnce) {
  TempDir dir;
  const std::string path = dir / "stale.sock";
  vg::test::make_stale_socket(path);
  const auto t0 = Clock::now();
  const std::string e = error_of(path, "help", 5s);
  EXPECT_LT(Clock::now() - t0, 1s);
  EXPECT_NE(e.find("cannot connect to control socket '" + path + "': Connection refused"), std::string::npos) << e;
}

TEST(ControlClient, SilentServerTimesOutWithinTheTimeout) {
  TempDir dir;
  const std::string path = dir / "silent.sock";
  SilentListener server(path);
  const auto t0 = Clock::now();
  const std::string e = error_of(path, "help", 300ms);
  const auto took = Clock::now() - t0;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 2s);
  EXPECT_EQ(e, "control socket '" + path + "': no reply within 300 ms");
}

TEST(ControlClient, FullBacklogTimesOutInsteadOfHanging) {
  TempDir dir;
  const std::string path = dir / "full.sock";
  SilentListener server(path, 0);
  // Fill the backlog with connections nobody accepts, until one more would have to wait.
  std::vector<OwnedFd> queued;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  bool full = false;
  for (int i = 0; i < 64 && !full; ++i) {
    queued.emplace_back(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (::connect(queued.back().fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) full = errno == EAGAIN;
  }
  ASSERT_TRUE(full);
  const auto t0 = Clock::now();
  const std::string e = error_of(path, "help", 300ms);
  EXPECT_LT(Clock::now() - t0, 2s);
  EXPECT_EQ(e, "control socket '" + path + "': the server did not accept the connection within 300 ms");
}

TEST(ControlClient, RequestWithALineBreakIsRefusedBeforeSending) {
  TempDir dir;
  const std::string path = dir / "ctl.sock";
  std::atomic<int> calls{0};
  vg::service::ControlServer server([&](std::string_view) {
    ++calls;
    return std::string("ok");
  });
  server.start(path);
  EXPECT_EQ(error_of(path, "a b\nc d", 1s), "control socket '" + path + "': a request is one line; this one holds a line break");
  EXPECT_EQ(send_control_request(path, "a b", 1s), "ok");
  EXPECT_EQ(calls.load(), 1);
}

TEST(ControlClient, LongReplyArrivesWhole) {
  TempDir dir;
  const std::string path = dir / "ctl.sock";
  vg::service::ControlServer server([](std::string_view) { return "ok " + std::string(20000, 'x'); });
  server.start(path);
  EXPECT_EQ(send_control_request(path, "help", 2s), "ok " + std::string(20000, 'x'));
}

}  // namespace
