// The vision library's colour conversions between OpenVX's layouts (yuv_to_rgb.hpp, rgb_to_yuv.hpp,
// color_layout.hpp) on every instruction set Highway compiled in and this CPU runs, against references
// written here from the headers' definitions: each pixel's Y, U and V read through its layout's own
// addressing, the float formulas with a rounding after each operation (this file is compiled without fused
// multiply-adds, as the library is), BT.709 and BT.601 factors, even and odd sizes, rows longer than the
// library's chunks and tails shorter than a vector, padded rows that must stay untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "visiongraph/kernels/vision/color_layout.hpp"
#include "visiongraph/kernels/vision/rgb_to_yuv.hpp"
#include "visiongraph/kernels/vision/simd.hpp"
#include "visiongraph/kernels/vision/yuv_to_rgb.hpp"

namespace {

using namespace vg::vision;  // NOLINT: test brevity

constexpr YuvLayout kLayouts[] = {YuvLayout::nv12, YuvLayout::nv21, YuvLayout::iyuv, YuvLayout::yuv4, YuvLayout::yuyv, YuvLayout::uyvy};

std::string name_of(YuvLayout l) {
  switch (l) {
    case YuvLayout::nv12: return "NV12";
    case YuvLayout::nv21: return "NV21";
    case YuvLayout::iyuv: return "IYUV";
    case YuvLayout::yuv4: return "YUV4";
    case YuvLayout::yuyv: return "YUYV";
    case YuvLayout::uyvy: return "UYVY";
  }
  return "?";
}

constexpr std::uint32_t kPadding = 5;  // bytes after each row, never written

/// Bytes of random data for one plane: @p row_bytes a row plus the padding, @p rows rows.
struct Bytes {
  Bytes() = default;
  Bytes(std::uint32_t row_bytes, std::uint32_t rows, std::mt19937& rng)
      : stride(static_cast<std::ptrdiff_t>(row_bytes + kPadding)), data(static_cast<std::size_t>(stride) * rows) {
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  }
  std::uint8_t& at(std::size_t x, std::size_t y) { return data[y * static_cast<std::size_t>(stride) + x]; }
  int at(std::size_t x, std::size_t y) const { return data[y * static_cast<std::size_t>(stride) + x]; }

  std::ptrdiff_t stride = 0;
  std::vector<std::uint8_t> data;
};

/// A YUV image of random bytes in @p layout, and each pixel's components read from the layout's definition.
struct Yuv {
  Yuv(YuvLayout l, std::uint32_t w, std::uint32_t h, std::mt19937& rng) : layout(l), width(w), height(h) {
    const std::uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
    switch (l) {
      case YuvLayout::nv12:
      case YuvLayout::nv21: planes = {Bytes(w, h, rng), Bytes(2 * cw, ch, rng)}; break;
      case YuvLayout::iyuv: planes = {Bytes(w, h, rng), Bytes(cw, ch, rng), Bytes(cw, ch, rng)}; break;
      case YuvLayout::yuv4: planes = {Bytes(w, h, rng), Bytes(w, h, rng), Bytes(w, h, rng)}; break;
      case YuvLayout::yuyv:
      case YuvLayout::uyvy: planes = {Bytes(2 * w, h, rng)}; break;
    }
  }
  YuvImage image() {
    YuvImage image{layout, width, height, {}, {}};
    for (std::size_t p = 0; p < planes.size(); ++p) {
      image.data[p] = planes[p].data.data();
      image.stride[p] = planes[p].stride;
    }
    return image;
  }
  /// Component c (0 Y, 1 U, 2 V) of pixel (x, y).
  int at(int c, std::size_t x, std::size_t y) const {
    switch (layout) {
      case YuvLayout::nv12:
      case YuvLayout::nv21: {
        if (c == 0) return planes[0].at(x, y);
        const bool u_first = layout == YuvLayout::nv12;
        return planes[1].at(x / 2 * 2 + ((c == 1) == u_first ? 0 : 1), y / 2);
      }
      case YuvLayout::iyuv: return c == 0 ? planes[0].at(x, y) : planes[static_cast<std::size_t>(c)].at(x / 2, y / 2);
      case YuvLayout::yuv4: return planes[static_cast<std::size_t>(c)].at(x, y);
      case YuvLayout::yuyv: return planes[0].at(c == 0 ? 2 * x : x / 2 * 4 + (c == 1 ? 1 : 3), y);
      case YuvLayout::uyvy: return planes[0].at(c == 0 ? 2 * x + 1 : x / 2 * 4 + (c == 1 ? 0 : 2), y);
    }
    return -1;
  }

  YuvLayout layout;
  std::uint32_t width, height;
  std::vector<Bytes> planes;
};

int clamp_byte(float v) { return std::clamp(static_cast<int>(v), 0, 255); }

constexpr std::pair<float, float> kSpaces[] = {{0.2126f, 0.0722f}, {0.299f, 0.114f}};  // BT.709, BT.601: Kr, Kb

class ColorEverySimdTarget : public ::testing::TestWithParam<SimdTarget> {
 protected:
  void SetUp() override { force_simd_target(GetParam().id); }
  void TearDown() override { force_simd_target(0); }
};

std::string target_name(const ::testing::TestParamInfo<SimdTarget>& info) { return info.param.name; }

TEST_P(ColorEverySimdTarget, DispatchUsesTheForcedTarget) { EXPECT_EQ(current_simd_target(), GetParam().name); }

/// Sizes: narrower than a vector, chunk edges (256 pixels), odd where the layout allows.
std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes_for(bool even_width, bool even_height) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {2, 2}, {3, 5}, {6, 4}, {17, 3}, {34, 2}, {66, 6}, {129, 4}, {258, 2},
                             {512, 2}, {643, 3}, {1030, 2}}) {
    if ((even_width && w % 2 != 0) || (even_height && h % 2 != 0)) continue;
    sizes.emplace_back(w, h);
  }
  return sizes;
}

// Every layout to RGB and RGBX: R = Y + rv Cv + 0.5, G = Y - gu Cu - gv Cv + 0.5, B = Y + bu Cu + 0.5.
TEST_P(ColorEverySimdTarget, YuvToRgbIsTheDefinition) {
  std::mt19937 rng(11);
  for (const auto& [kr, kb] : kSpaces) {
    const YuvToRgbFactors f = YuvToRgbFactors::of(kr, kb);
    for (const YuvLayout layout : kLayouts) {
      const bool packed_422 = layout == YuvLayout::yuyv || layout == YuvLayout::uyvy;
      for (const auto& [w, h] : sizes_for(packed_422, false)) {
        Yuv in(layout, w, h, rng);
        for (const bool rgbx : {false, true}) {
          const std::uint32_t channels = rgbx ? 4 : 3;
          Bytes out(w * channels, h, rng);
          const Bytes before = out;
          yuv_to_rgb(in.image(), Plane{out.data.data(), w, h, out.stride}, rgbx, f);
          for (std::uint32_t y = 0; y < h; ++y) {
            for (std::uint32_t x = 0; x < w; ++x) {
              const float yf = static_cast<float>(in.at(0, x, y));
              const float cu = static_cast<float>(in.at(1, x, y)) - 128.0f, cv = static_cast<float>(in.at(2, x, y)) - 128.0f;
              const float r = yf + f.rv * cv + 0.5f, g = yf - f.gu * cu - f.gv * cv + 0.5f, b = yf + f.bu * cu + 0.5f;
              const int want[4] = {clamp_byte(r), clamp_byte(g), clamp_byte(b), 255};
              for (std::uint32_t c = 0; c < channels; ++c) {
                ASSERT_EQ(out.at(x * channels + c, y), want[c])
                    << name_of(layout) << " " << w << "x" << h << (rgbx ? " RGBX" : " RGB") << " Kr " << kr << " channel " << c << " at " << x << "," << y;
              }
            }
            for (std::size_t p = w * channels; p < static_cast<std::size_t>(out.stride); ++p) ASSERT_EQ(out.at(p, y), before.at(p, y)) << "padding";
          }
        }
      }
    }
  }
}

// RGB / RGBX to NV12, NV21, IYUV (the 2x2 block's truncated mean of clamped values) and YUV4 (each pixel's).
TEST_P(ColorEverySimdTarget, RgbToYuvIsTheDefinition) {
  std::mt19937 rng(12);
  for (const auto& [kr, kb] : kSpaces) {
    const RgbToYuvFactors f = RgbToYuvFactors::of(kr, kb);
    for (const YuvLayout layout : {YuvLayout::nv12, YuvLayout::nv21, YuvLayout::iyuv, YuvLayout::yuv4}) {
      const bool subsampled = layout != YuvLayout::yuv4;
      for (const auto& [w, h] : sizes_for(subsampled, subsampled)) {
        for (const int channels : {3, 4}) {
          const Bytes rgb(w * static_cast<std::uint32_t>(channels), h, rng);
          Yuv out(layout, w, h, rng);
          const Yuv before = out;
          rgb_to_yuv(ConstPlane{rgb.data.data(), w, h, rgb.stride}, channels, out.image(), f);
          // Each pixel's clamped Y, U, V from the definition.
          const auto pixel = [&](std::size_t x, std::size_t y, int c) {
            const float r = static_cast<float>(rgb.at(x * static_cast<std::size_t>(channels), y));
            const float g = static_cast<float>(rgb.at(x * static_cast<std::size_t>(channels) + 1, y));
            const float b = static_cast<float>(rgb.at(x * static_cast<std::size_t>(channels) + 2, y));
            if (c == 0) return clamp_byte(r * f.kr + g * f.kg + b * f.kb + 0.5f);
            if (c == 1) return clamp_byte(r * f.ur + g * f.ug + b * f.ub + 128.5f);
            return clamp_byte(r * f.vr + g * f.vg + b * f.vb + 128.5f);
          };
          for (std::uint32_t y = 0; y < h; ++y) {
            for (std::uint32_t x = 0; x < w; ++x) {
              for (int c = 0; c < 3; ++c) {
                int want = pixel(x, y, c);
                if (c > 0 && subsampled) {
                  const std::size_t bx = x / 2 * 2, by = y / 2 * 2;
                  want = (pixel(bx, by, c) + pixel(bx + 1, by, c) + pixel(bx, by + 1, c) + pixel(bx + 1, by + 1, c)) / 4;
                }
                ASSERT_EQ(out.at(c, x, y), want) << name_of(layout) << " " << w << "x" << h << " from " << channels << " channels, Kr " << kr
                                                 << " component " << c << " at " << x << "," << y;
              }
            }
          }
          for (std::size_t p = 0; p < out.planes.size(); ++p) {
            const std::size_t row_bytes = static_cast<std::size_t>(out.planes[p].stride) - kPadding;
            for (std::size_t y = 0; y < out.planes[p].data.size() / static_cast<std::size_t>(out.planes[p].stride); ++y)
              for (std::size_t x = row_bytes; x < row_bytes + kPadding; ++x) ASSERT_EQ(out.planes[p].at(x, y), before.planes[p].at(x, y)) << "padding";
          }
        }
      }
    }
  }
}

// Every input layout to every other output one: the luma copied, each chroma sample the one covering the
// pixel, except 4:2:2 to 4:2:0: (top + bottom) / 2 rounded down.
TEST_P(ColorEverySimdTarget, YuvToYuvIsTheDefinition) {
  std::mt19937 rng(13);
  for (const YuvLayout from : {YuvLayout::nv12, YuvLayout::nv21, YuvLayout::iyuv, YuvLayout::yuyv, YuvLayout::uyvy}) {
    for (const YuvLayout to : {YuvLayout::nv12, YuvLayout::nv21, YuvLayout::iyuv, YuvLayout::yuv4}) {
      if (from == to) continue;
      const bool from_422 = from == YuvLayout::yuyv || from == YuvLayout::uyvy, to_420 = to != YuvLayout::yuv4;
      for (const auto& [w, h] : sizes_for(true, true)) {
        Yuv in(from, w, h, rng), out(to, w, h, rng);
        const Yuv before = out;
        yuv_to_yuv(in.image(), out.image());
        for (std::uint32_t y = 0; y < h; ++y) {
          for (std::uint32_t x = 0; x < w; ++x) {
            for (int c = 0; c < 3; ++c) {
              int want = in.at(c, x, y);
              if (c > 0 && from_422 && to_420) want = (in.at(c, x, y / 2 * 2) + in.at(c, x, y / 2 * 2 + 1)) / 2;
              ASSERT_EQ(out.at(c, x, y), want) << name_of(from) << " to " << name_of(to) << " " << w << "x" << h << " component " << c << " at " << x
                                               << "," << y;
            }
          }
        }
        for (std::size_t p = 0; p < out.planes.size(); ++p) {
          const std::size_t row_bytes = static_cast<std::size_t>(out.planes[p].stride) - kPadding;
          for (std::size_t y = 0; y < out.planes[p].data.size() / static_cast<std::size_t>(out.planes[p].stride); ++y)
            for (std::size_t x = row_bytes; x < row_bytes + kPadding; ++x) ASSERT_EQ(out.planes[p].at(x, y), before.planes[p].at(x, y)) << "padding";
        }
      }
    }
  }
}

// RGB to RGBX (X = 255) and back: the colour bytes copied.
TEST_P(ColorEverySimdTarget, RepackRgbCopiesTheColours) {
  std::mt19937 rng(14);
  for (const auto& [w, h] : sizes_for(false, false)) {
    for (const auto& [from, to] : {std::pair{3, 4}, std::pair{4, 3}}) {
      const Bytes in(w * static_cast<std::uint32_t>(from), h, rng);
      Bytes out(w * static_cast<std::uint32_t>(to), h, rng);
      const Bytes before = out;
      repack_rgb(ConstPlane{in.data.data(), w, h, in.stride}, from, Plane{out.data.data(), w, h, out.stride}, to);
      for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
          for (int c = 0; c < to; ++c) {
            const std::size_t xo = x * static_cast<std::size_t>(to) + static_cast<std::size_t>(c);
            ASSERT_EQ(out.at(xo, y), c == 3 ? 255 : in.at(x * static_cast<std::size_t>(from) + static_cast<std::size_t>(c), y))
                << from << " to " << to << " channels, " << w << "x" << h << " at " << x << "," << y;
          }
        }
        for (std::size_t p = w * static_cast<std::size_t>(to); p < static_cast<std::size_t>(out.stride); ++p) ASSERT_EQ(out.at(p, y), before.at(p, y));
      }
    }
  }
}

// Bands of rows add up to the whole frame (4:2:0 chroma rows go with their pair's first row).
TEST_P(ColorEverySimdTarget, BandsOfRowsMakeTheWholeFrame) {
  std::mt19937 rng(15);
  const std::uint32_t w = 70, h = 14;
  Yuv in(YuvLayout::yuyv, w, h, rng);
  Yuv whole(YuvLayout::nv12, w, h, rng);
  Yuv banded = whole;
  yuv_to_yuv(in.image(), whole.image());
  for (std::uint32_t begin = 0; begin < h; begin += 4) yuv_to_yuv(in.image(), banded.image(), {begin, begin + 4});
  for (std::size_t p = 0; p < whole.planes.size(); ++p) EXPECT_EQ(whole.planes[p].data, banded.planes[p].data) << p;
  Bytes rgb_whole(w * 3, h, rng);
  Bytes rgb_banded = rgb_whole;
  const YuvToRgbFactors f = YuvToRgbFactors::of(0.2126f, 0.0722f);
  yuv_to_rgb(in.image(), Plane{rgb_whole.data.data(), w, h, rgb_whole.stride}, false, f);
  for (std::uint32_t begin = 0; begin < h; begin += 3)
    yuv_to_rgb(in.image(), Plane{rgb_banded.data.data(), w, h, rgb_banded.stride}, false, f, {begin, begin + 3});
  EXPECT_EQ(rgb_whole.data, rgb_banded.data);
}

INSTANTIATE_TEST_SUITE_P(Simd, ColorEverySimdTarget, ::testing::ValuesIn(simd_targets()), target_name);

}  // namespace
