#include "control.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace vg::cli {

namespace {

constexpr std::size_t kMaxLine = 4096;

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string render_reply(const CommandReply& reply) {
  const std::string_view text = reply.text();
  bool printable = true;
  for (char c : text)
    if (!std::isprint(static_cast<unsigned char>(c)) && c != '\t') printable = false;
  if (printable) return std::string(text);
  static const char* hex = "0123456789abcdef";
  std::string out = "hex:";
  for (char c : text) {
    out += hex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    out += hex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

sockaddr_un address_of(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path))
    throw std::runtime_error("control socket path '" + path + "' is empty or longer than " +
                             std::to_string(sizeof(addr.sun_path) - 1) + " characters");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

/// Read up to a newline (excluded) within @p timeout_ms. False on timeout, error or an over-long line.
bool read_line(int fd, std::string& out, int timeout_ms) {
  out.clear();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[512];
  while (out.size() <= kMaxLine) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return !out.empty();  // peer closed: take what came
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') return true;
      out += buf[i];
    }
  }
  return false;
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string help_text(Graph& graph, const Context& context) {
  std::ostringstream out;
  out << "ok nodes and commands:";
  for (NodeId id : graph.execution_order()) {
    const std::string kernel = graph.node_kernel(id);
    const KernelInfo* info = context.find_kernel(kernel);
    out << " " << graph.node_name(id) << "(" << kernel << ")";
    if (!info) continue;
    out << "[";
    bool first = true;
    for (const auto& c : info->decl.commands()) {
      out << (first ? "" : ",") << c.name << ":" << to_string(c.payload);
      first = false;
    }
    out << "]";
  }
  return out.str();
}

}  // namespace

std::string handle_control_request(Graph& graph, const Context& context, const std::string& raw) {
  const std::string line = trim(raw);
  if (line.empty()) return "error empty request: expected NODE COMMAND [ARGUMENT] or help";
  if (line == "help") return help_text(graph, context);
  std::istringstream in(line);
  std::string node_name, command_name;
  in >> node_name >> command_name;
  std::string argument;
  std::getline(in, argument);
  argument = trim(argument);
  const NodeId node = graph.find_node(node_name);
  if (!node.valid()) return "error unknown node '" + node_name + "' (send 'help' for the nodes)";
  if (command_name.empty()) return "error missing command for node '" + node_name + "' (send 'help' for the commands)";
  const KernelInfo* info = context.find_kernel(graph.node_kernel(node));
  const CommandDecl* decl = info ? info->decl.find_command(std::string_view(command_name)) : nullptr;
  if (!decl) {
    std::string names;
    if (info)
      for (const auto& c : info->decl.commands()) names += (names.empty() ? "" : ", ") + c.name;
    return "error node '" + node_name + "' (kernel " + graph.node_kernel(node) + ") has no command '" + command_name +
           "' (commands: " + (names.empty() ? "none" : names) + ")";
  }
  ControlCommand command = ControlCommand::make(decl->id);
  switch (decl->payload) {
    case PayloadKind::none:
      if (!argument.empty()) return "error command '" + command_name + "' takes no argument";
      break;
    case PayloadKind::integer: {
      std::int64_t v = 0;
      auto [p, ec] = std::from_chars(argument.data(), argument.data() + argument.size(), v);
      if (argument.empty() || ec != std::errc{} || p != argument.data() + argument.size())
        return "error command '" + command_name + "' expects an integer argument, got '" + argument + "'";
      command = ControlCommand::make(decl->id, v);
      break;
    }
    case PayloadKind::number: {
      double v = 0;
      auto [p, ec] = std::from_chars(argument.data(), argument.data() + argument.size(), v);
      if (argument.empty() || ec != std::errc{} || p != argument.data() + argument.size() || !std::isfinite(v))
        return "error command '" + command_name + "' expects a number argument, got '" + argument + "'";
      command = ControlCommand::make(decl->id, v);
      break;
    }
    case PayloadKind::text:
      if (argument.size() >= kMaxCommandPayload) return "error argument too long";
      command = ControlCommand::make_text(decl->id, argument);
      break;
    case PayloadKind::bytes: {
      if (argument.size() % 2 != 0 || argument.size() / 2 > kMaxCommandPayload)
        return "error command '" + command_name + "' expects hex bytes, e.g. 0a1b";
      for (std::size_t i = 0; i < argument.size(); i += 2) {
        unsigned v = 0;
        auto [p, ec] = std::from_chars(argument.data() + i, argument.data() + i + 2, v, 16);
        if (ec != std::errc{} || p != argument.data() + i + 2) return "error bad hex byte '" + argument.substr(i, 2) + "'";
        command.data[i / 2] = static_cast<std::byte>(v);
      }
      command.size = static_cast<std::uint32_t>(argument.size() / 2);
      break;
    }
  }
  CommandReply reply;
  const Status s = graph.send_command(node, command, std::chrono::seconds(2), &reply);
  std::string text = render_reply(reply);
  if (s != Status::ok)
    return "error " + std::string(to_string(s)) + ": " + std::string(describe(s)) + (text.empty() ? "" : ": " + text);
  return text.empty() ? "ok" : "ok " + text;
}

void ControlServer::start(const std::string& path) {
  const sockaddr_un addr = address_of(path);
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("control socket: " + std::string(std::strerror(errno)));
  ::unlink(path.c_str());  // a stale socket from an earlier run
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(fd_, 8) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("control socket '" + path + "': " + why);
  }
  path_ = path;
  stop_ = false;
  thread_ = std::thread([this] { serve(); });
}

void ControlServer::stop() noexcept {
  if (fd_ < 0) return;
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  ::close(fd_);
  fd_ = -1;
  ::unlink(path_.c_str());
}

void ControlServer::serve() noexcept {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    try {
      std::string line;
      std::string reply;
      if (!read_line(client, line, 2000)) reply = "error no request line received (send NODE COMMAND [ARGUMENT] and a newline)";
      else reply = handle_control_request(graph_, context_, line);
      ++requests_;
      (void)write_all(client, reply + "\n");
    } catch (...) {
      (void)write_all(client, "error internal error\n");
    }
    ::close(client);
  }
}

std::string send_control_request(const std::string& path, const std::string& line, int timeout_ms) {
  const sockaddr_un addr = address_of(path);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket: " + std::string(std::strerror(errno)));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    throw std::runtime_error("cannot connect to control socket '" + path + "': " + why +
                             " (is 'visiongraph run ... --control " + path + "' running?)");
  }
  std::string reply;
  const bool sent = write_all(fd, line + "\n");
  const bool got = sent && read_line(fd, reply, timeout_ms);
  ::close(fd);
  if (!sent) throw std::runtime_error("control socket '" + path + "': cannot send the request");
  if (!got) throw std::runtime_error("control socket '" + path + "': no reply within " + std::to_string(timeout_ms) + " ms");
  return reply;
}

}  // namespace vg::cli
