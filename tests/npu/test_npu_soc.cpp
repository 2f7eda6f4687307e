// The SoC and its NPU core count from a device tree's compatible strings (npu/soc.hpp), and the override.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>
#include <string>

#include "visiongraph/npu/soc.hpp"

namespace {

namespace fs = std::filesystem;
using vg::npu::detect_npu_soc;

/// A compatible file as the kernel exposes it: NUL-terminated strings, most specific first.
std::string write_compatible(const std::string& name, const std::string& entries_nul_separated) {
  const fs::path p = fs::temp_directory_path() / ("vg_soc_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p, std::ios::binary) << entries_nul_separated;
  return p.string();
}

class NpuSocTest : public ::testing::Test {
 protected:
  void SetUp() override { ::unsetenv("VG_NPU_CORES"); }
  void TearDown() override { ::unsetenv("VG_NPU_CORES"); }
};

TEST_F(NpuSocTest, CoreCountsOfTheDriversSocs) {
  EXPECT_EQ(vg::npu::npu_cores_of("rk3588"), 3u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3588s"), 3u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3576"), 2u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3568"), 1u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3566"), 1u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3562"), 1u);
  EXPECT_EQ(vg::npu::npu_cores_of("rv1106"), 1u);
  EXPECT_EQ(vg::npu::npu_cores_of("rk3399"), 0u) << "no rknpu NPU";
}

TEST_F(NpuSocTest, BoardEntryFirstThenTheSoc) {
  using namespace std::string_literals;
  const auto rk3588 = detect_npu_soc(write_compatible("rk3588", "radxa,rock-5b\0rockchip,rk3588\0"s));
  EXPECT_EQ(rk3588.name, "rk3588");
  EXPECT_EQ(rk3588.cores, 3u);
  EXPECT_NE(rk3588.source.find("device tree"), std::string::npos) << rk3588.source;
  const auto rk3576 = detect_npu_soc(write_compatible("rk3576", "rockchip,rk3576-evb1-v10\0rockchip,rk3576\0"s));
  EXPECT_EQ(rk3576.name, "rk3576");
  EXPECT_EQ(rk3576.cores, 2u);
  const auto rk3566 = detect_npu_soc(write_compatible("rk3566", "pine64,quartz64-a\0rockchip,rk3566\0"s));
  EXPECT_EQ(rk3566.cores, 1u);
}

TEST_F(NpuSocTest, UnknownWithoutADeviceTreeOrARockchipSoc) {
  using namespace std::string_literals;
  const auto none = detect_npu_soc("/nonexistent/compatible");
  EXPECT_EQ(none.cores, 0u);
  EXPECT_NE(none.source.find("not a device-tree board"), std::string::npos) << none.source;
  const auto other = detect_npu_soc(write_compatible("rpi", "raspberrypi,4-model-b\0brcm,bcm2711\0"s));
  EXPECT_EQ(other.cores, 0u);
  EXPECT_NE(other.source.find("no known Rockchip SoC"), std::string::npos) << other.source;
}

TEST_F(NpuSocTest, EnvironmentOverridesTheCountAndRefusesNonsense) {
  using namespace std::string_literals;
  ::setenv("VG_NPU_CORES", "2", 1);
  const auto soc = detect_npu_soc(write_compatible("rk3588b", "rockchip,rk3588\0"s));
  EXPECT_EQ(soc.cores, 2u);
  EXPECT_EQ(soc.source, "VG_NPU_CORES");
  for (const char* bad : {"0", "4", "two", "2x"}) {
    ::setenv("VG_NPU_CORES", bad, 1);
    try {
      (void)detect_npu_soc("/nonexistent/compatible");
      ADD_FAILURE() << "VG_NPU_CORES=" << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("must be 1, 2 or 3"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
