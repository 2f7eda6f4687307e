// The enhanced-vision kernel HoughLinesP (probabilistic Hough transform for line segments): a function and a
// validate (standard_kernel_support.hpp).
//
// A U8 or U1 binary image (non-zero pixels are edge points), the vx_hough_lines_p_t parameters (rho and theta
// steps, the vote threshold, the shortest segment, the largest gap, the theta range), an array of
// VX_TYPE_LINE_2D segments and an optional VX_TYPE_SIZE count. The progressive probabilistic form: edge
// points are drawn one at a time in a pseudo-random order, each votes for every line through it; when a
// line's votes reach the threshold, the segment along it through that point is followed in both
// directions across gaps of at most line_gap pixels, its points leave the mask (and, when the segment is
// at least line_length long, the accumulator), and the long segments are reported. The order is a
// multiply-with-carry generator (multiplier 4164903690, state seeded with all ones), the one OpenCV's
// cv::RNG documents, and the rounding is to nearest even: the conformance suite's expected lines are
// OpenCV's cv::HoughLinesP output, which this reproduces exactly (a test compares the two). Points of the
// image's valid region only.
//
// Working memory (accumulator, point mask, point list, trigonometry) is the node's local data, sized at
// validation from the image and the parameters: nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "array.hpp"
#include "graph.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"

namespace vg::openvx {
namespace {

/// Where each part of the working memory lies in the node's local data.
struct Layout {
  int angles = 0, rhos = 0;
  std::size_t accumulator = 0, trig = 0, points = 0, mask = 0, total = 0;
  bool lay_out(vx_uint32 width, vx_uint32 height, const vx_hough_lines_p_t& p) noexcept {
    if (!(p.rho > 0.0f) || !(p.theta > 0.0f) || !(p.theta_max > p.theta_min)) return false;
    // Rounded, not truncated: a range of pi in steps of pi/170 is 170 angles, whatever the float error.
    const double angles_d = std::nearbyint((p.theta_max - p.theta_min) / p.theta);
    const double rhos_d = std::nearbyint(((width + height) * 2.0 + 1.0) / p.rho);
    if (!(angles_d >= 1.0 && angles_d < 1e5 && rhos_d >= 1.0 && rhos_d < 1e6)) return false;
    angles = static_cast<int>(angles_d);
    rhos = static_cast<int>(rhos_d);
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    accumulator = 0;
    trig = accumulator + static_cast<std::size_t>(angles) * static_cast<std::size_t>(rhos) * sizeof(std::int32_t);
    points = trig + static_cast<std::size_t>(angles) * 2 * sizeof(float);
    mask = points + pixels * 2 * sizeof(std::int32_t);
    total = mask + pixels;
    return total < (std::size_t{1} << 31);
  }
};

vx_status read_params(vx_reference scalar, vx_hough_lines_p_t& p) noexcept {
  if (!valid_handle(scalar, VX_TYPE_SCALAR) || as<_vx_scalar>(scalar)->data_type != VX_TYPE_HOUGH_LINES_PARAMS) return VX_ERROR_INVALID_TYPE;
  return vxCopyScalarWithSize(reinterpret_cast<vx_scalar>(scalar), sizeof p, &p, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

vx_status VX_CALLBACK hough_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8 && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or U1", format_name(input->format));
  }
  vx_hough_lines_p_t p{};
  if (read_params(parameters[1], p) != VX_SUCCESS) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "params must be a readable VX_TYPE_HOUGH_LINES_PARAMS scalar");
  }
  Layout layout;
  if (!layout.lay_out(input->width, input->height, p) || p.threshold < 1 || p.line_length < 0 || p.line_gap < 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS,
                  "params are out of range: rho and theta above 0, theta_max above theta_min, threshold at least 1, "
                  "line_length and line_gap not negative");
  }
  if (!valid_handle(parameters[2], VX_TYPE_ARRAY)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "lines_array is not an array");
  const auto* lines = as<_vx_array>(parameters[2]);
  if (lines->item_type != VX_TYPE_LINE_2D && lines->item_type != VX_TYPE_INVALID) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "lines_array holds items of type 0x%x, it must hold VX_TYPE_LINE_2D",
                  static_cast<unsigned>(lines->item_type));
  }
  as<_vx_meta_format>(metas[2])->item_type = VX_TYPE_LINE_2D;
  as<_vx_meta_format>(metas[2])->capacity = lines->capacity_open ? static_cast<vx_size>(input->width) * input->height : lines->capacity;
  if (parameters[3] != nullptr) {
    if (!valid_handle(parameters[3], VX_TYPE_SCALAR) || (as<_vx_scalar>(parameters[3])->data_type != VX_TYPE_SIZE &&
                                                  !(as<_vx_scalar>(parameters[3])->is_virtual &&
                                                    as<_vx_scalar>(parameters[3])->data_type == VX_TYPE_INVALID))) {
      return refuse(node, VX_ERROR_INVALID_TYPE, "num_lines must be a VX_TYPE_SIZE scalar");
    }
    as<_vx_meta_format>(metas[3])->scalar_type = VX_TYPE_SIZE;
  }
  as<_vx_node>(node)->local_data_size = layout.total;
  return VX_SUCCESS;
}

vx_status VX_CALLBACK hough_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_hough_lines_p_t p{};
  if (const vx_status s = read_params(parameters[1], p); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  const vx_uint32 width = in.width(), height = in.height();
  Layout layout;
  if (!layout.lay_out(width, height, p)) return VX_ERROR_INVALID_PARAMETERS;
  if (as<_vx_node>(node)->local_data == nullptr || as<_vx_node>(node)->local_data_size < layout.total) return VX_ERROR_NO_MEMORY;
  auto* base = static_cast<vx_uint8*>(as<_vx_node>(node)->local_data);
  auto* acc = reinterpret_cast<std::int32_t*>(base + layout.accumulator);
  auto* trig = reinterpret_cast<float*>(base + layout.trig);
  auto* points = reinterpret_cast<std::int32_t*>(base + layout.points);
  vx_uint8* mask = base + layout.mask;
  const int angles = layout.angles, rhos = layout.rhos;
  std::memset(acc, 0, static_cast<std::size_t>(angles) * static_cast<std::size_t>(rhos) * sizeof(std::int32_t));
  const float inv_rho = 1.0f / p.rho;
  for (int n = 0; n < angles; ++n) {
    const double a = p.theta_min + n * static_cast<double>(p.theta);
    trig[2 * n] = static_cast<float>(std::cos(a) * inv_rho);
    trig[2 * n + 1] = static_cast<float>(std::sin(a) * inv_rho);
  }
  const int rho_offset = (rhos - 1) / 2;  // rho may be negative: index rho + offset

  // The edge points of the valid region, in raster order.
  vx_rectangle_t valid_rect{0, 0, width, height};
  if (vxGetValidRegionImage(image_at(parameters, 0), &valid_rect) != VX_SUCCESS || valid_rect.end_x > width || valid_rect.end_y > height) {
    valid_rect = vx_rectangle_t{0, 0, width, height};
  }
  const bool u1 = as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_U1;
  std::size_t count = 0;
  std::memset(mask, 0, static_cast<std::size_t>(width) * height);
  for (vx_uint32 y = valid_rect.start_y; y < valid_rect.end_y; ++y) {
    const vx_uint8* row = in.row(y);
    for (vx_uint32 x = valid_rect.start_x; x < valid_rect.end_x; ++x) {
      const bool on = u1 ? ((row[x / 8] >> (x % 8)) & 1u) != 0 : row[static_cast<std::ptrdiff_t>(x) * in.stride_x()] != 0;
      if (!on) continue;
      points[2 * count] = static_cast<std::int32_t>(x);
      points[2 * count + 1] = static_cast<std::int32_t>(y);
      mask[static_cast<std::size_t>(y) * width + x] = 1;
      ++count;
    }
  }
  BoundedArrayFill<vx_line2d_t> lines(reinterpret_cast<vx_array>(parameters[2]));
  vx_size found = 0;
  const int shift = 16;
  std::uint64_t state = ~std::uint64_t{0};
  auto next_index = [&state](std::size_t n) {  // uniform in [0, n): multiply-with-carry, then modulo
    state = static_cast<std::uint64_t>(static_cast<std::uint32_t>(state)) * 4164903690u + (state >> 32);
    return static_cast<std::size_t>(static_cast<std::uint32_t>(state) % static_cast<std::uint32_t>(n));
  };
  for (; count > 0; --count) {
    // Draw a point, and move the last one into its place.
    const std::size_t k = next_index(count);
    const int x = points[2 * k], y = points[2 * k + 1];
    points[2 * k] = points[2 * (count - 1)];
    points[2 * k + 1] = points[2 * (count - 1) + 1];
    if (!mask[static_cast<std::size_t>(y) * width + static_cast<std::size_t>(x)]) continue;  // taken by a segment
    // Vote, and find the strongest line through this point.
    int best = p.threshold - 1, best_angle = -1;
    for (int n = 0; n < angles; ++n) {
      const int r = static_cast<int>(std::lrint(static_cast<float>(x) * trig[2 * n] + static_cast<float>(y) * trig[2 * n + 1])) + rho_offset;
      if (r < 0 || r >= rhos) continue;
      const int votes = ++acc[n * rhos + r];
      if (votes > best) {
        best = votes;
        best_angle = n;
      }
    }
    if (best_angle < 0) continue;
    // Follow the line through (x, y) both ways (the direction perpendicular to the normal), fixed point.
    const float a = -trig[2 * best_angle + 1], b = trig[2 * best_angle];
    int x0 = x, y0 = y, dx0, dy0;
    const bool x_major = std::fabs(a) > std::fabs(b);
    if (x_major) {
      dx0 = a > 0 ? 1 : -1;
      dy0 = static_cast<int>(std::lrint(b * static_cast<float>(1 << shift) / std::fabs(a)));
      y0 = (y0 << shift) + (1 << (shift - 1));
    } else {
      dy0 = b > 0 ? 1 : -1;
      dx0 = static_cast<int>(std::lrint(a * static_cast<float>(1 << shift) / std::fabs(b)));
      x0 = (x0 << shift) + (1 << (shift - 1));
    }
    int ends[2][2] = {};
    for (int side = 0; side < 2; ++side) {
      int gap = 0, px = x0, py = y0;
      const int dx = side ? -dx0 : dx0, dy = side ? -dy0 : dy0;
      for (;; px += dx, py += dy) {
        const int ix = x_major ? px : px >> shift, iy = x_major ? py >> shift : py;
        if (ix < static_cast<int>(valid_rect.start_x) || ix >= static_cast<int>(valid_rect.end_x) || iy < static_cast<int>(valid_rect.start_y) ||
            iy >= static_cast<int>(valid_rect.end_y)) {
          break;
        }
        if (mask[static_cast<std::size_t>(iy) * width + static_cast<std::size_t>(ix)]) {
          gap = 0;
          ends[side][0] = ix;
          ends[side][1] = iy;
        } else if (++gap > p.line_gap) {
          break;
        }
      }
    }
    const bool long_enough = std::abs(ends[1][0] - ends[0][0]) >= p.line_length || std::abs(ends[1][1] - ends[0][1]) >= p.line_length;
    // Take the segment's points out of the mask (and, for a reported segment, their votes out of the
    // accumulator), walking it again.
    for (int side = 0; side < 2; ++side) {
      int px = x0, py = y0;
      const int dx = side ? -dx0 : dx0, dy = side ? -dy0 : dy0;
      for (;; px += dx, py += dy) {
        const int ix = x_major ? px : px >> shift, iy = x_major ? py >> shift : py;
        if (ix < static_cast<int>(valid_rect.start_x) || ix >= static_cast<int>(valid_rect.end_x) || iy < static_cast<int>(valid_rect.start_y) ||
            iy >= static_cast<int>(valid_rect.end_y)) {
          break;
        }
        vx_uint8& m = mask[static_cast<std::size_t>(iy) * width + static_cast<std::size_t>(ix)];
        if (m) {
          if (long_enough) {
            for (int n = 0; n < angles; ++n) {
              const int r =
                  static_cast<int>(std::lrint(static_cast<float>(ix) * trig[2 * n] + static_cast<float>(iy) * trig[2 * n + 1])) + rho_offset;
              // Points the draw had not reached yet lose a vote they never cast, as in the reference.
              if (r >= 0 && r < rhos) --acc[n * rhos + r];
            }
          }
          m = 0;
        }
        if (ix == ends[side][0] && iy == ends[side][1]) break;
      }
    }
    if (long_enough) {
      ++found;
      if (lines.has_room()) {
        lines.add(vx_line2d_t{static_cast<vx_float32>(ends[0][0]), static_cast<vx_float32>(ends[0][1]), static_cast<vx_float32>(ends[1][0]),
                              static_cast<vx_float32>(ends[1][1])});
      }
    }
  }
  if (const vx_status s = lines.finish(); s != VX_SUCCESS) return s;
  if (parameters[3] != nullptr) {
    return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[3]), &found, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kHoughKernels[] = {
    {VX_KERNEL_HOUGH_LINES_P, &hough_function, &hough_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> hough_lines_kernels() noexcept { return kHoughKernels; }

}  // namespace vg::openvx
