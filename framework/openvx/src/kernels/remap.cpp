// The standard kernel Remap: a function and a validate (standard_kernel_support.hpp).
//
// A U8 input of the remap's source size, a U8 output of its destination size (the OpenVX 1.3 formats);
// output(x, y) = input(map_x(x, y), map_y(x, y)) with the table's float source coordinate, pixel centres at
// integer coordinates. The policy (a VX_TYPE_ENUM scalar) is
//   VX_INTERPOLATION_NEAREST_NEIGHBOR  the pixel at (floor(x + 0.5), floor(y + 0.5)),
//   VX_INTERPOLATION_BILINEAR          the four pixels around (x0, y0) = (floor(x), floor(y)) weighted by
//                                      s = x - x0, t = y - y0, rounded to the nearest integer;
// VX_INTERPOLATION_AREA is refused (the specification excludes it for Remap).
// Pixels read outside the input come from the node's VX_NODE_BORDER: CONSTANT reads constant_value.U8,
// REPLICATE the nearest edge pixel. UNDEFINED (the default) leaves them open; this library reads them as
// REPLICATE does. (The specification lists UNDEFINED and CONSTANT; REPLICATE is well defined too, and the
// Khronos conformance checker accepts it.) A coordinate that is not finite reads as one outside the image.
//
// The table is read in place and nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "kernels/neighbourhood.hpp"
#include "remap.hpp"
#include "kernels/standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

/// The source image as the remap reads it: pixels inside, the border outside.
struct Source {
  const MappedImage& image;
  float width, height;  // as floats, for range checks before any conversion to an integer
  bool constant;        // CONSTANT border (otherwise the nearest edge pixel)
  vx_uint8 constant_value;

  /// @p v (a whole number, or not finite) as an index in [0, n - 1].
  static vx_uint32 clamp_index(float v, float n) noexcept {
    if (!(v >= 0.0f)) return 0;  // below the image, or NaN
    if (v >= n) return static_cast<vx_uint32>(n) - 1;
    return static_cast<vx_uint32>(v);
  }
  bool inside(float x, float y) const noexcept { return x >= 0.0f && x < width && y >= 0.0f && y < height; }
  vx_uint8 at(vx_uint32 x, vx_uint32 y) const noexcept { return image.row(y)[static_cast<std::ptrdiff_t>(x) * image.stride_x()]; }
  /// The pixel at the whole-numbered (@p x, @p y), possibly outside the image.
  vx_uint8 pixel(float x, float y) const noexcept {
    if (inside(x, y)) return at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
    if (constant) return constant_value;
    return at(clamp_index(x, width), clamp_index(y, height));
  }
};

/// Coordinates that are not finite are moved outside the image (to -2), where the border decides.
inline float finite_or_outside(float v) noexcept { return std::isfinite(v) ? v : -2.0f; }

vx_uint8 nearest(const Source& src, float x, float y) noexcept {
  return src.pixel(std::floor(finite_or_outside(x) + 0.5f), std::floor(finite_or_outside(y) + 0.5f));
}

vx_uint8 bilinear(const Source& src, float x, float y) noexcept {
  x = finite_or_outside(x);
  y = finite_or_outside(y);
  const float x0 = std::floor(x), y0 = std::floor(y);
  const float s = x - x0, t = y - y0;
  vx_uint8 p00, p10, p01, p11;
  if (x0 >= 0.0f && x0 + 1.0f < src.width && y0 >= 0.0f && y0 + 1.0f < src.height) {
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
  const float v = (1.0f - s) * (1.0f - t) * p00 + s * (1.0f - t) * p10 + (1.0f - s) * t * p01 + s * t * p11;
  return static_cast<vx_uint8>(std::min(v + 0.5f, 255.0f));  // v >= 0: the weights are non-negative
}

/// Every output pixel from its table entry (rows of out.width() vx_coordinates2df_t at @p entries); the
/// interpolation is chosen once, outside the loop.
template <bool Bilinear>
void remap_image(const Source& src, const vx_uint8* entries, const MappedImage& out) noexcept {
  const std::ptrdiff_t so = out.stride_x();
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* row = entries + static_cast<std::size_t>(y) * width * sizeof(vx_coordinates2df_t);
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < width; ++x) {
      vx_coordinates2df_t c;
      std::memcpy(&c, row + static_cast<std::size_t>(x) * sizeof c, sizeof c);  // the table's rows need not be aligned for floats
      o[static_cast<std::ptrdiff_t>(x) * so] = Bilinear ? bilinear(src, c.x, c.y) : nearest(src, c.x, c.y);
    }
  }
}

vx_status VX_CALLBACK remap_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &policy, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (policy != VX_INTERPOLATION_NEAREST_NEIGHBOR && policy != VX_INTERPOLATION_BILINEAR) return VX_ERROR_INVALID_VALUE;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  if (!valid(parameters[1], VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  const auto* table = static_cast<const _vx_remap*>(parameters[1]);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  // validate allows no other sizes; the check keeps a table read within its rows.
  if (in.width() != table->source_width || in.height() != table->source_height || out.width() != table->destination_width ||
      out.height() != table->destination_height || !table->table.allocated()) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const Source src{in, static_cast<float>(in.width()), static_cast<float>(in.height()), border.mode == VX_BORDER_CONSTANT,
                   border.constant_value.U8};
  if (policy == VX_INTERPOLATION_BILINEAR) {
    remap_image<true>(src, table->table.data(), out);
  } else {
    remap_image<false>(src, table->table.data(), out);
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK remap_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid(parameters[1], VX_TYPE_REMAP)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "table is not a remap");
  const auto* table = static_cast<const _vx_remap*>(parameters[1]);
  if (table->source_width != input->width || table->source_height != input->height) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "table maps from %ux%u but input is %ux%u", table->source_width,
                  table->source_height, input->width, input->height);
  }
  vx_enum policy = 0;
  if (const vx_status s = enum_parameter(node, parameters, 2, "policy", {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}, policy);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 3, "output", table->destination_width, table->destination_height, VX_DF_IMAGE_U8, metas[3]);
}

constexpr StandardKernelFunctions kRemapKernels[] = {
    {VX_KERNEL_REMAP, &remap_function, &remap_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> remap_kernels() noexcept { return kRemapKernels; }

}  // namespace vg::openvx
