#pragma once
// Small graphs around the vg.detection kernels, shared by the kernel tests and the kernel zero-allocation
// test: an image -> letterbox, synthetic model outputs -> postprocess (with the letterbox geometry) ->
// overlay on the image.

#include <cstring>
#include <string>
#include <vector>

#include "synthetic_outputs.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::detection::test {

inline DataMeta meta_of(const TensorRef& t) {
  TensorMeta m;
  m.rank = static_cast<std::uint32_t>(t.rank);
  for (int i = 0; i < t.rank; ++i) m.dims[static_cast<std::size_t>(i)] = t.dims[i];
  m.type = t.type == ElemType::f32 ? ElementType::f32 : (t.type == ElemType::i8 ? ElementType::i8 : ElementType::u8);
  m.layout = t.rank == 4 ? TensorLayout::nchw : TensorLayout::unspecified;
  m.scale = t.scale;
  m.zero_point = t.zero_point;
  return DataMeta::tensor_of(m);
}

/// image (bgr24) -> letterbox -> tensor + geometry; model outputs (graph data filled from @p model) ->
/// postprocess -> detections -> overlay(image) -> annotated.
struct DetectionGraph {
  DetectionGraph(Context& ctx, const synthetic::Model& model, bool int8, const std::string& decoder, int img_w = 640,
                 int img_h = 480)
      : g(ctx, "detection") {
    image = g.add_data("image", DataMeta::image_of(static_cast<std::uint32_t>(img_w), static_cast<std::uint32_t>(img_h),
                                                   ImageFormat::bgr24));
    tensor = g.add_virtual("tensor", DataKind::tensor);
    geometry = g.add_virtual("geometry", DataKind::user_data);
    detections = g.add_virtual("detections", DataKind::user_data);
    annotated = g.add_virtual("annotated", DataKind::image);
    letterbox = g.add_node("letterbox", "vg.detection.letterbox");
    g.bind(letterbox, "input", image).bind(letterbox, "output", tensor).bind(letterbox, "geometry", geometry);
    g.set_attribute(letterbox, "width", std::int64_t{model.input}).set_attribute(letterbox, "height", std::int64_t{model.input});
    g.set_attribute(letterbox, "mapping", std::string(decoder == "blazeface" ? "blazeface" : "unit"));
    postprocess = g.add_node("postprocess", "vg.detection.postprocess");
    const auto& refs = int8 ? model.refs_i8 : model.refs_f32;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      outputs.push_back(g.add_data("out" + std::to_string(i), meta_of(refs[i])));
      g.bind(postprocess, "in" + std::to_string(i), outputs.back());
    }
    g.bind(postprocess, "geometry", geometry).bind(postprocess, "detections", detections);
    g.set_attribute(postprocess, "decoder", decoder);
    overlay = g.add_node("overlay", "vg.detection.overlay");
    g.bind(overlay, "image", image).bind(overlay, "detections", detections).bind(overlay, "output", annotated);
    g.set_attribute(overlay, "labels", std::string("face"));
  }

  /// Copy the model's tensors into the graph's input objects (after verify).
  void fill(const synthetic::Model& model, bool int8) {
    const auto& refs = int8 ? model.refs_i8 : model.refs_f32;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const std::size_t bytes = static_cast<std::size_t>(refs[i].num_elements()) * (int8 ? 1 : 4);
      std::memcpy(g.tensor(outputs[i]).data(), refs[i].data, bytes);
    }
    const ImageView img = g.image(image);
    for (std::uint32_t y = 0; y < img.height(); ++y)
      std::memset(img.plane(0) + y * img.stride(0), static_cast<int>(40 + y % 100), img.width() * 3);
  }

  Graph g;
  DataId image, tensor, geometry, detections, annotated;
  std::vector<DataId> outputs;
  NodeId letterbox, postprocess, overlay;
};

}  // namespace vg::detection::test
