#include "visiongraph/npu/dmabuf_allocator.hpp"

#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/dma_heap_allocator.hpp"
#include "visiongraph/npu/drm_device.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rknpu_allocator.hpp"

namespace vg::npu {

DmaBufAllocatorChoice make_dmabuf_allocator() {
  DmaBufAllocatorChoice choice;
  std::string why_npu;
  if (auto dev = NpuDevice::open(&why_npu)) {
    const std::string path = dev->path();
    auto npu = std::make_unique<RknpuAllocator>(std::move(*dev));
    try {
      // One probe allocation: an NPU node that opens but refuses MEM_CREATE must not be chosen.
      MemoryBlock probe = npu->allocate(4096, 64);
      npu->release(probe);
      choice.allocator = std::move(npu);
      choice.kind = "rknpu";
      choice.reason = "rknpu GEM on " + path;
      choice.is_dmabuf = true;
      return choice;
    } catch (const Error& e) {
      why_npu = e.what();
    }
  }
  std::string why_heap;
  if (auto heap = DmaHeapAllocator::open_first(DmaHeapAllocator::default_heaps(), &why_heap)) {
    try {
      MemoryBlock probe = heap->allocate(4096, 64);
      heap->release(probe);
      choice.kind = std::string(heap->name());
      choice.allocator = std::move(heap);
      choice.reason = why_npu;
      choice.is_dmabuf = true;
      return choice;
    } catch (const Error& e) {
      why_heap = e.what();
    }
  }
  choice.allocator = std::make_unique<MemfdAllocator>();
  choice.kind = "memfd";
  choice.reason = why_npu + "; " + why_heap + "; using memfd (real fds, not importable by devices)";
  return choice;
}

}  // namespace vg::npu
