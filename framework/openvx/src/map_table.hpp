#pragma once
// The outstanding maps of one data object: a small fixed table, so mapping never allocates.
#include <array>
#include <atomic>
#include <cstddef>

#include "object.hpp"

namespace vg::openvx {

/// How many maps of one object may be outstanding at once (one more gives VX_ERROR_NO_RESOURCES).
inline constexpr std::size_t kMaxMapsPerObject = 16;

struct MapSlot {
  vx_map_id id = 0;  // 0: free
  const void* object = nullptr;  // the handle it was mapped through (views share their parent's table)
  vx_enum usage = 0;
  void* pointer = nullptr;
};

/// The next map id. One counter for the whole library, so an id names one map of one object in its context
/// (and in every other): an id given for another object is never mistaken for a map of this one.
inline vx_map_id next_map_id() noexcept {
  static std::atomic<vx_map_id> last{0};
  vx_map_id id = ++last;
  while (id == 0) id = ++last;  // 0 is never an id (after a wrap, which takes 2^32 maps on 32-bit hosts)
  return id;
}

/// Not thread-safe on its own: the owning object's mutex guards it.
class MapTable {
 public:
  /// Records a map; returns its id, or 0 when the table is full.
  vx_map_id add(const void* object, vx_enum usage, void* pointer) noexcept {
    for (MapSlot& slot : slots_) {
      if (slot.id != 0) continue;
      // Ids only grow, so a stale id of an earlier map is not mistaken for a newer map.
      slot = MapSlot{next_map_id(), object, usage, pointer};
      return slot.id;
    }
    return 0;
  }
  /// Forgets map @p id of @p object (its slot is copied to @p removed when given); false when it is not
  /// outstanding on that object.
  bool remove(const void* object, vx_map_id id, MapSlot* removed = nullptr) noexcept {
    if (id == 0) return false;
    for (MapSlot& slot : slots_) {
      if (slot.id != id || slot.object != object) continue;
      if (removed != nullptr) *removed = slot;
      slot = MapSlot{};
      return true;
    }
    return false;
  }
  bool empty() const noexcept {
    for (const MapSlot& slot : slots_) {
      if (slot.id != 0) return false;
    }
    return true;
  }

 private:
  std::array<MapSlot, kMaxMapsPerObject> slots_{};
};

}  // namespace vg::openvx
