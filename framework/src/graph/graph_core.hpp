#pragma once
// Private state of a graph: nodes, data objects, graph parameters, frame slots and the scheduler.
//
// Scheduling (no central scheduler thread): each node has, per frame, a counter of tokens it still
// needs: one per predecessor, one "frame started" token and one "my previous frame finished" token
// (so a node sees its frames in order). The thread that drops a counter to zero pushes the node onto
// its target's FIFO. Counters live in depth+1 rotating slots; a slot is re-armed when the frame that
// used it completes, which is provably before anything can touch it for the next frame that maps to it.

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>

#include "runtime/event.hpp"
#include "runtime/target.hpp"
#include "visiongraph/runtime/running_call.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/kernel/kernel_context.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::detail {

class GraphCore;

// NodeState::running_token values besides frame + 1.
inline constexpr std::uint64_t kControlRunning = ~std::uint64_t{0} - 1;  // a control callback runs
inline constexpr std::uint64_t kGivenUp = ~std::uint64_t{0};             // the watchdog took the call over

/// Fixed-capacity ring used for graph-parameter queues (guarded by the graph mutex).
template <class T>
class FixedRing {
 public:
  void init(std::size_t capacity) {
    items_.assign(capacity, T{});
    head_ = size_ = 0;
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return items_.size(); }
  bool empty() const noexcept { return size_ == 0; }
  bool full() const noexcept { return size_ == items_.size(); }
  bool push(const T& v) noexcept {
    if (full()) return false;
    items_[(head_ + size_) % items_.size()] = v;
    ++size_;
    return true;
  }
  bool pop(T& out) noexcept {
    if (empty()) return false;
    out = items_[head_];
    head_ = (head_ + 1) % items_.size();
    --size_;
    return true;
  }
  const T& front() const noexcept { return items_[head_]; }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

struct DataObject {
  std::string name;
  DataMeta meta;
  bool declared_virtual = false;
  std::uint32_t writer = kInvalidIndex;  // node writing it per frame (or in create for static outputs)
  bool is_static = false;
  std::uint32_t graph_param = kInvalidIndex;
  bool device_only = false;  // Graph::set_device_only: no graph memory, every buffer imported
  std::vector<std::pair<std::uint32_t, std::uint32_t>> users;  // (node, param)
  std::vector<Buffer> buffers;
  std::vector<MemoryBlock> own_blocks;   // the graph's allocation per buffer (buffers may point elsewhere when imported)
  std::vector<std::uint8_t> with_graph;  // graph parameters: buffer currently enqueued
  Allocator* allocator = nullptr;
};

struct GraphParam {
  std::uint32_t node = 0;
  std::uint32_t param = 0;
  std::uint32_t data = 0;
  bool is_input = true;
  std::size_t num_buffers = 0;
  bool auto_buffers = false;  // kAutoBuffers: num_buffers is decided at verify from the pipeline depth
  InputPolicy policy = InputPolicy::block;
  std::size_t queue_capacity = 1;
  FixedRing<std::uint32_t> waiting;
  FixedRing<DequeuedBuffer> done;
  std::vector<std::int64_t> timestamp;   // per buffer, given at enqueue
  std::vector<std::int64_t> enqueued_at; // per buffer, steady clock at enqueue
  std::vector<std::uint64_t> tag;        // per buffer, FrameStamp::tag given at enqueue
  std::vector<std::int64_t> capture;     // per buffer, capture time given at enqueue (0 = unknown)
  std::atomic<std::uint64_t> conversions{0};  // Graph::count_conversion
  // Outputs are published when their writer finishes, before the frame completes; a buffer the
  // application hands back before then is held (deferred) until its frame completes, because the frame's
  // other readers may still be reading it. Both per buffer, guarded by the graph mutex.
  std::vector<std::uint8_t> in_frame;  // part of a frame in flight
  std::vector<std::uint8_t> deferred;  // enqueued again while in_frame: joins `waiting` at completion
};

struct ExecSlot {
  std::atomic<std::uint64_t> frame{0};
  std::atomic<std::int64_t> start{0};
  std::atomic<std::int64_t> end{0};
  std::atomic<std::int32_t> status{0};
  std::atomic<std::int32_t> code{0};  // KernelContext::report_code of the call (0 none)
};

static_assert(CallTable::kUnbound == kInvalidIndex, "KernelContext::is_bound reads bindings directly");

struct NodeState {
  // built
  GraphCore* graph = nullptr;
  std::uint32_t index = 0;
  std::string name;
  std::string kernel_name;
  const KernelInfo* kernel = nullptr;
  std::string requested_target;
  std::vector<std::string> requested_targets;  // Graph::set_targets: one replica per target (2 or more)
  AttributeSet attrs;
  std::vector<std::uint32_t> bindings;  // per param: data index or kInvalidIndex
  // verified
  Target* target = nullptr;
  std::string target_name;
  // What vg::running_call() shows while a callback of this node runs on its worker (names filled at
  // first use; only the frame changes per call). One per callback kind: they never overlap on a node.
  RunningCall running_process, running_complete, running_control;
  KernelCallbacks callbacks{};
  bool accepts_device_memory = false;  // from the chosen implementation's ImplementOptions
  // Replicas (Graph::set_targets): the user's node is replica 0; verify appends the others to the graph's
  // node states. Replica r runs the frames with sequence % replica_count == r and lets the other frames
  // through at once, without its target (so frames still complete in order, each on one replica).
  struct ReplicaTarget {
    Target* target = nullptr;
    KernelCallbacks callbacks{};
  };
  std::vector<ReplicaTarget> replica_targets;  // resolved, one per requested target (user's node only)
  std::uint32_t primary = 0;                   // the user's node this state runs
  std::uint32_t replica_index = 0;
  std::uint32_t replica_count = 1;
  std::vector<std::uint32_t> replicas;  // on the user's node: every replica's state, itself first (empty: one)
  // On the user's node of a replicated writer of graph outputs, per frame slot: replicas done with the frame
  // (the last one hands the outputs over, so they leave in frame order) and the owning replica's result.
  std::unique_ptr<std::atomic<std::uint32_t>[]> replicas_done;
  std::unique_ptr<std::atomic<std::int32_t>[]> replica_result;
  std::string label;                    // telemetry name: the node's, or "name[target]" for a replica
  std::vector<std::uint32_t> preds;
  std::vector<std::uint32_t> succs;
  // Graph::order_across_frames: states whose next frame waits for this one's current frame, and how
  // many states this one's frames wait for that way (tokens beside preds, start and previous frame).
  std::vector<std::uint32_t> next_frame_succs;
  std::uint32_t previous_frame_preds = 0;
  std::vector<std::uint32_t> publishes;  // output graph parameters this node writes (published when it finishes)
  std::size_t num_params = 0;
  std::vector<const DataMeta*> metas;          // per param
  std::vector<Buffer*> table;                  // [slot * num_params + param]: buffer for that frame slot
  std::vector<std::uint32_t> table_index;      // same shape: index of that buffer within its object
  std::unique_ptr<std::atomic<std::int32_t>[]> pending;  // [depth + 1]
  std::int32_t initial_tokens = 0;
  // Whether admitting a frame gives this state a token. Only states that need it do: those with no
  // predecessor in the frame, and replicas (admission lets the frames they do not own through). The
  // others cannot start a frame before a predecessor has, which needs the frame admitted.
  bool start_token = true;
  // runtime (touched only on the node's target thread; the current frame slot is calls.current_slot)
  FrameInfo frame{};
  void* instance = nullptr;
  bool created = false;
  Status lifecycle_status = Status::ok;
  std::string lifecycle_message;  // create failures (verify time)
  std::shared_ptr<void> from_validate;  // validate -> create hand-off; cleared when verify ends
  std::array<char, 256> error{};  // set_error() from callbacks
  std::int32_t reported_code = 0;  // report_code() of the current call; moved into its record
  bool destroy_threw = false;      // the delete callback threw (reported, not retried)
  // deadline (0 = none): the watchdog gives up on a process or control call running longer
  std::int64_t deadline_ns = 0;
  std::int64_t create_deadline_ns = 0;
  std::chrono::nanoseconds requested_deadline{-1};         // Graph::set_deadline; -1 = the kernel's
  std::chrono::nanoseconds requested_create_deadline{-1};
  std::atomic<std::int64_t> running_since{0};    // start of the running call, 0 = idle
  std::atomic<std::uint64_t> running_token{0};   // frame + 1, kControlRunning, kGivenUp or 0
  std::uint32_t running_command = 0;             // command slot of a running control call
  std::atomic<bool> stuck{false};                // a call was given up on: never called again
  std::atomic<std::int64_t> stuck_since{0};
  std::atomic<std::uint64_t> deadline_misses{0};
  // asynchronous kernels (KernelCallbacks::complete): the frame whose process returned pending
  int fence_fd = -1;                              // KernelContext::complete_after, consumed at once
  std::int64_t pending_start = 0;                 // when its process started (the execution's start)
  std::atomic<std::uint64_t> waiting_frame{0};    // frame + 1 waiting for fence_fd (the fence thread's)
  std::atomic<int> waiting_fd{-1};
  std::atomic<std::int64_t> waiting_since{0};
  // telemetry (written by the target thread, read by anyone)
  std::unique_ptr<ExecSlot[]> ring;
  std::size_t ring_capacity = 0;
  std::atomic<std::uint64_t> executions{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<std::int64_t> sum_ns{0};
  std::atomic<std::int64_t> min_ns{0};
  std::atomic<std::int64_t> max_ns{0};
  std::atomic<std::uint64_t> conversions{0};  // KernelContext::count_conversion
  // for create/delete waits
  Event lifecycle_done;

  detail::CallTable calls;  // what `context` reads per call: filled by build_tables, slot set per call
  KernelContext context{*this, calls};
};

struct FrameSlot {
  std::uint64_t sequence = 0;
  std::int64_t timestamp_ns = 0;
  std::int64_t enqueued_ns = 0;
  std::int64_t capture_ns = 0;  // of the frame's first input (0 = unknown)
  std::uint64_t tag = 0;        // FrameStamp::tag of the frame's first input
  std::int64_t completed_ns = 0;
  bool from_process = false;
  std::vector<std::uint32_t> gp_index;
  std::vector<std::uint8_t> published;  // per graph parameter: handed to the application by its writer
  std::atomic<std::int32_t> remaining{0};
  std::atomic<bool> abort{false};
  std::atomic<std::int32_t> status{0};
  std::unique_ptr<std::atomic<std::uint8_t>[]> skip;  // per node: an input is invalid this frame
  Status final_status = Status::ok;
  bool finished = false;  // under mu_: every node is done with it; completed once the frames before it are
};

enum class CommandState : std::uint32_t { free, claimed, queued, running, done, abandoned };

struct CommandSlot {
  std::atomic<std::uint32_t> state{0};
  std::uint32_t node = 0;
  ControlCommand command;
  CommandReply reply;
  Status result = Status::ok;
  Event done;
  GraphCore* graph = nullptr;
};

inline constexpr std::size_t kCommandSlots = 16;

/// Point a buffer's planes into its block according to the metadata.
void layout_buffer(const DataMeta& meta, Buffer& buffer) noexcept;
/// Point a buffer's planes into its block according to an explicit layout; false if it does not fit.
bool layout_external(const DataMeta& meta, const ExternalBuffer& external, Buffer& buffer) noexcept;

class GraphCore {
 public:
  GraphCore(Context& context, std::string name);
  ~GraphCore();

  // building
  std::uint32_t add_data(std::string name, const DataMeta& meta, bool is_virtual, DataKind kind);
  std::uint32_t add_node(std::string name, std::string_view kernel);
  void bind(std::uint32_t node, std::size_t param, std::uint32_t data);
  std::size_t param_by_name(std::uint32_t node, std::string_view param) const;
  std::uint32_t add_graph_parameter(std::uint32_t node, std::string_view param, std::size_t num_buffers);
  void check_building(const char* what) const;
  NodeState& node(std::uint32_t index) const;
  DataObject& data(std::uint32_t index) const;

  void verify();
  void release() noexcept;
  /// A call was given up on and may still run: the graph's memory must outlive it (leaked, not freed).
  bool has_stuck_nodes() const noexcept;

  Status process(std::chrono::nanoseconds timeout) noexcept;
  Status submit(std::chrono::nanoseconds timeout) noexcept;
  Status wait_submitted(std::chrono::nanoseconds timeout) noexcept;
  Status start() noexcept;
  Status stop(StopMode mode) noexcept;
  Status enqueue(std::uint32_t param, std::uint32_t index, const FrameStamp& stamp,
                 std::chrono::nanoseconds timeout) noexcept;
  Status dequeue(std::uint32_t param, DequeuedBuffer& out, std::chrono::nanoseconds timeout) noexcept;
  /// @p replica: one replica's index, or kAllReplicas (every replica, each on its own target).
  Status send_command(std::uint32_t node, const ControlCommand& command, std::chrono::nanoseconds timeout,
                      CommandReply* reply, std::uint32_t replica = kAllReplicas) noexcept;
  Status wait_idle(std::chrono::nanoseconds timeout) noexcept;
  Status import_buffer(std::uint32_t data, std::uint32_t buffer, const ExternalBuffer& external,
                       MemoryBlock* previous) noexcept;

  GraphStats stats() const;
  void reset_stats() noexcept;
  RunError last_error() const;
  RunError frame_error(std::uint64_t frame) const;
  std::vector<ExecutionRecord> executions(std::uint32_t node) const;
  Status frame_sample(std::uint64_t sequence, FrameSample& out) const noexcept;
  void write_trace(std::ostream& out) const;
  void write_dot(std::ostream& out) const;

  std::mutex& mu_public() const noexcept { return mu_; }
  bool watched_ = false;  // registered with the context's watchdog (some node has a deadline)
  // The target process() may borrow to run a frame on the caller's thread (set at verify; null: never).
  Target* caller_target_ = nullptr;
  bool streaming_public() const noexcept { return streaming_; }

  // state (public to the Graph facade and the contexts)
  Context& context_;
  std::string name_;
  std::vector<std::unique_ptr<NodeState>> nodes_;
  std::vector<std::unique_ptr<DataObject>> data_;
  std::vector<std::unique_ptr<GraphParam>> params_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> frame_orders_;  // (earlier, later): order_across_frames
  std::vector<std::uint32_t> order_;       // the user's nodes, in execution order
  std::vector<std::uint32_t> exec_order_;  // every node state (replicas after their node), in execution order
  std::vector<std::uint32_t> start_order_;  // those of exec_order_ that admission gives a token (start_token)
  std::vector<NodeState*> async_nodes_;      // nodes with a complete callback (the fence thread watches them)
  std::thread fence_thread_;
  int fence_wake_fd_ = -1;                  // eventfd: a fence was registered, or stop
  std::atomic<bool> fence_stop_{false};
  std::vector<pollfd> fence_polls_;         // preallocated: one per async node, plus the wake fd
  std::vector<NodeState*> fence_nodes_;
  std::vector<NodeState*> replicated_;      // replicated writers of graph outputs (NodeState::replicas_done)
  std::uint32_t num_user_nodes_ = 0;       // nodes_[0, num_user_nodes_) are the user's; the rest are replicas
  std::vector<std::unique_ptr<NodeState>> retired_replicas_;  // stuck replicas dropped at release: kept
  std::size_t requested_depth_ = 0;
  std::size_t depth_ = 1;
  std::size_t telemetry_capacity_ = 4096;
  Allocator* allocator_ = nullptr;
  bool verified_ = false;

 private:
  // verify steps
  void resolve_targets();
  NodeState::ReplicaTarget resolve_target(NodeState& node, const std::string& requested, bool& accepts_device_memory);
  void expand_replicas();
  void drop_replicas() noexcept;
  void check_bindings();
  void check_device_memory();
  void order_nodes();
  void run_validate();
  void allocate_buffers();
  void free_buffers() noexcept;
  void build_tables();
  void reserve_targets();
  void create_nodes();
  bool run_lifecycle_on_target(NodeState& node, bool create);  // false: given up on (create deadline) or skipped

  // scheduling
  static void exec_trampoline(void* self, std::uint64_t node, std::uint64_t frame) noexcept;
  static void complete_trampoline(void* self, std::uint64_t node, std::uint64_t frame) noexcept;
  void complete_node(std::uint32_t node, std::uint64_t frame) noexcept;
  Status call_complete(NodeState& n) noexcept;
  /// A frame's process (and complete) are done: telemetry, failure accounting.
  void record_execution(NodeState& n, FrameSlot& slot, std::uint64_t frame, std::int64_t start, Status status) noexcept;
  /// process returned pending: wait for the fence (fence thread) or queue complete on the target.
  void defer_completion(NodeState& n, std::uint64_t frame) noexcept;
  // The fence thread: polls the fences of pending frames and queues their complete on the target.
  void start_fence_thread();
  void stop_fence_thread() noexcept;
  void fence_loop() noexcept;
  void hand_over_completion(NodeState& n) noexcept;
  static void control_trampoline(void* self, std::uint64_t slot, std::uint64_t) noexcept;
  static void lifecycle_trampoline(void* self, std::uint64_t node, std::uint64_t create) noexcept;
  void exec_node(std::uint32_t node, std::uint64_t frame) noexcept;
  void release_token(std::uint32_t node, std::uint64_t frame) noexcept;
  /// Every node is done with @p frame: complete it, and the frames after it that were waiting for it
  /// (frames complete in order; with replicas a later frame can be done first).
  void complete_frame(std::uint64_t frame) noexcept;
  void complete_one_locked(std::uint64_t frame) noexcept;
  bool can_admit_locked() const noexcept;
  std::uint64_t admit_locked(bool from_process) noexcept;
  void try_admit_locked() noexcept;
  bool on_target_thread() const noexcept;
  /// Claim a command slot and queue @p command on @p state's target; kInvalidIndex if none is free.
  std::size_t post_command(std::uint32_t state, const ControlCommand& command) noexcept;
  /// Wait for a posted command until @p deadline (steady clock, ns); frees the slot unless abandoned.
  Status collect_command(std::size_t slot, std::int64_t deadline, CommandReply* reply) noexcept;
  void record_error(NodeState& node, std::uint64_t frame, Status status, const char* message = nullptr) noexcept;
  void finish_node(NodeState& node, std::uint64_t frame, Status status, bool skipped, bool aborted) noexcept;
  static void watchdog_trampoline(void* self, std::int64_t now) noexcept;
  void check_deadlines(std::int64_t now) noexcept;
  std::chrono::nanoseconds drain_bound() const noexcept;
  void note_stuck_at_stop() noexcept;
  static Status call_process(NodeState& node) noexcept;  // the user's process, exceptions contained
  void publish_outputs(NodeState& node, std::uint64_t frame, Status status) noexcept;
  void return_waiting_locked(Status status) noexcept;
  /// Poll progress_ (cheaply, without the mutex) for up to the context's spin time: a frame usually
  /// completes within microseconds of the waiter arriving, and a futex sleep costs more than that.
  void spin_while_unchanged(std::uint64_t seen) const noexcept;
  /// process() and submit(): wait (up to @p timeout) for room and admit one frame with buffer 0 of every
  /// graph parameter (@p submitted: as the submitted frame). Refused (busy) while streaming or while a
  /// submitted frame is not yet waited for.
  Status admit_one_frame(std::chrono::nanoseconds timeout, bool submitted, std::uint64_t& frame) noexcept;
  /// Wait (up to @p timeout) for @p frame to complete: false on timeout, else true with its @p status
  /// (which may itself be Status::timeout: a node overran its deadline).
  bool wait_for_frame(std::uint64_t frame, std::uint64_t seen, std::chrono::nanoseconds timeout,
                      Status& status) noexcept;

  std::vector<FrameSlot> slots_;
  mutable std::mutex mu_;
  std::condition_variable cv_;  // frame completed, queue space, stop
  bool streaming_ = false;
  bool stopped_ = false;
  std::uint64_t next_frame_ = 0;
  std::uint64_t completed_through_ = 0;  // frames [0, completed_through_) are complete
  std::uint32_t in_flight_ = 0;
  // submit(): the one frame started and not yet waited for. Until wait_submitted() takes its status,
  // nothing else is admitted, so its slot (and final_status) stays as the frame left it.
  bool submitted_ = false;
  std::uint64_t submitted_frame_ = 0;
  std::atomic<std::uint64_t> progress_{0};  // bumped (under mu_) whenever a frame completes or a buffer is handed back
  std::vector<std::size_t> reservations_;  // per target index

 public:
  // What the latest completed frame used (for Graph's default data accessors).
  std::atomic<std::uint32_t> last_slot_{0};
  std::vector<std::atomic<std::uint32_t>> last_gp_index_;
  std::uint32_t resolve_buffer(std::uint32_t data, std::uint32_t buffer) const noexcept;

 private:

  std::array<CommandSlot, kCommandSlots> commands_;

  // accounting (guarded by mu_)
  std::uint64_t frames_in_ = 0, frames_started_ = 0, frames_completed_ = 0, frames_failed_ = 0;
  std::uint64_t frames_dropped_ = 0, frames_rejected_ = 0, frames_aborted_ = 0;
  std::vector<std::int64_t> latency_ring_;
  std::size_t latency_count_ = 0;
  std::vector<std::int64_t> capture_latency_ring_;  // capture -> done, frames with a capture time
  std::size_t capture_latency_count_ = 0;
  std::int64_t first_start_ns_ = 0, last_complete_ns_ = 0;

  // Recent errors, newest at err_next_ - 1 (guarded by err_mu_; fixed storage so workers never allocate).
  // A ring rather than one slot: each failed frame's line names its own node and cause even when later
  // frames fail before the application reads it.
  struct ErrorRecord {
    Status status = Status::ok;
    std::uint64_t frame = 0;
    std::uint32_t node = kInvalidIndex;
    std::array<char, 256> message{};
  };
  static constexpr std::size_t kErrorRing = 64;
  RunError to_run_error(const ErrorRecord& r) const;
  mutable std::mutex err_mu_;
  std::array<ErrorRecord, kErrorRing> errors_{};
  std::uint64_t err_next_ = 0;

  std::vector<std::string> used_modules_;
};

}  // namespace vg::detail
