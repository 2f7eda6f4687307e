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
// NonLinearFilter (OpenVX 1.3): function MEDIAN, MIN or MAX (a VX_TYPE_ENUM scalar) over the input pixels
// the mask selects (a VX_TYPE_UINT8 vx_matrix, non-zero entries select, odd sizes up to
// VX_CONTEXT_NONLINEAR_MAX_DIMENSION = 9, placed by its VX_MATRIX_ORIGIN: mask entry (r, c) reads input
// (x + c - origin.x, y + r - origin.y)). The median of n selected values is the value at index n / 2 of
// them sorted ascending (the Khronos sample implementation and conformance reference: the upper median
// for an even n). U8 in, U8 out of its size, under the node's border as the 3x3 filters.
//
// U1 forms (OpenVX 1.3): Dilate3x3, Erode3x3, Median3x3 and NonLinearFilter also take a U1 image and make
// a U1 image, the same operations on pixel values 0 and 1 (a CONSTANT border reads constant_value.U1:
// any value but vx_false_e is 1). Their pixels are read one bit at a time, the border applied on each read;
// the output's bits past its width are left as they were.
//
// U8 images with packed rows run the vision library's vectorised filters (kernels/vision, shared with the
// vg.vision kernels); NonLinearFilter hands it the mask centred in a window of up to 15x15 (its origin may
// lie off the centre). For the rest, the 3x3 filters walk the image as neighbourhood.hpp does (an interior
// loop without border checks, the one-pixel frame done separately), NonLinearFilter runs the library's
// per-pixel definition (non_linear_value). The valid region is neighbourhood.hpp's, shared with Sobel3x3
// and Convolve. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "graph.hpp"
#include "matrix.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/non_linear_filter.hpp"

namespace vg::openvx {
namespace {

// --- the operations, on the 9 values of a neighbourhood in row order (v[4] is the centre) ---------------

struct DilateOp {
  static constexpr vision::Filter3x3 kVision = vision::Filter3x3::dilate;
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    vx_uint8 m = v[0];
    for (int i = 1; i < 9; ++i) m = std::max(m, v[i]);
    return m;
  }
};

struct ErodeOp {
  static constexpr vision::Filter3x3 kVision = vision::Filter3x3::erode;
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    vx_uint8 m = v[0];
    for (int i = 1; i < 9; ++i) m = std::min(m, v[i]);
    return m;
  }
};

struct MedianOp {
  static constexpr vision::Filter3x3 kVision = vision::Filter3x3::median;
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
  static constexpr vision::Filter3x3 kVision = vision::Filter3x3::box;
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    unsigned sum = 0;
    for (int i = 0; i < 9; ++i) sum += v[i];
    return static_cast<vx_uint8>(sum / 9u);  // at most 2295 / 9 = 255
  }
};

struct GaussianOp {
  static constexpr vision::Filter3x3 kVision = vision::Filter3x3::gaussian;
  static vx_uint8 apply(const vx_uint8 (&v)[9]) noexcept {
    const unsigned corners = unsigned{v[0]} + v[2] + v[6] + v[8];
    const unsigned edges = unsigned{v[1]} + v[3] + v[5] + v[7];
    return static_cast<vx_uint8>((corners + 2u * edges + 4u * v[4]) >> 4);  // at most 4080 >> 4 = 255
  }
};

// --- U1 images --------------------------------------------------------------------------------------------

/// Reads pixels (0 or 1) of a U1 image at any (x, y): outside the image the border's constant (CONSTANT) or
/// the nearest edge pixel (REPLICATE, and UNDEFINED as the U8 walk computes it).
struct U1Reader {
  const MappedImage& in;
  int width, height;
  bool constant_border;
  vx_uint8 constant;

  U1Reader(const MappedImage& image, const vx_border_t& border) noexcept
      : in(image),
        width(static_cast<int>(image.width())),
        height(static_cast<int>(image.height())),
        constant_border(border.mode == VX_BORDER_CONSTANT),
        constant(border.constant_value.U1 != vx_false_e ? 1 : 0) {}

  vx_uint8 operator()(int x, int y) const noexcept {
    if (x < 0 || y < 0 || x >= width || y >= height) {
      if (constant_border) return constant;
      x = std::clamp(x, 0, width - 1);
      y = std::clamp(y, 0, height - 1);
    }
    return static_cast<vx_uint8>((in.row(static_cast<vx_uint32>(y))[x / 8] >> (x % 8)) & 1);
  }
};

/// U1 out(x, y) = pixel(x, y) (0 or 1) for every pixel, eight to a stored byte.
template <typename Pixel>
void for_each_u1_output(const MappedImage& out, Pixel pixel) noexcept {
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < width; x += 8) {
      const vx_uint32 n = std::min<vx_uint32>(8, width - x);
      unsigned bits = 0;
      for (vx_uint32 b = 0; b < n; ++b) bits |= static_cast<unsigned>(pixel(x + b, y) & 1) << b;
      store_u1_bits(o + x / 8, static_cast<vx_uint8>(bits), u1_last_mask(n));
    }
  }
}

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
  if (as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_U1) {
    const U1Reader p(in, border);
    for_each_u1_output(out, [&](vx_uint32 ux, vx_uint32 uy) {
      const int x = static_cast<int>(ux), y = static_cast<int>(uy);
      const vx_uint8 v[9] = {p(x - 1, y - 1), p(x, y - 1), p(x + 1, y - 1), p(x - 1, y), p(x, y),
                             p(x + 1, y),     p(x - 1, y + 1), p(x, y + 1), p(x + 1, y + 1)};
      return Op::apply(v);
    });
    return VX_SUCCESS;
  }
  const std::ptrdiff_t so = out.stride_x();
  if (in.stride_x() == 1 && so == 1) {
    // Packed rows (every image but a strided patch of one from a handle): the vision library's vectorised
    // filter, the same one the vg.vision kernels run.
    vision::filter3x3(Op::kVision, const_plane(in), plane(out), vision_border(border));
    return VX_SUCCESS;
  }
  for_each_neighbourhood<vx_uint8>(in, 1, 1, border, [&](const auto& w, vx_uint32 x, vx_uint32 y) {
    const vx_uint8 v[9] = {w(0, 0), w(0, 1), w(0, 2), w(1, 0), w(1, 1), w(1, 2), w(2, 0), w(2, 1), w(2, 2)};
    out.row(y)[static_cast<std::ptrdiff_t>(x) * so] = Op::apply(v);
  });
  return VX_SUCCESS;
}

/// An input of a filter: a U8 image, or a U1 image where the kernel has a U1 form (@p takes_u1).
vx_status filter_input(vx_node node, const vx_reference parameters[], vx_uint32 index, bool takes_u1, const _vx_image*& input) noexcept {
  if (!takes_u1) return u8_input(node, parameters, index, "input", input);
  if (const vx_status s = input_image(node, parameters, index, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8 && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or U1", format_name(input->format));
  }
  return VX_SUCCESS;
}

/// All five: an input (U8; U1 too for Dilate, Erode and Median: @p TakesU1), an output of its size and
/// format, and a border mode these kernels support.
template <bool TakesU1>
vx_status VX_CALLBACK filter_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = filter_input(node, parameters, 0, TakesU1, input); s != VX_SUCCESS) return s;
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  if (const vx_status s = output_image(node, parameters, 1, "output", input->width, input->height, input->format, metas[1]);
      s != VX_SUCCESS) {
    return s;
  }
  // The valid region: the input's less one pixel per side under UNDEFINED (neighbourhood.hpp).
  const vx_kernel_image_valid_rectangle_f callback = &fixed_neighbourhood_valid_rectangle<1, 1>;
  return vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

// --- NonLinearFilter ------------------------------------------------------------------------------------

constexpr vx_size kMaxNonLinearDimension = 9;  // VX_CONTEXT_NONLINEAR_MAX_DIMENSION

/// The window a mask needs: the radii that put every mask entry, placed by the origin, inside a window
/// centred on the output pixel; false when it does not fit kMaxNeighbourhood.
bool mask_radii(const _vx_matrix* mask, vx_uint32& radius_x, vx_uint32& radius_y) noexcept {
  const vx_size ox = mask->origin.x, oy = mask->origin.y;
  radius_x = static_cast<vx_uint32>(std::max(ox, mask->columns - 1 - ox));
  radius_y = static_cast<vx_uint32>(std::max(oy, mask->rows - 1 - oy));
  return 2 * radius_x + 1 <= static_cast<vx_uint32>(kMaxNeighbourhood) && 2 * radius_y + 1 <= static_cast<vx_uint32>(kMaxNeighbourhood);
}

vx_status VX_CALLBACK non_linear_filter_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum function = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &function, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (function != VX_NONLINEAR_FILTER_MEDIAN && function != VX_NONLINEAR_FILTER_MIN && function != VX_NONLINEAR_FILTER_MAX) {
    return VX_ERROR_INVALID_VALUE;
  }
  const auto* mask = as<const _vx_matrix>(parameters[2]);
  if (mask->data_type != VX_TYPE_UINT8 || mask->rows == 0 || mask->columns == 0 || mask->rows > kMaxNonLinearDimension ||
      mask->columns > kMaxNonLinearDimension || mask->origin.x >= mask->columns || mask->origin.y >= mask->rows ||
      !mask->data.allocated() || mask->data.size() < mask->rows * mask->columns) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_uint32 radius_x = 0, radius_y = 0;
  if (!mask_radii(mask, radius_x, radius_y)) return VX_ERROR_INVALID_PARAMETERS;
  // The mask centred in the window (2 * radius_x + 1) x (2 * radius_y + 1): entry (r, c) moves to
  // (r + radius_y - origin.y, c + radius_x - origin.x), the rest of the window unselected.
  const vx_uint32 window_columns = 2 * radius_x + 1, window_rows = 2 * radius_y + 1;
  vx_uint8 window[kMaxNeighbourhood * kMaxNeighbourhood] = {};
  vx_uint32 count = 0;
  for (vx_size r = 0; r < mask->rows; ++r) {
    for (vx_size c = 0; c < mask->columns; ++c) {
      if (mask->data.data()[r * mask->columns + c] == 0) continue;
      window[(r + radius_y - mask->origin.y) * window_columns + (c + radius_x - mask->origin.x)] = 1;
      ++count;
    }
  }
  if (count == 0) return VX_ERROR_INVALID_PARAMETERS;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (in.width() != out.width() || in.height() != out.height()) return VX_ERROR_INVALID_PARAMETERS;  // validate allows no other
  if (as<_vx_image>(parameters[1])->format == VX_DF_IMAGE_U1) {
    // Pixels are 0 or 1: MIN is 1 when every selected pixel is, MAX when any is, MEDIAN (the value at
    // index count / 2 of the sorted values) when at most count / 2 of them are 0.
    const U1Reader p(in, border);
    const int left = static_cast<int>(radius_x), top = static_cast<int>(radius_y);
    for_each_u1_output(out, [&](vx_uint32 ux, vx_uint32 uy) {
      const int x = static_cast<int>(ux) - left, y = static_cast<int>(uy) - top;
      vx_uint32 ones = 0;
      for (vx_uint32 r = 0; r < window_rows; ++r) {
        for (vx_uint32 c = 0; c < window_columns; ++c) {
          if (window[r * window_columns + c] != 0) ones += p(x + static_cast<int>(c), y + static_cast<int>(r));
        }
      }
      if (function == VX_NONLINEAR_FILTER_MIN) return ones == count ? 1 : 0;
      if (function == VX_NONLINEAR_FILTER_MAX) return ones != 0 ? 1 : 0;
      return count - ones <= count / 2 ? 1 : 0;
    });
    return VX_SUCCESS;
  }
  const auto function_of = function == VX_NONLINEAR_FILTER_MIN   ? vision::NonLinearFunction::min
                           : function == VX_NONLINEAR_FILTER_MAX ? vision::NonLinearFunction::max
                                                                 : vision::NonLinearFunction::median;
  const auto columns = static_cast<int>(window_columns), rows = static_cast<int>(window_rows);
  if (in.stride_x() == 1 && out.stride_x() == 1) {
    // Packed rows: the vision library's vectorised filter, the one vg.vision.non_linear_filter runs.
    return vision::non_linear_filter(function_of, const_plane(in), plane(out), window, columns, rows, vision_border(border))
               ? VX_SUCCESS
               : VX_ERROR_INVALID_PARAMETERS;
  }
  // Pixels with gaps (a strided patch of an image from a handle): the library's definition one pixel at a
  // time, the border applied to each read.
  const int width = static_cast<int>(in.width()), height = static_cast<int>(in.height());
  const std::ptrdiff_t si = in.stride_x(), so = out.stride_x();
  const auto read = [&](int y, int x) -> vx_uint8 {
    if (border.mode == VX_BORDER_CONSTANT && (x < 0 || y < 0 || x >= width || y >= height)) return border.constant_value.U8;
    return in.row(static_cast<vx_uint32>(std::clamp(y, 0, height - 1)))[static_cast<std::ptrdiff_t>(std::clamp(x, 0, width - 1)) * si];
  };
  for (int y = 0; y < height; ++y) {
    vx_uint8* o = out.row(static_cast<vx_uint32>(y));
    for (int x = 0; x < width; ++x) o[static_cast<std::ptrdiff_t>(x) * so] = vision::non_linear_value(read, function_of, window, columns, rows, x, y);
  }
  return VX_SUCCESS;
}

/// The output's valid region: the input's less, on each side, the mask's reach there (origin.x to the
/// left, columns - 1 - origin.x to the right, ...), where neighbourhood_valid_rectangle would take a radius.
vx_status VX_CALLBACK non_linear_filter_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                                        vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto* mask = static_cast<const _vx_matrix*>(as<_vx_node>(node)->arguments[2]);  // the node's argument: an object
  // The mask reaches origin pixels left and above its pixel, the rest of its size right and below.
  const auto left = static_cast<vx_uint32>(mask->origin.x), top = static_cast<vx_uint32>(mask->origin.y);
  const auto right = static_cast<vx_uint32>(mask->columns - 1 - mask->origin.x), bottom = static_cast<vx_uint32>(mask->rows - 1 - mask->origin.y);
  *output_valid[0] = neighbourhood_valid_rectangle(border, *output_valid[0], *input_valid[0], left, top, right, bottom);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK non_linear_filter_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  vx_enum function = 0;
  if (const vx_status s = enum_parameter(node, parameters, 0, "function",
                                         {VX_NONLINEAR_FILTER_MEDIAN, VX_NONLINEAR_FILTER_MIN, VX_NONLINEAR_FILTER_MAX}, function);
      s != VX_SUCCESS) {
    return s;
  }
  const _vx_image* input = nullptr;
  if (const vx_status s = filter_input(node, parameters, 1, true, input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[2], VX_TYPE_MATRIX)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "mask is not a matrix");
  const auto* mask = as<const _vx_matrix>(parameters[2]);
  if (mask->data_type != VX_TYPE_UINT8) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "mask is a matrix of type 0x%x, it must be VX_TYPE_UINT8", static_cast<unsigned>(mask->data_type));
  }
  if (mask->rows == 0 || mask->columns == 0 || mask->rows > kMaxNonLinearDimension || mask->columns > kMaxNonLinearDimension ||
      mask->rows % 2 == 0 || mask->columns % 2 == 0) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "mask is %zux%zu (columns x rows), its sides must be odd and at most %zu",
                  static_cast<size_t>(mask->columns), static_cast<size_t>(mask->rows), static_cast<size_t>(kMaxNonLinearDimension));
  }
  vx_uint32 radius_x = 0, radius_y = 0;
  if (!mask_radii(mask, radius_x, radius_y)) {
    return refuse(node, VX_ERROR_NOT_SUPPORTED, "mask origin (%u, %u) is too far from its centre: the window would exceed %d pixels a side",
                  mask->origin.x, mask->origin.y, kMaxNeighbourhood);
  }
  if (mask->data.allocated()) {
    bool any = false;
    for (vx_size i = 0; i < mask->rows * mask->columns && !any; ++i) any = mask->data.data()[i] != 0;
    if (!any) return refuse(node, VX_ERROR_INVALID_VALUE, "mask selects no pixel (every entry is 0)");
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  if (const vx_status s = output_image(node, parameters, 3, "output", input->width, input->height, input->format, metas[3]); s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &non_linear_filter_valid_rectangle;
  return vxSetMetaFormatAttribute(metas[3], VX_VALID_RECT_CALLBACK, &callback, sizeof callback);
}

constexpr StandardKernelFunctions kFilterKernels[] = {
    {VX_KERNEL_DILATE_3x3, &filter_function<DilateOp>, &filter_validate<true>},
    {VX_KERNEL_ERODE_3x3, &filter_function<ErodeOp>, &filter_validate<true>},
    {VX_KERNEL_MEDIAN_3x3, &filter_function<MedianOp>, &filter_validate<true>},
    {VX_KERNEL_BOX_3x3, &filter_function<BoxOp>, &filter_validate<false>},
    {VX_KERNEL_GAUSSIAN_3x3, &filter_function<GaussianOp>, &filter_validate<false>},
    {VX_KERNEL_NON_LINEAR_FILTER, &non_linear_filter_function, &non_linear_filter_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> filter_kernels() noexcept { return kFilterKernels; }

}  // namespace vg::openvx
