// The bitwise standard kernels Not, And, Or and Xor on U8 or U1 images, each a function and a validate
// (standard_kernel_support.hpp). U1 images go eight pixels (one byte) at a time; U8 images with packed
// pixels run the vision library's vectorised functions (kernels/vision).
#include <VX/vx.h>

#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/arithmetic.hpp"

namespace vg::openvx {
namespace {

/// An input of a bitwise kernel: an image of format U8 or U1.
vx_status bitwise_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept {
  if (const vx_status s = input_image(node, parameters, index, name, image); s != VX_SUCCESS) return s;
  if (image->format != VX_DF_IMAGE_U8 && image->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "%s has format %s, it must be U8 or U1", name, format_name(image->format));
  }
  return VX_SUCCESS;
}

/// The format of an image parameter while the kernel function runs (validate settled it).
vx_df_image format_at(const vx_reference* parameters, vx_uint32 index) noexcept {
  return valid_handle(parameters[index], VX_TYPE_IMAGE) ? as<_vx_image>(parameters[index])->format : static_cast<vx_df_image>(VX_DF_IMAGE_VIRT);
}

/// Runs out = op(in1, in2) on the images of parameters 0, 1 and 2 (And, Or, Xor): pixel by pixel on U8,
/// byte by byte on U1 (the operations are bitwise, so a byte of U1 pixels is eight results at once).
template <typename Op>
vx_status bitwise_binary(const vx_reference* parameters, vx_uint32 num, vision::Bitwise vision_op, Op op) noexcept {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in1(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage in2(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 2), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in1, in2, out); s != VX_SUCCESS) return s;
  if (format_at(parameters, 2) == VX_DF_IMAGE_U1) {
    for_each_u1_byte(in1, in2, out, op);
  } else if (packed(in1, 1) && packed(in2, 1) && packed(out, 1)) {
    vision::bitwise(vision_op, const_plane(in1), const_plane(in2), plane(out));
  } else {
    for_each_pixel<vx_uint8, vx_uint8, vx_uint8>(in1, in2, out, op);
  }
  return VX_SUCCESS;
}

}  // namespace

// --- Not ----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK not_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = bitwise_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 1, "output", input->width, input->height, input->format, metas[1]);
}

vx_status VX_CALLBACK not_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 1), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const auto invert = [](vx_uint8 a) { return static_cast<vx_uint8>(~a); };
  if (format_at(parameters, 1) == VX_DF_IMAGE_U1) {
    for_each_u1_byte(in, out, invert);
  } else if (packed(in, 1) && packed(out, 1)) {
    vision::bitwise(vision::Bitwise::not_, const_plane(in), const_plane(in), plane(out));
  } else {
    for_each_pixel<vx_uint8, vx_uint8>(in, out, invert);
  }
  return VX_SUCCESS;
}

// --- And, Or, Xor ------------------------------------------------------------------------------------------

vx_status VX_CALLBACK bitwise_binary_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_image* in1 = nullptr;
  const _vx_image* in2 = nullptr;
  if (const vx_status s = bitwise_input(node, parameters, 0, "in1", in1); s != VX_SUCCESS) return s;
  if (const vx_status s = bitwise_input(node, parameters, 1, "in2", in2); s != VX_SUCCESS) return s;
  if (in1->format != in2->format) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "in1 is %s but in2 is %s: they must be of one format", format_name(in1->format),
                  format_name(in2->format));
  }
  if (const vx_status s = same_size(node, in1, "in1", in2, "in2"); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 2, "out", in1->width, in1->height, in1->format, metas[2]);
}

vx_status VX_CALLBACK and_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return bitwise_binary(parameters, num, vision::Bitwise::and_, [](vx_uint8 a, vx_uint8 b) { return static_cast<vx_uint8>(a & b); });
}

vx_status VX_CALLBACK or_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return bitwise_binary(parameters, num, vision::Bitwise::or_, [](vx_uint8 a, vx_uint8 b) { return static_cast<vx_uint8>(a | b); });
}

vx_status VX_CALLBACK xor_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  return bitwise_binary(parameters, num, vision::Bitwise::xor_, [](vx_uint8 a, vx_uint8 b) { return static_cast<vx_uint8>(a ^ b); });
}

}  // namespace vg::openvx
