// WarpAffine, WarpPerspective and Remap: the vision library's vectorised functions (kernels/vision/warp.hpp),
// which libopenvx runs for packed U8 images, against libopenvx's per-pixel definition (sampling.hpp, the
// loop the Khronos conformance suite passed before them and that U1 and strided images still take), byte
// for byte, on every instruction set Highway compiled in and this CPU runs.
//
// Random sources of odd sizes (rows packed, or with padding; the buffer ends at the last pixel, so a read
// past it would show under ASan), random valid rectangles, both interpolations, constant and replicate
// borders, output sizes around the vector widths, and coordinates that hit the cases the definition
// singles out: halves (nearest rounds them up), whole numbers, just inside and outside the edges, and
// values that are not finite as floats (NaN or infinite entries, overflow, a perspective divisor of 0).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/sampling.hpp"
#include "visiongraph/kernels/vision/simd.hpp"
#include "visiongraph/kernels/vision/warp.hpp"

namespace {

using vg::openvx::affine_coordinate;
using vg::openvx::BasicSampledImage;
using vg::openvx::perspective_coordinate;
using vg::openvx::sample_image;
using vg::openvx::table_coordinate;
namespace vision = vg::vision;

/// A U8 image in a buffer that ends at its last pixel, as sampling.hpp reads images.
struct TestImage {
  TestImage(std::uint32_t w, std::uint32_t h, std::uint32_t padding, std::mt19937& rng)
      : w(w), h(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * (h - 1) + w) {
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& b : bytes) b = static_cast<vx_uint8>(byte(rng));
  }
  vx_uint32 width() const noexcept { return w; }
  vx_uint32 height() const noexcept { return h; }
  vx_int32 stride_x() const noexcept { return 1; }
  vx_uint8* row(vx_uint32 y) const noexcept { return bytes.data() + static_cast<std::ptrdiff_t>(y) * stride; }
  vision::ConstPlane cplane() const noexcept { return {bytes.data(), w, h, stride}; }
  vision::Plane plane() noexcept { return {bytes.data(), w, h, stride}; }

  std::uint32_t w, h;
  std::ptrdiff_t stride;
  mutable std::vector<vx_uint8> bytes;  // row() hands out writable rows, as MappedImage's does
};

/// One source with its valid rectangle and border, as both paths take it.
struct Source {
  const TestImage& image;
  vx_rectangle_t valid;
  bool constant;
  vx_uint8 value;

  vx_border_t border() const noexcept {
    vx_border_t b{};
    b.mode = constant ? VX_BORDER_CONSTANT : VX_BORDER_REPLICATE;
    b.constant_value.U8 = value;
    return b;
  }
  vision::SampleSource sample_source() const noexcept {
    return {image.cplane(), valid.start_x, valid.start_y, valid.end_x, valid.end_y, constant, value};
  }
};

/// Counts what the cases covered, so that a generator that stopped reaching a case shows.
struct Coverage {
  int compared = 0;
  int declined = 0;
};

/// Runs both paths into copies of one random output (padding included) and compares every byte.
template <typename Coordinate, typename Vectorised>
void compare(const Source& src, bool bilinear, std::uint32_t ow, std::uint32_t oh, std::mt19937& rng, Coordinate coordinate,
             Vectorised vectorised, const std::string& what, Coverage& coverage) {
  TestImage expected(ow, oh, 3, rng);
  TestImage actual = expected;
  const BasicSampledImage<TestImage> sampled(src.image, false, src.border(), src.valid);
  sample_image(sampled, bilinear, expected, false, coordinate);
  if (!vectorised(src.sample_source(), bilinear ? vision::Interpolation::bilinear : vision::Interpolation::nearest, actual.plane())) {
    ++coverage.declined;
    return;
  }
  ++coverage.compared;
  for (std::uint32_t y = 0; y < oh; ++y) {
    for (std::uint32_t x = 0; x < ow + (y + 1 < oh ? 3u : 0u); ++x) {
      const vx_uint8 e = expected.row(y)[x], a = actual.row(y)[x];
      if (e != a) {
        float sx = 0, sy = 0;
        coordinate(std::min(x, ow - 1), y, sx, sy);
        FAIL() << what << (bilinear ? " bilinear" : " nearest") << (src.constant ? " constant " : " replicate ")
               << int{src.value} << ", source " << src.image.w << "x" << src.image.h << " stride " << src.image.stride
               << " valid [" << src.valid.start_x << ", " << src.valid.end_x << ") x [" << src.valid.start_y << ", "
               << src.valid.end_y << "), output " << ow << "x" << oh << ": at (" << x << ", " << y << ") source coordinate ("
               << sx << ", " << sy << ") expected " << int{e} << ", got " << int{a};
      }
    }
  }
}

/// A source of random size (odd ones, and ones around the vector widths), packed or padded, with a random
/// valid rectangle (the whole image half the time) and border.
struct RandomSource {
  explicit RandomSource(std::mt19937& rng) : image(size(rng), size(rng), std::uniform_int_distribution<std::uint32_t>(0, 1)(rng) * 7, rng) {
    std::uniform_int_distribution<int> coin(0, 1);
    valid = {0, 0, image.w, image.h};
    if (coin(rng) != 0) {
      valid.start_x = std::uniform_int_distribution<vx_uint32>(0, image.w - 1)(rng);
      valid.end_x = std::uniform_int_distribution<vx_uint32>(valid.start_x + 1, image.w)(rng);
      valid.start_y = std::uniform_int_distribution<vx_uint32>(0, image.h - 1)(rng);
      valid.end_y = std::uniform_int_distribution<vx_uint32>(valid.start_y + 1, image.h)(rng);
    }
    constant = coin(rng) != 0;
    value = static_cast<vx_uint8>(std::uniform_int_distribution<int>(0, 255)(rng));
  }
  static std::uint32_t size(std::mt19937& rng) {
    static constexpr std::array<std::uint32_t, 12> kSizes{1, 2, 3, 5, 7, 15, 16, 17, 31, 33, 64, 97};
    return kSizes[std::uniform_int_distribution<std::size_t>(0, kSizes.size() - 1)(rng)];
  }
  Source source() const { return {image, valid, constant, value}; }

  TestImage image;
  vx_rectangle_t valid;
  bool constant;
  vx_uint8 value;
};

float pick(std::mt19937& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

/// A matrix entry: mostly random, sometimes whole or half (exact coordinates), rarely not finite or huge.
float entry(std::mt19937& rng, float lo, float hi) {
  switch (std::uniform_int_distribution<int>(0, 19)(rng)) {
    case 0: return std::round(pick(rng, lo, hi));
    case 1: return std::round(pick(rng, lo, hi) * 2.0f) / 2.0f;
    case 2: return 0.0f;
    case 3: return 1.0f;
    default: return pick(rng, lo, hi);
  }
}

float rare(std::mt19937& rng) {
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return std::numeric_limits<float>::max();  // the double sum overflows a float
    case 4: return 1e30f;
    default: return -0.0f;
  }
}

std::uint32_t output_size(std::mt19937& rng) {
  static constexpr std::array<std::uint32_t, 11> kSizes{1, 3, 4, 8, 15, 16, 17, 32, 33, 47, 70};
  return kSizes[std::uniform_int_distribution<std::size_t>(0, kSizes.size() - 1)(rng)];
}

class WarpEverySimdTarget : public ::testing::TestWithParam<vision::SimdTarget> {
 protected:
  void SetUp() override { vision::force_simd_target(GetParam().id); }
  void TearDown() override { vision::force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<vision::SimdTarget>& info) { return info.param.name; }

constexpr int kCases = 1500;

TEST_P(WarpEverySimdTarget, AffineMatchesThePerPixelDefinition) {
  std::mt19937 rng(1234);
  Coverage coverage;
  for (int i = 0; i < kCases && !HasFatalFailure(); ++i) {
    const RandomSource random(rng);
    const float w = static_cast<float>(random.image.w), h = static_cast<float>(random.image.h);
    std::array<float, 6> m{};
    if (i % 3 == 0) {
      // A rotation and scale about a point near the source: pixels inside, across the edges and outside.
      const float angle = pick(rng, -3.2f, 3.2f), scale = pick(rng, 0.3f, 2.0f);
      m = {scale * std::cos(angle), scale * std::sin(angle), -scale * std::sin(angle), scale * std::cos(angle),
           pick(rng, -0.5f * w, w), pick(rng, -0.5f * h, h)};
    } else {
      for (int k = 0; k < 4; ++k) m[k] = entry(rng, -2.0f, 2.0f);
      m[4] = entry(rng, -w, 1.5f * w);
      m[5] = entry(rng, -h, 1.5f * h);
    }
    if (i % 50 == 7) m[std::uniform_int_distribution<std::size_t>(0, 5)(rng)] = rare(rng);
    const bool bilinear = i % 2 == 0;
    compare(random.source(), bilinear, output_size(rng), output_size(rng), rng, affine_coordinate(m.data()),
            [&](const vision::SampleSource& s, vision::Interpolation interpolation, vision::Plane out) {
              return vision::warp_affine(s, m.data(), interpolation, out);
            },
            "affine", coverage);
  }
  EXPECT_GT(coverage.compared, kCases * 9 / 10) << coverage.declined << " declined";
}

TEST_P(WarpEverySimdTarget, PerspectiveMatchesThePerPixelDefinition) {
  std::mt19937 rng(5678);
  Coverage coverage;
  for (int i = 0; i < kCases && !HasFatalFailure(); ++i) {
    const RandomSource random(rng);
    const float w = static_cast<float>(random.image.w), h = static_cast<float>(random.image.h);
    std::array<float, 9> m{};
    for (int k : {0, 1, 3, 4}) m[k] = entry(rng, -2.0f, 2.0f);
    m[6] = entry(rng, -w, 1.5f * w);
    m[7] = entry(rng, -h, 1.5f * h);
    if (i % 4 == 0) {
      // z crosses 0 within the output: quotients that grow without bound, then a division by zero.
      m[2] = entry(rng, -0.2f, 0.2f);
      m[5] = entry(rng, -0.2f, 0.2f);
      m[8] = std::round(pick(rng, -4.0f, 4.0f));
    } else {
      m[2] = pick(rng, -0.01f, 0.01f);
      m[5] = pick(rng, -0.01f, 0.01f);
      m[8] = pick(rng, 0.5f, 1.5f);
    }
    if (i % 50 == 7) m[std::uniform_int_distribution<std::size_t>(0, 8)(rng)] = rare(rng);
    const bool bilinear = i % 2 == 0;
    compare(random.source(), bilinear, output_size(rng), output_size(rng), rng, perspective_coordinate(m.data()),
            [&](const vision::SampleSource& s, vision::Interpolation interpolation, vision::Plane out) {
              return vision::warp_perspective(s, m.data(), interpolation, out);
            },
            "perspective", coverage);
  }
  EXPECT_GT(coverage.compared, kCases * 9 / 10) << coverage.declined << " declined";
}

TEST_P(WarpEverySimdTarget, RemapMatchesThePerPixelDefinition) {
  std::mt19937 rng(9012);
  Coverage coverage;
  for (int i = 0; i < kCases && !HasFatalFailure(); ++i) {
    RandomSource random(rng);
    random.valid = {0, 0, random.image.w, random.image.h};  // Remap reads the whole image
    const float w = static_cast<float>(random.image.w), h = static_cast<float>(random.image.h);
    const std::uint32_t ow = output_size(rng), oh = output_size(rng);
    // The table exactly as large as its entries, so that reading past a row's end would show under ASan.
    std::vector<vx_coordinates2df_t> table(static_cast<std::size_t>(ow) * oh);
    for (auto& c : table) {
      const auto coordinate = [&](float extent) {
        switch (std::uniform_int_distribution<int>(0, 39)(rng)) {
          case 0: return rare(rng);
          case 1: case 2: return std::round(pick(rng, -2.0f, extent + 1.0f));
          case 3: case 4: return std::round(pick(rng, -2.0f, extent + 1.0f)) + 0.5f;
          case 5: return extent - 1.0f;
          case 6: return std::nextafter(extent - 1.0f, 0.0f);
          default: return pick(rng, -3.0f, extent + 2.0f);
        }
      };
      c = {coordinate(w), coordinate(h)};
    }
    const auto* entries = reinterpret_cast<const vx_uint8*>(table.data());
    const bool bilinear = i % 2 == 0;
    compare(random.source(), bilinear, ow, oh, rng, table_coordinate(entries, ow),
            [&](const vision::SampleSource& s, vision::Interpolation interpolation, vision::Plane out) {
              return vision::remap(s, entries, static_cast<std::ptrdiff_t>(ow * sizeof(vx_coordinates2df_t)), interpolation, out);
            },
            "remap", coverage);
  }
  EXPECT_GT(coverage.compared, kCases * 9 / 10) << coverage.declined << " declined";
}

// Planes the vectorised functions do not take (fewer than 4 bytes: no word to read) are declined, untouched,
// for the caller's per-pixel loop.
TEST_P(WarpEverySimdTarget, TinySourcesAreDeclined) {
  std::mt19937 rng(1);
  const TestImage tiny(3, 1, 0, rng);
  TestImage out(5, 5, 0, rng);
  const std::vector<vx_uint8> before = out.bytes;
  const float m[9] = {1, 0, 0, 1, 0, 0, 0, 0, 1};
  const vision::SampleSource s{tiny.cplane(), 0, 0, 3, 1, true, 0};
  EXPECT_FALSE(vision::warp_affine(s, m, vision::Interpolation::bilinear, out.plane()));
  EXPECT_FALSE(vision::warp_perspective(s, m, vision::Interpolation::nearest, out.plane()));
  EXPECT_EQ(out.bytes, before);
}

INSTANTIATE_TEST_SUITE_P(Simd, WarpEverySimdTarget, ::testing::ValuesIn(vision::simd_targets()), target_name);

}  // namespace
