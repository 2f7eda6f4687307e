// `visiongraph run` with several streams in one process (framework/runner/src/run.cpp): real RTSP servers on
// 127.0.0.1 (tests/support/rtsp_test_server.hpp, the sample video paced at its frame rate), one of them
// stopped mid-run while the others go on; the graph file's `streams:` list; one MQTT topic per stream on a
// real mosquitto broker; the control socket addressing one stream or all of them; and the exit statuses
// (0 all ok, 3 some failed, 1 all failed, 2 usage error) with OUT/streams.json saying which stream failed.
// Every wait is bounded; a run that never ends is killed and fails its test.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_files.hpp"
#include "cli_runner.hpp"
#include "rtsp_test_server.hpp"
#ifdef VG_TEST_HAVE_MQTT
#include "mosquitto_broker.hpp"
#endif

extern char** environ;

namespace {

using vg::test::read_file;
using vg::test::read_jsonl;
using vg::test::run_cli;
using vg::test::shell;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";
const std::string kSlowFace = VG_SOURCE_DIR "/tests/cli/data/face_detect_slow.yaml";

/// Complete lines of a file another process is writing (a last line without its '\n' is not counted).
std::size_t complete_lines(const fs::path& path) {
  const std::string text = read_file(path);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Complete lines from line @p from on that are processed frames (not dropped by latest-wins: those
/// lines have no "detections").
std::size_t processed_since(const fs::path& path, std::size_t from) {
  const std::string text = read_file(path);
  std::size_t n = 0, line = 0;
  for (std::size_t at = 0, end = 0; (end = text.find('\n', at)) != std::string::npos; at = end + 1, ++line)
    if (line >= from && text.substr(at, end - at).find("\"detections\":") != std::string::npos) ++n;
  return n;
}

/// The JSONL lines with the fields that depend on when the frame was processed removed.
std::vector<std::string> without_timing(const std::vector<json>& lines) {
  std::vector<std::string> out;
  for (json l : lines) {
    l.erase("capture_ns");
    l.erase("latency_ms");
    out.push_back(l.dump());
  }
  return out;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// The JSON of a reply "ok {...}" (null, with a test failure, if it is not one).
json reply_json(const std::string& reply) {
  const auto at = reply.find("ok {");
  if (at == std::string::npos || !json::accept(reply.substr(at + 3))) {
    ADD_FAILURE() << "not an 'ok {json}' reply: " << reply;
    return nullptr;
  }
  return json::parse(reply.substr(at + 3));
}

/// A `visiongraph` child process with its standard output and error in a file, so the test can signal it.
/// The destructor kills a child still running (a failed assertion returns early).
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& log) : log_(log) {
    std::vector<std::string> argv{VG_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawn(&pid_, cargv[0], &actions, nullptr, cargv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0 || code_ >= 0; }
  void signal(int sig) const {
    if (pid_ > 0) ::kill(pid_, sig);
  }
  /// Exit status, or -1 when it did not exit within @p limit (then it is killed).
  int wait(std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (exited()) return code_;
      std::this_thread::sleep_for(20ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    return -1;
  }
  bool exited() {
    int status = 0;
    if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return pid_ <= 0;
  }
  std::string output() const { return read_file(log_); }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  int code_ = -1;
};

/// Waits (at most @p limit) until @p done() holds or the child has exited; returns done().
template <class Done>
bool wait_until(Child& child, Done done, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < until && !child.exited()) std::this_thread::sleep_for(20ms);
  return done();
}

/// OUT/streams.json as a map name -> entry (empty, with a failure, when absent or malformed).
std::map<std::string, json> streams_json(const fs::path& out) {
  std::map<std::string, json> by_name;
  const std::string text = read_file(out / "streams.json");
  if (!json::accept(text)) {
    ADD_FAILURE() << "no valid " << (out / "streams.json").string() << ": " << text;
    return by_name;
  }
  const json j = json::parse(text);
  if (!j.contains("streams") || !j["streams"].is_array()) {
    ADD_FAILURE() << "streams.json has no 'streams' list: " << text;
    return by_name;
  }
  for (const json& s : j["streams"]) by_name[s.value("name", std::string())] = s;
  return by_name;
}

class StreamsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "Megamind.avi"}))
      GTEST_SKIP() << "assets missing in " << vg::test::assets_dir() << ": run scripts/fetch_assets.sh";
    base = fs::temp_directory_path() / ("vg_cli_streams_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base);
    fs::create_directories(base);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(base);  // a failed case leaves its outputs for a look
  }
  static std::string video() { return (vg::test::assets_dir() / "Megamind.avi").string(); }
  static std::string assets() { return " --assets " + vg::test::assets_dir().string(); }
  fs::path base;
};

/// Starts @p n RTSP servers of the sample video on 127.0.0.1 (free ports).
std::vector<std::unique_ptr<vg::test::RtspTestServer>> start_servers(std::size_t n, const std::string& video) {
  std::vector<std::unique_ptr<vg::test::RtspTestServer>> servers;
  for (std::size_t i = 0; i < n; ++i) {
    servers.push_back(std::make_unique<vg::test::RtspTestServer>(vg::test::RtspTestServer::file_media(video)));
    servers.back()->start();
  }
  return servers;
}

// ---- live streams: one lost, the others go on --------------------------------------------------------

// Runs N RTSP streams cam0..camN-1, stops the server of the last one once every stream has written
// @p lines_before lines, waits until every other stream has processed @p processed_after more frames
// (a live source drops frames when the machine is busy: those are lines too, without detections), then
// stops the run with SIGINT (the survivors end normally: every frame read finished).
struct LossRun {
  int code = -1;
  std::string output;
  std::string lost_url;
  std::vector<std::size_t> lines_at_loss;  // per stream
  bool all_started = false, survivors_went_on = false;
};

LossRun run_with_one_lost(const fs::path& out, const fs::path& log, std::size_t n, const std::string& video,
                          std::size_t lines_before, std::size_t processed_after) {
  LossRun r;
  auto servers = start_servers(n, video);
  std::vector<std::string> args{"run", kFace, "--no-progress", "-o", out.string(), "--assets", vg::test::assets_dir().string()};
  for (std::size_t i = 0; i < n; ++i) {
    args.push_back("--input");
    args.push_back("cam" + std::to_string(i) + "=" + servers[i]->url());
  }
  Child run(args, log);
  if (!run.started()) {
    ADD_FAILURE() << "could not start " << VG_CLI_PATH;
    return r;
  }
  auto lines = [&](std::size_t i) { return complete_lines(out / ("cam" + std::to_string(i)) / "detections.jsonl"); };
  // Loading the model and connecting can take a while on a loaded machine: up to 60 s.
  r.all_started = wait_until(run, [&] {
    for (std::size_t i = 0; i < n; ++i)
      if (lines(i) < lines_before) return false;
    return true;
  }, 60s);
  r.lost_url = servers.back()->url();
  servers.back()->stop();  // the camera goes away: its session is closed, its port no longer listens
  for (std::size_t i = 0; i < n; ++i) r.lines_at_loss.push_back(lines(i));
  // The file is 270 frames (11.3 s) long: the survivors get there well before it ends.
  r.survivors_went_on = wait_until(run, [&] {
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (processed_since(out / ("cam" + std::to_string(i)) / "detections.jsonl", r.lines_at_loss[i]) < processed_after)
        return false;
    return true;
  }, 30s);
  run.signal(SIGINT);
  r.code = run.wait(60s);
  r.output = run.output();
  for (auto& s : servers) s->stop();
  return r;
}

TEST_F(StreamsCliTest, ALostRtspStreamFailsAloneWhileTheOtherGoesOn) {
  const fs::path out = base / "out";
  const LossRun r = run_with_one_lost(out, base / "log.txt", 2, video(), 10, 15);
  ASSERT_TRUE(r.all_started) << "both streams wrote 10 lines within 60 s\n" << r.output;
  EXPECT_TRUE(r.survivors_went_on) << "cam0 processed 15 more frames after cam1 was lost\n" << r.output;
  EXPECT_EQ(r.code, 3) << "one stream failed, the other ended normally\n" << r.output;

  for (const char* name : {"cam0", "cam1"}) {
    EXPECT_TRUE(fs::is_directory(out / name)) << name;
    EXPECT_TRUE(fs::exists(out / name / "detections.jsonl")) << name;
    EXPECT_TRUE(fs::exists(out / name / "trace.json")) << name;
  }
  EXPECT_FALSE(fs::exists(out / "detections.jsonl")) << "several streams: no output at the top level";

  // The survivor: every line is JSON, frames in increasing order, lines written after the loss, faces found.
  const auto cam0 = read_jsonl(out / "cam0" / "detections.jsonl");
  EXPECT_GE(processed_since(out / "cam0" / "detections.jsonl", r.lines_at_loss[0]), 15u) << "detections after the loss";
  std::int64_t last = -1;
  std::size_t with_faces = 0, processed = 0;
  for (const json& l : cam0) {
    ASSERT_TRUE(l.contains("frame")) << l.dump();
    EXPECT_GT(l["frame"].get<std::int64_t>(), last) << "frames in increasing order";
    last = l["frame"].get<std::int64_t>();
    if (!l.contains("detections")) continue;  // dropped (latest wins) or aborted by the stop
    ++processed;
    with_faces += l["detections"].empty() ? 0 : 1;
  }
  EXPECT_GT(with_faces, processed / 2) << "the sample video shows faces in most frames";
  // The lost stream wrote nothing after the loss but the frames already in the graph.
  const auto cam1 = read_jsonl(out / "cam1" / "detections.jsonl");
  EXPECT_GE(cam1.size(), 10u);
  EXPECT_LE(cam1.size(), r.lines_at_loss[1] + 12) << "frames in flight at most";

  auto streams = streams_json(out);
  ASSERT_EQ(streams.size(), 2u);
  EXPECT_EQ(streams["cam0"]["exit_code"], 0) << streams["cam0"].dump();
  EXPECT_EQ(streams["cam0"]["ok"], true);
  EXPECT_FALSE(streams["cam0"].contains("error")) << streams["cam0"].dump();
  EXPECT_EQ(streams["cam0"]["frames"]["read"].get<std::size_t>(), cam0.size())
      << "one line per frame read (dropped ones too)";
  EXPECT_EQ(streams["cam1"]["exit_code"], 1) << streams["cam1"].dump();
  EXPECT_EQ(streams["cam1"]["ok"], false);
  EXPECT_NE(streams["cam1"].value("error", std::string()).find(r.lost_url), std::string::npos)
      << "the error names the lost source: " << streams["cam1"].dump();
  EXPECT_EQ(streams["cam1"]["input"], r.lost_url);
  EXPECT_EQ(streams["cam1"]["output_dir"], (out / "cam1").string());
  EXPECT_NE(r.output.find("stream 'cam1'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 of 2 streams failed: cam1"), std::string::npos) << r.output;
}

TEST_F(StreamsCliTest, FourRtspStreamsOneLostTheOthersShareTheGraphFairly) {
  const fs::path out = base / "out";
  const LossRun r = run_with_one_lost(out, base / "log.txt", 4, video(), 10, 10);
  ASSERT_TRUE(r.all_started) << "all four streams wrote 10 lines within 60 s\n" << r.output;
  EXPECT_TRUE(r.survivors_went_on) << "cam0..cam2 processed 10 more frames each after cam3 was lost\n" << r.output;
  EXPECT_EQ(r.code, 3) << r.output;
  auto streams = streams_json(out);
  ASSERT_EQ(streams.size(), 4u) << r.output;
  EXPECT_EQ(streams["cam3"]["ok"], false) << streams["cam3"].dump();
  EXPECT_NE(streams["cam3"].value("error", std::string()).find(r.lost_url), std::string::npos) << streams["cam3"].dump();
  // The three survivors ran side by side for the same time on the same targets: each got frames through
  // the graph, and none starved (frames of every stream queue at the same model; compared within the run).
  std::uint64_t least = ~0ull, most = 0;
  for (const char* name : {"cam0", "cam1", "cam2"}) {
    const json& s = streams[name];
    EXPECT_EQ(s["exit_code"], 0) << s.dump();
    EXPECT_FALSE(s.contains("error")) << s.dump();
    ASSERT_TRUE(s.contains("frames")) << s.dump();
    const auto completed = s["frames"]["completed"].get<std::uint64_t>();
    EXPECT_GE(completed, 10u) << name << ": " << s.dump();
    least = std::min(least, completed);
    most = std::max(most, completed);
    const auto lines = read_jsonl(out / name / "detections.jsonl");
    EXPECT_EQ(lines.size(), s["frames"]["read"].get<std::size_t>()) << name;
  }
  EXPECT_GE(2 * least, most) << "completed frames per surviving stream: min " << least << ", max " << most << "\n"
                             << read_file(out / "streams.json");
}

// ---- the graph file's `streams:` list ------------------------------------------------------------------

TEST_F(StreamsCliTest, TheGraphFilesStreamsListRunsEachStreamIntoItsOwnFolder) {
  const fs::path graph = base / "two_streams.yaml";
  {
    std::ofstream g(graph);
    g << read_file(kFace) << "\nstreams:\n"
      << "  - {name: left, input: \"${VG_ASSETS_DIR}/Megamind.avi\"}\n"
      << "  - name: right\n    input: ${VG_ASSETS_DIR}/Megamind.avi\n";
  }
  const fs::path out = base / "out";
  const auto r = run_cli("run " + graph.string() + " --no-progress -n 20 -o " + out.string() + assets());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("== stream left (" + video() + ") =="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("== stream right (" + video() + ") =="), std::string::npos) << r.output;
  const auto left = read_jsonl(out / "left" / "detections.jsonl");
  const auto right = read_jsonl(out / "right" / "detections.jsonl");
  ASSERT_EQ(left.size(), 20u);
  ASSERT_EQ(right.size(), 20u);
  for (std::size_t i = 0; i < left.size(); ++i) EXPECT_EQ(left[i]["frame"].get<std::size_t>(), i);
  // Same input, same graph (its own instance per stream, tracker included): the same detections.
  EXPECT_EQ(without_timing(left), without_timing(right));
  std::size_t with_faces = 0;
  for (const json& l : left) with_faces += l.contains("detections") && !l["detections"].empty();
  EXPECT_GT(with_faces, 10u);
  for (const char* name : {"left", "right"}) {
    EXPECT_TRUE(fs::exists(out / name / "trace.json")) << name;
    EXPECT_TRUE(fs::exists(out / name / "annotated.mp4")) << name;
  }
  auto streams = streams_json(out);
  ASSERT_EQ(streams.size(), 2u);
  for (const char* name : {"left", "right"}) {
    EXPECT_EQ(streams[name]["input"], video()) << "${VG_ASSETS_DIR} substituted: " << streams[name].dump();
    EXPECT_EQ(streams[name]["ok"], true) << streams[name].dump();
    EXPECT_EQ(streams[name]["frames"]["completed"], 20) << streams[name].dump();
  }

  // --input given: the file's list is not used, and one unnamed input runs as before (OUT/, no subfolder).
  const fs::path single = base / "single";
  const auto one = run_cli("run " + graph.string() + " --no-progress -n 5 --input " + video() + " -o " + single.string() + assets());
  ASSERT_EQ(one.code, 0) << one.output;
  EXPECT_EQ(read_jsonl(single / "detections.jsonl").size(), 5u);
  EXPECT_FALSE(fs::exists(single / "left"));
  EXPECT_FALSE(fs::exists(single / "streams.json"));
}

// ---- MQTT: one topic per stream --------------------------------------------------------------------------

#ifdef VG_TEST_HAVE_MQTT
TEST_F(StreamsCliTest, EachStreamPublishesOnItsOwnTopic) {
  vg::test::MosquittoBroker broker;
  broker.start();
  vg::test::MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/faces/#", 1));
  ASSERT_TRUE(sub.subscribe("vg/faces", 1));
  const fs::path out = base / "out";
  const auto r = run_cli("run " + kFace + " --no-progress -n 30 --mqtt-qos 1 --input door=" + video() + " --input yard=" +
                         video() + " -o " + out.string() + " --publish " + broker.url("vg/faces") + assets());
  ASSERT_EQ(r.code, 0) << r.output;
  ASSERT_TRUE(sub.wait_for_count(60, 15s)) << sub.messages().size() << " messages\n" << r.output;
  std::this_thread::sleep_for(300ms);  // anything extra would arrive now
  std::map<std::string, std::vector<std::string>> by_topic;
  for (const auto& m : sub.messages()) by_topic[m.topic].push_back(m.payload);
  EXPECT_EQ(by_topic.size(), 2u) << "only vg/faces/door and vg/faces/yard";
  for (const char* name : {"door", "yard"}) {
    const auto& payloads = by_topic["vg/faces/" + std::string(name)];
    ASSERT_EQ(payloads.size(), 30u) << name << ": one message per frame\n" << r.output;
    std::ifstream in(out / name / "detections.jsonl");
    std::size_t i = 0;
    for (std::string line; std::getline(in, line); ++i) {
      ASSERT_LT(i, payloads.size());
      EXPECT_EQ(payloads[i], line) << name << " message " << i << " is the stream's JSONL line";
    }
    EXPECT_EQ(i, 30u);
  }
  EXPECT_NE(r.output.find("vg/faces/door"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("vg/faces/yard"), std::string::npos) << r.output;
  broker.stop();
}
#endif

// ---- control: one stream or all of them ----------------------------------------------------------------

TEST_F(StreamsCliTest, ControlAddressesOneStreamOrAll) {
  const fs::path out = base / "out", sock = base / "vg.sock", log = base / "log.txt";
  // The face graph with a node sleeping 80 ms per frame (tests/cli/data): the file's 270 frames take over
  // 20 s whatever the machine's load, and none is dropped (a file is read at the graph's pace), so every
  // line is a processed frame. SIGINT ends the run once the commands are checked.
  Child run({"run", kSlowFace, "--no-progress", "--input", "cam0=" + video(), "--input", "cam1=" + video(), "-o",
             out.string(), "--control", sock.string(), "--metrics", "127.0.0.1:0", "--assets", vg::test::assets_dir().string()},
            log);
  ASSERT_TRUE(run.started());
  auto lines = [&](const char* name) { return complete_lines(out / name / "detections.jsonl"); };
  ASSERT_TRUE(wait_until(run, [&] { return fs::exists(sock) && lines("cam0") >= 10 && lines("cam1") >= 10; }, 60s))
      << run.output();
  const std::string ctl = "ctl " + sock.string() + " ";

  const auto one = run_cli(ctl + "cam0 stats");
  ASSERT_EQ(one.code, 0) << one.output;
  const json cam0 = reply_json(one.output);
  EXPECT_EQ(cam0["stream"], "cam0") << one.output;
  EXPECT_EQ(cam0["graph"], "face_detect_slow") << one.output;
  EXPECT_GE(cam0["frames"]["read"].get<int>(), 10) << one.output;
  const auto other = run_cli(ctl + "cam1 stats");
  ASSERT_EQ(other.code, 0) << other.output;
  EXPECT_EQ(reply_json(other.output)["stream"], "cam1") << other.output;

  const auto all = run_cli(ctl + "stats");
  ASSERT_EQ(all.code, 0) << all.output;
  const json both = reply_json(all.output);
  ASSERT_TRUE(both.contains("streams") && both["streams"].is_array()) << all.output;
  ASSERT_EQ(both["streams"].size(), 2u) << all.output;
  EXPECT_EQ(both["streams"][0]["stream"], "cam0");
  EXPECT_EQ(both["streams"][1]["stream"], "cam1");
  for (const json& s : both["streams"]) EXPECT_GE(s["frames"]["read"].get<int>(), 10) << all.output;

  const auto help = run_cli(ctl + "help");
  EXPECT_EQ(help.code, 0) << help.output;
  EXPECT_NE(help.output.find("set_score_threshold"), std::string::npos) << help.output;
  // The nodes of one stream (every stream has the same), drawn as the usual table: no extra rows.
  EXPECT_EQ(help.output.find("cam0"), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("streams"), std::string::npos) << help.output;
  const auto names = run_cli(ctl + "streams");
  EXPECT_EQ(names.code, 0) << names.output;
  EXPECT_NE(names.output.find("cam0, cam1"), std::string::npos) << "'streams' names them: " << names.output;

  // --metrics: every series carries the stream's label.
  const std::string text = run.output();
  const auto at = text.find("metrics at http://127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string url = text.substr(at + 11, text.find('\n', at) - at - 11);
  const auto metrics = shell("curl -s -S --max-time 10 " + url);
  if (metrics.code != 127) {  // curl is there
    ASSERT_EQ(metrics.code, 0) << metrics.output;
    EXPECT_NE(metrics.output.find("visiongraph_frames_total{graph=\"face_detect_slow\",stream=\"cam0\",outcome=\"read\"}"),
              std::string::npos)
        << metrics.output;
    EXPECT_NE(metrics.output.find("visiongraph_frames_total{graph=\"face_detect_slow\",stream=\"cam1\",outcome=\"read\"}"),
              std::string::npos)
        << metrics.output;
  }

  // A node command without a stream name goes to every stream; each answers. Lines are counted before a
  // command (those frames were done before it) and after its reply (later ones may still be in flight).
  const std::size_t before_raise[2] = {lines("cam0"), lines("cam1")};
  const auto raise = run_cli(ctl + "decode set_score_threshold 0.999");
  ASSERT_EQ(raise.code, 0) << raise.output;
  EXPECT_EQ(raise.output.rfind("ok cam0: ok ", 0), 0u) << raise.output;
  EXPECT_NE(raise.output.find("; cam1: ok "), std::string::npos) << raise.output;
  EXPECT_EQ(count_of(raise.output, "score_threshold=0.999"), 2u) << raise.output;
  // It took effect in both graphs: after the frames already past the decoder, no face passes 0.999.
  const std::size_t raised_at[2] = {lines("cam0"), lines("cam1")};  // after the reply
  ASSERT_TRUE(wait_until(run, [&] { return lines("cam0") >= raised_at[0] + 16 && lines("cam1") >= raised_at[1] + 16; }, 30s))
      << run.output();

  // A line starting with a stream's name goes to that stream only.
  const std::size_t before_lower = lines("cam0");
  const auto lower = run_cli(ctl + "cam0 decode set_score_threshold 0.5");
  ASSERT_EQ(lower.code, 0) << lower.output;
  EXPECT_EQ(lower.output.rfind("ok ", 0), 0u) << lower.output;
  EXPECT_NE(lower.output.find("score_threshold=0.5"), std::string::npos) << lower.output;
  EXPECT_EQ(lower.output.find("cam1"), std::string::npos) << "one stream answers: " << lower.output;
  const std::size_t lowered_at[2] = {lines("cam0"), lines("cam1")};  // after the reply
  const auto settings = run_cli(ctl + "decode get_settings");
  ASSERT_EQ(settings.code, 0) << settings.output;
  const auto cam1_at = settings.output.find("; cam1: ");
  ASSERT_NE(cam1_at, std::string::npos) << settings.output;
  EXPECT_NE(settings.output.substr(0, cam1_at).find("score_threshold=0.5 "), std::string::npos) << settings.output;
  EXPECT_NE(settings.output.substr(cam1_at).find("score_threshold=0.999 "), std::string::npos) << settings.output;
  const bool went_on =
      wait_until(run, [&] { return lines("cam0") >= lowered_at[0] + 16 && lines("cam1") >= lowered_at[1] + 16; }, 30s);
  EXPECT_TRUE(went_on) << run.output();

  run.signal(SIGINT);  // the survivors of a stop: every frame read finishes, each stream ends normally
  EXPECT_EQ(run.wait(60s), 0) << run.output();
  EXPECT_FALSE(fs::exists(sock)) << "the socket is removed at the end";

  // Counted by line, skipping after a reply the frames that may have been past the decoder when the
  // command landed (pipeline_depth 3, and a few completed frames not yet written).
  constexpr std::size_t kInFlight = 8;
  auto faces = [](const std::vector<json>& l, std::size_t from, std::size_t to, std::size_t& processed) {
    std::size_t n = 0;
    processed = 0;
    for (std::size_t i = from; i < std::min(to, l.size()); ++i) {
      if (!l[i].contains("detections")) continue;  // aborted by the stop
      ++processed;
      n += l[i]["detections"].empty() ? 0 : 1;
    }
    return n;
  };
  const auto l0 = read_jsonl(out / "cam0" / "detections.jsonl");
  const auto l1 = read_jsonl(out / "cam1" / "detections.jsonl");
  std::size_t processed = 0;
  EXPECT_GT(faces(l0, 0, before_raise[0], processed), 5u) << "faces before the threshold was raised";
  EXPECT_GT(faces(l1, 0, before_raise[1], processed), 5u);
  EXPECT_EQ(faces(l0, raised_at[0] + kInFlight, before_lower, processed), 0u) << "cam0 after the broadcast";
  EXPECT_GE(processed, 5u);
  EXPECT_EQ(faces(l1, raised_at[1] + kInFlight, l1.size(), processed), 0u) << "cam1 after the broadcast, to the end";
  EXPECT_GE(processed, 5u);
  if (went_on) {
    const std::size_t again = faces(l0, lowered_at[0] + kInFlight, l0.size(), processed);
    EXPECT_GE(processed, 5u);
    EXPECT_GT(again, processed / 2) << "cam0 finds faces again after its own command";
  }
}

// ---- errors ------------------------------------------------------------------------------------------------

TEST_F(StreamsCliTest, TheSameStreamNameTwiceIsAUsageError) {
  const fs::path out = base / "out";
  const auto r = run_cli("run " + kFace + " --no-progress -n 5 --input cam=" + video() + " --input cam=" + video() + " -o " +
                         out.string() + assets());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'cam'"), std::string::npos) << "the message names the stream: " << r.output;
  EXPECT_FALSE(fs::exists(out)) << "refused before anything is written";
}

TEST_F(StreamsCliTest, NoInputAndNoStreamsListIsAUsageErrorNamingStreams) {
  const fs::path out = base / "out";
  const auto r = run_cli("run " + kFace + " --no-progress -n 5 -o " + out.string() + assets());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("streams:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--input"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(StreamsCliTest, NoStreamThatCanBeOpenedFailsTheRunAndListsEach) {
  const fs::path out = base / "out";
  const std::string a = (base / "missing_a.avi").string(), b = (base / "missing_b.avi").string();
  const auto r = run_cli("run " + kFace + " --no-progress -n 5 --input a=" + a + " --input b=" + b + " -o " + out.string() +
                         assets());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find(a), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(b), std::string::npos) << r.output;
  auto streams = streams_json(out);
  ASSERT_EQ(streams.size(), 2u) << read_file(out / "streams.json");
  EXPECT_EQ(streams["a"]["ok"], false);
  EXPECT_EQ(streams["a"]["exit_code"], 1);
  EXPECT_NE(streams["a"].value("error", std::string()).find(a), std::string::npos) << streams["a"].dump();
  EXPECT_EQ(streams["b"]["ok"], false);
  EXPECT_NE(streams["b"].value("error", std::string()).find(b), std::string::npos) << streams["b"].dump();
}

TEST_F(StreamsCliTest, OneUnopenableFileAmongGoodOnesFailsAloneWithStatus3) {
  const fs::path out = base / "out";
  const std::string bad = (base / "missing.avi").string();
  const auto r = run_cli("run " + kFace + " --no-progress -n 10 --input a=" + video() + " --input bad=" + bad +
                         " --input c=" + video() + " -o " + out.string() + assets());
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("1 of 3 streams failed: bad"), std::string::npos) << r.output;
  auto streams = streams_json(out);
  ASSERT_EQ(streams.size(), 3u);
  EXPECT_EQ(streams["bad"]["ok"], false);
  EXPECT_EQ(streams["bad"]["exit_code"], 1);
  EXPECT_NE(streams["bad"].value("error", std::string()).find(bad), std::string::npos) << streams["bad"].dump();
  for (const char* name : {"a", "c"}) {
    EXPECT_EQ(streams[name]["ok"], true) << streams[name].dump();
    EXPECT_EQ(streams[name]["frames"]["completed"], 10) << streams[name].dump();
    EXPECT_EQ(read_jsonl(out / name / "detections.jsonl").size(), 10u) << name;
  }
  EXPECT_FALSE(fs::exists(out / "bad" / "detections.jsonl"));
}

}  // namespace
