// Postprocess cost (decode + NMS + inverse letterbox) of the detection kernels against the code a user
// would write with OpenCV: dequantize everything, decode into std::vectors, cv::dnn::NMSBoxes.
// Both sides read the same synthetic outputs (mostly background, a few dozen candidates above threshold).
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "synthetic_outputs.hpp"
#include "visiongraph/kernels/detection/blazeface.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/detection/tracker.hpp"

namespace {

using namespace vg::detection;  // NOLINT: bench brevity

constexpr float kYoloScore = 0.25f;  // Rockchip model zoo BOX_THRESH
constexpr float kYoloIou = 0.45f;    // NMS_THRESH
constexpr float kFaceScore = 0.5f;   // MediaPipe min_score_thresh
constexpr float kFaceIou = 0.3f;

enum class Layout { blazeface, v5_heads, v5_rows, v8_branches, v8_branches_sum, v8_columns };

// ------------------------------------------------------------------------------------------- baseline

// What a user's loop produces before NMS.
struct BaselineOut {
  std::vector<cv::Rect2d> boxes;
  std::vector<float> scores;
  std::vector<int> classes;
  std::vector<std::array<float, 12>> keypoints;
  std::vector<int> keep;
};

std::vector<std::vector<float>> dequantize_all(const std::vector<TensorRef>& refs) {
  std::vector<std::vector<float>> out;
  for (const TensorRef& t : refs) {
    std::vector<float> v(static_cast<std::size_t>(t.num_elements()));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = t.real(static_cast<std::int64_t>(i));
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<const float*> float_views(const std::vector<TensorRef>& refs, std::vector<std::vector<float>>& storage) {
  std::vector<const float*> p;
  if (refs[0].type == ElemType::f32) {
    for (const TensorRef& t : refs) p.push_back(static_cast<const float*>(t.data));
  } else {
    storage = dequantize_all(refs);
    for (const auto& v : storage) p.push_back(v.data());
  }
  return p;
}

void baseline_blazeface(const std::vector<const float*>& t, int s, BaselineOut& o) {
  for (int i = 0; i < 896; ++i) {
    const float raw = i < 512 ? t[0][i] : t[1][i - 512];
    const float score = 1.0f / (1.0f + std::exp(-std::clamp(raw, -100.0f, 100.0f)));
    if (score < kFaceScore) continue;
    const float* r = i < 512 ? t[2] + i * 16 : t[3] + (i - 512) * 16;
    const Point a = blazeface_anchor(i);
    const float cx = r[0] + a.x * s, cy = r[1] + a.y * s;
    o.boxes.emplace_back(cx - r[2] / 2, cy - r[3] / 2, r[2], r[3]);
    o.scores.push_back(score);
    o.classes.push_back(0);
    std::array<float, 12> kp{};
    for (int k = 0; k < 6; ++k) {
      kp[static_cast<std::size_t>(2 * k)] = r[4 + 2 * k] + a.x * s;
      kp[static_cast<std::size_t>(2 * k + 1)] = r[5 + 2 * k] + a.y * s;
    }
    o.keypoints.push_back(kp);
  }
}

void baseline_v5_heads(const std::vector<const float*>& t, const std::vector<TensorRef>& refs, int input,
                       BaselineOut& o) {
  static const float anchors[3][6] = {{10, 13, 16, 30, 33, 23}, {30, 61, 62, 45, 59, 119}, {116, 90, 156, 198, 373, 326}};
  for (std::size_t h = 0; h < 3; ++h) {
    const int g = static_cast<int>(refs[h].dims[2]), hw = g * g, stride = input / g;
    for (int a = 0; a < 3; ++a) {
      const float* base = t[h] + a * 85 * hw;
      for (int cell = 0; cell < hw; ++cell) {
        const float obj = base[4 * hw + cell];
        if (obj < kYoloScore) continue;
        int best = 0;
        float best_v = -1;
        for (int c = 0; c < 80; ++c) {
          const float v = base[(5 + c) * hw + cell];
          if (v > best_v) {
            best_v = v;
            best = c;
          }
        }
        const float score = obj * best_v;
        if (score < kYoloScore) continue;
        const float cx = (base[cell] * 2 - 0.5f + static_cast<float>(cell % g)) * static_cast<float>(stride);
        const float cy = (base[hw + cell] * 2 - 0.5f + static_cast<float>(cell / g)) * static_cast<float>(stride);
        const float w = std::pow(base[2 * hw + cell] * 2, 2.0f) * anchors[h][2 * a];
        const float ht = std::pow(base[3 * hw + cell] * 2, 2.0f) * anchors[h][2 * a + 1];
        o.boxes.emplace_back(cx - w / 2, cy - ht / 2, w, ht);
        o.scores.push_back(score);
        o.classes.push_back(best);
      }
    }
  }
}

void baseline_v5_rows(const float* d, BaselineOut& o) {
  // The OpenCV YOLOv5 sample: per row, objectness then minMaxLoc over the class scores.
  for (int r = 0; r < 25200; ++r) {
    const float* row = d + r * 85;
    if (row[4] < kYoloScore) continue;
    cv::Mat cls(1, 80, CV_32F, const_cast<float*>(row + 5));
    cv::Point id;
    double max_v = 0;
    cv::minMaxLoc(cls, nullptr, &max_v, nullptr, &id);
    const float score = static_cast<float>(max_v) * row[4];
    if (score < kYoloScore) continue;
    o.boxes.emplace_back(row[0] - row[2] / 2, row[1] - row[3] / 2, row[2], row[3]);
    o.scores.push_back(score);
    o.classes.push_back(id.x);
  }
}

float dfl(const float* p, int hw) {
  float m = -1e30f, s = 0, a = 0;
  for (int k = 0; k < 16; ++k) m = std::max(m, p[k * hw]);
  for (int k = 0; k < 16; ++k) {
    const float e = std::exp(p[k * hw] - m);
    s += e;
    a += e * static_cast<float>(k);
  }
  return a / s;
}

void baseline_v8_branches(const std::vector<const float*>& t, const std::vector<TensorRef>& refs, int input,
                          BaselineOut& o) {
  const std::size_t per = refs.size() / 3;
  for (std::size_t b = 0; b < 3; ++b) {
    const float* box = t[per * b];
    const float* cls = t[per * b + 1];
    const int g = static_cast<int>(refs[per * b].dims[2]), hw = g * g;
    const float stride = static_cast<float>(input / g);
    for (int cell = 0; cell < hw; ++cell) {
      int best = 0;
      float best_v = -1;
      for (int c = 0; c < 80; ++c) {
        if (cls[c * hw + cell] > best_v) {
          best_v = cls[c * hw + cell];
          best = c;
        }
      }
      if (best_v < kYoloScore) continue;
      const float i = static_cast<float>(cell / g), j = static_cast<float>(cell % g);
      const float x0 = (j + 0.5f - dfl(box + cell, hw)) * stride, y0 = (i + 0.5f - dfl(box + 16 * hw + cell, hw)) * stride;
      const float x1 = (j + 0.5f + dfl(box + 32 * hw + cell, hw)) * stride, y1 = (i + 0.5f + dfl(box + 48 * hw + cell, hw)) * stride;
      o.boxes.emplace_back(x0, y0, x1 - x0, y1 - y0);
      o.scores.push_back(best_v);
      o.classes.push_back(best);
    }
  }
}

void baseline_v8_columns(const float* d, BaselineOut& o) {
  // The OpenCV YOLOv8 sample: transpose [84,8400] to [8400,84], then minMaxLoc per row.
  cv::Mat out(84, 8400, CV_32F, const_cast<float*>(d));
  cv::Mat rows;
  cv::transpose(out, rows);
  for (int r = 0; r < 8400; ++r) {
    const float* row = rows.ptr<float>(r);
    cv::Mat cls(1, 80, CV_32F, const_cast<float*>(row + 4));
    cv::Point id;
    double max_v = 0;
    cv::minMaxLoc(cls, nullptr, &max_v, nullptr, &id);
    if (max_v < kYoloScore) continue;
    o.boxes.emplace_back(row[0] - row[2] / 2, row[1] - row[3] / 2, row[2], row[3]);
    o.scores.push_back(static_cast<float>(max_v));
    o.classes.push_back(id.x);
  }
}

std::size_t run_baseline(Layout layout, const synthetic::Model& m, bool int8, const LetterboxGeometry& g) {
  const auto& refs = int8 ? m.refs_i8 : m.refs_f32;
  std::vector<std::vector<float>> storage;
  const std::vector<const float*> t = float_views(refs, storage);
  BaselineOut o;
  float score = kYoloScore, iou_thr = kYoloIou;
  switch (layout) {
    case Layout::blazeface:
      baseline_blazeface(t, m.input, o);
      score = kFaceScore;
      iou_thr = kFaceIou;
      break;
    case Layout::v5_heads: baseline_v5_heads(t, refs, m.input, o); break;
    case Layout::v5_rows: baseline_v5_rows(t[0], o); break;
    case Layout::v8_branches:
    case Layout::v8_branches_sum: baseline_v8_branches(t, refs, m.input, o); break;
    case Layout::v8_columns: baseline_v8_columns(t[0], o); break;
  }
  // Class-wise NMS with the usual offset trick (OpenCV 4.6 has no batched NMSBoxes).
  std::vector<cv::Rect2d> shifted(o.boxes);
  for (std::size_t i = 0; i < shifted.size(); ++i) shifted[i].x += 4096.0 * o.classes[i];
  cv::dnn::NMSBoxes(shifted, o.scores, score, iou_thr, o.keep, 1.0f, 100);
  // Back to source pixels, as the kernel does.
  std::size_t n = 0;
  for (int k : o.keep) {
    cv::Rect2d& b = o.boxes[static_cast<std::size_t>(k)];
    const Box sb = to_source(g, Box{static_cast<float>(b.x), static_cast<float>(b.y), static_cast<float>(b.x + b.width),
                                    static_cast<float>(b.y + b.height)});
    benchmark::DoNotOptimize(sb);
    ++n;
  }
  return n;
}

// ------------------------------------------------------------------------------------------- cases

struct Case {
  const char* name;
  Layout layout;
  DecoderKind decoder;
  bool int8;
};

synthetic::Model make(Layout l) {
  switch (l) {
    case Layout::blazeface: return synthetic::blazeface();
    case Layout::v5_heads: return synthetic::yolov5_heads();
    case Layout::v5_rows: return synthetic::yolov5_rows();
    case Layout::v8_branches: return synthetic::yolov8_branches(false);
    case Layout::v8_branches_sum: return synthetic::yolov8_branches(true);
    case Layout::v8_columns: return synthetic::yolov8_columns();
  }
  return {};
}

void bench_ours(benchmark::State& state, Case c) {
  const synthetic::Model m = make(c.layout);
  const auto& refs = c.int8 ? m.refs_i8 : m.refs_f32;
  PostprocessConfig cfg;
  cfg.decoder = c.decoder;
  cfg.decode.input_w = cfg.decode.input_h = m.input;
  const bool face = c.layout == Layout::blazeface;
  cfg.decode.score_threshold = face ? kFaceScore : kYoloScore;
  cfg.nms = NmsParams{face ? NmsKind::weighted : NmsKind::hard, face ? kFaceIou : kYoloIou, 100, 100};
  Postprocessor pp(cfg, refs);
  const LetterboxGeometry g = make_letterbox(1280, 720, m.input, m.input);
  auto pkt = std::make_unique<DetectionPacket>();
  for (auto _ : state) {
    pp.run(refs, g, *pkt);
    benchmark::DoNotOptimize(pkt->count);
    benchmark::ClobberMemory();
  }
  state.counters["detections"] = pkt->count;
}

void bench_baseline(benchmark::State& state, Case c) {
  const synthetic::Model m = make(c.layout);
  const LetterboxGeometry g = make_letterbox(1280, 720, m.input, m.input);
  std::size_t n = 0;
  for (auto _ : state) {
    n = run_baseline(c.layout, m, c.int8, g);
    benchmark::DoNotOptimize(n);
  }
  state.counters["detections"] = static_cast<double>(n);
}

const Case kCases[] = {
    {"blazeface128_f32", Layout::blazeface, DecoderKind::blazeface, false},
    {"blazeface128_i8", Layout::blazeface, DecoderKind::blazeface, true},
    {"yolov5_640_3heads_f32", Layout::v5_heads, DecoderKind::yolov5, false},
    {"yolov5_640_3heads_i8", Layout::v5_heads, DecoderKind::yolov5, true},
    {"yolov5_640_onnx_f32", Layout::v5_rows, DecoderKind::yolov5, false},
    {"yolov8_640_6out_f32", Layout::v8_branches, DecoderKind::yolov8, false},
    {"yolov8_640_6out_i8", Layout::v8_branches, DecoderKind::yolov8, true},
    {"yolov8_640_9out_i8", Layout::v8_branches_sum, DecoderKind::yolov8, true},
    {"yolov8_640_onnx_f32", Layout::v8_columns, DecoderKind::yolov8, false},
};

// ------------------------------------------------------------------------------------------- preprocess

struct PreCase {
  const char* name;
  int src_w, src_h, dst;
  TensorFormat format;
  PixelMapping mapping;
  std::uint8_t pad;
};

// simd = false: the portable loops (what a CPU without AVX2 runs, e.g. the aarch64 boards).
void bench_pre_ours(benchmark::State& state, PreCase c, bool simd) {
  cv::Mat src(c.src_h, c.src_w, CV_8UC3);
  cv::randu(src, 0, 256);
  PreprocessConfig cfg;
  cfg.format = c.format;
  cfg.mapping = c.mapping;
  cfg.pad_value = c.pad;
  cfg.simd = simd;
  Preprocessor pre(make_letterbox(c.src_w, c.src_h, c.dst, c.dst), cfg);
  std::vector<float> tensor(static_cast<std::size_t>(c.dst * c.dst * 3));
  const ImageRef img{PixelFormat::bgr24, c.src_w, c.src_h, {src.data, nullptr}, {src.step[0], 0}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(pre.run(img, tensor.data()));
    benchmark::ClobberMemory();
  }
}

// What a user writes with OpenCV: resize, pad, BGR->RGB, convert + scale (each step a new Mat).
// threads = 1 runs OpenCV on the calling thread only, so its CPU time is all of its work (with the default
// thread pool the CPU column leaves out OpenCV's worker threads; compare wall time there).
void bench_pre_baseline(benchmark::State& state, PreCase c, int threads) {
  const int saved_threads = cv::getNumThreads();
  if (threads > 0) cv::setNumThreads(threads);
  cv::Mat src(c.src_h, c.src_w, CV_8UC3);
  cv::randu(src, 0, 256);
  const LetterboxGeometry g = make_letterbox(c.src_w, c.src_h, c.dst, c.dst);
  const int rw = static_cast<int>(std::lround(c.src_w * g.scale)), rh = static_cast<int>(std::lround(c.src_h * g.scale));
  const int left = (c.dst - rw) / 2, top = (c.dst - rh) / 2;
  for (auto _ : state) {
    cv::Mat resized, padded, rgb, out;
    cv::resize(src, resized, cv::Size(rw, rh), 0, 0, cv::INTER_LINEAR);
    cv::copyMakeBorder(resized, padded, top, c.dst - rh - top, left, c.dst - rw - left, cv::BORDER_CONSTANT,
                       cv::Scalar::all(c.pad));
    cv::cvtColor(padded, rgb, cv::COLOR_BGR2RGB);
    if (c.format == TensorFormat::u8_nhwc) {
      out = rgb;
    } else {
      rgb.convertTo(out, CV_32F, c.mapping.mul[0], c.mapping.add[0]);
    }
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  cv::setNumThreads(saved_threads);
}

const PreCase kPreCases[] = {
    {"preprocess_548x342_to_128_f32_blazeface", 548, 342, 128, TensorFormat::f32_nhwc, PixelMapping::blazeface(), 0},
    {"preprocess_1280x720_to_640_u8", 1280, 720, 640, TensorFormat::u8_nhwc, PixelMapping::none(), 114},
    {"preprocess_1280x720_to_640_f32_unit", 1280, 720, 640, TensorFormat::f32_nhwc, PixelMapping::unit(), 114},
    // Not a 2:1 box (scale 0.325): the general path, for comparison with the exact-2:1 rows above.
    {"preprocess_1280x720_to_416_u8", 1280, 720, 416, TensorFormat::u8_nhwc, PixelMapping::none(), 114},
};

// --- tracker --------------------------------------------------------------------------------------------
// Tracker::update per frame with N objects moving on a grid (a little jitter, a few missed each frame),
// against cv::dnn::NMSBoxes on the same N boxes (a per-frame cost every detector already pays) and against
// copying the packet in (the least any per-frame step costs).

/// 64 frames of N objects, cycled (the tracker sees them as one long scene: positions keep increasing).
std::vector<DetectionPacket> tracker_scene(int n) {
  std::vector<DetectionPacket> frames(64);
  for (int f = 0; f < 64; ++f) {
    DetectionPacket& p = frames[static_cast<std::size_t>(f)];
    p.flags = kDetectionsValid;
    for (int i = 0; i < n; ++i) {
      if ((i * 7 + f) % 23 == 0) continue;  // missed now and then
      const float x = static_cast<float>((i % 16) * 120) + 0.5f * static_cast<float>(f), y = static_cast<float>((i / 16) * 80);
      const float jitter = static_cast<float>((i * 13 + f * 5) % 5) - 2.0f;
      p.items[p.count++] = Detection{x + jitter, y, x + 60 + jitter, y + 60, 0.8f, 0, 0, 0, {}};
    }
  }
  return frames;
}

void bench_tracker(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<DetectionPacket> frames = tracker_scene(n);
  auto tracker = std::make_unique<Tracker>();
  auto packet = std::make_unique<DetectionPacket>();
  std::size_t f = 0;
  for (auto _ : state) {
    *packet = frames[f++ % frames.size()];
    tracker->update(*packet);
    benchmark::DoNotOptimize(packet->items[0].track_id);
  }
  state.counters["confirmed"] = tracker->confirmed_tracks();
}

void bench_tracker_nms_baseline(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<DetectionPacket> frames = tracker_scene(n);
  std::vector<cv::Rect2d> boxes;
  std::vector<float> scores;
  std::vector<int> keep;
  std::size_t f = 0;
  for (auto _ : state) {
    const DetectionPacket& p = frames[f++ % frames.size()];
    boxes.clear();
    scores.clear();
    for (std::uint32_t i = 0; i < p.count; ++i) {
      const Detection& d = p.items[i];
      boxes.emplace_back(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0);
      scores.push_back(d.score);
    }
    cv::dnn::NMSBoxes(boxes, scores, 0.5f, 0.45f, keep);
    benchmark::DoNotOptimize(keep.data());
  }
}

void bench_tracker_copy_baseline(benchmark::State& state) {
  const std::vector<DetectionPacket> frames = tracker_scene(static_cast<int>(state.range(0)));
  auto packet = std::make_unique<DetectionPacket>();
  std::size_t f = 0;
  for (auto _ : state) {
    *packet = frames[f++ % frames.size()];
    benchmark::DoNotOptimize(packet->items[0].x0);
    benchmark::ClobberMemory();
  }
}

const int kRegistered = [] {
  for (const int n : {10, 50, 200}) {
    benchmark::RegisterBenchmark("tracker/ours", bench_tracker)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("tracker/nms_baseline", bench_tracker_nms_baseline)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("tracker/copy_baseline", bench_tracker_copy_baseline)->Arg(n)->Unit(benchmark::kMicrosecond);
  }
  for (const PreCase& c : kPreCases) {
    benchmark::RegisterBenchmark((std::string(c.name) + "/ours").c_str(), bench_pre_ours, c, true)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string(c.name) + "/ours_portable").c_str(), bench_pre_ours, c, false)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string(c.name) + "/baseline").c_str(), bench_pre_baseline, c, 0)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string(c.name) + "/baseline_1thread").c_str(), bench_pre_baseline, c, 1)
        ->Unit(benchmark::kMicrosecond);
  }
  for (const Case& c : kCases) {
    benchmark::RegisterBenchmark((std::string(c.name) + "/ours").c_str(), bench_ours, c)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string(c.name) + "/baseline").c_str(), bench_baseline, c)
        ->Unit(benchmark::kMicrosecond);
  }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
