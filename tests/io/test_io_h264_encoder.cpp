// Which H.264 encoder the annotated video and the RTSP output use: the SoC's hardware encoder element when it
// exists (mpph264enc on Rockchip, v4l2h264enc elsewhere), x264enc otherwise, or the one named. No hardware
// encoder exists here, so the test registers an element under the name "mpph264enc" (x264enc's type under
// that name) and checks that "auto" then picks it and the file it writes decodes. Its own binary: the
// extra element stays registered for the rest of the process.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "visiongraph/core/error.hpp"
#include "visiongraph/io/gstreamer_elements.hpp"
#include "visiongraph/io/rtsp_output.hpp"
#include "visiongraph/io/video_writer.hpp"

namespace {

namespace fs = std::filesystem;
using namespace vg;
using namespace vg::io;

constexpr std::uint32_t kWidth = 64, kHeight = 48;

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("vg_h264_" + std::to_string(::getpid()) + "_" + name);
}

/// Writes @p frames grey frames and returns what the writer says it used.
std::string write_video(const fs::path& path, const VideoWriterOptions& options, int frames = 10) {
  auto writer = VideoWriter::open(path.string(), kWidth, kHeight, 25.0, ImageFormat::gray8, options);
  std::vector<std::uint8_t> frame(kWidth * kHeight, 128);
  for (int i = 0; i < frames; ++i) {
    frame[static_cast<std::size_t>(i)] = 255;
    EXPECT_EQ(writer->write(frame.data(), kWidth, i * 40'000'000LL), Status::ok) << writer->error();
  }
  EXPECT_EQ(writer->close(), Status::ok) << writer->error();
  return writer->info().encoder;
}

/// Frames a decoder gets out of @p path (decodebin: any H.264 in MP4).
int decoded_frames(const fs::path& path) {
  const std::string launch = "filesrc location=\"" + path.string() + "\" ! decodebin ! fakesink name=sink signal-handoffs=false";
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch.c_str(), &error);
  if (error != nullptr) {
    g_error_free(error);
    return -1;
  }
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  int frames = 0;
  GstPad* pad = gst_element_get_static_pad(sink, "sink");
  gst_pad_add_probe(
      pad, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad*, GstPadProbeInfo*, gpointer count) -> GstPadProbeReturn {
        ++*static_cast<int*>(count);
        return GST_PAD_PROBE_OK;
      },
      &frames, nullptr);
  gst_object_unref(pad);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* end = gst_bus_timed_pop_filtered(bus, 20 * GST_SECOND,
                                               static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  const bool ok = end != nullptr && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS;
  if (end != nullptr) gst_message_unref(end);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return ok ? frames : -1;
}

bool element_exists(const char* name) {
  GstElementFactory* f = gst_element_factory_find(name);
  if (f != nullptr) gst_object_unref(f);
  return f != nullptr;
}

class H264EncoderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

TEST_F(H264EncoderTest, AutoIsX264WithoutAHardwareEncoderAndTheFileDecodes) {
  if (element_exists("mpph264enc") || element_exists("v4l2h264enc")) GTEST_SKIP() << "this machine has a hardware encoder";
  EXPECT_EQ(h264_encoder_choice(), "x264enc");
  const fs::path path = temp_path("auto.mp4");
  EXPECT_EQ(write_video(path, {}), "x264enc");
  EXPECT_EQ(decoded_frames(path), 10);
  fs::remove(path);
}

TEST_F(H264EncoderTest, AnEncoderThatDoesNotExistIsRefusedByNameBeforeAnyFile) {
  VideoWriterOptions options;
  options.encoder.element = "nvh264enc";
  const fs::path path = temp_path("missing.mp4");
  try {
    (void)VideoWriter::open(path.string(), kWidth, kHeight, 25.0, ImageFormat::gray8, options);
    FAIL() << "opened with a missing encoder";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'nvh264enc' does not exist here"), std::string::npos) << msg;
    EXPECT_NE(msg.find(path.string()), std::string::npos) << msg;
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_THROW(VideoWriter::check(path.string(), kWidth, kHeight, 25.0, ImageFormat::gray8, options), Error);
  RtspOutputOptions rtsp;
  rtsp.encoder.element = "nvh264enc";
  EXPECT_THROW((void)RtspOutput::start(kWidth, kHeight, 25.0, ImageFormat::gray8, rtsp), Error);
}

TEST_F(H264EncoderTest, NamedX264IsUsedAsNamed) {
  VideoWriterOptions options;
  options.encoder.element = "x264enc";
  const fs::path path = temp_path("named.mp4");
  EXPECT_EQ(write_video(path, options), "x264enc");
  EXPECT_EQ(decoded_frames(path), 10);
  fs::remove(path);
}

// Last: it registers the stand-in hardware encoder for the rest of the process.
TEST_F(H264EncoderTest, AutoPrefersTheSocsEncoderElementForFilesAndRtsp) {
  if (element_exists("mpph264enc")) GTEST_SKIP() << "a real mpph264enc exists here";
  GstElement* x264 = gst_element_factory_make("x264enc", nullptr);
  ASSERT_NE(x264, nullptr) << "x264enc (gstreamer1.0-plugins-ugly) is needed for the stand-in";
  const GType type = G_OBJECT_TYPE(x264);
  gst_object_unref(x264);
  ASSERT_TRUE(gst_element_register(nullptr, "mpph264enc", GST_RANK_NONE, type));
  EXPECT_EQ(h264_encoder_choice(), "mpph264enc");
  const fs::path path = temp_path("hardware.mp4");
  VideoWriterOptions options;
  options.encoder.bitrate_kbps = 500;  // a hardware encoder gets the bit rate through the properties it has
  EXPECT_EQ(write_video(path, options), "mpph264enc");
  // The stand-in is x264 with its own defaults (B-frames, lookahead: our x264 settings are not applied to a
  // hardware encoder), which the fragmented MP4 may end short of the last frames with; a file that decodes is
  // what this checks.
  EXPECT_GE(decoded_frames(path), 5);
  fs::remove(path);
  auto rtsp = RtspOutput::start(kWidth, kHeight, 25.0, ImageFormat::gray8, {});
  EXPECT_EQ(rtsp->encoder(), "mpph264enc");
  EXPECT_EQ(rtsp->stop(), Status::ok);
}

}  // namespace
