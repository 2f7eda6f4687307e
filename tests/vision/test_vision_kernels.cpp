// The vg.vision kernels in graphs: results, attributes, the threshold command, and the errors verify gives
// for wrong formats and attributes (naming the node and the parameter or attribute).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "vision_graph.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"

namespace {

using namespace std::chrono_literals;
using vg::vision::test::VisionGraph;

std::uint8_t pixel(const vg::ImageView& img, std::uint32_t x, std::uint32_t y) { return img.plane(0)[y * img.stride(0) + x]; }

TEST(VisionKernels, TheModuleListsEveryKernelWithItsParameters) {
  const vg::Module m = vg::vision::make_vision_module();
  const std::pair<const char*, std::size_t> kernels[] = {
      {"vg.vision.to_gray", 2},  {"vg.vision.gaussian3x3", 2}, {"vg.vision.box3x3", 2}, {"vg.vision.median3x3", 2},
      {"vg.vision.erode3x3", 2}, {"vg.vision.dilate3x3", 2},   {"vg.vision.threshold", 2}, {"vg.vision.add", 3},
      {"vg.vision.subtract", 3}, {"vg.vision.absdiff", 3},     {"vg.vision.not", 2},       {"vg.vision.and", 3},
      {"vg.vision.or", 3},       {"vg.vision.xor", 3},        {"vg.vision.multiply", 3}, {"vg.vision.scale", 2},
      {"vg.vision.half_scale_gaussian", 2}, {"vg.vision.warp_affine", 2}, {"vg.vision.warp_perspective", 2},
      {"vg.vision.convolve", 2}, {"vg.vision.non_linear_filter", 2}, {"vg.vision.equalize_hist", 2}, {"vg.vision.table_lookup", 2},
      {"vg.vision.channel_extract", 2}, {"vg.vision.channel_combine", 4}, {"vg.vision.color_convert", 2},
      {"vg.vision.fast_corners", 3}, {"vg.vision.lbp", 2}, {"vg.vision.canny", 2}, {"vg.vision.harris_corners", 3}, {"vg.vision.hough_lines", 3}, {"vg.vision.non_max_suppression", 3}};
  for (const auto& [name, params] : kernels) {
    const vg::KernelDecl* decl = nullptr;
    for (const vg::KernelDecl& k : m.kernels())
      if (k.name() == name) decl = &k;
    ASSERT_NE(decl, nullptr) << name;
    EXPECT_EQ(decl->params().size(), params) << name;
  }
}

TEST(VisionKernels, AnOpeningGraphRemovesSpecksAndKeepsTheSquare) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  VisionGraph vg_(ctx, 320, 240);
  vg_.g.set_attribute(vg_.threshold, "value", std::int64_t{100});
  vg_.g.verify();
  vg_.fill_frame();
  ASSERT_EQ(vg_.g.process(), vg::Status::ok) << vg_.g.last_error().describe();
  const vg::ImageView gray = vg_.g.image(vg_.gray), mask = vg_.g.image(vg_.mask), opened = vg_.g.image(vg_.opened);
  EXPECT_EQ(pixel(gray, 100, 70), 200);  // inside the square: the three weights sum to 2^15, so gray 200
  EXPECT_EQ(pixel(gray, 5, 7), 200);     // a speck
  EXPECT_EQ(pixel(mask, 5, 7), 0);       // blurred below 100: 20 + 180 * 4 / 16 = 65
  EXPECT_EQ(pixel(mask, 100, 70), 255);
  EXPECT_EQ(pixel(opened, 100, 70), 255);
  EXPECT_EQ(pixel(opened, 300, 200), 0);
  // No speck survives the opening anywhere outside the square.
  int bright_outside = 0;
  for (std::uint32_t y = 0; y < 240; ++y)
    for (std::uint32_t x = 0; x < 320; ++x)
      if ((x < 78 || x > 162 || y < 58 || y > 122) && pixel(opened, x, y) != 0) ++bright_outside;
  EXPECT_EQ(bright_outside, 0);
}

TEST(VisionKernels, TheSetThresholdCommandChangesTheNextFrame) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  VisionGraph vg_(ctx, 64, 48);
  vg_.g.verify();
  vg_.fill_frame();
  ASSERT_EQ(vg_.g.process(), vg::Status::ok);
  EXPECT_EQ(pixel(vg_.g.image(vg_.mask), 0, 0), 0);  // 20 is not above 127
  vg::CommandReply reply;
  ASSERT_EQ(vg_.g.send_command(vg_.threshold, vg::ControlCommand::make(vg::vision::kSetThreshold, std::int64_t{10}), 1s, &reply),
            vg::Status::ok);
  EXPECT_EQ(reply.text(), "value=10");
  ASSERT_EQ(vg_.g.process(), vg::Status::ok);
  EXPECT_EQ(pixel(vg_.g.image(vg_.mask), 0, 0), 255);
  EXPECT_EQ(vg_.g.send_command(vg_.threshold, vg::ControlCommand::make(vg::vision::kSetThreshold, std::int64_t{256}), 1s, &reply),
            vg::Status::invalid_argument);
}

TEST(VisionKernels, ConstantBorderAndOtherFiltersRunFromAttributes) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::Graph g(ctx, "g");
  const vg::DataId in = g.add_data("in", vg::DataMeta::image_of(16, 8, vg::ImageFormat::gray8));
  const vg::DataId out = g.add_data("out", vg::DataMeta::image_of(16, 8, vg::ImageFormat::gray8));
  const vg::NodeId n = g.add_node("box", "vg.vision.box3x3");
  g.bind(n, "input", in).bind(n, "output", out);
  g.set_attribute(n, "border", std::string("constant")).set_attribute(n, "border_value", std::int64_t{0});
  g.verify();
  const vg::ImageView img = g.image(in);
  for (std::uint32_t y = 0; y < 8; ++y) std::memset(img.plane(0) + y * img.stride(0), 90, 16);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(pixel(g.image(out), 0, 0), 40);  // 4 * 90 / 9
  EXPECT_EQ(pixel(g.image(out), 5, 0), 60);  // 6 * 90 / 9
  EXPECT_EQ(pixel(g.image(out), 5, 4), 90);
}

TEST(VisionKernels, AbsdiffOfTwoFramesThenAndWithAMaskFindsWhatMoved) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::Graph g(ctx, "motion");
  const auto gray = vg::DataMeta::image_of(40, 20, vg::ImageFormat::gray8);
  const vg::DataId previous = g.add_data("previous", gray), current = g.add_data("current", gray), region = g.add_data("region", gray);
  const vg::DataId diff = g.add_virtual("diff", vg::DataKind::image), moved = g.add_data("moved", gray);
  const vg::NodeId absdiff = g.add_node("absdiff", "vg.vision.absdiff");
  g.bind(absdiff, "in1", previous).bind(absdiff, "in2", current).bind(absdiff, "out", diff);
  const vg::NodeId mask = g.add_node("mask", "vg.vision.and");
  g.bind(mask, "in1", diff).bind(mask, "in2", region).bind(mask, "out", moved);
  g.verify();
  auto fill = [&](vg::DataId id, auto value_at) {
    const vg::ImageView img = g.image(id);
    for (std::uint32_t y = 0; y < 20; ++y)
      for (std::uint32_t x = 0; x < 40; ++x) img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>(value_at(x, y));
  };
  fill(previous, [](std::uint32_t x, std::uint32_t) { return x < 10 ? 200 : 10; });
  fill(current, [](std::uint32_t x, std::uint32_t) { return x >= 5 && x < 15 ? 200 : 10; });  // the bright bar moved right by 5
  fill(region, [](std::uint32_t, std::uint32_t y) { return y < 10 ? 0xFF : 0x00; });           // only the top half counts
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const vg::ImageView out = g.image(moved);
  EXPECT_EQ(pixel(out, 2, 3), 190);   // left the bar
  EXPECT_EQ(pixel(out, 7, 3), 0);     // bright in both
  EXPECT_EQ(pixel(out, 12, 3), 190);  // entered it
  EXPECT_EQ(pixel(out, 12, 15), 0);   // outside the region
  EXPECT_EQ(pixel(out, 30, 3), 0);
}

TEST(VisionKernels, SaturateAndWrapOverflow) {
  for (const char* overflow : {"saturate", "wrap"}) {
    vg::Context ctx;
    ctx.load_module(vg::vision::make_vision_module());
    vg::Graph g(ctx, "add");
    const auto gray = vg::DataMeta::image_of(33, 2, vg::ImageFormat::gray8);
    const vg::DataId a = g.add_data("a", gray), b = g.add_data("b", gray), sum = g.add_data("sum", gray);
    const vg::NodeId add = g.add_node("add", "vg.vision.add");
    g.bind(add, "in1", a).bind(add, "in2", b).bind(add, "out", sum);
    g.set_attribute(add, "overflow", std::string(overflow));
    g.verify();
    for (const vg::DataId id : {a, b}) {
      const vg::ImageView img = g.image(id);
      for (std::uint32_t y = 0; y < 2; ++y) std::memset(img.plane(0) + y * img.stride(0), 200, 33);
    }
    ASSERT_EQ(g.process(), vg::Status::ok);
    EXPECT_EQ(pixel(g.image(sum), 32, 1), std::string(overflow) == "saturate" ? 255 : 144) << overflow;  // 400 - 256
  }
}

// A soft mask: image * mask / 255, rounded to nearest, keeps what the mask keeps and dims the rest.
TEST(VisionKernels, MultiplyByASoftMask) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::Graph g(ctx, "soft_mask");
  const auto gray = vg::DataMeta::image_of(37, 3, vg::ImageFormat::gray8);
  const vg::DataId image = g.add_data("image", gray), mask = g.add_data("mask", gray), out = g.add_data("out", gray);
  const vg::NodeId n = g.add_node("multiply", "vg.vision.multiply");
  g.bind(n, "in1", image).bind(n, "in2", mask).bind(n, "out", out);
  g.set_attribute(n, "scale", 1.0 / 255).set_attribute(n, "rounding", std::string("nearest_even"));
  g.verify();
  const vg::ImageView img = g.image(image), m = g.image(mask);
  for (std::uint32_t y = 0; y < 3; ++y) {
    std::memset(img.plane(0) + y * img.stride(0), 200, 37);
    for (std::uint32_t x = 0; x < 37; ++x) m.plane(0)[y * m.stride(0) + x] = static_cast<std::uint8_t>(x < 10 ? 255 : x < 20 ? 128 : 0);
  }
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  EXPECT_EQ(pixel(g.image(out), 3, 1), 200);
  EXPECT_EQ(pixel(g.image(out), 15, 1), 100);  // 200 * 128 / 255 = 100.39
  EXPECT_EQ(pixel(g.image(out), 30, 2), 0);
}

TEST(VisionKernels, MultiplyRefusesABadScaleOrRounding) {
  for (const auto& [key, bad, text] : {std::tuple{"scale", 0, "-2"}, std::tuple{"rounding", 1, "up"}, std::tuple{"overflow", 1, "clip"}}) {
    vg::Context ctx;
    ctx.load_module(vg::vision::make_vision_module());
    vg::Graph g(ctx, "g");
    const auto gray = vg::DataMeta::image_of(8, 8, vg::ImageFormat::gray8);
    const vg::DataId a = g.add_data("a", gray), b = g.add_data("b", gray), out = g.add_data("out", gray);
    const vg::NodeId n = g.add_node("stage", "vg.vision.multiply");
    g.bind(n, "in1", a).bind(n, "in2", b).bind(n, "out", out);
    if (bad == 0) g.set_attribute(n, key, -2.0);
    else g.set_attribute(n, key, std::string(text));
    try {
      g.verify();
      ADD_FAILURE() << key << " " << text << " verified";
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("stage"), std::string::npos) << what;
      EXPECT_NE(what.find(key), std::string::npos) << what;
      EXPECT_NE(what.find(text), std::string::npos) << what;
    }
  }
}

/// verify()'s message for a one-node graph of @p kernel over @p in_format, after @p configure.
template <class Configure>
std::string verify_error(const char* kernel, vg::ImageFormat in_format, Configure configure) {
  vg::Context ctx;
  ctx.load_module(vg::vision::make_vision_module());
  vg::Graph g(ctx, "g");
  const vg::DataId in = g.add_data("in", vg::DataMeta::image_of(16, 8, in_format));
  const vg::DataId out = g.add_virtual("out", vg::DataKind::image);
  const vg::NodeId n = g.add_node("stage", kernel);
  g.bind(n, "input", in).bind(n, "output", out);
  configure(g, n);
  try {
    g.verify();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "verified";
}

TEST(VisionKernels, VerifyNamesTheNodeAndWhatIsWrong) {
  auto none = [](vg::Graph&, vg::NodeId) {};
  std::string e = verify_error("vg.vision.gaussian3x3", vg::ImageFormat::bgr24, none);
  EXPECT_NE(e.find("stage"), std::string::npos) << e;
  EXPECT_NE(e.find("input"), std::string::npos) << e;
  EXPECT_NE(e.find("gray8"), std::string::npos) << e;
  e = verify_error("vg.vision.to_gray", vg::ImageFormat::gray8, none);
  EXPECT_NE(e.find("bgr24 or rgb24"), std::string::npos) << e;
  e = verify_error("vg.vision.median3x3", vg::ImageFormat::gray8,
                   [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "border", std::string("mirror")); });
  EXPECT_NE(e.find("border"), std::string::npos) << e;
  EXPECT_NE(e.find("mirror"), std::string::npos) << e;
  e = verify_error("vg.vision.threshold", vg::ImageFormat::gray8,
                   [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "value", std::int64_t{300}); });
  EXPECT_NE(e.find("value"), std::string::npos) << e;
  EXPECT_NE(e.find("300"), std::string::npos) << e;
  e = verify_error("vg.vision.threshold", vg::ImageFormat::gray8, [](vg::Graph& g, vg::NodeId n) {
    g.set_attribute(n, "type", std::string("range")).set_attribute(n, "lower", std::int64_t{9}).set_attribute(n, "upper", std::int64_t{3});
  });
  EXPECT_NE(e.find("lower"), std::string::npos) << e;
  EXPECT_EQ(verify_error("vg.vision.erode3x3", vg::ImageFormat::gray8, none), "verified");
  e = verify_error("vg.vision.not", vg::ImageFormat::rgb24, none);
  EXPECT_NE(e.find("gray8"), std::string::npos) << e;
}

}  // namespace
