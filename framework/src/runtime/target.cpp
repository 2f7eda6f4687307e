#include "runtime/target.hpp"

#include <pthread.h>
#include <sched.h>

#include <cstring>

#include "visiongraph/core/error.hpp"

namespace vg::detail {

namespace {
std::string kind_from_name(const std::string& name) {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  return name.substr(0, end);
}
}  // namespace

Target::Target(const TargetConfig& config, std::size_t index, unsigned spin_us)
    : name_(config.name),
      kind_(config.kind.empty() ? kind_from_name(config.name) : config.kind),
      index_(index),
      core_(config.core),
      queue_(config.queue_capacity),
      spin_ns_(static_cast<std::int64_t>(spin_us) * 1000),
      lendable_(kind_ == "cpu" && core_ < 0) {
  if (name_.empty()) throw Error("target #" + std::to_string(index) + ": a target needs a name");
  start_worker();
  if (core_ >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core_, &set);
    if (pthread_setaffinity_np(thread_.native_handle(), sizeof(set), &set) != 0) {
      push(TargetCommand{});  // stop the worker before reporting
      thread_.join();
      throw Error("target '" + name_ + "': cannot pin its thread to core " + std::to_string(core_));
    }
  }
}

void Target::start_worker() {
  worker_ = std::make_shared<Worker>();
  thread_ = std::thread([this, me = worker_, stuck = stuck_] { run(me, stuck); });
  // Name the thread so it shows in top -H, gdb and traces ("vg-cpu0"; Linux allows 15 chars).
  std::string thread_name = ("vg-" + name_).substr(0, 15);
  pthread_setname_np(thread_.native_handle(), thread_name.c_str());
}

void Target::replace_stuck_worker() {
  faulted_.store(true, std::memory_order_release);
  stuck_->fetch_add(1, std::memory_order_acq_rel);
  worker_->retired.store(true, std::memory_order_release);
  thread_.detach();  // it exits by itself if its callback ever returns
  owner_.store(kFree, std::memory_order_release);  // the stuck thread held it; the new worker takes over
  start_worker();
  if (core_ >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core_, &set);
    (void)pthread_setaffinity_np(thread_.native_handle(), sizeof(set), &set);  // pinned at start already
  }
}

Target::~Target() {
  push(TargetCommand{});  // a command without a function ends the loop after all queued work
  if (thread_.joinable()) thread_.join();
}

bool Target::reserve(std::size_t slots) noexcept {
  std::size_t current = reserved_.load();
  do {
    if (current + slots > queue_.capacity() - 1) return false;
  } while (!reserved_.compare_exchange_weak(current, current + slots));
  return true;
}

void Target::unreserve(std::size_t slots) noexcept { reserved_.fetch_sub(slots); }

}  // namespace vg::detail
