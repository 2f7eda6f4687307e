// MatchTemplate (match_template.hpp). Compiled once per Highway target as filter3x3.cpp is.
//
// Vectorised over output columns: each 32-bit lane is one placement, and the template's pixels are taken one
// at a time (broadcast) against the source vector under them, for up to four vectors of placements at once.
// Only the sums the method needs are formed: the method's own (popcount of s ^ t, |s - t|, (s - t)^2 or s t)
// and, for the normalised methods, sum s^2. Every term is at most 255^2, so a run of kBlockTaps terms cannot
// overflow a lane: after each run the unnormalised sums are capped at 32768 (the terms are not negative, so
// any sum past S16 stays past it), and the normalised ones are drained into exact 64-bit totals. The
// normalised value of each placement is then computed from its totals in double, one pixel at a time, as the
// definition does (the same operations in the same order: bit-identical).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "match_template.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/match_template.hpp"

#ifndef VG_VISION_MATCH_TEMPLATE_SCALAR
#define VG_VISION_MATCH_TEMPLATE_SCALAR
namespace vg::vision::detail {

constexpr bool normalised(CompareMethod m) noexcept { return m == CompareMethod::l2_norm || m == CompareMethod::ccorr_norm; }

/// A sum of non-negative terms saturated to S16.
inline std::int16_t saturated(std::uint64_t sum) noexcept { return static_cast<std::int16_t>(std::min<std::uint64_t>(sum, 32767)); }

/// A normalised value in Q7.8 from the placement's sums, in double as the definition computes it.
inline std::int16_t normalised_value(std::uint64_t numerator, std::uint64_t squares, double t2) noexcept {
  const double norm = std::sqrt(static_cast<double>(squares) * t2);
  const double v = norm > 0.0 ? std::round(256.0 * static_cast<double>(numerator) / norm) : 0.0;
  return static_cast<std::int16_t>(std::clamp(v, -32768.0, 32767.0));
}

/// One placement, pixel by pixel (outputs narrower than a vector).
inline std::int16_t placement(ConstPlane src, ConstPlane tpl, CompareMethod m, std::uint32_t x, std::uint32_t y, double t2) noexcept {
  std::uint64_t sum = 0, squares = 0;
  for (std::uint32_t j = 0; j < tpl.height; ++j) {
    const std::uint8_t* sr = src.row(y + j) + x;
    const std::uint8_t* tr = tpl.row(j);
    for (std::uint32_t i = 0; i < tpl.width; ++i) {
      const unsigned s = sr[i], t = tr[i];
      const int d = static_cast<int>(s) - static_cast<int>(t);
      switch (m) {
        case CompareMethod::hamming: sum += static_cast<unsigned>(std::popcount(s ^ t)); break;
        case CompareMethod::l1: sum += static_cast<unsigned>(d < 0 ? -d : d); break;
        case CompareMethod::l2:
        case CompareMethod::l2_norm: sum += static_cast<unsigned>(d * d); break;
        case CompareMethod::ccorr:
        case CompareMethod::ccorr_norm: sum += s * t; break;
      }
      squares += s * s;
    }
  }
  return normalised(m) ? normalised_value(sum, squares, t2) : saturated(sum);
}

}  // namespace vg::vision::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<std::int32_t>;
using V = hn::Vec<D>;

// Terms per lane between two caps or drains: 32768 * 255^2 + 32768 < 2^31.
constexpr std::uint32_t kBlockTaps = 32768;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(std::int32_t);

/// a * b for lanes in [0, 255]: the product (at most 65025) fits the low 16 bits, and the high 16 bits of
/// each lane are zero, so a 16-bit multiply gives it (cheaper than a 32-bit one on x86).
HWY_INLINE V MulSmall(D d, V a, V b) {
#if HWY_TARGET == HWY_SCALAR
  (void)d;
  return hn::Mul(a, b);
#else
  const hn::Repartition<std::uint16_t, D> d16;
  return hn::BitCast(d, hn::Mul(hn::BitCast(d16, a), hn::BitCast(d16, b)));
#endif
}

/// The number of set bits of lanes in [0, 255]: a popcount per byte (the upper three bytes count 0).
HWY_INLINE V ByteBits(D d, V v) {
#if HWY_TARGET == HWY_SCALAR
  const hn::RebindToUnsigned<D> du;
  return hn::BitCast(d, hn::PopulationCount(hn::BitCast(du, v)));
#else
  const hn::Repartition<std::uint8_t, D> d8;
  return hn::BitCast(d, hn::PopulationCount(hn::BitCast(d8, v)));
#endif
}

/// One template pixel @p t against the source pixels at @p p: the method's term added to @p sum and, for the
/// normalised methods, s^2 to @p squares.
template <CompareMethod M>
HWY_INLINE void Tap(D d, const std::uint8_t* p, V t, V& sum, V& squares) {
  const hn::Rebind<std::uint8_t, D> d8;
  const V s = hn::PromoteTo(d, hn::LoadU(d8, p));
  if constexpr (M == CompareMethod::hamming) {
    sum = hn::Add(sum, ByteBits(d, hn::Xor(s, t)));
  } else if constexpr (M == CompareMethod::l1) {
    sum = hn::Add(sum, hn::Abs(hn::Sub(s, t)));
  } else if constexpr (M == CompareMethod::l2 || M == CompareMethod::l2_norm) {
    const V a = hn::Abs(hn::Sub(s, t));
    sum = hn::Add(sum, MulSmall(d, a, a));
  } else {
    sum = hn::Add(sum, MulSmall(d, s, t));
  }
  if constexpr (detail::normalised(M)) squares = hn::Add(squares, MulSmall(d, s, s));
}

/// Adds the lanes of @p v to @p total and clears @p v.
HWY_INLINE void Drain(D d, V& v, std::uint64_t* total) {
  HWY_ALIGN std::int32_t lanes[kMaxLanes];
  hn::Store(v, d, lanes);
  const std::size_t n = hn::Lanes(d);
  for (std::size_t k = 0; k < n; ++k) total[k] += static_cast<std::uint32_t>(lanes[k]);
  v = hn::Zero(d);
}

/// The end of a run of terms: caps the unnormalised sums, drains the normalised ones.
template <CompareMethod M>
HWY_INLINE void EndRun(D d, V& sum, V& squares, std::uint64_t* sums, std::uint64_t* all_squares) {
  if constexpr (detail::normalised(M)) {
    Drain(d, sum, sums);
    Drain(d, squares, all_squares);
  } else {
    (void)squares, (void)sums, (void)all_squares;
    sum = hn::Min(sum, hn::Set(d, 32768));
  }
}

template <CompareMethod M>
HWY_INLINE void Store(D d, V sum, std::int16_t* dst) {
  if constexpr (!detail::normalised(M)) {
    const hn::Rebind<std::int16_t, D> d16;
    hn::StoreU(hn::DemoteTo(d16, hn::Min(sum, hn::Set(d, 32767))), d16, dst);
  } else {
    (void)d, (void)sum, (void)dst;
  }
}

struct Job {
  ConstPlane src;
  ConstPlane tpl;
  double t2;  // sum t^2
};

/// The U * Lanes(d) placements of row @p y from column @p x, written to @p dst.
template <CompareMethod M, int U>
HWY_INLINE void Placements(const Job& job, std::uint32_t y, std::uint32_t x, std::int16_t* dst) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  constexpr std::size_t kTotals = detail::normalised(M) ? U * kMaxLanes : 1;
  std::uint64_t sums[kTotals] = {}, squares[kTotals] = {};
  V a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0, q0 = a0, q1 = a0, q2 = a0, q3 = a0;
  const std::uint32_t tw = job.tpl.width, th = job.tpl.height;
  std::uint32_t taps = 0;
  for (std::uint32_t j = 0; j < th; ++j) {
    const std::uint8_t* sr = job.src.row(y + j) + x;
    const std::uint8_t* tr = job.tpl.row(j);
    for (std::uint32_t i0 = 0; i0 < tw; i0 += kBlockTaps) {
      const std::uint32_t i1 = std::min(tw, i0 + kBlockTaps);
      if (taps + (i1 - i0) > kBlockTaps) {
        EndRun<M>(d, a0, q0, sums, squares);
        if constexpr (U > 1) EndRun<M>(d, a1, q1, sums + n, squares + n);
        if constexpr (U > 2) EndRun<M>(d, a2, q2, sums + 2 * n, squares + 2 * n);
        if constexpr (U > 3) EndRun<M>(d, a3, q3, sums + 3 * n, squares + 3 * n);
        taps = 0;
      }
      taps += i1 - i0;
      for (std::uint32_t i = i0; i < i1; ++i) {
        const V t = hn::Set(d, static_cast<std::int32_t>(tr[i]));
        const std::uint8_t* p = sr + i;
        Tap<M>(d, p, t, a0, q0);
        if constexpr (U > 1) Tap<M>(d, p + n, t, a1, q1);
        if constexpr (U > 2) Tap<M>(d, p + 2 * n, t, a2, q2);
        if constexpr (U > 3) Tap<M>(d, p + 3 * n, t, a3, q3);
      }
    }
  }
  if constexpr (detail::normalised(M)) {
    EndRun<M>(d, a0, q0, sums, squares);
    if constexpr (U > 1) EndRun<M>(d, a1, q1, sums + n, squares + n);
    if constexpr (U > 2) EndRun<M>(d, a2, q2, sums + 2 * n, squares + 2 * n);
    if constexpr (U > 3) EndRun<M>(d, a3, q3, sums + 3 * n, squares + 3 * n);
    for (std::size_t k = 0; k < U * n; ++k) dst[k] = detail::normalised_value(sums[k], squares[k], job.t2);
  } else {
    (void)q0, (void)q1, (void)q2, (void)q3;
    Store<M>(d, a0, dst);
    if constexpr (U > 1) Store<M>(d, a1, dst + n);
    if constexpr (U > 2) Store<M>(d, a2, dst + 2 * n);
    if constexpr (U > 3) Store<M>(d, a3, dst + 3 * n);
  }
}

template <CompareMethod M>
void MatchRows(const Job& job, Pixels out) {
  const D d;
  const std::size_t n = hn::Lanes(d);
  constexpr int kUnroll = 4;
  const std::size_t width = out.width, block = kUnroll * n;
  for (std::uint32_t y = 0; y < out.height; ++y) {
    std::int16_t* dst = out.row<std::int16_t>(y);
    if (width < n) {
      for (std::uint32_t x = 0; x < width; ++x) dst[x] = detail::placement(job.src, job.tpl, M, x, y, job.t2);
      continue;
    }
    std::size_t x = 0;
    for (; x + block <= width; x += block) Placements<M, kUnroll>(job, y, static_cast<std::uint32_t>(x), dst + x);
    for (; x + n <= width; x += n) Placements<M, 1>(job, y, static_cast<std::uint32_t>(x), dst + x);
    // The last placements: one more vector ending at the row's end (rewriting a few with the same values).
    if (x < width) Placements<M, 1>(job, y, static_cast<std::uint32_t>(width - n), dst + (width - n));
  }
}

void MatchTemplateRows(ConstPlane src, ConstPlane tpl, CompareMethod method, Pixels out, double t2) {
  const Job job{src, tpl, t2};
  switch (method) {
    case CompareMethod::hamming: MatchRows<CompareMethod::hamming>(job, out); break;
    case CompareMethod::l1: MatchRows<CompareMethod::l1>(job, out); break;
    case CompareMethod::l2: MatchRows<CompareMethod::l2>(job, out); break;
    case CompareMethod::ccorr: MatchRows<CompareMethod::ccorr>(job, out); break;
    case CompareMethod::l2_norm: MatchRows<CompareMethod::l2_norm>(job, out); break;
    case CompareMethod::ccorr_norm: MatchRows<CompareMethod::ccorr_norm>(job, out); break;
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(MatchTemplateRows);

bool match_template(ConstPlane source, ConstPlane templ, CompareMethod method, Pixels out) noexcept {
  if (templ.width == 0 || templ.height == 0 || templ.width > source.width || templ.height > source.height) return false;
  if (out.type != PixelType::s16 || out.width != source.width - templ.width + 1 || out.height != source.height - templ.height + 1) {
    return false;
  }
  if (static_cast<unsigned>(method) > static_cast<unsigned>(CompareMethod::ccorr_norm)) return false;
  std::uint64_t t2 = 0;  // exact, and so is its double (below 2^53)
  for (std::uint32_t j = 0; j < templ.height; ++j) {
    const std::uint8_t* row = templ.row(j);
    for (std::uint32_t i = 0; i < templ.width; ++i) t2 += std::uint32_t{row[i]} * row[i];
  }
  HWY_DYNAMIC_DISPATCH(MatchTemplateRows)(source, templ, method, out, static_cast<double>(t2));
  return true;
}

}  // namespace vg::vision
#endif
