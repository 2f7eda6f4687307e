// WarpAffine, WarpPerspective and Remap (warp.hpp). Compiled once per Highway target as filter3x3.cpp is,
// and with -ffp-contract=off (CMakeLists.txt): every float and double operation below is the one the
// per-pixel definition performs, in its order, so the bytes match on every target; a fused multiply-add
// would round differently.
//
// One vector of output pixels at a time: their source coordinates (affine and perspective in double lanes,
// demoted to float; remap loaded from the table), then the pixels gathered by 32-bit reads at byte offsets.
// A bilinear vector whose four neighbours all lie inside reads each pixel pair (p00 p10, p01 p11) with one
// word per row; any other vector reads each neighbour on its own, clamped to the valid rectangle
// (replicate) or replaced by the constant. A word read never passes the plane's last byte: near the end,
// the plane's last word is read instead. Nothing is allocated.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "warp.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "visiongraph/kernels/vision/warp.hpp"

#ifndef VG_VISION_WARP_SHARED
#define VG_VISION_WARP_SHARED
namespace vg::vision::detail {

/// The source as the vector code reads it.
struct WarpSource {
  const std::uint8_t* data;
  std::int32_t stride;
  std::int32_t last_word;               // the largest byte offset a 4-byte read may start at
  float x_begin, y_begin, x_end, y_end;  // the valid rectangle, as the definition compares coordinates
  bool constant;
  std::int32_t value;
};

/// Doubles of this magnitude or more round to an infinite float (FLT_MAX's mantissa is odd: the tie goes up).
inline constexpr double kFloatOverflow = 0x1.ffffffp+127;

/// The definition's coordinate: the double rounded to float, and a float that is not finite read as -2.
inline float finite_coordinate(double v) noexcept { return std::fabs(v) < kFloatOverflow ? static_cast<float>(v) : -2.0f; }

}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using D8 = hn::Rebind<std::uint8_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;
using VU = hn::Vec<DU>;
using MF = hn::Mask<DF>;
using detail::WarpSource;

constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

/// Bit position of byte @p k of a word read from memory.
constexpr int byte_shift(int k) { return std::endian::native == std::endian::little ? 8 * k : 24 - 8 * k; }

template <int k>
HWY_INLINE VI ByteOf(VU word) {
  return hn::BitCast(DI(), hn::And(hn::ShiftRight<byte_shift(k)>(word), hn::Set(DU(), 0xFF)));
}

HWY_INLINE VU Words(const WarpSource& s, VI offsets) {
  return hn::GatherOffset(DU(), reinterpret_cast<const std::uint32_t*>(s.data), offsets);
}

/// The pixels at whole-numbered (x, y) inside the plane, one byte each.
HWY_INLINE VI ReadPixels(const WarpSource& s, VF x, VF y) {
  const DI di;
  const VI o = hn::Add(hn::Mul(hn::ConvertTo(di, y), hn::Set(di, s.stride)), hn::ConvertTo(di, x));
  // Past the last word's start: read the last word and take the pixel's byte in it (1, 2 or 3).
  const VI last = hn::Set(di, s.last_word);
  const VI k = hn::Max(hn::Sub(o, last), hn::Zero(di));
  const VI eight_k = hn::ShiftLeft<3>(k);
  const VI shift = std::endian::native == std::endian::little ? eight_k : hn::Sub(hn::Set(di, 24), eight_k);
  return hn::BitCast(di, hn::And(hn::Shr(Words(s, hn::Min(o, last)), hn::BitCast(DU(), shift)), hn::Set(DU(), 0xFF)));
}

HWY_INLINE MF Inside(const WarpSource& s, VF x, VF y) {
  const DF df;
  return hn::And(hn::And(hn::Ge(x, hn::Set(df, s.x_begin)), hn::Lt(x, hn::Set(df, s.x_end))),
                 hn::And(hn::Ge(y, hn::Set(df, s.y_begin)), hn::Lt(y, hn::Set(df, s.y_end))));
}

/// The source pixel at whole-numbered (x, y), anywhere: inside the valid rectangle its own, outside the
/// border's (the constant, or the pixel at the coordinates clamped to the rectangle).
HWY_INLINE VI Pixel(const WarpSource& s, VF x, VF y) {
  const DF df;
  const DI di;
  if (s.constant) {
    const MF in = Inside(s, x, y);
    const VF xb = hn::Set(df, s.x_begin), yb = hn::Set(df, s.y_begin);  // any pixel inside, to read safely
    const VI p = ReadPixels(s, hn::IfThenElse(in, x, xb), hn::IfThenElse(in, y, yb));
    return hn::IfThenElse(hn::RebindMask(di, in), p, hn::Set(di, s.value));
  }
  const VF one = hn::Set(df, 1.0f);
  const VF xc = hn::Min(hn::Max(x, hn::Set(df, s.x_begin)), hn::Sub(hn::Set(df, s.x_end), one));
  const VF yc = hn::Min(hn::Max(y, hn::Set(df, s.y_begin)), hn::Sub(hn::Set(df, s.y_end), one));
  return ReadPixels(s, xc, yc);
}

HWY_INLINE VI Nearest(const WarpSource& s, VF x, VF y) {
  const DF df;
  const VF half = hn::Set(df, 0.5f);
  const VF xr = hn::Floor(hn::Add(x, half)), yr = hn::Floor(hn::Add(y, half));
  if (s.constant && hn::AllFalse(df, Inside(s, xr, yr))) return hn::Set(DI(), s.value);
  return Pixel(s, xr, yr);
}

/// The definition's blend, operation for operation.
HWY_INLINE VI Blend(VF s, VF t, VI p00, VI p10, VI p01, VI p11) {
  const DF df;
  const VF one = hn::Set(df, 1.0f);
  const VF s1 = hn::Sub(one, s), t1 = hn::Sub(one, t);
  VF v = hn::Mul(hn::Mul(s1, t1), hn::ConvertTo(df, p00));
  v = hn::Add(v, hn::Mul(hn::Mul(s, t1), hn::ConvertTo(df, p10)));
  v = hn::Add(v, hn::Mul(hn::Mul(s1, t), hn::ConvertTo(df, p01)));
  v = hn::Add(v, hn::Mul(hn::Mul(s, t), hn::ConvertTo(df, p11)));
  return hn::ConvertTo(DI(), hn::Min(hn::Add(v, hn::Set(df, 0.5f)), hn::Set(df, 255.0f)));  // v >= 0: truncation floors
}

HWY_INLINE VI Bilinear(const WarpSource& s, VF x, VF y) {
  const DF df;
  const DI di;
  const VF one = hn::Set(df, 1.0f);
  const VF x0 = hn::Floor(x), y0 = hn::Floor(y);
  const VF fs = hn::Sub(x, x0), ft = hn::Sub(y, y0);
  const VF x1 = hn::Add(x0, one), y1 = hn::Add(y0, one);
  const MF interior = hn::And(hn::And(hn::Ge(x0, hn::Set(df, s.x_begin)), hn::Lt(x1, hn::Set(df, s.x_end))),
                              hn::And(hn::Ge(y0, hn::Set(df, s.y_begin)), hn::Lt(y1, hn::Set(df, s.y_end))));
  if (hn::AllTrue(df, interior)) {
    const VI o = hn::Add(hn::Mul(hn::ConvertTo(di, y0), hn::Set(di, s.stride)), hn::ConvertTo(di, x0));
    const VI o1 = hn::Add(o, hn::Set(di, s.stride));
    if (hn::AllFalse(di, hn::Gt(o1, hn::Set(di, s.last_word)))) {
      const VU top = Words(s, o), bottom = Words(s, o1);
      return Blend(fs, ft, ByteOf<0>(top), ByteOf<1>(top), ByteOf<0>(bottom), ByteOf<1>(bottom));
    }
  }
  if (s.constant) {
    // No neighbour inside anywhere: four constants (blended all the same, as the definition does).
    const MF any = hn::And(hn::And(hn::Ge(x1, hn::Set(df, s.x_begin)), hn::Lt(x0, hn::Set(df, s.x_end))),
                           hn::And(hn::Ge(y1, hn::Set(df, s.y_begin)), hn::Lt(y0, hn::Set(df, s.y_end))));
    if (hn::AllFalse(df, any)) {
      const VI c = hn::Set(di, s.value);
      return Blend(fs, ft, c, c, c, c);
    }
  }
  return Blend(fs, ft, Pixel(s, x0, y0), Pixel(s, x1, y0), Pixel(s, x0, y1), Pixel(s, x1, y1));
}

/// Writes the first @p count lanes of @p v (bytes) at @p out.
HWY_INLINE void StoreBytes(VI v, std::uint8_t* out, std::size_t count) {
  const D8 d8;
  const auto bytes = hn::DemoteTo(d8, v);
  if (count == hn::Lanes(d8)) {
    hn::StoreU(bytes, d8, out);
    return;
  }
  HWY_ALIGN std::uint8_t buffer[kMaxLanes];
  hn::StoreU(bytes, d8, buffer);
  std::memcpy(out, buffer, count);
}

/// Every output row: @p coordinates(x, y, sx, sy) gives the source coordinates of output pixels x .. x + N - 1
/// of row y (finite, or -2 where the definition's float is not).
template <bool kBilinear, class Coordinates>
HWY_INLINE void SampleRows(const WarpSource& s, Plane out, const Coordinates& coordinates) {
  const std::size_t n = hn::Lanes(DF());
  for (std::uint32_t y = 0; y < out.height; ++y) {
    std::uint8_t* row = out.row(y);
    for (std::uint32_t x = 0; x < out.width; x += static_cast<std::uint32_t>(n)) {
      VF sx, sy;
      coordinates(x, y, sx, sy);
      const VI v = kBilinear ? Bilinear(s, sx, sy) : Nearest(s, sx, sy);
      StoreBytes(v, row + x, std::min<std::size_t>(n, out.width - x));
    }
  }
}

template <class Coordinates>
HWY_INLINE void Sample(const WarpSource& s, bool bilinear, Plane out, const Coordinates& coordinates) {
  if (bilinear) {
    SampleRows<true>(s, out, coordinates);
  } else {
    SampleRows<false>(s, out, coordinates);
  }
}

#if HWY_HAVE_FLOAT64 && HWY_TARGET != HWY_SCALAR
using DD = hn::Repartition<double, DF>;  // half as many lanes as DF
using VD = hn::Vec<DD>;

/// Two halves of double coordinates as one float vector, each rounded as the definition does.
HWY_INLINE VF ToFloat(VD lo, VD hi) {
  const DD dd;
  const hn::Rebind<float, DD> dh;
  const VD outside = hn::Set(dd, -2.0);
  const auto finite = [&](VD v) { return hn::IfThenElse(hn::Lt(hn::Abs(v), hn::Set(dd, detail::kFloatOverflow)), v, outside); };
  return hn::Combine(DF(), hn::DemoteTo(dh, finite(hi)), hn::DemoteTo(dh, finite(lo)));
}

/// a x + (b y) + c for lanes x, x + 1, ...: the definition's sum, whose b y the caller computes per row.
HWY_INLINE VD Linear(VD x, double a, double by, double c) {
  const DD dd;
  return hn::Add(hn::Add(hn::Mul(hn::Set(dd, a), x), hn::Set(dd, by)), hn::Set(dd, c));
}

void WarpAffineRows(const WarpSource& s, const float* m, bool bilinear, Plane out) {
  const DD dd;
  const std::size_t half = hn::Lanes(dd);
  const double a0 = m[0], a1 = m[1], b0 = m[2], b1 = m[3], c0 = m[4], c1 = m[5];
  Sample(s, bilinear, out, [&](std::uint32_t x, std::uint32_t y, VF& sx, VF& sy) {
    const double yd = y;
    const VD xlo = hn::Iota(dd, static_cast<double>(x)), xhi = hn::Iota(dd, static_cast<double>(x + half));
    sx = ToFloat(Linear(xlo, a0, b0 * yd, c0), Linear(xhi, a0, b0 * yd, c0));
    sy = ToFloat(Linear(xlo, a1, b1 * yd, c1), Linear(xhi, a1, b1 * yd, c1));
  });
}

void WarpPerspectiveRows(const WarpSource& s, const float* m, bool bilinear, Plane out) {
  const DD dd;
  const std::size_t half = hn::Lanes(dd);
  const double a0 = m[0], a1 = m[1], a2 = m[2], b0 = m[3], b1 = m[4], b2 = m[5], c0 = m[6], c1 = m[7], c2 = m[8];
  Sample(s, bilinear, out, [&](std::uint32_t x, std::uint32_t y, VF& sx, VF& sy) {
    const double yd = y;
    const VD xlo = hn::Iota(dd, static_cast<double>(x)), xhi = hn::Iota(dd, static_cast<double>(x + half));
    const VD zlo = Linear(xlo, a2, b2 * yd, c2), zhi = Linear(xhi, a2, b2 * yd, c2);
    sx = ToFloat(hn::Div(Linear(xlo, a0, b0 * yd, c0), zlo), hn::Div(Linear(xhi, a0, b0 * yd, c0), zhi));
    sy = ToFloat(hn::Div(Linear(xlo, a1, b1 * yd, c1), zlo), hn::Div(Linear(xhi, a1, b1 * yd, c1), zhi));
  });
}
#else
// No double lanes (32-bit NEON, the scalar target): the coordinates one at a time, the pixels as vectors.
template <class Coordinate>
HWY_INLINE void ScalarCoordinates(std::uint32_t x, std::uint32_t y, VF& sx, VF& sy, const Coordinate& coordinate) {
  const DF df;
  HWY_ALIGN float xs[kMaxLanes], ys[kMaxLanes];
  for (std::size_t i = 0; i < hn::Lanes(df); ++i) coordinate(x + static_cast<std::uint32_t>(i), y, xs[i], ys[i]);
  sx = hn::Load(df, xs);
  sy = hn::Load(df, ys);
}

void WarpAffineRows(const WarpSource& s, const float* m, bool bilinear, Plane out) {
  const auto at = [&](int i) { return static_cast<double>(m[i]); };
  Sample(s, bilinear, out, [&](std::uint32_t x, std::uint32_t y, VF& sx, VF& sy) {
    ScalarCoordinates(x, y, sx, sy, [&](std::uint32_t xi, std::uint32_t yi, float& fx, float& fy) {
      fx = detail::finite_coordinate(at(0) * xi + at(2) * yi + at(4));
      fy = detail::finite_coordinate(at(1) * xi + at(3) * yi + at(5));
    });
  });
}

void WarpPerspectiveRows(const WarpSource& s, const float* m, bool bilinear, Plane out) {
  const auto at = [&](int i) { return static_cast<double>(m[i]); };
  Sample(s, bilinear, out, [&](std::uint32_t x, std::uint32_t y, VF& sx, VF& sy) {
    ScalarCoordinates(x, y, sx, sy, [&](std::uint32_t xi, std::uint32_t yi, float& fx, float& fy) {
      const double z = at(2) * xi + at(5) * yi + at(8);
      fx = detail::finite_coordinate((at(0) * xi + at(3) * yi + at(6)) / z);
      fy = detail::finite_coordinate((at(1) * xi + at(4) * yi + at(7)) / z);
    });
  });
}
#endif

void RemapRows(const WarpSource& s, const std::uint8_t* table, std::ptrdiff_t table_stride, bool bilinear, Plane out) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
  const VF limit = hn::Set(df, std::numeric_limits<float>::infinity());
  const VF outside = hn::Set(df, -2.0f);
  Sample(s, bilinear, out, [&](std::uint32_t x, std::uint32_t y, VF& sx, VF& sy) {
    const std::uint8_t* entries = table + static_cast<std::ptrdiff_t>(y) * table_stride + std::size_t{x} * 2 * sizeof(float);
    const std::size_t count = std::min<std::size_t>(n, out.width - x);
    if (count == n) {
      hn::LoadInterleaved2(df, reinterpret_cast<const float*>(entries), sx, sy);
    } else {
      // The row's last pairs: copied out, so that no read passes the row.
      HWY_ALIGN float pairs[2 * kMaxLanes] = {};
      std::memcpy(pairs, entries, count * 2 * sizeof(float));
      hn::LoadInterleaved2(df, pairs, sx, sy);
    }
    sx = hn::IfThenElse(hn::Lt(hn::Abs(sx), limit), sx, outside);
    sy = hn::IfThenElse(hn::Lt(hn::Abs(sy), limit), sy, outside);
  });
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(WarpAffineRows);
HWY_EXPORT(WarpPerspectiveRows);
HWY_EXPORT(RemapRows);

namespace {

/// @p src as the vector code reads it; false when its sizes do not suit it (the caller falls back).
bool warp_source(const SampleSource& src, Plane out, detail::WarpSource& s) noexcept {
  const ConstPlane& p = src.plane;
  if (p.data == nullptr || p.width == 0 || p.height == 0 || p.stride < static_cast<std::ptrdiff_t>(p.width)) return false;
  if (out.data == nullptr || out.width == 0 || out.height == 0 || out.stride < static_cast<std::ptrdiff_t>(out.width)) return false;
  const std::uint32_t x_end = std::min(src.x_end, p.width), y_end = std::min(src.y_end, p.height);
  if (src.x_begin >= x_end || src.y_begin >= y_end) return false;
  // Every offset, and an offset plus a row, fits in 32 bits; the plane holds at least one word.
  const std::int64_t bytes = static_cast<std::int64_t>(p.height - 1) * p.stride + p.width;
  if (bytes < 4 || bytes + p.stride > std::numeric_limits<std::int32_t>::max()) return false;
  // Coordinates are compared as floats, exact up to 2^24.
  if (p.width > (1u << 24) || p.height > (1u << 24)) return false;
  s = detail::WarpSource{p.data,
                         static_cast<std::int32_t>(p.stride),
                         static_cast<std::int32_t>(bytes - 4),
                         static_cast<float>(src.x_begin),
                         static_cast<float>(src.y_begin),
                         static_cast<float>(x_end),
                         static_cast<float>(y_end),
                         src.constant_border,
                         src.constant};
  return true;
}

}  // namespace

bool warp_affine(const SampleSource& src, const float m[6], Interpolation interpolation, Plane out) noexcept {
  detail::WarpSource s{};
  if (!warp_source(src, out, s)) return false;
  HWY_DYNAMIC_DISPATCH(WarpAffineRows)(s, m, interpolation == Interpolation::bilinear, out);
  return true;
}

bool warp_perspective(const SampleSource& src, const float m[9], Interpolation interpolation, Plane out) noexcept {
  detail::WarpSource s{};
  if (!warp_source(src, out, s)) return false;
  HWY_DYNAMIC_DISPATCH(WarpPerspectiveRows)(s, m, interpolation == Interpolation::bilinear, out);
  return true;
}

bool remap(const SampleSource& src, const void* table, std::ptrdiff_t table_stride, Interpolation interpolation, Plane out) noexcept {
  detail::WarpSource s{};
  if (table == nullptr || table_stride < static_cast<std::ptrdiff_t>(std::size_t{out.width} * 2 * sizeof(float))) return false;
  if (!warp_source(src, out, s)) return false;
  HWY_DYNAMIC_DISPATCH(RemapRows)(s, static_cast<const std::uint8_t*>(table), table_stride, interpolation == Interpolation::bilinear, out);
  return true;
}

}  // namespace vg::vision
#endif
