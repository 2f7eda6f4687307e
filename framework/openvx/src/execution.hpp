#pragma once
// Running a verified graph: vxVerifyGraph compiles the vx graph into a visiongraph graph (one node per vx
// node, on the node's target; one token per data object, so the data flow orders the nodes), and each
// visiongraph node calls its vx kernel through a trampoline with the vx objects themselves.
#include "object.hpp"

namespace vg::openvx {

/// Builds and verifies @p graph's visiongraph graph (kernel initializers run, on the nodes' targets).
/// The checks of vxVerifyGraph have passed. Logs and returns an error when visiongraph refuses it.
vx_status compile_graph(vx_graph graph) noexcept;

/// Releases @p graph's visiongraph graph, if any (kernel deinitializers run): before any of its nodes go.
void release_compiled_graph(vx_graph graph) noexcept;

}  // namespace vg::openvx
