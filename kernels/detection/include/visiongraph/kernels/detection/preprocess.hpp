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
};

/// @brief Bilinear letterbox resampler with its lookup tables built once.
///
/// Own loops instead of cv::resize/cv::warpAffine: those allocate internal buffers (AutoBuffer beyond a few
/// hundred elements, parallel_for_ bookkeeping) on every call. The resampler is separable and fixed-point
/// (8-bit weights, like OpenCV's INTER_LINEAR for u8): per output row the two source rows are blended
/// vertically into a preallocated u16 row (contiguous, vectorized), then sampled horizontally with channel
/// order / NV12 conversion, and mapped + stored in the tensor's layout.
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

 private:
  struct Tap {
    std::int32_t i0;  ///< first source column/row
    std::int32_t i1;  ///< second source column/row (edge-clamped)
    std::int32_t w1;  ///< weight of i1 in 1/256 (0..256); i0 gets 256 - w1
  };
  LetterboxGeometry geometry_;
  PreprocessConfig config_;
  int x_begin_ = 0, x_end_ = 0, y_begin_ = 0, y_end_ = 0;  ///< content rectangle in the tensor
  std::vector<Tap> xtaps_;  ///< per tensor column in [x_begin_, x_end_)
  std::vector<Tap> ytaps_;  ///< per tensor row in [y_begin_, y_end_)
  std::vector<Tap> uv_xtaps_;  ///< NV12 chroma columns
  std::vector<Tap> uv_ytaps_;  ///< NV12 chroma rows
  std::vector<std::uint16_t> vrow_;  ///< vertically blended source row x256 (src_w x 3, or NV12 luma src_w)
  std::vector<std::uint16_t> vuv_;   ///< vertically blended NV12 chroma row x256 (U, V interleaved)
  std::vector<float> line_;          ///< one output line of content, 3 channels in tensor order
};

}  // namespace vg::detection
