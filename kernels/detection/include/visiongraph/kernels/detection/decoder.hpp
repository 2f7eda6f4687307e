#pragma once
/// @file
/// @brief Decoder selection, parameters, layout checks and scratch shared by all decoders.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "visiongraph/kernels/detection/candidate.hpp"
#include "visiongraph/kernels/detection/class_filter.hpp"
#include "visiongraph/kernels/detection/tensor_ref.hpp"

namespace vg::detection {

/// @brief Supported output layouts.
/// - blazeface: 4 tensors [1,512,1] [1,384,1] [1,512,16] [1,384,16] (keijiro/MediaPipe order) or
///   2 tensors [1,896,1] [1,896,16]; 128 or 256 input.
/// - yolov5: 3 activated NCHW heads [1,3*(5+C),H,W] (Rockchip model zoo), or one [1,N,5+C] (ONNX export).
/// - yolov8: 6 or 9 NCHW tensors per branch {box [1,4*R,H,W], cls [1,C,H,W], (score_sum [1,1,H,W])}
///   (Rockchip model zoo, DFL boxes), or one [1,4+C,N] (ONNX export; YOLO11 is identical).
enum class DecoderKind : std::uint8_t { blazeface, yolov5, yolov8 };

/// @brief Parse "blazeface" | "yolov5" | "yolov8" (also "yolo11"). False on an unknown name.
bool parse_decoder(std::string_view text, DecoderKind& out) noexcept;
std::string_view to_string(DecoderKind kind) noexcept;

/// @brief Per-frame decode parameters (cheap to copy; change between frames freely).
struct DecodeParams {
  float score_threshold = 0.5f;  ///< keep if score >= threshold (applied before anything else)
  int input_w = 0;               ///< model input width in pixels
  int input_h = 0;               ///< model input height in pixels
  ClassFilter class_filter{};    ///< classes to report
  /// YOLOv5 anchors (w,h pairs in pixels) for strides 8, 16, 32 (heads are matched by stride).
  float yolov5_anchors[3][6] = {{10, 13, 16, 30, 33, 23}, {30, 61, 62, 45, 59, 119}, {116, 90, 156, 198, 373, 326}};
};

/// @brief Result of a layout check: which tensor is wrong and why.
struct LayoutCheck {
  bool ok = true;
  int tensor = -1;           ///< index of the offending tensor, or -1 for the tensor count
  char message[192] = {};    ///< human-readable reason (empty when ok)
};

/// @brief Check that @p tensors match the layouts @p kind accepts (count, ranks, shapes, consistent with the
///        input size). Does not allocate; call it from validate/create.
LayoutCheck check_layout(DecoderKind kind, std::span<const TensorRef> tensors, int input_w,
                         int input_h) noexcept;

/// @brief Working memory of the decoders, sized once from the tensor shapes.
/// @code
/// vg::detection::DecodeScratch scratch(kind, tensors);   // create time; allocates
/// @endcode
struct DecodeScratch {
  DecodeScratch() = default;
  DecodeScratch(DecoderKind kind, std::span<const TensorRef> tensors);
  std::vector<float> best_real;        ///< per-cell best class score (float path)
  std::vector<std::int16_t> best_q;    ///< per-cell best class score (quantized path)
};

/// @brief Decode all candidates scoring >= params.score_threshold into @p out (network pixels).
/// @pre check_layout(kind, tensors, ...) passed, and @p scratch was built for the same shapes.
void decode(DecoderKind kind, std::span<const TensorRef> tensors, const DecodeParams& params,
            DecodeScratch& scratch, CandidateBuffer& out) noexcept;

}  // namespace vg::detection
