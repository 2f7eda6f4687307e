// Node creators of the implemented standard kernels (vxNotNode, vxAndNode, vxOrNode, vxAddNode,
// vxMeanStdDevNode): a generic node of the standard kernel with its arguments set. Value arguments (Add's
// policy) become scalars the node holds.
#include <VX/vx.h>

#include <initializer_list>

#include "context.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "kernel.hpp"

namespace {

using namespace vg::openvx;

struct Argument {
  vx_reference value;  // null: left unset (only for an optional parameter)
  const char* name;    // the specification's parameter name, for the log
};

/// The standard kernel with @p kernel_enum of @p graph's context (not held: the context holds it).
vx_kernel standard_kernel(vx_graph graph, vx_enum kernel_enum) noexcept {
  const std::lock_guard guard(graph->context->lock);
  for (vx_kernel k : graph->context->kernels) {
    if (!k->user && k->enumeration == kernel_enum) return k;
  }
  return nullptr;
}

vx_node fail(vx_graph graph, vx_status status) noexcept { return reinterpret_cast<vx_node>(error_object(graph, status)); }

/// A node of standard kernel @p kernel_enum in @p graph with @p arguments set in parameter order. When an
/// argument is refused (a null required one, a released or wrong-typed object, one of another context),
/// the node goes again and the caller gets an error object with the reason in the log.
vx_node standard_node(vx_graph graph, vx_enum kernel_enum, const char* creator, std::initializer_list<Argument> arguments) noexcept {
  vx_kernel kernel = standard_kernel(graph, kernel_enum);
  if (kernel == nullptr) return fail(graph, VX_ERROR_NOT_IMPLEMENTED);
  vx_node node = vxCreateGenericNode(graph, kernel);
  if (const vx_status s = vxGetStatus(reinterpret_cast<vx_reference>(node)); s != VX_SUCCESS) return fail(graph, s);
  vx_uint32 index = 0;
  for (const Argument& a : arguments) {
    vx_status status = VX_SUCCESS;
    if (a.value == nullptr) {
      if (kernel->signature[index].state == VX_PARAMETER_STATE_OPTIONAL) {
        ++index;
        continue;
      }
      status = VX_ERROR_INVALID_REFERENCE;
      log(graph, status, "%s: %s is NULL but required", creator, a.name);
    } else {
      status = vxSetParameterByIndex(node, index, a.value);
      if (status != VX_SUCCESS) log(graph, status, "%s: %s is not a valid object of the expected type in this context", creator, a.name);
    }
    if (status != VX_SUCCESS) {
      (void)vxRemoveNode(&node);
      return fail(graph, status);
    }
    ++index;
  }
  return node;
}

vx_reference as_reference(void* handle) noexcept { return static_cast<vx_reference>(handle); }

}  // namespace

extern "C" {

VX_API_ENTRY vx_node VX_API_CALL vxNotNode(vx_graph graph, vx_image input, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_NOT, "vxNotNode", {{as_reference(input), "input"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxAndNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_AND, "vxAndNode",
                       {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {as_reference(out), "out"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxOrNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_OR, "vxOrNode", {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {as_reference(out), "out"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxAddNode(vx_graph graph, vx_image in1, vx_image in2, vx_enum policy, vx_image out) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  // The policy travels as a scalar the node holds; the application never sees it.
  vx_scalar policy_scalar = vxCreateScalar(graph->context, VX_TYPE_ENUM, &policy);
  if (const vx_status s = vxGetStatus(as_reference(policy_scalar)); s != VX_SUCCESS) return fail(graph, s);
  vx_node node = standard_node(graph, VX_KERNEL_ADD, "vxAddNode",
                               {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {as_reference(policy_scalar), "policy"},
                                {as_reference(out), "out"}});
  (void)vxReleaseScalar(&policy_scalar);
  return node;
}

VX_API_ENTRY vx_node VX_API_CALL vxMeanStdDevNode(vx_graph graph, vx_image input, vx_scalar mean, vx_scalar stddev) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_MEAN_STDDEV, "vxMeanStdDevNode",
                       {{as_reference(input), "input"}, {as_reference(mean), "mean"}, {as_reference(stddev), "stddev"}});
}

}  // extern "C"
