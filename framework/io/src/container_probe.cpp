#include "container_probe.hpp"

#include <cstring>
#include <fstream>
#include <system_error>

namespace vg::io::detail {

namespace {

std::uint32_t le32(const unsigned char* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
std::uint32_t be32(const unsigned char* p) {
  return std::uint32_t(p[3]) | std::uint32_t(p[2]) << 8 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[0]) << 24;
}
std::uint64_t be64(const unsigned char* p) { return std::uint64_t(be32(p)) << 32 | be32(p + 4); }

// RIFF: "RIFF" size "AVI " then LIST hdrl with avih first; avih's fifth field is dwTotalFrames.
void probe_riff(std::ifstream& in, ContainerExtent& extent) {
  unsigned char head[64];
  in.read(reinterpret_cast<char*>(head), sizeof head);
  if (in.gcount() < 12) return;
  extent.declared_bytes = static_cast<std::int64_t>(le32(head + 4)) + 8;
  if (in.gcount() < 52 || std::memcmp(head + 8, "AVI ", 4) != 0) return;
  if (std::memcmp(head + 12, "LIST", 4) == 0 && std::memcmp(head + 20, "hdrl", 4) == 0 &&
      std::memcmp(head + 24, "avih", 4) == 0)
    extent.declared_frames = le32(head + 32 + 16);
}

// ISO BMFF: walk the top-level boxes; one reaching past the end of the file declares more bytes.
void probe_iso_bmff(std::ifstream& in, ContainerExtent& extent) {
  std::int64_t position = 0;
  for (int boxes = 0; boxes < 1024 && position < extent.file_bytes; ++boxes) {
    unsigned char header[16];
    in.seekg(position);
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (in.gcount() < 8) return;
    std::uint64_t size = be32(header);
    if (size == 1 && in.gcount() == 16) size = be64(header + 8);
    if (size == 0) return;  // extends to the end of the file by definition
    if (size < 8) return;   // not a box structure we understand
    position += static_cast<std::int64_t>(size);
  }
  if (position > extent.file_bytes) extent.declared_bytes = position;
}

}  // namespace

ContainerExtent probe_container(const std::filesystem::path& path) noexcept {
  ContainerExtent extent;
  try {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return extent;
    extent.file_bytes = static_cast<std::int64_t>(size);
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[8];
    if (!in.read(reinterpret_cast<char*>(magic), sizeof magic)) return extent;
    in.seekg(0);
    if (std::memcmp(magic, "RIFF", 4) == 0) {
      probe_riff(in, extent);
    } else if (std::memcmp(magic + 4, "ftyp", 4) == 0 || std::memcmp(magic + 4, "moov", 4) == 0 ||
               std::memcmp(magic + 4, "mdat", 4) == 0 || std::memcmp(magic + 4, "wide", 4) == 0) {
      probe_iso_bmff(in, extent);
    }
  } catch (...) {  // a probe that fails knows nothing: the file is then judged by GStreamer alone
  }
  return extent;
}

}  // namespace vg::io::detail
