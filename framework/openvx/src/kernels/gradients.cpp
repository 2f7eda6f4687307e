// The standard gradient kernels Sobel3x3, Magnitude and Phase, and Convolve: each a function and a validate
// (standard_kernel_support.hpp).
//
//   Sobel3x3   U8 in; output_x and output_y S16, each optional (at least one given). The specification's
//              operators, applied as printed (a correlation: the matrix's top left weighs the pixel above
//              left): Gx = [-1 0 +1; -2 0 +2; -1 0 +1], Gy = [-1 -2 -1; 0 0 0; +1 +2 +1] (x to the right, y
//              downwards). |result| <= 4 * 255, so no saturation arises.
//   Magnitude  S16 grad_x, grad_y in, S16 mag out: the specification's conceptual definition,
//              z = uint16(sqrt(double(uint32(x*x) + uint32(y*y))) + 0.5), mag = min(z, 32767). (The spec gives
//              S16 only; the Khronos sample implementation's U8 output, sqrt / 4, is not specified and is
//              refused here.)
//   Phase      S16 grad_x, grad_y in, U8 orientation out: the conformance reference's quantisation,
//              v = atan2(y, x) * 256 / (2 pi), plus 256 when negative, rounded half up, 256 wrapping to 0.
//   Convolve   U8 in, a convolution (N x M vx_int16 coefficients, odd sides 3..15, a power-of-two scale), U8
//              or S16 out (S16 unless a U8 image is given): sum = sum_{k,l} input(x + k0 - k, y + l0 - l) *
//              C(k, l) (the matrix applied flipped, a true convolution), output = sum / scale truncated
//              towards zero (C division, as the sample implementation has it), saturated to the output type.
// Sobel3x3 and Magnitude on packed pixels run the vision library's vectorised functions (kernels/vision).
// Sobel3x3 and Convolve take the node's border (neighbourhood.hpp: UNDEFINED, CONSTANT, REPLICATE; under
// UNDEFINED the frame is computed as REPLICATE would and the valid region shrinks by the radius).
#include <VX/vx.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "convolution.hpp"
#include "graph.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/convolve.hpp"
#include "visiongraph/kernels/vision/gradients.hpp"

namespace vg::openvx {
namespace {

/// An input image of format S16 (VX_ERROR_INVALID_FORMAT naming it otherwise).
vx_status s16_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept {
  if (const vx_status s = input_image(node, parameters, index, name, image); s != VX_SUCCESS) return s;
  if (image->format != VX_DF_IMAGE_S16) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only S16 is supported", name, format_name(image->format));
  }
  return VX_SUCCESS;
}

// --- Sobel3x3 -----------------------------------------------------------------------------------------

vx_status VX_CALLBACK sobel_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (parameters[1] == nullptr && parameters[2] == nullptr) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "neither output_x nor output_y is given: at least one is needed");
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  const vx_kernel_image_valid_rectangle_f callback = &fixed_neighbourhood_valid_rectangle<1, 1>;
  for (vx_uint32 i : {1u, 2u}) {
    if (parameters[i] == nullptr) continue;
    const char* name = i == 1 ? "output_x" : "output_y";
    if (const vx_status s = output_image(node, parameters, i, name, input->width, input->height, VX_DF_IMAGE_S16, metas[i]); s != VX_SUCCESS) {
      return s;
    }
    if (const vx_status s = vxSetMetaFormatAttribute(metas[i], VX_VALID_RECT_CALLBACK, &callback, sizeof callback); s != VX_SUCCESS) {
      return s;
    }
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK sobel_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  std::optional<MappedImage> gx, gy;  // in place: nothing allocated
  if (parameters[1] != nullptr) {
    gx.emplace(image_at(parameters, 1), VX_WRITE_ONLY);
    if (gx->status() != VX_SUCCESS) return gx->status();
    if (gx->width() != in.width() || gx->height() != in.height()) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (parameters[2] != nullptr) {
    gy.emplace(image_at(parameters, 2), VX_WRITE_ONLY);
    if (gy->status() != VX_SUCCESS) return gy->status();
    if (gy->width() != in.width() || gy->height() != in.height()) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!gx && !gy) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage* out_x = gx ? &*gx : nullptr;
  const MappedImage* out_y = gy ? &*gy : nullptr;
  vision::Pixels vx_out, vy_out;  // null data: not asked for
  if (packed(in, 1) && (!gx || vision_pixels(*gx, VX_DF_IMAGE_S16, vx_out)) && (!gy || vision_pixels(*gy, VX_DF_IMAGE_S16, vy_out))) {
    vision::sobel3x3(const_plane(in), vx_out, vy_out, vision_border(border));
    return VX_SUCCESS;
  }
  for_each_neighbourhood<vx_uint8>(in, 1, 1, border, [&](const auto& w, vx_uint32 x, vx_uint32 y) {
    const int p00 = w(0, 0), p01 = w(0, 1), p02 = w(0, 2), p10 = w(1, 0), p12 = w(1, 2), p20 = w(2, 0), p21 = w(2, 1), p22 = w(2, 2);
    if (out_x != nullptr) {
      const int v = (p02 - p00) + 2 * (p12 - p10) + (p22 - p20);
      store<vx_int16>(out_x->row(y) + static_cast<std::ptrdiff_t>(x) * out_x->stride_x(), static_cast<vx_int16>(v));
    }
    if (out_y != nullptr) {
      const int v = (p20 - p00) + 2 * (p21 - p01) + (p22 - p02);
      store<vx_int16>(out_y->row(y) + static_cast<std::ptrdiff_t>(x) * out_y->stride_x(), static_cast<vx_int16>(v));
    }
  });
  return VX_SUCCESS;
}

// --- Magnitude and Phase ----------------------------------------------------------------------------------

/// Two S16 gradients of one size in, an image of @p out_format and that size out.
vx_status gradient_pair_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[], const char* out_name,
                                 vx_df_image out_format) noexcept {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* grad_x = nullptr;
  const _vx_image* grad_y = nullptr;
  if (const vx_status s = s16_input(node, parameters, 0, "grad_x", grad_x); s != VX_SUCCESS) return s;
  if (const vx_status s = s16_input(node, parameters, 1, "grad_y", grad_y); s != VX_SUCCESS) return s;
  if (const vx_status s = same_size(node, grad_x, "grad_x", grad_y, "grad_y"); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 2, out_name, grad_x->width, grad_x->height, out_format, metas[2]);
}

vx_status VX_CALLBACK magnitude_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  return gradient_pair_validate(node, parameters, num, metas, "mag", VX_DF_IMAGE_S16);
}

vx_status VX_CALLBACK phase_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  return gradient_pair_validate(node, parameters, num, metas, "orientation", VX_DF_IMAGE_U8);
}

template <typename Out, typename Op>
vx_status gradient_pair(const vx_reference* parameters, vx_uint32 num, Op op) noexcept {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage gx(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage gy(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(gx, gy, out); s != VX_SUCCESS) return s;
  for_each_pixel<vx_int16, vx_int16, Out>(gx, gy, out, op);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK magnitude_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num == 3) {
    // Packed pixels: the vision library's vectorised form of the same definition.
    const MappedImage gx(image_at(parameters, 0), VX_READ_ONLY);
    const MappedImage gy(image_at(parameters, 1), VX_READ_ONLY);
    const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
    if (const vx_status s = mapped(gx, gy, out); s != VX_SUCCESS) return s;
    vision::Pixels a, b, o;
    if (vision_pixels(gx, VX_DF_IMAGE_S16, a) && vision_pixels(gy, VX_DF_IMAGE_S16, b) && vision_pixels(out, VX_DF_IMAGE_S16, o)) {
      vision::magnitude(a, b, o);
      return VX_SUCCESS;
    }
  }
  return gradient_pair<vx_int16>(parameters, num, [](vx_int16 x, vx_int16 y) {
    // Each square at most 2^30, their sum at most 2^31: exact in uint32 and in double.
    const std::uint32_t sum = static_cast<std::uint32_t>(std::int32_t{x} * x) + static_cast<std::uint32_t>(std::int32_t{y} * y);
    const auto z = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(sum)) + 0.5);  // at most 46341
    return static_cast<vx_int16>(z > 32767u ? 32767u : z);
  });
}

vx_status VX_CALLBACK phase_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num == 3) {
    // Packed pixels: the vision library's vectorised form, every byte the definition's.
    const MappedImage gx(image_at(parameters, 0), VX_READ_ONLY);
    const MappedImage gy(image_at(parameters, 1), VX_READ_ONLY);
    const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
    if (const vx_status s = mapped(gx, gy, out); s != VX_SUCCESS) return s;
    vision::Pixels a, b;
    if (vision_pixels(gx, VX_DF_IMAGE_S16, a) && vision_pixels(gy, VX_DF_IMAGE_S16, b) && packed(out, 1)) {
      vision::phase(a, b, plane(out));
      return VX_SUCCESS;
    }
  }
  return gradient_pair<vx_uint8>(parameters, num, [](vx_int16 x, vx_int16 y) {
    constexpr double kTwoPi = 6.283185307179586476925286766559;  // M_PI * 2
    double v = std::atan2(static_cast<double>(y), static_cast<double>(x)) * 256 / kTwoPi;
    if (v < 0) v += 256.0;
    int q = static_cast<int>(std::floor(v + 0.5));
    if (q >= 256) q -= 256;
    return static_cast<vx_uint8>(q);
  });
}

// --- Convolve -------------------------------------------------------------------------------------------

/// The convolution of a Convolve node (parameter 1), or null.
const _vx_convolution* convolution_of(vx_node node) noexcept {
  const _vx_node* n = as<_vx_node>(node);
  if (n == nullptr || n->arguments.size() < 2 || n->arguments[1] == nullptr || n->arguments[1]->type != VX_TYPE_CONVOLUTION) return nullptr;
  return static_cast<const _vx_convolution*>(n->arguments[1]);  // the node's argument: an object
}

/// The valid region under the node's border, shrunk by the convolution's half sizes.
vx_status VX_CALLBACK convolve_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                               vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const _vx_convolution* conv = convolution_of(node);
  if (conv == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  *output_valid[0] = neighbourhood_valid_rectangle(border, *output_valid[0], *input_valid[0], static_cast<vx_uint32>(conv->columns / 2),
                                                   static_cast<vx_uint32>(conv->rows / 2));
  return VX_SUCCESS;
}

vx_status VX_CALLBACK convolve_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_CONVOLUTION)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "conv is not a convolution");
  const auto* conv = as<_vx_convolution>(parameters[1]);
  if (conv->rows == 0 || conv->columns == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "conv is a virtual convolution no node before this one produces (no size)");
  }
  if (conv->rows > static_cast<vx_size>(kMaxNeighbourhood) || conv->columns > static_cast<vx_size>(kMaxNeighbourhood) ||
      conv->rows % 2 == 0 || conv->columns % 2 == 0) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "conv is %zu x %zu (columns x rows): odd sides up to %d are supported", conv->columns,
                  conv->rows, kMaxNeighbourhood);
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[2], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "output is not an image");
  // S16 unless the output was given as U8 (a virtual output of open format becomes S16).
  const vx_df_image declared = as<_vx_image>(parameters[2])->declared_format;
  if (declared != VX_DF_IMAGE_VIRT && !u8_or_s16(declared)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "output has format %s, only U8 or S16 is supported", format_name(declared));
  }
  const vx_df_image format = declared == VX_DF_IMAGE_U8 ? VX_DF_IMAGE_U8 : VX_DF_IMAGE_S16;
  if (const vx_status s = output_image(node, parameters, 2, "output", input->width, input->height, format, metas[2]); s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &convolve_valid_rectangle;
  return vxSetMetaFormatAttribute(metas[2], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

/// sum / 2^shift, truncated towards zero (C division by the scale).
inline std::int64_t divide(std::int32_t sum, unsigned shift) noexcept {
  const std::int64_t s = sum;
  const std::int64_t bias = s < 0 ? (std::int64_t{1} << shift) - 1 : 0;
  return (s + bias) >> shift;
}

template <typename Out>
void convolve_image(const MappedImage& in, const MappedImage& out, const vx_border_t& border, const vx_int16* flipped, int columns, int rows,
                    unsigned shift) noexcept {
  const std::ptrdiff_t so = out.stride_x();
  // Packed images: the vision library's vectorised function, frame included; the per-pixel walk below for
  // a strided patch of an image from a handle.
  if (in.stride_x() == 1 && so == static_cast<std::ptrdiff_t>(sizeof(Out))) {
    const vision::Pixels o{out.row(0), out.width(), out.height(), out.addressing().stride_y,
                           sizeof(Out) == 1 ? vision::PixelType::u8 : vision::PixelType::s16};
    if (vision::convolve(const_plane(in), o, flipped, columns, rows, shift, vision_border(border))) return;
  }
  for_each_neighbourhood<vx_uint8>(in, static_cast<vx_uint32>(columns / 2), static_cast<vx_uint32>(rows / 2), border,
                                   [&](const auto& w, vx_uint32 x, vx_uint32 y) {
                                     // At most 225 * 255 * 32768 in magnitude: exact in 32 bits.
                                     std::int32_t sum = 0;
                                     const vx_int16* c = flipped;
                                     for (int r = 0; r < rows; ++r) {
                                       for (int k = 0; k < columns; ++k) sum += std::int32_t{w(r, k)} * *c++;
                                     }
                                     std::int64_t v = divide(sum, shift);
                                     if constexpr (sizeof(Out) == 1) {
                                       v = v < 0 ? 0 : v > 255 ? 255 : v;
                                     } else {
                                       v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
                                     }
                                     store<Out>(out.row(y) + static_cast<std::ptrdiff_t>(x) * so, static_cast<Out>(v));
                                   });
}

vx_status VX_CALLBACK convolve_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  auto conv = reinterpret_cast<vx_convolution>(parameters[1]);
  vx_size columns = 0, rows = 0;
  vx_uint32 scale = 0;
  vx_status s = vxQueryConvolution(conv, VX_CONVOLUTION_COLUMNS, &columns, sizeof columns);
  if (s == VX_SUCCESS) s = vxQueryConvolution(conv, VX_CONVOLUTION_ROWS, &rows, sizeof rows);
  if (s == VX_SUCCESS) s = vxQueryConvolution(conv, VX_CONVOLUTION_SCALE, &scale, sizeof scale);
  if (s != VX_SUCCESS) return s;
  if (columns == 0 || rows == 0 || columns > static_cast<vx_size>(kMaxNeighbourhood) || rows > static_cast<vx_size>(kMaxNeighbourhood) ||
      columns % 2 == 0 || rows % 2 == 0 || scale == 0 || (scale & (scale - 1)) != 0) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_int16 coefficients[kMaxNeighbourhood * kMaxNeighbourhood];
  if (s = vxCopyConvolutionCoefficients(conv, coefficients, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  // The matrix flipped both ways: the window's pixel (r, k) meets coefficient (rows-1-r, columns-1-k).
  const std::size_t n = columns * rows;
  vx_int16 flipped[kMaxNeighbourhood * kMaxNeighbourhood];
  for (std::size_t i = 0; i < n; ++i) flipped[i] = coefficients[n - 1 - i];
  unsigned shift = 0;
  while ((vx_uint32{1} << shift) != scale) ++shift;

  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (s = mapped(in, out); s != VX_SUCCESS) return s;
  if (in.width() != out.width() || in.height() != out.height()) return VX_ERROR_INVALID_PARAMETERS;
  vx_df_image format = VX_DF_IMAGE_VIRT;
  if (s = vxQueryImage(image_at(parameters, 2), VX_IMAGE_FORMAT, &format, sizeof format); s != VX_SUCCESS) return s;
  if (format == VX_DF_IMAGE_U8) {
    convolve_image<vx_uint8>(in, out, border, flipped, static_cast<int>(columns), static_cast<int>(rows), shift);
  } else if (format == VX_DF_IMAGE_S16) {
    convolve_image<vx_int16>(in, out, border, flipped, static_cast<int>(columns), static_cast<int>(rows), shift);
  } else {
    return VX_ERROR_INVALID_FORMAT;
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kGradientKernels[] = {
    {VX_KERNEL_SOBEL_3x3, &sobel_function, &sobel_validate},
    {VX_KERNEL_MAGNITUDE, &magnitude_function, &magnitude_validate},
    {VX_KERNEL_PHASE, &phase_function, &phase_validate},
    {VX_KERNEL_CUSTOM_CONVOLUTION, &convolve_function, &convolve_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> gradient_kernels() noexcept { return kGradientKernels; }

}  // namespace vg::openvx
