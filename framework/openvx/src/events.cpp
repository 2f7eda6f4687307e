// Events (events.hpp): the queue, and vxEnableEvents, vxDisableEvents, vxRegisterEvent, vxSendUserEvent,
// vxWaitEvent.
#include "events.hpp"

#include <chrono>

#include "context.hpp"
#include "graph.hpp"

namespace vg::openvx {

bool EventQueue::post(vx_enum type, vx_uint32 app_value, const vx_event_info_t& info) noexcept {
  {
    const std::lock_guard guard(lock_);
    if (!enabled_) return false;
    // Read under the lock: events posted from several targets at once still queue in timestamp order.
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    if (count_ == kCapacity) {  // nobody reads: the oldest goes, the newest is what a late reader wants
      head_ = (head_ + 1) % kCapacity;
      --count_;
      ++dropped_;
    }
    vx_event_t& event = ring_[(head_ + count_) % kCapacity];
    event.type = type;
    event.timestamp = static_cast<vx_uint64>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
    event.app_value = app_value;
    event.event_info = info;
    ++count_;
  }
  posted_.notify_all();
  return true;
}

bool EventQueue::take(vx_event_t& event, bool block) noexcept {
  std::unique_lock guard(lock_);
  if (block) posted_.wait(guard, [this] { return count_ > 0; });
  if (count_ == 0) return false;
  event = ring_[head_];
  head_ = (head_ + 1) % kCapacity;
  --count_;
  return true;
}

void EventQueue::set_enabled(bool enabled) noexcept {
  const std::lock_guard guard(lock_);
  enabled_ = enabled;
}

std::uint64_t EventQueue::dropped() const noexcept {
  const std::lock_guard guard(lock_);
  return dropped_;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxEnableEvents(vx_context context) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  context->events.set_enabled(true);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxDisableEvents(vx_context context) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  context->events.set_enabled(false);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSendUserEvent(vx_context context, vx_uint32 app_value, void* parameter) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  vx_event_info_t info{};
  info.user_event.user_event_parameter = parameter;
  // A user event sent while events are disabled is dropped, and the sender is told.
  return context->events.post(VX_EVENT_USER, app_value, info) ? VX_SUCCESS : VX_FAILURE;
}

VX_API_ENTRY vx_status VX_API_CALL vxWaitEvent(vx_context context, vx_event_t* event, vx_bool do_not_block) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (event == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  return context->events.take(*event, do_not_block == vx_false_e) ? VX_SUCCESS : VX_FAILURE;
}

VX_API_ENTRY vx_status VX_API_CALL vxRegisterEvent(vx_reference ref, enum vx_event_type_e type, vx_uint32 param, vx_uint32 app_value) {
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  switch (type) {
    case VX_EVENT_GRAPH_PARAMETER_CONSUMED: {
      if (ref->type != VX_TYPE_GRAPH) return VX_ERROR_INVALID_PARAMETERS;
      auto* graph = reinterpret_cast<vx_graph>(ref);
      if (param >= graph->parameters.size()) return VX_ERROR_INVALID_PARAMETERS;
      graph->parameters[param].consumed_event = EventRegistration{true, app_value};
      return VX_SUCCESS;
    }
    case VX_EVENT_GRAPH_COMPLETED:
      if (ref->type != VX_TYPE_GRAPH) return VX_ERROR_INVALID_PARAMETERS;
      reinterpret_cast<vx_graph>(ref)->completed_event = EventRegistration{true, app_value};
      return VX_SUCCESS;
    case VX_EVENT_NODE_COMPLETED:
      if (ref->type != VX_TYPE_NODE) return VX_ERROR_INVALID_PARAMETERS;
      reinterpret_cast<vx_node>(ref)->completed_event = EventRegistration{true, app_value};
      return VX_SUCCESS;
    case VX_EVENT_NODE_ERROR:
      if (ref->type != VX_TYPE_NODE) return VX_ERROR_INVALID_PARAMETERS;
      reinterpret_cast<vx_node>(ref)->error_event = EventRegistration{true, app_value};
      return VX_SUCCESS;
    default: return VX_ERROR_INVALID_PARAMETERS;  // user events are sent, not registered
  }
}

}  // extern "C"
