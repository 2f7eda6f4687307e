#pragma once
// The parts of the vg.vision module defined outside module.cpp.
#include "visiongraph/kernel/module.hpp"

namespace vg::vision {

/// vg.vision.scale, half_scale_gaussian, warp_affine, warp_perspective, remap (geometry.cpp).
void add_geometry_kernels(Module& m);
/// vg.vision.convolve, non_linear_filter, bilateral_filter, equalize_hist, table_lookup, channel_extract, channel_combine, color_convert
/// (pixels.cpp).
void add_pixel_kernels(Module& m);
/// vg.vision.canny, fast_corners, harris_corners, hough_lines, lbp, non_max_suppression, hog (features.cpp).
void add_feature_kernels(Module& m);

/// vg.vision.sobel3x3, magnitude, phase, convert_depth_to_s16 / _to_gray8, integral_image, histogram, mean_stddev,
/// min_max_loc, match_template, laplacian_level, laplacian_reconstruct_level, weighted_average, min, max (measures.cpp).
void add_measure_kernels(Module& m);
/// vg.vision.optical_flow, accumulate, accumulate_squared, accumulate_weighted (motion.cpp).
void add_motion_kernels(Module& m);
void add_tensor_kernels(Module& m);  ///< vg.vision.tensor_add .. tensor_matrix_multiply (tensors.cpp)

/// vg.vision.select, scalar_operation (control.cpp).
void add_control_kernels(Module& m);

}  // namespace vg::vision
