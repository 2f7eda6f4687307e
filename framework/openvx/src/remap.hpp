#pragma once
// Remap tables: for each destination pixel, the (x, y) source coordinate it is read from, as floats.
#include "flat_data.hpp"
#include "object.hpp"

struct _vx_remap final : _vx_reference {
  explicit _vx_remap(vx_context owner) noexcept : _vx_reference(VX_TYPE_REMAP, owner) {}

  vx_uint32 source_width = 0, source_height = 0;
  vx_uint32 destination_width = 0, destination_height = 0;  // the table has one entry per destination pixel
  bool is_virtual = false;
  vg::openvx::FlatData table;  // vx_coordinates2df_t, rows of destination_width entries (mapped in place)
};

namespace vg::openvx {

/// A remap like @p exemplar, owned by @p owner (a graph makes it virtual).
vx_reference remap_like(vx_reference owner, const _vx_remap* exemplar) noexcept;

/// vxSetMetaFormatFromReference for a remap.
vx_status remap_meta_from(vx_meta_format meta, const _vx_remap* remap) noexcept;

/// Validate's four sizes applied to an output remap (data_object.hpp, apply_meta).
vx_status remap_apply_meta(_vx_remap* remap, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
