#include "visiongraph/kernels/inference/npu_allocator.hpp"

#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::inference {

NpuAllocatorInstallation::NpuAllocatorInstallation(Context& context, std::string target,
                                                   std::unique_ptr<Allocator> allocator, std::string kind,
                                                   std::string reason) noexcept
    : context_(&context),
      target_(std::move(target)),
      allocator_(std::move(allocator)),
      kind_(std::move(kind)),
      reason_(std::move(reason)) {}

NpuAllocatorInstallation::~NpuAllocatorInstallation() {
  if (context_->target_allocator(target_) == allocator_.get()) context_->set_target_allocator(target_, nullptr);
}

std::unique_ptr<NpuAllocatorInstallation> install_npu_allocator(Context& context, std::string_view target) {
  if (context.find_target(target) == nullptr) {
    throw Error("install_npu_allocator: the context has no target '" + std::string(target) + "'");
  }
  npu::DmaBufAllocatorChoice choice = npu::make_dmabuf_allocator();
  context.set_target_allocator(target, choice.allocator.get());
  return std::make_unique<NpuAllocatorInstallation>(context, std::string(target), std::move(choice.allocator),
                                                    std::move(choice.kind), std::move(choice.reason));
}

}  // namespace vg::inference
