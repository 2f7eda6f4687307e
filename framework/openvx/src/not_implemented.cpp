// OpenVX functions this library declares but does not implement yet. Each one fails cleanly: status
// functions return VX_ERROR_NOT_IMPLEMENTED, creators return an error object (see vxGetStatus) owned
// by the context of the reference they were given, other functions return a null or zero value.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>

#include "error_object.hpp"

namespace {

/// The VX_ERROR_NOT_IMPLEMENTED error object of @p owner's context, as the handle type @p T.
template <class T, class Owner>
T not_implemented(Owner owner) noexcept {
  return reinterpret_cast<T>(
      vg::openvx::error_object(reinterpret_cast<vx_reference>(owner), VX_ERROR_NOT_IMPLEMENTED));
}

}  // namespace

extern "C" {

// Images.
VX_API_ENTRY vx_image VX_API_CALL vxCreateImage(vx_context context, vx_uint32, vx_uint32, vx_df_image) {
  return not_implemented<vx_image>(context);
}
VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromROI(vx_image img, const vx_rectangle_t*) {
  return not_implemented<vx_image>(img);
}
VX_API_ENTRY vx_image VX_API_CALL vxCreateUniformImage(vx_context context, vx_uint32, vx_uint32, vx_df_image,
    const vx_pixel_value_t*) {
  return not_implemented<vx_image>(context);
}
VX_API_ENTRY vx_image VX_API_CALL vxCreateVirtualImage(vx_graph graph, vx_uint32, vx_uint32, vx_df_image) {
  return not_implemented<vx_image>(graph);
}
VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromHandle(vx_context context, vx_df_image,
    const vx_imagepatch_addressing_t[], void* const[], vx_enum) {
  return not_implemented<vx_image>(context);
}
VX_API_ENTRY vx_status VX_API_CALL vxSwapImageHandle(vx_image, void* const[], void*[], vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxQueryImage(vx_image, vx_enum, void*, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxSetImageAttribute(vx_image, vx_enum, const void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxSetImagePixelValues(vx_image, const vx_pixel_value_t*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseImage(vx_image*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY void* VX_API_CALL vxFormatImagePatchAddress1d(void*, vx_uint32, const vx_imagepatch_addressing_t*) {
  return nullptr;
}
VX_API_ENTRY void* VX_API_CALL vxFormatImagePatchAddress2d(void*, vx_uint32, vx_uint32,
    const vx_imagepatch_addressing_t*) {
  return nullptr;
}
VX_API_ENTRY vx_status VX_API_CALL vxGetValidRegionImage(vx_image, vx_rectangle_t*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxCopyImagePatch(vx_image, const vx_rectangle_t*, vx_uint32,
    const vx_imagepatch_addressing_t*, void*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxMapImagePatch(vx_image, const vx_rectangle_t*, vx_uint32, vx_map_id*,
    vx_imagepatch_addressing_t*, void**, vx_enum, vx_enum, vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapImagePatch(vx_image, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromChannel(vx_image img, vx_enum) {
  return not_implemented<vx_image>(img);
}
VX_API_ENTRY vx_status VX_API_CALL vxSetImageValidRectangle(vx_image, const vx_rectangle_t*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Kernels, modules and user kernels.
VX_API_ENTRY vx_status VX_API_CALL vxRegisterKernelLibrary(vx_context, const vx_char*, vx_publish_kernels_f,
    vx_unpublish_kernels_f) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Graphs.

// Nodes.
VX_API_ENTRY vx_status VX_API_CALL vxReplicateNode(vx_graph, vx_node, vx_bool[], vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Delays.
VX_API_ENTRY vx_status VX_API_CALL vxQueryDelay(vx_delay, vx_enum, void*, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxReleaseDelay(vx_delay*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_delay VX_API_CALL vxCreateDelay(vx_context context, vx_reference, vx_size) {
  return not_implemented<vx_delay>(context);
}
VX_API_ENTRY vx_reference VX_API_CALL vxGetReferenceFromDelay(vx_delay delay, vx_int32) {
  return not_implemented<vx_reference>(delay);
}
VX_API_ENTRY vx_status VX_API_CALL vxAgeDelay(vx_delay) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxRegisterAutoAging(vx_graph, vx_delay) { return VX_ERROR_NOT_IMPLEMENTED; }

// Lookup tables.
VX_API_ENTRY vx_lut VX_API_CALL vxCreateLUT(vx_context context, vx_enum, vx_size) {
  return not_implemented<vx_lut>(context);
}
VX_API_ENTRY vx_lut VX_API_CALL vxCreateVirtualLUT(vx_graph graph, vx_enum, vx_size) {
  return not_implemented<vx_lut>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseLUT(vx_lut*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryLUT(vx_lut, vx_enum, void*, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxCopyLUT(vx_lut, void*, vx_enum, vx_enum) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxMapLUT(vx_lut, vx_map_id*, void**, vx_enum, vx_enum, vx_bitfield) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapLUT(vx_lut, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }

// Distributions.
VX_API_ENTRY vx_distribution VX_API_CALL vxCreateDistribution(vx_context context, vx_size, vx_int32, vx_uint32) {
  return not_implemented<vx_distribution>(context);
}
VX_API_ENTRY vx_distribution VX_API_CALL vxCreateVirtualDistribution(vx_graph graph, vx_size, vx_int32, vx_uint32) {
  return not_implemented<vx_distribution>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseDistribution(vx_distribution*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryDistribution(vx_distribution, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyDistribution(vx_distribution, void*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxMapDistribution(vx_distribution, vx_map_id*, void**, vx_enum, vx_enum,
    vx_bitfield) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapDistribution(vx_distribution, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }

// Thresholds.
VX_API_ENTRY vx_threshold VX_API_CALL vxCreateThresholdForImage(vx_context context, vx_enum, vx_df_image, vx_df_image) {
  return not_implemented<vx_threshold>(context);
}
VX_API_ENTRY vx_threshold VX_API_CALL vxCreateVirtualThresholdForImage(vx_graph graph, vx_enum, vx_df_image,
    vx_df_image) {
  return not_implemented<vx_threshold>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdValue(vx_threshold, vx_pixel_value_t*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdRange(vx_threshold, vx_pixel_value_t*, vx_pixel_value_t*, vx_enum,
    vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdOutput(vx_threshold, vx_pixel_value_t*, vx_pixel_value_t*, vx_enum,
    vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseThreshold(vx_threshold*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxSetThresholdAttribute(vx_threshold, vx_enum, const void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxQueryThreshold(vx_threshold, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Matrices.
VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrix(vx_context c, vx_enum, vx_size, vx_size) {
  return not_implemented<vx_matrix>(c);
}
VX_API_ENTRY vx_matrix VX_API_CALL vxCreateVirtualMatrix(vx_graph graph, vx_enum, vx_size, vx_size) {
  return not_implemented<vx_matrix>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseMatrix(vx_matrix*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryMatrix(vx_matrix, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyMatrix(vx_matrix, void*, vx_enum, vx_enum) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrixFromPattern(vx_context context, vx_enum, vx_size, vx_size) {
  return not_implemented<vx_matrix>(context);
}
VX_API_ENTRY vx_matrix VX_API_CALL vxCreateMatrixFromPatternAndOrigin(vx_context context, vx_enum, vx_size, vx_size,
    vx_size, vx_size) {
  return not_implemented<vx_matrix>(context);
}

// Convolutions.
VX_API_ENTRY vx_convolution VX_API_CALL vxCreateConvolution(vx_context context, vx_size, vx_size) {
  return not_implemented<vx_convolution>(context);
}
VX_API_ENTRY vx_convolution VX_API_CALL vxCreateVirtualConvolution(vx_graph graph, vx_size, vx_size) {
  return not_implemented<vx_convolution>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseConvolution(vx_convolution*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryConvolution(vx_convolution, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxSetConvolutionAttribute(vx_convolution, vx_enum, const void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyConvolutionCoefficients(vx_convolution, void*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Pyramids.
VX_API_ENTRY vx_pyramid VX_API_CALL vxCreatePyramid(vx_context context, vx_size, vx_float32, vx_uint32, vx_uint32,
    vx_df_image) {
  return not_implemented<vx_pyramid>(context);
}
VX_API_ENTRY vx_pyramid VX_API_CALL vxCreateVirtualPyramid(vx_graph graph, vx_size, vx_float32, vx_uint32, vx_uint32,
    vx_df_image) {
  return not_implemented<vx_pyramid>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleasePyramid(vx_pyramid*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryPyramid(vx_pyramid, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_image VX_API_CALL vxGetPyramidLevel(vx_pyramid pyr, vx_uint32) {
  return not_implemented<vx_image>(pyr);
}

// Remap tables.
VX_API_ENTRY vx_remap VX_API_CALL vxCreateRemap(vx_context context, vx_uint32, vx_uint32, vx_uint32, vx_uint32) {
  return not_implemented<vx_remap>(context);
}
VX_API_ENTRY vx_remap VX_API_CALL vxCreateVirtualRemap(vx_graph graph, vx_uint32, vx_uint32, vx_uint32, vx_uint32) {
  return not_implemented<vx_remap>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseRemap(vx_remap*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxMapRemapPatch(vx_remap, const vx_rectangle_t*, vx_map_id*, vx_size*, void**,
    vx_enum, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapRemapPatch(vx_remap, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxCopyRemapPatch(vx_remap, const vx_rectangle_t*, vx_size, void*, vx_enum, vx_enum,
    vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxQueryRemap(vx_remap, vx_enum, void*, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }

// Arrays.
VX_API_ENTRY vx_array VX_API_CALL vxCreateArray(vx_context context, vx_enum, vx_size) {
  return not_implemented<vx_array>(context);
}
VX_API_ENTRY vx_array VX_API_CALL vxCreateVirtualArray(vx_graph graph, vx_enum, vx_size) {
  return not_implemented<vx_array>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseArray(vx_array*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryArray(vx_array, vx_enum, void*, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxAddArrayItems(vx_array, vx_size, const void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxTruncateArray(vx_array, vx_size) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxCopyArrayRange(vx_array, vx_size, vx_size, vx_size, void*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxMapArrayRange(vx_array, vx_size, vx_size, vx_map_id*, vx_size*, void**, vx_enum,
    vx_enum, vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapArrayRange(vx_array, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }

// Object arrays.
VX_API_ENTRY vx_object_array VX_API_CALL vxCreateObjectArray(vx_context context, vx_reference, vx_size) {
  return not_implemented<vx_object_array>(context);
}
VX_API_ENTRY vx_object_array VX_API_CALL vxCreateVirtualObjectArray(vx_graph graph, vx_reference, vx_size) {
  return not_implemented<vx_object_array>(graph);
}
VX_API_ENTRY vx_reference VX_API_CALL vxGetObjectArrayItem(vx_object_array arr, vx_uint32) {
  return not_implemented<vx_reference>(arr);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseObjectArray(vx_object_array*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryObjectArray(vx_object_array, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Tensors.
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensor(vx_context context, vx_size, const vx_size*, vx_enum, vx_int8) {
  return not_implemented<vx_tensor>(context);
}
VX_API_ENTRY vx_object_array VX_API_CALL vxCreateImageObjectArrayFromTensor(vx_tensor tensor, const vx_rectangle_t*,
    vx_size, vx_size, vx_df_image) {
  return not_implemented<vx_object_array>(tensor);
}
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromView(vx_tensor tensor, vx_size, const vx_size*, const vx_size*) {
  return not_implemented<vx_tensor>(tensor);
}
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateVirtualTensor(vx_graph graph, vx_size, const vx_size*, vx_enum, vx_int8) {
  return not_implemented<vx_tensor>(graph);
}
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromHandle(vx_context context, vx_size, const vx_size*, vx_enum,
    vx_int8, const vx_size*, void*, vx_enum) {
  return not_implemented<vx_tensor>(context);
}
VX_API_ENTRY vx_status VX_API_CALL vxSwapTensorHandle(vx_tensor, void*, void**) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxCopyTensorPatch(vx_tensor, vx_size, const vx_size*, const vx_size*, const vx_size*,
    void*, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxMapTensorPatch(vx_tensor, vx_size, const vx_size*, const vx_size*, vx_map_id*,
    vx_size*, void**, vx_enum, vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapTensorPatch(vx_tensor, vx_map_id) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryTensor(vx_tensor, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensor(vx_tensor*) { return VX_ERROR_NOT_IMPLEMENTED; }

// Node creators: color, channels and per-pixel image functions.
VX_API_ENTRY vx_node VX_API_CALL vxColorConvertNode(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxChannelExtractNode(vx_graph graph, vx_image, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxChannelCombineNode(vx_graph graph, vx_image, vx_image, vx_image, vx_image,
    vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxPhaseNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxSobel3x3Node(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMagnitudeNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxScaleImageNode(vx_graph graph, vx_image, vx_image, vx_enum) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTableLookupNode(vx_graph graph, vx_image, vx_lut, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHistogramNode(vx_graph graph, vx_image, vx_distribution) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxEqualizeHistNode(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxAbsDiffNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMeanStdDevNode(vx_graph graph, vx_image, vx_scalar, vx_scalar) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxThresholdNode(vx_graph graph, vx_image, vx_threshold, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxNonMaxSuppressionNode(vx_graph graph, vx_image, vx_image, vx_int32, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxIntegralImageNode(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}

// Node creators: filters.
VX_API_ENTRY vx_node VX_API_CALL vxErode3x3Node(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxDilate3x3Node(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMedian3x3Node(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxBox3x3Node(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxGaussian3x3Node(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxNonLinearFilterNode(vx_graph graph, vx_enum, vx_image, vx_matrix, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxConvolveNode(vx_graph graph, vx_image, vx_convolution, vx_image) {
  return not_implemented<vx_node>(graph);
}

// Node creators: pyramids.
VX_API_ENTRY vx_node VX_API_CALL vxGaussianPyramidNode(vx_graph graph, vx_image, vx_pyramid) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxLaplacianPyramidNode(vx_graph graph, vx_image, vx_pyramid, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxLaplacianReconstructNode(vx_graph graph, vx_pyramid, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}

// Node creators: arithmetic, statistics and bitwise functions.
VX_API_ENTRY vx_node VX_API_CALL vxWeightedAverageNode(vx_graph graph, vx_image, vx_scalar, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMinMaxLocNode(vx_graph graph, vx_image, vx_scalar, vx_scalar, vx_array, vx_array,
    vx_scalar, vx_scalar) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMinNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMaxNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxAndNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxOrNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxXorNode(vx_graph graph, vx_image, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxNotNode(vx_graph graph, vx_image, vx_image) {
  return not_implemented<vx_node>(graph);
}

// Node creators: control flow.
VX_API_ENTRY vx_node VX_API_CALL vxScalarOperationNode(vx_graph graph, vx_enum, vx_scalar, vx_scalar, vx_scalar) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxSelectNode(vx_graph graph, vx_scalar, vx_reference, vx_reference, vx_reference) {
  return not_implemented<vx_node>(graph);
}

// Node creators: pixel-wise arithmetic and depth conversion.
VX_API_ENTRY vx_node VX_API_CALL vxMultiplyNode(vx_graph graph, vx_image, vx_image, vx_scalar, vx_enum, vx_enum,
    vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxAddNode(vx_graph graph, vx_image, vx_image, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxSubtractNode(vx_graph graph, vx_image, vx_image, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxConvertDepthNode(vx_graph graph, vx_image, vx_image, vx_enum, vx_scalar) {
  return not_implemented<vx_node>(graph);
}

// Node creators: features, geometry and optical flow.
VX_API_ENTRY vx_node VX_API_CALL vxCannyEdgeDetectorNode(vx_graph graph, vx_image, vx_threshold, vx_int32, vx_enum,
    vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxWarpAffineNode(vx_graph graph, vx_image, vx_matrix, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxWarpPerspectiveNode(vx_graph graph, vx_image, vx_matrix, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHarrisCornersNode(vx_graph graph, vx_image, vx_scalar, vx_scalar, vx_scalar,
    vx_int32, vx_int32, vx_array, vx_scalar) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxFastCornersNode(vx_graph graph, vx_image, vx_scalar, vx_bool, vx_array, vx_scalar) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxOpticalFlowPyrLKNode(vx_graph graph, vx_pyramid, vx_pyramid, vx_array, vx_array,
    vx_array, vx_enum, vx_scalar, vx_scalar, vx_scalar, vx_size) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxRemapNode(vx_graph graph, vx_image, vx_remap, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHalfScaleGaussianNode(vx_graph graph, vx_image, vx_image, vx_int32) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxMatchTemplateNode(vx_graph graph, vx_image, vx_image, vx_enum, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxLBPNode(vx_graph graph, vx_image, vx_enum, vx_int8, vx_image) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHOGCellsNode(vx_graph graph, vx_image, vx_int32, vx_int32, vx_int32, vx_tensor,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHOGFeaturesNode(vx_graph graph, vx_image, vx_tensor, vx_tensor, const vx_hog_t*,
    vx_size, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxHoughLinesPNode(vx_graph graph, vx_image, const vx_hough_lines_p_t*, vx_array,
    vx_scalar) {
  return not_implemented<vx_node>(graph);
}

// Node creators: tensor functions.
VX_API_ENTRY vx_node VX_API_CALL vxBilateralFilterNode(vx_graph graph, vx_tensor, vx_int32, vx_float32, vx_float32,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorMultiplyNode(vx_graph graph, vx_tensor, vx_tensor, vx_scalar, vx_enum, vx_enum,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorAddNode(vx_graph graph, vx_tensor, vx_tensor, vx_enum, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorSubtractNode(vx_graph graph, vx_tensor, vx_tensor, vx_enum, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorTableLookupNode(vx_graph graph, vx_tensor, vx_lut, vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorTransposeNode(vx_graph graph, vx_tensor, vx_tensor, vx_size, vx_size) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorConvertDepthNode(vx_graph graph, vx_tensor, vx_enum, vx_scalar, vx_scalar,
    vx_tensor) {
  return not_implemented<vx_node>(graph);
}
VX_API_ENTRY vx_node VX_API_CALL vxTensorMatrixMultiplyNode(vx_graph graph, vx_tensor, vx_tensor, vx_tensor,
    const vx_tensor_matrix_multiply_params_t*, vx_tensor) {
  return not_implemented<vx_node>(graph);
}

// Node creators: data copy.
VX_API_ENTRY vx_node VX_API_CALL vxCopyNode(vx_graph graph, vx_reference, vx_reference) {
  return not_implemented<vx_node>(graph);
}

// Pipelining: queued graph parameters (vx_khr_pipelining).
VX_API_ENTRY vx_status VX_API_CALL vxSetGraphScheduleConfig(vx_graph, vx_enum, vx_uint32,
    const vx_graph_parameter_queue_params_t[]) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterEnqueueReadyRef(vx_graph, vx_uint32, vx_reference*, vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterDequeueDoneRef(vx_graph, vx_uint32, vx_reference*, vx_uint32,
    vx_uint32*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterCheckDoneRef(vx_graph, vx_uint32, vx_uint32*) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Events (vx_khr_pipelining).
VX_API_ENTRY vx_status VX_API_CALL vxWaitEvent(vx_context, vx_event_t*, vx_bool) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxEnableEvents(vx_context) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxDisableEvents(vx_context) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxSendUserEvent(vx_context, vx_uint32, void*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxRegisterEvent(vx_reference, enum vx_event_type_e, vx_uint32, vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

// Streaming (vx_khr_pipelining).
VX_API_ENTRY vx_status VX_API_CALL vxEnableGraphStreaming(vx_graph, vx_node) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxStartGraphStreaming(vx_graph) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxStopGraphStreaming(vx_graph) { return VX_ERROR_NOT_IMPLEMENTED; }

// User data objects (vx_khr_user_data_object).
VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateUserDataObject(vx_context context, const vx_char*, vx_size,
    const void*) {
  return not_implemented<vx_user_data_object>(context);
}
VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateVirtualUserDataObject(vx_graph graph, const vx_char*, vx_size) {
  return not_implemented<vx_user_data_object>(graph);
}
VX_API_ENTRY vx_status VX_API_CALL vxReleaseUserDataObject(vx_user_data_object*) { return VX_ERROR_NOT_IMPLEMENTED; }
VX_API_ENTRY vx_status VX_API_CALL vxQueryUserDataObject(vx_user_data_object, vx_enum, void*, vx_size) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxCopyUserDataObject(vx_user_data_object, vx_size, vx_size, void*, vx_enum,
    vx_enum) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxMapUserDataObject(vx_user_data_object, vx_size, vx_size, vx_map_id*, void**,
    vx_enum, vx_enum, vx_uint32) {
  return VX_ERROR_NOT_IMPLEMENTED;
}
VX_API_ENTRY vx_status VX_API_CALL vxUnmapUserDataObject(vx_user_data_object, vx_map_id) {
  return VX_ERROR_NOT_IMPLEMENTED;
}

}  // extern "C"
