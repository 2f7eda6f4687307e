#pragma once
// Private state of a Context: targets, kernel registry, loaded modules and their users.

#include <map>
#include <memory>
#include <mutex>
#include <string>
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

struct ContextState {
  std::vector<std::unique_ptr<Target>> targets;
  unsigned spin_us = 0;
  std::map<std::string, Allocator*, std::less<>> target_allocators;
  mutable std::mutex mu;
  std::map<std::string, std::unique_ptr<KernelInfo>, std::less<>> kernels;
  std::map<std::string, LoadedModule, std::less<>> modules;

  void acquire_module(const std::string& module);
  void release_module(const std::string& module) noexcept;
};

}  // namespace vg::detail
