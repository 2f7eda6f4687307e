#pragma once
// Kernel modules: shared libraries exporting vxPublishKernels (and vxUnpublishKernels), loaded by
// vxLoadKernels. A module name is resolved as the dynamic loader does for "lib<name>.so" unless it is a
// path or already ends in ".so" (docs/openvx.md).
#include "object.hpp"

namespace vg::openvx {

/// Unpublishes and unloads every module of @p context (the context is released).
void unload_all_modules(vx_context context) noexcept;

}  // namespace vg::openvx
