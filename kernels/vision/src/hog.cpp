// HOGCells and HOGFeatures (hog.hpp). Compiled once per Highway target as filter3x3.cpp is, and with
// -ffp-contract=off (CMakeLists.txt): every float operation is rounded where the definition rounds it.
//
// HOGCells: the orientation's bin depends only on (gx, gy), integers in -255..255, so it comes from a table
// of 511 x 511 bins kept in the scratch for one bin count, each entry computed with the definition's own
// arithmetic (atan2f, fmod) the first time a pixel needs it: at most once per (gx, gy), and only for those
// that occur (a new node on a small image computes a few hundred). Image rows are copied into a ring of three padded int32
// rows (the edges repeated into the padding); each row's gradients, table indices, magnitudes (exact square
// roots) and shares (magnitude / cell area) are computed a vector at a time; then each cell's pixels add
// their shares in raster order, truncating at each step, into float accumulators of the cell row, written
// out as int16 when the row of cells is complete. 32-bit NEON has no exact square root or division: there
// they are taken lane by lane.
//
// HOGFeatures: a block's values depend only on its first cell, so each is computed once (in the scratch)
// and copied into every window that holds it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hog.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "visiongraph/kernels/vision/hog.hpp"

#ifndef VG_VISION_HOG_SHARED
#define VG_VISION_HOG_SHARED
namespace vg::vision::hog_detail {

constexpr int kGradientSide = 511;  // gx and gy in -255..255
constexpr std::size_t kTableEntries = static_cast<std::size_t>(kGradientSide) * kGradientSide;
constexpr std::size_t kAlign = 64;
// Room past a row's last pixel: the reach of one, and a vector of the widest target (SVE: 64 int32 lanes;
// a literal, as this block is compiled once, under whichever target comes first).
constexpr std::size_t kSlack = 1 + 64 + 16;
// The table's header: which bin count it holds (zeroed memory holds none).
constexpr std::uint64_t kTableKey = 0x484f47'00000000ull;

inline std::size_t aligned(std::size_t bytes) noexcept { return (bytes + kAlign - 1) / kAlign * kAlign; }

struct CellsLayout {
  std::size_t header = 0, table = 0, ring = 0, shares = 0, indices = 0, magnitudes = 0, bins = 0, total = 0;
  std::size_t padded = 0;  // int32 per ring row
};

inline CellsLayout cells_layout(std::uint32_t width, const HogCellsOptions& o) noexcept {
  CellsLayout l;
  const std::size_t cells_x = width / static_cast<std::uint32_t>(o.cell_width);
  l.padded = 1 + static_cast<std::size_t>(width) + kSlack;
  l.header = 0;
  l.table = aligned(sizeof(std::uint64_t));
  l.ring = l.table + aligned(sizeof(std::uint16_t) * kTableEntries);
  l.shares = l.ring + aligned(sizeof(std::int32_t) * 3 * l.padded);
  l.indices = l.shares + aligned(sizeof(float) * (width + kSlack));
  l.magnitudes = l.indices + aligned(sizeof(std::int32_t) * (width + kSlack));
  l.bins = l.magnitudes + aligned(sizeof(float) * cells_x);
  l.total = l.bins + aligned(sizeof(float) * cells_x * static_cast<std::size_t>(o.bins)) + kAlign;
  return l;
}

constexpr std::uint16_t kUnknownBin = 0xffff;

// The bin of (gx, gy) by the definition's arithmetic.
inline std::uint16_t bin_of(std::int32_t index, int bins) noexcept {
  const auto fx = static_cast<float>(index % kGradientSide - 255), fy = static_cast<float>(index / kGradientSide - 255);
  float orientation = static_cast<float>(std::fmod(std::atan2(fy, fx + 1e-14f) * (180.0 / 3.14159265), 360.0));
  if (orientation < 0.0f) orientation += 360.0f;
  const float per_bin = static_cast<float>(bins) / 360.0f;
  return static_cast<std::uint16_t>(std::min(static_cast<int>(std::floor(orientation * per_bin)), bins - 1));
}

// Image row y into a padded ring row: pixel x at [1 + x], its edges repeated on both sides.
inline void fill_row(const HogImage& in, std::uint32_t y, std::int32_t* row, std::size_t padded) noexcept {
  const std::uint8_t* src = in.data + static_cast<std::ptrdiff_t>(y) * in.stride;
  std::int32_t* image = row + 1;
  if (in.pixel_stride == 1) {
    for (std::uint32_t x = 0; x < in.width; ++x) image[x] = src[x];
  } else {
    for (std::uint32_t x = 0; x < in.width; ++x) image[x] = src[static_cast<std::ptrdiff_t>(x) * in.pixel_stride];
  }
  row[0] = image[0];
  std::fill(image + in.width, row + padded, image[in.width - 1]);
}

// What the row pass needs.
struct RowJob {
  const std::int32_t* above;  // image column 0 of rows y - 1, y, y + 1
  const std::int32_t* centre;
  const std::int32_t* below;
  std::size_t count;  // pixels of the cells in the row
  float area;
  float* shares;
  std::int32_t* indices;
};

}  // namespace vg::vision::hog_detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each pixel's table index and share of its cell: sqrtf(gx^2 + gy^2) / area.
void GradientRow(const hog_detail::RowJob& job) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const std::size_t lanes = hn::Lanes(df);
  const auto offset = hn::Set(di, 255);
  const auto side = hn::Set(di, hog_detail::kGradientSide);
  const auto area = hn::Set(df, job.area);
  for (std::size_t x = 0; x < job.count; x += lanes) {
    const auto gx = hn::Sub(hn::LoadU(di, job.centre + x + 1), hn::LoadU(di, job.centre + x - 1));
    const auto gy = hn::Sub(hn::LoadU(di, job.below + x), hn::LoadU(di, job.above + x));
    hn::StoreU(hn::Add(hn::Mul(hn::Add(gy, offset), side), hn::Add(gx, offset)), di, job.indices + x);
    const auto fx = hn::ConvertTo(df, gx), fy = hn::ConvertTo(df, gy);
    const auto squares = hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy));
#if HWY_ARCH_ARM_V7
    // Highway's square root and division here are refined estimates, not the rounded results.
    HWY_ALIGN float lane[HWY_MAX_BYTES / sizeof(float)];
    hn::Store(squares, df, lane);
    for (std::size_t i = 0; i < lanes; ++i) lane[i] = std::sqrt(lane[i]) / job.area;
    hn::StoreU(hn::Load(df, lane), df, job.shares + x);
    (void)area;
#else
    hn::StoreU(hn::Div(hn::Sqrt(squares), area), df, job.shares + x);
#endif
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(GradientRow);

namespace {

bool cells_options_valid(std::uint32_t width, std::uint32_t height, const HogCellsOptions& o) noexcept {
  return o.cell_width >= 1 && o.cell_height >= 1 && static_cast<std::uint32_t>(o.cell_width) <= width &&
         static_cast<std::uint32_t>(o.cell_height) <= height && o.bins >= 1 && o.bins <= kMaxHogBins;
}

std::uint8_t* aligned_start(std::span<std::uint8_t> scratch) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(scratch.data());
  return scratch.data() + (hog_detail::kAlign - address % hog_detail::kAlign) % hog_detail::kAlign;
}

}  // namespace

std::size_t hog_cells_scratch_size(std::uint32_t width, const HogCellsOptions& options) noexcept {
  if (options.cell_width < 1 || options.cell_height < 1 || options.bins < 1 || options.bins > kMaxHogBins) return 0;
  return hog_detail::cells_layout(width, options).total;
}

bool hog_cells(const HogImage& in, const HogCellsOptions& o, std::int16_t* magnitudes, std::int16_t* bins,
               std::span<std::uint8_t> scratch) noexcept {
  namespace detail = hog_detail;
  if (!cells_options_valid(in.width, in.height, o) || bins == nullptr || scratch.size() < hog_cells_scratch_size(in.width, o)) return false;
  const detail::CellsLayout l = detail::cells_layout(in.width, o);
  std::uint8_t* base = aligned_start(scratch);
  auto* key = reinterpret_cast<std::uint64_t*>(base + l.header);
  auto* table = reinterpret_cast<std::uint16_t*>(base + l.table);
  auto* ring = reinterpret_cast<std::int32_t*>(base + l.ring);
  auto* shares = reinterpret_cast<float*>(base + l.shares);
  auto* indices = reinterpret_cast<std::int32_t*>(base + l.indices);
  auto* cell_magnitudes = reinterpret_cast<float*>(base + l.magnitudes);
  auto* cell_bins = reinterpret_cast<float*>(base + l.bins);
  if (*key != (detail::kTableKey | static_cast<std::uint64_t>(o.bins))) {
    std::fill_n(table, detail::kTableEntries, detail::kUnknownBin);
    *key = detail::kTableKey | static_cast<std::uint64_t>(o.bins);
  }
  const std::uint32_t cw = static_cast<std::uint32_t>(o.cell_width), ch = static_cast<std::uint32_t>(o.cell_height);
  const std::uint32_t cells_x = in.width / cw, cells_y = in.height / ch;
  const std::size_t nb = static_cast<std::size_t>(o.bins);
  auto slot = [&](std::uint32_t y) { return ring + static_cast<std::size_t>(y % 3) * l.padded; };
  detail::RowJob job{};
  job.count = static_cast<std::size_t>(cells_x) * cw;
  job.area = static_cast<float>(o.cell_width * o.cell_height);
  job.shares = shares;
  job.indices = indices;
  detail::fill_row(in, 0, slot(0), l.padded);
  std::uint32_t filled = 1;  // image rows before this one are in the ring
  for (std::uint32_t y = 0; y < cells_y * ch; ++y) {
    const std::uint32_t below = std::min(y + 1, in.height - 1);
    for (; filled <= below; ++filled) detail::fill_row(in, filled, slot(filled), l.padded);
    job.above = slot(y == 0 ? 0 : y - 1) + 1;
    job.centre = slot(y) + 1;
    job.below = slot(below) + 1;
    HWY_DYNAMIC_DISPATCH(GradientRow)(job);
    if (y % ch == 0) {
      std::fill_n(cell_magnitudes, cells_x, 0.0f);
      std::fill_n(cell_bins, static_cast<std::size_t>(cells_x) * nb, 0.0f);
    }
    // Each step truncated, as the definition's int16 sums are.
    for (std::uint32_t k = 0; k < cells_x; ++k) {
      float magnitude = cell_magnitudes[k];
      float* hist = cell_bins + static_cast<std::size_t>(k) * nb;
      for (std::size_t x = static_cast<std::size_t>(k) * cw, end = x + cw; x < end; ++x) {
        const float share = shares[x];
        magnitude = static_cast<float>(static_cast<std::int32_t>(magnitude + share));
        std::uint16_t& entry = table[indices[x]];
        if (entry == detail::kUnknownBin) entry = detail::bin_of(indices[x], o.bins);
        float& bin = hist[entry];
        bin = static_cast<float>(static_cast<std::int32_t>(bin + share));
      }
      cell_magnitudes[k] = magnitude;
    }
    if (y % ch == ch - 1) {
      const std::size_t first = static_cast<std::size_t>(y / ch) * cells_x;
      if (magnitudes != nullptr) {
        for (std::uint32_t k = 0; k < cells_x; ++k) magnitudes[first + k] = static_cast<std::int16_t>(cell_magnitudes[k]);
      }
      for (std::size_t i = 0; i < static_cast<std::size_t>(cells_x) * nb; ++i) bins[first * nb + i] = static_cast<std::int16_t>(cell_bins[i]);
    }
  }
  return true;
}

namespace {

bool features_options_valid(const HogFeaturesOptions& p) noexcept {
  return p.cell_width >= 1 && p.cell_height >= 1 && p.block_width >= p.cell_width && p.block_height >= p.cell_height &&
         p.block_stride >= 1 && p.bins >= 1 && p.bins <= kMaxHogBins && p.window_width >= p.block_width &&
         p.window_height >= p.block_height && p.window_stride >= 1 && p.block_width % p.cell_width == 0 &&
         p.block_height % p.cell_height == 0 && p.block_stride % p.cell_width == 0 && p.window_stride % p.cell_width == 0 &&
         p.block_stride % p.cell_height == 0 && p.window_stride % p.cell_height == 0;
}

std::size_t block_values(const HogFeaturesOptions& p) noexcept {
  return static_cast<std::size_t>(p.block_width / p.cell_width) * static_cast<std::size_t>(p.block_height / p.cell_height) *
         static_cast<std::size_t>(p.bins);
}

// One block's values, its first cell at flat index @p first (cells_x a row).
void block_features(const std::int16_t* magnitudes, const std::int16_t* bins, std::size_t cells_x, std::size_t first,
                    const HogFeaturesOptions& p, std::int16_t* out) noexcept {
  const int cells_w = p.block_width / p.cell_width, cells_h = p.block_height / p.cell_height;
  float sum = 0.0f;
  for (int y = 0; y < cells_h; ++y) {
    for (int x = 0; x < cells_w; ++x) {
      const float m = magnitudes[first + static_cast<std::size_t>(y) * cells_x + static_cast<std::size_t>(x)];
      sum += m * m;
    }
  }
  sum = std::sqrt(sum + 1e-14f);
  std::size_t n = 0;
  for (int y = 0; y < cells_h; ++y) {
    for (int x = 0; x < cells_w; ++x) {
      const std::int16_t* hist = bins + (first + static_cast<std::size_t>(y) * cells_x + static_cast<std::size_t>(x)) * static_cast<std::size_t>(p.bins);
      for (int k = 0; k < p.bins; ++k) out[n++] = static_cast<std::int16_t>(std::min(static_cast<float>(hist[k]) / sum, p.threshold) * 256.0f);
    }
  }
  float renorm = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const float f = static_cast<float>(out[i]) / 256.0f;
    renorm += f * f;
  }
  renorm = std::sqrt(renorm + 1e-14f);
  for (std::size_t i = 0; i < n; ++i) {
    const float f = static_cast<float>(out[i]) / 256.0f;
    out[i] = static_cast<std::int16_t>(f / renorm * 256.0f);
  }
}

}  // namespace

std::size_t hog_features_per_window(const HogFeaturesOptions& p) noexcept {
  if (!features_options_valid(p)) return 0;
  return static_cast<std::size_t>((p.window_width - p.block_width) / p.block_stride + 1) *
         static_cast<std::size_t>((p.window_height - p.block_height) / p.block_stride + 1) * block_values(p);
}

std::size_t hog_features_scratch_size(std::uint32_t cells_x, std::uint32_t cells_y, const HogFeaturesOptions& p) noexcept {
  if (!features_options_valid(p)) return 0;
  const std::size_t cells = static_cast<std::size_t>(cells_x) * cells_y;
  return cells * (1 + sizeof(std::int16_t) * block_values(p)) + 2 + hog_detail::kAlign;
}

bool hog_features(const std::int16_t* magnitudes, const std::int16_t* bins, std::uint32_t cells_x, std::uint32_t cells_y,
                  const HogFeaturesOptions& p, std::uint32_t windows_x, std::uint32_t windows_y, std::int16_t* features,
                  std::size_t feature_count, std::span<std::uint8_t> scratch) noexcept {
  if (!features_options_valid(p) || magnitudes == nullptr || bins == nullptr || scratch.size() < hog_features_scratch_size(cells_x, cells_y, p)) {
    return false;
  }
  const std::size_t per_block = block_values(p);
  const int blocks_w = (p.window_width - p.block_width) / p.block_stride + 1, blocks_h = (p.window_height - p.block_height) / p.block_stride + 1;
  const int cells_w = p.block_width / p.cell_width, cells_h = p.block_height / p.cell_height;
  const std::size_t cell_count = static_cast<std::size_t>(cells_x) * cells_y;
  const std::size_t windows = static_cast<std::size_t>(windows_x) * windows_y;
  if (windows == 0) return true;
  if (feature_count / windows < hog_features_per_window(p)) return false;
  // The block of the last window and block reaches furthest: every cell read lies before its last.
  auto first_cell = [&](std::uint32_t wx, std::uint32_t wy, int bx, int by) {
    const std::size_t cx = (static_cast<std::size_t>(wx) * static_cast<std::size_t>(p.window_stride) + static_cast<std::size_t>(bx * p.block_stride)) /
                           static_cast<std::size_t>(p.cell_width);
    const std::size_t cy = (static_cast<std::size_t>(wy) * static_cast<std::size_t>(p.window_stride) + static_cast<std::size_t>(by * p.block_stride)) /
                           static_cast<std::size_t>(p.cell_height);
    return cy * cells_x + cx;
  };
  const std::size_t furthest = first_cell(windows_x - 1, windows_y - 1, blocks_w - 1, blocks_h - 1) +
                               static_cast<std::size_t>(cells_h - 1) * cells_x + static_cast<std::size_t>(cells_w - 1);
  if (furthest >= cell_count) return false;
  std::uint8_t* base = aligned_start(scratch);
  std::uint8_t* done = base;
  auto* cache = reinterpret_cast<std::int16_t*>(base + (cell_count + 1) / 2 * 2);
  std::memset(done, 0, cell_count);
  std::int16_t* out = features;
  for (std::uint32_t wy = 0; wy < windows_y; ++wy) {
    for (std::uint32_t wx = 0; wx < windows_x; ++wx) {
      for (int by = 0; by < blocks_h; ++by) {
        for (int bx = 0; bx < blocks_w; ++bx) {
          const std::size_t first = first_cell(wx, wy, bx, by);
          std::int16_t* values = cache + first * per_block;
          if (done[first] == 0) {
            block_features(magnitudes, bins, cells_x, first, p, values);
            done[first] = 1;
          }
          std::memcpy(out, values, per_block * sizeof(std::int16_t));
          out += per_block;
        }
      }
    }
  }
  return true;
}

}  // namespace vg::vision
#endif
