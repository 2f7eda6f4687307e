#pragma once
/// @file
/// @brief A last word before a crash: on SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, one line on standard
/// error naming the signal and, when the crashing thread was inside a kernel callback, the node, its
/// kernel and target, the callback and the frame (vg::running_call). Then the signal takes its default
/// course (the exit status stays 128 + signal, a core dump is still written where enabled).

namespace vg::service {

/// @brief Installs the handler for the whole process. The calling thread gets an alternate signal stack
/// (so its stack overflowing is reported too; other threads: prepare_thread_for_crash_report). @p program
/// starts the line ("visiongraph run").
/// The handler only reads memory and calls write(2): it is async-signal-safe. Idempotent.
void install_crash_report(const char* program) noexcept;

/// @brief Gives the calling thread an alternate signal stack (for threads other than the installer's).
void prepare_thread_for_crash_report() noexcept;

}  // namespace vg::service
