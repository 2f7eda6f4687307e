// Graphs, nodes and the parameters that connect data objects to them.
#include "graph.hpp"

#include <VX/vx_khr_pipelining.h>

#include <algorithm>

#include "context.hpp"
#include "delay.hpp"
#include "error_object.hpp"
#include "execution.hpp"
#include "kernel.hpp"
#include "pipelining.hpp"
#include "visiongraph/graph/graph.hpp"

using namespace vg::openvx;

_vx_node::_vx_node(vx_context owner, vx_graph graph_, vx_kernel kernel_) noexcept
    : _vx_reference(VX_TYPE_NODE, owner), graph(graph_), kernel(kernel_) {
  retain(kernel, Hold::internal);
  border.mode = VX_BORDER_UNDEFINED;
  local_data_size = kernel->local_data_size;
}

_vx_node::~_vx_node() {
  for (vx_node replica : replicas) (void)release(replica, Hold::internal);  // a no-op once the context is going
  forget_delay_uses(this);
  for (vx_reference& a : arguments) {
    if (a != nullptr) (void)release(a, Hold::internal);
  }
  (void)release(kernel, Hold::internal);
}

vx_status _vx_node::set_argument(vx_uint32 index, vx_reference value) noexcept {
  // Recorded first: the only step that can fail, so a failure changes nothing.
  if (const vx_status s = track_delay_use(this, index, arguments[index], value); s != VX_SUCCESS) return s;
  if (value != nullptr) retain(value, Hold::internal);
  vx_reference old = arguments[index];
  arguments[index] = value;
  if (old != nullptr) (void)release(old, Hold::internal);
  if (graph != nullptr) graph->changed();
  return VX_SUCCESS;
}

_vx_graph::_vx_graph(vx_context owner) noexcept : _vx_reference(VX_TYPE_GRAPH, owner), schedule_mode(VX_GRAPH_SCHEDULE_MODE_NORMAL) {}

void _vx_graph::changed() noexcept {
  verified = false;
  state = VX_GRAPH_STATE_UNVERIFIED;
  vg::openvx::release_compiled_graph(this);
}

_vx_graph::~_vx_graph() {
  vg::openvx::release_compiled_graph(this);  // before the nodes its deinitializers are given
  for (vx_node n : nodes) {
    if (in_teardown()) break;  // the context is going: it deletes the nodes itself
    n->graph = nullptr;  // a node the application still holds outlives its graph, detached
    (void)release(n, Hold::internal);
  }
  for (vx_delay delay : auto_aged) (void)release(delay, Hold::internal);  // a no-op when the context is going
}

/// Checks @p value (an object; null for NULL) against parameter @p index of @p node and sets it.
vx_status vg::openvx::set_node_argument(vx_node node, vx_uint32 index, vx_reference value) noexcept {
  if (index >= node->arguments.size()) return VX_ERROR_INVALID_PARAMETERS;
  // NULL unsets an optional parameter (a required one stays refused: verification would fail anyway).
  if (value == nullptr && node->kernel->signature[index].state == VX_PARAMETER_STATE_OPTIONAL) return node->set_argument(index, nullptr);
  if (value == nullptr || value->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  if (value->context != node->context) {
    log(node, VX_ERROR_INVALID_REFERENCE, "node '%s' parameter %u: the object belongs to another context",
        node->kernel->kernel_name.c_str(), index);
    return VX_ERROR_INVALID_REFERENCE;
  }
  const ParameterSignature& sig = node->kernel->signature[index];
  if (sig.type != VX_TYPE_REFERENCE && value->type != sig.type) {
    log(node, VX_ERROR_INVALID_TYPE, "node '%s' parameter %u: expects type 0x%x, got 0x%x", node->kernel->kernel_name.c_str(),
        index, static_cast<unsigned>(sig.type), static_cast<unsigned>(value->type));
    return VX_ERROR_INVALID_TYPE;
  }
  if (value->type == VX_TYPE_DELAY && sig.direction != VX_INPUT) {
    log(node, VX_ERROR_INVALID_PARAMETERS, "node '%s' parameter %u: a delay cannot be an output", node->kernel->kernel_name.c_str(), index);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return node->set_argument(index, value);
}

namespace {

/// A handle the application passed as a node argument: the object it names, or null (NULL, or a handle
/// that is not live: then @p refused is set).
vx_reference argument_object(vx_reference value, bool& refused) noexcept {
  refused = value != nullptr && !valid(value);
  return refused ? nullptr : value;
}

bool node_in_graph(vx_graph graph, vx_node node) noexcept {
  return std::find(graph->nodes.begin(), graph->nodes.end(), node) != graph->nodes.end();
}

}  // namespace

extern "C" {

// --- graphs ----------------------------------------------------------------------------------------------

VX_API_ENTRY vx_graph VX_API_CALL vxCreateGraph(vx_context context) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  auto* graph = new (std::nothrow) _vx_graph(context);
  if (graph == nullptr) return to_handle(reinterpret_cast<vx_graph>(error_object(context, VX_ERROR_NO_MEMORY)));
  vx_reference ref = adopt(graph, Hold::external);
  return to_handle(ref != nullptr ? reinterpret_cast<vx_graph>(ref) : reinterpret_cast<vx_graph>(error_object(context, VX_ERROR_NO_MEMORY)));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseGraph(vx_graph* graph) { return release_handle(graph, VX_TYPE_GRAPH); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryGraph(vx_graph graph, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_GRAPH_NUMNODES: return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(graph->nodes.size()));
    case VX_GRAPH_PERFORMANCE: return put<vx_perf_t>(ptr, size, graph->performance);
    case VX_GRAPH_NUMPARAMETERS: return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(graph->parameters.size()));
    case VX_GRAPH_STATE: return put<vx_enum>(ptr, size, graph->state);
    case VX_GRAPH_SCHEDULE_MODE: return put<vx_enum>(ptr, size, graph->schedule_mode);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetGraphAttribute(vx_graph graph, vx_enum attribute, const void* ptr, vx_size size) {
  (void)ptr;
  (void)size;
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_GRAPH_NUMNODES:
    case VX_GRAPH_PERFORMANCE:
    case VX_GRAPH_NUMPARAMETERS:
    case VX_GRAPH_STATE: return VX_ERROR_NOT_SUPPORTED;  // read-only
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_bool VX_API_CALL vxIsGraphVerified(vx_graph graph) {
  return valid(graph, VX_TYPE_GRAPH) && graph->verified ? vx_true_e : vx_false_e;
}

VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToGraph(vx_graph graph, vx_parameter parameter) {
  if (!valid(graph, VX_TYPE_GRAPH) || !valid(parameter, VX_TYPE_PARAMETER)) return VX_ERROR_INVALID_REFERENCE;
  if (parameter->node == nullptr || !node_in_graph(graph, parameter->node)) return VX_ERROR_INVALID_PARAMETERS;
  for (const GraphParameter& p : graph->parameters) {
    // One node parameter set through two graph parameters would have two values at once.
    if (p.node == parameter->node && p.index == parameter->index) {
      log(graph, VX_ERROR_INVALID_PARAMETERS, "vxAddParameterToGraph: parameter %u of node '%s' is a graph parameter already",
          parameter->index, parameter->node->name);
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  try {
    graph->parameters.push_back({parameter->node, parameter->index});
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  graph->changed();
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetGraphParameterByIndex(vx_graph graph, vx_uint32 index, vx_reference value) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (index >= graph->parameters.size()) return VX_ERROR_INVALID_VALUE;
  bool refused = false;
  value = argument_object(value, refused);
  if (refused) return VX_ERROR_INVALID_REFERENCE;
  const GraphParameter& p = graph->parameters[index];
  return set_node_argument(p.node, p.index, value);
}

VX_API_ENTRY vx_parameter VX_API_CALL vxGetGraphParameterByIndex(vx_graph graph, vx_uint32 index) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (index >= graph->parameters.size()) return to_handle(reinterpret_cast<vx_parameter>(error_object(graph, VX_ERROR_INVALID_PARAMETERS)));
  const GraphParameter& p = graph->parameters[index];
  return to_handle(make_parameter(graph, p.node->kernel, p.node, p.index));
}

// --- nodes -----------------------------------------------------------------------------------------------

}  // extern "C"

vx_node vg::openvx::create_generic_node(vx_graph graph, vx_kernel kernel) noexcept {
  if (!kernel->finalized || kernel->removed || kernel->context != graph->context) {
    return reinterpret_cast<vx_node>(error_object(graph, VX_ERROR_INVALID_REFERENCE));
  }
  auto* node = new (std::nothrow) _vx_node(graph->context, graph, kernel);
  if (node == nullptr) return reinterpret_cast<vx_node>(error_object(graph, VX_ERROR_NO_MEMORY));
  try {
    node->arguments.assign(kernel->signature.size(), nullptr);
    graph->nodes.reserve(graph->nodes.size() + 1);
  } catch (...) {
    delete node;
    return reinterpret_cast<vx_node>(error_object(graph, VX_ERROR_NO_MEMORY));
  }
  // The graph holds its nodes; the caller gets a handle of its own to release.
  vx_reference ref = adopt(node, Hold::internal);
  if (ref == nullptr) return reinterpret_cast<vx_node>(error_object(graph, VX_ERROR_NO_MEMORY));
  retain(ref, Hold::external);
  graph->nodes.push_back(node);
  graph->changed();
  return node;
}

extern "C" {

VX_API_ENTRY vx_node VX_API_CALL vxCreateGenericNode(vx_graph graph, vx_kernel kernel) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (!valid(kernel, VX_TYPE_KERNEL)) return to_handle(reinterpret_cast<vx_node>(error_object(graph, VX_ERROR_INVALID_REFERENCE)));
  return to_handle(create_generic_node(graph, kernel));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryNode(vx_node node, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_NODE_STATUS: return put<vx_status>(ptr, size, node->status);
    case VX_NODE_PERFORMANCE: return put<vx_perf_t>(ptr, size, node->performance);
    case VX_NODE_BORDER: return put<vx_border_t>(ptr, size, node->border);
    case VX_NODE_LOCAL_DATA_SIZE: return put<vx_size>(ptr, size, node->local_data_size);
    case VX_NODE_LOCAL_DATA_PTR: return put<void*>(ptr, size, node->local_data);
    case VX_NODE_PARAMETERS: return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(node->arguments.size()));
    case VX_NODE_IS_REPLICATED: return put<vx_bool>(ptr, size, node->replicated.empty() ? vx_false_e : vx_true_e);
    case VX_NODE_REPLICATE_FLAGS: {
      const vx_size n = node->arguments.size();
      if (ptr == nullptr || size != n * sizeof(vx_bool)) return VX_ERROR_INVALID_PARAMETERS;
      auto* flags = static_cast<vx_bool*>(ptr);
      for (vx_size i = 0; i < n; ++i) flags[i] = node->replicated.empty() ? vx_false_e : node->replicated[i];
      return VX_SUCCESS;
    }
    case VX_NODE_VALID_RECT_RESET: return put<vx_bool>(ptr, size, node->valid_rect_reset ? vx_true_e : vx_false_e);
    case VX_NODE_STATE: return put<vx_enum>(ptr, size, node->state.load(std::memory_order_acquire));
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetNodeAttribute(vx_node node, vx_enum attribute, const void* ptr, vx_size size) {
  if (!valid(node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  const bool verified = node->graph != nullptr && node->graph->verified;
  switch (attribute) {
    case VX_NODE_BORDER: {
      vx_border_t border{};
      if (const vx_status s = get(ptr, size, border); s != VX_SUCCESS) return s;
      if (border.mode != VX_BORDER_UNDEFINED && border.mode != VX_BORDER_CONSTANT && border.mode != VX_BORDER_REPLICATE) {
        return VX_ERROR_INVALID_VALUE;
      }
      node->border = border;
      if (node->graph != nullptr) node->graph->changed();
      return VX_SUCCESS;
    }
    case VX_NODE_LOCAL_DATA_SIZE:
      // Node local data is the application's to size only when the kernel does not size it, and before verify.
      if (verified || node->kernel->local_data_size != 0) return VX_ERROR_NOT_SUPPORTED;
      return get(ptr, size, node->local_data_size);
    case VX_NODE_LOCAL_DATA_PTR: {
      if (verified || node->kernel->local_data_size != 0) return VX_ERROR_NOT_SUPPORTED;
      const vx_status s = get(ptr, size, node->local_data);
      if (s == VX_SUCCESS) node->local_data_set_by_user = true;
      return s;
    }
    case VX_NODE_VALID_RECT_RESET: {
      vx_bool reset = vx_false_e;
      if (const vx_status s = get(ptr, size, reset); s != VX_SUCCESS) return s;
      node->valid_rect_reset = reset == vx_true_e;
      return VX_SUCCESS;
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseNode(vx_node* node) { return release_handle(node, VX_TYPE_NODE); }

VX_API_ENTRY vx_status VX_API_CALL vxRemoveNode(vx_node* node) {
  if (node == nullptr) return VX_ERROR_INVALID_REFERENCE;
  vx_node n = *node;  // the application's variable keeps its handle until it is cleared
  if (!valid(n, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  if (vx_graph graph = n->graph; graph != nullptr) {
    auto& ps = graph->parameters;
    ps.erase(std::remove_if(ps.begin(), ps.end(), [n](const GraphParameter& p) { return p.node == n; }), ps.end());
    graph->nodes.erase(std::remove(graph->nodes.begin(), graph->nodes.end(), n), graph->nodes.end());
    graph->changed();
    n->graph = nullptr;
    (void)release(n, Hold::internal);
  }
  return release_handle(node, VX_TYPE_NODE);
}

VX_API_ENTRY vx_status VX_API_CALL vxAssignNodeCallback(vx_node node, vx_nodecomplete_f callback) {
  if (!valid(node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  // One callback at a time: a second one must follow a NULL assignment.
  if (callback != nullptr && node->callback != nullptr) return VX_ERROR_NOT_SUPPORTED;
  node->callback = callback;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_nodecomplete_f VX_API_CALL vxRetrieveNodeCallback(vx_node node) {
  return valid(node, VX_TYPE_NODE) ? node->callback : nullptr;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetNodeTarget(vx_node node, vx_enum target_enum, const char* target_string) {
  if (!valid(node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  std::string name;
  if (const vx_status s = node->context->resolve_target(target_enum, target_string, name); s != VX_SUCCESS) return s;
  node->target = std::move(name);
  if (node->graph != nullptr) node->graph->changed();
  return VX_SUCCESS;
}

// --- parameters ------------------------------------------------------------------------------------------

VX_API_ENTRY vx_parameter VX_API_CALL vxGetParameterByIndex(vx_node node, vx_uint32 index) {
  if (!valid(node, VX_TYPE_NODE)) return nullptr;
  return to_handle(make_parameter(node, node->kernel, node, index));
}

VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByIndex(vx_node node, vx_uint32 index, vx_reference value) {
  if (!valid(node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  bool refused = false;
  value = argument_object(value, refused);
  if (refused) return VX_ERROR_INVALID_REFERENCE;
  return set_node_argument(node, index, value);
}

VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByReference(vx_parameter parameter, vx_reference value) {
  if (!valid(parameter, VX_TYPE_PARAMETER)) return VX_ERROR_INVALID_REFERENCE;
  if (parameter->node == nullptr) return VX_ERROR_INVALID_PARAMETERS;  // a kernel's parameter (the parameter holds its node)
  bool refused = false;
  value = argument_object(value, refused);
  if (refused) return VX_ERROR_INVALID_REFERENCE;
  return set_node_argument(parameter->node, parameter->index, value);
}

}  // extern "C"
