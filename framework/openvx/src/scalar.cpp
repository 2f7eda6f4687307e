// Scalars.
#include "scalar.hpp"

#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"

#include <cstdio>

namespace vg::openvx {

vx_size scalar_size(vx_context context, vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_CHAR: return sizeof(vx_char);
    case VX_TYPE_INT8: return sizeof(vx_int8);
    case VX_TYPE_UINT8: return sizeof(vx_uint8);
    case VX_TYPE_INT16: return sizeof(vx_int16);
    case VX_TYPE_UINT16: return sizeof(vx_uint16);
    case VX_TYPE_INT32: return sizeof(vx_int32);
    case VX_TYPE_UINT32: return sizeof(vx_uint32);
    case VX_TYPE_INT64: return sizeof(vx_int64);
    case VX_TYPE_UINT64: return sizeof(vx_uint64);
    case VX_TYPE_FLOAT16: return 2;
    case VX_TYPE_FLOAT32: return sizeof(vx_float32);
    case VX_TYPE_FLOAT64: return sizeof(vx_float64);
    case VX_TYPE_ENUM: return sizeof(vx_enum);
    case VX_TYPE_SIZE: return sizeof(vx_size);
    case VX_TYPE_DF_IMAGE: return sizeof(vx_df_image);
    case VX_TYPE_BOOL: return sizeof(vx_bool);
    // Structs a scalar may hold (vxCreateScalarWithSize).
    case VX_TYPE_RECTANGLE: return sizeof(vx_rectangle_t);
    case VX_TYPE_KEYPOINT: return sizeof(vx_keypoint_t);
    case VX_TYPE_COORDINATES2D: return sizeof(vx_coordinates2d_t);
    case VX_TYPE_COORDINATES3D: return sizeof(vx_coordinates3d_t);
    case VX_TYPE_COORDINATES2DF: return sizeof(vx_coordinates2df_t);
    case VX_TYPE_HOG_PARAMS: return sizeof(vx_hog_t);
    case VX_TYPE_HOUGH_LINES_PARAMS: return sizeof(vx_hough_lines_p_t);
    case VX_TYPE_LINE_2D: return sizeof(vx_line2d_t);
    case VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS: return sizeof(vx_tensor_matrix_multiply_params_t);
    default: break;
  }
  if (context == nullptr || type < VX_TYPE_USER_STRUCT_START || type >= VX_TYPE_VENDOR_STRUCT_START) return 0;
  const std::lock_guard guard(context->lock);
  for (const UserStruct& s : context->user_structs) {
    if (s.type == type) return s.size;
  }
  return 0;
}

namespace {

/// Plain scalar types: what vxCreateScalar takes (structs need vxCreateScalarWithSize).
bool is_plain_scalar(vx_enum type) noexcept { return type >= VX_TYPE_CHAR && type <= VX_TYPE_BOOL; }

vx_scalar make_scalar(vx_reference owner, vx_enum type, vx_size size, const void* value, bool is_virtual) noexcept {
  vx_context context = owner->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(owner) : owner->context;
  _vx_scalar* scalar = nullptr;
  try {
    scalar = new _vx_scalar(context, type, size);
  } catch (...) {
    return reinterpret_cast<vx_scalar>(error_object(owner, VX_ERROR_NO_MEMORY));
  }
  if (value != nullptr) std::memcpy(scalar->bytes.data(), value, size);
  scalar->is_virtual = is_virtual;
  vx_reference ref = adopt(scalar, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_scalar>(ref) : reinterpret_cast<vx_scalar>(error_object(owner, VX_ERROR_NO_MEMORY));
}

/// vxCopyScalar and vxCopyScalarWithSize on a checked scalar.
vx_status copy(vx_scalar scalar, vx_size size, void* user_ptr, vx_enum usage, vx_enum user_mem_type) noexcept {
  if (user_ptr == nullptr || size != scalar->bytes.size()) return VX_ERROR_INVALID_PARAMETERS;
  if (user_mem_type != VX_MEMORY_TYPE_HOST) return VX_ERROR_INVALID_PARAMETERS;
  if (const vx_status s = content_access(scalar->is_virtual); s != VX_SUCCESS) return s;
  if (usage == VX_READ_ONLY) {
    std::memcpy(user_ptr, scalar->bytes.data(), size);
  } else if (usage == VX_WRITE_ONLY) {
    std::memcpy(scalar->bytes.data(), user_ptr, size);
  } else {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

}  // namespace

vx_reference scalar_like(vx_reference owner, const _vx_scalar* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(
      make_scalar(owner, exemplar->data_type, exemplar->bytes.size(), nullptr, owner->type == VX_TYPE_GRAPH));
}

vx_status scalar_apply_meta(_vx_scalar* scalar, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->scalar_type == VX_TYPE_INVALID) {
    std::snprintf(why, why_size, "validate did not set VX_SCALAR_TYPE");
    return VX_ERROR_INVALID_TYPE;
  }
  if (scalar->is_virtual && scalar->data_type == VX_TYPE_INVALID) {
    const vx_size size = scalar_size(scalar->context, meta->scalar_type);
    if (size == 0) {
      std::snprintf(why, why_size, "validate set an unknown VX_SCALAR_TYPE 0x%x", static_cast<unsigned>(meta->scalar_type));
      return VX_ERROR_INVALID_TYPE;
    }
    try {
      scalar->data_type = meta->scalar_type;
      scalar->bytes.assign(size, 0);
    } catch (...) {
      return VX_ERROR_NO_MEMORY;
    }
    return VX_SUCCESS;
  }
  if (scalar->data_type != meta->scalar_type) {
    std::snprintf(why, why_size, "the scalar has type 0x%x, validate says 0x%x", static_cast<unsigned>(scalar->data_type),
                  static_cast<unsigned>(meta->scalar_type));
    return VX_ERROR_INVALID_TYPE;
  }
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_scalar VX_API_CALL vxCreateScalar(vx_context context, vx_enum data_type, const void* ptr) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (!is_plain_scalar(data_type)) {
    log(context, VX_ERROR_INVALID_TYPE, "vxCreateScalar: type 0x%x is not a scalar type", static_cast<unsigned>(data_type));
    return to_handle(reinterpret_cast<vx_scalar>(error_object(context, VX_ERROR_INVALID_TYPE)));
  }
  return to_handle(make_scalar(context, data_type, scalar_size(context, data_type), ptr, false));
}

VX_API_ENTRY vx_scalar VX_API_CALL vxCreateScalarWithSize(vx_context context, vx_enum data_type, const void* ptr, vx_size size) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  const vx_size expected = scalar_size(context, data_type);
  if (expected == 0) return to_handle(reinterpret_cast<vx_scalar>(error_object(context, VX_ERROR_INVALID_TYPE)));
  if (size != expected) return to_handle(reinterpret_cast<vx_scalar>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  return to_handle(make_scalar(context, data_type, size, ptr, false));
}

VX_API_ENTRY vx_scalar VX_API_CALL vxCreateVirtualScalar(vx_graph graph, vx_enum data_type) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  // A virtual scalar may leave its type open (VX_TYPE_INVALID) for the producing kernel to set.
  const vx_size size = data_type == VX_TYPE_INVALID ? 0 : scalar_size(graph->context, data_type);
  if (data_type != VX_TYPE_INVALID && size == 0) return to_handle(reinterpret_cast<vx_scalar>(error_object(graph, VX_ERROR_INVALID_TYPE)));
  return to_handle(make_scalar(graph, data_type, size, nullptr, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryScalar(vx_scalar scalar, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(scalar, VX_TYPE_SCALAR)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_SCALAR_TYPE: return put<vx_enum>(ptr, size, scalar->data_type);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyScalar(vx_scalar scalar, void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(scalar, VX_TYPE_SCALAR)) return VX_ERROR_INVALID_REFERENCE;
  return copy(scalar, scalar->bytes.size(), user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyScalarWithSize(vx_scalar scalar, vx_size size, void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(scalar, VX_TYPE_SCALAR)) return VX_ERROR_INVALID_REFERENCE;
  return copy(scalar, size, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseScalar(vx_scalar* scalar) { return release_handle(scalar, VX_TYPE_SCALAR); }

}  // extern "C"
