#include "visiongraph/kernels/detection/yolov5.hpp"

#include "decode_common.hpp"

namespace vg::detection {
namespace {

// Best allowed class among `count` values spaced `step` apart; returns -1 if no class is allowed.
// Compares in the storage domain (one scale per tensor), so only the winner is dequantized.
template <class T>
int best_class(const T* first, std::int64_t step, int count, const ClassFilter& filter, T& best) noexcept {
  int arg = -1;
  for (int c = 0; c < count; ++c) {
    if (!filter.allows(c)) continue;
    const T v = first[c * step];
    if (arg < 0 || v > best) {
      best = v;
      arg = c;
    }
  }
  return arg;
}

template <class T>
void decode_heads(std::span<const TensorRef> t, const DecodeParams& p, CandidateBuffer& out) noexcept {
  const int fields = static_cast<int>(t[0].dims[1] / 3);
  const int classes = fields - 5;
  std::uint32_t index_base = 0;
  for (int level = 0; level < 3; ++level) {
    // Heads may come in any order; anchors belong to strides, so match them by stride.
    for (const TensorRef& head : t) {
      const int gh = static_cast<int>(head.dims[2]);
      const int gw = static_cast<int>(head.dims[3]);
      const int stride = p.input_h / gh;
      if (stride != (8 << level)) continue;
      const std::int64_t hw = static_cast<std::int64_t>(gh) * gw;
      const T* data = detail::typed<T>(head);
      const detail::Gate<T> obj_gate(head, p.score_threshold);
      const float fstride = static_cast<float>(stride);
      for (int a = 0; a < 3; ++a) {
        const T* base = data + static_cast<std::int64_t>(a) * fields * hw;
        const T* obj = base + 4 * hw;
        const float aw = p.yolov5_anchors[level][2 * a];
        const float ah = p.yolov5_anchors[level][2 * a + 1];
        // score = obj * cls <= obj, so the objectness gate alone rejects almost every cell cheaply.
        detail::for_each_at_least(obj, hw, obj_gate.threshold, [&](std::int64_t cell) {
          T best{};
          const int cls = best_class(base + 5 * hw + cell, hw, classes, p.class_filter, best);
          if (cls < 0) return;
          const float score = detail::dequantize(head, obj[cell]) * detail::dequantize(head, best);
          if (!(score >= p.score_threshold)) return;
          const int i = static_cast<int>(cell / gw);
          const int j = static_cast<int>(cell % gw);
          const float vx = detail::dequantize(head, base[cell]);
          const float vy = detail::dequantize(head, base[hw + cell]);
          const float vw = detail::dequantize(head, base[2 * hw + cell]) * 2.0f;
          const float vh = detail::dequantize(head, base[3 * hw + cell]) * 2.0f;
          const float cx = (vx * 2.0f - 0.5f + static_cast<float>(j)) * fstride;
          const float cy = (vy * 2.0f - 0.5f + static_cast<float>(i)) * fstride;
          const float w = vw * vw * aw;
          const float h = vh * vh * ah;
          out.push(Candidate::from_center(cx, cy, w, h, score, cls, index_base + static_cast<std::uint32_t>(a * hw + cell)));
        });
      }
      index_base += static_cast<std::uint32_t>(3 * hw);
    }
  }
}

template <class T>
void decode_rows(const TensorRef& t, const DecodeParams& p, CandidateBuffer& out) noexcept {
  const std::int64_t rows = t.dims[t.rank - 2];
  const std::int64_t fields = t.dims[t.rank - 1];
  const int classes = static_cast<int>(fields - 5);
  const T* data = detail::typed<T>(t);
  const detail::Gate<T> obj_gate(t, p.score_threshold);
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* row = data + r * fields;
    if (!obj_gate.pass(row[4])) continue;
    T best{};
    const int cls = best_class(row + 5, 1, classes, p.class_filter, best);
    if (cls < 0) continue;
    const float score = detail::dequantize(t, row[4]) * detail::dequantize(t, best);
    if (!(score >= p.score_threshold)) continue;
    const float cx = detail::dequantize(t, row[0]);
    const float cy = detail::dequantize(t, row[1]);
    const float w = detail::dequantize(t, row[2]);
    const float h = detail::dequantize(t, row[3]);
    out.push(Candidate::from_center(cx, cy, w, h, score, cls, static_cast<std::uint32_t>(r)));
  }
}

}  // namespace

void decode_yolov5(std::span<const TensorRef> tensors, const DecodeParams& params,
                   CandidateBuffer& out) noexcept {
  if (tensors.empty()) return;
  detail::dispatch_type(tensors[0].type, [&]<class T>() {
    if (tensors.size() == 1) {
      decode_rows<T>(tensors[0], params, out);
    } else {
      decode_heads<T>(tensors, params, out);
    }
  });
}

}  // namespace vg::detection
