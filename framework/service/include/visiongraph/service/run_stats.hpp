#pragma once
/// @file
/// @brief A running service's figures in the two forms clients read: JSON (`visiongraph ctl SOCK stats`,
/// the MQTT control channel) and the Prometheus text format (MetricsServer). Both come from one snapshot:
/// the graph's GraphStats plus what only the application knows (frames read, drops before the graph,
/// reconnects, the process's memory).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "visiongraph/telemetry/frame_sample.hpp"
#include "visiongraph/telemetry/stats.hpp"

namespace vg::service {

/// @brief One frame from capture to the moment its results were written: the graph's stages
/// (Graph::frame_sample) and the application's own moments, all on the monotonic clock (vg::now_ns).
struct StageTimes {
  FrameSample sample;
  std::int64_t origin_ns = 0;   ///< capture time, else when the first stage started
  bool from_capture = false;    ///< origin_ns is the capture time
  std::int64_t done_ns = 0;     ///< the graph handed the output back (DequeuedBuffer::completed_ns)
  std::int64_t written_ns = 0;  ///< the results were handed to the writers and publishers
};

/// @brief StageTimes as one JSON object: {"frame", "from": "capture"|"first_stage", "stages": [{"node",
/// "start_ms", "ms", "status" (, "code")}...], "done_ms", "written_ms", "failed_mask", "runtime_code"};
/// times in ms from the origin, to the microsecond. docs/service.md.
std::string stage_times_json(const StageTimes& times);

/// @brief What the application counts beside the graph (all counters since the run started).
struct RunCounters {
  std::string stream;                    ///< the stream's name in a run of several streams ("" for one)
  std::string source;                    ///< the input's spec (a path, a URL)
  bool live = false;                     ///< a live source (latest-wins)
  std::uint64_t frames_read = 0;         ///< frames read from the source and handed to the graph
  std::uint64_t frames_resolved = 0;     ///< frames whose outcome is known (done, failed or dropped)
  std::uint64_t frames_failed = 0;       ///< frames a node failed on
  std::uint64_t frames_dropped = 0;      ///< frames replaced by newer ones (latest-wins) or never run
  std::uint64_t source_dropped = 0;      ///< frames the source dropped before they reached the graph
  std::uint64_t reconnects = 0;          ///< times a live source reconnected
  double uptime_seconds = 0;             ///< since the run started
  std::int64_t resident_bytes = 0;       ///< the process's resident memory now (0 unknown)
  std::int64_t resident_bytes_start = 0; ///< ... when the graph had started (growth = now - start)
  std::optional<StageTimes> last_frame;  ///< the newest frame's stages, when the run samples them
};

/// @brief The process's resident set size in bytes (Linux /proc/self/statm), 0 when unknown.
std::int64_t resident_memory_bytes() noexcept;

/// @brief One line of JSON: {"graph", "uptime_s", "fps", "frames": {...}, "latency_ms": {"p50", "p99",
/// "max"}, "capture_latency_ms": {...}, "source": {...}, "memory": {...}, "nodes": [{"name", "kernel",
/// "target", "executions", "failures", "avg_ms", "p50_ms", "p99_ms", "max_ms", "deadline_ms",
/// "deadline_misses", "stuck", "running_ms"}...], "queues": [...] (, "last_frame": stage_times_json)}.
/// Field list: docs/service.md.
std::string stats_json(const GraphStats& graph, const RunCounters& run);

/// @brief The same figures in the Prometheus text exposition format 0.0.4: every metric named
/// visiongraph_*, with HELP and TYPE lines, counters ending in _total, times in seconds, memory in
/// bytes, per-node series labelled {graph, node, kernel, target}. Label values are escaped.
std::string prometheus_text(const GraphStats& graph, const RunCounters& run);

/// @brief One stream's figures in a run of several streams (one graph instance each).
struct StreamFigures {
  GraphStats graph;
  RunCounters run;
};

/// @brief Several streams in one exposition: each metric family once, one series per stream, labelled
/// {graph, stream} (RunCounters::stream) besides the labels above.
std::string prometheus_text(const std::vector<StreamFigures>& streams);

}  // namespace vg::service
