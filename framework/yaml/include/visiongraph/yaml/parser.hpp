#pragma once
/// @file
/// @brief Graph files -> GraphDesc. Checks the schema (keys, value types, references between
/// sections); kernels, attributes and parameters are checked against the registry by build().

#include <string>
#include <string_view>

#include "visiongraph/yaml/graph_desc.hpp"

namespace vg::yaml {

/// @brief Largest graph file accepted (bytes).
inline constexpr std::size_t kMaxGraphFileSize = 1u << 20;

/// @brief Read and parse a graph file. Throws LoadError (file not found, malformed YAML, schema errors).
GraphDesc parse_file(const std::string& path);

/// @brief Parse graph text; @p file names it in messages and anchors relative module paths.
GraphDesc parse_string(std::string_view text, std::string file = "<string>");

}  // namespace vg::yaml
