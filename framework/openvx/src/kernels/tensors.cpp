// The standard tensor kernels TensorAdd, TensorSubtract, TensorMultiply, TensorTableLookup, TensorTranspose,
// TensorConvertDepth, TensorMatrixMultiply, BilateralFilter, HOGCells and HOGFeatures: each a function and a
// validate (standard_kernel_support.hpp). The element arithmetic is the vision library's (tensor_ops.hpp,
// bilateral.hpp, hog.hpp): here the parameters are checked and the tensors handed over as base pointers with
// per-dimension byte strides.
//
// Element formats: VX_TYPE_INT16 with fixed point position 8 (Q7.8), VX_TYPE_UINT8 and VX_TYPE_INT8 with
// position 0 (TableLookup: UINT8 and INT16). Kernel functions read and write the tensors' memory directly
// through their strides (views and tensors from handles included) and allocate nothing (BilateralFilter's
// working memory is the node's, allocated at graph set-up).
#include <VX/vx.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>

#include "graph.hpp"
#include "image.hpp"
#include "lut.hpp"
#include "scalar.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "tensor.hpp"
#include "visiongraph/kernels/vision/bilateral.hpp"
#include "visiongraph/kernels/vision/hog.hpp"
#include "visiongraph/kernels/vision/tensor_ops.hpp"

namespace vg::openvx {
namespace {

// --- element formats ----------------------------------------------------------------------------------

/// One of the element formats the arithmetic kernels take.
bool supported_format(vx_enum type, vx_int8 position) noexcept {
  return (type == VX_TYPE_INT16 && position == 8) || (type == VX_TYPE_UINT8 && position == 0) ||
         (type == VX_TYPE_INT8 && position == 0);
}

const char* type_name(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_INT16: return "VX_TYPE_INT16";
    case VX_TYPE_UINT8: return "VX_TYPE_UINT8";
    case VX_TYPE_INT8: return "VX_TYPE_INT8";
    case VX_TYPE_INVALID: return "no data type";
    default: return "an unsupported data type";
  }
}

/// A tensor parameter (input) with its attributes settled.
vx_status input_tensor(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name,
                       const _vx_tensor_t*& tensor) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_TENSOR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a tensor", name);
  tensor = as<_vx_tensor_t>(parameters[index]);
  if (tensor->number_of_dims == 0 || tensor->data_type == VX_TYPE_INVALID) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is a virtual tensor no node before this one produces", name);
  }
  return VX_SUCCESS;
}

/// An input tensor in one of the arithmetic formats.
vx_status arithmetic_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name,
                           const _vx_tensor_t*& tensor) noexcept {
  if (const vx_status s = input_tensor(node, parameters, index, name, tensor); s != VX_SUCCESS) return s;
  if (!supported_format(tensor->data_type, tensor->fixed_point_position)) {
    return refuse(node, VX_ERROR_INVALID_TYPE,
                  "%s has data type 0x%x with fixed point position %d: it must be VX_TYPE_INT16 (Q7.8, position 8), "
                  "VX_TYPE_UINT8 or VX_TYPE_INT8 (position 0)",
                  name, static_cast<unsigned>(tensor->data_type), tensor->fixed_point_position);
  }
  return VX_SUCCESS;
}

/// Checks an output tensor against what the kernel makes (where the tensor was given those attributes; a
/// virtual tensor may leave them open) and describes it in @p meta. @p type VX_TYPE_INVALID: the output's
/// own type is kept (ConvertDepth), checked by the caller.
vx_status output_tensor(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_size n,
                        const vx_size* dims, vx_enum type, vx_int8 position, vx_meta_format meta) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_TENSOR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a tensor", name);
  const auto* out = as<_vx_tensor_t>(parameters[index]);
  const vx_size out_n = out->is_virtual ? out->requested_number_of_dims : out->number_of_dims;
  const vx_size* out_dims = out->is_virtual ? out->requested_dims : out->dims;
  const vx_enum out_type = out->is_virtual ? out->requested_data_type : out->data_type;
  if (out_n != 0 && out_n != n) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "%s has %zu dimensions, it must have %zu", name, out_n, n);
  }
  if (out_n != 0) {
    for (vx_size i = 0; i < n; ++i) {
      if (out_dims[i] != 0 && out_dims[i] != dims[i]) {
        return refuse(node, VX_ERROR_INVALID_DIMENSION, "dimension %zu of %s is %zu, it must be %zu", i, name, out_dims[i], dims[i]);
      }
    }
  }
  if (out_type != VX_TYPE_INVALID && (out_type != type || out->fixed_point_position != position)) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s has data type 0x%x with fixed point position %d, it must be 0x%x with %d", name,
                  static_cast<unsigned>(out_type), out->fixed_point_position, static_cast<unsigned>(type), position);
  }
  if (vxSetMetaFormatAttribute(meta, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n) != VX_SUCCESS ||
      vxSetMetaFormatAttribute(meta, VX_TENSOR_DIMS, dims, n * sizeof(vx_size)) != VX_SUCCESS ||
      vxSetMetaFormatAttribute(meta, VX_TENSOR_DATA_TYPE, &type, sizeof type) != VX_SUCCESS ||
      vxSetMetaFormatAttribute(meta, VX_TENSOR_FIXED_POINT_POSITION, &position, sizeof position) != VX_SUCCESS) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s could not be described", name);
  }
  return VX_SUCCESS;
}

/// A scalar parameter of @p type whose value is read when it can be (true in @p readable then).
vx_status typed_scalar(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type,
                       const char* type_text, void* value, vx_size size, bool& readable) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "%s is not a scalar", name);
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type != type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "%s is a scalar of type 0x%x, it must be %s", name,
                  static_cast<unsigned>(scalar->data_type), type_text);
  }
  readable = !scalar->is_virtual && scalar->bytes.size() == size;
  if (readable) std::memcpy(value, scalar->bytes.data(), size);
  return VX_SUCCESS;
}

/// The value of a scalar parameter while the kernel runs (a virtual scalar has one then).
template <typename T>
bool scalar_value(const vx_reference* parameters, vx_uint32 index, vx_enum type, T& value) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_SCALAR)) return false;
  const auto* scalar = as<_vx_scalar>(parameters[index]);
  if (scalar->data_type != type || scalar->bytes.size() != sizeof(T)) return false;
  std::memcpy(&value, scalar->bytes.data(), sizeof(T));
  return true;
}

// --- walking tensors ------------------------------------------------------------------------------------

/// One tensor taking part in a walk: element (i0, i1, ...) is at base + sum(i_d * strides[d]).
struct Operand {
  vx_uint8* base = nullptr;
  std::ptrdiff_t strides[kMaxTensorDims] = {};
};

/// The tensor's memory for a kernel function (null when it has none).
bool operand_of(const vx_reference* parameters, vx_uint32 index, Operand& operand) noexcept {
  if (!valid_handle(parameters[index], VX_TYPE_TENSOR)) return false;
  const auto* t = as<_vx_tensor_t>(parameters[index]);
  if (!t->memory || t->memory->base == nullptr) return false;
  operand.base = t->memory->base + t->offset;
  for (vx_size d = 0; d < t->number_of_dims; ++d) operand.strides[d] = static_cast<std::ptrdiff_t>(t->strides[d]);
  return true;
}

const _vx_tensor_t* tensor_at(const vx_reference* parameters, vx_uint32 index) noexcept {
  return valid_handle(parameters[index], VX_TYPE_TENSOR) ? as<_vx_tensor_t>(parameters[index]) : nullptr;
}

static_assert(kMaxTensorDims == vision::kMaxTensorRank, "Operand's strides are the library's");

/// The library's view of an arithmetic format (supported_format() checked it).
vision::TensorType library_type(vx_enum type) noexcept {
  return type == VX_TYPE_INT16 ? vision::TensorType::s16 : type == VX_TYPE_INT8 ? vision::TensorType::s8 : vision::TensorType::u8;
}

vision::TensorShape shape_of(const _vx_tensor_t* t) noexcept {
  vision::TensorShape shape;
  shape.rank = static_cast<std::uint32_t>(t->number_of_dims);
  for (vx_size d = 0; d < t->number_of_dims && d < vision::kMaxTensorRank; ++d) shape.dims[d] = t->dims[d];
  return shape;
}

vision::ConstTensorRef const_ref(const Operand& o) noexcept {
  vision::ConstTensorRef ref;
  ref.data = o.base;
  for (std::size_t d = 0; d < vision::kMaxTensorRank; ++d) ref.strides[d] = o.strides[d];
  return ref;
}

vision::TensorRef ref(const Operand& o) noexcept {
  vision::TensorRef r;
  r.data = o.base;
  for (std::size_t d = 0; d < vision::kMaxTensorRank; ++d) r.strides[d] = o.strides[d];
  return r;
}

vision::Overflow overflow_of(vx_enum policy) noexcept {
  return policy == VX_CONVERT_POLICY_WRAP ? vision::Overflow::wrap : vision::Overflow::saturate;
}

// --- TensorAdd, TensorSubtract, TensorMultiply ----------------------------------------------------------

/// Input1 and input2 of an element-wise kernel: same format, same number of dimensions, each dimension
/// equal or 1 in one of them (broadcast). @p out_dims gets the output's dimensions.
vx_status elementwise_inputs(vx_node node, const vx_reference parameters[], const _vx_tensor_t*& in1, vx_size* out_dims) noexcept {
  const _vx_tensor_t* in2 = nullptr;
  if (const vx_status s = arithmetic_input(node, parameters, 0, "input1", in1); s != VX_SUCCESS) return s;
  if (const vx_status s = arithmetic_input(node, parameters, 1, "input2", in2); s != VX_SUCCESS) return s;
  if (in2->data_type != in1->data_type || in2->fixed_point_position != in1->fixed_point_position) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "input2 has data type 0x%x (position %d) but input1 0x%x (position %d): they must be the same",
                  static_cast<unsigned>(in2->data_type), in2->fixed_point_position, static_cast<unsigned>(in1->data_type),
                  in1->fixed_point_position);
  }
  if (in2->number_of_dims != in1->number_of_dims) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "input2 has %zu dimensions but input1 %zu: they must have the same number",
                  in2->number_of_dims, in1->number_of_dims);
  }
  for (vx_size d = 0; d < in1->number_of_dims; ++d) {
    const vx_size a = in1->dims[d], b = in2->dims[d];
    if (a != b && a != 1 && b != 1) {
      return refuse(node, VX_ERROR_INVALID_DIMENSION,
                    "dimension %zu of input2 is %zu but of input1 %zu: they must be equal or one of them 1", d, b, a);
    }
    out_dims[d] = a > b ? a : b;
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK add_sub_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_tensor_t* in1 = nullptr;
  vx_size dims[kMaxTensorDims] = {};
  if (const vx_status s = elementwise_inputs(node, parameters, in1, dims); s != VX_SUCCESS) return s;
  vx_enum policy = 0;
  if (const vx_status s = policy_parameter(node, parameters, 2, policy); s != VX_SUCCESS) return s;
  return output_tensor(node, parameters, 3, "output", in1->number_of_dims, dims, in1->data_type, in1->fixed_point_position, metas[3]);
}

/// Operands of an element-wise kernel: input1 and input2 step 0 along dimensions they broadcast.
bool elementwise_operands(const vx_reference* parameters, vx_uint32 out_index, std::array<Operand, 3>& ops, const _vx_tensor_t*& out) noexcept {
  const _vx_tensor_t* in1 = tensor_at(parameters, 0);
  const _vx_tensor_t* in2 = tensor_at(parameters, 1);
  out = tensor_at(parameters, out_index);
  if (in1 == nullptr || in2 == nullptr || out == nullptr) return false;
  if (!operand_of(parameters, 0, ops[0]) || !operand_of(parameters, 1, ops[1]) || !operand_of(parameters, out_index, ops[2])) return false;
  if (in1->number_of_dims != out->number_of_dims || in2->number_of_dims != out->number_of_dims) return false;
  for (vx_size d = 0; d < out->number_of_dims; ++d) {
    if (in1->dims[d] != out->dims[d]) {
      if (in1->dims[d] != 1) return false;
      ops[0].strides[d] = 0;
    }
    if (in2->dims[d] != out->dims[d]) {
      if (in2->dims[d] != 1) return false;
      ops[1].strides[d] = 0;
    }
  }
  return true;
}

/// out = in1 + in2 (or - in2) on the raw values (one fixed point position), wrapped or saturated (tensor_ops.hpp).
template <bool Subtract>
vx_status VX_CALLBACK add_sub_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  if (!scalar_value(parameters, 2, VX_TYPE_ENUM, policy)) return VX_ERROR_INVALID_PARAMETERS;
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  std::array<Operand, 3> ops{};
  const _vx_tensor_t* out = nullptr;
  if (!elementwise_operands(parameters, 3, ops, out)) return VX_ERROR_INVALID_PARAMETERS;
  if (!supported_format(out->data_type, out->fixed_point_position)) return VX_ERROR_INVALID_TYPE;
  const auto run = Subtract ? &vision::tensor_subtract : &vision::tensor_add;
  if (!run(shape_of(out), library_type(out->data_type), const_ref(ops[0]), const_ref(ops[1]), ref(ops[2]), overflow_of(policy))) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK multiply_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 6) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 6 parameters, got %u", num);
  const _vx_tensor_t* in1 = nullptr;
  vx_size dims[kMaxTensorDims] = {};
  if (const vx_status s = elementwise_inputs(node, parameters, in1, dims); s != VX_SUCCESS) return s;
  vx_float32 scale = 0;
  bool readable = false;
  if (const vx_status s = typed_scalar(node, parameters, 2, "scale", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", &scale, sizeof scale, readable);
      s != VX_SUCCESS) {
    return s;
  }
  if (readable && !(scale >= 0.0f && std::isfinite(scale))) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "scale is %g, it must be a finite value >= 0", static_cast<double>(scale));
  }
  vx_enum policy = 0;
  if (const vx_status s = enum_parameter(node, parameters, 3, "overflow_policy", {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}, policy);
      s != VX_SUCCESS) {
    return s;
  }
  if (const vx_status s = enum_parameter(node, parameters, 4, "rounding_policy", {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}, policy);
      s != VX_SUCCESS) {
    return s;
  }
  return output_tensor(node, parameters, 5, "output", in1->number_of_dims, dims, in1->data_type, in1->fixed_point_position, metas[5]);
}

/// out = round(in1 * in2 * scale / 2^position) on the raw values (the product of two Q7.8 values is Q15.16:
/// dividing by 2^8 brings it back), rounded toward zero or to nearest even, then wrapped or saturated
/// (tensor_ops.hpp: computed exactly in integers).
vx_status VX_CALLBACK multiply_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 6) return VX_ERROR_INVALID_PARAMETERS;
  vx_float32 scale = 0;
  vx_enum policy = 0, rounding = 0;
  if (!scalar_value(parameters, 2, VX_TYPE_FLOAT32, scale) || !scalar_value(parameters, 3, VX_TYPE_ENUM, policy) ||
      !scalar_value(parameters, 4, VX_TYPE_ENUM, rounding)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  if (rounding != VX_ROUND_POLICY_TO_ZERO && rounding != VX_ROUND_POLICY_TO_NEAREST_EVEN) return VX_ERROR_INVALID_VALUE;
  if (!(scale >= 0.0f) || !std::isfinite(scale)) return VX_ERROR_INVALID_VALUE;
  std::array<Operand, 3> ops{};
  const _vx_tensor_t* out = nullptr;
  if (!elementwise_operands(parameters, 5, ops, out)) return VX_ERROR_INVALID_PARAMETERS;
  if (!supported_format(out->data_type, out->fixed_point_position)) return VX_ERROR_INVALID_TYPE;
  if (!vision::tensor_multiply(shape_of(out), library_type(out->data_type), out->fixed_point_position, const_ref(ops[0]), const_ref(ops[1]),
                               ref(ops[2]), scale, overflow_of(policy), rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

// --- TensorTableLookup (input1, lut, output) --------------------------------------------------------------

vx_status VX_CALLBACK table_lookup_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 3) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 3 parameters, got %u", num);
  const _vx_tensor_t* in = nullptr;
  if (const vx_status s = input_tensor(node, parameters, 0, "input1", in); s != VX_SUCCESS) return s;
  if (!((in->data_type == VX_TYPE_UINT8 && in->fixed_point_position == 0) || in->data_type == VX_TYPE_INT16)) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "input1 has data type 0x%x (position %d): it must be VX_TYPE_UINT8 (position 0) or VX_TYPE_INT16",
                  static_cast<unsigned>(in->data_type), in->fixed_point_position);
  }
  if (!valid_handle(parameters[1], VX_TYPE_LUT)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "lut is not a LUT");
  const auto* lut = as<_vx_lut>(parameters[1]);
  if (lut->data_type == VX_TYPE_INVALID || lut->count == 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "lut is a virtual LUT no node before this one produces (no type or count)");
  }
  if (lut->data_type != in->data_type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "lut has type 0x%x but input1 is %s: they must be the same", static_cast<unsigned>(lut->data_type),
                  type_name(in->data_type));
  }
  return output_tensor(node, parameters, 2, "output", in->number_of_dims, in->dims, in->data_type, in->fixed_point_position, metas[2]);
}

/// out = lut[offset + in] (offset: VX_LUT_OFFSET, 0 for UINT8, count / 2 for INT16); an element whose index
/// falls outside a short table is left as it is.
vx_status VX_CALLBACK table_lookup_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 3) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[1], VX_TYPE_LUT)) return VX_ERROR_INVALID_REFERENCE;
  const auto* lut = as<_vx_lut>(parameters[1]);
  vx_uint32 offset = 0;
  if (const vx_status s = vxQueryLUT(reinterpret_cast<vx_lut>(parameters[1]), VX_LUT_OFFSET, &offset, sizeof offset); s != VX_SUCCESS) return s;
  if (!lut->data.allocated()) return VX_ERROR_NOT_ALLOCATED;
  std::array<Operand, 2> ops{};
  const _vx_tensor_t* out = tensor_at(parameters, 2);
  const _vx_tensor_t* in = tensor_at(parameters, 0);
  if (in == nullptr || out == nullptr || !operand_of(parameters, 0, ops[0]) || !operand_of(parameters, 2, ops[1])) return VX_ERROR_INVALID_PARAMETERS;
  if (in->number_of_dims != out->number_of_dims || in->data_type != lut->data_type || out->data_type != lut->data_type) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  for (vx_size d = 0; d < in->number_of_dims; ++d) {
    if (in->dims[d] != out->dims[d]) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (lut->data_type != VX_TYPE_UINT8 && lut->data_type != VX_TYPE_INT16) return VX_ERROR_INVALID_TYPE;
  const vision::TensorType type = lut->data_type == VX_TYPE_UINT8 ? vision::TensorType::u8 : vision::TensorType::s16;
  if (!vision::tensor_table_lookup(shape_of(out), type, const_ref(ops[0]), ref(ops[1]), lut->data.data(), lut->count, offset)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

// --- TensorTranspose (input, output, dimension1, dimension2) ----------------------------------------------

vx_status VX_CALLBACK transpose_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_tensor_t* in = nullptr;
  if (const vx_status s = arithmetic_input(node, parameters, 0, "input", in); s != VX_SUCCESS) return s;
  vx_size dim[2] = {};
  const char* names[2] = {"dimension1", "dimension2"};
  for (int i = 0; i < 2; ++i) {
    bool readable = false;
    if (const vx_status s = typed_scalar(node, parameters, static_cast<vx_uint32>(2 + i), names[i], VX_TYPE_SIZE, "VX_TYPE_SIZE", &dim[i],
                                         sizeof dim[i], readable);
        s != VX_SUCCESS) {
      return s;
    }
    if (!readable) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s is a virtual scalar: its value must be known at verify", names[i]);
    if (dim[i] >= in->number_of_dims) {
      return refuse(node, VX_ERROR_INVALID_VALUE, "%s is %zu but input has %zu dimensions", names[i], dim[i], in->number_of_dims);
    }
  }
  vx_size dims[kMaxTensorDims] = {};
  for (vx_size d = 0; d < in->number_of_dims; ++d) dims[d] = in->dims[d];
  dims[dim[0]] = in->dims[dim[1]];
  dims[dim[1]] = in->dims[dim[0]];
  return output_tensor(node, parameters, 1, "output", in->number_of_dims, dims, in->data_type, in->fixed_point_position, metas[1]);
}

/// out(..., i at dimension1, ..., j at dimension2, ...) = in(..., j at dimension1, ..., i at dimension2, ...).
vx_status VX_CALLBACK transpose_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_size d1 = 0, d2 = 0;
  if (!scalar_value(parameters, 2, VX_TYPE_SIZE, d1) || !scalar_value(parameters, 3, VX_TYPE_SIZE, d2)) return VX_ERROR_INVALID_PARAMETERS;
  const _vx_tensor_t* in = tensor_at(parameters, 0);
  const _vx_tensor_t* out = tensor_at(parameters, 1);
  std::array<Operand, 2> ops{};
  if (in == nullptr || out == nullptr || !operand_of(parameters, 0, ops[0]) || !operand_of(parameters, 1, ops[1])) return VX_ERROR_INVALID_PARAMETERS;
  const vx_size n = out->number_of_dims;
  if (in->number_of_dims != n || d1 >= n || d2 >= n || in->data_type != out->data_type) return VX_ERROR_INVALID_PARAMETERS;
  for (vx_size d = 0; d < n; ++d) {
    const vx_size from = d == d1 ? d2 : d == d2 ? d1 : d;
    if (in->dims[from] != out->dims[d]) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!supported_format(out->data_type, out->fixed_point_position)) return VX_ERROR_INVALID_TYPE;
  if (!vision::tensor_transpose(shape_of(out), library_type(out->data_type), const_ref(ops[0]), ref(ops[1]), d1, d2)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

// --- TensorConvertDepth (input, policy, norm, offset, output) ---------------------------------------------

vx_status VX_CALLBACK convert_depth_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_tensor_t* in = nullptr;
  if (const vx_status s = arithmetic_input(node, parameters, 0, "input", in); s != VX_SUCCESS) return s;
  vx_enum policy = 0;
  if (const vx_status s = policy_parameter(node, parameters, 1, policy); s != VX_SUCCESS) return s;
  vx_float32 norm = 0, offset = 0;
  bool readable = false;
  if (const vx_status s = typed_scalar(node, parameters, 2, "norm", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", &norm, sizeof norm, readable);
      s != VX_SUCCESS) {
    return s;
  }
  if (readable && (norm == 0.0f || !std::isfinite(norm))) {
    return refuse(node, VX_ERROR_INVALID_VALUE, "norm is %g, it must be finite and not 0", static_cast<double>(norm));
  }
  if (const vx_status s = typed_scalar(node, parameters, 3, "offset", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", &offset, sizeof offset, readable);
      s != VX_SUCCESS) {
    return s;
  }
  if (!valid_handle(parameters[4], VX_TYPE_TENSOR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "output is not a tensor");
  const auto* out = as<_vx_tensor_t>(parameters[4]);
  const vx_enum out_type = out->is_virtual ? out->requested_data_type : out->data_type;
  if (out_type == VX_TYPE_INVALID) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "output is a virtual tensor with no data type: the conversion needs one");
  }
  if (!supported_format(out_type, out->fixed_point_position)) {
    return refuse(node, VX_ERROR_INVALID_TYPE,
                  "output has data type 0x%x with fixed point position %d: it must be VX_TYPE_INT16 (Q7.8, position 8), "
                  "VX_TYPE_UINT8 or VX_TYPE_INT8 (position 0)",
                  static_cast<unsigned>(out_type), out->fixed_point_position);
  }
  return output_tensor(node, parameters, 4, "output", in->number_of_dims, in->dims, out_type, out->fixed_point_position, metas[4]);
}

/// out = (in - offset) / norm, computed in single precision as (in - offset) * (1 / norm), brought to the
/// output's fixed point position and truncated toward zero, then wrapped or saturated.
vx_status VX_CALLBACK convert_depth_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum policy = 0;
  vx_float32 norm = 0, offset = 0;
  if (!scalar_value(parameters, 1, VX_TYPE_ENUM, policy) || !scalar_value(parameters, 2, VX_TYPE_FLOAT32, norm) ||
      !scalar_value(parameters, 3, VX_TYPE_FLOAT32, offset)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (policy != VX_CONVERT_POLICY_WRAP && policy != VX_CONVERT_POLICY_SATURATE) return VX_ERROR_INVALID_VALUE;
  if (norm == 0.0f) return VX_ERROR_INVALID_VALUE;
  const _vx_tensor_t* in = tensor_at(parameters, 0);
  const _vx_tensor_t* out = tensor_at(parameters, 4);
  std::array<Operand, 2> ops{};
  if (in == nullptr || out == nullptr || !operand_of(parameters, 0, ops[0]) || !operand_of(parameters, 4, ops[1])) return VX_ERROR_INVALID_PARAMETERS;
  if (in->number_of_dims != out->number_of_dims) return VX_ERROR_INVALID_PARAMETERS;
  for (vx_size d = 0; d < in->number_of_dims; ++d) {
    if (in->dims[d] != out->dims[d]) return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!supported_format(in->data_type, in->fixed_point_position) || !supported_format(out->data_type, out->fixed_point_position)) {
    return VX_ERROR_INVALID_TYPE;
  }
  if (!vision::tensor_convert_depth(shape_of(out), library_type(in->data_type), in->fixed_point_position, const_ref(ops[0]),
                                    library_type(out->data_type), out->fixed_point_position, ref(ops[1]), overflow_of(policy), norm, offset)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

// --- BilateralFilter ---------------------------------------------------------------------------------------
// src and dst: tensors of 2 dimensions (width, height; one channel) or 3 (channels, width, height), UINT8
// or INT16 Q7.8, of one shape, filtered by the vision library's bilateral_filter (bilateral.hpp states the
// definition with its rounding steps: a disc of the given odd diameter, space and colour weights, the colour
// weight per integer distance for UINT8 and interpolated in 4096 bins per channel over the input's range
// for Q7.8, the conformance reference's scheme). Neighbours outside read the node's border: CONSTANT the
// constant (U8 or S16 of the border value), else the nearest edge element. The working memory (a ring of
// rows and the colour table) is the node's, sized at validation for the largest diameter.
//
// A 3-dimensional tensor whose first dimension is 1 is read as the conformance suite and the Khronos sample
// implementation read it: three dimensions mean three colour channels, each at the first dimension's stride
// from the last, so a pixel's channels are it and the next two elements (its neighbours' first channels),
// and the channels' results are written in raster order, the last write of an element winning. The suite
// tests 3-channel filtering with exactly this layout ([1, width, height]) and accepts only results that agree
// with that reading. Elements past the tensor's last are never touched: a read there reads the last one.

constexpr vx_int32 kMaxBilateralDiameter = vision::kMaxBilateralDiameter;
constexpr vx_size kMaxBilateralChannels = vision::kMaxBilateralChannels;

vx_status bilateral_scalars(const vx_reference* parameters, vx_int32& diameter, vx_float32& sigma_space, vx_float32& sigma_values) noexcept {
  if (!scalar_value(parameters, 1, VX_TYPE_INT32, diameter) || !scalar_value(parameters, 2, VX_TYPE_FLOAT32, sigma_space) ||
      !scalar_value(parameters, 3, VX_TYPE_FLOAT32, sigma_values)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return VX_SUCCESS;
}

bool bilateral_shape(const _vx_tensor_t* t) noexcept {
  if (t->number_of_dims != 2 && t->number_of_dims != 3) return false;
  if (t->number_of_dims == 3 && (t->dims[0] == 0 || t->dims[0] > kMaxBilateralChannels)) return false;
  if (t->dims[t->number_of_dims - 2] > UINT32_MAX || t->dims[t->number_of_dims - 1] > UINT32_MAX) return false;
  return (t->data_type == VX_TYPE_UINT8 && t->fixed_point_position == 0) ||
         (t->data_type == VX_TYPE_INT16 && t->fixed_point_position == 8);
}

/// The channels the filter reads per pixel: [1, w, h] is three overlapping ones (above).
int bilateral_channels(const _vx_tensor_t* t) noexcept {
  if (t->number_of_dims != 3) return 1;
  return t->dims[0] == 1 ? 3 : static_cast<int>(t->dims[0]);
}

vx_status VX_CALLBACK bilateral_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_tensor_t* src = nullptr;
  if (const vx_status s = input_tensor(node, parameters, 0, "src", src); s != VX_SUCCESS) return s;
  if (!bilateral_shape(src)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS,
                  "src must have 2 dimensions (width, height) or 3 (channels 1..4, width, height) of UINT8 or INT16 Q7.8");
  }
  vx_int32 diameter = 0;
  bool readable = false;
  if (const vx_status s = typed_scalar(node, parameters, 1, "diameter", VX_TYPE_INT32, "VX_TYPE_INT32", &diameter, sizeof diameter, readable);
      s != VX_SUCCESS) {
    return s;
  }
  if (readable && (diameter < 3 || diameter > kMaxBilateralDiameter || diameter % 2 == 0)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "diameter is %d: it must be odd, 3..%d", diameter, kMaxBilateralDiameter);
  }
  vx_float32 sigma = 0.0f;
  for (vx_uint32 i = 2; i <= 3; ++i) {
    if (const vx_status s = typed_scalar(node, parameters, i, i == 2 ? "sigmaSpace" : "sigmaValues", VX_TYPE_FLOAT32, "VX_TYPE_FLOAT32", &sigma,
                                         sizeof sigma, readable);
        s != VX_SUCCESS) {
      return s;
    }
    if (readable && !(sigma > 0.0f && std::isfinite(sigma))) {
      return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s must be finite and above 0", i == 2 ? "sigmaSpace" : "sigmaValues");
    }
  }
  // Any diameter: the scalar may change between runs.
  as<_vx_node>(node)->local_data_size =
      vision::bilateral_filter_scratch_size(static_cast<std::uint32_t>(src->dims[src->number_of_dims - 2]), bilateral_channels(src));
  return output_tensor(node, parameters, 4, "dst", src->number_of_dims, src->dims, src->data_type, src->fixed_point_position, metas[4]);
}

/// The layout of a bilateral operand: byte steps, and the offset of the tensor's last element.
vision::BilateralLayout bilateral_layout(const _vx_tensor_t* t, const Operand& o) noexcept {
  const bool three = t->number_of_dims == 3;
  const auto stored_channels = three ? static_cast<std::ptrdiff_t>(t->dims[0]) : 1;
  const auto w = static_cast<std::ptrdiff_t>(t->dims[three ? 1 : 0]), h = static_cast<std::ptrdiff_t>(t->dims[three ? 2 : 1]);
  vision::BilateralLayout l;
  l.channel_step = three ? o.strides[0] : 0;
  l.pixel_step = o.strides[three ? 1 : 0];
  l.row_step = o.strides[three ? 2 : 1];
  l.last = (stored_channels - 1) * l.channel_step + (w - 1) * l.pixel_step + (h - 1) * l.row_step;
  return l;
}

vx_status VX_CALLBACK bilateral_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  vx_int32 diameter = 0;
  vx_float32 sigma_space = 0.0f, sigma_values = 0.0f;
  if (const vx_status s = bilateral_scalars(parameters, diameter, sigma_space, sigma_values); s != VX_SUCCESS) return s;
  if (diameter < 3 || diameter > kMaxBilateralDiameter || diameter % 2 == 0 || !(sigma_space > 0.0f) || !(sigma_values > 0.0f)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_border_t border{};
  if (const vx_status s = vxQueryNode(node, VX_NODE_BORDER, &border, sizeof border); s != VX_SUCCESS) return s;
  const _vx_tensor_t* src = tensor_at(parameters, 0);
  const _vx_tensor_t* dst = tensor_at(parameters, 4);
  Operand in, out;
  if (src == nullptr || dst == nullptr || !bilateral_shape(src) || !operand_of(parameters, 0, in) || !operand_of(parameters, 4, out)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (dst->number_of_dims != src->number_of_dims || dst->data_type != src->data_type ||
      !std::equal(src->dims, src->dims + src->number_of_dims, dst->dims)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const bool three = src->number_of_dims == 3;
  vision::BilateralOptions options;
  options.width = static_cast<std::uint32_t>(src->dims[three ? 1 : 0]);
  options.height = static_cast<std::uint32_t>(src->dims[three ? 2 : 1]);
  options.channels = bilateral_channels(src);
  options.diameter = diameter;
  options.sigma_space = sigma_space;
  options.sigma_values = sigma_values;
  options.constant_border = border.mode == VX_BORDER_CONSTANT;
  const bool u8 = src->data_type == VX_TYPE_UINT8;
  options.constant = u8 ? static_cast<std::int16_t>(border.constant_value.U8) : border.constant_value.S16;
  _vx_node* n = as<_vx_node>(node);
  const std::span<std::uint8_t> scratch(static_cast<std::uint8_t*>(n->local_data), n->local_data != nullptr ? n->local_data_size : 0);
  const vision::BilateralLayout in_layout = bilateral_layout(src, in), out_layout = bilateral_layout(dst, out);
  const bool done = u8 ? vision::bilateral_filter(in.base, in_layout, out.base, out_layout, options, scratch)
                       : vision::bilateral_filter(reinterpret_cast<const std::int16_t*>(in.base), in_layout,
                                                  reinterpret_cast<std::int16_t*>(out.base), out_layout, options, scratch);
  // The options were checked above: only too little working memory is left.
  return done ? VX_SUCCESS : VX_ERROR_NO_MEMORY;
}


// --- TensorMatrixMultiply ----------------------------------------------------------------------------------
// output = input1 x input2 (+ input3): 2-dimensional tensors (dims[0] columns, dims[1] rows), each of them
// optionally transposed first (the params scalar), of one format: INT16 Q7.8 (products summed exactly, the
// addend scaled by 256, then rounded half up to Q7.8), UINT8 or INT8 (summed exactly); saturated to the
// output's type. input1 is M x N, input2 N x K, input3 and the output M x K (rows x columns).

/// The tensor as a matrix (dims[0] columns, dims[1] rows), read transposed when @p transposed.
vision::ConstMatrixRef matrix_view(const _vx_tensor_t* t, bool transposed) noexcept {
  const vision::ConstMatrixRef m{t->memory->base + t->offset, t->dims[1], t->dims[0], static_cast<std::ptrdiff_t>(t->strides[1]),
                                 static_cast<std::ptrdiff_t>(t->strides[0])};
  return transposed ? m.transposed() : m;
}

bool matrix_shapes(const _vx_tensor_t* a, const _vx_tensor_t* b, const _vx_tensor_t* c, const vx_tensor_matrix_multiply_params_t& p,
                   vx_size out_dims[2]) noexcept {
  if (a->number_of_dims != 2 || b->number_of_dims != 2 || (c != nullptr && c->number_of_dims != 2)) return false;
  const vx_size m = a->dims[p.transpose_input1 ? 0 : 1], n = a->dims[p.transpose_input1 ? 1 : 0];
  const vx_size b_rows = b->dims[p.transpose_input2 ? 0 : 1], k = b->dims[p.transpose_input2 ? 1 : 0];
  if (n != b_rows) return false;
  if (c != nullptr && (c->dims[p.transpose_input3 ? 0 : 1] != m || c->dims[p.transpose_input3 ? 1 : 0] != k)) return false;
  out_dims[0] = k;
  out_dims[1] = m;
  return true;
}

vx_status VX_CALLBACK matrix_multiply_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_tensor_t *a = nullptr, *b = nullptr, *c = nullptr;
  if (const vx_status s = arithmetic_input(node, parameters, 0, "input1", a); s != VX_SUCCESS) return s;
  if (const vx_status s = arithmetic_input(node, parameters, 1, "input2", b); s != VX_SUCCESS) return s;
  if (parameters[2] != nullptr) {
    if (const vx_status s = arithmetic_input(node, parameters, 2, "input3", c); s != VX_SUCCESS) return s;
  }
  for (const _vx_tensor_t* t : {b, c}) {
    if (t != nullptr && (t->data_type != a->data_type || t->fixed_point_position != a->fixed_point_position)) {
      return refuse(node, VX_ERROR_INVALID_TYPE, "input1, input2 and input3 must have one data type");
    }
  }
  vx_tensor_matrix_multiply_params_t params{};
  bool readable = false;
  if (const vx_status s = typed_scalar(node, parameters, 3, "matrix_multiply_params", VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS,
                                       "VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS", &params, sizeof params, readable);
      s != VX_SUCCESS) {
    return s;
  }
  vx_size out_dims[2] = {};
  if (readable && !matrix_shapes(a, b, c, params, out_dims)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION,
                  "the matrices do not chain: input1 must be M x N, input2 N x K and input3 M x K (rows x columns) after "
                  "their transposes");
  }
  if (!readable) {
    out_dims[0] = b->dims[0];
    out_dims[1] = a->dims[1];
  }
  return output_tensor(node, parameters, 4, "output", 2, out_dims, a->data_type, a->fixed_point_position, metas[4]);
}

vx_status VX_CALLBACK matrix_multiply_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  const _vx_tensor_t* a = tensor_at(parameters, 0);
  const _vx_tensor_t* b = tensor_at(parameters, 1);
  const _vx_tensor_t* c = parameters[2] != nullptr ? tensor_at(parameters, 2) : nullptr;
  const _vx_tensor_t* out = tensor_at(parameters, 4);
  vx_tensor_matrix_multiply_params_t params{};
  if (a == nullptr || b == nullptr || out == nullptr || (parameters[2] != nullptr && c == nullptr) ||
      !scalar_value(parameters, 3, VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS, params)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size out_dims[2] = {};
  if (!matrix_shapes(a, b, c, params, out_dims) || out->number_of_dims != 2 || out->dims[0] != out_dims[0] || out->dims[1] != out_dims[1] ||
      out->data_type != a->data_type) {
    return VX_ERROR_INVALID_DIMENSION;
  }
  for (const _vx_tensor_t* t : {a, b, c, out})
    if (t != nullptr && (!t->memory || t->memory->base == nullptr)) return VX_ERROR_NO_MEMORY;
  if (!supported_format(a->data_type, a->fixed_point_position)) return VX_ERROR_INVALID_TYPE;
  const vision::ConstMatrixRef va = matrix_view(a, params.transpose_input1 == vx_true_e), vb = matrix_view(b, params.transpose_input2 == vx_true_e);
  vision::ConstMatrixRef vc{};
  if (c != nullptr) vc = matrix_view(c, params.transpose_input3 == vx_true_e);
  const vision::MatrixRef vo{out->memory->base + out->offset, out->dims[1], out->dims[0], static_cast<std::ptrdiff_t>(out->strides[1]),
                             static_cast<std::ptrdiff_t>(out->strides[0])};
  if (!vision::tensor_matrix_multiply(library_type(a->data_type), a->fixed_point_position, va, vb, c != nullptr ? &vc : nullptr, vo)) {
    return VX_ERROR_INVALID_DIMENSION;
  }
  return VX_SUCCESS;
}


// --- HOGCells, HOGFeatures ---------------------------------------------------------------------------------
// HOGCells: a U8 image into per-cell gradient statistics, INT16 Q7.8 tensors: magnitudes [cells_x, cells_y]
// (optional) and bins [cells_x, cells_y, num_bins]. HOGFeatures: from those, per detection window (row
// order), per block of the window, per cell of the block, per bin: the bin over the block's L2 norm of cell
// magnitudes, clipped at the threshold, in Q7.8, then the block's values renormalised by their L2 norm
// (L2-Hys); written in that order. Both run the vision library's hog_cells / hog_features (hog.hpp states
// the definitions with their rounding steps, the conformance suite's reference scheme). The tensors hold
// their values in flat order (the first dimension fastest, the bins of one cell next to each other, cell
// after cell in row order): a dense tensor is read and written in place, any other through the node's
// working memory, which also holds HOGCells' orientation table and HOGFeatures' blocks (allocated at graph
// set-up, sized at validation).

constexpr int kMaxHogBins = vision::kMaxHogBins;

/// Elements one after the other in flat order (each dimension's stride the one below times its size).
bool dense_int16(const _vx_tensor_t* t) noexcept {
  vx_size step = sizeof(vx_int16);
  for (vx_size d = 0; d < t->number_of_dims; ++d) {
    if (t->strides[d] != step) return false;
    step *= t->dims[d];
  }
  return true;
}

vx_size element_count(const _vx_tensor_t* t) noexcept {
  vx_size n = 1;
  for (vx_size d = 0; d < t->number_of_dims; ++d) n *= t->dims[d];
  return n;
}

/// The element at flat position @p index of @p t, counting the first dimension fastest.
vx_uint8* flat_element(const _vx_tensor_t* t, vx_size index) noexcept {
  std::ptrdiff_t offset = 0;
  for (vx_size d = 0; d < t->number_of_dims; ++d) {
    offset += static_cast<std::ptrdiff_t>((index % t->dims[d]) * t->strides[d]);
    index /= t->dims[d];
  }
  return t->memory->base + t->offset + offset;
}

/// A tensor's values in flat order: its memory when dense, else @p bounce (filled from it when @p read).
vx_int16* flat_values(const _vx_tensor_t* t, vx_int16* bounce, bool read) noexcept {
  if (dense_int16(t)) return reinterpret_cast<vx_int16*>(t->memory->base + t->offset);
  if (read) {
    for (vx_size i = 0, n = element_count(t); i < n; ++i) bounce[i] = load<vx_int16>(flat_element(t, i));
  }
  return bounce;
}

/// Writes @p values back into @p t unless they are its memory.
void store_flat_values(const _vx_tensor_t* t, const vx_int16* values) noexcept {
  if (values == reinterpret_cast<const vx_int16*>(t->memory->base + t->offset)) return;
  for (vx_size i = 0, n = element_count(t); i < n; ++i) store<vx_int16>(flat_element(t, i), values[i]);
}

/// Node working memory: the library's scratch, then room for tensors that are not dense.
struct HogMemory {
  std::span<std::uint8_t> scratch;
  vx_int16* bounce = nullptr;
  vx_size bounce_values = 0;
};

HogMemory hog_memory(vx_node node, vx_size scratch_bytes) noexcept {
  _vx_node* n = as<_vx_node>(node);
  HogMemory m;
  if (n->local_data == nullptr || n->local_data_size < scratch_bytes) return m;
  auto* base = static_cast<std::uint8_t*>(n->local_data);
  m.scratch = {base, scratch_bytes};
  const vx_size bounce_at = (scratch_bytes + alignof(vx_int16) - 1) / alignof(vx_int16) * alignof(vx_int16);
  if (n->local_data_size > bounce_at) {
    m.bounce = reinterpret_cast<vx_int16*>(base + bounce_at);
    m.bounce_values = (n->local_data_size - bounce_at) / sizeof(vx_int16);
  }
  return m;
}

vx_size hog_local_bytes(vx_size scratch_bytes, vx_size bounce_values) noexcept {
  return (scratch_bytes + alignof(vx_int16) - 1) / alignof(vx_int16) * alignof(vx_int16) + bounce_values * sizeof(vx_int16);
}

vx_status VX_CALLBACK hog_cells_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 6) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 6 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  vx_int32 v[3] = {};
  const char* names[3] = {"cell_width", "cell_height", "num_bins"};
  for (vx_uint32 i = 0; i < 3; ++i) {
    bool readable = false;
    if (const vx_status s = typed_scalar(node, parameters, 1 + i, names[i], VX_TYPE_INT32, "VX_TYPE_INT32", &v[i], sizeof v[i], readable);
        s != VX_SUCCESS) {
      return s;
    }
    if (!readable) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "%s must be known at verify", names[i]);
  }
  if (v[0] < 1 || v[1] < 1 || static_cast<vx_uint32>(v[0]) > input->width || static_cast<vx_uint32>(v[1]) > input->height ||
      v[2] < 1 || v[2] > kMaxHogBins) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "cells must fit the image and num_bins be 1..%d", kMaxHogBins);
  }
  const vx_size cells[3] = {input->width / static_cast<vx_uint32>(v[0]), input->height / static_cast<vx_uint32>(v[1]), static_cast<vx_size>(v[2])};
  if (parameters[4] != nullptr) {
    if (const vx_status s = output_tensor(node, parameters, 4, "magnitudes", 2, cells, VX_TYPE_INT16, 8, metas[4]); s != VX_SUCCESS) return s;
  }
  if (const vx_status s = output_tensor(node, parameters, 5, "bins", 3, cells, VX_TYPE_INT16, 8, metas[5]); s != VX_SUCCESS) return s;
  // Room for both outputs in case they are not dense (a view, a handle's own strides): a few bytes per cell.
  const vision::HogCellsOptions options{v[0], v[1], v[2]};
  as<_vx_node>(node)->local_data_size =
      hog_local_bytes(vision::hog_cells_scratch_size(input->width, options), cells[0] * cells[1] * (1 + cells[2]));
  return VX_SUCCESS;
}

vx_status VX_CALLBACK hog_cells_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 6) return VX_ERROR_INVALID_PARAMETERS;
  vx_int32 cw = 0, ch = 0, bins_num = 0;
  if (!scalar_value(parameters, 1, VX_TYPE_INT32, cw) || !scalar_value(parameters, 2, VX_TYPE_INT32, ch) ||
      !scalar_value(parameters, 3, VX_TYPE_INT32, bins_num) || cw < 1 || ch < 1 || bins_num < 1 || bins_num > kMaxHogBins) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  const _vx_tensor_t* mags = parameters[4] != nullptr ? tensor_at(parameters, 4) : nullptr;
  const _vx_tensor_t* bins = tensor_at(parameters, 5);
  const int w = static_cast<int>(in.width()), h = static_cast<int>(in.height());
  const int ncx = w / cw, ncy = h / ch;
  for (const _vx_tensor_t* t : {mags, bins})
    if (t != nullptr && (!t->memory || t->memory->base == nullptr || t->dims[0] != static_cast<vx_size>(ncx) || t->dims[1] != static_cast<vx_size>(ncy)))
      return VX_ERROR_INVALID_PARAMETERS;
  if (bins == nullptr || bins->number_of_dims != 3 || bins->dims[2] != static_cast<vx_size>(bins_num)) return VX_ERROR_INVALID_PARAMETERS;
  if (cw > w || ch > h) return VX_ERROR_INVALID_PARAMETERS;
  const vision::HogCellsOptions options{cw, ch, bins_num};
  const HogMemory memory = hog_memory(node, vision::hog_cells_scratch_size(in.width(), options));
  const vx_size cell_count = static_cast<vx_size>(ncx) * static_cast<vx_size>(ncy);
  const vx_size bounce_needed = (mags != nullptr && !dense_int16(mags) ? cell_count : 0) + (!dense_int16(bins) ? element_count(bins) : 0);
  if (memory.scratch.empty() || memory.bounce_values < bounce_needed) return VX_ERROR_NO_MEMORY;
  vx_int16* bin_values = flat_values(bins, memory.bounce, false);
  vx_int16* mag_values = mags != nullptr ? flat_values(mags, memory.bounce + (dense_int16(bins) ? 0 : element_count(bins)), false) : nullptr;
  const vision::HogImage image{in.row(0), in.width(), in.height(), in.addressing().stride_y, in.stride_x()};
  if (!vision::hog_cells(image, options, mag_values, bin_values, memory.scratch)) return VX_ERROR_INVALID_PARAMETERS;
  store_flat_values(bins, bin_values);
  if (mags != nullptr) store_flat_values(mags, mag_values);
  return VX_SUCCESS;
}

/// HOGFeatures' params in the library's terms.
vision::HogFeaturesOptions hog_features_options(const vx_hog_t& p) noexcept {
  vision::HogFeaturesOptions o;
  o.cell_width = p.cell_width;
  o.cell_height = p.cell_height;
  o.block_width = p.block_width;
  o.block_height = p.block_height;
  o.block_stride = p.block_stride;
  o.bins = p.num_bins;
  o.window_width = p.window_width;
  o.window_height = p.window_height;
  o.window_stride = p.window_stride;
  o.threshold = p.threshold;
  return o;
}

vx_status VX_CALLBACK hog_features_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 5) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 5 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  vx_hog_t p{};
  if (!valid_handle(parameters[3], VX_TYPE_SCALAR) || as<_vx_scalar>(parameters[3])->data_type != VX_TYPE_HOG_PARAMS ||
      vxCopyScalarWithSize(reinterpret_cast<vx_scalar>(parameters[3]), sizeof p, &p, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "params must be a readable VX_TYPE_HOG_PARAMS scalar");
  }
  if (p.cell_width < 1 || p.cell_height < 1 || p.block_width < p.cell_width || p.block_height < p.cell_height || p.block_stride < 1 ||
      p.num_bins < 1 || p.num_bins > kMaxHogBins || p.window_width < p.block_width || p.window_height < p.block_height ||
      p.window_stride < 1 || static_cast<vx_uint32>(p.window_width) > input->width || static_cast<vx_uint32>(p.window_height) > input->height ||
      p.block_width % p.cell_width != 0 || p.block_height % p.cell_height != 0 || p.block_stride % p.cell_width != 0 ||
      p.window_stride % p.cell_width != 0 || p.block_stride % p.cell_height != 0 || p.window_stride % p.cell_height != 0) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS,
                  "params do not fit: cells tile blocks, blocks and windows step by whole cells, windows fit the image");
  }
  const _vx_tensor_t* bins = nullptr;
  if (const vx_status s = input_tensor(node, parameters, 2, "bins", bins); s != VX_SUCCESS) return s;
  if (parameters[1] == nullptr) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "magnitudes must be given (the blocks' norms need them)");
  const vx_size cells_x = input->width / static_cast<vx_uint32>(p.cell_width), cells_y = input->height / static_cast<vx_uint32>(p.cell_height);
  if (bins->number_of_dims != 3 || bins->dims[0] != cells_x || bins->dims[1] != cells_y || bins->dims[2] != static_cast<vx_size>(p.num_bins)) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "bins must be [%zu, %zu, %d], HOGCells' output for these params",
                  static_cast<std::size_t>(cells_x), static_cast<std::size_t>(cells_y), p.num_bins);
  }
  const vx_size per_window = static_cast<vx_size>((p.window_width - p.block_width) / p.block_stride + 1) *
                             static_cast<vx_size>((p.window_height - p.block_height) / p.block_stride + 1) *
                             static_cast<vx_size>((p.block_width / p.cell_width) * (p.block_height / p.cell_height)) *
                             static_cast<vx_size>(p.num_bins);
  const vx_size dims[3] = {(input->width - static_cast<vx_uint32>(p.window_width)) / static_cast<vx_uint32>(p.window_stride) + 1,
                           (input->height - static_cast<vx_uint32>(p.window_height)) / static_cast<vx_uint32>(p.window_stride) + 1, per_window};
  if (const vx_status s = output_tensor(node, parameters, 4, "features", 3, dims, VX_TYPE_INT16, 8, metas[4]); s != VX_SUCCESS) return s;
  // Room for the cells' tensors in case they are not dense, and for the features when the given tensor is
  // not (a virtual one is made dense).
  vx_size bounce = cells_x * cells_y * (1 + static_cast<vx_size>(p.num_bins));
  const auto* features = as<_vx_tensor_t>(parameters[4]);
  if (!features->is_virtual && features->number_of_dims == 3 && !dense_int16(features)) bounce += element_count(features);
  as<_vx_node>(node)->local_data_size =
      hog_local_bytes(vision::hog_features_scratch_size(static_cast<std::uint32_t>(cells_x), static_cast<std::uint32_t>(cells_y),
                                                        hog_features_options(p)),
                      bounce);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK hog_features_function(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  vx_hog_t p{};
  if (!scalar_value(parameters, 3, VX_TYPE_HOG_PARAMS, p)) return VX_ERROR_INVALID_PARAMETERS;
  const _vx_tensor_t* mags = parameters[1] != nullptr ? tensor_at(parameters, 1) : nullptr;
  const _vx_tensor_t* bins = tensor_at(parameters, 2);
  const _vx_tensor_t* features = tensor_at(parameters, 4);
  if (mags == nullptr || bins == nullptr || features == nullptr) return VX_ERROR_INVALID_PARAMETERS;  // magnitudes needed for the norm
  for (const _vx_tensor_t* t : {mags, bins, features})
    if (!t->memory || t->memory->base == nullptr) return VX_ERROR_NO_MEMORY;
  const MappedImage in(image_at(parameters, 0), VX_READ_ONLY);
  if (in.status() != VX_SUCCESS) return in.status();
  if (p.cell_width < 1 || p.cell_height < 1) return VX_ERROR_INVALID_PARAMETERS;
  const vx_size n_cellsx = in.width() / static_cast<vx_uint32>(p.cell_width);
  // The cells' tensors must be HOGCells' shapes for these parameters: every read stays inside them.
  if (mags->number_of_dims != 2 || bins->number_of_dims != 3 || features->number_of_dims != 3 || bins->dims[0] != mags->dims[0] ||
      bins->dims[1] != mags->dims[1] || bins->dims[2] != static_cast<vx_size>(p.num_bins) || mags->dims[0] != n_cellsx) {
    return VX_ERROR_INVALID_DIMENSION;
  }
  const vision::HogFeaturesOptions options = hog_features_options(p);
  const auto cells_x = static_cast<std::uint32_t>(mags->dims[0]), cells_y = static_cast<std::uint32_t>(mags->dims[1]);
  const HogMemory memory = hog_memory(node, vision::hog_features_scratch_size(cells_x, cells_y, options));
  const vx_size cell_count = mags->dims[0] * mags->dims[1];
  const vx_size mags_bounce = dense_int16(mags) ? 0 : cell_count, bins_bounce = dense_int16(bins) ? 0 : element_count(bins);
  const vx_size features_bounce = dense_int16(features) ? 0 : element_count(features);
  if (memory.scratch.empty() || memory.bounce_values < mags_bounce + bins_bounce + features_bounce) return VX_ERROR_NO_MEMORY;
  const vx_int16* mag_values = flat_values(mags, memory.bounce, true);
  const vx_int16* bin_values = flat_values(bins, memory.bounce + mags_bounce, true);
  vx_int16* feature_values = flat_values(features, memory.bounce + mags_bounce + bins_bounce, features_bounce != 0);
  if (!vision::hog_features(mag_values, bin_values, cells_x, cells_y, options, static_cast<std::uint32_t>(features->dims[0]),
                            static_cast<std::uint32_t>(features->dims[1]), feature_values, element_count(features), memory.scratch)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  store_flat_values(features, feature_values);
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kTensorKernels[] = {
    {VX_KERNEL_TENSOR_ADD, &add_sub_function<false>, &add_sub_validate},
    {VX_KERNEL_TENSOR_SUBTRACT, &add_sub_function<true>, &add_sub_validate},
    {VX_KERNEL_TENSOR_MULTIPLY, &multiply_function, &multiply_validate},
    {VX_KERNEL_TENSOR_TABLE_LOOKUP, &table_lookup_function, &table_lookup_validate},
    {VX_KERNEL_TENSOR_TRANSPOSE, &transpose_function, &transpose_validate},
    {VX_KERNEL_TENSOR_CONVERT_DEPTH, &convert_depth_function, &convert_depth_validate},
    {VX_KERNEL_BILATERAL_FILTER, &bilateral_function, &bilateral_validate},
    {VX_KERNEL_TENSOR_MATRIX_MULTIPLY, &matrix_multiply_function, &matrix_multiply_validate},
    {VX_KERNEL_HOG_CELLS, &hog_cells_function, &hog_cells_validate},
    {VX_KERNEL_HOG_FEATURES, &hog_features_function, &hog_features_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> tensor_kernels() noexcept { return kTensorKernels; }

}  // namespace vg::openvx
