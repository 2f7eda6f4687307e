// Replays every fuzzer corpus file and every crash/regression input through the loader, as the fuzz
// target does: it must never crash (errors are fine).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_one.hpp"

namespace {

std::vector<std::filesystem::path> inputs() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {VG_FUZZ_CORPUS_DIR, VG_FUZZ_REGRESSION_DIR}) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().filename().string().front() != '.') out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(YamlRegressionTest, EveryCorpusAndRegressionInputLoadsOrFailsCleanly) {
  const auto files = inputs();
  ASSERT_FALSE(files.empty()) << "no inputs under " << VG_FUZZ_CORPUS_DIR;
  std::size_t built = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string data = text.str();
    if (vg::yaml::fuzz::load_one(reinterpret_cast<const std::uint8_t*>(data.data()), data.size())) ++built;
  }
  std::cout << "[ regression ] " << files.size() << " inputs, " << built << " built and ran\n";
  EXPECT_GT(built, 0u) << "the corpus should hold some valid graphs";
}

}  // namespace
