#include "visiongraph/npu/fd_backed_allocator.hpp"

#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "fd_block.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::npu {
namespace detail {

Status dmabuf_sync(int fd, bool start, CpuAccess mode, bool& supported) noexcept {
  if (!supported || fd < 0) return Status::ok;
  dma_buf_sync sync{};
  sync.flags = (start ? DMA_BUF_SYNC_START : DMA_BUF_SYNC_END);
  switch (mode) {
    case CpuAccess::read: sync.flags |= DMA_BUF_SYNC_READ; break;
    case CpuAccess::write: sync.flags |= DMA_BUF_SYNC_WRITE; break;
    case CpuAccess::read_write: sync.flags |= DMA_BUF_SYNC_RW; break;
  }
  int rc;
  do {
    rc = ::ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
  } while (rc != 0 && (errno == EINTR || errno == EAGAIN));
  if (rc == 0) return Status::ok;
  if (errno == ENOTTY || errno == EINVAL) {
    // Not a DMA-BUF (memfd) or no cache maintenance: coherent from the CPU's view, nothing to do.
    supported = false;
    return Status::ok;
  }
  return Status::io_error;
}

}  // namespace detail

MemoryBlock FdBackedAllocator::map_fd(int fd, std::size_t length, std::size_t size, std::size_t alignment,
                                      std::string_view what) {
  void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    const int err = errno;
    ::close(fd);
    throw Error(std::string(what) + ": mmap of " + std::to_string(length) + " bytes failed: " + std::strerror(err));
  }
  MemoryBlock block;
  detail::place_in_mapping(block, base, size, alignment);
  block.dmabuf_fd = fd;
  block.handle = new detail::FdBlockRecord{base, length, 0, 0};
  block.owner = this;
  return block;
}

void FdBackedAllocator::release(MemoryBlock& block) noexcept {
  auto* rec = static_cast<detail::FdBlockRecord*>(block.handle);
  if (rec != nullptr) {
    ::munmap(rec->map_base, rec->map_length);
    delete rec;
  }
  if (block.dmabuf_fd >= 0) ::close(block.dmabuf_fd);
  block = MemoryBlock{};
}

Status FdBackedAllocator::begin_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept {
  bool supported = sync_supported_.load(std::memory_order_relaxed);
  const Status s = detail::dmabuf_sync(block.dmabuf_fd, true, mode, supported);
  if (!supported) sync_supported_.store(false, std::memory_order_relaxed);
  return s;
}

Status FdBackedAllocator::end_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept {
  bool supported = sync_supported_.load(std::memory_order_relaxed);
  const Status s = detail::dmabuf_sync(block.dmabuf_fd, false, mode, supported);
  if (!supported) sync_supported_.store(false, std::memory_order_relaxed);
  return s;
}

}  // namespace vg::npu
