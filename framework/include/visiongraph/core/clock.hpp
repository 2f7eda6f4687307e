#pragma once
/// @file
/// @brief The one clock of visiongraph: steady, in nanoseconds.

#include <chrono>
#include <cstdint>

namespace vg {

/// @brief Steady-clock time in nanoseconds (the time base of telemetry, traces and timestamps).
inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace vg
