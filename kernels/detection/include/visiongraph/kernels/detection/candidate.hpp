#pragma once
/// @file
/// @brief Decoded, not yet suppressed detection candidates and their bounded buffer.

#include <cstdint>
#include <span>

#include "visiongraph/kernels/detection/detections.hpp"

namespace vg::detection {

/// @brief One candidate in network-input pixels, produced by a decoder and consumed by NMS.
struct Candidate {
  float x0 = 0.0f;
  float y0 = 0.0f;
  float x1 = 0.0f;
  float y1 = 0.0f;
  float score = 0.0f;
  std::int32_t class_id = 0;
  std::uint32_t index = 0;  ///< anchor/cell index in decode order; breaks score ties deterministically
  std::int32_t num_keypoints = 0;
  float kp[kMaxKeypoints][2] = {};

  /// @brief A box given by its centre and size (the YOLO decoders' form), without keypoints.
  static Candidate from_center(float cx, float cy, float w, float h, float score, std::int32_t class_id,
                               std::uint32_t index) noexcept {
    Candidate c;
    c.x0 = cx - 0.5f * w;
    c.y0 = cy - 0.5f * h;
    c.x1 = cx + 0.5f * w;
    c.y1 = cy + 0.5f * h;
    c.score = score;
    c.class_id = class_id;
    c.index = index;
    return c;
  }
};

/// @brief Strict "ranks before" order used everywhere: higher score first, then lower index.
inline bool ranks_before(const Candidate& a, const Candidate& b) noexcept {
  if (a.score != b.score) return a.score > b.score;
  return a.index < b.index;
}

/// @brief Fixed-capacity candidate buffer over caller-owned storage.
///
/// When full it keeps the best `capacity` candidates (min-heap on ranks_before), so a too-low threshold
/// costs O(log capacity) per extra candidate instead of unbounded memory, and the outcome is still
/// deterministic.
/// @code
/// std::vector<Candidate> storage(4096);        // at create
/// CandidateBuffer buf(storage);                // per frame: buf.clear()
/// buf.push(c);
/// @endcode
class CandidateBuffer {
 public:
  CandidateBuffer() = default;
  explicit CandidateBuffer(std::span<Candidate> storage) noexcept : storage_(storage) {}

  void clear() noexcept {
    size_ = 0;
    heap_ = false;
    overflowed_ = 0;
  }
  /// @brief Add a candidate; when full, replaces the worst one if @p c ranks before it.
  void push(const Candidate& c) noexcept;
  /// @brief Minimum score a new candidate needs to be kept (useful to skip work early); -inf when not full.
  float admission_score() const noexcept;

  std::span<Candidate> items() noexcept { return storage_.first(size_); }
  std::span<const Candidate> items() const noexcept { return storage_.first(size_); }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return storage_.size(); }
  /// @brief Candidates that did not fit (evicted or rejected) since clear().
  std::size_t overflowed() const noexcept { return overflowed_; }

 private:
  std::span<Candidate> storage_{};
  std::size_t size_ = 0;
  std::size_t overflowed_ = 0;
  bool heap_ = false;
};

}  // namespace vg::detection
