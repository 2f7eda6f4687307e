#pragma once
/// @file
/// @brief A claim on memory that someone else owns (a GStreamer sample, a V4L2 buffer, a pool slot),
/// given back exactly once.

#include <utility>

namespace vg {

/// @brief Move-only handle that gives a borrowed buffer back to its owner exactly once: on release(),
/// on destruction, or when the holder is overwritten. No allocation: a function pointer and two words.
/// @note Not thread-safe: one owner at a time (moving it hands it over, e.g. from a source thread to the
///       thread that dequeues the graph's done buffers).
/// @code
/// vg::Lease lease(+[](void* pool, void* item) noexcept { static_cast<Pool*>(pool)->put(item); }, &pool, item);
/// frame.lease = std::move(lease);   // the graph input holds it until the frame is done
/// @endcode
class Lease {
 public:
  using ReleaseFn = void (*)(void* owner, void* item) noexcept;

  Lease() noexcept = default;
  Lease(ReleaseFn release, void* owner, void* item) noexcept : release_(release), owner_(owner), item_(item) {}
  Lease(Lease&& other) noexcept
      : release_(std::exchange(other.release_, nullptr)), owner_(other.owner_), item_(other.item_) {}
  Lease& operator=(Lease&& other) noexcept {
    if (this != &other) {
      release();
      release_ = std::exchange(other.release_, nullptr);
      owner_ = other.owner_;
      item_ = other.item_;
    }
    return *this;
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  ~Lease() { release(); }

  /// @brief Give the memory back now. Idempotent: a second call does nothing.
  void release() noexcept {
    if (ReleaseFn fn = std::exchange(release_, nullptr)) fn(owner_, item_);
  }
  /// @brief True while the memory is still held.
  bool held() const noexcept { return release_ != nullptr; }
  void* owner() const noexcept { return owner_; }
  void* item() const noexcept { return item_; }

 private:
  ReleaseFn release_ = nullptr;
  void* owner_ = nullptr;
  void* item_ = nullptr;
};

}  // namespace vg
