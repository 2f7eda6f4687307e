// GraphInput: frames imported in place, every lease given back exactly once on every path (completed,
// failed, dropped by latest-wins, stop with drain, stop with abandon, refused, destroyed), conversions
// counted. Runs under ASan and TSan too, in a build where assertions are live.

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "visiongraph/io/graph_input.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kWidth = 16, kHeight = 8;
constexpr std::uint8_t kFailMarker = 255;  // first pixel of a frame the kernel must fail

std::atomic<const void*> g_last_plane{nullptr};

/// Sleeps if asked, fails frames that carry the marker, remembers where its input lived.
struct Consumer {
  explicit Consumer(vg::KernelContext& ctx) : sleep_us(ctx.integer("sleep_us")) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView in = ctx.image(0);
    g_last_plane.store(in.plane(0));
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    ctx.scalar(1).set(static_cast<double>(in.plane(0)[0]));
    return in.plane(0)[0] == kFailMarker ? vg::Status::kernel_error : vg::Status::ok;
  }
  std::int64_t sleep_us;
};

vg::Module consumer_module() {
  vg::Module m("test.io");
  m.add(vg::KernelDecl("test.io.consumer")
            .input("in", vg::DataKind::image)
            .output("out", vg::DataKind::scalar)
            .attribute("sleep_us", 0, "per frame")
            .validate([](vg::ValidateContext& v) { v.set_meta(1, vg::DataMeta::scalar_of(vg::ElementType::f64)); }));
  m.implement("test.io.consumer", "cpu", vg::callbacks_for<Consumer>());
  return m;
}

/// A producer with a fixed pool of frame buffers that counts, per buffer, how often it was handed out
/// and how often it came back. A buffer coming back twice, or while not out, is recorded as an error.
class CountingProducer {
 public:
  explicit CountingProducer(std::size_t buffers, std::uint32_t width = kWidth, std::uint32_t height = kHeight)
      : width_(width), height_(height), memory_(buffers), out_(buffers, false), acquired_(buffers, 0), released_(buffers, 0) {
    for (auto& m : memory_) m.assign(static_cast<std::size_t>(width) * height, 0);
  }

  /// The next free buffer as a frame, or false when all are out.
  bool acquire(vg::io::Frame& f, std::uint8_t value) {
    std::lock_guard lock(mu_);
    for (std::size_t k = 0; k < memory_.size(); ++k) {
      const std::size_t i = (next_ + k) % memory_.size();
      if (out_[i]) continue;
      next_ = i + 1;
      out_[i] = true;
      ++acquired_[i];
      std::memset(memory_[i].data(), value, memory_[i].size());
      f = vg::io::Frame{};
      f.meta.width = width_;
      f.meta.height = height_;
      f.meta.format = vg::ImageFormat::gray8;
      f.memory.block.data = memory_[i].data();
      f.memory.block.size = memory_[i].size();
      f.memory.num_planes = 1;
      f.memory.stride[0] = width_;
      f.capture_ns = vg::now_ns();
      f.sequence = sequence_++;
      f.lease = vg::Lease(&CountingProducer::give_back, this, reinterpret_cast<void*>(i));
      return true;
    }
    return false;
  }

  bool owns(const void* p) const {
    for (const auto& m : memory_)
      if (m.data() == p) return true;
    return false;
  }
  std::uint64_t total_acquired() const { return sum(acquired_); }
  std::uint64_t total_released() const { return sum(released_); }
  std::uint64_t errors() const { return errors_.load(); }
  /// True when every buffer came back exactly as often as it went out.
  bool balanced() const {
    std::lock_guard lock(mu_);
    for (std::size_t i = 0; i < memory_.size(); ++i)
      if (acquired_[i] != released_[i] || out_[i]) return false;
    return true;
  }

 private:
  static void give_back(void* owner, void* item) noexcept {
    auto* self = static_cast<CountingProducer*>(owner);
    const auto i = reinterpret_cast<std::size_t>(item);
    std::lock_guard lock(self->mu_);
    if (!self->out_[i]) ++self->errors_;  // released twice
    self->out_[i] = false;
    ++self->released_[i];
  }
  std::uint64_t sum(const std::vector<std::uint64_t>& v) const {
    std::lock_guard lock(mu_);
    std::uint64_t s = 0;
    for (auto x : v) s += x;
    return s;
  }

  std::uint32_t width_, height_;
  mutable std::mutex mu_;
  std::vector<std::vector<std::uint8_t>> memory_;
  std::vector<bool> out_;
  std::vector<std::uint64_t> acquired_, released_;
  std::size_t next_ = 0;
  std::uint64_t sequence_ = 0;
  std::atomic<std::uint64_t> errors_{0};
};

class GraphInputTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx.load_module(consumer_module()); }

  struct Built {
    std::unique_ptr<vg::Graph> graph;
    vg::GraphParamId input;
    vg::DataId image;
  };
  Built build(vg::InputPolicy policy, std::size_t buffers, std::int64_t sleep_us) {
    Built b;
    b.graph = std::make_unique<vg::Graph>(ctx, "io");
    vg::Graph& g = *b.graph;
    b.image = g.add_data("frame", vg::DataMeta::image_of(kWidth, kHeight, vg::ImageFormat::gray8));
    auto out = g.add_virtual("out", vg::DataKind::scalar);
    auto n = g.add_node("consumer", "test.io.consumer");
    g.bind(n, "in", b.image).bind(n, "out", out).set_attribute(n, "sleep_us", sleep_us);
    b.input = g.add_graph_parameter(n, "in", buffers);
    g.set_input_policy(b.input, policy, 1);
    g.set_pipeline_depth(2);
    g.verify();
    return b;
  }

  /// Reclaims until the graph is stopped and empty; returns per-status counts.
  struct Tally {
    std::atomic<int> ok{0}, failed{0}, dropped{0}, aborted{0};
    std::atomic<bool> address_matched{true};
  };
  std::thread reclaimer(vg::io::GraphInput& input, Tally& t) {
    return std::thread([&input, &t] {
      vg::io::ReclaimedFrame r;
      for (;;) {
        const vg::Status s = input.reclaim(r, 50ms);
        if (s == vg::Status::stopped) return;
        if (s != vg::Status::ok) continue;
        switch (r.buffer.status) {
          case vg::Status::ok: ++t.ok; break;
          case vg::Status::dropped: ++t.dropped; break;
          case vg::Status::aborted: ++t.aborted; break;
          default: ++t.failed; break;
        }
      }
    });
  }

  vg::Context ctx;
};

TEST_F(GraphInputTest, ImportedFramesAreReadInPlaceAndEveryLeaseComesBackOnce) {
  auto b = build(vg::InputPolicy::block, 3, 0);
  CountingProducer producer(6);
  {
    vg::io::GraphInput input(*b.graph, b.input);
    Tally t;
    ASSERT_EQ(b.graph->start(), vg::Status::ok);
    std::thread consumer = reclaimer(input, t);
    for (int i = 0; i < 200; ++i) {
      vg::io::Frame f;
      while (!producer.acquire(f, static_cast<std::uint8_t>(i % 200))) std::this_thread::sleep_for(100us);
      ASSERT_EQ(input.push(std::move(f), 2s), vg::Status::ok) << "frame " << i;
      EXPECT_FALSE(f.lease.held()) << "push takes the lease";
    }
    ASSERT_EQ(b.graph->wait_idle(5s), vg::Status::ok);
    ASSERT_EQ(b.graph->stop(vg::StopMode::drain), vg::Status::ok);
    consumer.join();
    EXPECT_EQ(t.ok.load(), 200);
    EXPECT_TRUE(producer.owns(g_last_plane.load())) << "the kernel read the producer's memory, not a copy";
    const auto st = input.stats();
    EXPECT_EQ(st.imported, 200u);
    EXPECT_EQ(st.converted, 0u);
    EXPECT_EQ(st.leases_held, 0u);
    EXPECT_EQ(b.graph->stats().queues.at(0).conversions, 0u);
  }
  EXPECT_EQ(producer.total_acquired(), 200u);
  EXPECT_EQ(producer.total_released(), 200u);
  EXPECT_TRUE(producer.balanced());
  EXPECT_EQ(producer.errors(), 0u);
}

TEST_F(GraphInputTest, LatestWinsDropsAndFailedFramesGiveTheirLeasesBack) {
  // Slow consumer, fast producer: most frames are replaced while waiting; every third frame fails.
  auto b = build(vg::InputPolicy::latest_wins, 4, 2000);
  CountingProducer producer(8);
  Tally t;
  {
    vg::io::GraphInput input(*b.graph, b.input);
    ASSERT_EQ(b.graph->start(), vg::Status::ok);
    std::thread consumer = reclaimer(input, t);
    for (int i = 0; i < 300; ++i) {
      vg::io::Frame f;
      while (!producer.acquire(f, i % 3 == 0 ? kFailMarker : 1)) std::this_thread::sleep_for(50us);
      const vg::Status s = input.push(std::move(f), 2s);
      ASSERT_EQ(s, vg::Status::ok) << "frame " << i;
    }
    ASSERT_EQ(b.graph->stop(vg::StopMode::drain), vg::Status::ok);
    consumer.join();
    EXPECT_EQ(input.stats().leases_held, 0u);
  }
  EXPECT_GT(t.dropped.load(), 0) << "a slow graph must drop under latest-wins";
  EXPECT_GT(t.failed.load(), 0);
  EXPECT_EQ(t.ok.load() + t.failed.load() + t.dropped.load() + t.aborted.load(), 300);
  EXPECT_EQ(static_cast<std::uint64_t>(t.dropped.load()), b.graph->stats().frames_dropped);
  EXPECT_EQ(producer.total_released(), 300u);
  EXPECT_TRUE(producer.balanced());
  EXPECT_EQ(producer.errors(), 0u);
}

TEST_F(GraphInputTest, StopWithAbandonGivesBackFramesInFlightAndWaiting) {
  auto b = build(vg::InputPolicy::block, 4, 20000);  // 20 ms a frame: several in flight at stop
  CountingProducer producer(8);
  Tally t;
  {
    vg::io::GraphInput input(*b.graph, b.input);
    ASSERT_EQ(b.graph->start(), vg::Status::ok);
    std::thread consumer = reclaimer(input, t);
    for (int i = 0; i < 3; ++i) {
      vg::io::Frame f;
      ASSERT_TRUE(producer.acquire(f, 1));
      ASSERT_EQ(input.push(std::move(f), 2s), vg::Status::ok);
    }
    std::this_thread::sleep_for(5ms);
    ASSERT_EQ(b.graph->stop(vg::StopMode::abandon), vg::Status::ok);
    // After stop, push refuses and still gives the lease back.
    vg::io::Frame late;
    ASSERT_TRUE(producer.acquire(late, 1));
    EXPECT_EQ(input.push(std::move(late), 100ms), vg::Status::stopped);
    consumer.join();
    EXPECT_GT(t.aborted.load(), 0);
    EXPECT_EQ(input.stats().leases_held, 0u);
  }
  EXPECT_EQ(producer.total_acquired(), 4u);
  EXPECT_TRUE(producer.balanced());
  EXPECT_EQ(producer.errors(), 0u);
}

TEST_F(GraphInputTest, StopWithDrainCompletesFramesInFlight) {
  auto b = build(vg::InputPolicy::block, 4, 5000);
  CountingProducer producer(8);
  Tally t;
  {
    vg::io::GraphInput input(*b.graph, b.input);
    ASSERT_EQ(b.graph->start(), vg::Status::ok);
    std::thread consumer = reclaimer(input, t);
    for (int i = 0; i < 3; ++i) {
      vg::io::Frame f;
      ASSERT_TRUE(producer.acquire(f, 1));
      ASSERT_EQ(input.push(std::move(f), 2s), vg::Status::ok);
    }
    ASSERT_EQ(b.graph->stop(vg::StopMode::drain), vg::Status::ok);
    consumer.join();
  }
  EXPECT_EQ(t.ok.load() + t.aborted.load(), 3);
  EXPECT_GE(t.ok.load(), 2) << "frames already in flight finish under drain";
  EXPECT_TRUE(producer.balanced());
}

TEST_F(GraphInputTest, DestroyingTheInputReleasesLeasesTheGraphNeverHandedBack) {
  auto b = build(vg::InputPolicy::block, 3, 0);
  CountingProducer producer(4);
  {
    vg::io::GraphInput input(*b.graph, b.input);
    // Not started: frames wait in the graph's queue; nobody reclaims them.
    vg::io::Frame f;
    ASSERT_TRUE(producer.acquire(f, 1));
    ASSERT_EQ(input.push(std::move(f), 100ms), vg::Status::ok);
    EXPECT_EQ(input.stats().leases_held, 1u);
    ASSERT_EQ(b.graph->stop(vg::StopMode::abandon), vg::Status::ok);
  }
  EXPECT_TRUE(producer.balanced());
  EXPECT_EQ(producer.errors(), 0u);
}

TEST_F(GraphInputTest, AFrameOfAnotherSizeIsConvertedCountedAndReleasedAtOnce) {
  auto b = build(vg::InputPolicy::block, 2, 0);
  CountingProducer producer(2, kWidth * 2, kHeight * 2);
  Tally t;
  {
    vg::io::GraphInput input(*b.graph, b.input);
    ASSERT_EQ(b.graph->start(), vg::Status::ok);
    std::thread consumer = reclaimer(input, t);
    vg::io::Frame f;
    ASSERT_TRUE(producer.acquire(f, 7));
    ASSERT_EQ(input.push(std::move(f), 1s), vg::Status::ok);
    EXPECT_TRUE(producer.balanced()) << "a converted frame's buffer is not needed any more";
    ASSERT_EQ(b.graph->wait_idle(2s), vg::Status::ok);
    EXPECT_FALSE(producer.owns(g_last_plane.load())) << "the kernel read the graph's converted copy";
    ASSERT_EQ(b.graph->stop(), vg::Status::ok);
    consumer.join();
    EXPECT_EQ(input.stats().converted, 1u);
    EXPECT_EQ(b.graph->stats().queues.at(0).conversions, 1u);
  }
  EXPECT_EQ(t.ok.load(), 1);
}

TEST_F(GraphInputTest, NoFreeBufferInTimeIsBusyAndTheLeaseGoesBack) {
  auto b = build(vg::InputPolicy::block, 1, 0);
  CountingProducer producer(3);
  vg::io::GraphInput input(*b.graph, b.input);  // graph not started, nobody reclaims
  vg::io::Frame first, second;
  ASSERT_TRUE(producer.acquire(first, 1));
  ASSERT_TRUE(producer.acquire(second, 1));
  ASSERT_EQ(input.push(std::move(first), 100ms), vg::Status::ok);
  EXPECT_EQ(input.push(std::move(second), 20ms), vg::Status::busy);
  EXPECT_EQ(producer.total_released(), 1u);
  ASSERT_EQ(b.graph->stop(vg::StopMode::abandon), vg::Status::ok);
}

}  // namespace
