#pragma once
/// @file
/// @brief The kernel modules a graph file may name in `modules:` without a library path, as the
/// `visiongraph` command and the Python module both build them, and the default ${VARIABLES}.

#include <map>
#include <string>
#include <vector>

#include "visiongraph/yaml/builder.hpp"

namespace vg::runner {

/// @brief Every built-in module by name: vg.example, vg.vision, and vg.detection, vg.inference, vg.rga
/// when this build has them.
const std::map<std::string, yaml::ModuleFactory, std::less<>>& builtin_modules();

/// @brief Their names, sorted.
std::vector<std::string> builtin_module_names();

/// @brief Build options with every built-in module and VG_ASSETS_DIR (environment, else the default).
yaml::BuildOptions default_build_options();

/// @brief The assets directory used when neither --assets nor VG_ASSETS_DIR is given.
std::string default_assets_dir();

}  // namespace vg::runner
