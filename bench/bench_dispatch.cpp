// Per-node dispatch overhead of the framework, against a direct function call.
//   ./build/bench/bench_dispatch --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

vg::Status nop(vg::KernelContext&) noexcept { return vg::Status::ok; }

struct Fixture {
  Fixture() { ctx.load_module(vg::examples::make_module()); }
  vg::Context ctx;
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

// Baseline: what a node costs with no framework at all (an indirect call to an empty function).
void BM_DirectCall(benchmark::State& state) {
  vg::Status (*volatile fn)(vg::KernelContext&) noexcept = &nop;
  vg::KernelContext* ctx = nullptr;
  for (auto _ : state) {
    benchmark::DoNotOptimize(fn(*ctx));
  }
}
BENCHMARK(BM_DirectCall);

// A chain of `nodes` empty kernels; targets alternate between cpu0 and cpu1 when hop is set.
void run_chain(benchmark::State& state, bool hop) {
  const int nodes = static_cast<int>(state.range(0));
  vg::Graph g(fixture().ctx, "chain");
  vg::DataId prev = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  for (int i = 0; i < nodes; ++i) {
    auto out = g.add_virtual("d" + std::to_string(i), vg::DataKind::scalar);
    auto n = g.add_node("n" + std::to_string(i), "vg.example.nop");
    g.bind(n, "in", prev).bind(n, "out", out).set_target(n, hop && (i % 2) ? "cpu1" : "cpu0");
    prev = out;
  }
  g.set_pipeline_depth(1);
  g.verify();
  for (auto _ : state) {
    if (g.process() != vg::Status::ok) state.SkipWithError("process failed");
  }
  state.counters["us_per_node"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * nodes, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_GraphChainOneTarget(benchmark::State& state) { run_chain(state, false); }
void BM_GraphChainTwoTargets(benchmark::State& state) { run_chain(state, true); }
BENCHMARK(BM_GraphChainOneTarget)->Arg(1)->Arg(8)->UseRealTime();
BENCHMARK(BM_GraphChainTwoTargets)->Arg(2)->Arg(8)->UseRealTime();

void BM_SendCommand(benchmark::State& state) {
  vg::Graph g(fixture().ctx, "cmd");
  auto a = g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto n = g.add_node("add", "vg.example.add");
  g.bind(n, "a", a).bind(n, "b", a).bind(n, "sum", g.add_virtual("s", vg::DataKind::scalar));
  g.verify();
  const auto cmd = vg::ControlCommand::make(vg::examples::kSetBias, 1.0);
  for (auto _ : state) {
    if (g.send_command(n, cmd, 1s) != vg::Status::ok) state.SkipWithError("command failed");
  }
}
BENCHMARK(BM_SendCommand)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
