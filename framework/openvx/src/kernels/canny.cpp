// The standard kernel CannyEdgeDetector: a function and a validate (standard_kernel_support.hpp).
//
// A U8 image in, a binary image of its size out: U8 (edges 255, the rest 0) or U1 (edges 1). The
// parameters are hyst (a VX_THRESHOLD_TYPE_RANGE threshold whose input format is U8 or S16: its lower and
// upper values are the hysteresis thresholds; its output format and true / false values play no part),
// gradient_size (a VX_TYPE_INT32 scalar: 3, 5 or 7) and norm_type (VX_NORM_L1 or VX_NORM_L2).
//
//   1. Gradients: dx and dy are the input convolved with the specification's Sobel kernels of that size;
//      each is separable, a binomial smoothing row ([1 2 1], [1 4 6 4 1], [1 6 15 20 15 6 1]) times a
//      derivative row ([-1 0 1], [-1 -2 0 2 1], [-1 -4 -5 0 5 4 1]), and is computed so, exactly, in
//      integers. The magnitude m is |dx| + |dy| (L1) or sqrt(dx^2 + dy^2) (L2; compared squared, so in
//      integers too).
//   2. Non-maximum suppression: the gradient direction is quantised to 0, 45, 90 or 135 degrees, with the
//      sector bounds at tan(22.5 deg) tested exactly: (|dx| + |dy|)^2 < 2 dx^2 is horizontal,
//      (|dx| + |dy|)^2 < 2 dy^2 vertical, otherwise the diagonal of dx * dy's sign. A pixel stays a
//      candidate when m > lower and m beats its two neighbours along that direction: strictly the one
//      before (left, above, or above on the diagonal) and at least equal to the one after for the
//      horizontal and vertical directions, strictly both on the diagonals (what the Khronos conformance
//      reference computes, bit for bit).
//   3. Hysteresis: candidates with m > upper are edges; a candidate 8-connected to an edge through other
//      candidates is an edge too. Everything else is 0.
//
// Borders come from the node's VX_NODE_BORDER. UNDEFINED: the frame of gradient_size / 2 + 1 pixels on
// each side (where a gradient window, or a neighbour's, reaches outside the image) is 0 and takes no part
// in the tracing, and the output's valid region shrinks by as much. CONSTANT and REPLICATE: the gradient
// windows read the border outside the image, every pixel is a candidate, and a neighbour outside the image
// has magnitude 0 in the suppression (the specification defines the border for the convolution only).
//
// Working memory lives in the node's local data, sized at validation and allocated when the graph is set
// up: the magnitudes and directions of three rows (the suppression needs one row above and one below),
// the vertical sums of one row, a candidate / edge map of the image with a one-pixel frame (so the
// tracing needs no bounds checks) and the tracing stack (each pixel enters it at most once). Nothing is
// allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "checked_size.hpp"
#include "graph.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"
#include "threshold.hpp"

namespace vg::openvx {
namespace {

constexpr int kMaxRadius = 3;  // gradient_size 7

// The Sobel kernels' factors by radius - 1: sobel_x(r, c) = smoothing[r] * derivative[c], sobel_y its
// transpose.
constexpr int kSmoothing[kMaxRadius][2 * kMaxRadius + 1] = {{1, 2, 1}, {1, 4, 6, 4, 1}, {1, 6, 15, 20, 15, 6, 1}};
constexpr int kDerivative[kMaxRadius][2 * kMaxRadius + 1] = {{-1, 0, 1}, {-1, -2, 0, 2, 1}, {-1, -4, -5, 0, 5, 4, 1}};

bool gradient_size_allowed(vx_int32 size) noexcept { return size == 3 || size == 5 || size == 7; }

// The quantised gradient direction of a pixel.
enum Direction : vx_uint8 { kHorizontal, kVertical, kDiagonalDown /* dx, dy of one sign */, kDiagonalUp };

// Candidate / edge map values.
constexpr vx_uint8 kNone = 0, kCandidate = 1, kEdge = 2;

/// Where each part of the working memory lies in the node's local data, for a width x height image.
/// Parts are laid out widest element first, so each starts aligned (local data is malloc-aligned).
struct Scratch {
  vx_size magnitudes = 0;  // 4 rows of width + 2 int64 (three rows and a row of zeros); column x at x + 1
  vx_size directions = 0;  // 3 rows of width Direction
  vx_size smoothed = 0;    // width + 2 * kMaxRadius int32: the vertical smoothing sums of one row
  vx_size derived = 0;     // the same for the vertical derivative sums
  vx_size stack = 0;       // width * height uint32 map indices
  vx_size map = 0;         // (width + 2) x (height + 2) bytes
  vx_size total = 0;

  /// false when the sizes do not fit (or the map's indices would not fit in 32 bits).
  bool lay_out(vx_uint32 width, vx_uint32 height) noexcept {
    const vx_size padded_w = static_cast<vx_size>(width) + 2, padded_h = static_cast<vx_size>(height) + 2;
    vx_size map_bytes = 0, stack_bytes = 0, row_bytes = 0, sums_bytes = 0, direction_bytes = 0;
    if (!checked_bytes(map_bytes, padded_w, padded_h) || map_bytes > UINT32_MAX) return false;
    if (!checked_bytes(stack_bytes, static_cast<vx_size>(width), static_cast<vx_size>(height), sizeof(vx_uint32))) return false;
    if (!checked_bytes(row_bytes, padded_w, 4, sizeof(std::int64_t))) return false;
    if (!checked_bytes(sums_bytes, static_cast<vx_size>(width) + 2 * kMaxRadius, sizeof(std::int32_t))) return false;
    if (!checked_bytes(direction_bytes, static_cast<vx_size>(width), 3)) return false;
    vx_size at = 0;
    magnitudes = at;
    if (!checked_grow(at, row_bytes)) return false;
    smoothed = at;
    if (!checked_grow(at, sums_bytes)) return false;
    derived = at;
    if (!checked_grow(at, sums_bytes)) return false;
    stack = at;
    if (!checked_grow(at, stack_bytes)) return false;
    directions = at;
    if (!checked_grow(at, direction_bytes)) return false;
    map = at;
    if (!checked_grow(at, map_bytes)) return false;
    total = at;
    return true;
  }
};

/// The hysteresis thresholds as values comparable with the magnitudes (squared for L2; a negative
/// threshold, which any magnitude exceeds, becomes -1).
struct Thresholds {
  std::int64_t lower, upper;
};

Thresholds comparable(vx_int32 lower, vx_int32 upper, bool l2) noexcept {
  auto convert = [l2](vx_int32 t) -> std::int64_t {
    if (t < 0) return -1;
    return l2 ? static_cast<std::int64_t>(t) * t : t;
  };
  return {convert(lower), convert(upper)};
}

/// The detector over one image: gradients row by row into a ring of three, suppression a row behind, then
/// the tracing over the map.
class Detector {
 public:
  Detector(const MappedImage& in, vx_uint8* scratch, const Scratch& layout, int radius, bool l2, const vx_border_t& border,
           Thresholds thresholds) noexcept
      : in_(in),
        width_(in.width()),
        height_(in.height()),
        radius_(radius),
        l2_(l2),
        constant_(border.mode == VX_BORDER_CONSTANT),
        undefined_(border.mode == VX_BORDER_UNDEFINED),
        constant_value_(border.constant_value.U8),
        thresholds_(thresholds),
        magnitudes_(reinterpret_cast<std::int64_t*>(scratch + layout.magnitudes)),
        directions_(scratch + layout.directions),
        smoothed_(reinterpret_cast<std::int32_t*>(scratch + layout.smoothed)),
        derived_(reinterpret_cast<std::int32_t*>(scratch + layout.derived)),
        stack_(reinterpret_cast<vx_uint32*>(scratch + layout.stack)),
        map_(scratch + layout.map),
        map_stride_(static_cast<std::ptrdiff_t>(width_) + 2) {}

  void run() noexcept {
    std::memset(map_, kNone, static_cast<std::size_t>(map_stride_) * (static_cast<std::size_t>(height_) + 2));
    std::fill_n(zero_row(), width_ + 2, std::int64_t{0});
    // Under UNDEFINED only pixels whose neighbours' gradient windows lie inside the image are candidates.
    const vx_uint32 frame = undefined_ ? static_cast<vx_uint32>(radius_) + 1 : 0;
    if (width_ <= 2 * frame || height_ <= 2 * frame) return;  // no candidates: the map stays empty
    // Gradient rows first .. last (inclusive) feed the suppression of rows frame .. height - 1 - frame.
    const vx_uint32 first = frame > 0 ? frame - 1 : 0, last = frame > 0 ? height_ - frame : height_ - 1;
    vx_uint32 next = first;
    for (vx_uint32 y = frame; y + frame < height_; ++y) {
      while (next <= std::min(y + 1, last)) gradient_row(next++);
      suppress_row(y, frame);
    }
    trace();
  }

  /// Writes the map's edges: 255 / 0 to a U8 output, 1 / 0 bits to a U1 output.
  void write(const MappedImage& out, bool u1) const noexcept {
    for (vx_uint32 y = 0; y < height_; ++y) {
      const vx_uint8* m = map_ + (static_cast<std::ptrdiff_t>(y) + 1) * map_stride_ + 1;
      vx_uint8* o = out.row(y);
      if (u1) {
        for (vx_uint32 x = 0; x < width_; x += 8) {
          const vx_uint32 n = std::min<vx_uint32>(8, width_ - x);
          unsigned bits = 0;
          for (vx_uint32 b = 0; b < n; ++b) bits |= (m[x + b] == kEdge ? 1u : 0u) << b;
          store_u1_bits(o + x / 8, static_cast<vx_uint8>(bits), n == 8 ? vx_uint8{0xFF} : u1_last_mask(n));
        }
      } else {
        const std::ptrdiff_t step = out.stride_x();
        for (vx_uint32 x = 0; x < width_; ++x) o[static_cast<std::ptrdiff_t>(x) * step] = m[x] == kEdge ? 255 : 0;
      }
    }
  }

 private:
  std::int64_t* zero_row() const noexcept { return magnitudes_ + 3 * (static_cast<std::ptrdiff_t>(width_) + 2); }
  /// Row y's magnitudes (ring slot y % 3), or the zero row outside the image.
  const std::int64_t* magnitude_row(long long y) const noexcept {
    if (y < 0 || y >= static_cast<long long>(height_)) return zero_row();
    return magnitude_slot(static_cast<vx_uint32>(y));
  }
  std::int64_t* magnitude_slot(vx_uint32 y) const noexcept { return magnitudes_ + (y % 3) * (static_cast<std::ptrdiff_t>(width_) + 2); }
  vx_uint8* direction_row(vx_uint32 y) const noexcept { return directions_ + (y % 3) * static_cast<std::ptrdiff_t>(width_); }

  /// Row y's magnitudes and directions into its ring slot.
  void gradient_row(vx_uint32 y) noexcept {
    const int r = radius_, side = 2 * r + 1;
    const int* smoothing = kSmoothing[r - 1];
    const int* derivative = kDerivative[r - 1];
    const std::ptrdiff_t step = in_.stride_x();
    // Vertical pass: per column, the smoothing and derivative sums down the window's rows. Rows outside
    // the image are the nearest edge row (REPLICATE; UNDEFINED reads them so too, unused) or the constant.
    std::int32_t constant_smoothing = 0, constant_derivative = 0;
    const vx_uint8* rows[2 * kMaxRadius + 1];
    int row_weights_index[2 * kMaxRadius + 1];
    int inside_rows = 0;
    for (int i = 0; i < side; ++i) {
      long long yy = static_cast<long long>(y) + i - r;
      const bool outside = yy < 0 || yy >= static_cast<long long>(height_);
      if (outside && constant_) {
        constant_smoothing += smoothing[i] * constant_value_;
        constant_derivative += derivative[i] * constant_value_;
        continue;
      }
      yy = std::clamp<long long>(yy, 0, static_cast<long long>(height_) - 1);
      rows[inside_rows] = in_.row(static_cast<vx_uint32>(yy));
      row_weights_index[inside_rows] = i;
      ++inside_rows;
    }
    std::int32_t* s = smoothed_ + kMaxRadius;  // s[x] for x in [-kMaxRadius, width + kMaxRadius)
    std::int32_t* d = derived_ + kMaxRadius;
    for (vx_uint32 x = 0; x < width_; ++x) {
      std::int32_t sum_s = constant_smoothing, sum_d = constant_derivative;
      const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(x) * step;
      for (int k = 0; k < inside_rows; ++k) {
        const std::int32_t p = rows[k][at];
        sum_s += smoothing[row_weights_index[k]] * p;
        sum_d += derivative[row_weights_index[k]] * p;
      }
      s[x] = sum_s;
      d[x] = sum_d;
    }
    // Columns outside the image: a constant column sums to constant * (sum of the smoothing weights,
    // 2^(2r)) and 0 (the derivative weights sum to 0); otherwise the nearest edge column's sums.
    const long long w = width_;
    for (int c = 1; c <= r; ++c) {
      if (constant_) {
        s[-c] = s[w - 1 + c] = constant_value_ << (2 * r);
        d[-c] = d[w - 1 + c] = 0;
      } else {
        s[-c] = s[0];
        d[-c] = d[0];
        s[w - 1 + c] = s[w - 1];
        d[w - 1 + c] = d[w - 1];
      }
    }
    // Horizontal pass: dx = derivative along the smoothed sums, dy = smoothing along the derivative sums.
    std::int64_t* m = magnitude_slot(y) + 1;
    vx_uint8* direction = direction_row(y);
    for (vx_uint32 x = 0; x < width_; ++x) {
      std::int32_t dx = 0, dy = 0;
      const std::int32_t* sx = s + static_cast<std::ptrdiff_t>(x) - r;
      const std::int32_t* dxs = d + static_cast<std::ptrdiff_t>(x) - r;
      for (int j = 0; j < side; ++j) {
        dx += derivative[j] * sx[j];
        dy += smoothing[j] * dxs[j];
      }
      const std::int64_t ax = dx < 0 ? -static_cast<std::int64_t>(dx) : dx, ay = dy < 0 ? -static_cast<std::int64_t>(dy) : dy;
      m[x] = l2_ ? ax * ax + ay * ay : ax + ay;
      const std::int64_t l1_squared = (ax + ay) * (ax + ay);
      if (l1_squared < 2 * ax * ax) {
        direction[x] = kHorizontal;
      } else if (l1_squared < 2 * ay * ay) {
        direction[x] = kVertical;
      } else {
        direction[x] = (dx < 0) == (dy < 0) ? kDiagonalDown : kDiagonalUp;
      }
    }
    m[-1] = 0;
    m[width_] = 0;
  }

  /// Row y's candidates (columns frame .. width - 1 - frame) into the map; edges onto the stack.
  void suppress_row(vx_uint32 y, vx_uint32 frame) noexcept {
    const std::int64_t* above = magnitude_row(static_cast<long long>(y) - 1) + 1;
    const std::int64_t* here = magnitude_row(y) + 1;
    const std::int64_t* below = magnitude_row(static_cast<long long>(y) + 1) + 1;
    const vx_uint8* direction = direction_row(y);
    vx_uint8* map_row = map_ + (static_cast<std::ptrdiff_t>(y) + 1) * map_stride_ + 1;
    // Signed columns: x - 1 at x = 0 is the padding before the row.
    const auto end = static_cast<std::ptrdiff_t>(width_) - static_cast<std::ptrdiff_t>(frame);
    for (auto x = static_cast<std::ptrdiff_t>(frame); x < end; ++x) {
      const std::int64_t m = here[x];
      if (m <= thresholds_.lower) continue;
      bool maximum;
      switch (direction[x]) {
        case kHorizontal: maximum = m > here[x - 1] && m >= here[x + 1]; break;
        case kVertical: maximum = m > above[x] && m >= below[x]; break;
        case kDiagonalDown: maximum = m > above[x - 1] && m > below[x + 1]; break;
        default: maximum = m > above[x + 1] && m > below[x - 1]; break;
      }
      if (!maximum) continue;
      if (m > thresholds_.upper) {
        map_row[x] = kEdge;
        stack_[stack_size_++] = static_cast<vx_uint32>(&map_row[x] - map_);
      } else {
        map_row[x] = kCandidate;
      }
    }
  }

  /// Hysteresis: candidates reachable from an edge become edges. The map's frame is kNone, so the
  /// neighbours of any pixel are inside the map.
  void trace() noexcept {
    const std::ptrdiff_t s = map_stride_;
    const std::ptrdiff_t neighbours[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    while (stack_size_ > 0) {
      const std::ptrdiff_t at = stack_[--stack_size_];
      for (std::ptrdiff_t n : neighbours) {
        vx_uint8& v = map_[at + n];
        if (v != kCandidate) continue;
        v = kEdge;
        stack_[stack_size_++] = static_cast<vx_uint32>(at + n);
      }
    }
  }

  const MappedImage& in_;
  vx_uint32 width_, height_;
  int radius_;
  bool l2_, constant_, undefined_;
  std::int32_t constant_value_;
  Thresholds thresholds_;
  std::int64_t* magnitudes_;
  vx_uint8* directions_;
  std::int32_t* smoothed_;
  std::int32_t* derived_;
  vx_uint32* stack_;
  std::size_t stack_size_ = 0;
  vx_uint8* map_;
  std::ptrdiff_t map_stride_;
};

/// The hysteresis thresholds of @p hyst (lower, upper) read in its input format's field.
void hysteresis_values(_vx_threshold* hyst, vx_int32& lower, vx_int32& upper) noexcept {
  const std::lock_guard guard(hyst->lock);
  if (hyst->input_format == VX_DF_IMAGE_S16) {
    lower = hyst->lower.S16;
    upper = hyst->upper.S16;
  } else {
    lower = hyst->lower.U8;
    upper = hyst->upper.U8;
  }
}

vx_status VX_CALLBACK canny_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  vx_int32 gradient_size = 0;
  vx_enum norm = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &gradient_size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[3]), &norm, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  if (!gradient_size_allowed(gradient_size) || (norm != VX_NORM_L1 && norm != VX_NORM_L2)) return VX_ERROR_INVALID_VALUE;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  vx_int32 lower = 0, upper = 0;
  hysteresis_values(as<_vx_threshold>(parameters[1]), lower, upper);
  const vx_image output = image_at(parameters, 4);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(output, VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  Scratch layout;
  if (!layout.lay_out(in.width(), in.height()) || out.width() != in.width() || out.height() != in.height()) return VX_ERROR_INVALID_PARAMETERS;
  if (as<_vx_node>(node)->local_data == nullptr || as<_vx_node>(node)->local_data_size < layout.total) return VX_ERROR_NO_MEMORY;
  const bool l2 = norm == VX_NORM_L2;
  Detector detector(in, static_cast<vx_uint8*>(as<_vx_node>(node)->local_data), layout, gradient_size / 2, l2, border, comparable(lower, upper, l2));
  detector.run();
  detector.write(out, as<_vx_image>(output)->format == VX_DF_IMAGE_U1);
  return VX_SUCCESS;
}

/// The gradient size set on the node (3 when it cannot be read yet: a virtual scalar).
vx_int32 node_gradient_size(vx_node node) noexcept {
  const _vx_node* n = as<_vx_node>(node);
  if (n == nullptr || n->arguments.size() != 5 || n->arguments[2] == nullptr || n->arguments[2]->type != VX_TYPE_SCALAR) return 3;
  const auto* scalar = static_cast<const _vx_scalar*>(n->arguments[2]);  // the node's argument: an object
  vx_int32 size = 3;
  if (scalar->data_type == VX_TYPE_INT32 && !scalar->is_virtual) std::memcpy(&size, scalar->bytes.data(), sizeof size);
  return gradient_size_allowed(size) ? size : 3;
}

/// The valid region: the input's, less gradient_size / 2 + 1 on each side under UNDEFINED (and on sides
/// where the input's region stops short of the image's edge under the other modes).
vx_status VX_CALLBACK canny_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                            vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto reach = static_cast<vx_uint32>(node_gradient_size(node) / 2 + 1);
  *output_valid[0] = neighbourhood_valid_rectangle(border, *output_valid[0], *input_valid[0], reach, reach);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK canny_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "hyst is not a threshold");
  const auto* hyst = as<_vx_threshold>(parameters[1]);
  if (hyst->threshold_type != VX_THRESHOLD_TYPE_RANGE) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "hyst has type 0x%x, it must be VX_THRESHOLD_TYPE_RANGE", static_cast<unsigned>(hyst->threshold_type));
  }
  if (hyst->input_format != VX_DF_IMAGE_U8 && hyst->input_format != VX_DF_IMAGE_S16) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "hyst is for %s input (VX_THRESHOLD_INPUT_FORMAT), it must be U8 or S16",
                  format_name(hyst->input_format));
  }
  if (!valid_handle(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "gradient_size is not a scalar");
  const auto* size_scalar = as<_vx_scalar>(parameters[2]);
  if (size_scalar->data_type != VX_TYPE_INT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "gradient_size is a scalar of type 0x%x, it must be VX_TYPE_INT32",
                  static_cast<unsigned>(size_scalar->data_type));
  }
  if (!size_scalar->is_virtual) {
    vx_int32 size = 0;
    std::memcpy(&size, size_scalar->bytes.data(), sizeof size);
    if (!gradient_size_allowed(size)) return refuse(node, VX_ERROR_INVALID_VALUE, "gradient_size is %d, it must be 3, 5 or 7", size);
  }
  vx_enum norm = 0;
  if (const vx_status s = enum_parameter(node, parameters, 3, "norm_type", {VX_NORM_L1, VX_NORM_L2}, norm); s != VX_SUCCESS) return s;
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  // The output is U8 unless it was created U1 (a virtual output of open format becomes U8).
  vx_df_image format = VX_DF_IMAGE_U8;
  if (valid_handle(parameters[4], VX_TYPE_IMAGE)) {
    const vx_df_image declared = as<_vx_image>(parameters[4])->declared_format;
    if (declared == VX_DF_IMAGE_U1) format = VX_DF_IMAGE_U1;
    if (declared != VX_DF_IMAGE_VIRT && declared != VX_DF_IMAGE_U8 && declared != VX_DF_IMAGE_U1) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "output has format %s, it must be U8 or U1", format_name(declared));
    }
  }
  if (const vx_status s = output_image(node, parameters, 4, "output", input->width, input->height, format, metas[4]); s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &canny_valid_rectangle;
  if (const vx_status s = vxSetMetaFormatAttribute(metas[4], VX_VALID_RECT_CALLBACK, &callback, sizeof callback); s != VX_SUCCESS) {
    return s;
  }
  Scratch layout;
  if (!layout.lay_out(input->width, input->height)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "input is %ux%u, too large for the working memory this kernel needs", input->width,
                  input->height);
  }
  as<_vx_node>(node)->local_data_size = layout.total;
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kCannyKernels[] = {
    {VX_KERNEL_CANNY_EDGE_DETECTOR, &canny_function, &canny_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> canny_kernels() noexcept { return kCannyKernels; }

}  // namespace vg::openvx
