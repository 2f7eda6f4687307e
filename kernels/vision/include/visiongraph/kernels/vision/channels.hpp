#pragma once
/// @file
/// @brief Packed multi-channel images to and from single-channel planes (OpenVX's ChannelCombine and
/// ChannelExtract for RGB and RGBX; OpenCV's merge and split / extractChannel): byte copies.
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief Interleaves @p count (3 or 4) planes into @p out, whose rows hold width * count bytes (the planes'
/// width and height). Output rows @p rows only. Another count writes nothing.
void combine_channels(const ConstPlane* planes, int count, Plane out, Rows rows = {}) noexcept;

/// @brief Copies channel @p channel (0 .. count - 1) of @p in, whose rows hold out.width * @p count bytes
/// (count 3 or 4), into @p out. Output rows @p rows only. Another count or channel writes nothing.
void extract_channel(ConstPlane in, int count, int channel, Plane out, Rows rows = {}) noexcept;

}  // namespace vg::vision
