// OpenVX VX_DF_IMAGE_U1 images (OpenVX 1.3): one bit per pixel, eight pixels to a byte with pixel x in
// bit x % 8 (least significant bit first), rows of whole bytes, patch addressing with stride_x 0 and
// stride_x_bits 1. Patches keep the pixels' bit offsets when they do not start on a byte boundary;
// regions must start on one. Written from the specification's image chapter and its U1 notes.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::status_of;

/// Pixel (x, y) of a mapped or user U1 patch: the byte vxFormatImagePatchAddress2d gives, bit x % 8.
int bit_at(void* base, const vx_imagepatch_addressing_t& addr, vx_uint32 x, vx_uint32 y) {
  const auto* byte = static_cast<const vx_uint8*>(vxFormatImagePatchAddress2d(base, x, y, &addr));
  return byte == nullptr ? -1 : (byte[0] >> (x % 8)) & 1;
}

void set_bit(vx_uint8* row, vx_uint32 x, int value) {
  const auto mask = static_cast<vx_uint8>(1u << (x % 8));
  row[x / 8] = static_cast<vx_uint8>(value != 0 ? (row[x / 8] | mask) : (row[x / 8] & ~mask));
}

/// The addressing of a packed U1 buffer of @p width x @p height with rows @p stride_y bytes apart.
vx_imagepatch_addressing_t u1_addressing(vx_uint32 width, vx_uint32 height, vx_int32 stride_y) {
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = width;
  addr.dim_y = height;
  addr.stride_x = 0;
  addr.stride_x_bits = 1;
  addr.stride_y = stride_y;
  addr.scale_x = addr.scale_y = VX_SCALE_UNITY;
  addr.step_x = addr.step_y = 1;
  return addr;
}

/// Every pixel of @p image read through a full copy (row y, pixel x at [y][x]).
std::vector<std::vector<int>> pixels_of(vx_image image) {
  vx_uint32 w = 0, h = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &w, sizeof w), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &h, sizeof h), VX_SUCCESS);
  const vx_int32 stride = static_cast<vx_int32>((w + 7) / 8);
  std::vector<vx_uint8> buffer(static_cast<std::size_t>(stride) * h, 0);
  vx_imagepatch_addressing_t addr = u1_addressing(w, h, stride);
  const vx_rectangle_t all{0, 0, w, h};
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &addr, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  std::vector<std::vector<int>> out(h, std::vector<int>(w, 0));
  for (vx_uint32 y = 0; y < h; ++y) {
    for (vx_uint32 x = 0; x < w; ++x) out[y][x] = (buffer[y * stride + x / 8] >> (x % 8)) & 1;
  }
  return out;
}

/// A checkerboard-like pattern that differs between neighbouring pixels and rows.
int pattern(vx_uint32 x, vx_uint32 y) { return static_cast<int>((x * 7 + y * 3) % 5 < 2); }

TEST_F(OpenVx, U1ImageIsCreatedWithOnePlaneOfBits) {
  EXPECT_EQ(VX_DF_IMAGE_U1, VX_DF_IMAGE('U', '0', '0', '1'));
  vx_image image = vxCreateImage(context_, 13, 5, VX_DF_IMAGE_U1);  // a width that is not a multiple of 8
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  vx_df_image format = 0;
  vx_size planes = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_PLANES, &planes, sizeof planes), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U1));
  EXPECT_EQ(planes, 1u);
  // A new image reads as all zeros.
  for (const auto& row : pixels_of(image)) {
    for (int p : row) EXPECT_EQ(p, 0);
  }
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1MapGivesBitAddressingAndWholeByteRows) {
  vx_image image = vxCreateImage(context_, 21, 4, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  const vx_rectangle_t all{0, 0, 21, 4};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* base = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &all, 0, &id, &addr, &base, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, VX_NOGAP_X), VX_SUCCESS);
  EXPECT_EQ(addr.stride_x, 0);
  EXPECT_EQ(addr.stride_x_bits, 1u);
  EXPECT_GE(addr.stride_y, 3) << "rows are whole bytes: ceil(21 / 8)";
  EXPECT_EQ(addr.dim_x, 21u);
  EXPECT_EQ(addr.dim_y, 4u);
  EXPECT_EQ(addr.step_x, 1u);
  EXPECT_EQ(addr.scale_x, VX_SCALE_UNITY);
  for (vx_uint32 y = 0; y < 4; ++y) {
    auto* row = static_cast<vx_uint8*>(base) + static_cast<std::ptrdiff_t>(y) * addr.stride_y;
    for (vx_uint32 x = 0; x < 21; ++x) set_bit(row, x, pattern(x, y));
  }
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  const auto got = pixels_of(image);
  for (vx_uint32 y = 0; y < 4; ++y) {
    for (vx_uint32 x = 0; x < 21; ++x) EXPECT_EQ(got[y][x], pattern(x, y)) << x << "," << y;
  }
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1PatchAddressIsTheByteHoldingThePixel) {
  vx_image image = vxCreateImage(context_, 24, 3, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  const vx_rectangle_t all{0, 0, 24, 3};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* base = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &all, 0, &id, &addr, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  auto* bytes = static_cast<vx_uint8*>(base);
  EXPECT_EQ(vxFormatImagePatchAddress2d(base, 0, 0, &addr), bytes);
  EXPECT_EQ(vxFormatImagePatchAddress2d(base, 7, 0, &addr), bytes);
  EXPECT_EQ(vxFormatImagePatchAddress2d(base, 8, 0, &addr), bytes + 1);
  EXPECT_EQ(vxFormatImagePatchAddress2d(base, 19, 2, &addr), bytes + 2 * addr.stride_y + 2);
  EXPECT_EQ(vxFormatImagePatchAddress2d(base, 24, 0, &addr), nullptr) << "outside the patch";
  // 1d indexes run row by row over dim_x pixels.
  EXPECT_EQ(vxFormatImagePatchAddress1d(base, 8, &addr), bytes + 1);
  EXPECT_EQ(vxFormatImagePatchAddress1d(base, 24 + 16, &addr), bytes + addr.stride_y + 2);
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1MapNotOnAByteBoundaryKeepsBitOffsets) {
  vx_image image = vxCreateImage(context_, 32, 4, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  // Pixel (x, y) of the image gets pattern(x, y).
  {
    std::vector<vx_uint8> buffer(4 * 4, 0);
    for (vx_uint32 y = 0; y < 4; ++y) {
      for (vx_uint32 x = 0; x < 32; ++x) set_bit(&buffer[y * 4], x, pattern(x, y));
    }
    vx_imagepatch_addressing_t addr = u1_addressing(32, 4, 4);
    const vx_rectangle_t all{0, 0, 32, 4};
    ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &addr, buffer.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  const vx_rectangle_t rect{11, 1, 27, 4};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  void* base = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &rect, 0, &id, &addr, &base, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  // Widened to the preceding byte boundary (8): patch x is image x - 8, in bit x % 8 as in the image.
  EXPECT_EQ(addr.dim_x, 27u - 8u);
  EXPECT_EQ(addr.dim_y, 3u);
  EXPECT_EQ(addr.stride_x, 0);
  EXPECT_EQ(addr.stride_x_bits, 1u);
  for (vx_uint32 y = 0; y < 3; ++y) {
    for (vx_uint32 x = 3; x < addr.dim_x; ++x) EXPECT_EQ(bit_at(base, addr, x, y), pattern(x + 8, y + 1)) << x << "," << y;
  }
  // Writing image pixel 11 of row 1 through the patch (patch x 3).
  auto* byte = static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(base, 3, 0, &addr));
  ASSERT_NE(byte, nullptr);
  byte[0] = static_cast<vx_uint8>(byte[0] ^ (1u << 3));
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  EXPECT_EQ(pixels_of(image)[1][11], 1 - pattern(11, 1));
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1CopyNotOnAByteBoundaryWritesOnlyTheRectangle) {
  vx_image image = vxCreateImage(context_, 30, 3, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  vx_pixel_value_t one{};
  one.U1 = vx_true_e;
  ASSERT_EQ(vxSetImagePixelValues(image, &one), VX_SUCCESS);
  // Zeros into x in [3, 21), rows [1, 3): the user buffer keeps the bit offsets (pixel 3 in bit 3 of byte 0).
  const vx_rectangle_t rect{3, 1, 21, 3};
  std::vector<vx_uint8> zeros(2 * 3, 0);
  vx_imagepatch_addressing_t addr = u1_addressing(18, 2, 3);
  EXPECT_EQ(vxCopyImagePatch(image, &rect, 0, &addr, zeros.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const auto got = pixels_of(image);
  for (vx_uint32 y = 0; y < 3; ++y) {
    for (vx_uint32 x = 0; x < 30; ++x) {
      const bool inside = y >= 1 && x >= 3 && x < 21;
      EXPECT_EQ(got[y][x], inside ? 0 : 1) << x << "," << y;
    }
  }
  // A patch inside one byte, given with the widened dim_x (counted from the byte boundary).
  const vx_rectangle_t small{9, 0, 12, 1};
  vx_uint8 ones = 0xFF;
  vx_imagepatch_addressing_t small_addr = u1_addressing(12 - 8, 1, 1);
  EXPECT_EQ(vxCopyImagePatch(image, &small, 0, &small_addr, &ones, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_image zero_image = vxCreateImage(context_, 30, 3, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(zero_image), VX_SUCCESS);
  EXPECT_EQ(vxCopyImagePatch(zero_image, &small, 0, &small_addr, &ones, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const auto z = pixels_of(zero_image);
  for (vx_uint32 x = 0; x < 16; ++x) EXPECT_EQ(z[0][x], x >= 9 && x < 12 ? 1 : 0) << x;
  EXPECT_EQ(vxReleaseImage(&zero_image), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1CopyReadKeepsBitOffsets) {
  vx_image image = vxCreateImage(context_, 40, 2, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  std::vector<vx_uint8> source(5 * 2, 0);
  for (vx_uint32 y = 0; y < 2; ++y) {
    for (vx_uint32 x = 0; x < 40; ++x) set_bit(&source[y * 5], x, pattern(x, y));
  }
  vx_imagepatch_addressing_t all_addr = u1_addressing(40, 2, 5);
  const vx_rectangle_t all{0, 0, 40, 2};
  ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &all_addr, source.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_rectangle_t rect{13, 0, 38, 2};
  std::vector<vx_uint8> got(4 * 2, 0);
  vx_imagepatch_addressing_t addr = u1_addressing(25, 2, 4);  // the rectangle's width; bytes from pixel 8 on
  ASSERT_EQ(vxCopyImagePatch(image, &rect, 0, &addr, got.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (vx_uint32 y = 0; y < 2; ++y) {
    for (vx_uint32 x = 13; x < 38; ++x) {
      const vx_uint32 bit = x - 8;  // offset from the preceding byte boundary
      EXPECT_EQ((got[y * 4 + bit / 8] >> (bit % 8)) & 1, pattern(x, y)) << x << "," << y;
    }
  }
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1CopyRefusesAddressingThatIsNotBits) {
  vx_image image = vxCreateImage(context_, 16, 2, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  const vx_rectangle_t all{0, 0, 16, 2};
  vx_uint8 buffer[8] = {};
  vx_imagepatch_addressing_t bytes = u1_addressing(16, 2, 16);
  bytes.stride_x = 1;
  bytes.stride_x_bits = 0;
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &bytes, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_imagepatch_addressing_t short_rows = u1_addressing(16, 2, 1);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &short_rows, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_imagepatch_addressing_t wrong_width = u1_addressing(15, 2, 2);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &wrong_width, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1ImageFromHandleUsesTheApplicationsBits) {
  constexpr vx_int32 kStride = 4;  // 20 pixels need 3 bytes; one byte of row padding
  std::vector<vx_uint8> memory(kStride * 3, 0);
  for (vx_uint32 y = 0; y < 3; ++y) {
    for (vx_uint32 x = 0; x < 20; ++x) set_bit(&memory[y * kStride], x, pattern(x, y));
  }
  vx_imagepatch_addressing_t addr = u1_addressing(20, 3, kStride);
  void* ptrs[] = {memory.data()};
  vx_image image = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U1, &addr, ptrs, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  const auto got = pixels_of(image);
  for (vx_uint32 y = 0; y < 3; ++y) {
    for (vx_uint32 x = 0; x < 20; ++x) EXPECT_EQ(got[y][x], pattern(x, y)) << x << "," << y;
  }
  // The map hands out the application's memory with its row stride.
  const vx_rectangle_t all{0, 0, 20, 3};
  vx_map_id id = 0;
  vx_imagepatch_addressing_t map_addr = VX_IMAGEPATCH_ADDR_INIT;
  void* base = nullptr;
  ASSERT_EQ(vxMapImagePatch(image, &all, 0, &id, &map_addr, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(base, memory.data());
  EXPECT_EQ(map_addr.stride_y, kStride);
  EXPECT_EQ(vxUnmapImagePatch(image, id), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);

  vx_imagepatch_addressing_t byte_pixels = addr;
  byte_pixels.stride_x = 1;
  byte_pixels.stride_x_bits = 0;
  EXPECT_EQ(status_of(vxCreateImageFromHandle(context_, VX_DF_IMAGE_U1, &byte_pixels, ptrs, VX_MEMORY_TYPE_HOST)),
            VX_ERROR_INVALID_PARAMETERS);
  vx_imagepatch_addressing_t short_rows = u1_addressing(20, 3, 2);
  EXPECT_EQ(status_of(vxCreateImageFromHandle(context_, VX_DF_IMAGE_U1, &short_rows, ptrs, VX_MEMORY_TYPE_HOST)),
            VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(OpenVx, U1SwapImageHandleChangesTheBits) {
  std::vector<vx_uint8> first(2 * 2, 0x00), second(2 * 2, 0xFF);
  vx_imagepatch_addressing_t addr = u1_addressing(16, 2, 2);
  void* ptrs[] = {first.data()};
  vx_image image = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U1, &addr, ptrs, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  EXPECT_EQ(pixels_of(image)[1][9], 0);
  void* next[] = {second.data()};
  void* previous[] = {nullptr};
  EXPECT_EQ(vxSwapImageHandle(image, next, previous, 1), VX_SUCCESS);
  EXPECT_EQ(previous[0], first.data());
  EXPECT_EQ(pixels_of(image)[1][9], 1);
  EXPECT_EQ(vxSwapImageHandle(image, nullptr, previous, 1), VX_SUCCESS);
  EXPECT_EQ(previous[0], second.data());
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1RegionStartsOnAByteBoundaryAndSharesTheBits) {
  vx_image image = vxCreateImage(context_, 32, 4, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  const vx_rectangle_t unaligned{4, 0, 20, 4};
  EXPECT_EQ(status_of(vxCreateImageFromROI(image, &unaligned)), VX_ERROR_INVALID_PARAMETERS);
  const vx_rectangle_t rect{8, 1, 13, 3};  // 5 pixels wide: its last byte is shared with the parent's pixels 13..15
  vx_image roi = vxCreateImageFromROI(image, &rect);
  ASSERT_EQ(status_of(roi), VX_SUCCESS);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(roi, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(width, 5u);
  vx_pixel_value_t one{};
  one.U1 = vx_true_e;
  EXPECT_EQ(vxSetImagePixelValues(roi, &one), VX_SUCCESS);
  const auto got = pixels_of(image);
  for (vx_uint32 y = 0; y < 4; ++y) {
    for (vx_uint32 x = 0; x < 32; ++x) {
      const bool inside = y >= 1 && y < 3 && x >= 8 && x < 13;
      EXPECT_EQ(got[y][x], inside ? 1 : 0) << x << "," << y;
    }
  }
  // A region of the region, again on a byte boundary of the root.
  const vx_rectangle_t whole_roi{0, 0, 5, 2};
  vx_image inner = vxCreateImageFromROI(roi, &whole_roi);
  ASSERT_EQ(status_of(inner), VX_SUCCESS);
  EXPECT_EQ(pixels_of(inner)[1][4], 1);
  EXPECT_EQ(vxReleaseImage(&inner), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&roi), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1UniformImageHoldsItsValue) {
  for (const vx_bool value : {vx_true_e, vx_false_e}) {
    vx_pixel_value_t v{};
    v.U1 = value;
    vx_image image = vxCreateUniformImage(context_, 19, 3, VX_DF_IMAGE_U1, &v);
    ASSERT_EQ(status_of(image), VX_SUCCESS);
    for (const auto& row : pixels_of(image)) {
      for (int p : row) EXPECT_EQ(p, value == vx_true_e ? 1 : 0);
    }
    vx_bool uniform = vx_false_e;
    vx_pixel_value_t got{};
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_IS_UNIFORM, &uniform, sizeof uniform), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(image, VX_IMAGE_UNIFORM_VALUE, &got, sizeof got), VX_SUCCESS);
    EXPECT_EQ(uniform, vx_true_e);
    EXPECT_EQ(got.U1, value);
    // Uniform images are read-only.
    const vx_rectangle_t all{0, 0, 19, 3};
    vx_map_id id = 0;
    vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
    void* base = nullptr;
    EXPECT_NE(vxMapImagePatch(image, &all, 0, &id, &addr, &base, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  }
}

TEST_F(OpenVx, U1SetImagePixelValuesSetsAndClearsEveryPixel) {
  vx_image image = vxCreateImage(context_, 11, 2, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(image), VX_SUCCESS);
  vx_pixel_value_t v{};
  v.U1 = vx_true_e;
  EXPECT_EQ(vxSetImagePixelValues(image, &v), VX_SUCCESS);
  for (const auto& row : pixels_of(image)) {
    for (int p : row) EXPECT_EQ(p, 1);
  }
  v.U1 = vx_false_e;
  EXPECT_EQ(vxSetImagePixelValues(image, &v), VX_SUCCESS);
  for (const auto& row : pixels_of(image)) {
    for (int p : row) EXPECT_EQ(p, 0);
  }
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVx, U1VirtualImagesAreCreated) {
  vx_graph graph = vxCreateGraph(context_);
  ASSERT_EQ(status_of(graph), VX_SUCCESS);
  vx_image sized = vxCreateVirtualImage(graph, 16, 4, VX_DF_IMAGE_U1);
  EXPECT_EQ(status_of(sized), VX_SUCCESS);
  vx_image open_size = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_U1);
  EXPECT_EQ(status_of(open_size), VX_SUCCESS);
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(open_size, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
  EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U1));
  EXPECT_EQ(vxReleaseImage(&sized), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&open_size), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

}  // namespace

namespace {

TEST_F(OpenVx, U1CopyNodeCopiesTheBitsIntoARegion) {
  vx_image input = vxCreateImage(context_, 13, 2, VX_DF_IMAGE_U1);
  vx_image parent = vxCreateImage(context_, 32, 2, VX_DF_IMAGE_U1);
  ASSERT_EQ(status_of(input), VX_SUCCESS);
  ASSERT_EQ(status_of(parent), VX_SUCCESS);
  vx_pixel_value_t one{};
  one.U1 = vx_true_e;
  ASSERT_EQ(vxSetImagePixelValues(input, &one), VX_SUCCESS);
  const vx_rectangle_t rect{8, 0, 21, 2};  // ends inside a byte: pixels 21..23 are the parent's only
  vx_image output = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(output), VX_SUCCESS);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxCopyNode(graph, reinterpret_cast<vx_reference>(input), reinterpret_cast<vx_reference>(output));
  ASSERT_EQ(status_of(node), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  const auto got = pixels_of(parent);
  for (vx_uint32 y = 0; y < 2; ++y) {
    for (vx_uint32 x = 0; x < 32; ++x) EXPECT_EQ(got[y][x], x >= 8 && x < 21 ? 1 : 0) << x << "," << y;
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&output), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&parent), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
}

}  // namespace
