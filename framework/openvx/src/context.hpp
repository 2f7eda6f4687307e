#pragma once
// The OpenVX context: owns every object created in it, the kernel table, loaded modules, error objects,
// user structs, allocated ids and the log callback.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "events.hpp"
#include "object.hpp"

struct _vx_kernel;
namespace vg {
class Context;
}

namespace vg::openvx {

/// A query of this library's own (vxQueryContext, a vx_char array of kImmediateTargetNameSize): the target
/// vxSetImmediateModeTarget chose, "any" or a target name. For libvxu, which sees only handles.
inline constexpr vx_enum kContextImmediateTargetName = VX_ATTRIBUTE_BASE(VX_ID_USER, VX_TYPE_CONTEXT) + 0x0;
inline constexpr vx_size kImmediateTargetNameSize = 64;

struct ErrorObject final : _vx_reference {
  ErrorObject(vx_context owner, vx_status status_) noexcept : _vx_reference(VX_TYPE_ERROR, owner), status(status_) {}
  vx_status status;
};

struct UserStruct {
  vx_enum type;
  vx_size size;
  std::string name;
};

struct Module {
  std::string name;   // as passed to vxLoadKernels
  void* handle = nullptr;  // dlopen handle; null for a module registered with vxRegisterKernelLibrary
  vx_unpublish_kernels_f unpublish = nullptr;  // a registered module's (a library's is looked up in it)
  std::vector<vx_kernel> kernels;  // handles of those added while its vxPublishKernels ran (removed on unload if still there)
};

/// A kernel library registered with vxRegisterKernelLibrary: vxLoadKernels of its name calls these
/// instead of opening a shared library.
struct RegisteredLibrary {
  std::string name;
  vx_publish_kernels_f publish = nullptr;
  vx_unpublish_kernels_f unpublish = nullptr;
};

}  // namespace vg::openvx

struct _vx_context final : _vx_reference {
  _vx_context() noexcept;
  ~_vx_context() override;

  // Guards the tables below. Never held while user code (callbacks, publish functions) runs.
  mutable std::recursive_mutex lock;
  std::vector<_vx_reference*> objects;  // every live object of this context but itself, creation order
  std::vector<std::unique_ptr<vg::openvx::ErrorObject>> errors;  // one per status, made on first use
  std::vector<vx_kernel> kernels;       // standard declarations first, then user kernels (finalized or not)
  std::vector<vg::openvx::Module> modules;
  std::vector<vg::openvx::RegisteredLibrary> registered_libraries;
  std::vector<vg::openvx::UserStruct> user_structs;
  vx_uint32 next_user_kernel_id = 0;
  vx_uint32 next_user_library_id = 1;
  vg::openvx::Module* publishing = nullptr;  // the module whose vxPublishKernels is running

  vx_log_callback_f log_callback = nullptr;
  bool log_reentrant = false;
  bool log_enabled = false;
  std::mutex log_lock;  // serialises a non-reentrant log callback
  bool performance_enabled = true;
  vg::openvx::EventQueue events;  // vx_khr_pipelining events

  vx_border_t immediate_border{};
  vx_enum immediate_border_policy;
  vx_enum immediate_target = VX_TARGET_ANY;
  std::string immediate_target_name = "any";
  std::vector<std::string> target_names;  // visiongraph targets a node may name (cpu0, cpu1, npu0, ...)
  // The visiongraph context graphs run in (its target threads), made by the first vxVerifyGraph.
  std::unique_ptr<vg::Context> runtime;
  vx_uint32 runtime_kernels = 0;  // visiongraph kernels declared for vx kernels so far (for unique names)
  std::size_t graphs_placed = 0;  // graphs whose "any" nodes were spread over the cpu targets (placement.hpp)

  /// VX_CONTEXT_REFERENCES: live objects the application holds a handle to.
  vx_uint32 reference_count() const noexcept;
  /// Resolves a target request (VX_TARGET_ANY, or VX_TARGET_STRING with "any" in any case or a visiongraph
  /// target name); the resolved name ("any" or the target) goes to @p name.
  vx_status resolve_target(vx_enum target_enum, const char* target_string, std::string& name) const;
};
