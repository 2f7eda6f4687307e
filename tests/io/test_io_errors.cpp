// Errors: each names the spec and says what is wrong, in bounded time; close() wakes a blocked read().

#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <thread>

#include "frame_checks.hpp"  // the library's internal checks (framework/io/src)
#include "gst_init.hpp"
#include "io_test_util.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io::test {
namespace {

// The vg::Error message of opening @p spec (fails the test when open succeeds).
std::string open_error(const std::string& spec, const SourceOptions& options = {}) {
  try {
    auto source = Source::open(spec, options);
    ADD_FAILURE() << spec << ": opened, expected vg::Error";
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(IoErrors, MissingFileIsNotFound) {
  const std::string spec = "/nonexistent/dir/clip.mp4";
  const std::string message = open_error(spec);
  EXPECT_NE(message.find(spec), std::string::npos) << message;
  EXPECT_NE(message.find("not found"), std::string::npos) << message;
}

TEST(IoErrors, MissingVideoDevice) {
  EXPECT_EQ(open_error("/dev/video99"), "/dev/video99: no such video device");
}

TEST(IoErrors, PipelineWithoutAppsink) {
  const std::string spec = "gst:videotestsrc num-buffers=3 ! fakesink";
  const std::string message = open_error(spec);
  EXPECT_NE(message.find(spec), std::string::npos) << message;
  EXPECT_NE(message.find("no appsink"), std::string::npos) << message;
}

TEST(IoErrors, PipelineWithUnknownElement) {
  const std::string spec = "gst:videotestsrc ! no_such_element_here ! appsink";
  const std::string message = open_error(spec);
  EXPECT_NE(message.find(spec), std::string::npos) << message;
  EXPECT_NE(message.find("no_such_element_here"), std::string::npos) << message;
}

TEST(IoErrors, UndeliverableCapsAreNamed) {
  const std::string spec = "gst:videotestsrc num-buffers=5 ! video/x-raw,format=YUY2 ! appsink";
  const std::string message = open_error(spec);
  EXPECT_NE(message.find(spec), std::string::npos) << message;
  EXPECT_NE(message.find("YUY2"), std::string::npos) << message;
}

TEST(IoErrors, CapsNegotiationFailure) {
  // The appsink accepts only BGR, upstream insists on YUY2 and nothing converts (GStreamer sees it when
  // linking, before any data flows).
  const std::string spec = "gst:videotestsrc ! video/x-raw,format=YUY2 ! appsink caps=video/x-raw,format=BGR";
  const std::string message = open_error(spec);
  EXPECT_NE(message.find(spec), std::string::npos) << message;
  EXPECT_NE(message.find("can't handle caps video/x-raw, format=(string)YUY2"), std::string::npos) << message;
}

// A source whose buffers are smaller than its caps say (capssetter rewrites the size, the buffers stay
// small, as NVMM or any lying element would give): every such frame is refused before a byte is read.
TEST(IoErrors, ABufferSmallerThanItsCapsIsRefusedNotRead) {
  const std::string spec =
      "gst:videotestsrc num-buffers=5 ! video/x-raw,format=BGR,width=64,height=48 ! "
      "capssetter caps=\"video/x-raw,width=128,height=96\" ! appsink";
  auto source = Source::open(spec);
  EXPECT_EQ(source->info().width, 128u);
  Frame frame;
  EXPECT_EQ(source->read(frame, 5s), Status::io_error);
  EXPECT_NE(source->error().find("a buffer of 9216 bytes is smaller than the 36864 bytes its caps imply"), std::string::npos)
      << source->error();
  EXPECT_FALSE(frame.lease.held()) << "nothing was handed out";
}

TEST(IoErrors, MemoryTheCpuCannotReadIsNamedWithWhatToDo) {
  detail::ensure_gstreamer();
  GstCaps* nvmm = gst_caps_from_string("video/x-raw(memory:NVMM),format=NV12,width=64,height=48");
  const std::string why = detail::unreadable_memory(nvmm);
  gst_caps_unref(nvmm);
  EXPECT_NE(why.find("memory:NVMM memory, which the CPU cannot read"), std::string::npos) << why;
  EXPECT_NE(why.find("nvvideoconvert"), std::string::npos) << why;
  for (const char* readable : {"video/x-raw,format=BGR,width=4,height=4", "video/x-raw(memory:DMABuf),format=NV12",
                               "video/x-raw(memory:SystemMemory),format=GRAY8"}) {
    GstCaps* caps = gst_caps_from_string(readable);
    EXPECT_EQ(detail::unreadable_memory(caps), "") << readable;
    gst_caps_unref(caps);
  }
  GstCaps* gl = gst_caps_from_string("video/x-raw(memory:GLMemory),format=RGBA");
  EXPECT_NE(detail::unreadable_memory(gl).find("memory:GLMemory"), std::string::npos);
  gst_caps_unref(gl);
}

TEST(IoErrors, BytesNeededFollowTheLayout) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  ExternalBuffer nv12{};
  nv12.num_planes = 2;
  nv12.stride[0] = nv12.stride[1] = 64;
  nv12.offset[1] = 64 * 48;
  EXPECT_EQ(detail::bytes_needed(info, ImageFormat::nv12, nv12), 64u * 48 + 64u * 24);
  nv12.stride[0] = nv12.stride[1] = 128;  // padded rows: the last row needs only its pixels
  nv12.offset[1] = 128 * 48;
  EXPECT_EQ(detail::bytes_needed(info, ImageFormat::nv12, nv12), 128u * 48 + 128u * 23 + 64);
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_BGR, 10, 3);
  ExternalBuffer bgr{};
  bgr.num_planes = 1;
  bgr.stride[0] = 32;
  EXPECT_EQ(detail::bytes_needed(info, ImageFormat::bgr24, bgr), 32u * 2 + 30);
}

TEST(IoErrors, NotAVideo) {
  TempDir dir;
  const auto path = dir.path / "noise.mp4";
  std::ofstream(path) << std::string(4096, 'x');
  SourceOptions options;
  options.open_timeout = 5s;
  const std::string message = open_error(path.string(), options);
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
}

TEST(IoErrors, ErrorMidStreamIsIoError) {
  // The stream starts fine, then an element in the middle fails (identity error-after posts an ERROR).
  const std::string spec =
      "gst:videotestsrc num-buffers=100 ! video/x-raw,width=64,height=48 ! jpegenc ! "
      "identity error-after=5 ! jpegdec ! videoconvert ! video/x-raw,format=BGR ! appsink name=sink sync=false";
  auto source = Source::open(spec);
  Frame frame;
  Status status;
  int count = 0;
  while ((status = source->read(frame, 5s)) == Status::ok) ++count;
  EXPECT_EQ(status, Status::io_error);
  EXPECT_LE(count, 5);
  EXPECT_EQ(source->error().rfind(spec + ": Failed after iterations as requested. (", 0), 0u) << source->error();
  EXPECT_GE(source->stats().errors, 1u);
}

TEST(IoErrors, ReadTimesOutThenCloseWakesABlockedRead) {
  const std::string spec = "gst:videotestsrc is-live=true ! video/x-raw,format=BGR,width=32,height=24,framerate=1/2 ! appsink";
  auto source = Source::open(spec);
  EXPECT_TRUE(source->info().live);
  Frame frame;
  ASSERT_EQ(source->read(frame, 5s), Status::ok);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(source->read(frame, 100ms), Status::timeout);  // next frame in 2 s
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);

  auto blocked = std::async(std::launch::async, [&] {
    Frame f;
    return source->read(f, 30s);
  });
  std::this_thread::sleep_for(200ms);
  const auto t1 = std::chrono::steady_clock::now();
  source->close();
  ASSERT_EQ(blocked.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(blocked.get(), Status::stopped);
  EXPECT_LT(std::chrono::steady_clock::now() - t1, 2s);
  EXPECT_EQ(source->read(frame, 1s), Status::stopped);
}

TEST(IoErrors, EndOfStreamOfAPipeline) {
  auto source = Source::open("gst:videotestsrc num-buffers=7 ! video/x-raw,format=GRAY8,width=16,height=16 ! appsink");
  EXPECT_FALSE(source->info().live);
  EXPECT_EQ(source->info().format, ImageFormat::gray8);
  Frame frame;
  int count = 0;
  Status status;
  while ((status = source->read(frame, 5s)) == Status::ok) ++count;
  EXPECT_EQ(status, Status::end_of_stream) << source->error();
  EXPECT_EQ(count, 7);
}

}  // namespace
}  // namespace vg::io::test
