#pragma once
/// @file
/// @brief Live control over a local Unix socket: one request line in, one reply line out.
///
/// Request: `NODE COMMAND [ARGUMENT]` (the command by the name the kernel declares; the argument is
/// parsed as the payload kind the kernel declares), or `help`. Reply: `ok [TEXT]` or `error TEXT`.

#include <atomic>
#include <string>
#include <thread>

#include "visiongraph/graph/graph.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::cli {

/// @brief Answer one request line against a running graph (also used by tests).
std::string handle_control_request(Graph& graph, const Context& context, const std::string& line);

/// @brief A thread accepting control connections on a Unix socket and calling Graph::send_command.
/// @note start/stop from one thread; the server thread only reads the graph.
/// @code
/// vg::cli::ControlServer server(graph, ctx);
/// server.start("/tmp/vg.sock");   // throws std::runtime_error
/// ... run ...
/// server.stop();
/// @endcode
class ControlServer {
 public:
  ControlServer(Graph& graph, const Context& context) : graph_(graph), context_(context) {}
  ~ControlServer() { stop(); }
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  void start(const std::string& path);
  void stop() noexcept;
  /// @brief Requests answered so far.
  std::uint64_t requests() const noexcept { return requests_.load(); }

 private:
  void serve() noexcept;
  Graph& graph_;
  const Context& context_;
  std::string path_;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> requests_{0};
  std::thread thread_;
};

/// @brief Send one request line to a control socket and return the reply line. Throws std::runtime_error
/// when the socket cannot be reached.
std::string send_control_request(const std::string& path, const std::string& line, int timeout_ms = 5000);

}  // namespace vg::cli
