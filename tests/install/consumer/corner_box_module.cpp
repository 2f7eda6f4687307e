// A kernel module built out of tree against an installed visiongraph and loaded by the installed command
// (`modules: [{library: .../libcorner_box.so}]`): one detection, the image inset by `inset` pixels.
#include <algorithm>
#include <cstdint>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using vg::detection::DetectionPacket;

struct CornerBox {
  explicit CornerBox(vg::KernelContext& ctx) : inset(static_cast<float>(ctx.integer("inset"))) {}

  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView image = ctx.image(0);
    DetectionPacket& out = ctx.user_data<DetectionPacket>(1);
    out.sequence = ctx.frame().sequence;
    out.timestamp_ns = ctx.frame().timestamp_ns;
    out.flags = vg::detection::kDetectionsValid;
    out.count = 1;
    vg::detection::Detection& d = out.items[0];
    d = {};
    d.x0 = inset;
    d.y0 = inset;
    d.x1 = std::max(inset, static_cast<float>(image.width()) - inset);
    d.y1 = std::max(inset, static_cast<float>(image.height()) - inset);
    d.score = 0.75f;
    return vg::Status::ok;
  }

  float inset;
};

void fill(vg::Module& module) {
  module = vg::Module("consumer.corner_box");
  module.add(vg::KernelDecl("consumer.corner_box", "one box: the image minus an inset")
                 .input("image", vg::DataKind::image, true, "any image")
                 .output("boxes", vg::DataKind::user_data, true, "DetectionPacket with one detection")
                 .attribute("inset", 2, "pixels left out on every side")
                 .validate([](vg::ValidateContext& v) {
                   if (v.integer("inset") < 0) v.fail("inset", "must be >= 0");
                   v.set_meta(1, vg::DataMeta::user_data_of<DetectionPacket>("vg.detection.detections"));
                 }));
  module.implement("consumer.corner_box", "cpu", vg::callbacks_for<CornerBox>());
}

}  // namespace

VG_DEFINE_MODULE(fill)
