#pragma once
// Thresholds (the 1.3 API): a binary value or a range, with the true and false output values, for given
// input and output image formats.
#include <mutex>

#include "object.hpp"

struct _vx_threshold final : _vx_reference {
  explicit _vx_threshold(vx_context owner) noexcept : _vx_reference(VX_TYPE_THRESHOLD, owner) {}

  vx_enum threshold_type = VX_THRESHOLD_TYPE_BINARY;
  vx_df_image input_format = VX_DF_IMAGE_U8;
  vx_df_image output_format = VX_DF_IMAGE_U8;
  std::mutex lock;  // the values below are copied whole, from kernels on several threads too
  vx_pixel_value_t value{}, lower{}, upper{}, true_value{}, false_value{};
  bool is_virtual = false;
};

namespace vg::openvx {

vx_reference threshold_like(vx_reference owner, const _vx_threshold* exemplar) noexcept;
vx_status threshold_meta_from(vx_meta_format meta, const _vx_threshold* exemplar) noexcept;
vx_status threshold_apply_meta(_vx_threshold* threshold, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
