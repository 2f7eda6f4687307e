// The standard kernels that filter with a Gaussian and scale: GaussianPyramid, HalfScaleGaussian,
// LaplacianPyramid and LaplacianReconstruct, each a function and a validate (standard_kernel_support.hpp).
// The Laplacian pair is described at its code below.
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
// Halving levels of packed U8 images run the vision library's gaussian_half (gaussian_half.hpp), frame
// included; ORB levels and strided patches of images from handles read each output pixel's window here, in
// place in the interior and through a small stack buffer at the edges. The pyramid's levels are its own
// images, mapped one pair at a time. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "graph.hpp"
#include "image.hpp"
#include "meta_format.hpp"
#include "kernels/neighbourhood.hpp"
#include "pyramid.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/convert_depth.hpp"
#include "visiongraph/kernels/vision/downscale.hpp"
#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/laplacian.hpp"

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

/// Pixels of type T of a mapped image plane.
template <typename T>
struct Plane {
  vx_uint8* base = nullptr;
  std::ptrdiff_t step_x = sizeof(T), step_y = 0;
  vx_uint32 width = 0, height = 0;

  vx_uint8* row(vx_uint32 y) const noexcept { return base + static_cast<std::ptrdiff_t>(y) * step_y; }
  T at(vx_uint32 x, vx_uint32 y) const noexcept { return load<T>(row(y) + static_cast<std::ptrdiff_t>(x) * step_x); }
  void put(vx_uint32 x, vx_uint32 y, T v) const noexcept { store<T>(row(y) + static_cast<std::ptrdiff_t>(x) * step_x, v); }
};

template <typename T>
Plane<T> plane_of(const MappedImage& m) noexcept {
  return {m.row(0), m.stride_x(), m.addressing().stride_y, m.width(), m.height()};
}

/// The filtered value of the window whose row r starts at rows[r] + first, columns @p step bytes apart.
template <int R, typename T>
vx_uint8 filtered(const vx_uint8* const* rows, std::ptrdiff_t first, std::ptrdiff_t step) noexcept {
  unsigned sum = 0;
  for (int r = 0; r <= 2 * R; ++r) {
    const vx_uint8* p = rows[r] + first;
    unsigned row_sum = 0;
    for (int c = 0; c <= 2 * R; ++c) row_sum += Binomial<R>::weights[c] * static_cast<unsigned>(load<T>(p + c * step));
    sum += Binomial<R>::weights[r] * row_sum;
  }
  return static_cast<vx_uint8>(sum >> Binomial<R>::shift);  // the weights sum to 2^shift: at most 255
}

/// out = in filtered with the binomial window of radius R, sampled by nearest neighbour at out's size.
template <int R, typename In, typename Out>
void filter_and_scale(const Plane<In>& in, const Plane<Out>& out, const vx_border_t& border) noexcept {
  const vx_uint32 iw = in.width, ih = in.height, ow = out.width, oh = out.height;
  const std::ptrdiff_t si = in.step_x;
  constexpr int side = 2 * R + 1;
  const vx_uint8* rows[side] = {};  // the window rows of an interior output row
  In buffer[side * side];           // an edge pixel's window with the border applied
  const vx_uint8* buffer_rows[side];
  for (int r = 0; r < side; ++r) buffer_rows[r] = reinterpret_cast<const vx_uint8*>(buffer + r * side);
  const bool constant = border.mode == VX_BORDER_CONSTANT;
  const auto value = static_cast<In>(border.constant_value.U8);
  for (vx_uint32 y = 0; y < oh; ++y) {
    const vx_uint32 sy = nearest_source(y, ih, oh);
    // Window rows inside the image, or (a top or bottom row under a border that repeats the edge) clamped
    // into it: either way the columns inside are read in place.
    const bool rows_inside = (sy >= static_cast<vx_uint32>(R) && sy + R < ih) || !constant;
    if (rows_inside) {
      for (int r = 0; r < side; ++r) {
        const long long yy = std::clamp<long long>(static_cast<long long>(sy) - R + r, 0, static_cast<long long>(ih) - 1);
        rows[r] = in.row(static_cast<vx_uint32>(yy));
      }
    }
    for (vx_uint32 x = 0; x < ow; ++x) {
      const vx_uint32 sx = nearest_source(x, iw, ow);
      vx_uint8 result;
      if (rows_inside && sx >= static_cast<vx_uint32>(R) && sx + R < iw) {
        result = filtered<R, In>(rows, static_cast<std::ptrdiff_t>(sx - R) * si, si);
      } else {
        for (int r = 0; r < side; ++r) {
          const long long yy = static_cast<long long>(sy) + r - R;
          const bool row_in = yy >= 0 && yy < static_cast<long long>(ih);
          const auto cy = static_cast<vx_uint32>(std::clamp<long long>(yy, 0, ih - 1));
          for (int c = 0; c < side; ++c) {
            const long long xx = static_cast<long long>(sx) + c - R;
            const bool in_image = row_in && xx >= 0 && xx < static_cast<long long>(iw);
            buffer[r * side + c] = (!in_image && constant) ? value : in.at(static_cast<vx_uint32>(std::clamp<long long>(xx, 0, iw - 1)), cy);
          }
        }
        result = filtered<R, In>(buffer_rows, 0, sizeof(In));
      }
      out.put(x, y, static_cast<Out>(result));
    }
  }
}

/// Halves @p in into @p out with the binomial window of @p kernel_size (1, 3, 5): the vision library's
/// vectorised function for packed U8 images whose sides are twice the output's or one less (the same
/// bytes: nearest neighbour samples 2x + 1 or 2x there), this file's code for the rest (ORB levels, and
/// strided patches of images from handles).
void half_scale(const MappedImage& in, const MappedImage& out, int kernel_size, const vx_border_t& border) noexcept {
  if (in.stride_x() == 1 && out.stride_x() == 1) {
    if (kernel_size == 1 && in.width() == 2 * out.width() && in.height() == 2 * out.height()) {
      vision::downscale_2x(const_plane(in), plane(out), false);  // pixel (2x + 1, 2y + 1)
      return;
    }
    if (vision::gaussian_half(const_plane(in), plane(out), kernel_size, vision_border(border))) return;
  }
  const Plane<vx_uint8> pin = plane_of<vx_uint8>(in), pout = plane_of<vx_uint8>(out);
  switch (kernel_size) {
    case 1: filter_and_scale<0>(pin, pout, border); break;
    case 3: filter_and_scale<1>(pin, pout, border); break;
    default: filter_and_scale<2>(pin, pout, border); break;
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
  if (num != 2 || !valid_handle(parameters[1], VX_TYPE_PYRAMID)) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const auto* pyramid = as<_vx_pyramid>(parameters[1]);
  if (pyramid->images.empty()) return VX_ERROR_INVALID_PARAMETERS;
  std::size_t next_level = 1;
  {
    const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
    const MappedImage level0(pyramid->images[0], VX_WRITE_ONLY);
    if (const vx_status s = mapped(in, level0); s != VX_SUCCESS) return s;
    if (in.width() != level0.width() || in.height() != level0.height()) return VX_ERROR_INVALID_PARAMETERS;  // validate allows no other
    if (pyramid->images.size() > 1 && packed(in, 1) && packed(level0, 1)) {
      // Level 1 from the input (level 0's very pixels), band by band, each band's input rows copied to
      // level 0 just before: the input is read from memory once instead of twice.
      const MappedImage level1(pyramid->images[1], VX_WRITE_ONLY);
      if (const vx_status s = level1.status(); s != VX_SUCCESS) return s;
      const vision::Border vb = vision_border(border);
      if (packed(level1, 1) && vision::gaussian_half(const_plane(in), plane(level1), 5, vb, {0, 0})) {
        constexpr vx_uint32 kBand = 16;  // level-1 rows: 32 input rows, in the cache while both read them
        vx_uint32 copied = 0;
        for (vx_uint32 y = 0; y < level1.height(); y += kBand) {
          const vx_uint32 reach = std::min(in.height(), 2 * (y + kBand) + 3);  // the 5x5 windows' last row + 1
          for (; copied < reach; ++copied) std::memcpy(level0.row(copied), in.row(copied), in.width());
          vision::gaussian_half(const_plane(in), plane(level1), 5, vb, {y, y + kBand});
        }
        for (; copied < in.height(); ++copied) std::memcpy(level0.row(copied), in.row(copied), in.width());
        next_level = 2;
      }
    }
    if (next_level == 1) {
      if (const vx_status s = copy_image(in, level0); s != VX_SUCCESS) return s;
    }
  }
  // Each level from the one before, which was just written.
  for (std::size_t level = next_level; level < pyramid->images.size(); ++level) {
    const MappedImage previous(pyramid->images[level - 1], VX_READ_ONLY);
    const MappedImage current(pyramid->images[level], VX_WRITE_ONLY);
    if (const vx_status s = mapped(previous, current); s != VX_SUCCESS) return s;
    half_scale(previous, current, 5, border);  // ORB levels (not halves) take its general path
  }
  return VX_SUCCESS;
}

/// Level 0 gets the input's valid region; each next level the previous one's, less the 5x5 window's
/// radius where the border leaves values open, scaled to the level.
vx_status VX_CALLBACK gaussian_pyramid_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                       vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto* pyramid = static_cast<const _vx_pyramid*>(as<_vx_node>(node)->arguments[1]);  // the node's argument: an object
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
  if (!valid_handle(parameters[1], VX_TYPE_PYRAMID) || metas[1] == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "gaussian is not a pyramid");
  const auto* pyramid = as<_vx_pyramid>(parameters[1]);
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
  as<_vx_meta_format>(meta)->levels = pyramid->levels;
  as<_vx_meta_format>(meta)->scale = pyramid->scale;
  as<_vx_meta_format>(meta)->image_width = input->width;
  as<_vx_meta_format>(meta)->image_height = input->height;
  as<_vx_meta_format>(meta)->image_format = VX_DF_IMAGE_U8;
  const vx_kernel_image_valid_rectangle_f callback = &gaussian_pyramid_valid_rectangle;
  return vxSetMetaFormatAttribute(meta, VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

// --- HalfScaleGaussian ----------------------------------------------------------------------------------

/// The kernel_size scalar's value; false when it is not a readable VX_TYPE_INT32 scalar.
bool kernel_size_of(vx_reference parameter, vx_int32& size) noexcept {
  if (!valid_handle(parameter, VX_TYPE_SCALAR)) return false;
  const auto* scalar = as<_vx_scalar>(parameter);
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
  if (kernel_size != 1 && kernel_size != 3 && kernel_size != 5) return VX_ERROR_INVALID_VALUE;  // a virtual scalar set while running
  half_scale(in, out, kernel_size, border);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK half_scale_gaussian_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                          vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const _vx_node* n = as<_vx_node>(node);
  const auto* input = static_cast<const _vx_image*>(n->arguments[0]);  // the node's arguments: objects
  vx_int32 kernel_size = 5;  // a size not known before the graph runs: the widest window
  if (!kernel_size_of(to_handle(n->arguments[2]), kernel_size)) kernel_size = 5;
  const auto radius = static_cast<vx_uint32>(std::clamp(kernel_size, 1, 5) / 2);
  *output_valid[0] = filtered_scaled_valid(border, radius, input->width, input->height, *input_valid[0], output_valid[0]->end_x,
                                           output_valid[0]->end_y);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK half_scale_gaussian_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "kernel_size is not a scalar");
  const auto* scalar = as<_vx_scalar>(parameters[2]);
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
  if (valid_handle(parameters[1], VX_TYPE_IMAGE)) {
    const auto* out = as<_vx_image>(parameters[1]);
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

// --- LaplacianPyramid and LaplacianReconstruct -----------------------------------------------------------
// Both run the vision library's levels (laplacian.hpp): expand(g) = 4 * ((g zero-inserted to twice its size
// under the 5x5 binomial window) >> 8), the division truncating before the 4, as in the conformance
// reference; outside g its nearest pixel stands (the specification asks for REPLICATE here, whatever the
// node's border). Working memory is the node's local data, sized at validation and allocated when the graph
// is set up: two U8 planes of level 1's size that the intermediate levels alternate in, and a packed copy
// of an image whose pixels validate saw spaced (a channel of a multi-channel image, a handle with gaps).

/// The size of level @p levels of a half-scale pyramid whose level 0 is @p w x @p h.
void halved(vx_size levels, vx_uint32& w, vx_uint32& h) noexcept {
  for (vx_size l = 0; l < levels; ++l) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
}

bool is_s16(vx_image image) noexcept { return as<_vx_image>(image)->format == VX_DF_IMAGE_S16; }  // a handle or a level

/// Whether @p image's pixels are @p pixel_size bytes apart, as validate sees it (a virtual image not yet
/// allocated will be).
bool packed_when_validated(const _vx_image* image, vx_int32 pixel_size) noexcept {
  const vx_int32 step = image->planes[0].stride_x;
  return step == 0 || step == pixel_size;
}

/// Bytes of a plane of @p w x @p h U8 pixels.
std::size_t plane_bytes(vx_uint32 w, vx_uint32 h) noexcept { return static_cast<std::size_t>(w) * h; }

/// The node's local data when it holds at least @p bytes; null otherwise.
vx_uint8* local_data_of(vx_node node, std::size_t bytes) noexcept {
  const _vx_node* n = as<_vx_node>(node);
  if (bytes == 0) return nullptr;
  return n->local_data != nullptr && n->local_data_size >= bytes ? static_cast<vx_uint8*>(n->local_data) : nullptr;
}

/// A packed U8 plane of @p w x @p h at @p base.
vision::Plane packed_plane(vx_uint8* base, vx_uint32 w, vx_uint32 h) noexcept { return {base, w, h, static_cast<std::ptrdiff_t>(w)}; }

/// Copies @p from (any stride_x) into @p to (packed), U8 pixels or S16 ones saturated to 0..255.
void stage_u8(const MappedImage& from, bool s16, const vision::Plane& to) noexcept {
  const std::ptrdiff_t step = from.stride_x();
  for (vx_uint32 y = 0; y < to.height; ++y) {
    const vx_uint8* f = from.row(y);
    vx_uint8* t = to.row(y);
    for (vx_uint32 x = 0; x < to.width; ++x) {
      const vx_uint8* p = f + static_cast<std::ptrdiff_t>(x) * step;
      t[x] = s16 ? static_cast<vx_uint8>(std::clamp<int>(load<vx_int16>(p), 0, 255)) : *p;
    }
  }
}

/// Writes row @p y of @p from (U8 or S16, packed) to @p to's row y (U8, or S16 when @p s16; any stride_x).
void unstage_row(const vision::ConstPixels& from, vx_uint32 y, const MappedImage& to, bool s16) noexcept {
  const std::ptrdiff_t step = to.stride_x();
  vx_uint8* t = to.row(y);
  for (vx_uint32 x = 0; x < from.width; ++x) {
    const int value = from.type == vision::PixelType::s16 ? from.row<vx_int16>(y)[x] : from.row<vx_uint8>(y)[x];
    vx_uint8* p = t + static_cast<std::ptrdiff_t>(x) * step;
    if (s16) {
      store<vx_int16>(p, static_cast<vx_int16>(value));
    } else {
      *p = static_cast<vx_uint8>(value);
    }
  }
}

/// LaplacianPyramid's local data: the two planes of level 1's size (one when level 1 is the last, kept there
/// unless the output takes it), then the input's packed copy when its pixels are spaced.
struct LaplacianPyramidMemory {
  std::size_t level_plane = 0, planes = 0, input_copy = 0;
  std::size_t total() const noexcept { return planes * level_plane + input_copy; }
};
LaplacianPyramidMemory laplacian_pyramid_memory(vx_uint32 width, vx_uint32 height, vx_size levels, bool input_packed) noexcept {
  vx_uint32 w1 = width, h1 = height;
  halved(1, w1, h1);
  return {plane_bytes(w1, h1), levels > 1 ? std::size_t{2} : std::size_t{1}, input_packed ? 0 : plane_bytes(width, height)};
}

// LaplacianPyramid: input U8; laplacian, an S16 pyramid of L levels (scale HALF, level 0 the input's
// size); output U8 or S16, Gaussian level L. With G_0 the input and G_{i+1} the Gaussian pyramid's next
// level (GaussianPyramid's filter and sampling, under REPLICATE), laplacian level i = G_i - expand(G_{i+1}).
// G_1 .. G_{L-1} alternate between the two local planes; G_L goes straight to a packed U8 output, through a
// local plane to another.
vx_status VX_CALLBACK laplacian_pyramid_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3 || !valid_handle(parameters[1], VX_TYPE_PYRAMID)) return VX_ERROR_INVALID_PARAMETERS;
  const auto* pyramid = as<_vx_pyramid>(parameters[1]);
  const std::size_t levels = pyramid->images.size();
  if (levels == 0) return VX_ERROR_INVALID_PARAMETERS;
  const vision::Border replicate{};
  const vx_image output_image = image_at(parameters, 2);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (const vx_status s = in.status(); s != VX_SUCCESS) return s;
  const LaplacianPyramidMemory memory = laplacian_pyramid_memory(in.width(), in.height(), levels, packed(in, 1));
  vx_uint8* local = local_data_of(node, memory.total());
  if (local == nullptr) return VX_ERROR_NO_MEMORY;
  vision::ConstPlane fine = const_plane(in);
  if (!packed(in, 1)) {
    const vision::Plane copy = packed_plane(local + memory.planes * memory.level_plane, in.width(), in.height());
    stage_u8(in, false, copy);
    fine = copy;
  }
  for (std::size_t i = 0; i < levels; ++i) {
    const MappedImage level(pyramid->images[i], VX_WRITE_ONLY);
    if (const vx_status s = level.status(); s != VX_SUCCESS) return s;
    vision::Pixels laplacian{};
    if (!vision_pixels(level, VX_DF_IMAGE_S16, laplacian) || laplacian.width != fine.width || laplacian.height != fine.height) {
      return VX_ERROR_INVALID_PARAMETERS;  // a pyramid's levels are packed, of the sizes validate checked
    }
    const vision::Plane coarse = packed_plane(local + (i % 2) * memory.level_plane, (fine.width + 1) / 2, (fine.height + 1) / 2);
    if (i + 1 < levels) {
      if (!vision::laplacian_level(fine, coarse, laplacian, replicate)) return VX_ERROR_INVALID_PARAMETERS;
      fine = coarse;
      continue;
    }
    const MappedImage out(output_image, VX_WRITE_ONLY);
    if (const vx_status s = out.status(); s != VX_SUCCESS) return s;
    if (out.width() != coarse.width || out.height() != coarse.height) return VX_ERROR_INVALID_PARAMETERS;
    const bool direct = !is_s16(output_image) && packed(out, 1);
    if (!vision::laplacian_level(fine, direct ? plane(out) : coarse, laplacian, replicate)) return VX_ERROR_INVALID_PARAMETERS;
    if (!direct) {
      for (vx_uint32 y = 0; y < coarse.height; ++y) unstage_row(vision::pixels_of(vision::ConstPlane(coarse)), y, out, is_s16(output_image));
    }
  }
  return VX_SUCCESS;
}

/// The format an output of U8 or S16 gets: the one it was made with when it is one of them (another is
/// refused by output_image), U8 when left open.
vx_df_image u8_or_s16_output(vx_reference parameter) noexcept {
  if (!valid_handle(parameter, VX_TYPE_IMAGE)) return VX_DF_IMAGE_U8;
  const vx_df_image declared = as<_vx_image>(parameter)->declared_format;
  return declared == VX_DF_IMAGE_S16 ? static_cast<vx_df_image>(VX_DF_IMAGE_S16) : static_cast<vx_df_image>(VX_DF_IMAGE_U8);
}

vx_status VX_CALLBACK laplacian_pyramid_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_PYRAMID) || metas[1] == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "laplacian is not a pyramid");
  const auto* pyramid = as<_vx_pyramid>(parameters[1]);
  if (pyramid->scale != VX_SCALE_PYRAMID_HALF) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "laplacian has scale %g, only VX_SCALE_PYRAMID_HALF is supported",
                  static_cast<double>(pyramid->scale));
  }
  if ((pyramid->width != 0 && pyramid->width != input->width) || (pyramid->height != 0 && pyramid->height != input->height)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "laplacian's level 0 is %ux%u but input is %ux%u: they must be the same size",
                  pyramid->width, pyramid->height, input->width, input->height);
  }
  if (pyramid->format != VX_DF_IMAGE_VIRT && pyramid->format != VX_DF_IMAGE_S16) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "laplacian has format %s, only S16 is supported", format_name(pyramid->format));
  }
  vx_uint32 w = input->width, h = input->height;
  halved(pyramid->levels, w, h);
  if (const vx_status s = output_image(node, parameters, 2, "output", w, h, u8_or_s16_output(parameters[2]), metas[2]); s != VX_SUCCESS) return s;
  as<_vx_meta_format>(metas[1])->levels = pyramid->levels;
  as<_vx_meta_format>(metas[1])->scale = pyramid->scale;
  as<_vx_meta_format>(metas[1])->image_width = input->width;
  as<_vx_meta_format>(metas[1])->image_height = input->height;
  as<_vx_meta_format>(metas[1])->image_format = VX_DF_IMAGE_S16;
  as<_vx_node>(node)->local_data_size =
      laplacian_pyramid_memory(input->width, input->height, pyramid->levels, packed_when_validated(input, 1)).total();
  return VX_SUCCESS;
}

/// LaplacianReconstruct's local data: two planes of level 1's size (none for one level), then the input as
/// packed U8 when it is not that already, then one output row when the output's pixels are spaced.
struct LaplacianReconstructMemory {
  std::size_t level_plane = 0, planes = 0, input_copy = 0, output_row = 0;
  std::size_t total() const noexcept { return planes * level_plane + input_copy + output_row; }
};
LaplacianReconstructMemory laplacian_reconstruct_memory(vx_uint32 width, vx_uint32 height, vx_size levels, bool input_u8_packed,
                                                        bool output_packed, bool output_s16) noexcept {
  vx_uint32 w1 = width, h1 = height, wl = width, hl = height;
  halved(1, w1, h1);
  halved(levels, wl, hl);
  return {plane_bytes(w1, h1), levels > 1 ? std::size_t{2} : std::size_t{0}, input_u8_packed ? 0 : plane_bytes(wl, hl),
          output_packed ? 0 : std::size_t{width} * (output_s16 ? 2 : 1)};
}

// LaplacianReconstruct: laplacian, an S16 pyramid of L levels (scale HALF); input U8 or S16, of the size
// level L would have; output U8 or S16 of level 0's size. I_L = input, I_i = expand(I_{i+1}) + laplacian
// level i, I_1 .. I_{L-1} kept as U8 in the two local planes, alternately (the next expansion takes them
// saturated to 0..255, as the conformance reference does, so an S16 input is saturated to U8 first), I_0
// saturated to the output's format; an output with spaced pixels is written a row at a time through the
// local row (the library's rows a zero stride apart).
vx_status VX_CALLBACK laplacian_reconstruct_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3 || !valid_handle(parameters[0], VX_TYPE_PYRAMID)) return VX_ERROR_INVALID_PARAMETERS;
  const auto* pyramid = as<_vx_pyramid>(parameters[0]);
  const std::size_t levels = pyramid->images.size();
  if (levels == 0) return VX_ERROR_INVALID_PARAMETERS;
  const vision::Border replicate{};
  const vx_image input_image = image_at(parameters, 1), output_image = image_at(parameters, 2);
  const bool input_s16 = is_s16(input_image), output_s16 = is_s16(output_image);
  const MappedImage input(input_image, VX_READ_ONLY);
  if (const vx_status s = input.status(); s != VX_SUCCESS) return s;
  const bool input_direct = !input_s16 && packed(input, 1);
  const bool output_packed = packed_when_validated(as<_vx_image>(output_image), output_s16 ? 2 : 1);
  const LaplacianReconstructMemory memory = laplacian_reconstruct_memory(pyramid->images[0]->width, pyramid->images[0]->height, levels,
                                                                         input_direct, output_packed, output_s16);
  vx_uint8* local = local_data_of(node, memory.total());
  if (local == nullptr && memory.total() > 0) return VX_ERROR_NO_MEMORY;
  vision::ConstPlane coarse = const_plane(input);
  if (!input_direct) {
    const vision::Plane copy = packed_plane(local + memory.planes * memory.level_plane, input.width(), input.height());
    vision::Pixels source{};
    if (input_s16 && vision_pixels(input, VX_DF_IMAGE_S16, source)) {
      vision::convert_depth(source, vision::pixels_of(copy), 0, vision::Overflow::saturate);
    } else {
      stage_u8(input, input_s16, copy);
    }
    coarse = copy;
  }
  for (std::size_t l = levels; l-- > 0;) {
    const MappedImage detail(pyramid->images[l], VX_READ_ONLY);
    if (const vx_status s = detail.status(); s != VX_SUCCESS) return s;
    vision::Pixels laplacian{};
    if (!vision_pixels(detail, VX_DF_IMAGE_S16, laplacian)) return VX_ERROR_INVALID_PARAMETERS;  // a pyramid's levels are packed
    if (l > 0) {
      const vision::Plane finer = packed_plane(local + (l % 2) * memory.level_plane, laplacian.width, laplacian.height);
      if (!vision::laplacian_reconstruct_level(coarse, laplacian, vision::pixels_of(finer), replicate)) return VX_ERROR_INVALID_PARAMETERS;
      coarse = finer;
      continue;
    }
    const MappedImage out(output_image, VX_WRITE_ONLY);
    if (const vx_status s = out.status(); s != VX_SUCCESS) return s;
    vision::Pixels direct{};
    if (vision_pixels(out, output_s16 ? VX_DF_IMAGE_S16 : VX_DF_IMAGE_U8, direct)) {
      if (!vision::laplacian_reconstruct_level(coarse, laplacian, direct, replicate)) return VX_ERROR_INVALID_PARAMETERS;
      continue;
    }
    if (memory.output_row == 0) return VX_ERROR_NO_MEMORY;
    const vision::Pixels row{local + memory.planes * memory.level_plane + memory.input_copy, out.width(), out.height(), 0,
                             output_s16 ? vision::PixelType::s16 : vision::PixelType::u8};
    for (vx_uint32 y = 0; y < out.height(); ++y) {
      if (!vision::laplacian_reconstruct_level(coarse, laplacian, row, replicate, {y, y + 1})) return VX_ERROR_INVALID_PARAMETERS;
      unstage_row(row, y, out, output_s16);
    }
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK laplacian_reconstruct_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  if (!valid_handle(parameters[0], VX_TYPE_PYRAMID)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "laplacian is not a pyramid");
  const auto* pyramid = as<_vx_pyramid>(parameters[0]);
  if (pyramid->format == VX_DF_IMAGE_VIRT || pyramid->width == 0 || pyramid->height == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "laplacian is a virtual pyramid no node before this one produces (no size or format)");
  }
  if (pyramid->format != VX_DF_IMAGE_S16) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "laplacian has format %s, only S16 is supported", format_name(pyramid->format));
  }
  if (pyramid->scale != VX_SCALE_PYRAMID_HALF) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "laplacian has scale %g, only VX_SCALE_PYRAMID_HALF is supported",
                  static_cast<double>(pyramid->scale));
  }
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 1, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, only U8 and S16 are supported", format_name(input->format));
  }
  vx_uint32 w = pyramid->width, h = pyramid->height;
  halved(pyramid->levels, w, h);
  if (input->width != w || input->height != h) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "input is %ux%u but must be the size below the laplacian's last level: %ux%u",
                  input->width, input->height, w, h);
  }
  const vx_df_image output_format = u8_or_s16_output(parameters[2]);
  if (const vx_status s = output_image(node, parameters, 2, "output", pyramid->width, pyramid->height, output_format, metas[2]);
      s != VX_SUCCESS) {
    return s;
  }
  const bool output_s16 = output_format == VX_DF_IMAGE_S16;
  const bool output_packed = !valid_handle(parameters[2], VX_TYPE_IMAGE) || packed_when_validated(as<_vx_image>(parameters[2]), output_s16 ? 2 : 1);
  const bool input_u8_packed = input->format == VX_DF_IMAGE_U8 && packed_when_validated(input, 1);
  as<_vx_node>(node)->local_data_size =
      laplacian_reconstruct_memory(pyramid->width, pyramid->height, pyramid->levels, input_u8_packed, output_packed, output_s16).total();
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kPyramidKernels[] = {
    {VX_KERNEL_GAUSSIAN_PYRAMID, &gaussian_pyramid_function, &gaussian_pyramid_validate},
    {VX_KERNEL_HALFSCALE_GAUSSIAN, &half_scale_gaussian_function, &half_scale_gaussian_validate},
    {VX_KERNEL_LAPLACIAN_PYRAMID, &laplacian_pyramid_function, &laplacian_pyramid_validate},
    {VX_KERNEL_LAPLACIAN_RECONSTRUCT, &laplacian_reconstruct_function, &laplacian_reconstruct_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> pyramid_kernels() noexcept { return kPyramidKernels; }

}  // namespace vg::openvx
