#pragma once
// Shared by the service tests: a running graph of example kernels whose frames keep flowing, a private
// temporary directory, and a raw Unix-socket client that can misbehave (half lines, idling, flooding).

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// A fresh directory under the system temp directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() / ("vg_svc_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

/// `in` (graph parameter) -> adder (vg.example.add, b = 1) -> `sum` (graph parameter), streaming: a pump
/// thread feeds in = 1 frame after frame, so sum = 2 + bias. Commands therefore land between frames of
/// a live graph, and `last_sum()` shows the bias the frames really used.
class RunningGraph {
 public:
  RunningGraph() : graph_(make_context(), "service_test") {
    auto in = graph_.add_data("in", DataMeta::scalar_of(ElementType::f64));
    auto one = graph_.add_data("one", DataMeta::scalar_of(ElementType::f64));
    auto sum = graph_.add_virtual("sum", DataKind::scalar);
    adder_ = graph_.add_node("adder", "vg.example.add");
    graph_.bind(adder_, "a", in).bind(adder_, "b", one).bind(adder_, "sum", sum);
    auto waiter = graph_.add_node("waiter", "vg.example.wait");
    graph_.set_attribute(waiter, "micros", std::int64_t{0});
    in_ = graph_.add_graph_parameter(adder_, "a", 1);
    sum_ = graph_.add_graph_parameter(adder_, "sum", 1);
    graph_.verify();
    graph_.scalar(one).set(1.0);
    if (graph_.start() != Status::ok) throw Error("the test graph does not start");
    pump_ = std::thread([this] { pump(); });
  }
  ~RunningGraph() {
    stop_.store(true);
    pump_.join();
    (void)graph_.stop(StopMode::abandon);
  }
  RunningGraph(const RunningGraph&) = delete;
  RunningGraph& operator=(const RunningGraph&) = delete;

  Graph& graph() { return graph_; }
  const Context& context() const { return context_; }
  std::uint64_t frames() const { return frames_.load(); }
  double last_sum() const { return last_sum_.load(); }
  /// Wait until @p n more frames have completed (false after 5 s).
  bool wait_frames(std::uint64_t n) const {
    const std::uint64_t target = frames() + n;
    for (int i = 0; i < 500 && frames() < target; ++i) std::this_thread::sleep_for(10ms);
    return frames() >= target;
  }

 private:
  Context& make_context() {
    context_.load_module(examples::make_module());
    return context_;
  }
  void pump() {
    const DataId in_data = graph_.data_of(in_), sum_data = graph_.data_of(sum_);
    if (graph_.enqueue(sum_, 0) != Status::ok) return;
    while (!stop_.load()) {
      graph_.scalar(in_data, 0).set(1.0);
      if (graph_.enqueue(in_, 0, 0, 1s) != Status::ok) return;
      DequeuedBuffer out, used;
      if (graph_.dequeue(sum_, out, 2s) != Status::ok) return;
      if (out.status == Status::ok) last_sum_.store(graph_.scalar(sum_data, out.index).get<double>());
      if (graph_.enqueue(sum_, out.index) != Status::ok) return;
      if (graph_.dequeue(in_, used, 2s) != Status::ok) return;
      frames_.fetch_add(1);
      std::this_thread::sleep_for(2ms);  // a steady stream without eating a shared core
    }
  }

  Context context_;
  Graph graph_;
  NodeId adder_;
  GraphParamId in_, sum_;
  std::thread pump_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> frames_{0};
  std::atomic<double> last_sum_{0.0};
};

/// A Unix-socket client doing exactly what the test says, nothing more.
class RawClient {
 public:
  explicit RawClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    connected_ = fd_ >= 0 && ::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~RawClient() { close(); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return connected_; }
  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  bool send(std::string_view data) {
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  /// The next reply line (without '\n'), or nothing if none completes within @p timeout.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const std::size_t newline = pending_.find('\n');
      if (newline != std::string::npos) {
        std::string line = pending_.substr(0, newline);
        pending_.erase(0, newline + 1);
        return line;
      }
      if (!fill(deadline)) return std::nullopt;
    }
  }
  /// True if the server closes the connection within @p timeout (unread replies are skipped).
  bool closed_within(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (fill(deadline)) pending_.clear();
    return eof_;
  }
  /// True if nothing at all arrives within @p timeout and the connection stays open.
  bool silent_for(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    return pending_.empty() && !fill(deadline) && !eof_ && pending_.empty();
  }

 private:
  /// Read what arrives before the deadline; false on timeout or end of stream.
  bool fill(std::chrono::steady_clock::time_point deadline) {
    if (eof_) return false;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char buffer[4096];
    const ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) {  // 0: closed; ECONNRESET: closed with our bytes unread
      eof_ = true;
      return false;
    }
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  bool eof_ = false;
  std::string pending_;
};

/// A socket file nobody listens on, as a crashed server leaves it.
inline void make_stale_socket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0)
    throw std::runtime_error("cannot create the stale socket " + path);
  ::close(fd);
}

/// Poll @p condition every 5 ms for up to @p timeout.
template <class F>
bool eventually(F condition, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

}  // namespace vg::test
