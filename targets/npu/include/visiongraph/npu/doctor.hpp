#pragma once
/// @file
/// @brief "doctor": what NPU-related facilities this machine has, and what inference will use.

#include <string>
#include <vector>

#include "visiongraph/npu/drm_device.hpp"

namespace vg::npu {

/// @brief Inputs of run_doctor(); all optional.
struct DoctorOptions {
  std::string runtime_path;  ///< librknnrt path (default: VG_RKNNRT_PATH, else librknnrt.so)
  std::string model_path;    ///< a .rknn model: when given, a context is created to read the SDK version
  std::string device_tree_compatible = "/proc/device-tree/compatible";  ///< where the SoC is read from
};

/// @brief Everything run_doctor() found. Plain data; format() renders it.
struct DoctorReport {
  std::vector<DrmNodeInfo> drm_nodes;
  std::string drm_error;

  bool npu_found = false;
  std::string npu_path;
  std::string npu_drm_version;     ///< drmGetVersion triple
  std::string npu_driver_version;  ///< RKNPU_GET_DRV_VERSION
  unsigned npu_hw_version = 0;     ///< RKNPU_GET_HW_VERSION
  std::string npu_error;           ///< why there is no NPU
  std::string soc;                 ///< "rk3588", ...; empty when unknown (detect_npu_soc)
  unsigned npu_cores = 0;          ///< 0 = unknown
  std::string soc_source;          ///< where the SoC and cores came from, or why they are unknown
  bool legacy_misc_device = false; ///< /dev/rknpu exists (DMA-heap driver build; librknnrt uses 'r' ioctls)

  bool runtime_loaded = false;
  std::string runtime_path;
  std::string runtime_error;
  std::string runtime_api_version;     ///< from RKNN_QUERY_SDK_VERSION (needs model_path)
  std::string runtime_driver_version;
  std::string runtime_destroy_symbol;  ///< rknn_destroy_mem / rknn_destory_mem
  bool runtime_has_mem_sync = false;
  bool runtime_has_create_mem2 = false;
  bool runtime_has_dup_context = false;  ///< replicas share one weight load
  bool runtime_has_wait = false;         ///< rknn_wait: async runs
  std::string async_runs;                ///< whether `async: true` works with this runtime, and why not

  std::vector<std::string> dma_heaps;
  std::string allocator;         ///< chosen by make_dmabuf_allocator()
  std::string allocator_reason;

  std::string opencv_version;    ///< empty when built without OpenCV
  bool opencv_dnn = false;
  std::vector<std::string> opencv_dnn_backends;

  std::string inference_rknn;    ///< what backend "auto"/"rknn" will do for .rknn models here
  std::string inference_other;   ///< what backend "auto" will do for other models (OpenCV DNN)
};

/// @brief Probes the machine. Never throws: every failure becomes text in the report.
DoctorReport run_doctor(const DoctorOptions& options = {});

/// @brief Multi-line human-readable report.
std::string format(const DoctorReport& report);

}  // namespace vg::npu
