// `visiongraph run --publish mqtt://...` and `--control mqtt://...` against a real mosquitto broker started
// by the test on 127.0.0.1 (free port): every frame's JSON line arrives complete and in frame order; a
// stopped broker does not slow the run (drops are counted) and publishing resumes when it is back;
// commands over MQTT get the same replies as over the socket; `--publish -` writes JSONL to stdout.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "cli_runner.hpp"
#include "mosquitto_broker.hpp"

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";

std::vector<std::string> lines_of(const fs::path& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class MqttCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "Megamind.avi"}))
      GTEST_SKIP() << "assets missing: run scripts/fetch_assets.sh";
    base = fs::temp_directory_path() / ("vg_cli_mqtt_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base);
    fs::create_directories(base);
    broker.start();
  }
  void TearDown() override {
    broker.stop();
    fs::remove_all(base);
  }
  std::string video() const { return (vg::test::assets_dir() / "Megamind.avi").string(); }
  fs::path base;
  vg::test::MosquittoBroker broker;
};

TEST_F(MqttCliTest, EveryFrameIsPublishedCompleteAndInOrder) {
  vg::test::MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/faces", 1));
  const auto r = run_cli("run " + kFace + " --no-progress --frames 120 --mqtt-qos 1 --input " + video() +
                         " -o " + (base / "out").string() + " --publish " + broker.url("vg/faces"));
  ASSERT_EQ(r.code, 0) << r.output;
  const auto lines = lines_of(base / "out" / "detections.jsonl");
  ASSERT_EQ(lines.size(), 120u);
  ASSERT_TRUE(sub.wait_for_count(120, 10s)) << r.output;
  const auto messages = sub.messages();
  ASSERT_EQ(messages.size(), 120u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(messages[i].payload, lines[i]) << "message " << i << " is the JSONL line, byte for byte";
    EXPECT_EQ(json::parse(messages[i].payload)["frame"].get<std::size_t>(), i);
  }
  EXPECT_NE(r.output.find("120 sent"), std::string::npos) << r.output;
}

TEST_F(MqttCliTest, AStoppedBrokerDoesNotSlowTheRunAndPublishingResumes) {
  vg::test::MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/live", 0));
  // Paced at the clip's 23.976 fps: 270 frames take about 11.3 s whatever the broker does.
  std::thread outage([&] {
    std::this_thread::sleep_for(2s);
    broker.pause();  // SIGSTOP: the connection stays open, nothing is read
    std::this_thread::sleep_for(4s);
    broker.resume();
  });
  const auto t0 = std::chrono::steady_clock::now();
  // QoS 1: a message stays in flight until the broker acknowledges it, which a stopped broker never
  // does (at QoS 0 the kernel's socket buffers would swallow a few seconds of messages).
  const auto r = run_cli("run " + kFace + " --no-progress --realtime --mqtt-qos 1 --mqtt-outbox 8 --input " + video() + " -o " +
                         (base / "out").string() + " --publish " + broker.url("vg/live"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  outage.join();
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_LT(seconds, 16.0) << "the run kept its pace while the broker was stopped";
  const auto lines = lines_of(base / "out" / "detections.jsonl");
  EXPECT_EQ(lines.size(), 270u);
  std::this_thread::sleep_for(1s);
  const auto messages = sub.messages();
  EXPECT_LT(messages.size(), 270u) << "an 8-message outbox cannot hold a 4 s outage: some were dropped";
  ASSERT_FALSE(messages.empty());
  EXPECT_GT(json::parse(messages.back().payload)["frame"].get<int>(), 200) << "publishing resumed after the outage";
  for (std::size_t i = 1; i < messages.size(); ++i)
    EXPECT_LT(json::parse(messages[i - 1].payload)["frame"].get<int>(), json::parse(messages[i].payload)["frame"].get<int>())
        << "in frame order, with a gap for the outage";
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("([0-9]+) dropped \\(outbox full")) ) << r.output;
  EXPECT_GT(std::stoi(m[1].str()), 0) << "the drops are counted and reported: " << r.output;
}

TEST_F(MqttCliTest, CommandsOverMqttGetTheSocketsReplies) {
  vg::test::MqttTestClient client(broker.port());
  ASSERT_TRUE(client.subscribe("vg/ctl/reply", 1));
  std::thread run([&] {
    const auto r = run_cli("run " + kFace + " --no-progress --realtime --frames 150 --input " + video() + " -o " +
                           (base / "out").string() + " --control " + broker.url("vg/ctl"));
    EXPECT_EQ(r.code, 0) << r.output;
  });
  bool answered = false;
  for (int i = 0; i < 100 && !answered; ++i) {  // until the run has subscribed (up to 30 s on a loaded machine)
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(client.publish("vg/ctl", "id=7 decode set_score_threshold 0.95"));
    answered = client.wait_for_count(1, 200ms);
  }
  ASSERT_TRUE(answered) << "no reply on vg/ctl/reply";
  EXPECT_EQ(client.messages().front().payload.rfind("id=7 ok", 0), 0u) << client.messages().front().payload;
  client.clear();
  ASSERT_TRUE(client.publish("vg/ctl", "decode no_such_command"));
  ASSERT_TRUE(client.wait_for_count(1, 5s));
  EXPECT_EQ(client.messages().front().payload.rfind("error", 0), 0u) << client.messages().front().payload;
  // The live figures over the same channel: the JSON `ctl SOCK stats` returns.
  client.clear();
  ASSERT_TRUE(client.publish("vg/ctl", "id=8 stats"));
  ASSERT_TRUE(client.wait_for_count(1, 5s));
  const std::string stats = client.messages().front().payload;
  EXPECT_EQ(stats.rfind("id=8 ok {", 0), 0u) << stats;
  EXPECT_NE(stats.find("\"nodes\""), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"decode\""), std::string::npos) << stats;
  run.join();
}

// A broker that requires a user name and password, with a TLS listener made from a throw-away CA: results
// and commands go over TLS with the credentials (password from VG_MQTT_PASSWORD); a wrong password is
// refused and reported, and the run still writes every frame to its file.
TEST_F(MqttCliTest, ResultsAndCommandsTravelOverTlsWithCredentials) {
  const std::uint16_t tls_port = vg::test::free_port();
  vg::test::MosquittoBroker secure({"allow_anonymous false", "password_file ${DIR}/passwd",
                                    "listener " + std::to_string(tls_port) + " 127.0.0.1", "cafile ${DIR}/ca.pem",
                                    "certfile ${DIR}/server.pem", "keyfile ${DIR}/server.key"});
  const fs::path dir = secure.dir();
  ASSERT_TRUE(vg::test::make_test_certificates(dir));
  const std::string passwd = "mosquitto_passwd -b -c " + (dir / "passwd").string() + " camera s3cret";
  ASSERT_EQ(std::system(passwd.c_str()), 0) << passwd;
  secure.start();
  const std::string tls = "mqtts://127.0.0.1:" + std::to_string(tls_port) + "/";
  const std::string common = "run " + kFace + " --no-progress --input " + video() + " --mqtt-qos 1 --mqtt-username camera" +
                             " --mqtt-ca " + (dir / "ca.pem").string();

  vg::test::MqttTestClient sub(secure.port(), {true, "camera", "s3cret"});  // the plain listener, same users
  ASSERT_TRUE(sub.subscribe("vg/secure", 1));
  ASSERT_TRUE(sub.subscribe("vg/sctl/reply", 1));
  ::setenv("VG_MQTT_PASSWORD", "s3cret", 1);
  std::thread run([&] {
    const auto r = run_cli(common + " --realtime --frames 90 -o " + (base / "good").string() + " --publish " + tls +
                           "vg/secure --control " + tls + "vg/sctl");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("90 sent"), std::string::npos) << r.output;
  });
  bool answered = false;
  for (int i = 0; i < 50 && !answered; ++i) {  // until the run has subscribed
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(sub.publish("vg/sctl", "id=9 decode set_score_threshold 0.5"));
    const auto until = std::chrono::steady_clock::now() + 200ms;
    while (!answered && std::chrono::steady_clock::now() < until) {
      for (const auto& m : sub.messages()) answered = answered || m.topic == "vg/sctl/reply";
      std::this_thread::sleep_for(10ms);
    }
  }
  run.join();
  ::unsetenv("VG_MQTT_PASSWORD");
  EXPECT_TRUE(answered) << "no command reply over TLS";
  std::vector<std::string> results;
  for (const auto& m : sub.messages()) {
    if (m.topic == "vg/secure") results.push_back(m.payload);
    if (m.topic == "vg/sctl/reply") {
      EXPECT_EQ(m.payload.rfind("id=9 ok", 0), 0u) << m.payload;
    }
  }
  EXPECT_EQ(results, lines_of(base / "good" / "detections.jsonl")) << "every frame over TLS, in order";
  EXPECT_EQ(results.size(), 90u);

  const auto bad = run_cli(common + " --mqtt-password wrong --frames 10 -o " + (base / "bad").string() +
                           " --publish " + tls + "vg/secure");
  EXPECT_NE(bad.output.find("refused the connection"), std::string::npos) << bad.output;
  EXPECT_EQ(lines_of(base / "bad" / "detections.jsonl").size(), 10u) << bad.output;
}

TEST_F(MqttCliTest, PublishDashWritesTheJsonLinesToStandardOutput) {
  const std::string command = std::string(VG_CLI_PATH) + " run " + kFace + " --no-progress --frames 30 --input " +
                              video() + " -o " + (base / "out").string() + " --publish - 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(::pclose(pipe), 0);
  std::string expected;
  for (const auto& l : lines_of(base / "out" / "detections.jsonl")) expected += l + "\n";
  EXPECT_EQ(out, expected) << "standard output carries exactly the JSON lines (the report goes to stderr)";
}

TEST_F(MqttCliTest, AnUnreachableBrokerNeverBlocksTheRun) {
  broker.stop();  // nothing listens on its port any more
  const auto r = run_cli("run " + kFace + " --no-progress --frames 60 --input " + video() + " -o " +
                         (base / "out").string() + " --publish " + broker.url("vg/none"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(lines_of(base / "out" / "detections.jsonl").size(), 60u);
  EXPECT_NE(r.output.find("0 sent"), std::string::npos) << r.output;
  broker.start();  // for TearDown
}

}  // namespace
