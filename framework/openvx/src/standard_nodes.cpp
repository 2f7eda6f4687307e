// Node creators of the standard kernels with an implementation (standard_kernel_support.hpp): a generic
// node of the standard kernel with its arguments set. Value arguments (a policy, a channel) become
// scalars the node holds.
#include <VX/vx.h>
#include <VX/vx_compatibility.h>

#include <initializer_list>

#include "context.hpp"
#include "error_object.hpp"
#include "graph.hpp"
#include "kernel.hpp"

namespace {

using namespace vg::openvx;

struct Argument {
  vx_reference value;  // null: left unset (only for an optional parameter)
  const char* name;    // the specification's parameter name, for the log
};

/// The standard kernel with @p kernel_enum of @p graph's context (not held: the context holds it).
vx_kernel standard_kernel(vx_graph graph, vx_enum kernel_enum) noexcept {
  const std::lock_guard guard(graph->context->lock);
  for (vx_kernel k : graph->context->kernels) {
    if (!k->user && k->enumeration == kernel_enum) return k;
  }
  return nullptr;
}

/// The handle of @p graph's error object for @p status (node creators return handles).
vx_node fail(vx_graph graph, vx_status status) noexcept { return to_handle(reinterpret_cast<vx_node>(error_object(graph, status))); }

/// A node of standard kernel @p kernel_enum in @p graph (checked: an object) with @p arguments (the
/// application's handles) set in parameter order; returns the node's handle. When an argument is refused
/// (a null required one, a released or wrong-typed object, one of another context), the node goes again
/// and the caller gets an error object with the reason in the log.
vx_node standard_node(vx_graph graph, vx_enum kernel_enum, const char* creator, std::initializer_list<Argument> arguments) noexcept {
  vx_kernel kernel = standard_kernel(graph, kernel_enum);
  if (kernel == nullptr) return fail(graph, VX_ERROR_NOT_IMPLEMENTED);
  const vx_node object = create_generic_node(graph, kernel);
  if (const vx_status s = status_of(object); s != VX_SUCCESS) return fail(graph, s);
  vx_node node = to_handle(object);  // set up through the API, like the application's own nodes
  vx_uint32 index = 0;
  for (const Argument& a : arguments) {
    vx_status status = VX_SUCCESS;
    if (a.value == nullptr) {
      if (kernel->signature[index].state == VX_PARAMETER_STATE_OPTIONAL) {
        ++index;
        continue;
      }
      status = VX_ERROR_INVALID_REFERENCE;
      log(graph, status, "%s: %s is NULL but required", creator, a.name);
    } else {
      status = vxSetParameterByIndex(node, index, a.value);
      if (status != VX_SUCCESS) log(graph, status, "%s: %s is not a valid object of the expected type in this context", creator, a.name);
    }
    if (status != VX_SUCCESS) {
      (void)vxRemoveNode(&node);
      return fail(graph, status);
    }
    ++index;
  }
  return node;
}

vx_reference as_reference(void* handle) noexcept { return static_cast<vx_reference>(handle); }

/// A value argument of a creator (a policy, a channel, a shift) as a scalar of the graph's context: the
/// node holds it, and the creator's own handle goes with this object.
class ValueScalar {
 public:
  ValueScalar(vx_graph graph, vx_enum type, const void* value) noexcept : scalar_(vxCreateScalar(to_handle(graph->context), type, value)) {}
  /// A scalar holding a struct (vx_hough_lines_p_t, ...): vxCreateScalarWithSize.
  ValueScalar(vx_graph graph, vx_enum type, const void* value, vx_size size) noexcept
      : scalar_(vxCreateScalarWithSize(to_handle(graph->context), type, value, size)) {}
  ~ValueScalar() {
    if (status() == VX_SUCCESS) (void)vxReleaseScalar(&scalar_);
  }
  ValueScalar(const ValueScalar&) = delete;
  ValueScalar& operator=(const ValueScalar&) = delete;
  vx_status status() const noexcept { return vxGetStatus(as_reference(scalar_)); }
  vx_reference ref() const noexcept { return as_reference(scalar_); }

 private:
  vx_scalar scalar_;
};

/// A node of a standard kernel with one image in and one image out (the 3x3 filters).
vx_node image_to_image(vx_graph graph, vx_enum kernel_enum, const char* creator, vx_image input, vx_image output) noexcept {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, kernel_enum, creator, {{as_reference(input), "input"}, {as_reference(output), "output"}});
}

/// A node of a standard kernel with two images in and one image out (And, Or, Xor, AbsDiff, Min, Max).
vx_node two_images_to_image(vx_graph graph, vx_enum kernel_enum, const char* creator, vx_image in1, vx_image in2, vx_image out) noexcept {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, kernel_enum, creator, {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {as_reference(out), "out"}});
}

/// Add and Subtract: two images, an overflow policy (a value), one image out.
vx_node two_images_policy_to_image(vx_graph graph, vx_enum kernel_enum, const char* creator, vx_image in1, vx_image in2, vx_enum policy,
                                   vx_image out) noexcept {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar policy_scalar(graph, VX_TYPE_ENUM, &policy);
  if (const vx_status s = policy_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, kernel_enum, creator,
                       {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {policy_scalar.ref(), "policy"}, {as_reference(out), "out"}});
}

/// TensorAdd and TensorSubtract: two tensors, an overflow policy (a value), one tensor out.
vx_node two_tensors_policy_to_tensor(vx_graph graph, vx_enum kernel_enum, const char* creator, vx_tensor input1, vx_tensor input2,
                                     vx_enum policy, vx_tensor output) noexcept {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar policy_scalar(graph, VX_TYPE_ENUM, &policy);
  if (const vx_status s = policy_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, kernel_enum, creator,
                       {{as_reference(input1), "input1"}, {as_reference(input2), "input2"}, {policy_scalar.ref(), "policy"},
                        {as_reference(output), "output"}});
}

}  // namespace

extern "C" {

VX_API_ENTRY vx_node VX_API_CALL vxNotNode(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_NOT, "vxNotNode", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxAndNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_AND, "vxAndNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxOrNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_OR, "vxOrNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxXorNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_XOR, "vxXorNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxAbsDiffNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_ABSDIFF, "vxAbsDiffNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxMinNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_MIN, "vxMinNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxMaxNode(vx_graph graph, vx_image in1, vx_image in2, vx_image out) {
  return two_images_to_image(graph, VX_KERNEL_MAX, "vxMaxNode", in1, in2, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxAddNode(vx_graph graph, vx_image in1, vx_image in2, vx_enum policy, vx_image out) {
  return two_images_policy_to_image(graph, VX_KERNEL_ADD, "vxAddNode", in1, in2, policy, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxSubtractNode(vx_graph graph, vx_image in1, vx_image in2, vx_enum policy, vx_image out) {
  return two_images_policy_to_image(graph, VX_KERNEL_SUBTRACT, "vxSubtractNode", in1, in2, policy, out);
}

VX_API_ENTRY vx_node VX_API_CALL vxMultiplyNode(vx_graph graph, vx_image in1, vx_image in2, vx_scalar scale, vx_enum overflow_policy,
                                                vx_enum rounding_policy, vx_image out) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar overflow(graph, VX_TYPE_ENUM, &overflow_policy), rounding(graph, VX_TYPE_ENUM, &rounding_policy);
  for (const ValueScalar* v : {&overflow, &rounding}) {
    if (const vx_status s = v->status(); s != VX_SUCCESS) return fail(graph, s);
  }
  return standard_node(graph, VX_KERNEL_MULTIPLY, "vxMultiplyNode",
                       {{as_reference(in1), "in1"}, {as_reference(in2), "in2"}, {as_reference(scale), "scale"},
                        {overflow.ref(), "overflow_policy"}, {rounding.ref(), "rounding_policy"}, {as_reference(out), "out"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxConvertDepthNode(vx_graph graph, vx_image input, vx_image output, vx_enum policy, vx_scalar shift) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar policy_scalar(graph, VX_TYPE_ENUM, &policy);
  if (const vx_status s = policy_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_CONVERTDEPTH, "vxConvertDepthNode",
                       {{as_reference(input), "input"}, {as_reference(output), "output"}, {policy_scalar.ref(), "policy"},
                        {as_reference(shift), "shift"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTableLookupNode(vx_graph graph, vx_image input, vx_lut lut, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_TABLE_LOOKUP, "vxTableLookupNode",
                       {{as_reference(input), "input"}, {as_reference(lut), "lut"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxThresholdNode(vx_graph graph, vx_image input, vx_threshold thresh, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_THRESHOLD, "vxThresholdNode",
                       {{as_reference(input), "input"}, {as_reference(thresh), "thresh"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxChannelExtractNode(vx_graph graph, vx_image input, vx_enum channel, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar channel_scalar(graph, VX_TYPE_ENUM, &channel);
  if (const vx_status s = channel_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_CHANNEL_EXTRACT, "vxChannelExtractNode",
                       {{as_reference(input), "input"}, {channel_scalar.ref(), "channel"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxChannelCombineNode(vx_graph graph, vx_image plane0, vx_image plane1, vx_image plane2, vx_image plane3,
                                                      vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_CHANNEL_COMBINE, "vxChannelCombineNode",
                       {{as_reference(plane0), "plane0"}, {as_reference(plane1), "plane1"}, {as_reference(plane2), "plane2"},
                        {as_reference(plane3), "plane3"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxDilate3x3Node(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_DILATE_3x3, "vxDilate3x3Node", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxErode3x3Node(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_ERODE_3x3, "vxErode3x3Node", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxMedian3x3Node(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_MEDIAN_3x3, "vxMedian3x3Node", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxBox3x3Node(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_BOX_3x3, "vxBox3x3Node", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxGaussian3x3Node(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_GAUSSIAN_3x3, "vxGaussian3x3Node", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxGaussianPyramidNode(vx_graph graph, vx_image input, vx_pyramid gaussian) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_GAUSSIAN_PYRAMID, "vxGaussianPyramidNode",
                       {{as_reference(input), "input"}, {as_reference(gaussian), "gaussian"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxHalfScaleGaussianNode(vx_graph graph, vx_image input, vx_image output, vx_int32 kernel_size) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar size_scalar(graph, VX_TYPE_INT32, &kernel_size);
  if (const vx_status s = size_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_HALFSCALE_GAUSSIAN, "vxHalfScaleGaussianNode",
                       {{as_reference(input), "input"}, {as_reference(output), "output"}, {size_scalar.ref(), "kernel_size"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxLaplacianPyramidNode(vx_graph graph, vx_image input, vx_pyramid laplacian, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_LAPLACIAN_PYRAMID, "vxLaplacianPyramidNode",
                       {{as_reference(input), "input"}, {as_reference(laplacian), "laplacian"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxLaplacianReconstructNode(vx_graph graph, vx_pyramid laplacian, vx_image input, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_LAPLACIAN_RECONSTRUCT, "vxLaplacianReconstructNode",
                       {{as_reference(laplacian), "laplacian"}, {as_reference(input), "input"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxSobel3x3Node(vx_graph graph, vx_image input, vx_image output_x, vx_image output_y) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_SOBEL_3x3, "vxSobel3x3Node",
                       {{as_reference(input), "input"}, {as_reference(output_x), "output_x"}, {as_reference(output_y), "output_y"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxMagnitudeNode(vx_graph graph, vx_image grad_x, vx_image grad_y, vx_image mag) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_MAGNITUDE, "vxMagnitudeNode",
                       {{as_reference(grad_x), "grad_x"}, {as_reference(grad_y), "grad_y"}, {as_reference(mag), "mag"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxPhaseNode(vx_graph graph, vx_image grad_x, vx_image grad_y, vx_image orientation) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_PHASE, "vxPhaseNode",
                       {{as_reference(grad_x), "grad_x"}, {as_reference(grad_y), "grad_y"}, {as_reference(orientation), "orientation"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxConvolveNode(vx_graph graph, vx_image input, vx_convolution conv, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_CUSTOM_CONVOLUTION, "vxConvolveNode",
                       {{as_reference(input), "input"}, {as_reference(conv), "conv"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxIntegralImageNode(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_INTEGRAL_IMAGE, "vxIntegralImageNode", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxEqualizeHistNode(vx_graph graph, vx_image input, vx_image output) {
  return image_to_image(graph, VX_KERNEL_EQUALIZE_HISTOGRAM, "vxEqualizeHistNode", input, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxHistogramNode(vx_graph graph, vx_image input, vx_distribution distribution) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_HISTOGRAM, "vxHistogramNode",
                       {{as_reference(input), "input"}, {as_reference(distribution), "distribution"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxMinMaxLocNode(vx_graph graph, vx_image input, vx_scalar minVal, vx_scalar maxVal, vx_array minLoc,
                                                 vx_array maxLoc, vx_scalar minCount, vx_scalar maxCount) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_MINMAXLOC, "vxMinMaxLocNode",
                       {{as_reference(input), "input"},
                        {as_reference(minVal), "minVal"},
                        {as_reference(maxVal), "maxVal"},
                        {as_reference(minLoc), "minLoc"},
                        {as_reference(maxLoc), "maxLoc"},
                        {as_reference(minCount), "minCount"},
                        {as_reference(maxCount), "maxCount"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxNonLinearFilterNode(vx_graph graph, vx_enum function, vx_image input, vx_matrix mask, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar function_scalar(graph, VX_TYPE_ENUM, &function);
  if (const vx_status s = function_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_NON_LINEAR_FILTER, "vxNonLinearFilterNode",
                       {{function_scalar.ref(), "function"}, {as_reference(input), "input"}, {as_reference(mask), "mask"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxRemapNode(vx_graph graph, vx_image input, vx_remap table, vx_enum policy, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar policy_scalar(graph, VX_TYPE_ENUM, &policy);
  if (const vx_status s = policy_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_REMAP, "vxRemapNode",
                       {{as_reference(input), "input"}, {as_reference(table), "table"}, {policy_scalar.ref(), "policy"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxScalarOperationNode(vx_graph graph, vx_enum scalar_operation, vx_scalar a, vx_scalar b,
                                                       vx_scalar output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar operation(graph, VX_TYPE_ENUM, &scalar_operation);
  if (const vx_status s = operation.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_SCALAR_OPERATION, "vxScalarOperationNode",
                       {{operation.ref(), "scalar_operation"}, {as_reference(a), "a"}, {as_reference(b), "b"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxSelectNode(vx_graph graph, vx_scalar condition, vx_reference true_value, vx_reference false_value,
                                              vx_reference output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_SELECT, "vxSelectNode",
                       {{as_reference(condition), "condition"}, {true_value, "true_value"}, {false_value, "false_value"}, {output, "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxNonMaxSuppressionNode(vx_graph graph, vx_image input, vx_image mask, vx_int32 win_size,
                                                         vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar size(graph, VX_TYPE_INT32, &win_size);
  if (const vx_status s = size.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_NON_MAX_SUPPRESSION, "vxNonMaxSuppressionNode",
                       {{as_reference(input), "input"}, {as_reference(mask), "mask"}, {size.ref(), "win_size"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxMatchTemplateNode(vx_graph graph, vx_image src, vx_image templateImage, vx_enum matchingMethod,
                                                     vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar method(graph, VX_TYPE_ENUM, &matchingMethod);
  if (const vx_status s = method.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_MATCH_TEMPLATE, "vxMatchTemplateNode",
                       {{as_reference(src), "src"}, {as_reference(templateImage), "templateImage"}, {method.ref(), "matchingMethod"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxLBPNode(vx_graph graph, vx_image in, vx_enum format, vx_int8 kernel_size, vx_image out) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar format_scalar(graph, VX_TYPE_ENUM, &format);
  if (const vx_status s = format_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  const ValueScalar size_scalar(graph, VX_TYPE_INT8, &kernel_size);
  if (const vx_status s = size_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_LBP, "vxLBPNode",
                       {{as_reference(in), "in"}, {format_scalar.ref(), "format"}, {size_scalar.ref(), "kernel_size"}, {as_reference(out), "out"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxBilateralFilterNode(vx_graph graph, vx_tensor src, vx_int32 diameter, vx_float32 sigmaSpace,
                                                       vx_float32 sigmaValues, vx_tensor dst) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar d(graph, VX_TYPE_INT32, &diameter);
  const ValueScalar space(graph, VX_TYPE_FLOAT32, &sigmaSpace);
  const ValueScalar values(graph, VX_TYPE_FLOAT32, &sigmaValues);
  for (const ValueScalar* v : {&d, &space, &values})
    if (const vx_status s = v->status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_BILATERAL_FILTER, "vxBilateralFilterNode",
                       {{as_reference(src), "src"}, {d.ref(), "diameter"}, {space.ref(), "sigmaSpace"}, {values.ref(), "sigmaValues"},
                        {as_reference(dst), "dst"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorMatrixMultiplyNode(vx_graph graph, vx_tensor input1, vx_tensor input2, vx_tensor input3,
                                                            const vx_tensor_matrix_multiply_params_t* matrix_multiply_params,
                                                            vx_tensor output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (matrix_multiply_params == nullptr) return fail(graph, VX_ERROR_INVALID_PARAMETERS);
  const ValueScalar params(graph, VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS, matrix_multiply_params, sizeof *matrix_multiply_params);
  if (const vx_status s = params.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_TENSOR_MATRIX_MULTIPLY, "vxTensorMatrixMultiplyNode",
                       {{as_reference(input1), "input1"}, {as_reference(input2), "input2"}, {as_reference(input3), "input3"},
                        {params.ref(), "matrix_multiply_params"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxHoughLinesPNode(vx_graph graph, vx_image input, const vx_hough_lines_p_t* params, vx_array lines_array,
                                                   vx_scalar num_lines) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (params == nullptr) return fail(graph, VX_ERROR_INVALID_PARAMETERS);
  const ValueScalar params_scalar(graph, VX_TYPE_HOUGH_LINES_PARAMS, params, sizeof *params);
  if (const vx_status s = params_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_HOUGH_LINES_P, "vxHoughLinesPNode",
                       {{as_reference(input), "input"}, {params_scalar.ref(), "params"}, {as_reference(lines_array), "lines_array"},
                        {as_reference(num_lines), "num_lines"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxHOGCellsNode(vx_graph graph, vx_image input, vx_int32 cell_width, vx_int32 cell_height,
                                                vx_int32 num_bins, vx_tensor magnitudes, vx_tensor bins) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar w(graph, VX_TYPE_INT32, &cell_width);
  const ValueScalar h(graph, VX_TYPE_INT32, &cell_height);
  const ValueScalar n(graph, VX_TYPE_INT32, &num_bins);
  for (const ValueScalar* v : {&w, &h, &n})
    if (const vx_status s = v->status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_HOG_CELLS, "vxHOGCellsNode",
                       {{as_reference(input), "input"}, {w.ref(), "cell_width"}, {h.ref(), "cell_height"}, {n.ref(), "num_bins"},
                        {as_reference(magnitudes), "magnitudes"}, {as_reference(bins), "bins"}});
}

// hog_param_size is not checked: the conformance suite passes 1 for a whole vx_hog_t.
VX_API_ENTRY vx_node VX_API_CALL vxHOGFeaturesNode(vx_graph graph, vx_image input, vx_tensor magnitudes, vx_tensor bins, const vx_hog_t* params,
                                                   vx_size /*hog_param_size*/, vx_tensor features) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  if (params == nullptr) return fail(graph, VX_ERROR_INVALID_PARAMETERS);
  const ValueScalar p(graph, VX_TYPE_HOG_PARAMS, params, sizeof *params);
  if (const vx_status s = p.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_HOG_FEATURES, "vxHOGFeaturesNode",
                       {{as_reference(input), "input"}, {as_reference(magnitudes), "magnitudes"}, {as_reference(bins), "bins"},
                        {p.ref(), "params"}, {as_reference(features), "features"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxColorConvertNode(vx_graph graph, vx_image input, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_COLOR_CONVERT, "vxColorConvertNode", {{as_reference(input), "input"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxScaleImageNode(vx_graph graph, vx_image src, vx_image dst, vx_enum type) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar type_scalar(graph, VX_TYPE_ENUM, &type);
  if (const vx_status s = type_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_SCALE_IMAGE, "vxScaleImageNode",
                       {{as_reference(src), "src"}, {as_reference(dst), "dst"}, {type_scalar.ref(), "type"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxWarpAffineNode(vx_graph graph, vx_image input, vx_matrix matrix, vx_enum type, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar type_scalar(graph, VX_TYPE_ENUM, &type);
  if (const vx_status s = type_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_WARP_AFFINE, "vxWarpAffineNode",
                       {{as_reference(input), "input"}, {as_reference(matrix), "matrix"}, {type_scalar.ref(), "type"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxWarpPerspectiveNode(vx_graph graph, vx_image input, vx_matrix matrix, vx_enum type,
                                                       vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar type_scalar(graph, VX_TYPE_ENUM, &type);
  if (const vx_status s = type_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_WARP_PERSPECTIVE, "vxWarpPerspectiveNode",
                       {{as_reference(input), "input"}, {as_reference(matrix), "matrix"}, {type_scalar.ref(), "type"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxFastCornersNode(vx_graph graph, vx_image input, vx_scalar strength_thresh, vx_bool nonmax_suppression,
                                                   vx_array corners, vx_scalar num_corners) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar nonmax_scalar(graph, VX_TYPE_BOOL, &nonmax_suppression);
  if (const vx_status s = nonmax_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_FAST_CORNERS, "vxFastCornersNode",
                       {{as_reference(input), "input"},
                        {as_reference(strength_thresh), "strength_thresh"},
                        {nonmax_scalar.ref(), "nonmax_suppression"},
                        {as_reference(corners), "corners"},
                        {as_reference(num_corners), "num_corners"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxCannyEdgeDetectorNode(vx_graph graph, vx_image input, vx_threshold hyst, vx_int32 gradient_size,
                                                         vx_enum norm_type, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar size_scalar(graph, VX_TYPE_INT32, &gradient_size);
  if (const vx_status s = size_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  const ValueScalar norm_scalar(graph, VX_TYPE_ENUM, &norm_type);
  if (const vx_status s = norm_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_CANNY_EDGE_DETECTOR, "vxCannyEdgeDetectorNode",
                       {{as_reference(input), "input"},
                        {as_reference(hyst), "hyst"},
                        {size_scalar.ref(), "gradient_size"},
                        {norm_scalar.ref(), "norm_type"},
                        {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxHarrisCornersNode(vx_graph graph, vx_image input, vx_scalar strength_thresh, vx_scalar min_distance,
                                                     vx_scalar sensitivity, vx_int32 gradient_size, vx_int32 block_size, vx_array corners,
                                                     vx_scalar num_corners) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar gradient_scalar(graph, VX_TYPE_INT32, &gradient_size);
  if (const vx_status s = gradient_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  const ValueScalar block_scalar(graph, VX_TYPE_INT32, &block_size);
  if (const vx_status s = block_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_HARRIS_CORNERS, "vxHarrisCornersNode",
                       {{as_reference(input), "input"},
                        {as_reference(strength_thresh), "strength_thresh"},
                        {as_reference(min_distance), "min_distance"},
                        {as_reference(sensitivity), "sensitivity"},
                        {gradient_scalar.ref(), "gradient_size"},
                        {block_scalar.ref(), "block_size"},
                        {as_reference(corners), "corners"},
                        {as_reference(num_corners), "num_corners"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxOpticalFlowPyrLKNode(vx_graph graph, vx_pyramid old_images, vx_pyramid new_images, vx_array old_points,
                                                       vx_array new_points_estimates, vx_array new_points, vx_enum termination,
                                                       vx_scalar epsilon, vx_scalar num_iterations, vx_scalar use_initial_estimate,
                                                       vx_size window_dimension) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar termination_scalar(graph, VX_TYPE_ENUM, &termination);
  if (const vx_status s = termination_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  const ValueScalar window_scalar(graph, VX_TYPE_SIZE, &window_dimension);
  if (const vx_status s = window_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_OPTICAL_FLOW_PYR_LK, "vxOpticalFlowPyrLKNode",
                       {{as_reference(old_images), "old_images"},
                        {as_reference(new_images), "new_images"},
                        {as_reference(old_points), "old_points"},
                        {as_reference(new_points_estimates), "new_points_estimates"},
                        {as_reference(new_points), "new_points"},
                        {termination_scalar.ref(), "termination"},
                        {as_reference(epsilon), "epsilon"},
                        {as_reference(num_iterations), "num_iterations"},
                        {as_reference(use_initial_estimate), "use_initial_estimate"},
                        {window_scalar.ref(), "window_dimension"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxWeightedAverageNode(vx_graph graph, vx_image img1, vx_scalar alpha, vx_image img2, vx_image output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_WEIGHTED_AVERAGE, "vxWeightedAverageNode",
                       {{as_reference(img1), "img1"}, {as_reference(alpha), "alpha"}, {as_reference(img2), "img2"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxCopyNode(vx_graph graph, vx_reference input, vx_reference output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_COPY, "vxCopyNode", {{input, "input"}, {output, "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorAddNode(vx_graph graph, vx_tensor input1, vx_tensor input2, vx_enum policy, vx_tensor output) {
  return two_tensors_policy_to_tensor(graph, VX_KERNEL_TENSOR_ADD, "vxTensorAddNode", input1, input2, policy, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorSubtractNode(vx_graph graph, vx_tensor input1, vx_tensor input2, vx_enum policy, vx_tensor output) {
  return two_tensors_policy_to_tensor(graph, VX_KERNEL_TENSOR_SUBTRACT, "vxTensorSubtractNode", input1, input2, policy, output);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorMultiplyNode(vx_graph graph, vx_tensor input1, vx_tensor input2, vx_scalar scale,
                                                      vx_enum overflow_policy, vx_enum rounding_policy, vx_tensor output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar overflow(graph, VX_TYPE_ENUM, &overflow_policy), rounding(graph, VX_TYPE_ENUM, &rounding_policy);
  for (const ValueScalar* v : {&overflow, &rounding}) {
    if (const vx_status s = v->status(); s != VX_SUCCESS) return fail(graph, s);
  }
  return standard_node(graph, VX_KERNEL_TENSOR_MULTIPLY, "vxTensorMultiplyNode",
                       {{as_reference(input1), "input1"}, {as_reference(input2), "input2"}, {as_reference(scale), "scale"},
                        {overflow.ref(), "overflow_policy"}, {rounding.ref(), "rounding_policy"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorTableLookupNode(vx_graph graph, vx_tensor input1, vx_lut lut, vx_tensor output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_TENSOR_TABLE_LOOKUP, "vxTensorTableLookupNode",
                       {{as_reference(input1), "input1"}, {as_reference(lut), "lut"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorTransposeNode(vx_graph graph, vx_tensor input, vx_tensor output, vx_size dimension1, vx_size dimension2) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar first(graph, VX_TYPE_SIZE, &dimension1), second(graph, VX_TYPE_SIZE, &dimension2);
  for (const ValueScalar* v : {&first, &second}) {
    if (const vx_status s = v->status(); s != VX_SUCCESS) return fail(graph, s);
  }
  return standard_node(graph, VX_KERNEL_TENSOR_TRANSPOSE, "vxTensorTransposeNode",
                       {{as_reference(input), "input"}, {as_reference(output), "output"}, {first.ref(), "dimension1"},
                        {second.ref(), "dimension2"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorConvertDepthNode(vx_graph graph, vx_tensor input, vx_enum policy, vx_scalar norm, vx_scalar offset,
                                                          vx_tensor output) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  const ValueScalar policy_scalar(graph, VX_TYPE_ENUM, &policy);
  if (const vx_status s = policy_scalar.status(); s != VX_SUCCESS) return fail(graph, s);
  return standard_node(graph, VX_KERNEL_TENSOR_CONVERT_DEPTH, "vxTensorConvertDepthNode",
                       {{as_reference(input), "input"}, {policy_scalar.ref(), "policy"}, {as_reference(norm), "norm"},
                        {as_reference(offset), "offset"}, {as_reference(output), "output"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxMeanStdDevNode(vx_graph graph, vx_image input, vx_scalar mean, vx_scalar stddev) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_MEAN_STDDEV, "vxMeanStdDevNode",
                       {{as_reference(input), "input"}, {as_reference(mean), "mean"}, {as_reference(stddev), "stddev"}});
}

// The accumulations of OpenVX 1.0-1.1, declared in <VX/vx_compatibility.h>; their kernels are standard ones.
VX_API_ENTRY vx_node VX_API_CALL vxAccumulateImageNode(vx_graph graph, vx_image input, vx_image accum) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_ACCUMULATE, "vxAccumulateImageNode",
                       {{as_reference(input), "input"}, {as_reference(accum), "accum"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxAccumulateWeightedImageNode(vx_graph graph, vx_image input, vx_scalar alpha, vx_image accum) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_ACCUMULATE_WEIGHTED, "vxAccumulateWeightedImageNode",
                       {{as_reference(input), "input"}, {as_reference(alpha), "alpha"}, {as_reference(accum), "accum"}});
}

VX_API_ENTRY vx_node VX_API_CALL vxAccumulateSquareImageNode(vx_graph graph, vx_image input, vx_scalar shift, vx_image accum) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return standard_node(graph, VX_KERNEL_ACCUMULATE_SQUARE, "vxAccumulateSquareImageNode",
                       {{as_reference(input), "input"}, {as_reference(shift), "shift"}, {as_reference(accum), "accum"}});
}

}  // extern "C"
