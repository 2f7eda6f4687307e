// One model load shared by several graph instances in one process (multi-stream: one graph per camera
// stream, all in one vg::Context over npu0..npu2), on the stand-in runtime: N instances of the same .rknn
// model cost one rknn_init, every other context is duplicated (rknn_dup_context, weights shared) from an
// idle one, never from a context a node is running; instances run concurrently with the right outputs;
// other load options do not share; releasing the graphs releases every context, and a graph released
// while others run leaves them working.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg;
using vg::test::FakeRknnrt;

// 48 input bytes; out0 (4-D, native NC1HWC2) = in + 1, out1 (3-D) = in + 2, int8 with scale 0.5, zero point -3.
// "weights": 1 MiB of weight memory that rknn_init loads and rknn_dup_context shares.
constexpr const char* kModelBody = "input 1 4 4 3\nweights 1048576\noutput 1 10 2 2\noutput 1 5 6\n";
constexpr long kWeightBytes = 1048576;
constexpr int kInputBytes = 48;
constexpr int kOut0Elems = 40;
constexpr int kOut1Elems = 30;

ContextConfig npu_targets() {
  ContextConfig config = ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

/// Input byte @p j of frame @p f of stream @p stream: every stream sees other data.
std::uint8_t input_byte(int stream, std::uint64_t f, int j) {
  return static_cast<std::uint8_t>(static_cast<unsigned>(stream) * 31u + f * 7u + static_cast<unsigned>(j) * 3u);
}

/// "rknn_dup_context from=A to=B rc=0" entries of the call log, in call order, with their log positions.
struct Dup {
  std::size_t at = 0;
  unsigned long long from = 0, to = 0;
};
std::vector<Dup> dups_in(const std::vector<std::string>& log) {
  std::vector<Dup> out;
  for (std::size_t i = 0; i < log.size(); ++i) {
    Dup d;
    d.at = i;
    if (std::sscanf(log[i].c_str(), "rknn_dup_context from=%llu to=%llu rc=0", &d.from, &d.to) == 2) out.push_back(d);
  }
  return out;
}

/// One stream's graph: input (graph parameter) -> vg.inference (on one NPU target or replicated) -> out0,
/// out1 (graph parameter).
class Instance {
 public:
  struct Options {
    std::vector<std::string> targets{"npu0"};
    bool dequantize = false;
    bool async = false;
    std::int64_t core_mask = 0;
  };

  Instance(Context& ctx, int stream, const std::string& model, const Options& o) : stream_(stream), opt_(o) {
    graph_ = std::make_unique<Graph>(ctx, "stream" + std::to_string(stream));
    in_ = graph_->add_data("in", DataMeta::tensor_of({1, 4, 4, 3}, ElementType::u8, TensorLayout::nhwc));
    node_ = graph_->add_node("detector", "vg.inference");
    graph_->set_attribute(node_, "model", model);
    graph_->set_attribute(node_, "runtime_path", std::string(VG_FAKE_RKNNRT_PATH));
    graph_->set_attribute(node_, "npu_cores", std::int64_t{3});  // as an RK3588 (no device tree here)
    if (o.dequantize) graph_->set_attribute(node_, "dequantize", true);
    if (o.async) graph_->set_attribute(node_, "async", true);
    if (o.core_mask != 0) graph_->set_attribute(node_, "core_mask", o.core_mask);
    graph_->bind(node_, "input", in_);
    out0_ = graph_->add_virtual("o0", DataKind::tensor);
    out1_ = graph_->add_virtual("o1", DataKind::tensor);
    graph_->bind(node_, "out0", out0_).bind(node_, "out1", out1_);
    graph_->set_targets(node_, o.targets);
    gin_ = graph_->add_graph_parameter(node_, "input");
    gout_ = graph_->add_graph_parameter(node_, "out1");
  }

  Graph& graph() { return *graph_; }
  NodeId node() const { return node_; }

  /// Whether out1 of buffer @p index is what the model makes of frame @p frame of this stream.
  bool out1_right(std::uint32_t index, std::uint64_t frame) {
    for (int k = 0; k < kOut1Elems; ++k) {
      const auto q = static_cast<std::int8_t>(input_byte(stream_, frame, k % kInputBytes) + 2);
      if (opt_.dequantize) {
        if (graph_->tensor(out1_, index).data_as<float>()[k] != (static_cast<float>(q) + 3.0f) * 0.5f) return false;
      } else if (graph_->tensor(out1_, index).data_as<std::int8_t>()[k] != q) {
        return false;
      }
    }
    return true;
  }

  /// One frame through Graph::process (not started): true when both outputs are right.
  bool process_one(std::uint64_t frame) {
    auto* p = graph_->tensor(in_, 0).data_as<std::uint8_t>();
    for (int j = 0; j < kInputBytes; ++j) p[j] = input_byte(stream_, frame, j);
    if (graph_->process() != Status::ok) return false;
    if (!opt_.dequantize) {
      const auto* o0 = graph_->tensor(out0_).data_as<std::int8_t>();
      for (int k = 0; k < kOut0Elems; ++k) {
        if (o0[k] != static_cast<std::int8_t>(input_byte(stream_, frame, k % kInputBytes) + 1)) return false;
      }
    }
    return out1_right(0, frame);
  }

  struct Streamed {
    std::uint64_t frames = 0;  ///< results taken
    std::uint64_t ok = 0;      ///< of those: status ok and right data
    std::uint64_t in_order = 0;
    std::string first_problem;
  };

  /// Streams frames (Graph::start first) while @p more(frames sent so far) says so, then drains; thread-safe
  /// against other instances streaming at the same time (no gtest assertion inside).
  Streamed stream(const std::function<bool(std::uint64_t)>& more) {
    Streamed s;
    if (graph_->start() != Status::ok) {
      note(s, "start failed");
      return s;
    }
    const auto nin = static_cast<std::uint32_t>(graph_->num_buffers(in_));
    const auto nout = static_cast<std::uint32_t>(graph_->num_buffers(graph_->data_of(gout_)));
    for (std::uint32_t k = 0; k < nout; ++k) (void)graph_->enqueue(gout_, k);
    std::vector<std::uint32_t> free_in;
    for (std::uint32_t k = 0; k < nin; ++k) free_in.push_back(k);
    std::uint64_t sent = 0;
    while (s.frames < sent || more(sent)) {
      while (!free_in.empty() && more(sent)) {
        const std::uint32_t k = free_in.back();
        free_in.pop_back();
        auto* p = graph_->tensor(in_, k).data_as<std::uint8_t>();
        for (int j = 0; j < kInputBytes; ++j) p[j] = input_byte(stream_, sent, j);
        FrameStamp stamp;
        stamp.tag = sent++;
        if (graph_->enqueue(gin_, k, stamp) != Status::ok) note(s, "enqueue failed");
      }
      DequeuedBuffer done;
      if (graph_->dequeue(gout_, done, 10s) != Status::ok) {
        note(s, "dequeue timed out after " + std::to_string(s.frames) + " results");
        break;
      }
      const bool right = done.status == Status::ok && out1_right(done.index, done.tag);
      if (right) ++s.ok;
      if (done.sequence == s.frames && done.tag == s.frames) ++s.in_order;
      if (!right) {
        note(s, "frame " + std::to_string(done.tag) + ": status " + std::string(to_string(done.status)) + " " +
                    graph_->last_error().describe());
      }
      ++s.frames;
      (void)graph_->enqueue(gout_, done.index);
      DequeuedBuffer used;
      if (graph_->dequeue(gin_, used, 10s) == Status::ok) free_in.push_back(used.index);
    }
    (void)graph_->stop();
    return s;
  }

 private:
  static void note(Streamed& s, const std::string& problem) {
    if (s.first_problem.empty()) s.first_problem = problem;
  }

  int stream_;
  Options opt_;
  std::unique_ptr<Graph> graph_;
  DataId in_, out0_, out1_;
  NodeId node_;
  GraphParamId gin_, gout_;
};

class NpuSharedModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    model_ = vg::test::write_fake_model("shared.rknn", kModelBody);
    ctx_ = std::make_unique<Context>(npu_targets());
    npu_memory_ = inference::install_npu_allocator(*ctx_);
    ctx_->load_module(inference::make_inference_module());
    fake_->reset_log();
    weight_loads_before_ = fake_->counter("weight_loads");
  }
  void TearDown() override {
    instances_.clear();
    npu_memory_.reset();
    ctx_.reset();
    EXPECT_EQ(fake_->live_contexts(), 0);
    EXPECT_EQ(fake_->live_mems(), 0);
    EXPECT_EQ(fake_->counter("weight_bytes_live"), 0);
  }

  Instance& add(const Instance::Options& o = {}, const std::string& model = {}) {
    const int stream = static_cast<int>(instances_.size());
    instances_.push_back(std::make_unique<Instance>(*ctx_, stream, model.empty() ? model_ : model, o));
    return *instances_.back();
  }
  Instance& add_on(const std::string& target) {
    Instance::Options o;
    o.targets = {target};
    return add(o);
  }

  /// rknn_init calls (each loads the weights) and rknn_dup_context calls since SetUp.
  int inits() const { return FakeRknnrt::count(fake_->log(), "rknn_init"); }
  long dups() const { return static_cast<long>(dups_in(fake_->log()).size()); }
  /// Weight loads since SetUp (the stand-in's counter is not reset between tests).
  long weight_loads() const { return fake_->counter("weight_loads") - weight_loads_before_; }

  /// Streams every instance on its own thread, @p frames frames each, and checks every frame.
  void stream_all_concurrently(std::uint64_t frames) {
    std::vector<Instance::Streamed> results(instances_.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < instances_.size(); ++i) {
      threads.emplace_back([&, i] { results[i] = instances_[i]->stream([&](std::uint64_t n) { return n < frames; }); });
    }
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < results.size(); ++i) {
      EXPECT_EQ(results[i].frames, frames) << "stream " << i << ": " << results[i].first_problem;
      EXPECT_EQ(results[i].ok, frames) << "stream " << i << ": " << results[i].first_problem;
      EXPECT_EQ(results[i].in_order, frames) << "stream " << i;
    }
  }

  /// Per context: the threads that ran it (from the run records).
  std::map<unsigned long long, std::set<long>> threads_per_context() const {
    std::map<unsigned long long, std::set<long>> out;
    for (const auto& r : fake_->runs()) out[r.ctx].insert(r.tid);
    return out;
  }

  std::unique_ptr<FakeRknnrt> fake_;
  std::string model_;
  std::unique_ptr<Context> ctx_;
  std::unique_ptr<inference::NpuAllocatorInstallation> npu_memory_;
  std::vector<std::unique_ptr<Instance>> instances_;
  long weight_loads_before_ = 0;
};

TEST_F(NpuSharedModelTest, TwoInstancesLoadTheModelOnceAndRunOnTheirOwnContexts) {
  add_on("npu0").graph().verify();
  EXPECT_EQ(inits(), 1);
  EXPECT_EQ(dups(), 0) << "a single instance runs validate's context itself, as before";
  EXPECT_EQ(fake_->live_contexts(), 1);
  add_on("npu1").graph().verify();
  EXPECT_EQ(inits(), 1) << "the second instance does not load the model again";
  EXPECT_EQ(weight_loads(), 1);
  EXPECT_EQ(fake_->counter("weight_bytes_live"), kWeightBytes) << "one weight block for both";
  // The second instance's context, and the idle one it was duplicated from (the first instance runs
  // validate's context, which is never duplicated while it may run).
  EXPECT_EQ(dups(), 2);
  EXPECT_EQ(fake_->live_contexts(), 3);

  fake_->reset_counters();
  fake_->set_run_latency(0us, 2000us, 7);
  stream_all_concurrently(40);
  EXPECT_GE(fake_->counter("max_concurrent_runs"), 2) << "the two instances run side by side";
  const auto per_ctx = threads_per_context();
  EXPECT_EQ(per_ctx.size(), 2u) << "each instance on its own context; the idle one never runs";
  for (const auto& [ctx, threads] : per_ctx) EXPECT_EQ(threads.size(), 1u) << "context " << ctx << ": one thread";
}

TEST_F(NpuSharedModelTest, FourInstancesOnThreeTargetsLoadOnceAndStreamConcurrently) {
  for (int i = 0; i < 4; ++i) add_on("npu" + std::to_string(i % 3)).graph().verify();
  EXPECT_EQ(inits(), 1);
  EXPECT_EQ(weight_loads(), 1);
  EXPECT_EQ(dups(), 4) << "three later instances and the idle source";
  EXPECT_EQ(fake_->live_contexts(), 5);
  fake_->reset_counters();
  fake_->set_run_latency(500us, 1500us, 11);
  stream_all_concurrently(30);
  const auto per_ctx = threads_per_context();
  EXPECT_EQ(per_ctx.size(), 4u) << "one context per instance";
  for (const auto& [ctx, threads] : per_ctx) EXPECT_EQ(threads.size(), 1u) << "context " << ctx;
}

TEST_F(NpuSharedModelTest, FourInstancesOfThreeReplicasCostOneRknnInit) {
  Instance::Options o;
  o.targets = {"npu0", "npu1", "npu2"};
  for (int i = 0; i < 4; ++i) {
    add(o).graph().verify();
    EXPECT_EQ(dups(), 3 * (i + 1)) << "each replica of each instance duplicates the idle source";
  }
  std::printf("4 instances x 3 replicas: %d rknn_init, %ld rknn_dup_context, %d live contexts, %ld weight load(s)\n",
              inits(), dups(), fake_->live_contexts(), weight_loads());
  EXPECT_EQ(inits(), 1);
  EXPECT_EQ(weight_loads(), 1);
  EXPECT_EQ(dups(), 12);
  EXPECT_EQ(fake_->live_contexts(), 13) << "12 replicas and validate's (never run)";
  // Every duplicate comes from validate's context, which no node runs.
  const auto log = fake_->log();
  const auto d = dups_in(log);
  ASSERT_EQ(d.size(), 12u);
  for (const Dup& x : d) EXPECT_EQ(x.from, d.front().from);

  fake_->reset_counters();
  fake_->set_run_latency(500us, 1500us, 5);
  stream_all_concurrently(36);
  EXPECT_GE(fake_->counter("max_concurrent_runs"), 3);
  const auto per_ctx = threads_per_context();
  EXPECT_EQ(per_ctx.size(), 12u) << "every replica of every instance ran on its own context";
  EXPECT_EQ(per_ctx.count(d.front().from), 0u) << "the source never runs";
  for (const auto& [ctx, threads] : per_ctx) EXPECT_EQ(threads.size(), 1u) << "context " << ctx;
}

TEST_F(NpuSharedModelTest, OtherLoadOptionsOrAnotherFileDoNotShare) {
  add_on("npu0").graph().verify();
  EXPECT_EQ(inits(), 1);
  Instance::Options deq;
  deq.targets = {"npu1"};
  deq.dequantize = true;  // f32 outputs: another output plan
  Instance& f32 = add(deq);
  f32.graph().verify();
  EXPECT_EQ(inits(), 2) << "dequantize changes what load() makes";
  Instance::Options async;
  async.targets = {"npu2"};
  async.async = true;  // another init flag (RKNN_FLAG_FENCE_OUT_OUTSIDE)
  add(async).graph().verify();
  EXPECT_EQ(inits(), 3) << "async changes the context's init flag";
  // The same file under another name is another model.
  const std::string copy = std::filesystem::path(model_).replace_filename("shared_copy.rknn").string();
  std::filesystem::copy_file(model_, copy, std::filesystem::copy_options::overwrite_existing);
  add({}, copy).graph().verify();
  EXPECT_EQ(inits(), 4);
  // A fifth like the first shares the first's load; one like the dequantized one shares that one's.
  add_on("npu1").graph().verify();
  add(deq).graph().verify();
  EXPECT_EQ(inits(), 4);
  EXPECT_TRUE(f32.process_one(3)) << "dequantized outputs";
  EXPECT_TRUE(instances_.back()->process_one(4)) << "dequantized outputs of the instance sharing its load";
  EXPECT_TRUE(instances_.front()->process_one(5));
  EXPECT_TRUE(instances_[4]->process_one(6));
  std::filesystem::remove(copy);
}

TEST_F(NpuSharedModelTest, AFileReplacedOnDiskLoadsAgain) {
  add_on("npu0").graph().verify();
  // Another model under the same path (another size): the live instance keeps its model, a new one loads.
  (void)vg::test::write_fake_model("shared.rknn", "input 1 4 4 3\nweights 1048576\noutput 1 10 2 2\noutput 1 5 6\n\n");
  add_on("npu1").graph().verify();
  EXPECT_EQ(inits(), 2);
  EXPECT_EQ(dups(), 0);
  // Instances of the new file share its load, the old one's instance keeps working.
  add_on("npu2").graph().verify();
  EXPECT_EQ(inits(), 2);
  EXPECT_TRUE(instances_[0]->process_one(1));
  EXPECT_TRUE(instances_[2]->process_one(2));
}

TEST_F(NpuSharedModelTest, CoreMasksStayPerInstanceAndAreCheckedForEach) {
  Instance::Options a;
  a.targets = {"npu0"};
  a.core_mask = 1;
  Instance::Options b;
  b.targets = {"npu1"};
  b.core_mask = 2;
  add(a).graph().verify();
  add(b).graph().verify();
  EXPECT_EQ(inits(), 1) << "the core mask is applied per context, not part of the load";
  const auto d = dups_in(fake_->log());
  ASSERT_EQ(d.size(), 2u);
  const unsigned long long first = d.front().from;  // validate's context, run by the first instance
  EXPECT_EQ(fake_->context_value(first, "core_mask"), 1);
  EXPECT_EQ(fake_->context_value(d.back().to, "core_mask"), 2) << "the second instance's own context";
  EXPECT_TRUE(instances_[0]->process_one(1));
  EXPECT_TRUE(instances_[1]->process_one(2));

  // A later instance asking for what this runtime (1.6.0) lacks still fails verify, naming it.
  Instance::Options all;
  all.targets = {"npu2"};
  all.core_mask = 0xffff;
  Instance& bad = add(all);
  try {
    bad.graph().verify();
    FAIL() << "core_mask 0xffff verified on librknnrt 1.6.0";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("core_mask 0xffff"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2.0.0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(inits(), 1);
}

TEST_F(NpuSharedModelTest, ReleasingEveryGraphReleasesEveryContextAndTheNextGraphLoadsAgain) {
  Instance::Options replicated;
  replicated.targets = {"npu0", "npu1"};
  add_on("npu0").graph().verify();
  add(replicated).graph().verify();
  add_on("npu2").graph().verify();
  EXPECT_EQ(inits(), 1);
  stream_all_concurrently(12);
  EXPECT_EQ(fake_->counter("weight_bytes_live"), kWeightBytes);
  instances_.clear();
  EXPECT_EQ(fake_->live_contexts(), 0) << "the model is unloaded with its last graph";
  EXPECT_EQ(fake_->live_mems(), 0);
  EXPECT_EQ(fake_->counter("weight_bytes_live"), 0);
  add_on("npu1").graph().verify();
  EXPECT_EQ(inits(), 2) << "a graph after that loads the model again";
  EXPECT_EQ(fake_->live_contexts(), 1);
  EXPECT_TRUE(instances_.back()->process_one(9));
}

TEST_F(NpuSharedModelTest, AGraphReleasedWhileOthersRunLeavesThemWorking) {
  for (int i = 0; i < 4; ++i) add_on("npu" + std::to_string(i % 3)).graph().verify();
  ASSERT_EQ(inits(), 1);
  fake_->set_run_latency(300us, 700us, 3);
  // Streams 1 and 3 keep running while stream 0 (whose node runs validate's context) and then stream 2
  // (a later instance) stop and are released.
  std::atomic<int> released{0};
  std::vector<Instance::Streamed> results(4);
  std::atomic<std::uint64_t> frames_1{0}, frames_3{0};
  std::thread t1([&] {
    results[1] = instances_[1]->stream([&](std::uint64_t n) { frames_1 = n; return released < 2 || n < 200; });
  });
  std::thread t3([&] {
    results[3] = instances_[3]->stream([&](std::uint64_t n) { frames_3 = n; return released < 2 || n < 200; });
  });
  auto release = [&](std::size_t i, std::uint64_t frames) {
    while (frames_1 < 5 || frames_3 < 5) std::this_thread::sleep_for(1ms);
    results[i] = instances_[i]->stream([&](std::uint64_t n) { return n < frames; });
    const int before = fake_->live_contexts();
    instances_[i].reset();
    EXPECT_EQ(fake_->live_contexts(), before - (i == 0 ? 0 : 1))
        << "stream " << i << (i == 0 ? ": validate's context stays loaded as the source of the others"
                                     : ": its own context goes");
    ++released;
  };
  release(0, 20);
  release(2, 20);
  t1.join();
  t3.join();
  for (std::size_t i : {0u, 2u}) EXPECT_EQ(results[i].ok, 20u) << "stream " << i << ": " << results[i].first_problem;
  for (std::size_t i : {1u, 3u}) {
    EXPECT_GE(results[i].frames, 200u) << "stream " << i;
    EXPECT_EQ(results[i].ok, results[i].frames) << "stream " << i << ": " << results[i].first_problem;
  }
  // The survivors still work frame by frame, and a new instance shares their load.
  EXPECT_TRUE(instances_[1]->process_one(1000));
  add_on("npu2").graph().verify();
  EXPECT_EQ(inits(), 1);
  EXPECT_TRUE(instances_.back()->process_one(1001));
}

TEST_F(NpuSharedModelTest, NoContextIsDuplicatedFromOneANodeRunsNotEvenToRecoverFromATimeout) {
  add_on("npu0").graph().verify();
  add_on("npu1").graph().verify();
  add_on("npu2").graph().verify();
  const unsigned long long first = fake_->inits().front().ctx;  // validate's rknn_init, run by stream 0
  // Stream 1 times out once: its context is rebuilt before its next frame, by duplicating again.
  EXPECT_TRUE(instances_[0]->process_one(0));
  fake_->set("timeout_runs", 1);
  EXPECT_FALSE(instances_[1]->process_one(1));
  EXPECT_TRUE(instances_[1]->process_one(2)) << "recovered";
  EXPECT_TRUE(instances_[2]->process_one(3));
  EXPECT_TRUE(instances_[0]->process_one(4));
  const auto d = dups_in(fake_->log());
  ASSERT_EQ(d.size(), 4u) << "the idle source, streams 1 and 2, stream 1's rebuild";
  EXPECT_EQ(d[0].from, first) << "the idle source: duplicated once from the first instance's context";
  const unsigned long long idle = d[0].to;
  for (std::size_t i = 1; i < d.size(); ++i) EXPECT_EQ(d[i].from, idle) << "duplicate " << i;
  EXPECT_EQ(fake_->context_value(idle, "runs"), 0) << "the source is never run";
  EXPECT_EQ(inits(), 1);
}

TEST_F(NpuSharedModelTest, AnAsyncFirstInstanceIsDuplicatedOnlyBetweenItsRuns) {
  Instance::Options async;
  async.async = true;
  async.targets = {"npu0"};
  add(async).graph().verify();
  const unsigned long long first = fake_->inits().front().ctx;
  fake_->set_run_latency(3000us);  // each run in flight for 3 ms
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> done{0};
  Instance::Streamed r0;
  std::thread t([&] { r0 = instances_[0]->stream([&](std::uint64_t n) { done = n; return !stop; }); });
  while (done < 10) std::this_thread::sleep_for(1ms);
  async.targets = {"npu1"};
  add(async).graph().verify();  // while stream 0 keeps a run in flight most of the time
  // Ten more frames of stream 0 after the duplication (which verify waited for), however long it took.
  const std::uint64_t at_verify = done;
  while (done < at_verify + 10) std::this_thread::sleep_for(1ms);
  stop = true;
  t.join();
  EXPECT_EQ(r0.ok, r0.frames) << r0.first_problem;
  EXPECT_EQ(inits(), 1);
  // Where the first instance's context was duplicated, every run it had started had been waited for.
  const auto log = fake_->log();
  const auto d = dups_in(log);
  ASSERT_GE(d.size(), 1u);
  ASSERT_EQ(d[0].from, first);
  auto started = [&](std::size_t i) {
    return log[i].rfind("rknn_run non_block=1", 0) == 0 && log[i].find("rc=0") != std::string::npos ? 1 : 0;
  };
  int started_before = 0, waited_before = 0, started_after = 0;
  for (std::size_t i = 0; i < d[0].at; ++i) {
    started_before += started(i);
    waited_before += log[i].rfind("rknn_wait frame=", 0) == 0 ? 1 : 0;
  }
  for (std::size_t i = d[0].at; i < log.size(); ++i) started_after += started(i);
  EXPECT_GE(started_before, 5);
  EXPECT_GE(started_after, 5) << "stream 0 went on running";
  EXPECT_EQ(started_before, waited_before) << "a run was in flight on the context being duplicated";
  const auto r1 = instances_[1]->stream([](std::uint64_t n) { return n < 10; });
  EXPECT_EQ(r1.ok, 10u) << r1.first_problem;
}

}  // namespace
