// The enhanced-vision kernel NonMaxSuppression: a function and a validate (standard_kernel_support.hpp).
//
// A U8 or S16 input, an optional U8 or U1 mask, an odd win_size, an output of the input's size and format.
// A pixel whose mask is non-zero is copied. Otherwise it is kept when, among the window's pixels whose mask
// is zero, it is at least every one before it in raster order (the rows above, and the same row to the left)
// and greater than every one after it, so of a plateau exactly one pixel stays; else it becomes the
// format's lowest value (0 for U8, INT16_MIN for S16), as the conformance suite's reference makes it.
// Pixels closer than win_size / 2 to an edge of the input are not computed (left as they were), as the
// conformance suite's reference leaves them. The vision library computes it (non_max_suppression.hpp),
// vectorised for packed images with no mask or a U8 one; a U1 mask or pixels that are not packed take its
// per-pixel definition here.
//
// Nothing is allocated per frame.
#include <VX/vx.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "image.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/non_max_suppression.hpp"

namespace vg::openvx {
namespace {

/// win_size from the node's scalar (validate reads it when it can; the function reads it every frame).
vx_status window_size(const vx_reference* parameters, vx_int32& size) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

vx_status VX_CALLBACK non_max_suppression_validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                                   vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or S16", format_name(input->format));
  }
  if (parameters[1] != nullptr) {
    const _vx_image* mask = nullptr;
    if (const vx_status s = input_image(node, parameters, 1, "mask", mask); s != VX_SUCCESS) return s;
    if (mask->format != VX_DF_IMAGE_U8 && mask->format != VX_DF_IMAGE_U1) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "mask has format %s, it must be U8 or U1", format_name(mask->format));
    }
    if (mask->width != input->width || mask->height != input->height) {
      return refuse(node, VX_ERROR_INVALID_PARAMETERS, "mask is %ux%u but the input is %ux%u", mask->width, mask->height,
                    input->width, input->height);
    }
  }
  vx_int32 size = 0;
  bool known = false;
  if (const vx_status s = scalar_input(node, parameters, 2, "win_size", VX_TYPE_INT32, "VX_TYPE_INT32", size, known); s != VX_SUCCESS) {
    return s;
  }
  if (known && (size < 1 || size % 2 == 0 || static_cast<vx_uint32>(size) > std::min(input->width, input->height))) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "win_size is %d: it must be odd, at least 1 and at most the input's smaller side",
                  size);
  }
  return output_image(node, parameters, 3, "output", input->width, input->height, input->format, metas[3]);
}

/// Images whose pixels are not packed, or a U1 mask: the vision library's per-pixel definition.
template <typename T>
void suppress_per_pixel(const MappedImage& in, const MappedImage* mask, bool mask_u1, const MappedImage& out, int radius) noexcept {
  const std::ptrdiff_t step = in.stride_x(), out_step = out.stride_x();
  auto masked = [&](int x, int y) {
    if (mask == nullptr) return false;
    const vx_uint8* row = mask->row(static_cast<vx_uint32>(y));
    return mask_u1 ? ((row[x / 8] >> (x % 8)) & 1u) != 0 : row[static_cast<std::ptrdiff_t>(x) * mask->stride_x()] != 0;
  };
  auto at = [&](int x, int y) { return load<T>(in.row(static_cast<vx_uint32>(y)) + static_cast<std::ptrdiff_t>(x) * step); };
  const auto w = static_cast<int>(in.width()), h = static_cast<int>(in.height());
  for (int y = radius; y < h - radius; ++y) {
    vx_uint8* o = out.row(static_cast<vx_uint32>(y));
    for (int x = radius; x < w - radius; ++x) {
      const bool keep = vision::suppression_keeps<T>(at, masked, x, y, radius);
      store<T>(o + static_cast<std::ptrdiff_t>(x) * out_step, keep ? at(x, y) : std::numeric_limits<T>::min());
    }
  }
}

vx_status VX_CALLBACK non_max_suppression_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_int32 size = 0;
  if (const vx_status s = window_size(parameters, size); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (size < 1 || size % 2 == 0 || static_cast<vx_uint32>(size) > std::min(in.width(), in.height())) return VX_ERROR_INVALID_PARAMETERS;
  std::optional<MappedImage> mask;
  bool mask_u1 = false;
  if (parameters[1] != nullptr) {
    mask.emplace(image_at(parameters, 1), VX_READ_ONLY);
    if (mask->status() != VX_SUCCESS) return mask->status();
    if (mask->width() != in.width() || mask->height() != in.height()) return VX_ERROR_INVALID_PARAMETERS;
    mask_u1 = as<_vx_image>(parameters[1])->format == VX_DF_IMAGE_U1;
  }
  const MappedImage* m = mask ? &*mask : nullptr;
  const bool s16 = as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_S16;
  // Packed pixels and no mask or a packed U8 one: the vision library's vectorised function.
  vision::Pixels vin{}, vout{};
  if (vision_pixels(in, s16 ? VX_DF_IMAGE_S16 : VX_DF_IMAGE_U8, vin) && vision_pixels(out, s16 ? VX_DF_IMAGE_S16 : VX_DF_IMAGE_U8, vout) &&
      (m == nullptr || (!mask_u1 && packed(*m, 1)))) {
    const vision::SuppressionMask sm{m != nullptr ? m->row(0) : nullptr, m != nullptr ? m->addressing().stride_y : 0};
    return vision::non_max_suppression(vin, sm, vout, size) ? VX_SUCCESS : VX_ERROR_INVALID_PARAMETERS;
  }
  if (s16) {
    suppress_per_pixel<vx_int16>(in, m, mask_u1, out, size / 2);
  } else {
    suppress_per_pixel<vx_uint8>(in, m, mask_u1, out, size / 2);
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kNonMaxSuppressionKernels[] = {
    {VX_KERNEL_NON_MAX_SUPPRESSION, &non_max_suppression_function, &non_max_suppression_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> non_max_suppression_kernels() noexcept { return kNonMaxSuppressionKernels; }

}  // namespace vg::openvx
