#pragma once
/// @file
/// @brief OpenVX's HOGCells and HOGFeatures: histograms of oriented gradients per cell of a U8 image, and
/// their normalised blocks per detection window, in INT16 Q7.8 as libopenvx computes them (the conformance
/// suite's reference scheme).
///
/// HOGCells, with every rounding step: per pixel of the cells (x < cells_x * cell_width, y < cells_y *
/// cell_height), central differences with the edges repeated, gx = in(x + 1, y) - in(x - 1, y), gy = in(x,
/// y + 1) - in(x, y - 1) (floats); the magnitude sqrtf(gx * gx + gy * gy); the orientation
/// (float) fmod(atan2f(gy, gx + 1e-14f) * (180.0 / 3.14159265), 360.0) (the product and fmod in double),
/// plus 360 when below 0; its bin min(floor(orientation * (float) bins / 360.0f), bins - 1). Each pixel, in
/// raster order, adds magnitude / (float) (cell_width * cell_height) to its cell's magnitude and to its
/// cell's bin, each sum truncated to an integer at each step. Magnitudes lie cell by cell in row order, bins
/// the bins of one cell next to each other, cell after cell.
///
/// HOGFeatures: per detection window (row order), per block of the window (row order), the block's cells'
/// magnitudes m give norm = sqrtf(sum of m * m (float, in row order) + 1e-14f); per cell (row order), per
/// bin, v = (int16) (min(bin / norm, threshold) * 256); then the block's values f = v / 256 give
/// renorm = sqrtf(sum of f * f + 1e-14f) and each value becomes (int16) (f / renorm * 256). Written one after
/// the other.
#include <cstddef>
#include <cstdint>
#include <span>

namespace vg::vision {

inline constexpr int kMaxHogBins = 360;

/// @brief A U8 image: pixel (x, y) at data + y * stride + x * pixel_stride.
struct HogImage {
  const std::uint8_t* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::ptrdiff_t stride = 0;
  std::ptrdiff_t pixel_stride = 1;
};

struct HogCellsOptions {
  int cell_width = 8;   ///< 1..width
  int cell_height = 8;  ///< 1..height
  int bins = 9;         ///< 1..kMaxHogBins
};

/// @brief The scratch bytes hog_cells() needs for images @p width wide (0 when the options are out of range).
/// The scratch also keeps a table of orientation bins for the last bin count between calls (each entry
/// computed when first needed): pass zeroed memory the first time and the same memory afterwards.
std::size_t hog_cells_scratch_size(std::uint32_t width, const HogCellsOptions& options) noexcept;

/// @brief The cells of @p in: @p magnitudes (cells_x * cells_y values, may be null) and @p bins (cells_x *
/// cells_y * bins values), cells_x = width / cell_width, cells_y = height / cell_height, every value
/// written. Returns false (writing nothing) when the options are out of range or do not fit the image, or
/// @p scratch is smaller than hog_cells_scratch_size(). Allocates nothing.
bool hog_cells(const HogImage& in, const HogCellsOptions& options, std::int16_t* magnitudes, std::int16_t* bins,
               std::span<std::uint8_t> scratch) noexcept;

struct HogFeaturesOptions {
  int cell_width = 8, cell_height = 8;
  int block_width = 16, block_height = 16, block_stride = 8;
  int bins = 9;
  int window_width = 64, window_height = 128, window_stride = 8;
  float threshold = 0.2f;
};

/// @brief The values of one window: blocks * cells per block * bins.
std::size_t hog_features_per_window(const HogFeaturesOptions& options) noexcept;

/// @brief The scratch bytes hog_features() needs for @p cells_x * @p cells_y cells (each block's values are
/// computed once however many windows hold it).
std::size_t hog_features_scratch_size(std::uint32_t cells_x, std::uint32_t cells_y, const HogFeaturesOptions& options) noexcept;

/// @brief The features of @p windows_x * @p windows_y windows from HOGCells' @p magnitudes and @p bins of
/// @p cells_x * @p cells_y cells, into @p features (windows * hog_features_per_window() values; those past
/// them untouched). Returns false (writing nothing) when the options are out of range (blocks of whole
/// cells, windows and blocks stepping by whole cells, bins 1..kMaxHogBins), a block reaches past the cells,
/// @p feature_count is too small, or @p scratch is smaller than hog_features_scratch_size().
bool hog_features(const std::int16_t* magnitudes, const std::int16_t* bins, std::uint32_t cells_x, std::uint32_t cells_y,
                  const HogFeaturesOptions& options, std::uint32_t windows_x, std::uint32_t windows_y, std::int16_t* features,
                  std::size_t feature_count, std::span<std::uint8_t> scratch) noexcept;

}  // namespace vg::vision
