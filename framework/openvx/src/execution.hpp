#pragma once
// Running a verified graph: vxVerifyGraph compiles the vx graph into a visiongraph graph (one node per vx
// node, on the node's target; one token per data object, so the data flow orders the nodes), and each
// visiongraph node calls its vx kernel through a trampoline with the vx objects' handles (callbacks see
// handles, as the application does).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "object.hpp"
#include "visiongraph/core/status.hpp"

namespace vg::openvx {

/// Builds and verifies @p graph's visiongraph graph (kernel initializers run, on the nodes' targets).
/// The checks of vxVerifyGraph have passed; @p after is each node's predecessors (predecessors(graph)).
/// Logs and returns an error when visiongraph refuses it.
vx_status compile_graph(vx_graph graph, const std::vector<std::vector<std::size_t>>& after) noexcept;

/// Fills @p node's call_handles (the parameters[] its kernel function is called with, a row per frame
/// slot) from its arguments, or each slot's: at compilation, and whenever an argument of a compiled node
/// changes in place (delay aging, a queued parameter's reference for a frame, which sets its one entry).
void refresh_call_handles(vx_node node) noexcept;

/// Releases @p graph's visiongraph graph, if any (kernel deinitializers run): before any of its nodes go.
void release_compiled_graph(vx_graph graph) noexcept;

/// One run of @p graph (verified) on the calling thread: node statuses reset, the run, then the graph's
/// state, performance and completion event. Returns the run's status.
vx_status run_graph_once(vx_graph graph) noexcept;

/// The most frames a pipelined graph runs at once (pipelining.hpp).
inline constexpr std::size_t kMaxPipelineSlots = 8;

/// The steady clock, in nanoseconds (performance records).
std::uint64_t now_ns() noexcept;

/// Adds a measurement from @p begin to @p end (now_ns) to @p perf.
void record_performance(vx_perf_t& perf, std::uint64_t begin, std::uint64_t end) noexcept;

/// The end of one frame of @p graph that started at @p begin and ended with @p status: the graph's state,
/// performance, delay aging and completion event. Returns the frame's vx status.
vx_status finish_frame(vx_graph graph, vg::Status status, std::uint64_t begin) noexcept;

/// Whether @p graph runs on its executor (a queue mode, or streaming enabled; pipelining.hpp).
bool queued(vx_graph graph) noexcept;
/// vxScheduleGraph and vxWaitGraph of such a graph.
vx_status schedule_queued(vx_graph graph) noexcept;
vx_status wait_queued(vx_graph graph) noexcept;

}  // namespace vg::openvx
