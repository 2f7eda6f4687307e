// Dispatch of the per-type data object operations (data_object.hpp) to each type's own file, and the
// checks every data object's copy and map functions share.
#include "data_object.hpp"

#include <VX/vx_khr_user_data_object.h>

#include <cstdio>

#include "array.hpp"
#include "checked_size.hpp"
#include "context.hpp"
#include "convolution.hpp"
#include "distribution.hpp"
#include "error_object.hpp"
#include "image.hpp"
#include "lut.hpp"
#include "matrix.hpp"
#include "meta_format.hpp"
#include "object_array.hpp"
#include "pyramid.hpp"
#include "remap.hpp"
#include "scalar.hpp"
#include "tensor.hpp"
#include "threshold.hpp"
#include "user_data_object.hpp"

namespace vg::openvx {

vx_context context_of(vx_reference owner) noexcept {
  return owner->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(owner) : owner->context;
}

bool is_data_object_type(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_ARRAY:
    case VX_TYPE_CONVOLUTION:
    case VX_TYPE_DISTRIBUTION:
    case VX_TYPE_IMAGE:
    case VX_TYPE_LUT:
    case VX_TYPE_MATRIX:
    case VX_TYPE_OBJECT_ARRAY:
    case VX_TYPE_PYRAMID:
    case VX_TYPE_REMAP:
    case VX_TYPE_SCALAR:
    case VX_TYPE_THRESHOLD:
    case VX_TYPE_TENSOR:
    case VX_TYPE_USER_DATA_OBJECT: return true;
    default: return false;
  }
}

void take_item(_vx_reference* container, vx_reference item) noexcept {
  retain(item, Hold::internal);
  (void)release(item, Hold::external);
  item->container = container;
}

void drop_item(vx_reference item) noexcept {
  if (in_teardown()) return;  // the context is going and deletes it itself
  item->container = nullptr;
  (void)release(item, Hold::internal);
}

vx_status make_items_like(vx_reference owner, vx_reference exemplar, vx_size count, _vx_reference* container,
                          std::vector<vx_reference>& items) noexcept {
  for (vx_size i = 0; i < count; ++i) {
    const vx_reference item = create_like(owner, exemplar);
    if (const vx_status status = status_of(item); status != VX_SUCCESS) return status;
    take_item(container, item);
    items.push_back(item);  // reserved by the caller: cannot throw
  }
  return VX_SUCCESS;
}

namespace {

/// Bytes of data @p ref holds (or will hold once verified), for the container size check; beyond
/// kMaxObjectBytes when it does not fit. Small fixed-size objects (scalars, thresholds) count as 0.
vx_size data_bytes(vx_reference ref) noexcept {
  constexpr vx_size kTooMany = kMaxObjectBytes + 1;
  vx_size bytes = 0;
  auto sum_of = [&bytes](const auto& items) {
    for (const auto& item : items) {
      if (!checked_grow(bytes, data_bytes(reinterpret_cast<vx_reference>(item)))) return kTooMany;
    }
    return bytes;
  };
  switch (ref->type) {
    case VX_TYPE_IMAGE: {
      const auto* image = static_cast<const _vx_image*>(ref);
      for (vx_uint32 p = 0; p < image->plane_count; ++p) {
        const ImagePlane& plane = image->planes[p];
        vx_size plane_bytes = 0;
        if (!checked_bytes(plane_bytes, image->height >> plane.shift_y, plane.stride_y < 0 ? -static_cast<vx_int64>(plane.stride_y) : plane.stride_y) ||
            !checked_grow(bytes, plane_bytes)) {
          return kTooMany;
        }
      }
      return bytes;
    }
    case VX_TYPE_ARRAY: {
      const auto* array = static_cast<const _vx_array*>(ref);
      return checked_bytes(bytes, array->capacity, array->item_size) ? bytes : kTooMany;
    }
    case VX_TYPE_TENSOR: {
      const auto* tensor = static_cast<const _vx_tensor_t*>(ref);
      bytes = tensor_item_size(tensor->data_type);
      for (vx_size i = 0; i < tensor->number_of_dims; ++i) {
        if (!checked_bytes(bytes, bytes, tensor->dims[i])) return kTooMany;
      }
      return bytes;
    }
    case VX_TYPE_LUT: return static_cast<const _vx_lut*>(ref)->data.size();
    case VX_TYPE_DISTRIBUTION: return static_cast<const _vx_distribution*>(ref)->data.size();
    case VX_TYPE_MATRIX: return static_cast<const _vx_matrix*>(ref)->data.size();
    case VX_TYPE_CONVOLUTION: return static_cast<const _vx_convolution*>(ref)->data.size();
    case VX_TYPE_REMAP: return static_cast<const _vx_remap*>(ref)->table.size();
    case VX_TYPE_USER_DATA_OBJECT: return static_cast<const _vx_user_data_object*>(ref)->data.size();
    case VX_TYPE_PYRAMID: return sum_of(static_cast<const _vx_pyramid*>(ref)->images);
    case VX_TYPE_OBJECT_ARRAY: return sum_of(static_cast<const _vx_object_array*>(ref)->items);
    default: return 0;
  }
}

}  // namespace

vx_status container_fits(vx_reference owner, vx_reference exemplar, vx_size count, const char* what) noexcept {
  if (count > kMaxContainerItems) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "%s: %zu items, at most %zu are allowed", what, static_cast<size_t>(count),
        static_cast<size_t>(kMaxContainerItems));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size total = 0;
  if (!checked_bytes(total, count, data_bytes(exemplar))) {
    log(owner, VX_ERROR_NO_MEMORY, "%s: %zu items like the exemplar are beyond what one object may hold", what,
        static_cast<size_t>(count));
    return VX_ERROR_NO_MEMORY;
  }
  return VX_SUCCESS;
}

std::size_t item_count(const _vx_reference* container) noexcept {
  if (container->type == VX_TYPE_PYRAMID) return static_cast<const _vx_pyramid*>(container)->images.size();
  if (container->type == VX_TYPE_OBJECT_ARRAY) return static_cast<const _vx_object_array*>(container)->items.size();
  return 0;
}

vx_reference item_at(const _vx_reference* container, std::size_t index) noexcept {
  if (index >= item_count(container)) return nullptr;
  if (container->type == VX_TYPE_PYRAMID) return reinterpret_cast<vx_reference>(static_cast<const _vx_pyramid*>(container)->images[index]);
  return static_cast<const _vx_object_array*>(container)->items[index];
}

bool item_index(const _vx_reference* container, const _vx_reference* item, std::size_t& index) noexcept {
  const std::size_t count = item_count(container);
  for (index = 0; index < count; ++index) {
    if (item_at(container, index) == item) return true;
  }
  return false;
}

const void* data_root(vx_reference ref) noexcept {
  for (;;) {
    if (ref->type == VX_TYPE_IMAGE && static_cast<_vx_image*>(ref)->parent != nullptr) {
      ref = static_cast<_vx_image*>(ref)->root();
    } else if (ref->type == VX_TYPE_IMAGE && static_cast<_vx_image*>(ref)->memory_owner != nullptr) {
      ref = static_cast<_vx_image*>(ref)->memory_owner;  // an image on a tensor's slice
    } else if (ref->type == VX_TYPE_OBJECT_ARRAY && static_cast<_vx_object_array*>(ref)->memory_owner != nullptr) {
      ref = static_cast<_vx_object_array*>(ref)->memory_owner;  // images on a tensor's slices
    } else if (ref->container != nullptr && ref->container->type != VX_TYPE_DELAY) {
      ref = ref->container;  // not a delay's: its slots are separate data (slot 0 written, -1 read: no cycle)
    } else if (ref->type == VX_TYPE_TENSOR && static_cast<_vx_tensor_t*>(ref)->memory) {
      return static_cast<_vx_tensor_t*>(ref)->memory.get();  // shared by a tensor and its views
    } else {
      return ref;
    }
  }
}

vx_reference create_like(vx_reference owner, vx_reference exemplar) noexcept {
  switch (exemplar->type) {
    case VX_TYPE_SCALAR: return scalar_like(owner, static_cast<const _vx_scalar*>(exemplar));
    case VX_TYPE_IMAGE: return image_like(owner, static_cast<const _vx_image*>(exemplar));
    case VX_TYPE_PYRAMID: return pyramid_like(owner, static_cast<const _vx_pyramid*>(exemplar));
    case VX_TYPE_REMAP: return remap_like(owner, static_cast<const _vx_remap*>(exemplar));
    case VX_TYPE_TENSOR: return tensor_like(owner, static_cast<const _vx_tensor_t*>(exemplar));
    case VX_TYPE_LUT: return lut_like(owner, static_cast<const _vx_lut*>(exemplar));
    case VX_TYPE_MATRIX: return matrix_like(owner, static_cast<const _vx_matrix*>(exemplar));
    case VX_TYPE_CONVOLUTION: return convolution_like(owner, static_cast<const _vx_convolution*>(exemplar));
    case VX_TYPE_THRESHOLD: return threshold_like(owner, static_cast<const _vx_threshold*>(exemplar));
    case VX_TYPE_DISTRIBUTION: return distribution_like(owner, static_cast<const _vx_distribution*>(exemplar));
    case VX_TYPE_ARRAY: return array_like(owner, static_cast<const _vx_array*>(exemplar));
    case VX_TYPE_OBJECT_ARRAY: return object_array_like(owner, static_cast<const _vx_object_array*>(exemplar));
    case VX_TYPE_USER_DATA_OBJECT: return user_data_object_like(owner, static_cast<const _vx_user_data_object*>(exemplar));
    default: return error_object(owner, VX_ERROR_NOT_SUPPORTED);
  }
}

vx_status meta_from_reference(vx_meta_format meta, vx_reference exemplar) noexcept {
  switch (exemplar->type) {
    case VX_TYPE_SCALAR: meta->scalar_type = static_cast<const _vx_scalar*>(exemplar)->data_type; return VX_SUCCESS;
    case VX_TYPE_IMAGE: return image_meta_from(meta, static_cast<const _vx_image*>(exemplar));
    case VX_TYPE_PYRAMID: return pyramid_meta_from(meta, static_cast<const _vx_pyramid*>(exemplar));
    case VX_TYPE_REMAP: return remap_meta_from(meta, static_cast<const _vx_remap*>(exemplar));
    case VX_TYPE_TENSOR: return tensor_meta_from(meta, static_cast<const _vx_tensor_t*>(exemplar));
    case VX_TYPE_LUT: return lut_meta_from(meta, static_cast<const _vx_lut*>(exemplar));
    case VX_TYPE_MATRIX: return matrix_meta_from(meta, static_cast<const _vx_matrix*>(exemplar));
    case VX_TYPE_CONVOLUTION: return convolution_meta_from(meta, static_cast<const _vx_convolution*>(exemplar));
    case VX_TYPE_THRESHOLD: return threshold_meta_from(meta, static_cast<const _vx_threshold*>(exemplar));
    case VX_TYPE_DISTRIBUTION: return distribution_meta_from(meta, static_cast<const _vx_distribution*>(exemplar));
    case VX_TYPE_ARRAY: array_meta(meta, static_cast<const _vx_array*>(exemplar)); return VX_SUCCESS;
    case VX_TYPE_OBJECT_ARRAY: object_array_meta(meta, static_cast<const _vx_object_array*>(exemplar)); return VX_SUCCESS;
    case VX_TYPE_USER_DATA_OBJECT:
      user_data_object_meta(meta, static_cast<const _vx_user_data_object*>(exemplar));
      return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

vx_status apply_meta(vx_reference output, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  switch (output->type) {
    case VX_TYPE_SCALAR: return scalar_apply_meta(static_cast<_vx_scalar*>(output), meta, why, why_size);
    case VX_TYPE_IMAGE: return image_apply_meta(static_cast<_vx_image*>(output), meta, why, why_size);
    case VX_TYPE_PYRAMID: return pyramid_apply_meta(static_cast<_vx_pyramid*>(output), meta, why, why_size);
    case VX_TYPE_REMAP: return remap_apply_meta(static_cast<_vx_remap*>(output), meta, why, why_size);
    case VX_TYPE_TENSOR: return tensor_apply_meta(static_cast<_vx_tensor_t*>(output), meta, why, why_size);
    case VX_TYPE_LUT: return lut_apply_meta(static_cast<_vx_lut*>(output), meta, why, why_size);
    case VX_TYPE_MATRIX: return matrix_apply_meta(static_cast<_vx_matrix*>(output), meta, why, why_size);
    case VX_TYPE_CONVOLUTION: return convolution_apply_meta(static_cast<_vx_convolution*>(output), meta, why, why_size);
    case VX_TYPE_THRESHOLD: return threshold_apply_meta(static_cast<_vx_threshold*>(output), meta, why, why_size);
    case VX_TYPE_DISTRIBUTION: return distribution_apply_meta(static_cast<_vx_distribution*>(output), meta, why, why_size);
    case VX_TYPE_ARRAY: return array_apply_meta(static_cast<_vx_array*>(output), meta, why, why_size);
    case VX_TYPE_OBJECT_ARRAY: return object_array_apply_meta(static_cast<_vx_object_array*>(output), meta, why, why_size);
    case VX_TYPE_USER_DATA_OBJECT:
      return user_data_object_apply_meta(static_cast<_vx_user_data_object*>(output), meta, why, why_size);
    default: return VX_SUCCESS;  // not created by this library yet (docs/openvx.md)
  }
}

vx_status content_access(bool is_virtual) noexcept {
  return is_virtual && !inside_graph_execution() ? VX_ERROR_OPTIMIZED_AWAY : VX_SUCCESS;
}

bool is_copy_usage(vx_enum usage) noexcept { return usage == VX_READ_ONLY || usage == VX_WRITE_ONLY; }

bool is_map_usage(vx_enum usage) noexcept { return is_copy_usage(usage) || usage == VX_READ_AND_WRITE; }

bool is_map_flags(vx_uint32 flags) noexcept { return (flags & ~static_cast<vx_uint32>(VX_NOGAP_X)) == 0; }

}  // namespace vg::openvx
