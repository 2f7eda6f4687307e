#pragma once
/// @file
/// @brief A place in a graph file (file, 1-based line and column) and the error that names one.

#include <string>

#include "visiongraph/core/error.hpp"

namespace vg::yaml {

/// @brief Where a key or value was written. line/column are 1-based; 0 means unknown.
struct SourcePosition {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const noexcept { return line > 0; }
  /// @brief "graph.yaml:12:5" (or just the file name when the line is unknown).
  std::string to_string() const;
};

/// @brief A graph file error: "FILE:LINE:COL: key 'KEY': MESSAGE". Thrown by parsing and building.
/// @code
/// try { auto loaded = vg::yaml::load_file("face.yaml", options); }
/// catch (const vg::yaml::LoadError& e) { std::cerr << e.what() << '\n'; }   // face.yaml:14:7: key 'kernel': ...
/// @endcode
class LoadError : public vg::Error {
 public:
  LoadError(SourcePosition position, std::string key, std::string message);

  const SourcePosition& position() const noexcept { return position_; }
  const std::string& key() const noexcept { return key_; }
  /// @brief The message without the position and key prefix.
  const std::string& detail() const noexcept { return detail_; }

 private:
  SourcePosition position_;
  std::string key_;
  std::string detail_;
};

}  // namespace vg::yaml
