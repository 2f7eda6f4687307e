#pragma once
/// @file
/// @brief One frame's way through the graph: when each node ran it, how each call ended, and the code an
/// external runtime gave for a failure (Graph::frame_sample).

#include <array>
#include <cstddef>
#include <cstdint>

#include "visiongraph/core/status.hpp"

namespace vg {

/// @brief One node's call for one frame.
struct StageSample {
  const char* name = nullptr;  ///< the node's telemetry name ("detector[npu1]" for a replica); owned by the graph
  std::int64_t start_ns = 0;   ///< monotonic (vg::now_ns), when process started
  std::int64_t end_ns = 0;     ///< when process (or complete, for an asynchronous kernel) returned
  Status status = Status::ok;
  std::int32_t code = 0;       ///< KernelContext::report_code of that call (0 none), e.g. librknnrt's error code
};

/// @brief The most stages a sample holds; a graph with more nodes reports the first ones by start time.
inline constexpr std::size_t kMaxSampleStages = 32;

/// @brief What Graph::frame_sample() found for one frame. Fixed size: taking it allocates nothing.
struct FrameSample {
  std::uint64_t sequence = 0;
  std::size_t count = 0;                            ///< stages[0..count), ordered by start time
  std::array<StageSample, kMaxSampleStages> stages{};
  std::uint64_t failed_mask = 0;                    ///< bit i set: stages[i] did not return ok
  std::int32_t runtime_code = 0;                    ///< the first non-zero code of a failed stage (0 none)
};

}  // namespace vg
