#include "visiongraph/npu/doctor.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/dma_heap_allocator.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"
#include "visiongraph/npu/rknn_runtime.hpp"
#include "visiongraph/npu/soc.hpp"

#if defined(VG_NPU_HAVE_OPENCV)
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#endif

namespace vg::npu {
namespace {

void probe_runtime(const DoctorOptions& options, DoctorReport& r) {
  r.runtime_path = RknnRuntime::resolve_path(options.runtime_path);
  std::unique_ptr<RknnRuntime> rt;
  try {
    rt = RknnRuntime::open(options.runtime_path);
  } catch (const std::exception& e) {
    r.runtime_error = e.what();
    return;
  }
  r.runtime_loaded = true;
  r.runtime_destroy_symbol = std::string(rt->destroy_mem_symbol());
  r.runtime_has_mem_sync = rt->has_mem_sync();
  r.runtime_has_create_mem2 = rt->has_create_mem2();
  r.runtime_has_dup_context = rt->api().dup_context != nullptr;
  r.runtime_has_wait = rt->api().wait != nullptr;
  r.async_runs = r.runtime_has_wait ? "" : "no: the runtime does not export rknn_wait";
  if (options.model_path.empty()) return;
  std::ifstream in(options.model_path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    r.runtime_error = "cannot read model " + options.model_path;
    return;
  }
  rknn::Context ctx{};
  const int rc = rt->api().init(&ctx, bytes.data(), static_cast<std::uint32_t>(bytes.size()), 0, nullptr);
  if (rc != rknn::kSucc) {
    r.runtime_error = "rknn_init(" + options.model_path + ") failed: " + std::to_string(rc) + " " +
                      rknn::error_name(rc);
    return;
  }
  try {
    auto v = rt->query_version(ctx);
    r.runtime_api_version = v.api;
    r.runtime_driver_version = v.driver;
    if (r.runtime_has_wait && v.api_version.at_least(2, 3, 2)) {
      r.async_runs = "no: refused on librknnrt 2.3.2 and later (rknn_run fails with the fence flag, "
                     "rknn-toolkit2#577); replicas give the cores' parallelism";
    }
  } catch (const std::exception& e) {
    r.runtime_error = e.what();
  }
  (void)rt->api().destroy(ctx);
}

}  // namespace

DoctorReport run_doctor(const DoctorOptions& options) {
  DoctorReport r;
  DrmScan scan = scan_drm_devices();
  r.drm_nodes = std::move(scan.nodes);
  r.drm_error = std::move(scan.error);

  std::string why;
  if (auto npu = NpuDevice::open(&why)) {
    r.npu_found = true;
    r.npu_path = npu->path();
    r.npu_drm_version = npu->drm_version_text();
    r.npu_driver_version = npu->driver_version_text();
    r.npu_hw_version = npu->hw_version();
  } else {
    r.npu_error = why;
  }
  r.legacy_misc_device = ::access("/dev/rknpu", F_OK) == 0;
  try {
    const NpuSoc soc = detect_npu_soc(options.device_tree_compatible);
    r.soc = soc.name;
    r.npu_cores = soc.cores;
    r.soc_source = soc.source;
  } catch (const std::exception& e) {
    r.soc_source = e.what();  // VG_NPU_CORES set to something else than 1..3
  }

  probe_runtime(options, r);

  r.dma_heaps = DmaHeapAllocator::available_heaps();
  try {
    auto choice = make_dmabuf_allocator();
    r.allocator = choice.kind;
    r.allocator_reason = choice.reason;
  } catch (const std::exception& e) {
    r.allocator = "none";
    r.allocator_reason = e.what();
  }

#if defined(VG_NPU_HAVE_OPENCV)
  r.opencv_version = cv::getVersionString();
  r.opencv_dnn = true;
  try {
    for (const auto& [backend, target] : cv::dnn::getAvailableBackends()) {
      r.opencv_dnn_backends.push_back("backend " + std::to_string(backend) + "/target " + std::to_string(target));
    }
  } catch (const std::exception&) {
  }
#endif

  if (r.runtime_loaded && r.npu_found) {
    r.inference_rknn = "rknn backend on the NPU (" + r.npu_path + ", librknnrt " + r.runtime_path + ")";
  } else if (r.runtime_loaded) {
    r.inference_rknn = "rknn backend: librknnrt loads but " + r.npu_error + "; rknn_init will fail";
  } else {
    r.inference_rknn = "unavailable: " + r.runtime_error + (r.npu_found ? "" : "; " + r.npu_error) +
                       " (a graph asking for backend rknn fails at verify)";
  }
  r.inference_other = r.opencv_dnn ? "OpenCV DNN " + r.opencv_version + " on the CPU"
                                   : "unavailable: built without OpenCV";
  return r;
}

std::string format(const DoctorReport& r) {
  std::ostringstream os;
  os << "DRM devices:\n";
  if (r.drm_nodes.empty()) os << "  none (" << r.drm_error << ")\n";
  for (const DrmNodeInfo& n : r.drm_nodes) {
    os << "  " << n.path << ": ";
    if (!n.error.empty()) {
      os << "cannot open (" << n.error << ")\n";
    } else {
      os << n.driver << ' ' << n.version_major << '.' << n.version_minor << '.' << n.version_patch << " \""
         << n.description << "\" " << n.date << '\n';
    }
  }
  os << "NPU: ";
  if (r.npu_found) {
    os << r.npu_path << ", rknpu DRM " << r.npu_drm_version << ", driver " << r.npu_driver_version
       << ", hw version 0x" << std::hex << r.npu_hw_version << std::dec << '\n';
  } else {
    os << r.npu_error << '\n';
  }
  os << "SoC: ";
  if (r.npu_cores > 0) {
    os << (r.soc.empty() ? std::string("unnamed") : r.soc) << ", " << r.npu_cores << " NPU core"
       << (r.npu_cores == 1 ? "" : "s") << " (" << r.soc_source << "): at most " << r.npu_cores
       << " replica" << (r.npu_cores == 1 ? "" : "s") << " of an rknn node\n";
  } else {
    os << "unknown (" << r.soc_source << "): replicas run on core mask auto; set VG_NPU_CORES or npu_cores\n";
  }
  if (r.legacy_misc_device) {
    os << "  warning: /dev/rknpu exists; librknnrt then uses the legacy misc-device ioctls (a symlink to a DRM "
          "node breaks it)\n";
  }
  os << "librknnrt: ";
  if (r.runtime_loaded) {
    os << "loaded from " << r.runtime_path << " (destroy symbol " << r.runtime_destroy_symbol
       << ", rknn_mem_sync " << (r.runtime_has_mem_sync ? "yes" : "no (< 1.6.0)") << ", rknn_create_mem2 "
       << (r.runtime_has_create_mem2 ? "yes" : "no (< 2.0.0)") << ", rknn_dup_context "
       << (r.runtime_has_dup_context ? "yes: replicas load the weights once" : "no: each replica loads the model")
       << ")\n";
    if (!r.async_runs.empty()) os << "  async runs: " << r.async_runs << '\n';
    if (!r.runtime_api_version.empty()) {
      os << "  api " << r.runtime_api_version << ", driver " << r.runtime_driver_version << '\n';
    } else if (!r.runtime_error.empty()) {
      os << "  " << r.runtime_error << '\n';
    } else {
      os << "  (pass a .rknn model to read the SDK version)\n";
    }
  } else {
    os << "not loaded: " << r.runtime_error << '\n';
  }
  os << "DMA heaps: ";
  if (r.dma_heaps.empty()) os << "none";
  for (std::size_t i = 0; i < r.dma_heaps.size(); ++i) os << (i ? ", " : "") << r.dma_heaps[i];
  os << "\nallocator: " << r.allocator;
  if (!r.allocator_reason.empty()) os << " (" << r.allocator_reason << ')';
  os << "\nOpenCV: " << (r.opencv_version.empty() ? "not built in" : r.opencv_version)
     << ", DNN " << (r.opencv_dnn ? "available" : "unavailable");
  if (!r.opencv_dnn_backends.empty()) os << " (" << r.opencv_dnn_backends.size() << " backend/target pairs)";
  os << "\ninference: .rknn models -> " << r.inference_rknn << "\n           other models -> "
     << r.inference_other << '\n';
  return os.str();
}

}  // namespace vg::npu
