#include "visiongraph/kernel/attribute.hpp"

#include <sstream>

namespace vg {

void AttributeSet::set(std::string key, AttrValue value) {
  for (auto& [k, v] : entries_)
    if (k == key) {
      v = std::move(value);
      return;
    }
  entries_.emplace_back(std::move(key), std::move(value));
}

const AttrValue* AttributeSet::find(std::string_view key) const noexcept {
  for (const auto& [k, v] : entries_)
    if (k == key) return &v;
  return nullptr;
}

std::string to_text(const AttrValue& value) {
  std::ostringstream out;
  if (auto b = std::get_if<bool>(&value)) out << (*b ? "true" : "false");
  else if (auto i = std::get_if<std::int64_t>(&value)) out << *i;
  else if (auto d = std::get_if<double>(&value)) out << *d;
  else if (auto s = std::get_if<std::string>(&value)) out << '"' << *s << '"';
  else if (auto l = std::get_if<std::vector<double>>(&value)) {
    out << '[';
    for (std::size_t k = 0; k < l->size(); ++k) out << (k ? ", " : "") << (*l)[k];
    out << ']';
  }
  return out.str();
}

}  // namespace vg
