#pragma once
/// @file
/// @brief Inference on the Rockchip NPU through librknnrt's zero-copy API.

#include <memory>

#include "visiongraph/kernels/inference/backend.hpp"

namespace vg::npu {
class RknnRuntime;
}

namespace vg::inference {

/// @brief What happened to imported inputs (run_imported) since bind_inputs.
struct ImportCounters {
  std::uint64_t binds = 0;           ///< rknn_create_mem_from_fd for imported DMA-BUFs (first sight and rebinds)
  std::uint64_t rebinds = 0;         ///< of those: a stale entry (its fd now another DMA-BUF) destroyed and rebound
  std::uint64_t hits = 0;            ///< frames that only selected an already bound DMA-BUF
  std::uint64_t staging_copies = 0;  ///< frames copied into the staging memory (host memory, cache full, strided model)
  std::size_t cached = 0;            ///< imported DMA-BUFs bound now
  std::size_t capacity = 0;          ///< BackendOptions::max_imported_buffers
};

/// @brief librknnrt backend with every input buffer pre-bound.
///
/// load(): dlopen librknnrt, rknn_init, check the SDK version (struct layouts), query the in/out
/// counts and the normal and native attributes, create one runtime-owned memory per output and bind
/// it with rknn_set_io_mem. bind_inputs(): rknn_create_mem_from_fd for every input buffer (so a frame
/// never maps or imports anything), or one staging memory when a buffer has no fd or the model needs
/// a row stride; then warm-up. run(): select the pre-bound memory, rknn_set_io_mem, rknn_mem_sync to
/// the device (runtime >= 1.6.0), rknn_run with timeout_ms, sync from the device, convert native
/// NC1HWC2 to NCHW (and dequantize when asked) into the graph's tensors. run_imported(): DMA-BUFs the
/// application imports later (a camera's or decoder's pool) are bound with rknn_create_mem_from_fd at
/// first sight into a cache of max_imported_buffers entries allocated at bind_inputs, keyed by the
/// DMA-BUF's identity (fstat st_dev/st_ino of the fd, because fd numbers are reused after close) plus
/// fd_offset and size, and kept until destruction; later frames only select them. A stale entry (its fd
/// number now names another DMA-BUF) is rebound; with every entry live the frame is copied into the
/// staging memory (reported through `converted`, as is imported host memory). Errors return
/// inference_error (timeout for RKNN_ERR_TIMEOUT) with the runtime code; the next frame runs normally.
/// After a timeout (or RKNN_ERR_CTX_INVALID) the context is rebuilt before the next frame (recoveries()).
/// With BackendOptions::async the context is initialised with RKNN_FLAG_FENCE_OUT_OUTSIDE; run() and
/// run_imported() bind the input as above, submit rknn_run with non_block = 1 and return Status::pending
/// (pending_fence(): the run's fence fd); finish() calls rknn_wait (timeout_ms) with that fence, then syncs
/// and converts the outputs as a blocking run does, and closes the fence. load() refuses async on
/// librknnrt 2.3.2 and later, where that flag makes rknn_run fail (rknn-toolkit2#577). A wait that times out rebuilds the context
/// like a blocking timeout. Destruction with a run in flight waits for it (timeout_ms) first.
/// Models with up to 4 inputs: inputs 1..3 are bound with bind_extra_inputs and chosen per frame with
/// select_extra_input. load() checks the runtime and driver versions against what the node uses and
/// turns rknn_init's model errors into messages with the versions found and what is needed.
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
  /// @brief A replica of @p source's model: rknn_dup_context on @p source's context (the vendor's way to
  ///        run one model on several contexts with its weights loaded once), its own memories and core
  ///        mask, the model file's bytes shared instead of read again. Falls back to rknn_init on the
  ///        shared bytes when the runtime does not export rknn_dup_context or @p source is not rknn.
  ModelInfo load_replica(InferenceBackend& source, const std::string& model_path,
                         const BackendOptions& options) override;
  /// @brief True when the context was made by rknn_dup_context from another backend's (load_replica).
  bool shares_weights() const noexcept;
  void bind_inputs(std::span<const MemoryBlock> buffers) override;
  Status run(std::size_t input_index, std::span<void* const> outputs) noexcept override;
  bool copies_bound_input(std::size_t input_index) const noexcept override;
  Status run_imported(const MemoryBlock& input, std::span<void* const> outputs, bool& converted) noexcept override;
  std::string_view last_failure() const noexcept override;
  void bind_extra_inputs(std::size_t input, std::span<const MemoryBlock> buffers) override;
  Status select_extra_input(std::size_t input, std::size_t bound_index, const MemoryBlock& block,
                            bool& converted) noexcept override;
  /// @brief Contexts rebuilt after a timeout (or a context the runtime reported invalid): destroy and
  ///        re-init with the same model and core mask, every memory bound again, before the next frame.
  std::uint64_t recoveries() const noexcept override;
  Status set_core_mask(int mask) noexcept override;
  std::int64_t last_run_time_us() const noexcept override;
  int last_runtime_code() const noexcept override;
  int pending_fence() const noexcept override;
  Status finish(std::span<void* const> outputs) noexcept override;

  /// @brief The loaded runtime (for reports and tests); null before load().
  const npu::RknnRuntime* runtime() const noexcept;
  /// @brief How many input buffers are bound zero-copy by fd (the rest go through the staging memory).
  std::size_t zero_copy_inputs() const noexcept;
  /// @brief Binds, cache hits and staging copies of imported inputs (for reports and tests).
  const ImportCounters& import_counters() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::inference
