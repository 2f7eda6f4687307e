#pragma once
/// @file
/// @brief rknpu GEM allocator: NPU memory from the rknpu driver, exported as DMA-BUF (PRIME).

#include <memory>

#include "visiongraph/memory/allocator.hpp"
#include "visiongraph/npu/drm_device.hpp"

namespace vg::npu {

/// @brief Blocks created with RKNPU MEM_CREATE (cacheable, IOMMU-mapped when available), mapped with
///        MEM_MAP + mmap and exported with drmPrimeHandleToFD so librknnrt can import them by fd.
/// @note allocate/release on the verify thread; the access brackets (RKNPU MEM_SYNC) are thread-safe
///       and allocation-free.
/// @code
/// if (auto dev = vg::npu::NpuDevice::open()) {
///   vg::npu::RknpuAllocator npu(std::move(*dev));
///   vg::MemoryBlock b = npu.allocate(640 * 640 * 3, 64);
/// }
/// @endcode
class RknpuAllocator final : public Allocator {
 public:
  explicit RknpuAllocator(NpuDevice device);
  std::string_view name() const noexcept override { return "rknpu"; }
  MemoryBlock allocate(std::size_t size, std::size_t alignment) override;
  void release(MemoryBlock& block) noexcept override;
  Status begin_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept override;
  Status end_cpu_access(const MemoryBlock& block, CpuAccess mode) noexcept override;
  const NpuDevice& device() const noexcept { return device_; }

 private:
  NpuDevice device_;
};

}  // namespace vg::npu
