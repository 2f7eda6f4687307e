#include "visiongraph/kernel/kernel_decl.hpp"

#include "visiongraph/core/error.hpp"
#include "visiongraph/kernel/module.hpp"

namespace vg {

KernelDecl::KernelDecl(std::string name, std::string description)
    : name_(std::move(name)), description_(std::move(description)) {
  if (name_.empty()) throw Error("a kernel needs a name");
}

KernelDecl& KernelDecl::add_param(ParamDecl p) {
  if (p.name.empty()) throw Error("kernel '" + name_ + "': a parameter needs a name");
  if (param_index(p.name) >= 0) throw Error("kernel '" + name_ + "': parameter '" + p.name + "' declared twice");
  params_.push_back(std::move(p));
  return *this;
}

KernelDecl& KernelDecl::input(std::string name, DataKind kind, bool required, std::string description) {
  return add_param({std::move(name), Direction::input, kind, required, false, std::move(description)});
}
KernelDecl& KernelDecl::output(std::string name, DataKind kind, bool required, std::string description) {
  return add_param({std::move(name), Direction::output, kind, required, false, std::move(description)});
}
KernelDecl& KernelDecl::bidirectional(std::string name, DataKind kind, bool required, std::string description) {
  return add_param({std::move(name), Direction::bidirectional, kind, required, false, std::move(description)});
}
KernelDecl& KernelDecl::static_input(std::string name, DataKind kind, bool required, std::string description) {
  return add_param({std::move(name), Direction::input, kind, required, true, std::move(description)});
}
KernelDecl& KernelDecl::static_output(std::string name, DataKind kind, bool required, std::string description) {
  return add_param({std::move(name), Direction::output, kind, required, true, std::move(description)});
}

KernelDecl& KernelDecl::attribute(std::string name, AttrValue default_value, std::string description) {
  if (find_attribute(name)) throw Error("kernel '" + name_ + "': attribute '" + name + "' declared twice");
  const AttrType type = type_of(default_value);
  attrs_.push_back({std::move(name), type, std::move(default_value), std::move(description)});
  return *this;
}
KernelDecl& KernelDecl::attribute(std::string name, const char* default_value, std::string description) {
  return attribute(std::move(name), AttrValue(std::string(default_value)), std::move(description));
}
KernelDecl& KernelDecl::attribute(std::string name, int default_value, std::string description) {
  return attribute(std::move(name), AttrValue(static_cast<std::int64_t>(default_value)), std::move(description));
}
KernelDecl& KernelDecl::attribute(std::string name, bool default_value, std::string description) {
  return attribute(std::move(name), AttrValue(default_value), std::move(description));
}
KernelDecl& KernelDecl::attribute(std::string name, double default_value, std::string description) {
  return attribute(std::move(name), AttrValue(default_value), std::move(description));
}
KernelDecl& KernelDecl::required_attribute(std::string name, AttrType type, std::string description) {
  if (find_attribute(name)) throw Error("kernel '" + name_ + "': attribute '" + name + "' declared twice");
  attrs_.push_back({std::move(name), type, std::nullopt, std::move(description)});
  return *this;
}
KernelDecl& KernelDecl::command(std::uint32_t id, std::string name, PayloadKind payload, std::string description) {
  if (find_command(id) || find_command(name))
    throw Error("kernel '" + name_ + "': command '" + name + "' (id " + std::to_string(id) + ") declared twice");
  commands_.push_back({id, std::move(name), payload, std::move(description)});
  return *this;
}
KernelDecl& KernelDecl::validate(ValidateFn fn) {
  validate_ = std::move(fn);
  return *this;
}

KernelDecl& KernelDecl::deadline(std::chrono::milliseconds run, std::chrono::milliseconds create) {
  if (run.count() < 0 || create.count() < 0) throw Error("kernel '" + name_ + "': a deadline cannot be negative");
  run_deadline_ = run;
  create_deadline_ = create;
  return *this;
}

int KernelDecl::param_index(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == name) return static_cast<int>(i);
  return -1;
}
const AttrDecl* KernelDecl::find_attribute(std::string_view name) const noexcept {
  for (const auto& a : attrs_)
    if (a.name == name) return &a;
  return nullptr;
}
const CommandDecl* KernelDecl::find_command(std::uint32_t id) const noexcept {
  for (const auto& c : commands_)
    if (c.id == id) return &c;
  return nullptr;
}
const CommandDecl* KernelDecl::find_command(std::string_view name) const noexcept {
  for (const auto& c : commands_)
    if (c.name == name) return &c;
  return nullptr;
}

Module& Module::add(KernelDecl decl) {
  for (const auto& k : kernels_)
    if (k.name() == decl.name()) throw Error("module '" + name_ + "': kernel '" + decl.name() + "' added twice");
  kernels_.push_back(std::move(decl));
  return *this;
}

Module& Module::implement(std::string kernel, std::string target, KernelCallbacks callbacks, ImplementOptions options) {
  if (!callbacks.process) throw Error("module '" + name_ + "': kernel '" + kernel + "' on '" + target + "' needs a process callback");
  if (target.empty()) throw Error("module '" + name_ + "': kernel '" + kernel + "': empty target");
  impls_.push_back({std::move(kernel), std::move(target), callbacks, options});
  return *this;
}

}  // namespace vg
