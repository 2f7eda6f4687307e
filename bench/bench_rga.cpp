// What letterboxing costs the CPU thread per frame: the CPU letterbox (the detection library's
// Preprocessor, what vg.rga.letterbox falls back to) beside the RGA engine driving librga, which leaves the
// pixels to the RGA hardware. Here librga is the stand-in with FAKE_RGA_NO_PIXELS=1 (every call checked and
// counted, no pixel computed), so the RGA figure is the engine's own per-frame work (cache lookup, fstat of
// the DMA-BUF, wrap, improcess's checks) without the driver's ioctl and the job's wait, which only a board
// has: `visiongraph doctor --board` times the real job there. Run:
//   build/bench/bench_rga --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/rga/rga_letterbox.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rga_runtime.hpp"

namespace {

/// A 1920x1080 (or 640x480) NV12 frame in a memfd DMA-BUF and a 640x640 RGB model input.
struct Setup {
  explicit Setup(int w, int h) : w(w), h(h) {
    src = memfd.allocate(static_cast<std::size_t>(w) * h * 3 / 2, 64);
    dst = memfd.allocate(640 * 640 * 3, 64);
    auto* y = static_cast<std::uint8_t*>(src.data);
    for (std::size_t i = 0; i < static_cast<std::size_t>(w) * h * 3 / 2; ++i) y[i] = static_cast<std::uint8_t>(i * 7);
    img.format = vg::detection::PixelFormat::nv12;
    img.width = w;
    img.height = h;
    img.plane[0] = y;
    img.plane[1] = y + static_cast<std::size_t>(w) * h;
    img.stride[0] = img.stride[1] = static_cast<std::size_t>(w);
  }
  ~Setup() {
    memfd.release(src);
    memfd.release(dst);
  }
  int w, h;
  vg::npu::MemfdAllocator memfd;
  vg::MemoryBlock src, dst;
  vg::detection::ImageRef img;
};

void BM_CpuLetterbox(benchmark::State& state) {
  Setup s(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  vg::detection::PreprocessConfig cfg;
  cfg.format = vg::detection::TensorFormat::u8_nhwc;
  cfg.mapping = vg::detection::PixelMapping::none();
  vg::detection::Preprocessor pre(vg::rga::rga_letterbox_geometry(s.w, s.h, 640, 640), cfg);
  for (auto _ : state) benchmark::DoNotOptimize(pre.run(s.img, s.dst.data));
}

void BM_RgaEngineCpuCost(benchmark::State& state) {
  ::setenv("FAKE_RGA_NO_PIXELS", "1", 1);
  std::shared_ptr<const vg::npu::RgaRuntime> rt = vg::npu::RgaRuntime::open(VG_BENCH_FAKE_LIBRGA);
  Setup s(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  vg::rga::RgaLetterboxSpec spec;
  spec.src_format = vg::detection::PixelFormat::nv12;
  spec.src_w = s.w;
  spec.src_h = s.h;
  spec.dst_w = spec.dst_h = 640;
  vg::rga::RgaLetterbox lb(rt, spec);
  for (auto _ : state) benchmark::DoNotOptimize(lb.run(s.img, s.src, s.dst.data, s.dst));
  if (lb.counters().failures != 0) state.SkipWithError(lb.last_failure());
}

}  // namespace

BENCHMARK(BM_CpuLetterbox)->Args({1920, 1080})->Args({640, 480})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RgaEngineCpuCost)->Args({1920, 1080})->Args({640, 480})->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
