// The vision library's NonLinearFilter (kernels/vision/non_linear_filter.hpp) on every instruction set Highway
// compiled in and this CPU runs, against a reference written here from the definition: gather the selected
// pixels (the border applied to each read), sort them all, take the first, the last or the one at index n / 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/non_linear_filter.hpp"
#include "visiongraph/kernels/vision/simd.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

/// A U8 plane with @p padding bytes after each row (random too: a read of them would show).
struct Image {
  Image(std::uint32_t w, std::uint32_t h, std::uint32_t padding, std::uint32_t seed, int levels = 256)
      : width(w), height(h), stride(static_cast<std::ptrdiff_t>(w + padding)), bytes(static_cast<std::size_t>(stride) * h) {
    std::mt19937 rng(seed);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng() % static_cast<unsigned>(levels) * (255 / std::max(1, levels - 1)));
  }
  ConstPlane plane() const { return {bytes.data(), width, height, stride}; }
  Plane plane() { return {bytes.data(), width, height, stride}; }
  int at(int x, int y) const { return bytes[static_cast<std::size_t>(y) * static_cast<std::size_t>(stride) + static_cast<std::size_t>(x)]; }

  std::uint32_t width, height;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
};

int reference_pixel(const Image& img, NonLinearFunction f, const std::vector<std::uint8_t>& mask, int columns, int rows, Border border,
                    int x, int y) {
  const int w = static_cast<int>(img.width), h = static_cast<int>(img.height);
  std::vector<int> values;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (mask[static_cast<std::size_t>(r * columns + c)] == 0) continue;
      const int xx = x + c - columns / 2, yy = y + r - rows / 2;
      if (border.mode == BorderMode::constant && (xx < 0 || yy < 0 || xx >= w || yy >= h)) {
        values.push_back(border.constant);
      } else {
        values.push_back(img.at(std::clamp(xx, 0, w - 1), std::clamp(yy, 0, h - 1)));
      }
    }
  }
  std::sort(values.begin(), values.end());
  if (f == NonLinearFunction::min) return values.front();
  if (f == NonLinearFunction::max) return values.back();
  return values[values.size() / 2];
}

/// Runs the test body once per SIMD target, restoring the CPU's best afterwards (as test_vision_functions).
class NonLinearEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

/// Filters @p img (rows @p band) and compares the band with the reference, and the rows outside it with
/// what was there before (untouched).
void check(const Image& img, NonLinearFunction f, const std::vector<std::uint8_t>& mask, int columns, int rows, Border border, Rows band,
           const std::string& where) {
  Image out(img.width, img.height, 5, 77);
  const Image before = out;
  ASSERT_TRUE(non_linear_filter(f, img.plane(), out.plane(), mask.data(), columns, rows, border, band)) << where;
  const int end = static_cast<int>(std::min(band.end, img.height));
  int wrong = 0;
  for (int y = 0; y < static_cast<int>(img.height); ++y) {
    const bool inside = y >= static_cast<int>(band.begin) && y < end;
    for (int x = 0; x < static_cast<int>(out.stride); ++x) {
      const bool pixel = x < static_cast<int>(img.width) && inside;
      const int want = pixel ? reference_pixel(img, f, mask, columns, rows, border, x, y) : before.at(x, y);
      if (out.at(x, y) != want && wrong++ < 5) {
        ADD_FAILURE() << where << " at (" << x << ", " << y << "): " << out.at(x, y) << " != " << want;
      }
    }
  }
  EXPECT_EQ(wrong, 0) << where;
}

std::vector<std::uint8_t> random_mask(std::mt19937& rng, int columns, int rows, unsigned density_percent) {
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(columns * rows));
  for (auto& m : mask) m = rng() % 100 < density_percent ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
  if (std::none_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m != 0; })) mask[rng() % mask.size()] = 1;
  return mask;
}

std::string name_of(NonLinearFunction f, int columns, int rows, std::uint32_t w, std::uint32_t h, Border border) {
  return std::string(to_string(f)) + " " + std::to_string(columns) + "x" + std::to_string(rows) + " on " + std::to_string(w) + "x" +
         std::to_string(h) + (border.mode == BorderMode::constant ? " constant " + std::to_string(border.constant) : " replicate");
}

TEST_P(NonLinearEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

TEST_P(NonLinearEverySimdTarget, RandomMasksSizesAndBorders) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 60; ++trial) {
    const int columns = 1 + 2 * static_cast<int>(rng() % 8), rows = 1 + 2 * static_cast<int>(rng() % 8);  // up to 15
    const auto w = static_cast<std::uint32_t>(1 + rng() % 90), h = static_cast<std::uint32_t>(1 + rng() % 30);
    // Few levels now and then: many equal values around the median.
    const Image img(w, h, rng() % 7, static_cast<std::uint32_t>(rng()), trial % 3 == 0 ? 3 : 256);
    const std::vector<std::uint8_t> mask = random_mask(rng, columns, rows, trial % 4 == 0 ? 100 : 20 + rng() % 70);
    for (NonLinearFunction f : {NonLinearFunction::median, NonLinearFunction::min, NonLinearFunction::max}) {
      for (Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, static_cast<std::uint8_t>(rng())}}) {
        check(img, f, mask, columns, rows, border, {}, name_of(f, columns, rows, w, h, border));
      }
    }
  }
}

TEST_P(NonLinearEverySimdTarget, BoxesAndOpenVxSizedMasksOnWiderImages) {
  std::mt19937 rng(99);
  for (int side : {1, 3, 5, 7, 9}) {
    // 1100 columns: the separable min / max path's chunks of 512.
    for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{173, 19}, {64, 12}, {300, 9}, {1100, 6}}) {
      const Image img(w, h, 3, static_cast<std::uint32_t>(rng()));
      const std::vector<std::uint8_t> box(static_cast<std::size_t>(side * side), 1);
      const std::vector<std::uint8_t> sparse = random_mask(rng, side, side, 50);
      for (NonLinearFunction f : {NonLinearFunction::median, NonLinearFunction::min, NonLinearFunction::max}) {
        for (Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, 200}}) {
          check(img, f, box, side, side, border, {}, "box " + name_of(f, side, side, w, h, border));
          check(img, f, sparse, side, side, border, {}, "sparse " + name_of(f, side, side, w, h, border));
          // Separable but not a box: every other row of the window, each selecting every other column.
          std::vector<std::uint8_t> lattice(static_cast<std::size_t>(side * 3), 0);
          for (int r = 0; r < 3; r += 2)
            for (int c = 0; c < side; c += 2) lattice[static_cast<std::size_t>(r * side + c)] = 1;
          check(img, f, lattice, side, 3, border, {}, "lattice " + name_of(f, side, 3, w, h, border));
        }
      }
    }
  }
}

TEST_P(NonLinearEverySimdTarget, BandsWriteTheirRowsOnly) {
  std::mt19937 rng(7);
  const Image img(131, 40, 2, 5);
  const std::vector<std::uint8_t> mask = random_mask(rng, 7, 5, 60);
  for (NonLinearFunction f : {NonLinearFunction::median, NonLinearFunction::min, NonLinearFunction::max}) {
    for (Border border : {Border{BorderMode::replicate, 0}, Border{BorderMode::constant, 9}}) {
      for (Rows band : {Rows{0, 3}, Rows{1, 2}, Rows{10, 25}, Rows{37, 40}, Rows{38, 100}, Rows{40, 50}}) {
        check(img, f, mask, 7, 5, border, band,
              name_of(f, 7, 5, 131, 40, border) + " rows " + std::to_string(band.begin) + ".." + std::to_string(band.end));
      }
    }
  }
}

TEST_P(NonLinearEverySimdTarget, EvenCountsTakeTheUpperMedian) {
  // Two taps, left and right of the centre: the larger of the two.
  const std::uint8_t mask[3] = {1, 0, 1};
  Image img(40, 1, 0, 1);
  Image out(40, 1, 0, 2);
  ASSERT_TRUE(non_linear_filter(NonLinearFunction::median, img.plane(), out.plane(), mask, 3, 1));
  for (int x = 1; x + 1 < 40; ++x) EXPECT_EQ(out.at(x, 0), std::max(img.at(x - 1, 0), img.at(x + 1, 0))) << x;
}

TEST_P(NonLinearEverySimdTarget, RefusesBadMasksAndSizes) {
  const Image img(20, 10, 0, 3);
  Image out(20, 10, 0, 4), small(19, 10, 0, 4);
  const std::vector<std::uint8_t> ones(17 * 17, 1), zeros(9, 0);
  const auto f = NonLinearFunction::median;
  EXPECT_FALSE(non_linear_filter(f, img.plane(), out.plane(), ones.data(), 4, 3)) << "even side";
  EXPECT_FALSE(non_linear_filter(f, img.plane(), out.plane(), ones.data(), 17, 3)) << "side above 15";
  EXPECT_FALSE(non_linear_filter(f, img.plane(), out.plane(), zeros.data(), 3, 3)) << "selects nothing";
  EXPECT_FALSE(non_linear_filter(f, img.plane(), small.plane(), ones.data(), 3, 3)) << "sizes differ";
  EXPECT_TRUE(non_linear_filter(f, img.plane(), out.plane(), ones.data(), 15, 15));
}

TEST(NonLinearFunctionNames, RoundTrip) {
  for (NonLinearFunction f : {NonLinearFunction::median, NonLinearFunction::min, NonLinearFunction::max}) {
    NonLinearFunction parsed{};
    EXPECT_TRUE(parse_non_linear_function(to_string(f), parsed));
    EXPECT_EQ(parsed, f);
  }
  NonLinearFunction parsed{};
  EXPECT_FALSE(parse_non_linear_function("mean", parsed));
}

INSTANTIATE_TEST_SUITE_P(Simd, NonLinearEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
