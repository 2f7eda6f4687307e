#pragma once
/// @file
/// @brief Picks the best fd-backed allocator on this machine: rknpu GEM, else a DMA heap, else memfd.

#include <memory>
#include <string>

#include "visiongraph/memory/allocator.hpp"

namespace vg::npu {

/// @brief The allocator chosen and why.
struct DmaBufAllocatorChoice {
  std::unique_ptr<Allocator> allocator;  ///< never null
  std::string kind;                      ///< "rknpu", "dma_heap:system", "memfd"
  std::string reason;                    ///< what was tried and why the better options were skipped
  bool is_dmabuf = false;                ///< true when devices can import the fds (not memfd)
};

/// @brief rknpu GEM when the NPU node opens, else the first usable DMA heap, else memfd.
///        Throws vg::Error only if even memfd_create is unavailable.
/// @code
/// auto choice = vg::npu::make_dmabuf_allocator();
/// std::cout << "allocator: " << choice.kind << " (" << choice.reason << ")\n";
/// @endcode
DmaBufAllocatorChoice make_dmabuf_allocator();

}  // namespace vg::npu
