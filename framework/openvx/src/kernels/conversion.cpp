// The standard conversion kernels ConvertDepth, TableLookup, Threshold, ChannelExtract and ChannelCombine:
// each a function and a validate (standard_kernel_support.hpp).
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <optional>

#include "lut.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "visiongraph/kernels/vision/channels.hpp"
#include "visiongraph/kernels/vision/convert_depth.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/threshold.hpp"
#include "threshold.hpp"

namespace vg::openvx {
namespace {

// --- shared --------------------------------------------------------------------------------------------

/// The value of an input scalar while a kernel function runs (virtual scalars are reachable there).
template <typename T>
vx_status scalar_value(vx_reference scalar, T& value) noexcept {
  return vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

/// The output image's own format, which these kernels do not decide (ConvertDepth, ChannelCombine): refuses an
/// output whose format was left open.
vx_status given_output_format(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const char* what,
                              vx_df_image& format) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not an image", name);
  format = as<_vx_image>(parameters[index])->declared_format;
  if (format == VX_DF_IMAGE_VIRT) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s is a virtual image of open format: %s is the output's own format, give it", name,
                  what);
  }
  return VX_SUCCESS;
}

// --- ConvertDepth --------------------------------------------------------------------------------------

/// The shift the specification allows (0 <= shift < 8); other values are refused.
constexpr bool valid_shift(vx_int32 shift) noexcept { return shift >= 0 && shift < 8; }

// S16 -> U8 (down-conversion): an arithmetic shift right, then WRAP keeps the low 8 bits or SATURATE clamps to
// [0, 255]. U8 -> S16 (up-conversion, policy ignored): a shift left, which fits S16 for every allowed shift.
constexpr vx_uint8 down_wrap(vx_int16 v, int shift) noexcept { return static_cast<vx_uint8>(v >> shift); }
constexpr vx_uint8 down_saturate(vx_int16 v, int shift) noexcept { return static_cast<vx_uint8>(std::clamp(v >> shift, 0, 255)); }
constexpr vx_int16 up(vx_uint8 v, int shift) noexcept { return static_cast<vx_int16>(v << shift); }

// U1 conversions (OpenVX 1.3) ignore policy and shift: to U1, any non-zero pixel gives 1; from U1, a set
// pixel gives the value with every bit set (U8 255, S16 -1) and a clear one 0.
constexpr bool valid_conversion(vx_df_image from, vx_df_image to) noexcept {
  const auto ok = [](vx_df_image f) { return f == VX_DF_IMAGE_U8 || f == VX_DF_IMAGE_S16 || f == VX_DF_IMAGE_U1; };
  return ok(from) && ok(to) && from != to;
}

// --- ChannelExtract / ChannelCombine -------------------------------------------------------------------

bool is_channel_format(vx_df_image format) noexcept {
  switch (format) {
    case VX_DF_IMAGE_RGB:
    case VX_DF_IMAGE_RGBX:
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21:
    case VX_DF_IMAGE_IYUV:
    case VX_DF_IMAGE_YUV4: return true;
    default: return false;
  }
}

bool is_rgb(vx_df_image format) noexcept { return format == VX_DF_IMAGE_RGB || format == VX_DF_IMAGE_RGBX; }
vx_uint32 channel_count(vx_df_image format) noexcept { return format == VX_DF_IMAGE_RGBX ? 4 : 3; }

/// The subsampling of channel @p c (0: R or Y, 1: G or U, 2: B or V, 3: A) of @p format, as shifts.
void channel_shifts(vx_df_image format, vx_uint32 c, vx_uint32& shift_x, vx_uint32& shift_y) noexcept {
  shift_x = shift_y = 0;
  if (c == 0) return;
  switch (format) {
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_UYVY: shift_x = 1; break;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21:
    case VX_DF_IMAGE_IYUV: shift_x = shift_y = 1; break;
    default: break;
  }
}

/// The position (0..3) of @p channel in @p format: R, G, B, A for RGB and RGBX, Y, U, V for the YUV formats,
/// and VX_CHANNEL_0..3 by position; -1 when the format has no such channel.
int channel_index(vx_df_image format, vx_enum channel) noexcept {
  const int count = static_cast<int>(channel_count(format));
  int index = -1;
  if (channel >= VX_CHANNEL_0 && channel <= VX_CHANNEL_3) {
    index = channel - VX_CHANNEL_0;
  } else if (is_rgb(format)) {
    if (channel >= VX_CHANNEL_R && channel <= VX_CHANNEL_A) index = channel - VX_CHANNEL_R;
  } else if (channel >= VX_CHANNEL_Y && channel <= VX_CHANNEL_V) {
    index = channel - VX_CHANNEL_Y;
  }
  return index < count ? index : -1;
}

/// Where channel @p c of a @p format image lives: the plane, and for output pixel (x, y) of the channel the
/// byte at row(y) + (x * pixel_mul + pixel_add) * stride_x + byte of that plane.
struct ChannelPlace {
  vx_uint32 plane = 0;
  vx_uint32 pixel_mul = 1, pixel_add = 0, byte = 0;
};

ChannelPlace channel_place(vx_df_image format, vx_uint32 c) noexcept {
  switch (format) {
    case VX_DF_IMAGE_RGB:
    case VX_DF_IMAGE_RGBX: return {0, 1, 0, c};
    case VX_DF_IMAGE_YUYV:  // Y0 U Y1 V: U in the even pixel's second byte, V in the odd pixel's
      return c == 0 ? ChannelPlace{0, 1, 0, 0} : ChannelPlace{0, 2, c == 1 ? 0u : 1u, 1};
    case VX_DF_IMAGE_UYVY:  // U Y0 V Y1
      return c == 0 ? ChannelPlace{0, 1, 0, 1} : ChannelPlace{0, 2, c == 1 ? 0u : 1u, 0};
    case VX_DF_IMAGE_NV12:  // Y plane, then U V pairs
      return c == 0 ? ChannelPlace{0, 1, 0, 0} : ChannelPlace{1, 1, 0, c - 1};
    case VX_DF_IMAGE_NV21:  // Y plane, then V U pairs
      return c == 0 ? ChannelPlace{0, 1, 0, 0} : ChannelPlace{1, 1, 0, c == 1 ? 1u : 0u};
    default: return {c, 1, 0, 0};  // IYUV, YUV4: one plane per channel
  }
}

const char* const kPlaneNames[4] = {"plane0", "plane1", "plane2", "plane3"};

// --- ConvertDepth (input, output, policy, shift) -------------------------------------------------------

vx_status VX_CALLBACK convert_depth_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format) && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8, S16 or U1", format_name(input->format));
  }
  vx_df_image out_format = VX_DF_IMAGE_VIRT;
  if (const vx_status s = given_output_format(node, parameters, 1, "output", "the format converted to", out_format); s != VX_SUCCESS) {
    return s;
  }
  if (!valid_conversion(input->format, out_format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT,
                  "output has format %s but input is %s: the conversions are between two different formats of U8, S16 and U1",
                  format_name(out_format), format_name(input->format));
  }
  vx_enum policy = 0;
  if (const vx_status s = policy_parameter(node, parameters, 2, policy); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[3], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "shift is not a scalar");
  const auto* shift = as<_vx_scalar>(parameters[3]);
  if (shift->data_type != VX_TYPE_INT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "shift is a scalar of type 0x%x, it must be VX_TYPE_INT32", static_cast<unsigned>(shift->data_type));
  }
  if (!shift->is_virtual) {
    vx_int32 value = 0;
    std::memcpy(&value, shift->bytes.data(), sizeof value);
    if (!valid_shift(value)) return refuse(node, VX_ERROR_INVALID_VALUE, "shift is %d, it must be 0 to 7", value);
  }
  return output_image(node, parameters, 1, "output", input->width, input->height, out_format, metas[1]);
}

vx_status VX_CALLBACK convert_depth_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  vx_int32 shift = 0;
  if (const vx_status s = scalar_value(parameters[2], policy); s != VX_SUCCESS) return s;
  if (const vx_status s = scalar_value(parameters[3], shift); s != VX_SUCCESS) return s;
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  if (!valid_shift(shift)) return VX_ERROR_INVALID_VALUE;
  const vx_df_image in_format = as<_vx_image>(parameters[0])->format;
  const vx_df_image out_format = as<_vx_image>(parameters[1])->format;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const int n = shift;
  vision::Pixels vin, vout;
  if (vision_pixels(in, in_format, vin) && vision_pixels(out, out_format, vout) &&
      vision::convert_depth(vin, vout, n, policy == VX_CONVERT_POLICY_SATURATE ? vision::Overflow::saturate : vision::Overflow::wrap)) {
    return VX_SUCCESS;  // U8 <-> S16, packed: the vision library's vectorised function (the same values)
  }
  if (in_format == VX_DF_IMAGE_U8 && out_format == VX_DF_IMAGE_S16) {
    for_each_pixel<vx_uint8, vx_int16>(in, out, [n](vx_uint8 v) { return up(v, n); });
  } else if (in_format == VX_DF_IMAGE_S16 && out_format == VX_DF_IMAGE_U8) {
    if (policy == VX_CONVERT_POLICY_SATURATE) {
      for_each_pixel<vx_int16, vx_uint8>(in, out, [n](vx_int16 v) { return down_saturate(v, n); });
    } else {
      for_each_pixel<vx_int16, vx_uint8>(in, out, [n](vx_int16 v) { return down_wrap(v, n); });
    }
  } else if (out_format == VX_DF_IMAGE_U1 && in_format == VX_DF_IMAGE_U8) {
    pack_u1<vx_uint8>(in, out, [](vx_uint8 v) { return v != 0; });
  } else if (out_format == VX_DF_IMAGE_U1 && in_format == VX_DF_IMAGE_S16) {
    pack_u1<vx_int16>(in, out, [](vx_int16 v) { return v != 0; });
  } else if (in_format == VX_DF_IMAGE_U1 && out_format == VX_DF_IMAGE_U8) {
    unpack_u1<vx_uint8>(in, out, [](bool set) { return set ? vx_uint8{255} : vx_uint8{0}; });
  } else if (in_format == VX_DF_IMAGE_U1 && out_format == VX_DF_IMAGE_S16) {
    unpack_u1<vx_int16>(in, out, [](bool set) { return set ? vx_int16{-1} : vx_int16{0}; });
  } else {
    return VX_ERROR_INVALID_FORMAT;  // validate allows none other
  }
  return VX_SUCCESS;
}

// --- TableLookup (input, lut, output) ------------------------------------------------------------------

vx_status VX_CALLBACK table_lookup_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, only U8 or S16 is supported", format_name(input->format));
  }
  if (!valid_handle(parameters[1], VX_TYPE_LUT)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "lut is not a LUT");
  const auto* lut = as<_vx_lut>(parameters[1]);
  const vx_enum wanted = input->format == VX_DF_IMAGE_U8 ? VX_TYPE_UINT8 : VX_TYPE_INT16;
  if (lut->data_type == VX_TYPE_INVALID || lut->count == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "lut is a virtual LUT no node before this one produces (no type or count)");
  }
  if (lut->data_type != wanted) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "lut has type 0x%x but input is %s: it must be %s", static_cast<unsigned>(lut->data_type),
                  format_name(input->format), wanted == VX_TYPE_UINT8 ? "VX_TYPE_UINT8" : "VX_TYPE_INT16");
  }
  return output_image(node, parameters, 2, "output", input->width, input->height, input->format, metas[2]);
}

/// out = lut[offset + in] where the index is inside the table; pixels whose index falls outside a short table
/// are left as they are. The table's entries are read through load (no alignment is assumed).
template <typename T>
void lookup(const MappedImage& in, const MappedImage& out, const vx_uint8* table, vx_int64 offset, vx_int64 count) noexcept {
  const std::ptrdiff_t in_step = in.stride_x(), out_step = out.stride_x();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < out.width(); ++x) {
      const vx_int64 index = offset + load<T>(a + x * in_step);
      if (index >= 0 && index < count) store<T>(o + x * out_step, load<T>(table + index * static_cast<vx_int64>(sizeof(T))));
    }
  }
}

vx_status VX_CALLBACK table_lookup_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[1], VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  auto* lut = as<_vx_lut>(parameters[1]);
  vx_uint32 offset = 0;
  if (const vx_status s = vxQueryLUT(reinterpret_cast<vx_lut>(parameters[1]), VX_LUT_OFFSET, &offset, sizeof offset); s != VX_SUCCESS) {
    return s;
  }
  if (!lut->data.allocated()) return VX_ERROR_NOT_ALLOCATED;
  const vx_df_image format = as<_vx_image>(parameters[0])->format;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const auto count = static_cast<vx_int64>(lut->count);
  if (format == VX_DF_IMAGE_U8 && lut->data_type == VX_TYPE_UINT8) {
    const vx_uint8* table = lut->data.data();
    if (offset == 0 && count == 256) {
      for_each_pixel<vx_uint8, vx_uint8>(in, out, [table](vx_uint8 v) { return table[v]; });
    } else {
      lookup<vx_uint8>(in, out, table, offset, count);
    }
  } else if (format == VX_DF_IMAGE_S16 && lut->data_type == VX_TYPE_INT16) {
    lookup<vx_int16>(in, out, lut->data.data(), offset, count);
  } else {
    return VX_ERROR_INVALID_FORMAT;  // validate allows none other
  }
  return VX_SUCCESS;
}

// --- Threshold (input, thresh, output) -----------------------------------------------------------------

/// out = pass(in) ? true value : false value. A U8 output takes the values' U8 fields; a U1 output takes
/// their U1 fields as bits (any value but vx_false_e sets the bit).
template <typename In, typename Pass>
void threshold_pixels(const MappedImage& in, const MappedImage& out, bool to_u1, const vx_pixel_value_t& true_value,
                      const vx_pixel_value_t& false_value, Pass pass) noexcept {
  if (to_u1) {
    const bool t = true_value.U1 != vx_false_e, f = false_value.U1 != vx_false_e;
    pack_u1<In>(in, out, [=](In p) { return pass(p) ? t : f; });
  } else {
    const vx_uint8 t = true_value.U8, f = false_value.U8;
    for_each_pixel<In, vx_uint8>(in, out, [=](In p) { return pass(p) ? t : f; });
  }
}

vx_status VX_CALLBACK threshold_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!u8_or_s16(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, only U8 or S16 is supported", format_name(input->format));
  }
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "thresh is not a threshold");
  const auto* thresh = as<_vx_threshold>(parameters[1]);
  if (thresh->threshold_type != VX_THRESHOLD_TYPE_BINARY && thresh->threshold_type != VX_THRESHOLD_TYPE_RANGE) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "thresh has type 0x%x, it must be BINARY or RANGE", static_cast<unsigned>(thresh->threshold_type));
  }
  if (thresh->input_format != input->format) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "thresh is for %s input (VX_THRESHOLD_INPUT_FORMAT) but input is %s",
                  format_name(thresh->input_format), format_name(input->format));
  }
  if (thresh->output_format != VX_DF_IMAGE_U8 && thresh->output_format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "thresh makes %s output (VX_THRESHOLD_OUTPUT_FORMAT), it must be U8 or U1",
                  format_name(thresh->output_format));
  }
  return output_image(node, parameters, 2, "output", input->width, input->height, thresh->output_format, metas[2]);
}

vx_status VX_CALLBACK threshold_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  auto* thresh = as<_vx_threshold>(parameters[1]);
  vx_enum type;
  vx_pixel_value_t value, lower, upper, true_value, false_value;
  {
    const std::lock_guard guard(thresh->lock);
    type = thresh->threshold_type;
    value = thresh->value;
    lower = thresh->lower;
    upper = thresh->upper;
    true_value = thresh->true_value;
    false_value = thresh->false_value;
  }
  const vx_df_image format = as<_vx_image>(parameters[0])->format;
  const bool to_u1 = as<_vx_image>(parameters[2])->format == VX_DF_IMAGE_U1;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  // BINARY: in > value gives true. RANGE: in > upper or in < lower gives false, otherwise true.
  if (format == VX_DF_IMAGE_U8 && !to_u1 && packed(in, 1) && packed(out, 1)) {
    // U8 to U8 with packed pixels: the vision library's vectorised threshold (the same test).
    vision::Threshold t;
    t.type = type == VX_THRESHOLD_TYPE_BINARY ? vision::Threshold::Type::binary : vision::Threshold::Type::range;
    t.value = value.U8;
    t.lower = lower.U8;
    t.upper = upper.U8;
    t.true_value = true_value.U8;
    t.false_value = false_value.U8;
    vision::threshold(t, const_plane(in), plane(out));
  } else if (format == VX_DF_IMAGE_U8) {
    if (type == VX_THRESHOLD_TYPE_BINARY) {
      const int v = value.U8;
      threshold_pixels<vx_uint8>(in, out, to_u1, true_value, false_value, [=](vx_uint8 p) { return p > v; });
    } else {
      const int lo = lower.U8, hi = upper.U8;
      threshold_pixels<vx_uint8>(in, out, to_u1, true_value, false_value, [=](vx_uint8 p) { return !(p > hi || p < lo); });
    }
  } else if (format == VX_DF_IMAGE_S16) {
    if (type == VX_THRESHOLD_TYPE_BINARY) {
      const int v = value.S16;
      threshold_pixels<vx_int16>(in, out, to_u1, true_value, false_value, [=](vx_int16 p) { return p > v; });
    } else {
      const int lo = lower.S16, hi = upper.S16;
      threshold_pixels<vx_int16>(in, out, to_u1, true_value, false_value, [=](vx_int16 p) { return !(p > hi || p < lo); });
    }
  } else {
    return VX_ERROR_INVALID_FORMAT;  // validate allows none other
  }
  return VX_SUCCESS;
}

// --- ChannelExtract (input, channel, output) -----------------------------------------------------------

vx_status VX_CALLBACK channel_extract_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  const vx_df_image format = input->format;
  if (!is_channel_format(format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be RGB, RGBX, YUYV, UYVY, NV12, NV21, IYUV or YUV4",
                  format_name(format));
  }
  vx_enum channel = 0;
  if (const vx_status s = enum_parameter(node, parameters, 1, "channel",
                                         {VX_CHANNEL_0, VX_CHANNEL_1, VX_CHANNEL_2, VX_CHANNEL_3, VX_CHANNEL_R, VX_CHANNEL_G, VX_CHANNEL_B,
                                          VX_CHANNEL_A, VX_CHANNEL_Y, VX_CHANNEL_U, VX_CHANNEL_V},
                                         channel);
      s != VX_SUCCESS) {
    return s;
  }
  if (channel_index(format, channel) < 0) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "channel is 0x%x, which input of format %s does not have (%s)", static_cast<unsigned>(channel),
                  format_name(format),
                  format == VX_DF_IMAGE_RGB    ? "R, G, B or 0..2"
                  : format == VX_DF_IMAGE_RGBX ? "R, G, B, A or 0..3"
                                               : "Y, U, V or 0..2");
  }
  // A virtual channel scalar is read only while the graph runs: the output then has the size of the first
  // channel, and the function refuses a channel of another size.
  vx_uint32 shift_x = 0, shift_y = 0;
  channel_shifts(format, static_cast<vx_uint32>(channel_index(format, channel)), shift_x, shift_y);
  return output_image(node, parameters, 2, "output", input->width >> shift_x, input->height >> shift_y, VX_DF_IMAGE_U8, metas[2]);
}

vx_status VX_CALLBACK channel_extract_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum channel = 0;
  if (const vx_status s = scalar_value(parameters[1], channel); s != VX_SUCCESS) return s;
  const _vx_image* image = as<_vx_image>(parameters[0]);
  const vx_df_image format = image->format;
  const int c = channel_index(format, channel);
  if (c < 0) return VX_ERROR_INVALID_VALUE;
  vx_uint32 shift_x = 0, shift_y = 0;
  channel_shifts(format, static_cast<vx_uint32>(c), shift_x, shift_y);
  const _vx_image* out_image = as<_vx_image>(parameters[2]);
  if (out_image->width != image->width >> shift_x || out_image->height != image->height >> shift_y) return VX_ERROR_INVALID_DIMENSION;
  const ChannelPlace place = channel_place(format, static_cast<vx_uint32>(c));
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY, place.plane);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  if (is_rgb(format) && in.stride_x() == static_cast<vx_int32>(channel_count(format)) && out.stride_x() == 1) {
    // Packed RGB or RGBX into a packed plane: the vision library's vectorised copy.
    vision::extract_channel({in.row(0), in.width(), in.height(), in.addressing().stride_y}, static_cast<int>(channel_count(format)), c,
                            {out.row(0), out.width(), out.height(), out.addressing().stride_y});
    return VX_SUCCESS;
  }
  const std::ptrdiff_t in_step = static_cast<std::ptrdiff_t>(in.stride_x()) * place.pixel_mul;
  const std::ptrdiff_t in_first = static_cast<std::ptrdiff_t>(in.stride_x()) * place.pixel_add + place.byte;
  const std::ptrdiff_t out_step = out.stride_x();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y) + in_first;
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < out.width(); ++x) o[x * out_step] = a[x * in_step];
  }
  return VX_SUCCESS;
}

// --- ChannelCombine (plane0, plane1, plane2 [optional], plane3 [optional], output) ---------------------

vx_status VX_CALLBACK channel_combine_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  vx_df_image format = VX_DF_IMAGE_VIRT;
  if (const vx_status s = given_output_format(node, parameters, 4, "output", "the format combined into", format); s != VX_SUCCESS) return s;
  if (!is_channel_format(format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "output has format %s, it must be RGB, RGBX, YUYV, UYVY, NV12, NV21, IYUV or YUV4",
                  format_name(format));
  }
  const vx_uint32 count = channel_count(format);
  const _vx_image* planes[4] = {};
  for (vx_uint32 p = 0; p < 4; ++p) {
    if (parameters[p] == nullptr) {
      if (p < count) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is missing: output %s has %u channels", kPlaneNames[p], format_name(format), count);
      continue;
    }
    if (p >= count) {
      return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is given but output %s has only %u channels", kPlaneNames[p], format_name(format), count);
    }
    if (const vx_status s = u8_input(node, parameters, p, kPlaneNames[p], planes[p]); s != VX_SUCCESS) return s;
  }
  const vx_uint32 width = planes[0]->width, height = planes[0]->height;
  vx_uint32 shift_x = 0, shift_y = 0;
  channel_shifts(format, 1, shift_x, shift_y);
  if ((width & ((1u << shift_x) - 1)) != 0 || (height & ((1u << shift_y) - 1)) != 0) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "plane0 is %ux%u: output %s subsamples its chroma and needs an even %s", width, height,
                  format_name(format), shift_y != 0 ? "width and height" : "width");
  }
  for (vx_uint32 p = 1; p < count; ++p) {
    channel_shifts(format, p, shift_x, shift_y);
    const vx_uint32 w = width >> shift_x, h = height >> shift_y;
    if (planes[p]->width != w || planes[p]->height != h) {
      return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is %ux%u but output %s with plane0 of %ux%u needs it %ux%u", kPlaneNames[p],
                    planes[p]->width, planes[p]->height, format_name(format), width, height, w, h);
    }
  }
  return output_image(node, parameters, 4, "output", width, height, format, metas[4]);
}

/// Copies U8 plane @p in into channel @p c of the output's plane @p out (laid out as channel_place says).
void put_channel(const MappedImage& in, const MappedImage& out, const ChannelPlace& place) noexcept {
  const std::ptrdiff_t out_step = static_cast<std::ptrdiff_t>(out.stride_x()) * place.pixel_mul;
  const std::ptrdiff_t out_first = static_cast<std::ptrdiff_t>(out.stride_x()) * place.pixel_add + place.byte;
  const std::ptrdiff_t in_step = in.stride_x();
  for (vx_uint32 y = 0; y < in.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y) + out_first;
    for (vx_uint32 x = 0; x < in.width(); ++x) o[x * out_step] = a[x * in_step];
  }
}

vx_status VX_CALLBACK channel_combine_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  const vx_df_image format = as<_vx_image>(parameters[4])->format;
  if (!is_channel_format(format)) return VX_ERROR_INVALID_FORMAT;
  const vx_uint32 count = channel_count(format);
  for (vx_uint32 p = 0; p < count; ++p) {
    if (parameters[p] == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (is_rgb(format)) {
    // Packed planes into packed RGB or RGBX: the vision library's vectorised interleave.
    const MappedImage out(image_at(parameters, 4), VX_WRITE_ONLY);
    if (out.status() != VX_SUCCESS) return out.status();
    std::optional<MappedImage> planes[4];
    bool packed = out.stride_x() == static_cast<vx_int32>(count);
    vision::ConstPlane views[4];
    for (vx_uint32 p = 0; p < count; ++p) {
      const MappedImage& plane = planes[p].emplace(image_at(parameters, p), VX_READ_ONLY);
      if (plane.status() != VX_SUCCESS) return plane.status();
      packed = packed && plane.stride_x() == 1;
      views[p] = {plane.row(0), plane.width(), plane.height(), plane.addressing().stride_y};
    }
    if (packed) {
      vision::combine_channels(views, static_cast<int>(count), {out.row(0), out.width(), out.height(), out.addressing().stride_y});
      return VX_SUCCESS;
    }
  }
  const vx_uint32 out_planes = as<_vx_image>(parameters[4])->plane_count;
  for (vx_uint32 op = 0; op < out_planes; ++op) {
    const MappedImage out(image_at(parameters, 4), VX_WRITE_ONLY, op);
    if (out.status() != VX_SUCCESS) return out.status();
    for (vx_uint32 c = 0; c < count; ++c) {
      const ChannelPlace place = channel_place(format, c);
      if (place.plane != op) continue;
      const MappedImage in(image_at(parameters, c), VX_READ_ONLY);
      if (in.status() != VX_SUCCESS) return in.status();
      put_channel(in, out, place);
    }
  }
  return VX_SUCCESS;
}

}  // namespace

std::span<const StandardKernelFunctions> conversion_kernels() noexcept {
  static constexpr StandardKernelFunctions kKernels[] = {
      {VX_KERNEL_CONVERTDEPTH, &convert_depth_function, &convert_depth_validate},
      {VX_KERNEL_TABLE_LOOKUP, &table_lookup_function, &table_lookup_validate},
      {VX_KERNEL_THRESHOLD, &threshold_function, &threshold_validate},
      {VX_KERNEL_CHANNEL_EXTRACT, &channel_extract_function, &channel_extract_validate},
      {VX_KERNEL_CHANNEL_COMBINE, &channel_combine_function, &channel_combine_validate},
  };
  return kKernels;
}

}  // namespace vg::openvx
