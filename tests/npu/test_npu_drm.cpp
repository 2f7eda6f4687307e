// libdrm layer: enumeration and NPU lookup on this machine (which has no NPU, possibly no /dev/dri).
#include <gtest/gtest.h>

#include <filesystem>

#include "visiongraph/npu/drm_device.hpp"

namespace {

using namespace vg::npu;

bool host_has_rknpu() {
  for (const DrmNodeInfo& n : scan_drm_devices().nodes) {
    if (n.driver == "rknpu") return true;
  }
  return false;
}

TEST(NpuDrmTest, ScanListsNodesOrExplainsWhyNone) {
  const DrmScan scan = scan_drm_devices();
  if (scan.nodes.empty()) {
    EXPECT_NE(scan.error.find("no DRM devices"), std::string::npos) << scan.error;
  } else {
    for (const DrmNodeInfo& n : scan.nodes) {
      EXPECT_EQ(n.path.rfind("/dev/dri/", 0), 0u) << n.path;
      EXPECT_TRUE(!n.driver.empty() || !n.error.empty()) << n.path;
    }
  }
}

TEST(NpuDrmTest, OpenReturnsNoNpuCleanlyWithoutDevice) {
  if (host_has_rknpu()) GTEST_SKIP() << "this host has an rknpu device";
  std::string why;
  const auto npu = NpuDevice::open(&why);
  EXPECT_FALSE(npu.has_value());
  EXPECT_EQ(why.rfind("no NPU", 0), 0u) << why;
  EXPECT_NE(why.find("rknpu"), std::string::npos) << why;
}

TEST(NpuDrmTest, OpenWithoutReasonPointerDoesNotCrash) {
  if (host_has_rknpu()) GTEST_SKIP() << "this host has an rknpu device";
  EXPECT_FALSE(NpuDevice::open().has_value());
}

TEST(NpuDrmTest, OpenFindsNpuAndReadsVersionsOnBoard) {
  if (!host_has_rknpu()) GTEST_SKIP() << "no rknpu DRM device on this host (run on a Rockchip board)";
  std::string why;
  const auto npu = NpuDevice::open(&why);
  ASSERT_TRUE(npu.has_value()) << why;
  EXPECT_GE(npu->fd(), 0);
  EXPECT_GT(npu->driver_version(), 0u);
}

}  // namespace
