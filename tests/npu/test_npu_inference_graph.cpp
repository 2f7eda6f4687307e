// vg.inference inside a graph: the rknn contract through the stand-in runtime, verify-time errors,
// commands, and the OpenCV path on BlazeFace compared with a direct forward.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <random>
#include <sstream>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg;
using vg::test::FakeRknnrt;

constexpr const char* kModelBody = "input 1 4 4 3\noutput 1 10 2 2\noutput 1 5 6\n";

class InferenceGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("graph.rknn", kModelBody);
    ctx_ = std::make_unique<Context>();
    npu_memory_ = inference::install_npu_allocator(*ctx_);
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "infer");
  }
  void TearDown() override {
    graph_.reset();
    npu_memory_.reset();
    ctx_.reset();
  }
  // input (u8 NHWC 4x4x3) -> vg.inference -> out0, out1 (virtual: metadata from the model)
  NodeId build(int outputs = 2, const std::string& runtime = VG_FAKE_RKNNRT_PATH) {
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, TensorLayout::nhwc));
    node_ = graph_->add_node("npu_infer", "vg.inference");
    graph_->set_attribute(node_, "model", model_);
    graph_->set_attribute(node_, "runtime_path", runtime);
    graph_->bind(node_, "input", in_);
    for (int i = 0; i < outputs; ++i) {
      out_[i] = graph_->add_virtual("o" + std::to_string(i), DataKind::tensor);
      graph_->bind(node_, "out" + std::to_string(i), out_[i]);
    }
    return node_;
  }
  std::string verify_error() {
    try {
      graph_->verify();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<inference::NpuAllocatorInstallation> npu_memory_;
  std::unique_ptr<Graph> graph_;
  DataId in_;
  DataId out_[2];
  NodeId node_;
};

TEST_F(InferenceGraphTest, VerifySetsOutputMetadataFromModel) {
  build();
  graph_->verify();
  const DataMeta& m0 = graph_->meta(out_[0]);
  EXPECT_EQ(m0.tensor.rank, 4u);
  EXPECT_EQ(m0.tensor.dims[1], 10);
  EXPECT_EQ(m0.tensor.type, ElementType::i8);
  EXPECT_EQ(m0.tensor.layout, TensorLayout::nchw);
  EXPECT_FLOAT_EQ(m0.tensor.scale, 0.5f);
  EXPECT_EQ(m0.tensor.zero_point, -3);
  EXPECT_EQ(graph_->meta(out_[1]).tensor.rank, 3u);
  EXPECT_EQ(graph_->node_target(node_), "npu0");
}

TEST_F(InferenceGraphTest, ProcessRunsThroughPreBoundMemory) {
  build();
  const GraphParamId gp = graph_->add_graph_parameter(node_, "input", 3);
  graph_->verify();
  auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd"), 3) << "one per input buffer, at verify";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_init "), 1) << "validate's loaded model is handed to create, not loaded again";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_destroy "), 0);
  fake_->reset_log();
  auto* in = graph_->tensor(in_, 0).data_as<std::uint8_t>();
  for (int j = 0; j < 48; ++j) in[j] = static_cast<std::uint8_t>(j * 3);
  for (int f = 0; f < 5; ++f) ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  const auto* o1 = graph_->tensor(out_[1]).data_as<std::int8_t>();
  for (int k = 0; k < 30; ++k) ASSERT_EQ(o1[k], static_cast<std::int8_t>(in[k % 48] + 2)) << k;
  log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem"), 0);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_run"), 5);
  EXPECT_EQ(graph_->stats().nodes.at(0).conversions, 0u) << "DMA-BUF buffers bound at create: no copy";
  (void)gp;
}

TEST_F(InferenceGraphTest, HostMemoryBuffersAreCopiedIntoStagingAndCounted) {
  // The graph's buffers in plain host memory (no DMA-BUF allocator): rknn must copy each frame into its
  // own memory, and the node's stats say so.
  graph_.reset();
  npu_memory_.reset();
  ctx_ = std::make_unique<Context>();
  ctx_->load_module(inference::make_inference_module());
  graph_ = std::make_unique<Graph>(*ctx_, "infer_host");
  build();
  graph_->verify();
  for (int f = 0; f < 4; ++f) ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  EXPECT_EQ(graph_->stats().nodes.at(0).conversions, 4u);
  EXPECT_NE(graph_->report_text().find("4 input(s) copied or converted"), std::string::npos) << graph_->report_text();
}

TEST_F(InferenceGraphTest, StreamingSelectsEachPreBoundBufferWithoutBinding) {
  build();
  const GraphParamId gp = graph_->add_graph_parameter(node_, "input", 3);
  graph_->verify();
  fake_->reset_log();
  ASSERT_EQ(graph_->start(), Status::ok);
  for (std::uint32_t f = 0; f < 6; ++f) {
    const std::uint32_t k = f % 3;
    if (f >= 3) {
      DequeuedBuffer back;
      ASSERT_EQ(graph_->dequeue(gp, back), Status::ok);
      EXPECT_EQ(back.status, Status::ok);
    }
    std::memset(graph_->tensor(in_, k).data(), static_cast<int>(f), 48);
    ASSERT_EQ(graph_->enqueue(gp, k), Status::ok);
  }
  ASSERT_EQ(graph_->wait_idle(5s), Status::ok);
  ASSERT_EQ(graph_->stop(), Status::ok);
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_run"), 6);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem"), 0);
  // memfd fds are distinct per buffer: all three bound memories were used.
  std::set<std::string> fds;
  for (const auto& e : log) {
    if (e.rfind("rknn_set_io_mem name=in0", 0) == 0) fds.insert(e);
  }
  EXPECT_EQ(fds.size(), 3u);
}

TEST_F(InferenceGraphTest, RunFailureFailsOneFrameAndNextFrameWorks) {
  build();
  graph_->verify();
  fake_->set("fail_runs", 1);
  EXPECT_NE(graph_->process(), Status::ok);
  const RunError err = graph_->last_error();
  EXPECT_NE(err.message.find("runtime code -1"), std::string::npos) << err.describe();
  EXPECT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
}

TEST_F(InferenceGraphTest, CommandsSetCoreMaskAndReportRunTime) {
  build();
  graph_->verify();
  ASSERT_EQ(graph_->process(), Status::ok);
  CommandReply reply;
  EXPECT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{3}), 1s), Status::ok);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_core_mask mask=3 rc=0"), 1);
  EXPECT_NE(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{5}), 1s),
            Status::ok);
  ASSERT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdGetRunTime), 1s, &reply), Status::ok);
  EXPECT_EQ(reply.text(), "last_run_us=777 backend=rknn");
}

TEST_F(InferenceGraphTest, MissingModelIsVerifyErrorNamingNodeAttributeAndPath) {
  build();
  graph_->set_attribute(node_, "model", std::string("/nonexistent/model.rknn"));
  const std::string msg = verify_error();
  EXPECT_NE(msg.find("npu_infer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("model"), std::string::npos) << msg;
  EXPECT_NE(msg.find("/nonexistent/model.rknn"), std::string::npos) << msg;
}

TEST_F(InferenceGraphTest, MissingRuntimeIsVerifyErrorSayingWhatIsMissing) {
  build(2, "/nonexistent/librknnrt.so");
  const std::string msg = verify_error();
  EXPECT_NE(msg.find("npu_infer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("/nonexistent/librknnrt.so not found"), std::string::npos) << msg;
  EXPECT_NE(msg.find("VG_RKNNRT_PATH"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no NPU"), std::string::npos) << msg;
}

TEST_F(InferenceGraphTest, OutputCountMismatchIsVerifyError) {
  build(1);
  const std::string msg = verify_error();
  EXPECT_NE(msg.find("out1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 outputs"), std::string::npos) << msg;
}

TEST_F(InferenceGraphTest, DeclaredOutputShapeDisagreeingWithModelIsVerifyError) {
  in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, TensorLayout::nhwc));
  node_ = graph_->add_node("npu_infer", "vg.inference");
  graph_->set_attribute(node_, "model", model_);
  graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  graph_->bind(node_, "input", in_);
  graph_->bind(node_, "out0", graph_->add_data("o0", DataMeta::tensor_of({1, 10, 2, 2}, ElementType::f32)));
  graph_->bind(node_, "out1", graph_->add_virtual("o1", DataKind::tensor));
  const std::string msg = verify_error();
  EXPECT_NE(msg.find("out0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("i8"), std::string::npos) << msg;
}

TEST_F(InferenceGraphTest, InputShapeDisagreeingWithModelIsVerifyError) {
  in_ = graph_->add_data("in", DataMeta::tensor_of({1, 8, 8, 3}, ElementType::u8, TensorLayout::nhwc));
  node_ = graph_->add_node("npu_infer", "vg.inference");
  graph_->set_attribute(node_, "model", model_);
  graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
  graph_->bind(node_, "input", in_);
  graph_->bind(node_, "out0", graph_->add_virtual("o0", DataKind::tensor));
  graph_->bind(node_, "out1", graph_->add_virtual("o1", DataKind::tensor));
  const std::string msg = verify_error();
  EXPECT_NE(msg.find("[1,8,8,3]"), std::string::npos) << msg;
}

TEST_F(InferenceGraphTest, ReleaseFreesEveryRuntimeObject) {
  build();
  graph_->add_graph_parameter(node_, "input", 2);
  graph_->verify();
  ASSERT_EQ(graph_->process(), Status::ok);
  graph_->release();
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->live_contexts(), 0);
}

TEST(InferenceGraphAllocatorTest, InstallPicksFdBackedAllocatorForNpuTarget) {
  Context ctx;
  auto sut = inference::install_npu_allocator(ctx);
  EXPECT_EQ(ctx.target_allocator("npu0"), &sut->allocator());
  EXPECT_FALSE(sut->kind().empty());
  MemoryBlock b = sut->allocator().allocate(128, 64);
  EXPECT_GE(b.dmabuf_fd, 0);
  sut->allocator().release(b);
  sut.reset();
  EXPECT_EQ(ctx.target_allocator("npu0"), nullptr);
}

TEST(InferenceGraphOpencvTest, BlazeFaceThroughGraphMatchesDirectForwardBitForBit) {
  const std::string model = vg::test::assets_dir() + "/face_detection_front_128x128_barracuda.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "model missing: " << model << " (scripts/fetch_assets.sh)";
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "blazeface");
  const DataId in = g.add_data("in", DataMeta::tensor_of({1, 128, 128, 3}, ElementType::f32, TensorLayout::nhwc));
  const NodeId n = g.add_node("face", "vg.inference");
  g.set_attribute(n, "model", model);
  g.bind(n, "input", in);
  DataId outs[4];
  for (int i = 0; i < 4; ++i) {
    outs[i] = g.add_virtual("o" + std::to_string(i), DataKind::tensor);
    g.bind(n, "out" + std::to_string(i), outs[i]);
  }
  g.verify();
  EXPECT_EQ(g.meta(outs[2]).tensor.dims[1], 512);
  EXPECT_EQ(g.meta(outs[2]).tensor.dims[2], 16);
  float* x = g.tensor(in).data_as<float>();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (int i = 0; i < 128 * 128 * 3; ++i) x[i] = dist(rng);
  ASSERT_EQ(g.process(), Status::ok) << g.last_error().describe();

  cv::dnn::Net net = cv::dnn::readNet(model);
  const int shape[4] = {1, 128, 128, 3};
  net.setInput(cv::Mat(4, shape, CV_32F, x));
  std::vector<cv::Mat> ref;
  net.forward(ref, net.getUnconnectedOutLayersNames());
  for (int i = 0; i < 4; ++i) {
    const TensorView t = g.tensor(outs[i]);
    ASSERT_EQ(t.byte_size(), ref[static_cast<std::size_t>(i)].total() * sizeof(float));
    EXPECT_EQ(std::memcmp(t.data(), ref[static_cast<std::size_t>(i)].ptr<float>(), t.byte_size()), 0) << "output " << i;
  }
}

/// Everything written to file descriptor 2 while @p f runs (OpenCV logs there, below std::cerr).
std::string stderr_of(const std::function<void()>& f) {
  char path[] = "/tmp/vg_stderr_XXXXXX";
  const int file = mkstemp(path);
  if (file < 0) return "<mkstemp failed>";
  std::fflush(stderr);
  std::cerr.flush();
  const int saved = dup(2);
  dup2(file, 2);
  f();
  std::fflush(stderr);
  std::cerr.flush();
  dup2(saved, 2);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

TEST(InferenceGraphOpencvTest, WrongInputShapeNamesTheNodeModelAndExpectedShapeAndLogsNothing) {
  const std::string model = vg::test::assets_dir() + "/face_detection_front_128x128_barracuda.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "model missing: " << model << " (scripts/fetch_assets.sh)";
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "blazeface");
  // The model takes [1,128,128,3]; the graph gives a 64x64 tensor.
  const DataId in = g.add_data("in", DataMeta::tensor_of({1, 64, 64, 3}, ElementType::f32, TensorLayout::nhwc));
  const NodeId n = g.add_node("face", "vg.inference");
  g.set_attribute(n, "model", model);
  g.bind(n, "input", in);
  for (int i = 0; i < 4; ++i) g.bind(n, "out" + std::to_string(i), g.add_virtual("o" + std::to_string(i), DataKind::tensor));
  const auto level_before = cv::utils::logging::getLogLevel();
  std::string msg = "no error";
  const std::string logged = stderr_of([&] {
    try {
      g.verify();
    } catch (const Error& e) {
      msg = e.what();
    }
  });
  EXPECT_EQ(logged, "") << "OpenCV logged during verify";
  EXPECT_EQ(cv::utils::logging::getLogLevel(), level_before) << "the log level was not restored";
  EXPECT_NE(msg.find("node 'face'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(model), std::string::npos) << msg;
  EXPECT_NE(msg.find("expects input [1,128,128,3] f32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[1,64,64,3] f32 nhwc"), std::string::npos) << msg;
}

}  // namespace
