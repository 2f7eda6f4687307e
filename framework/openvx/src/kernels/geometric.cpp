// The standard geometric kernels WarpAffine, WarpPerspective and ScaleImage: a function and a validate each
// (standard_kernel_support.hpp). U8 or U1 in, the same format out, the output's own size; pixels sampled as
// sampling.hpp defines (pixel centres at integer coordinates, the node's border outside the input).
//
// WarpAffine: the input at (x0, y0) = (M[0][0] x + M[1][0] y + M[2][0], M[0][1] x + M[1][1] y + M[2][1]),
// M a 2-column, 3-row VX_TYPE_FLOAT32 matrix (M[r][c] its element at row r, column c, row-major).
// WarpPerspective: (x0, y0) = (x' / z', y' / z') with x' = M[0][0] x + M[1][0] y + M[2][0] and y', z' from
// columns 1 and 2 of a 3x3 matrix. Both take NEAREST_NEIGHBOR or BILINEAR.
// ScaleImage: the input at x_src = (x + 0.5) * w_in / w_out - 0.5 (y likewise), in single precision as the
// conformance suite's reference computes it; NEAREST_NEIGHBOR rounds halves up, BILINEAR as sampling.hpp,
// AREA averages the input pixels the output pixel covers, each weighted by the part it covers (U1: 1 when
// at least half is set).
//
// Packed U8 warps run the vision library's vectorised functions (kernels/vision/warp.hpp), which compute
// the same bytes as sampling.hpp's per-pixel loop; U1 and strided images take the loop.
//
// Nothing is allocated per frame: the matrix is read onto the stack.
#include <VX/vx.h>

#include <cmath>
#include <cstddef>

#include "kernels/neighbourhood.hpp"
#include "visiongraph/kernels/vision/downscale.hpp"
#include "visiongraph/kernels/vision/scale.hpp"
#include "kernels/sampling.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "matrix.hpp"

namespace vg::openvx {
namespace {

/// An input image of a geometric kernel: U8 or U1.
vx_status u8_or_u1_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const _vx_image*& input) noexcept {
  if (const vx_status s = input_image(node, parameters, index, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8 && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or U1", format_name(input->format));
  }
  return VX_SUCCESS;
}

/// The output of a geometric kernel: the input's format, a size of its own (which sets the transform's range).
vx_status sized_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const _vx_image* input,
                       vx_meta_format meta) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "output is not an image");
  const _vx_image* out = as<_vx_image>(parameters[index]);
  if (out->declared_width == 0 || out->declared_height == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "output has no size: this kernel's output size must be given");
  }
  return output_image(node, parameters, index, "output", out->declared_width, out->declared_height, input->format, meta);
}

/// The warp matrix: VX_TYPE_FLOAT32, 2 columns x 3 rows (affine) or 3 x 3 (perspective).
vx_status warp_matrix(vx_node node, const vx_reference parameters[], vx_uint32 index, vx_size columns) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_MATRIX)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "matrix is not a matrix");
  const auto* m = as<_vx_matrix>(parameters[index]);
  if (m->data_type != VX_TYPE_FLOAT32 || m->columns != columns || m->rows != 3) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "matrix must be FLOAT32 with %zu columns and 3 rows, got type 0x%x, %zux%zu",
                  static_cast<std::size_t>(columns), static_cast<unsigned>(m->data_type), static_cast<std::size_t>(m->columns),
                  static_cast<std::size_t>(m->rows));
  }
  return VX_SUCCESS;
}

template <vx_size Columns>
vx_status VX_CALLBACK warp_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_or_u1_input(node, parameters, 0, input); s != VX_SUCCESS) return s;
  if (const vx_status s = warp_matrix(node, parameters, 1, Columns); s != VX_SUCCESS) return s;
  vx_enum type = 0;
  if (const vx_status s = enum_parameter(node, parameters, 2, "type", {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}, type);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  return sized_output(node, parameters, 3, input, metas[3]);
}

/// The interpolation scalar at @p index, one of @p allowed (read per frame: a virtual scalar may change).
vx_status interpolation(const vx_reference* parameters, vx_uint32 index, bool area_allowed, vx_enum& type) noexcept {
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[index]), &type, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  const bool ok = type == VX_INTERPOLATION_NEAREST_NEIGHBOR || type == VX_INTERPOLATION_BILINEAR ||
                  (area_allowed && type == VX_INTERPOLATION_AREA);
  return ok ? VX_SUCCESS : VX_ERROR_INVALID_VALUE;
}

template <vx_size Columns>
vx_status VX_CALLBACK warp_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum type = 0;
  if (const vx_status s = interpolation(parameters, 2, false, type); s != VX_SUCCESS) return s;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_MATRIX)) return VX_ERROR_INVALID_REFERENCE;
  const auto* matrix = as<_vx_matrix>(parameters[1]);
  if (matrix->data_type != VX_TYPE_FLOAT32 || matrix->columns != Columns || matrix->rows != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 m[9] = {};
  if (const vx_status s = vxCopyMatrix(reinterpret_cast<vx_matrix>(parameters[1]), m, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const bool u1 = as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_U1;
  // Pixels outside the input's valid region read as border pixels (the conformance suite checks this).
  vx_rectangle_t valid_rect{0, 0, in.width(), in.height()};
  if (const vx_status s = vxGetValidRegionImage(image_at(parameters, 0), &valid_rect); s != VX_SUCCESS) return s;
  if (valid_rect.end_x <= valid_rect.start_x || valid_rect.end_y <= valid_rect.start_y || valid_rect.end_x > in.width() ||
      valid_rect.end_y > in.height()) {
    valid_rect = vx_rectangle_t{0, 0, in.width(), in.height()};  // nothing valid, or not within: the whole image
  }
  const bool bilinear = type == VX_INTERPOLATION_BILINEAR;
  // Packed U8 images: the vision library's vectorised warps, byte for byte the loop below.
  if (!u1 && packed(in, 1) && packed(out, 1)) {
    const vision::SampleSource source = sample_source(in, border, valid_rect);
    const vision::Interpolation interpolation = bilinear ? vision::Interpolation::bilinear : vision::Interpolation::nearest;
    if constexpr (Columns == 2) {
      if (vision::warp_affine(source, m, interpolation, plane(out))) return VX_SUCCESS;
    } else {
      if (vision::warp_perspective(source, m, interpolation, plane(out))) return VX_SUCCESS;
    }
  }
  const SampledImage src(in, u1, border, valid_rect);
  if constexpr (Columns == 2) {
    sample_image(src, bilinear, out, u1, affine_coordinate(m));
  } else {
    sample_image(src, bilinear, out, u1, perspective_coordinate(m));
  }
  return VX_SUCCESS;
}

// --- ScaleImage -----------------------------------------------------------------------------------------

vx_status VX_CALLBACK scale_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_or_u1_input(node, parameters, 0, input); s != VX_SUCCESS) return s;
  vx_enum type = 0;
  if (const vx_status s = enum_parameter(node, parameters, 2, "type",
                                         {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR, VX_INTERPOLATION_AREA}, type);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  return sized_output(node, parameters, 1, input, metas[1]);
}

/// The input pixels output pixel (x, y) covers, each weighted by the part it covers, averaged
/// (vision/scale_definition.hpp: the vision library's scale_image computes the same).
vx_uint8 area_average(const SampledImage& src, double fx, double fy, vx_uint32 x, vx_uint32 y) noexcept {
  return vision::area_value([&src](float px, float py) { return src.pixel(px, py); }, fx, fy, x, y, src.u1 ? 1.0 : 255.0);
}

/// ScaleImage on packed U8 images, every byte as the per-pixel code below computes it: exactly 2:1 by the
/// vision library's downscale_2x (its sampling positions fall on pixel pairs: the rounded 2x2 mean for
/// BILINEAR and AREA, the lower-right pixel for NEAREST_NEIGHBOR), other ratios by its scale_image (the same
/// definition, vectorised; the node's border, UNDEFINED read as REPLICATE as here). False: not handled here.
bool scale_packed_u8(const SampledImage& src, const MappedImage& in, const MappedImage& out, vx_enum type) noexcept {
  if (src.u1 || in.stride_x() != 1 || out.stride_x() != 1) return false;
  const vx_uint32 wi = in.width(), hi = in.height(), wo = out.width(), ho = out.height();
  // Below 4096 the single-precision source position (x + 0.5) * w_in / w_out - 0.5 is exact (the product
  // stays under 2^24), so it is 2x + 0.5 and the fractions are exactly one half.
  if (wi == 2 * wo && hi == 2 * ho && wi < 4096 && hi < 4096) {
    vision::downscale_2x({in.row(0), wi, hi, in.addressing().stride_y}, {out.row(0), wo, ho, out.addressing().stride_y},
                         type != VX_INTERPOLATION_NEAREST_NEIGHBOR);
    return true;
  }
  const vision::Border border{src.constant ? vision::BorderMode::constant : vision::BorderMode::replicate, src.constant_value};
  const vision::ScaleInterpolation interpolation = type == VX_INTERPOLATION_BILINEAR ? vision::ScaleInterpolation::bilinear
                                                   : type == VX_INTERPOLATION_AREA   ? vision::ScaleInterpolation::area
                                                                                     : vision::ScaleInterpolation::nearest;
  vision::scale_image({in.row(0), wi, hi, in.addressing().stride_y}, {out.row(0), wo, ho, out.addressing().stride_y}, interpolation, border);
  return true;
}

vx_status VX_CALLBACK scale_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum type = 0;
  if (const vx_status s = interpolation(parameters, 2, true, type); s != VX_SUCCESS) return s;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const bool u1 = as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_U1;
  const SampledImage src(in, u1, border);
  const auto w_in = static_cast<vx_float32>(in.width()), h_in = static_cast<vx_float32>(in.height());
  const auto w_out = static_cast<vx_float32>(out.width()), h_out = static_cast<vx_float32>(out.height());
  // The reference's single-precision source coordinate.
  auto source = [&](vx_uint32 x, vx_uint32 y, float& sx, float& sy) {
    sx = vision::scale_source_coordinate(x, w_in, w_out);
    sy = vision::scale_source_coordinate(y, h_in, h_out);
  };
  if (scale_packed_u8(src, in, out, type)) return VX_SUCCESS;
  if (type == VX_INTERPOLATION_BILINEAR) {
    sample_image(src, true, out, u1, source);
    return VX_SUCCESS;
  }
  const double fx = static_cast<double>(in.width()) / out.width(), fy = static_cast<double>(in.height()) / out.height();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const RowWriter o{out.row(y), out.stride_x(), u1};
    for (vx_uint32 x = 0; x < out.width(); ++x) {
      if (type == VX_INTERPOLATION_AREA) {
        o.put(x, area_average(src, fx, fy, x, y));
        continue;
      }
      float sx = 0.0f, sy = 0.0f;
      source(x, y, sx, sy);
      o.put(x, src.pixel(vision::nearest_half_up(sx), vision::nearest_half_up(sy)));
    }
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kGeometricKernels[] = {
    {VX_KERNEL_SCALE_IMAGE, &scale_function, &scale_validate},
    {VX_KERNEL_WARP_AFFINE, &warp_function<2>, &warp_validate<2>},
    {VX_KERNEL_WARP_PERSPECTIVE, &warp_function<3>, &warp_validate<3>},
};

}  // namespace

std::span<const StandardKernelFunctions> geometric_kernels() noexcept { return kGeometricKernels; }

}  // namespace vg::openvx
