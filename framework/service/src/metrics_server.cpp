#include "visiongraph/service/metrics_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <thread>

#include "unix_socket.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::service {

namespace {

using Clock = std::chrono::steady_clock;
using detail::UniqueFd;

std::string response(int code, const char* reason, const std::string& content_type, const std::string& body,
                     bool head_only) {
  std::string out = "HTTP/1.1 " + std::to_string(code) + ' ' + reason + "\r\nContent-Type: " + content_type +
                    "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!head_only) out += body;
  return out;
}

}  // namespace

struct MetricsServer::Impl {
  Provider provider;
  MetricsServerOptions options;
  UniqueFd listener;
  UniqueFd wake;  // eventfd: stop() writes it
  std::string address;
  std::uint16_t port = 0;
  std::atomic<std::uint64_t> scrapes{0};
  std::thread thread;

  void run() noexcept {
    for (;;) {
      pollfd fds[2] = {{wake.get(), POLLIN, 0}, {listener.get(), POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents != 0) return;
      if (fds[1].revents & POLLIN) {
        const int fd = ::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) serve(UniqueFd(fd));
        else if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }

  // Waits for @p events on the client or the stop signal until @p until. True when the client is ready.
  bool wait_for(int fd, short events, Clock::time_point until) const noexcept {
    for (;;) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return false;
      pollfd fds[2] = {{wake.get(), POLLIN, 0}, {fd, events, 0}};
      const int n = ::poll(fds, 2, static_cast<int>(left));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || fds[0].revents != 0) return false;
      return true;
    }
  }

  void serve(UniqueFd client) noexcept {
    const Clock::time_point until = Clock::now() + options.client_timeout;
    std::string request;
    char buffer[2048];
    while (request.find("\r\n\r\n") == std::string::npos && request.find("\n\n") == std::string::npos) {
      if (request.size() > options.max_request_size) {
        send_all(client.get(), response(431, "Request Header Fields Too Large", "text/plain", "request too long\n", false), until);
        return;
      }
      if (!wait_for(client.get(), POLLIN, until)) return;  // too slow, or stopping: closed unanswered
      const ssize_t n = ::recv(client.get(), buffer, sizeof buffer, 0);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) return;
      try {
        request.append(buffer, static_cast<std::size_t>(n));
      } catch (...) {
        return;
      }
    }
    std::string reply;
    try {
      reply = answer(request);
    } catch (const std::exception& e) {
      reply = response(500, "Internal Server Error", "text/plain", std::string(e.what()) + "\n", false);
    } catch (...) {
      return;
    }
    send_all(client.get(), reply, until);
  }

  std::string answer(const std::string& request) {
    const std::size_t line_end = request.find_first_of("\r\n");
    const std::string line = request.substr(0, line_end);
    const std::size_t space = line.find(' ');
    const std::string method = line.substr(0, space);
    const std::size_t space2 = space == std::string::npos ? std::string::npos : line.find(' ', space + 1);
    std::string target = space == std::string::npos ? std::string() : line.substr(space + 1, space2 - space - 1);
    if (const std::size_t q = target.find('?'); q != std::string::npos) target.resize(q);
    const bool head = method == "HEAD";
    if (method != "GET" && !head) return response(405, "Method Not Allowed", "text/plain", "only GET and HEAD\n", false);
    if (target != "/metrics")
      return response(404, "Not Found", "text/plain", "visiongraph: the metrics are at /metrics\n", head);
    std::string body = provider();
    scrapes.fetch_add(1);
    return response(200, "OK", "text/plain; version=0.0.4; charset=utf-8", body, head);
  }

  void send_all(int fd, const std::string& data, Clock::time_point until) const noexcept {
    std::size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        if (!wait_for(fd, POLLOUT, until)) return;
        continue;
      }
      return;
    }
  }
};

MetricsServer::MetricsServer(Provider provider, const MetricsServerOptions& options) : impl_(std::make_unique<Impl>()) {
  if (!provider) throw Error("MetricsServer: empty provider");
  if (options.client_timeout.count() <= 0 || options.max_request_size == 0)
    throw Error("MetricsServer: client_timeout and max_request_size must be positive");
  impl_->provider = std::move(provider);
  impl_->options = options;
}

MetricsServer::~MetricsServer() { stop(); }

void MetricsServer::start(const std::string& address, std::uint16_t port) {
  const std::string where = address + ":" + std::to_string(port);
  if (impl_->thread.joinable()) throw Error("metrics server " + where + ": already running");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (::inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1)
    throw Error("metrics server " + where + ": '" + address + "' is not an IPv4 address (e.g. 127.0.0.1, 0.0.0.0)");
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) throw Error("metrics server " + where + ": socket: " + detail::errno_text(errno));
  const int yes = 1;
  (void)::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
    throw Error("metrics server " + where + ": cannot listen: " + detail::errno_text(errno));
  if (::listen(fd.get(), 16) != 0) throw Error("metrics server " + where + ": listen: " + detail::errno_text(errno));
  socklen_t len = sizeof addr;
  (void)::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len);
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) throw Error("metrics server " + where + ": eventfd: " + detail::errno_text(errno));
  impl_->listener = std::move(fd);
  impl_->wake = std::move(wake);
  impl_->address = address;
  impl_->port = ntohs(addr.sin_port);
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

void MetricsServer::stop() noexcept {
  if (!impl_ || !impl_->thread.joinable()) return;
  const std::uint64_t one = 1;
  (void)!::write(impl_->wake.get(), &one, sizeof one);
  impl_->thread.join();
  impl_->listener.reset();
  impl_->wake.reset();
}

std::uint16_t MetricsServer::port() const noexcept { return impl_->port; }

std::string MetricsServer::url() const {
  return "http://" + impl_->address + ":" + std::to_string(impl_->port) + "/metrics";
}

std::uint64_t MetricsServer::scrapes() const noexcept { return impl_->scrapes.load(); }

}  // namespace vg::service
