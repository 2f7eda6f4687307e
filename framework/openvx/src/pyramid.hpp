#pragma once
// Pyramids: a fixed number of images, each level the previous one scaled (sizes rounded up), held by the
// pyramid; a level handed to the application is a counted reference of its own.
#include <vector>

#include "object.hpp"

struct _vx_pyramid final : _vx_reference {
  explicit _vx_pyramid(vx_context owner) noexcept : _vx_reference(VX_TYPE_PYRAMID, owner) {}
  ~_vx_pyramid() override;

  vx_size levels = 0;
  vx_float32 scale = 0.0f;
  vx_uint32 width = 0;   // of level 0; 0 in a virtual pyramid until its producer's validate says
  vx_uint32 height = 0;
  vx_df_image format = VX_DF_IMAGE_VIRT;
  bool is_virtual = false;
  std::vector<vx_image> images;  // one per level, held internally, their container is this pyramid
};

namespace vg::openvx {

/// A pyramid like @p exemplar, owned by @p owner (a graph makes it virtual).
vx_reference pyramid_like(vx_reference owner, const _vx_pyramid* exemplar) noexcept;

/// vxSetMetaFormatFromReference for a pyramid.
vx_status pyramid_meta_from(vx_meta_format meta, const _vx_pyramid* pyramid) noexcept;

/// Validate's levels, scale, size and format applied to an output pyramid (data_object.hpp, apply_meta).
vx_status pyramid_apply_meta(_vx_pyramid* pyramid, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
