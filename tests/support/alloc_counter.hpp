#pragma once
// Counts heap allocations in this process: global operator new/delete are replaced (alloc_counter.cpp),
// and, where no sanitizer owns malloc, malloc/calloc/realloc too. Arm after verify, disarm before asserting.

// Link the vg_test_alloc_counter library into a test executable to get the counting allocator.

#include <cstdint>

namespace vg::test {

struct AllocCounts {
  std::uint64_t news = 0;
  std::uint64_t deletes = 0;
  std::uint64_t mallocs = 0;  // counted only when malloc_counted() is true
};

/// Which threads' allocations count.
enum class CountedThreads {
  all,
  graph_targets,  ///< only visiongraph target threads (named "vg-..."): the graph, not e.g. GStreamer's
};

void arm_alloc_counter(CountedThreads threads = CountedThreads::all) noexcept;
AllocCounts disarm_alloc_counter() noexcept;
bool malloc_counted() noexcept;

/// RAII form: counts operator new calls between construction and stop(); disarms on destruction.
class AllocationGuard {
 public:
  AllocationGuard() noexcept { arm_alloc_counter(); }
  ~AllocationGuard() { (void)disarm_alloc_counter(); }
  AllocationGuard(const AllocationGuard&) = delete;
  AllocationGuard& operator=(const AllocationGuard&) = delete;
  /// Disarm and return the number of operator new calls seen.
  long stop() noexcept { return static_cast<long>(disarm_alloc_counter().news); }
};

}  // namespace vg::test
