#pragma once
// Mapped images as the vision library's planes (kernels/vision): the standard kernels whose function exists
// there call it for images with packed pixels (stride_x is the pixel size: every image but a strided patch
// of one from a handle), and keep their own per-pixel walk for the rest.
#include <VX/vx.h>

#include "kernels/standard_kernel_support.hpp"
#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"
#include "visiongraph/kernels/vision/warp.hpp"

namespace vg::openvx {

inline bool packed(const MappedImage& image, vx_int32 pixel_size) noexcept { return image.stride_x() == pixel_size; }

inline vision::ConstPlane const_plane(const MappedImage& image) noexcept {
  return {image.row(0), image.width(), image.height(), image.addressing().stride_y};
}
inline vision::Plane plane(const MappedImage& image) noexcept {
  return {image.row(0), image.width(), image.height(), image.addressing().stride_y};
}

/// The node's border as the neighbourhood functions take it (UNDEFINED reads the nearest edge pixel, as
/// REPLICATE does).
inline vision::Border vision_border(const vx_border_t& border) noexcept {
  return {border.mode == VX_BORDER_CONSTANT ? vision::BorderMode::constant : vision::BorderMode::replicate, border.constant_value.U8};
}

/// U8 or S16 images (other formats are not the vision library's arithmetic types).
inline bool vision_pixel_type(vx_df_image format, vision::PixelType& type) noexcept {
  if (format == VX_DF_IMAGE_U8) type = vision::PixelType::u8;
  else if (format == VX_DF_IMAGE_S16) type = vision::PixelType::s16;
  else return false;
  return true;
}

/// @p image as U8 or S16 pixels, when its format is one and its pixels are packed.
inline bool vision_pixels(const MappedImage& image, vx_df_image format, vision::Pixels& out) noexcept {
  vision::PixelType type{};
  if (!vision_pixel_type(format, type) || !packed(image, static_cast<vx_int32>(vision::pixel_size(type)))) return false;
  out = {image.row(0), image.width(), image.height(), image.addressing().stride_y, type};
  return true;
}

/// @p image as a geometric function's source: read within @p valid, the node's @p border outside
/// (UNDEFINED reads the nearest edge pixel, as REPLICATE does).
inline vision::SampleSource sample_source(const MappedImage& image, const vx_border_t& border, const vx_rectangle_t& valid) noexcept {
  return {const_plane(image), valid.start_x, valid.start_y, valid.end_x, valid.end_y, border.mode == VX_BORDER_CONSTANT,
          border.constant_value.U8};
}

}  // namespace vg::openvx
