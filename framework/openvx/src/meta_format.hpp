#pragma once
// Meta formats: what a kernel's validate callback says an output will look like, checked against (or
// applied to) the object bound to that output at verify.
#include <vector>

#include "object.hpp"

struct _vx_meta_format final : _vx_reference {
  _vx_meta_format(vx_context owner, vx_enum object_type_) noexcept : _vx_reference(VX_TYPE_META_FORMAT, owner), object_type(object_type_) {}

  vx_enum object_type;  // the type of object described (VX_TYPE_IMAGE, VX_TYPE_SCALAR, ...)
  // Image
  vx_uint32 image_width = 0, image_height = 0;
  vx_df_image image_format = VX_DF_IMAGE_VIRT;
  vx_kernel_image_valid_rectangle_f valid_rect_callback = nullptr;
  // Array and object array
  vx_enum item_type = VX_TYPE_INVALID;
  vx_size capacity = 0;  // array capacity, object array item count
  // Scalar
  vx_enum scalar_type = VX_TYPE_INVALID;
  // Pyramid
  vx_size levels = 0;
  vx_float32 scale = 0.0f;
  // Matrix, LUT, distribution, threshold, remap: sizes and types
  vx_enum data_type = VX_TYPE_INVALID;
  vx_size rows = 0, columns = 0, count = 0, bins = 0;
  vx_int32 offset = 0;
  vx_uint32 range = 0;
  vx_enum threshold_type = 0;
  vx_uint32 source_width = 0, source_height = 0, destination_width = 0, destination_height = 0;
  // Tensor
  vx_size number_of_dims = 0;
  vx_size dims[vg::openvx::kMaxTensorDims] = {};
  vx_int8 fixed_point_position = 0;
  // User data object
  vx_size user_data_size = 0;
  vx_char user_data_name[VX_MAX_REFERENCE_NAME] = {};
};

namespace vg::openvx {

/// A meta format describing an object of @p object_type, held by the caller internally (release it with
/// release(meta, Hold::internal)); null when out of memory.
vx_meta_format make_meta_format(vx_context context, vx_enum object_type) noexcept;

}  // namespace vg::openvx
