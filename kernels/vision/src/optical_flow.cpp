// Pyramidal Lucas-Kanade tracking (optical_flow.hpp), moved here from libopenvx's OpticalFlowPyrLK so the
// vg.vision kernel and the C API follow points with one implementation. A point's work is a few small
// windows, each read once into a patch of floats; the sums are in double, in one fixed order, so every
// platform gives the same positions.
#include "visiongraph/kernels/vision/optical_flow.hpp"

#include <cmath>
#include <cstddef>

namespace vg::vision {
namespace {

/// The weakest texture still tracked: the smaller eigenvalue of the gradient matrix over the window's
/// pixel count, in (grey levels per pixel)^2. (The classical fixed-point formulation's 1e-4 on gradients
/// scaled by 32 and sums scaled by 2^-20 is this 0.1024.)
constexpr float kMinEigenvaluePerPixel = 1.0e-4f * 1024.0f;
/// A step that cancels the one before to within this (in pixels, on each axis) means oscillation.
constexpr float kOscillation = 0.01f;

/// One pyramid level read by whole pixels.
class Level {
 public:
  explicit Level(ConstPlane plane) noexcept
      : plane_(plane), width_(static_cast<int>(plane.width)), height_(static_cast<int>(plane.height)) {}

  float at(int x, int y) const noexcept { return plane_.data[static_cast<std::ptrdiff_t>(y) * plane_.stride + x]; }
  /// The pixel at (x, y), with coordinates outside the image mirrored about its edge pixels.
  float mirrored(int x, int y) const noexcept { return at(reflect(x, width_), reflect(y, height_)); }
  /// @p v mirrored into [0, n) about 0 and n - 1 (as often as a small level needs).
  static int reflect(int v, int n) noexcept {
    if (n == 1) return 0;
    while (v < 0 || v >= n) v = v < 0 ? -v : 2 * (n - 1) - v;
    return v;
  }
  /// The @p size x @p size pixels whose top-left one is (x, y) into @p patch, row by row, as floats; those
  /// beyond the image's edge mirrored (only then is each coordinate checked).
  void load_patch(int x, int y, int size, float* patch) const noexcept {
    if (x >= 0 && y >= 0 && x + size <= width_ && y + size <= height_) {
      for (int r = 0; r < size; ++r, patch += size) {
        const std::uint8_t* row = plane_.data + static_cast<std::ptrdiff_t>(y + r) * plane_.stride + x;
        for (int c = 0; c < size; ++c) patch[c] = row[c];
      }
      return;
    }
    for (int r = 0; r < size; ++r, patch += size) {
      for (int c = 0; c < size; ++c) patch[c] = mirrored(x + c, y + r);
    }
  }
  /// Whether the position (x, y) is on the image (between its first and last pixel centres).
  bool contains(float x, float y) const noexcept {
    return x >= 0.0f && y >= 0.0f && x <= static_cast<float>(width_ - 1) && y <= static_cast<float>(height_ - 1);  // false for NaN
  }

 private:
  ConstPlane plane_;
  int width_, height_;
};

/// Bilinear weights of a fractional offset (a, b) from a whole pixel.
struct Weights {
  float w00, w10, w01, w11;  // (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)
  Weights(float a, float b) noexcept : w00((1 - a) * (1 - b)), w10(a * (1 - b)), w01((1 - a) * b), w11(a * b) {}
};

/// The window of a W x W neighbourhood at a sub-pixel position: its top-left whole pixel and weights.
struct Window {
  int x, y;
  Weights weights;
};

/// The bilinear value between the four pixels from @p p00 (a patch @p size wide), in the definition's order.
inline float bilinear(const float* p00, int size, const Weights& k) noexcept {
  return k.w00 * p00[0] + k.w10 * p00[1] + k.w01 * p00[size] + k.w11 * p00[size + 1];
}

/// floor(@p v) for a finite @p v well inside int's range (a position on a level, less half a window).
inline float whole_below(float v) noexcept {
  const auto truncated = static_cast<float>(static_cast<int>(v));
  return truncated > v ? truncated - 1.0f : truncated;
}

/// The window whose centre is (@p cx, @p cy); its top-left corner is the centre less floor(W / 2).
Window window_at(float cx, float cy, int half) noexcept {
  const float left = cx - static_cast<float>(half), top = cy - static_cast<float>(half);
  const float fx = whole_below(left), fy = whole_below(top);
  return {static_cast<int>(fx), static_cast<int>(fy), Weights(left - fx, top - fy)};
}

/// A = [a11 a12; a12 a22], the window's sums of gradient products, and its determinant.
struct Gradients {
  double a11 = 0, a12 = 0, a22 = 0, det = 0;
};

/// The old level's values and gradients over the window into the scratch, and A into @p g; false when the
/// texture is too weak to track.
bool sample_old_window(const Level& old, const Window& win, int w, LucasKanadeScratch& s, Gradients& g) noexcept {
  // The pixels read: the window's (W + 1) x (W + 1) and a one-pixel border for the Scharr responses. The
  // sums below are of whole numbers under 2^24, so every order of them gives the same floats.
  const int size = w + 3;
  old.load_patch(win.x - 1, win.y - 1, size, s.patch);
  const int grid = w + 1;
  for (int r = 0; r < grid; ++r) {
    const float* above = s.patch + r * size;  // the row above grid row r, from the column left of it
    const float* at = above + size;
    const float* below = at + size;
    for (int c = 0; c < grid; ++c) {
      const float left = 3 * above[c] + 10 * at[c] + 3 * below[c];
      const float right = 3 * above[c + 2] + 10 * at[c + 2] + 3 * below[c + 2];
      const float up = 3 * above[c] + 10 * above[c + 1] + 3 * above[c + 2];
      const float down = 3 * below[c] + 10 * below[c + 1] + 3 * below[c + 2];
      s.scharr_x[r * grid + c] = (right - left) / 32.0f;
      s.scharr_y[r * grid + c] = (down - up) / 32.0f;
    }
  }
  const Weights& k = win.weights;
  double a11 = 0, a12 = 0, a22 = 0;
  for (int r = 0; r < w; ++r) {
    const float* pixels = s.patch + (r + 1) * size + 1;
    for (int c = 0; c < w; ++c) {
      const float v = bilinear(pixels + c, size, k);
      const float gx = bilinear(s.scharr_x + r * grid + c, grid, k), gy = bilinear(s.scharr_y + r * grid + c, grid, k);
      s.values[r * w + c] = v;
      s.grad_x[r * w + c] = gx;
      s.grad_y[r * w + c] = gy;
      a11 += static_cast<double>(gx) * gx;
      a12 += static_cast<double>(gx) * gy;
      a22 += static_cast<double>(gy) * gy;
    }
  }
  const double smaller_eigenvalue = (a11 + a22 - std::sqrt((a11 - a22) * (a11 - a22) + 4 * a12 * a12)) / 2;
  g = {a11, a12, a22, a11 * a22 - a12 * a12};
  return smaller_eigenvalue / (static_cast<double>(w) * w) >= kMinEigenvaluePerPixel && g.det > 0;
}

enum class LevelResult { refined, outside, flat };

/// Refines (@p x, @p y), the new position on one level, for the old point at (@p ox, @p oy) of that level.
LevelResult refine(const Level& old, const Level& next, float ox, float oy, const LucasKanadeOptions& o, LucasKanadeScratch& s,
                   float& x, float& y) noexcept {
  const int w = o.window, half = w / 2;
  if (!old.contains(ox, oy)) return LevelResult::outside;
  const Window old_win = window_at(ox, oy, half);
  Gradients g;
  if (!sample_old_window(old, old_win, w, s, g)) return LevelResult::flat;
  float previous_dx = 0, previous_dy = 0;
  for (std::uint32_t i = 0; i < o.iterations; ++i) {
    if (!next.contains(x, y)) return LevelResult::outside;
    const Window win = window_at(x, y, half);
    const Weights& k = win.weights;
    const int size = w + 1;
    next.load_patch(win.x, win.y, size, s.patch);
    double b1 = 0, b2 = 0;
    for (int r = 0; r < w; ++r) {
      const float* pixels = s.patch + r * size;
      for (int c = 0; c < w; ++c) {
        const double diff = static_cast<double>(bilinear(pixels + c, size, k)) - s.values[r * w + c];
        b1 += diff * s.grad_x[r * w + c];
        b2 += diff * s.grad_y[r * w + c];
      }
    }
    // (dx, dy) = -A^-1 b.
    const auto dx = static_cast<float>((g.a12 * b2 - g.a22 * b1) / g.det);
    const auto dy = static_cast<float>((g.a12 * b1 - g.a11 * b2) / g.det);
    x += dx;
    y += dy;
    if (o.use_epsilon && dx * dx + dy * dy <= o.epsilon) break;
    if (i > 0 && std::fabs(dx + previous_dx) < kOscillation && std::fabs(dy + previous_dy) < kOscillation) {
      x -= dx * 0.5f;
      y -= dy * 0.5f;
      break;
    }
    previous_dx = dx;
    previous_dy = dy;
  }
  return next.contains(x, y) ? LevelResult::refined : LevelResult::outside;
}

}  // namespace

void track_points_start(std::span<TrackPoint> points, double scale, int top_level) noexcept {
  // The search starts on the top level from the given start, scaled down; each level below takes the
  // result of the one above divided by the scale. Untracked points are left as given.
  const auto top_factor = static_cast<float>(std::pow(scale, top_level));
  for (TrackPoint& p : points) {
    if (!p.tracked) continue;
    p.x *= top_factor;
    p.y *= top_factor;
  }
}

bool track_points_level(ConstPlane old_plane, ConstPlane new_plane, int level, int top_level, double scale,
                        const LucasKanadeOptions& options, LucasKanadeScratch& scratch, std::span<TrackPoint> points) noexcept {
  if (options.window < kMinTrackWindow || options.window > kMaxTrackWindow || level < 0 || level > top_level ||
      !(scale > 0.0 && scale < 1.0)) {
    return false;
  }
  const Level old_level(old_plane), new_level(new_plane);
  const auto factor = static_cast<float>(std::pow(scale, level));
  for (TrackPoint& p : points) {
    if (!p.tracked) continue;
    if (level != top_level) {
      p.x /= static_cast<float>(scale);
      p.y /= static_cast<float>(scale);
    }
    const LevelResult result = refine(old_level, new_level, p.old_x * factor, p.old_y * factor, options, scratch, p.x, p.y);
    if (result != LevelResult::refined && level == 0) p.tracked = false;
  }
  return true;
}

bool track_points(std::span<const ConstPlane> old_levels, std::span<const ConstPlane> new_levels, double scale,
                  const LucasKanadeOptions& options, LucasKanadeScratch& scratch, std::span<TrackPoint> points) noexcept {
  if (options.window < kMinTrackWindow || options.window > kMaxTrackWindow || old_levels.empty() ||
      old_levels.size() != new_levels.size() || !(scale > 0.0 && scale < 1.0)) {
    return false;
  }
  const int top = static_cast<int>(old_levels.size()) - 1;
  track_points_start(points, scale, top);
  for (int level = top; level >= 0; --level)
    track_points_level(old_levels[static_cast<std::size_t>(level)], new_levels[static_cast<std::size_t>(level)], level, top, scale, options,
                       scratch, points);
  return true;
}

}  // namespace vg::vision
