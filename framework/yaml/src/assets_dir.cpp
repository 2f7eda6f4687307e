#include "visiongraph/yaml/assets_dir.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace vg::yaml {

namespace {

namespace fs = std::filesystem;

// This library's own folder (dladdr of a function in it).
fs::path library_dir() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&default_assets_dir), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  const fs::path path = fs::weakly_canonical(info.dli_fname, ec);
  return ec ? fs::path(info.dli_fname).parent_path() : path.parent_path();
}

// The source tree of a build tree: CMakeCache.txt's CMAKE_HOME_DIRECTORY.
std::string source_dir_of(const fs::path& cache) {
  std::ifstream in(cache);
  const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  return {};
}

}  // namespace

std::string default_assets_dir() {
  if (const char* env = std::getenv("VG_ASSETS_DIR"); env != nullptr && *env != '\0') return env;
  const fs::path here = library_dir();
  if (here.empty()) return ".cache/assets";
  // A build tree: the library sits a few folders below the CMakeCache.txt of its build.
  fs::path dir = here;
  for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
    std::error_code ec;
    if (fs::exists(dir / "CMakeCache.txt", ec)) {
      if (const std::string source = source_dir_of(dir / "CMakeCache.txt"); !source.empty())
        return (fs::path(source) / ".cache" / "assets").string();
    }
    if (dir == dir.root_path()) break;
  }
  // Installed: <prefix>/<libdir>/libvisiongraph_yaml.so -> <prefix>/share/visiongraph/assets.
  if (fs::path(VG_INSTALL_LIBDIR).is_absolute()) return "/usr/share/visiongraph/assets";
  fs::path prefix = here;
  for (const auto& part : fs::path(VG_INSTALL_LIBDIR)) {
    (void)part;
    prefix = prefix.parent_path();
  }
  return (prefix / "share" / "visiongraph" / "assets").string();
}

}  // namespace vg::yaml
