#include "stop_state.hpp"

#include <csignal>

namespace vg::runner::stop {

namespace {
std::atomic<int> g_requests{0};
std::atomic<bool> g_reading_stopped{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int) { g_requests.fetch_add(1); }
}  // namespace

int requests() noexcept { return g_requests.load(); }
void request() noexcept { g_requests.fetch_add(1); }
void stop_reading() noexcept { g_reading_stopped.store(true); }
bool reading_stopped() noexcept { return g_reading_stopped.load(); }

void reset() noexcept {
  g_requests.store(0);
  g_reading_stopped.store(false);
}

void install_signal_handlers() noexcept {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGPIPE, SIG_IGN);
}

}  // namespace vg::runner::stop
