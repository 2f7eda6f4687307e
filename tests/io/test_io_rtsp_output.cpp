// RtspOutput: a live H.264 stream served in-process and watched by real GStreamer RTSP clients started
// by the test (rtspsrc ! rtph264depay ! avdec_h264): what they see is what was pushed, two viewers at
// once, a late viewer gets a picture at once, push() never waits, stop() is bounded with viewers on.

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "visiongraph/core/error.hpp"
#include "visiongraph/io/rtsp_output.hpp"

namespace vg::io {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// ---- the pattern: every frame says its own index (0..255) ------------------------------------------------
// 16x16 blocks on black: (0,0) gray = high nibble, (16,0) gray = low nibble, (32,0) pure red (catches
// swapped channels), and a white square moving along row 32.
constexpr int kWidth = 160, kHeight = 120, kBlock = 16;
constexpr double kFps = 25.0;

std::uint8_t nibble_gray(int nibble) { return static_cast<std::uint8_t>(8 + 16 * nibble); }
int square_x(int index) { return kBlock * (index % (kWidth / kBlock)); }

std::vector<std::uint8_t> make_bgr_frame(int index) {
  std::vector<std::uint8_t> bgr(kWidth * kHeight * 3, 0);
  auto fill = [&](int x0, int y0, std::uint8_t b, std::uint8_t g, std::uint8_t r) {
    for (int y = y0; y < y0 + kBlock; ++y)
      for (int x = x0; x < x0 + kBlock; ++x) {
        std::uint8_t* p = &bgr[(y * kWidth + x) * 3];
        p[0] = b, p[1] = g, p[2] = r;
      }
  };
  const std::uint8_t hi = nibble_gray(index / 16 % 16), lo = nibble_gray(index % 16);
  fill(0, 0, hi, hi, hi);
  fill(16, 0, lo, lo, lo);
  fill(32, 0, 0, 0, 255);
  fill(square_x(index), 32, 255, 255, 255);
  return bgr;
}

double block_mean(const std::uint8_t* bgr, std::size_t stride, int x0, int y0, int channel) {
  double sum = 0;
  int n = 0;
  for (int y = y0 + 3; y < y0 + kBlock - 3; ++y)
    for (int x = x0 + 3; x < x0 + kBlock - 3; ++x, ++n) sum += bgr[y * stride + x * 3 + channel];
  return sum / n;
}

/// What a viewer saw in one frame.
struct SeenFrame {
  int index = -1;       ///< -1 when the gray blocks are not clean nibbles (a broken picture)
  bool red = false;     ///< the red block is red (not blue)
  bool square = false;  ///< the white square is where the index puts it
  int width = 0, height = 0;
};

SeenFrame look_at(const std::uint8_t* bgr, std::size_t stride) {
  SeenFrame seen;
  auto nibble = [&](int x0) {
    const double n = (block_mean(bgr, stride, x0, 0, 1) - 8) / 16;
    return std::abs(n - std::round(n)) < 0.4 && n > -0.5 && n < 15.5 ? static_cast<int>(std::round(n)) : -1;
  };
  const int hi = nibble(0), lo = nibble(16);
  seen.index = hi >= 0 && lo >= 0 ? hi * 16 + lo : -1;
  seen.red = block_mean(bgr, stride, 32, 0, 2) > 200 && block_mean(bgr, stride, 32, 0, 0) < 60;
  if (seen.index >= 0) {
    const int x = square_x(seen.index);
    seen.square = block_mean(bgr, stride, x, 32, 1) > 200 && block_mean(bgr, stride, (x + 16) % kWidth, 32, 1) < 50;
  }
  return seen;
}

/// A GStreamer RTSP client: rtspsrc ! rtph264depay ! avdec_h264 ! videoconvert ! BGR appsink.
class Viewer {
 public:
  Viewer(const std::string& url, const char* protocol) {
    const std::string launch = "rtspsrc location=" + url + " latency=0 protocols=" + protocol +
                               " ! rtph264depay ! avdec_h264 ! videoconvert ! video/x-raw,format=BGR"
                               " ! appsink name=sink sync=false max-buffers=64";
    GError* error = nullptr;
    pipeline_ = gst_parse_launch(launch.c_str(), &error);
    if (error != nullptr) {
      ADD_FAILURE() << error->message;
      g_error_free(error);
    }
    sink_ = gst_bin_get_by_name(GST_BIN(pipeline_), "sink");
    gst_element_set_state(pipeline_, GST_STATE_PLAYING);
  }
  ~Viewer() { close(); }

  /// The next frame, or nothing when none came within @p timeout (or the stream ended).
  std::optional<SeenFrame> next(std::chrono::milliseconds timeout) {
    if (sink_ == nullptr) return std::nullopt;
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink_), static_cast<GstClockTime>(timeout.count()) * GST_MSECOND);
    if (sample == nullptr) return std::nullopt;
    GstVideoInfo info;
    gst_video_info_from_caps(&info, gst_sample_get_caps(sample));
    GstVideoFrame frame;
    SeenFrame seen;
    if (gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ)) {
      seen = look_at(static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)),
                     GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0));
      gst_video_frame_unmap(&frame);
    }
    seen.width = GST_VIDEO_INFO_WIDTH(&info);
    seen.height = GST_VIDEO_INFO_HEIGHT(&info);
    gst_sample_unref(sample);
    return seen;
  }

  /// Frames until @p count arrived or @p limit passed.
  std::vector<SeenFrame> collect(std::size_t count, std::chrono::milliseconds limit) {
    std::vector<SeenFrame> frames;
    const auto until = Clock::now() + limit;
    while (frames.size() < count && Clock::now() < until)
      if (auto frame = next(100ms)) frames.push_back(*frame);
    return frames;
  }

  bool ended() const { return sink_ != nullptr && gst_app_sink_is_eos(GST_APP_SINK(sink_)); }
  bool failed() const {
    GstBus* bus = gst_element_get_bus(pipeline_);
    GstMessage* message = gst_bus_peek(bus);
    bool error = false;
    while (message != nullptr && !error) {  // look without taking: only errors matter here
      error = GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR;
      gst_message_unref(message);
      if (!error) {
        gst_message_unref(gst_bus_pop(bus));
        message = gst_bus_peek(bus);
      }
    }
    gst_object_unref(bus);
    return error;
  }

  void close() {
    if (pipeline_ == nullptr) return;
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    gst_object_unref(sink_);
    gst_object_unref(pipeline_);
    sink_ = pipeline_ = nullptr;
  }

 private:
  GstElement* pipeline_ = nullptr;
  GstElement* sink_ = nullptr;
};

/// Pushes the pattern at 25 fps from its own thread, as the CLI's consumer thread would.
class Pusher {
 public:
  explicit Pusher(RtspOutput& output) : thread_([this, &output] {
    int index = 0;
    auto next = Clock::now();
    while (!stop_.load()) {
      const auto frame = make_bgr_frame(index % 256);
      const auto t0 = Clock::now();
      const Status s = output.push(frame.data(), kWidth * 3, -1);
      slowest_ = std::max(slowest_, Clock::now() - t0);
      if (s != Status::ok && s != Status::queue_full && s != Status::stopped) bad_.store(true);
      ++index;
      next += 40ms;
      std::this_thread::sleep_until(next);
    }
  }) {}
  ~Pusher() { stop(); }
  void stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  bool saw_bad_status() const { return bad_.load(); }
  Clock::duration slowest() const { return slowest_; }  ///< read after stop()

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> bad_{false};
  Clock::duration slowest_{};
  std::thread thread_;
};

// Every frame a viewer got shows a clean pattern, in pushed order (frames may be skipped, never reordered).
void expect_pattern_in_order(const std::vector<SeenFrame>& frames, const char* viewer) {
  int previous = -1;
  for (std::size_t position = 0; position < frames.size(); ++position) {
    const SeenFrame& f = frames[position];
    SCOPED_TRACE(std::string(viewer) + ", picture " + std::to_string(position));
    EXPECT_EQ(f.width, kWidth) << viewer;
    EXPECT_EQ(f.height, kHeight) << viewer;
    EXPECT_GE(f.index, 0) << viewer << ": a broken picture";
    EXPECT_TRUE(f.red) << viewer << ": frame " << f.index;
    EXPECT_TRUE(f.square) << viewer << ": frame " << f.index;
    if (f.index >= 0 && previous >= 0) {
      const int step = (f.index - previous + 256) % 256;  // the index wraps after 255
      EXPECT_TRUE(step > 0 && step < 128) << viewer << ": frame " << f.index << " after " << previous;
    }
    previous = f.index;
  }
}

TEST(IoRtspOutput, ViewerSeesWhatWasPushed) {
  auto output = RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24);
  ASSERT_NE(output->port(), 0);
  EXPECT_EQ(output->url(), "rtsp://127.0.0.1:" + std::to_string(output->port()) + "/annotated");
  Pusher pusher(*output);
  Viewer viewer(output->url(), "tcp");
  const auto frames = viewer.collect(25, 10s);
  EXPECT_EQ(output->clients(), 1u);
  pusher.stop();
  ASSERT_EQ(frames.size(), 25u) << "viewer failed: " << viewer.failed() << "; sent " << output->stats().sent
                                << ", unwatched " << output->stats().unwatched << ", dropped " << output->stats().dropped
                                << "; " << output->error();
  expect_pattern_in_order(frames, "viewer");
  EXPECT_FALSE(pusher.saw_bad_status());
  EXPECT_LT(pusher.slowest(), 250ms);  // never waits for the encoder (scheduling on a loaded machine aside)
  const RtspOutputStats stats = output->stats();
  EXPECT_GE(stats.sent, 25u);
  EXPECT_EQ(output->error(), "");
  viewer.close();
  EXPECT_EQ(output->stop(), Status::ok);
}

TEST(IoRtspOutput, PushWithoutViewerReturnsAtOnceAndCountsTheFrame) {
  constexpr int kW = 1280, kH = 720;
  auto output = RtspOutput::start(kW, kH, kFps, ImageFormat::bgr24);
  const std::vector<std::uint8_t> frame(kW * kH * 3, 77);
  const auto t0 = Clock::now();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(output->push(frame.data(), kW * 3, -1), Status::ok);
  // 1000 copies of a 2.7 MB frame would take far longer: nothing is copied without a viewer.
  EXPECT_LT(Clock::now() - t0, 500ms);
  EXPECT_EQ(output->stats().unwatched, 1000u);
  EXPECT_EQ(output->stats().sent, 0u);
  EXPECT_EQ(output->clients(), 0u);
  EXPECT_EQ(output->push(nullptr, kW * 3, -1), Status::invalid_argument);
  EXPECT_EQ(output->push(frame.data(), kW * 3 - 1, -1), Status::invalid_argument);
  EXPECT_EQ(output->stop(), Status::ok);
  EXPECT_EQ(output->push(frame.data(), kW * 3, -1), Status::stopped);
}

// A second viewer joins a running stream whose key frames are 10 s apart: it asks for a key frame
// when it starts playing, so its first clean picture comes at once, not at the next interval.
TEST(IoRtspOutput, TwoViewersAtOnceBothSeeThePatternAndALateOneStartsAtOnce) {
  RtspOutputOptions options;
  options.encoder.key_interval = 10s;
  options.path = "/live/cam1";
  auto output = RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24, options);
  EXPECT_NE(output->url().find("/live/cam1"), std::string::npos);
  Pusher pusher(*output);
  Viewer first(output->url(), "tcp");
  const auto first_frames = first.collect(10, 10s);
  ASSERT_EQ(first_frames.size(), 10u);

  // Until its first key frame a late viewer decodes P-frames without their references (broken
  // pictures, as any RTSP viewer joining a running stream); its first clean picture must come long
  // before the next scheduled key frame.
  Viewer second(output->url(), "udp");
  const auto t0 = Clock::now();
  std::vector<SeenFrame> second_start;
  while (second_start.empty() && Clock::now() - t0 < 10s)
    if (auto frame = second.next(100ms); frame && frame->index >= 0 && frame->red && frame->square)
      second_start.push_back(*frame);
  const auto waited = Clock::now() - t0;
  ASSERT_EQ(second_start.size(), 1u);
  EXPECT_LT(waited, 4s);  // connect, set up, play, one key frame; a key interval would be 10 s
  EXPECT_EQ(output->clients(), 2u);
  const auto first_more = first.collect(15, 10s);
  const auto second_more = second.collect(15, 10s);
  pusher.stop();
  EXPECT_EQ(first_more.size(), 15u);
  EXPECT_EQ(second_more.size(), 15u);
  expect_pattern_in_order(first_frames, "first viewer");
  expect_pattern_in_order(first_more, "first viewer");
  expect_pattern_in_order(second_start, "second viewer");
  expect_pattern_in_order(second_more, "second viewer");
  EXPECT_EQ(output->stop(), Status::ok);
}

TEST(IoRtspOutput, StopWithViewersConnectedIsBoundedAndEndsTheirStream) {
  auto output = RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24);
  Pusher pusher(*output);
  Viewer viewer(output->url(), "tcp");
  ASSERT_EQ(viewer.collect(5, 10s).size(), 5u);
  const auto t0 = Clock::now();
  EXPECT_EQ(output->stop(2s), Status::ok);
  EXPECT_LT(Clock::now() - t0, 2500ms);
  EXPECT_EQ(output->clients(), 0u);
  // The viewer learns that the stream is over (end of stream or a closed connection), in bounded time.
  const auto until = Clock::now() + 10s;
  while (!viewer.ended() && !viewer.failed() && Clock::now() < until) (void)viewer.next(100ms);
  EXPECT_TRUE(viewer.ended() || viewer.failed());
  pusher.stop();
  EXPECT_FALSE(pusher.saw_bad_status());
}

TEST(IoRtspOutput, ViewerThatLeavesReleasesTheMediaAndANewOneIsServed) {
  auto output = RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24);
  Pusher pusher(*output);
  {
    Viewer viewer(output->url(), "tcp");
    ASSERT_EQ(viewer.collect(5, 10s).size(), 5u);
  }
  const auto until = Clock::now() + 5s;
  while (output->clients() > 0 && Clock::now() < until) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(output->clients(), 0u);
  const std::uint64_t unwatched = output->stats().unwatched;
  std::this_thread::sleep_for(300ms);
  EXPECT_GT(output->stats().unwatched, unwatched);  // nobody watches: frames are discarded again
  Viewer again(output->url(), "tcp");
  const auto frames = again.collect(5, 10s);
  EXPECT_EQ(frames.size(), 5u);
  expect_pattern_in_order(frames, "returning viewer");
  pusher.stop();
  EXPECT_EQ(output->stop(), Status::ok);
}

// A port nothing listens on is taken by a first output; a second one on it fails naming address and port.
TEST(IoRtspOutput, PortInUseFailsNamingAddressAndPort) {
  auto first = RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24);
  RtspOutputOptions options;
  options.port = first->port();
  try {
    RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24, options);
    FAIL() << "a second output listens on port " << first->port();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(first->port())), std::string::npos) << e.what();
  }
}

TEST(IoRtspOutput, BadOptionsFailNamingWhatIsWrong) {
  RtspOutputOptions bad_path;
  bad_path.path = "annotated";
  EXPECT_THROW(RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24, bad_path), Error);
  RtspOutputOptions bad_address;
  bad_address.bind_address = "300.1.1.1";
  EXPECT_THROW(RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24, bad_address), Error);
  RtspOutputOptions bad_preset;
  bad_preset.encoder.speed_preset = "warp";
  try {
    RtspOutput::start(kWidth, kHeight, kFps, ImageFormat::bgr24, bad_preset);
    FAIL() << "accepted speed preset 'warp'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("warp"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RtspOutput::start(0, kHeight, kFps, ImageFormat::bgr24), Error);
}

}  // namespace
}  // namespace vg::io
