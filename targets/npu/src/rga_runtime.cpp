#include "visiongraph/npu/rga_runtime.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>

#include "visiongraph/core/error.hpp"
#include "runtime_library.hpp"

namespace vg::npu {

const char* rga_status_name(int status) noexcept {
  switch (status) {
    case rga::kStatusNoError: return "IM_STATUS_NOERROR";
    case rga::kStatusSuccess: return "IM_STATUS_SUCCESS";
    case rga::kStatusFailed: return "IM_STATUS_FAILED";
    case rga::kStatusNotSupported: return "IM_STATUS_NOT_SUPPORTED";
    case rga::kStatusOutOfMemory: return "IM_STATUS_OUT_OF_MEMORY";
    case rga::kStatusInvalidParam: return "IM_STATUS_INVALID_PARAM";
    case rga::kStatusIllegalParam: return "IM_STATUS_ILLEGAL_PARAM";
    case rga::kStatusErrorVersion: return "IM_STATUS_ERROR_VERSION";
    case rga::kStatusNoSession: return "IM_STATUS_NO_SESSION";
    default: return "unknown IM_STATUS";
  }
}

std::string RgaRuntime::resolve_path(std::string_view path) {
  if (!path.empty()) return std::string(path);
  if (const char* env = std::getenv("VG_LIBRGA_PATH"); env != nullptr && *env != '\0') return env;
  return "librga.so";
}

std::string rga_device_path() {
  if (const char* env = std::getenv("VG_RGA_DEVICE"); env != nullptr && *env != '\0') return env;
  return "/dev/rga";
}

std::string rga_device_missing() {
  const std::string device = rga_device_path();
  struct stat st{};
  if (::stat(device.c_str(), &st) == 0) return {};
  return "no RGA device (" + device + " does not exist; set VG_RGA_DEVICE if yours is elsewhere)";
}

std::unique_ptr<RgaRuntime> RgaRuntime::open(std::string_view path) {
  std::unique_ptr<RgaRuntime> rt(new RgaRuntime());
  rt->path_ = resolve_path(path);
  rt->handle_ = detail::open_runtime_library(
      rt->path_, "install librga (Debian/Ubuntu on Rockchip: librga2 or librga-dev) or set VG_LIBRGA_PATH");
  auto bind = [&](auto& fn, const char* name, bool required) {
    detail::bind_symbol(rt->handle_, rt->path_, fn, name, required,
                        "not an im2d librga with the C entry points (need librga 1.9.0 or later)");
  };
  RgaApi& a = rt->api_;
  bind(a.query_string, "querystring", true);
  bind(a.str_error, "imStrError_t", false);
  bind(a.import_fd, "importbuffer_fd", true);
  bind(a.import_virtual_addr, "importbuffer_virtualaddr", true);
  bind(a.release_handle, "releasebuffer_handle", true);
  bind(a.wrap_handle, "wrapbuffer_handle_t", true);
  bind(a.wrap_virtual_addr, "wrapbuffer_virtualaddr_t", true);
  bind(a.check, "imcheck_t", true);
  bind(a.process, "improcess", true);
  bind(a.fill, "imfill_t", true);
  return rt;
}

RgaRuntime::~RgaRuntime() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::string RgaRuntime::version() const {
  const char* text = api_.query_string(rga::kInfoVersion);
  std::string v = text != nullptr ? text : "";
  for (char& c : v) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

const char* RgaRuntime::status_text(int status) const noexcept {
  if (api_.str_error != nullptr) {
    if (const char* text = api_.str_error(status); text != nullptr && *text != '\0') return text;
  }
  return rga_status_name(status);
}

}  // namespace vg::npu
