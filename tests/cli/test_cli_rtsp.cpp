// `visiongraph run` on a real RTSP stream: a gst-rtsp-server started by the test on 127.0.0.1 (free port)
// serves the sample video without re-encoding. The detections must equal the file run's on the frames
// received; a slow graph must drop frames (counted) and let the newest win; errors name the source.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <map>
#include <thread>
#include <nlohmann/json.hpp>

#include "cli_files.hpp"
#include "cli_runner.hpp"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtsp_test_server.hpp"
#include "visiongraph/io/source.hpp"

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";
const std::string kSlowFace = VG_SOURCE_DIR "/tests/cli/data/face_detect_slow.yaml";
constexpr double kFramePeriodNs = 1e9 * 125.0 / 2997.0;  // Megamind.avi: 23.976 fps

using vg::test::read_jsonl;

class RtspCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "Megamind.avi"}))
      GTEST_SKIP() << "assets missing in " << vg::test::assets_dir() << ": run scripts/fetch_assets.sh";
    base = fs::temp_directory_path() / ("vg_cli_rtsp_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base);
    fs::create_directories(base);
  }
  void TearDown() override { fs::remove_all(base); }
  std::string video() const { return (vg::test::assets_dir() / "Megamind.avi").string(); }
  fs::path base;
};

TEST_F(RtspCliTest, DetectionsFromTheStreamEqualTheFileRunOnTheFramesReceived) {
  const auto file_run = run_cli("run " + kFace + " --no-progress --input " + video() + " -o " + (base / "file").string());
  ASSERT_EQ(file_run.code, 0) << file_run.output;
  const auto file_lines = read_jsonl(base / "file" / "detections.jsonl");
  ASSERT_EQ(file_lines.size(), 270u);

  vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(video()));
  server.start();
  const auto rtsp_run =
      run_cli("run " + kFace + " --no-progress --input " + server.url() + " -o " + (base / "rtsp").string());
  server.stop();
  // A live stream is not expected to end: its normal end is a lost input (exit status 1, named).
  ASSERT_EQ(rtsp_run.code, 1) << rtsp_run.output;
  EXPECT_NE(rtsp_run.output.find(server.url() + ": the live stream ended"), std::string::npos) << rtsp_run.output;
  EXPECT_NE(rtsp_run.output.find("source " + server.url() + ": rtsp"), std::string::npos) << rtsp_run.output;
  const auto lines = read_jsonl(base / "rtsp" / "detections.jsonl");
  ASSERT_GT(lines.size(), 200u) << "most of the 270 frames arrive over loopback";

  // Stream timestamps count from the stream's start: map each to a file frame by its distance from the
  // first one, with the first frame received taken as the file frame it matches best.
  const double t0 = lines[0]["timestamp_ns"].get<double>();
  auto file_index = [&](const json& line, int first) {
    return first + static_cast<int>(std::lround((line["timestamp_ns"].get<double>() - t0) / kFramePeriodNs));
  };
  auto same = [](const json& a, const json& b) {
    if (a["detections"].size() != b["detections"].size()) return false;
    for (std::size_t i = 0; i < a["detections"].size(); ++i) {
      const auto ba = a["detections"][i]["box"].get<std::vector<double>>();
      const auto bb = b["detections"][i]["box"].get<std::vector<double>>();
      for (int k = 0; k < 4; ++k)
        if (std::fabs(ba[k] - bb[k]) > 0.5) return false;
    }
    return true;
  };
  int best_first = 0, best_matches = -1;
  // Under load the first frames may be lost before the graph (a live source keeps only the newest),
  // so the first line received can be well into the clip: try every plausible start.
  for (int first = 0; first < 60; ++first) {
    int matches = 0;
    for (const auto& line : lines) {
      const int k = file_index(line, first);
      if (!line.contains("detections") || k < 0 || k >= 270) continue;
      matches += same(line, file_lines[static_cast<std::size_t>(k)]) ? 1 : 0;
    }
    if (matches > best_matches) best_matches = matches, best_first = first;
  }
  int compared = 0, equal = 0, with_faces = 0;
  for (const auto& line : lines) {
    const int k = file_index(line, best_first);
    if (!line.contains("detections") || k < 0 || k >= 270) continue;
    ++compared;
    // Which file frame a stream frame is follows from its timestamp; the sample repeats timestamps
    // (packed B-frames), and a repeat the appsink dropped under load before it was read shifts the
    // mapping by one. So a frame is identified as k or a neighbour; its detections must equal that
    // frame's exactly.
    bool matched = false;
    for (int d : {0, -1, 1})
      if (k + d >= 0 && k + d < 270 && same(line, file_lines[static_cast<std::size_t>(k + d)])) matched = true;
    if (matched) ++equal;
    if (!line["detections"].empty()) ++with_faces;
    EXPECT_TRUE(line.contains("capture_ns")) << line.dump();
    EXPECT_TRUE(line.contains("latency_ms")) << line.dump();
  }
  // A live stream loses frames to latest-wins when the machine is busy (by design: 270 sent, often all
  // arrive); every frame that was processed is compared.
  EXPECT_GT(compared, 100);
  // The same bits are decoded by the same decoder: the detections are the file run's, frame for frame.
  EXPECT_EQ(equal, compared) << "frames whose detections differ from the file run";
  EXPECT_GT(with_faces, compared * 9 / 10);
}

TEST_F(RtspCliTest, ASlowGraphDropsFramesCountsThemAndTheNewestWins) {
  vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(video()));
  server.start();
  const auto r = run_cli("run " + kSlowFace + " --no-progress --allow-partial --input " + server.url() + " -o " +
                         (base / "slow").string());
  server.stop();
  ASSERT_EQ(r.code, 0) << "--allow-partial accepts the end of the stream\n" << r.output;
  EXPECT_NE(r.output.find("the live stream ended"), std::string::npos) << "and still says so\n" << r.output;
  const auto lines = read_jsonl(base / "slow" / "detections.jsonl");
  ASSERT_FALSE(lines.empty());
  std::size_t dropped = 0, done = 0;
  std::int64_t last_done = -1, last_frame = -1;
  for (const auto& line : lines) {
    const std::int64_t frame = line["frame"];
    EXPECT_GT(frame, last_frame) << "one line per frame, in frame order";
    last_frame = frame;
    if (line.value("dropped", false)) {
      ++dropped;
    } else {
      ++done;
      last_done = frame;
    }
  }
  // 80 ms per frame against 24 frames/s: about two of three frames must give way to newer ones.
  EXPECT_GT(dropped, lines.size() / 3) << r.output;
  EXPECT_GT(done, 10u);
  EXPECT_EQ(last_done, last_frame) << "the newest frame is never the one dropped";
  EXPECT_NE(r.output.find(std::to_string(dropped) + " dropped"), std::string::npos) << r.output;
}

TEST_F(RtspCliTest, AnUnreachableServerIsAnErrorNamingTheUrl) {
  // A port nobody listens on: start a server to learn a free port, then stop it.
  vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(video()));
  server.start();
  const std::string url = server.url();
  server.stop();
  const auto r = run_cli("run " + kFace + " --no-progress --input " + url + " -o " + (base / "none").string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find(url), std::string::npos) << r.output;
}

TEST_F(RtspCliTest, AStreamThatDiesMidRunWritesWhatItHasAndExitsNonZero) {
  vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(video()));
  server.start();
  const std::string cmd = "run " + kFace + " --no-progress --input " + server.url() + " -o " + (base / "cut").string();
  // The camera goes away once the run has written 10 lines (they are flushed line by line), however
  // slow the machine; a bounded wait, so a run that never writes still ends the test.
  std::size_t lines_at_loss = 0;
  std::thread killer([&] {
    const auto jsonl = base / "cut" / "detections.jsonl";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
      std::ifstream in(jsonl);
      std::size_t n = 0;
      for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
      if (n >= 10) {
        lines_at_loss = n;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    server.stop();
  });
  const auto r = run_cli(cmd);
  killer.join();
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find(server.url()), std::string::npos) << "the error names the source: " << r.output;
  const auto lines = read_jsonl(base / "cut" / "detections.jsonl");
  EXPECT_GE(lines_at_loss, 10u) << "the run wrote 10 lines within 60 s";
  EXPECT_GE(lines.size(), lines_at_loss) << "everything received before the loss is written";
  EXPECT_TRUE(fs::exists(base / "cut" / "trace.json"));
  EXPECT_GT(fs::file_size(base / "cut" / "annotated.mp4"), 0u);
}

// A camera that hangs (its server frozen by SIGSTOP, the connection left open) ends the run with an error
// naming the stall, instead of a silent exit 0 or a run that never ends.
TEST_F(RtspCliTest, AFrozenServerEndsTheRunWithAStallError) {
  int out_pipe[2];
  ASSERT_EQ(::pipe(out_pipe), 0);
  const pid_t server = ::fork();
  ASSERT_GE(server, 0);
  if (server == 0) {  // exec at once: nothing of this process's state is used in the child
    ::dup2(out_pipe[1], 1);
    ::close(out_pipe[0]);
    ::execl(VG_TEST_RTSP_SERVE, VG_TEST_RTSP_SERVE, video().c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  std::string url;
  char c = 0;
  while (::read(out_pipe[0], &c, 1) == 1 && c != '\n') url += c;
  ::close(out_pipe[0]);
  ASSERT_EQ(url.rfind("rtsp://127.0.0.1:", 0), 0u) << url;
  std::thread freezer([&] {
    const auto jsonl = base / "frozen" / "detections.jsonl";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < give_up) {
      std::ifstream in(jsonl);
      std::size_t n = 0;
      for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
      if (n >= 5) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(server, SIGSTOP);
  });
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_cli("run " + kFace + " --no-progress --input " + url + " -o " + (base / "frozen").string());
  const auto took = std::chrono::steady_clock::now() - started;
  freezer.join();
  ::kill(server, SIGKILL);
  ::waitpid(server, nullptr, 0);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find(url + ": no frame for 10000 ms"), std::string::npos) << r.output;
  EXPECT_LT(took, std::chrono::seconds(120)) << "bounded: the stall is found after the open timeout";
  EXPECT_GE(read_jsonl(base / "frozen" / "detections.jsonl").size(), 5u);
}

// With --reconnect an outage is logged while it happens (one line when the input is lost, one when it is
// back, rate-limited), and the run goes on after the camera returns.
TEST_F(RtspCliTest, AnOutageIsLoggedAsItHappensAndTheRunReconnects) {
  vg::test::RtspTestServer server(vg::test::RtspTestServer::test_pattern_media(30));
  server.start();
  const fs::path out = base / "outage";
  vg::test::CliResult r;
  std::thread runner([&] {
    r = run_cli("run " + kFace + " --no-progress --reconnect --frames 150 --input " + server.url() + " -o " + out.string());
  });
  auto lines_now = [&] {
    std::ifstream in(out / "detections.jsonl");
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
    return n;
  };
  auto wait_lines = [&](std::size_t n) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (lines_now() < n && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return lines_now() >= n;
  };
  const bool started = wait_lines(10);
  server.stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  server.start();  // the same port: a camera that came back
  runner.join();
  server.stop();
  EXPECT_TRUE(started) << r.output;
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find(server.url() + ": lost: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(server.url() + ": receiving again ("), std::string::npos) << r.output;
}

// A minimal HTTP/1.1 server on 127.0.0.1 (free port) serving one file, as an IP camera's or a web
// server's URL would: enough for GStreamer's souphttpsrc.
class FileHttpServer {
 public:
  explicit FileHttpServer(fs::path file) : file_(std::move(file)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 4) != 0)
      throw std::runtime_error("http test server: cannot listen");
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~FileHttpServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/" + file_.filename().string(); }
  int requests() const { return requests_.load(); }

 private:
  void serve() {
    while (!stop_) {
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) return;
      std::string request;
      char buf[1024];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(client, buf, sizeof buf, 0);
        if (n <= 0) break;
        request.append(buf, static_cast<std::size_t>(n));
      }
      ++requests_;
      std::ifstream in(file_, std::ios::binary);
      const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: video/x-msvideo\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
      const std::string reply = head + body;
      for (std::size_t sent = 0; sent < reply.size();) {
        const ssize_t n = ::send(client, reply.data() + sent, reply.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
      ::close(client);
    }
  }
  fs::path file_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

TEST_F(RtspCliTest, AnHttpUrlIsReadAsALiveStream) {
  FileHttpServer server(video());
  const auto r = run_cli("run " + kFace + " --no-progress --input " + server.url() + " -o " + (base / "http").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_GE(server.requests(), 1);
  EXPECT_NE(r.output.find("source " + server.url() + ": http"), std::string::npos) << r.output;
  // The whole file arrives over loopback; as a live source it keeps only the newest frame when the graph
  // is busy, so how many frames are detected (rather than dropped) depends on the machine's load.
  // Every frame is either read by the graph or dropped before it (both counted in the report).
  const std::size_t read_at = r.output.find("frames: ");
  const std::size_t dropped_end = r.output.find(" dropped before the graph");
  ASSERT_NE(read_at, std::string::npos) << r.output;
  ASSERT_NE(dropped_end, std::string::npos) << r.output;
  const std::size_t dropped_at = r.output.rfind(' ', dropped_end - 1) + 1;
  const unsigned long read = std::stoul(r.output.substr(read_at + 8));
  const unsigned long dropped = std::stoul(r.output.substr(dropped_at));
  EXPECT_EQ(read + dropped, 270u) << "the file arrives whole\n" << r.output;
  const auto lines = read_jsonl(base / "http" / "detections.jsonl");
  ASSERT_GT(lines.size(), 10u);
  std::size_t with_faces = 0;
  for (const auto& l : lines) with_faces += l.contains("detections") && !l["detections"].empty();
  EXPECT_GT(with_faces, 0u) << "frames that were not dropped are detected";
}

TEST_F(RtspCliTest, TheAnnotatedVideoIsServedLiveOverRtsp) {
  // A free port: bind port 0 and let go of it (the run binds it a moment later).
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  ::close(probe);
  std::thread run([&] {
    const auto r = run_cli("run " + kFace + " --no-progress --realtime --input " + video() + " -o " +
                           (base / "served").string() + " --serve-rtsp " + std::to_string(port));
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("rtsp://127.0.0.1:" + std::to_string(port) + "/annotated"), std::string::npos) << r.output;
  });
  // A viewer: visiongraph's own RTSP source (GStreamer rtspsrc) reads the stream back.
  const std::string url = "rtsp://127.0.0.1:" + std::to_string(port) + "/annotated";
  std::unique_ptr<vg::io::Source> viewer;
  for (int i = 0; i < 40 && !viewer; ++i) {
    std::this_thread::sleep_for(250ms);
    try {
      vg::io::SourceOptions o;
      o.open_timeout = 3s;
      viewer = vg::io::Source::open(url, o);
    } catch (const std::exception&) {
    }
  }
  ASSERT_TRUE(viewer) << "could not connect to " << url;
  EXPECT_EQ(viewer->info().width, 720u);
  EXPECT_EQ(viewer->info().height, 528u);
  int frames = 0;
  vg::io::Frame f;
  while (frames < 30 && viewer->read(f, 5s) == vg::Status::ok) {
    ++frames;
    f.lease.release();
  }
  EXPECT_GE(frames, 30) << "frames of the annotated video arrive live";
  viewer.reset();
  run.join();
}

}  // namespace
