// vxLoadKernels / vxUnloadKernels, and vxRegisterKernelLibrary for modules linked into the application.
#include "module_loader.hpp"

#include <dlfcn.h>

#include <algorithm>

#include <string>

#include "context.hpp"
#include "kernel.hpp"

namespace vg::openvx {
namespace {

std::string library_file(const std::string& module) {
  const bool is_path = module.find('/') != std::string::npos;
  const bool has_suffix = module.size() > 3 && (module.compare(module.size() - 3, 3, ".so") == 0 ||
                                                module.find(".so.") != std::string::npos);
  return is_path || has_suffix ? module : "lib" + module + ".so";
}

Module* find_module(vx_context context, const char* name) {
  for (Module& m : context->modules) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

/// Runs the module's vxUnpublishKernels, removes kernels it left behind, closes the library.
vx_status unload(vx_context context, Module module) noexcept {
  vx_status status = VX_SUCCESS;
  vx_unpublish_kernels_f unpublish = module.unpublish;
  if (module.handle != nullptr) unpublish = reinterpret_cast<vx_unpublish_kernels_f>(dlsym(module.handle, "vxUnpublishKernels"));
  if (unpublish != nullptr) {
    status = unpublish(to_handle(context));
    if (status != VX_SUCCESS) log(context, status, "vxUnloadKernels: vxUnpublishKernels of module '%s' failed", module.name.c_str());
  }
  for (vx_kernel kernel : module.kernels) {  // handles: a kernel removed and released since is refused
    if (valid(kernel, VX_TYPE_KERNEL) && !kernel->removed) {
      kernel->removed = true;
      {
        const std::lock_guard guard(context->lock);
        auto& ks = context->kernels;
        ks.erase(std::remove(ks.begin(), ks.end(), kernel), ks.end());
      }
      release(kernel, Hold::internal);
    }
  }
  if (module.handle != nullptr) dlclose(module.handle);
  return status;
}

RegisteredLibrary* find_registered(vx_context context, const char* name) {
  for (RegisteredLibrary& r : context->registered_libraries) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

}  // namespace

void unload_all_modules(vx_context context) noexcept {
  for (;;) {
    Module module;
    {
      const std::lock_guard guard(context->lock);
      if (context->modules.empty()) return;
      module = std::move(context->modules.back());
      context->modules.pop_back();
    }
    (void)unload(context, std::move(module));
  }
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_status VX_API_CALL vxLoadKernels(vx_context context, const vx_char* module) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (module == nullptr || module[0] == '\0') return VX_ERROR_INVALID_PARAMETERS;
  {
    const std::lock_guard guard(context->lock);
    if (context->publishing != nullptr) return VX_ERROR_INVALID_PARAMETERS;  // from inside a vxPublishKernels
    if (find_module(context, module) != nullptr) return VX_SUCCESS;          // loaded once per context
  }
  // A registered library first: no shared library to open.
  vx_publish_kernels_f publish = nullptr;
  vx_unpublish_kernels_f registered_unpublish = nullptr;
  {
    const std::lock_guard guard(context->lock);
    if (const RegisteredLibrary* r = find_registered(context, module)) {
      publish = r->publish;
      registered_unpublish = r->unpublish;
    }
  }
  void* handle = nullptr;
  if (publish == nullptr) {
    std::string file;
    try {
      file = library_file(module);
    } catch (...) {
      return VX_ERROR_NO_MEMORY;
    }
    handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      log(context, VX_ERROR_INVALID_PARAMETERS, "vxLoadKernels: cannot load module '%s' (%s): %s", module, file.c_str(),
          why != nullptr ? why : "unknown error");
      return VX_ERROR_INVALID_PARAMETERS;
    }
    publish = reinterpret_cast<vx_publish_kernels_f>(dlsym(handle, "vxPublishKernels"));
    if (publish == nullptr) {
      log(context, VX_ERROR_INVALID_PARAMETERS, "vxLoadKernels: module '%s' (%s) exports no vxPublishKernels", module, file.c_str());
      dlclose(handle);
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  Module loading;
  try {
    loading.name = module;
  } catch (...) {
    if (handle != nullptr) dlclose(handle);
    return VX_ERROR_NO_MEMORY;
  }
  loading.handle = handle;
  loading.unpublish = registered_unpublish;
  {
    const std::lock_guard guard(context->lock);
    context->publishing = &loading;
  }
  const vx_status status = publish(to_handle(context));  // user code: no lock held
  {
    const std::lock_guard guard(context->lock);
    context->publishing = nullptr;
  }
  if (status != VX_SUCCESS) {
    log(context, status, "vxLoadKernels: vxPublishKernels of module '%s' failed", module);
    (void)unload(context, std::move(loading));
    return status;
  }
  const std::lock_guard guard(context->lock);
  try {
    context->modules.push_back(std::move(loading));
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxRegisterKernelLibrary(vx_context context, const vx_char* module,
                                                           vx_publish_kernels_f publish, vx_unpublish_kernels_f unpublish) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (module == nullptr || module[0] == '\0' || publish == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const std::lock_guard guard(context->lock);
  try {
    if (RegisteredLibrary* r = find_registered(context, module)) {  // again: the new functions serve the next load
      r->publish = publish;
      r->unpublish = unpublish;
      return VX_SUCCESS;
    }
    context->registered_libraries.push_back(RegisteredLibrary{module, publish, unpublish});
  } catch (...) {
    return VX_ERROR_NO_MEMORY;
  }
  return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxUnloadKernels(vx_context context, const vx_char* module) {
  if (!valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
  if (module == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  Module unloading;
  {
    const std::lock_guard guard(context->lock);
    Module* m = find_module(context, module);
    if (m == nullptr) return VX_ERROR_INVALID_PARAMETERS;
    unloading = std::move(*m);
    context->modules.erase(context->modules.begin() + (m - context->modules.data()));
  }
  return unload(context, std::move(unloading));
}

}  // extern "C"
