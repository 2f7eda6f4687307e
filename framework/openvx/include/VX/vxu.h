/*
 * OpenVX 1.3 immediate-mode functions: each runs one standard vision function right away in a
 * one-node graph of the given context. Part of the visiongraph OpenVX library.
 */
#ifndef VG_OPENVX_VXU_H
#define VG_OPENVX_VXU_H

#include <VX/vx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Color, channels and per-pixel image functions. */
VX_API_ENTRY vx_status VX_API_CALL vxuColorConvert(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuChannelExtract(vx_context context, vx_image input, vx_enum channel,
                                                     vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuChannelCombine(vx_context context, vx_image plane0, vx_image plane1,
                                                     vx_image plane2, vx_image plane3, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuSobel3x3(vx_context context, vx_image input, vx_image output_x,
                                               vx_image output_y);
VX_API_ENTRY vx_status VX_API_CALL vxuMagnitude(vx_context context, vx_image grad_x, vx_image grad_y, vx_image mag);
VX_API_ENTRY vx_status VX_API_CALL vxuPhase(vx_context context, vx_image grad_x, vx_image grad_y,
                                            vx_image orientation);
VX_API_ENTRY vx_status VX_API_CALL vxuScaleImage(vx_context context, vx_image src, vx_image dst, vx_enum type);
VX_API_ENTRY vx_status VX_API_CALL vxuTableLookup(vx_context context, vx_image input, vx_lut lut, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuHistogram(vx_context context, vx_image input, vx_distribution distribution);
VX_API_ENTRY vx_status VX_API_CALL vxuEqualizeHist(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuAbsDiff(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuMeanStdDev(vx_context context, vx_image input, vx_float32 *mean,
                                                 vx_float32 *stddev);
VX_API_ENTRY vx_status VX_API_CALL vxuThreshold(vx_context context, vx_image input, vx_threshold thresh,
                                                vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuNonMaxSuppression(vx_context context, vx_image input, vx_image mask,
                                                        vx_int32 win_size, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuIntegralImage(vx_context context, vx_image input, vx_image output);

/* Filters. */
VX_API_ENTRY vx_status VX_API_CALL vxuErode3x3(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuDilate3x3(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuMedian3x3(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuBox3x3(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuGaussian3x3(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuNonLinearFilter(vx_context context, vx_enum function, vx_image input,
                                                      vx_matrix mask, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuConvolve(vx_context context, vx_image input, vx_convolution conv,
                                               vx_image output);

/* Pyramids. */
VX_API_ENTRY vx_status VX_API_CALL vxuGaussianPyramid(vx_context context, vx_image input, vx_pyramid gaussian);
VX_API_ENTRY vx_status VX_API_CALL vxuLaplacianPyramid(vx_context context, vx_image input, vx_pyramid laplacian,
                                                       vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuLaplacianReconstruct(vx_context context, vx_pyramid laplacian, vx_image input,
                                                           vx_image output);

/* Arithmetic, statistics and bitwise functions. */
VX_API_ENTRY vx_status VX_API_CALL vxuWeightedAverage(vx_context context, vx_image img1, vx_scalar alpha,
                                                      vx_image img2, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuMinMaxLoc(vx_context context, vx_image input, vx_scalar minVal,
                                                vx_scalar maxVal, vx_array minLoc, vx_array maxLoc,
                                                vx_scalar minCount, vx_scalar maxCount);
VX_API_ENTRY vx_status VX_API_CALL vxuMin(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuMax(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuConvertDepth(vx_context context, vx_image input, vx_image output,
                                                   vx_enum policy, vx_int32 shift);
VX_API_ENTRY vx_status VX_API_CALL vxuCannyEdgeDetector(vx_context context, vx_image input, vx_threshold hyst,
                                                        vx_int32 gradient_size, vx_enum norm_type, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuHalfScaleGaussian(vx_context context, vx_image input, vx_image output,
                                                        vx_int32 kernel_size);
VX_API_ENTRY vx_status VX_API_CALL vxuAnd(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuOr(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuXor(vx_context context, vx_image in1, vx_image in2, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuNot(vx_context context, vx_image input, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuMultiply(vx_context context, vx_image in1, vx_image in2, vx_float32 scale,
                                               vx_enum overflow_policy, vx_enum rounding_policy, vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuAdd(vx_context context, vx_image in1, vx_image in2, vx_enum policy,
                                          vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuSubtract(vx_context context, vx_image in1, vx_image in2, vx_enum policy,
                                               vx_image out);

/* Geometry, features and optical flow. */
VX_API_ENTRY vx_status VX_API_CALL vxuWarpAffine(vx_context context, vx_image input, vx_matrix matrix, vx_enum type,
                                                 vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuWarpPerspective(vx_context context, vx_image input, vx_matrix matrix,
                                                      vx_enum type, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuHarrisCorners(vx_context context, vx_image input, vx_scalar strength_thresh,
                                                    vx_scalar min_distance, vx_scalar sensitivity,
                                                    vx_int32 gradient_size, vx_int32 block_size, vx_array corners,
                                                    vx_scalar num_corners);
VX_API_ENTRY vx_status VX_API_CALL vxuFastCorners(vx_context context, vx_image input, vx_scalar strength_thresh,
                                                  vx_bool nonmax_suppression, vx_array corners,
                                                  vx_scalar num_corners);
VX_API_ENTRY vx_status VX_API_CALL vxuOpticalFlowPyrLK(vx_context context, vx_pyramid old_images,
                                                       vx_pyramid new_images, vx_array old_points,
                                                       vx_array new_points_estimates, vx_array new_points,
                                                       vx_enum termination, vx_scalar epsilon,
                                                       vx_scalar num_iterations, vx_scalar use_initial_estimate,
                                                       vx_size window_dimension);
VX_API_ENTRY vx_status VX_API_CALL vxuMatchTemplate(vx_context context, vx_image src, vx_image templateImage,
                                                    vx_enum matchingMethod, vx_image output);
VX_API_ENTRY vx_status VX_API_CALL vxuLBP(vx_context context, vx_image in, vx_enum format, vx_int8 kernel_size,
                                          vx_image out);
VX_API_ENTRY vx_status VX_API_CALL vxuHOGCells(vx_context context, vx_image input, vx_int32 cell_width,
                                               vx_int32 cell_height, vx_int32 num_bins, vx_tensor magnitudes,
                                               vx_tensor bins);
VX_API_ENTRY vx_status VX_API_CALL vxuHOGFeatures(vx_context context, vx_image input, vx_tensor magnitudes,
                                                  vx_tensor bins, const vx_hog_t *params, vx_size hog_param_size,
                                                  vx_tensor features);
VX_API_ENTRY vx_status VX_API_CALL vxuHoughLinesP(vx_context context, vx_image input,
                                                  const vx_hough_lines_p_t *params, vx_array lines_array,
                                                  vx_scalar num_lines);
VX_API_ENTRY vx_status VX_API_CALL vxuRemap(vx_context context, vx_image input, vx_remap table, vx_enum policy,
                                            vx_image output);

/* Tensor functions. */
VX_API_ENTRY vx_status VX_API_CALL vxuBilateralFilter(vx_context context, vx_tensor src, vx_int32 diameter,
                                                      vx_float32 sigmaSpace, vx_float32 sigmaValues, vx_tensor dst);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorMultiply(vx_context context, vx_tensor input1, vx_tensor input2,
                                                     vx_scalar scale, vx_enum overflow_policy,
                                                     vx_enum rounding_policy, vx_tensor output);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorAdd(vx_context context, vx_tensor input1, vx_tensor input2,
                                                vx_enum policy, vx_tensor output);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorSubtract(vx_context context, vx_tensor input1, vx_tensor input2,
                                                     vx_enum policy, vx_tensor output);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorTableLookup(vx_context context, vx_tensor input1, vx_lut lut,
                                                        vx_tensor output);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorTranspose(vx_context context, vx_tensor input, vx_tensor output,
                                                      vx_size dimension1, vx_size dimension2);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorConvertDepth(vx_context context, vx_tensor input, vx_enum policy,
                                                         vx_scalar norm, vx_scalar offset, vx_tensor output);
VX_API_ENTRY vx_status VX_API_CALL vxuTensorMatrixMultiply(vx_context context, vx_tensor input1, vx_tensor input2,
                                                           vx_tensor input3,
                                                           const vx_tensor_matrix_multiply_params_t *matrix_multiply_params,
                                                           vx_tensor output);

/* Data copy. */
VX_API_ENTRY vx_status VX_API_CALL vxuCopy(vx_context context, vx_reference input, vx_reference output);

#ifdef __cplusplus
}
#endif

#endif /* VG_OPENVX_VXU_H */
