// The standard kernel CannyEdgeDetector: a function and a validate (standard_kernel_support.hpp).
//
// A U8 image in, a binary image of its size out: U8 (edges 255, the rest 0) or U1 (edges 1). The
// parameters are hyst (a VX_THRESHOLD_TYPE_RANGE threshold whose input format is U8 or S16: its lower and
// upper values are the hysteresis thresholds; its output format and true / false values play no part),
// gradient_size (a VX_TYPE_INT32 scalar: 3, 5 or 7) and norm_type (VX_NORM_L1 or VX_NORM_L2).
//
// The detector is the vision library's (kernels/vision/canny.hpp, which states the method bit for bit);
// the border comes from the node's VX_NODE_BORDER: UNDEFINED leaves the frame of gradient_size / 2 + 1
// pixels on each side 0 and the output's valid region shrinks by as much.
//
// Working memory lives in the node's local data, sized at validation and allocated when the graph is set
// up: the library's scratch, then two planes of the image's size: the U8 edges when the output is U1 or
// its pixels are not packed (packed into bits / copied from there), and the input copied packed when its
// pixels are not. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "checked_size.hpp"
#include "graph.hpp"
#include "kernels/neighbourhood.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"
#include "threshold.hpp"
#include "visiongraph/kernels/vision/canny.hpp"

namespace vg::openvx {
namespace {

bool gradient_size_allowed(vx_int32 size) noexcept { return size == 3 || size == 5 || size == 7; }

/// The local data's bytes for a width x height input: the library's scratch and two staging planes; false
/// when that does not fit.
bool local_data_bytes(vx_uint32 width, vx_uint32 height, vx_size& bytes) noexcept {
  const std::size_t scratch = vision::canny_scratch_size(width, height);
  vx_size plane = 0;
  if (scratch == 0 || !checked_bytes(plane, static_cast<vx_size>(width), static_cast<vx_size>(height))) return false;
  bytes = scratch;
  return checked_grow(bytes, plane) && checked_grow(bytes, plane);
}

/// Copies @p from's pixels (any stride_x) into the packed plane @p to.
void copy_packed(const MappedImage& from, vision::Plane to) noexcept {
  const std::ptrdiff_t step = from.stride_x();
  for (vx_uint32 y = 0; y < to.height; ++y) {
    const vx_uint8* f = from.row(y);
    vx_uint8* t = to.row(y);
    for (vx_uint32 x = 0; x < to.width; ++x) t[x] = f[static_cast<std::ptrdiff_t>(x) * step];
  }
}

/// Writes the U8 edges @p edges to @p out: 1 / 0 bits to a U1 output, bytes to a U8 one (any stride_x).
void write_edges(vision::ConstPlane edges, const MappedImage& out, bool u1) noexcept {
  for (vx_uint32 y = 0; y < edges.height; ++y) {
    const vx_uint8* e = edges.row(y);
    vx_uint8* o = out.row(y);
    if (u1) {
      for (vx_uint32 x = 0; x < edges.width; x += 8) {
        const vx_uint32 n = std::min<vx_uint32>(8, edges.width - x);
        unsigned bits = 0;
        for (vx_uint32 b = 0; b < n; ++b) bits |= (e[x + b] != 0 ? 1u : 0u) << b;
        store_u1_bits(o + x / 8, static_cast<vx_uint8>(bits), n == 8 ? vx_uint8{0xFF} : u1_last_mask(n));
      }
    } else {
      const std::ptrdiff_t step = out.stride_x();
      for (vx_uint32 x = 0; x < edges.width; ++x) o[static_cast<std::ptrdiff_t>(x) * step] = e[x];
    }
  }
}

/// The hysteresis thresholds of @p hyst (lower, upper) read in its input format's field.
void hysteresis_values(_vx_threshold* hyst, vx_int32& lower, vx_int32& upper) noexcept {
  const std::lock_guard guard(hyst->lock);
  if (hyst->input_format == VX_DF_IMAGE_S16) {
    lower = hyst->lower.S16;
    upper = hyst->upper.S16;
  } else {
    lower = hyst->lower.U8;
    upper = hyst->upper.U8;
  }
}

vx_status VX_CALLBACK canny_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return VX_ERROR_INVALID_REFERENCE;
  vx_int32 gradient_size = 0;
  vx_enum norm = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &gradient_size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[3]), &norm, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  if (!gradient_size_allowed(gradient_size) || (norm != VX_NORM_L1 && norm != VX_NORM_L2)) return VX_ERROR_INVALID_VALUE;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  vx_int32 lower = 0, upper = 0;
  hysteresis_values(as<_vx_threshold>(parameters[1]), lower, upper);
  const vx_image output = image_at(parameters, 4);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(output, VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  const vx_uint32 width = in.width(), height = in.height();
  vx_size bytes = 0;
  if (!local_data_bytes(width, height, bytes) || out.width() != width || out.height() != height) return VX_ERROR_INVALID_PARAMETERS;
  _vx_node* n = as<_vx_node>(node);
  if (n->local_data == nullptr || n->local_data_size < bytes) return VX_ERROR_NO_MEMORY;
  auto* scratch = static_cast<std::uint8_t*>(n->local_data);
  const std::size_t scratch_size = vision::canny_scratch_size(width, height);
  const vision::Plane edge_staging{scratch + scratch_size, width, height, static_cast<std::ptrdiff_t>(width)};
  const vision::Plane input_staging{edge_staging.data + static_cast<std::size_t>(width) * height, width, height, static_cast<std::ptrdiff_t>(width)};
  vision::ConstPlane source = const_plane(in);
  if (!packed(in, 1)) {
    copy_packed(in, input_staging);
    source = input_staging;
  }
  const bool u1 = as<_vx_image>(output)->format == VX_DF_IMAGE_U1, direct = !u1 && packed(out, 1);
  vision::CannyOptions options;
  options.low = lower;
  options.high = upper;
  options.gradient_size = gradient_size;
  options.norm = norm == VX_NORM_L2 ? vision::CannyNorm::l2 : vision::CannyNorm::l1;
  options.border = border.mode == VX_BORDER_CONSTANT  ? vision::CannyBorder::constant
                   : border.mode == VX_BORDER_UNDEFINED ? vision::CannyBorder::undefined
                                                        : vision::CannyBorder::replicate;
  options.constant = border.constant_value.U8;
  if (!vision::canny(source, direct ? plane(out) : edge_staging, options, {scratch, scratch_size})) return VX_ERROR_INVALID_PARAMETERS;
  if (!direct) write_edges(edge_staging, out, u1);
  return VX_SUCCESS;
}

/// The gradient size set on the node (3 when it cannot be read yet: a virtual scalar).
vx_int32 node_gradient_size(vx_node node) noexcept {
  const _vx_node* n = as<_vx_node>(node);
  if (n == nullptr || n->arguments.size() != 5 || n->arguments[2] == nullptr || n->arguments[2]->type != VX_TYPE_SCALAR) return 3;
  const auto* scalar = static_cast<const _vx_scalar*>(n->arguments[2]);  // the node's argument: an object
  vx_int32 size = 3;
  if (scalar->data_type == VX_TYPE_INT32 && !scalar->is_virtual) std::memcpy(&size, scalar->bytes.data(), sizeof size);
  return gradient_size_allowed(size) ? size : 3;
}

/// The valid region: the input's, less gradient_size / 2 + 1 on each side under UNDEFINED (and on sides
/// where the input's region stops short of the image's edge under the other modes).
vx_status VX_CALLBACK canny_valid_rectangle(vx_node node, vx_uint32, const vx_rectangle_t* const input_valid[],
                                            vx_rectangle_t* const output_valid[]) {
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const auto reach = static_cast<vx_uint32>(node_gradient_size(node) / 2 + 1);
  *output_valid[0] = neighbourhood_valid_rectangle(border, *output_valid[0], *input_valid[0], reach, reach);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK canny_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_THRESHOLD)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "hyst is not a threshold");
  const auto* hyst = as<_vx_threshold>(parameters[1]);
  if (hyst->threshold_type != VX_THRESHOLD_TYPE_RANGE) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "hyst has type 0x%x, it must be VX_THRESHOLD_TYPE_RANGE", static_cast<unsigned>(hyst->threshold_type));
  }
  if (hyst->input_format != VX_DF_IMAGE_U8 && hyst->input_format != VX_DF_IMAGE_S16) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "hyst is for %s input (VX_THRESHOLD_INPUT_FORMAT), it must be U8 or S16",
                  format_name(hyst->input_format));
  }
  if (!valid_handle(parameters[2], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "gradient_size is not a scalar");
  const auto* size_scalar = as<_vx_scalar>(parameters[2]);
  if (size_scalar->data_type != VX_TYPE_INT32) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "gradient_size is a scalar of type 0x%x, it must be VX_TYPE_INT32",
                  static_cast<unsigned>(size_scalar->data_type));
  }
  if (!size_scalar->is_virtual) {
    vx_int32 size = 0;
    std::memcpy(&size, size_scalar->bytes.data(), sizeof size);
    if (!gradient_size_allowed(size)) return refuse(node, VX_ERROR_INVALID_VALUE, "gradient_size is %d, it must be 3, 5 or 7", size);
  }
  vx_enum norm = 0;
  if (const vx_status s = enum_parameter(node, parameters, 3, "norm_type", {VX_NORM_L1, VX_NORM_L2}, norm); s != VX_SUCCESS) return s;
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  // The output is U8 unless it was created U1 (a virtual output of open format becomes U8).
  vx_df_image format = VX_DF_IMAGE_U8;
  if (valid_handle(parameters[4], VX_TYPE_IMAGE)) {
    const vx_df_image declared = as<_vx_image>(parameters[4])->declared_format;
    if (declared == VX_DF_IMAGE_U1) format = VX_DF_IMAGE_U1;
    if (declared != VX_DF_IMAGE_VIRT && declared != VX_DF_IMAGE_U8 && declared != VX_DF_IMAGE_U1) {
      return refuse(node, VX_ERROR_INVALID_FORMAT, "output has format %s, it must be U8 or U1", format_name(declared));
    }
  }
  if (const vx_status s = output_image(node, parameters, 4, "output", input->width, input->height, format, metas[4]); s != VX_SUCCESS) {
    return s;
  }
  const vx_kernel_image_valid_rectangle_f callback = &canny_valid_rectangle;
  if (const vx_status s = vxSetMetaFormatAttribute(metas[4], VX_VALID_RECT_CALLBACK, &callback, sizeof callback); s != VX_SUCCESS) {
    return s;
  }
  vx_size bytes = 0;
  if (!local_data_bytes(input->width, input->height, bytes)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "input is %ux%u, too large for the working memory this kernel needs", input->width,
                  input->height);
  }
  as<_vx_node>(node)->local_data_size = bytes;
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kCannyKernels[] = {
    {VX_KERNEL_CANNY_EDGE_DETECTOR, &canny_function, &canny_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> canny_kernels() noexcept { return kCannyKernels; }

}  // namespace vg::openvx
