// KernelContext and ValidateContext: thin views of a node's state.

#include <algorithm>
#include <cstring>

#include "graph/graph_core.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernel/validate_context.hpp"

namespace vg {

namespace {
const AttrValue& lookup(const detail::NodeState& n, std::string_view key) {
  if (const AttrValue* v = n.attrs.find(key)) return *v;
  if (const AttrDecl* d = n.kernel->decl.find_attribute(key))
    if (d->default_value) return *d->default_value;
  throw Error("node '" + n.name + "' (kernel '" + n.kernel_name + "'): attribute '" + std::string(key) +
              "' is not declared or not set");
}

template <class T>
const T& get_as(const detail::NodeState& n, std::string_view key, const char* type_name) {
  const AttrValue& v = lookup(n, key);
  if (const T* p = std::get_if<T>(&v)) return *p;
  throw Error("node '" + n.name + "' (kernel '" + n.kernel_name + "'), attribute '" + std::string(key) +
              "': expected " + type_name + ", got " + to_text(v));
}

double as_number(const detail::NodeState& n, std::string_view key) {
  const AttrValue& v = lookup(n, key);
  if (const double* d = std::get_if<double>(&v)) return *d;
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw Error("node '" + n.name + "' (kernel '" + n.kernel_name + "'), attribute '" + std::string(key) +
              "': expected a number, got " + to_text(v));
}

const DataMeta kEmptyMeta{};
}  // namespace

// ---- KernelContext ----
std::string_view KernelContext::node_name() const noexcept { return node_.name; }
std::string_view KernelContext::kernel_name() const noexcept { return node_.kernel_name; }
std::string_view KernelContext::target_name() const noexcept { return node_.target_name; }
std::uint32_t KernelContext::replica_index() const noexcept { return node_.replica_index; }
void KernelContext::complete_after(int fence_fd) noexcept { node_.fence_fd = fence_fd; }
void KernelContext::report_code(std::int32_t code) noexcept { node_.reported_code = code; }
std::uint32_t KernelContext::replica_count() const noexcept { return node_.replica_count; }
std::size_t KernelContext::num_params() const noexcept { return node_.num_params; }
const DataMeta& KernelContext::meta(std::size_t param) const noexcept {
  const DataMeta* m = meta_ptr(param);
  return m ? *m : kEmptyMeta;
}
int KernelContext::param_index(std::string_view name) const noexcept { return node_.kernel->decl.param_index(name); }
std::size_t KernelContext::num_buffers(std::size_t param) const noexcept {
  if (!is_bound(param)) return 0;
  return node_.graph->data_[node_.bindings[param]]->buffers.size();
}
Buffer* KernelContext::buffer(std::size_t param, std::size_t k) const noexcept {
  if (!is_bound(param)) return nullptr;
  auto& buffers = node_.graph->data_[node_.bindings[param]]->buffers;
  return k < buffers.size() ? &buffers[k] : nullptr;
}
const MemoryBlock& KernelContext::buffer_block(std::size_t param, std::size_t k) const noexcept {
  static const MemoryBlock empty{};
  Buffer* b = buffer(param, k);
  return b ? b->block : empty;
}
std::size_t KernelContext::buffer_index(std::size_t param) const noexcept {
  return node_.table_index[calls_.current_slot * node_.num_params + param];
}
bool KernelContext::device_only(std::size_t param) const noexcept {
  return is_bound(param) && node_.graph->data_[node_.bindings[param]]->device_only;
}
bool KernelContext::imported(std::size_t param) const noexcept {
  const Buffer* b = is_bound(param) ? current(param) : nullptr;
  return b != nullptr && b->imported;
}
void KernelContext::count_conversion() noexcept { node_.conversions.fetch_add(1, std::memory_order_relaxed); }
const FrameInfo& KernelContext::frame() const noexcept { return node_.frame; }
bool KernelContext::boolean(std::string_view key) const { return get_as<bool>(node_, key, "a boolean"); }
std::int64_t KernelContext::integer(std::string_view key) const { return get_as<std::int64_t>(node_, key, "an integer"); }
double KernelContext::number(std::string_view key) const { return as_number(node_, key); }
const std::string& KernelContext::string(std::string_view key) const { return get_as<std::string>(node_, key, "a string"); }
const std::vector<double>& KernelContext::numbers(std::string_view key) const {
  return get_as<std::vector<double>>(node_, key, "a list of numbers");
}
bool KernelContext::has_attribute(std::string_view key) const noexcept { return node_.attrs.find(key) != nullptr; }
std::shared_ptr<void> KernelContext::take_from_validate() noexcept { return std::move(node_.from_validate); }
void KernelContext::set_instance(void* instance) noexcept { node_.instance = instance; }
void* KernelContext::instance() const noexcept { return node_.instance; }
void KernelContext::set_error(std::string_view message) noexcept {
  const std::size_t n = std::min(message.size(), node_.error.size() - 1);
  std::memcpy(node_.error.data(), message.data(), n);
  node_.error[n] = '\0';
}

// ---- ValidateContext ----
std::string_view ValidateContext::node_name() const noexcept { return node_.name; }
std::string_view ValidateContext::kernel_name() const noexcept { return node_.kernel_name; }
std::string_view ValidateContext::target_name() const noexcept { return node_.target_name; }
std::size_t ValidateContext::num_params() const noexcept { return node_.num_params; }
bool ValidateContext::is_bound(std::size_t param) const noexcept {
  return param < node_.num_params && node_.bindings[param] != kInvalidIndex;
}
const DataMeta& ValidateContext::meta(std::size_t param) const {
  if (!is_bound(param)) {
    const auto& params = node_.kernel->decl.params();
    fail(param < params.size() ? params[param].name : std::to_string(param), "parameter is not bound");
  }
  return node_.graph->data_[node_.bindings[param]]->meta;
}
void ValidateContext::set_meta(std::size_t param, const DataMeta& meta) {
  const auto& params = node_.kernel->decl.params();
  if (param >= params.size()) fail(std::to_string(param), "no such parameter");
  if (params[param].direction == Direction::input) fail(params[param].name, "set_meta on an input parameter");
  if (!is_bound(param)) return;  // optional output left unbound
  detail::DataObject& d = *node_.graph->data_[node_.bindings[param]];
  if (meta.kind != d.meta.kind)
    fail(params[param].name, "validate produced " + std::string(to_string(meta.kind)) + " metadata for a " +
                                 std::string(to_string(d.meta.kind)) + " object '" + d.name + "'");
  DataMeta m = meta;
  m.valid = true;
  if (m.byte_size() == 0) fail(params[param].name, "validate produced empty metadata: " + m.describe());
  if (!d.declared_virtual || d.meta.valid) {
    if (!d.meta.same_shape(m))
      fail(params[param].name, "data object '" + d.name + "' is declared as " + d.meta.describe() +
                                   " but the kernel produces " + m.describe());
    return;  // keep the declared metadata (it may carry a row stride)
  }
  d.meta = m;
}
void ValidateContext::hand_to_create(std::shared_ptr<void> object) { node_.from_validate = std::move(object); }
bool ValidateContext::boolean(std::string_view key) const { return get_as<bool>(node_, key, "a boolean"); }
std::int64_t ValidateContext::integer(std::string_view key) const { return get_as<std::int64_t>(node_, key, "an integer"); }
double ValidateContext::number(std::string_view key) const { return as_number(node_, key); }
const std::string& ValidateContext::string(std::string_view key) const { return get_as<std::string>(node_, key, "a string"); }
const std::vector<double>& ValidateContext::numbers(std::string_view key) const {
  return get_as<std::vector<double>>(node_, key, "a list of numbers");
}
bool ValidateContext::has_attribute(std::string_view key) const noexcept { return node_.attrs.find(key) != nullptr; }
void ValidateContext::fail(std::string_view what, std::string_view message) const {
  throw Error("node '" + node_.name + "' (kernel '" + node_.kernel_name + "'), '" + std::string(what) +
              "': " + std::string(message));
}

}  // namespace vg
