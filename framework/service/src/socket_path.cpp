// How the control socket's file is created (see ControlServer in control_server.hpp):
//
// 1. Whatever exists at the path is inspected with lstat. Not a socket (file, directory, symlink, ...):
//    refused, untouched. A socket that accepts a connection: in use, refused. A socket that refuses
//    connections (ECONNREFUSED: nobody listens): stale, removed, after checking it is still the same
//    inode.
// 2. The new socket is bound inside a fresh private directory next to the path (mkdtemp, then chmod
//    0700), chmod-ed to 0600 and made listening there: nobody else can reach it while its mode is
//    still the umask's, and the process-wide umask is never changed (other threads may create files).
// 3. It is then moved onto the path with renameat2(RENAME_NOREPLACE) (link(2) on file systems without
//    it): atomic, keeps the mode, and never replaces a file that appeared meanwhile (that start fails).
//
// Remaining races, both needing another process writing into the same directory at the same moment:
// between the stale check and unlink(2) in step 1, the stale socket could be replaced by something else,
// which would then be removed; and at stop(), between lstat and unlink, our socket could be replaced
// the same way. Whoever can do that can also delete files in that directory directly.

#include "socket_path.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "visiongraph/core/error.hpp"

namespace vg::service::detail {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a socket";
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error("control socket " + path + " " + what);
}

/// Step 1: leave nothing but a free path (or throw).
void clear_stale_socket(const std::string& path) {
  struct stat before{};
  if (::lstat(path.c_str(), &before) != 0) {
    if (errno == ENOENT) return;
    fail(path, "cannot be inspected: " + errno_text(errno));
  }
  if (!S_ISSOCK(before.st_mode))
    fail(path, std::string("exists and is not a socket (it is ") + kind_of(before.st_mode) + "); not removing it");

  const sockaddr_un addr = unix_address(path);
  UniqueFd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!probe.valid()) fail(path, "cannot be checked: socket: " + errno_text(errno));
  int rc;
  do {
    rc = ::connect(probe.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
  } while (rc != 0 && errno == EINTR);
  const int err = rc == 0 ? 0 : errno;
  probe.reset();
  // EAGAIN: its listen backlog is full, so someone is listening.
  if (rc == 0 || err == EAGAIN) fail(path, "is in use by a running process");
  if (err != ECONNREFUSED)
    fail(path, "exists and cannot be checked (connect: " + errno_text(err) + "); not removing it");

  struct stat now{};
  if (::lstat(path.c_str(), &now) != 0) {
    if (errno == ENOENT) return;  // someone else removed it meanwhile
    fail(path, "cannot be inspected: " + errno_text(errno));
  }
  if (now.st_dev != before.st_dev || now.st_ino != before.st_ino || !S_ISSOCK(now.st_mode))
    fail(path, "changed while it was being checked; not removing it");
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    fail(path, "is a stale socket that cannot be removed: " + errno_text(errno));
}

/// Removes the private directory (and the socket name in it, if still there) on every exit.
struct PrivateDir {
  std::string dir;
  std::string socket;
  ~PrivateDir() {
    if (!socket.empty()) ::unlink(socket.c_str());
    if (!dir.empty()) ::rmdir(dir.c_str());
  }
};

}  // namespace

ListeningSocket listen_at(const std::string& path, int backlog) {
  (void)unix_address(path);  // throws for an empty or over-long path
  clear_stale_socket(path);

  // Step 2: bind in a private directory in the same directory (so the move in step 3 stays on one
  // file system).
  const std::size_t slash = path.rfind('/');
  const std::string prefix = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  std::string dir_template = prefix + ".vgXXXXXX";
  const std::size_t temp_length = dir_template.size() + 2;  // + "/s"
  if (temp_length > max_socket_path())
    throw Error("control socket path '" + path + "' is too long: its directory name leaves no room for the " +
                std::to_string(temp_length - prefix.size()) + "-character temporary name the server binds first (at most " +
                std::to_string(max_socket_path()) + " characters in all)");
  std::vector<char> buffer(dir_template.begin(), dir_template.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr)
    fail(path, "cannot be created: no private directory in '" + (prefix.empty() ? std::string(".") : prefix) +
                   "': " + errno_text(errno));
  PrivateDir temp;
  temp.dir = buffer.data();
  // mkdtemp asks for 0700 but the umask may take bits away; never more than 0700 either way.
  if (::chmod(temp.dir.c_str(), 0700) != 0) fail(path, "cannot be created: chmod " + temp.dir + ": " + errno_text(errno));
  const std::string temp_socket = temp.dir + "/s";
  const sockaddr_un temp_addr = unix_address(temp_socket);

  ListeningSocket out;
  out.fd.reset(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!out.fd.valid()) fail(path, "cannot be created: socket: " + errno_text(errno));
  if (::bind(out.fd.get(), reinterpret_cast<const sockaddr*>(&temp_addr), sizeof(temp_addr)) != 0)
    fail(path, "cannot be created: bind " + temp_socket + ": " + errno_text(errno));
  temp.socket = temp_socket;
  if (::chmod(temp_socket.c_str(), 0600) != 0) fail(path, "cannot be created: chmod " + temp_socket + ": " + errno_text(errno));
  struct stat st{};
  if (::lstat(temp_socket.c_str(), &st) != 0) fail(path, "cannot be created: lstat " + temp_socket + ": " + errno_text(errno));
  out.file = {st.st_dev, st.st_ino};
  // Listen before the socket gets its name: whoever sees the path can connect at once.
  if (::listen(out.fd.get(), backlog) != 0) fail(path, "cannot be created: listen: " + errno_text(errno));

  // Step 3: give it its name, never replacing anything.
  if (::renameat2(AT_FDCWD, temp_socket.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    temp.socket.clear();
    return out;
  }
  int err = errno;
  if (err == EINVAL || err == ENOSYS || err == ENOTSUP) {  // no RENAME_NOREPLACE here: a hard link is atomic too
    if (::link(temp_socket.c_str(), path.c_str()) == 0) return out;  // PrivateDir removes the temporary name
    err = errno;
  }
  if (err == EEXIST) fail(path, "appeared while this server was starting (another server on the same path?); not replacing it");
  fail(path, "cannot be created: " + errno_text(err));
}

bool remove_if_same(const std::string& path, const SocketFileId& file) noexcept {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) return false;
  if (!S_ISSOCK(st.st_mode) || st.st_dev != file.dev || st.st_ino != file.ino) return false;
  return ::unlink(path.c_str()) == 0;
}

}  // namespace vg::service::detail
