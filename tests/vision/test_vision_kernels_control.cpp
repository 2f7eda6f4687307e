// vg.vision.select and vg.vision.scalar_operation: the chosen image per frame, the operations' integer and
// floating-point rules and output types, a zero divisor failing the frame, and verify naming what is wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "vision_kernel_test.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using vg::DataId;
using vg::DataKind;
using vg::DataMeta;
using vg::ElementType;
using vg::vision::test::verify_error;
vg::Context& context() { return vg::vision::test::vision_context(); }

TEST(VisionControlKernels, SelectCopiesTheImageTheConditionChooses) {
  vg::Graph g(context(), "select");
  const DataId cond = g.add_data("cond", DataMeta::scalar_of(ElementType::u8));
  const DataId a = g.add_data("a", DataMeta::image_of(9, 5, vg::ImageFormat::rgb24));
  const DataId b = g.add_data("b", DataMeta::image_of(9, 5, vg::ImageFormat::rgb24));
  const DataId out = g.add_data("out", DataMeta::image_of(9, 5, vg::ImageFormat::rgb24));
  const vg::NodeId n = g.add_node("select", "vg.vision.select");
  g.bind(n, "condition", cond).bind(n, "true_value", a).bind(n, "false_value", b).bind(n, "output", out);
  g.verify();
  for (std::uint32_t y = 0; y < 5; ++y) {
    std::memset(g.image(a).plane(0) + y * g.image(a).stride(0), 11, 27);
    std::memset(g.image(b).plane(0) + y * g.image(b).stride(0), 22, 27);
  }
  for (const std::uint8_t c : {1, 0, 7}) {
    g.scalar(cond).set(c);
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
    const vg::ImageView o = g.image(out);
    for (std::uint32_t y = 0; y < 5; ++y)
      for (std::uint32_t x = 0; x < 27; ++x) ASSERT_EQ(o.plane(0)[y * o.stride(0) + x], c != 0 ? 11 : 22) << int(c);
  }
}

/// One scalar_operation node on scalars of @p ta and @p tb; the output scalar's type comes from validate.
struct Operation {
  Operation(const char* op, ElementType ta, ElementType tb) : g(context(), "op") {
    a = g.add_data("a", DataMeta::scalar_of(ta));
    b = g.add_data("b", DataMeta::scalar_of(tb));
    out = g.add_virtual("out", DataKind::scalar);
    node = g.add_node("op", "vg.vision.scalar_operation");
    g.bind(node, "a", a).bind(node, "b", b).bind(node, "out", out).set_attribute(node, "operation", std::string(op));
  }
  vg::Graph g;
  DataId a{}, b{}, out{};
  vg::NodeId node{};
};

TEST(VisionControlKernels, ScalarOperationsFollowOpenVxsRules) {
  {
    Operation o("divide", ElementType::i32, ElementType::i32);
    o.g.verify();
    o.g.scalar(o.a).set(std::int32_t{-7});
    o.g.scalar(o.b).set(std::int32_t{2});
    ASSERT_EQ(o.g.process(), vg::Status::ok);
    EXPECT_EQ(o.g.meta(o.out).scalar.type, ElementType::i32) << "a's type";
    EXPECT_EQ(o.g.scalar(o.out).get<std::int32_t>(), -3) << "integer division truncates";
    o.g.scalar(o.b).set(std::int32_t{0});
    EXPECT_NE(o.g.process(), vg::Status::ok) << "a zero divisor fails the frame";
  }
  {
    Operation o("min", ElementType::f32, ElementType::u8);
    o.g.verify();
    o.g.scalar(o.a).set(0.5f);
    o.g.scalar(o.b).set(std::uint8_t{1});
    ASSERT_EQ(o.g.process(), vg::Status::ok);
    EXPECT_EQ(o.g.meta(o.out).scalar.type, ElementType::f32);
    EXPECT_EQ(o.g.scalar(o.out).get<float>(), 0.5f);
  }
  {
    Operation o("less_equal", ElementType::f64, ElementType::i16);
    o.g.verify();
    o.g.scalar(o.a).set(2.5);
    o.g.scalar(o.b).set(std::int16_t{2});
    ASSERT_EQ(o.g.process(), vg::Status::ok);
    EXPECT_EQ(o.g.meta(o.out).scalar.type, ElementType::u8) << "comparisons give u8 0 / 1";
    EXPECT_EQ(o.g.scalar(o.out).get<std::uint8_t>(), 0);
  }
  {
    Operation o("xor", ElementType::u8, ElementType::u8);
    o.g.verify();
    o.g.scalar(o.a).set(std::uint8_t{3});
    o.g.scalar(o.b).set(std::uint8_t{0});
    ASSERT_EQ(o.g.process(), vg::Status::ok);
    EXPECT_EQ(o.g.scalar(o.out).get<std::uint8_t>(), 1) << "non-zero is true";
  }
  {
    Operation o("add", ElementType::u8, ElementType::u8);
    o.g.verify();
    o.g.scalar(o.a).set(std::uint8_t{200});
    o.g.scalar(o.b).set(std::uint8_t{100});
    ASSERT_EQ(o.g.process(), vg::Status::ok);
    EXPECT_EQ(o.g.scalar(o.out).get<std::uint8_t>(), 44) << "300 wraps in a's type";
  }
}

TEST(VisionControlKernels, VerifyNamesWhatIsWrong) {
  {
    Operation o("power", ElementType::i32, ElementType::i32);
    const std::string error = verify_error(o.g);
    EXPECT_NE(error.find("operation"), std::string::npos) << error;
    EXPECT_NE(error.find("power"), std::string::npos) << error;
  }
  {
    vg::Graph g(context(), "bad_select");
    const vg::NodeId n = g.add_node("select", "vg.vision.select");
    g.bind(n, "condition", g.add_data("c", DataMeta::scalar_of(ElementType::u8)))
        .bind(n, "true_value", g.add_data("a", DataMeta::image_of(8, 8, vg::ImageFormat::gray8)))
        .bind(n, "false_value", g.add_data("b", DataMeta::image_of(8, 8, vg::ImageFormat::bgr24)))
        .bind(n, "output", g.add_virtual("o", DataKind::image));
    const std::string error = verify_error(g);
    EXPECT_NE(error.find("false_value"), std::string::npos) << error;
  }
}

}  // namespace
