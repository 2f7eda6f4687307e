#pragma once
// detections.jsonl: one JSON line per frame in frame order, also to the publishers and standard output.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "visiongraph/mqtt/publisher.hpp"

namespace vg::runner {

namespace fs = std::filesystem;

/// Writes one JSON line per frame, in frame order, whatever order results arrive in. Thread-safe.
/// Every write is checked: a full disk or an I/O error throws, naming the file and the reason. Lines are
/// flushed as they are written, so a reader (tail -f) sees each frame as it completes. Each line also
/// goes, in frame order, to the publishers (MQTT: never blocking, drops counted by the publisher) and to
/// standard output when asked (--publish -).
class JsonLinesWriter {
 public:
  JsonLinesWriter(const fs::path& path, std::vector<mqtt::MqttPublisher*> publishers, bool to_stdout)
      : path_(path), publishers_(std::move(publishers)), to_stdout_(to_stdout) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(errno));
  }
  ~JsonLinesWriter() {
    if (fd_ >= 0) ::close(fd_);
  }
  JsonLinesWriter(const JsonLinesWriter&) = delete;
  JsonLinesWriter& operator=(const JsonLinesWriter&) = delete;
  /// The file's failure ("" while it writes): named with every other failing output at the end.
  std::string file_error() {
    std::lock_guard lock(mu_);
    return file_error_;
  }
  void put(std::uint64_t frame, std::string line) {
    std::lock_guard lock(mu_);
    pending_.emplace(frame, std::move(line));
    bool wrote = false;
    while (!pending_.empty() && pending_.begin()->first == next_) {
      emit(pending_.begin()->second);
      pending_.erase(pending_.begin());
      ++next_;
      wrote = true;
    }
    if (wrote) flush_streams();
  }
  void flush() {
    std::lock_guard lock(mu_);
    for (auto& [frame, line] : pending_) emit(line);  // only if a frame never resolved
    pending_.clear();
    flush_streams();
  }
  /// Before the process ends without unwinding: every line held for ordering goes out. Gives up after
  /// @p limit if a writer holds the lock (the lines written so far are already flushed, whole).
  void flush_before_exit(std::chrono::milliseconds limit) noexcept {
    std::unique_lock lock(mu_, std::defer_lock);
    if (!lock.try_lock_for(limit)) return;
    try {
      for (auto& [frame, line] : pending_) emit(line);
      pending_.clear();
      flush_streams();
    } catch (...) {  // a failing destination is already named; nothing more can be done now
    }
  }

 private:
  void emit(const std::string& line) {
    if (!file_failed_) write_line(line);
    if (to_stdout_ && !stdout_failed_) std::cout << line << '\n';
    for (mqtt::MqttPublisher* p : publishers_) (void)p->publish(line);  // busy = dropped, counted there
  }
  // One line, whole or not at all: written with its newline, and on failure (a full disk) the file is cut
  // back to the end of the last whole line, so a reader never sees a torn line. Unbuffered: each line is
  // in the file (tail -f) as soon as it is written.
  void write_line(const std::string& line) {
    std::string text = line;
    text += '\n';
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      const int err = n < 0 ? errno : ENOSPC;
      if (::ftruncate(fd_, static_cast<off_t>(whole_bytes_)) == 0) (void)::lseek(fd_, static_cast<off_t>(whole_bytes_), SEEK_SET);
      file_failed_ = true;
      file_error_ = "writing '" + path_.string() + "' failed: " + std::strerror(err) + " (it holds every line up to frame " +
                    (next_ == 0 ? std::string("none") : std::to_string(next_ - 1)) + ", each whole)";
      throw std::runtime_error(file_error_);
    }
    whole_bytes_ += text.size();
  }
  // A destination that fails is reported once (the run then ends) and written no more; the others go on,
  // so a closed standard output still leaves every frame's line in the file.
  void flush_streams() {
    if (to_stdout_) check(std::cout.flush(), stdout_failed_, "standard output");
  }
  static void check(const std::ostream& stream, bool& failed, const std::string& what) {
    if (stream || failed) return;
    failed = true;
    throw std::runtime_error("writing '" + what + "' failed: " + std::strerror(errno));
  }
  fs::path path_;
  std::timed_mutex mu_;
  int fd_ = -1;
  std::uint64_t whole_bytes_ = 0;  // the file's size up to its last whole line
  std::string file_error_;
  std::vector<mqtt::MqttPublisher*> publishers_;
  bool to_stdout_ = false;
  bool file_failed_ = false;
  bool stdout_failed_ = false;
  std::map<std::uint64_t, std::string> pending_;
  std::uint64_t next_ = 0;
};

}  // namespace vg::runner
