// BilateralFilter (bilateral.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off (CMakeLists.txt): every float operation is rounded where the definition rounds it.
//
// The input's rows, in whatever layout they come, are copied one at a time into a ring of `diameter` padded
// int32 rows per channel (the border written into the padding, a row of the constant standing for rows
// outside the image under a constant border), so the filter reads contiguous rows whatever the element
// type, channel count or strides.
//
// A tap's weight is its space weight times the colour weight of |neighbour - centre|, and tap (i, j) at
// pixel p weighs the same pair of pixels as tap (-i, -j) at p + (i, j), with the same space weight. So each
// row y first computes, for each "forward" offset f (j > 0, or j = 0 and i > 0), the weight W_f(x, y) of
// pixel (x, y) with (x + i, y + j) (the colour weight gathered from the table, interpolated for S16, times
// the space weight), from x = -radius on, into a ring of j + 1 rows; tap f at (x, y) reads W_f(x, y), tap
// -f reads W_f(x - i, y - j), and the centre tap a row of its constant weight. Half the taps gather, and
// rows above the image (-radius .. -1) are computed first for the taps that look back at them. Then each
// vector of output pixels sums the taps in the definition's order, in float. Lanes past the row's end
// compute from the padding and are dropped. The results go to a row of T per channel and from there to the
// output element by element in raster order (a copy where the output is one packed channel), which keeps
// the overlapping channels' last-write-wins layout. 32-bit NEON has no exact division: there the quotients
// are taken lane by lane.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bilateral.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "visiongraph/kernels/vision/bilateral.hpp"

#ifndef VG_VISION_BILATERAL_SHARED
#define VG_VISION_BILATERAL_SHARED
namespace vg::vision::bilateral_detail {

constexpr int kMaxRadius = kMaxBilateralDiameter / 2;
constexpr int kBinsPerChannel = 1 << 12;
constexpr int kColourTable = kBinsPerChannel * kMaxBilateralChannels + 2;  // S16's; U8 uses 256 * channels
// Columns before a padded row's first image column, and after its last: the weights are computed from
// radius columns left of the image to radius columns and two vectors (of the widest target, SVE: 64 int32
// lanes; the filter pass runs two at a time) right of it, each reading a radius further; so whole vectors
// never leave the row.
// (A literal: this block is compiled once, under whichever target comes first, so HWY_MAX_BYTES here is not
// the widest target's.)
constexpr std::size_t kVector = 64;
constexpr std::ptrdiff_t kMargin = 2 * kMaxRadius;
constexpr std::size_t kSlack = 2 * kMaxRadius + 3 * kVector + 16;
constexpr std::size_t kAlign = 64;
// Rows of weights the largest disc keeps: j + 1 for each forward offset (i, j) inside it, and the centre's.
constexpr std::size_t weight_rows_of(int radius) noexcept {
  std::size_t rows = static_cast<std::size_t>(radius) + 1;  // j = 0, i = 1..radius; and the centre row
  for (int j = 1; j <= radius; ++j) {
    for (int i = -radius; i <= radius; ++i) {
      if (i * i + j * j <= radius * radius) rows += static_cast<std::size_t>(j) + 1;
    }
  }
  return rows;
}
constexpr std::size_t kMaxWeightRows = weight_rows_of(kMaxRadius);

constexpr int kMaxTaps = kMaxBilateralDiameter * kMaxBilateralDiameter;

struct Tap {
  std::int32_t row;     // window row, 0 at the top
  std::int32_t column;  // -radius .. radius
  float space;
  std::int32_t forward;  // the forward offset whose weights it reads (-1: the centre)
};

// A forward offset: its weights W(x, y) in rows of the ring, slot (y + radius) mod (j + 1).
struct Forward {
  std::int32_t i, j;
  float space;
  std::size_t first_row;  // of the weight rows
};

struct Taps {
  Tap taps[kMaxTaps];
  int count = 0;
  Forward forward[kMaxTaps / 2];
  int forward_count = 0;
  std::size_t weight_rows = 0;  // used, the centre's last
};

inline std::size_t padded_width(std::uint32_t width) noexcept { return static_cast<std::size_t>(kMargin) + width + kSlack; }
// A row of weights: x from -kMaxRadius, as far right as the padded rows.
inline std::size_t weight_width(std::uint32_t width) noexcept { return static_cast<std::size_t>(kMaxRadius) + width + kSlack; }

inline std::size_t aligned(std::size_t bytes) noexcept { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Scratch: the colour table, the ring (diameter rows and the constant row, per channel), the output row.
// Scratch: the colour table, the ring (diameter rows and the constant row, per channel), the weight rows,
// the output row.
struct ScratchLayout {
  std::size_t colour = 0, ring = 0, weights = 0, row_out = 0, total = 0;
};

inline ScratchLayout scratch_layout(std::uint32_t width, int channels) noexcept {
  ScratchLayout s;
  const std::size_t rows = static_cast<std::size_t>(kMaxBilateralDiameter + 1) * static_cast<std::size_t>(channels);
  s.colour = 0;
  s.ring = aligned(sizeof(float) * kColourTable);
  s.weights = s.ring + aligned(sizeof(std::int32_t) * padded_width(width) * rows);
  s.row_out = s.weights + aligned(sizeof(float) * weight_width(width) * kMaxWeightRows);
  s.total = s.row_out + aligned(sizeof(std::int16_t) * (width + kSlack) * static_cast<std::size_t>(channels)) + kAlign;
  return s;
}

// The disc's taps in the definition's order with their space weights, and the forward offsets.
inline void taps_of(int diameter, float sigma_space, Taps& t) noexcept {
  const int radius = diameter / 2;
  const double coefficient = -0.5 / (static_cast<double>(sigma_space) * sigma_space);
  t.count = 0;
  t.forward_count = 0;
  t.weight_rows = 0;
  int forward_of[kMaxBilateralDiameter][kMaxBilateralDiameter];  // by (j + radius, i + radius)
  for (int j = 0; j <= radius; ++j) {
    for (int i = -radius; i <= radius; ++i) {
      if ((j == 0 && i <= 0) || i * i + j * j > radius * radius) continue;
      const double r = std::sqrt(static_cast<double>(i * i + j * j));
      forward_of[j + radius][i + radius] = t.forward_count;
      t.forward[t.forward_count++] = {i, j, static_cast<float>(std::exp(r * r * coefficient)), t.weight_rows};
      t.weight_rows += static_cast<std::size_t>(j) + 1;
    }
  }
  for (int j = -radius; j <= radius; ++j) {
    for (int i = -radius; i <= radius; ++i) {
      const double r = std::sqrt(static_cast<double>(i * i + j * j));
      if (r > radius) continue;
      const bool forward = j > 0 || (j == 0 && i > 0);
      const int f = i == 0 && j == 0 ? -1 : forward ? forward_of[j + radius][i + radius] : forward_of[radius - j][radius - i];
      t.taps[t.count++] = {j + radius, i, static_cast<float>(std::exp(r * r * coefficient)), f};
    }
  }
  ++t.weight_rows;  // the centre's
}

inline void u8_colour_table(int channels, float sigma_values, float* colour) noexcept {
  const double coefficient = -0.5 / (static_cast<double>(sigma_values) * sigma_values);
  for (int i = 0; i < 256 * channels; ++i) colour[i] = static_cast<float>(std::exp(static_cast<double>(i) * i * coefficient));
}

// The whole table, though distances within the input's range reach only bins + 1: a constant border
// outside that range reaches further.
inline void s16_colour_table(float scale, float sigma_values, float* colour) noexcept {
  const double coefficient = -0.5 / (static_cast<double>(sigma_values) * sigma_values);
  float last = 1.0f;
  for (int i = 0; i < kColourTable; ++i) {
    const double d = i / static_cast<double>(scale);
    colour[i] = last > 0.0f ? static_cast<float>(std::exp(d * d * coefficient)) : 0.0f;
    last = colour[i];
  }
}

template <class T>
inline T load(const std::uint8_t* at) noexcept {
  T v;
  std::memcpy(&v, at, sizeof(T));
  return v;
}

// Element (x, y, c) of the input, a read past the last element reading it.
template <class T>
inline T element(const std::uint8_t* in, const BilateralLayout& l, std::ptrdiff_t x, std::ptrdiff_t y, int c) noexcept {
  return load<T>(in + std::min(y * l.row_step + x * l.pixel_step + c * l.channel_step, l.last));
}

// Input row y into padded rows (one per channel, @p stride int32 apart), the border in the padding.
template <class T>
void fill_row(const std::uint8_t* in, const BilateralLayout& l, const BilateralOptions& o, std::ptrdiff_t y, std::int32_t* padded,
              std::size_t stride) noexcept {
  const std::ptrdiff_t width = o.width;
  const std::size_t total = padded_width(o.width);
  for (int c = 0; c < o.channels; ++c) {
    std::int32_t* row = padded + static_cast<std::size_t>(c) * stride;
    const std::ptrdiff_t first = y * l.row_step + c * l.channel_step;
    std::int32_t* image = row + kMargin;
    if (first + (width - 1) * l.pixel_step <= l.last) {
      const std::uint8_t* src = in + first;
      if (l.pixel_step == sizeof(T)) {
        for (std::ptrdiff_t x = 0; x < width; ++x) image[x] = load<T>(src + x * static_cast<std::ptrdiff_t>(sizeof(T)));
      } else {
        for (std::ptrdiff_t x = 0; x < width; ++x) image[x] = load<T>(src + x * l.pixel_step);
      }
    } else {
      for (std::ptrdiff_t x = 0; x < width; ++x) image[x] = element<T>(in, l, x, y, c);
    }
    const std::int32_t left = o.constant_border ? o.constant : image[0];
    const std::int32_t right = o.constant_border ? o.constant : image[width - 1];
    std::fill(row, image, left);
    std::fill(image + width, row + total, right);
  }
}

template <class T>
void scatter_row(const T* results, std::size_t stride, std::uint8_t* out, const BilateralLayout& l, const BilateralOptions& o,
                 std::ptrdiff_t y) noexcept {
  const std::ptrdiff_t width = o.width, first = y * l.row_step;
  constexpr auto size = static_cast<std::ptrdiff_t>(sizeof(T));
  if (o.channels == 1 && l.pixel_step == size && first + (width - 1) * size <= l.last) {
    std::memcpy(out + first, results, sizeof(T) * static_cast<std::size_t>(width));
    return;
  }
  for (std::ptrdiff_t x = 0; x < width; ++x) {
    for (int c = 0; c < o.channels; ++c) {
      const std::ptrdiff_t at = first + x * l.pixel_step + c * l.channel_step;
      if (at <= l.last) std::memcpy(out + at, &results[static_cast<std::size_t>(c) * stride + static_cast<std::size_t>(x)], sizeof(T));
    }
  }
}

// What the row passes need beside the rows.
struct RowJob {
  const float* colour;
  float scale;  // S16's
  std::uint32_t width;
};

}  // namespace vg::vision::bilateral_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using bilateral_detail::RowJob;

template <class DF, class VI>
HWY_INLINE hn::Vec<DF> ColourWeight(DF df, VI distance, const RowJob& job, std::true_type /*s16*/) {
  const hn::RebindToSigned<DF> di;
  const auto scaled = hn::Mul(hn::ConvertTo(df, distance), hn::Set(df, job.scale));
  const auto floor = hn::Floor(scaled);
  const auto fraction = hn::Sub(scaled, floor);
  const auto index = hn::ConvertTo(di, floor);
  const auto inside = hn::Lt(index, hn::Set(di, bilateral_detail::kColourTable - 1));
  const auto clamped = hn::Min(index, hn::Set(di, bilateral_detail::kColourTable - 2));
  const auto at = hn::GatherIndex(df, job.colour, clamped);
  const auto next = hn::GatherIndex(df, job.colour, hn::Add(clamped, hn::Set(di, 1)));
  return hn::IfThenElseZero(hn::RebindMask(df, inside), hn::Add(at, hn::Mul(fraction, hn::Sub(next, at))));
}

template <class DF, class VI>
HWY_INLINE hn::Vec<DF> ColourWeight(DF df, VI distance, const RowJob& job, std::false_type /*s16*/) {
  return hn::GatherIndex(df, job.colour, distance);
}

// sum / wsum rounded half away from zero (the centre where wsum is not above 0), clamped to T, in int32.
template <class T, class DF, class VF, class VI>
HWY_INLINE VI Finish(DF df, VF sum, VF wsum, VI centre) {
  const hn::RebindToSigned<DF> di;
#if HWY_ARCH_ARM_V7
  // Highway divides by a refined reciprocal here, which is not the rounded quotient.
  HWY_ALIGN float numerators[HWY_MAX_BYTES / sizeof(float)];
  HWY_ALIGN float denominators[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(sum, df, numerators);
  hn::Store(wsum, df, denominators);
  for (std::size_t i = 0; i < hn::Lanes(df); ++i) numerators[i] /= denominators[i];
  const auto quotient = hn::Load(df, numerators);
#else
  const auto quotient = hn::Div(sum, wsum);
#endif
  const auto whole = hn::Trunc(quotient);
  const auto away = hn::Ge(hn::Abs(hn::Sub(quotient, whole)), hn::Set(df, 0.5f));
  auto rounded = hn::IfThenElse(away, hn::Add(whole, hn::CopySign(hn::Set(df, 1.0f), quotient)), whole);
  rounded = hn::IfThenElse(hn::Gt(wsum, hn::Zero(df)), rounded, hn::ConvertTo(df, centre));
  rounded = hn::Min(hn::Max(rounded, hn::Set(df, static_cast<float>(std::numeric_limits<T>::min()))),
                    hn::Set(df, static_cast<float>(std::numeric_limits<T>::max())));
  // An integer of at most 16 bits to int32: added to 1.5 * 2^23, it is the low bits of the sum (exact), which
  // spares ConvertTo's handling of values out of int32's range.
  const auto magic = hn::Set(df, 12582912.0f);
  return hn::Sub(hn::BitCast(di, hn::Add(rounded, magic)), hn::BitCast(di, magic));
}

template <class T, class DI>
HWY_INLINE void StoreResult(DI /*di*/, hn::Vec<DI> v, T* dst) {
  const hn::Rebind<T, DI> dt;
  hn::StoreU(hn::DemoteTo(dt, v), dt, dst);  // in T's range already
}

// The weights of one forward offset for row y, x from -radius to the end of @p weights' vectors:
// @p here[c] and @p there[c] point at image column 0 of channel c's rows y and y + j.
template <class T, int C>
void WeightRow(const std::int32_t* const* here, const std::int32_t* const* there, std::int32_t i, float space, int radius,
               const RowJob& job, float* weights) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t lanes = hn::Lanes(df);
  using S16 = std::integral_constant<bool, std::is_same_v<T, std::int16_t>>;
  const auto space_weight = hn::Set(df, space);
  const std::ptrdiff_t end = static_cast<std::ptrdiff_t>(job.width) + radius + 2 * static_cast<std::ptrdiff_t>(lanes);
  for (std::ptrdiff_t x = -radius; x < end; x += static_cast<std::ptrdiff_t>(lanes)) {
    auto distance = hn::Abs(hn::Sub(hn::LoadU(di, there[0] + x + i), hn::LoadU(di, here[0] + x)));
    if constexpr (C > 1) distance = hn::Add(distance, hn::Abs(hn::Sub(hn::LoadU(di, there[1] + x + i), hn::LoadU(di, here[1] + x))));
    if constexpr (C > 2) distance = hn::Add(distance, hn::Abs(hn::Sub(hn::LoadU(di, there[2] + x + i), hn::LoadU(di, here[2] + x))));
    if constexpr (C > 3) distance = hn::Add(distance, hn::Abs(hn::Sub(hn::LoadU(di, there[3] + x + i), hn::LoadU(di, here[3] + x))));
    hn::StoreU(hn::Mul(space_weight, ColourWeight(df, distance, job, S16{})), df, weights + x);
  }
}

// Output pixels x .. x + 2 * lanes - 1 of one row: two vectors at once, so that each one's chain of sums
// (four dependent additions a tap) overlaps the other's.
template <class T, int C>
HWY_INLINE void FilterPair(const std::int32_t* const* neighbours, const float* const* weights, int count, const std::int32_t* const* centres,
                           std::size_t x, T* results, std::size_t results_stride) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t lanes = hn::Lanes(df), y = x + lanes;
  auto a0 = hn::Zero(df), a1 = hn::Zero(df), a2 = hn::Zero(df), a3 = hn::Zero(df), aw = hn::Zero(df);
  auto b0 = hn::Zero(df), b1 = hn::Zero(df), b2 = hn::Zero(df), b3 = hn::Zero(df), bw = hn::Zero(df);
  for (int t = 0; t < count; ++t) {
    const float* w = weights[t];
    const auto wa = hn::LoadU(df, w + x), wb = hn::LoadU(df, w + y);
    const std::int32_t* n = neighbours[t];
    a0 = hn::Add(a0, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + x)), wa));
    b0 = hn::Add(b0, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + y)), wb));
    if constexpr (C > 1) {
      n = neighbours[count + t];
      a1 = hn::Add(a1, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + x)), wa));
      b1 = hn::Add(b1, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + y)), wb));
    }
    if constexpr (C > 2) {
      n = neighbours[2 * count + t];
      a2 = hn::Add(a2, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + x)), wa));
      b2 = hn::Add(b2, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + y)), wb));
    }
    if constexpr (C > 3) {
      n = neighbours[3 * count + t];
      a3 = hn::Add(a3, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + x)), wa));
      b3 = hn::Add(b3, hn::Mul(hn::ConvertTo(df, hn::LoadU(di, n + y)), wb));
    }
    aw = hn::Add(aw, wa);
    bw = hn::Add(bw, wb);
  }
  StoreResult(di, Finish<T>(df, a0, aw, hn::LoadU(di, centres[0] + x)), results + x);
  StoreResult(di, Finish<T>(df, b0, bw, hn::LoadU(di, centres[0] + y)), results + y);
  if constexpr (C > 1) {
    StoreResult(di, Finish<T>(df, a1, aw, hn::LoadU(di, centres[1] + x)), results + results_stride + x);
    StoreResult(di, Finish<T>(df, b1, bw, hn::LoadU(di, centres[1] + y)), results + results_stride + y);
  }
  if constexpr (C > 2) {
    StoreResult(di, Finish<T>(df, a2, aw, hn::LoadU(di, centres[2] + x)), results + 2 * results_stride + x);
    StoreResult(di, Finish<T>(df, b2, bw, hn::LoadU(di, centres[2] + y)), results + 2 * results_stride + y);
  }
  if constexpr (C > 3) {
    StoreResult(di, Finish<T>(df, a3, aw, hn::LoadU(di, centres[3] + x)), results + 3 * results_stride + x);
    StoreResult(di, Finish<T>(df, b3, bw, hn::LoadU(di, centres[3] + y)), results + 3 * results_stride + y);
  }
}

// One output row: @p neighbours[c * count + t] points at tap t's neighbour of image column 0 in channel c,
// @p weights[t] at tap t's weight for it.
template <class T, int C>
void FilterRow(const std::int32_t* const* neighbours, const float* const* weights, int count, const std::int32_t* const* centres,
               const RowJob& job, T* results, std::size_t results_stride) {
  const hn::ScalableTag<float> df;
  const std::size_t lanes = hn::Lanes(df);
  for (std::size_t x = 0; x < job.width; x += 2 * lanes) FilterPair<T, C>(neighbours, weights, count, centres, x, results, results_stride);
}

// Every forward offset's weights for row y.
template <class T, int C, class RowOf>
void WeightRows(const bilateral_detail::Taps& taps, std::ptrdiff_t y, int radius, const RowJob& job, const RowOf& row_of, float* weights,
                std::size_t weight_stride) {
  for (int f = 0; f < taps.forward_count; ++f) {
    const bilateral_detail::Forward& fw = taps.forward[f];
    const std::int32_t* here[C];
    const std::int32_t* there[C];
    for (int c = 0; c < C; ++c) {
      here[c] = row_of(y, c);
      there[c] = row_of(y + fw.j, c);
    }
    const std::size_t slot = fw.first_row + static_cast<std::size_t>((y + radius) % (fw.j + 1));
    WeightRow<T, C>(here, there, fw.i, fw.space, radius, job, weights + slot * weight_stride + bilateral_detail::kMaxRadius);
  }
}

// The rows of the image: the weights of the rows above it first, then row by row both passes.
template <class T, int C, class RowOf, class Ensure, class Scatter>
void Rows(const bilateral_detail::Taps& taps, int radius, std::ptrdiff_t height, bool flat, float centre_weight, const RowJob& job,
          const RowOf& row_of, const Ensure& ensure, const Scatter& scatter, float* weights, std::size_t weight_stride, T* results,
          std::size_t results_stride) {
  namespace detail = bilateral_detail;
  float* centre_row = weights + (taps.weight_rows - 1) * weight_stride;
  std::fill_n(centre_row, weight_stride, centre_weight);
  if (!flat) {
    for (std::ptrdiff_t y = -radius; y < 0; ++y) {
      ensure(y + radius);
      WeightRows<T, C>(taps, y, radius, job, row_of, weights, weight_stride);
    }
  }
  const std::int32_t* neighbours[C * detail::kMaxTaps];
  const float* tap_weights[detail::kMaxTaps];
  const std::int32_t* centres[C];
  auto weight_row = [&](const detail::Forward& fw, std::ptrdiff_t y) {
    return weights + (fw.first_row + static_cast<std::size_t>((y + radius) % (fw.j + 1))) * weight_stride + detail::kMaxRadius;
  };
  for (std::ptrdiff_t y = 0; y < height; ++y) {
    ensure(y + radius);
    for (int c = 0; c < C; ++c) centres[c] = row_of(y, c);
    if (flat) {  // a flat input is its own result
      for (int c = 0; c < C; ++c) {
        for (std::uint32_t x = 0; x < job.width; ++x) results[static_cast<std::size_t>(c) * results_stride + x] = static_cast<T>(centres[c][x]);
      }
    } else {
      WeightRows<T, C>(taps, y, radius, job, row_of, weights, weight_stride);
      for (int t = 0; t < taps.count; ++t) {
        const detail::Tap& tap = taps.taps[t];
        const std::ptrdiff_t j = tap.row - radius;
        for (int c = 0; c < C; ++c) neighbours[c * taps.count + t] = row_of(y + j, c) + tap.column;
        if (tap.forward < 0) {
          tap_weights[t] = centre_row + detail::kMaxRadius;
        } else {
          const detail::Forward& fw = taps.forward[tap.forward];
          // Tap f reads W_f(x, y); tap -f reads W_f(x - i, y - j).
          tap_weights[t] = fw.j == j && fw.i == tap.column ? weight_row(fw, y) : weight_row(fw, y - fw.j) - fw.i;
        }
      }
      FilterRow<T, C>(neighbours, tap_weights, taps.count, centres, job, results, results_stride);
    }
    scatter(y);
  }
}

template <class T>
void Bilateral(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
               const BilateralOptions& o, std::uint8_t* scratch) {
  namespace detail = bilateral_detail;
  const detail::ScratchLayout layout = detail::scratch_layout(o.width, o.channels);
  auto* colour = reinterpret_cast<float*>(scratch + layout.colour);
  auto* ring = reinterpret_cast<std::int32_t*>(scratch + layout.ring);
  auto* weights = reinterpret_cast<float*>(scratch + layout.weights);
  auto* results = reinterpret_cast<T*>(scratch + layout.row_out);
  const std::size_t results_stride = o.width + detail::kSlack;
  const std::size_t weight_stride = detail::weight_width(o.width);
  const std::size_t row_ints = detail::padded_width(o.width);
  const std::size_t channel_stride = row_ints * static_cast<std::size_t>(kMaxBilateralDiameter + 1);  // a channel's slots
  const int diameter = o.diameter, radius = diameter / 2, channels = o.channels;
  const std::ptrdiff_t height = o.height;

  bool flat = false;
  RowJob job{colour, 1.0f, o.width};
  float centre_colour = 1.0f;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    detail::u8_colour_table(channels, o.sigma_values, colour);
    centre_colour = colour[0];
  } else {
    int lowest = 32767, highest = -32768;
    for (std::ptrdiff_t y = 0; y < height; ++y) {
      for (int c = 0; c < channels; ++c) {
        for (std::ptrdiff_t x = 0; x < static_cast<std::ptrdiff_t>(o.width); ++x) {
          const int v = detail::element<T>(in, in_layout, x, y, c);
          lowest = std::min(lowest, v);
          highest = std::max(highest, v);
        }
      }
    }
    flat = highest == lowest;
    if (!flat) {
      job.scale = static_cast<float>(detail::kBinsPerChannel * channels) / static_cast<float>((highest - lowest) * channels);
      detail::s16_colour_table(job.scale, o.sigma_values, colour);
      centre_colour = colour[0] + 0.0f * (colour[1] - colour[0]);  // distance 0 interpolated
    }
  }
  detail::Taps taps;
  detail::taps_of(diameter, o.sigma_space, taps);
  float centre_weight = 0.0f;
  for (int t = 0; t < taps.count; ++t) {
    if (taps.taps[t].forward < 0) centre_weight = taps.taps[t].space * centre_colour;
  }

  // Slot yy % diameter holds image row yy; slot kMaxBilateralDiameter the constant row.
  auto slot = [&](std::ptrdiff_t s) { return ring + static_cast<std::size_t>(s) * row_ints; };
  if (o.constant_border) {
    for (int c = 0; c < channels; ++c) {
      std::fill_n(slot(kMaxBilateralDiameter) + static_cast<std::size_t>(c) * channel_stride, row_ints, std::int32_t{o.constant});
    }
  }
  // Image column 0 of channel c of row yy, the border's row outside the image.
  auto row_of = [&](std::ptrdiff_t yy, int c) -> const std::int32_t* {
    const bool outside = yy < 0 || yy >= height;
    const std::ptrdiff_t s = outside && o.constant_border ? kMaxBilateralDiameter : std::clamp<std::ptrdiff_t>(yy, 0, height - 1) % diameter;
    return slot(s) + static_cast<std::size_t>(c) * channel_stride + detail::kMargin;
  };
  std::ptrdiff_t filled = 0;  // image rows before this one are in the ring
  auto ensure = [&](std::ptrdiff_t last) {
    for (; filled < height && filled <= last; ++filled) detail::fill_row<T>(in, in_layout, o, filled, slot(filled % diameter), channel_stride);
  };
  auto scatter = [&](std::ptrdiff_t y) { detail::scatter_row(results, results_stride, out, out_layout, o, y); };
  switch (channels) {
    case 1: Rows<T, 1>(taps, radius, height, flat, centre_weight, job, row_of, ensure, scatter, weights, weight_stride, results, results_stride); break;
    case 2: Rows<T, 2>(taps, radius, height, flat, centre_weight, job, row_of, ensure, scatter, weights, weight_stride, results, results_stride); break;
    case 3: Rows<T, 3>(taps, radius, height, flat, centre_weight, job, row_of, ensure, scatter, weights, weight_stride, results, results_stride); break;
    default: Rows<T, 4>(taps, radius, height, flat, centre_weight, job, row_of, ensure, scatter, weights, weight_stride, results, results_stride); break;
  }
}

void BilateralU8(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
                 const BilateralOptions& options, std::uint8_t* scratch) {
  Bilateral<std::uint8_t>(in, in_layout, out, out_layout, options, scratch);
}

void BilateralS16(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
                  const BilateralOptions& options, std::uint8_t* scratch) {
  Bilateral<std::int16_t>(in, in_layout, out, out_layout, options, scratch);
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(BilateralU8);
HWY_EXPORT(BilateralS16);

namespace {

bool valid(const BilateralOptions& o, std::span<std::uint8_t> scratch) noexcept {
  return o.channels >= 1 && o.channels <= kMaxBilateralChannels && o.diameter >= 3 && o.diameter <= kMaxBilateralDiameter &&
         o.diameter % 2 == 1 && o.sigma_space > 0.0f && o.sigma_values > 0.0f && scratch.size() >= bilateral_filter_scratch_size(o.width, o.channels);
}

// The scratch from its first aligned byte.
std::uint8_t* aligned_start(std::span<std::uint8_t> scratch) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(scratch.data());
  const std::uintptr_t offset = (bilateral_detail::kAlign - address % bilateral_detail::kAlign) % bilateral_detail::kAlign;
  return scratch.data() + offset;
}

}  // namespace

std::size_t bilateral_filter_scratch_size(std::uint32_t width, int channels) noexcept {
  if (channels < 1 || channels > kMaxBilateralChannels) return 0;
  return bilateral_detail::scratch_layout(width, channels).total;
}

bool bilateral_filter(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
                      const BilateralOptions& options, std::span<std::uint8_t> scratch) noexcept {
  if (!valid(options, scratch)) return false;
  if (options.width == 0 || options.height == 0) return true;
  HWY_DYNAMIC_DISPATCH(BilateralU8)(in, in_layout, out, out_layout, options, aligned_start(scratch));
  return true;
}

bool bilateral_filter(const std::int16_t* in, const BilateralLayout& in_layout, std::int16_t* out, const BilateralLayout& out_layout,
                      const BilateralOptions& options, std::span<std::uint8_t> scratch) noexcept {
  if (!valid(options, scratch)) return false;
  if (options.width == 0 || options.height == 0) return true;
  HWY_DYNAMIC_DISPATCH(BilateralS16)(reinterpret_cast<const std::uint8_t*>(in), in_layout, reinterpret_cast<std::uint8_t*>(out), out_layout,
                                     options, aligned_start(scratch));
  return true;
}

}  // namespace vg::vision
#endif
