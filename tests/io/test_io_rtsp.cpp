// RTSP against a real server in this process: frames arrive, an unreachable server fails in bounded
// time, and a server that restarts is reconnected to.

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io_test_util.hpp"
#include "rtsp_test_server.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io::test {
namespace {

using vg::test::RtspTestServer;
using Clock = std::chrono::steady_clock;

// A port nothing listens on (bound once to get a free number, then closed).
std::uint16_t closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

TEST(IoRtsp, ReadsTheSampleVideoFromAServer) {
  VG_REQUIRE_SAMPLE_VIDEO();
  RtspTestServer server(RtspTestServer::file_media(sample_video().string()));
  server.start();
  SourceOptions options;
  options.open_timeout = 10s;
  auto source = Source::open(server.url(), options);
  EXPECT_EQ(source->info().kind, SourceKind::rtsp);
  EXPECT_TRUE(source->info().live);
  EXPECT_EQ(source->info().width, 720u);
  EXPECT_EQ(source->info().height, 528u);
  Frame frame;
  for (int i = 0; i < 24; ++i) {
    ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
    EXPECT_EQ(frame.meta.width, 720u);
    EXPECT_EQ(frame.meta.height, 528u);
    EXPECT_EQ(frame.meta.format, ImageFormat::bgr24);
    EXPECT_GE(frame.media_ns, 0);
  }
  source.reset();
  server.stop();
}

TEST(IoRtsp, UnreachableServerFailsInTimeNamingTheUri) {
  const std::string uri = "rtsp://127.0.0.1:" + std::to_string(closed_port()) + "/x";
  SourceOptions options;
  options.open_timeout = 5s;
  const auto t0 = Clock::now();
  try {
    Source::open(uri, options);
    FAIL() << "opened " << uri;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(uri), std::string::npos) << e.what();
  }
  EXPECT_LT(Clock::now() - t0, 7s);
}

// Reads until a frame arrives or @p limit passes; returns whether one came.
bool wait_for_frame(Source& source, Frame& frame, std::chrono::seconds limit, Status* last = nullptr) {
  const auto until = Clock::now() + limit;
  while (Clock::now() < until) {
    const Status status = source.read(frame, 500ms);
    if (last) *last = status;
    if (status == Status::ok) return true;
    if (status != Status::timeout) return false;
  }
  return false;
}

TEST(IoRtsp, ReconnectsWhenTheServerComesBack) {
  RtspTestServer server(RtspTestServer::test_pattern_media(30));
  server.start();
  SourceOptions options;
  options.reconnect = true;
  options.reconnect_initial = 100ms;
  options.reconnect_max = 400ms;
  options.open_timeout = 3s;  // also: no frame for this long counts as a failure
  auto source = Source::open(server.url(), options);
  Frame frame;
  for (int i = 0; i < 5; ++i) ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
  frame = Frame{};

  server.stop();
  // Drain what was in flight; then reads time out (never fail) while the source keeps trying.
  const auto down_until = Clock::now() + 1500ms;
  while (Clock::now() < down_until) {
    const Status status = source->read(frame, 200ms);
    ASSERT_TRUE(status == Status::ok || status == Status::timeout) << to_string(status) << ": " << source->error();
  }
  frame = Frame{};
  server.start();  // the same port again
  const std::uint64_t frames_before = source->stats().frames;
  Status last = Status::ok;
  ASSERT_TRUE(wait_for_frame(*source, frame, 20s, &last)) << to_string(last) << ": " << source->error();
  EXPECT_GT(source->stats().frames, frames_before);
  EXPECT_GE(source->stats().reconnects, 1u);
  RecordProperty("reconnects", std::to_string(source->stats().reconnects));
  RecordProperty("last_error", source->error());
  for (int i = 0; i < 5; ++i) ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
  frame = Frame{};
  source.reset();
  server.stop();
}

TEST(IoRtsp, GivesUpAfterTheAllowedAttempts) {
  RtspTestServer server(RtspTestServer::test_pattern_media(30));
  server.start();
  SourceOptions options;
  options.reconnect = true;
  options.reconnect_initial = 50ms;
  options.reconnect_max = 100ms;
  options.reconnect_attempts = 2;
  options.open_timeout = 2s;
  auto source = Source::open(server.url(), options);
  Frame frame;
  ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
  frame = Frame{};
  server.stop();
  Status status = Status::ok;
  const auto until = Clock::now() + 30s;
  while (Clock::now() < until && (status == Status::ok || status == Status::timeout)) status = source->read(frame, 500ms);
  EXPECT_EQ(status, Status::io_error);
  EXPECT_NE(source->error().find(server.url()), std::string::npos) << source->error();
  EXPECT_GE(source->stats().reconnects, 2u);
  RecordProperty("error", source->error());
}

}  // namespace
}  // namespace vg::io::test
