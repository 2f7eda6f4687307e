// vx graphs on visiongraph graphs (see execution.hpp), and vxProcessGraph / vxScheduleGraph / vxWaitGraph.
#include "execution.hpp"

#include <VX/vx.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>

#include "context.hpp"
#include "delay.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "pipelining.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::openvx {
namespace {

using vg::Status;

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

void record(vx_perf_t& perf, std::uint64_t begin, std::uint64_t end) noexcept {
  perf.beg = begin;
  perf.end = end;
  perf.tmp = end - begin;
  perf.sum += perf.tmp;
  perf.num += 1;
  perf.avg = perf.sum / perf.num;
  perf.min = perf.num == 1 ? perf.tmp : std::min(perf.min, perf.tmp);
  perf.max = std::max(perf.max, perf.tmp);
}

// Set while this thread runs a kernel callback (see inside_graph_execution).
thread_local int kernel_callbacks_running = 0;

/// Marks the current thread as running a kernel callback for its lifetime.
struct InKernelCallback {
  InKernelCallback() noexcept { ++kernel_callbacks_running; }
  ~InKernelCallback() { --kernel_callbacks_running; }
  InKernelCallback(const InKernelCallback&) = delete;
  InKernelCallback& operator=(const InKernelCallback&) = delete;
};

// ---- the trampoline: one visiongraph kernel per vx kernel, its instance is the vx node ----

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
    const vx_status s = node->kernel->initialize(node, node->arguments.data(), static_cast<vx_uint32>(node->arguments.size()));
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

Status node_process(KernelContext& ctx) noexcept {
  auto* node = static_cast<vx_node>(ctx.instance());
  // Timing costs two clock reads per node: only while performance measurement is on (vxDirective).
  const bool timed = node->context->performance_enabled;
  const std::uint64_t begin = timed ? now_ns() : 0;
  const InKernelCallback in_callback;
  const vx_status s = node->kernel->function(node, node->arguments.data(), static_cast<vx_uint32>(node->arguments.size()));
  if (timed) record(node->performance, begin, now_ns());
  node->status = s;
  // A replica's events and callback are its node's, read here so ones registered after verification count.
  const vx_node owner = node->replica_of != nullptr ? node->replica_of : node;
  if (s != VX_SUCCESS && owner->error_event.registered) {
    vx_event_info_t info{};
    info.node_error = vx_event_node_error{node->graph, owner, s};
    node->context->events.post(VX_EVENT_NODE_ERROR, owner->error_event.app_value, info);
  } else if (s == VX_SUCCESS && owner->completed_event.registered) {
    vx_event_info_t info{};
    info.node_completed = vx_event_node_completed{node->graph, owner};
    node->context->events.post(VX_EVENT_NODE_COMPLETED, owner->completed_event.app_value, info);
  }
  if (s != VX_SUCCESS) {
    ctx.set_error("the kernel function failed");
    return Status::kernel_error;
  }
  if (owner->callback != nullptr && owner->callback(node) == VX_ACTION_ABANDON) {
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
    (void)node->kernel->deinitialize(node, node->arguments.data(), static_cast<vx_uint32>(node->arguments.size()));
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
      if (replica->status != VX_SUCCESS && node->status == VX_SUCCESS) node->status = replica->status;
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

/// The end of a run, on the thread that started (vxProcessGraph) or waited for it (vxWaitGraph): no node
/// runs now. The delays registered for auto-aging age after a completed run and, as the specification
/// says, after one a node callback abandoned.
vx_status finish_run(vx_graph graph, Status status, std::uint64_t begin) noexcept {
  record(graph->performance, begin, now_ns());
  const vx_status result = run_status(graph, status);
  if (result == VX_SUCCESS || result == VX_ERROR_GRAPH_ABANDONED) {
    for (vx_delay delay : graph->auto_aged) {
      if (const vx_status s = age_delay(delay); s != VX_SUCCESS) log(graph, s, "auto-aging a delay after the run failed");
    }
  }
  if (graph->completed_event.registered) {
    vx_event_info_t info{};
    info.graph_completed.graph = graph;
    graph->context->events.post(VX_EVENT_GRAPH_COMPLETED, graph->completed_event.app_value, info);
  }
  return result;
}

/// vxProcessGraph and vxScheduleGraph: verified (now, if needed) and not running.
vx_status prepare_run(vx_graph graph) noexcept {
  if (graph->scheduled) return VX_ERROR_GRAPH_SCHEDULED;
  if (!graph->verified) {
    if (const vx_status s = vxVerifyGraph(graph); s != VX_SUCCESS) return s;
  }
  for (vx_node node : graph->nodes) {
    node->status = VX_SUCCESS;
    node->abandoned = false;
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

}  // namespace

vx_status run_graph_once(vx_graph graph) noexcept {
  for (vx_node node : graph->nodes) {
    node->status = VX_SUCCESS;
    node->abandoned = false;
    for (vx_node replica : node->replicas) {
      replica->status = VX_SUCCESS;
      replica->abandoned = false;
    }
  }
  graph->state = VX_GRAPH_STATE_RUNNING;
  const std::uint64_t begin = now_ns();
  return finish_run(graph, graph->compiled->process(kRunTimeout), begin);
}

/// The visiongraph context an OpenVX context runs its graphs in: the default targets, and the workers'
/// polling before they sleep from VG_OPENVX_SPIN_US when set (0 turns polling off: less CPU while idle,
/// and instruction counts that do not depend on how threads are scheduled).
static vg::ContextConfig runtime_config() {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  if (const char* spin = std::getenv("VG_OPENVX_SPIN_US"); spin != nullptr && spin[0] != '\0') {
    char* end = nullptr;
    const unsigned long value = std::strtoul(spin, &end, 10);
    if (end != nullptr && *end == '\0' && value <= 1'000'000) config.spin_us = static_cast<unsigned>(value);
  }
  return config;
}

vx_status compile_graph(vx_graph graph, const std::vector<std::vector<std::size_t>>& after) noexcept {
  vx_context context = graph->context;
  try {
    if (!context->runtime) context->runtime = std::make_unique<vg::Context>(runtime_config());
    auto compiled = std::make_unique<vg::Graph>(*context->runtime, "vx_graph");
    // What runs: each node, or each replica of a replicated node (all replicas wait for the node's
    // predecessors; its successors wait for all its replicas).
    std::vector<std::vector<vx_node>> runs(graph->nodes.size());
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      vx_node node = graph->nodes[k];
      runs[k] = node->replicated.empty() ? std::vector<vx_node>{node} : make_replicas(node);
    }
    std::vector<bool> is_read(graph->nodes.size(), false);
    for (const auto& list : after) {
      for (std::size_t p : list) is_read[p] = true;
    }
    std::vector<std::vector<DataId>> done(graph->nodes.size());
    std::vector<std::vector<NodeId>> ids(graph->nodes.size());
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      std::size_t inputs = 0;
      for (std::size_t p : after[k]) inputs += runs[p].size();
      for (std::size_t r = 0; r < runs[k].size(); ++r) {
        vx_node run = runs[k][r];
        const std::string name = "n" + std::to_string(k) + (runs[k].size() > 1 ? "r" + std::to_string(r) : "");
        const NodeId id = compiled->add_node(name, runtime_kernel(context, run->kernel, inputs));
        compiled->set_attribute(id, "vx_node", static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(run)));
        if (run->target != "any") compiled->set_target(id, run->target);
        if (is_read[k]) {
          done[k].push_back(compiled->add_virtual("done" + name.substr(1), DataKind::scalar));
          compiled->bind(id, inputs, done[k].back());
        }
        ids[k].push_back(id);
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
    compiled->set_pipeline_depth(1);  // one run at a time: the vx objects are the data, single-buffered
    compiled->verify();               // initializers run here, each on its node's target
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
  for (vx_node node : graph->nodes) {
    if (!valid(node, VX_TYPE_NODE)) continue;  // the context is going: it deletes every node itself
    for (vx_node replica : node->replicas) (void)release(replica, Hold::internal);
    node->replicas.clear();
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
  return finish_run(graph, status, graph->performance.beg);
}

}  // extern "C"
