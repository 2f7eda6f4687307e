#pragma once
// Convolutions: odd-sized rows x columns of vx_int16 coefficients and a power-of-two scale.
#include "flat_data.hpp"
#include "object.hpp"

struct _vx_convolution final : _vx_reference {
  explicit _vx_convolution(vx_context owner) noexcept : _vx_reference(VX_TYPE_CONVOLUTION, owner) {}

  vx_size rows = 0, columns = 0;  // 0: left open (virtual) for validate to set
  vx_uint32 scale = 1;
  vg::openvx::FlatData data;
  bool is_virtual = false;
  vx_size requested_rows = 0, requested_columns = 0;  // what a virtual convolution was created with
};

namespace vg::openvx {

/// VX_CONTEXT_CONVOLUTION_MAX_DIMENSION: the largest side of a convolution (and of a neighbourhood kernel's
/// window).
inline constexpr vx_size kMaxConvolutionDimension = 15;

vx_reference convolution_like(vx_reference owner, const _vx_convolution* exemplar) noexcept;
vx_status convolution_meta_from(vx_meta_format meta, const _vx_convolution* exemplar) noexcept;
vx_status convolution_apply_meta(_vx_convolution* convolution, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
