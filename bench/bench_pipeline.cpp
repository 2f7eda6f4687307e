// Pipeline efficiency: a 3-stage graph on three targets (CPU work, an accelerator wait, CPU work).
// Frames/s against the ideal 1/(slowest stage), for pipeline depths 1-4, plus end-to-end latency.
//   ./build/bench/bench_pipeline --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

constexpr std::int64_t kPreUs = 2000;    // cpu0: spins (letterbox-like)
constexpr std::int64_t kNpuUs = 4000;    // npu0: sleeps (waits for the device)
constexpr std::int64_t kPostUs = 1500;   // cpu1: spins (decode + NMS-like)
constexpr int kFrames = 60;

void BM_ThreeStagePipeline(benchmark::State& state) {
  vg::Context ctx;
  ctx.load_module(vg::examples::make_module());
  vg::Graph g(ctx, "three-stage");
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto a = g.add_virtual("a", vg::DataKind::scalar), b = g.add_virtual("b", vg::DataKind::scalar);
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  auto pre = g.add_node("pre", "vg.example.spin");
  g.bind(pre, "in", in).bind(pre, "out", a).set_target(pre, "cpu0").set_attribute(pre, "micros", kPreUs);
  auto npu = g.add_node("infer", "vg.example.wait");
  g.bind(npu, "in", a).bind(npu, "out", b).set_target(npu, "npu0").set_attribute(npu, "micros", kNpuUs);
  auto post = g.add_node("post", "vg.example.spin");
  g.bind(post, "in", b).bind(post, "out", out).set_target(post, "cpu1").set_attribute(post, "micros", kPostUs);
  auto gin = g.add_graph_parameter(pre, "in", 8);
  auto gout = g.add_graph_parameter(post, "out", 8);
  g.set_input_policy(gin, vg::InputPolicy::block, 4);
  g.set_pipeline_depth(static_cast<std::size_t>(state.range(0)));
  g.verify();
  if (g.start() != vg::Status::ok) state.SkipWithError("start failed");
  for (std::uint32_t k = 0; k < 8; ++k) (void)g.enqueue(gout, k);
  std::uint32_t free_in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int free_count = 8;
  double frames = 0;
  for (auto _ : state) {
    int sent = 0, received = 0;
    while (received < kFrames) {
      // keep at most 8 frames outstanding (the number of output buffers)
      while (sent < kFrames && free_count > 0 && sent - received < 8) {
        if (g.enqueue(gin, free_in[--free_count]) != vg::Status::ok) state.SkipWithError("enqueue failed");
        ++sent;
      }
      vg::DequeuedBuffer d;
      if (g.dequeue(gout, d, 5s) != vg::Status::ok) {
        state.SkipWithError("dequeue failed");
        return;
      }
      (void)g.enqueue(gout, d.index);
      vg::DequeuedBuffer used;
      (void)g.dequeue(gin, used, 5s);
      free_in[free_count++] = used.index;
      ++received;
    }
    frames += kFrames;
  }
  const auto s = g.stats();
  (void)g.stop();
  const double ideal_fps = 1e6 / static_cast<double>(std::max({kPreUs, kNpuUs, kPostUs}));
  state.counters["fps"] = benchmark::Counter(frames, benchmark::Counter::kIsRate);
  state.counters["ideal_fps"] = ideal_fps;
  state.counters["latency_p50_ms"] = static_cast<double>(s.latency_p50_ns) / 1e6;
  state.counters["latency_p99_ms"] = static_cast<double>(s.latency_p99_ns) / 1e6;
  // efficiency is derived from fps/ideal_fps in docs/benchmarks.md (rates are only final after the run)
}
BENCHMARK(BM_ThreeStagePipeline)->DenseRange(1, 4)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
