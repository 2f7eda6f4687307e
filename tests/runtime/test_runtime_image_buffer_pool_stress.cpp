// Stress tests of vg::ImageBufferPool: a producer thread and a consumer thread race for a bounded
// time. Checked: no slot is ever held by both sides (owner markers + frame contents), every acquire
// is released exactly once, the consumer always gets the newest frame published before its acquire,
// and the drop count adds up exactly. Meant to run under ThreadSanitizer and ASan/UBSan too.

#include "visiongraph/runtime/image_buffer_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace {

using vg::ImageBufferPool;
using vg::Status;
using WriteLease = ImageBufferPool::WriteLease;
using ReadLease = ImageBufferPool::ReadLease;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Owner marker per slot, driven by the test alongside the pool. Every transition is a CAS from the
// one state the protocol allows; any other observed state is a violation.
enum Owner : int { kFree = 0, kWriting = 1, kReady = 2, kReading = 3 };

struct StressConfig {
  const char* name;
  std::size_t slots;
  std::chrono::microseconds producer_pause;  // 0: publish as fast as possible
  std::chrono::microseconds consumer_hold;   // time the consumer keeps each frame
  bool blocking_reads;                       // acquire_read(out, timeout) instead of polling
  int abandon_every;                         // every n-th write lease is dropped unpublished
  std::chrono::milliseconds duration;  // run at least this long (unless max_frames is reached)
  std::uint64_t max_frames;           // or stop after this many publishes
};

// A loaded machine can starve one thread; keep going (up to a hard limit) until the consumer has
// taken enough frames for the run to mean something.
constexpr std::uint64_t kMinReads = 50;
constexpr int kHardLimitFactor = 10;  // hard stop at duration * kHardLimitFactor

std::ostream& operator<<(std::ostream& os, const StressConfig& c) { return os << c.name; }

constexpr std::size_t kSlotBytes = 4096;
constexpr std::size_t kWords = kSlotBytes / sizeof(std::uint64_t);

void fill(std::uint8_t* data, std::uint64_t value) {
  for (std::size_t i = 0; i < kWords; ++i) {
    std::memcpy(data + i * sizeof(value), &value, sizeof(value));
  }
}

bool holds(const std::uint8_t* data, std::uint64_t value) {
  for (std::size_t i = 0; i < kWords; ++i) {
    std::uint64_t word = 0;
    std::memcpy(&word, data + i * sizeof(word), sizeof(word));
    if (word != value) {
      return false;
    }
  }
  return true;
}

void pause_for(std::chrono::microseconds d) {
  if (d.count() == 0) {
    return;
  }
  const auto until = Clock::now() + d;
  while (Clock::now() < until) {
    std::this_thread::yield();
  }
}

// Violations are counted on the worker threads; the first message is kept for the report.
class Violations {
 public:
  void add(const std::string& what) {
    if (count_.fetch_add(1) == 0) {
      const std::lock_guard<std::mutex> lock(mutex_);
      first_ = what;
    }
  }
  std::uint64_t count() const { return count_.load(); }
  std::string first() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

 private:
  std::atomic<std::uint64_t> count_{0};
  std::mutex mutex_;
  std::string first_;
};

class ImageBufferPoolStressTest : public ::testing::TestWithParam<StressConfig> {
 protected:
  bool move_owner(std::uint32_t slot, Owner from, Owner to) {
    // Relaxed on purpose: the markers detect double ownership through the CAS's single modification
    // order, but must not add happens-before edges that would hide a missing fence in the pool
    // from ThreadSanitizer.
    int expected = from;
    if (owner_[slot].compare_exchange_strong(expected, to, std::memory_order_relaxed)) {
      return true;
    }
    violations_.add("slot " + std::to_string(slot) + ": expected owner " + std::to_string(from) +
                    " -> " + std::to_string(to) + ", found " + std::to_string(expected));
    return false;
  }

  ImageBufferPool sut;
  std::unique_ptr<std::atomic<int>[]> owner_;
  Violations violations_;
};

TEST_P(ImageBufferPoolStressTest, ProducerAndConsumerRaceKeepsOwnershipAndCountsExact) {
  const StressConfig cfg = GetParam();
  ASSERT_EQ(sut.init(cfg.slots, kSlotBytes), Status::ok);
  owner_ = std::make_unique<std::atomic<int>[]>(cfg.slots);  // value-initialized: kFree

  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> last_published{0};  // sequence of the newest completed publish()
  std::atomic<std::uint64_t> reads_so_far{0};    // progress of the consumer, for the stop rule

  // Producer-side tallies (read after join).
  std::uint64_t write_acquires = 0;
  std::uint64_t publishes = 0;
  std::uint64_t abandons = 0;
  std::uint64_t observed_drops = 0;
  // Consumer-side tallies.
  std::uint64_t read_acquires = 0;
  std::uint64_t explicit_releases = 0;
  std::uint64_t implicit_releases = 0;  // old lease released inside a successful acquire_read
  std::uint64_t empty_reads = 0;

  const auto start = Clock::now();
  const auto deadline = start + cfg.duration;
  const auto hard_deadline = start + cfg.duration * kHardLimitFactor;
  const auto producer_should_stop = [&] {
    const auto now = Clock::now();
    if (now >= hard_deadline) {
      return true;
    }
    const bool enough_work = publishes >= cfg.max_frames || now >= deadline;
    return enough_work && reads_so_far.load(std::memory_order_relaxed) >= kMinReads;
  };

  std::thread producer([&] {
    std::uint32_t ready_slot = ImageBufferPool::kNoSlot;  // slot of our last publish
    std::uint64_t dropped_seen = 0;
    std::uint64_t iteration = 0;
    while (!producer_should_stop()) {
      ++iteration;
      WriteLease w;
      const Status st = sut.acquire_write(w);
      if (st != Status::ok) {  // one lease per side and >= 3 slots: never busy
        violations_.add(std::string("acquire_write returned ") + std::string(vg::to_string(st)));
        break;
      }
      ++write_acquires;
      const std::uint32_t slot = w.slot();
      move_owner(slot, kFree, kWriting);
      if (cfg.abandon_every > 0 && iteration % static_cast<std::uint64_t>(cfg.abandon_every) == 0) {
        fill(w.data(), ~std::uint64_t{0});  // garbage that must never be read
        move_owner(slot, kWriting, kFree);
        w.reset();
        ++abandons;
        continue;
      }
      const std::uint64_t sequence = publishes + 1;  // publish() numbers frames 1, 2, ...
      fill(w.data(), sequence);
      move_owner(slot, kWriting, kReady);
      if (sut.publish(std::move(w), static_cast<std::int64_t>(sequence * 10)) != Status::ok) {
        violations_.add("publish failed");
        break;
      }
      ++publishes;
      last_published.store(sequence, std::memory_order_release);

      // dropped_ is producer-written: exact here. A drop can only be our previous ready frame.
      const std::uint64_t dropped = sut.counters().dropped;
      if (dropped == dropped_seen + 1) {
        if (ready_slot == ImageBufferPool::kNoSlot || ready_slot == slot) {
          violations_.add("drop counted without a previous ready frame");
        } else {
          move_owner(ready_slot, kReady, kFree);
        }
        ++observed_drops;
      } else if (dropped != dropped_seen) {
        violations_.add("dropped jumped by more than one in a publish");
      }
      dropped_seen = dropped;
      ready_slot = slot;
      pause_for(cfg.producer_pause);
    }
    stop.store(true, std::memory_order_release);
  });

  std::thread consumer([&] {
    ReadLease r;
    std::uint64_t last_sequence = 0;
    std::uint64_t iteration = 0;
    while (true) {
      ++iteration;
      const bool producer_done = stop.load(std::memory_order_acquire);
      const std::uint32_t held = r.slot();
      if (r.valid() && iteration % 4 == 0) {  // sometimes release explicitly before acquiring
        move_owner(held, kReading, kFree);
        r.reset();
        ++explicit_releases;
      } else if (r.valid()) {  // otherwise a successful acquire_read releases it
        move_owner(held, kReading, kFree);
      }

      const std::uint64_t newest_before = last_published.load(std::memory_order_acquire);
      const Status st = cfg.blocking_reads ? sut.acquire_read(r, 20ms) : sut.acquire_read(r);
      if (st != Status::ok) {
        const Status expected = cfg.blocking_reads ? Status::timeout : Status::no_data;
        if (st != expected) {
          violations_.add(std::string("acquire_read returned ") + std::string(vg::to_string(st)));
          break;
        }
        ++empty_reads;
        if (last_sequence < newest_before) {
          violations_.add("no frame returned although sequence " + std::to_string(newest_before) +
                          " was published before the call and only " +
                          std::to_string(last_sequence) + " was read");
        }
        if (r.valid()) {  // no new frame: the old lease must still be ours
          if (r.slot() != held) {
            violations_.add("lease changed on a failed acquire_read");
          }
          move_owner(held, kFree, kReading);
        }
        if (producer_done) {
          break;  // the producer finished before this empty read: nothing more will come
        }
        if (!cfg.blocking_reads) {
          std::this_thread::yield();
        }
        continue;
      }
      ++read_acquires;
      reads_so_far.store(read_acquires, std::memory_order_relaxed);
      if (held != ImageBufferPool::kNoSlot && iteration % 4 != 0) {
        ++implicit_releases;
      }
      const std::uint32_t slot = r.slot();
      move_owner(slot, kReady, kReading);
      const std::uint64_t sequence = r.sequence();
      if (sequence <= last_sequence) {
        violations_.add("sequence not increasing: " + std::to_string(sequence) + " after " +
                        std::to_string(last_sequence));
      }
      if (sequence < newest_before) {
        violations_.add("stale frame " + std::to_string(sequence) + " although " +
                        std::to_string(newest_before) + " was published before the call");
      }
      if (r.timestamp_ns() != static_cast<std::int64_t>(sequence * 10)) {
        violations_.add("timestamp does not match sequence");
      }
      if (!holds(r.data(), sequence)) {
        violations_.add("frame content on acquire does not match sequence");
      }
      last_sequence = sequence;
      pause_for(cfg.consumer_hold);  // slow consumer: the producer keeps publishing meanwhile
      if (!holds(r.data(), sequence)) {
        violations_.add("frame content changed while the consumer held it");
      }
    }
    if (r.valid()) {
      move_owner(r.slot(), kReading, kFree);
      r.reset();
      ++explicit_releases;
    }
  });

  producer.join();
  consumer.join();

  EXPECT_EQ(violations_.count(), 0u) << "first violation: " << violations_.first();

  // Every acquire ended in exactly one release.
  EXPECT_EQ(write_acquires, publishes + abandons);
  const ImageBufferPool::Counters c = sut.counters();
  const std::uint64_t pending = c.pending ? 1 : 0;
  EXPECT_EQ(read_acquires, explicit_releases + implicit_releases);
  EXPECT_EQ(sut.free_slots() + pending, cfg.slots);

  // Counters add up exactly.
  EXPECT_EQ(c.published, publishes);
  EXPECT_EQ(c.consumed, read_acquires);
  EXPECT_EQ(c.dropped, observed_drops);
  EXPECT_EQ(c.published, c.consumed + c.dropped + pending);

  // Markers agree with the pool at rest: everything free except the pending frame.
  std::size_t ready_markers = 0;
  for (std::size_t i = 0; i < cfg.slots; ++i) {
    const int o = owner_[i].load();
    EXPECT_TRUE(o == kFree || o == kReady) << "slot " << i << " owner " << o;
    ready_markers += o == kReady;
  }
  EXPECT_EQ(ready_markers, pending);

  // The race actually happened.
  EXPECT_GT(publishes, 100u);
  EXPECT_GE(read_acquires, kMinReads);
  RecordProperty("published", std::to_string(c.published));
  RecordProperty("consumed", std::to_string(c.consumed));
  RecordProperty("dropped", std::to_string(c.dropped));
  std::printf("[ stats    ] %s: published %llu consumed %llu dropped %llu abandoned %llu "
              "empty reads %llu\n",
              cfg.name, static_cast<unsigned long long>(c.published),
              static_cast<unsigned long long>(c.consumed),
              static_cast<unsigned long long>(c.dropped),
              static_cast<unsigned long long>(abandons),
              static_cast<unsigned long long>(empty_reads));
}

INSTANTIATE_TEST_SUITE_P(
    LatestWins, ImageBufferPoolStressTest,
    ::testing::Values(
        // Fast producer, slow polling consumer, tightest pool: most frames are dropped.
        StressConfig{"FastProducerSlowConsumerThreeSlots", 3, 0us, 200us, false, 7, 1500ms,
                     2'000'000},
        // Same with more slots and a blocking consumer.
        StressConfig{"FastProducerSlowBlockingConsumerEightSlots", 8, 0us, 100us, true, 5, 1500ms,
                     2'000'000},
        // Consumer keeps up: mostly consumed, blocking reads with wakeups, some timeouts.
        StressConfig{"PacedProducerFastBlockingConsumer", 3, 50us, 0us, true, 0, 1000ms, 2'000'000},
        // Both sides as fast as possible: maximum contention on latest_ and the free set.
        StressConfig{"UnpacedBothSidesThreeSlots", 3, 0us, 0us, false, 3, 1000ms, 2'000'000}),
    [](const ::testing::TestParamInfo<StressConfig>& info) {
      return std::string(info.param.name);
    });

}  // namespace
