#pragma once
/// @file
/// @brief memfd-backed allocator: a real file descriptor per block, available on every Linux host.

#include "visiongraph/npu/fd_backed_allocator.hpp"

namespace vg::npu {

/// @brief Blocks backed by memfd_create + ftruncate + mmap(MAP_SHARED).
///
/// A memfd is not a DMA-BUF, so no device can import it, but it is a real fd: every fd-based
/// zero-copy path (bind by fd at create, select by index per frame) runs on a host without an NPU.
/// The CPU access brackets try DMA_BUF_IOCTL_SYNC once; memfd answers ENOTTY, which is remembered
/// and then skipped.
/// @note allocate/release on the verify thread; the access brackets are thread-safe and allocation-free.
/// @code
/// vg::npu::MemfdAllocator memfd;
/// vg::MemoryBlock b = memfd.allocate(4096, 64);   // b.dmabuf_fd >= 0, b.data mapped
/// memfd.release(b);
/// @endcode
class MemfdAllocator final : public FdBackedAllocator {
 public:
  std::string_view name() const noexcept override { return "memfd"; }
  MemoryBlock allocate(std::size_t size, std::size_t alignment) override;
};

}  // namespace vg::npu
