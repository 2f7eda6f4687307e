// The statistics standard kernels: results exact to the specification, formats refused with a reason, in
// graphs and in immediate mode. IntegralImage, Histogram, EqualizeHist and MinMaxLoc against plain reference
// loops (odd sizes, edge values, regions and handles with gaps), virtual outputs taking their attributes,
// and the refusals of vxVerifyGraph with the parameter named in the log.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::expect_pixels_eq;
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
using U32 = Pixels<vx_uint32>;

vx_reference to_ref(void* handle) { return static_cast<vx_reference>(handle); }

void release_all(std::initializer_list<vx_reference> refs) {
  for (vx_reference r : refs) {
    vx_reference copy = r;
    EXPECT_EQ(vxReleaseReference(&copy), VX_SUCCESS);
  }
}

// --- reference loops: the specification's formulas, written plainly ----------------------------------

/// Each output pixel is the sum over the rectangle from (0, 0) to it, summed again from scratch (no
/// recurrence), modulo 2^32.
U32 reference_integral(const U8& in) {
  U32 out{in.width, in.height, std::vector<vx_uint32>(in.values.size())};
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      std::uint64_t sum = 0;
      for (vx_uint32 j = 0; j <= y; ++j) {
        for (vx_uint32 i = 0; i <= x; ++i) sum += in.at(i, j);
      }
      out.at(x, y) = static_cast<vx_uint32>(sum);
    }
  }
  return out;
}

/// Bin i = (I - offset) * bins / range for offset <= I < offset + range, per pixel.
std::vector<vx_int32> reference_histogram(const U8& in, vx_size bins, vx_int32 offset, vx_uint32 range) {
  std::vector<vx_int32> h(bins, 0);
  for (vx_uint8 v : in.values) {
    const std::int64_t i = v;
    if (i < offset || i >= static_cast<std::int64_t>(offset) + range) continue;
    ++h[static_cast<std::size_t>((i - offset) * static_cast<std::int64_t>(bins) / range)];
  }
  return h;
}

/// The conformance reference's equalization: lut(v) = round((cdf(v) - cdf(vmin)) * 255 / (N - cdf(vmin)))
/// for v >= vmin (the smallest value present), 0 below it, the identity for an image of one value.
U8 reference_equalize(const U8& in) {
  std::vector<std::uint64_t> cdf(256, 0);
  for (vx_uint8 v : in.values) ++cdf[v];
  int vmin = 0;
  while (cdf[vmin] == 0) ++vmin;
  for (int v = 1; v < 256; ++v) cdf[v] += cdf[v - 1];
  const std::uint64_t n = in.values.size(), base = cdf[vmin];
  U8 out = in;
  for (vx_uint8& v : out.values) {
    if (n == base) continue;
    if (v < vmin) {
      v = 0;
      continue;
    }
    const double exact = static_cast<double>(cdf[v] - base) * 255.0 / static_cast<double>(n - base);
    v = static_cast<vx_uint8>(static_cast<int>(exact + 0.5));  // halves round up, as the reference does
  }
  return out;
}

template <typename T>
struct Extrema {
  T min{}, max{};
  vx_size min_count = 0, max_count = 0;
  std::vector<vx_coordinates2d_t> min_locations, max_locations;  // all of them, in raster order
};

template <typename T>
Extrema<T> reference_extrema(const Pixels<T>& in) {
  Extrema<T> e;
  e.min = std::numeric_limits<T>::max();
  e.max = std::numeric_limits<T>::min();
  for (T v : in.values) {
    e.min = v < e.min ? v : e.min;
    e.max = v > e.max ? v : e.max;
  }
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      if (in.at(x, y) == e.min) e.min_locations.push_back({x, y});
      if (in.at(x, y) == e.max) e.max_locations.push_back({x, y});
    }
  }
  e.min_count = e.min_locations.size();
  e.max_count = e.max_locations.size();
  return e;
}

std::vector<vx_int32> read_distribution(vx_distribution d) {
  vx_size bins = 0;
  EXPECT_EQ(vxQueryDistribution(d, VX_DISTRIBUTION_BINS, &bins, sizeof bins), VX_SUCCESS);
  std::vector<vx_int32> h(bins, -1);
  EXPECT_EQ(vxCopyDistribution(d, h.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return h;
}

std::vector<vx_coordinates2d_t> read_coordinates(vx_array a) {
  vx_size n = 0;
  EXPECT_EQ(vxQueryArray(a, VX_ARRAY_NUMITEMS, &n, sizeof n), VX_SUCCESS);
  std::vector<vx_coordinates2d_t> c(n);
  if (n > 0) {
    EXPECT_EQ(vxCopyArrayRange(a, 0, n, sizeof(vx_coordinates2d_t), c.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  return c;
}

void expect_locations(const std::vector<vx_coordinates2d_t>& got, const std::vector<vx_coordinates2d_t>& all, vx_size capacity,
                      const std::string& what) {
  const vx_size n = all.size() < capacity ? all.size() : capacity;
  ASSERT_EQ(got.size(), n) << what;
  for (vx_size i = 0; i < n; ++i) {
    EXPECT_TRUE(got[i].x == all[i].x && got[i].y == all[i].y)
        << what << " location " << i << " is (" << got[i].x << ", " << got[i].y << "), expected (" << all[i].x << ", " << all[i].y << ")";
  }
}

template <typename T>
vx_scalar scalar_of(vx_context context, vx_enum type, T value) {
  vx_scalar s = vxCreateScalar(context, type, &value);
  EXPECT_EQ(status_of(s), VX_SUCCESS);
  return s;
}

template <typename T>
T read_scalar(vx_scalar s) {
  T v{};
  EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return v;
}

struct Size {
  vx_uint32 width, height;
};
constexpr Size kSizes[] = {{1, 1}, {37, 13}, {3, 29}, {61, 47}};

// --- IntegralImage ------------------------------------------------------------------------------------

TEST_F(OpenVx, IntegralImageMatchesTheReferenceInGraphsAndImmediateMode) {
  std::mt19937 rng(1);
  for (const Size size : kSizes) {
    const U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    const U32 want = reference_integral(in);
    vx_image image = image_of(context_, in);
    vx_image out = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U32);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxIntegralImageNode(g, image, out); }), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint32>(out), want, "IntegralImage graph " + std::to_string(size.width));
    vx_image out2 = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U32);
    ASSERT_EQ(vxuIntegralImage(context_, image, out2), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint32>(out2), want, "IntegralImage vxu " + std::to_string(size.width));
    release_all({ref(image), ref(out), ref(out2)});
  }
}

TEST_F(OpenVx, IntegralImageOfAWhiteImageReachesTheLargestSums) {
  // 255 everywhere: out(x, y) = 255 (x + 1)(y + 1), up to 255 * 301 * 203.
  const U8 in{301, 203, std::vector<vx_uint8>(301 * 203, 255)};
  vx_image image = image_of(context_, in);
  vx_image out = vxCreateImage(context_, in.width, in.height, VX_DF_IMAGE_U32);
  ASSERT_EQ(vxuIntegralImage(context_, image, out), VX_SUCCESS);
  const U32 got = read_pixels<vx_uint32>(out);
  std::size_t wrong = 0;
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) wrong += got.at(x, y) != 255u * (x + 1) * (y + 1) ? 1 : 0;
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(got.at(300, 202), 255u * 301 * 203);
  release_all({ref(image), ref(out)});
}

TEST_F(OpenVx, IntegralImageFollowsRegionsAndHandlesWithGaps) {
  std::mt19937 rng(2);
  const U8 whole = random_pixels<vx_uint8>(50, 40, rng);
  vx_image parent = image_of(context_, whole);
  const vx_rectangle_t rect{7, 5, 30, 26};  // 23x21
  vx_image region = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(region), VX_SUCCESS);
  U8 inside{23, 21, {}};
  for (vx_uint32 y = 5; y < 26; ++y) {
    for (vx_uint32 x = 7; x < 30; ++x) inside.values.push_back(whole.at(x, y));
  }
  // A U32 output from a handle with 4 bytes of gap after each pixel and 12 after each row.
  const vx_int32 stride_x = 8, stride_y = 23 * 8 + 12;
  std::vector<vx_uint8> memory(static_cast<std::size_t>(stride_y) * 21, 0xEE);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = 23;
  addr.dim_y = 21;
  addr.stride_x = stride_x;
  addr.stride_y = stride_y;
  void* planes[] = {memory.data()};
  vx_image handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U32, &addr, planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(handle), VX_SUCCESS);
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxIntegralImageNode(g, region, handle); }), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint32>(handle), reference_integral(inside), "IntegralImage on strides");
  EXPECT_EQ(memory[4], 0xEE);
  EXPECT_EQ(memory[static_cast<std::size_t>(stride_y) - 1], 0xEE);
  release_all({ref(region), ref(parent), ref(handle)});
}

TEST_F(OpenVx, IntegralImageIntoAnOpenVirtualImageMakesItU32OfTheInputSize) {
  std::mt19937 rng(3);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng);
  vx_image image = image_of(context_, in);
  vx_graph graph = vxCreateGraph(context_);
  vx_image v = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node node = vxIntegralImageNode(graph, image, v);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_df_image format = 0;
  vx_uint32 w = 0, h = 0;
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U32));
  EXPECT_EQ(w, 37u);
  EXPECT_EQ(h, 13u);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  release_all({ref(node), ref(v), ref(graph), ref(image)});
}

// --- Histogram ------------------------------------------------------------------------------------------

TEST_F(OpenVx, HistogramCountsEveryBinAsTheSpecificationDefinesIt) {
  std::mt19937 rng(4);
  struct Layout {
    vx_size bins;
    vx_int32 offset;
    vx_uint32 range;
  };
  const Layout layouts[] = {
      {256, 0, 256},     // one value per bin
      {16, 0, 256},      // window 16
      {7, 10, 200},      // range not a multiple of the bins: bins of 28 and 29 values
      {5, -100, 300},    // a negative offset: values 0..199 fall in bins 1..4
      {3, 250, 100},     // only 250..255 are counted, in bin 0
      {1, 255, 1},       // only 255
      {10, 256, 1000},   // no U8 value is counted
      {300, 0, 300},     // more bins than U8 values
      {4, 0, 0x80000000u},  // a huge range: everything in bin 0
  };
  for (const Size size : kSizes) {
    U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    in.values[0] = 0;
    in.values.back() = 255;
    vx_image image = image_of(context_, in);
    for (const Layout& l : layouts) {
      const std::string what = "bins " + std::to_string(l.bins) + " offset " + std::to_string(l.offset) + " range " +
                               std::to_string(l.range) + " on " + std::to_string(size.width) + "x" + std::to_string(size.height);
      const std::vector<vx_int32> want = reference_histogram(in, l.bins, l.offset, l.range);
      vx_distribution d = vxCreateDistribution(context_, l.bins, l.offset, l.range);
      ASSERT_EQ(status_of(d), VX_SUCCESS) << what;
      // Stale contents must not survive.
      std::vector<vx_int32> junk(l.bins, 77);
      ASSERT_EQ(vxCopyDistribution(d, junk.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxHistogramNode(g, image, d); }), VX_SUCCESS) << what;
      EXPECT_EQ(read_distribution(d), want) << "graph " << what;
      ASSERT_EQ(vxCopyDistribution(d, junk.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
      ASSERT_EQ(vxuHistogram(context_, image, d), VX_SUCCESS) << what;
      EXPECT_EQ(read_distribution(d), want) << "vxu " << what;
      EXPECT_EQ(vxReleaseDistribution(&d), VX_SUCCESS);
    }
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
}

TEST_F(OpenVx, HistogramReadsRegionsAndHandlesWithGaps) {
  std::mt19937 rng(5);
  const U8 whole = random_pixels<vx_uint8>(40, 30, rng);
  vx_image parent = image_of(context_, whole);
  const vx_rectangle_t rect{3, 4, 36, 21};
  vx_image region = vxCreateImageFromROI(parent, &rect);
  U8 inside{33, 17, {}};
  for (vx_uint32 y = 4; y < 21; ++y) {
    for (vx_uint32 x = 3; x < 36; ++x) inside.values.push_back(whole.at(x, y));
  }
  vx_distribution d = vxCreateDistribution(context_, 32, 0, 256);
  ASSERT_EQ(vxuHistogram(context_, region, d), VX_SUCCESS);
  EXPECT_EQ(read_distribution(d), reference_histogram(inside, 32, 0, 256));
  // A U8 handle with a gap after every pixel.
  std::vector<vx_uint8> memory(static_cast<std::size_t>(33 * 2 + 5) * 17, 0);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = 33;
  addr.dim_y = 17;
  addr.stride_x = 2;
  addr.stride_y = 33 * 2 + 5;
  void* planes[] = {memory.data()};
  vx_image handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, planes, VX_MEMORY_TYPE_HOST);
  write_pixels(handle, inside);
  ASSERT_EQ(vxuHistogram(context_, handle, d), VX_SUCCESS);
  EXPECT_EQ(read_distribution(d), reference_histogram(inside, 32, 0, 256));
  release_all({ref(d), ref(handle), ref(region), ref(parent)});
}

// --- EqualizeHist ---------------------------------------------------------------------------------------

TEST_F(OpenVx, EqualizeHistMatchesTheConformanceFormula) {
  std::mt19937 rng(6);
  for (const Size size : kSizes) {
    std::vector<U8> inputs;
    inputs.push_back(random_pixels<vx_uint8>(size.width, size.height, rng));
    inputs.push_back(random_pixels<vx_uint8>(size.width, size.height, rng, 100, 140));  // a narrow band, stretched
    inputs.push_back(U8{size.width, size.height, std::vector<vx_uint8>(size.width * size.height, 93)});  // one value: unchanged
    U8 two = random_pixels<vx_uint8>(size.width, size.height, rng, 0, 1);
    for (vx_uint8& v : two.values) v = v != 0 ? 255 : 0;  // only the edges
    inputs.push_back(two);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const std::string what = "input " + std::to_string(k) + " on " + std::to_string(size.width) + "x" + std::to_string(size.height);
      const U8 want = reference_equalize(inputs[k]);
      vx_image image = image_of(context_, inputs[k]);
      vx_image out = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxEqualizeHistNode(g, image, out); }), VX_SUCCESS);
      expect_pixels_eq(read_pixels<vx_uint8>(out), want, "EqualizeHist graph " + what);
      vx_image out2 = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
      ASSERT_EQ(vxuEqualizeHist(context_, image, out2), VX_SUCCESS);
      expect_pixels_eq(read_pixels<vx_uint8>(out2), want, "EqualizeHist vxu " + what);
      release_all({ref(image), ref(out), ref(out2)});
    }
  }
}

TEST_F(OpenVx, EqualizeHistKnownValues) {
  // 4 pixels 10, 20, 20, 30: cdf 1, 3, 4; cdf_min 1, N - cdf_min 3: 10 -> 0, 20 -> round(2*255/3) = 170,
  // 30 -> 255. And 5 pixels 0, 1, 2, 3, 4 with 1 -> round(255/4) = 64 (63.75), 2 -> 128 (127.5 rounds up).
  const U8 a{4, 1, {10, 20, 20, 30}};
  const U8 b{5, 1, {0, 1, 2, 3, 4}};
  for (const auto& [in, want] : {std::pair{a, U8{4, 1, {0, 170, 170, 255}}}, std::pair{b, U8{5, 1, {0, 64, 128, 191, 255}}}}) {
    vx_image image = image_of(context_, in);
    vx_image out = vxCreateImage(context_, in.width, 1, VX_DF_IMAGE_U8);
    ASSERT_EQ(vxuEqualizeHist(context_, image, out), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(out), want, "EqualizeHist known values");
    release_all({ref(image), ref(out)});
  }
}

TEST_F(OpenVx, EqualizeHistIntoAnOpenVirtualImageFeedsAHistogram) {
  std::mt19937 rng(7);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng, 50, 80);
  vx_image image = image_of(context_, in);
  vx_graph graph = vxCreateGraph(context_);
  vx_image v = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_distribution d = vxCreateDistribution(context_, 64, 0, 256);
  vx_node eq = vxEqualizeHistNode(graph, image, v);
  vx_node hist = vxHistogramNode(graph, v, d);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_df_image format = 0;
  vx_uint32 w = 0, h = 0;
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(v, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
  EXPECT_EQ(w, 37u);
  EXPECT_EQ(h, 13u);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_distribution(d), reference_histogram(reference_equalize(in), 64, 0, 256));
  release_all({ref(eq), ref(hist), ref(v), ref(d), ref(graph), ref(image)});
}

// --- MinMaxLoc --------------------------------------------------------------------------------------------

template <typename T>
void check_min_max_loc(vx_context context, const Pixels<T>& in, vx_size capacity, bool immediate, const std::string& what) {
  const vx_enum type = sizeof(T) == 1 ? VX_TYPE_UINT8 : VX_TYPE_INT16;
  const Extrema<T> want = reference_extrema(in);
  vx_image image = image_of(context, in);
  vx_scalar min_val = scalar_of<T>(context, type, 0), max_val = scalar_of<T>(context, type, 0);
  vx_scalar min_count = scalar_of<vx_size>(context, VX_TYPE_SIZE, 12345), max_count = scalar_of<vx_size>(context, VX_TYPE_SIZE, 12345);
  vx_array min_loc = vxCreateArray(context, VX_TYPE_COORDINATES2D, capacity);
  vx_array max_loc = vxCreateArray(context, VX_TYPE_COORDINATES2D, capacity);
  // Items left from before must go.
  const vx_coordinates2d_t stale{999, 999};
  ASSERT_EQ(vxAddArrayItems(min_loc, 1, &stale, sizeof stale), VX_SUCCESS);
  if (immediate) {
    ASSERT_EQ(vxuMinMaxLoc(context, image, min_val, max_val, min_loc, max_loc, min_count, max_count), VX_SUCCESS) << what;
  } else {
    ASSERT_EQ(run_node(context, [&](vx_graph g) { return vxMinMaxLocNode(g, image, min_val, max_val, min_loc, max_loc, min_count, max_count); }),
              VX_SUCCESS)
        << what;
  }
  EXPECT_EQ(read_scalar<T>(min_val), want.min) << what;
  EXPECT_EQ(read_scalar<T>(max_val), want.max) << what;
  EXPECT_EQ(read_scalar<vx_size>(min_count), want.min_count) << what;
  EXPECT_EQ(read_scalar<vx_size>(max_count), want.max_count) << what;
  expect_locations(read_coordinates(min_loc), want.min_locations, capacity, what + " minLoc");
  expect_locations(read_coordinates(max_loc), want.max_locations, capacity, what + " maxLoc");
  release_all({to_ref(image), to_ref(min_val), to_ref(max_val), to_ref(min_count), to_ref(max_count), to_ref(min_loc), to_ref(max_loc)});
}

TEST_F(OpenVx, MinMaxLocFindsValuesCountsAndLocationsOfU8AndS16) {
  std::mt19937 rng(8);
  for (const Size size : kSizes) {
    for (bool immediate : {false, true}) {
      const std::string what = std::to_string(size.width) + "x" + std::to_string(size.height) + (immediate ? " vxu" : " graph");
      U8 u8 = random_pixels<vx_uint8>(size.width, size.height, rng, 1, 254);
      S16 s16 = random_pixels<vx_int16>(size.width, size.height, rng, -32767, 32766);
      // The type's edges, several times each (the first at the last pixel, which a one-pixel image also has).
      for (std::size_t i : {u8.values.size() - 1, u8.values.size() / 3, u8.values.size() / 2}) {
        u8.values[i] = 0;
        s16.values[i] = -32768;
      }
      for (std::size_t i : {std::size_t{0}, u8.values.size() / 5, (u8.values.size() / 4 + 1) % u8.values.size()}) {
        u8.values[i] = 255;
        s16.values[i] = 32767;
      }
      for (vx_size capacity : {vx_size{1}, vx_size{2}, vx_size{1000}}) {
        check_min_max_loc(context_, u8, capacity, immediate, "U8 " + what + " capacity " + std::to_string(capacity));
        check_min_max_loc(context_, s16, capacity, immediate, "S16 " + what + " capacity " + std::to_string(capacity));
      }
    }
  }
}

TEST_F(OpenVx, MinMaxLocOfAConstantImageCountsEveryPixelTwice) {
  const S16 in{37, 13, std::vector<vx_int16>(37 * 13, -5)};
  check_min_max_loc(context_, in, 100, false, "constant S16");
  check_min_max_loc(context_, in, 37 * 13 + 3, true, "constant S16, room for all");
}

TEST_F(OpenVx, MinMaxLocOptionalOutputsMayBeLeftOut) {
  std::mt19937 rng(9);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng);
  const Extrema<vx_uint8> want = reference_extrema(in);
  vx_image image = image_of(context_, in);
  vx_scalar min_val = scalar_of<vx_uint8>(context_, VX_TYPE_UINT8, 0), max_val = scalar_of<vx_uint8>(context_, VX_TYPE_UINT8, 0);
  vx_scalar max_count = scalar_of<vx_size>(context_, VX_TYPE_SIZE, 0);
  vx_array max_loc = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 4);
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxMinMaxLocNode(g, image, min_val, max_val, nullptr, nullptr, nullptr, nullptr); }),
            VX_SUCCESS);
  EXPECT_EQ(read_scalar<vx_uint8>(min_val), want.min);
  EXPECT_EQ(read_scalar<vx_uint8>(max_val), want.max);
  ASSERT_EQ(vxuMinMaxLoc(context_, image, min_val, max_val, nullptr, max_loc, nullptr, max_count), VX_SUCCESS);
  EXPECT_EQ(read_scalar<vx_size>(max_count), want.max_count);
  expect_locations(read_coordinates(max_loc), want.max_locations, 4, "maxLoc alone");
  release_all({ref(image), ref(min_val), ref(max_val), ref(max_count), ref(max_loc)});
}

// The specification makes minCount and maxCount VX_TYPE_SIZE scalars; the conformance suite passes
// VX_TYPE_UINT32 ones, and the suite decides: both are taken, each written in its own type.
TEST_F(OpenVx, MinMaxLocCountsGoIntoUint32ScalarsAsWellAsSizeOnes) {
  std::mt19937 rng(11);
  const U8 in = random_pixels<vx_uint8>(29, 17, rng, 0, 3);  // few values: many minima and maxima
  const Extrema<vx_uint8> want = reference_extrema(in);
  vx_image image = image_of(context_, in);
  vx_scalar min_val = scalar_of<vx_uint8>(context_, VX_TYPE_UINT8, 0), max_val = scalar_of<vx_uint8>(context_, VX_TYPE_UINT8, 0);
  vx_scalar min_count = scalar_of<vx_uint32>(context_, VX_TYPE_UINT32, 0);
  vx_scalar max_count = scalar_of<vx_size>(context_, VX_TYPE_SIZE, 0);
  ASSERT_EQ(vxuMinMaxLoc(context_, image, min_val, max_val, nullptr, nullptr, min_count, max_count), VX_SUCCESS);
  EXPECT_EQ(read_scalar<vx_uint32>(min_count), want.min_count);
  EXPECT_EQ(read_scalar<vx_size>(max_count), want.max_count);
  vx_scalar wrong = scalar_of<vx_int16>(context_, VX_TYPE_INT16, 0);
  EXPECT_EQ(vxuMinMaxLoc(context_, image, min_val, max_val, nullptr, nullptr, wrong, nullptr), VX_ERROR_INVALID_TYPE);
  release_all({ref(image), ref(min_val), ref(max_val), ref(min_count), ref(max_count), ref(wrong)});
}

TEST_F(OpenVx, MinMaxLocReadsARegionAndOpenVirtualOutputsTakeTheirTypes) {
  std::mt19937 rng(10);
  const S16 whole = random_pixels<vx_int16>(30, 20, rng);
  vx_image parent = image_of(context_, whole);
  const vx_rectangle_t rect{5, 3, 26, 16};  // 21x13
  vx_image region = vxCreateImageFromROI(parent, &rect);
  S16 inside{21, 13, {}};
  for (vx_uint32 y = 3; y < 16; ++y) {
    for (vx_uint32 x = 5; x < 26; ++x) inside.values.push_back(whole.at(x, y));
  }
  const Extrema<vx_int16> want = reference_extrema(inside);
  vx_graph graph = vxCreateGraph(context_);
  vx_scalar min_val = vxCreateVirtualScalar(graph, VX_TYPE_INVALID), max_val = scalar_of<vx_int16>(context_, VX_TYPE_INT16, 0);
  vx_scalar min_count = vxCreateVirtualScalar(graph, VX_TYPE_INVALID);
  vx_array min_loc = vxCreateVirtualArray(graph, VX_TYPE_INVALID, 0);
  vx_array max_loc = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 8);
  vx_node node = vxMinMaxLocNode(graph, region, min_val, max_val, min_loc, max_loc, min_count, nullptr);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryScalar(min_val, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT16);
  EXPECT_EQ(vxQueryScalar(min_count, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_SIZE);
  EXPECT_EQ(vxQueryArray(min_loc, VX_ARRAY_ITEMTYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_COORDINATES2D);
  vx_size capacity = 0;
  EXPECT_EQ(vxQueryArray(min_loc, VX_ARRAY_CAPACITY, &capacity, sizeof capacity), VX_SUCCESS);
  EXPECT_EQ(capacity, vx_size{21 * 13}) << "room for every pixel";
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_scalar<vx_int16>(max_val), want.max);
  expect_locations(read_coordinates(max_loc), want.max_locations, 8, "maxLoc of a region");
  release_all({ref(node), ref(min_val), ref(max_val), ref(min_count), ref(min_loc), ref(max_loc), ref(graph), ref(region), ref(parent)});
}

// --- the declarations are kept -------------------------------------------------------------------------------

TEST_F(OpenVx, TheStatisticsKernelsKeepTheirDeclarations) {
  struct Known {
    const char* name;
    vx_enum e;
    vx_uint32 parameters;
  };
  for (const Known& k : {Known{"org.khronos.openvx.integral_image", VX_KERNEL_INTEGRAL_IMAGE, 2},
                         Known{"org.khronos.openvx.histogram", VX_KERNEL_HISTOGRAM, 2},
                         Known{"org.khronos.openvx.equalize_histogram", VX_KERNEL_EQUALIZE_HISTOGRAM, 2},
                         Known{"org.khronos.openvx.minmaxloc", VX_KERNEL_MINMAXLOC, 7}}) {
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

// --- refusals -----------------------------------------------------------------------------------------------

class OpenVxStatisticsRefusals : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
    u8_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    u8b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    s16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    u16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U16);
    u32_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U32);
    small_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U8);
    small32_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U32);
    dist_ = vxCreateDistribution(context_, 16, 0, 256);
    u8_min_ = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr);
    u8_max_ = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr);
    s16_min_ = vxCreateScalar(context_, VX_TYPE_INT16, nullptr);
    s16_max_ = vxCreateScalar(context_, VX_TYPE_INT16, nullptr);
    uint32_ = vxCreateScalar(context_, VX_TYPE_UINT32, nullptr);
    size_ = vxCreateScalar(context_, VX_TYPE_SIZE, nullptr);
  }
  void TearDown() override {
    for (vx_reference r : {ref(graph_), ref(u8_), ref(u8b_), ref(s16_), ref(u16_), ref(u32_), ref(small_), ref(small32_), ref(dist_),
                           ref(u8_min_), ref(u8_max_), ref(s16_min_), ref(s16_max_), ref(uint32_), ref(size_)}) {
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
  vx_image u8_ = nullptr, u8b_ = nullptr, s16_ = nullptr, u16_ = nullptr, u32_ = nullptr, small_ = nullptr, small32_ = nullptr;
  vx_distribution dist_ = nullptr;
  vx_scalar u8_min_ = nullptr, u8_max_ = nullptr, s16_min_ = nullptr, s16_max_ = nullptr, uint32_ = nullptr, size_ = nullptr;
};

TEST_F(OpenVxStatisticsRefusals, WrongFormatsAreInvalidFormat) {
  expect_refused(vxIntegralImageNode(graph_, s16_, u32_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.integral_image: input has format S16");
  expect_refused(vxIntegralImageNode(graph_, u8_, u8b_), VX_ERROR_INVALID_FORMAT, "output has format U8, this kernel makes U32");
  expect_refused(vxHistogramNode(graph_, u16_, dist_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.histogram: input has format U16");
  expect_refused(vxEqualizeHistNode(graph_, s16_, u8_), VX_ERROR_INVALID_FORMAT, "org.khronos.openvx.equalize_histogram: input has format S16");
  expect_refused(vxEqualizeHistNode(graph_, u8_, s16_), VX_ERROR_INVALID_FORMAT, "output has format S16");
  expect_refused(vxMinMaxLocNode(graph_, u16_, u8_min_, u8_max_, nullptr, nullptr, nullptr, nullptr), VX_ERROR_INVALID_FORMAT,
                 "org.khronos.openvx.minmaxloc: input has format U16, only U8 and S16");
}

TEST_F(OpenVxStatisticsRefusals, SizeMismatchesAreInvalidParameters) {
  expect_refused(vxIntegralImageNode(graph_, u8_, small32_), VX_ERROR_INVALID_PARAMETERS, "output is 15x8 but the inputs are 16x8");
  expect_refused(vxEqualizeHistNode(graph_, u8_, small_), VX_ERROR_INVALID_PARAMETERS, "output is 15x8 but the inputs are 16x8");
}

TEST_F(OpenVxStatisticsRefusals, ScalarsAndArraysOfTheWrongTypeAreInvalidType) {
  expect_refused(vxMinMaxLocNode(graph_, u8_, s16_min_, u8_max_, nullptr, nullptr, nullptr, nullptr), VX_ERROR_INVALID_TYPE,
                 "minVal is a scalar of type 0x4, it must be VX_TYPE_UINT8");
  expect_refused(vxMinMaxLocNode(graph_, s16_, s16_min_, u8_max_, nullptr, nullptr, nullptr, nullptr), VX_ERROR_INVALID_TYPE,
                 "maxVal is a scalar of type");
  expect_refused(vxMinMaxLocNode(graph_, u8_, u8_min_, u8_max_, nullptr, nullptr, s16_min_, nullptr), VX_ERROR_INVALID_TYPE,
                 "minCount is a scalar of type 0x4, it must be VX_TYPE_SIZE or VX_TYPE_UINT32");
  expect_refused(vxMinMaxLocNode(graph_, u8_, u8_min_, u8_max_, nullptr, nullptr, size_, s16_max_), VX_ERROR_INVALID_TYPE,
                 "maxCount is a scalar of type");
  vx_array rectangles = vxCreateArray(context_, VX_TYPE_RECTANGLE, 10);
  expect_refused(vxMinMaxLocNode(graph_, u8_, u8_min_, u8_max_, rectangles, nullptr, nullptr, nullptr), VX_ERROR_INVALID_TYPE,
                 "minLoc is an array of items of type");
  expect_refused(vxMinMaxLocNode(graph_, u8_, u8_min_, u8_max_, nullptr, rectangles, nullptr, nullptr), VX_ERROR_INVALID_TYPE,
                 "maxLoc is an array of items of type");
  EXPECT_EQ(vxReleaseArray(&rectangles), VX_SUCCESS);
}

TEST_F(OpenVxStatisticsRefusals, AnOpenVirtualDistributionIsRefused) {
  vx_distribution open = vxCreateVirtualDistribution(graph_, 0, 0, 0);
  ASSERT_EQ(status_of(open), VX_SUCCESS);
  expect_refused(vxHistogramNode(graph_, u8_, open), VX_ERROR_INVALID_PARAMETERS, "distribution is a virtual distribution with no bins");
  EXPECT_EQ(vxReleaseDistribution(&open), VX_SUCCESS);
  // One with its bins and range given is fine.
  vx_distribution given = vxCreateVirtualDistribution(graph_, 8, -3, 64);
  vx_node node = vxHistogramNode(graph_, u8_, given);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDistribution(&given), VX_SUCCESS);
}

TEST_F(OpenVxStatisticsRefusals, ImmediateModeRefusesWhatTheNodeRefuses) {
  EXPECT_EQ(vxuIntegralImage(context_, s16_, u32_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuIntegralImage(context_, u8_, small32_), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxuHistogram(context_, s16_, dist_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuEqualizeHist(context_, u8_, s16_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxuMinMaxLoc(context_, u8_, s16_min_, u8_max_, nullptr, nullptr, nullptr, nullptr), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxuMinMaxLoc(context_, u32_, u8_min_, u8_max_, nullptr, nullptr, nullptr, nullptr), VX_ERROR_INVALID_FORMAT);
}

}  // namespace
