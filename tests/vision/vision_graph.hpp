#pragma once
// A graph of vg.vision kernels for the tests: bgr24 frame -> to_gray -> gaussian3x3 -> threshold -> erode3x3
// -> dilate3x3 (an opening of the bright regions), each stage's output readable.
#include <cstdint>
#include <cstring>
#include <string>

#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::vision::test {

struct VisionGraph {
  VisionGraph(Context& ctx, std::uint32_t width, std::uint32_t height, bool virtual_stages = false) : g(ctx, "vision") {
    frame = g.add_data("frame", DataMeta::image_of(width, height, ImageFormat::bgr24));
    auto stage = [&](const char* name) {
      return virtual_stages ? g.add_virtual(name, DataKind::image)
                            : g.add_data(name, DataMeta::image_of(width, height, ImageFormat::gray8));
    };
    gray = stage("gray");
    smooth = stage("smooth");
    mask = stage("mask");
    eroded = stage("eroded");
    opened = g.add_data("opened", DataMeta::image_of(width, height, ImageFormat::gray8));
    to_gray = node("to_gray", "vg.vision.to_gray", frame, gray);
    gaussian = node("gaussian", "vg.vision.gaussian3x3", gray, smooth);
    threshold = node("threshold", "vg.vision.threshold", smooth, mask);
    erode = node("erode", "vg.vision.erode3x3", mask, eroded);
    dilate = node("dilate", "vg.vision.dilate3x3", eroded, opened);
  }

  NodeId node(const char* name, const char* kernel, DataId in, DataId out) {
    const NodeId n = g.add_node(name, kernel);
    g.bind(n, "input", in).bind(n, "output", out);
    return n;
  }

  /// A bright square (value 200) on a dark (20) frame, with single bright pixels the opening removes.
  void fill_frame() {
    const ImageView img = g.image(frame);
    for (std::uint32_t y = 0; y < img.height(); ++y) {
      std::uint8_t* row = img.plane(0) + y * img.stride(0);
      for (std::uint32_t x = 0; x < img.width(); ++x) {
        const bool square = x >= img.width() / 4 && x < img.width() / 2 && y >= img.height() / 4 && y < img.height() / 2;
        const bool speck = x % 37 == 5 && y % 29 == 7;
        std::memset(row + 3 * x, square || speck ? 200 : 20, 3);
      }
    }
  }

  Graph g;
  DataId frame, gray, smooth, mask, eroded, opened;
  NodeId to_gray, gaussian, threshold, erode, dilate;
};

}  // namespace vg::vision::test
