// ScaleImage at any ratio (scale.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off: the bilinear blend is a sum of products whose roundings the definition fixes, and a
// fused multiply-add (AVX2, AVX-512, NEON) would change bytes.
//
// Per chunk of output columns the source columns, fractions and weights are computed once; then per output
// row each vector of columns fetches its pixels with a gather of four bytes per lane (a pixel and its right
// neighbour), for every column whose four bytes lie in the row. Columns and rows that reach outside the
// input, and the few at the right edge, go through the per-pixel form, border included.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "scale.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/scale.hpp"
#include "visiongraph/kernels/vision/scale_definition.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// The input as ScaleImage reads it: pixels inside, the border outside (replicate: the nearest edge pixel).
struct Source {
  ConstPlane in;
  Border border;
  float width, height;

  static std::uint32_t clamp_index(float v, float end) {
    if (!(v >= 0.0f)) return 0;
    if (v >= end) return static_cast<std::uint32_t>(end) - 1;
    return static_cast<std::uint32_t>(v);
  }
  /// The pixel at the whole-numbered (@p x, @p y), possibly outside.
  std::uint8_t pixel(float x, float y) const {
    if (x >= 0.0f && x < width && y >= 0.0f && y < height) return in.row(static_cast<std::uint32_t>(y))[static_cast<std::uint32_t>(x)];
    if (border.mode == BorderMode::constant) return border.constant;
    return in.row(clamp_index(y, height))[clamp_index(x, width)];
  }
};

/// One bilinear pixel at (@p x, @p y), border included.
inline std::uint8_t bilinear_pixel(const Source& src, float x, float y) {
  const float x0 = std::floor(x), y0 = std::floor(y);
  const float s = x - x0, t = y - y0;
  return bilinear_blend(s, t, src.pixel(x0, y0), src.pixel(x0 + 1.0f, y0), src.pixel(x0, y0 + 1.0f), src.pixel(x0 + 1.0f, y0 + 1.0f));
}

constexpr std::uint32_t kChunk = 512;  // output columns whose tables sit on the stack

// --- AREA ----------------------------------------------------------------------------------------------

/// The definition's AREA value of output pixel (x, y), border included (scale_definition.hpp).
inline std::uint8_t area_pixel(const Source& src, double fx, double fy, std::uint32_t x, std::uint32_t y) {
  return area_value([&src](float px, float py) { return src.pixel(px, py); }, fx, fy, x, y);
}

constexpr std::uint32_t kAreaChunk = 256;  // output columns per table
constexpr std::uint32_t kMaxTaps = 10;     // input pixels along one axis (ratios up to about 9:1)

/// The taps along one axis of output index @p i (positions p0 = i * f, p1 = (i + 1) * f): each covered
/// index and its weight, in the definition's order, zero weights skipped as it skips them. False when more
/// than kMaxTaps or one outside [0, last].
inline bool area_taps(std::uint32_t i, double f, double last, std::int32_t* index, double* weight, std::uint32_t& count,
                      std::size_t step) {
  const double p0 = i * f, p1 = (i + 1) * f;
  count = 0;
  for (double v = std::floor(p0); v < p1; v += 1.0) {
    const double w = std::min(p1, v + 1.0) - std::max(p0, v);
    if (w <= 0.0) continue;
    if (count == kMaxTaps || !(v >= 0.0 && v <= last)) return false;
    index[count * step] = static_cast<std::int32_t>(v);
    weight[count * step] = w;
    ++count;
  }
  return count > 0;
}

void AreaRows(ConstPlane in, Plane out, Border border, std::uint32_t begin, std::uint32_t end) {
#if !HWY_HAVE_FLOAT64
  // No double lanes on this target (32-bit NEON): every pixel as the definition computes it.
  const Source plain{in, border, static_cast<float>(in.width), static_cast<float>(in.height)};
  const double sx = static_cast<double>(in.width) / out.width, sy = static_cast<double>(in.height) / out.height;
  for (std::uint32_t y = begin; y < end; ++y)
    for (std::uint32_t x = 0; x < out.width; ++x) out.row(y)[x] = area_pixel(plain, sx, sy, x, y);
#else
  const hn::ScalableTag<double> dd;
  const hn::Rebind<std::int32_t, decltype(dd)> di;
  const hn::Rebind<std::uint8_t, decltype(dd)> d8;
  const std::size_t lanes = hn::Lanes(dd);
  const Source src{in, border, static_cast<float>(in.width), static_cast<float>(in.height)};
  const double fx = static_cast<double>(in.width) / out.width, fy = static_cast<double>(in.height) / out.height;

  // Column taps: tap j of column i at [j][i]; a column with fewer taps is padded with zero weights, which
  // add exactly nothing to either sum (both stay non-negative).
  HWY_ALIGN double weight[kMaxTaps][kAreaChunk];
  HWY_ALIGN std::int32_t offset[kMaxTaps][kAreaChunk];
  std::int32_t row_index[kMaxTaps];
  double row_weight[kMaxTaps];
  for (std::uint32_t start = 0; start < out.width; start += kAreaChunk) {
    const std::uint32_t n = std::min(kAreaChunk, out.width - start);
    // The vectorised run: columns whose taps all lie where a lane's four-byte read stays in the row.
    std::uint32_t lo = n, hi = 0, taps = 0;
    bool run = true;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t count = 0;
      const bool ok = area_taps(start + i, fx, static_cast<double>(in.width) - 4.0, &offset[0][i], &weight[0][i], count, kAreaChunk);
      if (!ok) count = 0;
      for (std::uint32_t j = count; j < kMaxTaps; ++j) offset[j][i] = count ? offset[0][i] : 0, weight[j][i] = 0.0;
      if (ok) {
        if (hi != 0 && hi != i) run = false;  // a gap: keep it simple, the chunk goes pixel by pixel
        lo = std::min(lo, i), hi = i + 1, taps = std::max(taps, count);
      }
    }
    if (!run || lo >= hi) lo = hi = 0;
    for (std::uint32_t y = begin; y < end; ++y) {
      std::uint8_t* o = out.row(y) + start;
      std::uint32_t rows = 0;
      const bool rows_ok = area_taps(y, fy, static_cast<double>(in.height) - 1.0, row_index, row_weight, rows, 1);
      std::uint32_t i = 0;
      if (rows_ok && hi > lo) {
        for (; i < lo; ++i) o[i] = area_pixel(src, fx, fy, start + i, y);
        const auto byte = hn::Set(di, 0xFF);
        const auto zero = hn::Zero(dd), half = hn::Set(dd, 0.5), top = hn::Set(dd, 255.0);
        auto vector = [&](std::uint32_t at) {
          auto sum = zero, total = zero;
          for (std::uint32_t r = 0; r < rows; ++r) {
            const auto* line = reinterpret_cast<const std::int32_t*>(in.row(static_cast<std::uint32_t>(row_index[r])));
            const auto wy = hn::Set(dd, row_weight[r]);
            for (std::uint32_t j = 0; j < taps; ++j) {
              const auto w = hn::Mul(hn::LoadU(dd, &weight[j][at]), wy);
              const auto g = hn::GatherOffset(di, line, hn::LoadU(di, &offset[j][at]));
              sum = hn::Add(sum, hn::Mul(w, hn::PromoteTo(dd, hn::And(g, byte))));
              total = hn::Add(total, w);
            }
          }
          const auto mean = hn::IfThenElseZero(hn::Gt(total, zero), hn::Div(sum, total));
          const auto value = hn::DemoteTo(di, hn::Min(hn::Add(mean, half), top));  // truncation, as the cast
          hn::StoreU(hn::DemoteTo(d8, value), d8, o + at);
        };
        for (; i + lanes <= hi; i += static_cast<std::uint32_t>(lanes)) vector(i);
        if (i < hi && hi - lo >= lanes) vector(hi - static_cast<std::uint32_t>(lanes)), i = hi;  // as above
      }
      for (; i < n; ++i) o[i] = area_pixel(src, fx, fy, start + i, y);
    }
  }
#endif
}

// --- NEAREST_NEIGHBOR and BILINEAR -----------------------------------------------------------------------

void ScaleRows(ConstPlane in, Plane out, ScaleInterpolation type, Border border, std::uint32_t begin, std::uint32_t end) {
  if (type == ScaleInterpolation::area) {
    AreaRows(in, out, border, begin, end);
    return;
  }
  const hn::ScalableTag<float> df;
  const hn::Rebind<std::int32_t, decltype(df)> di;
  const hn::Rebind<std::uint32_t, decltype(df)> du;
  const hn::Rebind<std::uint8_t, decltype(df)> d8;
  const std::size_t lanes = hn::Lanes(df);
  const float w_in = static_cast<float>(in.width), h_in = static_cast<float>(in.height);
  const float w_out = static_cast<float>(out.width), h_out = static_cast<float>(out.height);
  const Source src{in, border, w_in, h_in};
  const bool bilinear = type == ScaleInterpolation::bilinear;
  // A lane reads four bytes from its column: columns up to width - 4 can be gathered.
  const float last_gathered = w_in - 4.0f;

  HWY_ALIGN float source_x[kChunk], fraction[kChunk], rest[kChunk];
  HWY_ALIGN std::int32_t column[kChunk];
  for (std::uint32_t start = 0; start < out.width; start += kChunk) {
    const std::uint32_t n = std::min(kChunk, out.width - start);
    // Source columns increase with x (each float step is monotonic), so the gathered ones are a run.
    std::uint32_t lo = n, hi = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const float sx = scale_source_coordinate(start + i, w_in, w_out);
      const float pick = bilinear ? std::floor(sx) : nearest_half_up(sx);
      source_x[i] = sx;
      fraction[i] = sx - std::floor(sx);
      rest[i] = 1.0f - fraction[i];
      const bool gathered = pick >= 0.0f && pick <= last_gathered;
      column[i] = gathered ? static_cast<std::int32_t>(pick) : 0;
      if (gathered) lo = std::min(lo, i), hi = i + 1;
    }
    if (lo >= hi) lo = hi = 0;
    for (std::uint32_t y = begin; y < end; ++y) {
      const float sy = scale_source_coordinate(y, h_in, h_out);
      const float y0 = std::floor(sy), t = sy - y0;
      const float row_pick = bilinear ? y0 : nearest_half_up(sy);
      const bool rows_inside = bilinear ? (y0 >= 0.0f && y0 + 1.0f < h_in) : (row_pick >= 0.0f && row_pick < h_in);
      std::uint8_t* o = out.row(y) + start;
      auto one = [&](std::uint32_t i) {
        o[i] = bilinear ? bilinear_pixel(src, source_x[i], sy) : src.pixel(nearest_half_up(source_x[i]), row_pick);
      };
      std::uint32_t i = 0;
      if (rows_inside && hi > lo) {
        for (; i < lo; ++i) one(i);
        const auto* r0 = reinterpret_cast<const std::int32_t*>(in.row(static_cast<std::uint32_t>(row_pick)));
        const auto byte = hn::Set(di, 0xFF);
        const auto* r1 = reinterpret_cast<const std::int32_t*>(in.row(static_cast<std::uint32_t>(row_pick) + (bilinear ? 1 : 0)));
        const auto vt = hn::Set(df, t), vrest_t = hn::Set(df, 1.0f - t), half = hn::Set(df, 0.5f), top = hn::Set(df, 255.0f);
        const auto magic = hn::Set(df, 8388608.0f);
        const auto ubyte = hn::Set(du, 0xFFu);
        auto bilinear_vector = [&](std::uint32_t at) {
          const auto offsets = hn::LoadU(di, column + at);
          const auto g0 = hn::GatherOffset(di, r0, offsets), g1 = hn::GatherOffset(di, r1, offsets);
          const auto p00 = hn::ConvertTo(df, hn::And(g0, byte)), p10 = hn::ConvertTo(df, hn::And(hn::ShiftRight<8>(g0), byte));
          const auto p01 = hn::ConvertTo(df, hn::And(g1, byte)), p11 = hn::ConvertTo(df, hn::And(hn::ShiftRight<8>(g1), byte));
          const auto s = hn::LoadU(df, fraction + at), rs = hn::LoadU(df, rest + at);
          // The definition's order: ((w00 p00 + w10 p10) + w01 p01) + w11 p11, each weight a product first.
          auto v = hn::Add(hn::Mul(hn::Mul(rs, vrest_t), p00), hn::Mul(hn::Mul(s, vrest_t), p10));
          v = hn::Add(v, hn::Mul(hn::Mul(rs, vt), p01));
          v = hn::Add(v, hn::Mul(hn::Mul(s, vt), p11));
          // The cast truncates a value in [0, 255]: floor it, and 2^23 + k holds k in its low mantissa bits, so
          // the low byte of each lane is the result (cheaper than a conversion with its overflow checks).
          // U8FromU32 takes lanes below 256 (some targets saturate), hence the masks.
          const auto whole = hn::Add(hn::Floor(hn::Min(hn::Add(v, half), top)), magic);
          hn::StoreU(hn::U8FromU32(hn::And(hn::BitCast(du, whole), ubyte)), d8, o + at);
        };
        auto nearest_vector = [&](std::uint32_t at) {
          const auto g = hn::GatherOffset(di, r0, hn::LoadU(di, column + at));
          hn::StoreU(hn::U8FromU32(hn::And(hn::BitCast(du, g), ubyte)), d8, o + at);  // the lane's first byte
        };
        auto vector = [&](std::uint32_t at) { bilinear ? bilinear_vector(at) : nearest_vector(at); };
        for (; i + lanes <= hi; i += static_cast<std::uint32_t>(lanes)) vector(i);
        // The run's last pixels: one more vector ending at its end (recomputing a few, to the same bytes).
        if (i < hi && hi - lo >= lanes) vector(hi - static_cast<std::uint32_t>(lanes)), i = hi;
      }
      for (; i < n; ++i) one(i);
    }
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ScaleRows);

void scale_image(ConstPlane in, Plane out, ScaleInterpolation type, Border border, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (out.width == 0 || rows.begin >= end || in.width == 0 || in.height == 0) return;
  HWY_DYNAMIC_DISPATCH(ScaleRows)(in, out, type, border, rows.begin, end);
}

}  // namespace vg::vision
#endif
