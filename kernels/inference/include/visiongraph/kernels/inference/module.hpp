#pragma once
/// @file
/// @brief The vg.inference kernel: runs a model (OpenCV DNN or Rockchip NPU) on one input tensor.

#include <cstdint>

#include "visiongraph/kernel/module.hpp"

namespace vg::inference {

/// @brief Parameter indices of vg.inference: input, then out0..out8, then input1..input3 (appended after the
///        outputs so earlier graphs keep their indices).
inline constexpr std::size_t kInputParam = 0;
inline constexpr std::size_t kFirstOutputParam = 1;
inline constexpr std::size_t kMaxOutputs = 9;
inline constexpr std::size_t kFirstExtraInputParam = kFirstOutputParam + kMaxOutputs;  ///< "input1" (index 10)
inline constexpr std::size_t kMaxExtraInputs = 3;                                      ///< input1..input3

/// @brief Command ids of vg.inference.
inline constexpr std::uint32_t kCmdSetCoreMask = 1;  ///< payload: integer (std::int64_t) rknn_core_mask
inline constexpr std::uint32_t kCmdGetRunTime = 2;   ///< no payload; reply text "last_run_us=<n> backend=<b>"

/// @brief Module "vg.inference" with kernel "vg.inference", implemented on target kind "npu".
///
/// Parameters: input tensor "input" (required); output tensors "out0" (required) .. "out8"; exactly as
/// many outputs must be bound as the model has; input tensors "input1".."input3" (optional) for models with
/// more inputs, exactly as many as the model has, in the model's input order. Attributes: model (string, required), backend
/// ("auto": *.rknn -> rknn, else opencv; "opencv"; "rknn"), runtime_path (librknnrt; default
/// VG_RKNNRT_PATH or librknnrt.so), dequantize (false), warmup (1), core_mask (0 = auto),
/// timeout_ms (1000), require_zero_copy (false: a graph input buffer the rknn backend cannot bind
/// zero-copy is an error at create instead of a counted copy per frame), max_imported_buffers (8, 0..64: distinct imported DMA-BUFs the rknn backend binds
/// once and keeps; frames it must copy instead are counted as conversions). Output metadata (shape,
/// type, layout, quantisation) is read from the model at verify, so a graph that disagrees with its
/// model fails verify, naming the node. The input may be device-only memory (Graph::set_device_only)
/// with the rknn backend.
/// @code
/// vg::Context ctx;
/// ctx.load_module(vg::inference::make_inference_module());
/// vg::Graph g(ctx);
/// auto in = g.add_data("in", vg::DataMeta::tensor_of({1, 128, 128, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc));
/// auto node = g.add_node("face", "vg.inference");
/// g.set_attribute(node, "model", std::string("face_detection_front_128x128_barracuda.onnx"));
/// g.bind(node, "input", in);
/// for (int i = 0; i < 4; ++i) g.bind(node, "out" + std::to_string(i), g.add_virtual("o" + std::to_string(i), vg::DataKind::tensor));
/// g.verify();
/// @endcode
Module make_inference_module();

}  // namespace vg::inference
