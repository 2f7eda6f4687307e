#pragma once
/// @file
/// @brief YOLOv5 decoder (Rockchip 3-head layout and single ONNX layout).

#include <span>

#include "visiongraph/kernels/detection/decoder.hpp"

namespace vg::detection {

/// @brief Decode YOLOv5 outputs, float or quantized.
///
/// 3 heads [1,3*(5+C),H,W] (already activated): objectness is gated first in its own domain (quantized
/// compare for int8/uint8), then the best allowed class is found for survivors only and
/// score = obj * cls is thresholded. Box: x = (2v - 0.5 + j) * stride, w = (2v)^2 * anchor_w.
/// Single [1,N,5+C]: rows hold decoded cx, cy, w, h (pixels), obj, class probabilities.
void decode_yolov5(std::span<const TensorRef> tensors, const DecodeParams& params,
                   CandidateBuffer& out) noexcept;

}  // namespace vg::detection
