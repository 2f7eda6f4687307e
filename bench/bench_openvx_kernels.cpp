// Standard OpenVX vision kernels of this library beside OpenCV's function for the same work, in the same
// run, on 1920x1080 and 640x480 frames. Each OpenVX kernel runs as a one-node graph, verified once and then
// timed through vxProcessGraph (on cpu0); libvxu's immediate mode would build and verify the graph again
// in every call, which is not the kernel's cost. Every image and object is made outside the timed loop.
// Inputs are random U8 (fixed seeds); the feature kernels (Canny, Harris, FAST, optical flow, Hough) get
// smoothed noise instead, which has edges and corners the way a picture has. Magnitude and Phase take the
// S16 gradients of vxuSobel3x3, OpenCV the CV_32F ones of cv::Sobel, both made once beforehand.
//   ./build/bench/bench_openvx_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//   ./build/bench/bench_openvx_kernels --benchmark_filter='BM_Kernel/CannyL1/'   # one kernel, both sides
// Names are BM_Kernel/<kernel>/<OpenVX|OpenCV>/<width>x<height>/real_time, so the output turns into a table.
//
// Timing: OpenCV runs on one thread (cv::setNumThreads(1)). The OpenVX node runs on the cpu0 worker
// thread, not on the calling one, so the calling thread's CPU time would leave the kernel out: both sides
// are timed by the wall clock (UseRealTime), which on a busy machine also counts time spent preempted.
//
// This measures speed, not agreement. Where the two compute something different, OpenCV's side is the
// closest it has: Box3x3, Gaussian3x3, Convolve and WeightedAverage truncate where OpenCV rounds; Magnitude
// and Phase are S16 and U8 in OpenVX, CV_32F in OpenCV; the accumulations go into S16 (U8 for the weighted
// one) in OpenVX, CV_32F in OpenCV, and AccumulateSquare shifts the square down; Histogram counts into
// integers, cv::calcHist into floats; IntegralImage is U32 of the image's size, cv::integral CV_32S one
// pixel wider and taller; ColorConvert uses BT.709 full range, cvtColor BT.601 video range;
// GaussianPyramid and HalfScaleGaussian sample by nearest neighbour after the blur, and HalfScaleGaussian
// is the 3x3 window beside cv::pyrDown's 5x5 (OpenCV has no 3x3 one); HarrisCorners thresholds,
// suppresses non-maxima and sorts its corners, cv::cornerHarris only writes every pixel's response;
// FastCorners' score and suppression differ from cv::FAST's (the labels give both counts); MinMaxLoc
// reports one place each (arrays of capacity 1), as cv::minMaxLoc does; MatchTemplate saturates its sums
// of squared differences to S16, cv::TM_SQDIFF writes CV_32F.
//
// Not covered: ColorConvert RGB->NV12 (cvtColor has no such code; NV12->RGB is covered instead);
// NonLinearFilter beyond its 5x5 box median and minimum (OpenCV has no function for other masks); LBP and
// NonMaxSuppression (no OpenCV function does the same); HOGCells and HOGFeatures each alone (cv::HOGDescriptor
// computes whole descriptors: the Hog row runs both as one graph beside it); the tensor kernels other than
// BilateralFilter (no OpenCV function on tensors; BilateralFilter's U8 tensor is the frame, beside
// cv::bilateralFilter); Copy,
// Select and ScalarOperation (no image work). FastCorners and OpticalFlowPyrLK need OpenCV's features2d
// and video modules and are left out without them.

#include <VX/vx.h>
#include <VX/vx_compatibility.h>  // The accumulations' node creators.
#include <VX/vxu.h>
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#ifdef VG_BENCH_OPENCV_FEATURES
#include <opencv2/features2d.hpp>
#include <opencv2/video/tracking.hpp>
#endif
#ifdef VG_BENCH_OPENCV_OBJDETECT
#include <opencv2/objdetect.hpp>
#endif

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

struct FrameSize {
  int width, height;
  std::string name() const { return std::to_string(width) + "x" + std::to_string(height); }
  auto operator<=>(const FrameSize&) const = default;
};

constexpr FrameSize kSizes[] = {{1920, 1080}, {640, 480}};

// Parameters both sides share, so that they do the same work.
constexpr float kWeightedAlpha = 0.25f;
constexpr vx_uint32 kAccumulateSquareShift = 8;  // OpenVX's AccumulateSquare shifts the square down; OpenCV adds it whole.
constexpr int kThreshold = 127;
constexpr int kCannyLow = 50, kCannyHigh = 100;  // On the L1 norm of the 3x3 Sobel gradients, as both compute it.
constexpr float kHarrisK = 0.04f;
constexpr float kHarrisThreshold = 1e-4f;  // On OpenVX's normalised scores: a few thousand corners at 1920x1080.
constexpr int kFastThreshold = 20;
constexpr int kTrackedPoints = 300;
constexpr int kFlowWindow = 5, kFlowIterations = 5, kPyramidLevels = 4;
constexpr float kFlowEpsilon = 0.01f;
constexpr double kRotationDegrees = 5.0;
constexpr int kTemplateSide = 8;  // MatchTemplate: an 8x8 patch of the frame itself (OpenVX searches by brute force).
// HoughLinesP on the Canny edges of the scene: steps of 1 pixel and 1 degree, 50 votes, segments of 30
// pixels or more with gaps of at most 5.
constexpr int kHoughVotes = 50, kHoughMinLength = 30, kHoughMaxGap = 5;
// A dense kernel (no zero for OpenCV to skip), the same under a half turn, so OpenVX's convolution and
// cv::filter2D's correlation compute the same sums.
constexpr std::array<vx_int16, 9> kConvolution{-1, -2, -1, -2, 13, -2, -1, -2, -1};
// BilateralFilter's sigmas (OpenVX's sigmaSpace and sigmaValues; OpenCV's sigmaSpace and sigmaColor).
constexpr vx_float32 kBilateralSigmaSpace = 2.0f;
constexpr vx_float32 kBilateralSigmaValues = 25.0f;

/// The inputs of one frame size. Made once per size and shared by every benchmark of that size.
struct Inputs {
  FrameSize size;
  cv::Mat gray, gray2, gray3;  // Random U8.
  cv::Mat rgb;                 // Random, CV_8UC3 in R, G, B order.
  cv::Mat nv12;                // Random bytes laid out as NV12 (the Y plane, then interleaved UV rows).
  cv::Mat yuyv;                // Random bytes laid out as YUYV (CV_8UC2: Y0 U Y1 V for each pixel pair).
  cv::Mat scene, scene_moved;  // Smoothed noise, and the same moved right 2 and down 1 pixels.
  cv::Mat grad_x, grad_y;      // cv::Sobel of gray as CV_32F, for cv::magnitude and cv::phase.
  cv::Mat rotation;            // 2x3, about the centre: the output-to-input map of both warps and the remap.
  cv::Mat patch;               // The template of MatchTemplate: a copy of part of gray.
  cv::Mat edges;               // cv::Canny of the scene (255 on edges): the input of HoughLinesP.

  explicit Inputs(FrameSize frame) : size(frame) {
    const int w = frame.width, h = frame.height;
    cv::RNG rng(7);
    const auto random = [&](int rows, int type) {
      cv::Mat m(rows, w, type);
      rng.fill(m, cv::RNG::UNIFORM, 0, 256);
      return m;
    };
    gray = random(h, CV_8UC1);
    gray2 = random(h, CV_8UC1);
    gray3 = random(h, CV_8UC1);
    rgb = random(h, CV_8UC3);
    nv12 = random(h * 3 / 2, CV_8UC1);
    yuyv = random(h, CV_8UC2);
    cv::GaussianBlur(random(h, CV_8UC1), scene, cv::Size(0, 0), 2.0);
    cv::normalize(scene, scene, 0, 255, cv::NORM_MINMAX);
    const cv::Mat shift = (cv::Mat_<double>(2, 3) << 1, 0, 2, 0, 1, 1);
    cv::warpAffine(scene, scene_moved, shift, scene.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    cv::Sobel(gray, grad_x, CV_32F, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
    cv::Sobel(gray, grad_y, CV_32F, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
    rotation = cv::getRotationMatrix2D(cv::Point2f(w / 2.0f, h / 2.0f), kRotationDegrees, 1.0);
    patch = gray(cv::Rect(w / 3, h / 3, kTemplateSide, kTemplateSide)).clone();
    cv::Canny(scene, edges, kCannyLow, kCannyHigh, 3, false);
  }
};

const Inputs& inputs_for(FrameSize size) {
  // Random 1920x1080 frames take a while to make; every benchmark of a size reads the same ones.
  static std::map<FrameSize, std::unique_ptr<Inputs>> made;
  auto& inputs = made[size];
  if (!inputs) inputs = std::make_unique<Inputs>(size);
  return *inputs;
}

#ifdef VG_BENCH_OPENCV_FEATURES
/// Up to kTrackedPoints strong FAST corners of the scene: the points both optical flows track.
std::vector<cv::Point2f> points_to_track(const Inputs& in) {
  std::vector<cv::KeyPoint> corners;
  cv::FAST(in.scene, corners, kFastThreshold, true);
  cv::KeyPointsFilter::retainBest(corners, kTrackedPoints);
  corners.resize(std::min<std::size_t>(corners.size(), kTrackedPoints));  // retainBest keeps ties.
  std::vector<cv::Point2f> points;
  for (const cv::KeyPoint& k : corners) points.emplace_back(k.pt.x, k.pt.y);
  return points;
}
#endif

vx_df_image format_of(const cv::Mat& m) {
  switch (m.type()) {
    case CV_8UC3: return VX_DF_IMAGE_RGB;
    case CV_16SC1: return VX_DF_IMAGE_S16;
    case CV_8UC2: return VX_DF_IMAGE_YUYV;
    default: return VX_DF_IMAGE_U8;
  }
}

/// A context with one graph, which owns every object made for its one node and releases them with it.
class OneNodeGraph {
 public:
  OneNodeGraph() : context_(vxCreateContext()), graph_(vxCreateGraph(context_)) {}
  OneNodeGraph(const OneNodeGraph&) = delete;
  OneNodeGraph& operator=(const OneNodeGraph&) = delete;
  ~OneNodeGraph() {
    // The node first: it holds the objects.
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) vxReleaseReference(&*it);
    vxReleaseGraph(&graph_);
    vxReleaseContext(&context_);
  }

  vx_context context() const { return context_; }
  vx_graph graph() const { return graph_; }

  template <class Object>
  Object keep(Object object) {
    owned_.push_back(reinterpret_cast<vx_reference>(object));
    return object;
  }

  vx_image image(int width, int height, vx_df_image format) {
    return keep(vxCreateImage(context_, static_cast<vx_uint32>(width), static_cast<vx_uint32>(height), format));
  }
  /// A U8 image of the inputs' size.
  vx_image u8(const Inputs& in) { return image(in.size.width, in.size.height, VX_DF_IMAGE_U8); }

  /// A copy of a U8, S16, RGB or YUYV (CV_8UC2) Mat.
  vx_image image(const cv::Mat& pixels) {
    vx_image out = image(pixels.cols, pixels.rows, format_of(pixels));
    const vx_rectangle_t all{0, 0, static_cast<vx_uint32>(pixels.cols), static_cast<vx_uint32>(pixels.rows)};
    vx_imagepatch_addressing_t addressing = VX_IMAGEPATCH_ADDR_INIT;
    addressing.dim_x = static_cast<vx_uint32>(pixels.cols);
    addressing.dim_y = static_cast<vx_uint32>(pixels.rows);
    addressing.stride_x = static_cast<vx_int32>(pixels.elemSize());
    addressing.stride_y = static_cast<vx_int32>(pixels.step);
    vxCopyImagePatch(out, &all, 0, &addressing, const_cast<uchar*>(pixels.ptr()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    return out;
  }

  template <class T>
  vx_scalar scalar(vx_enum type, T value) {
    return keep(vxCreateScalar(context_, type, &value));
  }

  vx_matrix matrix(vx_size columns, vx_size rows, const std::vector<vx_float32>& values) {
    vx_matrix m = keep(vxCreateMatrix(context_, VX_TYPE_FLOAT32, columns, rows));
    vxCopyMatrix(m, const_cast<vx_float32*>(values.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    return m;
  }

  /// A U8 mask of @p side x @p side ones (NonLinearFilter's box).
  vx_matrix box_mask(vx_size side) {
    vx_matrix m = keep(vxCreateMatrix(context_, VX_TYPE_UINT8, side, side));
    std::vector<vx_uint8> ones(side * side, 1);
    vxCopyMatrix(m, ones.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    return m;
  }

  /// A 2-dimensional tensor [width, height] holding a copy of the U8 Mat @p pixels.
  vx_tensor tensor(const cv::Mat& pixels) {
    const vx_size dims[2] = {static_cast<vx_size>(pixels.cols), static_cast<vx_size>(pixels.rows)};
    vx_tensor t = keep(vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0));
    const vx_size start[2] = {0, 0};
    const vx_size strides[2] = {1, static_cast<vx_size>(pixels.step)};
    vxCopyTensorPatch(t, 2, start, dims, strides, const_cast<uchar*>(pixels.ptr()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    return t;
  }
  /// A U8 tensor of the inputs' size.
  vx_tensor u8_tensor(const Inputs& in) {
    const vx_size dims[2] = {static_cast<vx_size>(in.size.width), static_cast<vx_size>(in.size.height)};
    return keep(vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0));
  }

  vx_array keypoints(vx_size capacity) { return keep(vxCreateArray(context_, VX_TYPE_KEYPOINT, capacity)); }

  /// A pyramid of the scene-like image @p pixels, filled by vxuGaussianPyramid now.
  vx_pyramid pyramid_of(const cv::Mat& pixels) {
    vx_pyramid p = keep(vxCreatePyramid(context_, kPyramidLevels, VX_SCALE_PYRAMID_HALF, static_cast<vx_uint32>(pixels.cols),
                                        static_cast<vx_uint32>(pixels.rows), VX_DF_IMAGE_U8));
    if (vxuGaussianPyramid(context_, image(pixels), p) != VX_SUCCESS) setup_failed = true;
    return p;
  }

  /// A label read after the first run (how many corners were found, ...); empty when not set.
  std::function<std::string()> describe;
  /// Set when a vxu call that prepares an input failed.
  bool setup_failed = false;

 private:
  vx_context context_;
  vx_graph graph_;
  std::vector<vx_reference> owned_;
};

vx_node with_border(vx_node node, vx_enum mode) {
  vx_border_t border{};
  border.mode = mode;  // A constant border is 0.
  vxSetNodeAttribute(node, VX_NODE_BORDER, &border, sizeof border);
  return node;
}

vx_threshold u8_threshold(OneNodeGraph& g, vx_enum type) {
  return g.keep(vxCreateThresholdForImage(g.context(), type, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8));
}

vx_size read_size(vx_scalar s) {
  vx_size value = 0;
  vxCopyScalar(s, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  return value;
}

/// The 2x3 output-to-input map as OpenVX lays it out: element [column][row] of OpenCV's matrix.
std::vector<vx_float32> affine_for_openvx(const cv::Mat& m) {
  std::vector<vx_float32> out;
  for (int column = 0; column < 3; ++column) {
    for (int row = 0; row < 2; ++row) out.push_back(static_cast<vx_float32>(m.at<double>(row, column)));
  }
  return out;
}

/// The rotation with a slight perspective, 3x3 in OpenCV's layout.
cv::Mat perspective_of(const cv::Mat& rotation) {
  cv::Mat m = cv::Mat::eye(3, 3, CV_64F);
  rotation.copyTo(m.rowRange(0, 2));
  m.at<double>(2, 0) = 1e-5;
  m.at<double>(2, 1) = 2e-5;
  return m;
}

std::vector<vx_float32> perspective_for_openvx(const cv::Mat& m) {
  std::vector<vx_float32> out;
  for (int column = 0; column < 3; ++column) {
    for (int row = 0; row < 3; ++row) out.push_back(static_cast<vx_float32>(m.at<double>(row, column)));
  }
  return out;
}

/// cv::remap's maps for the rotation: where each output pixel reads the input.
std::pair<cv::Mat, cv::Mat> rotation_maps(const Inputs& in) {
  cv::Mat map_x(in.size.height, in.size.width, CV_32FC1), map_y(in.size.height, in.size.width, CV_32FC1);
  const cv::Mat& r = in.rotation;
  for (int y = 0; y < map_x.rows; ++y) {
    for (int x = 0; x < map_x.cols; ++x) {
      map_x.at<float>(y, x) = static_cast<float>(r.at<double>(0, 0) * x + r.at<double>(0, 1) * y + r.at<double>(0, 2));
      map_y.at<float>(y, x) = static_cast<float>(r.at<double>(1, 0) * x + r.at<double>(1, 1) * y + r.at<double>(1, 2));
    }
  }
  return {map_x, map_y};
}

/// The OpenCV side of a kernel: the call to time, and optionally a label read after the first call.
struct OpenCvRun {
  std::function<void()> call;
  std::function<std::string()> describe;
};

/// One standard kernel: how to make its OpenVX node (with every object it needs) and its OpenCV call.
struct Kernel {
  const char* name;
  vx_node (*openvx)(OneNodeGraph&, const Inputs&);
  OpenCvRun (*opencv)(const Inputs&);
};

// Outputs are captured by value in the OpenCV calls; the first, untimed call allocates them.
const Kernel kKernels[] = {
    // Bitwise and per-pixel arithmetic.
    {"Not", [](OneNodeGraph& g, const Inputs& in) { return vxNotNode(g.graph(), g.image(in.gray), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::bitwise_not(in.gray, out); }, {}}; }},
    {"And", [](OneNodeGraph& g, const Inputs& in) { return vxAndNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::bitwise_and(in.gray, in.gray2, out); }, {}}; }},
    {"Or", [](OneNodeGraph& g, const Inputs& in) { return vxOrNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::bitwise_or(in.gray, in.gray2, out); }, {}}; }},
    {"Xor", [](OneNodeGraph& g, const Inputs& in) { return vxXorNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::bitwise_xor(in.gray, in.gray2, out); }, {}}; }},
    {"AbsDiff", [](OneNodeGraph& g, const Inputs& in) { return vxAbsDiffNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::absdiff(in.gray, in.gray2, out); }, {}}; }},
    {"Add", [](OneNodeGraph& g, const Inputs& in) { return vxAddNode(g.graph(), g.image(in.gray), g.image(in.gray2), VX_CONVERT_POLICY_SATURATE, g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::add(in.gray, in.gray2, out); }, {}}; }},
    {"Subtract", [](OneNodeGraph& g, const Inputs& in) { return vxSubtractNode(g.graph(), g.image(in.gray), g.image(in.gray2), VX_CONVERT_POLICY_SATURATE, g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::subtract(in.gray, in.gray2, out); }, {}}; }},
    {"Multiply",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxMultiplyNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.scalar(VX_TYPE_FLOAT32, 1.0f), VX_CONVERT_POLICY_SATURATE,
                             VX_ROUND_POLICY_TO_ZERO, g.u8(in));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::multiply(in.gray, in.gray2, out, 1.0); }, {}}; }},
    {"Min", [](OneNodeGraph& g, const Inputs& in) { return vxMinNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::min(in.gray, in.gray2, out); }, {}}; }},
    {"Max", [](OneNodeGraph& g, const Inputs& in) { return vxMaxNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::max(in.gray, in.gray2, out); }, {}}; }},
    {"WeightedAverage",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxWeightedAverageNode(g.graph(), g.image(in.gray), g.scalar(VX_TYPE_FLOAT32, kWeightedAlpha), g.image(in.gray2), g.u8(in));
     },
     [](const Inputs& in) {
       // OpenVX: alpha * img1 + (1 - alpha) * img2.
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::addWeighted(in.gray, kWeightedAlpha, in.gray2, 1.0 - kWeightedAlpha, 0.0, out); }, {}};
     }},

    // The accumulations (OpenVX 1.0's, kept in vx_compatibility.h): into S16 (U8 for the weighted one) in
    // OpenVX, into CV_32F in OpenCV. Both accumulate across iterations, which changes no work per call.
    {"Accumulate",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxAccumulateImageNode(g.graph(), g.image(in.gray), g.image(in.size.width, in.size.height, VX_DF_IMAGE_S16));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, sum = cv::Mat(in.gray.size(), CV_32F, cv::Scalar(0))]() mutable { cv::accumulate(in.gray, sum); }, {}};
     }},
    {"AccumulateWeighted",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxAccumulateWeightedImageNode(g.graph(), g.image(in.gray), g.scalar(VX_TYPE_FLOAT32, kWeightedAlpha), g.image(in.gray2));
     },
     [](const Inputs& in) {
       cv::Mat average;
       in.gray2.convertTo(average, CV_32F);
       return OpenCvRun{[&in, average]() mutable { cv::accumulateWeighted(in.gray, average, kWeightedAlpha); }, {}};
     }},
    {"AccumulateSquare",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxAccumulateSquareImageNode(g.graph(), g.image(in.gray), g.scalar(VX_TYPE_UINT32, kAccumulateSquareShift),
                                          g.image(in.size.width, in.size.height, VX_DF_IMAGE_S16));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, sum = cv::Mat(in.gray.size(), CV_32F, cv::Scalar(0))]() mutable { cv::accumulateSquare(in.gray, sum); }, {}};
     }},

    // 3x3 filters, all with a replicated border on both sides (cv::medianBlur always replicates).
    {"Box3x3", [](OneNodeGraph& g, const Inputs& in) { return with_border(vxBox3x3Node(g.graph(), g.image(in.gray), g.u8(in)), VX_BORDER_REPLICATE); },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::blur(in.gray, out, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE); }, {}};
     }},
    {"Gaussian3x3", [](OneNodeGraph& g, const Inputs& in) { return with_border(vxGaussian3x3Node(g.graph(), g.image(in.gray), g.u8(in)), VX_BORDER_REPLICATE); },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::GaussianBlur(in.gray, out, cv::Size(3, 3), 0, 0, cv::BORDER_REPLICATE); }, {}};
     }},
    {"Median3x3", [](OneNodeGraph& g, const Inputs& in) { return with_border(vxMedian3x3Node(g.graph(), g.image(in.gray), g.u8(in)), VX_BORDER_REPLICATE); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::medianBlur(in.gray, out, 3); }, {}}; }},
    {"Erode3x3", [](OneNodeGraph& g, const Inputs& in) { return with_border(vxErode3x3Node(g.graph(), g.image(in.gray), g.u8(in)), VX_BORDER_REPLICATE); },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::erode(in.gray, out, cv::Mat(), cv::Point(-1, -1), 1, cv::BORDER_REPLICATE); }, {}};
     }},
    {"Dilate3x3", [](OneNodeGraph& g, const Inputs& in) { return with_border(vxDilate3x3Node(g.graph(), g.image(in.gray), g.u8(in)), VX_BORDER_REPLICATE); },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::dilate(in.gray, out, cv::Mat(), cv::Point(-1, -1), 1, cv::BORDER_REPLICATE); }, {}};
     }},
    // NonLinearFilter on a 5x5 box: the median beside cv::medianBlur (always replicating), the minimum
    // beside cv::erode with a 5x5 rectangle.
    {"NonLinearMedian5x5",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxNonLinearFilterNode(g.graph(), VX_NONLINEAR_FILTER_MEDIAN, g.image(in.gray), g.box_mask(5), g.u8(in)),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::medianBlur(in.gray, out, 5); }, {}}; }},
    {"NonLinearMin5x5",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxNonLinearFilterNode(g.graph(), VX_NONLINEAR_FILTER_MIN, g.image(in.gray), g.box_mask(5), g.u8(in)),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat(), rect = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5))]() mutable {
                          cv::erode(in.gray, out, rect, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
                        },
                        {}};
     }},
    // BilateralFilter on a U8 tensor of the frame beside cv::bilateralFilter with the same diameter and
    // sigmas, both replicating the edge. The same work, not the same bytes: OpenCV computes its weights its
    // own way (rounded differently, a square window's disc of its own), so the results are not bit-identical.
    {"Bilateral5",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxBilateralFilterNode(g.graph(), g.tensor(in.gray), 5, kBilateralSigmaSpace, kBilateralSigmaValues, g.u8_tensor(in)),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          cv::bilateralFilter(in.gray, out, 5, kBilateralSigmaValues, kBilateralSigmaSpace, cv::BORDER_REPLICATE);
                        },
                        {}};
     }},
    {"Bilateral9",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxBilateralFilterNode(g.graph(), g.tensor(in.gray), 9, kBilateralSigmaSpace, kBilateralSigmaValues, g.u8_tensor(in)),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          cv::bilateralFilter(in.gray, out, 9, kBilateralSigmaValues, kBilateralSigmaSpace, cv::BORDER_REPLICATE);
                        },
                        {}};
     }},
#ifdef VG_BENCH_OPENCV_OBJDETECT
    // HOG of one window as large as the frame, 8x8 cells of 9 bins, 16x16 blocks stepping by 8 (L2-Hys,
    // 0.2): HOGCells then HOGFeatures in one graph, beside cv::HOGDescriptor::compute with the same
    // geometry. The same work, not the same numbers: OpenCV spreads each gradient over two bins and four
    // cells (and weighs blocks by a Gaussian), OpenVX adds it to one bin of one cell, in Q7.8.
    {"Hog",
     [](OneNodeGraph& g, const Inputs& in) {
       constexpr vx_int32 kCell = 8, kBins = 9;
       const vx_size cells[3] = {static_cast<vx_size>(in.size.width / kCell), static_cast<vx_size>(in.size.height / kCell), kBins};
       vx_tensor magnitudes = g.keep(vxCreateTensor(g.context(), 2, cells, VX_TYPE_INT16, 8));
       vx_tensor bins = g.keep(vxCreateTensor(g.context(), 3, cells, VX_TYPE_INT16, 8));
       vx_image frame = g.image(in.gray);
       g.keep(vxHOGCellsNode(g.graph(), frame, kCell, kCell, kBins, magnitudes, bins));
       vx_hog_t params{kCell, kCell, 16, 16, 8, kBins, in.size.width, in.size.height, 8, 0.2f};
       const vx_size blocks = static_cast<vx_size>((in.size.width - 16) / 8 + 1) * static_cast<vx_size>((in.size.height - 16) / 8 + 1);
       const vx_size features[3] = {1, 1, blocks * 4 * kBins};
       vx_tensor out = g.keep(vxCreateTensor(g.context(), 3, features, VX_TYPE_INT16, 8));
       return vxHOGFeaturesNode(g.graph(), frame, magnitudes, bins, &params, sizeof params, out);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, hog = cv::HOGDescriptor(in.gray.size(), cv::Size(16, 16), cv::Size(8, 8), cv::Size(8, 8), 9),
                         out = std::vector<float>()]() mutable { hog.compute(in.gray, out); },
                        {}};
     }},
#endif
    {"Convolve",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_convolution conv = g.keep(vxCreateConvolution(g.context(), 3, 3));
       vxCopyConvolutionCoefficients(conv, const_cast<vx_int16*>(kConvolution.data()), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
       return with_border(vxConvolveNode(g.graph(), g.image(in.gray), conv, g.u8(in)), VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       cv::Mat kernel(3, 3, CV_32F);
       for (int i = 0; i < 9; ++i) kernel.at<float>(i / 3, i % 3) = kConvolution[static_cast<std::size_t>(i)];
       return OpenCvRun{[&in, kernel, out = cv::Mat()]() mutable {
                          cv::filter2D(in.gray, out, -1, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
                        },
                        {}};
     }},

    // Gradients.
    {"Sobel3x3",
     [](OneNodeGraph& g, const Inputs& in) {
       const int w = in.size.width, h = in.size.height;
       return with_border(vxSobel3x3Node(g.graph(), g.image(in.gray), g.image(w, h, VX_DF_IMAGE_S16), g.image(w, h, VX_DF_IMAGE_S16)),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, dx = cv::Mat(), dy = cv::Mat()]() mutable {
                          cv::Sobel(in.gray, dx, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
                          cv::Sobel(in.gray, dy, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
                        },
                        {}};
     }},
    {"Magnitude",
     [](OneNodeGraph& g, const Inputs& in) {
       const int w = in.size.width, h = in.size.height;
       vx_image gx = g.image(w, h, VX_DF_IMAGE_S16), gy = g.image(w, h, VX_DF_IMAGE_S16);
       if (vxuSobel3x3(g.context(), g.image(in.gray), gx, gy) != VX_SUCCESS) g.setup_failed = true;
       return vxMagnitudeNode(g.graph(), gx, gy, g.image(w, h, VX_DF_IMAGE_S16));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::magnitude(in.grad_x, in.grad_y, out); }, {}}; }},
    {"Phase",
     [](OneNodeGraph& g, const Inputs& in) {
       const int w = in.size.width, h = in.size.height;
       vx_image gx = g.image(w, h, VX_DF_IMAGE_S16), gy = g.image(w, h, VX_DF_IMAGE_S16);
       if (vxuSobel3x3(g.context(), g.image(in.gray), gx, gy) != VX_SUCCESS) g.setup_failed = true;
       return vxPhaseNode(g.graph(), gx, gy, g.u8(in));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::phase(in.grad_x, in.grad_y, out); }, {}}; }},

    // Per-pixel conversions and statistics.
    {"Threshold",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_threshold t = u8_threshold(g, VX_THRESHOLD_TYPE_BINARY);  // Output 255 above the value, else 0.
       vx_pixel_value_t value{};
       value.U8 = kThreshold;
       vxCopyThresholdValue(t, &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
       return vxThresholdNode(g.graph(), g.image(in.gray), t, g.u8(in));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::threshold(in.gray, out, kThreshold, 255, cv::THRESH_BINARY); }, {}}; }},
    {"TableLookup",
     [](OneNodeGraph& g, const Inputs& in) {
       std::array<vx_uint8, 256> table{};
       for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<vx_uint8>(255 - i);
       vx_lut lut = g.keep(vxCreateLUT(g.context(), VX_TYPE_UINT8, table.size()));
       vxCopyLUT(lut, table.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
       return vxTableLookupNode(g.graph(), g.image(in.gray), lut, g.u8(in));
     },
     [](const Inputs& in) {
       cv::Mat table(1, 256, CV_8U);
       for (int i = 0; i < 256; ++i) table.at<uchar>(i) = static_cast<uchar>(255 - i);
       return OpenCvRun{[&in, table, out = cv::Mat()]() mutable { cv::LUT(in.gray, table, out); }, {}};
     }},
    {"ConvertDepth",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxConvertDepthNode(g.graph(), g.image(in.gray), g.image(in.size.width, in.size.height, VX_DF_IMAGE_S16), VX_CONVERT_POLICY_SATURATE,
                                 g.scalar(VX_TYPE_INT32, vx_int32{0}));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { in.gray.convertTo(out, CV_16S); }, {}}; }},
    {"Histogram",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxHistogramNode(g.graph(), g.image(in.gray), g.keep(vxCreateDistribution(g.context(), 256, 0, 256)));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, hist = cv::Mat()]() mutable {
                          const int channels[] = {0}, bins[] = {256};
                          const float range[] = {0, 256};
                          const float* ranges[] = {range};
                          cv::calcHist(&in.gray, 1, channels, cv::Mat(), hist, 1, bins, ranges);
                        },
                        {}};
     }},
    {"EqualizeHist", [](OneNodeGraph& g, const Inputs& in) { return vxEqualizeHistNode(g.graph(), g.image(in.gray), g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::equalizeHist(in.gray, out); }, {}}; }},
    {"IntegralImage",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxIntegralImageNode(g.graph(), g.image(in.gray), g.image(in.size.width, in.size.height, VX_DF_IMAGE_U32));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::integral(in.gray, out, CV_32S); }, {}}; }},
    {"MeanStdDev",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxMeanStdDevNode(g.graph(), g.image(in.gray), g.scalar(VX_TYPE_FLOAT32, 0.0f), g.scalar(VX_TYPE_FLOAT32, 0.0f));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, mean = cv::Scalar(), stddev = cv::Scalar()]() mutable { cv::meanStdDev(in.gray, mean, stddev); }, {}};
     }},
    {"MinMaxLoc",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_array min_loc = g.keep(vxCreateArray(g.context(), VX_TYPE_COORDINATES2D, 1));
       vx_array max_loc = g.keep(vxCreateArray(g.context(), VX_TYPE_COORDINATES2D, 1));
       return vxMinMaxLocNode(g.graph(), g.image(in.gray), g.scalar(VX_TYPE_UINT8, vx_uint8{0}), g.scalar(VX_TYPE_UINT8, vx_uint8{0}), min_loc,
                              max_loc, nullptr, nullptr);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, low = 0.0, high = 0.0, low_at = cv::Point(), high_at = cv::Point()]() mutable {
                          cv::minMaxLoc(in.gray, &low, &high, &low_at, &high_at);
                        },
                        {}};
     }},

    // Channels and colour.
    {"ChannelExtract",
     [](OneNodeGraph& g, const Inputs& in) { return vxChannelExtractNode(g.graph(), g.image(in.rgb), VX_CHANNEL_G, g.u8(in)); },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::extractChannel(in.rgb, out, 1); }, {}}; }},
    {"ChannelCombine",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxChannelCombineNode(g.graph(), g.image(in.gray), g.image(in.gray2), g.image(in.gray3), nullptr,
                                   g.image(in.size.width, in.size.height, VX_DF_IMAGE_RGB));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          const cv::Mat planes[] = {in.gray, in.gray2, in.gray3};
                          cv::merge(planes, 3, out);
                        },
                        {}};
     }},
    {"ColorConvertRGBtoIYUV",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxColorConvertNode(g.graph(), g.image(in.rgb), g.image(in.size.width, in.size.height, VX_DF_IMAGE_IYUV));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::cvtColor(in.rgb, out, cv::COLOR_RGB2YUV_I420); }, {}}; }},
    {"ColorConvertNV12toRGB",
     [](OneNodeGraph& g, const Inputs& in) {
       const int w = in.size.width, h = in.size.height;
       // The NV12 input is the random RGB frame converted once, so its chroma is as varied as OpenCV's.
       vx_image nv12 = g.image(w, h, VX_DF_IMAGE_NV12);
       if (vxuColorConvert(g.context(), g.image(in.rgb), nv12) != VX_SUCCESS) g.setup_failed = true;
       return vxColorConvertNode(g.graph(), nv12, g.image(w, h, VX_DF_IMAGE_RGB));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::cvtColor(in.nv12, out, cv::COLOR_YUV2RGB_NV12); }, {}}; }},
    {"ColorConvertYUYVtoRGB",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxColorConvertNode(g.graph(), g.image(in.yuyv), g.image(in.size.width, in.size.height, VX_DF_IMAGE_RGB));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::cvtColor(in.yuyv, out, cv::COLOR_YUV2RGB_YUYV); }, {}}; }},

    // Geometry: bilinear on both sides; the warps and the remap read 0 outside the input.
    {"ScaleImage",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxScaleImageNode(g.graph(), g.image(in.gray), g.image(in.size.width / 2, in.size.height / 2, VX_DF_IMAGE_U8),
                               VX_INTERPOLATION_BILINEAR);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          cv::resize(in.gray, out, cv::Size(in.size.width / 2, in.size.height / 2), 0, 0, cv::INTER_LINEAR);
                        },
                        {}};
     }},
    // Not 2:1 (the case above has its own exact path): every output pixel blends four at its own fractions.
    {"ScaleImage3to5",
     [](OneNodeGraph& g, const Inputs& in) {
       return vxScaleImageNode(g.graph(), g.image(in.gray), g.image(in.size.width * 3 / 5, in.size.height * 3 / 5, VX_DF_IMAGE_U8),
                               VX_INTERPOLATION_BILINEAR);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          cv::resize(in.gray, out, cv::Size(in.size.width * 3 / 5, in.size.height * 3 / 5), 0, 0, cv::INTER_LINEAR);
                        },
                        {}};
     }},
    {"WarpAffine",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxWarpAffineNode(g.graph(), g.image(in.gray), g.matrix(2, 3, affine_for_openvx(in.rotation)), VX_INTERPOLATION_BILINEAR, g.u8(in)),
                          VX_BORDER_CONSTANT);
     },
     [](const Inputs& in) {
       // WARP_INVERSE_MAP: the matrix maps output to input, as OpenVX's does.
       return OpenCvRun{[&in, out = cv::Mat()]() mutable {
                          cv::warpAffine(in.gray, out, in.rotation, in.gray.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT);
                        },
                        {}};
     }},
    {"WarpPerspective",
     [](OneNodeGraph& g, const Inputs& in) {
       const cv::Mat m = perspective_of(in.rotation);
       return with_border(vxWarpPerspectiveNode(g.graph(), g.image(in.gray), g.matrix(3, 3, perspective_for_openvx(m)), VX_INTERPOLATION_BILINEAR, g.u8(in)),
                          VX_BORDER_CONSTANT);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, m = perspective_of(in.rotation), out = cv::Mat()]() mutable {
                          cv::warpPerspective(in.gray, out, m, in.gray.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT);
                        },
                        {}};
     }},
    {"Remap",
     [](OneNodeGraph& g, const Inputs& in) {
       const auto w = static_cast<vx_uint32>(in.size.width), h = static_cast<vx_uint32>(in.size.height);
       const auto [map_x, map_y] = rotation_maps(in);
       std::vector<vx_coordinates2df_t> table;
       table.reserve(static_cast<std::size_t>(w) * h);
       for (int y = 0; y < in.size.height; ++y) {
         for (int x = 0; x < in.size.width; ++x) table.push_back({map_x.at<float>(y, x), map_y.at<float>(y, x)});
       }
       vx_remap remap = g.keep(vxCreateRemap(g.context(), w, h, w, h));
       const vx_rectangle_t all{0, 0, w, h};
       vxCopyRemapPatch(remap, &all, w * sizeof(vx_coordinates2df_t), table.data(), VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
       return with_border(vxRemapNode(g.graph(), g.image(in.gray), remap, VX_INTERPOLATION_BILINEAR, g.u8(in)), VX_BORDER_CONSTANT);
     },
     [](const Inputs& in) {
       auto [map_x, map_y] = rotation_maps(in);
       return OpenCvRun{[&in, map_x, map_y, out = cv::Mat()]() mutable {
                          cv::remap(in.gray, out, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
                        },
                        {}};
     }},
    // HalfScaleGaussian is 3x3 here, cv::pyrDown 5x5: the closest OpenCV has.
    {"HalfScaleGaussian",
     [](OneNodeGraph& g, const Inputs& in) {
       return with_border(vxHalfScaleGaussianNode(g.graph(), g.image(in.gray), g.image((in.size.width + 1) / 2, (in.size.height + 1) / 2, VX_DF_IMAGE_U8), 3),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::pyrDown(in.gray, out); }, {}}; }},
    {"GaussianPyramid",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_pyramid p = g.keep(vxCreatePyramid(g.context(), kPyramidLevels, VX_SCALE_PYRAMID_HALF, static_cast<vx_uint32>(in.size.width),
                                             static_cast<vx_uint32>(in.size.height), VX_DF_IMAGE_U8));
       return with_border(vxGaussianPyramidNode(g.graph(), g.image(in.gray), p), VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, levels = std::vector<cv::Mat>()]() mutable { cv::buildPyramid(in.gray, levels, kPyramidLevels - 1); }, {}};
     }},
    // The Laplacian pair, kPyramidLevels levels. OpenCV has no Laplacian pyramid function: its side is the
    // same work by level, cv::pyrDown to the next Gaussian level, cv::pyrUp of it back to the level's size
    // and cv::subtract into CV_16S for the pyramid; cv::pyrUp of the coarser result and cv::add of the
    // CV_16S level into CV_8U for the reconstruction (pyrUp's expansion rounds where OpenVX's truncates).
    {"LaplacianPyramid",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_uint32 w = static_cast<vx_uint32>(in.size.width), h = static_cast<vx_uint32>(in.size.height);
       vx_pyramid p = g.keep(vxCreatePyramid(g.context(), kPyramidLevels, VX_SCALE_PYRAMID_HALF, w, h, VX_DF_IMAGE_S16));
       for (int l = 0; l < kPyramidLevels; ++l) w = (w + 1) / 2, h = (h + 1) / 2;
       return vxLaplacianPyramidNode(g.graph(), g.image(in.gray), p, g.image(static_cast<int>(w), static_cast<int>(h), VX_DF_IMAGE_U8));
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, gaussian = std::vector<cv::Mat>(kPyramidLevels + 1), up = std::vector<cv::Mat>(kPyramidLevels),
                         laplacian = std::vector<cv::Mat>(kPyramidLevels)]() mutable {
                          gaussian[0] = in.gray;
                          for (int l = 0; l < kPyramidLevels; ++l) {
                            cv::pyrDown(gaussian[l], gaussian[l + 1]);
                            cv::pyrUp(gaussian[l + 1], up[l], gaussian[l].size());
                            cv::subtract(gaussian[l], up[l], laplacian[l], cv::noArray(), CV_16S);
                          }
                        },
                        {}};
     }},
    {"LaplacianReconstruct",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_uint32 w = static_cast<vx_uint32>(in.size.width), h = static_cast<vx_uint32>(in.size.height);
       vx_pyramid p = g.keep(vxCreatePyramid(g.context(), kPyramidLevels, VX_SCALE_PYRAMID_HALF, w, h, VX_DF_IMAGE_S16));
       for (int l = 0; l < kPyramidLevels; ++l) w = (w + 1) / 2, h = (h + 1) / 2;
       vx_image lowest = g.image(static_cast<int>(w), static_cast<int>(h), VX_DF_IMAGE_U8);
       if (vxuLaplacianPyramid(g.context(), g.image(in.gray), p, lowest) != VX_SUCCESS) g.setup_failed = true;
       return vxLaplacianReconstructNode(g.graph(), p, lowest, g.u8(in));
     },
     [](const Inputs& in) {
       std::vector<cv::Mat> gaussian(kPyramidLevels + 1), laplacian(kPyramidLevels);
       gaussian[0] = in.gray;
       for (int l = 0; l < kPyramidLevels; ++l) {
         cv::Mat up;
         cv::pyrDown(gaussian[l], gaussian[l + 1]);
         cv::pyrUp(gaussian[l + 1], up, gaussian[l].size());
         cv::subtract(gaussian[l], up, laplacian[l], cv::noArray(), CV_16S);
       }
       return OpenCvRun{[laplacian, lowest = gaussian[kPyramidLevels], up = std::vector<cv::Mat>(kPyramidLevels),
                         result = std::vector<cv::Mat>(kPyramidLevels)]() mutable {
                          const cv::Mat* current = &lowest;
                          for (int l = kPyramidLevels; l-- > 0;) {
                            cv::pyrUp(*current, up[l], laplacian[l].size());
                            cv::add(up[l], laplacian[l], result[l], cv::noArray(), CV_8U);
                            current = &result[l];
                          }
                        },
                        {}};
     }},

    // Features, on the smoothed noise.
    {"CannyL1",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_threshold t = u8_threshold(g, VX_THRESHOLD_TYPE_RANGE);
       vx_pixel_value_t low{}, high{};
       low.U8 = kCannyLow;
       high.U8 = kCannyHigh;
       vxCopyThresholdRange(t, &low, &high, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
       return with_border(vxCannyEdgeDetectorNode(g.graph(), g.image(in.scene), t, 3, VX_NORM_L1, g.u8(in)), VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::Canny(in.scene, out, kCannyLow, kCannyHigh, 3, false); }, {}}; }},
    {"HarrisCorners",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_array corners = g.keep(vxCreateArray(g.context(), VX_TYPE_KEYPOINT, 100000));
       vx_scalar count = g.scalar(VX_TYPE_SIZE, vx_size{0});
       g.describe = [count] { return std::to_string(read_size(count)) + " corners"; };
       return with_border(vxHarrisCornersNode(g.graph(), g.image(in.scene), g.scalar(VX_TYPE_FLOAT32, kHarrisThreshold), g.scalar(VX_TYPE_FLOAT32, 3.0f),
                                              g.scalar(VX_TYPE_FLOAT32, kHarrisK), 3, 3, corners, count),
                          VX_BORDER_REPLICATE);
     },
     [](const Inputs& in) {
       return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::cornerHarris(in.scene, out, 3, 3, kHarrisK, cv::BORDER_REPLICATE); },
                        [] { return std::string("response image only"); }};
     }},
    {"MatchTemplate",
     [](OneNodeGraph& g, const Inputs& in) {
       // Sums of squared differences (S16, saturated) beside cv::TM_SQDIFF (CV_32F).
       const int w = in.size.width - kTemplateSide + 1, h = in.size.height - kTemplateSide + 1;
       return vxMatchTemplateNode(g.graph(), g.image(in.gray), g.image(in.patch), VX_COMPARE_L2, g.image(w, h, VX_DF_IMAGE_S16));
     },
     [](const Inputs& in) { return OpenCvRun{[&in, out = cv::Mat()]() mutable { cv::matchTemplate(in.gray, in.patch, out, cv::TM_SQDIFF); }, {}}; }},
    {"HoughLinesP",
     [](OneNodeGraph& g, const Inputs& in) {
       const vx_hough_lines_p_t params{1.0f, static_cast<vx_float32>(CV_PI / 180), kHoughVotes, kHoughMinLength, kHoughMaxGap,
                                       static_cast<vx_float32>(CV_PI), 0.0f};
       vx_array lines = g.keep(vxCreateArray(g.context(), VX_TYPE_LINE_2D, 100000));
       vx_scalar count = g.scalar(VX_TYPE_SIZE, vx_size{0});
       g.describe = [count] { return std::to_string(read_size(count)) + " lines"; };
       return vxHoughLinesPNode(g.graph(), g.image(in.edges), &params, lines, count);
     },
     [](const Inputs& in) {
       auto lines = std::make_shared<std::vector<cv::Vec4i>>();
       return OpenCvRun{[&in, lines] { cv::HoughLinesP(in.edges, *lines, 1, CV_PI / 180, kHoughVotes, kHoughMinLength, kHoughMaxGap); },
                        [lines] { return std::to_string(lines->size()) + " lines"; }};
     }},
#ifdef VG_BENCH_OPENCV_FEATURES
    {"FastCorners",
     [](OneNodeGraph& g, const Inputs& in) {
       vx_array corners = g.keep(vxCreateArray(g.context(), VX_TYPE_KEYPOINT, 100000));
       vx_scalar count = g.scalar(VX_TYPE_SIZE, vx_size{0});
       g.describe = [count] { return std::to_string(read_size(count)) + " corners"; };
       return vxFastCornersNode(g.graph(), g.image(in.scene), g.scalar(VX_TYPE_FLOAT32, static_cast<vx_float32>(kFastThreshold)), vx_true_e, corners,
                                count);
     },
     [](const Inputs& in) {
       auto corners = std::make_shared<std::vector<cv::KeyPoint>>();
       return OpenCvRun{[&in, corners] { cv::FAST(in.scene, *corners, kFastThreshold, true); },
                        [corners] { return std::to_string(corners->size()) + " corners"; }};
     }},
    {"OpticalFlowPyrLK",
     [](OneNodeGraph& g, const Inputs& in) {
       std::vector<vx_keypoint_t> points;
       for (const cv::Point2f& p : points_to_track(in)) points.push_back({static_cast<vx_int32>(p.x), static_cast<vx_int32>(p.y), 0, 0, 0, 1, 0});
       vx_array old_points = g.keypoints(points.size()), new_points = g.keypoints(points.size());
       vxAddArrayItems(old_points, points.size(), points.data(), sizeof(vx_keypoint_t));
       g.describe = [n = points.size()] { return std::to_string(n) + " points"; };
       // The pyramids are built now, as OpenCV's are: both time the tracking alone.
       return vxOpticalFlowPyrLKNode(g.graph(), g.pyramid_of(in.scene), g.pyramid_of(in.scene_moved), old_points, old_points, new_points,
                                     VX_TERM_CRITERIA_BOTH, g.scalar(VX_TYPE_FLOAT32, kFlowEpsilon),
                                     g.scalar(VX_TYPE_UINT32, vx_uint32{kFlowIterations}), g.scalar(VX_TYPE_BOOL, vx_false_e), kFlowWindow);
     },
     [](const Inputs& in) {
       // Without derivatives in the pyramids, calcOpticalFlowPyrLK computes them per call, as OpenVX does.
       const cv::Size window(kFlowWindow, kFlowWindow);
       std::vector<cv::Mat> old_pyramid, new_pyramid;
       cv::buildOpticalFlowPyramid(in.scene, old_pyramid, window, kPyramidLevels - 1, false);
       cv::buildOpticalFlowPyramid(in.scene_moved, new_pyramid, window, kPyramidLevels - 1, false);
       auto points = points_to_track(in);
       const auto n = points.size();
       return OpenCvRun{[old_pyramid, new_pyramid, points, window, moved = std::vector<cv::Point2f>(), status = std::vector<uchar>(),
                         error = std::vector<float>()]() mutable {
                          cv::calcOpticalFlowPyrLK(old_pyramid, new_pyramid, points, moved, status, error, window, kPyramidLevels - 1,
                                                   cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, kFlowIterations, kFlowEpsilon));
                        },
                        [n] { return std::to_string(n) + " points"; }};
     }},
#endif
};

std::string status_message(const Kernel& kernel, const char* step, vx_status status) {
  return std::string(kernel.name) + ": " + step + " failed, status " + std::to_string(status);
}

void run_openvx(benchmark::State& state, const Kernel& kernel, FrameSize size) {
  const Inputs& in = inputs_for(size);
  OneNodeGraph g;
  vx_node node = g.keep(kernel.openvx(g, in));
  // Every status is checked once here, so a kernel that fails shows as an error instead of being timed.
  if (g.setup_failed) return state.SkipWithError(status_message(kernel, "preparing the inputs", VX_FAILURE).c_str());
  vx_status status = vxGetStatus(reinterpret_cast<vx_reference>(node));
  if (status != VX_SUCCESS) return state.SkipWithError(status_message(kernel, "creating the node", status).c_str());
  status = vxSetNodeTarget(node, VX_TARGET_STRING, "cpu0");
  if (status != VX_SUCCESS) return state.SkipWithError(status_message(kernel, "vxSetNodeTarget", status).c_str());
  status = vxVerifyGraph(g.graph());
  if (status != VX_SUCCESS) return state.SkipWithError(status_message(kernel, "vxVerifyGraph", status).c_str());
  status = vxProcessGraph(g.graph());
  if (status != VX_SUCCESS) return state.SkipWithError(status_message(kernel, "vxProcessGraph", status).c_str());
  if (g.describe) state.SetLabel(g.describe());

  for (auto _ : state) {
    if (vxProcessGraph(g.graph()) != VX_SUCCESS) {
      state.SkipWithError(status_message(kernel, "vxProcessGraph", VX_FAILURE).c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}

void run_opencv(benchmark::State& state, const Kernel& kernel, FrameSize size) {
  const Inputs& in = inputs_for(size);
  OpenCvRun run = kernel.opencv(in);
  run.call();  // Allocates the outputs, as OpenVX's were made before timing.
  if (run.describe) state.SetLabel(run.describe());
  for (auto _ : state) run.call();
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  // One thread for OpenCV, as the OpenVX node is one node on one target.
  cv::setNumThreads(1);
  for (const Kernel& kernel : kKernels) {
    for (const FrameSize size : kSizes) {
      const std::string name = std::string("BM_Kernel/") + kernel.name;
      benchmark::RegisterBenchmark((name + "/OpenVX/" + size.name()).c_str(), run_openvx, kernel, size)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark((name + "/OpenCV/" + size.name()).c_str(), run_opencv, kernel, size)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
