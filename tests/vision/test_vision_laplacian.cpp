// The vision library's Laplacian pyramid levels (kernels/vision/laplacian.hpp) on every instruction set Highway
// compiled in and this CPU runs, against a reference written here from OpenVX's definition:
//   - the next Gaussian level: the 5x5 binomial [1 4 6 4 1]^T [1 4 6 4 1] summed around the nearest-neighbour
//     source of each output pixel ((x + 0.5) * in / out - 0.5, halves rounded up), >> 8;
//   - the expansion: the coarse level placed at the even positions of a zero image twice its size, that image
//     under the same 5x5 binomial (>> 8), times 4; written here as the sum over every coarse pixel (i, j)
//     within reach of (x, y) of w(x - 2i) w(y - 2j) g(i, j), g read through the border outside it;
//   - a Laplacian level: fine - expand(coarse); a reconstructed level: expand(coarse) + Laplacian, saturated
//     to the output's type.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/laplacian.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// Pixels of type T with @p padding values after each row (random too: a read of them would show).
template <class T>
struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding, std::uint32_t seed, int low, int high)
      : width(w), height(h), pitch(w + padding), values(static_cast<std::size_t>(pitch) * h) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> value(low, high);
    for (auto& v : values) v = static_cast<T>(value(rng));
  }
  std::ptrdiff_t stride() const { return static_cast<std::ptrdiff_t>(pitch * sizeof(T)); }
  PixelType type() const { return sizeof(T) == 1 ? PixelType::u8 : PixelType::s16; }
  ConstPlane plane() const { return {reinterpret_cast<const std::uint8_t*>(values.data()), width, height, stride()}; }
  Plane plane() { return {reinterpret_cast<std::uint8_t*>(values.data()), width, height, stride()}; }
  ConstPixels pixels() const { return {values.data(), width, height, stride(), type()}; }
  Pixels pixels() { return {values.data(), width, height, stride(), type()}; }
  int at(std::uint32_t x, std::uint32_t y) const { return values[static_cast<std::size_t>(y) * pitch + x]; }

  std::uint32_t width, height, pitch;
  std::vector<T> values;
};
using U8Image = Image<std::uint8_t>;
using S16Image = Image<std::int16_t>;

constexpr int kBinomial[5] = {1, 4, 6, 4, 1};

/// @p img at (x, y), the border applied outside it.
int read(const U8Image& img, long x, long y, Border border) {
  const long w = img.width, h = img.height;
  if (x < 0 || y < 0 || x >= w || y >= h) {
    if (border.mode == BorderMode::constant) return border.constant;
    x = std::clamp(x, 0L, w - 1);
    y = std::clamp(y, 0L, h - 1);
  }
  return img.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
}

/// OpenVX's nearest-neighbour source of output coordinate @p x for an input of @p in and an output of @p out.
long nearest(long x, long in, long out) {
  const double s = (static_cast<double>(x) + 0.5) * static_cast<double>(in) / static_cast<double>(out) - 0.5;
  return std::clamp(static_cast<long>(std::floor(s + 0.5)), 0L, in - 1);
}

U8Image reference_half(const U8Image& fine, Border border) {
  U8Image out((fine.width + 1) / 2, (fine.height + 1) / 2, 0, 0, 0, 0);
  for (std::uint32_t y = 0; y < out.height; ++y) {
    for (std::uint32_t x = 0; x < out.width; ++x) {
      const long sx = nearest(x, fine.width, out.width), sy = nearest(y, fine.height, out.height);
      int sum = 0;
      for (int r = 0; r < 5; ++r) {
        for (int c = 0; c < 5; ++c) sum += kBinomial[r] * kBinomial[c] * read(fine, sx + c - 2, sy + r - 2, border);
      }
      out.values[static_cast<std::size_t>(y) * out.pitch + x] = static_cast<std::uint8_t>(sum >> 8);
    }
  }
  return out;
}

/// expand(coarse) at (x, y): the zero-inserted image's 5x5 binomial sum, >> 8, times 4.
int reference_expand(const U8Image& coarse, long x, long y, Border border) {
  auto weight = [](long d) { return d >= -2 && d <= 2 ? kBinomial[d + 2] : 0; };
  int sum = 0;
  for (long j = (y - 2) / 2 - 1; j <= (y + 2) / 2 + 1; ++j) {
    for (long i = (x - 2) / 2 - 1; i <= (x + 2) / 2 + 1; ++i) sum += weight(x - 2 * i) * weight(y - 2 * j) * read(coarse, i, j, border);
  }
  return (sum >> 8) * 4;
}

class LaplacianEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

struct Size {
  std::uint32_t width, height;
};
// Odd and even sides, one to a few pixels, a vector or two, and past the 1024-column chunk.
constexpr Size kSizes[] = {{1, 1},  {2, 1},   {1, 3},  {3, 2},    {5, 7},  {8, 8},     {17, 9},
                           {33, 20}, {64, 35}, {127, 63}, {130, 41}, {1031, 37}, {2050, 5}, {1025, 6}};
const Border kBorders[] = {{BorderMode::replicate, 0}, {BorderMode::constant, 0}, {BorderMode::constant, 201}};

std::string describe(Size s, Border b) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) +
         (b.mode == BorderMode::constant ? " constant " + std::to_string(b.constant) : " replicate");
}

TEST_P(LaplacianEverySimdTarget, LevelMatchesDefinition) {
  std::uint32_t seed = 1;
  for (const Size size : kSizes) {
    for (const Border border : kBorders) {
      const std::string where = describe(size, border);
      const U8Image fine(size.width, size.height, 3, ++seed, 0, 255);
      U8Image coarse((size.width + 1) / 2, (size.height + 1) / 2, 5, ++seed, 0, 255);
      S16Image laplacian(size.width, size.height, 2, ++seed, -32768, 32767);
      const U8Image coarse_before = coarse;
      const S16Image laplacian_before = laplacian;
      ASSERT_TRUE(laplacian_level(fine.plane(), coarse.plane(), laplacian.pixels(), border)) << where;
      const U8Image want_coarse = reference_half(fine, border);
      int wrong = 0;
      for (std::uint32_t y = 0; y < coarse.height; ++y) {
        for (std::uint32_t x = 0; x < coarse.pitch; ++x) {
          const int want = x < coarse.width ? want_coarse.at(x, y) : coarse_before.at(x, y);
          if (coarse.at(x, y) != want && wrong++ < 5) {
            ADD_FAILURE() << where << " coarse (" << x << ", " << y << "): " << coarse.at(x, y) << " != " << want;
          }
        }
      }
      for (std::uint32_t y = 0; y < laplacian.height; ++y) {
        for (std::uint32_t x = 0; x < laplacian.pitch; ++x) {
          const int want = x < laplacian.width ? fine.at(x, y) - reference_expand(want_coarse, x, y, border) : laplacian_before.at(x, y);
          if (laplacian.at(x, y) != want && wrong++ < 5) {
            ADD_FAILURE() << where << " laplacian (" << x << ", " << y << "): " << laplacian.at(x, y) << " != " << want;
          }
        }
      }
      ASSERT_EQ(wrong, 0) << where;
    }
  }
}

/// The reconstruction of random coarse and Laplacian levels (the full S16 range, so both saturations show)
/// into U8 and S16, by bands of rows: each band as the definition says, the rows outside untouched.
template <class Out>
void check_reconstruct(Size size, Border border, std::uint32_t seed) {
  const std::string where = describe(size, border) + (sizeof(Out) == 1 ? " to U8" : " to S16");
  const U8Image coarse((size.width + 1) / 2, (size.height + 1) / 2, 3, seed, 0, 255);
  const S16Image laplacian(size.width, size.height, 1, seed + 1, -32768, 32767);
  Image<Out> out(size.width, size.height, 4, seed + 2, sizeof(Out) == 1 ? 0 : -32768, sizeof(Out) == 1 ? 255 : 32767);
  const Image<Out> before = out;
  const int low = sizeof(Out) == 1 ? 0 : -32768, high = sizeof(Out) == 1 ? 255 : 32767;
  const std::uint32_t split = size.height / 3;
  const Rows bands[] = {{split, split + (size.height + 1) / 2}, {0, split}};
  int wrong = 0;
  for (const Rows band : bands) {
    ASSERT_TRUE(laplacian_reconstruct_level(coarse.plane(), laplacian.pixels(), out.pixels(), border, band)) << where;
  }
  const std::uint32_t written = std::min(size.height, split + (size.height + 1) / 2);
  for (std::uint32_t y = 0; y < out.height; ++y) {
    for (std::uint32_t x = 0; x < out.pitch; ++x) {
      const bool inside = x < out.width && y < written;
      const int want = inside ? std::clamp(reference_expand(coarse, x, y, border) + laplacian.at(x, y), low, high) : before.at(x, y);
      if (out.at(x, y) != want && wrong++ < 5) ADD_FAILURE() << where << " at (" << x << ", " << y << "): " << out.at(x, y) << " != " << want;
    }
  }
  ASSERT_EQ(wrong, 0) << where;
}

TEST_P(LaplacianEverySimdTarget, ReconstructMatchesDefinition) {
  std::uint32_t seed = 100;
  for (const Size size : kSizes) {
    for (const Border border : kBorders) {
      check_reconstruct<std::uint8_t>(size, border, seed += 3);
      check_reconstruct<std::int16_t>(size, border, seed += 3);
    }
  }
}

/// A pyramid of several levels built and reconstructed with the library gives back its level 0 exactly
/// (each Laplacian level is exact), whatever the border as long as both ways use the same.
TEST_P(LaplacianEverySimdTarget, PyramidRoundTrip) {
  for (const Border border : kBorders) {
    const U8Image input(301, 157, 7, 9, 0, 255);
    std::vector<U8Image> gaussian{input};
    std::vector<S16Image> laplacian;
    for (int level = 0; level < 5; ++level) {
      const U8Image& fine = gaussian.back();
      U8Image coarse((fine.width + 1) / 2, (fine.height + 1) / 2, 1, 0, 0, 0);
      laplacian.emplace_back(fine.width, fine.height, 0, 0, 0, 0);
      ASSERT_TRUE(laplacian_level(fine.plane(), coarse.plane(), laplacian.back().pixels(), border));
      gaussian.push_back(std::move(coarse));
    }
    U8Image current = gaussian.back();
    for (std::size_t level = laplacian.size(); level-- > 0;) {
      U8Image finer(laplacian[level].width, laplacian[level].height, 2, 0, 0, 0);
      ASSERT_TRUE(laplacian_reconstruct_level(current.plane(), laplacian[level].pixels(), finer.pixels(), border));
      current = std::move(finer);
    }
    for (std::uint32_t y = 0; y < input.height; ++y) {
      for (std::uint32_t x = 0; x < input.width; ++x) {
        ASSERT_EQ(current.at(x, y), input.at(x, y)) << describe({301, 157}, border) << " at " << x << ", " << y;
      }
    }
  }
}

TEST(Laplacian, RefusesOtherShapes) {
  U8Image fine(10, 10, 0, 1, 0, 255), coarse(5, 5, 0, 1, 0, 255), wrong_coarse(4, 5, 0, 1, 0, 255);
  S16Image laplacian(10, 10, 0, 1, 0, 0), small(9, 10, 0, 1, 0, 0);
  U8Image u8_laplacian(10, 10, 0, 1, 0, 0);
  EXPECT_FALSE(laplacian_level(fine.plane(), wrong_coarse.plane(), laplacian.pixels()));
  EXPECT_FALSE(laplacian_level(fine.plane(), coarse.plane(), small.pixels()));
  EXPECT_FALSE(laplacian_level(fine.plane(), coarse.plane(), u8_laplacian.pixels()));
  EXPECT_FALSE(laplacian_reconstruct_level(wrong_coarse.plane(), laplacian.pixels(), fine.pixels()));
  EXPECT_FALSE(laplacian_reconstruct_level(coarse.plane(), u8_laplacian.pixels(), fine.pixels()));
  EXPECT_FALSE(laplacian_reconstruct_level(coarse.plane(), small.pixels(), fine.pixels()));
}

INSTANTIATE_TEST_SUITE_P(Targets, LaplacianEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
