#pragma once
// The face-detection graph the NPU benches stream through (bench_replicas, bench_streams): letterbox (cpu0)
// -> vg.inference over the given NPU targets -> decode (cpu1), optionally -> track (cpu1), fed a synthetic
// 640x480 frame through graph parameters, with the results taken back in order.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "visiongraph/visiongraph.hpp"

namespace vg_bench {

inline constexpr int kFrameW = 640, kFrameH = 480;

struct FaceStreamOptions {
  std::string model;
  std::string runtime;                    ///< vg.inference's runtime_path (empty: the default)
  bool u8_input = true;                   ///< u8 NHWC input (rknn) rather than f32 (the ONNX model)
  std::vector<std::string> npu_targets;   ///< the detector's replicas, one per target
  bool async = false;                     ///< vg.inference's async attribute
  bool track = false;                     ///< add vg.detection.track after decode (its output is the result)
  std::uint32_t pattern_shift = 0;        ///< shifts the synthetic frame (tell streams apart)
};

/// One verified graph of @p context; streaming is started by start().
struct FaceStream {
  FaceStream(vg::Context& context, const std::string& name, const FaceStreamOptions& o) : graph(context, name) {
    frame = graph.add_data("frame", vg::DataMeta::image_of(kFrameW, kFrameH, vg::ImageFormat::bgr24));
    const vg::DataId input = graph.add_data(
        "face_input", vg::DataMeta::tensor_of({1, 256, 256, 3}, o.u8_input ? vg::ElementType::u8 : vg::ElementType::f32,
                                              vg::TensorLayout::nhwc));
    const vg::DataId geometry = graph.add_virtual("geometry", vg::DataKind::user_data);
    const vg::DataId faces = graph.add_virtual("faces", vg::DataKind::user_data);
    const vg::NodeId letterbox = graph.add_node("letterbox", "vg.detection.letterbox");
    graph.bind(letterbox, "input", frame).bind(letterbox, "output", input).bind(letterbox, "geometry", geometry);
    graph.set_attribute(letterbox, "mapping", std::string(o.u8_input ? "none" : "blazeface"));
    graph.set_target(letterbox, "cpu0");
    detector = graph.add_node("detector", "vg.inference");
    graph.set_attribute(detector, "model", o.model);
    if (!o.runtime.empty()) graph.set_attribute(detector, "runtime_path", o.runtime);
    if (o.async) graph.set_attribute(detector, "async", true);
    graph.set_attribute(detector, "npu_cores", std::int64_t{3});  // one replica per RK3588 core, as on the board
    graph.bind(detector, "input", input);
    const vg::NodeId decode = graph.add_node("decode", "vg.detection.postprocess");
    for (int i = 0; i < 4; ++i) {
      const vg::DataId out = graph.add_virtual("out" + std::to_string(i), vg::DataKind::tensor);
      graph.bind(detector, "out" + std::to_string(i), out);
      graph.bind(decode, "in" + std::to_string(i), out);
    }
    graph.set_targets(detector, o.npu_targets);
    graph.bind(decode, "geometry", geometry).bind(decode, "detections", faces);
    graph.set_attribute(decode, "decoder", std::string("blazeface"));
    graph.set_attribute(decode, "score_threshold", 0.75);
    graph.set_target(decode, "cpu1");
    gin = graph.add_graph_parameter(letterbox, "input");  // kAutoBuffers
    if (o.track) {
      const vg::DataId tracked = graph.add_virtual("tracked_faces", vg::DataKind::user_data);
      const vg::NodeId track = graph.add_node("track", "vg.detection.track");
      graph.bind(track, "detections", faces).bind(track, "tracked", tracked);
      graph.set_target(track, "cpu1");
      gout = graph.add_graph_parameter(track, "tracked");
    } else {
      gout = graph.add_graph_parameter(decode, "detections");
    }
    graph.verify();
    // A synthetic frame (a gradient): the content does not change the cost of any stage much.
    for (std::uint32_t b = 0; b < graph.num_buffers(frame); ++b) {
      const vg::ImageView img = graph.image(frame, b);
      for (std::uint32_t y = 0; y < img.height(); ++y)
        for (std::uint32_t x = 0; x < img.width() * 3; ++x)
          img.plane()[y * img.stride() + x] = static_cast<std::uint8_t>((x / 3 + y + x % 3 * 40 + o.pattern_shift) & 0xff);
    }
  }
  ~FaceStream() { (void)graph.stop(vg::StopMode::abandon); }
  FaceStream(const FaceStream&) = delete;
  FaceStream& operator=(const FaceStream&) = delete;

  /// Starts streaming with every output buffer handed over; no input yet.
  bool start() {
    if (graph.start() != vg::Status::ok) return false;
    for (std::uint32_t k = 0; k < graph.num_buffers(graph.data_of(gout)); ++k)
      if (graph.enqueue(gout, k) != vg::Status::ok) return false;
    for (std::uint32_t k = 0; k < graph.num_buffers(frame); ++k) free_in.push_back(k);
    return true;
  }
  /// Keeps up to pipeline_depth frames in flight, then takes one result back (in order, tag checked).
  bool step() {
    const std::size_t limit = graph.pipeline_depth();
    while (!free_in.empty() && sent - received < limit) {
      const std::uint32_t k = free_in.back();
      free_in.pop_back();
      vg::FrameStamp stamp;
      stamp.tag = sent++;
      if (graph.enqueue(gin, k, stamp) != vg::Status::ok) return false;
    }
    return take();
  }
  /// Takes back every frame in flight (pausing the stream).
  bool drain() {
    while (received < sent)
      if (!take()) return false;
    return true;
  }
  /// Takes one result back and recycles its buffers.
  bool take() {
    using namespace std::chrono_literals;
    vg::DequeuedBuffer done;
    if (graph.dequeue(gout, done, 30s) != vg::Status::ok) return false;
    if (done.tag != received) ++out_of_order;
    if (done.status != vg::Status::ok) ++failed;
    ++received;
    if (graph.enqueue(gout, done.index) != vg::Status::ok) return false;
    vg::DequeuedBuffer used;
    if (graph.dequeue(gin, used, 30s) != vg::Status::ok) return false;
    free_in.push_back(used.index);
    completed.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  vg::Graph graph;
  vg::DataId frame;
  vg::NodeId detector;
  vg::GraphParamId gin, gout;
  std::vector<std::uint32_t> free_in;
  std::uint64_t sent = 0, received = 0, out_of_order = 0, failed = 0;
  std::atomic<std::uint64_t> completed{0};  // may be read by another thread
};

}  // namespace vg_bench
