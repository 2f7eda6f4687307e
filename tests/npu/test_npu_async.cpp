// Asynchronous NPU runs: the stand-in runtime's non-blocking contract (rknn_run non_block=1, rknn_wait,
// fence fds), the rknn backend's async mode (run -> pending, finish), and vg.inference with async: true in
// a graph (replicas on one NPU target, a single node, failures, release with runs in flight).
//
// Built twice from this file: test_npu_async (everything but the allocation count) and
// test_npu_async_zero_alloc (VG_NPU_ASYNC_ZERO_ALLOC: only the allocation count, with the counting
// allocator linked in).
#include <gtest/gtest.h>

#include <filesystem>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "memfd_buffer.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rknn_runtime.hpp"
#include "visiongraph/visiongraph.hpp"
#if defined(VG_NPU_ASYNC_ZERO_ALLOC)
#include "alloc_counter.hpp"
#endif

namespace {

using namespace std::chrono_literals;
using namespace vg;
using vg::test::FakeRknnrt;

// 48 input bytes; out0 (4-D, native NC1HWC2 in the runtime) = in + 1, out1 (3-D) = in + 2.
constexpr const char* kModelBody = "input 1 4 4 3\noutput 1 10 2 2\noutput 1 5 6\n";
constexpr int kInputBytes = 48;
constexpr std::size_t kOut0 = 40;
constexpr std::size_t kOut1 = 30;

#if !defined(VG_NPU_ASYNC_ZERO_ALLOC)

/// True when @p fd is readable within @p timeout_ms (0: now).
bool readable(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN) != 0;
}

bool fd_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

std::int64_t ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
}

// ---- The stand-in's non-blocking contract, through the raw C API ------------------------------------

class FakeAsyncContractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("async_contract.rknn", kModelBody);
    fake_->reset_log();
    rt_ = npu::RknnRuntime::open(VG_FAKE_RKNNRT_PATH);
    ASSERT_NE(rt_->api().wait, nullptr) << "the binding resolves rknn_wait";
  }
  void TearDown() override {
    for (auto* m : mems_) (void)rt_->api().destroy_mem(ctx_, m);
    if (ctx_ != 0) (void)rt_->api().destroy(ctx_);
    EXPECT_EQ(fake_->live_contexts(), 0);
    EXPECT_EQ(fake_->live_mems(), 0);
  }
  /// A context with an input memory (filled with @p seed) and both outputs bound.
  void init(std::uint32_t flag) {
    const auto& api = rt_->api();
    std::vector<char> bytes(std::strlen("fake-rknn\n") + std::strlen(kModelBody));
    std::memcpy(bytes.data(), "fake-rknn\n", 10);
    std::memcpy(bytes.data() + 10, kModelBody, std::strlen(kModelBody));
    ASSERT_EQ(api.init(&ctx_, bytes.data(), static_cast<std::uint32_t>(bytes.size()), flag, nullptr), rknn::kSucc);
    rknn::TensorAttr in{};
    in.index = 0;
    ASSERT_EQ(api.query(ctx_, rknn::kQueryNativeInputAttr, &in, sizeof(in)), rknn::kSucc);
    in.type = rknn::kTensorUint8;
    input_ = api.create_mem(ctx_, in.size_with_stride);
    mems_.push_back(input_);
    ASSERT_EQ(api.set_io_mem(ctx_, input_, &in), rknn::kSucc);
    for (std::uint32_t i = 0; i < 2; ++i) {
      rknn::TensorAttr out{};
      out.index = i;
      ASSERT_EQ(api.query(ctx_, rknn::kQueryOutputAttr, &out, sizeof(out)), rknn::kSucc);
      rknn::TensorMem* m = api.create_mem(ctx_, out.size);
      mems_.push_back(m);
      ASSERT_EQ(api.set_io_mem(ctx_, m, &out), rknn::kSucc);
    }
  }
  void fill_input(std::uint8_t seed) {
    auto* p = static_cast<std::uint8_t*>(input_->virt_addr);
    for (int j = 0; j < kInputBytes; ++j) p[j] = static_cast<std::uint8_t>(seed + j);
  }
  const std::int8_t* out1() const { return static_cast<const std::int8_t*>(mems_[2]->virt_addr); }
  int submit(rknn::RunExtend& ext, int timeout_ms = 1000) {
    ext = rknn::RunExtend{};
    ext.non_block = 1;
    ext.timeout_ms = timeout_ms;
    ext.fence_fd = -1;
    return rt_->api().run(ctx_, &ext);
  }
  /// rknn_wait for the run whose fence rknn_run handed out as @p fence.
  int wait(int fence, int timeout_ms, rknn::RunExtend* out = nullptr) {
    rknn::RunExtend ext{};
    ext.timeout_ms = timeout_ms;
    ext.fence_fd = fence;
    const int rc = rt_->api().wait(ctx_, &ext);
    if (out != nullptr) *out = ext;
    return rc;
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  std::unique_ptr<npu::RknnRuntime> rt_;
  rknn::Context ctx_{};
  rknn::TensorMem* input_ = nullptr;
  std::vector<rknn::TensorMem*> mems_;
};

TEST_F(FakeAsyncContractTest, NonBlockingRunsReturnAtOnceAndWaitRetiresThemOldestFirst) {
  init(rknn::flag::kFenceOutOutside);
  fake_->set_run_latency(40ms);
  fill_input(10);
  const auto t0 = std::chrono::steady_clock::now();
  rknn::RunExtend e[3];
  for (auto& ext : e) ASSERT_EQ(submit(ext), rknn::kSucc);
  EXPECT_EQ(fake_->runs().at(0).done_us, -1) << "the submissions returned before the first 40 ms run ended";
  EXPECT_EQ(e[0].frame_id, 1u);
  EXPECT_EQ(e[1].frame_id, 2u);
  EXPECT_EQ(e[2].frame_id, 3u);
  std::set<int> fences;
  for (auto& ext : e) {
    EXPECT_GE(ext.fence_fd, 0);
    fences.insert(ext.fence_fd);
  }
  EXPECT_EQ(fences.size(), 3u) << "one fence per run";
  EXPECT_EQ(fake_->context_value(ctx_, "in_flight"), 3);
  EXPECT_EQ(wait(e[1].fence_fd, 1000), rknn::kErrFail) << "the second run's fence does not name the oldest run";
  for (std::uint64_t f = 1; f <= 3; ++f) {
    rknn::RunExtend got{};
    ASSERT_EQ(wait(e[f - 1].fence_fd, 1000, &got), rknn::kSucc);
    EXPECT_EQ(got.frame_id, f) << "oldest first";
  }
  EXPECT_GE(ms_since(t0), 115) << "one context runs its runs one after another (3 x 40 ms)";
  EXPECT_EQ(wait(e[2].fence_fd, 10), rknn::kErrFail) << "nothing left to wait for";
  for (auto& ext : e) {
    EXPECT_TRUE(readable(ext.fence_fd, 0));
    ::close(ext.fence_fd);
  }
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(runs[i].non_block);
    EXPECT_EQ(runs[i].frame_id, i + 1);
    EXPECT_EQ(runs[i].status, 0);
    EXPECT_GE(runs[i].core, 0);
    if (i > 0) {
      EXPECT_GE(runs[i].done_us - runs[i - 1].done_us, 39000) << "serial per context";
    }
  }
  const auto waits = fake_->waits();
  ASSERT_EQ(waits.size(), 5u);
  EXPECT_EQ(waits[0].rc, rknn::kErrFail);
  EXPECT_TRUE(waits[1].blocked) << "called while the run was going on";
  EXPECT_EQ(waits[1].frame_id, 1u);
  EXPECT_EQ(waits[3].frame_id, 3u);
  EXPECT_EQ(waits[4].rc, rknn::kErrFail);
  EXPECT_EQ(fake_->counter("nonblock_runs"), 3);
  EXPECT_EQ(fake_->counter("run"), 3);
  EXPECT_EQ(fake_->counter("fences"), 3);
  EXPECT_EQ(fake_->counter("fences_signalled"), 3);
  EXPECT_EQ(fake_->counter("waits"), 5);
  EXPECT_EQ(fake_->counter("max_in_flight"), 3);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_run non_block=1 timeout_ms=1000 frame="), 3);
}

TEST_F(FakeAsyncContractTest, FenceBecomesReadableExactlyWhenTheRunHasFinished) {
  init(rknn::flag::kFenceOutOutside);
  fake_->set_run_latency(50ms);
  fill_input(40);
  std::memset(mems_[2]->virt_addr, 0, kOut1);
  rknn::RunExtend ext{};
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(submit(ext), rknn::kSucc);
  ASSERT_GE(ext.fence_fd, 0);
  EXPECT_FALSE(readable(ext.fence_fd, 0)) << "not before the run ends";
  // The outputs are not read here: the device may be writing them (a race by design, which TSan reports).
  // That they are written when the run ends shows below: the run is finished before the fence signals
  // and the outputs hold the result once it has.
  ASSERT_EQ(fake_->runs().size(), 1u);
  EXPECT_LT(fake_->runs()[0].done_us, 0) << "still in flight";
  ASSERT_TRUE(readable(ext.fence_fd, 2000));
  const long long seen_us = fake_->now_us();
  EXPECT_GE(ms_since(t0), 48) << "readable only after the 50 ms run";
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_GE(runs[0].done_us, 0) << "the run had finished when its fence became readable";
  EXPECT_LE(runs[0].done_us, seen_us);
  EXPECT_EQ(out1()[0], static_cast<std::int8_t>(40 + 2)) << "outputs written before the fence signals";
  // Readable fence: the wait returns at once with the run's status.
  EXPECT_EQ(wait(ext.fence_fd, 1), rknn::kSucc);
  ASSERT_EQ(fake_->waits().size(), 1u);
  EXPECT_FALSE(fake_->waits()[0].blocked) << "the run had finished when its fence became readable";
  EXPECT_TRUE(readable(ext.fence_fd, 0)) << "a signalled fence stays readable until closed";
  ::close(ext.fence_fd);
}

TEST_F(FakeAsyncContractTest, WaitHonoursTimeoutOnARunThatNeverFinishes) {
  init(rknn::flag::kFenceOutOutside);
  fill_input(1);
  fake_->set("hang_runs", 1);
  rknn::RunExtend ext{};
  ASSERT_EQ(submit(ext), rknn::kSucc);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(wait(ext.fence_fd, 30), rknn::kErrTimeout);
  EXPECT_GE(ms_since(t0), 29);
  EXPECT_LT(ms_since(t0), 2000);
  EXPECT_FALSE(readable(ext.fence_fd, 20)) << "a hung run's fence never signals";
  EXPECT_EQ(fake_->context_value(ctx_, "in_flight"), 1) << "a timed-out wait leaves the run in flight";
  EXPECT_EQ(fake_->counter("wait_timeouts"), 1);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_wait frame=1 timeout_ms=30 rc=-2"), 1);
  for (auto* m : mems_) EXPECT_EQ(rt_->api().destroy_mem(ctx_, m), rknn::kSucc);
  mems_.clear();
  ASSERT_EQ(rt_->api().destroy(ctx_), rknn::kSucc);  // drops the hung run
  ctx_ = 0;
  EXPECT_EQ(fake_->counter("runs_dropped"), 1);
  EXPECT_EQ(fake_->counter("in_flight"), 0);
  EXPECT_FALSE(readable(ext.fence_fd, 0)) << "a dropped run's fence is closed by the runtime unsignalled";
  ::close(ext.fence_fd);
}

TEST_F(FakeAsyncContractTest, TimedOutAndFailedRunsReportThroughWaitAndSignalTheirFence) {
  init(rknn::flag::kFenceOutOutside);
  fill_input(1);
  fake_->set("timeout_runs", 1);
  rknn::RunExtend a{};
  ASSERT_EQ(submit(a, 10), rknn::kSucc) << "the submission itself succeeds";
  EXPECT_TRUE(readable(a.fence_fd, 1000));
  EXPECT_EQ(wait(a.fence_fd, 1000), rknn::kErrTimeout);
  fake_->set("fail_waits", 1);
  rknn::RunExtend b{};
  ASSERT_EQ(submit(b), rknn::kSucc);
  EXPECT_TRUE(readable(b.fence_fd, 1000));
  EXPECT_EQ(wait(b.fence_fd, 1000), rknn::kErrFail);
  rknn::RunExtend c{};
  ASSERT_EQ(submit(c), rknn::kSucc);
  EXPECT_EQ(wait(c.fence_fd, 1000), rknn::kSucc);
  for (int fd : {a.fence_fd, b.fence_fd, c.fence_fd}) ::close(fd);
  EXPECT_EQ(fake_->counter("run"), 1) << "only the last run succeeded";
}

TEST_F(FakeAsyncContractTest, WithoutFenceOutFlagWaitFailsAsReportedFor232) {
  init(0);
  fill_input(7);
  std::memset(mems_[2]->virt_addr, 0, kOut1);
  rknn::RunExtend ext{};
  ASSERT_EQ(submit(ext), rknn::kSucc);
  EXPECT_EQ(ext.fence_fd, -1) << "no fence without RKNN_FLAG_FENCE_OUT_OUTSIDE";
  EXPECT_EQ(wait(ext.fence_fd, 100), rknn::kErrFail);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_wait rc=-1 fence fd = -1 is invalid"), 1);
  EXPECT_EQ(fake_->counter("wait_invalid_fence"), 1);
  // The run itself still finishes and retires itself.
  for (int i = 0; i < 200 && fake_->context_value(ctx_, "in_flight") != 0; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(fake_->context_value(ctx_, "in_flight"), 0);
  EXPECT_EQ(out1()[0], static_cast<std::int8_t>(7 + 2));
}

TEST_F(FakeAsyncContractTest, WaitNeedsTheFenceItsRunHandedOut) {
  init(rknn::flag::kFenceOutOutside);
  fill_input(3);
  rknn::RunExtend ext{};
  ASSERT_EQ(submit(ext), rknn::kSucc);
  ASSERT_GE(ext.fence_fd, 0);
  EXPECT_EQ(wait(-1, 1000), rknn::kErrFail) << "rknn_wait waits on the fence it is given: -1 is none";
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_wait rc=-1 fence fd = -1 is invalid"), 1);
  EXPECT_EQ(fake_->context_value(ctx_, "in_flight"), 1) << "a refused wait retires nothing";
  EXPECT_EQ(wait(ext.fence_fd, 1000), rknn::kSucc);
  EXPECT_EQ(fake_->counter("wait_invalid_fence"), 1);
  ::close(ext.fence_fd);
}

TEST_F(FakeAsyncContractTest, FenceOutContextsFailToRunOnLibrknnrt232) {
  fake_->set_api_version("2.3.2 (fake runtime)");
  init(rknn::flag::kFenceOutOutside);
  fill_input(5);
  rknn::RunExtend ext{};
  EXPECT_EQ(submit(ext), rknn::kErrFail) << "rknn-toolkit2#577";
  EXPECT_EQ(ext.fence_fd, -1);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_run rc=-1 RKNN_FLAG_FENCE_OUT_OUTSIDE context on 2.3.2"), 1);
  EXPECT_EQ(rt_->api().run(ctx_, nullptr), rknn::kErrFail) << "blocking runs on that context too";
}

// ---- The rknn backend in async mode -----------------------------------------------------------------

class RknnAsyncBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("async.rknn", kModelBody);
    options_.runtime_path = VG_FAKE_RKNNRT_PATH;
    options_.timeout_ms = 200;
    options_.async = true;
    for (int k = 0; k < 3; ++k) {
      blocks_.push_back(memfd_.allocate(kInputBytes, 64));
      fill(k, static_cast<std::uint8_t>(k * 50));
    }
    out0_.assign(kOut0 * 4, 0);  // room for f32 (dequantize)
    out1_.assign(kOut1 * 4, 0);
    ptrs_ = {out0_.data(), out1_.data()};
  }
  void TearDown() override {
    for (auto& b : blocks_) memfd_.release(b);
    EXPECT_EQ(fake_->live_contexts(), 0);
    EXPECT_EQ(fake_->live_mems(), 0);
  }
  void fill(int k, std::uint8_t seed) {
    auto* p = static_cast<std::uint8_t*>(blocks_[static_cast<std::size_t>(k)].data);
    for (int j = 0; j < kInputBytes; ++j) p[j] = static_cast<std::uint8_t>(seed + j * 3);
  }
  bool outputs_match(int buffer) const {
    const auto* in = static_cast<const std::uint8_t*>(blocks_[static_cast<std::size_t>(buffer)].data);
    for (std::size_t k = 0; k < kOut0; ++k) {
      if (out0_[k] != static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 1))) return false;
    }
    for (std::size_t k = 0; k < kOut1; ++k) {
      if (out1_[k] != static_cast<std::int8_t>(static_cast<std::uint8_t>(in[k % kInputBytes] + 2))) return false;
    }
    return true;
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  inference::BackendOptions options_;
  npu::MemfdAllocator memfd_;
  std::vector<MemoryBlock> blocks_;
  std::vector<std::int8_t> out0_, out1_;
  std::vector<void*> ptrs_;
};

TEST_F(RknnAsyncBackendTest, RunReturnsPendingWithAFenceAndFinishDeliversTheOutputs) {
  inference::RknnBackend sut;
  fake_->reset_log();
  (void)sut.load(model_, options_);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_init size="), 1);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_init size=" + std::to_string(std::strlen(kModelBody) + 10) +
                                                " flag=128 rc=0"),
            1)
      << "async contexts are initialised with RKNN_FLAG_FENCE_OUT_OUTSIDE";
  sut.bind_inputs(blocks_);  // the warm-up goes through submit + finish too
  EXPECT_EQ(sut.pending_fence(), -1);
  fake_->set_run_latency(50ms);
  fake_->reset_log();
  for (int f = 0; f < 6; ++f) {
    std::fill(out0_.begin(), out0_.end(), 0);
    std::fill(out1_.begin(), out1_.end(), 0);
    ASSERT_EQ(sut.run(static_cast<std::size_t>(f % 3), ptrs_), Status::pending);
    const int fence = sut.pending_fence();
    ASSERT_GE(fence, 0);
    EXPECT_FALSE(readable(fence, 0));
    EXPECT_EQ(out1_[0], 0) << "nothing is written before finish";
    EXPECT_EQ(sut.run(0, ptrs_), Status::invalid_argument) << "one run in flight per backend";
    ASSERT_TRUE(readable(fence, 1000));
    ASSERT_EQ(sut.finish(ptrs_), Status::ok);
    EXPECT_FALSE(fd_open(fence)) << "finish closes the fence";
    EXPECT_EQ(sut.pending_fence(), -1);
    EXPECT_TRUE(outputs_match(f % 3)) << "frame " << f;
  }
  EXPECT_EQ(sut.finish(ptrs_), Status::invalid_argument) << "nothing in flight";
  EXPECT_EQ(sut.last_run_time_us(), 777);
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_run non_block=1 timeout_ms=200 frame="), 6);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_run timeout_ms"), 0) << "no blocking run";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_wait frame="), 6);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_mem_sync mode=2"), 12) << "outputs synced from the device as when blocking";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_create_mem"), 0);
}

TEST_F(RknnAsyncBackendTest, FinishWaitsOnTheRunsOwnFenceAndLeavesNoFdOpen) {
  inference::RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  const auto open_fds = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator{});
  };
  const auto before = open_fds();
  fake_->reset_log();
  for (int f = 0; f < 20; ++f) {
    ASSERT_EQ(sut.run(static_cast<std::size_t>(f % 3), ptrs_), Status::pending);
    ASSERT_EQ(sut.finish(ptrs_), Status::ok) << sut.last_failure();
  }
  EXPECT_EQ(fake_->counter("wait_invalid_fence"), 0) << "every rknn_wait was given its run's fence";
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_wait frame="), 20);
  EXPECT_EQ(open_fds(), before) << "the 20 fences rknn_run handed out were closed";
}

TEST_F(RknnAsyncBackendTest, RefusedAtLoadOnLibrknnrt232WhereTheFenceFlagBreaksRuns) {
  fake_->set_api_version("2.3.2 (fake runtime)");
  inference::RknnBackend sut;
  try {
    (void)sut.load(model_, options_);
    FAIL() << "async on 2.3.2 must be refused";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("async runs"), std::string::npos) << what;
    EXPECT_NE(what.find("rknn-toolkit2#577"), std::string::npos) << what;
    EXPECT_NE(what.find("found librknnrt 2.3.2"), std::string::npos) << what;
    EXPECT_NE(what.find("needed: async false"), std::string::npos) << what;
  }
  options_.async = false;
  inference::RknnBackend blocking;
  (void)blocking.load(model_, options_);
  blocking.bind_inputs(blocks_);
  EXPECT_EQ(blocking.run(1, ptrs_), Status::ok) << "blocking runs work on 2.3.2";
  EXPECT_TRUE(outputs_match(1));
}

TEST_F(RknnAsyncBackendTest, OutputsAreBitIdenticalToTheBlockingPath) {
  for (const bool dequantize : {false, true}) {
    SCOPED_TRACE(dequantize ? "dequantize" : "int8");
    options_.dequantize = dequantize;
    inference::BackendOptions blocking_options = options_;
    blocking_options.async = false;
    inference::RknnBackend async_be, blocking_be;
    (void)async_be.load(model_, options_);
    (void)blocking_be.load(model_, blocking_options);
    async_be.bind_inputs(blocks_);
    blocking_be.bind_inputs(blocks_);
    std::vector<std::int8_t> b0(out0_.size()), b1(out1_.size());
    std::vector<void*> bptrs = {b0.data(), b1.data()};
    for (int f = 0; f < 9; ++f) {
      fill(f % 3, static_cast<std::uint8_t>(f * 29 + 3));
      ASSERT_EQ(blocking_be.run(static_cast<std::size_t>(f % 3), bptrs), Status::ok);
      ASSERT_EQ(async_be.run(static_cast<std::size_t>(f % 3), ptrs_), Status::pending);
      ASSERT_EQ(async_be.finish(ptrs_), Status::ok);
      EXPECT_EQ(std::memcmp(b0.data(), out0_.data(), b0.size()), 0) << "frame " << f;
      EXPECT_EQ(std::memcmp(b1.data(), out1_.data(), b1.size()), 0) << "frame " << f;
    }
    // Imported memory (not pre-bound) goes the same way.
    vg::test::MemfdBuffer imported(kInputBytes, 128);
    for (int j = 0; j < kInputBytes; ++j) imported.tensor()[j] = static_cast<std::uint8_t>(200 + j);
    bool c1 = false, c2 = false;
    ASSERT_EQ(blocking_be.run_imported(imported.block(), bptrs, c1), Status::ok);
    ASSERT_EQ(async_be.run_imported(imported.block(), ptrs_, c2), Status::pending);
    ASSERT_EQ(async_be.finish(ptrs_), Status::ok);
    EXPECT_EQ(c1, c2);
    EXPECT_EQ(std::memcmp(b0.data(), out0_.data(), b0.size()), 0);
    EXPECT_EQ(std::memcmp(b1.data(), out1_.data(), b1.size()), 0);
  }
}

TEST_F(RknnAsyncBackendTest, WaitTimeoutRebuildsTheContextAndTheNextFrameWorks) {
  options_.timeout_ms = 30;
  inference::RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  fake_->set("hang_runs", 1);
  ASSERT_EQ(sut.run(1, ptrs_), Status::pending);
  const int fence = sut.pending_fence();
  EXPECT_FALSE(readable(fence, 40)) << "the hung run's fence never signals";
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(sut.finish(ptrs_), Status::timeout);
  EXPECT_GE(ms_since(t0), 25) << "finish waited timeout_ms";
  EXPECT_EQ(sut.last_runtime_code(), rknn::kErrTimeout);
  EXPECT_FALSE(fd_open(fence));
  fake_->reset_log();
  ASSERT_EQ(sut.run(1, ptrs_), Status::pending);
  ASSERT_EQ(sut.finish(ptrs_), Status::ok);
  EXPECT_TRUE(outputs_match(1));
  EXPECT_EQ(sut.recoveries(), 1u);
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_destroy ctx="), 1) << "the context holding the hung run is rebuilt";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_init size=" + std::to_string(std::strlen(kModelBody) + 10) + " flag=128"), 1)
      << "again with the fence flag";
  EXPECT_EQ(fake_->counter("runs_dropped"), 1);
}

TEST_F(RknnAsyncBackendTest, ARunThatFailsInTheRuntimeFailsItsFrameOnly) {
  inference::RknnBackend sut;
  (void)sut.load(model_, options_);
  sut.bind_inputs(blocks_);
  fake_->set("fail_waits", 1);
  ASSERT_EQ(sut.run(0, ptrs_), Status::pending);
  EXPECT_EQ(sut.finish(ptrs_), Status::inference_error);
  EXPECT_EQ(sut.last_runtime_code(), rknn::kErrFail);
  fake_->set("fail_runs", 1);  // the submission itself fails: no pending run
  EXPECT_EQ(sut.run(0, ptrs_), Status::inference_error);
  EXPECT_EQ(sut.pending_fence(), -1);
  ASSERT_EQ(sut.run(2, ptrs_), Status::pending);
  ASSERT_EQ(sut.finish(ptrs_), Status::ok);
  EXPECT_TRUE(outputs_match(2));
  EXPECT_EQ(sut.recoveries(), 0u) << "a failed run does not need a new context";
}

TEST_F(RknnAsyncBackendTest, DestructionWithARunInFlightWaitsForItBeforeFreeingMemory) {
  fake_->set_run_latency(30ms);
  int fence = -1;
  {
    inference::RknnBackend sut;
    (void)sut.load(model_, options_);
    sut.bind_inputs(blocks_);
    ASSERT_EQ(sut.run(0, ptrs_), Status::pending);
    fence = sut.pending_fence();
    fake_->reset_log();
  }
  const auto log = fake_->log();
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log[0].rfind("run done", 0), 0u) << log[0];
  EXPECT_EQ(log[1].rfind("rknn_wait frame=", 0), 0u) << log[1];
  EXPECT_EQ(log.back().rfind("rknn_destroy ", 0), 0u);
  EXPECT_EQ(fake_->counter("runs_dropped"), 0) << "the run finished before its context went";
  EXPECT_FALSE(fd_open(fence));
}

#endif  // !VG_NPU_ASYNC_ZERO_ALLOC

// ---- vg.inference with async: true in a graph -------------------------------------------------------

ContextConfig one_npu_target() {
  ContextConfig config = ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"npu0", "npu", -1, 256}};
  return config;
}

std::uint8_t input_byte(std::uint64_t f, int j) { return static_cast<std::uint8_t>(f * 7 + static_cast<unsigned>(j) * 3); }

class NpuAsyncGraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("async_graph.rknn", kModelBody);
    ctx_ = std::make_unique<Context>(one_npu_target());
    npu_memory_ = inference::install_npu_allocator(*ctx_);
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "async");
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, TensorLayout::nhwc));
    node_ = graph_->add_node("detector", "vg.inference");
    graph_->set_attribute(node_, "model", model_);
    graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
    graph_->set_attribute(node_, "npu_cores", std::int64_t{3});  // as an RK3588 (no device tree here)
    graph_->set_attribute(node_, "async", true);
    graph_->bind(node_, "input", in_);
    out0_ = graph_->add_virtual("o0", DataKind::tensor);
    out1_ = graph_->add_virtual("o1", DataKind::tensor);
    graph_->bind(node_, "out0", out0_).bind(node_, "out1", out1_);
    graph_->set_target(node_, "npu0");
  }
  void TearDown() override {
    graph_.reset();
    npu_memory_.reset();
    ctx_.reset();
    EXPECT_EQ(fake_->live_contexts(), 0);
    EXPECT_EQ(fake_->live_mems(), 0);
  }
  void add_params() {
    gin_ = graph_->add_graph_parameter(node_, "input");
    gout_ = graph_->add_graph_parameter(node_, "out1");
  }
  /// The contexts created on target threads (not validate's on this thread), in creation order.
  std::vector<FakeRknnrt::InitRead> verify() {
    graph_->verify();
    const long self = static_cast<long>(::syscall(SYS_gettid));
    std::vector<FakeRknnrt::InitRead> out;
    for (const auto& i : fake_->inits()) {
      if (i.tid != self) out.push_back(i);
    }
    return out;
  }
  void fill(std::uint32_t buffer, std::uint64_t frame) {
    auto* p = graph_->tensor(in_, buffer).data_as<std::uint8_t>();
    for (int j = 0; j < kInputBytes; ++j) p[j] = input_byte(frame, j);
  }

  struct Result {
    std::uint64_t sequence = 0;
    std::uint64_t tag = 0;
    Status status = Status::ok;
    bool data_ok = false;
  };

  /// Streams @p frames frames (frame f tagged f); @p after runs after each result. Results in dequeue order.
  template <class After>
  std::vector<Result> stream(std::uint64_t frames, After&& after) {
    std::vector<Result> results;
    const auto nin = static_cast<std::uint32_t>(graph_->num_buffers(in_));
    const auto nout = static_cast<std::uint32_t>(graph_->num_buffers(graph_->data_of(gout_)));
    for (std::uint32_t k = 0; k < nout; ++k) EXPECT_EQ(graph_->enqueue(gout_, k), Status::ok);
    std::vector<std::uint32_t> free_in;
    for (std::uint32_t k = 0; k < nin; ++k) free_in.push_back(k);
    std::uint64_t sent = 0;
    while (results.size() < frames) {
      while (sent < frames && !free_in.empty()) {
        const std::uint32_t k = free_in.back();
        free_in.pop_back();
        fill(k, sent);
        FrameStamp stamp;
        stamp.tag = sent++;
        EXPECT_EQ(graph_->enqueue(gin_, k, stamp), Status::ok);
      }
      DequeuedBuffer done;
      if (graph_->dequeue(gout_, done, 10s) != Status::ok) {
        ADD_FAILURE() << "dequeue timed out after " << results.size() << " results";
        break;
      }
      Result r{done.sequence, done.tag, done.status, true};
      if (done.status == Status::ok) {
        const auto* o = graph_->tensor(out1_, done.index).data_as<std::int8_t>();
        for (std::size_t k = 0; k < kOut1; ++k) {
          r.data_ok = r.data_ok && o[k] == static_cast<std::int8_t>(input_byte(done.tag, static_cast<int>(k) % kInputBytes) + 2);
        }
      }
      results.push_back(r);
      EXPECT_EQ(graph_->enqueue(gout_, done.index), Status::ok);
      DequeuedBuffer used;
      EXPECT_EQ(graph_->dequeue(gin_, used, 10s), Status::ok);
      free_in.push_back(used.index);
      after(results.back());
    }
    return results;
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<inference::NpuAllocatorInstallation> npu_memory_;
  std::unique_ptr<Graph> graph_;
  DataId in_, out0_, out1_;
  NodeId node_;
  GraphParamId gin_, gout_;
};

#if !defined(VG_NPU_ASYNC_ZERO_ALLOC)

TEST_F(NpuAsyncGraphTest, SingleNodeAsyncDeliversEachFrame) {
  const auto inits = verify();
  ASSERT_EQ(inits.size(), 0u) << "a single node keeps the context validate created";
  fake_->set_run_latency(5ms);
  fake_->reset_counters();
  for (std::uint64_t f = 0; f < 6; ++f) {
    fill(0, f);
    ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
    const auto* o1 = graph_->tensor(out1_).data_as<std::int8_t>();
    for (std::size_t k = 0; k < kOut1; ++k) {
      ASSERT_EQ(o1[k], static_cast<std::int8_t>(input_byte(f, static_cast<int>(k) % kInputBytes) + 2)) << "frame " << f;
    }
    const auto* o0 = graph_->tensor(out0_).data_as<std::int8_t>();
    for (std::size_t k = 0; k < kOut0; ++k) {
      ASSERT_EQ(o0[k], static_cast<std::int8_t>(input_byte(f, static_cast<int>(k) % kInputBytes) + 1)) << "frame " << f;
    }
  }
  EXPECT_EQ(fake_->counter("nonblock_runs"), 6);
  EXPECT_EQ(fake_->counter("waits"), 6);
  EXPECT_EQ(fake_->counter("fences"), 6);
  for (const auto& r : fake_->runs()) EXPECT_TRUE(r.non_block);
  // complete runs once the fence is readable (complete_after): its rknn_wait never has to block.
  for (const auto& w : fake_->waits()) EXPECT_FALSE(w.blocked) << "frame " << w.frame_id;
}

TEST_F(NpuAsyncGraphTest, ThreeReplicasOnOneNpuTargetKeepThreeRunsInFlight) {
  graph_->set_targets(node_, {"npu0", "npu0", "npu0"});
  add_params();
  const auto replicas = verify();
  EXPECT_EQ(graph_->num_replicas(node_), 3u);
  ASSERT_EQ(replicas.size(), 3u) << "one context per replica";
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(replicas[r].tid, replicas[0].tid) << "all on the one npu0 thread";
    EXPECT_EQ(fake_->context_value(replicas[r].ctx, "core_mask"), 1L << r) << "replica " << r;
    EXPECT_EQ(fake_->context_value(replicas[r].ctx, "init_flag"), 0x80) << "replica " << r;
  }
  fake_->set_run_latency(20ms);
  fake_->reset_counters();
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(30, [](const Result&) {});
  ASSERT_EQ(results.size(), 30u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_EQ(results[i].tag, i);
    EXPECT_EQ(results[i].status, Status::ok) << graph_->last_error().describe();
    EXPECT_TRUE(results[i].data_ok) << "frame " << i;
  }
  EXPECT_EQ(graph_->stop(), Status::ok);
  EXPECT_EQ(fake_->counter("max_concurrent_runs"), 3) << "three runs on three cores from one target thread";
  EXPECT_EQ(fake_->counter("max_in_flight"), 3);
  std::set<long> submitters;
  for (const auto& run : fake_->runs()) {
    EXPECT_TRUE(run.non_block);
    submitters.insert(run.tid);
  }
  EXPECT_EQ(submitters, std::set<long>{replicas[0].tid}) << "every run submitted by the npu0 thread";
  const auto waits = fake_->waits();
  EXPECT_EQ(waits.size(), 30u);
  for (const auto& w : waits) {
    EXPECT_EQ(w.rc, 0);
    EXPECT_EQ(w.tid, replicas[0].tid) << "complete runs on the same target";
    EXPECT_FALSE(w.blocked) << "complete only after the fence: the npu0 thread never blocks in rknn_wait";
  }
}

TEST_F(NpuAsyncGraphTest, ARunFailureFailsOnlyItsFrame) {
  graph_->set_targets(node_, {"npu0", "npu0", "npu0"});
  add_params();
  (void)verify();
  fake_->set_run_latency(2ms, 2000us, 9);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(36, [&](const Result& r) {
    if (r.sequence == 10) fake_->set("fail_waits", 1);  // the next run submitted finishes with -1
  });
  ASSERT_EQ(results.size(), 36u);
  int failed = 0;
  std::uint64_t failed_frame = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    if (results[i].status != Status::ok) {
      ++failed;
      failed_frame = results[i].sequence;
    } else {
      EXPECT_TRUE(results[i].data_ok) << "frame " << i;
    }
  }
  EXPECT_EQ(failed, 1) << "exactly the frame whose run failed";
  EXPECT_GT(failed_frame, 10u);
  EXPECT_EQ(graph_->last_error().frame, failed_frame);
  EXPECT_NE(graph_->last_error().message.find("runtime code -1"), std::string::npos) << graph_->last_error().describe();
  EXPECT_EQ(graph_->stop(), Status::ok);
}

TEST_F(NpuAsyncGraphTest, ReleaseWithRunsInFlight) {
  graph_->set_targets(node_, {"npu0", "npu0", "npu0"});
  add_params();
  (void)verify();
  fake_->set_run_latency(40ms);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto nout = static_cast<std::uint32_t>(graph_->num_buffers(graph_->data_of(gout_)));
  for (std::uint32_t k = 0; k < nout; ++k) ASSERT_EQ(graph_->enqueue(gout_, k), Status::ok);
  const auto nin = static_cast<std::uint32_t>(graph_->num_buffers(in_));
  for (std::uint32_t k = 0; k < nin && k < 3; ++k) {
    fill(k, k);
    ASSERT_EQ(graph_->enqueue(gin_, k), Status::ok);
  }
  // Wait until runs are in flight, then tear everything down.
  for (int i = 0; i < 200 && fake_->counter("in_flight") < 2; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_GE(fake_->counter("in_flight"), 2);
  const auto t0 = std::chrono::steady_clock::now();
  (void)graph_->stop();
  graph_->release();
  EXPECT_LT(ms_since(t0), 2000);
  EXPECT_EQ(fake_->live_contexts(), 0);
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->counter("in_flight"), 0);
}

TEST_F(NpuAsyncGraphTest, OpenCvBackendRefusesAsyncAtVerify) {
  graph_->set_attribute(node_, "backend", std::string("opencv"));
  try {
    graph_->verify();
    FAIL() << "verify accepted async on the opencv backend";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("async"), std::string::npos) << what;
    EXPECT_NE(what.find("only on the rknn backend"), std::string::npos) << what;
  }
}

#else  // VG_NPU_ASYNC_ZERO_ALLOC

TEST_F(NpuAsyncGraphTest, ZeroAllocationsPerFrameWithAsyncReplicasOnOneTarget) {
  graph_->set_targets(node_, {"npu0", "npu0", "npu0"});
  add_params();
  (void)verify();
  fake_->set_run_latency(1ms, 1000us, 5);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto nin = static_cast<std::uint32_t>(graph_->num_buffers(in_));
  const auto nout = static_cast<std::uint32_t>(graph_->num_buffers(graph_->data_of(gout_)));
  for (std::uint32_t k = 0; k < nout; ++k) ASSERT_EQ(graph_->enqueue(gout_, k), Status::ok);
  int failures = 0;
  std::uint32_t free_in[64];
  std::uint32_t num_free = 0;
  for (std::uint32_t k = 0; k < nin && k < 64; ++k) free_in[num_free++] = k;
  auto run_frames = [&](std::uint64_t first, std::uint64_t count) {
    std::uint64_t sent = first, done_frames = 0;
    while (done_frames < count) {
      while (sent < first + count && num_free > 0) {
        const std::uint32_t k = free_in[--num_free];
        fill(k, sent);
        FrameStamp stamp;
        stamp.tag = sent++;
        failures += graph_->enqueue(gin_, k, stamp) != Status::ok ? 1 : 0;
      }
      DequeuedBuffer out;
      if (graph_->dequeue(gout_, out, 10s) != Status::ok) {
        ++failures;
        return;
      }
      failures += out.status != Status::ok ? 1 : 0;
      failures += graph_->enqueue(gout_, out.index) != Status::ok ? 1 : 0;
      DequeuedBuffer used;
      failures += graph_->dequeue(gin_, used, 10s) != Status::ok ? 1 : 0;
      free_in[num_free++] = used.index;
      ++done_frames;
    }
  };
  run_frames(0, 12);  // warm-up: every replica has run frames
  vg::test::arm_alloc_counter();
  run_frames(12, 120);
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(failures, 0) << graph_->last_error().describe();
  EXPECT_EQ(counts.news, 0u) << "operator new during 120 asynchronous frames";
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u) << "malloc during 120 asynchronous frames";
  }
  EXPECT_GE(fake_->counter("nonblock_runs"), 120);
  EXPECT_EQ(graph_->stop(), Status::ok);
}

#endif

}  // namespace
