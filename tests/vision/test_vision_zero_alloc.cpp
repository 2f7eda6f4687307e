// After verify, a graph of vg.vision kernels (virtual intermediates, streamed and called frame by frame)
// and the threshold command make no heap allocation.
#include <gtest/gtest.h>

#include <chrono>

#include "alloc_counter.hpp"
#include "vision_graph.hpp"

namespace {

using namespace std::chrono_literals;

TEST(VisionZeroAlloc, AGraphOfVisionKernelsAndItsCommandAllocateNothing) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::vision::test::VisionGraph vg_(ctx, 640, 480, /*virtual_stages=*/true);
  vg_.g.verify();
  vg_.fill_frame();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(vg_.g.process(), vg::Status::ok);  // warm up
  vg::CommandReply reply;
  int failures = 0;
  vg::test::AllocationGuard guard;
  for (int i = 0; i < 50; ++i) {
    if (vg_.g.process() != vg::Status::ok) ++failures;
    if (i % 10 == 3 &&
        vg_.g.send_command(vg_.threshold, vg::ControlCommand::make(vg::vision::kSetThreshold, std::int64_t{100 + i}), 1s, &reply) !=
            vg::Status::ok) {
      ++failures;
    }
  }
  const long allocations = guard.stop();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
