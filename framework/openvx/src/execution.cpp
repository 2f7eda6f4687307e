// vx graphs on visiongraph graphs (see execution.hpp), and vxProcessGraph / vxScheduleGraph / vxWaitGraph.
#include "execution.hpp"

#include <VX/vx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>

#include "array.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "delay.hpp"
#include "fusion.hpp"
#include "graph.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "pipelining.hpp"
#include "placement.hpp"
#include "scalar.hpp"
#include "tensor.hpp"
#include "user_data_object.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::openvx {

std::uint64_t now_ns() noexcept { return static_cast<std::uint64_t>(vg::now_ns()); }  // the core's clock, read directly

void record_performance(vx_perf_t& perf, std::uint64_t begin, std::uint64_t end) noexcept {
  perf.beg = begin;
  perf.end = end;
  perf.tmp = end - begin;
  perf.sum += perf.tmp;
  perf.num += 1;
  perf.avg = perf.sum / perf.num;
  perf.min = perf.num == 1 ? perf.tmp : std::min(perf.min, perf.tmp);
  perf.max = std::max(perf.max, perf.tmp);
}

namespace {

using vg::Status;

// Set while this thread runs a kernel callback (see inside_graph_execution).
// Initial-exec: one int in the static TLS block, read without a call into the dynamic loader per node
// (the general-dynamic model a shared library gets by default costs a __tls_get_addr call each time).
[[gnu::tls_model("initial-exec")]] thread_local int kernel_callbacks_running = 0;

/// Marks the current thread as running a kernel callback for its lifetime.
struct InKernelCallback {
  InKernelCallback() noexcept { ++kernel_callbacks_running; }
  ~InKernelCallback() { --kernel_callbacks_running; }
  InKernelCallback(const InKernelCallback&) = delete;
  InKernelCallback& operator=(const InKernelCallback&) = delete;
};

// ---- the trampoline: one visiongraph kernel per vx kernel, its instance is the vx node ----

/// Row @p row of @p node's call_handles, filled with the handles of @p arguments: the parameters[] a
/// kernel callback is given (callbacks see handles, as the application does).
vx_reference* callback_arguments(vx_node node, const vx_reference* arguments, std::size_t row) noexcept {
  const std::size_t count = node->arguments.size();
  vx_reference* handles = node->call_handles.data() + row * count;
  to_handles(arguments, count, handles);
  return handles;
}

}  // namespace

void refresh_call_handles(vx_node node) noexcept {
  if (node->call_handles.empty()) return;  // not compiled
  if (node->slot_arguments.empty()) {
    (void)callback_arguments(node, node->arguments.data(), 0);
    return;
  }
  for (std::size_t slot = 0; slot < node->slot_arguments.size(); ++slot) (void)callback_arguments(node, node->slot_arguments[slot].data(), slot);
}

namespace {

Status node_create(KernelContext& ctx) {
  auto* node = reinterpret_cast<vx_node>(static_cast<std::uintptr_t>(ctx.integer("vx_node")));
  if (node->local_data_size > 0 && !node->local_data_set_by_user) {
    node->local_data = std::calloc(1, node->local_data_size);
    if (node->local_data == nullptr) {
      ctx.set_error("no memory for the node's local data (VX_NODE_LOCAL_DATA_SIZE)");
      return Status::out_of_memory;
    }
  }
  if (node->kernel->initialize != nullptr) {
    const InKernelCallback in_callback;
    const vx_status s = node->kernel->initialize(to_handle(node), callback_arguments(node, node->arguments.data(), 0),
                                                 static_cast<vx_uint32>(node->arguments.size()));
    if (s != VX_SUCCESS) {
      node->status = s;
      if (!node->local_data_set_by_user) {
        std::free(node->local_data);
        node->local_data = nullptr;
      }
      ctx.set_error("the kernel's initialize callback failed");
      return Status::kernel_error;
    }
  }
  ctx.set_instance(node);
  return Status::ok;
}

/// Pipe-up of a kernel with VX_KERNEL_PIPEUP_OUTPUT_DEPTH above one, before its first steady call: the
/// same inputs and a different set of outputs each call, nothing passed downstream.
vx_status run_output_pipeup(vx_node node, const vx_reference* arguments, vx_uint32 count, std::size_t row) noexcept {
  const vx_uint32 calls = node->pipeup_output_calls;
  node->pipeup_output_calls = 0;
  node->state.store(VX_NODE_STATE_PIPEUP, std::memory_order_release);
  vx_status s = VX_SUCCESS;
  for (vx_uint32 c = 0; c < calls && s == VX_SUCCESS; ++c) {
    for (vx_uint32 i = 0; i < count; ++i) {
      const vx_reference own = node->pipeup_outputs[c * count + i];
      node->pipeup_arguments[i] = own != nullptr ? own : arguments[i];
    }
    s = node->kernel->function(to_handle(node), callback_arguments(node, node->pipeup_arguments.data(), row), count);
  }
  (void)callback_arguments(node, arguments, row);  // the row holds the steady arguments again
  node->state.store(VX_NODE_STATE_STEADY, std::memory_order_release);
  return s;
}

Status node_process(KernelContext& ctx) noexcept {
  auto* node = static_cast<vx_node>(ctx.instance());
  // A pipelined graph: the arguments of the frame's slot (numbered by the `frame` parameter's buffer).
  const std::size_t slot = node->slot_arguments.empty() ? 0 : ctx.buffer_index(node->frame_parameter);
  vx_reference* arguments = node->slot_arguments.empty() ? node->arguments.data() : node->slot_arguments[slot].data();
  const auto count = static_cast<vx_uint32>(node->arguments.size());
  // Timing costs two clock reads per node: only while performance measurement is on (vxDirective).
  const bool timed = node->context->performance_enabled;
  const std::uint64_t begin = timed ? now_ns() : 0;
  const InKernelCallback in_callback;
  node->abandoned.store(false, std::memory_order_relaxed);
  vx_status s = node->pipeup_output_calls > 0 ? run_output_pipeup(node, arguments, count, slot) : VX_SUCCESS;
  bool chained = false;  // a fused chain recorded this node's performance
  if (s == VX_SUCCESS) {
    // Input pipe-up: the first (depth - 1) runs after verification keep their inputs (pipelining.hpp).
    const bool input_pipeup = node->pipeup_input_calls > 0;
    if (input_pipeup) node->state.store(VX_NODE_STATE_PIPEUP, std::memory_order_release);
    // A node of a fused chain: the chain's first node runs it all, band by band (fusion.hpp).
    chained = node->chain != nullptr && run_in_chain(node, timed, s);
    // The row of handles is kept in step with the arguments (refresh_call_handles): nothing to encode here.
    if (!chained) s = node->kernel->function(to_handle(node), node->call_handles.data() + slot * count, count);
    if (input_pipeup) {
      --node->pipeup_input_calls;
      node->state.store(VX_NODE_STATE_STEADY, std::memory_order_release);
    }
  }
  if (timed && !chained) record_performance(node->performance, begin, now_ns());
  node->status.store(s, std::memory_order_relaxed);
  // A replica's events and callback are its node's, read here so ones registered after verification count.
  const vx_node owner = node->replica_of != nullptr ? node->replica_of : node;
  if (s != VX_SUCCESS && owner->error_event.registered) {
    vx_event_info_t info{};
    info.node_error = vx_event_node_error{to_handle(node->graph), to_handle(owner), s};
    node->context->events.post(VX_EVENT_NODE_ERROR, owner->error_event.app_value, info);
  } else if (s == VX_SUCCESS && owner->completed_event.registered) {
    vx_event_info_t info{};
    info.node_completed = vx_event_node_completed{to_handle(node->graph), to_handle(owner)};
    node->context->events.post(VX_EVENT_NODE_COMPLETED, owner->completed_event.app_value, info);
  }
  if (s != VX_SUCCESS) {
    ctx.set_error("the kernel function failed");
    return Status::kernel_error;
  }
  if (owner->callback != nullptr && owner->callback(to_handle(node)) == VX_ACTION_ABANDON) {
    node->abandoned = true;  // the nodes after it are skipped, as for a failure
    ctx.set_error("the node's completion callback abandoned the graph");
    return Status::aborted;
  }
  return Status::ok;
}

void node_destroy(KernelContext& ctx) noexcept {
  auto* node = static_cast<vx_node>(ctx.instance());
  if (node == nullptr) return;
  if (node->kernel->deinitialize != nullptr) {
    const InKernelCallback in_callback;
    (void)node->kernel->deinitialize(to_handle(node), callback_arguments(node, node->arguments.data(), 0),
                                     static_cast<vx_uint32>(node->arguments.size()));
  }
  if (!node->local_data_set_by_user) {
    std::free(node->local_data);
    node->local_data = nullptr;
  }
}

/// The visiongraph kernel running @p kernel in a node with @p inputs predecessors: one input per
/// predecessor's token and one token out (the data are the vx objects; tokens only order the nodes).
/// Declared the first time a graph needs it.
const std::string& runtime_kernel(vx_context context, vx_kernel kernel, std::size_t inputs) {
  if (kernel->runtime_kernels.size() <= inputs) kernel->runtime_kernels.resize(inputs + 1);
  std::string& declared = kernel->runtime_kernels[inputs];
  if (!declared.empty()) return declared;
  const std::string name = "vx." + std::to_string(context->runtime_kernels++) + "." + kernel->kernel_name + "." + std::to_string(inputs);
  KernelDecl decl(name, "the OpenVX kernel " + kernel->kernel_name);
  for (std::size_t i = 0; i < inputs; ++i) decl.input("after" + std::to_string(i), DataKind::scalar);
  decl.output("done", DataKind::scalar, false);
  decl.input("frame", DataKind::scalar, false);  // pipelined graphs: its buffer number is the frame's slot
  decl.required_attribute("vx_node", AttrType::integer);
  const std::size_t done = inputs;
  decl.validate([done](ValidateContext& v) {
    if (v.is_bound(done)) v.set_meta(done, DataMeta::scalar_of(ElementType::u8));
  });
  vg::Module module(name);
  module.add(std::move(decl));
  const KernelCallbacks callbacks{&node_create, &node_process, nullptr, &node_destroy, nullptr};
  for (const char* target_kind : {"cpu", "npu"}) module.implement(name, target_kind, callbacks);
  context->runtime->load_module(std::move(module));
  declared = name;
  return declared;
}

/// What a finished run says, as the vx status (and the graph's state).
vx_status run_status(vx_graph graph, Status status) noexcept {
  if (status == Status::ok) {
    graph->state = VX_GRAPH_STATE_COMPLETED;
    return VX_SUCCESS;
  }
  graph->state = VX_GRAPH_STATE_ABANDONED;
  // A replicated node's status is its first failing replica's.
  for (vx_node node : graph->nodes) {
    for (vx_node replica : node->replicas) {
      if (replica->status != VX_SUCCESS && node->status == VX_SUCCESS) node->status = replica->status.load();
      node->abandoned = node->abandoned || replica->abandoned;
    }
  }
  for (vx_node node : graph->nodes) {
    if (node->abandoned) return VX_ERROR_GRAPH_ABANDONED;
  }
  for (vx_node node : graph->nodes) {
    if (node->status != VX_SUCCESS) return node->status;
  }
  const std::string_view why = vg::to_string(status);
  log(graph, VX_FAILURE, "the graph run failed: %.*s", static_cast<int>(why.size()), why.data());
  return VX_FAILURE;
}

}  // namespace

/// The end of a run, on the thread that started (vxProcessGraph), waited for it (vxWaitGraph) or saw it
/// complete (a pipelined graph, which has no delays): no node runs this frame now. The delays registered
/// for auto-aging age after a completed run and, as the specification says, after one a node callback
/// abandoned.
vx_status finish_frame(vx_graph graph, Status status, std::uint64_t begin) noexcept {
  record_performance(graph->performance, begin, now_ns());
  const vx_status result = run_status(graph, status);
  if (result == VX_SUCCESS || result == VX_ERROR_GRAPH_ABANDONED) {
    for (vx_delay delay : graph->auto_aged) {
      if (const vx_status s = age_delay(delay); s != VX_SUCCESS) log(graph, s, "auto-aging a delay after the run failed");
    }
  }
  if (graph->completed_event.registered) {
    vx_event_info_t info{};
    info.graph_completed.graph = to_handle(graph);
    graph->context->events.post(VX_EVENT_GRAPH_COMPLETED, graph->completed_event.app_value, info);
  }
  return result;
}

namespace {

/// vxProcessGraph and vxScheduleGraph: verified (now, if needed) and not running.
vx_status prepare_run(vx_graph graph) noexcept {
  if (graph->scheduled) return VX_ERROR_GRAPH_SCHEDULED;
  if (!graph->verified) {
    if (const vx_status s = verify_graph(graph); s != VX_SUCCESS) return s;
  }
  for (vx_node node : graph->nodes) {
    node->status.store(VX_SUCCESS, std::memory_order_relaxed);
    node->abandoned.store(false, std::memory_order_relaxed);
  }
  graph->state = VX_GRAPH_STATE_RUNNING;
  return VX_SUCCESS;
}

// A hung kernel is the application's to fix; a graph waits this long before it reports a failure.
constexpr std::chrono::hours kRunTimeout{24};

}  // namespace

bool inside_graph_execution() noexcept { return kernel_callbacks_running > 0; }

namespace {

/// The replicas of @p node for a compiled graph: internal nodes with item i of each replicated parameter,
/// the node's other arguments, target, border and local data size (its events and callback are read from
/// the node as it runs). Released with the compiled
/// graph (release_compiled_graph).
std::vector<vx_node> make_replicas(vx_node node) {
  const std::size_t count = replica_count(node);
  node->replicas.reserve(count);
  for (std::size_t r = 0; r < count; ++r) {
    auto* replica = new _vx_node(node->context, node->graph, node->kernel);
    replica->arguments.assign(node->arguments.size(), nullptr);
    for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
      vx_reference a = replica_argument(node, i, r);
      if (a != nullptr) retain(a, Hold::internal);
      replica->arguments[i] = a;
    }
    replica->replica_of = node;
    replica->target = node->target;
    replica->border = node->border;
    replica->local_data_size = node->local_data_size;
    std::snprintf(replica->name, sizeof replica->name, "%.40s[%zu]", node->name, r);
    if (adopt(replica, Hold::internal) == nullptr) throw std::bad_alloc();
    node->replicas.push_back(replica);
  }
  return node->replicas;
}

/// An internal hold on a new object made for the compiled graph (the creator gave the application's).
vx_reference hold_internally(vx_reference object) {
  if (status_of(object) != VX_SUCCESS) throw std::runtime_error("no memory for an object the pipelined graph needs");
  retain(object, Hold::internal);
  (void)release(object, Hold::external);
  return object;
}

/// Pipe-up counters from the kernel's VX_KERNEL_PIPEUP_*_DEPTH, and the output objects the output
/// pipe-up calls write (one set per call, like the node's outputs).
void prepare_pipeup(vx_node run) {
  const auto count = static_cast<vx_uint32>(run->arguments.size());
  run->state.store(VX_NODE_STATE_STEADY, std::memory_order_relaxed);
  run->pipeup_input_calls = run->kernel->pipeup_input_depth - 1;
  run->pipeup_output_calls = run->kernel->pipeup_output_depth - 1;
  if (run->pipeup_output_calls == 0) return;
  run->pipeup_arguments.assign(count, nullptr);
  run->pipeup_outputs.assign(std::size_t{run->pipeup_output_calls} * count, nullptr);
  for (vx_uint32 c = 0; c < run->pipeup_output_calls; ++c) {
    for (vx_uint32 i = 0; i < count; ++i) {
      if (run->kernel->signature[i].direction != VX_OUTPUT || run->arguments[i] == nullptr) continue;
      run->pipeup_outputs[std::size_t{c} * count + i] = hold_internally(create_like(reinterpret_cast<vx_reference>(run->context), run->arguments[i]));
    }
  }
}

void drop_pipeup(vx_node run) noexcept {
  for (vx_reference& output : run->pipeup_outputs) {
    if (output != nullptr) (void)release(output, Hold::internal);
    output = nullptr;
  }
  run->pipeup_outputs.clear();
  run->pipeup_arguments.clear();
  run->pipeup_output_calls = 0;
  run->pipeup_input_calls = 0;
}

/// A virtual object a pipelined graph may copy per frame slot: nothing else shares its memory (not a
/// region, channel, view, item or delay slot) and it is of a type kernels only reach through the handle.
bool copyable_per_slot(vx_reference object) noexcept {
  if (object->container != nullptr || data_root(object) != object) return false;
  switch (object->type) {
    case VX_TYPE_IMAGE: {
      const auto* image = reinterpret_cast<const _vx_image*>(object);
      return image->is_virtual && !image->is_uniform && image->parent == nullptr && image->memory_owner == nullptr;
    }
    case VX_TYPE_SCALAR: return reinterpret_cast<const _vx_scalar*>(object)->is_virtual;
    case VX_TYPE_ARRAY: return reinterpret_cast<const _vx_array*>(object)->is_virtual;
    case VX_TYPE_TENSOR: return reinterpret_cast<const _vx_tensor_t*>(object)->is_virtual;
    case VX_TYPE_USER_DATA_OBJECT: return reinterpret_cast<const _vx_user_data_object*>(object)->is_virtual;
    default: return false;
  }
}

/// A pipelined graph's frame slots (pipelining.hpp): each compiled node's arguments per slot, the queued
/// parameters' positions, a copy per slot of each virtual object that allows one, and, for memory the
/// frames share, an order across frames: a node writing it waits for the previous frame's users.
void set_up_slots(vx_graph graph, const std::vector<vx_node>& runs, const std::vector<NodeId>& ids, std::size_t slots, vg::Graph& compiled) {
  GraphExecutor& e = *graph->executor;
  for (vx_node run : runs) run->slot_arguments.assign(slots, run->arguments);
  std::vector<vx_reference> queued_objects;
  for (ParameterQueue& q : e.queues) {
    const GraphParameter& p = graph->parameters[q.parameter];
    const vx_reference object = p.node->arguments[p.index];
    queued_objects.push_back(object);
    q.positions.clear();
    q.hold = 0;
    for (vx_node run : runs) {
      for (vx_uint32 i = 0; i < run->arguments.size(); ++i) {
        const vx_reference a = run->arguments[i];
        // A replica's argument that is another item of the queued item's object array (or pyramid) follows
        // the frame's reference to its own container: the frame's items are processed, not item 0's siblings.
        std::size_t item = 0;
        if (a != nullptr && a != object && object != nullptr && object->container != nullptr && a->container == object->container &&
            item_index(object->container, a, item)) {
          q.positions.push_back({run, i, true, item});
          queued_objects.push_back(a);
        }
        if (a != object) continue;
        q.positions.push_back({run, i});
        if (run->kernel->signature[i].direction == VX_INPUT) q.hold = std::max<std::size_t>(q.hold, run->kernel->pipeup_input_depth - 1);
      }
    }
  }
  if (slots == 1) return;  // frames one after another: nothing is shared at the same time
  struct Use {
    std::size_t run;
    vx_uint32 index;
    bool writes;
  };
  std::vector<std::pair<const void*, std::vector<Use>>> roots;  // the objects the frames would share, by memory
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (vx_uint32 i = 0; i < runs[r]->arguments.size(); ++i) {
      const vx_reference a = runs[r]->arguments[i];
      if (a == nullptr || std::find(queued_objects.begin(), queued_objects.end(), a) != queued_objects.end()) continue;
      const void* root = data_root(a);
      auto at = std::find_if(roots.begin(), roots.end(), [&](const auto& entry) { return entry.first == root; });
      if (at == roots.end()) at = roots.insert(roots.end(), {root, {}});
      at->second.push_back(Use{r, i, runs[r]->kernel->signature[i].direction != VX_INPUT});
    }
  }
  for (const auto& [root, uses] : roots) {
    const vx_reference object = runs[uses.front().run]->arguments[uses.front().index];
    const bool alone = std::all_of(uses.begin(), uses.end(), [&](const Use& u) { return runs[u.run]->arguments[u.index] == object; });
    if (alone && copyable_per_slot(object)) {
      for (std::size_t slot = 1; slot < slots; ++slot) {
        const vx_reference copy = hold_internally(create_like(reinterpret_cast<vx_reference>(graph->context), object));
        e.slot_copies.push_back(copy);
        if (object->type == VX_TYPE_IMAGE) reinterpret_cast<_vx_image*>(copy)->valid = reinterpret_cast<const _vx_image*>(object)->valid;
        for (const Use& u : uses) runs[u.run]->slot_arguments[slot][u.index] = copy;
      }
      continue;
    }
    for (const Use& writer : uses) {
      if (!writer.writes) continue;
      for (const Use& user : uses) {
        if (user.run != writer.run) compiled.order_across_frames(ids[user.run], ids[writer.run]);
      }
    }
  }
}

}  // namespace

vx_status run_graph_once(vx_graph graph) noexcept {
  for (vx_node node : graph->nodes) {
    node->status.store(VX_SUCCESS, std::memory_order_relaxed);
    node->abandoned.store(false, std::memory_order_relaxed);
    for (vx_node replica : node->replicas) {
      replica->status.store(VX_SUCCESS, std::memory_order_relaxed);
      replica->abandoned.store(false, std::memory_order_relaxed);
    }
  }
  graph->state = VX_GRAPH_STATE_RUNNING;
  const std::uint64_t begin = now_ns();
  return finish_frame(graph, graph->compiled->process(kRunTimeout), begin);
}

/// The visiongraph context an OpenVX context runs its graphs in: the default targets, and the workers'
/// polling before they sleep from VG_OPENVX_SPIN_US when set (0 turns polling off: less CPU while idle,
/// and instruction counts that do not depend on how threads are scheduled). VG_OPENVX_RUN_ON_CALLER=0
/// hands every vxProcessGraph frame to the targets' workers (ContextConfig::run_on_caller; benches
/// compare the two). Both are read when the context verifies its first graph.
static vg::ContextConfig runtime_config() {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  if (const char* spin = std::getenv("VG_OPENVX_SPIN_US"); spin != nullptr && spin[0] != '\0') {
    char* end = nullptr;
    const unsigned long value = std::strtoul(spin, &end, 10);
    if (end != nullptr && *end == '\0' && value <= 1'000'000) config.spin_us = static_cast<unsigned>(value);
  }
  if (const char* on_caller = std::getenv("VG_OPENVX_RUN_ON_CALLER"); on_caller != nullptr && std::strcmp(on_caller, "0") == 0)
    config.run_on_caller = false;
  return config;
}

vx_status compile_graph(vx_graph graph, const std::vector<std::vector<std::size_t>>& after) noexcept {
  vx_context context = graph->context;
  try {
    if (!context->runtime) context->runtime = std::make_unique<vg::Context>(runtime_config());
    auto compiled = std::make_unique<vg::Graph>(*context->runtime, "vx_graph");
    // What runs: each node, or each replica of a replicated node (all replicas wait for the node's
    // predecessors; its successors wait for all its replicas).
    // Chains of 3x3 filters run band by band, a large frame's halves on two targets (fusion.hpp); not in a
    // pipelined graph, whose frames each have their own copies of the virtual images.
    const bool pipelined = queued(graph);
    if (!pipelined && fusion_enabled()) plan_fused_chains(graph);
    // Nodes left on "any": branches spread over the cpu targets, chains kept on one (placement.hpp).
    const std::vector<std::string> placed = pipelined ? std::vector<std::string>(graph->nodes.size()) : place_any_nodes(graph, after);
    std::vector<std::vector<vx_node>> runs(graph->nodes.size());
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      vx_node node = graph->nodes[k];
      runs[k] = node->replicated.empty() ? std::vector<vx_node>{node} : make_replicas(node);
      if (const vx_node helper = chain_helper(node); helper != nullptr) runs[k].push_back(helper);
    }
    std::vector<bool> is_read(graph->nodes.size(), false);
    for (const auto& list : after) {
      for (std::size_t p : list) is_read[p] = true;
    }
    std::vector<std::vector<DataId>> done(graph->nodes.size());
    std::vector<std::vector<NodeId>> ids(graph->nodes.size());
    std::vector<vx_node> all_runs;
    std::vector<NodeId> all_ids;
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      for (vx_node run : runs[k]) prepare_pipeup(run);
      all_runs.insert(all_runs.end(), runs[k].begin(), runs[k].end());
    }
    const std::size_t slots = pipelined ? pipeline_slots(graph, all_runs) : 1;
    const DataId frame = pipelined ? compiled->add_data("frame", vg::DataMeta::scalar_of(vg::ElementType::u8)) : DataId{};
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      std::size_t inputs = 0;
      for (std::size_t p : after[k]) inputs += runs[p].size();
      for (std::size_t r = 0; r < runs[k].size(); ++r) {
        vx_node run = runs[k][r];
        run->frame_parameter = inputs + 1;
        run->call_handles.assign(slots * run->arguments.size(), nullptr);  // callbacks' parameters[], per slot
        const std::string name = "n" + std::to_string(k) + (runs[k].size() > 1 ? "r" + std::to_string(r) : "");
        const NodeId id = compiled->add_node(name, runtime_kernel(context, run->kernel, inputs));
        compiled->set_attribute(id, "vx_node", static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(run)));
        if (run->target != "any") compiled->set_target(id, run->target);
        else if (run == graph->nodes[k] && !placed[k].empty()) compiled->set_target(id, placed[k]);
        if (is_read[k]) {
          done[k].push_back(compiled->add_virtual("done" + name.substr(1), DataKind::scalar));
          compiled->bind(id, inputs, done[k].back());
        }
        if (pipelined) compiled->bind(id, inputs + 1, frame);
        ids[k].push_back(id);
        all_ids.push_back(id);
      }
    }
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      for (NodeId id : ids[k]) {
        std::size_t input = 0;
        for (std::size_t p : after[k]) {
          for (DataId token : done[p]) compiled->bind(id, input++, token);
        }
      }
    }
    GraphParamId frame_parameter{};
    if (pipelined) {
      // Frames at once, each in its own slot, started by enqueueing the slot's number (pipelining.hpp).
      frame_parameter = compiled->add_graph_parameter(all_ids.front(), "frame", slots);
      compiled->set_input_policy(frame_parameter, vg::InputPolicy::block, slots);
      set_up_slots(graph, all_runs, all_ids, slots, *compiled);
    }
    for (vx_node run : all_runs) refresh_call_handles(run);
    compiled->set_pipeline_depth(slots);  // without a pipeline, one run at a time: the vx objects are the data
    compiled->verify();                   // initializers run here, each on its node's target
    if (pipelined) graph->executor->compiled(slots, frame_parameter);
    graph->compiled = std::move(compiled);
    return VX_SUCCESS;
  } catch (const std::bad_alloc&) {
    return VX_ERROR_NO_MEMORY;
  } catch (const std::exception& e) {
    log(graph, VX_FAILURE, "vxVerifyGraph: the graph could not be set up to run: %s", e.what());
    for (vx_node node : graph->nodes) {
      if (node->status != VX_SUCCESS) return node->status;  // an initializer failed
    }
    return VX_FAILURE;
  }
}

void release_compiled_graph(vx_graph graph) noexcept {
  if (graph->executor) graph->executor->stop();  // its thread runs the compiled graph
  // Moved out first: deinitializers may call back into the library with the graph's nodes.
  std::unique_ptr<vg::Graph> compiled = std::move(graph->compiled);
  graph->scheduled = false;
  compiled.reset();
  drop_fused_chains(graph);
  if (graph->executor) graph->executor->drop_copies();
  for (vx_node node : graph->nodes) {
    if (in_teardown()) break;  // the context is going: it deletes every node itself
    for (vx_node replica : node->replicas) {
      drop_pipeup(replica);
      (void)release(replica, Hold::internal);
    }
    node->replicas.clear();
    drop_pipeup(node);
    node->slot_arguments.clear();
  }
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxProcessGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (queued(graph)) {
    log(graph, VX_ERROR_NOT_SUPPORTED, "vxProcessGraph: the graph is in a queue mode or streams; enqueue references or schedule it");
    return VX_ERROR_NOT_SUPPORTED;
  }
  if (const vx_status s = prepare_run(graph); s != VX_SUCCESS) return s;
  return run_graph_once(graph);
}

VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (queued(graph)) return schedule_queued(graph);
  if (const vx_status s = prepare_run(graph); s != VX_SUCCESS) return s;
  graph->performance.beg = now_ns();
  if (graph->compiled->submit(kRunTimeout) != vg::Status::ok) {
    graph->state = VX_GRAPH_STATE_VERIFIED;
    return VX_FAILURE;
  }
  graph->scheduled = true;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxWaitGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (queued(graph)) return wait_queued(graph);
  if (!graph->scheduled) return VX_FAILURE;  // nothing scheduled
  const vg::Status status = graph->compiled->wait_submitted(kRunTimeout);
  graph->scheduled = false;
  return finish_frame(graph, status, graph->performance.beg);
}

}  // extern "C"
