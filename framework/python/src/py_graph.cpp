#include "py_graph.hpp"

#include <pybind11/stl.h>

#include <cstring>

#include "arrays.hpp"
#include "convert.hpp"
#include "errors.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/runtime/context.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

PyGraph::PyGraph(PyContext& context, py::object context_ref, std::string name)
    : context_ref_(std::move(context_ref)),
      context_(&context),
      own_graph_(std::make_unique<Graph>(context.get(), std::move(name))),
      graph_(own_graph_.get()) {}

PyGraph::PyGraph(std::unique_ptr<yaml::LoadedGraph> loaded, py::object context_ref)
    : context_ref_(std::move(context_ref)),
      borrowed_context_(std::make_unique<PyContext>(loaded->context())),
      context_(borrowed_context_.get()),
      loaded_(std::move(loaded)),
      graph_(&loaded_->graph()) {
  for (const auto& d : loaded_->desc().data) data_names_.push_back(d.name);
  for (const auto& gp : loaded_->desc().graph_parameters) name_param(gp.name, loaded_->graph_parameter(gp.name));
  if (graph_->is_verified()) {
    reset_buffers();
  } else {  // built only: the file's scalar `value:`s are written when Python calls verify()
    for (const auto& d : loaded_->desc().data)
      if (d.value) set_scalar_after_verify(graph_->find_data(d.name), py::float_(*d.value));
  }
}

PyGraph::~PyGraph() {
  // Stop and delete every node before the arrays they read are let go (members go after this body).
  graph_->release();
}

const yaml::GraphDesc* PyGraph::desc() const noexcept { return loaded_ ? &loaded_->desc() : nullptr; }

// ---- names ----

NodeId PyGraph::node(const std::string& name) const {
  const NodeId id = graph_->find_node(name);
  if (!id.valid())
    throw Error("graph '" + graph_->name() + "': no node " + quote(name) + " (nodes: " + join(node_names()) + ")");
  return id;
}

DataId PyGraph::data(const std::string& name) const {
  const DataId id = graph_->find_data(name);
  if (id.valid()) return id;
  for (const auto& [param_name, gp] : params_)
    if (param_name == name) return graph_->data_of(gp);
  std::vector<std::string> names = data_names();
  for (const auto& [param_name, gp] : params_) names.push_back(param_name + " (graph parameter)");
  throw Error("graph '" + graph_->name() + "': no data object or graph parameter " + quote(name) + " (known: " +
              join(names) + ")");
}

std::optional<GraphParamId> PyGraph::find_param(const std::string& name) const {
  for (const auto& [param_name, gp] : params_)
    if (param_name == name) return gp;
  const DataId id = graph_->find_data(name);
  if (id.valid())
    for (const auto& [param_name, gp] : params_)
      if (graph_->data_of(gp) == id) return gp;
  return std::nullopt;
}

GraphParamId PyGraph::param(const std::string& name) const {
  if (auto gp = find_param(name)) return *gp;
  throw Error("graph '" + graph_->name() + "': no graph parameter " + quote(name) + " (graph parameters: " +
              join(param_names()) + ")");
}

void PyGraph::name_param(std::string name, GraphParamId id) {
  for (const auto& [existing, gp] : params_)
    if (existing == name) throw Error("graph '" + graph_->name() + "': graph parameter " + quote(name) + " already exists");
  params_.emplace_back(std::move(name), id);
}

std::vector<std::string> PyGraph::param_names() const {
  std::vector<std::string> out;
  for (const auto& [name, gp] : params_) out.push_back(name);
  return out;
}

std::vector<std::string> PyGraph::node_names() const {
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < graph_->num_nodes(); ++i) out.push_back(graph_->node_name(NodeId{i}));
  return out;
}

const std::vector<std::string>& PyGraph::data_names() const { return data_names_; }

void PyGraph::add_data_name(std::string name) { data_names_.push_back(std::move(name)); }

std::string PyGraph::data_name(DataId id) const {
  for (const std::string& n : data_names_)
    if (graph_->find_data(n) == id) return n;
  return "#" + std::to_string(id.value);
}

bool PyGraph::is_input(GraphParamId param) const {
  return param.value < param_is_input_.size() && param_is_input_[param.value];
}

std::string PyGraph::label(const std::string& name) const {
  const DataId id = data(name);
  const std::string graph = "graph " + quote(graph_->name());
  std::string param_name;
  for (const auto& [n, gp] : params_)
    if (graph_->data_of(gp) == id) param_name = n;
  if (param_name.empty()) return graph + ", data object " + quote(name);
  const std::string data = data_name(id);
  const std::string what = param_is_input_.empty() ? "graph parameter " : is_input(param(param_name)) ? "input " : "output ";
  return graph + ", " + what + quote(param_name) + (data == param_name ? "" : " (data object " + quote(data) + ")");
}

// ---- building ----

void PyGraph::set_scalar_after_verify(DataId data, py::object value) {
  pending_scalars_.emplace_back(data, std::move(value));
}

void PyGraph::verify() {
  {
    py::gil_scoped_release unlocked;  // create callbacks run on the target threads (a model loads, ...)
    graph_->verify();
  }
  reset_buffers();
  for (const auto& [id, value] : pending_scalars_) {
    const std::string what = "graph " + quote(graph_->name()) + ", scalar " + quote(data_name(id));
    for (std::uint32_t b = 0; b < graph_->num_buffers(id); ++b) set_scalar(graph_->meta(id), *graph_->buffer_of(id, b), value, what);
  }
}

void PyGraph::release() {
  if (live_views_ > 0)
    throw py::value_error("release(): " + std::to_string(live_views_) +
                          " numpy view(s) of this graph's buffers are still alive and would show freed memory; delete "
                          "them first (del view), or read with copy=True");
  {
    py::gil_scoped_release unlocked;
    graph_->release();
  }
  imports_.clear();
  held_.clear();
  param_is_input_.clear();
}

void PyGraph::reset_buffers() {
  imports_.clear();
  held_.assign(params_.size(), {});
  param_is_input_.assign(params_.size(), false);
  const GraphStats stats = graph_->stats();  // one queue per graph parameter, in id order
  for (const auto& [name, gp] : params_) {
    if (gp.value >= held_.size()) {
      held_.resize(gp.value + 1);
      param_is_input_.resize(gp.value + 1);
    }
    held_[gp.value].assign(graph_->num_buffers(graph_->data_of(gp)), true);
    param_is_input_[gp.value] = gp.value < stats.queues.size() && stats.queues[gp.value].is_input;
  }
}

void PyGraph::require_verified(const char* what) const {
  if (!graph_->is_verified())
    throw Error("graph " + quote(graph_->name()) + ": " + what + " needs a verified graph (call verify() first)");
}

void PyGraph::forget_import(DataId data, std::uint32_t buffer) { imports_.erase({data.value, buffer}); }

const Buffer& PyGraph::buffer(DataId data, std::optional<std::uint32_t> index) const {
  require_verified("reading or writing data");
  const std::uint32_t n = static_cast<std::uint32_t>(graph_->num_buffers(data));
  if (index && *index >= n)
    throw py::index_error("graph " + quote(graph_->name()) + ", data object " + quote(data_name(data)) + ": buffer " +
                          std::to_string(*index) + " out of range (it has " + std::to_string(n) + ")");
  const Buffer* b = graph_->buffer_of(data, index ? *index : kLatestBuffer);
  if (!b) throw Error("graph " + quote(graph_->name()) + ", data object " + quote(data_name(data)) + ": no buffer");
  return *b;
}

// ---- data in and out ----

bool PyGraph::set_input(const std::string& name, py::handle value, std::uint32_t index, CopyMode mode) {
  const DataId id = data(name);
  const DataMeta& meta = graph_->meta(id);
  const std::string what = label(name);
  const Buffer& target = buffer(id, index);
  const std::optional<GraphParamId> gp = find_param(name);
  if (gp && !held_[gp->value][index])
    throw Error(what + ": buffer " + std::to_string(index) + " is with the graph (enqueued); dequeue it first");
  switch (meta.kind) {
    case DataKind::scalar:
      set_scalar(meta, target, value, what);
      return false;
    case DataKind::user_data: {
      if (!PyObject_CheckBuffer(value.ptr()))
        throw py::type_error(what + ": user data takes bytes (or any buffer) of " + std::to_string(meta.user_data.size) + " bytes");
      py::buffer_info info = py::reinterpret_borrow<py::buffer>(value).request();
      const auto bytes = static_cast<std::size_t>(info.size * info.itemsize);
      if (bytes != meta.user_data.size)
        throw py::value_error(what + ": expects " + std::to_string(meta.user_data.size) + " bytes (" + meta.describe() +
                              "), got " + std::to_string(bytes));
      std::memcpy(target.plane[0], info.ptr, bytes);
      return false;
    }
    case DataKind::array:
      throw py::type_error(what + ": arrays of records are written by kernels, not set from Python");
    case DataKind::image:
    case DataKind::tensor: break;
  }
  py::array array = py::isinstance<py::array>(value) ? py::reinterpret_borrow<py::array>(value)
                                                       : py::array(py::module_::import("numpy").attr("asarray")(value));
  check_array(meta, array, what);
  // Read-only memory is fine for what the graph only reads; anything a kernel may write must be writeable.
  const bool may_import = mode != CopyMode::always && (array.writeable() || (gp && is_input(*gp)));
  if (may_import) {
    if (std::optional<ExternalBuffer> ext = external_of(meta, array)) {
      const Status s = graph_->import_buffer(id, index, *ext);
      if (s == Status::ok) {
        imports_[{id.value, index}] = array;
        return true;
      }
      if (mode == CopyMode::never) throw_status(s, what + ": importing the array");
    }
  }
  if (mode == CopyMode::never)
    throw py::value_error(what + ": the array cannot be read in place (" +
                          std::string(array.writeable() || (gp && is_input(*gp)) ? "" : "it is read-only; ") +
                          "it needs packed pixels in each row, or C-contiguous tensor data, aligned): pass copy=None "
                          "or copy=True, or numpy.ascontiguousarray it");
  if (imports_.count({id.value, index})) {  // give the graph its own memory back, then copy into it
    const Status s = graph_->import_buffer(id, index, ExternalBuffer{});
    if (s != Status::ok) throw_status(s, what + ": restoring the graph's own buffer");
    forget_import(id, index);
  }
  copy_into(meta, buffer(id, index), array);
  if (gp && is_input(*gp)) graph_->count_conversion(*gp);
  return false;
}

// The owner of one numpy view: keeps the Python graph alive and counts the view while it lives.
py::object PyGraph::view_guard(py::handle self) const {
  struct Guard {
    py::object graph;
    const PyGraph* owner;
  };
  auto* guard = new Guard{py::reinterpret_borrow<py::object>(self), this};
  ++live_views_;
  return py::capsule(guard, [](void* p) {
    auto* g = static_cast<Guard*>(p);
    --g->owner->live_views_;
    delete g;  // drops the graph reference (the GIL is held in capsule destructors)
  });
}

py::object PyGraph::get(const std::string& name, std::optional<std::uint32_t> index, bool copy, py::handle self) const {
  const DataId id = data(name);
  const DataMeta& meta = graph_->meta(id);
  const Buffer& b = buffer(id, index);
  switch (meta.kind) {
    case DataKind::image:
    case DataKind::tensor: return copy ? array_of(meta, b, self, true) : array_of(meta, b, view_guard(self), false);
    case DataKind::scalar: return scalar_of(meta, b);
    case DataKind::user_data: return py::bytes(reinterpret_cast<const char*>(b.plane[0]), meta.user_data.size);
    case DataKind::array: {
      const auto count = static_cast<py::ssize_t>(b.count), item = static_cast<py::ssize_t>(meta.array.item_size);
      py::array_t<std::uint8_t> out({count, item});
      if (count > 0) std::memcpy(out.mutable_data(), b.plane[0], static_cast<std::size_t>(count * item));
      return out;
    }
  }
  return py::none();
}

// ---- running ----

void PyGraph::process(py::handle inputs, double timeout) {
  require_verified("process()");
  if (!inputs.is_none())
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(inputs)) (void)set_input(py::str(key), value, 0, CopyMode::automatic);
  const auto wait = timeout_from(timeout, "process()");
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = graph_->process(wait);
  }
  if (s != Status::ok) {
    const RunError e = graph_->last_error();
    throw_status(s, "graph " + quote(graph_->name()) + ": process()", e.status != Status::ok ? e.describe() : "");
  }
}

void PyGraph::start(bool enqueue_outputs) {
  require_verified("start()");
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = graph_->start();
  }
  if (s != Status::ok) throw_status(s, "graph " + quote(graph_->name()) + ": start()");
  if (!enqueue_outputs) return;
  for (const auto& [name, gp] : params_) {
    if (is_input(gp)) continue;
    for (std::uint32_t i = 0; i < held_[gp.value].size(); ++i) {
      if (!held_[gp.value][i]) continue;
      const Status e = graph_->enqueue(gp, i, FrameStamp{}, std::chrono::nanoseconds(0));
      if (e != Status::ok) throw_status(e, label(name) + ": handing buffer " + std::to_string(i) + " to the graph");
      held_[gp.value][i] = false;
    }
  }
}

std::uint32_t PyGraph::enqueue(const std::string& name, py::handle array, std::optional<std::uint32_t> buffer_index,
                               const FrameStamp& stamp, double timeout, CopyMode mode) {
  require_verified("enqueue()");
  const GraphParamId gp = param(name);
  const std::string what = label(name);
  std::vector<bool>& held = held_[gp.value];
  std::uint32_t index = 0;
  if (buffer_index) {
    index = *buffer_index;
    if (index >= held.size())
      throw py::index_error(what + ": buffer " + std::to_string(index) + " out of range (it has " + std::to_string(held.size()) + ")");
    if (!held[index]) throw Error(what + ": buffer " + std::to_string(index) + " is already with the graph");
  } else {
    while (index < held.size() && !held[index]) ++index;
    if (index == held.size())
      throw Error(what + ": all " + std::to_string(held.size()) + " buffers are with the graph; dequeue one first");
  }
  if (!array.is_none()) {
    // An output takes an array only to be written in place (the graph's results land in it).
    (void)set_input(name, array, index, is_input(gp) ? mode : CopyMode::never);
  } else if (is_input(gp) && !buffer_index) {
    throw Error(what + ": enqueue of an input needs an array (or buffer=INDEX of a buffer filled before)");
  }
  const auto wait = timeout_from(timeout, "enqueue()");
  held[index] = false;
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = graph_->enqueue(gp, index, stamp, wait);
  }
  if (s != Status::ok) {
    // Indexed again: another thread may have run Python code (even release()) while the GIL was free.
    if (gp.value < held_.size() && index < held_[gp.value].size()) held_[gp.value][index] = true;
    throw_status(s, what + ": enqueue of buffer " + std::to_string(index));
  }
  return index;
}

std::optional<DequeuedBuffer> PyGraph::dequeue(const std::string& name, double timeout) {
  require_verified("dequeue()");
  const GraphParamId gp = param(name);
  const auto wait = timeout_from(timeout, "dequeue()");
  DequeuedBuffer out{};
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = graph_->dequeue(gp, out, wait);
  }
  if (s == Status::stopped) return std::nullopt;
  if (s != Status::ok) throw_status(s, label(name) + ": dequeue()");
  if (gp.value < held_.size() && out.index < held_[gp.value].size()) held_[gp.value][out.index] = true;
  return out;
}

py::object PyGraph::send_command(const std::string& node_name, py::handle command, py::handle payload, double timeout,
                                 bool raw, py::handle replica) {
  require_verified("send_command()");
  const NodeId id = node(node_name);
  const std::string kernel = graph_->node_kernel(id);
  const KernelInfo* info = context_->get().find_kernel(kernel);
  if (!info) throw Error("node " + quote(node_name) + ": kernel " + quote(kernel) + " is no longer registered");
  const CommandDecl* decl = nullptr;
  if (py::isinstance<py::str>(command)) decl = info->decl.find_command(command.cast<std::string>());
  else decl = info->decl.find_command(command.cast<std::uint32_t>());
  if (!decl) {
    std::vector<std::string> names;
    for (const CommandDecl& c : info->decl.commands()) names.push_back(c.name + " (" + std::string(to_string(c.payload)) + ")");
    throw Error("node " + quote(node_name) + " (kernel " + kernel + "): no command " + py::str(command).cast<std::string>() +
                " (commands: " + join(names) + ")");
  }
  const std::string what = "node " + quote(node_name) + ", command " + quote(decl->name);
  ControlCommand cmd = ControlCommand::make(decl->id);
  const std::string expects = what + ": payload must be ";
  auto type_name = [](py::handle v) { return py::str(py::type::handle_of(v).attr("__name__")).cast<std::string>(); };
  switch (decl->payload) {
    case PayloadKind::none:
      if (!payload.is_none()) throw py::type_error(expects + "None (the command takes no payload), got " + type_name(payload));
      break;
    case PayloadKind::integer:
      if (payload.is_none() || PyBool_Check(payload.ptr()) || !py::isinstance(payload, py::module_::import("numbers").attr("Integral")))
        throw py::type_error(expects + "an int, got " + type_name(payload));
      cmd.write(payload.cast<std::int64_t>());
      break;
    case PayloadKind::number:
      if (payload.is_none() || PyBool_Check(payload.ptr()) || !py::isinstance(payload, py::module_::import("numbers").attr("Real")))
        throw py::type_error(expects + "a number, got " + type_name(payload));
      cmd.write(payload.cast<double>());
      break;
    case PayloadKind::text: {
      if (!py::isinstance<py::str>(payload)) throw py::type_error(expects + "a str, got " + type_name(payload));
      const std::string text = payload.cast<std::string>();
      if (text.size() >= kMaxCommandPayload)
        throw py::value_error(what + ": text payload of " + std::to_string(text.size()) + " bytes; at most " +
                              std::to_string(kMaxCommandPayload - 1));
      (void)cmd.write_text(text);
      break;
    }
    case PayloadKind::bytes: {
      if (!PyObject_CheckBuffer(payload.ptr()) || py::isinstance<py::str>(payload))
        throw py::type_error(expects + "bytes, got " + type_name(payload));
      const std::string bytes = py::module_::import("builtins").attr("bytes")(payload).cast<std::string>();
      if (bytes.size() > kMaxCommandPayload)
        throw py::value_error(what + ": payload of " + std::to_string(bytes.size()) + " bytes; at most " +
                              std::to_string(kMaxCommandPayload));
      std::memcpy(cmd.data, bytes.data(), bytes.size());
      cmd.size = static_cast<std::uint32_t>(bytes.size());
      break;
    }
  }
  const auto wait = timeout_from(timeout, "send_command()");
  // replica=None: every replica of a node run over several targets; an int: that replica only.
  std::uint32_t which = kAllReplicas;
  if (!replica.is_none()) {
    const auto r = replica.cast<long long>();
    if (r < 0 || static_cast<std::size_t>(r) >= graph_->num_replicas(id))
      throw py::index_error("node " + quote(node_name) + " has " + std::to_string(graph_->num_replicas(id)) +
                            " replica(s); replica " + std::to_string(r) + " does not exist");
    which = static_cast<std::uint32_t>(r);
  }
  CommandReply reply;
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = graph_->send_command(id, cmd, wait, &reply, which);
  }
  if (s != Status::ok) {
    const RunError e = graph_->last_error();
    throw_status(s, what, e.status != Status::ok && e.node == node_name ? e.message : "");
  }
  const std::string_view bytes = reply.text();
  if (!raw) {
    py::object text = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "strict"));
    if (text) {
      if (text.attr("isprintable")().cast<bool>()) return text;
    } else {
      PyErr_Clear();
    }
  }
  return py::bytes(bytes.data(), bytes.size());
}

}  // namespace vg::python
