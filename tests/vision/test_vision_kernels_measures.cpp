// The vg.vision kernels whose results are S16 planes, tensors, scalars or positions (sobel3x3, magnitude, phase,
// convert_depth, integral_image, histogram, mean_stddev, min_max_loc, match_template, the Laplacian levels) and the two-image
// weighted_average, min and max: each graph's output is the library function's, a few values are checked
// from the definition by hand (so a parameter read the wrong way round shows), and verify names the node and
// the parameter or attribute for wrong input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/gradients.hpp"
#include "visiongraph/kernels/vision/laplacian.hpp"
#include "visiongraph/kernels/vision/match_template.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"
#include "visiongraph/visiongraph.hpp"
#include "vision_kernel_test.hpp"

namespace {

using vg::DataId;
using vg::DataKind;
using vg::DataMeta;
using vg::ElementType;
using vg::ImageFormat;
namespace vv = vg::vision;
using vg::vision::test::verify_error;
vg::Context& context() { return vg::vision::test::vision_context(); }

DataMeta gray(std::uint32_t w, std::uint32_t h) { return DataMeta::image_of(w, h, ImageFormat::gray8); }
DataMeta s16(std::uint32_t w, std::uint32_t h) { return DataMeta::tensor_of({h, w}, ElementType::i16); }

void fill_random(const vg::ImageView& img, unsigned seed) {
  std::mt19937 rng(seed);
  for (std::uint32_t y = 0; y < img.height(); ++y)
    for (std::uint32_t x = 0; x < img.width(); ++x) img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>(rng() % 256);
}

std::uint8_t at(const vg::ImageView& img, std::uint32_t x, std::uint32_t y) { return img.plane(0)[y * img.stride(0) + x]; }

vv::ConstPlane plane_of(const vg::ImageView& v) { return {v.plane(0), v.width(), v.height(), static_cast<std::ptrdiff_t>(v.stride(0))}; }

vv::Pixels s16_of(std::vector<std::int16_t>& data, std::uint32_t w, std::uint32_t h) {
  return {data.data(), w, h, static_cast<std::ptrdiff_t>(w) * 2, vv::PixelType::s16};
}

// Sobel -> magnitude -> convert_depth_to_gray8, and phase, on an odd size: each the library's function, and
// the gradients at an inner pixel as the 3x3 masks give them.
TEST(VisionMeasureKernels, SobelMagnitudePhaseAndDepthAreTheLibrarysFunctions) {
  constexpr std::uint32_t W = 37, H = 23;
  vg::Graph g(context(), "gradients");
  const DataId in = g.add_data("in", gray(W, H));
  const DataId gx = g.add_data("gx", s16(W, H)), gy = g.add_data("gy", s16(W, H)), mag = g.add_data("mag", s16(W, H));
  const DataId angle = g.add_data("angle", gray(W, H)), mag8 = g.add_data("mag8", gray(W, H));
  const vg::NodeId sobel = g.add_node("sobel", "vg.vision.sobel3x3");
  g.bind(sobel, "input", in).bind(sobel, "grad_x", gx).bind(sobel, "grad_y", gy).set_attribute(sobel, "border", std::string("constant"));
  g.set_attribute(sobel, "border_value", std::int64_t{9});
  const vg::NodeId m = g.add_node("magnitude", "vg.vision.magnitude");
  g.bind(m, "grad_x", gx).bind(m, "grad_y", gy).bind(m, "output", mag);
  const vg::NodeId p = g.add_node("phase", "vg.vision.phase");
  g.bind(p, "grad_x", gx).bind(p, "grad_y", gy).bind(p, "output", angle);
  const vg::NodeId down = g.add_node("down", "vg.vision.convert_depth_to_gray8");
  g.bind(down, "input", mag).bind(down, "output", mag8).set_attribute(down, "shift", std::int64_t{2});
  g.verify();
  const vg::ImageView img = g.image(in);
  fill_random(img, 3);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();

  std::vector<std::int16_t> ex(W * H), ey(W * H), em(W * H);
  vv::sobel3x3(plane_of(img), s16_of(ex, W, H), s16_of(ey, W, H), {vv::BorderMode::constant, 9});
  vv::magnitude(s16_of(ex, W, H), s16_of(ey, W, H), s16_of(em, W, H));
  std::vector<std::uint8_t> ephase(W * H);
  vv::phase(s16_of(ex, W, H), s16_of(ey, W, H), {ephase.data(), W, H, W});
  const auto* got_x = g.tensor(gx).data_as<std::int16_t>();
  const auto* got_y = g.tensor(gy).data_as<std::int16_t>();
  const auto* got_m = g.tensor(mag).data_as<std::int16_t>();
  for (std::uint32_t i = 0; i < W * H; ++i) {
    ASSERT_EQ(got_x[i], ex[i]) << i;
    ASSERT_EQ(got_y[i], ey[i]) << i;
    ASSERT_EQ(got_m[i], em[i]) << i;
    const std::uint32_t x = i % W, y = i / W;
    ASSERT_EQ(at(g.image(angle), x, y), ephase[i]) << i;
    ASSERT_EQ(at(g.image(mag8), x, y), std::min(em[i] >> 2, 255)) << i;
  }
  const auto pix = [&](int x, int y) { return static_cast<int>(at(img, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y))); };
  const int x = 10, y = 7;
  EXPECT_EQ(got_x[y * W + x], pix(x + 1, y - 1) - pix(x - 1, y - 1) + 2 * (pix(x + 1, y) - pix(x - 1, y)) + pix(x + 1, y + 1) - pix(x - 1, y + 1));
  EXPECT_EQ(got_y[y * W + x], pix(x - 1, y + 1) - pix(x - 1, y - 1) + 2 * (pix(x, y + 1) - pix(x, y - 1)) + pix(x + 1, y + 1) - pix(x + 1, y - 1));
  EXPECT_EQ(got_m[y * W + x], static_cast<std::int16_t>(std::min(32767.0, std::floor(std::hypot(got_x[y * W + x], got_y[y * W + x]) + 0.5))));
  // The constant border: the corner's gradient sees border_value outside.
  EXPECT_EQ(got_x[0], (9 - 9) + 2 * (pix(1, 0) - 9) + pix(1, 1) - 9);
}

TEST(VisionMeasureKernels, SobelComputesOnlyTheBoundGradientAndNeedsOne) {
  vg::Graph g(context(), "one_gradient");
  const DataId in = g.add_data("in", gray(16, 9));
  const DataId gy = g.add_virtual("gy", DataKind::tensor);
  const DataId out = g.add_data("out", gray(16, 9));
  const vg::NodeId sobel = g.add_node("sobel", "vg.vision.sobel3x3");
  g.bind(sobel, "input", in).bind(sobel, "grad_y", gy);
  const vg::NodeId down = g.add_node("down", "vg.vision.convert_depth_to_gray8");
  g.bind(down, "input", gy).bind(down, "output", out).set_attribute(down, "overflow", std::string("wrap"));
  g.verify();
  const vg::ImageView img = g.image(in);
  for (std::uint32_t y = 0; y < 9; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) img.plane(0)[y * img.stride(0) + x] = static_cast<std::uint8_t>(10 * y);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  EXPECT_EQ(at(g.image(out), 5, 4), 80) << "4 * 2 * 10 rows apart, wrapped to 8 bits";
  EXPECT_EQ(at(g.image(out), 5, 0), 40) << "replicated top row: (10 - 0) * 4";

  vg::Graph none(context(), "no_gradient");
  const vg::NodeId n = none.add_node("sobel", "vg.vision.sobel3x3");
  none.bind(n, "input", none.add_data("in", gray(16, 9)));
  const std::string error = verify_error(none);
  EXPECT_NE(error.find("'sobel'"), std::string::npos) << error;
  EXPECT_NE(error.find("grad_x"), std::string::npos) << error;
}

TEST(VisionMeasureKernels, ConvertDepthUpShiftsAndRefusesABadShift) {
  vg::Graph g(context(), "up");
  const DataId in = g.add_data("in", gray(8, 3)), out = g.add_data("out", s16(8, 3));
  const vg::NodeId up = g.add_node("up", "vg.vision.convert_depth_to_s16");
  g.bind(up, "input", in).bind(up, "output", out).set_attribute(up, "shift", std::int64_t{3});
  g.verify();
  fill_random(g.image(in), 5);
  ASSERT_EQ(g.process(), vg::Status::ok);
  for (std::uint32_t i = 0; i < 24; ++i) EXPECT_EQ(g.tensor(out).data_as<std::int16_t>()[i], at(g.image(in), i % 8, i / 8) << 3);

  vg::Graph bad(context(), "bad_shift");
  const vg::NodeId n = bad.add_node("up", "vg.vision.convert_depth_to_s16");
  bad.bind(n, "input", bad.add_data("in", gray(8, 3))).bind(n, "output", bad.add_virtual("out", DataKind::tensor)).set_attribute(n, "shift", std::int64_t{8});
  const std::string error = verify_error(bad);
  EXPECT_NE(error.find("shift"), std::string::npos) << error;
}

TEST(VisionMeasureKernels, GradientInputsMustBeS16PlanesOfOneShape) {
  const auto error_for = [](const DataMeta& x, const DataMeta& y) {
    vg::Graph g(context(), "bad_gradients");
    const vg::NodeId m = g.add_node("mag", "vg.vision.magnitude");
    g.bind(m, "grad_x", g.add_data("gx", x)).bind(m, "grad_y", g.add_data("gy", y)).bind(m, "output", g.add_virtual("out", DataKind::tensor));
    return verify_error(g);
  };
  std::string error = error_for(DataMeta::tensor_of({4, 5, 1}, ElementType::i16), s16(5, 4));
  EXPECT_NE(error.find("grad_x"), std::string::npos) << error;
  EXPECT_NE(error.find("S16 plane"), std::string::npos) << error;
  error = error_for(s16(5, 4), DataMeta::tensor_of({4, 5}, ElementType::f32));
  EXPECT_NE(error.find("grad_y"), std::string::npos) << error;
  error = error_for(s16(5, 4), s16(5, 3));
  EXPECT_NE(error.find("one shape"), std::string::npos) << error;
}

TEST(VisionMeasureKernels, IntegralImageSumsAboveAndLeft) {
  vg::Graph g(context(), "integral");
  const DataId in = g.add_data("in", gray(13, 7));
  const DataId out = g.add_virtual("out", DataKind::tensor);
  const vg::NodeId n = g.add_node("integral", "vg.vision.integral_image");
  g.bind(n, "input", in).bind(n, "output", out);
  g.verify();
  fill_random(g.image(in), 8);
  ASSERT_EQ(g.process(), vg::Status::ok);
  ASSERT_EQ(g.tensor(out).meta().type, ElementType::u32);
  const auto* sums = g.tensor(out).data_as<std::uint32_t>();
  for (std::uint32_t y = 0; y < 7; ++y)
    for (std::uint32_t x = 0; x < 13; ++x) {
      std::uint32_t expected = 0;
      for (std::uint32_t yy = 0; yy <= y; ++yy)
        for (std::uint32_t xx = 0; xx <= x; ++xx) expected += at(g.image(in), xx, yy);
      ASSERT_EQ(sums[y * 13 + x], expected) << x << "," << y;
    }
}

TEST(VisionMeasureKernels, HistogramCountsEachBinAndChecksItsShape) {
  vg::Graph g(context(), "histogram");
  const DataId in = g.add_data("in", gray(31, 17));
  const DataId out = g.add_virtual("out", DataKind::tensor);
  const vg::NodeId n = g.add_node("histogram", "vg.vision.histogram");
  g.bind(n, "input", in).bind(n, "output", out);
  g.set_attribute(n, "bins", std::int64_t{12}).set_attribute(n, "offset", std::int64_t{20}).set_attribute(n, "range", std::int64_t{200});
  g.verify();
  fill_random(g.image(in), 13);
  ASSERT_EQ(g.process(), vg::Status::ok);
  ASSERT_EQ(g.tensor(out).meta().dims[0], 12);
  std::vector<std::uint32_t> expected(12);
  for (std::uint32_t y = 0; y < 17; ++y)
    for (std::uint32_t x = 0; x < 31; ++x) {
      const int v = at(g.image(in), x, y);
      if (v >= 20 && v < 220) ++expected[static_cast<std::size_t>((v - 20) * 12 / 200)];
    }
  for (std::size_t b = 0; b < 12; ++b) EXPECT_EQ(g.tensor(out).data_as<std::uint32_t>()[b], expected[b]) << b;

  for (const auto& [bins, offset, range, key] : {std::tuple{300, 0, 256, "bins"}, std::tuple{20, 10, 10, "bins"},
                                                 std::tuple{16, 100, 200, "range"}, std::tuple{16, 256, 1, "offset"}}) {
    vg::Graph bad(context(), "bad_histogram");
    const vg::NodeId h = bad.add_node("histogram", "vg.vision.histogram");
    bad.bind(h, "input", bad.add_data("in", gray(8, 8))).bind(h, "output", bad.add_virtual("out", DataKind::tensor));
    bad.set_attribute(h, "bins", std::int64_t{bins}).set_attribute(h, "offset", std::int64_t{offset}).set_attribute(h, "range", std::int64_t{range});
    const std::string error = verify_error(bad);
    EXPECT_NE(error.find(std::string("'") + key + "'"), std::string::npos) << bins << " " << offset << " " << range << ": " << error;
  }
}

TEST(VisionMeasureKernels, MeanAndStandardDeviation) {
  vg::Graph g(context(), "stats");
  const DataId in = g.add_data("in", gray(29, 11));
  const DataId mean = g.add_data("mean", DataMeta::scalar_of(ElementType::f32));
  const DataId stddev = g.add_data("stddev", DataMeta::scalar_of(ElementType::f32));
  const vg::NodeId n = g.add_node("stats", "vg.vision.mean_stddev");
  g.bind(n, "input", in).bind(n, "mean", mean).bind(n, "stddev", stddev);
  g.verify();
  fill_random(g.image(in), 21);
  ASSERT_EQ(g.process(), vg::Status::ok);
  double sum = 0, squares = 0;
  for (std::uint32_t y = 0; y < 11; ++y)
    for (std::uint32_t x = 0; x < 29; ++x) {
      const double v = at(g.image(in), x, y);
      sum += v;
      squares += v * v;
    }
  const double n_pixels = 29 * 11, m = sum / n_pixels;
  EXPECT_EQ(g.scalar(mean).get<float>(), static_cast<float>(m));
  EXPECT_NEAR(g.scalar(stddev).get<float>(), std::sqrt(squares / n_pixels - m * m), 1e-4);
}

// The extrema, their counts (all of them) and positions (the first `capacity`, raster order).
TEST(VisionMeasureKernels, MinMaxLocFindsTheExtremaWhereTheyAre) {
  vg::Graph g(context(), "extrema");
  const DataId in = g.add_data("in", gray(20, 10));
  const DataId min = g.add_data("min", DataMeta::scalar_of(ElementType::i32));
  const DataId max = g.add_data("max", DataMeta::scalar_of(ElementType::i32));
  const DataId min_at = g.add_virtual("min_at", DataKind::array), max_at = g.add_virtual("max_at", DataKind::array);
  const DataId min_count = g.add_data("min_count", DataMeta::scalar_of(ElementType::u32));
  const vg::NodeId n = g.add_node("extrema", "vg.vision.min_max_loc");
  g.bind(n, "input", in).bind(n, "min", min).bind(n, "max", max).bind(n, "min_locations", min_at).bind(n, "max_locations", max_at);
  g.bind(n, "min_count", min_count).set_attribute(n, "capacity", std::int64_t{2});
  g.verify();
  const vg::ImageView img = g.image(in);
  for (std::uint32_t y = 0; y < 10; ++y)
    for (std::uint32_t x = 0; x < 20; ++x) img.plane(0)[y * img.stride(0) + x] = 50;
  img.plane(0)[3 * img.stride(0) + 7] = 4;
  img.plane(0)[1 * img.stride(0) + 15] = 4;
  img.plane(0)[8 * img.stride(0) + 2] = 4;
  img.plane(0)[6 * img.stride(0) + 19] = 201;
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_EQ(g.scalar(min).get<std::int32_t>(), 4);
  EXPECT_EQ(g.scalar(max).get<std::int32_t>(), 201);
  EXPECT_EQ(g.scalar(min_count).get<std::uint32_t>(), 3u) << "every one counted, also past the capacity";
  const vg::ArrayView<vv::PixelPosition> mins = g.array<vv::PixelPosition>(min_at);
  ASSERT_EQ(mins.size(), 2u);
  EXPECT_EQ(mins[0].x, 15u);
  EXPECT_EQ(mins[0].y, 1u);
  EXPECT_EQ(mins[1].x, 7u);
  EXPECT_EQ(mins[1].y, 3u);
  const vg::ArrayView<vv::PixelPosition> maxs = g.array<vv::PixelPosition>(max_at);
  ASSERT_EQ(maxs.size(), 1u);
  EXPECT_EQ(maxs[0].x, 19u);
  EXPECT_EQ(maxs[0].y, 6u);
}

// The S16 forms: the extrema of a gradient and where they are; the element-wise min and max of two.
TEST(VisionMeasureKernels, S16ExtremaMinAndMax) {
  constexpr std::uint32_t W = 23, H = 14;
  vg::Graph g(context(), "s16");
  const DataId in = g.add_data("in", gray(W, H));
  const DataId gx = g.add_data("gx", s16(W, H)), gy = g.add_data("gy", s16(W, H)), lo = g.add_data("lo", s16(W, H)), hi = g.add_data("hi", s16(W, H));
  const DataId min = g.add_data("min", DataMeta::scalar_of(ElementType::i32)), max_at = g.add_virtual("max_at", DataKind::array);
  const DataId max_count = g.add_data("max_count", DataMeta::scalar_of(ElementType::u32));
  const vg::NodeId sobel = g.add_node("sobel", "vg.vision.sobel3x3");
  g.bind(sobel, "input", in).bind(sobel, "grad_x", gx).bind(sobel, "grad_y", gy);
  const vg::NodeId loc = g.add_node("extrema", "vg.vision.min_max_loc_s16");
  g.bind(loc, "input", gx).bind(loc, "min", min).bind(loc, "max_locations", max_at).bind(loc, "max_count", max_count);
  const vg::NodeId mn = g.add_node("lo", "vg.vision.min_s16");
  g.bind(mn, "in1", gx).bind(mn, "in2", gy).bind(mn, "out", lo);
  const vg::NodeId mx = g.add_node("hi", "vg.vision.max_s16");
  g.bind(mx, "in1", gx).bind(mx, "in2", gy).bind(mx, "out", hi);
  g.verify();
  fill_random(g.image(in), 23);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  const auto* x = g.tensor(gx).data_as<std::int16_t>();
  const auto* y = g.tensor(gy).data_as<std::int16_t>();
  const std::int16_t lowest = *std::min_element(x, x + W * H), highest = *std::max_element(x, x + W * H);
  EXPECT_EQ(g.scalar(min).get<std::int32_t>(), lowest);
  const auto count = static_cast<std::uint32_t>(std::count(x, x + W * H, highest));
  EXPECT_EQ(g.scalar(max_count).get<std::uint32_t>(), count);
  const vg::ArrayView<vv::PixelPosition> at_max = g.array<vv::PixelPosition>(max_at);
  ASSERT_EQ(at_max.size(), count);
  for (const vv::PixelPosition& p : at_max) EXPECT_EQ(x[p.y * W + p.x], highest);
  for (std::uint32_t i = 0; i < W * H; ++i) {
    ASSERT_EQ(g.tensor(lo).data_as<std::int16_t>()[i], std::min(x[i], y[i])) << i;
    ASSERT_EQ(g.tensor(hi).data_as<std::int16_t>()[i], std::max(x[i], y[i])) << i;
  }
}

// A template cut from the image matches perfectly (l2 = 0) where it was cut; every score is the library's.
TEST(VisionMeasureKernels, MatchTemplateScoresEveryPlacement) {
  constexpr std::uint32_t W = 40, H = 30, w = 7, h = 5;
  vg::Graph g(context(), "match");
  const DataId in = g.add_data("in", gray(W, H)), templ = g.add_data("templ", gray(w, h));
  const DataId out = g.add_virtual("scores", DataKind::tensor);
  const vg::NodeId n = g.add_node("match", "vg.vision.match_template");
  g.bind(n, "input", in).bind(n, "template", templ).bind(n, "output", out).set_attribute(n, "method", std::string("l2"));
  g.verify();
  const vg::ImageView img = g.image(in), t = g.image(templ);
  fill_random(img, 34);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) t.plane(0)[y * t.stride(0) + x] = at(img, x + 11, y + 6);
  ASSERT_EQ(g.process(), vg::Status::ok);
  const vg::TensorMeta& shape = g.tensor(out).meta();
  ASSERT_EQ(shape.dims[0], H - h + 1);
  ASSERT_EQ(shape.dims[1], W - w + 1);
  const auto* scores = g.tensor(out).data_as<std::int16_t>();
  EXPECT_EQ(scores[6 * (W - w + 1) + 11], 0);
  std::vector<std::int16_t> expected((W - w + 1) * (H - h + 1));
  ASSERT_TRUE(vv::match_template(plane_of(img), plane_of(t), vv::CompareMethod::l2, s16_of(expected, W - w + 1, H - h + 1)));
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(scores[i], expected[i]) << i;

  vg::Graph bad(context(), "big_template");
  const vg::NodeId b = bad.add_node("match", "vg.vision.match_template");
  bad.bind(b, "input", bad.add_data("in", gray(8, 8))).bind(b, "template", bad.add_data("t", gray(9, 2)));
  bad.bind(b, "output", bad.add_virtual("out", DataKind::tensor));
  const std::string error = verify_error(bad);
  EXPECT_NE(error.find("template"), std::string::npos) << error;
}

// Two Laplacian levels and their reconstruction give the image back exactly; each level is the library's.
TEST(VisionMeasureKernels, LaplacianLevelsAndTheirReconstructionRoundTrip) {
  constexpr std::uint32_t W = 45, H = 31;
  vg::Graph g(context(), "laplacian");
  const DataId in = g.add_data("in", gray(W, H)), back = g.add_data("back", gray(W, H));
  const DataId g1 = g.add_virtual("g1", DataKind::image), g2 = g.add_data("g2", gray(12, 8));
  const DataId l0 = g.add_data("l0", s16(W, H)), l1 = g.add_virtual("l1", DataKind::tensor), r1 = g.add_virtual("r1", DataKind::image);
  const vg::NodeId a = g.add_node("level0", "vg.vision.laplacian_level");
  g.bind(a, "input", in).bind(a, "coarse", g1).bind(a, "laplacian", l0);
  const vg::NodeId b = g.add_node("level1", "vg.vision.laplacian_level");
  g.bind(b, "input", g1).bind(b, "coarse", g2).bind(b, "laplacian", l1);
  const vg::NodeId c = g.add_node("rebuild1", "vg.vision.laplacian_reconstruct_level");
  g.bind(c, "coarse", g2).bind(c, "laplacian", l1).bind(c, "output", r1);
  const vg::NodeId d = g.add_node("rebuild0", "vg.vision.laplacian_reconstruct_level");
  g.bind(d, "coarse", r1).bind(d, "laplacian", l0).bind(d, "output", back);
  g.verify();
  fill_random(g.image(in), 17);
  ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  for (std::uint32_t y = 0; y < H; ++y)
    for (std::uint32_t x = 0; x < W; ++x) ASSERT_EQ(at(g.image(back), x, y), at(g.image(in), x, y)) << x << "," << y;
  std::vector<std::uint8_t> coarse(23 * 16);
  std::vector<std::int16_t> expected(W * H);
  ASSERT_TRUE(vv::laplacian_level(plane_of(g.image(in)), {coarse.data(), 23, 16, 23}, s16_of(expected, W, H)));
  for (std::uint32_t i = 0; i < W * H; ++i) ASSERT_EQ(g.tensor(l0).data_as<std::int16_t>()[i], expected[i]) << i;

  vg::Graph bad(context(), "mismatch");
  const vg::NodeId n = bad.add_node("rebuild", "vg.vision.laplacian_reconstruct_level");
  bad.bind(n, "coarse", bad.add_data("c", gray(10, 10))).bind(n, "laplacian", bad.add_data("l", s16(40, 20)));
  bad.bind(n, "output", bad.add_virtual("o", DataKind::image));
  const std::string error = verify_error(bad);
  EXPECT_NE(error.find("coarse"), std::string::npos) << error;
  EXPECT_NE(error.find("20x10"), std::string::npos) << error;
}

TEST(VisionMeasureKernels, WeightedAverageMinAndMaxPixelByPixel) {
  vg::Graph g(context(), "pairs");
  const DataId a = g.add_data("a", gray(19, 5)), b = g.add_data("b", gray(19, 5));
  const DataId avg = g.add_data("avg", gray(19, 5)), lo = g.add_data("lo", gray(19, 5)), hi = g.add_data("hi", gray(19, 5));
  const vg::NodeId w = g.add_node("avg", "vg.vision.weighted_average");
  g.bind(w, "in1", a).bind(w, "in2", b).bind(w, "out", avg).set_attribute(w, "alpha", 0.25);
  const vg::NodeId mn = g.add_node("lo", "vg.vision.min");
  g.bind(mn, "in1", a).bind(mn, "in2", b).bind(mn, "out", lo);
  const vg::NodeId mx = g.add_node("hi", "vg.vision.max");
  g.bind(mx, "in1", a).bind(mx, "in2", b).bind(mx, "out", hi);
  g.verify();
  fill_random(g.image(a), 1);
  fill_random(g.image(b), 2);
  ASSERT_EQ(g.process(), vg::Status::ok);
  for (std::uint32_t y = 0; y < 5; ++y)
    for (std::uint32_t x = 0; x < 19; ++x) {
      const std::uint8_t va = at(g.image(a), x, y), vb = at(g.image(b), x, y);
      EXPECT_EQ(at(g.image(avg), x, y), static_cast<std::uint8_t>(0.25f * va + 0.75f * vb)) << x << "," << y;
      EXPECT_EQ(at(g.image(lo), x, y), std::min(va, vb));
      EXPECT_EQ(at(g.image(hi), x, y), std::max(va, vb));
    }

  vg::Graph bad(context(), "bad_alpha");
  const vg::NodeId n = bad.add_node("avg", "vg.vision.weighted_average");
  bad.bind(n, "in1", bad.add_data("a", gray(4, 4))).bind(n, "in2", bad.add_data("b", gray(4, 4))).bind(n, "out", bad.add_virtual("o", DataKind::image));
  bad.set_attribute(n, "alpha", 1.5);
  const std::string error = verify_error(bad);
  EXPECT_NE(error.find("alpha"), std::string::npos) << error;
}

}  // namespace
