// Handles that cannot be confused with a later object: the handle table behind every handle (its source
// is compiled into this test, where small layouts make its reuse, wrap and retire rules run quickly),
// and the C API refusing a released handle in every kind of call, whatever was created after it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include "handle_table.hpp"

namespace {

using vg::openvx::handles::HandleTable;
using vg::openvx::handles::Layout;

/// The slot index in @p handle of a table with @p index_bits index bits.
std::uint32_t index_of(std::uintptr_t handle, unsigned index_bits) {
  return static_cast<std::uint32_t>(handle >> 1) & ((std::uint32_t{1} << index_bits) - 1);
}

// Distinct addresses to enter (the table never reads them).
std::vector<int> g_objects(1 << 16);
void* object(std::size_t i) { return &g_objects[i % g_objects.size()]; }

// ---- the table on its own ----------------------------------------------------------------------------

TEST(OpenVxHandleTable, TheProcessLayoutFitsTheWordSize) {
  const Layout layout = vg::openvx::handles::default_layout();
  EXPECT_EQ(1 + layout.index_bits + layout.generation_bits + (sizeof(void*) >= 8 ? 9u : 0u), sizeof(void*) * 8);
  EXPECT_EQ(layout.reuse_after, 65536u);
  if (sizeof(void*) >= 8) {
    EXPECT_EQ(layout.marker, std::uintptr_t{0x1FF} << (sizeof(void*) * 8 - 9)) << "bits 55..63 set: outside user space";
    EXPECT_GE(layout.generation_bits, 28u);
  } else {
    EXPECT_EQ(layout.index_bits, 20u);
    EXPECT_EQ(layout.generation_bits, 11u);
  }
}

TEST(OpenVxHandleTable, AHandleIsTaggedAndNamesItsObjectWhileLive) {
  HandleTable table(vg::openvx::handles::default_layout());
  const std::uintptr_t h = table.add(object(1));
  ASSERT_NE(h, 0u);
  EXPECT_EQ(h & 1u, 1u) << "never an aligned pointer";
  if (sizeof(void*) >= 8) {
    EXPECT_EQ(h >> 55, 0x1FFu) << "a dereference faults";
  }
  EXPECT_EQ(table.find(h), object(1));
  EXPECT_EQ(table.find(h & ~std::uintptr_t{1}), nullptr) << "the untagged value is no handle";
  EXPECT_EQ(table.find(h ^ (std::uintptr_t{1} << 40)), nullptr);
  EXPECT_EQ(table.find(0), nullptr);
  EXPECT_EQ(table.find(reinterpret_cast<std::uintptr_t>(object(1))), nullptr) << "an address is no handle";
  table.remove(h);
  EXPECT_EQ(table.find(h), nullptr);
  table.remove(h);  // stale: nothing happens
  EXPECT_EQ(table.free_slots(), 1u);
}

// Free slots come back oldest first, and only while at least reuse_after of them wait: the table grows
// until then.
TEST(OpenVxHandleTable, SlotsComeBackInOrderOnlyAfterEnoughWait) {
  HandleTable table(Layout{8, 4, 0, 4, 2});
  std::vector<std::uintptr_t> handles;
  for (int i = 0; i < 6; ++i) handles.push_back(table.add(object(i)));
  for (std::uintptr_t h : handles) table.remove(h);  // slots 0..5 free, in that order
  EXPECT_EQ(table.slots(), 6u);
  // Six free slots wait (at least four): 0, 1 and 2 come back, in order; then three wait, so new slots.
  const std::uint32_t expected[] = {0, 1, 2, 6, 7};
  for (std::uint32_t want : expected) {
    const std::uintptr_t h = table.add(object(want + 100));
    EXPECT_EQ(index_of(h, 8), want);
    EXPECT_EQ(table.find(h), object(want + 100));
  }
  EXPECT_EQ(table.slots(), 8u);
  EXPECT_EQ(table.free_slots(), 3u);
  for (std::uintptr_t h : handles) EXPECT_EQ(table.find(h), nullptr) << "a stale handle of a reused slot";
}

// A slot whose generation would wrap retires; retired slots come back (at generation 0) only when the
// index space is used up, and a stale handle matches again only after its slot went through every
// generation: here 4 generations, each reuse at least reuse_after - 1 = 3 releases after the last.
TEST(OpenVxHandleTable, GenerationsWrapOnlyAfterTheSlotRetiredAndTheTableFilledUp) {
  const Layout small{3, 2, 0, 4, 3};  // 8 slots, 4 generations
  HandleTable table(small);
  const std::uintptr_t first = table.add(object(0));
  table.remove(first);
  std::set<std::uintptr_t> seen{first};
  std::size_t creations = 0, matched_after = 0, most_retired = 0;
  for (int i = 1; i < 400 && matched_after == 0; ++i) {
    const std::uintptr_t h = table.add(object(i));
    ASSERT_NE(h, 0u) << "no slot at creation " << i;
    ++creations;
    if (h == first) matched_after = creations;
    if (h != first) {
      EXPECT_EQ(table.find(first), nullptr);
    }
    most_retired = std::max(most_retired, table.retired_slots());
    table.remove(h);
  }
  EXPECT_GT(most_retired, 0u) << "a slot at its last generation retires";
  ASSERT_GT(matched_after, 0u) << "slots come back once the index space is used up";
  // All 8 slots went through their 4 generations before any came back at generation 0: 8 x 4 handles.
  EXPECT_GE(matched_after, 8u * 4u - 1u);
  EXPECT_GE(matched_after, 4u * (small.reuse_after - 1));
}

TEST(OpenVxHandleTable, ATableFullOfLiveObjectsRefusesMore) {
  HandleTable table(Layout{2, 4, 0, 1, 2});
  std::vector<std::uintptr_t> handles;
  for (int i = 0; i < 4; ++i) {
    handles.push_back(table.add(object(i)));
    ASSERT_NE(handles.back(), 0u);
  }
  EXPECT_EQ(table.add(object(9)), 0u);
  table.remove(handles[2]);
  const std::uintptr_t again = table.add(object(9));
  EXPECT_EQ(index_of(again, 2), 2u);
  EXPECT_NE(again, handles[2]);
  EXPECT_EQ(table.find(again), object(9));
}

TEST(OpenVxHandleTable, ConcurrentAddFindRemoveNeverGivesAnotherObject) {
  HandleTable table(Layout{16, 8, 0, 64, 6});
  std::atomic<std::uintptr_t> last_released{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        void* mine = object(static_cast<std::size_t>(t) * 16384 + static_cast<std::size_t>(i % 16384));
        const std::uintptr_t h = table.add(mine);
        if (h == 0 || table.find(h) != mine) ++wrong;
        // Another thread's released handle names nothing, whatever was added since.
        if (const std::uintptr_t stale = last_released.load(); stale != 0 && table.find(stale) != nullptr) ++wrong;
        table.remove(h);
        if (table.find(h) != nullptr) ++wrong;
        last_released.store(h);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
