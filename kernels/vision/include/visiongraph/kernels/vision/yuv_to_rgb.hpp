#pragma once
/// @file
/// @brief YUV in any of OpenVX's layouts (NV12, NV21: a camera's or decoder's usual output; IYUV, YUV4,
/// YUYV, UYVY) to packed RGB or RGBX, as OpenVX's ColorConvert defines it: for each pixel, in float and
/// in this order,
///   R = Y + rv Cv + 0.5,  G = Y - gu Cu - gv Cv + 0.5,  B = Y + bu Cu + 0.5  (Cu = U - 128, Cv = V - 128),
/// each truncated and clamped to 0..255, with the chroma sample that covers the pixel (its 2x2 block's,
/// its pair's, its own). No fused
/// multiply-add, on every instruction set, so every CPU gives the same bytes.
#include "visiongraph/kernels/vision/color_layout.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief The factors of the formula above for a colour space's luma weights Kr, Kb (BT.709: 0.2126, 0.0722;
/// BT.601: 0.299, 0.114), computed as OpenVX's reference does: rv = 2 (1 - Kr), bu = 2 (1 - Kb),
/// gu = Kb bu / Kg, gv = Kr rv / Kg with Kg = 1 - Kr - Kb, all in float.
struct YuvToRgbFactors {
  float rv = 0, gu = 0, gv = 0, bu = 0;
  static YuvToRgbFactors of(float kr, float kb) noexcept;
};

/// @brief The semi-planar input: the luma plane, and the interleaved chroma plane at half width and height
/// (U V pairs for NV12, V U for NV21: @p vu_order).
struct ConstSemiPlanar {
  ConstPlane luma;
  const std::uint8_t* chroma = nullptr;
  std::ptrdiff_t chroma_stride = 0;
  bool vu_order = false;
};

/// @brief Converts @p in (any layout; YUYV and UYVY of even width, else nothing is written) into @p out
/// (packed, 3 bytes a pixel, or 4 with @p rgbx, whose fourth byte is 255), output rows @p rows only.
/// @p out has the input's width and height.
void yuv_to_rgb(const ConstYuvImage& in, Plane out, bool rgbx, const YuvToRgbFactors& f, Rows rows = {}) noexcept;

/// @brief yuv_to_rgb() for NV12 / NV21 given as a ConstSemiPlanar.
void yuv420sp_to_rgb(const ConstSemiPlanar& in, Plane out, bool rgbx, const YuvToRgbFactors& f, Rows rows = {}) noexcept;

}  // namespace vg::vision
