// The filter standard kernels: results exact to the specification, formats refused with a reason, in
// graphs and in immediate mode.
//
// Dilate3x3, Erode3x3, Median3x3, Box3x3 and Gaussian3x3 against plain reference loops (sort for the median,
// floor(sum / 9) for the box as the Khronos conformance reference has it, sum of weights / 16 floored for
// the Gaussian), on random and edge-valued images of odd and degenerate sizes, under each border mode (set
// on the node, or on the context for immediate mode); the output's valid region; regions and handles with
// strides; virtual outputs of open format and size; and the refusals.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::border_name;
using vg_openvx_test::border_of;
using vg_openvx_test::expect_pixels_eq;
using vg_openvx_test::expect_rect;
using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::random_pixels;
using vg_openvx_test::read_pixels;
using vg_openvx_test::sample;
using vg_openvx_test::status_of;
using vg_openvx_test::valid_region;
using vg_openvx_test::write_pixels;

using U8 = Pixels<vx_uint8>;

/// Only the extreme values (0, 255) and their neighbours (1, 254), in blocks and lone pixels: sums at the
/// top of the range (9 * 255 = 2295), ties for the median, all-equal neighbourhoods.
U8 edge_pixels(vx_uint32 width, vx_uint32 height, std::mt19937& rng) {
  U8 p(width, height);
  constexpr vx_uint8 kEdges[] = {0, 255, 255, 0, 1, 254};
  std::uniform_int_distribution<int> pick(0, 5);
  for (vx_uint32 y = 0; y < height; ++y) {
    for (vx_uint32 x = 0; x < width; ++x) {
      // A block of 255 in the left half of the rows 2..5, 0 elsewhere in them, random edges in the others.
      if (y >= 2 && y < 6) {
        p.at(x, y) = x < width / 2 ? 255 : 0;
      } else {
        p.at(x, y) = kEdges[pick(rng)];
      }
    }
  }
  return p;
}

// --- the reference: the specification's definitions, written plainly ----------------------------------

enum class Filter { dilate, erode, median, box, gaussian };
constexpr Filter kFilters[] = {Filter::dilate, Filter::erode, Filter::median, Filter::box, Filter::gaussian};

const char* name_of(Filter f) {
  switch (f) {
    case Filter::dilate: return "Dilate3x3";
    case Filter::erode: return "Erode3x3";
    case Filter::median: return "Median3x3";
    case Filter::box: return "Box3x3";
    case Filter::gaussian: return "Gaussian3x3";
  }
  return "?";
}

U8 reference(Filter filter, const U8& in, const vx_border_t& border) {
  U8 out{in.width, in.height, std::vector<vx_uint8>(in.values.size())};
  for (vx_uint32 y = 0; y < in.height; ++y) {
    for (vx_uint32 x = 0; x < in.width; ++x) {
      std::array<int, 9> v{};
      std::array<int, 9> weight{};
      int k = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx, ++k) {
          v[k] = sample(in, static_cast<int>(x) + dx, static_cast<int>(y) + dy, border);
          weight[k] = (dx == 0 ? 2 : 1) * (dy == 0 ? 2 : 1);  // [1 2 1; 2 4 2; 1 2 1]
        }
      }
      int result = 0;
      switch (filter) {
        case Filter::dilate: result = *std::max_element(v.begin(), v.end()); break;
        case Filter::erode: result = *std::min_element(v.begin(), v.end()); break;
        case Filter::median: {
          std::array<int, 9> sorted = v;
          std::sort(sorted.begin(), sorted.end());
          result = sorted[4];
          break;
        }
        case Filter::box: {
          int sum = 0;
          for (int a : v) sum += a;
          result = sum / 9;  // the mean, floored (sums are not negative)
          break;
        }
        case Filter::gaussian: {
          int sum = 0;
          for (int i = 0; i < 9; ++i) sum += weight[i] * v[i];
          result = sum / 16;  // floored
          break;
        }
      }
      out.at(x, y) = static_cast<vx_uint8>(result);
    }
  }
  return out;
}

vx_node filter_node(Filter f, vx_graph graph, vx_image in, vx_image out) {
  switch (f) {
    case Filter::dilate: return vxDilate3x3Node(graph, in, out);
    case Filter::erode: return vxErode3x3Node(graph, in, out);
    case Filter::median: return vxMedian3x3Node(graph, in, out);
    case Filter::box: return vxBox3x3Node(graph, in, out);
    case Filter::gaussian: return vxGaussian3x3Node(graph, in, out);
  }
  return nullptr;
}

vx_status filter_immediate(Filter f, vx_context context, vx_image in, vx_image out) {
  switch (f) {
    case Filter::dilate: return vxuDilate3x3(context, in, out);
    case Filter::erode: return vxuErode3x3(context, in, out);
    case Filter::median: return vxuMedian3x3(context, in, out);
    case Filter::box: return vxuBox3x3(context, in, out);
    case Filter::gaussian: return vxuGaussian3x3(context, in, out);
  }
  return VX_FAILURE;
}

struct Size {
  vx_uint32 width, height;
};
constexpr Size kSizes[] = {{37, 13}, {1, 1}, {2, 2}, {3, 1}, {1, 3}, {3, 3}, {4, 5}, {2, 9}, {65, 3}};

const vx_border_t kBorders[] = {border_of(VX_BORDER_UNDEFINED), border_of(VX_BORDER_REPLICATE), border_of(VX_BORDER_CONSTANT, 0),
                                border_of(VX_BORDER_CONSTANT, 255), border_of(VX_BORDER_CONSTANT, 77)};

// --- graphs -------------------------------------------------------------------------------------------

TEST_F(OpenVx, FiltersMatchTheReferenceInGraphsUnderEveryBorderMode) {
  std::mt19937 rng(20261127);
  for (const Size& size : kSizes) {
    for (int kind = 0; kind < 2; ++kind) {
      const U8 in = kind == 0 ? random_pixels<vx_uint8>(size.width, size.height, rng) : edge_pixels(size.width, size.height, rng);
      vx_image input = image_of(context_, in);
      for (const vx_border_t& border : kBorders) {
        // One graph, the five filters side by side on one input.
        vx_graph graph = vxCreateGraph(context_);
        vx_image outputs[5];
        for (std::size_t i = 0; i < 5; ++i) {
          outputs[i] = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
          vx_node node = filter_node(kFilters[i], graph, input, outputs[i]);
          ASSERT_EQ(status_of(node), VX_SUCCESS);
          ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
          EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
        }
        ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
        ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
        for (std::size_t i = 0; i < 5; ++i) {
          const std::string what = std::string(name_of(kFilters[i])) + " " + std::to_string(size.width) + "x" +
                                   std::to_string(size.height) + (kind == 0 ? " random " : " edges ") + border_name(border);
          const U8 got = read_pixels<vx_uint8>(outputs[i]);
          // UNDEFINED: the specification defines the interior only; this library's frame is REPLICATE's.
          const vx_uint32 margin = border.mode == VX_BORDER_UNDEFINED ? 1 : 0;
          expect_pixels_eq(got, reference(kFilters[i], in, border), what, margin, margin);
          if (border.mode == VX_BORDER_UNDEFINED) {
            expect_pixels_eq(got, reference(kFilters[i], in, border_of(VX_BORDER_REPLICATE)), what + " (frame as REPLICATE)");
          }
          EXPECT_EQ(vxReleaseImage(&outputs[i]), VX_SUCCESS);
        }
        EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
      }
      EXPECT_EQ(vxReleaseImage(&input), VX_SUCCESS);
    }
  }
}

TEST_F(OpenVx, FilterEdgeCasesOfTheArithmetic) {
  // All 255: the box sum is at its top (2295 / 9 = 255), the Gaussian's too (4080 / 16 = 255).
  // One 255 among zeros: box 255 / 9 = 28 (28.33 floored), Gaussian centre 4*255/16 = 63 (63.75 floored),
  // edge neighbour 2*255/16 = 31, corner 255/16 = 15; the median stays 0, dilate spreads it, erode drops it.
  U8 ones{5, 5, std::vector<vx_uint8>(25, 255)};
  U8 spot{5, 5, std::vector<vx_uint8>(25, 0)};
  spot.at(2, 2) = 255;
  vx_image full = image_of(context_, ones), single = image_of(context_, spot);
  vx_image out = vxCreateImage(context_, 5, 5, VX_DF_IMAGE_U8);
  for (Filter f : kFilters) {
    ASSERT_EQ(filter_immediate(f, context_, full, out), VX_SUCCESS);
    const U8 all = read_pixels<vx_uint8>(out);
    for (vx_uint8 v : all.values) EXPECT_EQ(v, 255) << name_of(f);
    ASSERT_EQ(filter_immediate(f, context_, single, out), VX_SUCCESS);
    const U8 got = read_pixels<vx_uint8>(out);
    switch (f) {
      case Filter::dilate:
        EXPECT_EQ(got.at(1, 1), 255);
        EXPECT_EQ(got.at(3, 3), 255);
        EXPECT_EQ(got.at(0, 0), 0);
        break;
      case Filter::erode:
      case Filter::median:
        for (vx_uint8 v : got.values) EXPECT_EQ(v, 0) << name_of(f);
        break;
      case Filter::box:
        EXPECT_EQ(got.at(2, 2), 28);
        EXPECT_EQ(got.at(1, 1), 28);
        EXPECT_EQ(got.at(0, 0), 0);
        break;
      case Filter::gaussian:
        EXPECT_EQ(got.at(2, 2), 63);
        EXPECT_EQ(got.at(2, 1), 31);
        EXPECT_EQ(got.at(1, 1), 15);
        EXPECT_EQ(got.at(0, 2), 0);
        break;
    }
  }
  for (vx_image* i : {&full, &single, &out}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, FilterBorderChangedAfterVerificationTakesEffect) {
  std::mt19937 rng(3);
  const U8 in = random_pixels<vx_uint8>(19, 7, rng);
  vx_image input = image_of(context_, in);
  vx_image output = vxCreateImage(context_, 19, 7, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxGaussian3x3Node(graph, input, output);
  const vx_border_t constant = border_of(VX_BORDER_CONSTANT, 200);
  ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &constant, sizeof constant), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(output), reference(Filter::gaussian, in, constant), "Gaussian CONSTANT(200)");
  expect_rect(valid_region(output), 0, 0, 19, 7, "CONSTANT: the whole image is valid");
  const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
  ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_pixels_eq(read_pixels<vx_uint8>(output), reference(Filter::gaussian, in, replicate), "Gaussian REPLICATE");
  const vx_border_t undefined = border_of(VX_BORDER_UNDEFINED);
  ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &undefined, sizeof undefined), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  expect_rect(valid_region(output), 1, 1, 18, 6, "UNDEFINED: one pixel less on each side");
  // A mode that does not exist is refused when set, and the node keeps its border.
  vx_border_t bogus = border_of(VX_BORDER_UNDEFINED);
  bogus.mode = VX_BORDER_REPLICATE + 40;
  EXPECT_NE(vxSetNodeAttribute(node, VX_NODE_BORDER, &bogus, sizeof bogus), VX_SUCCESS);
  vx_border_t now{};
  ASSERT_EQ(vxQueryNode(node, VX_NODE_BORDER, &now, sizeof now), VX_SUCCESS);
  EXPECT_EQ(now.mode, VX_BORDER_UNDEFINED);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* i : {&input, &output}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, FilterValidRegionsShrinkUnderUndefinedBorders) {
  std::mt19937 rng(9);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng);
  for (Filter f : kFilters) {
    vx_image input = image_of(context_, in);
    vx_image output = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
    vx_image final_output = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
    vx_graph graph = vxCreateGraph(context_);
    // Two filters in a row over a virtual image, both UNDEFINED (the default): two pixels less per side.
    vx_image middle = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
    vx_node first = filter_node(f, graph, input, middle);
    vx_node second = filter_node(f, graph, middle, output);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << name_of(f);
    expect_rect(valid_region(output), 2, 2, 35, 11, std::string(name_of(f)) + " twice, UNDEFINED");
    // REPLICATE on the second: the first's frame is invalid, so one pixel less still (inside the image).
    const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
    ASSERT_EQ(vxSetNodeAttribute(second, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    expect_rect(valid_region(output), 2, 2, 35, 11, std::string(name_of(f)) + " then REPLICATE");
    ASSERT_EQ(vxSetNodeAttribute(first, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    expect_rect(valid_region(output), 0, 0, 37, 13, std::string(name_of(f)) + " twice, REPLICATE");
    const U8 once = reference(f, in, replicate);
    expect_pixels_eq(read_pixels<vx_uint8>(output), reference(f, once, replicate), std::string(name_of(f)) + " twice over a virtual image");
    // An input whose valid region was set smaller, through a CONSTANT border: less on the inner sides only.
    const vx_rectangle_t part{0, 3, 30, 13};
    ASSERT_EQ(vxSetImageValidRectangle(input, &part), VX_SUCCESS);
    vx_graph single = vxCreateGraph(context_);
    vx_node node = filter_node(f, single, input, final_output);
    const vx_border_t constant = border_of(VX_BORDER_CONSTANT, 9);
    ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &constant, sizeof constant), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(single), VX_SUCCESS);
    expect_rect(valid_region(final_output), 0, 4, 29, 13, std::string(name_of(f)) + " CONSTANT on a partly valid input");
    for (vx_node* n : {&first, &second, &node}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
    for (vx_graph* g : {&graph, &single}) EXPECT_EQ(vxReleaseGraph(g), VX_SUCCESS);
    for (vx_image* i : {&input, &output, &final_output, &middle}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
  // Images too small to keep a pixel under UNDEFINED: an empty valid region.
  for (const Size& size : {Size{1, 1}, Size{2, 2}, Size{3, 1}}) {
    vx_image input = image_of(context_, random_pixels<vx_uint8>(size.width, size.height, rng));
    vx_image output = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
    ASSERT_EQ(vxuMedian3x3(context_, input, output), VX_SUCCESS);
    const vx_rectangle_t r = valid_region(output);
    EXPECT_TRUE(r.start_x >= r.end_x || r.start_y >= r.end_y) << size.width << "x" << size.height;
    EXPECT_LE(r.end_x, size.width);
    EXPECT_LE(r.end_y, size.height);
    for (vx_image* i : {&input, &output}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, FiltersFollowTheStridesOfRegionsAndHandles) {
  std::mt19937 rng(11);
  // The input: a region of a bigger image (its rows the parent's stride apart). Its neighbours outside the
  // region are outside the image as far as the filter is concerned.
  const U8 whole = random_pixels<vx_uint8>(50, 40, rng);
  vx_image parent = image_of(context_, whole);
  const vx_rectangle_t rect{7, 5, 30, 26};  // 23x21, odd offsets
  vx_image region = vxCreateImageFromROI(parent, &rect);
  ASSERT_EQ(status_of(region), VX_SUCCESS);
  U8 inside{23, 21, {}};
  for (vx_uint32 y = 5; y < 26; ++y) {
    for (vx_uint32 x = 7; x < 30; ++x) inside.values.push_back(whole.at(x, y));
  }
  // The output: a U8 image from a handle with gaps between pixels and padding after each row.
  const vx_uint32 w = 23, h = 21;
  std::vector<vx_uint8> memory(static_cast<std::size_t>(w * 3 + 5) * h, 0xEE);
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = w;
  addr.dim_y = h;
  addr.stride_x = 3;
  addr.stride_y = static_cast<vx_int32>(w * 3 + 5);
  void* planes[] = {memory.data()};
  vx_image handle = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &addr, planes, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(status_of(handle), VX_SUCCESS);
  const vx_border_t constant = border_of(VX_BORDER_CONSTANT, 128);
  ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &constant, sizeof constant), VX_SUCCESS);
  for (Filter f : kFilters) {
    ASSERT_EQ(filter_immediate(f, context_, region, handle), VX_SUCCESS) << name_of(f);
    expect_pixels_eq(read_pixels<vx_uint8>(handle), reference(f, inside, constant), std::string(name_of(f)) + " region -> handle");
    EXPECT_EQ(memory[1], 0xEE);
    EXPECT_EQ(memory[static_cast<std::size_t>(w * 3 + 4)], 0xEE);
    // And back: the handle (input with gaps) into a region of another image.
    const U8 from_handle = read_pixels<vx_uint8>(handle);
    vx_image target = vxCreateImage(context_, 40, 30, VX_DF_IMAGE_U8);
    const vx_rectangle_t out_rect{3, 2, 26, 23};
    vx_image target_region = vxCreateImageFromROI(target, &out_rect);
    const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = filter_node(f, graph, handle, target_region);
    ASSERT_EQ(vxSetNodeAttribute(node, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    expect_pixels_eq(read_pixels<vx_uint8>(target_region), reference(f, from_handle, replicate), std::string(name_of(f)) + " handle -> region");
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    for (vx_image* i : {&target_region, &target}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
  for (vx_image* i : {&region, &parent, &handle}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVx, FilterVirtualOutputsOfOpenFormatAndSizeBecomeU8OfTheInputSize) {
  std::mt19937 rng(13);
  const U8 in = random_pixels<vx_uint8>(37, 13, rng);
  vx_image input = image_of(context_, in);
  vx_image output = vxCreateImage(context_, 37, 13, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  // Box -> Median -> Dilate -> Erode -> Gaussian, the four images between them virtual and open.
  vx_image between[4];
  for (vx_image& v : between) v = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  vx_node nodes[5] = {vxBox3x3Node(graph, input, between[0]), vxMedian3x3Node(graph, between[0], between[1]),
                      vxDilate3x3Node(graph, between[1], between[2]), vxErode3x3Node(graph, between[2], between[3]),
                      vxGaussian3x3Node(graph, between[3], output)};
  const vx_border_t replicate = border_of(VX_BORDER_REPLICATE);
  for (vx_node n : nodes) ASSERT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &replicate, sizeof replicate), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
  for (vx_image v : between) {
    vx_uint32 width = 0, height = 0;
    vx_df_image format = VX_DF_IMAGE_VIRT;
    EXPECT_EQ(vxQueryImage(v, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(v, VX_IMAGE_HEIGHT, &height, sizeof height), VX_SUCCESS);
    EXPECT_EQ(vxQueryImage(v, VX_IMAGE_FORMAT, &format, sizeof format), VX_SUCCESS);
    EXPECT_EQ(width, 37u);
    EXPECT_EQ(height, 13u);
    EXPECT_EQ(format, static_cast<vx_df_image>(VX_DF_IMAGE_U8));
  }
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  U8 expected = in;
  for (Filter f : {Filter::box, Filter::median, Filter::dilate, Filter::erode, Filter::gaussian}) expected = reference(f, expected, replicate);
  expect_pixels_eq(read_pixels<vx_uint8>(output), expected, "chain over virtual images");
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image& v : between) EXPECT_EQ(vxReleaseImage(&v), VX_SUCCESS);
  for (vx_image* i : {&input, &output}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- immediate mode -----------------------------------------------------------------------------------

TEST_F(OpenVx, FiltersInImmediateModeTakeTheContextBorder) {
  std::mt19937 rng(17);
  for (const Size& size : {Size{37, 13}, Size{1, 1}, Size{2, 2}, Size{3, 1}}) {
    const U8 in = random_pixels<vx_uint8>(size.width, size.height, rng);
    vx_image input = image_of(context_, in);
    vx_image output = vxCreateImage(context_, size.width, size.height, VX_DF_IMAGE_U8);
    for (const vx_border_t& border : kBorders) {
      ASSERT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
      for (Filter f : kFilters) {
        const std::string what = std::string("vxu ") + name_of(f) + " " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                                 " " + border_name(border);
        ASSERT_EQ(filter_immediate(f, context_, input, output), VX_SUCCESS) << what;
        const vx_uint32 margin = border.mode == VX_BORDER_UNDEFINED ? 1 : 0;
        expect_pixels_eq(read_pixels<vx_uint8>(output), reference(f, in, border), what, margin, margin);
      }
    }
    for (vx_image* i : {&input, &output}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
  }
}

TEST_F(OpenVx, FiltersInImmediateModeRefuseWhatTheNodeRefuses) {
  vx_image u8 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
  vx_image s16 = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
  vx_image small = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U8);
  for (Filter f : kFilters) {
    EXPECT_EQ(filter_immediate(f, context_, s16, u8), VX_ERROR_INVALID_FORMAT) << name_of(f);
    EXPECT_EQ(filter_immediate(f, context_, u8, s16), VX_ERROR_INVALID_FORMAT) << name_of(f);
    EXPECT_EQ(filter_immediate(f, context_, u8, small), VX_ERROR_INVALID_PARAMETERS) << name_of(f);
  }
  for (vx_image* i : {&u8, &s16, &small}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

// --- refusals -----------------------------------------------------------------------------------------

class OpenVxFilterRefusals : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    graph_ = vxCreateGraph(context_);
    u8_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    u8b_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_U8);
    s16_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_S16);
    rgb_ = vxCreateImage(context_, 16, 8, VX_DF_IMAGE_RGB);
    small_ = vxCreateImage(context_, 15, 8, VX_DF_IMAGE_U8);
  }
  void TearDown() override {
    for (vx_reference r : {ref(graph_), ref(u8_), ref(u8b_), ref(s16_), ref(rgb_), ref(small_)}) {
      EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    }
    OpenVx::TearDown();
  }
  /// Verifies the graph with the one node @p node, expecting @p status and @p logged_part in the log; the
  /// node goes afterwards.
  void expect_refused(vx_node node, vx_status status, const std::string& logged_part) {
    ASSERT_EQ(status_of(node), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph_), status) << logged_part;
    EXPECT_TRUE(logged(logged_part)) << "no log line has '" << logged_part << "'; last: "
                                     << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
  }

  vx_graph graph_ = nullptr;
  vx_image u8_ = nullptr, u8b_ = nullptr, s16_ = nullptr, rgb_ = nullptr, small_ = nullptr;
};

constexpr const char* kKernelNames[] = {"org.khronos.openvx.dilate_3x3", "org.khronos.openvx.erode_3x3", "org.khronos.openvx.median_3x3",
                                        "org.khronos.openvx.box_3x3", "org.khronos.openvx.gaussian_3x3"};

TEST_F(OpenVxFilterRefusals, WrongFormatsAreInvalidFormat) {
  for (std::size_t i = 0; i < 5; ++i) {
    const std::string kernel = kKernelNames[i];
    expect_refused(filter_node(kFilters[i], graph_, s16_, u8_), VX_ERROR_INVALID_FORMAT, kernel + ": input has format S16");
    expect_refused(filter_node(kFilters[i], graph_, rgb_, u8_), VX_ERROR_INVALID_FORMAT, kernel + ": input has format RGB");
    expect_refused(filter_node(kFilters[i], graph_, u8_, s16_), VX_ERROR_INVALID_FORMAT, kernel + ": output has format S16");
  }
}

TEST_F(OpenVxFilterRefusals, SizeMismatchesAreInvalidParameters) {
  for (std::size_t i = 0; i < 5; ++i) {
    const std::string kernel = kKernelNames[i];
    expect_refused(filter_node(kFilters[i], graph_, u8_, small_), VX_ERROR_INVALID_PARAMETERS,
                   kernel + ": output is 15x8 but the inputs are 16x8");
    vx_image v = vxCreateVirtualImage(graph_, 4, 4, VX_DF_IMAGE_VIRT);
    expect_refused(filter_node(kFilters[i], graph_, u8_, v), VX_ERROR_INVALID_PARAMETERS, kernel + ": output is 4x4");
    EXPECT_EQ(vxReleaseImage(&v), VX_SUCCESS);
  }
}

TEST_F(OpenVxFilterRefusals, AUniformOutputAndAnUnproducedVirtualInputAreRefused) {
  vx_pixel_value_t value{};
  value.U8 = 42;
  vx_image uniform = vxCreateUniformImage(context_, 16, 8, VX_DF_IMAGE_U8, &value);
  vx_image nobody = vxCreateVirtualImage(graph_, 0, 0, VX_DF_IMAGE_VIRT);
  for (std::size_t i = 0; i < 5; ++i) {
    const std::string kernel = kKernelNames[i];
    expect_refused(filter_node(kFilters[i], graph_, u8_, uniform), VX_ERROR_INVALID_PARAMETERS, kernel + ": output is a uniform image");
    expect_refused(filter_node(kFilters[i], graph_, nobody, u8_), VX_ERROR_INVALID_PARAMETERS,
                   kernel + ": input is a virtual image no node before this one produces");
    // A uniform input is fine: every filter of a constant image is that constant, under every border mode
    // that brings no other value in.
    vx_node node = filter_node(kFilters[i], graph_, uniform, u8b_);
    ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS) << kernel;
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
    const U8 got = read_pixels<vx_uint8>(u8b_);
    for (vx_uint8 v : got.values) EXPECT_EQ(v, 42) << kernel;
  }
  for (vx_image* i : {&uniform, &nobody}) EXPECT_EQ(vxReleaseImage(i), VX_SUCCESS);
}

TEST_F(OpenVxFilterRefusals, TheFiltersAreImplementedWithTheirDeclaredParameters) {
  for (std::size_t i = 0; i < 5; ++i) {
    vx_kernel kernel = vxGetKernelByName(context_, kKernelNames[i]);
    ASSERT_EQ(status_of(kernel), VX_SUCCESS) << kKernelNames[i];
    vx_uint32 count = 0;
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_PARAMETERS, &count, sizeof count), VX_SUCCESS);
    EXPECT_EQ(count, 2u) << kKernelNames[i];
    // A generic node runs like the creator's.
    vx_node node = vxCreateGenericNode(graph_, kernel);
    ASSERT_EQ(status_of(node), VX_SUCCESS) << kKernelNames[i];
    EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(u8_)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(node, 1, ref(u8b_)), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS) << kKernelNames[i];
    EXPECT_EQ(vxProcessGraph(graph_), VX_SUCCESS) << kKernelNames[i];
    EXPECT_EQ(vxRemoveNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  }
}

}  // namespace
