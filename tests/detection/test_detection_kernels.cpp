#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "kernel_graphs.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/letterbox.hpp"
#include "visiongraph/kernels/detection/overlay.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg::detection;  // NOLINT: test brevity
using vg::detection::test::DetectionGraph;

class DetectionKernelsTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx.load_module(make_detection_module()); }
  vg::Context ctx;
};

std::string verify_error(vg::Graph& g) {
  try {
    g.verify();
  } catch (const vg::Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(DetectionKernelsTest, ModuleRegistersThreeCpuKernels) {
  for (auto name : {kLetterboxKernel, kPostprocessKernel, kOverlayKernel}) {
    const vg::KernelInfo* k = ctx.find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    ASSERT_EQ(k->impls.size(), 1u);
    EXPECT_EQ(k->impls[0].target, "cpu");
  }
  EXPECT_EQ(ctx.find_kernel(kPostprocessKernel)->decl.param_index("detections"),
            static_cast<int>(PostprocessParams::detections));
  EXPECT_EQ(ctx.find_kernel(kPostprocessKernel)->decl.param_index("geometry"),
            static_cast<int>(PostprocessParams::geometry));
  EXPECT_EQ(ctx.find_kernel(kLetterboxKernel)->decl.param_index("geometry"), static_cast<int>(LetterboxParams::geometry));
  EXPECT_EQ(ctx.find_kernel(kOverlayKernel)->decl.param_index("output"), static_cast<int>(OverlayParams::output));
}

TEST_F(DetectionKernelsTest, LetterboxWritesTheTensorAndTheGeometryOnce) {
  const auto model = synthetic::blazeface();
  DetectionGraph dg(ctx, model, false, "blazeface", 548, 342);
  dg.g.verify();
  dg.fill(model, false);
  const auto* geo = dg.g.user_data<LetterboxGeometry>(dg.geometry);
  ASSERT_NE(geo, nullptr);
  const LetterboxGeometry want = make_letterbox(548, 342, 128, 128);
  EXPECT_EQ(geo->src_w, 548);
  EXPECT_EQ(geo->dst_h, 128);
  EXPECT_FLOAT_EQ(geo->pad_y, want.pad_y);
  ASSERT_EQ(dg.g.process(), vg::Status::ok) << dg.g.last_error().describe();
  const vg::TensorView t = dg.g.tensor(dg.tensor);
  EXPECT_EQ(t.meta().dims[1], 128);
  EXPECT_EQ(t.meta().type, vg::ElementType::f32);
  const float* p = t.data_as<float>();
  EXPECT_FLOAT_EQ(p[0], -1.0f);  // top padding
  const float mid = p[(64 * 128 + 64) * 3];
  EXPECT_GT(mid, -1.0f);
  EXPECT_LT(mid, 1.0f);
}

TEST_F(DetectionKernelsTest, PostprocessMatchesTheAlgorithmAndStampsTheFrame) {
  const auto model = synthetic::blazeface();
  DetectionGraph dg(ctx, model, false, "blazeface", 548, 342);
  dg.g.verify();
  dg.fill(model, false);
  for (int frame = 0; frame < 3; ++frame) ASSERT_EQ(dg.g.process(), vg::Status::ok) << dg.g.last_error().describe();
  const auto* pkt = dg.g.user_data<DetectionPacket>(dg.detections);
  ASSERT_NE(pkt, nullptr);
  EXPECT_TRUE(pkt->valid());
  EXPECT_EQ(pkt->sequence, 2u);

  PostprocessConfig cfg;
  cfg.decoder = DecoderKind::blazeface;
  cfg.decode.input_w = cfg.decode.input_h = 128;
  cfg.decode.score_threshold = 0.5f;
  cfg.nms = NmsParams{NmsKind::weighted, 0.3f, 100, 100};
  Postprocessor pp(cfg, model.refs_f32);
  auto want = std::make_unique<DetectionPacket>();
  pp.run(model.refs_f32, make_letterbox(548, 342, 128, 128), *want);
  ASSERT_GT(want->count, 0u);
  ASSERT_EQ(pkt->count, want->count);
  for (std::uint32_t i = 0; i < want->count; ++i) {
    EXPECT_FLOAT_EQ(pkt->items[i].x0, want->items[i].x0);
    EXPECT_FLOAT_EQ(pkt->items[i].score, want->items[i].score);
    EXPECT_FLOAT_EQ(pkt->items[i].keypoints[5].y, want->items[i].keypoints[5].y);
  }
}

TEST_F(DetectionKernelsTest, CommandsApplyFromTheNextFrameAndReplyWithTheSettings) {
  const auto model = synthetic::yolov8_branches(true);
  DetectionGraph dg(ctx, model, true, "yolov8");
  dg.g.set_attribute(dg.postprocess, "score_threshold", 0.25);
  dg.g.verify();
  dg.fill(model, true);
  ASSERT_EQ(dg.g.process(), vg::Status::ok) << dg.g.last_error().describe();
  const auto* pkt = dg.g.user_data<DetectionPacket>(dg.detections);
  const std::uint32_t all = pkt->count;
  ASSERT_GT(all, 3u);

  vg::CommandReply reply;
  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetMaxDet, std::int64_t{2}), 1s, &reply),
            vg::Status::ok);
  EXPECT_NE(reply.text().find("max_det=2"), std::string_view::npos) << reply.text();
  ASSERT_EQ(dg.g.process(), vg::Status::ok);
  EXPECT_EQ(dg.g.user_data<DetectionPacket>(dg.detections)->count, 2u);
  EXPECT_TRUE(dg.g.user_data<DetectionPacket>(dg.detections)->truncated());

  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetMaxDet, std::int64_t{100}), 1s, &reply),
            vg::Status::ok);
  const int some_class = dg.g.user_data<DetectionPacket>(dg.detections)->items[0].class_id;
  ASSERT_EQ(dg.g.send_command(dg.postprocess,
                              vg::ControlCommand::make_text(kCmdSetClassFilter, std::to_string(some_class)), 1s, &reply),
            vg::Status::ok);
  EXPECT_NE(reply.text().find("classes=" + std::to_string(some_class)), std::string_view::npos) << reply.text();
  ASSERT_EQ(dg.g.process(), vg::Status::ok);
  pkt = dg.g.user_data<DetectionPacket>(dg.detections);
  ASSERT_GT(pkt->count, 0u);
  EXPECT_LT(pkt->count, all);
  for (std::uint32_t i = 0; i < pkt->count; ++i) EXPECT_EQ(pkt->items[i].class_id, some_class);

  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make_text(kCmdSetClassFilter, ""), 1s, &reply),
            vg::Status::ok);
  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetScoreThreshold, 0.999), 1s, &reply),
            vg::Status::ok);
  EXPECT_NE(reply.text().find("score_threshold=0.999"), std::string_view::npos) << reply.text();
  ASSERT_EQ(dg.g.process(), vg::Status::ok);
  EXPECT_EQ(dg.g.user_data<DetectionPacket>(dg.detections)->count, 0u);

  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetIouThreshold, 0.6), 1s, &reply),
            vg::Status::ok);
  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdGetSettings), 1s, &reply), vg::Status::ok);
  EXPECT_EQ(reply.text(),
            "decoder=yolov8 score_threshold=0.999 iou_threshold=0.6 nms=hard max_det=100 top_k_per_class=100 classes=all");

  // Bad values are refused and leave the settings alone.
  EXPECT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetScoreThreshold, 1.5), 1s, &reply),
            vg::Status::invalid_argument);
  EXPECT_NE(reply.text().find("error"), std::string_view::npos);
  EXPECT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdSetMaxDet, 2.0), 1s, &reply),
            vg::Status::invalid_argument);  // wrong payload type
  EXPECT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make_text(kCmdSetClassFilter, "1,x"), 1s, &reply),
            vg::Status::invalid_argument);
  ASSERT_EQ(dg.g.send_command(dg.postprocess, vg::ControlCommand::make(kCmdGetSettings), 1s, &reply), vg::Status::ok);
  EXPECT_NE(reply.text().find("score_threshold=0.999"), std::string_view::npos) << reply.text();
}

TEST_F(DetectionKernelsTest, OverlayDrawsOnABgrCopyOfTheImage) {
  const auto model = synthetic::blazeface();
  DetectionGraph dg(ctx, model, false, "blazeface", 548, 342);
  dg.g.verify();
  dg.fill(model, false);
  ASSERT_EQ(dg.g.process(), vg::Status::ok) << dg.g.last_error().describe();
  const auto* pkt = dg.g.user_data<DetectionPacket>(dg.detections);
  ASSERT_GT(pkt->count, 0u);
  const vg::ImageView in = dg.g.image(dg.image);
  const vg::ImageView out = dg.g.image(dg.annotated);
  ASSERT_EQ(out.format(), vg::ImageFormat::bgr24);
  ASSERT_EQ(out.width(), in.width());
  // A pixel on the top edge of the first box changed; one far from every box did not.
  const Detection& d = pkt->items[0];
  const auto at = [](const vg::ImageView& v, int x, int y) { return v.plane(0) + y * v.stride(0) + x * 3; };
  const int bx = static_cast<int>(0.5f * (d.x0 + d.x1)), by = static_cast<int>(d.y0) + 1;
  EXPECT_NE(std::memcmp(at(in, bx, by), at(out, bx, by), 3), 0);
  bool far_unchanged = true;
  for (int y = 0; y < 342; y += 7)
    for (int x = 0; x < 548; x += 7) {
      bool near = false;
      for (std::uint32_t i = 0; i < pkt->count; ++i)
        near |= x > pkt->items[i].x0 - 80 && x < pkt->items[i].x1 + 80 && y > pkt->items[i].y0 - 80 &&
                y < pkt->items[i].y1 + 80;
      if (!near && std::memcmp(at(in, x, y), at(out, x, y), 3) != 0) far_unchanged = false;
    }
  EXPECT_TRUE(far_unchanged);
}

TEST_F(DetectionKernelsTest, PostprocessWithoutGeometryUsesTheModelSize) {
  const auto model = synthetic::yolov5_heads();
  vg::Graph g(ctx, "v5");
  std::vector<vg::DataId> outs;
  auto node = g.add_node("post", "vg.detection.postprocess");
  for (std::size_t i = 0; i < 3; ++i) {
    outs.push_back(g.add_data("o" + std::to_string(i), test::meta_of(model.refs_i8[i])));
    g.bind(node, "in" + std::to_string(i), outs.back());
  }
  auto det = g.add_virtual("det", vg::DataKind::user_data);
  g.bind(node, "detections", det).set_attribute(node, "decoder", std::string("yolov5"));
  g.set_attribute(node, "model_width", std::int64_t{640}).set_attribute(node, "model_height", std::int64_t{640});
  g.set_attribute(node, "score_threshold", 0.25);
  g.verify();
  for (std::size_t i = 0; i < 3; ++i)
    std::memcpy(g.tensor(outs[i]).data(), model.refs_i8[i].data, static_cast<std::size_t>(model.refs_i8[i].num_elements()));
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const auto* pkt = g.user_data<DetectionPacket>(det);
  ASSERT_GT(pkt->count, 0u);
  for (std::uint32_t i = 0; i < pkt->count; ++i) {
    EXPECT_LE(pkt->items[i].x1, 640.0f);
    EXPECT_GE(pkt->items[i].score, 0.25f);
  }
}

TEST_F(DetectionKernelsTest, ValidateRejectsBadGraphsNamingTheParameter) {
  const auto model = synthetic::blazeface();
  {  // 3 of the 4 BlazeFace tensors
    vg::Graph g(ctx, "three");
    auto node = g.add_node("post", "vg.detection.postprocess");
    for (int i = 0; i < 3; ++i)
      g.bind(node, "in" + std::to_string(i), g.add_data("o" + std::to_string(i), test::meta_of(model.refs_f32[static_cast<std::size_t>(i)])));
    g.bind(node, "detections", g.add_virtual("det", vg::DataKind::user_data));
    g.set_attribute(node, "model_width", std::int64_t{128}).set_attribute(node, "model_height", std::int64_t{128});
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'in0'"), std::string::npos) << e;
    EXPECT_NE(e.find("blazeface needs 4 tensors"), std::string::npos) << e;
  }
  {
    vg::Graph g(ctx, "shape");
    auto node = g.add_node("post", "vg.detection.postprocess");
    for (int i = 0; i < 4; ++i) {
      TensorRef r = model.refs_f32[static_cast<std::size_t>(i)];
      if (i == 3) r.dims[2] = 8;
      g.bind(node, "in" + std::to_string(i), g.add_data("o" + std::to_string(i), test::meta_of(r)));
    }
    g.bind(node, "detections", g.add_virtual("det", vg::DataKind::user_data));
    g.set_attribute(node, "model_width", std::int64_t{128}).set_attribute(node, "model_height", std::int64_t{128});
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'in3'"), std::string::npos) << e;
    EXPECT_NE(e.find("[1,384,16]"), std::string::npos) << e;
  }
  {
    vg::Graph g(ctx, "nogeometry");
    auto node = g.add_node("post", "vg.detection.postprocess");
    for (int i = 0; i < 4; ++i)
      g.bind(node, "in" + std::to_string(i), g.add_data("o" + std::to_string(i), test::meta_of(model.refs_f32[static_cast<std::size_t>(i)])));
    g.bind(node, "detections", g.add_virtual("det", vg::DataKind::user_data));
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'geometry'"), std::string::npos) << e;
  }
  {
    vg::Graph g(ctx, "gray");
    auto lb = g.add_node("lb", "vg.detection.letterbox");
    g.bind(lb, "input", g.add_data("img", vg::DataMeta::image_of(64, 48, vg::ImageFormat::gray8)));
    g.bind(lb, "output", g.add_virtual("t", vg::DataKind::tensor));
    g.bind(lb, "geometry", g.add_virtual("geo", vg::DataKind::user_data));
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'input'"), std::string::npos) << e;
  }
  {
    vg::Graph g(ctx, "virtual");
    auto lb = g.add_node("lb", "vg.detection.letterbox");
    g.bind(lb, "input", g.add_data("img", vg::DataMeta::image_of(64, 48, vg::ImageFormat::bgr24)));
    g.bind(lb, "output", g.add_virtual("t", vg::DataKind::tensor));
    g.bind(lb, "geometry", g.add_virtual("geo", vg::DataKind::user_data));
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'output'"), std::string::npos) << e;
  }
  {
    vg::Graph g(ctx, "decoder");
    auto node = g.add_node("post", "vg.detection.postprocess");
    g.bind(node, "in0", g.add_data("o0", test::meta_of(model.refs_f32[0])));
    g.bind(node, "detections", g.add_virtual("det", vg::DataKind::user_data));
    g.set_attribute(node, "decoder", std::string("ssd"));
    const std::string e = verify_error(g);
    EXPECT_NE(e.find("'decoder'"), std::string::npos) << e;
  }
}

TEST_F(DetectionKernelsTest, OverlayConvertsNv12AndRgbInputToBgr) {
  for (vg::ImageFormat f : {vg::ImageFormat::nv12, vg::ImageFormat::rgb24}) {
    vg::Graph g(ctx, "ov");
    auto img = g.add_data("img", vg::DataMeta::image_of(64, 48, f));
    auto det = g.add_data("det", vg::DataMeta::user_data_of<DetectionPacket>(kDetectionsTypeName));
    auto out = g.add_virtual("out", vg::DataKind::image);
    auto ov = g.add_node("ov", "vg.detection.overlay");
    g.bind(ov, "image", img).bind(ov, "detections", det).bind(ov, "output", out);
    g.verify();
    const vg::ImageView v = g.image(img);
    if (f == vg::ImageFormat::nv12) {
      std::memset(v.plane(0), 128, v.stride(0) * 48);
      std::memset(v.plane(1), 128, v.stride(1) * 24);
    } else {
      for (int y = 0; y < 48; ++y)
        for (int x = 0; x < 64; ++x) {
          std::uint8_t* p = v.plane(0) + y * v.stride(0) + x * 3;
          p[0] = 200;  // R
          p[1] = 100;  // G
          p[2] = 10;   // B
        }
    }
    auto* pkt = g.user_data<DetectionPacket>(det);
    pkt->count = 1;
    pkt->items[0].x0 = 10;
    pkt->items[0].y0 = 20;
    pkt->items[0].x1 = 40;
    pkt->items[0].y1 = 40;
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
    const vg::ImageView o = g.image(out);
    const std::uint8_t* far = o.plane(0) + 45 * o.stride(0) + 60 * 3;  // outside the box and label
    if (f == vg::ImageFormat::nv12) {
      EXPECT_NEAR(far[0], 130, 1);  // 1.164 * (128 - 16)
      EXPECT_NEAR(far[2], 130, 1);
    } else {
      EXPECT_EQ(far[0], 10);  // B
      EXPECT_EQ(far[2], 200);  // R
    }
    std::uint8_t color[3];
    Overlay::class_color(0, color);
    const std::uint8_t* edge = o.plane(0) + 39 * o.stride(0) + 25 * 3;  // bottom edge of the box
    EXPECT_EQ(edge[1], color[1]);
  }
}

TEST_F(DetectionKernelsTest, LetterboxAcceptsAnExplicitU8TensorAndNv12Input) {
  vg::Graph g(ctx, "u8");
  auto img = g.add_data("img", vg::DataMeta::image_of(320, 240, vg::ImageFormat::nv12));
  auto t = g.add_data("t", vg::DataMeta::tensor_of({1, 160, 160, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
  auto lb = g.add_node("lb", "vg.detection.letterbox");
  g.bind(lb, "input", img).bind(lb, "output", t).bind(lb, "geometry", g.add_virtual("geo", vg::DataKind::user_data));
  g.set_attribute(lb, "pad_value", std::int64_t{114});
  g.verify();
  const vg::ImageView v = g.image(img);
  std::memset(v.plane(0), 128, v.stride(0) * 240);  // mid grey
  std::memset(v.plane(1), 128, v.stride(1) * 120);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const std::uint8_t* p = g.tensor(t).data_as<std::uint8_t>();
  EXPECT_EQ(p[0], 114);                               // padding row
  EXPECT_NEAR(p[(80 * 160 + 80) * 3], 130, 2);        // 1.164 * (128 - 16)
}

}  // namespace
