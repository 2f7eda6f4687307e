// The whole zero-copy path without a board: memfd-backed DMA-BUFs wrapped by GStreamer's DMA-BUF
// allocator and pushed through an appsrc (a camera's buffer pool, reused round-robin) -> vg::io::Source
// -> vg::io::GraphInput -> vg.inference on the stand-in librknnrt. Each distinct fd is bound once
// (rknn_create_mem_from_fd), never again after the first pass; no staging copy; the runtime reads every
// frame's own bytes through the fd; and the graph's threads allocate nothing per frame after warm-up.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "alloc_counter.hpp"
#include "dmabuf_appsrc.hpp"
#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/io/graph_input.hpp"
#include "visiongraph/io/source.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using vg::test::FakeRknnrt;

constexpr const char* kModelBody = "input 1 8 8 3\noutput 1 16 4 4\n";
constexpr int kPool = 6;      // distinct DMA-BUFs in the "camera" pool
constexpr int kFrames = 120;  // the first kPool are the warm-up pass

// device_only: the source does not map the DMA-BUFs for the CPU (SourceOptions::map_dmabuf = false) and
// the graph input is device-only memory: the camera -> NPU path with no mmap at all.
void camera_to_npu(bool device_only) {
  FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model("gst_dmabuf.rknn", kModelBody);
  vg::Context ctx;
  ctx.load_module(vg::inference::make_inference_module());
  vg::Graph graph(ctx, "camera");
  auto in = graph.add_data("in", vg::DataMeta::tensor_of({1, 8, 8, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
  if (device_only) graph.set_device_only(in);
  auto node = graph.add_node("detector", "vg.inference");
  graph.set_attribute(node, "model", model);
  graph.set_attribute(node, "backend", std::string("rknn"));
  graph.set_attribute(node, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  graph.bind(node, "input", in);
  graph.bind(node, "out0", graph.add_virtual("scores", vg::DataKind::tensor));
  auto input = graph.add_graph_parameter(node, "input", 2);
  graph.verify();
  fake.reset_counters();

  // RGB 8x8, dense rows (a tensor is read as one block), 4 KiB into each fd as in a decoder's buffer.
  vg::test::DmabufAppsrc::Options o;
  o.width = 8;
  o.height = 8;
  o.format = "RGB";
  o.memory = vg::test::DmabufAppsrc::Memory::dmabuf;
  o.pool_size = kPool;
  o.memory_offset = 4096;
  o.row_alignment = 1;
  o.frames = kFrames;
  vg::test::DmabufAppsrc feed(o);
  vg::io::SourceOptions so;
  so.format = vg::ImageFormat::rgb24;
  so.max_buffers = 2;
  so.map_dmabuf = !device_only;
  auto source = vg::io::Source::open(feed.spec(), so);
  ASSERT_TRUE(source->info().dmabuf) << "the frames arrive as DMA-BUF memory";

  {
    vg::io::GraphInput joint(graph, input);
    ASSERT_EQ(graph.start(), vg::Status::ok);
    std::atomic<int> completed{0};
    std::thread consumer([&] {
      vg::io::ReclaimedFrame r;
      while (joint.reclaim(r, 100ms) != vg::Status::stopped)
        if (r.buffer.status == vg::Status::ok) ++completed;
    });
    std::set<int> fds_seen;
    vg::test::AllocCounts counts{};
    // Counted during warm-up too: the binds allocate on the npu0 thread, which shows that the filter
    // sees the graph's threads (the zero below is not a counter that never counts).
    vg::test::arm_alloc_counter(vg::test::CountedThreads::graph_targets);
    int pushed = 0;
    vg::io::Frame f;
    while (pushed < kFrames && source->read(f, 5s) == vg::Status::ok) {
      EXPECT_GE(f.memory.block.dmabuf_fd, 0);
      if (device_only) EXPECT_EQ(f.memory.block.data, nullptr) << "no CPU mapping";
      else EXPECT_NE(f.memory.block.data, nullptr);
      fds_seen.insert(f.memory.block.dmabuf_fd);
      ASSERT_EQ(joint.wait_for_free_buffer(5s), vg::Status::ok);
      ASSERT_EQ(joint.push(std::move(f), 5s), vg::Status::ok) << "frame " << pushed;
      if (++pushed == kPool * 2) {
        // Warm-up done (every fd of the pool went through once): from here on, no bind and no allocation.
        ASSERT_EQ(graph.wait_idle(5s), vg::Status::ok);
        EXPECT_EQ(fake.counter("create_mem_from_fd"), kPool) << "one bind per distinct DMA-BUF";
        const vg::test::AllocCounts warm = vg::test::disarm_alloc_counter();
        if (vg::test::malloc_counted()) {
          EXPECT_GT(warm.mallocs, 0u) << "the stand-in's binds allocate on the graph's npu0 thread";
        }
        fake.reset_counters();
        vg::test::arm_alloc_counter(vg::test::CountedThreads::graph_targets);
      }
    }
    ASSERT_EQ(graph.wait_idle(5s), vg::Status::ok);
    counts = vg::test::disarm_alloc_counter();
    ASSERT_EQ(graph.stop(), vg::Status::ok);
    consumer.join();

    EXPECT_EQ(pushed, kFrames);
    EXPECT_EQ(completed.load(), kFrames);
    EXPECT_EQ(fds_seen.size(), static_cast<std::size_t>(kPool));
    EXPECT_EQ(fake.counter("create_mem_from_fd"), 0) << "no bind after warm-up";
    EXPECT_EQ(fake.counter("run"), kFrames - kPool * 2);
    EXPECT_EQ(graph.stats().nodes.at(0).conversions, 0u) << "no staging copy";
    EXPECT_EQ(joint.stats().imported, static_cast<std::uint64_t>(kFrames));
    EXPECT_EQ(joint.stats().leases_held, 0u);
    EXPECT_EQ(counts.news, 0u) << "operator new on the graph's threads after warm-up";
    if (vg::test::malloc_counted()) {
      EXPECT_EQ(counts.mallocs, 0u) << "malloc on the graph's threads after warm-up";
    }
    // The runtime read each frame's bytes through the fd: its checksum of the fd's bytes is that of the
    // frame the appsrc wrote (the frame index is in its first byte).
    const auto runs = fake.runs();
    ASSERT_FALSE(runs.empty());
    std::set<unsigned long long> distinct;
    for (const auto& r : runs) {
      EXPECT_GE(r.fd, 0) << "read through an fd, not a staging copy";
      distinct.insert(r.checksum);
    }
    EXPECT_GT(distinct.size(), static_cast<std::size_t>(kPool)) << "frames differ: the runtime saw each frame's own bytes";
  }
  source.reset();
  EXPECT_EQ(feed.created(), feed.finalized()) << "every GstBuffer was given back";
}

TEST(NpuGstDmabufTest, AppsrcDmabufsAreBoundOncePerFdAndFramesAllocateNothingInTheGraph) { camera_to_npu(false); }

TEST(NpuGstDmabufTest, UnmappedDmabufsReachTheNpuAsDeviceOnlyMemory) { camera_to_npu(true); }

}  // namespace
