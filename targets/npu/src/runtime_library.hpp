#pragma once
// Opening a vendor library at run time (librknnrt, librga) and binding its symbols, with errors that name
// the path and what to do.
#include <dlfcn.h>

#include <string>
#include <string_view>
#include <type_traits>

#include "visiongraph/core/error.hpp"

namespace vg::npu::detail {

/// dlopen(@p path) with RTLD_LOCAL, which keeps the library's symbols out of the global namespace: a
/// stand-in and the real library can never interpose on each other. Throws vg::Error
/// "PATH not found (dlopen: ...); HINT".
inline void* open_runtime_library(const std::string& path, std::string_view hint) {
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw Error(path + " not found (dlopen: " + (why ? why : "unknown error") + "); " + std::string(hint));
  }
  return handle;
}

/// Binds @p fn to symbol @p name (null when absent and not @p required); a missing required symbol throws
/// "PATH does not export NAME: NEED".
template <class Fn>
void bind_symbol(void* handle, const std::string& path, Fn& fn, const char* name, bool required, std::string_view need) {
  void* sym = dlsym(handle, name);
  if (sym == nullptr && required) throw Error(path + " does not export " + name + ": " + std::string(need));
  fn = reinterpret_cast<std::remove_reference_t<Fn>>(sym);
}

}  // namespace vg::npu::detail
