// User data objects (vx_khr_user_data_object): creation, queries, copies and maps of byte ranges.
#include "user_data_object.hpp"

#include <cstdint>
#include <cstdio>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_user_data_object make_user_data_object(vx_reference owner, const vx_char* type_name, vx_size size, const void* initial,
                                          bool is_virtual) noexcept {
  if (type_name != nullptr && std::strlen(type_name) >= VX_MAX_REFERENCE_NAME) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "user data object: the type name is longer than %d characters", VX_MAX_REFERENCE_NAME - 1);
    return reinterpret_cast<vx_user_data_object>(error_object(owner, VX_ERROR_INVALID_PARAMETERS));
  }
  vx_size bytes = 0;
  if (!checked_bytes(bytes, size)) {
    log(owner, VX_ERROR_NO_MEMORY, "user data object: %zu bytes are beyond what one object may hold", static_cast<size_t>(size));
    return reinterpret_cast<vx_user_data_object>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  _vx_user_data_object* object = nullptr;
  try {
    object = new _vx_user_data_object(context_of(owner), size, is_virtual);
    // A virtual object gets its memory at verification, once its producer has said what it holds.
  } catch (...) {
    delete object;
    return reinterpret_cast<vx_user_data_object>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  if (!is_virtual && !object->data.allocate(size)) {
    delete object;
    return reinterpret_cast<vx_user_data_object>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  if (type_name != nullptr) std::snprintf(object->type_name, sizeof object->type_name, "%s", type_name);
  object->name_open = is_virtual && object->type_name[0] == '\0';
  if (initial != nullptr) std::memcpy(object->data.data(), initial, size);
  vx_reference ref = adopt(object, Hold::external, owner);
  return reinterpret_cast<vx_user_data_object>(ref != nullptr ? ref : error_object(owner, VX_ERROR_NO_MEMORY));
}

/// Resolves (offset, size) against the object's memory; size 0 means up to the end. False when outside.
bool byte_range(const _vx_user_data_object* object, vx_size offset, vx_size& size) noexcept {
  const vx_size total = object->data.allocated() ? object->data.size() : 0;  // 0: a virtual object not verified yet
  if (offset >= total) return false;
  if (size == 0) size = total - offset;
  return size <= total - offset;
}

}  // namespace

vx_reference user_data_object_like(vx_reference owner, const _vx_user_data_object* exemplar) noexcept {
  const bool is_virtual = owner->type == VX_TYPE_GRAPH;
  // Only a virtual object may leave its size open.
  if (!is_virtual && exemplar->size == 0) return error_object(owner, VX_ERROR_INVALID_PARAMETERS);
  return reinterpret_cast<vx_reference>(make_user_data_object(owner, exemplar->type_name, exemplar->size, nullptr, is_virtual));
}

void user_data_object_meta(vx_meta_format meta, const _vx_user_data_object* exemplar) noexcept {
  meta->user_data_size = exemplar->size;
  std::memcpy(meta->user_data_name, exemplar->type_name, sizeof meta->user_data_name);
}

vx_status user_data_object_apply_meta(_vx_user_data_object* object, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->user_data_size == 0) {
    std::snprintf(why, why_size, "validate did not set VX_USER_DATA_OBJECT_SIZE");
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (!object->size_open && object->size != meta->user_data_size) {
    std::snprintf(why, why_size, "the user data object has %zu bytes, validate says %zu", static_cast<size_t>(object->size),
                  static_cast<size_t>(meta->user_data_size));
    return VX_ERROR_INVALID_DIMENSION;
  }
  // A name validate leaves empty is not checked; an object's empty (open) name takes validate's.
  if (!object->name_open && meta->user_data_name[0] != '\0' &&
      std::strncmp(object->type_name, meta->user_data_name, VX_MAX_REFERENCE_NAME) != 0) {
    std::snprintf(why, why_size, "the user data object is a '%s', validate says '%s'", object->type_name, meta->user_data_name);
    return VX_ERROR_INVALID_TYPE;
  }
  if (!object->is_virtual) return VX_SUCCESS;
  if (vx_size bytes = 0; !checked_bytes(bytes, meta->user_data_size)) {
    std::snprintf(why, why_size, "%zu bytes do not fit in memory", static_cast<size_t>(meta->user_data_size));
    return VX_ERROR_NO_MEMORY;
  }
  const vx_size size = object->size_open ? meta->user_data_size : object->size;
  // A virtual object is allocated here; again only when a new verification changed its size.
  if (!object->data.allocate(size)) return VX_ERROR_NO_MEMORY;
  object->size = size;
  if (object->name_open) std::memcpy(object->type_name, meta->user_data_name, sizeof object->type_name);
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateUserDataObject(vx_context context, const vx_char* type_name, vx_size size,
                                                                    const void* ptr) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (size == 0) return to_handle(reinterpret_cast<vx_user_data_object>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  return to_handle(make_user_data_object(context, type_name, size, ptr, false));
}

VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateVirtualUserDataObject(vx_graph graph, const vx_char* type_name, vx_size size) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  // A size of 0 and an empty (or NULL) name leave them to the producing kernel's validate.
  return to_handle(make_user_data_object(graph, type_name, size, nullptr, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseUserDataObject(vx_user_data_object* user_data_object) {
  return release_handle(user_data_object, VX_TYPE_USER_DATA_OBJECT);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryUserDataObject(vx_user_data_object user_data_object, vx_enum attribute, void* ptr,
                                                         vx_size size) {
  if (!valid(user_data_object, VX_TYPE_USER_DATA_OBJECT)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_USER_DATA_OBJECT_NAME: return put_string(ptr, size, user_data_object->type_name, VX_MAX_REFERENCE_NAME);
    case VX_USER_DATA_OBJECT_SIZE: return put<vx_size>(ptr, size, user_data_object->size);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyUserDataObject(vx_user_data_object user_data_object, vx_size offset, vx_size size,
                                                        void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(user_data_object, VX_TYPE_USER_DATA_OBJECT)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(user_data_object->is_virtual); s != VX_SUCCESS) return s;
  if (user_ptr == nullptr || user_mem_type != VX_MEMORY_TYPE_HOST || !is_copy_usage(usage)) return VX_ERROR_INVALID_PARAMETERS;
  if (!byte_range(user_data_object, offset, size)) return VX_ERROR_INVALID_PARAMETERS;
  return user_data_object->data.copy_range(user_data_object->is_virtual, offset, size, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxMapUserDataObject(vx_user_data_object user_data_object, vx_size offset, vx_size size,
                                                       vx_map_id* map_id, void** ptr, vx_enum usage, vx_enum mem_type,
                                                       vx_uint32 flags) {
  if (!valid(user_data_object, VX_TYPE_USER_DATA_OBJECT)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(user_data_object->is_virtual); s != VX_SUCCESS) return s;
  if (map_id == nullptr || ptr == nullptr || mem_type != VX_MEMORY_TYPE_HOST || !is_map_usage(usage) || !is_map_flags(flags)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!byte_range(user_data_object, offset, size)) return VX_ERROR_INVALID_PARAMETERS;
  return user_data_object->data.map_range(user_data_object, user_data_object->is_virtual, offset, map_id, ptr, usage, mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapUserDataObject(vx_user_data_object user_data_object, vx_map_id map_id) {
  if (!valid(user_data_object, VX_TYPE_USER_DATA_OBJECT)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(user_data_object->is_virtual); s != VX_SUCCESS) return s;
  return user_data_object->data.unmap(user_data_object, map_id);
}

}  // extern "C"
