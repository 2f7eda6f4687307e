#include "visiongraph/npu/rknpu_allocator.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "fd_block.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/rknpu_ioctl.hpp"

namespace vg::npu {

RknpuAllocator::RknpuAllocator(NpuDevice device) : device_(std::move(device)) {}

MemoryBlock RknpuAllocator::allocate(std::size_t size, std::size_t alignment) {
  const std::size_t length = detail::mapping_length(size, alignment);
  rknpu::MemCreate create{};
  // NON_CONTIGUOUS|CACHEABLE (0x3) is what librknnrt itself allocates with; without an IOMMU the driver
  // drops NON_CONTIGUOUS. Cacheable is required for MEM_SYNC, which the CPU brackets use.
  create.flags = rknpu::mem::kNonContiguous | rknpu::mem::kCacheable;
  create.size = length;
  if (drmIoctl(device_.fd(), rknpu::kIoctlMemCreate, &create) != 0) {
    throw Error("rknpu allocator: MEM_CREATE of " + std::to_string(length) + " bytes on " + device_.path() +
                " failed: " + std::strerror(errno));
  }
  auto destroy = [&] {
    rknpu::MemDestroy d{create.handle, 0, create.obj_addr};
    drmIoctl(device_.fd(), rknpu::kIoctlMemDestroy, &d);
  };
  rknpu::MemMap map{create.handle, 0, 0};
  if (drmIoctl(device_.fd(), rknpu::kIoctlMemMap, &map) != 0) {
    const int err = errno;
    destroy();
    throw Error(std::string("rknpu allocator: MEM_MAP failed: ") + std::strerror(err));
  }
  void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, device_.fd(),
                      static_cast<off_t>(map.offset));
  if (base == MAP_FAILED) {
    const int err = errno;
    destroy();
    throw Error(std::string("rknpu allocator: mmap failed: ") + std::strerror(err));
  }
  int fd = -1;
  if (drmPrimeHandleToFD(device_.fd(), create.handle, DRM_CLOEXEC | DRM_RDWR, &fd) != 0) {
    const int err = errno;
    ::munmap(base, length);
    destroy();
    throw Error(std::string("rknpu allocator: PRIME export (drmPrimeHandleToFD) failed: ") + std::strerror(err));
  }
  MemoryBlock block;
  detail::place_in_mapping(block, base, size, alignment);
  block.dmabuf_fd = fd;
  block.handle = new detail::FdBlockRecord{base, length, create.handle, create.obj_addr};
  block.owner = this;
  return block;
}

void RknpuAllocator::release(MemoryBlock& block) noexcept {
  auto* rec = static_cast<detail::FdBlockRecord*>(block.handle);
  if (rec != nullptr) {
    ::munmap(rec->map_base, rec->map_length);
    rknpu::MemDestroy d{rec->gem_handle, 0, rec->obj_addr};
    drmIoctl(device_.fd(), rknpu::kIoctlMemDestroy, &d);
    delete rec;
  }
  if (block.dmabuf_fd >= 0) ::close(block.dmabuf_fd);
  block = MemoryBlock{};
}

namespace {
Status gem_sync(int drm_fd, const MemoryBlock& block, std::uint32_t direction) noexcept {
  const auto* rec = static_cast<const detail::FdBlockRecord*>(block.handle);
  if (rec == nullptr) return Status::invalid_argument;
  // obj_addr is the kernel's object pointer: the driver casts it back, so it must be exactly MEM_CREATE's value.
  rknpu::MemSync s{direction, 0, rec->obj_addr, 0, rec->map_length};
  return drmIoctl(drm_fd, rknpu::kIoctlMemSync, &s) == 0 ? Status::ok : Status::io_error;
}
}  // namespace

Status RknpuAllocator::begin_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept {
  if (mode == CpuAccess::write) return Status::ok;  // nothing to invalidate before a pure write
  return gem_sync(device_.fd(), block, rknpu::kMemSyncFromDevice);
}

Status RknpuAllocator::end_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept {
  if (mode == CpuAccess::read) return Status::ok;  // nothing to flush after a pure read
  return gem_sync(device_.fd(), block, rknpu::kMemSyncToDevice);
}

}  // namespace vg::npu
