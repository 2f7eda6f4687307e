#pragma once
// Setting a graph file up for a run: its 'input' parameter matched to the source (size, pixel format,
// input policy, buffers), the build options (built-in modules, variables, NPU memory), and the graph
// parameters the run reads, checked before anything runs.
#include <string>
#include <utility>
#include <vector>

#include "visiongraph/io/source.hpp"
#include "visiongraph/runner/run_options.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace vg::runner {

bool is_mqtt_url(const std::string& spec);

/// A graph name as one path component: letters, digits, '-', '_', and a '.' right after a letter or digit;
/// anything else ('/', a leading dot, "..") becomes '_', so the default output directory stays under out/.
std::string path_safe(const std::string& name);

/// The data object a graph parameter's node binds at its parameter, or null.
const yaml::DataDesc* data_of(const yaml::GraphDesc& desc, const yaml::GraphParameterDesc& gp);

/// The graph's 'input' parameter, with a message naming what the run needs when it is missing.
yaml::GraphParameterDesc& input_parameter(yaml::GraphDesc& desc);

/// Source options from the graph: ask the source for the pixel format the input takes, so a source
/// that already produces it (a camera's NV12) is imported without a conversion.
io::SourceOptions source_options(const RunOptions& opt, const yaml::DataDesc* input);

/// Latest-wins for live or paced input; buffers enough that the producer always has one to fill.
void adapt_to_source(yaml::GraphDesc& desc, yaml::GraphParameterDesc& input, const io::SourceInfo& info, bool latest_wins);

/// The built-in modules, --set variables, --assets, --no-plugins and the NPU memory (--dmabuf).
yaml::BuildOptions build_options(const RunOptions& opt);

/// The graph parameters the run reads, checked against what it can write.
struct RunParams {
  GraphParamId input, detections, annotated;
  std::vector<std::pair<std::string, GraphParamId>> written;  ///< --write NAME: files per frame
};

/// Checks the graph parameters against what the run reads and writes (--write NAMES); throws
/// yaml::LoadError or UsageError naming the parameter.
RunParams check_params(yaml::LoadedGraph& loaded, const yaml::GraphDesc& desc, const std::vector<std::string>& write);

}  // namespace vg::runner
