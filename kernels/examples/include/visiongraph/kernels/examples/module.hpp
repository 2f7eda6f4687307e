#pragma once
/// @file
/// @brief Small example kernels (no dependencies): what a kernel looks like, and the building blocks
/// of the hello-graph app, the tests and the dispatch benchmarks.
///
/// - `vg.example.add`     (cpu): sum = a + b + bias. Attribute bias (number). Command set_bias (number), get_bias.
/// - `vg.example.scale`   (cpu): out = in * factor. Attribute factor (number).
/// - `vg.example.counter` (cpu): out = frame sequence number (a source of changing data).
/// - `vg.example.nop`     (cpu, npu): does nothing; for measuring dispatch overhead. Optional in/out scalars.
/// - `vg.example.wait`    (cpu, npu): sleeps `micros` microseconds (models an accelerator wait), copies in -> out.
/// - `vg.example.spin`    (cpu): busy-waits `micros` microseconds (models CPU work), copies in -> out.

#include "visiongraph/kernel/module.hpp"

namespace vg::examples {

inline constexpr std::uint32_t kSetBias = 1;
inline constexpr std::uint32_t kGetBias = 2;
inline constexpr std::uint32_t kSetMicros = 1;

/// @brief The example module ("vg.example").
Module make_module();

}  // namespace vg::examples
