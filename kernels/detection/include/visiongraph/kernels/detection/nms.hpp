#pragma once
/// @file
/// @brief Class-wise hard and weighted non-maximum suppression with fixed caps and preallocated scratch.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "visiongraph/kernels/detection/candidate.hpp"

namespace vg::detection {

/// @brief hard: greedy suppression (keep best, drop IoU > threshold). weighted: MediaPipe
///        WeightedNonMaxSuppression (score-weighted mean of each cluster, seed score).
enum class NmsKind : std::uint8_t { hard, weighted };

bool parse_nms(std::string_view text, NmsKind& out) noexcept;
std::string_view to_string(NmsKind kind) noexcept;

/// @brief NMS parameters. Suppression happens only between candidates of the same class.
struct NmsParams {
  NmsKind kind = NmsKind::hard;
  float iou_threshold = 0.45f;  ///< suppress / merge when IoU > threshold
  int max_det = 100;            ///< total outputs (also bounded by the output span)
  int top_k_per_class = 100;    ///< outputs per class
};

/// @brief Outcome of one NMS run.
struct NmsResult {
  std::size_t count = 0;   ///< detections written to the output
  bool truncated = false;  ///< stopped at max_det (or output capacity) with candidates left
};

/// @brief Working memory for NMS, sized for a maximum number of candidates.
/// @code
/// vg::detection::NmsScratch scratch(4096);   // create time
/// @endcode
struct NmsScratch {
  NmsScratch() = default;
  explicit NmsScratch(std::size_t max_candidates) : order(max_candidates), removed(max_candidates) {}
  std::vector<std::uint32_t> order;   ///< candidate indices sorted by ranks_before
  std::vector<std::uint8_t> removed;  ///< per sorted position: suppressed/merged already
};

/// @brief Intersection over union of two corner boxes (continuous coordinates, no +1). 0 when they do not
///        overlap or when the union is not positive.
float iou(const Candidate& a, const Candidate& b) noexcept;

/// @brief Run NMS on @p in, writing survivors to @p out in rank order (score desc, then index asc).
///
/// Deterministic: ties are broken by Candidate::index. Work is bounded by
/// O(n log n + n * min(max_det, out.size())) for hard NMS and O(n^2) worst case for weighted NMS, n <= scratch
/// capacity. No allocation.
/// @pre in.size() <= scratch.order.size()
NmsResult run_nms(std::span<const Candidate> in, const NmsParams& params, NmsScratch& scratch,
                  std::span<Candidate> out) noexcept;

}  // namespace vg::detection
