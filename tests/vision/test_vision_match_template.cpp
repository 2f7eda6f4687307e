// The vision library's MatchTemplate (kernels/vision/match_template.hpp) on every instruction set Highway
// compiled in and this CPU runs, against a reference written from the definition: every sum pixel by pixel,
// the normalised values in double as libopenvx's per-pixel walk computes them (the one the Khronos
// conformance suite passes), saturated to S16.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/match_template.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

constexpr CompareMethod kMethods[] = {CompareMethod::hamming, CompareMethod::l1,      CompareMethod::l2,
                                      CompareMethod::ccorr,   CompareMethod::l2_norm, CompareMethod::ccorr_norm};
constexpr const char* kMethodNames[] = {"HAMMING", "L1", "L2", "CCORR", "L2_NORM", "CCORR_NORM"};

/// A U8 plane with @p padding bytes after each row, filled at random with values in [0, @p max].
struct U8Image {
  U8Image(std::uint32_t w, std::uint32_t h, std::uint32_t seed, unsigned max = 255, std::uint32_t padding = 5)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * h) {
    std::mt19937 rng(seed);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng() % (max + 1));
  }
  ConstPlane cplane() const { return {bytes.data(), width, height, stride}; }
  std::uint8_t& at(std::uint32_t x, std::uint32_t y) { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }
  std::uint8_t at(std::uint32_t x, std::uint32_t y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + x]; }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

constexpr std::int16_t kUnwritten = -12345;

/// An S16 plane with padding after each row, every value (padding included) kUnwritten.
struct S16Image {
  S16Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding = 3)
      : width(w), height(h), stride_values(w + padding), values(static_cast<std::size_t>(stride_values) * h, kUnwritten) {}
  Pixels pixels() {
    return {values.data(), width, height, static_cast<std::ptrdiff_t>(stride_values * sizeof(std::int16_t)), PixelType::s16};
  }
  std::int16_t at(std::uint32_t x, std::uint32_t y) const { return values[static_cast<std::size_t>(y) * stride_values + x]; }

  std::uint32_t width, height;
  std::size_t stride_values;
  std::vector<std::int16_t> values;
};

/// The six values of one placement, from the definition (indexed as kMethods).
std::array<std::int16_t, 6> reference(const U8Image& src, const U8Image& tpl, std::uint32_t x, std::uint32_t y) {
  double t2 = 0.0;
  for (std::uint32_t j = 0; j < tpl.height; ++j) {
    for (std::uint32_t i = 0; i < tpl.width; ++i) t2 += static_cast<double>(tpl.at(i, j)) * tpl.at(i, j);
  }
  std::uint64_t hamming = 0, l1 = 0, l2 = 0, cross = 0, s2 = 0;
  for (std::uint32_t j = 0; j < tpl.height; ++j) {
    for (std::uint32_t i = 0; i < tpl.width; ++i) {
      const int s = src.at(x + i, y + j), t = tpl.at(i, j);
      hamming += static_cast<unsigned>(std::popcount(static_cast<unsigned>(s ^ t)));
      l1 += static_cast<std::uint64_t>(std::abs(s - t));
      l2 += static_cast<std::uint64_t>((s - t) * (s - t));
      cross += static_cast<std::uint64_t>(s * t);
      s2 += static_cast<std::uint64_t>(s * s);
    }
  }
  const auto saturate = [](double v) { return static_cast<std::int16_t>(std::clamp(v, -32768.0, 32767.0)); };
  const double norm = std::sqrt(static_cast<double>(s2) * t2);
  const auto normalised = [&](std::uint64_t sum) { return norm > 0.0 ? std::round(256.0 * static_cast<double>(sum) / norm) : 0.0; };
  return {saturate(static_cast<double>(hamming)), saturate(static_cast<double>(l1)), saturate(static_cast<double>(l2)),
          saturate(static_cast<double>(cross)),   saturate(normalised(l2)),           saturate(normalised(cross))};
}

/// Runs every method on @p src and @p tpl and compares every output value with the reference (and checks
/// that the row padding is left alone). Returns how many values were compared.
std::size_t expect_every_method_matches(const U8Image& src, const U8Image& tpl, const std::string& what) {
  const std::uint32_t ow = src.width - tpl.width + 1, oh = src.height - tpl.height + 1;
  std::vector<S16Image> outs;
  for (std::size_t m = 0; m < std::size(kMethods); ++m) {
    outs.emplace_back(ow, oh);
    EXPECT_TRUE(match_template(src.cplane(), tpl.cplane(), kMethods[m], outs.back().pixels())) << kMethodNames[m] << " " << what;
  }
  std::size_t compared = 0;
  for (std::uint32_t y = 0; y < oh; ++y) {
    for (std::uint32_t x = 0; x < ow; ++x) {
      const std::array<std::int16_t, 6> want = reference(src, tpl, x, y);
      for (std::size_t m = 0; m < std::size(kMethods); ++m, ++compared) {
        if (outs[m].at(x, y) != want[m]) {
          ADD_FAILURE() << kMethodNames[m] << " " << what << " at (" << x << ", " << y << "): " << outs[m].at(x, y) << ", expected "
                        << want[m];
          return compared;
        }
      }
    }
  }
  for (std::size_t m = 0; m < std::size(kMethods); ++m) {
    for (std::uint32_t y = 0; y < oh; ++y) {
      for (std::size_t p = ow; p < outs[m].stride_values; ++p) {
        if (outs[m].values[y * outs[m].stride_values + p] != kUnwritten) {
          ADD_FAILURE() << kMethodNames[m] << " " << what << " wrote the padding of row " << y;
          return compared;
        }
      }
    }
  }
  return compared;
}

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards (as test_vision_functions).
class MatchTemplateEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

TEST_P(MatchTemplateEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

// Random sources and templates: full-range pixels (the sums of all but the smallest templates saturate) and
// small ones (0..7 and 0..1: the unnormalised sums mostly stay within S16). Output widths from 1 to 143
// cover the scalar path for outputs narrower than a vector, whole blocks of four vectors, single vectors and
// the last vector overlapping the one before.
TEST_P(MatchTemplateEverySimdTarget, EveryMethodMatchesTheReferenceForRandomImages) {
  const std::pair<std::uint32_t, std::uint32_t> sources[] = {{150, 21}, {77, 12}, {19, 9}, {40, 40}};
  const std::pair<std::uint32_t, std::uint32_t> templates[] = {{1, 1}, {3, 5}, {8, 8}, {17, 9}, {0, 0} /* the source's size */};
  const unsigned ranges[] = {255, 7, 1};
  std::uint32_t seed = 1;
  std::size_t compared = 0;
  for (const auto& [sw, sh] : sources) {
    for (const auto& [tw0, th0] : templates) {
      const std::uint32_t tw = tw0 == 0 ? sw : tw0, th = th0 == 0 ? sh : th0;
      for (const unsigned max : ranges) {
        // Rows packed (no padding) for some: a read past the last pixel then leaves the allocation (ASan).
        const U8Image src(sw, sh, seed, max, seed % 3 == 0 ? 0 : 5);
        const U8Image tpl(tw, th, seed + 1, max, seed % 4 == 1 ? 0 : 3);
        seed += 2;
        compared += expect_every_method_matches(src, tpl, std::to_string(sw) + "x" + std::to_string(sh) + " source, " + std::to_string(tw) +
                                                              "x" + std::to_string(th) + " template, pixels 0.." + std::to_string(max));
      }
    }
  }
  EXPECT_GT(compared, 100000u);
}

// The template cut from the source: a perfect match there (L2 0, CCORR_NORM 256), near ones beside it.
TEST_P(MatchTemplateEverySimdTarget, TemplateCutFromTheSourceMatchesExactlyWhereItWasCut) {
  const U8Image src(97, 31, 7);
  for (const auto& [tw, th] : {std::pair<std::uint32_t, std::uint32_t>{8, 8}, {17, 9}, {3, 5}}) {
    U8Image tpl(tw, th, 8);
    const std::uint32_t cx = 41, cy = 13;
    for (std::uint32_t j = 0; j < th; ++j)
      for (std::uint32_t i = 0; i < tw; ++i) tpl.at(i, j) = src.at(cx + i, cy + j);
    expect_every_method_matches(src, tpl, "cut " + std::to_string(tw) + "x" + std::to_string(th));
    S16Image l2(src.width - tw + 1, src.height - th + 1), ccorr_norm(l2.width, l2.height), hamming(l2.width, l2.height);
    ASSERT_TRUE(match_template(src.cplane(), tpl.cplane(), CompareMethod::l2, l2.pixels()));
    ASSERT_TRUE(match_template(src.cplane(), tpl.cplane(), CompareMethod::ccorr_norm, ccorr_norm.pixels()));
    ASSERT_TRUE(match_template(src.cplane(), tpl.cplane(), CompareMethod::hamming, hamming.pixels()));
    EXPECT_EQ(l2.at(cx, cy), 0);
    EXPECT_EQ(hamming.at(cx, cy), 0);
    EXPECT_EQ(ccorr_norm.at(cx, cy), 256);
  }
}

// Placements whose pixels are all zero, and an all-zero template: the normalised values are 0 there.
TEST_P(MatchTemplateEverySimdTarget, AllZeroPlacementsAndTemplatesGiveZeroNormalisedValues) {
  U8Image src(90, 20, 11);
  for (std::uint32_t y = 4; y < 16; ++y)
    for (std::uint32_t x = 30; x < 80; ++x) src.at(x, y) = 0;
  const U8Image tpl(8, 8, 12);
  expect_every_method_matches(src, tpl, "zero block");
  for (const CompareMethod m : {CompareMethod::l2_norm, CompareMethod::ccorr_norm}) {
    S16Image out(src.width - 7, src.height - 7);
    ASSERT_TRUE(match_template(src.cplane(), tpl.cplane(), m, out.pixels()));
    for (std::uint32_t y = 4; y + 8 <= 16; ++y)
      for (std::uint32_t x = 30; x + 8 <= 80; ++x) ASSERT_EQ(out.at(x, y), 0) << "at (" << x << ", " << y << ")";
    EXPECT_NE(out.at(0, 0), 0);
  }
  const U8Image zero(5, 3, 13, 0);
  expect_every_method_matches(src, zero, "zero template");
  for (const CompareMethod m : {CompareMethod::l2_norm, CompareMethod::ccorr_norm}) {
    S16Image out(src.width - 4, src.height - 2);
    ASSERT_TRUE(match_template(src.cplane(), zero.cplane(), m, out.pixels()));
    for (std::uint32_t y = 0; y < out.height; ++y)
      for (std::uint32_t x = 0; x < out.width; ++x) ASSERT_EQ(out.at(x, y), 0) << "at (" << x << ", " << y << ")";
  }
}

// Sums past S16 saturate to 32767, for the unnormalised sums and the normalised values alike.
TEST_P(MatchTemplateEverySimdTarget, SumsPastS16Saturate) {
  U8Image src(70, 12, 21, 0);  // all 255 (set below)
  std::fill(src.bytes.begin(), src.bytes.end(), std::uint8_t{255});
  U8Image ones(17, 9, 22, 0);
  std::fill(ones.bytes.begin(), ones.bytes.end(), std::uint8_t{1});
  U8Image full(17, 9, 23, 0);
  std::fill(full.bytes.begin(), full.bytes.end(), std::uint8_t{255});
  // Against ones: hamming 153 * 7, L1 153 * 254 = 38862, L2 153 * 254^2, CCORR 153 * 255 = 39015,
  // L2_NORM 256 * 254^2 / 255 = 64770, CCORR_NORM 256: all but hamming and CCORR_NORM past S16.
  const std::int16_t against_ones[] = {1071, 32767, 32767, 32767, 32767, 256};
  // Against 255s: 0, 0, 0, 153 * 65025, 0, 256.
  const std::int16_t against_full[] = {0, 0, 0, 32767, 0, 256};
  for (std::size_t m = 0; m < std::size(kMethods); ++m) {
    S16Image a(54, 4), b(54, 4);
    ASSERT_TRUE(match_template(src.cplane(), ones.cplane(), kMethods[m], a.pixels()));
    ASSERT_TRUE(match_template(src.cplane(), full.cplane(), kMethods[m], b.pixels()));
    for (std::uint32_t y = 0; y < 4; ++y) {
      for (std::uint32_t x = 0; x < 54; ++x) {
        ASSERT_EQ(a.at(x, y), against_ones[m]) << kMethodNames[m] << " at (" << x << ", " << y << ")";
        ASSERT_EQ(b.at(x, y), against_full[m]) << kMethodNames[m] << " at (" << x << ", " << y << ")";
      }
    }
  }
  expect_every_method_matches(src, ones, "255s against 1s");
  expect_every_method_matches(src, full, "255s against 255s");
}

// Templates of more than 32768 pixels, and one row wider than that: the vector sums are capped or drained
// into 64-bit totals between runs of terms (sum s^2 then exceeds 2^31), with the same results.
TEST_P(MatchTemplateEverySimdTarget, LargeTemplatesKeepExactSums) {
  {
    const U8Image src(232, 201, 31);  // 33 x 2 placements
    const U8Image tpl(200, 200, 32);  // 40000 pixels
    expect_every_method_matches(src, tpl, "200x200 template");
    const U8Image low(232, 201, 33, 1), low_tpl(200, 200, 34, 1);
    expect_every_method_matches(low, low_tpl, "200x200 template, pixels 0..1");
    // 255s against 0s and 255s: L2 and CCORR reach 40000 * 255^2 > 2^31, saturated all the same.
    U8Image white(210, 203, 37, 0), white_tpl(200, 200, 39, 0);
    const U8Image black(200, 200, 38, 0);
    std::fill(white.bytes.begin(), white.bytes.end(), std::uint8_t{255});
    std::fill(white_tpl.bytes.begin(), white_tpl.bytes.end(), std::uint8_t{255});
    expect_every_method_matches(white, black, "200x200 0s in 255s");
    expect_every_method_matches(white, white_tpl, "200x200 255s in 255s");
    S16Image l2(11, 4), ccorr(11, 4);
    ASSERT_TRUE(match_template(white.cplane(), black.cplane(), CompareMethod::l2, l2.pixels()));
    ASSERT_TRUE(match_template(white.cplane(), white_tpl.cplane(), CompareMethod::ccorr, ccorr.pixels()));
    for (std::uint32_t y = 0; y < 4; ++y) {
      for (std::uint32_t x = 0; x < 11; ++x) {
        ASSERT_EQ(l2.at(x, y), 32767) << "at (" << x << ", " << y << ")";
        ASSERT_EQ(ccorr.at(x, y), 32767) << "at (" << x << ", " << y << ")";
      }
    }
  }
  {
    const U8Image src(33050, 2, 35, 255, 0);
    const U8Image tpl(33000, 1, 36);  // one row of 33000 pixels
    expect_every_method_matches(src, tpl, "33000x1 template");
  }
}

TEST_P(MatchTemplateEverySimdTarget, RefusesMismatchedArguments) {
  const U8Image src(20, 10, 41), tpl(5, 4, 42), wide(21, 2, 43);
  S16Image out(16, 7), small(15, 7);
  EXPECT_FALSE(match_template(src.cplane(), tpl.cplane(), CompareMethod::l2, small.pixels()));
  EXPECT_FALSE(match_template(src.cplane(), wide.cplane(), CompareMethod::l2, out.pixels()));
  Pixels u8 = out.pixels();
  u8.type = PixelType::u8;
  EXPECT_FALSE(match_template(src.cplane(), tpl.cplane(), CompareMethod::l2, u8));
  EXPECT_FALSE(match_template(src.cplane(), tpl.cplane(), static_cast<CompareMethod>(6), out.pixels()));
  EXPECT_FALSE(match_template(src.cplane(), ConstPlane{tpl.bytes.data(), 0, 4, tpl.stride}, CompareMethod::l2, out.pixels()));
  EXPECT_TRUE(std::all_of(out.values.begin(), out.values.end(), [](std::int16_t v) { return v == kUnwritten; }));
  EXPECT_TRUE(match_template(src.cplane(), tpl.cplane(), CompareMethod::l2, out.pixels()));
}

INSTANTIATE_TEST_SUITE_P(Simd, MatchTemplateEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
