// The standard 3x3 filters Dilate3x3, Erode3x3, Median3x3, Box3x3 and Gaussian3x3: each a function and a
// validate (standard_kernel_support.hpp).
//
// All five take a U8 image and make a U8 image of its size, each output pixel from the 3x3 neighbourhood
// of the input pixel at the same place:
//   Dilate3x3    the maximum of the 9 values,
//   Erode3x3     the minimum,
//   Median3x3    the median (the 5th of the 9 sorted values),
//   Box3x3       sum / 9, truncated (the Khronos conformance reference floors the mean; the specification
//                gives only the 1/9 matrix),
//   Gaussian3x3  (corners + 2 * edge neighbours + 4 * centre) >> 4, truncated (the conformance reference,
//                which compares exactly).
// Borders come from the node's VX_NODE_BORDER: CONSTANT reads constant_value.U8 outside the image,
// REPLICATE the nearest edge pixel. UNDEFINED (the default) leaves the values of the one-pixel frame open:
// this library computes them as REPLICATE does, and the output's valid region is the input's less one pixel
// on each side. All three modes are supported by these kernels.
//
// The interior (pixels whose neighbourhood lies inside the image) runs a loop without border checks; the
// one-pixel frame is done separately, pixel by pixel. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>

#include "standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

// --- the operations, on the 9 values of a neighbourhood in row order (v[4] is the centre) ---------------

struct DilateOp {
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    vx_uint8 m = v[0];
    for (int i = 1; i < 9; ++i) m = std::max(m, v[i]);
    return m;
  }
};

struct ErodeOp {
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    vx_uint8 m = v[0];
    for (int i = 1; i < 9; ++i) m = std::min(m, v[i]);
    return m;
  }
};

struct MedianOp {
  // A 19-exchange network that leaves the median of 9 values at index 4.
  static void order(vx_uint8& a, vx_uint8& b) noexcept {
    const vx_uint8 lo = std::min(a, b), hi = std::max(a, b);
    a = lo;
    b = hi;
  }
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    vx_uint8 p[9];
    for (int i = 0; i < 9; ++i) p[i] = v[i];
    order(p[1], p[2]), order(p[4], p[5]), order(p[7], p[8]);
    order(p[0], p[1]), order(p[3], p[4]), order(p[6], p[7]);
    order(p[1], p[2]), order(p[4], p[5]), order(p[7], p[8]);
    order(p[0], p[3]), order(p[5], p[8]), order(p[4], p[7]);
    order(p[3], p[6]), order(p[1], p[4]), order(p[2], p[5]);
    order(p[4], p[7]), order(p[4], p[2]), order(p[6], p[4]);
    order(p[4], p[2]);
    return p[4];
  }
};

struct BoxOp {
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    unsigned sum = 0;
    for (int i = 0; i < 9; ++i) sum += v[i];
    return static_cast<vx_uint8>(sum / 9u);  // at most 2295 / 9 = 255
  }
};

struct GaussianOp {
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    const unsigned corners = unsigned{v[0]} + v[2] + v[6] + v[8];
    const unsigned edges = unsigned{v[1]} + v[3] + v[5] + v[7];
    return static_cast<vx_uint8>((corners + 2u * edges + 4u * v[4]) >> 4);  // at most 4080 >> 4 = 255
  }
};

// --- the image walk -------------------------------------------------------------------------------------

/// The interior rows 1 .. height-2, columns 1 .. width-2 (width and height at least 3): no border checks.
/// @p Packed rows step by one byte, which the compiler can use; others step by their stride_x.
template <typename Op, bool Packed>
void filter_interior(const MappedImage& in, const MappedImage& out) noexcept {
  const std::ptrdiff_t si = Packed ? 1 : in.stride_x();
  const std::ptrdiff_t so = Packed ? 1 : out.stride_x();
  const vx_uint32 width = in.width(), height = in.height();
  for (vx_uint32 y = 1; y + 1 < height; ++y) {
    const vx_uint8* above = in.row(y - 1);
    const vx_uint8* here = in.row(y);
    const vx_uint8* below = in.row(y + 1);
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 1; x + 1 < width; ++x) {
      const std::ptrdiff_t l = (x - 1) * si, c = x * si, r = (x + 1) * si;
      const vx_uint8 v[9] = {above[l], above[c], above[r], here[l], here[c], here[r], below[l], below[c], below[r]};
      o[x * so] = Op::apply(v);
    }
  }
}

/// One pixel of the frame: its neighbours outside the image are @p constant (CONSTANT) or the nearest edge
/// pixel (REPLICATE, and UNDEFINED, whose values this library computes as REPLICATE does).
template <typename Op>
void filter_frame_pixel(const MappedImage& in, const MappedImage& out, vx_uint32 x, vx_uint32 y, bool constant_border,
                        vx_uint8 constant) noexcept {
  const std::ptrdiff_t si = in.stride_x();
  const auto width = static_cast<std::ptrdiff_t>(in.width()), height = static_cast<std::ptrdiff_t>(in.height());
  vx_uint8 v[9];
  int k = 0;
  for (std::ptrdiff_t dy = -1; dy <= 1; ++dy) {
    for (std::ptrdiff_t dx = -1; dx <= 1; ++dx, ++k) {
      std::ptrdiff_t xx = static_cast<std::ptrdiff_t>(x) + dx, yy = static_cast<std::ptrdiff_t>(y) + dy;
      const bool inside = xx >= 0 && xx < width && yy >= 0 && yy < height;
      if (!inside && constant_border) {
        v[k] = constant;
        continue;
      }
      xx = std::clamp<std::ptrdiff_t>(xx, 0, width - 1);
      yy = std::clamp<std::ptrdiff_t>(yy, 0, height - 1);
      v[k] = in.row(static_cast<vx_uint32>(yy))[xx * si];
    }
  }
  out.row(y)[static_cast<std::ptrdiff_t>(x) * out.stride_x()] = Op::apply(v);
}

template <typename Op>
void filter_image(const MappedImage& in, const MappedImage& out, const vx_border_t& border) noexcept {
  const vx_uint32 width = in.width(), height = in.height();
  const bool constant_border = border.mode == VX_BORDER_CONSTANT;
  const vx_uint8 constant = border.constant_value.U8;
  if (width >= 3 && height >= 3) {
    if (in.stride_x() == 1 && out.stride_x() == 1) {
      filter_interior<Op, true>(in, out);
    } else {
      filter_interior<Op, false>(in, out);
    }
  }
  // The frame: the first and last rows whole, then the first and last columns of the rows between.
  for (vx_uint32 x = 0; x < width; ++x) {
    filter_frame_pixel<Op>(in, out, x, 0, constant_border, constant);
    if (height > 1) filter_frame_pixel<Op>(in, out, x, height - 1, constant_border, constant);
  }
  for (vx_uint32 y = 1; y + 1 < height; ++y) {
    filter_frame_pixel<Op>(in, out, 0, y, constant_border, constant);
    if (width > 1) filter_frame_pixel<Op>(in, out, width - 1, y, constant_border, constant);
  }
}

template <typename Op>
vx_status VX_CALLBACK filter_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  if (border.mode != VX_BORDER_UNDEFINED && border.mode != VX_BORDER_CONSTANT && border.mode != VX_BORDER_REPLICATE) {
    return VX_ERROR_NOT_SUPPORTED;
  }
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (in.width() != out.width() || in.height() != out.height()) return VX_ERROR_INVALID_PARAMETERS;  // validate allows no other
  filter_image<Op>(in, out, border);
  return VX_SUCCESS;
}

/// The output's valid region: the input's, less one pixel on each side where the output pixels there
/// would read outside it. With UNDEFINED that is every side (the image's edge included: the spec leaves
/// those values open); with CONSTANT and REPLICATE only sides where the input's valid region stops short of
/// the image's edge (the border mode defines what lies beyond the image, not what lies in its invalid part).
/// The framework presets output_valid to the whole output image, which is the input's size.
vx_status VX_CALLBACK filter_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                             vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const bool undefined = border.mode == VX_BORDER_UNDEFINED;
  const vx_rectangle_t whole = *output_valid[0];
  const vx_rectangle_t& in = *input_valid[0];
  const vx_uint32 left = (undefined || in.start_x > whole.start_x) ? 1 : 0;
  const vx_uint32 top = (undefined || in.start_y > whole.start_y) ? 1 : 0;
  const vx_uint32 right = (undefined || in.end_x < whole.end_x) ? 1 : 0;
  const vx_uint32 bottom = (undefined || in.end_y < whole.end_y) ? 1 : 0;
  vx_rectangle_t r{in.start_x + left, in.start_y + top, in.end_x >= right ? in.end_x - right : 0, in.end_y >= bottom ? in.end_y - bottom : 0};
  // Too small to keep any pixel: an empty rectangle inside the image.
  r.end_x = std::max(r.end_x, r.start_x);
  r.end_y = std::max(r.end_y, r.start_y);
  r.start_x = std::min(r.start_x, whole.end_x);
  r.end_x = std::min(r.end_x, whole.end_x);
  r.start_y = std::min(r.start_y, whole.end_y);
  r.end_y = std::min(r.end_y, whole.end_y);
  *output_valid[0] = r;
  return VX_SUCCESS;
}

/// All five: a U8 input, a U8 output of its size, and a border mode these kernels support.
vx_status VX_CALLBACK filter_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) {
    return refuse(node, s, "its border mode cannot be read");
  }
  if (border.mode != VX_BORDER_UNDEFINED && border.mode != VX_BORDER_CONSTANT && border.mode != VX_BORDER_REPLICATE) {
    return refuse(node, VX_ERROR_NOT_SUPPORTED, "border mode 0x%x is not supported (UNDEFINED, CONSTANT or REPLICATE)",
                  static_cast<unsigned>(border.mode));
  }
  if (const vx_status s = output_image(node, parameters, 1, "output", input->width, input->height, VX_DF_IMAGE_U8, metas[1]);
      s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &filter_valid_rectangle;
  return vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

constexpr StandardKernelFunctions kFilterKernels[] = {
    {VX_KERNEL_DILATE_3x3, &filter_function<DilateOp>, &filter_validate},
    {VX_KERNEL_ERODE_3x3, &filter_function<ErodeOp>, &filter_validate},
    {VX_KERNEL_MEDIAN_3x3, &filter_function<MedianOp>, &filter_validate},
    {VX_KERNEL_BOX_3x3, &filter_function<BoxOp>, &filter_validate},
    {VX_KERNEL_GAUSSIAN_3x3, &filter_function<GaussianOp>, &filter_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> filter_kernels() noexcept { return kFilterKernels; }

}  // namespace vg::openvx
