#pragma once
/// @file
/// @brief A bounded multi-producer multi-consumer queue, allocated once (Vyukov's sequence-per-cell ring).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

namespace vg {

/// @brief Fixed-capacity MPMC ring with try-semantics. Capacity is rounded up to a power of two.
/// @note Thread-safe for any number of producers and consumers; lock-free; no allocation after construction.
/// @code
/// vg::BoundedQueue<int> q(8);
/// bool pushed = q.try_push(1);
/// int v; bool popped = q.try_pop(v);
/// @endcode
template <class T>
class BoundedQueue {
  static_assert(std::is_nothrow_copy_assignable_v<T> && std::is_nothrow_default_constructible_v<T>);

 public:
  explicit BoundedQueue(std::size_t capacity) : mask_(round_up(capacity) - 1), cells_(new Cell[mask_ + 1]) {
    for (std::size_t i = 0; i <= mask_; ++i) cells_[i].sequence.store(i, std::memory_order_relaxed);
  }
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  std::size_t capacity() const noexcept { return mask_ + 1; }

  [[nodiscard]] bool try_push(const T& value) noexcept {
    std::size_t pos = tail_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& cell = cells_[pos & mask_];
      const std::size_t seq = cell.sequence.load(std::memory_order_acquire);
      const auto diff = static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(pos);
      if (diff == 0) {
        if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          cell.value = value;
          cell.sequence.store(pos + 1, std::memory_order_release);
          return true;
        }
      } else if (diff < 0) {
        return false;  // full
      } else {
        pos = tail_.load(std::memory_order_relaxed);
      }
    }
  }

  [[nodiscard]] bool try_pop(T& out) noexcept {
    std::size_t pos = head_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& cell = cells_[pos & mask_];
      const std::size_t seq = cell.sequence.load(std::memory_order_acquire);
      const auto diff = static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(pos + 1);
      if (diff == 0) {
        if (head_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          out = cell.value;
          cell.sequence.store(pos + mask_ + 1, std::memory_order_release);
          return true;
        }
      } else if (diff < 0) {
        return false;  // empty
      } else {
        pos = head_.load(std::memory_order_relaxed);
      }
    }
  }

 private:
  static std::size_t round_up(std::size_t n) noexcept {
    std::size_t p = 2;
    while (p < n) p <<= 1;
    return p;
  }
  struct alignas(64) Cell {
    std::atomic<std::size_t> sequence{0};
    T value{};
  };
  const std::size_t mask_;
  std::unique_ptr<Cell[]> cells_;
  alignas(64) std::atomic<std::size_t> head_{0};  // consumers
  alignas(64) std::atomic<std::size_t> tail_{0};  // producers
};

}  // namespace vg
