// The vg.vision kernels over the rest of the vision library (scale, half-scale Gaussian, warps, convolve,
// non-linear filter, histogram equalization, table lookup, channels, colour conversion): each graph's output is the library
// function's for the same attributes, a few values are checked by hand (so an attribute read the wrong way
// round shows), and verify names the node and the attribute for wrong values.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/bilateral.hpp"
#include "visiongraph/kernels/vision/canny.hpp"
#include "visiongraph/kernels/vision/channels.hpp"
#include "visiongraph/kernels/vision/convolve.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/gaussian_half.hpp"
#include "visiongraph/kernels/vision/harris.hpp"
#include "visiongraph/kernels/vision/hough_lines.hpp"
#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/hog.hpp"
#include "visiongraph/kernels/vision/lbp.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/kernels/vision/non_linear_filter.hpp"
#include "visiongraph/kernels/vision/scale.hpp"
#include "visiongraph/kernels/vision/warp.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using vg::DataMeta;
using vg::ImageFormat;
namespace vv = vg::vision;

/// A graph of one vg.vision node: input "input" of @p in, output "output" of @p out (what validate gives).
struct OneNode {
  OneNode(const char* kernel, const DataMeta& in, const DataMeta& out) : g(ctx(), "one") {
    input = g.add_data("in", in);
    output = g.add_data("out", out);
    node = g.add_node("stage", kernel);
    g.bind(node, "input", input).bind(node, "output", output);
  }
  static vg::Context& ctx() {
    static vg::Context context;
    static const bool loaded = (context.load_module(vv::make_vision_module()), true);
    (void)loaded;
    return context;
  }
  /// Fills every plane of @p id with values from @p seed (smooth enough for colour round trips).
  void fill(vg::DataId id, unsigned seed) {
    const vg::ImageView img = g.image(id);
    std::mt19937 rng(seed);
    const std::uint32_t planes = img.format() == ImageFormat::nv12 ? 2 : 1;
    for (std::uint32_t p = 0; p < planes; ++p) {
      const std::uint32_t rows = p == 0 ? img.height() : img.height() / 2;
      const bool packed_rgb = img.format() == ImageFormat::rgb24 || img.format() == ImageFormat::bgr24;
      const std::size_t bytes = packed_rgb ? 3u * img.width() : img.width();  // nv12's chroma rows: width bytes too
      for (std::uint32_t y = 0; y < rows; ++y)
        for (std::size_t x = 0; x < bytes; ++x) img.plane(p)[y * img.stride(p) + x] = static_cast<std::uint8_t>(rng() % 256);
    }
  }
  void run() { ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe(); }
  vv::ConstPlane in_plane() { return plane_of(g.image(input)); }
  static vv::Plane plane_of(const vg::ImageView& v, std::uint32_t i = 0) {
    return {v.plane(i), v.width(), v.height(), static_cast<std::ptrdiff_t>(v.stride(i))};
  }
  std::uint8_t out_at(std::uint32_t x, std::uint32_t y, std::uint32_t channel = 0, std::uint32_t channels = 1) {
    const vg::ImageView v = g.image(output);
    return v.plane(0)[y * v.stride(0) + x * channels + channel];
  }
  std::uint8_t in_at(std::uint32_t x, std::uint32_t y, std::uint32_t channel = 0, std::uint32_t channels = 1) {
    const vg::ImageView v = g.image(input);
    return v.plane(0)[y * v.stride(0) + x * channels + channel];
  }
  vg::Graph g;
  vg::DataId input{}, output{};
  vg::NodeId node{};
};

DataMeta gray(std::uint32_t w, std::uint32_t h) { return DataMeta::image_of(w, h, ImageFormat::gray8); }

/// Expects the graph's output to equal @p expected's bytes (a gray8 plane of the output's size).
void expect_output_equals(OneNode& n, const std::vector<std::uint8_t>& expected, const std::string& what) {
  const vg::ImageView v = n.g.image(n.output);
  for (std::uint32_t y = 0; y < v.height(); ++y)
    for (std::uint32_t x = 0; x < v.width(); ++x)
      ASSERT_EQ(v.plane(0)[y * v.stride(0) + x], expected[y * v.width() + x]) << what << " at " << x << "," << y;
}

TEST(VisionLibraryKernels, ScaleIsScaleImageForEachInterpolation) {
  const std::pair<const char*, vv::ScaleInterpolation> types[] = {
      {"nearest", vv::ScaleInterpolation::nearest}, {"bilinear", vv::ScaleInterpolation::bilinear}, {"area", vv::ScaleInterpolation::area}};
  for (const auto& [name, type] : types) {
    OneNode n("vg.vision.scale", gray(64, 48), gray(40, 30));
    n.g.set_attribute(n.node, "width", std::int64_t{40}).set_attribute(n.node, "height", std::int64_t{30});
    n.g.set_attribute(n.node, "interpolation", std::string(name));
    n.g.verify();
    n.fill(n.input, 3);
    n.run();
    std::vector<std::uint8_t> expected(40 * 30);
    vv::scale_image(n.in_plane(), {expected.data(), 40, 30, 40}, type, {});
    expect_output_equals(n, expected, name);
  }
}

TEST(VisionLibraryKernels, HalfScaleGaussianIsOnePyramidLevel) {
  for (const std::int64_t size : {3, 5}) {
    OneNode n("vg.vision.half_scale_gaussian", gray(65, 49), gray(33, 25));
    n.g.set_attribute(n.node, "kernel_size", size).set_attribute(n.node, "border", std::string("constant"));
    n.g.set_attribute(n.node, "border_value", std::int64_t{9});
    n.g.verify();
    n.fill(n.input, 4);
    n.run();
    std::vector<std::uint8_t> expected(33 * 25);
    ASSERT_TRUE(vv::gaussian_half(n.in_plane(), {expected.data(), 33, 25, 33}, static_cast<int>(size), {vv::BorderMode::constant, 9}));
    expect_output_equals(n, expected, "kernel " + std::to_string(size));
  }
}

TEST(VisionLibraryKernels, WarpsReadTheMatrixRowByRow) {
  // A shift by (2, 1): output (x, y) reads input (x + 2, y + 1), whichever way the matrix is stored.
  const std::pair<const char*, std::vector<double>> warps[] = {{"vg.vision.warp_affine", {1, 0, 2, 0, 1, 1}},
                                                               {"vg.vision.warp_perspective", {1, 0, 2, 0, 1, 1, 0, 0, 1}}};
  for (const auto& [kernel, matrix] : warps) {
    OneNode n(kernel, gray(50, 40), gray(30, 20));
    n.g.set_attribute(n.node, "matrix", matrix).set_attribute(n.node, "width", std::int64_t{30});
    n.g.set_attribute(n.node, "height", std::int64_t{20}).set_attribute(n.node, "interpolation", std::string("nearest"));
    n.g.verify();
    n.fill(n.input, 5);
    n.run();
    for (std::uint32_t y = 0; y < 20; ++y)
      for (std::uint32_t x = 0; x < 30; ++x) ASSERT_EQ(n.out_at(x, y), n.in_at(x + 2, y + 1)) << kernel << " at " << x << "," << y;
  }
  // A general affine matrix, bilinear, against the function called with OpenVX's order (the transpose).
  OneNode n("vg.vision.warp_affine", gray(50, 40), gray(30, 20));
  const std::vector<double> m{0.9, 0.2, 3.25, -0.1, 1.1, 2.5};
  n.g.set_attribute(n.node, "matrix", m).set_attribute(n.node, "width", std::int64_t{30}).set_attribute(n.node, "height", std::int64_t{20});
  n.g.verify();
  n.fill(n.input, 6);
  n.run();
  const float openvx[6] = {0.9f, -0.1f, 0.2f, 1.1f, 3.25f, 2.5f};
  std::vector<std::uint8_t> expected(30 * 20);
  ASSERT_TRUE(vv::warp_affine({n.in_plane(), 0, 0, UINT32_MAX, UINT32_MAX, false, 0}, openvx, vv::Interpolation::bilinear,
                              {expected.data(), 30, 20, 30}));
  expect_output_equals(n, expected, "bilinear affine");
}

// Remap reads the map as (x, y) pairs per output pixel: a mirror, nearest, by hand; a fractional map,
// bilinear with a constant border, against the library's function. A map of another shape is refused.
TEST(VisionLibraryKernels, RemapReadsTheMapsPairs) {
  constexpr std::uint32_t W = 24, H = 9;
  for (const char* interpolation : {"nearest", "bilinear"}) {
    vg::Graph g(OneNode::ctx(), "remap");
    const vg::DataId in = g.add_data("in", gray(W, H));
    const vg::DataId map = g.add_data("map", DataMeta::tensor_of({H, W, 2}, vg::ElementType::f32));
    const vg::DataId out = g.add_virtual("out", vg::DataKind::image);
    const vg::NodeId n = g.add_node("remap", "vg.vision.remap");
    g.bind(n, "input", in).bind(n, "map", map).bind(n, "output", out).set_attribute(n, "interpolation", std::string(interpolation));
    g.set_attribute(n, "border", std::string("constant")).set_attribute(n, "border_value", std::int64_t{77});
    g.verify();
    const vg::ImageView img = g.image(in);
    std::mt19937 rng(4);
    for (std::uint32_t y = 0; y < H; ++y)
      for (std::uint32_t x = 0; x < W; ++x) img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>(rng() % 256);
    const bool nearest = std::string(interpolation) == "nearest";
    auto* pairs = g.tensor(map).data_as<float>();
    for (std::uint32_t y = 0; y < H; ++y)
      for (std::uint32_t x = 0; x < W; ++x) {
        pairs[(y * W + x) * 2] = nearest ? static_cast<float>(W - 1 - x) : static_cast<float>(x) * 1.3f - 2.25f;
        pairs[(y * W + x) * 2 + 1] = nearest ? static_cast<float>(y) : static_cast<float>(y) * 0.7f + 0.4f;
      }
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
    const vg::ImageView o = g.image(out);
    if (nearest) {
      for (std::uint32_t y = 0; y < H; ++y)
        for (std::uint32_t x = 0; x < W; ++x) ASSERT_EQ(o.plane(0)[y * o.stride(0) + x], img.plane(0)[y * img.stride(0) + W - 1 - x]) << x << "," << y;
      continue;
    }
    std::vector<std::uint8_t> expected(W * H);
    ASSERT_TRUE(vv::remap({OneNode::plane_of(img), 0, 0, UINT32_MAX, UINT32_MAX, true, 77}, pairs, W * 2 * sizeof(float), vv::Interpolation::bilinear,
                          {expected.data(), W, H, W}));
    for (std::uint32_t y = 0; y < H; ++y)
      for (std::uint32_t x = 0; x < W; ++x) ASSERT_EQ(o.plane(0)[y * o.stride(0) + x], expected[y * W + x]) << x << "," << y;
    EXPECT_EQ(o.plane(0)[0], 77) << "(-2.25, 0.4) is outside: the constant border";
  }
  vg::Graph bad(OneNode::ctx(), "bad_map");
  const vg::NodeId n = bad.add_node("remap", "vg.vision.remap");
  bad.bind(n, "input", bad.add_data("in", gray(8, 8))).bind(n, "map", bad.add_data("map", DataMeta::tensor_of({8, 8, 3}, vg::ElementType::f32)));
  bad.bind(n, "output", bad.add_virtual("out", vg::DataKind::image));
  try {
    bad.verify();
    ADD_FAILURE() << "a map of three numbers per pixel was accepted";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'map'"), std::string::npos) << e.what();
  }
}

// Bilateral filtering, gray and colour, is the library's function with the node's attributes; a step
// between two flat regions stays a step (the likeness weight of the other side is nil).
TEST(VisionLibraryKernels, BilateralFilterIsTheLibrarysAndKeepsEdges) {
  for (const ImageFormat format : {ImageFormat::gray8, ImageFormat::rgb24}) {
    const int channels = format == ImageFormat::gray8 ? 1 : 3;
    OneNode n("vg.vision.bilateral_filter", DataMeta::image_of(37, 21, format), DataMeta::image_of(37, 21, format));
    n.g.set_attribute(n.node, "diameter", std::int64_t{7}).set_attribute(n.node, "sigma_space", 3.0).set_attribute(n.node, "sigma_values", 30.0);
    n.g.set_attribute(n.node, "border", std::string("constant")).set_attribute(n.node, "border_value", std::int64_t{100});
    n.g.verify();
    n.fill(n.input, 12);
    n.run();
    vv::BilateralOptions o;
    o.width = 37;
    o.height = 21;
    o.channels = channels;
    o.diameter = 7;
    o.sigma_space = 3.0f;
    o.sigma_values = 30.0f;
    o.constant_border = true;
    o.constant = 100;
    const vg::ImageView in = n.g.image(n.input);
    const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(in.stride(0));
    const vv::BilateralLayout in_layout{1, channels, stride, 20 * stride + 37 * channels - 1};
    const std::ptrdiff_t packed = 37 * channels;
    std::vector<std::uint8_t> expected(static_cast<std::size_t>(packed) * 21), scratch(vv::bilateral_filter_scratch_size(37, channels));
    ASSERT_TRUE(vv::bilateral_filter(in.plane(0), in_layout, expected.data(), {1, channels, packed, 21 * packed - 1}, o, scratch));
    for (std::uint32_t y = 0; y < 21; ++y)
      for (std::uint32_t x = 0; x < 37; ++x)
        for (int c = 0; c < channels; ++c)
          ASSERT_EQ(n.out_at(x, y, static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(channels)),
                    expected[y * static_cast<std::size_t>(packed) + x * static_cast<std::size_t>(channels) + static_cast<std::size_t>(c)])
              << x << "," << y << " channel " << c;
  }
  OneNode step("vg.vision.bilateral_filter", gray(20, 10), gray(20, 10));
  step.g.set_attribute(step.node, "sigma_values", 10.0);
  step.g.verify();
  const vg::ImageView img = step.g.image(step.input);
  for (std::uint32_t y = 0; y < 10; ++y)
    for (std::uint32_t x = 0; x < 20; ++x) img.plane(0)[y * img.stride(0) + x] = x < 10 ? 40 : 200;
  step.run();
  EXPECT_EQ(step.out_at(9, 5), 40);
  EXPECT_EQ(step.out_at(10, 5), 200);
}

// HOG: the features of every window and the cells are the library's HOGCells and HOGFeatures; a window
// larger than the input is refused naming the attribute.
TEST(VisionLibraryKernels, HogIsTheLibrarysCellsAndFeatures) {
  constexpr std::uint32_t W = 80, H = 136;
  vg::Graph g(OneNode::ctx(), "hog");
  const vg::DataId in = g.add_data("in", gray(W, H));
  const vg::DataId features = g.add_virtual("features", vg::DataKind::tensor), bins = g.add_virtual("bins", vg::DataKind::tensor);
  const vg::NodeId n = g.add_node("hog", "vg.vision.hog");
  g.bind(n, "input", in).bind(n, "features", features).bind(n, "bins", bins);
  g.verify();
  const vg::ImageView img = g.image(in);
  std::mt19937 rng(9);
  for (std::uint32_t y = 0; y < H; ++y)
    for (std::uint32_t x = 0; x < W; ++x) img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>((x * 3 + y * 5 + rng() % 40) % 256);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const vg::TensorMeta& shape = g.tensor(features).meta();
  ASSERT_EQ(shape.rank, 3u);
  EXPECT_EQ(shape.dims[0], 2);  // (136 - 128) / 8 + 1 windows down
  EXPECT_EQ(shape.dims[1], 3);  // (80 - 64) / 8 + 1 across
  const vv::HogFeaturesOptions o;  // the attributes' defaults
  ASSERT_EQ(shape.dims[2], static_cast<std::int64_t>(vv::hog_features_per_window(o)));
  const std::uint32_t cx = W / 8, cy = H / 8;
  std::vector<std::int16_t> magnitudes(cx * cy), cell_bins(cx * cy * 9), expected(static_cast<std::size_t>(2 * 3 * shape.dims[2]));
  std::vector<std::uint8_t> cells_scratch(vv::hog_cells_scratch_size(W, {8, 8, 9})), features_scratch(vv::hog_features_scratch_size(cx, cy, o));
  ASSERT_TRUE(vv::hog_cells({img.plane(0), W, H, static_cast<std::ptrdiff_t>(img.stride(0)), 1}, {8, 8, 9}, magnitudes.data(), cell_bins.data(), cells_scratch));
  ASSERT_TRUE(vv::hog_features(magnitudes.data(), cell_bins.data(), cx, cy, o, 3, 2, expected.data(), expected.size(), features_scratch));
  const auto* got = g.tensor(features).data_as<std::int16_t>();
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(got[i], expected[i]) << i;
  for (std::size_t i = 0; i < cell_bins.size(); ++i) ASSERT_EQ(g.tensor(bins).data_as<std::int16_t>()[i], cell_bins[i]) << i;

  vg::Graph small(OneNode::ctx(), "small");
  const vg::NodeId s = small.add_node("hog", "vg.vision.hog");
  small.bind(s, "input", small.add_data("in", gray(64, 64))).bind(s, "features", small.add_virtual("f", vg::DataKind::tensor));
  try {
    small.verify();
    ADD_FAILURE() << "a 64x128 window in a 64x64 image was accepted";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("window_width"), std::string::npos) << e.what();
  }
}

TEST(VisionLibraryKernels, ConvolveFlipsTheMatrixAsOpenVxDoes) {
  // A single 1 right of the centre: as a convolution it moves the image one pixel right.
  OneNode n("vg.vision.convolve", gray(20, 10), gray(20, 10));
  n.g.set_attribute(n.node, "coefficients", std::vector<double>{0, 0, 0, 0, 0, 1, 0, 0, 0});
  n.g.verify();
  n.fill(n.input, 7);
  n.run();
  for (std::uint32_t y = 0; y < 10; ++y) {
    EXPECT_EQ(n.out_at(0, y), n.in_at(0, y)) << "replicated left edge";
    for (std::uint32_t x = 1; x < 20; ++x) ASSERT_EQ(n.out_at(x, y), n.in_at(x - 1, y)) << x << "," << y;
  }
  // A 5x3 matrix with a scale, against the function.
  OneNode w("vg.vision.convolve", gray(37, 21), gray(37, 21));
  std::vector<double> c(15);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<double>(static_cast<int>(i * 7 % 11) - 3);
  w.g.set_attribute(w.node, "coefficients", c).set_attribute(w.node, "columns", std::int64_t{5}).set_attribute(w.node, "rows", std::int64_t{3});
  w.g.set_attribute(w.node, "scale", std::int64_t{8});
  w.g.verify();
  w.fill(w.input, 8);
  w.run();
  std::int16_t flipped[15];
  for (int i = 0; i < 15; ++i) flipped[i] = static_cast<std::int16_t>(c[static_cast<std::size_t>(14 - i)]);
  std::vector<std::uint8_t> expected(37 * 21);
  ASSERT_TRUE(vv::convolve(w.in_plane(), vv::pixels_of(vv::Plane{expected.data(), 37, 21, 37}), flipped, 5, 3, 3));
  expect_output_equals(w, expected, "5x3 / 8");
}

TEST(VisionLibraryKernels, NonLinearFilterReadsTheMaskRowByRow) {
  // Only the entry right of the centre selected: every function gives the right neighbour.
  for (const char* function : {"median", "min", "max"}) {
    OneNode n("vg.vision.non_linear_filter", gray(20, 10), gray(20, 10));
    n.g.set_attribute(n.node, "function", std::string(function)).set_attribute(n.node, "columns", std::int64_t{3});
    n.g.set_attribute(n.node, "rows", std::int64_t{1}).set_attribute(n.node, "mask", std::vector<double>{0, 0, 1});
    n.g.verify();
    n.fill(n.input, 9);
    n.run();
    for (std::uint32_t y = 0; y < 10; ++y) {
      for (std::uint32_t x = 0; x + 1 < 20; ++x) ASSERT_EQ(n.out_at(x, y), n.in_at(x + 1, y)) << function << " at " << x << "," << y;
      EXPECT_EQ(n.out_at(19, y), n.in_at(19, y)) << function << ": replicated right edge";
    }
  }
  // The default: the median of the 5x5 box, against the function.
  OneNode box("vg.vision.non_linear_filter", gray(41, 23), gray(41, 23));
  box.g.verify();
  box.fill(box.input, 10);
  box.run();
  const std::vector<std::uint8_t> ones(25, 1);
  std::vector<std::uint8_t> expected(41 * 23);
  ASSERT_TRUE(vv::non_linear_filter(vv::NonLinearFunction::median, box.in_plane(), {expected.data(), 41, 23, 41}, ones.data(), 5, 5));
  expect_output_equals(box, expected, "5x5 box median");
  // A 7x3 cross, the minimum under a constant border.
  OneNode cross("vg.vision.non_linear_filter", gray(37, 19), gray(37, 19));
  std::vector<double> mask(21, 0.0);
  for (int c = 0; c < 7; ++c) mask[static_cast<std::size_t>(7 + c)] = 1;
  mask[3] = mask[17] = 1;
  cross.g.set_attribute(cross.node, "function", std::string("min")).set_attribute(cross.node, "mask", mask);
  cross.g.set_attribute(cross.node, "columns", std::int64_t{7}).set_attribute(cross.node, "rows", std::int64_t{3});
  cross.g.set_attribute(cross.node, "border", std::string("constant")).set_attribute(cross.node, "border_value", std::int64_t{30});
  cross.g.verify();
  cross.fill(cross.input, 11);
  cross.run();
  std::uint8_t bytes[21];
  for (std::size_t i = 0; i < 21; ++i) bytes[i] = static_cast<std::uint8_t>(mask[i]);
  std::vector<std::uint8_t> expected_cross(37 * 19);
  ASSERT_TRUE(vv::non_linear_filter(vv::NonLinearFunction::min, cross.in_plane(), {expected_cross.data(), 37, 19, 37}, bytes, 7, 3,
                                    {vv::BorderMode::constant, 30}));
  expect_output_equals(cross, expected_cross, "7x3 cross min, constant 30");
}

TEST(VisionLibraryKernels, EqualizeHistAndTableLookup) {
  OneNode eq("vg.vision.equalize_hist", gray(16, 4), gray(16, 4));
  eq.g.verify();
  const vg::ImageView in = eq.g.image(eq.input);
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) in.plane(0)[y * in.stride(0) + x] = static_cast<std::uint8_t>(x < 8 ? 100 : 120);
  eq.run();
  EXPECT_EQ(eq.out_at(0, 0), 0);    // the smallest value present
  EXPECT_EQ(eq.out_at(15, 3), 255);  // the largest
  OneNode random("vg.vision.equalize_hist", gray(41, 17), gray(41, 17));
  random.g.verify();
  random.fill(random.input, 9);
  random.run();
  std::vector<std::uint8_t> expected(41 * 17);
  vv::equalize_histogram(random.in_plane(), {expected.data(), 41, 17, 41});
  expect_output_equals(random, expected, "equalized");

  OneNode lut("vg.vision.table_lookup", gray(9, 3), gray(9, 3));
  std::vector<double> inverse(256);
  for (int v = 0; v < 256; ++v) inverse[static_cast<std::size_t>(v)] = 255 - v;
  lut.g.set_attribute(lut.node, "table", inverse);
  lut.g.verify();
  lut.fill(lut.input, 10);
  lut.run();
  for (std::uint32_t y = 0; y < 3; ++y)
    for (std::uint32_t x = 0; x < 9; ++x) ASSERT_EQ(lut.out_at(x, y), 255 - lut.in_at(x, y));
}

TEST(VisionLibraryKernels, ChannelsFollowTheImageFormat) {
  for (const ImageFormat format : {ImageFormat::rgb24, ImageFormat::bgr24}) {
    OneNode n("vg.vision.channel_extract", DataMeta::image_of(11, 5, format), gray(11, 5));
    n.g.set_attribute(n.node, "channel", std::string("r"));
    n.g.verify();
    n.fill(n.input, 11);
    n.run();
    const std::uint32_t red_byte = format == ImageFormat::rgb24 ? 0 : 2;
    for (std::uint32_t y = 0; y < 5; ++y)
      for (std::uint32_t x = 0; x < 11; ++x) ASSERT_EQ(n.out_at(x, y), n.in_at(x, y, red_byte, 3)) << vg::to_string(format);
  }
  vg::Graph g(OneNode::ctx(), "combine");
  const vg::DataId r = g.add_data("r", gray(7, 3)), gr = g.add_data("g", gray(7, 3)), b = g.add_data("b", gray(7, 3));
  const vg::DataId out = g.add_data("out", DataMeta::image_of(7, 3, ImageFormat::bgr24));
  const vg::NodeId n = g.add_node("combine", "vg.vision.channel_combine");
  g.bind(n, "red", r).bind(n, "green", gr).bind(n, "blue", b).bind(n, "output", out).set_attribute(n, "format", std::string("bgr24"));
  g.verify();
  const std::uint8_t values[3] = {10, 20, 30};
  const vg::DataId planes[3] = {r, gr, b};
  for (int i = 0; i < 3; ++i) {
    const vg::ImageView v = g.image(planes[i]);
    for (std::uint32_t y = 0; y < 3; ++y) std::memset(v.plane(0) + y * v.stride(0), values[i], 7);
  }
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const vg::ImageView o = g.image(out);
  EXPECT_EQ(o.plane(0)[0], 30);  // blue first in bgr24
  EXPECT_EQ(o.plane(0)[1], 20);
  EXPECT_EQ(o.plane(0)[2], 10);
}

TEST(VisionLibraryKernels, ColorConvertRoundTripsAndHonoursTheColourSpace) {
  std::vector<std::uint8_t> first_nv12;
  for (const char* space : {"bt709", "bt601"}) {
    OneNode to_yuv("vg.vision.color_convert", DataMeta::image_of(32, 16, ImageFormat::rgb24), DataMeta::image_of(32, 16, ImageFormat::nv12));
    to_yuv.g.set_attribute(to_yuv.node, "color_space", std::string(space));
    to_yuv.g.verify();
    // A smooth image (chroma subsampling loses little of it): r, g, b ramps.
    const vg::ImageView rgb = to_yuv.g.image(to_yuv.input);
    for (std::uint32_t y = 0; y < 16; ++y)
      for (std::uint32_t x = 0; x < 32; ++x) {
        std::uint8_t* p = rgb.plane(0) + y * rgb.stride(0) + 3 * x;
        p[0] = static_cast<std::uint8_t>(40 + 4 * x);
        p[1] = static_cast<std::uint8_t>(60 + 6 * y);
        p[2] = static_cast<std::uint8_t>(200 - 2 * x);
      }
    to_yuv.run();
    const vg::ImageView yuv = to_yuv.g.image(to_yuv.output);
    std::vector<std::uint8_t> luma(yuv.plane(0), yuv.plane(0) + 16 * yuv.stride(0));
    if (first_nv12.empty()) first_nv12 = luma;
    else EXPECT_NE(first_nv12, luma) << "bt601 gives the same luma as bt709";

    OneNode back("vg.vision.color_convert", DataMeta::image_of(32, 16, ImageFormat::nv12), DataMeta::image_of(32, 16, ImageFormat::rgb24));
    back.g.set_attribute(back.node, "color_space", std::string(space));
    back.g.verify();
    const vg::ImageView nv12 = back.g.image(back.input);
    for (std::uint32_t p = 0; p < 2; ++p)
      for (std::uint32_t y = 0; y < (p == 0 ? 16u : 8u); ++y) std::memcpy(nv12.plane(p) + y * nv12.stride(p), yuv.plane(p) + y * yuv.stride(p), 32);
    back.run();
    for (std::uint32_t y = 0; y < 16; ++y)
      for (std::uint32_t x = 0; x < 32; ++x)
        for (std::uint32_t c = 0; c < 3; ++c)
          ASSERT_LE(std::abs(int{back.out_at(x, y, c, 3)} - int{to_yuv.in_at(x, y, c, 3)}), 6) << space << " at " << x << "," << y << " channel " << c;
  }
}

/// A corner kernel's graph on a 64x48 image of a bright square: input, the corners array and its count.
struct SquareCorners {
  SquareCorners(const char* kernel, std::int64_t capacity) : g(OneNode::ctx(), "corners") {
    in = g.add_data("in", gray(64, 48));
    corners = g.add_virtual("corners", vg::DataKind::array);
    count = g.add_data("count", DataMeta::scalar_of(vg::ElementType::u32));
    const vg::NodeId n = g.add_node("corners", kernel);
    g.bind(n, "input", in).bind(n, "corners", corners).bind(n, "num_corners", count).set_attribute(n, "capacity", capacity);
    g.verify();
    const vg::ImageView img = g.image(in);
    for (std::uint32_t y = 0; y < 48; ++y)
      for (std::uint32_t x = 0; x < 64; ++x) img.plane(0)[y * img.stride(0) + x] = (x >= 20 && x < 40 && y >= 15 && y < 30) ? 200 : 30;
  }
  vg::Graph g;
  vg::DataId in{}, corners{}, count{};
};

// FAST corners into an array, the count beside it; a capacity below the count keeps the first corners.
TEST(VisionLibraryKernels, FastCornersFillTheArrayAndCountWhatDidNotFit) {
  for (const std::int64_t capacity : {1000, 3}) {
    SquareCorners sq("vg.vision.fast_corners", capacity);
    vg::Graph& g = sq.g;
    const vg::DataId corners = sq.corners, count = sq.count;
    const vg::ImageView img = g.image(sq.in);
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
    std::vector<vv::FastCorner> expected(100);
    std::vector<std::uint8_t> scratch(vv::fast_corners_scratch_size(64));
    std::size_t found = 0;
    ASSERT_TRUE(vv::fast_corners(OneNode::plane_of(img), {20, true}, scratch, expected, found));
    ASSERT_GE(found, 4u) << "the square's four corners";
    EXPECT_EQ(g.scalar(count).get<std::uint32_t>(), found);
    const vg::ArrayView<vv::FastCorner> got = g.array<vv::FastCorner>(corners);
    ASSERT_EQ(got.size(), std::min<std::size_t>(found, static_cast<std::size_t>(capacity)));
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << i;
  }
}

// Canny from attributes, against the library with the same options; the set_high command between frames.
TEST(VisionLibraryKernels, CannyIsTheLibrarysDetectorAndTakesNewThresholds) {
  OneNode n("vg.vision.canny", gray(64, 40), gray(64, 40));
  n.g.set_attribute(n.node, "low", std::int64_t{40}).set_attribute(n.node, "high", std::int64_t{90});
  n.g.set_attribute(n.node, "norm", std::string("l2")).set_attribute(n.node, "gradient_size", std::int64_t{5});
  n.g.verify();
  const vg::ImageView img = n.g.image(n.input);
  for (std::uint32_t y = 0; y < 40; ++y)
    for (std::uint32_t x = 0; x < 64; ++x)
      img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>(((x - 32) * (x - 32) + (y - 20) * (y - 20) < 150 ? 180 : 40) + (x * 7 + y * 3) % 5);
  n.run();
  vv::CannyOptions options;
  options.low = 40;
  options.high = 90;
  options.gradient_size = 5;
  options.norm = vv::CannyNorm::l2;
  std::vector<std::uint8_t> expected(64 * 40), scratch(vv::canny_scratch_size(64, 40));
  ASSERT_TRUE(vv::canny(n.in_plane(), {expected.data(), 64, 40, 64}, options, scratch));
  EXPECT_NE(std::count(expected.begin(), expected.end(), 255), 0) << "the disc's edge";
  expect_output_equals(n, expected, "canny");

  vg::CommandReply reply;
  ASSERT_EQ(n.g.send_command(n.node, vg::ControlCommand::make(vv::kSetHighThreshold, std::int64_t{1 << 21}), std::chrono::seconds(1), &reply),
            vg::Status::ok);
  EXPECT_EQ(reply.text(), "low=40 high=2097152");
  n.run();
  for (std::uint32_t y = 0; y < 40; ++y)
    for (std::uint32_t x = 0; x < 64; ++x) ASSERT_EQ(n.out_at(x, y), 0) << "an edge above the largest magnitude";
  EXPECT_EQ(n.g.send_command(n.node, vg::ControlCommand::make(vv::kSetLowThreshold, std::int64_t{-1}), std::chrono::seconds(1), &reply),
            vg::Status::invalid_argument);
}

// Harris corners of a drawn square into an array, strongest first, the count beside it; a small capacity
// keeps the strongest.
TEST(VisionLibraryKernels, HarrisCornersAreTheLibrarysStrongestFirst) {
  for (const std::int64_t capacity : {1000, 2}) {
    SquareCorners sq("vg.vision.harris_corners", capacity);
    vg::Graph& g = sq.g;
    const vg::DataId corners = sq.corners, count = sq.count;
    const vg::ImageView img = g.image(sq.in);
    ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
    vv::HarrisOptions options;
    options.threshold = 1e-4f;
    options.min_distance = 5.0f;
    std::vector<vv::HarrisCorner> expected(100);
    std::vector<std::uint8_t> scratch(vv::harris_corners_scratch_size(64, 48));
    std::size_t found = 0;
    ASSERT_TRUE(vv::harris_corners(OneNode::plane_of(img), options, scratch, expected, found));
    ASSERT_GE(found, 4u) << "the square's four corners";
    EXPECT_EQ(g.scalar(count).get<std::uint32_t>(), found);
    const vg::ArrayView<vv::HarrisCorner> got = g.array<vv::HarrisCorner>(corners);
    ASSERT_EQ(got.size(), std::min<std::size_t>(found, static_cast<std::size_t>(capacity)));
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << i;
  }
}

// HoughLinesP on an edge image of two drawn segments: the library's segments, in its order, and the count.
TEST(VisionLibraryKernels, HoughLinesFindsTheDrawnSegments) {
  vg::Graph g(OneNode::ctx(), "hough");
  const vg::DataId in = g.add_data("in", gray(160, 120));
  const vg::DataId lines = g.add_virtual("lines", vg::DataKind::array);
  const vg::DataId count = g.add_data("count", DataMeta::scalar_of(vg::ElementType::u32));
  const vg::NodeId n = g.add_node("hough", "vg.vision.hough_lines");
  g.bind(n, "input", in).bind(n, "lines", lines).bind(n, "num_lines", count);
  g.verify();
  const vg::ImageView img = g.image(in);
  for (std::uint32_t y = 0; y < 120; ++y) std::memset(img.plane(0) + y * img.stride(0), 0, 160);
  for (std::uint32_t x = 20; x < 140; ++x) img.plane(0)[30 * img.stride(0) + x] = 255;  // horizontal, 120 long
  for (std::uint32_t y = 40; y < 110; ++y) img.plane(0)[y * img.stride(0) + 90] = 255;  // vertical, 70 long
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  struct Collect final : vv::HoughSegmentSink {
    std::vector<vv::HoughSegment> all;
    void take(const vv::HoughSegment& s) noexcept override { all.push_back(s); }
  } expected;
  vv::HoughLinesOptions options;
  options.theta = 0.017453292519943295f;
  options.threshold = 50;
  options.line_length = 30;
  options.line_gap = 5;
  options.theta_max = 3.141592653589793f;
  std::vector<std::uint8_t> scratch(vv::hough_lines_p_scratch_size(160, 120, options));
  std::size_t found = 0;
  const vv::HoughEdges edges{img.plane(0), 160, 120, static_cast<std::ptrdiff_t>(img.stride(0)), 1, false, 0, 0, 160, 120};
  ASSERT_TRUE(vv::hough_lines_p(edges, options, scratch, expected, found));
  ASSERT_EQ(found, 2u) << "the two segments";
  EXPECT_EQ(g.scalar(count).get<std::uint32_t>(), 2u);
  const vg::ArrayView<vv::HoughSegment> got = g.array<vv::HoughSegment>(lines);
  ASSERT_EQ(got.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(got[i], expected.all[i]) << i;
}

// NonMaxSuppression keeps each window's maximum (the last on a plateau), zeroes the rest and the frame,
// and copies masked pixels.
TEST(VisionLibraryKernels, NonMaxSuppressionKeepsTheMaximaAndZeroesTheFrame) {
  vg::Graph g(OneNode::ctx(), "nms");
  const vg::DataId in = g.add_data("in", gray(20, 10)), mask = g.add_data("mask", gray(20, 10)), out = g.add_data("out", gray(20, 10));
  const vg::NodeId n = g.add_node("nms", "vg.vision.non_max_suppression");
  g.bind(n, "input", in).bind(n, "mask", mask).bind(n, "output", out).set_attribute(n, "window", std::int64_t{3});
  g.verify();
  const vg::ImageView img = g.image(in), m = g.image(mask), o = g.image(out);
  for (std::uint32_t y = 0; y < 10; ++y) {
    std::memset(img.plane(0) + y * img.stride(0), 10, 20);
    std::memset(m.plane(0) + y * m.stride(0), 0, 20);
    std::memset(o.plane(0) + y * o.stride(0), 77, 20);  // what an earlier frame left
  }
  img.plane(0)[4 * img.stride(0) + 5] = 90;                                        // a peak
  img.plane(0)[6 * img.stride(0) + 12] = 50;                                       // a plateau of two
  img.plane(0)[6 * img.stride(0) + 13] = 50;
  m.plane(0)[2 * m.stride(0) + 16] = 1;                                            // a masked pixel: copied
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  auto at = [&](std::uint32_t x, std::uint32_t y) { return o.plane(0)[y * o.stride(0) + x]; };
  EXPECT_EQ(at(5, 4), 90);
  EXPECT_EQ(at(12, 6), 0);
  EXPECT_EQ(at(13, 6), 50) << "the plateau's last pixel in raster order";
  EXPECT_EQ(at(16, 2), 10) << "masked: copied";
  EXPECT_EQ(at(0, 0), 0) << "the frame";
  EXPECT_EQ(at(19, 5), 0) << "the frame";
  EXPECT_EQ(at(5, 3), 0) << "below the peak";
}

TEST(VisionLibraryKernels, LbpIsTheLibrarysPattern) {
  OneNode n("vg.vision.lbp", gray(45, 13), gray(45, 13));
  n.g.set_attribute(n.node, "format", std::string("uniform")).set_attribute(n.node, "kernel_size", std::int64_t{5});
  n.g.verify();
  n.fill(n.input, 12);
  n.run();
  std::vector<std::uint8_t> expected(45 * 13);
  ASSERT_TRUE(vv::local_binary_pattern(n.in_plane(), {expected.data(), 45, 13, 45}, vv::LbpFormat::uniform, 5));
  expect_output_equals(n, expected, "uniform 5x5");
}

/// verify()'s message for a one-node graph of @p kernel, after @p configure.
std::string verify_error(const char* kernel, const DataMeta& in, const DataMeta& out, const std::function<void(vg::Graph&, vg::NodeId)>& configure) {
  OneNode n(kernel, in, out);
  configure(n.g, n.node);
  try {
    n.g.verify();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "verified";
}

TEST(VisionLibraryKernels, VerifyNamesTheAttributeAtFault) {
  struct Case {
    const char* kernel;
    DataMeta in, out;
    std::function<void(vg::Graph&, vg::NodeId)> configure;
    const char* key;
    const char* detail;
  };
  const auto size = [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "width", std::int64_t{8}).set_attribute(n, "height", std::int64_t{8}); };
  const Case cases[] = {
      {"vg.vision.scale", gray(16, 16), gray(8, 8), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "height", std::int64_t{8}); }, "width", "width"},
      {"vg.vision.scale", gray(16, 16), gray(8, 8), [&](vg::Graph& g, vg::NodeId n) { size(g, n); g.set_attribute(n, "interpolation", std::string("cubic")); },
       "interpolation", "cubic"},
      {"vg.vision.warp_affine", gray(16, 16), gray(8, 8), [&](vg::Graph& g, vg::NodeId n) { size(g, n); g.set_attribute(n, "matrix", std::vector<double>{1, 0, 0, 1}); },
       "matrix", "got 4"},
      {"vg.vision.convolve", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "coefficients", std::vector<double>{1, 2, 1}); },
       "coefficients", "got 3"},
      {"vg.vision.convolve", gray(16, 16), gray(16, 16),
       [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "coefficients", std::vector<double>(9, 1.0)).set_attribute(n, "scale", std::int64_t{9}); }, "scale", "9"},
      {"vg.vision.convolve", gray(16, 16), gray(16, 16),
       [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "coefficients", std::vector<double>(8, 1.0)).set_attribute(n, "columns", std::int64_t{4}).set_attribute(n, "rows", std::int64_t{2}); },
       "columns", "4"},
      {"vg.vision.non_linear_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "function", std::string("mean")); },
       "function", "mean"},
      {"vg.vision.bilateral_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "diameter", std::int64_t{4}); },
       "diameter", "4"},
      {"vg.vision.bilateral_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "sigma_values", 0.0); },
       "sigma_values", "above 0"},
      {"vg.vision.non_linear_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "columns", std::int64_t{11}); },
       "columns", "11"},
      {"vg.vision.non_linear_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "mask", std::vector<double>(9, 1.0)); },
       "mask", "got 9"},
      {"vg.vision.non_linear_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "mask", std::vector<double>(25, 2.0)); },
       "mask", "0 or 1"},
      {"vg.vision.non_linear_filter", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "mask", std::vector<double>(25, 0.0)); },
       "mask", "selects no pixel"},
      {"vg.vision.table_lookup", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "table", std::vector<double>(255, 0.0)); },
       "table", "got 255"},
      {"vg.vision.half_scale_gaussian", gray(16, 16), gray(8, 8), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "kernel_size", std::int64_t{7}); },
       "kernel_size", "7"},
      {"vg.vision.color_convert", DataMeta::image_of(15, 8, ImageFormat::rgb24), DataMeta::image_of(15, 8, ImageFormat::nv12), [](vg::Graph&, vg::NodeId) {},
       "input", "even"},
      {"vg.vision.channel_extract", gray(16, 16), gray(16, 16), [](vg::Graph&, vg::NodeId) {}, "input", "bgr24 or rgb24"},
      {"vg.vision.canny", gray(16, 16), gray(16, 16),
       [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "low", std::int64_t{120}).set_attribute(n, "high", std::int64_t{60}); }, "low", "above high"},
      {"vg.vision.canny", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "norm", std::string("l3")); }, "norm", "l3"},
      {"vg.vision.lbp", gray(16, 16), gray(16, 16), [](vg::Graph& g, vg::NodeId n) { g.set_attribute(n, "format", std::string("modified")); },
       "kernel_size", "modified"},
  };
  for (const Case& c : cases) {
    const std::string e = verify_error(c.kernel, c.in, c.out, c.configure);
    EXPECT_NE(e.find("stage"), std::string::npos) << c.kernel << ": " << e;
    EXPECT_NE(e.find(c.key), std::string::npos) << c.kernel << ": " << e;
    EXPECT_NE(e.find(c.detail), std::string::npos) << c.kernel << ": " << e;
  }
}

}  // namespace
