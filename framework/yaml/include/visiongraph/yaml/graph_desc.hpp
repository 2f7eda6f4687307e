#pragma once
/// @file
/// @brief The plain description of a graph file: what parse_file() returns and build() consumes.
/// Each member maps one-to-one onto a key of the YAML schema (docs/yaml.md) and onto a C++ call.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/data/meta.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/runtime/context.hpp"
#include "visiongraph/yaml/source_position.hpp"

namespace vg::yaml {

/// @brief `targets: {NAME: {kind, core, queue_capacity}}` -> vg::TargetConfig.
struct TargetDesc {
  TargetConfig config;
  SourcePosition position;
};

/// @brief `modules: [NAME | {library: PATH}]` -> a built-in factory or Context::load_module_library.
struct ModuleDesc {
  std::string name;     ///< built-in module name (resolved through BuildOptions::modules)
  std::string library;  ///< shared-library path (relative paths: to the graph file's directory)
  SourcePosition position;
};

/// @brief `data: {NAME: {kind, virtual, ...metadata}}` -> Graph::add_data / Graph::add_virtual.
struct DataDesc {
  std::string name;
  DataMeta meta;            ///< kind and metadata (meta.kind is always set)
  bool is_virtual = false;  ///< `virtual: true`: the writing node's validate sets the metadata
  bool device_only = false; ///< `memory: device`: no CPU address (Graph::set_device_only); default `host`
  bool width_auto = false;  ///< image `width: auto`: the application fills it in (set_auto_size)
  bool height_auto = false;
  std::optional<double> value;  ///< scalar `value:`: written into every buffer after verify
  SourcePosition position;      ///< of the name
  std::vector<std::pair<std::string, SourcePosition>> keys;  ///< every key given, for messages

  /// @brief Position of @p key, or of the object's name when the key was not given.
  const SourcePosition& where(std::string_view key) const noexcept;
};

/// @brief One attribute as written: typed only at build time, against the kernel's declaration.
struct AttributeDesc {
  std::string key;
  /// Set when the application assigned a typed value (set_attribute); then the text below is ignored.
  std::optional<AttrValue> value;
  bool is_list = false;
  std::string scalar;              ///< scalar text (${VAR} not yet substituted)
  bool quoted = false;             ///< the scalar was quoted (always a string)
  std::vector<std::string> items;  ///< list items (is_list)
  SourcePosition position;         ///< of the value
};

/// @brief `parameters: {PARAM: DATA}` entry -> Graph::bind.
struct BindingDesc {
  std::string param;
  std::string data;
  SourcePosition position;
};

/// @brief `nodes: {NAME: {kernel, target, parameters, attributes}}` -> Graph::add_node, set_target, bind,
/// set_attribute.
struct NodeDesc {
  std::string name;
  std::string kernel;
  std::string target;  ///< empty = the framework chooses
  /// `target: [npu0, npu1, npu2]`: one replica per target (Graph::set_targets); empty for one target.
  std::vector<std::string> replica_targets;
  std::int64_t deadline_ms = -1;         ///< -1 = the kernel's (Graph::set_deadline); 0 = none
  std::int64_t create_deadline_ms = -1;  ///< -1 = the kernel's
  std::vector<BindingDesc> bindings;
  std::vector<AttributeDesc> attributes;
  SourcePosition position;         ///< of the name
  SourcePosition kernel_position;
  SourcePosition target_position;

  /// @brief Replace or add an attribute with a typed value (the application overriding the file).
  void set_attribute(std::string key, AttrValue value);
  const AttributeDesc* find_attribute(std::string_view key) const noexcept;
};

/// @brief `graph_parameters: {NAME: {node, parameter, buffers, policy, queue_capacity}}` ->
/// Graph::add_graph_parameter + Graph::set_input_policy.
struct GraphParameterDesc {
  std::string name;  ///< how the application finds it (e.g. "input", "detections", "annotated")
  std::string node;
  std::string param;
  std::size_t buffers = 0;  ///< 0 (`auto`, the default): Graph::kAutoBuffers, decided at verify from the depth
  std::optional<InputPolicy> policy;  ///< inputs only; unset = the framework default (block)
  std::size_t queue_capacity = 1;
  SourcePosition position;
  SourcePosition node_position;
  SourcePosition param_position;
};

/// @brief `streams: [{name: NAME, input: SOURCE}]`: the inputs `visiongraph run` feeds, one graph instance
/// each (docs/service.md). The graph itself does not use it; an application running several streams does.
struct StreamDesc {
  std::string name;   ///< a path component: letters, digits, '-', '_' (its outputs go to OUT/<name>/)
  std::string input;  ///< a source spec (docs/sources.md); ${NAME} is substituted by the application
  SourcePosition position;  ///< of the entry
};

/// @brief A stream name is a path component and an MQTT topic level: 1..64 of letters, digits, '-', '_'.
bool is_stream_name(std::string_view name) noexcept;

/// @brief A whole graph file.
/// @code
/// vg::yaml::GraphDesc desc = vg::yaml::parse_file("apps/face_detect/face_detect.yaml");
/// desc.set_auto_size(1280, 720);                        // width/height: auto
/// desc.find_graph_parameter("input")->policy = vg::InputPolicy::latest_wins;
/// auto loaded = vg::yaml::build(desc, options);
/// @endcode
struct GraphDesc {
  std::string file;  ///< path as given to parse_file (or the name given to parse_string)
  std::string name = "graph";
  std::string description;
  std::vector<TargetDesc> targets;  ///< empty = vg::ContextConfig::defaults()
  std::vector<ModuleDesc> modules;
  std::vector<DataDesc> data;
  std::vector<NodeDesc> nodes;
  std::vector<GraphParameterDesc> graph_parameters;
  std::vector<StreamDesc> streams;      ///< `streams:`; empty when the file names no inputs
  std::size_t pipeline_depth = 0;       ///< 0 = one frame per target used
  std::size_t telemetry_capacity = 0;   ///< 0 = the framework default
  int spin_us = -1;                     ///< `spin_us:` -> ContextConfig::spin_us; -1 = the framework default
  SourcePosition position;              ///< of the document

  DataDesc* find_data(std::string_view name) noexcept;
  const DataDesc* find_data(std::string_view name) const noexcept;
  NodeDesc* find_node(std::string_view name) noexcept;
  const NodeDesc* find_node(std::string_view name) const noexcept;
  GraphParameterDesc* find_graph_parameter(std::string_view name) noexcept;
  const GraphParameterDesc* find_graph_parameter(std::string_view name) const noexcept;
  /// @brief Fill every `width: auto` / `height: auto` of image objects. Returns how many were filled.
  std::size_t set_auto_size(std::uint32_t width, std::uint32_t height);
  /// @brief True if some image still has `auto` width or height.
  bool has_auto_size() const noexcept;
  /// @brief The context configuration the `targets:` section describes.
  ContextConfig context_config() const;
};

}  // namespace vg::yaml
