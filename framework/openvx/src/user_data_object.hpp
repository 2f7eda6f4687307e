#pragma once
// User data objects (vx_khr_user_data_object): a named block of bytes the application defines, taken
// whole when created (or at verification for a virtual one), so maps point straight into it.
#include <VX/vx_khr_user_data_object.h>

#include "flat_data.hpp"
#include "object.hpp"

struct _vx_user_data_object final : _vx_reference {
  _vx_user_data_object(vx_context owner, vx_size size_, bool is_virtual_) noexcept
      : _vx_reference(VX_TYPE_USER_DATA_OBJECT, owner),
        size(size_),
        is_virtual(is_virtual_),
        size_open(is_virtual_ && size_ == 0) {}

  // VX_USER_DATA_OBJECT_NAME ("" when none) and _SIZE: fixed at creation, except a virtual object's open
  // ones ("" and 0), which each verification sets from the producer's validate (no kernel runs then).
  vx_char type_name[VX_MAX_REFERENCE_NAME] = {};
  vx_size size;
  const bool is_virtual;
  const bool size_open;
  bool name_open = false;

  vg::openvx::FlatData data;  // `size` bytes once allocated (a virtual object's at verification)
};

namespace vg::openvx {

/// A user data object of @p exemplar's name and size, owned by @p owner (a graph makes it virtual).
vx_reference user_data_object_like(vx_reference owner, const _vx_user_data_object* exemplar) noexcept;

/// vxSetMetaFormatFromReference with a user data object.
void user_data_object_meta(vx_meta_format meta, const _vx_user_data_object* exemplar) noexcept;

/// Validate's VX_USER_DATA_OBJECT_SIZE / _NAME applied to an output user data object (data_object.hpp).
vx_status user_data_object_apply_meta(_vx_user_data_object* object, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
