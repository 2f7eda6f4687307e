// Two camera streams through ONE context allocate nothing per frame: two graph instances of the
// face-detection shape
//   frame -> letterbox (cpu0) -> vg.inference (npu0, npu1, npu2) -> decode (cpu1) -> vg.detection.track (cpu1)
// share the context's targets and stream at the same time, each fed by its own thread, and 200 frames per
// stream after warm-up make no heap allocation anywhere in the process (operator new, and malloc where no
// sanitizer owns it). The inference runs on the stand-in librknnrt (tests/npu/fake_rknnrt), as in the other
// zero-allocation tests of the Rockchip path: OpenCV DNN allocates inside its own forward (docs/npu.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "alloc_counter.hpp"
#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg;

constexpr std::uint32_t kFrameW = 640, kFrameH = 480;
constexpr std::uint64_t kWarmFrames = 30;      // per stream: every buffer and replica used, tracks started
constexpr std::uint64_t kCountedFrames = 200;  // per stream, with the counter armed
constexpr std::uint32_t kMaxBuffers = 64;

ContextConfig stream_targets() {
  ContextConfig config = ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

/// One stream: its graph in the shared context, and the loop its thread runs (fixed storage only).
struct Stream {
  Stream(Context& ctx, int index, const std::string& model) : id(index), g(ctx, "stream" + std::to_string(index)) {
    frame = g.add_data("frame", DataMeta::image_of(kFrameW, kFrameH, ImageFormat::bgr24));
    const DataId input = g.add_data("face_input", DataMeta::tensor_of({1, 256, 256, 3}, ElementType::u8, TensorLayout::nhwc));
    const DataId geometry = g.add_virtual("geometry", DataKind::user_data);
    const DataId faces = g.add_virtual("faces", DataKind::user_data);
    tracked = g.add_virtual("tracked_faces", DataKind::user_data);
    const NodeId letterbox = g.add_node("letterbox", "vg.detection.letterbox");
    g.bind(letterbox, "input", frame).bind(letterbox, "output", input).bind(letterbox, "geometry", geometry);
    g.set_attribute(letterbox, "mapping", std::string("none"));
    g.set_target(letterbox, "cpu0");
    const NodeId detector = g.add_node("detector", "vg.inference");
    g.set_attribute(detector, "model", model);
    g.set_attribute(detector, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
    g.set_attribute(detector, "npu_cores", std::int64_t{3});  // as an RK3588 (no device tree here)
    g.bind(detector, "input", input);
    const NodeId decode = g.add_node("decode", "vg.detection.postprocess");
    for (int i = 0; i < 4; ++i) {
      const DataId o = g.add_virtual("out" + std::to_string(i), DataKind::tensor);
      g.bind(detector, "out" + std::to_string(i), o).bind(decode, "in" + std::to_string(i), o);
    }
    g.set_targets(detector, {"npu0", "npu1", "npu2"});
    g.bind(decode, "geometry", geometry).bind(decode, "detections", faces);
    g.set_attribute(decode, "decoder", std::string("blazeface"));
    g.set_attribute(decode, "score_threshold", 0.5);
    g.set_target(decode, "cpu1");
    track = g.add_node("track", "vg.detection.track");
    g.bind(track, "detections", faces).bind(track, "tracked", tracked);
    g.set_attribute(track, "min_hits", std::int64_t{2});
    g.set_target(track, "cpu1");
    gin = g.add_graph_parameter(letterbox, "input");  // kAutoBuffers
    gout = g.add_graph_parameter(track, "tracked");
    g.verify();
  }

  /// Starts streaming with every output buffer handed over.
  bool start() {
    if (g.start() != Status::ok) return false;
    const auto nout = static_cast<std::uint32_t>(g.num_buffers(g.data_of(gout)));
    for (std::uint32_t k = 0; k < nout; ++k) {
      if (g.enqueue(gout, k) != Status::ok) return false;
    }
    const auto nin = static_cast<std::uint32_t>(g.num_buffers(frame));
    for (std::uint32_t k = 0; k < nin && k < kMaxBuffers; ++k) free_in[num_free++] = k;
    return num_free > 0;
  }

  /// Frame @p f of this stream: a few horizontal bands that move with the frame number.
  void fill(std::uint32_t buffer, std::uint64_t f) {
    const ImageView img = g.image(frame, buffer);
    for (std::uint32_t y = 0; y < img.height(); ++y) {
      const auto v = static_cast<int>((y + f * 3 + static_cast<std::uint64_t>(id) * 40) / 24 % 2 ? 200 : 30);
      std::memset(img.plane() + y * img.stride(), v, img.width() * 3);
    }
  }

  /// Streams @p count frames with up to pipeline_depth in flight; every 50 frames a command to the
  /// tracker. Only fixed storage: buffers go round between enqueue and dequeue.
  void run(std::uint64_t count) {
    const std::size_t depth = g.pipeline_depth();
    const std::uint64_t end = received + count;
    while (received < end) {
      while (sent < end && num_free > 0 && sent - received < depth) {
        const std::uint32_t k = free_in[--num_free];
        fill(k, sent);
        FrameStamp stamp;
        stamp.tag = sent++;
        failures += g.enqueue(gin, k, stamp) != Status::ok ? 1 : 0;
      }
      DequeuedBuffer done;
      if (g.dequeue(gout, done, 10s) != Status::ok) {
        ++failures;
        return;
      }
      failures += done.status != Status::ok ? 1 : 0;
      out_of_order += done.tag != received ? 1 : 0;
      if (const auto* p = g.user_data<detection::DetectionPacket>(tracked, done.index); p != nullptr) {
        detections += p->count;
        for (std::uint32_t i = 0; i < p->count; ++i) tracked_ids += p->items[i].track_id != 0 ? 1 : 0;
      }
      ++received;
      failures += g.enqueue(gout, done.index) != Status::ok ? 1 : 0;
      DequeuedBuffer used;
      failures += g.dequeue(gin, used, 10s) != Status::ok ? 1 : 0;
      free_in[num_free++] = used.index;
      if (received % 50 == 0) {
        CommandReply reply;
        failures += g.send_command(track, ControlCommand::make(detection::kCmdTrackGetSettings), 1s, &reply) !=
                    Status::ok;
      }
    }
  }

  int id;
  Graph g;
  DataId frame, tracked;
  NodeId track;
  GraphParamId gin, gout;
  std::uint32_t free_in[kMaxBuffers] = {};
  std::uint32_t num_free = 0;
  std::uint64_t sent = 0, received = 0;
  std::uint64_t failures = 0, out_of_order = 0, detections = 0, tracked_ids = 0;
  std::chrono::steady_clock::time_point counted_begin, counted_end;
};

TEST(DetectionStreamsZeroAllocTest, TheCounterSeesAnAllocationOnAnotherThread) {
  static std::string* volatile sink = nullptr;
  vg::test::AllocationGuard guard;
  std::thread t([] { sink = new std::string(100, 'x'); });  // the thread itself allocates too
  t.join();
  const long n = guard.stop();
  delete sink;
  EXPECT_GE(n, 1);
}

TEST(DetectionStreamsZeroAllocTest, TwoStreamsInOneContextAllocateNothingPerFrame) {
  vg::test::FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model(
      "streams.rknn", "input 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n");
  // Runs take 0..1 ms (a sleep, as an accelerator would): the two streams' runs interleave on every NPU target.
  fake.set_run_latency(0us, 1000us, 7);
  Context ctx(stream_targets());
  auto npu_memory = inference::install_npu_allocator(ctx);
  ctx.load_module(detection::make_detection_module());
  ctx.load_module(inference::make_inference_module());
  Stream a(ctx, 0, model), b(ctx, 1, model);
  ASSERT_TRUE(a.start()) << a.g.last_error().describe();
  ASSERT_TRUE(b.start()) << b.g.last_error().describe();

  std::atomic<int> warmed{0}, finished{0};
  std::atomic<bool> go{false};
  auto feed = [&](Stream& s) {
    s.run(kWarmFrames);
    warmed.fetch_add(1);
    while (!go.load()) std::this_thread::sleep_for(1ms);
    s.counted_begin = std::chrono::steady_clock::now();
    s.run(kCountedFrames);
    s.counted_end = std::chrono::steady_clock::now();
    finished.fetch_add(1);
  };
  std::thread ta(feed, std::ref(a)), tb(feed, std::ref(b));  // created before the counter is armed
  while (warmed.load() < 2) std::this_thread::sleep_for(1ms);
  fake.reset_counters();
  const std::uint64_t detections_before = a.detections + b.detections;
  vg::test::arm_alloc_counter();
  go = true;
  while (finished.load() < 2) std::this_thread::sleep_for(1ms);
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  ta.join();
  tb.join();

  EXPECT_EQ(a.failures + b.failures, 0u) << a.g.last_error().describe() << " / " << b.g.last_error().describe();
  EXPECT_EQ(a.received, kWarmFrames + kCountedFrames);
  EXPECT_EQ(b.received, kWarmFrames + kCountedFrames);
  EXPECT_EQ(a.out_of_order + b.out_of_order, 0u);
  EXPECT_EQ(counts.news, 0u) << "operator new during " << kCountedFrames << " frames of each of two streams";
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u) << "malloc during " << kCountedFrames << " frames of each of two streams";
  }
  // Both streams really ran at once: their counted stretches overlap by most of the shorter one.
  const auto overlap = std::min(a.counted_end, b.counted_end) - std::max(a.counted_begin, b.counted_begin);
  const auto shorter = std::min(a.counted_end - a.counted_begin, b.counted_end - b.counted_begin);
  EXPECT_GT(overlap.count(), shorter.count() / 2) << "the two streams did not run concurrently";
  // Every counted frame ran on the stand-in, none bound memory again, and the decoder and tracker had work.
  EXPECT_EQ(fake.counter("run"), static_cast<long>(2 * kCountedFrames));
  EXPECT_EQ(fake.counter("create_mem_from_fd") + fake.counter("create_mem"), 0);
  EXPECT_GT(a.detections + b.detections - detections_before, 0u) << "no detections: decode and track had no work";
  EXPECT_GT(a.tracked_ids + b.tracked_ids, 0u) << "no track ids";
  std::printf("two streams: %llu + %llu frames counted, %llu detections, %llu with a track id, %ld runs at once "
              "at most, overlap %.0f%% of the shorter stretch; operator new %llu, malloc %llu\n",
              static_cast<unsigned long long>(kCountedFrames), static_cast<unsigned long long>(kCountedFrames),
              static_cast<unsigned long long>(a.detections + b.detections - detections_before),
              static_cast<unsigned long long>(a.tracked_ids + b.tracked_ids), fake.counter("max_concurrent_runs"),
              100.0 * static_cast<double>(overlap.count()) / static_cast<double>(std::max<long long>(1, shorter.count())),
              static_cast<unsigned long long>(counts.news), static_cast<unsigned long long>(counts.mallocs));
  EXPECT_EQ(a.g.stop(), Status::ok);
  EXPECT_EQ(b.g.stop(), Status::ok);
}

}  // namespace
