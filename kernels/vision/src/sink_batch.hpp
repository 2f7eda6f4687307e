#pragma once
// Hands a function's results (corners) to the caller's sink a batch at a time: one virtual call per batch
// rather than per item; and a sink into a span. Used by fast_corners.cpp and harris.cpp.
#include <cstddef>
#include <span>

namespace vg::vision::detail {

template <class Item, class Sink, std::size_t kSize = 256>
class SinkBatch {
 public:
  explicit SinkBatch(Sink& sink) noexcept : sink_(sink) {}
  void add(const Item& item) noexcept {
    batch_[count_++] = item;
    if (count_ == kSize) flush();
  }
  /// Passes what is left; returns how many items went to the sink in all.
  std::size_t finish() noexcept {
    flush();
    return found_;
  }

 private:
  void flush() noexcept {
    if (count_ == 0) return;
    sink_.take(std::span<const Item>(batch_, count_));
    found_ += count_;
    count_ = 0;
  }
  Sink& sink_;
  std::size_t count_ = 0, found_ = 0;
  Item batch_[kSize];
};

/// A sink that keeps the first items up to a span's size (the functions' span forms: the count of all
/// items comes from the batch).
template <class Item, class Sink>
class SpanSink final : public Sink {
 public:
  explicit SpanSink(std::span<Item> out) noexcept : out_(out) {}
  void take(std::span<const Item> items) noexcept override {
    const std::size_t n = items.size() < out_.size() - written_ ? items.size() : out_.size() - written_;
    for (std::size_t i = 0; i < n; ++i) out_[written_ + i] = items[i];
    written_ += n;
  }

 private:
  std::span<Item> out_;
  std::size_t written_ = 0;
};

}  // namespace vg::vision::detail
