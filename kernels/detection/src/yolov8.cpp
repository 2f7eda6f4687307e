#include "visiongraph/kernels/detection/yolov8.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "decode_common.hpp"

namespace vg::detection {
namespace {

constexpr int kMaxDflBins = 64;

// Per-cell maximum over all allowed class planes, plane by plane: each inner loop is a contiguous
// max-reduction the compiler vectorizes, instead of a strided walk over 80 planes per cell.
template <class T, class B>
void plane_max(const T* planes, std::int64_t cells, int classes, const ClassFilter& filter, B* best) noexcept {
  std::fill(best, best + cells, std::numeric_limits<B>::lowest());
  for (int c = 0; c < classes; ++c) {
    if (!filter.allows(c)) continue;
    detail::max_into(planes + static_cast<std::int64_t>(c) * cells, cells, best);
  }
}

// First allowed class whose value equals the known maximum (lowest id wins ties, deterministic).
template <class T, class B>
int arg_of(const T* first, std::int64_t step, int classes, const ClassFilter& filter, B value) noexcept {
  for (int c = 0; c < classes; ++c)
    if (filter.allows(c) && static_cast<B>(first[c * step]) == value) return c;
  return -1;
}

// Expected bin index of a softmax over `bins` values spaced `step` apart (distribution focal loss).
template <class T>
float dfl_side(const TensorRef& t, const T* first, std::int64_t step, int bins) noexcept {
  float v[kMaxDflBins];
  float m = -std::numeric_limits<float>::infinity();
  for (int k = 0; k < bins; ++k) {
    v[k] = detail::dequantize(t, first[k * step]);
    m = std::max(m, v[k]);
  }
  float sum = 0.0f;
  float acc = 0.0f;
  for (int k = 0; k < bins; ++k) {
    const float e = std::exp(v[k] - m);
    sum += e;
    acc += e * static_cast<float>(k);
  }
  return acc / sum;
}

template <class T>
void decode_branches(std::span<const TensorRef> t, const DecodeParams& p, DecodeScratch& scratch,
                     CandidateBuffer& out) noexcept {
  const std::size_t per = t.size() / 3;
  std::uint32_t index_base = 0;
  for (std::size_t b = 0; b < 3; ++b) {
    const TensorRef& box = t[per * b];
    const TensorRef& cls = t[per * b + 1];
    const TensorRef* sum = per == 3 ? &t[per * b + 2] : nullptr;
    const int gh = static_cast<int>(box.dims[2]);
    const int gw = static_cast<int>(box.dims[3]);
    const std::int64_t hw = static_cast<std::int64_t>(gh) * gw;
    const int bins = std::min(static_cast<int>(box.dims[1] / 4), kMaxDflBins);
    const int classes = static_cast<int>(cls.dims[1]);
    const float stride = static_cast<float>(p.input_h) / static_cast<float>(gh);
    const T* box_data = detail::typed<T>(box);
    const T* cls_data = detail::typed<T>(cls);
    const detail::Gate<T> cls_gate(cls, p.score_threshold);

    auto emit = [&](std::int64_t cell, int class_id, float score) {
      const int i = static_cast<int>(cell / gw);
      const int j = static_cast<int>(cell % gw);
      const float l = dfl_side(box, box_data + 0 * bins * hw + cell, hw, bins);
      const float tp = dfl_side(box, box_data + 1 * bins * hw + cell, hw, bins);
      const float r = dfl_side(box, box_data + 2 * bins * hw + cell, hw, bins);
      const float bt = dfl_side(box, box_data + 3 * bins * hw + cell, hw, bins);
      Candidate c;
      c.x0 = (static_cast<float>(j) + 0.5f - l) * stride;
      c.y0 = (static_cast<float>(i) + 0.5f - tp) * stride;
      c.x1 = (static_cast<float>(j) + 0.5f + r) * stride;
      c.y1 = (static_cast<float>(i) + 0.5f + bt) * stride;
      c.score = score;
      c.class_id = class_id;
      c.index = index_base + static_cast<std::uint32_t>(cell);
      out.push(c);
    };

    // score_sum >= max class score, so a cell below the threshold there cannot pass: one plane decides.
    // Only worth it when it rejects most cells; otherwise the strided per-cell class scan loses to the
    // plane-by-plane maxima below (e.g. a low threshold on a model with a noisy background).
    const T* sum_data = sum != nullptr ? detail::typed<T>(*sum) : nullptr;
    const detail::Gate<T> sum_gate = sum != nullptr ? detail::Gate<T>(*sum, p.score_threshold) : detail::Gate<T>();
    const bool use_sum = sum != nullptr && detail::count_at_least(sum_data, hw, sum_gate.threshold) * 8 <= hw;
    if (use_sum) {
      detail::for_each_at_least(sum_data, hw, sum_gate.threshold, [&](std::int64_t cell) {
        int arg = -1;
        T best{};
        for (int c = 0; c < classes; ++c) {
          if (!p.class_filter.allows(c)) continue;
          const T v = cls_data[c * hw + cell];
          if (arg < 0 || v > best) {
            best = v;
            arg = c;
          }
        }
        if (arg < 0 || !cls_gate.pass(best)) return;
        emit(cell, arg, detail::dequantize(cls, best));
      });
    } else if constexpr (std::is_same_v<T, float>) {
      float* best = scratch.best_real.data();
      plane_max(cls_data, hw, classes, p.class_filter, best);
      detail::for_each_at_least(best, hw, cls_gate.threshold, [&](std::int64_t cell) {
        const int arg = arg_of(cls_data + cell, hw, classes, p.class_filter, best[cell]);
        if (arg >= 0) emit(cell, arg, best[cell]);
      });
    } else {
      std::int16_t* best = scratch.best_q.data();
      plane_max(cls_data, hw, classes, p.class_filter, best);
      detail::for_each_at_least(best, hw, cls_gate.threshold, [&](std::int64_t cell) {
        const int arg = arg_of(cls_data + cell, hw, classes, p.class_filter, best[cell]);
        if (arg >= 0) emit(cell, arg, detail::dequantize(cls, static_cast<T>(best[cell])));
      });
    }
    index_base += static_cast<std::uint32_t>(hw);
  }
}

template <class T>
void decode_columns(const TensorRef& t, const DecodeParams& p, DecodeScratch& scratch,
                    CandidateBuffer& out) noexcept {
  const std::int64_t n = t.dims[t.rank - 1];
  const int classes = static_cast<int>(t.dims[t.rank - 2] - 4);
  const T* data = detail::typed<T>(t);
  const T* cls_data = data + 4 * n;
  const detail::Gate<T> gate(t, p.score_threshold);
  auto emit = [&](std::int64_t k, int class_id, float score) {
    const float cx = detail::dequantize(t, data[k]);
    const float cy = detail::dequantize(t, data[n + k]);
    const float w = detail::dequantize(t, data[2 * n + k]);
    const float h = detail::dequantize(t, data[3 * n + k]);
    out.push(Candidate::from_center(cx, cy, w, h, score, class_id, static_cast<std::uint32_t>(k)));
  };
  if constexpr (std::is_same_v<T, float>) {
    float* best = scratch.best_real.data();
    plane_max(cls_data, n, classes, p.class_filter, best);
    detail::for_each_at_least(best, n, gate.threshold, [&](std::int64_t k) {
      const int arg = arg_of(cls_data + k, n, classes, p.class_filter, best[k]);
      if (arg >= 0) emit(k, arg, best[k]);
    });
  } else {
    std::int16_t* best = scratch.best_q.data();
    plane_max(cls_data, n, classes, p.class_filter, best);
    detail::for_each_at_least(best, n, gate.threshold, [&](std::int64_t k) {
      const int arg = arg_of(cls_data + k, n, classes, p.class_filter, best[k]);
      if (arg >= 0) emit(k, arg, detail::dequantize(t, static_cast<T>(best[k])));
    });
  }
}

}  // namespace

void decode_yolov8(std::span<const TensorRef> tensors, const DecodeParams& params, DecodeScratch& scratch,
                   CandidateBuffer& out) noexcept {
  if (tensors.empty()) return;
  detail::dispatch_type(tensors[0].type, [&]<class T>() {
    if (tensors.size() == 1) {
      decode_columns<T>(tensors[0], params, scratch, out);
    } else {
      decode_branches<T>(tensors, params, scratch, out);
    }
  });
}

}  // namespace vg::detection
