#pragma once
// The thread-local behind vg::running_call(), for the workers to set inline: initial-exec TLS is one move
// per access (no __tls_get_addr call), which keeps marking a callback at a few instructions per node.

#include "visiongraph/runtime/running_call.hpp"

namespace vg::detail {

extern thread_local const RunningCall* t_running_call __attribute__((tls_model("initial-exec")));

/// Marks the calling thread as inside @p call until the scope ends.
class RunningCallMark {
 public:
  explicit RunningCallMark(const RunningCall& call) noexcept : previous_(t_running_call) { t_running_call = &call; }
  ~RunningCallMark() { t_running_call = previous_; }
  RunningCallMark(const RunningCallMark&) = delete;
  RunningCallMark& operator=(const RunningCallMark&) = delete;

 private:
  const RunningCall* previous_;
};

}  // namespace vg::detail
