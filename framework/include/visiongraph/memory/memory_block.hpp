#pragma once
/// @file
/// @brief A block of memory backing a data object: a CPU mapping and, when fd-backed, a DMA-BUF.

#include <cstddef>

namespace vg {

class Allocator;

/// @brief One allocation (or one imported external buffer).
struct MemoryBlock {
  void* data = nullptr;       ///< CPU-visible address (mapped); may be null for device-only memory
  std::size_t size = 0;       ///< bytes usable from data
  int dmabuf_fd = -1;         ///< DMA-BUF file descriptor, or -1 when not fd-backed
  std::size_t fd_offset = 0;  ///< byte offset of data inside the DMA-BUF
  void* handle = nullptr;     ///< allocator-private bookkeeping
  Allocator* owner = nullptr; ///< allocator that must release it; null for imported memory

  bool is_dmabuf() const noexcept { return dmabuf_fd >= 0; }
};

}  // namespace vg
