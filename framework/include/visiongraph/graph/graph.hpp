#pragma once
/// @file
/// @brief A graph: build it, verify it once, then run it frame after frame without allocation.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/core/status.hpp"
#include "visiongraph/data/meta.hpp"
#include "visiongraph/data/views.hpp"
#include "visiongraph/graph/handles.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/kernel/command.hpp"
#include "visiongraph/kernel/kernel_context.hpp"
#include "visiongraph/memory/allocator.hpp"
#include "visiongraph/memory/external_buffer.hpp"
#include "visiongraph/telemetry/frame_sample.hpp"
#include "visiongraph/telemetry/stats.hpp"

namespace vg {

class Context;

namespace detail {
class GraphCore;
}

/// @brief Buffer index meaning "the buffer the most recently completed frame used".
inline constexpr std::uint32_t kLatestBuffer = 0xFFFFFFFFu;
/// @brief Graph::add_graph_parameter: let verify choose the number of buffers from the pipeline depth.
inline constexpr std::size_t kAutoBuffers = 0;
/// @brief send_command to every replica of a node (Graph::set_targets), the default.
inline constexpr std::uint32_t kAllReplicas = 0xFFFFFFFFu;

/// @brief What enqueue does when an input graph parameter's waiting queue is full.
enum class InputPolicy : std::uint8_t {
  block,        ///< wait for room (back-pressure), up to the enqueue timeout
  latest_wins,  ///< the newest frame replaces the oldest waiting one; that one is handed back as dropped
  reject_new,   ///< refuse the new frame (Status::rejected)
};

/// @brief How stop() treats frames in flight.
enum class StopMode : std::uint8_t {
  drain,    ///< let frames in flight finish normally
  abandon,  ///< skip the callbacks not yet started; their buffers come back as aborted
};

/// @brief Times that travel with an input frame (enqueue).
struct FrameStamp {
  std::int64_t timestamp_ns = 0;  ///< the application's timestamp (e.g. media time); 0 = now
  std::int64_t capture_ns = 0;    ///< capture time on the monotonic clock (vg::now_ns); 0 = unknown
  /// The application's own number for the frame (a source frame number, say). It comes back in every
  /// DequeuedBuffer of the frame, so an output published early can be matched to its input.
  std::uint64_t tag = 0;
};

/// @brief A buffer handed back by dequeue.
struct DequeuedBuffer {
  std::uint32_t index = 0;        ///< which of the graph parameter's buffers
  Status status = Status::ok;     ///< ok, dropped, aborted, rejected or kernel_error (frame failed)
  std::uint64_t sequence = 0;     ///< frame number (for dropped inputs: the sequence it would have had is unknown: 0)
  std::int64_t timestamp_ns = 0;  ///< the frame's timestamp (its input's, as given at enqueue)
  std::int64_t capture_ns = 0;    ///< the frame's capture time (from its input's FrameStamp), 0 = unknown
  std::int64_t completed_ns = 0;  ///< when it was handed back (outputs: when their writer finished); 0 if it never ran
  std::uint64_t tag = 0;          ///< the frame's FrameStamp::tag (from its first input)
};

/// @brief Details of the most recent failure while running.
struct RunError {
  Status status = Status::ok;
  std::uint64_t frame = 0;
  std::string node;
  std::string kernel;
  std::string target;
  std::string message;
  std::string describe() const;  ///< "node 'x' (kernel k on cpu0) failed on frame 3: kernel_error: ..."
};

/// @brief A graph of nodes (kernel instances) connected by data objects.
/// Building and verify() may throw vg::Error; everything after verify is noexcept and returns Status.
/// @note Thread safety: build and verify from one thread. After verify, process(), enqueue(),
///       dequeue(), send_command(), start(), stop() and stats() may be called from any thread;
///       process() must not run concurrently with streaming (start()).
/// @code
/// vg::Graph g(ctx, "demo");
/// auto a = g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64));
/// auto s = g.add_virtual("sum", vg::DataKind::scalar);
/// auto n = g.add_node("add", "vg.example.add");
/// g.bind(n, "a", a).bind(n, "b", a).bind(n, "sum", s);
/// g.verify();
/// g.scalar(a).set(2.0);
/// if (g.process() != vg::Status::ok) std::cerr << g.last_error().describe();
/// @endcode
class Graph {
 public:
  Graph(Context& context, std::string name = "graph");
  ~Graph();  ///< stops (abandoning frames in flight) and releases
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // ---- building (throws vg::Error) ----
  DataId add_data(std::string name, const DataMeta& meta);
  /// @brief An object whose metadata the writing node's validate sets.
  DataId add_virtual(std::string name, DataKind kind);
  NodeId add_node(std::string name, std::string_view kernel);
  Graph& bind(NodeId node, std::string_view param, DataId data);
  Graph& bind(NodeId node, std::size_t param, DataId data);
  Graph& set_attribute(NodeId node, std::string key, AttrValue value);
  Graph& set_target(NodeId node, std::string target);
  /// @brief Run the node over several targets (e.g. npu0, npu1, npu2): verify creates one instance per
  /// target (own create/delete on that target), frame f runs on replica f % targets.size(), and results
  /// reach downstream nodes and graph parameters in frame order. The default pipeline depth grows by
  /// targets.size() - 1. One target is the same as set_target.
  Graph& set_targets(NodeId node, std::vector<std::string> targets);
  /// @brief Deadlines of one node, overriding its kernel's (KernelDecl::deadline; 0 = none). A process or
  /// control call running past @p run is reported while it runs (log, stats), its target is marked
  /// faulted (frames needing it fail with timeout; other targets go on) and the call is abandoned;
  /// verify() gives up on a create running past @p create. Negative = keep the kernel's.
  Graph& set_deadline(NodeId node, std::chrono::nanoseconds run,
                      std::chrono::nanoseconds create = std::chrono::nanoseconds(-1));
  /// @brief Frame f + 1 of @p later waits until @p earlier has finished frame f (run, failed or skipped),
  /// beside the data flow inside each frame. For memory the two nodes share across frames without a buffer
  /// per frame: a node overwriting what the previous frame's readers still read, or a value carried from
  /// one frame to the next. Every replica of either node is ordered the same way.
  Graph& order_across_frames(NodeId earlier, NodeId later);
  /// @brief Expose a node parameter for enqueue/dequeue with @p num_buffers buffers (allocated at verify).
  /// kAutoBuffers: as many as keep the pipeline full, decided at verify (outputs: depth + 1; inputs:
  /// depth + queue capacity + 1; at least 2), so replicas and targets need no arithmetic.
  GraphParamId add_graph_parameter(NodeId node, std::string_view param, std::size_t num_buffers = kAutoBuffers);
  void set_input_policy(GraphParamId param, InputPolicy policy, std::size_t queue_capacity = 1);
  /// @brief Frames in flight at once (0 = one per target the graph uses).
  void set_pipeline_depth(std::size_t depth);
  /// @brief Mark a graph-parameter input as device-only memory: the graph allocates nothing for it, every
  /// buffer must be imported (import_buffer) before it is enqueued, and verify fails, naming node and
  /// parameter, if a kernel reading it has no implementation that accepts device memory.
  void set_device_only(DataId data);
  /// @brief Memory for objects not tied to a target allocator (default: host memory). Not owned.
  void set_allocator(Allocator* allocator);
  /// @brief Executions kept per node for percentiles and traces (default 4096).
  void set_telemetry_capacity(std::size_t records);

  // ---- verify (throws vg::Error) ----
  void verify();
  bool is_verified() const noexcept;
  /// @brief Stop, delete every node on its target, free memory. Called by the destructor.
  void release() noexcept;

  // ---- running (noexcept) ----
  /// @brief Run one frame and wait for it. Graph parameters use their buffer 0.
  Status process(std::chrono::nanoseconds timeout = std::chrono::seconds(60)) noexcept;
  /// @brief process() in two halves: start one frame and return at once (the caller may do other work,
  /// e.g. fill the next input), then wait_submitted() for it. One submitted frame at a time: submit,
  /// process and start() answer busy until wait_submitted() has taken its status. Waits only for room
  /// (a frame of a timed-out process() still running), up to @p timeout.
  Status submit(std::chrono::nanoseconds timeout = std::chrono::seconds(60)) noexcept;
  /// @brief Wait for the submitted frame: its status (as process() returns it), and the graph is free
  /// again. Status::timeout: not finished yet, still submitted (wait again). Status::no_data: nothing
  /// submitted. May be called from another thread than submit().
  Status wait_submitted(std::chrono::nanoseconds timeout = std::chrono::seconds(60)) noexcept;
  /// @brief Streaming: admit frames as inputs are enqueued.
  Status start() noexcept;
  /// @brief Idempotent; callable from any thread, including a kernel callback (then it does not wait).
  Status stop(StopMode mode = StopMode::drain) noexcept;
  bool is_streaming() const noexcept;
  /// @brief Hand buffer @p index of a graph parameter to the graph (inputs: filled; outputs: empty).
  Status enqueue(GraphParamId param, std::uint32_t index, std::int64_t timestamp_ns = 0,
                 std::chrono::nanoseconds timeout = std::chrono::seconds(5)) noexcept;
  /// @brief enqueue with a capture time: stats and DequeuedBuffer then report capture -> done latency.
  Status enqueue(GraphParamId param, std::uint32_t index, const FrameStamp& stamp,
                 std::chrono::nanoseconds timeout = std::chrono::seconds(5)) noexcept;
  /// @brief Take back a done (or dropped/aborted) buffer, in frame order. Status::stopped once the
  /// graph is stopped and has nothing left to hand back. An output is handed back as soon as the node
  /// writing it has finished that frame (its status says whether the writer succeeded), not when the
  /// whole frame completes: detections need not wait for the overlay of the same frame. Other nodes of
  /// the frame may still read it: read it, do not write it, and enqueue it again whenever you like (the
  /// graph reuses it only once its frame is complete).
  Status dequeue(GraphParamId param, DequeuedBuffer& out,
                 std::chrono::nanoseconds timeout = std::chrono::seconds(5)) noexcept;
  /// @brief Run the node's control callback on its target, between two frames, and wait for it.
  /// A replicated node runs it on every replica (each in order on its own target; fails if any
  /// fails; the reply is the first failing replica's, else replica 0's; CommandReply::replica says which).
  Status send_command(NodeId node, const ControlCommand& command, std::chrono::nanoseconds timeout,
                      CommandReply* reply = nullptr) noexcept;
  /// @brief send_command to one replica (0 .. num_replicas - 1) of a node, or kAllReplicas.
  Status send_command(NodeId node, const ControlCommand& command, std::chrono::nanoseconds timeout,
                      CommandReply* reply, std::uint32_t replica) noexcept;
  /// @brief Wait until no frame is in flight.
  Status wait_idle(std::chrono::nanoseconds timeout) noexcept;

  // ---- data access ----
  // By default these address the buffer of the most recently completed frame (after process(), the
  // results); objects with one buffer (inputs, constants) always use it. Pass an index for a specific one.
  ImageView image(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept;
  TensorView tensor(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept;
  ScalarView scalar(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept;
  template <class T>
  T* user_data(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept {
    Buffer* b = buffer_of(data, buffer);
    return b ? reinterpret_cast<T*>(b->plane[0]) : nullptr;
  }
  template <class T>
  ArrayView<T> array(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept {
    return {&meta(data), buffer_of(data, buffer)};
  }
  /// @brief A reference to one buffer of a data object, e.g. to pass it with a control command.
  DataRef data_ref(DataId data, std::uint32_t buffer = kLatestBuffer) const noexcept {
    Buffer* b = buffer_of(data, buffer);
    return b ? DataRef{&meta(data), b} : DataRef{};
  }
  /// @brief The data object a graph parameter's buffers belong to.
  DataId data_of(GraphParamId param) const noexcept;
  std::size_t num_buffers(DataId data) const noexcept;
  /// @brief Use external memory for one buffer (a camera or NPU buffer) instead of the graph's:
  /// OpenVX's SwapImageHandle. Call while the buffer is with the application (not enqueued).
  /// The previous external block, if any, is returned in @p previous.
  Status import_handle(DataId data, std::uint32_t buffer, const MemoryBlock& block,
                       MemoryBlock* previous = nullptr) noexcept;
  /// @brief Use external memory with its own plane layout (offsets and strides, e.g. from a GStreamer
  /// video meta) or device-only memory for one buffer. Same rules as import_handle; the layout must fit
  /// the metadata (every row inside the block, strides at least a row). The imported block starts at plane
  /// 0's first byte (data and fd_offset are advanced by offset[0]). An empty @p external (no data, no fd,
  /// no handle) gives the graph's own memory back. Never copies.
  Status import_buffer(DataId data, std::uint32_t buffer, const ExternalBuffer& external) noexcept;
  /// @brief Count one explicit conversion of an input (a copy or format change the application had
  /// to make because the frame could not be imported as it is). Shown in stats and the report.
  void count_conversion(GraphParamId param) noexcept;
  Buffer* buffer_of(DataId data, std::uint32_t buffer) const noexcept;
  const DataMeta& meta(DataId data) const;

  // ---- introspection ----
  const std::string& name() const noexcept;
  NodeId find_node(std::string_view name) const noexcept;
  DataId find_data(std::string_view name) const noexcept;
  std::string node_name(NodeId node) const;
  std::string node_kernel(NodeId node) const;
  std::string node_target(NodeId node) const;  ///< after verify: the chosen target (a replicated node's first)
  /// @brief Targets of a node: one, or one per replica (Graph::set_targets).
  std::vector<std::string> node_targets(NodeId node) const;
  std::size_t num_replicas(NodeId node) const;  ///< 1 unless the node runs over several targets
  std::size_t num_nodes() const noexcept;
  std::size_t num_data() const noexcept;
  std::size_t pipeline_depth() const noexcept;
  /// @brief Node ids in execution order (after verify).
  std::vector<NodeId> execution_order() const;
  RunError last_error() const;
  /// @brief The failure recorded for frame @p frame (DequeuedBuffer::sequence): status ok when the frame
  /// had none, or when it is older than the 64 most recent failures.
  RunError frame_error(std::uint64_t frame) const;

  // ---- observability (allocate; call off the hot path) ----
  GraphStats stats() const;
  void reset_stats() noexcept;
  std::string report_text() const;  ///< one line per node with its target, like TIOVX's perf print
  std::string report_json() const;
  /// @brief Chrome trace-event JSON (Perfetto, chrome://tracing): a track per target, a slice per execution.
  void write_trace(std::ostream& out) const;
  /// @brief Graphviz DOT: nodes coloured by target, data objects with buffer counts, graph parameters marked.
  void write_dot(std::ostream& out) const;
  /// @brief Executions of a node still in its telemetry ring, oldest first (every replica's, by start).
  std::vector<ExecutionRecord> executions(NodeId node) const;
  /// @brief One frame's stages: every node call recorded for frame @p sequence (DequeuedBuffer::sequence)
  ///        still in the telemetry rings, ordered by start, with failures and the runtime code a kernel
  ///        reported (KernelContext::report_code). Call it when the frame (or the output read) is handed
  ///        back: nodes still running it are not in it yet. noexcept and allocation-free (it scans the
  ///        newest executions of each node). not_verified before verify, no_data when nothing is recorded.
  Status frame_sample(std::uint64_t sequence, FrameSample& out) const noexcept;

  detail::GraphCore& core() noexcept { return *core_; }

 private:
  std::unique_ptr<detail::GraphCore> core_;
};

}  // namespace vg
