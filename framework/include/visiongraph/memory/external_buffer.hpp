#pragma once
/// @file
/// @brief Memory the application brings into a graph buffer: host, DMA-BUF or device-only, with its own
/// plane layout.

#include <cstddef>
#include <cstdint>

#include "visiongraph/data/buffer.hpp"
#include "visiongraph/memory/memory_block.hpp"

namespace vg {

/// @brief One external buffer to import with Graph::import_buffer (OpenVX's swap-handle, with layout).
///
/// - Host memory: block.data is the CPU address of the first byte, block.size the bytes usable from it.
/// - DMA-BUF: additionally block.dmabuf_fd and block.fd_offset (offset of block.data's byte in the fd).
///   block.data may be the CPU mapping of that byte, or null for a buffer the CPU cannot see.
/// - Device-only memory: block.data == nullptr, and block.dmabuf_fd >= 0 or block.handle != nullptr (an
///   opaque handle meaningful to the kernels that read it). Only for data objects marked with
///   Graph::set_device_only, read by kernels whose implementation accepts device memory.
///
/// Plane layout: num_planes == 0 lays the planes out from the data object's metadata (dense rows);
/// otherwise offset[p] is the byte offset of plane p from the start (block.data, or fd_offset in the fd)
/// and stride[p] its bytes per row (tensors: one plane, stride = bytes per row of the innermost image row
/// or the total size for non-image tensors).
struct ExternalBuffer {
  MemoryBlock block{};
  std::uint32_t num_planes = 0;
  std::size_t offset[kMaxPlanes]{};
  std::size_t stride[kMaxPlanes]{};

  bool device_only() const noexcept { return block.data == nullptr; }
};

}  // namespace vg
