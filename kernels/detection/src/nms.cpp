#include "visiongraph/kernels/detection/nms.hpp"

#include <algorithm>
#include <numeric>

namespace vg::detection {
namespace {

std::size_t sort_by_rank(std::span<const Candidate> in, NmsScratch& scratch) noexcept {
  const std::size_t n = std::min(in.size(), scratch.order.size());
  std::uint32_t* order = scratch.order.data();
  std::iota(order, order + n, 0u);
  // ranks_before is a strict total order (index breaks ties), so std::sort is deterministic here.
  std::sort(order, order + n, [&](std::uint32_t a, std::uint32_t b) { return ranks_before(in[a], in[b]); });
  return n;
}

std::size_t output_limit(const NmsParams& params, std::span<Candidate> out) noexcept {
  if (params.max_det <= 0 || params.top_k_per_class <= 0) return 0;
  return std::min(static_cast<std::size_t>(params.max_det), out.size());
}

NmsResult hard_nms(std::span<const Candidate> in, const NmsParams& params, NmsScratch& scratch,
                   std::span<Candidate> out) noexcept {
  NmsResult result;
  const std::size_t limit = output_limit(params, out);
  if (limit == 0 || in.empty()) return result;
  const std::size_t n = sort_by_rank(in, scratch);
  const std::uint32_t* order = scratch.order.data();
  std::size_t kept = 0;
  for (std::size_t pos = 0; pos < n; ++pos) {
    const Candidate& c = in[order[pos]];
    int same_class = 0;
    bool suppressed = false;
    for (std::size_t k = 0; k < kept; ++k) {
      if (out[k].class_id != c.class_id) continue;
      ++same_class;
      if (iou(out[k], c) > params.iou_threshold) {
        suppressed = true;
        break;
      }
    }
    if (suppressed || same_class >= params.top_k_per_class) continue;
    out[kept++] = c;
    if (kept == limit) {
      result.truncated = pos + 1 < n;
      break;
    }
  }
  result.count = kept;
  return result;
}

NmsResult weighted_nms(std::span<const Candidate> in, const NmsParams& params, NmsScratch& scratch,
                       std::span<Candidate> out) noexcept {
  NmsResult result;
  const std::size_t limit = output_limit(params, out);
  if (limit == 0 || in.empty()) return result;
  const std::size_t n = sort_by_rank(in, scratch);
  const std::uint32_t* order = scratch.order.data();
  std::uint8_t* removed = scratch.removed.data();
  std::fill(removed, removed + n, std::uint8_t{0});
  std::size_t kept = 0;
  for (std::size_t pos = 0; pos < n; ++pos) {
    if (removed[pos]) continue;
    const Candidate& seed = in[order[pos]];
    int same_class = 0;
    for (std::size_t k = 0; k < kept; ++k) same_class += out[k].class_id == seed.class_id ? 1 : 0;
    if (same_class >= params.top_k_per_class) continue;

    // Cluster = the seed plus every remaining same-class candidate overlapping it by more than the
    // threshold (MediaPipe WeightedNonMaxSuppression); corners and keypoints are score-weighted means.
    double wsum = 0.0;
    double box[4] = {0.0, 0.0, 0.0, 0.0};
    double kp[kMaxKeypoints][2] = {};
    const int nkp = std::clamp(seed.num_keypoints, 0, kMaxKeypoints);
    for (std::size_t q = pos; q < n; ++q) {
      if (removed[q]) continue;
      const Candidate& c = in[order[q]];
      if (c.class_id != seed.class_id) continue;
      if (q != pos && !(iou(c, seed) > params.iou_threshold)) continue;
      removed[q] = 1;
      const double w = c.score;
      wsum += w;
      box[0] += w * c.x0;
      box[1] += w * c.y0;
      box[2] += w * c.x1;
      box[3] += w * c.y1;
      for (int k = 0; k < nkp; ++k) {
        kp[k][0] += w * c.kp[k][0];
        kp[k][1] += w * c.kp[k][1];
      }
    }
    Candidate merged = seed;
    if (wsum > 0.0) {
      merged.x0 = static_cast<float>(box[0] / wsum);
      merged.y0 = static_cast<float>(box[1] / wsum);
      merged.x1 = static_cast<float>(box[2] / wsum);
      merged.y1 = static_cast<float>(box[3] / wsum);
      for (int k = 0; k < nkp; ++k) {
        merged.kp[k][0] = static_cast<float>(kp[k][0] / wsum);
        merged.kp[k][1] = static_cast<float>(kp[k][1] / wsum);
      }
    }
    out[kept++] = merged;
    if (kept == limit) {
      for (std::size_t q = pos + 1; q < n; ++q) {
        if (!removed[q]) {
          result.truncated = true;
          break;
        }
      }
      break;
    }
  }
  result.count = kept;
  return result;
}

}  // namespace

bool parse_nms(std::string_view text, NmsKind& out) noexcept {
  if (text == "hard") {
    out = NmsKind::hard;
  } else if (text == "weighted") {
    out = NmsKind::weighted;
  } else {
    return false;
  }
  return true;
}

std::string_view to_string(NmsKind kind) noexcept {
  return kind == NmsKind::hard ? "hard" : "weighted";
}

float iou(const Candidate& a, const Candidate& b) noexcept {
  const float iw = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float ih = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (!(iw > 0.0f) || !(ih > 0.0f)) return 0.0f;
  const float inter = iw * ih;
  const float uni = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter;
  if (!(uni > 0.0f)) return 0.0f;
  return inter / uni;
}

NmsResult run_nms(std::span<const Candidate> in, const NmsParams& params, NmsScratch& scratch,
                  std::span<Candidate> out) noexcept {
  return params.kind == NmsKind::hard ? hard_nms(in, params, scratch, out)
                                      : weighted_nms(in, params, scratch, out);
}

}  // namespace vg::detection
