// The standard kernels Not, And, Or, Add and MeanStdDev: graph nodes, generic nodes and immediate mode
// against hand-written reference loops (random images, odd sizes, regions and handles with strides, Add's
// overflow edges under both policies), a chain over virtual images on several targets, and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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
using vg_openvx_test::random_pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::run_node;
using vg_openvx_test::status_of;
using vg_openvx_test::write_pixels;

using U8 = Pixels<vx_uint8>;
using S16 = Pixels<vx_int16>;

// --- reference loops: the specification's formulas, written plainly ----------------------------------

U8 reference_not(const U8& in) {
  U8 out = in;
  for (vx_uint8& v : out.values) v = static_cast<vx_uint8>(255 - v);  // ~v on 8 bits
  return out;
}

template <typename Op>
U8 reference_bitwise(const U8& a, const U8& b, Op op) {
  U8 out = a;
  for (std::size_t i = 0; i < out.values.size(); ++i) out.values[i] = static_cast<vx_uint8>(op(a.values[i], b.values[i]));
  return out;
}

/// in1 + in2 in exact integers, then wrapped modulo 2^bits (two's complement for S16) or clamped.
template <typename Out, typename A, typename B>
Pixels<Out> reference_add(const Pixels<A>& a, const Pixels<B>& b, vx_enum policy) {
  Pixels<Out> out{a.width, a.height, std::vector<Out>(a.values.size())};
  const std::int64_t low = std::numeric_limits<Out>::min(), high = std::numeric_limits<Out>::max();
  const std::int64_t span = high - low + 1;
  for (std::size_t i = 0; i < out.values.size(); ++i) {
    std::int64_t sum = static_cast<std::int64_t>(a.values[i]) + static_cast<std::int64_t>(b.values[i]);
    if (policy == VX_CONVERT_POLICY_SATURATE) {
      sum = sum < low ? low : sum > high ? high : sum;
    } else {
      sum = ((sum - low) % span + span) % span + low;
    }
    out.values[i] = static_cast<Out>(sum);
  }
  return out;
}

struct MeanStdDev {
  double mean = 0, stddev = 0;
};

/// Two passes in double: the mean, then the mean squared distance to it (population standard deviation).
MeanStdDev reference_mean_stddev(const U8& in) {
  double sum = 0;
  for (vx_uint8 v : in.values) sum += v;
  const double n = static_cast<double>(in.values.size());
  MeanStdDev r;
  r.mean = sum / n;
  double squares = 0;
  for (vx_uint8 v : in.values) squares += (v - r.mean) * (v - r.mean);
  r.stddev = std::sqrt(squares / n);
  return r;
}

/// The float a result must be: the double reference rounded once, give or take one float step (the
/// kernel divides exact integers, the reference sums in double: the doubles may differ in their last bits).
void expect_float_close(vx_float32 actual, double reference, const char* what) {
  const float expected = static_cast<float>(reference);
  EXPECT_LE(std::fabs(actual - expected), std::nextafter(std::fabs(expected), INFINITY) - std::fabs(expected))
      << what << ": " << actual << " vs reference " << reference;
}

struct Size {
  vx_uint32 width, height;
};
constexpr Size kSizes[] = {{1, 1}, {3, 7}, {17, 5}, {33, 31}, {640, 480}, {127, 129}};

// --- Not, And, Or -------------------------------------------------------------------------------------

TEST_F(OpenVx, BitwiseKernelsMatchTheReferenceOnOddSizes) {
  std::mt19937 rng(20261125);
  for (const Size& size : kSizes) {
    const U8 a = random_pixels<vx_uint8>(size.width, size.height, rng);
    const U8 b = random_pixels<vx_uint8>(size.width, size.height, rng);
    vx_image ia = image_of(context_, a), ib = image_of(context_, b);
    vx_image out = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
    const std::string where = std::to_string(size.width) + "x" + std::to_string(size.height);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxNotNode(g, ia, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), reference_not(a), "Not " + where);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxAndNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), reference_bitwise(a, b, [](int x, int y) { return x & y; }), "And " + where);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxOrNode(g, ia, ib, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), reference_bitwise(a, b, [](int x, int y) { return x | y; }), "Or " + where);
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, NotInPlaceIsRefused) {
  // One image as input and output of a node is a cycle without a delay (the specification's graph formalism).
  std::mt19937 rng(7);
  const U8 a = random_pixels<vx_uint8>(31, 9, rng);
  vx_image image = image_of(context_, a);
  EXPECT_EQ(run_node(context_, [&](vx_graph g) { return vxNotNode(g, image, image); }), VX_ERROR_INVALID_GRAPH);
  expect_pixels_eq(read_pixels<vx_uint8>(image), a, "untouched");
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

// --- Add ----------------------------------------------------------------------------------------------

/// Random pixels with the overflow edges in the first row: each extreme of In1 met by each extreme of In2.
template <typename T>
Pixels<T> add_operand(vx_uint32 width, vx_uint32 height, std::mt19937& rng, bool first) {
  Pixels<T> p = random_pixels<T>(width, height, rng);
  const T low = std::numeric_limits<T>::min(), high = std::numeric_limits<T>::max();
  const T edges_first[] = {high, high, low, low, high, static_cast<T>(low + 1), static_cast<T>(high - 1), 0};
  const T edges_second[] = {high, low, low, high, 1, static_cast<T>(low + 1), 1, 0};
  for (vx_uint32 i = 0; i < 8 && i < width; ++i) p.at(i, 0) = first ? edges_first[i] : edges_second[i];
  if constexpr (std::is_signed_v<T>) {
    if (width > 8) p.at(8, 0) = static_cast<T>(-1);
  }
  return p;
}

template <typename A, typename B, typename Out>
void check_add(vx_context context, vx_enum policy, std::mt19937& rng) {
  for (const Size& size : kSizes) {
    const Pixels<A> a = add_operand<A>(size.width, size.height, rng, true);
    const Pixels<B> b = add_operand<B>(size.width, size.height, rng, false);
    vx_image ia = image_of(context, a), ib = image_of(context, b);
    vx_image out = vxCreateImage(context, size.width, size.height, format_of<Out>());
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxAddNode(g, ia, ib, policy, out); }), VX_SUCCESS);
    const std::string what = std::string("Add ") + (sizeof(A) == 1 ? "U8" : "S16") + "+" + (sizeof(B) == 1 ? "U8" : "S16") + "->" +
                             (sizeof(Out) == 1 ? "U8" : "S16") + (policy == VX_CONVERT_POLICY_WRAP ? " wrap " : " saturate ") +
                             std::to_string(size.width) + "x" + std::to_string(size.height);
    expect_pixels_eq(read_pixels<Out>(out), reference_add<Out>(a, b, policy), what);
    for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, AddMatchesTheReferenceForEveryFormatAndPolicy) {
  std::mt19937 rng(42);
  for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
    check_add<vx_uint8, vx_uint8, vx_uint8>(context_, policy, rng);
    check_add<vx_uint8, vx_uint8, vx_int16>(context_, policy, rng);
    check_add<vx_uint8, vx_int16, vx_int16>(context_, policy, rng);
    check_add<vx_int16, vx_uint8, vx_int16>(context_, policy, rng);
    check_add<vx_int16, vx_int16, vx_int16>(context_, policy, rng);
  }
}

/// One pixel of in1 + in2 through vxuAdd.
template <typename A, typename B, typename Out>
Out add_one_pixel(vx_context context, A a, B b, vx_enum policy) {
  vx_image ia = image_of(context, Pixels<A>{1, 1, {a}});
  vx_image ib = image_of(context, Pixels<B>{1, 1, {b}});
  vx_image out = vxCreateImage(context, 1, 1, format_of<Out>());
  EXPECT_EQ(vxuAdd(context, ia, ib, policy, out), VX_SUCCESS);
  const Out result = read_pixels<Out>(out).values.at(0);
  for (vx_image* i : {&ia, &ib, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  return result;
}

TEST_F(OpenVx, AddOverflowEdgesGiveTheNumbersTheSpecificationImplies) {
  constexpr vx_enum wrap = VX_CONVERT_POLICY_WRAP, saturate = VX_CONVERT_POLICY_SATURATE;
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_uint8, vx_uint8>(context_, 255, 255, wrap)), 254);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_uint8, vx_uint8>(context_, 255, 255, saturate)), 255);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_uint8, vx_uint8>(context_, 200, 56, wrap)), 0);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_uint8, vx_int16>(context_, 255, 255, wrap)), 510);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_uint8, vx_int16>(context_, 255, 255, saturate)), 510);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, -32768, -1, wrap)), 32767);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, -32768, -1, saturate)), -32768);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, 32767, 1, wrap)), -32768);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, 32767, 1, saturate)), 32767);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, -32768, -32768, wrap)), 0);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_int16, vx_int16>(context_, -32768, -32768, saturate)), -32768);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_int16, vx_int16>(context_, 255, 32767, wrap)), -32514);
  EXPECT_EQ((add_one_pixel<vx_uint8, vx_int16, vx_int16>(context_, 255, 32767, saturate)), 32767);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_uint8, vx_int16>(context_, 32700, 100, wrap)), -32736);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_uint8, vx_int16>(context_, 32700, 100, saturate)), 32767);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_uint8, vx_int16>(context_, -32768, 0, saturate)), -32768);
  EXPECT_EQ((add_one_pixel<vx_int16, vx_uint8, vx_int16>(context_, -300, 255, wrap)), -45);
}

// --- MeanStdDev ---------------------------------------------------------------------------------------

/// Mean and standard deviation of @p p through a vxMeanStdDevNode graph.
MeanStdDev graph_mean_stddev(vx_context context, vx_image image) {
  vx_scalar mean = vxCreateScalar(context, VX_TYPE_FLOAT32, nullptr);
  vx_scalar stddev = vxCreateScalar(context, VX_TYPE_FLOAT32, nullptr);
  EXPECT_EQ(run_node(context, [&](vx_graph g) { return vxMeanStdDevNode(g, image, mean, stddev); }), VX_SUCCESS);
  vx_float32 m = -1, s = -1;
  EXPECT_EQ(vxCopyScalar(mean, &m, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxCopyScalar(stddev, &s, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&mean), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&stddev), VX_SUCCESS);
  return {m, s};
}

TEST_F(OpenVx, MeanStdDevMatchesADoublePrecisionReference) {
  std::mt19937 rng(3);
  for (const Size& size : kSizes) {
    const U8 p = random_pixels<vx_uint8>(size.width, size.height, rng);
    vx_image image = image_of(context_, p);
    const MeanStdDev got = graph_mean_stddev(context_, image);
    const MeanStdDev want = reference_mean_stddev(p);
    const std::string where = std::to_string(size.width) + "x" + std::to_string(size.height);
    expect_float_close(static_cast<vx_float32>(got.mean), want.mean, ("mean " + where).c_str());
    expect_float_close(static_cast<vx_float32>(got.stddev), want.stddev, ("stddev " + where).c_str());
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
}

TEST_F(OpenVx, MeanStdDevOfConstantAndTwoValuedImagesIsExact) {
  U8 constant{41, 13, std::vector<vx_uint8>(41 * 13, 200)};
  vx_image image = image_of(context_, constant);
  MeanStdDev got = graph_mean_stddev(context_, image);
  EXPECT_EQ(got.mean, 200.0);
  EXPECT_EQ(got.stddev, 0.0);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  // Half 0, half 255: mean and population standard deviation are both 127.5.
  U8 halves{64, 3, std::vector<vx_uint8>(64 * 3, 0)};
  for (std::size_t i = 0; i < halves.values.size(); i += 2) halves.values[i] = 255;
  image = image_of(context_, halves);
  got = graph_mean_stddev(context_, image);
  EXPECT_EQ(got.mean, 127.5);
  EXPECT_EQ(got.stddev, 127.5);
  // The standard deviation is optional.
  vx_scalar mean = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxMeanStdDevNode(g, image, mean, nullptr); }), VX_SUCCESS);
  vx_float32 m = 0;
  EXPECT_EQ(vxCopyScalar(mean, &m, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(m, 127.5f);
  EXPECT_EQ(vxReleaseScalar(&mean), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, MeanStdDevStaysExactWhereTheProductsPassSixtyFourBits) {
  // 8192 x 4608 pixels, half 0 and half 255: the variance's numerator N^2 * 127.5^2 is about 2.3e19, past
  // 2^64, so it needs the upper word of the kernel's own 128-bit arithmetic (also on 32-bit ARM).
  U8 halves{8192, 4608, std::vector<vx_uint8>(std::size_t{8192} * 4608, 0)};
  for (std::size_t i = 0; i < halves.values.size(); i += 2) halves.values[i] = 255;
  vx_image image = image_of(context_, halves);
  const MeanStdDev got = graph_mean_stddev(context_, image);
  EXPECT_EQ(got.mean, 127.5);
  EXPECT_EQ(got.stddev, 127.5);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

// --- strides: regions and images from handles ----------------------------------------------------------

TEST_F(OpenVx, KernelsFollowTheStridesOfRegionsAndHandles) {
  std::mt19937 rng(11);
  // A region of a bigger image: rows are the parent's stride apart.
  const U8 whole = random_pixels<vx_uint8>(50, 40, rng);
  vx_image parent = image_of(context_, whole);
  const vx_rectangle_t rect{7, 5, 30, 26};  // 23x21, odd offsets
  vx_image region = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(region), VX_SUCCESS);
  U8 inside{23, 21, {}};
  for (vx_uint32 y = 5; y < 26; ++y) {
    for (vx_uint32 x = 7; x < 30; ++x) inside.values.push_back(whole.at(x, y));
  }
  // An S16 image from a handle with a gap between pixels and padding after each row.
  const vx_uint32 w = 23, h = 21;
  const vx_int32 stride_x = 6, stride_y = w * 6 + 10;
  std::vector<vx_uint8> memory(static_cast<std::size_t>(stride_y) * h, 0xEE);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = stride_x;
  addr.stride_y = stride_y;
  void* planes[] = {memory.data()};
  vx_image handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_S16, &addr, planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(handle), VX_SUCCESS);
  const S16 s = random_pixels<vx_int16>(w, h, rng);
  write_pixels(handle, s);
  // Region + handle -> another region (of a second image) holding the S16 sum.
  vx_image sums = vxCreateImage(context_, 40, 30, VX_DF_IMAGE_S16);
  const vx_rectangle_t out_rect{3, 2, 26, 23};
  vx_image sum_region = vxCreateImageFromROI(sums, &out_rect);
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxAddNode(g, region, handle, VX_CONVERT_POLICY_SATURATE, sum_region); }), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_int16>(sum_region), reference_add<vx_int16>(inside, s, VX_CONVERT_POLICY_SATURATE), "Add on strides");
  // Pixels of the second image outside the region are untouched.
  const S16 all_sums = read_pixels<vx_int16>(sums);
  EXPECT_EQ(all_sums.at(0, 0), 0);
  EXPECT_EQ(all_sums.at(39, 29), 0);
  EXPECT_EQ(all_sums.at(2, 2), 0);
  EXPECT_EQ(all_sums.at(26, 22), 0);
  // The gaps of the handle's memory are untouched too.
  EXPECT_EQ(memory[2], 0xEE);
  EXPECT_EQ(memory[static_cast<std::size_t>(stride_y) - 1], 0xEE);
  // Not from the region into a U8 handle with gaps; MeanStdDev of the region.
  std::vector<vx_uint8> u8_memory(static_cast<std::size_t>(w * 3 + 1) * h, 0xEE);
  addr.stride_x = 3;
  addr.stride_y = static_cast<vx_int32>(w * 3 + 1);
  void* u8_planes[] = {u8_memory.data()};
  vx_image u8_handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, u8_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(u8_handle), VX_SUCCESS);
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxNotNode(g, region, u8_handle); }), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(u8_handle), reference_not(inside), "Not on strides");
  EXPECT_EQ(u8_memory[1], 0xEE);
  const MeanStdDev got = graph_mean_stddev(context_, region);
  const MeanStdDev want = reference_mean_stddev(inside);
  expect_float_close(static_cast<vx_float32>(got.mean), want.mean, "mean of a region");
  expect_float_close(static_cast<vx_float32>(got.stddev), want.stddev, "stddev of a region");
  const MeanStdDev of_handle = graph_mean_stddev(context_, u8_handle);
  const MeanStdDev want_handle = reference_mean_stddev(reference_not(inside));
  expect_float_close(static_cast<vx_float32>(of_handle.mean), want_handle.mean, "mean of a handle");
  expect_float_close(static_cast<vx_float32>(of_handle.stddev), want_handle.stddev, "stddev of a handle");
  for (vx_image* i : {&region, &parent, &sum_region, &sums, &handle, &u8_handle}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- generic nodes --------------------------------------------------------------------------------------

TEST_F(OpenVx, GenericNodesOfTheStandardKernelsRunLikeTheirCreators) {
  std::mt19937 rng(5);
  const U8 a = random_pixels<vx_uint8>(19, 11, rng);
  const U8 b = random_pixels<vx_uint8>(19, 11, rng);
  vx_image ia = image_of(context_, a), ib = image_of(context_, b);
  vx_image not_out = vxCreateImage(context_, 19, 11, VX_DF_IMAGE_U8);
  vx_image sum = vxCreateImage(context_, 19, 11, VX_DF_IMAGE_U8);
  const vx_enum saturate = VX_CONVERT_POLICY_SATURATE;
  vx_scalar policy = vxCreateScalar(context_, VX_TYPE_ENUM, &saturate);
  vx_graph graph = vxCreateGraph(context_);
  vx_kernel not_kernel = vxGetKernelByName(context_, "org.khronos.openvx.not");
  vx_kernel add_kernel = vxGetKernelByEnum(context_, VX_KERNEL_ADD);
  vx_node not_node = vxCreateGenericNode(graph, not_kernel);
  vx_node add_node = vxCreateGenericNode(graph, add_kernel);
  EXPECT_EQ(vxSetParameterByIndex(not_node, 0, ref(ia)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(not_node, 1, ref(not_out)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(add_node, 0, ref(not_out)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(add_node, 1, ref(ib)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(add_node, 2, ref(policy)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(add_node, 3, ref(sum)), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(sum), reference_add<vx_uint8>(reference_not(a), b, saturate), "Not then Add");
  // The policy is read at every run.
  vx_enum wrap = VX_CONVERT_POLICY_WRAP;
  EXPECT_EQ(vxCopyScalar(policy, &wrap, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(sum), reference_add<vx_uint8>(reference_not(a), b, wrap), "Not then Add, wrapping");
  for (vx_reference r : {ref(not_node), ref(add_node), ref(not_kernel), ref(add_kernel), ref(graph), ref(policy), ref(ia), ref(ib),
                         ref(not_out), ref(sum)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVx, TheImplementedKernelsKeepTheirDeclarations) {
  struct Known {
    const char* name;
    vx_enum e;
    vx_uint32 parameters;
  };
  for (const Known& k : {Known{"org.khronos.openvx.not", VX_KERNEL_NOT, 2}, Known{"org.khronos.openvx.and", VX_KERNEL_AND, 3},
                         Known{"org.khronos.openvx.or", VX_KERNEL_OR, 3}, Known{"org.khronos.openvx.add", VX_KERNEL_ADD, 4},
                         Known{"org.khronos.openvx.mean_stddev", VX_KERNEL_MEAN_STDDEV, 3}}) {
    vx_kernel kernel = vxGetKernelByName(context_, k.name);
    ASSERT_EQ(status_of(kernel), VX_SUCCESS) << k.name;
    vx_enum e = 0;
    vx_uint32 n = 0;
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_ENUM, &e, sizeof e), VX_SUCCESS);
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_PARAMETERS, &n, sizeof n), VX_SUCCESS);
    EXPECT_EQ(e, k.e) << k.name;
    EXPECT_EQ(n, k.parameters) << k.name;
    EXPECT_EQ(vxRemoveKernel(kernel), VX_ERROR_INVALID_PARAMETERS) << "standard kernels stay";
    EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  }
}

// --- a chain over virtual images on several targets -------------------------------------------------------

TEST_F(OpenVx, AChainOverVirtualImagesOnSeveralTargetsMatchesTheReference) {
  std::mt19937 rng(99);
  const vx_uint32 w = 45, h = 27;
  vx_graph graph = vxCreateGraph(context_);
  vx_image in1 = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
  vx_image in2 = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
  // Virtual images of open size and format: each takes what its producer's validate says.
  vx_image inverted = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image both = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image either = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8);
  vx_image open_sum = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_image total = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  vx_scalar mean = vxCreateVirtualScalar(graph, VX_TYPE_INVALID);  // typed by validate, read by nobody
  vx_scalar mean_out = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  vx_scalar stddev_out = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  // Created out of data-flow order on purpose: the graph orders them.
  vx_node nodes[] = {
      vxAddNode(graph, open_sum, in1, VX_CONVERT_POLICY_SATURATE, total),  // S16 + U8 -> S16
      vxMeanStdDevNode(graph, either, mean_out, stddev_out),
      vxOrNode(graph, both, in1, either),
      vxAndNode(graph, inverted, in2, both),
      vxNotNode(graph, in1, inverted),
      vxAddNode(graph, either, inverted, VX_CONVERT_POLICY_WRAP, open_sum),  // open format: S16
      vxMeanStdDevNode(graph, inverted, mean, nullptr),
  };
  const char* targets[] = {"cpu0", "cpu1", "cpu0", "cpu1", "cpu1", "cpu0", "cpu1"};
  for (std::size_t i = 0; i < std::size(nodes); ++i) {
    ASSERT_EQ(status_of(nodes[i]), VX_SUCCESS) << i;
    EXPECT_EQ(vxSetNodeTarget(nodes[i], VX_TARGET_STRING, targets[i]), VX_SUCCESS);
  }
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
  vx_df_image format = 0;
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(open_sum, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_S16)) << "Add makes S16 unless the application asks for U8";
  EXPECT_EQ(vxQueryImage(both, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
  EXPECT_EQ(vxQueryImage(both, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(width, w);
  for (int run = 0; run < 3; ++run) {
    const U8 a = random_pixels<vx_uint8>(w, h, rng);
    const U8 b = random_pixels<vx_uint8>(w, h, rng);
    write_pixels(in1, a);
    write_pixels(in2, b);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    const U8 r_inverted = reference_not(a);
    const U8 r_both = reference_bitwise(r_inverted, b, [](int x, int y) { return x & y; });
    const U8 r_either = reference_bitwise(r_both, a, [](int x, int y) { return x | y; });
    const S16 r_open_sum = reference_add<vx_int16>(r_either, r_inverted, VX_CONVERT_POLICY_WRAP);
    expect_pixels_eq(read_pixels<vx_int16>(total), reference_add<vx_int16>(r_open_sum, a, VX_CONVERT_POLICY_SATURATE),
                     "chain run " + std::to_string(run));
    vx_float32 m = 0, s = 0;
    EXPECT_EQ(vxCopyScalar(mean_out, &m, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(vxCopyScalar(stddev_out, &s, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    const MeanStdDev want = reference_mean_stddev(r_either);
    expect_float_close(m, want.mean, "chain mean");
    expect_float_close(s, want.stddev, "chain stddev");
  }
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_reference r : {ref(inverted), ref(both), ref(either), ref(open_sum), ref(mean), ref(graph), ref(in1), ref(in2), ref(total),
                         ref(mean_out), ref(stddev_out)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVx, AddIntoAVirtualImageMadeU8StaysU8) {
  std::mt19937 rng(8);
  const U8 a = random_pixels<vx_uint8>(21, 13, rng);
  const U8 b = random_pixels<vx_uint8>(21, 13, rng);
  vx_image ia = image_of(context_, a), ib = image_of(context_, b);
  vx_image out = vxCreateImage(context_, 21, 13, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_image sum = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_U8);  // size open, U8 asked for
  vx_node add = vxAddNode(graph, ia, ib, VX_CONVERT_POLICY_SATURATE, sum);
  vx_node invert = vxNotNode(graph, sum, out);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(out), reference_not(reference_add<vx_uint8>(a, b, VX_CONVERT_POLICY_SATURATE)),
                   "Add into virtual U8, then Not");
  for (vx_reference r : {ref(add), ref(invert), ref(sum), ref(graph), ref(ia), ref(ib), ref(out)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

// --- immediate mode ----------------------------------------------------------------------------------------

TEST_F(OpenVx, ImmediateModeGivesTheGraphResultsOnEveryTarget) {
  std::mt19937 rng(123);
  const vx_uint32 w = 37, h = 23;
  const U8 a = random_pixels<vx_uint8>(w, h, rng);
  const U8 b = random_pixels<vx_uint8>(w, h, rng);
  const S16 c = add_operand<vx_int16>(w, h, rng, true);
  vx_image ia = image_of(context_, a), ib = image_of(context_, b), ic = image_of(context_, c);
  vx_image from_graph = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
  vx_image immediate = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
  vx_image s16_graph = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  vx_image s16_immediate = vxCreateImage(context_, w, h, VX_DF_IMAGE_S16);
  for (const char* target : {"any", "cpu0", "cpu1"}) {
    ASSERT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, target), VX_SUCCESS);
    const std::string on = std::string(" on ") + target;
    ASSERT_EQ(vxuNot(context_, ia, immediate), VX_SUCCESS);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxNotNode(g, ia, from_graph); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(immediate), read_pixels<vx_uint8>(from_graph), "vxuNot" + on);
    ASSERT_EQ(vxuAnd(context_, ia, ib, immediate), VX_SUCCESS);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxAndNode(g, ia, ib, from_graph); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(immediate), read_pixels<vx_uint8>(from_graph), "vxuAnd" + on);
    ASSERT_EQ(vxuOr(context_, ia, ib, immediate), VX_SUCCESS);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxOrNode(g, ia, ib, from_graph); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(immediate), read_pixels<vx_uint8>(from_graph), "vxuOr" + on);
    ASSERT_EQ(vxuAdd(context_, ia, ib, VX_CONVERT_POLICY_WRAP, immediate), VX_SUCCESS);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxAddNode(g, ia, ib, VX_CONVERT_POLICY_WRAP, from_graph); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(immediate), read_pixels<vx_uint8>(from_graph), "vxuAdd U8" + on);
    ASSERT_EQ(vxuAdd(context_, ic, ia, VX_CONVERT_POLICY_SATURATE, s16_immediate), VX_SUCCESS);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxAddNode(g, ic, ia, VX_CONVERT_POLICY_SATURATE, s16_graph); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_int16>(s16_immediate), read_pixels<vx_int16>(s16_graph), "vxuAdd S16" + on);
    expect_pixels_eq(read_pixels<vx_int16>(s16_immediate), reference_add<vx_int16>(c, a, VX_CONVERT_POLICY_SATURATE), "vxuAdd S16 reference" + on);
    vx_float32 mean = 0, stddev = 0, mean_only = 0;
    ASSERT_EQ(vxuMeanStdDev(context_, ia, &mean, &stddev), VX_SUCCESS);
    const MeanStdDev graph = graph_mean_stddev(context_, ia);
    EXPECT_EQ(mean, static_cast<vx_float32>(graph.mean)) << target;
    EXPECT_EQ(stddev, static_cast<vx_float32>(graph.stddev)) << target;
    ASSERT_EQ(vxuMeanStdDev(context_, ia, &mean_only, nullptr), VX_SUCCESS);
    EXPECT_EQ(mean_only, mean);
  }
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_ANY, nullptr), VX_SUCCESS);
  for (vx_image* i : {&ia, &ib, &ic, &from_graph, &immediate, &s16_graph, &s16_immediate}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ImmediateModeRefusesWhatTheNodeRefuses) {
  vx_image u8 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
  vx_image small = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_float32 mean = 0, stddev = 0;
  EXPECT_EQ(vxuNot(nullptr, u8, u8), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuNot(reinterpret_cast<vx_context>(u8), u8, u8), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuNot(context_, nullptr, u8), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuNot(context_, s16, u8), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuAnd(context_, u8, small, u8), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxuOr(context_, u8, u8, s16), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuAdd(context_, s16, u8, VX_CONVERT_POLICY_WRAP, u8), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuAdd(context_, u8, u8, VX_CONVERT_POLICY_WRAP + 7, u8), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxuMeanStdDev(nullptr, u8, &mean, &stddev), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuMeanStdDev(context_, u8, nullptr, &stddev), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxuMeanStdDev(context_, s16, &mean, &stddev), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuMeanStdDev(context_, nullptr, &mean, &stddev), VX_ERROR_INVALID_REFERENCE);
  for (vx_image* i : {&u8, &s16, &small}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- refusals in graphs ------------------------------------------------------------------------------------

class OpenVxKernelRefusals : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
    u8_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    u8b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    s16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    u16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U16);
    small_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U8);
    float_ = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  }
  void TearDown() override {
    for (vx_reference r : {ref(graph_), ref(u8_), ref(u8b_), ref(s16_), ref(u16_), ref(small_), ref(float_)}) {
      EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    }
    OpenVx::TearDown();
  }
  /// Verifies the graph with the one node @p node, expecting @p status and @p logged_part in the log; the
  /// node goes afterwards.
  void expect_refused(vx_node node, vx_status status, const std::string& logged_part) {
    ASSERT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph_), status);
    EXPECT_TRUE(logged(logged_part)) << "no log line has '" << logged_part << "'; last: "
                                     << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  }

  vx_graph graph_ = nullptr;
  vx_image u8_ = nullptr, u8b_ = nullptr, s16_ = nullptr, u16_ = nullptr, small_ = nullptr;
  vx_scalar float_ = nullptr;
};

TEST_F(OpenVxKernelRefusals, WrongFormatsAreInvalidFormat) {
  expect_refused(vxNotNode(graph_, s16_, u8_), VX_ERROR_INVALID_FORMAT, "input has format S16");
  expect_refused(vxNotNode(graph_, u8_, s16_), VX_ERROR_INVALID_FORMAT, "output has format S16");
  expect_refused(vxAndNode(graph_, u8_, u16_, u8b_), VX_ERROR_INVALID_FORMAT, "in2 has format U16");
  expect_refused(vxOrNode(graph_, s16_, u8_, u8b_), VX_ERROR_INVALID_FORMAT, "in1 has format S16");
  expect_refused(vxAddNode(graph_, u16_, u8_, VX_CONVERT_POLICY_WRAP, s16_), VX_ERROR_INVALID_FORMAT, "in1 has format U16");
  expect_refused(vxAddNode(graph_, u8_, s16_, VX_CONVERT_POLICY_WRAP, u8b_), VX_ERROR_INVALID_FORMAT, "out is U8 but in1 is U8 and in2 is S16");
  expect_refused(vxAddNode(graph_, u8_, u8b_, VX_CONVERT_POLICY_WRAP, u16_), VX_ERROR_INVALID_FORMAT, "out has format U16");
  expect_refused(vxMeanStdDevNode(graph_, s16_, float_, nullptr), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.mean_stddev: input has format S16");
}

TEST_F(OpenVxKernelRefusals, SizeMismatchesAreInvalidParameters) {
  expect_refused(vxAndNode(graph_, u8_, small_, u8b_), VX_ERROR_INVALID_PARAMETERS, "in1 is 16x8 but in2 is 15x8");
  expect_refused(vxOrNode(graph_, small_, u8_, u8b_), VX_ERROR_INVALID_PARAMETERS, "in1 is 15x8 but in2 is 16x8");
  expect_refused(vxNotNode(graph_, u8_, small_), VX_ERROR_INVALID_PARAMETERS, "output is 15x8 but the inputs are 16x8");
  expect_refused(vxAddNode(graph_, u8_, u8b_, VX_CONVERT_POLICY_SATURATE, small_), VX_ERROR_INVALID_PARAMETERS, "out is 15x8");
  // A virtual output declared with another size is refused the same way.
  vx_image v = vxCreateVirtualImage(graph_, 4, 4, VX_DF_IMAGE_VIRT);
  expect_refused(vxNotNode(graph_, u8_, v), VX_ERROR_INVALID_PARAMETERS, "output is 4x4");
  EXPECT_EQ(vxReleaseImage(&v), VX_SUCCESS);
}

TEST_F(OpenVxKernelRefusals, ScalarsOfTheWrongTypeOrValueAreRefused) {
  vx_scalar int_mean = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  expect_refused(vxMeanStdDevNode(graph_, u8_, int_mean, nullptr), VX_ERROR_INVALID_TYPE, "mean is a scalar of type");
  expect_refused(vxMeanStdDevNode(graph_, u8_, float_, int_mean), VX_ERROR_INVALID_TYPE, "stddev is a scalar of type");
  expect_refused(vxAddNode(graph_, u8_, u8b_, 12345, s16_), VX_ERROR_INVALID_VALUE, "policy is 0x3039");
  // A generic Add node given a policy scalar that is no enum.
  vx_kernel add = vxGetKernelByEnum(context_, VX_KERNEL_ADD);
  vx_node node = vxCreateGenericNode(graph_, add);
  for (auto [i, r] : {std::pair{0u, ref(u8_)}, std::pair{1u, ref(u8b_)}, std::pair{2u, ref(int_mean)}, std::pair{3u, ref(s16_)}}) {
    EXPECT_EQ(vxSetParameterByIndex(node, i, r), VX_SUCCESS);
  }
  expect_refused(node, VX_ERROR_INVALID_TYPE, "policy is a scalar of type");
  EXPECT_EQ(vxReleaseKernel(&add), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&int_mean), VX_SUCCESS);
}

TEST_F(OpenVxKernelRefusals, AUniformOutputAndAnUnproducedVirtualInputAreRefused) {
  vx_pixel_value_t value{};
  vx_image uniform = vxCreateUniformImage(context_, 16, 8, VX_DF_IMAGE_U8, &value);
  expect_refused(vxNotNode(graph_, u8_, uniform), VX_ERROR_INVALID_PARAMETERS, "output is a uniform image");
  // A uniform input is fine.
  vx_node node = vxNotNode(graph_, uniform, u8_);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  const U8 inverted = read_pixels<vx_uint8>(u8_);
  EXPECT_EQ(inverted.at(0, 0), 255);
  vx_image nobody = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
  expect_refused(vxNotNode(graph_, nobody, u8_), VX_ERROR_INVALID_PARAMETERS, "input is a virtual image no node before this one produces");
  for (vx_image* i : {&uniform, &nobody}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVxKernelRefusals, CreatorsRefuseNullAndWrongObjectsAndLeaveTheGraphAsItWas) {
  EXPECT_EQ(vxNotNode(nullptr, u8_, u8b_), nullptr);
  EXPECT_EQ(vxAddNode(reinterpret_cast<vx_graph>(u8_), u8_, u8b_, VX_CONVERT_POLICY_WRAP, s16_), nullptr);
  EXPECT_EQ(status_of(vxNotNode(graph_, nullptr, u8b_)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_TRUE(logged("vxNotNode: input is NULL"));
  EXPECT_EQ(status_of(vxAndNode(graph_, u8_, u8b_, nullptr)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(status_of(vxAddNode(graph_, u8_, nullptr, VX_CONVERT_POLICY_WRAP, s16_)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(status_of(vxMeanStdDevNode(graph_, u8_, nullptr, float_)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(status_of(vxOrNode(graph_, u8_, reinterpret_cast<vx_image>(float_), u8b_)), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(status_of(vxMeanStdDevNode(graph_, u8_, reinterpret_cast<vx_scalar>(u8b_), nullptr)), VX_ERROR_INVALID_TYPE);
  // An image of another context.
  vx_context other = vxCreateContext();
  vx_image foreign = vxCreateImage(other, 16, 8, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(vxNotNode(graph_, foreign, u8_)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuNot(context_, foreign, u8_), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseImage(&foreign), VX_SUCCESS);
  EXPECT_EQ(vxReleaseContext(&other), VX_SUCCESS);
  vx_uint32 nodes = 99;
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_NUMNODES, &nodes, sizeof nodes), VX_SUCCESS);
  EXPECT_EQ(nodes, 0u) << "a refused creation leaves no node behind";
}

}  // namespace
