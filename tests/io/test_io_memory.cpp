// Memory: frames are the pipeline's own buffers (host or DMA-BUF), laid out as GStreamer lays them out,
// and every lease gives its buffer back exactly once.

#include <gtest/gtest.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <unistd.h>

#include <set>
#include <vector>

#include "dmabuf_appsrc.hpp"
#include "gst_pipeline_counter.hpp"
#include "io_test_util.hpp"
#include "visiongraph/core/clock.hpp"

namespace vg::io::test {
namespace {

using vg::test::DmabufAppsrc;

// GLib criticals (a double unref, a bad cast) fail the test that caused them.
class CriticalCounter : public ::testing::Environment {
 public:
  void SetUp() override {
    gst_init(nullptr, nullptr);
    g_log_set_default_handler(
        [](const gchar* domain, GLogLevelFlags level, const gchar* message, gpointer) {
          if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)) ++count();
          g_log_default_handler(domain, level, message, nullptr);
        },
        nullptr);
  }
  static int& count() {
    static int n = 0;
    return n;
  }
};
const auto* const kCriticals = ::testing::AddGlobalTestEnvironment(new CriticalCounter);

class IoMemory : public ::testing::Test {
 protected:
  void SetUp() override { criticals_before_ = CriticalCounter::count(); }
  void TearDown() override { EXPECT_EQ(CriticalCounter::count(), criticals_before_) << "GLib criticals were logged"; }
  int criticals_before_ = 0;
};

TEST_F(IoMemory, HostFramesAreTheBuffersThemselves) {
  DmabufAppsrc::Options o;
  o.memory = DmabufAppsrc::Memory::host;
  o.format = "BGR";
  o.width = 50;
  o.height = 20;
  o.frames = 12;
  DmabufAppsrc feed(o);
  {
    auto source = Source::open(feed.spec());
    EXPECT_FALSE(source->info().dmabuf);
    Frame frame;
    for (std::uint64_t i = 0; i < 12; ++i) {
      ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
      const auto* expected = feed.host_frame(i % o.pool_size);
      EXPECT_EQ(static_cast<const std::uint8_t*>(frame.memory.block.data) + frame.memory.offset[0], expected);
      EXPECT_EQ(frame.memory.block.dmabuf_fd, -1);
      EXPECT_EQ(frame.memory.stride[0], feed.plane_stride(0));  // padded rows, from the video meta
      EXPECT_EQ(frame.meta.row_stride, feed.plane_stride(0));
      EXPECT_EQ(static_cast<const std::uint8_t*>(frame.memory.block.data)[frame.memory.offset[0]], i);
      EXPECT_EQ(frame.media_ns, static_cast<std::int64_t>(i * (GST_SECOND / o.fps)));  // as the feeder stamps
    }
    EXPECT_EQ(source->read(frame, 5s), Status::end_of_stream) << source->error();
  }
  EXPECT_EQ(feed.finalized(), feed.created());
}

TEST_F(IoMemory, Nv12LayoutMatchesGstVideoInfo) {
  // An odd size: GStreamer pads rows to 4 bytes, the chroma plane has (w+1)/2 pairs and (h+1)/2 rows.
  const std::string spec = "gst:videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=322,height=242 ! appsink";
  auto source = Source::open(spec);
  EXPECT_FALSE(source->stats().converting);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 322, 242);
  Frame frame;
  ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
  EXPECT_EQ(frame.meta.format, ImageFormat::nv12);
  ASSERT_EQ(frame.memory.num_planes, 2u);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(frame.memory.offset[p], GST_VIDEO_INFO_PLANE_OFFSET(&info, p)) << "plane " << p;
    EXPECT_EQ(frame.memory.stride[p], static_cast<std::size_t>(GST_VIDEO_INFO_PLANE_STRIDE(&info, p))) << "plane " << p;
  }
  EXPECT_EQ(frame.memory.block.size, GST_VIDEO_INFO_SIZE(&info));
}

TEST_F(IoMemory, GrayAndRgbPipelines) {
  for (const char* format : {"GRAY8", "RGB", "BGR"}) {
    auto source = Source::open(std::string("gst:videotestsrc num-buffers=2 ! video/x-raw,format=") + format +
                               ",width=30,height=10 ! appsink");
    Frame frame;
    ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
    EXPECT_EQ(frame.memory.num_planes, 1u);
    EXPECT_EQ(frame.memory.stride[0], std::string(format) == "GRAY8" ? 32u : 92u);  // rows padded to 4
  }
}

TEST_F(IoMemory, ConversionIsReportedOnlyWhenItConverts) {
  auto passthrough = Source::open(
      "gst:videotestsrc num-buffers=2 ! video/x-raw,format=NV12,width=64,height=48 ! videoconvert ! "
      "video/x-raw,format=NV12 ! appsink");
  EXPECT_FALSE(passthrough->stats().converting);
  auto converting = Source::open(
      "gst:videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,height=48 ! videoconvert ! "
      "video/x-raw,format=BGR ! appsink");
  EXPECT_TRUE(converting->stats().converting);
}

TEST_F(IoMemory, DmabufFramesCarryTheirFdAndOffset) {
  DmabufAppsrc::Options o;  // NV12 64x48, 8 memfds, frame at byte 4096 of each, rows padded to 64
  o.frames = 24;
  o.width = 40;  // 40-byte rows padded to 64
  DmabufAppsrc feed(o);
  {
    SourceOptions options;
    options.max_buffers = 2;
    auto source = Source::open(feed.spec(), options);
    EXPECT_TRUE(source->info().dmabuf);
    EXPECT_EQ(source->info().format, ImageFormat::nv12);
    std::set<int> seen;
    Frame frame;
    for (std::uint64_t i = 0; i < 24; ++i) {
      ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
      const MemoryBlock& block = frame.memory.block;
      ASSERT_GE(block.dmabuf_fd, 0);
      EXPECT_EQ(block.dmabuf_fd, feed.fds()[i % o.pool_size]);  // the same fds, round-robin
      EXPECT_EQ(block.fd_offset, o.memory_offset);
      ASSERT_EQ(frame.memory.num_planes, 2u);
      for (int p = 0; p < 2; ++p) {
        EXPECT_EQ(frame.memory.offset[p], feed.plane_offset(p));
        EXPECT_EQ(frame.memory.stride[p], feed.plane_stride(p));
      }
      // fd_offset + offset[p] is plane p's first byte inside the fd; block.data maps the same byte.
      std::uint8_t y0 = 0xff;
      ASSERT_EQ(pread(block.dmabuf_fd, &y0, 1, static_cast<off_t>(block.fd_offset + frame.memory.offset[0])), 1);
      EXPECT_EQ(y0, static_cast<std::uint8_t>(i));
      EXPECT_EQ(static_cast<const std::uint8_t*>(block.data)[frame.memory.offset[0]], y0);
      seen.insert(block.dmabuf_fd);
      frame.lease.release();
    }
    EXPECT_EQ(seen.size(), o.pool_size);
  }
  EXPECT_EQ(feed.finalized(), feed.created());
}

TEST_F(IoMemory, UnmappedDmabufFramesCarryOnlyTheFd) {
  DmabufAppsrc::Options o;
  o.frames = 8;
  o.width = 40;
  DmabufAppsrc feed(o);
  {
    SourceOptions options;
    options.map_dmabuf = false;  // device-only consumers: no mmap per frame
    auto source = Source::open(feed.spec(), options);
    Frame frame;
    for (std::uint64_t i = 0; i < 8; ++i) {
      ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
      const MemoryBlock& block = frame.memory.block;
      EXPECT_EQ(block.data, nullptr) << "not mapped for the CPU";
      EXPECT_EQ(block.dmabuf_fd, feed.fds()[i % o.pool_size]);
      EXPECT_EQ(block.fd_offset, o.memory_offset);
      EXPECT_GE(block.size, feed.plane_offset(1) + feed.plane_stride(1) * 24);
      for (int p = 0; p < 2; ++p) {
        EXPECT_EQ(frame.memory.offset[p], feed.plane_offset(p));
        EXPECT_EQ(frame.memory.stride[p], feed.plane_stride(p));
      }
      std::uint8_t y0 = 0xff;
      ASSERT_EQ(pread(block.dmabuf_fd, &y0, 1, static_cast<off_t>(block.fd_offset + frame.memory.offset[0])), 1);
      EXPECT_EQ(y0, static_cast<std::uint8_t>(i));
      frame.lease.release();
    }
  }
  EXPECT_EQ(feed.finalized(), feed.created());
}

TEST_F(IoMemory, EveryLeaseGivesItsBufferBackOnceOnAllPaths) {
  DmabufAppsrc::Options o;
  o.frames = -1;  // endless: the close path must free what is still queued
  o.pool_size = 16;
  DmabufAppsrc feed(o);
  const int pipelines_before = vg::test::live_gst_pipelines();
  std::vector<Frame> kept;
  {
    SourceOptions options;
    options.max_buffers = 3;
    auto source = Source::open(feed.spec(), options);
    Frame frame;
    for (int i = 0; i < 10; ++i) {
      ASSERT_EQ(source->read(frame, 5s), Status::ok) << source->error();
      if (i % 4 == 0) kept.push_back(std::move(frame));  // moving hands the lease over
    }
    EXPECT_EQ(source->stats().leases_out, kept.size() + 1);  // + the one `frame` still holds
    frame = Frame{};  // overwriting gives it back
    EXPECT_EQ(source->stats().leases_out, kept.size());
    kept.front().lease.release();
    kept.front().lease.release();  // idempotent
    EXPECT_EQ(source->stats().leases_out, kept.size() - 1);
    source->close();
    EXPECT_EQ(source->read(frame, 1s), Status::stopped);
  }  // the source goes while two frames are still leased: they stay valid
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_LT(feed.finalized(), feed.created());
  for (Frame& f : kept) {
    if (!f.lease.held()) continue;
    EXPECT_EQ(static_cast<const std::uint8_t*>(f.memory.block.data)[f.memory.offset[0]], f.sequence % 256);
  }
  kept.clear();
  EXPECT_EQ(feed.finalized(), feed.created());
  EXPECT_EQ(vg::test::live_gst_pipelines(), pipelines_before) << "the source's pipeline outlived it";
  EXPECT_GE(feed.created(), 10u);  // the 10 read, and more when the feed ran ahead (not under heavy load)
}

TEST_F(IoMemory, AConsumerHoldingEveryLeaseGetsBusy) {
  auto source = Source::open("gst:videotestsrc ! video/x-raw,format=GRAY8,width=16,height=16 ! appsink sync=false",
                             SourceOptions{.max_buffers = 1});
  std::vector<Frame> held;
  Status status = Status::ok;
  for (int i = 0; i < 100 && status == Status::ok; ++i) {
    Frame frame;
    status = source->read(frame, 5s);
    if (status == Status::ok) held.push_back(std::move(frame));
  }
  EXPECT_EQ(status, Status::busy);
  EXPECT_EQ(source->stats().leases_out, held.size());
  held.pop_back();
  Frame frame;
  EXPECT_EQ(source->read(frame, 5s), Status::ok);
}

TEST_F(IoMemory, LiveSourceDropsTheOldestAndCountsIt) {
  // 200 frames/s into a 2-frame ring, read at 20 frames/s.
  constexpr std::int64_t kPeriod = GST_SECOND / 200;
  SourceOptions options;
  options.max_buffers = 2;
  auto source = Source::open(
      "gst:videotestsrc is-live=true ! video/x-raw,format=GRAY8,width=32,height=24,framerate=200/1 ! appsink", options);
  ASSERT_TRUE(source->info().live);
  Frame frame;
  ASSERT_EQ(source->read(frame, 5s), Status::ok);
  const std::int64_t first_media = frame.media_ns;
  const std::uint64_t first_sequence = frame.sequence;
  const std::uint64_t dropped_before = source->stats().dropped;
  for (int i = 0; i < 20; ++i) {
    std::this_thread::sleep_for(50ms);
    ASSERT_EQ(source->read(frame, 5s), Status::ok);
    const std::int64_t now = now_ns();
    EXPECT_LE(frame.capture_ns, now);  // live: buffer time on the monotonic clock, just before now
    EXPECT_GT(frame.capture_ns, now - 1'000'000'000);
  }
  const SourceStats stats = source->stats();
  const std::int64_t produced = (frame.media_ns - first_media + kPeriod / 2) / kPeriod + 1;  // first..last read
  const std::int64_t delivered = static_cast<std::int64_t>(frame.sequence - first_sequence + 1);
  const std::int64_t dropped = static_cast<std::int64_t>(stats.dropped - dropped_before);
  EXPECT_GT(dropped, 100);
  EXPECT_EQ(delivered, 21);
  // Frames produced after the last read may already be dropped too (at most a few ms worth).
  EXPECT_GE(delivered + dropped, produced - 1);
  EXPECT_LE(delivered + dropped, produced + 10);
}

}  // namespace
}  // namespace vg::io::test
