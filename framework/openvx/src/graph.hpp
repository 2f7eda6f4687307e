#pragma once
// Graphs and nodes. A node holds its kernel and the references set on its parameters; a graph holds its
// nodes, so the application may release a node handle right after creating it.
#include <memory>
#include <string>
#include <vector>

#include "object.hpp"

namespace vg {
class Graph;
}

struct _vx_node final : _vx_reference {
  _vx_node(vx_context owner, vx_graph graph_, vx_kernel kernel_) noexcept;
  ~_vx_node() override;

  vx_graph graph;                        // not held: the graph holds the node
  vx_kernel kernel;                      // held internally
  std::vector<vx_reference> arguments;   // one per kernel parameter, held internally; null when unset
  vx_status status = VX_SUCCESS;
  vx_perf_t performance{};
  vx_border_t border{};
  bool abandoned = false;  // its callback answered VX_ACTION_ABANDON in the latest run
  vx_size local_data_size = 0;
  void* local_data = nullptr;
  bool local_data_set_by_user = false;
  vx_nodecomplete_f callback = nullptr;
  bool valid_rect_reset = false;
  std::string target = "any";

  /// Sets @p value (may be null) on parameter @p index, holding the new and dropping the old reference.
  void set_argument(vx_uint32 index, vx_reference value) noexcept;
};

namespace vg::openvx {

struct GraphParameter {
  vx_node node;  // not held: the graph holds its nodes
  vx_uint32 index;
};

}  // namespace vg::openvx

struct _vx_graph final : _vx_reference {
  explicit _vx_graph(vx_context owner) noexcept;
  ~_vx_graph() override;

  std::vector<vx_node> nodes;  // held internally, creation order
  std::vector<vg::openvx::GraphParameter> parameters;
  vx_enum state = VX_GRAPH_STATE_UNVERIFIED;
  bool verified = false;
  bool scheduled = false;  // vxScheduleGraph ran, vxWaitGraph not yet
  vx_perf_t performance{};
  std::unique_ptr<vg::Graph> compiled;  // built by vxVerifyGraph (execution.hpp)

  /// Any change to the graph or to a node's parameters: verification is needed again, and the compiled
  /// graph goes now (its deinitializers run), since it may use a node that is about to go.
  void changed() noexcept;
};
