#pragma once
/// @file
/// @brief OpenVX's ScalarOperation: one logical, comparison or arithmetic operation on two numbers, with the
/// definition's integer and floating-point rules (libopenvx's and the vg.vision kernel's one implementation).
#include <cstdint>

namespace vg::vision {

/// @brief The operations, in VX_SCALAR_OP_*'s order (AND is the first).
enum class ScalarOp : std::uint8_t {
  logical_and, logical_or, logical_xor, logical_nand,
  equal, not_equal, less, less_equal, greater, greater_equal,
  add, subtract, multiply, divide, modulus, min, max,
};
inline constexpr int kScalarOpCount = 17;

constexpr bool is_logical(ScalarOp op) noexcept { return op <= ScalarOp::logical_nand; }
constexpr bool is_comparison(ScalarOp op) noexcept { return op >= ScalarOp::equal && op <= ScalarOp::greater_equal; }
constexpr bool is_arithmetic(ScalarOp op) noexcept { return op >= ScalarOp::add; }

/// @brief A scalar's value: an integer (any integer type, booleans as 0 / 1), or a floating-point number
/// (`i` then holds it truncated, 0 when it does not fit).
struct ScalarNumber {
  bool is_float = false;
  std::int64_t i = 0;
  double f = 0.0;
  static ScalarNumber integer(std::int64_t v) noexcept { return {false, v, static_cast<double>(v)}; }
  static ScalarNumber real(double v) noexcept;
};

/// @brief out = a OP b. Logical operations take a and b as booleans (non-zero is true); comparisons and
/// arithmetic are done on integers when both are integers (wrapping in 64 bits; DIVIDE and MODULUS truncate)
/// and in double otherwise. Logical and comparison results are the integers 0 and 1. Returns false for a
/// zero divisor (and INT64_MIN / -1).
bool scalar_operation(ScalarOp op, const ScalarNumber& a, const ScalarNumber& b, ScalarNumber& out) noexcept;

}  // namespace vg::vision
