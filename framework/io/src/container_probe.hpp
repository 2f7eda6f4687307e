#pragma once
// What a video file's own header says about its size, to tell a truncated file from a short one.
// GStreamer does not report truncation: avidemux, for one, rebuilds a missing index from what is there
// and answers the duration query with the frames that survived.

#include <cstdint>
#include <filesystem>

namespace vg::io::detail {

struct ContainerExtent {
  std::int64_t file_bytes = -1;      // actual size on disk
  std::int64_t declared_bytes = -1;  // size the container's header claims, -1 when not known
  std::int64_t declared_frames = -1; // video frames the header announces, -1 when not known

  bool truncated() const noexcept { return declared_bytes > 0 && file_bytes >= 0 && declared_bytes > file_bytes; }
};

/// Reads RIFF/AVI (RIFF size, avih total frames) and ISO BMFF/MP4/MOV (top-level box extents) headers.
/// Other containers, and unreadable files, give only file_bytes.
ContainerExtent probe_container(const std::filesystem::path& path) noexcept;

}  // namespace vg::io::detail
