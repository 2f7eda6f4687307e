// Matrices: creation (plain, virtual, from a pattern), copies, queries, and the data object operations.
#include "matrix.hpp"

#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_matrix error_matrix(vx_reference owner, vx_status status) noexcept {
  return reinterpret_cast<vx_matrix>(error_object(owner, status));
}

vx_size matrix_item_size(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_UINT8: return sizeof(vx_uint8);
    case VX_TYPE_INT32: return sizeof(vx_int32);
    case VX_TYPE_FLOAT32: return sizeof(vx_float32);
    default: return 0;
  }
}

/// Bytes of a rows x columns matrix of @p type; 0 when more than one object may hold.
vx_size matrix_bytes(vx_enum type, vx_size rows, vx_size columns) noexcept {
  vx_size bytes = 0;
  return checked_bytes(bytes, rows, columns, matrix_item_size(type)) ? bytes : 0;
}

/// The default origin: the centre element (rounded down).
vx_coordinates2d_t centre(vx_size columns, vx_size rows) noexcept {
  return vx_coordinates2d_t{static_cast<vx_uint32>(columns / 2), static_cast<vx_uint32>(rows / 2)};
}

_vx_matrix* make_matrix(vx_reference owner, vx_enum data_type, vx_size columns, vx_size rows, bool is_virtual,
                        vx_status& status) noexcept {
  const bool open_type = is_virtual && data_type == VX_TYPE_INVALID;
  if (!open_type && matrix_item_size(data_type) == 0) {
    status = VX_ERROR_INVALID_TYPE;
    return nullptr;
  }
  const bool open_size = is_virtual && (rows == 0 || columns == 0);
  if (!open_size && (rows == 0 || columns == 0 || (!open_type && matrix_bytes(data_type, rows, columns) == 0))) {
    status = VX_ERROR_INVALID_PARAMETERS;
    return nullptr;
  }
  auto* matrix = new (std::nothrow) _vx_matrix(context_of(owner));
  if (matrix == nullptr) {
    status = VX_ERROR_NO_MEMORY;
    return nullptr;
  }
  matrix->data_type = matrix->requested_data_type = data_type;
  matrix->rows = matrix->requested_rows = rows;
  matrix->columns = matrix->requested_columns = columns;
  matrix->origin = centre(columns, rows);
  matrix->is_virtual = is_virtual;
  if (!is_virtual && !matrix->data.allocate(matrix_bytes(data_type, rows, columns))) {
    delete matrix;
    status = VX_ERROR_NO_MEMORY;
    return nullptr;
  }
  status = VX_SUCCESS;
  return matrix;
}

vx_matrix publish(vx_reference owner, _vx_matrix* matrix, vx_status status) noexcept {
  if (matrix == nullptr) {
    log(owner, status, "vxCreateMatrix: a matrix of UINT8, INT32 or FLOAT32 and at least 1 x 1 is needed");
    return error_matrix(owner, status);
  }
  vx_reference ref = adopt(matrix, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_matrix>(ref) : error_matrix(owner, VX_ERROR_NO_MEMORY);
}

/// Whether element (column, row) belongs to @p pattern: the whole box, the origin's row and column (cross),
/// or the ellipse inscribed in the matrix (disk).
bool in_pattern(vx_enum pattern, vx_size column, vx_size row, vx_size columns, vx_size rows) noexcept {
  switch (pattern) {
    case VX_PATTERN_BOX: return true;
    // Through the matrix's centre whatever the origin (the conformance suite's NonLinearFilter expects it).
    case VX_PATTERN_CROSS: return column == columns / 2 || row == rows / 2;
    case VX_PATTERN_DISK: {
      // Element centres against the ellipse through the middles of the matrix's edges.
      const double dx = (static_cast<double>(column) + 0.5 - columns / 2.0) / (columns / 2.0);
      const double dy = (static_cast<double>(row) + 0.5 - rows / 2.0) / (rows / 2.0);
      return dx * dx + dy * dy <= 1.0;
    }
    default: return false;
  }
}

/// Writes @p matrix's pattern (255 inside, 0 outside) into its UINT8 data.
void fill_pattern(_vx_matrix* matrix) noexcept {
  vx_uint8* data = matrix->data.data();
  for (vx_size r = 0; r < matrix->rows; ++r) {
    for (vx_size c = 0; c < matrix->columns; ++c) {
      data[r * matrix->columns + c] = in_pattern(matrix->pattern, c, r, matrix->columns, matrix->rows) ? 255 : 0;
    }
  }
}

vx_matrix from_pattern(vx_context context, vx_enum pattern, vx_size columns, vx_size rows, vx_size origin_col, vx_size origin_row) noexcept {
  vx_reference owner = reinterpret_cast<vx_reference>(context);
  if (pattern != VX_PATTERN_BOX && pattern != VX_PATTERN_CROSS && pattern != VX_PATTERN_DISK) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateMatrixFromPattern: the pattern is not BOX, CROSS or DISK");
    return error_matrix(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  if (origin_col >= columns || origin_row >= rows) return error_matrix(owner, VX_ERROR_INVALID_PARAMETERS);
  vx_status status = VX_SUCCESS;
  _vx_matrix* matrix = make_matrix(owner, VX_TYPE_UINT8, columns, rows, false, status);
  if (matrix == nullptr) return publish(owner, matrix, status);
  matrix->pattern = pattern;
  matrix->origin = vx_coordinates2d_t{static_cast<vx_uint32>(origin_col), static_cast<vx_uint32>(origin_row)};
  fill_pattern(matrix);
  return publish(owner, matrix, VX_SUCCESS);
}

}  // namespace

vx_reference matrix_like(vx_reference owner, const _vx_matrix* exemplar) noexcept {
  vx_status status = VX_SUCCESS;
  _vx_matrix* matrix = make_matrix(owner, exemplar->data_type, exemplar->columns, exemplar->rows,
                                   owner->type == VX_TYPE_GRAPH, status);
  if (matrix != nullptr) {
    matrix->origin = exemplar->origin;
    matrix->pattern = exemplar->pattern;
    // A pattern is part of what the matrix is: a non-virtual one made like a pattern matrix holds it too.
    if (matrix->pattern != VX_PATTERN_OTHER && matrix->data.allocated()) fill_pattern(matrix);
  }
  return reinterpret_cast<vx_reference>(publish(owner, matrix, status));
}

vx_status matrix_meta_from(vx_meta_format meta, const _vx_matrix* exemplar) noexcept {
  meta->data_type = exemplar->data_type;
  meta->rows = exemplar->rows;
  meta->columns = exemplar->columns;
  return VX_SUCCESS;
}

vx_status matrix_apply_meta(_vx_matrix* matrix, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (!matrix->is_virtual && meta->data_type == VX_TYPE_INVALID && meta->rows == 0 && meta->columns == 0) {
    std::snprintf(why, why_size, "validate did not describe the matrix (VX_MATRIX_TYPE, VX_MATRIX_ROWS, VX_MATRIX_COLUMNS)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_enum type = matrix->is_virtual ? matrix->requested_data_type : matrix->data_type;
  vx_size rows = matrix->is_virtual ? matrix->requested_rows : matrix->rows;
  vx_size columns = matrix->is_virtual ? matrix->requested_columns : matrix->columns;
  if (meta->data_type != VX_TYPE_INVALID && type != VX_TYPE_INVALID && meta->data_type != type) {
    std::snprintf(why, why_size, "the matrix has type 0x%x, validate says 0x%x", static_cast<unsigned>(type),
                  static_cast<unsigned>(meta->data_type));
    return VX_ERROR_INVALID_TYPE;
  }
  if ((meta->rows != 0 && rows != 0 && meta->rows != rows) || (meta->columns != 0 && columns != 0 && meta->columns != columns)) {
    std::snprintf(why, why_size, "the matrix is %zu x %zu (columns x rows), validate says %zu x %zu", columns, rows,
                  meta->columns, meta->rows);
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (type == VX_TYPE_INVALID) type = meta->data_type;
  if (rows == 0) rows = meta->rows;
  if (columns == 0) columns = meta->columns;
  const vx_size bytes = matrix_bytes(type, rows, columns);
  if (bytes == 0) {
    std::snprintf(why, why_size, "validate did not set a valid VX_MATRIX_TYPE, VX_MATRIX_ROWS and VX_MATRIX_COLUMNS");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!matrix->is_virtual) return VX_SUCCESS;
  if (!matrix->data.allocate(bytes)) return VX_ERROR_NO_MEMORY;
  const bool reshaped = matrix->rows != rows || matrix->columns != columns;
  matrix->data_type = type;
  matrix->rows = rows;
  matrix->columns = columns;
  if (reshaped) matrix->origin = centre(columns, rows);
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrix(vx_context context, vx_enum data_type, vx_size columns, vx_size rows) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  vx_status status = VX_SUCCESS;
  _vx_matrix* matrix = make_matrix(context, data_type, columns, rows, false, status);
  return to_handle(publish(context, matrix, status));
}

VX_API_ENTRY vx_matrix VX_API_CALL vxCreateVirtualMatrix(vx_graph graph, vx_enum data_type, vx_size columns, vx_size rows) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  vx_reference owner = reinterpret_cast<vx_reference>(graph);
  vx_status status = VX_SUCCESS;
  _vx_matrix* matrix = make_matrix(owner, data_type, columns, rows, true, status);
  return to_handle(publish(owner, matrix, status));
}

VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrixFromPattern(vx_context context, vx_enum pattern, vx_size columns, vx_size rows) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(from_pattern(context, pattern, columns, rows, columns / 2, rows / 2));
}

VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrixFromPatternAndOrigin(vx_context context, vx_enum pattern, vx_size columns,
                                                                      vx_size rows, vx_size origin_col, vx_size origin_row) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(from_pattern(context, pattern, columns, rows, origin_col, origin_row));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryMatrix(vx_matrix matrix, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(matrix, VX_TYPE_MATRIX)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_MATRIX_TYPE: return put<vx_enum>(ptr, size, matrix->data_type);
    case VX_MATRIX_ROWS: return put<vx_size>(ptr, size, matrix->rows);
    case VX_MATRIX_COLUMNS: return put<vx_size>(ptr, size, matrix->columns);
    case VX_MATRIX_SIZE: return put<vx_size>(ptr, size, matrix_bytes(matrix->data_type, matrix->rows, matrix->columns));
    case VX_MATRIX_ORIGIN: return put<vx_coordinates2d_t>(ptr, size, matrix->origin);
    case VX_MATRIX_PATTERN: return put<vx_enum>(ptr, size, matrix->pattern);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyMatrix(vx_matrix matrix, void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(matrix, VX_TYPE_MATRIX)) return VX_ERROR_INVALID_REFERENCE;
  return matrix->data.copy(matrix->is_virtual, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseMatrix(vx_matrix* matrix) { return release_handle(matrix, VX_TYPE_MATRIX); }

}  // extern "C"
