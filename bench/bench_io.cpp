// Intake cost of live input: from a sample waiting in the appsink to a frame in the graph's input
// parameter (Source::read maps the GstBuffer, GraphInput::push imports and enqueues it, reclaim hands
// the previous one back and unmaps it), against a memcpy of the same NV12 frame in the same run.
//
// The graph is verified but not started, with a latest-wins input queue of one: every push replaces the
// waiting frame, which reclaim then takes back. That is exactly the per-frame work the graph's input
// joint does, without the graph's own execution. Samples are queued in the appsink before the timed part
// (the appsrc producer runs ahead), so the time is not the producer's pace.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "dmabuf_appsrc.hpp"
#include "visiongraph/io/graph_input.hpp"
#include "visiongraph/io/source.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

struct Passthrough {
  explicit Passthrough(vg::KernelContext&) {}
  vg::Status process(vg::KernelContext&) noexcept { return vg::Status::ok; }
};

vg::Module bench_module() {
  vg::Module m("bench.io");
  m.add(vg::KernelDecl("bench.io.sink").input("in", vg::DataKind::image));
  // Reads nothing, so it may take device-only memory (as an NPU kernel does).
  m.implement("bench.io.sink", "cpu", vg::callbacks_for<Passthrough>(), vg::ImplementOptions{true});
  return m;
}

constexpr int kBatch = 48;  // samples queued in the appsink per batch
constexpr int kWarmup = 8;  // of which the first are not timed

// device_only: DMA-BUF frames are not mapped for the CPU (SourceOptions::map_dmabuf = false) and the graph
// input is device-only memory, the path of a camera or decoder feeding the NPU.
void intake(benchmark::State& state, vg::test::DmabufAppsrc::Memory memory, bool device_only = false) {
  const auto width = static_cast<std::uint32_t>(state.range(0));
  const auto height = static_cast<std::uint32_t>(state.range(1));
  vg::Context ctx;
  ctx.load_module(bench_module());
  vg::Graph graph(ctx, "intake");
  auto frame = graph.add_data("frame", vg::DataMeta::image_of(width, height, vg::ImageFormat::nv12));
  if (device_only) graph.set_device_only(frame);
  auto node = graph.add_node("sink", "bench.io.sink");
  graph.bind(node, "in", frame);
  auto input = graph.add_graph_parameter(node, "in", 3);
  graph.set_input_policy(input, vg::InputPolicy::latest_wins, 1);
  graph.verify();
  vg::io::GraphInput joint(graph, input);

  std::uint64_t frames = 0, imported = 0;
  for (auto _ : state) {  // one iteration (one batch) per run: a stopped graph takes no new frames
    // Untimed: a fresh pipeline whose appsrc fills the appsink with a batch of frames.
    vg::test::DmabufAppsrc::Options o;
    o.width = width;
    o.height = height;
    o.format = "NV12";
    o.memory = memory;
    o.pool_size = kBatch + 8;
    o.frames = kBatch;
    o.memory_offset = 0;
    o.row_alignment = 64;
    vg::test::DmabufAppsrc feed(o);
    vg::io::SourceOptions so;
    so.format = vg::ImageFormat::nv12;
    so.max_buffers = kBatch + 4;
    so.map_dmabuf = !device_only;
    auto source = vg::io::Source::open(feed.spec(), so);
    std::this_thread::sleep_for(150ms);  // let the appsrc run ahead into the appsink

    // The first frames of a pipeline pay one-off costs (first map, page faults in the graph's tables):
    // the figure is the steady state after kWarmup frames.
    auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    vg::io::Frame f;
    vg::io::ReclaimedFrame back;
    for (; n < kBatch && source->read(f, 1s) == vg::Status::ok; ++n) {
      if (joint.push(std::move(f), 1s) != vg::Status::ok) state.SkipWithError("push failed");
      if (n > 0 && joint.reclaim(back, 1s) != vg::Status::ok) state.SkipWithError("reclaim failed");
      if (n + 1 == kWarmup) t0 = std::chrono::steady_clock::now();
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (n != kBatch) state.SkipWithError("the appsink did not hold the whole batch");
    n -= kWarmup;
    // The last frame is still waiting in the graph: take it back (untimed) so the source can close.
    (void)graph.stop(vg::StopMode::abandon);
    while (joint.reclaim(back, 100ms) == vg::Status::ok) {
    }
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / n);
    frames += static_cast<std::uint64_t>(n);  // timed frames
    imported = joint.stats().imported;
    source.reset();
  }
  state.counters["frames"] = static_cast<double>(frames);
  state.counters["imported"] = static_cast<double>(imported);
}

void BM_IntakeHostNv12(benchmark::State& state) { intake(state, vg::test::DmabufAppsrc::Memory::host); }
void BM_IntakeDmabufNv12(benchmark::State& state) { intake(state, vg::test::DmabufAppsrc::Memory::dmabuf); }
void BM_IntakeDmabufDeviceOnlyNv12(benchmark::State& state) {
  intake(state, vg::test::DmabufAppsrc::Memory::dmabuf, true);
}

void BM_MemcpyNv12(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) * static_cast<std::size_t>(state.range(1)) * 3 / 2;
  std::vector<std::uint8_t> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

}  // namespace

BENCHMARK(BM_MemcpyNv12)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntakeHostNv12)->Args({1280, 720})->Args({1920, 1080})->UseManualTime()->Iterations(1)->Repetitions(5)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntakeDmabufNv12)->Args({1280, 720})->Args({1920, 1080})->UseManualTime()->Iterations(1)->Repetitions(5)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IntakeDmabufDeviceOnlyNv12)->Args({1280, 720})->Args({1920, 1080})->UseManualTime()->Iterations(1)
    ->Repetitions(5)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
