#include "visiongraph/service/control_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>
#include <vector>

#include "unix_socket.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::service {

namespace {

using Clock = std::chrono::steady_clock;
using detail::UniqueFd;

/// Replies longer than this are refused (a help text for a very large graph still fits many times).
constexpr std::size_t kMaxReply = 1 << 20;

int ms_left(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<std::int64_t>(left, 60'000));
}

/// Wait until @p fd is ready for @p events or the deadline passes. False on timeout.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const int left = ms_left(deadline);
    if (left == 0) return false;
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, left);
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

enum class Read { line, closed_with_text, closed_empty, timeout, too_long, failed };

/// Read up to a newline (excluded) into @p out before @p deadline.
Read read_reply(int fd, std::string& out, Clock::time_point deadline) {
  char buffer[4096];
  for (;;) {
    if (!wait_for(fd, POLLIN, deadline)) return Read::timeout;
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      // ECONNRESET after the server closed with our request unread: what it sent is still ours.
      return out.empty() ? Read::failed : Read::closed_with_text;
    }
    if (n == 0) return out.empty() ? Read::closed_empty : Read::closed_with_text;
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] == '\n') return Read::line;
      out += buffer[i];
    }
    if (out.size() > kMaxReply) return Read::too_long;
  }
}

/// Send all of @p data before @p deadline. False if the connection broke or time ran out.
bool send_all(int fd, std::string_view data, Clock::time_point deadline) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if ((errno != EAGAIN && errno != EWOULDBLOCK) || !wait_for(fd, POLLOUT, deadline)) return false;
  }
  return true;
}

}  // namespace

std::string send_control_request(const std::string& path, std::string_view line, std::chrono::milliseconds timeout) {
  const sockaddr_un addr = detail::unix_address(path);
  if (line.find_first_of("\r\n") != std::string_view::npos)
    throw Error("control socket '" + path + "': a request is one line; this one holds a line break");
  const Clock::time_point deadline = Clock::now() + timeout;
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) throw Error("socket: " + detail::errno_text(errno));
  // A non-blocking connect on a Unix socket completes at once, or fails with EAGAIN while the server's
  // listen backlog is full: retry until the deadline.
  for (;;) {
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) break;
    const int err = errno;
    if (err == EINTR) continue;
    if (err == EAGAIN && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (err == EAGAIN)
      throw Error("control socket '" + path + "': the server did not accept the connection within " +
                  std::to_string(timeout.count()) + " ms");
    throw Error("cannot connect to control socket '" + path + "': " + detail::errno_text(err) +
                " (is 'visiongraph run ... --control " + path + "' running?)");
  }
  std::string request(line);
  request += '\n';
  const bool sent = send_all(fd.get(), request, deadline);
  // Read even if sending failed: a server that refuses the connection says why before closing it.
  std::string reply;
  switch (read_reply(fd.get(), reply, deadline)) {
    case Read::line:
    case Read::closed_with_text:
      return reply;
    case Read::too_long:
      throw Error("control socket '" + path + "': the reply is longer than " + std::to_string(kMaxReply) + " bytes");
    case Read::timeout:
      if (!sent) break;
      throw Error("control socket '" + path + "': no reply within " + std::to_string(timeout.count()) + " ms");
    case Read::closed_empty:
    case Read::failed:
      if (!sent) break;
      throw Error("control socket '" + path + "': the server closed the connection without a reply");
  }
  throw Error("control socket '" + path + "': cannot send the request");
}

std::string help_table(std::string_view reply) {
  constexpr std::string_view kPrefix = "ok nodes and commands:";
  if (reply.substr(0, kPrefix.size()) != kPrefix) return std::string(reply);
  struct Row {
    std::string node, kernel, commands;
  };
  std::vector<Row> rows;
  std::string_view rest = reply.substr(kPrefix.size());
  // Each entry: " NODE(KERNEL[; replicas ...])[CMD:KIND,...]"; node names hold no '(' or space.
  while (true) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const std::size_t open = rest.find('(');
    if (rest.empty() || open == std::string_view::npos) break;
    const std::size_t close = rest.find(')', open);
    if (close == std::string_view::npos) break;
    Row row{std::string(rest.substr(0, open)), std::string(rest.substr(open + 1, close - open - 1)), {}};
    rest.remove_prefix(close + 1);
    if (!rest.empty() && rest.front() == '[') {
      const std::size_t end = rest.find(']');
      std::string_view list = rest.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
      while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        const std::size_t colon = item.rfind(':');
        std::string command(item.substr(0, colon));
        if (colon != std::string_view::npos && item.substr(colon + 1) != "none")
          command += " (" + std::string(item.substr(colon + 1)) + ")";
        row.commands += (row.commands.empty() ? "" : ", ") + command;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
      }
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    if (row.commands.empty()) row.commands = "-";
    rows.push_back(std::move(row));
  }
  std::size_t node_width = 4, kernel_width = 6;
  for (const Row& r : rows) {
    node_width = std::max(node_width, r.node.size());
    kernel_width = std::max(kernel_width, r.kernel.size());
  }
  auto pad = [](const std::string& text, std::size_t width) { return text + std::string(width - text.size() + 3, ' '); };
  std::string out = pad("NODE", node_width) + pad("KERNEL", kernel_width) + "COMMANDS\n";
  for (const Row& r : rows) out += pad(r.node, node_width) + pad(r.kernel, kernel_width) + r.commands + "\n";
  return out;
}

}  // namespace vg::service
