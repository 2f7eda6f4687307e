#include "visiongraph/npu/rknn_runtime.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "visiongraph/core/error.hpp"
#include "runtime_library.hpp"

namespace vg::rknn {

const char* error_name(int code) noexcept {
  switch (code) {
    case kSucc: return "RKNN_SUCC";
    case kErrFail: return "RKNN_ERR_FAIL";
    case kErrTimeout: return "RKNN_ERR_TIMEOUT";
    case kErrDeviceUnavailable: return "RKNN_ERR_DEVICE_UNAVAILABLE";
    case kErrMallocFail: return "RKNN_ERR_MALLOC_FAIL";
    case kErrParamInvalid: return "RKNN_ERR_PARAM_INVALID";
    case kErrModelInvalid: return "RKNN_ERR_MODEL_INVALID";
    case kErrCtxInvalid: return "RKNN_ERR_CTX_INVALID";
    case kErrInputInvalid: return "RKNN_ERR_INPUT_INVALID";
    case kErrOutputInvalid: return "RKNN_ERR_OUTPUT_INVALID";
    case kErrDeviceUnmatch: return "RKNN_ERR_DEVICE_UNMATCH";
    case kErrIncompatiblePreCompileModel: return "RKNN_ERR_INCOMPATILE_PRE_COMPILE_MODEL";
    case kErrIncompatibleOptimizationLevelVersion: return "RKNN_ERR_INCOMPATILE_OPTIMIZATION_LEVEL_VERSION";
    case kErrTargetPlatformUnmatch: return "RKNN_ERR_TARGET_PLATFORM_UNMATCH";
    default: return "unknown";
  }
}

}  // namespace vg::rknn

namespace vg::npu {

RknnVersion RknnVersion::parse(std::string_view text) noexcept {
  RknnVersion v;
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == 'v' || text[i] == 'V')) ++i;
  int parts[3] = {0, 0, 0};
  int n = 0;
  while (n < 3 && i < text.size() && text[i] >= '0' && text[i] <= '9') {
    int value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') value = value * 10 + (text[i++] - '0');
    parts[n++] = value;
    if (i < text.size() && text[i] == '.') ++i; else break;
  }
  if (n >= 2) {
    v.major = parts[0];
    v.minor = parts[1];
    v.patch = parts[2];
    v.valid = true;
  }
  return v;
}

std::string RknnRuntime::resolve_path(std::string_view path) {
  if (!path.empty()) return std::string(path);
  if (const char* env = std::getenv("VG_RKNNRT_PATH"); env != nullptr && *env != '\0') return env;
  return "librknnrt.so";
}

std::unique_ptr<RknnRuntime> RknnRuntime::open(std::string_view path) {
  std::unique_ptr<RknnRuntime> rt(new RknnRuntime());
  rt->path_ = resolve_path(path);
  rt->handle_ = detail::open_runtime_library(
      rt->path_, "set VG_RKNNRT_PATH to the librknnrt.so of your board's runtime");
  auto bind = [&](auto& fn, const char* name, bool required) {
    detail::bind_symbol(rt->handle_, rt->path_, fn, name, required, "not a usable librknnrt (need >= 1.3.0)");
  };
  RknnApi& a = rt->api_;
  bind(a.init, "rknn_init", true);
  bind(a.destroy, "rknn_destroy", true);
  bind(a.query, "rknn_query", true);
  bind(a.run, "rknn_run", true);
  bind(a.set_core_mask, "rknn_set_core_mask", true);
  bind(a.create_mem_from_fd, "rknn_create_mem_from_fd", true);
  bind(a.create_mem, "rknn_create_mem", true);
  bind(a.set_io_mem, "rknn_set_io_mem", true);
  bind(a.create_mem2, "rknn_create_mem2", false);
  bind(a.mem_sync, "rknn_mem_sync", false);
  bind(a.wait, "rknn_wait", false);
  bind(a.dup_context, "rknn_dup_context", false);
  bind(a.destroy_mem, "rknn_destroy_mem", false);
  rt->destroy_mem_symbol_ = "rknn_destroy_mem";
  if (a.destroy_mem == nullptr) {
    // 1.2.x spelled it "destory"; accept that spelling so the version check below can give a clear message.
    bind(a.destroy_mem, "rknn_destory_mem", false);
    rt->destroy_mem_symbol_ = "rknn_destory_mem";
  }
  if (a.destroy_mem == nullptr) {
    throw Error(rt->path_ + " exports neither rknn_destroy_mem nor rknn_destory_mem");
  }
  return rt;
}

RknnRuntime::~RknnRuntime() {
  if (handle_ != nullptr) dlclose(handle_);
}

RknnRuntime::Versions RknnRuntime::query_version(rknn::Context ctx) const {
  rknn::SdkVersion sdk{};
  const int rc = api_.query(ctx, rknn::kQuerySdkVersion, &sdk, sizeof(sdk));
  if (rc != rknn::kSucc) {
    throw Error(path_ + ": rknn_query(RKNN_QUERY_SDK_VERSION) failed with " + std::to_string(rc) + " (" +
                rknn::error_name(rc) + ")");
  }
  sdk.api_version[sizeof(sdk.api_version) - 1] = '\0';
  sdk.drv_version[sizeof(sdk.drv_version) - 1] = '\0';
  Versions v;
  v.api = sdk.api_version;
  v.driver = sdk.drv_version;
  v.api_version = RknnVersion::parse(v.api);
  return v;
}

void RknnRuntime::check_abi(const RknnVersion& v, std::string_view api_text) {
  if (!v.valid) {
    throw Error("librknnrt reported an unparsable API version '" + std::string(api_text) +
                "'; cannot tell which struct layouts it uses");
  }
  if (rknn::tensor_attr_size_for(v.major, v.minor) != sizeof(rknn::TensorAttr)) {
    throw Error("librknnrt " + std::string(api_text) +
                " is too old: it uses the 372-byte rknn_tensor_attr of runtimes before 1.3.0, visiongraph "
                "declares the 376-byte layout; install librknnrt >= 1.3.0");
  }
}

}  // namespace vg::npu
