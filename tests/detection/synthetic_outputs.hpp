#pragma once
// Realistic synthetic model outputs shared by the zero-allocation test and the benchmark: mostly
// background (low scores), a few dozen candidates above a typical threshold around a handful of objects.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "visiongraph/kernels/detection/tensor_ref.hpp"

namespace vg::detection::synthetic {

/// Float tensors plus an int8 copy (per-tensor scale/zero point chosen like a calibrated model).
struct Model {
  std::vector<std::vector<float>> f32;
  std::vector<std::vector<std::int8_t>> i8;
  std::vector<TensorRef> refs_f32;
  std::vector<TensorRef> refs_i8;
  int input = 0;

  void add(std::vector<float> data, std::initializer_list<std::int64_t> dims, float scale, int zp) {
    std::vector<std::int8_t> q(data.size());
    for (std::size_t i = 0; i < data.size(); ++i)
      q[i] = static_cast<std::int8_t>(std::clamp<long>(std::lround(data[i] / scale) + zp, -128, 127));
    f32.push_back(std::move(data));
    i8.push_back(std::move(q));
    TensorRef t;
    t.rank = static_cast<int>(dims.size());
    int k = 0;
    for (auto d : dims) t.dims[k++] = d;
    TensorRef a = t, b = t;
    a.type = ElemType::f32;
    b.type = ElemType::i8;
    b.scale = scale;
    b.zero_point = zp;
    refs_f32.push_back(a);
    refs_i8.push_back(b);
    // Pointers are fixed once the vectors stop growing; refresh them all.
    for (std::size_t i = 0; i < f32.size(); ++i) {
      refs_f32[i].data = f32[i].data();
      refs_i8[i].data = i8[i].data();
    }
  }
};

/// BlazeFace 128: 4 tensors, background logits around -7, ~30 anchors around 3 faces with logits 0.5..4.
inline Model blazeface(unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> bg(-7.0f, 1.5f);
  std::uniform_real_distribution<float> hit(0.5f, 4.0f);
  std::normal_distribution<float> jitter(0.0f, 1.5f);
  std::vector<float> s0(512), s1(384), r0(512 * 16), r1(384 * 16);
  for (auto& v : s0) v = bg(rng);
  for (auto& v : s1) v = bg(rng);
  for (auto& v : r0) v = jitter(rng);
  for (auto& v : r1) v = jitter(rng);
  const int faces[3] = {215, 300, 700};
  for (int f : faces) {
    for (int k = 0; k < 10; ++k) {
      const int a = std::clamp(f + k - 5, 0, 895);
      auto& s = a < 512 ? s0 : s1;
      auto& r = a < 512 ? r0 : r1;
      const int local = a < 512 ? a : a - 512;
      s[static_cast<std::size_t>(local)] = hit(rng);
      r[static_cast<std::size_t>(local * 16 + 2)] = 24.0f + jitter(rng);
      r[static_cast<std::size_t>(local * 16 + 3)] = 24.0f + jitter(rng);
    }
  }
  Model m;
  m.input = 128;
  m.add(std::move(s0), {1, 512, 1}, 0.08f, 40);
  m.add(std::move(s1), {1, 384, 1}, 0.08f, 40);
  m.add(std::move(r0), {1, 512, 16}, 0.25f, 0);
  m.add(std::move(r1), {1, 384, 16}, 0.25f, 0);
  return m;
}

/// Places `objects` objects, each lighting up a few neighbouring cells/anchors with high scores.
struct Objects {
  int count = 4;             ///< per head/branch for the multi-output layouts, per tensor otherwise
  int cells_per_object = 4;  ///< neighbouring cells/anchors each object lights up
};

/// YOLOv5 Rockchip layout, 640 input, 80 classes: [1,255,80,80] [1,255,40,40] [1,255,20,20], activated.
inline Model yolov5_heads(unsigned seed = 2, Objects obj = {}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> low(0.0f, 0.04f);
  std::uniform_real_distribution<float> mid(0.3f, 0.7f);
  std::uniform_real_distribution<float> high(0.6f, 0.95f);
  Model m;
  m.input = 640;
  const int grids[3] = {80, 40, 20};
  for (int h = 0; h < 3; ++h) {
    const int g = grids[h], hw = g * g;
    std::vector<float> d(static_cast<std::size_t>(255 * hw));
    for (auto& v : d) v = low(rng);
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < hw; ++c) d[static_cast<std::size_t>((a * 85 + k) * hw + c)] = mid(rng);
    std::uniform_int_distribution<int> cell(0, hw - 2);
    std::uniform_int_distribution<int> cls(0, 79);
    for (int o = 0; o < obj.count; ++o) {
      const int c0 = cell(rng), k = cls(rng);
      for (int j = 0; j < obj.cells_per_object; ++j) {
        const int a = j % 3, c = std::min(c0 + j / 3, hw - 1);
        d[static_cast<std::size_t>((a * 85 + 4) * hw + c)] = high(rng);
        d[static_cast<std::size_t>((a * 85 + 5 + k) * hw + c)] = high(rng);
      }
    }
    m.add(std::move(d), {1, 255, g, g}, 1.0f / 255.0f, -128);
  }
  return m;
}

/// YOLOv5 ONNX layout [1,25200,85]: decoded pixel boxes, obj, class probabilities.
inline Model yolov5_rows(unsigned seed = 3, Objects obj = {10, 4}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> low(0.0f, 0.04f);
  std::uniform_real_distribution<float> pos(0.0f, 640.0f);
  std::uniform_real_distribution<float> size(10.0f, 200.0f);
  std::uniform_real_distribution<float> high(0.6f, 0.95f);
  const int n = 25200;
  std::vector<float> d(static_cast<std::size_t>(n * 85));
  for (int r = 0; r < n; ++r) {
    float* row = &d[static_cast<std::size_t>(r * 85)];
    row[0] = pos(rng);
    row[1] = pos(rng);
    row[2] = size(rng);
    row[3] = size(rng);
    for (int k = 4; k < 85; ++k) row[k] = low(rng);
  }
  std::uniform_int_distribution<int> rowd(0, n - 10);
  std::uniform_int_distribution<int> cls(0, 79);
  for (int o = 0; o < obj.count; ++o) {
    const int r0 = rowd(rng), k = cls(rng);
    for (int j = 0; j < obj.cells_per_object; ++j) {
      float* row = &d[static_cast<std::size_t>((r0 + j) * 85)];
      row[4] = high(rng);
      row[5 + k] = high(rng);
    }
  }
  Model m;
  m.input = 640;
  m.add(std::move(d), {1, n, 85}, 2.6f, -128);  // int8 of pixel boxes is not meaningful; float use only
  return m;
}

/// YOLOv8 Rockchip layout, 640 input, 80 classes: per branch box [1,64,H,W], cls [1,80,H,W] (+ score_sum).
inline Model yolov8_branches(bool score_sum, unsigned seed = 4, Objects obj = {}) {
  std::mt19937 rng(seed);
  // Background class scores of a sigmoid head are ~1e-3; 80 of them must not sum past the threshold.
  std::uniform_real_distribution<float> low(0.0f, 0.005f);
  std::normal_distribution<float> logit(0.0f, 2.0f);
  std::uniform_real_distribution<float> high(0.6f, 0.95f);
  Model m;
  m.input = 640;
  const int grids[3] = {80, 40, 20};
  for (int b = 0; b < 3; ++b) {
    const int g = grids[b], hw = g * g;
    std::vector<float> box(static_cast<std::size_t>(64 * hw)), cls(static_cast<std::size_t>(80 * hw)),
        sum(static_cast<std::size_t>(hw), 0.0f);
    for (auto& v : box) v = logit(rng);
    for (auto& v : cls) v = low(rng);
    std::uniform_int_distribution<int> cell(0, hw - 2);
    std::uniform_int_distribution<int> k(0, 79);
    for (int o = 0; o < obj.count; ++o) {
      const int c0 = cell(rng), c = k(rng);
      for (int j = 0; j < obj.cells_per_object; ++j)
        cls[static_cast<std::size_t>(c * hw + std::min(c0 + j, hw - 1))] = high(rng);
    }
    for (int c = 0; c < 80; ++c)
      for (int i = 0; i < hw; ++i) sum[static_cast<std::size_t>(i)] += cls[static_cast<std::size_t>(c * hw + i)];
    for (auto& v : sum) v = std::min(v, 1.0f);
    m.add(std::move(box), {1, 64, g, g}, 0.06f, 0);
    m.add(std::move(cls), {1, 80, g, g}, 1.0f / 255.0f, -128);
    if (score_sum) m.add(std::move(sum), {1, 1, g, g}, 1.0f / 255.0f, -128);
  }
  return m;
}

/// YOLOv8 ONNX layout [1,84,8400]: cx, cy, w, h rows in pixels, then 80 class-score rows.
inline Model yolov8_columns(unsigned seed = 5, Objects obj = {10, 4}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> low(0.0f, 0.02f);
  std::uniform_real_distribution<float> pos(0.0f, 640.0f);
  std::uniform_real_distribution<float> size(10.0f, 200.0f);
  std::uniform_real_distribution<float> high(0.6f, 0.95f);
  const int n = 8400;
  std::vector<float> d(static_cast<std::size_t>(84 * n));
  for (int i = 0; i < n; ++i) {
    d[static_cast<std::size_t>(i)] = pos(rng);
    d[static_cast<std::size_t>(n + i)] = pos(rng);
    d[static_cast<std::size_t>(2 * n + i)] = size(rng);
    d[static_cast<std::size_t>(3 * n + i)] = size(rng);
  }
  for (std::size_t i = 4 * static_cast<std::size_t>(n); i < d.size(); ++i) d[i] = low(rng);
  std::uniform_int_distribution<int> col(0, n - 10);
  std::uniform_int_distribution<int> cls(0, 79);
  for (int o = 0; o < obj.count; ++o) {
    const int c0 = col(rng), k = cls(rng);
    for (int j = 0; j < obj.cells_per_object; ++j) d[static_cast<std::size_t>((4 + k) * n + c0 + j)] = high(rng);
  }
  Model m;
  m.input = 640;
  m.add(std::move(d), {1, 84, n}, 2.6f, -128);
  return m;
}

}  // namespace vg::detection::synthetic
