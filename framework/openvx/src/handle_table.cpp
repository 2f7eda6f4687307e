// The handle table (handle_table.hpp): slots in chunks that never move, a FIFO of free slots threaded
// through them, retired slots set aside until the index space is used up.
#include "handle_table.hpp"

#include <new>

namespace vg::openvx::handles {

Layout default_layout() noexcept {
#if UINTPTR_MAX > 0xFFFFFFFFu
  return Layout{26, 28, std::uintptr_t{0x1FF} << 55, 65536, 12};
#else
  return Layout{20, 11, 0, 65536, 12};
#endif
}

HandleTable::HandleTable(const Layout& layout) noexcept : layout_(layout) {
  if (layout_.chunk_bits > layout_.index_bits) layout_.chunk_bits = layout_.index_bits;
  generation_shift_ = 1 + layout_.index_bits;
  index_mask_ = (std::uintptr_t{1} << layout_.index_bits) - 1;
  generation_mask_ = (std::uintptr_t{1} << layout_.generation_bits) - 1;
  // Every bit that is neither index nor generation is fixed: the tag and the marker (zeros elsewhere).
  fixed_mask_ = ~((index_mask_ << 1) | (generation_mask_ << generation_shift_));
  fixed_bits_ = layout_.marker | 1u;
  chunk_mask_ = (std::uint32_t{1} << layout_.chunk_bits) - 1;
  chunk_count_ = std::size_t{1} << (layout_.index_bits - layout_.chunk_bits);
  chunks_ = new (std::nothrow) std::atomic<Slot*>[chunk_count_]();
  if (chunks_ == nullptr) chunk_count_ = 0;  // add() then always fails
}

HandleTable::~HandleTable() {
  for (std::size_t c = 0; c < chunk_count_; ++c) delete[] chunks_[c].load(std::memory_order_relaxed);
  delete[] chunks_;
}

bool HandleTable::take_free(std::uint32_t& index) noexcept {
  if (free_count_ == 0) return false;
  index = free_head_;
  free_head_ = slot(index).next;
  --free_count_;
  return true;
}

bool HandleTable::take_new(std::uint32_t& index) noexcept {
  if (chunk_count_ == 0 || static_cast<std::uintptr_t>(made_) > index_mask_) return false;
  const std::size_t c = made_ >> layout_.chunk_bits;
  if (chunks_[c].load(std::memory_order_relaxed) == nullptr) {
    Slot* chunk = new (std::nothrow) Slot[std::size_t{chunk_mask_} + 1];
    if (chunk == nullptr) return false;
    chunks_[c].store(chunk, std::memory_order_release);  // find() may read it from now on
  }
  index = made_++;
  return true;
}

void HandleTable::recycle_retired() noexcept {
  for (std::uint32_t index : retired_) {
    // Stamp 0 since it was retired: generation 0, not live. Joins the FIFO's tail.
    if (free_count_ == 0) {
      free_head_ = index;
    } else {
      slot(free_tail_).next = index;
    }
    free_tail_ = index;
    ++free_count_;
  }
  retired_.clear();
}

std::uintptr_t HandleTable::add(void* object) noexcept {
  const std::lock_guard guard(lock_);
  std::uint32_t index = 0;
  bool found = free_count_ >= layout_.reuse_after && take_free(index);
  if (!found) found = take_new(index);
  if (!found && static_cast<std::uintptr_t>(made_) > index_mask_) {
    // The index space is used up: free slots are reused without the spacing, and retired slots come back.
    if (free_count_ == 0) recycle_retired();
    found = take_free(index);
  }
  if (!found) return 0;
  Slot& s = slot(index);
  const std::uint32_t generation = s.stamp.load(std::memory_order_relaxed) >> 1;
  // A find() that reads this object (an acquire load) also sees every stamp this slot had before (its
  // second stamp load then refuses a handle of an earlier generation): the release store orders them, the
  // lock brought them here. (A release store rather than a release fence: TSan does not model fences.)
  s.object.store(object, std::memory_order_release);
  s.stamp.store(generation << 1 | 1u, std::memory_order_release);  // publishes the object with it
  return encode(index, generation);
}

void HandleTable::remove(std::uintptr_t handle) noexcept {
  if ((handle & fixed_mask_) != fixed_bits_) return;
  const auto index = static_cast<std::uint32_t>((handle >> 1) & index_mask_);
  const auto generation = static_cast<std::uint32_t>((handle >> generation_shift_) & generation_mask_);
  const std::lock_guard guard(lock_);
  if (index >= made_) return;
  Slot& s = slot(index);
  if (s.stamp.load(std::memory_order_relaxed) != (generation << 1 | 1u)) return;  // not live: stale already
  if (generation == generation_mask_) {
    // The next generation would wrap to handles given out before: the slot retires.
    s.stamp.store(0, std::memory_order_release);
    try {
      retired_.push_back(index);
    } catch (...) {
      // No memory to note it: the slot is simply never used again.
    }
  } else {
    s.stamp.store((generation + 1) << 1, std::memory_order_release);
    if (free_count_ == 0) {
      free_head_ = index;
    } else {
      slot(free_tail_).next = index;
    }
    free_tail_ = index;
    ++free_count_;
  }
  s.object.store(nullptr, std::memory_order_relaxed);
}

std::size_t HandleTable::slots() const noexcept {
  const std::lock_guard guard(lock_);
  return made_;
}

std::size_t HandleTable::free_slots() const noexcept {
  const std::lock_guard guard(lock_);
  return free_count_;
}

std::size_t HandleTable::retired_slots() const noexcept {
  const std::lock_guard guard(lock_);
  return retired_.size();
}

}  // namespace vg::openvx::handles
