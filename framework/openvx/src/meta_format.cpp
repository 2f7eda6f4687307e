// Meta formats: set from a validate callback, read back by the framework (and, since 1.3, by the kernel).
#include "meta_format.hpp"

#include <VX/vx_khr_user_data_object.h>

#include <cstdio>

#include "context.hpp"
#include "data_object.hpp"
#include "scalar.hpp"

namespace {

using namespace vg::openvx;

enum class Access { set, query };

/// Reads the attribute in (set) or out (query), the size checked against the member's type.
template <typename T>
vx_status field(Access access, void* ptr, vx_size size, T& member) noexcept {
  return access == Access::set ? get(ptr, size, member) : put(ptr, size, member);
}

/// The object type an attribute belongs to (VX_ATTRIBUTE_BASE(vendor, object) puts it in bits 8..19).
vx_enum attribute_object(vx_enum attribute) noexcept { return (attribute >> 8) & 0xFFF; }

vx_status access_attribute(vx_meta_format meta, Access access, vx_enum attribute, void* ptr, vx_size size) noexcept {
  if (attribute == VX_VALID_RECT_CALLBACK) {
    // Valid regions belong to images, and to a pyramid's levels.
    if (meta->object_type != VX_TYPE_IMAGE && meta->object_type != VX_TYPE_PYRAMID) return VX_ERROR_INVALID_TYPE;
    return field(access, ptr, size, meta->valid_rect_callback);
  }
  if (attribute_object(attribute) != meta->object_type) return VX_ERROR_INVALID_TYPE;
  switch (attribute) {
    case VX_IMAGE_WIDTH: return field(access, ptr, size, meta->image_width);
    case VX_IMAGE_HEIGHT: return field(access, ptr, size, meta->image_height);
    case VX_IMAGE_FORMAT: return field(access, ptr, size, meta->image_format);
    case VX_ARRAY_ITEMTYPE: return field(access, ptr, size, meta->item_type);
    case VX_ARRAY_CAPACITY: return field(access, ptr, size, meta->capacity);
    case VX_OBJECT_ARRAY_ITEMTYPE: return field(access, ptr, size, meta->item_type);
    case VX_OBJECT_ARRAY_NUMITEMS: return field(access, ptr, size, meta->capacity);
    case VX_SCALAR_TYPE: return field(access, ptr, size, meta->scalar_type);
    case VX_PYRAMID_LEVELS: return field(access, ptr, size, meta->levels);
    case VX_PYRAMID_SCALE: return field(access, ptr, size, meta->scale);
    case VX_PYRAMID_WIDTH: return field(access, ptr, size, meta->image_width);
    case VX_PYRAMID_HEIGHT: return field(access, ptr, size, meta->image_height);
    case VX_PYRAMID_FORMAT: return field(access, ptr, size, meta->image_format);
    case VX_MATRIX_TYPE: return field(access, ptr, size, meta->data_type);
    case VX_MATRIX_ROWS: return field(access, ptr, size, meta->rows);
    case VX_MATRIX_COLUMNS: return field(access, ptr, size, meta->columns);
    case VX_DISTRIBUTION_BINS: return field(access, ptr, size, meta->bins);
    case VX_DISTRIBUTION_RANGE: return field(access, ptr, size, meta->range);
    case VX_DISTRIBUTION_OFFSET: return field(access, ptr, size, meta->offset);
    case VX_REMAP_SOURCE_WIDTH: return field(access, ptr, size, meta->source_width);
    case VX_REMAP_SOURCE_HEIGHT: return field(access, ptr, size, meta->source_height);
    case VX_REMAP_DESTINATION_WIDTH: return field(access, ptr, size, meta->destination_width);
    case VX_REMAP_DESTINATION_HEIGHT: return field(access, ptr, size, meta->destination_height);
    case VX_LUT_TYPE: return field(access, ptr, size, meta->data_type);
    case VX_LUT_COUNT: return field(access, ptr, size, meta->count);
    case VX_THRESHOLD_TYPE: return field(access, ptr, size, meta->threshold_type);
    case VX_CONVOLUTION_ROWS: return field(access, ptr, size, meta->rows);
    case VX_CONVOLUTION_COLUMNS: return field(access, ptr, size, meta->columns);
    case VX_TENSOR_NUMBER_OF_DIMS: {
      if (access == Access::query) return put(ptr, size, meta->number_of_dims);
      vx_size n = 0;
      if (const vx_status s = get(ptr, size, n); s != VX_SUCCESS) return s;
      if (n == 0 || n > kMaxTensorDims) return VX_ERROR_INVALID_VALUE;
      meta->number_of_dims = n;
      return VX_SUCCESS;
    }
    case VX_TENSOR_DIMS: {
      // An array of VX_TENSOR_NUMBER_OF_DIMS sizes (set that first).
      const vx_size bytes = meta->number_of_dims * sizeof(vx_size);
      if (ptr == nullptr || bytes == 0 || size != bytes) return VX_ERROR_INVALID_PARAMETERS;
      if (access == Access::set) {
        std::memcpy(meta->dims, ptr, bytes);
      } else {
        std::memcpy(ptr, meta->dims, bytes);
      }
      return VX_SUCCESS;
    }
    case VX_TENSOR_DATA_TYPE: return field(access, ptr, size, meta->data_type);
    case VX_TENSOR_FIXED_POINT_POSITION: return field(access, ptr, size, meta->fixed_point_position);
    case VX_USER_DATA_OBJECT_SIZE: return field(access, ptr, size, meta->user_data_size);
    case VX_USER_DATA_OBJECT_NAME: {
      if (ptr == nullptr || size == 0 || size > VX_MAX_REFERENCE_NAME) return VX_ERROR_INVALID_PARAMETERS;
      if (access == Access::set) {
        std::snprintf(meta->user_data_name, sizeof meta->user_data_name, "%.*s", static_cast<int>(size), static_cast<const char*>(ptr));
        return VX_SUCCESS;
      }
      return put_string(ptr, size, meta->user_data_name, VX_MAX_REFERENCE_NAME);
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

}  // namespace

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxSetMetaFormatAttribute(vx_meta_format meta, vx_enum attribute, const void* ptr, vx_size size) {
  if (!valid(meta, VX_TYPE_META_FORMAT)) return VX_ERROR_INVALID_REFERENCE;
  return access_attribute(meta, Access::set, attribute, const_cast<void*>(ptr), size);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryMetaFormatAttribute(vx_meta_format meta, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(meta, VX_TYPE_META_FORMAT)) return VX_ERROR_INVALID_REFERENCE;
  return access_attribute(meta, Access::query, attribute, ptr, size);
}

VX_API_ENTRY vx_status VX_API_CALL vxSetMetaFormatFromReference(vx_meta_format meta, vx_reference exemplar) {
  if (!valid(meta, VX_TYPE_META_FORMAT)) return VX_ERROR_INVALID_REFERENCE;
  if (!valid(exemplar) || exemplar->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  if (exemplar->type != meta->object_type) return VX_ERROR_INVALID_TYPE;
  return meta_from_reference(meta, exemplar);
}

}  // extern "C"

namespace vg::openvx {

vx_meta_format make_meta_format(vx_context context, vx_enum object_type) noexcept {
  auto* meta = new (std::nothrow) _vx_meta_format(context, object_type);
  if (meta == nullptr) return nullptr;
  return reinterpret_cast<vx_meta_format>(adopt(meta, Hold::internal));
}

}  // namespace vg::openvx
