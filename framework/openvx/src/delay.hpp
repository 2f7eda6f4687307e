#pragma once
// Delays: a ring of data objects made like one exemplar, addressed by age (0 the current slot, -1 the one
// before, ...). Aging rotates the ring; node parameters set to a slot, or to a part of one, follow it.
#include <cstddef>
#include <vector>

#include "object.hpp"

namespace vg::openvx {

/// A node parameter that refers to an object inside a delay: which slot (by age) and, when the object is a
/// part of that slot (a pyramid level, an object array item, nested), the indices from the slot down to it.
struct DelaySlotUse {
  vx_node node;  // not held: the node drops its uses when the parameter changes or the node goes
  vx_uint32 parameter;
  std::size_t age;                // 0 for index 0, 1 for index -1, ...
  std::vector<std::size_t> path;  // empty when the parameter is the slot itself
};

}  // namespace vg::openvx

struct _vx_delay final : _vx_reference {
  _vx_delay(vx_context owner, vx_enum slot_type_) noexcept : _vx_reference(VX_TYPE_DELAY, owner), slot_type(slot_type_) {}
  ~_vx_delay() override;

  const vx_enum slot_type;
  std::vector<vx_reference> slots;  // by age (slots[k] is index -k); held internally, their container is this delay
  std::vector<vg::openvx::DelaySlotUse> uses;
};

namespace vg::openvx {

/// Records that parameter @p parameter of @p node changes from @p old_value to @p new_value (either may be
/// null): the use of a delay slot the old value was is dropped, the one the new value is gets recorded.
/// VX_ERROR_NO_MEMORY leaves the records as they were.
vx_status track_delay_use(vx_node node, vx_uint32 parameter, vx_reference old_value, vx_reference new_value) noexcept;

/// @p node is going: the delays its parameters refer into forget it. Its arguments must still be held.
void forget_delay_uses(vx_node node) noexcept;

/// vxAgeDelay on a checked handle: rotates the ring and re-points the nodes that use its slots, in place
/// (the compiled graphs stay valid: they read the nodes' arguments at each run).
vx_status age_delay(vx_delay delay) noexcept;

}  // namespace vg::openvx
