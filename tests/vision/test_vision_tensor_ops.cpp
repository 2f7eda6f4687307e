// The vision library's tensor kernels (kernels/vision/tensor_ops.hpp) against references written here from
// OpenVX's definitions one element at a time: random tensors of 1..4 dimensions, laid out with padding, in
// shuffled dimension order and with reversed (negative) strides, U8, S8 and S16 at several fixed point
// positions, every overflow and rounding policy, broadcasting, the optional addend and the transposes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "visiongraph/kernels/vision/tensor_ops.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

std::mt19937& rng() {
  static std::mt19937 r(20261129);
  return r;
}
int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng()); }

using Index = std::array<std::size_t, kMaxTensorRank>;

/// A tensor in a buffer of random bytes: its dimensions laid out in a random order, each with random padding,
/// some read backwards. Elements are read and written as raw int64 values.
struct StridedTensor {
  StridedTensor(const TensorShape& s, TensorType t) : shape(s), type(t) {
    const std::size_t size = tensor_element_size(t);
    std::vector<std::uint32_t> order(s.rank);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng());
    std::ptrdiff_t step = static_cast<std::ptrdiff_t>(size) * uniform(1, 2);  // elements may be apart
    std::ptrdiff_t origin = 0;
    for (std::uint32_t d : order) {
      const auto n = static_cast<std::ptrdiff_t>(std::max<std::size_t>(s.dims[d], 1));
      const bool reversed = uniform(0, 3) == 0;
      strides[d] = reversed ? -step : step;
      if (reversed) origin += step * (n - 1);
      step *= n + uniform(0, 2);
    }
    bytes.resize(static_cast<std::size_t>(step) + 16);
    for (auto& b : bytes) b = static_cast<unsigned char>(uniform(0, 255));
    base = static_cast<std::ptrdiff_t>(8) + origin;
  }
  unsigned char* at(const Index& i) {
    std::ptrdiff_t offset = base;
    for (std::uint32_t d = 0; d < shape.rank; ++d) offset += static_cast<std::ptrdiff_t>(i[d]) * strides[d];
    return bytes.data() + offset;
  }
  std::int64_t get(const Index& i) {
    const unsigned char* p = at(i);
    switch (type) {
      case TensorType::u8: return *p;
      case TensorType::s8: return static_cast<std::int8_t>(*p);
      default: {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return v;
      }
    }
  }
  void set(const Index& i, std::int64_t v) {
    unsigned char* p = at(i);
    if (type == TensorType::s16) {
      const auto w = static_cast<std::int16_t>(v);
      std::memcpy(p, &w, 2);
    } else {
      *p = static_cast<unsigned char>(v);
    }
  }
  ConstTensorRef cref() { return {bytes.data() + base, strides}; }
  TensorRef ref() { return {bytes.data() + base, strides}; }

  TensorShape shape;
  TensorType type;
  std::array<std::ptrdiff_t, kMaxTensorRank> strides{};
  std::vector<unsigned char> bytes;
  std::ptrdiff_t base = 0;
};

template <class F>
void for_each_index(const TensorShape& s, F f) {
  std::size_t total = 1;
  for (std::uint32_t d = 0; d < s.rank; ++d) total *= s.dims[d];
  for (std::size_t n = 0; n < total; ++n) {
    Index i{};
    std::size_t rest = n;
    for (std::uint32_t d = 0; d < s.rank; ++d) {
      i[d] = rest % s.dims[d];
      rest /= s.dims[d];
    }
    f(i);
  }
}

std::int64_t lowest(TensorType t) { return t == TensorType::u8 ? 0 : t == TensorType::s8 ? -128 : -32768; }
std::int64_t highest(TensorType t) { return t == TensorType::u8 ? 255 : t == TensorType::s8 ? 127 : 32767; }

/// The value brought into the type: clamped, or its low 8 / 16 bits read in the type.
std::int64_t overflow_to(TensorType t, std::int64_t v, Overflow o) {
  if (o == Overflow::saturate) return std::clamp(v, lowest(t), highest(t));
  const std::int64_t bits = t == TensorType::s16 ? 65536 : 256;
  std::int64_t low = ((v % bits) + bits) % bits;
  if (t != TensorType::u8 && low > highest(t)) low -= bits;
  return low;
}

TensorShape random_shape() {
  TensorShape s;
  s.rank = static_cast<std::uint32_t>(uniform(1, 4));
  for (std::uint32_t d = 0; d < s.rank; ++d) s.dims[d] = static_cast<std::size_t>(uniform(1, s.rank == 1 ? 40 : 7));
  return s;
}

constexpr TensorType kTypes[] = {TensorType::u8, TensorType::s8, TensorType::s16};
constexpr Overflow kOverflows[] = {Overflow::wrap, Overflow::saturate};

void expect_same(StridedTensor& got, StridedTensor& want, const char* what) {
  ASSERT_EQ(got.bytes, want.bytes) << what << ": rank " << got.shape.rank;
}

TEST(VisionTensorOps, AddSubtractWithBroadcast) {
  for (int round = 0; round < 60; ++round)
    for (TensorType type : kTypes)
      for (Overflow o : kOverflows)
        for (bool subtract : {false, true}) {
          const TensorShape shape = random_shape();
          TensorShape sa = shape, sb = shape;
          for (std::uint32_t d = 0; d < shape.rank; ++d) {
            if (uniform(0, 3) == 0) sa.dims[d] = 1;
            else if (uniform(0, 3) == 0) sb.dims[d] = 1;
          }
          StridedTensor a(sa, type), b(sb, type), out(shape, type);
          StridedTensor want = out;
          for_each_index(shape, [&](const Index& i) {
            Index ia = i, ib = i;
            for (std::uint32_t d = 0; d < shape.rank; ++d) {
              if (sa.dims[d] == 1) ia[d] = 0;
              if (sb.dims[d] == 1) ib[d] = 0;
            }
            want.set(i, overflow_to(type, subtract ? a.get(ia) - b.get(ib) : a.get(ia) + b.get(ib), o));
          });
          ConstTensorRef ra = a.cref(), rb = b.cref();
          for (std::uint32_t d = 0; d < shape.rank; ++d) {  // broadcast dimensions repeat their one element
            if (sa.dims[d] == 1) ra.strides[d] = 0;
            if (sb.dims[d] == 1) rb.strides[d] = 0;
          }
          ASSERT_TRUE(subtract ? tensor_subtract(shape, type, ra, rb, out.ref(), o) : tensor_add(shape, type, ra, rb, out.ref(), o));
          expect_same(out, want, subtract ? "subtract" : "add");
        }
}

/// A float scale as k / 2^j exactly, k an integer (doubling is exact until the value is integral).
void as_dyadic(float scale, std::int64_t& k, int& j) {
  double v = scale;
  j = 0;
  while (v != std::floor(v)) {
    v *= 2;
    ++j;
  }
  k = static_cast<std::int64_t>(v);
}

/// raw a * raw b * scale / 2^position, rounded, from the definition (exact in integers).
std::int64_t multiply_reference(std::int64_t a, std::int64_t b, float scale, int position, bool nearest_even) {
  std::int64_t k = 0;
  int j = 0;
  as_dyadic(scale, k, j);
  const std::int64_t numerator = a * b * k;
  const int down = j + position;
  if (down == 0) return numerator;
  if (down >= 62) return 0;
  const std::int64_t denominator = std::int64_t{1} << down;
  std::int64_t q = numerator / denominator;
  const std::int64_t r = numerator % denominator;
  if (nearest_even) {
    const std::int64_t twice = 2 * std::abs(r);
    if (twice > denominator || (twice == denominator && q % 2 != 0)) q += numerator < 0 ? -1 : 1;
  }
  return q;
}

TEST(VisionTensorOps, MultiplyEveryPolicy) {
  const float scales[] = {1.0f, 0.5f, 1.0f / 255.0f, 1.0f / 3.0f, 0.0f, 2.0f, 37.25f, 1e-6f, 1000.0f, 0.00390625f};
  for (int round = 0; round < 30; ++round)
    for (TensorType type : kTypes)
      for (Overflow o : kOverflows)
        for (bool nearest_even : {false, true})
          for (float scale : scales) {
            const int position = type == TensorType::s16 ? (round % 3 == 0 ? 0 : round % 3 == 1 ? 8 : uniform(0, 15)) : (round % 4 == 3 ? 3 : 0);
            const TensorShape shape = random_shape();
            TensorShape sb = shape;
            if (uniform(0, 2) == 0) sb.dims[0] = 1;
            StridedTensor a(shape, type), b(sb, type), out(shape, type);
            StridedTensor want = out;
            for_each_index(shape, [&](const Index& i) {
              Index ib = i;
              if (sb.dims[0] == 1) ib[0] = 0;
              want.set(i, overflow_to(type, multiply_reference(a.get(i), b.get(ib), scale, position, nearest_even), o));
            });
            ConstTensorRef rb = b.cref();
            if (sb.dims[0] == 1) rb.strides[0] = 0;
            ASSERT_TRUE(tensor_multiply(shape, type, position, a.cref(), rb, out.ref(), scale, o, nearest_even));
            expect_same(out, want, "multiply");
          }
}

TEST(VisionTensorOps, MultiplyRefusesBadArguments) {
  TensorShape shape;
  shape.rank = 1;
  shape.dims[0] = 4;
  std::int16_t a[4] = {}, out[4] = {};
  const ConstTensorRef ra{a, {2}};
  const TensorRef ro{out, {2}};
  EXPECT_FALSE(tensor_multiply(shape, TensorType::s16, 8, ra, ra, ro, -1.0f, Overflow::wrap, false));
  EXPECT_FALSE(tensor_multiply(shape, TensorType::s16, 8, ra, ra, ro, std::numeric_limits<float>::infinity(), Overflow::wrap, false));
  EXPECT_FALSE(tensor_multiply(shape, TensorType::s16, 16, ra, ra, ro, 1.0f, Overflow::wrap, false));
  shape.rank = 0;
  EXPECT_FALSE(tensor_add(shape, TensorType::s16, ra, ra, ro, Overflow::wrap));
}

TEST(VisionTensorOps, TableLookup) {
  for (int round = 0; round < 80; ++round)
    for (TensorType type : {TensorType::u8, TensorType::s16}) {
      const TensorShape shape = random_shape();
      // A full table, or a short one (elements whose index falls outside keep their old value).
      const std::size_t count = type == TensorType::u8 ? (round % 2 ? 256 : 100) : (round % 2 ? 65536 : 300);
      const std::size_t offset = type == TensorType::u8 ? 0 : count / 2;
      std::vector<std::int16_t> table16(count);
      std::vector<std::uint8_t> table8(count);
      for (std::size_t i = 0; i < count; ++i) {
        table16[i] = static_cast<std::int16_t>(uniform(-32768, 32767));
        table8[i] = static_cast<std::uint8_t>(uniform(0, 255));
      }
      StridedTensor in(shape, type), out(shape, type);
      StridedTensor want = out;
      for_each_index(shape, [&](const Index& i) {
        const std::int64_t index = static_cast<std::int64_t>(offset) + in.get(i);
        if (index < 0 || index >= static_cast<std::int64_t>(count)) return;
        want.set(i, type == TensorType::u8 ? table8[static_cast<std::size_t>(index)] : table16[static_cast<std::size_t>(index)]);
      });
      const void* table = type == TensorType::u8 ? static_cast<const void*>(table8.data()) : table16.data();
      ASSERT_TRUE(tensor_table_lookup(shape, type, in.cref(), out.ref(), table, count, offset));
      expect_same(out, want, "table lookup");
    }
  TensorShape shape;
  shape.rank = 1;
  shape.dims[0] = 1;
  std::uint8_t v = 0, t = 0;
  EXPECT_FALSE(tensor_table_lookup(shape, TensorType::s8, {&v, {1}}, {&v, {1}}, &t, 1, 0));
}

TEST(VisionTensorOps, TransposeAnyTwoDimensions) {
  for (int round = 0; round < 100; ++round)
    for (TensorType type : kTypes) {
      const TensorShape in_shape = random_shape();
      const auto d1 = static_cast<std::size_t>(uniform(0, static_cast<int>(in_shape.rank) - 1));
      const auto d2 = static_cast<std::size_t>(uniform(0, static_cast<int>(in_shape.rank) - 1));
      TensorShape out_shape = in_shape;
      std::swap(out_shape.dims[d1], out_shape.dims[d2]);
      StridedTensor in(in_shape, type), out(out_shape, type);
      StridedTensor want = out;
      for_each_index(out_shape, [&](const Index& i) {
        Index from = i;
        std::swap(from[d1], from[d2]);
        want.set(i, in.get(from));
      });
      ASSERT_TRUE(tensor_transpose(out_shape, type, in.cref(), out.ref(), d1, d2));
      expect_same(out, want, "transpose");
    }
}

/// (in - offset) / norm from the definition, in single precision one step at a time as OpenVX's sample
/// implementation does: the real input, minus offset, times 1 / norm, times 2^position, truncated.
std::int64_t convert_reference(std::int64_t raw, int in_position, int out_position, float norm, float offset, TensorType out_type,
                               Overflow o) {
  const float real = static_cast<float>(raw) / static_cast<float>(1 << in_position);
  const float centred = real - offset;
  const float inverse = 1.0f / norm;
  const float normalised = centred * inverse;
  const float scaled = normalised * static_cast<float>(1 << out_position);
  const double truncated = std::trunc(static_cast<double>(scaled));
  if (std::isnan(truncated)) return 0;
  if (o == Overflow::saturate) {
    return static_cast<std::int64_t>(std::clamp(truncated, static_cast<double>(lowest(out_type)), static_cast<double>(highest(out_type))));
  }
  if (std::isinf(truncated)) return 0;
  return overflow_to(out_type, static_cast<std::int64_t>(std::fmod(truncated, 65536.0)), o);
}

TEST(VisionTensorOps, ConvertDepthEveryTypePair) {
  const std::pair<float, float> norm_offsets[] = {{1.0f, 0.0f}, {2.0f, 0.0f}, {0.5f, 10.0f}, {1.0f / 3.0f, -3.5f}, {-7.0f, 1.0f}, {0.001f, 0.0f}};
  for (int round = 0; round < 12; ++round)
    for (TensorType in_type : kTypes)
      for (TensorType out_type : kTypes)
        for (Overflow o : kOverflows)
          for (const auto& [norm, offset] : norm_offsets) {
            const int in_position = in_type == TensorType::s16 ? (round % 2 ? 8 : uniform(0, 15)) : 0;
            const int out_position = out_type == TensorType::s16 ? (round % 3 ? 8 : uniform(0, 15)) : 0;
            const TensorShape shape = random_shape();
            StridedTensor in(shape, in_type), out(shape, out_type);
            StridedTensor want = out;
            for_each_index(shape, [&](const Index& i) {
              want.set(i, convert_reference(in.get(i), in_position, out_position, norm, offset, out_type, o));
            });
            ASSERT_TRUE(tensor_convert_depth(shape, in_type, in_position, in.cref(), out_type, out_position, out.ref(), o, norm, offset));
            expect_same(out, want, "convert depth");
          }
}

TEST(VisionTensorOps, MatrixMultiplyWithTransposesAndAddend) {
  for (int round = 0; round < 40; ++round)
    for (TensorType type : kTypes)
      for (bool with_c : {false, true})
        for (int transposes = 0; transposes < 8; ++transposes) {
          const int position = type == TensorType::s16 ? (round % 2 ? 8 : uniform(0, 12)) : 0;
          const auto m = static_cast<std::size_t>(uniform(1, 9)), n = static_cast<std::size_t>(uniform(1, 9)),
                     k = static_cast<std::size_t>(uniform(1, 9));
          // Each operand stored as a 2-dimensional tensor [rows, columns], or as its transpose.
          auto stored = [&](std::size_t rows, std::size_t columns, bool transposed) {
            TensorShape s;
            s.rank = 2;
            s.dims = {transposed ? columns : rows, transposed ? rows : columns};
            return StridedTensor(s, type);
          };
          const bool ta = transposes & 1, tb = transposes & 2, tc = transposes & 4;
          StridedTensor a = stored(m, n, ta), b = stored(n, k, tb), c = stored(m, k, tc), out = stored(m, k, false);
          auto element = [](StridedTensor& t, bool transposed, std::size_t r, std::size_t col) {
            return t.get(transposed ? Index{col, r} : Index{r, col});
          };
          StridedTensor want = out;
          for (std::size_t y = 0; y < m; ++y)
            for (std::size_t x = 0; x < k; ++x) {
              std::int64_t sum = 0;
              for (std::size_t i = 0; i < n; ++i) sum += element(a, ta, y, i) * element(b, tb, i, x);
              if (with_c) sum += element(c, tc, y, x) * (std::int64_t{1} << position);
              if (position > 0) {  // half added, then divided by 2^position truncating toward zero (exact in double)
                const double half = std::ldexp(1.0, position - 1);
                sum = static_cast<std::int64_t>(std::trunc((static_cast<double>(sum) + half) / std::ldexp(1.0, position)));
              }
              want.set(Index{y, x}, std::clamp(sum, lowest(type), highest(type)));
            }
          auto matrix = [](StridedTensor& t, bool transposed) {
            const ConstMatrixRef r{t.bytes.data() + t.base, t.shape.dims[0], t.shape.dims[1], t.strides[0], t.strides[1]};
            return transposed ? r.transposed() : r;
          };
          const ConstMatrixRef vc = matrix(c, tc);
          const MatrixRef vo{out.bytes.data() + out.base, m, k, out.strides[0], out.strides[1]};
          ASSERT_TRUE(tensor_matrix_multiply(type, position, matrix(a, ta), matrix(b, tb), with_c ? &vc : nullptr, vo));
          expect_same(out, want, "matrix multiply");
        }
}

}  // namespace
