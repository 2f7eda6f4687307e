// The hot path of a target: queueing a command and the worker loop (allocation-free, never throws).

#include <chrono>
#include <thread>

#include "runtime/event.hpp"
#include "runtime/target.hpp"
#include "visiongraph/core/clock.hpp"

namespace vg::detail {

void Target::push(const TargetCommand& command) noexcept {
  while (!queue_.try_push(command)) std::this_thread::yield();
  // seq_cst pairs with the worker's sleeping_ store/items_ load: one of the two sides sees the other,
  // so a command never waits for a worker that went to sleep just before it arrived.
  items_.fetch_add(1, std::memory_order_seq_cst);
  if (sleeping_.load(std::memory_order_seq_cst) != 0) futex_wake_all(items_);
}

void Target::run(const std::shared_ptr<Worker>& me, const std::shared_ptr<std::atomic<std::uint32_t>>& stuck) noexcept {
  thread_id_.store(std::this_thread::get_id());
  for (;;) {
    wait_for_command();
    TargetCommand command;
    while (!queue_.try_pop(command)) std::this_thread::yield();  // released before the push completed
    if (command.fn == nullptr) break;
    command.fn(command.object, command.a, command.b);
    if (me->retired.load(std::memory_order_acquire)) {  // given up on while the callback ran: a
      stuck->fetch_sub(1, std::memory_order_acq_rel);  // replacement owns the queue; `this` may be gone
      return;
    }
    executed_.fetch_add(1, std::memory_order_relaxed);
  }
}

void Target::wait_for_command() noexcept {
  const std::int64_t spin_until = spin_ns_ > 0 ? now_ns() + spin_ns_ : 0;
  for (;;) {
    std::uint32_t n = items_.load(std::memory_order_acquire);
    if (n > 0) {
      if (items_.compare_exchange_weak(n, n - 1, std::memory_order_acquire)) return;
      continue;
    }
    if (spin_until != 0 && now_ns() < spin_until) {
      // Yield rather than pause: with more threads than cores, the thread that has the work must get
      // the core now, not at the next scheduler tick.
      std::this_thread::yield();
      continue;
    }
    sleeping_.store(1, std::memory_order_seq_cst);
    if (items_.load(std::memory_order_seq_cst) == 0) (void)futex_wait(items_, 0, std::chrono::seconds(1));
    sleeping_.store(0, std::memory_order_relaxed);
  }
}

}  // namespace vg::detail
