// Immediate-mode (vxu) functions this library declares but does not implement yet: each returns
// VX_ERROR_NOT_IMPLEMENTED.
#include <VX/vxu.h>

extern "C" {

// Color, channels and per-pixel image functions.

// Filters.

// Pyramids.

// Arithmetic, statistics and bitwise functions.

// Geometry, features and optical flow.
VX_API_ENTRY vx_status VX_API_CALL vxuHOGCells(vx_context, vx_image, vx_int32, vx_int32, vx_int32, vx_tensor,
    vx_tensor) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxuHOGFeatures(vx_context, vx_image, vx_tensor, vx_tensor, const vx_hog_t*, vx_size,
    vx_tensor) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Tensor functions.

// Data copy.

}  // extern "C"
