#pragma once
// Arrays: up to `capacity` items of one type (a scalar type, a standard struct or a user struct), stored
// contiguously; the memory for all of them is taken once, so maps point straight into it.
#include <mutex>
#include <vector>

#include "map_table.hpp"
#include "object.hpp"

struct _vx_array final : _vx_reference {
  _vx_array(vx_context owner, vx_enum item_type_, vx_size item_size_, vx_size capacity_, bool is_virtual_) noexcept
      : _vx_reference(VX_TYPE_ARRAY, owner),
        item_type(item_type_),
        item_size(item_size_),
        capacity(capacity_),
        is_virtual(is_virtual_),
        type_open(is_virtual_ && item_type_ == VX_TYPE_INVALID),
        capacity_open(is_virtual_ && capacity_ == 0) {}

  // Attributes: fixed at creation, except a virtual array's open ones (VX_TYPE_INVALID, 0), which each
  // verification sets from the producer's validate (no kernel runs then).
  vx_enum item_type;
  vx_size item_size;
  vx_size capacity;
  const bool is_virtual;
  const bool type_open, capacity_open;

  std::mutex lock;              // guards num_items and maps: kernels on several threads may use the array
  vx_size num_items = 0;
  std::vector<vx_uint8> items;  // capacity * item_size bytes once allocated, never resized while in use
  vg::openvx::MapTable maps;
};

namespace vg::openvx {

/// An array of @p exemplar's item type and capacity, owned by @p owner (a graph makes it virtual).
vx_reference array_like(vx_reference owner, const _vx_array* exemplar) noexcept;

/// vxSetMetaFormatFromReference with an array.
void array_meta(vx_meta_format meta, const _vx_array* exemplar) noexcept;

/// Validate's VX_ARRAY_ITEMTYPE / VX_ARRAY_CAPACITY applied to an output array (data_object.hpp).
vx_status array_apply_meta(_vx_array* array, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
