// Contract tests of the rknn backend against the stand-in librknnrt (tests/npu/fake_rknnrt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "memfd_buffer.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rknn_runtime.hpp"

namespace {

using namespace vg;
using namespace vg::inference;
using vg::test::FakeRknnrt;

constexpr std::size_t kInputBytes = 4 * 4 * 3;
constexpr std::size_t kOut0 = 10 * 2 * 2;  // [1,10,2,2], NC1HWC2 natively
constexpr std::size_t kOut1 = 5 * 6;       // [1,5,6], same layout natively
const char* kModelBody = "input 1 4 4 3\noutput 1 10 2 2\noutput 1 5 6\n";

class RknnBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("model.rknn", kModelBody);
    options_.runtime_path = VG_FAKE_RKNNRT_PATH;
    options_.timeout_ms = 100;
    for (int k = 0; k < 3; ++k) {
      blocks_.push_back(memfd_.allocate(kInputBytes, 64));
      fill(k);
    }
    out0_.assign(kOut0, 0);
    out1_.assign(kOut1, 0);
    ptrs_ = {out0_.data(), out1_.data()};
  }
  void TearDown() override {
    for (auto& b : blocks_) memfd_.release(b);
  }
  void fill(int k) {
    auto* p = static_cast<std::uint8_t*>(blocks_[static_cast<std::size_t>(k)].data);
    for (std::size_t j = 0; j < kInputBytes; ++j) p[j] = static_cast<std::uint8_t>(k * 50 + j);
  }
  // Expected logical output: int8(input[k % 48] + 1 + output_index).
  void expect_outputs(int buffer) const {
    const auto* in = static_cast<const std::uint8_t*>(blocks_[static_cast<std::size_t>(buffer)].data);
    for (std::size_t k = 0; k < kOut0; ++k) {
      ASSERT_EQ(out0_[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 1))) << k;
    }
    for (std::size_t k = 0; k < kOut1; ++k) {
      ASSERT_EQ(out1_[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 2))) << k;
    }
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  BackendOptions options_;
  npu::MemfdAllocator memfd_;
  std::vector<MemoryBlock> blocks_;
  std::vector<std::int8_t> out0_, out1_;
  std::vector<void*> ptrs_;
};

TEST_F(RknnBackendTest, LoadReportsModelTensorsFromAttributes) {
  RknnBackend sut;
  const ModelInfo info = sut.load(model_, options_);
  ASSERT_EQ(info.inputs.size(), 1u);
  EXPECT_EQ(info.inputs[0].dims, (std::vector<std::int64_t>{1, 4, 4, 3}));
  EXPECT_EQ(info.inputs[0].type, ElementKind::u8);
  EXPECT_EQ(info.inputs[0].layout, Layout::nhwc);
  ASSERT_EQ(info.outputs.size(), 2u);
  EXPECT_EQ(info.outputs[0].dims, (std::vector<std::int64_t>{1, 10, 2, 2}));
  EXPECT_EQ(info.outputs[0].type, ElementKind::i8);
  EXPECT_EQ(info.outputs[0].layout, Layout::nchw);
  EXPECT_TRUE(info.outputs[0].quantized);
  EXPECT_FLOAT_EQ(info.outputs[0].scale, 0.5f);
  EXPECT_EQ(info.outputs[0].zero_point, -3);
  EXPECT_EQ(info.outputs[1].dims, (std::vector<std::int64_t>{1, 5, 6}));
  EXPECT_NE(info.detail.find("1.6.0"), std::string::npos) << info.detail;
}

TEST_F(RknnBackendTest, CallSequencePreBindsAtCreateAndNothingPerFrame) {
  {
    RknnBackend sut;
    (void)sut.load(model_, options_);
    auto log = fake_->log();
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log[0].rfind("rknn_init", 0), 0u) << log[0];
    EXPECT_EQ(log[1], "rknn_query cmd=5 size=512 rc=0");  // SDK version before any struct-sized query
    EXPECT_EQ(log[2], "rknn_query cmd=0 size=8 rc=0");
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_query cmd=1 size=376 rc=0"), 1);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_query cmd=8 size=376 rc=0"), 1);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_query cmd=2 size=376 rc=0"), 2);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_query cmd=9 size=376 rc=0"), 2);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem size="), 2);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_io_mem name=out"), 2);

    fake_->reset_log();
    sut.bind_inputs(blocks_);
    log = fake_->log();
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd"), 3);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem size="), 1);  // the staging memory for run_imported
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_run"), 1);              // warm-up
    EXPECT_EQ(sut.zero_copy_inputs(), 3u);

    fake_->reset_log();
    for (int f = 0; f < 9; ++f) {
      ASSERT_EQ(sut.run(static_cast<std::size_t>(f % 3), ptrs_), Status::ok);
      expect_outputs(f % 3);
    }
    log = fake_->log();
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem"), 0);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_destroy_mem"), 0);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_io_mem name=in0"), 9);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_mem_sync mode=1"), 9);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_mem_sync mode=2"), 18);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_run timeout_ms=100 rc=0"), 9);
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_query cmd=4 size=8"), 9);
    // Per frame order: set_io_mem, sync to device, run, perf query, sync from device (x2).
    ASSERT_GE(log.size(), 6u);
    EXPECT_EQ(log[0].rfind("rknn_set_io_mem name=in0", 0), 0u);
    EXPECT_EQ(log[1].rfind("rknn_mem_sync mode=1", 0), 0u);
    EXPECT_EQ(log[2].rfind("rknn_run", 0), 0u);
    EXPECT_EQ(log[3].rfind("rknn_query cmd=4", 0), 0u);
    EXPECT_EQ(log[4].rfind("rknn_mem_sync mode=2", 0), 0u);
    EXPECT_EQ(sut.last_run_time_us(), 777);
    fake_->reset_log();
  }
  const auto log = fake_->log();
  ASSERT_EQ(log.size(), 7u);  // 3 inputs + staging + 2 outputs freed, then the context
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(log[i].rfind("rknn_destroy_mem", 0), 0u) << log[i];
  EXPECT_EQ(log[6].rfind("rknn_destroy ", 0), 0u) << log[6];
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->live_contexts(), 0);
}

TEST_F(RknnBackendTest, RunFailureReturnsInferenceErrorAndNextFrameWorks) {
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  fake_->set("fail_runs", 1);
  EXPECT_EQ(sut.run(1, ptrs_), Status::inference_error);
  EXPECT_EQ(sut.last_runtime_code(), rknn::kErrFail);
  ASSERT_EQ(sut.run(1, ptrs_), Status::ok);
  EXPECT_EQ(sut.last_runtime_code(), 0);
  expect_outputs(1);
}

TEST_F(RknnBackendTest, RunTimeoutReturnsTimeoutAndNextFrameWorks) {
  options_.timeout_ms = 5;
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  fake_->set("timeout_runs", 1);
  fake_->reset_log();
  EXPECT_EQ(sut.run(2, ptrs_), Status::timeout);
  EXPECT_EQ(sut.last_runtime_code(), rknn::kErrTimeout);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_run timeout_ms=5 rc=-2"), 1);
  ASSERT_EQ(sut.run(2, ptrs_), Status::ok);
  expect_outputs(2);
}

TEST_F(RknnBackendTest, DequantizeDeliversFloatOutputs) {
  options_.dequantize = true;
  RknnBackend sut;
  const ModelInfo info = sut.load(model_, options_);
  ASSERT_EQ(info.outputs[0].type, ElementKind::f32);
  EXPECT_FALSE(info.outputs[0].quantized);
  sut.bind_inputs(blocks_);
  std::vector<float> f0(kOut0), f1(kOut1);
  std::vector<void*> ptrs = {f0.data(), f1.data()};
  ASSERT_EQ(sut.run(0, ptrs), Status::ok);
  const auto* in = static_cast<const std::uint8_t*>(blocks_[0].data);
  for (std::size_t k = 0; k < kOut0; ++k) {
    const auto q = static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 1));
    ASSERT_FLOAT_EQ(f0[k], (static_cast<float>(q) + 3.0f) * 0.5f) << k;
  }
}

TEST_F(RknnBackendTest, HostMemoryInputsGoThroughOneStagingMemory) {
  std::vector<std::vector<std::uint8_t>> host(2, std::vector<std::uint8_t>(kInputBytes));
  std::vector<MemoryBlock> hb(2);
  for (std::size_t k = 0; k < 2; ++k) {
    for (std::size_t j = 0; j < kInputBytes; ++j) host[k][j] = static_cast<std::uint8_t>(200 + k + j);
    hb[k].data = host[k].data();
    hb[k].size = kInputBytes;
  }
  RknnBackend sut;
  (void)sut.load(model_, options_);
  fake_->reset_log();
  sut.bind_inputs(hb);
  auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem_from_fd"), 0);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem size=48"), 1);
  EXPECT_EQ(sut.zero_copy_inputs(), 0u);
  ASSERT_EQ(sut.run(1, ptrs_), Status::ok);
  for (std::size_t k = 0; k < kOut1; ++k) {
    ASSERT_EQ(out1_[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(host[1][k % kInputBytes] + 2)));
  }
}

TEST_F(RknnBackendTest, ImportedHostMemoryIsCopiedIntoStagingAndReported) {
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  std::vector<std::uint8_t> external(kInputBytes, 40);
  MemoryBlock host;
  host.data = external.data();
  host.size = external.size();
  fake_->reset_log();
  bool converted = false;
  ASSERT_EQ(sut.run_imported(host, ptrs_, converted), Status::ok);
  EXPECT_TRUE(converted) << "a copy is reported so the kernel can count it";
  EXPECT_EQ(out1_[0], 42);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem"), 0);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_io_mem name=in0 fd=-1"), 1);
  EXPECT_EQ(sut.import_counters().staging_copies, 1u);
  EXPECT_EQ(sut.import_counters().binds, 0u);
}

TEST_F(RknnBackendTest, ImportedDmabufsAreBoundOnceThenOnlySelected) {
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  std::vector<std::unique_ptr<vg::test::MemfdBuffer>> camera;
  for (int i = 0; i < 4; ++i) camera.push_back(std::make_unique<vg::test::MemfdBuffer>(kInputBytes, 128));
  fake_->reset_log();
  fake_->reset_counters();
  for (std::uint32_t f = 0; f < 40; ++f) {
    const auto& frame = *camera[f % 4];
    frame.fill(f);
    bool converted = true;
    ASSERT_EQ(sut.run_imported(frame.block(), ptrs_, converted), Status::ok) << sut.last_failure();
    EXPECT_FALSE(converted);
    ASSERT_EQ(out1_[5], static_cast<std::int8_t>(static_cast<std::uint8_t>(frame.tensor()[5] + 2))) << f;
  }
  const ImportCounters& c = sut.import_counters();
  EXPECT_EQ(c.binds, 4u);
  EXPECT_EQ(c.hits, 36u);
  EXPECT_EQ(c.staging_copies, 0u);
  EXPECT_EQ(c.cached, 4u);
  EXPECT_EQ(c.capacity, 8u);
  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 4);
  for (const auto& b : camera) {
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd fd=" + std::to_string(b->fd()) +
                                                  " size=48 offset=128 virt=yes"), 1);
  }
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 40u);
  EXPECT_EQ(runs[39].fd, camera[3]->fd());
  EXPECT_EQ(runs[39].checksum, vg::test::fnv1a64(camera[3]->tensor(), kInputBytes));
}

TEST_F(RknnBackendTest, FullImportCacheCopiesHostVisibleAndRefusesDeviceOnlyMemory) {
  options_.max_imported_buffers = 2;
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  std::vector<std::unique_ptr<vg::test::MemfdBuffer>> camera;
  for (int i = 0; i < 3; ++i) camera.push_back(std::make_unique<vg::test::MemfdBuffer>(kInputBytes, 0));
  bool converted = false;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(sut.run_imported(camera[static_cast<std::size_t>(i)]->block(), ptrs_, converted), Status::ok);
  }
  camera[2]->fill(9);
  ASSERT_EQ(sut.run_imported(camera[2]->block(), ptrs_, converted), Status::ok);
  EXPECT_TRUE(converted) << "cache full: one explicit copy";
  EXPECT_EQ(out1_[0], static_cast<std::int8_t>(static_cast<std::uint8_t>(camera[2]->tensor()[0] + 2)));
  EXPECT_EQ(sut.import_counters().binds, 2u);
  EXPECT_EQ(sut.import_counters().staging_copies, 1u);

  MemoryBlock device_only = camera[2]->block();
  device_only.data = nullptr;
  EXPECT_EQ(sut.run_imported(device_only, ptrs_, converted), Status::not_supported);
  EXPECT_FALSE(converted);
  EXPECT_NE(std::string(sut.last_failure()).find("max_imported_buffers"), std::string::npos) << sut.last_failure();
  EXPECT_EQ(sut.import_counters().staging_copies, 1u);
}

TEST_F(RknnBackendTest, StaleImportIsReboundWhenItsFdNumberNamesAnotherDmabuf) {
  RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  vg::test::MemfdBuffer frame(kInputBytes, 64);
  frame.fill(1);
  bool converted = false;
  ASSERT_EQ(sut.run_imported(frame.block(), ptrs_, converted), Status::ok);
  const int number = frame.fd();
  frame.replace_keeping_number();
  ASSERT_EQ(frame.fd(), number);
  frame.fill(2);
  fake_->reset_counters();
  ASSERT_EQ(sut.run_imported(frame.block(), ptrs_, converted), Status::ok);
  EXPECT_FALSE(converted);
  EXPECT_EQ(fake_->counter("destroy_mem"), 1);
  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 1);
  EXPECT_EQ(sut.import_counters().rebinds, 1u);
  EXPECT_EQ(sut.import_counters().cached, 1u);
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].checksum, vg::test::fnv1a64(frame.tensor(), kInputBytes)) << "the new memfd's bytes were read";
}

TEST_F(RknnBackendTest, ImportedDmabufWithPaddedModelRowsIsCopied) {
  const std::string strided =
      vg::test::write_fake_model("strided_import.rknn", "input 1 4 4 3\nwstride 8\noutput 1 5 6\n");
  RknnBackend sut;
  (void)sut.load(strided, options_);
  sut.bind_inputs(blocks_);
  vg::test::MemfdBuffer frame(kInputBytes, 0);
  frame.fill(3);
  std::vector<std::int8_t> out(kOut1);
  std::vector<void*> ptrs = {out.data()};
  bool converted = false;
  ASSERT_EQ(sut.run_imported(frame.block(), ptrs, converted), Status::ok);
  EXPECT_TRUE(converted);
  EXPECT_EQ(out[4], static_cast<std::int8_t>(static_cast<std::uint8_t>(frame.tensor()[4] + 1)));
  MemoryBlock device_only = frame.block();
  device_only.data = nullptr;
  EXPECT_EQ(sut.run_imported(device_only, ptrs, converted), Status::not_supported);
  EXPECT_NE(std::string(sut.last_failure()).find("w_stride"), std::string::npos) << sut.last_failure();
}

TEST_F(RknnBackendTest, DestructionFreesImportedBindingsBeforeTheContext) {
  {
    RknnBackend sut;
    (void)sut.load(model_, options_);
    sut.bind_inputs(blocks_);
    vg::test::MemfdBuffer a(kInputBytes, 0), b(kInputBytes, 0);
    bool converted = false;
    ASSERT_EQ(sut.run_imported(a.block(), ptrs_, converted), Status::ok);
    ASSERT_EQ(sut.run_imported(b.block(), ptrs_, converted), Status::ok);
    fake_->reset_log();
  }
  const auto log = fake_->log();
  ASSERT_EQ(log.size(), 9u);  // 2 imported + 3 inputs + staging + 2 outputs, then the context
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(log[i].rfind("rknn_destroy_mem", 0), 0u) << log[i];
  EXPECT_EQ(log[8].rfind("rknn_destroy ", 0), 0u) << log[8];
  EXPECT_EQ(fake_->live_mems(), 0);
}

TEST_F(RknnBackendTest, RowStridedModelInputIsCopiedWithPitch) {
  const std::string strided = vg::test::write_fake_model("strided.rknn", "input 1 4 4 3\nwstride 8\noutput 1 5 6\n");
  RknnBackend sut;
  (void)sut.load(strided, options_);
  sut.bind_inputs(blocks_);
  EXPECT_EQ(sut.zero_copy_inputs(), 0u);  // pitch differs from the dense graph tensor
  std::vector<std::int8_t> out(kOut1);
  std::vector<void*> ptrs = {out.data()};
  ASSERT_EQ(sut.run(2, ptrs), Status::ok);
  const auto* in = static_cast<const std::uint8_t*>(blocks_[2].data);
  for (std::size_t k = 0; k < kOut1; ++k) {
    ASSERT_EQ(out[k], static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 1))) << k;
  }
}

TEST_F(RknnBackendTest, CoreMaskIsForwardedAndInvalidMaskReported) {
  RknnBackend sut;
  (void)sut.load(model_, options_);
  EXPECT_EQ(sut.set_core_mask(rknn::kCore01), Status::ok);
  EXPECT_EQ(sut.set_core_mask(5), Status::inference_error);
  EXPECT_EQ(sut.last_runtime_code(), rknn::kErrParamInvalid);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_core_mask mask=3 rc=0"), 1);
}

TEST_F(RknnBackendTest, GraphInputShapeMismatchIsALoadError) {
  options_.input.dims = {1, 8, 8, 3};
  options_.input.type = ElementKind::u8;
  RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[1,4,4,3]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[1,8,8,3]"), std::string::npos) << e.what();
  }
}

TEST_F(RknnBackendTest, FloatGraphInputIsBoundWithFloatSize) {
  options_.input.dims = {1, 4, 4, 3};
  options_.input.type = ElementKind::f32;
  RknnBackend sut;
  const ModelInfo info = sut.load(model_, options_);
  EXPECT_EQ(info.inputs[0].type, ElementKind::f32);
  MemoryBlock b = memfd_.allocate(kInputBytes * sizeof(float), 64);
  fake_->reset_log();
  sut.bind_inputs(std::span<const MemoryBlock>(&b, 1));
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_create_mem_from_fd fd=" + std::to_string(b.dmabuf_fd) + " size=192"), 1);
  EXPECT_EQ(sut.zero_copy_inputs(), 1u);
  EXPECT_EQ(sut.run(0, ptrs_), Status::ok);
  memfd_.release(b);
}

TEST_F(RknnBackendTest, GraphInputTypeMismatchIsALoadError) {
  options_.input.dims = {1, 4, 4, 3};
  options_.input.type = ElementKind::i16;
  RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("u8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("i16"), std::string::npos) << e.what();
  }
}

TEST_F(RknnBackendTest, MissingRuntimeIsAClearLoadError) {
  options_.runtime_path = "/nonexistent/librknnrt.so";
  RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("/nonexistent/librknnrt.so not found (dlopen:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("set VG_RKNNRT_PATH"), std::string::npos) << msg;
  }
}

TEST_F(RknnBackendTest, RuntimePathFallsBackToEnvironment) {
  options_.runtime_path.clear();
  ::setenv("VG_RKNNRT_PATH", VG_FAKE_RKNNRT_PATH, 1);
  RknnBackend sut;
  EXPECT_NO_THROW((void)sut.load(model_, options_));
  ::unsetenv("VG_RKNNRT_PATH");
  EXPECT_EQ(npu::RknnRuntime::resolve_path(""), "librknnrt.so");
}

TEST_F(RknnBackendTest, InitFailureNamesModelAndCode) {
  fake_->set("fail_init", 1);
  RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("rknn_init(" + model_ + ")"), std::string::npos) << msg;
    EXPECT_NE(msg.find("RKNN_ERR_MODEL_INVALID"), std::string::npos) << msg;
  }
}

class RknnOldRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_OLD_PATH);
    model_ = vg::test::write_fake_model("old.rknn", kModelBody);
    options_.runtime_path = VG_FAKE_RKNNRT_OLD_PATH;
  }
  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  BackendOptions options_;
  npu::MemfdAllocator memfd_;
};

TEST_F(RknnOldRuntimeTest, BindingFallsBackToOldSymbolSpelling) {
  const auto rt = npu::RknnRuntime::open(VG_FAKE_RKNNRT_OLD_PATH);
  EXPECT_EQ(rt->destroy_mem_symbol(), "rknn_destory_mem");
  EXPECT_FALSE(rt->has_mem_sync());
  EXPECT_FALSE(rt->has_create_mem2());
  EXPECT_NE(rt->api().destroy_mem, nullptr);
}

TEST_F(RknnOldRuntimeTest, RuntimeBefore130IsRefusedWithClearMessage) {
  {
    RknnBackend sut;
    try {
      (void)sut.load(model_, options_);
      FAIL() << "expected vg::Error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("1.2.0"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("372-byte rknn_tensor_attr"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(fake_->live_contexts(), 0);  // the refused context was destroyed
}

TEST_F(RknnOldRuntimeTest, RunsWithoutMemSyncAndFreesWithOldSpelling) {
  fake_->set_api_version("1.5.2 (fake)");
  MemoryBlock b = memfd_.allocate(kInputBytes, 64);
  std::memset(b.data, 7, kInputBytes);
  {
    RknnBackend sut;
    (void)sut.load(model_, options_);
    sut.bind_inputs(std::span<const MemoryBlock>(&b, 1));
    std::vector<std::int8_t> o0(kOut0), o1(kOut1);
    std::vector<void*> ptrs = {o0.data(), o1.data()};
    fake_->reset_log();
    ASSERT_EQ(sut.run(0, ptrs), Status::ok);
    EXPECT_EQ(o1[0], 9);
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_mem_sync"), 0);
    fake_->reset_log();
  }
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_destory_mem"), 4);  // input, staging, 2 outputs
  EXPECT_EQ(fake_->live_mems(), 0);
  memfd_.release(b);
}

}  // namespace
