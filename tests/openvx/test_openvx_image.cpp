// OpenVX images: every supported format, patches mapped and copied (planes, subsampling, user strides),
// regions and channels sharing memory, uniform images, images from handles and handle swaps, valid
// regions, virtual images typed by a kernel's validate, and images passed between user kernels in a graph.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::status_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;


/// Maps the whole of @p plane of @p image, calls @p body(ptr, addr), unmaps.
template <typename Body>
void with_map(vx_image image, vx_uint32 plane, vx_enum usage, Body body) {
  vx_uint32 width = 0, height = 0;
  ASSERT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  ASSERT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
  const vx_rectangle_t all{0, 0, width, height};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &all, plane, &id, &addr, &ptr, usage, VX_MEMORY_TYPE_HOST, VX_NOGAP_X), VX_SUCCESS);
  body(static_cast<vx_uint8*>(ptr), addr);
  ASSERT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
}

vx_uint8 pixel_u8(vx_image image, vx_uint32 plane, vx_uint32 x, vx_uint32 y) {
  vx_uint8 value = 0;
  with_map(image, plane, VX_READ_ONLY, [&](vx_uint8* ptr, const vx_imagepatch_addressing_t& addr) {
    value = *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(ptr, x, y, &addr));
  });
  return value;
}

vx_uint32 width_of(vx_image image) {
  vx_uint32 w = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  return w;
}
vx_uint32 height_of(vx_image image) {
  vx_uint32 h = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
  return h;
}

struct FormatCase {
  vx_df_image format;
  vx_size planes;
  vx_enum space;
};

TEST_F(OpenVx, EveryFormatIsCreatedAndQueried) {
  const FormatCase cases[] = {
      {VX_DF_IMAGE_U8, 1, VX_COLOR_SPACE_NONE},      {VX_DF_IMAGE_U16, 1, VX_COLOR_SPACE_NONE},
      {VX_DF_IMAGE_S16, 1, VX_COLOR_SPACE_NONE},     {VX_DF_IMAGE_U32, 1, VX_COLOR_SPACE_NONE},
      {VX_DF_IMAGE_S32, 1, VX_COLOR_SPACE_NONE},     {VX_DF_IMAGE_RGB, 1, VX_COLOR_SPACE_NONE},
      {VX_DF_IMAGE_RGBX, 1, VX_COLOR_SPACE_NONE},    {VX_DF_IMAGE_NV12, 2, VX_COLOR_SPACE_DEFAULT},
      {VX_DF_IMAGE_NV21, 2, VX_COLOR_SPACE_DEFAULT}, {VX_DF_IMAGE_IYUV, 3, VX_COLOR_SPACE_DEFAULT},
      {VX_DF_IMAGE_YUV4, 3, VX_COLOR_SPACE_DEFAULT}, {VX_DF_IMAGE_UYVY, 1, VX_COLOR_SPACE_DEFAULT},
      {VX_DF_IMAGE_YUYV, 1, VX_COLOR_SPACE_DEFAULT},
  };
  for (const FormatCase& c : cases) {
    SCOPED_TRACE(c.format);
    vx_image image = vxCreateImage(context_, 64, 48, c.format);
    ASSERT_EQ(status_of(image), VX_SUCCESS);
    vx_uint32 width = 0, height = 0;
    vx_df_image format = 0;
    vx_size planes = 0;
    vx_enum space = 0, range = 0, memory = 0;
    vx_bool uniform = vx_true_e;
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_PLANES, &planes, sizeof planes), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_SPACE, &space, sizeof space), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_RANGE, &range, sizeof range), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_MEMORY_TYPE, &memory, sizeof memory), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_IS_UNIFORM, &uniform, sizeof uniform), VX_SUCCESS);
    EXPECT_EQ(width, 64u);
    EXPECT_EQ(height, 48u);
    EXPECT_EQ(format, c.format);
    EXPECT_EQ(planes, c.planes);
    EXPECT_EQ(space, c.space);
    EXPECT_EQ(range, VX_CHANNEL_RANGE_FULL);
    EXPECT_EQ(memory, VX_MEMORY_TYPE_NONE);
    EXPECT_EQ(uniform, vx_false_e);
    vx_pixel_value_t value{};
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_UNIFORM_VALUE, &value, sizeof value), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width + 1), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
    EXPECT_EQ(image, nullptr);
  }
}

TEST_F(OpenVx, ImageCreationRefusesWhatItCannotHold) {
  EXPECT_EQ(vxCreateImage(nullptr, 8, 8, VX_DF_IMAGE_U8), nullptr);
  vx_image odd = vxCreateImage(context_, 63, 48, VX_DF_IMAGE_NV12);
  EXPECT_EQ(status_of(odd), VX_ERROR_INVALID_DIMENSION);
  vx_image empty = vxCreateImage(context_, 0, 48, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(empty), VX_ERROR_INVALID_DIMENSION);
  vx_image unknown = vxCreateImage(context_, 8, 8, VX_DF_IMAGE('X', 'X', 'X', 'X'));
  EXPECT_EQ(status_of(unknown), VX_ERROR_INVALID_FORMAT);
  vx_image uyvy = vxCreateImage(context_, 7, 4, VX_DF_IMAGE_UYVY);
  EXPECT_EQ(status_of(uyvy), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("image"));
}

TEST_F(OpenVx, WrongHandlesAreRefused) {
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(reinterpret_cast<vx_image>(scalar), VX_IMAGE_WIDTH, &width, sizeof width), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryImage(nullptr, VX_IMAGE_WIDTH, &width, sizeof width), VX_ERROR_INVALID_REFERENCE);
  vx_image as_image = reinterpret_cast<vx_image>(scalar);
  EXPECT_EQ(vxReleaseImage(&as_image), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxUnmapImagePatch(nullptr, 1), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetImagePixelValues(nullptr, nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetValidRegionImage(nullptr, nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSwapImageHandle(nullptr, nullptr, nullptr, 0), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCreateImageFromROI(nullptr, nullptr), nullptr);
  EXPECT_EQ(vxCreateImageFromChannel(nullptr, VX_CHANNEL_Y), nullptr);
  vx_rectangle_t rect{0, 0, 1, 1};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  vx_uint8 pixel = 0;
  EXPECT_EQ(vxCopyImagePatch(as_image, &rect, 0, &addr, &pixel, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxFormatImagePatchAddress2d(nullptr, 0, 0, &addr), nullptr);
  EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
}

TEST_F(OpenVx, PatchesMapInPlaceAndCopyBothWays) {
  vx_image image = vxCreateImage(context_, 32, 16, VX_DF_IMAGE_S16);
  // Write a patch at (4, 2) through a map, pixel = x + 100 * y in image coordinates.
  const vx_rectangle_t patch{4, 2, 12, 10};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &patch, 0, &id, &addr, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(addr.dim_x, 8u);
  EXPECT_EQ(addr.dim_y, 8u);
  EXPECT_EQ(addr.stride_x, 2);
  EXPECT_GE(addr.stride_y, 64);
  EXPECT_EQ(addr.scale_x, VX_SCALE_UNITY);
  EXPECT_EQ(addr.step_x, 1u);
  for (vx_uint32 y = 0; y < addr.dim_y; ++y) {
    for (vx_uint32 x = 0; x < addr.dim_x; ++x) {
      *static_cast<vx_int16*>(vxFormatImagePatchAddress2d(ptr, x, y, &addr)) = static_cast<vx_int16>((x + 4) + 100 * (y + 2));
    }
  }
  EXPECT_EQ(vxFormatImagePatchAddress2d(ptr, 8, 0, &addr), nullptr) << "outside the patch";
  EXPECT_EQ(vxFormatImagePatchAddress1d(ptr, 9, &addr), vxFormatImagePatchAddress2d(ptr, 1, 1, &addr));
  ASSERT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_ERROR_INVALID_PARAMETERS) << "unmapped twice";
  EXPECT_EQ(vxUnmapImagePatch(image, 12345), VX_ERROR_INVALID_PARAMETERS);
  // Map ids are not reused: the stale id does not unmap the next map (which takes the same slot).
  vx_map_id next = 0;
  ASSERT_EQ(vxMapImagePatch(image, &patch, 0, &next, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_NE(next, id);
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_ERROR_INVALID_PARAMETERS) << "a stale id";
  EXPECT_EQ(vxUnmapImagePatch(image, next), VX_SUCCESS);

  // Copy a smaller patch out, into a user buffer whose rows have a gap.
  const vx_rectangle_t inner{6, 4, 10, 7};
  std::vector<vx_int16> out(3 * 6, -1);
  vx_imagepatch_addressing_t user = VX_IMAGEPATCH_ADDR_INIT;
  user.dim_x = 4;
  user.dim_y = 3;
  user.stride_x = 2;
  user.stride_y = 12;  // 6 pixels a row, 4 used
  ASSERT_EQ(vxCopyImagePatch(image, &inner, 0, &user, out.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) EXPECT_EQ(out[y * 6 + x], (6 + x) + 100 * (4 + y));
    EXPECT_EQ(out[y * 6 + 4], -1) << "the gap is left alone";
  }
  // And one in: pixels 4 bytes apart in the user buffer.
  std::vector<vx_int16> in(2 * 2 * 2, 0);
  for (int i = 0; i < 4; ++i) in[i * 2] = static_cast<vx_int16>(-7 - i);
  user.dim_x = 2;
  user.dim_y = 2;
  user.stride_x = 4;
  user.stride_y = 8;
  const vx_rectangle_t corner{0, 0, 2, 2};
  ASSERT_EQ(vxCopyImagePatch(image, &corner, 0, &user, in.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  with_map(image, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(*static_cast<vx_int16*>(vxFormatImagePatchAddress2d(p, 1, 1, &a)), -10);
    EXPECT_EQ(*static_cast<vx_int16*>(vxFormatImagePatchAddress2d(p, 5, 3, &a)), 305);
  });
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, BadPatchesAreRefused) {
  vx_image image = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_NV12);
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  const vx_rectangle_t all{0, 0, 16, 8}, outside{0, 0, 17, 8}, empty{4, 4, 4, 6}, odd{1, 0, 5, 4};
  EXPECT_EQ(vxMapImagePatch(image, &outside, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapImagePatch(image, &empty, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapImagePatch(image, nullptr, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapImagePatch(image, &all, 2, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS) << "NV12 has 2 planes";
  EXPECT_EQ(vxMapImagePatch(image, &odd, 1, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS) << "chroma starts on even pixels";
  EXPECT_EQ(vxMapImagePatch(image, &odd, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS) << "luma does not care";
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  EXPECT_EQ(vxMapImagePatch(image, &all, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapImagePatch(image, &all, 0, &id, &addr, &ptr, 12345, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapImagePatch(image, &all, 0, nullptr, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_PARAMETERS);
  vx_uint8 buffer[16 * 8] = {};
  vx_imagepatch_addressing_t user = VX_IMAGEPATCH_ADDR_INIT;
  user.dim_x = 16;
  user.dim_y = 8;
  user.stride_x = 1;
  user.stride_y = 16;
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &user, buffer, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  user.stride_y = 15;
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &user, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS) << "rows overlap";
  user.stride_y = 16;
  user.dim_x = 8;
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &user, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS) << "size mismatch";
  // The chroma plane's patch may be given in image pixels or in the plane's own (the conformance suite's way).
  vx_imagepatch_addressing_t chroma = VX_IMAGEPATCH_ADDR_INIT;
  chroma.stride_x = 2;
  chroma.stride_y = 16;
  for (auto [w, h] : {std::pair{16u, 8u}, std::pair{8u, 4u}}) {
    chroma.dim_x = w;
    chroma.dim_y = h;
    EXPECT_EQ(vxCopyImagePatch(image, &all, 1, &chroma, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS) << w << "x" << h;
  }
  chroma.dim_x = 8;
  chroma.dim_y = 8;
  EXPECT_EQ(vxCopyImagePatch(image, &all, 1, &chroma, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS) << "mixed";
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, nullptr, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  // The map table is bounded: the 17th outstanding map is refused, not allocated.
  std::vector<vx_map_id> ids;
  vx_status last = VX_SUCCESS;
  for (int i = 0; i < 20 && last == VX_SUCCESS; ++i) {
    last = vxMapImagePatch(image, &all, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
    if (last == VX_SUCCESS) ids.push_back(id);
  }
  EXPECT_EQ(last, VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(ids.size(), 16u);
  for (vx_map_id m : ids) EXPECT_EQ(vxUnmapImagePatch(image, m), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, SubsampledPlanesAreAddressedInImagePixels) {
  vx_image image = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_NV12);
  vx_pixel_value_t value{};
  value.YUV[0] = 16;
  value.YUV[1] = 100;
  value.YUV[2] = 200;
  ASSERT_EQ(vxSetImagePixelValues(image, &value), VX_SUCCESS);
  with_map(image, 1, VX_READ_AND_WRITE, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(a.dim_x, 8u) << "dims stay in image pixels";
    EXPECT_EQ(a.dim_y, 4u);
    EXPECT_EQ(a.scale_x, VX_SCALE_UNITY / 2);
    EXPECT_EQ(a.scale_y, VX_SCALE_UNITY / 2);
    EXPECT_EQ(a.step_x, 2u);
    EXPECT_EQ(a.step_y, 2u);
    EXPECT_EQ(a.stride_x, 2);
    vx_uint8* uv = static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 6, 2, &a));
    EXPECT_EQ(uv, p + a.stride_y + 3 * 2) << "image pixel (6, 2) is chroma pixel (3, 1)";
    EXPECT_EQ(uv[0], 100);
    EXPECT_EQ(uv[1], 200);
    uv[0] = 1;
  });
  EXPECT_EQ(pixel_u8(image, 0, 7, 3), 16);
  EXPECT_EQ(pixel_u8(image, 1, 7, 3), 1) << "(7, 3) shares chroma with (6, 2)";
  // A copy of plane 1 moves (rect / 2) chroma pixels.
  const vx_rectangle_t rect{2, 0, 6, 4};
  vx_uint8 chroma[2 * 2 * 2] = {};
  vx_imagepatch_addressing_t user = VX_IMAGEPATCH_ADDR_INIT;
  user.dim_x = 4;
  user.dim_y = 4;
  user.stride_x = 2;
  user.stride_y = 4;
  ASSERT_EQ(vxCopyImagePatch(image, &rect, 1, &user, chroma, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(chroma[0], 100);
  EXPECT_EQ(chroma[1], 200);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, PixelValuesFillEveryPlaneOfEveryFormat) {
  vx_pixel_value_t value{};
  value.RGBX[0] = 10;
  value.RGBX[1] = 20;
  value.RGBX[2] = 30;
  value.RGBX[3] = 40;
  vx_image rgb = vxCreateImage(context_, 4, 2, VX_DF_IMAGE_RGB);
  ASSERT_EQ(vxSetImagePixelValues(rgb, &value), VX_SUCCESS);
  with_map(rgb, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    const vx_uint8* px = static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 3, 1, &a));
    EXPECT_EQ(px[0], 10);
    EXPECT_EQ(px[1], 20);
    EXPECT_EQ(px[2], 30);
  });
  vx_image iyuv = vxCreateImage(context_, 4, 2, VX_DF_IMAGE_IYUV);
  ASSERT_EQ(vxSetImagePixelValues(iyuv, &value), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(iyuv, 0, 3, 1), 10);
  EXPECT_EQ(pixel_u8(iyuv, 1, 3, 1), 20);
  EXPECT_EQ(pixel_u8(iyuv, 2, 3, 1), 30);
  vx_image yuyv = vxCreateImage(context_, 4, 2, VX_DF_IMAGE_YUYV);
  ASSERT_EQ(vxSetImagePixelValues(yuyv, &value), VX_SUCCESS);
  with_map(yuyv, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    const vx_uint8* row = static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 0, 1, &a));
    const vx_uint8 expected[8] = {10, 20, 10, 30, 10, 20, 10, 30};  // Y U Y V
    EXPECT_EQ(std::memcmp(row, expected, 8), 0);
  });
  vx_pixel_value_t s32{};
  s32.S32 = -123456;
  vx_image wide = vxCreateImage(context_, 3, 3, VX_DF_IMAGE_S32);
  ASSERT_EQ(vxSetImagePixelValues(wide, &s32), VX_SUCCESS);
  with_map(wide, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(*static_cast<vx_int32*>(vxFormatImagePatchAddress2d(p, 2, 2, &a)), -123456);
  });
  EXPECT_EQ(vxSetImagePixelValues(wide, nullptr), VX_ERROR_INVALID_PARAMETERS);
  for (vx_image* i : {&rgb, &iyuv, &yuyv, &wide}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, RegionsShareTheParentsMemoryAndOutliveIt) {
  vx_image parent = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  const vx_rectangle_t rect{4, 6, 12, 14};
  vx_image roi = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(roi), VX_SUCCESS);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(roi, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(width, 8u);
  const vx_rectangle_t inner{1, 1, 3, 3};
  vx_image nested = vxCreateImageFromROI(roi, &inner);
  ASSERT_EQ(status_of(nested), VX_SUCCESS);
  with_map(nested, 0, VX_WRITE_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 1, 0, &a)) = 77;
  });
  EXPECT_EQ(pixel_u8(parent, 0, 4 + 1 + 1, 6 + 1), 77);
  EXPECT_EQ(pixel_u8(roi, 0, 2, 1), 77);
  // The parent's valid region clips the region's.
  const vx_rectangle_t valid{0, 0, 8, 8};
  EXPECT_EQ(vxSetImageValidRectangle(parent, &valid), VX_SUCCESS);
  vx_image clipped = vxCreateImageFromROI(parent, &rect);
  vx_rectangle_t got{};
  EXPECT_EQ(vxGetValidRegionImage(clipped, &got), VX_SUCCESS);
  EXPECT_EQ(got.start_x, 0u);
  EXPECT_EQ(got.start_y, 0u);
  EXPECT_EQ(got.end_x, 4u);
  EXPECT_EQ(got.end_y, 2u);
  const vx_rectangle_t outside{10, 10, 20, 12};
  EXPECT_EQ(status_of(vxCreateImageFromROI(parent, &outside)), VX_ERROR_INVALID_PARAMETERS);
  // The application may release the parent first: the region holds its memory.
  EXPECT_EQ(vxReleaseImage(&parent), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(nested, 0, 1, 0), 77);
  for (vx_image* i : {&roi, &nested, &clipped}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  // NV12 regions start on even pixels.
  vx_image nv12 = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_NV12);
  const vx_rectangle_t odd{1, 2, 5, 6}, even{2, 2, 6, 6};
  EXPECT_EQ(status_of(vxCreateImageFromROI(nv12, &odd)), VX_ERROR_INVALID_PARAMETERS);
  vx_image nv12_roi = vxCreateImageFromROI(nv12, &even);
  EXPECT_EQ(status_of(nv12_roi), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&nv12_roi), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&nv12), VX_SUCCESS);
}

TEST_F(OpenVx, ChannelsArePlanesOfTheParent) {
  vx_image iyuv = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_IYUV);
  vx_image u = vxCreateImageFromChannel(iyuv, VX_CHANNEL_U);
  ASSERT_EQ(status_of(u), VX_SUCCESS);
  vx_uint32 width = 0, height = 0;
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(u, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(u, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(u, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(width, 4u);
  EXPECT_EQ(height, 2u);
  EXPECT_EQ(format, VX_DF_IMAGE_U8);
  with_map(u, 0, VX_WRITE_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 3, 1, &a)) = 55;
  });
  EXPECT_EQ(pixel_u8(iyuv, 1, 6, 2), 55) << "chroma pixel (3, 1) is image pixel (6, 2) of plane 1";
  vx_image nv12 = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_NV12);
  EXPECT_EQ(status_of(vxCreateImageFromChannel(nv12, VX_CHANNEL_U)), VX_ERROR_INVALID_PARAMETERS) << "interleaved: not a plane";
  vx_image y = vxCreateImageFromChannel(nv12, VX_CHANNEL_Y);
  EXPECT_EQ(status_of(y), VX_SUCCESS);
  vx_image rgb = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_RGB);
  EXPECT_EQ(status_of(vxCreateImageFromChannel(rgb, VX_CHANNEL_R)), VX_ERROR_INVALID_PARAMETERS);
  for (vx_image* i : {&iyuv, &u, &nv12, &y, &rgb}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, UniformImagesAreReadOnly) {
  vx_pixel_value_t value{};
  value.U16 = 4242;
  vx_image image = vxCreateUniformImage(context_, 5, 3, VX_DF_IMAGE_U16, &value);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  vx_bool uniform = vx_false_e;
  vx_pixel_value_t got{};
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_IS_UNIFORM, &uniform, sizeof uniform), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_UNIFORM_VALUE, &got, sizeof got), VX_SUCCESS);
  EXPECT_EQ(uniform, vx_true_e);
  EXPECT_EQ(got.U16, 4242);
  with_map(image, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(*static_cast<vx_uint16*>(vxFormatImagePatchAddress2d(p, 4, 2, &a)), 4242);
  });
  const vx_rectangle_t all{0, 0, 5, 3};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  EXPECT_EQ(vxMapImagePatch(image, &all, 0, &id, &addr, &ptr, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxSetImagePixelValues(image, &value), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(status_of(vxCreateUniformImage(context_, 5, 3, VX_DF_IMAGE_U8, nullptr)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, ImagesFromHandlesUseTheApplicationsMemoryAndSwap) {
  // Two NV12 frames the application owns, rows padded to 16 bytes.
  constexpr vx_uint32 w = 8, h = 4, stride = 16;
  std::vector<vx_uint8> y1(stride * h, 1), uv1(stride * h / 2, 2), y2(stride * h, 3), uv2(stride * h / 2, 4);
  vx_imagepatch_addressing_t addrs[2] = {VX_IMAGEPATCH_ADDR_INIT, VX_IMAGEPATCH_ADDR_INIT};
  addrs[0].dim_x = w;
  addrs[0].dim_y = h;
  addrs[0].stride_x = 1;
  addrs[0].stride_y = stride;
  addrs[1].dim_x = w / 2;
  addrs[1].dim_y = h / 2;
  addrs[1].stride_x = 2;
  addrs[1].stride_y = stride;
  void* first[2] = {y1.data(), uv1.data()};
  vx_image image = vxCreateImageFromHandle(context_, VX_DF_IMAGE_NV12, addrs, first, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  vx_enum memory = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_MEMORY_TYPE, &memory, sizeof memory), VX_SUCCESS);
  EXPECT_EQ(memory, VX_MEMORY_TYPE_HOST);
  with_map(image, 0, VX_READ_AND_WRITE, [&](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(p, y1.data()) << "mapped in place";
    EXPECT_EQ(a.stride_y, 16);
    *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 7, 3, &a)) = 99;
  });
  EXPECT_EQ(y1[3 * stride + 7], 99);
  const vx_rectangle_t rect{2, 2, 6, 4};
  vx_image roi = vxCreateImageFromROI(image, &rect);
  EXPECT_EQ(pixel_u8(roi, 1, 0, 0), 2);
  // Swap: the old pointers come back, the image and its region see the new frame.
  void* second[2] = {y2.data(), uv2.data()};
  void* previous[2] = {nullptr, nullptr};
  EXPECT_EQ(vxSwapImageHandle(image, second, previous, 2), VX_SUCCESS);
  EXPECT_EQ(previous[0], y1.data());
  EXPECT_EQ(previous[1], uv1.data());
  EXPECT_EQ(pixel_u8(image, 0, 0, 0), 3);
  EXPECT_EQ(pixel_u8(roi, 1, 0, 0), 4);
  // No swap while a patch (here of the region) is mapped.
  const vx_rectangle_t one{0, 0, 2, 2};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapImagePatch(roi, &one, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(vxSwapImageHandle(image, first, nullptr, 2), VX_FAILURE);
  EXPECT_EQ(vxUnmapImagePatch(roi, id), VX_SUCCESS);
  EXPECT_EQ(vxSwapImageHandle(image, first, nullptr, 1), VX_ERROR_INVALID_PARAMETERS) << "one pointer per plane";
  EXPECT_EQ(vxSwapImageHandle(roi, first, nullptr, 2), VX_ERROR_INVALID_PARAMETERS) << "regions follow their parent";
  // Reclaimed: the image has no memory until new handles come.
  EXPECT_EQ(vxSwapImageHandle(image, nullptr, previous, 2), VX_SUCCESS);
  EXPECT_EQ(previous[0], y2.data());
  EXPECT_EQ(vxMapImagePatch(image, &one, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_NO_MEMORY);
  EXPECT_EQ(vxSwapImageHandle(image, first, nullptr, 2), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(image, 0, 7, 3), 99);
  // Images not from handles do not swap; bad handles are refused.
  vx_image own = vxCreateImage(context_, 8, 4, VX_DF_IMAGE_NV12);
  EXPECT_EQ(vxSwapImageHandle(own, second, nullptr, 2), VX_ERROR_INVALID_PARAMETERS);
  void* missing[2] = {y1.data(), nullptr};
  EXPECT_EQ(status_of(vxCreateImageFromHandle(context_, VX_DF_IMAGE_NV12, addrs, missing, VX_MEMORY_TYPE_HOST)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreateImageFromHandle(context_, VX_DF_IMAGE_NV12, addrs, first, VX_MEMORY_TYPE_NONE)), VX_ERROR_INVALID_PARAMETERS);
  addrs[0].stride_y = 4;
  EXPECT_EQ(status_of(vxCreateImageFromHandle(context_, VX_DF_IMAGE_NV12, addrs, first, VX_MEMORY_TYPE_HOST)), VX_ERROR_INVALID_PARAMETERS) << "rows overlap";
  for (vx_image* i : {&roi, &image, &own}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, ValidRectanglesAndTheColorSpace) {
  vx_image image = vxCreateImage(context_, 10, 6, VX_DF_IMAGE_U8);
  vx_rectangle_t got{};
  EXPECT_EQ(vxGetValidRegionImage(image, &got), VX_SUCCESS);
  EXPECT_EQ(got.end_x, 10u);
  EXPECT_EQ(got.end_y, 6u);
  const vx_rectangle_t part{1, 2, 9, 5}, too_big{0, 0, 11, 6};
  EXPECT_EQ(vxSetImageValidRectangle(image, &part), VX_SUCCESS);
  EXPECT_EQ(vxGetValidRegionImage(image, &got), VX_SUCCESS);
  EXPECT_EQ(got.start_x, 1u);
  EXPECT_EQ(got.end_y, 5u);
  EXPECT_EQ(vxSetImageValidRectangle(image, &too_big), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetImageValidRectangle(image, nullptr), VX_SUCCESS) << "NULL: all of it";
  EXPECT_EQ(vxGetValidRegionImage(image, &got), VX_SUCCESS);
  EXPECT_EQ(got.start_x, 0u);
  EXPECT_EQ(got.end_x, 10u);
  EXPECT_EQ(vxGetValidRegionImage(image, nullptr), VX_ERROR_INVALID_PARAMETERS);
  const vx_enum bt601 = VX_COLOR_SPACE_BT601_625;
  vx_enum space = 0;
  EXPECT_EQ(vxSetImageAttribute(image, VX_IMAGE_SPACE, &bt601, sizeof bt601), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_SPACE, &space, sizeof space), VX_SUCCESS);
  EXPECT_EQ(space, VX_COLOR_SPACE_BT601_625);
  const vx_uint32 width = 3;
  EXPECT_EQ(vxSetImageAttribute(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_ERROR_NOT_SUPPORTED);
  const vx_enum bogus = 7;
  EXPECT_EQ(vxSetImageAttribute(image, VX_IMAGE_SPACE, &bogus, sizeof bogus), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

// ---- images in graphs -----------------------------------------------------------------------------

// "invert": out = 255 - in (U8), the output typed like the input by validate. Takes 20 ms when it writes
// `slow_output` (so only that node is slow).
std::atomic<vx_image> slow_output{nullptr};
vx_status VX_CALLBACK invert(vx_node, const vx_reference* parameters, vx_uint32) {
  auto in = reinterpret_cast<vx_image>(parameters[0]), out = reinterpret_cast<vx_image>(parameters[1]);
  if (out == slow_output.load()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  vx_uint32 width = 0, height = 0;
  vxQueryImage(in, VX_IMAGE_WIDTH, &width, sizeof width);
  vxQueryImage(in, VX_IMAGE_HEIGHT, &height, sizeof height);
  const vx_rectangle_t all{0, 0, width, height};
  vx_map_id in_id = 0, out_id = 0;
  vx_imagepatch_addressing_t in_addr = VX_IMAGEPATCH_ADDR_INIT, out_addr = VX_IMAGEPATCH_ADDR_INIT;
  void *in_ptr = nullptr, *out_ptr = nullptr;
  vx_status s = vxMapImagePatch(in, &all, 0, &in_id, &in_addr, &in_ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, VX_NOGAP_X);
  if (s != VX_SUCCESS) return s;
  s = vxMapImagePatch(out, &all, 0, &out_id, &out_addr, &out_ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, VX_NOGAP_X);
  if (s != VX_SUCCESS) return s;
  for (vx_uint32 y = 0; y < height; ++y) {
    for (vx_uint32 x = 0; x < width; ++x) {
      const vx_uint8 v = *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(in_ptr, x, y, &in_addr));
      *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(out_ptr, x, y, &out_addr)) = static_cast<vx_uint8>(255 - v);
    }
  }
  vxUnmapImagePatch(in, in_id);
  return vxUnmapImagePatch(out, out_id);
}

vx_status VX_CALLBACK validate_like_input(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  return vxSetMetaFormatFromReference(metas[1], parameters[0]);
}

// "half": validate says the output is half the input's width (to check a declared size against it).
vx_status VX_CALLBACK validate_half(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  vx_uint32 width = 0, height = 0;
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_WIDTH, &width, sizeof width);
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_HEIGHT, &height, sizeof height);
  width /= 2;
  const vx_df_image format = VX_DF_IMAGE_U8;
  vxSetMetaFormatAttribute(metas[1], VX_IMAGE_WIDTH, &width, sizeof width);
  vxSetMetaFormatAttribute(metas[1], VX_IMAGE_HEIGHT, &height, sizeof height);
  return vxSetMetaFormatAttribute(metas[1], VX_IMAGE_FORMAT, &format, sizeof format);
}

vx_status VX_CALLBACK validate_nothing(vx_node, const vx_reference[], vx_uint32, vx_meta_format[]) { return VX_SUCCESS; }

class OpenVxImageGraph : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    kernel_ = add_kernel("org.visiongraph.test.invert", validate_like_input);
    graph_ = vxCreateGraph(context_);
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    for (vx_kernel k : kernels_) EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_kernel add_kernel(const char* name, vx_kernel_validate_f validate) {
    vx_kernel k = add_user_kernel(context_, name, invert, {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_IMAGE}}, validate);
    kernels_.push_back(k);
    return k;
  }
  void add_node(vx_kernel kernel, vx_image in, vx_image out, const char* target = "any") {
    vx_node n = vxCreateGenericNode(graph_, kernel);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(in)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(out)), VX_SUCCESS);
    EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, target), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  }
  vx_kernel kernel_ = nullptr;
  std::vector<vx_kernel> kernels_;
  vx_graph graph_ = nullptr;
};

TEST_F(OpenVxImageGraph, AVirtualImageTypedByValidateCarriesPixelsBetweenKernels) {
  vx_image in = vxCreateImage(context_, 32, 8, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, 32, 8, VX_DF_IMAGE_U8);
  vx_image between = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
  ASSERT_EQ(status_of(between), VX_SUCCESS);
  vx_pixel_value_t value{};
  value.U8 = 40;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  with_map(in, 0, VX_WRITE_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 31, 7, &a)) = 1;
  });
  add_node(kernel_, in, between, "cpu0");
  add_node(kernel_, between, out, "cpu1");
  // Before verification the application cannot reach a virtual image's pixels.
  const vx_rectangle_t all{0, 0, 32, 8};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  EXPECT_EQ(vxMapImagePatch(between, &all, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  vx_uint32 width = 0;
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(between, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(between, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(width, 32u) << "the virtual image took validate's size";
  EXPECT_EQ(format, VX_DF_IMAGE_U8);
  EXPECT_EQ(vxMapImagePatch(between, &all, 0, &id, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY)
      << "still out of the application's reach after verification";
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(pixel_u8(out, 0, 0, 0), 40 + frame) << "inverted twice";
    EXPECT_EQ(pixel_u8(out, 0, 31, 7), 1);
    value.U8 = static_cast<vx_uint8>(41 + frame);
    ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
    with_map(in, 0, VX_WRITE_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
      *static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(p, 31, 7, &a)) = 1;
    });
  }
  for (vx_image* i : {&in, &out, &between}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVxImageGraph, TwoKernelsOnTwoTargetsMapOneImageAtOnce) {
  vx_image in = vxCreateImage(context_, 64, 64, VX_DF_IMAGE_U8);
  vx_image out1 = vxCreateImage(context_, 64, 64, VX_DF_IMAGE_U8), out2 = vxCreateImage(context_, 64, 64, VX_DF_IMAGE_U8);
  vx_pixel_value_t value{};
  value.U8 = 5;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  add_node(kernel_, in, out1, "cpu0");
  add_node(kernel_, in, out2, "cpu1");
  for (int frame = 0; frame < 20; ++frame) ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(out1, 0, 63, 63), 250);
  EXPECT_EQ(pixel_u8(out2, 0, 0, 0), 250);
  for (vx_image* i : {&in, &out1, &out2}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVxImageGraph, VerificationChecksImagesAgainstValidate) {
  vx_kernel half = add_kernel("org.visiongraph.test.half", validate_half);
  vx_image in = vxCreateImage(context_, 32, 8, VX_DF_IMAGE_U8);
  // A declared size that validate contradicts.
  vx_image wrong = vxCreateVirtualImage(graph_, 32, 8, VX_DF_IMAGE_U8);
  add_node(half, in, wrong);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("validate says 16x8"));
  EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
  // A non-virtual output of another format.
  graph_ = vxCreateGraph(context_);
  vx_image s16 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
  add_node(half, in, s16);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
  // A validate that says nothing about its output.
  graph_ = vxCreateGraph(context_);
  vx_kernel silent = add_kernel("org.visiongraph.test.silent", validate_nothing);
  vx_image open = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
  add_node(silent, in, open);
  EXPECT_NE(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_TRUE(logged("validate did not set VX_IMAGE_WIDTH"));
  // A declared-but-matching virtual image is fine.
  EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
  graph_ = vxCreateGraph(context_);
  vx_image right = vxCreateVirtualImage(graph_, 16, 0, VX_DF_IMAGE_VIRT);
  vx_image out = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
  add_node(half, in, right);
  add_node(kernel_, right, out);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (vx_image* i : {&in, &wrong, &s16, &open, &right, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVxImageGraph, ARegionWaitsForTheNodeWritingItsImage) {
  // slow (cpu0) writes all of `whole`; reader (cpu1) reads a region of it: the region's data root is
  // `whole`, so reader runs after slow although they share no object.
  vx_image in = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8), whole = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  const vx_rectangle_t rect{4, 4, 12, 12};
  vx_image region = vxCreateImageFromROI(whole, &rect);
  vx_image out = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_pixel_value_t value{};
  value.U8 = 5;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  add_node(kernel_, region, out, "cpu1");  // created first on purpose
  add_node(kernel_, in, whole, "cpu0");
  slow_output = whole;  // only the writer is slow: a reader not waiting for it would read stale pixels
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(pixel_u8(out, 0, 7, 7), 5) << "255 - (255 - 5): the reader saw the writer's pixels";
    value.U8 = 0;
    ASSERT_EQ(vxSetImagePixelValues(whole, &value), VX_SUCCESS);
  }
  slow_output = nullptr;
  for (vx_image* i : {&in, &whole, &region, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ---- images on a tensor's slices, object arrays of images --------------------------------------------

TEST_F(OpenVx, ImagesFromATensorShareItsSlices) {
  const vx_size dims[3] = {6, 4, 5};  // x, y, item
  vx_tensor tensor = vxCreateTensor(context_, 3, dims, VX_TYPE_INT16, 0);
  ASSERT_EQ(status_of(tensor), VX_SUCCESS);
  const vx_rectangle_t rect{1, 1, 5, 3};
  // jump is the byte stride between images (the conformance suite's reading): 3 slices of 6 x 4 x 2 bytes.
  vx_object_array images = vxCreateImageObjectArrayFromTensor(tensor, &rect, 2, 3 * 48, VX_DF_IMAGE_S16);  // slices 0 and 3
  ASSERT_EQ(status_of(images), VX_SUCCESS);
  vx_size count = 0;
  EXPECT_EQ(vxQueryObjectArray(images, VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2u);
  vx_image second = reinterpret_cast<vx_image>(vxGetObjectArrayItem(images, 1));
  EXPECT_EQ(width_of(second), 4u);
  EXPECT_EQ(height_of(second), 2u);
  with_map(second, 0, VX_WRITE_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(a.stride_x, 2);
    EXPECT_EQ(a.stride_y, 12) << "the tensor's row stride";
    *static_cast<vx_int16*>(vxFormatImagePatchAddress2d(p, 3, 1, &a)) = -1234;
  });
  // Image (3, 1) of item 1 is tensor element (1 + 3, 1 + 1, 3).
  vx_int16 element = 0;
  const vx_size start[3] = {4, 2, 3}, end[3] = {5, 3, 4}, strides[3] = {2, 2, 2};
  EXPECT_EQ(vxCopyTensorPatch(tensor, 3, start, end, strides, &element, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(element, -1234);
  // The images keep the tensor's memory alive.
  EXPECT_EQ(vxReleaseTensor(&tensor), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&images), VX_SUCCESS);
  with_map(second, 0, VX_READ_ONLY, [](vx_uint8* p, const vx_imagepatch_addressing_t& a) {
    EXPECT_EQ(*static_cast<vx_int16*>(vxFormatImagePatchAddress2d(p, 3, 1, &a)), -1234);
  });
  EXPECT_EQ(vxReleaseImage(&second), VX_SUCCESS);
}

TEST_F(OpenVx, ImagesFromATensorRefuseWhatDoesNotFit) {
  const vx_size dims[3] = {6, 4, 5};
  vx_tensor tensor = vxCreateTensor(context_, 3, dims, VX_TYPE_UINT8, 0);
  const vx_rectangle_t rect{0, 0, 6, 4}, too_wide{0, 0, 7, 4};
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(tensor, &rect, 2, 3 * 24, VX_DF_IMAGE_S16)), VX_ERROR_INVALID_FORMAT) << "U8 data";
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(tensor, &too_wide, 2, 3 * 24, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(tensor, &rect, 3, 3 * 24, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS) << "slice 6 of 5";
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(tensor, &rect, 2, 30, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS)
      << "not a whole number of slices";
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(tensor, nullptr, 1, 1, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCreateImageObjectArrayFromTensor(nullptr, &rect, 1, 1, VX_DF_IMAGE_U8), nullptr);
  const vx_size flat[2] = {6, 4};
  vx_tensor two_d = vxCreateTensor(context_, 2, flat, VX_TYPE_UINT8, 0);
  EXPECT_EQ(status_of(vxCreateImageObjectArrayFromTensor(two_d, &rect, 1, 1, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(vxReleaseTensor(&two_d), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&tensor), VX_SUCCESS);
}

TEST_F(OpenVxImageGraph, AnItemOfAnObjectArrayOfImagesWaitsForTheArraysWriter) {
  // writer (cpu0) fills every image of `frames`; reader (cpu1) inverts item 1 of it.
  vx_image exemplar = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_object_array frames = vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), 3);
  ASSERT_EQ(status_of(frames), VX_SUCCESS);
  vx_image item = reinterpret_cast<vx_image>(vxGetObjectArrayItem(frames, 1));
  EXPECT_EQ(width_of(item), 8u);
  auto fill_all = [](vx_node, const vx_reference* parameters, vx_uint32) -> vx_status {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto array = reinterpret_cast<vx_object_array>(parameters[1]);
    for (vx_uint32 i = 0; i < 3; ++i) {
      vx_image image = reinterpret_cast<vx_image>(vxGetObjectArrayItem(array, i));
      vx_pixel_value_t value{};
      value.U8 = static_cast<vx_uint8>(10 * (i + 1));
      vx_status s = vxSetImagePixelValues(image, &value);
      vxReleaseImage(&image);
      if (s != VX_SUCCESS) return s;
    }
    return VX_SUCCESS;
  };
  auto validate_all = [](vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) -> vx_status {
    const vx_enum type = VX_TYPE_IMAGE;
    const vx_size count = 3;
    vxSetMetaFormatAttribute(metas[1], VX_OBJECT_ARRAY_ITEMTYPE, &type, sizeof type);
    return vxSetMetaFormatAttribute(metas[1], VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count);
  };
  vx_kernel writer = add_user_kernel(context_, "org.visiongraph.test.fill_all", fill_all,
                                     {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_OBJECT_ARRAY}}, validate_all);
  kernels_.push_back(writer);
  vx_image out = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  add_node(kernel_, item, out, "cpu1");  // created first on purpose
  vx_node n = vxCreateGenericNode(graph_, writer);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(exemplar)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(frames)), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
    EXPECT_EQ(pixel_u8(out, 0, 7, 7), 255 - 20);
    vx_pixel_value_t zero{};
    ASSERT_EQ(vxSetImagePixelValues(item, &zero), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseObjectArray(&frames), VX_SUCCESS);
  for (vx_image* i : {&exemplar, &item, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// ---- pyramids ---------------------------------------------------------------------------------------

TEST_F(OpenVx, PyramidLevelsAreScaledWithFractionsRoundedUp) {
  vx_pyramid pyramid = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 9, 7, VX_DF_IMAGE_U8);
  ASSERT_EQ(status_of(pyramid), VX_SUCCESS);
  vx_size levels = 0;
  vx_float32 scale = 0;
  vx_uint32 width = 0, height = 0;
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_LEVELS, &levels, sizeof levels), VX_SUCCESS);
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_SCALE, &scale, sizeof scale), VX_SUCCESS);
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_HEIGHT, &height, sizeof height), VX_SUCCESS);
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(levels, 3u);
  EXPECT_EQ(scale, VX_SCALE_PYRAMID_HALF);
  EXPECT_EQ(width, 9u);
  EXPECT_EQ(height, 7u);
  EXPECT_EQ(format, VX_DF_IMAGE_U8);
  const vx_uint32 expected[3][2] = {{9, 7}, {5, 4}, {3, 2}};  // ceil(9 / 2) = 5, ceil(5 / 2) = 3
  for (vx_uint32 level = 0; level < 3; ++level) {
    vx_image image = vxGetPyramidLevel(pyramid, level);
    ASSERT_EQ(status_of(image), VX_SUCCESS);
    EXPECT_EQ(width_of(image), expected[level][0]);
    EXPECT_EQ(height_of(image), expected[level][1]);
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
  EXPECT_EQ(status_of(vxGetPyramidLevel(pyramid, 3)), VX_ERROR_INVALID_PARAMETERS);
  // A level the application holds outlives the pyramid.
  vx_image last = vxGetPyramidLevel(pyramid, 2);
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
  vx_pixel_value_t value{};
  value.U8 = 9;
  EXPECT_EQ(vxSetImagePixelValues(last, &value), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(last, 0, 2, 1), 9);
  EXPECT_EQ(vxReleaseImage(&last), VX_SUCCESS);

  vx_pyramid orb = vxCreatePyramid(context_, 4, VX_SCALE_PYRAMID_ORB, 100, 80, VX_DF_IMAGE_U8);
  vx_image level3 = vxGetPyramidLevel(orb, 3);
  // ORB levels come from level 0 (ceil(100 * 2^(-3/4)) = 60), not from the previous level (85, 72, 61).
  EXPECT_EQ(width_of(level3), 60u);
  EXPECT_EQ(vxReleaseImage(&level3), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&orb), VX_SUCCESS);
}

TEST_F(OpenVx, PyramidsRefuseWhatTheyCannotHold) {
  EXPECT_EQ(status_of(vxCreatePyramid(context_, 0, VX_SCALE_PYRAMID_HALF, 8, 8, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreatePyramid(context_, 2, 0.0f, 8, 8, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 6, 6, VX_DF_IMAGE_NV12)), VX_ERROR_INVALID_DIMENSION)
      << "level 1 would be 3x3 NV12";
  EXPECT_EQ(status_of(vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, 0, 8, VX_DF_IMAGE_U8)), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(vxCreatePyramid(nullptr, 2, VX_SCALE_PYRAMID_HALF, 8, 8, VX_DF_IMAGE_U8), nullptr);
  vx_size levels = 0;
  EXPECT_EQ(vxQueryPyramid(nullptr, VX_PYRAMID_LEVELS, &levels, sizeof levels), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetPyramidLevel(nullptr, 0), nullptr);
}

// "to_pyramid": every level of the output pyramid filled with in(0, 0) + level; validate sets 3 levels,
// half scale, the input's size.
vx_status VX_CALLBACK to_pyramid(vx_node, const vx_reference* parameters, vx_uint32) {
  auto in = reinterpret_cast<vx_image>(parameters[0]);
  auto out = reinterpret_cast<vx_pyramid>(parameters[1]);
  const vx_rectangle_t first{0, 0, 1, 1};
  vx_uint8 seed = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = addr.dim_y = 1;
  addr.stride_x = addr.stride_y = 1;
  if (vx_status s = vxCopyImagePatch(in, &first, 0, &addr, &seed, VX_READ_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  for (vx_uint32 level = 0; level < 3; ++level) {
    vx_image image = vxGetPyramidLevel(out, level);
    vx_pixel_value_t value{};
    value.U8 = static_cast<vx_uint8>(seed + level);
    const vx_status s = vxSetImagePixelValues(image, &value);
    vxReleaseImage(&image);
    if (s != VX_SUCCESS) return s;
  }
  return VX_SUCCESS;
}
vx_status VX_CALLBACK validate_to_pyramid(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  vx_uint32 width = 0, height = 0;
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_WIDTH, &width, sizeof width);
  vxQueryImage(reinterpret_cast<vx_image>(parameters[0]), VX_IMAGE_HEIGHT, &height, sizeof height);
  const vx_size levels = 3;
  const vx_float32 scale = VX_SCALE_PYRAMID_HALF;
  const vx_df_image format = VX_DF_IMAGE_U8;
  vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_LEVELS, &levels, sizeof levels);
  vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_SCALE, &scale, sizeof scale);
  vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_WIDTH, &width, sizeof width);
  vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_HEIGHT, &height, sizeof height);
  return vxSetMetaFormatAttribute(metas[1], VX_PYRAMID_FORMAT, &format, sizeof format);
}

TEST_F(OpenVxImageGraph, AVirtualPyramidIsSizedByValidateAndItsLevelsFeedOtherNodes) {
  vx_kernel k = add_user_kernel(context_, "org.visiongraph.test.to_pyramid", to_pyramid,
                                {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_PYRAMID}}, validate_to_pyramid);
  kernels_.push_back(k);
  vx_image in = vxCreateImage(context_, 16, 12, VX_DF_IMAGE_U8);
  vx_pixel_value_t value{};
  value.U8 = 100;
  ASSERT_EQ(vxSetImagePixelValues(in, &value), VX_SUCCESS);
  vx_pyramid pyramid = vxCreateVirtualPyramid(graph_, 3, VX_SCALE_PYRAMID_HALF, 0, 0, VX_DF_IMAGE_VIRT);
  ASSERT_EQ(status_of(pyramid), VX_SUCCESS);
  vx_image level2 = vxGetPyramidLevel(pyramid, 2);
  vx_image out = vxCreateImage(context_, 4, 3, VX_DF_IMAGE_U8);
  vx_node n = vxCreateGenericNode(graph_, k);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, reinterpret_cast<vx_reference>(in)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, reinterpret_cast<vx_reference>(pyramid)), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  add_node(kernel_, level2, out, "cpu0");  // reads a level: runs after the pyramid's writer
  ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(width_of(level2), 4u);
  EXPECT_EQ(height_of(level2), 3u);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryPyramid(pyramid, VX_PYRAMID_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(width, 16u);
  ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(pixel_u8(out, 0, 3, 2), 255 - 102);
  const vx_rectangle_t all{0, 0, 4, 3};
  vx_map_id map = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* ptr = nullptr;
  EXPECT_EQ(vxMapImagePatch(level2, &all, 0, &map, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY)
      << "a virtual pyramid's levels are virtual";
  EXPECT_EQ(vxReleaseImage(&level2), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
  for (vx_image* i : {&in, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

}  // namespace
