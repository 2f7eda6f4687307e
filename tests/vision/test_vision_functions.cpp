// The vision functions (kernels/vision) on every instruction set Highway compiled in and this CPU runs
// (AVX-512 / AVX2 / SSE4 here, NEON / SVE under QEMU in the arm64 cross build, the portable fallback
// everywhere), against a reference written from the definitions, and against OpenCV's functions where they
// compute the same thing (cvtColor, erode, dilate, medianBlur: bit-identical).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "visiongraph/kernels/vision/accumulate.hpp"
#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/channels.hpp"
#include "visiongraph/kernels/vision/convert_depth.hpp"
#include "visiongraph/kernels/vision/convolve.hpp"
#include "visiongraph/kernels/vision/lbp.hpp"
#include "visiongraph/kernels/vision/non_max_suppression.hpp"
#include "visiongraph/kernels/vision/downscale.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/gradients.hpp"
#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/lookup.hpp"
#include "visiongraph/kernels/vision/rgb_to_yuv.hpp"
#include "visiongraph/kernels/vision/scale.hpp"
#include "visiongraph/kernels/vision/simd.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"
#include "visiongraph/kernels/vision/threshold.hpp"
#include "visiongraph/kernels/vision/to_gray.hpp"
#include "visiongraph/kernels/vision/yuv_to_rgb.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// An 8-bit image with padding after each row (so stride != width is exercised; 0: rows packed and the
/// allocation ends with the last pixel, so ASan sees any read past it), filled at random.
struct TestImage {
  TestImage(std::uint32_t w, std::uint32_t h, std::uint32_t channels, std::uint32_t seed, std::uint32_t padding = 7)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w * channels + padding)), bytes(static_cast<std::size_t>(stride) * h) {
    std::mt19937 rng(seed);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  }
  ConstPlane cplane() const { return {bytes.data(), width, height, stride}; }
  Plane plane() { return {bytes.data(), width, height, stride}; }
  std::uint8_t at(std::uint32_t x, std::uint32_t y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  cv::Mat mat(int type) { return cv::Mat(static_cast<int>(height), static_cast<int>(width), type, bytes.data(), static_cast<std::size_t>(stride)); }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

/// The reference: the definitions of filter3x3.hpp, one pixel at a time.
std::uint8_t reference_filter(Filter3x3 f, const TestImage& in, Border border, int x, int y) {
  std::vector<int> v;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int sx = x + dx, sy = y + dy;
      const bool outside = sx < 0 || sy < 0 || sx >= static_cast<int>(in.width) || sy >= static_cast<int>(in.height);
      if (outside && border.mode == BorderMode::constant) {
        v.push_back(border.constant);
        continue;
      }
      sx = std::clamp(sx, 0, static_cast<int>(in.width) - 1);
      sy = std::clamp(sy, 0, static_cast<int>(in.height) - 1);
      v.push_back(in.at(static_cast<std::uint32_t>(sx), static_cast<std::uint32_t>(sy)));
    }
  }
  const int weights[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  int sum = 0, weighted = 0;
  for (int i = 0; i < 9; ++i) sum += v[static_cast<std::size_t>(i)], weighted += weights[i] * v[static_cast<std::size_t>(i)];
  switch (f) {
    case Filter3x3::gaussian: return static_cast<std::uint8_t>(weighted / 16);
    case Filter3x3::box: return static_cast<std::uint8_t>(sum / 9);
    case Filter3x3::erode: return static_cast<std::uint8_t>(*std::min_element(v.begin(), v.end()));
    case Filter3x3::dilate: return static_cast<std::uint8_t>(*std::max_element(v.begin(), v.end()));
    case Filter3x3::median: std::sort(v.begin(), v.end()); return static_cast<std::uint8_t>(v[4]);
  }
  return 0;
}

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards.
class EverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

constexpr Filter3x3 kFilters[] = {Filter3x3::gaussian, Filter3x3::box, Filter3x3::median, Filter3x3::erode, Filter3x3::dilate};

TEST_P(EverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(EverySimdTarget, FiltersMatchTheReferenceAtEverySizeAndBorder) {
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {2, 5}, {3, 3}, {4, 2}, {17, 9}, {33, 4}, {67, 33}, {130, 7}, {641, 11}};
  const Border borders[] = {{BorderMode::replicate, 0}, {BorderMode::constant, 0}, {BorderMode::constant, 201}};
  std::uint32_t seed = 1;
  for (const auto& [w, h] : sizes) {
    const TestImage in(w, h, 1, seed, seed % 2 == 0 ? 0 : 7);
    ++seed;
    for (Filter3x3 f : kFilters) {
      for (const Border& border : borders) {
        TestImage out(w, h, 1, 99);
        const std::vector<std::uint8_t> before = out.bytes;
        filter3x3(f, in.cplane(), out.plane(), border);
        for (std::uint32_t y = 0; y < h; ++y) {
          for (std::uint32_t x = 0; x < w; ++x) {
            ASSERT_EQ(out.at(x, y), reference_filter(f, in, border, static_cast<int>(x), static_cast<int>(y)))
                << to_string(f) << " " << w << "x" << h << " border " << (border.mode == BorderMode::constant ? "constant " : "replicate ")
                << int{border.constant} << " at (" << x << ", " << y << ")";
          }
          // The row padding is not written.
          for (std::ptrdiff_t p = w; p < out.stride; ++p) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(out.stride) + static_cast<std::size_t>(p);
            ASSERT_EQ(out.bytes[i], before[i]) << to_string(f) << " wrote padding of row " << y;
          }
        }
      }
    }
  }
}

TEST_P(EverySimdTarget, BandsOfRowsAddUpToTheWholeFrame) {
  const TestImage in(203, 61, 1, 5);
  for (Filter3x3 f : kFilters) {
    TestImage whole(203, 61, 1, 0), banded(203, 61, 1, 0);
    filter3x3(f, in.cplane(), whole.plane(), {});
    for (std::uint32_t begin = 0; begin < 61; begin += 13) filter3x3(f, in.cplane(), banded.plane(), {}, {begin, begin + 13});
    EXPECT_EQ(whole.bytes, banded.bytes) << to_string(f);
  }
}

TEST(VisionFilters, BoxDivisionByMultiplyIsExactForEverySum) {
  // The vector box filter divides by 9 as (sum * 7282) >> 16; every 3x3 sum of bytes is 0..2295.
  for (unsigned sum = 0; sum <= 9 * 255; ++sum) ASSERT_EQ((sum * 7282u) >> 16, sum / 9u) << sum;
}

TEST_P(EverySimdTarget, ExtremesDoNotOverflow) {
  for (std::uint8_t value : {std::uint8_t{0}, std::uint8_t{255}}) {
    TestImage in(97, 5, 1, 0), out(97, 5, 1, 0);
    std::fill(in.bytes.begin(), in.bytes.end(), value);
    for (Filter3x3 f : kFilters) {
      filter3x3(f, in.cplane(), out.plane(), {});
      for (std::uint32_t y = 0; y < 5; ++y)
        for (std::uint32_t x = 0; x < 97; ++x) ASSERT_EQ(out.at(x, y), value) << to_string(f);
    }
  }
}

TEST_P(EverySimdTarget, ErodeDilateAndMedianAreOpenCvsOwnResults) {
  // Under a replicate border OpenCV computes the same functions: bit-identical at any size.
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{640, 480}, {123, 45}}) {
    TestImage in(w, h, 1, 3), out(w, h, 1, 0);
    cv::Mat src = in.mat(CV_8UC1), expected;
    const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
    filter3x3(Filter3x3::erode, in.cplane(), out.plane(), {});
    cv::erode(src, expected, kernel, {-1, -1}, 1, cv::BORDER_REPLICATE);
    EXPECT_EQ(cv::norm(out.mat(CV_8UC1), expected, cv::NORM_INF), 0.0) << "erode";
    filter3x3(Filter3x3::dilate, in.cplane(), out.plane(), {});
    cv::dilate(src, expected, kernel, {-1, -1}, 1, cv::BORDER_REPLICATE);
    EXPECT_EQ(cv::norm(out.mat(CV_8UC1), expected, cv::NORM_INF), 0.0) << "dilate";
    filter3x3(Filter3x3::median, in.cplane(), out.plane(), {});
    cv::medianBlur(src, expected, 3);
    EXPECT_EQ(cv::norm(out.mat(CV_8UC1), expected, cv::NORM_INF), 0.0) << "median";
  }
}

TEST_P(EverySimdTarget, ThresholdBinaryAndRange) {
  const TestImage in(333, 17, 1, 11);
  for (const Threshold t : {Threshold{Threshold::Type::binary, 100, 0, 0, 255, 0}, Threshold{Threshold::Type::binary, 0, 0, 0, 7, 9},
                            Threshold{Threshold::Type::binary, 255, 0, 0, 1, 2}, Threshold{Threshold::Type::range, 0, 50, 90, 200, 10},
                            Threshold{Threshold::Type::range, 0, 0, 255, 3, 4}, Threshold{Threshold::Type::range, 0, 77, 77, 255, 0}}) {
    TestImage out(333, 17, 1, 0);
    threshold(t, in.cplane(), out.plane());
    for (std::uint32_t y = 0; y < 17; ++y) {
      for (std::uint32_t x = 0; x < 333; ++x) {
        const std::uint8_t v = in.at(x, y);
        const bool on = t.type == Threshold::Type::binary ? v > t.value : (v >= t.lower && v <= t.upper);
        ASSERT_EQ(out.at(x, y), on ? t.true_value : t.false_value) << "pixel " << int{v} << " at " << x << "," << y;
      }
    }
  }
}

TEST_P(EverySimdTarget, ToGrayIsOpenCvsCvtColor) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{640, 480}, {37, 3}, {1, 1}}) {
    TestImage in(w, h, 3, 21, 0), out(w, h, 1, 0, 0);
    for (const bool bgr : {true, false}) {
      to_gray({in.bytes.data(), w, h, in.stride, bgr}, out.plane());
      cv::Mat expected;
      cv::cvtColor(in.mat(CV_8UC3), expected, bgr ? cv::COLOR_BGR2GRAY : cv::COLOR_RGB2GRAY);
      EXPECT_EQ(cv::norm(out.mat(CV_8UC1), expected, cv::NORM_INF), 0.0) << (bgr ? "BGR " : "RGB ") << w << "x" << h;
    }
  }
}

/// A U8 or S16 plane (S16: random over the whole range, with the extremes in the first pixels).
struct TypedImage {
  TypedImage(std::uint32_t w, std::uint32_t h, PixelType t, std::uint32_t seed, std::uint32_t padding = 3)
      : image(w * static_cast<std::uint32_t>(pixel_size(t)), h, 1, seed, padding * static_cast<std::uint32_t>(pixel_size(t))), type(t), width(w) {
    if (t == PixelType::s16 && w >= 4) {
      const std::int16_t extremes[4] = {-32768, 32767, -32767, 0};
      std::memcpy(image.bytes.data(), extremes, sizeof extremes);
    }
  }
  ConstPixels cpixels() const { return {image.bytes.data(), width, image.height, image.stride, type}; }
  Pixels pixels() { return {image.bytes.data(), width, image.height, image.stride, type}; }
  int at(std::uint32_t x, std::uint32_t y) const {
    const std::uint8_t* row = image.bytes.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(image.stride);
    if (type == PixelType::u8) return row[x];
    std::int16_t v;
    std::memcpy(&v, row + 2 * x, 2);
    return v;
  }
  TestImage image;
  PixelType type;
  std::uint32_t width;
};

int reference_arithmetic(Arithmetic op, int a, int b, PixelType out, Overflow overflow) {
  const int exact = op == Arithmetic::add ? a + b : op == Arithmetic::subtract ? a - b : std::abs(a - b);
  const int lo = out == PixelType::u8 ? 0 : -32768, hi = out == PixelType::u8 ? 255 : 32767;
  if (overflow == Overflow::saturate || op == Arithmetic::absdiff) return std::clamp(exact, lo, hi);
  return out == PixelType::u8 ? static_cast<std::uint8_t>(exact) : static_cast<std::int16_t>(static_cast<std::uint16_t>(exact));
}

TEST_P(EverySimdTarget, ArithmeticOfEveryTypeCombinationAndPolicy) {
  const PixelType u8 = PixelType::u8, s16 = PixelType::s16;
  const PixelType combos[][3] = {{u8, u8, u8}, {u8, u8, s16}, {u8, s16, s16}, {s16, u8, s16}, {s16, s16, s16}};
  for (const auto& c : combos) {
    for (Arithmetic op : {Arithmetic::add, Arithmetic::subtract, Arithmetic::absdiff}) {
      for (Overflow overflow : {Overflow::wrap, Overflow::saturate}) {
        const TypedImage a(141, 9, c[0], 31), b(141, 9, c[1], 32);
        TypedImage out(141, 9, c[2], 33);
        ASSERT_TRUE(arithmetic(op, a.cpixels(), b.cpixels(), out.pixels(), overflow));
        for (std::uint32_t y = 0; y < 9; ++y)
          for (std::uint32_t x = 0; x < 141; ++x)
            ASSERT_EQ(out.at(x, y), reference_arithmetic(op, a.at(x, y), b.at(x, y), c[2], overflow))
                << "op " << int(op) << " overflow " << int(overflow) << " types " << int(c[0]) << int(c[1]) << int(c[2]) << " at " << x << "," << y;
      }
    }
  }
  const TypedImage a(8, 2, s16, 1), b(8, 2, s16, 2);
  TypedImage out(8, 2, u8, 3);
  EXPECT_FALSE(arithmetic(Arithmetic::add, a.cpixels(), b.cpixels(), out.pixels(), Overflow::wrap)) << "S16 inputs into a U8 output";
}

/// Multiply's definition, written independently of the library: the product exact in 64 bits, one double
/// multiplication by the scale, rounding by the C library (nearbyint rounds ties to even in the default
/// mode), the low 16 bits of the integer for wrap (every output span divides 2^16).
int reference_multiply(int a, int b, double scale, PixelType out, Overflow overflow, bool nearest_even) {
  const double scaled = static_cast<double>(static_cast<std::int64_t>(a) * b) * scale;
  const double r = nearest_even ? std::nearbyint(scaled) : std::trunc(scaled);
  const double lo = out == PixelType::u8 ? 0 : -32768, hi = out == PixelType::u8 ? 255 : 32767;
  if (overflow == Overflow::saturate) return static_cast<int>(std::clamp(r, lo, hi));
  const auto low16 = static_cast<std::uint16_t>(static_cast<std::int64_t>(std::fmod(r, 65536.0)));
  return out == PixelType::u8 ? static_cast<std::uint8_t>(low16) : static_cast<std::int16_t>(low16);
}

TEST_P(EverySimdTarget, MultiplyOfEveryTypeCombinationPolicyAndScale) {
  const PixelType u8 = PixelType::u8, s16 = PixelType::s16;
  const PixelType combos[][3] = {{u8, u8, u8}, {u8, u8, s16}, {u8, s16, s16}, {s16, u8, s16}, {s16, s16, s16}};
  // The specification's required scales (1, 1/255, 1/2^n), ties (1/2, 1/4), zero, above one, and scales
  // whose results leave int32 (the wrap of very large values).
  const double scales[] = {1.0, 1.0 / 255, 1.0 / 2, 1.0 / 4, 1.0 / 32768, 0.0, 0.3f, 3.0, 1.0 / 3, 70000.0, 1e30};
  for (const auto& c : combos) {
    for (const double scale : scales) {
      for (Overflow overflow : {Overflow::wrap, Overflow::saturate}) {
        for (bool nearest_even : {false, true}) {
          const TypedImage a(141, 5, c[0], 51), b(141, 5, c[1], 52);
          TypedImage out(141, 5, c[2], 53);
          ASSERT_TRUE(multiply(a.cpixels(), b.cpixels(), out.pixels(), scale, overflow, nearest_even));
          for (std::uint32_t y = 0; y < 5; ++y)
            for (std::uint32_t x = 0; x < 141; ++x)
              ASSERT_EQ(out.at(x, y), reference_multiply(a.at(x, y), b.at(x, y), scale, c[2], overflow, nearest_even))
                  << "scale " << scale << " overflow " << int(overflow) << " nearest_even " << nearest_even << " types " << int(c[0])
                  << int(c[1]) << int(c[2]) << " of " << a.at(x, y) << " and " << b.at(x, y) << " at " << x << "," << y;
        }
      }
    }
  }
  // Rows: only those asked for are written.
  const TypedImage a(33, 6, u8, 1), b(33, 6, u8, 2);
  TypedImage out(33, 6, u8, 3);
  const std::vector<std::uint8_t> before = out.image.bytes;
  ASSERT_TRUE(multiply(a.cpixels(), b.cpixels(), out.pixels(), 1.0 / 255, Overflow::saturate, true, Rows{2, 4}));
  for (std::uint32_t y = 0; y < 6; ++y)
    for (std::uint32_t x = 0; x < 33; ++x) {
      const int want = y >= 2 && y < 4 ? reference_multiply(a.at(x, y), b.at(x, y), 1.0 / 255, u8, Overflow::saturate, true)
                                       : before[y * static_cast<std::size_t>(out.image.stride) + x];
      ASSERT_EQ(out.at(x, y), want) << x << "," << y;
    }
  const TypedImage s(8, 2, s16, 1), t(8, 2, s16, 2);
  TypedImage narrow(8, 2, u8, 3);
  EXPECT_FALSE(multiply(s.cpixels(), t.cpixels(), narrow.pixels(), 1.0, Overflow::wrap, false)) << "S16 inputs into a U8 output";
}

/// Writes @p v at (x, y) of @p image (U8 or S16).
void put(TypedImage& image, std::uint32_t x, std::uint32_t y, int v) {
  std::uint8_t* row = image.image.bytes.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(image.image.stride);
  if (image.type == PixelType::u8) {
    row[x] = static_cast<std::uint8_t>(v);
    return;
  }
  const auto s = static_cast<std::int16_t>(v);
  std::memcpy(row + 2 * x, &s, 2);
}

/// Multiply's integer forms (scale 1, 2^-n, and 1/255 for two U8 inputs) give the double definition's bytes
/// for every product: every pair of U8 inputs; for an S16 input every one of its 65,536 values against edge
/// values of the other. Scales next to those take the double path and are checked too.
TEST_P(EverySimdTarget, MultiplyIntegerScalesMatchTheDefinitionForEveryProduct) {
  const PixelType u8 = PixelType::u8, s16 = PixelType::s16;
  std::vector<double> scales;
  for (int n = 0; n <= 16; ++n) scales.push_back(std::ldexp(1.0, -n));
  const float f255 = 1.0f / 255.0f;
  scales.insert(scales.end(), {1.0 / 255, static_cast<double>(f255), static_cast<double>(std::nextafter(f255, 1.0f)),
                               std::nextafter(1.0 / 255, 0.0), std::nextafter(1.0, 2.0), std::nextafter(0.5, 0.0)});
  auto check = [&](const TypedImage& a, const TypedImage& b, PixelType to, const std::vector<double>& which) {
    for (const double scale : which) {
      for (Overflow overflow : {Overflow::wrap, Overflow::saturate}) {
        for (bool nearest_even : {false, true}) {
          TypedImage out(a.width, a.image.height, to, 7);
          ASSERT_TRUE(multiply(a.cpixels(), b.cpixels(), out.pixels(), scale, overflow, nearest_even));
          for (std::uint32_t y = 0; y < a.image.height; ++y)
            for (std::uint32_t x = 0; x < a.width; ++x)
              ASSERT_EQ(out.at(x, y), reference_multiply(a.at(x, y), b.at(x, y), scale, to, overflow, nearest_even))
                  << "scale " << scale << " overflow " << int(overflow) << " nearest_even " << nearest_even << " types " << int(a.type)
                  << int(b.type) << int(to) << " of " << a.at(x, y) << " and " << b.at(x, y);
        }
      }
    }
  };
  // U8 x U8: a = x, b = y over 256 x 256, three more columns for the vectors' tails.
  {
    TypedImage a(259, 256, u8, 1), b(259, 256, u8, 2);
    for (std::uint32_t y = 0; y < 256; ++y)
      for (std::uint32_t x = 0; x < 259; ++x) put(a, x, y, static_cast<int>(x % 256)), put(b, x, y, static_cast<int>(y));
    check(a, b, u8, scales);
    check(a, b, s16, scales);
  }
  // An S16 input takes all 65,536 values (256 x 256); the other input cycles through edges, each pass
  // shifted by one so that every value meets every edge.
  const int s16_edges[] = {-32768, -32767, -32766, -256, -255, -129, -128, -3, -2, -1, 0, 1, 2, 3, 127, 128, 255, 256, 32766, 32767};
  const int u8_edges[] = {0, 1, 2, 3, 127, 128, 129, 254, 255};
  const std::vector<double> s16_scales = {1.0, 0.5, 0.25, 1.0 / 128, 1.0 / 256, 1.0 / 32768, 1.0 / 65536, static_cast<double>(f255)};
  const PixelType combos[][2] = {{s16, s16}, {u8, s16}, {s16, u8}};
  for (const auto& c : combos) {
    const bool u8_other = c[0] == u8 || c[1] == u8;
    const int* edges = u8_other ? u8_edges : s16_edges;
    const std::size_t n = u8_other ? std::size(u8_edges) : std::size(s16_edges);
    for (std::size_t pass = 0; pass < n; ++pass) {
      TypedImage a(256, 256, c[0], 3), b(256, 256, c[1], 4);
      TypedImage& full = c[1] == s16 ? b : a;  // the S16 operand taking every value
      TypedImage& other = c[1] == s16 ? a : b;
      for (std::uint32_t y = 0; y < 256; ++y)
        for (std::uint32_t x = 0; x < 256; ++x) {
          put(full, x, y, static_cast<int>(y * 256 + x) - 32768);
          put(other, x, y, edges[(x + y + pass) % n]);
        }
      check(a, b, s16, s16_scales);
    }
  }
}

/// ScaleImage as libopenvx computed it pixel by pixel before scale_image (sampling.hpp there): the
/// single-precision source position, the input's pixels inside and the border outside.
std::uint8_t reference_scale(const TestImage& in, Border border, ScaleInterpolation type, std::uint32_t x, std::uint32_t y,
                             std::uint32_t w_out, std::uint32_t h_out) {
  const auto w_in = static_cast<float>(in.width), h_in = static_cast<float>(in.height);
  auto pixel = [&](float px, float py) -> std::uint8_t {
    if (px >= 0.0f && px < w_in && py >= 0.0f && py < h_in) return in.at(static_cast<std::uint32_t>(px), static_cast<std::uint32_t>(py));
    if (border.mode == BorderMode::constant) return border.constant;
    auto clamp = [](float v, float end) { return !(v >= 0.0f) ? 0u : v >= end ? static_cast<std::uint32_t>(end) - 1 : static_cast<std::uint32_t>(v); };
    return in.at(clamp(px, w_in), clamp(py, h_in));
  };
  if (type == ScaleInterpolation::area) {
    const double fx = static_cast<double>(in.width) / w_out, fy = static_cast<double>(in.height) / h_out;
    const double x0 = x * fx, x1 = (x + 1) * fx, y0 = y * fy, y1 = (y + 1) * fy;
    double sum = 0.0, total = 0.0;
    for (double yi = std::floor(y0); yi < y1; yi += 1.0) {
      const double wy = std::min(y1, yi + 1.0) - std::max(y0, yi);
      if (wy <= 0.0) continue;
      for (double xi = std::floor(x0); xi < x1; xi += 1.0) {
        const double wx = std::min(x1, xi + 1.0) - std::max(x0, xi);
        if (wx <= 0.0) continue;
        sum += wx * wy * pixel(static_cast<float>(xi), static_cast<float>(yi));
        total += wx * wy;
      }
    }
    const double mean = total > 0.0 ? sum / total : 0.0;
    return static_cast<std::uint8_t>(std::min(mean + 0.5, 255.0));
  }
  const float sx = ((static_cast<float>(x) + 0.5f) * w_in / static_cast<float>(w_out)) - 0.5f;
  const float sy = ((static_cast<float>(y) + 0.5f) * h_in / static_cast<float>(h_out)) - 0.5f;
  if (type == ScaleInterpolation::nearest) {
    auto half_up = [](float v) { const float whole = std::floor(v); return v - whole >= 0.5f ? whole + 1.0f : whole; };
    return pixel(half_up(sx), half_up(sy));
  }
  const float x0 = std::floor(sx), y0 = std::floor(sy);
  const float s = sx - x0, t = sy - y0;
  const std::uint8_t p00 = pixel(x0, y0), p10 = pixel(x0 + 1.0f, y0), p01 = pixel(x0, y0 + 1.0f), p11 = pixel(x0 + 1.0f, y0 + 1.0f);
  const float v = (1.0f - s) * (1.0f - t) * p00 + s * (1.0f - t) * p10 + (1.0f - s) * t * p01 + s * t * p11;
  return static_cast<std::uint8_t>(std::min(v + 0.5f, 255.0f));
}

TEST_P(EverySimdTarget, ScaleImageIsThePerPixelDefinitionAtEveryRatioAndBorder) {
  struct Case {
    std::uint32_t wi, hi, wo, ho;
  };
  // Down and up, 3/5 and 5/3, near 1, 2:1, 7:1 and 12:1 (AREA's widest vectorised and beyond), tiny and
  // single-row images, widths across the column chunks.
  const Case cases[] = {{1920 / 4, 1080 / 4, 1920 * 3 / 20, 1080 * 3 / 20}, {640, 48, 384, 29}, {97, 61, 161, 101}, {33, 17, 31, 15},
                        {1, 1, 7, 5},  {2, 3, 9, 1}, {5, 4, 3, 2}, {3, 2, 64, 33}, {1100, 9, 1037, 13}, {700, 5, 1300, 4},
                        {64, 64, 32, 32}, {17, 13, 17, 13}, {4, 4, 5, 5}, {259, 7, 37, 3}, {8, 200, 1030, 3},
                        {700, 70, 100, 10}, {1200, 37, 100, 3}, {61, 59, 60, 58}};
  const Border borders[] = {{BorderMode::replicate, 0}, {BorderMode::constant, 0}, {BorderMode::constant, 201}};
  std::uint32_t seed = 11;
  for (const Case& c : cases) {
    const TestImage in(c.wi, c.hi, 1, seed, seed % 2 == 0 ? 0 : 5);
    ++seed;
    for (const ScaleInterpolation type : {ScaleInterpolation::bilinear, ScaleInterpolation::nearest, ScaleInterpolation::area}) {
      for (const Border& border : borders) {
        TestImage out(c.wo, c.ho, 1, 3);
        const std::vector<std::uint8_t> before = out.bytes;
        scale_image(in.cplane(), out.plane(), type, border);
        for (std::uint32_t y = 0; y < c.ho; ++y) {
          for (std::uint32_t x = 0; x < c.wo; ++x) {
            ASSERT_EQ(int{out.at(x, y)}, int{reference_scale(in, border, type, x, y, c.wo, c.ho)})
                << c.wi << "x" << c.hi << " -> " << c.wo << "x" << c.ho << " interpolation " << int(type) << " border "
                << int(border.mode) << "/" << int{border.constant} << " at (" << x << ", " << y << ")";
          }
          for (std::ptrdiff_t p = c.wo; p < out.stride; ++p) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(out.stride) + static_cast<std::size_t>(p);
            ASSERT_EQ(out.bytes[i], before[i]) << "padding of row " << y << " written";
          }
        }
      }
    }
  }
  // Bands of rows add up to the whole frame.
  const TestImage in(301, 77, 1, 5);
  for (const ScaleInterpolation type : {ScaleInterpolation::bilinear, ScaleInterpolation::nearest, ScaleInterpolation::area}) {
    TestImage whole(181, 47, 1, 0), banded(181, 47, 1, 0);
    scale_image(in.cplane(), whole.plane(), type, {});
    for (std::uint32_t begin = 0; begin < 47; begin += 10) scale_image(in.cplane(), banded.plane(), type, {}, {begin, begin + 10});
    EXPECT_EQ(whole.bytes, banded.bytes) << int(type);
  }
}

// NV12 / NV21 to RGB / RGBX: every byte as the definition computes it (yuv_to_rgb.hpp), for BT.709 and
// BT.601, odd and even sizes, rows longer than the function's 256-pixel chunks, padded strides.
TEST_P(EverySimdTarget, SemiPlanarYuvToRgbIsTheDefinition) {
  for (const auto& [kr, kb] : {std::pair{0.2126f, 0.0722f}, std::pair{0.299f, 0.114f}}) {
    const YuvToRgbFactors f = YuvToRgbFactors::of(kr, kb);
    const float kg = 1.0f - kr - kb;
    ASSERT_EQ(f.gu, kb * (2.0f * (1.0f - kb)) / kg);
    for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {2, 2}, {7, 3}, {130, 6}, {600, 4}}) {
      const TestImage luma(w, h, 1, w * 3 + h, 5), chroma((w + 1) / 2 * 2, (h + 1) / 2, 1, w + 7 * h, 3);
      for (const bool vu : {false, true}) {
        for (const bool rgbx : {false, true}) {
          const std::uint32_t channels = rgbx ? 4 : 3;
          TestImage out(w, h, channels, 1, 5);
          const TestImage untouched(w, h, channels, 1, 5);
          const ConstSemiPlanar in{luma.cplane(), chroma.bytes.data(), chroma.stride, vu};
          yuv420sp_to_rgb(in, out.plane(), rgbx, f);
          for (std::uint32_t y = 0; y < h; ++y) {
            for (std::uint32_t x = 0; x < w; ++x) {
              const std::uint8_t u = chroma.at(x / 2 * 2 + (vu ? 1 : 0), y / 2), v = chroma.at(x / 2 * 2 + (vu ? 0 : 1), y / 2);
              const float yf = luma.at(x, y), cu = static_cast<float>(u) - 128.0f, cv = static_cast<float>(v) - 128.0f;
              const float want[3] = {yf + f.rv * cv + 0.5f, yf - f.gu * cu - f.gv * cv + 0.5f, yf + f.bu * cu + 0.5f};
              for (std::uint32_t c = 0; c < 3; ++c) {
                ASSERT_EQ(out.at(x * channels + c, y), std::clamp(static_cast<int>(want[c]), 0, 255))
                    << w << "x" << h << (vu ? " NV21" : " NV12") << " channel " << c << " at " << x << "," << y;
              }
              if (rgbx) {
                ASSERT_EQ(out.at(x * channels + 3, y), 255);
              }
            }
            // Padding after the row is not written.
            for (std::uint32_t p = w * channels; p < static_cast<std::uint32_t>(out.stride); ++p) {
              const std::size_t at = y * static_cast<std::size_t>(out.stride) + p;
              ASSERT_EQ(out.bytes[at], untouched.bytes[at]);
            }
          }
        }
      }
    }
  }
}

TEST_P(EverySimdTarget, ChannelsCombineAndExtractAsBytes) {
  for (const int count : {3, 4}) {
    for (const std::uint32_t w : {1u, 5u, 67u, 300u}) {
      const std::uint32_t h = 3;
      const TestImage p0(w, h, 1, 11), p1(w, h, 1, 12), p2(w, h, 1, 13), p3(w, h, 1, 14);
      const ConstPlane planes[4] = {p0.cplane(), p1.cplane(), p2.cplane(), p3.cplane()};
      TestImage packed(w, h, static_cast<std::uint32_t>(count), 15);
      const TestImage before = packed;
      combine_channels(planes, count, Plane{packed.bytes.data(), w, h, packed.stride});
      const TestImage* sources[4] = {&p0, &p1, &p2, &p3};
      for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x)
          for (int c = 0; c < count; ++c)
            ASSERT_EQ(packed.at(x * static_cast<std::uint32_t>(count) + static_cast<std::uint32_t>(c), y), sources[c]->at(x, y)) << count << " " << w << " " << x;
        for (auto p = static_cast<std::ptrdiff_t>(w) * count; p < packed.stride; ++p)
          ASSERT_EQ(packed.bytes[y * static_cast<std::size_t>(packed.stride) + static_cast<std::size_t>(p)], before.bytes[y * static_cast<std::size_t>(packed.stride) + static_cast<std::size_t>(p)]);
      }
      for (int c = 0; c < count; ++c) {
        TestImage out(w, h, 1, 16);
        extract_channel(ConstPlane{packed.bytes.data(), w, h, packed.stride}, count, c, out.plane());
        for (std::uint32_t y = 0; y < h; ++y)
          for (std::uint32_t x = 0; x < w; ++x) ASSERT_EQ(out.at(x, y), sources[c]->at(x, y)) << "channel " << c;
      }
    }
  }
}

TEST_P(EverySimdTarget, ConvertDepthBothWaysEveryShiftAndPolicy) {
  for (int shift = 0; shift < 8; ++shift) {
    const TypedImage u8(141, 3, PixelType::u8, 61), s16(141, 3, PixelType::s16, 62);
    TypedImage up(141, 3, PixelType::s16, 63);
    ASSERT_TRUE(convert_depth(u8.cpixels(), up.pixels(), shift, Overflow::wrap));
    for (Overflow overflow : {Overflow::wrap, Overflow::saturate}) {
      TypedImage down(141, 3, PixelType::u8, 64);
      ASSERT_TRUE(convert_depth(s16.cpixels(), down.pixels(), shift, overflow));
      for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 141; ++x) {
          const int v = s16.at(x, y) >> shift;
          ASSERT_EQ(down.at(x, y), overflow == Overflow::saturate ? std::clamp(v, 0, 255) : (v & 0xFF)) << shift << " " << s16.at(x, y);
          ASSERT_EQ(up.at(x, y), static_cast<std::int16_t>(u8.at(x, y) << shift));
        }
    }
  }
  const TypedImage a(8, 2, PixelType::u8, 1);
  TypedImage b(8, 2, PixelType::u8, 2);
  EXPECT_FALSE(convert_depth(a.cpixels(), b.pixels(), 1, Overflow::wrap)) << "U8 to U8";
  TypedImage c(8, 2, PixelType::s16, 2);
  EXPECT_FALSE(convert_depth(a.cpixels(), c.pixels(), 8, Overflow::wrap)) << "shift 8";
}

TEST_P(EverySimdTarget, WeightedAverageAndAccumulations) {
  const TestImage a(141, 3, 1, 71), b(141, 3, 1, 72);
  for (const float alpha : {0.0f, 0.25f, 0.5f, 0.3f, 0.77f, 1.0f}) {
    TestImage out(141, 3, 1, 73);
    weighted_average(a.cplane(), b.cplane(), alpha, out.plane());
    for (std::uint32_t y = 0; y < 3; ++y)
      for (std::uint32_t x = 0; x < 141; ++x) {
        // The specification's reference: each product exact in double, rounded to float; the sum likewise.
        const auto p1 = static_cast<float>(static_cast<double>(1.0f - alpha) * a.at(x, y));
        const auto p2 = static_cast<float>(static_cast<double>(alpha) * b.at(x, y));
        const auto sum = static_cast<float>(static_cast<double>(p1) + static_cast<double>(p2));
        ASSERT_EQ(out.at(x, y), static_cast<std::uint8_t>(sum)) << alpha << " at " << x;
      }
    // In place, as AccumulateWeighted updates its accumulator.
    TestImage acc = a;
    weighted_average(acc.cplane(), b.cplane(), alpha, acc.plane());
    for (std::uint32_t y = 0; y < 3; ++y)
      for (std::uint32_t x = 0; x < 141; ++x) ASSERT_EQ(acc.at(x, y), out.at(x, y)) << alpha;
  }
  for (const unsigned shift : {0u, 1u, 7u, 15u}) {
    for (const bool square : {false, true}) {
      TypedImage acc(141, 3, PixelType::s16, 74);
      const TypedImage before = acc;
      ASSERT_TRUE(square ? accumulate_square(a.cplane(), acc.pixels(), shift) : accumulate(a.cplane(), acc.pixels()));
      for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 141; ++x) {
          const int add = square ? static_cast<int>((static_cast<unsigned>(a.at(x, y)) * a.at(x, y)) >> shift) : a.at(x, y);
          ASSERT_EQ(acc.at(x, y), std::clamp(before.at(x, y) + add, -32768, 32767)) << shift << " " << square;
        }
    }
  }
  TypedImage u8(8, 2, PixelType::u8, 1);
  EXPECT_FALSE(accumulate(a.cplane(), u8.pixels())) << "a U8 accumulator";
  TypedImage s16(8, 2, PixelType::s16, 1);
  EXPECT_FALSE(accumulate_square(a.cplane(), s16.pixels(), 16)) << "shift 16";
}

// MeanStdDev's sums as a plain loop computes them: odd widths, padded rows, a long row and a large image of
// 255s (the largest squares: 2.3 million of them overflow 32-bit lane accumulators that are not emptied
// often enough, on every vector size).
TEST_P(EverySimdTarget, PixelSumsAreExact) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {15, 3}, {33, 7}, {67, 5}, {129, 4}, {20000, 3}, {2100, 1100}}) {
    TestImage in(w, h, 1, w + h);
    if (w >= 2000) std::fill(in.bytes.begin(), in.bytes.end(), std::uint8_t{255});  // the largest squares, a long row
    std::uint64_t sum = 0, squares = 0;
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) {
        sum += in.at(x, y);
        squares += static_cast<std::uint64_t>(in.at(x, y)) * in.at(x, y);
      }
    const PixelSums got = pixel_sums(in.cplane());
    EXPECT_EQ(got.sum, sum) << w << "x" << h;
    EXPECT_EQ(got.squares, squares) << w << "x" << h;
  }
}

// Histogram: the counts of the earlier single-histogram loop, on random pixels, on a flat image (every
// pixel in one counter: the case the sub-histograms are for), on runs of one value, on widths that leave a
// tail of one to seven pixels, and on rows with padding between them (never counted).
TEST_P(EverySimdTarget, ValueCountsAreThoseOfAPlainLoop) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {7, 3}, {9, 2}, {67, 5}, {640, 480}, {1921, 3}}) {
    for (int pattern = 0; pattern < 3; ++pattern) {
      TestImage in(w, h, 1, w * 3 + h + static_cast<std::uint32_t>(pattern), 13);
      for (std::uint32_t y = 0; y < h; ++y) {
        std::uint8_t* row = in.bytes.data() + y * in.stride;
        if (pattern == 1) std::fill(row, row + w, std::uint8_t{200});  // flat; the padding stays random
        if (pattern == 2)
          for (std::uint32_t x = 0; x < w; ++x) row[x] = static_cast<std::uint8_t>((x / 37 + y) * 11);
      }
      std::uint64_t want[256] = {};
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) ++want[in.at(x, y)];
      std::uint64_t got[256];
      std::fill(std::begin(got), std::end(got), std::uint64_t{12345});  // overwritten, not added to
      value_counts(in.cplane(), got);
      for (int v = 0; v < 256; ++v) ASSERT_EQ(got[v], want[v]) << w << "x" << h << " pattern " << pattern << " value " << v;
    }
  }
  std::uint64_t none[256];
  std::fill(std::begin(none), std::end(none), std::uint64_t{1});
  value_counts(ConstPlane{}, none);
  EXPECT_EQ(std::count(std::begin(none), std::end(none), std::uint64_t{0}), 256) << "an empty plane counts nothing";
}

// Lookup: table[in] as the earlier per-pixel loop computes it, with every value in the image, for a random
// table, at widths that leave a tail on every vector size, with padded rows (left as they are), and in place.
TEST_P(EverySimdTarget, LookupIsTheTableOfEveryPixel) {
  std::mt19937 rng(5);
  std::uint8_t table[256];
  for (auto& t : table) t = static_cast<std::uint8_t>(rng());
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {15, 2}, {17, 3}, {63, 4}, {65, 4}, {129, 5}, {640, 40}}) {
    TestImage in(w, h, 1, w + 7 * h, 9);
    in.bytes[0] = 0;
    in.bytes[in.bytes.size() - 10] = 255;
    TestImage out(w, h, 1, 77, 9), same = in;
    lookup(in.cplane(), out.plane(), table);
    lookup(same.cplane(), same.plane(), table);
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        ASSERT_EQ(out.at(x, y), table[in.at(x, y)]) << w << "x" << h << " at " << x << "," << y;
        ASSERT_EQ(same.at(x, y), table[in.at(x, y)]) << "in place, " << w << "x" << h << " at " << x << "," << y;
      }
      const TestImage untouched(w, h, 1, 77, 9);
      for (std::uint32_t x = w; x < w + 9; ++x) ASSERT_EQ(out.at(x, y), untouched.at(x, y)) << "the padding stays";
    }
  }
}

// MinMaxLoc's parts: the extrema and their counts, and their positions in raster order, as a plain scan
// finds them; random pixels (extrema rare or many), a constant image (every pixel both), long rows,
// widths that leave a tail, and a search resumed from a position.
TEST_P(EverySimdTarget, ExtremaAndTheirPositionsAreWhatAScanFinds) {
  for (const PixelType t : {PixelType::u8, PixelType::s16}) {
    for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {67, 5}, {300, 41}, {4099, 2}}) {
      for (const bool constant : {false, true}) {
        TypedImage in(w, h, t, w * 7 + h);
        if (constant)
          for (std::uint32_t y = 0; y < h; ++y) std::memset(in.image.bytes.data() + y * in.image.stride, 0x11, w * pixel_size(t));
        int low = in.at(0, 0), high = low;
        for (std::uint32_t y = 0; y < h; ++y)
          for (std::uint32_t x = 0; x < w; ++x) low = std::min(low, in.at(x, y)), high = std::max(high, in.at(x, y));
        std::vector<PixelPosition> lows, highs;
        for (std::uint32_t y = 0; y < h; ++y)
          for (std::uint32_t x = 0; x < w; ++x) {
            if (in.at(x, y) == low) lows.push_back({x, y});
            if (in.at(x, y) == high) highs.push_back({x, y});
          }
        const Extrema e = extrema(in.cpixels());
        const std::string what = std::to_string(w) + "x" + std::to_string(h) + (t == PixelType::u8 ? " u8" : " s16") +
                                 (constant ? " constant" : "");
        ASSERT_EQ(e.min, low) << what;
        ASSERT_EQ(e.max, high) << what;
        ASSERT_EQ(e.min_count, lows.size()) << what;
        ASSERT_EQ(e.max_count, highs.size()) << what;
        for (const auto* expected : {&lows, &highs}) {
          const int value = expected == &lows ? low : high;
          // All at once, then three at a time resumed after the last one found.
          std::vector<PixelPosition> all(expected->size() + 5);
          ASSERT_EQ(locate(in.cpixels(), value, all.data(), all.size()), expected->size()) << what;
          std::vector<PixelPosition> pieces;
          PixelPosition from{};
          for (;;) {
            PixelPosition three[3];
            const std::size_t n = locate(in.cpixels(), value, three, 3, from);
            pieces.insert(pieces.end(), three, three + n);
            if (n < 3) break;
            from = {three[2].x + 1, three[2].y};
          }
          ASSERT_EQ(pieces.size(), expected->size()) << what;
          for (std::size_t i = 0; i < expected->size(); ++i) {
            ASSERT_EQ(all[i].x, (*expected)[i].x) << what << " #" << i;
            ASSERT_EQ(all[i].y, (*expected)[i].y) << what << " #" << i;
            ASSERT_EQ(pieces[i].x, (*expected)[i].x) << what << " #" << i;
            ASSERT_EQ(pieces[i].y, (*expected)[i].y) << what << " #" << i;
          }
        }
        PixelPosition one{};
        EXPECT_EQ(locate(in.cpixels(), t == PixelType::u8 ? 256 : 40000, &one, 1), 0u) << "a value the type cannot hold";
      }
    }
  }
}

// IntegralImage: the running sums modulo 2^32, as a plain loop computes them; an all-255 image large enough
// to wrap the 32-bit sums (4,200 x 4,100 x 255 > 2^32) and widths around every vector step (4, 8, 16, 32
// pixels) that leave a tail or none.
TEST_P(EverySimdTarget, IntegralIsTheRunningSumModulo2To32) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {3, 2}, {15, 2}, {16, 3}, {31, 2}, {32, 3}, {33, 2},
                             {47, 3}, {48, 2}, {64, 2}, {67, 5}, {301, 40}, {4200, 4100}}) {
    TestImage in(w, h, 1, w + 3 * h);
    if (w == 4200) std::fill(in.bytes.begin(), in.bytes.end(), std::uint8_t{255});
    const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(w + 5) * 4;  // padded rows
    std::vector<std::uint32_t> out(static_cast<std::size_t>(h) * (w + 5), 0xdeadbeefu);
    integral(in.cplane(), {out.data(), w, h, stride});
    std::vector<std::uint32_t> above(w, 0);
    bool wrapped = false;
    for (std::uint32_t y = 0; y < h; ++y) {
      std::uint32_t sum = 0;
      for (std::uint32_t x = 0; x < w; ++x) {
        sum += in.at(x, y);
        const std::uint32_t want = sum + above[x];
        wrapped = wrapped || want < above[x];
        above[x] = want;
        ASSERT_EQ(out[static_cast<std::size_t>(y) * (w + 5) + x], want) << w << "x" << h << " at " << x << "," << y;
      }
      ASSERT_EQ(out[static_cast<std::size_t>(y) * (w + 5) + w], 0xdeadbeefu) << "the padding stays";
    }
    if (w == 4200) {
      EXPECT_TRUE(wrapped);
    }
  }
}

TEST_P(EverySimdTarget, MinAndMaxOfBothTypes) {
  for (const PixelType t : {PixelType::u8, PixelType::s16}) {
    const TypedImage a(141, 3, t, 81), b(141, 3, t, 82);
    for (const bool take_min : {true, false}) {
      TypedImage out(141, 3, t, 83);
      ASSERT_TRUE(min_max(take_min, a.cpixels(), b.cpixels(), out.pixels()));
      for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 141; ++x)
          ASSERT_EQ(out.at(x, y), take_min ? std::min(a.at(x, y), b.at(x, y)) : std::max(a.at(x, y), b.at(x, y)));
    }
  }
  const TypedImage a(8, 2, PixelType::u8, 1), b(8, 2, PixelType::s16, 2);
  TypedImage out(8, 2, PixelType::s16, 3);
  EXPECT_FALSE(min_max(true, a.cpixels(), b.cpixels(), out.pixels())) << "mixed types";
}

// Phase: every byte equals the definition in double, over a million random gradients (any int16 pair)
// and the special ones: zeros, the axes, the diagonals, the extremes.
TEST_P(EverySimdTarget, PhaseIsTheDefinitionInDouble) {
  constexpr std::uint32_t w = 1000, h = 1000;
  TypedImage gx(w, h, PixelType::s16, 91), gy(w, h, PixelType::s16, 92);
  const std::int16_t special[] = {0, 1, -1, 2, -2, 100, -100, 32767, -32768, -32767, 12345, -12345};
  std::size_t i = 0;
  for (const std::int16_t a : special)
    for (const std::int16_t b : special) {
      const std::uint32_t x = static_cast<std::uint32_t>(i % w), y = static_cast<std::uint32_t>(i / w);
      std::memcpy(gx.image.bytes.data() + y * static_cast<std::size_t>(gx.image.stride) + 2 * x, &a, 2);
      std::memcpy(gy.image.bytes.data() + y * static_cast<std::size_t>(gy.image.stride) + 2 * x, &b, 2);
      ++i;
    }
  // Every direction of small gradients (what Sobel mostly gives), densely: -200..200 both ways.
  for (int a = -200; a <= 200; ++a)
    for (int b = -200; b <= 200; ++b) {
      const std::uint32_t x = static_cast<std::uint32_t>(i % w), y = static_cast<std::uint32_t>(i / w);
      const auto va = static_cast<std::int16_t>(a), vb = static_cast<std::int16_t>(b);
      std::memcpy(gx.image.bytes.data() + y * static_cast<std::size_t>(gx.image.stride) + 2 * x, &va, 2);
      std::memcpy(gy.image.bytes.data() + y * static_cast<std::size_t>(gy.image.stride) + 2 * x, &vb, 2);
      ++i;
    }
  TestImage out(w, h, 1, 93);
  phase(gx.cpixels(), gy.cpixels(), out.plane());
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      double v = std::atan2(static_cast<double>(gy.at(x, y)), static_cast<double>(gx.at(x, y))) * 256 / 6.283185307179586476925286766559;
      if (v < 0) v += 256.0;
      int q = static_cast<int>(std::floor(v + 0.5));
      if (q >= 256) q -= 256;
      ASSERT_EQ(out.at(x, y), q) << "gx " << gx.at(x, y) << " gy " << gy.at(x, y);
    }
}

TEST_P(EverySimdTarget, DownscaleByTwoAveragesOrPicks) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {7, 3}, {100, 4}, {333, 2}}) {
    const TestImage in(2 * w + 1, 2 * h, 1, w + h);  // one column more than needed: it is not read
    for (const bool average : {true, false}) {
      TestImage out(w, h, 1, 7);
      downscale_2x(in.cplane(), out.plane(), average);
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          const int sum = in.at(2 * x, 2 * y) + in.at(2 * x + 1, 2 * y) + in.at(2 * x, 2 * y + 1) + in.at(2 * x + 1, 2 * y + 1);
          ASSERT_EQ(out.at(x, y), average ? (sum + 2) >> 2 : in.at(2 * x + 1, 2 * y + 1)) << w << "x" << h << " at " << x << "," << y;
        }
    }
  }
}

// RGB / RGBX to NV12, NV21 and IYUV: every byte as the definition computes it (rgb_to_yuv.hpp).
TEST_P(EverySimdTarget, RgbToYuv420IsTheDefinition) {
  for (const auto& [kr, kb] : {std::pair{0.2126f, 0.0722f}, std::pair{0.299f, 0.114f}}) {
    const RgbToYuvFactors f = RgbToYuvFactors::of(kr, kb);
    for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{2, 2}, {10, 4}, {600, 6}}) {
      for (const int channels : {3, 4}) {
        const TestImage rgb(w, h, static_cast<std::uint32_t>(channels), w + h + static_cast<std::uint32_t>(channels));
        auto ref = [&](std::uint32_t x, std::uint32_t y, int which) {  // the clamped Y, U or V of one pixel
          const std::uint8_t* p = &rgb.bytes[y * static_cast<std::size_t>(rgb.stride) + x * static_cast<std::size_t>(channels)];
          const float r = p[0], g = p[1], b = p[2];
          const float v = which == 0 ? r * f.kr + g * f.kg + b * f.kb + 0.5f
                          : which == 1 ? r * f.ur + g * f.ug + b * f.ub + 128.5f
                                       : r * f.vr + g * f.vg + b * f.vb + 128.5f;
          return std::clamp(static_cast<int>(v), 0, 255);
        };
        for (int layout = 0; layout < 3; ++layout) {  // NV12, NV21, IYUV
          TestImage luma(w, h, 1, 1), uv(w, h / 2, 1, 2), u(w / 2, h / 2, 1, 3), v(w / 2, h / 2, 1, 4);
          Yuv420Out out;
          out.luma = luma.plane();
          if (layout < 2) {
            out.uv = uv.plane();
            out.vu_order = layout == 1;
          } else {
            out.u = u.plane();
            out.v = v.plane();
          }
          rgb_to_yuv420(rgb.cplane(), channels, out, f);
          for (std::uint32_t y = 0; y < h; ++y)
            for (std::uint32_t x = 0; x < w; ++x) ASSERT_EQ(luma.at(x, y), ref(x, y, 0)) << w << "x" << h << " at " << x << "," << y;
          for (std::uint32_t y = 0; y < h / 2; ++y)
            for (std::uint32_t x = 0; x < w / 2; ++x) {
              int want[3] = {0, 0, 0};
              for (int c = 1; c <= 2; ++c)
                want[c] = (ref(2 * x, 2 * y, c) + ref(2 * x + 1, 2 * y, c) + ref(2 * x, 2 * y + 1, c) + ref(2 * x + 1, 2 * y + 1, c)) / 4;
              const int got_u = layout == 2 ? u.at(x, y) : uv.at(2 * x + (layout == 1 ? 1 : 0), y);
              const int got_v = layout == 2 ? v.at(x, y) : uv.at(2 * x + (layout == 1 ? 0 : 1), y);
              ASSERT_EQ(got_u, want[1]) << "layout " << layout << " at " << x << "," << y;
              ASSERT_EQ(got_v, want[2]) << "layout " << layout << " at " << x << "," << y;
            }
        }
      }
    }
  }
}

// HalfScaleGaussian: every output pixel is the binomial window at its nearest-neighbour source (2x + 1 for
// an even side, 2x for an odd one), the frame read through the border, sizes below and above a vector and
// a chunk, even and odd, and bands of rows.
TEST_P(EverySimdTarget, GaussianHalfIsTheBinomialAtTheNearestSource) {
  for (const int size : {3, 5}) {
    for (const Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, 77}}) {
      for (const auto& [iw, ih] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {2, 3}, {5, 4}, {18, 7}, {61, 9}, {130, 6}, {1401, 5}, {1400, 4}}) {
        const TestImage in(iw, ih, 1, iw + ih + static_cast<std::uint32_t>(size));
        const std::uint32_t ow = (iw + 1) / 2, oh = (ih + 1) / 2;
        TestImage out(ow, oh, 1, 5);
        const TestImage before = out;
        const Rows band{oh / 3, oh};
        ASSERT_TRUE(gaussian_half(in.cplane(), out.plane(), size, border, band));
        const int r = size / 2;
        const int weights5[5] = {1, 4, 6, 4, 1}, weights3[3] = {1, 2, 1};
        const int* k = size == 5 ? weights5 : weights3;
        auto read = [&](int x, int y) -> int {
          if (x < 0 || y < 0 || x >= static_cast<int>(iw) || y >= static_cast<int>(ih)) {
            if (border.mode == BorderMode::constant) return border.constant;
            x = std::clamp(x, 0, static_cast<int>(iw) - 1);
            y = std::clamp(y, 0, static_cast<int>(ih) - 1);
          }
          return in.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
        };
        for (std::uint32_t y = 0; y < oh; ++y)
          for (std::uint32_t x = 0; x < ow; ++x) {
            if (y < band.begin) {
              ASSERT_EQ(out.at(x, y), before.at(x, y)) << "row " << y << " outside the band written";
              continue;
            }
            const int sx = static_cast<int>(2 * x + (iw % 2 == 0 ? 1 : 0)), sy = static_cast<int>(2 * y + (ih % 2 == 0 ? 1 : 0));
            int sum = 0;
            for (int dy = -r; dy <= r; ++dy)
              for (int dx = -r; dx <= r; ++dx) sum += k[dy + r] * k[dx + r] * read(sx + dx, sy + dy);
            ASSERT_EQ(out.at(x, y), sum >> (size == 5 ? 8 : 4)) << size << " " << iw << "x" << ih << " at " << x << "," << y;
          }
      }
    }
  }
  TestImage odd(5, 5, 1, 1), small(2, 2, 1, 1), wrong(4, 3, 1, 1);
  EXPECT_FALSE(gaussian_half(odd.cplane(), small.plane(), 5)) << "not half the size";
  EXPECT_FALSE(gaussian_half(odd.cplane(), wrong.plane(), 5)) << "not half the size";
  TestImage half(3, 3, 1, 1);
  EXPECT_FALSE(gaussian_half(odd.cplane(), half.plane(), 7)) << "kernel size 7";
}

// Convolve: every pixel as the definition (the sum, divided truncating toward zero, saturated), the frame
// read through the border, for odd sides 1..15 both ways, random coefficients small (the 16-bit path) and up
// to the int16 range (32-bit), both output types, images narrower than the vector path, and bands of rows.
TEST_P(EverySimdTarget, ConvolveIsTheDefinition) {
  std::mt19937 rng(5);
  for (const auto& [columns, rows] : {std::pair{3, 3}, {5, 5}, {9, 3}, {1, 7}, {15, 15}, {7, 1}}) {
    for (const int range : {8, 128, 32768}) {
      std::vector<std::int16_t> c(static_cast<std::size_t>(columns * rows));
      for (auto& v : c) v = static_cast<std::int16_t>(static_cast<int>(rng() % (2 * range)) - range);
      for (const unsigned shift : {0u, 1u, 3u, 15u, 20u}) {
        for (const PixelType type : {PixelType::u8, PixelType::s16}) {
          for (const Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, 201}}) {
            for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{61, 19}, {130, 17}, {5, 4}, {1, 1}}) {
              const TestImage in(w, h, 1, static_cast<std::uint32_t>(columns * 100 + rows) + w);
              TypedImage out(w, h, type, 9);
              const TypedImage before = out;
              const Rows band{h / 3, h - h / 4};  // the rest of the image is left as it was
              ASSERT_TRUE(convolve(in.cplane(), out.pixels(), c.data(), columns, rows, shift, border, band));
              const int rx = columns / 2, ry = rows / 2;
              auto read = [&](int x, int y) -> std::int64_t {
                if (x < 0 || y < 0 || x >= static_cast<int>(w) || y >= static_cast<int>(h)) {
                  if (border.mode == BorderMode::constant) return border.constant;
                  x = std::clamp(x, 0, static_cast<int>(w) - 1);
                  y = std::clamp(y, 0, static_cast<int>(h) - 1);
                }
                return in.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
              };
              for (std::uint32_t y = 0; y < h; ++y)
                for (std::uint32_t x = 0; x < w; ++x) {
                  if (y < band.begin || y >= band.end) {
                    ASSERT_EQ(out.at(x, y), before.at(x, y)) << "row " << y << " outside the band written";
                    continue;
                  }
                  std::int64_t sum = 0;
                  for (int r = 0; r < rows; ++r)
                    for (int k = 0; k < columns; ++k)
                      sum += read(static_cast<int>(x) - rx + k, static_cast<int>(y) - ry + r) * c[static_cast<std::size_t>(r * columns + k)];
                  const std::int64_t q = sum >= 0 ? sum >> shift : -((-sum) >> shift);
                  const std::int64_t want = type == PixelType::u8 ? std::clamp<std::int64_t>(q, 0, 255) : std::clamp<std::int64_t>(q, -32768, 32767);
                  ASSERT_EQ(out.at(x, y), want) << columns << "x" << rows << " range " << range << " shift " << shift << " "
                                                << (border.mode == BorderMode::constant ? "constant" : "replicate") << " " << w << "x" << h
                                                << " at " << x << "," << y;
                }
            }
          }
        }
      }
    }
  }
  const TestImage in(8, 8, 1, 1);
  TypedImage out(8, 8, PixelType::u8, 0);
  const std::int16_t c[4] = {1, 1, 1, 1};
  EXPECT_FALSE(convolve(in.cplane(), out.pixels(), c, 2, 2, 0)) << "even sides";
  EXPECT_FALSE(convolve(in.cplane(), out.pixels(), c, 1, 1, 32)) << "shift above 31";
  TypedImage small(4, 8, PixelType::u8, 0);
  EXPECT_FALSE(convolve(in.cplane(), small.pixels(), c, 1, 1, 0)) << "output of another size";
}

TEST_P(EverySimdTarget, BitwiseFunctions) {
  const TestImage a(77, 5, 1, 41), b(77, 5, 1, 42);
  for (Bitwise op : {Bitwise::not_, Bitwise::and_, Bitwise::or_, Bitwise::xor_}) {
    TestImage out(77, 5, 1, 0);
    bitwise(op, a.cplane(), b.cplane(), out.plane());
    for (std::uint32_t y = 0; y < 5; ++y) {
      for (std::uint32_t x = 0; x < 77; ++x) {
        const unsigned va = a.at(x, y), vb = b.at(x, y);
        const unsigned want = op == Bitwise::not_ ? ~va : op == Bitwise::and_ ? va & vb : op == Bitwise::or_ ? va | vb : va ^ vb;
        ASSERT_EQ(out.at(x, y), static_cast<std::uint8_t>(want)) << int(op);
      }
    }
  }
}

TEST_P(EverySimdTarget, SobelMatchesTheOperatorsAtEveryBorder) {
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {2, 3}, {5, 4}, {67, 13}, {300, 6}}) {
    const TestImage in(w, h, 1, w + h, 0);
    for (const Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, 77}}) {
      TypedImage gx(w, h, PixelType::s16, 0), gy(w, h, PixelType::s16, 0);
      sobel3x3(in.cplane(), gx.pixels(), gy.pixels(), border);
      for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
          auto p = [&](int dx, int dy) {
            int sx = static_cast<int>(x) + dx, sy = static_cast<int>(y) + dy;
            if ((sx < 0 || sy < 0 || sx >= static_cast<int>(w) || sy >= static_cast<int>(h)) && border.mode == BorderMode::constant) return int{border.constant};
            return int{in.at(static_cast<std::uint32_t>(std::clamp(sx, 0, static_cast<int>(w) - 1)), static_cast<std::uint32_t>(std::clamp(sy, 0, static_cast<int>(h) - 1)))};
          };
          const int want_x = -p(-1, -1) + p(1, -1) - 2 * p(-1, 0) + 2 * p(1, 0) - p(-1, 1) + p(1, 1);
          const int want_y = -p(-1, -1) - 2 * p(0, -1) - p(1, -1) + p(-1, 1) + 2 * p(0, 1) + p(1, 1);
          ASSERT_EQ(gx.at(x, y), want_x) << w << "x" << h << " at " << x << "," << y;
          ASSERT_EQ(gy.at(x, y), want_y) << w << "x" << h << " at " << x << "," << y;
        }
      }
      // Only one output asked for: the other is not touched.
      TypedImage only_y(w, h, PixelType::s16, 0);
      sobel3x3(in.cplane(), Pixels{}, only_y.pixels(), border);
      EXPECT_EQ(only_y.image.bytes, gy.image.bytes);
    }
  }
}

TEST_P(EverySimdTarget, MagnitudeIsTheDefinitionInDouble) {
  const TypedImage gx(203, 7, PixelType::s16, 51), gy(203, 7, PixelType::s16, 52);
  TypedImage out(203, 7, PixelType::s16, 0);
  magnitude(gx.cpixels(), gy.cpixels(), out.pixels());
  for (std::uint32_t y = 0; y < 7; ++y) {
    for (std::uint32_t x = 0; x < 203; ++x) {
      const double a = gx.at(x, y), b = gy.at(x, y);
      const double z = std::floor(std::sqrt(a * a + b * b) + 0.5);
      ASSERT_EQ(out.at(x, y), static_cast<int>(std::min(z, 32767.0))) << a << "," << b;
    }
  }
}

// The pairs where rounding sqrt is closest to a tie: s = r^2 + r (just below r + 1/2: rounds down) with
// (x, y) = (k^2, k), and one more (rounds up), both signs, and the corners of the S16 range.
TEST_P(EverySimdTarget, MagnitudeRoundsTheNearTiesAsTheDefinition) {
  std::vector<std::int16_t> xs, ys;
  for (int k = 0; k * k <= 32767; ++k) {
    for (const int dy : {0, 1}) {
      for (const int sign : {1, -1}) {
        xs.push_back(static_cast<std::int16_t>(sign * k * k));
        ys.push_back(static_cast<std::int16_t>(-sign * std::min(k + dy, 32767)));
      }
    }
  }
  for (const int a : {-32768, -32767, 32767, 0, 1, -1})
    for (const int b : {-32768, -32767, 32767, 0, 1, -1}) {
      xs.push_back(static_cast<std::int16_t>(a));
      ys.push_back(static_cast<std::int16_t>(b));
    }
  const auto n = static_cast<std::uint32_t>(xs.size());
  std::vector<std::int16_t> out(n);
  magnitude({xs.data(), n, 1, static_cast<std::ptrdiff_t>(2 * n), PixelType::s16}, {ys.data(), n, 1, static_cast<std::ptrdiff_t>(2 * n), PixelType::s16},
            {out.data(), n, 1, static_cast<std::ptrdiff_t>(2 * n), PixelType::s16});
  for (std::uint32_t i = 0; i < n; ++i) {
    const double a = xs[i], b = ys[i];
    const double z = std::floor(std::sqrt(a * a + b * b) + 0.5);
    ASSERT_EQ(out[i], static_cast<int>(std::min(z, 32767.0))) << a << "," << b;
  }
}

// LBP: every form and size against the definition written out here, on random images with runs of equal
// values (the >= and > comparisons), sizes around a vector, and a band of rows.
TEST_P(EverySimdTarget, LocalBinaryPatternsAreTheDefinition) {
  const int straight3[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}};
  const int straight5[8][2] = {{-1, -1}, {-2, 0}, {-1, 1}, {0, 2}, {1, 1}, {2, 0}, {1, -1}, {0, -2}};
  const int corners5[8][2] = {{-2, -2}, {-2, 0}, {-2, 2}, {0, 2}, {2, 2}, {2, 0}, {2, -2}, {0, -2}};
  for (const auto& [format, size] : {std::pair{LbpFormat::lbp, 3}, {LbpFormat::lbp, 5}, {LbpFormat::uniform, 3}, {LbpFormat::uniform, 5},
                                     {LbpFormat::modified, 5}}) {
    for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {4, 6}, {17, 5}, {70, 9}, {133, 12}}) {
      TestImage in(w, h, 1, w * 7 + h);
      for (std::size_t i = 0; i < in.bytes.size(); ++i) in.bytes[i] = static_cast<std::uint8_t>(in.bytes[i] % 6 * 40);  // equal runs
      TestImage out(w, h, 1, 3);
      const TestImage before = out;
      const Rows band{h / 4, h};
      ASSERT_TRUE(local_binary_pattern(in.cplane(), out.plane(), format, size, band));
      const auto& n = format == LbpFormat::modified ? corners5 : size == 3 ? straight3 : straight5;
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          if (y < band.begin) {
            ASSERT_EQ(out.at(x, y), before.at(x, y));
            continue;
          }
          auto at = [&](int yy, int xx) {
            return static_cast<int>(in.at(static_cast<std::uint32_t>(std::clamp(xx, 0, static_cast<int>(w) - 1)),
                                          static_cast<std::uint32_t>(std::clamp(yy, 0, static_cast<int>(h) - 1))));
          };
          int sum = 0;
          for (const auto& d : n) sum += at(static_cast<int>(y) + d[0], static_cast<int>(x) + d[1]);
          const int centre = at(static_cast<int>(y), static_cast<int>(x));
          int want = 0;
          for (int p = 0; p < 8; ++p) {
            const int g = at(static_cast<int>(y) + n[p][0], static_cast<int>(x) + n[p][1]);
            const bool set = format == LbpFormat::modified ? g > (sum + 1) / 8 : g >= centre;
            if (set) want |= 1 << p;
          }
          if (format == LbpFormat::uniform) {
            int changes = 0;
            for (int p = 0; p < 8; ++p) changes += ((want >> p) & 1) != ((want >> ((p + 7) % 8)) & 1);
            if (changes > 2) want = 9;
          }
          ASSERT_EQ(out.at(x, y), want) << static_cast<int>(format) << " size " << size << " " << w << "x" << h << " at " << x << "," << y;
        }
    }
  }
  TestImage in(8, 8, 1, 1), out(8, 8, 1, 1), other(7, 8, 1, 1);
  EXPECT_FALSE(local_binary_pattern(in.cplane(), out.plane(), LbpFormat::modified, 3)) << "modified needs 5x5";
  EXPECT_FALSE(local_binary_pattern(in.cplane(), out.plane(), LbpFormat::lbp, 7));
  EXPECT_FALSE(local_binary_pattern(in.cplane(), other.plane(), LbpFormat::lbp, 3)) << "sizes differ";
}

// NonMaxSuppression: every computed pixel as the definition written out here (raster order decides
// plateaus; masked pixels copied and left out of windows), U8 and S16 with few levels (plateaus), with and
// without a mask, windows 1 to 9, sizes around a vector; the frame of window / 2 is left as it was.
TEST_P(EverySimdTarget, NonMaxSuppressionIsTheDefinition) {
  std::mt19937 rng(17);
  for (const PixelType type : {PixelType::u8, PixelType::s16}) {
    for (const int window : {1, 3, 5, 9}) {
      for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{9, 9}, {40, 12}, {150, 11}}) {
        if (static_cast<std::uint32_t>(window) > std::min(w, h)) continue;
        for (const bool with_mask : {false, true}) {
          TypedImage in(w, h, type, static_cast<std::uint32_t>(rng()));
          for (std::size_t i = 0; i < in.image.bytes.size(); i += pixel_size(type)) {  // few levels, both signs for S16
            const int level = static_cast<int>(rng() % 5) * 1000 - 2000;
            if (type == PixelType::u8) in.image.bytes[i] = static_cast<std::uint8_t>(level / 40 + 100);
            else {
              const auto v = static_cast<std::int16_t>(level);
              std::memcpy(&in.image.bytes[i], &v, 2);
            }
          }
          TestImage mask(w, h, 1, static_cast<std::uint32_t>(rng()));
          for (auto& b : mask.bytes) b = rng() % 6 == 0 ? 1 : 0;
          TypedImage out(w, h, type, 3);
          const TypedImage before = out;
          const SuppressionMask m{with_mask ? mask.bytes.data() : nullptr, mask.stride};
          ASSERT_TRUE(non_max_suppression(in.cpixels(), m, out.pixels(), window));
          const int r = window / 2;
          auto masked = [&](int x, int y) { return with_mask && mask.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)) != 0; };
          auto at = [&](int x, int y) { return in.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)); };
          const int lowest = type == PixelType::u8 ? 0 : -32768;
          for (int y = 0; y < static_cast<int>(h); ++y)
            for (int x = 0; x < static_cast<int>(w); ++x) {
              const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
              if (x < r || y < r || x >= static_cast<int>(w) - r || y >= static_cast<int>(h) - r) {
                ASSERT_EQ(out.at(ux, uy), before.at(ux, uy)) << "frame pixel written";
                continue;
              }
              bool keep = true;
              if (!masked(x, y)) {
                for (int j = -r; j <= r; ++j)
                  for (int i = -r; i <= r; ++i) {
                    if (masked(x + i, y + j)) continue;
                    const bool earlier = j < 0 || (j == 0 && i < 0);
                    const bool later = j > 0 || (j == 0 && i > 0);
                    if ((earlier && at(x + i, y + j) > at(x, y)) || (later && at(x + i, y + j) >= at(x, y))) keep = false;
                  }
              }
              ASSERT_EQ(out.at(ux, uy), keep ? at(x, y) : lowest)
                  << (type == PixelType::u8 ? "u8" : "s16") << " window " << window << " " << w << "x" << h << (with_mask ? " masked" : "")
                  << " at " << x << "," << y;
            }
        }
      }
    }
  }
  TypedImage in(8, 8, PixelType::u8, 1), out(8, 8, PixelType::u8, 1);
  EXPECT_FALSE(non_max_suppression(in.cpixels(), {}, out.pixels(), 4)) << "even window";
  EXPECT_FALSE(non_max_suppression(in.cpixels(), {}, out.pixels(), 9)) << "above the smaller side";
}

INSTANTIATE_TEST_SUITE_P(Simd, EverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

TEST(VisionSimd, TheCpusBestTargetIsChosenAndListedFirst) {
  const std::vector<SimdTarget> targets = simd_targets();
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(current_simd_target(), targets.front().name);
  // More than one target, so that the tests above compare vector paths of different widths: on x86_64
  // down to the portable fallback, on aarch64 SVE2, SVE and NEON (NEON is its baseline, so Highway compiles
  // no scalar target there). Debian's armhf ABI (VFPv3-D16, NEON not guaranteed) leaves the scalar one only.
#if defined(__x86_64__) || defined(__aarch64__)
  EXPECT_GE(targets.size(), 2u) << "only " << targets.front().name;
#else
  EXPECT_GE(targets.size(), 1u);
#endif
}

}  // namespace
