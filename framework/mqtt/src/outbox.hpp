#pragma once
// The publisher's outbox: a bounded ring of fixed-size message slots, allocated once. Any number of
// producers push (lock-free, no allocation); one consumer (the network thread) peeks and pops in order.
// The per-slot sequence numbers follow Dmitry Vyukov's bounded MPMC queue: a producer claims a position
// with one CAS, copies, then publishes the slot with a release store the consumer acquires.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace vg::mqtt::detail {

class Outbox {
 public:
  /// Throws std::bad_alloc when capacity x slot_bytes cannot be reserved.
  Outbox(std::size_t capacity, std::size_t slot_bytes);
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  /// Copy @p payload (payload.size() <= slot_bytes) into the next slot. false: full, nothing taken.
  bool try_push(std::string_view payload) noexcept;

  /// Consumer only: the oldest complete message, or false when there is none (yet).
  bool peek(std::string_view& out) const noexcept;
  /// Consumer only: free the slot peek() returned.
  void pop() noexcept;

  /// Messages pushed and not popped (exact for the consumer; a snapshot for others).
  std::size_t size() const noexcept;
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  struct Slot {
    std::atomic<std::uint64_t> sequence{0};
    std::size_t size = 0;
  };
  std::size_t capacity_;
  std::size_t slot_bytes_;
  std::unique_ptr<Slot[]> slots_;
  // Left uninitialised on purpose: the kernel commits a page only when a message is written into it.
  std::unique_ptr<char[]> storage_;
  alignas(64) std::atomic<std::uint64_t> enqueue_pos_{0};
  alignas(64) std::atomic<std::uint64_t> dequeue_pos_{0};  // written by the consumer only
};

}  // namespace vg::mqtt::detail
