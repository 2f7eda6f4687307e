// Chains of 3x3 filters run band by band (framework/openvx/src/fusion.hpp): a graph verified with fusion
// (VG_OPENVX_FUSION unset: bands, a large frame split over two targets; "1": bands on one target) gives
// the same bytes and valid regions as the same graph run one node at a time ("0"), for chains of two to
// five filters, every border mode, sizes from 1x1 up, small bands (VG_OPENVX_FUSION_ROWS), and the links
// that must not be fused (two readers, an image the application reads, a node callback).
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

enum class Op { gaussian, box, median, erode, dilate, invert };

vx_node add_node(vx_graph graph, Op op, vx_image in, vx_image out) {
  switch (op) {
    case Op::gaussian: return vxGaussian3x3Node(graph, in, out);
    case Op::box: return vxBox3x3Node(graph, in, out);
    case Op::median: return vxMedian3x3Node(graph, in, out);
    case Op::erode: return vxErode3x3Node(graph, in, out);
    case Op::dilate: return vxDilate3x3Node(graph, in, out);
    case Op::invert: return vxNotNode(graph, in, out);  // not a 3x3 filter: ends a chain
  }
  return nullptr;
}

std::vector<vx_uint8> random_pixels(vx_uint32 w, vx_uint32 h, unsigned seed) {
  std::vector<vx_uint8> pixels(std::size_t{w} * h);
  std::mt19937 rng(seed);
  for (vx_uint8& p : pixels) p = static_cast<vx_uint8>(rng() % 7 == 0 ? (rng() & 1) * 255 : rng());  // some runs of extremes
  return pixels;
}

void write(vx_image image, vx_uint32 w, vx_uint32 h, const std::vector<vx_uint8>& pixels) {
  const vx_rectangle_t all{0, 0, w, h};
  vx_imagepatch_addressing_t a = VX_IMAGEPATCH_ADDR_INIT;
  a.dim_x = w;
  a.dim_y = h;
  a.stride_x = 1;
  a.stride_y = static_cast<vx_int32>(w);
  ASSERT_EQ(vxCopyImagePatch(image, &all, 0, &a, const_cast<vx_uint8*>(pixels.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

/// The image's pixels, and its valid region appended as four values.
std::vector<vx_uint32> read(vx_image image, vx_uint32 w, vx_uint32 h) {
  std::vector<vx_uint8> pixels(std::size_t{w} * h);
  const vx_rectangle_t all{0, 0, w, h};
  vx_imagepatch_addressing_t a = VX_IMAGEPATCH_ADDR_INIT;
  a.dim_x = w;
  a.dim_y = h;
  a.stride_x = 1;
  a.stride_y = static_cast<vx_int32>(w);
  EXPECT_EQ(vxCopyImagePatch(image, &all, 0, &a, pixels.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  std::vector<vx_uint32> out(pixels.begin(), pixels.end());
  vx_rectangle_t valid{};
  EXPECT_EQ(vxGetValidRegionImage(image, &valid), VX_SUCCESS);
  out.insert(out.end(), {valid.start_x, valid.start_y, valid.end_x, valid.end_y});
  return out;
}

/// One node of a test graph: its operation and border, and where its input comes from (-1: the graph's
/// input image; otherwise the output of that earlier node).
struct Step {
  Op op;
  vx_enum border = VX_BORDER_REPLICATE;
  vx_uint8 constant = 0;
  int from = -2;  // -2: the node before (or the input, for the first)
};

struct Shape {
  vx_uint32 w, h;
};

/// Which node outputs are virtual: all but the ones the test reads, unless listed.
struct Options {
  std::vector<int> real_outputs;  // node outputs made with vxCreateImage (the application reads them)
  bool callback_on_second = false;
  bool strided_input = false;  // the input from a handle with two bytes per pixel: not packed
};

class OpenVxFusion : public OpenVx {
 protected:
  void TearDown() override {
    unsetenv("VG_OPENVX_FUSION");
    unsetenv("VG_OPENVX_FUSION_ROWS");
    OpenVx::TearDown();
  }

  /// Builds the graph of @p steps under fusion mode @p mode (nullptr: the default), runs it twice and
  /// returns the contents of every image the application can read (outputs of nodes no node reads, and
  /// the listed real ones).
  std::vector<std::vector<vx_uint32>> run(const char* mode, Shape s, const std::vector<Step>& steps, const Options& o = {}) {
    if (mode == nullptr) {
      unsetenv("VG_OPENVX_FUSION");
    } else {
      setenv("VG_OPENVX_FUSION", mode, 1);
    }
    const std::vector<vx_uint8> pixels = random_pixels(s.w, s.h, s.w * 131 + s.h);
    vx_graph graph = vxCreateGraph(context_);
    std::vector<vx_uint8> strided;
    vx_image in = nullptr;
    if (o.strided_input) {
      strided.assign(pixels.size() * 2, 0);
      for (std::size_t i = 0; i < pixels.size(); ++i) strided[2 * i] = pixels[i];
      vx_imagepatch_addressing_t a = VX_IMAGEPATCH_ADDR_INIT;
      a.dim_x = s.w;
      a.dim_y = s.h;
      a.stride_x = 2;
      a.stride_y = static_cast<vx_int32>(2 * s.w);
      void* ptrs[] = {strided.data()};
      in = vxCreateImageFromHandle(context_, VX_DF_IMAGE_U8, &a, ptrs, VX_MEMORY_TYPE_HOST);
    } else {
      in = vxCreateImage(context_, s.w, s.h, VX_DF_IMAGE_U8);
      write(in, s.w, s.h, pixels);
    }
    EXPECT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(in)), VX_SUCCESS);
    const std::size_t n = steps.size();
    std::vector<int> readers(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      const int from = steps[k].from == -2 ? static_cast<int>(k) - 1 : steps[k].from;
      if (from >= 0) ++readers[static_cast<std::size_t>(from)];
    }
    std::vector<vx_image> outs(n);
    std::vector<bool> visible(n);
    for (std::size_t k = 0; k < n; ++k) {
      visible[k] = readers[k] == 0 || std::find(o.real_outputs.begin(), o.real_outputs.end(), static_cast<int>(k)) != o.real_outputs.end();
      outs[k] = visible[k] ? vxCreateImage(context_, s.w, s.h, VX_DF_IMAGE_U8) : vxCreateVirtualImage(graph, s.w, s.h, VX_DF_IMAGE_U8);
    }
    std::vector<vx_node> nodes(n);
    for (std::size_t k = 0; k < n; ++k) {
      const int from = steps[k].from == -2 ? static_cast<int>(k) - 1 : steps[k].from;
      nodes[k] = add_node(graph, steps[k].op, from < 0 ? in : outs[static_cast<std::size_t>(from)], outs[k]);
      vx_border_t border{};
      border.mode = steps[k].border;
      border.constant_value.U8 = steps[k].constant;
      EXPECT_EQ(vxSetNodeAttribute(nodes[k], VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
    }
    EXPECT_EQ(vxDirective(reinterpret_cast<vx_reference>(context_), VX_DIRECTIVE_ENABLE_PERFORMANCE), VX_SUCCESS);
    EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
    called_ = 0;
    if (o.callback_on_second) {
      EXPECT_EQ(vxAssignNodeCallback(nodes[1], &count_call), VX_SUCCESS);  // after verification
    }
    for (int f = 0; f < 2; ++f) EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    if (o.callback_on_second) {
      EXPECT_EQ(called_, 2);
    }
    // Each node ran, succeeded and has a performance record per frame.
    for (vx_node node : nodes) {
      vx_status status = VX_FAILURE;
      EXPECT_EQ(vxQueryNode(node, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
      EXPECT_EQ(status, VX_SUCCESS);
      vx_perf_t perf{};
      EXPECT_EQ(vxQueryNode(node, VX_NODE_PERFORMANCE, &perf, sizeof perf), VX_SUCCESS);
      EXPECT_EQ(perf.num, 2u);
    }
    std::vector<std::vector<vx_uint32>> result;
    for (std::size_t k = 0; k < n; ++k) {
      if (visible[k]) result.push_back(read(outs[k], s.w, s.h));
    }
    for (vx_node& node : nodes) EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    for (vx_image& image : outs) EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
    EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    return result;
  }

  /// The default, bands-only and one-node-at-a-time runs agree.
  void expect_same(Shape s, const std::vector<Step>& steps, const Options& o = {}) {
    const auto alone = run("0", s, steps, o);
    const auto bands = run("1", s, steps, o);
    const auto fused = run(nullptr, s, steps, o);
    ASSERT_FALSE(alone.empty());
    EXPECT_TRUE(alone == bands) << s.w << "x" << s.h << ", bands on one target";
    EXPECT_TRUE(alone == fused) << s.w << "x" << s.h << ", default (split when large)";
  }

  static vx_action VX_CALLBACK count_call(vx_node) {
    ++called_;
    return VX_ACTION_CONTINUE;
  }
  static inline int called_ = 0;
};

const Shape kShapes[] = {{1, 1}, {3, 3}, {2, 5}, {7, 2}, {17, 9}, {33, 31}, {64, 48}, {131, 67}, {641, 479}};

TEST_F(OpenVxFusion, ChainsOfTwoToFiveMatchOneByOne) {
  const Op order[] = {Op::gaussian, Op::median, Op::box, Op::dilate, Op::erode};
  for (std::size_t length = 2; length <= 5; ++length) {
    for (const Shape s : kShapes) {
      std::vector<Step> steps;
      for (std::size_t k = 0; k < length; ++k) steps.push_back({order[(k + length) % 5]});
      expect_same(s, steps);
    }
  }
}

TEST_F(OpenVxFusion, EveryBorderModeAndMixedBorders) {
  for (const Shape s : kShapes) {
    for (vx_enum mode : {VX_BORDER_UNDEFINED, VX_BORDER_REPLICATE, VX_BORDER_CONSTANT}) {
      expect_same(s, {{Op::box, mode, 200}, {Op::erode, mode, 3}, {Op::gaussian, mode, 255}, {Op::dilate, mode, 0}});
    }
    expect_same(s, {{Op::median, VX_BORDER_CONSTANT, 9}, {Op::box, VX_BORDER_UNDEFINED}, {Op::dilate, VX_BORDER_REPLICATE},
                    {Op::erode, VX_BORDER_CONSTANT, 250}});
  }
}

TEST_F(OpenVxFusion, BandsOfOneAndTwoRows) {
  for (const char* rows : {"1", "2", "3"}) {
    setenv("VG_OPENVX_FUSION_ROWS", rows, 1);
    for (const Shape s : {Shape{3, 3}, Shape{5, 4}, Shape{19, 23}, Shape{640, 480}}) {
      expect_same(s, {{Op::gaussian}, {Op::box, VX_BORDER_CONSTANT, 17}, {Op::median}, {Op::erode, VX_BORDER_UNDEFINED}});
    }
  }
}

TEST_F(OpenVxFusion, MixedWithOtherNodes) {
  // Not -> [Gaussian -> Box] -> Not -> [Median -> Erode -> Dilate] -> Not.
  for (const Shape s : {Shape{33, 31}, Shape{641, 479}}) {
    expect_same(s, {{Op::invert}, {Op::gaussian}, {Op::box}, {Op::invert}, {Op::median}, {Op::erode}, {Op::dilate}, {Op::invert}});
  }
}

TEST_F(OpenVxFusion, VirtualImageWithTwoReaders) {
  // Gaussian's output feeds Box and Median: that link is not fused; Box -> Erode and Median -> Dilate are.
  for (const Shape s : {Shape{33, 31}, Shape{641, 479}}) {
    expect_same(s, {{Op::gaussian}, {Op::box, VX_BORDER_CONSTANT, 5, 0}, {Op::erode}, {Op::median, VX_BORDER_REPLICATE, 0, 0}, {Op::dilate}});
  }
}

TEST_F(OpenVxFusion, IntermediateTheApplicationReads) {
  // A non-virtual intermediate is written whole (and compared) whether or not the chain runs fused.
  Options o;
  o.real_outputs = {1};
  for (const Shape s : {Shape{3, 3}, Shape{33, 31}, Shape{641, 479}}) {
    const auto got = run(nullptr, s, {{Op::gaussian}, {Op::box}, {Op::median}, {Op::erode}}, o);
    EXPECT_EQ(got.size(), 2u);
    expect_same(s, {{Op::gaussian}, {Op::box}, {Op::median}, {Op::erode}}, o);
  }
}

TEST_F(OpenVxFusion, CallbackAssignedAfterVerification) {
  // The chain runs one node at a time: the callback sees its node's output before the next node runs.
  Options o;
  o.callback_on_second = true;
  expect_same({641, 479}, {{Op::gaussian}, {Op::box}, {Op::median}}, o);
}

TEST_F(OpenVxFusion, InputNotPacked) {
  Options o;
  o.strided_input = true;
  for (const Shape s : {Shape{17, 9}, Shape{641, 479}}) expect_same(s, {{Op::gaussian}, {Op::box}, {Op::median}}, o);
}

}  // namespace
