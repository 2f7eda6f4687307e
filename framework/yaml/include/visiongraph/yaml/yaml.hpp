#pragma once
/// @file
/// @brief Umbrella header of the YAML graph loader (library vg_yaml).
/// @code
/// #include <visiongraph/yaml/yaml.hpp>
/// vg::yaml::BuildOptions options;
/// options.modules["vg.example"] = [] { return vg::examples::make_module(); };
/// auto loaded = vg::yaml::load_file("graph.yaml", options);
/// @endcode

#include "visiongraph/yaml/assets_dir.hpp"
#include "visiongraph/yaml/builder.hpp"
#include "visiongraph/yaml/graph_desc.hpp"
#include "visiongraph/yaml/parser.hpp"
#include "visiongraph/yaml/source_position.hpp"
