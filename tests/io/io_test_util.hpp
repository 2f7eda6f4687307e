#pragma once
// Shared bits of the io tests: where the sample video is, and reading with a bound.

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "visiongraph/io/source.hpp"

#ifndef VG_DEFAULT_ASSETS_DIR
#define VG_DEFAULT_ASSETS_DIR ".cache/assets"
#endif

namespace vg::io::test {

using namespace std::chrono_literals;

inline std::filesystem::path assets_dir() {
  const char* env = std::getenv("VG_ASSETS_DIR");
  return (env != nullptr && *env != '\0') ? std::filesystem::path(env) : std::filesystem::path(VG_DEFAULT_ASSETS_DIR);
}

inline std::filesystem::path sample_video() { return assets_dir() / "Megamind.avi"; }

/// Skips the calling test when the sample video has not been fetched.
#define VG_REQUIRE_SAMPLE_VIDEO()                                                                 \
  do {                                                                                            \
    if (!std::filesystem::exists(::vg::io::test::sample_video()))                                 \
      GTEST_SKIP() << ::vg::io::test::sample_video() << " missing: run scripts/fetch_assets.sh"; \
  } while (0)

/// A fresh temporary directory, removed with the object.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("vg_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

}  // namespace vg::io::test
