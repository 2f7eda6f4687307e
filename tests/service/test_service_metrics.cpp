// The figures of a running graph as JSON and Prometheus text, and the HTTP endpoint that serves the
// latter, checked with real clients: curl for HTTP and Prometheus's own linter (promtool check metrics).

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "service_test_support.hpp"
#include "visiongraph/service/metrics_server.hpp"
#include "visiongraph/service/run_stats.hpp"

namespace {

using namespace vg;
using namespace vg::service;
using namespace std::chrono_literals;

struct Command {
  int code = -1;
  std::string output;
};

Command run(const std::string& command) {
  Command r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

RunCounters some_counters() {
  RunCounters r;
  r.source = "rtsp://127.0.0.1:8554/cam \"one\"\\x";  // a quote and a backslash: escaped in labels
  r.live = true;
  r.frames_read = 120;
  r.frames_resolved = 118;
  r.frames_failed = 2;
  r.frames_dropped = 7;
  r.source_dropped = 3;
  r.reconnects = 1;
  r.uptime_seconds = 4.5;
  r.resident_bytes = 200 << 20;
  r.resident_bytes_start = 150 << 20;
  return r;
}

/// promtool's verdict on @p text: "" when it accepts it, else its complaints.
std::string promtool_check(const std::string& text) {
  const test::TempDir dir;
  const auto file = dir.path() / "metrics.txt";
  std::ofstream(file) << text;
  const Command c = run("promtool check metrics < " + file.string());
  return c.code == 0 ? std::string() : c.output;
}

TEST(RunStatsTest, JsonHasTheFiguresOfTheGraphAndTheRun) {
  test::RunningGraph running;
  ASSERT_TRUE(running.wait_frames(20));
  const nlohmann::json j = nlohmann::json::parse(stats_json(running.graph().stats(), some_counters()));
  EXPECT_EQ(j["graph"], "service_test");
  EXPECT_EQ(j["frames"]["read"], 120);
  EXPECT_EQ(j["frames"]["failed"], 2);
  EXPECT_EQ(j["frames"]["dropped"], 7);
  EXPECT_GE(j["frames"]["completed"].get<int>(), 20);
  EXPECT_EQ(j["source"]["reconnects"], 1);
  EXPECT_EQ(j["source"]["dropped"], 3);
  EXPECT_EQ(j["memory"]["growth_bytes"], 50 << 20);
  EXPECT_GT(j["fps"].get<double>(), 0.0);
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["name"], "adder");
  EXPECT_GE(j["nodes"][0]["executions"].get<int>(), 20);
  EXPECT_TRUE(j["nodes"][0].contains("p99_ms"));
  EXPECT_EQ(j["nodes"][0]["stuck"], false);
  EXPECT_TRUE(j["latency_ms"].contains("p50"));
}

TEST(RunStatsTest, TheNewestFrameStagesAppearAsLastFrameInMillisecondsFromCapture) {
  StageTimes t;
  t.sample.sequence = 41;
  t.sample.count = 2;
  t.sample.stages[0] = StageSample{"letterbox", 1'000'500'000, 1'002'000'000, Status::ok, 0};
  t.sample.stages[1] = StageSample{"detector[npu1]", 1'002'100'000, 1'022'100'000, Status::inference_error, -7};
  t.sample.failed_mask = 2;
  t.sample.runtime_code = -7;
  t.origin_ns = 1'000'000'000;
  t.from_capture = true;
  t.done_ns = 1'022'300'000;
  t.written_ns = 1'022'400'000;
  const nlohmann::json one = nlohmann::json::parse(stage_times_json(t));
  EXPECT_EQ(one["frame"], 41);
  EXPECT_EQ(one["from"], "capture");
  ASSERT_EQ(one["stages"].size(), 2u);
  EXPECT_EQ(one["stages"][0]["node"], "letterbox");
  EXPECT_DOUBLE_EQ(one["stages"][0]["start_ms"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(one["stages"][0]["ms"].get<double>(), 1.5);
  EXPECT_EQ(one["stages"][0]["status"], "ok");
  EXPECT_FALSE(one["stages"][0].contains("code"));
  EXPECT_EQ(one["stages"][1]["status"], "inference_error");
  EXPECT_EQ(one["stages"][1]["code"], -7);
  EXPECT_DOUBLE_EQ(one["done_ms"].get<double>(), 22.3);
  EXPECT_DOUBLE_EQ(one["written_ms"].get<double>(), 22.4);
  EXPECT_EQ(one["failed_mask"], 2);
  EXPECT_EQ(one["runtime_code"], -7);

  test::RunningGraph running;
  ASSERT_TRUE(running.wait_frames(5));
  RunCounters counters = some_counters();
  EXPECT_FALSE(nlohmann::json::parse(stats_json(running.graph().stats(), counters)).contains("last_frame"));
  counters.last_frame = t;
  const nlohmann::json j = nlohmann::json::parse(stats_json(running.graph().stats(), counters));
  EXPECT_EQ(j["last_frame"], one);
}

TEST(RunStatsTest, PrometheusTextPassesPromtoolAndEscapesLabels) {
  test::RunningGraph running;
  ASSERT_TRUE(running.wait_frames(20));
  const std::string text = prometheus_text(running.graph().stats(), some_counters());
  EXPECT_EQ(promtool_check(text), "") << text;
  EXPECT_NE(text.find("visiongraph_frames_total{graph=\"service_test\",outcome=\"read\"} 120"), std::string::npos) << text;
  EXPECT_NE(text.find("source=\"rtsp://127.0.0.1:8554/cam \\\"one\\\"\\\\x\""), std::string::npos) << text;
  EXPECT_NE(text.find("visiongraph_node_executions_total{graph=\"service_test\",node=\"adder\",kernel=\"vg.example.add\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("visiongraph_resident_memory_growth_bytes{graph=\"service_test\"} 52428800"), std::string::npos) << text;
}

TEST(RunStatsTest, SeveralStreamsShareEachFamilyWithAStreamLabelAndPassPromtool) {
  test::RunningGraph running;
  ASSERT_TRUE(running.wait_frames(5));
  RunCounters door = some_counters(), yard = some_counters();
  door.stream = "door";
  yard.stream = "yard";
  yard.frames_read = 77;
  const std::string text = prometheus_text({{running.graph().stats(), door}, {running.graph().stats(), yard}});
  EXPECT_EQ(promtool_check(text), "") << text;  // each family once (HELP, TYPE), a series per stream
  EXPECT_NE(text.find("visiongraph_frames_total{graph=\"service_test\",stream=\"door\",outcome=\"read\"} 120"),
            std::string::npos) << text;
  EXPECT_NE(text.find("visiongraph_frames_total{graph=\"service_test\",stream=\"yard\",outcome=\"read\"} 77"),
            std::string::npos) << text;
  EXPECT_NE(text.find("visiongraph_node_executions_total{graph=\"service_test\",stream=\"yard\",node=\"adder\""),
            std::string::npos) << text;
  std::size_t families = 0;
  for (std::size_t at = text.find("# TYPE visiongraph_frames_total "); at != std::string::npos;
       at = text.find("# TYPE visiongraph_frames_total ", at + 1))
    ++families;
  EXPECT_EQ(families, 1u);
  // The JSON of one stream names it.
  EXPECT_EQ(nlohmann::json::parse(stats_json(running.graph().stats(), door))["stream"], "door");
  EXPECT_FALSE(nlohmann::json::parse(stats_json(running.graph().stats(), some_counters())).contains("stream"));
}

TEST(RunStatsTest, PromtoolRejectsBrokenText) {  // the linter is really consulted
  EXPECT_NE(promtool_check("# TYPE x counter\nx{a=\"1\"} 1\n"), "");
}

TEST(RunStatsTest, ResidentMemoryIsTheProcessRss) {
  const std::int64_t before = resident_memory_bytes();
  EXPECT_GT(before, 1 << 20);
  std::vector<char> touched(64 << 20, 1);  // 64 MiB written: resident
  EXPECT_GT(resident_memory_bytes(), before + (48 << 20));
  EXPECT_EQ(touched[12345], 1);
}

class MetricsServerTest : public ::testing::Test {
 protected:
  test::RunningGraph running;
  MetricsServer server{[this] { return prometheus_text(running.graph().stats(), some_counters()); }};
};

TEST_F(MetricsServerTest, CurlScrapesTheMetrics) {
  server.start("127.0.0.1", 0);
  ASSERT_GT(server.port(), 0);
  ASSERT_TRUE(running.wait_frames(5));
  const Command head = run("curl -s -S -i --max-time 10 " + server.url());
  ASSERT_EQ(head.code, 0) << head.output;
  EXPECT_NE(head.output.find("HTTP/1.1 200 OK"), std::string::npos) << head.output;
  EXPECT_NE(head.output.find("Content-Type: text/plain; version=0.0.4"), std::string::npos) << head.output;
  const Command body = run("curl -s -S --max-time 10 " + server.url());
  ASSERT_EQ(body.code, 0) << body.output;
  EXPECT_EQ(promtool_check(body.output), "") << body.output;
  EXPECT_NE(body.output.find("visiongraph_node_executions_total"), std::string::npos);
  EXPECT_EQ(server.scrapes(), 2u);
}

TEST_F(MetricsServerTest, OtherPathsAndMethodsAreRefused) {
  server.start("127.0.0.1", 0);
  const std::string base = "http://127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(run("curl -s -o /dev/null -w '%{http_code}' --max-time 10 " + base + "/").output, "404");
  EXPECT_EQ(run("curl -s -o /dev/null -w '%{http_code}' --max-time 10 " + base + "/metricsx").output, "404");
  EXPECT_EQ(run("curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST " + base + "/metrics").output, "405");
  EXPECT_EQ(run("curl -s -o /dev/null -w '%{http_code}' --max-time 10 " + base + "/metrics?x=1").output, "200");
  EXPECT_EQ(server.scrapes(), 1u);
}

TEST_F(MetricsServerTest, ASilentClientDelaysAScrapeAtMostTheClientTimeout) {
  server.start("127.0.0.1", 0);
  const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(server.port());
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(silent, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const auto t0 = std::chrono::steady_clock::now();
  const Command c = run("curl -s -o /dev/null -w '%{http_code}' --max-time 10 " + server.url());
  EXPECT_EQ(c.output, "200");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  ::close(silent);
}

TEST_F(MetricsServerTest, APortInUseIsAnErrorNamingIt) {
  server.start("127.0.0.1", 0);
  MetricsServer second([] { return std::string(); });
  try {
    second.start("127.0.0.1", server.port());
    FAIL() << "a second server bound the same port";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(server.port()) + ": cannot listen"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(second.start("localhost", 0), Error) << "only numeric IPv4 addresses";
}

TEST_F(MetricsServerTest, StopIsPromptAndRepeatable) {
  server.start("127.0.0.1", 0);
  const auto t0 = std::chrono::steady_clock::now();
  server.stop();
  server.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  EXPECT_NE(run("curl -s --max-time 5 " + server.url()).code, 0) << "no longer listening";
}

}  // namespace
