// vg.inference (OpenCV DNN backend) through a graph vs a direct cv::dnn forward loop on the same
// BlazeFace model. The ratio benchmark interleaves both in one loop so machine noise hits both alike.
//
//   ./bench_inference --benchmark_min_time=2s
//
// Models: $VG_ASSETS_DIR/face_detection_{front_128x128,back_256x256}_barracuda.onnx
// (default <repo>/.cache/assets; scripts/fetch_assets.sh puts them there).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

std::string model_path(int size) {
  const char* env = std::getenv("VG_ASSETS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : VG_BENCH_DEFAULT_ASSETS_DIR;
  return dir + (size == 128 ? "/face_detection_front_128x128_barracuda.onnx"
                            : "/face_detection_back_256x256_barracuda.onnx");
}

void fill_input(float* x, int size) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (int i = 0; i < size * size * 3; ++i) x[i] = dist(rng);
}

/// The direct loop a hand-written application would use: setInput on a Mat header + forward.
struct DirectForward {
  explicit DirectForward(const std::string& model, int size) : input(static_cast<std::size_t>(size) * size * 3) {
    net = cv::dnn::readNet(model);
    fill_input(input.data(), size);
    const int shape[4] = {1, size, size, 3};
    blob = cv::Mat(4, shape, CV_32F, input.data());
    names = net.getUnconnectedOutLayersNames();
    run();  // warm-up, as the kernel does at create
  }
  void run() {
    net.setInput(blob);
    net.forward(outs, names);
  }
  cv::dnn::Net net;
  std::vector<float> input;
  cv::Mat blob;
  std::vector<cv::String> names;
  std::vector<cv::Mat> outs;
};

/// in (f32 NHWC) -> vg.inference (backend auto -> opencv, on npu0) -> 4 outputs.
struct GraphForward {
  GraphForward(const std::string& model, int size) : graph(context, "bench_inference") {
    context.load_module(vg::inference::make_inference_module());
    in = graph.add_data("in", vg::DataMeta::tensor_of({1, size, size, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc));
    node = graph.add_node("face", "vg.inference");
    graph.set_attribute(node, "model", model);
    graph.bind(node, "input", in);
    for (int i = 0; i < 4; ++i) graph.bind(node, "out" + std::to_string(i), graph.add_virtual("o" + std::to_string(i), vg::DataKind::tensor));
    graph.verify();
    fill_input(graph.tensor(in).data_as<float>(), size);
  }
  vg::Context context;
  vg::Graph graph;
  vg::DataId in;
  vg::NodeId node;
};

bool have_model(benchmark::State& state, const std::string& path) {
  if (std::filesystem::exists(path)) return true;
  state.SkipWithError(("model missing: " + path + " (scripts/fetch_assets.sh)").c_str());
  return false;
}

void BM_DirectForward(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const std::string path = model_path(size);
  if (!have_model(state, path)) return;
  DirectForward direct(path, size);
  for (auto _ : state) {
    direct.run();
    benchmark::DoNotOptimize(direct.outs.data());
  }
}

void BM_GraphInference(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const std::string path = model_path(size);
  if (!have_model(state, path)) return;
  GraphForward g(path, size);
  for (auto _ : state) {
    if (g.graph.process() != vg::Status::ok) {
      state.SkipWithError(g.graph.last_error().describe().c_str());
      break;
    }
  }
}

// One graph frame and one direct forward per iteration; counters: mean of each and graph/direct.
// Second argument: OpenCV threads (0 = OpenCV's default pool, 1 = single-threaded forward).
void BM_GraphOverDirectRatio(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const std::string path = model_path(size);
  if (!have_model(state, path)) return;
  const int default_threads = cv::getNumThreads();
  if (state.range(1) > 0) cv::setNumThreads(static_cast<int>(state.range(1)));
  DirectForward direct(path, size);
  GraphForward g(path, size);
  double graph_s = 0, direct_s = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (g.graph.process() != vg::Status::ok) {
      state.SkipWithError(g.graph.last_error().describe().c_str());
      break;
    }
    const auto t1 = std::chrono::steady_clock::now();
    direct.run();
    const auto t2 = std::chrono::steady_clock::now();
    graph_s += std::chrono::duration<double>(t1 - t0).count();
    direct_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double n = static_cast<double>(state.iterations());
  if (n > 0 && direct_s > 0) {
    state.counters["graph_ms"] = 1e3 * graph_s / n;
    state.counters["direct_ms"] = 1e3 * direct_s / n;
    state.counters["ratio"] = graph_s / direct_s;
  }
  cv::setNumThreads(default_threads);
}

#if defined(VG_BENCH_FAKE_RKNNRT)
// A tiny stand-in model: what remains is the cost of the graph and the kernel around rknn_run.
std::string fake_model() {
  const std::string path = (std::filesystem::temp_directory_path() / "vg_bench_fake.rknn").string();
  std::ofstream(path) << "fake-rknn\ninput 1 8 8 3\noutput 1 16 4 4\n";
  return path;
}

void BM_FakeRknnBackendDirect(benchmark::State& state) {
  vg::inference::BackendOptions opt;
  opt.runtime_path = VG_BENCH_FAKE_RKNNRT;
  vg::inference::RknnBackend backend;
  (void)backend.load(fake_model(), opt);
  std::vector<std::uint8_t> input(8 * 8 * 3, 1);
  vg::MemoryBlock block;
  block.data = input.data();
  block.size = input.size();
  backend.bind_inputs(std::span<const vg::MemoryBlock>(&block, 1));
  std::vector<std::int8_t> out(16 * 4 * 4);
  void* ptrs[1] = {out.data()};
  for (auto _ : state) {
    if (backend.run(0, ptrs) != vg::Status::ok) {
      state.SkipWithError("run failed");
      break;
    }
  }
}

void BM_FakeRknnThroughGraph(benchmark::State& state) {
  vg::Context context;
  auto npu_memory = vg::inference::install_npu_allocator(context);
  context.load_module(vg::inference::make_inference_module());
  vg::Graph graph(context, "bench_fake_rknn");
  const vg::DataId in = graph.add_data("in", vg::DataMeta::tensor_of({1, 8, 8, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
  const vg::NodeId node = graph.add_node("npu", "vg.inference");
  graph.set_attribute(node, "model", fake_model());
  graph.set_attribute(node, "runtime_path", std::string(VG_BENCH_FAKE_RKNNRT));
  graph.bind(node, "input", in);
  graph.bind(node, "out0", graph.add_virtual("out", vg::DataKind::tensor));
  graph.verify();
  for (auto _ : state) {
    if (graph.process() != vg::Status::ok) {
      state.SkipWithError(graph.last_error().describe().c_str());
      break;
    }
  }
}

BENCHMARK(BM_FakeRknnBackendDirect)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_FakeRknnThroughGraph)->Unit(benchmark::kMicrosecond)->UseRealTime();
#endif

BENCHMARK(BM_DirectForward)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GraphInference)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GraphOverDirectRatio)
    ->Args({128, 0})
    ->Args({256, 0})
    ->Args({128, 1})
    ->Args({256, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
