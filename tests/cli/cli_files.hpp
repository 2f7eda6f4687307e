#pragma once
/// @file
/// @brief Reading what a `visiongraph` run wrote: whole files and JSONL (one JSON value per line).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vg::test {

/// @brief The whole file (empty when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// @brief Every line of a JSONL file, parsed; a line that is not JSON fails the test (and is skipped).
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    if (!nlohmann::json::accept(line)) {
      ADD_FAILURE() << path.string() << " line " << n << " is not JSON: " << line;
      continue;
    }
    out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

}  // namespace vg::test
