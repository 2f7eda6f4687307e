#pragma once
/// @file
/// @brief The kernel modules built into the Python module (vg.example, and vg.detection / vg.inference
/// when they are part of the build) and the default ${VARIABLES} of graph files.

#include <map>
#include <string>
#include <vector>

#include "visiongraph/yaml/builder.hpp"

namespace vg::python {

/// @brief Name -> factory of every built-in module.
const std::map<std::string, yaml::ModuleFactory, std::less<>>& builtin_modules();

/// @brief Names of the built-in modules, sorted.
std::vector<std::string> builtin_module_names();

/// @brief VG_ASSETS_DIR for graph files: the environment's, else the source tree's .cache/assets.
std::string default_assets_dir();

}  // namespace vg::python
