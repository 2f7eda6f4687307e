// The standard kernel HarrisCorners: a function and a validate (standard_kernel_support.hpp).
//
// Harris-Stephens corners of a U8 image. Gx and Gy are the image's Sobel gradients of gradient_size g
// (3, 5 or 7), each divided by 2^(g-1) * 255 * b so that scores do not depend on g, the block size b or the
// pixel range. Over the b x b block centred on a pixel, A holds the sums of Gx^2, Gx*Gy and Gy^2, and the
// pixel's score is Mc = det(A) - k * trace(A)^2, k being the sensitivity. A pixel is a candidate where
// Mc > strength_thresh (T); Vc is Mc there and 0 elsewhere. Candidates then go through FAST's non-maximum
// suppression over Vc (>= the left and the three upper neighbours, > the other four), so only pixels with
// all eight neighbours inside the image are candidates. The survivors, strongest first, become corners
// unless a corner already taken lies closer than min_distance (Euclidean, in pixels).
//
// Parameters: strength_thresh, min_distance (>= 0) and sensitivity are VX_TYPE_FLOAT32 scalars,
// gradient_size and block_size VX_TYPE_INT32 scalars (the node function wraps its values). Corners go to
// the output array as vx_keypoint_t (x, y, strength Vc, scale 0, orientation 0, tracking_status 1,
// error 0), strongest first, up to its capacity; num_corners (optional, VX_TYPE_SIZE) gets how many were
// found, which can exceed what the array holds.
//
// Gradients and block sums near the edges read the image extended by the node's border: CONSTANT with
// its value, REPLICATE with the nearest edge pixel. UNDEFINED leaves those scores open; this library then
// mirrors the image about its edge pixels (the edge pixel not repeated), which keeps the gradient across an
// edge at 0 instead of inventing one, as the Khronos conformance checker's reference does. A negative T
// acts as 0: a score of 0 or less marks no corner.
//
// The vision library computes it (kernels/vision/harris.hpp, vectorised, row by row from the image; its
// comment gives the arithmetic bit for bit), with its scratch in the node's local data, sized at validation.
// An image whose pixels are not packed (a strided patch of one from a handle) is first copied into a
// packed plane after that scratch. Nothing is allocated per frame.
#include <VX/vx.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <span>

#include "array.hpp"
#include "checked_size.hpp"
#include "graph.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/harris.hpp"

namespace vg::openvx {
namespace {

inline bool odd_size_allowed(vx_int32 size) noexcept { return size == 3 || size == 5 || size == 7; }
inline bool finite(vx_float32 v) noexcept { return std::isfinite(v); }
inline bool distance_allowed(vx_float32 r) noexcept { return r >= 0.0f && std::isfinite(r); }  // false for NaN

/// The node's local data: the vision library's scratch, then room for a packed copy of the image.
struct ScratchLayout {
  vx_size vision = 0, packed = 0, total = 0;

  /// False when a size does not fit (the image is too large for this kernel's scratch).
  bool plan(vx_uint32 width, vx_uint32 height) noexcept {
    vision = vision::harris_corners_scratch_size(width, height);
    if (vision == std::numeric_limits<std::size_t>::max()) return false;
    vx_size pixels = 0;
    packed = total = vision;
    return checked_bytes(pixels, width, height) && checked_grow(total, pixels);
  }
};

/// The vision library's corners into the output array (and its count of all of them).
class KeypointSink final : public vision::HarrisCornerSink {
 public:
  explicit KeypointSink(KeypointWriter& corners) noexcept : corners_(corners) {}
  void take(std::span<const vision::HarrisCorner> batch) noexcept override {
    for (const vision::HarrisCorner& c : batch) corners_.add(c.x, c.y, c.strength);
  }

 private:
  KeypointWriter& corners_;
};

/// The node's border as the vision library's (UNDEFINED: mirrored, see the file's comment).
vision::HarrisBorder harris_border(const vx_border_t& border) noexcept {
  if (border.mode == VX_BORDER_CONSTANT) return {vision::HarrisBorderMode::constant, border.constant_value.U8};
  if (border.mode == VX_BORDER_REPLICATE) return {vision::HarrisBorderMode::replicate, 0};
  return {vision::HarrisBorderMode::mirror, 0};
}

template <typename T>
vx_status read_scalar(const vx_reference* parameters, vx_uint32 index, T& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[index]), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

vx_status VX_CALLBACK harris_corners_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 8) return VX_ERROR_INVALID_PARAMETERS;
  vision::HarrisOptions options{};
  vx_int32 gradient_size = 0, block_size = 0;
  for (const vx_status status : {read_scalar(parameters, 1, options.threshold), read_scalar(parameters, 2, options.min_distance),
                                 read_scalar(parameters, 3, options.sensitivity), read_scalar(parameters, 4, gradient_size),
                                 read_scalar(parameters, 5, block_size)}) {
    if (status != VX_SUCCESS) return status;
  }
  if (!finite(options.threshold) || !distance_allowed(options.min_distance) || !finite(options.sensitivity) ||
      !odd_size_allowed(gradient_size) || !odd_size_allowed(block_size)) {
    return VX_ERROR_INVALID_VALUE;
  }
  options.gradient_size = gradient_size;
  options.block_size = block_size;
  vx_border_t border{};
  if (const vx_status status = neighbourhood_border(node, border); status != VX_SUCCESS) return status;
  options.border = harris_border(border);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (const vx_status status = in.status(); status != VX_SUCCESS) return status;
  const vx_uint32 width = in.width(), height = in.height();
  ScratchLayout layout;
  if (!layout.plan(width, height)) return VX_ERROR_NO_MEMORY;
  auto* scratch = static_cast<vx_uint8*>(as<_vx_node>(node)->local_data);
  if (scratch == nullptr || as<_vx_node>(node)->local_data_size < layout.total) return VX_ERROR_NO_MEMORY;

  vision::ConstPlane plane = const_plane(in);
  if (!packed(in, 1)) {
    vx_uint8* copy = scratch + layout.packed;
    for (vx_uint32 y = 0; y < height; ++y) {
      const vx_uint8* row = in.row(y);
      for (vx_uint32 x = 0; x < width; ++x) copy[static_cast<std::size_t>(y) * width + x] = row[static_cast<std::ptrdiff_t>(x) * in.stride_x()];
    }
    plane = {copy, width, height, static_cast<std::ptrdiff_t>(width)};
  }
  KeypointWriter corners(reinterpret_cast<vx_array>(parameters[6]));
  KeypointSink sink(corners);
  std::size_t found = 0;
  if (!vision::harris_corners(plane, options, {scratch, layout.vision}, sink, found)) return VX_ERROR_NO_MEMORY;
  return corners.finish(parameters[7]);
}

vx_status VX_CALLBACK harris_corners_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 8) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 8 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  bool known = false;
  vx_float32 threshold = 0.0f, min_distance = 0.0f, sensitivity = 0.0f;
  if (const vx_status s = scalar_input(node, parameters, 1, "strength_thresh", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", threshold, known);
      s != VX_SUCCESS) {
    return s;
  }
  if (known && !finite(threshold)) return refuse(node, VX_ERROR_INVALID_VALUE, "strength_thresh is not a finite number");
  if (const vx_status s = scalar_input(node, parameters, 2, "min_distance", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", min_distance, known);
      s != VX_SUCCESS) {
    return s;
  }
  if (known && !distance_allowed(min_distance)) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "min_distance is %g, it must be a finite number >= 0", static_cast<double>(min_distance));
  }
  if (const vx_status s = scalar_input(node, parameters, 3, "sensitivity", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", sensitivity, known);
      s != VX_SUCCESS) {
    return s;
  }
  if (known && !finite(sensitivity)) return refuse(node, VX_ERROR_INVALID_VALUE, "sensitivity is not a finite number");
  const char* size_names[] = {"gradient_size", "block_size"};
  for (vx_uint32 i = 0; i < 2; ++i) {
    vx_int32 size = 0;
    if (const vx_status s = scalar_input(node, parameters, 4 + i, size_names[i], VX_TYPE_INT32, "VX_TYPE_INT32", size, known); s != VX_SUCCESS) {
      return s;
    }
    if (known && !odd_size_allowed(size)) return refuse(node, VX_ERROR_INVALID_VALUE, "%s is %d, it must be 3, 5 or 7", size_names[i], size);
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;

  ScratchLayout layout;
  if (!layout.plan(input->width, input->height)) {
    return refuse(node, VX_ERROR_NO_MEMORY, "input is %ux%u, too large for this kernel's scratch", input->width, input->height);
  }
  // A virtual array of open capacity gets room for every candidate non-maximum suppression can leave.
  if (const vx_status s = keypoint_array_output(node, parameters, metas, 6, "corners", vision::harris_corners_max_count(input->width, input->height));
      s != VX_SUCCESS) {
    return s;
  }
  // The scratch (see the file's comment), allocated with the node's local data when the graph is set up.
  as<_vx_node>(node)->local_data_size = layout.total;
  return optional_size_output(node, parameters, metas, 7, "num_corners");
}

constexpr StandardKernelFunctions kHarrisKernels[] = {
    {VX_KERNEL_HARRIS_CORNERS, &harris_corners_function, &harris_corners_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> harris_kernels() noexcept { return kHarrisKernels; }

}  // namespace vg::openvx
