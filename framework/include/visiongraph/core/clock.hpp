#pragma once
/// @file
/// @brief The one clock of visiongraph: steady, in nanoseconds.

#include <time.h>

#include <cstdint>

namespace vg {

/// @brief Steady-clock time in nanoseconds (the time base of telemetry, traces and timestamps).
/// CLOCK_MONOTONIC read directly: the clock std::chrono::steady_clock reads on Linux (same values), without
/// its out-of-line wrapper; nodes read it twice per run.
inline std::int64_t now_ns() noexcept {
  timespec ts;
  (void)::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace vg
