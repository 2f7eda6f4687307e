// The standard kernel Copy, for any data object: each a function and a validate (standard_kernel_support.hpp).
//
// Copy (OpenVX 1.3): input and output are data objects of one type with matching attributes; the output
// gets the input's content. Implemented for images (every plane, every format), scalars, arrays (the
// items and their count) and tensors (element by element through both tensors' strides). Other types are
// refused by validate (VX_ERROR_NOT_SUPPORTED, logged). The output is described like the input
// (meta_from_reference), so a virtual output with open attributes takes the input's. Nothing is allocated
// per frame.
#include <VX/vx.h>

#include <cstring>
#include <mutex>

#include "array.hpp"
#include "convolution.hpp"
#include "data_object.hpp"
#include "distribution.hpp"
#include "image.hpp"
#include "lut.hpp"
#include "matrix.hpp"
#include "object_array.hpp"
#include "pyramid.hpp"
#include "remap.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "tensor.hpp"
#include "threshold.hpp"
#include "user_data_object.hpp"

namespace vg::openvx {
namespace {

/// Bytes of one element of @p plane of @p format (an element covers step_x pixels of a subsampled plane);
/// 0 for a format Copy does not take.
vx_size element_bytes(vx_df_image format, vx_uint32 plane) noexcept {
  switch (format) {
    case VX_DF_IMAGE_U8: return 1;
    case VX_DF_IMAGE_U16:
    case VX_DF_IMAGE_S16: return 2;
    case VX_DF_IMAGE_U32:
    case VX_DF_IMAGE_S32: return 4;
    case VX_DF_IMAGE_RGB: return 3;
    case VX_DF_IMAGE_RGBX: return 4;
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_YUYV: return 2;  // one element per pixel of the interleaved pair, as the addressing gives it
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: return plane == 0 ? 1 : 2;
    case VX_DF_IMAGE_IYUV:
    case VX_DF_IMAGE_YUV4: return 1;
    default: return 0;
  }
}

/// Images given as objects (copy_object's are: items of containers among them).
vx_status copy_image(vx_image input, vx_image output) noexcept {
  const vx_uint32 planes = input->plane_count;
  const vx_df_image format = input->format;
  for (vx_uint32 p = 0; p < planes; ++p) {
    const MappedImage in(to_handle(input), VX_READ_ONLY, p);
    const MappedImage out(to_handle(output), VX_WRITE_ONLY, p);
    if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
    const vx_imagepatch_addressing_t& a = in.addressing();
    if (a.dim_x != out.width() || a.dim_y != out.height()) return VX_ERROR_INVALID_PARAMETERS;
    if (format == VX_DF_IMAGE_U1) {
      // Packed bits: whole bytes, then the last bits masked (a region's last byte is shared with its parent).
      const vx_uint32 whole = a.dim_x / 8, rest = a.dim_x % 8;
      const auto mask = static_cast<vx_uint8>((1u << rest) - 1);
      for (vx_uint32 r = 0; r < a.dim_y; ++r) {
        const vx_uint8* from = in.row(r);
        vx_uint8* to = out.row(r);
        std::memcpy(to, from, whole);
        if (rest != 0) to[whole] = static_cast<vx_uint8>((to[whole] & ~mask) | (from[whole] & mask));
      }
      continue;
    }
    const vx_size bytes = element_bytes(format, p);
    if (bytes == 0) return VX_ERROR_INVALID_FORMAT;
    const vx_uint32 step_x = a.step_x != 0 ? a.step_x : 1, step_y = a.step_y != 0 ? a.step_y : 1;
    const vx_uint32 columns = (a.dim_x + step_x - 1) / step_x, rows = (a.dim_y + step_y - 1) / step_y;
    const bool packed = in.stride_x() == static_cast<vx_int32>(bytes) && out.stride_x() == static_cast<vx_int32>(bytes);
    for (vx_uint32 r = 0; r < rows; ++r) {
      const vx_uint8* from = in.row(r);
      vx_uint8* to = out.row(r);
      if (packed) {
        std::memcpy(to, from, columns * bytes);
      } else {
        for (vx_uint32 c = 0; c < columns; ++c) {
          std::memcpy(to + static_cast<std::ptrdiff_t>(c) * out.stride_x(), from + static_cast<std::ptrdiff_t>(c) * in.stride_x(), bytes);
        }
      }
    }
  }
  return VX_SUCCESS;
}

vx_status copy_scalar(_vx_scalar* in, _vx_scalar* out) noexcept {
  if (in->data_type != out->data_type || in->bytes.size() != out->bytes.size()) return VX_ERROR_INVALID_TYPE;
  std::memcpy(out->bytes.data(), in->bytes.data(), in->bytes.size());
  return VX_SUCCESS;
}

vx_status copy_array(_vx_array* in, _vx_array* out) noexcept {
  if (in == out) return VX_SUCCESS;
  std::scoped_lock both(in->lock, out->lock);
  if (in->item_size != out->item_size || in->item_type != out->item_type) return VX_ERROR_INVALID_TYPE;
  if (in->num_items > out->capacity) return VX_ERROR_INVALID_DIMENSION;
  const vx_size bytes = in->num_items * in->item_size;
  if (bytes != 0) {
    if (in->items.size() < bytes || out->items.size() < bytes) return VX_ERROR_NO_MEMORY;
    std::memcpy(out->items.data(), in->items.data(), bytes);
  }
  out->num_items = in->num_items;
  return VX_SUCCESS;
}

vx_status copy_tensor(_vx_tensor_t* in, _vx_tensor_t* out) noexcept {
  if (in->number_of_dims != out->number_of_dims || in->data_type != out->data_type) return VX_ERROR_INVALID_PARAMETERS;
  const vx_size n = in->number_of_dims;
  for (vx_size d = 0; d < n; ++d) {
    if (in->dims[d] != out->dims[d]) return VX_ERROR_INVALID_DIMENSION;
    if (in->dims[d] == 0) return VX_SUCCESS;
  }
  if (!in->memory || !out->memory || in->memory->base == nullptr || out->memory->base == nullptr) return VX_ERROR_NO_MEMORY;
  const vx_size bytes = tensor_item_size(in->data_type);
  if (bytes == 0 || n == 0) return VX_ERROR_INVALID_TYPE;
  const vx_uint8* from_base = in->memory->base + in->offset;
  vx_uint8* to_base = out->memory->base + out->offset;
  vx_size index[kMaxTensorDims] = {};
  for (;;) {
    std::ptrdiff_t from = 0, to = 0;
    for (vx_size d = 0; d < n; ++d) {
      from += static_cast<std::ptrdiff_t>(index[d] * in->strides[d]);
      to += static_cast<std::ptrdiff_t>(index[d] * out->strides[d]);
    }
    std::memmove(to_base + to, from_base + from, bytes);
    vx_size d = 0;
    while (d < n && ++index[d] == in->dims[d]) index[d++] = 0;
    if (d == n) break;
  }
  return VX_SUCCESS;
}

/// The flat block of an object held in one (LUT, matrix, convolution, distribution, remap, user data
/// object); null for other types.
FlatData* flat_data(vx_reference object) noexcept {
  switch (object->type) {
    case VX_TYPE_LUT: return &static_cast<_vx_lut*>(object)->data;
    case VX_TYPE_MATRIX: return &static_cast<_vx_matrix*>(object)->data;
    case VX_TYPE_CONVOLUTION: return &static_cast<_vx_convolution*>(object)->data;
    case VX_TYPE_DISTRIBUTION: return &static_cast<_vx_distribution*>(object)->data;
    case VX_TYPE_REMAP: return &static_cast<_vx_remap*>(object)->table;
    case VX_TYPE_USER_DATA_OBJECT: return &static_cast<_vx_user_data_object*>(object)->data;
    default: return nullptr;
  }
}

vx_status copy_flat(vx_reference input, vx_reference output) noexcept {
  FlatData* in = flat_data(input);
  FlatData* out = flat_data(output);
  if (in == nullptr || out == nullptr) return VX_ERROR_NOT_SUPPORTED;
  if (!in->allocated() || !out->allocated()) return VX_ERROR_NO_MEMORY;
  if (in->size() != out->size()) return VX_ERROR_INVALID_DIMENSION;
  if (in != out) std::memcpy(out->data(), in->data(), in->size());
  if (input->type == VX_TYPE_CONVOLUTION) static_cast<_vx_convolution*>(output)->scale = static_cast<_vx_convolution*>(input)->scale;
  return VX_SUCCESS;
}

vx_status copy_threshold(_vx_threshold* in, _vx_threshold* out) noexcept {
  if (in == out) return VX_SUCCESS;
  if (in->threshold_type != out->threshold_type) return VX_ERROR_INVALID_TYPE;
  vx_pixel_value_t value, lower, upper, true_value, false_value;
  {
    const std::lock_guard guard(in->lock);
    value = in->value, lower = in->lower, upper = in->upper, true_value = in->true_value, false_value = in->false_value;
  }
  const std::lock_guard guard(out->lock);
  out->value = value, out->lower = lower, out->upper = upper, out->true_value = true_value, out->false_value = false_value;
  return VX_SUCCESS;
}

}  // namespace

bool copy_supported(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_IMAGE:
    case VX_TYPE_SCALAR:
    case VX_TYPE_ARRAY:
    case VX_TYPE_TENSOR:
    case VX_TYPE_LUT:
    case VX_TYPE_MATRIX:
    case VX_TYPE_CONVOLUTION:
    case VX_TYPE_DISTRIBUTION:
    case VX_TYPE_REMAP:
    case VX_TYPE_USER_DATA_OBJECT:
    case VX_TYPE_THRESHOLD:
    case VX_TYPE_PYRAMID:
    case VX_TYPE_OBJECT_ARRAY: return true;
    default: return false;
  }
}

/// Copies @p input's contents into @p output, an object of the same type and attributes: images (every
/// plane), scalars, arrays, tensors, the flat objects, thresholds, pyramids (level by level) and object
/// arrays (item by item). Used by Copy and Select.
vx_status copy_object(vx_reference input, vx_reference output) noexcept {
  if (input == nullptr || output == nullptr || input->type != output->type) return VX_ERROR_INVALID_PARAMETERS;
  switch (input->type) {
    case VX_TYPE_IMAGE: return copy_image(reinterpret_cast<vx_image>(input), reinterpret_cast<vx_image>(output));
    case VX_TYPE_SCALAR: return copy_scalar(static_cast<_vx_scalar*>(input), static_cast<_vx_scalar*>(output));
    case VX_TYPE_ARRAY: return copy_array(static_cast<_vx_array*>(input), static_cast<_vx_array*>(output));
    case VX_TYPE_TENSOR: return copy_tensor(static_cast<_vx_tensor_t*>(input), static_cast<_vx_tensor_t*>(output));
    case VX_TYPE_THRESHOLD: return copy_threshold(static_cast<_vx_threshold*>(input), static_cast<_vx_threshold*>(output));
    case VX_TYPE_PYRAMID: {
      auto* in = static_cast<_vx_pyramid*>(input);
      auto* out = static_cast<_vx_pyramid*>(output);
      if (in->images.size() != out->images.size()) return VX_ERROR_INVALID_DIMENSION;
      for (std::size_t i = 0; i < in->images.size(); ++i)
        if (const vx_status s = copy_image(in->images[i], out->images[i]); s != VX_SUCCESS) return s;
      return VX_SUCCESS;
    }
    case VX_TYPE_OBJECT_ARRAY: {
      auto* in = static_cast<_vx_object_array*>(input);
      auto* out = static_cast<_vx_object_array*>(output);
      if (in->items.size() != out->items.size()) return VX_ERROR_INVALID_DIMENSION;
      for (std::size_t i = 0; i < in->items.size(); ++i)
        if (const vx_status s = copy_object(in->items[i], out->items[i]); s != VX_SUCCESS) return s;
      return VX_SUCCESS;
    }
    default: return copy_flat(input, output);
  }
}

namespace {

vx_status VX_CALLBACK copy_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const vx_reference input = lookup(parameters[0]), output = lookup(parameters[1]);  // objects
  if (input == nullptr || output == nullptr) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "input and output must both be given");
  if (input->type != output->type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "output is of type 0x%x, input of type 0x%x: they must be one type",
                  static_cast<unsigned>(output->type), static_cast<unsigned>(input->type));
  }
  if (!copy_supported(input->type)) {
    return refuse(node, VX_ERROR_NOT_SUPPORTED, "input of type 0x%x: this library copies images, scalars, arrays, tensors, LUTs, matrices, convolutions, "
                  "distributions, remaps, thresholds, pyramids, object arrays and user data objects only",
                  static_cast<unsigned>(input->type));
  }
  if (input->type == VX_TYPE_IMAGE) {
    const _vx_image* image = nullptr;
    if (const vx_status s = input_image(node, parameters, 0, "input", image); s != VX_SUCCESS) return s;
    if (element_bytes(image->format, 0) == 0 && image->format != VX_DF_IMAGE_U1) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, which Copy does not take", format_name(image->format));
    }
    if (const vx_status s = output_image(node, parameters, 1, "output", image->width, image->height, image->format, metas[1]);
        s != VX_SUCCESS) {
      return s;
    }
    return VX_SUCCESS;
  }
  if (const vx_status s = meta_from_reference(as<_vx_meta_format>(metas[1]), input); s != VX_SUCCESS) {
    return refuse(node, s, "input's attributes cannot be read (are they settled?)");
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK copy_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  return copy_object(lookup(parameters[0]), lookup(parameters[1]));
}

constexpr StandardKernelFunctions kDataKernels[] = {
    {VX_KERNEL_COPY, &copy_function, &copy_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> data_kernels() noexcept { return kDataKernels; }

}  // namespace vg::openvx
