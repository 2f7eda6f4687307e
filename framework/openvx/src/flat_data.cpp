// The memory of the small data objects: allocation, whole copies, maps in place.
#include "flat_data.hpp"

#include <new>

#include "data_object.hpp"

namespace vg::openvx {

vx_status data_reachable(bool is_virtual, bool allocated) noexcept {
  if (const vx_status s = content_access(is_virtual); s != VX_SUCCESS) return s;
  return allocated ? VX_SUCCESS : VX_ERROR_OPTIMIZED_AWAY;
}

bool FlatData::allocate(vx_size size) noexcept {
  if (bytes_ != nullptr && size_ == size) return true;
  vx_uint8* block = new (std::nothrow) vx_uint8[size == 0 ? 1 : size]();
  if (block == nullptr) return false;
  bytes_.reset(block);
  size_ = size;
  return true;
}

vx_status FlatData::copy(bool is_virtual, void* user_ptr, vx_enum usage, vx_enum user_mem_type) noexcept {
  return copy_range(is_virtual, 0, size_, user_ptr, usage, user_mem_type);
}

vx_status FlatData::copy_range(bool is_virtual, vx_size offset, vx_size size, void* user_ptr, vx_enum usage,
                               vx_enum user_mem_type) noexcept {
  if (const vx_status s = data_reachable(is_virtual, allocated()); s != VX_SUCCESS) return s;
  if (user_ptr == nullptr || !is_copy_usage(usage) || user_mem_type != VX_MEMORY_TYPE_HOST) return VX_ERROR_INVALID_PARAMETERS;
  if (usage == VX_READ_ONLY) {
    std::memcpy(user_ptr, bytes_.get() + offset, size);
  } else {
    std::memcpy(bytes_.get() + offset, user_ptr, size);
  }
  return VX_SUCCESS;
}

vx_status FlatData::map(const void* object, bool is_virtual, vx_map_id* map_id, void** ptr, vx_enum usage,
                        vx_enum mem_type) noexcept {
  return map_range(object, is_virtual, 0, map_id, ptr, usage, mem_type);
}

vx_status FlatData::map_range(const void* object, bool is_virtual, vx_size offset, vx_map_id* map_id, void** ptr, vx_enum usage,
                              vx_enum mem_type) noexcept {
  if (const vx_status s = data_reachable(is_virtual, allocated()); s != VX_SUCCESS) return s;
  if (map_id == nullptr || ptr == nullptr || !is_map_usage(usage) || mem_type != VX_MEMORY_TYPE_HOST) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_uint8* first = bytes_.get() + offset;
  const std::lock_guard guard(lock_);
  const vx_map_id id = maps_.add(object, usage, first);
  if (id == 0) return VX_ERROR_NO_RESOURCES;
  *ptr = first;  // in place: a map never copies
  *map_id = id;
  return VX_SUCCESS;
}

vx_status FlatData::unmap(const void* object, vx_map_id map_id) noexcept {
  const std::lock_guard guard(lock_);
  if (maps_.remove(object, map_id)) return VX_SUCCESS;
  log(static_cast<_vx_reference*>(const_cast<void*>(object)), VX_ERROR_INVALID_PARAMETERS,
      "unmap: map id %zu is not a map of this object that is outstanding now", static_cast<size_t>(map_id));
  return VX_ERROR_INVALID_PARAMETERS;
}

}  // namespace vg::openvx
