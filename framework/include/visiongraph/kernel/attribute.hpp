#pragma once
/// @file
/// @brief Node attributes: typed configuration values fixed before verify (model path, thresholds, ...).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace vg {

/// @brief Type of an attribute; the order matches AttrValue's alternatives.
enum class AttrType : std::uint8_t { boolean, integer, number, string, numbers };

/// @brief Value of an attribute.
using AttrValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;

constexpr std::string_view to_string(AttrType type) noexcept {
  switch (type) {
    case AttrType::boolean: return "boolean";
    case AttrType::integer: return "integer";
    case AttrType::number: return "number";
    case AttrType::string: return "string";
    case AttrType::numbers: return "list of numbers";
  }
  return "?";
}

inline AttrType type_of(const AttrValue& value) noexcept { return static_cast<AttrType>(value.index()); }

/// @brief Named attribute values of one node. Lookups are linear (a handful of keys); read them in create.
class AttributeSet {
 public:
  void set(std::string key, AttrValue value);
  const AttrValue* find(std::string_view key) const noexcept;
  const std::vector<std::pair<std::string, AttrValue>>& entries() const noexcept { return entries_; }

 private:
  std::vector<std::pair<std::string, AttrValue>> entries_;
};

/// @brief Render a value as text (for reports, errors and DOT).
std::string to_text(const AttrValue& value);

}  // namespace vg
