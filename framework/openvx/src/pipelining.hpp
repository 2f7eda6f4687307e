#pragma once
// Queued graph parameters and streaming (vx_khr_pipelining). A graph in a queue mode, or streaming, runs
// up to `slots` frames at once on its compiled visiongraph graph (streaming, one frame per enqueued slot
// number): each frame takes one reference from the ready queue of every queued graph parameter, runs with
// them in its slot's arguments (_vx_node::slot_arguments), and when it completes, its references move to
// the done queues. Nodes on different targets work on different frames at the same time; memory two frames
// would share (anything not queued and not a virtual object copied per slot) is ordered across frames, so
// results equal unpipelined runs. Queues are rings sized at vxSetGraphScheduleConfig (a reference is in one
// place at a time), so frames allocate nothing.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "object.hpp"
#include "visiongraph/core/status.hpp"
#include "visiongraph/graph/handles.hpp"

namespace vg::openvx {

/// A fixed-capacity FIFO of references.
class ReferenceRing {
 public:
  void reserve(std::size_t capacity) { slots_.assign(capacity, nullptr); }
  std::size_t size() const noexcept { return count_; }
  std::size_t capacity() const noexcept { return slots_.size(); }
  bool push(vx_reference ref) noexcept {
    if (count_ == slots_.size()) return false;
    slots_[(head_ + count_) % slots_.size()] = ref;
    ++count_;
    return true;
  }
  vx_reference pop() noexcept {
    vx_reference ref = slots_[head_];
    head_ = (head_ + 1) % slots_.size();
    --count_;
    return ref;
  }
  bool contains(vx_reference ref) const noexcept {
    for (std::size_t i = 0; i < count_; ++i) {
      if (slots_[(head_ + i) % slots_.size()] == ref) return true;
    }
    return false;
  }

 private:
  std::vector<vx_reference> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

/// One queued graph parameter.
struct ParameterQueue {
  vx_uint32 parameter = 0;               // graph parameter index
  std::vector<vx_reference> candidates;  // the refs_list of vxSetGraphScheduleConfig, held internally
  ReferenceRing ready;                   // enqueued by the application, not yet taken by a frame
  ReferenceRing done;                    // used by a finished frame, not yet dequeued
  // Pipe-up input (VX_KERNEL_PIPEUP_INPUT_DEPTH): a reading node keeps the last `hold` references of
  // finished frames; they reach `done` as newer ones replace them, or when the graph stops.
  ReferenceRing held;
  std::size_t hold = 0;
  // Set at verification: per frame slot, the reference of the frame using the slot (null: free), and
  // where the parameter's object sits in the compiled nodes (those positions take the frame's reference).
  std::vector<vx_reference> in_flight;
  /// A compiled node's argument that takes the frame's reference, or (a replica of a replicated node) item
  /// `item` of the object array or pyramid the frame's reference is an item of.
  struct Position {
    vx_node run;
    vx_uint32 index;
    bool sibling = false;
    std::size_t item = 0;
  };
  std::vector<Position> positions;

  /// Whether @p ref is anywhere in this queue's care now.
  bool holds(vx_reference ref) const noexcept;
};

class GraphExecutor {
 public:
  explicit GraphExecutor(vx_graph graph) noexcept : graph_(graph) {}
  ~GraphExecutor();
  GraphExecutor(const GraphExecutor&) = delete;
  GraphExecutor& operator=(const GraphExecutor&) = delete;

  /// vxVerifyGraph compiled the graph for @p slots frames at once, numbered through @p frame.
  void compiled(std::size_t slots, vg::GraphParamId frame);
  /// Starts the compiled graph streaming and the completion thread, if not running (graph verified).
  vx_status start() noexcept;
  /// Frames in flight finish; references still waiting stay queued, kept (pipe-up) ones go to done.
  void stop() noexcept;
  /// Starts frames while one can run and a slot is free (called with the lock held).
  void admit_locked() noexcept;

  std::vector<ParameterQueue> queues;
  std::mutex lock;                  // guards everything below and the queues
  std::condition_variable changed;  // any of it changed
  vx_uint32 manual_runs = 0;        // QUEUE_MANUAL: frames vxScheduleGraph asked for
  bool streaming = false;           // vxStartGraphStreaming until vxStopGraphStreaming or a failure
  std::size_t in_flight = 0;        // frames started and not yet finished
  vx_status first_failure = VX_SUCCESS;  // since the last vxWaitGraph
  std::vector<vx_reference> slot_copies;  // held internally: the virtual objects' copies for slots 1 and up

  /// Between start() and stop(): frames are admitted.
  bool admitting() const noexcept { return started_; }
  /// A frame runs, streaming is on, or a frame is ready to start (takes the lock).
  bool busy() noexcept;
  /// Whether the references and the mode let a frame start (called with the lock held).
  bool can_run() const noexcept;
  /// The queue of graph parameter @p parameter, or null when it is not queued.
  ParameterQueue* queue_of(vx_uint32 parameter) noexcept;
  /// Releases the slot copies (the compiled graph is gone).
  void drop_copies() noexcept;

 private:
  void complete_frames() noexcept;  // the completion thread
  void frame_done(std::uint32_t slot, vg::Status status) noexcept;

  vx_graph graph_;
  std::thread completer_;
  bool started_ = false;
  vg::GraphParamId frame_{};
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint64_t> slot_begin_;
};

/// How many frames @p graph (queued, its nodes and replicas @p runs) runs at once: one per target its
/// nodes use, at most one per reference of the shortest queue, one when a delay carries values between
/// frames.
std::size_t pipeline_slots(vx_graph graph, const std::vector<vx_node>& runs) noexcept;

}  // namespace vg::openvx
