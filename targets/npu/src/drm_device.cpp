#include "visiongraph/npu/drm_device.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "visiongraph/npu/rknpu_ioctl.hpp"

namespace vg::npu {
namespace {

// Fills driver name/version of an opened node; returns false when the node does not speak DRM.
bool read_version(int fd, DrmNodeInfo& info) {
  drmVersionPtr v = drmGetVersion(fd);
  if (v == nullptr) {
    info.error = "drmGetVersion failed";
    return false;
  }
  info.driver.assign(v->name ? v->name : "", v->name ? static_cast<std::size_t>(v->name_len) : 0);
  info.description.assign(v->desc ? v->desc : "", v->desc ? static_cast<std::size_t>(v->desc_len) : 0);
  info.date.assign(v->date ? v->date : "", v->date ? static_cast<std::size_t>(v->date_len) : 0);
  info.version_major = v->version_major;
  info.version_minor = v->version_minor;
  info.version_patch = v->version_patchlevel;
  drmFreeVersion(v);
  return true;
}

DrmNodeInfo probe_node(const std::string& path, bool render) {
  DrmNodeInfo info;
  info.path = path;
  info.render_node = render;
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    info.error = std::strerror(errno);
    return info;
  }
  read_version(fd, info);
  ::close(fd);
  return info;
}

}  // namespace

DrmScan scan_drm_devices() {
  DrmScan scan;
  const int count = drmGetDevices2(0, nullptr, 0);
  if (count > 0) {
    std::vector<drmDevicePtr> devices(static_cast<std::size_t>(count), nullptr);
    const int got = drmGetDevices2(0, devices.data(), count);
    for (int i = 0; i < got; ++i) {
      const drmDevicePtr d = devices[static_cast<std::size_t>(i)];
      for (int type : {DRM_NODE_PRIMARY, DRM_NODE_RENDER}) {
        if ((d->available_nodes & (1 << type)) != 0 && d->nodes[type] != nullptr) {
          scan.nodes.push_back(probe_node(d->nodes[type], type == DRM_NODE_RENDER));
        }
      }
    }
    if (got > 0) drmFreeDevices(devices.data(), got);
  }
  if (scan.nodes.empty()) {
    // libdrm only reports devices on buses it knows; list /dev/dri as well so nothing is missed.
    std::error_code ec;
    if (std::filesystem::is_directory("/dev/dri", ec)) {
      for (const auto& entry : std::filesystem::directory_iterator("/dev/dri", ec)) {
        const std::string name = entry.path().filename().string();
        const bool render = name.rfind("renderD", 0) == 0;
        if (render || name.rfind("card", 0) == 0) scan.nodes.push_back(probe_node(entry.path().string(), render));
      }
    }
  }
  if (scan.nodes.empty()) {
    scan.error = count < 0 ? "no DRM devices (drmGetDevices2: " + std::string(std::strerror(-count)) + ")"
                           : "no DRM devices (no /dev/dri nodes)";
  }
  return scan;
}

std::optional<NpuDevice> NpuDevice::open(std::string* why_not) {
  const DrmScan scan = scan_drm_devices();
  const DrmNodeInfo* pick = nullptr;
  std::string denied;
  for (const DrmNodeInfo& node : scan.nodes) {
    if (node.driver != rknpu::kDriverName) {
      if (!node.error.empty() && denied.empty()) denied = node.path + ": " + node.error;
      continue;
    }
    // librknnrt opens the primary node; prefer it, but a render node works too (all ioctls are RENDER_ALLOW).
    if (pick == nullptr || (pick->render_node && !node.render_node)) pick = &node;
  }
  if (pick == nullptr) {
    if (why_not != nullptr) {
      *why_not = "no NPU: no DRM node with driver \"rknpu\"";
      if (!scan.error.empty()) *why_not += " (" + scan.error + ")";
      if (!denied.empty()) *why_not += "; could not open " + denied + " (add the user to group 'video'?)";
    }
    return std::nullopt;
  }
  NpuDevice dev;
  dev.fd_ = ::open(pick->path.c_str(), O_RDWR | O_CLOEXEC);
  if (dev.fd_ < 0) {
    if (why_not != nullptr) *why_not = "no NPU: cannot open " + pick->path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  dev.path_ = pick->path;
  dev.info_ = *pick;
  std::uint32_t value = 0;
  if (dev.action(rknpu::kGetDrvVersion, value) == Status::ok) dev.driver_version_ = value;
  value = 0;
  if (dev.action(rknpu::kGetHwVersion, value) == Status::ok) dev.hw_version_ = value;
  return dev;
}

NpuDevice::NpuDevice(NpuDevice&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      info_(std::move(other.info_)),
      driver_version_(other.driver_version_),
      hw_version_(other.hw_version_) {
  other.fd_ = -1;
}

NpuDevice& NpuDevice::operator=(NpuDevice&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
    path_ = std::move(other.path_);
    info_ = std::move(other.info_);
    driver_version_ = other.driver_version_;
    hw_version_ = other.hw_version_;
  }
  return *this;
}

NpuDevice::~NpuDevice() {
  if (fd_ >= 0) ::close(fd_);
}

std::string NpuDevice::drm_version_text() const {
  return std::to_string(info_.version_major) + "." + std::to_string(info_.version_minor) + "." +
         std::to_string(info_.version_patch);
}

std::string NpuDevice::driver_version_text() const {
  if (driver_version_ == 0) return "unknown";
  return std::to_string(driver_version_ / 10000) + "." + std::to_string((driver_version_ / 100) % 100) + "." +
         std::to_string(driver_version_ % 100);
}

Status NpuDevice::action(std::uint32_t id, std::uint32_t& value) const noexcept {
  rknpu::Action a{id, value};
  if (drmIoctl(fd_, rknpu::kIoctlAction, &a) != 0) return Status::io_error;
  value = a.value;
  return Status::ok;
}

}  // namespace vg::npu
