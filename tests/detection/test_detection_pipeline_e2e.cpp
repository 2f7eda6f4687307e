// The whole chain as a graph on real data: messi5.jpg -> vg.detection.letterbox -> vg.inference (OpenCV DNN,
// BlazeFace back 256) -> vg.detection.postprocess -> vg.detection.overlay. Skips when the assets are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include <opencv2/imgcodecs.hpp>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/visiongraph.hpp"

#ifndef VG_DEFAULT_ASSETS_DIR
#define VG_DEFAULT_ASSETS_DIR ".cache/assets"
#endif

namespace {

std::filesystem::path assets_dir() {
  const char* env = std::getenv("VG_ASSETS_DIR");
  return (env != nullptr && *env != '\0') ? std::filesystem::path(env) : std::filesystem::path(VG_DEFAULT_ASSETS_DIR);
}

TEST(DetectionPipelineTest, FindsMessisFaceThroughTheGraph) {
  const auto onnx = assets_dir() / "face_detection_back_256x256_barracuda.onnx";
  const auto jpg = assets_dir() / "messi5.jpg";
  if (!std::filesystem::exists(onnx) || !std::filesystem::exists(jpg))
    GTEST_SKIP() << "assets missing in " << assets_dir() << ": run scripts/fetch_assets.sh or set VG_ASSETS_DIR";
  const cv::Mat img = cv::imread(jpg.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(img.empty());

  vg::Context ctx;
  ctx.load_module(vg::detection::make_detection_module());
  ctx.load_module(vg::inference::make_inference_module());
  vg::Graph g(ctx, "faces");
  auto image = g.add_data("image", vg::DataMeta::image_of(static_cast<std::uint32_t>(img.cols),
                                                          static_cast<std::uint32_t>(img.rows), vg::ImageFormat::bgr24));
  auto tensor = g.add_data("tensor", vg::DataMeta::tensor_of({1, 256, 256, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc));
  auto geometry = g.add_virtual("geometry", vg::DataKind::user_data);
  auto lb = g.add_node("letterbox", "vg.detection.letterbox");
  g.bind(lb, "input", image).bind(lb, "output", tensor).bind(lb, "geometry", geometry);
  auto net = g.add_node("blazeface", "vg.inference");
  g.bind(net, "input", tensor).set_attribute(net, "model", onnx.string()).set_attribute(net, "backend", std::string("opencv"));
  auto post = g.add_node("postprocess", "vg.detection.postprocess");
  for (int i = 0; i < 4; ++i) {
    auto o = g.add_virtual("out" + std::to_string(i), vg::DataKind::tensor);
    g.bind(net, "out" + std::to_string(i), o).bind(post, "in" + std::to_string(i), o);
  }
  auto detections = g.add_virtual("detections", vg::DataKind::user_data);
  auto annotated = g.add_virtual("annotated", vg::DataKind::image);
  g.bind(post, "geometry", geometry).bind(post, "detections", detections);
  auto ov = g.add_node("overlay", "vg.detection.overlay");
  g.bind(ov, "image", image).bind(ov, "detections", detections).bind(ov, "output", annotated);
  g.set_attribute(ov, "labels", std::string("face"));
  g.verify();

  const vg::ImageView in = g.image(image);
  for (int y = 0; y < img.rows; ++y) std::memcpy(in.plane(0) + y * in.stride(0), img.ptr(y), static_cast<std::size_t>(img.cols) * 3);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();

  const auto* pkt = g.user_data<vg::detection::DetectionPacket>(detections);
  ASSERT_NE(pkt, nullptr);
  ASSERT_GE(pkt->count, 1u);
  const vg::detection::Detection& d = pkt->items[0];
  const vg::ImageView out = g.image(annotated);
  cv::imwrite("/tmp/vg_pipeline_messi5.png",
              cv::Mat(static_cast<int>(out.height()), static_cast<int>(out.width()), CV_8UC3, out.plane(0), out.stride(0)));
  std::printf("[ pipeline ] score %.4f box (%.1f, %.1f)-(%.1f, %.1f)\n", static_cast<double>(d.score),
              static_cast<double>(d.x0), static_cast<double>(d.y0), static_cast<double>(d.x1), static_cast<double>(d.y1));
  EXPECT_GT(d.score, 0.8f);
  EXPECT_NEAR(0.5f * (d.x0 + d.x1), 240.0f, 12.0f);
  EXPECT_NEAR(0.5f * (d.y0 + d.y1), 114.0f, 12.0f);
  EXPECT_NEAR(d.keypoints[0].x, 236.0f, 6.0f);
  EXPECT_NEAR(d.keypoints[1].x, 252.0f, 6.0f);
  EXPECT_NEAR(d.keypoints[0].y, 105.0f, 6.0f);
}

}  // namespace
