// Immediate-mode functions (libvxu) of the implemented standard kernels: each builds a one-node graph in the
// context, on the immediate-mode target and border, verifies and runs it, and releases it again.
#include <VX/vx.h>
#include <VX/vx_compatibility.h>
#include <VX/vxu.h>

#include <mutex>
#include <string>

#include "context.hpp"

namespace {

bool is_context(vx_context context) noexcept {
  vx_enum type = VX_TYPE_INVALID;
  return vxQueryReference(reinterpret_cast<vx_reference>(context), VX_REFERENCE_TYPE, &type, sizeof type) == VX_SUCCESS &&
         type == VX_TYPE_CONTEXT;
}

/// The target vxSetImmediateModeTarget chose ("any" or a target name). libvxu sees only handles: the
/// standard API has no query for it, so it asks with this library's own context attribute.
std::string immediate_target(vx_context context) {
  vx_char name[vg::openvx::kImmediateTargetNameSize] = {};
  if (vxQueryContext(context, vg::openvx::kContextImmediateTargetName, name, sizeof name) != VX_SUCCESS) return "any";
  return name;
}

/// Runs the node @p make_node creates in a new graph of @p context; the graph and node go before returning.
template <typename MakeNode>
vx_status run_one_node(vx_context context, MakeNode make_node) noexcept {
  std::string target;
  try {
    target = immediate_target(context);
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  vx_graph graph = vxCreateGraph(context);
  if (const vx_status s = vxGetStatus(reinterpret_cast<vx_reference>(graph)); s != VX_SUCCESS) return s;
  vx_node node = make_node(graph);
  vx_status status = vxGetStatus(reinterpret_cast<vx_reference>(node));
  if (status == VX_SUCCESS && target != "any") status = vxSetNodeTarget(node, VX_TARGET_STRING, target.c_str());
  if (status == VX_SUCCESS) {
    vx_border_t border{};
    status = vxQueryContext(context, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border);
    if (status == VX_SUCCESS) status = vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border);
  }
  if (status == VX_SUCCESS) status = vxVerifyGraph(graph);
  if (status == VX_SUCCESS) status = vxProcessGraph(graph);
  if (vxGetStatus(reinterpret_cast<vx_reference>(node)) == VX_SUCCESS) (void)vxReleaseNode(&node);
  (void)vxReleaseGraph(&graph);
  return status;
}

}  // namespace

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxuNot(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxNotNode(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuAnd(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAndNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuOr(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxOrNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuAdd(vx_context context, vx_image in1, vx_image in2, vx_enum policy, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAddNode(graph, in1, in2, policy, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuXor(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxXorNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuAbsDiff(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAbsDiffNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMin(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxMinNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMax(vx_context context, vx_image in1, vx_image in2, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxMaxNode(graph, in1, in2, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuSubtract(vx_context context, vx_image in1, vx_image in2, vx_enum policy, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxSubtractNode(graph, in1, in2, policy, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMultiply(vx_context context, vx_image in1, vx_image in2, vx_float32 scale, vx_enum overflow_policy,
                                               vx_enum rounding_policy, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  // The scale travels as a scalar of the context for the node's life.
  vx_scalar scale_scalar = vxCreateScalar(context, VX_TYPE_FLOAT32, &scale);
  vx_status status = vxGetStatus(reinterpret_cast<vx_reference>(scale_scalar));
  if (status != VX_SUCCESS) return status;
  status = run_one_node(context, [&](vx_graph graph) { return vxMultiplyNode(graph, in1, in2, scale_scalar, overflow_policy, rounding_policy, out); });
  (void)vxReleaseScalar(&scale_scalar);
  return status;
}

VX_API_ENTRY vx_status VX_API_CALL vxuConvertDepth(vx_context context, vx_image input, vx_image output, vx_enum policy, vx_int32 shift) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  vx_scalar shift_scalar = vxCreateScalar(context, VX_TYPE_INT32, &shift);
  vx_status status = vxGetStatus(reinterpret_cast<vx_reference>(shift_scalar));
  if (status != VX_SUCCESS) return status;
  status = run_one_node(context, [&](vx_graph graph) { return vxConvertDepthNode(graph, input, output, policy, shift_scalar); });
  (void)vxReleaseScalar(&shift_scalar);
  return status;
}

VX_API_ENTRY vx_status VX_API_CALL vxuTableLookup(vx_context context, vx_image input, vx_lut lut, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTableLookupNode(graph, input, lut, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuThreshold(vx_context context, vx_image input, vx_threshold thresh, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxThresholdNode(graph, input, thresh, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuChannelExtract(vx_context context, vx_image input, vx_enum channel, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxChannelExtractNode(graph, input, channel, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuChannelCombine(vx_context context, vx_image plane0, vx_image plane1, vx_image plane2, vx_image plane3,
                                                     vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxChannelCombineNode(graph, plane0, plane1, plane2, plane3, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuDilate3x3(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxDilate3x3Node(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuErode3x3(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxErode3x3Node(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMedian3x3(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxMedian3x3Node(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuBox3x3(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxBox3x3Node(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuGaussian3x3(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxGaussian3x3Node(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuGaussianPyramid(vx_context context, vx_image input, vx_pyramid gaussian) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxGaussianPyramidNode(graph, input, gaussian); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHalfScaleGaussian(vx_context context, vx_image input, vx_image output, vx_int32 kernel_size) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxHalfScaleGaussianNode(graph, input, output, kernel_size); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuLaplacianPyramid(vx_context context, vx_image input, vx_pyramid laplacian, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxLaplacianPyramidNode(graph, input, laplacian, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuLaplacianReconstruct(vx_context context, vx_pyramid laplacian, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxLaplacianReconstructNode(graph, laplacian, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuSobel3x3(vx_context context, vx_image input, vx_image output_x, vx_image output_y) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxSobel3x3Node(graph, input, output_x, output_y); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMagnitude(vx_context context, vx_image grad_x, vx_image grad_y, vx_image mag) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxMagnitudeNode(graph, grad_x, grad_y, mag); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuPhase(vx_context context, vx_image grad_x, vx_image grad_y, vx_image orientation) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxPhaseNode(graph, grad_x, grad_y, orientation); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuConvolve(vx_context context, vx_image input, vx_convolution conv, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxConvolveNode(graph, input, conv, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuIntegralImage(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxIntegralImageNode(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuEqualizeHist(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxEqualizeHistNode(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHistogram(vx_context context, vx_image input, vx_distribution distribution) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxHistogramNode(graph, input, distribution); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMinMaxLoc(vx_context context, vx_image input, vx_scalar minVal, vx_scalar maxVal, vx_array minLoc,
                                                vx_array maxLoc, vx_scalar minCount, vx_scalar maxCount) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context,
                      [&](vx_graph graph) { return vxMinMaxLocNode(graph, input, minVal, maxVal, minLoc, maxLoc, minCount, maxCount); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuNonLinearFilter(vx_context context, vx_enum function, vx_image input, vx_matrix mask, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxNonLinearFilterNode(graph, function, input, mask, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuRemap(vx_context context, vx_image input, vx_remap table, vx_enum policy, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxRemapNode(graph, input, table, policy, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuNonMaxSuppression(vx_context context, vx_image input, vx_image mask, vx_int32 win_size,
                                                        vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxNonMaxSuppressionNode(graph, input, mask, win_size, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMatchTemplate(vx_context context, vx_image src, vx_image templateImage, vx_enum matchingMethod,
                                                    vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxMatchTemplateNode(graph, src, templateImage, matchingMethod, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuLBP(vx_context context, vx_image in, vx_enum format, vx_int8 kernel_size, vx_image out) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxLBPNode(graph, in, format, kernel_size, out); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuBilateralFilter(vx_context context, vx_tensor src, vx_int32 diameter, vx_float32 sigmaSpace,
                                                      vx_float32 sigmaValues, vx_tensor dst) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxBilateralFilterNode(graph, src, diameter, sigmaSpace, sigmaValues, dst); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorMatrixMultiply(vx_context context, vx_tensor input1, vx_tensor input2, vx_tensor input3,
                                                           const vx_tensor_matrix_multiply_params_t* matrix_multiply_params,
                                                           vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) {
    return vxTensorMatrixMultiplyNode(graph, input1, input2, input3, matrix_multiply_params, output);
  });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHoughLinesP(vx_context context, vx_image input, const vx_hough_lines_p_t* params,
                                                  vx_array lines_array, vx_scalar num_lines) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxHoughLinesPNode(graph, input, params, lines_array, num_lines); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHOGCells(vx_context context, vx_image input, vx_int32 cell_width, vx_int32 cell_height,
                                               vx_int32 num_bins, vx_tensor magnitudes, vx_tensor bins) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxHOGCellsNode(graph, input, cell_width, cell_height, num_bins, magnitudes, bins); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHOGFeatures(vx_context context, vx_image input, vx_tensor magnitudes, vx_tensor bins,
                                                  const vx_hog_t* params, vx_size hog_param_size, vx_tensor features) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) {
    return vxHOGFeaturesNode(graph, input, magnitudes, bins, params, hog_param_size, features);
  });
}

VX_API_ENTRY vx_status VX_API_CALL vxuColorConvert(vx_context context, vx_image input, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxColorConvertNode(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuScaleImage(vx_context context, vx_image src, vx_image dst, vx_enum type) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxScaleImageNode(graph, src, dst, type); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuWarpAffine(vx_context context, vx_image input, vx_matrix matrix, vx_enum type, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxWarpAffineNode(graph, input, matrix, type, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuWarpPerspective(vx_context context, vx_image input, vx_matrix matrix, vx_enum type,
                                                      vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxWarpPerspectiveNode(graph, input, matrix, type, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuFastCorners(vx_context context, vx_image input, vx_scalar strength_thresh, vx_bool nonmax_suppression,
                                                  vx_array corners, vx_scalar num_corners) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) {
    return vxFastCornersNode(graph, input, strength_thresh, nonmax_suppression, corners, num_corners);
  });
}

VX_API_ENTRY vx_status VX_API_CALL vxuCannyEdgeDetector(vx_context context, vx_image input, vx_threshold hyst, vx_int32 gradient_size,
                                                        vx_enum norm_type, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxCannyEdgeDetectorNode(graph, input, hyst, gradient_size, norm_type, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuHarrisCorners(vx_context context, vx_image input, vx_scalar strength_thresh, vx_scalar min_distance,
                                                    vx_scalar sensitivity, vx_int32 gradient_size, vx_int32 block_size, vx_array corners,
                                                    vx_scalar num_corners) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) {
    return vxHarrisCornersNode(graph, input, strength_thresh, min_distance, sensitivity, gradient_size, block_size, corners, num_corners);
  });
}

VX_API_ENTRY vx_status VX_API_CALL vxuOpticalFlowPyrLK(vx_context context, vx_pyramid old_images, vx_pyramid new_images, vx_array old_points,
                                                      vx_array new_points_estimates, vx_array new_points, vx_enum termination,
                                                      vx_scalar epsilon, vx_scalar num_iterations, vx_scalar use_initial_estimate,
                                                      vx_size window_dimension) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) {
    return vxOpticalFlowPyrLKNode(graph, old_images, new_images, old_points, new_points_estimates, new_points, termination, epsilon,
                                  num_iterations, use_initial_estimate, window_dimension);
  });
}

VX_API_ENTRY vx_status VX_API_CALL vxuWeightedAverage(vx_context context, vx_image img1, vx_scalar alpha, vx_image img2, vx_image output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxWeightedAverageNode(graph, img1, alpha, img2, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuCopy(vx_context context, vx_reference input, vx_reference output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxCopyNode(graph, input, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorAdd(vx_context context, vx_tensor input1, vx_tensor input2, vx_enum policy, vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTensorAddNode(graph, input1, input2, policy, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorSubtract(vx_context context, vx_tensor input1, vx_tensor input2, vx_enum policy, vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTensorSubtractNode(graph, input1, input2, policy, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorMultiply(vx_context context, vx_tensor input1, vx_tensor input2, vx_scalar scale,
                                                     vx_enum overflow_policy, vx_enum rounding_policy, vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context,
                      [&](vx_graph graph) { return vxTensorMultiplyNode(graph, input1, input2, scale, overflow_policy, rounding_policy, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorTableLookup(vx_context context, vx_tensor input1, vx_lut lut, vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTensorTableLookupNode(graph, input1, lut, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorTranspose(vx_context context, vx_tensor input, vx_tensor output, vx_size dimension1,
                                                      vx_size dimension2) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTensorTransposeNode(graph, input, output, dimension1, dimension2); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuTensorConvertDepth(vx_context context, vx_tensor input, vx_enum policy, vx_scalar norm, vx_scalar offset,
                                                         vx_tensor output) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxTensorConvertDepthNode(graph, input, policy, norm, offset, output); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuMeanStdDev(vx_context context, vx_image input, vx_float32* mean, vx_float32* stddev) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  if (mean == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  // The node writes scalars of the context; their values go to the caller's floats after the run.
  vx_scalar mean_scalar = vxCreateScalar(context, VX_TYPE_FLOAT32, nullptr);
  vx_scalar stddev_scalar = stddev != nullptr ? vxCreateScalar(context, VX_TYPE_FLOAT32, nullptr) : nullptr;
  vx_status status = vxGetStatus(reinterpret_cast<vx_reference>(mean_scalar));
  if (status == VX_SUCCESS && stddev != nullptr) status = vxGetStatus(reinterpret_cast<vx_reference>(stddev_scalar));
  if (status == VX_SUCCESS) {
    status = run_one_node(context, [&](vx_graph graph) { return vxMeanStdDevNode(graph, input, mean_scalar, stddev_scalar); });
  }
  if (status == VX_SUCCESS) status = vxCopyScalar(mean_scalar, mean, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS && stddev != nullptr) status = vxCopyScalar(stddev_scalar, stddev, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  for (vx_scalar* s : {&mean_scalar, &stddev_scalar}) {
    if (vxGetStatus(reinterpret_cast<vx_reference>(*s)) == VX_SUCCESS) (void)vxReleaseScalar(s);
  }
  return status;
}

// The accumulations of OpenVX 1.0-1.1 (<VX/vx_compatibility.h>).
VX_API_ENTRY vx_status VX_API_CALL vxuAccumulateImage(vx_context context, vx_image input, vx_image accum) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAccumulateImageNode(graph, input, accum); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuAccumulateWeightedImage(vx_context context, vx_image input, vx_scalar alpha, vx_image accum) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAccumulateWeightedImageNode(graph, input, alpha, accum); });
}

VX_API_ENTRY vx_status VX_API_CALL vxuAccumulateSquareImage(vx_context context, vx_image input, vx_scalar shift, vx_image accum) {
  if (!is_context(context)) return VX_ERROR_INVALID_REFERENCE;
  return run_one_node(context, [&](vx_graph graph) { return vxAccumulateSquareImageNode(graph, input, shift, accum); });
}

}  // extern "C"
