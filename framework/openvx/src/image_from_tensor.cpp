// vxCreateImageObjectArrayFromTensor: images on the 2-D slices of a 3-D tensor, sharing its memory.
#include <VX/vx.h>

#include <new>

#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "image.hpp"
#include "object_array.hpp"
#include "tensor.hpp"

namespace {

using namespace vg::openvx;

/// The tensor element type an image format's pixels are.
vx_enum element_type_of(vx_df_image format) noexcept {
  switch (format) {
    case VX_DF_IMAGE_U8: return VX_TYPE_UINT8;
    case VX_DF_IMAGE_U16: return VX_TYPE_UINT16;
    case VX_DF_IMAGE_S16: return VX_TYPE_INT16;
    case VX_DF_IMAGE_U32: return VX_TYPE_UINT32;
    case VX_DF_IMAGE_S32: return VX_TYPE_INT32;
    default: return VX_TYPE_INVALID;
  }
}

vx_object_array fail(vx_reference owner, vx_status status, const char* why) noexcept {
  log(owner, status, "vxCreateImageObjectArrayFromTensor: %s", why);
  return reinterpret_cast<vx_object_array>(error_object(owner, status));
}

}  // namespace

extern "C" {

VX_API_ENTRY vx_object_array VX_API_CALL vxCreateImageObjectArrayFromTensor(vx_tensor tensor, const vx_rectangle_t* rect, vx_size array_size,
                                                                            vx_size jump, vx_df_image image_format) {
  if (!valid(tensor, VX_TYPE_TENSOR)) return nullptr;
  if (tensor->number_of_dims != 3) return to_handle(fail(tensor, VX_ERROR_INVALID_DIMENSION, "the tensor must have 3 dimensions (x, y, item)"));
  const vx_enum element = element_type_of(image_format);
  if (element == VX_TYPE_INVALID || element != tensor->data_type) {
    return to_handle(fail(tensor, VX_ERROR_INVALID_FORMAT, "the image format must be U8, U16, S16, U32 or S32 and match the tensor's data type"));
  }
  if (rect == nullptr || rect->start_x >= rect->end_x || rect->start_y >= rect->end_y || rect->end_x > tensor->dims[0] ||
      rect->end_y > tensor->dims[1]) {
    return to_handle(fail(tensor, VX_ERROR_INVALID_PARAMETERS, "the rectangle is not inside the tensor's first two dimensions"));
  }
  // jump is the byte stride from one image to the next, as the conformance suite passes it (the tensor's
  // third stride for adjacent slices): whole slices only.
  const vx_size slice = tensor->strides[2];
  if (array_size == 0 || jump == 0 || slice == 0 || jump % slice != 0 || (array_size - 1) * (jump / slice) >= tensor->dims[2]) {
    return to_handle(fail(tensor, VX_ERROR_INVALID_PARAMETERS,
                "array_size images, jump bytes apart, do not fit the tensor's third dimension (jump must be a multiple of its "
                "third stride)"));
  }
  if (!tensor->memory || tensor->memory->base == nullptr) {
    return to_handle(fail(tensor, VX_ERROR_OPTIMIZED_AWAY, "the tensor has no memory (virtual, or its handle was taken back)"));
  }
  vx_context context = tensor->context;
  auto* array = new (std::nothrow) _vx_object_array(context, VX_TYPE_IMAGE, false);
  if (array == nullptr) return to_handle(reinterpret_cast<vx_object_array>(error_object(tensor, VX_ERROR_NO_MEMORY)));
  try {
    array->items.reserve(array_size);
  } catch (...) {
    delete array;
    return to_handle(reinterpret_cast<vx_object_array>(error_object(tensor, VX_ERROR_NO_MEMORY)));
  }
  const vx_size* stride = tensor->strides;
  for (vx_size i = 0; i < array_size; ++i) {
    vx_uint8* first = tensor->memory->base + tensor->offset + i * jump + rect->start_y * stride[1] + rect->start_x * stride[0];
    vx_image image = image_on_memory(context, rect->end_x - rect->start_x, rect->end_y - rect->start_y, image_format, first,
                                     static_cast<vx_int32>(stride[0]), static_cast<vx_int32>(stride[1]), tensor);
    if (const vx_status s = status_of(image); s != VX_SUCCESS) {
      delete array;  // releases the images made so far
      return to_handle(reinterpret_cast<vx_object_array>(error_object(tensor, s)));
    }
    take_item(array, image);
    array->items.push_back(image);
  }
  array->memory_owner = tensor;
  vx_reference ref = adopt(array, Hold::external);
  return to_handle(ref != nullptr ? reinterpret_cast<vx_object_array>(ref) : reinterpret_cast<vx_object_array>(error_object(tensor, VX_ERROR_NO_MEMORY)));
}

}  // extern "C"
