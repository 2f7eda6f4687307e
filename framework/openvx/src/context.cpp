// The context: creation and release, attributes, user structs, user kernel and library ids, targets.
#include "context.hpp"

#include <strings.h>

#include <algorithm>
#include <cstdio>

#include "convolution.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "kernel.hpp"
#include "module_loader.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "standard_kernels.hpp"
#include "visiongraph/runtime/context.hpp"

namespace {

constexpr char kImplementationName[] = "visiongraph";
// Extensions are listed once they are implemented (docs/openvx.md, coverage).
constexpr char kExtensions[] = "vx_khr_pipelining vx_khr_user_data_object";

constexpr vx_uint32 kMaxUserKernelIds = VX_KERNEL_MASK + 1;  // the kernel field of VX_KERNEL_BASE(VX_ID_USER, 0)
constexpr vx_uint32 kMaxUserLibraryIds = VX_LIBRARY_MASK >> 12;
constexpr vx_enum kFirstUserStruct = VX_TYPE_USER_STRUCT_START;
constexpr vx_enum kLastUserStruct = VX_TYPE_VENDOR_STRUCT_START - 1;

}  // namespace

using namespace vg::openvx;

_vx_context::_vx_context() noexcept : _vx_reference(VX_TYPE_CONTEXT, this) {
  immediate_border.mode = VX_BORDER_UNDEFINED;
  immediate_border_policy = VX_BORDER_POLICY_DEFAULT_TO_UNDEFINED;
}

_vx_context::~_vx_context() {
  // Compiled graphs go first, while every object is still valid: their deinitializers are given nodes
  // (deleted below before their graphs) and may query them. This may free objects (per-slot copies,
  // replicas), which take themselves off `objects`, so the list is taken only afterwards.
  std::vector<vx_graph> graphs;
  {
    const std::lock_guard guard(lock);
    for (_vx_reference* object : objects) {
      if (object->type == VX_TYPE_GRAPH) graphs.push_back(static_cast<vx_graph>(object));
    }
  }
  for (vx_graph graph : graphs) vg::openvx::release_compiled_graph(graph);
  // Whatever the application did not release goes with the context. Unregistering everything first makes
  // every handle of the context stale; while the objects are deleted (in_teardown()) the holds they drop
  // on each other in their destructors are no-ops, so the order does not matter.
  const vg::openvx::Teardown teardown;
  std::vector<_vx_reference*> left;
  {
    const std::lock_guard guard(lock);
    left.swap(objects);
  }
  for (_vx_reference* object : left) unregister_object(object);
  for (const auto& error : errors) unregister_object(error.get());
  for (auto it = left.rbegin(); it != left.rend(); ++it) delete *it;
  runtime.reset();
}

vx_uint32 _vx_context::reference_count() const noexcept {
  const std::lock_guard guard(lock);
  vx_uint32 n = 0;
  // Not counted, as the conformance suite's leak check expects: kernels (they live in the context's kernel
  // table whether or not the application holds one, e.g. from vxGetKernelByName), and nodes whose graph is
  // gone (releasing a graph releases its nodes; a handle the application kept stays usable, detached).
  for (const _vx_reference* object : objects) {
    if (object->external_count.load() == 0 || object->type == VX_TYPE_KERNEL) continue;
    if (object->type == VX_TYPE_NODE && static_cast<const _vx_node*>(object)->graph == nullptr) continue;
    ++n;
  }
  return n;
}

vx_status _vx_context::resolve_target(vx_enum target_enum, const char* target_string, std::string& name) const {
  if (target_enum == VX_TARGET_ANY) {
    name = "any";
    return VX_SUCCESS;
  }
  if (target_enum != VX_TARGET_STRING || target_string == nullptr) return VX_ERROR_NOT_SUPPORTED;
  if (strcasecmp(target_string, "any") == 0) {
    name = "any";
    return VX_SUCCESS;
  }
  for (const std::string& t : target_names) {
    if (strcasecmp(target_string, t.c_str()) == 0) {
      name = t;
      return VX_SUCCESS;
    }
  }
  return VX_ERROR_NOT_SUPPORTED;
}

extern "C" {

VX_API_ENTRY vx_context VX_API_CALL vxCreateContext(void) {
  auto* context = new (std::nothrow) _vx_context();
  if (context == nullptr) return nullptr;
  try {
    for (const vg::TargetConfig& t : vg::ContextConfig::defaults().targets) context->target_names.push_back(t.name);
  } catch (...) {
    delete context;
    return nullptr;
  }
  if (adopt(context, Hold::external) == nullptr) return nullptr;  // deleted: no handle left for it
  // Every standard kernel is declared up front so it can be found and queried; the context holds them.
  for (const StandardKernel& k : standard_kernels()) {
    auto* kernel = new (std::nothrow) _vx_kernel(context);
    if (kernel == nullptr) break;
    try {
      kernel->kernel_name = k.name;
      for (std::uint32_t i = 0; i < k.parameter_count; ++i) {
        kernel->signature.push_back({k.parameters[i].direction, k.parameters[i].type, k.parameters[i].state});
      }
    } catch (...) {
      delete kernel;
      break;
    }
    kernel->enumeration = k.kernel_enum;
    kernel->finalized = true;
    implement_standard_kernel(kernel);
    if (adopt(kernel, Hold::internal) == nullptr) break;
    const std::lock_guard guard(context->lock);
    try {
      context->kernels.push_back(kernel);
    } catch (...) {
      break;
    }
  }
  return to_handle(context);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseContext(vx_context* context) {
  if (context == nullptr) return VX_ERROR_INVALID_REFERENCE;
  vx_context object = *context;  // the application's variable keeps its handle until it is cleared
  if (!valid(object, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  // Modules unpublish while the context is still whole (their vxUnpublishKernels calls back into it).
  if (object->external_count.load() == 1) unload_all_modules(object);
  const vx_status status = release(reinterpret_cast<vx_reference>(object), Hold::external);
  if (status == VX_SUCCESS) *context = nullptr;
  return status;
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryContext(vx_context context, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_CONTEXT_VENDOR_ID: return put<vx_uint16>(ptr, size, VX_ID_USER);
    case VX_CONTEXT_VERSION: return put<vx_uint16>(ptr, size, VX_VERSION);
    case VX_CONTEXT_MODULES: {
      const std::lock_guard guard(context->lock);
      return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(context->modules.size()));
    }
    case VX_CONTEXT_REFERENCES: return put<vx_uint32>(ptr, size, context->reference_count());
    case VX_CONTEXT_IMPLEMENTATION: return put_string(ptr, size, kImplementationName, VX_MAX_IMPLEMENTATION_NAME);
    case VX_CONTEXT_EXTENSIONS_SIZE: return put<vx_size>(ptr, size, sizeof kExtensions);
    case VX_CONTEXT_EXTENSIONS: return put_string(ptr, size, kExtensions, sizeof kExtensions);
    case VX_CONTEXT_CONVOLUTION_MAX_DIMENSION: return put<vx_size>(ptr, size, kMaxConvolutionDimension);
    case VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION: return put<vx_size>(ptr, size, kOpticalFlowMaxWindowDimension);
    case VX_CONTEXT_NONLINEAR_MAX_DIMENSION: return put<vx_size>(ptr, size, 9);
    case VX_CONTEXT_MAX_TENSOR_DIMS: return put<vx_size>(ptr, size, kMaxTensorDims);
    case VX_CONTEXT_IMMEDIATE_BORDER: {
      const std::lock_guard guard(context->lock);
      return put<vx_border_t>(ptr, size, context->immediate_border);
    }
    case VX_CONTEXT_IMMEDIATE_BORDER_POLICY: {
      const std::lock_guard guard(context->lock);
      return put<vx_enum>(ptr, size, context->immediate_border_policy);
    }
    case kContextImmediateTargetName: {
      const std::lock_guard guard(context->lock);
      return put_string(ptr, size, context->immediate_target_name.c_str(), kImmediateTargetNameSize);
    }
    case VX_CONTEXT_UNIQUE_KERNELS: {
      const std::lock_guard guard(context->lock);
      vx_uint32 n = 0;
      for (vx_kernel k : context->kernels) n += k->finalized ? 1 : 0;
      return put<vx_uint32>(ptr, size, n);
    }
    case VX_CONTEXT_UNIQUE_KERNEL_TABLE: {
      const std::lock_guard guard(context->lock);
      vx_size n = 0;
      for (vx_kernel k : context->kernels) n += k->finalized ? 1 : 0;
      if (ptr == nullptr || size != n * sizeof(vx_kernel_info_t)) return VX_ERROR_INVALID_PARAMETERS;
      auto* table = static_cast<vx_kernel_info_t*>(ptr);
      for (vx_kernel k : context->kernels) {
        if (!k->finalized) continue;
        table->enumeration = k->enumeration;
        std::snprintf(table->name, sizeof table->name, "%s", k->kernel_name.c_str());
        ++table;
      }
      return VX_SUCCESS;
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetContextAttribute(vx_context context, vx_enum attribute, const void* ptr, vx_size size) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_CONTEXT_IMMEDIATE_BORDER: {
      vx_border_t border{};
      if (const vx_status s = get(ptr, size, border); s != VX_SUCCESS) return s;
      if (border.mode != VX_BORDER_UNDEFINED && border.mode != VX_BORDER_CONSTANT && border.mode != VX_BORDER_REPLICATE) {
        return VX_ERROR_INVALID_VALUE;
      }
      const std::lock_guard guard(context->lock);
      context->immediate_border = border;
      return VX_SUCCESS;
    }
    case VX_CONTEXT_IMMEDIATE_BORDER_POLICY: {
      vx_enum policy = 0;
      if (const vx_status s = get(ptr, size, policy); s != VX_SUCCESS) return s;
      if (policy != VX_BORDER_POLICY_DEFAULT_TO_UNDEFINED && policy != VX_BORDER_POLICY_RETURN_ERROR) return VX_ERROR_INVALID_VALUE;
      const std::lock_guard guard(context->lock);
      context->immediate_border_policy = policy;
      return VX_SUCCESS;
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_enum VX_API_CALL vxRegisterUserStruct(vx_context context, vx_size size) {
  return vxRegisterUserStructWithName(context, size, nullptr);  // the handle passed on as it came
}

VX_API_ENTRY vx_enum VX_API_CALL vxRegisterUserStructWithName(vx_context context, vx_size size, const vx_char* type_name) {
  if (!valid(context, VX_TYPE_CONTEXT) || size == 0) return VX_TYPE_INVALID;
  const std::lock_guard guard(context->lock);
  auto& structs = context->user_structs;
  if (type_name != nullptr) {
    if (std::strlen(type_name) >= VX_MAX_REFERENCE_NAME) return VX_TYPE_INVALID;
    for (const UserStruct& s : structs) {
      if (s.name == type_name) return VX_TYPE_INVALID;  // names identify types: they must be unique
    }
  }
  const vx_enum type = kFirstUserStruct + static_cast<vx_enum>(structs.size());
  if (type > kLastUserStruct) return VX_TYPE_INVALID;
  try {
    structs.push_back({type, size, type_name != nullptr ? type_name : ""});
  } catch (...) {
    return VX_TYPE_INVALID;
  }
  return type;
}

VX_API_ENTRY vx_status VX_API_CALL vxGetUserStructNameByEnum(vx_context context, vx_enum user_struct_type, vx_char* type_name, vx_size size) {
  if (context == nullptr) return VX_ERROR_INVALID_PARAMETERS;  // what the conformance suite expects of NULL
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (type_name == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(context->lock);
  for (const UserStruct& s : context->user_structs) {
    if (s.type != user_struct_type) continue;
    if (s.name.empty()) return VX_ERROR_INVALID_PARAMETERS;  // registered without a name
    if (size < s.name.size() + 1) return VX_ERROR_NO_MEMORY;
    std::memcpy(type_name, s.name.c_str(), s.name.size() + 1);
    return VX_SUCCESS;
  }
  return VX_FAILURE;  // no struct of that enum
}

VX_API_ENTRY vx_status VX_API_CALL vxGetUserStructEnumByName(vx_context context, const vx_char* type_name, vx_enum* user_struct_type) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (user_struct_type == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (type_name == nullptr) return VX_FAILURE;  // no struct has that name (the conformance suite's answer)
  const std::lock_guard guard(context->lock);
  for (const UserStruct& s : context->user_structs) {
    if (!s.name.empty() && s.name == type_name) {
      *user_struct_type = s.type;
      return VX_SUCCESS;
    }
  }
  return VX_FAILURE;
}

VX_API_ENTRY vx_status VX_API_CALL vxAllocateUserKernelId(vx_context context, vx_enum* kernel_id) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (kernel_id == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(context->lock);
  if (context->next_user_kernel_id >= kMaxUserKernelIds) return VX_ERROR_NO_RESOURCES;
  *kernel_id = VX_KERNEL_BASE(VX_ID_USER, 0) + static_cast<vx_enum>(context->next_user_kernel_id++);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxAllocateUserKernelLibraryId(vx_context context, vx_enum* library_id) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (library_id == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(context->lock);
  if (context->next_user_library_id > kMaxUserLibraryIds) return VX_ERROR_NO_RESOURCES;
  *library_id = static_cast<vx_enum>(context->next_user_library_id++);
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetImmediateModeTarget(vx_context context, vx_enum target_enum, const char* target_string) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  std::string name;
  if (const vx_status s = context->resolve_target(target_enum, target_string, name); s != VX_SUCCESS) return s;
  const std::lock_guard guard(context->lock);
  context->immediate_target = target_enum;
  context->immediate_target_name = name;
  return VX_SUCCESS;
}

}  // extern "C"
