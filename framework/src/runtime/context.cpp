#include <dlfcn.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "runtime/context_state.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/error.hpp"

namespace vg {

ContextConfig ContextConfig::defaults() {
  ContextConfig config;
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256}};
  return config;
}

Context::Context(ContextConfig config) : state_(std::make_unique<detail::ContextState>()) {
  state_->spin_us = config.spin_us;
  state_->run_on_caller = config.run_on_caller;
  state_->log = config.log;
  if (config.targets.empty()) throw Error("context: at least one target is needed");
  for (std::size_t i = 0; i < config.targets.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (config.targets[j].name == config.targets[i].name)
        throw Error("context: target '" + config.targets[i].name + "' is configured twice");
    }
    state_->targets.push_back(std::make_unique<detail::Target>(config.targets[i], i, config.spin_us));
  }
}

Context::~Context() {
  std::vector<void*> libraries;
  for (auto& [name, module] : state_->modules)
    if (module.library) libraries.push_back(module.library);
  bool stuck = false;  // a worker given up on may still be inside a module's code
  for (auto& target : state_->targets) stuck = stuck || target->stuck_threads() > 0;
  state_->targets.clear();  // join workers before the code they might run is unloaded
  state_->kernels.clear();
  if (!stuck)
    for (void* library : libraries) dlclose(library);
}

void Context::load_module(Module module) {
  std::lock_guard lock(state_->mu);
  if (module.name().empty()) throw Error("load_module: the module has no name");
  if (state_->modules.count(module.name()))
    throw Error("module '" + module.name() + "' is already loaded");
  for (const KernelDecl& decl : module.kernels()) {
    if (state_->kernels.count(decl.name()))
      throw Error("module '" + module.name() + "': kernel '" + decl.name() + "' is already registered by module '" +
                  state_->kernels.find(decl.name())->second->module + "'");
  }
  for (const KernelImpl& impl : module.implementations()) {
    const bool declared = std::any_of(module.kernels().begin(), module.kernels().end(),
                                      [&](const KernelDecl& d) { return d.name() == impl.kernel; });
    if (!declared)
      throw Error("module '" + module.name() + "': implementation for undeclared kernel '" + impl.kernel + "'");
    if (impl.callbacks.process == nullptr)
      throw Error("module '" + module.name() + "': kernel '" + impl.kernel + "' on '" + impl.target +
                  "' has no process callback");
  }
  detail::LoadedModule loaded;
  loaded.name = module.name();
  for (const KernelDecl& decl : module.kernels()) {
    auto info = std::make_unique<KernelInfo>(KernelInfo{decl, module.name(), {}});
    for (const KernelImpl& impl : module.implementations())
      if (impl.kernel == decl.name()) info->impls.push_back(impl);
    loaded.kernels.push_back(decl.name());
    state_->kernels.emplace(decl.name(), std::move(info));
  }
  state_->modules.emplace(loaded.name, std::move(loaded));
}

std::string Context::load_module_library(const std::string& path) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw Error("module library '" + path + "': cannot load: " + (why ? why : "unknown error"));
  }
  using AbiFn = std::uint32_t (*)();
  using RegisterFn = void (*)(Module*);
  auto abi = reinterpret_cast<AbiFn>(dlsym(library, "visiongraph_module_abi_version"));
  auto reg = reinterpret_cast<RegisterFn>(dlsym(library, "visiongraph_module_register"));
  if (!abi || !reg) {
    dlclose(library);
    throw Error("module library '" + path +
                "': missing entry point visiongraph_module_abi_version/visiongraph_module_register "
                "(define it with VG_DEFINE_MODULE)");
  }
  if (abi() != kModuleAbiVersion) {
    const auto found = abi();
    dlclose(library);
    throw Error("module library '" + path + "': module ABI version " + std::to_string(found) +
                ", this visiongraph expects " + std::to_string(kModuleAbiVersion));
  }
  Module module;
  try {
    reg(&module);
    if (module.name().empty()) throw Error("the module did not set a name");
    load_module(module);
  } catch (const std::exception& e) {
    // The module's objects (callbacks, validate functions) live in the library: drop them first.
    module = Module();
    dlclose(library);
    throw Error("module library '" + path + "': " + e.what());
  }
  std::lock_guard lock(state_->mu);
  auto& loaded = state_->modules.at(module.name());
  loaded.library = library;
  loaded.path = path;
  return module.name();
}

void Context::unload_module(std::string_view name) {
  void* library = nullptr;
  {
    std::lock_guard lock(state_->mu);
    auto it = state_->modules.find(name);
    if (it == state_->modules.end()) throw Error("unload_module: module '" + std::string(name) + "' is not loaded");
    if (it->second.users > 0)
      throw Error("unload_module: module '" + std::string(name) + "' is used by " + std::to_string(it->second.users) +
                  " verified graph(s); release them first");
    for (const std::string& kernel : it->second.kernels) state_->kernels.erase(kernel);
    library = it->second.library;
    state_->modules.erase(it);
  }
  if (library) dlclose(library);
}

bool Context::has_module(std::string_view name) const {
  std::lock_guard lock(state_->mu);
  return state_->modules.count(name) > 0;
}

std::vector<std::string> Context::modules() const {
  std::lock_guard lock(state_->mu);
  std::vector<std::string> out;
  for (const auto& [name, module] : state_->modules) out.push_back(name);
  return out;
}

const KernelInfo* Context::find_kernel(std::string_view name) const {
  std::lock_guard lock(state_->mu);
  auto it = state_->kernels.find(name);
  return it == state_->kernels.end() ? nullptr : it->second.get();
}

std::vector<std::string> Context::kernel_names() const {
  std::lock_guard lock(state_->mu);
  std::vector<std::string> out;
  for (const auto& [name, info] : state_->kernels) out.push_back(name);
  return out;
}

void Context::set_target_allocator(std::string_view target, Allocator* allocator) {
  if (!find_target(target)) throw Error("set_target_allocator: unknown target '" + std::string(target) + "'");
  std::lock_guard lock(state_->mu);
  state_->target_allocators[std::string(target)] = allocator;
}

Allocator* Context::target_allocator(std::string_view target) const {
  std::lock_guard lock(state_->mu);
  auto it = state_->target_allocators.find(target);
  return it == state_->target_allocators.end() ? nullptr : it->second;
}

std::size_t Context::num_targets() const noexcept { return state_->targets.size(); }
unsigned Context::spin_us() const noexcept { return state_->spin_us; }
bool Context::run_on_caller() const noexcept { return state_->run_on_caller; }

detail::Target* Context::find_target(std::string_view name) const noexcept {
  for (const auto& t : state_->targets)
    if (t->name() == name) return t.get();
  return nullptr;
}

detail::Target& Context::target(std::size_t index) const noexcept { return *state_->targets[index]; }

std::vector<std::string> Context::target_names() const {
  std::vector<std::string> out;
  for (const auto& t : state_->targets) out.push_back(t->name());
  return out;
}

std::vector<std::string> Context::target_names(std::string_view kind) const {
  std::vector<std::string> out;
  for (const auto& t : state_->targets)
    if (t->kind() == kind) out.push_back(t->name());
  return out;
}

namespace detail {
void ContextState::acquire_module(const std::string& module) {
  std::lock_guard lock(mu);
  auto it = modules.find(module);
  if (it != modules.end()) ++it->second.users;
}
void ContextState::release_module(const std::string& module) noexcept {
  std::lock_guard lock(mu);
  auto it = modules.find(module);
  if (it != modules.end() && it->second.users > 0) --it->second.users;
}
}  // namespace detail

namespace detail {

void ContextState::write_log(std::string_view line) const noexcept {
  if (log != nullptr) {
    log(line);
    return;
  }
  std::fprintf(stderr, "visiongraph: %.*s\n", static_cast<int>(line.size()), line.data());
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::watch(const WatchEntry& entry) {
  std::lock_guard lock(mu_);
  entries_.push_back(entry);
  if (!thread_.joinable()) {
    thread_ = std::thread([this] { run(); });
    pthread_setname_np(thread_.native_handle(), "vg-watchdog");
  }
  cv_.notify_all();
}

void Watchdog::unwatch(void* object) noexcept {
  std::lock_guard lock(mu_);  // checks run under mu_: none of this object runs once we hold it
  std::erase_if(entries_, [&](const WatchEntry& e) { return e.object == object; });
}

void Watchdog::run() noexcept {
  std::unique_lock lock(mu_);
  while (!stop_) {
    std::int64_t period = 100'000'000;  // idle: look again in 100 ms
    for (const WatchEntry& e : entries_) {
      e.check(e.object, now_ns());
      period = std::min(period, e.period_ns);
    }
    cv_.wait_for(lock, std::chrono::nanoseconds(period));
  }
}

}  // namespace detail
}  // namespace vg
