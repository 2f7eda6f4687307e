#include "visiongraph/runtime/running_call.hpp"

#include "runtime/running_call_state.hpp"

namespace vg {

namespace detail {
thread_local const RunningCall* t_running_call __attribute__((tls_model("initial-exec"))) = nullptr;

RunningCallScope::RunningCallScope(const RunningCall& call) noexcept : previous_(t_running_call) { t_running_call = &call; }
RunningCallScope::~RunningCallScope() { t_running_call = previous_; }
}  // namespace detail

const RunningCall* running_call() noexcept { return detail::t_running_call; }

}  // namespace vg
