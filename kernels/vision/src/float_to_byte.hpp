#pragma once
// The colour conversions' last step (yuv_to_rgb.cpp, rgb_to_yuv.cpp): a float truncated toward zero and
// clamped to 0..255, as OpenVX's reference converts its results. Their vector code narrows with saturation,
// which is the same thing for the values they produce.
#include <algorithm>
#include <cstdint>

namespace vg::vision::detail {

inline std::uint8_t truncate_to_byte(float value) noexcept {
  return static_cast<std::uint8_t>(std::clamp(static_cast<int>(value), 0, 255));
}

}  // namespace vg::vision::detail
