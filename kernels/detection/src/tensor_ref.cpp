#include "visiongraph/kernels/detection/tensor_ref.hpp"

#include <cmath>
#include <limits>

namespace vg::detection {

std::int32_t quantize_threshold(float threshold, float scale, std::int32_t zero_point) noexcept {
  // Work in double and fix up the rounding with exact float checks, so that q >= result is exactly
  // (q - zp) * scale >= threshold as evaluated in float by the dequantizing code.
  constexpr double kLimit = 1 << 20;  // far outside any 8/16-bit range; keeps the int conversion defined
  double q = std::ceil(static_cast<double>(threshold) / scale + zero_point);
  if (!(q > -kLimit)) return static_cast<std::int32_t>(-kLimit);
  if (q > kLimit) return static_cast<std::int32_t>(kLimit);
  auto qi = static_cast<std::int32_t>(q);
  auto deq = [&](std::int32_t v) { return static_cast<float>(v - zero_point) * scale; };
  while (deq(qi) < threshold) ++qi;
  while (deq(qi - 1) >= threshold) --qi;
  return qi;
}

}  // namespace vg::detection
