#include "visiongraph/npu/dma_heap_allocator.hpp"

#include <fcntl.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "fd_block.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::npu {

std::vector<std::string> DmaHeapAllocator::default_heaps() {
  // Cached heaps first (the CPU writes every frame; the brackets flush), 32-bit variants for NPUs
  // with a 32-bit DMA mask and no IOMMU (RK356x), CMA last, then Rockchip's RV1106 heap.
  return {"/dev/dma_heap/system",          "/dev/dma_heap/system-dma32",   "/dev/dma_heap/system-uncached",
          "/dev/dma_heap/system-uncached-dma32", "/dev/dma_heap/cma",       "/dev/dma_heap/linux,cma",
          "/dev/dma_heap/cma-uncached",    "/dev/dma_heap/reserved",       "/dev/rk_dma_heap/rk-dma-heap-cma"};
}

std::vector<std::string> DmaHeapAllocator::available_heaps() {
  std::vector<std::string> found;
  std::error_code ec;
  for (const char* dir : {"/dev/dma_heap", "/dev/rk_dma_heap"}) {
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) found.push_back(entry.path().string());
  }
  return found;
}

std::unique_ptr<DmaHeapAllocator> DmaHeapAllocator::open_first(const std::vector<std::string>& paths,
                                                               std::string* why_not) {
  for (const std::string& p : paths) {
    if (::access(p.c_str(), F_OK) != 0) continue;
    try {
      return std::make_unique<DmaHeapAllocator>(p);
    } catch (const Error& e) {
      if (why_not != nullptr) *why_not += std::string(why_not->empty() ? "" : "; ") + e.what();
    }
  }
  if (why_not != nullptr && why_not->empty()) *why_not = "no DMA heap (/dev/dma_heap is absent or empty)";
  return nullptr;
}

DmaHeapAllocator::DmaHeapAllocator(const std::string& path) : path_(path) {
  heap_fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (heap_fd_ < 0) throw Error("DMA heap " + path + ": open failed: " + std::strerror(errno));
  name_ = "dma_heap:" + std::filesystem::path(path).filename().string();
}

DmaHeapAllocator::~DmaHeapAllocator() {
  if (heap_fd_ >= 0) ::close(heap_fd_);
}

MemoryBlock DmaHeapAllocator::allocate(std::size_t size, std::size_t alignment) {
  const std::size_t length = detail::mapping_length(size, alignment);
  dma_heap_allocation_data req{};
  req.len = length;
  req.fd_flags = O_RDWR | O_CLOEXEC;
  if (::ioctl(heap_fd_, DMA_HEAP_IOCTL_ALLOC, &req) != 0) {
    throw Error("DMA heap " + path_ + ": DMA_HEAP_IOCTL_ALLOC of " + std::to_string(length) +
                " bytes failed: " + std::strerror(errno));
  }
  const int fd = static_cast<int>(req.fd);
  return map_fd(fd, length, size, alignment, "DMA heap " + path_);
}

}  // namespace vg::npu
