// The example kernel: declaration (parameters, attributes, commands, validate) and its CPU implementation.

#include "bright_spot.hpp"

#include <algorithm>
#include <cstdio>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/visiongraph.hpp"

namespace example {

namespace {

using vg::detection::DetectionPacket;

struct BrightSpot {
  // create: read the attributes once.
  explicit BrightSpot(vg::KernelContext& ctx)
      : threshold(static_cast<int>(ctx.integer("threshold"))), min_pixels(ctx.integer("min_pixels")) {}

  // process: per frame; no allocation.
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView img = ctx.image(0);
    DetectionPacket& out = ctx.user_data<DetectionPacket>(1);
    out.sequence = ctx.frame().sequence;
    out.timestamp_ns = ctx.frame().timestamp_ns;
    out.count = 0;
    out.flags = vg::detection::kDetectionsValid;
    const int w = static_cast<int>(img.width()), h = static_cast<int>(img.height());
    const int channels = img.format() == vg::ImageFormat::gray8 ? 1 : 3;
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    std::int64_t n = 0;
    double sx = 0, sy = 0;
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* row = img.plane(0) + static_cast<std::size_t>(y) * img.stride(0);
      for (int x = 0; x < w; ++x) {
        const std::uint8_t* p = row + x * channels;
        const int luma = channels == 1 ? p[0] : (p[0] + p[1] + p[2]) / 3;
        if (luma < threshold) continue;
        x0 = std::min(x0, x);
        y0 = std::min(y0, y);
        x1 = std::max(x1, x);
        y1 = std::max(y1, y);
        sx += x + 0.5;
        sy += y + 0.5;
        ++n;
      }
    }
    if (n < std::max<std::int64_t>(1, min_pixels)) return vg::Status::ok;
    vg::detection::Detection& d = out.items[0];
    d = {};
    d.x0 = static_cast<float>(x0);
    d.y0 = static_cast<float>(y0);
    d.x1 = static_cast<float>(x1 + 1);
    d.y1 = static_cast<float>(y1 + 1);
    d.score = static_cast<float>(static_cast<double>(n) / ((x1 - x0 + 1.0) * (y1 - y0 + 1.0)));  // fill ratio
    d.num_keypoints = 1;
    d.keypoints[0] = {static_cast<float>(sx / static_cast<double>(n)), static_cast<float>(sy / static_cast<double>(n))};
    out.count = 1;
    return vg::Status::ok;
  }

  // control: between frames, on the node's own target thread.
  vg::Status control(vg::KernelContext&, const vg::ControlCommand& cmd, vg::CommandReply& reply) noexcept {
    if (cmd.id == kSetThreshold) {
      std::int64_t value = 0;
      if (!cmd.read(value) || value < 0 || value > 255) {
        reply.write_text("threshold must be an integer 0..255");
        return vg::Status::invalid_argument;
      }
      threshold = static_cast<int>(value);
    }
    char text[32];
    std::snprintf(text, sizeof(text), "threshold=%d", threshold);
    reply.write_text(text);
    return vg::Status::ok;
  }

  int threshold;
  std::int64_t min_pixels;
};

}  // namespace

vg::Module make_bright_spot_module() {
  vg::Module m("example.bright_spot");
  m.add(vg::KernelDecl("example.bright_spot", "box around the pixels at or above a brightness threshold")
            .input("image", vg::DataKind::image, true, "bgr24, rgb24 or gray8 image")
            .output("spots", vg::DataKind::user_data, true, "DetectionPacket with at most one detection")
            .attribute("threshold", 200, "brightness 0..255 (mean of the channels)")
            .attribute("min_pixels", 1, "report nothing below this many bright pixels")
            .command(kSetThreshold, "set_threshold", vg::PayloadKind::integer, "new threshold 0..255")
            .command(kGetThreshold, "get_threshold", vg::PayloadKind::none, "reply with the threshold")
            .validate([](vg::ValidateContext& v) {
              if (v.meta(0).image.format == vg::ImageFormat::nv12) v.fail("image", "expects bgr24, rgb24 or gray8");
              const auto t = v.integer("threshold");
              if (t < 0 || t > 255) v.fail("threshold", "must be 0..255");
              v.set_meta(1, vg::DataMeta::user_data_of<DetectionPacket>("vg.detection.detections"));
            }));
  m.implement("example.bright_spot", "cpu", vg::callbacks_for<BrightSpot>());
  return m;
}

}  // namespace example
