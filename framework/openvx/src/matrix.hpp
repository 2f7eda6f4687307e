#pragma once
// Matrices: rows x columns of VX_TYPE_INT32, VX_TYPE_FLOAT32 or VX_TYPE_UINT8 (patterns), row-major, with
// an origin and the pattern they were made from.
#include "flat_data.hpp"
#include "object.hpp"

struct _vx_matrix final : _vx_reference {
  explicit _vx_matrix(vx_context owner) noexcept : _vx_reference(VX_TYPE_MATRIX, owner) {}

  vx_enum data_type = VX_TYPE_INVALID;  // VX_TYPE_INVALID / 0 sizes: left open (virtual) for validate to set
  vx_size rows = 0, columns = 0;
  vx_coordinates2d_t origin{};
  vx_enum pattern = VX_PATTERN_OTHER;
  vg::openvx::FlatData data;
  bool is_virtual = false;
  vx_enum requested_data_type = VX_TYPE_INVALID;  // what a virtual matrix was created with
  vx_size requested_rows = 0, requested_columns = 0;
};

namespace vg::openvx {

vx_reference matrix_like(vx_reference owner, const _vx_matrix* exemplar) noexcept;
vx_status matrix_meta_from(vx_meta_format meta, const _vx_matrix* exemplar) noexcept;
vx_status matrix_apply_meta(_vx_matrix* matrix, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
