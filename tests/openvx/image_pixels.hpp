// Test-side helpers for the standard-kernel suites: pixels on the host, copied into and out of images,
// compared pixel by pixel; one-node graphs; border modes and the reference sampling under them.
#pragma once

#include <VX/vx.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "openvx_fixture.hpp"

namespace vg_openvx_test {

/// Pixels of one type on the host, row after row: what is written into an image and what a reference loop
/// computes.
template <typename T>
struct Pixels {
  vx_uint32 width = 0, height = 0;
  std::vector<T> values;

  Pixels() = default;
  /// width x height zeros.
  Pixels(vx_uint32 w, vx_uint32 h) : width(w), height(h), values(static_cast<std::size_t>(w) * h) {}
  /// width x height pixels taken from @p v (row after row).
  Pixels(vx_uint32 w, vx_uint32 h, std::vector<T> v) : width(w), height(h), values(std::move(v)) {}

  T& at(vx_uint32 x, vx_uint32 y) { return values[static_cast<std::size_t>(y) * width + x]; }
  T at(vx_uint32 x, vx_uint32 y) const { return values[static_cast<std::size_t>(y) * width + x]; }
};

/// The image format holding pixels of T: U8 for 1 byte, S16 for 2, U32 for 4.
template <typename T>
vx_df_image format_of() {
  if constexpr (sizeof(T) == 1) return VX_DF_IMAGE_U8;
  if constexpr (sizeof(T) == 2) return VX_DF_IMAGE_S16;
  return VX_DF_IMAGE_U32;
}

/// Pixels drawn uniformly from [low, high] (by default the whole range of T).
template <typename T>
Pixels<T> random_pixels(vx_uint32 width, vx_uint32 height, std::mt19937& rng, int low = std::numeric_limits<T>::min(),
                        int high = std::numeric_limits<T>::max()) {
  Pixels<T> p(width, height);
  std::uniform_int_distribution<int> dist(low, high);
  for (T& v : p.values) v = static_cast<T>(dist(rng));
  return p;
}

/// The addressing of width x height pixels of T packed row after row (no gaps).
template <typename T>
vx_imagepatch_addressing_t packed_addressing(vx_uint32 width, vx_uint32 height) {
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = width;
  addr.dim_y = height;
  addr.stride_x = sizeof(T);
  addr.stride_y = static_cast<vx_int32>(width * sizeof(T));
  return addr;
}

/// Copies @p p into the rectangle (0, 0, p.width, p.height) of plane 0 of @p image.
template <typename T>
void write_pixels(vx_image image, const Pixels<T>& p) {
  const vx_rectangle_t all{0, 0, p.width, p.height};
  vx_imagepatch_addressing_t addr = packed_addressing<T>(p.width, p.height);
  ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &addr, const_cast<T*>(p.values.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

/// Every pixel of plane 0 of @p image, read as T.
template <typename T>
Pixels<T> read_pixels(vx_image image) {
  vx_uint32 width = 0, height = 0;
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
  Pixels<T> p(width, height);
  const vx_rectangle_t all{0, 0, width, height};
  vx_imagepatch_addressing_t addr = packed_addressing<T>(width, height);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &addr, p.values.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return p;
}

/// A new image of format_of<T>() holding @p p; the caller releases it.
template <typename T>
vx_image image_of(vx_context context, const Pixels<T>& p) {
  vx_image image = vxCreateImage(context, p.width, p.height, format_of<T>());
  EXPECT_EQ(status_of(image), VX_SUCCESS);
  write_pixels(image, p);
  return image;
}

/// Compares every pixel, or with @p margin_x / @p margin_y only those at least that far from the edge;
/// reports the first five differences and their count, labelled @p what.
template <typename T>
void expect_pixels_eq(const Pixels<T>& actual, const Pixels<T>& expected, const std::string& what, vx_uint32 margin_x = 0,
                      vx_uint32 margin_y = 0) {
  ASSERT_EQ(actual.width, expected.width) << what;
  ASSERT_EQ(actual.height, expected.height) << what;
  std::size_t wrong = 0;
  for (vx_uint32 y = margin_y; y + margin_y < actual.height; ++y) {
    for (vx_uint32 x = margin_x; x + margin_x < actual.width; ++x) {
      if (actual.at(x, y) != expected.at(x, y) && ++wrong <= 5) {
        ADD_FAILURE() << what << ": pixel (" << x << ", " << y << ") is " << +actual.at(x, y) << ", expected " << +expected.at(x, y);
      }
    }
  }
  EXPECT_EQ(wrong, 0u) << what;
}

/// Verifies and runs a graph with one node, made by @p make; the node and graph go afterwards.
template <typename Make>
vx_status run_node(vx_context context, Make make) {
  vx_graph graph = vxCreateGraph(context);
  vx_node node = make(graph);
  vx_status status = status_of(node);
  if (status == VX_SUCCESS) status = vxProcessGraph(graph);
  if (status_of(node) == VX_SUCCESS) {
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  }
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  return status;
}

// --- border modes and valid regions --------------------------------------------------------------------

/// A border of @p mode with @p constant as its U8 value.
inline vx_border_t border_of(vx_enum mode, vx_uint8 constant = 0) {
  vx_border_t b{};
  b.mode = mode;
  b.constant_value.U8 = constant;
  return b;
}

/// "UNDEFINED", "REPLICATE" or "CONSTANT(value)", for messages.
inline std::string border_name(const vx_border_t& b) {
  if (b.mode == VX_BORDER_CONSTANT) return "CONSTANT(" + std::to_string(b.constant_value.U8) + ")";
  return b.mode == VX_BORDER_REPLICATE ? "REPLICATE" : "UNDEFINED";
}

/// The input at (x, y), which may lie outside: the constant, or the nearest edge pixel (REPLICATE; also
/// UNDEFINED, whose frame this library computes as REPLICATE does).
inline int sample(const Pixels<vx_uint8>& in, int x, int y, const vx_border_t& border) {
  const int w = static_cast<int>(in.width), h = static_cast<int>(in.height);
  if (x < 0 || y < 0 || x >= w || y >= h) {
    if (border.mode == VX_BORDER_CONSTANT) return border.constant_value.U8;
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
  }
  return in.at(static_cast<vx_uint32>(x), static_cast<vx_uint32>(y));
}

/// The valid region of @p image.
inline vx_rectangle_t valid_region(vx_image image) {
  vx_rectangle_t r{};
  EXPECT_EQ(vxGetValidRegionImage(image, &r), VX_SUCCESS);
  return r;
}

/// Expects @p r to be (sx, sy) - (ex, ey).
inline void expect_rect(const vx_rectangle_t& r, vx_uint32 sx, vx_uint32 sy, vx_uint32 ex, vx_uint32 ey, const std::string& what) {
  EXPECT_EQ(r.start_x, sx) << what;
  EXPECT_EQ(r.start_y, sy) << what;
  EXPECT_EQ(r.end_x, ex) << what;
  EXPECT_EQ(r.end_y, ey) << what;
}

}  // namespace vg_openvx_test
