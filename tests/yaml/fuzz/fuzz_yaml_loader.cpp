// libFuzzer target for the YAML graph loader (build: -DVG_BUILD_FUZZERS=ON; see tests/yaml/fuzz/README.md).

#include <cstddef>
#include <cstdint>

#include "fuzz_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)vg::yaml::fuzz::load_one(data, size);
  return 0;
}
