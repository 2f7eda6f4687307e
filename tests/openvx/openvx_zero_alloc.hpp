#pragma once
// The zero-allocation check of the OpenVX suites: a verified graph runs some frames to warm up, then frames
// counted by the allocation counter (tests/support/alloc_counter.hpp), each of which must succeed and none
// of which may allocate. Call it inside ASSERT_NO_FATAL_FAILURE: a failing warm-up frame ends the test.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include "alloc_counter.hpp"

namespace vg_openvx_test {

inline void expect_frames_allocate_nothing(vx_graph graph, int warm_up, int frames) {
  for (int f = 0; f < warm_up; ++f) ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << "warm-up frame " << f;
  vg::test::arm_alloc_counter();
  bool ok = true;
  for (int f = 0; f < frames; ++f) ok = ok && vxProcessGraph(graph) == VX_SUCCESS;
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_TRUE(ok);
  EXPECT_EQ(counts.news, 0u);
  EXPECT_EQ(counts.mallocs, 0u);
}

}  // namespace vg_openvx_test
