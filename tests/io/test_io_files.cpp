// Files: a video file to its end, image files and directories, formats and sizes on request.

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <vector>

#include "io_test_util.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io::test {
namespace {

TEST(IoVideoFile, ReadsEveryFrameToEndOfStream) {
  VG_REQUIRE_SAMPLE_VIDEO();
  auto source = Source::open(sample_video().string());
  const SourceInfo& info = source->info();
  EXPECT_EQ(info.kind, SourceKind::video_file);
  EXPECT_EQ(info.format, ImageFormat::bgr24);
  EXPECT_EQ(info.width, 720u);
  EXPECT_EQ(info.height, 528u);
  EXPECT_NEAR(info.fps, 23.976, 0.01);
  EXPECT_EQ(info.length, 270);
  EXPECT_FALSE(info.live);
  EXPECT_TRUE(source->stats().converting);  // the decoder gives I420; BGR needs videoconvert

  Frame frame;
  std::uint64_t count = 0;
  std::int64_t last_media = -1;
  Status status = Status::ok;
  while ((status = source->read(frame, 5s)) == Status::ok) {
    ASSERT_EQ(frame.sequence, count);
    ASSERT_EQ(frame.meta.width, 720u);
    ASSERT_EQ(frame.meta.height, 528u);
    ASSERT_EQ(frame.meta.format, ImageFormat::bgr24);
    ASSERT_EQ(frame.memory.num_planes, 1u);
    ASSERT_GE(frame.memory.stride[0], 720u * 3);
    ASSERT_GE(frame.memory.block.size, frame.memory.offset[0] + frame.memory.stride[0] * 527 + 720 * 3);
    ASSERT_NE(frame.memory.block.data, nullptr);
    ASSERT_TRUE(frame.lease.held());
    ASSERT_GE(frame.media_ns, last_media);  // packed MPEG-4 B-frames may repeat a PTS
    last_media = frame.media_ns;
    const std::int64_t now = now_ns();
    ASSERT_LE(frame.capture_ns, now);
    ASSERT_GT(frame.capture_ns, now - 5'000'000'000);
    ++count;
  }
  EXPECT_EQ(status, Status::end_of_stream) << source->error();
  EXPECT_EQ(count, 270u);
  frame.lease.release();
  EXPECT_EQ(source->stats().frames, 270u);
  EXPECT_EQ(source->stats().leases_out, 0u);
  EXPECT_EQ(source->read(frame, 1s), Status::end_of_stream);  // stays ended
  EXPECT_TRUE(source->error().empty()) << source->error();
}

TEST(IoVideoFile, DeliversNv12ScaledAsAsked) {
  VG_REQUIRE_SAMPLE_VIDEO();
  SourceOptions options;
  options.format = ImageFormat::nv12;
  options.width = 360;
  options.height = 264;
  auto source = Source::open(sample_video().string(), options);
  EXPECT_EQ(source->info().format, ImageFormat::nv12);
  EXPECT_EQ(source->info().width, 360u);
  EXPECT_EQ(source->info().height, 264u);
  EXPECT_TRUE(source->stats().converting);
  Frame frame;
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
    EXPECT_EQ(frame.meta.format, ImageFormat::nv12);
    EXPECT_EQ(frame.meta.width, 360u);
    EXPECT_EQ(frame.meta.height, 264u);
    ASSERT_EQ(frame.memory.num_planes, 2u);
    EXPECT_GE(frame.memory.stride[0], 360u);
    EXPECT_GE(frame.memory.offset[1], frame.memory.offset[0] + frame.memory.stride[0] * 264);
    EXPECT_GE(frame.memory.block.size, frame.memory.offset[1] + frame.memory.stride[1] * 132);
    EXPECT_EQ(frame.meta.row_stride, frame.memory.stride[0]);
  }
}

TEST(IoVideoFile, DeliversGrayAndRgb) {
  VG_REQUIRE_SAMPLE_VIDEO();
  for (ImageFormat format : {ImageFormat::gray8, ImageFormat::rgb24}) {
    SourceOptions options;
    options.format = format;
    auto source = Source::open(sample_video().string(), options);
    Frame frame;
    ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
    EXPECT_EQ(frame.meta.format, format);
    EXPECT_EQ(frame.memory.num_planes, 1u);
    EXPECT_GE(frame.memory.stride[0], 720u * (format == ImageFormat::gray8 ? 1 : 3));
  }
}

TEST(IoVideoFile, ReportsATruncatedFile) {
  VG_REQUIRE_SAMPLE_VIDEO();
  TempDir dir;
  const auto truncated = dir.path / "half.avi";
  const auto size = std::filesystem::file_size(sample_video());
  std::filesystem::copy_file(sample_video(), truncated);
  std::filesystem::resize_file(truncated, size / 2);

  auto source = Source::open(truncated.string());
  Frame frame;
  Status status;
  int count = 0;
  while ((status = source->read(frame, 5s)) == Status::ok) ++count;
  EXPECT_EQ(status, Status::io_error);
  EXPECT_GT(count, 0);
  EXPECT_LT(count, 270);
  EXPECT_NE(source->error().find(truncated.string()), std::string::npos) << source->error();
  EXPECT_NE(source->error().find("truncated"), std::string::npos) << source->error();
  EXPECT_NE(source->error().find("after " + std::to_string(count) + " of 270 frames"), std::string::npos)
      << source->error();
}

cv::Mat pattern(int width, int height, int seed) {
  cv::Mat image(height, width, CV_8UC3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(x + seed), static_cast<uchar>(y), static_cast<uchar>(seed));
  return image;
}

TEST(IoImages, OneImageFileThenEndOfStream) {
  TempDir dir;
  const auto path = dir.path / "picture.png";
  ASSERT_TRUE(cv::imwrite(path.string(), pattern(40, 30, 7)));
  auto source = Source::open(path.string());
  EXPECT_EQ(source->info().kind, SourceKind::image);
  EXPECT_EQ(source->info().width, 40u);
  EXPECT_EQ(source->info().height, 30u);
  EXPECT_EQ(source->info().length, 1);
  Frame frame;
  ASSERT_EQ(source->read(frame, 1s), Status::ok) << source->error();
  EXPECT_STREQ(frame.name.data(), "picture.png");
  EXPECT_EQ(frame.meta.format, ImageFormat::bgr24);
  EXPECT_EQ(frame.memory.stride[0], 40u * 3);
  const auto* pixels = static_cast<const std::uint8_t*>(frame.memory.block.data);
  EXPECT_EQ(pixels[(5 * 40 + 3) * 3 + 0], 3 + 7);  // B = x + seed at (3, 5)
  EXPECT_EQ(pixels[(5 * 40 + 3) * 3 + 1], 5);
  EXPECT_EQ(source->stats().leases_out, 1u);
  EXPECT_EQ(source->read(frame, 1s), Status::end_of_stream);  // leaves `frame` as it was
  EXPECT_TRUE(frame.lease.held());
  frame.lease.release();
  EXPECT_EQ(source->stats().leases_out, 0u);
}

TEST(IoImages, DirectoryInNameOrderWithItsOwnSizes) {
  TempDir dir;
  ASSERT_TRUE(cv::imwrite((dir.path / "b.png").string(), pattern(20, 10, 2)));
  ASSERT_TRUE(cv::imwrite((dir.path / "a.png").string(), pattern(30, 16, 1)));
  ASSERT_TRUE(cv::imwrite((dir.path / "c.bmp").string(), pattern(8, 6, 3)));
  std::ofstream(dir.path / "notes.txt") << "not an image";
  auto source = Source::open(dir.path.string());
  EXPECT_EQ(source->info().kind, SourceKind::image_dir);
  EXPECT_EQ(source->info().length, 3);
  struct Expected {
    const char* name;
    std::uint32_t width, height;
  };
  const Expected expected[] = {{"a.png", 30, 16}, {"b.png", 20, 10}, {"c.bmp", 8, 6}};
  std::vector<Frame> held;  // frames stay valid while leased, also when the next is read
  for (const Expected& e : expected) {
    Frame frame;
    ASSERT_EQ(source->read(frame, 1s), Status::ok) << source->error();
    EXPECT_STREQ(frame.name.data(), e.name);
    EXPECT_EQ(frame.meta.width, e.width);
    EXPECT_EQ(frame.meta.height, e.height);
    held.push_back(std::move(frame));
  }
  EXPECT_EQ(source->stats().leases_out, 3u);
  Frame frame;
  EXPECT_EQ(source->read(frame, 1s), Status::end_of_stream);
  held.clear();
  EXPECT_EQ(source->stats().leases_out, 0u);
}

TEST(IoImages, ConvertsToGrayAndNv12) {
  TempDir dir;
  const auto path = dir.path / "p.png";
  ASSERT_TRUE(cv::imwrite(path.string(), pattern(32, 24, 0)));
  SourceOptions gray;
  gray.format = ImageFormat::gray8;
  Frame frame;
  ASSERT_EQ(Source::open(path.string(), gray)->read(frame, 1s), Status::ok);
  EXPECT_EQ(frame.meta.format, ImageFormat::gray8);
  EXPECT_EQ(frame.memory.stride[0], 32u);
  frame.lease.release();

  SourceOptions nv12;
  nv12.format = ImageFormat::nv12;
  nv12.width = 16;
  auto source = Source::open(path.string(), nv12);
  EXPECT_TRUE(source->stats().converting);
  ASSERT_EQ(source->read(frame, 1s), Status::ok) << source->error();
  EXPECT_EQ(frame.meta.width, 16u);
  EXPECT_EQ(frame.meta.height, 12u);
  ASSERT_EQ(frame.memory.num_planes, 2u);
  EXPECT_EQ(frame.memory.offset[1], 16u * 12);
  EXPECT_EQ(frame.memory.block.size, 16u * 12 * 3 / 2);
}

TEST(IoImages, UndecodableImageNamesTheFile) {
  TempDir dir;
  const auto path = dir.path / "broken.jpg";
  std::ofstream(path) << "not a jpeg at all";
  try {
    Source::open(path.string());
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot decode"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vg::io::test
