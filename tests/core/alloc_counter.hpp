#pragma once
// Counts heap allocations in this process: global operator new/delete are replaced (alloc_counter.cpp),
// and, where no sanitizer owns malloc, malloc/calloc/realloc too. Arm after verify, disarm before asserting.

#include <cstdint>

namespace vg::test {

struct AllocCounts {
  std::uint64_t news = 0;
  std::uint64_t mallocs = 0;  // counted only when malloc_counted() is true
};

void arm_alloc_counter() noexcept;
AllocCounts disarm_alloc_counter() noexcept;
bool malloc_counted() noexcept;

}  // namespace vg::test
