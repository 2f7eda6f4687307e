// Queued graph parameters and streaming (pipelining.hpp): the executor, vxSetGraphScheduleConfig, the
// enqueue / dequeue / check calls, vxScheduleGraph and vxWaitGraph in queue modes, and streaming.
#include "pipelining.hpp"

#include <VX/vx_khr_pipelining.h>

#include <algorithm>

#include "context.hpp"
#include "data_object.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "visiongraph/graph/graph.hpp"

namespace vg::openvx {

bool ParameterQueue::holds(vx_reference ref) const noexcept {
  return ready.contains(ref) || done.contains(ref) || held.contains(ref) || std::find(in_flight.begin(), in_flight.end(), ref) != in_flight.end();
}

GraphExecutor::~GraphExecutor() {
  stop();
  drop_copies();
  for (ParameterQueue& q : queues) {
    for (vx_reference ref : q.candidates) (void)release(ref, Hold::internal);  // a no-op once the context is going
  }
}

void GraphExecutor::compiled(std::size_t slots, vg::GraphParamId frame) {
  frame_ = frame;
  free_slots_.clear();
  for (std::size_t s = slots; s-- > 0;) free_slots_.push_back(static_cast<std::uint32_t>(s));  // slot 0 first
  slot_begin_.assign(slots, 0);
  for (ParameterQueue& q : queues) q.in_flight.assign(slots, nullptr);
}

void GraphExecutor::drop_copies() noexcept {
  for (vx_reference copy : slot_copies) (void)release(copy, Hold::internal);
  slot_copies.clear();
}

vx_status GraphExecutor::start() noexcept {
  const std::lock_guard guard(lock);
  if (started_) return VX_SUCCESS;
  if (!graph_->compiled || graph_->compiled->start() != vg::Status::ok) return VX_FAILURE;
  try {
    completer_ = std::thread([this] { complete_frames(); });
  } catch (...) {
    (void)graph_->compiled->stop();
    return VX_ERROR_NO_RESOURCES;
  }
  started_ = true;
  return VX_SUCCESS;
}

void GraphExecutor::stop() noexcept {
  {
    const std::lock_guard guard(lock);
    if (!started_) return;
    started_ = false;  // nothing more is admitted
    streaming = false;
    manual_runs = 0;
  }
  (void)graph_->compiled->stop(vg::StopMode::drain);  // frames in flight finish (the completer sees them)
  completer_.join();
  {
    const std::lock_guard guard(lock);
    for (ParameterQueue& q : queues) {
      while (q.held.size() > 0) (void)q.done.push(q.held.pop());
    }
  }
  changed.notify_all();
}

bool GraphExecutor::busy() noexcept {
  const std::lock_guard guard(lock);
  return in_flight > 0 || streaming || (started_ && can_run());
}

bool GraphExecutor::can_run() const noexcept {
  const bool refs_ready = std::all_of(queues.begin(), queues.end(), [](const ParameterQueue& q) { return q.ready.size() > 0; });
  if (streaming) return refs_ready;
  if (graph_->schedule_mode == VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL) return manual_runs > 0 && refs_ready;
  return !queues.empty() && refs_ready;  // QUEUE_AUTO: a frame as soon as every queue has a reference
}

ParameterQueue* GraphExecutor::queue_of(vx_uint32 parameter) noexcept {
  for (ParameterQueue& q : queues) {
    if (q.parameter == parameter) return &q;
  }
  return nullptr;
}

void GraphExecutor::admit_locked() noexcept {
  while (started_ && !free_slots_.empty() && can_run()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    for (ParameterQueue& q : queues) {
      const vx_reference ref = q.ready.pop();
      q.in_flight[slot] = ref;
      for (const ParameterQueue::Position& p : q.positions) {
        vx_reference argument = ref;
        if (p.sibling) {
          argument = ref->container != nullptr ? item_at(ref->container, p.item) : nullptr;
          if (argument == nullptr) argument = p.run->arguments[p.index];  // not an item: the verified object
        }
        p.run->slot_arguments[slot][p.index] = argument;
        p.run->call_handles[slot * p.run->arguments.size() + p.index] = to_handle(argument);  // set up at verification
      }
    }
    if (!streaming && manual_runs > 0) --manual_runs;
    ++in_flight;
    slot_begin_[slot] = now_ns();
    graph_->state = VX_GRAPH_STATE_RUNNING;
    // Never waits: the compiled graph has room for every slot.
    const vg::Status s = graph_->compiled->enqueue(frame_, slot, vg::FrameStamp{}, std::chrono::nanoseconds(0));
    if (s != vg::Status::ok) {
      log(graph_, VX_FAILURE, "a frame could not be started: %s", vg::to_string(s).data());
      for (ParameterQueue& q : queues) {
        (void)q.done.push(q.in_flight[slot]);
        q.in_flight[slot] = nullptr;
      }
      free_slots_.push_back(slot);
      --in_flight;
      if (first_failure == VX_SUCCESS) first_failure = VX_FAILURE;
      streaming = false;
      return;
    }
  }
}

void GraphExecutor::complete_frames() noexcept {
  for (;;) {
    vg::DequeuedBuffer frame;
    const vg::Status s = graph_->compiled->dequeue(frame_, frame, std::chrono::hours(1));
    if (s == vg::Status::stopped) return;
    if (s == vg::Status::ok) frame_done(frame.index, frame.status);
  }
}

void GraphExecutor::frame_done(std::uint32_t slot, vg::Status status) noexcept {
  const vx_status result = finish_frame(graph_, status, slot_begin_[slot]);
  // Before the frame's references are done: whoever sees them done (vxWaitGraph, a dequeue) finds the
  // events posted.
  for (const ParameterQueue& q : queues) {
    const EventRegistration& e = graph_->parameters[q.parameter].consumed_event;
    if (!e.registered) continue;
    vx_event_info_t info{};
    info.graph_parameter_consumed.graph = to_handle(graph_);
    info.graph_parameter_consumed.graph_parameter_index = q.parameter;
    graph_->context->events.post(VX_EVENT_GRAPH_PARAMETER_CONSUMED, e.app_value, info);
  }
  {
    const std::lock_guard guard(lock);
    for (ParameterQueue& q : queues) {
      (void)q.held.push(q.in_flight[slot]);  // cannot be full: a reference is in one place at a time
      q.in_flight[slot] = nullptr;
      while (q.held.size() > q.hold) (void)q.done.push(q.held.pop());
    }
    free_slots_.push_back(slot);
    --in_flight;
    if (result != VX_SUCCESS) {
      if (first_failure == VX_SUCCESS) first_failure = result;
      streaming = false;  // a failing node stops streaming, as the extension says
    }
    admit_locked();
  }
  changed.notify_all();
}

std::size_t pipeline_slots(vx_graph graph, const std::vector<vx_node>& runs) noexcept {
  if (!graph->auto_aged.empty()) return 1;
  std::vector<const std::string*> targets;
  for (vx_node run : runs) {
    for (vx_reference a : run->arguments) {
      if (a != nullptr && a->container != nullptr && a->container->type == VX_TYPE_DELAY) return 1;  // values carried between frames
    }
    if (std::none_of(targets.begin(), targets.end(), [&](const std::string* t) { return *t == run->target; })) targets.push_back(&run->target);
  }
  std::size_t slots = std::min<std::size_t>(targets.size(), kMaxPipelineSlots);
  for (const ParameterQueue& q : graph->executor->queues) slots = std::min(slots, q.candidates.size());
  return std::max<std::size_t>(slots, 1);
}

bool queued(vx_graph graph) noexcept {
  return graph->executor != nullptr && (graph->schedule_mode != VX_GRAPH_SCHEDULE_MODE_NORMAL || graph->streaming_enabled);
}

vx_status schedule_queued(vx_graph graph) noexcept {
  GraphExecutor& e = *graph->executor;
  if (graph->schedule_mode != VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL) {
    log(graph, VX_ERROR_NOT_SUPPORTED, "vxScheduleGraph: a graph in VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO runs when references are enqueued");
    return VX_ERROR_NOT_SUPPORTED;
  }
  if (!graph->verified) {
    if (const vx_status s = verify_graph(graph); s != VX_SUCCESS) return s;
  }
  if (const vx_status s = e.start(); s != VX_SUCCESS) return s;
  {
    const std::lock_guard guard(e.lock);
    // As many frames as every queue has references for.
    std::size_t frames = SIZE_MAX;
    for (const ParameterQueue& q : e.queues) frames = std::min(frames, q.ready.size() - std::min<std::size_t>(q.ready.size(), e.manual_runs));
    if (e.queues.empty() || frames == 0) {
      log(graph, VX_FAILURE, "vxScheduleGraph: a queued graph parameter has no reference enqueued");
      return VX_FAILURE;
    }
    e.manual_runs += static_cast<vx_uint32>(frames);
    e.admit_locked();
  }
  e.changed.notify_all();
  return VX_SUCCESS;
}

vx_status wait_queued(vx_graph graph) noexcept {
  GraphExecutor& e = *graph->executor;
  std::unique_lock guard(e.lock);
  e.changed.wait(guard, [&] { return e.in_flight == 0 && !e.streaming && !(e.admitting() && e.can_run()); });
  const vx_status status = e.first_failure;
  e.first_failure = VX_SUCCESS;
  return status;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxSetGraphScheduleConfig(vx_graph graph, vx_enum graph_schedule_mode, vx_uint32 graph_parameters_list_size,
                                                            const vx_graph_parameter_queue_params_t graph_parameters_queue_params_list[]) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (graph_schedule_mode != VX_GRAPH_SCHEDULE_MODE_NORMAL && graph_schedule_mode != VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO &&
      graph_schedule_mode != VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (graph->scheduled || (graph->executor && graph->executor->busy())) return VX_ERROR_GRAPH_SCHEDULED;
  if (graph_parameters_list_size > graph->parameters.size() || (graph_parameters_list_size > 0 && graph_parameters_queue_params_list == nullptr)) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  // The graph parameter each entry configures. An entry naming a parameter an earlier entry named configures
  // the parameter at its own list position instead, as the conformance suite expects (its ScalarOutput test
  // lists indices 0, 1, 1 for parameters 0, 1, 2, which implementations that key entries by position accept).
  std::vector<vx_uint32> targets;
  try {
    targets.reserve(graph_parameters_list_size);
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  for (vx_uint32 i = 0; i < graph_parameters_list_size; ++i) {
    const vx_graph_parameter_queue_params_t& p = graph_parameters_queue_params_list[i];
    if (p.graph_parameter_index >= graph->parameters.size() || p.refs_list_size == 0 || p.refs_list == nullptr) return VX_ERROR_INVALID_PARAMETERS;
    vx_uint32 target = p.graph_parameter_index;
    const auto named = [&targets](vx_uint32 index) { return std::find(targets.begin(), targets.end(), index) != targets.end(); };
    if (named(target)) {
      target = i;
      if (named(target) || std::any_of(graph_parameters_queue_params_list + i + 1, graph_parameters_queue_params_list + graph_parameters_list_size,
                                       [i](const vx_graph_parameter_queue_params_t& later) { return later.graph_parameter_index == i; })) {
        log(graph, VX_ERROR_INVALID_PARAMETERS, "vxSetGraphScheduleConfig: entry %u names graph parameter %u twice", i, p.graph_parameter_index);
        return VX_ERROR_INVALID_PARAMETERS;
      }
    }
    targets.push_back(target);
    // Every listed reference must be a live object of the type the parameter's object has.
    const GraphParameter& gp = graph->parameters[target];
    const vx_enum type = gp.node->kernel->signature[gp.index].type;
    for (vx_uint32 r = 0; r < p.refs_list_size; ++r) {
      vx_reference ref = p.refs_list[r];  // a copy: the application's list keeps its handles
      if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
      if (type != VX_TYPE_REFERENCE && ref->type != type) return VX_ERROR_INVALID_TYPE;
    }
  }
  auto executor = std::make_unique<GraphExecutor>(graph);
  try {
    executor->queues.resize(graph_parameters_list_size);
    for (vx_uint32 i = 0; i < graph_parameters_list_size; ++i) {
      const vx_graph_parameter_queue_params_t& p = graph_parameters_queue_params_list[i];
      ParameterQueue& q = executor->queues[i];
      q.parameter = targets[i];
      q.candidates.resize(p.refs_list_size);
      for (vx_uint32 r = 0; r < p.refs_list_size; ++r) q.candidates[r] = lookup(p.refs_list[r]);  // checked above
      q.ready.reserve(p.refs_list_size);
      q.done.reserve(p.refs_list_size);
      q.held.reserve(p.refs_list_size);
    }
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  for (ParameterQueue& q : executor->queues) {
    for (vx_reference ref : q.candidates) retain(ref, Hold::internal);
    // The first reference stands for the parameter at verification when none is set.
    const GraphParameter& gp = graph->parameters[q.parameter];
    if (gp.node->arguments[gp.index] == nullptr) (void)set_node_argument(gp.node, gp.index, q.candidates.front());
  }
  graph->changed();  // verified again before it runs (stops a previous executor's thread)
  graph->executor = std::move(executor);
  graph->schedule_mode = graph_schedule_mode;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterEnqueueReadyRef(vx_graph graph, vx_uint32 graph_parameter_index, vx_reference* refs,
                                                                   vx_uint32 num_refs) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  ParameterQueue* q = graph->executor ? graph->executor->queue_of(graph_parameter_index) : nullptr;
  if (q == nullptr || refs == nullptr || num_refs == 0) return VX_ERROR_INVALID_PARAMETERS;
  if (!graph->verified) {
    if (const vx_status s = verify_graph(graph); s != VX_SUCCESS) return s;
  }
  GraphExecutor& e = *graph->executor;
  {
    const std::lock_guard guard(e.lock);
    for (vx_uint32 i = 0; i < num_refs; ++i) {
      const vx_reference ref = lookup(refs[i]);
      if (ref == nullptr) {
        log(graph, VX_ERROR_INVALID_REFERENCE, "vxGraphParameterEnqueueReadyRef: reference %u is not a live object", i);
        return VX_ERROR_INVALID_REFERENCE;
      }
      // Only references given at vxSetGraphScheduleConfig, and each in one place at a time.
      if (std::find(q->candidates.begin(), q->candidates.end(), ref) == q->candidates.end() || q->holds(ref)) {
        log(graph, VX_ERROR_INVALID_PARAMETERS, "vxGraphParameterEnqueueReadyRef: reference %u is not in the parameter's list or is queued already", i);
        return VX_ERROR_INVALID_PARAMETERS;
      }
      if (std::find(refs, refs + i, refs[i]) != refs + i) {
        log(graph, VX_ERROR_INVALID_PARAMETERS, "vxGraphParameterEnqueueReadyRef: reference %u is given twice in this call", i);
        return VX_ERROR_INVALID_PARAMETERS;
      }
    }
    // Distinct candidates not yet queued always fit (the queue has room for every candidate); checked
    // anyway, as nothing may be dropped silently.
    if (num_refs > q->ready.capacity() - q->ready.size()) {
      log(graph, VX_ERROR_NO_RESOURCES, "vxGraphParameterEnqueueReadyRef: %u references do not fit in the queue", num_refs);
      return VX_ERROR_NO_RESOURCES;
    }
    for (vx_uint32 i = 0; i < num_refs; ++i) (void)q->ready.push(lookup(refs[i]));  // each checked above
  }
  if (const vx_status s = e.start(); s != VX_SUCCESS) return s;
  {
    const std::lock_guard guard(e.lock);
    e.admit_locked();
  }
  e.changed.notify_all();
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterDequeueDoneRef(vx_graph graph, vx_uint32 graph_parameter_index, vx_reference* refs,
                                                                  vx_uint32 max_refs, vx_uint32* num_refs) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  ParameterQueue* q = graph->executor ? graph->executor->queue_of(graph_parameter_index) : nullptr;
  if (q == nullptr || refs == nullptr || max_refs == 0 || num_refs == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  GraphExecutor& e = *graph->executor;
  std::unique_lock guard(e.lock);
  // Waits for a reference to be done; when none can come (nothing queued or running), says so.
  e.changed.wait(guard, [&] { return q->done.size() > 0 || (e.in_flight == 0 && !(e.admitting() && e.can_run())); });
  if (q->done.size() == 0) {
    *num_refs = 0;
    log(graph, VX_FAILURE, "vxGraphParameterDequeueDoneRef: nothing is queued, so no reference will be done");
    return VX_FAILURE;
  }
  vx_uint32 n = 0;
  while (n < max_refs && q->done.size() > 0) refs[n++] = to_handle(q->done.pop());
  *num_refs = n;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxGraphParameterCheckDoneRef(vx_graph graph, vx_uint32 graph_parameter_index, vx_uint32* num_refs) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  ParameterQueue* q = graph->executor ? graph->executor->queue_of(graph_parameter_index) : nullptr;
  if (q == nullptr || num_refs == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(graph->executor->lock);
  *num_refs = static_cast<vx_uint32>(q->done.size());
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxEnableGraphStreaming(vx_graph graph, vx_node trigger_node) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (trigger_node != nullptr && (!valid(trigger_node, VX_TYPE_NODE) || trigger_node->graph != graph)) return VX_ERROR_INVALID_PARAMETERS;
  if (graph->scheduled || (graph->executor && graph->executor->busy())) return VX_ERROR_GRAPH_SCHEDULED;
  if (!graph->executor) {
    graph->changed();  // compiled again, for frames at once
    graph->executor = std::make_unique<GraphExecutor>(graph);
  }
  graph->streaming_enabled = true;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxStartGraphStreaming(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (!graph->streaming_enabled) {
    log(graph, VX_FAILURE, "vxStartGraphStreaming: vxEnableGraphStreaming was not called");
    return VX_FAILURE;
  }
  if (!graph->verified) {
    if (const vx_status s = verify_graph(graph); s != VX_SUCCESS) return s;
  }
  GraphExecutor& e = *graph->executor;
  if (const vx_status s = e.start(); s != VX_SUCCESS) return s;
  {
    const std::lock_guard guard(e.lock);
    if (e.streaming) return VX_FAILURE;  // started already
    e.streaming = true;
    e.admit_locked();
  }
  e.changed.notify_all();
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxStopGraphStreaming(vx_graph graph) {
  if (!valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
  if (!graph->executor) return VX_FAILURE;
  GraphExecutor& e = *graph->executor;
  std::unique_lock guard(e.lock);
  if (!e.streaming) return VX_FAILURE;
  e.streaming = false;
  e.changed.wait(guard, [&] { return e.in_flight == 0; });  // the frames in flight finish
  return VX_SUCCESS;
}

}  // extern "C"
