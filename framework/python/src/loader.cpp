// visiongraph.load_graph / load_graph_text: a graph file -> GraphDesc, adjusted from Python (sizes,
// attributes, graph parameters, pipeline depth), then built and verified by the YAML library.
#include <pybind11/stl.h>

#include <cmath>

#include "visiongraph/runner/builtin_modules.hpp"
#include "convert.hpp"
#include "py_graph.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

/// A Python value written as the graph file would have it, so the builder types it against the kernel's
/// declaration exactly as it types the file's own values (an int for a number attribute is fine).
void set_attribute_text(yaml::NodeDesc& node, const std::string& key, py::handle value) {
  yaml::AttributeDesc a;
  a.key = key;
  a.position = node.position;
  auto text_of = [&](py::handle v) -> std::string {
    if (PyBool_Check(v.ptr())) return v.cast<bool>() ? "true" : "false";
    if (PyFloat_Check(v.ptr())) {
      const double d = v.cast<double>();
      if (!std::isfinite(d)) throw py::value_error("node '" + node.name + "', attribute '" + key + "': not a finite number");
      return py::repr(v).cast<std::string>();  // round-trips
    }
    if (PyLong_Check(v.ptr())) return py::str(v).cast<std::string>();
    if (py::hasattr(v, "__fspath__")) return py::str(v.attr("__fspath__")()).cast<std::string>();
    if (py::isinstance<py::str>(v)) return v.cast<std::string>();
    // numpy scalars and other numbers
    if (py::isinstance(v, py::module_::import("numbers").attr("Integral"))) return py::str(py::int_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
    if (py::isinstance(v, py::module_::import("numbers").attr("Real"))) return py::repr(py::float_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
    throw py::type_error("node '" + node.name + "', attribute '" + key + "': unsupported value type " +
                         py::str(py::type::handle_of(v).attr("__name__")).cast<std::string>());
  };
  if (py::isinstance<py::str>(value) || !py::hasattr(value, "__iter__")) {
    a.scalar = text_of(value);
    a.quoted = py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__");
  } else {
    a.is_list = true;
    for (py::handle item : py::iter(value)) a.items.push_back(text_of(item));
  }
  for (auto& existing : node.attributes)
    if (existing.key == key) {
      existing = std::move(a);
      return;
    }
  node.attributes.push_back(std::move(a));
}

yaml::NodeDesc& node_of(yaml::GraphDesc& desc, const std::string& name) {
  if (yaml::NodeDesc* n = desc.find_node(name)) return *n;
  std::string names;
  for (const auto& n : desc.nodes) names += (names.empty() ? "" : ", ") + n.name;
  throw yaml::LoadError(desc.position, "attributes", "no node '" + name + "' in the graph file (nodes: " + names + ")");
}

/// attributes={"node.key": value} or {"node": {"key": value}}.
void apply_attributes(yaml::GraphDesc& desc, const py::dict& attributes) {
  for (auto [k, v] : attributes) {
    const std::string key = py::str(k);
    if (py::isinstance<py::dict>(v)) {
      yaml::NodeDesc& node = node_of(desc, key);
      for (auto [ak, av] : v.cast<py::dict>()) set_attribute_text(node, py::str(ak), av);
      continue;
    }
    const auto dot = key.rfind('.');
    if (dot == std::string::npos)
      throw py::value_error("attributes: key '" + key + "' must be 'NODE.ATTRIBUTE' (or give {NODE: {ATTRIBUTE: VALUE}})");
    set_attribute_text(node_of(desc, key.substr(0, dot)), key.substr(dot + 1), v);
  }
}

/// graph_parameters={"input": {"buffers": 6, "policy": "latest_wins", "queue_capacity": 2}}.
void apply_graph_parameters(yaml::GraphDesc& desc, const py::dict& params) {
  for (auto [k, v] : params) {
    const std::string name = py::str(k);
    yaml::GraphParameterDesc* gp = desc.find_graph_parameter(name);
    if (!gp) throw yaml::LoadError(desc.position, "graph_parameters", "no graph parameter '" + name + "' in the graph file");
    for (auto [sk, sv] : v.cast<py::dict>()) {
      const std::string setting = py::str(sk);
      if (setting == "buffers") gp->buffers = sv.cast<std::size_t>();
      else if (setting == "policy") gp->policy = input_policy_from(sv.cast<std::string>());
      else if (setting == "queue_capacity") gp->queue_capacity = sv.cast<std::size_t>();
      else throw py::value_error("graph_parameters['" + name + "']: unknown setting '" + setting + "' (buffers, policy, queue_capacity)");
    }
  }
}

std::unique_ptr<PyGraph> build(yaml::GraphDesc desc, py::dict variables, py::object attributes, py::object size,
                               py::object context, bool verify, bool use_environment, bool allow_module_libraries,
                               py::object graph_parameters, py::object pipeline_depth) {
  if (!size.is_none()) {
    // (width, height), [width, height], or one number for a square; anything else is a clear TypeError
    // naming the argument, not a binding's cast error.
    std::pair<std::uint32_t, std::uint32_t> wh{0, 0};
    if (py::isinstance<py::int_>(size) && !py::isinstance<py::bool_>(size)) {
      const long side = size.cast<long>();
      if (side <= 0) throw py::value_error("size=" + std::to_string(side) + ": must be positive");
      wh = {static_cast<std::uint32_t>(side), static_cast<std::uint32_t>(side)};
    } else if ((py::isinstance<py::tuple>(size) || py::isinstance<py::list>(size)) && py::len(size) == 2 &&
               py::isinstance<py::int_>(size[py::int_(0)]) && py::isinstance<py::int_>(size[py::int_(1)])) {
      const long w = size[py::int_(0)].cast<long>(), h = size[py::int_(1)].cast<long>();
      if (w <= 0 || h <= 0)
        throw py::value_error("size=(" + std::to_string(w) + ", " + std::to_string(h) + "): width and height must be positive");
      wh = {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)};
    } else {
      throw py::type_error("size must be (width, height) or one int for a square, got " +
                           std::string(py::str(py::repr(size))));
    }
    desc.set_auto_size(wh.first, wh.second);
  }
  if (!attributes.is_none()) apply_attributes(desc, attributes.cast<py::dict>());
  if (!graph_parameters.is_none()) apply_graph_parameters(desc, graph_parameters.cast<py::dict>());
  if (!pipeline_depth.is_none()) desc.pipeline_depth = pipeline_depth.cast<std::size_t>();

  yaml::BuildOptions options;
  options.modules = runner::builtin_modules();
  options.variables["VG_ASSETS_DIR"] = runner::default_assets_dir();
  for (auto [k, v] : variables) options.variables[py::str(k).cast<std::string>()] = py::str(v).cast<std::string>();
  options.use_environment = use_environment;
  options.allow_module_libraries = allow_module_libraries;
  options.verify = verify;
  if (!context.is_none()) options.context = &context.cast<PyContext&>().get();
  std::unique_ptr<yaml::LoadedGraph> loaded;
  {
    py::gil_scoped_release unlocked;  // modules load, nodes are created (a model is read) on the targets
    loaded = yaml::build(desc, options);
  }
  return std::make_unique<PyGraph>(std::move(loaded), context);
}

const char* const kLoadDoc =
    "Load a graph file (docs/yaml.md), build it and by default verify it. variables: values of ${NAME} "
    "(like `visiongraph run --set NAME=VALUE`; VG_ASSETS_DIR defaults to $VG_ASSETS_DIR, else the source "
    "tree's .cache/assets). size=(width, height) (or one int for a square) fills `width: auto`/`height: auto`. attributes: "
    "{'node.key': value} or {'node': {'key': value}}, typed as the kernel declares. graph_parameters: "
    "{'input': {'buffers': N, 'policy': 'latest_wins', 'queue_capacity': N}}. context: build into this "
    "Context (then the file must not declare targets). Raises visiongraph.LoadError naming file, line, "
    "column and key.";

}  // namespace

void bind_loader(py::module_& m) {
  m.def(
      "load_graph",
      [](const std::string& path, py::dict variables, py::object attributes, py::object size, py::object context,
         bool verify, bool use_environment, bool allow_module_libraries, py::object graph_parameters,
         py::object pipeline_depth) {
        return build(yaml::parse_file(path), variables, attributes, size, context, verify, use_environment,
                     allow_module_libraries, graph_parameters, pipeline_depth);
      },
      py::arg("path"), py::kw_only(), py::arg("variables") = py::dict(), py::arg("attributes") = py::none(),
      py::arg("size") = py::none(), py::arg("context") = py::none(), py::arg("verify") = true,
      py::arg("use_environment") = true, py::arg("allow_module_libraries") = true,
      py::arg("graph_parameters") = py::none(), py::arg("pipeline_depth") = py::none(), kLoadDoc);
  m.def(
      "load_graph_text",
      [](const std::string& text, const std::string& file, py::dict variables, py::object attributes, py::object size,
         py::object context, bool verify, bool use_environment, bool allow_module_libraries, py::object graph_parameters,
         py::object pipeline_depth) {
        return build(yaml::parse_string(text, file), variables, attributes, size, context, verify, use_environment,
                     allow_module_libraries, graph_parameters, pipeline_depth);
      },
      py::arg("text"), py::arg("file") = "<string>", py::kw_only(), py::arg("variables") = py::dict(),
      py::arg("attributes") = py::none(), py::arg("size") = py::none(), py::arg("context") = py::none(),
      py::arg("verify") = true, py::arg("use_environment") = true, py::arg("allow_module_libraries") = true,
      py::arg("graph_parameters") = py::none(), py::arg("pipeline_depth") = py::none(),
      "load_graph for graph text; `file` names it in messages and anchors relative module paths.");
}

}  // namespace vg::python
