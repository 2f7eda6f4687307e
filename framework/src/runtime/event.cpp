#include "runtime/event.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

namespace vg::detail {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));

void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
}

bool futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected, std::chrono::nanoseconds timeout) noexcept {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  while (word.load(std::memory_order_acquire) == expected) {
    const auto left = deadline - clock::now();
    if (left <= std::chrono::nanoseconds::zero()) return false;
    const auto secs = std::chrono::duration_cast<std::chrono::seconds>(left);
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(secs.count());
    ts.tv_nsec = static_cast<long>((left - secs).count());
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, &ts, nullptr, 0);
  }
  return true;
}

// state_: kUnset, kSet, or kWaited (unset, and someone sleeps or is about to sleep on it). set() calls
// the kernel only in the last case: a command run on the caller's thread sets its event before anyone
// waits, and a set without a sleeper is a plain store.
namespace {
constexpr std::uint32_t kUnset = 0, kSet = 1, kWaited = 2;
}

void Event::set() noexcept {
  if (state_.exchange(kSet, std::memory_order_acq_rel) == kWaited) futex_wake_all(state_);
}

bool Event::wait_for(std::chrono::nanoseconds timeout) noexcept {
  std::uint32_t state = state_.load(std::memory_order_acquire);
  if (state == kSet) return true;
  if (state == kUnset && !state_.compare_exchange_strong(state, kWaited, std::memory_order_acq_rel) && state == kSet) return true;
  return futex_wait(state_, kWaited, timeout);  // returns once the state is no longer kWaited: set
}

void Event::wait() noexcept {
  while (!wait_for(std::chrono::hours(24))) {
  }
}

}  // namespace vg::detail
