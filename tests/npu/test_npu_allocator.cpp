// DMA-BUF allocator chain: memfd works everywhere; the factory picks the best available; doctor reports it.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/npu/dma_heap_allocator.hpp"
#include "visiongraph/npu/dmabuf_allocator.hpp"
#include "visiongraph/npu/doctor.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"

namespace {

using namespace vg;
using namespace vg::npu;

TEST(NpuAllocatorTest, MemfdAllocateGivesMappedFdBackedBlock) {
  MemfdAllocator sut;
  MemoryBlock b = sut.allocate(1000, 64);
  ASSERT_NE(b.data, nullptr);
  EXPECT_GE(b.dmabuf_fd, 0);
  EXPECT_EQ(b.size, 1000u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data) % 64, 0u);
  EXPECT_EQ(b.owner, &sut);
  std::memset(b.data, 0x5a, b.size);
  // The fd sees the CPU writes: a second, independent mapping of the same fd reads them back.
  void* again = mmap(nullptr, b.fd_offset + b.size, PROT_READ, MAP_SHARED, b.dmabuf_fd, 0);
  ASSERT_NE(again, MAP_FAILED);
  EXPECT_EQ(static_cast<unsigned char*>(again)[b.fd_offset + 999], 0x5a);
  munmap(again, b.fd_offset + b.size);
  sut.release(b);
  EXPECT_EQ(b.data, nullptr);
  EXPECT_EQ(b.dmabuf_fd, -1);
}

TEST(NpuAllocatorTest, MemfdHonoursAlignmentLargerThanPage) {
  MemfdAllocator sut;
  const std::size_t big = 4 * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  MemoryBlock b = sut.allocate(100, big);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data) % big, 0u);
  sut.release(b);
}

TEST(NpuAllocatorTest, MemfdCpuAccessBracketsSucceedDespiteEnotty) {
  MemfdAllocator sut;
  MemoryBlock b = sut.allocate(64, 16);
  EXPECT_EQ(sut.begin_cpu_access(b, CpuAccess::write), Status::ok);
  EXPECT_EQ(sut.end_cpu_access(b, CpuAccess::write), Status::ok);
  EXPECT_EQ(sut.begin_cpu_access(b, CpuAccess::read), Status::ok);  // second call: latched, no ioctl
  EXPECT_EQ(sut.end_cpu_access(b, CpuAccess::read), Status::ok);
  sut.release(b);
}

TEST(NpuAllocatorTest, ReleaseToleratesEmptyBlock) {
  MemfdAllocator sut;
  MemoryBlock empty;
  sut.release(empty);
  EXPECT_EQ(empty.dmabuf_fd, -1);
}

TEST(NpuAllocatorTest, FactoryPicksBestAvailableAndExplains) {
  const DmaBufAllocatorChoice sut = make_dmabuf_allocator();
  ASSERT_NE(sut.allocator, nullptr);
  EXPECT_EQ(std::string(sut.allocator->name()), sut.kind);
  if (DmaHeapAllocator::available_heaps().empty() && sut.kind != "rknpu") {
    EXPECT_EQ(sut.kind, "memfd");
    EXPECT_FALSE(sut.is_dmabuf);
    EXPECT_NE(sut.reason.find("no NPU"), std::string::npos) << sut.reason;
    EXPECT_NE(sut.reason.find("DMA heap"), std::string::npos) << sut.reason;
  }
  MemoryBlock b = sut.allocator->allocate(4096, 64);
  EXPECT_GE(b.dmabuf_fd, 0);
  sut.allocator->release(b);
}

TEST(NpuAllocatorTest, DmaHeapOpenFirstExplainsMissingHeaps) {
  std::string why;
  auto heap = DmaHeapAllocator::open_first({"/nonexistent/dma_heap/system"}, &why);
  EXPECT_EQ(heap, nullptr);
  EXPECT_NE(why.find("no DMA heap"), std::string::npos) << why;
}

TEST(NpuAllocatorTest, DoctorReportsEverySection) {
  DoctorOptions opt;
  opt.runtime_path = "/nonexistent/librknnrt.so";
  const DoctorReport r = run_doctor(opt);
  const std::string text = format(r);
  EXPECT_NE(text.find("DRM devices:"), std::string::npos) << text;
  EXPECT_NE(text.find("NPU:"), std::string::npos) << text;
  EXPECT_NE(text.find("librknnrt: not loaded: /nonexistent/librknnrt.so not found (dlopen:"), std::string::npos)
      << text;
  EXPECT_NE(text.find("set VG_RKNNRT_PATH"), std::string::npos) << text;
  EXPECT_NE(text.find("allocator: " + r.allocator), std::string::npos) << text;
  EXPECT_NE(text.find("OpenCV: "), std::string::npos) << text;
  EXPECT_NE(text.find("inference: .rknn models -> unavailable"), std::string::npos) << text;
}

TEST(NpuAllocatorTest, DoctorReadsVersionsFromStandInRuntime) {
  const char* model = "/tmp/vg_doctor_fake.rknn";
  FILE* f = fopen(model, "w");
  ASSERT_NE(f, nullptr);
  fputs("fake-rknn\ninput 1 4 4 3\noutput 1 8 2 2\n", f);
  fclose(f);
  DoctorOptions opt;
  opt.runtime_path = VG_FAKE_RKNNRT_PATH;
  opt.model_path = model;
  const DoctorReport r = run_doctor(opt);
  EXPECT_TRUE(r.runtime_loaded) << r.runtime_error;
  EXPECT_EQ(r.runtime_api_version.rfind("1.6.0", 0), 0u) << format(r);
  EXPECT_EQ(r.runtime_driver_version, "0.9.8");
  EXPECT_TRUE(r.runtime_has_mem_sync);
  EXPECT_EQ(r.runtime_destroy_symbol, "rknn_destroy_mem");
  EXPECT_TRUE(r.runtime_has_dup_context);
  EXPECT_TRUE(r.async_runs.empty()) << r.async_runs;
  EXPECT_NE(format(r).find("rknn_dup_context yes: replicas load the weights once"), std::string::npos) << format(r);
  {
    vg::test::FakeRknnrt fake(VG_FAKE_RKNNRT_PATH);  // restores the version when it goes
    fake.set_api_version("2.3.2 (fake runtime)");
    const DoctorReport r232 = run_doctor(opt);
    EXPECT_NE(r232.async_runs.find("refused on librknnrt 2.3.2 and later"), std::string::npos) << format(r232);
    EXPECT_NE(format(r232).find("  async runs: no: refused"), std::string::npos) << format(r232);
  }
  unlink(model);
}

TEST(NpuAllocatorTest, DoctorNamesTheSocAndItsNpuCores) {
  if (std::getenv("VG_NPU_CORES") != nullptr) GTEST_SKIP() << "VG_NPU_CORES overrides the device tree";
  const std::string compatible = ::testing::TempDir() + "vg_doctor_compatible";
  {
    FILE* f = fopen(compatible.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const char entries[] = "radxa,rock-5b\0rockchip,rk3588\0";
    fwrite(entries, 1, sizeof(entries) - 1, f);
    fclose(f);
  }
  DoctorOptions opt;
  opt.runtime_path = "/nonexistent/librknnrt.so";
  opt.device_tree_compatible = compatible;
  DoctorReport r = run_doctor(opt);
  EXPECT_EQ(r.soc, "rk3588");
  EXPECT_EQ(r.npu_cores, 3u);
  EXPECT_NE(format(r).find("SoC: rk3588, 3 NPU cores ("), std::string::npos) << format(r);
  EXPECT_NE(format(r).find("at most 3 replicas of an rknn node"), std::string::npos) << format(r);
  opt.device_tree_compatible = ::testing::TempDir() + "no_such_compatible";
  r = run_doctor(opt);
  EXPECT_EQ(r.npu_cores, 0u);
  EXPECT_NE(format(r).find("SoC: unknown ("), std::string::npos) << format(r);
  unlink(compatible.c_str());
}

}  // namespace
