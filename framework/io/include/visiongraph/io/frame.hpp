#pragma once
/// @file
/// @brief One picture delivered by a source: its layout, its memory (borrowed, never copied), its times
/// and the lease that gives the memory back.

#include <array>
#include <cstdint>

#include "visiongraph/data/meta.hpp"
#include "visiongraph/memory/external_buffer.hpp"
#include "visiongraph/memory/lease.hpp"

namespace vg::io {

inline constexpr std::size_t kMaxFrameName = 63;

/// @brief A frame as a source hands it out. The memory belongs to the source (a mapped GstBuffer, a
/// decoded image) until `lease` is released; moving the frame moves the lease.
/// @code
/// vg::io::Frame f;
/// if (source->read(f, 1s) == vg::Status::ok) use(f.memory.block.data, f.meta);   // f.lease gives it back
/// @endcode
struct Frame {
  ImageMeta meta{};          ///< width, height, format; row_stride = stride of plane 0
  ExternalBuffer memory{};   ///< planes (num_planes > 0, offsets and strides from the source), host or DMA-BUF
  std::int64_t capture_ns = 0;  ///< capture time on the monotonic clock (vg::now_ns); 0 when unknown
  std::int64_t media_ns = -1;   ///< position in the stream (buffer PTS, strictly increasing per connection), -1 unknown
  std::uint64_t sequence = 0;   ///< frames this source delivered before this one
  std::array<char, kMaxFrameName + 1> name{};  ///< image files: the file's name (with its extension, at most 63 bytes); else empty
  Lease lease;                  ///< releases the memory back to the source, exactly once

  bool empty() const noexcept { return !lease.held() && memory.block.data == nullptr && memory.block.dmabuf_fd < 0; }
};

}  // namespace vg::io
