// References: the handle table behind every handle, reference counting, error objects, names, logging and
// the calls that take any reference.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "context.hpp"
#include "error_object.hpp"
#include "handle_table.hpp"

_vx_reference::_vx_reference(vx_enum type_, vx_context context_) noexcept : type(type_), context(context_) {}
_vx_reference::~_vx_reference() = default;

namespace vg::openvx {
namespace {

// Every live object of every context has a slot here; a handle is looked up before it is used, so a
// released or foreign value is refused rather than read. Never destroyed: objects may be released by
// other static destructors at exit.
handles::HandleTable& table() noexcept {
  static handles::HandleTable* const instance = new handles::HandleTable(handles::default_layout());
  return *instance;
}

// Set while a context's destructor deletes the objects left in it (in_teardown()).
thread_local int teardowns = 0;

}  // namespace

bool register_object(_vx_reference* object) noexcept {
  object->handle = table().add(object);
  return object->handle != 0;
}

void unregister_object(_vx_reference* object) noexcept { table().remove(object->handle); }

_vx_reference* lookup(const void* handle) noexcept {
  return static_cast<_vx_reference*>(table().find(reinterpret_cast<std::uintptr_t>(handle)));
}

bool in_teardown() noexcept { return teardowns > 0; }

Teardown::Teardown() noexcept { ++teardowns; }
Teardown::~Teardown() { --teardowns; }

vx_status status_of(const _vx_reference* ref) noexcept {
  if (ref == nullptr) return VX_ERROR_NO_RESOURCES;
  if (ref->type == VX_TYPE_ERROR) return static_cast<const ErrorObject*>(ref)->status;
  return VX_SUCCESS;
}

vx_reference adopt(_vx_reference* object, Hold hold, vx_reference owner) noexcept {
  (hold == Hold::external ? object->external_count : object->internal_count).store(1);
  if (owner != nullptr && owner->type == VX_TYPE_GRAPH) object->scope = owner->handle;
  if (!register_object(object)) {
    delete object;
    return nullptr;
  }
  if (object->type != VX_TYPE_CONTEXT) {
    const std::lock_guard guard(object->context->lock);
    try {
      object->context->objects.push_back(object);
    } catch (...) {
      unregister_object(object);
      delete object;
      return nullptr;
    }
  }
  return object;
}

void retain(vx_reference ref, Hold hold) noexcept { (hold == Hold::external ? ref->external_count : ref->internal_count)++; }

void destroy(vx_reference ref) noexcept {
  unregister_object(ref);
  if (ref->type != VX_TYPE_CONTEXT) {
    vx_context context = ref->context;
    const std::lock_guard guard(context->lock);
    auto& objects = context->objects;
    objects.erase(std::remove(objects.begin(), objects.end(), ref), objects.end());
  }
  delete ref;  // virtual: drops the holds this object had on others
}

vx_status release(vx_reference ref, Hold hold) noexcept {
  if (in_teardown()) return VX_SUCCESS;  // the context deletes every object itself
  if (ref == nullptr || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  std::atomic<vx_uint32>& count = hold == Hold::external ? ref->external_count : ref->internal_count;
  vx_uint32 held = count.load();
  do {
    if (held == 0) return VX_ERROR_INVALID_REFERENCE;
  } while (!count.compare_exchange_weak(held, held - 1));
  if (held == 1 && (hold == Hold::external ? ref->internal_count.load() : ref->external_count.load()) == 0) {
    destroy(ref);
  }
  return VX_SUCCESS;
}

vx_reference error_object(vx_reference owner, vx_status status) noexcept {
  if (owner == nullptr) return nullptr;
  vx_context context = owner->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(owner) : owner->context;
  const std::lock_guard guard(context->lock);
  for (const auto& e : context->errors) {
    if (e->status == status) return e.get();
  }
  try {
    context->errors.push_back(std::make_unique<ErrorObject>(context, status));
  } catch (...) {
    return nullptr;
  }
  if (!register_object(context->errors.back().get())) {
    context->errors.pop_back();
    return nullptr;
  }
  return context->errors.back().get();
}

vx_status put_string(void* ptr, vx_size size, const char* text, vx_size capacity) noexcept {
  const std::size_t length = std::strlen(text);
  if (ptr == nullptr || size < std::min<vx_size>(capacity, length + 1) || size > capacity) return VX_ERROR_INVALID_PARAMETERS;
  const std::size_t n = std::min<std::size_t>(length, size - 1);
  std::memcpy(ptr, text, n);
  static_cast<char*>(ptr)[n] = '\0';
  return VX_SUCCESS;
}

namespace {

void vlog(vx_reference ref, vx_status status, const char* format, va_list args) noexcept {
  vx_context context = ref->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(ref) : ref->context;
  vx_log_callback_f callback = nullptr;
  bool reentrant = false;
  {
    const std::lock_guard guard(context->lock);
    if (!context->log_enabled || context->log_callback == nullptr) return;
    callback = context->log_callback;
    reentrant = context->log_reentrant;
  }
  vx_char message[VX_MAX_LOG_MESSAGE_LEN];
  std::vsnprintf(message, sizeof message, format, args);
  if (reentrant) {
    callback(to_handle(context), to_handle(ref), status, message);
  } else {
    const std::lock_guard guard(context->log_lock);
    callback(to_handle(context), to_handle(ref), status, message);
  }
}

}  // namespace

void log(vx_reference ref, vx_status status, const char* format, ...) noexcept {
  if (ref == nullptr) return;
  va_list args;
  va_start(args, format);
  vlog(ref, status, format, args);
  va_end(args);
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxQueryReference(vx_reference ref, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(ref)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_REFERENCE_COUNT: return put<vx_uint32>(ptr, size, ref->external_count.load());
    case VX_REFERENCE_TYPE: return put<vx_enum>(ptr, size, ref->type);
    case VX_REFERENCE_NAME: return put<vx_char*>(ptr, size, ref->name);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseReference(vx_reference* ref_ptr) {
  if (ref_ptr == nullptr) return VX_ERROR_INVALID_REFERENCE;
  vx_reference ref = *ref_ptr;  // the application's variable keeps its handle until it is cleared
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  if (ref->type == VX_TYPE_CONTEXT) return vxReleaseContext(reinterpret_cast<vx_context*>(ref_ptr));
  const vx_status status = release(ref, Hold::external);
  if (status == VX_SUCCESS) *ref_ptr = nullptr;
  return status;
}

VX_API_ENTRY vx_status VX_API_CALL vxRetainReference(vx_reference ref) {
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  retain(ref, Hold::external);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetReferenceName(vx_reference ref, const vx_char* name) {
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  if (name == nullptr) {
    ref->name[0] = '\0';
    return VX_SUCCESS;
  }
  std::snprintf(ref->name, sizeof ref->name, "%s", name);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxGetStatus(vx_reference ref) {
  if (ref == nullptr) return VX_ERROR_NO_RESOURCES;
  if (!valid(ref)) return VX_ERROR_INVALID_REFERENCE;
  return status_of(ref);
}

VX_API_ENTRY vx_context VX_API_CALL vxGetContext(vx_reference ref) {
  if (!valid(ref)) return nullptr;
  return to_handle(ref->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(ref) : ref->context);
}

VX_API_ENTRY void VX_API_CALL vxRegisterLogCallback(vx_context context, vx_log_callback_f callback, vx_bool reentrant) {
  if (!valid(context, VX_TYPE_CONTEXT)) return;
  const std::lock_guard guard(context->lock);
  context->log_callback = callback;
  context->log_reentrant = reentrant == vx_true_e;
  // Registering a callback turns logging on; NULL turns it off (vxDirective can switch it either way later).
  context->log_enabled = callback != nullptr;
}

VX_API_ENTRY void VX_API_CALL vxAddLogEntry(vx_reference ref, vx_status status, const char* message, ...) {
  if (!valid(ref) || message == nullptr) return;
  va_list args;
  va_start(args, message);
  vlog(ref, status, message, args);
  va_end(args);
}

VX_API_ENTRY vx_status VX_API_CALL vxDirective(vx_reference ref, vx_enum directive) {
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  vx_context context = ref->type == VX_TYPE_CONTEXT ? reinterpret_cast<vx_context>(ref) : ref->context;
  const std::lock_guard guard(context->lock);
  switch (directive) {
    case VX_DIRECTIVE_DISABLE_LOGGING: context->log_enabled = false; return VX_SUCCESS;
    case VX_DIRECTIVE_ENABLE_LOGGING: context->log_enabled = true; return VX_SUCCESS;
    case VX_DIRECTIVE_DISABLE_PERFORMANCE:
      if (ref->type != VX_TYPE_CONTEXT) return VX_ERROR_NOT_SUPPORTED;
      context->performance_enabled = false;
      return VX_SUCCESS;
    case VX_DIRECTIVE_ENABLE_PERFORMANCE:
      if (ref->type != VX_TYPE_CONTEXT) return VX_ERROR_NOT_SUPPORTED;
      context->performance_enabled = true;
      return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxHint(vx_reference ref, vx_enum hint, const void* data, vx_size data_size) {
  (void)data;
  (void)data_size;
  if (!valid(ref) || ref->type == VX_TYPE_ERROR) return VX_ERROR_INVALID_REFERENCE;
  switch (hint) {
    // Accepted and ignored: the scheduler has one policy.
    case VX_HINT_PERFORMANCE_DEFAULT:
    case VX_HINT_PERFORMANCE_LOW_POWER:
    case VX_HINT_PERFORMANCE_HIGH_SPEED: return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

}  // extern "C"
