// Compile-time and run-time checks of the declared librknnrt and rknpu ABIs against the reference table.
#include <gtest/gtest.h>

#include <cstddef>

#include "visiongraph/npu/rknn_runtime.hpp"
#include "visiongraph/npu/rknn_types.hpp"
#include "visiongraph/npu/rknpu_ioctl.hpp"

namespace {

using namespace vg;

// The headers already static_assert these; repeating the key ones here keeps the test self-describing.
static_assert(sizeof(rknn::TensorAttr) == 376);
static_assert(sizeof(rknn::TensorMem) == 40);
static_assert(offsetof(rknn::TensorAttr, h_stride) == 372);
static_assert(rknpu::kIoctlAction == 0xC0086440u);
static_assert(rknpu::kIoctlMemCreate == 0xC0306442u);
static_assert(rknpu::kIoctlMemSync == 0xC0206445u);

TEST(NpuAbiTest, RknnStructSizesMatchReference) {
  EXPECT_EQ(sizeof(rknn::InputOutputNum), 8u);
  EXPECT_EQ(sizeof(rknn::TensorAttr), 376u);
  EXPECT_EQ(offsetof(rknn::TensorAttr, name), 72u);
  EXPECT_EQ(offsetof(rknn::TensorAttr, size_with_stride), 364u);
  EXPECT_EQ(sizeof(rknn::TensorMem), 40u);
  EXPECT_EQ(offsetof(rknn::TensorMem, fd), 16u);
  EXPECT_EQ(sizeof(rknn::RunExtend), 24u);
  EXPECT_EQ(offsetof(rknn::RunExtend, timeout_ms), 12u);
  EXPECT_EQ(sizeof(rknn::SdkVersion), 512u);
}

// The layouts that hold a pointer or a rknn_context, with the numbers of the ABI this was compiled for
// (the cross builds run this test on aarch64 and armhf under QEMU: scripts/cross_build.sh).
TEST(NpuAbiTest, PointerAndContextLayoutsMatchThisAbi) {
#if defined(__arm__)
  constexpr std::size_t context_size = 4, init_extend_size = 132, real_model_offset_at = 4, reserved_at = 20;
  constexpr std::size_t pointer_size = 4;
#else
  constexpr std::size_t context_size = 8, init_extend_size = 136, real_model_offset_at = 8, reserved_at = 24;
  constexpr std::size_t pointer_size = 8;
#endif
  EXPECT_EQ(sizeof(rknn::Context), context_size);
  EXPECT_EQ(sizeof(rknn::InitExtend), init_extend_size);
  EXPECT_EQ(offsetof(rknn::InitExtend, real_model_offset), real_model_offset_at);
  EXPECT_EQ(offsetof(rknn::InitExtend, reserved), reserved_at);
  // rknn_tensor_mem is 40 bytes on both: on armhf the 4-byte pointers are padded to keep phys_addr at 8.
  EXPECT_EQ(sizeof(rknn::TensorMem::virt_addr), pointer_size);
  EXPECT_EQ(sizeof(rknn::TensorMem), 40u);
  EXPECT_EQ(alignof(rknn::TensorMem), 8u);
  EXPECT_EQ(offsetof(rknn::TensorMem, phys_addr), 8u);
  EXPECT_EQ(offsetof(rknn::TensorMem, priv_data), 32u);
}

TEST(NpuAbiTest, RknpuIoctlRequestsMatchReference) {
  EXPECT_EQ(rknpu::kIoctlAction, 0xC0086440u);
  EXPECT_EQ(rknpu::kIoctlSubmit, 0xC0686441u);
  EXPECT_EQ(rknpu::kIoctlMemCreate, 0xC0306442u);
  EXPECT_EQ(rknpu::kIoctlMemMap, 0xC0106443u);
  EXPECT_EQ(rknpu::kIoctlMemDestroy, 0xC0106444u);
  EXPECT_EQ(rknpu::kIoctlMemSync, 0xC0206445u);
  EXPECT_EQ(rknpu::kMiscIoctlAction, 0xC0087200u);
  EXPECT_EQ(sizeof(rknpu::Submit), 104u);
  EXPECT_EQ(sizeof(rknpu::MemCreate), 48u);
}

TEST(NpuAbiTest, TensorAttrSizeFollowsRuntimeVersion) {
  EXPECT_EQ(rknn::tensor_attr_size_for(1, 2), 372u);
  EXPECT_EQ(rknn::tensor_attr_size_for(1, 3), 376u);
  EXPECT_EQ(rknn::tensor_attr_size_for(2, 3), 376u);
  EXPECT_EQ(rknn::tensor_attr_size_for(0, 6), 372u);
}

TEST(NpuAbiTest, VersionParseReadsLeadingTriple) {
  const auto v = npu::RknnVersion::parse("1.6.0 (9a7b5d24c@2023-12-13T17:31:11)");
  ASSERT_TRUE(v.valid);
  EXPECT_EQ(v.major, 1);
  EXPECT_EQ(v.minor, 6);
  EXPECT_EQ(v.patch, 0);
  EXPECT_TRUE(v.at_least(1, 6));
  EXPECT_FALSE(v.at_least(2, 0));
  EXPECT_TRUE(npu::RknnVersion::parse("v2.3.2").valid);
  EXPECT_FALSE(npu::RknnVersion::parse("garbage").valid);
}

TEST(NpuAbiTest, CheckAbiRefusesRuntimesBefore130WithClearMessage) {
  try {
    npu::RknnRuntime::check_abi(npu::RknnVersion::parse("1.2.0"), "1.2.0 (old)");
    FAIL() << "expected vg::Error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("372-byte"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(">= 1.3.0"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(npu::RknnRuntime::check_abi(npu::RknnVersion::parse("1.3.0"), "1.3.0"));
}

TEST(NpuAbiTest, ErrorNamesCoverTheList) {
  EXPECT_STREQ(rknn::error_name(rknn::kErrTimeout), "RKNN_ERR_TIMEOUT");
  EXPECT_STREQ(rknn::error_name(-13), "RKNN_ERR_TARGET_PLATFORM_UNMATCH");
  EXPECT_STREQ(rknn::error_name(-99), "unknown");
}

}  // namespace
