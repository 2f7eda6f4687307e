// One inference node over several NPU cores (Graph::set_targets): the face-detection shape
//   frame -> letterbox (cpu0) -> vg.inference (npu0 | npu0,npu1 | npu0,npu1,npu2) -> decode (cpu1) -> detections
// streamed with 1, 2 and 3 replicas of the inference node. The 1-replica graph of the same run is the
// baseline: each run reports frames/s, the graph's end-to-end latency p50, frames handed back out of
// order (expected 0), the process CPU time per wall second, and frames/s as a ratio to the 1-replica runs.
//
//   BM_ReplicasFakeNpu/R     stand-in librknnrt (tests/npu/fake_rknnrt) with a 20 ms run latency that waits
//                            like an accelerator (sleeps; one of three cores busy), u8 input, int8 outputs
//   BM_ReplicasFakeNpuAsync/R  the same with async: true and R replicas all on ONE target (npu0 listed R
//                            times): each process submits a non-blocking run and returns, complete reads the
//                            outputs when the run's fence is readable, so one target thread keeps R runs in
//                            flight (fps_vs_1rep: against BM_ReplicasFakeNpu/1, the blocking single node)
//   BM_ReplicaModelMemory/shared:S  three rknn backends of one model against the stand-in, whose rknn_init
//                            loads 11 MiB of weights (resident, as device memory would be): S = 0 each
//                            loads the model (rknn_init x3, the baseline); S = 1 one load and three
//                            load_replica (rknn_dup_context, what replicated nodes do). Counters: the
//                            stand-in's live weight bytes and the process's resident-set growth while
//                            the backends exist, in MiB
//   BM_ReplicasOpencv/R/T    OpenCV DNN backend on the BlazeFace back 256x256 model; the npu targets are
//                            ordinary CPU threads on a PC. T = -1: OpenCV's default thread pool (shared by
//                            every replica); T = 0: cv::setNumThreads(0) (process-wide): OpenCV runs its
//                            parallel loops sequentially in the calling thread, so each replica's forward
//                            runs on its own target thread and nowhere else (one DNN thread per replica)
//
//   ./bench_replicas --benchmark_repetitions=3 --benchmark_min_time=3
//   ./bench_replicas --benchmark_min_time=0.01        (smoke run: a few seconds)
//
// Models: $VG_ASSETS_DIR/face_detection_back_256x256_barracuda.onnx (default <repo>/.cache/assets).
#include <benchmark/benchmark.h>

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/visiongraph.hpp"
#if defined(VG_BENCH_FAKE_RKNNRT)
#include "face_stream.hpp"
#include "fake_rknnrt/fake_control.hpp"
#endif

namespace {

using namespace std::chrono_literals;

constexpr auto kFakeRunLatency = 20ms;

std::string opencv_model() {
  const char* env = std::getenv("VG_ASSETS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : VG_BENCH_DEFAULT_ASSETS_DIR;
  return dir + "/face_detection_back_256x256_barracuda.onnx";
}

vg::ContextConfig bench_targets() {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

std::vector<std::string> replica_targets(int replicas, bool one_target) {
  if (one_target) return std::vector<std::string>(static_cast<std::size_t>(replicas), "npu0");
  const std::vector<std::string> all = {"npu0", "npu1", "npu2"};
  return {all.begin(), all.begin() + replicas};
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// The face graph (face_stream.hpp) over @p replicas npu targets, in a context of its own.
struct FaceShape {
  /// @p async: vg.inference's async attribute, with every replica on npu0.
  FaceShape(const std::string& model, const std::string& runtime, bool u8_input, int replicas, bool async = false)
      : context(bench_targets()),
        npu_memory(install(context)),
        stream(context, "bench_replicas", {model, runtime, u8_input, replica_targets(replicas, async), async, false, 0}),
        graph(stream.graph),
        detector(stream.detector) {}
  static std::unique_ptr<vg::inference::NpuAllocatorInstallation> install(vg::Context& c) {
    auto memory = vg::inference::install_npu_allocator(c);
    c.load_module(vg::detection::make_detection_module());
    c.load_module(vg::inference::make_inference_module());
    return memory;
  }
  bool start() { return stream.start(); }
  bool step() { return stream.step(); }

  vg::Context context;
  std::unique_ptr<vg::inference::NpuAllocatorInstallation> npu_memory;
  vg_bench::FaceStream stream;
  vg::Graph& graph;
  vg::NodeId detector;
  const std::uint64_t& received = stream.received;
  const std::uint64_t& out_of_order = stream.out_of_order;
  const std::uint64_t& failed = stream.failed;
};

/// Frames/s of the 1-replica runs so far in this process, per configuration (the baseline).
std::map<std::string, std::vector<double>>& baselines() {
  static std::map<std::string, std::vector<double>> b;
  return b;
}
std::map<std::string, std::vector<double>>& baseline_p50() {
  static std::map<std::string, std::vector<double>> b;
  return b;
}
double mean(const std::vector<double>& v) { return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

/// Streams through @p shape: warm-up, then one frame handed back per iteration; sets the counters.
/// @p baseline: this run's frames/s and p50 join the baseline of @p config.
void run_stream(benchmark::State& state, FaceShape& shape, const std::string& config, bool baseline) {
  if (!shape.start()) {
    state.SkipWithError(("start failed: " + shape.graph.last_error().describe()).c_str());
    return;
  }
  for (std::size_t i = 0; i < 2 * shape.graph.pipeline_depth(); ++i) {  // fill the pipeline, warm every replica
    if (!shape.step()) {
      state.SkipWithError(("warm-up failed: " + shape.graph.last_error().describe()).c_str());
      return;
    }
  }
  shape.graph.reset_stats();
  const std::uint64_t first = shape.received;
  const double cpu0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!shape.step()) {
      state.SkipWithError(("frame failed: " + shape.graph.last_error().describe()).c_str());
      return;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = process_cpu_seconds() - cpu0;
  const double frames = static_cast<double>(shape.received - first);
  const vg::GraphStats stats = shape.graph.stats();
  const double fps = frames / wall;
  const double p50_ms = 1e-6 * static_cast<double>(stats.latency_p50_ns);
  state.counters["fps"] = fps;
  state.counters["p50_ms"] = p50_ms;
  state.counters["out_of_order"] = static_cast<double>(shape.out_of_order);
  state.counters["failed"] = static_cast<double>(shape.failed);
  state.counters["cpu_per_wall"] = cpu / wall;
  state.counters["depth"] = static_cast<double>(shape.graph.pipeline_depth());
  if (baseline) {
    baselines()[config].push_back(fps);
    baseline_p50()[config].push_back(p50_ms);
  }
  const double base = mean(baselines()[config]);
  if (base > 0) {
    state.counters["fps_vs_1rep"] = fps / base;
    state.counters["p50_minus_1rep_ms"] = p50_ms - mean(baseline_p50()[config]);
  }
}

#if defined(VG_BENCH_FAKE_RKNNRT)
std::string fake_model() {
  const std::string path = (std::filesystem::temp_directory_path() / "vg_bench_replicas.rknn").string();
  std::ofstream(path) << "fake-rknn\ninput 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n";
  return path;
}

void BM_ReplicasFakeNpu(benchmark::State& state) {
  const int replicas = static_cast<int>(state.range(0));
  vg::test::FakeRknnrt fake(VG_BENCH_FAKE_RKNNRT);  // resets the latency when it goes
  fake.set_run_latency(kFakeRunLatency);
  FaceShape shape(fake_model(), VG_BENCH_FAKE_RKNNRT, true, replicas);
  run_stream(state, shape, "fake", replicas == 1);
  state.counters["max_concurrent_runs"] = static_cast<double>(fake.counter("max_concurrent_runs"));
}
BENCHMARK(BM_ReplicasFakeNpu)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReplicasFakeNpuAsync(benchmark::State& state) {
  const int replicas = static_cast<int>(state.range(0));
  vg::test::FakeRknnrt fake(VG_BENCH_FAKE_RKNNRT);
  fake.set_run_latency(kFakeRunLatency);
  FaceShape shape(fake_model(), VG_BENCH_FAKE_RKNNRT, true, replicas, true);
  // Baseline "fake": the blocking 1-replica runs above (same process, same stand-in latency).
  run_stream(state, shape, "fake", false);
  state.counters["max_concurrent_runs"] = static_cast<double>(fake.counter("max_concurrent_runs"));
  state.counters["max_in_flight"] = static_cast<double>(fake.counter("max_in_flight"));
}
BENCHMARK(BM_ReplicasFakeNpuAsync)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Resident set of this process in bytes (/proc/self/statm).
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

void BM_ReplicaModelMemory(benchmark::State& state) {
  constexpr int kReplicas = 3;
  constexpr double kMiB = 1024.0 * 1024.0;
  const bool shared = state.range(0) != 0;
  vg::test::FakeRknnrt fake(VG_BENCH_FAKE_RKNNRT);
  const std::string model = (std::filesystem::temp_directory_path() / "vg_bench_replica_weights.rknn").string();
  // 11 MiB of weights: about an int8 YOLOv8s.
  std::ofstream(model) << "fake-rknn\ninput 1 256 256 3\nweights 11534336\noutput 1 512 1\noutput 1 384 16\n";
  vg::inference::BackendOptions options;
  options.runtime_path = VG_BENCH_FAKE_RKNNRT;
  double weights = 0, growth = 0;
  for (auto _ : state) {
    const double before = resident_bytes();
    vg::inference::RknnBackend source;
    std::vector<std::unique_ptr<vg::inference::RknnBackend>> replicas;  // destroyed before their source
    if (shared) (void)source.load(model, options);
    for (int r = 0; r < kReplicas; ++r) {
      replicas.push_back(std::make_unique<vg::inference::RknnBackend>());
      (void)(shared ? replicas.back()->load_replica(source, model, options) : replicas.back()->load(model, options));
    }
    weights = static_cast<double>(fake.counter("weight_bytes_live"));
    growth = resident_bytes() - before;
  }
  state.counters["weight_MiB"] = weights / kMiB;
  state.counters["rss_growth_MiB"] = growth / kMiB;
}
BENCHMARK(BM_ReplicaModelMemory)->Arg(0)->Arg(1)->ArgName("shared")->Unit(benchmark::kMillisecond);
#endif

/// OpenCV's parallel framework as its build information names it (e.g. "TBB (ver 2021.8 interface 12080)").
std::string parallel_framework() {
  const std::string info = cv::getBuildInformation();
  const std::string key = "Parallel framework:";
  const auto at = info.find(key);
  if (at == std::string::npos) return "unknown";
  const auto begin = info.find_first_not_of(' ', at + key.size());
  return "opencv parallel: " + info.substr(begin, info.find('\n', begin) - begin);
}

void BM_ReplicasOpencv(benchmark::State& state) {
  const int replicas = static_cast<int>(state.range(0));
  const std::string model = opencv_model();
  if (!std::filesystem::exists(model)) {
    state.SkipWithError(("model missing: " + model + " (scripts/fetch_assets.sh)").c_str());
    return;
  }
  const int default_threads = cv::getNumThreads();
  if (state.range(1) >= 0) cv::setNumThreads(static_cast<int>(state.range(1)));
  // (with TBB, getNumThreads() still reports the arena's concurrency after setNumThreads(0))
  state.counters["set_num_threads"] = static_cast<double>(state.range(1));
  state.SetLabel(parallel_framework());
  {
    FaceShape shape(model, "", false, replicas);
    run_stream(state, shape, "opencv_t" + std::to_string(state.range(1)), replicas == 1);
  }
  cv::setNumThreads(default_threads);
}
BENCHMARK(BM_ReplicasOpencv)
    ->ArgsProduct({{1, 2, 3}, {-1, 0}})
    ->ArgNames({"replicas", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
