// The vision functions (kernels/vision, what the vg.vision kernels and libopenvx's 3x3 filters run) beside
// OpenCV's function for the same work, one thread each, in the same run, at 1920x1080 and 640x480; and the
// same functions forced onto Highway's portable (non-vector) path, to show what the SIMD brings. Also
// IntegralImage (cv::integral, 32-bit sums), MinMaxLoc (extrema, their counts and one place each, against
// cv::minMaxLoc), MatchTemplate (L2 with an 8x8 template, S16 scores, against cv::matchTemplate TM_SQDIFF,
// float scores) and FastCorners (threshold 20, non-maximum suppression on, against cv::FAST with the same
// threshold and suppression, on smoothed noise, which has corners the way a picture has; the two score and
// suppress differently, so the corner counts in the labels differ a little).
//   ./build/bench/bench_vision --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// OpenCV's GaussianBlur and blur round where OpenVX truncates; erode, dilate, medianBlur, threshold and
// cvtColor compute the same bytes (tests/vision proves it for erode, dilate, median and cvtColor); so do add,
// absdiff, bitwise_and and Sobel (16-bit, replicated border). OpenCV has no 16-bit magnitude: its float
// cv::magnitude is the nearest same work.
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#ifdef VG_BENCH_OPENCV_FEATURES
#include <opencv2/features2d.hpp>
#endif

#include <random>
#include <string>
#include <vector>

#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/fast_corners.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"
#include "visiongraph/kernels/vision/gradients.hpp"
#include "visiongraph/kernels/vision/match_template.hpp"
#include "visiongraph/kernels/vision/statistics.hpp"
#include "visiongraph/kernels/vision/simd.hpp"
#include "visiongraph/kernels/vision/threshold.hpp"
#include "visiongraph/kernels/vision/to_gray.hpp"

namespace {

using namespace vg::vision;  // NOLINT: bench brevity

enum class Work {
  gaussian, box, median, erode, dilate, threshold, to_gray, add, absdiff, bitwise_and, sobel, magnitude,
  integral, min_max_loc, match_template, fast_corners
};
constexpr int kWorks = 16;
constexpr int kFastThreshold = 20;
enum class Impl { vision, opencv, vision_portable };

constexpr int kSizes[][2] = {{1920, 1080}, {640, 480}};

cv::Mat random_mat(int w, int h, int type) {
  cv::Mat m(h, w, type);
  std::mt19937 rng(7);
  for (auto it = m.datastart; it != m.dataend; ++it) *const_cast<uchar*>(it) = static_cast<uchar>(rng());
  return m;
}

/// The second operand and the outputs of the two-input and gradient functions, made outside the loop.
struct Extra {
  cv::Mat gray2, gx, gy, gx_f32, gy_f32, out16, out_f32;
  cv::Mat sums;            // integral: U32 (vision) or S32 (OpenCV: the same bits), (h+1) x (w+1) for OpenCV
  cv::Mat templ, scores;   // match_template: an 8x8 patch of the frame; S16 (vision) or F32 (OpenCV)
  cv::Mat scene;           // fast_corners: smoothed noise
  std::vector<std::uint8_t> fast_scratch;
  std::vector<FastCorner> fast_corners;  // room for a corner at every pixel, as an OpenVX array of open capacity
  std::vector<cv::KeyPoint> keypoints;  // cv::FAST's output, kept between calls as a caller would
  std::size_t found = 0;
};

vg::vision::Pixels pixels16(cv::Mat& m) {
  return {m.data, static_cast<std::uint32_t>(m.cols), static_cast<std::uint32_t>(m.rows), static_cast<std::ptrdiff_t>(m.step), PixelType::s16};
}
vg::vision::ConstPixels pixels8(const cv::Mat& m) {
  return {m.data, static_cast<std::uint32_t>(m.cols), static_cast<std::uint32_t>(m.rows), static_cast<std::ptrdiff_t>(m.step), PixelType::u8};
}

void run_vision(Work work, const cv::Mat& gray, const cv::Mat& bgr, cv::Mat& out, Extra& e) {
  const ConstPlane in{gray.data, static_cast<std::uint32_t>(gray.cols), static_cast<std::uint32_t>(gray.rows), static_cast<std::ptrdiff_t>(gray.step)};
  const Plane o{out.data, static_cast<std::uint32_t>(out.cols), static_cast<std::uint32_t>(out.rows), static_cast<std::ptrdiff_t>(out.step)};
  switch (work) {
    case Work::gaussian: return filter3x3(Filter3x3::gaussian, in, o);
    case Work::box: return filter3x3(Filter3x3::box, in, o);
    case Work::median: return filter3x3(Filter3x3::median, in, o);
    case Work::erode: return filter3x3(Filter3x3::erode, in, o);
    case Work::dilate: return filter3x3(Filter3x3::dilate, in, o);
    case Work::threshold: return threshold(Threshold{}, in, o);
    case Work::to_gray:
      return to_gray({bgr.data, static_cast<std::uint32_t>(bgr.cols), static_cast<std::uint32_t>(bgr.rows), static_cast<std::ptrdiff_t>(bgr.step), true}, o);
    case Work::add: arithmetic(Arithmetic::add, pixels8(gray), pixels8(e.gray2), pixels_of(o), Overflow::saturate); return;
    case Work::absdiff: arithmetic(Arithmetic::absdiff, pixels8(gray), pixels8(e.gray2), pixels_of(o), Overflow::saturate); return;
    case Work::bitwise_and: return bitwise(Bitwise::and_, in, {e.gray2.data, in.width, in.height, static_cast<std::ptrdiff_t>(e.gray2.step)}, o);
    case Work::sobel: return sobel3x3(in, pixels16(e.gx), pixels16(e.gy));
    case Work::magnitude: return magnitude(pixels16(e.gx), pixels16(e.gy), pixels16(e.out16));
    case Work::integral:
      return integral(in, {reinterpret_cast<std::uint32_t*>(e.sums.data), in.width, in.height, static_cast<std::ptrdiff_t>(e.sums.step)});
    case Work::min_max_loc: {  // MinMaxLoc with one place of each, as cv::minMaxLoc gives
      const Extrema x = extrema(pixels8(gray));
      PixelPosition low{}, high{};
      (void)locate(pixels8(gray), x.min, &low, 1);
      (void)locate(pixels8(gray), x.max, &high, 1);
      benchmark::DoNotOptimize(low);
      benchmark::DoNotOptimize(high);
      return;
    }
    case Work::match_template: {
      const ConstPlane t{e.templ.data, 8, 8, static_cast<std::ptrdiff_t>(e.templ.step)};
      (void)match_template(in, t, CompareMethod::l2, pixels16(e.scores));
      return;
    }
    case Work::fast_corners: {
      const ConstPlane scene{e.scene.data, in.width, in.height, static_cast<std::ptrdiff_t>(e.scene.step)};
      (void)vg::vision::fast_corners(scene, {kFastThreshold, true}, e.fast_scratch, std::span<FastCorner>(e.fast_corners), e.found);
      return;
    }
  }
}

void run_opencv(Work work, const cv::Mat& gray, const cv::Mat& bgr, cv::Mat& out, Extra& e) {
  static const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  switch (work) {
    case Work::gaussian: return cv::GaussianBlur(gray, out, {3, 3}, 0, 0, cv::BORDER_REPLICATE);
    case Work::box: return cv::blur(gray, out, {3, 3}, {-1, -1}, cv::BORDER_REPLICATE);
    case Work::median: return cv::medianBlur(gray, out, 3);
    case Work::erode: return cv::erode(gray, out, kernel, {-1, -1}, 1, cv::BORDER_REPLICATE);
    case Work::dilate: return cv::dilate(gray, out, kernel, {-1, -1}, 1, cv::BORDER_REPLICATE);
    case Work::threshold: cv::threshold(gray, out, 127, 255, cv::THRESH_BINARY); return;
    case Work::to_gray: return cv::cvtColor(bgr, out, cv::COLOR_BGR2GRAY);
    case Work::add: return cv::add(gray, e.gray2, out);
    case Work::absdiff: return cv::absdiff(gray, e.gray2, out);
    case Work::bitwise_and: return cv::bitwise_and(gray, e.gray2, out);
    case Work::sobel:
      cv::Sobel(gray, e.gx, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
      cv::Sobel(gray, e.gy, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
      return;
    case Work::magnitude: return cv::magnitude(e.gx_f32, e.gy_f32, e.out_f32);  // OpenCV has no S16 magnitude: float
    case Work::integral: return cv::integral(gray, e.sums, CV_32S);
    case Work::min_max_loc: {
      double low = 0, high = 0;
      cv::Point low_at, high_at;
      cv::minMaxLoc(gray, &low, &high, &low_at, &high_at);
      benchmark::DoNotOptimize(low_at);
      return;
    }
    case Work::match_template: return cv::matchTemplate(gray, e.templ, e.scores, cv::TM_SQDIFF);  // CV_32F scores
    case Work::fast_corners:
#ifdef VG_BENCH_OPENCV_FEATURES
      cv::FAST(e.scene, e.keypoints, kFastThreshold, true);
      e.found = e.keypoints.size();
#endif
      return;
  }
}

void BM_Vision(benchmark::State& state) {
  const auto work = static_cast<Work>(state.range(0));
  const auto impl = static_cast<Impl>(state.range(1));
  const int w = kSizes[state.range(2)][0], h = kSizes[state.range(2)][1];
  cv::setNumThreads(1);
  const cv::Mat gray = random_mat(w, h, CV_8UC1), bgr = random_mat(w, h, CV_8UC3);
  cv::Mat out(h, w, CV_8UC1);
  Extra e;
  e.gray2 = random_mat(w, h, CV_8UC1) / 2 + 64;
  cv::Sobel(gray, e.gx, CV_16S, 1, 0);
  cv::Sobel(gray, e.gy, CV_16S, 0, 1);
  e.gx.convertTo(e.gx_f32, CV_32F);
  e.gy.convertTo(e.gy_f32, CV_32F);
  e.out16.create(h, w, CV_16S);
  if (work == Work::integral) e.sums.create(impl == Impl::opencv ? h + 1 : h, impl == Impl::opencv ? w + 1 : w, CV_32S);
  if (work == Work::match_template) {
    e.templ = gray(cv::Rect(w / 2, h / 2, 8, 8)).clone();
    e.scores.create(h - 7, w - 7, impl == Impl::opencv ? CV_32F : CV_16S);
  }
  if (work == Work::fast_corners) {
    cv::GaussianBlur(gray, e.scene, cv::Size(0, 0), 2.0);
    cv::normalize(e.scene, e.scene, 0, 255, cv::NORM_MINMAX);
    e.fast_scratch.resize(fast_corners_scratch_size(static_cast<std::uint32_t>(w)));
    e.fast_corners.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  }
  if (impl == Impl::vision_portable) {
    for (const SimdTarget& t : simd_targets())
      if (t.name == "EMU128" || t.name == "SCALAR") force_simd_target(t.id);
  }
#ifndef VG_BENCH_OPENCV_FEATURES
  if (work == Work::fast_corners && impl == Impl::opencv) {
    state.SkipWithError("OpenCV without features2d: no cv::FAST");
    return;
  }
#endif
  for (auto _ : state) {
    if (impl == Impl::opencv) {
      run_opencv(work, gray, bgr, out, e);
    } else {
      run_vision(work, gray, bgr, out, e);
    }
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  std::string label = impl == Impl::opencv ? "OpenCV" : impl == Impl::vision ? current_simd_target() : "portable";
  if (work == Work::fast_corners) label += ", " + std::to_string(e.found) + " corners";
  state.SetLabel(label);
  force_simd_target(0);
  state.SetItemsProcessed(state.iterations() * w * h);
}

void Args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"work", "impl", "size"});
  for (int work = 0; work < kWorks; ++work)
    for (int size = 0; size < 2; ++size)
      for (int impl = 0; impl <= 2; ++impl) b->Args({work, impl, size});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_Vision)->Apply(Args);

}  // namespace

BENCHMARK_MAIN();
