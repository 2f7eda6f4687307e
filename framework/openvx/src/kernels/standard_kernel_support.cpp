// The table of implemented standard kernels, and the validate and mapping helpers they share
// (standard_kernel_support.hpp).
#include "kernels/standard_kernel_support.hpp"

#include <VX/vx.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "array.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"

namespace vg::openvx {
namespace {

constexpr StandardKernelFunctions kImplemented[] = {
    {VX_KERNEL_NOT, &not_function, &not_validate},
    {VX_KERNEL_AND, &and_function, &bitwise_binary_validate},
    {VX_KERNEL_OR, &or_function, &bitwise_binary_validate},
    {VX_KERNEL_XOR, &xor_function, &bitwise_binary_validate},
    {VX_KERNEL_MEAN_STDDEV, &mean_stddev_function, &mean_stddev_validate},
};

}  // namespace

void implement_standard_kernel(_vx_kernel* kernel) noexcept {
  for (std::span<const StandardKernelFunctions> family :
       {std::span<const StandardKernelFunctions>(kImplemented), arithmetic_kernels(), conversion_kernels(), filter_kernels(),
        gradient_kernels(), statistics_kernels(), tensor_kernels(), data_kernels(), pyramid_kernels(), remap_kernels(), geometric_kernels(), color_convert_kernels(), control_flow_kernels(), non_max_suppression_kernels(), match_template_kernels(), lbp_kernels(), hough_lines_kernels(), fast_kernels(),
        canny_kernels(), harris_kernels(), optical_flow_kernels()}) {
    for (const StandardKernelFunctions& k : family) {
      if (k.kernel_enum != kernel->enumeration) continue;
      kernel->function = k.function;
      kernel->validate = k.validate;
      kernel->implemented = true;
      return;
    }
  }
}

vx_status refuse(vx_node node, vx_status status, const char* format, ...) noexcept {
  char why[VX_MAX_LOG_MESSAGE_LEN];
  va_list args;
  va_start(args, format);
  std::vsnprintf(why, sizeof why, format, args);
  va_end(args);
  log(as<_vx_reference>(node), status, "%s: %s", as<_vx_node>(node)->kernel->kernel_name.c_str(), why);
  return status;
}

const char* format_name(vx_df_image format) noexcept {
  switch (format) {
    case VX_DF_IMAGE_U1: return "U1";
    case VX_DF_IMAGE_U8: return "U8";
    case VX_DF_IMAGE_U16: return "U16";
    case VX_DF_IMAGE_S16: return "S16";
    case VX_DF_IMAGE_U32: return "U32";
    case VX_DF_IMAGE_S32: return "S32";
    case VX_DF_IMAGE_RGB: return "RGB";
    case VX_DF_IMAGE_RGBX: return "RGBX";
    case VX_DF_IMAGE_UYVY: return "UYVY";
    case VX_DF_IMAGE_YUYV: return "YUYV";
    case VX_DF_IMAGE_NV12: return "NV12";
    case VX_DF_IMAGE_NV21: return "NV21";
    case VX_DF_IMAGE_IYUV: return "IYUV";
    case VX_DF_IMAGE_YUV4: return "YUV4";
    case VX_DF_IMAGE_VIRT: return "VIRT (not set)";
    default: return "unknown";
  }
}

vx_status input_image(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an image", name);
  image = as<_vx_image>(parameters[index]);
  if (image->format == VX_DF_IMAGE_VIRT || image->width == 0 || image->height == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is a virtual image no node before this one produces (no size or format)", name);
  }
  return VX_SUCCESS;
}

vx_status u8_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept {
  if (const vx_status s = input_image(node, parameters, index, name, image); s != VX_SUCCESS) return s;
  if (image->format != VX_DF_IMAGE_U8) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, only U8 is supported", name, format_name(image->format));
  }
  return VX_SUCCESS;
}

vx_status enum_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name,
                         std::initializer_list<vx_enum> allowed, vx_enum& value) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type != VX_TYPE_ENUM) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be VX_TYPE_ENUM", name,
                  static_cast<unsigned>(scalar->data_type));
  }
  if (scalar->is_virtual) {
    value = *allowed.begin();
    return VX_SUCCESS;
  }
  std::memcpy(&value, scalar->bytes.data(), sizeof value);
  for (vx_enum a : allowed) {
    if (a == value) return VX_SUCCESS;
  }
  return refuse(node, VX_ERROR_INVALID_VALUE, "%s is 0x%x, which this kernel does not take", name, static_cast<unsigned>(value));
}

vx_status same_size(vx_node node, const _vx_image* a, const char* a_name, const _vx_image* b, const char* b_name) noexcept {
  if (a->width == b->width && a->height == b->height) return VX_SUCCESS;
  return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is %ux%u but %s is %ux%u: they must be the same size", a_name, a->width,
                a->height, b_name, b->width, b->height);
}

vx_status output_image(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_uint32 width,
                       vx_uint32 height, vx_df_image format, vx_meta_format meta) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_IMAGE) || meta == nullptr) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an image", name);
  const _vx_image* out = as<_vx_image>(parameters[index]);
  // What the image was created with (a virtual image may leave each open: 0, VX_DF_IMAGE_VIRT).
  if ((out->declared_width != 0 && out->declared_width != width) || (out->declared_height != 0 && out->declared_height != height)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is %ux%u but the inputs are %ux%u: they must be the same size", name,
                  out->declared_width, out->declared_height, width, height);
  }
  if (out->declared_format != VX_DF_IMAGE_VIRT && out->declared_format != format) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, this kernel makes %s here", name, format_name(out->declared_format),
                  format_name(format));
  }
  if (out->is_uniform) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is a uniform image, which is read-only", name);
  as<_vx_meta_format>(meta)->image_width = width;
  as<_vx_meta_format>(meta)->image_height = height;
  as<_vx_meta_format>(meta)->image_format = format;
  return VX_SUCCESS;
}

MappedImage::MappedImage(vx_image image, vx_enum usage, vx_uint32 plane) noexcept : image_(nullptr) {
  // Per frame: the size straight from the object (one handle check here, one in the map). @p image is a
  // handle (a kernel's parameter) or an object (a pyramid's level): mapped through its handle.
  _vx_image* object = as<_vx_image>(image);
  if (object == nullptr || object->type != VX_TYPE_IMAGE) {
    status_ = VX_ERROR_INVALID_REFERENCE;
    return;
  }
  image_ = to_handle(object);
  const vx_uint32 width = object->width, height = object->height;
  const vx_rectangle_t whole{0, 0, width, height};
  void* base = nullptr;
  status_ = vxMapImagePatch(image_, &whole, plane, &map_id_, &addressing_, &base, usage, VX_MEMORY_TYPE_HOST, 0);
  if (status_ == VX_SUCCESS) {
    base_ = static_cast<vx_uint8*>(base);
  } else {
    log(object, status_, "a kernel could not map its %ux%u image (status %d)", width, height,
        static_cast<int>(status_));
  }
}

MappedImage::~MappedImage() {
  if (status_ == VX_SUCCESS) (void)vxUnmapImagePatch(image_, map_id_);
}

vx_status scalar_input_bytes(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type,
                             const char* type_name, void* value, std::size_t size, bool& known) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type != type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be %s", name, static_cast<unsigned>(scalar->data_type),
                  type_name);
  }
  known = !scalar->is_virtual;
  if (known) std::memcpy(value, scalar->bytes.data(), size);
  return VX_SUCCESS;
}

vx_status keypoint_array_output(vx_node node, const vx_reference parameters[], vx_meta_format metas[], vx_uint32 index,
                                const char* name, vx_size open_capacity) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_ARRAY) || metas[index] == nullptr) {
    return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an array", name);
  }
  const auto* array = as<_vx_array>(parameters[index]);
  if (!array->type_open && array->item_type != VX_TYPE_KEYPOINT) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is an array of items of type 0x%x, it must hold VX_TYPE_KEYPOINT", name,
                  static_cast<unsigned>(array->item_type));
  }
  as<_vx_meta_format>(metas[index])->item_type = VX_TYPE_KEYPOINT;
  as<_vx_meta_format>(metas[index])->capacity = array->capacity_open ? open_capacity : array->capacity;
  return VX_SUCCESS;
}

vx_status optional_size_output(vx_node node, const vx_reference parameters[], vx_meta_format metas[], vx_uint32 index,
                               const char* name) noexcept {
  if (parameters[index] == nullptr) return VX_SUCCESS;
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR) || metas[index] == nullptr) {
    return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  }
  const auto* count = as<_vx_scalar>(parameters[index]);
  const bool open = count->is_virtual && count->data_type == VX_TYPE_INVALID;
  if (!open && count->data_type != VX_TYPE_SIZE) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be VX_TYPE_SIZE", name,
                  static_cast<unsigned>(count->data_type));
  }
  as<_vx_meta_format>(metas[index])->scalar_type = VX_TYPE_SIZE;
  return VX_SUCCESS;
}

}  // namespace vg::openvx
