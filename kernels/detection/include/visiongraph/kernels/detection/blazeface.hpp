#pragma once
/// @file
/// @brief BlazeFace (MediaPipe face detection front/back, short-range) decoder.

#include <span>

#include "visiongraph/kernels/detection/decoder.hpp"
#include "visiongraph/kernels/detection/letterbox.hpp"

namespace vg::detection {

inline constexpr int kBlazeFaceAnchors = 896;    ///< 16x16x2 + 8x8x6
inline constexpr int kBlazeFaceCoords = 16;      ///< dx dy w h + 6 keypoints (x before y)
inline constexpr int kBlazeFaceKeypoints = 6;

/// @brief Anchor centre (normalized, w = h = 1) of BlazeFace anchor @p i in MediaPipe order.
Point blazeface_anchor(int i) noexcept;

/// @brief Decode BlazeFace outputs (4-tensor or 2-tensor form, float or quantized).
///
/// The score threshold is converted once into the logit (or quantized logit) domain, so the sigmoid runs only
/// for survivors. Boxes and keypoints follow MediaPipe TensorsToDetections with fixed anchor size 1 and
/// x/y/w/h scale = input size. Boxes with w<0, h<0 or NaN are dropped.
void decode_blazeface(std::span<const TensorRef> tensors, const DecodeParams& params,
                      CandidateBuffer& out) noexcept;

}  // namespace vg::detection
