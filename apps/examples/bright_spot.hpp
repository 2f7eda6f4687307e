#pragma once
/// @file
/// @brief Example custom kernel: `example.bright_spot` finds the box around the pixels brighter than a
/// threshold and reports it as a detection (a DetectionPacket, like the detection kernels).
///
/// - parameters: `image` (input image: bgr24, rgb24 or gray8), `spots` (output user_data DetectionPacket)
/// - attributes: `threshold` (integer 0..255, default 200), `min_pixels` (integer, default 1)
/// - commands: `set_threshold` (integer), `get_threshold` (none); both reply "threshold=N"

#include <cstdint>

#include "visiongraph/kernel/module.hpp"

namespace example {

inline constexpr std::uint32_t kSetThreshold = 1;
inline constexpr std::uint32_t kGetThreshold = 2;

/// @brief The module "example.bright_spot" with its one kernel, implemented on target kind "cpu".
/// @code
/// vg::Context ctx;
/// ctx.load_module(example::make_bright_spot_module());
/// @endcode
vg::Module make_bright_spot_module();

}  // namespace example
