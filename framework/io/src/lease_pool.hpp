#pragma once
// A fixed pool of lease records shared by a source and the frames it handed out. Allocated once when
// the source opens; handing out and giving back a record never allocates. The pool outlives its source
// while frames are still leased: the source abandons it, and the last release deletes it, so a frame
// stays valid (and its release safe) even after the source is gone.

#include <cstddef>
#include <mutex>
#include <vector>

#include "visiongraph/memory/lease.hpp"

namespace vg::io::detail {

/// Record must have `void reset() noexcept` that gives its resources back (unmap, unref).
template <class Record>
class LeasePool {
 public:
  explicit LeasePool(std::size_t capacity) : records_(capacity), free_(capacity) {
    for (std::size_t i = 0; i < capacity; ++i) free_[i] = capacity - 1 - i;
    free_count_ = capacity;
  }
  LeasePool(const LeasePool&) = delete;
  LeasePool& operator=(const LeasePool&) = delete;

  /// A free record, or null when every record is leased out.
  Record* acquire() noexcept {
    std::lock_guard lock(mutex_);
    if (free_count_ == 0) return nullptr;
    return &records_[free_[--free_count_]];
  }
  /// Give back a record that was acquired but never leased (nothing to reset).
  void give_back_unused(Record* record) noexcept {
    std::lock_guard lock(mutex_);
    free_[free_count_++] = index_of(record);
  }
  /// The lease that resets @p record and returns it to this pool, exactly once.
  Lease lease(Record* record) noexcept { return Lease(&release_record, this, record); }

  std::size_t in_use() const noexcept {
    std::lock_guard lock(mutex_);
    return records_.size() - free_count_;
  }
  std::size_t capacity() const noexcept { return records_.size(); }

  /// The source goes away: delete the pool now, or with the release of its last leased record.
  static void abandon(LeasePool* pool) noexcept {
    bool delete_now = false;
    {
      std::lock_guard lock(pool->mutex_);
      pool->abandoned_ = true;
      delete_now = pool->free_count_ == pool->records_.size();
    }
    if (delete_now) delete pool;
  }

 private:
  std::size_t index_of(const Record* record) const noexcept {
    return static_cast<std::size_t>(record - records_.data());
  }

  static void release_record(void* owner, void* item) noexcept {
    auto* pool = static_cast<LeasePool*>(owner);
    auto* record = static_cast<Record*>(item);
    record->reset();  // outside the lock: unmapping and unreferencing may take a while
    bool delete_now = false;
    {
      std::lock_guard lock(pool->mutex_);
      pool->free_[pool->free_count_++] = pool->index_of(record);
      delete_now = pool->abandoned_ && pool->free_count_ == pool->records_.size();
    }
    if (delete_now) delete pool;
  }

  mutable std::mutex mutex_;
  std::vector<Record> records_;
  std::vector<std::size_t> free_;  // stack of free record indices
  std::size_t free_count_ = 0;
  bool abandoned_ = false;
};

}  // namespace vg::io::detail
