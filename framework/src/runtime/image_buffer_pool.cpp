#include "visiongraph/runtime/image_buffer_pool.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <functional>
#include <limits>
#include <new>

#include "runtime/event.hpp"

namespace vg {
namespace {

constexpr std::uint64_t bit_of(std::uint32_t slot) noexcept { return std::uint64_t{1} << slot; }

constexpr std::uint64_t mask_of(std::size_t count) noexcept {
  return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
}

}  // namespace

void ImageBufferPool::AlignedDelete::operator()(std::uint8_t* p) const noexcept {
  ::operator delete[](p, std::align_val_t{alignment});
}

ImageBufferPool::~ImageBufferPool() {
  // Every slot is free or the (unconsumed) ready frame; anything else is a lease outliving us.
  [[maybe_unused]] const std::uint32_t ready = latest_.load(std::memory_order_acquire);
  [[maybe_unused]] const std::uint64_t home =
      free_mask_.load(std::memory_order_acquire) | (ready == kNoSlot ? 0 : bit_of(ready));
  assert(home == all_slots_mask_ && "ImageBufferPool destroyed while a lease still holds a slot");
}

Status ImageBufferPool::init_slots(std::size_t count) noexcept {
  slots_.reset(new (std::nothrow) Slot[count]);
  return slots_ ? Status::ok : Status::out_of_memory;
}

Status ImageBufferPool::init(std::size_t slot_count, std::size_t slot_bytes,
                             std::size_t alignment) noexcept {
  if (initialized()) {
    return Status::busy;
  }
  if (slot_count < kMinSlots || slot_count > kMaxSlots || slot_bytes == 0 ||
      !std::has_single_bit(alignment)) {
    return Status::invalid_argument;
  }
  // Round each slot up to the alignment so every slot starts aligned.
  if (slot_bytes > std::numeric_limits<std::size_t>::max() - (alignment - 1)) {
    return Status::invalid_argument;
  }
  const std::size_t stride = (slot_bytes + alignment - 1) & ~(alignment - 1);
  if (stride > std::numeric_limits<std::size_t>::max() / slot_count) {
    return Status::invalid_argument;
  }
  auto* raw = static_cast<std::uint8_t*>(
      ::operator new[](stride * slot_count, std::align_val_t{alignment}, std::nothrow));
  if (raw == nullptr) {
    return Status::out_of_memory;
  }
  std::unique_ptr<std::uint8_t, AlignedDelete> storage(raw, AlignedDelete{alignment});
  if (const Status st = init_slots(slot_count); st != Status::ok) {
    return st;
  }
  for (std::size_t i = 0; i < slot_count; ++i) {
    slots_[i].data = raw + i * stride;
  }
  storage_ = std::move(storage);
  slot_bytes_ = slot_bytes;
  all_slots_mask_ = mask_of(slot_count);
  free_mask_.store(all_slots_mask_, std::memory_order_release);
  slot_count_ = slot_count;  // last: marks the pool initialized
  return Status::ok;
}

Status ImageBufferPool::init(std::span<const std::span<std::uint8_t>> slots) noexcept {
  if (initialized()) {
    return Status::busy;
  }
  if (slots.size() < kMinSlots || slots.size() > kMaxSlots) {
    return Status::invalid_argument;
  }
  const std::size_t bytes = slots[0].size();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].data() == nullptr || slots[i].size() == 0 || slots[i].size() != bytes) {
      return Status::invalid_argument;
    }
    for (std::size_t j = 0; j < i; ++j) {  // pairwise disjoint (N <= 64, once at init)
      const std::less<const std::uint8_t*> before;
      const std::uint8_t* a = slots[i].data();
      const std::uint8_t* b = slots[j].data();
      if (!(before(a + bytes - 1, b) || before(b + bytes - 1, a))) {
        return Status::invalid_argument;
      }
    }
  }
  if (const Status st = init_slots(slots.size()); st != Status::ok) {
    return st;
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    slots_[i].data = slots[i].data();
  }
  slot_bytes_ = bytes;
  all_slots_mask_ = mask_of(slots.size());
  free_mask_.store(all_slots_mask_, std::memory_order_release);
  slot_count_ = slots.size();
  return Status::ok;
}

Status ImageBufferPool::acquire_write(WriteLease& out) noexcept {
  if (!initialized()) {
    return Status::not_verified;
  }
  out.reset();
  // Only acquire_write clears bits, and the ready slot and leased slots have no bit, so any set
  // bit is a slot nobody else can touch. The CAS claims exactly that bit while releases may set
  // others concurrently; its acquire order pairs with the releasing fetch_or, so the previous
  // owner's accesses to the bytes happen-before ours.
  std::uint64_t mask = free_mask_.load(std::memory_order_relaxed);
  while (mask != 0) {
    const std::uint64_t lowest = mask & (~mask + 1);
    if (free_mask_.compare_exchange_weak(mask, mask & ~lowest, std::memory_order_acquire,
                                         std::memory_order_relaxed)) {
      const auto slot = static_cast<std::uint32_t>(std::countr_zero(lowest));
      out = WriteLease(this, slot, slots_[slot].data, slot_bytes_);
      return Status::ok;
    }
  }
  return Status::busy;
}

Status ImageBufferPool::publish(WriteLease lease, std::int64_t timestamp_ns) noexcept {
  if (!lease.valid() || lease.pool_ != this) {
    return Status::invalid_argument;  // `lease` releases its slot (to its own pool) on return
  }
  const std::uint32_t slot = lease.slot_;
  lease.clear();  // ownership moves to latest_ below

  const std::uint64_t sequence = published_.load(std::memory_order_relaxed) + 1;
  slots_[slot].sequence = sequence;
  slots_[slot].timestamp_ns = timestamp_ns;
  published_.store(sequence, std::memory_order_relaxed);

  // Release: the bytes and metadata written above become visible to the consumer that takes this
  // slot. seq_cst: pairs with the consumer's waiters_ increment (either it sees this frame before
  // sleeping, or we see it waiting and wake it).
  const std::uint32_t previous = latest_.exchange(slot, std::memory_order_seq_cst);
  if (previous != kNoSlot) {
    // The consumer did not take it; our exchange removed it from latest_, so it is ours to free.
    dropped_.fetch_add(1, std::memory_order_release);
    release_slot(previous);
  }
  if (waiters_.load(std::memory_order_seq_cst) != 0) {
    wake_consumer();
  }
  return Status::ok;
}

Status ImageBufferPool::acquire_read(ReadLease& out) noexcept {
  if (!initialized()) {
    return Status::not_verified;
  }
  // Only the consumer empties latest_; the producer only replaces one ready slot by another. So
  // once a ready slot is seen, the exchange below is certain to return one, and `out` may be
  // released first (the consumer never holds two slots, so the producer always finds a free one).
  if (latest_.load(std::memory_order_relaxed) == kNoSlot) {
    return Status::no_data;
  }
  out.reset();
  // Acquire: pairs with publish's exchange, making the producer's writes to the slot visible.
  const std::uint32_t slot = latest_.exchange(kNoSlot, std::memory_order_acq_rel);
  if (slot == kNoSlot) {
    return Status::no_data;  // only reachable if the single-consumer rule is broken
  }
  consumed_.fetch_add(1, std::memory_order_release);
  const Slot& s = slots_[slot];
  out = ReadLease(this, slot, s.data, slot_bytes_, s.sequence, s.timestamp_ns);
  return Status::ok;
}

Status ImageBufferPool::acquire_read(ReadLease& out, std::chrono::nanoseconds timeout) noexcept {
  Status status = acquire_read(out);
  if (status != Status::no_data) {
    return status;
  }
  if (closed_.load(std::memory_order_acquire)) {
    return Status::stopped;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  if (timeout <= std::chrono::nanoseconds::zero()) {
    return Status::timeout;
  }
  const Clock::time_point deadline =
      timeout >= Clock::time_point::max() - start ? Clock::time_point::max() : start + timeout;

  waiters_.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    // Read the wake word before looking: a publish or close() after this read changes it, so the
    // sleep below cannot miss them.
    const std::uint32_t seen_wake = wake_seq_.load(std::memory_order_seq_cst);
    status = acquire_read(out);
    if (status != Status::no_data) {
      break;
    }
    if (closed_.load(std::memory_order_seq_cst)) {
      status = Status::stopped;
      break;
    }
    const Clock::time_point now = Clock::now();
    if (now >= deadline) {
      status = Status::timeout;
      break;
    }
    wait_for_publish(seen_wake, deadline - now);
  }
  waiters_.fetch_sub(1, std::memory_order_relaxed);
  return status;
}

void ImageBufferPool::release_slot(std::uint32_t slot) noexcept {
  // Release: our accesses to the bytes happen-before the next owner's (its acquire CAS).
  [[maybe_unused]] const std::uint64_t before =
      free_mask_.fetch_or(bit_of(slot), std::memory_order_release);
  assert((before & bit_of(slot)) == 0 && "ImageBufferPool slot released twice");
}

void ImageBufferPool::close() noexcept {
  closed_.store(true, std::memory_order_seq_cst);
  wake_consumer();
}

void ImageBufferPool::wait_for_publish(std::uint32_t seen_wake, std::chrono::nanoseconds timeout) noexcept {
  // Sleep while wake_seq_ == seen_wake. The kernel re-checks the word under its lock, so a publish
  // or close() landing before the sleep returns at once; one landing after it bumps the word and
  // wakes us. The caller loops; the 1 s cap only bounds the damage of a wake lost to a bug.
  constexpr std::chrono::nanoseconds kMaxSleep = std::chrono::seconds(1);
  (void)detail::futex_wait(wake_seq_, seen_wake, std::min(timeout, kMaxSleep));
}

void ImageBufferPool::wake_consumer() noexcept {
  wake_seq_.fetch_add(1, std::memory_order_seq_cst);
  detail::futex_wake_all(wake_seq_);  // one consumer at most
}

ImageBufferPool::Counters ImageBufferPool::counters() const noexcept {
  Counters c;
  // Consumer side first, producer side last. Each consumed or dropped frame was published (its
  // published_ store happens-before the release increment that counts it), so every snapshot has
  // published >= consumed + dropped; the full invariant holds exactly when both sides are idle.
  c.consumed = consumed_.load(std::memory_order_acquire);
  c.pending = latest_.load(std::memory_order_acquire) != kNoSlot;
  c.dropped = dropped_.load(std::memory_order_acquire);
  c.published = published_.load(std::memory_order_acquire);
  return c;
}

bool ImageBufferPool::has_ready() const noexcept {
  return latest_.load(std::memory_order_acquire) != kNoSlot;
}

std::size_t ImageBufferPool::free_slots() const noexcept {
  return static_cast<std::size_t>(std::popcount(free_mask_.load(std::memory_order_acquire)));
}

std::uint8_t* ImageBufferPool::slot_data(std::size_t index) const noexcept {
  return index < slot_count_ ? slots_[index].data : nullptr;
}

}  // namespace vg
