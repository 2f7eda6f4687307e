#pragma once
// Object arrays: a fixed number of data objects made like one exemplar, held by the array for its whole
// life; the application reaches them through vxGetObjectArrayItem.
#include <vector>

#include "object.hpp"

struct _vx_object_array final : _vx_reference {
  _vx_object_array(vx_context owner, vx_enum item_type_, bool is_virtual_) noexcept
      : _vx_reference(VX_TYPE_OBJECT_ARRAY, owner), item_type(item_type_), is_virtual(is_virtual_) {}
  ~_vx_object_array() override;

  const vx_enum item_type;
  const bool is_virtual;            // its items are virtual too
  std::vector<vx_reference> items;  // held internally; fixed after creation
  // vxCreateImageObjectArrayFromTensor: the tensor whose memory the items use (held by the items).
  vx_reference memory_owner = nullptr;
};

namespace vg::openvx {

/// An object array like @p exemplar (as many items, made like its items), owned by @p owner (a graph
/// makes it and its items virtual).
vx_reference object_array_like(vx_reference owner, const _vx_object_array* exemplar) noexcept;

/// vxSetMetaFormatFromReference with an object array.
void object_array_meta(vx_meta_format meta, const _vx_object_array* exemplar) noexcept;

/// Validate's VX_OBJECT_ARRAY_ITEMTYPE / _NUMITEMS checked against an output object array; a virtual
/// one's items then get their memory (data_object.hpp).
vx_status object_array_apply_meta(_vx_object_array* array, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
