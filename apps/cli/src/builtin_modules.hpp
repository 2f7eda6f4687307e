#pragma once
/// @file
/// @brief The modules built into the visiongraph command and the default ${VARIABLES} of graph files.

#include <map>
#include <string>

#include "visiongraph/yaml/builder.hpp"

namespace vg::cli {

/// @brief Build options with every built-in module ("vg.example", "vg.detection", "vg.inference" when
/// built) and the default variables (VG_ASSETS_DIR: environment, else the repository's .cache/assets).
yaml::BuildOptions default_build_options();

/// @brief The assets directory the command uses when neither --assets nor VG_ASSETS_DIR is given.
std::string default_assets_dir();

}  // namespace vg::cli
