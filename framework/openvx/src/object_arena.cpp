// The object arena (object_arena.hpp): address space reserved in large chunks, objects placed in order,
// a count of live objects per page, and a page whose count drops to zero returned with MADV_DONTNEED (its
// addresses stay reserved, so they are never reused). Object creation and release are not per-frame work;
// one lock serialises them.
#include "object_arena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define VG_ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define VG_ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define VG_ARENA_POISON(p, n) ((void)(p), (void)(n))
#define VG_ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace vg::openvx::arena {
namespace {

// Reserved at a time. 64-bit address space is plentiful (a gibibyte of objects a day lasts millennia), so
// chunks are never unmapped there. A 32-bit process has 3 GiB of it: a chunk whose objects are all gone is
// unmapped, and the system may give its addresses to a later chunk, so there an address comes back only
// after at least a chunk (16 MiB) of newer objects.
constexpr bool kKeepAddresses = sizeof(void*) >= 8;
constexpr std::size_t kChunkBytes = kKeepAddresses ? (std::size_t{1} << 30) : (std::size_t{16} << 20);
// Each allocation starts with its size, and objects are aligned as operator new aligns them.
constexpr std::size_t kAlignment = 16;
constexpr std::size_t kHeader = kAlignment;

struct Arena {
  std::mutex lock;
  std::uintptr_t next = 0;  // where the next object goes
  std::uintptr_t end = 0;   // end of the current chunk
  std::uintptr_t page = 0;  // page size
  std::unordered_map<std::uintptr_t, std::uint32_t> live_per_page;  // pages holding live objects only
  std::map<std::uintptr_t, std::size_t> live_per_chunk;               // chunk start -> live objects (32-bit)
  std::size_t in_use = 0;
};

Arena& arena() noexcept {
  static Arena instance;
  return instance;
}

std::uintptr_t round_up(std::uintptr_t value, std::uintptr_t to) noexcept { return (value + to - 1) / to * to; }

}  // namespace

void* allocate(std::size_t size) noexcept {
  if (size > kChunkBytes / 2) return nullptr;  // no object is anywhere near this large
  const std::size_t total = round_up(size + kHeader, kAlignment);
  Arena& a = arena();
  const std::lock_guard guard(a.lock);
  if (a.page == 0) a.page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  if (a.end - a.next < total) {
    // A fresh reservation; the rest of the old chunk stays unused, so its addresses are never reused either.
    void* chunk = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (chunk == MAP_FAILED) return nullptr;
    const std::uintptr_t old_start = a.end - kChunkBytes;
    if (!kKeepAddresses && a.end != 0) {  // the old chunk goes now if already empty
      auto old = a.live_per_chunk.find(old_start);
      if (old != a.live_per_chunk.end() && old->second == 0) {
        (void)munmap(reinterpret_cast<void*>(old_start), kChunkBytes);
        a.live_per_chunk.erase(old);
      }
    }
    a.next = reinterpret_cast<std::uintptr_t>(chunk);
    a.end = a.next + kChunkBytes;
    if (!kKeepAddresses) {
      try {
        a.live_per_chunk[a.next] = 0;
      } catch (...) {
        (void)munmap(chunk, kChunkBytes);
        a.next = a.end = 0;
        return nullptr;
      }
    }
  }
  const std::uintptr_t start = a.next;
  try {
    for (std::uintptr_t p = start / a.page * a.page; p < start + total; p += a.page) ++a.live_per_page[p];
  } catch (...) {
    for (std::uintptr_t p = start / a.page * a.page; p < start + total; p += a.page) {
      auto it = a.live_per_page.find(p);
      if (it != a.live_per_page.end() && --it->second == 0) a.live_per_page.erase(it);
    }
    return nullptr;
  }
  a.next += total;
  a.in_use += total;
  if constexpr (!kKeepAddresses) {
    auto chunk = a.live_per_chunk.find(a.end - kChunkBytes);
    if (chunk != a.live_per_chunk.end()) ++chunk->second;
  }
  auto* header = reinterpret_cast<std::size_t*>(start);
  VG_ARENA_UNPOISON(header, total);
  *header = total;
  return reinterpret_cast<void*>(start + kHeader);
}

void release(void* object) noexcept {
  if (object == nullptr) return;
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(object) - kHeader;
  const std::size_t total = *reinterpret_cast<const std::size_t*>(start);
  VG_ARENA_POISON(reinterpret_cast<void*>(start), total);
  Arena& a = arena();
  const std::lock_guard guard(a.lock);
  a.in_use -= total;
  for (std::uintptr_t p = start / a.page * a.page; p < start + total; p += a.page) {
    auto it = a.live_per_page.find(p);
    if (it == a.live_per_page.end() || --it->second != 0) continue;
    a.live_per_page.erase(it);
    // A page the next objects will not reach gives its memory back (the addresses stay reserved).
    const bool still_ahead = p + a.page > a.next && p < a.end;  // the current chunk's next objects go there
    if (!still_ahead) (void)madvise(reinterpret_cast<void*>(p), a.page, MADV_DONTNEED);
  }
  if constexpr (!kKeepAddresses) {
    auto chunk = a.live_per_chunk.upper_bound(start);
    if (chunk == a.live_per_chunk.begin()) return;
    --chunk;
    const bool current = chunk->first == a.end - kChunkBytes;
    if (--chunk->second == 0 && !current) {  // an old chunk emptied: its address space goes
      (void)munmap(reinterpret_cast<void*>(chunk->first), kChunkBytes);
      a.live_per_chunk.erase(chunk);
    }
  }
}

std::size_t bytes_in_use() noexcept {
  Arena& a = arena();
  const std::lock_guard guard(a.lock);
  return a.in_use;
}

}  // namespace vg::openvx::arena
