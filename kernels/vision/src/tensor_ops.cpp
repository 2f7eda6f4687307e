// OpenVX's tensor kernels on strided fixed-point tensors (tensor_ops.hpp). Plain C++: the walk runs along
// dimension 0 in its innermost loop, and the element-wise kernels take a typed loop when that dimension is
// dense in all operands, which the compiler vectorises; the rest is one multiply or lookup per element.
#include "visiongraph/kernels/vision/tensor_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace vg::vision {
namespace {

template <typename T>
T load(const unsigned char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void store(unsigned char* p, T v) noexcept {
  std::memcpy(p, &v, sizeof v);
}

template <typename T>
T wrap_integer(std::int64_t v) noexcept {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(v)));
}

template <typename T>
T saturate_integer(std::int64_t v) noexcept {
  if (v < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
  if (v > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

template <typename T>
T convert_integer(std::int64_t v, Overflow overflow) noexcept {
  return overflow == Overflow::wrap ? wrap_integer<T>(v) : saturate_integer<T>(v);
}

/// An integral-valued double (already rounded) to T, wrapped or saturated; NaN and (wrapped) infinities give 0.
template <typename T>
T from_integral_double(double v, Overflow overflow) noexcept {
  if (std::isnan(v)) return 0;
  if (overflow == Overflow::wrap) return std::isinf(v) ? T{0} : wrap_integer<T>(static_cast<std::int64_t>(std::fmod(v, 65536.0)));
  if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

/// Calls row(pointers, steps, count) once per run along dimension 0 of @p shape, the K operands' pointers at
/// the run's first element; steps are their dimension-0 strides.
template <std::size_t K, typename Row>
void walk(const TensorShape& shape, const std::array<unsigned char*, K>& bases, const std::array<const std::ptrdiff_t*, K>& strides,
          Row row) noexcept {
  const std::uint32_t n = shape.rank;
  for (std::uint32_t d = 0; d < n; ++d)
    if (shape.dims[d] == 0) return;
  std::array<std::ptrdiff_t, K> steps{};
  for (std::size_t k = 0; k < K; ++k) steps[k] = strides[k][0];
  std::array<std::size_t, kMaxTensorRank> index{};
  for (;;) {
    std::array<unsigned char*, K> p = bases;
    for (std::size_t k = 0; k < K; ++k)
      for (std::uint32_t d = 1; d < n; ++d) p[k] += static_cast<std::ptrdiff_t>(index[d]) * strides[k][d];
    row(p, steps, shape.dims[0]);
    std::uint32_t d = 1;
    for (; d < n; ++d) {
      if (++index[d] < shape.dims[d]) break;
      index[d] = 0;
    }
    if (d >= n) return;
  }
}

bool valid_rank(const TensorShape& shape) noexcept { return shape.rank >= 1 && shape.rank <= kMaxTensorRank; }

unsigned char* bytes(const void* p) noexcept { return static_cast<unsigned char*>(const_cast<void*>(p)); }

/// out = op(a, b) element by element over T.
template <typename T, typename Op>
void elementwise(const TensorShape& shape, const ConstTensorRef& a, const ConstTensorRef& b, const TensorRef& out, Op op) noexcept {
  walk<3>(shape, {bytes(a.data), bytes(b.data), bytes(out.data)}, {a.strides.data(), b.strides.data(), out.strides.data()},
          [&](const std::array<unsigned char*, 3>& p, const std::array<std::ptrdiff_t, 3>& s, std::size_t count) {
            constexpr auto size = static_cast<std::ptrdiff_t>(sizeof(T));
            if (s[0] == size && s[1] == size && s[2] == size) {  // dense: a loop the compiler vectorises
              for (std::size_t i = 0; i < count; ++i)
                store<T>(p[2] + i * sizeof(T), op(load<T>(p[0] + i * sizeof(T)), load<T>(p[1] + i * sizeof(T))));
              return;
            }
            unsigned char *pa = p[0], *pb = p[1], *po = p[2];
            for (std::size_t i = 0; i < count; ++i, pa += s[0], pb += s[1], po += s[2]) store<T>(po, op(load<T>(pa), load<T>(pb)));
          });
}

/// Calls f(T{}) with T the C++ type of @p type.
template <typename F>
void with_type(TensorType type, F f) noexcept {
  switch (type) {
    case TensorType::u8: f(std::uint8_t{}); break;
    case TensorType::s8: f(std::int8_t{}); break;
    case TensorType::s16: f(std::int16_t{}); break;
  }
}

template <bool Subtract>
bool add_subtract(const TensorShape& shape, TensorType type, const ConstTensorRef& a, const ConstTensorRef& b, const TensorRef& out,
                  Overflow overflow) noexcept {
  if (!valid_rank(shape)) return false;
  with_type(type, [&](auto zero) {
    using T = decltype(zero);
    // In 32 bits (|x +- y| < 2^17): lanes the vectoriser keeps narrow.
    if (overflow == Overflow::wrap) {
      elementwise<T>(shape, a, b, out, [](T x, T y) { return static_cast<T>(Subtract ? std::int32_t{x} - y : std::int32_t{x} + y); });
    } else {
      elementwise<T>(shape, a, b, out, [](T x, T y) {
        const std::int32_t v = Subtract ? std::int32_t{x} - y : std::int32_t{x} + y;
        return static_cast<T>(std::clamp<std::int32_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
      });
    }
  });
  return true;
}

/// round(p * 2^-k) for k >= 1: toward zero, or to nearest with ties to even.
std::int64_t shift_round(std::int64_t p, int k, bool nearest_even) noexcept {
  if (k >= 62) return 0;  // |p| < 2^56: the value is below 1/2 in magnitude
  const std::int64_t unit = std::int64_t{1} << k;
  std::int64_t q = p >= 0 ? p >> k : -((-p) >> k);  // p / unit toward zero, without a 64-bit division per element
  if (nearest_even) {
    const std::int64_t r = p - q * unit;
    const std::int64_t twice = 2 * (r < 0 ? -r : r);
    if (twice > unit || (twice == unit && (q & 1) != 0)) q += p < 0 ? -1 : 1;
  }
  return q;
}

/// raw a * raw b * m * 2^-shift, rounded, then wrapped or saturated (exact: |product| < 2^55).
template <typename T>
T multiply_element(T a, T b, std::int64_t m, int shift, bool nearest_even, Overflow overflow) noexcept {
  const std::int64_t product = std::int64_t{a} * std::int64_t{b} * m;
  if (shift > 0) return convert_integer<T>(shift_round(product, shift, nearest_even), overflow);
  const int up = -shift;
  if (product == 0) return 0;
  if (overflow == Overflow::wrap) {
    return up >= 64 ? T{0} : wrap_integer<T>(static_cast<std::int64_t>(static_cast<std::uint64_t>(product) << up));
  }
  constexpr std::int64_t kLarge = std::int64_t{1} << 40;
  if (up >= 16 || product > kLarge || product < -kLarge) {  // |value| >= 2^16: beyond every output type
    return product < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
  }
  return saturate_integer<T>(product * (std::int64_t{1} << up));  // |product| <= 2^40, up < 16: fits
}

bool valid_position(int position) noexcept { return position >= 0 && position <= kMaxFixedPointPosition; }

}  // namespace

bool tensor_add(const TensorShape& shape, TensorType type, ConstTensorRef a, ConstTensorRef b, TensorRef out, Overflow overflow) noexcept {
  return add_subtract<false>(shape, type, a, b, out, overflow);
}

bool tensor_subtract(const TensorShape& shape, TensorType type, ConstTensorRef a, ConstTensorRef b, TensorRef out,
                     Overflow overflow) noexcept {
  return add_subtract<true>(shape, type, a, b, out, overflow);
}

bool tensor_multiply(const TensorShape& shape, TensorType type, int position, ConstTensorRef a, ConstTensorRef b, TensorRef out, float scale,
                     Overflow overflow, bool nearest_even) noexcept {
  if (!valid_rank(shape) || !valid_position(position) || !(scale >= 0.0f) || !std::isfinite(scale)) return false;
  // scale = m * 2^e exactly (m a signed integer of at most 24 bits).
  int exponent = 0;
  const float fraction = std::frexp(scale, &exponent);
  const auto m = static_cast<std::int64_t>(std::ldexp(fraction, 24));
  const int shift = position - (exponent - 24);  // value = product * 2^-shift
  with_type(type, [&](auto zero) {
    using T = decltype(zero);
    elementwise<T>(shape, a, b, out, [=](T x, T y) { return multiply_element<T>(x, y, m, shift, nearest_even, overflow); });
  });
  return true;
}

bool tensor_table_lookup(const TensorShape& shape, TensorType type, ConstTensorRef in, TensorRef out, const void* table, std::size_t count,
                         std::size_t offset) noexcept {
  if (!valid_rank(shape) || type == TensorType::s8) return false;
  const auto* entries = static_cast<const unsigned char*>(table);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    const auto size = static_cast<std::int64_t>(count);
    walk<2>(shape, {bytes(in.data), bytes(out.data)}, {in.strides.data(), out.strides.data()},
            [&](const std::array<unsigned char*, 2>& p, const std::array<std::ptrdiff_t, 2>& s, std::size_t n) {
              unsigned char *pi = p[0], *po = p[1];
              for (std::size_t i = 0; i < n; ++i, pi += s[0], po += s[1]) {
                const std::int64_t index = static_cast<std::int64_t>(offset) + load<T>(pi);
                if (index >= 0 && index < size) store<T>(po, load<T>(entries + index * static_cast<std::int64_t>(sizeof(T))));
              }
            });
  };
  if (type == TensorType::u8) {
    run(std::uint8_t{});
  } else {
    run(std::int16_t{});
  }
  return true;
}

bool tensor_transpose(const TensorShape& shape, TensorType type, ConstTensorRef in, TensorRef out, std::size_t dim1,
                      std::size_t dim2) noexcept {
  if (!valid_rank(shape) || dim1 >= shape.rank || dim2 >= shape.rank) return false;
  std::swap(in.strides[dim1], in.strides[dim2]);  // read in along out's dimensions
  const std::size_t size = tensor_element_size(type);
  walk<2>(shape, {bytes(in.data), bytes(out.data)}, {in.strides.data(), out.strides.data()},
          [size](const std::array<unsigned char*, 2>& p, const std::array<std::ptrdiff_t, 2>& s, std::size_t n) {
            unsigned char *pi = p[0], *po = p[1];
            for (std::size_t i = 0; i < n; ++i, pi += s[0], po += s[1]) std::memcpy(po, pi, size);
          });
  return true;
}

bool tensor_convert_depth(const TensorShape& shape, TensorType in_type, int in_position, ConstTensorRef in, TensorType out_type,
                          int out_position, TensorRef out, Overflow overflow, float norm, float offset) noexcept {
  if (!valid_rank(shape) || !valid_position(in_position) || !valid_position(out_position) || norm == 0.0f) return false;
  const float in_unit = 1.0f / static_cast<float>(1 << in_position);
  const float out_scale = static_cast<float>(1 << out_position);
  const float inverse_norm = 1.0f / norm;
  with_type(in_type, [&](auto in_zero) {
    with_type(out_type, [&](auto out_zero) {
      using In = decltype(in_zero);
      using Out = decltype(out_zero);
      walk<2>(shape, {bytes(in.data), bytes(out.data)}, {in.strides.data(), out.strides.data()},
              [&](const std::array<unsigned char*, 2>& p, const std::array<std::ptrdiff_t, 2>& s, std::size_t n) {
                unsigned char *pi = p[0], *po = p[1];
                for (std::size_t i = 0; i < n; ++i, pi += s[0], po += s[1]) {
                  // Single precision, one rounding per step: the file is built with -ffp-contract=off (no fused
                  // multiply-add) and every target evaluates float in float.
                  const float centred = static_cast<float>(load<In>(pi)) * in_unit - offset;
                  const float v = centred * inverse_norm * out_scale;
                  store<Out>(po, from_integral_double<Out>(std::trunc(static_cast<double>(v)), overflow));
                }
              });
    });
  });
  return true;
}

namespace {

template <typename T>
void matrix_multiply(int position, const ConstMatrixRef& a, const ConstMatrixRef& b, const ConstMatrixRef* c, const MatrixRef& out) noexcept {
  const auto* pa = static_cast<const unsigned char*>(a.data);
  const auto* pb = static_cast<const unsigned char*>(b.data);
  auto* po = static_cast<unsigned char*>(out.data);
  const std::int64_t half = position > 0 ? std::int64_t{1} << (position - 1) : 0;
  const std::int64_t unit = std::int64_t{1} << position;
  for (std::size_t y = 0; y < a.rows; ++y)
    for (std::size_t x = 0; x < b.columns; ++x) {
      std::int64_t sum = 0;
      const unsigned char* row = pa + static_cast<std::ptrdiff_t>(y) * a.row_stride;
      const unsigned char* column = pb + static_cast<std::ptrdiff_t>(x) * b.column_stride;
      for (std::size_t i = 0; i < a.columns; ++i)
        sum += std::int64_t{load<T>(row + static_cast<std::ptrdiff_t>(i) * a.column_stride)} *
               load<T>(column + static_cast<std::ptrdiff_t>(i) * b.row_stride);
      if (c != nullptr) {
        const auto* pc = static_cast<const unsigned char*>(c->data);
        sum += std::int64_t{load<T>(pc + static_cast<std::ptrdiff_t>(y) * c->row_stride + static_cast<std::ptrdiff_t>(x) * c->column_stride)} *
               unit;
      }
      if (position > 0) sum = (sum + half) / unit;  // C division truncates toward zero
      store<T>(po + static_cast<std::ptrdiff_t>(y) * out.row_stride + static_cast<std::ptrdiff_t>(x) * out.column_stride,
               saturate_integer<T>(sum));
    }
}

}  // namespace

bool tensor_matrix_multiply(TensorType type, int position, const ConstMatrixRef& a, const ConstMatrixRef& b, const ConstMatrixRef* c,
                            const MatrixRef& out) noexcept {
  if (!valid_position(position) || a.columns != b.rows || out.rows != a.rows || out.columns != b.columns) return false;
  if (c != nullptr && (c->rows != a.rows || c->columns != b.columns)) return false;
  with_type(type, [&](auto zero) { matrix_multiply<decltype(zero)>(position, a, b, c, out); });
  return true;
}

}  // namespace vg::vision
