// Kernels: lookup by name and enum, queries, user kernels, and parameter objects.
#include "kernel.hpp"

#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>

#include <algorithm>
#include <cstdio>

#include "context.hpp"
#include "error_object.hpp"
#include "graph.hpp"

namespace {

using namespace vg::openvx;

constexpr vx_uint32 kMaxKernelParameters = 128;

bool is_parameter_type(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_REFERENCE:
    case VX_TYPE_SCALAR:
    case VX_TYPE_IMAGE:
    case VX_TYPE_ARRAY:
    case VX_TYPE_OBJECT_ARRAY:
    case VX_TYPE_MATRIX:
    case VX_TYPE_CONVOLUTION:
    case VX_TYPE_DISTRIBUTION:
    case VX_TYPE_THRESHOLD:
    case VX_TYPE_LUT:
    case VX_TYPE_REMAP:
    case VX_TYPE_PYRAMID:
    case VX_TYPE_DELAY:
    case VX_TYPE_TENSOR:
    case VX_TYPE_USER_DATA_OBJECT: return true;
    default: return false;
  }
}

/// A kernel the application may look up: declared completely and not removed.
bool findable(vx_kernel k) noexcept { return k->finalized && !k->removed; }

template <typename Match>
vx_kernel find_kernel(vx_context context, Match match) {
  const std::lock_guard guard(context->lock);
  for (vx_kernel k : context->kernels) {
    if (findable(k) && match(k)) {
      retain(k, Hold::external);
      return k;
    }
  }
  return nullptr;
}

}  // namespace

_vx_parameter::_vx_parameter(vx_context owner, vx_kernel kernel_, vx_node node_, vx_uint32 index_) noexcept
    : _vx_reference(VX_TYPE_PARAMETER, owner), kernel(kernel_), node(node_), index(index_) {
  retain(kernel, Hold::internal);
  if (node != nullptr) retain(node, Hold::internal);
}

_vx_parameter::~_vx_parameter() {
  if (node != nullptr) (void)release(node, Hold::internal);
  (void)release(kernel, Hold::internal);
}

namespace vg::openvx {

vx_parameter make_parameter(vx_reference owner, vx_kernel kernel, vx_node node, vx_uint32 index) noexcept {
  if (index >= kernel->signature.size()) return reinterpret_cast<vx_parameter>(error_object(owner, VX_ERROR_INVALID_PARAMETERS));
  auto* p = new (std::nothrow) _vx_parameter(owner->context, kernel, node, index);
  if (p == nullptr) return reinterpret_cast<vx_parameter>(error_object(owner, VX_ERROR_NO_MEMORY));
  return reinterpret_cast<vx_parameter>(adopt(p, Hold::external));
}

}  // namespace vg::openvx

extern "C" {

VX_API_ENTRY vx_kernel VX_API_CALL vxGetKernelByName(vx_context context, const vx_char* name) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  if (name == nullptr) return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  vx_kernel k = find_kernel(context, [name](vx_kernel x) { return x->kernel_name == name; });
  if (k == nullptr) {
    log(context, VX_ERROR_INVALID_PARAMETERS, "vxGetKernelByName: no kernel named '%s'", name);
    return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  }
  return to_handle(k);
}

VX_API_ENTRY vx_kernel VX_API_CALL vxGetKernelByEnum(vx_context context, vx_enum kernel_enum) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  vx_kernel k = find_kernel(context, [kernel_enum](vx_kernel x) { return x->enumeration == kernel_enum; });
  if (k == nullptr) {
    log(context, VX_ERROR_INVALID_PARAMETERS, "vxGetKernelByEnum: no kernel with enum 0x%x", static_cast<unsigned>(kernel_enum));
    return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  }
  return to_handle(k);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryKernel(vx_kernel kernel, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_KERNEL_PARAMETERS: return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(kernel->signature.size()));
    case VX_KERNEL_NAME: return put_string(ptr, size, kernel->kernel_name.c_str(), VX_MAX_KERNEL_NAME);
    case VX_KERNEL_ENUM: return put<vx_enum>(ptr, size, kernel->enumeration);
    case VX_KERNEL_LOCAL_DATA_SIZE: return put<vx_size>(ptr, size, kernel->local_data_size);
    case VX_KERNEL_PIPEUP_INPUT_DEPTH: return put<vx_uint32>(ptr, size, kernel->pipeup_input_depth);
    case VX_KERNEL_PIPEUP_OUTPUT_DEPTH: return put<vx_uint32>(ptr, size, kernel->pipeup_output_depth);
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseKernel(vx_kernel* kernel) { return release_handle(kernel, VX_TYPE_KERNEL); }

VX_API_ENTRY vx_kernel VX_API_CALL vxAddUserKernel(vx_context context, const vx_char* name, vx_enum enumeration,
                                                   vx_kernel_f func_ptr, vx_uint32 numParams, vx_kernel_validate_f validate,
                                                   vx_kernel_initialize_f init, vx_kernel_deinitialize_f deinit) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  auto refuse = [context](const char* why, const char* what) {
    log(context, VX_ERROR_INVALID_PARAMETERS, "vxAddUserKernel('%s'): %s", what != nullptr ? what : "(null)", why);
    return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_INVALID_PARAMETERS)));
  };
  if (name == nullptr || name[0] == '\0') return refuse("the name is empty", name);
  if (strnlen(name, VX_MAX_KERNEL_NAME) >= VX_MAX_KERNEL_NAME) return refuse("the name is VX_MAX_KERNEL_NAME characters or longer", "");
  if (func_ptr == nullptr) return refuse("no kernel function", name);
  // validate may be NULL (the conformance suite's streaming kernels have none): nothing is checked and outputs
  // stay as the application made them.
  if (numParams > kMaxKernelParameters) return refuse("too many parameters", name);
  auto* kernel = new (std::nothrow) _vx_kernel(context);
  if (kernel == nullptr) return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_NO_MEMORY)));
  try {
    kernel->kernel_name = name;
    kernel->signature.resize(numParams);
  } catch (...) {
    delete kernel;
    return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_NO_MEMORY)));
  }
  {
    const std::lock_guard guard(context->lock);
    for (vx_kernel k : context->kernels) {
      if (k->removed) continue;
      // Enums may repeat a standard kernel's (the conformance suite registers VX_KERNEL_BASE(VX_ID_DEFAULT, 0) + n);
      // vxGetKernelByEnum then finds the standard kernel. Two user kernels may not share one.
      if (k->kernel_name == kernel->kernel_name || (k->user && k->enumeration == enumeration)) {
        delete kernel;
        return refuse(k->kernel_name == name ? "a kernel of that name exists" : "a kernel with that enum exists", name);
      }
    }
  }
  kernel->enumeration = enumeration;
  kernel->user = true;
  kernel->implemented = true;
  kernel->function = func_ptr;
  kernel->validate = validate;
  kernel->initialize = init;
  kernel->deinitialize = deinit;
  // The context's table holds the kernel until vxRemoveKernel; the caller gets a handle of its own.
  if (adopt(kernel, Hold::internal) == nullptr) return to_handle(reinterpret_cast<vx_kernel>(error_object(context, VX_ERROR_NO_MEMORY)));
  retain(kernel, Hold::external);
  const std::lock_guard guard(context->lock);
  try {
    context->kernels.push_back(kernel);
    // The module's list is of handles: a kernel the application removes and releases is gone when the
    // module unloads, and its stale handle says so.
    if (context->publishing != nullptr) context->publishing->kernels.push_back(to_handle(kernel));
  } catch (...) {
    kernel->removed = true;
  }
  return to_handle(kernel);
}

VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToKernel(vx_kernel kernel, vx_uint32 index, vx_enum dir, vx_enum data_type, vx_enum state) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return VX_ERROR_INVALID_REFERENCE;
  if (!kernel->user || kernel->finalized || kernel->removed) return VX_ERROR_INVALID_REFERENCE;
  if (index >= kernel->signature.size()) return VX_ERROR_INVALID_PARAMETERS;
  // User kernel parameters are inputs or outputs; bidirectional ones are for standard kernels only.
  if (dir != VX_INPUT && dir != VX_OUTPUT) return VX_ERROR_INVALID_PARAMETERS;
  // A whole delay may be read, never written: a kernel writes one of its slots (vxGetReferenceFromDelay).
  if (!is_parameter_type(data_type) || (data_type == VX_TYPE_DELAY && dir != VX_INPUT)) return VX_ERROR_INVALID_PARAMETERS;
  if (state != VX_PARAMETER_STATE_REQUIRED && state != VX_PARAMETER_STATE_OPTIONAL) return VX_ERROR_INVALID_PARAMETERS;
  kernel->signature[index] = {dir, data_type, state};
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxFinalizeKernel(vx_kernel kernel) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return VX_ERROR_INVALID_REFERENCE;
  if (!kernel->user || kernel->removed) return VX_ERROR_INVALID_REFERENCE;
  if (kernel->finalized) return VX_ERROR_INVALID_PARAMETERS;
  for (std::size_t i = 0; i < kernel->signature.size(); ++i) {
    if (kernel->signature[i].type == VX_TYPE_INVALID) {
      log(kernel, VX_ERROR_INVALID_PARAMETERS, "vxFinalizeKernel('%s'): parameter %zu was never added", kernel->kernel_name.c_str(), i);
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  const std::lock_guard guard(kernel->context->lock);
  kernel->finalized = true;
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxRemoveKernel(vx_kernel kernel) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return VX_ERROR_INVALID_REFERENCE;
  if (!kernel->user || kernel->removed) return VX_ERROR_INVALID_PARAMETERS;
  vx_context context = kernel->context;
  {
    const std::lock_guard guard(context->lock);
    kernel->removed = true;
    auto& ks = context->kernels;
    ks.erase(std::remove(ks.begin(), ks.end(), kernel), ks.end());
  }
  // The table's hold goes, and the caller's handle with it; nodes using the kernel keep it alive until they go.
  const bool caller_holds = kernel->external_count.load() > 0;
  (void)release(kernel, Hold::internal);
  return caller_holds ? release(kernel, Hold::external) : VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetKernelAttribute(vx_kernel kernel, vx_enum attribute, const void* ptr, vx_size size) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return VX_ERROR_INVALID_REFERENCE;
  if (!kernel->user || kernel->finalized) return VX_ERROR_NOT_SUPPORTED;  // attributes are set before finalize
  switch (attribute) {
    case VX_KERNEL_LOCAL_DATA_SIZE: return get(ptr, size, kernel->local_data_size);
    case VX_KERNEL_PIPEUP_INPUT_DEPTH:
    case VX_KERNEL_PIPEUP_OUTPUT_DEPTH: {
      vx_uint32 depth = 0;
      if (const vx_status s = get(ptr, size, depth); s != VX_SUCCESS) return s;
      if (depth < 1) return VX_ERROR_INVALID_VALUE;
      (attribute == VX_KERNEL_PIPEUP_INPUT_DEPTH ? kernel->pipeup_input_depth : kernel->pipeup_output_depth) = depth;
      return VX_SUCCESS;
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_parameter VX_API_CALL vxGetKernelParameterByIndex(vx_kernel kernel, vx_uint32 index) {
  if (!valid(kernel, VX_TYPE_KERNEL)) return nullptr;
  return to_handle(make_parameter(kernel, kernel, nullptr, index));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryParameter(vx_parameter parameter, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(parameter, VX_TYPE_PARAMETER)) return VX_ERROR_INVALID_REFERENCE;
  const ParameterSignature& sig = parameter->kernel->signature[parameter->index];
  switch (attribute) {
    case VX_PARAMETER_INDEX: return put<vx_uint32>(ptr, size, parameter->index);
    case VX_PARAMETER_DIRECTION: return put<vx_enum>(ptr, size, sig.direction);
    case VX_PARAMETER_TYPE: return put<vx_enum>(ptr, size, sig.type);
    case VX_PARAMETER_STATE: return put<vx_enum>(ptr, size, sig.state);
    case VX_PARAMETER_REF: {
      // A new handle for the caller to release, as for every reference the API hands out.
      vx_reference ref = parameter->node != nullptr ? parameter->node->arguments[parameter->index] : nullptr;
      const vx_status s = put<vx_reference>(ptr, size, to_handle(ref));
      if (s == VX_SUCCESS && ref != nullptr) retain(ref, Hold::external);
      return s;
    }
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseParameter(vx_parameter* parameter) { return release_handle(parameter, VX_TYPE_PARAMETER); }

}  // extern "C"
