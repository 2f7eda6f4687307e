#pragma once
/// @file
/// @brief Rounding to the nearest integer with ties to the even one, whatever the floating-point
/// environment's rounding mode (OpenVX's VX_ROUND_POLICY_TO_NEAREST_EVEN). Shared by the vision library and
/// libopenvx's per-pixel paths so that both round alike.
#include <cmath>

namespace vg::vision {

/// @brief @p v rounded to the nearest integer, halves to the even one (v - trunc(v) is exact for every double).
inline double round_half_even(double v) noexcept {
  double t = std::trunc(v);
  const double fraction = std::fabs(v - t);
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(t, 2.0) != 0.0)) t += std::copysign(1.0, v);
  return t;
}

}  // namespace vg::vision
