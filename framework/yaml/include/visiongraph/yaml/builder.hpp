#pragma once
/// @file
/// @brief GraphDesc -> a running-ready vg::Context + vg::Graph, owned by one RAII object.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "visiongraph/graph/graph.hpp"
#include "visiongraph/kernel/module.hpp"
#include "visiongraph/runtime/context.hpp"
#include "visiongraph/yaml/graph_desc.hpp"

namespace vg::yaml {

/// @brief Makes a built-in module by name (e.g. "vg.detection" -> vg::detection::make_module).
using ModuleFactory = std::function<Module()>;

/// @brief What the application gives the builder.
struct BuildOptions {
  /// Built-in modules the graph file may name in `modules:`.
  std::map<std::string, ModuleFactory, std::less<>> modules;
  /// Values of ${NAME} in string attributes and module paths; looked up before the environment.
  std::map<std::string, std::string, std::less<>> variables;
  /// Fall back to the process environment for ${NAME} not in variables.
  bool use_environment = true;
  /// Allow `modules: [{library: ...}]` (dlopen). The fuzzer turns it off.
  bool allow_module_libraries = true;
  /// Run Graph::verify() (and write scalar `value:`s). Off: the graph is only built.
  bool verify = true;
  /// Build into this context instead of a new one (then `targets:` must be empty; modules already
  /// loaded into it are not loaded again). Not owned; must outlive the LoadedGraph.
  Context* context = nullptr;
  /// Called once the context exists and its modules are loaded, before the graph is built (install
  /// target allocators, ...). What it returns is kept alive until the graph is released and
  /// destroyed before the context.
  std::function<std::shared_ptr<void>(Context&)> prepare_context;
};

/// @brief A built graph and the context it runs in. Destroying it releases the graph (stopping it)
/// before its context, so nothing is left running.
/// @note Thread safety: as vg::Graph.
/// @code
/// vg::yaml::BuildOptions options;
/// options.modules["vg.example"] = [] { return vg::examples::make_module(); };
/// auto loaded = vg::yaml::load_file("graph.yaml", options);   // throws LoadError
/// vg::Status s = loaded->graph().process();
/// @endcode
class LoadedGraph {
 public:
  LoadedGraph(const LoadedGraph&) = delete;
  LoadedGraph& operator=(const LoadedGraph&) = delete;
  ~LoadedGraph();

  Context& context() noexcept { return *context_; }
  Graph& graph() noexcept { return *graph_; }
  const Graph& graph() const noexcept { return *graph_; }
  const GraphDesc& desc() const noexcept { return desc_; }

  /// @brief The graph parameter named @p name in `graph_parameters:` (invalid id if none).
  GraphParamId graph_parameter(std::string_view name) const noexcept;
  /// @brief The node called @p name (invalid id if none).
  NodeId node(std::string_view name) const noexcept { return graph_->find_node(name); }
  DataId data(std::string_view name) const noexcept { return graph_->find_data(name); }

 private:
  friend std::unique_ptr<LoadedGraph> build(const GraphDesc&, const BuildOptions&);
  explicit LoadedGraph(GraphDesc desc);
  GraphDesc desc_;
  std::unique_ptr<Context> owned_context_;
  Context* context_ = nullptr;
  std::shared_ptr<void> attachment_;
  std::unique_ptr<Graph> graph_;
  std::vector<std::pair<std::string, GraphParamId>> params_;
};

/// @brief Build (and by default verify) the graph a description describes. Throws LoadError naming
/// the file position of the fault; vg::Error from the framework is re-reported at the node's position.
std::unique_ptr<LoadedGraph> build(const GraphDesc& desc, const BuildOptions& options);

/// @brief parse_file + build.
std::unique_ptr<LoadedGraph> load_file(const std::string& path, const BuildOptions& options);

/// @brief Replace ${NAME}, ${NAME:-default} and $$ in @p text. Throws LoadError at @p where for an
/// undefined name or a malformed reference.
std::string substitute(std::string_view text, const BuildOptions& options, const SourcePosition& where,
                       std::string_view key);

}  // namespace vg::yaml
