#pragma once
// The last resort of a stop: ends the process when a stop cannot finish (a kernel that never returns).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "run_outputs.hpp"
#include "stop_state.hpp"
#include "visiongraph/runner/run_options.hpp"
#include "visiongraph/service/run_stats.hpp"

namespace vg::runner {

using namespace std::chrono_literals;

/// Ends the process without waiting for a stop that cannot finish (a kernel that never returns, no
/// deadline): on a third signal, or when the stop has outlasted --drain-timeout + --stop-timeout. It names
/// the nodes still running, sends out the JSON lines held back and writes trace.json, then exits with 1.
class StopWatchdog {
 public:
  /// @p every_half_second runs on the watchdog's thread twice a second (the connection log).
  /// One entry per stream: its graph, its outputs and where its trace.json goes.
  struct Watched {
    const Graph* graph;
    RunOutputs* outputs;
    fs::path trace;
  };
  /// @p any_stream_stopping: a stream stopped itself (an output failed); its stop is bounded too.
  StopWatchdog(std::vector<Watched> streams, const std::atomic<bool>& any_stream_stopping, const RunOptions& opt,
               std::function<void()> every_half_second = {})
      : streams_(std::move(streams)), any_stream_stopping_(any_stream_stopping), limit_(opt.drain_timeout + opt.stop_timeout),
        max_rss_(opt.max_rss_bytes), rss_start_(service::resident_memory_bytes()),
        every_half_second_(std::move(every_half_second)), thread_([this] { watch(); }) {}
  /// No more calls of the half-second hook once this returns (what it reads is about to go).
  void stop_polling() {
    std::lock_guard lock(polling_mu_);
    every_half_second_ = nullptr;
  }
  /// Why --max-rss ended the run ("" when it did not).
  std::string memory_exceeded() const {
    std::lock_guard lock(mu_);
    return memory_exceeded_;
  }
  ~StopWatchdog() {
    done_.store(true);
    thread_.join();
  }
  StopWatchdog(const StopWatchdog&) = delete;
  StopWatchdog& operator=(const StopWatchdog&) = delete;

 private:
  void watch() {
    std::optional<std::chrono::steady_clock::time_point> stopping_since;
    int ticks = 0;
    while (!done_.load()) {
      std::this_thread::sleep_for(50ms);
      if (++ticks % 10 == 0) {
        if (max_rss_ > 0) check_memory();
        std::lock_guard lock(polling_mu_);
        if (every_half_second_) every_half_second_();
      }
      if (!stopping_since && (stop::interrupted() || stop::reading_stopped() || any_stream_stopping_.load()))
        stopping_since = std::chrono::steady_clock::now();
      if (stop::requests() >= 3) end_now("a third signal");
      if (stopping_since && std::chrono::steady_clock::now() - *stopping_since > limit_)
        end_now("the stop took longer than --drain-timeout + --stop-timeout");
    }
  }
  // --max-rss: twice a second; the first time past the limit stops reading (the run then ends, exit 1).
  void check_memory() {
    const std::int64_t rss = service::resident_memory_bytes();
    if (rss <= max_rss_ || stop::reading_stopped()) return;
    char text[200];
    std::snprintf(text, sizeof text,
                  "resident memory %.1f MiB passed --max-rss %.1f MiB (it grew by %.1f MiB since the graph started)",
                  static_cast<double>(rss) / 1048576.0, static_cast<double>(max_rss_) / 1048576.0,
                  static_cast<double>(rss - rss_start_) / 1048576.0);
    {
      std::lock_guard lock(mu_);
      memory_exceeded_ = text;
    }
    std::cerr << "visiongraph run: " << text << "; ending the run\n";
    stop::stop_reading();
  }
  [[noreturn]] void end_now(const char* why) noexcept {
    std::string running;
    try {
      for (const Watched& s : streams_) {
        for (const NodeStats& n : s.graph->stats().nodes) {
          if (n.running_ns <= 0 || !n.replica_of.empty()) continue;
          char seconds[32];
          std::snprintf(seconds, sizeof seconds, "%.1f s", static_cast<double>(n.running_ns) / 1e9);
          running += (running.empty() ? "" : ", ") + std::string("node '") + n.name + "' (kernel '" + n.kernel + "' on " +
                     n.target + ", running for " + seconds + ")";
        }
      }
      std::cerr << "\nvisiongraph run: " << why << ": ending the process without waiting for the frames in flight; "
                << (running.empty() ? std::string("no node is running") : "still running: " + running) << '\n';
      for (const Watched& s : streams_) {
        s.outputs->flush_before_exit();
        std::ofstream trace(s.trace);
        s.graph->write_trace(trace);
        trace.flush();
        if (!trace) std::cerr << "visiongraph run: writing '" << s.trace.string() << "' failed\n";
      }
      std::cerr << "visiongraph run: detections.jsonl holds every line written so far; trace.json written\n";
    } catch (...) {  // ending anyway: what could be written was
    }
    std::cerr.flush();
    std::cout.flush();
    std::_Exit(1);
  }
  std::vector<Watched> streams_;
  const std::atomic<bool>& any_stream_stopping_;
  std::chrono::milliseconds limit_;
  std::int64_t max_rss_;
  std::int64_t rss_start_;
  std::mutex polling_mu_;
  std::function<void()> every_half_second_;
  mutable std::mutex mu_;
  std::string memory_exceeded_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace vg::runner
