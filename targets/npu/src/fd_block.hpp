#pragma once
// Shared bookkeeping of the fd-backed allocators (private to vg_npu).

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "visiongraph/core/status.hpp"
#include "visiongraph/memory/allocator.hpp"

namespace vg::npu::detail {

/// What release() needs to undo an allocation; stored in MemoryBlock::handle.
struct FdBlockRecord {
  void* map_base = nullptr;
  std::size_t map_length = 0;
  std::uint32_t gem_handle = 0;  // rknpu only
  std::uint64_t obj_addr = 0;    // rknpu only
};

inline std::size_t page_size() noexcept { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

inline std::size_t round_up(std::size_t v, std::size_t a) noexcept { return (v + a - 1) / a * a; }

/// Bytes to map so that @p size bytes fit after aligning to @p alignment (mmap is page aligned).
inline std::size_t mapping_length(std::size_t size, std::size_t alignment) noexcept {
  const std::size_t page = page_size();
  const std::size_t extra = alignment > page ? alignment : 0;
  return round_up((size == 0 ? 1 : size) + extra, page);
}

/// Fills data/fd_offset of @p block from a mapping of the whole fd.
inline void place_in_mapping(MemoryBlock& block, void* base, std::size_t size, std::size_t alignment) noexcept {
  auto addr = reinterpret_cast<std::uintptr_t>(base);
  const std::uintptr_t a = alignment == 0 ? 1 : alignment;
  const std::uintptr_t aligned = (addr + a - 1) / a * a;
  block.data = reinterpret_cast<void*>(aligned);
  block.fd_offset = aligned - addr;
  block.size = size;
}

/// DMA_BUF_IOCTL_SYNC start/end; ENOTTY (memfd, exporters without cache ops) is remembered in @p supported.
Status dmabuf_sync(int fd, bool start, CpuAccess mode, bool& supported) noexcept;

}  // namespace vg::npu::detail
