#pragma once
/// @file
/// @brief DRM device enumeration (libdrm) and the rknpu NPU device.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "visiongraph/core/status.hpp"

namespace vg::npu {

/// @brief One DRM node seen by enumeration.
struct DrmNodeInfo {
  std::string path;          ///< e.g. /dev/dri/card1 or /dev/dri/renderD129
  std::string driver;        ///< drmGetVersion()->name, e.g. "rknpu", "rockchip"
  std::string description;   ///< drmGetVersion()->desc
  std::string date;          ///< drmGetVersion()->date
  int version_major = 0;
  int version_minor = 0;
  int version_patch = 0;
  bool render_node = false;
  std::string error;         ///< why the node could not be opened (e.g. "Permission denied"), empty when fine
};

/// @brief Result of scanning the DRM devices of this machine.
struct DrmScan {
  std::vector<DrmNodeInfo> nodes;
  std::string error;  ///< e.g. "no DRM devices (drmGetDevices2 returned 0)"
};

/// @brief Lists every DRM node with its driver name (libdrm drmGetDevices2 + drmGetVersion).
DrmScan scan_drm_devices();

/// @brief The Rockchip NPU opened through its DRM node (found by driver name "rknpu", never by path).
/// @code
/// std::string why;
/// if (auto npu = vg::npu::NpuDevice::open(&why)) std::cout << npu->path() << ' ' << npu->driver_version_text();
/// else std::cout << "no NPU: " << why;
/// @endcode
/// @note ioctl() on the fd is thread-safe; the object itself is not copied between threads.
class NpuDevice {
 public:
  /// @brief Finds and opens the rknpu node (prefers the primary node, as librknnrt does). Returns empty
  ///        and fills @p why_not ("no NPU: ...") when there is none or it cannot be opened.
  static std::optional<NpuDevice> open(std::string* why_not = nullptr);

  NpuDevice(NpuDevice&& other) noexcept;
  NpuDevice& operator=(NpuDevice&& other) noexcept;
  NpuDevice(const NpuDevice&) = delete;
  NpuDevice& operator=(const NpuDevice&) = delete;
  ~NpuDevice();

  int fd() const noexcept { return fd_; }
  const std::string& path() const noexcept { return path_; }
  /// @brief drmGetVersion() triple, e.g. 0.9.8.
  std::string drm_version_text() const;
  /// @brief RKNPU_GET_DRV_VERSION (MAJOR*10000+MINOR*100+PATCH), 0 if the action failed.
  std::uint32_t driver_version() const noexcept { return driver_version_; }
  std::string driver_version_text() const;
  /// @brief RKNPU_GET_HW_VERSION register value, 0 if the action failed.
  std::uint32_t hw_version() const noexcept { return hw_version_; }

  /// @brief Runs one RKNPU ACTION ioctl (e.g. rknpu::kGetIommuEn). Returns io_error on failure.
  Status action(std::uint32_t id, std::uint32_t& value) const noexcept;

 private:
  NpuDevice() = default;
  int fd_ = -1;
  std::string path_;
  DrmNodeInfo info_;
  std::uint32_t driver_version_ = 0;
  std::uint32_t hw_version_ = 0;
};

}  // namespace vg::npu
