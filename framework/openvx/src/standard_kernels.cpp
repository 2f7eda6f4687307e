// The declaration table of the standard OpenVX 1.3 kernels.
//
// One row per value of vx_kernel_e, in enum order. Each row lists the kernel's parameters in the order of
// its vxXxxNode creator (the graph argument left out), with the direction, object type and state that the
// specification's parameter list gives. Arguments that the node creator takes by value (vx_enum, vx_int32,
// vx_float32, vx_bool, vx_size, or a pointer to a parameter struct) reach the kernel as vx_scalar objects and
// are listed as VX_TYPE_SCALAR.
#include "standard_kernels.hpp"

#include <VX/vx.h>

#include <cstdint>
#include <initializer_list>
#include <span>

namespace vg::openvx {
namespace {

constexpr StandardParameter in(vx_enum type) noexcept {
  return {VX_INPUT, type, VX_PARAMETER_STATE_REQUIRED};
}
constexpr StandardParameter in_opt(vx_enum type) noexcept {
  return {VX_INPUT, type, VX_PARAMETER_STATE_OPTIONAL};
}
constexpr StandardParameter out(vx_enum type) noexcept {
  return {VX_OUTPUT, type, VX_PARAMETER_STATE_REQUIRED};
}
constexpr StandardParameter out_opt(vx_enum type) noexcept {
  return {VX_OUTPUT, type, VX_PARAMETER_STATE_OPTIONAL};
}
constexpr StandardParameter both(vx_enum type) noexcept {
  return {VX_BIDIRECTIONAL, type, VX_PARAMETER_STATE_REQUIRED};
}

// Builds one row. More than kMaxStandardParameters entries write past the array, which is not a constant
// expression, so an over-long row stops the build.
constexpr StandardKernel row(vx_enum kernel_enum, const char* name,
                             std::initializer_list<StandardParameter> parameters) noexcept {
  StandardKernel k{kernel_enum, name, 0, {}};
  for (const StandardParameter& p : parameters) k.parameters[k.parameter_count++] = p;
  return k;
}

constexpr vx_enum kImage = VX_TYPE_IMAGE;
constexpr vx_enum kScalar = VX_TYPE_SCALAR;
constexpr vx_enum kArray = VX_TYPE_ARRAY;
constexpr vx_enum kMatrix = VX_TYPE_MATRIX;
constexpr vx_enum kPyramid = VX_TYPE_PYRAMID;
constexpr vx_enum kTensor = VX_TYPE_TENSOR;
constexpr vx_enum kReference = VX_TYPE_REFERENCE;

constexpr StandardKernel kStandardKernels[] = {
    // input, output
    row(VX_KERNEL_COLOR_CONVERT, "org.khronos.openvx.color_convert", {in(kImage), out(kImage)}),
    // input, channel (vx_enum), output
    row(VX_KERNEL_CHANNEL_EXTRACT, "org.khronos.openvx.channel_extract", {in(kImage), in(kScalar), out(kImage)}),
    // plane0, plane1, plane2 [optional], plane3 [optional], output
    row(VX_KERNEL_CHANNEL_COMBINE, "org.khronos.openvx.channel_combine",
        {in(kImage), in(kImage), in_opt(kImage), in_opt(kImage), out(kImage)}),
    // input, output_x [optional], output_y [optional]
    row(VX_KERNEL_SOBEL_3x3, "org.khronos.openvx.sobel_3x3", {in(kImage), out_opt(kImage), out_opt(kImage)}),
    // grad_x, grad_y, mag
    row(VX_KERNEL_MAGNITUDE, "org.khronos.openvx.magnitude", {in(kImage), in(kImage), out(kImage)}),
    // grad_x, grad_y, orientation
    row(VX_KERNEL_PHASE, "org.khronos.openvx.phase", {in(kImage), in(kImage), out(kImage)}),
    // src, dst, type (vx_enum interpolation)
    row(VX_KERNEL_SCALE_IMAGE, "org.khronos.openvx.scale_image", {in(kImage), out(kImage), in(kScalar)}),
    // input, lut, output
    row(VX_KERNEL_TABLE_LOOKUP, "org.khronos.openvx.table_lookup", {in(kImage), in(VX_TYPE_LUT), out(kImage)}),
    // input, distribution
    row(VX_KERNEL_HISTOGRAM, "org.khronos.openvx.histogram", {in(kImage), out(VX_TYPE_DISTRIBUTION)}),
    // input, output
    row(VX_KERNEL_EQUALIZE_HISTOGRAM, "org.khronos.openvx.equalize_histogram", {in(kImage), out(kImage)}),
    // in1, in2, out
    row(VX_KERNEL_ABSDIFF, "org.khronos.openvx.absdiff", {in(kImage), in(kImage), out(kImage)}),
    // input, mean, stddev [optional]
    row(VX_KERNEL_MEAN_STDDEV, "org.khronos.openvx.mean_stddev", {in(kImage), out(kScalar), out_opt(kScalar)}),
    // input, thresh, output
    row(VX_KERNEL_THRESHOLD, "org.khronos.openvx.threshold", {in(kImage), in(VX_TYPE_THRESHOLD), out(kImage)}),
    // input, output
    row(VX_KERNEL_INTEGRAL_IMAGE, "org.khronos.openvx.integral_image", {in(kImage), out(kImage)}),
    row(VX_KERNEL_DILATE_3x3, "org.khronos.openvx.dilate_3x3", {in(kImage), out(kImage)}),
    row(VX_KERNEL_ERODE_3x3, "org.khronos.openvx.erode_3x3", {in(kImage), out(kImage)}),
    row(VX_KERNEL_MEDIAN_3x3, "org.khronos.openvx.median_3x3", {in(kImage), out(kImage)}),
    row(VX_KERNEL_BOX_3x3, "org.khronos.openvx.box_3x3", {in(kImage), out(kImage)}),
    row(VX_KERNEL_GAUSSIAN_3x3, "org.khronos.openvx.gaussian_3x3", {in(kImage), out(kImage)}),
    // input, conv, output
    row(VX_KERNEL_CUSTOM_CONVOLUTION, "org.khronos.openvx.custom_convolution",
        {in(kImage), in(VX_TYPE_CONVOLUTION), out(kImage)}),
    // input, gaussian
    row(VX_KERNEL_GAUSSIAN_PYRAMID, "org.khronos.openvx.gaussian_pyramid", {in(kImage), out(kPyramid)}),
    // input, accum (read and written)
    row(VX_KERNEL_ACCUMULATE, "org.khronos.openvx.accumulate", {in(kImage), both(kImage)}),
    // input, alpha (vx_float32 scalar), accum
    row(VX_KERNEL_ACCUMULATE_WEIGHTED, "org.khronos.openvx.accumulate_weighted",
        {in(kImage), in(kScalar), both(kImage)}),
    // input, shift (vx_uint32 scalar), accum
    row(VX_KERNEL_ACCUMULATE_SQUARE, "org.khronos.openvx.accumulate_square", {in(kImage), in(kScalar), both(kImage)}),
    // input, minVal, maxVal, minLoc [optional], maxLoc [optional], minCount [optional], maxCount [optional]
    row(VX_KERNEL_MINMAXLOC, "org.khronos.openvx.minmaxloc",
        {in(kImage), out(kScalar), out(kScalar), out_opt(kArray), out_opt(kArray), out_opt(kScalar),
         out_opt(kScalar)}),
    // input, output, policy (vx_enum), shift (vx_int32 scalar)
    row(VX_KERNEL_CONVERTDEPTH, "org.khronos.openvx.convertdepth",
        {in(kImage), out(kImage), in(kScalar), in(kScalar)}),
    // input, hyst, gradient_size (vx_int32), norm_type (vx_enum), output
    row(VX_KERNEL_CANNY_EDGE_DETECTOR, "org.khronos.openvx.canny_edge_detector",
        {in(kImage), in(VX_TYPE_THRESHOLD), in(kScalar), in(kScalar), out(kImage)}),
    // in1, in2, out
    row(VX_KERNEL_AND, "org.khronos.openvx.and", {in(kImage), in(kImage), out(kImage)}),
    row(VX_KERNEL_OR, "org.khronos.openvx.or", {in(kImage), in(kImage), out(kImage)}),
    row(VX_KERNEL_XOR, "org.khronos.openvx.xor", {in(kImage), in(kImage), out(kImage)}),
    // input, output
    row(VX_KERNEL_NOT, "org.khronos.openvx.not", {in(kImage), out(kImage)}),
    // in1, in2, scale, overflow_policy (vx_enum), rounding_policy (vx_enum), out
    row(VX_KERNEL_MULTIPLY, "org.khronos.openvx.multiply",
        {in(kImage), in(kImage), in(kScalar), in(kScalar), in(kScalar), out(kImage)}),
    // in1, in2, policy (vx_enum), out
    row(VX_KERNEL_ADD, "org.khronos.openvx.add", {in(kImage), in(kImage), in(kScalar), out(kImage)}),
    row(VX_KERNEL_SUBTRACT, "org.khronos.openvx.subtract", {in(kImage), in(kImage), in(kScalar), out(kImage)}),
    // input, matrix, type (vx_enum interpolation), output
    row(VX_KERNEL_WARP_AFFINE, "org.khronos.openvx.warp_affine",
        {in(kImage), in(kMatrix), in(kScalar), out(kImage)}),
    row(VX_KERNEL_WARP_PERSPECTIVE, "org.khronos.openvx.warp_perspective",
        {in(kImage), in(kMatrix), in(kScalar), out(kImage)}),
    // input, strength_thresh, min_distance, sensitivity, gradient_size (vx_int32), block_size (vx_int32),
    // corners, num_corners [optional]
    row(VX_KERNEL_HARRIS_CORNERS, "org.khronos.openvx.harris_corners",
        {in(kImage), in(kScalar), in(kScalar), in(kScalar), in(kScalar), in(kScalar), out(kArray),
         out_opt(kScalar)}),
    // input, strength_thresh, nonmax_suppression (vx_bool), corners, num_corners [optional]
    row(VX_KERNEL_FAST_CORNERS, "org.khronos.openvx.fast_corners",
        {in(kImage), in(kScalar), in(kScalar), out(kArray), out_opt(kScalar)}),
    // old_images, new_images, old_points, new_points_estimates, new_points, termination (vx_enum), epsilon,
    // num_iterations, use_initial_estimate, window_dimension (vx_size)
    row(VX_KERNEL_OPTICAL_FLOW_PYR_LK, "org.khronos.openvx.optical_flow_pyr_lk",
        {in(kPyramid), in(kPyramid), in(kArray), in(kArray), out(kArray), in(kScalar), in(kScalar), in(kScalar),
         in(kScalar), in(kScalar)}),
    // input, table, policy (vx_enum interpolation), output
    row(VX_KERNEL_REMAP, "org.khronos.openvx.remap", {in(kImage), in(VX_TYPE_REMAP), in(kScalar), out(kImage)}),
    // input, output, kernel_size (vx_int32)
    row(VX_KERNEL_HALFSCALE_GAUSSIAN, "org.khronos.openvx.halfscale_gaussian",
        {in(kImage), out(kImage), in(kScalar)}),
    // input, laplacian, output
    row(VX_KERNEL_LAPLACIAN_PYRAMID, "org.khronos.openvx.laplacian_pyramid",
        {in(kImage), out(kPyramid), out(kImage)}),
    // laplacian, input, output
    row(VX_KERNEL_LAPLACIAN_RECONSTRUCT, "org.khronos.openvx.laplacian_reconstruct",
        {in(kPyramid), in(kImage), out(kImage)}),
    // function (vx_enum), input, mask, output
    row(VX_KERNEL_NON_LINEAR_FILTER, "org.khronos.openvx.non_linear_filter",
        {in(kScalar), in(kImage), in(kMatrix), out(kImage)}),
    // src, templateImage, matchingMethod (vx_enum), output
    row(VX_KERNEL_MATCH_TEMPLATE, "org.khronos.openvx.match_template",
        {in(kImage), in(kImage), in(kScalar), out(kImage)}),
    // in, format (vx_enum), kernel_size (vx_int8), out
    row(VX_KERNEL_LBP, "org.khronos.openvx.lbp", {in(kImage), in(kScalar), in(kScalar), out(kImage)}),
    // input, params (vx_hough_lines_p_t, a VX_TYPE_HOUGH_LINES_PARAMS scalar), lines_array,
    // num_lines [optional]
    row(VX_KERNEL_HOUGH_LINES_P, "org.khronos.openvx.hough_lines_p",
        {in(kImage), in(kScalar), out(kArray), out_opt(kScalar)}),
    // input1, input2, scale, overflow_policy (vx_enum), rounding_policy (vx_enum), output
    row(VX_KERNEL_TENSOR_MULTIPLY, "org.khronos.openvx.tensor_multiply",
        {in(kTensor), in(kTensor), in(kScalar), in(kScalar), in(kScalar), out(kTensor)}),
    // input1, input2, policy (vx_enum), output
    row(VX_KERNEL_TENSOR_ADD, "org.khronos.openvx.tensor_add", {in(kTensor), in(kTensor), in(kScalar), out(kTensor)}),
    row(VX_KERNEL_TENSOR_SUBTRACT, "org.khronos.openvx.tensor_subtract",
        {in(kTensor), in(kTensor), in(kScalar), out(kTensor)}),
    // input1, lut, output
    row(VX_KERNEL_TENSOR_TABLE_LOOKUP, "org.khronos.openvx.tensor_table_lookup",
        {in(kTensor), in(VX_TYPE_LUT), out(kTensor)}),
    // input, output, dimension1 (vx_size), dimension2 (vx_size)
    row(VX_KERNEL_TENSOR_TRANSPOSE, "org.khronos.openvx.tensor_transpose",
        {in(kTensor), out(kTensor), in(kScalar), in(kScalar)}),
    // input, policy (vx_enum), norm, offset, output
    row(VX_KERNEL_TENSOR_CONVERT_DEPTH, "org.khronos.openvx.tensor_convert_depth",
        {in(kTensor), in(kScalar), in(kScalar), in(kScalar), out(kTensor)}),
    // input1, input2, input3 [optional],
    // matrix_multiply_params (vx_tensor_matrix_multiply_params_t, a VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS
    // scalar), output
    row(VX_KERNEL_TENSOR_MATRIX_MULTIPLY, "org.khronos.openvx.tensor_matrix_multiply",
        {in(kTensor), in(kTensor), in_opt(kTensor), in(kScalar), out(kTensor)}),
    // input, output: any data object
    row(VX_KERNEL_COPY, "org.khronos.openvx.copy", {in(kReference), out(kReference)}),
    // input, mask [optional], win_size (vx_int32), output
    row(VX_KERNEL_NON_MAX_SUPPRESSION, "org.khronos.openvx.non_max_suppression",
        {in(kImage), in_opt(kImage), in(kScalar), out(kImage)}),
    // scalar_operation (vx_enum), a, b, output
    row(VX_KERNEL_SCALAR_OPERATION, "org.khronos.openvx.scalar_operation",
        {in(kScalar), in(kScalar), in(kScalar), out(kScalar)}),
    // input, magnitudes [optional], bins, params (vx_hog_t, a VX_TYPE_HOG_PARAMS scalar), features.
    // The node creator's hog_param_size argument is not a kernel parameter.
    row(VX_KERNEL_HOG_FEATURES, "org.khronos.openvx.hog_features",
        {in(kImage), in_opt(kTensor), in(kTensor), in(kScalar), out(kTensor)}),
    // input, cell_width, cell_height, num_bins (all vx_int32), magnitudes [optional], bins
    row(VX_KERNEL_HOG_CELLS, "org.khronos.openvx.hog_cells",
        {in(kImage), in(kScalar), in(kScalar), in(kScalar), out_opt(kTensor), out(kTensor)}),
    // src, diameter (vx_int32), sigmaSpace (vx_float32), sigmaValues (vx_float32), dst
    row(VX_KERNEL_BILATERAL_FILTER, "org.khronos.openvx.bilateral_filter",
        {in(kTensor), in(kScalar), in(kScalar), in(kScalar), out(kTensor)}),
    // condition (vx_bool scalar), true_value, false_value, output: any data object of one kind
    row(VX_KERNEL_SELECT, "org.khronos.openvx.select",
        {in(kScalar), in(kReference), in(kReference), out(kReference)}),
    // in1, in2, out
    row(VX_KERNEL_MAX, "org.khronos.openvx.max", {in(kImage), in(kImage), out(kImage)}),
    row(VX_KERNEL_MIN, "org.khronos.openvx.min", {in(kImage), in(kImage), out(kImage)}),
    // img1, alpha (vx_float32 scalar), img2, output
    row(VX_KERNEL_WEIGHTED_AVERAGE, "org.khronos.openvx.weighted_average",
        {in(kImage), in(kScalar), in(kImage), out(kImage)}),
};

}  // namespace

std::span<const StandardKernel> standard_kernels() noexcept { return kStandardKernels; }

}  // namespace vg::openvx
