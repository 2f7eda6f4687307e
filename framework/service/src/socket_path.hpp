#pragma once
// Creating the control socket's file without touching anything we did not create, and removing it
// only while it is still ours. The rules and their remaining races: socket_path.cpp.

#include <sys/types.h>

#include <string>

#include "unix_socket.hpp"

namespace vg::service::detail {

/// Identity of a socket file: its device and inode.
struct SocketFileId {
  dev_t dev = 0;
  ino_t ino = 0;
};

/// A listening, non-blocking socket and the file that names it.
struct ListeningSocket {
  UniqueFd fd;
  SocketFileId file;
};

/// Create a listening socket at @p path with mode 0600, replacing only a stale socket there. Throws
/// vg::Error naming the path: in use, not a socket, path too long, directory not writable, ...
ListeningSocket listen_at(const std::string& path, int backlog);

/// Remove @p path if it still is the socket file @p file. Call it while the socket is still open (the
/// open socket keeps the inode alive, so its number cannot have been reused).
bool remove_if_same(const std::string& path, const SocketFileId& file) noexcept;

}  // namespace vg::service::detail
