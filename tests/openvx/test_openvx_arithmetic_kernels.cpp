// The arithmetic standard kernels: results exact to the specification, formats refused with a reason, in
// graphs and in immediate mode.
//
// Xor, AbsDiff, Subtract, Min, Max and Multiply against hand-written reference loops (random images of odd
// sizes with the overflow edges in their first rows, every format combination and policy), Multiply over
// every U8 x U8 pair for several scales with an exact integer reference, a chain over virtual images of
// open format, immediate mode, images from handles with gaps, and the refusals of vxVerifyGraph.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::expect_pixels_eq;
using vg_openvx_test::format_of;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::run_node;
using vg_openvx_test::status_of;
using vg_openvx_test::write_pixels;

using U8 = Pixels<vx_uint8>;
using S16 = Pixels<vx_int16>;

template <typename T>
const char* name_of() {
  return sizeof(T) == 1 ? "U8" : "S16";
}

/// Random pixels; the first row starts with the type's edges (so that every kernel meets them paired with
/// the other operand's edges, which operand() puts in another order).
template <typename T>
Pixels<T> operand(vx_uint32 width, vx_uint32 height, std::mt19937& rng, bool first) {
  Pixels<T> p{width, height, std::vector<T>(static_cast<std::size_t>(width) * height)};
  std::uniform_int_distribution<int> dist(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  for (T& v : p.values) v = static_cast<T>(dist(rng));
  const T low = std::numeric_limits<T>::min(), high = std::numeric_limits<T>::max();
  const T a[] = {high, high, low, low, high, static_cast<T>(low + 1), static_cast<T>(high - 1), 0, 1, 0, 3, 5};
  const T b[] = {high, low, low, high, 1, static_cast<T>(low + 1), 1, 0, 0, high, 1, 1};
  for (vx_uint32 i = 0; i < std::size(a) && i < width; ++i) p.at(i, 0) = first ? a[i] : b[i];
  if constexpr (std::is_signed_v<T>) {
    const T more_a[] = {-1, low, -3, -5, 1};
    const T more_b[] = {low, -1, 1, 1, low};
    for (vx_uint32 i = 0; i < std::size(more_a) && std::size(a) + i < width; ++i) {
      p.at(static_cast<vx_uint32>(std::size(a)) + i, 0) = first ? more_a[i] : more_b[i];
    }
  }
  return p;
}

struct Size {
  vx_uint32 width, height;
};
constexpr Size kSizes[] = {{37, 13}, {1, 1}, {17, 5}, {45, 2}, {131, 7}};

std::string size_name(const Size& s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// --- reference arithmetic: exact integers, then the output type -----------------------------------------

/// @p v brought into Out: clamped (SATURATE) or taken modulo 2^bits into Out's range (WRAP).
template <typename Out>
Out to_output(std::int64_t v, bool saturate) {
  const std::int64_t low = std::numeric_limits<Out>::min(), high = std::numeric_limits<Out>::max();
  if (saturate) return static_cast<Out>(v < low ? low : v > high ? high : v);
  const std::int64_t span = high - low + 1;
  return static_cast<Out>(((v - low) % span + span) % span + low);
}

template <typename Out, typename A, typename B, typename Op>
Pixels<Out> reference(const Pixels<A>& a, const Pixels<B>& b, Op op) {
  Pixels<Out> out{a.width, a.height, std::vector<Out>(a.values.size())};
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] = op(std::int64_t{a.values[i]}, std::int64_t{b.values[i]});
  return out;
}

/// Exact in1 * in2 * scale rounded by @p policy, for a float scale = m * 2^-k (m an integer of 24 bits):
/// the quotient of the integer p * m by 2^k, truncated or rounded to nearest even in integers. Valid while
/// |p * m| < 2^63 and k >= 1.
std::int64_t exact_scaled(std::int64_t p, vx_float32 scale, vx_enum rounding) {
  int exponent = 0;
  const double fraction = std::frexp(static_cast<double>(scale), &exponent);  // scale = fraction * 2^exponent
  const std::int64_t m = static_cast<std::int64_t>(std::ldexp(fraction, 24));
  const int k = 24 - exponent;
  EXPECT_GE(k, 1);
  const std::int64_t n = p * m;
  const std::int64_t magnitude = n < 0 ? -n : n;
  std::int64_t q = magnitude >> k;
  const std::int64_t r = magnitude & ((std::int64_t{1} << k) - 1), half = std::int64_t{1} << (k - 1);
  if (rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN && (r > half || (r == half && (q & 1) != 0))) ++q;
  return n < 0 ? -q : q;
}

/// The specification's reference formula, literally: (double)(int32 product) * (double)scale, rounded.
std::int64_t double_scaled(std::int64_t p, vx_float32 scale, vx_enum rounding) {
  const double v = static_cast<double>(static_cast<std::int32_t>(p)) * static_cast<double>(scale);
  if (rounding == VX_ROUND_POLICY_TO_ZERO) return static_cast<std::int64_t>(std::trunc(v));
  const double down = std::floor(v), diff = v - down;
  std::int64_t r = static_cast<std::int64_t>(down);
  if (diff > 0.5 || (diff == 0.5 && (r % 2) != 0)) ++r;
  return r;
}

/// The reference of one Multiply pixel: exact integers where the double formula is exact (|p * m| < 2^53,
/// every U8 x U8 and U8 x S16 product, and power-of-two scales), the double formula beyond.
std::int64_t reference_multiply(std::int64_t p, vx_float32 scale, vx_enum rounding) {
  int exponent = 0;
  const double fraction = std::frexp(static_cast<double>(scale), &exponent);
  const std::int64_t m = static_cast<std::int64_t>(std::ldexp(fraction, 24));
  const std::int64_t magnitude = (p < 0 ? -p : p) * m;
  const bool power_of_two = m == (std::int64_t{1} << 23);
  if (scale == 0.0f) return 0;
  if (magnitude < (std::int64_t{1} << 53) || power_of_two) {
    const std::int64_t e = exact_scaled(p, scale, rounding);
    EXPECT_EQ(e, double_scaled(p, scale, rounding)) << "the double formula is exact here: p=" << p << " scale=" << scale;
    return e;
  }
  return double_scaled(p, scale, rounding);
}

// --- Xor ----------------------------------------------------------------------------------------------------

TEST_F(OpenVx, XorMatchesTheReferenceInGraphsAndImmediateMode) {
  std::mt19937 rng(1);
  for (const Size& size : kSizes) {
    const U8 a = operand<vx_uint8>(size.width, size.height, rng, true);
    const U8 b = operand<vx_uint8>(size.width, size.height, rng, false);
    vx_image ia = image_of(context_, a), ib = image_of(context_, b);
    vx_image out = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
    const U8 want = reference<vx_uint8>(a, b, [](std::int64_t x, std::int64_t y) { return static_cast<vx_uint8>(x ^ y); });
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxXorNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), want, "Xor " + size_name(size));
    write_pixels(out, U8{size.width, size.height, std::vector<vx_uint8>(a.values.size(), 0)});
    ASSERT_EQ(vxuXor(context_, ia, ib, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), want, "vxuXor " + size_name(size));
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

// --- AbsDiff ------------------------------------------------------------------------------------------------

template <typename A, typename B, typename Out>
void check_absdiff(vx_context context, std::mt19937& rng) {
  for (const Size& size : kSizes) {
    const Pixels<A> a = operand<A>(size.width, size.height, rng, true);
    const Pixels<B> b = operand<B>(size.width, size.height, rng, false);
    vx_image ia = image_of(context, a), ib = image_of(context, b);
    vx_image out = vxCreateImage(context, size.width, size.height, format_of<Out>());
    // |in1 - in2| in exact integers, saturated to the output (32767 for S16).
    const Pixels<Out> want = reference<Out>(a, b, [](std::int64_t x, std::int64_t y) { return to_output<Out>(std::llabs(x - y), true); });
    const std::string what = std::string("AbsDiff ") + name_of<A>() + "," + name_of<B>() + "->" + name_of<Out>() + " " + size_name(size);
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxAbsDiffNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<Out>(out), want, what);
    write_pixels(out, Pixels<Out>{size.width, size.height, std::vector<Out>(a.values.size(), 7)});
    ASSERT_EQ(vxuAbsDiff(context, ia, ib, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<Out>(out), want, "vxu" + what);
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, AbsDiffMatchesTheReferenceForEveryFormat) {
  std::mt19937 rng(2);
  check_absdiff<vx_uint8, vx_uint8, vx_uint8>(context_, rng);
  check_absdiff<vx_uint8, vx_uint8, vx_int16>(context_, rng);
  check_absdiff<vx_uint8, vx_int16, vx_int16>(context_, rng);
  check_absdiff<vx_int16, vx_uint8, vx_int16>(context_, rng);
  check_absdiff<vx_int16, vx_int16, vx_int16>(context_, rng);
}

/// One pixel through vxuAbsDiff / vxuSubtract / vxuMultiply.
template <typename A, typename B, typename Out, typename Run>
Out one_pixel(vx_context context, A a, B b, Run run) {
  vx_image ia = image_of(context, Pixels<A>{1, 1, {a}});
  vx_image ib = image_of(context, Pixels<B>{1, 1, {b}});
  vx_image out = vxCreateImage(context, 1, 1, format_of<Out>());
  EXPECT_EQ(run(ia, ib, out), VX_SUCCESS);
  const Out result = read_pixels<Out>(out).values.at(0);
  for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  return result;
}

TEST_F(OpenVx, AbsDiffSaturatesS16DifferencesAt32767) {
  auto absdiff = [&](auto a, auto b, auto out) {
    return one_pixel<decltype(a), decltype(b), decltype(out)>(context_, a, b, [&](vx_image x, vx_image y, vx_image o) { return vxuAbsDiff(context_, x, y, o); });
  };
  EXPECT_EQ(absdiff(vx_int16{-32768}, vx_int16{32767}, vx_int16{}), 32767);
  EXPECT_EQ(absdiff(vx_int16{32767}, vx_int16{-32768}, vx_int16{}), 32767);
  EXPECT_EQ(absdiff(vx_int16{-32768}, vx_int16{0}, vx_int16{}), 32767);
  EXPECT_EQ(absdiff(vx_int16{-32767}, vx_int16{0}, vx_int16{}), 32767);
  EXPECT_EQ(absdiff(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}), 0);
  EXPECT_EQ(absdiff(vx_int16{-100}, vx_int16{100}, vx_int16{}), 200);
  EXPECT_EQ(absdiff(vx_int16{-32768}, vx_uint8{255}, vx_int16{}), 32767);
  EXPECT_EQ(absdiff(vx_uint8{0}, vx_int16{-32513}, vx_int16{}), 32513);
  EXPECT_EQ(absdiff(vx_uint8{0}, vx_uint8{255}, vx_uint8{}), 255);
  EXPECT_EQ(absdiff(vx_uint8{200}, vx_uint8{3}, vx_uint8{}), 197);
  EXPECT_EQ(absdiff(vx_uint8{3}, vx_uint8{200}, vx_int16{}), 197);
}

// --- Subtract -----------------------------------------------------------------------------------------------

template <typename A, typename B, typename Out>
void check_subtract(vx_context context, vx_enum policy, std::mt19937& rng) {
  const bool saturate = policy == VX_CONVERT_POLICY_SATURATE;
  for (const Size& size : kSizes) {
    const Pixels<A> a = operand<A>(size.width, size.height, rng, true);
    const Pixels<B> b = operand<B>(size.width, size.height, rng, false);
    vx_image ia = image_of(context, a), ib = image_of(context, b);
    vx_image out = vxCreateImage(context, size.width, size.height, format_of<Out>());
    const Pixels<Out> want = reference<Out>(a, b, [&](std::int64_t x, std::int64_t y) { return to_output<Out>(x - y, saturate); });
    const std::string what = std::string("Subtract ") + name_of<A>() + "-" + name_of<B>() + "->" + name_of<Out>() +
                             (saturate ? " saturate " : " wrap ") + size_name(size);
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxSubtractNode(g, ia, ib, policy, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<Out>(out), want, what);
    write_pixels(out, Pixels<Out>{size.width, size.height, std::vector<Out>(a.values.size(), 7)});
    ASSERT_EQ(vxuSubtract(context, ia, ib, policy, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<Out>(out), want, "vxu" + what);
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, SubtractMatchesTheReferenceForEveryFormatAndPolicy) {
  std::mt19937 rng(3);
  for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
    check_subtract<vx_uint8, vx_uint8, vx_uint8>(context_, policy, rng);
    check_subtract<vx_uint8, vx_uint8, vx_int16>(context_, policy, rng);
    check_subtract<vx_uint8, vx_int16, vx_int16>(context_, policy, rng);
    check_subtract<vx_int16, vx_uint8, vx_int16>(context_, policy, rng);
    check_subtract<vx_int16, vx_int16, vx_int16>(context_, policy, rng);
  }
}

TEST_F(OpenVx, SubtractOverflowEdgesGiveTheNumbersTheSpecificationImplies) {
  auto subtract = [&](auto a, auto b, auto out, vx_enum policy) {
    return one_pixel<decltype(a), decltype(b), decltype(out)>(
        context_, a, b, [&](vx_image x, vx_image y, vx_image o) { return vxuSubtract(context_, x, y, policy, o); });
  };
  constexpr vx_enum wrap = VX_CONVERT_POLICY_WRAP, saturate = VX_CONVERT_POLICY_SATURATE;
  EXPECT_EQ(subtract(vx_uint8{0}, vx_uint8{255}, vx_uint8{}, wrap), 1);
  EXPECT_EQ(subtract(vx_uint8{0}, vx_uint8{255}, vx_uint8{}, saturate), 0);
  EXPECT_EQ(subtract(vx_uint8{10}, vx_uint8{11}, vx_uint8{}, wrap), 255);
  EXPECT_EQ(subtract(vx_uint8{0}, vx_uint8{255}, vx_int16{}, wrap), -255);
  EXPECT_EQ(subtract(vx_uint8{0}, vx_uint8{255}, vx_int16{}, saturate), -255);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_int16{1}, vx_int16{}, wrap), 32767);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_int16{1}, vx_int16{}, saturate), -32768);
  EXPECT_EQ(subtract(vx_int16{32767}, vx_int16{-1}, vx_int16{}, wrap), -32768);
  EXPECT_EQ(subtract(vx_int16{32767}, vx_int16{-1}, vx_int16{}, saturate), 32767);
  EXPECT_EQ(subtract(vx_int16{32767}, vx_int16{-32768}, vx_int16{}, wrap), -1);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_int16{32767}, vx_int16{}, wrap), 1);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_int16{32767}, vx_int16{}, saturate), -32768);
  EXPECT_EQ(subtract(vx_uint8{0}, vx_int16{-32768}, vx_int16{}, wrap), -32768);
  EXPECT_EQ(subtract(vx_uint8{0}, vx_int16{-32768}, vx_int16{}, saturate), 32767);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_uint8{255}, vx_int16{}, wrap), 32513);
  EXPECT_EQ(subtract(vx_int16{-32768}, vx_uint8{255}, vx_int16{}, saturate), -32768);
}

// --- Min, Max -----------------------------------------------------------------------------------------------

template <typename T>
void check_min_max(vx_context context, std::mt19937& rng) {
  for (const Size& size : kSizes) {
    const Pixels<T> a = operand<T>(size.width, size.height, rng, true);
    const Pixels<T> b = operand<T>(size.width, size.height, rng, false);
    vx_image ia = image_of(context, a), ib = image_of(context, b);
    vx_image out = vxCreateImage(context, size.width, size.height, format_of<T>());
    const Pixels<T> want_min = reference<T>(a, b, [](std::int64_t x, std::int64_t y) { return static_cast<T>(x < y ? x : y); });
    const Pixels<T> want_max = reference<T>(a, b, [](std::int64_t x, std::int64_t y) { return static_cast<T>(x > y ? x : y); });
    const std::string where = std::string(" ") + name_of<T>() + " " + size_name(size);
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxMinNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<T>(out), want_min, "Min" + where);
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxMaxNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<T>(out), want_max, "Max" + where);
    ASSERT_EQ(vxuMin(context, ia, ib, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<T>(out), want_min, "vxuMin" + where);
    ASSERT_EQ(vxuMax(context, ia, ib, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<T>(out), want_max, "vxuMax" + where);
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, MinAndMaxMatchTheReferenceOnU8AndS16) {
  std::mt19937 rng(4);
  check_min_max<vx_uint8>(context_, rng);
  check_min_max<vx_int16>(context_, rng);
}

// --- Multiply -----------------------------------------------------------------------------------------------

constexpr vx_float32 kOne255 = 0x1.010102p-8f;  // 1/255 as the specification writes it

template <typename Out, typename A, typename B>
Pixels<Out> reference_multiply(const Pixels<A>& a, const Pixels<B>& b, vx_float32 scale, vx_enum overflow, vx_enum rounding) {
  return reference<Out>(a, b, [&](std::int64_t x, std::int64_t y) {
    return to_output<Out>(reference_multiply(x * y, scale, rounding), overflow == VX_CONVERT_POLICY_SATURATE);
  });
}

/// Runs vxMultiplyNode in a graph with a scalar of @p scale.
vx_status multiply_node(vx_context context, vx_image a, vx_image b, vx_float32 scale, vx_enum overflow, vx_enum rounding, vx_image out) {
  vx_scalar s = vxCreateScalar(context, VX_TYPE_FLOAT32, &scale);
  const vx_status status = run_node(context, [&](vx_graph g) { return vxMultiplyNode(g, a, b, s, overflow, rounding, out); });
  EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  return status;
}

std::string multiply_name(vx_float32 scale, vx_enum overflow, vx_enum rounding) {
  return "scale " + std::to_string(scale) + (overflow == VX_CONVERT_POLICY_SATURATE ? " saturate" : " wrap") +
         (rounding == VX_ROUND_POLICY_TO_ZERO ? " to zero" : " to nearest even");
}

TEST_F(OpenVx, MultiplyIsExactForEveryU8PairAndScale) {
  // in1(x, y) = x, in2(x, y) = y: all 65536 pairs in one image.
  U8 a{256, 256, std::vector<vx_uint8>(65536)}, b = a;
  for (vx_uint32 y = 0; y < 256; ++y) {
    for (vx_uint32 x = 0; x < 256; ++x) {
      a.at(x, y) = static_cast<vx_uint8>(x);
      b.at(x, y) = static_cast<vx_uint8>(y);
    }
  }
  vx_image ia = image_of(context_, a), ib = image_of(context_, b);
  vx_image out_u8 = vxCreateImage(context_, 256, 256, VX_DF_IMAGE_U8);
  vx_image out_s16 = vxCreateImage(context_, 256, 256, VX_DF_IMAGE_S16);
  for (vx_float32 scale : {kOne255, 1.0f, 0.5f, 1.0f / 256, 1.0f / 32768, 1.0f / 3, 0.0f, 2.5f}) {
    for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
      for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
        const std::string what = multiply_name(scale, overflow, rounding);
        ASSERT_EQ(multiply_node(context_, ia, ib, scale, overflow, rounding, out_u8), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_uint8>(out_u8), reference_multiply<vx_uint8>(a, b, scale, overflow, rounding), "U8 " + what);
        ASSERT_EQ(multiply_node(context_, ia, ib, scale, overflow, rounding, out_s16), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_int16>(out_s16), reference_multiply<vx_int16>(a, b, scale, overflow, rounding), "S16 " + what);
      }
    }
  }
  for (vx_image* i : {&ia, &ib, &out_u8, &out_s16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

template <typename A, typename B>
void check_multiply_s16(vx_context context, const Pixels<A>& a, const Pixels<B>& b) {
  vx_image ia = image_of(context, a), ib = image_of(context, b);
  vx_image out = vxCreateImage(context, a.width, a.height, VX_DF_IMAGE_S16);
  for (vx_float32 scale : {kOne255, 1.0f, 0.5f, 1.0f / 4, 1.0f / 32768, 1.0f / 3, 3.75f}) {
    for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
      for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
        const std::string what = std::string(name_of<A>()) + "*" + name_of<B>() + "->S16 " + multiply_name(scale, overflow, rounding);
        ASSERT_EQ(multiply_node(context, ia, ib, scale, overflow, rounding, out), VX_SUCCESS) << what;
        expect_pixels_eq(read_pixels<vx_int16>(out), reference_multiply<vx_int16>(a, b, scale, overflow, rounding), what);
      }
    }
  }
  for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, MultiplyMatchesTheReferenceOnS16EdgesAndRandomImages) {
  // Every pair of S16 edge values (and U8 ones against them).
  const vx_int16 edges[] = {-32768, -32767, -16384, -256, -255, -5, -3, -2, -1, 0, 1, 2, 3, 5, 127, 128, 255, 256, 16383, 32766, 32767};
  constexpr vx_uint32 n = std::size(edges);
  S16 a{n, n, std::vector<vx_int16>(n * n)}, b = a;
  for (vx_uint32 y = 0; y < n; ++y) {
    for (vx_uint32 x = 0; x < n; ++x) {
      a.at(x, y) = edges[x];
      b.at(x, y) = edges[y];
    }
  }
  check_multiply_s16(context_, a, b);
  U8 u{n, n, std::vector<vx_uint8>(n * n)};
  for (std::size_t i = 0; i < u.values.size(); ++i) u.values[i] = static_cast<vx_uint8>(a.values[i]);
  check_multiply_s16(context_, u, b);
  check_multiply_s16(context_, b, u);
  std::mt19937 rng(5);
  check_multiply_s16(context_, operand<vx_int16>(37, 13, rng, true), operand<vx_int16>(37, 13, rng, false));
  check_multiply_s16(context_, operand<vx_uint8>(37, 13, rng, true), operand<vx_int16>(37, 13, rng, false));
}

TEST_F(OpenVx, MultiplyRoundsAndOverflowsAsTheSpecificationSays) {
  auto multiply = [&](auto a, auto b, auto out, vx_float32 scale, vx_enum overflow, vx_enum rounding) {
    return one_pixel<decltype(a), decltype(b), decltype(out)>(
        context_, a, b, [&](vx_image x, vx_image y, vx_image o) { return vxuMultiply(context_, x, y, scale, overflow, rounding, o); });
  };
  constexpr vx_enum wrap = VX_CONVERT_POLICY_WRAP, saturate = VX_CONVERT_POLICY_SATURATE;
  constexpr vx_enum zero = VX_ROUND_POLICY_TO_ZERO, even = VX_ROUND_POLICY_TO_NEAREST_EVEN;
  // Ties: 1.5 -> 2, 2.5 -> 2, -1.5 -> -2, -2.5 -> -2 to nearest even; toward zero 1, 2, -1, -2.
  EXPECT_EQ(multiply(vx_uint8{3}, vx_uint8{1}, vx_uint8{}, 0.5f, wrap, even), 2);
  EXPECT_EQ(multiply(vx_uint8{3}, vx_uint8{1}, vx_uint8{}, 0.5f, wrap, zero), 1);
  EXPECT_EQ(multiply(vx_uint8{5}, vx_uint8{1}, vx_uint8{}, 0.5f, wrap, even), 2);
  EXPECT_EQ(multiply(vx_int16{-3}, vx_uint8{1}, vx_int16{}, 0.5f, wrap, even), -2);
  EXPECT_EQ(multiply(vx_int16{-3}, vx_uint8{1}, vx_int16{}, 0.5f, wrap, zero), -1);
  EXPECT_EQ(multiply(vx_int16{-5}, vx_int16{1}, vx_int16{}, 0.5f, wrap, even), -2);
  EXPECT_EQ(multiply(vx_int16{-7}, vx_int16{1}, vx_int16{}, 0.25f, wrap, even), -2);  // -1.75
  EXPECT_EQ(multiply(vx_int16{-7}, vx_int16{1}, vx_int16{}, 0.25f, wrap, zero), -1);
  // 1/255: 255 * 255 / 255 is a hair above 255 with the float scale.
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{255}, vx_uint8{}, kOne255, saturate, even), 255);
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{1}, vx_uint8{}, kOne255, saturate, zero), 1);
  EXPECT_EQ(multiply(vx_uint8{254}, vx_uint8{1}, vx_uint8{}, kOne255, saturate, zero), 0);
  EXPECT_EQ(multiply(vx_uint8{254}, vx_uint8{1}, vx_uint8{}, kOne255, saturate, even), 1);
  // Overflow: 255 * 255 = 65025 is 1 modulo 256; 2^30 is 0 modulo 2^16.
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{255}, vx_uint8{}, 1.0f, wrap, zero), 1);
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{255}, vx_uint8{}, 1.0f, saturate, zero), 255);
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{255}, vx_int16{}, 1.0f, wrap, zero), -511);
  EXPECT_EQ(multiply(vx_uint8{255}, vx_uint8{255}, vx_int16{}, 1.0f, saturate, zero), 32767);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}, 1.0f, wrap, zero), 0);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}, 1.0f, saturate, zero), 32767);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{32767}, vx_int16{}, 1.0f, saturate, zero), -32768);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{32767}, vx_int16{}, 1.0f / 32768, saturate, zero), -32767);
  EXPECT_EQ(multiply(vx_int16{32767}, vx_int16{32767}, vx_int16{}, 1.0f / 32768, saturate, zero), 32766);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}, 1.0f / 32768, wrap, zero), -32768);  // 32768 wraps
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}, 1.0f / 32768, saturate, zero), 32767);
  EXPECT_EQ(multiply(vx_int16{-32768}, vx_int16{-32768}, vx_int16{}, 1.0f / 32768, saturate, even), 32767);
  // A large scale: the product passes int64 before it is wrapped; 2^40 * 3 is 0 modulo 2^16.
  EXPECT_EQ(multiply(vx_int16{3}, vx_int16{1}, vx_int16{}, 0x1p40f, wrap, zero), 0);
  EXPECT_EQ(multiply(vx_int16{-3}, vx_int16{1}, vx_int16{}, 0x1p70f, saturate, zero), -32768);
  EXPECT_EQ(multiply(vx_int16{5}, vx_int16{1}, vx_int16{}, 0x1p70f, wrap, even), 0);
  EXPECT_EQ(multiply(vx_int16{1}, vx_int16{3}, vx_int16{}, 0x1p15f, wrap, zero), -32768);  // 98304 mod 65536
}

// --- strides, virtual images, run-time values ---------------------------------------------------------------

TEST_F(OpenVx, ArithmeticKernelsFollowTheStridesOfHandlesWithGaps) {
  std::mt19937 rng(6);
  const vx_uint32 w = 23, h = 11;
  const S16 s = operand<vx_int16>(w, h, rng, true);
  const U8 u = operand<vx_uint8>(w, h, rng, false);
  // An S16 input and an S16 output from handles with gaps between pixels and padding after rows.
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 6;
  addr.stride_y = static_cast<vx_int32>(w * 6 + 10);
  std::vector<vx_uint8> in_memory(static_cast<std::size_t>(addr.stride_y) * h, 0xEE), out_memory = in_memory;
  void* in_planes[] = {in_memory.data()};
  void* out_planes[] = {out_memory.data()};
  vx_image in_handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_S16, &addr, in_planes, VX_MEMORY_TYPE_HOST);
  vx_image out_handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_S16, &addr, out_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(in_handle), VX_SUCCESS);
  ASSERT_EQ(status_of(out_handle), VX_SUCCESS);
  write_pixels(in_handle, s);
  vx_image iu = image_of(context_, u);
  const bool sat = true;
  ASSERT_EQ(vxuSubtract(context_, iu, in_handle, VX_CONVERT_POLICY_SATURATE, out_handle), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_int16>(out_handle),
                   reference<vx_int16>(u, s, [&](std::int64_t x, std::int64_t y) { return to_output<vx_int16>(x - y, sat); }), "Subtract on strides");
  ASSERT_EQ(vxuMultiply(context_, in_handle, iu, 0.5f, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_NEAREST_EVEN, out_handle), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_int16>(out_handle), reference_multiply<vx_int16>(s, u, 0.5f, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_NEAREST_EVEN),
                   "Multiply on strides");
  ASSERT_EQ(vxuAbsDiff(context_, in_handle, in_handle, out_handle), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_int16>(out_handle), S16{w, h, std::vector<vx_int16>(s.values.size(), 0)}, "AbsDiff on strides");
  vx_image zeros = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);  // what AbsDiff left in out_handle
  ASSERT_EQ(vxuMax(context_, in_handle, zeros, out_handle), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&zeros), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_int16>(out_handle),
                   reference<vx_int16>(s, s, [](std::int64_t x, std::int64_t) { return static_cast<vx_int16>(x > 0 ? x : 0); }), "Max on strides");
  // The gaps of the handles' memory are untouched.
  EXPECT_EQ(out_memory[2], 0xEE);
  EXPECT_EQ(out_memory[5], 0xEE);
  EXPECT_EQ(out_memory[static_cast<std::size_t>(addr.stride_y) - 1], 0xEE);
  // A U8 output from a handle with gaps (Xor).
  vx_imagepatch_addressing_t u8_addr = addr;
  u8_addr.stride_x = 3;
  u8_addr.stride_y = static_cast<vx_int32>(w * 3 + 1);
  std::vector<vx_uint8> u8_memory(static_cast<std::size_t>(u8_addr.stride_y) * h, 0xEE);
  void* u8_planes[] = {u8_memory.data()};
  vx_image u8_handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &u8_addr, u8_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(vxuXor(context_, iu, iu, u8_handle), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(u8_handle), U8{w, h, std::vector<vx_uint8>(u.values.size(), 0)}, "Xor on strides");
  EXPECT_EQ(u8_memory[1], 0xEE);
  EXPECT_EQ(u8_memory[2], 0xEE);
  for (vx_image* i : {&in_handle, &out_handle, &iu, &u8_handle}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, VirtualOutputsOfOpenFormatTakeTheFormatTheSpecificationGives) {
  std::mt19937 rng(7);
  const vx_uint32 w = 37, h = 13;
  const U8 a = operand<vx_uint8>(w, h, rng, true), b = operand<vx_uint8>(w, h, rng, false);
  const S16 c = operand<vx_int16>(w, h, rng, true);
  vx_image ia = image_of(context_, a), ib = image_of(context_, b), ic = image_of(context_, c);
  vx_image out = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  vx_image min_out = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  vx_graph graph = vxCreateGraph(context_);
  vx_image xored = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image maxed = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image diff = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image difference = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_scalar half = vxCreateScalar(context_, VX_TYPE_FLOAT32, std::array<vx_float32, 1>{0.5f}.data());
  vx_node nodes[] = {
      vxMultiplyNode(graph, difference, ia, half, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_NEAREST_EVEN, out),
      vxMinNode(graph, difference, ic, min_out),
      vxSubtractNode(graph, diff, ic, VX_CONVERT_POLICY_WRAP, difference),
      vxAbsDiffNode(graph, maxed, ib, diff),
      vxMaxNode(graph, xored, ia, maxed),
      vxXorNode(graph, ia, ib, xored),
  };
  for (vx_node n : nodes) ASSERT_EQ(status_of(n), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
  const std::pair<vx_image, vx_df_image> expected_formats[] = {
      // AbsDiff of two U8 images into an open format is U8: the Khronos conformance suite decides this.
      {xored, VX_DF_IMAGE_U8}, {maxed, VX_DF_IMAGE_U8}, {diff, VX_DF_IMAGE_U8}, {difference, VX_DF_IMAGE_S16}};
  for (const auto& [image, format] : expected_formats) {
    vx_df_image got = 0;
    vx_uint32 width = 0, height = 0;
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &got, sizeof got), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
    EXPECT_EQ(got, format);
    EXPECT_EQ(width, w);
    EXPECT_EQ(height, h);
  }
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  const U8 r_xored = reference<vx_uint8>(a, b, [](std::int64_t x, std::int64_t y) { return static_cast<vx_uint8>(x ^ y); });
  const U8 r_maxed = reference<vx_uint8>(r_xored, a, [](std::int64_t x, std::int64_t y) { return static_cast<vx_uint8>(x > y ? x : y); });
  const U8 r_diff = reference<vx_uint8>(r_maxed, b, [](std::int64_t x, std::int64_t y) { return to_output<vx_uint8>(std::llabs(x - y), true); });
  const S16 r_difference = reference<vx_int16>(r_diff, c, [](std::int64_t x, std::int64_t y) { return to_output<vx_int16>(x - y, false); });
  expect_pixels_eq(read_pixels<vx_int16>(out),
                   reference_multiply<vx_int16>(r_difference, a, 0.5f, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_NEAREST_EVEN), "chain");
  expect_pixels_eq(read_pixels<vx_int16>(min_out),
                   reference<vx_int16>(r_difference, c, [](std::int64_t x, std::int64_t y) { return static_cast<vx_int16>(x < y ? x : y); }),
                   "chain min");
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_reference r : {ref(xored), ref(maxed), ref(diff), ref(difference), ref(graph), ref(half), ref(ia), ref(ib), ref(ic), ref(out),
                         ref(min_out)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVx, PoliciesAndScaleAreReadAndCheckedAtEveryRun) {
  std::mt19937 rng(8);
  const U8 a = operand<vx_uint8>(19, 7, rng, true), b = operand<vx_uint8>(19, 7, rng, false);
  vx_image ia = image_of(context_, a), ib = image_of(context_, b);
  vx_image product = vxCreateImage(context_, 19, 7, VX_DF_IMAGE_U8), difference = vxCreateImage(context_, 19, 7, VX_DF_IMAGE_U8);
  vx_float32 scale_value = 1.0f / 16;
  vx_enum overflow_value = VX_CONVERT_POLICY_SATURATE, rounding_value = VX_ROUND_POLICY_TO_ZERO, policy_value = VX_CONVERT_POLICY_SATURATE;
  vx_scalar scale = vxCreateScalar(context_, VX_TYPE_FLOAT32, &scale_value);
  vx_scalar overflow = vxCreateScalar(context_, VX_TYPE_ENUM, &overflow_value);
  vx_scalar rounding = vxCreateScalar(context_, VX_TYPE_ENUM, &rounding_value);
  vx_scalar policy = vxCreateScalar(context_, VX_TYPE_ENUM, &policy_value);
  vx_graph graph = vxCreateGraph(context_);
  vx_kernel multiply = vxGetKernelByEnum(context_, VX_KERNEL_MULTIPLY);
  vx_kernel subtract = vxGetKernelByName(context_, "org.khronos.openvx.subtract");
  vx_node mul = vxCreateGenericNode(graph, multiply);
  vx_node sub = vxCreateGenericNode(graph, subtract);
  vx_uint32 index = 0;
  for (vx_reference r : {ref(ia), ref(ib), ref(scale), ref(overflow), ref(rounding), ref(product)}) EXPECT_EQ(vxSetParameterByIndex(mul, index++, r), VX_SUCCESS);
  index = 0;
  for (vx_reference r : {ref(ia), ref(ib), ref(policy), ref(difference)}) EXPECT_EQ(vxSetParameterByIndex(sub, index++, r), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  auto check = [&](const char* what) {
    expect_pixels_eq(read_pixels<vx_uint8>(product), reference_multiply<vx_uint8>(a, b, scale_value, overflow_value, rounding_value),
                     std::string("Multiply ") + what);
    expect_pixels_eq(read_pixels<vx_uint8>(difference),
                     reference<vx_uint8>(a, b, [&](std::int64_t x, std::int64_t y) { return to_output<vx_uint8>(x - y, policy_value == VX_CONVERT_POLICY_SATURATE); }),
                     std::string("Subtract ") + what);
  };
  check("first run");
  scale_value = kOne255;
  overflow_value = VX_CONVERT_POLICY_WRAP;
  rounding_value = VX_ROUND_POLICY_TO_NEAREST_EVEN;
  policy_value = VX_CONVERT_POLICY_WRAP;
  for (auto [s, v] : {std::pair{scale, static_cast<const void*>(&scale_value)}, std::pair{overflow, static_cast<const void*>(&overflow_value)},
                      std::pair{rounding, static_cast<const void*>(&rounding_value)}, std::pair{policy, static_cast<const void*>(&policy_value)}}) {
    EXPECT_EQ(vxCopyScalar(s, const_cast<void*>(v), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  check("second run, new values");
  // Values the kernels do not take, set after verification, fail the run.
  const vx_float32 negative = -1.0f;
  EXPECT_EQ(vxCopyScalar(scale, const_cast<vx_float32*>(&negative), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_NE(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxCopyScalar(scale, &scale_value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_enum bad = VX_ROUND_POLICY_TO_ZERO;  // a rounding policy is no overflow policy
  EXPECT_EQ(vxCopyScalar(policy, &bad, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_NE(vxProcessGraph(graph), VX_SUCCESS);
  for (vx_reference r : {ref(mul), ref(sub), ref(multiply), ref(subtract), ref(graph), ref(scale), ref(overflow), ref(rounding), ref(policy), ref(ia),
                         ref(ib), ref(product), ref(difference)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVx, TheArithmeticKernelsAreImplementedWithTheirDeclarations) {
  struct Known {
    const char* name;
    vx_enum e;
    vx_uint32 parameters;
  };
  for (const Known& k : {Known{"org.khronos.openvx.xor", VX_KERNEL_XOR, 3}, Known{"org.khronos.openvx.absdiff", VX_KERNEL_ABSDIFF, 3},
                         Known{"org.khronos.openvx.subtract", VX_KERNEL_SUBTRACT, 4}, Known{"org.khronos.openvx.min", VX_KERNEL_MIN, 3},
                         Known{"org.khronos.openvx.max", VX_KERNEL_MAX, 3}, Known{"org.khronos.openvx.multiply", VX_KERNEL_MULTIPLY, 6}}) {
    vx_kernel kernel = vxGetKernelByName(context_, k.name);
    ASSERT_EQ(status_of(kernel), VX_SUCCESS) << k.name;
    vx_enum e = 0;
    vx_uint32 n = 0;
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_ENUM, &e, sizeof e), VX_SUCCESS);
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_PARAMETERS, &n, sizeof n), VX_SUCCESS);
    EXPECT_EQ(e, k.e) << k.name;
    EXPECT_EQ(n, k.parameters) << k.name;
    EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  }
}

// --- refusals ---------------------------------------------------------------------------------------------------

class OpenVxArithmeticRefusals : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
    u8_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    u8b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    s16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    s16b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    u16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U16);
    small_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U8);
    vx_float32 one = 1.0f;
    scale_ = vxCreateScalar(context_, VX_TYPE_FLOAT32, &one);
  }
  void TearDown() override {
    for (vx_reference r : {ref(graph_), ref(u8_), ref(u8b_), ref(s16_), ref(s16b_), ref(u16_), ref(small_), ref(scale_)}) {
      EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    }
    OpenVx::TearDown();
  }
  /// Verifies the graph with the one node @p node, expecting @p status and @p logged_part in the log.
  void expect_refused(vx_node node, vx_status status, const std::string& logged_part) {
    ASSERT_EQ(status_of(node), VX_SUCCESS);
    vg_openvx_test::log_lines.clear();
    EXPECT_EQ(vxVerifyGraph(graph_), status) << logged_part;
    EXPECT_TRUE(logged(logged_part)) << "no log line has '" << logged_part << "'; last: "
                                     << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  }
  vx_node multiply(vx_image a, vx_image b, vx_scalar scale, vx_image out, vx_enum overflow = VX_CONVERT_POLICY_WRAP,
                   vx_enum rounding = VX_ROUND_POLICY_TO_ZERO) {
    return vxMultiplyNode(graph_, a, b, scale, overflow, rounding, out);
  }

  vx_graph graph_ = nullptr;
  vx_image u8_ = nullptr, u8b_ = nullptr, s16_ = nullptr, s16b_ = nullptr, u16_ = nullptr, small_ = nullptr;
  vx_scalar scale_ = nullptr;
};

TEST_F(OpenVxArithmeticRefusals, WrongFormatsAreInvalidFormat) {
  constexpr vx_enum wrap = VX_CONVERT_POLICY_WRAP;
  expect_refused(vxXorNode(graph_, s16_, u8_, u8b_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.xor: in1 has format S16");
  expect_refused(vxXorNode(graph_, u8_, u16_, u8b_), VX_ERROR_INVALID_FORMAT, "in2 has format U16");
  expect_refused(vxXorNode(graph_, u8_, u8b_, s16_), VX_ERROR_INVALID_FORMAT, "out has format S16");
  expect_refused(vxAbsDiffNode(graph_, u16_, u8_, s16_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.absdiff: in1 has format U16");
  expect_refused(vxAbsDiffNode(graph_, s16_, u8_, u8b_), VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is S16 and in2 is U8");
  expect_refused(vxAbsDiffNode(graph_, u8_, u8b_, u16_), VX_ERROR_INVALID_FORMAT, "out has format U16");
  expect_refused(vxSubtractNode(graph_, u8_, u16_, wrap, s16_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.subtract: in2 has format U16");
  expect_refused(vxSubtractNode(graph_, u8_, s16_, wrap, u8b_), VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is U8 and in2 is S16");
  expect_refused(vxSubtractNode(graph_, s16_, s16b_, wrap, u16_), VX_ERROR_INVALID_FORMAT, "out has format U16");
  expect_refused(vxMinNode(graph_, u8_, s16_, s16b_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.min: in1 is U8 but in2 is S16");
  expect_refused(vxMaxNode(graph_, u16_, u16_, u16_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.max: in1 has format U16");
  expect_refused(vxMaxNode(graph_, u8_, u8b_, s16_), VX_ERROR_INVALID_FORMAT, "out has format S16, this kernel makes U8");
  expect_refused(vxMinNode(graph_, s16_, s16b_, u8_), VX_ERROR_INVALID_FORMAT, "out has format U8, this kernel makes S16");
  expect_refused(multiply(u16_, u8_, scale_, s16_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.multiply: in1 has format U16");
  expect_refused(multiply(s16_, s16b_, scale_, u8_), VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is S16 and in2 is S16");
  expect_refused(multiply(u8_, s16_, scale_, u8b_), VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is U8 and in2 is S16");
  expect_refused(multiply(u8_, u8b_, scale_, u16_), VX_ERROR_INVALID_FORMAT, "out has format U16");
}

TEST_F(OpenVxArithmeticRefusals, SizeMismatchesAreInvalidParameters) {
  expect_refused(vxXorNode(graph_, u8_, small_, u8b_), VX_ERROR_INVALID_PARAMETERS, "in1 is 16x8 but in2 is 15x8");
  expect_refused(vxXorNode(graph_, u8_, u8b_, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  expect_refused(vxAbsDiffNode(graph_, small_, u8_, s16_), VX_ERROR_INVALID_PARAMETERS, "in1 is 15x8 but in2 is 16x8");
  expect_refused(vxAbsDiffNode(graph_, u8_, u8b_, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  expect_refused(vxSubtractNode(graph_, u8_, small_, VX_CONVERT_POLICY_WRAP, s16_), VX_ERROR_INVALID_PARAMETERS, "in1 is 16x8 but in2 is 15x8");
  expect_refused(vxSubtractNode(graph_, u8_, u8b_, VX_CONVERT_POLICY_WRAP, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  expect_refused(vxMinNode(graph_, u8_, small_, u8b_), VX_ERROR_INVALID_PARAMETERS, "in1 is 16x8 but in2 is 15x8");
  expect_refused(vxMaxNode(graph_, u8_, u8b_, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  expect_refused(multiply(small_, u8_, scale_, s16_), VX_ERROR_INVALID_PARAMETERS, "in1 is 15x8 but in2 is 16x8");
  expect_refused(multiply(u8_, u8b_, scale_, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  vx_image v = vxCreateVirtualImage(graph_, 4, 4, VX_DF_IMAGE_VIRT);
  expect_refused(multiply(u8_, u8b_, scale_, v), VX_ERROR_INVALID_PARAMETERS, "out is 4x4");
  EXPECT_EQ(vxReleaseImage(&v), VX_SUCCESS);
}

TEST_F(OpenVxArithmeticRefusals, ScalarsOfTheWrongTypeOrValueAreRefused) {
  // Scale: VX_TYPE_FLOAT32, finite, not negative.
  vx_int32 one = 1;
  vx_scalar int_scale = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  expect_refused(multiply(u8_, u8b_, int_scale, s16_), VX_ERROR_INVALID_TYPE, "scale is a scalar of type");
  for (vx_float32 value : {-1.0f, -0x1p-20f, std::numeric_limits<vx_float32>::quiet_NaN(), std::numeric_limits<vx_float32>::infinity()}) {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_FLOAT32, &value);
    expect_refused(multiply(u8_, u8b_, s, s16_), VX_ERROR_INVALID_VALUE, "org.khronos.openvx.multiply: scale is");
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  // Policies: values of their own enumerations only.
  expect_refused(multiply(u8_, u8b_, scale_, s16_, VX_ROUND_POLICY_TO_ZERO), VX_ERROR_INVALID_VALUE, "overflow_policy is 0x");
  expect_refused(multiply(u8_, u8b_, scale_, s16_, VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE), VX_ERROR_INVALID_VALUE,
                 "rounding_policy is 0x");
  expect_refused(vxSubtractNode(graph_, u8_, u8b_, 12345, s16_), VX_ERROR_INVALID_VALUE, "org.khronos.openvx.subtract: policy is 0x3039");
  // Generic nodes given policies that are no enums.
  vx_kernel subtract = vxGetKernelByEnum(context_, VX_KERNEL_SUBTRACT);
  vx_node node = vxCreateGenericNode(graph_, subtract);
  vx_uint32 index = 0;
  for (vx_reference r : {ref(u8_), ref(u8b_), ref(int_scale), ref(s16_)}) EXPECT_EQ(vxSetParameterByIndex(node, index++, r), VX_SUCCESS);
  expect_refused(node, VX_ERROR_INVALID_TYPE, "policy is a scalar of type");
  vx_kernel mul = vxGetKernelByEnum(context_, VX_KERNEL_MULTIPLY);
  const vx_enum zero = VX_ROUND_POLICY_TO_ZERO;
  vx_scalar rounding = vxCreateScalar(context_, VX_TYPE_ENUM, &zero);
  node = vxCreateGenericNode(graph_, mul);
  index = 0;
  for (vx_reference r : {ref(u8_), ref(u8b_), ref(scale_), ref(int_scale), ref(rounding), ref(s16_)}) {
    EXPECT_EQ(vxSetParameterByIndex(node, index++, r), VX_SUCCESS);
  }
  expect_refused(node, VX_ERROR_INVALID_TYPE, "overflow_policy is a scalar of type");
  for (vx_reference r : {ref(subtract), ref(mul), ref(rounding), ref(int_scale)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVxArithmeticRefusals, ImmediateModeRefusesWhatTheNodeRefuses) {
  EXPECT_EQ(vxuXor(context_, s16_, u8_, u8b_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuXor(nullptr, u8_, u8_, u8b_), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuAbsDiff(context_, u8_, small_, u8b_), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxuAbsDiff(context_, s16_, s16b_, u8_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuSubtract(context_, u8_, u8b_, VX_CONVERT_POLICY_WRAP + 7, u8_), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuMin(context_, u8_, s16_, s16b_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuMax(context_, u8_, u8b_, s16_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuMultiply(context_, u8_, u8b_, -0.5f, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_ZERO, s16_), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuMultiply(context_, u8_, u8b_, 1.0f, VX_CONVERT_POLICY_WRAP, 99, s16_), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuMultiply(context_, u16_, u8b_, 1.0f, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_ZERO, s16_), VX_ERROR_INVALID_FORMAT);
}

}  // namespace
