#pragma once
/// @file
/// @brief librga (Rockchip's 2D engine, im2d API) loaded at run time, as librknnrt is, and the RGA device.

#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/npu/rga_types.hpp"

namespace vg::npu {

/// @brief The bound librga entry points, all with C linkage (rga_types.hpp says why only those).
struct RgaApi {
  rga::QueryStringFn query_string = nullptr;
  rga::StrErrorFn str_error = nullptr;  ///< optional: imStrError_t
  rga::ImportFdFn import_fd = nullptr;
  rga::ImportVirtualAddrFn import_virtual_addr = nullptr;
  rga::ReleaseHandleFn release_handle = nullptr;
  rga::WrapHandleFn wrap_handle = nullptr;
  rga::WrapVirtualAddrFn wrap_virtual_addr = nullptr;
  rga::CheckFn check = nullptr;
  rga::ProcessFn process = nullptr;
  rga::FillFn fill = nullptr;
};

/// @brief librga, opened with dlopen and bound symbol by symbol.
///
/// The path is, in order: the argument, the environment variable VG_LIBRGA_PATH, "librga.so". Nothing in
/// visiongraph links librga; only a graph that letterboxes on RGA (vg.rga.letterbox) loads it.
/// @code
/// auto rga = vg::npu::RgaRuntime::open();   // throws vg::Error naming the path and what is missing
/// std::string v = rga->version();          // querystring(RGA_VERSION) on one line
/// @endcode
class RgaRuntime {
 public:
  /// @brief Opens and binds librga. Throws vg::Error naming the path and dlerror() or the missing symbol.
  static std::unique_ptr<RgaRuntime> open(std::string_view path = {});
  /// @brief The path open() would use for @p path.
  static std::string resolve_path(std::string_view path);

  ~RgaRuntime();
  RgaRuntime(const RgaRuntime&) = delete;
  RgaRuntime& operator=(const RgaRuntime&) = delete;

  const RgaApi& api() const noexcept { return api_; }
  const std::string& path() const noexcept { return path_; }
  /// @brief querystring(RGA_VERSION) with its lines joined ("RGA_api version : 1.10.1 ... RGA_driver ...").
  std::string version() const;
  /// @brief imStrError_t's text for @p status, or the status name when the library lacks it.
  const char* status_text(int status) const noexcept;
  /// @brief The raw dlopen handle (tests look up a stand-in's extra symbols through it).
  void* native_handle() const noexcept { return handle_; }

 private:
  RgaRuntime() = default;
  void* handle_ = nullptr;
  std::string path_;
  RgaApi api_;
};

/// @brief The RGA device node librga drives: VG_RGA_DEVICE when set, else /dev/rga.
std::string rga_device_path();

/// @brief Empty when the RGA device exists; else "no RGA device (PATH does not exist; ...)".
std::string rga_device_missing();

/// @brief IM_STATUS name ("IM_STATUS_INVALID_PARAM", ...).
const char* rga_status_name(int status) noexcept;

}  // namespace vg::npu
