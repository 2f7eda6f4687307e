// The public Graph facade: argument checks and forwarding to GraphCore.

#include <mutex>
#include <vector>

#include "visiongraph/graph/graph.hpp"

#include "graph/graph_core.hpp"
#include "visiongraph/core/error.hpp"

namespace vg {

Graph::Graph(Context& context, std::string name) : core_(std::make_unique<detail::GraphCore>(context, std::move(name))) {}
namespace {
// Graphs whose memory a call given up on may still use: kept for the life of the process, reachable (so
// leak checkers see them as kept on purpose) and never destroyed, not even at exit.
void keep_forever(std::unique_ptr<detail::GraphCore> core) {
  static std::mutex mu;
  static auto* kept = new std::vector<detail::GraphCore*>();
  std::lock_guard lock(mu);
  kept->push_back(core.release());
}
}  // namespace

Graph::~Graph() {
  core_->release();
  // A call given up on may still be running inside this graph's nodes and buffers: they must outlive
  // it, so the graph's memory is left allocated (reported by the watchdog when it gave up).
  if (core_->has_stuck_nodes()) keep_forever(std::move(core_));
}

DataId Graph::add_data(std::string name, const DataMeta& meta) { return {core_->add_data(std::move(name), meta, false, meta.kind)}; }
DataId Graph::add_virtual(std::string name, DataKind kind) { return {core_->add_data(std::move(name), DataMeta{}, true, kind)}; }
NodeId Graph::add_node(std::string name, std::string_view kernel) { return {core_->add_node(std::move(name), kernel)}; }
Graph& Graph::bind(NodeId node, std::string_view param, DataId data) {
  core_->bind(node.value, core_->param_by_name(node.value, param), data.value);
  return *this;
}
Graph& Graph::bind(NodeId node, std::size_t param, DataId data) {
  core_->bind(node.value, param, data.value);
  return *this;
}
Graph& Graph::set_attribute(NodeId node, std::string key, AttrValue value) {
  core_->check_building("set_attribute");
  core_->node(node.value).attrs.set(std::move(key), std::move(value));
  return *this;
}
Graph& Graph::set_target(NodeId node, std::string target) {
  core_->check_building("set_target");
  auto& n = core_->node(node.value);
  n.requested_target = std::move(target);
  n.requested_targets.clear();
  return *this;
}
Graph& Graph::set_targets(NodeId node, std::vector<std::string> targets) {
  core_->check_building("set_targets");
  auto& n = core_->node(node.value);
  if (targets.empty()) throw Error("node '" + n.name + "': set_targets needs at least one target");
  // A target may be listed more than once: replicas sharing a target thread, useful with asynchronous
  // kernels (several runs in flight from one target).
  if (targets.size() > 64) throw Error("node '" + n.name + "': more than 64 targets");
  n.requested_target = targets.front();
  if (targets.size() == 1) n.requested_targets.clear();
  else n.requested_targets = std::move(targets);
  return *this;
}
Graph& Graph::order_across_frames(NodeId earlier, NodeId later) {
  core_->check_building("order_across_frames");
  (void)core_->node(earlier.value);  // both must exist (throws naming the id otherwise)
  (void)core_->node(later.value);
  if (earlier.value != later.value) core_->frame_orders_.emplace_back(earlier.value, later.value);
  return *this;
}

Graph& Graph::set_deadline(NodeId node, std::chrono::nanoseconds run, std::chrono::nanoseconds create) {
  core_->check_building("set_deadline");
  auto& n = core_->node(node.value);
  if (run.count() >= 0) n.requested_deadline = run;
  if (create.count() >= 0) n.requested_create_deadline = create;
  return *this;
}
GraphParamId Graph::add_graph_parameter(NodeId node, std::string_view param, std::size_t num_buffers) {
  return {core_->add_graph_parameter(node.value, param, num_buffers)};
}
void Graph::set_input_policy(GraphParamId param, InputPolicy policy, std::size_t queue_capacity) {
  core_->check_building("set_input_policy");
  if (param.value >= core_->params_.size()) throw Error("set_input_policy: invalid graph parameter");
  auto& gp = *core_->params_[param.value];
  if (!gp.is_input) throw Error("set_input_policy: graph parameter on '" + core_->data(gp.data).name + "' is an output");
  if (queue_capacity == 0 || (!gp.auto_buffers && queue_capacity > gp.num_buffers) || queue_capacity > 1024)
    throw Error("set_input_policy: queue capacity for '" + core_->data(gp.data).name + "' must be 1.." +
                std::to_string(gp.auto_buffers ? 1024 : gp.num_buffers) + " (its number of buffers)");
  gp.policy = policy;
  gp.queue_capacity = queue_capacity;
}
void Graph::set_pipeline_depth(std::size_t depth) {
  core_->check_building("set_pipeline_depth");
  if (depth > 64) throw Error("set_pipeline_depth: " + std::to_string(depth) + " is more than 64");
  core_->requested_depth_ = depth;
}
void Graph::set_device_only(DataId data) {
  core_->check_building("set_device_only");
  core_->data(data.value).device_only = true;
}
void Graph::set_allocator(Allocator* allocator) {
  core_->check_building("set_allocator");
  core_->allocator_ = allocator;
}
void Graph::set_telemetry_capacity(std::size_t records) {
  core_->check_building("set_telemetry_capacity");
  core_->telemetry_capacity_ = records ? records : 1;
}

void Graph::verify() { core_->verify(); }
bool Graph::is_verified() const noexcept { return core_->verified_; }
void Graph::release() noexcept { core_->release(); }

Status Graph::process(std::chrono::nanoseconds timeout) noexcept { return core_->process(timeout); }
Status Graph::submit(std::chrono::nanoseconds timeout) noexcept { return core_->submit(timeout); }
Status Graph::wait_submitted(std::chrono::nanoseconds timeout) noexcept { return core_->wait_submitted(timeout); }
Status Graph::start() noexcept { return core_->start(); }
Status Graph::stop(StopMode mode) noexcept { return core_->stop(mode); }
bool Graph::is_streaming() const noexcept {
  std::lock_guard lock(core_->mu_public());
  return core_->streaming_public();
}
Status Graph::enqueue(GraphParamId param, std::uint32_t index, std::int64_t timestamp_ns, std::chrono::nanoseconds timeout) noexcept {
  return core_->enqueue(param.value, index, FrameStamp{timestamp_ns, 0}, timeout);
}
Status Graph::enqueue(GraphParamId param, std::uint32_t index, const FrameStamp& stamp, std::chrono::nanoseconds timeout) noexcept {
  return core_->enqueue(param.value, index, stamp, timeout);
}
Status Graph::dequeue(GraphParamId param, DequeuedBuffer& out, std::chrono::nanoseconds timeout) noexcept {
  return core_->dequeue(param.value, out, timeout);
}
Status Graph::send_command(NodeId node, const ControlCommand& command, std::chrono::nanoseconds timeout, CommandReply* reply) noexcept {
  return core_->send_command(node.value, command, timeout, reply);
}
Status Graph::send_command(NodeId node, const ControlCommand& command, std::chrono::nanoseconds timeout,
                           CommandReply* reply, std::uint32_t replica) noexcept {
  return core_->send_command(node.value, command, timeout, reply, replica);
}
Status Graph::wait_idle(std::chrono::nanoseconds timeout) noexcept { return core_->wait_idle(timeout); }

Buffer* Graph::buffer_of(DataId data, std::uint32_t buffer) const noexcept {
  if (data.value >= core_->data_.size()) return nullptr;
  auto& buffers = core_->data_[data.value]->buffers;
  if (buffers.empty()) return nullptr;
  buffer = core_->resolve_buffer(data.value, buffer);
  return buffer < buffers.size() ? &buffers[buffer] : nullptr;
}
const DataMeta& Graph::meta(DataId data) const { return core_->data(data.value).meta; }
ImageView Graph::image(DataId data, std::uint32_t buffer) const noexcept {
  Buffer* b = buffer_of(data, buffer);
  return b ? ImageView(&core_->data_[data.value]->meta, b) : ImageView();
}
TensorView Graph::tensor(DataId data, std::uint32_t buffer) const noexcept {
  Buffer* b = buffer_of(data, buffer);
  return b ? TensorView(&core_->data_[data.value]->meta, b) : TensorView();
}
ScalarView Graph::scalar(DataId data, std::uint32_t buffer) const noexcept {
  Buffer* b = buffer_of(data, buffer);
  return b ? ScalarView(&core_->data_[data.value]->meta, b) : ScalarView();
}
DataId Graph::data_of(GraphParamId param) const noexcept {
  return param.value < core_->params_.size() ? DataId{core_->params_[param.value]->data} : DataId{};
}
std::size_t Graph::num_buffers(DataId data) const noexcept {
  return data.value < core_->data_.size() ? core_->data_[data.value]->buffers.size() : 0;
}
Status Graph::import_handle(DataId data, std::uint32_t buffer, const MemoryBlock& block, MemoryBlock* previous) noexcept {
  ExternalBuffer external;
  external.block = block;
  if (block.data == nullptr) external.block = MemoryBlock{};  // import_handle's "give the graph's memory back"
  return core_->import_buffer(data.value, buffer, external, previous);
}
Status Graph::import_buffer(DataId data, std::uint32_t buffer, const ExternalBuffer& external) noexcept {
  return core_->import_buffer(data.value, buffer, external, nullptr);
}
void Graph::count_conversion(GraphParamId param) noexcept {
  if (param.value < core_->params_.size()) core_->params_[param.value]->conversions.fetch_add(1, std::memory_order_relaxed);
}

const std::string& Graph::name() const noexcept { return core_->name_; }
NodeId Graph::find_node(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < core_->num_user_nodes_; ++i)
    if (core_->nodes_[i]->name == name) return {static_cast<std::uint32_t>(i)};
  return {};
}
DataId Graph::find_data(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < core_->data_.size(); ++i)
    if (core_->data_[i]->name == name) return {static_cast<std::uint32_t>(i)};
  return {};
}
std::string Graph::node_name(NodeId node) const { return core_->node(node.value).name; }
std::string Graph::node_kernel(NodeId node) const { return core_->node(node.value).kernel_name; }
std::string Graph::node_target(NodeId node) const {
  auto& n = core_->node(node.value);
  return n.target_name.empty() ? n.requested_target : n.target_name;
}
std::vector<std::string> Graph::node_targets(NodeId node) const {
  auto& n = core_->node(node.value);
  if (!n.replicas.empty()) {
    std::vector<std::string> out;
    for (auto r : n.replicas) out.push_back(core_->nodes_[r]->target_name);
    return out;
  }
  if (!n.requested_targets.empty() && n.target_name.empty()) return n.requested_targets;
  return {node_target(node)};
}
std::size_t Graph::num_replicas(NodeId node) const {
  auto& n = core_->node(node.value);
  return n.requested_targets.empty() ? 1 : n.requested_targets.size();
}
std::size_t Graph::num_nodes() const noexcept { return core_->num_user_nodes_; }
std::size_t Graph::num_data() const noexcept { return core_->data_.size(); }
std::size_t Graph::pipeline_depth() const noexcept { return core_->depth_; }
std::vector<NodeId> Graph::execution_order() const {
  std::vector<NodeId> out;
  for (auto i : core_->order_) out.push_back({i});
  return out;
}
RunError Graph::last_error() const { return core_->last_error(); }
RunError Graph::frame_error(std::uint64_t frame) const { return core_->frame_error(frame); }

GraphStats Graph::stats() const { return core_->stats(); }
void Graph::reset_stats() noexcept { core_->reset_stats(); }
void Graph::write_trace(std::ostream& out) const { core_->write_trace(out); }
void Graph::write_dot(std::ostream& out) const { core_->write_dot(out); }
std::vector<ExecutionRecord> Graph::executions(NodeId node) const { return core_->executions(node.value); }
Status Graph::frame_sample(std::uint64_t sequence, FrameSample& out) const noexcept {
  return core_->frame_sample(sequence, out);
}

std::string RunError::describe() const {
  if (status == Status::ok) return "no error";
  std::string out = "node '" + node + "' (kernel '" + kernel + "' on " + target + ") failed on frame " +
                    std::to_string(frame) + ": " + std::string(to_string(status));
  if (!message.empty()) out += ": " + message;
  return out;
}

}  // namespace vg
