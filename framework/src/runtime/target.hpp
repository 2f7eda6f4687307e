#pragma once
// A target: one named worker thread draining one bounded FIFO of commands, one at a time.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "visiongraph/runtime/bounded_queue.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::detail {

/// One unit of work for a target: a plain function pointer and two words (no std::function: no allocation).
struct TargetCommand {
  void (*fn)(void* object, std::uint64_t a, std::uint64_t b) noexcept = nullptr;
  void* object = nullptr;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
};

class Target {
 public:
  Target(const TargetConfig& config, std::size_t index, unsigned spin_us = 0);
  ~Target();
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::string& kind() const noexcept { return kind_; }
  std::size_t index() const noexcept { return index_; }
  int core() const noexcept { return core_; }
  std::size_t capacity() const noexcept { return queue_.capacity(); }

  /// Queue a command. Spins (yielding) if the queue is full, which verify's reservations rule out.
  /// Pushed by the worker itself while nothing else waits, the command runs next without the queue:
  /// the same order at a fraction of the cost (a chain of nodes on one target hands each on this way).
  void push(const TargetCommand& command) noexcept {
    // items_ == 0: no command waits in the queue, so running this one next keeps arrival order (a push
    // racing with this one from another thread has not returned yet: either order is one it may see).
    // The thread check comes first: next_ and has_next_ belong to whoever runs the target's commands.
    if (command.fn != nullptr && is_current_thread() && !has_next_ && items_.load(std::memory_order_acquire) == 0) {
      next_ = command;
      has_next_ = true;
      return;
    }
    push_queued(command);
  }
  /// Reserve queue room for a graph's nodes and commands at verify; false if it would not fit.
  bool reserve(std::size_t slots) noexcept;
  void unreserve(std::size_t slots) noexcept;
  /// The worker, or the thread that borrowed the target (try_borrow).
  bool is_current_thread() const noexcept {
    const std::thread::id me = std::this_thread::get_id();
    return me == thread_id_.load() || me == borrower_.load(std::memory_order_acquire);
  }

  /// Lend the target to the calling thread while it is idle (nothing queued, its worker between
  /// commands): until give_back, the caller is this target's thread. Commands it pushes to the target run
  /// on it in run_borrowed, in the order the queue would give; the worker waits meanwhile. A small graph
  /// run this way costs no hand-over to the worker and back. False when the target is busy, faulted or
  /// pinned to a core (the caller's thread is not on it), and always for a target that is not a cpu one
  /// (lendable()).
  bool try_borrow() noexcept;
  /// Whether try_borrow can ever lend this target: a cpu target not pinned to a core. An npu target's
  /// kernels may hold what belongs to its thread (a runtime context).
  bool lendable() const noexcept { return lendable_; }
  /// Runs, on the borrowing thread, what it pushed to the target while nothing was queued before it
  /// (and what those commands push, likewise). Commands that had to be queued stay for the worker.
  void run_borrowed() noexcept;
  /// Ends the borrow; the worker takes the queue again.
  void give_back() noexcept;
  std::uint64_t executed() const noexcept { return executed_.load(std::memory_order_relaxed); }

  /// A callback on this target overran its deadline and may never return: mark the target faulted,
  /// give up on (detach) the stuck thread and start a fresh worker that drains the queue, so frames and
  /// commands that need this target fail promptly instead of waiting for ever. Called by the watchdog.
  void replace_stuck_worker();
  bool faulted() const noexcept { return faulted_.load(std::memory_order_acquire); }
  /// Threads given up on that have not returned yet (their callback still runs).
  std::uint32_t stuck_threads() const noexcept { return stuck_->load(std::memory_order_acquire); }

 private:
  // Per worker thread, owned by the thread itself: a worker given up on checks `retired` after its
  // callback returns and then exits without touching the Target (which may be gone by then).
  struct Worker {
    std::atomic<bool> retired{false};
  };
  void push_queued(const TargetCommand& command) noexcept;
  void take_ownership() noexcept;
  void start_worker();
  void run(const std::shared_ptr<Worker>& me, const std::shared_ptr<std::atomic<std::uint32_t>>& stuck) noexcept;
  void wait_for_command() noexcept;

  std::string name_;
  std::string kind_;
  std::size_t index_;
  int core_;
  BoundedQueue<TargetCommand> queue_;
  // Commands queued but not yet taken, and whether the worker sleeps on it (futex): a hand-rolled
  // semaphore so the worker can poll before sleeping.
  alignas(64) std::atomic<std::uint32_t> items_{0};
  alignas(64) std::atomic<std::uint32_t> sleeping_{0};
  std::int64_t spin_ns_ = 0;
  bool lendable_ = false;  // set once at construction (lendable())
  std::atomic<std::size_t> reserved_{0};
  std::atomic<std::uint64_t> executed_{0};
  std::atomic<std::thread::id> thread_id_{};
  // Who runs the target's commands now: free, the worker, or a borrower (try_borrow). The worker takes
  // it before it takes a queued command, so a borrower sees either an empty queue or a busy target.
  static constexpr std::uint32_t kFree = 0, kWorker = 1, kBorrowed = 2;
  alignas(64) std::atomic<std::uint32_t> owner_{kFree};
  std::atomic<std::uint32_t> worker_waits_for_owner_{0};
  std::atomic<std::thread::id> borrower_{};
  // The command the worker pushed to itself while its queue was empty: it runs right after the current
  // one, before anything queued later, which is the order the queue would give. Only the worker thread
  // reads or writes these (push checks is_current_thread first).
  TargetCommand next_{};
  bool has_next_ = false;
  std::atomic<bool> faulted_{false};
  std::shared_ptr<std::atomic<std::uint32_t>> stuck_ = std::make_shared<std::atomic<std::uint32_t>>(0);
  std::shared_ptr<Worker> worker_;
  std::thread thread_;
};

}  // namespace vg::detail
