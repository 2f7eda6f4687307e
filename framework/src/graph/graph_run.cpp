// Running a verified graph: admission, per-target dispatch, completion, streaming, commands.
// Everything here is noexcept and allocation-free.

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string_view>
#include <thread>

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "graph/graph_core.hpp"
#include "runtime/context_state.hpp"
#include "visiongraph/core/clock.hpp"
#include "runtime/running_call_state.hpp"

namespace vg::detail {

namespace {

// The node's RunningCall for one callback kind, its names filled on first use and its frame set now.
RunningCall& running_call_of(NodeState& n, RunningCall& call, const char* callback, std::uint64_t frame) noexcept {
  if (call.node == nullptr) {
    call.node = n.name.c_str();
    call.kernel = n.kernel_name.c_str();
    call.target = n.target_name.c_str();
    call.callback = callback;
  }
  call.frame = frame;
  return call;
}

constexpr std::int32_t to_int(Status s) noexcept { return static_cast<std::int32_t>(s); }

// An exception that escaped a user callback: the node's error text says so (fixed storage, no allocation).
void note_exception(std::array<char, 256>& error, const char* what) noexcept {
  constexpr std::string_view prefix = "threw an exception: ";
  std::size_t n = 0;
  for (char c : prefix) error[n++] = c;
  for (; what != nullptr && *what != '\0' && n + 1 < error.size(); ++what) error[n++] = *what;
  error[n] = '\0';
}
}  // namespace

Status GraphCore::call_process(NodeState& n) noexcept {
  try {
    return n.callbacks.process(n.context);
  } catch (const std::exception& e) {
    note_exception(n.error, e.what());
  } catch (...) {
    note_exception(n.error, "(not a std::exception)");
  }
  return Status::kernel_error;
}

bool GraphCore::on_target_thread() const noexcept {
  for (std::size_t t = 0; t < context_.num_targets(); ++t)
    if (context_.target(t).is_current_thread()) return true;
  return false;
}

void GraphCore::exec_trampoline(void* self, std::uint64_t node, std::uint64_t frame) noexcept {
  static_cast<GraphCore*>(self)->exec_node(static_cast<std::uint32_t>(node), frame);
}

void GraphCore::release_token(std::uint32_t node_index, std::uint64_t frame) noexcept {
  NodeState& n = *nodes_[node_index];
  if (n.pending[frame % (depth_ + 1)].fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (n.replica_count > 1 && frame % n.replica_count != n.replica_index) {
    // Another replica's frame: let it through here and now, without this replica's target (which may be
    // busy with its own frame). Under mu_ (admission) this cannot publish or complete the frame: admission
    // lets these through before it releases anything else of the frame (admit_locked).
    finish_node(n, frame, Status::ok, false, false);
    return;
  }
  n.target->push(TargetCommand{&GraphCore::exec_trampoline, this, node_index, frame});
}

// Flattened: the per-node path (record, finish, releasing successors, queueing them) in one body, without
// the calls' register saves between its parts (about 10 % of a node's instructions).
[[gnu::flatten]] void GraphCore::exec_node(std::uint32_t node_index, std::uint64_t frame) noexcept {
  NodeState& n = *nodes_[node_index];
  const std::size_t s = frame % depth_;
  FrameSlot& slot = slots_[s];
  const bool aborted = slot.abort.load(std::memory_order_acquire);
  const bool skipped = aborted || slot.skip[node_index].load(std::memory_order_acquire) != 0;
  Status status = Status::ok;
  if (!skipped && n.target->faulted()) {
    // A callback on this target never returned: no callback runs here any more; the frame fails.
    status = Status::timeout;
    n.failures.fetch_add(1, std::memory_order_relaxed);
    record_error(n, frame, status, "its target is faulted (a callback on it overran its deadline)");
    std::int32_t expected = to_int(Status::ok);
    slot.status.compare_exchange_strong(expected, to_int(status));
  } else if (!skipped) {
    n.calls.current_slot = static_cast<std::uint32_t>(s);
    n.frame.sequence = slot.sequence;
    n.frame.timestamp_ns = slot.timestamp_ns;
    n.frame.capture_ns = slot.capture_ns;
    n.error[0] = '\0';
    n.fence_fd = -1;
    const std::int64_t t0 = now_ns();
    n.running_token.store(frame + 1, std::memory_order_release);
    n.running_since.store(t0, std::memory_order_release);
    {
      const detail::RunningCallMark running(running_call_of(n, n.running_process, "process", frame));
      status = call_process(n);
    }
    n.running_since.store(0, std::memory_order_release);
    std::uint64_t mine = frame + 1;
    if (!n.running_token.compare_exchange_strong(mine, 0, std::memory_order_acq_rel))
      return;  // the watchdog gave up on this call and finished the frame: nothing here is ours any more
    if (status == Status::pending) {
      if (n.callbacks.complete) {
        n.pending_start = t0;
        defer_completion(n, frame);  // complete_node finishes the frame
        return;
      }
      status = Status::kernel_error;
      std::snprintf(n.error.data(), n.error.size(), "process returned pending but the kernel has no complete callback");
    }
    record_execution(n, slot, frame, t0, status);
  }
  finish_node(n, frame, status, skipped, aborted);
}

void GraphCore::record_execution(NodeState& n, FrameSlot& slot, std::uint64_t frame, std::int64_t t0, Status status) noexcept {
  const std::int64_t t1 = now_ns();
  const std::int64_t dt = t1 - t0;
  const std::uint64_t k = n.executions.fetch_add(1, std::memory_order_relaxed);
  ExecSlot& rec = n.ring[k % n.ring_capacity];
  rec.frame.store(frame, std::memory_order_relaxed);
  rec.start.store(t0, std::memory_order_relaxed);
  rec.end.store(t1, std::memory_order_relaxed);
  rec.status.store(to_int(status), std::memory_order_relaxed);
  rec.code.store(n.reported_code, std::memory_order_relaxed);
  n.reported_code = 0;
  n.sum_ns.fetch_add(dt, std::memory_order_relaxed);
  if (k == 0 || dt < n.min_ns.load(std::memory_order_relaxed)) n.min_ns.store(dt, std::memory_order_relaxed);
  if (dt > n.max_ns.load(std::memory_order_relaxed)) n.max_ns.store(dt, std::memory_order_relaxed);
  if (n.deadline_ns > 0 && dt > n.deadline_ns) n.deadline_misses.fetch_add(1, std::memory_order_relaxed);
  if (status != Status::ok) {
    n.failures.fetch_add(1, std::memory_order_relaxed);
    record_error(n, frame, status);
    std::int32_t expected = to_int(Status::ok);
    slot.status.compare_exchange_strong(expected, to_int(status));
  }
}

// ---------------------------------------------------------------------------------------------
// asynchronous kernels: process returned pending; complete runs later on the same target

Status GraphCore::call_complete(NodeState& n) noexcept {
  try {
    return n.callbacks.complete(n.context);
  } catch (const std::exception& e) {
    note_exception(n.error, e.what());
  } catch (...) {
    note_exception(n.error, "(not a std::exception)");
  }
  return Status::kernel_error;
}

void GraphCore::defer_completion(NodeState& n, std::uint64_t frame) noexcept {
  const int fd = n.fence_fd;
  n.fence_fd = -1;
  if (fd < 0 || fence_wake_fd_ < 0) {
    // No fence: complete goes behind the work already queued on this target (other nodes' submissions).
    n.target->push(TargetCommand{&GraphCore::complete_trampoline, this, n.index, frame});
    return;
  }
  n.waiting_fd.store(fd, std::memory_order_relaxed);
  n.waiting_since.store(now_ns(), std::memory_order_relaxed);
  n.waiting_frame.store(frame + 1, std::memory_order_release);
  const std::uint64_t one = 1;
  (void)!::write(fence_wake_fd_, &one, sizeof one);
}

void GraphCore::complete_trampoline(void* self, std::uint64_t node, std::uint64_t frame) noexcept {
  static_cast<GraphCore*>(self)->complete_node(static_cast<std::uint32_t>(node), frame);
}

void GraphCore::complete_node(std::uint32_t node_index, std::uint64_t frame) noexcept {
  NodeState& n = *nodes_[node_index];
  const std::size_t s = frame % depth_;
  FrameSlot& slot = slots_[s];
  Status status = Status::ok;
  if (n.target->faulted()) {
    // A call on this target never returned: no callback runs here any more (as in exec_node).
    status = Status::timeout;
    std::snprintf(n.error.data(), n.error.size(), "its target is faulted (a callback on it overran its deadline)");
  } else {
    n.calls.current_slot = static_cast<std::uint32_t>(s);
    n.error[0] = '\0';
    const std::int64_t t0 = now_ns();
    n.running_token.store(frame + 1, std::memory_order_release);
    n.running_since.store(t0, std::memory_order_release);
    {
      const detail::RunningCallMark running(running_call_of(n, n.running_complete, "complete", frame));
      status = call_complete(n);  // also for an abandoned frame: the started work must be collected
    }
    n.running_since.store(0, std::memory_order_release);
    std::uint64_t mine = frame + 1;
    if (!n.running_token.compare_exchange_strong(mine, 0, std::memory_order_acq_rel)) return;  // given up on
    if (status == Status::pending) {
      status = Status::kernel_error;
      std::snprintf(n.error.data(), n.error.size(), "complete returned pending (only process may)");
    }
  }
  record_execution(n, slot, frame, n.pending_start, status);
  finish_node(n, frame, status, false, slot.abort.load(std::memory_order_acquire));
}

void GraphCore::hand_over_completion(NodeState& n) noexcept {
  const std::uint64_t token = n.waiting_frame.exchange(0, std::memory_order_acq_rel);
  if (token != 0) n.target->push(TargetCommand{&GraphCore::complete_trampoline, this, n.index, token - 1});
}

// One thread per graph with asynchronous kernels; allocation-free: the poll set is preallocated.
void GraphCore::fence_loop() noexcept {
  while (!fence_stop_.load(std::memory_order_acquire)) {
    std::size_t count = 0;
    fence_polls_[count++] = pollfd{fence_wake_fd_, POLLIN, 0};
    std::int64_t wait_ms = -1;
    const std::int64_t now = now_ns();
    for (NodeState* n : async_nodes_) {
      if (n->waiting_frame.load(std::memory_order_acquire) == 0) continue;
      if (n->deadline_ns > 0) {  // a fence that does not signal in time: complete runs anyway and reports it
        const std::int64_t left = n->waiting_since.load(std::memory_order_relaxed) + n->deadline_ns - now;
        if (left <= 0) {
          hand_over_completion(*n);
          continue;
        }
        const std::int64_t ms = left / 1'000'000 + 1;
        if (wait_ms < 0 || ms < wait_ms) wait_ms = ms;
      }
      fence_polls_[count] = pollfd{n->waiting_fd.load(std::memory_order_relaxed), POLLIN, 0};
      fence_nodes_[count++] = n;
    }
    const int ready = ::poll(fence_polls_.data(), count, static_cast<int>(std::min<std::int64_t>(wait_ms, 60'000)));
    if (ready <= 0) continue;  // timeout (deadlines are checked above) or EINTR
    if (fence_polls_[0].revents != 0) {
      std::uint64_t drained = 0;
      (void)!::read(fence_wake_fd_, &drained, sizeof drained);
    }
    for (std::size_t i = 1; i < count; ++i)
      if (fence_polls_[i].revents != 0) hand_over_completion(*fence_nodes_[i]);  // readable, error or hang-up
  }
}

// After a node's turn on a frame (run, failed, skipped, or given up on by the watchdog): hand outputs
// over, let successors and the node's next frame go, complete the frame if it was the last node.
void GraphCore::finish_node(NodeState& n, std::uint64_t frame, Status status, bool skipped, bool aborted) noexcept {
  FrameSlot& slot = slots_[frame % depth_];
  NodeState& node = *nodes_[n.primary];  // the user's node (n itself unless n is a replica)
  if (!node.publishes.empty() && !slot.from_process) {
    const Status handed = aborted ? Status::aborted : skipped || status != Status::ok ? Status::kernel_error : Status::ok;
    if (n.replica_count <= 1) {
      publish_outputs(node, frame, handed);
    } else {
      const std::size_t s = frame % depth_;
      if (frame % n.replica_count == n.replica_index) node.replica_result[s].store(to_int(handed), std::memory_order_relaxed);
      if (node.replicas_done[s].fetch_add(1, std::memory_order_acq_rel) + 1 == n.replica_count)
        publish_outputs(node, frame, static_cast<Status>(node.replica_result[s].load(std::memory_order_relaxed)));
    }
  }
  if (skipped || status != Status::ok)
    for (std::uint32_t succ : n.succs) slot.skip[succ].store(1, std::memory_order_release);
  for (std::uint32_t succ : n.succs) release_token(succ, frame);
  release_token(n.index, frame + 1);  // this node may now run the next frame
  for (std::uint32_t later : n.next_frame_succs) release_token(later, frame + 1);
  // Last: once the frame completes, release() may free everything this thread would touch. (A replica's
  // next frame let through just above may even be done before this one; complete_frame keeps the order.)
  if (slot.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) complete_frame(frame);
}

// ---------------------------------------------------------------------------------------------
// deadlines (the context's watchdog thread calls check_deadlines while the graph is verified)

void GraphCore::watchdog_trampoline(void* self, std::int64_t now) noexcept { static_cast<GraphCore*>(self)->check_deadlines(now); }

void GraphCore::check_deadlines(std::int64_t now) noexcept {
  for (auto& np : nodes_) {
    NodeState& n = *np;
    if (n.deadline_ns <= 0) continue;
    const std::int64_t since = n.running_since.load(std::memory_order_acquire);
    if (since == 0 || now - since <= n.deadline_ns) continue;
    std::uint64_t token = n.running_token.load(std::memory_order_acquire);
    if (token == 0 || token == kGivenUp) continue;
    // Take the call over; if it returned meanwhile, the CAS fails and it finishes by itself.
    if (!n.running_token.compare_exchange_strong(token, kGivenUp, std::memory_order_acq_rel)) continue;
    n.stuck.store(true, std::memory_order_release);
    n.stuck_since.store(since, std::memory_order_release);
    n.deadline_misses.fetch_add(1, std::memory_order_relaxed);
    const bool command = token == kControlRunning;
    const std::uint64_t frame = command ? 0 : token - 1;
    char what[48];
    if (command) std::snprintf(what, sizeof what, "a control command");
    else std::snprintf(what, sizeof what, "frame %llu", static_cast<unsigned long long>(frame));
    char line[512];
    std::snprintf(line, sizeof line,
                  "graph '%s': node '%s' (kernel '%s' on %s) has run %s for %.1f ms, past its %.1f ms deadline: "
                  "target '%s' is faulted, its frames fail with timeout, and this call is abandoned",
                  name_.c_str(), n.name.c_str(), n.kernel_name.c_str(), n.target_name.c_str(), what,
                  static_cast<double>(now - since) / 1e6, static_cast<double>(n.deadline_ns) / 1e6, n.target_name.c_str());
    context_.state().write_log(line);
    try {
      n.target->replace_stuck_worker();
    } catch (...) {  // no thread could be started: the target stays blocked, but it is marked faulted
    }
    if (command) {
      CommandSlot& slot = commands_[n.running_command];
      slot.result = Status::timeout;
      auto expected = static_cast<std::uint32_t>(CommandState::running);
      if (slot.state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::done))) slot.done.set();
      else slot.state.store(static_cast<std::uint32_t>(CommandState::free), std::memory_order_release);
      continue;
    }
    FrameSlot& fs = slots_[frame % depth_];
    n.failures.fetch_add(1, std::memory_order_relaxed);
    record_error(n, frame, Status::timeout, "overran its deadline; abandoned (its target is faulted)");
    std::int32_t expected = to_int(Status::ok);
    fs.status.compare_exchange_strong(expected, to_int(Status::timeout));
    finish_node(n, frame, Status::timeout, false, fs.abort.load(std::memory_order_acquire));
  }
}

bool GraphCore::has_stuck_nodes() const noexcept {
  for (const auto& np : nodes_)
    if (np->stuck.load(std::memory_order_acquire)) return true;
  return !retired_replicas_.empty();
}

// The writer of an output graph parameter finished frame `frame` (or was skipped): the buffer goes to the
// application now, in frame order (a node runs its frames in order), not when the whole frame completes.
void GraphCore::publish_outputs(NodeState& n, std::uint64_t frame, Status status) noexcept {
  FrameSlot& slot = slots_[frame % depth_];
  const std::int64_t now = now_ns();
  {
    std::lock_guard lock(mu_);
    for (std::uint32_t g : n.publishes) {
      GraphParam& gp = *params_[g];
      const std::uint32_t idx = slot.gp_index[g];
      (void)gp.done.push(DequeuedBuffer{idx, status, slot.sequence, slot.timestamp_ns, slot.capture_ns, now, slot.tag});
      slot.published[g] = 1;
    }
    progress_.fetch_add(1, std::memory_order_release);
  }
  cv_.notify_all();
}

void GraphCore::record_error(NodeState& n, std::uint64_t frame, Status status, const char* message) noexcept {
  std::lock_guard lock(err_mu_);
  ErrorRecord& r = errors_[err_next_++ % kErrorRing];
  r.status = status;
  r.frame = frame;
  r.node = n.index;
  if (message != nullptr) {
    std::snprintf(r.message.data(), r.message.size(), "%s", message);
  } else {
    std::memcpy(r.message.data(), n.error.data(), r.message.size());
  }
  r.message.back() = '\0';
}

void GraphCore::complete_frame(std::uint64_t frame) noexcept {
  std::lock_guard lock(mu_);
  slots_[frame % depth_].finished = true;
  if (frame != completed_through_) return;  // an earlier frame is still running: it completes this one
  while (completed_through_ < next_frame_ && slots_[completed_through_ % depth_].finished)
    complete_one_locked(completed_through_);
  try_admit_locked();
  progress_.fetch_add(1, std::memory_order_release);
  cv_.notify_all();
}

void GraphCore::complete_one_locked(std::uint64_t frame) noexcept {
  const std::size_t s = frame % depth_;
  FrameSlot& slot = slots_[s];
  slot.finished = false;
  // Re-arm this counter slot for frame + depth + 1 (see the scheduling note in graph_core.hpp).
  const std::size_t c = frame % (depth_ + 1);
  for (auto& np : nodes_) np->pending[c].store(np->initial_tokens, std::memory_order_relaxed);
  Status status = static_cast<Status>(slot.status.load(std::memory_order_acquire));
  if (slot.abort.load(std::memory_order_acquire)) status = Status::aborted;
  slot.final_status = status;
  const std::int64_t now = now_ns();
  slot.completed_ns = now;
  if (status == Status::ok) {
    ++frames_completed_;
    latency_ring_[latency_count_++ % latency_ring_.size()] = now - slot.enqueued_ns;
    if (slot.capture_ns > 0)
      capture_latency_ring_[capture_latency_count_++ % capture_latency_ring_.size()] = now - slot.capture_ns;
  } else if (status == Status::aborted) {
    ++frames_aborted_;
  } else {
    ++frames_failed_;
  }
  last_complete_ns_ = now;
  last_slot_.store(static_cast<std::uint32_t>(s), std::memory_order_relaxed);
  for (std::size_t g = 0; g < params_.size(); ++g) last_gp_index_[g].store(slot.gp_index[g], std::memory_order_relaxed);
  if (!slot.from_process) {
    for (std::size_t g = 0; g < params_.size(); ++g) {
      GraphParam& gp = *params_[g];
      const std::uint32_t idx = slot.gp_index[g];
      if (!gp.is_input) {
        gp.in_frame[idx] = 0;
        if (gp.deferred[idx]) {  // handed back early: reusable now that no node of this frame reads it
          gp.deferred[idx] = 0;
          if (stopped_)  // stop() already returned the waiting buffers: this one goes back the same way
            (void)gp.done.push(DequeuedBuffer{idx, Status::aborted, 0, gp.timestamp[idx], gp.capture[idx], 0, gp.tag[idx]});
          else
            (void)gp.waiting.push(idx);
        }
      }
      if (slot.published[g]) continue;  // its writer already handed it over
      const Status handed = status == Status::ok ? Status::ok : status == Status::aborted ? Status::aborted : Status::kernel_error;
      // Outputs carry their frame's times; inputs carry what they were enqueued with (the same values).
      const std::int64_t ts = gp.is_input ? gp.timestamp[idx] : slot.timestamp_ns;
      const std::int64_t capture = gp.is_input ? gp.capture[idx] : slot.capture_ns;
      const std::uint64_t tag = gp.is_input ? gp.tag[idx] : slot.tag;
      (void)gp.done.push(DequeuedBuffer{idx, handed, slot.sequence, ts, capture, now, tag});
    }
  }
  --in_flight_;
  completed_through_ = frame + 1;
}

void GraphCore::spin_while_unchanged(std::uint64_t seen) const noexcept {
  const std::int64_t spin_ns = static_cast<std::int64_t>(context_.spin_us()) * 1000;
  if (spin_ns <= 0) return;
  const std::int64_t until = now_ns() + spin_ns;
  while (progress_.load(std::memory_order_acquire) == seen && now_ns() < until) {
    std::this_thread::yield();  // not a busy pause: the thread with the work may need this core
  }
}

bool GraphCore::can_admit_locked() const noexcept {
  if (in_flight_ >= depth_) return false;
  for (const auto& gp : params_)
    if (gp->waiting.empty()) return false;
  return true;
}

std::uint64_t GraphCore::admit_locked(bool from_process) noexcept {
  const std::uint64_t frame = next_frame_++;
  const std::size_t s = frame % depth_;
  FrameSlot& slot = slots_[s];
  slot.sequence = frame;
  slot.from_process = from_process;
  slot.finished = false;
  slot.abort.store(false, std::memory_order_relaxed);
  slot.status.store(to_int(Status::ok), std::memory_order_relaxed);
  for (std::size_t i = 0; i < nodes_.size(); ++i) slot.skip[i].store(0, std::memory_order_relaxed);
  slot.remaining.store(static_cast<std::int32_t>(nodes_.size()), std::memory_order_relaxed);
  const std::int64_t now = now_ns();
  slot.timestamp_ns = now;
  slot.enqueued_ns = now;
  slot.capture_ns = 0;
  slot.tag = 0;
  slot.completed_ns = 0;
  bool first_input = true;
  for (std::size_t g = 0; g < params_.size(); ++g) {
    GraphParam& gp = *params_[g];
    std::uint32_t idx = 0;
    if (!from_process) {
      (void)gp.waiting.pop(idx);
      if (gp.is_input) {
        // The frame's timestamp and age come from its (first) input.
        if (first_input || gp.enqueued_at[idx] < slot.enqueued_ns) slot.enqueued_ns = gp.enqueued_at[idx];
        if (first_input) {
          slot.timestamp_ns = gp.timestamp[idx];
          slot.capture_ns = gp.capture[idx];
          slot.tag = gp.tag[idx];
        }
        first_input = false;
      }
    }
    slot.gp_index[g] = idx;
    slot.published[g] = 0;
    if (!from_process && !gp.is_input) gp.in_frame[idx] = 1;
    DataObject& d = *data_[gp.data];
    for (auto [user, param] : d.users) {
      auto point = [&](NodeState& n) {
        n.table[s * n.num_params + param] = &d.buffers[idx];
        n.table_index[s * n.num_params + param] = idx;
      };
      NodeState& n = *nodes_[user];
      point(n);
      for (std::size_t r = 1; r < n.replicas.size(); ++r) point(*nodes_[n.replicas[r]]);
    }
  }
  if (frames_started_ == 0) first_start_ns_ = now;
  ++frames_started_;
  ++in_flight_;
  for (NodeState* n : replicated_) n->replicas_done[s].store(0, std::memory_order_relaxed);
  // Replicas that do not own the frame first: nothing else of the frame has been released yet, so letting
  // it through (inline, under mu_) can neither complete the frame nor hand outputs over (both need mu_).
  for (std::uint32_t ni : start_order_) {
    const NodeState& n = *nodes_[ni];
    if (n.replica_count > 1 && frame % n.replica_count != n.replica_index) release_token(ni, frame);
  }
  for (std::uint32_t ni : start_order_) {
    const NodeState& n = *nodes_[ni];
    if (n.replica_count <= 1 || frame % n.replica_count == n.replica_index) release_token(ni, frame);
  }
  return frame;
}

void GraphCore::try_admit_locked() noexcept {
  while (streaming_ && can_admit_locked()) (void)admit_locked(false);
}

Status GraphCore::admit_one_frame(std::chrono::nanoseconds timeout, bool submitted, std::uint64_t& frame) noexcept {
  if (!verified_) return Status::not_verified;
  std::unique_lock lock(mu_);
  if (streaming_ || submitted_) return Status::busy;
  // Wait for room (a previous process() that timed out may still be running).
  if (!cv_.wait_for(lock, timeout, [&] { return in_flight_ < depth_; })) return Status::timeout;
  if (streaming_ || submitted_) return Status::busy;  // started or submitted by another thread meanwhile
  ++frames_in_;
  frame = admit_locked(true);
  if (submitted) {
    submitted_ = true;
    submitted_frame_ = frame;
  }
  return Status::ok;
}

bool GraphCore::wait_for_frame(std::uint64_t frame, std::uint64_t seen, std::chrono::nanoseconds timeout,
                               Status& status) noexcept {
  spin_while_unchanged(seen);
  std::unique_lock lock(mu_);
  if (!cv_.wait_for(lock, timeout, [&] { return completed_through_ > frame; })) return false;
  status = slots_[frame % depth_].final_status;
  return true;
}

Status GraphCore::process(std::chrono::nanoseconds timeout) noexcept {
  const std::uint64_t seen = progress_.load(std::memory_order_relaxed);
  std::uint64_t frame = 0;
  Status admitted = Status::timeout;
  if (caller_target_ != nullptr && caller_target_->try_borrow()) {
    // The target is idle and lent to this thread: admission's pushes run here (Target::run_borrowed).
    // Only a frame that can start now: waiting for room while holding the target could block the
    // frame that makes the room.
    admitted = admit_one_frame(std::chrono::nanoseconds(0), false, frame);
    if (admitted == Status::ok) caller_target_->run_borrowed();
    caller_target_->give_back();
  }
  if (admitted == Status::timeout) admitted = admit_one_frame(timeout, false, frame);
  if (admitted != Status::ok) return admitted;
  Status status = Status::ok;
  return wait_for_frame(frame, seen, timeout, status) ? status : Status::timeout;
}

Status GraphCore::submit(std::chrono::nanoseconds timeout) noexcept {
  std::uint64_t frame = 0;
  return admit_one_frame(timeout, true, frame);
}

Status GraphCore::wait_submitted(std::chrono::nanoseconds timeout) noexcept {
  std::uint64_t frame = 0;
  {
    std::lock_guard lock(mu_);
    if (!submitted_) return Status::no_data;  // nothing submitted, or already waited for
    frame = submitted_frame_;
  }
  Status status = Status::ok;
  if (!wait_for_frame(frame, progress_.load(std::memory_order_relaxed), timeout, status))
    return Status::timeout;  // still submitted: wait again
  std::lock_guard lock(mu_);
  submitted_ = false;
  return status;
}

Status GraphCore::wait_idle(std::chrono::nanoseconds timeout) noexcept {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return in_flight_ == 0; }) ? Status::ok : Status::timeout;
}

Status GraphCore::start() noexcept {
  if (!verified_) return Status::not_verified;
  std::lock_guard lock(mu_);
  if (streaming_) return Status::ok;
  if (submitted_) return Status::busy;  // wait_submitted() first
  streaming_ = true;
  stopped_ = false;
  try_admit_locked();
  return Status::ok;
}

void GraphCore::return_waiting_locked(Status status) noexcept {
  for (auto& gp : params_) {
    std::uint32_t idx = 0;
    while (gp->waiting.pop(idx)) {
      if (gp->is_input && status == Status::aborted) ++frames_aborted_;
      (void)gp->done.push(DequeuedBuffer{idx, status, 0, gp->timestamp[idx], gp->capture[idx], 0, gp->tag[idx]});
    }
  }
}

Status GraphCore::stop(StopMode mode) noexcept {
  if (!verified_) return Status::not_verified;
  {
    std::lock_guard lock(mu_);
    if (stopped_ && !streaming_ && in_flight_ == 0) return Status::ok;
    streaming_ = false;
    stopped_ = true;
    if (mode == StopMode::abandon)
      for (auto& s : slots_) s.abort.store(true, std::memory_order_release);
    // Buffers that never entered a frame go straight back to the application.
    return_waiting_locked(Status::aborted);
    progress_.fetch_add(1, std::memory_order_release);
    cv_.notify_all();
  }
  // A callback cannot wait for its own frame to finish; it returns and the frame completes later.
  if (on_target_thread()) return Status::ok;
  const Status idle = wait_idle(drain_bound());
  if (idle != Status::ok) note_stuck_at_stop();
  return idle;
}

// How long stop() and release() wait for frames in flight: with deadlines, a stuck call is given up on
// after its deadline, so a little more than the longest one; without, a minute.
std::chrono::nanoseconds GraphCore::drain_bound() const noexcept {
  std::int64_t longest = 0;
  for (const auto& np : nodes_) longest = std::max(longest, np->deadline_ns);
  if (longest == 0) return std::chrono::seconds(60);
  return std::chrono::nanoseconds(longest * 2) + std::chrono::seconds(1);
}

// stop() timed out: name the node still running (or the first stuck one) in last_error().
void GraphCore::note_stuck_at_stop() noexcept {
  const std::int64_t now = now_ns();
  NodeState* longest = nullptr;
  std::int64_t running_for = 0;
  for (auto& np : nodes_) {
    const std::int64_t since = np->running_since.load(std::memory_order_acquire);
    if (since != 0 && now - since > running_for) {
      running_for = now - since;
      longest = np.get();
    }
  }
  if (longest == nullptr) return;
  char text[160];
  std::snprintf(text, sizeof text, "stop() gave up waiting: still running after %.0f ms",
                static_cast<double>(running_for) / 1e6);
  const std::uint64_t token = longest->running_token.load(std::memory_order_acquire);
  record_error(*longest, token > 0 && token < kControlRunning ? token - 1 : 0, Status::timeout, text);
}

Status GraphCore::enqueue(std::uint32_t param, std::uint32_t index, const FrameStamp& stamp,
                          std::chrono::nanoseconds timeout) noexcept {
  if (!verified_) return Status::not_verified;
  if (param >= params_.size()) return Status::invalid_argument;
  GraphParam& gp = *params_[param];
  if (index >= gp.num_buffers) return Status::invalid_argument;
  DataObject& d = *data_[gp.data];
  std::unique_lock lock(mu_);
  if (stopped_) return Status::stopped;
  if (d.with_graph[index]) return Status::invalid_argument;  // enqueued twice without a dequeue
  if (d.device_only && !d.buffers[index].imported) return Status::invalid_argument;  // nothing imported yet
  if (gp.is_input && gp.waiting.full()) {
    switch (gp.policy) {
      case InputPolicy::reject_new:
        ++frames_rejected_;
        return Status::rejected;
      case InputPolicy::latest_wins: {
        std::uint32_t oldest = 0;
        (void)gp.waiting.pop(oldest);
        ++frames_dropped_;
        (void)gp.done.push(DequeuedBuffer{oldest, Status::dropped, 0, gp.timestamp[oldest], gp.capture[oldest], 0, gp.tag[oldest]});
        progress_.fetch_add(1, std::memory_order_release);
        cv_.notify_all();
        break;
      }
      case InputPolicy::block:
        if (!cv_.wait_for(lock, timeout, [&] { return !gp.waiting.full() || stopped_; })) {
          ++frames_rejected_;
          return Status::timeout;
        }
        if (stopped_) return Status::stopped;
        break;
    }
  }
  d.with_graph[index] = 1;
  gp.timestamp[index] = stamp.timestamp_ns != 0 ? stamp.timestamp_ns : now_ns();
  gp.capture[index] = stamp.capture_ns;
  gp.tag[index] = stamp.tag;
  gp.enqueued_at[index] = now_ns();
  if (!gp.is_input && gp.in_frame[index]) {  // published early, its frame still running: reuse it later
    gp.deferred[index] = 1;
    return Status::ok;
  }
  (void)gp.waiting.push(index);
  if (gp.is_input) ++frames_in_;
  try_admit_locked();
  return Status::ok;
}

Status GraphCore::dequeue(std::uint32_t param, DequeuedBuffer& out, std::chrono::nanoseconds timeout) noexcept {
  if (!verified_) return Status::not_verified;
  if (param >= params_.size()) return Status::invalid_argument;
  GraphParam& gp = *params_[param];
  DataObject& d = *data_[gp.data];
  std::unique_lock lock(mu_);
  if (gp.done.empty() && !(stopped_ && in_flight_ == 0)) {
    const std::uint64_t seen = progress_.load(std::memory_order_relaxed);
    lock.unlock();
    spin_while_unchanged(seen);
    lock.lock();
  }
  const bool ready = cv_.wait_for(lock, timeout, [&] {
    return !gp.done.empty() || (stopped_ && in_flight_ == 0);
  });
  if (!gp.done.empty()) {
    (void)gp.done.pop(out);
    d.with_graph[out.index] = 0;
    cv_.notify_all();
    return Status::ok;
  }
  return ready ? Status::stopped : Status::timeout;
}

// ---------------------------------------------------------------------------------------------
// control commands

void GraphCore::control_trampoline(void* self, std::uint64_t slot_index, std::uint64_t) noexcept {
  auto* g = static_cast<GraphCore*>(self);
  CommandSlot& slot = g->commands_[slot_index];
  auto expected = static_cast<std::uint32_t>(CommandState::queued);
  if (!slot.state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::running))) {
    slot.state.store(static_cast<std::uint32_t>(CommandState::free), std::memory_order_release);  // timed out before it ran
    return;
  }
  NodeState& n = *g->nodes_[slot.node];
  slot.reply.size = 0;
  if (n.target->faulted()) {
    slot.result = Status::timeout;  // no callback runs on a faulted target
  } else {
    n.error[0] = '\0';
    n.running_command = static_cast<std::uint32_t>(slot_index);
    n.running_token.store(kControlRunning, std::memory_order_release);
    n.running_since.store(now_ns(), std::memory_order_release);
    const detail::RunningCallMark running(running_call_of(n, n.running_control, "control", 0));
    try {
      slot.result = n.callbacks.control(n.context, slot.command, slot.reply);
    } catch (const std::exception& e) {
      note_exception(n.error, e.what());
      slot.result = Status::kernel_error;
    } catch (...) {
      note_exception(n.error, "(not a std::exception)");
      slot.result = Status::kernel_error;
    }
    n.running_since.store(0, std::memory_order_release);
    std::uint64_t mine = kControlRunning;
    if (!n.running_token.compare_exchange_strong(mine, 0, std::memory_order_acq_rel))
      return;  // the watchdog gave up on this call and answered the command: the slot is not ours
  }
  expected = static_cast<std::uint32_t>(CommandState::running);
  if (slot.state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::done))) {
    slot.done.set();
  } else {
    slot.state.store(static_cast<std::uint32_t>(CommandState::free), std::memory_order_release);  // caller gave up
  }
}

std::size_t GraphCore::post_command(std::uint32_t state, const ControlCommand& command) noexcept {
  for (std::size_t i = 0; i < commands_.size(); ++i) {
    CommandSlot& slot = commands_[i];
    auto expected = static_cast<std::uint32_t>(CommandState::free);
    if (!slot.state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::claimed))) continue;
    slot.node = state;
    slot.command = command;
    slot.done.reset();
    slot.state.store(static_cast<std::uint32_t>(CommandState::queued), std::memory_order_release);
    nodes_[state]->target->push(TargetCommand{&GraphCore::control_trampoline, this, i, 0});
    return i;
  }
  return kInvalidIndex;
}

Status GraphCore::collect_command(std::size_t slot_index, std::int64_t deadline, CommandReply* reply) noexcept {
  CommandSlot* slot = &commands_[slot_index];
  if (!slot->done.wait_for(std::chrono::nanoseconds(std::max<std::int64_t>(0, deadline - now_ns())))) {
    auto expected = static_cast<std::uint32_t>(CommandState::queued);
    if (slot->state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::abandoned)))
      return Status::timeout;  // the target frees the slot without running the callback
    expected = static_cast<std::uint32_t>(CommandState::running);
    if (slot->state.compare_exchange_strong(expected, static_cast<std::uint32_t>(CommandState::abandoned)))
      return Status::timeout;  // the target frees the slot when the callback returns
    // it completed just now: fall through and take the result
    slot->done.wait();
  }
  const Status result = slot->result;
  if (reply) {
    *reply = slot->reply;
    reply->replica = nodes_[slot->node]->replica_index;
  }
  slot->state.store(static_cast<std::uint32_t>(CommandState::free), std::memory_order_release);
  return result;
}

Status GraphCore::send_command(std::uint32_t node_index, const ControlCommand& command, std::chrono::nanoseconds timeout,
                               CommandReply* reply, std::uint32_t replica) noexcept {
  if (!verified_) return Status::not_verified;
  if (node_index >= num_user_nodes_) return Status::invalid_argument;
  NodeState& n = *nodes_[node_index];
  const std::uint32_t count = n.replica_count;
  if (replica != kAllReplicas && replica >= count) return Status::invalid_argument;
  const std::uint32_t first = replica == kAllReplicas ? 0 : replica;
  const std::uint32_t last = replica == kAllReplicas ? count : replica + 1;
  auto state_of = [&](std::uint32_t r) { return count > 1 ? n.replicas[r] : node_index; };
  for (std::uint32_t r = first; r < last; ++r) {
    const NodeState& target_node = *nodes_[state_of(r)];
    if (!target_node.created) return Status::not_verified;
    if (target_node.target->is_current_thread()) return Status::busy;  // waiting here would deadlock the target
  }
  if (!n.kernel->decl.find_command(command.id)) return Status::unknown_command;
  for (std::uint32_t r = first; r < last; ++r)
    if (!nodes_[state_of(r)]->callbacks.control) return Status::not_supported;
  // Every replica gets the command at once (each runs it between two of its frames, on its target);
  // the call waits for all of them. Slots are fixed: no allocation.
  std::array<std::size_t, kCommandSlots> posted{};
  std::uint32_t num_posted = 0;
  Status result = Status::ok;
  // One replica on an idle cpu target, no deadline: the callback may run on this thread (run_on_caller).
  Target* borrowed = nullptr;
  if (count == 1 && context_.run_on_caller() && n.deadline_ns <= 0 && n.target->try_borrow())
    borrowed = n.target;
  for (std::uint32_t r = first; r < last; ++r) {
    const std::size_t slot = post_command(state_of(r), command);
    if (slot == kInvalidIndex) {
      result = Status::busy;
      break;
    }
    posted[num_posted++] = slot;
  }
  if (borrowed != nullptr) {
    borrowed->run_borrowed();  // the posted command, and whatever it pushed after it
    borrowed->give_back();
  }
  const std::int64_t deadline = now_ns() + std::min<std::int64_t>(timeout.count(), std::int64_t{1} << 62);
  bool replied = false;
  for (std::uint32_t i = 0; i < num_posted; ++i) {
    CommandReply one;
    const Status status = collect_command(posted[i], deadline, reply ? &one : nullptr);
    // The reply is the first failing replica's, else the first replica's.
    const bool take = reply && (!replied || (status != Status::ok && result == Status::ok));
    if (status != Status::ok && result == Status::ok) result = status;
    if (take) {
      *reply = one;
      replied = true;
    }
  }
  return result;
}

std::uint32_t GraphCore::resolve_buffer(std::uint32_t data_index, std::uint32_t buffer) const noexcept {
  if (buffer != kLatestBuffer) return buffer;
  const DataObject& d = *data_[data_index];
  if (d.graph_param != kInvalidIndex) return last_gp_index_[d.graph_param].load(std::memory_order_relaxed);
  if (d.buffers.size() == depth_ && d.writer != kInvalidIndex && !d.is_static) return last_slot_.load(std::memory_order_relaxed);
  return 0;
}

Status GraphCore::import_buffer(std::uint32_t data_index, std::uint32_t buffer, const ExternalBuffer& external,
                                MemoryBlock* previous) noexcept {
  if (!verified_) return Status::not_verified;
  if (data_index >= data_.size()) return Status::invalid_argument;
  DataObject& d = *data_[data_index];
  if (buffer >= d.buffers.size()) return Status::invalid_argument;
  std::lock_guard lock(mu_);
  if (d.with_graph[buffer] || (d.graph_param == kInvalidIndex && in_flight_ > 0)) return Status::busy;
  Buffer& b = d.buffers[buffer];
  const MemoryBlock& block = external.block;
  const bool empty = block.data == nullptr && block.dmabuf_fd < 0 && block.handle == nullptr;
  if (previous) *previous = b.imported ? b.block : MemoryBlock{};
  if (empty) {  // give the graph's own memory back
    b.block = d.own_blocks[buffer];
    b.imported = false;
    layout_buffer(d.meta, b);
    return Status::ok;
  }
  // Memory without a CPU address only goes where every reader said it can take it (checked at verify).
  if (block.data == nullptr && !d.device_only) return Status::not_supported;
  // Plane 0's first byte becomes the block's start (and its fd offset), so a kernel that reads the block
  // (an NPU binding the fd) finds the data there, with or without a CPU address.
  ExternalBuffer normalized = external;
  if (normalized.num_planes > 0) {
    const std::size_t shift = normalized.offset[0];
    if (shift > normalized.block.size) return Status::invalid_argument;
    if (normalized.block.data != nullptr) normalized.block.data = static_cast<std::uint8_t*>(normalized.block.data) + shift;
    if (normalized.block.dmabuf_fd >= 0) normalized.block.fd_offset += shift;
    normalized.block.size -= shift;
    for (std::uint32_t p = 0; p < normalized.num_planes && p < kMaxPlanes; ++p) {
      if (normalized.offset[p] < shift) return Status::invalid_argument;  // planes must follow plane 0
      normalized.offset[p] -= shift;
    }
  }
  Buffer candidate{};
  candidate.block = normalized.block;
  candidate.block.owner = nullptr;
  candidate.imported = true;
  if (!layout_external(d.meta, normalized, candidate)) return Status::invalid_argument;
  b = candidate;
  return Status::ok;
}

}  // namespace vg::detail
