#pragma once
/// @file
/// @brief Linux DMA heap allocator (/dev/dma_heap/*): real DMA-BUFs without the NPU driver.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "visiongraph/npu/fd_backed_allocator.hpp"

namespace vg::npu {

/// @brief DMA-BUFs from a DMA heap via DMA_HEAP_IOCTL_ALLOC, mapped with mmap, synced with DMA_BUF_IOCTL_SYNC.
/// @note allocate/release on the verify thread; the access brackets are thread-safe and allocation-free.
/// @code
/// if (auto heap = vg::npu::DmaHeapAllocator::open_first(vg::npu::DmaHeapAllocator::default_heaps())) {
///   vg::MemoryBlock b = heap->allocate(1 << 20, 64);
///   heap->release(b);
/// }
/// @endcode
class DmaHeapAllocator final : public FdBackedAllocator {
 public:
  /// @brief Opens the heap device at @p path (e.g. /dev/dma_heap/system). Throws vg::Error on failure.
  explicit DmaHeapAllocator(const std::string& path);
  ~DmaHeapAllocator() override;
  DmaHeapAllocator(const DmaHeapAllocator&) = delete;
  DmaHeapAllocator& operator=(const DmaHeapAllocator&) = delete;

  /// @brief Heap paths in order of preference (cached system heap first: the CPU writes frames).
  static std::vector<std::string> default_heaps();
  /// @brief Heap device paths that exist on this machine.
  static std::vector<std::string> available_heaps();
  /// @brief The first heap of @p paths that opens; null when none does (reasons appended to @p why_not).
  static std::unique_ptr<DmaHeapAllocator> open_first(const std::vector<std::string>& paths,
                                                      std::string* why_not = nullptr);

  std::string_view name() const noexcept override { return name_; }
  MemoryBlock allocate(std::size_t size, std::size_t alignment) override;

 private:
  int heap_fd_ = -1;
  std::string path_;
  std::string name_;  ///< "dma_heap:<heap>"
};

}  // namespace vg::npu
