#pragma once
/// @file
/// @brief Inference on the Rockchip NPU through librknnrt's zero-copy API.

#include <memory>

#include "visiongraph/kernels/inference/backend.hpp"

namespace vg::npu {
class RknnRuntime;
}

namespace vg::inference {

/// @brief librknnrt backend with every input buffer pre-bound.
///
/// load(): dlopen librknnrt, rknn_init, check the SDK version (struct layouts), query the in/out
/// counts and the normal and native attributes, create one runtime-owned memory per output and bind
/// it with rknn_set_io_mem. bind_inputs(): rknn_create_mem_from_fd for every input buffer (so a frame
/// never maps or imports anything), or one staging memory when a buffer has no fd or the model needs
/// a row stride; then warm-up. run(): select the pre-bound memory, rknn_set_io_mem, rknn_mem_sync to
/// the device (runtime >= 1.6.0), rknn_run with timeout_ms, sync from the device, convert native
/// NC1HWC2 to NCHW (and dequantize when asked) into the graph's tensors. Errors return
/// inference_error (timeout for RKNN_ERR_TIMEOUT) with the runtime code; the next frame runs normally.
/// Destruction frees every memory, then the context.
/// @note Not thread-safe: one context per worker, as librknnrt requires.
/// @code
/// vg::inference::RknnBackend be;
/// auto info = be.load("yolov8n.rknn", {});      // outputs: [1,64,80,80] i8 scale/zp, ...
/// be.bind_inputs(input_blocks);                // create_mem_from_fd per block
/// vg::Status s = be.run(k, output_ptrs);
/// @endcode
class RknnBackend final : public InferenceBackend {
 public:
  RknnBackend();
  ~RknnBackend() override;
  std::string_view name() const noexcept override { return "rknn"; }
  ModelInfo load(const std::string& model_path, const BackendOptions& options) override;
  void bind_inputs(std::span<const MemoryBlock> buffers) override;
  Status run(std::size_t input_index, std::span<void* const> outputs) noexcept override;
  Status run_unbound(const void* input, std::span<void* const> outputs) noexcept override;
  Status set_core_mask(int mask) noexcept override;
  std::int64_t last_run_time_us() const noexcept override;
  int last_runtime_code() const noexcept override;

  /// @brief The loaded runtime (for reports and tests); null before load().
  const npu::RknnRuntime* runtime() const noexcept;
  /// @brief How many input buffers are bound zero-copy by fd (the rest go through the staging memory).
  std::size_t zero_copy_inputs() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::inference
