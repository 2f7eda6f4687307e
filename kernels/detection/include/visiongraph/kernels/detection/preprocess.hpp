#pragma once
/// @file
/// @brief Letterbox + colour conversion + normalisation of a camera image straight into tensor memory.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "visiongraph/kernels/detection/letterbox.hpp"

namespace vg::detection {

/// @brief Pixel formats accepted by the preprocessor.
enum class PixelFormat : std::uint8_t { bgr24, rgb24, nv12 };

/// @brief A non-owning image: plane pointers and row strides in bytes (NV12: plane 1 = interleaved UV).
struct ImageRef {
  PixelFormat format = PixelFormat::bgr24;
  int width = 0;
  int height = 0;
  const std::uint8_t* plane[2] = {nullptr, nullptr};
  std::size_t stride[2] = {0, 0};
};

/// @brief Tensor element type + layout written by the preprocessor.
enum class TensorFormat : std::uint8_t { u8_nhwc, f32_nhwc, f32_nchw };

/// @brief Per-channel affine map `out = v * mul[c] + add[c]` of a 0..255 value v (channel order of the
///        output). Ignored for u8 output.
struct PixelMapping {
  float mul[3] = {1.0f, 1.0f, 1.0f};
  float add[3] = {0.0f, 0.0f, 0.0f};

  static PixelMapping none() noexcept { return {}; }                          ///< v
  static PixelMapping unit() noexcept;                                        ///< v / 255
  static PixelMapping blazeface() noexcept;                                   ///< v / 127.5 - 1
  static PixelMapping mean_std(const float mean[3], const float stddev[3]) noexcept;  ///< (v - mean) / std
};

/// @brief Parse "blazeface" | "unit" | "none". False on unknown text (mean/std is set numerically).
bool parse_mapping(std::string_view text, PixelMapping& out) noexcept;

/// @brief How to fill the tensor.
struct PreprocessConfig {
  TensorFormat format = TensorFormat::f32_nhwc;
  PixelMapping mapping = PixelMapping::blazeface();
  /// Pad colour as a 0..255 value *before* mapping (0, 114, ...). With the blazeface mapping 0 gives -1.0, the
  /// MediaPipe convention (it pads with 0 and then maps the range).
  std::uint8_t pad_value = 0;
  bool rgb = true;  ///< channel order of the tensor: RGB (true) or BGR
  /// Use the AVX2 code when the CPU has it (x86-64). false forces the portable loops; the tensor is
  /// bit-identical either way (the tests compare the two).
  bool simd = true;
};

/// @brief Bilinear letterbox resampler with its lookup tables built once.
///
/// Own loops instead of cv::resize/cv::warpAffine: those allocate on every call (cv::resize into a
/// preallocated Mat still allocates its coefficient tables and row buffers), and they need extra passes for
/// padding, channel order and normalisation. The resampler is separable and fixed-point (8-bit weights,
/// exact integer sums): horizontal first, per source row that an output row needs (kept for
/// the next output row when shared): the two source pixels of every tensor column are gathered into two
/// contiguous byte rows, blended into a u16 row (value x 256, exact), then the two rows are blended
/// vertically and mapped + stored in the tensor's layout. Only the gather is per pixel; every other loop is
/// contiguous and vectorized. When both axes are an exact 2:1 box (bilinear weights 1/2, 1/2 on pixel
/// pairs, e.g. 1280x720 -> 640x640), an AVX2 loop does the whole row in one pass (same integers).
/// Sampling uses pixel centres (x_src = (x_dst + 0.5 - pad_x) / scale - 0.5, edge-clamped), which is the
/// continuous-coordinate convention of LetterboxGeometry and cv::resize INTER_LINEAR.
/// @code
/// auto g = vg::detection::make_letterbox(1280, 720, 128, 128);
/// vg::detection::Preprocessor pre(g, {});                   // create: builds tables
/// pre.run(image_ref, tensor_ptr);                          // per frame: no allocation
/// @endcode
/// @note Not thread-safe: run() uses the instance's row buffers. One instance per worker.
class Preprocessor {
 public:
  /// @throws std::invalid_argument if @p geometry is not valid
  Preprocessor(const LetterboxGeometry& geometry, const PreprocessConfig& config);

  /// @brief Fill @p tensor (dst_w x dst_h x 3 elements of the configured type). The image must have the
  ///        geometry's source size; returns false (tensor untouched) otherwise or if a plane is null.
  bool run(const ImageRef& image, void* tensor) noexcept;

  const LetterboxGeometry& geometry() const noexcept { return geometry_; }
  const PreprocessConfig& config() const noexcept { return config_; }
  /// @brief Bytes run() writes.
  std::size_t tensor_bytes() const noexcept;
  /// @brief True when run() uses the AVX2 code (config().simd and the CPU has AVX2).
  bool uses_avx2() const noexcept { return avx2_; }

 private:
  /// Source samples of one axis, per tensor column (or row) of the content: pixel i0 with weight 256 - w1,
  /// pixel i1 with weight w1 (1/256 units). i1 = i0 + 1 except for a 1-pixel-wide source.
  struct Taps {
    std::vector<std::int32_t> i0, i1;
    std::vector<std::uint16_t> w1;
  };
  struct Impl;  ///< the row loops (preprocess.cpp)

  LetterboxGeometry geometry_;
  PreprocessConfig config_;
  bool avx2_ = false;
  bool box2_ = false;  ///< both axes are an exact 2:1 box (see the class comment)
  int x_begin_ = 0, x_end_ = 0, y_begin_ = 0, y_end_ = 0;  ///< content rectangle in the tensor
  Taps x_, y_;        ///< packed (and NV12 luma) columns and rows
  Taps uv_x_, uv_y_;  ///< NV12 chroma columns and rows
  std::vector<std::size_t> x_off_;  ///< byte offset of pixel i0 in a packed row (3 * i0)
  int x_word_end_ = 0;  ///< columns before this one may read 8 bytes at x_off_ (both pixels and 2 more)
  // Horizontal weights expanded per stored value: 3 per column (packed), 1 (luma), 2 (chroma U, V).
  std::vector<std::uint16_t> w0_rgb_, w1_rgb_, w0_y_, w1_y_, w0_uv_, w1_uv_;
  // f32 NHWC with a per-channel mapping: mul / 65536 and add per stored value.
  std::vector<float> mul_rgb_, add_rgb_;
  std::vector<std::uint8_t> pair0_, pair1_;  ///< gathered pixels i0 and i1 of one source row
  /// Two horizontally blended rows (value x 256) of 3 values per column, packed or luma, then room for one
  /// more (+1): the portable 2:1 box uses the first two as a row of sums and compacts it into the third.
  std::vector<std::uint16_t> hrows_;
  std::vector<std::uint16_t> huv_[2];  ///< horizontally blended chroma rows
  int hrow_src_[2] = {-1, -1};         ///< source row held by each half of hrows_ in this run (-1: none)
  int huv_src_[2] = {-1, -1};
  std::vector<float> line_;  ///< one NV12 output line, 3 channels in tensor order (0..255)
};

}  // namespace vg::detection
