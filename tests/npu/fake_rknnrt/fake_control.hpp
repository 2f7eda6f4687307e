#pragma once
// Test-side handle on the stand-in runtime: dlopens the same library path the binding opens (so both
// share one instance) and resolves the control/inspection functions declared in fake_rknnrt.hpp.

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace vg::test {

/// The stand-in runtime as seen by a test.
class FakeRknnrt {
 public:
  explicit FakeRknnrt(const std::string& path) : path_(path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) throw std::runtime_error("cannot dlopen " + path + ": " + dlerror());
    bind(log_count_, "fake_rknn_log_count");
    bind(log_entry_, "fake_rknn_log_entry");
    bind(log_reset_, "fake_rknn_log_reset");
    bind(set_, "fake_rknn_set");
    bind(set_version_, "fake_rknn_set_api_version");
    bind(live_mems_, "fake_rknn_live_mems");
    bind(live_contexts_, "fake_rknn_live_contexts");
  }
  ~FakeRknnrt() {
    set_version_(nullptr);
    set_("fail_runs", 0);
    set_("timeout_runs", 0);
    set_("fail_init", 0);
    dlclose(handle_);
  }
  FakeRknnrt(const FakeRknnrt&) = delete;
  FakeRknnrt& operator=(const FakeRknnrt&) = delete;

  const std::string& path() const { return path_; }
  std::vector<std::string> log() const {
    std::vector<std::string> out;
    const int n = log_count_();
    for (int i = 0; i < n; ++i) out.emplace_back(log_entry_(i));
    return out;
  }
  int log_count() const { return log_count_(); }
  void reset_log() const { log_reset_(); }
  void set(const char* key, long value) const { set_(key, value); }
  void set_api_version(const char* v) const { set_version_(v); }
  int live_mems() const { return live_mems_(); }
  int live_contexts() const { return live_contexts_(); }

  /// Calls in the log whose text starts with @p prefix.
  static int count(const std::vector<std::string>& log, const std::string& prefix) {
    int n = 0;
    for (const auto& e : log) n += e.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }

 private:
  template <typename F>
  void bind(F& fn, const char* name) {
    fn = reinterpret_cast<F>(dlsym(handle_, name));
    if (fn == nullptr) throw std::runtime_error(std::string("stand-in runtime lacks ") + name);
  }
  std::string path_;
  void* handle_ = nullptr;
  int (*log_count_)() = nullptr;
  const char* (*log_entry_)(int) = nullptr;
  void (*log_reset_)() = nullptr;
  int (*set_)(const char*, long) = nullptr;
  void (*set_version_)(const char*) = nullptr;
  int (*live_mems_)() = nullptr;
  int (*live_contexts_)() = nullptr;
};

/// Writes a stand-in model file (see fake_rknnrt.hpp) and returns its path.
inline std::string write_fake_model(const std::string& file_name, const std::string& body) {
  const auto dir = std::filesystem::temp_directory_path() / ("vg_npu_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / file_name;
  std::ofstream(path) << "fake-rknn\n" << body;
  return path.string();
}

/// Directory holding the BlazeFace models: VG_ASSETS_DIR, else the build-time default.
inline std::string assets_dir() {
  if (const char* env = std::getenv("VG_ASSETS_DIR"); env != nullptr && *env != '\0') return env;
  return VG_TEST_DEFAULT_ASSETS_DIR;
}

}  // namespace vg::test
