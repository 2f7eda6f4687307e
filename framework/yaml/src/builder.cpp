// GraphDesc -> Context + Graph. Every framework error is re-reported at the file position it concerns.

#include "visiongraph/yaml/builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/yaml/parser.hpp"

namespace vg::yaml {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc{} && ptr == last && first != last;
}

bool parse_double(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, out, std::chars_format::general);
  return ec == std::errc{} && ptr == last && first != last && std::isfinite(out);
}

/// "; did you mean 'X'?" when one of @p names is close to @p name, else "".
std::string hint(const std::string& name, const std::vector<std::string>& names) {
  const std::string h = did_you_mean(name, names);
  return h.empty() ? h : "; " + h;
}

/// The name quoted after @p marker ("node '" -> the node name), or "".
std::string quoted_after(const std::string& message, const std::string& marker) {
  const auto at = message.find(marker);
  if (at == std::string::npos) return {};
  const auto start = at + marker.size();
  const auto end = message.find('\'', start);
  return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

class Builder {
 public:
  Builder(const GraphDesc& desc, const BuildOptions& options) : desc_(desc), options_(options) {
    variables_ = options.variables;
    const auto dir = std::filesystem::path(desc.file).parent_path();
    if (!variables_.count("GRAPH_DIR")) variables_["GRAPH_DIR"] = dir.empty() ? "." : dir.string();
  }

  void load_modules(Context& ctx) {
    for (const ModuleDesc& m : desc_.modules) {
      if (!m.name.empty()) {
        if (ctx.has_module(m.name)) continue;
        auto it = options_.modules.find(m.name);
        if (it == options_.modules.end()) {
          std::vector<std::string> known;
          for (const auto& [name, factory] : options_.modules) known.push_back(name);
          throw LoadError(m.position, "modules",
                          "unknown module '" + m.name + "' (built-in modules: " +
                              (known.empty() ? std::string("none") : join(known)) +
                              "; a shared library is given as {library: PATH})" + hint(m.name, known));
        }
        rethrow_at(m.position, "modules", [&] { ctx.load_module(it->second()); });
      } else {
        if (!options_.allow_module_libraries)
          throw LoadError(m.position, "modules", "module libraries are not allowed here");
        std::filesystem::path path = substitute(m.library, m.position, "library");
        if (path.is_relative() && path.string().find('/') != std::string::npos)
          path = std::filesystem::path(variables_.at("GRAPH_DIR")) / path;
        rethrow_at(m.position, "modules", [&] { (void)ctx.load_module_library(path.string()); });
      }
    }
  }

  void add_data(Graph& g) {
    for (const DataDesc& d : desc_.data) {
      if (d.width_auto || d.height_auto) {
        const char* key = d.width_auto ? "width" : "height";
        throw LoadError(d.where(key), key, "data object '" + d.name +
                                               "' is 'auto' but the application did not set it (give a size in "
                                               "pixels, or run it with an application that fills it in, e.g. "
                                               "'visiongraph run')");
      }
      rethrow_at(d.position, d.name, [&] {
        if (d.is_virtual) {
          (void)g.add_virtual(d.name, d.meta.kind);
        } else {
          const DataId id = g.add_data(d.name, d.meta);
          if (d.device_only) g.set_device_only(id);
        }
      });
    }
  }

  void add_nodes(Context& ctx, Graph& g) {
    for (const NodeDesc& n : desc_.nodes) {
      const KernelInfo* info = ctx.find_kernel(n.kernel);
      if (!info) {
        auto names = ctx.kernel_names();
        throw LoadError(n.kernel_position, "kernel",
                        "unknown kernel '" + n.kernel + "' in node '" + n.name + "' (" +
                            (names.empty() ? std::string("no kernels are registered") : "registered: " + join(names)) +
                            "; list the module that provides it under 'modules:')" + hint(n.kernel, names));
      }
      const KernelDecl& decl = info->decl;
      NodeId id;
      rethrow_at(n.position, n.name, [&] { id = g.add_node(n.name, n.kernel); });
      if (!n.replica_targets.empty())
        rethrow_at(n.target_position, "target", [&] { g.set_targets(id, n.replica_targets); });
      else if (!n.target.empty())
        rethrow_at(n.target_position, "target", [&] { g.set_target(id, n.target); });
      g.set_deadline(id, std::chrono::milliseconds(n.deadline_ms), std::chrono::milliseconds(n.create_deadline_ms));
      for (const BindingDesc& b : n.bindings) {
        if (decl.param_index(b.param) < 0) {
          std::vector<std::string> names;
          for (const auto& p : decl.params()) names.push_back(p.name);
          throw LoadError(b.position, b.param, "unknown parameter '" + b.param + "' of kernel '" + n.kernel +
                                                   "' in node '" + n.name + "' (parameters: " + join(names) + ")" +
                                                   hint(b.param, names));
        }
        rethrow_at(b.position, b.param, [&] { g.bind(id, b.param, g.find_data(b.data)); });
      }
      for (const ParamDecl& p : decl.params()) {
        const bool bound = std::any_of(n.bindings.begin(), n.bindings.end(), [&](const BindingDesc& b) { return b.param == p.name; });
        if (p.required && !bound)
          throw LoadError(n.position, "parameters",
                          "missing parameter '" + p.name + "' in node '" + n.name + "': kernel '" + n.kernel +
                              "' requires its " + std::string(to_string(p.direction)) + " " +
                              std::string(to_string(p.kind)) + (p.description.empty() ? "" : " (" + p.description + ")"));
      }
      for (const AttributeDesc& a : n.attributes) {
        const AttrDecl* ad = decl.find_attribute(a.key);
        if (!ad) {
          std::vector<std::string> names;
          for (const auto& x : decl.attributes()) names.push_back(x.name);
          throw LoadError(a.position, a.key, "unknown attribute '" + a.key + "' of kernel '" + n.kernel + "' in node '" +
                                                 n.name + "' (attributes: " + (names.empty() ? "none" : join(names)) + ")" +
                                                 hint(a.key, names));
        }
        AttrValue value = convert(a, *ad, n);
        rethrow_at(a.position, a.key, [&] { g.set_attribute(id, a.key, std::move(value)); });
      }
      for (const AttrDecl& ad : decl.attributes()) {
        if (ad.default_value || n.find_attribute(ad.name)) continue;
        throw LoadError(n.position, "attributes",
                        "missing attribute '" + ad.name + "' (" + std::string(to_string(ad.type)) + ") in node '" +
                            n.name + "': kernel '" + n.kernel + "' requires it" +
                            (ad.description.empty() ? "" : " (" + ad.description + ")"));
      }
    }
  }

  void add_graph_parameters(Context& ctx, Graph& g, std::vector<std::pair<std::string, GraphParamId>>& out) {
    for (const GraphParameterDesc& gp : desc_.graph_parameters) {
      const NodeId node = g.find_node(gp.node);
      const KernelInfo* info = ctx.find_kernel(g.node_kernel(node));
      const int index = info ? info->decl.param_index(gp.param) : -1;
      if (index < 0) {
        std::vector<std::string> names;
        if (info)
          for (const auto& p : info->decl.params()) names.push_back(p.name);
        throw LoadError(gp.param_position, "parameter", "node '" + gp.node + "' has no parameter '" + gp.param + "'" +
                                                            (names.empty() ? "" : " (parameters: " + join(names) + ")") +
                                                            hint(gp.param, names));
      }
      // Checked here, after add_nodes, not while parsing: a misspelled parameter under the node's
      // 'parameters:' is then reported at the misspelling (unknown parameter), not here.
      const NodeDesc* node_desc = desc_.find_node(gp.node);
      const bool bound = node_desc && std::any_of(node_desc->bindings.begin(), node_desc->bindings.end(),
                                                  [&](const BindingDesc& b) { return b.param == gp.param; });
      if (!bound)
        throw LoadError(gp.param_position, "parameter", "bad reference: node '" + gp.node + "' binds no parameter '" +
                                                            gp.param + "' under 'parameters:' (bind it to the data "
                                                            "object that is the exemplar of the graph parameter's "
                                                            "buffers)");
      GraphParamId id;
      rethrow_at(gp.position, gp.name, [&] { id = g.add_graph_parameter(node, gp.param, gp.buffers); });
      if (gp.policy || gp.queue_capacity != 1) {
        if (info->decl.params()[static_cast<std::size_t>(index)].direction != Direction::input)
          throw LoadError(gp.position, "policy", "graph parameter '" + gp.name +
                                                     "' is an output: 'policy' and 'queue_capacity' apply to inputs only");
        rethrow_at(gp.position, gp.name,
                   [&] { g.set_input_policy(id, gp.policy.value_or(InputPolicy::block), gp.queue_capacity); });
      }
      out.emplace_back(gp.name, id);
    }
  }

  void verify(Graph& g) {
    try {
      g.verify();
    } catch (const LoadError&) {
      throw;
    } catch (const vg::Error& e) {
      const std::string message = e.what();
      const auto [where, key] = locate(message);
      throw LoadError(where, key, "verify failed: " + message);
    }
  }

  void write_values(Graph& g) {
    for (const DataDesc& d : desc_.data) {
      if (!d.value) continue;
      const DataId id = g.find_data(d.name);
      for (std::uint32_t k = 0; k < g.num_buffers(id); ++k) {
        ScalarView s = g.scalar(id, k);
        const double v = *d.value;
        switch (d.meta.scalar.type) {
          case ElementType::u8: s.set(static_cast<std::uint8_t>(v)); break;
          case ElementType::i8: s.set(static_cast<std::int8_t>(v)); break;
          case ElementType::u16: s.set(static_cast<std::uint16_t>(v)); break;
          case ElementType::i16: s.set(static_cast<std::int16_t>(v)); break;
          case ElementType::u32: s.set(static_cast<std::uint32_t>(v)); break;
          case ElementType::i32: s.set(static_cast<std::int32_t>(v)); break;
          case ElementType::i64: s.set(static_cast<std::int64_t>(v)); break;
          case ElementType::f16: break;  // no portable half type: left zero
          case ElementType::f32: s.set(static_cast<float>(v)); break;
          case ElementType::f64: s.set(v); break;
        }
      }
    }
  }

  std::string substitute(std::string_view text, const SourcePosition& where, std::string_view key) const {
    BuildOptions local;
    local.variables = variables_;
    local.use_environment = options_.use_environment;
    return vg::yaml::substitute(text, local, where, key);
  }

 private:
  template <class F>
  void rethrow_at(const SourcePosition& where, const std::string& key, F&& f) {
    try {
      f();
    } catch (const LoadError&) {
      throw;
    } catch (const vg::Error& e) {
      throw LoadError(where, key, e.what());
    }
  }

  /// Find the position a framework message is about: a node (and its attribute or parameter), a data object.
  std::pair<SourcePosition, std::string> locate(const std::string& message) const {
    const std::string node_name = quoted_after(message, "node '");
    if (const NodeDesc* n = node_name.empty() ? nullptr : desc_.find_node(node_name)) {
      for (const char* marker : {"attribute '", "parameter '", "input '", "output '", "static input '", "), '"}) {
        const std::string name = quoted_after(message, marker);
        if (name.empty()) continue;
        if (const AttributeDesc* a = n->find_attribute(name)) return {a->position, a->key};
        for (const auto& b : n->bindings)
          if (b.param == name) return {b.position, b.param};
      }
      const bool about_target = message.find("unknown target") != std::string::npos ||
                                message.find("not implemented on target") != std::string::npos;
      if (about_target && n->target_position.known()) return {n->target_position, "target"};
      return {n->position, n->name};
    }
    const std::string data_name = quoted_after(message, "data object '");
    if (const DataDesc* d = data_name.empty() ? nullptr : desc_.find_data(data_name)) return {d->position, d->name};
    return {desc_.position, ""};
  }

  AttrValue convert(const AttributeDesc& a, const AttrDecl& decl, const NodeDesc& n) const {
    if (a.value) return *a.value;
    auto wrong = [&](const std::string& got) -> LoadError {
      return LoadError(a.position, a.key, "wrong type: attribute '" + a.key + "' of kernel '" + n.kernel + "' expects " +
                                              std::string(to_string(decl.type)) + ", got " + got);
    };
    if (a.is_list) {
      if (decl.type != AttrType::numbers) throw wrong("a list");
      std::vector<double> values;
      for (const auto& item : a.items) {
        double v = 0;
        if (!parse_double(item, v)) throw wrong("a list holding '" + item + "'");
        values.push_back(v);
      }
      return values;
    }
    const std::string& s = a.scalar;
    switch (decl.type) {
      case AttrType::boolean:
        if (!a.quoted && (s == "true" || s == "True" || s == "TRUE")) return true;
        if (!a.quoted && (s == "false" || s == "False" || s == "FALSE")) return false;
        throw wrong("'" + s + "'");
      case AttrType::integer: {
        std::int64_t v = 0;
        if (a.quoted || !parse_int(s, v)) throw wrong("'" + s + "'");
        return v;
      }
      case AttrType::number: {
        double v = 0;
        if (a.quoted || !parse_double(s, v)) throw wrong("'" + s + "'");
        return v;
      }
      case AttrType::string:
        return substitute(s, a.position, a.key);
      case AttrType::numbers: {
        double v = 0;
        if (a.quoted || !parse_double(s, v)) throw wrong("'" + s + "'");
        return std::vector<double>{v};
      }
    }
    throw wrong("'" + s + "'");
  }

  const GraphDesc& desc_;
  const BuildOptions& options_;
  std::map<std::string, std::string, std::less<>> variables_;
};

}  // namespace

LoadedGraph::LoadedGraph(GraphDesc desc) : desc_(std::move(desc)) {}

LoadedGraph::~LoadedGraph() {
  graph_.reset();  // stop and release the graph before its targets go away
  attachment_.reset();
  owned_context_.reset();
}

GraphParamId LoadedGraph::graph_parameter(std::string_view name) const noexcept {
  for (const auto& [n, id] : params_)
    if (n == name) return id;
  return {};
}

std::unique_ptr<LoadedGraph> build(const GraphDesc& desc, const BuildOptions& options) {
  std::unique_ptr<LoadedGraph> loaded(new LoadedGraph(desc));
  Builder builder(desc, options);
  if (options.context) {
    if (!desc.targets.empty())
      throw LoadError(desc.targets.front().position, "targets",
                      "this application runs the graph in its own context: remove 'targets:'");
    loaded->context_ = options.context;
  } else {
    try {
      loaded->owned_context_ = std::make_unique<Context>(desc.context_config());
    } catch (const vg::Error& e) {
      throw LoadError(desc.targets.empty() ? desc.position : desc.targets.front().position, "targets", e.what());
    }
    loaded->context_ = loaded->owned_context_.get();
  }
  Context& ctx = *loaded->context_;
  builder.load_modules(ctx);
  if (options.prepare_context) loaded->attachment_ = options.prepare_context(ctx);
  loaded->graph_ = std::make_unique<Graph>(ctx, desc.name);
  Graph& g = *loaded->graph_;
  if (desc.pipeline_depth) g.set_pipeline_depth(desc.pipeline_depth);
  if (desc.telemetry_capacity) g.set_telemetry_capacity(desc.telemetry_capacity);
  builder.add_data(g);
  builder.add_nodes(ctx, g);
  builder.add_graph_parameters(ctx, g, loaded->params_);
  if (options.verify) {
    builder.verify(g);
    builder.write_values(g);
  }
  return loaded;
}

std::unique_ptr<LoadedGraph> load_file(const std::string& path, const BuildOptions& options) {
  return build(parse_file(path), options);
}

std::string substitute(std::string_view text, const BuildOptions& options, const SourcePosition& where,
                       std::string_view key) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '$' || i + 1 >= text.size()) {
      out += c;
      continue;
    }
    if (text[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    if (text[i + 1] != '{') {
      out += c;
      continue;
    }
    const auto close = text.find('}', i + 2);
    if (close == std::string_view::npos)
      throw LoadError(where, std::string(key), "unterminated ${...} in '" + std::string(text) + "'");
    std::string_view body = text.substr(i + 2, close - i - 2);
    std::optional<std::string_view> fallback;
    if (const auto sep = body.find(":-"); sep != std::string_view::npos) {
      fallback = body.substr(sep + 2);
      body = body.substr(0, sep);
    }
    const bool valid_name =
        !body.empty() && !std::isdigit(static_cast<unsigned char>(body.front())) &&
        std::all_of(body.begin(), body.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
    if (!valid_name)
      throw LoadError(where, std::string(key), "bad variable name '${" + std::string(text.substr(i + 2, close - i - 2)) +
                                                   "}' (letters, digits and _)");
    const std::string name(body);
    std::optional<std::string> value;
    if (auto it = options.variables.find(name); it != options.variables.end()) value = it->second;
    else if (options.use_environment) {
      if (const char* env = std::getenv(name.c_str()); env && *env) value = std::string(env);
    }
    if (!value && fallback) value = std::string(*fallback);
    if (!value)
      throw LoadError(where, std::string(key), "undefined variable '" + name +
                                                   "' (set it in the environment, or give a default: ${" + name +
                                                   ":-VALUE})");
    out += *value;
    i = close;
  }
  return out;
}

}  // namespace vg::yaml
