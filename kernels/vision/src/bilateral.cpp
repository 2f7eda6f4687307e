// BilateralFilter (bilateral.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off (CMakeLists.txt): every float operation is rounded where the definition rounds it.
//
// The input's rows, in whatever layout they come, are copied one at a time into a ring of `diameter` padded
// int32 rows per channel (the border written into the padding, a row of the constant standing for rows
// outside the image under a constant border), so the filter itself reads contiguous rows whatever the
// element type, channel count or strides. Each vector of output pixels then runs the taps in the
// definition's order in its lanes: the colour distance in int32, the colour weight gathered from the table
// (interpolated for S16), the weighted sums in float. Lanes past the row's end compute from the padding and
// are dropped. The results go to a row of T per channel and from there to the output element by element in
// raster order (a copy where the output is one packed channel), which keeps the overlapping channels'
// last-write-wins layout. 32-bit NEON has no exact division: there the quotients are taken lane by lane.
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
// Columns before a padded row's first image column, and after its last: the widest reach plus a vector of
// the widest target (SVE: 64 int32 lanes), so whole vectors never leave the row.
constexpr std::ptrdiff_t kMargin = kMaxRadius;
constexpr std::size_t kSlack = kMaxRadius + HWY_MAX_BYTES / 4 + 16;
constexpr std::size_t kAlign = 64;

struct Tap {
  std::int32_t row;     // window row, 0 at the top
  std::int32_t column;  // -radius .. radius
  float space;
};

struct Taps {
  Tap taps[kMaxBilateralDiameter * kMaxBilateralDiameter];
  int count = 0;
};

inline std::size_t padded_width(std::uint32_t width) noexcept { return static_cast<std::size_t>(kMargin) + width + kSlack; }

inline std::size_t aligned(std::size_t bytes) noexcept { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Scratch: the colour table, the ring (diameter rows and the constant row, per channel), the output row.
struct ScratchLayout {
  std::size_t colour = 0, ring = 0, row_out = 0, total = 0;
};

inline ScratchLayout scratch_layout(std::uint32_t width, int channels) noexcept {
  ScratchLayout s;
  const std::size_t rows = static_cast<std::size_t>(kMaxBilateralDiameter + 1) * static_cast<std::size_t>(channels);
  s.colour = 0;
  s.ring = aligned(sizeof(float) * kColourTable);
  s.row_out = s.ring + aligned(sizeof(std::int32_t) * padded_width(width) * rows);
  s.total = s.row_out + aligned(sizeof(std::int16_t) * (width + kSlack) * static_cast<std::size_t>(channels)) + kAlign;
  return s;
}

// The disc's taps in the definition's order with their space weights.
inline void taps_of(int diameter, float sigma_space, Taps& t) noexcept {
  const int radius = diameter / 2;
  const double coefficient = -0.5 / (static_cast<double>(sigma_space) * sigma_space);
  t.count = 0;
  for (int j = -radius; j <= radius; ++j) {
    for (int i = -radius; i <= radius; ++i) {
      const double r = std::sqrt(static_cast<double>(i * i + j * j));
      if (r > radius) continue;
      t.taps[t.count++] = {j + radius, i, static_cast<float>(std::exp(r * r * coefficient))};
    }
  }
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

// What the row filter needs beside the rows.
struct RowJob {
  const Tap* taps;
  int tap_count;
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

// One output row: @p window[c * diameter + row] points at image column 0 of channel c's window row.
template <class T, int C>
void FilterRow(const std::int32_t* const* window, int diameter, const RowJob& job, T* results, std::size_t results_stride) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t lanes = hn::Lanes(df);
  const int radius = diameter / 2;
  using S16 = std::integral_constant<bool, std::is_same_v<T, std::int16_t>>;
  // Each tap's first column, per channel, so that the loop over the taps reads straight through.
  constexpr int kMaxTaps = kMaxBilateralDiameter * kMaxBilateralDiameter;
  const std::int32_t* tap_rows[C][kMaxTaps];
  for (int c = 0; c < C; ++c) {
    for (int t = 0; t < job.tap_count; ++t) tap_rows[c][t] = window[c * diameter + job.taps[t].row] + job.taps[t].column;
  }
  for (std::size_t x = 0; x < job.width; x += lanes) {
    const auto centre0 = hn::LoadU(di, window[radius] + x);
    auto centre1 = centre0, centre2 = centre0, centre3 = centre0;
    if constexpr (C > 1) centre1 = hn::LoadU(di, window[diameter + radius] + x);
    if constexpr (C > 2) centre2 = hn::LoadU(di, window[2 * diameter + radius] + x);
    if constexpr (C > 3) centre3 = hn::LoadU(di, window[3 * diameter + radius] + x);
    auto sum0 = hn::Zero(df), sum1 = hn::Zero(df), sum2 = hn::Zero(df), sum3 = hn::Zero(df), wsum = hn::Zero(df);
    for (int t = 0; t < job.tap_count; ++t) {
      const auto v0 = hn::LoadU(di, tap_rows[0][t] + x);
      auto distance = hn::Abs(hn::Sub(v0, centre0));
      auto v1 = v0, v2 = v0, v3 = v0;
      if constexpr (C > 1) {
        v1 = hn::LoadU(di, tap_rows[1][t] + x);
        distance = hn::Add(distance, hn::Abs(hn::Sub(v1, centre1)));
      }
      if constexpr (C > 2) {
        v2 = hn::LoadU(di, tap_rows[2][t] + x);
        distance = hn::Add(distance, hn::Abs(hn::Sub(v2, centre2)));
      }
      if constexpr (C > 3) {
        v3 = hn::LoadU(di, tap_rows[3][t] + x);
        distance = hn::Add(distance, hn::Abs(hn::Sub(v3, centre3)));
      }
      const auto weight = hn::Mul(hn::Set(df, job.taps[t].space), ColourWeight(df, distance, job, S16{}));
      sum0 = hn::Add(sum0, hn::Mul(hn::ConvertTo(df, v0), weight));
      if constexpr (C > 1) sum1 = hn::Add(sum1, hn::Mul(hn::ConvertTo(df, v1), weight));
      if constexpr (C > 2) sum2 = hn::Add(sum2, hn::Mul(hn::ConvertTo(df, v2), weight));
      if constexpr (C > 3) sum3 = hn::Add(sum3, hn::Mul(hn::ConvertTo(df, v3), weight));
      wsum = hn::Add(wsum, weight);
    }
    StoreResult(di, Finish<T>(df, sum0, wsum, centre0), results + x);
    if constexpr (C > 1) StoreResult(di, Finish<T>(df, sum1, wsum, centre1), results + results_stride + x);
    if constexpr (C > 2) StoreResult(di, Finish<T>(df, sum2, wsum, centre2), results + 2 * results_stride + x);
    if constexpr (C > 3) StoreResult(di, Finish<T>(df, sum3, wsum, centre3), results + 3 * results_stride + x);
  }
}

template <class T>
void Bilateral(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
               const BilateralOptions& o, std::uint8_t* scratch) {
  namespace detail = bilateral_detail;
  const detail::ScratchLayout layout = detail::scratch_layout(o.width, o.channels);
  auto* colour = reinterpret_cast<float*>(scratch + layout.colour);
  auto* ring = reinterpret_cast<std::int32_t*>(scratch + layout.ring);
  auto* results = reinterpret_cast<T*>(scratch + layout.row_out);
  const std::size_t results_stride = o.width + detail::kSlack;
  const std::size_t row_ints = detail::padded_width(o.width);
  const std::size_t channel_stride = row_ints * static_cast<std::size_t>(kMaxBilateralDiameter + 1);  // a channel's slots
  const int diameter = o.diameter, radius = diameter / 2, channels = o.channels;
  const std::ptrdiff_t width = o.width, height = o.height;

  bool flat = false;
  RowJob job{nullptr, 0, colour, 1.0f, o.width};
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    detail::u8_colour_table(channels, o.sigma_values, colour);
  } else {
    int lowest = 32767, highest = -32768;
    for (std::ptrdiff_t y = 0; y < height; ++y) {
      for (int c = 0; c < channels; ++c) {
        for (std::ptrdiff_t x = 0; x < width; ++x) {
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
    }
  }
  detail::Taps taps;
  detail::taps_of(diameter, o.sigma_space, taps);
  job.taps = taps.taps;
  job.tap_count = taps.count;

  // Slot yy % diameter holds image row yy; slot kMaxBilateralDiameter the constant row.
  auto slot = [&](std::ptrdiff_t s) { return ring + static_cast<std::size_t>(s) * row_ints; };
  if (o.constant_border) {
    for (int c = 0; c < channels; ++c) {
      std::fill_n(slot(kMaxBilateralDiameter) + static_cast<std::size_t>(c) * channel_stride, row_ints, std::int32_t{o.constant});
    }
  }
  const std::int32_t* window[kMaxBilateralChannels * kMaxBilateralDiameter];
  std::ptrdiff_t filled = 0;  // image rows before this one are in the ring
  for (std::ptrdiff_t y = 0; y < height; ++y) {
    for (; filled < height && filled <= y + radius; ++filled) {
      detail::fill_row<T>(in, in_layout, o, filled, slot(filled % diameter), channel_stride);
    }
    if (flat) {  // a flat input is its own result
      for (int c = 0; c < channels; ++c) {
        const std::int32_t* row = slot(y % diameter) + static_cast<std::size_t>(c) * channel_stride + detail::kMargin;
        for (std::ptrdiff_t x = 0; x < width; ++x) results[static_cast<std::size_t>(c) * results_stride + static_cast<std::size_t>(x)] = static_cast<T>(row[x]);
      }
    } else {
      for (int r = 0; r < diameter; ++r) {
        const std::ptrdiff_t yy = y - radius + r;
        const bool outside = yy < 0 || yy >= height;
        const std::ptrdiff_t s = outside && o.constant_border ? kMaxBilateralDiameter : std::clamp<std::ptrdiff_t>(yy, 0, height - 1) % diameter;
        for (int c = 0; c < channels; ++c) {
          window[c * diameter + r] = slot(s) + static_cast<std::size_t>(c) * channel_stride + detail::kMargin;
        }
      }
      switch (channels) {
        case 1: FilterRow<T, 1>(window, diameter, job, results, results_stride); break;
        case 2: FilterRow<T, 2>(window, diameter, job, results, results_stride); break;
        case 3: FilterRow<T, 3>(window, diameter, job, results, results_stride); break;
        default: FilterRow<T, 4>(window, diameter, job, results, results_stride); break;
      }
    }
    detail::scatter_row(results, results_stride, out, out_layout, o, y);
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
