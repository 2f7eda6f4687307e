// The enhanced-vision kernel HoughLinesP (probabilistic Hough transform for line segments): a function and a
// validate (standard_kernel_support.hpp).
//
// A U8 or U1 binary image (non-zero pixels are edge points), the vx_hough_lines_p_t parameters (rho and theta
// steps, the vote threshold, the shortest segment, the largest gap, the theta range), an array of
// VX_TYPE_LINE_2D segments and an optional VX_TYPE_SIZE count. The progressive probabilistic form: edge
// points are drawn one at a time in a pseudo-random order, each votes for every line through it; when a
// line's votes reach the threshold, the segment along it through that point is followed in both
// directions across gaps of at most line_gap pixels, its points leave the mask (and, when the segment is
// at least line_length long, the accumulator), and the long segments are reported. The order is a
// multiply-with-carry generator (multiplier 4164903690, state seeded with all ones), the one OpenCV's
// cv::RNG documents, and the rounding is to nearest even: the conformance suite's expected lines are
// OpenCV's cv::HoughLinesP output, which this reproduces exactly (a test compares the two). Points of the
// image's valid region only. The transform is the vision library's vision::hough_lines_p (vectorised
// voting); this file maps the image and the parameters onto it.
//
// Working memory (accumulator, point mask, point list, trigonometry) is the node's local data, sized at
// validation from the image and the parameters (vision::hough_lines_p_scratch_size): nothing is allocated
// per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "array.hpp"
#include "graph.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"
#include "visiongraph/kernels/vision/hough_lines.hpp"

namespace vg::openvx {
namespace {

vision::HoughLinesOptions options_of(const vx_hough_lines_p_t& p) noexcept {
  return {p.rho, p.theta, p.threshold, p.line_length, p.line_gap, p.theta_max, p.theta_min};
}

vx_status read_params(vx_reference scalar, vx_hough_lines_p_t& p) noexcept {
  if (!valid_handle(scalar, VX_TYPE_SCALAR) || as<_vx_scalar>(scalar)->data_type != VX_TYPE_HOUGH_LINES_PARAMS) return VX_ERROR_INVALID_TYPE;
  return vxCopyScalarWithSize(reinterpret_cast<vx_scalar>(scalar), sizeof p, &p, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
}

/// Passes the segments on to the lines array while it has room (found counts them all).
class LineSink final : public vision::HoughSegmentSink {
 public:
  explicit LineSink(BoundedArrayFill<vx_line2d_t>& lines) noexcept : lines_(lines) {}
  void take(const vision::HoughSegment& s) noexcept override {
    if (lines_.has_room()) {
      lines_.add(vx_line2d_t{static_cast<vx_float32>(s.x0), static_cast<vx_float32>(s.y0), static_cast<vx_float32>(s.x1),
                             static_cast<vx_float32>(s.y1)});
    }
  }

 private:
  BoundedArrayFill<vx_line2d_t>& lines_;
};

vx_status VX_CALLBACK hough_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (input->format != VX_DF_IMAGE_U8 && input->format != VX_DF_IMAGE_U1) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s, it must be U8 or U1", format_name(input->format));
  }
  vx_hough_lines_p_t p{};
  if (read_params(parameters[1], p) != VX_SUCCESS) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "params must be a readable VX_TYPE_HOUGH_LINES_PARAMS scalar");
  }
  const std::size_t scratch = vision::hough_lines_p_scratch_size(input->width, input->height, options_of(p));
  if (scratch == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS,
                  "params are out of range: rho and theta above 0, theta_max above theta_min, threshold at least 1, "
                  "line_length and line_gap not negative");
  }
  if (!valid_handle(parameters[2], VX_TYPE_ARRAY)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "lines_array is not an array");
  const auto* lines = as<_vx_array>(parameters[2]);
  if (lines->item_type != VX_TYPE_LINE_2D && lines->item_type != VX_TYPE_INVALID) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "lines_array holds items of type 0x%x, it must hold VX_TYPE_LINE_2D",
                  static_cast<unsigned>(lines->item_type));
  }
  as<_vx_meta_format>(metas[2])->item_type = VX_TYPE_LINE_2D;
  as<_vx_meta_format>(metas[2])->capacity = lines->capacity_open ? static_cast<vx_size>(input->width) * input->height : lines->capacity;
  if (parameters[3] != nullptr) {
    if (!valid_handle(parameters[3], VX_TYPE_SCALAR) || (as<_vx_scalar>(parameters[3])->data_type != VX_TYPE_SIZE &&
                                                  !(as<_vx_scalar>(parameters[3])->is_virtual &&
                                                    as<_vx_scalar>(parameters[3])->data_type == VX_TYPE_INVALID))) {
      return refuse(node, VX_ERROR_INVALID_TYPE, "num_lines must be a VX_TYPE_SIZE scalar");
    }
    as<_vx_meta_format>(metas[3])->scalar_type = VX_TYPE_SIZE;
  }
  as<_vx_node>(node)->local_data_size = scratch;
  return VX_SUCCESS;
}

vx_status VX_CALLBACK hough_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_hough_lines_p_t p{};
  if (const vx_status s = read_params(parameters[1], p); s != VX_SUCCESS) return s;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  const vx_uint32 width = in.width(), height = in.height();
  const vision::HoughLinesOptions options = options_of(p);
  const std::size_t scratch = vision::hough_lines_p_scratch_size(width, height, options);
  if (scratch == 0) return VX_ERROR_INVALID_PARAMETERS;  // the scalar changed since validation
  _vx_node* n = as<_vx_node>(node);
  if (n->local_data == nullptr || n->local_data_size < scratch) return VX_ERROR_NO_MEMORY;
  // The edge points of the valid region.
  vx_rectangle_t valid_rect{0, 0, width, height};
  if (vxGetValidRegionImage(image_at(parameters, 0), &valid_rect) != VX_SUCCESS || valid_rect.end_x > width || valid_rect.end_y > height) {
    valid_rect = vx_rectangle_t{0, 0, width, height};
  }
  valid_rect.start_x = std::min(valid_rect.start_x, valid_rect.end_x);  // an inverted region has no points
  valid_rect.start_y = std::min(valid_rect.start_y, valid_rect.end_y);
  const vision::HoughEdges edges{in.row(0), width, height, in.addressing().stride_y, in.stride_x(),
                                 as<_vx_image>(parameters[0])->format == VX_DF_IMAGE_U1, valid_rect.start_x, valid_rect.start_y,
                                 valid_rect.end_x, valid_rect.end_y};
  BoundedArrayFill<vx_line2d_t> lines(reinterpret_cast<vx_array>(parameters[2]));
  LineSink sink(lines);
  std::size_t segments = 0;
  if (!vision::hough_lines_p(edges, options, {static_cast<std::uint8_t*>(n->local_data), n->local_data_size}, sink, segments)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size found = segments;
  if (const vx_status s = lines.finish(); s != VX_SUCCESS) return s;
  if (parameters[3] != nullptr) {
    return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[3]), &found, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kHoughKernels[] = {
    {VX_KERNEL_HOUGH_LINES_P, &hough_function, &hough_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> hough_lines_kernels() noexcept { return kHoughKernels; }

}  // namespace vg::openvx
