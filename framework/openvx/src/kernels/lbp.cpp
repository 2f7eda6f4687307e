// The enhanced-vision kernel LBP (local binary patterns): a function and a validate
// (standard_kernel_support.hpp).
//
// A U8 input, a U8 output of its size. Each pixel compares its value g_c with eight neighbours g_0..g_7,
// clockwise from the top left, and sets bit p when neighbour p passes:
//   VX_LBP,  3x3  the eight adjacent pixels; bit p = g_p >= g_c.
//   VX_LBP,  5x5  the diagonal neighbours at distance 1 and the straight ones at distance 2.
//   VX_ULBP       as VX_LBP when the bits change at most twice around the circle (a uniform pattern),
//                 9 otherwise.
//   VX_MLBP, 5x5  the corners and edge midpoints of the 5x5 window; bit p = g_p > (sum of the eight + 1)/8
//                 (integer division). The conformance suite's golden images are what fixes this form.
// Pixels nearer an edge than the window's radius read the nearest edge pixels (the specification leaves
// them open). The vision library computes it (lbp.hpp), vectorised for packed images.
//
// Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>

#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/lbp.hpp"

namespace vg::openvx {
namespace {

vx_status read_parameters(const vx_reference* parameters, vx_enum& format, vx_int8& size) noexcept {
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &format, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

bool valid_combination(vx_enum format, vx_int8 size) noexcept {
  if (format == VX_MLBP) return size == 5;
  return (format == VX_LBP || format == VX_ULBP) && (size == 3 || size == 5);
}

vx_status VX_CALLBACK lbp_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "in", input); s != VX_SUCCESS) return s;
  vx_enum format = 0;
  if (const vx_status s = enum_parameter(node, parameters, 1, "format", {VX_LBP, VX_MLBP, VX_ULBP}, format); s != VX_SUCCESS) return s;
  vx_int8 size = 0;
  bool known = false;
  if (const vx_status s = scalar_input(node, parameters, 2, "kernel_size", VX_TYPE_INT8, "VX_TYPE_INT8", size, known); s != VX_SUCCESS) {
    return s;
  }
  if (known && !valid_combination(format, size)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "kernel_size %d does not go with this format (LBP and ULBP: 3 or 5; MLBP: 5)",
                  static_cast<int>(size));
  }
  return output_image(node, parameters, 3, "out", input->width, input->height, VX_DF_IMAGE_U8, metas[3]);
}

vx_status VX_CALLBACK lbp_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum format = 0;
  vx_int8 size = 0;
  if (const vx_status s = read_parameters(parameters, format, size); s != VX_SUCCESS) return s;
  if (!valid_combination(format, size)) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const vision::LbpFormat f = format == VX_MLBP ? vision::LbpFormat::modified : format == VX_ULBP ? vision::LbpFormat::uniform
                                                                                    : vision::LbpFormat::lbp;
  if (packed(in, 1) && packed(out, 1)) {
    return vision::local_binary_pattern(const_plane(in), plane(out), f, size) ? VX_SUCCESS : VX_ERROR_INVALID_PARAMETERS;
  }
  // A strided patch of an image from a handle: through packed copies would need working memory; the
  // library's per-pixel definition instead.
  const auto w = static_cast<int>(in.width()), h = static_cast<int>(in.height());
  const std::ptrdiff_t si = in.stride_x(), so = out.stride_x();
  for (int y = 0; y < h; ++y) {
    vx_uint8* o = out.row(static_cast<vx_uint32>(y));
    for (int x = 0; x < w; ++x) o[static_cast<std::ptrdiff_t>(x) * so] = vision::lbp_pattern(
        [&](int yy, int xx) { return in.row(static_cast<vx_uint32>(std::clamp(yy, 0, h - 1)))[static_cast<std::ptrdiff_t>(std::clamp(xx, 0, w - 1)) * si]; },
        f, size, x, y);
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kLbpKernels[] = {
    {VX_KERNEL_LBP, &lbp_function, &lbp_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> lbp_kernels() noexcept { return kLbpKernels; }

}  // namespace vg::openvx
