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
// Everything lives in the node's local data, sized at validation for the largest gradient and block
// sizes: a padded copy of the image, two integer rows for the separable Sobel, a ring of the last b rows
// of gradient products and two rows of their sums, the score plane (reused afterwards as the grid of the
// min_distance test) and the list of candidates. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "array.hpp"
#include "checked_size.hpp"
#include "graph.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"

namespace vg::openvx {
namespace {

constexpr int kMaxGradientSize = 7;
constexpr int kMaxBlockSize = 7;
// Pixels the padded copy adds on each side: the gradient's radius plus the block's.
constexpr vx_uint32 kMaxPad = kMaxGradientSize / 2 + kMaxBlockSize / 2;
constexpr vx_uint32 kNoCorner = 0xFFFFFFFFu;

inline bool odd_size_allowed(vx_int32 size) noexcept { return size == 3 || size == 5 || size == 7; }
inline bool finite(vx_float32 v) noexcept { return std::isfinite(v); }
inline bool distance_allowed(vx_float32 r) noexcept { return r >= 0.0f && std::isfinite(r); }  // false for NaN

/// The separable Sobel of size g: Gx = smooth (down the rows) x derivative (along the row), Gy the
/// transpose. Index k is the offset k - g/2.
struct SobelTaps {
  int smooth[kMaxGradientSize];
  int derivative[kMaxGradientSize];
};

SobelTaps sobel_taps(int size) noexcept {
  switch (size) {
    case 3: return {{1, 2, 1}, {-1, 0, 1}};
    case 5: return {{1, 4, 6, 4, 1}, {-1, -2, 0, 2, 1}};
    default: return {{1, 6, 15, 20, 15, 6, 1}, {-1, -4, -5, 0, 5, 4, 1}};
  }
}

/// A candidate after non-maximum suppression: its score and where it is (y * width + x).
struct Candidate {
  vx_float32 score;
  vx_uint32 index;
};

/// Where each scratch area starts in the node's local data, for a width x height input; every area is
/// sized for the largest gradient and block sizes and starts on a 16-byte boundary.
struct ScratchLayout {
  vx_size padded = 0, smooth_row = 0, derivative_row = 0, ring = 0, column_sums = 0, block_sums = 0, score = 0, candidates = 0, total = 0;
  vx_uint32 padded_width = 0, padded_height = 0, gradient_width = 0;
  vx_size max_candidates = 0;

  /// False when a size does not fit (the image is too large for this kernel's scratch).
  bool plan(vx_uint32 width, vx_uint32 height) noexcept {
    if (width > 0xFFFFFFFFu - 2 * kMaxPad || height > 0xFFFFFFFFu - 2 * kMaxPad) return false;
    padded_width = width + 2 * kMaxPad;
    padded_height = height + 2 * kMaxPad;
    gradient_width = width + 2 * (kMaxBlockSize / 2);
    // Pixel indices are kept as vx_uint32 (kNoCorner excluded).
    vx_size pixels = 0;
    if (!checked_bytes(pixels, width, height) || pixels >= kNoCorner) return false;
    // Survivors of the suppression are never neighbours: at most one in each 2 x 2 square.
    max_candidates = static_cast<vx_size>((width + 1) / 2) * ((height + 1) / 2);
    auto area = [&](vx_size& at, auto... factors) {
      vx_size size = 0;
      if (!checked_bytes(size, factors...) || !checked_grow(size, 15)) return false;
      at = total;
      return checked_grow(total, size & ~vx_size{15});
    };
    return area(padded, vx_size{padded_width}, vx_size{padded_height}) &&
           area(smooth_row, vx_size{padded_width}, sizeof(vx_int32)) &&
           area(derivative_row, vx_size{padded_width}, sizeof(vx_int32)) &&
           area(ring, vx_size{3 * kMaxBlockSize}, vx_size{gradient_width}, sizeof(vx_float32)) &&
           area(column_sums, vx_size{3}, vx_size{gradient_width}, sizeof(vx_float32)) &&
           area(block_sums, vx_size{3}, vx_size{gradient_width}, sizeof(vx_float32)) &&
           // The score plane later holds the grid of taken corners: at most one vx_uint32 per pixel.
           area(score, pixels, std::max(sizeof(vx_float32), sizeof(vx_uint32))) &&
           area(candidates, max_candidates, sizeof(Candidate));
  }
};

/// Index @p i (possibly outside [0, n)) mirrored into it about the edge pixels (the edge not repeated).
inline vx_uint32 mirrored(std::ptrdiff_t i, std::ptrdiff_t n) noexcept {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * (n - 1) - i;
  return static_cast<vx_uint32>(i);
}

/// Copies @p in into @p padded (pad pixels on each side) with the border applied outside the image.
void pad_image(const MappedImage& in, vx_uint8* padded, vx_uint32 padded_width, vx_uint32 pad, const vx_border_t& border) noexcept {
  const auto w = static_cast<std::ptrdiff_t>(in.width()), h = static_cast<std::ptrdiff_t>(in.height());
  const std::ptrdiff_t step = in.stride_x();
  const std::ptrdiff_t p = pad;
  auto source_index = [&](std::ptrdiff_t i, std::ptrdiff_t n) -> std::ptrdiff_t {
    if (i >= 0 && i < n) return i;
    if (border.mode == VX_BORDER_CONSTANT) return -1;
    if (border.mode == VX_BORDER_REPLICATE) return std::clamp<std::ptrdiff_t>(i, 0, n - 1);
    return mirrored(i, n);
  };
  for (std::ptrdiff_t py = 0; py < h + 2 * p; ++py) {
    vx_uint8* to = padded + py * static_cast<std::ptrdiff_t>(padded_width);
    const std::ptrdiff_t sy = source_index(py - p, h);
    if (sy < 0) {
      std::memset(to, border.constant_value.U8, padded_width);
      continue;
    }
    const vx_uint8* row = in.row(static_cast<vx_uint32>(sy));
    for (std::ptrdiff_t px = 0; px < p; ++px) {
      const std::ptrdiff_t sx = source_index(px - p, w);
      to[px] = sx < 0 ? border.constant_value.U8 : row[sx * step];
      const std::ptrdiff_t rx = source_index(w + px, w);
      to[p + w + px] = rx < 0 ? border.constant_value.U8 : row[rx * step];
    }
    if (step == 1) {
      std::memcpy(to + p, row, static_cast<std::size_t>(w));
    } else {
      for (std::ptrdiff_t x = 0; x < w; ++x) to[p + x] = row[x * step];
    }
  }
}

struct Settings {
  vx_float32 threshold, min_distance, sensitivity;
  int gradient_size, block_size;
};

// Row helpers over distinct rows of the scratch (restrict lets the compiler vectorise them).
inline void copy_row(vx_float32* __restrict to, const vx_float32* __restrict from, vx_uint32 n) noexcept {
  for (vx_uint32 i = 0; i < n; ++i) to[i] = from[i];
}
inline void add_row(vx_float32* __restrict to, const vx_float32* __restrict from, vx_uint32 n) noexcept {
  for (vx_uint32 i = 0; i < n; ++i) to[i] += from[i];
}

/// One row of the separable Sobel: Gx and Gy of gradient row @p top's @p columns, from g padded rows at
/// @p top (@p stride apart); @p smooth and @p derivative hold the vertical pass (columns + g - 1 each).
void sobel_row(const vx_uint8* __restrict top, vx_uint32 stride, const SobelTaps& taps, int g, vx_uint32 columns,
               vx_int32* __restrict smooth, vx_int32* __restrict derivative, vx_float32* __restrict gx, vx_float32* __restrict gy) noexcept {
  const vx_uint32 sobel_columns = columns + static_cast<vx_uint32>(g - 1);
  // Tap by tap over whole rows, so the inner loops run over contiguous pixels.
  std::fill(smooth, smooth + sobel_columns, 0);
  std::fill(derivative, derivative + sobel_columns, 0);
  for (int t = 0; t < g; ++t) {
    const vx_uint8* row = top + static_cast<std::size_t>(t) * stride;
    const int st = taps.smooth[t], dt = taps.derivative[t];
    for (vx_uint32 c = 0; c < sobel_columns; ++c) {
      smooth[c] += st * row[c];
      derivative[c] += dt * row[c];
    }
  }
  // Whole numbers below 2^24 (at most 20 * 64 * 255 in magnitude): exact as floats.
  std::fill(gx, gx + columns, 0.0f);
  std::fill(gy, gy + columns, 0.0f);
  for (int t = 0; t < g; ++t) {
    const int st = taps.smooth[t], dt = taps.derivative[t];
    for (vx_uint32 i = 0; i < columns; ++i) {
      gx[i] += static_cast<vx_float32>(dt * smooth[i + t]);
      gy[i] += static_cast<vx_float32>(st * derivative[i + t]);
    }
  }
}

/// The score plane: Vc for every image pixel (row-major, width floats a row).
void score_image(const vx_uint8* padded, const ScratchLayout& layout, vx_uint8* scratch, vx_uint32 width, vx_uint32 height,
                 const Settings& s) noexcept {
  const SobelTaps taps = sobel_taps(s.gradient_size);
  const int g = s.gradient_size, b = s.block_size;
  // The padded copy has kMaxPad pixels on each side; these sizes use only pad = g/2 + b/2 of them.
  const vx_uint32 skip = kMaxPad - static_cast<vx_uint32>(g / 2 + b / 2);
  const vx_uint32 pw = layout.padded_width;
  const vx_uint32 columns = width + 2 * static_cast<vx_uint32>(b / 2);  // gradient columns the blocks need
  const vx_uint32 gradient_rows = height + 2 * static_cast<vx_uint32>(b / 2);
  const std::size_t gw = layout.gradient_width;
  auto* smooth = reinterpret_cast<vx_int32*>(scratch + layout.smooth_row);
  auto* derivative = reinterpret_cast<vx_int32*>(scratch + layout.derivative_row);
  auto* ring = reinterpret_cast<vx_float32*>(scratch + layout.ring);
  auto* columns_sum = reinterpret_cast<vx_float32*>(scratch + layout.column_sums);  // xx, xy, yy rows
  auto* block_sum = reinterpret_cast<vx_float32*>(scratch + layout.block_sums);      // xx, xy, yy rows
  auto* score = reinterpret_cast<vx_float32*>(scratch + layout.score);
  const auto scale = static_cast<vx_float32>(1.0 / (static_cast<double>(1u << (g - 1)) * 255.0 * b));
  const double k = s.sensitivity;
  // A negative threshold acts as 0: a score of 0 or less marks no corner (and 0 marks no candidate below).
  const double threshold = std::max(static_cast<double>(s.threshold), 0.0);

  for (vx_uint32 j = 0; j < gradient_rows; ++j) {
    // Gradient row j is image row j - b/2; its Sobel reads padded rows j .. j + g - 1 (past the skip).
    vx_float32* xx = ring + 3 * (j % static_cast<vx_uint32>(b)) * gw;
    vx_float32* xy = xx + gw;
    vx_float32* yy = xy + gw;
    sobel_row(padded + (skip + j) * static_cast<std::size_t>(pw) + skip, pw, taps, g, columns, smooth, derivative, xx, xy);
    for (vx_uint32 i = 0; i < columns; ++i) {
      const vx_float32 fx = xx[i] * scale, fy = xy[i] * scale;
      xx[i] = fx * fx;
      xy[i] = fx * fy;
      yy[i] = fy * fy;
    }
    if (j + 1 < static_cast<vx_uint32>(b)) continue;
    // The ring holds gradient rows j - b + 1 .. j: the block rows of image row y. Sums down the block's
    // rows, then along them.
    const vx_uint32 y = j + 1 - static_cast<vx_uint32>(b);
    for (int channel = 0; channel < 3; ++channel) {
      vx_float32* down = columns_sum + channel * gw;
      copy_row(down, ring + channel * gw, columns);
      for (int r = 1; r < b; ++r) add_row(down, ring + (3 * static_cast<std::size_t>(r) + channel) * gw, columns);
      vx_float32* along = block_sum + channel * gw;
      copy_row(along, down, width);
      for (int t = 1; t < b; ++t) add_row(along, down + t, width);
    }
    const vx_float32* a = block_sum;
    const vx_float32* m = block_sum + gw;
    const vx_float32* c = block_sum + 2 * gw;
    vx_float32* out = score + static_cast<std::size_t>(y) * width;
    for (vx_uint32 x = 0; x < width; ++x) {
      const double trace = static_cast<double>(a[x]) + c[x];
      const double mc = static_cast<double>(a[x]) * c[x] - static_cast<double>(m[x]) * m[x] - k * trace * trace;
      out[x] = mc > threshold ? static_cast<vx_float32>(mc) : 0.0f;
    }
  }
}

/// The candidates that survive non-maximum suppression over the score plane; returns their count.
vx_size suppress(const vx_float32* score, vx_uint32 width, vx_uint32 height, Candidate* candidates) noexcept {
  vx_size count = 0;
  for (vx_uint32 y = 1; y + 1 < height; ++y) {
    const vx_float32* up = score + static_cast<std::size_t>(y - 1) * width;
    const vx_float32* row = up + width;
    const vx_float32* down = row + width;
    for (vx_uint32 x = 1; x + 1 < width; ++x) {
      const vx_float32 v = row[x];
      if (v == 0.0f) continue;
      // Of two equal neighbours the upper (or left) one stays: survivors are never neighbours.
      if (v >= up[x - 1] && v >= up[x] && v >= up[x + 1] && v >= row[x - 1] && v > row[x + 1] && v > down[x - 1] && v > down[x] &&
          v > down[x + 1]) {
        candidates[count++] = Candidate{v, y * width + x};
      }
    }
  }
  return count;
}

/// Takes the candidates (sorted strongest first) that no stronger taken corner lies closer to than
/// @p min_distance. Taken corners are kept in a grid of cells whose side s satisfies (s - 1) * sqrt(2) <
/// min_distance, so a cell never holds two of them and a candidate checks only the cells around it.
void take_corners(const Candidate* candidates, vx_size count, vx_uint32 width, vx_uint32 height, vx_float32 min_distance,
                  vx_uint32* grid, KeypointWriter& out) noexcept {
  // Distinct pixels are at least 1 apart: a distance of 1 or less suppresses nothing.
  if (!(min_distance > 1.0f)) {
    for (vx_size i = 0; i < count; ++i) out.add(candidates[i].index % width, candidates[i].index / width, candidates[i].score);
    return;
  }
  const double r = min_distance;
  const double r2 = r * r;
  const double max_side = std::max(width, height);
  const auto side = static_cast<vx_uint32>(std::min(std::ceil(r / std::sqrt(2.0)), max_side));
  const vx_uint32 grid_w = (width + side - 1) / side, grid_h = (height + side - 1) / side;
  // A corner D cells away on an axis is at least (D - 1) * side + 1 pixels away on it.
  const auto reach = static_cast<vx_uint32>(std::min((r - 1.0) / side + 1.0, max_side));
  std::fill(grid, grid + static_cast<std::size_t>(grid_w) * grid_h, kNoCorner);
  for (vx_size i = 0; i < count; ++i) {
    const vx_uint32 x = candidates[i].index % width, y = candidates[i].index / width;
    const vx_uint32 cx = x / side, cy = y / side;
    const vx_uint32 x0 = cx > reach ? cx - reach : 0, x1 = std::min(cx + reach, grid_w - 1);
    const vx_uint32 y0 = cy > reach ? cy - reach : 0, y1 = std::min(cy + reach, grid_h - 1);
    bool free = true;
    for (vx_uint32 gy = y0; gy <= y1 && free; ++gy) {
      for (vx_uint32 gx = x0; gx <= x1; ++gx) {
        const vx_uint32 taken = grid[static_cast<std::size_t>(gy) * grid_w + gx];
        if (taken == kNoCorner) continue;
        const double dx = static_cast<double>(taken % width) - x, dy = static_cast<double>(taken / width) - y;
        if (dx * dx + dy * dy < r2) {
          free = false;
          break;
        }
      }
    }
    if (!free) continue;
    grid[static_cast<std::size_t>(cy) * grid_w + cx] = candidates[i].index;
    out.add(x, y, candidates[i].score);
  }
}

template <typename T>
vx_status read_scalar(const vx_reference* parameters, vx_uint32 index, T& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[index]), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

vx_status VX_CALLBACK harris_corners_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 8) return VX_ERROR_INVALID_PARAMETERS;
  Settings s{};
  vx_int32 gradient_size = 0, block_size = 0;
  for (const vx_status status : {read_scalar(parameters, 1, s.threshold), read_scalar(parameters, 2, s.min_distance),
                                 read_scalar(parameters, 3, s.sensitivity), read_scalar(parameters, 4, gradient_size),
                                 read_scalar(parameters, 5, block_size)}) {
    if (status != VX_SUCCESS) return status;
  }
  if (!finite(s.threshold) || !distance_allowed(s.min_distance) || !finite(s.sensitivity) || !odd_size_allowed(gradient_size) ||
      !odd_size_allowed(block_size)) {
    return VX_ERROR_INVALID_VALUE;
  }
  s.gradient_size = gradient_size;
  s.block_size = block_size;
  vx_border_t border{};
  if (const vx_status status = neighbourhood_border(node, border); status != VX_SUCCESS) return status;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (const vx_status status = in.status(); status != VX_SUCCESS) return status;
  const vx_uint32 width = in.width(), height = in.height();
  ScratchLayout layout;
  if (!layout.plan(width, height)) return VX_ERROR_NO_MEMORY;
  auto* scratch = static_cast<vx_uint8*>(as<_vx_node>(node)->local_data);
  if (scratch == nullptr || as<_vx_node>(node)->local_data_size < layout.total) return VX_ERROR_NO_MEMORY;

  pad_image(in, scratch + layout.padded, layout.padded_width, kMaxPad, border);
  score_image(scratch + layout.padded, layout, scratch, width, height, s);
  auto* candidates = reinterpret_cast<Candidate*>(scratch + layout.candidates);
  const vx_size count = suppress(reinterpret_cast<const vx_float32*>(scratch + layout.score), width, height, candidates);
  std::sort(candidates, candidates + count, [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score > b.score : a.index < b.index;  // ties in raster order
  });
  KeypointWriter corners(reinterpret_cast<vx_array>(parameters[6]));
  take_corners(candidates, count, width, height, s.min_distance, reinterpret_cast<vx_uint32*>(scratch + layout.score), corners);
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
  if (const vx_status s = keypoint_array_output(node, parameters, metas, 6, "corners", layout.max_candidates); s != VX_SUCCESS) return s;
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
