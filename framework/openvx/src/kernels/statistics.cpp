// The statistics standard kernels (standard_kernel_support.hpp): MeanStdDev (mean and population standard
// deviation of the pixels of a U8 or U1 image's valid region, as VX_TYPE_FLOAT32 scalars), IntegralImage, Histogram, EqualizeHist and
// MinMaxLoc.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "array.hpp"
#include "distribution.hpp"
#include "meta_format.hpp"
#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/lookup.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"

namespace vg::openvx {
namespace {

const char* type_name(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_FLOAT32: return "VX_TYPE_FLOAT32";
    case VX_TYPE_UINT8: return "VX_TYPE_UINT8";
    case VX_TYPE_INT16: return "VX_TYPE_INT16";
    case VX_TYPE_SIZE: return "VX_TYPE_SIZE";
    default: return "another type";
  }
}

/// An output scalar of type @p type, or a virtual scalar of open type that becomes one.
vx_status scalar_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type,
                        vx_meta_format meta) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR) || meta == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  const bool open = scalar->is_virtual && scalar->data_type == VX_TYPE_INVALID;
  if (!open && scalar->data_type != type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be %s", name,
                  static_cast<unsigned>(scalar->data_type), type_name(type));
  }
  as<_vx_meta_format>(meta)->scalar_type = type;
  return VX_SUCCESS;
}

/// An output scalar of MeanStdDev: VX_TYPE_FLOAT32, or a virtual scalar of open type that becomes one.
vx_status float32_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_meta_format meta) noexcept {
  return scalar_output(node, parameters, index, name, VX_TYPE_FLOAT32, meta);
}

}  // namespace

vx_status VX_CALLBACK mean_stddev_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8 && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or U1", format_name(input->format));
  }
  if (const vx_status s = float32_output(node, parameters, 1, "mean", metas[1]); s != VX_SUCCESS) return s;
  if (parameters[2] == nullptr) return VX_SUCCESS;  // stddev is optional
  return float32_output(node, parameters, 2, "stddev", metas[2]);
}

vx_status VX_CALLBACK mean_stddev_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const auto image = reinterpret_cast<vx_image>(parameters[0]);
  const MappedImage input(image, VX_READ_ONLY);
  if (input.status() != VX_SUCCESS) return input.status();
  // Over the input's valid region (the conformance suite shrinks it and compares against those pixels).
  vx_rectangle_t rect{0, 0, input.width(), input.height()};
  if (vxGetValidRegionImage(image, &rect) != VX_SUCCESS || rect.end_x > input.width() || rect.end_y > input.height() ||
      rect.start_x >= rect.end_x || rect.start_y >= rect.end_y) {
    rect = vx_rectangle_t{0, 0, input.width(), input.height()};
  }
  const bool u1 = as<_vx_image>(image)->format == VX_DF_IMAGE_U1;
  // The sum and the sum of squares are integers and exact in 64 bits (at most 2^32 pixels of 255^2). The
  // variance's numerator, N * sum(p^2) - (sum p)^2 = N^2 * variance, is exact in 128 bits (vision::mean_stddev), so the only
  // roundings are the final conversions and divisions in double: far below a float's precision.
  std::uint64_t sum = 0, sum_of_squares = 0;
  const bool packed = input.stride_x() == 1;
  vx_uint32 rows_left_to_loop = rect.end_y;
  if (packed && !u1) {  // the vision library's vectorised sums (the same integers)
    const vision::PixelSums sums = vision::pixel_sums(
        {input.row(rect.start_y) + rect.start_x, rect.end_x - rect.start_x, rect.end_y - rect.start_y, input.addressing().stride_y});
    sum = sums.sum;
    sum_of_squares = sums.squares;
    rows_left_to_loop = rect.start_y;  // nothing left for the loop below
  }
  for (vx_uint32 y = rect.start_y; y < rows_left_to_loop; ++y) {
    const vx_uint8* row = input.row(y);
    std::uint64_t row_sum = 0, row_squares = 0;
    if (u1) {
      // Pixels are 0 or 1: the sum of squares is the sum.
      for (vx_uint32 x = rect.start_x; x < rect.end_x; ++x) row_sum += (row[x / 8] >> (x % 8)) & 1u;
      row_squares = row_sum;
    } else if (packed) {
      for (vx_uint32 x = rect.start_x; x < rect.end_x; ++x) {
        const std::uint32_t p = row[x];
        row_sum += p;
        row_squares += p * p;
      }
    } else {
      for (vx_uint32 x = rect.start_x; x < rect.end_x; ++x) {
        const std::uint32_t p = row[static_cast<std::ptrdiff_t>(x) * input.stride_x()];
        row_sum += p;
        row_squares += p * p;
      }
    }
    sum += row_sum;
    sum_of_squares += row_squares;
  }
  const std::uint64_t count = static_cast<std::uint64_t>(rect.end_x - rect.start_x) * (rect.end_y - rect.start_y);
  const vision::MeanStdDev result = vision::mean_stddev({sum, sum_of_squares}, count);
  vx_float32 mean = result.mean;
  vx_float32 stddev = result.stddev;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &mean, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS && parameters[2] != nullptr) {
    s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &stddev, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  return s;
}

// --- IntegralImage ---------------------------------------------------------------------------------------

namespace {

vx_status VX_CALLBACK integral_image_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 1, "output", input->width, input->height, VX_DF_IMAGE_U32, metas[1]);
}

/// out(x, y) = sum of in(x', y') over x' <= x, y' <= y, modulo 2^32 (the U32 arithmetic of the output).
vx_status VX_CALLBACK integral_image_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  // The row above is read back from the output: no buffer per frame.
  const MappedImage out(image_at(parameters, 1), VX_READ_AND_WRITE);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const vx_uint32 width = out.width();
  const std::ptrdiff_t in_step = in.stride_x(), out_step = out.stride_x();
  if (packed(in, 1) && packed(out, 4) && out.addressing().stride_y % 4 == 0 &&
      reinterpret_cast<std::uintptr_t>(out.row(0)) % alignof(vx_uint32) == 0) {
    vision::integral(const_plane(in), {reinterpret_cast<std::uint32_t*>(out.row(0)), width, out.height(), out.addressing().stride_y});
    return VX_SUCCESS;
  }
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    const vx_uint8* above = y > 0 ? out.row(y - 1) : nullptr;
    vx_uint32 row_sum = 0;
    for (vx_uint32 x = 0; x < width; ++x) {
      row_sum += a[x * in_step];
      const vx_uint32 up = above != nullptr ? load<vx_uint32>(above + x * out_step) : 0u;
      store<vx_uint32>(o + x * out_step, row_sum + up);
    }
  }
  return VX_SUCCESS;
}

// --- Histogram ----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK histogram_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_DISTRIBUTION) || metas[1] == nullptr) {
    return refuse(node, VX_ERROR_INVALID_REFERENCE, "distribution is not a distribution");
  }
  // The bins, offset and range are the application's choice: the output is described as it is. A virtual
  // distribution left open has nothing the kernel could choose.
  const auto* distribution = as<_vx_distribution>(parameters[1]);
  const vx_size bins = distribution->is_virtual ? distribution->requested_bins : distribution->bins;
  const vx_uint32 range = distribution->is_virtual ? distribution->requested_range : distribution->range;
  if (bins == 0 || range == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS,
                  "distribution is a virtual distribution with no bins or range: the histogram cannot choose them");
  }
  as<_vx_meta_format>(metas[1])->bins = bins;
  as<_vx_meta_format>(metas[1])->range = range;
  as<_vx_meta_format>(metas[1])->offset = distribution->offset;
  return VX_SUCCESS;
}

/// counts[v] = how many pixels of @p in equal v: the vision library's sub-histograms when the pixels are
/// packed, one counter per value otherwise.
void value_counts(const MappedImage& in, std::uint64_t (&counts)[256]) noexcept {
  if (packed(in, 1)) {
    vision::value_counts(const_plane(in), counts);
    return;
  }
  std::fill(std::begin(counts), std::end(counts), std::uint64_t{0});
  const std::ptrdiff_t step = in.stride_x();
  for (vx_uint32 y = 0; y < in.height(); ++y) {
    const vx_uint8* row = in.row(y);
    for (vx_uint32 x = 0; x < in.width(); ++x) ++counts[row[x * step]];
  }
}

/// Counts the U8 values first (256 counters on the stack), then adds each value's count to its bin,
/// (value - offset) * bins / range, for the values in [offset, offset + range).
vx_status VX_CALLBACK histogram_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  auto distribution = reinterpret_cast<vx_distribution>(parameters[1]);
  vx_size bins = 0;
  vx_int32 offset = 0;
  vx_uint32 range = 0;
  vx_status s = vxQueryDistribution(distribution, VX_DISTRIBUTION_BINS, &bins, sizeof bins);
  if (s == VX_SUCCESS) s = vxQueryDistribution(distribution, VX_DISTRIBUTION_OFFSET, &offset, sizeof offset);
  if (s == VX_SUCCESS) s = vxQueryDistribution(distribution, VX_DISTRIBUTION_RANGE, &range, sizeof range);
  if (s != VX_SUCCESS) return s;
  if (bins == 0 || range == 0) return VX_ERROR_INVALID_PARAMETERS;

  std::uint64_t counts[256];
  value_counts(in, counts);
  vx_map_id map_id = 0;
  void* base = nullptr;
  s = vxMapDistribution(distribution, &map_id, &base, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0);
  if (s != VX_SUCCESS) return s;
  // The distribution's memory holds bins vx_int32 counters: counted as uint32 (the same bits), modulo 2^32.
  static_assert(sizeof(vx_int32) == sizeof(std::uint32_t));
  vision::bin_counts(counts, offset, range, bins, static_cast<std::uint32_t*>(base));
  return vxUnmapDistribution(distribution, map_id);
}

// --- EqualizeHist -----------------------------------------------------------------------------------------

vx_status VX_CALLBACK equalize_hist_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 1, "output", input->width, input->height, VX_DF_IMAGE_U8, metas[1]);
}

/// The vision library's equalization table (histogram.hpp: what the conformance tests compute) applied to
/// the image.
vx_status VX_CALLBACK equalize_hist_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  std::uint64_t counts[256];
  value_counts(in, counts);
  vx_uint8 lut[256];
  vision::equalization_table(counts, lut);
  if (packed(in, 1) && packed(out, 1)) {
    vision::lookup(const_plane(in), plane(out), lut);
  } else {
    for_each_pixel<vx_uint8, vx_uint8>(in, out, [&lut](vx_uint8 a) { return lut[a]; });
  }
  return VX_SUCCESS;
}

// --- MinMaxLoc --------------------------------------------------------------------------------------------

/// An optional output array of VX_TYPE_COORDINATES2D; a virtual array of open capacity gets room for every
/// pixel (@p pixels).
vx_status coordinates_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_size pixels,
                             vx_meta_format meta) noexcept {
  if (parameters[index] == nullptr) return VX_SUCCESS;
  if (!valid_handle(parameters[index], VX_TYPE_ARRAY) || meta == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an array", name);
  const auto* array = as<_vx_array>(parameters[index]);
  if (!array->type_open && array->item_type != VX_TYPE_COORDINATES2D) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is an array of items of type 0x%x, it must hold VX_TYPE_COORDINATES2D", name,
                  static_cast<unsigned>(array->item_type));
  }
  as<_vx_meta_format>(meta)->item_type = VX_TYPE_COORDINATES2D;
  as<_vx_meta_format>(meta)->capacity = array->capacity_open ? pixels : array->capacity;
  return VX_SUCCESS;
}

/// MinMaxLoc's minCount and maxCount: VX_TYPE_SIZE as the specification has it, or VX_TYPE_UINT32 as the
/// conformance suite passes them (the suite decides); a virtual scalar of open type becomes VX_TYPE_SIZE.
vx_status count_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name,
                       vx_meta_format meta) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR) || meta == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type == VX_TYPE_UINT32) {
    as<_vx_meta_format>(meta)->scalar_type = VX_TYPE_UINT32;
    return VX_SUCCESS;
  }
  if (!(scalar->is_virtual && scalar->data_type == VX_TYPE_INVALID) && scalar->data_type != VX_TYPE_SIZE) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be VX_TYPE_SIZE or VX_TYPE_UINT32", name,
                  static_cast<unsigned>(scalar->data_type));
  }
  as<_vx_meta_format>(meta)->scalar_type = VX_TYPE_SIZE;
  return VX_SUCCESS;
}

vx_status VX_CALLBACK min_max_loc_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 7) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 7 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, only U8 and S16 are supported", format_name(input->format));
  }
  const vx_enum value_type = input->format == VX_DF_IMAGE_U8 ? VX_TYPE_UINT8 : VX_TYPE_INT16;
  if (const vx_status s = scalar_output(node, parameters, 1, "minVal", value_type, metas[1]); s != VX_SUCCESS) return s;
  if (const vx_status s = scalar_output(node, parameters, 2, "maxVal", value_type, metas[2]); s != VX_SUCCESS) return s;
  const vx_size pixels = static_cast<vx_size>(input->width) * input->height;
  if (const vx_status s = coordinates_output(node, parameters, 3, "minLoc", pixels, metas[3]); s != VX_SUCCESS) return s;
  if (const vx_status s = coordinates_output(node, parameters, 4, "maxLoc", pixels, metas[4]); s != VX_SUCCESS) return s;
  if (parameters[5] != nullptr) {
    if (const vx_status s = count_output(node, parameters, 5, "minCount", metas[5]); s != VX_SUCCESS) return s;
  }
  if (parameters[6] != nullptr) {
    if (const vx_status s = count_output(node, parameters, 6, "maxCount", metas[6]); s != VX_SUCCESS) return s;
  }
  return VX_SUCCESS;
}

/// Writes @p count into a count scalar of either type count_output accepts.
vx_status write_count(vx_reference scalar, vx_size count) noexcept {
  if (!valid_handle(scalar, VX_TYPE_SCALAR)) return VX_ERROR_INVALID_REFERENCE;
  if (as<_vx_scalar>(scalar)->data_type == VX_TYPE_UINT32) {
    vx_uint32 narrow = count > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<vx_uint32>(count);
    return vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), &narrow, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  return vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), &count, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

template <typename T>
vx_status min_max_loc(const MappedImage& in, const vx_reference* parameters) noexcept {
  const std::ptrdiff_t step = in.stride_x();
  const vx_uint32 width = in.width(), height = in.height();
  T lowest = load<T>(in.row(0)), highest = lowest;
  vx_size low_count = 0, high_count = 0;
  for (vx_uint32 y = 0; y < height; ++y) {
    const vx_uint8* row = in.row(y);
    for (vx_uint32 x = 0; x < width; ++x) {
      const T v = load<T>(row + x * step);
      if (v < lowest) {
        lowest = v;
        low_count = 0;
      }
      if (v > highest) {
        highest = v;
        high_count = 0;
      }
      low_count += v == lowest ? 1u : 0u;
      high_count += v == highest ? 1u : 0u;
    }
  }
  // The extrema's locations in raster order, up to each array's capacity.
  BoundedArrayFill<vx_coordinates2d_t> low_locations(reinterpret_cast<vx_array>(parameters[3]));
  BoundedArrayFill<vx_coordinates2d_t> high_locations(reinterpret_cast<vx_array>(parameters[4]));
  for (vx_uint32 y = 0; y < height && (low_locations.has_room() || high_locations.has_room()); ++y) {
    const vx_uint8* row = in.row(y);
    for (vx_uint32 x = 0; x < width; ++x) {
      const T v = load<T>(row + x * step);
      if (v == lowest && low_locations.has_room()) low_locations.add(vx_coordinates2d_t{x, y});
      if (v == highest && high_locations.has_room()) high_locations.add(vx_coordinates2d_t{x, y});
    }
  }
  vx_status s = low_locations.finish();
  if (const vx_status h = high_locations.finish(); s == VX_SUCCESS) s = h;
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &lowest, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &highest, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS && parameters[5] != nullptr) s = write_count(parameters[5], low_count);
  if (s == VX_SUCCESS && parameters[6] != nullptr) s = write_count(parameters[6], high_count);
  return s;
}

/// The locations of @p value (raster order, up to the array's capacity) found by the vision library, handed to
/// the array 64 at a time.
vx_status write_locations(const vision::ConstPixels& pixels, std::int32_t value, vx_reference array) noexcept {
  BoundedArrayFill<vx_coordinates2d_t> fill(reinterpret_cast<vx_array>(array));
  vision::PixelPosition batch[64];
  vision::PixelPosition from{};
  while (fill.has_room()) {
    const std::size_t n = vision::locate(pixels, value, batch, 64, from);
    for (std::size_t i = 0; i < n && fill.has_room(); ++i) fill.add(vx_coordinates2d_t{batch[i].x, batch[i].y});
    if (n < 64) break;
    from = {batch[n - 1].x + 1, batch[n - 1].y};
  }
  return fill.finish();
}

/// MinMaxLoc on packed U8 or S16 pixels: the vision library's vectorised extrema, counts and locations.
template <typename T>
vx_status min_max_loc_vision(const vision::ConstPixels& pixels, const vx_reference* parameters) noexcept {
  const vision::Extrema e = vision::extrema(pixels);
  T lowest = static_cast<T>(e.min), highest = static_cast<T>(e.max);
  vx_status s = VX_SUCCESS;
  if (parameters[3] != nullptr) s = write_locations(pixels, e.min, parameters[3]);
  if (parameters[4] != nullptr) {
    const vx_status h = write_locations(pixels, e.max, parameters[4]);
    if (s == VX_SUCCESS) s = h;
  }
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &lowest, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &highest, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS && parameters[5] != nullptr) s = write_count(parameters[5], e.min_count);
  if (s == VX_SUCCESS && parameters[6] != nullptr) s = write_count(parameters[6], e.max_count);
  return s;
}

vx_status VX_CALLBACK min_max_loc_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 7) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  if (in.width() == 0 || in.height() == 0) return VX_ERROR_INVALID_PARAMETERS;
  vx_df_image format = VX_DF_IMAGE_VIRT;
  if (const vx_status s = vxQueryImage(image_at(parameters, 0), VX_IMAGE_FORMAT, &format, sizeof format); s != VX_SUCCESS) return s;
  vision::Pixels pixels;
  if (vision_pixels(in, format, pixels))
    return format == VX_DF_IMAGE_U8 ? min_max_loc_vision<vx_uint8>(pixels, parameters) : min_max_loc_vision<vx_int16>(pixels, parameters);
  if (format == VX_DF_IMAGE_U8) return min_max_loc<vx_uint8>(in, parameters);
  if (format == VX_DF_IMAGE_S16) return min_max_loc<vx_int16>(in, parameters);
  return VX_ERROR_INVALID_FORMAT;
}

constexpr StandardKernelFunctions kStatisticsKernels[] = {
    {VX_KERNEL_INTEGRAL_IMAGE, &integral_image_function, &integral_image_validate},
    {VX_KERNEL_HISTOGRAM, &histogram_function, &histogram_validate},
    {VX_KERNEL_EQUALIZE_HISTOGRAM, &equalize_hist_function, &equalize_hist_validate},
    {VX_KERNEL_MINMAXLOC, &min_max_loc_function, &min_max_loc_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> statistics_kernels() noexcept { return kStatisticsKernels; }

}  // namespace vg::openvx
