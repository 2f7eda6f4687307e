// The vision library's BilateralFilter (kernels/vision/bilateral.hpp) on every instruction set Highway compiled
// in and this CPU runs, against a reference written here from the definition one element at a time: U8 and
// S16, 1..4 channels interleaved, planar and overlapping (OpenVX's [1, width, height] read as three), rows
// with padding, odd sizes, every diameter, replicate and constant borders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "visiongraph/kernels/vision/bilateral.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// How the channels lie in memory.
enum class Arrangement { interleaved, planar, overlapping };

/// A tensor's bytes and their layout, with @p padding elements after each row (random: a read shows).
template <class T>
struct Tensor {
  Tensor(std::uint32_t w, std::uint32_t h, int c, Arrangement arrangement, std::uint32_t padding) : width(w), height(h), channels(c) {
    const auto size = static_cast<std::ptrdiff_t>(sizeof(T));
    const std::ptrdiff_t stored = arrangement == Arrangement::overlapping ? 1 : c;  // channels the memory holds per pixel
    if (arrangement == Arrangement::planar) {
      layout.pixel_step = size;
      layout.row_step = size * (w + padding);
      layout.channel_step = layout.row_step * h;
    } else {
      layout.channel_step = size;
      layout.pixel_step = size * stored;
      layout.row_step = size * (stored * w + padding);
    }
    const std::ptrdiff_t planes = arrangement == Arrangement::planar ? c : 1, per_pixel = arrangement == Arrangement::planar ? 1 : stored;
    layout.last = arrangement == Arrangement::planar ? (planes - 1) * layout.channel_step + (w - 1) * layout.pixel_step + (h - 1) * layout.row_step
                                                     : (per_pixel - 1) * layout.channel_step + (w - 1) * layout.pixel_step + (h - 1) * layout.row_step;
    bytes.resize(static_cast<std::size_t>(layout.last) + sizeof(T) + 3 * sizeof(T));  // and a little past the last element
  }

  T get(std::ptrdiff_t offset) const {
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
  }
  void set(std::ptrdiff_t offset, T v) { std::memcpy(bytes.data() + offset, &v, sizeof v); }

  std::uint32_t width, height;
  int channels;
  BilateralLayout layout;
  std::vector<std::uint8_t> bytes;
};

/// Element (x, y, c) as the definition reads it: the border outside the image, the last element past it.
template <class T>
int read(const Tensor<T>& t, const BilateralOptions& o, int x, int y, int c) {
  const int w = static_cast<int>(o.width), h = static_cast<int>(o.height);
  if (x < 0 || y < 0 || x >= w || y >= h) {
    if (o.constant_border) return o.constant;
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
  }
  const std::ptrdiff_t at = y * t.layout.row_step + x * t.layout.pixel_step + c * t.layout.channel_step;
  return t.get(std::min(at, t.layout.last));
}

/// The definition of bilateral.hpp, element by element, written into @p out in raster order.
template <class T>
void reference(const Tensor<T>& in, Tensor<T>& out, const BilateralOptions& o) {
  const int w = static_cast<int>(o.width), h = static_cast<int>(o.height), channels = o.channels, radius = o.diameter / 2;
  constexpr int kTable = 4096 * 4 + 2;
  std::vector<float> colour(kTable, 0.0f);
  const double colour_coefficient = -0.5 / (static_cast<double>(o.sigma_values) * o.sigma_values);
  float scale = 0.0f;
  bool flat = false;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    for (int i = 0; i < 256 * channels; ++i) colour[static_cast<std::size_t>(i)] = static_cast<float>(std::exp(double(i) * i * colour_coefficient));
  } else {
    int lowest = 1 << 20, highest = -(1 << 20);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int c = 0; c < channels; ++c) {
          lowest = std::min(lowest, read(in, o, x, y, c));
          highest = std::max(highest, read(in, o, x, y, c));
        }
      }
    }
    flat = lowest == highest;
    if (!flat) {
      scale = static_cast<float>(4096 * channels) / static_cast<float>((highest - lowest) * channels);
      bool zero = false;
      for (int i = 0; i < kTable; ++i) {
        const double d = i / static_cast<double>(scale);
        colour[static_cast<std::size_t>(i)] = zero ? 0.0f : static_cast<float>(std::exp(d * d * colour_coefficient));
        zero = colour[static_cast<std::size_t>(i)] == 0.0f;
      }
    }
  }
  const double space_coefficient = -0.5 / (static_cast<double>(o.sigma_space) * o.sigma_space);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float sum[4] = {}, wsum = 0.0f;
      for (int j = -radius; j <= radius && !flat; ++j) {
        for (int i = -radius; i <= radius; ++i) {
          const double d = std::sqrt(static_cast<double>(i * i + j * j));
          if (d > radius) continue;
          const float space = static_cast<float>(std::exp(d * d * space_coefficient));
          int distance = 0;
          for (int c = 0; c < channels; ++c) distance += std::abs(read(in, o, x + i, y + j, c) - read(in, o, x, y, c));
          float weight;
          if constexpr (std::is_same_v<T, std::uint8_t>) {
            weight = colour[static_cast<std::size_t>(distance)];
          } else {
            float a = static_cast<float>(distance) * scale;
            const int k = static_cast<int>(std::floor(a));
            a -= static_cast<float>(k);
            weight = k + 1 < kTable ? colour[static_cast<std::size_t>(k)] + a * (colour[static_cast<std::size_t>(k + 1)] - colour[static_cast<std::size_t>(k)])
                                    : 0.0f;
          }
          weight = space * weight;
          for (int c = 0; c < channels; ++c) sum[c] += static_cast<float>(read(in, o, x + i, y + j, c)) * weight;
          wsum += weight;
        }
      }
      for (int c = 0; c < channels; ++c) {
        const int centre = read(in, o, x, y, c);
        float r = flat || !(wsum > 0.0f) ? static_cast<float>(centre) : std::round(sum[c] / wsum);
        r = std::clamp(r, static_cast<float>(std::numeric_limits<T>::min()), static_cast<float>(std::numeric_limits<T>::max()));
        const std::ptrdiff_t at = y * out.layout.row_step + x * out.layout.pixel_step + c * out.layout.channel_step;
        if (at <= out.layout.last) out.set(at, static_cast<T>(r));
      }
    }
  }
}

class BilateralEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

const char* name_of(Arrangement a) {
  return a == Arrangement::interleaved ? "interleaved" : a == Arrangement::planar ? "planar" : "overlapping";
}

/// Random values in [lowest, highest] (padding and bytes past the tensor too), the filter and the reference
/// on them, every byte of the outputs compared (what neither writes keeps its random value).
template <class T>
void check(std::mt19937& rng, std::uint32_t w, std::uint32_t h, int channels, Arrangement arrangement, const BilateralOptions& base, int lowest,
           int highest) {
  BilateralOptions o = base;
  o.width = w;
  o.height = h;
  o.channels = arrangement == Arrangement::overlapping ? 3 : channels;
  const auto padding = static_cast<std::uint32_t>(rng() % 4);
  Tensor<T> in(w, h, o.channels, arrangement, padding);
  for (std::size_t at = 0; at + sizeof(T) <= in.bytes.size(); at += sizeof(T)) {
    in.set(static_cast<std::ptrdiff_t>(at), static_cast<T>(lowest + static_cast<int>(rng() % static_cast<unsigned>(highest - lowest + 1))));
  }
  Tensor<T> out(w, h, o.channels, arrangement, padding);
  for (auto& b : out.bytes) b = static_cast<std::uint8_t>(rng());
  Tensor<T> want = out;
  std::vector<std::uint8_t> scratch(bilateral_filter_scratch_size(w, o.channels));
  const std::string where = std::string(sizeof(T) == 1 ? "U8 " : "S16 ") + std::to_string(w) + "x" + std::to_string(h) + " " +
                            std::to_string(o.channels) + " channels " + name_of(arrangement) + " diameter " + std::to_string(o.diameter) +
                            " sigmas " + std::to_string(o.sigma_space) + " " + std::to_string(o.sigma_values) +
                            (o.constant_border ? " constant " + std::to_string(o.constant) : " replicate");
  ASSERT_TRUE(bilateral_filter(reinterpret_cast<const T*>(in.bytes.data()), in.layout, reinterpret_cast<T*>(out.bytes.data()), out.layout, o,
                               scratch))
      << where;
  reference(in, want, o);
  int wrong = 0;
  for (std::size_t at = 0; at < out.bytes.size(); ++at) {
    if (out.bytes[at] != want.bytes[at] && wrong++ < 5) {
      ADD_FAILURE() << where << " at byte " << at << ": " << int{out.bytes[at]} << " != " << int{want.bytes[at]};
    }
  }
  EXPECT_EQ(wrong, 0) << where;
}

BilateralOptions random_options(std::mt19937& rng, bool s16) {
  BilateralOptions o;
  o.diameter = 3 + 2 * static_cast<int>(rng() % 7);  // 3..15
  const float sigma_spaces[] = {0.3f, 1.0f, 2.5f, 7.0f, 40.0f};
  o.sigma_space = sigma_spaces[rng() % 5];
  const float sigma_values[] = {0.5f, 5.0f, 20.0f, 60.0f, 400.0f, 3000.0f};
  o.sigma_values = sigma_values[rng() % (s16 ? 6 : 5)];
  o.constant_border = rng() % 2 == 0;
  return o;
}

TEST_P(BilateralEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(BilateralEverySimdTarget, U8RandomSizesChannelsAndBorders) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 80; ++trial) {
    const auto w = static_cast<std::uint32_t>(1 + rng() % 75), h = static_cast<std::uint32_t>(1 + rng() % 17);
    BilateralOptions o = random_options(rng, false);
    o.constant = static_cast<std::int16_t>(rng() % 256);
    const auto arrangement = static_cast<Arrangement>(rng() % 3);
    // Few levels now and then: many equal distances (and sums that land on halves).
    const int highest = trial % 4 == 0 ? 3 : 255;
    check<std::uint8_t>(rng, w, h, 1 + static_cast<int>(rng() % 4), arrangement, o, 0, highest);
  }
}

TEST_P(BilateralEverySimdTarget, S16RandomSizesChannelsAndBorders) {
  std::mt19937 rng(4048);
  for (int trial = 0; trial < 80; ++trial) {
    const auto w = static_cast<std::uint32_t>(1 + rng() % 75), h = static_cast<std::uint32_t>(1 + rng() % 17);
    BilateralOptions o = random_options(rng, true);
    // Ranges wide and narrow, a constant inside and outside them (then distances pass the table's bins).
    const int ranges[][2] = {{-32768, 32767}, {-300, 500}, {100, 103}, {-5, -5}};
    const auto& range = ranges[trial % 4];
    o.constant = static_cast<std::int16_t>(trial % 3 == 0 ? static_cast<int>(rng() % 65536) - 32768 : range[0]);
    const auto arrangement = static_cast<Arrangement>(rng() % 3);
    check<std::int16_t>(rng, w, h, 1 + static_cast<int>(rng() % 4), arrangement, o, range[0], range[1]);
  }
}

TEST_P(BilateralEverySimdTarget, EveryDiameterBorderAndChannelCountOnWiderImages) {
  std::mt19937 rng(7);
  for (int diameter = 3; diameter <= kMaxBilateralDiameter; diameter += 2) {
    for (const bool constant : {false, true}) {
      BilateralOptions o;
      o.diameter = diameter;
      o.sigma_space = 3.0f;
      o.sigma_values = 30.0f;
      o.constant_border = constant;
      o.constant = 200;
      const auto w = static_cast<std::uint32_t>(97 + rng() % 80), h = static_cast<std::uint32_t>(diameter + 2);
      for (int channels = 1; channels <= 4; ++channels) {
        check<std::uint8_t>(rng, w, h, channels, Arrangement::interleaved, o, 0, 255);
        check<std::int16_t>(rng, w, h, channels, Arrangement::interleaved, o, -2000, 2000);
      }
      check<std::uint8_t>(rng, w, h, 3, Arrangement::overlapping, o, 0, 255);
      check<std::int16_t>(rng, w, h, 3, Arrangement::overlapping, o, -2000, 2000);
    }
  }
}

TEST(Bilateral, RefusesOptionsOutOfRangeAndSmallScratch) {
  std::vector<std::uint8_t> in(64), out(64), scratch(bilateral_filter_scratch_size(8, 1));
  BilateralLayout l{0, 1, 8, 63};
  BilateralOptions o;
  o.width = 8;
  o.height = 8;
  EXPECT_TRUE(bilateral_filter(in.data(), l, out.data(), l, o, scratch));
  for (const int diameter : {1, 4, 17}) {
    BilateralOptions bad = o;
    bad.diameter = diameter;
    EXPECT_FALSE(bilateral_filter(in.data(), l, out.data(), l, bad, scratch)) << diameter;
  }
  BilateralOptions bad = o;
  bad.sigma_values = 0.0f;
  EXPECT_FALSE(bilateral_filter(in.data(), l, out.data(), l, bad, scratch));
  bad = o;
  bad.channels = 5;
  EXPECT_FALSE(bilateral_filter(in.data(), l, out.data(), l, bad, scratch));
  EXPECT_EQ(bilateral_filter_scratch_size(8, 5), 0u);
  EXPECT_FALSE(bilateral_filter(in.data(), l, out.data(), l, o, std::span<std::uint8_t>(scratch.data(), scratch.size() - 1)));
}

INSTANTIATE_TEST_SUITE_P(Simd, BilateralEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
