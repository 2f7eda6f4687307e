#include "visiongraph/yaml/graph_desc.hpp"

#include <algorithm>

namespace vg::yaml {

namespace {
template <class V, class P>
auto find_named(V& items, std::string_view name, P member) noexcept -> decltype(&items.front()) {
  auto it = std::find_if(items.begin(), items.end(), [&](const auto& item) { return item.*member == name; });
  return it == items.end() ? nullptr : &*it;
}
}  // namespace

const SourcePosition& DataDesc::where(std::string_view key) const noexcept {
  for (const auto& [k, pos] : keys)
    if (k == key) return pos;
  return position;
}

void NodeDesc::set_attribute(std::string key, AttrValue value) {
  for (auto& a : attributes)
    if (a.key == key) {
      a.value = std::move(value);
      return;
    }
  AttributeDesc a;
  a.key = std::move(key);
  a.value = std::move(value);
  a.position = position;
  attributes.push_back(std::move(a));
}

const AttributeDesc* NodeDesc::find_attribute(std::string_view key) const noexcept {
  for (const auto& a : attributes)
    if (a.key == key) return &a;
  return nullptr;
}

DataDesc* GraphDesc::find_data(std::string_view n) noexcept { return find_named(data, n, &DataDesc::name); }
const DataDesc* GraphDesc::find_data(std::string_view n) const noexcept { return find_named(data, n, &DataDesc::name); }
NodeDesc* GraphDesc::find_node(std::string_view n) noexcept { return find_named(nodes, n, &NodeDesc::name); }
const NodeDesc* GraphDesc::find_node(std::string_view n) const noexcept { return find_named(nodes, n, &NodeDesc::name); }
GraphParameterDesc* GraphDesc::find_graph_parameter(std::string_view n) noexcept {
  return find_named(graph_parameters, n, &GraphParameterDesc::name);
}
const GraphParameterDesc* GraphDesc::find_graph_parameter(std::string_view n) const noexcept {
  return find_named(graph_parameters, n, &GraphParameterDesc::name);
}

std::size_t GraphDesc::set_auto_size(std::uint32_t width, std::uint32_t height) {
  std::size_t filled = 0;
  for (auto& d : data) {
    if (d.width_auto) {
      d.meta.image.width = width;
      d.width_auto = false;
      ++filled;
    }
    if (d.height_auto) {
      d.meta.image.height = height;
      d.height_auto = false;
      ++filled;
    }
  }
  return filled;
}

bool GraphDesc::has_auto_size() const noexcept {
  return std::any_of(data.begin(), data.end(), [](const DataDesc& d) { return d.width_auto || d.height_auto; });
}

ContextConfig GraphDesc::context_config() const {
  ContextConfig config = ContextConfig::defaults();
  if (!targets.empty()) {
    config.targets.clear();
    for (const auto& t : targets) config.targets.push_back(t.config);
  }
  if (spin_us >= 0) config.spin_us = static_cast<unsigned>(spin_us);
  return config;
}

bool is_stream_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace vg::yaml
