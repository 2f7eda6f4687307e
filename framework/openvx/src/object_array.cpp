// Object arrays: creation from an exemplar, item access, queries, and their part in verification.
#include "object_array.hpp"

#include <VX/vx_khr_user_data_object.h>

#include <cstdio>

#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"

_vx_object_array::~_vx_object_array() {
  // A no-op while the context goes (in_teardown()); an item the application still holds
  // stays alive until it is released.
  for (vx_reference item : items) vg::openvx::drop_item(item);
}

namespace vg::openvx {
namespace {

/// Types an object array can hold: the data objects, except delays and object arrays.
bool is_item_type(vx_enum type) noexcept { return is_data_object_type(type) && type != VX_TYPE_OBJECT_ARRAY; }

vx_object_array make_object_array(vx_reference owner, vx_reference exemplar, vx_size count) noexcept {
  auto fail = [owner](vx_status status) { return reinterpret_cast<vx_object_array>(error_object(owner, status)); };
  if (exemplar == nullptr || exemplar->type == VX_TYPE_ERROR) return fail(VX_ERROR_INVALID_REFERENCE);
  if (!is_item_type(exemplar->type)) {
    log(owner, VX_ERROR_INVALID_TYPE, "object array: an object of type 0x%x cannot be an item", static_cast<unsigned>(exemplar->type));
    return fail(VX_ERROR_INVALID_TYPE);
  }
  if (exemplar->context != context_of(owner)) return fail(VX_ERROR_INVALID_SCOPE);
  if (count == 0) return fail(VX_ERROR_INVALID_PARAMETERS);
  // Before anything is reserved or made: a huge count fails at once, not after minutes of allocation.
  if (const vx_status s = container_fits(owner, exemplar, count, "object array"); s != VX_SUCCESS) return fail(s);
  _vx_object_array* array = nullptr;
  try {
    array = new _vx_object_array(context_of(owner), exemplar->type, owner->type == VX_TYPE_GRAPH);
    array->items.reserve(count);
  } catch (...) {
    delete array;
    return fail(VX_ERROR_NO_MEMORY);
  }
  // The array holds its items; the application only holds what vxGetObjectArrayItem gives it.
  if (const vx_status status = make_items_like(owner, exemplar, count, array, array->items); status != VX_SUCCESS) {
    delete array;  // not adopted yet: its destructor releases the items made so far
    return fail(status);
  }
  vx_reference ref = adopt(array, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_object_array>(ref) : fail(VX_ERROR_NO_MEMORY);
}

}  // namespace

vx_reference object_array_like(vx_reference owner, const _vx_object_array* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(make_object_array(owner, exemplar->items.front(), exemplar->items.size()));
}

void object_array_meta(vx_meta_format meta, const _vx_object_array* exemplar) noexcept {
  meta->item_type = exemplar->item_type;
  meta->capacity = exemplar->items.size();
}

vx_status object_array_apply_meta(_vx_object_array* array, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->item_type == VX_TYPE_INVALID) {
    std::snprintf(why, why_size, "validate did not set VX_OBJECT_ARRAY_ITEMTYPE");
    return VX_ERROR_INVALID_TYPE;
  }
  if (meta->item_type != array->item_type) {
    std::snprintf(why, why_size, "the object array holds objects of type 0x%x, validate says 0x%x",
                  static_cast<unsigned>(array->item_type), static_cast<unsigned>(meta->item_type));
    return VX_ERROR_INVALID_TYPE;
  }
  // A virtual object array has its count and its items' attributes from creation: they must match too.
  if (meta->capacity != 0 && meta->capacity != array->items.size()) {
    std::snprintf(why, why_size, "the object array has %zu items, validate says %zu", static_cast<size_t>(array->items.size()),
                  static_cast<size_t>(meta->capacity));
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (!array->is_virtual) return VX_SUCCESS;
  // Virtual items get their memory now, each described by itself (their attributes came from the exemplar).
  for (std::size_t i = 0; i < array->items.size(); ++i) {
    vx_reference item = array->items[i];
    vx_meta_format item_meta = make_meta_format(item->context, item->type);
    if (item_meta == nullptr) return VX_ERROR_NO_MEMORY;
    char item_why[VX_MAX_LOG_MESSAGE_LEN / 4] = {};
    vx_status status = meta_from_reference(item_meta, item);
    if (status == VX_SUCCESS) status = apply_meta(item, item_meta, item_why, sizeof item_why);
    (void)release(reinterpret_cast<vx_reference>(item_meta), Hold::internal);
    if (status != VX_SUCCESS) {
      std::snprintf(why, why_size, "item %zu (made like the exemplar): %s", i, item_why[0] != '\0' ? item_why : "no memory");
      return status;
    }
  }
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_object_array VX_API_CALL vxCreateObjectArray(vx_context context, vx_reference exemplar, vx_size count) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (!valid(exemplar)) return to_handle(reinterpret_cast<vx_object_array>(error_object(context, VX_ERROR_INVALID_REFERENCE)));
  return to_handle(make_object_array(context, exemplar, count));
}

VX_API_ENTRY vx_object_array VX_API_CALL vxCreateVirtualObjectArray(vx_graph graph, vx_reference exemplar, vx_size count) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (!valid(exemplar)) return to_handle(reinterpret_cast<vx_object_array>(error_object(graph, VX_ERROR_INVALID_REFERENCE)));
  return to_handle(make_object_array(graph, exemplar, count));
}

VX_API_ENTRY vx_reference VX_API_CALL vxGetObjectArrayItem(vx_object_array arr, vx_uint32 index) {
  if (!valid(arr, VX_TYPE_OBJECT_ARRAY)) return nullptr;
  if (index >= arr->items.size()) return to_handle(error_object(arr, VX_ERROR_INVALID_PARAMETERS));
  vx_reference item = arr->items[index];
  retain(item, Hold::external);  // the application releases it (vxReleaseReference or its type's release)
  return to_handle(item);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseObjectArray(vx_object_array* arr) { return release_handle(arr, VX_TYPE_OBJECT_ARRAY); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryObjectArray(vx_object_array arr, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(arr, VX_TYPE_OBJECT_ARRAY)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_OBJECT_ARRAY_ITEMTYPE: return put<vx_enum>(ptr, size, arr->item_type);
    case VX_OBJECT_ARRAY_NUMITEMS: return put<vx_size>(ptr, size, arr->items.size());
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

}  // extern "C"
