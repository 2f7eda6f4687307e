#pragma once
// Reading a U8 or U1 image at any (x, y), the node's border outside it, and the two interpolations of
// OpenVX's geometric kernels (Remap, WarpAffine, WarpPerspective, ScaleImage): pixel centres at integer
// coordinates;
//   NEAREST_NEIGHBOR  the pixel at (floor(x + 0.5), floor(y + 0.5)),
//   BILINEAR          the four pixels around (x0, y0) = (floor(x), floor(y)) weighted by s = x - x0,
//                     t = y - y0, rounded to the nearest integer (U1: 0 or 1).
// Outside the image: CONSTANT reads constant_value (U8, or U1 as 0/1); REPLICATE and UNDEFINED read the
// nearest edge pixel (UNDEFINED leaves them open; the nearest edge is one valid choice). A coordinate that
// is not finite reads as one outside the image.
//
// Written over any image type with width(), height(), stride_x() and row(y) (MappedImage in the kernels),
// so that tests can run this per-pixel definition against the vectorised functions that replace it for
// packed U8 images (kernels/vision/warp.hpp).
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "visiongraph/kernels/vision/scale_definition.hpp"

namespace vg::openvx {

class MappedImage;

/// A U8 or U1 image as the geometric kernels read it: pixels inside, the border outside.
/// Reads stay within @p valid (the whole image unless given): a pixel outside it is a border pixel.
template <typename Image>
struct BasicSampledImage {
  BasicSampledImage(const Image& image, bool u1, const vx_border_t& border) noexcept
      : BasicSampledImage(image, u1, border, vx_rectangle_t{0, 0, image.width(), image.height()}) {}
  BasicSampledImage(const Image& image, bool u1, const vx_border_t& border, const vx_rectangle_t& valid) noexcept
      : image(image),
        x_begin(static_cast<float>(valid.start_x)),
        y_begin(static_cast<float>(valid.start_y)),
        width(static_cast<float>(std::min(valid.end_x, image.width()))),
        height(static_cast<float>(std::min(valid.end_y, image.height()))),
        u1(u1),
        constant(border.mode == VX_BORDER_CONSTANT),
        constant_value(u1 ? (border.constant_value.U1 ? 1 : 0) : border.constant_value.U8) {}

  const Image& image;
  float x_begin, y_begin;  // the valid rectangle: [x_begin, width) x [y_begin, height)
  float width, height;     // as floats, for range checks before any conversion to an integer
  bool u1;
  bool constant;
  vx_uint8 constant_value;

  /// @p v (a whole number, or not finite) as an index in [begin, end - 1].
  static vx_uint32 clamp_index(float v, float begin, float end) noexcept {
    if (!(v >= begin)) return static_cast<vx_uint32>(begin);  // below the image, or NaN
    if (v >= end) return static_cast<vx_uint32>(end) - 1;
    return static_cast<vx_uint32>(v);
  }
  bool inside(float x, float y) const noexcept { return x >= x_begin && x < width && y >= y_begin && y < height; }
  vx_uint8 at(vx_uint32 x, vx_uint32 y) const noexcept {
    const vx_uint8* row = image.row(y);
    if (u1) return static_cast<vx_uint8>((row[x / 8] >> (x % 8)) & 1u);
    return row[static_cast<std::ptrdiff_t>(x) * image.stride_x()];
  }
  /// The pixel at the whole-numbered (@p x, @p y), possibly outside the image.
  vx_uint8 pixel(float x, float y) const noexcept {
    if (inside(x, y)) return at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
    if (constant) return constant_value;
    return at(clamp_index(x, x_begin, width), clamp_index(y, y_begin, height));
  }
};

using SampledImage = BasicSampledImage<MappedImage>;

/// Coordinates that are not finite are moved outside the image (to -2), where the border decides.
inline float finite_or_outside(float v) noexcept { return std::isfinite(v) ? v : -2.0f; }

template <typename Image>
vx_uint8 sample_nearest(const BasicSampledImage<Image>& src, float x, float y) noexcept {
  return src.pixel(std::floor(finite_or_outside(x) + 0.5f), std::floor(finite_or_outside(y) + 0.5f));
}

/// The bilinear blend of four pixels at fractions @p s (x) and @p t (y), rounded, as a U8 (or U1: 0/1) value:
/// the vision library's one expression (scale_definition.hpp), so that every caller computes it identically.
inline vx_uint8 bilinear_value(float s, float t, vx_uint8 p00, vx_uint8 p10, vx_uint8 p01, vx_uint8 p11, bool u1) noexcept {
  return vision::bilinear_blend(s, t, p00, p10, p01, p11, u1 ? 1.0f : 255.0f);
}

template <typename Image>
vx_uint8 sample_bilinear(const BasicSampledImage<Image>& src, float x, float y) noexcept {
  x = finite_or_outside(x);
  y = finite_or_outside(y);
  const float x0 = std::floor(x), y0 = std::floor(y);
  const float s = x - x0, t = y - y0;
  vx_uint8 p00, p10, p01, p11;
  if (x0 >= src.x_begin && x0 + 1.0f < src.width && y0 >= src.y_begin && y0 + 1.0f < src.height) {
    // All four inside: no border checks.
    const auto xi = static_cast<vx_uint32>(x0), yi = static_cast<vx_uint32>(y0);
    p00 = src.at(xi, yi);
    p10 = src.at(xi + 1, yi);
    p01 = src.at(xi, yi + 1);
    p11 = src.at(xi + 1, yi + 1);
  } else {
    p00 = src.pixel(x0, y0);
    p10 = src.pixel(x0 + 1.0f, y0);
    p01 = src.pixel(x0, y0 + 1.0f);
    p11 = src.pixel(x0 + 1.0f, y0 + 1.0f);
  }
  return bilinear_value(s, t, p00, p10, p01, p11, src.u1);
}

/// Writes U8 or U1 pixels of one output row.
struct RowWriter {
  vx_uint8* row;
  std::ptrdiff_t stride_x;
  bool u1;
  void put(vx_uint32 x, vx_uint8 v) const noexcept {
    if (!u1) {
      row[static_cast<std::ptrdiff_t>(x) * stride_x] = v;
      return;
    }
    const auto bit = static_cast<vx_uint8>(1u << (x % 8));
    row[x / 8] = static_cast<vx_uint8>(v ? (row[x / 8] | bit) : (row[x / 8] & ~bit));
  }
};

/// out(x, y) = interpolation of @p src at coordinate(x, y) -> (sx, sy), for every output pixel; the
/// interpolation is chosen once, outside the loop.
template <typename Image, typename OutImage, typename Coordinate>
void sample_image(const BasicSampledImage<Image>& src, bool bilinear, const OutImage& out, bool u1, Coordinate coordinate) noexcept {
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const RowWriter o{out.row(y), out.stride_x(), u1};
    for (vx_uint32 x = 0; x < out.width(); ++x) {
      float sx = 0.0f, sy = 0.0f;
      coordinate(x, y, sx, sy);
      o.put(x, bilinear ? sample_bilinear(src, sx, sy) : sample_nearest(src, sx, sy));
    }
  }
}

/// WarpAffine's coordinate: (M[0][0] x + M[1][0] y + M[2][0], M[0][1] x + M[1][1] y + M[2][1]) for the
/// 2-column, 3-row matrix @p m (row-major), in double as the conformance suite's reference computes it.
inline auto affine_coordinate(const vx_float32* m) noexcept {
  return [m](vx_uint32 x, vx_uint32 y, float& sx, float& sy) {
    const auto at = [m](int r, int c) { return static_cast<double>(m[r * 2 + c]); };
    sx = static_cast<float>(at(0, 0) * x + at(1, 0) * y + at(2, 0));
    sy = static_cast<float>(at(0, 1) * x + at(1, 1) * y + at(2, 1));
  };
}

/// WarpPerspective's coordinate: (x' / z', y' / z') from the columns of the 3x3 matrix @p m (row-major).
inline auto perspective_coordinate(const vx_float32* m) noexcept {
  return [m](vx_uint32 x, vx_uint32 y, float& sx, float& sy) {
    const auto at = [m](int r, int c) { return static_cast<double>(m[r * 3 + c]); };
    const double z = at(0, 2) * x + at(1, 2) * y + at(2, 2);
    sx = static_cast<float>((at(0, 0) * x + at(1, 0) * y + at(2, 0)) / z);  // z = 0: not finite, outside
    sy = static_cast<float>((at(0, 1) * x + at(1, 1) * y + at(2, 1)) / z);
  };
}

/// Remap's coordinate: the table's pair for (x, y), rows of @p width entries (not aligned for floats).
inline auto table_coordinate(const vx_uint8* entries, std::size_t width) noexcept {
  return [entries, width](vx_uint32 x, vx_uint32 y, float& sx, float& sy) {
    vx_coordinates2df_t c;
    std::memcpy(&c, entries + (static_cast<std::size_t>(y) * width + x) * sizeof c, sizeof c);
    sx = c.x;
    sy = c.y;
  };
}

}  // namespace vg::openvx
