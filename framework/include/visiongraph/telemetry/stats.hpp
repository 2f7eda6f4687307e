#pragma once
/// @file
/// @brief Telemetry snapshots: per-node execution times and per-graph frame counts and latency.

#include <cstdint>
#include <string>
#include <vector>

namespace vg {

/// @brief Execution statistics of one node (times in nanoseconds). Percentiles cover the most recent
/// executions kept in the node's telemetry ring.
struct NodeStats {
  std::string name;
  std::string kernel;
  std::string target;
  std::uint64_t executions = 0;
  std::uint64_t failures = 0;
  std::int64_t min_ns = 0;
  std::int64_t max_ns = 0;
  double avg_ns = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::uint64_t conversions = 0;  ///< inputs that went through an explicit copy or conversion (count_conversion)
  std::int64_t deadline_ns = 0;       ///< 0 = none (Graph::set_deadline, KernelDecl::deadline)
  std::uint64_t deadline_misses = 0;  ///< calls that ran past the deadline (including one given up on)
  bool stuck = false;                 ///< a call was given up on; its target is faulted
  std::int64_t running_ns = 0;        ///< how long the current (or the stuck) call has run; 0 = idle
  /// For one replica of a node run over several targets (name "node[target]"): the node's name. The
  /// node as a whole comes first (target "npu0,npu1,..."), then its replicas. Empty otherwise.
  std::string replica_of;
};

/// @brief Queue state of one graph parameter.
struct QueueStats {
  std::string name;          ///< the data object's name
  bool is_input = true;
  std::uint32_t waiting = 0; ///< enqueued, not yet in a frame
  std::uint32_t capacity = 0;
  std::uint32_t done = 0;    ///< finished (or dropped/aborted), waiting for dequeue
  std::uint64_t conversions = 0;  ///< inputs copied or converted by the application (Graph::count_conversion)
};

/// @brief Frame accounting and end-to-end latency (enqueue of the frame's first input to the frame
/// being complete and ready to dequeue).
struct GraphStats {
  std::string name;
  std::uint64_t frames_in = 0;        ///< inputs accepted by enqueue (or process() calls)
  std::uint64_t frames_started = 0;
  std::uint64_t frames_completed = 0; ///< completed with every node ok
  std::uint64_t frames_failed = 0;    ///< completed with a failing node
  std::uint64_t frames_dropped = 0;   ///< replaced by a newer frame (latest-wins)
  std::uint64_t frames_rejected = 0;  ///< refused by reject-new or a full blocking queue
  std::uint64_t frames_aborted = 0;   ///< abandoned by stop()
  std::uint32_t pipeline_depth = 0;
  std::uint32_t frames_in_flight = 0;
  std::int64_t latency_p50_ns = 0;
  std::int64_t latency_p99_ns = 0;
  std::int64_t latency_max_ns = 0;
  /// Capture -> done latency of completed frames whose input carried a capture time (FrameStamp);
  /// 0 when none did.
  std::int64_t capture_latency_p50_ns = 0;
  std::int64_t capture_latency_p99_ns = 0;
  std::int64_t capture_latency_max_ns = 0;
  double wall_seconds = 0;            ///< from the first frame start to the last completion
  std::vector<NodeStats> nodes;
  std::vector<QueueStats> queues;  ///< one per graph parameter
};

/// @brief One record of the per-node telemetry ring (what traces are built from).
struct ExecutionRecord {
  std::uint64_t frame = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int32_t status = 0;
};

}  // namespace vg
