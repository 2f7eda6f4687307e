#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "visiongraph/runtime/bounded_queue.hpp"

namespace {

TEST(BoundedQueueTest, CapacityRoundsUpToPowerOfTwo) {
  vg::BoundedQueue<int> sut(5);
  EXPECT_EQ(sut.capacity(), 8u);
}

TEST(BoundedQueueTest, TryPopFailsWhenEmpty) {
  vg::BoundedQueue<int> sut(4);
  int v = 0;
  EXPECT_FALSE(sut.try_pop(v));
}

TEST(BoundedQueueTest, TryPushFailsWhenFullAndKeepsFifoOrder) {
  vg::BoundedQueue<int> sut(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(sut.try_push(i));
  EXPECT_FALSE(sut.try_push(99));
  for (int i = 0; i < 4; ++i) {
    int v = -1;
    ASSERT_TRUE(sut.try_pop(v));
    EXPECT_EQ(v, i);
  }
  EXPECT_TRUE(sut.try_push(5));
}

TEST(BoundedQueueStressTest, ManyProducersManyConsumersLoseNothing) {
  vg::BoundedQueue<std::uint64_t> sut(64);
  constexpr int kProducers = 3, kPerProducer = 20000;
  std::atomic<std::uint64_t> sum{0}, popped{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p)
    threads.emplace_back([&, p] {
      for (int i = 1; i <= kPerProducer; ++i)
        while (!sut.try_push(static_cast<std::uint64_t>(p) * 1000000 + i)) std::this_thread::yield();
    });
  for (int c = 0; c < 2; ++c)
    threads.emplace_back([&] {
      std::uint64_t v;
      while (popped.load() < kProducers * kPerProducer) {
        if (sut.try_pop(v)) {
          sum += v;
          ++popped;
        } else {
          std::this_thread::yield();
        }
      }
    });
  for (auto& t : threads) t.join();
  std::uint64_t expected = 0;
  for (int p = 0; p < kProducers; ++p)
    for (int i = 1; i <= kPerProducer; ++i) expected += static_cast<std::uint64_t>(p) * 1000000 + i;
  EXPECT_EQ(sum.load(), expected);
}

}  // namespace
