// Convolutions: creation, coefficient copies, scale, queries, and the data object operations.
#include "convolution.hpp"

#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_convolution error_convolution(vx_reference owner, vx_status status) noexcept {
  return reinterpret_cast<vx_convolution>(error_object(owner, status));
}

/// A convolution side: odd, from 3 to VX_CONTEXT_CONVOLUTION_MAX_DIMENSION.
bool valid_side(vx_size n) noexcept { return n >= 3 && n <= kMaxConvolutionDimension && n % 2 == 1; }

vx_convolution make_convolution(vx_reference owner, vx_size columns, vx_size rows, bool is_virtual) noexcept {
  const bool rows_ok = valid_side(rows) || (is_virtual && rows == 0);
  const bool columns_ok = valid_side(columns) || (is_virtual && columns == 0);
  if (!rows_ok || !columns_ok) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateConvolution: %zu x %zu; odd sizes from 3 to %zu are needed", columns, rows,
        kMaxConvolutionDimension);
    return error_convolution(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  auto* convolution = new (std::nothrow) _vx_convolution(context_of(owner));
  if (convolution == nullptr) return error_convolution(owner, VX_ERROR_NO_MEMORY);
  convolution->rows = convolution->requested_rows = rows;
  convolution->columns = convolution->requested_columns = columns;
  convolution->is_virtual = is_virtual;
  vx_size bytes = 0;
  if (!is_virtual && (!checked_bytes(bytes, rows, columns, sizeof(vx_int16)) || !convolution->data.allocate(bytes))) {
    delete convolution;
    return error_convolution(owner, VX_ERROR_NO_MEMORY);
  }
  vx_reference ref = adopt(convolution, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_convolution>(ref) : error_convolution(owner, VX_ERROR_NO_MEMORY);
}

}  // namespace

vx_reference convolution_like(vx_reference owner, const _vx_convolution* exemplar) noexcept {
  vx_convolution made = make_convolution(owner, exemplar->columns, exemplar->rows, owner->type == VX_TYPE_GRAPH);
  if (made != nullptr && made->type == VX_TYPE_CONVOLUTION) made->scale = exemplar->scale;  // not an error object
  return reinterpret_cast<vx_reference>(made);
}

vx_status convolution_meta_from(vx_meta_format meta, const _vx_convolution* exemplar) noexcept {
  meta->rows = exemplar->rows;
  meta->columns = exemplar->columns;
  return VX_SUCCESS;
}

vx_status convolution_apply_meta(_vx_convolution* convolution, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (!convolution->is_virtual && meta->rows == 0 && meta->columns == 0) {
    std::snprintf(why, why_size, "validate did not describe the convolution (VX_CONVOLUTION_ROWS, VX_CONVOLUTION_COLUMNS)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size rows = convolution->is_virtual ? convolution->requested_rows : convolution->rows;
  vx_size columns = convolution->is_virtual ? convolution->requested_columns : convolution->columns;
  if ((meta->rows != 0 && rows != 0 && meta->rows != rows) || (meta->columns != 0 && columns != 0 && meta->columns != columns)) {
    std::snprintf(why, why_size, "the convolution is %zu x %zu (columns x rows), validate says %zu x %zu", columns, rows,
                  meta->columns, meta->rows);
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (rows == 0) rows = meta->rows;
  if (columns == 0) columns = meta->columns;
  if (!valid_side(rows) || !valid_side(columns)) {
    std::snprintf(why, why_size, "validate did not set valid VX_CONVOLUTION_ROWS and VX_CONVOLUTION_COLUMNS");
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (!convolution->is_virtual) return VX_SUCCESS;
  vx_size bytes = 0;
  if (!checked_bytes(bytes, rows, columns, sizeof(vx_int16)) || !convolution->data.allocate(bytes)) return VX_ERROR_NO_MEMORY;
  convolution->rows = rows;
  convolution->columns = columns;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_convolution VX_API_CALL vxCreateConvolution(vx_context context, vx_size columns, vx_size rows) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_convolution(context, columns, rows, false));
}

VX_API_ENTRY vx_convolution VX_API_CALL vxCreateVirtualConvolution(vx_graph graph, vx_size columns, vx_size rows) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_convolution(reinterpret_cast<vx_reference>(graph), columns, rows, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryConvolution(vx_convolution convolution, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(convolution, VX_TYPE_CONVOLUTION)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_CONVOLUTION_ROWS: return put<vx_size>(ptr, size, convolution->rows);
    case VX_CONVOLUTION_COLUMNS: return put<vx_size>(ptr, size, convolution->columns);
    case VX_CONVOLUTION_SCALE: return put<vx_uint32>(ptr, size, convolution->scale);
    case VX_CONVOLUTION_SIZE: return put<vx_size>(ptr, size, convolution->rows * convolution->columns * sizeof(vx_int16));  // sides bounded
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetConvolutionAttribute(vx_convolution convolution, vx_enum attribute, const void* ptr,
                                                             vx_size size) {
  if (!valid(convolution, VX_TYPE_CONVOLUTION)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_CONVOLUTION_SCALE: {
      vx_uint32 scale = 0;
      if (const vx_status s = get(ptr, size, scale); s != VX_SUCCESS) return s;
      if (scale == 0 || (scale & (scale - 1)) != 0) return VX_ERROR_INVALID_PARAMETERS;  // a power of two
      convolution->scale = scale;
      return VX_SUCCESS;
    }
    case VX_CONVOLUTION_ROWS:
    case VX_CONVOLUTION_COLUMNS:
    case VX_CONVOLUTION_SIZE: return VX_ERROR_NOT_SUPPORTED;  // read-only
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyConvolutionCoefficients(vx_convolution convolution, void* user_ptr, vx_enum usage,
                                                                 vx_enum user_mem_type) {
  if (!valid(convolution, VX_TYPE_CONVOLUTION)) return VX_ERROR_INVALID_REFERENCE;
  return convolution->data.copy(convolution->is_virtual, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseConvolution(vx_convolution* convolution) {
  return release_handle(convolution, VX_TYPE_CONVOLUTION);
}

}  // extern "C"
