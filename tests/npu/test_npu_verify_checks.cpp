// vg.inference checks at verify (runtime/driver versions, input buffers against the model's native input
// attributes), models with several inputs (rknn and OpenCV), and the rknn context rebuilt after a run
// timeout. Everything runs against the stand-in librknnrt (tests/npu/fake_rknnrt); nothing here needs a board.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "memfd_buffer.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/kernels/inference/opencv_backend.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rknn_types.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace vg;
using vg::test::FakeRknnrt;

constexpr std::size_t kIn0 = 4 * 4 * 3;  // [1,4,4,3] u8
constexpr std::size_t kIn1 = 2 * 2 * 3;  // [1,2,2,3] u8
constexpr std::size_t kOut = 5 * 6;      // [1,5,6] i8
const char* kOneInput = "input 1 4 4 3\noutput 1 10 2 2\noutput 1 5 6\n";
const char* kTwoInputs = "input 1 4 4 3\ninput 1 2 2 3\noutput 1 5 6\n";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---------------------------------------------------------------------------------------------------------
// Graph fixture: in (u8 NHWC 4x4x3) [+ in1] -> vg.inference -> virtual outputs.
class VerifyChecksGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    ctx_ = std::make_unique<Context>();
    npu_memory_ = inference::install_npu_allocator(*ctx_);
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "checks");
  }
  void TearDown() override {
    graph_.reset();
    npu_memory_.reset();
    ctx_.reset();
  }
  void use_host_memory() {
    graph_.reset();
    npu_memory_.reset();
    ctx_ = std::make_unique<Context>();
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "checks_host");
  }
  NodeId build(const std::string& model_body, int outputs, TensorLayout layout = TensorLayout::nhwc,
               const std::string& runtime = VG_FAKE_RKNNRT_PATH) {
    model_ = vg::test::write_fake_model("checks_" + std::to_string(++models_) + ".rknn", model_body);
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, layout));
    node_ = graph_->add_node("det", "vg.inference");
    graph_->set_attribute(node_, "model", model_);
    graph_->set_attribute(node_, "runtime_path", runtime);
    graph_->bind(node_, "input", in_);
    for (int i = 0; i < outputs; ++i) {
      outs_.push_back(graph_->add_virtual("o" + std::to_string(i), DataKind::tensor));
      graph_->bind(node_, "out" + std::to_string(i), outs_.back());
    }
    return node_;
  }
  DataId bind_input1(std::vector<std::int64_t> dims = {1, 2, 2, 3}, const std::string& param = "input1") {
    TensorMeta t;
    t.rank = static_cast<std::uint32_t>(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i];
    t.type = ElementType::u8;
    t.layout = TensorLayout::nhwc;
    in1_ = graph_->add_data("in1", DataMeta::tensor_of(t));
    graph_->bind(node_, param, in1_);
    return in1_;
  }
  std::string verify_error() {
    try {
      graph_->verify();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  /// verify_error(), then release a graph that verified, so the test can change an attribute and try again.
  std::string verify_error_and_release() {
    std::string error = verify_error();
    if (error.empty()) graph_->release();
    return error;
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<inference::NpuAllocatorInstallation> npu_memory_;
  std::unique_ptr<Graph> graph_;
  std::string model_;
  int models_ = 0;
  DataId in_;
  DataId in1_;
  std::vector<DataId> outs_;
  NodeId node_;
};

// --- 1a: model / runtime / driver versions -----------------------------------------------------------------

TEST_F(VerifyChecksGraphTest, ModelFromNewerToolkitIsVerifyErrorWithModelVersionsAndFix) {
  build(std::string(kOneInput) + "min_runtime 2.3.0\n", 2);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "'model'")) << msg;
  EXPECT_TRUE(contains(msg, model_)) << msg;
  EXPECT_TRUE(contains(msg, "RKNN_ERR_MODEL_INVALID")) << msg;
  EXPECT_TRUE(contains(msg, "Invalid RKNN model version")) << msg;
  EXPECT_TRUE(contains(msg, VG_FAKE_RKNNRT_PATH)) << msg;
  EXPECT_TRUE(contains(msg, "rknpu driver")) << msg;
  EXPECT_TRUE(contains(msg, "needed: a librknnrt at least as new as the toolkit")) << msg;
  EXPECT_EQ(fake_->live_contexts(), 0);
}

TEST_F(VerifyChecksGraphTest, SameModelVerifiesWithARuntimeNewEnough) {
  fake_->set_api_version("2.3.2 (fake)");
  build(std::string(kOneInput) + "min_runtime 2.3.0\n", 2);
  EXPECT_EQ(verify_error(), "");
  EXPECT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
}

TEST_F(VerifyChecksGraphTest, ModelForAnotherSocIsVerifyErrorSayingTargetPlatform) {
  fake_->set("init_error", rknn::kErrTargetPlatformUnmatch);
  fake_->set("fail_init", 1);
  build(kOneInput, 2);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "RKNN_ERR_TARGET_PLATFORM_UNMATCH")) << msg;
  EXPECT_TRUE(contains(msg, "target_platform")) << msg;
  EXPECT_TRUE(contains(msg, model_)) << msg;
}

TEST_F(VerifyChecksGraphTest, CoreAllOnRuntimeBefore200IsVerifyErrorNamingCoreMaskAndVersions) {
  build(kOneInput, 2);
  graph_->set_attribute(node_, "core_mask", std::int64_t{0xffff});
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "'core_mask'")) << msg;
  EXPECT_TRUE(contains(msg, model_)) << msg;
  EXPECT_TRUE(contains(msg, "librknnrt 1.6.0")) << msg;
  EXPECT_TRUE(contains(msg, "rknpu driver 0.9.8")) << msg;
  EXPECT_TRUE(contains(msg, "needed: librknnrt >= 2.0.0")) << msg;
  EXPECT_EQ(fake_->live_contexts(), 0) << "the refused context is destroyed";
}

TEST_F(VerifyChecksGraphTest, CoreAllVerifiesOnRuntime200) {
  fake_->set_api_version("2.0.0 (fake)");
  build(kOneInput, 2);
  graph_->set_attribute(node_, "core_mask", std::int64_t{0xffff});
  EXPECT_EQ(verify_error(), "");
}

TEST_F(VerifyChecksGraphTest, Cores1And2OnRknpu090To095AreVerifyErrorsCore0AndOtherDriversAreNot) {
  // Reported: rknpu 0.9.0-0.9.5 fails or hangs on cores 1 and 2 (single or multi-core masks); 0.8.x and
  // >= 0.9.6 run all three.
  fake_->set_driver_version("0.9.2");
  build(kOneInput, 2);
  for (std::int64_t mask : {7, 2, 4, 3, 0xffff}) {
    graph_->set_attribute(node_, "core_mask", mask);
    if (mask == 0xffff) fake_->set_api_version("2.0.0 (fake)");
    const std::string msg = verify_error_and_release();
    EXPECT_TRUE(contains(msg, "'core_mask'")) << mask << ": " << msg;
    EXPECT_TRUE(contains(msg, "rknpu driver 0.9.2")) << msg;
    EXPECT_TRUE(contains(msg, "rknpu driver >= 0.9.6 or 0.8.x")) << msg;
    EXPECT_TRUE(contains(msg, "rknn-toolkit2#294")) << msg;
  }
  for (std::int64_t mask : {0, 1}) {
    graph_->set_attribute(node_, "core_mask", mask);
    EXPECT_EQ(verify_error_and_release(), "") << "core_mask " << mask << " runs on core 0 or auto";
  }
  for (const char* driver : {"0.8.2", "0.9.6", "0.9.8"}) {
    fake_->set_driver_version(driver);
    graph_->set_attribute(node_, "core_mask", std::int64_t{7});
    EXPECT_EQ(verify_error_and_release(), "") << "rknpu " << driver << " runs every core";
  }
}

TEST_F(VerifyChecksGraphTest, SingleCoreNpuNeverCallsSetCoreMaskWhichItDoesNotSupport) {
  fake_->set("npu_cores", 1);  // RK3568 / RV1106: the runtime refuses rknn_set_core_mask
  build(kOneInput, 2);
  graph_->set_attribute(node_, "npu_cores", std::int64_t{1});
  for (std::int64_t mask : {0, 1}) {
    fake_->reset_log();
    graph_->set_attribute(node_, "core_mask", mask);
    EXPECT_EQ(verify_error_and_release(), "") << "core_mask " << mask;
    for (const std::string& line : fake_->log()) EXPECT_EQ(line.find("rknn_set_core_mask"), std::string::npos) << line;
  }
  // Without the node knowing the core count the call reaches the runtime, which refuses it by name.
  graph_->set_attribute(node_, "npu_cores", std::int64_t{0});
  graph_->set_attribute(node_, "core_mask", std::int64_t{1});
  const std::string msg = verify_error_and_release();
  EXPECT_TRUE(contains(msg, "rknn_set_core_mask(1)")) << msg;
  fake_->set("npu_cores", 3);
}

TEST_F(VerifyChecksGraphTest, CoreMaskBeyondTheSocsCoresIsVerifyErrorNamingTheCount) {
  build(kOneInput, 2);
  graph_->set_attribute(node_, "npu_cores", std::int64_t{2});  // an RK3576
  graph_->set_attribute(node_, "core_mask", std::int64_t{4});
  std::string msg = verify_error_and_release();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "'core_mask': 4 selects a core the NPU does not have (2 cores")) << msg;
  EXPECT_TRUE(contains(msg, "npu_cores attribute")) << msg;
  graph_->set_attribute(node_, "core_mask", std::int64_t{3});
  EXPECT_EQ(verify_error_and_release(), "");
  graph_->set_attribute(node_, "npu_cores", std::int64_t{1});  // an RK3568 / RV1106
  msg = verify_error_and_release();
  EXPECT_TRUE(contains(msg, "3 selects a core the NPU does not have (1 core,")) << msg;
  graph_->set_attribute(node_, "npu_cores", std::int64_t{4});
  msg = verify_error_and_release();
  EXPECT_TRUE(contains(msg, "'npu_cores'")) << msg;
  EXPECT_TRUE(contains(msg, "1..3")) << msg;
}

TEST(VerifyChecksRuntime, RuntimeClaimingAVersionWithoutItsFunctionsIsRefused) {
  FakeRknnrt fake(VG_FAKE_RKNNRT_OLD_PATH);
  fake.set_api_version("1.6.0 (claims)");  // the old stand-in has no rknn_mem_sync
  const std::string model = vg::test::write_fake_model("claims.rknn", kOneInput);
  inference::BackendOptions options;
  options.runtime_path = VG_FAKE_RKNNRT_OLD_PATH;
  {
    inference::RknnBackend sut;
    try {
      (void)sut.load(model, options);
      FAIL() << "expected vg::Error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_TRUE(contains(msg, "rknn_mem_sync")) << msg;
      EXPECT_TRUE(contains(msg, "1.6.0 (claims)")) << msg;
      EXPECT_TRUE(contains(msg, model)) << msg;
    }
  }
  EXPECT_EQ(fake.live_contexts(), 0);
}

// --- 1b: input buffers against the model's native input attributes ---------------------------------------------

TEST_F(VerifyChecksGraphTest, PaddedModelRowsWithRequireZeroCopyIsVerifyErrorNamingBufferAndFix) {
  build("input 1 4 4 3\nwstride 8\noutput 1 5 6\n", 1);
  graph_->set_attribute(node_, "require_zero_copy", true);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "'input' buffer 0")) << msg;
  EXPECT_TRUE(contains(msg, "w_stride 8")) << msg;
  EXPECT_TRUE(contains(msg, "4 px wide")) << msg;
  EXPECT_TRUE(contains(msg, model_)) << msg;
  EXPECT_TRUE(contains(msg, "convert the model")) << msg;
  EXPECT_EQ(fake_->live_contexts(), 0);
  EXPECT_EQ(fake_->live_mems(), 0);
}

TEST_F(VerifyChecksGraphTest, PaddedModelRowsWithoutRequireAreCopiedAndCounted) {
  build("input 1 4 4 3\nwstride 8\noutput 1 5 6\n", 1);
  ASSERT_EQ(verify_error(), "");
  auto* in = graph_->tensor(in_).data_as<std::uint8_t>();
  for (std::size_t j = 0; j < kIn0; ++j) in[j] = static_cast<std::uint8_t>(j * 5);
  ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  const auto* o = graph_->tensor(outs_[0]).data_as<std::int8_t>();
  for (std::size_t k = 0; k < kOut; ++k) ASSERT_EQ(o[k], static_cast<std::int8_t>(in[k % kIn0] + 1)) << k;
  EXPECT_EQ(graph_->stats().nodes.at(0).conversions, 1u);
}

TEST_F(VerifyChecksGraphTest, HostMemoryWithRequireZeroCopyIsVerifyErrorSayingInstallTheAllocator) {
  use_host_memory();
  build(kOneInput, 2);
  graph_->set_attribute(node_, "require_zero_copy", true);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'input' buffer 0")) << msg;
  EXPECT_TRUE(contains(msg, "without a DMA-BUF fd")) << msg;
  EXPECT_TRUE(contains(msg, "install_npu_allocator")) << msg;
}

TEST_F(VerifyChecksGraphTest, BufferSmallerThanSizeWithStrideWithRequireZeroCopyIsVerifyError) {
  build(std::string(kOneInput) + "input_pad 1048576\n", 2);  // the runtime reads 1 MiB more than the tensor
  graph_->set_attribute(node_, "require_zero_copy", true);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'input' buffer 0")) << msg;
  EXPECT_TRUE(contains(msg, "size_with_stride 1048624")) << msg;
  EXPECT_TRUE(contains(msg, "allocate buffers of at least that size")) << msg;
}

TEST_F(VerifyChecksGraphTest, RequireZeroCopyVerifiesWhenEveryBufferBinds) {
  build(kOneInput, 2);
  graph_->set_attribute(node_, "require_zero_copy", true);
  (void)graph_->add_graph_parameter(node_, "input", 3);
  ASSERT_EQ(verify_error(), "");
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd"), 3);
}

TEST_F(VerifyChecksGraphTest, TensorDeclaredInAnotherLayoutIsVerifyError) {
  build(kOneInput, 2, TensorLayout::nchw);  // same dims as the model's NHWC input, declared NCHW
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "declared nchw")) << msg;
  EXPECT_TRUE(contains(msg, "as nhwc")) << msg;
}

TEST(VerifyChecksRuntime, InputBeyondThe32BitMemorySizesIsALoadError) {
  FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);
  const std::string model = vg::test::write_fake_model("huge.rknn", "input 1 20000 20000 3\noutput 1 5 6\n");
  inference::BackendOptions options;
  options.runtime_path = VG_FAKE_RKNNRT_PATH;
  options.input.dims = {1, 20000, 20000, 3};
  options.input.type = inference::ElementKind::f32;  // 4.8 GB as f32
  options.input.layout = inference::Layout::nhwc;
  inference::RknnBackend sut;
  try {
    (void)sut.load(model, options);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "4800000000 bytes")) << e.what();
    EXPECT_TRUE(contains(e.what(), "32-bit")) << e.what();
    EXPECT_TRUE(contains(e.what(), "as u8")) << e.what();
  }
}

// --- 2: models with several inputs ---------------------------------------------------------------------------

TEST(VerifyChecksParams, ExtraInputsComeAfterTheOutputsSoExistingIndexesStay) {
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  const KernelInfo* k = ctx.find_kernel("vg.inference");
  ASSERT_NE(k, nullptr);
  const auto& p = k->decl.params();
  ASSERT_EQ(p.size(), 13u);
  EXPECT_EQ(p[inference::kInputParam].name, "input");
  for (std::size_t i = 0; i < inference::kMaxOutputs; ++i) {
    EXPECT_EQ(p[inference::kFirstOutputParam + i].name, "out" + std::to_string(i));
  }
  EXPECT_EQ(inference::kFirstExtraInputParam, 10u);
  for (std::size_t i = 0; i < inference::kMaxExtraInputs; ++i) {
    EXPECT_EQ(p[inference::kFirstExtraInputParam + i].name, "input" + std::to_string(i + 1));
    EXPECT_FALSE(p[inference::kFirstExtraInputParam + i].required);
  }
}

class MultiInputRknnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("two_inputs.rknn", kTwoInputs);
    options_.runtime_path = VG_FAKE_RKNNRT_PATH;
    for (int k = 0; k < 2; ++k) {
      in0_.push_back(memfd_.allocate(kIn0, 64));
      in1_.push_back(memfd_.allocate(kIn1, 64));
      auto* a = static_cast<std::uint8_t*>(in0_.back().data);
      auto* b = static_cast<std::uint8_t*>(in1_.back().data);
      for (std::size_t j = 0; j < kIn0; ++j) a[j] = static_cast<std::uint8_t>(k * 40 + j);
      for (std::size_t j = 0; j < kIn1; ++j) b[j] = static_cast<std::uint8_t>(100 + k * 9 + j * 3);
    }
    out_.assign(kOut, 0);
    ptrs_ = {out_.data()};
  }
  void TearDown() override {
    for (auto& b : in0_) memfd_.release(b);
    for (auto& b : in1_) memfd_.release(b);
  }
  // out[k] = int8(in0[k % 48] + 1 + in1[k % 12])
  void expect_output(std::size_t k0, std::size_t k1) const {
    const auto* a = static_cast<const std::uint8_t*>(in0_[k0].data);
    const auto* b = static_cast<const std::uint8_t*>(in1_[k1].data);
    for (std::size_t k = 0; k < kOut; ++k) {
      ASSERT_EQ(out_[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(a[k % kIn0] + 1 + b[k % kIn1]))) << k;
    }
  }
  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  inference::BackendOptions options_;
  npu::MemfdAllocator memfd_;
  std::vector<MemoryBlock> in0_, in1_;
  std::vector<std::int8_t> out_;
  std::vector<void*> ptrs_;
};

TEST_F(MultiInputRknnTest, EachInputIsPreBoundAndSelectedPerFrame) {
  inference::RknnBackend sut;
  const inference::ModelInfo info = sut.load(model_, options_);
  ASSERT_EQ(info.inputs.size(), 2u);
  EXPECT_EQ(info.inputs[1].name, "in1");
  EXPECT_EQ(info.inputs[1].dims, (std::vector<std::int64_t>{1, 2, 2, 3}));
  fake_->reset_log();
  sut.bind_extra_inputs(1, in1_);
  sut.bind_inputs(in0_);
  auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd"), 4) << "two buffers per input, at create";
  for (const auto& b : in1_) {
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd fd=" + std::to_string(b.dmabuf_fd) + " size=12"), 1);
  }
  fake_->reset_log();
  bool copied = true;
  for (std::size_t f = 0; f < 4; ++f) {
    ASSERT_EQ(sut.select_extra_input(1, (f / 2) % 2, in1_[(f / 2) % 2], copied), Status::ok);
    EXPECT_FALSE(copied);
    ASSERT_EQ(sut.run(f % 2, ptrs_), Status::ok);
    expect_output(f % 2, (f / 2) % 2);
  }
  log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_io_mem name=in1"), 4);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem"), 0);
}

TEST_F(MultiInputRknnTest, ExtraInputFromOtherMemoryIsCopiedAndReported) {
  inference::RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_extra_inputs(1, in1_);
  sut.bind_inputs(in0_);
  std::vector<std::uint8_t> host(kIn1, 7);
  MemoryBlock b;
  b.data = host.data();
  b.size = host.size();
  bool copied = false;
  ASSERT_EQ(sut.select_extra_input(1, SIZE_MAX, b, copied), Status::ok);
  EXPECT_TRUE(copied);
  ASSERT_EQ(sut.run(0, ptrs_), Status::ok);
  const auto* a = static_cast<const std::uint8_t*>(in0_[0].data);
  EXPECT_EQ(out_[3], static_cast<std::int8_t>(static_cast<std::uint8_t>(a[3] + 1 + 7)));
  MemoryBlock device_only;
  device_only.size = kIn1;
  EXPECT_EQ(sut.select_extra_input(1, SIZE_MAX, device_only, copied), Status::not_supported);
  EXPECT_TRUE(contains(std::string(sut.last_failure()), "device-only")) << sut.last_failure();
}

TEST_F(MultiInputRknnTest, GraphBindingMoreInputsThanTheModelIsALoadError) {
  options_.extra_inputs.resize(2);
  options_.extra_inputs[0].dims = {1, 2, 2, 3};
  options_.extra_inputs[0].type = inference::ElementKind::u8;
  options_.extra_inputs[1] = options_.extra_inputs[0];
  inference::RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "binds 3 inputs but the model has only 2 input(s) ('input2'")) << e.what();
  }
}

TEST_F(VerifyChecksGraphTest, TwoInputModelRunsThroughTheGraphWithBothInputs) {
  build(kTwoInputs, 1);
  bind_input1();
  (void)graph_->add_graph_parameter(node_, "input1", 2);
  ASSERT_EQ(verify_error(), "");
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd fd="), 3) << "1 buffer of input, 2 of input1";
  fake_->reset_log();
  auto* a = graph_->tensor(in_).data_as<std::uint8_t>();
  for (std::size_t j = 0; j < kIn0; ++j) a[j] = static_cast<std::uint8_t>(j);
  for (std::size_t k = 0; k < 2; ++k) {
    auto* b = graph_->tensor(in1_, k).data_as<std::uint8_t>();
    for (std::size_t j = 0; j < kIn1; ++j) b[j] = static_cast<std::uint8_t>(50 * (k + 1) + j);
  }
  ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  const auto* b = graph_->tensor(in1_, 0).data_as<std::uint8_t>();
  const auto* o = graph_->tensor(outs_[0]).data_as<std::int8_t>();
  for (std::size_t k = 0; k < kOut; ++k) {
    ASSERT_EQ(o[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(a[k % kIn0] + 1 + b[k % kIn1]))) << k;
  }
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem"), 0);
  EXPECT_EQ(graph_->stats().nodes.at(0).conversions, 0u);
}

TEST_F(VerifyChecksGraphTest, TwoInputModelWithInput1UnboundIsVerifyErrorListingTheInputs) {
  build(kTwoInputs, 1);
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'det'")) << msg;
  EXPECT_TRUE(contains(msg, "'input1'")) << msg;
  EXPECT_TRUE(contains(msg, "has 2 inputs")) << msg;
  EXPECT_TRUE(contains(msg, "input1 = 'in1' [1,2,2,3] u8")) << msg;
}

TEST_F(VerifyChecksGraphTest, Input1OfTheWrongShapeIsVerifyErrorNamingIt) {
  build(kTwoInputs, 1);
  bind_input1({1, 3, 3, 3});
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'input1'")) << msg;
  EXPECT_TRUE(contains(msg, "[1,2,2,3]")) << msg;
  EXPECT_TRUE(contains(msg, "[1,3,3,3]")) << msg;
}

TEST_F(VerifyChecksGraphTest, Input2WithoutInput1IsVerifyError) {
  build(kTwoInputs, 1);
  bind_input1({1, 2, 2, 3}, "input2");
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'input2'")) << msg;
  EXPECT_TRUE(contains(msg, "without gaps")) << msg;
}

TEST_F(VerifyChecksGraphTest, Input1OnAOneInputModelIsVerifyError) {
  build(kOneInput, 2);
  bind_input1();
  const std::string msg = verify_error();
  EXPECT_TRUE(contains(msg, "'input1'")) << msg;
  EXPECT_TRUE(contains(msg, "only 1 input")) << msg;
}

// A two-input ONNX model written here (protobuf wire format by hand): c = a - b, a and b [1,6] f32.
std::string varint(std::uint64_t v) {
  std::string s;
  do {
    std::uint8_t byte = v & 0x7f;
    v >>= 7;
    if (v != 0) byte |= 0x80;
    s.push_back(static_cast<char>(byte));
  } while (v != 0);
  return s;
}
std::string field(std::uint64_t number, std::uint64_t value) { return varint(number << 3) + varint(value); }
std::string field(std::uint64_t number, const std::string& bytes) {
  return varint((number << 3) | 2) + varint(bytes.size()) + bytes;
}
std::string value_info(const std::string& name, const std::vector<std::uint64_t>& dims) {
  std::string shape;
  for (std::uint64_t d : dims) shape += field(1, field(1, d));              // dim { dim_value }
  const std::string tensor_type = field(1, std::uint64_t{1}) + field(2, shape);  // elem_type FLOAT, shape
  return field(1, name) + field(2, field(1, tensor_type));                  // name, type { tensor_type }
}
std::string write_sub_model() {
  const std::string node = field(1, std::string("a")) + field(1, std::string("b")) + field(2, std::string("c")) +
                           field(3, std::string("sub0")) + field(4, std::string("Sub"));
  const std::string graph = field(1, node) + field(2, std::string("two_inputs")) + field(11, value_info("a", {1, 6})) +
                            field(11, value_info("b", {1, 6})) + field(12, value_info("c", {1, 6}));
  const std::string model = field(1, std::uint64_t{7}) + field(8, field(1, std::string()) + field(2, std::uint64_t{13})) +
                            field(7, graph);
  const auto path = std::filesystem::temp_directory_path() / ("vg_two_inputs_" + std::to_string(::getpid()) + ".onnx");
  std::ofstream(path, std::ios::binary) << model;
  return path.string();
}

TEST(MultiInputOpencv, EachInputIsSetByItsNameInTheModel) {
  const std::string model = write_sub_model();
  inference::BackendOptions options;
  options.warmup = 0;
  options.input.dims = {1, 6};
  options.input.type = inference::ElementKind::f32;
  inference::TensorDesc b;
  b.dims = {1, 6};
  b.type = inference::ElementKind::f32;
  options.extra_inputs.push_back(b);
  inference::OpencvBackend sut;
  const inference::ModelInfo info = sut.load(model, options);
  ASSERT_EQ(info.inputs.size(), 2u);
  EXPECT_EQ(info.inputs[0].name, "a");
  EXPECT_EQ(info.inputs[1].name, "b");
  ASSERT_EQ(info.outputs.size(), 1u);
  std::vector<float> a0(6), b0(6), b1(6);
  for (int i = 0; i < 6; ++i) {
    a0[i] = 10.0f * static_cast<float>(i + 1);
    b0[i] = static_cast<float>(i);
    b1[i] = 0.5f * static_cast<float>(i);
  }
  MemoryBlock ma{a0.data(), a0.size() * 4};
  std::vector<MemoryBlock> mb = {MemoryBlock{b0.data(), 24}, MemoryBlock{b1.data(), 24}};
  sut.bind_extra_inputs(1, mb);
  sut.bind_inputs(std::span<const MemoryBlock>(&ma, 1));
  std::vector<float> c(6);
  std::vector<void*> ptrs = {c.data()};
  for (std::size_t k = 0; k < 2; ++k) {
    bool copied = true;
    ASSERT_EQ(sut.select_extra_input(1, k, mb[k], copied), Status::ok);
    EXPECT_FALSE(copied);
    ASSERT_EQ(sut.run(0, ptrs), Status::ok);
    const std::vector<float>& bk = k == 0 ? b0 : b1;
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(c[i], a0[i] - bk[i]) << "frame " << k << " element " << i;
  }
  std::filesystem::remove(model);
}

TEST(MultiInputOpencv, CountAndShapeMismatchesNameTheModelsInputs) {
  const std::string model = write_sub_model();
  inference::BackendOptions options;
  options.input.dims = {1, 6};
  options.input.type = inference::ElementKind::f32;
  {
    inference::OpencvBackend sut;  // one input bound, the model has two
    try {
      (void)sut.load(model, options);
      FAIL() << "expected vg::Error";
    } catch (const Error& e) {
      EXPECT_TRUE(contains(e.what(), "declares 2 input(s)")) << e.what();
      EXPECT_TRUE(contains(e.what(), "ONNX input 'b'")) << e.what();
    }
  }
  inference::TensorDesc b;
  b.dims = {1, 5};
  b.type = inference::ElementKind::f32;
  options.extra_inputs.push_back(b);
  inference::OpencvBackend sut;
  try {
    (void)sut.load(model, options);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "'input1'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "[1,6] f32 (ONNX input 'b')")) << e.what();
    EXPECT_TRUE(contains(e.what(), "[1,5]")) << e.what();
  }
  std::filesystem::remove(model);
}

TEST(MultiInputOpencv, TwoInputOnnxModelThroughTheGraph) {
  const std::string model = write_sub_model();
  Context ctx;
  ctx.load_module(inference::make_inference_module());
  Graph g(ctx, "two_inputs_cv");
  const DataId a = g.add_data("a", DataMeta::tensor_of({1, 6}, ElementType::f32, TensorLayout::unspecified));
  const DataId b = g.add_data("b", DataMeta::tensor_of({1, 6}, ElementType::f32, TensorLayout::unspecified));
  const DataId c = g.add_virtual("c", DataKind::tensor);
  const NodeId n = g.add_node("sub", "vg.inference");
  g.set_attribute(n, "model", model);
  g.bind(n, "input", a);
  g.bind(n, "input1", b);
  g.bind(n, "out0", c);
  g.verify();
  auto* pa = g.tensor(a).data_as<float>();
  auto* pb = g.tensor(b).data_as<float>();
  for (int i = 0; i < 6; ++i) {
    pa[i] = static_cast<float>(3 * i);
    pb[i] = static_cast<float>(i + 1);
  }
  ASSERT_EQ(g.process(), Status::ok) << g.last_error().describe();
  const auto* pc = g.tensor(c).data_as<float>();
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(pc[i], static_cast<float>(3 * i - (i + 1))) << i;
  std::filesystem::remove(model);
}

// --- 3: recovery after a run timeout -----------------------------------------------------------------------------

class RecoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("recover.rknn", kOneInput);
    options_.runtime_path = VG_FAKE_RKNNRT_PATH;
    options_.timeout_ms = 5;
    options_.core_mask = 2;
    for (int k = 0; k < 3; ++k) {
      blocks_.push_back(memfd_.allocate(kIn0, 64));
      auto* p = static_cast<std::uint8_t*>(blocks_.back().data);
      for (std::size_t j = 0; j < kIn0; ++j) p[j] = static_cast<std::uint8_t>(k * 60 + j);
    }
    o0_.assign(40, 0);
    o1_.assign(kOut, 0);
    ptrs_ = {o0_.data(), o1_.data()};
  }
  void TearDown() override {
    for (auto& b : blocks_) memfd_.release(b);
  }
  void expect_outputs(std::size_t k) const {
    const auto* in = static_cast<const std::uint8_t*>(blocks_[k].data);
    for (std::size_t i = 0; i < kOut; ++i) {
      ASSERT_EQ(o1_[i], static_cast<std::int8_t>(static_cast<std::uint8_t>(in[i % kIn0] + 2))) << i;
    }
  }
  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  inference::BackendOptions options_;
  npu::MemfdAllocator memfd_;
  std::vector<MemoryBlock> blocks_;
  std::vector<std::int8_t> o0_, o1_;
  std::vector<void*> ptrs_;
};

TEST_F(RecoveryTest, TimeoutRebuildsTheContextBeforeTheNextFrame) {
  {
    inference::RknnBackend sut;
    (void)sut.load(model_, options_);
    sut.bind_inputs(blocks_);
    fake_->set("timeout_runs", 1);
    EXPECT_EQ(sut.run(1, ptrs_), Status::timeout);
    EXPECT_EQ(sut.recoveries(), 0u);
    fake_->reset_log();
    ASSERT_EQ(sut.run(1, ptrs_), Status::ok) << sut.last_failure();
    expect_outputs(1);
    EXPECT_EQ(sut.recoveries(), 1u);
    const auto log = fake_->log();
    // Old context: 3 inputs + staging + 2 outputs freed, then destroyed; new one: same model, same core
    // mask, outputs and inputs bound again.
    ASSERT_GE(log.size(), 16u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(log[i].rfind("rknn_destroy_mem", 0), 0u) << log[i];
    EXPECT_EQ(log[6].rfind("rknn_destroy ", 0), 0u) << log[6];
    EXPECT_EQ(log[7].rfind("rknn_init size=", 0), 0u) << log[7];
    EXPECT_EQ(log[8], "rknn_set_core_mask mask=2 rc=0");
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_init"), 1);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_io_mem name=out"), 2);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem size="), 3);  // 2 outputs + staging
    for (const auto& b : blocks_) {
      EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd fd=" + std::to_string(b.dmabuf_fd)), 1);
    }
    EXPECT_EQ(fake_->live_contexts(), 1);
    fake_->reset_log();
    for (std::size_t f = 0; f < 6; ++f) {
      ASSERT_EQ(sut.run(f % 3, ptrs_), Status::ok);
      expect_outputs(f % 3);
    }
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_init"), 0) << "one rebuild per timeout";
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem"), 0);
  }
  EXPECT_EQ(fake_->live_contexts(), 0);
  EXPECT_EQ(fake_->live_mems(), 0);
}

TEST_F(RecoveryTest, CoreMaskSetByCommandSurvivesTheRebuild) {
  inference::RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  ASSERT_EQ(sut.set_core_mask(4), Status::ok);
  fake_->set("timeout_runs", 1);
  EXPECT_EQ(sut.run(0, ptrs_), Status::timeout);
  fake_->reset_log();
  ASSERT_EQ(sut.run(0, ptrs_), Status::ok);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_core_mask mask=4 rc=0"), 1);
}

TEST_F(RecoveryTest, FailedRebuildFailsFramesClearlyUntilItSucceeds) {
  {
    inference::RknnBackend sut;
    (void)sut.load(model_, options_);
    sut.bind_inputs(blocks_);
    fake_->set("timeout_runs", 1);
    EXPECT_EQ(sut.run(0, ptrs_), Status::timeout);
    fake_->set("fail_init", 2);
    for (int f = 0; f < 2; ++f) {
      EXPECT_EQ(sut.run(0, ptrs_), Status::inference_error);
      EXPECT_EQ(sut.last_runtime_code(), rknn::kErrModelInvalid);
      const std::string why(sut.last_failure());
      EXPECT_TRUE(contains(why, "rebuilding it failed: rknn_init returned -6")) << why;
      EXPECT_EQ(fake_->live_contexts(), 0);
      EXPECT_EQ(fake_->live_mems(), 0);
    }
    bool converted = false;
    vg::test::MemfdBuffer frame(kIn0, 0);
    EXPECT_EQ(sut.set_core_mask(1), Status::ok) << "a command rebuilds too";
    ASSERT_EQ(sut.run_imported(frame.block(), ptrs_, converted), Status::ok);
    EXPECT_EQ(sut.recoveries(), 1u);
    ASSERT_EQ(sut.run(2, ptrs_), Status::ok);
    expect_outputs(2);
  }
  EXPECT_EQ(fake_->live_contexts(), 0);
  EXPECT_EQ(fake_->live_mems(), 0);
}

TEST_F(RecoveryTest, TwoInputModelIsReboundCompletely) {
  const std::string model = vg::test::write_fake_model("recover_two.rknn", kTwoInputs);
  MemoryBlock second = memfd_.allocate(kIn1, 64);
  std::memset(second.data, 3, kIn1);
  {
    inference::RknnBackend sut;
    (void)sut.load(model, options_);
    sut.bind_extra_inputs(1, std::span<const MemoryBlock>(&second, 1));
    sut.bind_inputs(blocks_);
    bool copied = false;
    ASSERT_EQ(sut.select_extra_input(1, 0, second, copied), Status::ok);
    fake_->set("timeout_runs", 1);
    std::vector<void*> ptrs = {o1_.data()};
    EXPECT_EQ(sut.run(0, ptrs), Status::timeout);
    fake_->reset_log();
    ASSERT_EQ(sut.select_extra_input(1, 0, second, copied), Status::ok);
    ASSERT_EQ(sut.run(0, ptrs), Status::ok) << sut.last_failure();
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd fd=" + std::to_string(second.dmabuf_fd)), 1);
    const auto* in = static_cast<const std::uint8_t*>(blocks_[0].data);
    for (std::size_t i = 0; i < kOut; ++i) {
      ASSERT_EQ(o1_[i], static_cast<std::int8_t>(static_cast<std::uint8_t>(in[i % kIn0] + 1 + 3))) << i;
    }
  }
  memfd_.release(second);
}

TEST_F(VerifyChecksGraphTest, TimeoutFailsOneFrameAndTheNextRunsOnARebuiltContext) {
  build(kOneInput, 2);
  graph_->set_attribute(node_, "timeout_ms", std::int64_t{5});
  ASSERT_EQ(verify_error(), "");
  auto* in = graph_->tensor(in_).data_as<std::uint8_t>();
  for (std::size_t j = 0; j < kIn0; ++j) in[j] = static_cast<std::uint8_t>(j + 9);
  fake_->set("timeout_runs", 1);
  EXPECT_EQ(graph_->process(), Status::timeout);
  fake_->set("fail_init", 1);
  EXPECT_NE(graph_->process(), Status::ok);
  EXPECT_TRUE(contains(graph_->last_error().message, "rebuilding it failed")) << graph_->last_error().describe();
  ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  const auto* o = graph_->tensor(outs_[1]).data_as<std::int8_t>();
  for (std::size_t k = 0; k < kOut; ++k) ASSERT_EQ(o[k], static_cast<std::int8_t>(in[k % kIn0] + 2)) << k;
  EXPECT_EQ(fake_->live_contexts(), 1);
}

}  // namespace
