#pragma once
// Test-side handle on the stand-in runtime: dlopens the same library path the binding opens (so both
// share one instance) and resolves the control/inspection functions declared in fake_rknnrt.hpp.

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
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
    bind(set_driver_version_, "fake_rknn_set_driver_version");
    bind(live_mems_, "fake_rknn_live_mems");
    bind(live_contexts_, "fake_rknn_live_contexts");
    bind(counter_, "fake_rknn_counter");
    bind(fd_binds_, "fake_rknn_fd_binds");
    bind(run_records_, "fake_rknn_run_records");
    bind(run_record_, "fake_rknn_run_record");
    bind(counters_reset_, "fake_rknn_counters_reset");
    bind(set_context_, "fake_rknn_set_context");
    bind(context_value_, "fake_rknn_context_value");
    bind(init_records_, "fake_rknn_init_records");
    bind(init_record_, "fake_rknn_init_record");
    bind(run_record_ex_, "fake_rknn_run_record_ex");
    bind(run_record_async_, "fake_rknn_run_record_async");
    bind(wait_records_, "fake_rknn_wait_records");
    bind(wait_record_, "fake_rknn_wait_record");
    bind(now_us_, "fake_rknn_now_us");
    counters_reset_();  // each test counts from zero
  }
  ~FakeRknnrt() {
    set_version_(nullptr);
    set_("fail_runs", 0);
    set_("timeout_runs", 0);
    set_("fail_waits", 0);
    set_("hang_runs", 0);
    set_("fail_init", 0);
    set_("init_error", -6);
    set_driver_version_(nullptr);
    set_("run_latency_us", 0);
    set_("run_jitter_us", 0);
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
  /// The driver version RKNN_QUERY_SDK_VERSION reports (null: "0.9.8").
  void set_driver_version(const char* v) const { set_driver_version_(v); }
  int live_mems() const { return live_mems_(); }
  int live_contexts() const { return live_contexts_(); }

  /// Run latency (see fake_rknnrt.hpp): every run of a context without its own latency waits this long,
  /// like an accelerator (sleeping, one of three cores busy); @p jitter_us adds 0..jitter_us per run.
  void set_run_latency(std::chrono::microseconds latency, std::chrono::microseconds jitter = {},
                       long seed = 1) const {
    set_("run_jitter_seed", seed);
    set_("run_jitter_us", static_cast<long>(jitter.count()));
    set_("run_latency_us", static_cast<long>(latency.count()));
  }
  /// One context's own run latency (negative: back to the global one). False for an unknown context.
  bool set_context_run_latency(unsigned long long ctx, std::chrono::microseconds latency) const {
    return set_context_(ctx, "run_latency_us", latency.count() < 0 ? -1L : static_cast<long>(latency.count())) == 0;
  }
  /// A live context's "core_mask", "init_tid", "runs", "input_fd_binds" or "run_latency_us"; -1 if unknown.
  long context_value(unsigned long long ctx, const char* key) const { return context_value_(ctx, key); }
  /// Successful rknn_init calls since the last reset_counters(), in call order.
  struct InitRead {
    unsigned long long ctx = 0;
    long tid = 0;  // Linux thread id of the caller
  };
  std::vector<InitRead> inits() const {
    std::vector<InitRead> out(static_cast<std::size_t>(init_records_()));
    for (std::size_t i = 0; i < out.size(); ++i) (void)init_record_(static_cast<int>(i), &out[i].ctx, &out[i].tid);
    return out;
  }

  /// Per-call counters (see fake_rknnrt.hpp): "create_mem_from_fd", "create_mem", "destroy_mem", "set_io_mem",
  /// "set_io_mem_input", "run".
  long counter(const char* name) const { return counter_(name); }
  /// rknn_create_mem_from_fd calls with this fd number since the last reset_counters().
  int fd_binds(int fd) const { return fd_binds_(fd); }
  void reset_counters() const { counters_reset_(); }
  /// What one successful rknn_run read: the input memory's fd (-1: runtime-allocated, e.g. staging) and the
  /// FNV-1a 64 checksum of the input bytes as the runtime saw them.
  /// Also the context that ran, the caller's Linux thread id and the core it occupied (-1: no latency).
  struct RunRead {
    int fd = -1;
    unsigned long long checksum = 0;
    unsigned long long ctx = 0;
    long tid = 0;
    int core = -1;
    // Non-blocking runs (rknn_run with non_block = 1): tid is the submitting thread; checksum and core
    // are filled when the run finished (done_us >= 0, stand-in clock; -1 while in flight).
    bool non_block = false;
    unsigned long long frame_id = 0;
    long long done_us = -1;
    int status = 0;
  };
  std::vector<RunRead> runs() const {
    std::vector<RunRead> out(static_cast<std::size_t>(run_records_()));
    for (std::size_t i = 0; i < out.size(); ++i) {
      (void)run_record_(static_cast<int>(i), &out[i].fd, &out[i].checksum);
      (void)run_record_ex_(static_cast<int>(i), &out[i].ctx, &out[i].tid, &out[i].core);
      int nb = 0;
      (void)run_record_async_(static_cast<int>(i), &nb, &out[i].frame_id, &out[i].done_us, &out[i].status);
      out[i].non_block = nb != 0;
    }
    return out;
  }
  /// One rknn_wait call: the context, the frame id it retired or timed out on (0: none), its return
  /// code, the caller's thread id, when it returned (stand-in clock, us) and whether the caller blocked
  /// (the run had not finished yet when rknn_wait was called).
  struct WaitRead {
    unsigned long long ctx = 0;
    unsigned long long frame_id = 0;
    int rc = 0;
    long tid = 0;
    long long return_us = 0;
    bool blocked = false;
  };
  std::vector<WaitRead> waits() const {
    std::vector<WaitRead> out(static_cast<std::size_t>(wait_records_()));
    for (std::size_t i = 0; i < out.size(); ++i) {
      int blocked = 0;
      (void)wait_record_(static_cast<int>(i), &out[i].ctx, &out[i].frame_id, &out[i].rc, &out[i].tid,
                         &out[i].return_us, &blocked);
      out[i].blocked = blocked != 0;
    }
    return out;
  }
  /// The stand-in's steady clock in microseconds (the time base of done_us / return_us).
  long long now_us() const { return now_us_(); }

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
  void (*set_driver_version_)(const char*) = nullptr;
  int (*live_mems_)() = nullptr;
  int (*live_contexts_)() = nullptr;
  long (*counter_)(const char*) = nullptr;
  int (*fd_binds_)(int) = nullptr;
  int (*run_records_)() = nullptr;
  int (*run_record_)(int, int*, unsigned long long*) = nullptr;
  void (*counters_reset_)() = nullptr;
  int (*set_context_)(unsigned long long, const char*, long) = nullptr;
  long (*context_value_)(unsigned long long, const char*) = nullptr;
  int (*init_records_)() = nullptr;
  int (*init_record_)(int, unsigned long long*, long*) = nullptr;
  int (*run_record_ex_)(int, unsigned long long*, long*, int*) = nullptr;
  int (*run_record_async_)(int, int*, unsigned long long*, long long*, int*) = nullptr;
  int (*wait_records_)() = nullptr;
  int (*wait_record_)(int, unsigned long long*, unsigned long long*, int*, long*, long long*, int*) = nullptr;
  long long (*now_us_)() = nullptr;
};

/// The checksum the stand-in records per run (FNV-1a 64) of @p size bytes at @p data.
inline unsigned long long fnv1a64(const void* data, std::size_t size) {
  unsigned long long h = 14695981039346656037ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

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
