// Sobel3x3, Magnitude and Phase (gradients.hpp). Compiled once per Highway target as filter3x3.cpp is.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gradients.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>  // Atan, per target

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "filter3x3_scalar.hpp"
#include "visiongraph/kernels/vision/gradients.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline std::int16_t sobel_x(const scalar::Window& w) noexcept {
  const std::uint8_t* v = w.v;
  return static_cast<std::int16_t>((v[2] - v[0]) + 2 * (v[5] - v[3]) + (v[8] - v[6]));
}
inline std::int16_t sobel_y(const scalar::Window& w) noexcept {
  const std::uint8_t* v = w.v;
  return static_cast<std::int16_t>((v[6] + 2 * v[7] + v[8]) - (v[0] + 2 * v[1] + v[2]));
}

void SobelRows(ConstPlane in, Pixels gx, Pixels gy, Border border, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const std::size_t lanes = hn::Lanes(d);
  const std::uint32_t w = in.width, h = in.height;
  const bool want_x = gx.data != nullptr, want_y = gy.data != nullptr;
  auto frame_pixel = [&](std::uint32_t x, std::uint32_t y) {
    const scalar::Window win = scalar::window(in, border, x, y);
    if (want_x) gx.row<std::int16_t>(y)[x] = sobel_x(win);
    if (want_y) gy.row<std::int16_t>(y)[x] = sobel_y(win);
  };
  for (std::uint32_t y = begin; y < end; ++y) {
    const bool edge_row = y == 0 || y + 1 == h;
    if (w < 3 || (edge_row && border.mode == BorderMode::constant)) {
      for (std::uint32_t x = 0; x < w; ++x) frame_pixel(x, y);
      continue;
    }
    const std::uint8_t* t = in.row(y == 0 ? 0 : y - 1);
    const std::uint8_t* m = in.row(y);
    const std::uint8_t* b = in.row(y + 1 == h ? y : y + 1);
    std::int16_t* ox = want_x ? gx.row<std::int16_t>(y) : nullptr;
    std::int16_t* oy = want_y ? gy.row<std::int16_t>(y) : nullptr;
    const std::size_t last = w - 1;  // interior columns are [1, last)
    if (last - 1 >= lanes) {
      auto at = [&](const std::uint8_t* row, std::size_t x) { return hn::PromoteTo(d, hn::LoadU(d8, row + x)); };
      for (std::size_t x = 1;; x += lanes) {
        if (x + lanes > last) x = last - lanes;
        if (want_x) {
          const auto left = hn::Add(hn::Add(at(t, x - 1), at(b, x - 1)), hn::ShiftLeft<1>(at(m, x - 1)));
          const auto right = hn::Add(hn::Add(at(t, x + 1), at(b, x + 1)), hn::ShiftLeft<1>(at(m, x + 1)));
          hn::StoreU(hn::Sub(right, left), d, ox + x);
        }
        if (want_y) {
          const auto top = hn::Add(hn::Add(at(t, x - 1), at(t, x + 1)), hn::ShiftLeft<1>(at(t, x)));
          const auto bottom = hn::Add(hn::Add(at(b, x - 1), at(b, x + 1)), hn::ShiftLeft<1>(at(b, x)));
          hn::StoreU(hn::Sub(bottom, top), d, oy + x);
        }
        if (x + lanes == last) break;
      }
    } else {
      for (std::uint32_t x = 1; x < last; ++x) frame_pixel(x, y);
    }
    frame_pixel(0, y);
    frame_pixel(w - 1, y);
  }
}

inline std::int16_t magnitude_of(int x, int y) noexcept {
  const double z = std::floor(std::sqrt(static_cast<double>(x) * x + static_cast<double>(y) * y) + 0.5);
  return static_cast<std::int16_t>(std::min(z, 32767.0));
}

// Magnitude in 32-bit lanes, exact: the nearest integer r to sqrt(s), s = gx^2 + gy^2 (an integer, so never
// halfway between two), is the one with r^2 - r < s <= r^2 + r. A float estimate (its error far below one)
// is rounded and then corrected by one either way with that test in unsigned 32-bit integers (s <= 2^31,
// r <= 46341; 0 needs no lower test), which is what floor(sqrt(s) + 0.5) in double gives; then clamped to
// 32767.
void MagnitudeRows(ConstPixels gx, ConstPixels gy, Pixels out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int32_t> di;
  const hn::Rebind<std::uint32_t, decltype(di)> du;
  const hn::Rebind<float, decltype(di)> df;
  const hn::Rebind<std::int16_t, decltype(di)> d16;
  const std::size_t lanes = hn::Lanes(di), width = gx.width;
  const auto one = hn::Set(du, 1u);
  const auto limit = hn::Set(di, 32767);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int16_t* px = gx.row<std::int16_t>(y);
    const std::int16_t* py = gy.row<std::int16_t>(y);
    std::int16_t* po = out.row<std::int16_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto vx = hn::PromoteTo(di, hn::LoadU(d16, px + x)), vy = hn::PromoteTo(di, hn::LoadU(d16, py + x));
      // 2^31 at most: exact in uint32 (int32 multiplication wraps the same bits).
      const auto s = hn::BitCast(du, hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)));
      const auto fx = hn::ConvertTo(df, vx), fy = hn::ConvertTo(df, vy);
      auto r = hn::BitCast(du, hn::NearestInt(hn::Sqrt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)))));
      const auto r2 = hn::Mul(r, r);
      r = hn::IfThenElse(hn::Gt(s, hn::Add(r2, r)), hn::Add(r, one), r);             // sqrt(s) at or above r + 1/2
      const auto too_big = hn::And(hn::Gt(r, hn::Zero(du)), hn::Not(hn::Gt(s, hn::Sub(r2, r))));  // sqrt(s) at or below r - 1/2
      r = hn::IfThenElse(too_big, hn::Sub(r, one), r);
      const auto clamped = hn::Min(hn::BitCast(di, r), limit);
      hn::StoreU(hn::DemoteTo(d16, clamped), d16, po + x);
    }
    for (; x < width; ++x) po[x] = magnitude_of(px[x], py[x]);
  }
}

/// Phase's definition, in double (the conformance suite's reference, operation for operation).
inline std::uint8_t phase_of(std::int16_t x, std::int16_t y) noexcept {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  double v = std::atan2(static_cast<double>(y), static_cast<double>(x)) * 256 / kTwoPi;
  if (v < 0) v += 256.0;
  int q = static_cast<int>(std::floor(v + 0.5));
  if (q >= 256) q -= 256;
  return static_cast<std::uint8_t>(q);
}

// atan(t) for t in [0, 1], in Phase's steps (256 a turn): t times a polynomial in t^2 of degree 5, fitted by
// least squares on Chebyshev nodes (no range reduction needed: the caller divides the smaller side by the
// larger). Its error is below 1.8e-6 rad, 7.3e-5 of a step; float rounding adds far less.
template <class D>
HWY_INLINE hn::Vec<D> atan_of_unit(D d, hn::Vec<D> t) {
  // The fitted coefficients times 256 / (2 pi): the result in Phase's steps (32 at t = 1).
  constexpr double kSteps = 256.0 / 6.283185307179586476925286766559;
  const auto u = hn::Mul(t, t);
  auto p = hn::Set(d, static_cast<float>(-0.0117705016621808 * kSteps));
  p = hn::MulAdd(p, u, hn::Set(d, static_cast<float>(0.052823492594791514 * kSteps)));
  p = hn::MulAdd(p, u, hn::Set(d, static_cast<float>(-0.11665112091492467 * kSteps)));
  p = hn::MulAdd(p, u, hn::Set(d, static_cast<float>(0.19367031805183446 * kSteps)));
  p = hn::MulAdd(p, u, hn::Set(d, static_cast<float>(-0.33265548304604325 * kSteps)));
  p = hn::MulAdd(p, u, hn::Set(d, static_cast<float>(0.9999798340253857 * kSteps)));
  return hn::Mul(t, p);
}

// Phase in float lanes: atan2 from atan_of_unit of min/max (within 1e-4 of the 256 steps after scaling and
// rounding), then the same quantisation. Only where the scaled angle lies within 5e-4 of a rounding boundary
// could float and double disagree: those pixels (about 1 in 1,000) are computed again in double, so every
// byte equals the definition's.
void PhaseRows(ConstPixels gx, ConstPixels gy, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::int16_t, decltype(df)> d16;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df), width = gx.width;
  const auto zero = hn::Zero(df), one = hn::Set(df, 1.0f), half = hn::Set(df, 0.5f);
  const auto quarter = hn::Set(df, 64.0f), half_turn = hn::Set(df, 128.0f), turn = hn::Set(df, 256.0f);  // in steps
  constexpr float kMargin = 5e-4f;
  const auto low = hn::Set(df, kMargin), high = hn::Set(df, 1.0f - kMargin);
  const auto byte = hn::Set(di, 255);
  HWY_ALIGN float rounded[hn::MaxLanes(df)];
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int16_t* px = gx.row<std::int16_t>(y);
    const std::int16_t* py = gy.row<std::int16_t>(y);
    std::uint8_t* po = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto fx = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d16, px + x)));
      const auto fy = hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d16, py + x)));
      const auto ax = hn::Abs(fx), ay = hn::Abs(fy);
      const auto t = hn::Div(hn::Min(ax, ay), hn::Max(hn::Max(ax, ay), one));  // 0 where both are 0
      // The first octant's angle carried to the point's: past the diagonal, left of the y axis, below the x
      // axis (a turn less the angle above it: what atan2's negative angle plus a turn gives).
      auto v = atan_of_unit(df, t);
      v = hn::IfThenElse(hn::Gt(ay, ax), hn::Sub(quarter, v), v);
      v = hn::IfThenElse(hn::Lt(fx, zero), hn::Sub(half_turn, v), v);
      v = hn::IfThenElse(hn::Lt(fy, zero), hn::Sub(turn, v), v);
      const auto w = hn::Add(v, half);
      const auto floor_w = hn::Floor(w);
      const auto fraction = hn::Sub(w, floor_w);
      // 256 wraps to 0.
      hn::StoreU(hn::DemoteTo(d8, hn::And(hn::ConvertTo(di, floor_w), byte)), d8, po + x);
      const auto near_boundary = hn::Or(hn::Lt(fraction, low), hn::Gt(fraction, high));
      if (!hn::AllFalse(df, near_boundary)) {
        hn::Store(fraction, df, rounded);
        for (std::size_t i = 0; i < lanes; ++i)
          if (rounded[i] < kMargin || rounded[i] > 1.0f - kMargin) po[x + i] = phase_of(px[x + i], py[x + i]);
      }
    }
    for (; x < width; ++x) po[x] = phase_of(px[x], py[x]);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(SobelRows);
HWY_EXPORT(MagnitudeRows);
HWY_EXPORT(PhaseRows);

void phase(ConstPixels gx, ConstPixels gy, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, std::min(gx.height, out.height));
  if (gx.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(PhaseRows)(gx, gy, out, rows.begin, end);
}

void sobel3x3(ConstPlane in, Pixels gx, Pixels gy, Border border, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, in.height);
  if (in.width == 0 || rows.begin >= end || (gx.data == nullptr && gy.data == nullptr)) return;
  HWY_DYNAMIC_DISPATCH(SobelRows)(in, gx, gy, border, rows.begin, end);
}

void magnitude(ConstPixels gx, ConstPixels gy, Pixels out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (gx.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(MagnitudeRows)(gx, gy, out, rows.begin, end);
}

}  // namespace vg::vision
#endif
