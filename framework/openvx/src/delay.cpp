// Delays: creation from an exemplar, slot access by age, aging (with the node parameters that follow their
// slot), auto-aging registration, queries.
#include "delay.hpp"

#include <VX/vx_khr_user_data_object.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>

#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "image.hpp"
#include "object_array.hpp"
#include "pyramid.hpp"

_vx_delay::~_vx_delay() {
  // A no-op while the context goes (in_teardown()); a slot the application retained or a node
  // still uses outlives the delay, as an object of its own.
  for (vx_reference slot : slots) vg::openvx::drop_item(slot);
}

namespace vg::openvx {
namespace {

// Indices run from 0 down to -(slots - 1), a vx_int32.
constexpr vx_size kMaxSlots = static_cast<vx_size>(std::numeric_limits<vx_int32>::max()) + 1;

vx_delay make_delay(vx_context context, vx_reference exemplar, vx_size num_slots) noexcept {
  auto fail = [context](vx_status status) { return reinterpret_cast<vx_delay>(error_object(context, status)); };
  if (exemplar == nullptr || exemplar->type == VX_TYPE_ERROR) return fail(VX_ERROR_INVALID_REFERENCE);
  if (!is_data_object_type(exemplar->type)) {
    log(context, VX_ERROR_INVALID_TYPE, "vxCreateDelay: an object of type 0x%x cannot be a delay slot", static_cast<unsigned>(exemplar->type));
    return fail(VX_ERROR_INVALID_TYPE);
  }
  if (exemplar->context != context) return fail(VX_ERROR_INVALID_SCOPE);
  if (num_slots == 0 || num_slots > kMaxSlots) {
    log(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateDelay: %zu slots", static_cast<std::size_t>(num_slots));
    return fail(VX_ERROR_INVALID_PARAMETERS);
  }
  if (const vx_status s = container_fits(context, exemplar, num_slots, "vxCreateDelay"); s != VX_SUCCESS) return fail(s);
  _vx_delay* delay = nullptr;
  try {
    delay = new _vx_delay(context, exemplar->type);
    delay->slots.reserve(num_slots);
  } catch (...) {
    delete delay;
    return fail(VX_ERROR_NO_MEMORY);
  }
  // The delay holds its slots; the application only borrows them (vxGetReferenceFromDelay).
  if (const vx_status status = make_items_like(context, exemplar, num_slots, delay, delay->slots); status != VX_SUCCESS) {
    delete delay;  // not adopted yet: its destructor releases the slots made so far
    return fail(status);
  }
  vx_reference ref = adopt(delay, Hold::external);
  return ref != nullptr ? reinterpret_cast<vx_delay>(ref) : fail(VX_ERROR_NO_MEMORY);
}

/// The delay @p ref lies in, as a slot or a part of one; null when none.
_vx_delay* delay_of(vx_reference ref) noexcept {
  for (_vx_reference* c = ref->container; c != nullptr; c = c->container) {
    if (c->type == VX_TYPE_DELAY) return static_cast<_vx_delay*>(c);
  }
  return nullptr;
}

/// Fills @p use's age and path for @p ref, which lies in @p delay. False when a container on the way is not
/// one this knows how to index. May throw std::bad_alloc.
bool locate(const _vx_delay* delay, vx_reference ref, DelaySlotUse& use) {
  _vx_reference* slot = ref;
  while (slot->container != delay) {
    std::size_t index = 0;
    if (!item_index(slot->container, slot, index)) return false;
    use.path.push_back(index);
    slot = slot->container;
  }
  std::reverse(use.path.begin(), use.path.end());
  const auto it = std::find(delay->slots.begin(), delay->slots.end(), slot);
  use.age = static_cast<std::size_t>(it - delay->slots.begin());
  return it != delay->slots.end();
}

/// The object at @p path inside @p slot (slots are made alike, so every slot has it).
vx_reference part_of(vx_reference slot, const std::vector<std::size_t>& path) noexcept {
  for (std::size_t index : path) slot = item_at(slot, index);
  return slot;
}

void forget_use(_vx_delay* delay, vx_node node, vx_uint32 parameter) noexcept {
  auto& uses = delay->uses;
  uses.erase(std::remove_if(uses.begin(), uses.end(),
                            [&](const DelaySlotUse& u) { return u.node == node && u.parameter == parameter; }),
             uses.end());
}

}  // namespace

vx_status track_delay_use(vx_node node, vx_uint32 parameter, vx_reference old_value, vx_reference new_value) noexcept {
  try {
    // Everything that can fail comes first, so a failure changes nothing.
    DelaySlotUse use{node, parameter, 0, {}};
    _vx_delay* to = new_value != nullptr ? delay_of(new_value) : nullptr;
    if (to != nullptr) {
      if (!locate(to, new_value, use)) {
        to = nullptr;  // inside a container this does not index: it stays where it is
      } else {
        to->uses.reserve(to->uses.size() + 1);
      }
    }
    if (old_value != nullptr) {
      if (_vx_delay* from = delay_of(old_value); from != nullptr) forget_use(from, node, parameter);
    }
    if (to != nullptr) to->uses.push_back(std::move(use));  // reserved: cannot throw
    return VX_SUCCESS;
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
}

void forget_delay_uses(vx_node node) noexcept {
  if (in_teardown()) return;  // the context is going, and the delays with it
  for (vx_uint32 i = 0; i < node->arguments.size(); ++i) {
    vx_reference argument = node->arguments[i];
    if (argument == nullptr) continue;
    if (_vx_delay* delay = delay_of(argument); delay != nullptr) forget_use(delay, node, i);
  }
}

vx_status age_delay(vx_delay delay) noexcept {
  // The specification forbids aging while a graph executes: refused from kernel code, and while a graph
  // using one of the slots is scheduled (vxProcessGraph on another thread cannot be seen without a race).
  if (inside_graph_execution()) {
    log(delay, VX_ERROR_NOT_SUPPORTED, "vxAgeDelay: not from a kernel while a graph executes");
    return VX_ERROR_NOT_SUPPORTED;
  }
  for (const DelaySlotUse& use : delay->uses) {
    if (use.node->graph != nullptr && use.node->graph->scheduled) {
      log(delay, VX_ERROR_GRAPH_SCHEDULED, "vxAgeDelay: a graph using the delay is scheduled");
      return VX_ERROR_GRAPH_SCHEDULED;
    }
  }
  // Index 0 goes to -1, ..., the oldest comes back as 0.
  std::rotate(delay->slots.rbegin(), delay->slots.rbegin() + 1, delay->slots.rend());
  // Each node parameter keeps its age: it gets the object now there. In place, holds moved: no
  // re-verification (graph->changed() would drop the compiled graph).
  for (const DelaySlotUse& use : delay->uses) {
    vx_reference now = part_of(delay->slots[use.age], use.path);
    // A pipelined graph with a delay runs one frame at a time (pipeline_slots): its one slot follows too.
    for (std::vector<vx_reference>& slot : use.node->slot_arguments) slot[use.parameter] = now;
    vx_reference& argument = use.node->arguments[use.parameter];
    if (argument == now) continue;
    retain(now, Hold::internal);
    vx_reference before = argument;
    argument = now;
    (void)release(before, Hold::internal);  // the delay still holds it
  }
  for (const DelaySlotUse& use : delay->uses) refresh_call_handles(use.node);
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_delay VX_API_CALL vxCreateDelay(vx_context context, vx_reference exemplar, vx_size num_slots) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (!valid(exemplar)) return to_handle(reinterpret_cast<vx_delay>(error_object(context, VX_ERROR_INVALID_REFERENCE)));
  return to_handle(make_delay(context, exemplar, num_slots));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseDelay(vx_delay* delay) { return release_handle(delay, VX_TYPE_DELAY); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryDelay(vx_delay delay, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(delay, VX_TYPE_DELAY)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_DELAY_TYPE: return put<vx_enum>(ptr, size, delay->slot_type);
    case VX_DELAY_SLOTS: return put<vx_size>(ptr, size, delay->slots.size());
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_reference VX_API_CALL vxGetReferenceFromDelay(vx_delay delay, vx_int32 index) {
  if (!valid(delay, VX_TYPE_DELAY)) return nullptr;
  const std::int64_t age = -static_cast<std::int64_t>(index);
  if (age < 0 || static_cast<std::uint64_t>(age) >= delay->slots.size()) {
    log(delay, VX_ERROR_INVALID_PARAMETERS, "vxGetReferenceFromDelay: index %d of a %zu-slot delay (0 down to -%zu)", index,
        static_cast<std::size_t>(delay->slots.size()), static_cast<std::size_t>(delay->slots.size() - 1));
    return to_handle(error_object(delay, VX_ERROR_INVALID_PARAMETERS));
  }
  // Not counted: the specification has the application retain it before it may release it.
  return to_handle(delay->slots[static_cast<std::size_t>(age)]);
}

VX_API_ENTRY vx_status VX_API_CALL vxAgeDelay(vx_delay delay) {
  if (!valid(delay, VX_TYPE_DELAY)) return VX_ERROR_INVALID_REFERENCE;
  return age_delay(delay);
}

VX_API_ENTRY vx_status VX_API_CALL vxRegisterAutoAging(vx_graph graph, vx_delay delay) {
  if (!valid(graph, VX_TYPE_GRAPH) || !valid(delay, VX_TYPE_DELAY)) return VX_ERROR_INVALID_REFERENCE;
  if (delay->context != graph->context) return VX_ERROR_INVALID_REFERENCE;
  auto& delays = graph->auto_aged;
  if (std::find(delays.begin(), delays.end(), delay) != delays.end()) return VX_SUCCESS;  // aged once per run anyway
  try {
    delays.push_back(delay);
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  retain(delay, Hold::internal);  // the graph ages it even after the application released it
  return VX_SUCCESS;
}

}  // extern "C"
