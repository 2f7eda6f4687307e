// The vision library's HOGCells and HOGFeatures (kernels/vision/hog.hpp) on every instruction set Highway
// compiled in and this CPU runs, against references written here from the definitions one pixel, one window
// at a time: random and structured images of odd sizes, rows with padding, pixels one or two bytes apart,
// cells of 1..9 pixels a side, 1..360 bins, blocks and windows of several shapes and strides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/hog.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::ptrdiff_t pixel_stride, std::uint32_t padding, std::mt19937& rng, int kind)
      : width(w), height(h), pixel(pixel_stride), stride(static_cast<std::ptrdiff_t>(w) * pixel_stride + padding),
        bytes(static_cast<std::size_t>(stride) * h) {
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        // Noise, a ramp with noise (small gradients), or two levels (only a few orientations, many equal).
        const int v = kind == 0 ? static_cast<int>(rng() % 256) : kind == 1 ? static_cast<int>((x * 7 + y * 3 + rng() % 9) % 256)
                                                                             : static_cast<int>(rng() % 2) * 255;
        bytes[static_cast<std::size_t>(y * stride + x * pixel)] = static_cast<std::uint8_t>(v);
      }
    }
  }
  HogImage view() const { return {bytes.data(), width, height, stride, pixel}; }
  float at(int x, int y) const { return bytes[static_cast<std::size_t>(y * stride + x * pixel)]; }

  std::uint32_t width, height;
  std::ptrdiff_t pixel, stride;
  std::vector<std::uint8_t> bytes;
};

/// HOGCells from its definition, summing into int16 as it does.
void reference_cells(const Image& img, const HogCellsOptions& o, std::vector<std::int16_t>& magnitudes, std::vector<std::int16_t>& bins) {
  const int w = static_cast<int>(img.width), h = static_cast<int>(img.height);
  const int cells_x = w / o.cell_width, cells_y = h / o.cell_height;
  magnitudes.assign(static_cast<std::size_t>(cells_x * cells_y), 0);
  bins.assign(static_cast<std::size_t>(cells_x * cells_y * o.bins), 0);
  for (int y = 0; y < cells_y * o.cell_height; ++y) {
    for (int x = 0; x < cells_x * o.cell_width; ++x) {
      const float gx = img.at(std::min(x + 1, w - 1), y) - img.at(std::max(x - 1, 0), y);
      const float gy = img.at(x, std::min(y + 1, h - 1)) - img.at(x, std::max(y - 1, 0));
      const float magnitude = std::sqrt(gx * gx + gy * gy);
      float orientation = static_cast<float>(std::fmod(std::atan2(gy, gx + 1e-14f) * (180.0 / 3.14159265), 360.0));
      if (orientation < 0.0f) orientation += 360.0f;
      const int bin = std::min(static_cast<int>(std::floor(orientation * (static_cast<float>(o.bins) / 360.0f))), o.bins - 1);
      const int cell = (y / o.cell_height) * cells_x + x / o.cell_width;
      const float share = magnitude / static_cast<float>(o.cell_width * o.cell_height);
      auto& m = magnitudes[static_cast<std::size_t>(cell)];
      m = static_cast<std::int16_t>(static_cast<float>(m) + share);
      auto& b = bins[static_cast<std::size_t>(cell * o.bins + bin)];
      b = static_cast<std::int16_t>(static_cast<float>(b) + share);
    }
  }
}

/// HOGFeatures from its definition, every window's every block computed where it is written.
std::vector<std::int16_t> reference_features(const std::vector<std::int16_t>& magnitudes, const std::vector<std::int16_t>& bins, int cells_x,
                                             const HogFeaturesOptions& p, int windows_x, int windows_y) {
  std::vector<std::int16_t> out;
  const int blocks_w = (p.window_width - p.block_width) / p.block_stride + 1, blocks_h = (p.window_height - p.block_height) / p.block_stride + 1;
  const int cells_w = p.block_width / p.cell_width, cells_h = p.block_height / p.cell_height;
  for (int wy = 0; wy < windows_y; ++wy) {
    for (int wx = 0; wx < windows_x; ++wx) {
      for (int by = 0; by < blocks_h; ++by) {
        for (int bx = 0; bx < blocks_w; ++bx) {
          const int cx = (wx * p.window_stride + bx * p.block_stride) / p.cell_width;
          const int cy = (wy * p.window_stride + by * p.block_stride) / p.cell_height;
          float norm = 0.0f;
          for (int y = 0; y < cells_h; ++y) {
            for (int x = 0; x < cells_w; ++x) {
              const float m = magnitudes[static_cast<std::size_t>((cy + y) * cells_x + cx + x)];
              norm += m * m;
            }
          }
          norm = std::sqrt(norm + 1e-14f);
          const std::size_t first = out.size();
          for (int y = 0; y < cells_h; ++y) {
            for (int x = 0; x < cells_w; ++x) {
              for (int k = 0; k < p.bins; ++k) {
                const float b = bins[static_cast<std::size_t>(((cy + y) * cells_x + cx + x) * p.bins + k)];
                out.push_back(static_cast<std::int16_t>(std::min(b / norm, p.threshold) * 256.0f));
              }
            }
          }
          float renorm = 0.0f;
          for (std::size_t i = first; i < out.size(); ++i) renorm += (out[i] / 256.0f) * (out[i] / 256.0f);
          renorm = std::sqrt(renorm + 1e-14f);
          for (std::size_t i = first; i < out.size(); ++i) out[i] = static_cast<std::int16_t>(out[i] / 256.0f / renorm * 256.0f);
        }
      }
    }
  }
  return out;
}

class HogEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

template <class T>
int count_different(const std::vector<T>& got, const std::vector<T>& want, const std::string& where) {
  int wrong = 0;
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    if (got[i] != want[i] && wrong++ < 5) ADD_FAILURE() << where << " at " << i << ": " << got[i] << " != " << want[i];
  }
  return wrong;
}

TEST_P(HogEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(HogEverySimdTarget, CellsAndFeaturesMatchTheDefinition) {
  std::mt19937 rng(31);
  int features_checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const auto w = static_cast<std::uint32_t>(1 + rng() % 140), h = static_cast<std::uint32_t>(1 + rng() % 60);
    const Image img(w, h, 1 + static_cast<std::ptrdiff_t>(rng() % 2), static_cast<std::uint32_t>(rng() % 5), rng, trial % 3);
    HogCellsOptions o;
    o.cell_width = 1 + static_cast<int>(rng() % std::min<std::uint32_t>(9, w));
    o.cell_height = 1 + static_cast<int>(rng() % std::min<std::uint32_t>(9, h));
    const int bin_counts[] = {1, 2, 4, 9, 12, 18, 360};
    o.bins = bin_counts[rng() % 7];
    const std::string where = std::to_string(w) + "x" + std::to_string(h) + " pixels " + std::to_string(img.pixel) + " apart, cells " +
                              std::to_string(o.cell_width) + "x" + std::to_string(o.cell_height) + ", " + std::to_string(o.bins) + " bins";
    const std::size_t cells_x = w / static_cast<std::uint32_t>(o.cell_width), cells_y = h / static_cast<std::uint32_t>(o.cell_height);
    std::vector<std::int16_t> want_magnitudes, want_bins;
    reference_cells(img, o, want_magnitudes, want_bins);
    // One past the outputs' ends: never written.
    std::vector<std::int16_t> magnitudes(cells_x * cells_y + 1, 12345), bins(cells_x * cells_y * static_cast<std::size_t>(o.bins) + 1, 12345);
    std::vector<std::uint8_t> scratch(hog_cells_scratch_size(w, o));
    ASSERT_TRUE(hog_cells(img.view(), o, magnitudes.data(), bins.data(), scratch)) << where;
    EXPECT_EQ(magnitudes.back(), 12345) << where;
    EXPECT_EQ(bins.back(), 12345) << where;
    magnitudes.pop_back();
    bins.pop_back();
    EXPECT_EQ(count_different(magnitudes, want_magnitudes, where + " magnitudes"), 0);
    EXPECT_EQ(count_different(bins, want_bins, where + " bins"), 0);
    // Again with the scratch as left (its table filled): the same; and without magnitudes.
    std::vector<std::int16_t> again(bins.size());
    ASSERT_TRUE(hog_cells(img.view(), o, nullptr, again.data(), scratch)) << where;
    EXPECT_EQ(count_different(again, want_bins, where + " bins, second run"), 0);

    // Features over blocks and windows that fit these cells.
    HogFeaturesOptions p;
    p.cell_width = o.cell_width;
    p.cell_height = o.cell_height;
    p.bins = o.bins;
    const int cells_w = 1 + static_cast<int>(rng() % std::min<std::size_t>(3, cells_x)), cells_h = 1 + static_cast<int>(rng() % std::min<std::size_t>(3, cells_y));
    p.block_width = cells_w * o.cell_width;
    p.block_height = cells_h * o.cell_height;
    const int step = std::lcm(o.cell_width, o.cell_height);  // strides in whole cells both ways
    p.block_stride = step * (1 + static_cast<int>(rng() % 2));
    p.window_stride = step * (1 + static_cast<int>(rng() % 2));
    p.window_width = p.block_width + p.block_stride * static_cast<int>(rng() % 3);
    p.window_height = p.block_height + p.block_stride * static_cast<int>(rng() % 3);
    p.threshold = trial % 2 == 0 ? 0.2f : 1.0f;
    if (static_cast<std::uint32_t>(p.window_width) > w || static_cast<std::uint32_t>(p.window_height) > h) continue;
    const int windows_x = static_cast<int>((w - static_cast<std::uint32_t>(p.window_width)) / static_cast<std::uint32_t>(p.window_stride) + 1);
    const int windows_y = static_cast<int>((h - static_cast<std::uint32_t>(p.window_height)) / static_cast<std::uint32_t>(p.window_stride) + 1);
    const std::vector<std::int16_t> want = reference_features(want_magnitudes, want_bins, static_cast<int>(cells_x), p, windows_x, windows_y);
    ASSERT_EQ(want.size(), static_cast<std::size_t>(windows_x * windows_y) * hog_features_per_window(p)) << where;
    std::vector<std::int16_t> features(want.size() + 1, 12345);
    std::vector<std::uint8_t> feature_scratch(hog_features_scratch_size(static_cast<std::uint32_t>(cells_x), static_cast<std::uint32_t>(cells_y), p));
    ASSERT_TRUE(hog_features(magnitudes.data(), bins.data(), static_cast<std::uint32_t>(cells_x), static_cast<std::uint32_t>(cells_y), p,
                             static_cast<std::uint32_t>(windows_x), static_cast<std::uint32_t>(windows_y), features.data(), want.size(),
                             feature_scratch))
        << where;
    EXPECT_EQ(features.back(), 12345) << where;
    features.pop_back();
    EXPECT_EQ(count_different(features, want, where + " features"), 0);
    ++features_checked;
  }
  EXPECT_GE(features_checked, 30) << "too few trials had windows that fit";
}

TEST(Hog, RefusesOptionsThatDoNotFit) {
  std::vector<std::uint8_t> pixels(64);
  const HogImage img{pixels.data(), 8, 8, 8, 1};
  std::vector<std::int16_t> magnitudes(64), bins(64 * 360);
  HogCellsOptions o{4, 4, 9};
  std::vector<std::uint8_t> scratch(hog_cells_scratch_size(8, o));
  EXPECT_TRUE(hog_cells(img, o, magnitudes.data(), bins.data(), scratch));
  EXPECT_FALSE(hog_cells(img, HogCellsOptions{9, 4, 9}, magnitudes.data(), bins.data(), scratch)) << "a cell wider than the image";
  EXPECT_FALSE(hog_cells(img, HogCellsOptions{4, 4, 361}, magnitudes.data(), bins.data(), scratch)) << "too many bins";
  EXPECT_FALSE(hog_cells(img, o, magnitudes.data(), bins.data(), std::span<std::uint8_t>(scratch.data(), scratch.size() - 1)));
  HogFeaturesOptions p{4, 4, 8, 8, 4, 9, 8, 8, 4, 0.2f};
  std::vector<std::int16_t> features(4 * 36);
  std::vector<std::uint8_t> feature_scratch(hog_features_scratch_size(2, 2, p));
  EXPECT_TRUE(hog_features(magnitudes.data(), bins.data(), 2, 2, p, 1, 1, features.data(), features.size(), feature_scratch));
  EXPECT_FALSE(hog_features(magnitudes.data(), bins.data(), 2, 2, p, 2, 1, features.data(), features.size(), feature_scratch))
      << "a window past the cells";
  EXPECT_FALSE(hog_features(magnitudes.data(), bins.data(), 2, 2, p, 1, 1, features.data(), 35, feature_scratch)) << "too few features";
  p.block_stride = 3;
  EXPECT_EQ(hog_features_per_window(p), 0u) << "a block stride of part of a cell";
}

INSTANTIATE_TEST_SUITE_P(Simd, HogEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
