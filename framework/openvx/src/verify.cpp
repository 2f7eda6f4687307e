// vxVerifyGraph: the checks the specification asks of verification (every required parameter set, one
// writer per object, no cycle, each kernel's validate callback with meta formats checked against the
// outputs), run in data-flow order; then the graph is compiled to run (execution.cpp).
#include <VX/vx.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <vector>

#include "context.hpp"
#include "data_object.hpp"
#include "delay.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "meta_format.hpp"
#include "pyramid.hpp"
#include "scalar.hpp"

namespace {

using namespace vg::openvx;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
vx_status fail(vx_graph graph, vx_node node, vx_status status, const char* format, ...) {
  if (node != nullptr) node->status = status;
  char why[VX_MAX_LOG_MESSAGE_LEN];
  va_list args;
  va_start(args, format);
  std::vsnprintf(why, sizeof why, format, args);
  va_end(args);
  if (node == nullptr) {
    log(graph, status, "vxVerifyGraph: %s", why);
  } else {
    log(graph, status, "vxVerifyGraph: node '%s' (kernel %s): %s", node->name, node->kernel->kernel_name.c_str(), why);
  }
  return status;
}

/// Data-flow order of the graph's nodes; empty when there is a cycle.
std::vector<std::size_t> flow_order(const std::vector<std::vector<std::size_t>>& after) {
  const std::size_t n = after.size();
  std::vector<std::vector<std::size_t>> consumers(n);
  std::vector<std::size_t> waiting(n, 0);
  for (std::size_t c = 0; c < n; ++c) {
    waiting[c] = after[c].size();
    for (std::size_t p : after[c]) consumers[p].push_back(c);
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) order.push_back(i);
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    for (std::size_t c : consumers[order[k]]) {
      if (--waiting[c] == 0) order.push_back(c);
    }
  }
  if (order.size() != n) order.clear();
  return order;
}

/// Applies (virtual objects) or checks (the others) what validate said output @p index will be.
vx_status apply_output_meta(vx_graph graph, vx_node node, vx_uint32 index, vx_meta_format meta) {
  char why[VX_MAX_LOG_MESSAGE_LEN / 2] = {};
  const vx_status status = apply_meta(node->arguments[index], meta, why, sizeof why);
  if (status != VX_SUCCESS) return fail(graph, node, status, "output parameter %u: %s", index, why[0] != 0 ? why : "no memory");
  return VX_SUCCESS;
}

/// The images an image or pyramid argument stands for (one, or one per level); empty for other types.
std::vector<vx_image> images_of(vx_reference argument) {
  if (argument == nullptr) return {};
  if (argument->type == VX_TYPE_IMAGE) return {reinterpret_cast<vx_image>(argument)};
  if (argument->type == VX_TYPE_PYRAMID) return reinterpret_cast<vx_pyramid>(argument)->images;
  return {};
}

/// VX_VALID_RECT_CALLBACK: an output whose validate set one gets its valid rectangles (one per image, one
/// per pyramid level) from the callback, given those of the node's input images and pyramid levels in
/// parameter order. Nodes are validated in data-flow order, so inputs already hold what their producers
/// said. With VX_NODE_VALID_RECT_RESET the outputs are the full image instead and the callback is not called.
vx_status apply_valid_rectangles(vx_graph graph, vx_node node, const std::vector<vx_meta_format>& metas) {
  std::vector<vx_rectangle_t> inputs;
  for (std::size_t i = 0; i < node->arguments.size(); ++i) {
    if (node->kernel->signature[i].direction != VX_INPUT) continue;
    for (vx_image image : images_of(node->arguments[i])) inputs.push_back(image->valid);
  }
  std::vector<const vx_rectangle_t*> input_pointers;
  for (const vx_rectangle_t& r : inputs) input_pointers.push_back(&r);
  for (std::size_t i = 0; i < metas.size(); ++i) {
    if (metas[i] == nullptr || metas[i]->valid_rect_callback == nullptr) continue;
    const std::vector<vx_image> outputs = images_of(node->arguments[i]);
    if (outputs.empty()) {
      return fail(graph, node, VX_ERROR_INVALID_TYPE, "output parameter %zu: a valid-rectangle callback needs an image or pyramid output", i);
    }
    std::vector<vx_rectangle_t> rectangles;
    for (vx_image image : outputs) rectangles.push_back(vx_rectangle_t{0, 0, image->width, image->height});
    if (!node->valid_rect_reset) {
      std::vector<vx_rectangle_t*> output_pointers;
      for (vx_rectangle_t& r : rectangles) output_pointers.push_back(&r);
      const vx_status status = metas[i]->valid_rect_callback(to_handle(node), static_cast<vx_uint32>(i), input_pointers.data(),
                                                             output_pointers.data());  // user code
      if (status != VX_SUCCESS) {
        return fail(graph, node, status, "output parameter %zu: its valid-rectangle callback returned %d", i, static_cast<int>(status));
      }
    }
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const vx_rectangle_t& r = rectangles[k];
      if (r.start_x > r.end_x || r.start_y > r.end_y || r.end_x > outputs[k]->width || r.end_y > outputs[k]->height) {
        return fail(graph, node, VX_ERROR_INVALID_PARAMETERS,
                    "output parameter %zu: the valid-rectangle callback gave (%u,%u)-(%u,%u) for a %ux%u image", i,
                    r.start_x, r.start_y, r.end_x, r.end_y, outputs[k]->width, outputs[k]->height);
      }
      outputs[k]->valid = r;
    }
  }
  return VX_SUCCESS;
}

/// The kernel's validate callback (user code) for @p node with @p arguments and @p metas: it is given
/// their handles, as every callback is.
vx_status call_validate(vx_node node, const std::vector<vx_reference>& arguments, const std::vector<vx_meta_format>& metas) {
  const vx_size n = arguments.size();
  std::vector<vx_reference> argument_handles(n, nullptr);
  std::vector<vx_reference> meta_handles(n, nullptr);
  to_handles(arguments.data(), n, argument_handles.data());
  to_handles(reinterpret_cast<const vx_reference*>(metas.data()), n, meta_handles.data());
  return node->kernel->validate(to_handle(node), argument_handles.data(), static_cast<vx_uint32>(n),
                                reinterpret_cast<vx_meta_format*>(meta_handles.data()));
}

/// A node replicated over the levels of a pyramid: its replicas see images of other sizes than item 0.
bool over_pyramid_levels(vx_node node) {
  for (std::size_t i = 0; i < node->replicated.size() && i < node->arguments.size(); ++i) {
    const vx_reference a = node->arguments[i];
    if (node->replicated[i] == vx_true_e && a != nullptr && a->container != nullptr && a->container->type == VX_TYPE_PYRAMID) return true;
  }
  return false;
}

/// Replicas 1.. of a node replicated over pyramid levels: validate runs again with each replica's
/// arguments (level sizes differ from level 0's), and what it says applies to that replica's outputs.
vx_status validate_replicas(vx_graph graph, vx_node node) {
  const std::size_t n = node->arguments.size(), count = replica_count(node);
  vx_status status = VX_SUCCESS;
  for (std::size_t r = 1; r < count && status == VX_SUCCESS; ++r) {
    std::vector<vx_reference> arguments(n, nullptr);
    std::vector<vx_meta_format> metas(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) arguments[i] = replica_argument(node, static_cast<vx_uint32>(i), r);
    for (std::size_t i = 0; i < n && status == VX_SUCCESS; ++i) {
      if (node->kernel->signature[i].direction == VX_INPUT || arguments[i] == nullptr) continue;
      metas[i] = make_meta_format(graph->context, arguments[i]->type);
      if (metas[i] == nullptr) status = VX_ERROR_NO_MEMORY;
    }
    if (status == VX_SUCCESS) status = call_validate(node, arguments, metas);
    if (status != VX_SUCCESS) (void)fail(graph, node, status, "replica %zu: its validate callback returned %d", r, static_cast<int>(status));
    for (std::size_t i = 0; i < n && status == VX_SUCCESS; ++i) {
      if (metas[i] == nullptr) continue;
      char why[VX_MAX_LOG_MESSAGE_LEN / 2] = {};
      status = apply_meta(arguments[i], metas[i], why, sizeof why);
      if (status != VX_SUCCESS) (void)fail(graph, node, status, "output parameter %zu, replica %zu: %s", i, r, why);
    }
    for (vx_meta_format m : metas) {
      if (m != nullptr) (void)release(m, Hold::internal);
    }
  }
  return status;
}

vx_status validate_node(vx_graph graph, vx_node node) {
  const std::size_t n = node->arguments.size();
  std::vector<vx_meta_format> metas;
  metas.resize(n, nullptr);
  vx_status status = VX_SUCCESS;
  if (node->kernel->validate == nullptr) return VX_SUCCESS;  // a user kernel without one: nothing to check or apply
  for (std::size_t i = 0; i < n && status == VX_SUCCESS; ++i) {
    if (node->kernel->signature[i].direction == VX_INPUT || node->arguments[i] == nullptr) continue;
    metas[i] = make_meta_format(graph->context, node->arguments[i]->type);
    if (metas[i] == nullptr) status = VX_ERROR_NO_MEMORY;
  }
  if (status == VX_SUCCESS) {
    status = call_validate(node, node->arguments, metas);
    if (status != VX_SUCCESS) (void)fail(graph, node, status, "its validate callback returned %d", static_cast<int>(status));
  }
  const bool per_level = over_pyramid_levels(node);
  for (std::size_t i = 0; i < n && status == VX_SUCCESS; ++i) {
    if (metas[i] != nullptr) status = apply_output_meta(graph, node, static_cast<vx_uint32>(i), metas[i]);
    // A replicated output: what validate said of item 0 holds for every item (object array items are
    // alike; pyramid levels are not, they are validated one by one below).
    if (status == VX_SUCCESS && !per_level && metas[i] != nullptr && !node->replicated.empty() && node->replicated[i] == vx_true_e) {
      const std::size_t count = replica_count(node);
      for (std::size_t r = 1; r < count && status == VX_SUCCESS; ++r) {
        char why[VX_MAX_LOG_MESSAGE_LEN / 2] = {};
        status = apply_meta(replica_argument(node, static_cast<vx_uint32>(i), r), metas[i], why, sizeof why);
        if (status != VX_SUCCESS) (void)fail(graph, node, status, "output parameter %zu, replica %zu: %s", i, r, why);
      }
    }
  }
  if (status == VX_SUCCESS && per_level) status = validate_replicas(graph, node);
  if (status == VX_SUCCESS) status = apply_valid_rectangles(graph, node, metas);
  for (vx_meta_format m : metas) {
    if (m != nullptr) (void)release(m, Hold::internal);
  }
  return status;
}

}  // namespace

namespace vg::openvx {

std::vector<std::vector<std::size_t>> predecessors(vx_graph graph) {
  const std::size_t n = graph->nodes.size();
  // What each node writes and reads, as data roots.
  std::vector<std::vector<const void*>> writes(n), reads(n);
  for (std::size_t k = 0; k < n; ++k) {
    const vx_node node = graph->nodes[k];
    for (std::size_t i = 0; i < node->arguments.size(); ++i) {
      if (node->arguments[i] == nullptr) continue;
      const vx_enum direction = node->kernel->signature[i].direction;
      auto note = [&](vx_reference data) {
        const void* root = data_root(data);
        if (direction != VX_INPUT) writes[k].push_back(root);
        if (direction != VX_OUTPUT) reads[k].push_back(root);
      };
      if (node->arguments[i]->type == VX_TYPE_DELAY) {
        // A delay given whole (an input) reaches every slot.
        for (vx_reference slot : static_cast<_vx_delay*>(node->arguments[i])->slots) note(slot);
      } else {
        note(node->arguments[i]);
      }
    }
  }
  std::vector<std::vector<std::size_t>> after(n);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t p = 0; p < n; ++p) {
      if (p == c) continue;
      const bool depends = std::any_of(reads[c].begin(), reads[c].end(), [&](const void* r) {
        return std::find(writes[p].begin(), writes[p].end(), r) != writes[p].end();
      });
      if (depends) after[c].push_back(p);
    }
  }
  return after;
}

}  // namespace vg::openvx

vx_status vg::openvx::verify_graph(vx_graph graph) noexcept {
  graph->changed();
  if (graph->nodes.empty()) return fail(graph, nullptr, VX_ERROR_INVALID_GRAPH, "the graph has no nodes");
  std::vector<std::vector<std::size_t>> after;  // each node's predecessors
  try {
    // Every required parameter is set.
    for (vx_node node : graph->nodes) {
      node->status = VX_SUCCESS;
      for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
        if (node->arguments[i] == nullptr && node->kernel->signature[i].state == VX_PARAMETER_STATE_REQUIRED) {
          return fail(graph, node, VX_ERROR_NOT_SUFFICIENT, "no value for required parameter %u", i);
        }
      }
    }
    // A virtual object belongs to the graph it was made in: another graph never produces its data.
    for (vx_node node : graph->nodes) {
      for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
        const vx_reference a = node->arguments[i];
        if (a != nullptr && a->scope != 0 && a->scope != graph->handle) {
          return fail(graph, node, VX_ERROR_INVALID_SCOPE, "parameter %u is a virtual object of another graph", i);
        }
      }
    }
    // One writer per object.
    std::vector<vx_reference> written;
    for (vx_node node : graph->nodes) {
      for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
        if (node->kernel->signature[i].direction == VX_INPUT || node->arguments[i] == nullptr) continue;
        for (vx_reference w : written) {
          if (w == node->arguments[i]) return fail(graph, node, VX_ERROR_MULTIPLE_WRITERS, "output parameter %u is written by another node too", i);
        }
        written.push_back(node->arguments[i]);
      }
    }
    // Validation does not move data between roots (only a virtual object's memory appears, shared with
    // nothing), so the order found now is the one the compiled graph keeps.
    after = predecessors(graph);
    const std::vector<std::size_t> order = flow_order(after);
    if (order.empty()) return fail(graph, nullptr, VX_ERROR_INVALID_GRAPH, "the graph has a cycle");
    for (std::size_t k : order) {
      vx_node node = graph->nodes[k];
      if (!node->kernel->implemented) {
        return fail(graph, node, VX_ERROR_NOT_IMPLEMENTED, "a standard kernel this library declares but does not implement yet");
      }
      if (const vx_status s = validate_node(graph, node); s != VX_SUCCESS) return s;
      // A node reading its own output is a cycle with no delay in it (the specification's graph
      // formalism); checked after validate so a wrong format or size is reported as such first.
      for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
        if (node->kernel->signature[i].direction == VX_INPUT || node->arguments[i] == nullptr) continue;
        for (vx_uint32 j = 0; j < node->arguments.size(); ++j) {
          if (node->kernel->signature[j].direction == VX_INPUT && node->arguments[j] == node->arguments[i]) {
            return fail(graph, node, VX_ERROR_INVALID_GRAPH, "parameter %u (input) is also parameter %u (output)", j, i);
          }
        }
      }
    }
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  if (const vx_status s = compile_graph(graph, after); s != VX_SUCCESS) return s;
  graph->verified = true;
  graph->state = VX_GRAPH_STATE_VERIFIED;
  return VX_SUCCESS;
}

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxVerifyGraph(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  return verify_graph(graph);
}

}  // extern "C"
