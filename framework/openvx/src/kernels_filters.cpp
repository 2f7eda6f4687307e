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
// The walk over the image (an interior loop without border checks, the one-pixel frame done separately)
// and the valid region are neighbourhood.hpp's, shared with Sobel3x3 and Convolve. Nothing is allocated
// per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>

#include "neighbourhood.hpp"
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

// --- the kernel function, validate and valid region (the walk is neighbourhood.hpp's) -------------------

template <typename Op>
vx_status VX_CALLBACK filter_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (in.width() != out.width() || in.height() != out.height()) return VX_ERROR_INVALID_PARAMETERS;  // validate allows no other
  const std::ptrdiff_t so = out.stride_x();
  for_each_neighbourhood<vx_uint8>(in, 1, 1, border, [&](const auto& w, vx_uint32 x, vx_uint32 y) {
    const vx_uint8 v[9] = {w(0, 0), w(0, 1), w(0, 2), w(1, 0), w(1, 1), w(1, 2), w(2, 0), w(2, 1), w(2, 2)};
    out.row(y)[static_cast<std::ptrdiff_t>(x) * so] = Op::apply(v);
  });
  return VX_SUCCESS;
}

/// All five: a U8 input, a U8 output of its size, and a border mode these kernels support.
vx_status VX_CALLBACK filter_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  if (const vx_status s = output_image(node, parameters, 1, "output", input->width, input->height, VX_DF_IMAGE_U8, metas[1]);
      s != VX_SUCCESS) {
    return s;
  }
  // The valid region: the input's less one pixel per side under UNDEFINED (neighbourhood.hpp).
  const vx_kernel_image_valid_rectangle_f callback = &fixed_neighbourhood_valid_rectangle<1, 1>;
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
