#pragma once
// Scalars: a typed value, or a user struct of a registered size.
#include <vector>

#include "object.hpp"

struct _vx_scalar final : _vx_reference {
  _vx_scalar(vx_context owner, vx_enum data_type_, vx_size size) : _vx_reference(VX_TYPE_SCALAR, owner), data_type(data_type_), bytes(size, 0) {}

  vx_enum data_type;
  std::vector<vx_uint8> bytes;
  bool is_virtual = false;
};

namespace vg::openvx {

/// Size of a scalar of @p type (0 for a type a scalar cannot hold). User structs are sized by the context.
vx_size scalar_size(vx_context context, vx_enum type) noexcept;

/// A scalar of @p exemplar's type, owned by @p owner (a graph makes it virtual); see data_object.hpp.
vx_reference scalar_like(vx_reference owner, const _vx_scalar* exemplar) noexcept;

/// Validate's VX_SCALAR_TYPE applied to an output scalar (data_object.hpp, apply_meta).
vx_status scalar_apply_meta(_vx_scalar* scalar, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
