#pragma once
// Small helpers shared by the control server and client: an owning file descriptor, Unix socket
// addresses, errno texts.

#include <sys/socket.h>
#include <sys/un.h>

#include <string>
#include <string_view>

namespace vg::service::detail {

/// Owns one file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) noexcept;

 private:
  int fd_ = -1;
};

/// The longest path a sockaddr_un holds (its terminating NUL excluded).
constexpr std::size_t max_socket_path() noexcept { return sizeof(sockaddr_un::sun_path) - 1; }

/// The address of a path-named Unix socket. Throws vg::Error ("control socket path '...' is empty or
/// longer than N characters").
sockaddr_un unix_address(const std::string& path);

/// strerror(err) without the thread-safety problem of strerror.
std::string errno_text(int err);

}  // namespace vg::service::detail
