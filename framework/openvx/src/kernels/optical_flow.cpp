// The standard kernel OpticalFlowPyrLK: a function and a validate (standard_kernel_support.hpp).
//
// Pyramidal Lucas-Kanade tracking of sparse points (Bouguet's scheme). Inputs: the old and the new U8
// pyramids (one level count, scale and size; any shrinking scale this library makes, VX_SCALE_PYRAMID_HALF
// and VX_SCALE_PYRAMID_ORB among them), the old points and the estimates of the new ones (arrays of
// vx_keypoint_t), the termination (VX_TERM_CRITERIA_ITERATIONS, _EPSILON or _BOTH), epsilon (float32),
// num_iterations (uint32), use_initial_estimate (bool) and window_dimension (size). Output: one keypoint
// per old point, in the same order.
//
// The tracking itself is the vision library's (visiongraph/kernels/vision/optical_flow.hpp: Bouguet's scheme,
// its windows, gradients, termination and when a point is lost, described there), one level at a time as
// the levels are mapped. Here: the keypoints in and out, and the termination criteria: EPSILON alone stops
// after vision::kEpsilonOnlyIterations steps at the latest, so a point's work stays bounded. An old point whose
// tracking_status is 0 is not tracked: its output is its starting position, lost. Output keypoints carry
// the position rounded to the nearest pixel, the old point's strength, scale and orientation 0 and error 0.
//
// The library's scratch and one TrackPoint per old point live in the node's local data, sized at validation
// for the old points' capacity and allocated when the graph is set up: nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <span>

#include "array.hpp"
#include "checked_size.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "meta_format.hpp"
#include "pyramid.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/optical_flow.hpp"

namespace vg::openvx {
namespace {

constexpr vx_uint32 kParameterCount = 10;
constexpr vx_size kMinWindow = vision::kMinTrackWindow;
static_assert(vision::kMaxTrackWindow == kOpticalFlowMaxWindowDimension, "the context reports the library's largest window");
/// The node's local data: the library's window scratch, then one TrackPoint per old point.
struct Scratch {
  vision::LucasKanadeScratch* window;
  vision::TrackPoint* points;
  vx_size point_capacity;
};

/// The local data size for @p capacity points; false when it does not fit.
bool scratch_bytes(vx_size capacity, vx_size& bytes) noexcept {
  vx_size points = 0;
  if (!checked_bytes(points, capacity, sizeof(vision::TrackPoint))) return false;
  bytes = sizeof(vision::LucasKanadeScratch);
  return checked_grow(bytes, points);
}

bool scratch_of(vx_node node, Scratch& s) noexcept {
  const vx_size fixed = sizeof(vision::LucasKanadeScratch);
  if (as<_vx_node>(node)->local_data == nullptr || as<_vx_node>(node)->local_data_size < fixed) return false;
  s.window = static_cast<vision::LucasKanadeScratch*>(as<_vx_node>(node)->local_data);
  // The points follow; the scratch's size is a multiple of a double's, TrackPoint's alignment a float's.
  s.points = reinterpret_cast<vision::TrackPoint*>(s.window + 1);
  s.point_capacity = (as<_vx_node>(node)->local_data_size - fixed) / sizeof(vision::TrackPoint);
  return true;
}

/// A position rounded to the nearest whole pixel (halves up), held in vx_int32's range.
vx_int32 rounded(float v) noexcept {
  constexpr float limit = 2.0e9f;
  if (!(v > -limit)) return static_cast<vx_int32>(-limit);  // also NaN
  if (v > limit) return static_cast<vx_int32>(limit);
  return static_cast<vx_int32>(std::floor(v + 0.5f));
}

/// The keypoints of an input array, mapped for reading while a kernel function runs (none when empty).
class MappedKeypoints {
 public:
  MappedKeypoints(vx_array array, vx_size count) noexcept : array_(array) {
    if (count == 0) return;
    void* base = nullptr;
    vx_size stride = 0;
    status_ = vxMapArrayRange(array, 0, count, &map_id_, &stride, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
    if (status_ != VX_SUCCESS) return;
    base_ = static_cast<const vx_uint8*>(base);
    stride_ = stride;
  }
  ~MappedKeypoints() {
    if (base_ != nullptr) (void)vxUnmapArrayRange(array_, map_id_);
  }
  MappedKeypoints(const MappedKeypoints&) = delete;
  MappedKeypoints& operator=(const MappedKeypoints&) = delete;

  vx_status status() const noexcept { return status_; }
  vx_keypoint_t operator[](vx_size i) const noexcept { return load<vx_keypoint_t>(base_ + i * stride_); }

 private:
  vx_array array_;
  vx_map_id map_id_ = 0;
  const vx_uint8* base_ = nullptr;
  vx_size stride_ = 0;
  vx_status status_ = VX_SUCCESS;
};

vx_status item_count(vx_reference array, vx_size& count) noexcept {
  return vxQueryArray(reinterpret_cast<vx_array>(array), VX_ARRAY_NUMITEMS, &count, sizeof count);
}

template <typename T>
vx_status read_scalar(vx_reference scalar, T& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

/// Writes one keypoint per state to @p array (emptied first) through a batch on the stack.
vx_status write_keypoints(vx_array array, const MappedKeypoints& old_points, const vision::TrackPoint* states, vx_size count) noexcept {
  if (const vx_status s = vxTruncateArray(array, 0); s != VX_SUCCESS) return s;
  constexpr vx_size kBatch = 64;
  vx_keypoint_t batch[kBatch];
  for (vx_size first = 0; first < count; first += kBatch) {
    const vx_size n = std::min(kBatch, count - first);
    for (vx_size i = 0; i < n; ++i) {
      const vision::TrackPoint& st = states[first + i];
      batch[i] = vx_keypoint_t{rounded(st.x), rounded(st.y), old_points[first + i].strength, 0.0f, 0.0f, st.tracked ? 1 : 0, 0.0f};
    }
    if (const vx_status s = vxAddArrayItems(array, n, batch, sizeof(vx_keypoint_t)); s != VX_SUCCESS) return s;
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK optical_flow_pyr_lk_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != kParameterCount || !valid_handle(parameters[0], VX_TYPE_PYRAMID) || !valid_handle(parameters[1], VX_TYPE_PYRAMID)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const auto* old_pyramid = as<_vx_pyramid>(parameters[0]);
  const auto* new_pyramid = as<_vx_pyramid>(parameters[1]);
  vx_enum criteria = VX_TERM_CRITERIA_BOTH;
  vx_float32 epsilon = 0.0f;
  vx_uint32 iterations = 0;
  vx_bool use_estimate = vx_false_e;
  vx_size window = 0;
  for (const vx_status s : {read_scalar(parameters[5], criteria), read_scalar(parameters[6], epsilon), read_scalar(parameters[7], iterations),
                            read_scalar(parameters[8], use_estimate), read_scalar(parameters[9], window)}) {
    if (s != VX_SUCCESS) return s;
  }
  if (window < kMinWindow || window > kOpticalFlowMaxWindowDimension) return VX_ERROR_INVALID_VALUE;
  if (criteria != VX_TERM_CRITERIA_ITERATIONS && criteria != VX_TERM_CRITERIA_EPSILON && criteria != VX_TERM_CRITERIA_BOTH) {
    return VX_ERROR_INVALID_VALUE;
  }
  const std::size_t levels = old_pyramid->images.size();
  if (levels == 0 || new_pyramid->images.size() != levels) return VX_ERROR_INVALID_PARAMETERS;
  Scratch scratch{};
  if (!scratch_of(node, scratch)) return VX_ERROR_NO_MEMORY;

  vx_size count = 0, estimate_count = 0;
  if (const vx_status s = item_count(parameters[2], count); s != VX_SUCCESS) return s;
  if (const vx_status s = item_count(parameters[3], estimate_count); s != VX_SUCCESS) return s;
  if (count > scratch.point_capacity) return VX_ERROR_NO_MEMORY;  // validate sized it for the array's capacity
  if (use_estimate != vx_false_e && estimate_count != count) {
    log(as<_vx_reference>(node), VX_ERROR_INVALID_PARAMETERS,
        "%s: new_points_estimates holds %zu points but old_points %zu: with use_initial_estimate they must match",
        as<_vx_node>(node)->kernel->kernel_name.c_str(), static_cast<std::size_t>(estimate_count), static_cast<std::size_t>(count));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const auto output = reinterpret_cast<vx_array>(parameters[4]);
  vx_size room = 0;
  if (const vx_status s = vxQueryArray(output, VX_ARRAY_CAPACITY, &room, sizeof room); s != VX_SUCCESS) return s;
  if (room < count) {
    log(as<_vx_reference>(node), VX_ERROR_INVALID_PARAMETERS, "%s: new_points holds %zu points, old_points has %zu",
        as<_vx_node>(node)->kernel->kernel_name.c_str(), static_cast<std::size_t>(room), static_cast<std::size_t>(count));
    return VX_ERROR_INVALID_PARAMETERS;
  }

  const MappedKeypoints old_points(reinterpret_cast<vx_array>(parameters[2]), count);
  const MappedKeypoints estimates(reinterpret_cast<vx_array>(parameters[3]), use_estimate != vx_false_e ? count : 0);
  if (old_points.status() != VX_SUCCESS) return old_points.status();
  if (estimates.status() != VX_SUCCESS) return estimates.status();

  const double scale = old_pyramid->scale;
  const int top = static_cast<int>(levels) - 1;
  for (vx_size i = 0; i < count; ++i) {
    const vx_keypoint_t old_point = old_points[i];
    const vx_keypoint_t start = use_estimate != vx_false_e ? estimates[i] : old_point;
    scratch.points[i] = {static_cast<float>(old_point.x), static_cast<float>(old_point.y), static_cast<float>(start.x),
                         static_cast<float>(start.y), old_point.tracking_status != 0};
  }
  const std::span<vision::TrackPoint> points(scratch.points, count);
  vision::LucasKanadeOptions options;
  options.window = static_cast<int>(window);
  options.iterations = criteria == VX_TERM_CRITERIA_EPSILON ? vision::kEpsilonOnlyIterations : iterations;
  options.use_epsilon = criteria != VX_TERM_CRITERIA_ITERATIONS;
  options.epsilon = epsilon;
  vision::track_points_start(points, scale, top);
  for (int level = top; level >= 0; --level) {
    const MappedImage old_image(old_pyramid->images[static_cast<std::size_t>(level)], VX_READ_ONLY);
    const MappedImage new_image(new_pyramid->images[static_cast<std::size_t>(level)], VX_READ_ONLY);
    if (const vx_status s = mapped(old_image, new_image); s != VX_SUCCESS) return s;
    // A pyramid's levels are this library's own images: always packed.
    if (!packed(old_image, 1) || !packed(new_image, 1)) return VX_ERROR_NOT_SUPPORTED;
    if (!vision::track_points_level(const_plane(old_image), const_plane(new_image), level, top, scale, options, *scratch.window, points)) {
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  return write_keypoints(output, old_points, scratch.points, count);
}

/// An input pyramid of U8 levels whose size is settled.
vx_status u8_pyramid(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_pyramid*& pyramid) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_PYRAMID)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a pyramid", name);
  pyramid = as<_vx_pyramid>(parameters[index]);
  if (pyramid->format == VX_DF_IMAGE_VIRT || pyramid->width == 0 || pyramid->height == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is a virtual pyramid no node before this one produces (no size or format)", name);
  }
  if (pyramid->format != VX_DF_IMAGE_U8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only U8 is supported", name, format_name(pyramid->format));
  }
  if (!(pyramid->scale > 0.0f && pyramid->scale < 1.0f)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s has scale %g, a pyramid to track on must shrink (scale in (0, 1))", name,
                  static_cast<double>(pyramid->scale));
  }
  return VX_SUCCESS;
}

/// An input array of keypoints whose item type is settled.
vx_status keypoint_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_array*& array) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_ARRAY)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an array", name);
  array = as<_vx_array>(parameters[index]);
  if (array->item_type != VX_TYPE_KEYPOINT) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is an array of items of type 0x%x, it must hold VX_TYPE_KEYPOINT", name,
                  static_cast<unsigned>(array->item_type));
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK optical_flow_pyr_lk_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != kParameterCount) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects %u parameters, got %u", kParameterCount, num);
  const _vx_pyramid* old_images = nullptr;
  const _vx_pyramid* new_images = nullptr;
  if (const vx_status s = u8_pyramid(node, parameters, 0, "old_images", old_images); s != VX_SUCCESS) return s;
  if (const vx_status s = u8_pyramid(node, parameters, 1, "new_images", new_images); s != VX_SUCCESS) return s;
  if (old_images->levels != new_images->levels || old_images->scale != new_images->scale || old_images->width != new_images->width ||
      old_images->height != new_images->height) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION,
                  "old_images (%zu levels of scale %g, %ux%u) and new_images (%zu levels of scale %g, %ux%u) must be alike",
                  static_cast<std::size_t>(old_images->levels), static_cast<double>(old_images->scale), old_images->width,
                  old_images->height, static_cast<std::size_t>(new_images->levels), static_cast<double>(new_images->scale),
                  new_images->width, new_images->height);
  }
  const _vx_array* old_points = nullptr;
  const _vx_array* estimates = nullptr;
  if (const vx_status s = keypoint_input(node, parameters, 2, "old_points", old_points); s != VX_SUCCESS) return s;
  if (const vx_status s = keypoint_input(node, parameters, 3, "new_points_estimates", estimates); s != VX_SUCCESS) return s;

  vx_enum criteria = VX_TERM_CRITERIA_BOTH;
  if (const vx_status s = enum_parameter(node, parameters, 5, "termination",
                                         {VX_TERM_CRITERIA_ITERATIONS, VX_TERM_CRITERIA_EPSILON, VX_TERM_CRITERIA_BOTH}, criteria);
      s != VX_SUCCESS) {
    return s;
  }
  bool known = false;
  vx_float32 epsilon = 0.0f;
  if (const vx_status s = scalar_input(node, parameters, 6, "epsilon", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", epsilon, known); s != VX_SUCCESS) {
    return s;
  }
  if (known && !(epsilon >= 0.0f)) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "epsilon is %g, it must be 0 or more", static_cast<double>(epsilon));
  }
  vx_uint32 iterations = 0;
  if (const vx_status s = scalar_input(node, parameters, 7, "num_iterations", VX_TYPE_UINT32, "VX_TYPE_UINT32", iterations, known);
      s != VX_SUCCESS) {
    return s;
  }
  vx_bool use_estimate = vx_false_e;
  if (const vx_status s = scalar_input(node, parameters, 8, "use_initial_estimate", VX_TYPE_BOOL, "VX_TYPE_BOOL", use_estimate, known);
      s != VX_SUCCESS) {
    return s;
  }
  vx_size window = 0;
  if (const vx_status s = scalar_input(node, parameters, 9, "window_dimension", VX_TYPE_SIZE, "VX_TYPE_SIZE", window, known); s != VX_SUCCESS) {
    return s;
  }
  if (known && (window < kMinWindow || window > kOpticalFlowMaxWindowDimension)) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "window_dimension is %zu, it must be %zu to %zu (VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION)",
                  static_cast<std::size_t>(window), static_cast<std::size_t>(kMinWindow),
                  static_cast<std::size_t>(kOpticalFlowMaxWindowDimension));
  }

  if (!valid_handle(parameters[4], VX_TYPE_ARRAY) || metas[4] == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "new_points is not an array");
  const auto* new_points = as<_vx_array>(parameters[4]);
  if (!new_points->type_open && new_points->item_type != VX_TYPE_KEYPOINT) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "new_points is an array of items of type 0x%x, it must hold VX_TYPE_KEYPOINT",
                  static_cast<unsigned>(new_points->item_type));
  }
  as<_vx_meta_format>(metas[4])->item_type = VX_TYPE_KEYPOINT;
  // A virtual output of open capacity gets room for every old point.
  as<_vx_meta_format>(metas[4])->capacity = new_points->capacity_open ? old_points->capacity : new_points->capacity;

  vx_size bytes = 0;
  if (!scratch_bytes(old_points->capacity, bytes)) {
    return refuse(node, VX_ERROR_NO_MEMORY, "old_points' capacity of %zu points is too large to track", static_cast<std::size_t>(old_points->capacity));
  }
  as<_vx_node>(node)->local_data_size = bytes;
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kOpticalFlowKernels[] = {
    {VX_KERNEL_OPTICAL_FLOW_PYR_LK, &optical_flow_pyr_lk_function, &optical_flow_pyr_lk_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> optical_flow_kernels() noexcept { return kOpticalFlowKernels; }

}  // namespace vg::openvx
