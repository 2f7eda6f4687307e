#pragma once
// Queued graph parameters and streaming (vx_khr_pipelining): a graph in a queue mode, or streaming, is
// run by its own executor thread, one frame after another; each frame takes one reference from the
// ready queue of every queued graph parameter, puts it in place of the parameter's object in the graph's
// nodes, runs, and moves the references to the done queues. Queues are rings sized at
// vxSetGraphScheduleConfig (a reference is in at most one place at a time), so frames allocate nothing.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "object.hpp"

namespace vg::openvx {

/// A fixed-capacity FIFO of references.
class ReferenceRing {
 public:
  void reserve(std::size_t capacity) { slots_.assign(capacity, nullptr); }
  std::size_t size() const noexcept { return count_; }
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
  vx_reference in_flight = nullptr;      // taken by the frame running now
};

class GraphExecutor {
 public:
  explicit GraphExecutor(vx_graph graph) noexcept : graph_(graph) {}
  ~GraphExecutor();
  GraphExecutor(const GraphExecutor&) = delete;
  GraphExecutor& operator=(const GraphExecutor&) = delete;

  /// Starts the thread if it is not running (the graph is verified).
  vx_status start() noexcept;
  /// Stops the thread after the frame it is running (queued references stay queued).
  void stop() noexcept;

  std::vector<ParameterQueue> queues;
  std::mutex lock;                  // guards everything below and the queues' rings
  std::condition_variable changed;  // any of it changed
  vx_uint32 manual_runs = 0;        // QUEUE_MANUAL: frames vxScheduleGraph asked for
  bool streaming = false;           // vxStartGraphStreaming until vxStopGraphStreaming or a failure
  bool running = false;             // a frame is running
  vx_status first_failure = VX_SUCCESS;  // since the last vxWaitGraph

  /// A frame runs, streaming is on, or a frame is ready to start (takes the lock).
  bool busy() noexcept;
  /// Whether a frame can start now (called with the lock held).
  bool can_run() const noexcept;
  /// The queue of graph parameter @p parameter, or null when it is not queued.
  ParameterQueue* queue_of(vx_uint32 parameter) noexcept;

 private:
  void loop() noexcept;
  /// Puts each queue's in-flight reference in place of its parameter's current object.
  void bind_frame_references() noexcept;

  vx_graph graph_;
  std::thread thread_;
  bool stopping_ = false;
};

}  // namespace vg::openvx
