// Queued graph parameters and streaming (pipelining.hpp): the executor, vxSetGraphScheduleConfig, the
// enqueue / dequeue / check calls, vxScheduleGraph and vxWaitGraph in queue modes, and streaming.
#include "pipelining.hpp"

#include <VX/vx_khr_pipelining.h>

#include <algorithm>

#include "context.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "kernel.hpp"

namespace vg::openvx {

GraphExecutor::~GraphExecutor() {
  stop();
  for (ParameterQueue& q : queues) {
    for (vx_reference ref : q.candidates) (void)release(ref, Hold::internal);  // a no-op once the context is going
  }
}

vx_status GraphExecutor::start() noexcept {
  const std::lock_guard guard(lock);
  if (thread_.joinable()) return VX_SUCCESS;
  stopping_ = false;
  try {
    thread_ = std::thread([this] { loop(); });
  } catch (...) {
    return VX_ERROR_NO_RESOURCES;
  }
  return VX_SUCCESS;
}

void GraphExecutor::stop() noexcept {
  {
    const std::lock_guard guard(lock);
    if (!thread_.joinable()) return;
    stopping_ = true;
  }
  changed.notify_all();
  thread_.join();
  const std::lock_guard guard(lock);
  thread_ = std::thread();
  streaming = false;
  manual_runs = 0;
}

bool GraphExecutor::busy() noexcept {
  const std::lock_guard guard(lock);
  return running || streaming || can_run();
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

void GraphExecutor::bind_frame_references() noexcept {
  for (ParameterQueue& q : queues) {
    const GraphParameter& p = graph_->parameters[q.parameter];
    const vx_reference old = p.node->arguments[p.index];
    if (old == q.in_flight) continue;
    // Every node reading or writing the parameter's object gets the frame's reference instead; the
    // graph stays verified (the references were checked at vxSetGraphScheduleConfig).
    for (vx_node node : graph_->nodes) {
      for (vx_reference& a : node->arguments) {
        if (a != old) continue;
        retain(q.in_flight, Hold::internal);
        a = q.in_flight;
        (void)release(old, Hold::internal);
      }
    }
  }
}

void GraphExecutor::loop() noexcept {
  for (;;) {
    {
      std::unique_lock guard(lock);
      changed.wait(guard, [this] { return stopping_ || can_run(); });
      if (stopping_) return;
      for (ParameterQueue& q : queues) q.in_flight = q.ready.pop();
      if (!streaming && manual_runs > 0) --manual_runs;
      running = true;
    }
    bind_frame_references();
    const vx_status status = run_graph_once(graph_);
    // Before the frame is marked done: whoever sees it done (vxWaitGraph, a dequeue) finds its events posted.
    for (const ParameterQueue& q : queues) {
      const EventRegistration& e = graph_->parameters[q.parameter].consumed_event;
      if (!e.registered) continue;
      vx_event_info_t info{};
      info.graph_parameter_consumed.graph = graph_;
      info.graph_parameter_consumed.graph_parameter_index = q.parameter;
      graph_->context->events.post(VX_EVENT_GRAPH_PARAMETER_CONSUMED, e.app_value, info);
    }
    {
      const std::lock_guard guard(lock);
      for (ParameterQueue& q : queues) {
        (void)q.done.push(q.in_flight);  // cannot be full: a reference is in one place at a time
        q.in_flight = nullptr;
      }
      running = false;
      if (status != VX_SUCCESS) {
        if (first_failure == VX_SUCCESS) first_failure = status;
        streaming = false;  // a failing node stops streaming, as the extension says
      }
    }
    changed.notify_all();
  }
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
    if (const vx_status s = vxVerifyGraph(graph); s != VX_SUCCESS) return s;
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
  }
  e.changed.notify_all();
  return VX_SUCCESS;
}

vx_status wait_queued(vx_graph graph) noexcept {
  GraphExecutor& e = *graph->executor;
  std::unique_lock guard(e.lock);
  e.changed.wait(guard, [&] { return !e.running && (e.streaming ? false : !e.can_run()); });
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
  // Every listed reference must be a live object of the type the parameter's object has.
  for (vx_uint32 i = 0; i < graph_parameters_list_size; ++i) {
    const vx_graph_parameter_queue_params_t& p = graph_parameters_queue_params_list[i];
    if (p.graph_parameter_index >= graph->parameters.size() || p.refs_list_size == 0 || p.refs_list == nullptr) return VX_ERROR_INVALID_PARAMETERS;
    const GraphParameter& gp = graph->parameters[p.graph_parameter_index];
    const vx_enum type = gp.node->kernel->signature[gp.index].type;
    for (vx_uint32 r = 0; r < p.refs_list_size; ++r) {
      vx_reference ref = p.refs_list[r];
      if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
      if (type != VX_TYPE_REFERENCE && ref->type != type) return VX_ERROR_INVALID_TYPE;
    }
    for (vx_uint32 j = 0; j < i; ++j) {
      if (graph_parameters_queue_params_list[j].graph_parameter_index == p.graph_parameter_index) return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  auto executor = std::make_unique<GraphExecutor>(graph);
  try {
    executor->queues.resize(graph_parameters_list_size);
    for (vx_uint32 i = 0; i < graph_parameters_list_size; ++i) {
      const vx_graph_parameter_queue_params_t& p = graph_parameters_queue_params_list[i];
      ParameterQueue& q = executor->queues[i];
      q.parameter = p.graph_parameter_index;
      q.candidates.assign(p.refs_list, p.refs_list + p.refs_list_size);
      q.ready.reserve(p.refs_list_size);
      q.done.reserve(p.refs_list_size);
    }
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  for (ParameterQueue& q : executor->queues) {
    for (vx_reference ref : q.candidates) retain(ref, Hold::internal);
    // The first reference stands for the parameter at verification when none is set.
    const GraphParameter& gp = graph->parameters[q.parameter];
    if (gp.node->arguments[gp.index] == nullptr) (void)vxSetGraphParameterByIndex(graph, q.parameter, q.candidates.front());
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
    if (const vx_status s = vxVerifyGraph(graph); s != VX_SUCCESS) return s;
  }
  GraphExecutor& e = *graph->executor;
  {
    const std::lock_guard guard(e.lock);
    for (vx_uint32 i = 0; i < num_refs; ++i) {
      // Only references given at vxSetGraphScheduleConfig, and each in one place at a time.
      if (std::find(q->candidates.begin(), q->candidates.end(), refs[i]) == q->candidates.end() || q->ready.contains(refs[i]) ||
          q->done.contains(refs[i]) || q->in_flight == refs[i]) {
        log(graph, VX_ERROR_INVALID_PARAMETERS, "vxGraphParameterEnqueueReadyRef: reference %u is not in the parameter's list or is queued already", i);
        return VX_ERROR_INVALID_PARAMETERS;
      }
    }
    for (vx_uint32 i = 0; i < num_refs; ++i) (void)q->ready.push(refs[i]);
  }
  if (const vx_status s = e.start(); s != VX_SUCCESS) return s;
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
  e.changed.wait(guard, [&] { return q->done.size() > 0 || (!e.running && !e.can_run()); });
  if (q->done.size() == 0) {
    *num_refs = 0;
    log(graph, VX_FAILURE, "vxGraphParameterDequeueDoneRef: nothing is queued, so no reference will be done");
    return VX_FAILURE;
  }
  vx_uint32 n = 0;
  while (n < max_refs && q->done.size() > 0) refs[n++] = q->done.pop();
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
    if (const vx_status s = vxVerifyGraph(graph); s != VX_SUCCESS) return s;
  }
  GraphExecutor& e = *graph->executor;
  if (const vx_status s = e.start(); s != VX_SUCCESS) return s;
  {
    const std::lock_guard guard(e.lock);
    if (e.streaming) return VX_FAILURE;  // started already
    e.streaming = true;
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
  e.changed.wait(guard, [&] { return !e.running; });  // the frame running now finishes
  return VX_SUCCESS;
}

}  // extern "C"
