#include "unix_socket.hpp"

#include <unistd.h>

#include <cstring>

#include "visiongraph/core/error.hpp"

namespace vg::service::detail {

void UniqueFd::reset(int fd) noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

sockaddr_un unix_address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() > max_socket_path())
    throw Error("control socket path '" + path + "' is empty or longer than " + std::to_string(max_socket_path()) +
                " characters");
  if (path.find('\0') != std::string::npos) throw Error("control socket path '" + path + "' holds a NUL character");
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r: returns the message, which may or may not be in buf.
  return ::strerror_r(err, buf, sizeof(buf));
}

}  // namespace vg::service::detail
