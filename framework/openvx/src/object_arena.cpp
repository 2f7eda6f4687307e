// The object arena (object_arena.hpp): address space reserved in large chunks, objects placed in order,
// a count of live objects per page, and a page whose count drops to zero returned with MADV_DONTNEED (its
// addresses stay reserved). On 32-bit hosts emptied chunks pass through a quarantine before being unmapped.
#include "object_arena.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

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

// Each allocation starts with its size, and objects are aligned as operator new aligns them.
constexpr std::size_t kAlignment = 16;
constexpr std::size_t kHeader = kAlignment;

std::uintptr_t round_up(std::uintptr_t value, std::uintptr_t to) noexcept { return (value + to - 1) / to * to; }

}  // namespace

Policy default_policy() noexcept {
  if constexpr (sizeof(void*) >= 8) return Policy{std::size_t{1} << 30, 0, true};
  // 16 MiB chunks, 15 of them (240 MiB of address space at most) waiting after they empty: a stale
  // handle can meet a new object only after 240 MiB of newer objects were all released.
  return Policy{std::size_t{16} << 20, 15, false};
}

AddressArena::~AddressArena() {
  for (const auto& [start, live] : live_per_chunk_) (void)munmap(reinterpret_cast<void*>(start), policy_.chunk_bytes);
}

void AddressArena::unmap_quarantined(std::size_t keep) noexcept {
  while (quarantine_.size() > keep) {
    const std::uintptr_t start = quarantine_.front();
    quarantine_.pop_front();
    (void)munmap(reinterpret_cast<void*>(start), policy_.chunk_bytes);
    live_per_chunk_.erase(start);
  }
}

bool AddressArena::new_chunk() noexcept {
  void* chunk = mmap(nullptr, policy_.chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (chunk == MAP_FAILED && !quarantine_.empty()) {
    // No address space left: working beats the quarantine.
    unmap_quarantined(0);
    chunk = mmap(nullptr, policy_.chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  }
  if (chunk == MAP_FAILED) return false;
  const auto start = reinterpret_cast<std::uintptr_t>(chunk);
  try {
    live_per_chunk_.emplace(start, 0);
    if (!policy_.keep_addresses) {
      // The chunk being left (the rest of it stays unused, so its addresses are not reused either) is
      // quarantined now if its objects are already gone; otherwise when its last one goes.
      auto old = end_ != 0 ? live_per_chunk_.find(end_ - policy_.chunk_bytes) : live_per_chunk_.end();
      if (old != live_per_chunk_.end() && old->second == 0) quarantine_.push_back(old->first);
    }
  } catch (...) {
    live_per_chunk_.erase(start);
    (void)munmap(chunk, policy_.chunk_bytes);
    return false;
  }
  next_ = start;
  end_ = start + policy_.chunk_bytes;
  unmap_quarantined(policy_.quarantine_chunks);
  return true;
}

void* AddressArena::allocate(std::size_t size) noexcept {
  if (size > policy_.chunk_bytes / 2) return nullptr;  // no object is anywhere near this large
  const std::size_t total = round_up(size + kHeader, kAlignment);
  const std::lock_guard guard(lock_);
  if (page_ == 0) page_ = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  if (end_ - next_ < total && !new_chunk()) return nullptr;
  const std::uintptr_t start = next_;
  try {
    for (std::uintptr_t p = start / page_ * page_; p < start + total; p += page_) ++live_per_page_[p];
  } catch (...) {
    for (std::uintptr_t p = start / page_ * page_; p < start + total; p += page_) {
      auto it = live_per_page_.find(p);
      if (it != live_per_page_.end() && --it->second == 0) live_per_page_.erase(it);
    }
    return nullptr;
  }
  next_ += total;
  in_use_ += total;
  ++live_per_chunk_.find(end_ - policy_.chunk_bytes)->second;  // entered by new_chunk()
  auto* header = reinterpret_cast<std::size_t*>(start);
  VG_ARENA_UNPOISON(header, total);
  *header = total;
  return reinterpret_cast<void*>(start + kHeader);
}

void AddressArena::release(void* object) noexcept {
  if (object == nullptr) return;
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(object) - kHeader;
  const std::size_t total = *reinterpret_cast<const std::size_t*>(start);
  VG_ARENA_POISON(reinterpret_cast<void*>(start), total);
  const std::lock_guard guard(lock_);
  in_use_ -= total;
  for (std::uintptr_t p = start / page_ * page_; p < start + total; p += page_) {
    auto it = live_per_page_.find(p);
    if (it == live_per_page_.end() || --it->second != 0) continue;
    live_per_page_.erase(it);
    // A page the next objects will not reach gives its memory back (the addresses stay reserved).
    const bool still_ahead = p + page_ > next_ && p < end_;  // the current chunk's next objects go there
    if (!still_ahead) (void)madvise(reinterpret_cast<void*>(p), page_, MADV_DONTNEED);
  }
  auto chunk = live_per_chunk_.upper_bound(start);
  if (chunk == live_per_chunk_.begin()) return;
  --chunk;
  const bool current = chunk->first == end_ - policy_.chunk_bytes;
  if (--chunk->second != 0 || current || policy_.keep_addresses) return;
  try {
    quarantine_.push_back(chunk->first);
  } catch (...) {
    // No memory for the quarantine's entry: the chunk stays mapped (address space, not memory).
    return;
  }
  unmap_quarantined(policy_.quarantine_chunks);
}

std::size_t AddressArena::bytes_in_use() const noexcept {
  const std::lock_guard guard(lock_);
  return in_use_;
}

std::size_t AddressArena::chunks_mapped() const noexcept {
  const std::lock_guard guard(lock_);
  return live_per_chunk_.size();
}

namespace {
AddressArena& process_arena() noexcept {
  // Never destroyed: objects may be released by other static destructors at exit.
  alignas(AddressArena) static unsigned char storage[sizeof(AddressArena)];
  static AddressArena* const instance = new (storage) AddressArena(default_policy());
  return *instance;
}
}  // namespace

void* allocate(std::size_t size) noexcept { return process_arena().allocate(size); }
void release(void* object) noexcept { process_arena().release(object); }
std::size_t bytes_in_use() noexcept { return process_arena().bytes_in_use(); }

}  // namespace vg::openvx::arena
