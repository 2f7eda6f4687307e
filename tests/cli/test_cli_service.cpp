// `visiongraph run` as a long-lived service: signals drain and write every output, a second signal
// abandons, writes are checked (a full disk ends the run with an error), a failed start leaves the last
// run's outputs alone, graph names cannot steer the output directory, --no-plugins refuses code.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli_files.hpp"
#include "cli_runner.hpp"

extern char** environ;

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";
const std::string kSlowFace = VG_SOURCE_DIR "/tests/cli/data/face_detect_slow.yaml";
const std::string kSmall = VG_SOURCE_DIR "/tests/yaml/data/small.yaml";

using vg::test::read_file;

/// A `visiongraph` child process with its output in a file, so the test can signal it.
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& log) {
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
  bool running() const { return pid_ > 0; }
  void signal(int sig) const { ::kill(pid_, sig); }
  /// Exit status, or -1 when it did not exit within @p limit (then it is killed).
  int wait(std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (exited()) return code_;
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }
  /// Has it exited (without waiting)?
  bool exited() {
    int status = 0;
    if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return pid_ <= 0;
  }

 private:
  pid_t pid_ = -1;
  int code_ = -1;
};

bool is_json(const std::string& text) { return json::accept(text); }

/// Every line is complete JSON, frames 0..n-1 in order; returns n.
std::size_t check_jsonl(const fs::path& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    json j;
    EXPECT_NO_THROW(j = json::parse(line)) << "line " << n << ": " << line;
    EXPECT_EQ(j.value("frame", -1), static_cast<int>(n));
  }
  return n;
}

/// Waits until @p path holds at least @p lines lines (the run is past loading and producing frames; on a
/// loaded machine loading alone can take seconds). False after @p limit.
bool wait_for_lines(const fs::path& path, std::size_t lines, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    std::ifstream in(path);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
    if (n >= lines) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

class ServiceCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base = fs::temp_directory_path() / ("vg_cli_service_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base);
    fs::create_directories(base);
  }
  void TearDown() override { fs::remove_all(base); }
  bool have_face_assets() const {
    return vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "Megamind.avi"});
  }
  std::string video() const { return (vg::test::assets_dir() / "Megamind.avi").string(); }
  fs::path base;
};

TEST_F(ServiceCliTest, TheFirstSignalDrainsTheFramesInFlightAndWritesEveryOutput) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  for (int sig : {SIGINT, SIGTERM}) {
    const fs::path out = base / ("sig" + std::to_string(sig));
    Child run({"run", kFace, "--no-progress", "--realtime", "--input", video(), "-o", out.string()}, base / "log.txt");
    ASSERT_TRUE(run.running());
    // Into the 11 s clip (about 30 frames in), then the signal.
    ASSERT_TRUE(wait_for_lines(out / "detections.jsonl", 30, 60s)) << read_file(base / "log.txt");
    run.signal(sig);
    const int code = run.wait(20s);
    const std::string log = read_file(base / "log.txt");
    EXPECT_EQ(code, 0) << log;
    const std::size_t frames = check_jsonl(out / "detections.jsonl");
    EXPECT_GT(frames, 10u) << log;
    EXPECT_LT(frames, 270u) << "it stopped early";
    EXPECT_TRUE(is_json(read_file(out / "trace.json"))) << "trace.json is complete";
    EXPECT_NE(log.find("graph 'face_detect'"), std::string::npos) << "the report was printed: " << log;
    EXPECT_NE(log.find("stopped by a signal"), std::string::npos) << log;
    EXPECT_TRUE(fs::exists(out / "annotated.mp4"));
  }
}

TEST_F(ServiceCliTest, ASecondSignalAbandonsTheFramesInFlightButStillWritesTheOutputs) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const fs::path out = base / "out";
  Child run({"run", kSlowFace, "--no-progress", "--input", video(), "-o", out.string()}, base / "log.txt");
  ASSERT_TRUE(run.running());
  ASSERT_TRUE(wait_for_lines(out / "detections.jsonl", 1, 60s)) << read_file(base / "log.txt");
  run.signal(SIGINT);
  std::this_thread::sleep_for(30ms);
  run.signal(SIGINT);
  const int code = run.wait(20s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("abandon"), std::string::npos) << log;
  EXPECT_GT(check_jsonl(out / "detections.jsonl"), 0u);
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
  // Frames abandoned by the stop are "aborted", not "dropped" (nothing replaced them), in the lines and
  // in the summary alike. A frame whose detections were already published when it was abandoned keeps
  // its detections line, so the summary's count can exceed the lines' by those frames.
  std::size_t aborted = 0, dropped = 0, lines = 0;
  std::ifstream in(out / "detections.jsonl");
  for (std::string line; std::getline(in, line); ++lines) {
    const json j = json::parse(line);
    aborted += j.value("aborted", false) ? 1 : 0;
    dropped += j.value("dropped", false) ? 1 : 0;
  }
  EXPECT_GT(aborted, 0u) << log;
  EXPECT_EQ(dropped, 0u) << "a file input with back-pressure drops nothing";
  const auto at = log.find("frames: ");
  ASSERT_NE(at, std::string::npos) << log;
  unsigned long read = 0, completed = 0, summary_dropped = 0, summary_aborted = 0;
  ASSERT_EQ(std::sscanf(log.c_str() + at, "frames: %lu read, %lu completed, %lu dropped, %lu aborted", &read, &completed,
                        &summary_dropped, &summary_aborted),
            4)
      << log;
  EXPECT_EQ(summary_dropped, 0u) << log;
  EXPECT_GE(summary_aborted, aborted) << log;
  EXPECT_EQ(lines, read) << "one line per frame read\n" << log;
}

TEST_F(ServiceCliTest, AFullDiskEndsTheRunWithAnErrorNamingTheFile) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path out = base / "out";
  fs::create_directories(out);
  fs::create_symlink("/dev/full", out / "detections.jsonl");  // every write fails with ENOSPC
  const auto r = run_cli("run " + kFace + " --no-progress --input " + video() + " -o " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("detections.jsonl"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
}

TEST_F(ServiceCliTest, ATraceThatCannotBeWrittenEndsTheRunWithAnErrorNamingIt) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path out = base / "out";
  fs::create_directories(out);
  // The trace is written last, beside its place (trace.json.partial), into a full disk.
  fs::create_symlink("/dev/full", out / "trace.json.partial");
  std::ofstream(out / "trace.json") << "{\"an older run's\": true}";
  const auto r = run_cli("run " + kFace + " --no-progress --frames 5 --input " + video() + " -o " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("trace.json' failed: No space left on device (no trace.json written)"), std::string::npos)
      << r.output;
  EXPECT_EQ(check_jsonl(out / "detections.jsonl"), 5u) << "the other outputs are complete";
  EXPECT_FALSE(fs::exists(out / "trace.json")) << "no older trace left to be taken for this run's";
}

/// A tmpfs of @p kib KiB mounted at @p at for the test's lifetime (root only; mounted() says whether).
class SmallDisk {
 public:
  SmallDisk(const fs::path& at, int kib) : at_(at) {
    fs::create_directories(at);
    const std::string command = "mount -t tmpfs -o size=" + std::to_string(kib) + "k tmpfs " + at.string() + " 2>/dev/null";
    mounted_ = ::geteuid() == 0 && std::system(command.c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) (void)!std::system(("umount " + at_.string()).c_str());
  }
  bool mounted() const { return mounted_; }

 private:
  fs::path at_;
  bool mounted_ = false;
};

// A disk that fills during the run (a real tmpfs of 160 KiB): every output that fails is named, every
// line of detections.jsonl is whole, and trace.json is whole or absent (and then named), never 0 bytes.
TEST_F(ServiceCliTest, ADiskThatFillsLeavesWholeLinesAndNamesEveryFailingOutput) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  SmallDisk disk(base / "small", 160);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
  const fs::path out = base / "small" / "out";
  const auto r = run_cli("run " + kFace + " --no-progress --input " + video() + " -o " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
  // detections.jsonl: whole lines, frames 0..n-1 in order (check_jsonl parses each line).
  std::ifstream in(out / "detections.jsonl", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(text.empty() || text.back() == '\n') << "the file ends with a whole line";
  check_jsonl(out / "detections.jsonl");
  if (fs::exists(out / "trace.json")) {
    EXPECT_TRUE(is_json(read_file(out / "trace.json"))) << "a trace that is there is whole";
  } else {
    EXPECT_NE(r.output.find("trace.json' failed"), std::string::npos) << "a missing trace is named\n" << r.output;
  }
  EXPECT_FALSE(fs::exists(out / "trace.json.partial"));
  // Each failing output gets its own line.
  std::size_t named = 0;
  for (const char* file : {"detections.jsonl", "annotated.mp4", "trace.json"})
    named += r.output.find(std::string(file)) != std::string::npos && r.output.find("failed") != std::string::npos;
  EXPECT_GE(named, 1u) << r.output;
}

TEST_F(ServiceCliTest, AReaderThatClosesStandardOutputEndsThePublishingRunWithAnError) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const fs::path out = base / "out";
  // `--publish -` into a reader that leaves after 100 bytes: the next write fails (EPIPE, not a signal).
  const std::string command = "set -o pipefail; " + std::string(VG_CLI_PATH) + " run " + kFace +
                              " --no-progress --publish - --input " + video() + " -o " + out.string() + " 2>" +
                              (base / "err.txt").string() + " | head -c 100 >/dev/null";
  const int status = std::system(("bash -c '" + command + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  const std::string err = read_file(base / "err.txt");
  EXPECT_EQ(WEXITSTATUS(status), 1) << err;
  EXPECT_NE(err.find("writing 'standard output' failed"), std::string::npos) << err;
  EXPECT_GT(check_jsonl(out / "detections.jsonl"), 0u) << "what was written before is flushed";
}

TEST_F(ServiceCliTest, ARunThatFailsToStartLeavesThePreviousOutputsAlone) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const fs::path out = base / "out";
  const std::string image = (vg::test::assets_dir() / "messi5.jpg").string();
  if (!fs::exists(image)) GTEST_SKIP() << "messi5.jpg missing";
  ASSERT_EQ(run_cli("run " + kFace + " --no-progress --input " + image + " -o " + out.string()).code, 0);
  const std::string before = read_file(out / "detections.jsonl");
  ASSERT_FALSE(before.empty());
  const auto r = run_cli("run " + kFace + " --no-progress --input " + image + " -o " + out.string() +
                         " --control " + (base / "no_such_dir" / "vg.sock").string());
  EXPECT_NE(r.code, 0) << r.output;
  EXPECT_EQ(read_file(out / "detections.jsonl"), before) << "the failed run must not truncate the last results";
}

TEST_F(ServiceCliTest, AGraphNameCannotPutTheOutputsOutsideOut) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string image = (vg::test::assets_dir() / "messi5.jpg").string();
  const fs::path dir = base / "a" / "b";
  fs::create_directories(dir);
  std::string face = read_file(kFace);
  const auto at = face.find("graph: face_detect");
  ASSERT_NE(at, std::string::npos);
  face.replace(at, std::string("graph: face_detect").size(), "graph: ../../escaped");
  std::ofstream(dir / "g.yaml") << face;
  // No -o: the default directory out/<graph name>, relative to the working directory.
  const std::string command = "cd " + dir.string() + " && " + VG_CLI_PATH + " run g.yaml --no-progress --input " +
                              image + " --assets " + vg::test::assets_dir().string() + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, n);
  const int status = ::pclose(pipe);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << output;
  EXPECT_FALSE(fs::exists(base / "escaped")) << "outputs escaped out/";
  EXPECT_FALSE(fs::exists(base / "a" / "escaped"));
  EXPECT_TRUE(fs::exists(dir / "out" / "______escaped" / "detections.jsonl")) << output;
}

TEST_F(ServiceCliTest, NoPluginsRefusesModuleLibrariesAndRuntimePath) {
  const fs::path graph = base / "plugin.yaml";
  std::ofstream(graph) << "graph: p\nmodules: [{library: ./libexample_plugin.so}]\n"
                          "data:\n  a: {kind: scalar, type: f64, value: 1}\nnodes:\n"
                          "  n: {kernel: vg.example.scale, parameters: {in: a, out: a}}\n";
  auto r = run_cli("run " + graph.string() + " --no-plugins --input x.jpg");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("plugin.yaml:2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--no-plugins"), std::string::npos) << r.output;

  const fs::path runtime = base / "runtime.yaml";
  std::string face = read_file(kFace);
  const auto at = face.find("      backend: auto");
  ASSERT_NE(at, std::string::npos);
  face.insert(at, "      runtime_path: /tmp/evil.so\n");
  std::ofstream(runtime) << face;
  r = run_cli("run " + runtime.string() + " --no-plugins --input x.jpg");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("runtime_path"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--no-plugins"), std::string::npos) << r.output;
}

// docs/service.md: a module library path with a '/' is resolved against the graph file's directory, a
// bare name.so by the dynamic loader only (never the graph's directory or the working directory).
TEST_F(ServiceCliTest, ModuleLibraryPathsResolveAsDocumented) {
  fs::copy_file(VG_TEST_GATE_PATH, base / "libgate_copy.so");
  const auto graph_with = [&](const std::string& library) {
    const fs::path graph = base / "lib.yaml";
    std::ofstream(graph) << "graph: p\nmodules: [vg.example, {library: " << library << "}]\n"
                            "nodes:\n  n: {kernel: vg.example.nop}\n";
    return graph.string();
  };
  auto r = run_cli("verify " + graph_with("./libgate_copy.so"));
  EXPECT_EQ(r.code, 0) << "./ is the graph file's directory, not the working directory\n" << r.output;
  r = run_cli("verify " + graph_with("libgate_copy.so"));
  EXPECT_NE(r.code, 0) << "a bare name is not looked up beside the graph file\n" << r.output;
  EXPECT_NE(r.output.find("lib.yaml:2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("libgate_copy.so"), std::string::npos) << r.output;
}

/// The slow face graph with its sleeping node replaced by @p node (YAML of one node, on cpu2) from the test
/// plugin; "" when the graph file no longer has the places this edits.
std::string slow_graph_with_plugin_node(const std::string& node) {
  std::string graph = read_file(kSlowFace);
  const std::string modules_line = "modules: [vg.detection, vg.inference, vg.example]";
  const auto modules = graph.find(modules_line);
  const auto slow = graph.find("  slow:\n");
  const auto overlay = graph.find("  overlay:\n");
  if (modules == std::string::npos || slow == std::string::npos || overlay == std::string::npos) return {};
  graph.replace(slow, overlay - slow, node);
  graph.replace(modules, modules_line.size(),
                std::string("targets: {cpu0: {}, cpu1: {}, npu0: {kind: npu}, cpu2: {kind: cpu}}\n") +
                    "modules: [vg.detection, vg.inference, vg.example, {library: \"" + VG_TEST_GATE_PATH + "\"}]");
  return graph;
}

/// The slow face graph with its sleeping node made to hang past a 300 ms deadline.
std::string hung_graph() {
  std::string graph = read_file(kSlowFace);
  const std::string sleep = "    attributes: {micros: 80000}";
  const auto at = graph.find(sleep);
  if (at == std::string::npos) return {};
  graph.replace(at, sleep.size(), "    attributes: {micros: 100000000}\n    deadline_ms: 300");
  return graph;
}

/// Every line is whole JSON; a failed frame's error names that frame. Returns the number of lines.
std::size_t check_error_lines(const fs::path& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    json j;
    EXPECT_NO_THROW(j = json::parse(line)) << line;
    if (j.contains("error")) {
      EXPECT_NE(j["error"].get<std::string>().find("on frame " + std::to_string(j["frame"].get<int>()) + ":"), std::string::npos)
          << "a frame's error names its own frame: " << line;
    }
  }
  return n;
}

TEST_F(ServiceCliTest, AHungKernelFaultsItsTargetAndTheRunEndsNamingIt) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  // The slow node sleeps 100 s per frame: past its 300 ms deadline it is given up on and cpu0 is faulted.
  // Every later frame would fail, so the run stops reading, writes its outputs and names the node.
  const std::string graph = hung_graph();
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "hung.yaml") << graph;
  const fs::path out = base / "out";
  Child run({"run", (base / "hung.yaml").string(), "--no-progress", "--input", video(), "-o", out.string()},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  const int code = run.wait(90s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("node 'slow' (kernel 'vg.example.wait' on cpu0) has run frame 0 for"), std::string::npos) << log;
  EXPECT_NE(log.find("node 'slow' (kernel 'vg.example.wait' on cpu0) overran its 300.0 ms deadline and was given up "
                     "on; its target cpu0 is faulted"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("STUCK"), std::string::npos) << "the report names the stuck node\n" << log;
  const std::size_t lines = check_error_lines(out / "detections.jsonl");
  EXPECT_GE(lines, 1u);
  EXPECT_LT(lines, 270u) << "the run ended at the fault, not after every frame failed";
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
}

// The same on a live input, which never ends by itself: before, every later frame failed for ever.
TEST_F(ServiceCliTest, AFaultedTargetEndsALiveRun) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string graph = hung_graph();
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "hung.yaml") << graph;
  const fs::path out = base / "out";
  Child run({"run", (base / "hung.yaml").string(), "--no-progress", "--input",
             "gst:videotestsrc is-live=true ! video/x-raw,width=320,height=240,format=BGR,framerate=30/1 ! appsink",
             "-o", out.string()},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  const int code = run.wait(90s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("its target cpu0 is faulted and every later frame would fail, so the run ends"), std::string::npos)
      << log;
  check_error_lines(out / "detections.jsonl");
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
}

/// The face graph with a node that holds every frame until a file that never appears (no deadline).
std::string gated_graph(const fs::path& gate) {
  return slow_graph_with_plugin_node("  gate:\n    kernel: test.gate\n    target: cpu2\n    attributes: {path: \"" + gate.string() +
                                     "\", timeout_ms: 3600000}\n");
}

// A kernel with no deadline that never returns: the first signal drains, the second abandons (both wait
// for the kernel), the third ends the process at once, naming the node and keeping every output whole.
TEST_F(ServiceCliTest, AThirdSignalEndsARunStuckInAKernel) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string graph = gated_graph(base / "never");
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "gated.yaml") << graph;
  const fs::path out = base / "out";
  Child run({"run", (base / "gated.yaml").string(), "--no-progress", "--input", video(), "-o", out.string(),
             "--stop-timeout", "600"},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  ASSERT_TRUE(wait_for_lines(out / "detections.jsonl", 1, 90s)) << read_file(base / "log.txt");
  run.signal(SIGINT);
  std::this_thread::sleep_for(300ms);
  run.signal(SIGINT);
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(run.exited()) << "two signals wait for the stuck kernel";
  const auto third = std::chrono::steady_clock::now();
  run.signal(SIGTERM);
  const int code = run.wait(30s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_LT(std::chrono::steady_clock::now() - third, 10s) << log;
  EXPECT_NE(log.find("a third signal: ending the process without waiting for the frames in flight; still running: "
                     "node 'gate' (kernel 'test.gate' on cpu2"),
            std::string::npos)
      << log;
  EXPECT_GE(check_jsonl(out / "detections.jsonl"), 1u);
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
}

// The same without a third signal: the stop limit (--drain-timeout + --stop-timeout) ends it.
TEST_F(ServiceCliTest, TheStopLimitEndsARunStuckInAKernel) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string graph = gated_graph(base / "never");
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "gated.yaml") << graph;
  const fs::path out = base / "out";
  Child run({"run", (base / "gated.yaml").string(), "--no-progress", "--input", video(), "-o", out.string(),
             "--drain-timeout", "1", "--stop-timeout", "2"},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  ASSERT_TRUE(wait_for_lines(out / "detections.jsonl", 1, 90s)) << read_file(base / "log.txt");
  const auto signalled = std::chrono::steady_clock::now();
  run.signal(SIGTERM);
  const int code = run.wait(60s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_LT(std::chrono::steady_clock::now() - signalled, 20s) << log;
  EXPECT_NE(log.find("the stop took longer than --drain-timeout + --stop-timeout"), std::string::npos) << log;
  EXPECT_NE(log.find("node 'gate' (kernel 'test.gate' on cpu2"), std::string::npos) << log;
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
}

// A kernel that crashes the process: the exit status stays 128 + SIGSEGV (a supervisor restarts it), and
// the last line names the node, its target and the frame it crashed on.
TEST_F(ServiceCliTest, ACrashingKernelIsNamedWithItsFrame) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string graph = slow_graph_with_plugin_node("  crash:\n    kernel: test.crash\n    target: cpu2\n    attributes: {frame: 3}\n");
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "crash.yaml") << graph;
  Child run({"run", (base / "crash.yaml").string(), "--no-progress", "--input", video(), "-o", (base / "out").string()},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  const int code = run.wait(90s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 128 + SIGSEGV) << log;
  EXPECT_NE(log.find("visiongraph run: SIGSEGV (invalid memory access) in node 'crash' (kernel 'test.crash' on cpu2), "
                     "in its process of frame 3"),
            std::string::npos)
      << log;
}

// A kernel leaking 8 MiB a frame: the growth shows in the stats, and --max-rss ends the run (exit 1,
// outputs written) instead of letting it take the machine's memory.
TEST_F(ServiceCliTest, MaxRssEndsARunWithALeakingKernel) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const std::string graph = slow_graph_with_plugin_node("  leak:\n    kernel: test.leak\n    target: cpu2\n    attributes: {megabytes: 8}\n");
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "leak.yaml") << graph;
  const fs::path out = base / "out";
  Child run({"run", (base / "leak.yaml").string(), "--no-progress", "--input", video(), "-o", out.string(),
             "--max-rss", "700M"},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  const int code = run.wait(120s);
  const std::string log = read_file(base / "log.txt");
  EXPECT_EQ(code, 1) << log;
  EXPECT_NE(log.find("passed --max-rss 700.0 MiB (it grew by"), std::string::npos) << log;
  const std::size_t lines = check_jsonl(out / "detections.jsonl");
  EXPECT_GT(lines, 10u);
  EXPECT_LT(lines, 270u) << "the run ended before the file did";
  EXPECT_TRUE(is_json(read_file(out / "trace.json")));
}

using vg::test::shell;  // [code, output]

// A running service answers `ctl SOCK stats` with its figures as JSON and serves the same figures to
// Prometheus (--metrics): checked with the real clients, curl and promtool.
TEST_F(ServiceCliTest, ARunningServiceReportsItsStatsAndMetrics) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const fs::path out = base / "out", sock = base / "vg.sock";
  Child run({"run", kFace, "--no-progress", "--realtime", "--input", video(), "-o", out.string(), "--control",
             sock.string(), "--metrics", "127.0.0.1:0"},
            base / "log.txt");
  ASSERT_TRUE(run.running());
  ASSERT_TRUE(wait_for_lines(out / "detections.jsonl", 10, 90s)) << read_file(base / "log.txt");
  const std::string cli = VG_CLI_PATH;

  const auto [stats_code, stats] = shell(cli + " ctl " + sock.string() + " stats");
  ASSERT_EQ(stats_code, 0) << stats;
  ASSERT_EQ(stats.rfind("ok {", 0), 0u) << stats;
  const json j = json::parse(stats.substr(3));
  EXPECT_EQ(j["graph"], "face_detect");
  EXPECT_GE(j["frames"]["read"].get<int>(), 10);
  EXPECT_GT(j["fps"].get<double>(), 0.0);
  EXPECT_EQ(j["source"]["spec"], video());
  EXPECT_GT(j["memory"]["resident_bytes"].get<std::int64_t>(), 0);
  ASSERT_EQ(j["nodes"].size(), 5u);
  EXPECT_EQ(j["nodes"][1]["name"], "detector");
  EXPECT_EQ(j["nodes"][3]["name"], "track");
  EXPECT_GT(j["nodes"][1]["executions"].get<int>(), 0);

  const auto [help_code, help] = shell(cli + " ctl " + sock.string() + " help");
  EXPECT_EQ(help_code, 0);
  EXPECT_NE(help.find("NODE"), std::string::npos) << help;
  EXPECT_NE(help.find("decode      vg.detection.postprocess   set_score_threshold (number)"), std::string::npos) << help;
  EXPECT_NE(help.find("vg.detection.track"), std::string::npos) << help;

  const std::string log = read_file(base / "log.txt");
  const auto at = log.find("metrics at http://127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << log;
  const std::string url = log.substr(at + 11, log.find('\n', at) - at - 11);
  const auto [curl_code, metrics] = shell("curl -s -S --max-time 10 " + url);
  ASSERT_EQ(curl_code, 0) << metrics;
  EXPECT_NE(metrics.find("visiongraph_frames_total{graph=\"face_detect\",outcome=\"read\"}"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("node=\"detector\",kernel=\"vg.inference\""), std::string::npos) << metrics;
  std::ofstream(base / "metrics.txt") << metrics;
  const auto [lint_code, lint] = shell("promtool check metrics < " + (base / "metrics.txt").string());
  EXPECT_EQ(lint_code, 0) << lint;

  run.signal(SIGINT);
  EXPECT_EQ(run.wait(60s), 0) << read_file(base / "log.txt");
}

// A metrics port in use fails the start, before the outputs of the previous run are touched.
TEST_F(ServiceCliTest, AMetricsPortInUseFailsTheStart) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const int taken = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(taken, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(taken, 1), 0);
  socklen_t len = sizeof addr;
  ::getsockname(taken, reinterpret_cast<sockaddr*>(&addr), &len);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  fs::create_directories(base / "out");
  std::ofstream(base / "out" / "detections.jsonl") << "previous\n";
  const auto r = run_cli("run " + kFace + " --no-progress --input " + video() + " -o " + (base / "out").string() +
                         " --metrics " + port);
  ::close(taken);
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("127.0.0.1:" + port + ": cannot listen"), std::string::npos) << r.output;
  EXPECT_EQ(read_file(base / "out" / "detections.jsonl"), "previous\n");
}

// Detections leave as soon as the node producing them finishes: with a frame held open by a node that
// waits for a file, frame 0's detections line is written (and flushed) while the frame is still running.
TEST_F(ServiceCliTest, DetectionsLeaveBeforeTheRestOfTheirFrameFinishes) {
  if (!have_face_assets()) GTEST_SKIP() << "run scripts/fetch_assets.sh";
  const fs::path image = vg::test::assets_dir() / "messi5.jpg";
  if (!fs::exists(image)) GTEST_SKIP() << "messi5.jpg missing";
  const fs::path gate = base / "open";
  const std::string graph = slow_graph_with_plugin_node(
      "  gate:\n    kernel: test.gate\n    target: cpu2\n    attributes: {path: \"" + gate.string() + "\", timeout_ms: 60000}\n");
  ASSERT_FALSE(graph.empty());
  std::ofstream(base / "gated.yaml") << graph;

  const fs::path out = base / "out";
  Child child({"run", (base / "gated.yaml").string(), "--no-progress", "--input", image.string(), "-o", out.string()},
              base / "log.txt");
  ASSERT_TRUE(child.running());
  // The frame cannot complete until the gate opens, so a line now can only come from early publishing.
  std::string line;
  const auto until = std::chrono::steady_clock::now() + 90s;
  while (line.empty() && std::chrono::steady_clock::now() < until && !child.exited()) {
    std::ifstream in(out / "detections.jsonl");
    std::getline(in, line);
    if (line.empty()) std::this_thread::sleep_for(50ms);
  }
  const bool published_early = !line.empty();
  std::ofstream(gate) << "open";
  const int code = child.wait(90s);
  EXPECT_TRUE(published_early) << "frame 0's detections waited for the rest of the frame\n" << read_file(base / "log.txt");
  EXPECT_EQ(code, 0) << read_file(base / "log.txt");
  if (published_early) {
    const json j = json::parse(line);
    EXPECT_EQ(j["frame"], 0);
    EXPECT_GE(j["detections"].size(), 1u) << line;
  }
  EXPECT_EQ(check_jsonl(out / "detections.jsonl"), 1u);
}

}  // namespace
