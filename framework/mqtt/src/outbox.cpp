// Outbox: see outbox.hpp.

#include "outbox.hpp"

#include <cstring>

namespace vg::mqtt::detail {

Outbox::Outbox(std::size_t capacity, std::size_t slot_bytes)
    : capacity_(capacity),
      slot_bytes_(slot_bytes),
      slots_(new Slot[capacity]),
      storage_(new char[capacity * slot_bytes]) {  // default-initialised: no memset, pages stay untouched
  for (std::size_t i = 0; i < capacity_; ++i) slots_[i].sequence.store(i, std::memory_order_relaxed);
}

bool Outbox::try_push(std::string_view payload) noexcept {
  std::uint64_t pos = enqueue_pos_.load(std::memory_order_relaxed);
  Slot* slot = nullptr;
  for (;;) {
    slot = &slots_[pos % capacity_];
    const std::uint64_t seq = slot->sequence.load(std::memory_order_acquire);
    const auto diff = static_cast<std::int64_t>(seq - pos);
    if (diff == 0) {
      if (enqueue_pos_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) break;
    } else if (diff < 0) {
      return false;  // the slot still holds the message from one lap ago: full
    } else {
      pos = enqueue_pos_.load(std::memory_order_relaxed);
    }
  }
  if (!payload.empty()) std::memcpy(storage_.get() + (pos % capacity_) * slot_bytes_, payload.data(), payload.size());
  slot->size = payload.size();
  slot->sequence.store(pos + 1, std::memory_order_release);
  return true;
}

bool Outbox::peek(std::string_view& out) const noexcept {
  const std::uint64_t pos = dequeue_pos_.load(std::memory_order_relaxed);
  const Slot& slot = slots_[pos % capacity_];
  if (slot.sequence.load(std::memory_order_acquire) != pos + 1) return false;
  out = std::string_view(storage_.get() + (pos % capacity_) * slot_bytes_, slot.size);
  return true;
}

void Outbox::pop() noexcept {
  const std::uint64_t pos = dequeue_pos_.load(std::memory_order_relaxed);
  slots_[pos % capacity_].sequence.store(pos + capacity_, std::memory_order_release);
  dequeue_pos_.store(pos + 1, std::memory_order_relaxed);
}

std::size_t Outbox::size() const noexcept {
  const std::uint64_t out = dequeue_pos_.load(std::memory_order_relaxed);
  const std::uint64_t in = enqueue_pos_.load(std::memory_order_relaxed);
  return in > out ? static_cast<std::size_t>(in - out) : 0;
}

}  // namespace vg::mqtt::detail
