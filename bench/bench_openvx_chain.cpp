// What an OpenVX graph buys over calling the same kernels one by one: Gaussian3x3 -> Box3x3 -> Median3x3 ->
// Erode3x3 (replicated borders) on a U8 frame, at 1920x1080 and 640x480, as
//   graph      one graph, the three intermediates virtual, verified once, vxProcessGraph timed; fused:0
//              one node at a time (VG_OPENVX_FUSION=0), fused:1 the chain band by band on its target (=1),
//              fused:2 the default: band by band, the frame's lower half on the other CPU target;
//   immediate  four libvxu calls (vxuGaussian3x3, ...), each building, verifying and running its graph;
//   opencv     cv::GaussianBlur, cv::blur, cv::medianBlur, cv::erode on one thread (the same work; the
//              first two round where OpenVX truncates);
//   direct     the vision library's four functions called in a row (no framework at all: the floor of
//              one thread running the four kernels whole, one after the other).
// Also four independent branches (BM_Branches*) and two graphs scheduled together (BM_TwoGraphs).
// Wall-clock time, and the process's CPU time (all threads: the graph's nodes run on the targets' worker
// threads, not the calling one). For CPU figures, run with VG_OPENVX_SPIN_US=0 (idle workers do not poll):
//   ./build/bench/bench_openvx_chain --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.3
#include <VX/vx.h>
#include <VX/vxu.h>
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdlib>
#include <random>
#include <vector>

#include "visiongraph/kernels/vision/filter3x3.hpp"

namespace {

constexpr vx_uint32 kSizes[][2] = {{1920, 1080}, {640, 480}};

cv::Mat random_frame(vx_uint32 w, vx_uint32 h) {
  cv::Mat m(static_cast<int>(h), static_cast<int>(w), CV_8UC1);
  std::mt19937 rng(5);
  for (auto it = m.begin<std::uint8_t>(); it != m.end<std::uint8_t>(); ++it) *it = static_cast<std::uint8_t>(rng());
  return m;
}

vx_image image_from(vx_context context, const cv::Mat& m) {
  const auto w = static_cast<vx_uint32>(m.cols), h = static_cast<vx_uint32>(m.rows);
  vx_image image = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  const vx_rectangle_t all{0, 0, w, h};
  vx_imagepatch_addressing_t addressing = VX_IMAGEPATCH_ADDR_INIT;
  addressing.dim_x = w;
  addressing.dim_y = h;
  addressing.stride_x = 1;
  addressing.stride_y = static_cast<vx_int32>(m.step);
  vxCopyImagePatch(image, &all, 0, &addressing, const_cast<std::uint8_t*>(m.ptr<std::uint8_t>()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return image;
}

void replicate(vx_node node) {
  vx_border_t border{};
  border.mode = VX_BORDER_REPLICATE;
  vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border);
  vxReleaseNode(&node);  // no vxSetNodeTarget: the library may split a fused chain's frame over two targets
}

/// Gaussian3x3 -> Box3x3 -> Median3x3 -> Erode3x3 in @p graph on a random w x h frame, the three
/// intermediates virtual; its images (to release), the input first.
std::vector<vx_image> add_filter_chain(vx_context context, vx_graph graph, vx_uint32 w, vx_uint32 h) {
  vx_image in = image_from(context, random_frame(w, h)), out = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  vx_image a = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8), b = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8),
           c = vxCreateVirtualImage(graph, w, h, VX_DF_IMAGE_U8);
  replicate(vxGaussian3x3Node(graph, in, a));
  replicate(vxBox3x3Node(graph, a, b));
  replicate(vxMedian3x3Node(graph, b, c));
  replicate(vxErode3x3Node(graph, c, out));
  return {in, out, a, b, c};
}

/// A context whose immediate calls use replicated borders, as the graphs' nodes do.
vx_context immediate_context() {
  vx_context context = vxCreateContext();
  vx_border_t border{};
  border.mode = VX_BORDER_REPLICATE;
  vxSetContextAttribute(context, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border);
  return context;
}

void BM_ChainGraph(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  // Fusion is read when the graph is verified: both forms in one run.
  // fused 0: one node at a time; 1: band by band on the nodes' target; 2: and the frame's halves on two targets.
  const char* const modes[] = {"0", "1", "2"};
  setenv("VG_OPENVX_FUSION", modes[state.range(1)], 1);
  vx_context context = vxCreateContext();
  vx_graph graph = vxCreateGraph(context);
  std::vector<vx_image> images = add_filter_chain(context, graph, w, h);
  if (vxVerifyGraph(graph) != VX_SUCCESS) state.SkipWithError("vxVerifyGraph failed");
  for (auto _ : state) {
    if (vxProcessGraph(graph) != VX_SUCCESS) state.SkipWithError("vxProcessGraph failed");
  }
  for (vx_image& i : images) vxReleaseImage(&i);
  vxReleaseGraph(&graph);
  vxReleaseContext(&context);
}

void BM_ChainImmediate(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  vx_context context = immediate_context();
  vx_image in = image_from(context, random_frame(w, h)), out = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  vx_image a = vxCreateImage(context, w, h, VX_DF_IMAGE_U8), b = vxCreateImage(context, w, h, VX_DF_IMAGE_U8),
           c = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  for (auto _ : state) {
    if (vxuGaussian3x3(context, in, a) != VX_SUCCESS || vxuBox3x3(context, a, b) != VX_SUCCESS ||
        vxuMedian3x3(context, b, c) != VX_SUCCESS || vxuErode3x3(context, c, out) != VX_SUCCESS) {
      state.SkipWithError("an immediate call failed");
    }
  }
  for (vx_image* i : {&in, &out, &a, &b, &c}) vxReleaseImage(i);
  vxReleaseContext(&context);
}

void BM_ChainOpenCv(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  cv::setNumThreads(1);
  const cv::Mat in = random_frame(w, h);
  cv::Mat a, b, c, out;
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  for (auto _ : state) {
    cv::GaussianBlur(in, a, {3, 3}, 0, 0, cv::BORDER_REPLICATE);
    cv::blur(a, b, {3, 3}, {-1, -1}, cv::BORDER_REPLICATE);
    cv::medianBlur(b, c, 3);
    cv::erode(c, out, kernel, {-1, -1}, 1, cv::BORDER_REPLICATE);
    benchmark::DoNotOptimize(out.data);
  }
}

void BM_ChainDirect(benchmark::State& state) {
  using namespace vg::vision;  // NOLINT: bench brevity
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  cv::Mat in = random_frame(w, h), a(in.size(), CV_8UC1), b(in.size(), CV_8UC1), c(in.size(), CV_8UC1), out(in.size(), CV_8UC1);
  auto p = [&](cv::Mat& m) { return Plane{m.data, w, h, static_cast<std::ptrdiff_t>(m.step)}; };
  for (auto _ : state) {
    filter3x3(Filter3x3::gaussian, p(in), p(a));
    filter3x3(Filter3x3::box, p(a), p(b));
    filter3x3(Filter3x3::median, p(b), p(c));
    filter3x3(Filter3x3::erode, p(c), p(out));
    benchmark::DoNotOptimize(out.data);
  }
}

// Four independent branches from one input (Gaussian, Box, Median, Erode, each to its own output): one
// graph, its branches spread over cpu0 and cpu1 (spread:1, the default) or all on cpu0
// (VG_OPENVX_PLACEMENT=0, spread:0), against the four immediate calls.
void BM_BranchesGraph(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  setenv("VG_OPENVX_PLACEMENT", state.range(1) != 0 ? "1" : "0", 1);
  vx_context context = vxCreateContext();
  vx_graph graph = vxCreateGraph(context);
  vx_image in = image_from(context, random_frame(w, h));
  vx_image out[4];
  for (vx_image& o : out) o = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  replicate(vxGaussian3x3Node(graph, in, out[0]));
  replicate(vxBox3x3Node(graph, in, out[1]));
  replicate(vxMedian3x3Node(graph, in, out[2]));
  replicate(vxErode3x3Node(graph, in, out[3]));
  if (vxVerifyGraph(graph) != VX_SUCCESS) state.SkipWithError("vxVerifyGraph failed");
  unsetenv("VG_OPENVX_PLACEMENT");
  for (auto _ : state) {
    if (vxProcessGraph(graph) != VX_SUCCESS) state.SkipWithError("vxProcessGraph failed");
  }
  vxReleaseImage(&in);
  for (vx_image& o : out) vxReleaseImage(&o);
  vxReleaseGraph(&graph);
  vxReleaseContext(&context);
}

void BM_BranchesImmediate(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  vx_context context = immediate_context();
  vx_image in = image_from(context, random_frame(w, h));
  vx_image out[4];
  for (vx_image& o : out) o = vxCreateImage(context, w, h, VX_DF_IMAGE_U8);
  for (auto _ : state) {
    if (vxuGaussian3x3(context, in, out[0]) != VX_SUCCESS || vxuBox3x3(context, in, out[1]) != VX_SUCCESS ||
        vxuMedian3x3(context, in, out[2]) != VX_SUCCESS || vxuErode3x3(context, in, out[3]) != VX_SUCCESS) {
      state.SkipWithError("an immediate call failed");
    }
  }
  vxReleaseImage(&in);
  for (vx_image& o : out) vxReleaseImage(&o);
  vxReleaseContext(&context);
}

// Two graphs of one context, each the four-filter chain on its own frame (bands on one target,
// VG_OPENVX_FUSION=1, so each graph is one target's work): scheduled together and then waited for
// (together:1; the second graph starts on the other CPU target) against processed one after the other
// (together:0).
void BM_TwoGraphs(benchmark::State& state) {
  const vx_uint32 w = kSizes[state.range(0)][0], h = kSizes[state.range(0)][1];
  setenv("VG_OPENVX_FUSION", "1", 1);
  vx_context context = vxCreateContext();
  vx_graph graphs[2];
  std::vector<vx_image> images;
  for (vx_graph& graph : graphs) {
    graph = vxCreateGraph(context);
    const std::vector<vx_image> chain = add_filter_chain(context, graph, w, h);
    images.insert(images.end(), chain.begin(), chain.end());
    if (vxVerifyGraph(graph) != VX_SUCCESS) state.SkipWithError("vxVerifyGraph failed");
  }
  unsetenv("VG_OPENVX_FUSION");
  const bool together = state.range(1) != 0;
  for (auto _ : state) {
    bool ok = true;
    if (together) {
      for (vx_graph g : graphs) ok = ok && vxScheduleGraph(g) == VX_SUCCESS;
      for (vx_graph g : graphs) ok = vxWaitGraph(g) == VX_SUCCESS && ok;
    } else {
      for (vx_graph g : graphs) ok = ok && vxProcessGraph(g) == VX_SUCCESS;
    }
    if (!ok) state.SkipWithError("a graph failed");
  }
  for (vx_image& i : images) vxReleaseImage(&i);
  for (vx_graph& g : graphs) vxReleaseGraph(&g);
  vxReleaseContext(&context);
}

// Process CPU time beside wall time: the graph's work runs on worker threads, and on a shared machine the
// CPU time is the steadier figure (run with VG_OPENVX_SPIN_US=0 so idle workers do not poll).
void Sizes(benchmark::internal::Benchmark* b) {
  b->ArgName("size")->Arg(0)->Arg(1)->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond);
}
void GraphSizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"size", "fused"})->Args({0, 2})->Args({0, 1})->Args({0, 0})->Args({1, 2})->Args({1, 1})->Args({1, 0});
  b->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_ChainGraph)->Apply(GraphSizes);
BENCHMARK(BM_ChainImmediate)->Apply(Sizes);
BENCHMARK(BM_ChainOpenCv)->Apply(Sizes);
BENCHMARK(BM_ChainDirect)->Apply(Sizes);
void TwoArgSizes(benchmark::internal::Benchmark* b, const char* second) {
  b->ArgNames({"size", second})->ArgsProduct({{0, 1}, {1, 0}});
  b->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_BranchesGraph)->Apply([](benchmark::internal::Benchmark* b) { TwoArgSizes(b, "spread"); });
BENCHMARK(BM_BranchesImmediate)->Apply(Sizes);
BENCHMARK(BM_TwoGraphs)->Apply([](benchmark::internal::Benchmark* b) { TwoArgSizes(b, "together"); });

}  // namespace

BENCHMARK_MAIN();
