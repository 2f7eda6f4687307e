#pragma once
// Why a run stops reading: stop requests (SIGINT/SIGTERM or request_stop(); the first drains, the second
// abandons, the third ends the process) and a faulted target (a node given up on past its deadline: a
// target is shared by every stream, so every stream stops). Process-wide, like the signals they count;
// lock-free atomics, safe in a signal handler. run_graph resets them when it starts.
#include <atomic>

namespace vg::runner::stop {

/// Stop requests since the run started.
int requests() noexcept;
/// Counts one stop request (also from a signal handler).
void request() noexcept;
/// Every stream stops reading (a faulted target, --max-rss).
void stop_reading() noexcept;
bool reading_stopped() noexcept;
/// A stop was requested (a signal, request_stop(), a stream's failed output in a one-stream run).
inline bool interrupted() noexcept { return requests() > 0; }
/// No stop request and nothing stopped reading.
inline bool keep_reading() noexcept { return !interrupted() && !reading_stopped(); }
/// For a new run: nothing requested.
void reset() noexcept;
/// SIGINT and SIGTERM count as stop requests; SIGPIPE is ignored (a closed reader is a write error).
void install_signal_handlers() noexcept;

}  // namespace vg::runner::stop
