#include "visiongraph/kernels/inference/board_check.hpp"

#include <dlfcn.h>
#include <sys/utsname.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/npu/dma_heap_allocator.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"
#include "visiongraph/npu/rga_runtime.hpp"

namespace vg::inference {
namespace {

using Result = BoardCheck::Result;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
  return text;
}

void add(BoardReport& r, std::string name, Result result, std::string detail) {
  r.checks.push_back(BoardCheck{std::move(name), result, std::move(detail)});
}

/// One frame on a context with @p core_mask, duplicated from @p loaded as a replicated node's replicas are
/// (the weights stay loaded once), reading @p input (the model's input in the NPU targets' memory).
/// Returns the backend's failure text, or "" and the run time in @p run_us.
std::string one_frame(const BoardCheckOptions& options, RknnBackend& loaded, int core_mask, const MemoryBlock& input,
                      std::int64_t& run_us, std::size_t& zero_copy) {
  try {
    RknnBackend backend;
    BackendOptions opt;
    opt.runtime_path = options.runtime_path;
    opt.core_mask = core_mask;
    opt.warmup = 0;
    const ModelInfo info = backend.load_replica(loaded, options.model_path, opt);
    const MemoryBlock blocks[] = {input};
    backend.bind_inputs(blocks);
    zero_copy = backend.zero_copy_inputs();
    std::vector<std::vector<unsigned char>> outputs;
    std::vector<void*> pointers;
    for (const TensorDesc& d : info.outputs) outputs.emplace_back(d.byte_size());
    for (auto& o : outputs) pointers.push_back(o.data());
    const Status s = backend.run(0, pointers);
    if (s != Status::ok) {
      return "the run failed: " + std::string(vg::to_string(s)) + ", runtime code " +
             std::to_string(backend.last_runtime_code()) +
             (backend.last_failure().empty() ? "" : " (" + std::string(backend.last_failure()) + ")");
    }
    run_us = backend.last_run_time_us();
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void check_runtime_and_frames(const BoardCheckOptions& options, BoardReport& r) {
  const npu::DoctorReport& d = r.doctor;
  if (!d.runtime_loaded) {
    add(r, "librknnrt", Result::fail, d.runtime_error + " (install it from rknn-toolkit2 rknpu2/runtime)");
    return;
  }
  if (options.model_path.empty()) {
    add(r, "librknnrt", Result::pass, "loaded from " + d.runtime_path + " (pass --model M.rknn for its version)");
    add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::skip, "needs --model M.rknn");
    add(r, "frames on the NPU cores", Result::skip, "needs --model M.rknn");
    return;
  }
  if (d.runtime_api_version.empty()) {
    add(r, "librknnrt", Result::fail, "loaded from " + d.runtime_path + ", but " + d.runtime_error);
    return;
  }
  add(r, "librknnrt", Result::pass,
      d.runtime_api_version + ", driver " + d.runtime_driver_version + " (" + d.runtime_path + ")" +
          (d.runtime_has_dup_context ? "; rknn_dup_context: replicas share one weight load" : "") +
          (d.async_runs.empty() ? "" : "; async runs " + d.async_runs));

  // One input buffer from the allocator the NPU targets use: rknpu GEM or a DMA heap on a board.
  npu::DmaBufAllocatorChoice memory;
  try {
    memory = npu::make_dmabuf_allocator();
  } catch (const std::exception& e) {
    add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail, e.what());
    return;
  }
  RknnBackend probe;  // the model, loaded once: its input size, and the source of every frame's context
  std::size_t input_bytes = 0;
  try {
    BackendOptions opt;
    opt.runtime_path = options.runtime_path;
    const ModelInfo info = probe.load(options.model_path, opt);
    input_bytes = info.inputs.at(0).byte_size();
  } catch (const std::exception& e) {
    add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail, std::string("loading the model: ") + e.what());
    return;
  }
  MemoryBlock input;
  try {
    input = memory.allocator->allocate(input_bytes, 64);
  } catch (const std::exception& e) {
    add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail,
        memory.kind + " could not allocate " + std::to_string(input_bytes) + " bytes: " + e.what());
    return;
  }
  struct Release {
    Allocator& a;
    MemoryBlock& b;
    ~Release() { a.release(b); }
  } release{*memory.allocator, input};

  // The frames: one per core when the core count is known (core masks 1, 2, 4), else one on auto.
  const unsigned cores = d.npu_cores;
  std::vector<int> masks;
  if (cores > 1) {
    for (unsigned c = 0; c < cores; ++c) masks.push_back(1 << c);
  } else {
    masks.push_back(0);  // one core (rknn_set_core_mask is for multi-core NPUs only) or unknown
  }
  bool bound_checked = false;
  for (std::size_t k = 0; k < masks.size(); ++k) {
    std::int64_t run_us = 0;
    std::size_t zero_copy = 0;
    const std::string failure = one_frame(options, probe, masks[k], input, run_us, zero_copy);
    if (!bound_checked && failure.empty()) {
      bound_checked = true;
      const std::string what = std::to_string(input_bytes) + " bytes from " + memory.kind;
      if (zero_copy == 1 && memory.is_dmabuf) {
        add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::pass, what + ", read by the NPU without a copy");
      } else if (zero_copy == 1) {
        add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail,
            what + " bound, but it is not a DMA-BUF a device can read (" + memory.reason + ")");
      } else {
        add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail,
            what + " was not bound zero-copy: every frame would be copied");
      }
    }
    const std::string name = masks[k] == 0 ? std::string(cores == 1 ? "frame on the NPU (one core)"
                                                                     : "frame on the NPU (core mask auto)")
                                           : "frame on NPU core " + std::to_string(k);
    if (failure.empty()) {
      add(r, name, Result::pass, options.model_path + ": " + std::to_string(run_us) + " us");
    } else {
      add(r, name, Result::fail, failure);
    }
  }
  if (!bound_checked) add(r, "DMA-BUF bound with rknn_create_mem_from_fd", Result::fail, "no frame ran (below)");
}

}  // namespace

bool BoardReport::passed() const noexcept {
  for (const BoardCheck& c : checks) {
    if (c.result == Result::fail) return false;
  }
  return true;
}

BoardReport run_board_check(const BoardCheckOptions& options) {
  BoardReport r;
  r.board = read_text(options.device_tree_model);
  if (r.board.empty()) r.board = "not a device-tree board (" + options.device_tree_model + " cannot be read)";
  utsname u{};
  r.kernel = ::uname(&u) == 0 ? std::string(u.sysname) + " " + u.release + " " + u.machine : "unknown";

  npu::DoctorOptions doctor_options;
  doctor_options.runtime_path = options.runtime_path;
  doctor_options.model_path = options.model_path;
  doctor_options.device_tree_compatible = options.device_tree_compatible;
  r.doctor = npu::run_doctor(doctor_options);
  const npu::DoctorReport& d = r.doctor;

  if (d.npu_found) {
    add(r, "rknpu driver", Result::pass,
        d.npu_path + ", driver " + d.npu_driver_version + ", DRM " + d.npu_drm_version);
  } else {
    add(r, "rknpu driver", Result::fail,
        d.npu_error + (d.legacy_misc_device ? "; /dev/rknpu exists (a symlink to a DRM node breaks librknnrt)" : "") +
            " (a board kernel with the rknpu driver; the user in group video or render)");
  }
  if (d.npu_cores > 0) {
    add(r, "SoC and NPU cores", Result::pass,
        (d.soc.empty() ? std::string("unnamed SoC") : d.soc) + ", " + std::to_string(d.npu_cores) + " core" +
            (d.npu_cores == 1 ? "" : "s") + " (" + d.soc_source + ")");
  } else {
    add(r, "SoC and NPU cores", Result::fail, d.soc_source + " (set VG_NPU_CORES=1..3 if the SoC is not listed)");
  }
  std::string why_no_heap;
  if (d.dma_heaps.empty()) {
    add(r, "DMA heaps", Result::fail, "none in /dev/dma_heap (the camera and RGA paths need one)");
  } else if (auto heap = npu::DmaHeapAllocator::open_first(d.dma_heaps, &why_no_heap)) {
    std::string detail;
    for (const std::string& h : d.dma_heaps) detail += (detail.empty() ? "" : ", ") + h;
    try {
      MemoryBlock b = heap->allocate(1 << 20, 64);
      heap->release(b);
      add(r, "DMA heaps", Result::pass, detail + "; 1 MiB allocated from " + std::string(heap->name()));
    } catch (const std::exception& e) {
      add(r, "DMA heaps", Result::fail, detail + "; allocating 1 MiB failed: " + e.what());
    }
  } else {
    add(r, "DMA heaps", Result::fail, "none opens: " + why_no_heap);
  }

  check_runtime_and_frames(options, r);

  // librga: found, bound (every im2d C entry point vg.rga uses), and its version.
  const std::string rga = npu::RgaRuntime::resolve_path(options.librga_path);
  if (void* h = ::dlopen(rga.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    ::dlclose(h);
    try {
      const std::string version = npu::RgaRuntime::open(rga)->version();
      add(r, "librga", version.empty() ? Result::fail : Result::pass,
          rga + (version.empty() ? ": querystring(RGA_VERSION) answers nothing" : ": " + version));
    } catch (const std::exception& e) {
      add(r, "librga", Result::fail, e.what());
    }
  } else {
    const char* why = ::dlerror();
    add(r, "librga", Result::skip, rga + " not found (" + std::string(why != nullptr ? why : "dlopen failed") + ")");
  }
  if (options.rga_letterbox_check) {
    BoardCheck c = options.rga_letterbox_check();
    c.name = "RGA letterbox vs the CPU one";
    r.checks.push_back(std::move(c));
  } else {
    add(r, "RGA letterbox vs the CPU one", Result::skip, "this build has no vg.rga module: letterboxing runs on the CPU");
  }
  return r;
}

std::string format(const BoardReport& r) {
  std::ostringstream os;
  os << "board: " << r.board << "\nkernel: " << r.kernel << '\n';
  int failed = 0, skipped = 0;
  for (const BoardCheck& c : r.checks) {
    const char* tag = c.result == Result::pass ? "PASS" : c.result == Result::fail ? "FAIL" : "SKIP";
    failed += c.result == Result::fail;
    skipped += c.result == Result::skip;
    os << tag << "  " << c.name << ": " << c.detail << '\n';
  }
  os << (failed == 0 ? "all checks passed" : std::to_string(failed) + " check" + (failed == 1 ? "" : "s") + " failed");
  if (skipped > 0) os << " (" << skipped << " skipped)";
  os << '\n';
  return os.str();
}

}  // namespace vg::inference
