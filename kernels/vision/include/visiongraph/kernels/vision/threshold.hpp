#pragma once
/// @file
/// @brief OpenVX's Threshold on 8-bit planes (binary and range), vectorised with Highway.
#include <cstdint>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief binary: out = in > value ? true_value : false_value. range: out = lower <= in <= upper ?
/// true_value : false_value (OpenVX's VX_THRESHOLD_TYPE_BINARY and _RANGE).
struct Threshold {
  enum class Type : std::uint8_t { binary, range };
  Type type = Type::binary;
  std::uint8_t value = 127;  ///< binary
  std::uint8_t lower = 0;    ///< range
  std::uint8_t upper = 255;  ///< range
  std::uint8_t true_value = 255;
  std::uint8_t false_value = 0;
};

/// @brief Thresholds @p in into @p out (same size; may be the same memory), output rows @p rows only.
void threshold(const Threshold& threshold, ConstPlane in, Plane out, Rows rows = {}) noexcept;

}  // namespace vg::vision
