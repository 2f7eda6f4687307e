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

void Event::set() noexcept {
  state_.store(1, std::memory_order_release);
  futex_wake_all(state_);
}

bool Event::wait_for(std::chrono::nanoseconds timeout) noexcept { return futex_wait(state_, 0, timeout); }

void Event::wait() noexcept {
  while (!futex_wait(state_, 0, std::chrono::hours(24))) {
  }
}

}  // namespace vg::detail
