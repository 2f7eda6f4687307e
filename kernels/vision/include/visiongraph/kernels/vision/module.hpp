#pragma once
/// @file
/// @brief Module "vg.vision": OpenVX's standard vision functions as visiongraph kernels, for YAML graphs,
/// the command line, Python and C++. The OpenVX C API (libopenvx) runs the same functions for its nodes.
///
/// | kernel | parameters | what |
/// |---|---|---|
/// | vg.vision.to_gray | input (bgr24 / rgb24), output (gray8) | BT.601 luma, as OpenCV's cvtColor |
/// | vg.vision.gaussian3x3, box3x3, median3x3, erode3x3, dilate3x3 | input (gray8), output (gray8) | OpenVX's 3x3 filters |
/// | vg.vision.threshold | input (gray8), output (gray8) | binary or range threshold; `set_threshold` command |
/// | vg.vision.add, subtract, absdiff | in1, in2 (gray8), out (gray8) | OpenVX's arithmetic; `overflow: saturate / wrap` |
/// | vg.vision.not / and, or, xor | input / in1, in2 (gray8), output / out (gray8) | bitwise |
///
/// Filters take a `border` attribute (replicate, the default, or constant with `border_value`).
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

Module make_vision_module();

}  // namespace vg::vision
