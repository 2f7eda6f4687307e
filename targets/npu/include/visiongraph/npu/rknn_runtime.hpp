#pragma once
/// @file
/// @brief librknnrt loaded at run time (dlopen/dlsym), with version-dependent symbol fallbacks.

#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/npu/rknn_types.hpp"

namespace vg::npu {

/// @brief A parsed runtime version ("1.6.0 (3a6ddfd@2023-...)" -> 1.6.0).
struct RknnVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;
  bool valid = false;

  /// @brief Parses the leading "X.Y.Z" of @p text; valid=false when it does not start with one.
  static RknnVersion parse(std::string_view text) noexcept;
  constexpr bool at_least(int ma, int mi, int pa = 0) const noexcept {
    if (major != ma) return major > ma;
    if (minor != mi) return minor > mi;
    return patch >= pa;
  }
};

/// @brief The bound librknnrt entry points. Optional ones are null when the runtime lacks them.
struct RknnApi {
  rknn::InitFn init = nullptr;
  rknn::DestroyFn destroy = nullptr;
  rknn::DupContextFn dup_context = nullptr;   ///< optional: rknn_dup_context (present from 1.2.0 on)
  rknn::QueryFn query = nullptr;
  rknn::RunFn run = nullptr;
  rknn::WaitFn wait = nullptr;                ///< optional: rknn_wait (non-blocking runs)
  rknn::SetCoreMaskFn set_core_mask = nullptr;
  rknn::CreateMemFromFdFn create_mem_from_fd = nullptr;
  rknn::CreateMemFn create_mem = nullptr;
  rknn::CreateMem2Fn create_mem2 = nullptr;   ///< optional (>= 2.0.0)
  rknn::DestroyMemFn destroy_mem = nullptr;   ///< rknn_destroy_mem, or rknn_destory_mem before 1.3.0
  rknn::SetIoMemFn set_io_mem = nullptr;
  rknn::MemSyncFn mem_sync = nullptr;         ///< optional (>= 1.6.0)
};

/// @brief librknnrt, opened with dlopen and bound symbol by symbol.
///
/// The path is, in order: the argument, the environment variable VG_RKNNRT_PATH, "librknnrt.so"
/// (found through the loader's search path). Nothing in visiongraph links librknnrt, so builds and
/// hosts without it are unaffected; only a graph that asks for the rknn backend needs it.
/// @note The object is immutable after open(); the bound functions follow librknnrt's own threading
///       rules (one context per thread at a time).
/// @code
/// auto rt = vg::npu::RknnRuntime::open();           // throws vg::Error with a clear message
/// rknn::Context ctx{};
/// int rc = rt->api().init(&ctx, model.data(), size, 0, nullptr);
/// auto version = rt->query_version(ctx);            // "1.6.0 ..." / driver "0.9.6"
/// @endcode
class RknnRuntime {
 public:
  /// @brief Opens and binds the runtime. Throws vg::Error naming the path and dlerror() on failure,
  ///        e.g. "librknnrt.so not found (dlopen: ...); set VG_RKNNRT_PATH".
  static std::unique_ptr<RknnRuntime> open(std::string_view path = {});

  /// @brief The path open() would use for @p path (argument, else VG_RKNNRT_PATH, else librknnrt.so).
  static std::string resolve_path(std::string_view path);

  ~RknnRuntime();
  RknnRuntime(const RknnRuntime&) = delete;
  RknnRuntime& operator=(const RknnRuntime&) = delete;

  const RknnApi& api() const noexcept { return api_; }
  const std::string& path() const noexcept { return path_; }
  /// @brief Which symbol provided destroy_mem ("rknn_destroy_mem" or "rknn_destory_mem").
  std::string_view destroy_mem_symbol() const noexcept { return destroy_mem_symbol_; }
  bool has_mem_sync() const noexcept { return api_.mem_sync != nullptr; }
  bool has_create_mem2() const noexcept { return api_.create_mem2 != nullptr; }
  /// @brief The raw dlopen handle (for tests that look up extra symbols of a stand-in runtime).
  void* native_handle() const noexcept { return handle_; }

  /// @brief Versions reported by RKNN_QUERY_SDK_VERSION on an initialised context.
  struct Versions {
    std::string api;
    std::string driver;
    RknnVersion api_version;
  };
  /// @brief Queries the SDK version on @p ctx. Throws vg::Error when the query fails.
  Versions query_version(rknn::Context ctx) const;

  /// @brief Throws vg::Error when @p v uses struct layouts this binding does not declare
  ///        (rknn_tensor_attr was 372 bytes before 1.3.0).
  static void check_abi(const RknnVersion& v, std::string_view api_text);

 private:
  RknnRuntime() = default;
  void* handle_ = nullptr;
  std::string path_;
  std::string destroy_mem_symbol_;
  RknnApi api_;
};

}  // namespace vg::npu
