#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "visiongraph/kernels/detection/preprocess.hpp"

namespace {

using namespace vg::detection;  // NOLINT: test brevity

cv::Mat random_bgr(int w, int h, unsigned seed) {
  cv::Mat m(h, w, CV_8UC3);
  cv::theRNG().state = seed;
  cv::randu(m, 0, 256);
  return m;
}

// Blurred noise: textured, but with small neighbour differences so that warpAffine's 1/32-pixel fixed-point
// positions stay within a grey level or two of the exact bilinear value.
cv::Mat textured_bgr(int w, int h, unsigned seed) {
  cv::Mat m = random_bgr(w, h, seed);
  cv::GaussianBlur(m, m, cv::Size(0, 0), 2.0);
  return m;
}

cv::Mat smooth_bgr(int w, int h) {
  cv::Mat m(h, w, CV_8UC3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      m.at<cv::Vec3b>(y, x) = cv::Vec3b(static_cast<uchar>(40 + 150 * x / w), static_cast<uchar>(200 - 120 * y / h),
                                        static_cast<uchar>(60 + 100 * (x + y) / (w + h)));
  return m;
}

ImageRef ref_of(const cv::Mat& bgr, PixelFormat f = PixelFormat::bgr24) {
  ImageRef r;
  r.format = f;
  r.width = bgr.cols;
  r.height = bgr.rows;
  r.plane[0] = bgr.data;
  r.stride[0] = bgr.step[0];
  return r;
}

// The same sampling expressed as cv::warpAffine (pixel-centre convention) for comparison.
cv::Mat warp_reference(const cv::Mat& src, const LetterboxGeometry& g) {
  const double s = g.scale;
  cv::Mat m = (cv::Mat_<double>(2, 3) << s, 0, g.pad_x + 0.5 * s - 0.5, 0, s, g.pad_y + 0.5 * s - 0.5);
  cv::Mat dst;
  cv::warpAffine(src, dst, m, cv::Size(g.dst_w, g.dst_h), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return dst;
}

struct Case {
  int sw, sh, dw, dh;
};

class PreprocessSizeTest : public ::testing::TestWithParam<Case> {};

TEST_P(PreprocessSizeTest, U8MatchesWarpAffineInsideAndPadsOutside) {
  const Case c = GetParam();
  const cv::Mat src = textured_bgr(c.sw, c.sh, 1234u + static_cast<unsigned>(c.sw));
  const LetterboxGeometry g = make_letterbox(c.sw, c.sh, c.dw, c.dh);
  PreprocessConfig cfg;
  cfg.format = TensorFormat::u8_nhwc;
  cfg.pad_value = 114;
  cfg.rgb = false;  // keep BGR so the reference needs no channel swap
  Preprocessor pre(g, cfg);
  cv::Mat out(c.dh, c.dw, CV_8UC3, cv::Scalar::all(1));
  ASSERT_TRUE(pre.run(ref_of(src), out.data));
  const cv::Mat want = warp_reference(src, g);
  const float x_lo = g.pad_x, x_hi = g.pad_x + c.sw * g.scale;
  const float y_lo = g.pad_y, y_hi = g.pad_y + c.sh * g.scale;
  int compared = 0;
  for (int y = 0; y < c.dh; ++y) {
    for (int x = 0; x < c.dw; ++x) {
      const float cx = x + 0.5f, cy = y + 0.5f;
      const cv::Vec3b got = out.at<cv::Vec3b>(y, x);
      if (cx < x_lo - 0.01f || cx > x_hi + 0.01f || cy < y_lo - 0.01f || cy > y_hi + 0.01f) {
        ASSERT_EQ(got, cv::Vec3b(114, 114, 114)) << x << "," << y;
      } else if (cx > x_lo + 1 && cx < x_hi - 1 && cy > y_lo + 1 && cy < y_hi - 1) {
        const cv::Vec3b w = want.at<cv::Vec3b>(y, x);
        for (int k = 0; k < 3; ++k) ASSERT_NEAR(got[k], w[k], 2) << x << "," << y;  // warpAffine is 1/32 px fixed point
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, c.dw * c.dh / 10);
}

INSTANTIATE_TEST_SUITE_P(Sizes, PreprocessSizeTest,
                         ::testing::Values(Case{548, 342, 128, 128}, Case{342, 548, 128, 128},
                                           Case{256, 256, 128, 128}, Case{640, 480, 640, 640},
                                           Case{101, 77, 256, 256}, Case{1280, 720, 320, 192},
                                           // exact 2:1 on both axes: the box path
                                           Case{1280, 720, 640, 640}, Case{1280, 720, 640, 384}));

// ------------------------------------------------------------------------------------------------------
// Exact check against the definition, written directly in 2-D: per tensor pixel, the source position of
// its centre on each axis gives two pixels and an 8-bit weight (w1 = round(frac * 256)); the value is
// sum(wx * wy * pixel) / 65536, rounded for u8, mapped for f32. Every code path (separable, 2:1 box,
// AVX2 or portable, word or byte gathers at the right edge) must give these numbers.

struct AxisTap {
  int i0, i1, w1;
};

AxisTap axis_tap(double s, int size) {
  s = std::clamp(s, 0.0, static_cast<double>(size - 1));
  const int i0 = static_cast<int>(std::floor(s));
  return {i0, std::min(i0 + 1, size - 1), static_cast<int>(std::lround((s - i0) * 256.0))};
}

// Content range of one axis: tensor pixels whose centre lies inside the fitted image (1e-3 px slack).
void content_range(float pad, float extent, int dst, int& begin, int& end) {
  begin = std::clamp(static_cast<int>(std::ceil(pad - 0.5f - 1e-3f)), 0, dst);
  end = std::clamp(static_cast<int>(std::floor(pad + extent - 0.5f + 1e-3f)) + 1, begin, dst);
}

struct ExactCase {
  int sw, sh, dw, dh;
};

class PreprocessExactTest : public ::testing::TestWithParam<ExactCase> {};

TEST_P(PreprocessExactTest, EveryFormatOrderAndCodePathMatchesTheDirectBilinearSum) {
  const ExactCase c = GetParam();
  // Exactly sized rows (no stride slack) so that reads past a row's last pixel would show under ASan.
  const cv::Mat src = random_bgr(c.sw, c.sh, 99u + static_cast<unsigned>(c.sw * 7 + c.sh));
  ASSERT_EQ(src.step[0], static_cast<std::size_t>(c.sw) * 3);
  const LetterboxGeometry g = make_letterbox(c.sw, c.sh, c.dw, c.dh);
  int xb = 0, xe = 0, yb = 0, ye = 0;
  content_range(g.pad_x, static_cast<float>(c.sw) * g.scale, c.dw, xb, xe);
  content_range(g.pad_y, static_cast<float>(c.sh) * g.scale, c.dh, yb, ye);
  const float mean[3] = {123.675f, 116.28f, 103.53f}, sd[3] = {58.395f, 57.12f, 57.375f};
  for (TensorFormat f : {TensorFormat::u8_nhwc, TensorFormat::f32_nhwc, TensorFormat::f32_nchw}) {
    for (bool rgb : {false, true}) {
      for (bool simd : {false, true}) {
        PreprocessConfig cfg;
        cfg.format = f;
        cfg.rgb = rgb;
        cfg.simd = simd;
        cfg.pad_value = 114;
        cfg.mapping = rgb ? PixelMapping::mean_std(mean, sd) : PixelMapping::blazeface();
        Preprocessor pre(g, cfg);
        std::vector<std::uint8_t> out(pre.tensor_bytes(), 0xee);
        ASSERT_TRUE(pre.run(ref_of(src), out.data()));
        const auto* u8 = out.data();
        const auto* f32 = reinterpret_cast<const float*>(out.data());
        const std::size_t plane = static_cast<std::size_t>(c.dw) * static_cast<std::size_t>(c.dh);
        for (int y = 0; y < c.dh; ++y) {
          for (int x = 0; x < c.dw; ++x) {
            const bool content = x >= xb && x < xe && y >= yb && y < ye;
            const AxisTap tx = axis_tap((x + 0.5 - g.pad_x) / g.scale - 0.5, c.sw);
            const AxisTap ty = axis_tap((y + 0.5 - g.pad_y) / g.scale - 0.5, c.sh);
            for (int k = 0; k < 3; ++k) {
              const int sc = rgb ? 2 - k : k;  // tensor channel k from source (BGR) channel sc
              auto px = [&](int yy, int xx) { return static_cast<std::int64_t>(src.at<cv::Vec3b>(yy, xx)[sc]); };
              const std::int64_t sum = (px(ty.i0, tx.i0) * (256 - tx.w1) + px(ty.i0, tx.i1) * tx.w1) * (256 - ty.w1) +
                                       (px(ty.i1, tx.i0) * (256 - tx.w1) + px(ty.i1, tx.i1) * tx.w1) * ty.w1;
              const std::size_t pix = static_cast<std::size_t>(y) * static_cast<std::size_t>(c.dw) +
                                      static_cast<std::size_t>(x);
              const std::size_t at = f == TensorFormat::f32_nchw ? static_cast<std::size_t>(k) * plane + pix : pix * 3 + k;
              if (f == TensorFormat::u8_nhwc) {
                const int want = content ? static_cast<int>((sum + 32768) >> 16) : 114;
                ASSERT_EQ(u8[at], want) << "u8 rgb=" << rgb << " simd=" << simd << " at " << x << "," << y << " c" << k;
              } else {
                const float v = content ? static_cast<float>(sum) / 65536.0f : 114.0f;
                const float want = v * cfg.mapping.mul[k] + cfg.mapping.add[k];
                ASSERT_NEAR(f32[at], want, 1e-5f) << "f32 format " << static_cast<int>(f) << " rgb=" << rgb
                                                  << " simd=" << simd << " at " << x << "," << y << " c" << k;
              }
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Geometries, PreprocessExactTest,
    ::testing::Values(ExactCase{548, 342, 128, 128}, ExactCase{1280, 720, 640, 640},  // the benchmarked cases
                      ExactCase{1280, 720, 416, 416}, ExactCase{640, 640, 320, 320},   // not a box; box, no pads
                      ExactCase{1282, 720, 641, 640},                                  // box with an odd tail
                      ExactCase{97, 61, 64, 48}, ExactCase{33, 201, 70, 90},           // odd sizes, upscaling
                      ExactCase{1, 1, 8, 8}, ExactCase{1, 7, 9, 5}, ExactCase{7, 1, 5, 9},  // 1-pixel sources
                      ExactCase{2, 3, 16, 16}, ExactCase{3, 2, 5, 7}));

// The AVX2 code (2:1 box kernel, 256-bit loops) against the portable loops: the same bytes, for every input
// and tensor format, including NV12 and per-channel mappings. Skips on a CPU without AVX2.
TEST(PreprocessTest, Avx2AndPortableCodeGiveIdenticalTensors) {
  const float mean[3] = {123.675f, 116.28f, 103.53f}, sd[3] = {58.395f, 57.12f, 57.375f};
  const Case sizes[] = {{1280, 720, 640, 640}, {548, 342, 128, 128}, {720, 528, 256, 256}, {101, 77, 256, 256}};
  bool any_avx2 = false;
  for (const Case& c : sizes) {
    const cv::Mat bgr = random_bgr(c.sw, c.sh, 11u + static_cast<unsigned>(c.sw));
    // NV12 of any size: a chroma row holds (w+1)/2 U,V pairs, there are (h+1)/2 of them.
    const std::size_t luma = static_cast<std::size_t>(c.sw * c.sh);
    const std::size_t chroma_stride = 2 * static_cast<std::size_t>((c.sw + 1) / 2);
    std::vector<std::uint8_t> nv12(luma + chroma_stride * static_cast<std::size_t>((c.sh + 1) / 2));
    cv::Mat nv12_bytes(1, static_cast<int>(nv12.size()), CV_8UC1, nv12.data());
    cv::randu(nv12_bytes, 0, 256);
    ImageRef yuv;
    yuv.format = PixelFormat::nv12;
    yuv.width = c.sw;
    yuv.height = c.sh;
    yuv.plane[0] = nv12.data();
    yuv.stride[0] = static_cast<std::size_t>(c.sw);
    yuv.plane[1] = nv12.data() + luma;
    yuv.stride[1] = chroma_stride;
    const LetterboxGeometry g = make_letterbox(c.sw, c.sh, c.dw, c.dh);
    for (TensorFormat f : {TensorFormat::u8_nhwc, TensorFormat::f32_nhwc, TensorFormat::f32_nchw}) {
      for (int mapping = 0; mapping < 3; ++mapping) {
        for (const ImageRef& img : {ref_of(bgr), ref_of(bgr, PixelFormat::rgb24), yuv}) {
          PreprocessConfig cfg;
          cfg.format = f;
          cfg.pad_value = 7;
          cfg.mapping = mapping == 0   ? PixelMapping::blazeface()
                        : mapping == 1 ? PixelMapping::unit()
                                       : PixelMapping::mean_std(mean, sd);
          Preprocessor simd(g, cfg);
          cfg.simd = false;
          Preprocessor portable(g, cfg);
          EXPECT_FALSE(portable.uses_avx2());
          any_avx2 = any_avx2 || simd.uses_avx2();
          std::vector<std::uint8_t> a(simd.tensor_bytes(), 1), b(portable.tensor_bytes(), 2);
          ASSERT_TRUE(simd.run(img, a.data()));
          ASSERT_TRUE(portable.run(img, b.data()));
          ASSERT_EQ(a, b) << c.sw << "x" << c.sh << " -> " << c.dw << "x" << c.dh << " format "
                          << static_cast<int>(f) << " mapping " << mapping << " input "
                          << static_cast<int>(img.format);
        }
      }
    }
  }
  if (!any_avx2) GTEST_SKIP() << "this CPU has no AVX2: only the portable code ran";
}

TEST(PreprocessTest, BlazeFaceMappingGivesMinusOnePaddingAndRgbOrder) {
  cv::Mat src(100, 200, CV_8UC3, cv::Scalar(10, 20, 255));  // B G R
  const LetterboxGeometry g = make_letterbox(200, 100, 128, 128);
  PreprocessConfig cfg;  // f32 NHWC, blazeface mapping, pad 0, RGB
  Preprocessor pre(g, cfg);
  std::vector<float> t(128 * 128 * 3, 7.0f);
  ASSERT_TRUE(pre.run(ref_of(src), t.data()));
  EXPECT_FLOAT_EQ(t[0], -1.0f);  // row 0 is padding
  const std::size_t mid = (64 * 128 + 64) * 3;
  EXPECT_NEAR(t[mid + 0], 255 / 127.5f - 1, 1e-5f);  // R first
  EXPECT_NEAR(t[mid + 1], 20 / 127.5f - 1, 1e-5f);
  EXPECT_NEAR(t[mid + 2], 10 / 127.5f - 1, 1e-5f);
  EXPECT_EQ(pre.tensor_bytes(), t.size() * sizeof(float));
}

TEST(PreprocessTest, NchwIsTheTransposeOfNhwcAndMeanStdApplies) {
  const cv::Mat src = random_bgr(90, 60, 5);
  const LetterboxGeometry g = make_letterbox(90, 60, 32, 32);
  PreprocessConfig a;
  a.format = TensorFormat::f32_nhwc;
  const float mean[3] = {123.675f, 116.28f, 103.53f}, sd[3] = {58.395f, 57.12f, 57.375f};
  a.mapping = PixelMapping::mean_std(mean, sd);
  PreprocessConfig b = a;
  b.format = TensorFormat::f32_nchw;
  PreprocessConfig u = a;
  u.format = TensorFormat::u8_nhwc;
  std::vector<float> ta(32 * 32 * 3), tb(32 * 32 * 3);
  std::vector<std::uint8_t> tu(32 * 32 * 3);
  ASSERT_TRUE(Preprocessor(g, a).run(ref_of(src), ta.data()));
  ASSERT_TRUE(Preprocessor(g, b).run(ref_of(src), tb.data()));
  ASSERT_TRUE(Preprocessor(g, u).run(ref_of(src), tu.data()));
  for (int p = 0; p < 32 * 32; ++p)
    for (int c = 0; c < 3; ++c) {
      ASSERT_FLOAT_EQ(ta[static_cast<std::size_t>(p * 3 + c)], tb[static_cast<std::size_t>(c * 1024 + p)]);
      const float v = ta[static_cast<std::size_t>(p * 3 + c)] * sd[c] + mean[c];
      ASSERT_NEAR(v, tu[static_cast<std::size_t>(p * 3 + c)], 0.51f);
    }
}

TEST(PreprocessTest, Nv12MatchesConvertedBgrWithinChromaSamplingError) {
  const int w = 320, h = 240;
  const cv::Mat bgr = smooth_bgr(w, h);
  cv::Mat i420;
  cv::cvtColor(bgr, i420, cv::COLOR_BGR2YUV_I420);
  // I420 -> NV12: Y plane as is, then U and V interleaved.
  std::vector<std::uint8_t> nv12(static_cast<std::size_t>(w * h * 3 / 2));
  std::copy(i420.data, i420.data + w * h, nv12.begin());
  const std::uint8_t* u = i420.data + w * h;
  const std::uint8_t* v = u + w * h / 4;
  for (int k = 0; k < w * h / 4; ++k) {
    nv12[static_cast<std::size_t>(w * h + 2 * k)] = u[k];
    nv12[static_cast<std::size_t>(w * h + 2 * k + 1)] = v[k];
  }
  cv::Mat nv12_mat(h * 3 / 2, w, CV_8UC1, nv12.data());
  cv::Mat back;
  cv::cvtColor(nv12_mat, back, cv::COLOR_YUV2BGR_NV12);

  const LetterboxGeometry g = make_letterbox(w, h, 128, 128);
  PreprocessConfig cfg;
  cfg.format = TensorFormat::u8_nhwc;
  ImageRef img;
  img.format = PixelFormat::nv12;
  img.width = w;
  img.height = h;
  img.plane[0] = nv12.data();
  img.stride[0] = static_cast<std::size_t>(w);
  img.plane[1] = nv12.data() + w * h;
  img.stride[1] = static_cast<std::size_t>(w);
  std::vector<std::uint8_t> a(128 * 128 * 3), b(128 * 128 * 3);
  ASSERT_TRUE(Preprocessor(g, cfg).run(img, a.data()));
  ASSERT_TRUE(Preprocessor(g, cfg).run(ref_of(back), b.data()));
  int worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  EXPECT_LE(worst, 6);
}

TEST(PreprocessTest, RejectsAnImageOfTheWrongSize) {
  const cv::Mat src = random_bgr(50, 40, 3);
  Preprocessor pre(make_letterbox(60, 40, 32, 32), PreprocessConfig{});
  std::vector<float> t(32 * 32 * 3);
  EXPECT_FALSE(pre.run(ref_of(src), t.data()));
  EXPECT_THROW(Preprocessor(make_letterbox(0, 40, 32, 32), PreprocessConfig{}), std::invalid_argument);
}

}  // namespace
