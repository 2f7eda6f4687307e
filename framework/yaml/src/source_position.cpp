#include "visiongraph/yaml/source_position.hpp"

#include <utility>

namespace vg::yaml {

namespace {
std::string compose(const SourcePosition& where, const std::string& key, const std::string& message) {
  std::string out = where.to_string();
  out += ": ";
  if (!key.empty()) out += "key '" + key + "': ";
  out += message;
  return out;
}
}  // namespace

std::string SourcePosition::to_string() const {
  std::string out = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  return out;
}

LoadError::LoadError(SourcePosition position, std::string key, std::string message)
    : vg::Error(compose(position, key, message)),
      position_(std::move(position)),
      key_(std::move(key)),
      detail_(std::move(message)) {}

}  // namespace vg::yaml
