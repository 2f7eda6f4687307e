#pragma once
/// @file
/// @brief Where `${VG_ASSETS_DIR}` points when nobody says: models and media fetched by
/// scripts/fetch_assets.sh. Found at run time, so no build machine's path is compiled into a binary.

#include <string>

namespace vg::yaml {

/// @brief $VG_ASSETS_DIR when set; else, when this library runs from a build tree (a CMakeCache.txt in
/// one of the folders above it), `<source tree>/.cache/assets`; else, installed,
/// `<prefix>/share/visiongraph/assets` (the prefix found from this library's own location).
std::string default_assets_dir();

}  // namespace vg::yaml
