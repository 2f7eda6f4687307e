// Building and verifying a graph (may throw vg::Error; messages name the node and the key).

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "graph/graph_core.hpp"
#include "runtime/context_state.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernel/validate_context.hpp"

namespace vg::detail {

namespace {
std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string node_label(const NodeState& n) { return "node " + quote(n.name) + " (kernel " + quote(n.kernel_name) + ")"; }

bool is_written(Direction d) { return d != Direction::input; }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// "; did you mean 'X'?" when one of @p names is close to @p name, else "".
std::string hint(const std::string& name, const std::vector<std::string>& names) {
  const std::string h = did_you_mean(name, names);
  return h.empty() ? h : "; " + h;
}
}  // namespace

GraphCore::GraphCore(Context& context, std::string name) : context_(context), name_(std::move(name)) {
  for (auto& c : commands_) c.graph = this;
}

GraphCore::~GraphCore() { release(); }

void GraphCore::check_building(const char* what) const {
  if (verified_) throw Error(std::string("graph '") + name_ + "': " + what + " after verify; release() first");
}

NodeState& GraphCore::node(std::uint32_t index) const {
  if (index >= num_user_nodes_) throw Error("graph '" + name_ + "': invalid node handle");
  return *nodes_[index];
}

DataObject& GraphCore::data(std::uint32_t index) const {
  if (index >= data_.size()) throw Error("graph '" + name_ + "': invalid data handle");
  return *data_[index];
}

std::uint32_t GraphCore::add_data(std::string name, const DataMeta& meta, bool is_virtual, DataKind kind) {
  check_building("add_data");
  if (name.empty()) name = "data" + std::to_string(data_.size());
  for (const auto& d : data_)
    if (d->name == name) throw Error("graph '" + name_ + "': data object " + quote(name) + " already exists");
  auto obj = std::make_unique<DataObject>();
  obj->name = std::move(name);
  obj->meta = meta;
  obj->declared_virtual = is_virtual;
  if (is_virtual) {
    obj->meta = DataMeta{};
    obj->meta.kind = kind;
    obj->meta.valid = false;
  } else {
    obj->meta.valid = true;
    if (obj->meta.byte_size() == 0)
      throw Error("data object " + quote(obj->name) + ": metadata describes an empty object (" + meta.describe() + ")");
  }
  data_.push_back(std::move(obj));
  return static_cast<std::uint32_t>(data_.size() - 1);
}

std::uint32_t GraphCore::add_node(std::string name, std::string_view kernel) {
  check_building("add_node");
  const KernelInfo* info = context_.find_kernel(kernel);
  if (!info) {
    auto names = context_.kernel_names();
    throw Error("node " + quote(name) + ": unknown kernel " + quote(std::string(kernel)) +
                (names.empty() ? " (no kernels are registered: load a module first)"
                               : " (registered: " + join(names) + ")" + hint(std::string(kernel), names)));
  }
  if (name.empty()) name = std::string(kernel) + "_" + std::to_string(nodes_.size());
  for (const auto& n : nodes_)
    if (n->name == name) throw Error("graph '" + name_ + "': node " + quote(name) + " already exists");
  auto n = std::make_unique<NodeState>();
  n->graph = this;
  n->index = static_cast<std::uint32_t>(nodes_.size());
  n->name = std::move(name);
  n->kernel_name = std::string(kernel);
  n->kernel = info;
  n->num_params = info->decl.params().size();
  n->bindings.assign(n->num_params, kInvalidIndex);
  n->primary = n->index;
  n->label = n->name;
  nodes_.push_back(std::move(n));
  num_user_nodes_ = static_cast<std::uint32_t>(nodes_.size());
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::size_t GraphCore::param_by_name(std::uint32_t node_index, std::string_view param) const {
  NodeState& n = node(node_index);
  const int index = n.kernel->decl.param_index(param);
  if (index < 0) {
    std::vector<std::string> names;
    for (const auto& p : n.kernel->decl.params()) names.push_back(p.name);
    throw Error(node_label(n) + ": no parameter " + quote(std::string(param)) + " (parameters: " + join(names) + ")" +
                hint(std::string(param), names));
  }
  return static_cast<std::size_t>(index);
}

void GraphCore::bind(std::uint32_t node_index, std::size_t param, std::uint32_t data_index) {
  check_building("bind");
  NodeState& n = node(node_index);
  DataObject& d = data(data_index);
  if (param >= n.num_params)
    throw Error(node_label(n) + ": parameter index " + std::to_string(param) + " out of range (kernel has " +
                std::to_string(n.num_params) + ")");
  const ParamDecl& p = n.kernel->decl.params()[param];
  if (p.kind != d.meta.kind)
    throw Error(node_label(n) + ", parameter " + quote(p.name) + ": wrong type: expects " +
                std::string(to_string(p.kind)) + ", data object " + quote(d.name) + " is " +
                std::string(to_string(d.meta.kind)));
  n.bindings[param] = data_index;
}

std::uint32_t GraphCore::add_graph_parameter(std::uint32_t node_index, std::string_view param, std::size_t num_buffers) {
  check_building("add_graph_parameter");
  NodeState& n = node(node_index);
  const std::size_t p = param_by_name(node_index, param);
  if (n.bindings[p] == kInvalidIndex)
    throw Error(node_label(n) + ", parameter " + quote(std::string(param)) +
                ": bind a data object (the exemplar of the graph parameter's buffers) before exposing it");
  if (num_buffers > 1024)
    throw Error(node_label(n) + ", graph parameter " + quote(std::string(param)) +
                ": num_buffers must be 1..1024 (or kAutoBuffers)");
  DataObject& d = data(n.bindings[p]);
  if (d.graph_param != kInvalidIndex)
    throw Error("data object " + quote(d.name) + " is already a graph parameter");
  const ParamDecl& decl = n.kernel->decl.params()[p];
  if (decl.is_static)
    throw Error(node_label(n) + ", parameter " + quote(decl.name) + " is static and cannot be a graph parameter");
  auto gp = std::make_unique<GraphParam>();
  gp->node = node_index;
  gp->param = static_cast<std::uint32_t>(p);
  gp->data = n.bindings[p];
  gp->is_input = decl.direction == Direction::input;
  gp->num_buffers = num_buffers;
  gp->auto_buffers = num_buffers == kAutoBuffers;
  gp->queue_capacity = gp->is_input ? 1 : num_buffers;
  d.graph_param = static_cast<std::uint32_t>(params_.size());
  params_.push_back(std::move(gp));
  return static_cast<std::uint32_t>(params_.size() - 1);
}

// ---------------------------------------------------------------------------------------------
// verify

NodeState::ReplicaTarget GraphCore::resolve_target(NodeState& n, const std::string& requested, bool& accepts_device_memory) {
  const auto& impls = n.kernel->impls;
  auto matches = [](const KernelImpl& impl, const Target& t) { return impl.target == t.name() || impl.target == t.kind(); };
  if (!requested.empty()) {
    Target* t = context_.find_target(requested);
    if (!t)
      throw Error(node_label(n) + ": unknown target " + quote(requested) + " (targets: " +
                  join(context_.target_names()) + ")" + hint(requested, context_.target_names()));
    auto it = std::find_if(impls.begin(), impls.end(), [&](const KernelImpl& i) { return matches(i, *t); });
    if (it == impls.end()) {
      std::vector<std::string> where;
      for (const auto& i : impls) where.push_back(i.target);
      throw Error(node_label(n) + ": kernel is not implemented on target " + quote(requested) +
                  (where.empty() ? " (it has no implementation)" : " (implemented on: " + join(where) + ")"));
    }
    accepts_device_memory = it->options.accepts_device_memory;
    return {t, it->callbacks};
  }
  for (std::size_t ti = 0; ti < context_.num_targets(); ++ti) {
    Target& t = context_.target(ti);
    for (const auto& impl : impls)
      if (matches(impl, t)) {
        accepts_device_memory = impl.options.accepts_device_memory;
        return {&t, impl.callbacks};
      }
  }
  std::vector<std::string> where;
  for (const auto& i : impls) where.push_back(i.target);
  throw Error(node_label(n) + ": no target of this context implements the kernel (implemented on: " +
              (where.empty() ? std::string("nothing") : join(where)) + "; targets: " +
              join(context_.target_names()) + ")");
}

void GraphCore::resolve_targets() {
  for (auto& np : nodes_) {
    NodeState& n = *np;
    // The registry may have changed since add_node: re-resolve.
    n.kernel = context_.find_kernel(n.kernel_name);
    if (!n.kernel) throw Error(node_label(n) + ": kernel is no longer registered (its module was unloaded)");
    n.target = nullptr;
    n.replica_targets.clear();
    if (n.requested_targets.empty()) {
      const auto chosen = resolve_target(n, n.requested_target, n.accepts_device_memory);
      n.target = chosen.target;
      n.callbacks = chosen.callbacks;
    } else {
      // Every replica must be implemented on its target; device memory only if every replica takes it.
      bool all_accept = true;
      for (const auto& requested : n.requested_targets) {
        bool accepts = false;
        n.replica_targets.push_back(resolve_target(n, requested, accepts));
        all_accept = all_accept && accepts;
      }
      n.target = n.replica_targets.front().target;
      n.callbacks = n.replica_targets.front().callbacks;
      n.accepts_device_memory = all_accept;
    }
    n.target_name = n.target->name();
  }
}

// Replicated nodes become one state per target (the user's node is replica 0), and the graph's edges
// are expanded: a node after a replicated one waits for every replica (the replicas that do not own a
// frame let it through at once), and every replica waits for all the replicas of its predecessors.
void GraphCore::expand_replicas() {
  drop_replicas();
  for (std::uint32_t u = 0; u < num_user_nodes_; ++u) {
    NodeState& p = *nodes_[u];
    p.primary = u;
    p.replica_index = 0;
    p.replica_count = 1;
    p.replicas.clear();
    p.label = p.name;
    if (p.replica_targets.size() < 2) continue;
    p.replica_count = static_cast<std::uint32_t>(p.replica_targets.size());
    // "name[target]", or "name#r[target]" where replicas share a target.
    auto label_of = [&](std::uint32_t r) {
      const Target* t = p.replica_targets[r].target;
      const auto sharing = std::count_if(p.replica_targets.begin(), p.replica_targets.end(),
                                         [&](const NodeState::ReplicaTarget& x) { return x.target == t; });
      return p.name + (sharing > 1 ? "#" + std::to_string(r) : std::string()) + "[" + t->name() + "]";
    };
    p.label = label_of(0);
    p.replicas.push_back(u);
    for (std::uint32_t r = 1; r < p.replica_count; ++r) {
      auto rs = std::make_unique<NodeState>();
      rs->graph = this;
      rs->index = static_cast<std::uint32_t>(nodes_.size());
      rs->name = p.name;
      rs->kernel_name = p.kernel_name;
      rs->kernel = p.kernel;
      rs->attrs = p.attrs;
      rs->bindings = p.bindings;
      rs->target = p.replica_targets[r].target;
      rs->target_name = rs->target->name();
      rs->requested_target = rs->target_name;
      rs->callbacks = p.replica_targets[r].callbacks;
      rs->accepts_device_memory = p.accepts_device_memory;
      rs->primary = u;
      rs->replica_index = r;
      rs->replica_count = p.replica_count;
      rs->label = label_of(r);
      rs->num_params = p.num_params;
      rs->metas = p.metas;
      rs->from_validate = p.from_validate;  // validate ran once for the node: every replica's create may take it
      rs->requested_deadline = p.requested_deadline;
      rs->requested_create_deadline = p.requested_create_deadline;
      p.replicas.push_back(rs->index);
      nodes_.push_back(std::move(rs));
    }
  }
  auto expand = [&](const std::vector<std::uint32_t>& users) {
    std::vector<std::uint32_t> out;
    for (auto u : users) {
      const NodeState& n = *nodes_[u];
      if (n.replicas.empty()) out.push_back(u);
      else out.insert(out.end(), n.replicas.begin(), n.replicas.end());
    }
    return out;
  };
  std::vector<std::vector<std::uint32_t>> preds(num_user_nodes_), succs(num_user_nodes_);
  for (std::uint32_t u = 0; u < num_user_nodes_; ++u) {
    preds[u] = expand(nodes_[u]->preds);
    succs[u] = expand(nodes_[u]->succs);
  }
  for (auto& np : nodes_) {
    np->preds = preds[np->primary];
    np->succs = succs[np->primary];
  }
  exec_order_ = expand(order_);
}

void GraphCore::drop_replicas() noexcept {
  for (std::size_t i = num_user_nodes_; i < nodes_.size(); ++i) {
    if (nodes_[i]->stuck.load(std::memory_order_acquire)) {
      try {  // a call given up on may still use it: kept, never freed
        retired_replicas_.push_back(std::move(nodes_[i]));
      } catch (...) {
        (void)nodes_[i].release();
      }
    }
  }
  nodes_.resize(num_user_nodes_);
  for (auto& np : nodes_) {
    np->replicas.clear();
    np->replica_count = 1;
    np->replica_index = 0;
    np->label = np->name;
  }
  exec_order_.clear();
  start_order_.clear();
  replicated_.clear();
}

void GraphCore::check_bindings() {
  for (auto& d : data_) {
    d->users.clear();
    d->writer = kInvalidIndex;
    d->is_static = false;
  }
  for (auto& np : nodes_) {
    NodeState& n = *np;
    const auto& params = n.kernel->decl.params();
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamDecl& p = params[i];
      const std::uint32_t di = n.bindings[i];
      if (di == kInvalidIndex) {
        if (p.required)
          throw Error(node_label(n) + ": required " + std::string(to_string(p.direction)) + " parameter " +
                      quote(p.name) + " is not bound");
        continue;
      }
      DataObject& d = *data_[di];
      d.users.emplace_back(n.index, static_cast<std::uint32_t>(i));
      if (is_written(p.direction)) {
        if (d.writer != kInvalidIndex)
          throw Error("data object " + quote(d.name) + " has two writers: " + node_label(*nodes_[d.writer]) +
                      " and " + node_label(n) + ", parameter " + quote(p.name));
        d.writer = n.index;
        if (p.is_static) d.is_static = true;
      }
    }
    // attributes: known names, right types, required present
    for (const auto& [key, value] : n.attrs.entries()) {
      const AttrDecl* a = n.kernel->decl.find_attribute(key);
      if (!a) {
        std::vector<std::string> names;
        for (const auto& ad : n.kernel->decl.attributes()) names.push_back(ad.name);
        throw Error(node_label(n) + ": unknown attribute " + quote(key) +
                    (names.empty() ? " (the kernel has none)" : " (attributes: " + join(names) + ")" + hint(key, names)));
      }
      const AttrType t = type_of(value);
      const bool int_as_number = a->type == AttrType::number && t == AttrType::integer;
      if (t != a->type && !int_as_number)
        throw Error(node_label(n) + ", attribute " + quote(key) + ": wrong type: expects " +
                    std::string(to_string(a->type)) + ", got " + std::string(to_string(t)) + " (" + to_text(value) + ")");
    }
    for (const AttrDecl& a : n.kernel->decl.attributes()) {
      if (!n.attrs.find(a.name)) {
        if (!a.default_value)
          throw Error(node_label(n) + ": required attribute " + quote(a.name) + " (" + std::string(to_string(a.type)) +
                      ") is not set");
      }
    }
  }
  // static objects: read only by static inputs
  for (auto& np : nodes_) {
    NodeState& n = *np;
    const auto& params = n.kernel->decl.params();
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (n.bindings[i] == kInvalidIndex) continue;
      DataObject& d = *data_[n.bindings[i]];
      if (params[i].is_static && params[i].direction == Direction::input && d.writer != kInvalidIndex && !d.is_static)
        throw Error(node_label(n) + ", static input " + quote(params[i].name) + ": data object " + quote(d.name) +
                    " is written per frame by " + node_label(*nodes_[d.writer]) + ", not once in create");
    }
  }
}

void GraphCore::check_device_memory() {
  for (auto& dp : data_) {
    const DataObject& d = *dp;
    if (!d.device_only) continue;
    if (d.graph_param == kInvalidIndex || !params_[d.graph_param]->is_input)
      throw Error("data object " + quote(d.name) +
                  " is device-only memory, which only a graph-parameter input can be (the application imports "
                  "every buffer with import_buffer)");
    for (auto [user, param] : d.users) {
      const NodeState& n = *nodes_[user];
      if (!n.accepts_device_memory)
        throw Error(node_label(n) + ", parameter " + quote(n.kernel->decl.params()[param].name) + ": data object " +
                    quote(d.name) + " is device-only memory (no CPU address), and the kernel's implementation on " +
                    "target " + quote(n.target_name) + " does not accept device memory");
    }
  }
}

void GraphCore::order_nodes() {
  const std::size_t n = nodes_.size();
  std::vector<std::set<std::uint32_t>> succ(n), pred(n);
  for (auto& d : data_) {
    if (d->writer == kInvalidIndex) continue;
    for (auto [user, param] : d->users) {
      if (user == d->writer) continue;
      const ParamDecl& p = nodes_[user]->kernel->decl.params()[param];
      if (p.direction == Direction::input || p.direction == Direction::bidirectional) {
        succ[d->writer].insert(user);
        pred[user].insert(d->writer);
      }
    }
  }
  std::vector<std::size_t> indeg(n);
  for (std::size_t i = 0; i < n; ++i) indeg[i] = pred[i].size();
  order_.clear();
  std::vector<bool> placed(n, false);
  // Kahn's algorithm, always taking the lowest-index ready node: deterministic, insertion order for ties.
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t pick = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!placed[i] && indeg[i] == 0) {
        pick = i;
        break;
      }
    if (pick == n) {
      std::vector<std::string> cycle;
      for (std::size_t i = 0; i < n; ++i)
        if (!placed[i]) cycle.push_back(quote(nodes_[i]->name));
      throw Error("graph '" + name_ + "' has a cycle through nodes " + join(cycle));
    }
    placed[pick] = true;
    order_.push_back(static_cast<std::uint32_t>(pick));
    for (auto s : succ[pick]) --indeg[s];
  }
  for (std::size_t i = 0; i < n; ++i) {
    nodes_[i]->preds.assign(pred[i].begin(), pred[i].end());
    nodes_[i]->succs.assign(succ[i].begin(), succ[i].end());
  }
}

void GraphCore::run_validate() {
  for (std::uint32_t ni : order_) {
    NodeState& n = *nodes_[ni];
    const auto& params = n.kernel->decl.params();
    n.metas.assign(n.num_params, nullptr);
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (n.bindings[i] == kInvalidIndex) continue;
      DataObject& d = *data_[n.bindings[i]];
      n.metas[i] = &d.meta;
      if (params[i].direction != Direction::output && !d.meta.valid)
        throw Error(node_label(n) + ", parameter " + quote(params[i].name) + ": data object " + quote(d.name) +
                    " has no metadata (it is virtual and " +
                    (d.writer == kInvalidIndex ? std::string("nothing writes it") : "its writer " + node_label(*nodes_[d.writer]) + " did not set it") + ")");
    }
    if (n.kernel->decl.validator()) {
      ValidateContext v(n);
      try {
        n.kernel->decl.validator()(v);
      } catch (const Error&) {
        throw;
      } catch (const std::exception& e) {
        throw Error(node_label(n) + ": validate failed: " + e.what());
      }
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (n.bindings[i] == kInvalidIndex) continue;
      DataObject& d = *data_[n.bindings[i]];
      if (is_written(params[i].direction) && !d.meta.valid)
        throw Error(node_label(n) + ", output " + quote(params[i].name) + ": metadata of " + quote(d.name) +
                    " is unknown (virtual object, and the kernel's validate did not set it)");
    }
  }
  for (auto& d : data_)
    if (!d->meta.valid)
      throw Error("data object " + quote(d->name) + " is virtual but no node writes it");
}

void GraphCore::allocate_buffers() {
  for (auto& dp : data_) {
    DataObject& d = *dp;
    std::size_t count = 1;
    if (d.graph_param != kInvalidIndex)
      count = params_[d.graph_param]->num_buffers;
    else if (d.writer != kInvalidIndex && !d.is_static)
      count = depth_;
    // Memory comes from the allocator of a target that touches it (e.g. DMA-BUF for the NPU).
    Allocator* alloc = nullptr;
    for (auto [user, param] : d.users) {
      (void)param;
      if (Allocator* a = context_.target_allocator(nodes_[user]->target_name)) {
        alloc = a;
        break;
      }
    }
    if (!alloc) alloc = allocator_ ? allocator_ : &default_allocator();
    d.allocator = alloc;
    const std::size_t bytes = d.meta.byte_size();
    d.buffers.assign(count, Buffer{});
    d.own_blocks.assign(count, MemoryBlock{});
    d.with_graph.assign(count, 0);
    if (d.device_only) continue;  // every buffer arrives by import_buffer; the graph owns none
    for (std::size_t k = 0; k < count; ++k) {
      Buffer& b = d.buffers[k];
      try {
        b.block = alloc->allocate(bytes, 64);
        if (!b.block.owner) b.block.owner = alloc;
        d.own_blocks[k] = b.block;
      } catch (const std::exception& e) {
        throw Error("data object " + quote(d.name) + ": cannot allocate " + std::to_string(bytes) + " bytes from " +
                    std::string(alloc->name()) + ": " + e.what());
      }
      if (b.block.data) std::memset(b.block.data, 0, bytes);
      layout_buffer(d.meta, b);
    }
  }
}

void layout_buffer(const DataMeta& meta, Buffer& b) noexcept {
  auto* base = static_cast<std::uint8_t*>(b.block.data);
  if (meta.kind == DataKind::image) {
    const ImageMeta& im = meta.image;
    b.num_planes = im.num_planes();
    std::size_t offset = 0;
    for (std::uint32_t p = 0; p < b.num_planes; ++p) {
      b.plane[p] = base + offset;
      b.stride[p] = im.stride(p);
      offset += im.stride(p) * im.plane_rows(p);
    }
  } else {
    b.num_planes = 1;
    b.plane[0] = base;
    b.stride[0] = meta.byte_size();
  }
}

bool layout_external(const DataMeta& meta, const ExternalBuffer& external, Buffer& b) noexcept {
  if (external.num_planes == 0) {
    // Dense layout from the metadata: the block must hold all of it.
    if (external.block.size < meta.byte_size()) return false;
    layout_buffer(meta, b);
    return true;
  }
  std::uint32_t planes = 1;
  std::size_t row_bytes[kMaxPlanes]{};
  std::size_t rows[kMaxPlanes]{};
  if (meta.kind == DataKind::image) {
    const ImageMeta& im = meta.image;
    planes = im.num_planes();
    for (std::uint32_t p = 0; p < planes; ++p) {
      row_bytes[p] = p == 0 ? static_cast<std::size_t>(im.width) * im.bytes_per_pixel() : im.width;  // NV12 UV: w bytes
      rows[p] = im.plane_rows(p);
    }
  } else {  // tensors and the rest are read as one dense block: a stride, if given, must not pad
    row_bytes[0] = meta.byte_size();
    rows[0] = 1;
  }
  if (external.num_planes != planes) return false;
  auto* base = static_cast<std::uint8_t*>(external.block.data);
  b.num_planes = planes;
  for (std::uint32_t p = 0; p < planes; ++p) {
    const std::size_t stride = rows[p] > 1 ? external.stride[p] : std::max(external.stride[p], row_bytes[p]);
    if (stride < row_bytes[p]) return false;
    const std::size_t end = external.offset[p] + stride * (rows[p] - 1) + row_bytes[p];
    if (end > external.block.size || end < external.offset[p]) return false;
    b.plane[p] = base ? base + external.offset[p] : nullptr;
    b.stride[p] = stride;
  }
  for (std::uint32_t p = planes; p < kMaxPlanes; ++p) {
    b.plane[p] = nullptr;
    b.stride[p] = 0;
  }
  return true;
}

void GraphCore::free_buffers() noexcept {
  for (auto& dp : data_) {
    for (MemoryBlock& block : dp->own_blocks)
      if (block.owner) block.owner->release(block);
    dp->own_blocks.clear();
    dp->buffers.clear();
    dp->with_graph.clear();
  }
}

void GraphCore::build_tables() {
  slots_ = std::vector<FrameSlot>(depth_);
  for (auto& s : slots_) {
    s.gp_index.assign(params_.size(), 0);
    s.published.assign(params_.size(), 0);
    s.skip = std::make_unique<std::atomic<std::uint8_t>[]>(nodes_.size());
  }
  // order_across_frames, over every replica of both nodes.
  auto states_of = [&](std::uint32_t u) {
    const NodeState& n = *nodes_[u];
    return n.replicas.empty() ? std::vector<std::uint32_t>{u} : n.replicas;
  };
  for (auto& np : nodes_) {
    np->next_frame_succs.clear();
    np->previous_frame_preds = 0;
  }
  for (auto [earlier, later] : frame_orders_) {
    for (std::uint32_t e : states_of(earlier)) {
      for (std::uint32_t l : states_of(later)) {
        nodes_[e]->next_frame_succs.push_back(l);
        ++nodes_[l]->previous_frame_preds;
      }
    }
  }
  for (auto& np : nodes_) {
    NodeState& n = *np;
    n.table.assign(depth_ * n.num_params, nullptr);
    n.table_index.assign(depth_ * n.num_params, 0);
    for (std::size_t s = 0; s < depth_; ++s) {
      for (std::size_t p = 0; p < n.num_params; ++p) {
        if (n.bindings[p] == kInvalidIndex) continue;
        DataObject& d = *data_[n.bindings[p]];
        const std::size_t k = d.buffers.size() == depth_ && d.graph_param == kInvalidIndex ? s : 0;
        n.table[s * n.num_params + p] = &d.buffers[k];
        n.table_index[s * n.num_params + p] = static_cast<std::uint32_t>(k);
      }
    }
    n.pending = std::make_unique<std::atomic<std::int32_t>[]>(depth_ + 1);
    // preds + start (where it has one) + previous frame + the other nodes' previous frames
    // (order_across_frames); frame 0 has no previous frame, so its counter starts without those.
    n.start_token = n.preds.empty() || n.replica_count > 1;
    const auto previous = static_cast<std::int32_t>(n.previous_frame_preds) + 1;
    n.initial_tokens = static_cast<std::int32_t>(n.preds.size()) + (n.start_token ? 1 : 0) + previous;
    for (std::size_t k = 0; k <= depth_; ++k) n.pending[k].store(n.initial_tokens - (k == 0 ? previous : 0));
    n.ring_capacity = telemetry_capacity_ ? telemetry_capacity_ : 1;
    n.ring = std::make_unique<ExecSlot[]>(n.ring_capacity);
    n.calls.bindings = n.bindings.data();
    n.calls.metas = n.metas.data();
    n.calls.buffers = n.table.data();
    n.calls.num_params = n.num_params;  // bindings and each slot's row of table have this many
    n.calls.num_metas = n.metas.size();
  }
  start_order_.clear();
  for (std::uint32_t ni : exec_order_)
    if (nodes_[ni]->start_token) start_order_.push_back(ni);
  for (auto& gp : params_) {
    gp->waiting.init(gp->is_input ? gp->queue_capacity : gp->num_buffers);
    gp->done.init(gp->num_buffers);
    gp->timestamp.assign(gp->num_buffers, 0);
    gp->enqueued_at.assign(gp->num_buffers, 0);
    gp->tag.assign(gp->num_buffers, 0);
    gp->capture.assign(gp->num_buffers, 0);
    gp->in_frame.assign(gp->num_buffers, 0);
    gp->deferred.assign(gp->num_buffers, 0);
    gp->conversions.store(0, std::memory_order_relaxed);
  }
  for (auto& np : nodes_) np->publishes.clear();
  for (std::size_t g = 0; g < params_.size(); ++g) {
    const GraphParam& gp = *params_[g];
    const DataObject& d = *data_[gp.data];
    if (!gp.is_input && d.writer != kInvalidIndex) nodes_[d.writer]->publishes.push_back(static_cast<std::uint32_t>(g));
  }
  // A replicated writer's replicas finish their frames out of order: its outputs are handed over by the
  // last of its replicas to be done with the frame (each replica goes through every frame in order).
  replicated_.clear();
  for (auto& np : nodes_) {
    np->replicas_done.reset();
    np->replica_result.reset();
    if (np->replicas.empty() || np->publishes.empty()) continue;
    np->replicas_done = std::make_unique<std::atomic<std::uint32_t>[]>(depth_);
    np->replica_result = std::make_unique<std::atomic<std::int32_t>[]>(depth_);
    replicated_.push_back(np.get());
  }
  last_gp_index_ = std::vector<std::atomic<std::uint32_t>>(params_.size());
  last_slot_.store(0);
  latency_ring_.assign(telemetry_capacity_ ? telemetry_capacity_ : 1, 0);
  latency_count_ = 0;
  capture_latency_ring_.assign(telemetry_capacity_ ? telemetry_capacity_ : 1, 0);
  capture_latency_count_ = 0;
}

void GraphCore::reserve_targets() {
  reservations_.assign(context_.num_targets(), 0);
  for (auto& np : nodes_) reservations_[np->target->index()] += 1;
  for (std::size_t t = 0; t < reservations_.size(); ++t) {
    if (reservations_[t] == 0) continue;
    reservations_[t] += kCommandSlots + 1;
    if (!context_.target(t).reserve(reservations_[t])) {
      for (std::size_t u = 0; u < t; ++u)
        if (reservations_[u]) context_.target(u).unreserve(reservations_[u]);
      reservations_.clear();
      throw Error("target '" + context_.target(t).name() + "': its command queue (" +
                  std::to_string(context_.target(t).capacity()) + ") is too small for the graphs verified on it; "
                  "raise TargetConfig::queue_capacity");
    }
  }
}

// Runs on the node's target thread (create/delete happen at verify/release, so messages may allocate).
void GraphCore::lifecycle_trampoline(void* self, std::uint64_t node_index, std::uint64_t create) noexcept {
  auto* g = static_cast<GraphCore*>(self);
  NodeState& n = *g->nodes_[node_index];
  if (create) {
    n.error[0] = '\0';
    n.lifecycle_message.clear();
    Status status = Status::ok;
    try {
      if (n.callbacks.create) status = n.callbacks.create(n.context);
    } catch (const std::exception& e) {
      status = Status::kernel_error;
      try {
        n.lifecycle_message = e.what();
      } catch (...) {
      }
    } catch (...) {
      status = Status::kernel_error;
    }
    n.lifecycle_status = status;
    n.created = status == Status::ok;
  } else {
    if (n.created && n.callbacks.destroy) {
      try {
        n.callbacks.destroy(n.context);
      } catch (...) {
        // delete ran (and failed): it is not run again; the node's resources may be lost.
        n.destroy_threw = true;
      }
    }
    n.created = false;
  }
  n.lifecycle_done.set();
}

bool GraphCore::run_lifecycle_on_target(NodeState& n, bool create) {
  if (!create && n.stuck.load(std::memory_order_acquire)) return false;  // its instance may be in use: leaked
  n.lifecycle_done.reset();
  n.target->push(TargetCommand{&GraphCore::lifecycle_trampoline, this, n.index, create ? 1u : 0u});
  if (!create || n.create_deadline_ns <= 0) {
    n.lifecycle_done.wait();
    return true;
  }
  if (n.lifecycle_done.wait_for(std::chrono::nanoseconds(n.create_deadline_ns))) return true;
  // create never came back: give up on it (the target is faulted, the node and its memory leaked). The
  // node's lifecycle fields belong to the abandoned call now: nothing here touches them.
  n.stuck.store(true, std::memory_order_release);
  n.stuck_since.store(now_ns(), std::memory_order_release);
  n.deadline_misses.fetch_add(1, std::memory_order_relaxed);
  n.target->replace_stuck_worker();
  return false;
}

void GraphCore::create_nodes() {
  std::vector<std::uint32_t> created;
  for (auto& np : nodes_) {
    NodeState& n = *np;
    const KernelDecl& decl = n.kernel->decl;
    n.deadline_ns = n.requested_deadline.count() >= 0 ? n.requested_deadline.count()
                                                      : std::chrono::nanoseconds(decl.run_deadline()).count();
    n.create_deadline_ns = n.requested_create_deadline.count() >= 0
                               ? n.requested_create_deadline.count()
                               : std::chrono::nanoseconds(decl.create_deadline()).count();
    n.running_since.store(0);
    n.running_token.store(0);
  }
  for (std::uint32_t ni : exec_order_) {
    NodeState& n = *nodes_[ni];
    n.calls.current_slot = 0;
    if (!run_lifecycle_on_target(n, true)) {
      const std::string message = node_label(n) + " on target " + quote(n.target_name) + ": create did not return " +
                                  "within its " + std::to_string(n.create_deadline_ns / 1'000'000) +
                                  " ms create deadline; the target is now faulted and the node's instance is leaked";
      context_.state().write_log("graph " + quote(name_) + ": " + message);
      for (auto it = created.rbegin(); it != created.rend(); ++it) run_lifecycle_on_target(*nodes_[*it], false);
      throw Error(message);
    }
    if (n.lifecycle_status != Status::ok) {
      const std::string why = n.lifecycle_message.empty() ? std::string(n.error.data()) : n.lifecycle_message;
      const std::string message = node_label(n) + " on target " + quote(n.target_name) + ": create failed: " +
                                  std::string(to_string(n.lifecycle_status)) + (why.empty() ? "" : ": " + why);
      for (auto it = created.rbegin(); it != created.rend(); ++it) run_lifecycle_on_target(*nodes_[*it], false);
      throw Error(message);
    }
    created.push_back(ni);
  }
}

void GraphCore::verify() {
  if (verified_) throw Error("graph '" + name_ + "' is already verified");
  if (nodes_.empty()) throw Error("graph '" + name_ + "' has no nodes");
  // Whatever validate handed to create is dropped once verify ends, taken or not.
  struct DropHandOffs {
    GraphCore& g;
    ~DropHandOffs() {
      for (auto& np : g.nodes_) np->from_validate.reset();
    }
  } drop_hand_offs{*this};
  resolve_targets();
  check_bindings();
  order_nodes();
  run_validate();
  for (auto& gp : params_) {
    const DataObject& d = *data_[gp->data];
    if (gp->is_input && d.writer != kInvalidIndex)
      throw Error("graph parameter on data object " + quote(d.name) + " is an input but " +
                  node_label(*nodes_[d.writer]) + " writes it");
  }
  check_device_memory();
  try {
    expand_replicas();
    if (requested_depth_ == 0) {
      // One frame per target used, plus one per extra replica (so every replica can have a frame).
      std::set<std::string> targets;
      std::size_t extra_replicas = 0;
      for (std::uint32_t u = 0; u < num_user_nodes_; ++u) {
        targets.insert(nodes_[u]->target_name);
        extra_replicas += nodes_[u]->replica_count - 1;
      }
      depth_ = std::max<std::size_t>(1, targets.size() + extra_replicas);
    } else {
      depth_ = requested_depth_;
    }
    for (auto& gp : params_) {
      if (!gp->auto_buffers) continue;
      gp->num_buffers = std::max<std::size_t>(2, depth_ + (gp->is_input ? gp->queue_capacity : 0) + 1);
      if (!gp->is_input) gp->queue_capacity = gp->num_buffers;
    }
    allocate_buffers();
    build_tables();
    reserve_targets();
    start_fence_thread();
    create_nodes();
  } catch (...) {
    stop_fence_thread();
    if (!reservations_.empty())
      for (std::size_t t = 0; t < reservations_.size(); ++t)
        if (reservations_[t]) context_.target(t).unreserve(reservations_[t]);
    reservations_.clear();
    if (!has_stuck_nodes()) free_buffers();  // a create still running may write its static outputs
    drop_replicas();
    throw;
  }
  used_modules_.clear();
  for (auto& np : nodes_)
    if (std::find(used_modules_.begin(), used_modules_.end(), np->kernel->module) == used_modules_.end())
      used_modules_.push_back(np->kernel->module);
  for (const auto& m : used_modules_) context_.state().acquire_module(m);
  next_frame_ = completed_through_ = 0;
  in_flight_ = 0;
  submitted_ = false;
  streaming_ = stopped_ = false;
  verified_ = true;
  std::int64_t shortest = 0;
  for (auto& np : nodes_)
    if (np->deadline_ns > 0 && (shortest == 0 || np->deadline_ns < shortest)) shortest = np->deadline_ns;
  if (shortest > 0) {  // look a few times per deadline, within [1 ms, 50 ms]
    context_.state().watchdog.watch({this, &GraphCore::watchdog_trampoline,
                                     std::clamp<std::int64_t>(shortest / 4, 1'000'000, 50'000'000)});
    watched_ = true;
  }
  // process() on the caller's thread: only where no other thread is needed. A deadline needs a worker
  // the watchdog can give up on; asynchronous kernels and replicas need their targets' threads.
  caller_target_ = nullptr;
  if (context_.run_on_caller() && !watched_ && async_nodes_.empty() && !nodes_.empty()) {
    Target* only = nodes_.front()->target;
    bool eligible = only->lendable();
    for (const auto& np : nodes_) eligible = eligible && np->target == only && np->replica_count == 1;
    if (eligible) caller_target_ = only;
  }
}

// The fence thread of asynchronous kernels (its loop is in graph_run.cpp): started at verify, joined at release.
void GraphCore::start_fence_thread() {
  async_nodes_.clear();
  for (auto& np : nodes_)
    if (np->callbacks.complete) async_nodes_.push_back(np.get());
  if (async_nodes_.empty()) return;
  fence_polls_.assign(async_nodes_.size() + 1, pollfd{});
  fence_nodes_.assign(async_nodes_.size() + 1, nullptr);
  fence_wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fence_wake_fd_ < 0)
    throw Error("graph '" + name_ + "': cannot create the eventfd that watches asynchronous kernels' fences: " +
                std::strerror(errno));
  fence_stop_.store(false);
  try {
    fence_thread_ = std::thread([this] { fence_loop(); });
    pthread_setname_np(fence_thread_.native_handle(), "vg-fences");
  } catch (...) {
    ::close(fence_wake_fd_);
    fence_wake_fd_ = -1;
    throw;
  }
}

void GraphCore::stop_fence_thread() noexcept {
  if (fence_thread_.joinable()) {
    fence_stop_.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    (void)!::write(fence_wake_fd_, &one, sizeof one);
    fence_thread_.join();
  }
  if (fence_wake_fd_ >= 0) ::close(fence_wake_fd_);
  fence_wake_fd_ = -1;
  // A fence still registered (its frame was given up on) is the kernel's to close; forget it.
  for (NodeState* n : async_nodes_) n->waiting_frame.store(0, std::memory_order_relaxed);
}

void GraphCore::release() noexcept {
  if (!verified_) return;
  (void)stop(StopMode::abandon);
  // stop() waited a bounded time (the watchdog gives up on calls past their deadline). Frames still in
  // flight now belong to a call without a deadline that does not return: its nodes and buffers stay.
  const bool idle = wait_idle(std::chrono::nanoseconds(0)) == Status::ok;
  if (!idle)
    for (auto& np : nodes_)
      if (np->running_since.load(std::memory_order_acquire) != 0) np->stuck.store(true, std::memory_order_release);
  stop_fence_thread();  // nothing is pending any more (or never will complete)
  for (auto it = exec_order_.rbegin(); it != exec_order_.rend(); ++it) {
    NodeState& n = *nodes_[*it];
    if (n.created) run_lifecycle_on_target(n, false);
  }
  if (watched_) {
    context_.state().watchdog.unwatch(this);
    watched_ = false;
  }
  for (std::size_t t = 0; t < reservations_.size(); ++t)
    if (reservations_[t]) context_.target(t).unreserve(reservations_[t]);
  reservations_.clear();
  if (!has_stuck_nodes()) free_buffers();
  for (const auto& m : used_modules_) context_.state().release_module(m);
  used_modules_.clear();
  // A call that never returned may still reach the replicas' states through nodes_: then they stay.
  if (idle && !has_stuck_nodes()) drop_replicas();
  verified_ = false;
}

}  // namespace vg::detail
