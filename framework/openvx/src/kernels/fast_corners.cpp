// The standard kernel FastCorners: a function and a validate (standard_kernel_support.hpp).
//
// FAST9 on a U8 image. The 16 pixels of the Bresenham circle of radius 3 around a candidate p are read in
// order around it; p is a corner for a threshold t when 9 contiguous of them (the circle wraps) are all
// brighter than I_p + t, or all darker than I_p - t (strictly: the Khronos conformance checker's test).
// t is the strength_thresh scalar (VX_TYPE_FLOAT32, 0 <= t < 256, its fraction dropped as the
// specification says).
//
// A corner's strength is the largest threshold for which it is still a corner: over every arc of 9, the
// smallest |I_x - I_p| of one sign, maximised over the arcs and both signs, less 1. With
// nonmax_suppression (a vx_bool), a corner stays only when its strength is >= that of its left, upper-left,
// upper and upper-right neighbours and > that of the other four (a pixel that is no corner counts as 0):
// of two equal neighbours exactly one survives.
//
// Only pixels whose circle lies inside the image (3 pixels from each edge) are candidates, under every
// border mode. Corners go to the output array as vx_keypoint_t (x, y, strength, scale 0, orientation 0,
// tracking_status 1, error 0) in raster order, up to its capacity; num_corners (optional, VX_TYPE_SIZE)
// gets the number of corners found, which can exceed what the array holds.
//
// Images with packed pixels go to the vision library's function (kernels/vision/fast_corners.hpp:
// vectorised, the same corners and strengths in the same order), with its three rows of scratch in the
// node's local data, sized at validation. The per-pixel walk below serves the rest (a strided patch of an
// image from a handle); its non-maximum suppression recomputes the strengths of a corner's neighbours
// instead of keeping a strength image: corners are few, so this costs little. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <span>

#include "array.hpp"
#include "graph.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"

namespace vg::openvx {
namespace {

// The circle, the vision library's (fast_corners.hpp).
constexpr int kRadius = static_cast<int>(vision::kFastRadius);
constexpr int kArc = vision::kFastArc;
constexpr int kCircle = vision::kFastCircle;
constexpr const int (&kCircleX)[kCircle] = vision::kFastCircleX;
constexpr const int (&kCircleY)[kCircle] = vision::kFastCircleY;

class Detector {
 public:
  Detector(const MappedImage& in, int threshold) noexcept : in_(in), threshold_(threshold) {
    for (int i = 0; i < kCircle; ++i) {
      offsets_[i] = static_cast<std::ptrdiff_t>(kCircleY[i]) * in.addressing().stride_y + static_cast<std::ptrdiff_t>(kCircleX[i]) * in.stride_x();
    }
  }

  bool candidate(vx_uint32 x, vx_uint32 y) const noexcept {
    return x >= kRadius && y >= kRadius && x + kRadius < in_.width() && y + kRadius < in_.height();
  }

  /// The corner strength at (x, y), a candidate; -1 when it is no corner at the threshold.
  int strength(vx_uint32 x, vx_uint32 y) const noexcept {
    const vx_uint8* p = in_.row(y) + static_cast<std::ptrdiff_t>(x) * in_.stride_x();
    const int c = p[0];
    // Any arc of 9 holds at least two of the four compass pixels (0, 4, 8, 12): a quick rejection.
    int bright = 0, dark = 0;
    for (int i = 0; i < kCircle; i += 4) {
      const int v = p[offsets_[i]];
      bright += v > c + threshold_ ? 1 : 0;
      dark += v < c - threshold_ ? 1 : 0;
    }
    if (bright < 2 && dark < 2) return -1;
    int d[kCircle];
    for (int i = 0; i < kCircle; ++i) d[i] = p[offsets_[i]] - c;
    int best = 0;  // the largest, over arcs and signs, of the arc's smallest difference of that sign
    for (int start = 0; start < kCircle; ++start) {
      int low_bright = 255, low_dark = 255;
      for (int k = 0; k < kArc; ++k) {
        const int v = d[(start + k) % kCircle];
        low_bright = std::min(low_bright, v);
        low_dark = std::min(low_dark, -v);
      }
      best = std::max(best, std::max(low_bright, low_dark));
    }
    return best > threshold_ ? best - 1 : -1;
  }

  /// strength(), with 0 for a pixel that is no corner or no candidate (non-maximum suppression's view).
  int suppression_strength(vx_uint32 x, vx_uint32 y) const noexcept {
    if (!candidate(x, y)) return 0;
    return std::max(strength(x, y), 0);
  }

  /// Whether the corner at (x, y) of strength @p s survives non-maximum suppression.
  bool is_maximum(vx_uint32 x, vx_uint32 y, int s) const noexcept {
    return s >= suppression_strength(x - 1, y - 1) && s >= suppression_strength(x, y - 1) && s >= suppression_strength(x + 1, y - 1) &&
           s >= suppression_strength(x - 1, y) && s > suppression_strength(x + 1, y) && s > suppression_strength(x - 1, y + 1) &&
           s > suppression_strength(x, y + 1) && s > suppression_strength(x + 1, y + 1);
  }

 private:
  const MappedImage& in_;
  int threshold_;
  std::ptrdiff_t offsets_[kCircle];
};

inline bool threshold_allowed(vx_float32 t) noexcept { return t >= 0.0f && t < 256.0f; }  // false for NaN

/// The vision library's corners into the output array (and its count of all of them).
class KeypointSink final : public vision::FastCornerSink {
 public:
  explicit KeypointSink(KeypointWriter& corners) noexcept : corners_(corners) {}
  void take(std::span<const vision::FastCorner> batch) noexcept override {
    for (const vision::FastCorner& c : batch) corners_.add(c.x, c.y, static_cast<vx_float32>(c.strength));
  }

 private:
  KeypointWriter& corners_;
};

vx_status VX_CALLBACK fast_corners_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 threshold = 0.0f;
  vx_bool nonmax = vx_false_e;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &threshold, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &nonmax, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (!threshold_allowed(threshold)) return VX_ERROR_INVALID_VALUE;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  const int whole_threshold = static_cast<int>(threshold);  // the fraction dropped
  KeypointWriter corners(reinterpret_cast<vx_array>(parameters[3]));
  const _vx_node* n = as<_vx_node>(node);
  if (packed(in, 1) && n->local_data != nullptr) {
    KeypointSink sink(corners);
    std::size_t found = 0;
    if (vision::fast_corners(const_plane(in), {static_cast<std::uint8_t>(whole_threshold), nonmax != vx_false_e},
                             {static_cast<std::uint8_t*>(n->local_data), n->local_data_size}, sink, found)) {
      return corners.finish(parameters[4]);
    }
  }
  const Detector detector(in, whole_threshold);
  for (vx_uint32 y = kRadius; y + kRadius < in.height(); ++y) {
    for (vx_uint32 x = kRadius; x + kRadius < in.width(); ++x) {
      const int s = detector.strength(x, y);
      if (s < 0 || (nonmax != vx_false_e && !detector.is_maximum(x, y, s))) continue;
      corners.add(x, y, static_cast<vx_float32>(s));
    }
  }
  return corners.finish(parameters[4]);
}

vx_status VX_CALLBACK fast_corners_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  vx_float32 threshold = 0.0f;
  bool known = false;
  if (const vx_status s = scalar_input(node, parameters, 1, "strength_thresh", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", threshold, known);
      s != VX_SUCCESS) {
    return s;
  }
  if (known && !threshold_allowed(threshold)) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "strength_thresh is %g, it must be in [0, 256)", static_cast<double>(threshold));
  }
  vx_bool nonmax = vx_false_e;
  if (const vx_status s = scalar_input(node, parameters, 2, "nonmax_suppression", VX_TYPE_BOOL, "VX_TYPE_BOOL", nonmax, known); s != VX_SUCCESS) {
    return s;
  }
  // A virtual array of open capacity gets room for a corner at every pixel.
  const vx_size every_pixel = static_cast<vx_size>(input->width) * input->height;
  if (const vx_status s = keypoint_array_output(node, parameters, metas, 3, "corners", every_pixel); s != VX_SUCCESS) return s;
  // The vision library's scratch, allocated with the node's local data when the graph is set up.
  as<_vx_node>(node)->local_data_size = vision::fast_corners_scratch_size(input->width);
  return optional_size_output(node, parameters, metas, 4, "num_corners");
}

constexpr StandardKernelFunctions kFastKernels[] = {
    {VX_KERNEL_FAST_CORNERS, &fast_corners_function, &fast_corners_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> fast_kernels() noexcept { return kFastKernels; }

}  // namespace vg::openvx
