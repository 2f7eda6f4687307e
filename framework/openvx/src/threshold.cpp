// Thresholds: creation, value / range / output copies, queries, and the data object operations.
#include "threshold.hpp"

#include <cstdio>
#include <new>

#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_threshold error_threshold(vx_reference owner, vx_status status) noexcept {
  return reinterpret_cast<vx_threshold>(error_object(owner, status));
}

bool valid_input_format(vx_df_image format) noexcept {
  switch (format) {
    case VX_DF_IMAGE_U8:
    case VX_DF_IMAGE_S16:
    case VX_DF_IMAGE_U16:
    case VX_DF_IMAGE_S32:
    case VX_DF_IMAGE_U32: return true;
    default: return false;
  }
}

bool valid_output_format(vx_df_image format) noexcept {
  return format == VX_DF_IMAGE_U1 || valid_input_format(format);
}

/// The default true value: the largest value of the output format (1 for U1); false is 0.
vx_pixel_value_t default_true_value(vx_df_image format) noexcept {
  vx_pixel_value_t v{};
  switch (format) {
    case VX_DF_IMAGE_U1: v.U1 = vx_true_e; break;
    case VX_DF_IMAGE_U8: v.U8 = 255; break;
    case VX_DF_IMAGE_S16: v.S16 = 32767; break;
    case VX_DF_IMAGE_U16: v.U16 = 65535; break;
    case VX_DF_IMAGE_S32: v.S32 = 2147483647; break;
    case VX_DF_IMAGE_U32: v.U32 = 4294967295u; break;
    default: break;
  }
  return v;
}

vx_threshold make_threshold(vx_reference owner, vx_enum type, vx_df_image input, vx_df_image output, bool is_virtual) noexcept {
  if (type != VX_THRESHOLD_TYPE_BINARY && type != VX_THRESHOLD_TYPE_RANGE) return error_threshold(owner, VX_ERROR_INVALID_TYPE);
  if (!valid_input_format(input) || !valid_output_format(output)) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateThresholdForImage: unsupported input or output image format");
    return error_threshold(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  auto* threshold = new (std::nothrow) _vx_threshold(context_of(owner));
  if (threshold == nullptr) return error_threshold(owner, VX_ERROR_NO_MEMORY);
  threshold->threshold_type = type;
  threshold->input_format = input;
  threshold->output_format = output;
  threshold->true_value = default_true_value(output);
  threshold->is_virtual = is_virtual;
  vx_reference ref = adopt(threshold, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_threshold>(ref) : error_threshold(owner, VX_ERROR_NO_MEMORY);
}

/// Copies @p count values between the threshold and the application, as @p usage says.
vx_status copy_values(vx_threshold threshold, vx_pixel_value_t* const* user, vx_pixel_value_t* const* own, int count,
                      vx_enum usage, vx_enum user_mem_type) noexcept {
  if (const vx_status s = content_access(threshold->is_virtual); s != VX_SUCCESS) return s;
  if (usage != VX_READ_ONLY && usage != VX_WRITE_ONLY) return VX_ERROR_INVALID_PARAMETERS;
  if (user_mem_type != VX_MEMORY_TYPE_HOST) return VX_ERROR_INVALID_PARAMETERS;
  for (int i = 0; i < count; ++i) {
    if (user[i] == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  }
  const std::lock_guard guard(threshold->lock);
  for (int i = 0; i < count; ++i) {
    if (usage == VX_READ_ONLY) {
      *user[i] = *own[i];
    } else {
      *own[i] = *user[i];
    }
  }
  return VX_SUCCESS;
}

}  // namespace

vx_reference threshold_like(vx_reference owner, const _vx_threshold* exemplar) noexcept {
  vx_threshold made = make_threshold(owner, exemplar->threshold_type, exemplar->input_format, exemplar->output_format,
                                     owner->type == VX_TYPE_GRAPH);
  return reinterpret_cast<vx_reference>(made);
}

vx_status threshold_meta_from(vx_meta_format meta, const _vx_threshold* exemplar) noexcept {
  meta->threshold_type = exemplar->threshold_type;
  return VX_SUCCESS;
}

vx_status threshold_apply_meta(_vx_threshold* threshold, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  // Every attribute of a threshold is given at creation: validate's type must match, virtual or not.
  if (meta->threshold_type == 0) {
    std::snprintf(why, why_size, "validate did not set VX_THRESHOLD_TYPE");
    return VX_ERROR_INVALID_TYPE;
  }
  if (meta->threshold_type != threshold->threshold_type) {
    std::snprintf(why, why_size, "the threshold has type 0x%x, validate says 0x%x", static_cast<unsigned>(threshold->threshold_type),
                  static_cast<unsigned>(meta->threshold_type));
    return VX_ERROR_INVALID_TYPE;
  }
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_threshold VX_API_CALL vxCreateThresholdForImage(vx_context context, vx_enum thresh_type, vx_df_image input_format,
                                                                vx_df_image output_format) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_threshold(context, thresh_type, input_format, output_format, false));
}

VX_API_ENTRY vx_threshold VX_API_CALL vxCreateVirtualThresholdForImage(vx_graph graph, vx_enum thresh_type, vx_df_image input_format,
                                                                       vx_df_image output_format) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_threshold(reinterpret_cast<vx_reference>(graph), thresh_type, input_format, output_format, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdValue(vx_threshold threshold, vx_pixel_value_t* value_ptr, vx_enum usage,
                                                        vx_enum user_mem_type) {
  if (!valid(threshold, VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  if (threshold->threshold_type != VX_THRESHOLD_TYPE_BINARY) return VX_ERROR_INVALID_PARAMETERS;
  vx_pixel_value_t* user[1] = {value_ptr};
  vx_pixel_value_t* own[1] = {&threshold->value};
  return copy_values(threshold, user, own, 1, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdRange(vx_threshold threshold, vx_pixel_value_t* lower_value_ptr,
                                                        vx_pixel_value_t* upper_value_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(threshold, VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  if (threshold->threshold_type != VX_THRESHOLD_TYPE_RANGE) return VX_ERROR_INVALID_PARAMETERS;
  vx_pixel_value_t* user[2] = {lower_value_ptr, upper_value_ptr};
  vx_pixel_value_t* own[2] = {&threshold->lower, &threshold->upper};
  return copy_values(threshold, user, own, 2, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyThresholdOutput(vx_threshold threshold, vx_pixel_value_t* true_value_ptr,
                                                         vx_pixel_value_t* false_value_ptr, vx_enum usage, vx_enum user_mem_type) {
  if (!valid(threshold, VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  vx_pixel_value_t* user[2] = {true_value_ptr, false_value_ptr};
  vx_pixel_value_t* own[2] = {&threshold->true_value, &threshold->false_value};
  return copy_values(threshold, user, own, 2, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryThreshold(vx_threshold threshold, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(threshold, VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_THRESHOLD_TYPE: return put<vx_enum>(ptr, size, threshold->threshold_type);
    case VX_THRESHOLD_INPUT_FORMAT: return put<vx_df_image>(ptr, size, threshold->input_format);
    case VX_THRESHOLD_OUTPUT_FORMAT: return put<vx_df_image>(ptr, size, threshold->output_format);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetThresholdAttribute(vx_threshold threshold, vx_enum, const void*, vx_size) {
  if (!valid(threshold, VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  // Every 1.3 threshold attribute is read-only: values go through vxCopyThreshold*.
  return VX_ERROR_NOT_SUPPORTED;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseThreshold(vx_threshold* threshold) { return release_handle(threshold, VX_TYPE_THRESHOLD); }

}  // extern "C"
