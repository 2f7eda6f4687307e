#pragma once
/// @file
/// @brief Runs the built `visiongraph` binary (path from VG_CLI_PATH), or a shell command, and captures its output.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace vg::test {

struct CliResult {
  int code = -1;        ///< exit status
  std::string output;   ///< stdout and stderr, interleaved
};

/// @brief Run `visiongraph ARGS` through the shell (ARGS is shell text), with @p environment (shell text such
/// as "NAME=value OTHER=value", empty for none) set for the command.
inline CliResult run_cli(const std::string& args, const std::string& environment = {}) {
  const std::string command = (environment.empty() ? std::string() : "env " + environment + " ") + std::string(VG_CLI_PATH) +
                              " " + args + " 2>&1";
  CliResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// @brief Run a shell command: its exit status and output (standard output and error).
inline CliResult shell(const std::string& command) {
  CliResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// @brief The BlazeFace assets directory ($VG_ASSETS_DIR, else <repo>/.cache/assets).
inline std::filesystem::path assets_dir() {
  if (const char* env = std::getenv("VG_ASSETS_DIR"); env && *env) return env;
  return std::filesystem::path(VG_SOURCE_DIR) / ".cache" / "assets";
}

inline bool have_assets(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (!std::filesystem::exists(assets_dir() / n)) return false;
  return true;
}

}  // namespace vg::test
