// The vg.vision kernels over consecutive frames: optical_flow in a graph (FAST corners of one frame followed
// into the next, the tracks moving by the frames' shift; the first frame has no tracks), the accumulations;
// the reset command of each; verify names the node and what is wrong.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "moving_texture.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/kernels/vision/optical_flow.hpp"
#include "visiongraph/visiongraph.hpp"
#include "vision_kernel_test.hpp"

namespace {

using vg::DataId;
using vg::DataKind;
namespace vv = vg::vision;
using vg::vision::test::verify_error;
vg::Context& context() { return vg::vision::test::vision_context(); }

struct TrackingGraph {
  static constexpr std::uint32_t W = 160, H = 120;
  TrackingGraph() : g(context(), "tracking") {
    in = g.add_data("in", vg::DataMeta::image_of(W, H, vg::ImageFormat::gray8));
    corners = g.add_virtual("corners", DataKind::array);
    tracks = g.add_virtual("tracks", DataKind::array);
    count = g.add_data("count", vg::DataMeta::scalar_of(vg::ElementType::u32));
    const vg::NodeId fast = g.add_node("fast", "vg.vision.fast_corners");
    g.bind(fast, "input", in).bind(fast, "corners", corners).set_attribute(fast, "capacity", std::int64_t{300});
    flow = g.add_node("flow", "vg.vision.optical_flow");
    g.bind(flow, "input", in).bind(flow, "points", corners).bind(flow, "tracks", tracks).bind(flow, "num_tracked", count);
  }
  void show(int dx, int dy) {
    const std::vector<std::uint8_t> frame = vg::vision::test::texture(W, H, dx, dy);
    const vg::ImageView img = g.image(in);
    for (std::uint32_t y = 0; y < H; ++y) std::memcpy(img.plane(0) + y * img.stride(0), frame.data() + y * W, W);
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  }
  vg::Graph g;
  DataId in{}, corners{}, tracks{}, count{};
  vg::NodeId flow{};
};

TEST(VisionMotionKernels, CornersOfOneFrameAreFollowedIntoTheNext) {
  TrackingGraph t;
  t.g.verify();
  t.show(0, 0);
  EXPECT_EQ(t.g.array<vv::PointTrack>(t.tracks).size(), 0u) << "no previous frame yet";
  const std::size_t corners = t.g.array<vv::FastCorner>(t.corners).size();
  ASSERT_GT(corners, 20u) << "the texture has corners";
  std::vector<vv::FastCorner> first(t.g.array<vv::FastCorner>(t.corners).begin(), t.g.array<vv::FastCorner>(t.corners).end());
  t.show(2, 1);
  const vg::ArrayView<vv::PointTrack> tracks = t.g.array<vv::PointTrack>(t.tracks);
  ASSERT_EQ(tracks.size(), corners) << "one track per corner of the previous frame";
  // A window (21 x 21) that reaches past the edge reads a mirrored image, not what the shift brought in:
  // the precision is the interior's.
  std::uint32_t followed = 0, inner = 0, close = 0;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    EXPECT_EQ(tracks[i].from_x, static_cast<float>(first[i].x)) << i;
    EXPECT_EQ(tracks[i].from_y, static_cast<float>(first[i].y)) << i;
    if (!tracks[i].tracked) continue;
    ++followed;
    if (first[i].x < 12 || first[i].y < 12 || first[i].x + 12 >= TrackingGraph::W || first[i].y + 12 >= TrackingGraph::H) continue;
    ++inner;
    if (std::fabs(tracks[i].x - tracks[i].from_x - 2) < 0.1f && std::fabs(tracks[i].y - tracks[i].from_y - 1) < 0.1f) ++close;
  }
  EXPECT_EQ(t.g.scalar(t.count).get<std::uint32_t>(), followed);
  EXPECT_GE(followed, corners * 8 / 10) << "most corners are followed";
  EXPECT_GT(inner, 50u);
  EXPECT_GE(close, inner * 95 / 100) << "and those away from the edges land where the shift put them";
}

TEST(VisionMotionKernels, ResetForgetsThePreviousFrame) {
  TrackingGraph t;
  t.g.verify();
  t.show(0, 0);
  ASSERT_EQ(t.g.send_command(t.flow, vg::ControlCommand::make(vv::kReset), std::chrono::seconds(5)), vg::Status::ok);
  t.show(1, 0);
  EXPECT_EQ(t.g.array<vv::PointTrack>(t.tracks).size(), 0u) << "as on a first frame";
  t.show(2, 0);
  EXPECT_GT(t.g.array<vv::PointTrack>(t.tracks).size(), 0u);
}

/// One node of @p kernel from a 5x3 gray8 input to @p out; shows frames of one value.
struct Accumulation {
  Accumulation(const char* kernel, const vg::DataMeta& out_meta) : g(context(), "accumulation") {
    in = g.add_data("in", vg::DataMeta::image_of(5, 3, vg::ImageFormat::gray8));
    out = g.add_data("out", out_meta);
    node = g.add_node("acc", kernel);
    g.bind(node, "input", in).bind(node, "output", out);
  }
  void show(std::uint8_t value) {
    const vg::ImageView img = g.image(in);
    for (std::uint32_t y = 0; y < 3; ++y) std::memset(img.plane(0) + y * img.stride(0), value, 5);
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  }
  void reset() { ASSERT_EQ(g.send_command(node, vg::ControlCommand::make(vv::kReset), std::chrono::seconds(5)), vg::Status::ok); }
  std::int16_t sum() { return g.tensor(out).data_as<std::int16_t>()[7]; }
  std::uint8_t model() { return g.image(out).plane(0)[g.image(out).stride(0) + 2]; }
  vg::Graph g;
  DataId in{}, out{};
  vg::NodeId node{};
};

TEST(VisionMotionKernels, AccumulationsSumAndBlendTheFramesUntilReset) {
  const vg::DataMeta s16 = vg::DataMeta::tensor_of({3, 5}, vg::ElementType::i16);
  Accumulation sum("vg.vision.accumulate", s16);
  sum.g.verify();
  sum.show(100);
  sum.show(120);
  EXPECT_EQ(sum.sum(), 220);
  for (int i = 0; i < 200; ++i) sum.show(255);
  EXPECT_EQ(sum.sum(), 32767) << "saturated";
  sum.reset();
  sum.show(9);
  EXPECT_EQ(sum.sum(), 9);

  Accumulation squares("vg.vision.accumulate_squared", s16);
  squares.g.set_attribute(squares.node, "shift", std::int64_t{4});
  squares.g.verify();
  squares.show(100);
  squares.show(30);
  EXPECT_EQ(squares.sum(), 10000 / 16 + 900 / 16);

  Accumulation blend("vg.vision.accumulate_weighted", vg::DataMeta::image_of(5, 3, vg::ImageFormat::gray8));
  blend.g.set_attribute(blend.node, "alpha", 0.25);
  blend.g.verify();
  blend.show(100);
  EXPECT_EQ(blend.model(), 100) << "the first frame starts the model";
  blend.show(200);
  EXPECT_EQ(blend.model(), 125) << "0.75 * 100 + 0.25 * 200";
  blend.reset();
  blend.show(40);
  EXPECT_EQ(blend.model(), 40);
}

TEST(VisionMotionKernels, VerifyNamesWhatIsWrong) {
  {
    TrackingGraph t;
    t.g.set_attribute(t.flow, "window", std::int64_t{33});
    const std::string error = verify_error(t.g);
    EXPECT_NE(error.find("'flow'"), std::string::npos) << error;
    EXPECT_NE(error.find("window"), std::string::npos) << error;
  }
  {
    TrackingGraph t;
    t.g.set_attribute(t.flow, "levels", std::int64_t{9});  // 120 -> 60 -> ... -> 1
    const std::string error = verify_error(t.g);
    EXPECT_NE(error.find("levels"), std::string::npos) << error;
  }
  {
    Accumulation squares("vg.vision.accumulate_squared", vg::DataMeta::tensor_of({3, 5}, vg::ElementType::i16));
    squares.g.set_attribute(squares.node, "shift", std::int64_t{16});
    const std::string error = verify_error(squares.g);
    EXPECT_NE(error.find("shift"), std::string::npos) << error;
  }
  {
    vg::Graph g(context(), "wrong_points");
    const DataId in = g.add_data("in", vg::DataMeta::image_of(32, 32, vg::ImageFormat::gray8));
    const DataId lines = g.add_virtual("lines", DataKind::array);
    const vg::NodeId hough = g.add_node("hough", "vg.vision.hough_lines");
    g.bind(hough, "input", in).bind(hough, "lines", lines);
    const vg::NodeId flow = g.add_node("flow", "vg.vision.optical_flow");
    g.bind(flow, "input", in).bind(flow, "points", lines).bind(flow, "tracks", g.add_virtual("tracks", DataKind::array));
    const std::string error = verify_error(g);
    EXPECT_NE(error.find("points"), std::string::npos) << error;
    EXPECT_NE(error.find("line_segment"), std::string::npos) << error;
  }
}

}  // namespace
