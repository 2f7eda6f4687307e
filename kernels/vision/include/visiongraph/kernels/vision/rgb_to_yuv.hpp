#pragma once
/// @file
/// @brief Packed RGB or RGBX to YUV 4:2:0 (IYUV's three planes, or NV12 / NV21's luma and interleaved chroma)
/// or 4:4:4 (YUV4's three planes),
/// as OpenVX's ColorConvert defines it: per pixel, in float and in this order,
///   Y = R Kr + G Kg + B Kb + 0.5,  U = R ur + G ug + B ub + 128.5,  V = R vr + G vg + B vb + 128.5,
/// each truncated and clamped to 0..255; a chroma sample is the truncated mean of its 2x2 block's four
/// clamped values (4:4:4: each pixel's own). No fused multiply-add on any target.
#include <cstdint>

#include "visiongraph/kernels/vision/color_layout.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief The factors for luma weights Kr, Kb, computed as OpenVX's reference does (in float): Kg = 1 - Kr - Kb,
/// ub = vr = 0.5, ur = -0.5 Kr / (1 - Kb), ug = -0.5 Kg / (1 - Kb), vg = -0.5 Kg / (1 - Kr), vb = -0.5 Kb / (1 - Kr).
struct RgbToYuvFactors {
  float kr = 0, kg = 0, kb = 0, ur = 0, ug = 0, ub = 0, vr = 0, vg = 0, vb = 0;
  static RgbToYuvFactors of(float kr, float kb) noexcept;
};

/// @brief Where the 4:2:0 output goes: the luma plane, and either two chroma planes (IYUV: u, v) or one
/// interleaved plane (@p uv, U V pairs, or V U with @p vu_order).
struct Yuv420Out {
  Plane luma;
  Plane u, v;   ///< IYUV's planes (half width and height); unused when uv.data is set
  Plane uv;     ///< NV12 / NV21's chroma plane (half height, width pairs)
  bool vu_order = false;
};

/// @brief Converts @p in (3 or 4 bytes a pixel: @p channels) into @p out. Width and height even; output
/// row pairs covering @p rows (rounded out to whole pairs) only.
void rgb_to_yuv420(ConstPlane in, int channels, const Yuv420Out& out, const RgbToYuvFactors& f, Rows rows = {}) noexcept;

/// @brief Converts @p in (3 or 4 bytes a pixel: @p channels) into @p out, NV12, NV21 or IYUV (as
/// rgb_to_yuv420(): width and height even) or YUV4 (any size); other layouts write nothing. Output rows
/// @p rows only (4:2:0: rounded out to whole pairs).
void rgb_to_yuv(ConstPlane in, int channels, const YuvImage& out, const RgbToYuvFactors& f, Rows rows = {}) noexcept;

}  // namespace vg::vision
