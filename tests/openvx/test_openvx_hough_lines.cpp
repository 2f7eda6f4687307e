// HoughLinesP (enhanced vision) against OpenCV's cv::HoughLinesP: the conformance suite's expected lines are
// that function's output, and the library reproduces it exactly (same drawing order, same rounding).
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

TEST_F(OpenVx, HoughLinesPFindsTheSegmentsOpenCvFinds) {
  cv::Mat edges(120, 160, CV_8UC1, cv::Scalar(0));
  cv::line(edges, {10, 10}, {150, 15}, cv::Scalar(255));
  cv::line(edges, {20, 110}, {140, 20}, cv::Scalar(255));
  cv::line(edges, {80, 5}, {80, 60}, cv::Scalar(255));
  cv::line(edges, {80, 75}, {80, 115}, cv::Scalar(255));  // a gap of 14 pixels to the one above
  cv::circle(edges, {40, 70}, 12, cv::Scalar(255));
  vx_image image = vxCreateImage(context_, 160, 120, VX_DF_IMAGE_U8);
  const vx_rectangle_t all{0, 0, 160, 120};
  vx_imagepatch_addressing_t a = VX_IMAGEPATCH_ADDR_INIT;
  a.dim_x = 160, a.dim_y = 120, a.stride_x = 1, a.stride_y = static_cast<vx_int32>(edges.step);
  ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &a, edges.data, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  struct Case {
    float rho, theta;
    int threshold, length, gap;
  };
  for (const Case c : {Case{1, static_cast<float>(CV_PI / 180), 30, 20, 5}, Case{2, static_cast<float>(CV_PI / 170), 20, 30, 20},
                       Case{1, static_cast<float>(CV_PI / 190), 15, 10, 2}}) {
    vx_array lines = vxCreateArray(context_, VX_TYPE_LINE_2D, 1000);
    vx_size n = 0;
    vx_scalar count = vxCreateScalar(context_, VX_TYPE_SIZE, &n);
    const vx_hough_lines_p_t p{c.rho, c.theta, c.threshold, c.length, c.gap, static_cast<vx_float32>(CV_PI), 0.0f};
    ASSERT_EQ(vxuHoughLinesP(context_, image, &p, lines, count), VX_SUCCESS);
    std::vector<cv::Vec4i> want;
    cv::HoughLinesP(edges, want, c.rho, c.theta, c.threshold, c.length, c.gap);
    ASSERT_EQ(vxCopyScalar(count, &n, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(n, want.size()) << "rho " << c.rho;
    std::vector<vx_line2d_t> got(n);
    if (n > 0) {
      ASSERT_EQ(vxCopyArrayRange(lines, 0, n, sizeof(vx_line2d_t), got.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    }
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(got[i].start_x, static_cast<float>(want[i][0])) << i;
      EXPECT_EQ(got[i].start_y, static_cast<float>(want[i][1])) << i;
      EXPECT_EQ(got[i].end_x, static_cast<float>(want[i][2])) << i;
      EXPECT_EQ(got[i].end_y, static_cast<float>(want[i][3])) << i;
    }
    EXPECT_EQ(vxReleaseArray(&lines), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&count), VX_SUCCESS);
  }
  // Parameters out of range are refused at verify.
  vx_array lines = vxCreateArray(context_, VX_TYPE_LINE_2D, 10);
  const vx_hough_lines_p_t bad{0.0f, 0.01f, 10, 10, 1, 3.14f, 0.0f};
  EXPECT_NE(vxuHoughLinesP(context_, image, &bad, lines, nullptr), VX_SUCCESS);
  EXPECT_TRUE(logged("params are out of range"));
  EXPECT_EQ(vxReleaseArray(&lines), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

}  // namespace
