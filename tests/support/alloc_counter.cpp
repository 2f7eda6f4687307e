#include "alloc_counter.hpp"

#include <sys/prctl.h>

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VG_COUNT_MALLOC 0
#else
#define VG_COUNT_MALLOC 1
#endif

namespace {
std::atomic<bool> g_armed{false};
std::atomic<std::uint64_t> g_news{0};
std::atomic<std::uint64_t> g_mallocs{0};
std::atomic<std::uint64_t> g_deletes{0};
std::atomic<bool> g_targets_only{false};

/// True when the calling thread's allocations count now. A thread's name is read once (prctl does not
/// allocate) and remembered.
bool counting_here() noexcept {
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  if (!g_targets_only.load(std::memory_order_relaxed)) return true;
  thread_local int on_target = -1;
  if (on_target < 0) {
    char name[17] = {};
    (void)prctl(PR_GET_NAME, name, 0, 0, 0);
    on_target = name[0] == 'v' && name[1] == 'g' && name[2] == '-' ? 1 : 0;
  }
  return on_target == 1;
}

void counted_free(void* p) noexcept {
  if (p != nullptr && counting_here()) g_deletes.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}

void* counted_new(std::size_t size) {
  if (counting_here()) g_news.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  if (void* p = std::malloc(size)) return p;
  throw std::bad_alloc();
}
void* counted_new_aligned(std::size_t size, std::align_val_t align) {
  if (counting_here()) g_news.fetch_add(1, std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_new(size); }
void* operator new[](std::size_t size) { return counted_new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_new(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t a) { return counted_new_aligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return counted_new_aligned(size, a); }
// Every variant is replaced: a variant left to the runtime (or a sanitizer) would hand out memory
// that the replaced deletes below then free with std::free.
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return counted_new_aligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return counted_new_aligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }

#if VG_COUNT_MALLOC
// glibc lets a program interpose malloc; forward to the real implementation.
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* __libc_calloc(std::size_t, std::size_t);
extern "C" void* __libc_realloc(void*, std::size_t);
extern "C" void* malloc(std::size_t size) {
  if (counting_here()) g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
extern "C" void* calloc(std::size_t n, std::size_t size) {
  if (counting_here()) g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
extern "C" void* realloc(void* p, std::size_t size) {
  if (counting_here()) g_mallocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
#endif

namespace vg::test {
void arm_alloc_counter(CountedThreads threads) noexcept {
  g_targets_only.store(threads == CountedThreads::graph_targets);
  g_news.store(0);
  g_deletes.store(0);
  g_mallocs.store(0);
  g_armed.store(true);
}
AllocCounts disarm_alloc_counter() noexcept {
  g_armed.store(false);
  return {g_news.load(), g_deletes.load(), g_mallocs.load()};
}
bool malloc_counted() noexcept { return VG_COUNT_MALLOC != 0; }
}  // namespace vg::test
