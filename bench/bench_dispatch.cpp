// Per-node dispatch overhead of the framework, against a direct function call.
//   ./build/bench/bench_dispatch --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

vg::Status nop(vg::KernelContext&) noexcept { return vg::Status::ok; }

vg::ContextConfig config_with(bool run_on_caller) {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.run_on_caller = run_on_caller;
  return config;
}

/// Two contexts: one that runs a graph's work on the calling thread when it can (the default,
/// ContextConfig::run_on_caller) and one that always hands it to the targets' workers.
struct Fixture {
  Fixture() {
    ctx.load_module(vg::examples::make_module());
    workers_only.load_module(vg::examples::make_module());
  }
  vg::Context ctx{config_with(true)};
  vg::Context workers_only{config_with(false)};
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

// A chain of `nodes` empty kernels; targets alternate between cpu0 and cpu1 when hop is set. The second
// argument 0 hands one-target frames to cpu0's worker instead of the calling thread (two targets always go
// to the workers).
void run_chain(benchmark::State& state, bool hop) {
  const int nodes = static_cast<int>(state.range(0));
  vg::Graph g(state.range(1) != 0 ? fixture().ctx : fixture().workers_only, "chain");
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
BENCHMARK(BM_GraphChainOneTarget)->ArgsProduct({{1, 8}, {1, 0}})->UseRealTime();
BENCHMARK(BM_GraphChainTwoTargets)->ArgsProduct({{2, 8}, {1}})->UseRealTime();

// A command to an idle node: run on the calling thread (argument 1, the default) or handed to cpu0's worker
// and waited for (0).
void BM_SendCommand(benchmark::State& state) {
  vg::Graph g(state.range(0) != 0 ? fixture().ctx : fixture().workers_only, "cmd");
  auto a = g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto n = g.add_node("add", "vg.example.add");
  g.bind(n, "a", a).bind(n, "b", a).bind(n, "sum", g.add_virtual("s", vg::DataKind::scalar));
  g.verify();
  const auto cmd = vg::ControlCommand::make(vg::examples::kSetBias, 1.0);
  for (auto _ : state) {
    if (g.send_command(n, cmd, 1s) != vg::Status::ok) state.SkipWithError("command failed");
  }
}
BENCHMARK(BM_SendCommand)->Arg(1)->Arg(0)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
