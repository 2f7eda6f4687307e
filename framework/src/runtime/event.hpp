#pragma once
// A waitable flag built on a futex: set() from one thread, wait_for() with a timeout in another.
// std::atomic::wait has no timeout, and a condition variable would need a mutex per waiter.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace vg::detail {

class Event {
 public:
  void reset() noexcept { state_.store(0, std::memory_order_relaxed); }
  void set() noexcept;
  bool is_set() const noexcept { return state_.load(std::memory_order_acquire) == 1; }
  /// true when set before the timeout
  bool wait_for(std::chrono::nanoseconds timeout) noexcept;
  void wait() noexcept;

 private:
  std::atomic<std::uint32_t> state_{0};
};

/// Counts down; wakes waiters at zero. Used for "wait until this many things finished".
void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept;
/// Wait while word == expected, up to timeout; returns false on timeout.
bool futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::chrono::nanoseconds timeout) noexcept;

}  // namespace vg::detail
