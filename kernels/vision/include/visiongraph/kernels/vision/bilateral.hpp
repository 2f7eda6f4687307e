#pragma once
/// @file
/// @brief OpenVX's BilateralFilter on U8 or S16 (Q7.8) elements of 1..4 channels: each output element is the
/// mean of the window's elements weighted by a space weight and a colour weight, rounded.
///
/// The definition, with every rounding step (libopenvx's results, which the conformance suite checks):
/// - radius r = diameter / 2. Tap (i, j), -r <= i, j <= r, takes part when sqrt(i^2 + j^2) <= r (double);
///   its space weight is (float) exp(d * d * -0.5 / sigma_space^2) with d that double square root (all in
///   double, sigma_space widened first). Taps are summed row by row, left to right.
/// - The colour distance of a neighbour is the sum over the channels of |neighbour - centre| (integers).
///   U8: its weight is colour[distance] with colour[i] = (float) exp(i * i * -0.5 / sigma_values^2)
///   (double). S16: over the input's range [lowest, highest] (every element of the image, no border), with
///   bins = 4096 * channels and scale = (float) bins / (float) ((highest - lowest) * channels),
///   colour[i] = (float) exp(t * t * -0.5 / sigma_values^2) with t = i / (double) scale, for i in
///   0 .. 4096 * 4 + 1, and 0 from the first entry that is 0 on; a neighbour's weight is, in float,
///   a = distance * scale, k = floor(a), a -= k, colour[k] + a * (colour[k + 1] - colour[k]) while
///   k + 1 < 4096 * 4 + 2, else 0. A flat input (highest == lowest) is its own result.
/// - weight = space * colour (float); sum_c += (float) neighbour_c * weight, wsum += weight (float, in tap
///   order, no fused multiply-add); the result sum_c / wsum rounded half away from zero (the centre itself
///   when wsum is not above 0), clamped to the element type.
/// - A neighbour outside the image reads the border: constant, the constant; replicate, the nearest
///   image element.
#include <cstddef>
#include <cstdint>
#include <span>

namespace vg::vision {

inline constexpr int kMaxBilateralDiameter = 15;
inline constexpr int kMaxBilateralChannels = 4;

/// @brief Where the elements lie: channel c of pixel (x, y) starts y * row_step + x * pixel_step +
/// c * channel_step bytes after the first element (none negative, no alignment needed). Channels may overlap
/// the next pixel's (a pixel_step below the channels' size: OpenVX tensors [1, width, height] read as three
/// channels, as the conformance suite reads them). @p last is the byte offset of the last element the memory
/// holds: a read past it reads it, a write past it is dropped.
struct BilateralLayout {
  std::ptrdiff_t channel_step = 0;
  std::ptrdiff_t pixel_step = 0;
  std::ptrdiff_t row_step = 0;
  std::ptrdiff_t last = 0;
};

struct BilateralOptions {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int channels = 1;  ///< 1..kMaxBilateralChannels
  int diameter = 5;  ///< odd, 3..kMaxBilateralDiameter
  float sigma_space = 1.0f;
  float sigma_values = 1.0f;
  bool constant_border = false;  ///< else replicate (OpenVX's undefined border is computed as replicate)
  std::int16_t constant = 0;     ///< the value outside the image under a constant border (U8: 0..255)
};

/// @brief The scratch bytes bilateral_filter() needs for images @p width wide of @p channels channels (any
/// diameter up to kMaxBilateralDiameter, either element type); 0 when @p channels is out of range.
std::size_t bilateral_filter_scratch_size(std::uint32_t width, int channels) noexcept;

/// @brief Filters @p in into @p out (different memory), every output element in raster order (pixel by
/// pixel, channel by channel: where output channels overlap, the last write stays). Returns false (writing
/// nothing) when the options are out of range (sigmas must be above 0) or @p scratch is smaller
/// than bilateral_filter_scratch_size(). Allocates nothing.
bool bilateral_filter(const std::uint8_t* in, const BilateralLayout& in_layout, std::uint8_t* out, const BilateralLayout& out_layout,
                      const BilateralOptions& options, std::span<std::uint8_t> scratch) noexcept;
bool bilateral_filter(const std::int16_t* in, const BilateralLayout& in_layout, std::int16_t* out, const BilateralLayout& out_layout,
                      const BilateralOptions& options, std::span<std::uint8_t> scratch) noexcept;

}  // namespace vg::vision
