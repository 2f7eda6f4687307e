// External memory in a graph: import with the producer's own plane layout, device-only memory and the
// verify check that guards it, capture timestamps and latency, counted conversions.

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

/// Sums the luma plane and the chroma plane of an NV12 image separately (reads through the strides),
/// and reports what the kernel saw of its input buffer.
struct PlaneSum {
  explicit PlaneSum(vg::KernelContext&) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView in = ctx.image(0);
    std::uint64_t y = 0, uv = 0;
    for (std::uint32_t r = 0; r < in.height(); ++r)
      for (std::uint32_t c = 0; c < in.width(); ++c) y += in.plane(0)[r * in.stride(0) + c];
    for (std::uint32_t r = 0; r < in.height() / 2; ++r)
      for (std::uint32_t c = 0; c < in.width(); ++c) uv += in.plane(1)[r * in.stride(1) + c];
    ctx.scalar(1).set(static_cast<double>(y * 1000 + uv));
    if (ctx.imported(0)) ctx.count_conversion();  // stands in for a kernel that had to copy
    return vg::Status::ok;
  }
};

/// Reads nothing but the DMA-BUF fd of its input: a device kernel.
struct FdReader {
  explicit FdReader(vg::KernelContext&) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::MemoryBlock& b = ctx.tensor(0).block();
    ctx.scalar(1).set(static_cast<double>(b.dmabuf_fd) + (ctx.device_only(0) ? 0.5 : 0.0));
    return b.data == nullptr ? vg::Status::ok : vg::Status::kernel_error;
  }
};

vg::Module import_module() {
  vg::Module m("test.import");
  m.add(vg::KernelDecl("test.plane_sum").input("in", vg::DataKind::image).output("sum", vg::DataKind::scalar));
  m.implement("test.plane_sum", "cpu", vg::callbacks_for<PlaneSum>());
  m.add(vg::KernelDecl("test.fd_reader").input("in", vg::DataKind::tensor).output("fd", vg::DataKind::scalar));
  m.implement("test.fd_reader", "npu", vg::callbacks_for<FdReader>(), vg::ImplementOptions{.accepts_device_memory = true});
  m.implement("test.fd_reader", "cpu", vg::callbacks_for<FdReader>());  // a CPU build of it may not
  return m;
}

class ImportTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx.load_module(import_module()); }
  vg::Context ctx;
};

struct Nv12Graph {
  explicit Nv12Graph(vg::Context& ctx, std::size_t buffers = 1) : g(ctx, "nv12") {
    in = g.add_data("in", vg::DataMeta::image_of(8, 4, vg::ImageFormat::nv12));
    sum = g.add_data("sum", vg::DataMeta::scalar_of(vg::ElementType::f64));
    node = g.add_node("sum", "test.plane_sum");
    g.bind(node, "in", in).bind(node, "sum", sum);
    param = g.add_graph_parameter(node, "in", buffers);
  }
  vg::Graph g;
  vg::DataId in, sum;
  vg::NodeId node;
  vg::GraphParamId param;
};

TEST_F(ImportTest, ImportBufferUsesTheProducersPlaneOffsetsAndStrides) {
  Nv12Graph t(ctx);
  t.g.verify();
  // A producer's NV12 frame: rows padded to 16 bytes, chroma plane 32 bytes after the luma's end.
  std::vector<std::uint8_t> memory(16 * 4 + 32 + 16 * 2, 0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) memory[r * 16 + c] = 1;  // luma: 32 ones; padding stays 0
  const std::size_t uv_offset = 16 * 4 + 32;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 8; ++c) memory[uv_offset + r * 16 + c] = 2;  // chroma: 16 twos
  vg::ExternalBuffer ext;
  ext.block.data = memory.data();
  ext.block.size = memory.size();
  ext.num_planes = 2;
  ext.offset[0] = 0;
  ext.stride[0] = 16;
  ext.offset[1] = uv_offset;
  ext.stride[1] = 16;
  ASSERT_EQ(t.g.import_buffer(t.in, 0, ext), vg::Status::ok);
  EXPECT_EQ(t.g.image(t.in, 0).plane(0), memory.data()) << "no copy: the graph reads the producer's memory";
  EXPECT_EQ(t.g.image(t.in, 0).plane(1), memory.data() + uv_offset);
  ASSERT_EQ(t.g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(t.g.scalar(t.sum).get<double>(), 32.0 * 1000 + 32.0);
  // The kernel counted a conversion for the imported input: it shows per node.
  EXPECT_EQ(t.g.stats().nodes.at(0).conversions, 1u);
  EXPECT_NE(t.g.report_text().find("1 input(s) copied or converted"), std::string::npos) << t.g.report_text();
  // Back to graph memory.
  ASSERT_EQ(t.g.import_buffer(t.in, 0, vg::ExternalBuffer{}), vg::Status::ok);
  EXPECT_NE(t.g.image(t.in, 0).plane(0), memory.data());
}

TEST_F(ImportTest, ImportBufferRefusesLayoutsThatDoNotFit) {
  Nv12Graph t(ctx);
  t.g.verify();
  std::vector<std::uint8_t> memory(64, 0);
  vg::ExternalBuffer ext;
  ext.block.data = memory.data();
  ext.block.size = memory.size();
  ext.num_planes = 2;
  ext.stride[0] = 4;  // shorter than a row of 8 pixels
  ext.stride[1] = 8;
  ext.offset[1] = 32;
  EXPECT_EQ(t.g.import_buffer(t.in, 0, ext), vg::Status::invalid_argument);
  ext.stride[0] = 8;
  ext.offset[1] = 60;  // chroma runs past the end of the block
  EXPECT_EQ(t.g.import_buffer(t.in, 0, ext), vg::Status::invalid_argument);
  ext.num_planes = 1;  // NV12 has two planes
  EXPECT_EQ(t.g.import_buffer(t.in, 0, ext), vg::Status::invalid_argument);
  ext.num_planes = 2;
  ext.offset[1] = 32;
  EXPECT_EQ(t.g.import_buffer(t.in, 0, ext), vg::Status::ok);
  // No CPU address: only for data marked device-only.
  vg::ExternalBuffer device;
  device.block.dmabuf_fd = 3;
  device.block.size = 48;
  EXPECT_EQ(t.g.import_buffer(t.in, 0, device), vg::Status::not_supported);
}

struct DeviceGraph {
  DeviceGraph(vg::Context& ctx, const char* target) : g(ctx, "device") {
    in = g.add_data("frame", vg::DataMeta::tensor_of({1, 4, 4, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
    fd = g.add_data("fd", vg::DataMeta::scalar_of(vg::ElementType::f64));
    node = g.add_node("reader", "test.fd_reader");
    g.bind(node, "in", in).bind(node, "fd", fd).set_target(node, target);
    param = g.add_graph_parameter(node, "in", 2);
    g.set_device_only(in);
  }
  vg::Graph g;
  vg::DataId in, fd;
  vg::NodeId node;
  vg::GraphParamId param;
};

TEST_F(ImportTest, DeviceOnlyMemoryBoundToACpuImplementationIsAVerifyErrorNamingNodeAndParameter) {
  DeviceGraph t(ctx, "cpu0");
  try {
    t.g.verify();
    FAIL() << "verify accepted device-only memory for a CPU kernel";
  } catch (const vg::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("node 'reader'"), std::string::npos) << what;
    EXPECT_NE(what.find("parameter 'in'"), std::string::npos) << what;
    EXPECT_NE(what.find("'frame' is device-only"), std::string::npos) << what;
    EXPECT_NE(what.find("'cpu0'"), std::string::npos) << what;
  }
}

TEST_F(ImportTest, DeviceOnlyMemoryReachesAKernelThatAcceptsIt) {
  DeviceGraph t(ctx, "npu0");
  t.g.verify();
  EXPECT_EQ(t.g.tensor(t.in, 0).data(), nullptr) << "the graph allocates nothing for device-only data";
  vg::DataId out = t.fd;
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  // Not imported yet: cannot be enqueued.
  EXPECT_EQ(t.g.enqueue(t.param, 0), vg::Status::invalid_argument);
  vg::ExternalBuffer device;
  device.block.dmabuf_fd = 42;  // opaque to the graph: never dereferenced
  device.block.size = 48;
  ASSERT_EQ(t.g.import_buffer(t.in, 0, device), vg::Status::ok);
  // A layout that starts past the fd's offset moves the block's start there: kernels find it at fd_offset.
  vg::ExternalBuffer shifted = device;
  shifted.block.size = 64;
  shifted.block.fd_offset = 4096;
  shifted.num_planes = 1;
  shifted.offset[0] = 16;
  shifted.stride[0] = 48;
  ASSERT_EQ(t.g.import_buffer(t.in, 1, shifted), vg::Status::ok);
  EXPECT_EQ(t.g.buffer_of(t.in, 1)->block.fd_offset, 4096u + 16u);
  EXPECT_EQ(t.g.buffer_of(t.in, 1)->block.size, 48u);
  ASSERT_EQ(t.g.enqueue(t.param, 0), vg::Status::ok);
  vg::DequeuedBuffer done;
  ASSERT_EQ(t.g.dequeue(t.param, done, 2s), vg::Status::ok);
  EXPECT_EQ(done.status, vg::Status::ok);
  EXPECT_DOUBLE_EQ(t.g.scalar(out).get<double>(), 42.5);
  (void)t.g.stop();
}

TEST_F(ImportTest, DeviceOnlyDataMustBeAGraphInput) {
  vg::Graph g(ctx, "bad");
  auto in = g.add_data("frame", vg::DataMeta::tensor_of({1, 4, 4, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
  auto fd = g.add_data("fd", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto n = g.add_node("reader", "test.fd_reader");
  g.bind(n, "in", in).bind(n, "fd", fd).set_target(n, "npu0");
  g.set_device_only(in);
  try {
    g.verify();
    FAIL() << "device-only data that is not a graph input was accepted";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("only a graph-parameter input"), std::string::npos) << e.what();
  }
}

TEST_F(ImportTest, CaptureTimesTravelWithTheFrameAndGiveCaptureLatency) {
  Nv12Graph t(ctx, 2);
  t.g.verify();
  ASSERT_EQ(t.g.start(), vg::Status::ok);
  const std::int64_t captured = vg::now_ns() - 5'000'000;  // taken 5 ms ago
  ASSERT_EQ(t.g.enqueue(t.param, 0, vg::FrameStamp{777, captured}), vg::Status::ok);
  vg::DequeuedBuffer done;
  ASSERT_EQ(t.g.dequeue(t.param, done, 2s), vg::Status::ok);
  EXPECT_EQ(done.timestamp_ns, 777);
  EXPECT_EQ(done.capture_ns, captured);
  EXPECT_GE(done.completed_ns - captured, 5'000'000);
  const vg::GraphStats s = t.g.stats();
  EXPECT_GE(s.capture_latency_p50_ns, 5'000'000);
  EXPECT_GE(s.capture_latency_p50_ns, s.latency_p50_ns) << "capture is before enqueue";
  EXPECT_NE(t.g.report_text().find("latency (capture -> done)"), std::string::npos);
  // Frames without a capture time leave the capture latency alone.
  ASSERT_EQ(t.g.enqueue(t.param, 1, 5), vg::Status::ok);
  ASSERT_EQ(t.g.dequeue(t.param, done, 2s), vg::Status::ok);
  EXPECT_EQ(done.capture_ns, 0);
  (void)t.g.stop();
}

TEST_F(ImportTest, ConversionsCountedByTheApplicationShowPerInput) {
  Nv12Graph t(ctx);
  t.g.verify();
  t.g.count_conversion(t.param);
  t.g.count_conversion(t.param);
  const vg::GraphStats s = t.g.stats();
  ASSERT_EQ(s.queues.size(), 1u);
  EXPECT_EQ(s.queues[0].conversions, 2u);
  EXPECT_NE(t.g.report_text().find("input 'in': 2 frame(s) copied or converted"), std::string::npos);
  EXPECT_NE(t.g.report_json().find("\"conversions\": 2"), std::string::npos);
}

}  // namespace
