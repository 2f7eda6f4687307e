#pragma once
// Distributions: histograms of vx_int32 frequencies, bins spread evenly over [offset, offset + range).
#include "flat_data.hpp"
#include "object.hpp"

struct _vx_distribution final : _vx_reference {
  explicit _vx_distribution(vx_context owner) noexcept : _vx_reference(VX_TYPE_DISTRIBUTION, owner) {}

  vx_size bins = 0;    // 0 / range 0: left open (virtual) for validate to set
  vx_int32 offset = 0;
  vx_uint32 range = 0;
  vg::openvx::FlatData data;
  bool is_virtual = false;
  vx_size requested_bins = 0;  // what a virtual distribution was created with
  vx_uint32 requested_range = 0;
};

namespace vg::openvx {

vx_reference distribution_like(vx_reference owner, const _vx_distribution* exemplar) noexcept;
vx_status distribution_meta_from(vx_meta_format meta, const _vx_distribution* exemplar) noexcept;
vx_status distribution_apply_meta(_vx_distribution* distribution, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
