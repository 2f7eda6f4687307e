#pragma once
/// @file
/// @brief OpenVX's Add, Subtract and AbsDiff over U8 and S16 planes, and the bitwise Not, And, Or, Xor over
/// U8 planes, vectorised with Highway.
#include <cstdint>

#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// What a result outside the output type becomes: its low bits (wrap) or the nearest value (saturate).
enum class Overflow : std::uint8_t { wrap, saturate };

/// add: a + b; subtract: a - b; absdiff: |a - b| (always saturated: 65535 from S16 inputs becomes 32767).
enum class Arithmetic : std::uint8_t { add, subtract, absdiff };

/// @brief out = a op b, computed exactly and then brought to out's type by @p overflow, output rows @p rows
/// only. Types (OpenVX's): U8 x U8 -> U8 or S16; U8 x S16, S16 x U8, S16 x S16 -> S16. Returns false (and
/// writes nothing) for another combination. All three planes have one size.
bool arithmetic(Arithmetic op, ConstPixels a, ConstPixels b, Pixels out, Overflow overflow, Rows rows = {}) noexcept;

/// @brief OpenVX's Multiply: out = round(double(a * b) * scale), the product exact in int32 and multiplied by
/// @p scale in one double operation, rounded toward zero or to nearest even (@p nearest_even), then brought
/// to out's type by @p overflow (wrap keeps the low bits of the integer). Types as arithmetic(); @p scale
/// finite and not negative. Returns false (writing nothing) for another type combination.
bool multiply(ConstPixels a, ConstPixels b, Pixels out, double scale, Overflow overflow, bool nearest_even, Rows rows = {}) noexcept;

/// @brief OpenVX's Min and Max: out = min(a, b) (@p take_min) or max(a, b), all three U8 or all three S16.
/// Returns false (writing nothing) for another combination.
bool min_max(bool take_min, ConstPixels a, ConstPixels b, Pixels out, Rows rows = {}) noexcept;

enum class Bitwise : std::uint8_t { not_, and_, or_, xor_ };

/// @brief out = ~a, a & b, a | b or a ^ b (b unused by not_), output rows @p rows only.
void bitwise(Bitwise op, ConstPlane a, ConstPlane b, Plane out, Rows rows = {}) noexcept;

}  // namespace vg::vision
