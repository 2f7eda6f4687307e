#pragma once
// The one-line progress display on a terminal (frames, fps, ETA), fed by every stream's reclaim thread.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>

namespace vg::runner {

using namespace std::chrono_literals;

/// One-line progress on a terminal: frames, fps, ETA. Thread-safe: every stream reports its frames.
class Progress {
 public:
  Progress(bool enabled, std::int64_t total) : enabled_(enabled), total_(total), start_(std::chrono::steady_clock::now()) {}
  /// One more frame resolved (done, failed or dropped) in some stream.
  void frame_resolved() {
    if (!enabled_) return;
    std::lock_guard lock(mu_);
    update(++done_, false);
  }
  void finish() {
    if (!enabled_) return;
    std::lock_guard lock(mu_);
    update(done_, true);
    std::cerr << '\n';
  }

 private:
  void update(std::uint64_t done, bool force) {
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < 200ms) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double fps = secs > 0 ? static_cast<double>(done) / secs : 0;
    char line[160];
    if (total_ > 0) {
      const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
      const int width = 30, filled = static_cast<int>(frac * width);
      std::string bar(static_cast<std::size_t>(filled), '=');
      if (filled < width) bar += '>' + std::string(static_cast<std::size_t>(width - filled - 1), ' ');
      const double eta = fps > 0 ? static_cast<double>(total_ - static_cast<std::int64_t>(done)) / fps : 0;
      std::snprintf(line, sizeof(line), "\r[%s] %llu/%lld frames  %.1f fps  ETA %.0fs   ", bar.c_str(),
                    static_cast<unsigned long long>(done), static_cast<long long>(total_), fps, std::max(0.0, eta));
    } else {
      std::snprintf(line, sizeof(line), "\r%llu frames  %.1f fps   ", static_cast<unsigned long long>(done), fps);
    }
    std::cerr << line << std::flush;
  }
  bool enabled_;
  std::int64_t total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  std::mutex mu_;
  std::uint64_t done_ = 0;
};

}  // namespace vg::runner
