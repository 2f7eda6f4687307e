#pragma once
/// @file
/// @brief The interface every inference backend (OpenCV DNN, Rockchip librknnrt) implements.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/core/status.hpp"
#include "visiongraph/memory/memory_block.hpp"

namespace vg::inference {

/// @brief Element type of a model tensor as the graph sees it.
enum class ElementKind : std::uint8_t { f32, f16, i8, u8, i16, u16, i32, u32, i64, boolean };

/// @brief Memory layout of a model tensor as the graph sees it.
enum class Layout : std::uint8_t { unspecified, nchw, nhwc, nc1hwc2 };

/// @brief Bytes per element of @p kind.
std::size_t element_size(ElementKind kind) noexcept;
std::string_view to_string(ElementKind kind) noexcept;
std::string_view to_string(Layout layout) noexcept;

/// @brief Shape, type, layout and quantisation of one model input or output.
struct TensorDesc {
  std::string name;
  std::vector<std::int64_t> dims;
  ElementKind type = ElementKind::f32;
  Layout layout = Layout::unspecified;
  bool quantized = false;  ///< affine: real = (q - zero_point) * scale
  float scale = 1.0f;
  std::int32_t zero_point = 0;

  std::size_t element_count() const noexcept;
  std::size_t byte_size() const noexcept { return element_count() * element_size(type); }
  /// @brief "[1,512,16] f32 unspecified" for messages.
  std::string to_text() const;
};

/// @brief What load() reports about the model.
struct ModelInfo {
  std::vector<TensorDesc> inputs;   ///< the model's inputs in order (index 0 is "input", then input1..input3)
  std::vector<TensorDesc> outputs;  ///< in model order: out0, out1, ...
  std::string detail;               ///< e.g. "librknnrt 1.6.0, driver 0.9.6, zero-copy input"
};

/// @brief Options passed to load(); mirror the node attributes of vg.inference.
struct BackendOptions {
  std::string runtime_path;  ///< rknn: librknnrt path ("" = VG_RKNNRT_PATH or librknnrt.so)
  bool dequantize = false;   ///< rknn: deliver f32 outputs instead of int8 + scale/zero point
  int warmup = 1;            ///< runs done at create, before the first frame
  int core_mask = 0;         ///< rknn: rknn_core_mask (0 = auto)
  int timeout_ms = 1000;     ///< rknn: rknn_run_extend.timeout_ms (0 = runtime default)
  /// rknn: how many distinct imported DMA-BUFs stay bound (0..64); the cache is allocated at create.
  int max_imported_buffers = 8;
  /// The input tensor the graph will pass. OpenCV needs its shape (ONNX inputs are not queryable in
  /// OpenCV 4.6); rknn checks it against the model. Empty dims = take the model's.
  TensorDesc input;
  /// Model inputs 1..n-1 as the graph binds them (input1..input3), in order; empty dims = take the model's.
  std::vector<TensorDesc> extra_inputs;
  /// rknn: a graph input buffer that cannot be bound zero-copy (no fd, padded model rows, smaller than the
  /// runtime's size_with_stride) is an error at create instead of a copy per frame.
  bool require_zero_copy = false;
  /// rknn: run()/run_imported() start a non-blocking run (context initialised with
  /// RKNN_FLAG_FENCE_OUT_OUTSIDE) and return Status::pending; finish() collects it.
  bool async = false;
};

/// @brief One inference engine behind the vg.inference kernel.
///
/// Lifecycle: load() and bind_inputs() at create (may throw vg::Error, may allocate); run(),
/// run_imported(), set_core_mask() and last_run_time_us() afterwards (noexcept; the rknn backend does
/// not allocate).
/// @note Not thread-safe: one node's worker drives it.
/// @code
/// auto be = vg::inference::make_backend("auto", "face.onnx");
/// vg::inference::BackendOptions opt; opt.input.dims = {1, 128, 128, 3}; opt.input.layout = Layout::nhwc;
/// vg::inference::ModelInfo info = be->load("face.onnx", opt);
/// be->bind_inputs(blocks);                  // every buffer the input will ever be
/// vg::Status s = be->run(0, output_ptrs);   // outputs sized per info.outputs[i].byte_size()
/// bool copied = false;                       // memory the application imported later:
/// s = be->run_imported(camera_block, output_ptrs, copied);
/// @endcode
class InferenceBackend {
 public:
  virtual ~InferenceBackend() = default;
  /// @brief "opencv" or "rknn".
  virtual std::string_view name() const noexcept = 0;
  /// @brief Loads the model and prepares outputs. Throws vg::Error naming the model and what is wrong.
  virtual ModelInfo load(const std::string& model_path, const BackendOptions& options) = 0;
  /// @brief Loads the model that @p source (same backend kind, already loaded) holds, sharing what the
  ///        runtime can share: one replica per target, one model load. @p source must outlive this
  ///        backend; several replicas may call this on one source concurrently. Default: load().
  virtual ModelInfo load_replica(InferenceBackend& /*source*/, const std::string& model_path,
                                 const BackendOptions& options) {
    return load(model_path, options);
  }
  /// @brief Registers every input buffer in advance (pre-binding) and warms up. Throws vg::Error.
  virtual void bind_inputs(std::span<const MemoryBlock> buffers) = 0;
  /// @brief Runs on bound buffer @p input_index and writes each output to @p outputs[i]
  ///        (info.outputs[i].byte_size() bytes). inference_error/timeout leave the backend usable.
  virtual Status run(std::size_t input_index, std::span<void* const> outputs) noexcept = 0;
  /// @brief True when run(@p input_index) copies the bound buffer into runtime memory first (rknn with
  ///        a host-memory buffer): the caller counts that copy as a conversion.
  virtual bool copies_bound_input(std::size_t /*input_index*/) const noexcept { return false; }
  /// @brief Runs on memory the application imported after create (Graph::import_handle/import_buffer).
  ///
  /// @p input: data = the tensor's first byte (null for device-only memory); dmabuf_fd/fd_offset locate
  /// that byte in a DMA-BUF when fd-backed. rknn binds each distinct DMA-BUF once and afterwards only
  /// selects it; what it cannot bind (host memory, cache full, row-strided model input) is copied into
  /// its staging memory and @p converted is set, so the caller can count the copy. OpenCV wraps
  /// input.data without copying. Memory without a CPU address that cannot be bound fails with
  /// not_supported; last_failure() says why.
  virtual Status run_imported(const MemoryBlock& input, std::span<void* const> outputs, bool& converted) noexcept = 0;
  /// @brief Why the last run or run_imported failed beyond the runtime code ("" otherwise): imported memory
  ///        that cannot be used, a context recovery that failed.
  virtual std::string_view last_failure() const noexcept = 0;
  /// @brief Model input @p input (1..n-1): every buffer it will ever be, bound at create before
  ///        bind_inputs (which warms up). Throws vg::Error naming the input and the buffer.
  virtual void bind_extra_inputs(std::size_t input, std::span<const MemoryBlock> buffers) = 0;
  /// @brief Per frame, before run()/run_imported(): model input @p input (1..n-1) reads bound buffer
  ///        @p bound_index, or, when that is not a bound buffer (SIZE_MAX), the memory @p block (copied into
  ///        runtime memory by rknn: @p converted is set). not_supported for memory without a CPU address.
  virtual Status select_extra_input(std::size_t input, std::size_t bound_index, const MemoryBlock& block,
                                    bool& converted) noexcept = 0;
  /// @brief Runtime contexts rebuilt after a run left them unusable (rknn: timeout); 0 elsewhere.
  virtual std::uint64_t recoveries() const noexcept { return 0; }
  /// @brief Restricts the NPU cores (rknn_core_mask). not_supported on backends without cores.
  virtual Status set_core_mask(int mask) noexcept = 0;
  /// @brief Duration of the last run in microseconds (runtime-reported when available, else wall clock).
  virtual std::int64_t last_run_time_us() const noexcept = 0;
  /// @brief Code returned by the underlying runtime in the last failing call (0 when none).
  virtual int last_runtime_code() const noexcept = 0;
  /// @brief Asynchronous runs (BackendOptions::async): after run()/run_imported() returned
  ///        Status::pending, an fd that becomes readable (POLLIN) when the run has finished; -1 when the
  ///        runtime gave none (finish() then blocks until the run ends). The backend owns it.
  virtual int pending_fence() const noexcept { return -1; }
  /// @brief Completes the run that returned Status::pending: waits for it (bounded by timeout_ms),
  ///        reads the outputs into @p outputs exactly as a blocking run does, releases the fence, and
  ///        returns the run's status (invalid_argument when no run is pending). Allocation-free.
  virtual Status finish(std::span<void* const> outputs) noexcept {
    (void)outputs;
    return Status::invalid_argument;
  }
};

/// @brief "rknn" for *.rknn models, else "opencv", when @p kind is "auto"; @p kind otherwise.
///        Throws vg::Error for an unknown kind.
std::string resolve_backend_kind(std::string_view kind, std::string_view model_path);

/// @brief A fresh, unloaded backend of the resolved kind.
std::unique_ptr<InferenceBackend> make_backend(std::string_view kind, std::string_view model_path);

}  // namespace vg::inference
