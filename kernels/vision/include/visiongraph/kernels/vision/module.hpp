#pragma once
/// @file
/// @brief Module "vg.vision": OpenVX's standard vision functions as visiongraph kernels, for YAML graphs,
/// the command line, Python and C++. The OpenVX C API (libopenvx) runs the same functions for its nodes.
///
/// | kernel | what |
/// |---|---|
/// | vg.vision.to_gray, color_convert, channel_extract, channel_combine | colour: BT.601 gray, OpenVX ColorConvert (nv12 <-> rgb24), channels |
/// | vg.vision.gaussian3x3, box3x3, median3x3, erode3x3, dilate3x3, convolve, non_linear_filter, bilateral_filter | OpenVX's filters |
/// | vg.vision.threshold, table_lookup, equalize_hist | per-pixel maps; `set_threshold` command |
/// | vg.vision.add, subtract, absdiff, multiply, not, and, or, xor | arithmetic and bitwise on two images |
/// | vg.vision.scale, half_scale_gaussian, warp_affine, warp_perspective, remap | geometry |
/// | vg.vision.canny, fast_corners, harris_corners, hough_lines, lbp, non_max_suppression, hog | features; `set_low` / `set_high` commands of canny |
/// | vg.vision.sobel3x3, magnitude, phase, convert_depth_to_s16 / _to_gray8, match_template, laplacian_level, laplacian_reconstruct_level | S16 planes (i16 tensors [height, width]) |
/// | vg.vision.integral_image, histogram, mean_stddev, min_max_loc | statistics (tensors, scalars, positions) |
/// | vg.vision.weighted_average, min, max | two images pixel by pixel |
/// | vg.vision.optical_flow, accumulate, accumulate_squared, accumulate_weighted | over consecutive frames (state kept by the node); `reset` command |
/// | vg.vision.select, scalar_operation | control flow: an image chosen by a scalar, arithmetic on scalars |
/// | vg.vision.tensor_add, tensor_subtract, tensor_multiply, tensor_table_lookup, tensor_transpose, tensor_convert_depth, tensor_matrix_multiply | fixed-point tensors |
///
/// docs/kernels-vision.md has each one's parameters and attributes; `visiongraph kernels` lists them.
/// Neighbourhood kernels take a `border` attribute (replicate, the default, or constant with `border_value`).
/// All run on target kind "cpu" and allocate nothing per frame.
///
/// @code
/// ctx.load_module(vg::vision::make_vision_module());
/// @endcode
#include <cstdint>

#include "visiongraph/kernel/module.hpp"

namespace vg::vision {

/// Command of vg.vision.threshold: the binary threshold's value (integer payload 0..255).
inline constexpr std::uint32_t kSetThreshold = 1;
/// Commands of vg.vision.canny: the hysteresis' lower and upper thresholds (integer payload, not negative).
inline constexpr std::uint32_t kSetLowThreshold = 2;
inline constexpr std::uint32_t kSetHighThreshold = 3;
/// Command of the kernels that keep state from frame to frame (optical_flow, the accumulations): forget it,
/// as if the next frame were the first (no payload).
inline constexpr std::uint32_t kReset = 4;

Module make_vision_module();

}  // namespace vg::vision
