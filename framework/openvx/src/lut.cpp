// Lookup tables: creation, copies, maps, queries, and the data object operations (data_object.hpp).
#include "lut.hpp"

#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_lut error_lut(vx_reference owner, vx_status status) noexcept { return reinterpret_cast<vx_lut>(error_object(owner, status)); }

vx_size lut_item_size(vx_enum type) noexcept {
  return type == VX_TYPE_UINT8 ? sizeof(vx_uint8) : type == VX_TYPE_INT16 ? sizeof(vx_int16) : 0;
}
vx_size lut_max_count(vx_enum type) noexcept { return type == VX_TYPE_UINT8 ? 256 : type == VX_TYPE_INT16 ? 65536 : 0; }

/// VX_LUT_OFFSET: the entry for input value 0 (the middle of an INT16 table, so negative inputs index it).
vx_uint32 lut_offset(const _vx_lut* lut) noexcept { return lut->data_type == VX_TYPE_INT16 ? static_cast<vx_uint32>(lut->count / 2) : 0; }

vx_lut make_lut(vx_reference owner, vx_enum data_type, vx_size count, bool is_virtual) noexcept {
  const bool open_type = is_virtual && data_type == VX_TYPE_INVALID;
  if (!open_type && lut_item_size(data_type) == 0) return error_lut(owner, VX_ERROR_INVALID_TYPE);
  if (!(is_virtual && count == 0) && (count == 0 || (!open_type && count > lut_max_count(data_type)))) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateLUT: %zu entries (1 to 256 for UINT8, to 65536 for INT16)", count);
    return error_lut(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  vx_size bytes = 0;
  if (!open_type && !checked_bytes(bytes, count, lut_item_size(data_type))) return error_lut(owner, VX_ERROR_NO_MEMORY);
  auto* lut = new (std::nothrow) _vx_lut(context_of(owner));
  if (lut == nullptr) return error_lut(owner, VX_ERROR_NO_MEMORY);
  lut->data_type = lut->requested_data_type = data_type;
  lut->count = lut->requested_count = count;
  lut->is_virtual = is_virtual;
  if (!is_virtual && !lut->data.allocate(bytes)) {
    delete lut;
    return error_lut(owner, VX_ERROR_NO_MEMORY);
  }
  vx_reference ref = adopt(lut, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_lut>(ref) : error_lut(owner, VX_ERROR_NO_MEMORY);
}

}  // namespace

vx_reference lut_like(vx_reference owner, const _vx_lut* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(make_lut(owner, exemplar->data_type, exemplar->count, owner->type == VX_TYPE_GRAPH));
}

vx_status lut_meta_from(vx_meta_format meta, const _vx_lut* exemplar) noexcept {
  meta->data_type = exemplar->data_type;
  meta->count = exemplar->count;
  return VX_SUCCESS;
}

vx_status lut_apply_meta(_vx_lut* lut, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (!lut->is_virtual && meta->data_type == VX_TYPE_INVALID && meta->count == 0) {
    std::snprintf(why, why_size, "validate did not describe the LUT (VX_LUT_TYPE, VX_LUT_COUNT)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_enum type = lut->is_virtual ? lut->requested_data_type : lut->data_type;
  vx_size count = lut->is_virtual ? lut->requested_count : lut->count;
  if (meta->data_type != VX_TYPE_INVALID && type != VX_TYPE_INVALID && meta->data_type != type) {
    std::snprintf(why, why_size, "the LUT has type 0x%x, validate says 0x%x", static_cast<unsigned>(type),
                  static_cast<unsigned>(meta->data_type));
    return VX_ERROR_INVALID_TYPE;
  }
  if (meta->count != 0 && count != 0 && meta->count != count) {
    std::snprintf(why, why_size, "the LUT has %zu entries, validate says %zu", count, meta->count);
    return VX_ERROR_INVALID_VALUE;
  }
  if (type == VX_TYPE_INVALID) type = meta->data_type;
  if (count == 0) count = meta->count;
  if (lut_item_size(type) == 0 || count == 0 || count > lut_max_count(type)) {
    std::snprintf(why, why_size, "validate did not set a valid VX_LUT_TYPE and VX_LUT_COUNT");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!lut->is_virtual) return VX_SUCCESS;
  vx_size bytes = 0;
  if (!checked_bytes(bytes, count, lut_item_size(type)) || !lut->data.allocate(bytes)) return VX_ERROR_NO_MEMORY;
  lut->data_type = type;
  lut->count = count;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_lut VX_API_CALL vxCreateLUT(vx_context context, vx_enum data_type, vx_size count) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_lut(context, data_type, count, false));
}

VX_API_ENTRY vx_lut VX_API_CALL vxCreateVirtualLUT(vx_graph graph, vx_enum data_type, vx_size count) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_lut(reinterpret_cast<vx_reference>(graph), data_type, count, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryLUT(vx_lut lut, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(lut, VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_LUT_TYPE: return put<vx_enum>(ptr, size, lut->data_type);
    case VX_LUT_COUNT: return put<vx_size>(ptr, size, lut->count);
    case VX_LUT_SIZE: return put<vx_size>(ptr, size, lut->count * lut_item_size(lut->data_type));  // at most 65536 x 2
    case VX_LUT_OFFSET: return put<vx_uint32>(ptr, size, lut_offset(lut));
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyLUT(vx_lut lut, void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(lut, VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  return lut->data.copy(lut->is_virtual, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxMapLUT(vx_lut lut, vx_map_id* map_id, void** ptr, vx_enum usage, vx_enum mem_type,
                                            vx_bitfield) {
  if (!valid(lut, VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  return lut->data.map(lut, lut->is_virtual, map_id, ptr, usage, mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapLUT(vx_lut lut, vx_map_id map_id) {
  if (!valid(lut, VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  return lut->data.unmap(lut, map_id);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseLUT(vx_lut* lut) { return release_handle(lut, VX_TYPE_LUT); }

}  // extern "C"
