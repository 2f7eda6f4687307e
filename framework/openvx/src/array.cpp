// Arrays: creation, queries, adding and truncating items, copies and maps of item ranges.
#include "array.hpp"

#include <cstdint>
#include <cstdio>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"

namespace vg::openvx {
namespace {

/// Bytes for @p capacity items of @p item_size; false when that is more than one object may hold.
bool storage_bytes(vx_size capacity, vx_size item_size, vx_size& bytes) noexcept { return checked_bytes(bytes, capacity, item_size); }


vx_array make_array(vx_reference owner, vx_enum item_type, vx_size item_size, vx_size capacity, bool is_virtual) noexcept {
  vx_size bytes = 0;
  if (!storage_bytes(capacity, item_size, bytes)) {
    log(owner, VX_ERROR_NO_MEMORY, "array: %zu items of %zu bytes are beyond what one object may hold", static_cast<size_t>(capacity),
        static_cast<size_t>(item_size));
    return reinterpret_cast<vx_array>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  _vx_array* array = nullptr;
  try {
    array = new _vx_array(context_of(owner), item_type, item_size, capacity, is_virtual);
    // A virtual array gets its memory at verification, once its producer has said what it holds.
    if (!is_virtual) array->items.assign(bytes, 0);
  } catch (...) {
    delete array;
    return reinterpret_cast<vx_array>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  vx_reference ref = adopt(array, Hold::external, owner);
  return reinterpret_cast<vx_array>(ref != nullptr ? ref : error_object(owner, VX_ERROR_NO_MEMORY));
}

/// Room for items: a virtual array has none before verification.
vx_size usable_capacity(const _vx_array* array) noexcept {
  const bool allocated = array->item_size != 0 && array->items.size() == array->capacity * array->item_size;
  return allocated ? array->capacity : 0;
}

}  // namespace

vx_reference array_like(vx_reference owner, const _vx_array* exemplar) noexcept {
  const bool is_virtual = owner->type == VX_TYPE_GRAPH;
  // Only a virtual array may leave its attributes open.
  if (!is_virtual && (exemplar->item_type == VX_TYPE_INVALID || exemplar->capacity == 0)) {
    return error_object(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  return reinterpret_cast<vx_reference>(make_array(owner, exemplar->item_type, exemplar->item_size, exemplar->capacity, is_virtual));
}

void array_meta(vx_meta_format meta, const _vx_array* exemplar) noexcept {
  meta->item_type = exemplar->item_type;
  meta->capacity = exemplar->capacity;
}

vx_status array_apply_meta(_vx_array* array, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->item_type == VX_TYPE_INVALID) {
    std::snprintf(why, why_size, "validate did not set VX_ARRAY_ITEMTYPE");
    return VX_ERROR_INVALID_TYPE;
  }
  const std::lock_guard guard(array->lock);
  vx_enum item_type = array->item_type;
  vx_size item_size = array->item_size;
  if (array->type_open) {
    item_type = meta->item_type;
    item_size = scalar_size(array->context, item_type);
    if (item_size == 0) {
      std::snprintf(why, why_size, "validate set an unknown VX_ARRAY_ITEMTYPE 0x%x", static_cast<unsigned>(item_type));
      return VX_ERROR_INVALID_TYPE;
    }
  } else if (item_type != meta->item_type) {
    std::snprintf(why, why_size, "the array holds items of type 0x%x, validate says 0x%x", static_cast<unsigned>(item_type),
                  static_cast<unsigned>(meta->item_type));
    return VX_ERROR_INVALID_TYPE;
  }
  vx_size capacity = array->capacity;
  if (array->capacity_open) {
    capacity = meta->capacity;
    if (capacity == 0) {
      std::snprintf(why, why_size, "the virtual array has no capacity and validate did not set VX_ARRAY_CAPACITY");
      return VX_ERROR_INVALID_DIMENSION;
    }
  } else if (meta->capacity > capacity) {
    // Validate's capacity is what the kernel may write: a larger array is fine, a smaller one is not.
    std::snprintf(why, why_size, "the array has room for %zu items, validate asks for %zu", static_cast<size_t>(capacity),
                  static_cast<size_t>(meta->capacity));
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (!array->is_virtual) return VX_SUCCESS;
  vx_size bytes = 0;
  if (!storage_bytes(capacity, item_size, bytes)) {
    std::snprintf(why, why_size, "%zu items of %zu bytes do not fit in memory", static_cast<size_t>(capacity), static_cast<size_t>(item_size));
    return VX_ERROR_NO_MEMORY;
  }
  // A virtual array is allocated here; again only when a new verification changed its size.
  if (array->items.size() != bytes || array->capacity != capacity || array->item_size != item_size) {
    try {
      std::vector<vx_uint8> storage(bytes, 0);
      array->items.swap(storage);
    } catch (...) {
      return VX_ERROR_NO_MEMORY;
    }
    array->num_items = 0;
  }
  array->item_type = item_type;
  array->item_size = item_size;
  array->capacity = capacity;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_array VX_API_CALL vxCreateArray(vx_context context, vx_enum item_type, vx_size capacity) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  const vx_size item_size = scalar_size(context, item_type);
  if (item_size == 0) {
    log(context, VX_ERROR_INVALID_TYPE, "vxCreateArray: 0x%x is not an item type (a scalar type, a standard or user struct)",
        static_cast<unsigned>(item_type));
    return to_handle(reinterpret_cast<vx_array>(error_object(context, VX_ERROR_INVALID_TYPE)));
  }
  if (capacity == 0) return to_handle(reinterpret_cast<vx_array>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  return to_handle(make_array(context, item_type, item_size, capacity, false));
}

VX_API_ENTRY vx_array VX_API_CALL vxCreateVirtualArray(vx_graph graph, vx_enum item_type, vx_size capacity) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  // VX_TYPE_INVALID and 0 leave the item type and the capacity to the producing kernel's validate.
  const vx_size item_size = item_type == VX_TYPE_INVALID ? 0 : scalar_size(graph->context, item_type);
  if (item_type != VX_TYPE_INVALID && item_size == 0) return to_handle(reinterpret_cast<vx_array>(error_object(graph, VX_ERROR_INVALID_TYPE)));
  return to_handle(make_array(graph, item_type, item_size, capacity, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseArray(vx_array* arr) { return release_handle(arr, VX_TYPE_ARRAY); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryArray(vx_array arr, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(arr, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_ARRAY_ITEMTYPE: return put<vx_enum>(ptr, size, arr->item_type);
    case VX_ARRAY_NUMITEMS: {
      const std::lock_guard guard(arr->lock);
      return put<vx_size>(ptr, size, arr->num_items);
    }
    case VX_ARRAY_CAPACITY: return put<vx_size>(ptr, size, arr->capacity);
    case VX_ARRAY_ITEMSIZE: return put<vx_size>(ptr, size, arr->item_size);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxAddArrayItems(vx_array arr, vx_size count, const void* ptr, vx_size stride) {
  if (!valid(arr, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(arr->is_virtual); s != VX_SUCCESS) return s;
  if (count == 0) return VX_SUCCESS;
  if (ptr == nullptr || stride < arr->item_size || !addressable(count, stride)) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(arr->lock);
  if (count > usable_capacity(arr) - arr->num_items) return VX_FAILURE;  // the specification's "array is full"
  vx_uint8* to = arr->items.data() + arr->num_items * arr->item_size;
  const auto* from = static_cast<const vx_uint8*>(ptr);
  if (stride == arr->item_size) {
    std::memcpy(to, from, count * arr->item_size);
  } else {
    for (vx_size i = 0; i < count; ++i) std::memcpy(to + i * arr->item_size, from + i * stride, arr->item_size);
  }
  arr->num_items += count;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxTruncateArray(vx_array arr, vx_size new_num_items) {
  if (!valid(arr, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(arr->is_virtual); s != VX_SUCCESS) return s;
  const std::lock_guard guard(arr->lock);
  if (new_num_items > arr->num_items) return VX_ERROR_INVALID_PARAMETERS;
  arr->num_items = new_num_items;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyArrayRange(vx_array array, vx_size range_start, vx_size range_end, vx_size user_stride,
                                                    void* user_ptr, vx_enum usage, vx_enum user_memory_type) {
  if (!valid(array, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(array->is_virtual); s != VX_SUCCESS) return s;
  if (user_ptr == nullptr || user_memory_type != VX_MEMORY_TYPE_HOST || !is_copy_usage(usage) || user_stride < array->item_size) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const std::lock_guard guard(array->lock);
  if (range_start >= range_end || range_end > array->num_items) return VX_ERROR_INVALID_PARAMETERS;
  const vx_size size = array->item_size;
  vx_uint8* items = array->items.data() + range_start * size;
  auto* user = static_cast<vx_uint8*>(user_ptr);
  const vx_size count = range_end - range_start;
  if (!addressable(count, user_stride)) return VX_ERROR_INVALID_PARAMETERS;
  if (user_stride == size) {
    if (usage == VX_READ_ONLY) {
      std::memcpy(user, items, count * size);
    } else {
      std::memcpy(items, user, count * size);
    }
    return VX_SUCCESS;
  }
  for (vx_size i = 0; i < count; ++i) {
    if (usage == VX_READ_ONLY) {
      std::memcpy(user + i * user_stride, items + i * size, size);
    } else {
      std::memcpy(items + i * size, user + i * user_stride, size);
    }
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxMapArrayRange(vx_array array, vx_size range_start, vx_size range_end, vx_map_id* map_id,
                                                   vx_size* stride, void** ptr, vx_enum usage, vx_enum mem_type, vx_uint32 flags) {
  if (!valid(array, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(array->is_virtual); s != VX_SUCCESS) return s;
  if (map_id == nullptr || stride == nullptr || ptr == nullptr || mem_type != VX_MEMORY_TYPE_HOST || !is_map_usage(usage) ||
      !is_map_flags(flags)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const std::lock_guard guard(array->lock);
  if (range_start >= range_end || range_end > array->num_items) return VX_ERROR_INVALID_PARAMETERS;
  const vx_map_id id = array->maps.add(array, usage, array->items.data() + range_start * array->item_size);
  if (id == 0) return VX_ERROR_NO_RESOURCES;
  // Straight into the array's memory: items are contiguous, so the stride is the item size (no gap).
  *ptr = array->items.data() + range_start * array->item_size;
  *stride = array->item_size;
  *map_id = id;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapArrayRange(vx_array array, vx_map_id map_id) {
  if (!valid(array, VX_TYPE_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = content_access(array->is_virtual); s != VX_SUCCESS) return s;
  const std::lock_guard guard(array->lock);
  if (array->maps.remove(array, map_id)) return VX_SUCCESS;
  log(array, VX_ERROR_INVALID_PARAMETERS, "vxUnmapArrayRange: map id %zu is not a range of this array that is mapped now",
      static_cast<size_t>(map_id));
  return VX_ERROR_INVALID_PARAMETERS;
}

}  // extern "C"
