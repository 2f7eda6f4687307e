#pragma once
// Private state of a Context: targets, kernel registry, loaded modules and their users.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/target.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::detail {

struct LoadedModule {
  std::string name;
  std::vector<std::string> kernels;
  void* library = nullptr;  // dlopen handle for module libraries
  std::string path;
  int users = 0;            // verified graphs using one of its kernels
};

/// A graph whose nodes have deadlines: the watchdog calls `check` every `period_ns` while it is watched.
struct WatchEntry {
  void* object = nullptr;
  void (*check)(void* object, std::int64_t now_ns) noexcept = nullptr;
  std::int64_t period_ns = 0;
};

/// One thread per context, started when the first graph with deadlines is verified ("vg-watchdog").
/// unwatch() returns only when no check of that object runs any more.
class Watchdog {
 public:
  ~Watchdog();
  void watch(const WatchEntry& entry);
  void unwatch(void* object) noexcept;

 private:
  void run() noexcept;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<WatchEntry> entries_;
  std::thread thread_;
};

struct ContextState {
  void (*log)(std::string_view line) = nullptr;  // ContextConfig::log; null = standard error
  Watchdog watchdog;
  void write_log(std::string_view line) const noexcept;

  std::vector<std::unique_ptr<Target>> targets;
  unsigned spin_us = 0;
  bool run_on_caller = true;
  std::map<std::string, Allocator*, std::less<>> target_allocators;
  mutable std::mutex mu;
  std::map<std::string, std::unique_ptr<KernelInfo>, std::less<>> kernels;
  std::map<std::string, LoadedModule, std::less<>> modules;

  void acquire_module(const std::string& module);
  void release_module(const std::string& module) noexcept;
};

}  // namespace vg::detail
