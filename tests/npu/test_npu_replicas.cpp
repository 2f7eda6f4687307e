// vg.inference replicated over three NPU targets (Graph::set_targets: npu0, npu1, npu2) on the stand-in
// runtime: one rknn context per replica, initialised on its own target thread and pinned to its own core,
// input buffers pre-bound per replica, frames in order under random run latencies, failures confined
// to their frame, commands to all replicas or one, and release.
//
// Built twice from this file: test_npu_replicas (everything but the allocation count) and
// test_npu_replicas_zero_alloc (VG_NPU_REPLICAS_ZERO_ALLOC: only the allocation count, with the
// counting allocator linked in).
#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/npu/soc.hpp"
#include "visiongraph/visiongraph.hpp"
#if defined(VG_NPU_REPLICAS_ZERO_ALLOC)
#include "alloc_counter.hpp"
#endif

namespace {

using namespace std::chrono_literals;
using namespace vg;
using vg::test::FakeRknnrt;

// 48 input bytes; out0 (4-D, native NC1HWC2 in the runtime) = in + 1, out1 (3-D) = in + 2.
// "weights": 1 MiB of weight memory that rknn_init loads and rknn_dup_context shares.
constexpr const char* kModelBody = "input 1 4 4 3\nweights 1048576\noutput 1 10 2 2\noutput 1 5 6\n";
constexpr long kWeightBytes = 1048576;
constexpr int kInputBytes = 48;
constexpr int kOut1Elems = 30;

ContextConfig npu_targets() {
  ContextConfig config = ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

/// The input bytes of frame @p f.
std::uint8_t input_byte(std::uint64_t f, int j) { return static_cast<std::uint8_t>(f * 7 + static_cast<unsigned>(j) * 3); }

class NpuReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("replicas.rknn", kModelBody);
    ctx_ = std::make_unique<Context>(npu_targets());
    npu_memory_ = inference::install_npu_allocator(*ctx_);
    ctx_->load_module(inference::make_inference_module());
    graph_ = std::make_unique<Graph>(*ctx_, "replicas");
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, TensorLayout::nhwc));
    node_ = graph_->add_node("detector", "vg.inference");
    graph_->set_attribute(node_, "model", model_);
    graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
    graph_->set_attribute(node_, "npu_cores", std::int64_t{3});  // as an RK3588 (this machine has no device tree)
    graph_->bind(node_, "input", in_);
    out0_ = graph_->add_virtual("o0", DataKind::tensor);
    out1_ = graph_->add_virtual("o1", DataKind::tensor);
    graph_->bind(node_, "out0", out0_).bind(node_, "out1", out1_);
    graph_->set_targets(node_, {"npu0", "npu1", "npu2"});
    gin_ = graph_->add_graph_parameter(node_, "input");  // kAutoBuffers: sized from the pipeline depth
    gout_ = graph_->add_graph_parameter(node_, "out1");
  }
  void TearDown() override {
    graph_.reset();
    npu_memory_.reset();
    ctx_.reset();
    EXPECT_EQ(fake_->live_contexts(), 0);
    EXPECT_EQ(fake_->live_mems(), 0);
  }

  /// Verifies and returns the replicas' contexts in replica order (the contexts made on target threads,
  /// by rknn_dup_context from validate's, i.e. not validate's own rknn_init on this thread).
  std::vector<FakeRknnrt::InitRead> verify() {
    graph_->verify();
    const long self = static_cast<long>(::syscall(SYS_gettid));
    std::vector<FakeRknnrt::InitRead> replicas;
    for (const auto& i : fake_->inits()) {
      if (i.tid != self) replicas.push_back(i);
    }
    return replicas;
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

  /// Streams @p frames frames (frame f tagged f, filled with input_byte(f, .)); @p after_result runs after
  /// each result is taken. Returns the results in dequeue order.
  template <class After>
  std::vector<Result> stream(std::uint64_t frames, After&& after_result) {
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
        for (int k = 0; k < kOut1Elems; ++k) {
          r.data_ok = r.data_ok && o[k] == static_cast<std::int8_t>(input_byte(done.tag, k % kInputBytes) + 2);
        }
      }
      results.push_back(r);
      EXPECT_EQ(graph_->enqueue(gout_, done.index), Status::ok);
      DequeuedBuffer used;
      EXPECT_EQ(graph_->dequeue(gin_, used, 10s), Status::ok);
      free_in.push_back(used.index);
      after_result(results.back());
    }
    return results;
  }

  const NodeStats* replica_stats(const GraphStats& s, const std::string& label) {
    for (const auto& n : s.nodes) {
      if (n.name == label) return &n;
    }
    return nullptr;
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

#if !defined(VG_NPU_REPLICAS_ZERO_ALLOC)

TEST_F(NpuReplicaTest, TwoCoresTwoReplicasGetMasks1And2) {
  graph_->set_attribute(node_, "npu_cores", std::int64_t{2});  // RK3576
  graph_->set_targets(node_, {"npu0", "npu1"});
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 2u);
  EXPECT_EQ(fake_->context_value(replicas[0].ctx, "core_mask"), 1);
  EXPECT_EQ(fake_->context_value(replicas[1].ctx, "core_mask"), 2);
}

TEST_F(NpuReplicaTest, MoreReplicasThanCoresIsAVerifyErrorNamingBoth) {
  for (std::int64_t cores : {1, 2}) {
    graph_->set_attribute(node_, "npu_cores", cores);
    try {
      graph_->verify();
      FAIL() << "three replicas verified on " << cores << " cores";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("node 'detector' runs as 3 replicas, but the NPU has " + std::to_string(cores) + " core"),
                std::string::npos) << msg;
      EXPECT_NE(msg.find("list at most " + std::to_string(cores) + " NPU target"), std::string::npos) << msg;
    }
    EXPECT_EQ(fake_->live_contexts(), 0);
  }
}

TEST_F(NpuReplicaTest, UnknownCoreCountLeavesReplicasOnAutoInsteadOfGuessing) {
  graph_->set_attribute(node_, "npu_cores", std::int64_t{0});  // detect: no device tree here
  if (npu::detect_npu_soc().cores != 0) GTEST_SKIP() << "this machine names its SoC";
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  for (const auto& r : replicas) EXPECT_EQ(fake_->context_value(r.ctx, "core_mask"), 0);
}

TEST_F(NpuReplicaTest, SetCoreMaskBeyondTheCoresIsRefusedBeforeTheRuntime) {
  graph_->set_attribute(node_, "npu_cores", std::int64_t{2});
  graph_->set_targets(node_, {"npu0", "npu1"});
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 2u);
  CommandReply reply;
  EXPECT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{4}), 1s, &reply),
            Status::invalid_argument);
  EXPECT_EQ(fake_->context_value(replicas[0].ctx, "core_mask"), 1) << "the runtime never saw mask 4";
  EXPECT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{3}), 1s, &reply),
            Status::ok);
  EXPECT_EQ(fake_->context_value(replicas[0].ctx, "core_mask"), 3);
}

TEST_F(NpuReplicaTest, DmaBufMemoryOnEveryNpuTargetSoRequireZeroCopyHoldsOnEveryReplica) {
  // One allocator for npu0, npu1 and npu2: every replica binds its buffers without a copy.
  EXPECT_EQ(npu_memory_->targets(), (std::vector<std::string>{"npu0", "npu1", "npu2"}));
  for (const char* t : {"npu0", "npu1", "npu2"}) EXPECT_EQ(ctx_->target_allocator(t), &npu_memory_->allocator()) << t;
  EXPECT_EQ(ctx_->target_allocator("cpu0"), nullptr);
  graph_->set_attribute(node_, "require_zero_copy", true);
  ASSERT_EQ(verify().size(), 3u);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(9, [](const Result&) {});
  ASSERT_EQ(results.size(), 9u);
  for (const Result& r : results) EXPECT_TRUE(r.status == Status::ok && r.data_ok) << r.tag;
  EXPECT_EQ(graph_->stop(), Status::ok);
  for (const auto& n : graph_->stats().nodes) EXPECT_EQ(n.conversions, 0u) << n.name << ": a frame was copied";
}

TEST_F(NpuReplicaTest, RequireZeroCopyOnASingleNodeOnNpu2) {
  graph_->set_targets(node_, {"npu2"});
  graph_->set_attribute(node_, "require_zero_copy", true);
  EXPECT_NO_THROW(graph_->verify());
}

TEST_F(NpuReplicaTest, RequireZeroCopyOnNpu2FailsWhenOnlyNpu0HasDmaBufMemory) {
  // What the command did before: the allocator on npu0 only (buffers are allocated at verify, so the
  // fixture's graph gets the new installation). The message names the cause.
  npu_memory_.reset();
  npu_memory_ = inference::install_npu_allocator(*ctx_, "npu0");
  EXPECT_EQ(npu_memory_->targets(), std::vector<std::string>{"npu0"});
  graph_->set_targets(node_, {"npu2"});
  graph_->set_attribute(node_, "require_zero_copy", true);
  try {
    graph_->verify();
    FAIL() << "verify passed with host memory on npu2 and require_zero_copy";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("without a DMA-BUF fd"), std::string::npos) << e.what();
  }
}

TEST(NpuAllocator, AContextWithoutAnNpuTargetIsRefusedNamingItsTargets) {
  ContextConfig config = ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}};
  Context ctx(config);
  try {
    (void)inference::install_npu_allocator(ctx);
    FAIL() << "installed with no NPU target";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no NPU target"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cpu0, cpu1"), std::string::npos) << e.what();
  }
}

TEST(NpuAllocator, UninstalledFromEveryTargetWhenDestroyed) {
  Context ctx(npu_targets());
  {
    auto memory = inference::install_npu_allocator(ctx);
    EXPECT_EQ(ctx.target_allocator("npu1"), &memory->allocator());
  }
  for (const char* t : {"npu0", "npu1", "npu2"}) EXPECT_EQ(ctx.target_allocator(t), nullptr) << t;
}

TEST_F(NpuReplicaTest, ThreeContextsEachInitialisedOnItsOwnTargetThreadWithItsOwnCore) {
  const auto replicas = verify();
  EXPECT_EQ(graph_->num_replicas(node_), 3u);
  ASSERT_EQ(replicas.size(), 3u) << "one context per replica, made on its target thread";
  EXPECT_EQ(fake_->live_contexts(), 4) << "one per replica, and validate's (never run) they were duplicated from";
  std::set<long> threads;
  std::set<unsigned long long> contexts;
  for (std::size_t r = 0; r < replicas.size(); ++r) {
    threads.insert(replicas[r].tid);
    contexts.insert(replicas[r].ctx);
    EXPECT_EQ(fake_->context_value(replicas[r].ctx, "core_mask"), 1L << r) << "replica " << r;
    EXPECT_EQ(fake_->context_value(replicas[r].ctx, "init_tid"), replicas[r].tid);
  }
  EXPECT_EQ(threads.size(), 3u) << "three target threads";
  EXPECT_EQ(contexts.size(), 3u) << "three contexts";
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_core_mask mask=1 rc=0"), 1);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_core_mask mask=2 rc=0"), 1);
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_set_core_mask mask=4 rc=0"), 1);

  // Frames one at a time: frame f runs on replica f % 3, on the thread that initialised its context.
  fake_->reset_counters();
  for (std::uint64_t f = 0; f < 9; ++f) {
    fill(0, f);
    ASSERT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
    const auto* o1 = graph_->tensor(out1_).data_as<std::int8_t>();
    for (int k = 0; k < kOut1Elems; ++k) ASSERT_EQ(o1[k], static_cast<std::int8_t>(input_byte(f, k % kInputBytes) + 2));
    const auto* o0 = graph_->tensor(out0_).data_as<std::int8_t>();
    for (int k = 0; k < 40; ++k) ASSERT_EQ(o0[k], static_cast<std::int8_t>(input_byte(f, k % kInputBytes) + 1));
  }
  const auto runs = fake_->runs();
  ASSERT_EQ(runs.size(), 9u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].ctx, replicas[i % 3].ctx) << "frame " << i;
    EXPECT_EQ(runs[i].tid, replicas[i % 3].tid) << "frame " << i;
  }
}

TEST_F(NpuReplicaTest, EachReplicaPreBindsItsOwnInputBuffers) {
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  const auto buffers = static_cast<long>(graph_->num_buffers(in_));
  EXPECT_GE(buffers, 3);
  for (const auto& r : replicas) {
    EXPECT_EQ(fake_->context_value(r.ctx, "input_fd_binds"), buffers) << "context " << r.ctx;
  }
  // Streaming binds nothing more: each replica selects one of its own bound memories per frame.
  fake_->reset_counters();
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(30, [](const Result&) {});
  ASSERT_EQ(results.size(), 30u);
  for (const auto& r : results) EXPECT_TRUE(r.data_ok) << "frame " << r.sequence;
  EXPECT_EQ(fake_->counter("create_mem_from_fd"), 0);
  EXPECT_EQ(fake_->counter("create_mem"), 0);
  EXPECT_EQ(fake_->counter("set_io_mem_input"), 30) << "one selection per frame";
  for (const auto& r : replicas) EXPECT_EQ(fake_->context_value(r.ctx, "runs"), 1 + 10) << "warm-up + its frames";
  EXPECT_EQ(graph_->stats().nodes.at(0).conversions, 0u) << "no copies";
  EXPECT_EQ(graph_->stop(), Status::ok);
}

TEST_F(NpuReplicaTest, RandomRunLatenciesKeepFrameOrderAndData) {
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  // Every run waits 0..4 ms (random per run); replica 0's context waits 3 ms more, so later frames on
  // replicas 1 and 2 often finish before an earlier frame on replica 0.
  fake_->set_run_latency(0us, 4000us, 1234);
  ASSERT_TRUE(fake_->set_context_run_latency(replicas[0].ctx, 3000us));
  // (set_context_run_latency replaces the global base latency for that context; jitter still applies.)
  fake_->reset_counters();
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(90, [](const Result&) {});
  ASSERT_EQ(results.size(), 90u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].sequence, i);
    EXPECT_EQ(results[i].tag, i);
    EXPECT_EQ(results[i].status, Status::ok);
    EXPECT_TRUE(results[i].data_ok) << "frame " << i;
  }
  EXPECT_EQ(graph_->stop(), Status::ok);
  EXPECT_GE(fake_->counter("max_concurrent_runs"), 2) << "replicas overlap on their cores";
  std::map<unsigned long long, int> runs_per_ctx;
  std::map<unsigned long long, std::set<int>> cores_per_ctx;
  std::map<unsigned long long, long> tid_of;
  for (const auto& r : replicas) tid_of[r.ctx] = r.tid;
  for (const auto& run : fake_->runs()) {
    ++runs_per_ctx[run.ctx];
    cores_per_ctx[run.ctx].insert(run.core);
    EXPECT_EQ(run.tid, tid_of[run.ctx]) << "a context runs on the thread that initialised it";
  }
  for (std::size_t r = 0; r < replicas.size(); ++r) {
    EXPECT_EQ(runs_per_ctx[replicas[r].ctx], 30) << "replica " << r;
    EXPECT_EQ(cores_per_ctx[replicas[r].ctx], std::set<int>{static_cast<int>(r)}) << "replica " << r << " on core " << r;
  }
}

TEST_F(NpuReplicaTest, ARunFailureFailsOnlyItsFrame) {
  (void)verify();
  fake_->set_run_latency(0us, 2000us, 77);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(45, [&](const Result& r) {
    if (r.sequence == 10) fake_->set("fail_runs", 1);  // the next rknn_run on any replica fails
  });
  ASSERT_EQ(results.size(), 45u);
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
  const GraphStats s = graph_->stats();
  const std::vector<std::string> targets = {"npu0", "npu1", "npu2"};
  for (std::size_t r = 0; r < 3; ++r) {
    const NodeStats* n = replica_stats(s, "detector[" + targets[r] + "]");
    ASSERT_NE(n, nullptr) << "stats list each replica";
    EXPECT_EQ(n->failures, r == failed_frame % 3 ? 1u : 0u) << targets[r];
  }
}

TEST_F(NpuReplicaTest, SetCoreMaskReachesEveryReplicaOrOne) {
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  auto mask_of = [&](std::size_t r) { return fake_->context_value(replicas[r].ctx, "core_mask"); };
  CommandReply reply;
  reply.replica = 99;
  ASSERT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{7}), 1s, &reply),
            Status::ok);
  EXPECT_EQ(reply.replica, 0u);
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(mask_of(r), 7) << "replica " << r;

  ASSERT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{2}), 1s, &reply, 2),
            Status::ok);
  EXPECT_EQ(reply.replica, 2u);
  EXPECT_EQ(mask_of(0), 7);
  EXPECT_EQ(mask_of(1), 7);
  EXPECT_EQ(mask_of(2), 2);

  // A mask the runtime refuses fails on that replica only, and the reply says which one.
  EXPECT_NE(graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{5}), 1s, &reply, 1),
            Status::ok);
  EXPECT_EQ(reply.replica, 1u);
  EXPECT_EQ(mask_of(1), 7);

  ASSERT_EQ(graph_->process(), Status::ok);
  ASSERT_EQ(graph_->send_command(node_, ControlCommand::make(inference::kCmdGetRunTime), 1s, &reply, 1), Status::ok);
  EXPECT_EQ(reply.replica, 1u);
  EXPECT_EQ(reply.text(), "last_run_us=777 backend=rknn");
}

TEST_F(NpuReplicaTest, ThreeReplicasLoadTheWeightsOnceThroughRknnDupContext) {
  fake_->reset_log();
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_init size="), 1) << "the model is loaded once, by validate";
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_dup_context from="), 3) << "each replica duplicates that context";
  EXPECT_EQ(fake_->counter("weight_loads"), 1);
  EXPECT_EQ(fake_->counter("dups"), 3);
  EXPECT_EQ(fake_->counter("weight_bytes_live"), kWeightBytes) << "one copy of the weights for four contexts";
  for (const auto& r : replicas) {
    int made = 0;
    for (const auto& line : log) {
      made += line.rfind("rknn_dup_context", 0) == 0 && line.find(" to=" + std::to_string(r.ctx) + " rc=0") != std::string::npos;
    }
    EXPECT_EQ(made, 1) << "replica context " << r.ctx << " is a duplicate";
  }
  // Each duplicate has its own memories and core mask, and the frames still reach every replica.
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto results = stream(12, [](const Result&) {});
  EXPECT_EQ(graph_->stop(), Status::ok);
  ASSERT_EQ(results.size(), 12u);
  for (const auto& r : results) EXPECT_TRUE(r.status == Status::ok && r.data_ok) << "frame " << r.tag;
  std::set<unsigned long long> ran;
  for (const auto& run : fake_->runs()) ran.insert(run.ctx);
  EXPECT_EQ(ran.size(), 3u) << "every replica ran";
}

TEST_F(NpuReplicaTest, AReplicaRebuildsItsContextFromTheSourceAfterATimeout) {
  ASSERT_EQ(verify().size(), 3u);
  fake_->set("timeout_runs", 1);
  EXPECT_NE(graph_->process(), Status::ok) << "the run timed out";
  for (int f = 0; f < 3; ++f) EXPECT_EQ(graph_->process(), Status::ok) << graph_->last_error().describe();
  EXPECT_EQ(fake_->counter("dups"), 4) << "the timed-out replica duplicated the source again";
  EXPECT_EQ(fake_->counter("weight_loads"), 1) << "without loading the weights again";
  EXPECT_EQ(fake_->live_contexts(), 4);
}

TEST_F(NpuReplicaTest, ReleaseDestroysEveryReplicasContext) {
  const auto replicas = verify();
  ASSERT_EQ(replicas.size(), 3u);
  ASSERT_EQ(graph_->process(), Status::ok);
  EXPECT_EQ(fake_->live_contexts(), 4);
  fake_->reset_log();
  graph_->release();
  EXPECT_EQ(fake_->live_contexts(), 0);
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->counter("weight_bytes_live"), 0) << "the shared weights went with the last context";
  const auto log = fake_->log();
  EXPECT_EQ(FakeRknnrt::count(log, "rknn_destroy "), 4) << "three replicas and their source";
  for (const auto& r : replicas) {
    EXPECT_EQ(FakeRknnrt::count(log, "rknn_destroy ctx=" + std::to_string(r.ctx)), 1) << "context " << r.ctx;
  }
}

#else  // VG_NPU_REPLICAS_ZERO_ALLOC

TEST_F(NpuReplicaTest, ZeroAllocationsPerFrameWithReplicas) {
  (void)verify();
  fake_->set_run_latency(0us, 1000us, 5);
  ASSERT_EQ(graph_->start(), Status::ok);
  const auto nin = static_cast<std::uint32_t>(graph_->num_buffers(in_));
  const auto nout = static_cast<std::uint32_t>(graph_->num_buffers(graph_->data_of(gout_)));
  for (std::uint32_t k = 0; k < nout; ++k) ASSERT_EQ(graph_->enqueue(gout_, k), Status::ok);
  int failures = 0;
  // The loop below uses only fixed storage: buffers go round between enqueue and dequeue.
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
      if (done_frames % 20 == 0) {
        CommandReply reply;
        failures += graph_->send_command(node_, ControlCommand::make(inference::kCmdSetCoreMask, std::int64_t{0}), 1s,
                                         &reply, static_cast<std::uint32_t>(done_frames / 20 % 3)) != Status::ok;
        failures += graph_->send_command(node_, ControlCommand::make(inference::kCmdGetRunTime), 1s, &reply) !=
                    Status::ok;
      }
    }
  };
  run_frames(0, 12);  // warm-up: every replica has run frames and commands
  vg::test::arm_alloc_counter();
  run_frames(12, 120);
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(failures, 0) << graph_->last_error().describe();
  EXPECT_EQ(counts.news, 0u) << "operator new during 120 frames over three replicas";
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u) << "malloc during 120 frames over three replicas";
  }
  EXPECT_EQ(graph_->stop(), Status::ok);
}

#endif

}  // namespace
