// The hot path of a target: queueing a command and the worker loop (allocation-free, never throws).

#include <thread>

#include "runtime/target.hpp"

namespace vg::detail {

void Target::push(const TargetCommand& command) noexcept {
  while (!queue_.try_push(command)) std::this_thread::yield();
  items_.release();
}

void Target::run() noexcept {
  thread_id_.store(std::this_thread::get_id());
  for (;;) {
    items_.acquire();
    TargetCommand command;
    while (!queue_.try_pop(command)) std::this_thread::yield();  // released before the push completed
    if (command.fn == nullptr) break;
    command.fn(command.object, command.a, command.b);
    executed_.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace vg::detail
