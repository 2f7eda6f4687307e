#pragma once
// Lookup tables: VX_TYPE_UINT8 (up to 256 entries) or VX_TYPE_INT16 (up to 65536, centred on index 0).
#include "flat_data.hpp"
#include "object.hpp"

struct _vx_lut final : _vx_reference {
  explicit _vx_lut(vx_context owner) noexcept : _vx_reference(VX_TYPE_LUT, owner) {}

  vx_enum data_type = VX_TYPE_INVALID;  // VX_TYPE_INVALID / count 0: left open (virtual) for validate to set
  vx_size count = 0;
  vg::openvx::FlatData data;
  bool is_virtual = false;
  vx_enum requested_data_type = VX_TYPE_INVALID;  // what a virtual LUT was created with
  vx_size requested_count = 0;
};

namespace vg::openvx {

vx_reference lut_like(vx_reference owner, const _vx_lut* exemplar) noexcept;
vx_status lut_meta_from(vx_meta_format meta, const _vx_lut* exemplar) noexcept;
vx_status lut_apply_meta(_vx_lut* lut, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
