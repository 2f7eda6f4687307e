// OpenVX's ScalarOperation (scalar_operation.hpp), moved here from libopenvx so the vg.vision kernel computes
// it with the same rules.
#include "visiongraph/kernels/vision/scalar_operation.hpp"

#include <cmath>

namespace vg::vision {

ScalarNumber ScalarNumber::real(double v) noexcept {
  return {true, std::isfinite(v) && std::fabs(v) < 9.2e18 ? static_cast<std::int64_t>(v) : 0, v};
}

bool scalar_operation(ScalarOp op, const ScalarNumber& a, const ScalarNumber& b, ScalarNumber& out) noexcept {
  const bool real = a.is_float || b.is_float;
  const auto boolean = [&](bool v) {
    out = ScalarNumber::integer(v ? 1 : 0);
    return true;
  };
  // Logical operations read booleans: a float is true when not 0.
  const bool ta = a.is_float ? a.f != 0.0 : a.i != 0, tb = b.is_float ? b.f != 0.0 : b.i != 0;
  switch (op) {
    case ScalarOp::logical_and: return boolean(ta && tb);
    case ScalarOp::logical_or: return boolean(ta || tb);
    case ScalarOp::logical_xor: return boolean(ta != tb);
    case ScalarOp::logical_nand: return boolean(!(ta && tb));
    case ScalarOp::equal: return boolean(real ? a.f == b.f : a.i == b.i);
    case ScalarOp::not_equal: return boolean(real ? a.f != b.f : a.i != b.i);
    case ScalarOp::less: return boolean(real ? a.f < b.f : a.i < b.i);
    case ScalarOp::less_equal: return boolean(real ? a.f <= b.f : a.i <= b.i);
    case ScalarOp::greater: return boolean(real ? a.f > b.f : a.i > b.i);
    case ScalarOp::greater_equal: return boolean(real ? a.f >= b.f : a.i >= b.i);
    default: break;
  }
  if (real) {
    double r = 0.0;
    switch (op) {
      case ScalarOp::add: r = a.f + b.f; break;
      case ScalarOp::subtract: r = a.f - b.f; break;
      case ScalarOp::multiply: r = a.f * b.f; break;
      case ScalarOp::divide:
        if (b.f == 0.0) return false;
        r = a.f / b.f;
        break;
      case ScalarOp::modulus:
        if (b.f == 0.0) return false;
        r = std::fmod(a.f, b.f);
        break;
      case ScalarOp::min: r = a.f < b.f ? a.f : b.f; break;
      default: r = a.f > b.f ? a.f : b.f; break;  // max
    }
    out = ScalarNumber::real(r);
    return true;
  }
  // Wrapping arithmetic in 64 bits (unsigned, so an overflow is defined); the output's type narrows it.
  const auto ua = static_cast<std::uint64_t>(a.i), ub = static_cast<std::uint64_t>(b.i);
  std::int64_t r = 0;
  switch (op) {
    case ScalarOp::add: r = static_cast<std::int64_t>(ua + ub); break;
    case ScalarOp::subtract: r = static_cast<std::int64_t>(ua - ub); break;
    case ScalarOp::multiply: r = static_cast<std::int64_t>(ua * ub); break;
    case ScalarOp::divide:
      if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return false;
      r = a.i / b.i;
      break;
    case ScalarOp::modulus:
      if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return false;
      r = a.i % b.i;
      break;
    case ScalarOp::min: r = a.i < b.i ? a.i : b.i; break;
    default: r = a.i > b.i ? a.i : b.i; break;  // max
  }
  out = ScalarNumber::integer(r);
  return true;
}

}  // namespace vg::vision
