#include "visiongraph/memory/allocator.hpp"

#include <cstdlib>
#include <string>

#include "visiongraph/core/error.hpp"

namespace vg {

MemoryBlock HostAllocator::allocate(std::size_t size, std::size_t alignment) {
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  if (!p) throw Error("host allocator: out of memory for " + std::to_string(size) + " bytes");
  MemoryBlock block;
  block.data = p;
  block.size = size;
  block.owner = this;
  return block;
}

void HostAllocator::release(MemoryBlock& block) noexcept {
  std::free(block.data);
  block = MemoryBlock{};
}

Allocator& default_allocator() noexcept {
  static HostAllocator host;
  return host;
}

}  // namespace vg
