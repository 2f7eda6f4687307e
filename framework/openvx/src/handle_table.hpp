#pragma once
// The handle table: what an OpenVX handle (vx_image, vx_reference, ...) given to the application is. Each
// live object has a slot; its handle is an encoded value, never the object's address:
//
//   handle = marker | generation << (1 + index_bits) | index << 1 | 1
//
// - bit 0 (the tag) is always set: a handle is never an aligned object pointer;
// - index: the object's slot; generation: how many objects the slot has held before this one;
// - marker (64-bit hosts): bits 55..63 set. Such an address is outside user space on x86-64 (kernel half
//   or non-canonical) and on AArch64 (bit 55 selects the kernel's translation table, even with the top
//   byte ignored), so code that dereferences a handle as a pointer faults instead of reading an object.
//   32-bit hosts have no bits to spare for it (every address may be mapped there).
//
// Layouts: 64-bit hosts 26 index bits (67 million live objects) and 28 generation bits; 32-bit hosts 20
// index bits (a million live objects) and 11 generation bits, the whole 32-bit word.
//
// Reuse. A released object's slot moves to the next generation and joins a FIFO of free slots; a slot is
// handed out again only while at least `reuse_after` (65,536) free slots wait, so the table grows to that
// many slots first, and between two uses of one slot at least 65,535 other objects were released. A slot
// whose generation would wrap is retired instead; retired slots come back (at generation 0) only when the
// index space is used up. A stale handle names a later object only once its slot went through every
// generation and back to its own:
//   32-bit: at least 2,048 x 65,535 = 134 million releases (and as many creations) after it, guaranteed;
//           in practice about 2^31 = 2.1 billion, since retired slots come back only when the 2^20-slot
//           table is full. (While more than 2^20 - 2^16 objects are alive at once, the 65,535 spacing no
//           longer holds: a 32-bit process cannot hold that many objects in memory anyway.)
//   64-bit: at least 2^28 x 65,535 = 1.8 x 10^13 releases, guaranteed; in practice never (the index space
//           holds 2^26 x 2^28 = 2^54 handle values before a retired slot comes back).
//
// Thread safety: add() and remove() take the table's lock (creation and release are not per-frame work);
// find() takes no lock: two loads of the slot's stamp around the load of its object.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace vg::openvx::handles {

/// The shape of a table: bit widths of the handle's fields, the fixed high bits, and the reuse rule.
struct Layout {
  unsigned index_bits = 0;          ///< slots the table may hold: 2^index_bits
  unsigned generation_bits = 0;     ///< generations a slot goes through before it is retired
  std::uintptr_t marker = 0;        ///< high bits every handle has (above index and generation)
  std::uint32_t reuse_after = 0;    ///< free slots that must wait before the oldest is reused
  unsigned chunk_bits = 12;         ///< slots are allocated 2^chunk_bits at a time (never moved or freed)
};

/// The layout for this process's word size (see the file comment).
Layout default_layout() noexcept;

class HandleTable {
 public:
  explicit HandleTable(const Layout& layout) noexcept;
  ~HandleTable();
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;

  /// A slot for @p object (not null); returns its handle, or 0 when no slot can be had (index space full
  /// of live objects, or no memory for the slots).
  std::uintptr_t add(void* object) noexcept;
  /// Frees the slot of @p handle when it is live (else nothing): the handle is stale from now on.
  void remove(std::uintptr_t handle) noexcept;
  /// The object @p handle names, or null when it is not a live handle of this table. Lock-free.
  void* find(std::uintptr_t handle) const noexcept {
    if ((handle & fixed_mask_) != fixed_bits_) return nullptr;
    const auto index = static_cast<std::uint32_t>((handle >> 1) & index_mask_);
    const Slot* chunk = chunks_[index >> layout_.chunk_bits].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    const Slot& slot = chunk[index & chunk_mask_];
    const std::uint32_t live_stamp = static_cast<std::uint32_t>(((handle >> generation_shift_) & generation_mask_) << 1) | 1u;
    if (slot.stamp.load(std::memory_order_acquire) != live_stamp) return nullptr;
    // Acquire: the stamp loaded next is read after the object (and sees the stamps written before it).
    void* object = slot.object.load(std::memory_order_acquire);
    // Released (and perhaps handed out again) between the two loads: not this handle's object.
    if (slot.stamp.load(std::memory_order_relaxed) != live_stamp) return nullptr;
    return object;
  }

  /// For tests: slots made so far, slots waiting in the free FIFO, retired slots.
  std::size_t slots() const noexcept;
  std::size_t free_slots() const noexcept;
  std::size_t retired_slots() const noexcept;
  const Layout& layout() const noexcept { return layout_; }

 private:
  struct Slot {
    std::atomic<std::uint32_t> stamp{0};  // generation << 1 | live
    std::atomic<void*> object{nullptr};
    std::uint32_t next = 0;  // the next slot of the free FIFO (under the lock)
  };

  Slot& slot(std::uint32_t index) const noexcept {
    return chunks_[index >> layout_.chunk_bits].load(std::memory_order_relaxed)[index & chunk_mask_];
  }
  bool take_free(std::uint32_t& index) noexcept;
  bool take_new(std::uint32_t& index) noexcept;
  void recycle_retired() noexcept;
  std::uintptr_t encode(std::uint32_t index, std::uint32_t generation) const noexcept {
    return fixed_bits_ | static_cast<std::uintptr_t>(generation) << generation_shift_ | static_cast<std::uintptr_t>(index) << 1;
  }

  Layout layout_;
  std::uintptr_t fixed_mask_ = 0, fixed_bits_ = 0;  // the marker and the tag: bits every handle has
  std::uintptr_t index_mask_ = 0, generation_mask_ = 0;
  unsigned generation_shift_ = 0;
  std::uint32_t chunk_mask_ = 0;
  std::size_t chunk_count_ = 0;
  std::atomic<Slot*>* chunks_ = nullptr;  // chunk_count_ entries; a chunk, once there, stays

  mutable std::mutex lock_;
  std::uint32_t made_ = 0;  // slots made (the next new slot's index)
  std::uint32_t free_head_ = 0, free_tail_ = 0, free_count_ = 0;
  std::vector<std::uint32_t> retired_;
};

}  // namespace vg::openvx::handles
