// Proves the per-frame paths of the detection algorithms never touch the heap once set up.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "alloc_counter.hpp"
#include "synthetic_outputs.hpp"
#include "visiongraph/kernels/detection/overlay.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"

namespace {

using namespace vg::detection;  // NOLINT: test brevity
constexpr int kFrames = 50;

std::vector<int>* volatile g_sink = nullptr;  // keeps the sanity allocation observable

TEST(DetectionZeroAllocTest, TheCounterSeesAnAllocation) {
  vg::test::AllocationGuard guard;
  g_sink = new std::vector<int>(100);
  const long n = guard.stop();
  delete g_sink;
  EXPECT_GE(n, 2);  // the vector object and its storage
}

TEST(DetectionZeroAllocTest, PreprocessDoesNotAllocateForAnyFormat) {
  const int w = 1280, h = 720;
  std::vector<std::uint8_t> bgr(static_cast<std::size_t>(w * h * 3), 90), nv12(static_cast<std::size_t>(w * h * 3 / 2), 128);
  ImageRef packed{PixelFormat::bgr24, w, h, {bgr.data(), nullptr}, {static_cast<std::size_t>(w * 3), 0}};
  ImageRef yuv{PixelFormat::nv12, w, h, {nv12.data(), nv12.data() + w * h}, {static_cast<std::size_t>(w), static_cast<std::size_t>(w)}};
  // 256: the general path; 640: an exact 2:1 box (its own AVX2 and portable paths). AVX2 (where the CPU
  // has it) and the portable loops each.
  std::vector<std::unique_ptr<Preprocessor>> pre;
  for (int size : {256, 640}) {
    for (TensorFormat f : {TensorFormat::u8_nhwc, TensorFormat::f32_nhwc, TensorFormat::f32_nchw}) {
      for (bool simd : {true, false}) {
        PreprocessConfig cfg;
        cfg.format = f;
        cfg.simd = simd;
        pre.push_back(std::make_unique<Preprocessor>(make_letterbox(w, h, size, size), cfg));
      }
    }
  }
  std::vector<float> tensor(640 * 640 * 3);
  vg::test::AllocationGuard guard;
  for (int i = 0; i < kFrames / 5; ++i) {
    for (const auto& p : pre) {
      ASSERT_TRUE(p->run(packed, tensor.data()));
      ASSERT_TRUE(p->run(yuv, tensor.data()));
    }
  }
  EXPECT_EQ(guard.stop(), 0);
}

struct Case {
  const char* name;
  DecoderKind kind;
  NmsKind nms;
  synthetic::Model (*make)();
  bool int8;
};

synthetic::Model make_bf() { return synthetic::blazeface(); }
synthetic::Model make_v5() { return synthetic::yolov5_heads(); }
synthetic::Model make_v5_rows() { return synthetic::yolov5_rows(); }
synthetic::Model make_v8() { return synthetic::yolov8_branches(false); }
synthetic::Model make_v8_sum() { return synthetic::yolov8_branches(true); }
synthetic::Model make_v8_cols() { return synthetic::yolov8_columns(); }

class PostprocessZeroAllocTest : public ::testing::TestWithParam<Case> {};

TEST_P(PostprocessZeroAllocTest, RunAndConfigChangesDoNotAllocate) {
  const Case c = GetParam();
  const synthetic::Model m = c.make();
  const auto& refs = c.int8 ? m.refs_i8 : m.refs_f32;
  PostprocessConfig cfg;
  cfg.decoder = c.kind;
  cfg.decode.input_w = cfg.decode.input_h = m.input;
  cfg.decode.score_threshold = 0.5f;
  cfg.nms = NmsParams{c.nms, 0.45f, 100, 50};
  Postprocessor pp(cfg, refs);
  const LetterboxGeometry g = make_letterbox(1280, 720, m.input, m.input);
  auto packet = std::make_unique<DetectionPacket>();
  Overlay overlay;
  std::vector<std::uint8_t> image(1280 * 720 * 3, 0);
  vg::test::AllocationGuard guard;
  std::uint32_t total = 0;
  for (int i = 0; i < kFrames; ++i) {
    if (i == kFrames / 2) {  // what the control commands do between frames
      pp.config().decode.score_threshold = 0.3f;
      pp.config().nms.max_det = 10;
      (void)pp.config().decode.class_filter.parse("0,1,2,3,4,5,6,7,8,9,10,20,30,40,50,60,70");
    }
    pp.run(refs, g, *packet);
    total += packet->count;
    overlay.draw(image.data(), 1280, 720, 1280 * 3, *packet);
  }
  EXPECT_EQ(guard.stop(), 0);
  EXPECT_GT(total, 0u) << "the synthetic data should produce detections";
}

INSTANTIATE_TEST_SUITE_P(
    Decoders, PostprocessZeroAllocTest,
    ::testing::Values(Case{"blazeface_f32", DecoderKind::blazeface, NmsKind::weighted, make_bf, false},
                      Case{"blazeface_i8", DecoderKind::blazeface, NmsKind::weighted, make_bf, true},
                      Case{"yolov5_f32", DecoderKind::yolov5, NmsKind::hard, make_v5, false},
                      Case{"yolov5_i8", DecoderKind::yolov5, NmsKind::hard, make_v5, true},
                      Case{"yolov5_onnx_f32", DecoderKind::yolov5, NmsKind::hard, make_v5_rows, false},
                      Case{"yolov8_f32", DecoderKind::yolov8, NmsKind::hard, make_v8, false},
                      Case{"yolov8_i8", DecoderKind::yolov8, NmsKind::hard, make_v8, true},
                      Case{"yolov8_sum_i8", DecoderKind::yolov8, NmsKind::hard, make_v8_sum, true},
                      Case{"yolov8_onnx_f32", DecoderKind::yolov8, NmsKind::hard, make_v8_cols, false}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
