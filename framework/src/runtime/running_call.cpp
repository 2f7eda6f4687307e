#include "visiongraph/runtime/running_call.hpp"

namespace vg {

namespace {
// One pointer per thread: setting it costs two stores per callback; the RunningCall itself lives on the
// worker's stack for the duration of the call.
thread_local const RunningCall* t_running = nullptr;
}  // namespace

const RunningCall* running_call() noexcept { return t_running; }

namespace detail {
RunningCallScope::RunningCallScope(const RunningCall& call) noexcept : previous_(t_running) { t_running = &call; }
RunningCallScope::~RunningCallScope() { t_running = previous_; }
}  // namespace detail

}  // namespace vg
