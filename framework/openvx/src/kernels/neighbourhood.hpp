#pragma once
// Neighbourhood kernels (each output pixel from the window of input pixels around it): the walk over an
// image under the node's border mode, and the output's valid region. Used by the 3x3 filters
// (filters.cpp), Sobel3x3 and Convolve (gradients.cpp).
//
// The window is (2 * radius_x + 1) x (2 * radius_y + 1) pixels, at most kMaxNeighbourhood on a side (the
// VX_CONTEXT_CONVOLUTION_MAX_DIMENSION this library reports). Borders come from the node's VX_NODE_BORDER:
// CONSTANT reads the constant outside the image, REPLICATE the nearest edge pixel. UNDEFINED leaves the
// values of the frame (the pixels whose window reaches outside the image) open: this library computes them
// as REPLICATE does, and the output's valid region is the input's less the radius on each side.
//
// The interior (pixels whose window lies inside the image) runs a loop without border checks, reading the
// image in place; each pixel of the frame gathers its window into a small buffer on the stack first.
// Nothing is allocated.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>

#include "convolution.hpp"
#include "kernels/standard_kernel_support.hpp"

namespace vg::openvx {

/// The largest window side: VX_CONTEXT_CONVOLUTION_MAX_DIMENSION.
inline constexpr int kMaxNeighbourhood = static_cast<int>(kMaxConvolutionDimension);

/// The border modes neighbourhood kernels support: UNDEFINED, CONSTANT and REPLICATE.
inline bool neighbourhood_border_supported(const vx_border_t& border) noexcept {
  return border.mode == VX_BORDER_UNDEFINED || border.mode == VX_BORDER_CONSTANT || border.mode == VX_BORDER_REPLICATE;
}

/// The window around one pixel: window(r, c) is the input pixel at row r, column c of the window (0, 0 at
/// the top left; the centre at radius_y, radius_x). @p Packed: columns are sizeof(T) apart.
template <typename T, bool Packed>
struct Window {
  const vx_uint8* const* rows;  // the window's rows
  std::ptrdiff_t first;         // bytes from a row's start to the window's first column
  std::ptrdiff_t step;          // bytes from one column to the next (sizeof(T) when Packed)

  T operator()(int r, int c) const noexcept {
    const std::ptrdiff_t s = Packed ? static_cast<std::ptrdiff_t>(sizeof(T)) : step;
    return load<T>(rows[r] + first + static_cast<std::ptrdiff_t>(c) * s);
  }
};

/// The border constant as a pixel of type T.
template <typename T>
T border_constant(const vx_border_t& border) noexcept {
  if constexpr (sizeof(T) == 1) {
    return static_cast<T>(border.constant_value.U8);
  } else {
    return static_cast<T>(border.constant_value.S16);
  }
}

/// Calls visit(window, x, y) for every pixel (x, y) of @p in, window being a Window<T, Packed> (the visit
/// is generic: it gets Window<T, true> for packed interiors and the frame, Window<T, false> for interiors
/// with gaps). The visit stores its own outputs. @p radius_x and @p radius_y are at most
/// kMaxNeighbourhood / 2; the border mode is one neighbourhood_border_supported() accepts.
/// With @p frame_only the interior is skipped (another function wrote it) and only the frame is visited.
template <typename T, typename Visit>
void for_each_neighbourhood(const MappedImage& in, vx_uint32 radius_x, vx_uint32 radius_y, const vx_border_t& border,
                            Visit&& visit, bool frame_only = false) noexcept {
  const vx_uint32 width = in.width(), height = in.height();
  const std::ptrdiff_t si = in.stride_x();
  constexpr std::ptrdiff_t size = static_cast<std::ptrdiff_t>(sizeof(T));
  const vx_uint32 window_w = 2 * radius_x + 1, window_h = 2 * radius_y + 1;
  const vx_uint8* rows[kMaxNeighbourhood];
  const bool interior = width > 2 * radius_x && height > 2 * radius_y;

  if (interior && !frame_only) {
    const bool packed = si == size;
    for (vx_uint32 y = radius_y; y + radius_y < height; ++y) {
      for (vx_uint32 r = 0; r < window_h; ++r) rows[r] = in.row(y - radius_y + r);
      if (packed) {
        for (vx_uint32 x = radius_x; x + radius_x < width; ++x) {
          visit(Window<T, true>{rows, static_cast<std::ptrdiff_t>(x - radius_x) * size, size}, x, y);
        }
      } else {
        for (vx_uint32 x = radius_x; x + radius_x < width; ++x) {
          visit(Window<T, false>{rows, static_cast<std::ptrdiff_t>(x - radius_x) * si, si}, x, y);
        }
      }
    }
  }

  // The frame, pixel by pixel: the window gathered into a packed buffer with the border applied.
  const bool constant_border = border.mode == VX_BORDER_CONSTANT;
  const T constant = border_constant<T>(border);
  vx_uint8 buffer[kMaxNeighbourhood * kMaxNeighbourhood * sizeof(T)];
  const vx_uint8* buffer_rows[kMaxNeighbourhood];
  for (vx_uint32 r = 0; r < window_h; ++r) buffer_rows[r] = buffer + static_cast<std::ptrdiff_t>(r) * window_w * size;
  const auto w = static_cast<std::ptrdiff_t>(width), h = static_cast<std::ptrdiff_t>(height);
  auto frame_pixel = [&](vx_uint32 x, vx_uint32 y) {
    for (vx_uint32 r = 0; r < window_h; ++r) {
      std::ptrdiff_t yy = static_cast<std::ptrdiff_t>(y) + static_cast<std::ptrdiff_t>(r) - static_cast<std::ptrdiff_t>(radius_y);
      const bool row_inside = yy >= 0 && yy < h;
      yy = std::clamp<std::ptrdiff_t>(yy, 0, h - 1);
      const vx_uint8* row = in.row(static_cast<vx_uint32>(yy));
      vx_uint8* to = buffer + static_cast<std::ptrdiff_t>(r) * window_w * size;
      for (vx_uint32 c = 0; c < window_w; ++c, to += size) {
        std::ptrdiff_t xx = static_cast<std::ptrdiff_t>(x) + static_cast<std::ptrdiff_t>(c) - static_cast<std::ptrdiff_t>(radius_x);
        const bool inside = row_inside && xx >= 0 && xx < w;
        if (!inside && constant_border) {
          store<T>(to, constant);
        } else {
          xx = std::clamp<std::ptrdiff_t>(xx, 0, w - 1);
          store<T>(to, load<T>(row + xx * si));
        }
      }
    }
    visit(Window<T, true>{buffer_rows, 0, size}, x, y);
  };
  for (vx_uint32 y = 0; y < height; ++y) {
    if (!interior || y < radius_y || y + radius_y >= height) {
      for (vx_uint32 x = 0; x < width; ++x) frame_pixel(x, y);
    } else {
      for (vx_uint32 x = 0; x < radius_x; ++x) frame_pixel(x, y);
      for (vx_uint32 x = width - radius_x; x < width; ++x) frame_pixel(x, y);
    }
  }
}

/// The output's valid region: the input's (@p in), less the window's reach on each side (@p reach_left to
/// the left, and so on) where the output pixels there would read outside it. With UNDEFINED that is every
/// side (the image's edge included: the spec leaves those values open); with CONSTANT and REPLICATE only
/// sides where the input's valid region stops short of the image's edge (the border mode defines what lies beyond the image, not
/// what lies in its invalid part). @p whole is the whole output image (the input's size). Too small to keep
/// any pixel: an empty rectangle inside the image. (NonLinearFilter's mask may reach further on one side.)
inline vx_rectangle_t neighbourhood_valid_rectangle(const vx_border_t& border, const vx_rectangle_t& whole, const vx_rectangle_t& in,
                                                    vx_uint32 reach_left, vx_uint32 reach_top, vx_uint32 reach_right,
                                                    vx_uint32 reach_bottom) noexcept {
  const bool undefined = border.mode == VX_BORDER_UNDEFINED;
  const vx_uint32 left = (undefined || in.start_x > whole.start_x) ? reach_left : 0;
  const vx_uint32 top = (undefined || in.start_y > whole.start_y) ? reach_top : 0;
  const vx_uint32 right = (undefined || in.end_x < whole.end_x) ? reach_right : 0;
  const vx_uint32 bottom = (undefined || in.end_y < whole.end_y) ? reach_bottom : 0;
  vx_rectangle_t r{in.start_x + left, in.start_y + top, in.end_x >= right ? in.end_x - right : 0, in.end_y >= bottom ? in.end_y - bottom : 0};
  r.end_x = std::max(r.end_x, r.start_x);
  r.end_y = std::max(r.end_y, r.start_y);
  r.start_x = std::min(r.start_x, whole.end_x);
  r.end_x = std::min(r.end_x, whole.end_x);
  r.start_y = std::min(r.start_y, whole.end_y);
  r.end_y = std::min(r.end_y, whole.end_y);
  return r;
}

/// The same for a centred window of radius @p radius_x x @p radius_y.
inline vx_rectangle_t neighbourhood_valid_rectangle(const vx_border_t& border, const vx_rectangle_t& whole, const vx_rectangle_t& in,
                                                    vx_uint32 radius_x, vx_uint32 radius_y) noexcept {
  return neighbourhood_valid_rectangle(border, whole, in, radius_x, radius_y, radius_x, radius_y);
}

/// A VX_VALID_RECT_CALLBACK for a neighbourhood kernel of fixed radius whose first input image is the one
/// it reads: every output image gets neighbourhood_valid_rectangle of it under the node's border. The
/// framework presets output_valid to the whole output image.
template <vx_uint32 RadiusX, vx_uint32 RadiusY>
vx_status VX_CALLBACK fixed_neighbourhood_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                          vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  *output_valid[0] = neighbourhood_valid_rectangle(border, *output_valid[0], *input_valid[0], RadiusX, RadiusY);
  return VX_SUCCESS;
}

/// validate's check of the node's border mode, logged when refused (VX_ERROR_NOT_SUPPORTED).
inline vx_status neighbourhood_border_parameter(vx_node node) noexcept {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) {
    return refuse(node, s, "its border mode cannot be read");
  }
  if (!neighbourhood_border_supported(border)) {
    return refuse(node, VX_ERROR_NOT_SUPPORTED, "border mode 0x%x is not supported (UNDEFINED, CONSTANT or REPLICATE)",
                  static_cast<unsigned>(border.mode));
  }
  return VX_SUCCESS;
}

/// The kernel function's read of the node's border mode: VX_ERROR_NOT_SUPPORTED for a mode these kernels
/// do not take.
inline vx_status neighbourhood_border(vx_node node, vx_border_t& border) noexcept {
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  return neighbourhood_border_supported(border) ? VX_SUCCESS : VX_ERROR_NOT_SUPPORTED;
}

}  // namespace vg::openvx
