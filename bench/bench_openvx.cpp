// The OpenVX C API's dispatch: vxProcessGraph on a chain of N no-op user kernels, beside the same chain
// built with the native API (vg.example.nop), in the same run; both on cpu0, one frame at a time. Each
// runs its frames on the calling thread (ContextConfig::run_on_caller, the default: the last argument 1)
// and handed to cpu0's worker (0). VG_OPENVX_RUN_ON_CALLER=0 turns it off for the --frames runs.
//   ./build/bench/bench_openvx --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Instructions per frame (callgrind counts every thread): `bench_openvx --frames F native|openvx N` runs
// just F frames of one chain; the difference of two runs (F = 2000 and 1000) over 1000 frames leaves out
// the set-up (the command is in docs/benchmarks.md).

#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

/// Runs @p frames frames of the native chain of @p nodes nodes; false when a frame fails.
bool run_on_caller_from_environment() {
  const char* on_caller = std::getenv("VG_OPENVX_RUN_ON_CALLER");
  return on_caller == nullptr || std::strcmp(on_caller, "0") != 0;
}

/// Sets VG_OPENVX_RUN_ON_CALLER while an OpenVX context verifies its first graph (it reads it then), and
/// restores it.
class RunOnCallerForOpenVx {
 public:
  explicit RunOnCallerForOpenVx(bool on_caller) {
    if (const char* old = std::getenv("VG_OPENVX_RUN_ON_CALLER")) {
      old_ = old;
      had_ = true;
    }
    ::setenv("VG_OPENVX_RUN_ON_CALLER", on_caller ? "1" : "0", 1);
  }
  ~RunOnCallerForOpenVx() {
    if (had_) ::setenv("VG_OPENVX_RUN_ON_CALLER", old_.c_str(), 1);
    else ::unsetenv("VG_OPENVX_RUN_ON_CALLER");
  }
  RunOnCallerForOpenVx(const RunOnCallerForOpenVx&) = delete;
  RunOnCallerForOpenVx& operator=(const RunOnCallerForOpenVx&) = delete;

 private:
  std::string old_;
  bool had_ = false;
};

template <class Loop>
bool native_chain(int nodes, bool on_caller, Loop&& loop) {
  // The same worker polling as the OpenVX context's (VG_OPENVX_SPIN_US), so counts compare like with like.
  vg::ContextConfig config = vg::ContextConfig::defaults();
  if (const char* spin = std::getenv("VG_OPENVX_SPIN_US")) config.spin_us = static_cast<unsigned>(std::atoi(spin));
  config.run_on_caller = on_caller;
  vg::Context ctx(config);
  ctx.load_module(vg::examples::make_module());
  vg::Graph g(ctx, "chain");
  vg::DataId prev = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  for (int i = 0; i < nodes; ++i) {
    auto out = g.add_virtual("d" + std::to_string(i), vg::DataKind::scalar);
    auto n = g.add_node("n" + std::to_string(i), "vg.example.nop");
    g.bind(n, "in", prev).bind(n, "out", out).set_target(n, "cpu0");
    prev = out;
  }
  g.set_pipeline_depth(1);
  g.verify();
  return loop([&] { return g.process() == vg::Status::ok; });
}

void BM_NativeChain(benchmark::State& state) {
  native_chain(static_cast<int>(state.range(0)), state.range(1) != 0, [&](auto run) {
    for (auto _ : state) {
      if (!run()) state.SkipWithError("process failed");
    }
    return true;
  });
}
// Second argument: 1 = frames on the calling thread (the default), 0 = on cpu0's worker.
BENCHMARK(BM_NativeChain)->ArgsProduct({{1, 8, 32}, {1, 0}})->UseRealTime();

vx_status VX_CALLBACK nop(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }
vx_status VX_CALLBACK nop_validate(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  const vx_enum type = VX_TYPE_FLOAT64;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

/// @p timed: with performance measurement (VX_NODE_PERFORMANCE), the library's default.
template <class Loop>
bool openvx_chain(int nodes, bool timed, bool on_caller, Loop&& loop) {
  const RunOnCallerForOpenVx setting(on_caller);  // read when the context's first graph is verified
  vx_context context = vxCreateContext();
  if (!timed) vxDirective(reinterpret_cast<vx_reference>(context), VX_DIRECTIVE_DISABLE_PERFORMANCE);
  vx_enum id = 0;
  vxAllocateUserKernelId(context, &id);
  vx_kernel kernel = vxAddUserKernel(context, "bench.nop", id, nop, 2, nop_validate, nullptr, nullptr);
  vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  vxFinalizeKernel(kernel);
  vx_graph graph = vxCreateGraph(context);
  vx_scalar prev = vxCreateScalar(context, VX_TYPE_FLOAT64, nullptr);
  std::vector<vx_scalar> data{prev};
  for (int i = 0; i < nodes; ++i) {
    vx_scalar out = vxCreateVirtualScalar(graph, VX_TYPE_FLOAT64);
    vx_node n = vxCreateGenericNode(graph, kernel);
    vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(prev));
    vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(out));
    vxSetNodeTarget(n, VX_TARGET_STRING, "cpu0");
    vxReleaseNode(&n);
    data.push_back(out);
    prev = out;
  }
  const bool verified = vxVerifyGraph(graph) == VX_SUCCESS;
  const bool ok = loop([&] { return verified && vxProcessGraph(graph) == VX_SUCCESS; }) && verified;
  for (vx_scalar& s : data) vxReleaseScalar(&s);
  vxReleaseGraph(&graph);
  vxRemoveKernel(kernel);
  vxReleaseContext(&context);
  return ok;
}

void BM_OpenVxChain(benchmark::State& state) {
  openvx_chain(static_cast<int>(state.range(0)), state.range(1) != 0, state.range(2) != 0, [&](auto run) {
    for (auto _ : state) {
      if (!run()) state.SkipWithError("vxVerifyGraph or vxProcessGraph failed");
    }
    return true;
  });
}
// Second argument: 1 = performance measurement on (the default), 0 = off (VX_DIRECTIVE_DISABLE_PERFORMANCE).
// Third: 1 = frames on the calling thread (the default), 0 = on cpu0's worker.
BENCHMARK(BM_OpenVxChain)->ArgsProduct({{1, 8, 32}, {1, 0}, {1, 0}})->UseRealTime();

// ---- frames overlapping: three stages on cpu0, cpu1 and npu0, one graph run after another against
// queued graph parameters (vx_khr_pipelining), where the frames overlap. Each stage waits 2 ms without
// computing, as a stage waiting for an accelerator or a DMA does: the gain measured is the overlap, not
// this machine's core count.

vx_status VX_CALLBACK wait_2ms(vx_node, const vx_reference* parameters, vx_uint32) {
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  vx_float64 v = 0;
  vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  v += 1;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

void BM_OpenVxStages(benchmark::State& state) {
  const bool queued = state.range(0) != 0;
  constexpr int kRefs = 4;
  vx_context context = vxCreateContext();
  vx_enum id = 0;
  vxAllocateUserKernelId(context, &id);
  vx_kernel kernel = vxAddUserKernel(context, "bench.wait_2ms", id, wait_2ms, 2, nop_validate, nullptr, nullptr);
  vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  vxFinalizeKernel(kernel);
  vx_graph graph = vxCreateGraph(context);
  vx_scalar ins[kRefs], outs[kRefs];
  for (int i = 0; i < kRefs; ++i) {
    ins[i] = vxCreateScalar(context, VX_TYPE_FLOAT64, nullptr);
    outs[i] = vxCreateScalar(context, VX_TYPE_FLOAT64, nullptr);
  }
  vx_scalar between[2] = {vxCreateVirtualScalar(graph, VX_TYPE_FLOAT64), vxCreateVirtualScalar(graph, VX_TYPE_FLOAT64)};
  const char* targets[3] = {"cpu0", "cpu1", "npu0"};
  vx_node nodes[3];
  for (int k = 0; k < 3; ++k) {
    nodes[k] = vxCreateGenericNode(graph, kernel);
    vxSetParameterByIndex(nodes[k], 0, reinterpret_cast<vx_reference>(k == 0 ? ins[0] : between[k - 1]));
    vxSetParameterByIndex(nodes[k], 1, reinterpret_cast<vx_reference>(k == 2 ? outs[0] : between[k]));
    vxSetNodeTarget(nodes[k], VX_TARGET_STRING, targets[k]);
  }
  for (auto [node, index] : {std::pair{nodes[0], 0u}, std::pair{nodes[2], 1u}}) {
    vx_parameter p = vxGetParameterByIndex(node, index);
    vxAddParameterToGraph(graph, p);
    vxReleaseParameter(&p);
  }
  if (queued) {
    vx_graph_parameter_queue_params_t params[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins)},
                                                   {1, kRefs, reinterpret_cast<vx_reference*>(outs)}};
    vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, params);
  }
  if (vxVerifyGraph(graph) != VX_SUCCESS) state.SkipWithError("vxVerifyGraph failed");
  auto enqueue = [&](vx_reference in, vx_reference out) {
    vxGraphParameterEnqueueReadyRef(graph, 0, &in, 1);
    vxGraphParameterEnqueueReadyRef(graph, 1, &out, 1);
  };
  if (queued) {
    for (int i = 0; i < kRefs; ++i) enqueue(reinterpret_cast<vx_reference>(ins[i]), reinterpret_cast<vx_reference>(outs[i]));
  }
  for (auto _ : state) {
    if (!queued) {
      if (vxProcessGraph(graph) != VX_SUCCESS) state.SkipWithError("vxProcessGraph failed");
      continue;
    }
    // One frame out, its references straight back in: kRefs frames stay queued or running.
    vx_reference in = nullptr, out = nullptr;
    vx_uint32 n = 0;
    if (vxGraphParameterDequeueDoneRef(graph, 1, &out, 1, &n) != VX_SUCCESS ||
        vxGraphParameterDequeueDoneRef(graph, 0, &in, 1, &n) != VX_SUCCESS) {
      state.SkipWithError("dequeue failed");
      break;
    }
    enqueue(in, out);
  }
  if (queued) vxWaitGraph(graph);
  state.SetItemsProcessed(state.iterations());
  for (vx_node& n : nodes) vxReleaseNode(&n);
  for (vx_scalar& s : between) vxReleaseScalar(&s);
  vxReleaseGraph(&graph);
  for (int i = 0; i < kRefs; ++i) {
    vxReleaseScalar(&ins[i]);
    vxReleaseScalar(&outs[i]);
  }
  vxRemoveKernel(kernel);
  vxReleaseContext(&context);
}
// Argument: 0 = vxProcessGraph frame after frame, 1 = queue auto with four references per parameter.
BENCHMARK(BM_OpenVxStages)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--frames") == 0) {
    const long frames = std::atol(argv[2]);
    const int nodes = std::atoi(argv[4]);
    auto loop = [frames](auto run) {
      for (long f = 0; f < frames; ++f) {
        if (!run()) return false;
      }
      return true;
    };
    const bool on_caller = run_on_caller_from_environment();
    const bool ok = std::strcmp(argv[3], "openvx") == 0 ? openvx_chain(nodes, true, on_caller, loop) : native_chain(nodes, on_caller, loop);
    return ok ? 0 : 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
