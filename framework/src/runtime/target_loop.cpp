// The hot path of a target: queueing a command and the worker loop (allocation-free, never throws).

#include <chrono>
#include <thread>

#include "runtime/event.hpp"
#include "runtime/target.hpp"
#include "visiongraph/core/clock.hpp"

namespace vg::detail {

void Target::push_queued(const TargetCommand& command) noexcept {
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
    take_ownership();  // before taking the command: a borrower must not start while one is taken
    items_.fetch_sub(1, std::memory_order_acquire);
    TargetCommand command;
    while (!queue_.try_pop(command)) std::this_thread::yield();  // released before the push completed
    if (command.fn == nullptr) break;
    for (;;) {
      command.fn(command.object, command.a, command.b);
      if (me->retired.load(std::memory_order_acquire)) {  // given up on while the callback ran: a
        stuck->fetch_sub(1, std::memory_order_acq_rel);  // replacement owns the queue; `this` may be gone
        return;
      }
      executed_.fetch_add(1, std::memory_order_relaxed);
      if (!has_next_) break;
      command = next_;  // pushed by the command that just ran (push)
      has_next_ = false;
    }
    owner_.store(kFree, std::memory_order_release);
  }
  owner_.store(kFree, std::memory_order_release);
}

// Returns once a command is queued (it does not take it: the worker takes the target first).
void Target::wait_for_command() noexcept {
  const std::int64_t spin_until = spin_ns_ > 0 ? now_ns() + spin_ns_ : 0;
  for (;;) {
    if (items_.load(std::memory_order_acquire) > 0) return;
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

void Target::take_ownership() noexcept {
  for (;;) {
    std::uint32_t expected = kFree;
    if (owner_.compare_exchange_weak(expected, kWorker, std::memory_order_acquire)) return;
    // Borrowed: sleep until given back (seq_cst pairs with give_back's store and load, as for items_).
    worker_waits_for_owner_.store(1, std::memory_order_seq_cst);
    if (owner_.load(std::memory_order_seq_cst) == kBorrowed) (void)futex_wait(owner_, kBorrowed, std::chrono::seconds(1));
    worker_waits_for_owner_.store(0, std::memory_order_relaxed);
  }
}

namespace {
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}
}  // namespace

bool Target::try_borrow() noexcept {
  if (!lendable_ || faulted()) return false;
  if (items_.load(std::memory_order_acquire) != 0) return false;
  std::uint32_t expected = kFree;
  if (!owner_.compare_exchange_strong(expected, kBorrowed, std::memory_order_acquire)) {
    // The worker may only be finishing the command whose end woke this caller (it signals, then lets
    // go): wait a moment for that rather than queue behind it, as long as nothing else is queued. The
    // wake-up it would otherwise need costs more than the wait (tens of microseconds on idle CPUs).
    const std::int64_t until = now_ns() + 20'000;
    for (int round = 0;; ++round) {
      if (expected != kWorker || items_.load(std::memory_order_acquire) != 0 || now_ns() > until) return false;
      if (round < 64) cpu_relax();
      else std::this_thread::yield();  // the worker may need this core to let go
      expected = kFree;
      if (owner_.compare_exchange_weak(expected, kBorrowed, std::memory_order_acquire)) break;
    }
  }
  if (items_.load(std::memory_order_acquire) != 0) {  // queued meanwhile: that goes first, on the worker
    give_back();
    return false;
  }
  borrower_.store(std::this_thread::get_id(), std::memory_order_release);
  return true;
}

void Target::run_borrowed() noexcept {
  while (has_next_) {
    const TargetCommand command = next_;
    has_next_ = false;
    command.fn(command.object, command.a, command.b);
    executed_.fetch_add(1, std::memory_order_relaxed);
  }
}

void Target::give_back() noexcept {
  borrower_.store(std::thread::id{}, std::memory_order_release);
  owner_.store(kFree, std::memory_order_seq_cst);
  if (worker_waits_for_owner_.load(std::memory_order_seq_cst) != 0) futex_wake_all(owner_);
}

}  // namespace vg::detail
