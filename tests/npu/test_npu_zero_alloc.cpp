// Zero heap allocations per frame on the rknn path (stand-in runtime), including control commands.
// The counting allocator comes from tests/support (vg_test_alloc_counter).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>

#include "alloc_counter.hpp"
#include "fake_rknnrt/fake_control.hpp"
#include "memfd_buffer.hpp"
#include "visiongraph/kernels/inference/opencv_backend.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#if defined(VG_NPU_TEST_HAVE_GRAPH)
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/visiongraph.hpp"
#endif

namespace {

using namespace vg;
using namespace vg::inference;

TEST(NpuZeroAllocTest, RknnRunAndControlAllocateNothingPerFrame) {
  vg::test::FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model("zero_alloc.rknn", "input 1 8 8 3\noutput 1 16 4 4\noutput 1 7 9\n");
  npu::MemfdAllocator memfd;
  std::vector<MemoryBlock> blocks;
  for (int k = 0; k < 3; ++k) blocks.push_back(memfd.allocate(8 * 8 * 3, 64));
  BackendOptions opt;
  opt.runtime_path = VG_FAKE_RKNNRT_PATH;
  opt.dequantize = true;  // the costlier conversion path
  RknnBackend sut;
  const ModelInfo info = sut.load(model, opt);
  sut.bind_inputs(blocks);
  std::vector<std::vector<float>> outs(info.outputs.size());
  std::vector<void*> ptrs;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    outs[i].resize(info.outputs[i].element_count());
    ptrs.push_back(outs[i].data());
  }
  fake.set("fail_runs", 0);
  long news = 0;
  int failures = 0;
  {
    vg::test::AllocationGuard counter;
    for (int f = 0; f < 200; ++f) {
      failures += sut.run(static_cast<std::size_t>(f % 3), ptrs) != Status::ok ? 1 : 0;
      if (f % 50 == 0) (void)sut.set_core_mask(f % 100 == 0 ? 1 : 0);
      (void)sut.last_run_time_us();
    }
    news = counter.stop();
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(news, 0) << "heap allocations during 200 rknn frames";
  for (auto& b : blocks) memfd.release(b);
}

TEST(NpuZeroAllocTest, OpencvForwardAllocationsAreMeasured) {
  // OpenCV DNN allocates inside forward(); this records how much, so docs/npu.md can state it honestly.
  const std::string path = vg::test::assets_dir() + "/face_detection_front_128x128_barracuda.onnx";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "model missing: " << path;
  BackendOptions opt;
  opt.input.dims = {1, 128, 128, 3};
  opt.input.layout = Layout::nhwc;
  std::vector<float> input(128 * 128 * 3, 0.25f);
  MemoryBlock b;
  b.data = input.data();
  b.size = input.size() * sizeof(float);
  OpencvBackend sut;
  const ModelInfo info = sut.load(path, opt);
  sut.bind_inputs(std::span<const MemoryBlock>(&b, 1));
  std::vector<std::vector<float>> outs(info.outputs.size());
  std::vector<void*> ptrs;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    outs[i].resize(info.outputs[i].element_count());
    ptrs.push_back(outs[i].data());
  }
  ASSERT_EQ(sut.run(0, ptrs), Status::ok);
  constexpr int kFrames = 20;
  long news = 0;
  {
    vg::test::AllocationGuard counter;
    for (int f = 0; f < kFrames; ++f) ASSERT_EQ(sut.run(0, ptrs), Status::ok);
    news = counter.stop();
  }
  const double per_frame = static_cast<double>(news) / kFrames;
  RecordProperty("opencv_allocations_per_frame", std::to_string(per_frame));
  std::printf("OpenCV DNN backend: %.1f heap allocations per frame (inside cv::dnn::Net::forward)\n", per_frame);
  SUCCEED();
}

#if defined(VG_NPU_TEST_HAVE_GRAPH)
TEST(NpuZeroAllocTest, GraphFramesWithInferenceNodeAllocateNothing) {
  using namespace std::chrono_literals;
  vg::test::FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model("zero_alloc_graph.rknn", "input 1 8 8 3\noutput 1 16 4 4\n");
  Context ctx;
  auto npu_memory = inference::install_npu_allocator(ctx);
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "zero_alloc");
  const DataId in = g.add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
  const NodeId n = g.add_node("infer", "vg.inference");
  g.set_attribute(n, "model", model);
  g.set_attribute(n, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  g.set_attribute(n, "dequantize", true);
  g.bind(n, "input", in);
  g.bind(n, "out0", g.add_virtual("out", DataKind::tensor));
  g.verify();
  ASSERT_EQ(g.process(), Status::ok);
  long news = 0;
  int failures = 0;
  {
    CommandReply reply;
    vg::test::AllocationGuard counter;
    for (int f = 0; f < 100; ++f) {
      failures += g.process() != Status::ok ? 1 : 0;
      if (f % 25 == 0) {
        failures += g.send_command(n, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{1}), 1s) != Status::ok;
        failures += g.send_command(n, ControlCommand::make(inference::kCmdGetRunTime), 1s, &reply) != Status::ok;
      }
    }
    news = counter.stop();
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(news, 0) << "heap allocations during 100 graph frames + commands";
}

TEST(NpuZeroAllocTest, GraphFramesOnImportedDmabufsAllocateNothingAfterWarmUp) {
  vg::test::FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model("zero_alloc_import.rknn", "input 1 8 8 3\noutput 1 16 4 4\n");
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "zero_alloc_import");
  const DataId in = g.add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
  const NodeId n = g.add_node("infer", "vg.inference");
  g.set_attribute(n, "model", model);
  g.set_attribute(n, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  g.bind(n, "input", in);
  g.bind(n, "out0", g.add_virtual("out", DataKind::tensor));
  g.add_graph_parameter(n, "input", 1);
  g.verify();
  // A camera pool of 4 DMA-BUFs (memfds), imported into the graph's buffer before every frame.
  std::vector<std::unique_ptr<vg::test::MemfdBuffer>> camera;
  for (int i = 0; i < 4; ++i) camera.push_back(std::make_unique<vg::test::MemfdBuffer>(8 * 8 * 3, 4096));
  int failures = 0;
  auto frame = [&](int f) {
    const auto& buffer = *camera[static_cast<std::size_t>(f) % camera.size()];
    buffer.tensor()[0] = static_cast<std::uint8_t>(f);
    failures += g.import_handle(in, 0, buffer.block()) != Status::ok ? 1 : 0;
    failures += g.process() != Status::ok ? 1 : 0;
  };
  for (int f = 0; f < 4; ++f) frame(f);  // warm-up: the first pass binds each DMA-BUF once
  fake.reset_counters();
  vg::test::arm_alloc_counter();
  for (int f = 4; f < 104; ++f) frame(f);
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(failures, 0) << g.last_error().describe();
  EXPECT_EQ(counts.news, 0u) << "operator new during 100 graph frames on imported DMA-BUFs";
  // The stand-in runtime callocs per bind: counting malloc also proves no frame bound anything.
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u) << "malloc during 100 graph frames on imported DMA-BUFs";
  }
  EXPECT_EQ(fake.counter("create_mem_from_fd"), 0) << "no bind after warm-up";
  EXPECT_EQ(fake.counter("run"), 100);
  for (const NodeStats& s : g.stats().nodes) EXPECT_EQ(s.conversions, 0u) << s.name;
}
#endif

}  // namespace
