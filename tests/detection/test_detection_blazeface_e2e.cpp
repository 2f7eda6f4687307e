// End to end on real data: messi5.jpg through the BlazeFace ONNX models with OpenCV DNN, using this
// library's preprocess and postprocess. Skips when the assets are not fetched (scripts/fetch_assets.sh).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>

#include "visiongraph/kernels/detection/overlay.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"

#ifndef VG_DEFAULT_ASSETS_DIR
#define VG_DEFAULT_ASSETS_DIR ".cache/assets"
#endif

namespace {

using namespace vg::detection;  // NOLINT: test brevity

std::filesystem::path assets_dir() {
  const char* env = std::getenv("VG_ASSETS_DIR");
  return (env != nullptr && *env != '\0') ? std::filesystem::path(env) : std::filesystem::path(VG_DEFAULT_ASSETS_DIR);
}

struct Model {
  const char* file;
  int size;
  float threshold;
  cv::Rect roi;  ///< part of messi5.jpg given to the model (empty = whole image)
};

class BlazeFaceEndToEndTest : public ::testing::TestWithParam<Model> {};

TEST_P(BlazeFaceEndToEndTest, FindsMessisFaceWithEyesInPlace) {
  const Model model = GetParam();
  const auto onnx = assets_dir() / model.file;
  const auto jpg = assets_dir() / "messi5.jpg";
  if (!std::filesystem::exists(onnx) || !std::filesystem::exists(jpg)) {
    GTEST_SKIP() << "assets missing in " << assets_dir() << " (need " << model.file
                 << " and messi5.jpg): run scripts/fetch_assets.sh or set VG_ASSETS_DIR";
  }
  const cv::Mat full = cv::imread(jpg.string(), cv::IMREAD_COLOR);
  ASSERT_EQ(full.cols, 548);
  ASSERT_EQ(full.rows, 342);
  // A ROI keeps the parent's row stride, which also exercises strided input.
  const cv::Mat img = model.roi.empty() ? full : full(model.roi);
  const float ox = static_cast<float>(model.roi.x), oy = static_cast<float>(model.roi.y);
  cv::dnn::Net net = cv::dnn::readNetFromONNX(onnx.string());
  net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);

  const int s = model.size;
  const LetterboxGeometry g = make_letterbox(img.cols, img.rows, s, s);
  Preprocessor pre(g, PreprocessConfig{});  // f32 NHWC, v/127.5-1, pad -1, RGB
  const int dims[] = {1, s, s, 3};
  cv::Mat blob(4, dims, CV_32F);
  ImageRef ref{PixelFormat::bgr24, img.cols, img.rows, {img.data, nullptr}, {img.step[0], 0}};
  ASSERT_TRUE(pre.run(ref, blob.data));
  net.setInput(blob);
  std::vector<cv::Mat> outs;
  net.forward(outs, std::vector<std::string>{"Identity:0", "Identity_1:0", "Identity_2:0", "Identity_3:0"});
  ASSERT_EQ(outs.size(), 4u);
  TensorRef t[4];
  const std::int64_t n[4] = {512, 384, 512, 384};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(outs[static_cast<std::size_t>(i)].isContinuous());
    t[i] = TensorRef::make(outs[static_cast<std::size_t>(i)].ptr<float>(), ElemType::f32, {1, n[i], i < 2 ? 1 : 16});
  }

  // Highest raw logit over all anchors, for comparison with the reference measurements.
  int top = -1;
  float top_raw = -1e30f;
  for (int i = 0; i < 896; ++i) {
    const float v = i < 512 ? outs[0].ptr<float>()[i] : outs[1].ptr<float>()[i - 512];
    if (v > top_raw) {
      top_raw = v;
      top = i;
    }
  }
  std::printf("[ blazeface %d ] top anchor %d raw %.4f score %.4f\n", s, top, static_cast<double>(top_raw),
              1.0 / (1.0 + std::exp(-static_cast<double>(top_raw))));

  PostprocessConfig cfg;
  cfg.decoder = DecoderKind::blazeface;
  cfg.decode.input_w = cfg.decode.input_h = s;
  cfg.decode.score_threshold = model.threshold;
  cfg.nms = NmsParams{NmsKind::weighted, 0.3f, 100, 100};
  Postprocessor pp(cfg, t);
  auto pkt = std::make_unique<DetectionPacket>();
  pp.run(t, g, *pkt);

  for (std::uint32_t i = 0; i < pkt->count; ++i) {  // back to full-image pixels
    Detection& det = pkt->items[i];
    det.x0 += ox;
    det.x1 += ox;
    det.y0 += oy;
    det.y1 += oy;
    for (int k = 0; k < det.num_keypoints; ++k) {
      det.keypoints[k].x += ox;
      det.keypoints[k].y += oy;
    }
  }
  cv::Mat annotated = full.clone();
  Overlay({}, {"face"}).draw(annotated.data, annotated.cols, annotated.rows, annotated.step[0], *pkt);
  const std::string out = "/tmp/vg_blazeface_messi5_" + std::to_string(s) + ".png";
  cv::imwrite(out, annotated);

  ASSERT_GE(pkt->count, 1u) << "no face found";
  const Detection& d = pkt->items[0];
  RecordProperty("score", std::to_string(d.score));
  std::printf("[ blazeface %d ] score %.4f box (%.1f, %.1f)-(%.1f, %.1f) kp0 (%.1f, %.1f) kp1 (%.1f, %.1f) -> %s\n", s,
              static_cast<double>(d.score), static_cast<double>(d.x0), static_cast<double>(d.y0),
              static_cast<double>(d.x1), static_cast<double>(d.y1), static_cast<double>(d.keypoints[0].x),
              static_cast<double>(d.keypoints[0].y), static_cast<double>(d.keypoints[1].x),
              static_cast<double>(d.keypoints[1].y), out.c_str());
  // Where the face is (checked by eye on an enlarged crop of messi5.jpg): eyes near (236, 105) and
  // (252, 105), mouth near y 125, chin near y 133; so the face box centre lies around (240, 113).
  const float cx = 0.5f * (d.x0 + d.x1), cy = 0.5f * (d.y0 + d.y1);
  EXPECT_GT(cx, 228.0f);
  EXPECT_LT(cx, 255.0f);
  EXPECT_GT(cy, 100.0f);
  EXPECT_LT(cy, 125.0f);
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(d.keypoints[k].y, 105.0f, 6.0f) << "eye " << k;
    EXPECT_NEAR(d.keypoints[k].x, k == 0 ? 236.0f : 252.0f, 6.0f) << "eye " << k;
  }
  EXPECT_GT(d.x1 - d.x0, 15.0f);
  EXPECT_LT(d.x1 - d.x0, 60.0f);
  ASSERT_EQ(d.num_keypoints, 6);
  // kp0 = subject's right eye = image left; both eyes in the upper half of the box.
  EXPECT_LT(d.keypoints[0].x, d.keypoints[1].x);
  for (int k = 0; k < 2; ++k) {
    EXPECT_GT(d.keypoints[k].x, d.x0);
    EXPECT_LT(d.keypoints[k].x, d.x1);
    EXPECT_GT(d.keypoints[k].y, d.y0);
    EXPECT_LT(d.keypoints[k].y, cy);
  }
  // Nose below the eyes, mouth below the nose.
  EXPECT_GT(d.keypoints[2].y, d.keypoints[0].y);
  EXPECT_GT(d.keypoints[3].y, d.keypoints[2].y);
}

INSTANTIATE_TEST_SUITE_P(Models, BlazeFaceEndToEndTest,
                         // The front (short-range, selfie) model does not see a 35-pixel face in the whole
                         // 548x342 frame (best score 0.38, on the background); it gets a 140x140 crop around
                         // the player instead, where the face is a quarter of the input. Both use MediaPipe's 0.5.
                         ::testing::Values(Model{"face_detection_front_128x128_barracuda.onnx", 128, 0.5f,
                                                 cv::Rect(170, 45, 140, 140)},
                                           Model{"face_detection_back_256x256_barracuda.onnx", 256, 0.5f, cv::Rect()}),
                         [](const ::testing::TestParamInfo<Model>& i) { return "input" + std::to_string(i.param.size); });

}  // namespace
