#include "visiongraph/service/crash_report.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "visiongraph/runtime/running_call.hpp"

namespace vg::service {

namespace {

const char* g_program = "visiongraph";
std::atomic<bool> g_installed{false};
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// A fixed buffer the handler fills with plain copies: no allocation, no locale, no stdio.
class Line {
 public:
  Line& text(const char* s) noexcept {
    while (s != nullptr && *s != '\0' && used_ < buffer_.size()) buffer_[used_++] = *s++;
    return *this;
  }
  Line& number(std::uint64_t v) noexcept {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0 && used_ < buffer_.size()) buffer_[used_++] = digits[--n];
    return *this;
  }
  void write_to(int fd) const noexcept {
    std::size_t done = 0;
    while (done < used_) {
      const ssize_t n = ::write(fd, buffer_.data() + done, used_ - done);
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  }

 private:
  std::array<char, 512> buffer_{};
  std::size_t used_ = 0;
};

const char* signal_name(int sig) noexcept {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    default: return "a fatal signal";
  }
}

extern "C" void on_crash(int sig) {
  Line line;
  line.text("\n").text(g_program).text(": ").text(signal_name(sig));
  if (const RunningCall* call = running_call(); call != nullptr) {
    line.text(" in node '").text(call->node).text("' (kernel '").text(call->kernel).text("' on ").text(call->target)
        .text("), in its ").text(call->callback);
    if (std::strcmp(call->callback, "control") != 0) line.text(" of frame ").number(call->frame);
  } else {
    line.text(" outside any kernel callback");
  }
  line.text("; the process ends (outputs hold every line written before)\n");
  line.write_to(STDERR_FILENO);
  // The default action from here: the same signal ends the process with its usual status and core.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void prepare_thread_for_crash_report() noexcept {
  // A static-size alternate stack per thread, allocated once; leaked on purpose (a thread may crash
  // while it is in use, and threads here live as long as the process).
  constexpr std::size_t kStack = 64 * 1024;
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  void* memory = std::malloc(kStack);
  if (memory == nullptr) return;
  stack_t alt{};
  alt.ss_sp = memory;
  alt.ss_size = kStack;
  if (::sigaltstack(&alt, nullptr) != 0) std::free(memory);
}

void install_crash_report(const char* program) noexcept {
  if (program != nullptr) g_program = program;
  if (g_installed.exchange(true)) return;
  prepare_thread_for_crash_report();
  struct sigaction action{};
  action.sa_handler = on_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (int sig : kSignals) ::sigaction(sig, &action, nullptr);
}

}  // namespace vg::service
