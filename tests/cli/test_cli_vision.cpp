// apps/vision/bright_regions.yaml and edges.yaml through `visiongraph run`: the vg.vision kernels from YAML
// on an image the test draws (a bright square and specks on a dark ground: the mask keeps the square, the
// opening removes the specks; the edges outline the square), on the sample video when
// scripts/fetch_assets.sh has run, and `visiongraph kernels` listing the module.
#include <gtest/gtest.h>
#include <unistd.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_runner.hpp"

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;

const std::string kGraph = VG_SOURCE_DIR "/apps/vision/bright_regions.yaml";
const std::string kEdgesGraph = VG_SOURCE_DIR "/apps/vision/edges.yaml";
const std::string kGradientsGraph = VG_SOURCE_DIR "/apps/vision/gradients.yaml";

class VisionCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("vg_cli_vision_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(VisionCliTest, TheBrightRegionsGraphKeepsTheSquareAndDropsTheSpecks) {
  cv::Mat frame(240, 320, CV_8UC3, cv::Scalar(30, 30, 30));
  cv::rectangle(frame, cv::Rect(100, 60, 80, 90), cv::Scalar(230, 230, 230), cv::FILLED);
  for (int i = 0; i < 20; ++i) frame.at<cv::Vec3b>(10 + 11 * i, 20 + 7 * i) = cv::Vec3b(255, 255, 255);  // specks
  ASSERT_TRUE(cv::imwrite((dir / "scene.png").string(), frame));
  const auto r = run_cli("run " + kGraph + " --no-progress --input " + (dir / "scene.png").string() + " -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* node : {"to_gray", "smooth", "threshold", "erode", "dilate"})
    EXPECT_NE(r.output.find(node), std::string::npos) << node << " in the per-node table\n" << r.output;
  const cv::Mat mask = cv::imread((dir / "out" / "scene.png").string(), cv::IMREAD_GRAYSCALE);
  ASSERT_FALSE(mask.empty()) << r.output;
  ASSERT_EQ(mask.size(), frame.size());
  EXPECT_EQ(mask.at<std::uint8_t>(100, 140), 255) << "inside the square";
  EXPECT_EQ(mask.at<std::uint8_t>(200, 280), 0) << "dark ground";
  cv::Mat outside = mask.clone();
  cv::rectangle(outside, cv::Rect(98, 58, 84, 94), cv::Scalar(0), cv::FILLED);
  EXPECT_EQ(cv::countNonZero(outside), 0) << "a speck survived the opening";
  EXPECT_GT(cv::countNonZero(mask), 70 * 80) << "the square is kept";
}

TEST_F(VisionCliTest, TheSampleVideoGivesAMaskVideoOfEveryFrame) {
  if (!vg::test::have_assets({"Megamind.avi"}))
    GTEST_SKIP() << "Megamind.avi missing in " << vg::test::assets_dir() << ": run scripts/fetch_assets.sh";
  const auto r = run_cli("run " + kGraph + " --no-progress --input " + (vg::test::assets_dir() / "Megamind.avi").string() + " -o " +
                         (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("270 frames completed, 0 failed"), std::string::npos) << r.output;
  cv::VideoCapture video((dir / "out" / "annotated.mp4").string());
  ASSERT_TRUE(video.isOpened());
  cv::Mat frame;
  int frames = 0;
  bool any_bright = false;
  while (video.read(frame)) {
    ++frames;
    any_bright = any_bright || cv::countNonZero(frame.reshape(1)) > 0;
  }
  EXPECT_EQ(frames, 270);
  EXPECT_TRUE(any_bright);
}

// apps/vision/edges.yaml: gray -> Gaussian -> Canny on the drawn square gives its outline and nothing else.
TEST_F(VisionCliTest, TheEdgesGraphOutlinesTheSquare) {
  cv::Mat frame(240, 320, CV_8UC3, cv::Scalar(30, 30, 30));
  cv::rectangle(frame, cv::Rect(100, 60, 80, 90), cv::Scalar(230, 230, 230), cv::FILLED);
  ASSERT_TRUE(cv::imwrite((dir / "scene.png").string(), frame));
  const auto r = run_cli("run " + kEdgesGraph + " --no-progress --input " + (dir / "scene.png").string() + " -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("canny"), std::string::npos) << r.output;
  const cv::Mat edges = cv::imread((dir / "out" / "scene.png").string(), cv::IMREAD_GRAYSCALE);
  ASSERT_FALSE(edges.empty()) << r.output;
  ASSERT_EQ(edges.size(), frame.size());
  cv::Mat near_outline = cv::Mat::zeros(edges.size(), CV_8U);
  cv::rectangle(near_outline, cv::Rect(97, 57, 86, 96), cv::Scalar(255), 6);  // a band 3 pixels either side of the outline
  EXPECT_EQ(cv::countNonZero(edges & ~near_outline), 0) << "an edge away from the square's outline";
  EXPECT_GT(cv::countNonZero(edges), 300) << "the outline is found (its perimeter: 340 pixels)";
  EXPECT_EQ(edges.at<std::uint8_t>(100, 140), 0) << "inside the square";
}

// apps/vision/gradients.yaml: S16 planes between the nodes; the square's sides are bright (a step of 200
// gives a Sobel magnitude of 800, 200 after >> 2), its inside and the ground dark.
TEST_F(VisionCliTest, TheGradientsGraphBrightensTheSquaresSides) {
  cv::Mat frame(240, 320, CV_8UC3, cv::Scalar(30, 30, 30));
  cv::rectangle(frame, cv::Rect(100, 60, 80, 90), cv::Scalar(230, 230, 230), cv::FILLED);
  ASSERT_TRUE(cv::imwrite((dir / "scene.png").string(), frame));
  const auto r = run_cli("run " + kGradientsGraph + " --no-progress --input " + (dir / "scene.png").string() + " -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* node : {"sobel", "magnitude", "to_gray8"}) EXPECT_NE(r.output.find(node), std::string::npos) << node << "\n" << r.output;
  const cv::Mat strength = cv::imread((dir / "out" / "scene.png").string(), cv::IMREAD_GRAYSCALE);
  ASSERT_FALSE(strength.empty()) << r.output;
  ASSERT_EQ(strength.size(), frame.size());
  EXPECT_EQ(strength.at<std::uint8_t>(100, 99), 200) << "left of the left side: (230 - 30) * 4 / 4";
  EXPECT_EQ(strength.at<std::uint8_t>(100, 140), 0) << "inside the square";
  EXPECT_EQ(strength.at<std::uint8_t>(200, 280), 0) << "dark ground";
}

TEST_F(VisionCliTest, TheEdgesGraphRunsOnTheSampleVideo) {
  if (!vg::test::have_assets({"Megamind.avi"}))
    GTEST_SKIP() << "Megamind.avi missing in " << vg::test::assets_dir() << ": run scripts/fetch_assets.sh";
  const auto r = run_cli("run " + kEdgesGraph + " --no-progress --input " + (vg::test::assets_dir() / "Megamind.avi").string() + " -o " +
                         (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("270 frames completed, 0 failed"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "annotated.mp4")) << r.output;
}

TEST_F(VisionCliTest, KernelsListsTheVisionModule) {
  const auto r = run_cli("kernels");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* k : {"vg.vision.to_gray", "vg.vision.gaussian3x3", "vg.vision.box3x3", "vg.vision.median3x3",
                        "vg.vision.erode3x3", "vg.vision.dilate3x3", "vg.vision.threshold", "vg.vision.canny", "vg.vision.scale",
                        "vg.vision.warp_affine", "vg.vision.convolve", "vg.vision.color_convert", "vg.vision.fast_corners", "vg.vision.lbp"})
    EXPECT_NE(r.output.find(k), std::string::npos) << k;
  EXPECT_NE(r.output.find("set_threshold"), std::string::npos);
  EXPECT_NE(r.output.find("set_high"), std::string::npos);
}

TEST_F(VisionCliTest, AWrongAttributeIsNamedWithItsNode) {
  std::string yaml;
  {
    std::ifstream in(kGraph);
    yaml.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto at = yaml.find("value: 140");
  ASSERT_NE(at, std::string::npos);
  yaml.replace(at, 10, "value: 999");
  std::ofstream(dir / "bad.yaml") << yaml;
  cv::imwrite((dir / "scene.png").string(), cv::Mat(32, 32, CV_8UC3, cv::Scalar(1, 2, 3)));
  const auto r = run_cli("run " + (dir / "bad.yaml").string() + " --no-progress --input " + (dir / "scene.png").string() + " -o " +
                         (dir / "out").string());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("threshold"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("999"), std::string::npos) << r.output;
}

}  // namespace
