// The README's "Write a kernel" tour, compiled and run: if this changes, change the README too.
#include <gtest/gtest.h>

#include <iostream>

#include <visiongraph/visiongraph.hpp>

namespace {

struct Threshold {                                                    // create = constructor
  explicit Threshold(vg::KernelContext& ctx) : level(ctx.integer("level")) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {               // per frame: no allocation
    vg::ImageView in = ctx.image(0), out = ctx.image(1);
    for (std::uint32_t y = 0; y < in.height(); ++y)
      for (std::uint32_t x = 0; x < in.width(); ++x)
        out.plane()[y * out.stride() + x] = in.plane()[y * in.stride() + x] > level ? 255 : 0;
    return vg::Status::ok;
  }
  vg::Status control(vg::KernelContext&, const vg::ControlCommand& c, vg::CommandReply&) noexcept {
    return c.read(level) ? vg::Status::ok : vg::Status::invalid_argument;   // between two frames
  }
  std::int64_t level;                                                 // delete = destructor
};

vg::Module make_module() {
  vg::Module m("acme");
  m.add(vg::KernelDecl("acme.threshold")
            .input("in", vg::DataKind::image)
            .output("out", vg::DataKind::image)
            .attribute("level", 128, "threshold")
            .command(1, "set_level", vg::PayloadKind::integer)
            .validate([](vg::ValidateContext& v) {                  // host side, at verify
              const auto& in = v.meta(0).image;
              if (in.format != vg::ImageFormat::gray8) v.fail("in", "expects gray8");
              v.set_meta(1, vg::DataMeta::image_of(in.width, in.height, vg::ImageFormat::gray8));
            }));
  m.implement("acme.threshold", "cpu", vg::callbacks_for<Threshold>());
  return m;
}

TEST(ReadmeTest, TheTourKernelRunsAndTakesItsCommand) {
  vg::Context ctx;                                  // targets cpu0, cpu1, npu0
  ctx.load_module(make_module());
  vg::Graph g(ctx, "demo");
  auto img = g.add_data("img", vg::DataMeta::image_of(640, 480, vg::ImageFormat::gray8));
  auto mask = g.add_virtual("mask", vg::DataKind::image);   // metadata comes from validate
  auto n = g.add_node("thr", "acme.threshold");
  g.bind(n, "in", img).bind(n, "out", mask).set_target(n, "cpu1");
  g.verify();                                       // throws vg::Error naming node and key
  g.image(img).plane()[0] = 150;
  vg::Status s = g.process();                       // noexcept from here on
  ASSERT_EQ(s, vg::Status::ok);
  EXPECT_EQ(g.image(mask).plane()[0], 255);
  s = g.send_command(n, vg::ControlCommand::make(1, std::int64_t{200}), std::chrono::milliseconds(100));
  ASSERT_EQ(s, vg::Status::ok);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(g.image(mask).plane()[0], 0);
  std::cout << g.report_text();
}

}  // namespace
