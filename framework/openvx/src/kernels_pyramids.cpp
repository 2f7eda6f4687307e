// The standard kernels that filter with a Gaussian and scale down: GaussianPyramid and HalfScaleGaussian,
// each a function and a validate (standard_kernel_support.hpp).
//
// GaussianPyramid: a U8 image in, a U8 pyramid out (scale VX_SCALE_PYRAMID_HALF or VX_SCALE_PYRAMID_ORB,
// level 0 of the input's size). Level 0 is a copy of the input; level n is level n - 1 filtered with the
// 5x5 Gaussian [1 4 6 4 1]^T [1 4 6 4 1] / 256 and scaled to level n's size by nearest neighbour.
// HalfScaleGaussian: a U8 image in, a U8 image of ((width + 1) / 2) x ((height + 1) / 2) out, the input
// filtered with the Gaussian of kernel_size 1 (none), 3 ([1 2 1]^T [1 2 1] / 16) or 5 (as above) and
// scaled by nearest neighbour.
//
// Exactness (what the Khronos conformance reference computes, and the specification's definitions):
//   - the weighted sum is truncated (sum >> 4, sum >> 8);
//   - nearest neighbour maps output pixel x of a dst-wide image to input x_src = (x + 0.5) * src / dst - 0.5,
//     rounded to the nearer pixel with halves going up, then clamped into the image (for a half scale of an
//     even size that is pixel 2x + 1).
// Borders come from the node's VX_NODE_BORDER as for the other neighbourhood kernels (neighbourhood.hpp):
// CONSTANT reads constant_value.U8 outside the image, REPLICATE the nearest edge pixel, UNDEFINED is
// computed as REPLICATE and shrinks the valid region: an output pixel is valid where the window of its
// source pixel lies inside the input's valid region (level after level for the pyramid).
//
// Each output pixel reads its window in place in the interior and through a small stack buffer at the
// edges; the pyramid's levels are its own images, mapped one pair at a time. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "graph.hpp"
#include "image.hpp"
#include "meta_format.hpp"
#include "neighbourhood.hpp"
#include "pyramid.hpp"
#include "scalar.hpp"
#include "standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

/// The nearest-neighbour source of output coordinate @p x when @p src pixels scale to @p dst.
vx_uint32 nearest_source(vx_uint32 x, vx_uint32 src, vx_uint32 dst) noexcept {
  const double s = (static_cast<double>(x) + 0.5) * static_cast<double>(src) / static_cast<double>(dst) - 0.5;
  const double whole = std::floor(s);
  long long i = static_cast<long long>(whole);
  if (s - whole >= 0.5) ++i;  // halves round up
  return static_cast<vx_uint32>(std::clamp<long long>(i, 0, static_cast<long long>(src) - 1));
}

/// The binomial weights of a window of radius R (0, 1, 2) and the shift that divides by their square's sum.
template <int R>
struct Binomial;
template <>
struct Binomial<0> {
  static constexpr unsigned weights[1] = {1};
  static constexpr unsigned shift = 0;
};
template <>
struct Binomial<1> {
  static constexpr unsigned weights[3] = {1, 2, 1};
  static constexpr unsigned shift = 4;
};
template <>
struct Binomial<2> {
  static constexpr unsigned weights[5] = {1, 4, 6, 4, 1};
  static constexpr unsigned shift = 8;
};

/// The filtered value of the window whose row r starts at rows[r] + first, columns @p step bytes apart.
template <int R>
vx_uint8 filtered(const vx_uint8* const* rows, std::ptrdiff_t first, std::ptrdiff_t step) noexcept {
  unsigned sum = 0;
  for (int r = 0; r <= 2 * R; ++r) {
    const vx_uint8* p = rows[r] + first;
    unsigned row_sum = 0;
    for (int c = 0; c <= 2 * R; ++c) row_sum += Binomial<R>::weights[c] * p[c * step];
    sum += Binomial<R>::weights[r] * row_sum;
  }
  return static_cast<vx_uint8>(sum >> Binomial<R>::shift);  // at most 255 * 2^(2 * shift / 2) >> shift = 255
}

/// out = in filtered with the binomial window of radius R, sampled by nearest neighbour at out's size.
template <int R>
void filter_and_scale(const MappedImage& in, const MappedImage& out, const vx_border_t& border) noexcept {
  const vx_uint32 iw = in.width(), ih = in.height(), ow = out.width(), oh = out.height();
  const std::ptrdiff_t si = in.stride_x(), so = out.stride_x();
  constexpr int side = 2 * R + 1;
  const vx_uint8* rows[side] = {};  // the window rows of an interior output row
  vx_uint8 buffer[side * side];  // an edge pixel's window with the border applied
  const vx_uint8* buffer_rows[side];
  for (int r = 0; r < side; ++r) buffer_rows[r] = buffer + r * side;
  const bool constant = border.mode == VX_BORDER_CONSTANT;
  const vx_uint8 value = border.constant_value.U8;
  for (vx_uint32 y = 0; y < oh; ++y) {
    const vx_uint32 sy = nearest_source(y, ih, oh);
    const bool rows_inside = sy >= static_cast<vx_uint32>(R) && sy + R < ih;
    if (rows_inside) {
      for (int r = 0; r < side; ++r) rows[r] = in.row(sy - R + static_cast<vx_uint32>(r));
    }
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < ow; ++x) {
      const vx_uint32 sx = nearest_source(x, iw, ow);
      vx_uint8 result;
      if (rows_inside && sx >= static_cast<vx_uint32>(R) && sx + R < iw) {
        result = filtered<R>(rows, static_cast<std::ptrdiff_t>(sx - R) * si, si);
      } else {
        for (int r = 0; r < side; ++r) {
          const long long yy = static_cast<long long>(sy) + r - R;
          const bool row_in = yy >= 0 && yy < static_cast<long long>(ih);
          const vx_uint8* row = in.row(static_cast<vx_uint32>(std::clamp<long long>(yy, 0, ih - 1)));
          for (int c = 0; c < side; ++c) {
            const long long xx = static_cast<long long>(sx) + c - R;
            const bool in_image = row_in && xx >= 0 && xx < static_cast<long long>(iw);
            buffer[r * side + c] = (!in_image && constant) ? value : row[std::clamp<long long>(xx, 0, iw - 1) * si];
          }
        }
        result = filtered<R>(buffer_rows, 0, 1);
      }
      o[static_cast<std::ptrdiff_t>(x) * so] = result;
    }
  }
}

/// The output rectangle whose nearest-neighbour sources (from an input of @p src_w x @p src_h to an output
/// of @p dst_w x @p dst_h) lie in @p source; an empty rectangle inside the output when none does.
vx_rectangle_t scaled_rectangle(const vx_rectangle_t& source, vx_uint32 src_w, vx_uint32 src_h, vx_uint32 dst_w, vx_uint32 dst_h) noexcept {
  // Sources grow with the output coordinate: the first and last output coordinate mapping inside.
  auto span = [](vx_uint32 start, vx_uint32 end, vx_uint32 src, vx_uint32 dst, vx_uint32& out_start, vx_uint32& out_end) {
    out_start = dst;
    out_end = 0;
    for (vx_uint32 x = 0; x < dst; ++x) {
      const vx_uint32 s = nearest_source(x, src, dst);
      if (s < start || s >= end) continue;
      out_start = std::min(out_start, x);
      out_end = x + 1;
    }
    if (out_end <= out_start) out_start = out_end = std::min(out_start, dst);
  };
  vx_rectangle_t r{};
  span(source.start_x, source.end_x, src_w, dst_w, r.start_x, r.end_x);
  span(source.start_y, source.end_y, src_h, dst_h, r.start_y, r.end_y);
  return r;
}

/// The valid region of a filter-and-scale output: the input's valid region less the window's radius
/// (neighbourhood_valid_rectangle under @p border), carried to the output's size.
vx_rectangle_t filtered_scaled_valid(const vx_border_t& border, vx_uint32 radius, vx_uint32 in_w, vx_uint32 in_h, const vx_rectangle_t& in_valid,
                                     vx_uint32 out_w, vx_uint32 out_h) noexcept {
  const vx_rectangle_t whole{0, 0, in_w, in_h};
  return scaled_rectangle(neighbourhood_valid_rectangle(border, whole, in_valid, radius, radius), in_w, in_h, out_w, out_h);
}

// --- GaussianPyramid ------------------------------------------------------------------------------------

vx_status copy_image(const MappedImage& in, const MappedImage& out) noexcept {
  if (in.width() != out.width() || in.height() != out.height()) return VX_ERROR_INVALID_PARAMETERS;  // validate allows no other
  const bool packed = in.stride_x() == 1 && out.stride_x() == 1;
  for (vx_uint32 y = 0; y < in.height(); ++y) {
    if (packed) {
      std::memcpy(out.row(y), in.row(y), in.width());
    } else {
      for (vx_uint32 x = 0; x < in.width(); ++x) out.row(y)[x * out.stride_x()] = in.row(y)[x * in.stride_x()];
    }
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK gaussian_pyramid_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2 || !valid(parameters[1], VX_TYPE_PYRAMID)) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const auto* pyramid = reinterpret_cast<vx_pyramid>(parameters[1]);
  if (pyramid->images.empty()) return VX_ERROR_INVALID_PARAMETERS;
  {
    const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
    const MappedImage level0(pyramid->images[0], VX_WRITE_ONLY);
    if (const vx_status s = mapped(in, level0); s != VX_SUCCESS) return s;
    if (const vx_status s = copy_image(in, level0); s != VX_SUCCESS) return s;
  }
  // Each level from the one before, which was just written.
  for (std::size_t level = 1; level < pyramid->images.size(); ++level) {
    const MappedImage previous(pyramid->images[level - 1], VX_READ_ONLY);
    const MappedImage current(pyramid->images[level], VX_WRITE_ONLY);
    if (const vx_status s = mapped(previous, current); s != VX_SUCCESS) return s;
    filter_and_scale<2>(previous, current, border);
  }
  return VX_SUCCESS;
}

/// Level 0 gets the input's valid region; each next level the previous one's, less the 5x5 window's
/// radius where the border leaves values open, scaled to the level.
vx_status VX_CALLBACK gaussian_pyramid_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                       vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto* pyramid = reinterpret_cast<vx_pyramid>(node->arguments[1]);
  // output_valid[n] is preset to the whole of level n.
  vx_uint32 previous_w = output_valid[0]->end_x, previous_h = output_valid[0]->end_y;
  *output_valid[0] = *input_valid[0];
  for (std::size_t level = 1; level < pyramid->levels; ++level) {
    const vx_uint32 w = output_valid[level]->end_x, h = output_valid[level]->end_y;
    *output_valid[level] = filtered_scaled_valid(border, 2, previous_w, previous_h, *output_valid[level - 1], w, h);
    previous_w = w;
    previous_h = h;
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK gaussian_pyramid_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  if (!valid(parameters[1], VX_TYPE_PYRAMID) || metas[1] == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "gaussian is not a pyramid");
  const auto* pyramid = reinterpret_cast<vx_pyramid>(parameters[1]);
  if (pyramid->scale != VX_SCALE_PYRAMID_HALF && pyramid->scale != VX_SCALE_PYRAMID_ORB) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "gaussian has scale %g, only VX_SCALE_PYRAMID_HALF and VX_SCALE_PYRAMID_ORB are supported",
                  static_cast<double>(pyramid->scale));
  }
  // What the pyramid was created with (a virtual one may leave size and format open).
  if ((pyramid->width != 0 && pyramid->width != input->width) || (pyramid->height != 0 && pyramid->height != input->height)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "gaussian's level 0 is %ux%u but input is %ux%u: they must be the same size",
                  pyramid->width, pyramid->height, input->width, input->height);
  }
  if (pyramid->format != VX_DF_IMAGE_VIRT && pyramid->format != VX_DF_IMAGE_U8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "gaussian has format %s, only U8 is supported", format_name(pyramid->format));
  }
  vx_meta_format meta = metas[1];
  meta->levels = pyramid->levels;
  meta->scale = pyramid->scale;
  meta->image_width = input->width;
  meta->image_height = input->height;
  meta->image_format = VX_DF_IMAGE_U8;
  const vx_kernel_image_valid_rectangle_f callback = &gaussian_pyramid_valid_rectangle;
  return vxSetMetaFormatAttribute(meta, VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

// --- HalfScaleGaussian ----------------------------------------------------------------------------------

/// The kernel_size scalar's value; false when it is not a readable VX_TYPE_INT32 scalar.
bool kernel_size_of(vx_reference parameter, vx_int32& size) noexcept {
  if (!valid(parameter, VX_TYPE_SCALAR)) return false;
  const auto* scalar = reinterpret_cast<vx_scalar>(parameter);
  if (scalar->data_type != VX_TYPE_INT32 || scalar->is_virtual) return false;
  std::memcpy(&size, scalar->bytes.data(), sizeof size);
  return true;
}

vx_status VX_CALLBACK half_scale_gaussian_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_int32 kernel_size = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &kernel_size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (out.width() != (in.width() + 1) / 2 || out.height() != (in.height() + 1) / 2) return VX_ERROR_INVALID_PARAMETERS;
  switch (kernel_size) {
    case 1: filter_and_scale<0>(in, out, border); return VX_SUCCESS;
    case 3: filter_and_scale<1>(in, out, border); return VX_SUCCESS;
    case 5: filter_and_scale<2>(in, out, border); return VX_SUCCESS;
    default: return VX_ERROR_INVALID_VALUE;  // a virtual scalar set to another size while the graph ran
  }
}

vx_status VX_CALLBACK half_scale_gaussian_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                          vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto* input = reinterpret_cast<vx_image>(node->arguments[0]);
  vx_int32 kernel_size = 5;  // a size not known before the graph runs: the widest window
  if (!kernel_size_of(node->arguments[2], kernel_size)) kernel_size = 5;
  const auto radius = static_cast<vx_uint32>(std::clamp(kernel_size, 1, 5) / 2);
  *output_valid[0] = filtered_scaled_valid(border, radius, input->width, input->height, *input_valid[0], output_valid[0]->end_x,
                                           output_valid[0]->end_y);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK half_scale_gaussian_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "kernel_size is not a scalar");
  const auto* scalar = reinterpret_cast<vx_scalar>(parameters[2]);
  if (scalar->data_type != VX_TYPE_INT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "kernel_size is a scalar of type 0x%x, it must be VX_TYPE_INT32",
                  static_cast<unsigned>(scalar->data_type));
  }
  vx_int32 kernel_size = 0;
  if (kernel_size_of(parameters[2], kernel_size) && kernel_size != 1 && kernel_size != 3 && kernel_size != 5) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "kernel_size is %d, it must be 1, 3 or 5", kernel_size);
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  const vx_uint32 out_w = (input->width + 1) / 2, out_h = (input->height + 1) / 2;
  if (valid(parameters[1], VX_TYPE_IMAGE)) {
    const auto* out = reinterpret_cast<vx_image>(parameters[1]);
    if ((out->declared_width != 0 && out->declared_width != out_w) || (out->declared_height != 0 && out->declared_height != out_h)) {
      return refuse(node, VX_ERROR_INVALID_DIMENSION, "output is %ux%u but must be half the %ux%u input, rounded up: %ux%u",
                    out->declared_width, out->declared_height, input->width, input->height, out_w, out_h);
    }
  }
  if (const vx_status s = output_image(node, parameters, 1, "output", out_w, out_h, VX_DF_IMAGE_U8, metas[1]);
      s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &half_scale_gaussian_valid_rectangle;
  return vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

constexpr StandardKernelFunctions kPyramidKernels[] = {
    {VX_KERNEL_GAUSSIAN_PYRAMID, &gaussian_pyramid_function, &gaussian_pyramid_validate},
    {VX_KERNEL_HALFSCALE_GAUSSIAN, &half_scale_gaussian_function, &half_scale_gaussian_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> pyramid_kernels() noexcept { return kPyramidKernels; }

}  // namespace vg::openvx
