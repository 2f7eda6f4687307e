// vxReplicateNode: one node run once per item of the object arrays (or levels of the pyramids) its
// replicated parameters belong to. The node is set up with item 0; replica i gets item i.
#include <VX/vx.h>

#include "context.hpp"
#include "data_object.hpp"
#include "graph.hpp"
#include "kernel.hpp"

namespace vg::openvx {
namespace {

/// What @p item is part of: how many items its object array or pyramid has (0 when it is neither an item
/// nor a level), its own position, and item @p wanted (null when out of range).
struct Siblings {
  std::size_t count = 0;
  std::size_t position = 0;
  vx_reference wanted = nullptr;
};

Siblings siblings(vx_reference item, std::size_t wanted) noexcept {
  Siblings s;
  if (item == nullptr || item->container == nullptr) return s;
  s.count = item_count(item->container);
  if (!item_index(item->container, item, s.position)) s.position = s.count;
  s.wanted = item_at(item->container, wanted);
  return s;
}

}  // namespace

std::size_t replica_count(vx_node node) noexcept {
  for (std::size_t i = 0; i < node->replicated.size(); ++i) {
    if (node->replicated[i] == vx_true_e) return siblings(node->arguments[i], 0).count;
  }
  return 0;
}

vx_reference replica_argument(vx_node node, vx_uint32 index, std::size_t replica) noexcept {
  if (node->replicated.empty() || node->replicated[index] != vx_true_e) return node->arguments[index];
  return siblings(node->arguments[index], replica).wanted;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxReplicateNode(vx_graph graph, vx_node first_node, vx_bool replicate[], vx_uint32 number_of_parameters) {
  if (!valid(graph, VX_TYPE_GRAPH) || !valid(first_node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
  if (first_node->graph != graph || replicate == nullptr || number_of_parameters != first_node->arguments.size()) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  // Every replicated parameter is item 0 of a container, and the containers have as many items.
  std::size_t count = 0;
  bool any = false;
  for (vx_uint32 i = 0; i < number_of_parameters; ++i) {
    if (replicate[i] != vx_true_e) continue;
    any = true;
    const Siblings found = siblings(first_node->arguments[i], 0);
    const std::size_t items = found.count, position = found.position;
    if (items == 0 || position != 0) {
      log(first_node, VX_ERROR_INVALID_PARAMETERS,
          "vxReplicateNode: parameter %u must be item 0 of an object array or level 0 of a pyramid", i);
      return VX_ERROR_INVALID_PARAMETERS;
    }
    if (count != 0 && items != count) {
      log(first_node, VX_ERROR_INVALID_PARAMETERS, "vxReplicateNode: parameter %u has %zu items, another replicated one %zu", i, items, count);
      return VX_ERROR_INVALID_PARAMETERS;
    }
    count = items;
  }
  if (!any) return VX_ERROR_INVALID_PARAMETERS;
  try {
    first_node->replicated.assign(replicate, replicate + number_of_parameters);
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  graph->changed();
  return VX_SUCCESS;
}

}  // extern "C"
