#pragma once
/// @file
/// @brief Modules group kernels that are registered and unregistered together, built in or loaded
/// from a shared library.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/kernel/callbacks.hpp"
#include "visiongraph/kernel/kernel_decl.hpp"

namespace vg {

/// @brief What an implementation declares about itself beyond its callbacks.
struct ImplementOptions {
  /// Reads its inputs without a CPU address (DMA-BUF fd or device handle), so it may be bound to
  /// device-only data (Graph::set_device_only). A CPU kernel leaves this false.
  bool accepts_device_memory = false;
};

/// @brief One implementation of a kernel: on a target kind ("cpu", "npu") or one target ("cpu1").
struct KernelImpl {
  std::string kernel;
  std::string target;
  KernelCallbacks callbacks;
  ImplementOptions options{};
};

/// @brief A named set of kernel declarations and implementations.
/// @code
/// vg::Module m("my.module");
/// m.add(std::move(decl)).implement("my.kernel", "cpu", vg::callbacks_for<MyKernel>());
/// context.load_module(std::move(m));
/// @endcode
class Module {
 public:
  explicit Module(std::string name = {}) : name_(std::move(name)) {}
  Module& set_name(std::string name) {
    name_ = std::move(name);
    return *this;
  }
  Module& add(KernelDecl decl);
  Module& implement(std::string kernel, std::string target, KernelCallbacks callbacks,
                    ImplementOptions options = {});

  const std::string& name() const noexcept { return name_; }
  const std::vector<KernelDecl>& kernels() const noexcept { return kernels_; }
  const std::vector<KernelImpl>& implementations() const noexcept { return impls_; }

 private:
  std::string name_;
  std::vector<KernelDecl> kernels_;
  std::vector<KernelImpl> impls_;
};

/// Version of the shared-library module entry point; bumped on any ABI change.
inline constexpr std::uint32_t kModuleAbiVersion = 3;

}  // namespace vg

/// @brief The documented C entry point of a module library:
///   extern "C" std::uint32_t visiongraph_module_abi_version();      // must return vg::kModuleAbiVersion
///   extern "C" void visiongraph_module_register(vg::Module* module);  // fill in name, kernels, implementations
/// VG_DEFINE_MODULE(fn) defines both, calling `void fn(vg::Module&)`.
#define VG_DEFINE_MODULE(fill_function)                                                     \
  extern "C" __attribute__((visibility("default"))) std::uint32_t                           \
  visiongraph_module_abi_version() {                                                        \
    return ::vg::kModuleAbiVersion;                                                         \
  }                                                                                         \
  extern "C" __attribute__((visibility("default"))) void visiongraph_module_register(       \
      ::vg::Module* module) {                                                               \
    fill_function(*module);                                                                 \
  }
