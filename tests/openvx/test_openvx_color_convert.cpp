// The standard kernel ColorConvert against references written here from the specification's formulas:
// RGB and RGBX to and from every YUV layout, YUV to YUV, the colour space, the refusals, and images with
// gaps between pixels (per-pixel code) against packed ones (the vision library).
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

/// Every byte of every plane of @p image, written (write) or read, pixel (x, y) of plane p through @p at.
template <typename Fn>
void for_each_plane_pixel(vx_image image, vx_enum usage, Fn fn) {
  vx_size planes = 0;
  ASSERT_EQ(vxQueryImage(image, VX_IMAGE_PLANES, &planes, sizeof planes), VX_SUCCESS);
  vx_uint32 w = 0, h = 0;
  vxQueryImage(image, VX_IMAGE_WIDTH, &w, sizeof w);
  vxQueryImage(image, VX_IMAGE_HEIGHT, &h, sizeof h);
  const vx_rectangle_t all{0, 0, w, h};
  for (vx_uint32 p = 0; p < planes; ++p) {
    vx_map_id id = 0;
    vx_imagepatch_addressing_t a{};
    void* base = nullptr;
    ASSERT_EQ(vxMapImagePatch(image, &all, p, &id, &a, &base, usage, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
    fn(p, a, static_cast<vx_uint8*>(base));
    ASSERT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  }
}

/// Pixel (x, y)'s byte in plane p (its subsampled position).
vx_uint8* byte_at(const vx_imagepatch_addressing_t& a, vx_uint8* base, vx_uint32 x, vx_uint32 y) {
  return base + static_cast<std::ptrdiff_t>(y * a.scale_y / VX_SCALE_UNITY) * a.stride_y +
         static_cast<std::ptrdiff_t>(x * a.scale_x / VX_SCALE_UNITY) * a.stride_x;
}

int clamp255(double v) { return std::clamp(static_cast<int>(v), 0, 255); }

struct Yuv {
  int y, u, v;
};
Yuv to_yuv(int r, int g, int b, double kr, double kb) {
  const double kg = 1 - kr - kb;
  const double y = kr * r + kg * g + kb * b;
  return {clamp255(y + 0.5), clamp255((b - y) / (2 * (1 - kb)) + 128.5), clamp255((r - y) / (2 * (1 - kr)) + 128.5)};
}

class ColorConvert : public OpenVx {
 protected:
  vx_image rgb_image(vx_uint32 w, vx_uint32 h, std::vector<vx_uint8>& rgb) {
    std::mt19937 rng(5);
    rgb.resize(static_cast<std::size_t>(w) * h * 3);
    for (vx_uint8& v : rgb) v = static_cast<vx_uint8>(rng());
    vx_image image = vxCreateImage(context_, w, h, VX_DF_IMAGE_RGB);
    for_each_plane_pixel(image, VX_WRITE_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      for (vx_uint32 y = 0; y < h; ++y)
        for (vx_uint32 x = 0; x < w; ++x)
          for (int c = 0; c < 3; ++c) byte_at(a, base, x, y)[c] = rgb[(static_cast<std::size_t>(y) * w + x) * 3 + c];
    });
    return image;
  }
};

TEST_F(ColorConvert, RgbToNv12AndIyuvAveragesEachBlocksChromaWithBt709) {
  const vx_uint32 w = 18, h = 10;
  std::vector<vx_uint8> rgb;
  vx_image src = rgb_image(w, h, rgb);
  for (vx_df_image format : {VX_DF_IMAGE_NV12, VX_DF_IMAGE_IYUV, VX_DF_IMAGE_YUV4}) {
    vx_image dst = vxCreateImage(context_, w, h, format);
    ASSERT_EQ(vxuColorConvert(context_, src, dst), VX_SUCCESS);
    const vx_uint32 block = format == VX_DF_IMAGE_YUV4 ? 1 : 2;
    int worst = 0;
    for_each_plane_pixel(dst, VX_READ_ONLY, [&](vx_uint32 p, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      for (vx_uint32 y = 0; y < h; y += (p == 0 ? 1 : block))
        for (vx_uint32 x = 0; x < w; x += (p == 0 ? 1 : block)) {
          int want = 0;
          if (p == 0) {
            const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 3;
            want = to_yuv(rgb[i], rgb[i + 1], rgb[i + 2], 0.2126, 0.0722).y;
          } else {
            int sum = 0;
            for (vx_uint32 dy = 0; dy < block; ++dy)
              for (vx_uint32 dx = 0; dx < block; ++dx) {
                const std::size_t i = (static_cast<std::size_t>(y + dy) * w + x + dx) * 3;
                const Yuv c = to_yuv(rgb[i], rgb[i + 1], rgb[i + 2], 0.2126, 0.0722);
                // NV12's plane 1 holds U then V; IYUV and YUV4 have a plane each.
                sum += format == VX_DF_IMAGE_NV12 ? c.u : (p == 1 ? c.u : c.v);
              }
            want = sum / static_cast<int>(block * block);
          }
          worst = std::max(worst, std::abs(*byte_at(a, base, x, y) - want));
          if (format == VX_DF_IMAGE_NV12 && p == 1) {
            int sum = 0;
            for (vx_uint32 dy = 0; dy < 2; ++dy)
              for (vx_uint32 dx = 0; dx < 2; ++dx) {
                const std::size_t i = (static_cast<std::size_t>(y + dy) * w + x + dx) * 3;
                sum += to_yuv(rgb[i], rgb[i + 1], rgb[i + 2], 0.2126, 0.0722).v;
              }
            worst = std::max(worst, std::abs(byte_at(a, base, x, y)[1] - sum / 4));
          }
        }
    });
    EXPECT_LE(worst, 1) << "format " << format;
    EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseImage(&src), VX_SUCCESS);
}

TEST_F(ColorConvert, Nv12BackToRgbxIsCloseAndXIs255AndBt601ChangesTheResult) {
  const vx_uint32 w = 16, h = 8;
  std::vector<vx_uint8> rgb;
  vx_image src = rgb_image(w, h, rgb);
  vx_image yuv = vxCreateImage(context_, w, h, VX_DF_IMAGE_YUV4);
  vx_image back = vxCreateImage(context_, w, h, VX_DF_IMAGE_RGBX);
  ASSERT_EQ(vxuColorConvert(context_, src, yuv), VX_SUCCESS);
  EXPECT_NE(vxuColorConvert(context_, yuv, back), VX_SUCCESS) << "YUV4 is an output format only";
  vx_image iyuv = vxCreateImage(context_, w, h, VX_DF_IMAGE_IYUV);
  vx_image nv12 = vxCreateImage(context_, w, h, VX_DF_IMAGE_NV12);
  // RGB -> IYUV -> NV12 -> RGBX runs (the colours of noise do not survive subsampling; grey is checked below).
  ASSERT_EQ(vxuColorConvert(context_, src, iyuv), VX_SUCCESS);
  ASSERT_EQ(vxuColorConvert(context_, iyuv, nv12), VX_SUCCESS);
  ASSERT_EQ(vxuColorConvert(context_, nv12, back), VX_SUCCESS);
  for_each_plane_pixel(back, VX_READ_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
    EXPECT_EQ(byte_at(a, base, 3, 3)[3], 255) << "X";
  });
  // Grey stays grey, in both colour spaces.
  vx_image grey = vxCreateImage(context_, w, h, VX_DF_IMAGE_RGB);
  for_each_plane_pixel(grey, VX_WRITE_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
    for (vx_uint32 y = 0; y < h; ++y)
      for (vx_uint32 x = 0; x < w; ++x) std::fill_n(byte_at(a, base, x, y), 3, static_cast<vx_uint8>(100));
  });
  for (vx_enum space : {VX_COLOR_SPACE_BT709, VX_COLOR_SPACE_BT601_625}) {
    ASSERT_EQ(vxSetImageAttribute(nv12, VX_IMAGE_SPACE, &space, sizeof space), VX_SUCCESS);
    ASSERT_EQ(vxuColorConvert(context_, grey, nv12), VX_SUCCESS);
    ASSERT_EQ(vxuColorConvert(context_, nv12, back), VX_SUCCESS);
    for_each_plane_pixel(back, VX_READ_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(byte_at(a, base, 5, 5)[c], 100, 1) << "space " << space;
    });
  }
  // A saturated red: BT.601 and BT.709 give different luma.
  vx_image red = vxCreateImage(context_, w, h, VX_DF_IMAGE_RGB);
  for_each_plane_pixel(red, VX_WRITE_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
    for (vx_uint32 y = 0; y < h; ++y)
      for (vx_uint32 x = 0; x < w; ++x) {
        vx_uint8* p = byte_at(a, base, x, y);
        p[0] = 255, p[1] = 0, p[2] = 0;
      }
  });
  int luma[2] = {};
  int k = 0;
  for (vx_enum space : {VX_COLOR_SPACE_BT709, VX_COLOR_SPACE_BT601_525}) {
    ASSERT_EQ(vxSetImageAttribute(yuv, VX_IMAGE_SPACE, &space, sizeof space), VX_SUCCESS);
    ASSERT_EQ(vxuColorConvert(context_, red, yuv), VX_SUCCESS);
    for_each_plane_pixel(yuv, VX_READ_ONLY, [&](vx_uint32 p, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      if (p == 0) luma[k] = *byte_at(a, base, 0, 0);
    });
    ++k;
  }
  EXPECT_EQ(luma[0], 54) << "0.2126 * 255";
  EXPECT_EQ(luma[1], 76) << "0.299 * 255";
  for (vx_image* i : {&src, &yuv, &back, &iyuv, &nv12, &grey, &red}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(ColorConvert, YuyvToNv12AveragesTheTwoRowsOfChroma) {
  const vx_uint32 w = 8, h = 4;
  vx_image src = vxCreateImage(context_, w, h, VX_DF_IMAGE_YUYV);
  // Row y: Y = 10 y + x, U = 100 + y, V = 200 - y (Y0 U Y1 V per pixel pair).
  for_each_plane_pixel(src, VX_WRITE_ONLY, [&](vx_uint32, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
    for (vx_uint32 y = 0; y < h; ++y)
      for (vx_uint32 x = 0; x < w; x += 2) {
        vx_uint8* p = byte_at(a, base, x, y);
        p[0] = static_cast<vx_uint8>(10 * y + x), p[1] = static_cast<vx_uint8>(100 + y);
        p[2] = static_cast<vx_uint8>(10 * y + x + 1), p[3] = static_cast<vx_uint8>(200 - y);
      }
  });
  vx_image dst = vxCreateImage(context_, w, h, VX_DF_IMAGE_NV12);
  ASSERT_EQ(vxuColorConvert(context_, src, dst), VX_SUCCESS);
  for_each_plane_pixel(dst, VX_READ_ONLY, [&](vx_uint32 p, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
    if (p == 0) {
      EXPECT_EQ(*byte_at(a, base, 5, 3), 35);
    } else {
      EXPECT_EQ(byte_at(a, base, 2, 2)[0], (102 + 103) / 2) << "U of rows 2 and 3";
      EXPECT_EQ(byte_at(a, base, 2, 2)[1], (198 + 197) / 2) << "V of rows 2 and 3";
    }
  });
  EXPECT_EQ(vxReleaseImage(&src), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&dst), VX_SUCCESS);
}

/// Bytes of one pixel of plane @p p of @p f, packed.
vx_uint32 packed_pixel_bytes(vx_df_image f, vx_uint32 p) {
  switch (f) {
    case VX_DF_IMAGE_RGB: return 3;
    case VX_DF_IMAGE_RGBX: return 4;
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_UYVY: return 2;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: return p == 0 ? 1 : 2;
    default: return 1;
  }
}

/// A byte of every plane pixel: the same for the same plane position whatever the image's memory.
vx_uint8 pattern(vx_uint32 p, vx_uint32 px, vx_uint32 py, vx_uint32 k) {
  return static_cast<vx_uint8>((px * 73 + py * 151 + p * 29 + k * 97 + ((px * py) >> 2) * 13) ^ (px >> 3));
}

// Images whose pixels have gaps between them (from handles with a wider stride_x) take libopenvx's own
// per-pixel code, packed ones the vision library: both give the same bytes, for every conversion.
TEST_F(ColorConvert, ImagesWithGapsGiveTheSameBytesAsPackedOnes) {
  const vx_df_image inputs[] = {VX_DF_IMAGE_RGB, VX_DF_IMAGE_RGBX, VX_DF_IMAGE_NV12, VX_DF_IMAGE_NV21, VX_DF_IMAGE_UYVY, VX_DF_IMAGE_YUYV, VX_DF_IMAGE_IYUV};
  const vx_df_image outputs[] = {VX_DF_IMAGE_RGB, VX_DF_IMAGE_RGBX, VX_DF_IMAGE_NV12, VX_DF_IMAGE_NV21, VX_DF_IMAGE_IYUV, VX_DF_IMAGE_YUV4};
  const auto subsampled = [](vx_df_image f) { return f != VX_DF_IMAGE_RGB && f != VX_DF_IMAGE_RGBX && f != VX_DF_IMAGE_YUV4; };
  std::vector<std::vector<vx_uint8>> memory;
  // An image of @p f from a handle, each plane pixel followed by one unused byte.
  const auto gapped = [&](vx_df_image f, vx_uint32 w, vx_uint32 h) {
    const vx_uint32 planes = f == VX_DF_IMAGE_NV12 || f == VX_DF_IMAGE_NV21 ? 2 : f == VX_DF_IMAGE_IYUV || f == VX_DF_IMAGE_YUV4 ? 3 : 1;
    vx_imagepatch_addressing_t addrs[3] = {};
    void* ptrs[3] = {};
    for (vx_uint32 p = 0; p < planes; ++p) {
      const vx_uint32 shift = p > 0 && (f == VX_DF_IMAGE_NV12 || f == VX_DF_IMAGE_NV21 || f == VX_DF_IMAGE_IYUV) ? 1 : 0;
      addrs[p].dim_x = w >> shift;
      addrs[p].dim_y = h >> shift;
      addrs[p].stride_x = static_cast<vx_int32>(packed_pixel_bytes(f, p) + 1);
      addrs[p].stride_y = static_cast<vx_int32>(addrs[p].dim_x) * addrs[p].stride_x;
      memory.emplace_back(static_cast<std::size_t>(addrs[p].stride_y) * addrs[p].dim_y, vx_uint8{0xA5});
      ptrs[p] = memory.back().data();
    }
    return vxCreateImageFromHandle(context_, f, addrs, ptrs, VX_MEMORY_TYPE_HOST);
  };
  const auto fill = [&](vx_image image, vx_df_image f) {
    for_each_plane_pixel(image, VX_WRITE_ONLY, [&](vx_uint32 p, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      for (vx_uint32 y = 0; y < a.dim_y; ++y)
        for (vx_uint32 x = 0; x < a.dim_x; ++x)
          for (vx_uint32 k = 0; k < packed_pixel_bytes(f, p); ++k)
            byte_at(a, base, x, y)[k] = pattern(p, x * a.scale_x / VX_SCALE_UNITY, y * a.scale_y / VX_SCALE_UNITY, k);
    });
  };
  const auto bytes_of = [&](vx_image image, vx_df_image f) {
    std::vector<vx_uint8> bytes;
    for_each_plane_pixel(image, VX_READ_ONLY, [&](vx_uint32 p, const vx_imagepatch_addressing_t& a, vx_uint8* base) {
      for (vx_uint32 y = 0; y < a.dim_y; ++y)
        for (vx_uint32 x = 0; x < a.dim_x; ++x)
          for (vx_uint32 k = 0; k < packed_pixel_bytes(f, p); ++k) bytes.push_back(byte_at(a, base, x, y)[k]);
    });
    return bytes;
  };
  for (const vx_df_image in_format : inputs) {
    for (const vx_df_image out_format : outputs) {
      if (in_format == out_format) continue;
      const bool even = subsampled(in_format) || subsampled(out_format);
      for (const auto& [w, h] : {std::pair<vx_uint32, vx_uint32>{even ? 66u : 67u, even ? 6u : 5u}, {2u, 2u}}) {
        for (const vx_enum space : {VX_COLOR_SPACE_BT709, VX_COLOR_SPACE_BT601_625}) {
          vx_image in_packed = vxCreateImage(context_, w, h, in_format), in_gapped = gapped(in_format, w, h);
          vx_image out_packed = vxCreateImage(context_, w, h, out_format), out_gapped = gapped(out_format, w, h);
          for (vx_image i : {in_packed, in_gapped, out_packed, out_gapped}) {
            ASSERT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(i)), VX_SUCCESS);
            ASSERT_EQ(vxSetImageAttribute(i, VX_IMAGE_SPACE, &space, sizeof space), VX_SUCCESS);
          }
          fill(in_packed, in_format);
          fill(in_gapped, in_format);
          ASSERT_EQ(vxuColorConvert(context_, in_packed, out_packed), VX_SUCCESS);
          ASSERT_EQ(vxuColorConvert(context_, in_gapped, out_gapped), VX_SUCCESS);
          EXPECT_EQ(bytes_of(out_packed, out_format), bytes_of(out_gapped, out_format))
              << std::hex << in_format << " to " << out_format << std::dec << " " << w << "x" << h << " space " << space;
          for (vx_image* i : {&in_packed, &in_gapped, &out_packed, &out_gapped}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
        }
      }
    }
  }
}

TEST_F(ColorConvert, VerifyRefusesFormatsOutsideTheTables) {
  vx_image rgb = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_RGB);
  vx_image rgb2 = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_RGB);
  vx_image u8 = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  EXPECT_NE(vxuColorConvert(context_, rgb, rgb2), VX_SUCCESS);
  EXPECT_TRUE(logged("input and output are both RGB"));
  EXPECT_NE(vxuColorConvert(context_, u8, rgb), VX_SUCCESS);
  EXPECT_NE(vxuColorConvert(context_, rgb, u8), VX_SUCCESS);
  for (vx_image* i : {&rgb, &rgb2, &u8}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

}  // namespace
