// VideoWriter: H.264 files written frame by frame and read back by a real GStreamer decoder (frame
// count, size, times, the pattern of every frame), errors that name the path (bad extension, missing
// directory, full disk), drop accounting, and memory over many frames.

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gst_pipeline_counter.hpp"
#include "io_test_util.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/io/video_writer.hpp"

namespace vg::io::test {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// ---- the pattern: every frame says its own index -------------------------------------------------------
// 16x16 blocks on black, aligned to H.264 macroblocks: (0,0) gray = high nibble of the index, (16,0) gray =
// low nibble, (32,0) pure red (catches swapped channels), and a white square moving along row 48.
constexpr int kBlock = 16;
constexpr int kNibbleStep = 16;

std::uint8_t nibble_gray(int nibble) { return static_cast<std::uint8_t>(8 + kNibbleStep * nibble); }

int square_x(int index, int width) { return kBlock * (index % (width / kBlock)); }

/// One frame of @p format, rows @p stride bytes apart (NV12: UV plane after the Y plane).
std::vector<std::uint8_t> make_frame(int index, int width, int height, ImageFormat format, std::size_t stride) {
  std::vector<std::uint8_t> bgr(static_cast<std::size_t>(width) * height * 3, 0);
  auto fill = [&](int x0, int y0, std::uint8_t b, std::uint8_t g, std::uint8_t r) {
    for (int y = y0; y < std::min(y0 + kBlock, height); ++y)
      for (int x = x0; x < std::min(x0 + kBlock, width); ++x) {
        std::uint8_t* p = &bgr[(static_cast<std::size_t>(y) * width + x) * 3];
        p[0] = b, p[1] = g, p[2] = r;
      }
  };
  const std::uint8_t hi = nibble_gray((index / 16) % 16), lo = nibble_gray(index % 16);
  fill(0, 0, hi, hi, hi);
  fill(16, 0, lo, lo, lo);
  fill(32, 0, 0, 0, 255);
  fill(square_x(index, width), 32, 255, 255, 255);

  const std::size_t rows = format == ImageFormat::nv12 ? height + height / 2 : height;
  std::vector<std::uint8_t> out(stride * rows, 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::uint8_t* p = &bgr[(static_cast<std::size_t>(y) * width + x) * 3];
      std::uint8_t* row = &out[y * stride];
      switch (format) {
        case ImageFormat::bgr24: row[x * 3] = p[0], row[x * 3 + 1] = p[1], row[x * 3 + 2] = p[2]; break;
        case ImageFormat::rgb24: row[x * 3] = p[2], row[x * 3 + 1] = p[1], row[x * 3 + 2] = p[0]; break;
        case ImageFormat::gray8: row[x] = static_cast<std::uint8_t>((p[0] * 29 + p[1] * 150 + p[2] * 77) >> 8); break;
        case ImageFormat::nv12:  // video range, as cameras and decoders deliver NV12
          row[x] = static_cast<std::uint8_t>(16 + ((p[0] * 29 + p[1] * 150 + p[2] * 77) >> 8) * 219 / 255);
          break;
      }
    }
  if (format == ImageFormat::nv12)
    for (std::size_t y = height; y < rows; ++y) std::fill_n(&out[y * stride], width, 128);
  return out;
}

/// What one decoded BGR frame shows.
struct SeenFrame {
  int index = -1;           ///< decoded from the two gray blocks; -1 when they are not clean nibbles
  bool red = false;         ///< the red block is red (not blue: channels in order)
  bool square = false;      ///< the white square is where the index puts it
  std::int64_t pts_ns = -1;
};

double block_mean(const std::uint8_t* bgr, std::size_t stride, int x0, int y0, int channel) {
  double sum = 0;
  int n = 0;
  for (int y = y0 + 3; y < y0 + kBlock - 3; ++y)  // inner part: no ringing from the block edges
    for (int x = x0 + 3; x < x0 + kBlock - 3; ++x, ++n) sum += bgr[y * stride + x * 3 + channel];
  return sum / n;
}

SeenFrame look_at(const std::uint8_t* bgr, std::size_t stride, int width) {
  SeenFrame seen;
  auto nibble = [&](int x0) {
    const double mean = block_mean(bgr, stride, x0, 0, 1);
    const double n = (mean - 8) / kNibbleStep;
    return std::abs(n - std::round(n)) < 0.4 ? static_cast<int>(std::round(n)) : -1000;
  };
  const int hi = nibble(0), lo = nibble(16);
  seen.index = hi >= 0 && lo >= 0 && hi < 16 && lo < 16 ? hi * 16 + lo : -1;
  seen.red = block_mean(bgr, stride, 32, 0, 2) > 200 && block_mean(bgr, stride, 32, 0, 0) < 60;
  if (seen.index >= 0) {
    const int x = square_x(seen.index, width);
    seen.square = block_mean(bgr, stride, x, 32, 1) > 200 && block_mean(bgr, stride, (x + 16) % width, 32, 1) < 50;
  }
  return seen;
}

/// A file decoded by GStreamer (filesrc ! decodebin ! videoconvert ! BGR appsink), every frame looked at.
struct DecodedVideo {
  std::vector<SeenFrame> frames;
  int width = 0, height = 0;
  std::string error;  ///< empty when the file decoded to its end
};

DecodedVideo decode_file(const fs::path& path) {
  gst_init(nullptr, nullptr);  // idempotent
  DecodedVideo video;
  const std::string launch = "filesrc location=\"" + path.string() +
                             "\" ! decodebin ! videoconvert ! video/x-raw,format=BGR ! appsink name=sink sync=false";
  GError* parse_error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch.c_str(), &parse_error);
  if (parse_error != nullptr) {
    video.error = parse_error->message;
    g_error_free(parse_error);
    if (pipeline) gst_object_unref(pipeline);
    return video;
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (Clock::now() < deadline) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 100 * GST_MSECOND);
    if (sample == nullptr) {
      if (gst_app_sink_is_eos(GST_APP_SINK(sink))) break;
      if (GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR); message != nullptr) {
        GError* error = nullptr;
        gst_message_parse_error(message, &error, nullptr);
        video.error = "after " + std::to_string(video.frames.size()) + " frames: " + error->message;
        g_error_free(error);
        gst_message_unref(message);
        break;
      }
      continue;
    }
    GstVideoInfo info;
    gst_video_info_from_caps(&info, gst_sample_get_caps(sample));
    video.width = GST_VIDEO_INFO_WIDTH(&info);
    video.height = GST_VIDEO_INFO_HEIGHT(&info);
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    GstVideoFrame frame;
    if (gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) {
      SeenFrame seen = look_at(static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)),
                               GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0), video.width);
      seen.pts_ns = GST_BUFFER_PTS_IS_VALID(buffer) ? static_cast<std::int64_t>(GST_BUFFER_PTS(buffer)) : -1;
      video.frames.push_back(seen);
      gst_video_frame_unmap(&frame);
    }
    gst_sample_unref(sample);
  }
  if (Clock::now() >= deadline) video.error = "no end of stream within 20 s";
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return video;
}

constexpr int kWidth = 160, kHeight = 120;
constexpr double kFps = 25.0;
constexpr std::int64_t kFrameNs = 40'000'000;

/// Writes frames 0..count-1 of the pattern, pts = index * 40 ms; returns the statuses that were not ok.
std::vector<Status> write_pattern(VideoWriter& writer, int count, ImageFormat format, std::size_t stride) {
  std::vector<Status> failures;
  for (int i = 0; i < count; ++i) {
    const auto frame = make_frame(i, kWidth, kHeight, format, stride);
    const Status s = writer.write(frame.data(), stride, i * kFrameNs);
    if (s != Status::ok) failures.push_back(s);
  }
  return failures;
}

void expect_all_frames(const DecodedVideo& video, int count, bool check_red) {
  EXPECT_EQ(video.error, "");
  ASSERT_EQ(static_cast<int>(video.frames.size()), count);
  EXPECT_EQ(video.width, kWidth);
  EXPECT_EQ(video.height, kHeight);
  for (int i = 0; i < count; ++i) {
    const SeenFrame& f = video.frames[i];
    EXPECT_EQ(f.index, i) << "frame " << i;
    EXPECT_TRUE(f.square) << "frame " << i;
    if (check_red) {
      EXPECT_TRUE(f.red) << "frame " << i;
    }
  }
  // Times survive: the file starts at 0 and frame i is at i * 40 ms (to the millisecond).
  EXPECT_NEAR(static_cast<double>(video.frames.front().pts_ns), 0.0, 1e6);
  EXPECT_NEAR(static_cast<double>(video.frames.back().pts_ns), (count - 1) * static_cast<double>(kFrameNs), 1e6);
}

class VideoWriterContainers : public ::testing::TestWithParam<const char*> {};

TEST_P(VideoWriterContainers, WritesEveryFrameDecodableWithItsPatternAndTime) {
  TempDir dir;
  const fs::path path = dir.path / (std::string("pattern.") + GetParam());
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, ImageFormat::bgr24);
  EXPECT_EQ(writer->info().container, GetParam());
  const std::size_t stride = kWidth * 3 + 32;  // rows with padding, as an image view may have
  EXPECT_TRUE(write_pattern(*writer, 120, ImageFormat::bgr24, stride).empty());
  ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  EXPECT_EQ(writer->error(), "");
  EXPECT_EQ(writer->stats().written, 120u);
  EXPECT_EQ(writer->stats().dropped, 0u);
  EXPECT_EQ(writer->stats().queued, 0u);
  expect_all_frames(decode_file(path), 120, true);
}

INSTANTIATE_TEST_SUITE_P(IoVideoWriter, VideoWriterContainers, ::testing::Values("mp4", "mkv"));

class VideoWriterFormats : public ::testing::TestWithParam<ImageFormat> {};

TEST_P(VideoWriterFormats, AcceptsTheFormatWithoutMixingChannels) {
  const ImageFormat format = GetParam();
  TempDir dir;
  const fs::path path = dir.path / "format.mkv";
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, format);
  const std::size_t stride = format == ImageFormat::gray8 || format == ImageFormat::nv12 ? kWidth + 16 : kWidth * 3;
  EXPECT_TRUE(write_pattern(*writer, 40, format, stride).empty());
  ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  const bool colour = format == ImageFormat::bgr24 || format == ImageFormat::rgb24;
  expect_all_frames(decode_file(path), 40, colour);
}

INSTANTIATE_TEST_SUITE_P(IoVideoWriter, VideoWriterFormats,
                         ::testing::Values(ImageFormat::rgb24, ImageFormat::gray8, ImageFormat::nv12));

TEST(IoVideoWriter, OddSizeLosesItsLastColumnAndRow) {
  TempDir dir;
  const fs::path path = dir.path / "odd.mp4";
  auto writer = VideoWriter::open(path.string(), 63, 47, kFps, ImageFormat::bgr24);
  EXPECT_EQ(writer->info().width, 62u);
  EXPECT_EQ(writer->info().height, 46u);
  const std::vector<std::uint8_t> frame(63 * 3 * 47, 90);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(writer->write(frame.data(), 63 * 3, -1), Status::ok);
  ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  const DecodedVideo video = decode_file(path);
  EXPECT_EQ(video.error, "");
  EXPECT_EQ(video.frames.size(), 10u);
  EXPECT_EQ(video.width, 62);
  EXPECT_EQ(video.height, 46);
}

// Nothing of the encoding pipeline outlives the writer (its bus messages once kept it alive for good).
TEST(IoVideoWriter, TheEncodingPipelineIsFreedWithTheWriter) {
  const int before = vg::test::live_gst_pipelines();
  {
    TempDir dir;
    auto writer = VideoWriter::open((dir.path / "freed.mp4").string(), 64, 48, kFps, ImageFormat::bgr24);
    ASSERT_EQ(vg::test::live_gst_pipelines(), before + 1) << "the counter sees the writer's pipeline";
    const std::vector<std::uint8_t> frame(64 * 3 * 48, 90);
    for (int i = 0; i < 5; ++i) ASSERT_EQ(writer->write(frame.data(), 64 * 3, -1), Status::ok);
    ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  }
  EXPECT_EQ(vg::test::live_gst_pipelines(), before);
}

TEST(IoVideoWriter, UnsupportedExtensionFailsNamingPathAndExtensions) {
  TempDir dir;
  const std::string path = (dir.path / "clip.avi").string();
  try {
    VideoWriter::open(path, kWidth, kHeight, kFps, ImageFormat::bgr24);
    FAIL() << "opened " << path;
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(".mp4"), std::string::npos) << what;
    EXPECT_NE(what.find(".mkv"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(IoVideoWriter, MissingDirectoryFailsNamingThePath) {
  TempDir dir;
  const std::string path = (dir.path / "missing" / "clip.mp4").string();
  try {
    VideoWriter::open(path, kWidth, kHeight, kFps, ImageFormat::bgr24);
    FAIL() << "opened " << path;
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
  }
}

TEST(IoVideoWriter, PathThroughAFileFailsNamingThePath) {
  TempDir dir;
  std::ofstream(dir.path / "plain") << "not a directory";
  const std::string path = (dir.path / "plain" / "clip.mkv").string();
  try {
    VideoWriter::open(path, kWidth, kHeight, kFps, ImageFormat::bgr24);
    FAIL() << "opened " << path;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(IoVideoWriter, BadArgumentsFailNamingWhatIsWrong) {
  TempDir dir;
  const std::string path = (dir.path / "x.mkv").string();
  EXPECT_THROW(VideoWriter::open(path, 0, kHeight, kFps, ImageFormat::bgr24), Error);
  EXPECT_THROW(VideoWriter::open(path, kWidth, kHeight, 0.0, ImageFormat::bgr24), Error);
  EXPECT_THROW(VideoWriter::open(path, kWidth, kHeight, NAN, ImageFormat::bgr24), Error);
  VideoWriterOptions options;
  options.encoder.speed_preset = "warp";
  try {
    VideoWriter::open(path, kWidth, kHeight, kFps, ImageFormat::bgr24, options);
    FAIL() << "accepted speed preset 'warp'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("warp"), std::string::npos) << e.what();
  }
}

TEST(IoVideoWriter, BadFramesAreRefusedAndWritesAfterCloseStop) {
  TempDir dir;
  auto writer = VideoWriter::open((dir.path / "x.mkv").string(), kWidth, kHeight, kFps, ImageFormat::bgr24);
  const auto frame = make_frame(0, kWidth, kHeight, ImageFormat::bgr24, kWidth * 3);
  EXPECT_EQ(writer->write(nullptr, kWidth * 3, 0), Status::invalid_argument);
  EXPECT_EQ(writer->write(frame.data(), kWidth * 3 - 1, 0), Status::invalid_argument);
  EXPECT_EQ(writer->write(frame.data(), kWidth * 3, 0), Status::ok);
  EXPECT_EQ(writer->close(), Status::ok) << writer->error();
  EXPECT_EQ(writer->close(), Status::ok);  // the same answer again
  EXPECT_EQ(writer->write(frame.data(), kWidth * 3, kFrameNs), Status::stopped);
  EXPECT_EQ(writer->stats().written, 1u);
}

// Frames written through a symlink to /dev/full: every write to it fails with ENOSPC, as on a full disk.
TEST(IoVideoWriter, FullDeviceIsReportedNamingThePath) {
  TempDir dir;
  const fs::path path = dir.path / "x.mkv";
  fs::create_symlink("/dev/full", path);
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, ImageFormat::bgr24);
  const auto failures = write_pattern(*writer, 120, ImageFormat::bgr24, kWidth * 3);
  for (Status s : failures) EXPECT_EQ(s, Status::io_error);
  EXPECT_EQ(writer->close(), Status::io_error);
  const std::string error = writer->error();
  EXPECT_NE(error.find(path.string()), std::string::npos) << error;
  EXPECT_NE(error.find("No space left"), std::string::npos) << error;
}

// A real full file system: a 256 KiB tmpfs. Mounting needs CAP_SYS_ADMIN; skipped without it.
TEST(IoVideoWriter, FullFileSystemIsReportedNamingThePath) {
  TempDir dir;
  const fs::path mount_point = dir.path / "small";
  fs::create_directories(mount_point);
  if (::mount("tmpfs", mount_point.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
  struct Unmount {
    fs::path at;
    ~Unmount() { ::umount2(at.c_str(), MNT_DETACH); }
  } unmount{mount_point};

  const fs::path path = mount_point / "noise.mp4";
  VideoWriterOptions options;
  options.encoder.quality = 10;  // noise at high quality: tens of KiB per frame
  auto writer = VideoWriter::open(path.string(), 320, 240, kFps, ImageFormat::gray8, options);
  std::mt19937 random(7);
  std::vector<std::uint8_t> frame(320 * 240);
  Status status = Status::ok;
  int written = 0;
  for (; written < 400 && status == Status::ok; ++written) {
    for (auto& p : frame) p = static_cast<std::uint8_t>(random());
    status = writer->write(frame.data(), 320, -1);
  }
  if (status == Status::ok) status = writer->close();
  EXPECT_EQ(status, Status::io_error) << "after " << written << " frames";
  EXPECT_EQ(writer->close(), Status::io_error);
  const std::string error = writer->error();
  EXPECT_NE(error.find(path.string()), std::string::npos) << error;
  EXPECT_NE(error.find("No space left"), std::string::npos) << error;
}

// What a crash leaves: the file as it is on disk while the writer is still open (never closed). A
// fragmented MP4 and a Matroska file play up to their last complete fragment / cluster.
TEST_P(VideoWriterContainers, FileIsPlayableBeforeClose) {
  TempDir dir;
  const fs::path path = dir.path / (std::string("open.") + GetParam());
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, ImageFormat::bgr24);
  // Noise below the pattern makes real-sized frames (the pattern alone would fit filesink's buffer).
  std::mt19937 random(11);
  for (int i = 0; i < 150; ++i) {  // 6 s
    auto frame = make_frame(i, kWidth, kHeight, ImageFormat::bgr24, kWidth * 3);
    for (std::size_t b = 64 * kWidth * 3; b < frame.size(); ++b) frame[b] = static_cast<std::uint8_t>(random());
    ASSERT_EQ(writer->write(frame.data(), kWidth * 3, i * kFrameNs), Status::ok);
  }
  while (writer->stats().queued > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const fs::path snapshot = dir.path / (std::string("crashed.") + GetParam());
  fs::copy_file(path, snapshot);
  const DecodedVideo video = decode_file(snapshot);
  // filesink holds back up to 64 KiB and the fragment being filled is not on disk yet: a few seconds
  // must be there, each frame the one written at its place.
  EXPECT_GE(video.frames.size(), 50u) << video.error;
  for (std::size_t i = 0; i < video.frames.size(); ++i) EXPECT_EQ(video.frames[i].index, static_cast<int>(i));
  std::printf("[ info ] %s before close: %zu of 150 frames playable\n", GetParam(), video.frames.size());
  EXPECT_EQ(writer->close(), Status::ok) << writer->error();
}

// Room for one frame and the default wait: write() waits for the encoder (back-pressure) and no
// frame is lost.
TEST(IoVideoWriter, FullQueueMakesWriteWaitAndLosesNothing) {
  TempDir dir;
  const fs::path path = dir.path / "waits.mkv";
  VideoWriterOptions options;
  options.queue_frames = 1;
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, ImageFormat::bgr24, options);
  EXPECT_TRUE(write_pattern(*writer, 100, ImageFormat::bgr24, kWidth * 3).empty());
  EXPECT_EQ(writer->stats().dropped, 0u);
  ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  expect_all_frames(decode_file(path), 100, true);
}

// Without waiting (max_wait 0) and room for one frame, a fast producer loses frames: each loss is
// counted, no write() waits, and the file holds exactly the frames counted as written.
TEST(IoVideoWriter, DroppedFramesAreCountedAndNeverWaitedFor) {
  TempDir dir;
  const fs::path path = dir.path / "drops.mkv";
  VideoWriterOptions options;
  options.queue_frames = 1;
  options.max_wait = std::chrono::milliseconds(0);
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, kFps, ImageFormat::bgr24, options);
  const auto frame = make_frame(5, kWidth, kHeight, ImageFormat::bgr24, kWidth * 3);
  int ok = 0, full = 0;
  auto slowest = Clock::duration::zero();
  for (int i = 0; i < 300; ++i) {
    const auto t0 = Clock::now();
    const Status s = writer->write(frame.data(), kWidth * 3, i * kFrameNs);
    slowest = std::max(slowest, Clock::now() - t0);
    if (s == Status::ok) ++ok;
    else if (s == Status::queue_full) ++full;
    else ADD_FAILURE() << to_string(s);
  }
  EXPECT_LT(slowest, std::chrono::milliseconds(50));
  EXPECT_EQ(writer->stats().written, static_cast<std::uint64_t>(ok));
  EXPECT_EQ(writer->stats().dropped, static_cast<std::uint64_t>(full));
  ASSERT_EQ(writer->close(), Status::ok) << writer->error();
  const DecodedVideo video = decode_file(path);
  EXPECT_EQ(video.error, "");
  EXPECT_EQ(static_cast<int>(video.frames.size()), ok);
  std::printf("[ info ] queue of 1, no wait: %d of 300 frames written, %d dropped\n", ok, full);
}

// ---- memory ---------------------------------------------------------------------------------------------

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

// Bytes the process has allocated and not freed (every malloc arena, and mmapped blocks).
std::int64_t live_heap_bytes() {
  const struct mallinfo2 info = ::mallinfo2();
  return static_cast<std::int64_t>(info.uordblks + info.hblkhd);
}

struct Growth {
  double rss_per_frame = 1e9;   ///< what the brief asks for; moves in 4 KiB pages and with arena growth
  double heap_per_frame = 1e9;  ///< live allocations: where a growing index shows, to the byte
  std::string problem;          ///< what went wrong while measuring; empty when nothing did
};

// Memory growth per frame over kTotal frames of 64x48 (the first kWarm warm up the encoder, the arenas
// of GStreamer's threads and the muxer). The muxers hold data in bursts (a fragment, a cluster), so
// one sample at each end would measure where a burst happens to be: instead the peak of the second
// half is compared with the peak of the first half; each half spans several bursts, and a per-frame
// growth shows as the difference between the peaks.
Growth growth_per_frame(const fs::path& path, VideoWriterOptions options) {
  constexpr int kW = 64, kH = 48, kWarm = 1000, kTotal = 5000, kHalf = (kTotal - kWarm) / 2, kEvery = 100;
  options.max_wait = std::chrono::seconds(30);  // a loaded machine must not turn into drops here
  auto writer = VideoWriter::open(path.string(), kW, kH, kFps, ImageFormat::bgr24, options);
  // A textured still background behind the pattern, as a camera sees it (realistic frame sizes).
  std::vector<std::vector<std::uint8_t>> frames;
  for (int i = 0; i < 16; ++i) {
    auto frame = make_frame(i, kW, kH, ImageFormat::bgr24, kW * 3);
    for (int y = 16; y < kH; ++y)
      for (int x = 0; x < kW * 3; ++x)
        if (frame[y * kW * 3 + x] == 0) frame[y * kW * 3 + x] = static_cast<std::uint8_t>(32 + (x * 7 + y * 13) % 64);
    frames.push_back(std::move(frame));
  }
  Growth growth;
  std::int64_t rss_peak[2] = {0, 0}, heap_peak[2] = {0, 0};
  for (int i = 0; i < kTotal; ++i) {
    if (i >= kWarm && (i - kWarm) % kEvery == 0) {
      while (writer->stats().queued > 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
      const int half = (i - kWarm) / kHalf;
      rss_peak[half] = std::max(rss_peak[half], resident_bytes());
      heap_peak[half] = std::max(heap_peak[half], live_heap_bytes());
    }
    if (const Status s = writer->write(frames[i % 16].data(), kW * 3, i * kFrameNs); s != Status::ok) {
      growth.problem = "write " + std::to_string(i) + ": " + std::string(to_string(s)) + " " + writer->error();
      return growth;
    }
  }
  if (const Status s = writer->close(); s != Status::ok) {
    growth.problem = "close: " + std::string(to_string(s)) + " " + writer->error();
    return growth;
  }
  growth.rss_per_frame = static_cast<double>(rss_peak[1] - rss_peak[0]) / kHalf;
  growth.heap_per_frame = static_cast<double>(heap_peak[1] - heap_peak[0]) / kHalf;
  return growth;
}

// Bounds. Live heap: 2 bytes per frame. The writer itself keeps nothing per frame (a fixed ring); the
// muxers keep their index: a fragmented MP4 an entry per fragment, Matroska a cue per key frame (at
// most one per second), a classic MP4 its sample tables, at least 4 bytes per frame (its own test
// below shows that the measurement sees that). RSS: 8 bytes per frame (4 pages per 2000 frames): it
// moves in whole pages and with the arenas of GStreamer's threads, so only a leak or a per-frame index
// like the old AVI writer's (about 18 bytes per frame) crosses it.
constexpr double kMaxHeapGrowthPerFrame = 2.0;
constexpr double kMaxRssGrowthPerFrame = 8.0;

// Where a measuring child process writes its video and leaves its numbers for its parent.
fs::path memory_scratch(pid_t test_process, const std::string& extension) {
  return fs::temp_directory_path() / ("vg_io_video_writer_memory_" + std::to_string(test_process) + "." + extension);
}

// The child's side: measure, leave "rss heap problem" in <scratch>.txt, exit.
[[noreturn]] void measure_and_exit(const std::string& extension, const VideoWriterOptions& options) {
  const fs::path video = memory_scratch(::getppid(), extension);
  const Growth growth = growth_per_frame(video, options);
  std::ofstream(video.string() + ".txt") << growth.rss_per_frame << ' ' << growth.heap_per_frame << ' '
                                         << growth.problem << '\n';
  std::_Exit(0);
}

// Measures in a fresh process (a GoogleTest death test, re-executed: "threadsafe"): in this one, the
// pipelines of earlier tests give memory back late (threads that end, arenas that shrink), which
// would hide growth.
Growth measure_in_fresh_process(const std::string& extension, const VideoWriterOptions& options,
                                const std::string& label) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(measure_and_exit(extension, options), ::testing::ExitedWithCode(0), "");
  const fs::path video = memory_scratch(::getpid(), extension);
  Growth growth;
  growth.problem = "the measuring process left no result";
  if (std::ifstream report(video.string() + ".txt"); report >> growth.rss_per_frame >> growth.heap_per_frame) {
    growth.problem.clear();
    std::getline(report >> std::ws, growth.problem);  // the rest of the line, if anything
  }
  std::error_code ignored;
  fs::remove(video, ignored);
  fs::remove(video.string() + ".txt", ignored);
  std::printf("[ info ] %s, 64x48: RSS %+.2f bytes/frame, live heap %+.2f bytes/frame\n", label.c_str(),
              growth.rss_per_frame, growth.heap_per_frame);
  EXPECT_EQ(growth.problem, "");
  return growth;
}

class VideoWriterMemory : public ::testing::TestWithParam<const char*> {};

TEST_P(VideoWriterMemory, StaysFlatOverManyFrames) {
  if (kSanitized) GTEST_SKIP() << "allocation counts are meaningless under a sanitizer";
  const Growth growth = measure_in_fresh_process(GetParam(), {}, GetParam());
  EXPECT_LE(growth.heap_per_frame, kMaxHeapGrowthPerFrame);
  EXPECT_LE(growth.rss_per_frame, kMaxRssGrowthPerFrame);
}

INSTANTIATE_TEST_SUITE_P(IoVideoWriter, VideoWriterMemory, ::testing::Values("mp4", "mkv"));

// The measurement is sharp enough to see an index that grows with every frame: a classic (not
// fragmented) MP4 keeps its sample tables in memory until close.
TEST(IoVideoWriter, MemoryMeasurementSeesAClassicMp4Index) {
  if (kSanitized) GTEST_SKIP() << "allocation counts are meaningless under a sanitizer";
  VideoWriterOptions classic;
  classic.fragment_duration = std::chrono::milliseconds(0);
  const Growth growth = measure_in_fresh_process("mp4", classic, "classic mp4");
  EXPECT_GT(growth.heap_per_frame, kMaxHeapGrowthPerFrame);
}

}  // namespace
}  // namespace vg::io::test
