#pragma once
// Where the nodes the application left on "any" run. A vx graph's independent branches can only run at
// the same time on different targets, and two graphs scheduled together only overlap if they are not on
// the same one; visiongraph's default would put every such node on cpu0.
#include <VX/vx.h>

#include <cstddef>
#include <string>
#include <vector>

namespace vg::openvx {

/// Nodes below this many pixels (their largest image) are not worth a hop between targets.
inline constexpr std::size_t kPlacementMinPixels = std::size_t{1} << 16;

/// The target of each of @p graph's nodes (by index; "" leaves the default target): for a graph with at
/// least one node of kPlacementMinPixels or more, the "any" nodes, in topological order (@p after: each
/// node's predecessors), continue their first unclaimed predecessor's target, so a chain stays on one
/// target; a node that starts a branch (no predecessor, or a predecessor whose target another successor
/// continues) goes to the cpu target with the least work so far (pixels), the first one tried rotating
/// from graph to graph of the context. Not for pipelined graphs (their depth follows the targets used).
/// VG_OPENVX_PLACEMENT=0 in the environment at vxVerifyGraph leaves every node on the default target.
std::vector<std::string> place_any_nodes(vx_graph graph, const std::vector<std::vector<std::size_t>>& after);

}  // namespace vg::openvx
