// After verify, the vg.detection kernels' process and control make no heap allocation (whole graph).
#include <gtest/gtest.h>

#include <chrono>

#include "alloc_counter.hpp"
#include "kernel_graphs.hpp"
#include "visiongraph/kernels/detection/detections.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg::detection;  // NOLINT: test brevity
using vg::detection::test::DetectionGraph;

struct Case {
  const char* name;
  const char* decoder;
  synthetic::Model (*make)();
  bool int8;
};

synthetic::Model make_bf() { return synthetic::blazeface(); }
synthetic::Model make_v5() { return synthetic::yolov5_heads(); }
synthetic::Model make_v8() { return synthetic::yolov8_branches(true); }
synthetic::Model make_v8_cols() { return synthetic::yolov8_columns(); }

class DetectionKernelsZeroAllocTest : public ::testing::TestWithParam<Case> {};

TEST_P(DetectionKernelsZeroAllocTest, ProcessAndCommandsOfAllThreeKernelsAllocateNothing) {
  const Case c = GetParam();
  vg::Context ctx;
  ctx.load_module(make_detection_module());
  const synthetic::Model model = c.make();
  DetectionGraph dg(ctx, model, c.int8, c.decoder, 1280, 720);
  dg.g.set_attribute(dg.postprocess, "score_threshold", 0.3);
  dg.g.verify();
  dg.fill(model, c.int8);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(dg.g.process(), vg::Status::ok) << dg.g.last_error().describe();  // warm up

  vg::CommandReply reply;
  int failures = 0;
  std::uint64_t detections = 0;
  vg::test::AllocationGuard guard;
  for (int i = 0; i < 100; ++i) {
    if (dg.g.process() != vg::Status::ok) ++failures;
    detections += dg.g.user_data<DetectionPacket>(dg.detections)->count;
    if (i % 10 == 5) {
      const vg::ControlCommand cmds[] = {
          vg::ControlCommand::make(kCmdSetScoreThreshold, 0.3 + 0.01 * (i % 3)),
          vg::ControlCommand::make(kCmdSetIouThreshold, 0.5),
          vg::ControlCommand::make(kCmdSetMaxDet, std::int64_t{50 + i}),
          vg::ControlCommand::make_text(kCmdSetClassFilter, i % 20 == 5 ? "0,1,2,3,5,8,13,21,34,55" : ""),
          vg::ControlCommand::make(kCmdGetSettings)};
      for (const auto& cmd : cmds)
        if (dg.g.send_command(dg.postprocess, cmd, 1s, &reply) != vg::Status::ok) ++failures;
    }
  }
  const long allocations = guard.stop();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
  EXPECT_GT(detections, 0u);
}

INSTANTIATE_TEST_SUITE_P(Decoders, DetectionKernelsZeroAllocTest,
                         ::testing::Values(Case{"blazeface_f32", "blazeface", make_bf, false},
                                           Case{"blazeface_i8", "blazeface", make_bf, true},
                                           Case{"yolov5_i8", "yolov5", make_v5, true},
                                           Case{"yolov8_i8", "yolov8", make_v8, true},
                                           Case{"yolov8_onnx_f32", "yolov8", make_v8_cols, false}),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
