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

void MagnitudeRows(ConstPixels gx, ConstPixels gy, Pixels out, std::uint32_t begin, std::uint32_t end) {
  const std::size_t width = gx.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::int16_t* px = gx.row<std::int16_t>(y);
    const std::int16_t* py = gy.row<std::int16_t>(y);
    std::int16_t* po = out.row<std::int16_t>(y);
    std::size_t x = 0;
#if HWY_HAVE_FLOAT64
    // In double, as the definition: the squares and their sum are exact, sqrt is correctly rounded.
    const hn::ScalableTag<double> d;
    const hn::Rebind<std::int32_t, decltype(d)> d32;
    const hn::Rebind<std::int16_t, decltype(d)> d16;
    const std::size_t lanes = hn::Lanes(d);
    const auto half = hn::Set(d, 0.5), limit = hn::Set(d, 32767.0);
    for (; x + lanes <= width; x += lanes) {
      const auto vx = hn::PromoteTo(d, hn::PromoteTo(d32, hn::LoadU(d16, px + x)));
      const auto vy = hn::PromoteTo(d, hn::PromoteTo(d32, hn::LoadU(d16, py + x)));
      const auto z = hn::Min(hn::Floor(hn::Add(hn::Sqrt(hn::MulAdd(vx, vx, hn::Mul(vy, vy))), half)), limit);
      hn::StoreU(hn::DemoteTo(d16, hn::DemoteTo(d32, z)), d16, po + x);
    }
#endif
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

// Phase in float lanes: atan2 from Highway's Atan of min/max (error below 1e-6 rad, so below 1.2e-4 of the
// 256 steps after scaling and rounding), then the same quantisation. Only where the scaled angle lies within
// 5e-4 of a rounding boundary could float and double disagree: those pixels (about 1 in 1,000) are computed
// again in double, so every byte equals the definition's.
void PhaseRows(ConstPixels gx, ConstPixels gy, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::int16_t, decltype(df)> d16;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df), width = gx.width;
  const auto zero = hn::Zero(df), one = hn::Set(df, 1.0f), half = hn::Set(df, 0.5f);
  const auto half_pi = hn::Set(df, 1.57079632679489661923f), pi = hn::Set(df, 3.14159265358979323846f);
  const auto steps_per_radian = hn::Set(df, static_cast<float>(256.0 / 6.283185307179586476925286766559)), turn = hn::Set(df, 256.0f);
  constexpr float kMargin = 5e-4f;
  const auto low = hn::Set(df, kMargin), high = hn::Set(df, 1.0f - kMargin);
  const auto wrap = hn::Set(di, 255), steps = hn::Set(di, 256);
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
      auto a = hn::Atan(df, t);
      a = hn::IfThenElse(hn::Gt(ay, ax), hn::Sub(half_pi, a), a);
      a = hn::IfThenElse(hn::Lt(fx, zero), hn::Sub(pi, a), a);
      a = hn::IfThenElse(hn::Lt(fy, zero), hn::Neg(a), a);
      auto v = hn::Mul(a, steps_per_radian);
      v = hn::IfThenElse(hn::Lt(v, zero), hn::Add(v, turn), v);
      const auto w = hn::Add(v, half);
      const auto floor_w = hn::Floor(w);
      const auto fraction = hn::Sub(w, floor_w);
      auto q = hn::ConvertTo(di, floor_w);
      q = hn::IfThenElse(hn::Gt(q, wrap), hn::Sub(q, steps), q);
      hn::StoreU(hn::DemoteTo(d8, q), d8, po + x);
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
