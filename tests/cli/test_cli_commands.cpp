// Every subcommand of `visiongraph`, bad arguments, missing files and bad graph files: clear messages and
// the conventional exit status (0 ok, 1 runtime failure, 2 usage error).

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>

#include "cli_runner.hpp"

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

const std::string kSmall = VG_SOURCE_DIR "/tests/yaml/data/small.yaml";
const std::string kMalformed = VG_SOURCE_DIR "/tests/cli/data/malformed.yaml";
const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";

TEST(CliTest, HelpListsTheSubcommandsAndExitsZero) {
  const auto r = run_cli("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* sub : {"run", "verify", "dot", "kernels", "doctor", "ctl"}) EXPECT_HAS(r.output, sub);
}

TEST(CliTest, EverySubcommandHasHelp) {
  for (const char* sub : {"run", "verify", "dot", "kernels", "doctor", "ctl"}) {
    const auto r = run_cli(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_HAS(r.output, "Usage:");
  }
  EXPECT_HAS(run_cli("run --help").output, "--control");
}

TEST(CliTest, NoSubcommandIsAUsageError) {
  const auto r = run_cli("");
  EXPECT_EQ(r.code, 2);
  EXPECT_HAS(r.output, "subcommand");
}

TEST(CliTest, AnUnknownSubcommandOrOptionIsAUsageError) {
  EXPECT_EQ(run_cli("frobnicate").code, 2);
  const auto typo = run_cli("verfy " + kSmall);
  EXPECT_EQ(typo.code, 2);
  EXPECT_HAS(typo.output, "unknown command 'verfy'; did you mean 'verify'?");
  EXPECT_HAS(run_cli("frobnicate").output, "(commands: run, verify, dot, kernels, doctor, ctl;");
  const auto r = run_cli("verify " + kSmall + " --bogus");
  EXPECT_EQ(r.code, 2);
  EXPECT_HAS(r.output, "--bogus");
}

TEST(CliTest, AMisspelledOptionGetsASuggestion) {
  const auto r = run_cli("run " + kSmall + " --inptu x.jpg");
  EXPECT_EQ(r.code, 2);
  EXPECT_HAS(r.output, "visiongraph run: unknown option '--inptu'; did you mean '--input'?");
  const auto publish = run_cli("run " + kSmall + " --input x.jpg --publsh -");
  EXPECT_EQ(publish.code, 2);
  EXPECT_HAS(publish.output, "did you mean '--publish'?");
  const auto equals = run_cli("verify " + kSmall + " --sizee=64x64");
  EXPECT_EQ(equals.code, 2);
  EXPECT_HAS(equals.output, "unknown option '--sizee'; did you mean '--size'?");
}

// Malformed values found once the run is set up are usage errors too, before anything is opened.
TEST(CliTest, MalformedRunValuesAreUsageErrors) {
  if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "messi5.jpg"}))
    GTEST_SKIP() << "assets missing: run scripts/fetch_assets.sh";
  const fs::path out = fs::temp_directory_path() / ("vg_cli_usage_" + std::to_string(::getpid()));
  const std::string common = "run " + kFace + " --no-progress --input " + (vg::test::assets_dir() / "messi5.jpg").string() +
                             " -o " + out.string();
  const auto not_mqtt = run_cli(common + " --publish broker:1883/topic");
  EXPECT_EQ(not_mqtt.code, 2);
  EXPECT_HAS(not_mqtt.output, "--publish 'broker:1883/topic': expected mqtt://HOST:PORT/TOPIC");
  const auto no_topic = run_cli(common + " --publish mqtt://127.0.0.1:1883");
  EXPECT_EQ(no_topic.code, 2);
  EXPECT_HAS(no_topic.output, "--publish 'mqtt://127.0.0.1:1883'");
  const auto bad_control = run_cli(common + " --control mqtt://127.0.0.1:99999/t");
  EXPECT_EQ(bad_control.code, 2);
  EXPECT_HAS(bad_control.output, "--control 'mqtt://127.0.0.1:99999/t'");
  // An image input has no video to serve.
  const auto rtsp = run_cli(common + " --serve-rtsp 0");
  EXPECT_EQ(rtsp.code, 2);
  EXPECT_HAS(rtsp.output, "--serve-rtsp serves the annotated video of a video, stream or camera input");
  EXPECT_FALSE(fs::exists(out / "detections.jsonl")) << "nothing was written";
  fs::remove_all(out);
}

// --no-plugins on the commands that would otherwise load a plugin: verify, dot and kernels.
TEST(CliTest, NoPluginsOnVerifyDotAndKernels) {
  const std::string library_graph = VG_SOURCE_DIR "/apps/examples/bright_spot_library.yaml";
  const auto verify = run_cli("verify --no-plugins " + library_graph);
  EXPECT_EQ(verify.code, 1);
  EXPECT_HAS(verify.output, "bright_spot_library.yaml:6:5: key 'modules'");
  EXPECT_HAS(verify.output, "refused: --no-plugins forbids loading code from a graph file");
  const auto dot = run_cli("dot --no-plugins " + library_graph);
  EXPECT_EQ(dot.code, 1);
  EXPECT_HAS(dot.output, "--no-plugins");
  const auto kernels = run_cli("kernels --no-plugins --module " + std::string(VG_TEST_GATE_PATH));
  EXPECT_EQ(kernels.code, 2);
  EXPECT_HAS(kernels.output, "refused by --no-plugins");
  EXPECT_EQ(run_cli("verify --no-plugins " + kSmall).code, 0) << "a graph of built-in modules is fine";
  const auto typo = run_cli("kernels vg.detection.letterbx");
  EXPECT_EQ(typo.code, 1);
  EXPECT_HAS(typo.output, "did you mean 'vg.detection.letterbox'?");
}

TEST(CliTest, VerifyAcceptsAGoodGraph) {
  const auto r = run_cli("verify " + kSmall);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_HAS(r.output, "ok: graph 'small', 2 nodes");
  EXPECT_HAS(r.output, "scale  vg.example.scale @cpu1");
}

TEST(CliTest, VerifyOfAMissingFileIsAUsageError) {
  const auto r = run_cli("verify /nonexistent/graph.yaml");
  EXPECT_EQ(r.code, 2);
  EXPECT_HAS(r.output, "/nonexistent/graph.yaml");
}

TEST(CliTest, VerifyOfMalformedYamlNamesTheLineAndFails) {
  const auto r = run_cli("verify " + kMalformed);
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "malformed.yaml:4:1: malformed YAML");
}

TEST(CliTest, VerifyReportsASchemaErrorWithItsPosition) {
  const fs::path bad = fs::temp_directory_path() / "vg_cli_bad_kernel.yaml";
  std::ofstream(bad) << "modules: [vg.example]\nnodes:\n  n: {kernel: vg.example.nope}\n";
  const auto r = run_cli("verify " + bad.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "vg_cli_bad_kernel.yaml:3:15: key 'kernel': unknown kernel 'vg.example.nope'");
  fs::remove(bad);
}

TEST(CliTest, VerifyFillsAutoSizesFromTheSizeOption) {
  if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx"})) GTEST_SKIP() << "assets missing: run scripts/fetch_assets.sh";
  const auto r = run_cli("verify " + kFace + " --size 320x240");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_HAS(r.output, "detector  vg.inference @npu0");
  EXPECT_EQ(run_cli("verify " + kFace + " --size 320").code, 2);
}

TEST(CliTest, VerifyReportsAMissingModelAtTheNode) {
  const auto r = run_cli("verify " + kFace + " --assets /nonexistent-assets");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "face_detect.yaml:");
  EXPECT_HAS(r.output, "node 'detector'");
}

TEST(CliTest, DotWritesGraphvizToStdoutOrAFile) {
  const auto r = run_cli("dot " + kSmall);
  EXPECT_EQ(r.code, 0);
  EXPECT_HAS(r.output, "digraph \"small\"");
  const fs::path out = fs::temp_directory_path() / "vg_cli_small.dot";
  EXPECT_EQ(run_cli("dot " + kSmall + " -o " + out.string()).code, 0);
  std::ifstream in(out);
  std::string first;
  std::getline(in, first);
  EXPECT_HAS(first, "digraph");
  fs::remove(out);
  EXPECT_EQ(run_cli("dot " + kSmall + " -o /nonexistent-dir/x.dot").code, 1);
}

TEST(CliTest, KernelsListsParametersAttributesCommandsAndTargets) {
  const auto r = run_cli("kernels");
  EXPECT_EQ(r.code, 0);
  EXPECT_HAS(r.output, "vg.detection.postprocess  (module vg.detection)");
  EXPECT_HAS(r.output, "set_score_threshold  (number)");
  EXPECT_HAS(r.output, "vg.inference  (module vg.inference)");
  EXPECT_HAS(r.output, "targets: npu");
  EXPECT_HAS(r.output, "score_threshold  number = 0.5");
  const auto one = run_cli("kernels vg.example.add");
  EXPECT_EQ(one.code, 0);
  EXPECT_EQ(one.output.find("vg.detection"), std::string::npos);
  const auto none = run_cli("kernels no.such.kernel");
  EXPECT_EQ(none.code, 1);
  EXPECT_HAS(none.output, "no kernel matches 'no.such.kernel'");
}

TEST(CliTest, DoctorReportsTargetsOpencvAndTheNpu) {
  const auto r = run_cli("doctor");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_HAS(r.output, "targets (default context): cpu0 cpu1 npu0");
  EXPECT_HAS(r.output, "opencv: 4.");
  EXPECT_HAS(r.output, "npu");
  EXPECT_HAS(r.output, "GStreamer 1.");
  EXPECT_HAS(r.output, "x264enc");
}

// A board without the GStreamer plugin packages (an empty plugin registry here): doctor names every
// missing element with its Debian package and what needs it, and a run says which package to install.
TEST(CliTest, MissingGStreamerPluginsAreNamedWithTheirPackages) {
  const std::string bare = "GST_PLUGIN_SYSTEM_PATH_1_0=/nonexistent GST_PLUGIN_PATH_1_0=/nonexistent GST_REGISTRY_1_0=" +
                           (fs::temp_directory_path() / ("vg_bare_registry_" + std::to_string(::getpid()) + ".bin")).string();
  const auto doctor = run_cli("doctor", bare);
  EXPECT_EQ(doctor.code, 0) << doctor.output;
  EXPECT_HAS(doctor.output, "missing uridecodebin (Debian package gstreamer1.0-plugins-base): needed for video files");
  EXPECT_HAS(doctor.output, "missing x264enc (Debian package gstreamer1.0-plugins-ugly)");
  EXPECT_HAS(doctor.output, "missing avdec_h264 (Debian package gstreamer1.0-libav)");
  const fs::path video = fs::temp_directory_path() / ("vg_bare_" + std::to_string(::getpid()) + ".avi");
  std::ofstream(video) << "not really a video";
  const auto run = run_cli("run " + kFace + " --no-progress --input " + video.string() + " -o " +
                               (fs::temp_directory_path() / ("vg_bare_out_" + std::to_string(::getpid()))).string(),
                           bare);
  EXPECT_EQ(run.code, 1) << run.output;
  EXPECT_HAS(run.output, "no element \"uridecodebin\" (install the Debian package gstreamer1.0-plugins-base");
  fs::remove(video);
}

TEST(CliTest, CtlWithoutARunningGraphFails) {
  const auto r = run_cli("ctl /nonexistent/vg.sock decode get_settings");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "cannot connect to control socket '/nonexistent/vg.sock'");
}

TEST(CliTest, CtlWithoutACommandIsAUsageError) {
  EXPECT_EQ(run_cli("ctl /tmp/x.sock").code, 2);
  const auto r = run_cli("ctl /tmp/x.sock decode");
  EXPECT_EQ(r.code, 2);
  EXPECT_HAS(r.output, "missing COMMAND");
}

TEST(CliTest, RunRejectsBadArguments) {
  EXPECT_EQ(run_cli("run --input x.jpg").code, 2);                     // no graph
  EXPECT_EQ(run_cli("run " + kSmall).code, 2);                         // no --input
  EXPECT_EQ(run_cli("run " + kSmall + " --input x --frames 0").code, 2);
  EXPECT_EQ(run_cli("run " + kSmall + " --input x --set NOEQUALS").code, 2);
  EXPECT_EQ(run_cli("run /nonexistent.yaml --input x").code, 2);
}

TEST(CliTest, RunWithAMissingInputFails) {
  const auto r = run_cli("run " + kFace + " --input /nonexistent/video.avi");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "/nonexistent/video.avi: not found");
}

TEST(CliTest, RunWithAMissingCameraFails) {
  const auto r = run_cli("run " + kFace + " --input /dev/video99");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "/dev/video99: no such video device");
}

TEST(CliTest, RunNeedsAnInputGraphParameter) {
  const fs::path img = fs::temp_directory_path() / "vg_cli_tiny.ppm";
  std::ofstream(img) << "P3\n1 1\n255\n0 0 0\n";
  const auto r = run_cli("run " + kSmall + " --input " + img.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "needs a graph parameter named 'input'");
  fs::remove(img);
}

TEST(CliTest, RunOfABadGraphFileFailsWithItsPosition) {
  const auto r = run_cli("run " + kMalformed + " --input /dev/null");
  EXPECT_EQ(r.code, 1);
  EXPECT_HAS(r.output, "malformed.yaml:4:1");
}

TEST(CliTest, HelpShowsPlainFlagNames) {
  const auto r = run_cli("run --help");
  EXPECT_HAS(r.output, "--no-progress");
  EXPECT_EQ(r.output.find("{false}"), std::string::npos) << r.output;
}

TEST(CliTest, KernelsModuleListsOnlyThePluginsKernels) {
  const auto r = run_cli(std::string("kernels --module ") + VG_TEST_GATE_PATH);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_HAS(r.output, "test.gate  (module test.gate)");
  EXPECT_HAS(r.output, "path  string = required");
  EXPECT_EQ(r.output.find("vg.example.add"), std::string::npos) << "built-in kernels are not listed with --module";
  const auto missing = run_cli("kernels --module /nonexistent/plugin.so");
  EXPECT_EQ(missing.code, 2);
  EXPECT_HAS(missing.output, "/nonexistent/plugin.so");
  const fs::path not_a_module = fs::temp_directory_path() / "vg_cli_not_a_module.so";
  std::ofstream(not_a_module) << "not an ELF file";
  const auto bad = run_cli("kernels --module " + not_a_module.string());
  EXPECT_EQ(bad.code, 1);
  EXPECT_HAS(bad.output, not_a_module.string());
  fs::remove(not_a_module);
}

// --write NAME: any output graph parameter, per frame, as files (here the letterboxed model input).
TEST(CliTest, RunWritesAnyOutputGraphParameterPerFrame) {
  if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "messi5.jpg"}))
    GTEST_SKIP() << "assets missing: run scripts/fetch_assets.sh";
  const fs::path dir = fs::temp_directory_path() / ("vg_cli_write_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ifstream in(kFace);
  std::string graph((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = graph.find("graph_parameters:\n");
  ASSERT_NE(at, std::string::npos);
  graph.insert(at + std::string("graph_parameters:\n").size(),
               "  letterboxed: {node: letterbox, parameter: output, buffers: 4}\n");
  std::ofstream(dir / "face.yaml") << graph;
  const std::string common = "run " + (dir / "face.yaml").string() + " --no-progress --input " +
                             (vg::test::assets_dir() / "messi5.jpg").string() + " -o " + (dir / "out").string();

  const auto r = run_cli(common + " --write letterboxed");
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path npy = dir / "out" / "letterboxed" / "000000.npy";
  ASSERT_TRUE(fs::exists(npy)) << r.output;
  std::ifstream f(npy, std::ios::binary);
  std::string head(128, '\0');
  f.read(head.data(), 128);
  EXPECT_HAS(head, "'descr': '<f4'");
  EXPECT_HAS(head, "'shape': (1,256,256,3)");
  EXPECT_EQ(fs::file_size(npy), 128u + 256u * 256u * 3u * 4u);
  EXPECT_HAS(r.output, "letterboxed (1 frames)");

  // Without --write, an output the run does not read is refused before the first frame, naming it and the
  // fix (the run used to stall with 0 frames and no message once its buffers were all taken).
  fs::remove_all(dir / "out");
  const auto unread = run_cli(common);
  EXPECT_EQ(unread.code, 1) << unread.output;
  EXPECT_HAS(unread.output, "graph parameter 'letterboxed' (node 'letterbox', 'output') is an output that 'visiongraph run' does not read");
  EXPECT_HAS(unread.output, "add --write letterboxed");
  EXPECT_FALSE(fs::exists(dir / "out" / "detections.jsonl")) << "refused before any output was opened";

  // Names the graph cannot write are usage errors (exit status 2), with a suggestion for a typo.
  const auto unknown = run_cli(common + " --write scores");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_HAS(unknown.output, "--write scores: the graph has no graph parameter 'scores'; it has: letterboxed, input, detections, annotated");
  const auto typo = run_cli(common + " --write letterboxd");
  EXPECT_EQ(typo.code, 2);
  EXPECT_HAS(typo.output, "did you mean 'letterboxed'?");
  const auto input = run_cli(common + " --write input");
  EXPECT_EQ(input.code, 2);
  EXPECT_HAS(input.output, "--write input");
  EXPECT_EQ(run_cli(common + " --write .").code, 2);
  fs::remove_all(dir);
}

}  // namespace
