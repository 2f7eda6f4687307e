// End-to-end frames/s and latency of the face-detection app (apps/face_detect/face_detect.yaml) on
// Megamind.avi: the graph sequential (pipeline depth 1) and pipelined (depth 3, as in the file), against a
// hand-written single-thread loop making the same calls (letterbox, OpenCV DNN forward, BlazeFace decode +
// weighted NMS, overlay). Frames are decoded once before timing. Figures and command: docs/bench-app.md.
//
//   build/bench/bench_app --benchmark_repetitions=3
//   VG_BENCH_FRAMES=90 build/bench/bench_app        (fewer frames)

#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/detection/overlay.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

fs::path assets_dir() {
  if (const char* env = std::getenv("VG_ASSETS_DIR"); env && *env) return env;
  return fs::path(VG_SOURCE_DIR) / ".cache" / "assets";
}

constexpr const char* kModel = "face_detection_back_256x256_barracuda.onnx";
constexpr int kSize = 256;

/// The clip's frames, decoded once (BGR).
const std::vector<cv::Mat>& frames() {
  static const std::vector<cv::Mat> all = [] {
    std::vector<cv::Mat> out;
    cv::VideoCapture cap((assets_dir() / "Megamind.avi").string());
    std::size_t limit = 270;
    if (const char* env = std::getenv("VG_BENCH_FRAMES")) limit = static_cast<std::size_t>(std::max(1, std::atoi(env)));
    cv::Mat f;
    while (out.size() < limit && cap.read(f)) out.push_back(f.clone());
    return out;
  }();
  return all;
}

bool have_assets(benchmark::State& state) {
  if (fs::exists(assets_dir() / kModel) && !frames().empty()) return true;
  state.SkipWithError("assets missing: run scripts/fetch_assets.sh (or set VG_ASSETS_DIR)");
  return false;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

/// The YAML graph, streamed like `visiongraph run` does (block policy, outputs recycled in frame order).
void BM_FaceGraph(benchmark::State& state, std::size_t depth) {
  if (!have_assets(state)) return;
  const auto& clip = frames();
  vg::yaml::GraphDesc desc = vg::yaml::parse_file(VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml");
  desc.set_auto_size(static_cast<std::uint32_t>(clip[0].cols), static_cast<std::uint32_t>(clip[0].rows));
  desc.pipeline_depth = depth;
  vg::yaml::BuildOptions options;
  options.modules["vg.detection"] = [] { return vg::detection::make_detection_module(); };
  options.modules["vg.inference"] = [] { return vg::inference::make_inference_module(); };
  options.variables["VG_ASSETS_DIR"] = assets_dir().string();
  auto loaded = vg::yaml::build(desc, options);
  vg::Graph& g = loaded->graph();
  const auto in = loaded->graph_parameter("input");
  const auto det = loaded->graph_parameter("detections");
  const auto ann = loaded->graph_parameter("annotated");
  const vg::DataId frame_data = g.data_of(in);
  for (auto out : {det, ann})
    for (std::uint32_t i = 0; i < g.num_buffers(g.data_of(out)); ++i)
      if (g.enqueue(out, i) != vg::Status::ok) state.SkipWithError("enqueue of an output failed");
  if (g.start() != vg::Status::ok) state.SkipWithError("start failed");
  std::size_t faces = 0;
  for (auto _ : state) {
    g.reset_stats();
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::uint32_t> free_inputs;
    for (std::uint32_t i = 0; i < g.num_buffers(frame_data); ++i) free_inputs.push_back(i);
    std::thread consumer([&] {
      for (std::size_t done = 0; done < clip.size(); ++done) {
        vg::DequeuedBuffer bi{}, bd{}, ba{};
        if (g.dequeue(in, bi, 30s) != vg::Status::ok || g.dequeue(det, bd, 30s) != vg::Status::ok ||
            g.dequeue(ann, ba, 30s) != vg::Status::ok)
          return;
        faces += g.user_data<vg::detection::DetectionPacket>(g.data_of(det), bd.index)->count;
        (void)g.enqueue(det, bd.index);
        (void)g.enqueue(ann, ba.index);
        {
          std::lock_guard lock(mu);
          free_inputs.push_back(bi.index);
        }
        cv.notify_one();
      }
    });
    for (const cv::Mat& f : clip) {
      std::uint32_t idx = 0;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return !free_inputs.empty(); });
        idx = free_inputs.front();
        free_inputs.pop_front();
      }
      vg::ImageView view = g.image(frame_data, idx);
      f.copyTo(cv::Mat(f.rows, f.cols, CV_8UC3, view.plane(0), view.stride(0)));
      if (g.enqueue(in, idx, 0, 30s) != vg::Status::ok) break;
    }
    consumer.join();
  }
  const vg::GraphStats stats = g.stats();
  (void)g.stop();
  state.counters["fps"] = static_cast<double>(stats.frames_completed) / std::max(1e-9, stats.wall_seconds);
  state.counters["latency_p50_ms"] = static_cast<double>(stats.latency_p50_ns) / 1e6;
  state.counters["latency_p99_ms"] = static_cast<double>(stats.latency_p99_ns) / 1e6;
  state.counters["frames"] = static_cast<double>(stats.frames_completed);
  state.counters["faces"] = static_cast<double>(faces);
}

/// The same work in one thread, written by hand.
void BM_HandWrittenLoop(benchmark::State& state) {
  if (!have_assets(state)) return;
  using namespace vg::detection;
  const auto& clip = frames();
  const LetterboxGeometry geometry = make_letterbox(clip[0].cols, clip[0].rows, kSize, kSize);
  Preprocessor pre(geometry, PreprocessConfig{});  // f32 NHWC, RGB, v/127.5-1, pad -> -1
  cv::dnn::Net net = cv::dnn::readNetFromONNX((assets_dir() / kModel).string());
  const std::vector<cv::String> names = net.getUnconnectedOutLayersNames();
  const int shape[] = {1, kSize, kSize, 3};
  cv::Mat input(4, shape, CV_32F);
  std::vector<cv::Mat> outs;
  auto forward = [&](const cv::Mat& bgr) {
    ImageRef ref;
    ref.format = PixelFormat::bgr24;
    ref.width = bgr.cols;
    ref.height = bgr.rows;
    ref.plane[0] = bgr.data;
    ref.stride[0] = bgr.step;
    (void)pre.run(ref, input.ptr<float>());
    net.setInput(input);
    net.forward(outs, names);
  };
  auto tensors_of = [&](std::vector<TensorRef>& refs) {
    refs.clear();
    for (const cv::Mat& m : outs) {
      TensorRef t;
      t.data = m.ptr<float>();
      t.type = ElemType::f32;
      t.rank = m.dims;
      for (int d = 0; d < m.dims; ++d) t.dims[d] = m.size[d];
      refs.push_back(t);
    }
  };
  forward(clip[0]);  // learn the output shapes, warm up
  std::vector<TensorRef> refs;
  tensors_of(refs);
  PostprocessConfig cfg;
  cfg.decoder = DecoderKind::blazeface;
  cfg.decode.input_w = cfg.decode.input_h = kSize;
  cfg.decode.score_threshold = 0.5f;
  cfg.nms = {NmsKind::weighted, 0.3f, 100, 100};
  Postprocessor post(cfg, refs);
  Overlay overlay({}, {"face"});
  auto packet = std::make_unique<DetectionPacket>();
  cv::Mat annotated;
  std::vector<double> latency_ms;
  std::size_t faces = 0;
  double seconds = 0;
  for (auto _ : state) {
    latency_ms.clear();
    const auto t0 = std::chrono::steady_clock::now();
    for (const cv::Mat& f : clip) {
      const auto s = std::chrono::steady_clock::now();
      forward(f);
      tensors_of(refs);
      post.run(refs, geometry, *packet);
      f.copyTo(annotated);
      overlay.draw(annotated.data, annotated.cols, annotated.rows, annotated.step, *packet);
      faces += packet->count;
      latency_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  state.counters["fps"] = static_cast<double>(clip.size()) / std::max(1e-9, seconds);
  state.counters["latency_p50_ms"] = percentile(latency_ms, 0.5);
  state.counters["latency_p99_ms"] = percentile(latency_ms, 0.99);
  state.counters["frames"] = static_cast<double>(clip.size());
  state.counters["faces"] = static_cast<double>(faces);
}

BENCHMARK_CAPTURE(BM_FaceGraph, sequential_depth1, std::size_t{1})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_FaceGraph, pipelined_depth3, std::size_t{3})->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HandWrittenLoop)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
