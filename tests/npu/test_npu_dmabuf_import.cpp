// Zero-copy import of application DMA-BUFs into vg.inference (rknn backend, stand-in runtime): a camera
// pool of memfd "DMA-BUFs" imported frame after frame is bound once per distinct buffer and then only
// selected; what cannot be bound is copied and counted as a conversion; device-only memory is read by fd.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "memfd_buffer.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg;
using vg::test::FakeRknnrt;
using vg::test::MemfdBuffer;

constexpr std::size_t kTensorBytes = 8 * 8 * 3;  // the stand-in model's input: [1,8,8,3] u8 NHWC
constexpr std::size_t kOffsetInFd = 256;         // the tensor sits inside the fd, as in a decoder's buffer
constexpr const char* kModelBody = "input 1 8 8 3\noutput 1 16 4 4\n";

/// How each frame's input reaches the graph.
enum class Import { dmabuf, host, device_only };

class DmabufImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("dmabuf_import.rknn", kModelBody);
    ctx_ = std::make_unique<Context>();
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "camera");
  }
  void TearDown() override {
    graph_.reset();
    ctx_.reset();
  }

  /// input graph parameter (@p buffers buffers) -> vg.inference (rknn) -> out0, verified; counters reset.
  void build(std::size_t buffers, int max_imported = -1, bool device_only = false) {
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
    if (device_only) graph_->set_device_only(in_);
    node_ = graph_->add_node("detector", "vg.inference");
    graph_->set_attribute(node_, "model", model_);
    graph_->set_attribute(node_, "backend", std::string("rknn"));
    graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
    if (max_imported >= 0) graph_->set_attribute(node_, "max_imported_buffers", std::int64_t{max_imported});
    graph_->bind(node_, "input", in_);
    graph_->bind(node_, "out0", graph_->add_virtual("scores", DataKind::tensor));
    gp_ = graph_->add_graph_parameter(node_, "input", buffers);
    graph_->verify();
    fake_->reset_log();
    fake_->reset_counters();
  }

  void make_pool(std::size_t fds) {
    for (std::size_t i = 0; i < fds; ++i) pool_.push_back(std::make_unique<MemfdBuffer>(kTensorBytes, kOffsetInFd));
  }

  Status import(std::uint32_t buffer, const MemfdBuffer& frame, Import how) {
    switch (how) {
      case Import::dmabuf: return graph_->import_handle(in_, buffer, frame.block());
      case Import::device_only: return graph_->import_buffer(in_, buffer, frame.device_only());
      case Import::host: {
        MemoryBlock host;  // the same bytes, without the fd: plain application memory
        host.data = frame.tensor();
        host.size = frame.tensor_bytes();
        return graph_->import_handle(in_, buffer, host);
      }
    }
    return Status::invalid_argument;
  }

  /// Streams frames [first, first + count) like a camera: frame f fills pool fd f % pool size (round robin)
  /// and is imported into the next free graph buffer before enqueue. Returns when every buffer is back.
  void stream(std::uint32_t first, std::uint32_t count, Import how = Import::dmabuf) {
    const auto buffers = static_cast<std::uint32_t>(graph_->num_buffers(in_));
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t f = first + i;
      const std::uint32_t k = i % buffers;
      if (i >= buffers) take_back(k);
      const MemfdBuffer& frame = *pool_[f % pool_.size()];
      frame.fill(f);
      expected_.push_back({frame.fd(), vg::test::fnv1a64(frame.tensor(), kTensorBytes)});
      ASSERT_EQ(import(k, frame, how), Status::ok) << "frame " << f;
      ASSERT_EQ(graph_->enqueue(gp_, k), Status::ok) << "frame " << f;
    }
    for (std::uint32_t i = count < buffers ? 0 : count - buffers; i < count; ++i) take_back(i % buffers);
  }
  void take_back(std::uint32_t expected_index) {
    DequeuedBuffer back;
    ASSERT_EQ(graph_->dequeue(gp_, back), Status::ok);
    EXPECT_EQ(back.index, expected_index);
    EXPECT_EQ(back.status, Status::ok) << graph_->last_error().describe();
  }

  std::uint64_t conversions() const {
    for (const NodeStats& n : graph_->stats().nodes) {
      if (n.name == "detector") return n.conversions;
    }
    ADD_FAILURE() << "no stats for node 'detector'";
    return 0;
  }

  /// Every run read the frame's own bytes: checksum of what was written, through @p fd of the frame's
  /// DMA-BUF when zero-copy (-1: the staging memory after a copy).
  void expect_runs_read_frames(const std::vector<bool>& copied = {}) const {
    const auto runs = fake_->runs();
    ASSERT_EQ(runs.size(), expected_.size());
    for (std::size_t f = 0; f < runs.size(); ++f) {
      const bool was_copied = f < copied.size() && copied[f];
      ASSERT_EQ(runs[f].checksum, expected_[f].checksum) << "frame " << f << ": the runtime read other bytes";
      ASSERT_EQ(runs[f].fd, was_copied ? -1 : expected_[f].fd) << "frame " << f;
    }
  }

  /// Index in the call log of the n-th (0-based) entry starting with @p prefix, or -1.
  int nth_in_log(const std::vector<std::string>& log, const std::string& prefix, int n) const {
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (log[i].rfind(prefix, 0) == 0 && n-- == 0) return static_cast<int>(i);
    }
    return -1;
  }

  struct Expected {
    int fd;
    unsigned long long checksum;
  };
  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<Graph> graph_;
  DataId in_;
  NodeId node_;
  GraphParamId gp_;
  std::vector<std::unique_ptr<MemfdBuffer>> pool_;
  std::vector<Expected> expected_;
};

TEST_F(DmabufImportTest, CameraPoolIsBoundOncePerDmabufThenOnlySelected) {
  build(/*buffers=*/3);
  make_pool(4);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 120);
  ASSERT_EQ(graph_->stop(), Status::ok);

  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 4) << "one bind per distinct DMA-BUF";
  for (const auto& b : pool_) EXPECT_EQ(fake_->fd_binds(b->fd()), 1) << "fd " << b->fd();
  const auto log = fake_->log();
  // Warm-up is the first pass through the pool: no bind after the 4th run.
  EXPECT_LT(nth_in_log(log, "rknn_create_mem_from_fd", 3), nth_in_log(log, "rknn_run", 4));
  EXPECT_EQ(nth_in_log(log, "rknn_create_mem_from_fd", 4), -1);
  EXPECT_EQ(fake_->counter("create_mem"), 0) << "no staging memory is made per frame";
  EXPECT_EQ(fake_->counter("destroy_mem"), 0) << "bindings are kept, not rebuilt";
  EXPECT_EQ(fake_->counter("set_io_mem_input"), 120) << "each frame only selects its bound memory";
  EXPECT_EQ(fake_->counter("run"), 120);
  expect_runs_read_frames();
  EXPECT_EQ(conversions(), 0u) << "no frame was copied";
}

TEST_F(DmabufImportTest, MoreDistinctDmabufsThanTheCacheAreCopiedAndCounted) {
  build(/*buffers=*/2, /*max_imported=*/8);
  make_pool(12);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 120);
  ASSERT_EQ(graph_->stop(), Status::ok);

  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 8);
  std::vector<bool> copied;
  std::uint64_t frames_on_unbound_fds = 0;
  for (std::uint32_t f = 0; f < 120; ++f) {
    copied.push_back(f % 12 >= 8);  // the first 8 distinct fds took the 8 slots; the other 4 never get one
    frames_on_unbound_fds += copied.back() ? 1 : 0;
  }
  for (std::size_t i = 0; i < pool_.size(); ++i) EXPECT_EQ(fake_->fd_binds(pool_[i]->fd()), i < 8 ? 1 : 0) << i;
  EXPECT_EQ(frames_on_unbound_fds, 40u);
  EXPECT_EQ(conversions(), frames_on_unbound_fds) << "every copy is counted, none is silent";
  EXPECT_EQ(fake_->counter("destroy_mem"), 0) << "live bindings are never evicted";
  expect_runs_read_frames(copied);
}

TEST_F(DmabufImportTest, StaleFdNumberIsReboundAndTheNewContentsAreRead) {
  build(/*buffers=*/2);
  make_pool(4);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 8);
  ASSERT_EQ(fake_->counter("create_mem_from_fd"), 4);

  // The pool is replaced: fd number of buffer 1 now names a different memfd.
  const int reused = pool_[1]->fd();
  pool_[1]->replace_keeping_number();
  ASSERT_EQ(pool_[1]->fd(), reused);
  stream(8, 100);
  ASSERT_EQ(graph_->stop(), Status::ok);

  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 5) << "only the replaced buffer is bound again";
  EXPECT_EQ(fake_->fd_binds(reused), 2);
  EXPECT_EQ(fake_->counter("destroy_mem"), 1) << "the stale binding is released";
  expect_runs_read_frames();  // frames on fd `reused` after the swap carry the new memfd's bytes
  EXPECT_EQ(conversions(), 0u);
}

TEST_F(DmabufImportTest, ImportedHostMemoryIsCopiedAndCounted) {
  build(/*buffers=*/2);
  make_pool(4);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 100, Import::host);
  ASSERT_EQ(graph_->stop(), Status::ok);

  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 0);
  EXPECT_EQ(fake_->counter("create_mem"), 0) << "the staging memory made at create is reused";
  EXPECT_EQ(conversions(), 100u);
  expect_runs_read_frames(std::vector<bool>(100, true));
}

TEST_F(DmabufImportTest, DeviceOnlyDmabufsAreReadThroughTheirFd) {
  build(/*buffers=*/2, /*max_imported=*/-1, /*device_only=*/true);
  make_pool(4);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 100, Import::device_only);
  ASSERT_EQ(graph_->stop(), Status::ok);

  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 4);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd"), 4);
  for (const auto& e : fake_->log()) {
    if (e.rfind("rknn_create_mem_from_fd", 0) == 0) {
      EXPECT_NE(e.find("virt=null"), std::string::npos) << "device-only memory has no CPU address: " << e;
    }
  }
  expect_runs_read_frames();
  EXPECT_EQ(conversions(), 0u);
}

TEST_F(DmabufImportTest, DeviceOnlyCreateWarmsUpWithoutGraphBuffers) {
  in_ = graph_->add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
  graph_->set_device_only(in_);
  node_ = graph_->add_node("detector", "vg.inference");
  graph_->set_attribute(node_, "model", model_);
  graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  graph_->set_attribute(node_, "warmup", std::int64_t{2});
  graph_->bind(node_, "input", in_);
  graph_->bind(node_, "out0", graph_->add_virtual("scores", DataKind::tensor));
  gp_ = graph_->add_graph_parameter(node_, "input", 2);
  fake_->reset_counters();
  graph_->verify();
  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 0) << "a device-only input has no graph buffer to pre-bind";
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& r : runs) EXPECT_EQ(r.fd, -1) << "warm-up runs on the staging memory";
}

TEST_F(DmabufImportTest, DeviceOnlyDmabufThatCannotBeBoundFailsTheFrameClearly) {
  build(/*buffers=*/1, /*max_imported=*/2, /*device_only=*/true);
  make_pool(3);
  for (std::uint32_t f = 0; f < 2; ++f) {
    pool_[f]->fill(f);
    ASSERT_EQ(import(0, *pool_[f], Import::device_only), Status::ok);
    ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  }
  ASSERT_EQ(import(0, *pool_[2], Import::device_only), Status::ok);
  EXPECT_NE(graph_->process(), Status::ok);
  const std::string why = graph_->last_error().describe();
  EXPECT_NE(why.find("detector"), std::string::npos) << why;
  EXPECT_NE(why.find("max_imported_buffers"), std::string::npos) << why;
  EXPECT_NE(why.find("no CPU address"), std::string::npos) << why;
  EXPECT_EQ(conversions(), 0u) << "nothing was copied";
  // The bound buffers still work.
  ASSERT_EQ(import(0, *pool_[0], Import::device_only), Status::ok);
  EXPECT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 2);
}

TEST_F(DmabufImportTest, ReleaseFreesEveryImportedBinding) {
  build(/*buffers=*/2);
  make_pool(4);
  ASSERT_EQ(graph_->start(), Status::ok);
  stream(0, 8);
  ASSERT_EQ(graph_->stop(), Status::ok);
  graph_->release();
  EXPECT_EQ(fake_->counter("destroy_mem"), 4 + 2) << "4 imported bindings, the staging memory and the output";
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->live_contexts(), 0);
}

TEST_F(DmabufImportTest, MaxImportedBuffersOutOfRangeIsVerifyError) {
  in_ = graph_->add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
  node_ = graph_->add_node("detector", "vg.inference");
  graph_->set_attribute(node_, "model", model_);
  graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  graph_->set_attribute(node_, "max_imported_buffers", std::int64_t{65});
  graph_->bind(node_, "input", in_);
  graph_->bind(node_, "out0", graph_->add_virtual("scores", DataKind::tensor));
  try {
    graph_->verify();
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("detector"), std::string::npos) << msg;
    EXPECT_NE(msg.find("max_imported_buffers"), std::string::npos) << msg;
    EXPECT_NE(msg.find("0..64"), std::string::npos) << msg;
  }
}

TEST(DmabufImportOpencvTest, DeviceOnlyInputIsRefusedByTheOpencvBackend) {
  const std::string model = vg::test::assets_dir() + "/face_detection_front_128x128_barracuda.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "model missing: " << model << " (scripts/fetch_assets.sh)";
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "blazeface");
  const DataId in = g.add_data("in", DataMeta::tensor_of({1, 128, 128, 3}, ElementType::f32, TensorLayout::nhwc));
  g.set_device_only(in);
  const NodeId n = g.add_node("face", "vg.inference");
  g.set_attribute(n, "model", model);
  g.bind(n, "input", in);
  for (int i = 0; i < 4; ++i) {
    g.bind(n, "out" + std::to_string(i), g.add_virtual("o" + std::to_string(i), DataKind::tensor));
  }
  g.add_graph_parameter(n, "input", 1);
  try {
    g.verify();
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("face"), std::string::npos) << msg;
    EXPECT_NE(msg.find("opencv backend needs a CPU address"), std::string::npos) << msg;
  }
}

}  // namespace
