// Images (image.hpp): creation in every form, attributes, patches mapped and copied, pixel fills, handle
// swaps and valid regions.
#include "image.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "meta_format.hpp"

namespace vg::openvx {

void FreeDeleter::operator()(void* p) const noexcept { std::free(p); }

namespace {

/// The memory layout of a format: planes, bytes per plane pixel (0 for U1: one bit per pixel, eight to a
/// byte, least significant bit first), subsampling, and the multiple the width and height must be
/// (subsampled chroma needs even sizes).
struct FormatLayout {
  vx_uint32 planes;
  vx_uint32 pixel_bytes[kMaxPlanes];
  vx_uint32 shift_x[kMaxPlanes];
  vx_uint32 shift_y[kMaxPlanes];
  vx_uint32 width_multiple;
  vx_uint32 height_multiple;
};

/// The layout of @p format; false for a format this library does not hold (VIRT, unknown codes).
bool layout_of(vx_df_image format, FormatLayout& layout) noexcept {
  switch (format) {
    case VX_DF_IMAGE_U1: layout = {1, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_U8: layout = {1, {1, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_U16:
    case VX_DF_IMAGE_S16: layout = {1, {2, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_U32:
    case VX_DF_IMAGE_S32: layout = {1, {4, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_RGB: layout = {1, {3, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_RGBX: layout = {1, {4, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_YUYV: layout = {1, {2, 0, 0}, {0, 0, 0}, {0, 0, 0}, 2, 1}; return true;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: layout = {2, {1, 2, 0}, {0, 1, 0}, {0, 1, 0}, 2, 2}; return true;
    case VX_DF_IMAGE_IYUV: layout = {3, {1, 1, 1}, {0, 1, 1}, {0, 1, 1}, 2, 2}; return true;
    case VX_DF_IMAGE_YUV4: layout = {3, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, 1, 1}; return true;
    default: return false;
  }
}

bool is_yuv(vx_df_image format) noexcept {
  switch (format) {
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21:
    case VX_DF_IMAGE_IYUV:
    case VX_DF_IMAGE_YUV4: return true;
    default: return false;
  }
}

/// Bytes of a row of @p columns plane pixels (U1 rows are whole bytes, padding bits at the end).
std::size_t row_bytes(vx_df_image format, vx_uint32 columns, vx_uint32 pixel_bytes) noexcept {
  return format == VX_DF_IMAGE_U1 ? (static_cast<std::size_t>(columns) + 7) / 8 : static_cast<std::size_t>(columns) * pixel_bytes;
}

/// Bytes from a plane row's start to plane pixel @p x (U1: the byte holding it, at bit x % 8).
std::ptrdiff_t column_offset(vx_df_image format, vx_uint32 x, vx_int32 stride_x) noexcept {
  return format == VX_DF_IMAGE_U1 ? static_cast<std::ptrdiff_t>(x / 8) : static_cast<std::ptrdiff_t>(x) * stride_x;
}

vx_uint32 pixel_bytes(const _vx_image* image, vx_uint32 plane) noexcept {
  FormatLayout layout{};
  if (!layout_of(image->format, layout)) return 0;
  return layout.pixel_bytes[plane];
}

/// Checks a size against a format; the status a creator reports otherwise.
vx_status check_size(vx_uint32 width, vx_uint32 height, vx_df_image format) noexcept {
  FormatLayout layout{};
  if (!layout_of(format, layout)) return VX_ERROR_INVALID_FORMAT;
  if (width == 0 || height == 0) return VX_ERROR_INVALID_DIMENSION;
  if (width % layout.width_multiple != 0 || height % layout.height_multiple != 0) return VX_ERROR_INVALID_DIMENSION;
  return VX_SUCCESS;
}

/// Gives a root image its own zeroed memory, rows packed, for its current size and format.
vx_status allocate(_vx_image* image) noexcept {
  FormatLayout layout{};
  if (!layout_of(image->format, layout)) return VX_ERROR_INVALID_FORMAT;
  std::size_t offsets[kMaxPlanes] = {};
  std::size_t total = 0;
  for (vx_uint32 p = 0; p < layout.planes; ++p) {
    vx_size row = 0, plane_bytes = 0;
    // A row's bytes are a vx_int32 stride (vx_imagepatch_addressing_t), the planes together one block.
    // U1 rows are whole bytes (the last one padded); counted without the + 7 that could wrap.
    const vx_uint32 columns = image->width >> layout.shift_x[p];
    const bool row_fits = image->format == VX_DF_IMAGE_U1 ? checked_bytes(row, vx_size{columns / 8 + (columns % 8 != 0 ? 1u : 0u)})
                                                          : checked_bytes(row, columns, layout.pixel_bytes[p]);
    if (!row_fits || row > static_cast<vx_size>(INT32_MAX) ||
        !checked_bytes(plane_bytes, row, image->height >> layout.shift_y[p]) || !checked_grow(plane_bytes, 63)) {
      return VX_ERROR_NO_MEMORY;
    }
    offsets[p] = total;
    if (!checked_grow(total, plane_bytes / 64 * 64)) return VX_ERROR_NO_MEMORY;  // each plane starts on a 64-byte line
    image->planes[p] = ImagePlane{p, 0, static_cast<vx_int32>(layout.pixel_bytes[p]), static_cast<vx_int32>(row),
                                  layout.shift_x[p], layout.shift_y[p]};
  }
  void* memory = std::aligned_alloc(64, total);
  if (memory == nullptr) return VX_ERROR_NO_MEMORY;
  std::memset(memory, 0, total);
  image->storage.reset(static_cast<vx_uint8*>(memory));
  image->plane_count = layout.planes;
  for (vx_uint32 p = 0; p < layout.planes; ++p) image->bases[p] = image->storage.get() + offsets[p];
  image->valid = vx_rectangle_t{0, 0, image->width, image->height};
  return VX_SUCCESS;
}

vx_image adopt_image(vx_reference owner, _vx_image* image) noexcept {
  vx_reference ref = adopt(image, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_image>(ref) : reinterpret_cast<vx_image>(error_object(owner, VX_ERROR_NO_MEMORY));
}

vx_image fail_image(vx_reference owner, vx_status status, const char* what) noexcept {
  log(owner, status, "%s", what);
  return reinterpret_cast<vx_image>(error_object(owner, status));
}

/// vxCreateImage / vxCreateVirtualImage / vxCreateUniformImage; a virtual image may leave size or format
/// open (0 / VX_DF_IMAGE_VIRT) and then gets its memory at vxVerifyGraph.
}  // namespace

vx_image create_image(vx_reference owner, vx_uint32 width, vx_uint32 height, vx_df_image format, bool is_virtual) noexcept {
  const bool open = width == 0 || height == 0 || format == VX_DF_IMAGE_VIRT;
  if (!is_virtual || !open) {
    if (const vx_status s = check_size(width, height, format); s != VX_SUCCESS) {
      return fail_image(owner, s, s == VX_ERROR_INVALID_FORMAT ? "image: format not supported (docs/openvx.md lists the formats)"
                                                              : "image: width and height must be non-zero (even for subsampled formats)");
    }
  } else if (format != VX_DF_IMAGE_VIRT) {
    FormatLayout layout{};
    if (!layout_of(format, layout)) return fail_image(owner, VX_ERROR_INVALID_FORMAT, "virtual image: format not supported");
  }
  auto* image = new (std::nothrow) _vx_image(context_of(owner));
  if (image == nullptr) return reinterpret_cast<vx_image>(error_object(owner, VX_ERROR_NO_MEMORY));
  image->width = image->declared_width = width;
  image->height = image->declared_height = height;
  image->format = image->declared_format = format;
  image->is_virtual = is_virtual;
  image->space = is_yuv(format) ? VX_COLOR_SPACE_DEFAULT : VX_COLOR_SPACE_NONE;
  if (!open) {
    if (const vx_status s = allocate(image); s != VX_SUCCESS) {
      delete image;
      return fail_image(owner, s, "image: its size in bytes is beyond what one image may hold (or out of memory)");
    }
  }
  return adopt_image(owner, image);
}

namespace {

bool rect_inside(const vx_rectangle_t* rect, vx_uint32 width, vx_uint32 height) noexcept {
  return rect != nullptr && rect->start_x < rect->end_x && rect->start_y < rect->end_y && rect->end_x <= width && rect->end_y <= height;
}

bool is_write(vx_enum usage) noexcept { return usage == VX_WRITE_ONLY || usage == VX_READ_AND_WRITE; }

/// The checks map and copy share: data there, reachable from here, a patch inside the image on a plane
/// that exists, aligned to the plane's subsampling.
vx_status check_access(_vx_image* image, const vx_rectangle_t* rect, vx_uint32 plane, vx_enum usage, vx_enum memory_type) noexcept {
  if (const vx_status s = content_access(image->is_virtual); s != VX_SUCCESS) return s;
  if (memory_type != VX_MEMORY_TYPE_HOST) return VX_ERROR_INVALID_PARAMETERS;
  if (!is_map_usage(usage)) return VX_ERROR_INVALID_PARAMETERS;
  if (plane >= image->plane_count || !rect_inside(rect, image->width, image->height)) return VX_ERROR_INVALID_PARAMETERS;
  const ImagePlane& p = image->planes[plane];
  const vx_uint32 mask_x = (1u << p.shift_x) - 1, mask_y = (1u << p.shift_y) - 1;
  if ((rect->start_x & mask_x) != 0 || (rect->start_y & mask_y) != 0) return VX_ERROR_INVALID_PARAMETERS;
  if (image->is_uniform && is_write(usage)) return VX_ERROR_NOT_SUPPORTED;  // uniform images are read-only
  if (image->plane_base(plane) == nullptr) return VX_ERROR_NO_MEMORY;  // handles reclaimed by a swap (the suite's answer)
  return VX_SUCCESS;
}

/// Sets the U1 pixels [0, width) of each row; a region's last byte may hold pixels of the parent right
/// of it, so that byte is masked.
void fill_u1(_vx_image* image, bool set) noexcept {
  vx_uint8* base = image->plane_base(0);
  const vx_int32 stride_y = image->planes[0].stride_y;
  const vx_uint32 whole = image->width / 8, rest = image->width % 8;
  const auto mask = static_cast<vx_uint8>((1u << rest) - 1);
  for (vx_uint32 y = 0; y < image->height; ++y) {
    vx_uint8* row = base + static_cast<std::ptrdiff_t>(y) * stride_y;
    std::memset(row, set ? 0xFF : 0x00, whole);
    if (rest != 0) row[whole] = static_cast<vx_uint8>(set ? (row[whole] | mask) : (row[whole] & ~mask));
  }
}

/// Writes @p value into every pixel of @p image (vxSetImagePixelValues, uniform images).
void fill(_vx_image* image, const vx_pixel_value_t& value) noexcept {
  if (image->format == VX_DF_IMAGE_U1) {
    fill_u1(image, value.U1 != vx_false_e);
    return;
  }
  const vx_uint8* yuv = value.YUV;
  for (vx_uint32 p = 0; p < image->plane_count; ++p) {
    const ImagePlane& plane = image->planes[p];
    vx_uint8* base = image->plane_base(p);
    const vx_uint32 cols = image->width >> plane.shift_x, rows = image->height >> plane.shift_y;
    // One pixel's bytes for this plane.
    vx_uint8 pixel[4] = {};
    vx_uint32 bytes = pixel_bytes(image, p);
    switch (image->format) {
      case VX_DF_IMAGE_RGB: std::memcpy(pixel, value.RGB, 3); break;
      case VX_DF_IMAGE_RGBX: std::memcpy(pixel, value.RGBX, 4); break;
      case VX_DF_IMAGE_U8: pixel[0] = value.U8; break;
      case VX_DF_IMAGE_U16: std::memcpy(pixel, &value.U16, 2); break;
      case VX_DF_IMAGE_S16: std::memcpy(pixel, &value.S16, 2); break;
      case VX_DF_IMAGE_U32: std::memcpy(pixel, &value.U32, 4); break;
      case VX_DF_IMAGE_S32: std::memcpy(pixel, &value.S32, 4); break;
      case VX_DF_IMAGE_YUV4:
      case VX_DF_IMAGE_IYUV: pixel[0] = yuv[p]; break;
      case VX_DF_IMAGE_NV12:
        pixel[0] = p == 0 ? yuv[0] : yuv[1];
        pixel[1] = yuv[2];
        break;
      case VX_DF_IMAGE_NV21:
        pixel[0] = p == 0 ? yuv[0] : yuv[2];
        pixel[1] = yuv[1];
        break;
      case VX_DF_IMAGE_UYVY:
      case VX_DF_IMAGE_YUYV: {
        // Pairs of pixels share chroma: U Y0 V Y1 (UYVY) or Y0 U Y1 V (YUYV).
        const bool uyvy = image->format == VX_DF_IMAGE_UYVY;
        for (vx_uint32 y = 0; y < rows; ++y) {
          vx_uint8* row = base + static_cast<std::ptrdiff_t>(y) * plane.stride_y;
          for (vx_uint32 x = 0; x < cols; ++x) {
            vx_uint8* px = row + static_cast<std::ptrdiff_t>(x) * plane.stride_x;
            const vx_uint8 chroma = (x % 2 == 0) ? yuv[1] : yuv[2];
            px[uyvy ? 0 : 1] = chroma;
            px[uyvy ? 1 : 0] = yuv[0];
          }
        }
        continue;
      }
      default: bytes = 0; break;
    }
    if (bytes == 1 && plane.stride_x == 1) {
      for (vx_uint32 y = 0; y < rows; ++y) std::memset(base + static_cast<std::ptrdiff_t>(y) * plane.stride_y, pixel[0], cols);
      continue;
    }
    for (vx_uint32 y = 0; y < rows; ++y) {
      vx_uint8* row = base + static_cast<std::ptrdiff_t>(y) * plane.stride_y;
      for (vx_uint32 x = 0; x < cols; ++x) std::memcpy(row + static_cast<std::ptrdiff_t>(x) * plane.stride_x, pixel, bytes);
    }
  }
}

/// vxCopyImagePatch of a U1 image. The application's patch keeps the pixels' bit offsets (as a map does):
/// its rows start at the byte holding pixel start_x, at bit start_x % 8; writes leave the bits outside the
/// rectangle alone, reads copy whole bytes (the padding bits are implementation-defined).
vx_status copy_u1(_vx_image* image, const vx_rectangle_t* rect, const vx_imagepatch_addressing_t* user_addr, vx_uint8* user,
                  vx_enum usage) noexcept {
  const vx_uint32 lead = rect->start_x % 8, width = rect->end_x - rect->start_x, rows = rect->end_y - rect->start_y;
  const std::size_t bytes = (static_cast<std::size_t>(lead) + width + 7) / 8;
  // dim_x may be the rectangle's width or, widened like a map's, counted from the preceding byte boundary.
  if (user_addr->stride_x != 0 || user_addr->stride_x_bits != 1 || (user_addr->dim_x != width && user_addr->dim_x != width + lead) ||
      user_addr->dim_y != rows || user_addr->stride_y < static_cast<vx_int64>(bytes)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const ImagePlane& plane = image->planes[0];
  vx_uint8* first = image->plane_base(0) + static_cast<std::ptrdiff_t>(rect->start_y) * plane.stride_y + rect->start_x / 8;
  const auto head = static_cast<vx_uint8>(0xFFu << lead);                        // bits of the first byte inside the rectangle
  const auto tail = static_cast<vx_uint8>(0xFFu >> (7 - (rect->end_x - 1) % 8));  // bits of the last byte inside it
  for (vx_uint32 y = 0; y < rows; ++y) {
    vx_uint8* image_row = first + static_cast<std::ptrdiff_t>(y) * plane.stride_y;
    vx_uint8* user_row = user + static_cast<std::ptrdiff_t>(y) * user_addr->stride_y;
    if (usage == VX_READ_ONLY) {
      std::memcpy(user_row, image_row, bytes);
      continue;
    }
    const auto merge = [](vx_uint8 old_bits, vx_uint8 new_bits, vx_uint8 mask) {
      return static_cast<vx_uint8>((old_bits & ~mask) | (new_bits & mask));
    };
    if (bytes == 1) {
      image_row[0] = merge(image_row[0], user_row[0], static_cast<vx_uint8>(head & tail));
      continue;
    }
    image_row[0] = merge(image_row[0], user_row[0], head);
    std::memcpy(image_row + 1, user_row + 1, bytes - 2);
    image_row[bytes - 1] = merge(image_row[bytes - 1], user_row[bytes - 1], tail);
  }
  return VX_SUCCESS;
}

/// A region or channel of @p parent: same memory, its own size, format and planes (filled by the caller).
_vx_image* make_sub_image(_vx_image* parent) noexcept {
  auto* image = new (std::nothrow) _vx_image(parent->context);
  if (image == nullptr) return nullptr;
  image->format = image->declared_format = parent->format;
  image->space = parent->space;
  image->range = parent->range;
  image->memory_type = parent->memory_type;
  image->is_virtual = parent->is_virtual;
  image->scope = parent->scope;
  image->is_uniform = parent->is_uniform;
  image->uniform_value = parent->uniform_value;
  image->plane_count = parent->plane_count;
  retain(parent, Hold::internal);
  image->parent = parent;
  return image;
}

vx_status put_rect(vx_rectangle_t* out, const vx_rectangle_t& rect) noexcept {
  if (out == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  *out = rect;
  return VX_SUCCESS;
}

}  // namespace

vx_image image_on_memory(vx_context context, vx_uint32 width, vx_uint32 height, vx_df_image format, vx_uint8* base, vx_int32 stride_x,
                         vx_int32 stride_y, vx_reference memory_owner) noexcept {
  FormatLayout layout{};
  if (!layout_of(format, layout) || layout.planes != 1) return fail_image(context, VX_ERROR_INVALID_FORMAT, "image: a single-plane format is needed");
  auto* image = new (std::nothrow) _vx_image(context);
  if (image == nullptr) return reinterpret_cast<vx_image>(error_object(context, VX_ERROR_NO_MEMORY));
  image->width = image->declared_width = width;
  image->height = image->declared_height = height;
  image->format = image->declared_format = format;
  image->plane_count = 1;
  image->planes[0] = ImagePlane{0, 0, stride_x, stride_y, 0, 0};
  image->bases[0] = base;
  image->valid = vx_rectangle_t{0, 0, width, height};
  retain(memory_owner, Hold::internal);
  image->memory_owner = memory_owner;
  return adopt_image(context, image);
}

vx_reference image_like(vx_reference owner, const _vx_image* exemplar) noexcept {
  const bool is_virtual = owner->type == VX_TYPE_GRAPH;
  return reinterpret_cast<vx_reference>(create_image(owner, exemplar->width, exemplar->height, exemplar->format, is_virtual));
}

vx_status image_meta_from(vx_meta_format meta, const _vx_image* image) noexcept {
  meta->image_width = image->width;
  meta->image_height = image->height;
  meta->image_format = image->format;
  return VX_SUCCESS;
}

vx_status image_apply_meta(_vx_image* image, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (meta->image_width == 0 || meta->image_height == 0 || meta->image_format == VX_DF_IMAGE_VIRT || meta->image_format == 0) {
    std::snprintf(why, why_size, "validate did not set VX_IMAGE_WIDTH, VX_IMAGE_HEIGHT and VX_IMAGE_FORMAT");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return settle_image(image, meta->image_width, meta->image_height, meta->image_format, why, why_size);
}

vx_status settle_image(_vx_image* image, vx_uint32 w, vx_uint32 h, vx_df_image f, char* why, vx_size why_size) noexcept {
  // What the image was created with must agree; open attributes take the given values.
  const vx_uint32 width = image->declared_width != 0 ? image->declared_width : w;
  const vx_uint32 height = image->declared_height != 0 ? image->declared_height : h;
  const vx_df_image format = image->declared_format != VX_DF_IMAGE_VIRT ? image->declared_format : f;
  if (width != w || height != h) {
    std::snprintf(why, why_size, "the image is %ux%u, validate says %ux%u", width, height, w, h);
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (format != f) {
    std::snprintf(why, why_size, "the image has format 0x%08x, validate says 0x%08x", static_cast<unsigned>(format), static_cast<unsigned>(f));
    return VX_ERROR_INVALID_FORMAT;
  }
  if (image->plane_base(0) != nullptr && image->width == width && image->height == height && image->format == format) return VX_SUCCESS;
  if (!image->is_virtual || image->parent != nullptr) {
    std::snprintf(why, why_size, "the image has no memory");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (const vx_status s = check_size(width, height, format); s != VX_SUCCESS) {
    std::snprintf(why, why_size, "validate's %ux%u of format 0x%08x is not an image this library holds", width, height,
                  static_cast<unsigned>(format));
    return s;
  }
  image->width = width;
  image->height = height;
  image->format = format;
  image->space = is_yuv(format) ? VX_COLOR_SPACE_DEFAULT : VX_COLOR_SPACE_NONE;
  const vx_status s = allocate(image);
  if (s != VX_SUCCESS) std::snprintf(why, why_size, "no memory for a %ux%u image", width, height);
  return s;
}

}  // namespace vg::openvx

using namespace vg::openvx;

_vx_image::~_vx_image() {
  if (parent != nullptr) (void)release(parent, Hold::internal);
  if (memory_owner != nullptr) (void)release(memory_owner, Hold::internal);
}

_vx_image* _vx_image::root() noexcept {
  _vx_image* image = this;
  while (image->parent != nullptr) image = image->parent;
  return image;
}

vx_uint8* _vx_image::plane_base(vx_uint32 plane) noexcept {
  if (plane >= plane_count) return nullptr;
  vx_uint8* base = root()->bases[planes[plane].root_plane];
  return base == nullptr ? nullptr : base + planes[plane].offset;
}

extern "C" {

VX_API_ENTRY vx_image VX_API_CALL vxCreateImage(vx_context context, vx_uint32 width, vx_uint32 height, vx_df_image color) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(create_image(context, width, height, color, false));
}

VX_API_ENTRY vx_image VX_API_CALL vxCreateVirtualImage(vx_graph graph, vx_uint32 width, vx_uint32 height, vx_df_image color) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(create_image(graph, width, height, color, true));
}

VX_API_ENTRY vx_image VX_API_CALL vxCreateUniformImage(vx_context context, vx_uint32 width, vx_uint32 height, vx_df_image color,
                                                       const vx_pixel_value_t* value) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (value == nullptr) return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateUniformImage: no pixel value"));
  vx_image image = create_image(context, width, height, color, false);
  if (status_of(image) != VX_SUCCESS) return to_handle(image);
  fill(image, *value);
  image->is_uniform = true;
  image->uniform_value = *value;
  return to_handle(image);
}

VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromHandle(vx_context context, vx_df_image color, const vx_imagepatch_addressing_t addrs[],
                                                          void* const ptrs[], vx_enum memory_type) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (memory_type != VX_MEMORY_TYPE_HOST) return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromHandle: only VX_MEMORY_TYPE_HOST memory"));
  if (addrs == nullptr || ptrs == nullptr) return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromHandle: no addressing or pointers"));
  FormatLayout layout{};
  if (!layout_of(color, layout)) return to_handle(fail_image(context, VX_ERROR_INVALID_FORMAT, "vxCreateImageFromHandle: format not supported"));
  const vx_uint32 width = addrs[0].dim_x, height = addrs[0].dim_y;
  if (const vx_status s = check_size(width, height, color); s != VX_SUCCESS) {
    return to_handle(fail_image(context, s, "vxCreateImageFromHandle: plane 0's dim_x and dim_y are not a size of this format"));
  }
  if (color == VX_DF_IMAGE_U1 && (addrs[0].stride_x != 0 || addrs[0].stride_x_bits != 1)) {
    // The specification defines U1 addressing as stride_x 0, stride_x_bits 1 (packed bits).
    return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromHandle: a U1 plane needs stride_x 0 and stride_x_bits 1"));
  }
  for (vx_uint32 p = 0; p < layout.planes; ++p) {
    const vx_int64 row = color == VX_DF_IMAGE_U1 ? static_cast<vx_int64>(row_bytes(color, width, 0))
                                                 : static_cast<vx_int64>(width >> layout.shift_x[p]) * addrs[p].stride_x;
    if (ptrs[p] == nullptr || addrs[p].stride_x < static_cast<vx_int32>(layout.pixel_bytes[p]) || addrs[p].stride_y < row) {
      return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromHandle: a plane's pointer is null or its strides are too small"));
    }
    // Pixel addresses are computed as std::ptrdiff_t offsets from the plane's pointer.
    std::ptrdiff_t extent = 0;
    if (!checked_mul(static_cast<vx_int64>(height >> layout.shift_y[p]), addrs[p].stride_y, extent)) {
      return to_handle(fail_image(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromHandle: a plane's rows span more bytes than an address can"));
    }
  }
  auto* image = new (std::nothrow) _vx_image(context);
  if (image == nullptr) return to_handle(reinterpret_cast<vx_image>(error_object(context, VX_ERROR_NO_MEMORY)));
  image->width = image->declared_width = width;
  image->height = image->declared_height = height;
  image->format = image->declared_format = color;
  image->space = is_yuv(color) ? VX_COLOR_SPACE_DEFAULT : VX_COLOR_SPACE_NONE;
  image->memory_type = VX_MEMORY_TYPE_HOST;
  image->plane_count = layout.planes;
  for (vx_uint32 p = 0; p < layout.planes; ++p) {
    image->planes[p] = ImagePlane{p, 0, addrs[p].stride_x, addrs[p].stride_y, layout.shift_x[p], layout.shift_y[p]};
    image->bases[p] = static_cast<vx_uint8*>(ptrs[p]);
  }
  image->valid = vx_rectangle_t{0, 0, width, height};
  return to_handle(adopt_image(context, image));
}

VX_API_ENTRY vx_status VX_API_CALL vxSwapImageHandle(vx_image image, void* const new_ptrs[], void* prev_ptrs[], vx_size num_planes) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (image->memory_type != VX_MEMORY_TYPE_HOST || image->parent != nullptr) {
    log(image, VX_ERROR_INVALID_PARAMETERS, "vxSwapImageHandle: the image was not created from a handle (or is a region or channel)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (num_planes != image->plane_count) return VX_ERROR_INVALID_PARAMETERS;
  if (new_ptrs != nullptr) {
    for (vx_size p = 0; p < num_planes; ++p) {
      if (new_ptrs[p] == nullptr) return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  const std::lock_guard guard(image->lock);
  if (image->maps_in_tree.load() != 0) {
    log(image, VX_FAILURE, "vxSwapImageHandle: a patch of the image (or of a region or channel of it) is still mapped");
    return VX_FAILURE;
  }
  for (vx_size p = 0; p < num_planes; ++p) {
    if (prev_ptrs != nullptr) prev_ptrs[p] = image->bases[p];
    image->bases[p] = new_ptrs != nullptr ? static_cast<vx_uint8*>(new_ptrs[p]) : nullptr;
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromROI(vx_image img, const vx_rectangle_t* rect) {
  if (!valid(img, VX_TYPE_IMAGE)) return nullptr;
  if (img->plane_count == 0) return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromROI: the image has no size yet (virtual)"));
  if (!rect_inside(rect, img->width, img->height)) return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromROI: the rectangle is not inside the image"));
  FormatLayout layout{};
  (void)layout_of(img->format, layout);
  const vx_uint32 width = rect->end_x - rect->start_x, height = rect->end_y - rect->start_y;
  if (rect->start_x % layout.width_multiple != 0 || rect->start_y % layout.height_multiple != 0 ||
      width % layout.width_multiple != 0 || height % layout.height_multiple != 0) {
    return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromROI: a subsampled format needs even corners"));
  }
  if (img->format == VX_DF_IMAGE_U1 && rect->start_x % 8 != 0) {
    // A U1 image starts on a byte boundary and a region shares its parent's bytes.
    return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromROI: a U1 region must start at a multiple of 8 pixels"));
  }
  _vx_image* roi = make_sub_image(img);
  if (roi == nullptr) return to_handle(reinterpret_cast<vx_image>(error_object(img, VX_ERROR_NO_MEMORY)));
  roi->width = roi->declared_width = width;
  roi->height = roi->declared_height = height;
  for (vx_uint32 p = 0; p < img->plane_count; ++p) {
    ImagePlane plane = img->planes[p];
    plane.offset += static_cast<std::ptrdiff_t>(rect->start_y >> plane.shift_y) * plane.stride_y +
                    column_offset(img->format, rect->start_x >> plane.shift_x, plane.stride_x);
    roi->planes[p] = plane;
  }
  // The region's valid part is the parent's, clipped and moved to the region's coordinates.
  const vx_uint32 sx = std::max(img->valid.start_x, rect->start_x), sy = std::max(img->valid.start_y, rect->start_y);
  const vx_uint32 ex = std::min(img->valid.end_x, rect->end_x), ey = std::min(img->valid.end_y, rect->end_y);
  roi->valid = (sx < ex && sy < ey) ? vx_rectangle_t{sx - rect->start_x, sy - rect->start_y, ex - rect->start_x, ey - rect->start_y}
                                    : vx_rectangle_t{0, 0, 0, 0};
  return to_handle(adopt_image(img, roi));
}

VX_API_ENTRY vx_image VX_API_CALL vxCreateImageFromChannel(vx_image img, vx_enum channel) {
  if (!valid(img, VX_TYPE_IMAGE)) return nullptr;
  // Only a channel that is a whole plane can be shared without a copy (what the specification allows).
  vx_uint32 plane = 0;
  bool ok = false;
  switch (img->format) {
    case VX_DF_IMAGE_YUV4:
    case VX_DF_IMAGE_IYUV:
      ok = channel == VX_CHANNEL_Y || channel == VX_CHANNEL_U || channel == VX_CHANNEL_V;
      plane = channel == VX_CHANNEL_U ? 1 : channel == VX_CHANNEL_V ? 2 : 0;
      break;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: ok = channel == VX_CHANNEL_Y; break;
    default: break;
  }
  if (!ok) return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromChannel: only Y, U or V of YUV4 and IYUV, or Y of NV12 and NV21"));
  if (img->plane_count == 0) return to_handle(fail_image(img, VX_ERROR_INVALID_PARAMETERS, "vxCreateImageFromChannel: the image has no size yet (virtual)"));
  _vx_image* sub = make_sub_image(img);
  if (sub == nullptr) return to_handle(reinterpret_cast<vx_image>(error_object(img, VX_ERROR_NO_MEMORY)));
  const ImagePlane& from = img->planes[plane];
  sub->format = sub->declared_format = VX_DF_IMAGE_U8;
  sub->space = VX_COLOR_SPACE_NONE;
  sub->plane_count = 1;
  sub->width = sub->declared_width = img->width >> from.shift_x;
  sub->height = sub->declared_height = img->height >> from.shift_y;
  sub->planes[0] = ImagePlane{from.root_plane, from.offset, from.stride_x, from.stride_y, 0, 0};
  sub->valid = vx_rectangle_t{img->valid.start_x >> from.shift_x, img->valid.start_y >> from.shift_y, img->valid.end_x >> from.shift_x,
                              img->valid.end_y >> from.shift_y};
  if (img->is_uniform) {
    const vx_uint8 value = img->uniform_value.YUV[plane];
    sub->uniform_value = vx_pixel_value_t{};
    sub->uniform_value.U8 = value;
  }
  return to_handle(adopt_image(img, sub));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryImage(vx_image image, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_IMAGE_WIDTH: return put<vx_uint32>(ptr, size, image->width);
    case VX_IMAGE_HEIGHT: return put<vx_uint32>(ptr, size, image->height);
    case VX_IMAGE_FORMAT: return put<vx_df_image>(ptr, size, image->format);
    case VX_IMAGE_PLANES: return put<vx_size>(ptr, size, image->plane_count);
    case VX_IMAGE_SPACE: return put<vx_enum>(ptr, size, image->space);
    case VX_IMAGE_RANGE: return put<vx_enum>(ptr, size, image->range);
    case VX_IMAGE_MEMORY_TYPE: return put<vx_enum>(ptr, size, image->memory_type);
    case VX_IMAGE_IS_UNIFORM: return put<vx_bool>(ptr, size, image->is_uniform ? vx_true_e : vx_false_e);
    case VX_IMAGE_UNIFORM_VALUE:
      if (!image->is_uniform) return VX_ERROR_INVALID_PARAMETERS;
      return put<vx_pixel_value_t>(ptr, size, image->uniform_value);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetImageAttribute(vx_image image, vx_enum attribute, const void* ptr, vx_size size) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (attribute != VX_IMAGE_SPACE) return VX_ERROR_NOT_SUPPORTED;  // the only writable image attribute
  vx_enum space = 0;
  if (const vx_status s = get(ptr, size, space); s != VX_SUCCESS) return s;
  if (space < VX_COLOR_SPACE_NONE || space > VX_COLOR_SPACE_BT709) return VX_ERROR_INVALID_VALUE;
  image->space = space;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetImagePixelValues(vx_image image, const vx_pixel_value_t* value) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (value == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (const vx_status s = content_access(image->is_virtual); s != VX_SUCCESS) return s;
  if (image->is_uniform) return VX_ERROR_NOT_SUPPORTED;
  if (image->plane_base(0) == nullptr) return VX_ERROR_NOT_SUPPORTED;
  fill(image, *value);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseImage(vx_image* image) { return release_handle(image, VX_TYPE_IMAGE); }

VX_API_ENTRY void* VX_API_CALL vxFormatImagePatchAddress2d(void* ptr, vx_uint32 x, vx_uint32 y, const vx_imagepatch_addressing_t* addr) {
  if (ptr == nullptr || addr == nullptr || x >= addr->dim_x || y >= addr->dim_y) return nullptr;
  const std::ptrdiff_t row = static_cast<std::ptrdiff_t>((static_cast<vx_uint64>(y) * addr->scale_y) / VX_SCALE_UNITY) * addr->stride_y;
  const vx_uint64 plane_x = (static_cast<vx_uint64>(x) * addr->scale_x) / VX_SCALE_UNITY;
  // Pixels narrower than a byte (U1: stride_x 0, stride_x_bits 1) give the byte holding the pixel.
  const std::ptrdiff_t col = addr->stride_x == 0 && addr->stride_x_bits != 0 ? static_cast<std::ptrdiff_t>(plane_x * addr->stride_x_bits / 8)
                                                                             : static_cast<std::ptrdiff_t>(plane_x) * addr->stride_x;
  return static_cast<vx_uint8*>(ptr) + row + col;
}

VX_API_ENTRY void* VX_API_CALL vxFormatImagePatchAddress1d(void* ptr, vx_uint32 index, const vx_imagepatch_addressing_t* addr) {
  if (ptr == nullptr || addr == nullptr || addr->dim_x == 0) return nullptr;
  return vxFormatImagePatchAddress2d(ptr, index % addr->dim_x, index / addr->dim_x, addr);
}

VX_API_ENTRY vx_status VX_API_CALL vxGetValidRegionImage(vx_image image, vx_rectangle_t* rect) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  return put_rect(rect, image->valid);
}

VX_API_ENTRY vx_status VX_API_CALL vxSetImageValidRectangle(vx_image image, const vx_rectangle_t* rect) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (rect == nullptr) {
    image->valid = vx_rectangle_t{0, 0, image->width, image->height};
    return VX_SUCCESS;
  }
  if (rect->start_x > rect->end_x || rect->start_y > rect->end_y || rect->end_x > image->width || rect->end_y > image->height) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  image->valid = *rect;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyImagePatch(vx_image image, const vx_rectangle_t* rect, vx_uint32 plane_index,
                                                    const vx_imagepatch_addressing_t* user_addr, void* user_ptr, vx_enum usage,
                                                    vx_enum user_memory_type) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (usage == VX_READ_AND_WRITE) return VX_ERROR_INVALID_PARAMETERS;  // a copy goes one way
  if (const vx_status s = check_access(image, rect, plane_index, usage, user_memory_type); s != VX_SUCCESS) return s;
  if (user_addr == nullptr || user_ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (image->format == VX_DF_IMAGE_U1) return copy_u1(image, rect, user_addr, static_cast<vx_uint8*>(user_ptr), usage);
  const ImagePlane& plane = image->planes[plane_index];
  const vx_uint32 bytes = pixel_bytes(image, plane_index);
  const vx_uint32 cols = (rect->end_x - rect->start_x) >> plane.shift_x;
  const vx_uint32 rows = (rect->end_y - rect->start_y) >> plane.shift_y;
  // The application's patch is the rectangle's size, in image pixels or (a subsampled plane, as the
  // conformance suite gives it) in the plane's pixels; its pixels at least a pixel apart.
  const bool image_size = user_addr->dim_x == rect->end_x - rect->start_x && user_addr->dim_y == rect->end_y - rect->start_y;
  const bool plane_size = user_addr->dim_x == cols && user_addr->dim_y == rows;
  if ((!image_size && !plane_size) ||
      user_addr->stride_x < static_cast<vx_int32>(bytes) ||
      user_addr->stride_y < static_cast<vx_int64>(cols) * user_addr->stride_x) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  // The user's rows are reached as std::ptrdiff_t offsets from user_ptr.
  std::ptrdiff_t user_extent = 0;
  if (!checked_mul(rows, user_addr->stride_y, user_extent)) {
    log(image, VX_ERROR_INVALID_PARAMETERS, "vxCopyImagePatch: %u rows of stride %d span more bytes than an address can", rows,
        user_addr->stride_y);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_uint8* first = image->plane_base(plane_index) + static_cast<std::ptrdiff_t>(rect->start_y >> plane.shift_y) * plane.stride_y +
                    static_cast<std::ptrdiff_t>(rect->start_x >> plane.shift_x) * plane.stride_x;
  auto* user = static_cast<vx_uint8*>(user_ptr);
  const bool packed = plane.stride_x == static_cast<vx_int32>(bytes) && user_addr->stride_x == static_cast<vx_int32>(bytes);
  for (vx_uint32 y = 0; y < rows; ++y) {
    vx_uint8* image_row = first + static_cast<std::ptrdiff_t>(y) * plane.stride_y;
    vx_uint8* user_row = user + static_cast<std::ptrdiff_t>(y) * user_addr->stride_y;
    vx_uint8* to = usage == VX_READ_ONLY ? user_row : image_row;
    const vx_uint8* from = usage == VX_READ_ONLY ? image_row : user_row;
    if (packed) {
      std::memcpy(to, from, static_cast<std::size_t>(cols) * bytes);
      continue;
    }
    const vx_int32 to_step = usage == VX_READ_ONLY ? user_addr->stride_x : plane.stride_x;
    const vx_int32 from_step = usage == VX_READ_ONLY ? plane.stride_x : user_addr->stride_x;
    for (vx_uint32 x = 0; x < cols; ++x) {
      std::memcpy(to + static_cast<std::ptrdiff_t>(x) * to_step, from + static_cast<std::ptrdiff_t>(x) * from_step, bytes);
    }
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxMapImagePatch(vx_image image, const vx_rectangle_t* rect, vx_uint32 plane_index, vx_map_id* map_id,
                                                   vx_imagepatch_addressing_t* addr, void** ptr, vx_enum usage, vx_enum memory_type,
                                                   vx_uint32 flags) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  if (map_id == nullptr || addr == nullptr || ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (const vx_status s = check_access(image, rect, plane_index, usage, memory_type); s != VX_SUCCESS) return s;
  const ImagePlane& plane = image->planes[plane_index];
  // Patches are handed out in place; a gap between pixels cannot be hidden without a copy.
  if ((flags & VX_NOGAP_X) != 0 && plane.stride_x != static_cast<vx_int32>(pixel_bytes(image, plane_index))) return VX_ERROR_NOT_SUPPORTED;
  vx_uint8* const first = image->plane_base(plane_index) + static_cast<std::ptrdiff_t>(rect->start_y >> plane.shift_y) * plane.stride_y +
                          column_offset(image->format, rect->start_x >> plane.shift_x, plane.stride_x);
  const std::lock_guard guard(image->lock);
  const vx_map_id id = image->maps.add(image, usage, first);
  if (id == 0) {
    log(image, VX_ERROR_NO_RESOURCES, "vxMapImagePatch: %zu patches of the image are mapped already", kMaxMapsPerObject);
    return VX_ERROR_NO_RESOURCES;
  }
  image->root()->maps_in_tree.fetch_add(1);
  *map_id = id;
  addr->dim_x = rect->end_x - rect->start_x;
  addr->dim_y = rect->end_y - rect->start_y;
  addr->stride_x = plane.stride_x;
  addr->stride_y = plane.stride_y;
  addr->scale_x = VX_SCALE_UNITY >> plane.shift_x;
  addr->scale_y = VX_SCALE_UNITY >> plane.shift_y;
  addr->step_x = 1u << plane.shift_x;
  addr->step_y = static_cast<vx_uint16>(1u << plane.shift_y);
  addr->stride_x_bits = static_cast<vx_uint16>(plane.stride_x * 8);
  if (image->format == VX_DF_IMAGE_U1) {
    // The patch keeps the pixels' bit offsets: it starts at the byte holding start_x and is widened to the
    // preceding byte boundary (the specification's rule for U1 maps).
    addr->dim_x = rect->end_x - (rect->start_x & ~7u);
    addr->stride_x_bits = 1;
  }
  *ptr = first;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapImagePatch(vx_image image, vx_map_id map_id) {
  if (!valid(image, VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  const std::lock_guard guard(image->lock);
  if (!image->maps.remove(image, map_id)) {
    log(image, VX_ERROR_INVALID_PARAMETERS, "vxUnmapImagePatch: map id %zu is not a patch of this image that is mapped now",
        static_cast<size_t>(map_id));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  image->root()->maps_in_tree.fetch_sub(1);
  return VX_SUCCESS;
}

}  // extern "C"
