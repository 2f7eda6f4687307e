// The standard kernel Remap: a function and a validate (standard_kernel_support.hpp).
//
// A U8 input of the remap's source size, a U8 output of its destination size (the OpenVX 1.3 formats);
// output(x, y) = input(map_x(x, y), map_y(x, y)) with the table's float source coordinate, sampled by the
// policy (a VX_TYPE_ENUM scalar: NEAREST_NEIGHBOR or BILINEAR, as sampling.hpp defines them; AREA is
// refused, the specification excludes it for Remap) and the node's border (sampling.hpp). The
// specification lists UNDEFINED and CONSTANT; REPLICATE is well defined too, and the Khronos conformance
// checker accepts it.
//
// The table is read in place and nothing is allocated per frame. Packed images take the vision library's
// vectorised remap (kernels/vision/warp.hpp), which computes the same bytes as the per-pixel loop here.
#include <VX/vx.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "kernels/neighbourhood.hpp"
#include "kernels/sampling.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "remap.hpp"

namespace vg::openvx {
namespace {

vx_status VX_CALLBACK remap_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &policy, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (policy != VX_INTERPOLATION_NEAREST_NEIGHBOR && policy != VX_INTERPOLATION_BILINEAR) return VX_ERROR_INVALID_VALUE;
  vx_border_t border{};
  if (const vx_status s = neighbourhood_border(node, border); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_REMAP)) return VX_ERROR_INVALID_REFERENCE;
  const auto* table = as<const _vx_remap>(parameters[1]);
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(in, out); s != VX_SUCCESS) return s;
  // validate allows no other sizes; the check keeps a table read within its rows.
  if (in.width() != table->source_width || in.height() != table->source_height || out.width() != table->destination_width ||
      out.height() != table->destination_height || !table->table.allocated()) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const bool bilinear = policy == VX_INTERPOLATION_BILINEAR;
  const vx_uint8* entries = table->table.data();
  const std::size_t width = out.width();
  // Packed images: the vision library's vectorised remap, byte for byte the loop below.
  if (packed(in, 1) && packed(out, 1)) {
    const vision::SampleSource source = sample_source(in, border, vx_rectangle_t{0, 0, in.width(), in.height()});
    const vision::Interpolation interpolation = bilinear ? vision::Interpolation::bilinear : vision::Interpolation::nearest;
    const auto table_stride = static_cast<std::ptrdiff_t>(width * sizeof(vx_coordinates2df_t));
    if (vision::remap(source, entries, table_stride, interpolation, plane(out))) return VX_SUCCESS;
  }
  const SampledImage src(in, false, border);
  sample_image(src, bilinear, out, false, table_coordinate(entries, width));
  return VX_SUCCESS;
}

vx_status VX_CALLBACK remap_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!valid_handle(parameters[1], VX_TYPE_REMAP)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "table is not a remap");
  const auto* table = as<const _vx_remap>(parameters[1]);
  if (table->source_width != input->width || table->source_height != input->height) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "table maps from %ux%u but input is %ux%u", table->source_width,
                  table->source_height, input->width, input->height);
  }
  vx_enum policy = 0;
  if (const vx_status s = enum_parameter(node, parameters, 2, "policy", {VX_INTERPOLATION_NEAREST_NEIGHBOR, VX_INTERPOLATION_BILINEAR}, policy);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = neighbourhood_border_parameter(node); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 3, "output", table->destination_width, table->destination_height, VX_DF_IMAGE_U8, metas[3]);
}

constexpr StandardKernelFunctions kRemapKernels[] = {
    {VX_KERNEL_REMAP, &remap_function, &remap_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> remap_kernels() noexcept { return kRemapKernels; }

}  // namespace vg::openvx
