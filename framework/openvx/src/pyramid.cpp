// Pyramids (pyramid.hpp).
#include "pyramid.hpp"

#include <cmath>
#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "image.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

/// The size of level @p level (at least 1) from the previous level's @p w x @p h, updated in place; @p width
/// x @p height is level 0. Levels are the previous one times the scale, fractions rounded up, except under
/// VX_SCALE_PYRAMID_ORB: its levels are ceil(level 0 * 2^(-level / 4)) (the scale is 2^(-1/4) as a float;
/// the Khronos conformance suite checks ORB levels against level 0 that way, and chaining rounded-up sizes
/// drifts away from it by the third level). False when that is no longer a vx_uint32 size (a scale above
/// 1 grows the levels).
bool next_level(vx_float32 scale, vx_uint32 width, vx_uint32 height, vx_size level, vx_uint32& w, vx_uint32& h) noexcept {
  double nw = 0.0, nh = 0.0;
  if (scale == VX_SCALE_PYRAMID_ORB) {
    const double factor = std::exp2(-static_cast<double>(level) / 4.0);
    nw = std::ceil(static_cast<double>(width) * factor);
    nh = std::ceil(static_cast<double>(height) * factor);
  } else {
    nw = std::ceil(static_cast<double>(w) * scale);
    nh = std::ceil(static_cast<double>(h) * scale);
  }
  if (!(nw <= UINT32_MAX && nh <= UINT32_MAX)) return false;
  w = static_cast<vx_uint32>(nw);
  h = static_cast<vx_uint32>(nh);
  return true;
}

vx_pyramid fail_pyramid(vx_reference owner, vx_status status, const char* what) noexcept {
  log(owner, status, "%s", what);
  return reinterpret_cast<vx_pyramid>(error_object(owner, status));
}

vx_pyramid make_pyramid(vx_reference owner, vx_size levels, vx_float32 scale, vx_uint32 width, vx_uint32 height, vx_df_image format,
                        bool is_virtual) noexcept {
  if (levels == 0 || !(scale > 0.0f) || scale == 1.0f) {
    return fail_pyramid(owner, VX_ERROR_INVALID_PARAMETERS, "pyramid: levels must be at least 1 and the scale positive and not 1");
  }
  if (levels > kMaxContainerItems) return fail_pyramid(owner, VX_ERROR_INVALID_PARAMETERS, "pyramid: more levels than 65536");
  const bool open = width == 0 || height == 0 || format == VX_DF_IMAGE_VIRT;
  if (open && !is_virtual) return fail_pyramid(owner, VX_ERROR_INVALID_DIMENSION, "pyramid: width, height and format are needed");
  auto* pyramid = new (std::nothrow) _vx_pyramid(context_of(owner));
  if (pyramid == nullptr) return reinterpret_cast<vx_pyramid>(error_object(owner, VX_ERROR_NO_MEMORY));
  pyramid->levels = levels;
  pyramid->scale = scale;
  pyramid->width = width;
  pyramid->height = height;
  pyramid->format = format;
  pyramid->is_virtual = is_virtual;
  vx_status status = VX_SUCCESS;
  try {
    pyramid->images.reserve(levels);
  } catch (...) {
    status = VX_ERROR_NO_MEMORY;
  }
  vx_uint32 w = open ? 0 : width, h = open ? 0 : height;
  for (vx_size level = 0; level < levels && status == VX_SUCCESS; ++level) {
    if (level > 0 && !open && !next_level(scale, width, height, level, w, h)) {
      status = VX_ERROR_INVALID_DIMENSION;
      break;
    }
    vx_image image = create_image(owner, w, h, open ? static_cast<vx_df_image>(VX_DF_IMAGE_VIRT) : format, is_virtual);
    status = status_of(image);
    if (status != VX_SUCCESS) break;
    // The pyramid holds its levels; the application only through vxGetPyramidLevel.
    take_item(pyramid, image);
    pyramid->images.push_back(image);
  }
  if (status != VX_SUCCESS) {
    delete pyramid;
    return fail_pyramid(owner, status, "pyramid: a level cannot be made (too small, or odd for a subsampled format)");
  }
  vx_reference ref = adopt(pyramid, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_pyramid>(ref) : reinterpret_cast<vx_pyramid>(error_object(owner, VX_ERROR_NO_MEMORY));
}

}  // namespace

vx_reference pyramid_like(vx_reference owner, const _vx_pyramid* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(make_pyramid(owner, exemplar->levels, exemplar->scale, exemplar->width, exemplar->height,
                                                     exemplar->format, owner->type == VX_TYPE_GRAPH));
}

vx_status pyramid_meta_from(vx_meta_format meta, const _vx_pyramid* pyramid) noexcept {
  meta->levels = pyramid->levels;
  meta->scale = pyramid->scale;
  meta->image_width = pyramid->width;
  meta->image_height = pyramid->height;
  meta->image_format = pyramid->format;
  return VX_SUCCESS;
}

vx_status pyramid_apply_meta(_vx_pyramid* pyramid, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->levels != pyramid->levels || meta->scale != pyramid->scale) {
    std::snprintf(why, why_size, "the pyramid has %zu levels of scale %g, validate says %zu of %g", static_cast<std::size_t>(pyramid->levels),
                  static_cast<double>(pyramid->scale), static_cast<std::size_t>(meta->levels), static_cast<double>(meta->scale));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const vx_uint32 width = pyramid->width != 0 ? pyramid->width : meta->image_width;
  const vx_uint32 height = pyramid->height != 0 ? pyramid->height : meta->image_height;
  const vx_df_image format = pyramid->format != VX_DF_IMAGE_VIRT ? pyramid->format : meta->image_format;
  if (width != meta->image_width || height != meta->image_height || format != meta->image_format || width == 0 || height == 0) {
    std::snprintf(why, why_size, "the pyramid is %ux%u of format 0x%08x, validate says %ux%u of 0x%08x", width, height,
                  static_cast<unsigned>(format), meta->image_width, meta->image_height, static_cast<unsigned>(meta->image_format));
    return width != meta->image_width || height != meta->image_height ? VX_ERROR_INVALID_DIMENSION : VX_ERROR_INVALID_FORMAT;
  }
  vx_uint32 w = width, h = height;
  for (vx_size level = 0; level < pyramid->levels; ++level) {
    if (level > 0 && !next_level(pyramid->scale, width, height, level, w, h)) {
      std::snprintf(why, why_size, "level %zu of the pyramid is larger than an image can be", static_cast<std::size_t>(level));
      return VX_ERROR_INVALID_DIMENSION;
    }
    if (const vx_status s = settle_image(pyramid->images[level], w, h, format, why, why_size); s != VX_SUCCESS) return s;
  }
  pyramid->width = width;
  pyramid->height = height;
  pyramid->format = format;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

_vx_pyramid::~_vx_pyramid() {
  // A level the application still holds outlives the pyramid, as an image of its own.
  for (vx_image image : images) drop_item(image);
}

extern "C" {

VX_API_ENTRY vx_pyramid VX_API_CALL vxCreatePyramid(vx_context context, vx_size levels, vx_float32 scale, vx_uint32 width, vx_uint32 height,
                                                    vx_df_image format) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_pyramid(context, levels, scale, width, height, format, false));
}

VX_API_ENTRY vx_pyramid VX_API_CALL vxCreateVirtualPyramid(vx_graph graph, vx_size levels, vx_float32 scale, vx_uint32 width, vx_uint32 height,
                                                           vx_df_image format) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_pyramid(graph, levels, scale, width, height, format, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxReleasePyramid(vx_pyramid* pyramid) { return release_handle(pyramid, VX_TYPE_PYRAMID); }

VX_API_ENTRY vx_status VX_API_CALL vxQueryPyramid(vx_pyramid pyramid, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(pyramid, VX_TYPE_PYRAMID)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_PYRAMID_LEVELS: return put<vx_size>(ptr, size, pyramid->levels);
    case VX_PYRAMID_SCALE: return put<vx_float32>(ptr, size, pyramid->scale);
    case VX_PYRAMID_WIDTH: return put<vx_uint32>(ptr, size, pyramid->width);
    case VX_PYRAMID_HEIGHT: return put<vx_uint32>(ptr, size, pyramid->height);
    case VX_PYRAMID_FORMAT: return put<vx_df_image>(ptr, size, pyramid->format);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_image VX_API_CALL vxGetPyramidLevel(vx_pyramid pyramid, vx_uint32 index) {
  if (!valid(pyramid, VX_TYPE_PYRAMID)) return nullptr;
  if (index >= pyramid->levels) {
    log(pyramid, VX_ERROR_INVALID_PARAMETERS, "vxGetPyramidLevel: level %u of a %zu-level pyramid", index, static_cast<std::size_t>(pyramid->levels));
    return to_handle(reinterpret_cast<vx_image>(error_object(pyramid, VX_ERROR_INVALID_PARAMETERS)));
  }
  vx_image image = pyramid->images[index];
  retain(image, Hold::external);
  return to_handle(image);
}

}  // extern "C"
