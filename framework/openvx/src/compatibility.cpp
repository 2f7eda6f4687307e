// The functions of <VX/vx_compatibility.h> that are a current function under an OpenVX 1.0-1.1 name:
// each one forwards to its replacement, which checks the handles. (The accumulation nodes are in
// standard_nodes.cpp, the vxuAccumulate* functions in vxu.cpp; the rest are in not_implemented.cpp.)
#include <VX/vx.h>
#include <VX/vx_compatibility.h>

namespace {

/// The one-pixel rectangle at (@p x, @p y) of a remap's destination.
vx_rectangle_t point_rectangle(vx_uint32 x, vx_uint32 y) noexcept { return {x, y, x + 1u, y + 1u}; }

/// The image format of a 1.0 threshold's data type; 0 (which vxCreateThresholdForImage refuses) for others.
vx_df_image threshold_format(vx_enum data_type) noexcept {
  switch (data_type) {
    case VX_TYPE_UINT8: return VX_DF_IMAGE_U8;
    case VX_TYPE_INT16: return VX_DF_IMAGE_S16;
    case VX_TYPE_UINT16: return VX_DF_IMAGE_U16;
    case VX_TYPE_INT32: return VX_DF_IMAGE_S32;
    case VX_TYPE_UINT32: return VX_DF_IMAGE_U32;
    default: return 0;
  }
}

}  // namespace

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxReadMatrix(vx_matrix mat, void* array) {
  return vxCopyMatrix(mat, array, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxWriteMatrix(vx_matrix mat, const void* array) {
  return vxCopyMatrix(mat, const_cast<void*>(array), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxReadConvolutionCoefficients(vx_convolution conv, vx_int16* array) {
  return vxCopyConvolutionCoefficients(conv, array, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxWriteConvolutionCoefficients(vx_convolution conv, const vx_int16* array) {
  return vxCopyConvolutionCoefficients(conv, const_cast<vx_int16*>(array), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxReadScalarValue(vx_scalar ref, void* ptr) {
  return vxCopyScalar(ref, ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxWriteScalarValue(vx_scalar ref, const void* ptr) {
  return vxCopyScalar(ref, const_cast<void*>(ptr), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxSetRemapPoint(vx_remap table, vx_uint32 dst_x, vx_uint32 dst_y, vx_float32 src_x,
                                                   vx_float32 src_y) {
  vx_coordinates2df_t point{src_x, src_y};
  const vx_rectangle_t rect = point_rectangle(dst_x, dst_y);
  return vxCopyRemapPatch(table, &rect, sizeof point, &point, VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

VX_API_ENTRY vx_status VX_API_CALL vxGetRemapPoint(vx_remap table, vx_uint32 dst_x, vx_uint32 dst_y, vx_float32* src_x,
                                                   vx_float32* src_y) {
  if (src_x == nullptr || src_y == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  vx_coordinates2df_t point{};
  const vx_rectangle_t rect = point_rectangle(dst_x, dst_y);
  const vx_status status =
      vxCopyRemapPatch(table, &rect, sizeof point, &point, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS) {
    *src_x = point.x;
    *src_y = point.y;
  }
  return status;
}

// A 1.0 threshold compares values of data_type and writes 8-bit results (true 255, false 0 by default).
VX_API_ENTRY vx_threshold VX_API_CALL vxCreateThreshold(vx_context c, vx_enum thresh_type, vx_enum data_type) {
  return vxCreateThresholdForImage(c, thresh_type, threshold_format(data_type), VX_DF_IMAGE_U8);
}

}  // extern "C"
