#pragma once
/// @file
/// @brief Latest-wins frame handoff from one producer thread (a camera) to one consumer (a graph).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "visiongraph/core/status.hpp"

namespace vg {

/// @brief A fixed pool of image slots handed from one producer to one consumer, latest frame wins.
///
/// The producer takes a free slot with acquire_write(), fills it and publish()es it as the single
/// "latest ready" frame. The consumer takes the freshest ready frame with acquire_read(). A ready
/// frame that the consumer did not take before the next publish() goes back to the free set and is
/// counted as dropped. Slots are owned through move-only leases: every successful acquire is
/// released exactly once, by publish() or by the lease's destructor/reset().
///
/// All memory is allocated by init() (or given to it); nothing after init() allocates, throws or
/// locks. Every operation after init() is lock-free (a few atomic operations); only acquire_read()
/// with a timeout may sleep, and only while nothing is ready.
///
/// @note Thread safety: exactly one producer thread calls acquire_write()/publish(), exactly one
///       consumer thread calls acquire_read(). A lease may be released (destroyed, reset()) on any
///       thread. counters(), free_slots() and has_ready() may be called from any thread. init()
///       must complete before the threads start, and the pool must outlive all of its leases.
///
/// With at most one lease held by each side at a time (the normal use), acquire_write() always
/// succeeds: the consumer holds <= 1 slot and the ready frame is 1 slot, so with slot_count() >= 3
/// one slot is free. Each extra lease a side keeps at the same time needs one more slot; without it
/// acquire_write() returns Status::busy.
///
/// @code
/// vg::ImageBufferPool pool;
/// if (pool.init(/*slot_count=*/4, /*slot_bytes=*/640 * 480 * 3) != vg::Status::ok) return;
///
/// // producer thread (camera)
/// vg::ImageBufferPool::WriteLease w;
/// if (pool.acquire_write(w) == vg::Status::ok) {
///   capture_into(w.data(), w.size());
///   (void)pool.publish(std::move(w), now_ns());     // older unread frame, if any, is dropped
/// }
///
/// // consumer thread (graph)
/// vg::ImageBufferPool::ReadLease r;
/// if (pool.acquire_read(r, std::chrono::milliseconds(50)) == vg::Status::ok) {
///   process(r.data(), r.size(), r.sequence(), r.timestamp_ns());
/// }  // r gives its slot back when destroyed, reset() or reused by the next acquire_read
/// @endcode
class ImageBufferPool {
 public:
  static constexpr std::size_t kMinSlots = 3;   ///< producer slot + ready slot + consumer slot
  static constexpr std::size_t kMaxSlots = 64;  ///< one bit per slot in the free set
  static constexpr std::uint32_t kNoSlot = 0xFFFF'FFFFu;  ///< slot() of an empty lease
  static constexpr std::size_t kCacheLine = 64;

  class WriteLease;
  class ReadLease;

  /// @brief Snapshot of the counters. Exact when both sides are idle:
  ///        published == consumed + dropped + (pending ? 1 : 0).
  struct Counters {
    std::uint64_t published = 0;  ///< frames published (== sequence of the newest one)
    std::uint64_t consumed = 0;   ///< frames handed to the consumer
    std::uint64_t dropped = 0;    ///< frames replaced by a newer one before the consumer took them
    bool pending = false;         ///< a published frame waits for the consumer
  };

  /// @brief An empty pool; every operation returns Status::not_verified until init() succeeds.
  ImageBufferPool() noexcept = default;
  /// @brief Frees owned memory. All leases must have been released (asserted in debug builds).
  ~ImageBufferPool();

  ImageBufferPool(const ImageBufferPool&) = delete;
  ImageBufferPool& operator=(const ImageBufferPool&) = delete;
  ImageBufferPool(ImageBufferPool&&) = delete;
  ImageBufferPool& operator=(ImageBufferPool&&) = delete;

  /// @brief Allocates @p slot_count slots of @p slot_bytes each, each aligned to @p alignment.
  /// @return ok; invalid_argument (slot_count outside [kMinSlots, kMaxSlots], slot_bytes == 0,
  ///         alignment not a power of two); out_of_memory; busy if the pool is already initialized.
  [[nodiscard]] Status init(std::size_t slot_count, std::size_t slot_bytes,
                            std::size_t alignment = kCacheLine) noexcept;

  /// @brief Uses caller-owned memory, one span per slot (e.g. mapped DMA-BUFs). The memory must
  ///        outlive the pool. All spans must be non-null, of equal non-zero size, and disjoint.
  /// @return ok; invalid_argument (count outside [kMinSlots, kMaxSlots], null, unequal or
  ///         overlapping spans); out_of_memory; busy if the pool is already initialized.
  [[nodiscard]] Status init(std::span<const std::span<std::uint8_t>> slots) noexcept;

  // ---- producer ---------------------------------------------------------------------------------

  /// @brief Takes a free slot for writing. @p out is reset first (an unpublished slot it held goes
  ///        back to the free set). Never returns the ready slot or a slot the consumer holds.
  /// @return ok; busy when no slot is free (only if a side holds several leases); not_verified.
  [[nodiscard]] Status acquire_write(WriteLease& out) noexcept;

  /// @brief Makes the lease's slot the latest ready frame, with the next sequence number
  ///        (1, 2, ...) and @p timestamp_ns. A ready frame not consumed yet goes back to the free
  ///        set (dropped).
  ///        Always consumes @p lease: on failure its slot is released to the pool it came from.
  /// @return ok; invalid_argument for an empty lease or one from another pool.
  [[nodiscard]] Status publish(WriteLease lease, std::int64_t timestamp_ns) noexcept;

  // ---- consumer ---------------------------------------------------------------------------------

  /// @brief Takes the freshest ready frame. When one is ready, whatever @p out held is released
  ///        first, then @p out holds the new frame. When none is ready, @p out is left unchanged.
  /// @return ok; no_data when nothing was published since the consumer last took a frame;
  ///         not_verified.
  [[nodiscard]] Status acquire_read(ReadLease& out) noexcept;

  /// @brief Like acquire_read(out), but waits up to @p timeout for a frame to be published.
  ///        Sleeps (futex on Linux) instead of spinning; a publish wakes it at once.
  /// @return ok; timeout when nothing was published within @p timeout (a timeout <= 0 tries once);
  ///         stopped once close() was called (a blocked call returns at once); not_verified.
  [[nodiscard]] Status acquire_read(ReadLease& out, std::chrono::nanoseconds timeout) noexcept;

  /// @brief Ends the handoff (e.g. when the graph stops): a consumer blocked in acquire_read(out,
  ///        timeout) returns `stopped` at once, and so does every later blocking read. Leases still
  ///        held stay valid and are released as usual. Any thread; idempotent.
  void close() noexcept;
  [[nodiscard]] bool is_closed() const noexcept { return closed_.load(std::memory_order_acquire); }

  // ---- any thread -------------------------------------------------------------------------------

  /// @brief Counter snapshot (see Counters). Each field is read atomically; the set is exact when
  ///        both sides are idle, and published >= consumed + dropped always holds.
  [[nodiscard]] Counters counters() const noexcept;
  /// @brief True when a published frame waits for the consumer.
  [[nodiscard]] bool has_ready() const noexcept;
  /// @brief Number of slots in the free set (neither leased nor ready).
  [[nodiscard]] std::size_t free_slots() const noexcept;
  /// @brief Number of slots (0 before init()).
  [[nodiscard]] std::size_t slot_count() const noexcept { return slot_count_; }
  /// @brief Bytes per slot (0 before init()).
  [[nodiscard]] std::size_t slot_bytes() const noexcept { return slot_bytes_; }
  /// @brief Start of slot @p index (for pre-binding buffers, e.g. registering them with a device);
  ///        nullptr for an index out of range. Accessing the bytes still requires a lease.
  [[nodiscard]] std::uint8_t* slot_data(std::size_t index) const noexcept;

 private:
  // Per-slot state. Metadata is written only by the side that currently owns the slot; ownership
  // moves through the atomics below, which order these plain accesses.
  struct alignas(kCacheLine) Slot {
    std::uint8_t* data = nullptr;
    std::uint64_t sequence = 0;
    std::int64_t timestamp_ns = 0;
  };
  struct AlignedDelete {
    std::size_t alignment;
    void operator()(std::uint8_t* p) const noexcept;
  };

  [[nodiscard]] Status init_slots(std::size_t count) noexcept;
  void release_slot(std::uint32_t slot) noexcept;
  void wait_for_publish(std::uint32_t seen_wake, std::chrono::nanoseconds timeout) noexcept;
  void wake_consumer() noexcept;
  [[nodiscard]] bool initialized() const noexcept { return slot_count_ != 0; }

  // Written by init() only.
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<std::uint8_t, AlignedDelete> storage_{nullptr, AlignedDelete{kCacheLine}};
  std::size_t slot_count_ = 0;
  std::size_t slot_bytes_ = 0;
  std::uint64_t all_slots_mask_ = 0;

  // The single "latest ready" slot index, or kNoSlot. Producer: exchange(slot); consumer:
  // exchange(kNoSlot). Whoever's exchange returns a slot owns it: that makes each published frame
  // go to exactly one of "consumed" (consumer) or "dropped" (producer).
  alignas(kCacheLine) std::atomic<std::uint32_t> latest_{kNoSlot};
  // The free set: bit i set = slot i free. Bits are set by any release (fetch_or, release order)
  // and cleared only by acquire_write (CAS, acquire order).
  alignas(kCacheLine) std::atomic<std::uint64_t> free_mask_{0};
  // Producer-written.
  alignas(kCacheLine) std::atomic<std::uint64_t> published_{0};
  std::atomic<std::uint64_t> dropped_{0};
  // Consumer-written.
  alignas(kCacheLine) std::atomic<std::uint64_t> consumed_{0};
  std::atomic<std::uint32_t> waiters_{0};  // consumers sleeping in acquire_read(out, timeout)
  // The word a blocked consumer sleeps on: bumped by every publish that sees a waiter and by close(),
  // so a sleep started after reading it ends as soon as anything changes (no wake-up can be lost).
  alignas(kCacheLine) std::atomic<std::uint32_t> wake_seq_{0};
  std::atomic<bool> closed_{false};

  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
};

/// @brief Exclusive write access to one slot, from ImageBufferPool::acquire_write().
///        Give it to publish(); destroying or reset()ting it unpublished frees the slot.
/// @note Not shared: one thread uses a lease at a time. Move-only; the pool must outlive it.
/// @code
/// vg::ImageBufferPool::WriteLease w;
/// if (pool.acquire_write(w) == vg::Status::ok) {
///   if (!capture_into(w.data(), w.size())) return;  // w's destructor frees the slot
///   (void)pool.publish(std::move(w), timestamp_ns);
/// }
/// @endcode
class ImageBufferPool::WriteLease {
 public:
  WriteLease() noexcept = default;
  ~WriteLease() { reset(); }
  WriteLease(WriteLease&& other) noexcept { take(other); }
  /// @brief Releases the slot held by *this, then takes @p other's.
  WriteLease& operator=(WriteLease&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  WriteLease(const WriteLease&) = delete;
  WriteLease& operator=(const WriteLease&) = delete;

  [[nodiscard]] bool valid() const noexcept { return pool_ != nullptr; }
  explicit operator bool() const noexcept { return valid(); }
  /// @brief Writable bytes of the slot (nullptr when empty).
  [[nodiscard]] std::uint8_t* data() const noexcept { return data_; }
  /// @brief Bytes in the slot (0 when empty).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::span<std::uint8_t> bytes() const noexcept { return {data_, size_}; }
  /// @brief Slot index in [0, slot_count()), or kNoSlot when empty.
  [[nodiscard]] std::uint32_t slot() const noexcept { return slot_; }
  /// @brief Returns the slot to the free set unpublished. No-op when empty.
  void reset() noexcept {
    if (pool_ != nullptr) {
      pool_->release_slot(slot_);
      clear();
    }
  }

 private:
  friend class ImageBufferPool;
  WriteLease(ImageBufferPool* pool, std::uint32_t slot, std::uint8_t* data,
             std::size_t size) noexcept
      : pool_(pool), data_(data), size_(size), slot_(slot) {}
  void take(WriteLease& other) noexcept {
    pool_ = other.pool_;
    data_ = other.data_;
    size_ = other.size_;
    slot_ = other.slot_;
    other.clear();
  }
  void clear() noexcept {
    pool_ = nullptr;
    data_ = nullptr;
    size_ = 0;
    slot_ = kNoSlot;
  }

  ImageBufferPool* pool_ = nullptr;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint32_t slot_ = kNoSlot;
};

/// @brief Exclusive access to one published frame, from ImageBufferPool::acquire_read().
///        Destroying or reset()ting it returns the slot to the free set.
/// @note Not shared: one thread uses a lease at a time. Move-only; the pool must outlive it.
/// @code
/// vg::ImageBufferPool::ReadLease r;               // keep it across frames
/// while (running) {
///   if (pool.acquire_read(r, std::chrono::milliseconds(100)) != vg::Status::ok) continue;
///   run_graph(r.bytes(), r.sequence(), r.timestamp_ns());   // previous frame already released
/// }
/// @endcode
class ImageBufferPool::ReadLease {
 public:
  ReadLease() noexcept = default;
  ~ReadLease() { reset(); }
  ReadLease(ReadLease&& other) noexcept { take(other); }
  /// @brief Releases the slot held by *this, then takes @p other's.
  ReadLease& operator=(ReadLease&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  ReadLease(const ReadLease&) = delete;
  ReadLease& operator=(const ReadLease&) = delete;

  [[nodiscard]] bool valid() const noexcept { return pool_ != nullptr; }
  explicit operator bool() const noexcept { return valid(); }
  /// @brief The frame's bytes (nullptr when empty).
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }
  /// @brief The same bytes, writable: the consumer owns the slot exclusively, so in-place
  ///        processing is allowed. The producer never reads them; it overwrites them on reuse.
  [[nodiscard]] std::uint8_t* mutable_data() const noexcept { return data_; }
  /// @brief Bytes in the slot (0 when empty).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }
  /// @brief Slot index in [0, slot_count()), or kNoSlot when empty.
  [[nodiscard]] std::uint32_t slot() const noexcept { return slot_; }
  /// @brief Sequence number from publish(): 1 for the first frame, +1 per publish (0 if empty).
  [[nodiscard]] std::uint64_t sequence() const noexcept { return sequence_; }
  /// @brief Capture timestamp given to publish() (0 when empty).
  [[nodiscard]] std::int64_t timestamp_ns() const noexcept { return timestamp_ns_; }
  /// @brief Returns the slot to the free set. No-op when empty.
  void reset() noexcept {
    if (pool_ != nullptr) {
      pool_->release_slot(slot_);
      clear();
    }
  }

 private:
  friend class ImageBufferPool;
  ReadLease(ImageBufferPool* pool, std::uint32_t slot, std::uint8_t* data, std::size_t size,
            std::uint64_t sequence, std::int64_t timestamp_ns) noexcept
      : pool_(pool),
        data_(data),
        size_(size),
        sequence_(sequence),
        timestamp_ns_(timestamp_ns),
        slot_(slot) {}
  void take(ReadLease& other) noexcept {
    pool_ = other.pool_;
    data_ = other.data_;
    size_ = other.size_;
    sequence_ = other.sequence_;
    timestamp_ns_ = other.timestamp_ns_;
    slot_ = other.slot_;
    other.clear();
  }
  void clear() noexcept {
    pool_ = nullptr;
    data_ = nullptr;
    size_ = 0;
    sequence_ = 0;
    timestamp_ns_ = 0;
    slot_ = kNoSlot;
  }

  ImageBufferPool* pool_ = nullptr;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint64_t sequence_ = 0;
  std::int64_t timestamp_ns_ = 0;
  std::uint32_t slot_ = kNoSlot;
};

static_assert(std::is_nothrow_move_constructible_v<ImageBufferPool::WriteLease>);
static_assert(std::is_nothrow_move_assignable_v<ImageBufferPool::WriteLease>);
static_assert(std::is_nothrow_move_constructible_v<ImageBufferPool::ReadLease>);
static_assert(std::is_nothrow_move_assignable_v<ImageBufferPool::ReadLease>);
static_assert(!std::is_copy_constructible_v<ImageBufferPool::WriteLease>);
static_assert(!std::is_copy_constructible_v<ImageBufferPool::ReadLease>);
static_assert(alignof(ImageBufferPool) >= ImageBufferPool::kCacheLine);

}  // namespace vg
