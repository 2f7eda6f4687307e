#pragma once
// Images: planar pixel memory (own, the application's through a handle, or a region or channel of another
// image), patches mapped in place and copied, uniform and virtual images, valid regions.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

#include "map_table.hpp"
#include "object.hpp"

namespace vg::openvx {

/// Where one plane of an image lives: a plane of the root image (the one owning the memory) plus an offset,
/// so regions and channels follow the root when its handles are swapped.
struct ImagePlane {
  vx_uint32 root_plane = 0;
  std::ptrdiff_t offset = 0;  // bytes from the root plane's base to this plane's first pixel
  vx_int32 stride_x = 0;      // bytes between horizontally adjacent plane pixels
  vx_int32 stride_y = 0;      // bytes between rows
  vx_uint32 shift_x = 0;      // plane pixels are 2^shift logical pixels wide (chroma subsampling)
  vx_uint32 shift_y = 0;
};

inline constexpr int kMaxPlanes = 3;

struct FreeDeleter {
  void operator()(void* p) const noexcept;
};

}  // namespace vg::openvx

struct _vx_image final : _vx_reference {
  explicit _vx_image(vx_context owner) noexcept : _vx_reference(VX_TYPE_IMAGE, owner) {}
  ~_vx_image() override;

  vx_uint32 width = 0;
  vx_uint32 height = 0;
  vx_df_image format = VX_DF_IMAGE_VIRT;
  // What a virtual image was created with (0 / VX_DF_IMAGE_VIRT: left to the producing kernel's validate).
  vx_uint32 declared_width = 0;
  vx_uint32 declared_height = 0;
  vx_df_image declared_format = VX_DF_IMAGE_VIRT;
  vx_enum space = VX_COLOR_SPACE_NONE;
  vx_enum range = VX_CHANNEL_RANGE_FULL;
  vx_enum memory_type = VX_MEMORY_TYPE_NONE;  // VX_MEMORY_TYPE_HOST: created from the application's handle
  bool is_virtual = false;
  bool is_uniform = false;
  vx_pixel_value_t uniform_value{};
  vx_rectangle_t valid{};

  vx_uint32 plane_count = 0;
  vg::openvx::ImagePlane planes[vg::openvx::kMaxPlanes];
  vx_image parent = nullptr;  // a region or channel holds the image it was made from (internally)
  vx_reference memory_owner = nullptr;  // an image on a tensor's memory holds the tensor (internally)
  // The root's plane memory: its own storage, or the application's handles (null once reclaimed).
  vx_uint8* bases[vg::openvx::kMaxPlanes] = {};
  std::unique_ptr<vx_uint8, vg::openvx::FreeDeleter> storage;

  std::atomic<int> maps_in_tree{0};  // root: patches mapped of it or of its regions and channels (swap waits for 0)
  std::mutex lock;  // guards the maps: kernels on different targets may map one image at once
  vg::openvx::MapTable maps;

  /// The image owning the memory (this one unless a region or channel).
  _vx_image* root() noexcept;
  /// Address of plane pixel (0, 0) of @p plane; null when there is no memory.
  vx_uint8* plane_base(vx_uint32 plane) noexcept;
};

namespace vg::openvx {

/// vxCreateImage (owner a context) or vxCreateVirtualImage (owner a graph, @p is_virtual): an image or an
/// error object. A virtual image may leave size and format open (0, VX_DF_IMAGE_VIRT).
vx_image create_image(vx_reference owner, vx_uint32 width, vx_uint32 height, vx_df_image format, bool is_virtual) noexcept;

/// A single-plane image on memory another object owns (@p memory_owner, held by the image): rows
/// @p stride_y bytes apart, pixels @p stride_x apart, from @p base. An image or an error object.
vx_image image_on_memory(vx_context context, vx_uint32 width, vx_uint32 height, vx_df_image format, vx_uint8* base, vx_int32 stride_x,
                         vx_int32 stride_y, vx_reference memory_owner) noexcept;

/// Gives a virtual image with open attributes its size and format (and memory); any other image must
/// already have them. On failure @p why says what is wrong.
vx_status settle_image(_vx_image* image, vx_uint32 width, vx_uint32 height, vx_df_image format, char* why, vx_size why_size) noexcept;

/// An image of @p exemplar's size and format, owned by @p owner (a graph makes it virtual).
vx_reference image_like(vx_reference owner, const _vx_image* exemplar) noexcept;

/// vxSetMetaFormatFromReference for an image.
vx_status image_meta_from(vx_meta_format meta, const _vx_image* image) noexcept;

/// Validate's width, height and format applied to an output image (data_object.hpp, apply_meta).
vx_status image_apply_meta(_vx_image* image, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
