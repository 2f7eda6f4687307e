#pragma once
/// @file
/// @brief YOLOv8 / YOLO11 decoder (Rockchip 6/9-output DFL layout and single ONNX layout).

#include <span>

#include "visiongraph/kernels/detection/decoder.hpp"

namespace vg::detection {

/// @brief Decode YOLOv8/YOLO11 outputs, float or quantized.
///
/// Rockchip layout: per branch box [1,4*R,H,W] (DFL, R = 16 bins), cls [1,C,H,W], optional score_sum
/// [1,1,H,W]. Cells whose score_sum is below the threshold are skipped; class maxima are computed
/// plane by plane into scratch (contiguous, vectorizable), and DFL softmax runs for survivors only.
/// ONNX layout [1,4+C,N]: rows cx, cy, w, h (pixels) then C class scores.
void decode_yolov8(std::span<const TensorRef> tensors, const DecodeParams& params, DecodeScratch& scratch,
                   CandidateBuffer& out) noexcept;

}  // namespace vg::detection
