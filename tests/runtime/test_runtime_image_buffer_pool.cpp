// Unit tests of vg::ImageBufferPool: init boundaries, lease ownership, latest-wins, counters,
// blocking reads and the zero-allocation hot path.

#include "visiongraph/runtime/image_buffer_pool.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <set>
#include <thread>
#include <utility>
#include <vector>

// Allocation counting: vg_test_alloc_counter (tests/support) replaces operator new for this binary.
#include "alloc_counter.hpp"

namespace {

using vg::ImageBufferPool;
using vg::Status;
using WriteLease = ImageBufferPool::WriteLease;
using ReadLease = ImageBufferPool::ReadLease;
using namespace std::chrono_literals;

constexpr std::size_t kSlotBytes = 100;  // deliberately not a multiple of the alignment

class ImageBufferPoolTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(sut.init(3, kSlotBytes), Status::ok); }

  // Acquire, fill with @p fill, publish. Returns the slot index used.
  std::uint32_t publish_frame(std::uint8_t fill, std::int64_t timestamp_ns) {
    WriteLease w;
    EXPECT_EQ(sut.acquire_write(w), Status::ok);
    const std::uint32_t slot = w.slot();
    std::memset(w.data(), fill, w.size());
    EXPECT_EQ(sut.publish(std::move(w), timestamp_ns), Status::ok);
    return slot;
  }

  void expect_invariant() {
    const ImageBufferPool::Counters c = sut.counters();
    EXPECT_EQ(c.published, c.consumed + c.dropped + (c.pending ? 1u : 0u));
  }

  ImageBufferPool sut;
};

// ---- init ---------------------------------------------------------------------------------------

TEST(ImageBufferPoolInitTest, InitFailsWhenSlotCountIsBelowMinimum) {
  ImageBufferPool sut;
  EXPECT_EQ(sut.init(0, 16), Status::invalid_argument);
  EXPECT_EQ(sut.init(2, 16), Status::invalid_argument);
  EXPECT_EQ(sut.slot_count(), 0u);
}

TEST(ImageBufferPoolInitTest, InitSucceedsWithExactlyMinimumAndMaximumSlotCount) {
  ImageBufferPool min_pool;
  ImageBufferPool max_pool;
  EXPECT_EQ(min_pool.init(ImageBufferPool::kMinSlots, 16), Status::ok);
  EXPECT_EQ(max_pool.init(ImageBufferPool::kMaxSlots, 16), Status::ok);
  EXPECT_EQ(min_pool.free_slots(), ImageBufferPool::kMinSlots);
  EXPECT_EQ(max_pool.free_slots(), ImageBufferPool::kMaxSlots);
}

TEST(ImageBufferPoolInitTest, InitFailsWhenSlotCountIsAboveMaximum) {
  ImageBufferPool sut;
  EXPECT_EQ(sut.init(ImageBufferPool::kMaxSlots + 1, 16), Status::invalid_argument);
}

TEST(ImageBufferPoolInitTest, InitFailsWhenSlotBytesIsZeroOrAlignmentIsInvalid) {
  ImageBufferPool sut;
  EXPECT_EQ(sut.init(3, 0), Status::invalid_argument);
  EXPECT_EQ(sut.init(3, 16, 0), Status::invalid_argument);
  EXPECT_EQ(sut.init(3, 16, 48), Status::invalid_argument);
}

TEST(ImageBufferPoolInitTest, InitFailsWhenSizeOverflows) {
  ImageBufferPool sut;
  EXPECT_EQ(sut.init(3, SIZE_MAX), Status::invalid_argument);
  EXPECT_EQ(sut.init(4, SIZE_MAX / 2), Status::invalid_argument);
}

TEST(ImageBufferPoolInitTest, InitFailsWhenCalledTwice) {
  ImageBufferPool sut;
  ASSERT_EQ(sut.init(3, 16), Status::ok);
  EXPECT_EQ(sut.init(4, 32), Status::busy);
  EXPECT_EQ(sut.slot_count(), 3u);
  EXPECT_EQ(sut.slot_bytes(), 16u);
}

TEST(ImageBufferPoolInitTest, OperationsFailWhenNotInitialized) {
  ImageBufferPool sut;
  WriteLease w;
  ReadLease r;
  EXPECT_EQ(sut.acquire_write(w), Status::not_verified);
  EXPECT_EQ(sut.acquire_read(r), Status::not_verified);
  EXPECT_EQ(sut.acquire_read(r, 1ms), Status::not_verified);
  EXPECT_EQ(sut.publish(WriteLease{}, 0), Status::invalid_argument);
  EXPECT_EQ(sut.slot_data(0), nullptr);
  EXPECT_FALSE(sut.has_ready());
}

TEST(ImageBufferPoolInitTest, InitAllocatesAlignedDisjointSlots) {
  ImageBufferPool sut;
  ASSERT_EQ(sut.init(5, 100, 256), Status::ok);
  for (std::size_t i = 0; i < sut.slot_count(); ++i) {
    const auto addr = reinterpret_cast<std::uintptr_t>(sut.slot_data(i));
    EXPECT_EQ(addr % 256, 0u) << "slot " << i;
    if (i > 0) {
      EXPECT_GE(addr - reinterpret_cast<std::uintptr_t>(sut.slot_data(i - 1)), 100u);
    }
  }
  EXPECT_EQ(sut.slot_data(5), nullptr);
}

TEST(ImageBufferPoolInitTest, InitWithUserSpansUsesTheGivenMemory) {
  std::array<std::array<std::uint8_t, 32>, 4> memory{};
  const std::array<std::span<std::uint8_t>, 4> spans{memory[0], memory[1], memory[2], memory[3]};
  ImageBufferPool sut;
  ASSERT_EQ(sut.init(spans), Status::ok);
  EXPECT_EQ(sut.slot_count(), 4u);
  EXPECT_EQ(sut.slot_bytes(), 32u);
  WriteLease w;
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  EXPECT_EQ(w.data(), memory[w.slot()].data());
  EXPECT_EQ(w.size(), 32u);
}

TEST(ImageBufferPoolInitTest, InitWithUserSpansFailsWhenSpansAreInvalid) {
  std::array<std::uint8_t, 256> memory{};
  const std::span<std::uint8_t> all(memory);
  {
    const std::array<std::span<std::uint8_t>, 2> too_few{all.subspan(0, 32), all.subspan(32, 32)};
    ImageBufferPool sut;
    EXPECT_EQ(sut.init(too_few), Status::invalid_argument);
  }
  {
    const std::array<std::span<std::uint8_t>, 3> unequal{all.subspan(0, 32), all.subspan(32, 32),
                                                         all.subspan(64, 16)};
    ImageBufferPool sut;
    EXPECT_EQ(sut.init(unequal), Status::invalid_argument);
  }
  {
    const std::array<std::span<std::uint8_t>, 3> overlapping{
        all.subspan(0, 32), all.subspan(32, 32), all.subspan(63, 32)};
    ImageBufferPool sut;
    EXPECT_EQ(sut.init(overlapping), Status::invalid_argument);
  }
  {
    const std::array<std::span<std::uint8_t>, 3> null_span{all.subspan(0, 32), all.subspan(32, 32),
                                                           std::span<std::uint8_t>{}};
    ImageBufferPool sut;
    EXPECT_EQ(sut.init(null_span), Status::invalid_argument);
  }
  {
    const std::array<std::span<std::uint8_t>, 3> adjacent{all.subspan(0, 32), all.subspan(32, 32),
                                                          all.subspan(64, 32)};
    ImageBufferPool sut;
    EXPECT_EQ(sut.init(adjacent), Status::ok);
  }
}

// ---- leases -------------------------------------------------------------------------------------

TEST(ImageBufferPoolLeaseTest, EmptyLeasesExposeNothing) {
  const WriteLease w;
  const ReadLease r;
  EXPECT_FALSE(w.valid());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(w.data(), nullptr);
  EXPECT_EQ(r.data(), nullptr);
  EXPECT_EQ(w.size(), 0u);
  EXPECT_EQ(r.size(), 0u);
  EXPECT_EQ(w.slot(), ImageBufferPool::kNoSlot);
  EXPECT_EQ(r.slot(), ImageBufferPool::kNoSlot);
  EXPECT_EQ(r.sequence(), 0u);
  EXPECT_EQ(r.timestamp_ns(), 0);
}

TEST_F(ImageBufferPoolTest, AcquireWriteReturnsWritableSlotOfFullSize) {
  WriteLease w;
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  ASSERT_TRUE(w.valid());
  EXPECT_LT(w.slot(), 3u);
  EXPECT_EQ(w.size(), kSlotBytes);
  EXPECT_EQ(w.data(), sut.slot_data(w.slot()));
  EXPECT_EQ(w.bytes().size(), kSlotBytes);
  std::memset(w.data(), 0xAB, w.size());
  EXPECT_EQ(sut.free_slots(), 2u);
}

TEST_F(ImageBufferPoolTest, WriteLeaseDestroyedWithoutPublishReturnsSlotToFree) {
  {
    WriteLease w;
    ASSERT_EQ(sut.acquire_write(w), Status::ok);
    EXPECT_EQ(sut.free_slots(), 2u);
  }
  EXPECT_EQ(sut.free_slots(), 3u);
  EXPECT_FALSE(sut.has_ready());
  EXPECT_EQ(sut.counters().published, 0u);
}

TEST_F(ImageBufferPoolTest, WriteLeaseResetReturnsSlotAndEmptiesLease) {
  WriteLease w;
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  w.reset();
  EXPECT_FALSE(w.valid());
  EXPECT_EQ(sut.free_slots(), 3u);
  w.reset();  // idempotent
  EXPECT_EQ(sut.free_slots(), 3u);
}

TEST_F(ImageBufferPoolTest, WriteLeaseMoveTransfersOwnership) {
  WriteLease a;
  ASSERT_EQ(sut.acquire_write(a), Status::ok);
  const std::uint32_t slot = a.slot();
  std::uint8_t* data = a.data();

  WriteLease b(std::move(a));
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(a.slot(), ImageBufferPool::kNoSlot);
  ASSERT_TRUE(b.valid());
  EXPECT_EQ(b.slot(), slot);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(sut.free_slots(), 2u);

  WriteLease c;
  c = std::move(b);
  EXPECT_FALSE(b.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(c.slot(), slot);
  EXPECT_EQ(sut.free_slots(), 2u);

  WriteLease& alias = c;
  c = std::move(alias);  // self-move keeps the slot
  EXPECT_TRUE(c.valid());
  EXPECT_EQ(sut.free_slots(), 2u);
}

TEST_F(ImageBufferPoolTest, WriteLeaseMoveAssignReleasesPreviouslyHeldSlot) {
  WriteLease a;
  WriteLease b;
  ASSERT_EQ(sut.acquire_write(a), Status::ok);
  ASSERT_EQ(sut.acquire_write(b), Status::ok);
  EXPECT_EQ(sut.free_slots(), 1u);
  a = std::move(b);
  EXPECT_EQ(sut.free_slots(), 2u);
  EXPECT_TRUE(a.valid());
}

TEST_F(ImageBufferPoolTest, AcquireWriteReleasesWhatTheOutLeaseHeld) {
  WriteLease w;
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  EXPECT_EQ(sut.free_slots(), 2u);
}

TEST_F(ImageBufferPoolTest, ReadLeaseDestroyedReturnsSlotToFree) {
  publish_frame(1, 10);
  {
    ReadLease r;
    ASSERT_EQ(sut.acquire_read(r), Status::ok);
    EXPECT_EQ(sut.free_slots(), 2u);
  }
  EXPECT_EQ(sut.free_slots(), 3u);
}

TEST_F(ImageBufferPoolTest, ReadLeaseMoveTransfersOwnershipAndMetadata) {
  const std::uint32_t slot = publish_frame(7, 1234);
  ReadLease a;
  ASSERT_EQ(sut.acquire_read(a), Status::ok);
  ReadLease b(std::move(a));
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.sequence(), 0u);
  EXPECT_EQ(b.slot(), slot);
  EXPECT_EQ(b.sequence(), 1u);
  EXPECT_EQ(b.timestamp_ns(), 1234);
  EXPECT_EQ(b.data()[0], 7);
  EXPECT_EQ(sut.free_slots(), 2u);

  ReadLease c;
  c = std::move(b);
  EXPECT_EQ(c.slot(), slot);
  EXPECT_EQ(sut.free_slots(), 2u);
  c.reset();
  EXPECT_EQ(sut.free_slots(), 3u);
}

// ---- publish / read -----------------------------------------------------------------------------

TEST_F(ImageBufferPoolTest, AcquireReadReturnsNoDataWhenNothingPublished) {
  ReadLease r;
  EXPECT_EQ(sut.acquire_read(r), Status::no_data);
  EXPECT_FALSE(r.valid());
}

TEST_F(ImageBufferPoolTest, AcquireReadReturnsPublishedFrameWithMetadata) {
  const std::uint32_t slot = publish_frame(0x5A, 987654321);
  EXPECT_TRUE(sut.has_ready());
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(r.slot(), slot);
  EXPECT_EQ(r.sequence(), 1u);
  EXPECT_EQ(r.timestamp_ns(), 987654321);
  ASSERT_EQ(r.size(), kSlotBytes);
  for (std::uint8_t byte : r.bytes()) {
    ASSERT_EQ(byte, 0x5A);
  }
  EXPECT_EQ(r.mutable_data(), r.data());
  EXPECT_FALSE(sut.has_ready());
}

TEST_F(ImageBufferPoolTest, AcquireReadReturnsNoDataWhenNothingNewSinceLastRead) {
  publish_frame(1, 1);
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(sut.acquire_read(r), Status::no_data);
  r.reset();
  EXPECT_EQ(sut.acquire_read(r), Status::no_data);
}

TEST_F(ImageBufferPoolTest, AcquireReadKeepsPreviousLeaseWhenNoData) {
  const std::uint32_t slot = publish_frame(3, 30);
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(sut.acquire_read(r), Status::no_data);
  ASSERT_TRUE(r.valid());
  EXPECT_EQ(r.slot(), slot);
  EXPECT_EQ(r.sequence(), 1u);
  EXPECT_EQ(sut.free_slots(), 2u);
}

TEST_F(ImageBufferPoolTest, AcquireReadReleasesPreviousLeaseWhenNewFrameArrives) {
  publish_frame(1, 1);
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  publish_frame(2, 2);
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(r.sequence(), 2u);
  EXPECT_EQ(sut.free_slots(), 2u);  // only the new frame is held
}

TEST_F(ImageBufferPoolTest, PublishAssignsIncreasingSequenceNumbers) {
  ReadLease r;
  for (std::uint64_t i = 1; i <= 10; ++i) {
    publish_frame(static_cast<std::uint8_t>(i), static_cast<std::int64_t>(i * 1000));
    ASSERT_EQ(sut.acquire_read(r), Status::ok);
    EXPECT_EQ(r.sequence(), i);
    EXPECT_EQ(r.timestamp_ns(), static_cast<std::int64_t>(i * 1000));
    EXPECT_EQ(r.data()[0], static_cast<std::uint8_t>(i));
  }
  EXPECT_EQ(sut.counters().consumed, 10u);
  EXPECT_EQ(sut.counters().dropped, 0u);
}

TEST_F(ImageBufferPoolTest, PublishWithoutConsumeDropsOlderFrame) {
  const std::uint32_t first = publish_frame(1, 100);
  const std::uint32_t second = publish_frame(2, 200);
  EXPECT_NE(first, second);
  ImageBufferPool::Counters c = sut.counters();
  EXPECT_EQ(c.published, 2u);
  EXPECT_EQ(c.dropped, 1u);
  EXPECT_EQ(c.consumed, 0u);
  EXPECT_TRUE(c.pending);
  EXPECT_EQ(sut.free_slots(), 2u);  // the dropped slot went back to the free set

  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(r.slot(), second);
  EXPECT_EQ(r.sequence(), 2u);
  EXPECT_EQ(r.timestamp_ns(), 200);
  EXPECT_EQ(r.data()[0], 2);
  expect_invariant();
}

TEST_F(ImageBufferPoolTest, AcquireReadReturnsNewestOfManyPublished) {
  for (int i = 1; i <= 50; ++i) {
    publish_frame(static_cast<std::uint8_t>(i), i);
  }
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  EXPECT_EQ(r.sequence(), 50u);
  EXPECT_EQ(r.data()[kSlotBytes - 1], 50);
  EXPECT_EQ(sut.counters().dropped, 49u);
  EXPECT_EQ(sut.acquire_read(r), Status::no_data);
  expect_invariant();
}

TEST_F(ImageBufferPoolTest, AcquireWriteNeverReturnsReadyOrConsumerHeldSlot) {
  // Three slots: every round the consumer holds one, one is ready; the producer must get the third.
  ReadLease r;
  for (int round = 0; round < 30; ++round) {
    const std::uint32_t ready = publish_frame(static_cast<std::uint8_t>(round), round);
    if (round % 3 == 0) {
      ASSERT_EQ(sut.acquire_read(r), Status::ok);
      ASSERT_EQ(r.slot(), ready);
      publish_frame(0xEE, -1);  // a new ready frame while the consumer holds one
    }
    WriteLease w;
    ASSERT_EQ(sut.acquire_write(w), Status::ok) << "round " << round;
    EXPECT_NE(w.slot(), r.slot());
    ASSERT_TRUE(sut.has_ready());
    ReadLease peek;  // the slot still ready must not be the one the producer holds
    ASSERT_EQ(sut.acquire_read(peek), Status::ok);
    EXPECT_NE(peek.slot(), w.slot());
    EXPECT_NE(peek.slot(), r.slot());
  }
  r.reset();
  expect_invariant();
}

TEST_F(ImageBufferPoolTest, AcquireWriteSucceedsWithThreeSlotsWhenEachSideHoldsOneLease) {
  publish_frame(1, 1);
  ReadLease r;
  ASSERT_EQ(sut.acquire_read(r), Status::ok);
  publish_frame(2, 2);  // ready
  WriteLease w;
  EXPECT_EQ(sut.acquire_write(w), Status::ok);
  EXPECT_EQ(sut.free_slots(), 0u);
}

TEST_F(ImageBufferPoolTest, AcquireWriteReturnsBusyWhenEverySlotIsHeld) {
  std::array<WriteLease, 3> held;
  for (WriteLease& w : held) {
    ASSERT_EQ(sut.acquire_write(w), Status::ok);
  }
  std::set<std::uint32_t> slots{held[0].slot(), held[1].slot(), held[2].slot()};
  EXPECT_EQ(slots.size(), 3u);
  WriteLease extra;
  EXPECT_EQ(sut.acquire_write(extra), Status::busy);
  EXPECT_FALSE(extra.valid());
  held[1].reset();
  EXPECT_EQ(sut.acquire_write(extra), Status::ok);
}

TEST_F(ImageBufferPoolTest, PublishFailsWithEmptyLease) {
  EXPECT_EQ(sut.publish(WriteLease{}, 5), Status::invalid_argument);
  EXPECT_FALSE(sut.has_ready());
  EXPECT_EQ(sut.counters().published, 0u);
}

TEST_F(ImageBufferPoolTest, PublishFailsWithLeaseOfAnotherPoolAndReleasesItThere) {
  ImageBufferPool other;
  ASSERT_EQ(other.init(3, 8), Status::ok);
  WriteLease foreign;
  ASSERT_EQ(other.acquire_write(foreign), Status::ok);
  EXPECT_EQ(sut.publish(std::move(foreign), 5), Status::invalid_argument);
  EXPECT_EQ(other.free_slots(), 3u);
  EXPECT_EQ(sut.free_slots(), 3u);
  EXPECT_FALSE(sut.has_ready());
  EXPECT_FALSE(other.has_ready());
}

TEST_F(ImageBufferPoolTest, PublishConsumesTheLease) {
  WriteLease w;
  ASSERT_EQ(sut.acquire_write(w), Status::ok);
  EXPECT_EQ(sut.publish(std::move(w), 1), Status::ok);
  EXPECT_FALSE(w.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(sut.free_slots(), 2u);  // the slot is ready, not free
}

TEST_F(ImageBufferPoolTest, CountersSatisfyInvariantAfterMixedSequence) {
  ReadLease r;
  std::uint64_t expect_consumed = 0;
  for (int i = 0; i < 200; ++i) {
    publish_frame(static_cast<std::uint8_t>(i), i);
    expect_invariant();
    if (i % 3 == 0 && sut.acquire_read(r) == Status::ok) {
      ++expect_consumed;
    }
    if (i % 7 == 0) {
      r.reset();
    }
    if (i % 5 == 0) {
      WriteLease abandoned;
      ASSERT_EQ(sut.acquire_write(abandoned), Status::ok);
    }
    expect_invariant();
  }
  const ImageBufferPool::Counters c = sut.counters();
  EXPECT_EQ(c.published, 200u);
  EXPECT_EQ(c.consumed, expect_consumed);
  EXPECT_EQ(c.dropped, 200u - expect_consumed - (c.pending ? 1u : 0u));
  r.reset();
  EXPECT_EQ(sut.free_slots() + (c.pending ? 1u : 0u), 3u);
}

// ---- blocking read ------------------------------------------------------------------------------

TEST_F(ImageBufferPoolTest, BlockingAcquireReadReturnsAtOnceWhenFrameIsReady) {
  publish_frame(9, 9);
  ReadLease r;
  EXPECT_EQ(sut.acquire_read(r, 10s), Status::ok);
  EXPECT_EQ(r.sequence(), 1u);
}

TEST_F(ImageBufferPoolTest, BlockingAcquireReadTimesOutWhenNothingIsPublished) {
  ReadLease r;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(sut.acquire_read(r, 30ms), Status::timeout);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 30ms);
  EXPECT_LT(elapsed, 5s);
  EXPECT_FALSE(r.valid());
}

TEST_F(ImageBufferPoolTest, BlockingAcquireReadWithNonPositiveTimeoutTriesOnce) {
  ReadLease r;
  EXPECT_EQ(sut.acquire_read(r, 0ns), Status::timeout);
  EXPECT_EQ(sut.acquire_read(r, -5ms), Status::timeout);
  publish_frame(1, 1);
  EXPECT_EQ(sut.acquire_read(r, 0ns), Status::ok);
}

TEST_F(ImageBufferPoolTest, BlockingAcquireReadWithHugeTimeoutDoesNotOverflow) {
  publish_frame(1, 1);
  ReadLease r;
  EXPECT_EQ(sut.acquire_read(r, std::chrono::nanoseconds::max()), Status::ok);
}

TEST_F(ImageBufferPoolTest, BlockingAcquireReadWakesWhenProducerPublishes) {
  std::thread producer([this] {
    std::this_thread::sleep_for(20ms);
    publish_frame(4, 44);
  });
  ReadLease r;
  const auto start = std::chrono::steady_clock::now();
  const Status status = sut.acquire_read(r, 10s);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  producer.join();
  ASSERT_EQ(status, Status::ok);
  EXPECT_EQ(r.sequence(), 1u);
  EXPECT_EQ(r.timestamp_ns(), 44);
  // Woken by the publish: well below the pool's 1 s re-check interval and the 10 s timeout.
  EXPECT_LT(elapsed, 900ms);
}

TEST_F(ImageBufferPoolTest, CloseWakesABlockedReaderAtOnceWithStopped) {
  std::thread closer([this] {
    std::this_thread::sleep_for(20ms);
    sut.close();
  });
  ReadLease r;
  const auto start = std::chrono::steady_clock::now();
  const Status status = sut.acquire_read(r, 10s);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  closer.join();
  EXPECT_EQ(status, Status::stopped);
  EXPECT_LT(elapsed, 900ms);  // woken by close(), not by the 1 s re-check
  EXPECT_FALSE(r.valid());
  EXPECT_TRUE(sut.is_closed());
  EXPECT_EQ(sut.acquire_read(r, 10s), Status::stopped);  // and every later blocking read
}

TEST_F(ImageBufferPoolTest, CloseRacingWithTheReaderNeverLeavesItAsleep) {
  // Many rounds of close() landing just before, during and after the reader goes to sleep.
  for (int round = 0; round < 200; ++round) {
    ImageBufferPool pool;
    ASSERT_EQ(pool.init(3, 64), Status::ok);
    std::thread closer([&pool, round] {
      if (round % 3 == 1) std::this_thread::yield();
      if (round % 3 == 2) std::this_thread::sleep_for(std::chrono::microseconds(50));
      pool.close();
    });
    ReadLease r;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(pool.acquire_read(r, 10s), Status::stopped);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 900ms) << "round " << round;
    closer.join();
  }
}

// ---- zero allocation ----------------------------------------------------------------------------

TEST_F(ImageBufferPoolTest, HotPathDoesNotAllocateAfterInit) {
  // Sanity: the counter sees allocations while armed.
  {
    vg::test::AllocationGuard probe_guard;
    void* volatile probe = ::operator new(16);  // a direct call is never elided, unlike `new int`
    ::operator delete(probe);
    ASSERT_EQ(probe_guard.stop(), 1);
  }

  std::size_t failures = 0;
  std::uint64_t last_sequence = 0;
  vg::test::AllocationGuard guard;
  {
    ReadLease r;
    for (int i = 0; i < 1000; ++i) {
      WriteLease w;
      failures += sut.acquire_write(w) != Status::ok;
      std::memset(w.data(), i & 0xFF, w.size());
      WriteLease moved = std::move(w);
      failures += sut.publish(std::move(moved), i) != Status::ok;
      if (i % 2 == 0) {
        failures += sut.acquire_read(r) != Status::ok;
        last_sequence = r.sequence();
      }
      if (i % 5 == 0) {
        ReadLease other;
        failures += sut.acquire_read(other, 0ns) == Status::not_verified;
        failures += sut.acquire_read(other, 1us) == Status::not_verified;
        ReadLease moved_read = std::move(other);
      }
      if (i % 11 == 0) {
        WriteLease abandoned;
        failures += sut.acquire_write(abandoned) != Status::ok;
      }
      const ImageBufferPool::Counters c = sut.counters();
      failures += c.published != c.consumed + c.dropped + (c.pending ? 1u : 0u);
      failures += sut.free_slots() > 3;
    }
  }
  EXPECT_EQ(guard.stop(), 0);
  EXPECT_EQ(failures, 0u);
  EXPECT_GT(last_sequence, 0u);
  EXPECT_EQ(sut.counters().published, 1000u);
}

}  // namespace
