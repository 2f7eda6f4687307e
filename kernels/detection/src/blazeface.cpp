#include "visiongraph/kernels/detection/blazeface.hpp"

#include <cmath>
#include <limits>

#include "decode_common.hpp"

namespace vg::detection {
namespace {

constexpr int kHead0Anchors = 512;  // 16x16 grid, 2 anchors per cell (stride 8 at 128)
constexpr float kScoreClip = 100.0f;  // MediaPipe score_clipping_thresh

struct HeadView {
  const TensorRef* scores;
  const TensorRef* regs;
};

template <class T>
void decode_impl(std::span<const TensorRef> t, const DecodeParams& p, CandidateBuffer& out) noexcept {
  // Threshold in logit space: sigmoid is monotonic, so raw >= logit(thr) <=> sigmoid(raw) >= thr. A small
  // margin avoids rounding disagreements; the exact test runs on the survivors below.
  const float thr = p.score_threshold;
  float logit_thr;
  if (thr <= 0.0f) {
    logit_thr = -std::numeric_limits<float>::infinity();
  } else if (thr >= 1.0f) {
    logit_thr = kScoreClip - 1e-3f;
  } else {
    logit_thr = std::log(thr / (1.0f - thr)) - 1e-4f;
  }
  const float sx = static_cast<float>(p.input_w);
  const float sy = static_cast<float>(p.input_h);

  HeadView heads[2];
  int num_heads;
  if (t.size() == 4) {
    heads[0] = {&t[0], &t[2]};
    heads[1] = {&t[1], &t[3]};
    num_heads = 2;
  } else {
    heads[0] = {&t[0], &t[1]};
    num_heads = 1;
  }

  int anchor = 0;
  for (int h = 0; h < num_heads; ++h) {
    const TensorRef& st = *heads[h].scores;
    const TensorRef& rt = *heads[h].regs;
    const T* scores = detail::typed<T>(st);
    const T* regs = detail::typed<T>(rt);
    const detail::Gate<T> gate(st, logit_thr);
    const std::int64_t n = st.num_elements();
    for (std::int64_t i = 0; i < n; ++i, ++anchor) {
      if (!gate.pass(scores[i])) continue;
      float raw = detail::dequantize(st, scores[i]);
      raw = std::fmin(std::fmax(raw, -kScoreClip), kScoreClip);
      const float score = 1.0f / (1.0f + std::exp(-raw));
      if (!(score >= thr)) continue;
      const T* r = regs + i * kBlazeFaceCoords;
      const float w = detail::dequantize(rt, r[2]);
      const float hgt = detail::dequantize(rt, r[3]);
      if (!(w >= 0.0f) || !(hgt >= 0.0f)) continue;  // also drops NaN
      const Point a = blazeface_anchor(anchor);
      const float cx = detail::dequantize(rt, r[0]) + a.x * sx;
      const float cy = detail::dequantize(rt, r[1]) + a.y * sy;
      Candidate c;
      c.x0 = cx - 0.5f * w;
      c.y0 = cy - 0.5f * hgt;
      c.x1 = cx + 0.5f * w;
      c.y1 = cy + 0.5f * hgt;
      c.score = score;
      c.class_id = 0;
      c.index = static_cast<std::uint32_t>(anchor);
      c.num_keypoints = kBlazeFaceKeypoints;
      for (int k = 0; k < kBlazeFaceKeypoints; ++k) {
        c.kp[k][0] = detail::dequantize(rt, r[4 + 2 * k]) + a.x * sx;
        c.kp[k][1] = detail::dequantize(rt, r[5 + 2 * k]) + a.y * sy;
      }
      out.push(c);
    }
  }
}

}  // namespace

Point blazeface_anchor(int i) noexcept {
  // MediaPipe SsdAnchorsCalculator with fixed_anchor_size: loop order layer -> y -> x -> anchor, and every
  // anchor of a cell sits at the cell centre.
  int grid;
  int per_cell;
  int local;
  if (i < kHead0Anchors) {
    grid = 16;
    per_cell = 2;
    local = i;
  } else {
    grid = 8;
    per_cell = 6;
    local = i - kHead0Anchors;
  }
  const int cell = local / per_cell;
  const int y = cell / grid;
  const int x = cell % grid;
  return {(static_cast<float>(x) + 0.5f) / static_cast<float>(grid),
          (static_cast<float>(y) + 0.5f) / static_cast<float>(grid)};
}

void decode_blazeface(std::span<const TensorRef> tensors, const DecodeParams& params,
                      CandidateBuffer& out) noexcept {
  if (tensors.empty() || !params.class_filter.allows(0)) return;
  detail::dispatch_type(tensors[0].type, [&]<class T>() { decode_impl<T>(tensors, params, out); });
}

}  // namespace vg::detection
