#pragma once
/// @file
/// @brief OpenVX's OpticalFlowPyrLK: sparse points followed from one image to the next by pyramidal
/// Lucas-Kanade (Bouguet's scheme), on pyramids of U8 levels the caller builds (gaussian_half makes OpenVX's
/// HALF pyramids).
#include <cstdint>
#include <span>

#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// The largest window side (OpenVX's VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION here).
inline constexpr int kMaxTrackWindow = 31;
/// The smallest.
inline constexpr int kMinTrackWindow = 3;

/// @brief One point to follow. In: where it was on the old image (old_x, old_y), where to start looking on
/// the new one (x, y: the old position, or an estimate), and whether to follow it at all. Out: (x, y) where
/// it is on the new image, and tracked false when it was lost (left the image, or stood on too flat a
/// texture). A point given with tracked false is left as it is. All positions are level 0's pixels.
struct TrackPoint {
  float old_x = 0, old_y = 0;
  float x = 0, y = 0;
  bool tracked = true;
};

/// @brief What vg.vision.optical_flow gives per point (array item type "vg.vision.track"): where it was in
/// the previous frame, where it is in this one, and whether it was followed there (0: lost).
struct PointTrack {
  float from_x = 0, from_y = 0;
  float x = 0, y = 0;
  std::uint32_t tracked = 0;
};

/// @brief When a point's refinement on one level stops: after @p iterations steps, or (@p use_epsilon) once
/// a step's squared length is at most @p epsilon, or when a step undoes the one before (the position then
/// goes back half of it). The window is @p window x @p window pixels, its top-left corner the position
/// less floor(window / 2).
struct LucasKanadeOptions {
  int window = 21;
  std::uint32_t iterations = 30;
  bool use_epsilon = true;
  float epsilon = 0.01f;
};

/// @brief The step bound when only epsilon ends a level (OpenVX's VX_TERM_CRITERIA_EPSILON reads no iteration
/// count): a point's work stays bounded. libopenvx and vg.vision.optical_flow set `iterations` to it then.
inline constexpr std::uint32_t kEpsilonOnlyIterations = 100;

/// @brief The working memory of track_points (about 36 KB): the caller keeps one, so tracking allocates
/// nothing. Not shared by two calls at once.
struct LucasKanadeScratch {
  static constexpr int kSamples = kMaxTrackWindow * kMaxTrackWindow;
  static constexpr int kPatch = (kMaxTrackWindow + 3) * (kMaxTrackWindow + 3);
  static constexpr int kGrid = (kMaxTrackWindow + 1) * (kMaxTrackWindow + 1);
  double values[kSamples];  // the old level's values at the window's positions
  double grad_x[kSamples];  // its Scharr gradients there
  double grad_y[kSamples];
  float patch[kPatch];      // the pixels a window reads
  float scharr_x[kGrid];    // Scharr responses on the whole pixels under the window
  float scharr_y[kGrid];
};

/// @brief Follows @p points from the old pyramid to the new one, top level first. Level i of each is
/// @p scale^i times level 0's size (0 < scale < 1); both have one level count. Per level, a point's
/// position is refined by Lucas-Kanade steps over the window (values and gradients read bilinearly at
/// sub-pixel positions; gradients are the old level's Scharr responses / 32; pixels past an edge mirror the
/// image about its edge pixels), and handed to the level below divided by @p scale. On level 0 a point is
/// lost when its old or new position leaves the image (outside the first and last pixel centres) or the
/// smaller eigenvalue of the window's gradient matrix per pixel is below 0.1024; on higher levels these
/// only end that level's refinement. Returns false (changing nothing) for a window outside
/// kMinTrackWindow..kMaxTrackWindow, no levels, level counts that differ, or a scale outside (0, 1).
bool track_points(std::span<const ConstPlane> old_levels, std::span<const ConstPlane> new_levels, double scale,
                  const LucasKanadeOptions& options, LucasKanadeScratch& scratch, std::span<TrackPoint> points) noexcept;

/// @brief track_points one level at a time, for a caller that has one level of each pyramid at hand at
/// once: track_points_start, then track_points_level for level = top_level down to 0 (level i is
/// @p scale^i times level 0's size). The same results as track_points.
void track_points_start(std::span<TrackPoint> points, double scale, int top_level) noexcept;
/// @brief One level of track_points (see track_points_start). Returns false (changing nothing) for a window
/// outside kMinTrackWindow..kMaxTrackWindow, a level outside 0..top_level or a scale outside (0, 1).
bool track_points_level(ConstPlane old_level, ConstPlane new_level, int level, int top_level, double scale,
                        const LucasKanadeOptions& options, LucasKanadeScratch& scratch, std::span<TrackPoint> points) noexcept;

}  // namespace vg::vision
