#include "visiongraph/service/control_server.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <mutex>
#include <thread>
#include <vector>

#include "socket_path.hpp"
#include "unix_socket.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::service {

namespace {

using Clock = std::chrono::steady_clock;
using detail::UniqueFd;

constexpr std::string_view kTooMany = "error too many connections\n";
constexpr std::string_view kTooLong = "error request too long\n";
constexpr std::string_view kTooSlow = "error request not completed in time\n";
/// After accept(2) fails for lack of file descriptors, the listening socket is left alone this long
/// (else poll would report it readable again at once and the thread would spin).
constexpr std::chrono::milliseconds kAcceptBackoff{100};

/// One client connection and its buffers.
struct Connection {
  UniqueFd fd;
  std::string input;   ///< received bytes not yet part of an answered line
  std::string output;  ///< reply bytes not yet sent, from output_sent on
  std::size_t output_sent = 0;
  Clock::time_point last_activity;
  Clock::time_point partial_since;  ///< when the unfinished line in `input` began (input empty: unused)
  bool peer_closed = false;  ///< EOF read: answer the complete lines, flush, close
  bool closing = false;      ///< refused or too long: flush the last reply, then close
  bool dead = false;         ///< close now

  std::size_t pending_output() const noexcept { return output.size() - output_sent; }
};

}  // namespace

struct ControlServer::Impl {
  ControlRequestHandler handler;
  ControlServerOptions options;
  std::string path;
  UniqueFd listener;
  detail::SocketFileId file;
  UniqueFd wake;  ///< eventfd: stop() writes it to end the poll loop
  std::thread thread;
  std::atomic<bool> running{false};
  std::atomic<bool> stopping{false};

  std::atomic<std::uint64_t> accepted{0}, refused{0}, requests{0}, too_long{0}, idle_closed{0}, slow_closed{0}, overflow_closed{0},
      partial_discarded{0};
  std::atomic<std::size_t> open{0};

  std::vector<Connection> connections;  // server thread only
  Clock::time_point accept_paused_until{};

  void serve() noexcept;
  void accept_all() noexcept;
  void read_from(Connection& c) noexcept;
  void answer_lines(Connection& c) noexcept;
  void queue_reply(Connection& c, std::string_view reply) noexcept;
  void flush(Connection& c) noexcept;
  int poll_timeout_ms(Clock::time_point now) const noexcept;
};

namespace {

void check_options(const ControlServerOptions& o) {
  const auto fail = [](const char* name) {
    throw Error(std::string("ControlServerOptions::") + name + " must be greater than zero");
  };
  if (o.max_connections == 0) fail("max_connections");
  if (o.max_request_size == 0) fail("max_request_size");
  if (o.idle_timeout.count() <= 0) fail("idle_timeout");
  if (o.line_timeout.count() <= 0) fail("line_timeout");
  if (o.max_pending_output == 0) fail("max_pending_output");
  if (o.command_timeout.count() <= 0) fail("command_timeout");
}

}  // namespace

ControlServer::ControlServer(Graph& graph, const Context& context, const ControlServerOptions& options)
    : impl_(std::make_unique<Impl>()) {
  check_options(options);
  impl_->options = options;
  const auto timeout = options.command_timeout;
  impl_->handler = [&graph, &context, timeout](std::string_view line) {
    return answer_control_request(graph, context, line, timeout);
  };
}

ControlServer::ControlServer(ControlRequestHandler handler, const ControlServerOptions& options)
    : impl_(std::make_unique<Impl>()) {
  check_options(options);
  if (!handler) throw Error("ControlServer: the request handler is empty");
  impl_->options = options;
  impl_->handler = std::move(handler);
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::start(const std::string& path) {
  Impl& s = *impl_;
  if (s.running.load()) throw Error("control socket " + path + ": this server is already listening on " + s.path);
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) throw Error("control socket " + path + ": eventfd: " + detail::errno_text(errno));
  detail::ListeningSocket socket = detail::listen_at(path, SOMAXCONN);
  s.path = path;
  s.listener = std::move(socket.fd);
  s.file = socket.file;
  s.wake = std::move(wake);
  s.stopping.store(false);
  s.accept_paused_until = {};
  try {
    s.thread = std::thread([&s] { s.serve(); });
  } catch (const std::exception& e) {
    (void)detail::remove_if_same(s.path, s.file);
    s.listener.reset();
    s.wake.reset();
    throw Error("control socket " + path + ": cannot start its thread: " + e.what());
  }
  s.running.store(true);
}

void ControlServer::stop() noexcept {
  Impl& s = *impl_;
  if (!s.running.load()) return;
  s.stopping.store(true);
  const std::uint64_t one = 1;
  if (::write(s.wake.get(), &one, sizeof(one)) < 0) {
    // Cannot fail for an eventfd far from overflow; the loop also checks `stopping` every round.
  }
  if (s.thread.joinable()) s.thread.join();
  // Remove the name while the socket is still open, so its inode number cannot have been reused.
  (void)detail::remove_if_same(s.path, s.file);
  s.listener.reset();
  s.wake.reset();
  s.running.store(false);
}

bool ControlServer::is_running() const noexcept { return impl_->running.load(); }
const std::string& ControlServer::path() const noexcept { return impl_->path; }
std::uint64_t ControlServer::requests() const noexcept { return impl_->requests.load(); }
const ControlServerOptions& ControlServer::options() const noexcept { return impl_->options; }

ControlServerStats ControlServer::stats() const noexcept {
  const Impl& s = *impl_;
  ControlServerStats out;
  out.accepted = s.accepted.load();
  out.refused = s.refused.load();
  out.requests = s.requests.load();
  out.too_long = s.too_long.load();
  out.idle_closed = s.idle_closed.load();
  out.slow_closed = s.slow_closed.load();
  out.overflow_closed = s.overflow_closed.load();
  out.partial_discarded = s.partial_discarded.load();
  out.open = s.open.load();
  return out;
}

// ---- the server thread ----

void ControlServer::Impl::serve() noexcept {
  ::pthread_setname_np(::pthread_self(), "vg-control");
  std::vector<pollfd> fds;
  while (!stopping.load()) {
    try {
      const Clock::time_point now = Clock::now();
      fds.clear();
      fds.push_back({wake.get(), POLLIN, 0});
      const bool accepting = now >= accept_paused_until;
      fds.push_back({listener.get(), static_cast<short>(accepting ? POLLIN : 0), 0});
      for (const Connection& c : connections) {
        short events = 0;
        if (!c.peer_closed && !c.closing) events |= POLLIN;
        if (c.pending_output() > 0) events |= POLLOUT;
        fds.push_back({c.fd.get(), events, 0});
      }
      const int ready = ::poll(fds.data(), fds.size(), poll_timeout_ms(now));
      if (ready < 0 && errno != EINTR) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // ENOMEM: try again shortly
        continue;
      }
      if (stopping.load()) break;
      const std::size_t polled = fds.size() - 2;  // connections accepted below are polled next round
      if (ready > 0) {
        for (std::size_t i = 0; i < polled; ++i) {
          Connection& c = connections[i];
          const short revents = fds[i + 2].revents;
          if (revents == 0) continue;
          if (revents & POLLNVAL) {
            c.dead = true;
            continue;
          }
          if (revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!c.peer_closed && !c.closing) {
              read_from(c);
            } else if (revents & (POLLHUP | POLLERR)) {
              flush(c);  // the last replies, if the client still reads; else it is gone
              if (c.pending_output() > 0) c.dead = true;
            }
          }
          answer_lines(c);
          if (!c.dead && (revents & POLLOUT)) flush(c);
        }
        if (fds[1].revents & POLLIN) accept_all();
      }
      // Close what is finished, what overflowed and what has been idle too long.
      const Clock::time_point after = Clock::now();
      for (Connection& c : connections) {
        if (c.dead) continue;
        if ((c.peer_closed || c.closing) && c.pending_output() == 0) {
          c.dead = true;
        } else if (after - c.last_activity > options.idle_timeout) {
          c.dead = true;
          idle_closed.fetch_add(1);
        } else if (!c.closing && !c.input.empty() && after - c.partial_since > options.line_timeout) {
          slow_closed.fetch_add(1);
          c.closing = true;
          c.input.clear();
          queue_reply(c, kTooSlow);
          flush(c);
          if (c.pending_output() == 0) c.dead = true;
        }
      }
      connections.erase(std::remove_if(connections.begin(), connections.end(), [](const Connection& c) { return c.dead; }),
                        connections.end());
      open.store(connections.size());
    } catch (...) {
      // Only allocation can throw here: give the memory back by dropping every connection.
      connections.clear();
      open.store(0);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  connections.clear();
  open.store(0);
}

int ControlServer::Impl::poll_timeout_ms(Clock::time_point now) const noexcept {
  Clock::time_point next = Clock::time_point::max();
  if (now < accept_paused_until) next = accept_paused_until;
  for (const Connection& c : connections) {
    next = std::min(next, c.last_activity + options.idle_timeout);
    if (!c.input.empty()) next = std::min(next, c.partial_since + options.line_timeout);
  }
  if (next == Clock::time_point::max()) return -1;  // nothing to time out: wait for traffic or stop()
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
  return static_cast<int>(std::clamp<std::int64_t>(ms + 1, 0, 60'000));
}

void ControlServer::Impl::accept_all() noexcept {
  for (;;) {
    const int fd = ::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
        accept_paused_until = Clock::now() + kAcceptBackoff;
      return;  // EAGAIN: none left
    }
    UniqueFd client(fd);
    if (connections.size() >= options.max_connections) {
      refused.fetch_add(1);  // counted first: a client that has the reply sees the count
      // Best effort: a fresh socket's buffer takes this short line at once.
      (void)::send(client.get(), kTooMany.data(), kTooMany.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      continue;
    }
    try {
      Connection c;
      c.fd = std::move(client);
      c.last_activity = Clock::now();
      connections.push_back(std::move(c));
      accepted.fetch_add(1);
    } catch (...) {
      return;  // out of memory: the client is closed; try again later
    }
  }
}

void ControlServer::Impl::read_from(Connection& c) noexcept {
  // One bounded read per connection per round keeps the clients fair; the rest waits in the socket.
  char buffer[4096];
  ssize_t n;
  do {
    n = ::recv(c.fd.get(), buffer, sizeof(buffer), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK) c.dead = true;  // ECONNRESET and friends
    return;
  }
  if (n == 0) {
    c.peer_closed = true;
    return;
  }
  c.last_activity = Clock::now();
  try {
    if (c.input.empty()) c.partial_since = c.last_activity;  // a new line begins (answer_lines moves it on)
    c.input.append(buffer, static_cast<std::size_t>(n));
  } catch (...) {
    c.dead = true;
  }
}

void ControlServer::Impl::answer_lines(Connection& c) noexcept {
  if (c.dead || c.closing) return;
  std::size_t begin = 0;
  while (!c.dead && !c.closing && !stopping.load()) {
    const std::size_t newline = c.input.find('\n', begin);
    if (newline == std::string::npos) break;
    std::string_view line(c.input.data() + begin, newline - begin);
    begin = newline + 1;
    if (line.size() > options.max_request_size) {
      too_long.fetch_add(1);
      c.closing = true;
      queue_reply(c, kTooLong);
      break;
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string reply;
    try {
      reply = handler(line);
    } catch (const std::exception& e) {
      try {
        reply = std::string("error internal error: ") + e.what();
      } catch (...) {
        c.dead = true;
        break;
      }
    } catch (...) {
      reply = "error internal error";
    }
    // One reply is one line, whatever the handler returned.
    std::replace(reply.begin(), reply.end(), '\n', ' ');
    std::replace(reply.begin(), reply.end(), '\r', ' ');
    requests.fetch_add(1);
    try {
      reply += '\n';
    } catch (...) {
      c.dead = true;
      break;
    }
    queue_reply(c, reply);  // one send per reply: each send costs a socket buffer of its own
  }
  if (c.closing || c.dead) {
    c.input.clear();
    return;
  }
  // The rest is an unfinished line: its clock starts when it began, or now if complete lines preceded it.
  if (begin > 0 && begin < c.input.size()) c.partial_since = Clock::now();
  c.input.erase(0, begin);
  if (c.input.size() > options.max_request_size) {  // no '\n' in sight and already too long
    too_long.fetch_add(1);
    c.closing = true;
    c.input.clear();
    queue_reply(c, kTooLong);
  } else if (c.peer_closed && !c.input.empty()) {
    partial_discarded.fetch_add(1);  // an unfinished line is never executed
    c.input.clear();
  }
}

void ControlServer::Impl::queue_reply(Connection& c, std::string_view reply) noexcept {
  if (c.dead) return;
  try {
    c.output.append(reply);
  } catch (...) {
    c.dead = true;
    return;
  }
  flush(c);
  if (!c.dead && c.pending_output() > options.max_pending_output) {
    overflow_closed.fetch_add(1);
    c.dead = true;
  }
}

void ControlServer::Impl::flush(Connection& c) noexcept {
  while (c.pending_output() > 0) {
    const ssize_t n = ::send(c.fd.get(), c.output.data() + c.output_sent, c.pending_output(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) c.dead = true;  // EPIPE: the client is gone
      break;
    }
    c.output_sent += static_cast<std::size_t>(n);
    c.last_activity = Clock::now();
  }
  if (c.output_sent == c.output.size()) {
    c.output.clear();
    c.output_sent = 0;
  } else if (c.output_sent > c.output.size() / 2) {
    c.output.erase(0, c.output_sent);
    c.output_sent = 0;
  }
}

}  // namespace vg::service
