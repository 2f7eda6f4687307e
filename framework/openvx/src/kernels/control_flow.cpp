// The control-flow kernels of the enhanced vision set: Select and ScalarOperation (a function and a
// validate each; standard_kernel_support.hpp).
//
// Select: output = a copy of true_value when the BOOL condition is true, else of false_value; all three of
// one type and the same attributes (any type copy_object takes: images, scalars, arrays, tensors, LUTs,
// matrices, convolutions, distributions, remaps, thresholds, pyramids, object arrays, user data objects).
//
// ScalarOperation: output = a OP b, computed by the vision library (scalar_operation.hpp); here the scalars'
// types.
//   AND, OR, XOR, NAND   BOOL inputs and output.
//   EQUAL .. GREATEREQ   any two numeric inputs, a BOOL output.
//   ADD .. MAX           any two numeric inputs and a numeric output. When both inputs are integers the
//                        operation is done on integers (DIVIDE and MODULUS truncate; a zero divisor fails
//                        the node); when either is FLOAT32, in floating point. The result then converts to
//                        the output's type (to an integer by truncation), as the conformance suite expects
//                        (SIZE 7 / SIZE 2 into FLOAT32 gives 3; MIN of 0.5 and 1 into UINT32 gives 0).
// A virtual output of open type becomes BOOL for the logical and comparison operations, and for the
// arithmetic ones FLOAT32 when an input is FLOAT32, else a's type.
#include <VX/vx.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/standard_kernel_support.hpp"
#include "visiongraph/kernels/vision/scalar_operation.hpp"
#include "data_object.hpp"
#include "meta_format.hpp"
#include "scalar.hpp"

namespace vg::openvx {
namespace {

// --- Select -----------------------------------------------------------------------------------------------

vx_status VX_CALLBACK select_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  if (!valid_handle(parameters[0], VX_TYPE_SCALAR) || as<_vx_scalar>(parameters[0])->data_type != VX_TYPE_BOOL) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "condition must be a VX_TYPE_BOOL scalar");
  }
  const vx_reference t = lookup(parameters[1]), f = lookup(parameters[2]), out = lookup(parameters[3]);  // objects
  if (t == nullptr || f == nullptr || out == nullptr) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "true_value, false_value and output must all be given");
  if (t->type != f->type || t->type != out->type) {
    return refuse(node, VX_ERROR_INVALID_TYPE, "true_value (0x%x), false_value (0x%x) and output (0x%x) must be of one type",
                  static_cast<unsigned>(t->type), static_cast<unsigned>(f->type), static_cast<unsigned>(out->type));
  }
  if (!copy_supported(t->type)) return refuse(node, VX_ERROR_NOT_SUPPORTED, "objects of type 0x%x cannot be selected", static_cast<unsigned>(t->type));
  if (const vx_status s = meta_from_reference(as<_vx_meta_format>(metas[3]), t); s != VX_SUCCESS) {
    return refuse(node, s, "true_value's attributes cannot be read (are they settled?)");
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK select_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_bool condition = vx_false_e;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &condition, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  return copy_object(lookup(condition == vx_true_e ? parameters[1] : parameters[2]), lookup(parameters[3]));
}

// --- ScalarOperation ------------------------------------------------------------------------------------

bool is_integer(vx_enum t) noexcept {
  switch (t) {
    case VX_TYPE_INT8:
    case VX_TYPE_UINT8:
    case VX_TYPE_INT16:
    case VX_TYPE_UINT16:
    case VX_TYPE_INT32:
    case VX_TYPE_UINT32:
    case VX_TYPE_INT64:
    case VX_TYPE_UINT64:
    case VX_TYPE_SIZE: return true;
    default: return false;
  }
}
bool is_numeric(vx_enum t) noexcept { return is_integer(t) || t == VX_TYPE_FLOAT32 || t == VX_TYPE_FLOAT64; }
bool is_logical(vx_enum op) noexcept { return op >= VX_SCALAR_OP_AND && op <= VX_SCALAR_OP_NAND; }
bool is_comparison(vx_enum op) noexcept { return op >= VX_SCALAR_OP_EQUAL && op <= VX_SCALAR_OP_GREATEREQ; }
bool is_arithmetic(vx_enum op) noexcept { return op >= VX_SCALAR_OP_ADD && op <= VX_SCALAR_OP_MAX; }
static_assert(VX_SCALAR_OP_MAX - VX_SCALAR_OP_AND + 1 == vision::kScalarOpCount &&
                  VX_SCALAR_OP_ADD - VX_SCALAR_OP_AND == static_cast<int>(vision::ScalarOp::add),
              "VX_SCALAR_OP_* follow vision::ScalarOp's order");

using Number = vision::ScalarNumber;  // a scalar's value as an integer and as a floating-point number

Number read_number(vx_reference scalar) noexcept {
  Number n;
  const auto* s = as<_vx_scalar>(scalar);
  vx_uint8 p[16] = {};
  if (s->bytes.size() > sizeof p ||
      vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), p, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) {
    return n;
  }
  auto as_int = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    n.i = static_cast<std::int64_t>(v);
    n.f = static_cast<double>(v);
  };
  switch (s->data_type) {
    case VX_TYPE_INT8: as_int(vx_int8{}); break;
    case VX_TYPE_UINT8: as_int(vx_uint8{}); break;
    case VX_TYPE_INT16: as_int(vx_int16{}); break;
    case VX_TYPE_UINT16: as_int(vx_uint16{}); break;
    case VX_TYPE_INT32: as_int(vx_int32{}); break;
    case VX_TYPE_UINT32: as_int(vx_uint32{}); break;
    case VX_TYPE_INT64: as_int(vx_int64{}); break;
    case VX_TYPE_UINT64: as_int(vx_uint64{}); break;
    case VX_TYPE_SIZE: as_int(vx_size{}); break;
    case VX_TYPE_BOOL: as_int(vx_bool{}); break;
    case VX_TYPE_FLOAT32: {
      vx_float32 v;
      std::memcpy(&v, p, sizeof v);
      n.is_float = true;
      n.f = v;
      break;
    }
    case VX_TYPE_FLOAT64: {
      vx_float64 v;
      std::memcpy(&v, p, sizeof v);
      n.is_float = true;
      n.f = v;
      break;
    }
    default: break;
  }
  if (n.is_float) n.i = std::isfinite(n.f) && std::fabs(n.f) < 9.2e18 ? static_cast<std::int64_t>(n.f) : 0;
  return n;
}

/// Writes @p n into @p out in out's type (an integer type takes the integer, truncated from a float).
vx_status write_number(vx_reference scalar, const Number& n) noexcept {
  const auto* out = as<_vx_scalar>(scalar);
  auto put = [&](auto v) -> vx_status {
    if (out->bytes.size() != sizeof v) return VX_ERROR_INVALID_TYPE;
    return vxCopyScalar(reinterpret_cast<vx_scalar>(scalar), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  };
  const std::int64_t i = n.is_float ? (std::isfinite(n.f) && std::fabs(n.f) < 9.2e18 ? static_cast<std::int64_t>(n.f) : 0) : n.i;
  switch (out->data_type) {
    case VX_TYPE_INT8: return put(static_cast<vx_int8>(i));
    case VX_TYPE_UINT8: return put(static_cast<vx_uint8>(i));
    case VX_TYPE_INT16: return put(static_cast<vx_int16>(i));
    case VX_TYPE_UINT16: return put(static_cast<vx_uint16>(i));
    case VX_TYPE_INT32: return put(static_cast<vx_int32>(i));
    case VX_TYPE_UINT32: return put(static_cast<vx_uint32>(i));
    case VX_TYPE_INT64: return put(static_cast<vx_int64>(i));
    case VX_TYPE_UINT64: return put(static_cast<vx_uint64>(i));
    case VX_TYPE_SIZE: return put(static_cast<vx_size>(i));
    case VX_TYPE_FLOAT32: return put(static_cast<vx_float32>(n.is_float ? n.f : static_cast<double>(n.i)));
    case VX_TYPE_FLOAT64: return put(static_cast<vx_float64>(n.is_float ? n.f : static_cast<double>(n.i)));
    case VX_TYPE_BOOL: return put(static_cast<vx_bool>((n.is_float ? n.f != 0.0 : n.i != 0) ? vx_true_e : vx_false_e));
    default: return VX_ERROR_INVALID_TYPE;
  }
}

vx_status VX_CALLBACK scalar_operation_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  vx_enum op = 0;
  bool known = false;
  if (const vx_status s = scalar_input(node, parameters, 0, "scalar_operation", VX_TYPE_ENUM, "VX_TYPE_ENUM", op, known); s != VX_SUCCESS) {
    return s;
  }
  if (!known) op = VX_SCALAR_OP_ADD;  // a virtual operation: checked when the node runs
  if (!is_logical(op) && !is_comparison(op) && !is_arithmetic(op)) {
    return refuse(node, VX_ERROR_INVALID_PARAMETERS, "scalar_operation 0x%x is not a VX_SCALAR_OP_*", static_cast<unsigned>(op));
  }
  for (vx_uint32 i = 1; i <= 3; ++i) {
    if (!valid_handle(parameters[i], VX_TYPE_SCALAR)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "parameter %u is not a scalar", i);
  }
  const vx_enum a = as<_vx_scalar>(parameters[1])->data_type, b = as<_vx_scalar>(parameters[2])->data_type;
  const auto* out = as<_vx_scalar>(parameters[3]);
  const bool open = out->is_virtual && out->data_type == VX_TYPE_INVALID;
  vx_enum result = out->data_type;
  if (is_logical(op)) {
    if (a != VX_TYPE_BOOL || b != VX_TYPE_BOOL) return refuse(node, VX_ERROR_INVALID_TYPE, "a logical operation takes VX_TYPE_BOOL a and b");
    if (open) result = VX_TYPE_BOOL;
    if (result != VX_TYPE_BOOL) return refuse(node, VX_ERROR_INVALID_TYPE, "a logical operation writes a VX_TYPE_BOOL output");
  } else {
    if (!is_numeric(a) || !is_numeric(b)) {
      return refuse(node, VX_ERROR_INVALID_TYPE, "a (0x%x) and b (0x%x) must be numeric scalars", static_cast<unsigned>(a), static_cast<unsigned>(b));
    }
    if (open) result = is_comparison(op) ? VX_TYPE_BOOL : (a == VX_TYPE_FLOAT32 || b == VX_TYPE_FLOAT32) ? VX_TYPE_FLOAT32 : a;
    if (is_comparison(op) && result != VX_TYPE_BOOL) return refuse(node, VX_ERROR_INVALID_TYPE, "a comparison writes a VX_TYPE_BOOL output");
    if (is_arithmetic(op) && !is_numeric(result)) return refuse(node, VX_ERROR_INVALID_TYPE, "an arithmetic operation writes a numeric output");
  }
  as<_vx_meta_format>(metas[3])->scalar_type = result;
  return VX_SUCCESS;
}

vx_status VX_CALLBACK scalar_operation_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum op = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &op, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) {
    return s;
  }
  for (vx_uint32 i = 1; i <= 3; ++i)
    if (!valid_handle(parameters[i], VX_TYPE_SCALAR)) return VX_ERROR_INVALID_REFERENCE;
  if (op < VX_SCALAR_OP_AND || op >= VX_SCALAR_OP_AND + vision::kScalarOpCount) return VX_ERROR_INVALID_PARAMETERS;
  const Number a = read_number(parameters[1]), b = read_number(parameters[2]);
  Number r;
  // The vision library's definition (scalar_operation.hpp); VX_SCALAR_OP_* are in its order.
  if (!vision::scalar_operation(static_cast<vision::ScalarOp>(op - VX_SCALAR_OP_AND), a, b, r)) return VX_FAILURE;  // a zero divisor
  return write_number(parameters[3], r);
}

constexpr StandardKernelFunctions kControlFlowKernels[] = {
    {VX_KERNEL_SELECT, &select_function, &select_validate},
    {VX_KERNEL_SCALAR_OPERATION, &scalar_operation_function, &scalar_operation_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> control_flow_kernels() noexcept { return kControlFlowKernels; }

}  // namespace vg::openvx
