#pragma once
/// @file
/// @brief What a target kernel's callbacks see: the node's parameters for the current frame, its
/// attributes, frame information and its instance context.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/data/views.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/kernel/call_table.hpp"
#include "visiongraph/memory/memory_block.hpp"

namespace vg {

namespace detail {
struct NodeState;
}

/// @brief Identity of the frame being processed.
struct FrameInfo {
  std::uint64_t sequence = 0;     ///< frame number, counted from 0 per graph
  std::int64_t timestamp_ns = 0;  ///< timestamp given at enqueue (steady clock by default)
  std::int64_t capture_ns = 0;    ///< capture time on the monotonic clock (vg::now_ns), 0 when unknown
};

/// @brief Per-node context handed to create, process, control and delete. Used by one callback of the
/// node's target at a time (the target's thread, or a caller that borrowed the idle target: see
/// ContextConfig::run_on_caller), so a kernel needs no locking for its own state.
/// @note Attribute getters look keys up by name: read them in create, not per frame.
class KernelContext {
 public:
  KernelContext(detail::NodeState& node, const detail::CallTable& calls) noexcept : node_(node), calls_(calls) {}
  KernelContext(const KernelContext&) = delete;
  KernelContext& operator=(const KernelContext&) = delete;

  std::string_view node_name() const noexcept;
  std::string_view kernel_name() const noexcept;
  std::string_view target_name() const noexcept;
  /// @brief Which instance this is of a node run over several targets (Graph::set_targets): 0 ..
  /// replica_count() - 1, in the order the targets were listed. 0 of 1 for an ordinary node. Each replica
  /// has its own create, state and target, e.g. its own NPU context on its own NPU core.
  std::uint32_t replica_index() const noexcept;
  std::uint32_t replica_count() const noexcept;

  std::size_t num_params() const noexcept;
  bool is_bound(std::size_t param) const noexcept {
    return param < calls_.num_params && calls_.bindings[param] != detail::CallTable::kUnbound;
  }
  const DataMeta& meta(std::size_t param) const noexcept;
  /// @brief Index of the parameter named @p name, or -1.
  int param_index(std::string_view name) const noexcept;

  ImageView image(std::size_t param) const noexcept { return {meta_ptr(param), current(param)}; }
  TensorView tensor(std::size_t param) const noexcept { return {meta_ptr(param), current(param)}; }
  ScalarView scalar(std::size_t param) const noexcept { return {meta_ptr(param), current(param)}; }
  template <class T>
  T& user_data(std::size_t param) const noexcept {
    return *reinterpret_cast<T*>(current(param)->plane[0]);
  }
  template <class T>
  ArrayView<T> array(std::size_t param) const noexcept {
    return {meta_ptr(param), current(param)};
  }

  /// @brief How many distinct buffers @p param will ever see (pipeline buffers or graph-parameter
  /// entries): lets create pre-bind every one of them (e.g. to an NPU runtime).
  std::size_t num_buffers(std::size_t param) const noexcept;
  const MemoryBlock& buffer_block(std::size_t param, std::size_t k) const noexcept;
  Buffer* buffer(std::size_t param, std::size_t k) const noexcept;
  /// @brief True when @p param is bound to device-only memory (Graph::set_device_only): its buffers have
  /// no CPU address, only a DMA-BUF fd or a device handle (block().handle).
  bool device_only(std::size_t param) const noexcept;
  /// @brief True when the current frame's buffer of @p param is memory the application imported
  /// (Graph::import_buffer) rather than one of the buffers create saw.
  bool imported(std::size_t param) const noexcept;
  /// @brief Which of those buffers is the current frame's (valid in process).
  std::size_t buffer_index(std::size_t param) const noexcept;

  const FrameInfo& frame() const noexcept;

  bool boolean(std::string_view key) const;
  std::int64_t integer(std::string_view key) const;
  double number(std::string_view key) const;
  const std::string& string(std::string_view key) const;
  const std::vector<double>& numbers(std::string_view key) const;
  bool has_attribute(std::string_view key) const noexcept;

  void set_instance(void* instance) noexcept;
  void* instance() const noexcept;
  template <class T>
  T* instance_as() const noexcept {
    return static_cast<T*>(instance());
  }

  /// @brief In create: take what this node's validate handed over (ValidateContext::hand_to_create),
  /// or null. Only the first call returns it.
  std::shared_ptr<void> take_from_validate() noexcept;
  template <class T>
  std::shared_ptr<T> take_from_validate_as() noexcept {
    return std::static_pointer_cast<T>(take_from_validate());
  }

  /// @brief In process, before returning Status::pending: call complete once @p fence_fd is readable
  /// (poll POLLIN; e.g. an NPU run's fence). The fd stays the kernel's: the framework never closes it
  /// and stops watching it before complete runs. Without this call, complete is queued on the target
  /// right away, behind the work already waiting there. If the node has a run deadline and the fd is
  /// not readable by then, complete runs anyway (and should report the timeout).
  void complete_after(int fence_fd) noexcept;

  /// @brief Explain a failure (copied into a fixed buffer; truncated; no allocation).
  void set_error(std::string_view message) noexcept;
  /// @brief The code an external runtime gave for this call's failure (e.g. librknnrt's RKNN_ERR_*),
  /// kept with the call's record and shown in Graph::frame_sample. Applies to the current call only.
  void report_code(std::int32_t code) noexcept;
  /// @brief Record that this frame's input could not be used as it is and went through one explicit
  /// conversion (a copy into staging memory, a format change). Shown per node in the stats and report:
  /// a copy is never silent.
  void count_conversion() noexcept;

 private:
  // Inline: kernels call these per frame (the graph keeps CallTable current).
  const DataMeta* meta_ptr(std::size_t param) const noexcept { return param < calls_.num_metas ? calls_.metas[param] : nullptr; }
  Buffer* current(std::size_t param) const noexcept { return calls_.buffers[calls_.current_slot * calls_.num_params + param]; }
  detail::NodeState& node_;
  const detail::CallTable& calls_;
};

}  // namespace vg
