#pragma once
// The reference every OpenVX object starts with, the API boundary's translation between handles and
// objects, and small helpers shared by the API files.
//
// A handle (vx_image, vx_reference, ...) the application holds is not the object's address: it is an
// encoded slot index and generation of the handle table (handle_table.hpp), so a released handle never
// names a later object. Every handle coming in is checked and decoded with `valid()` (NULL, a released
// handle or a handle of the wrong type gives VX_ERROR_INVALID_REFERENCE instead of a crash); inside the
// library, code works with object pointers; every reference going out (a creator's result, a getter's,
// a callback's arguments, an event) is encoded with `to_handle()`.
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

  vx_enum type;
  vx_context context;                          // owning context (the context itself for a context)
  std::atomic<vx_uint32> external_count{0};    // handles the application holds (VX_REFERENCE_COUNT)
  std::atomic<vx_uint32> internal_count{0};    // holds by other objects (a graph on its nodes, ...)
  vx_char name[VX_MAX_REFERENCE_NAME] = {};
  // The pyramid, object array or delay this object is an item of (not held: the container holds it, and
  // clears this when it goes first). Nodes touching an item depend on nodes touching its container.
  _vx_reference* container = nullptr;
  // The handle of the graph a virtual object was created in (only compared: vxVerifyGraph refuses the
  // object in another graph; a handle, unlike an address, is never a later graph's). 0: not virtual.
  std::uintptr_t scope = 0;
  // What the application knows this object by (handle_table.hpp): set by adopt() (or, for error objects,
  // register_object()); 0 when it has none. Kept after the object leaves the table: stale from then on.
  std::uintptr_t handle = 0;
};

namespace vg::openvx {

/// VX_CONTEXT_MAX_TENSOR_DIMS: the most dimensions a tensor (or its meta format) has.
inline constexpr vx_size kMaxTensorDims = 6;

/// Counts held on a reference: the application's own (vxRetain / vxRelease) or another object's.
enum class Hold { external, internal };

/// Gives @p object a handle (a slot of the process's handle table); false when the table has no slot
/// left (the object then has none). Error objects register directly; everything else through adopt().
bool register_object(_vx_reference* object) noexcept;
/// Takes @p object's handle out of the table: from now on it is stale, refused by every call.
void unregister_object(_vx_reference* object) noexcept;

/// Registers a new object with its context (which then counts and owns it) and gives it its handle;
/// returns the object with one hold, or null (the object deleted) when out of memory or handles.
/// A data object made with a graph as @p owner is virtual and scoped to that graph.
vx_reference adopt(_vx_reference* object, Hold hold, vx_reference owner = nullptr) noexcept;

/// The live object @p handle names, or null (NULL, released, never a handle). Lock-free.
_vx_reference* lookup(const void* handle) noexcept;

/// The API boundary's check of a handle the application passed in: true when it names a live object, of
/// @p type unless type is VX_TYPE_REFERENCE (any type, error objects included: callers that refuse them
/// check the type). On success @p handle is rewritten in place to the object it names, so the code after
/// the check works with the object; on failure it is left as it was. Check a variable once: a second
/// valid() on it sees an object pointer, which is no handle.
template <typename H>
bool valid(H& handle, vx_enum type = VX_TYPE_REFERENCE) noexcept {
  static_assert(std::is_pointer_v<H> && !std::is_const_v<H>, "valid() rewrites a handle variable; valid_handle() only checks");
  _vx_reference* object = lookup(handle);
  if (object == nullptr || (type != VX_TYPE_REFERENCE && object->type != type)) return false;
  handle = static_cast<H>(object);
  return true;
}

/// valid() without the rewrite: for handles that stay handles (a kernel callback's const parameters[],
/// which it passes on to API calls) and are reached with as<>() where the object is needed.
inline bool valid_handle(const void* handle, vx_enum type = VX_TYPE_REFERENCE) noexcept {
  const _vx_reference* object = lookup(handle);
  return object != nullptr && (type == VX_TYPE_REFERENCE || object->type == type);
}

/// Kernel code's way to an object it was given: a handle (its parameters[], checked with valid_handle();
/// null when not live) or an object the library reached itself (a pyramid's levels, a node's arguments),
/// told apart by the handle's tag bit. Library code only: what the application passes goes through
/// valid(), which takes no object pointer.
template <typename Object>
Object* as(const void* handle_or_object) noexcept {
  if ((reinterpret_cast<std::uintptr_t>(handle_or_object) & 1u) == 0) {
    return static_cast<Object*>(static_cast<_vx_reference*>(const_cast<void*>(handle_or_object)));
  }
  return static_cast<Object*>(lookup(handle_or_object));
}

/// The handle of @p object as the application gets it (NULL for NULL). Every reference the library hands
/// out (creators, getters, callback arguments, events) goes through this.
template <typename T>
T* to_handle(T* object) noexcept {
  if (object == nullptr) return nullptr;
  return reinterpret_cast<T*>(static_cast<const _vx_reference*>(object)->handle);
}

/// True on the thread of a context's destructor while it deletes the objects left in it: any of them may
/// be gone already, so destructors neither drop holds on other objects (release() does nothing) nor look
/// at them.
bool in_teardown() noexcept;
/// Marks the calling thread as in_teardown() for its lifetime (a context's destructor).
struct Teardown {
  Teardown() noexcept;
  ~Teardown();
  Teardown(const Teardown&) = delete;
  Teardown& operator=(const Teardown&) = delete;
};

/// The status behind an object or error object a creator made inside the library (vxGetStatus without the
/// handle): VX_ERROR_NO_RESOURCES for null, an error object's status, else VX_SUCCESS.
vx_status status_of(const _vx_reference* ref) noexcept;

void retain(vx_reference ref, Hold hold) noexcept;
/// Drops one hold; destroys the object when no hold is left. Returns VX_ERROR_INVALID_REFERENCE when the
/// hold of that kind was not there. Nothing while in_teardown().
vx_status release(vx_reference ref, Hold hold) noexcept;

/// vxRelease<Type>: checks the type, drops the application's hold, clears the application's handle.
template <typename Handle>
vx_status release_handle(Handle* handle, vx_enum type) noexcept {
  if (handle == nullptr) return VX_ERROR_INVALID_REFERENCE;
  Handle object = *handle;  // the application's variable keeps its handle until it is cleared
  if (!valid(object, type)) return VX_ERROR_INVALID_REFERENCE;
  const vx_status status = release(reinterpret_cast<vx_reference>(object), Hold::external);
  if (status == VX_SUCCESS) *handle = nullptr;
  return status;
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
