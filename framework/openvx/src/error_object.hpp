#pragma once
// Error objects: what a creator returns when it fails (vxGetStatus reads the status back).
#include <VX/vx.h>

namespace vg::openvx {

/// The error object for @p status of the context that owns @p owner (a context, graph, node, delay or any
/// other reference). Null when @p owner is not a valid reference, as the specification allows.
vx_reference error_object(vx_reference owner, vx_status status) noexcept;

}  // namespace vg::openvx
