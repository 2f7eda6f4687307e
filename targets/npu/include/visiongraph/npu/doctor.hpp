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
  bool legacy_misc_device = false; ///< /dev/rknpu exists (DMA-heap driver build; librknnrt uses 'r' ioctls)

  bool runtime_loaded = false;
  std::string runtime_path;
  std::string runtime_error;
  std::string runtime_api_version;     ///< from RKNN_QUERY_SDK_VERSION (needs model_path)
  std::string runtime_driver_version;
  std::string runtime_destroy_symbol;  ///< rknn_destroy_mem / rknn_destory_mem
  bool runtime_has_mem_sync = false;
  bool runtime_has_create_mem2 = false;

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
