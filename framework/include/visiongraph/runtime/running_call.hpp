#pragma once
/// @file
/// @brief Which kernel callback the calling thread is running: for a crash handler, which runs on the
/// crashing thread and may only read memory (no locks, no allocation), to name the node and frame.

#include <cstdint>

namespace vg {

/// @brief A callback in progress on a target's worker thread. The strings live as long as the graph.
struct RunningCall {
  const char* node = nullptr;      ///< the node's name
  const char* kernel = nullptr;    ///< its kernel's name
  const char* target = nullptr;    ///< the target it runs on
  const char* callback = nullptr;  ///< "process", "complete" or "control"
  std::uint64_t frame = 0;         ///< the frame's sequence number (process, complete)
};

/// @brief The callback the calling thread is inside, or nullptr when it is inside none. Reads only
/// thread-local memory the thread itself wrote, so it may be called from a synchronous signal handler
/// (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) on the thread that raised the signal.
const RunningCall* running_call() noexcept;

namespace detail {
/// Marks the calling thread as running @p call until the scope ends (the framework's workers use it).
class RunningCallScope {
 public:
  explicit RunningCallScope(const RunningCall& call) noexcept;
  ~RunningCallScope();
  RunningCallScope(const RunningCallScope&) = delete;
  RunningCallScope& operator=(const RunningCallScope&) = delete;

 private:
  const RunningCall* previous_;
};
}  // namespace detail

}  // namespace vg
