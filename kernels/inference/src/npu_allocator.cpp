#include "visiongraph/kernels/inference/npu_allocator.hpp"

#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::inference {

NpuAllocatorInstallation::NpuAllocatorInstallation(Context& context, std::vector<std::string> targets,
                                                   std::unique_ptr<Allocator> allocator, std::string kind,
                                                   std::string reason) noexcept
    : context_(&context),
      targets_(std::move(targets)),
      allocator_(std::move(allocator)),
      kind_(std::move(kind)),
      reason_(std::move(reason)) {}

NpuAllocatorInstallation::~NpuAllocatorInstallation() {
  for (const std::string& target : targets_)
    if (context_->target_allocator(target) == allocator_.get()) context_->set_target_allocator(target, nullptr);
}

namespace {

std::unique_ptr<NpuAllocatorInstallation> install_on(Context& context, std::vector<std::string> targets) {
  npu::DmaBufAllocatorChoice choice = npu::make_dmabuf_allocator();
  for (const std::string& target : targets) context.set_target_allocator(target, choice.allocator.get());
  return std::make_unique<NpuAllocatorInstallation>(context, std::move(targets), std::move(choice.allocator),
                                                    std::move(choice.kind), std::move(choice.reason));
}

}  // namespace

std::unique_ptr<NpuAllocatorInstallation> install_npu_allocator(Context& context) {
  std::vector<std::string> npu_targets = context.target_names("npu");
  if (npu_targets.empty()) {
    std::string all;
    for (const std::string& name : context.target_names()) all += (all.empty() ? "" : ", ") + name;
    throw Error("install_npu_allocator: the context has no NPU target (kind \"npu\"); its targets: " + all);
  }
  return install_on(context, std::move(npu_targets));
}

std::unique_ptr<NpuAllocatorInstallation> install_npu_allocator(Context& context, std::string_view target) {
  if (context.find_target(target) == nullptr) {
    throw Error("install_npu_allocator: the context has no target '" + std::string(target) + "'");
  }
  return install_on(context, {std::string(target)});
}

}  // namespace vg::inference
