// The yaml and detection components from an installed visiongraph: a graph file decodes one YOLOv8-style
// output tensor [1, 4 + classes, anchors] into a DetectionPacket.
#include <cstdio>
#include <exception>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace {
constexpr const char* kGraph = R"(
graph: decode_only
modules: [vg.detection]
data:
  raw: {kind: tensor, dims: [1, 5, 4], type: f32}
  boxes: {kind: user_data, virtual: true}
nodes:
  decode:
    kernel: vg.detection.postprocess
    target: cpu0
    parameters: {in0: raw, detections: boxes}
    attributes: {decoder: yolov8, score_threshold: 0.5, model_width: 64, model_height: 48}
)";
}  // namespace

int main() {
  try {
    vg::yaml::BuildOptions options;
    options.modules["vg.detection"] = [] { return vg::detection::make_detection_module(); };
    auto loaded = vg::yaml::build(vg::yaml::parse_string(kGraph, "decode_only.yaml"), options);
    vg::Graph& graph = loaded->graph();
    float* raw = graph.tensor(loaded->data("raw")).data_as<float>();
    constexpr int kAnchors = 4;
    for (int i = 0; i < 5 * kAnchors; ++i) raw[i] = 0.0f;
    const int anchor = 2;  // rows: cx, cy, w, h, score of class 0
    raw[0 * kAnchors + anchor] = 32.0f;
    raw[1 * kAnchors + anchor] = 24.0f;
    raw[2 * kAnchors + anchor] = 20.0f;
    raw[3 * kAnchors + anchor] = 10.0f;
    raw[4 * kAnchors + anchor] = 0.9f;
    if (graph.process() != vg::Status::ok) {
      std::fprintf(stderr, "detections: process failed\n");
      return 1;
    }
    const auto* packet = graph.user_data<vg::detection::DetectionPacket>(loaded->data("boxes"));
    if (!packet || packet->count != 1) {
      std::fprintf(stderr, "detections: expected 1 detection, got %u\n", packet ? packet->count : 0u);
      return 1;
    }
    const vg::detection::Detection& d = packet->items[0];
    std::printf("detections: count=%u box=[%.0f,%.0f,%.0f,%.0f] score=%.2f\n", packet->count, d.x0, d.y0, d.x1,
                d.y1, d.score);
    return d.x0 == 22.0f && d.y0 == 19.0f && d.x1 == 42.0f && d.y1 == 29.0f ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "detections: %s\n", e.what());
    return 1;
  }
}
