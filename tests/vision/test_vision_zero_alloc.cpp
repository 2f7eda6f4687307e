// After verify, graphs of vg.vision kernels (virtual intermediates, called frame by frame) and the threshold
// command make no heap allocation.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

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

// The kernels over the rest of the library, chained: channel_extract -> scale -> convolve -> half-scale
// Gaussian -> equalize_hist -> table_lookup -> warp_affine, the feature kernels on the scaled image, and
// rgb24 -> nv12 -> rgb24 beside them.
TEST(VisionZeroAlloc, AGraphOfTheGeometryAndPixelKernelsAllocatesNothing) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::Graph g(ctx, "library");
  const vg::DataId frame = g.add_data("frame", vg::DataMeta::image_of(640, 480, vg::ImageFormat::rgb24));
  vg::DataId previous = frame;
  auto stage = [&](const char* name, const char* kernel, bool last = false) {
    const vg::DataId out = last ? g.add_data(name, vg::DataMeta::image_of(100, 80, vg::ImageFormat::gray8)) : g.add_virtual(name, vg::DataKind::image);
    const vg::NodeId n = g.add_node(name, kernel);
    g.bind(n, "input", previous).bind(n, "output", out);
    previous = out;
    return n;
  };
  stage("green", "vg.vision.channel_extract");
  const vg::NodeId scale = stage("scaled", "vg.vision.scale");
  g.set_attribute(scale, "width", std::int64_t{400}).set_attribute(scale, "height", std::int64_t{300});
  g.set_attribute(stage("sharpened", "vg.vision.convolve"), "coefficients", std::vector<double>{0, -1, 0, -1, 5, -1, 0, -1, 0});
  stage("half", "vg.vision.half_scale_gaussian");
  stage("equalized", "vg.vision.equalize_hist");
  std::vector<double> gamma(256);
  for (int v = 0; v < 256; ++v) gamma[static_cast<std::size_t>(v)] = static_cast<double>(v * v / 255);
  g.set_attribute(stage("curved", "vg.vision.table_lookup"), "table", gamma);
  const vg::NodeId warp = stage("warped", "vg.vision.warp_affine", true);
  g.set_attribute(warp, "matrix", std::vector<double>{1.5, 0.1, 10, -0.1, 1.5, 5}).set_attribute(warp, "width", std::int64_t{100});
  g.set_attribute(warp, "height", std::int64_t{80});
  // The feature kernels on the scaled image: Canny -> HoughLinesP, FAST, Harris and LBP.
  auto feature = [&](const char* name, const char* kernel, vg::DataId input, const char* out_param) {
    const vg::DataId out = g.add_virtual(name, std::string(out_param) == "output" ? vg::DataKind::image : vg::DataKind::array);
    const vg::NodeId n = g.add_node(name, kernel);
    g.bind(n, "input", input).bind(n, out_param, out);
    return out;
  };
  const vg::DataId scaled = g.find_data("scaled");
  const vg::DataId edges = feature("edges", "vg.vision.canny", scaled, "output");
  feature("segments", "vg.vision.hough_lines", edges, "lines");
  feature("fast", "vg.vision.fast_corners", scaled, "corners");
  feature("harris", "vg.vision.harris_corners", scaled, "corners");
  feature("patterns", "vg.vision.lbp", scaled, "output");
  previous = frame;
  stage("nv12", "vg.vision.color_convert");
  const vg::DataId rgb = g.add_data("rgb", vg::DataMeta::image_of(640, 480, vg::ImageFormat::rgb24));
  const vg::NodeId back = g.add_node("back", "vg.vision.color_convert");
  g.bind(back, "input", previous).bind(back, "output", rgb);
  g.verify();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();  // warm up
  int failures = 0;
  vg::test::AllocationGuard guard;
  for (int i = 0; i < 20; ++i)
    if (g.process() != vg::Status::ok) ++failures;
  const long allocations = guard.stop();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
