#pragma once
// The memory of the small data objects (LUT, matrix, convolution, distribution, remap table, user data
// object): one zeroed block, made at creation (or at vxVerifyGraph for a virtual object), copied and mapped
// in place, whole or a byte range of it.
#include <memory>
#include <mutex>

#include "map_table.hpp"
#include "object.hpp"

namespace vg::openvx {

class FlatData {
 public:
  /// (Re)allocates @p size zeroed bytes; keeps the block when it has that size already. False when out of
  /// memory (the old block stays).
  bool allocate(vx_size size) noexcept;
  bool allocated() const noexcept { return bytes_ != nullptr; }
  vx_size size() const noexcept { return size_; }
  vx_uint8* data() noexcept { return bytes_.get(); }
  const vx_uint8* data() const noexcept { return bytes_.get(); }

  /// The copy, map and unmap of the API, on behalf of @p object (its handle: a map is unmapped through the handle it was mapped through).
  /// A virtual object's data (@p is_virtual) is only reachable from a node's callbacks.
  vx_status copy(bool is_virtual, void* user_ptr, vx_enum usage, vx_enum user_mem_type) noexcept;
  vx_status map(const void* object, bool is_virtual, vx_map_id* map_id, void** ptr, vx_enum usage, vx_enum mem_type) noexcept;
  vx_status unmap(const void* object, vx_map_id map_id) noexcept;
  /// The same over bytes [offset, offset + size) only (the caller checked the range is inside).
  vx_status copy_range(bool is_virtual, vx_size offset, vx_size size, void* user_ptr, vx_enum usage, vx_enum user_mem_type) noexcept;
  vx_status map_range(const void* object, bool is_virtual, vx_size offset, vx_map_id* map_id, void** ptr, vx_enum usage,
                      vx_enum mem_type) noexcept;

 private:
  std::mutex lock_;  // guards the map table (kernels on several threads may map one object)
  std::unique_ptr<vx_uint8[]> bytes_;
  vx_size size_ = 0;
  MapTable maps_;
};

/// VX_SUCCESS when the caller may reach the data now; VX_ERROR_OPTIMIZED_AWAY for the application and a
/// virtual object (or a virtual object that has no memory yet).
vx_status data_reachable(bool is_virtual, bool allocated) noexcept;

}  // namespace vg::openvx
