#pragma once
/// @file
/// @brief OpenVX's tensor kernels on fixed-point tensors: TensorAdd, TensorSubtract, TensorMultiply,
/// TensorTableLookup, TensorTranspose, TensorConvertDepth and TensorMatrixMultiply.
///
/// A tensor is raw element memory with a byte stride per dimension: element (i_0, ..., i_{rank-1}) is at
/// data + sum(i_d * strides[d]). Strides may be of any sign and need not be dense (views of larger tensors,
/// tensors from handles); a stride of 0 repeats one element along that dimension (the element-wise kernels'
/// broadcast). Which dimension is "innermost" does not matter to the element-wise functions. An element's
/// value is raw * 2^-position, position being OpenVX's fixed point position (8 for its Q7.8 INT16 tensors,
/// 0 for integers). No function allocates; all are noexcept.
#include <array>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/arithmetic.hpp"

namespace vg::vision {

/// The element types OpenVX's tensor kernels take: VX_TYPE_UINT8, VX_TYPE_INT8 and VX_TYPE_INT16.
enum class TensorType : std::uint8_t { u8, s8, s16 };

constexpr std::size_t tensor_element_size(TensorType type) noexcept { return type == TensorType::s16 ? 2 : 1; }

/// OpenVX's VX_CONTEXT_MAX_TENSOR_DIMS.
inline constexpr std::size_t kMaxTensorRank = 6;

/// The fixed point positions the functions take (2^-position must be exact in single precision and the
/// raw values' products must stay within 64 bits).
inline constexpr int kMaxFixedPointPosition = 15;

/// The dimensions of a walk (the output's): rank 1..kMaxTensorRank, any dimension may be 0 (nothing to do).
struct TensorShape {
  std::uint32_t rank = 0;
  std::array<std::size_t, kMaxTensorRank> dims{};
};

struct ConstTensorRef {
  const void* data = nullptr;
  std::array<std::ptrdiff_t, kMaxTensorRank> strides{};  ///< bytes, one per dimension of the shape
};

struct TensorRef {
  void* data = nullptr;
  std::array<std::ptrdiff_t, kMaxTensorRank> strides{};
};

/// @brief out = a + b (tensor_add) or a - b (tensor_subtract) on the raw values of one type (a, b and out
/// share the type and fixed point position), computed exactly and then wrapped (the low bits of the two's
/// complement) or saturated. @p shape is out's; a and b broadcast with stride 0. False (nothing written) for
/// a rank outside 1..kMaxTensorRank.
bool tensor_add(const TensorShape& shape, TensorType type, ConstTensorRef a, ConstTensorRef b, TensorRef out, Overflow overflow) noexcept;
bool tensor_subtract(const TensorShape& shape, TensorType type, ConstTensorRef a, ConstTensorRef b, TensorRef out,
                     Overflow overflow) noexcept;

/// @brief TensorMultiply: out = a * b * scale in real values, all three tensors of @p type at fixed point
/// @p position: raw out = round(raw a * raw b * scale * 2^-position), computed exactly (scale is m * 2^e
/// with a 24-bit m), rounded toward zero or to nearest with ties to even (@p nearest_even), then wrapped or
/// saturated. False (nothing written) when @p scale is negative, NaN or infinite, or position is outside
/// 0..kMaxFixedPointPosition.
bool tensor_multiply(const TensorShape& shape, TensorType type, int position, ConstTensorRef a, ConstTensorRef b, TensorRef out, float scale,
                     Overflow overflow, bool nearest_even) noexcept;

/// @brief TensorTableLookup: out = table[offset + in] on raw values, @p type u8 or s16 (the table's type
/// too, @p count entries). OpenVX's offset is 0 for u8 and count / 2 for s16 (VX_LUT_OFFSET). An element
/// whose index falls outside the table leaves its output element as it was. False for type s8.
bool tensor_table_lookup(const TensorShape& shape, TensorType type, ConstTensorRef in, TensorRef out, const void* table, std::size_t count,
                         std::size_t offset) noexcept;

/// @brief TensorTranspose: out's element at index i is in's element at i with dimensions @p dim1 and @p dim2
/// swapped. @p shape is out's (in's with those two dimensions swapped); @p in's strides are in's own, in
/// its own dimension order. False when a dimension is outside the rank.
bool tensor_transpose(const TensorShape& shape, TensorType type, ConstTensorRef in, TensorRef out, std::size_t dim1,
                      std::size_t dim2) noexcept;

/// @brief TensorConvertDepth: out = (in - offset) / norm in real values, computed in single precision as
/// (in - offset) * (1 / norm), each step rounded to float, brought to out's fixed point position, truncated
/// toward zero and then wrapped (modulo 2^16, then the low bits) or saturated; NaN gives 0. False when @p
/// norm is 0 or a position is outside 0..kMaxFixedPointPosition.
bool tensor_convert_depth(const TensorShape& shape, TensorType in_type, int in_position, ConstTensorRef in, TensorType out_type,
                          int out_position, TensorRef out, Overflow overflow, float norm, float offset) noexcept;

/// One operand of tensor_matrix_multiply: element (row, column) at data + row * row_stride + column *
/// column_stride (bytes).
struct ConstMatrixRef {
  const void* data = nullptr;
  std::size_t rows = 0, columns = 0;
  std::ptrdiff_t row_stride = 0, column_stride = 0;
  /// The same memory read as its transpose.
  constexpr ConstMatrixRef transposed() const noexcept { return {data, columns, rows, column_stride, row_stride}; }
};

struct MatrixRef {
  void* data = nullptr;
  std::size_t rows = 0, columns = 0;
  std::ptrdiff_t row_stride = 0, column_stride = 0;
};

/// @brief TensorMatrixMultiply: out = a x b (+ c), a M x N, b N x K, c (optional, null) and out M x K, all of
/// @p type at fixed point @p position. The products are summed exactly with c's element scaled by
/// 2^position, then (position > 0) brought back to the position by (sum + 2^(position-1)) / 2^position with
/// the division truncating toward zero (what OpenVX's reference computes), and saturated. False (nothing
/// written) when the shapes do not chain or position is outside 0..kMaxFixedPointPosition.
bool tensor_matrix_multiply(TensorType type, int position, const ConstMatrixRef& a, const ConstMatrixRef& b, const ConstMatrixRef* c,
                            const MatrixRef& out) noexcept;

}  // namespace vg::vision
