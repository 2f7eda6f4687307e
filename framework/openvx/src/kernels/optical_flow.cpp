// The standard kernel OpticalFlowPyrLK: a function and a validate (standard_kernel_support.hpp).
//
// Pyramidal Lucas-Kanade tracking of sparse points (Bouguet's scheme). Inputs: the old and the new U8
// pyramids (one level count, scale and size; any shrinking scale this library makes, VX_SCALE_PYRAMID_HALF
// and VX_SCALE_PYRAMID_ORB among them), the old points and the estimates of the new ones (arrays of
// vx_keypoint_t), the termination (VX_TERM_CRITERIA_ITERATIONS, _EPSILON or _BOTH), epsilon (float32),
// num_iterations (uint32), use_initial_estimate (bool) and window_dimension (size). Output: one keypoint
// per old point, in the same order.
//
// A point is followed from the top level down. On level L its old position is the old point times
// scale^L; its new position starts, on the top level, from the estimate (use_initial_estimate) or the old
// point, scaled the same way, and each lower level starts from the level above's result divided by the
// scale. On a level the window is W x W pixels (W = window_dimension) whose top-left corner is the
// position less floor(W / 2) (centred for an odd W). Image values and gradients are read bilinearly at
// the window's sub-pixel positions; the gradients are the Scharr responses
//   Ix = (3 (p(x+1,y-1) - p(x-1,y-1)) + 10 (p(x+1,y) - p(x-1,y)) + 3 (p(x+1,y+1) - p(x-1,y+1))) / 32
// and Iy likewise, of the old level at whole pixels. With A the 2x2 sum of the gradient products over the
// window and b the sum of (J(p + d) - I(p)) times the gradient, each iteration moves the new position by
// -A^-1 b. Iterations stop after num_iterations (ITERATIONS, BOTH), when the
// step's squared length is at most epsilon (EPSILON, BOTH; the Khronos sample implementation's test), or
// when a step undoes the one before (the position then goes back half of it). EPSILON alone stops after
// kEpsilonOnlyIterations at the latest, so a point's work stays bounded.
//
// A point is lost (tracking_status 0) when, on level 0, its old or new position leaves the image (outside
// the first and last pixel centres), or its gradients are too weak to solve for (smaller eigenvalue of A
// per window pixel below kMinEigenvaluePerPixel); on a higher level these only end that level's
// refinement. Pixels a window reads beyond the image's edge mirror the image about its edge pixels
// (p(-1) = p(1)), so points near the edge are tracked too; repeating the edge pixel instead leaves a flat
// band there that drags points out of the image. An old point whose tracking_status is 0 is not tracked:
// its output is its starting position, lost. Output keypoints carry the position rounded to the nearest pixel, the old point's
// strength, scale and orientation 0 and error 0.
//
// The window's samples and each point's state live in the node's local data, sized at validation for
// the old points' capacity and the largest window and allocated when the graph is set up: nothing is
// allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "array.hpp"
#include "checked_size.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "meta_format.hpp"
#include "pyramid.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

constexpr vx_uint32 kParameterCount = 10;
constexpr vx_size kMinWindow = 3;
/// The cap on iterations under VX_TERM_CRITERIA_EPSILON alone (num_iterations is not read then).
constexpr vx_uint32 kEpsilonOnlyIterations = 100;
/// The weakest texture still tracked: the smaller eigenvalue of A over the window's pixel count, in
/// (grey levels per pixel)^2. (The classical fixed-point formulation's 1e-4 on gradients scaled by 32
/// and sums scaled by 2^-20 is this 0.1024.)
constexpr float kMinEigenvaluePerPixel = 1.0e-4f * 1024.0f;
/// A step that cancels the one before to within this (in pixels, on each axis) means oscillation.
constexpr float kOscillation = 0.01f;

/// Where a point stands while the levels are walked (the node's local data holds one per old point).
struct TrackState {
  float x, y;    // the new position on the current level
  bool tracked;  // still followed (false: lost, or never tracked)
};

/// The node's local data: the window's samples, then one TrackState per old point.
struct Scratch {
  double* values;  // I at the window's positions, W x W (doubles: the sums read them as such)
  double* grad_x;  // Ix there
  double* grad_y;  // Iy there
  float* patch;    // the pixels a window reads, (W + 3) x (W + 3) at most
  float* scharr_x;  // Scharr x responses on the (W + 1) x (W + 1) whole pixels under the window
  float* scharr_y;
  TrackState* states;
  vx_size state_capacity;
};

constexpr vx_size kMaxSamples = kOpticalFlowMaxWindowDimension * kOpticalFlowMaxWindowDimension;
constexpr vx_size kMaxPatch = (kOpticalFlowMaxWindowDimension + 3) * (kOpticalFlowMaxWindowDimension + 3);
constexpr vx_size kMaxGrid = (kOpticalFlowMaxWindowDimension + 1) * (kOpticalFlowMaxWindowDimension + 1);

constexpr vx_size window_bytes() noexcept { return 3 * kMaxSamples * sizeof(double) + (kMaxPatch + 2 * kMaxGrid) * sizeof(float); }

/// The local data size for @p capacity points; false when it does not fit.
bool scratch_bytes(vx_size capacity, vx_size& bytes) noexcept {
  vx_size states = 0;
  if (!checked_bytes(states, capacity, sizeof(TrackState))) return false;
  bytes = window_bytes();
  return checked_grow(bytes, states);
}

bool scratch_of(vx_node node, Scratch& s) noexcept {
  const vx_size fixed = window_bytes();
  if (as<_vx_node>(node)->local_data == nullptr || as<_vx_node>(node)->local_data_size < fixed) return false;
  auto* doubles = static_cast<double*>(as<_vx_node>(node)->local_data);
  s.values = doubles;
  s.grad_x = doubles + kMaxSamples;
  s.grad_y = doubles + 2 * kMaxSamples;
  auto* floats = reinterpret_cast<float*>(doubles + 3 * kMaxSamples);
  s.patch = floats;
  s.scharr_x = floats + kMaxPatch;
  s.scharr_y = floats + kMaxPatch + kMaxGrid;
  // The states follow the floats; TrackState's alignment is a float's.
  s.states = reinterpret_cast<TrackState*>(floats + kMaxPatch + 2 * kMaxGrid);
  s.state_capacity = (as<_vx_node>(node)->local_data_size - fixed) / sizeof(TrackState);
  return true;
}

/// One pyramid level, mapped, read by whole pixels.
class Level {
 public:
  explicit Level(const MappedImage& image) noexcept
      : image_(image), width_(static_cast<int>(image.width())), height_(static_cast<int>(image.height())) {}

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  float at(int x, int y) const noexcept { return image_.row(static_cast<vx_uint32>(y))[static_cast<std::ptrdiff_t>(x) * image_.stride_x()]; }
  /// The pixel at (x, y), with coordinates outside the image mirrored about its edge pixels.
  float mirrored(int x, int y) const noexcept { return at(reflect(x, width_), reflect(y, height_)); }
  /// @p v mirrored into [0, n) about 0 and n - 1 (as often as a small level needs).
  static int reflect(int v, int n) noexcept {
    if (n == 1) return 0;
    while (v < 0 || v >= n) v = v < 0 ? -v : 2 * (n - 1) - v;
    return v;
  }
  /// The @p size x @p size pixels whose top-left one is (x, y) into @p patch, row by row, as floats; those
  /// beyond the image's edge mirrored (only then is each coordinate checked).
  void load_patch(int x, int y, int size, float* patch) const noexcept {
    if (x >= 0 && y >= 0 && x + size <= width_ && y + size <= height_) {
      const std::ptrdiff_t step = image_.stride_x();
      for (int r = 0; r < size; ++r, patch += size) {
        const vx_uint8* row = image_.row(static_cast<vx_uint32>(y + r)) + static_cast<std::ptrdiff_t>(x) * step;
        for (int c = 0; c < size; ++c) patch[c] = row[c * step];
      }
      return;
    }
    for (int r = 0; r < size; ++r, patch += size) {
      for (int c = 0; c < size; ++c) patch[c] = mirrored(x + c, y + r);
    }
  }
  /// Whether the position (x, y) is on the image (between its first and last pixel centres).
  bool contains(float x, float y) const noexcept {
    return x >= 0.0f && y >= 0.0f && x <= static_cast<float>(width_ - 1) && y <= static_cast<float>(height_ - 1);  // false for NaN
  }

 private:
  const MappedImage& image_;
  int width_, height_;
};

/// Bilinear weights of a fractional offset (a, b) from a whole pixel.
struct Weights {
  float w00, w10, w01, w11;  // (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)
  Weights(float a, float b) noexcept : w00((1 - a) * (1 - b)), w10(a * (1 - b)), w01((1 - a) * b), w11(a * b) {}
};

/// The window of a W x W neighbourhood at a sub-pixel position: its top-left whole pixel and weights.
struct Window {
  int x, y;
  Weights weights;
};

/// The bilinear value between the four pixels from @p p00 (a patch @p size wide), in the definition's order.
inline float bilinear(const float* p00, int size, const Weights& k) noexcept {
  return k.w00 * p00[0] + k.w10 * p00[1] + k.w01 * p00[size] + k.w11 * p00[size + 1];
}

/// floor(@p v) for a finite @p v well inside int's range (a position on a level, less half a window).
inline float whole_below(float v) noexcept {
  const auto truncated = static_cast<float>(static_cast<int>(v));
  return truncated > v ? truncated - 1.0f : truncated;
}

/// The window whose centre is (@p cx, @p cy); its top-left corner is the centre less floor(W / 2).
Window window_at(float cx, float cy, int half) noexcept {
  const float left = cx - static_cast<float>(half), top = cy - static_cast<float>(half);
  const float fx = whole_below(left), fy = whole_below(top);
  return {static_cast<int>(fx), static_cast<int>(fy), Weights(left - fx, top - fy)};
}

/// A = [a11 a12; a12 a22], the window's sums of gradient products, and its determinant.
struct Gradients {
  double a11 = 0, a12 = 0, a22 = 0, det = 0;
};

/// The old level's values and gradients over the window into the scratch, and A into @p g; false when the
/// texture is too weak to track.
bool sample_old_window(const Level& old, const Window& win, int w, const Scratch& s, Gradients& g) noexcept {
  // The pixels read: the window's (W + 1) x (W + 1) and a one-pixel border for the Scharr responses. The
  // sums below are of whole numbers under 2^24, so every order of them gives the same floats.
  const int size = w + 3;
  old.load_patch(win.x - 1, win.y - 1, size, s.patch);
  const int grid = w + 1;
  for (int r = 0; r < grid; ++r) {
    const float* above = s.patch + r * size;  // the row above grid row r, from the column left of it
    const float* at = above + size;
    const float* below = at + size;
    for (int c = 0; c < grid; ++c) {
      const float left = 3 * above[c] + 10 * at[c] + 3 * below[c];
      const float right = 3 * above[c + 2] + 10 * at[c + 2] + 3 * below[c + 2];
      const float up = 3 * above[c] + 10 * above[c + 1] + 3 * above[c + 2];
      const float down = 3 * below[c] + 10 * below[c + 1] + 3 * below[c + 2];
      s.scharr_x[r * grid + c] = (right - left) / 32.0f;
      s.scharr_y[r * grid + c] = (down - up) / 32.0f;
    }
  }
  const Weights& k = win.weights;
  double a11 = 0, a12 = 0, a22 = 0;
  for (int r = 0; r < w; ++r) {
    const float* pixels = s.patch + (r + 1) * size + 1;
    for (int c = 0; c < w; ++c) {
      const float v = bilinear(pixels + c, size, k);
      const float gx = bilinear(s.scharr_x + r * grid + c, grid, k), gy = bilinear(s.scharr_y + r * grid + c, grid, k);
      s.values[r * w + c] = v;
      s.grad_x[r * w + c] = gx;
      s.grad_y[r * w + c] = gy;
      a11 += static_cast<double>(gx) * gx;
      a12 += static_cast<double>(gx) * gy;
      a22 += static_cast<double>(gy) * gy;
    }
  }
  const double smaller_eigenvalue = (a11 + a22 - std::sqrt((a11 - a22) * (a11 - a22) + 4 * a12 * a12)) / 2;
  g = {a11, a12, a22, a11 * a22 - a12 * a12};
  return smaller_eigenvalue / (static_cast<double>(w) * w) >= kMinEigenvaluePerPixel && g.det > 0;
}

struct Termination {
  vx_uint32 iterations;  // the most iterations
  bool use_epsilon;
  float epsilon;  // on the step's squared length
};

enum class LevelResult { refined, outside, flat };

/// Refines @p state, the new position on one level, for the old point at (@p ox, @p oy) of that level.
LevelResult refine(const Level& old, const Level& next, float ox, float oy, int w, const Termination& t, const Scratch& s,
                   TrackState& state) noexcept {
  const int half = w / 2;
  if (!old.contains(ox, oy)) return LevelResult::outside;
  const Window old_win = window_at(ox, oy, half);
  Gradients g;
  if (!sample_old_window(old, old_win, w, s, g)) return LevelResult::flat;
  float previous_dx = 0, previous_dy = 0;
  for (vx_uint32 i = 0; i < t.iterations; ++i) {
    if (!next.contains(state.x, state.y)) return LevelResult::outside;
    const Window win = window_at(state.x, state.y, half);
    const Weights& k = win.weights;
    const int size = w + 1;
    next.load_patch(win.x, win.y, size, s.patch);
    double b1 = 0, b2 = 0;
    for (int r = 0; r < w; ++r) {
      const float* pixels = s.patch + r * size;
      for (int c = 0; c < w; ++c) {
        const double diff = static_cast<double>(bilinear(pixels + c, size, k)) - s.values[r * w + c];
        b1 += diff * s.grad_x[r * w + c];
        b2 += diff * s.grad_y[r * w + c];
      }
    }
    // (dx, dy) = -A^-1 b.
    const auto dx = static_cast<float>((g.a12 * b2 - g.a22 * b1) / g.det);
    const auto dy = static_cast<float>((g.a12 * b1 - g.a11 * b2) / g.det);
    state.x += dx;
    state.y += dy;
    if (t.use_epsilon && dx * dx + dy * dy <= t.epsilon) break;
    if (i > 0 && std::fabs(dx + previous_dx) < kOscillation && std::fabs(dy + previous_dy) < kOscillation) {
      state.x -= dx * 0.5f;
      state.y -= dy * 0.5f;
      break;
    }
    previous_dx = dx;
    previous_dy = dy;
  }
  return next.contains(state.x, state.y) ? LevelResult::refined : LevelResult::outside;
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
vx_status write_keypoints(vx_array array, const MappedKeypoints& old_points, const TrackState* states, vx_size count) noexcept {
  if (const vx_status s = vxTruncateArray(array, 0); s != VX_SUCCESS) return s;
  constexpr vx_size kBatch = 64;
  vx_keypoint_t batch[kBatch];
  for (vx_size first = 0; first < count; first += kBatch) {
    const vx_size n = std::min(kBatch, count - first);
    for (vx_size i = 0; i < n; ++i) {
      const TrackState& st = states[first + i];
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
  if (count > scratch.state_capacity) return VX_ERROR_NO_MEMORY;  // validate sized it for the array's capacity
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
  const auto top_factor = static_cast<float>(std::pow(scale, top));
  for (vx_size i = 0; i < count; ++i) {
    const vx_keypoint_t start = use_estimate != vx_false_e ? estimates[i] : old_points[i];
    scratch.states[i] = {static_cast<float>(start.x) * top_factor, static_cast<float>(start.y) * top_factor, old_points[i].tracking_status != 0};
  }
  const Termination termination{criteria == VX_TERM_CRITERIA_EPSILON ? kEpsilonOnlyIterations : iterations,
                                criteria != VX_TERM_CRITERIA_ITERATIONS, epsilon};
  const int w = static_cast<int>(window);
  for (int level = top; level >= 0; --level) {
    const MappedImage old_image(old_pyramid->images[static_cast<std::size_t>(level)], VX_READ_ONLY);
    const MappedImage new_image(new_pyramid->images[static_cast<std::size_t>(level)], VX_READ_ONLY);
    if (const vx_status s = mapped(old_image, new_image); s != VX_SUCCESS) return s;
    const Level old_level(old_image), new_level(new_image);
    const auto factor = static_cast<float>(std::pow(scale, level));
    for (vx_size i = 0; i < count; ++i) {
      TrackState& state = scratch.states[i];
      if (!state.tracked) continue;
      if (level != top) {
        state.x /= static_cast<float>(scale);
        state.y /= static_cast<float>(scale);
      }
      const vx_keypoint_t old_point = old_points[i];
      const float ox = static_cast<float>(old_point.x) * factor, oy = static_cast<float>(old_point.y) * factor;
      const LevelResult result = refine(old_level, new_level, ox, oy, w, termination, scratch, state);
      if (result != LevelResult::refined && level == 0) state.tracked = false;
    }
  }
  // Points never tracked keep their starting position (scaled back to level 0).
  if (top > 0) {
    for (vx_size i = 0; i < count; ++i) {
      if (old_points[i].tracking_status != 0) continue;
      const vx_keypoint_t start = use_estimate != vx_false_e ? estimates[i] : old_points[i];
      scratch.states[i] = {static_cast<float>(start.x), static_cast<float>(start.y), false};
    }
  }
  return write_keypoints(output, old_points, scratch.states, count);
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
