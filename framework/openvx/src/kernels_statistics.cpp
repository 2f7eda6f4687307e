// The MeanStdDev standard kernel: mean and population standard deviation of a U8 image's pixels, as
// VX_TYPE_FLOAT32 scalars (standard_kernel_support.hpp).
#include <VX/vx.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "meta_format.hpp"
#include "scalar.hpp"
#include "standard_kernel_support.hpp"

namespace vg::openvx {
namespace {

/// An output scalar of MeanStdDev: VX_TYPE_FLOAT32, or a virtual scalar of open type that becomes one.
vx_status float32_output(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_meta_format meta) noexcept {
  if (!valid(parameters[index], VX_TYPE_SCALAR) || meta == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  const bool open = scalar->is_virtual && scalar->data_type == VX_TYPE_INVALID;
  if (!open && scalar->data_type != VX_TYPE_FLOAT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be VX_TYPE_FLOAT32", name,
                  static_cast<unsigned>(scalar->data_type));
  }
  meta->scalar_type = VX_TYPE_FLOAT32;
  return VX_SUCCESS;
}

}  // namespace

vx_status VX_CALLBACK mean_stddev_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, only U8 is supported", format_name(input->format));
  }
  if (const vx_status s = float32_output(node, parameters, 1, "mean", metas[1]); s != VX_SUCCESS) return s;
  if (parameters[2] == nullptr) return VX_SUCCESS;  // stddev is optional
  return float32_output(node, parameters, 2, "stddev", metas[2]);
}

/// An unsigned 128-bit integer from two 64-bit halves: 32-bit ARM has no __int128, and one code path for
/// every target keeps the exact arithmetic tested where the tests run.
struct Wide {
  std::uint64_t high = 0, low = 0;
  static Wide product(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + (lo_hi & 0xffffffffu);
    return {hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32), (middle << 32) | (lo_lo & 0xffffffffu)};
  }
  Wide operator-(const Wide& other) const noexcept {
    return {high - other.high - (low < other.low ? 1u : 0u), low - other.low};
  }
  double to_double() const noexcept { return std::ldexp(static_cast<double>(high), 64) + static_cast<double>(low); }
};

vx_status VX_CALLBACK mean_stddev_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage input(reinterpret_cast<vx_image>(parameters[0]), VX_READ_ONLY);
  if (input.status() != VX_SUCCESS) return input.status();
  // The sum and the sum of squares are integers and exact in 64 bits (at most 2^32 pixels of 255^2). The
  // variance's numerator, N * sum(p^2) - (sum p)^2 = N^2 * variance, is exact in 128 bits (Wide), so the only
  // roundings are the final conversions and divisions in double: far below a float's precision.
  std::uint64_t sum = 0, sum_of_squares = 0;
  const vx_uint32 width = input.width();
  const bool packed = input.stride_x() == 1;
  for (vx_uint32 y = 0; y < input.height(); ++y) {
    const vx_uint8* row = input.row(y);
    std::uint64_t row_sum = 0, row_squares = 0;
    if (packed) {
      for (vx_uint32 x = 0; x < width; ++x) {
        const std::uint32_t p = row[x];
        row_sum += p;
        row_squares += p * p;
      }
    } else {
      for (vx_uint32 x = 0; x < width; ++x) {
        const std::uint32_t p = row[static_cast<std::ptrdiff_t>(x) * input.stride_x()];
        row_sum += p;
        row_squares += p * p;
      }
    }
    sum += row_sum;
    sum_of_squares += row_squares;
  }
  const std::uint64_t count = static_cast<std::uint64_t>(width) * input.height();
  const double numerator = (Wide::product(count, sum_of_squares) - Wide::product(sum, sum)).to_double();
  const double n = static_cast<double>(count);
  vx_float32 mean = static_cast<vx_float32>(static_cast<double>(sum) / n);
  vx_float32 stddev = static_cast<vx_float32>(std::sqrt(numerator / n / n));
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &mean, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS && parameters[2] != nullptr) {
    s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &stddev, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  return s;
}

}  // namespace vg::openvx
