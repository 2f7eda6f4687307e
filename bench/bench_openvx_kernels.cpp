// Standard OpenVX kernels of this library beside OpenCV's functions for the same work, in the same run:
// a 640x480 U8 frame through vxProcessGraph of a one-node graph (Gaussian3x3, Median3x3, Box3x3 with a
// replicated border; Add with saturation) and through cv::GaussianBlur, cv::medianBlur, cv::blur, cv::add.
// The roundings differ slightly (the OpenVX kernels follow the Khronos conformance references): this
// measures speed only.
//   ./build/bench/bench_openvx_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <VX/vx.h>
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <random>

namespace {

constexpr vx_uint32 kWidth = 640, kHeight = 480;

enum class Work { gaussian, median, box, add };

/// A random U8 image (OpenCV) and the same pixels in a vx_image.
cv::Mat random_frame(unsigned seed) {
  cv::Mat m(kHeight, kWidth, CV_8UC1);
  std::mt19937 rng(seed);
  for (int y = 0; y < m.rows; ++y) {
    for (int x = 0; x < m.cols; ++x) m.at<vx_uint8>(y, x) = static_cast<vx_uint8>(rng());
  }
  return m;
}

vx_image image_of(vx_context context, const cv::Mat& m) {
  vx_image image = vxCreateImage(context, kWidth, kHeight, VX_DF_IMAGE_U8);
  const vx_rectangle_t all{0, 0, kWidth, kHeight};
  vx_imagepatch_addressing_t addressing = VX_IMAGEPATCH_ADDR_INIT;
  addressing.dim_x = kWidth;
  addressing.dim_y = kHeight;
  addressing.stride_x = 1;
  addressing.stride_y = static_cast<vx_int32>(m.step);
  vxCopyImagePatch(image, &all, 0, &addressing, const_cast<vx_uint8*>(m.ptr<vx_uint8>()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return image;
}

void BM_OpenVx(benchmark::State& state) {
  const auto work = static_cast<Work>(state.range(0));
  vx_context context = vxCreateContext();
  vx_graph graph = vxCreateGraph(context);
  vx_image in1 = image_of(context, random_frame(1)), in2 = image_of(context, random_frame(2));
  vx_image out = vxCreateImage(context, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_node node = nullptr;
  switch (work) {
    case Work::gaussian: node = vxGaussian3x3Node(graph, in1, out); break;
    case Work::median: node = vxMedian3x3Node(graph, in1, out); break;
    case Work::box: node = vxBox3x3Node(graph, in1, out); break;
    case Work::add: node = vxAddNode(graph, in1, in2, VX_CONVERT_POLICY_SATURATE, out); break;
  }
  vx_border_t border{};
  border.mode = VX_BORDER_REPLICATE;
  if (work != Work::add) vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border);
  vxSetNodeTarget(node, VX_TARGET_STRING, "cpu0");
  if (vxVerifyGraph(graph) != VX_SUCCESS) state.SkipWithError("vxVerifyGraph failed");
  for (auto _ : state) {
    if (vxProcessGraph(graph) != VX_SUCCESS) state.SkipWithError("vxProcessGraph failed");
  }
  state.SetItemsProcessed(state.iterations());
  vxReleaseNode(&node);
  for (vx_image* i : {&in1, &in2, &out}) vxReleaseImage(i);
  vxReleaseGraph(&graph);
  vxReleaseContext(&context);
}

void BM_OpenCv(benchmark::State& state) {
  const auto work = static_cast<Work>(state.range(0));
  const cv::Mat in1 = random_frame(1), in2 = random_frame(2);
  cv::Mat out(kHeight, kWidth, CV_8UC1);
  for (auto _ : state) {
    switch (work) {
      case Work::gaussian: cv::GaussianBlur(in1, out, cv::Size(3, 3), 0, 0, cv::BORDER_REPLICATE); break;
      case Work::median: cv::medianBlur(in1, out, 3); break;
      case Work::box: cv::blur(in1, out, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE); break;
      case Work::add: cv::add(in1, in2, out); break;
    }
    benchmark::DoNotOptimize(out.data);
  }
  state.SetItemsProcessed(state.iterations());
}

// Argument: 0 Gaussian3x3, 1 Median3x3, 2 Box3x3, 3 Add (saturate).
BENCHMARK(BM_OpenVx)->DenseRange(0, 3)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OpenCv)->DenseRange(0, 3)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
