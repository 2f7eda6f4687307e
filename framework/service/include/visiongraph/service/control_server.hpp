#pragma once
/// @file
/// @brief The control socket: a Unix-socket server answering request lines (control_protocol.hpp) for
/// many clients at once from one thread, with bounded connections, lines, idle time and output.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/graph/graph.hpp"
#include "visiongraph/runtime/context.hpp"
#include "visiongraph/service/control_protocol.hpp"

namespace vg::service {

/// @brief Answers one complete request line (no newline) with one reply line (no newline needed; any
/// newline in it is sent as a space). Runs on the server thread; an exception becomes
/// "error internal error: <what()>".
using ControlRequestHandler = std::function<std::string(std::string_view request)>;

/// @brief Limits of a ControlServer. Every value must be positive (the constructor throws vg::Error).
struct ControlServerOptions {
  /// Connections open at once. One more is answered "error too many connections" and closed.
  std::size_t max_connections = 64;
  /// Longest request line in bytes, its '\n' excluded. A longer one is answered
  /// "error request too long" and its connection closed; it is never executed.
  std::size_t max_request_size = 4096;
  /// A connection with no traffic in either direction for this long is closed.
  std::chrono::milliseconds idle_timeout{30000};
  /// A request line must be complete this long after its first byte arrived; a connection that trickles
  /// a line slower (one byte now and then, which would keep it from ever being idle) is answered
  /// "error request not completed in time" and closed, so idle clients cannot hold the connection slots.
  std::chrono::milliseconds line_timeout{5000};
  /// Reply bytes a connection may have waiting because its client does not read them; beyond this the
  /// connection is dropped (so a client that never reads cannot hold the server's memory or thread).
  std::size_t max_pending_output = 64 * 1024;
  /// How long a command may take on its node's target (Graph-based servers only; see
  /// answer_control_request). It also bounds how long one command can delay the other clients and stop().
  std::chrono::milliseconds command_timeout = kDefaultCommandTimeout;
};

/// @brief Counters of a ControlServer (a snapshot; each counter is exact, together they are not atomic).
struct ControlServerStats {
  std::uint64_t accepted = 0;           ///< connections taken in (refused ones excluded)
  std::uint64_t refused = 0;            ///< answered "error too many connections" and closed
  std::uint64_t requests = 0;           ///< complete lines answered
  std::uint64_t too_long = 0;           ///< connections closed after "error request too long"
  std::uint64_t idle_closed = 0;        ///< connections closed after idle_timeout
  std::uint64_t slow_closed = 0;        ///< connections closed after line_timeout (a line sent too slowly)
  std::uint64_t overflow_closed = 0;    ///< connections dropped: their client did not read its replies
  std::uint64_t partial_discarded = 0;  ///< connections that ended inside a line; that line was not executed
  std::size_t open = 0;                 ///< connections open now
};

/// @brief Serves request lines on a Unix stream socket at a path.
///
/// start() refuses to touch anything it did not create: a live socket at the path (a process accepts
/// connections on it) and anything that is not a socket (file, directory, symlink) are left alone and
/// reported with vg::Error; only a stale socket (connecting is refused: its server is gone) is
/// replaced. The socket is created with mode 0600 (owner only) whatever the umask: it is bound inside
/// a private 0700 directory next to the path, chmod-ed, made listening, then linked onto the path
/// without replacing anything (renameat2 RENAME_NOREPLACE, else link(2)); the umask is never changed.
///
/// One thread (`vg-control`) runs a poll(2) loop over all connections. A line is executed only once
/// its '\n' has arrived (a trailing '\r' is dropped); a connection that ends inside a line never has
/// that line executed. Requests of one connection are answered in order. Writes never block: replies
/// wait in a per-connection buffer bounded by max_pending_output. Handlers run one at a time on the
/// server thread, so a slow command (at most command_timeout) delays the other clients' replies; frames
/// never wait for the control plane (send_command runs the command between two frames on the node's
/// target).
///
/// stop() wakes the thread, waits for the handler call in progress (bounded by command_timeout for a
/// Graph-based server), closes every connection and removes the socket file if it is still the one
/// this server created (same device and inode); a file put there by someone else is left alone.
/// @code
/// vg::service::ControlServer server(graph, ctx);
/// server.start("/run/user/1000/vg.sock");   // throws vg::Error: in use, not a socket, bad path
/// // ... stream frames; `visiongraph ctl /run/user/1000/vg.sock decode get_settings` ...
/// server.stop();                            // also done by the destructor
/// @endcode
/// @note start() and stop() from one thread (the owner); stats(), requests() and is_running() from any
///       thread. The handler runs on the server thread only, one call at a time, and must be bounded in
///       time (stop() waits for it).
class ControlServer {
 public:
  /// @brief Answer requests with answer_control_request(graph, context, line, options.command_timeout).
  /// @p graph and @p context are referenced, not copied: they must outlive the server (or its stop()).
  /// Throws vg::Error for an option that is zero.
  ControlServer(Graph& graph, const Context& context, const ControlServerOptions& options = {});
  /// @brief Answer requests with @p handler. Throws vg::Error for an empty handler or an option that is zero.
  explicit ControlServer(ControlRequestHandler handler, const ControlServerOptions& options = {});
  ~ControlServer();  ///< stop()
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  /// @brief Create the socket at @p path and start serving. Throws vg::Error naming the path when it is
  /// empty or too long, in use by a running process, not a socket, when its directory is not writable,
  /// or when the server is already running.
  void start(const std::string& path);
  /// @brief Close every connection, remove the socket file this server created, join the thread.
  /// Idempotent; bounded in time as long as the handler is.
  void stop() noexcept;
  bool is_running() const noexcept;
  /// @brief The path given to the last start() (empty before).
  const std::string& path() const noexcept;

  std::uint64_t requests() const noexcept;  ///< lines answered so far
  ControlServerStats stats() const noexcept;
  const ControlServerOptions& options() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::service
