#pragma once
/// @file
/// @brief visiongraph.Context: the targets and kernel registry (owned, or borrowed from a loaded graph),
/// module loading, and the kernel descriptions it lists.

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "visiongraph/runtime/context.hpp"

namespace vg::python {

/// @brief A vg::Context seen from Python: its own, or the one a loaded graph built (then the Python
/// object keeps that graph alive).
class PyContext {
 public:
  explicit PyContext(ContextConfig config) : owned_(std::make_unique<Context>(std::move(config))), context_(owned_.get()) {}
  explicit PyContext(Context& borrowed) noexcept : context_(&borrowed) {}
  Context& get() const noexcept { return *context_; }

  /// @brief A built-in module by name, or a module library by path. Returns the module's name; throws
  /// vg::Error naming what was given and the built-in names when it is neither.
  std::string load_module(const std::string& name_or_path);

 private:
  std::unique_ptr<Context> owned_;
  Context* context_;
};

/// @brief One parameter of a kernel, as listed.
struct ParamInfo {
  std::string name, direction, kind, description;
  bool required = true, is_static = false;
};
/// @brief One attribute of a kernel, as listed (default: None when required).
struct AttributeInfo {
  std::string name, type, description;
  bool required = false;
  pybind11::object default_value;
};
/// @brief One control command of a kernel, as listed.
struct CommandInfo {
  std::uint32_t id = 0;
  std::string name, payload, description;
};
/// @brief A registered kernel: declaration, module and the targets implementing it.
struct KernelDescription {
  std::string name, description, module;
  std::vector<ParamInfo> params;
  std::vector<AttributeInfo> attributes;
  std::vector<CommandInfo> commands;
  std::vector<std::string> targets;
  std::int64_t deadline_ms = 0;
};

/// @brief The description of a registered kernel.
KernelDescription describe_kernel(const KernelInfo& info);
/// @brief Multi-line text of a kernel (what `visiongraph kernels` shows).
std::string kernel_text(const KernelDescription& k);

/// @brief Bind Context, KernelInfo and friends, and the module-level helpers (builtin_modules).
void bind_context(pybind11::module_& m);

}  // namespace vg::python
