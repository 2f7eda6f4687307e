#pragma once
// Kernels that exist only for the tests: they record what the framework does to them.

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "visiongraph/visiongraph.hpp"

namespace vg::test {

/// One callback invocation seen by a recorder kernel.
struct Event {
  std::string node;
  std::string callback;  // "create", "process", "control", "delete"
  std::uint64_t frame = 0;
  std::thread::id thread;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

/// Process-wide log that recorder kernels append to (guarded; only used at verify/test time, and the
/// process path of recorders is not part of any zero-allocation test).
class EventLog {
 public:
  static EventLog& instance();
  void add(Event e);
  std::vector<Event> events() const;
  std::vector<std::string> sequence(const std::string& node) const;  // callbacks of one node, in order
  void clear();

 private:
  mutable std::mutex mu_;
  std::vector<Event> events_;
};

inline constexpr std::uint32_t kCmdPing = 7;
inline constexpr std::uint32_t kCmdFail = 8;
inline constexpr std::uint32_t kCmdDouble = 9;  // doubles the attached scalar data object in place

/// Module "vg.test" with:
/// - vg.test.recorder (cpu, npu): in (scalar, optional) -> out (scalar, optional) = in + 1.
///   Attributes: fail_in ("none"|"create"|"process"|"control"|"delete"), fail_frame (int, -1 = every frame;
///   a failing process reports code -42 as a runtime would), busy_us (int: spin this long in process), sleep_us (int). Commands: ping (none), fail (none: control fails).
/// - vg.test.writer (cpu): writes a user_data record; vg.test.static_source (cpu): static output written in create.
/// - vg.test.thrower (cpu): out (scalar, optional) = frame; throws from process on frame `throw_frame`, from
///   control on ping (a std::out_of_range) and on fail (an int); answers "fine" to double.
Module make_test_module();

/// vg.test.hook (cpu): calls the process-wide hook (if set) from its process callback; out = in.
using Hook = void (*)(void* arg, std::uint64_t frame);
void set_hook(Hook hook, void* arg);

/// Number of live recorder instances (create minus delete): must return to zero.
int live_recorders();

/// vg.test.hang (cpu): out (scalar, optional) = frame. Attribute hang_in = "process" (on frame
/// `hang_frame`), "control" (every command) or "create": the call blocks until release_hangs().
/// vg.test.hang_with_deadline: the same, with kernel-default deadlines of 50 ms (run) and 100 ms (create).
void release_hangs();
/// Calls blocked in vg.test.hang (or vg.test.hang_with_deadline) right now.
int hanging();

/// vg.test.async (cpu, npu): an asynchronous kernel over a simulated device (one thread per instance).
/// process hands the job (out = in + 1, or = frame when `in` is unbound) to the device and returns
/// pending; the device finishes it after `latency_us` (+ frame-dependent jitter if `jitter_us` > 0) and
/// signals an eventfd; with `fence` true process names that fd (complete_after), else complete blocks on
/// it. complete fails (kernel_error) on frame `fail_frame`; on frame `stall_frame` the device never
/// signals and complete reports timeout.
/// vg.test.pending_only (cpu): process returns pending but the kernel has no complete callback.
struct AsyncCounts {
  int in_flight = 0;      // jobs on the devices right now
  int max_in_flight = 0;  // the most at once since reset_async_counts()
  int creates = 0, deletes = 0, completes = 0;
};
AsyncCounts async_counts();
void reset_async_counts();

}  // namespace vg::test
