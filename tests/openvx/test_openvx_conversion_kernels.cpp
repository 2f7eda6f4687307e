// The conversion standard kernels: results exact to the specification, formats refused with a reason, in
// graphs and in immediate mode.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::status_of;

// --- host images: every plane packed, row after row ----------------------------------------------------

/// One plane on the host: w x h plane pixels of bpp bytes.
struct Plane {
  vx_uint32 w = 0, h = 0, bpp = 1;
  std::vector<vx_uint8> bytes;
  vx_uint8& at(vx_uint32 x, vx_uint32 y, vx_uint32 k = 0) { return bytes[(static_cast<std::size_t>(y) * w + x) * bpp + k]; }
  vx_uint8 at(vx_uint32 x, vx_uint32 y, vx_uint32 k = 0) const { return bytes[(static_cast<std::size_t>(y) * w + x) * bpp + k]; }
  vx_int16 s16(vx_uint32 x, vx_uint32 y) const {
    vx_int16 v;
    std::memcpy(&v, &bytes[(static_cast<std::size_t>(y) * w + x) * 2], 2);
    return v;
  }
  void set_s16(vx_uint32 x, vx_uint32 y, vx_int16 v) { std::memcpy(&bytes[(static_cast<std::size_t>(y) * w + x) * 2], &v, 2); }
};

struct HostImage {
  vx_df_image format = VX_DF_IMAGE_U8;
  vx_uint32 width = 0, height = 0;
  std::vector<Plane> planes;
};

/// The planes of a format as the specification lays them out (sizes in plane pixels, bytes per pixel).
std::vector<Plane> layout(vx_df_image format, vx_uint32 w, vx_uint32 h) {
  auto plane = [](vx_uint32 pw, vx_uint32 ph, vx_uint32 bpp) { return Plane{pw, ph, bpp, std::vector<vx_uint8>(std::size_t{pw} * ph * bpp)}; };
  switch (format) {
    case VX_DF_IMAGE_S16: return {plane(w, h, 2)};
    case VX_DF_IMAGE_U16: return {plane(w, h, 2)};
    case VX_DF_IMAGE_RGB: return {plane(w, h, 3)};
    case VX_DF_IMAGE_RGBX: return {plane(w, h, 4)};
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_UYVY: return {plane(w, h, 2)};
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: return {plane(w, h, 1), plane(w / 2, h / 2, 2)};
    case VX_DF_IMAGE_IYUV: return {plane(w, h, 1), plane(w / 2, h / 2, 1), plane(w / 2, h / 2, 1)};
    case VX_DF_IMAGE_YUV4: return {plane(w, h, 1), plane(w, h, 1), plane(w, h, 1)};
    default: return {plane(w, h, 1)};
  }
}

HostImage random_image(vx_df_image format, vx_uint32 w, vx_uint32 h, std::mt19937& rng) {
  HostImage img{format, w, h, layout(format, w, h)};
  std::uniform_int_distribution<int> dist(0, 255);
  for (Plane& p : img.planes) {
    for (vx_uint8& b : p.bytes) b = static_cast<vx_uint8>(dist(rng));
  }
  return img;
}

/// Maps each plane of @p image and copies between it and @p host through the patch addressing.
void transfer(vx_image image, HostImage& host, vx_enum usage) {
  for (vx_uint32 p = 0; p < host.planes.size(); ++p) {
    Plane& plane = host.planes[p];
    const vx_rectangle_t all{0, 0, host.width, host.height};
    vx_map_id id = 0;
    vx_imagepatch_addressing_t addr{};
    void* base = nullptr;
    ASSERT_EQ(vxMapImagePatch(image, &all, p, &id, &addr, &base, usage, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
    ASSERT_EQ(addr.dim_x / addr.step_x, plane.w);
    ASSERT_EQ(addr.dim_y / addr.step_y, plane.h);
    for (vx_uint32 y = 0; y < plane.h; ++y) {
      for (vx_uint32 x = 0; x < plane.w; ++x) {
        vx_uint8* pixel = static_cast<vx_uint8*>(base) + static_cast<std::ptrdiff_t>(y) * addr.stride_y + static_cast<std::ptrdiff_t>(x) * addr.stride_x;
        if (usage == VX_WRITE_ONLY) {
          std::memcpy(pixel, &plane.at(x, y), plane.bpp);
        } else {
          std::memcpy(&plane.at(x, y), pixel, plane.bpp);
        }
      }
    }
    ASSERT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  }
}

vx_image image_of(vx_context context, HostImage host) {
  vx_image image = vxCreateImage(context, host.width, host.height, host.format);
  EXPECT_EQ(status_of(image), VX_SUCCESS);
  transfer(image, host, VX_WRITE_ONLY);
  return image;
}

HostImage read_image(vx_image image) {
  HostImage host;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &host.format, sizeof host.format), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &host.width, sizeof host.width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &host.height, sizeof host.height), VX_SUCCESS);
  host.planes = layout(host.format, host.width, host.height);
  transfer(image, host, VX_READ_ONLY);
  return host;
}

void expect_planes_eq(const Plane& got, const Plane& want, const std::string& what) {
  ASSERT_EQ(got.w, want.w) << what;
  ASSERT_EQ(got.h, want.h) << what;
  ASSERT_EQ(got.bpp, want.bpp) << what;
  int mismatches = 0;
  for (vx_uint32 y = 0; y < want.h; ++y) {
    for (vx_uint32 x = 0; x < want.w; ++x) {
      for (vx_uint32 k = 0; k < want.bpp; ++k) {
        if (got.at(x, y, k) != want.at(x, y, k) && ++mismatches <= 5) {
          ADD_FAILURE() << what << ": (" << x << ", " << y << ") byte " << k << " is " << int{got.at(x, y, k)} << ", expected "
                        << int{want.at(x, y, k)};
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << what;
}

/// Builds a graph with one node (made by @p make), verifies and runs it; the status of the first failure.
vx_status run_node(vx_context context, const std::function<vx_node(vx_graph)>& make) {
  vx_graph graph = vxCreateGraph(context);
  vx_node node = make(graph);
  vx_status s = status_of(node);
  if (s == VX_SUCCESS) s = vxVerifyGraph(graph);
  if (s == VX_SUCCESS) s = vxProcessGraph(graph);
  if (node != nullptr && status_of(node) == VX_SUCCESS) vxReleaseNode(&node);
  vxReleaseGraph(&graph);
  return s;
}

/// vxVerifyGraph's status for one node (made by @p make).
vx_status verify_node(vx_context context, const std::function<vx_node(vx_graph)>& make) {
  vx_graph graph = vxCreateGraph(context);
  vx_node node = make(graph);
  vx_status s = status_of(node);
  if (s == VX_SUCCESS) s = vxVerifyGraph(graph);
  if (node != nullptr && status_of(node) == VX_SUCCESS) vxReleaseNode(&node);
  vxReleaseGraph(&graph);
  return s;
}

// --- reference computations ----------------------------------------------------------------------------

/// U8 -> S16: value << shift; S16 -> U8: arithmetic value >> shift, then the low 8 bits (wrap) or clamped.
HostImage reference_convert(const HostImage& in, vx_df_image out_format, vx_enum policy, int shift) {
  HostImage out{out_format, in.width, in.height, layout(out_format, in.width, in.height)};
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      if (in.format == VX_DF_IMAGE_U8) {
        out.planes[0].set_s16(x, y, static_cast<vx_int16>(in.planes[0].at(x, y) * (1 << shift)));
      } else {
        const int v = in.planes[0].s16(x, y);
        const int shifted = static_cast<int>(std::floor(v / static_cast<double>(1 << shift)));
        int r = 0;
        if (policy == VX_CONVERT_POLICY_SATURATE) {
          r = shifted < 0 ? 0 : shifted > 255 ? 255 : shifted;
        } else {
          r = ((shifted % 256) + 256) % 256;
        }
        out.planes[0].at(x, y) = static_cast<vx_uint8>(r);
      }
    }
  }
  return out;
}

/// Puts @p values at the first pixels of an S16 image (edges of the range).
void put_s16_edges(HostImage& img, std::initializer_list<int> values) {
  vx_uint32 i = 0;
  for (int v : values) {
    img.planes[0].set_s16(i % img.width, i / img.width, static_cast<vx_int16>(v));
    ++i;
  }
}
void put_u8_edges(HostImage& img, std::initializer_list<int> values) {
  vx_uint32 i = 0;
  for (int v : values) {
    img.planes[0].at(i % img.width, i / img.width) = static_cast<vx_uint8>(v);
    ++i;
  }
}

vx_scalar int32_scalar(vx_context context, vx_int32 v) { return vxCreateScalar(context, VX_TYPE_INT32, &v); }

// ======================================================================================================
// ConvertDepth
// ======================================================================================================

TEST_F(OpenVx, ConvertDepthMatchesTheReferenceForEveryShiftAndPolicy) {
  std::mt19937 rng(1);
  HostImage u8 = random_image(VX_DF_IMAGE_U8, 37, 13, rng);
  put_u8_edges(u8, {0, 255, 1, 128, 127});
  HostImage s16 = random_image(VX_DF_IMAGE_S16, 37, 13, rng);
  put_s16_edges(s16, {-32768, 32767, -1, 0, 255, 256, -256, 511, 512, -129, 65, 32640});
  vx_image u8_in = image_of(context_, u8);
  vx_image s16_in = image_of(context_, s16);
  vx_image s16_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_image u8_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  for (int shift = 0; shift < 8; ++shift) {
    const std::string at = " shift " + std::to_string(shift);
    vx_scalar sh = int32_scalar(context_, shift);
    for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
      const std::string pol = policy == VX_CONVERT_POLICY_WRAP ? " wrap" : " saturate";
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxConvertDepthNode(g, u8_in, s16_out, policy, sh); }), VX_SUCCESS);
      expect_planes_eq(read_image(s16_out).planes[0], reference_convert(u8, VX_DF_IMAGE_S16, policy, shift).planes[0], "U8->S16" + at + pol);
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxConvertDepthNode(g, s16_in, u8_out, policy, sh); }), VX_SUCCESS);
      expect_planes_eq(read_image(u8_out).planes[0], reference_convert(s16, VX_DF_IMAGE_U8, policy, shift).planes[0], "S16->U8" + at + pol);
      // Immediate mode gives the same.
      ASSERT_EQ(vxuConvertDepth(context_, s16_in, u8_out, policy, shift), VX_SUCCESS);
      expect_planes_eq(read_image(u8_out).planes[0], reference_convert(s16, VX_DF_IMAGE_U8, policy, shift).planes[0], "vxu S16->U8" + at + pol);
      ASSERT_EQ(vxuConvertDepth(context_, u8_in, s16_out, policy, shift), VX_SUCCESS);
      expect_planes_eq(read_image(s16_out).planes[0], reference_convert(u8, VX_DF_IMAGE_S16, policy, shift).planes[0], "vxu U8->S16" + at + pol);
    }
    EXPECT_EQ(vxReleaseScalar(&sh), VX_SUCCESS);
  }
  for (vx_image* i : {&u8_in, &s16_in, &s16_out, &u8_out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ConvertDepthEdgeValuesGiveTheSpecificationsNumbers) {
  // Explicit numbers: -32768 >> 0 wraps to 0 and saturates to 0; 32767 >> 7 = 255; -1 >> 3 = -1 wraps to 255;
  // 300 >> 0 wraps to 44 and saturates to 255; 255 << 7 = 32640.
  HostImage s16{VX_DF_IMAGE_S16, 5, 1, layout(VX_DF_IMAGE_S16, 5, 1)};
  put_s16_edges(s16, {-32768, 32767, -1, 300, 511});
  vx_image in = image_of(context_, s16);
  vx_image out = vxCreateImage(context_, 5, 1, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuConvertDepth(context_, in, out, VX_CONVERT_POLICY_WRAP, 0), VX_SUCCESS);
  Plane p = read_image(out).planes[0];
  EXPECT_EQ(p.at(0, 0), 0);
  EXPECT_EQ(p.at(1, 0), 255);
  EXPECT_EQ(p.at(2, 0), 255);
  EXPECT_EQ(p.at(3, 0), 44);
  EXPECT_EQ(p.at(4, 0), 255);
  ASSERT_EQ(vxuConvertDepth(context_, in, out, VX_CONVERT_POLICY_SATURATE, 0), VX_SUCCESS);
  p = read_image(out).planes[0];
  EXPECT_EQ(p.at(0, 0), 0);
  EXPECT_EQ(p.at(1, 0), 255);
  EXPECT_EQ(p.at(2, 0), 0);
  EXPECT_EQ(p.at(3, 0), 255);
  EXPECT_EQ(p.at(4, 0), 255);
  ASSERT_EQ(vxuConvertDepth(context_, in, out, VX_CONVERT_POLICY_SATURATE, 7), VX_SUCCESS);
  p = read_image(out).planes[0];
  EXPECT_EQ(p.at(1, 0), 255);  // 32767 >> 7 = 255
  EXPECT_EQ(p.at(4, 0), 3);    // 511 >> 7 = 3
  ASSERT_EQ(vxuConvertDepth(context_, in, out, VX_CONVERT_POLICY_WRAP, 3), VX_SUCCESS);
  p = read_image(out).planes[0];
  EXPECT_EQ(p.at(2, 0), 255);  // -1 >> 3 = -1 (arithmetic), low byte 0xFF
  EXPECT_EQ(p.at(0, 0), 0);    // -32768 >> 3 = -4096, low byte 0
  HostImage u8{VX_DF_IMAGE_U8, 5, 1, layout(VX_DF_IMAGE_U8, 5, 1)};
  put_u8_edges(u8, {255, 0, 1, 128, 200});
  vx_image u8_in = image_of(context_, u8);
  vx_image s16_out = vxCreateImage(context_, 5, 1, VX_DF_IMAGE_S16);
  ASSERT_EQ(vxuConvertDepth(context_, u8_in, s16_out, VX_CONVERT_POLICY_SATURATE, 7), VX_SUCCESS);
  const Plane q = read_image(s16_out).planes[0];
  EXPECT_EQ(q.s16(0, 0), 32640);
  EXPECT_EQ(q.s16(1, 0), 0);
  EXPECT_EQ(q.s16(2, 0), 128);
  EXPECT_EQ(q.s16(3, 0), 16384);
  for (vx_image* i : {&in, &out, &u8_in, &s16_out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ConvertDepthIntoAVirtualImageOfGivenFormatTakesTheSize) {
  std::mt19937 rng(2);
  const HostImage u8 = random_image(VX_DF_IMAGE_U8, 37, 13, rng);
  vx_image in = image_of(context_, u8);
  vx_image out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_scalar sh = int32_scalar(context_, 5);
  vx_graph graph = vxCreateGraph(context_);
  vx_image mid = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_S16);
  vx_node up = vxConvertDepthNode(graph, in, mid, VX_CONVERT_POLICY_WRAP, sh);
  vx_node down = vxConvertDepthNode(graph, mid, out, VX_CONVERT_POLICY_SATURATE, sh);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_uint32 w = 0, h = 0;
  EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
  EXPECT_EQ(w, 37u);
  EXPECT_EQ(h, 13u);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_planes_eq(read_image(out).planes[0], u8.planes[0], "(v << 5) >> 5 is v");
  EXPECT_EQ(vxReleaseNode(&up), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&down), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&mid), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&sh), VX_SUCCESS);
  for (vx_image* i : {&in, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ConvertDepthRefusesWhatTheSpecificationDoesNotDefine) {
  vx_image u8 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image u8b = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_image s16_small = vxCreateImage(context_, 36, 13, VX_DF_IMAGE_S16);
  vx_image u16 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U16);
  vx_scalar sh = int32_scalar(context_, 1);
  vx_scalar sh8 = int32_scalar(context_, 8);
  vx_scalar sh_neg = int32_scalar(context_, -1);
  vx_uint8 one = 1;
  vx_scalar sh_u8 = vxCreateScalar(context_, VX_TYPE_UINT8, &one);
  auto node = [&](vx_image in, vx_image out, vx_scalar s) {
    return [=](vx_graph g) { return vxConvertDepthNode(g, in, out, VX_CONVERT_POLICY_WRAP, s); };
  };
  EXPECT_EQ(verify_node(context_, node(u8, u8b, sh)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("output has format U8 but input is U8"));
  EXPECT_EQ(verify_node(context_, node(u16, u8, sh)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("input has format U16"));
  EXPECT_EQ(verify_node(context_, node(u8, s16_small, sh)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("output is 36x13"));
  EXPECT_EQ(verify_node(context_, node(u8, s16, sh8)), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("shift is 8"));
  EXPECT_EQ(verify_node(context_, node(s16, u8, sh_neg)), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("shift is -1"));
  EXPECT_EQ(verify_node(context_, node(u8, s16, sh_u8)), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("shift is a scalar of type"));
  EXPECT_NE(vxuConvertDepth(context_, u8, s16, VX_CONVERT_POLICY_WRAP, 8), VX_SUCCESS);
  // A policy outside the enumeration, through a generic node.
  {
    vx_graph g = vxCreateGraph(context_);
    vx_kernel k = vxGetKernelByEnum(context_, VX_KERNEL_CONVERTDEPTH);
    vx_node n = vxCreateGenericNode(g, k);
    vx_enum bad = VX_CONVERT_POLICY_SATURATE + 7;
    vx_scalar policy = vxCreateScalar(context_, VX_TYPE_ENUM, &bad);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(u8)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(s16)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 2, reinterpret_cast<vx_reference>(policy)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 3, reinterpret_cast<vx_reference>(sh)), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_VALUE);
    EXPECT_TRUE(logged("policy is"));
    EXPECT_EQ(vxReleaseScalar(&policy), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  }
  // A virtual output of open format cannot be decided.
  {
    vx_graph g = vxCreateGraph(context_);
    vx_image open = vxCreateVirtualImage(g, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node n = vxConvertDepthNode(g, u8, open, VX_CONVERT_POLICY_WRAP, sh);
    EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_FORMAT);
    EXPECT_TRUE(logged("output is a virtual image of open format"));
    EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&open), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  }
  for (vx_scalar* s : {&sh, &sh8, &sh_neg, &sh_u8}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
  for (vx_image* i : {&u8, &u8b, &s16, &s16_small, &u16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ======================================================================================================
// TableLookup
// ======================================================================================================

vx_lut lut_of(vx_context context, vx_enum type, const std::vector<vx_uint8>& bytes, vx_size count) {
  vx_lut lut = vxCreateLUT(context, type, count);
  EXPECT_EQ(status_of(lut), VX_SUCCESS);
  EXPECT_EQ(vxCopyLUT(lut, const_cast<vx_uint8*>(bytes.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return lut;
}

TEST_F(OpenVx, TableLookupMatchesTheReferenceForU8AndS16) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> byte(0, 255);
  HostImage u8 = random_image(VX_DF_IMAGE_U8, 37, 13, rng);
  put_u8_edges(u8, {0, 255, 99, 100});
  HostImage s16 = random_image(VX_DF_IMAGE_S16, 37, 13, rng);
  put_s16_edges(s16, {-32768, 32767, -1, 0, -500, 499, 500, -501});
  vx_image u8_in = image_of(context_, u8);
  vx_image s16_in = image_of(context_, s16);
  vx_image u8_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image s16_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);

  // U8, full table: out = lut[in].
  std::vector<vx_uint8> u8_table(256);
  for (vx_uint8& b : u8_table) b = static_cast<vx_uint8>(byte(rng));
  vx_lut u8_lut = lut_of(context_, VX_TYPE_UINT8, u8_table, 256);
  vx_uint32 offset = 99;
  EXPECT_EQ(vxQueryLUT(u8_lut, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 0u);
  HostImage want = u8;
  for (vx_uint8& b : want.planes[0].bytes) b = u8_table[b];
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxTableLookupNode(g, u8_in, u8_lut, u8_out); }), VX_SUCCESS);
  expect_planes_eq(read_image(u8_out).planes[0], want.planes[0], "U8 LUT");
  HostImage zero{VX_DF_IMAGE_U8, 37, 13, layout(VX_DF_IMAGE_U8, 37, 13)};
  transfer(u8_out, zero, VX_WRITE_ONLY);
  ASSERT_EQ(vxuTableLookup(context_, u8_in, u8_lut, u8_out), VX_SUCCESS);
  expect_planes_eq(read_image(u8_out).planes[0], want.planes[0], "vxu U8 LUT");

  // U8, a table of 100 entries: inputs past its end leave the output pixel as it was (here 77).
  vx_lut short_lut = lut_of(context_, VX_TYPE_UINT8, std::vector<vx_uint8>(u8_table.begin(), u8_table.begin() + 100), 100);
  HostImage sevens = zero;
  for (vx_uint8& b : sevens.planes[0].bytes) b = 77;
  transfer(u8_out, sevens, VX_WRITE_ONLY);
  want = u8;
  for (vx_uint8& b : want.planes[0].bytes) b = b < 100 ? u8_table[b] : 77;
  ASSERT_EQ(vxuTableLookup(context_, u8_in, short_lut, u8_out), VX_SUCCESS);
  expect_planes_eq(read_image(u8_out).planes[0], want.planes[0], "U8 short LUT");

  // S16, full table: offset 32768 (count / 2), out = lut[in + 32768].
  std::vector<vx_uint8> s16_bytes(65536 * 2);
  for (vx_uint8& b : s16_bytes) b = static_cast<vx_uint8>(byte(rng));
  vx_lut s16_lut = lut_of(context_, VX_TYPE_INT16, s16_bytes, 65536);
  EXPECT_EQ(vxQueryLUT(s16_lut, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 32768u);
  auto entry = [](const std::vector<vx_uint8>& table, int index) {
    vx_int16 v;
    std::memcpy(&v, &table[static_cast<std::size_t>(index) * 2], 2);
    return v;
  };
  HostImage want16 = s16;
  for (vx_uint32 y = 0; y < 13; ++y) {
    for (vx_uint32 x = 0; x < 37; ++x) want16.planes[0].set_s16(x, y, entry(s16_bytes, s16.planes[0].s16(x, y) + 32768));
  }
  ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxTableLookupNode(g, s16_in, s16_lut, s16_out); }), VX_SUCCESS);
  expect_planes_eq(read_image(s16_out).planes[0], want16.planes[0], "S16 LUT");

  // S16, 1000 entries: offset 500, so inputs -500..499 are looked up and others leave the pixel.
  vx_lut s16_short = lut_of(context_, VX_TYPE_INT16, std::vector<vx_uint8>(s16_bytes.begin(), s16_bytes.begin() + 2000), 1000);
  EXPECT_EQ(vxQueryLUT(s16_short, VX_LUT_OFFSET, &offset, sizeof offset), VX_SUCCESS);
  EXPECT_EQ(offset, 500u);
  HostImage small = s16;  // values folded into -600..599 so both cases occur often
  for (vx_uint32 y = 0; y < 13; ++y) {
    for (vx_uint32 x = 2; x < 37; ++x) small.planes[0].set_s16(x, y, static_cast<vx_int16>(((small.planes[0].s16(x, y) % 1200) + 1200) % 1200 - 600));
  }
  put_s16_edges(small, {-500, 499, 500, -501});
  vx_image small_in = image_of(context_, small);
  HostImage before{VX_DF_IMAGE_S16, 37, 13, layout(VX_DF_IMAGE_S16, 37, 13)};
  for (vx_uint32 y = 0; y < 13; ++y) {
    for (vx_uint32 x = 0; x < 37; ++x) before.planes[0].set_s16(x, y, -7);
  }
  transfer(s16_out, before, VX_WRITE_ONLY);
  for (vx_uint32 y = 0; y < 13; ++y) {
    for (vx_uint32 x = 0; x < 37; ++x) {
      const int v = small.planes[0].s16(x, y);
      want16.planes[0].set_s16(x, y, v >= -500 && v < 500 ? entry(s16_bytes, v + 500) : -7);
    }
  }
  ASSERT_EQ(vxuTableLookup(context_, small_in, s16_short, s16_out), VX_SUCCESS);
  expect_planes_eq(read_image(s16_out).planes[0], want16.planes[0], "S16 short LUT");

  for (vx_lut* l : {&u8_lut, &short_lut, &s16_lut, &s16_short}) EXPECT_EQ(vxReleaseLUT(l), VX_SUCCESS);
  for (vx_image* i : {&u8_in, &s16_in, &u8_out, &s16_out, &small_in}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, TableLookupGivesAnOpenVirtualOutputTheInputsFormatAndSize) {
  std::mt19937 rng(4);
  const HostImage s16 = random_image(VX_DF_IMAGE_S16, 37, 13, rng);
  vx_image in = image_of(context_, s16);
  std::vector<vx_uint8> identity(65536 * 2);
  for (int i = 0; i < 65536; ++i) {
    const vx_int16 v = static_cast<vx_int16>(i - 32768);
    std::memcpy(&identity[static_cast<std::size_t>(i) * 2], &v, 2);
  }
  vx_lut lut = lut_of(context_, VX_TYPE_INT16, identity, 65536);
  vx_image out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_graph graph = vxCreateGraph(context_);
  vx_image mid = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node a = vxTableLookupNode(graph, in, lut, mid);
  vx_node b = vxTableLookupNode(graph, mid, lut, out);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_S16));
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_planes_eq(read_image(out).planes[0], s16.planes[0], "identity LUT twice");
  EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&mid), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
  for (vx_image* i : {&in, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, TableLookupRefusesMismatchedTablesAndFormats) {
  vx_image u8 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image u8_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image u8_small = vxCreateImage(context_, 37, 12, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_image u16 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U16);
  vx_lut lut8 = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
  vx_lut lut16 = vxCreateLUT(context_, VX_TYPE_INT16, 65536);
  auto node = [&](vx_image in, vx_lut lut, vx_image out) { return [=](vx_graph g) { return vxTableLookupNode(g, in, lut, out); }; };
  EXPECT_EQ(verify_node(context_, node(u8, lut16, u8_out)), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("lut has type"));
  EXPECT_EQ(verify_node(context_, node(s16, lut8, s16)), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(verify_node(context_, node(u16, lut16, u16)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("input has format U16"));
  EXPECT_EQ(verify_node(context_, node(u8, lut8, s16)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("output has format S16"));
  EXPECT_EQ(verify_node(context_, node(u8, lut8, u8_small)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("output is 37x12"));
  EXPECT_NE(vxuTableLookup(context_, u8, lut16, u8_out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseLUT(&lut8), VX_SUCCESS);
  EXPECT_EQ(vxReleaseLUT(&lut16), VX_SUCCESS);
  for (vx_image* i : {&u8, &u8_out, &u8_small, &s16, &u16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ======================================================================================================
// Threshold
// ======================================================================================================

vx_threshold binary_threshold(vx_context context, vx_df_image in_format, vx_pixel_value_t value, vx_uint8 t, vx_uint8 f) {
  vx_threshold th = vxCreateThresholdForImage(context, VX_THRESHOLD_TYPE_BINARY, in_format, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(th), VX_SUCCESS);
  EXPECT_EQ(vxCopyThresholdValue(th, &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_pixel_value_t tv{}, fv{};
  tv.U8 = t;
  fv.U8 = f;
  EXPECT_EQ(vxCopyThresholdOutput(th, &tv, &fv, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return th;
}

vx_threshold range_threshold(vx_context context, vx_df_image in_format, vx_pixel_value_t lower, vx_pixel_value_t upper, vx_uint8 t, vx_uint8 f) {
  vx_threshold th = vxCreateThresholdForImage(context, VX_THRESHOLD_TYPE_RANGE, in_format, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(th), VX_SUCCESS);
  EXPECT_EQ(vxCopyThresholdRange(th, &lower, &upper, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_pixel_value_t tv{}, fv{};
  tv.U8 = t;
  fv.U8 = f;
  EXPECT_EQ(vxCopyThresholdOutput(th, &tv, &fv, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return th;
}

/// in(x, y) as an int, U8 or S16.
int pixel(const HostImage& img, vx_uint32 x, vx_uint32 y) {
  return img.format == VX_DF_IMAGE_U8 ? int{img.planes[0].at(x, y)} : int{img.planes[0].s16(x, y)};
}

HostImage reference_threshold(const HostImage& in, const std::function<bool(int)>& is_true, vx_uint8 t, vx_uint8 f) {
  HostImage out{VX_DF_IMAGE_U8, in.width, in.height, layout(VX_DF_IMAGE_U8, in.width, in.height)};
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) out.planes[0].at(x, y) = is_true(pixel(in, x, y)) ? t : f;
  }
  return out;
}

TEST_F(OpenVx, ThresholdBinaryAndRangeMatchTheReference) {
  std::mt19937 rng(5);
  HostImage u8 = random_image(VX_DF_IMAGE_U8, 37, 13, rng);
  put_u8_edges(u8, {0, 255, 100, 101, 99, 50, 49, 200, 201});
  HostImage s16 = random_image(VX_DF_IMAGE_S16, 37, 13, rng);
  put_s16_edges(s16, {-32768, 32767, -5, -4, -6, -1000, -1001, 1000, 1001, 0});
  vx_image u8_in = image_of(context_, u8);
  vx_image s16_in = image_of(context_, s16);
  vx_image out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  struct Case {
    const char* what;
    vx_image in;
    const HostImage* host;
    vx_threshold th;
    std::function<bool(int)> is_true;
    vx_uint8 t, f;
  };
  vx_pixel_value_t v{}, lo{}, hi{};
  std::vector<Case> cases;
  v.U8 = 100;
  cases.push_back({"U8 binary 100", u8_in, &u8, binary_threshold(context_, VX_DF_IMAGE_U8, v, 255, 0), [](int p) { return p > 100; }, 255, 0});
  v.U8 = 0;
  cases.push_back({"U8 binary 0", u8_in, &u8, binary_threshold(context_, VX_DF_IMAGE_U8, v, 7, 200), [](int p) { return p > 0; }, 7, 200});
  v.U8 = 255;
  cases.push_back({"U8 binary 255", u8_in, &u8, binary_threshold(context_, VX_DF_IMAGE_U8, v, 1, 2), [](int p) { return p > 255; }, 1, 2});
  lo.U8 = 50;
  hi.U8 = 200;
  cases.push_back({"U8 range 50..200", u8_in, &u8, range_threshold(context_, VX_DF_IMAGE_U8, lo, hi, 255, 0),
                   [](int p) { return !(p > 200 || p < 50); }, 255, 0});
  v = {};
  v.S16 = -5;
  cases.push_back({"S16 binary -5", s16_in, &s16, binary_threshold(context_, VX_DF_IMAGE_S16, v, 9, 3), [](int p) { return p > -5; }, 9, 3});
  v.S16 = 32767;
  cases.push_back({"S16 binary 32767", s16_in, &s16, binary_threshold(context_, VX_DF_IMAGE_S16, v, 255, 0), [](int p) { return p > 32767; }, 255, 0});
  v.S16 = -32768;
  cases.push_back({"S16 binary -32768", s16_in, &s16, binary_threshold(context_, VX_DF_IMAGE_S16, v, 255, 0), [](int p) { return p > -32768; }, 255, 0});
  lo = {};
  hi = {};
  lo.S16 = -1000;
  hi.S16 = 1000;
  cases.push_back({"S16 range -1000..1000", s16_in, &s16, range_threshold(context_, VX_DF_IMAGE_S16, lo, hi, 128, 1),
                   [](int p) { return !(p > 1000 || p < -1000); }, 128, 1});
  for (Case& c : cases) {
    const HostImage want = reference_threshold(*c.host, c.is_true, c.t, c.f);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxThresholdNode(g, c.in, c.th, out); }), VX_SUCCESS) << c.what;
    expect_planes_eq(read_image(out).planes[0], want.planes[0], c.what);
    HostImage zero{VX_DF_IMAGE_U8, 37, 13, layout(VX_DF_IMAGE_U8, 37, 13)};
    transfer(out, zero, VX_WRITE_ONLY);
    ASSERT_EQ(vxuThreshold(context_, c.in, c.th, out), VX_SUCCESS) << c.what;
    expect_planes_eq(read_image(out).planes[0], want.planes[0], std::string("vxu ") + c.what);
    EXPECT_EQ(vxReleaseThreshold(&c.th), VX_SUCCESS);
  }
  for (vx_image* i : {&u8_in, &s16_in, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ThresholdGivesAnOpenVirtualOutputU8AndRefusesMismatches) {
  std::mt19937 rng(6);
  const HostImage s16 = random_image(VX_DF_IMAGE_S16, 37, 13, rng);
  vx_image in = image_of(context_, s16);
  vx_pixel_value_t v{};
  v.S16 = 0;
  vx_threshold th = binary_threshold(context_, VX_DF_IMAGE_S16, v, 255, 0);
  vx_pixel_value_t v8{};
  v8.U8 = 127;
  vx_threshold th8 = binary_threshold(context_, VX_DF_IMAGE_U8, v8, 10, 20);
  vx_image out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  {
    vx_graph graph = vxCreateGraph(context_);
    vx_image mid = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node a = vxThresholdNode(graph, in, th, mid);
    vx_node b = vxThresholdNode(graph, mid, th8, out);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    vx_df_image format = 0;
    EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
    EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    const HostImage want = reference_threshold(s16, [](int p) { return p > 0; }, 10, 20);  // 255 > 127 -> 10, 0 -> 20
    expect_planes_eq(read_image(out).planes[0], want.planes[0], "threshold chain");
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&mid), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  vx_image u8 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_image s16_out = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_S16);
  vx_image small = vxCreateImage(context_, 30, 13, VX_DF_IMAGE_U8);
  vx_image u16 = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U16);
  vx_threshold to_u1 = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U1);
  vx_threshold to_s16 = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_S16);
  vx_threshold for_u16 = vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U16, VX_DF_IMAGE_U8);
  auto node = [&](vx_image i, vx_threshold t, vx_image o) { return [=](vx_graph g) { return vxThresholdNode(g, i, t, o); }; };
  EXPECT_EQ(verify_node(context_, node(u8, th, out)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("thresh is for S16 input"));
  EXPECT_EQ(verify_node(context_, node(u8, to_u1, out)), VX_ERROR_INVALID_FORMAT);  // a U1 threshold makes a U1 image
  EXPECT_TRUE(logged("output has format U8, this kernel makes U1"));
  EXPECT_EQ(verify_node(context_, node(u8, to_s16, s16_out)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("thresh makes S16 output"));
  EXPECT_EQ(verify_node(context_, node(u8, th8, s16_out)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("output has format S16"));
  EXPECT_EQ(verify_node(context_, node(u16, for_u16, out)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("input has format U16"));
  EXPECT_EQ(verify_node(context_, node(u8, th8, small)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("output is 30x13"));
  EXPECT_NE(vxuThreshold(context_, u8, th, out), VX_SUCCESS);
  for (vx_threshold* t : {&th, &th8, &to_u1, &to_s16, &for_u16}) EXPECT_EQ(vxReleaseThreshold(t), VX_SUCCESS);
  for (vx_image* i : {&in, &out, &u8, &s16_out, &small, &u16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ======================================================================================================
// ChannelExtract and ChannelCombine
// ======================================================================================================

/// Channel c (0: R or Y, 1: G or U, 2: B or V, 3: A) of a host image, as the format's memory layout holds it.
Plane reference_channel(const HostImage& in, int c) {
  const Plane& p0 = in.planes[0];
  Plane out;
  auto make = [&](vx_uint32 w, vx_uint32 h) { out = Plane{w, h, 1, std::vector<vx_uint8>(std::size_t{w} * h)}; };
  switch (in.format) {
    case VX_DF_IMAGE_RGB:
    case VX_DF_IMAGE_RGBX:
      make(in.width, in.height);
      for (vx_uint32 y = 0; y < in.height; ++y)
        for (vx_uint32 x = 0; x < in.width; ++x) out.at(x, y) = p0.at(x, y, static_cast<vx_uint32>(c));
      break;
    case VX_DF_IMAGE_YUYV:
    case VX_DF_IMAGE_UYVY: {
      // Memory of a pixel pair: Y0 U Y1 V (YUYV) or U Y0 V Y1 (UYVY).
      const vx_uint32 y_byte = in.format == VX_DF_IMAGE_YUYV ? 0 : 1;
      const vx_uint32 u_byte = in.format == VX_DF_IMAGE_YUYV ? 1 : 0, v_byte = u_byte + 2;
      if (c == 0) {
        make(in.width, in.height);
        for (vx_uint32 y = 0; y < in.height; ++y)
          for (vx_uint32 x = 0; x < in.width; ++x) out.at(x, y) = p0.bytes[(std::size_t{y} * in.width + x) * 2 + y_byte];
      } else {
        make(in.width / 2, in.height);
        for (vx_uint32 y = 0; y < in.height; ++y)
          for (vx_uint32 x = 0; x < in.width / 2; ++x) out.at(x, y) = p0.bytes[(std::size_t{y} * in.width + 2 * x) * 2 + (c == 1 ? u_byte : v_byte)];
      }
      break;
    }
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21:
      if (c == 0) {
        out = p0;
      } else {
        const vx_uint32 k = (in.format == VX_DF_IMAGE_NV12) == (c == 1) ? 0 : 1;  // NV12: U V pairs; NV21: V U
        make(in.width / 2, in.height / 2);
        for (vx_uint32 y = 0; y < in.height / 2; ++y)
          for (vx_uint32 x = 0; x < in.width / 2; ++x) out.at(x, y) = in.planes[1].at(x, y, k);
      }
      break;
    default: out = in.planes[static_cast<std::size_t>(c)]; break;  // IYUV, YUV4
  }
  return out;
}

struct FormatCase {
  vx_df_image format;
  vx_uint32 width, height;
  std::vector<vx_enum> channels;  // by name, in order
};

std::vector<FormatCase> format_cases() {
  const std::vector<vx_enum> rgb = {VX_CHANNEL_R, VX_CHANNEL_G, VX_CHANNEL_B};
  const std::vector<vx_enum> rgbx = {VX_CHANNEL_R, VX_CHANNEL_G, VX_CHANNEL_B, VX_CHANNEL_A};
  const std::vector<vx_enum> yuv = {VX_CHANNEL_Y, VX_CHANNEL_U, VX_CHANNEL_V};
  return {{VX_DF_IMAGE_RGB, 37, 13, rgb},  {VX_DF_IMAGE_RGBX, 37, 13, rgbx}, {VX_DF_IMAGE_YUYV, 38, 13, yuv},
          {VX_DF_IMAGE_UYVY, 38, 13, yuv}, {VX_DF_IMAGE_NV12, 38, 14, yuv},  {VX_DF_IMAGE_NV21, 38, 14, yuv},
          {VX_DF_IMAGE_IYUV, 38, 14, yuv}, {VX_DF_IMAGE_YUV4, 37, 13, yuv}};
}

std::string name_of(vx_df_image f) {
  char s[5] = {static_cast<char>(f & 0xff), static_cast<char>((f >> 8) & 0xff), static_cast<char>((f >> 16) & 0xff),
               static_cast<char>((f >> 24) & 0xff), 0};
  return s;
}

TEST_F(OpenVx, ChannelExtractTakesEveryChannelOfEveryFormat) {
  std::mt19937 rng(7);
  for (const FormatCase& fc : format_cases()) {
    const HostImage host = random_image(fc.format, fc.width, fc.height, rng);
    vx_image in = image_of(context_, host);
    for (std::size_t c = 0; c < fc.channels.size(); ++c) {
      const Plane want = reference_channel(host, static_cast<int>(c));
      const std::string what = name_of(fc.format) + " channel " + std::to_string(c);
      vx_image out = vxCreateImage(context_, want.w, want.h, VX_DF_IMAGE_U8);
      ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxChannelExtractNode(g, in, fc.channels[c], out); }), VX_SUCCESS) << what;
      expect_planes_eq(read_image(out).planes[0], want, what);
      // By position (VX_CHANNEL_0 + c), in immediate mode.
      HostImage zero{VX_DF_IMAGE_U8, want.w, want.h, layout(VX_DF_IMAGE_U8, want.w, want.h)};
      transfer(out, zero, VX_WRITE_ONLY);
      ASSERT_EQ(vxuChannelExtract(context_, in, VX_CHANNEL_0 + static_cast<vx_enum>(c), out), VX_SUCCESS) << what;
      expect_planes_eq(read_image(out).planes[0], want, "vxu " + what);
      EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
      // An open virtual output gets the channel's size.
      vx_graph graph = vxCreateGraph(context_);
      vx_image mid = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
      vx_node n = vxChannelExtractNode(graph, in, fc.channels[c], mid);
      ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << what;
      vx_uint32 w = 0, h = 0;
      vx_df_image f = 0;
      EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
      EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
      EXPECT_EQ(vxQueryImage(mid, VX_IMAGE_FORMAT, &f, sizeof f), VX_SUCCESS);
      EXPECT_EQ(w, want.w) << what;
      EXPECT_EQ(h, want.h) << what;
      EXPECT_EQ(f, static_cast<vx_df_image>(VX_DF_IMAGE_U8)) << what;
      EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
      EXPECT_EQ(vxReleaseImage(&mid), VX_SUCCESS);
      EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    }
    EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  }
}

TEST_F(OpenVx, ChannelExtractOfAKnownYuyvAndNv21Pixel) {
  // YUYV 2x1: Y0=10 U=20 Y1=30 V=40.
  HostImage yuyv{VX_DF_IMAGE_YUYV, 2, 1, layout(VX_DF_IMAGE_YUYV, 2, 1)};
  yuyv.planes[0].bytes = {10, 20, 30, 40};
  vx_image in = image_of(context_, yuyv);
  vx_image y = vxCreateImage(context_, 2, 1, VX_DF_IMAGE_U8);
  vx_image u = vxCreateImage(context_, 1, 1, VX_DF_IMAGE_U8);
  vx_image v = vxCreateImage(context_, 1, 1, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuChannelExtract(context_, in, VX_CHANNEL_Y, y), VX_SUCCESS);
  ASSERT_EQ(vxuChannelExtract(context_, in, VX_CHANNEL_U, u), VX_SUCCESS);
  ASSERT_EQ(vxuChannelExtract(context_, in, VX_CHANNEL_V, v), VX_SUCCESS);
  EXPECT_EQ(read_image(y).planes[0].bytes, (std::vector<vx_uint8>{10, 30}));
  EXPECT_EQ(read_image(u).planes[0].bytes, (std::vector<vx_uint8>{20}));
  EXPECT_EQ(read_image(v).planes[0].bytes, (std::vector<vx_uint8>{40}));
  // NV21 2x2: chroma pair V=50 U=60.
  HostImage nv21{VX_DF_IMAGE_NV21, 2, 2, layout(VX_DF_IMAGE_NV21, 2, 2)};
  nv21.planes[0].bytes = {1, 2, 3, 4};
  nv21.planes[1].bytes = {50, 60};
  vx_image in2 = image_of(context_, nv21);
  ASSERT_EQ(vxuChannelExtract(context_, in2, VX_CHANNEL_U, u), VX_SUCCESS);
  ASSERT_EQ(vxuChannelExtract(context_, in2, VX_CHANNEL_V, v), VX_SUCCESS);
  EXPECT_EQ(read_image(u).planes[0].bytes, (std::vector<vx_uint8>{60}));
  EXPECT_EQ(read_image(v).planes[0].bytes, (std::vector<vx_uint8>{50}));
  for (vx_image* i : {&in, &y, &u, &v, &in2}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ChannelExtractRefusesChannelsTheFormatLacks) {
  vx_image rgb = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_RGB);
  vx_image nv12 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_NV12);
  vx_image u8 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image full = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_S16);
  auto node = [&](vx_image i, vx_enum c, vx_image o) { return [=](vx_graph g) { return vxChannelExtractNode(g, i, c, o); }; };
  EXPECT_EQ(verify_node(context_, node(rgb, VX_CHANNEL_A, full)), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("which input of format RGB does not have"));
  EXPECT_EQ(verify_node(context_, node(rgb, VX_CHANNEL_U, full)), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(verify_node(context_, node(rgb, VX_CHANNEL_3, full)), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(verify_node(context_, node(nv12, VX_CHANNEL_R, full)), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("which input of format NV12 does not have"));
  EXPECT_EQ(verify_node(context_, node(nv12, VX_CHANNEL_V + 1, full)), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(verify_node(context_, node(u8, VX_CHANNEL_0, full)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("input has format U8"));
  EXPECT_EQ(verify_node(context_, node(nv12, VX_CHANNEL_U, full)), VX_ERROR_INVALID_PARAMETERS);  // chroma is 19x7
  EXPECT_TRUE(logged("output is 38x14"));
  EXPECT_EQ(verify_node(context_, node(rgb, VX_CHANNEL_R, s16)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("output has format S16"));
  EXPECT_NE(vxuChannelExtract(context_, rgb, VX_CHANNEL_A, full), VX_SUCCESS);
  // The channel as a scalar of the wrong type, through a generic node.
  {
    vx_graph g = vxCreateGraph(context_);
    vx_kernel k = vxGetKernelByEnum(context_, VX_KERNEL_CHANNEL_EXTRACT);
    vx_node n = vxCreateGenericNode(g, k);
    vx_int32 c = VX_CHANNEL_R;
    vx_scalar channel = vxCreateScalar(context_, VX_TYPE_INT32, &c);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(rgb)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(channel)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 2, reinterpret_cast<vx_reference>(full)), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_TYPE);
    EXPECT_TRUE(logged("channel is a scalar of type"));
    EXPECT_EQ(vxReleaseScalar(&channel), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  }
  for (vx_image* i : {&rgb, &nv12, &u8, &full, &s16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ChannelCombineBuildsEveryFormatFromItsPlanes) {
  std::mt19937 rng(8);
  for (const FormatCase& fc : format_cases()) {
    const std::string what = name_of(fc.format);
    // The reference: a random image of the format; its channels are the planes to combine.
    const HostImage want = random_image(fc.format, fc.width, fc.height, rng);
    std::vector<vx_image> planes(4, nullptr);
    for (std::size_t c = 0; c < fc.channels.size(); ++c) {
      const Plane p = reference_channel(want, static_cast<int>(c));
      planes[c] = image_of(context_, HostImage{VX_DF_IMAGE_U8, p.w, p.h, {p}});
    }
    vx_image out = vxCreateImage(context_, fc.width, fc.height, fc.format);
    ASSERT_EQ(run_node(context_, [&](vx_graph g) { return vxChannelCombineNode(g, planes[0], planes[1], planes[2], planes[3], out); }),
              VX_SUCCESS)
        << what;
    HostImage got = read_image(out);
    for (std::size_t p = 0; p < want.planes.size(); ++p) expect_planes_eq(got.planes[p], want.planes[p], what + " plane " + std::to_string(p));
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
    out = vxCreateImage(context_, fc.width, fc.height, fc.format);
    ASSERT_EQ(vxuChannelCombine(context_, planes[0], planes[1], planes[2], planes[3], out), VX_SUCCESS) << what;
    got = read_image(out);
    for (std::size_t p = 0; p < want.planes.size(); ++p) expect_planes_eq(got.planes[p], want.planes[p], "vxu " + what + " plane " + std::to_string(p));
    // A virtual output of given format and open size takes plane0's size; extracting gives the planes back.
    vx_graph graph = vxCreateGraph(context_);
    vx_image mid = vxCreateVirtualImage(graph, 0, 0, fc.format);
    vx_node combine = vxChannelCombineNode(graph, planes[0], planes[1], planes[2], planes[3], mid);
    vx_image back = vxCreateImage(context_, fc.width, fc.height, VX_DF_IMAGE_U8);
    vx_node extract = vxChannelExtractNode(graph, mid, fc.channels[0], back);
    ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << what;
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << what;
    expect_planes_eq(read_image(back).planes[0], reference_channel(want, 0), what + " round trip");
    EXPECT_EQ(vxReleaseNode(&combine), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&extract), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&mid), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&back), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
    for (vx_image& p : planes) {
      if (p != nullptr) {
        EXPECT_EQ(vxReleaseImage(&p), VX_SUCCESS);
      }
    }
  }
}

TEST_F(OpenVx, ChannelCombineRefusesWrongPlanesAndAnOpenFormat) {
  vx_image a = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image b = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image c = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image d = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U8);
  vx_image half = vxCreateImage(context_, 19, 7, VX_DF_IMAGE_U8);
  vx_image half2 = vxCreateImage(context_, 19, 7, VX_DF_IMAGE_U8);
  vx_image odd = vxCreateImage(context_, 37, 14, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_S16);
  vx_image rgb = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_RGB);
  vx_image rgb_small = vxCreateImage(context_, 36, 14, VX_DF_IMAGE_RGB);
  vx_image nv12 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_NV12);
  vx_image yuyv = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_YUYV);
  vx_image u16 = vxCreateImage(context_, 38, 14, VX_DF_IMAGE_U16);
  auto node = [&](vx_image p0, vx_image p1, vx_image p2, vx_image p3, vx_image o) {
    return [=](vx_graph g) { return vxChannelCombineNode(g, p0, p1, p2, p3, o); };
  };
  EXPECT_EQ(verify_node(context_, node(a, b, nullptr, nullptr, rgb)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("plane2 is missing"));
  EXPECT_EQ(verify_node(context_, node(a, b, c, d, rgb)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("plane3 is given"));
  EXPECT_EQ(verify_node(context_, node(a, s16, c, nullptr, rgb)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("plane1 has format S16"));
  EXPECT_EQ(verify_node(context_, node(a, b, c, nullptr, nv12)), VX_ERROR_INVALID_PARAMETERS);  // chroma must be 19x7
  EXPECT_TRUE(logged("plane1 is 38x14"));
  EXPECT_EQ(verify_node(context_, node(a, half, half2, nullptr, yuyv)), VX_ERROR_INVALID_PARAMETERS);  // YUYV chroma is 19x14
  EXPECT_TRUE(logged("plane1 is 19x7"));
  EXPECT_EQ(verify_node(context_, node(a, b, c, nullptr, rgb_small)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("output is 36x14"));
  EXPECT_EQ(verify_node(context_, node(odd, half, half2, nullptr, nv12)), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("plane0 is 37x14"));
  EXPECT_EQ(verify_node(context_, node(a, b, c, nullptr, u16)), VX_ERROR_INVALID_FORMAT);
  EXPECT_TRUE(logged("output has format U16"));
  EXPECT_EQ(verify_node(context_, node(a, half, half2, nullptr, nv12)), VX_SUCCESS);
  EXPECT_NE(vxuChannelCombine(context_, a, b, nullptr, nullptr, rgb), VX_SUCCESS);
  {
    vx_graph g = vxCreateGraph(context_);
    vx_image open = vxCreateVirtualImage(g, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node n = vxChannelCombineNode(g, a, b, c, nullptr, open);
    EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_FORMAT);
    EXPECT_TRUE(logged("output is a virtual image of open format"));
    EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&open), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  }
  for (vx_image* i : {&a, &b, &c, &d, &half, &half2, &odd, &s16, &rgb, &rgb_small, &nv12, &yuyv, &u16}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ======================================================================================================
// Images from handles with gaps
// ======================================================================================================

TEST_F(OpenVx, ConversionKernelsFollowTheStridesOfHandles) {
  std::mt19937 rng(9);
  const vx_uint32 w = 22, h = 9;
  // An RGB handle with a byte of gap after each pixel and padding after each row.
  std::vector<vx_uint8> rgb_memory(static_cast<std::size_t>(w * 4 + 5) * h, 0xEE);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 4;
  addr.stride_y = static_cast<vx_int32>(w * 4 + 5);
  void* rgb_planes[] = {rgb_memory.data()};
  vx_image rgb = vxCreateImageFromHandle(context_, VX_DF_IMAGE_RGB, &addr, rgb_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(rgb), VX_SUCCESS);
  HostImage host = random_image(VX_DF_IMAGE_RGB, w, h, rng);
  transfer(rgb, host, VX_WRITE_ONLY);
  // A YUYV handle with 2 bytes of gap after each pixel.
  std::vector<vx_uint8> yuyv_memory(static_cast<std::size_t>(w * 4 + 3) * h, 0xEE);
  addr.stride_x = 4;
  addr.stride_y = static_cast<vx_int32>(w * 4 + 3);
  void* yuyv_planes[] = {yuyv_memory.data()};
  vx_image yuyv = vxCreateImageFromHandle(context_, VX_DF_IMAGE_YUYV, &addr, yuyv_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(yuyv), VX_SUCCESS);
  // A U8 handle with gaps for the outputs.
  std::vector<vx_uint8> u8_memory(static_cast<std::size_t>(w * 3 + 1) * h, 0xEE);
  addr.stride_x = 3;
  addr.stride_y = static_cast<vx_int32>(w * 3 + 1);
  void* u8_planes[] = {u8_memory.data()};
  vx_image u8 = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, u8_planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(u8), VX_SUCCESS);
  // G of the RGB handle into the U8 handle.
  ASSERT_EQ(vxuChannelExtract(context_, rgb, VX_CHANNEL_G, u8), VX_SUCCESS);
  expect_planes_eq(read_image(u8).planes[0], reference_channel(host, 1), "G on strides");
  EXPECT_EQ(u8_memory[1], 0xEE);
  EXPECT_EQ(rgb_memory[3], 0xEE);
  // Threshold of the U8 handle into itself is not allowed; into a plain image.
  vx_pixel_value_t v{};
  v.U8 = 128;
  vx_threshold th = binary_threshold(context_, VX_DF_IMAGE_U8, v, 255, 0);
  vx_image plain = vxCreateImage(context_, w, h, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxuThreshold(context_, u8, th, plain), VX_SUCCESS);
  HostImage g{VX_DF_IMAGE_U8, w, h, {reference_channel(host, 1)}};
  expect_planes_eq(read_image(plain).planes[0], reference_threshold(g, [](int p) { return p > 128; }, 255, 0).planes[0], "threshold on strides");
  // Combine the RGB's channels (U as R, V as G and Y half ... kept simple: Y from R, U and V from halves of G and B).
  std::vector<vx_image> half(2);
  HostImage want_yuyv = random_image(VX_DF_IMAGE_YUYV, w, h, rng);
  vx_image y_plane = image_of(context_, HostImage{VX_DF_IMAGE_U8, w, h, {reference_channel(want_yuyv, 0)}});
  for (int c = 1; c <= 2; ++c) {
    const Plane p = reference_channel(want_yuyv, c);
    half[static_cast<std::size_t>(c - 1)] = image_of(context_, HostImage{VX_DF_IMAGE_U8, p.w, p.h, {p}});
  }
  ASSERT_EQ(vxuChannelCombine(context_, y_plane, half[0], half[1], nullptr, yuyv), VX_SUCCESS);
  expect_planes_eq(read_image(yuyv).planes[0], want_yuyv.planes[0], "YUYV combine on strides");
  EXPECT_EQ(yuyv_memory[2], 0xEE);
  EXPECT_EQ(yuyv_memory[3], 0xEE);
  ASSERT_EQ(vxuChannelExtract(context_, yuyv, VX_CHANNEL_V, half[0]), VX_SUCCESS);
  expect_planes_eq(read_image(half[0]).planes[0], reference_channel(want_yuyv, 2), "V from YUYV on strides");
  EXPECT_EQ(vxReleaseThreshold(&th), VX_SUCCESS);
  for (vx_image* i : {&rgb, &yuyv, &u8, &plain, &y_plane, &half[0], &half[1]}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

}  // namespace
