// vx graphs on visiongraph graphs (see execution.hpp), and vxProcessGraph / vxScheduleGraph / vxWaitGraph.
#include "execution.hpp"

#include <VX/vx.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>

#include "context.hpp"
#include "graph.hpp"
#include "kernel.hpp"
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
  const vx_status s = node->kernel->function(node, node->arguments.data(), static_cast<vx_uint32>(node->arguments.size()));
  if (timed) record(node->performance, begin, now_ns());
  node->status = s;
  if (s != VX_SUCCESS) {
    ctx.set_error("the kernel function failed");
    return Status::kernel_error;
  }
  if (node->callback != nullptr && node->callback(node) == VX_ACTION_ABANDON) {
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
    (void)node->kernel->deinitialize(node, node->arguments.data(), static_cast<vx_uint32>(node->arguments.size()));
  }
  if (!node->local_data_set_by_user) {
    std::free(node->local_data);
    node->local_data = nullptr;
  }
}

/// The visiongraph kernel running @p kernel: declared (one input or output per vx parameter; the data are
/// tokens that only order the nodes) the first time a graph using it is compiled.
const std::string& runtime_kernel(vx_context context, vx_kernel kernel) {
  if (!kernel->runtime_kernel.empty()) return kernel->runtime_kernel;
  const std::string name = "vx." + std::to_string(context->runtime_kernels++) + "." + kernel->kernel_name;
  KernelDecl decl(name, "the OpenVX kernel " + kernel->kernel_name);
  std::vector<std::size_t> outputs;
  for (std::size_t i = 0; i < kernel->signature.size(); ++i) {
    const std::string param = "p" + std::to_string(i);
    if (kernel->signature[i].direction == VX_INPUT) {
      decl.input(param, DataKind::scalar, false);
    } else {
      decl.output(param, DataKind::scalar, false);
      outputs.push_back(i);
    }
  }
  decl.required_attribute("vx_node", AttrType::integer);
  decl.validate([outputs](ValidateContext& v) {
    for (std::size_t i : outputs) {
      if (v.is_bound(i)) v.set_meta(i, DataMeta::scalar_of(ElementType::u8));
    }
  });
  vg::Module module(name);
  module.add(std::move(decl));
  const KernelCallbacks callbacks{&node_create, &node_process, nullptr, &node_destroy, nullptr};
  for (const char* target_kind : {"cpu", "npu"}) module.implement(name, target_kind, callbacks);
  context->runtime->load_module(std::move(module));
  kernel->runtime_kernel = name;
  return kernel->runtime_kernel;
}

/// What a finished run says, as the vx status (and the graph's state).
vx_status finish_run(vx_graph graph, Status status, std::uint64_t begin) noexcept {
  record(graph->performance, begin, now_ns());
  if (status == Status::ok) {
    graph->state = VX_GRAPH_STATE_COMPLETED;
    return VX_SUCCESS;
  }
  graph->state = VX_GRAPH_STATE_ABANDONED;
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

vx_status compile_graph(vx_graph graph) noexcept {
  vx_context context = graph->context;
  try {
    if (!context->runtime) context->runtime = std::make_unique<vg::Context>();
    auto compiled = std::make_unique<vg::Graph>(*context->runtime, "vx_graph");
    std::map<vx_reference, DataId> tokens;
    // Objects some node writes are virtual tokens (the writer's validate types them); the rest are inputs.
    std::map<vx_reference, bool> written;
    for (vx_node node : graph->nodes) {
      for (std::size_t i = 0; i < node->arguments.size(); ++i) {
        if (node->arguments[i] != nullptr && node->kernel->signature[i].direction != VX_INPUT)
          written[node->arguments[i]] = true;
      }
    }
    for (std::size_t k = 0; k < graph->nodes.size(); ++k) {
      vx_node node = graph->nodes[k];
      const std::string& kernel = runtime_kernel(context, node->kernel);
      const NodeId id = compiled->add_node("n" + std::to_string(k), kernel);
      compiled->set_attribute(id, "vx_node", static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(node)));
      if (node->target != "any") compiled->set_target(id, node->target);
      for (std::size_t i = 0; i < node->arguments.size(); ++i) {
        vx_reference a = node->arguments[i];
        if (a == nullptr) continue;
        auto it = tokens.find(a);
        if (it == tokens.end()) {
          const std::string name = "d" + std::to_string(tokens.size());
          const DataId data = written.count(a) != 0 ? compiled->add_virtual(name, DataKind::scalar)
                                                    : compiled->add_data(name, DataMeta::scalar_of(ElementType::u8));
          it = tokens.emplace(a, data).first;
        }
        compiled->bind(id, i, it->second);
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
  // Moved out first: deinitializers may call back into the library with the graph's nodes.
  std::unique_ptr<vg::Graph> compiled = std::move(graph->compiled);
  graph->scheduled = false;
  compiled.reset();
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxProcessGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = prepare_run(graph); s != VX_SUCCESS) return s;
  const std::uint64_t begin = now_ns();
  return finish_run(graph, graph->compiled->process(kRunTimeout), begin);
}

VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
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
  if (!graph->scheduled) return VX_FAILURE;  // nothing scheduled
  const vg::Status status = graph->compiled->wait_submitted(kRunTimeout);
  graph->scheduled = false;
  return finish_run(graph, status, graph->performance.beg);
}

}  // extern "C"
