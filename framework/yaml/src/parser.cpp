// Graph files -> GraphDesc: schema checks with file:line:column in every message.

#include "visiongraph/yaml/parser.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>

#include "visiongraph/core/did_you_mean.hpp"

namespace vg::yaml {

namespace {

constexpr std::size_t kMaxObjectBytes = std::size_t{256} << 20;  // one buffer of one data object
constexpr std::int64_t kMaxImageSide = 16384;
constexpr std::size_t kMaxBuffers = 1024;
constexpr std::size_t kMaxPipelineDepth = 64;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string join(const std::vector<const char*>& items) {
  std::string out;
  for (const char* s : items) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

/// "; did you mean 'X'?" when one of @p names is close to @p name, else "".
std::string hint(const std::string& name, const std::vector<std::string>& names) {
  const std::string h = did_you_mean(name, names);
  return h.empty() ? h : "; " + h;
}

std::string kind_of(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "something else";
}

bool parse_int(const std::string& text, std::int64_t& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc{} && ptr == last && first != last;
}

bool parse_double(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  if (text == ".inf" || text == ".nan" || text == "-.inf") return false;
  auto [ptr, ec] = std::from_chars(first, last, out, std::chars_format::general);
  return ec == std::errc{} && ptr == last && first != last && std::isfinite(out);
}

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  GraphDesc parse(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      SourcePosition where{file_, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1};
      throw LoadError(where, "", "malformed YAML: " + e.msg);
    }
    GraphDesc desc;
    desc.file = file_;
    desc.position = {file_, 1, 1};
    desc.name = std::filesystem::path(file_).stem().string();
    if (desc.name.empty() || desc.name.front() == '<') desc.name = "graph";
    if (!root.IsDefined() || root.IsNull())
      throw LoadError(desc.position, "", "the file is empty: expected a mapping with at least 'nodes:'");
    if (!root.IsMap())
      throw LoadError(pos(root, desc.position), "", "expected a mapping at the top level (graph, targets, modules, data, "
                                                     "nodes, graph_parameters, pipeline_depth), got " + kind_of(root));
    bool have_nodes = false;
    for_each(root, "", {"graph", "description", "targets", "modules", "data", "nodes", "graph_parameters",
                        "streams", "pipeline_depth", "telemetry_capacity", "spin_us"},
             [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
               if (key == "graph") desc.name = identifier(v, k, "graph");
               else if (key == "description") desc.description = string(v, k, "description");
               else if (key == "targets") parse_targets(v, k, desc);
               else if (key == "modules") parse_modules(v, k, desc);
               else if (key == "data") parse_data(v, k, desc);
               else if (key == "nodes") {
                 parse_nodes(v, k, desc);
                 have_nodes = true;
               } else if (key == "graph_parameters") parse_graph_parameters(v, k, desc);
               else if (key == "streams") parse_streams(v, k, desc);
               else if (key == "pipeline_depth")
                 desc.pipeline_depth = static_cast<std::size_t>(integer(v, k, key, 0, kMaxPipelineDepth));
               else if (key == "telemetry_capacity")
                 desc.telemetry_capacity = static_cast<std::size_t>(integer(v, k, key, 1, 1 << 20));
               else if (key == "spin_us")
                 desc.spin_us = static_cast<int>(integer(v, k, key, 0, 100000));
             });
    if (!have_nodes) throw LoadError(desc.position, "nodes", "missing: a graph needs a 'nodes:' section");
    check_references(desc);
    return desc;
  }

 private:
  using KeyFn = std::function<void(const std::string&, const YAML::Node&, const YAML::Node&)>;

  SourcePosition pos(const YAML::Node& n, const SourcePosition& fallback = {}) const {
    if (!n.IsDefined()) return fallback;
    const YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0) return fallback.known() ? fallback : SourcePosition{file_, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& message,
                         const SourcePosition& fallback = {}) const {
    throw LoadError(pos(at, fallback), key, message);
  }

  /// Iterate a mapping, rejecting unknown and duplicate keys.
  void for_each(const YAML::Node& map, const std::string& section, const std::vector<const char*>& allowed,
                const KeyFn& fn, const YAML::Node& owner_key = YAML::Node()) {
    if (!map.IsMap()) fail(map, section, "expected a mapping, got " + kind_of(map), pos(owner_key));
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      // Copies: yaml-cpp's iterator hands out a temporary pair, so references into it would dangle
      // (found by the fuzzer under AddressSanitizer).
      const YAML::Node k = it->first;
      const YAML::Node v = it->second;
      if (!k.IsScalar()) fail(k, section, "keys must be plain names, got " + kind_of(k), pos(map));
      const std::string key = k.Scalar();
      if (allowed.size() != 0 &&
          std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
        fail(k, key, "unknown key" + (section.empty() ? std::string() : " in '" + section + "'") +
                         " (expected one of: " + join(allowed) + ")" +
                         hint(key, std::vector<std::string>(allowed.begin(), allowed.end())));
      if (!seen.insert(key).second) fail(k, key, "duplicate key");
      fn(key, k, v);
    }
  }

  std::string string(const YAML::Node& v, const YAML::Node& k, const std::string& key) const {
    if (!v.IsScalar()) fail(v, key, "wrong type: expected a string, got " + kind_of(v), pos(k));
    return v.Scalar();
  }

  /// A name used to refer to things: non-empty, no spaces or quotes.
  std::string identifier(const YAML::Node& v, const YAML::Node& k, const std::string& key) const {
    std::string s = string(v, k, key);
    if (s.empty() || s.size() > 200 ||
        std::any_of(s.begin(), s.end(), [](char c) { return c == '\'' || c == '"' || static_cast<unsigned char>(c) <= ' '; }))
      fail(v, key, "expected a name (no spaces or quotes), got '" + s + "'", pos(k));
    return s;
  }

  std::int64_t integer(const YAML::Node& v, const YAML::Node& k, const std::string& key, std::int64_t lo,
                       std::int64_t hi) const {
    std::int64_t out = 0;
    if (!v.IsScalar() || v.Tag() == "!" || !parse_int(v.Scalar(), out))
      fail(v, key, "wrong type: expected an integer, got " + kind_of(v), pos(k));
    if (out < lo || out > hi)
      fail(v, key, "out of range: expected " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                       std::to_string(out), pos(k));
    return out;
  }

  double number(const YAML::Node& v, const YAML::Node& k, const std::string& key) const {
    double out = 0;
    if (!v.IsScalar() || v.Tag() == "!" || !parse_double(v.Scalar(), out))
      fail(v, key, "wrong type: expected a number, got " + kind_of(v), pos(k));
    return out;
  }

  bool boolean(const YAML::Node& v, const YAML::Node& k, const std::string& key) const {
    if (v.IsScalar() && v.Tag() != "!") {
      const std::string& s = v.Scalar();
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    fail(v, key, "wrong type: expected true or false, got " + kind_of(v), pos(k));
  }

  template <class E>
  E enumeration(const YAML::Node& v, const YAML::Node& k, const std::string& key,
                const std::vector<const char*>& names) const {
    const std::string s = string(v, k, key);
    E out{};
    if (!vg::parse(s, out)) fail(v, key, "expected one of: " + join(names) + ", got '" + s + "'", pos(k));
    return out;
  }

  // ---- sections -------------------------------------------------------------------------------

  void parse_targets(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    for_each(v, "targets", {}, [&](const std::string& name, const YAML::Node& nk, const YAML::Node& nv) {
      TargetDesc t;
      t.config.name = identifier(nk, nk, "targets");
      t.position = pos(nk);
      if (!nv.IsNull()) {
        for_each(nv, name, {"kind", "core", "queue_capacity"}, [&](const std::string& key, const YAML::Node& kk,
                                                                   const YAML::Node& kv) {
          if (key == "kind") t.config.kind = identifier(kv, kk, key);
          else if (key == "core") t.config.core = static_cast<int>(integer(kv, kk, key, -1, 4095));
          else t.config.queue_capacity = static_cast<std::size_t>(integer(kv, kk, key, 2, 1 << 16));
        }, nk);
      }
      desc.targets.push_back(std::move(t));
    }, k);
    if (desc.targets.empty()) fail(v, "targets", "at least one target is needed (or leave 'targets:' out)", pos(k));
  }

  void parse_modules(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    if (!v.IsSequence()) fail(v, "modules", "expected a list of module names or {library: PATH}, got " + kind_of(v), pos(k));
    for (const auto& item : v) {
      ModuleDesc m;
      m.position = pos(item, pos(k));
      if (item.IsScalar()) {
        const std::string s = item.Scalar();
        if (s.empty()) fail(item, "modules", "empty module name", pos(k));
        if (s.find('/') != std::string::npos || s.ends_with(".so")) m.library = s;
        else m.name = s;
      } else if (item.IsMap()) {
        for_each(item, "modules", {"name", "library"}, [&](const std::string& key, const YAML::Node& kk,
                                                         const YAML::Node& kv) {
          if (key == "name") m.name = identifier(kv, kk, key);
          else m.library = string(kv, kk, key);
        }, k);
        if (m.name.empty() == m.library.empty())
          fail(item, "modules", "give exactly one of 'name' (built-in module) or 'library' (shared library path)", pos(k));
      } else {
        fail(item, "modules", "expected a module name or {library: PATH}, got " + kind_of(item), pos(k));
      }
      desc.modules.push_back(std::move(m));
    }
  }

  void parse_data(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    for_each(v, "data", {}, [&](const std::string&, const YAML::Node& nk, const YAML::Node& nv) {
      DataDesc d;
      d.name = identifier(nk, nk, "data");
      d.position = pos(nk);
      if (desc.find_data(d.name)) fail(nk, d.name, "data object defined twice");
      if (!nv.IsMap()) fail(nv, d.name, "expected a mapping with at least 'kind:', got " + kind_of(nv), d.position);
      const YAML::Node kind_node = nv["kind"];
      if (!kind_node.IsDefined())
        fail(nk, d.name, "missing key 'kind' (one of: image, tensor, scalar, user_data, array)");
      d.meta.kind = enumeration<DataKind>(kind_node, nk, "kind", {"image", "tensor", "scalar", "user_data", "array"});
      parse_data_object(nv, nk, d);
      desc.data.push_back(std::move(d));
    }, k);
  }

  void parse_data_object(const YAML::Node& nv, const YAML::Node& nk, DataDesc& d) {
    DataMeta& m = d.meta;
    static const std::vector<const char*> image_keys{"kind", "virtual", "width", "height", "format", "row_stride", "memory"};
    static const std::vector<const char*> tensor_keys{"kind", "virtual", "dims", "type", "layout", "scale", "zero_point", "memory"};
    static const std::vector<const char*> scalar_keys{"kind", "virtual", "type", "value"};
    static const std::vector<const char*> user_data_keys{"kind", "virtual", "type_name", "size", "alignment"};
    static const std::vector<const char*> array_keys{"kind", "virtual", "item_type", "item_size", "capacity"};
    const std::vector<const char*>* keys_of[] = {&image_keys, &tensor_keys, &scalar_keys, &user_data_keys, &array_keys};
    const auto& keys = *keys_of[static_cast<std::size_t>(m.kind)];
    for_each(nv, d.name, keys, [&](const std::string& key, const YAML::Node& kk, const YAML::Node& kv) {
      d.keys.emplace_back(key, pos(kk));
      if (key == "virtual") d.is_virtual = boolean(kv, kk, key);
      else if (key == "memory") {
        const std::string memory = kv.IsScalar() ? kv.Scalar() : std::string();
        if (memory != "host" && memory != "device")
          fail(kv, key, "expected one of: host, device, got '" + memory + "'", pos(kk));
        d.device_only = memory == "device";
      } else if (key == "width" || key == "height") {
        const bool is_auto = kv.IsScalar() && kv.Scalar() == "auto";
        const std::uint32_t value = is_auto ? 0 : static_cast<std::uint32_t>(integer(kv, kk, key, 1, kMaxImageSide));
        (key == "width" ? d.width_auto : d.height_auto) = is_auto;
        (key == "width" ? m.image.width : m.image.height) = value;
      } else if (key == "format") m.image.format = enumeration<ImageFormat>(kv, kk, key, {"rgb24", "bgr24", "gray8", "nv12"});
      else if (key == "row_stride") m.image.row_stride = static_cast<std::uint32_t>(integer(kv, kk, key, 0, 1 << 20));
      else if (key == "dims") {
        if (!kv.IsSequence() || kv.size() == 0 || kv.size() > kMaxTensorDims)
          fail(kv, key, "expected a list of 1.." + std::to_string(kMaxTensorDims) + " positive integers, got " +
                            kind_of(kv), pos(kk));
        m.tensor.rank = static_cast<std::uint32_t>(kv.size());
        std::size_t i = 0;
        for (const auto& dim : kv) m.tensor.dims[i++] = integer(dim, kk, key, 1, 1 << 24);
      } else if (key == "type") {
        const auto t = enumeration<ElementType>(kv, kk, key, {"u8", "i8", "u16", "i16", "u32", "i32", "i64", "f16", "f32", "f64"});
        (m.kind == DataKind::tensor ? m.tensor.type : m.scalar.type) = t;
      } else if (key == "layout") m.tensor.layout = enumeration<TensorLayout>(kv, kk, key, {"unspecified", "nchw", "nhwc", "nc1hwc2"});
      else if (key == "scale") m.tensor.scale = static_cast<float>(number(kv, kk, key));
      else if (key == "zero_point") m.tensor.zero_point = static_cast<std::int32_t>(integer(kv, kk, key, -(1 << 30), 1 << 30));
      else if (key == "value") d.value = number(kv, kk, key);
      else if (key == "type_name" || key == "item_type") {
        const std::string s = identifier(kv, kk, key);
        if (s.size() > kMaxTypeNameLength)
          fail(kv, key, "type names have at most " + std::to_string(kMaxTypeNameLength) + " characters", pos(kk));
        auto& dst = key == "type_name" ? m.user_data.type_name : m.array.item_type;
        dst.fill('\0');
        std::copy(s.begin(), s.end(), dst.begin());
      } else if (key == "size") m.user_data.size = static_cast<std::size_t>(integer(kv, kk, key, 1, kMaxObjectBytes));
      else if (key == "alignment") {
        const auto a = integer(kv, kk, key, 1, 4096);
        if ((a & (a - 1)) != 0) fail(kv, key, "alignment must be a power of two", pos(kk));
        m.user_data.alignment = static_cast<std::size_t>(a);
      } else if (key == "item_size") m.array.item_size = static_cast<std::size_t>(integer(kv, kk, key, 1, 1 << 20));
      else if (key == "capacity") m.array.capacity = static_cast<std::size_t>(integer(kv, kk, key, 1, 1 << 24));
    }, nk);
    if (d.is_virtual) {
      for (const auto& [key, where] : d.keys)
        if (key != "kind" && key != "virtual")
          throw LoadError(where, key, "a virtual data object takes its metadata from the node that writes it; "
                                      "remove '" + key + "' or drop 'virtual: true'");
      return;
    }
    auto require = [&](const char* key, const char* what) {
      if (std::none_of(d.keys.begin(), d.keys.end(), [&](const auto& e) { return e.first == key; }))
        fail(nk, key, std::string("missing in data object '") + d.name + "': " + what + " (or declare it 'virtual: true')");
    };
    switch (m.kind) {
      case DataKind::image:
        require("width", "image width in pixels, or auto");
        require("height", "image height in pixels, or auto");
        break;
      case DataKind::tensor: require("dims", "tensor dimensions, e.g. [1, 128, 128, 3]"); break;
      case DataKind::scalar: break;
      case DataKind::user_data:
        require("type_name", "the record's type name");
        require("size", "the record's size in bytes");
        break;
      case DataKind::array:
        require("item_type", "the item type name");
        require("item_size", "bytes per item");
        require("capacity", "maximum number of items");
        break;
    }
    DataMeta probe = m;
    if (d.width_auto) probe.image.width = 1;
    if (d.height_auto) probe.image.height = 1;
    double bytes = 0;
    if (m.kind == DataKind::tensor) {
      bytes = static_cast<double>(element_size(m.tensor.type));
      for (std::uint32_t i = 0; i < m.tensor.rank; ++i) bytes *= static_cast<double>(m.tensor.dims[i]);
    } else if (m.kind == DataKind::array) {
      bytes = static_cast<double>(m.array.item_size) * static_cast<double>(m.array.capacity);
    } else {
      bytes = static_cast<double>(probe.byte_size());
    }
    if (bytes > static_cast<double>(kMaxObjectBytes))
      fail(nk, d.name, "data object too large (" + std::to_string(static_cast<long long>(bytes)) + " bytes; at most " +
                           std::to_string(kMaxObjectBytes) + ")");
  }

  void parse_nodes(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    for_each(v, "nodes", {}, [&](const std::string&, const YAML::Node& nk, const YAML::Node& nv) {
      NodeDesc n;
      n.name = identifier(nk, nk, "nodes");
      n.position = pos(nk);
      if (desc.find_node(n.name)) fail(nk, n.name, "node defined twice");
      if (!nv.IsMap()) fail(nv, n.name, "expected a mapping with at least 'kernel:', got " + kind_of(nv), n.position);
      bool have_kernel = false;
      for_each(nv, n.name, {"kernel", "target", "parameters", "attributes", "deadline_ms", "create_deadline_ms"},
               [&](const std::string& key, const YAML::Node& kk, const YAML::Node& kv) {
                 if (key == "kernel") {
                   n.kernel = identifier(kv, kk, key);
                   n.kernel_position = pos(kv, pos(kk));
                   have_kernel = true;
                 } else if (key == "target") {
                   n.target_position = pos(kv, pos(kk));
                   if (kv.IsSequence()) {  // one replica per target
                     if (kv.size() == 0) fail(kv, key, "expected a target name or a list of them, got an empty list");
                     for (const auto& item : kv) n.replica_targets.push_back(identifier(item, kk, key));
                     n.target = n.replica_targets.front();
                     if (n.replica_targets.size() == 1) n.replica_targets.clear();
                   } else {
                     n.target = identifier(kv, kk, key);
                   }
                 } else if (key == "deadline_ms") {
                   n.deadline_ms = integer(kv, kk, key, 0, 24 * 3600 * 1000);
                 } else if (key == "create_deadline_ms") {
                   n.create_deadline_ms = integer(kv, kk, key, 0, 24 * 3600 * 1000);
                 } else if (key == "parameters") {
                   if (kv.IsNull()) return;
                   for_each(kv, "parameters", {}, [&](const std::string& param, const YAML::Node& pk, const YAML::Node& pv) {
                     BindingDesc b;
                     b.param = identifier(pk, pk, "parameters");
                     b.data = identifier(pv, pk, param);
                     b.position = pos(pv, pos(pk));
                     n.bindings.push_back(std::move(b));
                   }, kk);
                 } else if (key == "attributes") {
                   if (kv.IsNull()) return;
                   for_each(kv, "attributes", {}, [&](const std::string& attr, const YAML::Node& ak, const YAML::Node& av) {
                     n.attributes.push_back(attribute(attr, ak, av));
                   }, kk);
                 }
               }, nk);
      if (!have_kernel) fail(nk, "kernel", "missing in node '" + n.name + "': the kernel to run, e.g. vg.detection.letterbox");
      desc.nodes.push_back(std::move(n));
    }, k);
    if (desc.nodes.empty()) fail(v, "nodes", "a graph needs at least one node", pos(k));
  }

  AttributeDesc attribute(const std::string& key, const YAML::Node& k, const YAML::Node& v) const {
    AttributeDesc a;
    a.key = identifier(k, k, "attributes");
    a.position = pos(v, pos(k));
    if (v.IsScalar()) {
      a.scalar = v.Scalar();
      a.quoted = v.Tag() == "!";
    } else if (v.IsSequence()) {
      a.is_list = true;
      for (const auto& item : v) {
        if (!item.IsScalar()) fail(item, key, "wrong type: a list attribute holds numbers, got " + kind_of(item), a.position);
        a.items.push_back(item.Scalar());
      }
    } else {
      fail(v, key, "wrong type: expected a value (boolean, integer, number, string or list of numbers), got " +
                       kind_of(v), a.position);
    }
    return a;
  }

  void parse_graph_parameters(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    for_each(v, "graph_parameters", {}, [&](const std::string&, const YAML::Node& nk, const YAML::Node& nv) {
      GraphParameterDesc g;
      g.name = identifier(nk, nk, "graph_parameters");
      g.position = pos(nk);
      if (desc.find_graph_parameter(g.name)) fail(nk, g.name, "graph parameter defined twice");
      if (!nv.IsMap()) fail(nv, g.name, "expected a mapping with 'node:' and 'parameter:', got " + kind_of(nv), g.position);
      for_each(nv, g.name, {"node", "parameter", "buffers", "policy", "queue_capacity"},
               [&](const std::string& key, const YAML::Node& kk, const YAML::Node& kv) {
                 if (key == "node") {
                   g.node = identifier(kv, kk, key);
                   g.node_position = pos(kv, pos(kk));
                 } else if (key == "parameter") {
                   g.param = identifier(kv, kk, key);
                   g.param_position = pos(kv, pos(kk));
                 } else if (key == "buffers") {
                   if (kv.IsScalar() && kv.Scalar() == "auto") g.buffers = 0;  // Graph::kAutoBuffers
                   else g.buffers = static_cast<std::size_t>(integer(kv, kk, key, 1, kMaxBuffers));
                 } else if (key == "queue_capacity") {
                   g.queue_capacity = static_cast<std::size_t>(integer(kv, kk, key, 1, kMaxBuffers));
                 } else {
                   const std::string s = string(kv, kk, key);
                   if (s == "block") g.policy = InputPolicy::block;
                   else if (s == "latest_wins") g.policy = InputPolicy::latest_wins;
                   else if (s == "reject_new") g.policy = InputPolicy::reject_new;
                   else fail(kv, key, "expected one of: block, latest_wins, reject_new, got '" + s + "'", pos(kk));
                 }
               }, nk);
      if (g.node.empty()) fail(nk, "node", "missing in graph parameter '" + g.name + "': the node whose parameter it exposes");
      if (g.param.empty()) fail(nk, "parameter", "missing in graph parameter '" + g.name + "': the node parameter it exposes");
      desc.graph_parameters.push_back(std::move(g));
    }, k);
  }

  /// `streams: [{name, input}]`: names are path components (each stream writes OUT/<name>/), unique.
  void parse_streams(const YAML::Node& v, const YAML::Node& k, GraphDesc& desc) {
    if (!v.IsSequence() || v.size() == 0)
      fail(v, "streams", "expected a non-empty list of {name: NAME, input: SOURCE}, got " + kind_of(v), pos(k));
    for (const auto& item : v) {
      StreamDesc s;
      s.position = pos(item, pos(k));
      if (!item.IsMap()) fail(item, "streams", "expected {name: NAME, input: SOURCE}, got " + kind_of(item), pos(k));
      for_each(item, "streams", {"name", "input"}, [&](const std::string& key, const YAML::Node& kk, const YAML::Node& kv) {
        if (key == "name") s.name = identifier(kv, kk, key);
        else s.input = string(kv, kk, key);
      }, k);
      if (s.name.empty()) fail(item, "name", "missing in a stream: each stream needs a name (its outputs go to OUT/<name>/)", s.position);
      if (s.input.empty()) fail(item, "input", "missing in stream '" + s.name + "': the source it reads (file, rtsp://, /dev/videoN, ...)", s.position);
      if (!is_stream_name(s.name))
        fail(item, "name", "stream name '" + s.name + "': use up to 64 letters, digits, '-' or '_' (it names a folder and an MQTT topic level)", s.position);
      for (const StreamDesc& other : desc.streams)
        if (other.name == s.name) fail(item, "name", "stream '" + s.name + "' defined twice", s.position);
      desc.streams.push_back(std::move(s));
    }
  }

  /// References between sections (data objects named by bindings, nodes named by graph parameters).
  void check_references(const GraphDesc& desc) const {
    std::vector<std::string> data_names;
    for (const auto& d : desc.data) data_names.push_back(d.name);
    for (const auto& n : desc.nodes) {
      std::set<std::string> seen;
      for (const auto& b : n.bindings) {
        if (!desc.find_data(b.data))
          throw LoadError(b.position, b.param, "bad reference: unknown data object '" + b.data + "'" +
                                                   (data_names.empty() ? std::string(" (the file has no 'data:' section)")
                                                                       : " (data objects: " + join(data_names) + ")") +
                                                   hint(b.data, data_names));
      }
    }
    std::vector<std::string> node_names;
    for (const auto& n : desc.nodes) node_names.push_back(n.name);
    for (const auto& g : desc.graph_parameters) {
      const NodeDesc* n = desc.find_node(g.node);
      if (!n)
        throw LoadError(g.node_position, "node", "bad reference: unknown node '" + g.node + "' (nodes: " +
                                                    join(node_names) + ")" + hint(g.node, node_names));
      // Whether the node binds g.param is checked by build(), which knows the kernel's parameters: a
      // misspelling under the node's 'parameters:' must be reported there, not here.
    }
  }

  std::string file_;
};

}  // namespace

GraphDesc parse_string(std::string_view text, std::string file) {
  if (text.size() > kMaxGraphFileSize)
    throw LoadError({file, 0, 0}, "", "file too large (" + std::to_string(text.size()) + " bytes; at most " +
                                          std::to_string(kMaxGraphFileSize) + ")");
  Parser parser(file);
  try {
    return parser.parse(text);
  } catch (const LoadError&) {
    throw;
  } catch (const YAML::Exception& e) {
    throw LoadError({file, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1}, "",
                    "malformed YAML: " + e.msg);
  }
}

GraphDesc parse_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw LoadError({path, 0, 0}, "", "file not found");
  if (std::filesystem::is_directory(path, ec))
    throw LoadError({path, 0, 0}, "", "is a directory, expected a graph file (.yaml)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError({path, 0, 0}, "", "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_string(text.str(), path);
}

}  // namespace vg::yaml
