#pragma once
// Where every OpenVX object lives. A handle is the object's address, so an allocator that hands a freed
// address to the next object would let a released handle name that later object (a stale vxImage passing
// for a new one). The arena does not hand an address out twice: objects are placed one after another in
// address space reserved for them, and a page whose objects are all gone gives its memory back but keeps
// its addresses. The registry of live objects (object.hpp) then refuses every stale handle.
//
// On 64-bit hosts address space is never given back (a gibibyte of objects a day lasts millennia). A 32-bit
// process has 3 GiB of it in all, shared with its images: there a chunk whose objects are all gone waits in
// a quarantine of kQuarantineChunks emptied chunks and is unmapped only when more chunks have emptied after
// it (or when the system has no address space left for a new chunk). An address can then come back, but
// only after that many chunks of newer objects have all been released.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>

namespace vg::openvx::arena {

/// How an arena uses address space.
struct Policy {
  std::size_t chunk_bytes = 0;         ///< reserved per mmap
  std::size_t quarantine_chunks = 0;   ///< emptied chunks kept reserved before the oldest is unmapped
  bool keep_addresses = true;          ///< never unmap (quarantine unused)
};

/// The policy for this process's word size (see the file comment).
Policy default_policy() noexcept;

/// An arena of objects at addresses not reused (within its policy). Thread-safe; creation and release of
/// objects are not per-frame work, so one lock serialises them.
class AddressArena {
 public:
  explicit AddressArena(Policy policy) noexcept : policy_(policy) {}
  ~AddressArena();  // unmaps every chunk (the process-wide arena is never destroyed)
  AddressArena(const AddressArena&) = delete;
  AddressArena& operator=(const AddressArena&) = delete;

  /// @p size bytes, 16-byte aligned, at an address not used before by this arena's objects; null when no
  /// memory or address space is left, or for a size beyond half a chunk.
  void* allocate(std::size_t size) noexcept;
  /// Gives back what allocate() returned.
  void release(void* object) noexcept;

  std::size_t bytes_in_use() const noexcept;
  /// Chunks currently mapped (the current one, those holding live objects, the quarantine).
  std::size_t chunks_mapped() const noexcept;

 private:
  bool new_chunk() noexcept;
  void unmap_quarantined(std::size_t keep) noexcept;

  Policy policy_;
  mutable std::mutex lock_;
  std::uintptr_t next_ = 0;  // where the next object goes
  std::uintptr_t end_ = 0;   // end of the current chunk
  std::uintptr_t page_ = 0;  // page size
  std::unordered_map<std::uintptr_t, std::uint32_t> live_per_page_;  // pages holding live objects only
  std::map<std::uintptr_t, std::size_t> live_per_chunk_;  // every mapped chunk's start -> live objects
  std::deque<std::uintptr_t> quarantine_;                 // emptied old chunks, oldest first
  std::size_t in_use_ = 0;
};

/// The process-wide arena (default_policy()) that every OpenVX object comes from.
void* allocate(std::size_t size) noexcept;
void release(void* object) noexcept;
/// Bytes of object memory currently allocated (for tests).
std::size_t bytes_in_use() noexcept;

}  // namespace vg::openvx::arena
