#include <gtest/gtest.h>

#include <memory>

#include <opencv2/core.hpp>

#include "visiongraph/kernels/detection/overlay.hpp"

namespace {

using namespace vg::detection;  // NOLINT: test brevity

TEST(OverlayTest, DrawsBoxOutlineLabelAndKeypoints) {
  cv::Mat img(120, 160, CV_8UC3, cv::Scalar::all(0));
  auto pkt = std::make_unique<DetectionPacket>();
  pkt->count = 1;
  Detection& d = pkt->items[0];
  d.x0 = 40;
  d.y0 = 50;
  d.x1 = 100;
  d.y1 = 110;
  d.score = 0.87f;
  d.class_id = 0;
  d.num_keypoints = 1;
  d.keypoints[0] = {70.0f, 80.0f};
  const Overlay ov({}, {"face"});
  ov.draw(img.data, img.cols, img.rows, img.step[0], *pkt);
  std::uint8_t color[3];
  Overlay::class_color(0, color);
  EXPECT_EQ(img.at<cv::Vec3b>(50, 70), cv::Vec3b(color[0], color[1], color[2]));   // top edge
  EXPECT_EQ(img.at<cv::Vec3b>(80, 99), cv::Vec3b(color[0], color[1], color[2]));   // right edge
  EXPECT_EQ(img.at<cv::Vec3b>(80, 70), cv::Vec3b(0, 0, 255));                      // keypoint (red)
  EXPECT_EQ(img.at<cv::Vec3b>(65, 60), cv::Vec3b(0, 0, 0));                        // inside stays untouched
  // Label band above the box holds dark text pixels on the class colour.
  int dark = 0, coloured = 0;
  for (int y = 30; y < 50; ++y)
    for (int x = 40; x < 100; ++x) {
      const cv::Vec3b p = img.at<cv::Vec3b>(y, x);
      if (p == cv::Vec3b(color[0], color[1], color[2])) ++coloured;
      else if (p[1] < color[1]) ++dark;
    }
  EXPECT_GT(coloured, 100);
  EXPECT_GT(dark, 20);
}

TEST(OverlayTest, ClipsDetectionsOutsideTheImage) {
  cv::Mat img(40, 40, CV_8UC3, cv::Scalar::all(0));
  auto pkt = std::make_unique<DetectionPacket>();
  pkt->count = 2;
  pkt->items[0].x0 = -100;
  pkt->items[0].y0 = -100;
  pkt->items[0].x1 = 1000;
  pkt->items[0].y1 = 1000;
  pkt->items[0].num_keypoints = 1;
  pkt->items[0].keypoints[0] = {-5.0f, 1e9f};
  pkt->items[1].x0 = std::numeric_limits<float>::quiet_NaN();
  const Overlay ov;
  ov.draw(img.data, img.cols, img.rows, img.step[0], *pkt);  // must not crash or write out of bounds
  SUCCEED();
}

}  // namespace
