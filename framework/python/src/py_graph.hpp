#pragma once
/// @file
/// @brief visiongraph.Graph: a vg::Graph built in Python or loaded from a graph file, addressed by names,
/// with the bookkeeping Python needs (which graph-parameter buffers the application holds, which numpy
/// arrays the graph reads in place and so keeps alive).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "py_context.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/yaml/builder.hpp"

namespace vg::python {

/// @brief How set_input treats an array: in place when possible (auto), always copied, or in place or
/// an error.
enum class CopyMode { automatic, always, never };

/// @brief A graph seen from Python. The vg::Graph is released before the arrays it reads are let go and
/// before the context it runs in.
class PyGraph {
 public:
  /// @brief An empty graph built against @p context; @p context_ref (the Python Context) is kept alive.
  PyGraph(PyContext& context, pybind11::object context_ref, std::string name);
  /// @brief A graph loaded from a file (with its own context, or one kept alive through @p context_ref).
  PyGraph(std::unique_ptr<yaml::LoadedGraph> loaded, pybind11::object context_ref);
  ~PyGraph();
  PyGraph(const PyGraph&) = delete;
  PyGraph& operator=(const PyGraph&) = delete;

  Graph& graph() const noexcept { return *graph_; }
  PyContext& context() noexcept { return *context_; }
  /// @brief The graph file's description (loaded graphs only; null otherwise).
  const yaml::GraphDesc* desc() const noexcept;

  // ---- names ----
  NodeId node(const std::string& name) const;  ///< vg::Error listing the nodes if unknown
  DataId data(const std::string& name) const;            ///< a data object or graph parameter name
  std::optional<GraphParamId> find_param(const std::string& name) const;  ///< param name or its data's name
  GraphParamId param(const std::string& name) const;     ///< vg::Error listing the graph parameters
  void name_param(std::string name, GraphParamId id);
  std::vector<std::string> param_names() const;
  std::vector<std::string> node_names() const;
  const std::vector<std::string>& data_names() const;
  void add_data_name(std::string name);   ///< the public API has no name lookup by id: kept here
  std::string data_name(DataId id) const;
  bool is_input(GraphParamId param) const;
  /// @brief "graph 'g', data object 'frame'" / "graph 'g', input 'input' (data object 'frame')".
  std::string label(const std::string& name) const;

  // ---- building ----
  /// @brief Write @p value into every buffer of scalar @p data once the graph is verified.
  void set_scalar_after_verify(DataId data, pybind11::object value);
  void verify();
  void release();

  // ---- data in and out ----
  /// @brief Give @p value to buffer @p buffer of @p name: an array is imported in place when the mode
  /// and its layout allow, else copied; scalars and user data are copied. Returns true when imported.
  bool set_input(const std::string& name, pybind11::handle value, std::uint32_t buffer, CopyMode mode);
  pybind11::object get(const std::string& name, std::optional<std::uint32_t> buffer, bool copy, pybind11::handle self) const;
  /// @brief The buffer, checked: vg::Error naming the object when verify has not run or the index is out of range.
  const Buffer& buffer(DataId data, std::optional<std::uint32_t> index) const;

  // ---- running ----
  void process(pybind11::handle inputs, double timeout);
  void start(bool enqueue_outputs);
  std::uint32_t enqueue(const std::string& name, pybind11::handle array, std::optional<std::uint32_t> buffer,
                        const FrameStamp& stamp, double timeout, CopyMode mode);
  std::optional<DequeuedBuffer> dequeue(const std::string& name, double timeout);
  /// @brief Run a node's command by name (or id) with a payload converted to its declared kind; returns
  /// the reply as str (or bytes when it is not text, or when @p raw).
  pybind11::object send_command(const std::string& node, pybind11::handle command, pybind11::handle payload,
                                double timeout, bool raw, pybind11::handle replica);

 private:
  // numpy views over the graph's buffers still alive (each holds a guard that counts itself here):
  // release() refuses while any is, since it frees the memory they show.
  mutable std::size_t live_views_ = 0;
  pybind11::object view_guard(pybind11::handle self) const;

  void require_verified(const char* what) const;
  void reset_buffers();  ///< after verify/release: every buffer with the application, nothing imported
  void forget_import(DataId data, std::uint32_t buffer);

  pybind11::object context_ref_;
  /// Arrays the graph reads in place, by (data, buffer): alive while the graph may read them.
  std::map<std::pair<std::uint32_t, std::uint32_t>, pybind11::object> imports_;
  std::vector<std::pair<DataId, pybind11::object>> pending_scalars_;
  std::vector<std::pair<std::string, GraphParamId>> params_;
  std::vector<std::string> data_names_;
  std::vector<std::vector<bool>> held_;  ///< per graph parameter: buffers the application holds
  std::vector<bool> param_is_input_;
  std::unique_ptr<PyContext> borrowed_context_;
  PyContext* context_ = nullptr;
  std::unique_ptr<yaml::LoadedGraph> loaded_;
  std::unique_ptr<Graph> own_graph_;
  Graph* graph_ = nullptr;
};

/// @brief Bind Graph, Dequeued, stats and the rest of the run-time types.
void bind_graph(pybind11::module_& m);

/// @brief Bind load_graph / load_graph_text.
void bind_loader(pybind11::module_& m);

}  // namespace vg::python
