#include "visiongraph/kernels/rga/board_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "visiongraph/kernels/rga/rga_letterbox.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"

namespace vg::rga {
namespace {

constexpr int kSrcW = 1920, kSrcH = 1080, kDst = 640, kRuns = 20;
// Hardware scalers and the CPU's bilinear filter may round differently; a larger gap means the colour
// conversion or the placement differs.
constexpr int kMaxDifference = 16;

/// Milliseconds per call of @p fn, over kRuns calls.
template <class Fn>
double time_ms(Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kRuns; ++i) fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / kRuns;
}

}  // namespace

RgaBoardCheck letterbox_board_check(const std::string& librga_path) {
  RgaBoardCheck c;
  std::shared_ptr<const npu::RgaRuntime> runtime;
  try {
    runtime = npu::RgaRuntime::open(librga_path);
  } catch (const std::exception& e) {
    c.detail = std::string("no librga: ") + e.what();
    return c;
  }
  if (const std::string missing = npu::rga_device_missing(); !missing.empty()) {
    c.detail = missing + ": vg.rga.letterbox letterboxes on the CPU";
    return c;
  }
  try {
    npu::DmaBufAllocatorChoice memory = npu::make_dmabuf_allocator();
    const std::size_t src_bytes = static_cast<std::size_t>(kSrcW) * kSrcH * 3 / 2;
    const std::size_t dst_bytes = static_cast<std::size_t>(kDst) * kDst * 3;
    MemoryBlock src = memory.allocator->allocate(src_bytes, 64);
    MemoryBlock dst = memory.allocator->allocate(dst_bytes, 64);
    struct Release {
      Allocator& a;
      MemoryBlock& s;
      MemoryBlock& d;
      ~Release() {
        a.release(s);
        a.release(d);
      }
    } release{*memory.allocator, src, dst};
    // A frame with edges and colour: luma ramps, chroma bands.
    auto* y = static_cast<std::uint8_t*>(src.data);
    (void)memory.allocator->begin_cpu_access(src, CpuAccess::write);
    for (int r = 0; r < kSrcH; ++r)
      for (int x = 0; x < kSrcW; ++x) y[r * kSrcW + x] = static_cast<std::uint8_t>(16 + ((x / 8 + r / 8) % 2) * 100 + x * 100 / kSrcW);
    for (int r = 0; r < kSrcH / 2; ++r)
      for (int x = 0; x < kSrcW; ++x) y[kSrcW * kSrcH + r * kSrcW + x] = static_cast<std::uint8_t>(x % 2 ? 90 + r / 8 : 160 - x / 16);
    (void)memory.allocator->end_cpu_access(src, CpuAccess::write);

    detection::ImageRef img;
    img.format = detection::PixelFormat::nv12;
    img.width = kSrcW;
    img.height = kSrcH;
    img.plane[0] = y;
    img.plane[1] = y + kSrcW * kSrcH;
    img.stride[0] = img.stride[1] = kSrcW;
    RgaLetterboxSpec spec;
    spec.src_format = detection::PixelFormat::nv12;
    spec.src_w = kSrcW;
    spec.src_h = kSrcH;
    spec.dst_w = spec.dst_h = kDst;
    spec.pad_value = 114;
    RgaLetterbox rga(runtime, spec);
    if (const int s = rga.run(img, src, dst.data, dst); s != npu::rga::kStatusSuccess) {
      c.result = RgaBoardCheck::Result::fail;
      c.detail = std::string("the first RGA job failed: ") + rga.last_failure();
      return c;
    }
    int failed = 0;
    const double rga_ms = time_ms([&] { failed += rga.run(img, src, dst.data, dst) != npu::rga::kStatusSuccess; });

    detection::PreprocessConfig cfg;
    cfg.format = detection::TensorFormat::u8_nhwc;
    cfg.mapping = detection::PixelMapping::none();
    cfg.pad_value = spec.pad_value;
    detection::Preprocessor cpu(rga.geometry(), cfg);
    std::vector<std::uint8_t> cpu_out(dst_bytes);
    const double cpu_ms = time_ms([&] { (void)cpu.run(img, cpu_out.data()); });

    (void)memory.allocator->begin_cpu_access(dst, CpuAccess::read);
    const auto* out = static_cast<const std::uint8_t*>(dst.data);
    int worst = 0;
    for (std::size_t i = 0; i < dst_bytes; ++i) worst = std::max(worst, std::abs(int{out[i]} - int{cpu_out[i]}));
    (void)memory.allocator->end_cpu_access(dst, CpuAccess::read);

    char text[400];
    std::snprintf(text, sizeof(text),
                  "1920x1080 NV12 -> 640x640 RGB on %s memory: RGA %.2f ms, CPU %.2f ms a frame (%.1fx); largest "
                  "difference from the CPU letterbox %d grey levels; %llu DMA-BUF imports",
                  memory.kind.c_str(), rga_ms, cpu_ms, rga_ms > 0 ? cpu_ms / rga_ms : 0.0, worst,
                  static_cast<unsigned long long>(rga.counters().imports));
    c.detail = text;
    if (failed > 0) {
      c.result = RgaBoardCheck::Result::fail;
      c.detail += "; " + std::to_string(failed) + " of " + std::to_string(kRuns) + " jobs failed, last: " + rga.last_failure();
    } else if (worst > kMaxDifference) {
      c.result = RgaBoardCheck::Result::fail;
      c.detail += ": more than " + std::to_string(kMaxDifference) + " (colour conversion or placement differs)";
    } else {
      c.result = RgaBoardCheck::Result::pass;
    }
  } catch (const std::exception& e) {
    c.result = RgaBoardCheck::Result::fail;
    c.detail = e.what();
  }
  return c;
}

}  // namespace vg::rga
