#pragma once
// Graphs and nodes. A node holds its kernel and the references set on its parameters; a graph holds its
// nodes, so the application may release a node handle right after creating it.
#include <VX/vx_khr_pipelining.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fusion.hpp"
#include "object.hpp"

namespace vg {
class Graph;
}
namespace vg::openvx {
class GraphExecutor;

/// An event asked for with vxRegisterEvent, and the value it carries.
struct EventRegistration {
  bool registered = false;
  vx_uint32 app_value = 0;
};
}  // namespace vg::openvx

struct _vx_node final : _vx_reference {
  _vx_node(vx_context owner, vx_graph graph_, vx_kernel kernel_) noexcept;
  ~_vx_node() override;

  vx_graph graph;                        // not held: the graph holds the node
  vx_kernel kernel;                      // held internally
  std::vector<vx_reference> arguments;   // one per kernel parameter, held internally; null when unset
  // Written by the node's target thread, read by whoever finishes a frame (frames overlap when pipelined);
  // relaxed: the frame's completion orders the write before the read.
  std::atomic<vx_status> status{VX_SUCCESS};
  vx_perf_t performance{};
  vx_border_t border{};
  std::atomic<bool> abandoned{false};  // its callback answered VX_ACTION_ABANDON in the latest run
  vx_size local_data_size = 0;
  void* local_data = nullptr;
  bool local_data_set_by_user = false;
  vx_nodecomplete_f callback = nullptr;
  bool valid_rect_reset = false;
  std::string target = "any";
  vg::openvx::EventRegistration completed_event;  // VX_EVENT_NODE_COMPLETED
  vg::openvx::EventRegistration error_event;      // VX_EVENT_NODE_ERROR
  // vxReplicateNode: which parameters take item i of their object array or pyramid in replica i (empty
  // when the node is not replicated); the replicas themselves are internal nodes made when the graph is
  // compiled, each with its own arguments, local data and status, gone with the compiled graph.
  std::vector<vx_bool> replicated;
  std::vector<vx_node> replicas;  // held internally
  vx_node replica_of = nullptr;   // a replica: the node it replicates (not held)
  // A pipelined graph (pipelining.hpp): the arguments each frame slot runs with, the slot read from the
  // compiled node's `frame` parameter. A queued parameter's position holds the frame's reference and a
  // virtual object has a copy per slot; the rest are `arguments`. Not held: the executor holds the
  // copies, the queues their references. Empty when the graph is not pipelined.
  std::vector<std::vector<vx_reference>> slot_arguments;
  std::size_t frame_parameter = 0;  // index of the compiled node's `frame` parameter
  // Pipe-up (VX_KERNEL_PIPEUP_OUTPUT_DEPTH / _INPUT_DEPTH): calls in VX_NODE_STATE_PIPEUP still to make
  // since verification. Output pipe-up calls, all before the first steady one, write
  // `pipeup_outputs` (one set of output objects per call, held internally) through `pipeup_arguments`.
  vx_uint32 pipeup_output_calls = 0;
  vx_uint32 pipeup_input_calls = 0;
  std::vector<vx_reference> pipeup_outputs;    // (output depth - 1) x arguments.size(); null where not an output
  std::vector<vx_reference> pipeup_arguments;  // scratch for one pipe-up call (sized at verification)
  std::atomic<vx_enum> state{VX_NODE_STATE_STEADY};  // VX_NODE_STATE, read by the kernel while it runs
  // The handles of the arguments a kernel function is called with (its parameters[]): one row per frame
  // slot, sized and filled at verification and kept in step with `arguments` / `slot_arguments` by what
  // changes them in place (refresh_call_handles): a frame encodes nothing and allocates nothing.
  std::vector<vx_reference> call_handles;
  // A fused chain of 3x3 filters holding this node (fusion.hpp), and the node's place in it; set while the
  // graph is compiled.
  vg::openvx::FusedChain* chain = nullptr;
  vx_uint32 chain_stage = 0;

  /// Sets @p value (may be null) on parameter @p index, holding the new and dropping the old reference; a
  /// delay slot (or a part of one) is recorded so that the parameter follows the delay's aging.
  /// VX_ERROR_NO_MEMORY leaves the parameter as it was.
  vx_status set_argument(vx_uint32 index, vx_reference value) noexcept;
};

namespace vg::openvx {

/// vxSetParameterByIndex and its kin on an object (null for NULL): checks @p value against parameter
/// @p index of @p node (type, context, direction) and sets it.
vx_status set_node_argument(vx_node node, vx_uint32 index, vx_reference value) noexcept;

/// vxCreateGenericNode on objects: a node of @p kernel in @p graph (the graph holds it, the caller gets
/// an external hold), or an error object.
vx_node create_generic_node(vx_graph graph, vx_kernel kernel) noexcept;

/// vxVerifyGraph on a graph object (verify.cpp).
vx_status verify_graph(vx_graph graph) noexcept;

/// The handles of @p count objects (null stays null) written to @p handles: a kernel callback's
/// parameters[] or meta formats.
inline void to_handles(const vx_reference* objects, vx_size count, vx_reference* handles) noexcept {
  for (vx_size i = 0; i < count; ++i) handles[i] = to_handle(objects[i]);
}

/// For each node of @p graph (by index), the nodes it must run after: those writing data it reads (data
/// compared by data_root, so a region waits for whoever writes its image). Excludes the node itself.
std::vector<std::vector<std::size_t>> predecessors(vx_graph graph);

/// Replicated nodes: how many replicas @p node has (the item count of its replicated parameters' object
/// array or pyramid), and what parameter @p index of replica @p replica is (item @p replica of the
/// container for a replicated parameter, the node's own argument otherwise).
std::size_t replica_count(vx_node node) noexcept;
vx_reference replica_argument(vx_node node, vx_uint32 index, std::size_t replica) noexcept;

struct GraphParameter {
  vx_node node;  // not held: the graph holds its nodes
  vx_uint32 index;
  EventRegistration consumed_event = {};  // VX_EVENT_GRAPH_PARAMETER_CONSUMED
};

}  // namespace vg::openvx

struct _vx_graph final : _vx_reference {
  explicit _vx_graph(vx_context owner) noexcept;
  ~_vx_graph() override;

  std::vector<vx_node> nodes;  // held internally, creation order
  std::vector<vg::openvx::GraphParameter> parameters;
  std::atomic<vx_enum> state{VX_GRAPH_STATE_UNVERIFIED};  // a pipelined graph's frames start and end on two threads
  bool verified = false;
  bool scheduled = false;  // vxScheduleGraph ran, vxWaitGraph not yet
  vx_perf_t performance{};
  std::unique_ptr<vg::Graph> compiled;  // built by vxVerifyGraph (execution.hpp)
  vg::openvx::EventRegistration completed_event;  // VX_EVENT_GRAPH_COMPLETED
  // Queued graph parameters and streaming (vx_khr_pipelining, pipelining.hpp).
  vx_enum schedule_mode;
  std::unique_ptr<vg::openvx::GraphExecutor> executor;
  bool streaming_enabled = false;
  std::vector<vx_delay> auto_aged;      // vxRegisterAutoAging, held internally: aged after each run
  std::vector<vg::openvx::FusedChainPtr> chains;  // its compiled graph's fused chains (fusion.hpp)

  /// Any change to the graph or to a node's parameters: verification is needed again, and the compiled
  /// graph goes now (its deinitializers run), since it may use a node that is about to go.
  void changed() noexcept;
};
