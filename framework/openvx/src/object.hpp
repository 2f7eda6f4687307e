#pragma once
// The reference every OpenVX object starts with, the registry of live references, and small helpers shared
// by the API files. Every API entry checks its handles through `valid()` before touching them, so a NULL, a
// released handle or a handle of the wrong type gives VX_ERROR_INVALID_REFERENCE instead of a crash.
#include <VX/vx.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

// The handle types of the C API are pointers to these incomplete structs; they are completed here, with
// _vx_reference as the first (and only) base of every object, so a handle converts to vx_reference.
struct _vx_reference {
  explicit _vx_reference(vx_enum type_, vx_context context_) noexcept;
  virtual ~_vx_reference();
  _vx_reference(const _vx_reference&) = delete;
  _vx_reference& operator=(const _vx_reference&) = delete;

  // Every object lives in the object arena (object_arena.hpp), which never hands out an address twice:
  // a released handle can never name a later object.
  static void* operator new(std::size_t size);
  static void* operator new(std::size_t size, const std::nothrow_t&) noexcept;
  static void operator delete(void* object) noexcept;
  static void operator delete(void* object, const std::nothrow_t&) noexcept;

  vx_enum type;
  vx_context context;                          // owning context (the context itself for a context)
  std::atomic<vx_uint32> external_count{0};    // handles the application holds (VX_REFERENCE_COUNT)
  std::atomic<vx_uint32> internal_count{0};    // holds by other objects (a graph on its nodes, ...)
  vx_char name[VX_MAX_REFERENCE_NAME] = {};
  // The pyramid, object array or delay this object is an item of (not held: the container holds it, and
  // clears this when it goes first). Nodes touching an item depend on nodes touching its container.
  _vx_reference* container = nullptr;
  // The graph a virtual object was created in (only compared: vxVerifyGraph refuses it in another graph).
  const _vx_reference* scope = nullptr;
};

namespace vg::openvx {

/// VX_CONTEXT_MAX_TENSOR_DIMS: the most dimensions a tensor (or its meta format) has.
inline constexpr vx_size kMaxTensorDims = 6;

/// Counts held on a reference: the application's own (vxRetain / vxRelease) or another object's.
enum class Hold { external, internal };

/// The registry of live handles (adopt() and destruction use these; error objects register directly).
void register_object(const _vx_reference* object) noexcept;
void unregister_object(const _vx_reference* object) noexcept;

/// Registers a new object with its context (which then counts and owns it); returns it with one hold.
/// A data object made with a graph as @p owner is virtual and scoped to that graph.
vx_reference adopt(_vx_reference* object, Hold hold, vx_reference owner = nullptr) noexcept;

/// True when @p ref is a live reference, of @p type unless type is VX_TYPE_REFERENCE (any type).
/// Error objects are never valid except for VX_TYPE_ERROR, so a failed creator's result is refused.
bool valid(const void* ref, vx_enum type = VX_TYPE_REFERENCE) noexcept;

void retain(vx_reference ref, Hold hold) noexcept;
/// Drops one hold; destroys the object when no hold is left. Returns VX_ERROR_INVALID_REFERENCE when the
/// hold of that kind was not there.
vx_status release(vx_reference ref, Hold hold) noexcept;

/// vxRelease<Type>: checks the type, drops the application's hold, clears the handle.
template <typename Handle>
vx_status release_handle(Handle* handle, vx_enum type) noexcept {
  if (handle == nullptr || !valid(*handle, type)) return VX_ERROR_INVALID_REFERENCE;
  const vx_status status = release(reinterpret_cast<vx_reference>(*handle), Hold::external);
  if (status == VX_SUCCESS) *handle = nullptr;
  return status;
}

/// The object behind a checked handle (static: every handle type is a _vx_reference at offset 0).
template <typename Object>
Object* as(const void* handle) noexcept {
  return static_cast<Object*>(static_cast<_vx_reference*>(const_cast<void*>(handle)));
}

/// Attribute query helper: copies @p value out when @p size is exactly its size.
template <typename T>
vx_status put(void* ptr, vx_size size, const T& value) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  if (ptr == nullptr || size != sizeof(T)) return VX_ERROR_INVALID_PARAMETERS;
  std::memcpy(ptr, &value, sizeof(T));
  return VX_SUCCESS;
}

/// Attribute set helper: reads a value in when @p size is exactly its size.
template <typename T>
vx_status get(const void* ptr, vx_size size, T& value) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  if (ptr == nullptr || size != sizeof(T)) return VX_ERROR_INVALID_PARAMETERS;
  std::memcpy(&value, ptr, sizeof(T));
  return VX_SUCCESS;
}

/// True on a thread while it runs a kernel callback of a graph (initialize, function, deinitialize): the only
/// time a virtual object's data may be accessed (elsewhere the spec answers VX_ERROR_OPTIMIZED_AWAY).
bool inside_graph_execution() noexcept;

/// Copies a string into a fixed-size char array query result (VX_KERNEL_NAME, ...): size must hold it.
vx_status put_string(void* ptr, vx_size size, const char* text, vx_size capacity) noexcept;

/// Formats and delivers a log entry for @p ref (as vxAddLogEntry) when the context logs.
void log(vx_reference ref, vx_status status, const char* format, ...) noexcept
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

}  // namespace vg::openvx
