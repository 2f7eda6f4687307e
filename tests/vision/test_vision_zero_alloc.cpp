// After verify, graphs of vg.vision kernels (virtual intermediates, called frame by frame) and the threshold
// command make no heap allocation.
#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <string>
#include <utility>
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
// Gaussian -> equalize_hist -> table_lookup -> warp_affine, the feature and measure kernels on the scaled
// image (FAST corners followed by optical flow, and the accumulations, among them), and rgb24 -> nv12 -> rgb24 beside them.
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
  const vg::DataId fast = feature("fast", "vg.vision.fast_corners", scaled, "corners");
  feature("harris", "vg.vision.harris_corners", scaled, "corners");
  feature("patterns", "vg.vision.lbp", scaled, "output");
  // The measure kernels on the scaled image: Sobel -> magnitude -> gray8, phase, integral, histogram,
  // statistics, extrema, template scores, and the two-image kernels on the scaled and sharpened images.
  auto node = [&](const char* name, const char* kernel, std::initializer_list<std::pair<const char*, vg::DataId>> bindings) {
    const vg::NodeId n = g.add_node(name, kernel);
    for (const auto& [param, data] : bindings) g.bind(n, param, data);
    return n;
  };
  const vg::DataId gx = g.add_virtual("gx", vg::DataKind::tensor), gy = g.add_virtual("gy", vg::DataKind::tensor);
  const vg::DataId magnitude = g.add_virtual("magnitude", vg::DataKind::tensor);
  node("sobel", "vg.vision.sobel3x3", {{"input", scaled}, {"grad_x", gx}, {"grad_y", gy}});
  node("magnitude", "vg.vision.magnitude", {{"grad_x", gx}, {"grad_y", gy}, {"output", magnitude}});
  node("magnitude8", "vg.vision.convert_depth_to_gray8", {{"input", magnitude}, {"output", g.add_virtual("magnitude8", vg::DataKind::image)}});
  node("phase", "vg.vision.phase", {{"grad_x", gx}, {"grad_y", gy}, {"output", g.add_virtual("angle", vg::DataKind::image)}});
  node("integral", "vg.vision.integral_image", {{"input", scaled}, {"output", g.add_virtual("sums", vg::DataKind::tensor)}});
  node("histogram", "vg.vision.histogram", {{"input", scaled}, {"output", g.add_virtual("bins", vg::DataKind::tensor)}});
  node("stats", "vg.vision.mean_stddev",
       {{"input", scaled}, {"mean", g.add_virtual("mean", vg::DataKind::scalar)}, {"stddev", g.add_virtual("stddev", vg::DataKind::scalar)}});
  node("extrema", "vg.vision.min_max_loc",
       {{"input", scaled}, {"min", g.add_virtual("min", vg::DataKind::scalar)}, {"max_locations", g.add_virtual("max_at", vg::DataKind::array)},
        {"min_count", g.add_virtual("min_count", vg::DataKind::scalar)}});
  const vg::DataId templ = g.add_data("template", vg::DataMeta::image_of(16, 12, vg::ImageFormat::gray8));
  node("match", "vg.vision.match_template", {{"input", scaled}, {"template", templ}, {"output", g.add_virtual("scores", vg::DataKind::tensor)}});
  const vg::DataId sharpened = g.find_data("sharpened");
  node("average", "vg.vision.weighted_average", {{"in1", scaled}, {"in2", sharpened}, {"out", g.add_virtual("average", vg::DataKind::image)}});
  node("min", "vg.vision.min", {{"in1", scaled}, {"in2", sharpened}, {"out", g.add_virtual("lower", vg::DataKind::image)}});
  node("max", "vg.vision.max", {{"in1", scaled}, {"in2", sharpened}, {"out", g.add_virtual("upper", vg::DataKind::image)}});
  const vg::DataId map = g.add_data("map", vg::DataMeta::tensor_of({120, 160, 2}, vg::ElementType::f32));
  node("remap", "vg.vision.remap", {{"input", scaled}, {"map", map}, {"output", g.add_virtual("remapped", vg::DataKind::image)}});
  node("bilateral", "vg.vision.bilateral_filter", {{"input", scaled}, {"output", g.add_virtual("smoothed", vg::DataKind::image)}});
  const vg::DataId coarse = g.add_virtual("coarse", vg::DataKind::image), detail = g.add_virtual("detail", vg::DataKind::tensor);
  node("laplacian", "vg.vision.laplacian_level", {{"input", scaled}, {"coarse", coarse}, {"laplacian", detail}});
  node("rebuilt", "vg.vision.laplacian_reconstruct_level", {{"coarse", coarse}, {"laplacian", detail}, {"output", g.add_virtual("rebuilt", vg::DataKind::image)}});
  // Control flow: the larger of the mean and the deviation, above 100 or not, picks one of two images.
  const vg::DataId larger = g.add_virtual("larger", vg::DataKind::scalar), bright = g.add_virtual("bright", vg::DataKind::scalar);
  const vg::DataId hundred = g.add_data("hundred", vg::DataMeta::scalar_of(vg::ElementType::f32));
  g.set_attribute(node("larger", "vg.vision.scalar_operation", {{"a", g.find_data("mean")}, {"b", g.find_data("stddev")}, {"out", larger}}),
                  "operation", std::string("max"));
  g.set_attribute(node("bright", "vg.vision.scalar_operation", {{"a", larger}, {"b", hundred}, {"out", bright}}), "operation",
                  std::string("greater"));
  node("choice", "vg.vision.select",
       {{"condition", bright}, {"true_value", scaled}, {"false_value", sharpened}, {"output", g.add_virtual("chosen", vg::DataKind::image)}});
  node("hog", "vg.vision.hog", {{"input", scaled}, {"features", g.add_virtual("hog", vg::DataKind::tensor)}});
  node("sum", "vg.vision.accumulate", {{"input", scaled}, {"output", g.add_virtual("sum", vg::DataKind::tensor)}});
  node("squares", "vg.vision.accumulate_squared", {{"input", scaled}, {"output", g.add_virtual("squares", vg::DataKind::tensor)}});
  node("background", "vg.vision.accumulate_weighted", {{"input", scaled}, {"output", g.add_virtual("background", vg::DataKind::image)}});
  node("flow", "vg.vision.optical_flow", {{"input", scaled}, {"points", fast}, {"tracks", g.add_virtual("tracks", vg::DataKind::array)}});
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
