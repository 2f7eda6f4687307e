#pragma once
/// @file
/// @brief Installs the best DMA-BUF allocator of this machine as an NPU target's allocator.
/// Part of vg_kernels_inference only when the NPU layer is built (VG_BUILD_NPU=ON).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/memory/allocator.hpp"

namespace vg {
class Context;
}

namespace vg::inference {

/// @brief The installed allocator. Keep it alive longer than every graph verified on the context;
///        the destructor uninstalls it.
class NpuAllocatorInstallation {
 public:
  NpuAllocatorInstallation(Context& context, std::vector<std::string> targets, std::unique_ptr<Allocator> allocator,
                           std::string kind, std::string reason) noexcept;
  ~NpuAllocatorInstallation();
  NpuAllocatorInstallation(const NpuAllocatorInstallation&) = delete;
  NpuAllocatorInstallation& operator=(const NpuAllocatorInstallation&) = delete;

  Allocator& allocator() const noexcept { return *allocator_; }
  const std::string& kind() const noexcept { return kind_; }      ///< "rknpu", "dma_heap:system", "memfd"
  const std::string& reason() const noexcept { return reason_; }  ///< why better options were skipped
  /// The targets it is installed on (every NPU target, or the one named).
  const std::vector<std::string>& targets() const noexcept { return targets_; }

 private:
  Context* context_;
  std::vector<std::string> targets_;
  std::unique_ptr<Allocator> allocator_;
  std::string kind_;
  std::string reason_;
};

/// @brief make_dmabuf_allocator() (rknpu GEM, else DMA heap, else memfd) installed with
///        Context::set_target_allocator() on every NPU target of the context (kind "npu": npu0, npu1,
///        ...). Objects touched by nodes on those targets are then fd-backed, so the rknn backend binds
///        them zero-copy on any core and any replica. One allocator serves them all: a DMA-BUF is not
///        tied to a core, and a replica's buffers may be bound by any of its contexts.
/// @throws vg::Error when the context has no NPU target.
/// @code
/// vg::Context ctx;
/// auto npu_memory = vg::inference::install_npu_allocator(ctx);   // before building graphs
/// std::cout << "NPU memory: " << npu_memory->kind() << '\n';
/// @endcode
std::unique_ptr<NpuAllocatorInstallation> install_npu_allocator(Context& context);

/// @brief The same on one named target only.
std::unique_ptr<NpuAllocatorInstallation> install_npu_allocator(Context& context, std::string_view target);

}  // namespace vg::inference
