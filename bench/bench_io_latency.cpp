// Capture -> detections latency of the face-detection app as a user runs it (`visiongraph run`), for
// the sample video read three ways in the same run:
//   rtsp            from a real RTSP server on 127.0.0.1 (gst-rtsp-server in this process, the file's
//                   MPEG-4 stream sent as it is, paced at 23.976 fps); live: latest wins
//   file_realtime   the file itself, paced at its frame rate (--realtime): the same arrival pattern
//                   without the network, RTP and jitter buffer
//   file            the file as fast as the graph takes it (back-pressure): latency includes the wait
//                   behind the frames in flight
// Latency is each frame's `latency_ms` in detections.jsonl: its capture time (RTSP: the buffer's PTS on
// the monotonic clock; files: when the frame was read) to its detections being done.
// VG_BENCH_FRAMES limits the frames per run (default: the whole clip, 270).

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "rtsp_test_server.hpp"

namespace {

namespace fs = std::filesystem;
const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";

enum class Input { rtsp, file_realtime, file };

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

void BM_FaceLatency(benchmark::State& state, Input input) {
  if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "Megamind.avi"})) {
    state.SkipWithError("assets missing: run scripts/fetch_assets.sh");
    return;
  }
  const std::string video = (vg::test::assets_dir() / "Megamind.avi").string();
  const char* env = std::getenv("VG_BENCH_FRAMES");
  const std::string frames = env != nullptr && *env != '\0' ? std::string(" --frames ") + env : "";
  const fs::path out = fs::temp_directory_path() / ("vg_bench_latency_" + std::to_string(::getpid()));

  std::vector<double> latencies;
  std::size_t dropped = 0, lines = 0;
  double wall_s = 0;
  for (auto _ : state) {
    fs::remove_all(out);
    vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(video));
    std::string spec = video;
    std::string flags = " --no-progress";
    if (input == Input::rtsp) {
      server.start();
      spec = server.url();
    }
    if (input == Input::file_realtime) flags += " --realtime";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = vg::test::run_cli("run " + kFace + flags + frames + " --input " + spec + " -o " + out.string());
    wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (input == Input::rtsp) server.stop();
    if (r.code != 0) {
      state.SkipWithError(("visiongraph run failed: " + r.output).c_str());
      break;
    }
    std::ifstream in(out / "detections.jsonl");
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      ++lines;
      if (j.value("dropped", false)) {
        ++dropped;
        continue;
      }
      latencies.push_back(j.at("latency_ms").get<double>());
    }
  }
  fs::remove_all(out);
  state.counters["latency_p50_ms"] = percentile(latencies, 0.50);
  state.counters["latency_p99_ms"] = percentile(latencies, 0.99);
  state.counters["frames"] = static_cast<double>(lines);
  state.counters["dropped"] = static_cast<double>(dropped);
  state.counters["fps"] = wall_s > 0 ? static_cast<double>(lines) / wall_s : 0;
}

}  // namespace

// One whole run per iteration (a run is seconds long): --benchmark_repetitions gives the spread.
BENCHMARK_CAPTURE(BM_FaceLatency, rtsp, Input::rtsp)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FaceLatency, file_realtime, Input::file_realtime)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FaceLatency, file, Input::file)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
