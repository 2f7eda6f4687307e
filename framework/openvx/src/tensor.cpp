// Tensors: creation (plain, virtual, views, application memory), patch copies and maps, handle swaps,
// queries, and the data object operations (data_object.hpp) for tensors.
#include "tensor.hpp"

#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {

vx_size tensor_item_size(vx_enum data_type) noexcept {
  switch (data_type) {
    case VX_TYPE_INT8:
    case VX_TYPE_UINT8: return 1;
    case VX_TYPE_INT16:
    case VX_TYPE_UINT16:
    case VX_TYPE_FLOAT16: return 2;
    case VX_TYPE_INT32:
    case VX_TYPE_UINT32:
    case VX_TYPE_FLOAT32: return 4;
    case VX_TYPE_INT64:
    case VX_TYPE_UINT64:
    case VX_TYPE_FLOAT64: return 8;
    default: return 0;
  }
}

namespace {

vx_tensor as_handle(vx_reference ref) noexcept { return reinterpret_cast<vx_tensor>(ref); }
vx_tensor error_tensor(vx_reference owner, vx_status status) noexcept { return as_handle(error_object(owner, status)); }

/// Dense strides of a tensor of @p dims; false when its byte size is more than one object may hold.
bool dense_strides(vx_size number_of_dims, const vx_size* dims, vx_size item_size, vx_size* strides, vx_size& bytes) noexcept {
  vx_size step = item_size;
  for (vx_size i = 0; i < number_of_dims; ++i) {
    strides[i] = step;
    if (!checked_bytes(step, step, dims[i])) return false;
  }
  bytes = step;
  return true;
}

/// Library-owned memory of @p bytes, zeroed; null when out of memory.
std::shared_ptr<TensorMemory> owned_memory(vx_size bytes) noexcept {
  try {
    auto memory = std::make_shared<TensorMemory>();
    memory->owned.reset(new vx_uint8[bytes]());
    memory->base = memory->owned.get();
    memory->bytes = bytes;
    return memory;
  } catch (...) {
    return nullptr;
  }
}

bool valid_shape(vx_size number_of_dims, const vx_size* dims) noexcept {
  if (number_of_dims == 0 || number_of_dims > kMaxTensorDims || dims == nullptr) return false;
  for (vx_size i = 0; i < number_of_dims; ++i) {
    if (dims[i] == 0) return false;
  }
  return true;
}

/// A new tensor of @p owner (registered; attributes left for the caller), or null when out of memory.
_vx_tensor_t* new_tensor(vx_reference owner) noexcept { return new (std::nothrow) _vx_tensor_t(context_of(owner)); }

vx_tensor publish(vx_reference owner, _vx_tensor_t* tensor) noexcept {
  vx_reference ref = adopt(tensor, Hold::external, owner);
  return ref != nullptr ? as_handle(ref) : error_tensor(owner, VX_ERROR_NO_MEMORY);
}

vx_tensor make_tensor(vx_reference owner, vx_size number_of_dims, const vx_size* dims, vx_enum data_type,
                      vx_int8 fixed_point_position) noexcept {
  const vx_size item_size = tensor_item_size(data_type);
  if (item_size == 0) {
    log(owner, VX_ERROR_INVALID_TYPE, "vxCreateTensor: 0x%x is not a tensor data type", static_cast<unsigned>(data_type));
    return error_tensor(owner, VX_ERROR_INVALID_TYPE);
  }
  if (!valid_shape(number_of_dims, dims)) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensor: 1 to %zu dimensions, each at least 1, are needed", kMaxTensorDims);
    return error_tensor(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  vx_size strides[kMaxTensorDims] = {};
  vx_size bytes = 0;
  if (!dense_strides(number_of_dims, dims, item_size, strides, bytes)) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensor: the tensor's bytes are beyond what one object may hold");
    return error_tensor(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  std::shared_ptr<TensorMemory> memory = owned_memory(bytes);
  _vx_tensor_t* tensor = memory ? new_tensor(owner) : nullptr;
  if (tensor == nullptr) return error_tensor(owner, VX_ERROR_NO_MEMORY);
  tensor->number_of_dims = number_of_dims;
  for (vx_size i = 0; i < number_of_dims; ++i) {
    tensor->dims[i] = dims[i];
    tensor->strides[i] = strides[i];
  }
  tensor->data_type = data_type;
  tensor->fixed_point_position = fixed_point_position;
  tensor->memory = std::move(memory);
  return publish(owner, tensor);
}

vx_tensor make_virtual_tensor(vx_graph graph, vx_size number_of_dims, const vx_size* dims, vx_enum data_type,
                              vx_int8 fixed_point_position) noexcept {
  vx_reference owner = reinterpret_cast<vx_reference>(graph);
  if (data_type != VX_TYPE_INVALID && tensor_item_size(data_type) == 0) return error_tensor(owner, VX_ERROR_INVALID_TYPE);
  if (number_of_dims > kMaxTensorDims) return error_tensor(owner, VX_ERROR_INVALID_PARAMETERS);
  _vx_tensor_t* tensor = new_tensor(owner);
  if (tensor == nullptr) return error_tensor(owner, VX_ERROR_NO_MEMORY);
  tensor->is_virtual = true;
  tensor->requested_number_of_dims = number_of_dims;
  for (vx_size i = 0; i < number_of_dims && dims != nullptr; ++i) tensor->requested_dims[i] = dims[i];
  tensor->requested_data_type = data_type;
  // The attributes read as requested until verification settles them.
  tensor->number_of_dims = number_of_dims;
  for (vx_size i = 0; i < number_of_dims; ++i) tensor->dims[i] = tensor->requested_dims[i];
  tensor->data_type = data_type;
  tensor->fixed_point_position = fixed_point_position;
  return publish(owner, tensor);
}

/// Whether the caller may reach @p tensor's data now: a virtual tensor only from inside a node's callbacks.
vx_status data_access(const _vx_tensor_t* tensor) noexcept {
  if (const vx_status s = content_access(tensor->is_virtual); s != VX_SUCCESS) return s;
  if (!tensor->memory) return VX_ERROR_OPTIMIZED_AWAY;  // virtual, not verified yet
  return VX_SUCCESS;
}

/// A patch [start, end) of the first @p number_of_dims dimensions; the others are at index 0.
struct Patch {
  vx_size start[kMaxTensorDims] = {};
  vx_size extent[kMaxTensorDims] = {};
};

/// Whether a null start or end means the tensor's origin or its far end (copies and maps), or is refused
/// (views).
enum class Bounds { optional, required };

vx_status make_patch(const _vx_tensor_t* tensor, vx_size number_of_dims, const vx_size* start, const vx_size* end,
                     Bounds bounds, Patch& patch) noexcept {
  if (number_of_dims == 0 || number_of_dims > tensor->number_of_dims) return VX_ERROR_INVALID_PARAMETERS;
  if (bounds == Bounds::required && (start == nullptr || end == nullptr)) return VX_ERROR_INVALID_PARAMETERS;
  for (vx_size i = 0; i < tensor->number_of_dims; ++i) {
    if (i >= number_of_dims) {
      patch.start[i] = 0;
      patch.extent[i] = 1;
      continue;
    }
    const vx_size from = start != nullptr ? start[i] : 0;
    const vx_size to = end != nullptr ? end[i] : tensor->dims[i];
    if (from >= to || to > tensor->dims[i]) return VX_ERROR_INVALID_PARAMETERS;
    patch.start[i] = from;
    patch.extent[i] = to - from;
  }
  return VX_SUCCESS;
}

/// Address of element @p start in @p tensor's memory (the memory's lock held, or the layout fixed).
vx_uint8* element(const _vx_tensor_t* tensor, const vx_size* start) noexcept {
  vx_size at = tensor->offset;
  for (vx_size i = 0; i < tensor->number_of_dims; ++i) at += start[i] * tensor->strides[i];
  return tensor->memory->base + at;
}

/// Copies @p extent elements of @p item_size bytes between two strided layouts of @p number_of_dims.
void copy_strided(vx_uint8* to, const vx_size* to_strides, const vx_uint8* from, const vx_size* from_strides,
                  const vx_size* extent, vx_size number_of_dims, vx_size item_size) noexcept {
  vx_size index[kMaxTensorDims] = {};
  const bool dense_rows = to_strides[0] == item_size && from_strides[0] == item_size;
  for (;;) {
    vx_size to_at = 0, from_at = 0;
    for (vx_size i = 1; i < number_of_dims; ++i) {
      to_at += index[i] * to_strides[i];
      from_at += index[i] * from_strides[i];
    }
    if (dense_rows) {
      std::memcpy(to + to_at, from + from_at, extent[0] * item_size);
    } else {
      for (vx_size x = 0; x < extent[0]; ++x) std::memcpy(to + to_at + x * to_strides[0], from + from_at + x * from_strides[0], item_size);
    }
    vx_size d = 1;
    while (d < number_of_dims && ++index[d] == extent[d]) index[d++] = 0;
    if (d >= number_of_dims) return;
  }
}

/// User strides for a patch of @p extent: at least an element apart, no dimension overlapping the one
/// below it (so a write never lands twice on the same byte), and the whole patch addressable from its
/// pointer (elements are reached as offsets from it).
bool valid_user_strides(const vx_size* strides, const vx_size* extent, vx_size number_of_dims, vx_size item_size) noexcept {
  if (strides == nullptr || number_of_dims == 0 || strides[0] < item_size) return false;
  for (vx_size i = 1; i < number_of_dims; ++i) {
    vx_size below = 0;
    if (!checked_mul(strides[i - 1], extent[i - 1], below) || strides[i] < below) return false;
  }
  return addressable(extent[number_of_dims - 1], strides[number_of_dims - 1]);
}

}  // namespace

vx_reference tensor_like(vx_reference owner, const _vx_tensor_t* exemplar) noexcept {
  if (owner->type == VX_TYPE_GRAPH) {
    return reinterpret_cast<vx_reference>(make_virtual_tensor(reinterpret_cast<vx_graph>(owner), exemplar->number_of_dims,
                                                              exemplar->dims, exemplar->data_type, exemplar->fixed_point_position));
  }
  return reinterpret_cast<vx_reference>(
      make_tensor(owner, exemplar->number_of_dims, exemplar->dims, exemplar->data_type, exemplar->fixed_point_position));
}

vx_status tensor_meta_from(vx_meta_format meta, const _vx_tensor_t* exemplar) noexcept {
  meta->number_of_dims = exemplar->number_of_dims;
  for (vx_size i = 0; i < kMaxTensorDims; ++i) meta->dims[i] = i < exemplar->number_of_dims ? exemplar->dims[i] : 0;
  meta->data_type = exemplar->data_type;
  meta->fixed_point_position = exemplar->fixed_point_position;
  return VX_SUCCESS;
}

vx_status tensor_apply_meta(_vx_tensor_t* tensor, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->number_of_dims == 0 && meta->data_type == VX_TYPE_INVALID && !tensor->is_virtual) {
    std::snprintf(why, why_size, "validate did not describe the tensor (VX_TENSOR_NUMBER_OF_DIMS, VX_TENSOR_DATA_TYPE)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  // What the tensor is (or, virtual, was asked to be); 0 and VX_TYPE_INVALID are open.
  vx_size number_of_dims = tensor->is_virtual ? tensor->requested_number_of_dims : tensor->number_of_dims;
  const vx_size* dims = tensor->is_virtual ? tensor->requested_dims : tensor->dims;
  vx_enum data_type = tensor->is_virtual ? tensor->requested_data_type : tensor->data_type;
  vx_int8 fixed_point_position = tensor->fixed_point_position;

  if (meta->number_of_dims != 0 && number_of_dims != 0 && meta->number_of_dims != number_of_dims) {
    std::snprintf(why, why_size, "the tensor has %zu dimensions, validate says %zu", number_of_dims, meta->number_of_dims);
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (number_of_dims == 0) number_of_dims = meta->number_of_dims;
  if (number_of_dims == 0) {
    std::snprintf(why, why_size, "validate did not set VX_TENSOR_NUMBER_OF_DIMS of the virtual tensor");
    return VX_ERROR_INVALID_DIMENSION;
  }
  vx_size settled_dims[kMaxTensorDims] = {};
  for (vx_size i = 0; i < number_of_dims; ++i) {
    const vx_size said = meta->number_of_dims == number_of_dims ? meta->dims[i] : 0;
    if (said != 0 && dims[i] != 0 && said != dims[i]) {
      std::snprintf(why, why_size, "dimension %zu of the tensor is %zu, validate says %zu", i, dims[i], said);
      return VX_ERROR_INVALID_DIMENSION;
    }
    settled_dims[i] = dims[i] != 0 ? dims[i] : said;
    if (settled_dims[i] == 0) {
      std::snprintf(why, why_size, "validate did not set VX_TENSOR_DIMS of the virtual tensor");
      return VX_ERROR_INVALID_DIMENSION;
    }
  }
  if (meta->data_type != VX_TYPE_INVALID && data_type != VX_TYPE_INVALID) {
    if (meta->data_type != data_type) {
      std::snprintf(why, why_size, "the tensor has data type 0x%x, validate says 0x%x", static_cast<unsigned>(data_type),
                    static_cast<unsigned>(meta->data_type));
      return VX_ERROR_INVALID_TYPE;
    }
    if (meta->fixed_point_position != fixed_point_position) {
      std::snprintf(why, why_size, "the tensor has fixed point position %d, validate says %d", fixed_point_position,
                    meta->fixed_point_position);
      return VX_ERROR_INVALID_VALUE;
    }
  }
  if (data_type == VX_TYPE_INVALID) {
    data_type = meta->data_type;
    fixed_point_position = meta->fixed_point_position;
  }
  const vx_size item_size = tensor_item_size(data_type);
  if (item_size == 0) {
    std::snprintf(why, why_size, "validate did not set a tensor VX_TENSOR_DATA_TYPE (0x%x)", static_cast<unsigned>(data_type));
    return VX_ERROR_INVALID_TYPE;
  }
  if (!tensor->is_virtual) return VX_SUCCESS;

  // A virtual tensor takes its attributes and gets its memory (kept when a new verification needs as much).
  vx_size strides[kMaxTensorDims] = {};
  vx_size bytes = 0;
  if (!dense_strides(number_of_dims, settled_dims, item_size, strides, bytes)) {
    std::snprintf(why, why_size, "the tensor's size does not fit in memory");
    return VX_ERROR_NO_MEMORY;
  }
  if (!tensor->memory || tensor->memory->bytes != bytes) {
    std::shared_ptr<TensorMemory> memory = owned_memory(bytes);
    if (!memory) return VX_ERROR_NO_MEMORY;
    tensor->memory = std::move(memory);
  }
  tensor->number_of_dims = number_of_dims;
  for (vx_size i = 0; i < kMaxTensorDims; ++i) {
    tensor->dims[i] = i < number_of_dims ? settled_dims[i] : 0;
    tensor->strides[i] = i < number_of_dims ? strides[i] : 0;
  }
  tensor->data_type = data_type;
  tensor->fixed_point_position = fixed_point_position;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensor(vx_context context, vx_size number_of_dims, const vx_size* dims,
                                                  vx_enum data_type, vx_int8 fixed_point_position) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_tensor(context, number_of_dims, dims, data_type, fixed_point_position));
}

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateVirtualTensor(vx_graph graph, vx_size number_of_dims, const vx_size* dims,
                                                         vx_enum data_type, vx_int8 fixed_point_position) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_virtual_tensor(graph, number_of_dims, dims, data_type, fixed_point_position));
}

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromView(vx_tensor parent, vx_size number_of_dims, const vx_size* view_start,
                                                          const vx_size* view_end) {
  if (!valid(parent, VX_TYPE_TENSOR)) return nullptr;
  vx_reference owner = reinterpret_cast<vx_reference>(parent);
  if (parent->is_virtual) return to_handle(error_tensor(owner, VX_ERROR_OPTIMIZED_AWAY));
  if (number_of_dims != parent->number_of_dims) return to_handle(error_tensor(owner, VX_ERROR_INVALID_PARAMETERS));
  Patch patch;
  if (make_patch(parent, number_of_dims, view_start, view_end, Bounds::required, patch) != VX_SUCCESS) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensorFromView: the view is not inside the tensor");
    return to_handle(error_tensor(owner, VX_ERROR_INVALID_PARAMETERS));
  }
  _vx_tensor_t* view = new_tensor(owner);
  if (view == nullptr) return to_handle(error_tensor(owner, VX_ERROR_NO_MEMORY));
  view->number_of_dims = number_of_dims;
  view->offset = parent->offset;
  for (vx_size i = 0; i < number_of_dims; ++i) {
    view->dims[i] = patch.extent[i];
    view->strides[i] = parent->strides[i];
    view->offset += patch.start[i] * parent->strides[i];
  }
  view->data_type = parent->data_type;
  view->fixed_point_position = parent->fixed_point_position;
  view->memory = parent->memory;  // shared: the view reads and writes the parent's elements
  view->is_view = true;
  return to_handle(publish(owner, view));
}

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromHandle(vx_context context, vx_size number_of_dims, const vx_size* dims,
                                                            vx_enum data_type, vx_int8 fixed_point_position,
                                                            const vx_size* stride, void* ptr, vx_enum memory_type) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  const vx_size item_size = tensor_item_size(data_type);
  if (item_size == 0) return to_handle(error_tensor(context, VX_ERROR_INVALID_TYPE));
  // A null ptr makes a tensor without memory until vxSwapTensorHandle gives it some (the conformance suite
  // creates them so).
  if (memory_type != VX_MEMORY_TYPE_HOST || !valid_shape(number_of_dims, dims) ||
      !valid_user_strides(stride, dims, number_of_dims, item_size)) {
    log(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensorFromHandle: host memory, 1 to %zu dimensions and strides that "
        "do not overlap (the first at least the element size) are needed", kMaxTensorDims);
    return to_handle(error_tensor(context, VX_ERROR_INVALID_PARAMETERS));
  }
  _vx_tensor_t* tensor = nullptr;
  try {
    auto memory = std::make_shared<TensorMemory>();
    memory->base = static_cast<vx_uint8*>(ptr);
    memory->from_handle = true;
    tensor = new_tensor(context);
    if (tensor != nullptr) tensor->memory = std::move(memory);
  } catch (...) {
  }
  if (tensor == nullptr) return to_handle(error_tensor(context, VX_ERROR_NO_MEMORY));
  tensor->number_of_dims = number_of_dims;
  for (vx_size i = 0; i < number_of_dims; ++i) {
    tensor->dims[i] = dims[i];
    tensor->strides[i] = stride[i];
  }
  tensor->data_type = data_type;
  tensor->fixed_point_position = fixed_point_position;
  return to_handle(publish(context, tensor));
}

VX_API_ENTRY vx_status VX_API_CALL vxSwapTensorHandle(vx_tensor tensor, void* new_ptr, void** prev_ptr) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return VX_ERROR_INVALID_REFERENCE;
  // Any tensor with memory of its own may take the application's (the conformance suite swaps one made by
  // vxCreateTensor): the library's allocation stays with the tensor, and prev_ptr names it.
  if (tensor->is_view || !tensor->memory) {
    log(reinterpret_cast<vx_reference>(tensor), VX_ERROR_INVALID_PARAMETERS,
        "vxSwapTensorHandle: a view (or a virtual tensor) has no memory of its own to swap");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  TensorMemory& memory = *tensor->memory;
  const std::lock_guard guard(memory.lock);
  if (!memory.maps.empty()) {
    log(reinterpret_cast<vx_reference>(tensor), VX_FAILURE, "vxSwapTensorHandle: the tensor (or a view of it) is mapped");
    return VX_FAILURE;
  }
  if (prev_ptr != nullptr) *prev_ptr = memory.base;
  memory.base = static_cast<vx_uint8*>(new_ptr);  // views share it: they see the new memory too
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyTensorPatch(vx_tensor tensor, vx_size number_of_dims, const vx_size* view_start,
                                                     const vx_size* view_end, const vx_size* user_stride, void* user_ptr,
                                                     vx_enum usage, vx_enum user_memory_type) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = data_access(tensor); s != VX_SUCCESS) return s;
  Patch patch;
  if (const vx_status s = make_patch(tensor, number_of_dims, view_start, view_end, Bounds::optional, patch); s != VX_SUCCESS) return s;
  const vx_size item_size = tensor_item_size(tensor->data_type);
  if (user_ptr == nullptr || !is_copy_usage(usage) || user_memory_type != VX_MEMORY_TYPE_HOST ||
      !valid_user_strides(user_stride, patch.extent, number_of_dims, item_size)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size user_strides[kMaxTensorDims] = {};
  for (vx_size i = 0; i < number_of_dims; ++i) user_strides[i] = user_stride[i];
  TensorMemory& memory = *tensor->memory;
  const std::lock_guard guard(memory.lock);  // against a concurrent handle swap
  if (memory.base == nullptr) return VX_ERROR_NO_RESOURCES;  // swapped out for NULL
  vx_uint8* data = element(tensor, patch.start);
  auto* user = static_cast<vx_uint8*>(user_ptr);
  // Dimensions past number_of_dims have extent 1: copying the first number_of_dims covers the patch.
  if (usage == VX_READ_ONLY) {
    copy_strided(user, user_strides, data, tensor->strides, patch.extent, number_of_dims, item_size);
  } else {
    copy_strided(data, tensor->strides, user, user_strides, patch.extent, number_of_dims, item_size);
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxMapTensorPatch(vx_tensor tensor, vx_size number_of_dims, const vx_size* view_start,
                                                    const vx_size* view_end, vx_map_id* map_id, vx_size* stride, void** ptr,
                                                    vx_enum usage, vx_enum mem_type) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return VX_ERROR_INVALID_REFERENCE;
  if (const vx_status s = data_access(tensor); s != VX_SUCCESS) return s;
  Patch patch;
  if (const vx_status s = make_patch(tensor, number_of_dims, view_start, view_end, Bounds::optional, patch); s != VX_SUCCESS) return s;
  if (map_id == nullptr || stride == nullptr || ptr == nullptr || !is_map_usage(usage) || mem_type != VX_MEMORY_TYPE_HOST) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  TensorMemory& memory = *tensor->memory;
  const std::lock_guard guard(memory.lock);
  if (memory.base == nullptr) return VX_ERROR_NO_RESOURCES;
  // Straight into the tensor's memory: the returned strides are the tensor's own.
  void* address = element(tensor, patch.start);
  const vx_map_id id = memory.maps.add(tensor, usage, address);
  if (id == 0) {
    log(reinterpret_cast<vx_reference>(tensor), VX_ERROR_NO_RESOURCES, "vxMapTensorPatch: %zu maps are outstanding already",
        kMaxMapsPerObject);
    return VX_ERROR_NO_RESOURCES;
  }
  for (vx_size i = 0; i < number_of_dims; ++i) stride[i] = tensor->strides[i];
  *ptr = address;
  *map_id = id;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapTensorPatch(vx_tensor tensor, vx_map_id map_id) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return VX_ERROR_INVALID_REFERENCE;
  if (!tensor->memory) return VX_ERROR_INVALID_PARAMETERS;
  TensorMemory& memory = *tensor->memory;
  const std::lock_guard guard(memory.lock);
  if (memory.maps.remove(tensor, map_id)) return VX_SUCCESS;
  log(reinterpret_cast<vx_reference>(tensor), VX_ERROR_INVALID_PARAMETERS,
      "vxUnmapTensorPatch: map id %zu is not a patch of this tensor that is mapped now", static_cast<size_t>(map_id));
  return VX_ERROR_INVALID_PARAMETERS;
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryTensor(vx_tensor tensor, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_TENSOR_NUMBER_OF_DIMS: return put<vx_size>(ptr, size, tensor->number_of_dims);
    case VX_TENSOR_DIMS: {
      // An array of (at least) VX_TENSOR_NUMBER_OF_DIMS sizes.
      const vx_size bytes = tensor->number_of_dims * sizeof(vx_size);
      if (ptr == nullptr || size < bytes || size % sizeof(vx_size) != 0) return VX_ERROR_INVALID_PARAMETERS;
      std::memcpy(ptr, tensor->dims, bytes);
      return VX_SUCCESS;
    }
    case VX_TENSOR_DATA_TYPE: return put<vx_enum>(ptr, size, tensor->data_type);
    case VX_TENSOR_FIXED_POINT_POSITION: return put<vx_int8>(ptr, size, tensor->fixed_point_position);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensor(vx_tensor* tensor) { return release_handle(tensor, VX_TYPE_TENSOR); }

}  // extern "C"
