// The standard kernel OpticalFlowPyrLK. The images are a smooth analytic texture and the same texture
// moved by a known sub-pixel shift, so where every point must land is known without a second
// implementation: tracked points land on the rounded shifted position (within a pixel). Also: both
// pyramid scales, each termination criterion, odd and even windows, initial estimates, points that are
// lost (on entry, at the edge, on flat ground), graph and immediate forms, a virtual output array, no
// allocation per frame, and the refusals of the validate.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "alloc_counter.hpp"
#include "openvx_zero_alloc.hpp"
#include "image_pixels.hpp"
#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::image_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::Pixels;
using vg_openvx_test::status_of;

using U8 = Pixels<vx_uint8>;

constexpr vx_uint32 kWidth = 120, kHeight = 96;

/// A smooth texture without repeats at the scale of a window: incommensurate waves, values in [13, 243].
double texture(double x, double y) {
  return 128 + 50 * std::sin(0.21 * x + 0.13 * y) + 40 * std::cos(0.17 * y - 0.09 * x + 1.0) + 25 * std::sin(0.37 * x) * std::cos(0.29 * y);
}

/// The texture moved by (@p dx, @p dy): pixel (x, y) shows what the unmoved texture has at (x - dx, y - dy).
U8 shifted_texture(double dx, double dy) {
  U8 p(kWidth, kHeight);
  for (vx_uint32 y = 0; y < kHeight; ++y) {
    for (vx_uint32 x = 0; x < kWidth; ++x) p.at(x, y) = static_cast<vx_uint8>(std::lround(texture(x - dx, y - dy)));
  }
  return p;
}

U8 flat(vx_uint8 value) {
  U8 p(kWidth, kHeight);
  for (vx_uint8& v : p.values) v = value;
  return p;
}

vx_keypoint_t keypoint(vx_int32 x, vx_int32 y, vx_int32 status = 1) { return vx_keypoint_t{x, y, 7.0f, 0.0f, 0.0f, status, 0.0f}; }

/// Interior points on a grid, away from the edges by more than the largest window tried here.
std::vector<vx_keypoint_t> grid_points() {
  std::vector<vx_keypoint_t> points;
  for (vx_int32 y = 24; y <= 72; y += 12) {
    for (vx_int32 x = 24; x <= 96; x += 12) points.push_back(keypoint(x, y));
  }
  return points;
}

vx_array keypoint_array(vx_context context, const std::vector<vx_keypoint_t>& points, vx_size capacity = 0) {
  vx_array array = vxCreateArray(context, VX_TYPE_KEYPOINT, capacity != 0 ? capacity : points.size());
  EXPECT_EQ(status_of(array), VX_SUCCESS);
  if (!points.empty()) {
    EXPECT_EQ(vxAddArrayItems(array, points.size(), points.data(), sizeof(vx_keypoint_t)), VX_SUCCESS);
  }
  return array;
}

std::vector<vx_keypoint_t> read_keypoints(vx_array array) {
  vx_size count = 0;
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_NUMITEMS, &count, sizeof count), VX_SUCCESS);
  std::vector<vx_keypoint_t> points(count);
  if (count > 0) {
    EXPECT_EQ(vxCopyArrayRange(array, 0, count, sizeof(vx_keypoint_t), points.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  return points;
}

/// A Gaussian pyramid of @p levels levels of @p scale over @p pixels; the caller releases it.
vx_pyramid pyramid_of(vx_context context, const U8& pixels, vx_size levels, vx_float32 scale) {
  vx_pyramid pyramid = vxCreatePyramid(context, levels, scale, pixels.width, pixels.height, VX_DF_IMAGE_U8);
  EXPECT_EQ(status_of(pyramid), VX_SUCCESS);
  vx_image image = image_of(context, pixels);
  EXPECT_EQ(vxuGaussianPyramid(context, image, pyramid), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  return pyramid;
}

/// What a run takes besides the pyramids and the points.
struct Settings {
  vx_enum termination = VX_TERM_CRITERIA_BOTH;
  vx_float32 epsilon = 0.001f;
  vx_uint32 iterations = 30;
  vx_bool use_estimate = vx_false_e;
  vx_size window = 9;
};

/// The scalars of a run, released with it.
struct Scalars {
  vx_scalar epsilon, iterations, use_estimate;
  Scalars(vx_context context, const Settings& s)
      : epsilon(vxCreateScalar(context, VX_TYPE_FLOAT32, &s.epsilon)),
        iterations(vxCreateScalar(context, VX_TYPE_UINT32, &s.iterations)),
        use_estimate(vxCreateScalar(context, VX_TYPE_BOOL, &s.use_estimate)) {}
  ~Scalars() {
    EXPECT_EQ(vxReleaseScalar(&epsilon), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&iterations), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&use_estimate), VX_SUCCESS);
  }
};

class OpticalFlow : public OpenVx {
 protected:
  /// Tracks @p old_points from @p old_pixels to @p new_pixels (pyramids of @p levels levels of @p scale)
  /// in a graph, or immediately; the new points in @p out, the status of the run returned.
  vx_status track(const U8& old_pixels, const U8& new_pixels, vx_size levels, vx_float32 scale, const std::vector<vx_keypoint_t>& old_points,
                  const std::vector<vx_keypoint_t>& estimates, const Settings& settings, std::vector<vx_keypoint_t>& out,
                  bool immediate = false) {
    vx_pyramid old_pyramid = pyramid_of(context_, old_pixels, levels, scale);
    vx_pyramid new_pyramid = pyramid_of(context_, new_pixels, levels, scale);
    vx_array old_array = keypoint_array(context_, old_points, std::max<vx_size>(old_points.size(), 1));
    vx_array estimate_array = keypoint_array(context_, estimates, std::max<vx_size>(estimates.size(), 1));
    vx_array new_array = vxCreateArray(context_, VX_TYPE_KEYPOINT, std::max<vx_size>(old_points.size(), 1));
    const Scalars scalars(context_, settings);
    vx_status status;
    if (immediate) {
      status = vxuOpticalFlowPyrLK(context_, old_pyramid, new_pyramid, old_array, estimate_array, new_array, settings.termination, scalars.epsilon,
                                   scalars.iterations, scalars.use_estimate, settings.window);
    } else {
      vx_graph graph = vxCreateGraph(context_);
      vx_node node = vxOpticalFlowPyrLKNode(graph, old_pyramid, new_pyramid, old_array, estimate_array, new_array, settings.termination,
                                            scalars.epsilon, scalars.iterations, scalars.use_estimate, settings.window);
      EXPECT_EQ(status_of(node), VX_SUCCESS);
      status = vxVerifyGraph(graph);
      if (status == VX_SUCCESS) status = vxProcessGraph(graph);
      if (status == VX_SUCCESS) status = vxProcessGraph(graph);  // a second frame gives the same points
      EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
      EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    }
    out = read_keypoints(new_array);
    for (vx_array* a : {&old_array, &estimate_array, &new_array}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
    for (vx_pyramid* p : {&old_pyramid, &new_pyramid}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
    return status;
  }
};

/// Every point tracked, onto the rounded shifted position within @p tolerance pixels.
void expect_shifted(const std::vector<vx_keypoint_t>& old_points, const std::vector<vx_keypoint_t>& out, double dx, double dy,
                    int tolerance, const std::string& what) {
  ASSERT_EQ(out.size(), old_points.size()) << what;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const long ex = std::lround(old_points[i].x + dx), ey = std::lround(old_points[i].y + dy);
    EXPECT_EQ(out[i].tracking_status, 1) << what << ": point " << i << " lost";
    EXPECT_LE(std::labs(out[i].x - ex), tolerance) << what << ": point " << i << " x " << out[i].x << ", expected " << ex;
    EXPECT_LE(std::labs(out[i].y - ey), tolerance) << what << ": point " << i << " y " << out[i].y << ", expected " << ey;
    EXPECT_EQ(out[i].strength, old_points[i].strength) << what;
    EXPECT_EQ(out[i].scale, 0.0f) << what;
    EXPECT_EQ(out[i].orientation, 0.0f) << what;
  }
}

TEST_F(OpticalFlow, TracksAShiftedTextureOnHalfAndOrbPyramidsWithEachCriterionAndWindow) {
  const double dx = 2.6, dy = -1.4;
  const U8 before = shifted_texture(0, 0), after = shifted_texture(dx, dy);
  const std::vector<vx_keypoint_t> points = grid_points();
  struct Case {
    vx_float32 scale;
    vx_size levels;
    vx_enum termination;
    vx_size window;
  };
  for (const Case c : {Case{VX_SCALE_PYRAMID_HALF, 3, VX_TERM_CRITERIA_BOTH, 9}, Case{VX_SCALE_PYRAMID_HALF, 2, VX_TERM_CRITERIA_ITERATIONS, 5},
                       Case{VX_SCALE_PYRAMID_HALF, 4, VX_TERM_CRITERIA_EPSILON, 7}, Case{VX_SCALE_PYRAMID_HALF, 3, VX_TERM_CRITERIA_BOTH, 10},
                       Case{VX_SCALE_PYRAMID_HALF, 2, VX_TERM_CRITERIA_BOTH, 21}, Case{VX_SCALE_PYRAMID_ORB, 4, VX_TERM_CRITERIA_BOTH, 9},
                       Case{VX_SCALE_PYRAMID_ORB, 6, VX_TERM_CRITERIA_ITERATIONS, 5}}) {
    const std::string what = "scale " + std::to_string(c.scale) + ", " + std::to_string(c.levels) + " levels, termination " +
                             std::to_string(c.termination) + ", window " + std::to_string(c.window);
    Settings settings;
    settings.termination = c.termination;
    settings.window = c.window;
    std::vector<vx_keypoint_t> out;
    ASSERT_EQ(track(before, after, c.levels, c.scale, points, points, settings, out), VX_SUCCESS) << what;
    expect_shifted(points, out, dx, dy, 1, what);
  }
}

TEST_F(OpticalFlow, ImmediateFormGivesTheGraphsPoints) {
  const U8 before = shifted_texture(0, 0), after = shifted_texture(-3.3, 2.2);
  const std::vector<vx_keypoint_t> points = grid_points();
  std::vector<vx_keypoint_t> from_graph, immediate;
  ASSERT_EQ(track(before, after, 3, VX_SCALE_PYRAMID_HALF, points, points, Settings{}, from_graph), VX_SUCCESS);
  ASSERT_EQ(track(before, after, 3, VX_SCALE_PYRAMID_HALF, points, points, Settings{}, immediate, true), VX_SUCCESS);
  ASSERT_EQ(from_graph.size(), immediate.size());
  for (std::size_t i = 0; i < immediate.size(); ++i) {
    EXPECT_EQ(immediate[i].x, from_graph[i].x) << i;
    EXPECT_EQ(immediate[i].y, from_graph[i].y) << i;
    EXPECT_EQ(immediate[i].tracking_status, from_graph[i].tracking_status) << i;
  }
  expect_shifted(points, immediate, -3.3, 2.2, 1, "immediate");
}

TEST_F(OpticalFlow, InitialEstimatesAreUsedOnlyWhenAskedFor) {
  // One level and a shift larger than the window: only a good estimate reaches it.
  const double dx = 9.0, dy = 0.0;
  const U8 before = shifted_texture(0, 0), after = shifted_texture(dx, dy);
  const std::vector<vx_keypoint_t> points = grid_points();
  std::vector<vx_keypoint_t> estimates;
  for (const vx_keypoint_t& p : points) estimates.push_back(keypoint(p.x + 8, p.y + 1));
  Settings settings;
  settings.window = 7;
  settings.use_estimate = vx_true_e;
  std::vector<vx_keypoint_t> out;
  ASSERT_EQ(track(before, after, 1, VX_SCALE_PYRAMID_HALF, points, estimates, settings, out), VX_SUCCESS);
  expect_shifted(points, out, dx, dy, 1, "with estimates");
  // Estimates far off, but not used: a small shift is tracked from the old points.
  const U8 near = shifted_texture(1.2, 0.7);
  std::vector<vx_keypoint_t> far_off(points.size(), keypoint(0, 0));
  settings.use_estimate = vx_false_e;
  ASSERT_EQ(track(before, near, 1, VX_SCALE_PYRAMID_HALF, points, far_off, settings, out), VX_SUCCESS);
  expect_shifted(points, out, 1.2, 0.7, 1, "estimates ignored");
}

TEST_F(OpticalFlow, ZeroIterationsLeaveTheStartingPosition) {
  const U8 before = shifted_texture(0, 0), after = shifted_texture(2.0, 2.0);
  const std::vector<vx_keypoint_t> points = grid_points();
  std::vector<vx_keypoint_t> estimates;
  for (const vx_keypoint_t& p : points) estimates.push_back(keypoint(p.x + 1, p.y - 1));
  Settings settings;
  settings.termination = VX_TERM_CRITERIA_ITERATIONS;
  settings.iterations = 0;
  settings.use_estimate = vx_true_e;
  std::vector<vx_keypoint_t> out;
  ASSERT_EQ(track(before, after, 3, VX_SCALE_PYRAMID_HALF, points, estimates, settings, out), VX_SUCCESS);
  ASSERT_EQ(out.size(), points.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].x, estimates[i].x) << i;
    EXPECT_EQ(out[i].y, estimates[i].y) << i;
    EXPECT_EQ(out[i].tracking_status, 1) << i;
  }
}

TEST_F(OpticalFlow, LostPointsStayLostAndPointsAtTheEdgeOrOnFlatGroundAreLost) {
  const U8 before = shifted_texture(0, 0), after = shifted_texture(1.5, -0.5);
  // Lost on entry (keeps its position); two off the image; one by the edge, tracked; one in the middle.
  const std::vector<vx_keypoint_t> points = {keypoint(40, 40, 0), keypoint(-1, 50), keypoint(60, kHeight), keypoint(2, 50), keypoint(60, 48)};
  std::vector<vx_keypoint_t> out;
  ASSERT_EQ(track(before, after, 3, VX_SCALE_PYRAMID_HALF, points, points, Settings{}, out), VX_SUCCESS);
  ASSERT_EQ(out.size(), points.size());
  EXPECT_EQ(out[0].tracking_status, 0);
  EXPECT_EQ(out[0].x, 40);
  EXPECT_EQ(out[0].y, 40);
  EXPECT_EQ(out[1].tracking_status, 0);
  EXPECT_EQ(out[2].tracking_status, 0);
  // By the edge the window reads the mirrored image, which the moved texture does not continue: within 2.
  for (std::size_t i : {3u, 4u}) {
    const long tolerance = i == 3 ? 2 : 1;
    EXPECT_EQ(out[i].tracking_status, 1) << i;
    EXPECT_LE(std::labs(out[i].x - std::lround(points[i].x + 1.5)), tolerance) << i;
    EXPECT_LE(std::labs(out[i].y - std::lround(points[i].y - 0.5)), tolerance) << i;
  }
  // A start off the image that no iteration moves: lost.
  Settings still;
  still.termination = VX_TERM_CRITERIA_ITERATIONS;
  still.iterations = 0;
  still.use_estimate = vx_true_e;
  const std::vector<vx_keypoint_t> inside = {keypoint(60, 48)}, off = {keypoint(static_cast<vx_int32>(kWidth) + 4, 48)};
  ASSERT_EQ(track(before, after, 2, VX_SCALE_PYRAMID_HALF, inside, off, still, out), VX_SUCCESS);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tracking_status, 0);
  // Nothing to follow on a flat image.
  const std::vector<vx_keypoint_t> middle = {keypoint(60, 48)};
  ASSERT_EQ(track(flat(90), flat(90), 3, VX_SCALE_PYRAMID_HALF, middle, middle, Settings{}, out), VX_SUCCESS);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].tracking_status, 0);
  // An empty list gives an empty list.
  ASSERT_EQ(track(before, after, 2, VX_SCALE_PYRAMID_HALF, {}, {}, Settings{}, out), VX_SUCCESS);
  EXPECT_TRUE(out.empty());
}

TEST_F(OpticalFlow, TheLargestWindowIsTheContextsAndAVirtualOutputTakesTheOldPointsCapacity) {
  vx_size largest = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION, &largest, sizeof largest), VX_SUCCESS);
  EXPECT_GE(largest, 10u);  // the specification's 9, and the even 10 the conformance suite verifies with
  // FastCorners -> virtual array -> OpticalFlowPyrLK -> virtual array of open type and capacity -> Copy.
  const U8 before = shifted_texture(0, 0), after = shifted_texture(1.0, 1.0);
  vx_pyramid old_pyramid = pyramid_of(context_, before, 3, VX_SCALE_PYRAMID_HALF);
  vx_pyramid new_pyramid = pyramid_of(context_, after, 3, VX_SCALE_PYRAMID_HALF);
  vx_image frame = image_of(context_, before);
  const vx_float32 threshold = 10.0f;
  Settings settings;
  settings.window = largest;
  const Scalars scalars(context_, settings);
  vx_scalar strength = vxCreateScalar(context_, VX_TYPE_FLOAT32, &threshold);
  vx_array result = vxCreateArray(context_, VX_TYPE_KEYPOINT, 40);
  vx_graph graph = vxCreateGraph(context_);
  vx_array corners = vxCreateVirtualArray(graph, 0, 40), tracked = vxCreateVirtualArray(graph, 0, 0);
  vx_node nodes[3] = {vxFastCornersNode(graph, frame, strength, vx_true_e, corners, nullptr),
                      vxOpticalFlowPyrLKNode(graph, old_pyramid, new_pyramid, corners, corners, tracked, VX_TERM_CRITERIA_BOTH,
                                             scalars.epsilon, scalars.iterations, scalars.use_estimate, largest),
                      vxCopyNode(graph, reinterpret_cast<vx_reference>(tracked), reinterpret_cast<vx_reference>(result))};
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  vx_size capacity = 0;
  EXPECT_EQ(vxQueryArray(tracked, VX_ARRAY_CAPACITY, &capacity, sizeof capacity), VX_SUCCESS);
  EXPECT_EQ(capacity, 40u);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  const std::vector<vx_keypoint_t> out = read_keypoints(result);
  EXPECT_GT(out.size(), 0u) << "the texture has corners";
  std::size_t inside = 0;
  for (const vx_keypoint_t& p : out) {
    if (p.tracking_status == 0) continue;
    ++inside;
    EXPECT_GE(p.x, 0);
    EXPECT_LT(p.x, static_cast<vx_int32>(kWidth));
  }
  EXPECT_GT(inside, 0u);
  for (vx_node& n : nodes) EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  for (vx_array* a : {&corners, &tracked, &result}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
  for (vx_pyramid* p : {&old_pyramid, &new_pyramid}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&frame), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&strength), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpticalFlow, FramesAllocateNothing) {
  const U8 before = shifted_texture(0, 0), after = shifted_texture(2.2, 1.1);
  const std::vector<vx_keypoint_t> points = grid_points();
  vx_pyramid old_pyramid = pyramid_of(context_, before, 3, VX_SCALE_PYRAMID_HALF);
  vx_pyramid new_pyramid = pyramid_of(context_, after, 3, VX_SCALE_PYRAMID_HALF);
  vx_array old_array = keypoint_array(context_, points), new_array = vxCreateArray(context_, VX_TYPE_KEYPOINT, points.size());
  const Settings settings;
  const Scalars scalars(context_, settings);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxOpticalFlowPyrLKNode(graph, old_pyramid, new_pyramid, old_array, old_array, new_array, VX_TERM_CRITERIA_BOTH,
                                        scalars.epsilon, scalars.iterations, scalars.use_estimate, 9);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(vg_openvx_test::expect_frames_allocate_nothing(graph, 3, 20));
  expect_shifted(points, read_keypoints(new_array), 2.2, 1.1, 1, "after the counted frames");
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_array* a : {&old_array, &new_array}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
  for (vx_pyramid* p : {&old_pyramid, &new_pyramid}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
}

TEST_F(OpticalFlow, RefusesWrongPyramidsArraysScalarsAndWindows) {
  const U8 pixels = shifted_texture(0, 0);
  vx_pyramid good = pyramid_of(context_, pixels, 3, VX_SCALE_PYRAMID_HALF);
  vx_pyramid other = pyramid_of(context_, pixels, 3, VX_SCALE_PYRAMID_HALF);
  vx_pyramid two_levels = pyramid_of(context_, pixels, 2, VX_SCALE_PYRAMID_HALF);
  vx_pyramid orb = pyramid_of(context_, pixels, 3, VX_SCALE_PYRAMID_ORB);
  vx_pyramid s16 = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, kWidth, kHeight, VX_DF_IMAGE_S16);
  vx_pyramid smaller = vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, kWidth - 2, kHeight, VX_DF_IMAGE_U8);
  const std::vector<vx_keypoint_t> points = grid_points();
  vx_array old_points = keypoint_array(context_, points), out = vxCreateArray(context_, VX_TYPE_KEYPOINT, points.size());
  vx_array coordinates = vxCreateArray(context_, VX_TYPE_COORDINATES2D, points.size());
  const Settings settings;
  const Scalars scalars(context_, settings);
  const vx_int32 int_value = 1;
  const vx_float32 negative = -1.0f;
  vx_scalar int32_scalar = vxCreateScalar(context_, VX_TYPE_INT32, &int_value);
  vx_scalar negative_epsilon = vxCreateScalar(context_, VX_TYPE_FLOAT32, &negative);

  struct Case {
    const char* what;
    vx_pyramid old_images, new_images;
    vx_array old_array, estimates, new_array;
    vx_enum termination;
    vx_scalar epsilon, iterations, use_estimate;
    vx_size window;
    vx_status expected;
  };
  const Case base{"good", good, other, old_points, old_points, out, VX_TERM_CRITERIA_BOTH, scalars.epsilon, scalars.iterations,
                  scalars.use_estimate, 9, VX_SUCCESS};
  std::vector<Case> cases = {base};
  // base with one change.
  auto variant = [&](const char* what, vx_status expected, auto change) {
    Case c = base;
    c.what = what;
    c.expected = expected;
    change(c);
    cases.push_back(c);
  };
  variant("S16 pyramid", VX_ERROR_INVALID_FORMAT, [&](Case& c) { c.old_images = s16; });
  variant("level counts differ", VX_ERROR_INVALID_DIMENSION, [&](Case& c) { c.new_images = two_levels; });
  variant("scales differ", VX_ERROR_INVALID_DIMENSION, [&](Case& c) { c.new_images = orb; });
  variant("sizes differ", VX_ERROR_INVALID_DIMENSION, [&](Case& c) { c.new_images = smaller; });
  variant("old points of coordinates", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.old_array = coordinates; });
  variant("estimates of coordinates", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.estimates = coordinates; });
  variant("output of coordinates", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.new_array = coordinates; });
  variant("unknown termination", VX_ERROR_INVALID_VALUE, [&](Case& c) { c.termination = VX_INTERPOLATION_BILINEAR; });
  variant("epsilon of INT32", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.epsilon = int32_scalar; });
  variant("num_iterations of INT32", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.iterations = int32_scalar; });
  variant("use_initial_estimate of INT32", VX_ERROR_INVALID_TYPE, [&](Case& c) { c.use_estimate = int32_scalar; });
  variant("negative epsilon", VX_ERROR_INVALID_VALUE, [&](Case& c) { c.epsilon = negative_epsilon; });
  variant("window of 2", VX_ERROR_INVALID_VALUE, [&](Case& c) { c.window = 2; });
  vx_size largest = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION, &largest, sizeof largest), VX_SUCCESS);
  variant("window above the context's largest", VX_ERROR_INVALID_VALUE, [&](Case& c) { c.window = largest + 1; });
  for (const Case& c : cases) {
    vx_graph graph = vxCreateGraph(context_);
    vx_node node = vxOpticalFlowPyrLKNode(graph, c.old_images, c.new_images, c.old_array, c.estimates, c.new_array, c.termination, c.epsilon,
                                          c.iterations, c.use_estimate, c.window);
    ASSERT_EQ(status_of(node), VX_SUCCESS) << c.what;
    EXPECT_EQ(vxVerifyGraph(graph), c.expected) << c.what;
    EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  }
  // With use_initial_estimate the estimates must be as many as the old points (known only when it runs).
  {
    const vx_bool yes = vx_true_e;
    vx_scalar use = vxCreateScalar(context_, VX_TYPE_BOOL, &yes);
    vx_array few = keypoint_array(context_, {points[0]}, points.size());
    EXPECT_NE(vxuOpticalFlowPyrLK(context_, good, other, old_points, few, out, VX_TERM_CRITERIA_BOTH, scalars.epsilon, scalars.iterations, use, 9),
              VX_SUCCESS);
    EXPECT_TRUE(logged("new_points_estimates holds 1 points"));
    // An output smaller than the list of old points cannot hold the result.
    vx_array tiny = vxCreateArray(context_, VX_TYPE_KEYPOINT, 2);
    EXPECT_NE(vxuOpticalFlowPyrLK(context_, good, other, old_points, old_points, tiny, VX_TERM_CRITERIA_BOTH, scalars.epsilon, scalars.iterations,
                                  scalars.use_estimate, 9),
              VX_SUCCESS);
    for (vx_array* a : {&few, &tiny}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&use), VX_SUCCESS);
  }
  for (vx_pyramid* p : {&good, &other, &two_levels, &orb, &s16, &smaller}) EXPECT_EQ(vxReleasePyramid(p), VX_SUCCESS);
  for (vx_array* a : {&old_points, &out, &coordinates}) EXPECT_EQ(vxReleaseArray(a), VX_SUCCESS);
  for (vx_scalar* s : {&int32_scalar, &negative_epsilon}) EXPECT_EQ(vxReleaseScalar(s), VX_SUCCESS);
}

}  // namespace
