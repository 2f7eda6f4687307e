#pragma once
/// @file
/// @brief Common base of the allocators whose blocks are whole file descriptors mapped into memory.

#include <atomic>
#include <cstddef>
#include <string_view>

#include "visiongraph/memory/allocator.hpp"

namespace vg::npu {

/// @brief Maps, unmaps and cache-syncs fd-backed blocks (DMA heaps, memfd). Subclasses only create the fd.
/// The CPU access brackets issue DMA_BUF_IOCTL_SYNC; an fd that answers ENOTTY (memfd) is remembered as
/// coherent and skipped afterwards.
/// @note allocate/release on the verify thread; the access brackets are thread-safe and allocation-free.
class FdBackedAllocator : public Allocator {
 public:
  void release(MemoryBlock& block) noexcept override;
  Status begin_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept override;
  Status end_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept override;

 protected:
  /// @brief Map @p fd (already sized to @p length bytes) and describe @p size bytes aligned to
  /// @p alignment inside it. Takes ownership of @p fd: closes it and throws vg::Error (naming @p what) on failure.
  MemoryBlock map_fd(int fd, std::size_t length, std::size_t size, std::size_t alignment, std::string_view what);

 private:
  std::atomic<bool> sync_supported_{true};
};

}  // namespace vg::npu
