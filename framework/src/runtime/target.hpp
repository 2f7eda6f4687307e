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
  void push(const TargetCommand& command) noexcept;
  /// Reserve queue room for a graph's nodes and commands at verify; false if it would not fit.
  bool reserve(std::size_t slots) noexcept;
  void unreserve(std::size_t slots) noexcept;
  bool is_current_thread() const noexcept { return std::this_thread::get_id() == thread_id_.load(); }
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
  std::atomic<std::size_t> reserved_{0};
  std::atomic<std::uint64_t> executed_{0};
  std::atomic<std::thread::id> thread_id_{};
  std::atomic<bool> faulted_{false};
  std::shared_ptr<std::atomic<std::uint32_t>> stuck_ = std::make_shared<std::atomic<std::uint32_t>>(0);
  std::shared_ptr<Worker> worker_;
  std::thread thread_;
};

}  // namespace vg::detail
