// Remap tables (remap.hpp): creation, patches mapped in place and copied, queries.
#include "remap.hpp"

#include <cstdio>
#include <cstring>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

constexpr vx_size kEntry = sizeof(vx_coordinates2df_t);

vx_remap error_remap(vx_reference owner, vx_status status) noexcept { return reinterpret_cast<vx_remap>(error_object(owner, status)); }

vx_remap make_remap(vx_reference owner, vx_uint32 src_w, vx_uint32 src_h, vx_uint32 dst_w, vx_uint32 dst_h, bool is_virtual) noexcept {
  if (src_w == 0 || src_h == 0 || dst_w == 0 || dst_h == 0) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "remap: source and destination sizes must be non-zero");
    return error_remap(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  vx_size bytes = 0;
  if (!checked_bytes(bytes, dst_w, dst_h, kEntry)) {
    log(owner, VX_ERROR_NO_MEMORY, "remap: a %ux%u table is beyond what one object may hold", dst_w, dst_h);
    return error_remap(owner, VX_ERROR_NO_MEMORY);
  }
  auto* remap = new (std::nothrow) _vx_remap(context_of(owner));
  if (remap == nullptr) return error_remap(owner, VX_ERROR_NO_MEMORY);
  remap->source_width = src_w;
  remap->source_height = src_h;
  remap->destination_width = dst_w;
  remap->destination_height = dst_h;
  remap->is_virtual = is_virtual;
  // A virtual remap's sizes are all given at creation, so its table is made now as well.
  if (!remap->table.allocate(bytes)) {
    delete remap;
    return error_remap(owner, VX_ERROR_NO_MEMORY);
  }
  vx_reference ref = adopt(remap, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_remap>(ref) : error_remap(owner, VX_ERROR_NO_MEMORY);
}

/// The checks map and copy share; the rectangle is in destination pixels.
vx_status check_patch(_vx_remap* remap, const vx_rectangle_t* rect, vx_enum coordinate_type, vx_enum memory_type) noexcept {
  if (const vx_status s = content_access(remap->is_virtual); s != VX_SUCCESS) return s;
  if (rect == nullptr || rect->start_x >= rect->end_x || rect->start_y >= rect->end_y || rect->end_x > remap->destination_width ||
      rect->end_y > remap->destination_height) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (coordinate_type != VX_TYPE_COORDINATES2DF || memory_type != VX_MEMORY_TYPE_HOST) return VX_ERROR_INVALID_PARAMETERS;
  return VX_SUCCESS;
}

vx_uint8* entry(_vx_remap* remap, vx_uint32 x, vx_uint32 y) noexcept {
  return remap->table.data() + (static_cast<vx_size>(y) * remap->destination_width + x) * kEntry;
}

}  // namespace

vx_reference remap_like(vx_reference owner, const _vx_remap* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(make_remap(owner, exemplar->source_width, exemplar->source_height, exemplar->destination_width,
                                                   exemplar->destination_height, owner->type == VX_TYPE_GRAPH));
}

vx_status remap_meta_from(vx_meta_format meta, const _vx_remap* remap) noexcept {
  meta->source_width = remap->source_width;
  meta->source_height = remap->source_height;
  meta->destination_width = remap->destination_width;
  meta->destination_height = remap->destination_height;
  return VX_SUCCESS;
}

vx_status remap_apply_meta(_vx_remap* remap, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  // Every size of a remap is fixed at creation (virtual ones too): validate can only agree.
  if (meta->source_width != remap->source_width || meta->source_height != remap->source_height ||
      meta->destination_width != remap->destination_width || meta->destination_height != remap->destination_height) {
    std::snprintf(why, why_size, "the remap maps %ux%u to %ux%u, validate says %ux%u to %ux%u", remap->source_width, remap->source_height,
                  remap->destination_width, remap->destination_height, meta->source_width, meta->source_height,
                  meta->destination_width, meta->destination_height);
    return VX_ERROR_INVALID_DIMENSION;
  }
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_remap VX_API_CALL vxCreateRemap(vx_context context, vx_uint32 src_width, vx_uint32 src_height, vx_uint32 dst_width,
                                                vx_uint32 dst_height) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_remap(context, src_width, src_height, dst_width, dst_height, false));
}

VX_API_ENTRY vx_remap VX_API_CALL vxCreateVirtualRemap(vx_graph graph, vx_uint32 src_width, vx_uint32 src_height, vx_uint32 dst_width,
                                                       vx_uint32 dst_height) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_remap(graph, src_width, src_height, dst_width, dst_height, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseRemap(vx_remap* table) { return release_handle(table, VX_TYPE_REMAP); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryRemap(vx_remap table, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(table, VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_REMAP_SOURCE_WIDTH: return put<vx_uint32>(ptr, size, table->source_width);
    case VX_REMAP_SOURCE_HEIGHT: return put<vx_uint32>(ptr, size, table->source_height);
    case VX_REMAP_DESTINATION_WIDTH: return put<vx_uint32>(ptr, size, table->destination_width);
    case VX_REMAP_DESTINATION_HEIGHT: return put<vx_uint32>(ptr, size, table->destination_height);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxMapRemapPatch(vx_remap remap, const vx_rectangle_t* rect, vx_map_id* map_id, vx_size* stride_y,
                                                   void** ptr, vx_enum coordinate_type, vx_enum usage, vx_enum mem_type) {
  if (!valid(remap, VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  if (map_id == nullptr || stride_y == nullptr || ptr == nullptr || !is_map_usage(usage)) return VX_ERROR_INVALID_PARAMETERS;
  if (const vx_status s = check_patch(remap, rect, coordinate_type, mem_type); s != VX_SUCCESS) return s;
  // In place: the patch's rows are the table's rows.
  const auto offset = static_cast<vx_size>(entry(remap, rect->start_x, rect->start_y) - remap->table.data());
  if (const vx_status s = remap->table.map_range(remap, remap->is_virtual, offset, map_id, ptr, usage, mem_type); s != VX_SUCCESS) return s;
  *stride_y = static_cast<vx_size>(remap->destination_width) * kEntry;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapRemapPatch(vx_remap remap, vx_map_id map_id) {
  if (!valid(remap, VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  return remap->table.unmap(remap, map_id);
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyRemapPatch(vx_remap remap, const vx_rectangle_t* rect, vx_size user_stride_y, void* user_ptr,
                                                    vx_enum user_coordinate_type, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(remap, VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  if (user_ptr == nullptr || !is_copy_usage(usage)) return VX_ERROR_INVALID_PARAMETERS;
  if (const vx_status s = check_patch(remap, rect, user_coordinate_type, user_mem_type); s != VX_SUCCESS) return s;
  const vx_size row = static_cast<vx_size>(rect->end_x - rect->start_x) * kEntry;
  // The user's rows are reached as offsets from user_ptr.
  if (user_stride_y < row || !addressable(rect->end_y - rect->start_y, user_stride_y)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  auto* user = static_cast<vx_uint8*>(user_ptr);
  for (vx_uint32 y = rect->start_y; y < rect->end_y; ++y) {
    vx_uint8* table_row = entry(remap, rect->start_x, y);
    vx_uint8* user_row = user + (y - rect->start_y) * user_stride_y;
    if (usage == VX_READ_ONLY) {
      std::memcpy(user_row, table_row, row);
    } else {
      std::memcpy(table_row, user_row, row);
    }
  }
  return VX_SUCCESS;
}

}  // extern "C"
