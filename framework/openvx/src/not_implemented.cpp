// OpenVX functions this library declares but does not implement yet. Each one fails cleanly: status
// functions return VX_ERROR_NOT_IMPLEMENTED, creators return an error object (see vxGetStatus) owned
// by the context of the reference they were given, other functions return a null or zero value.
#include <VX/vx.h>
#include <VX/vx_compatibility.h>
#include <VX/vx_khr_nn.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>

#include "error_object.hpp"
#include "object.hpp"

namespace {

/// The handle of the VX_ERROR_NOT_IMPLEMENTED error object of @p owner's context, as the handle type
/// @p T (NULL when @p owner is no live handle).
template <class T, class Owner>
T not_implemented(Owner owner) noexcept {
  auto ref = reinterpret_cast<vx_reference>(owner);
  if (!vg::openvx::valid(ref)) return nullptr;
  return reinterpret_cast<T>(vg::openvx::to_handle(vg::openvx::error_object(ref, VX_ERROR_NOT_IMPLEMENTED)));
}

}  // namespace

extern "C" {

// Node creators: color, channels and per-pixel image functions.

// Node creators: filters.

// Node creators: pyramids.

// Node creators: arithmetic, statistics and bitwise functions.

// Node creators: control flow.

// Node creators: pixel-wise arithmetic and depth conversion.

// Node creators: features, geometry and optical flow.

// Node creators: tensor functions.

// Node creators: data copy.

// Node creators: neural network layers (vx_khr_nn), and the normalization layer of <VX/vx_compatibility.h>.
VX_API_ENTRY vx_node VX_API_CALL vxConvolutionLayer(vx_graph graph, vx_tensor, vx_tensor, vx_tensor,
    const vx_nn_convolution_params_t*, vx_size, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxFullyConnectedLayer(vx_graph graph, vx_tensor, vx_tensor, vx_tensor, vx_enum, vx_enum,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxPoolingLayer(vx_graph graph, vx_tensor, vx_enum, vx_size, vx_size, vx_size, vx_size,
    vx_enum, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxSoftmaxLayer(vx_graph graph, vx_tensor, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxLocalResponseNormalizationLayer(vx_graph graph, vx_tensor, vx_enum, vx_size, vx_float32,
    vx_float32, vx_float32, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxActivationLayer(vx_graph graph, vx_tensor, vx_enum, vx_float32, vx_float32, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxROIPoolingLayer(vx_graph graph, vx_tensor, vx_tensor, const vx_nn_roi_pool_params_t*,
    vx_size, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxDeconvolutionLayer(vx_graph graph, vx_tensor, vx_tensor, vx_tensor,
    const vx_nn_deconvolution_params_t*, vx_size, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxNormalizationLayer(vx_graph graph, vx_tensor, vx_enum, vx_size, vx_float32, vx_float32,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}

// OpenVX 1.0 functions of <VX/vx_compatibility.h> without a one-call replacement: the 1.0 user kernel
// registration and the access / commit pairs (the map / unmap functions do their work today).
VX_API_ENTRY vx_kernel VX_API_CALL vxAddKernel(vx_context context, const vx_char[VX_MAX_KERNEL_NAME], vx_enum, vx_kernel_f,
    vx_uint32, vx_kernel_input_validate_f, vx_kernel_output_validate_f, vx_kernel_initialize_f,
    vx_kernel_deinitialize_f) {
  return not_implemented<vx_kernel>(context);
}
VX_API_ENTRY vx_size VX_API_CALL vxComputeImagePatchSize(vx_image, const vx_rectangle_t*, vx_uint32) {
  return 0;
}
VX_API_ENTRY vx_status VX_API_CALL vxAccessImagePatch(vx_image, const vx_rectangle_t*, vx_uint32,
    vx_imagepatch_addressing_t*, void**, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCommitImagePatch(vx_image, const vx_rectangle_t*, vx_uint32,
    const vx_imagepatch_addressing_t*, const void*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxAccessArrayRange(vx_array, vx_size, vx_size, vx_size*, void**, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCommitArrayRange(vx_array, vx_size, vx_size, const void*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxAccessDistribution(vx_distribution, void**, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCommitDistribution(vx_distribution, const void*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxAccessLUT(vx_lut, void**, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCommitLUT(vx_lut, const void*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
