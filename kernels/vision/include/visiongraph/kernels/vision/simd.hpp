#pragma once
/// @file
/// @brief Which instruction set the vision functions run with (Highway's run-time dispatch), and the
/// ones compiled in, for reports and for tests that run every path.
#include <cstdint>
#include <string>
#include <vector>

namespace vg::vision {

/// @brief One instruction set compiled into the library ("AVX2", "SSE4", "NEON", "EMU128", ...).
struct SimdTarget {
  std::int64_t id = 0;  ///< Highway's target bit
  std::string name;
};

/// @brief The targets compiled in that this CPU can run, best first.
std::vector<SimdTarget> simd_targets();

/// @brief The target the functions dispatch to now.
std::string current_simd_target();

/// @brief Tests: restrict dispatch to @p target_id (one of simd_targets()); 0 restores the CPU's best.
/// Not thread-safe: call while no vision function runs.
void force_simd_target(std::int64_t target_id) noexcept;

}  // namespace vg::vision
