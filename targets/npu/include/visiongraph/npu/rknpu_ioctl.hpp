#pragma once
/// @file
/// @brief The rknpu kernel driver's DRM ioctl ABI (driver 0.9.x), declared by the project.

#include <cstddef>
#include <cstdint>

namespace vg::rknpu {

/// @brief Driver name reported by drmGetVersion() for the NPU.
inline constexpr const char* kDriverName = "rknpu";

// Command numbers relative to DRM_COMMAND_BASE.
inline constexpr std::uint32_t kCmdAction = 0x00;
inline constexpr std::uint32_t kCmdSubmit = 0x01;
inline constexpr std::uint32_t kCmdMemCreate = 0x02;
inline constexpr std::uint32_t kCmdMemMap = 0x03;
inline constexpr std::uint32_t kCmdMemDestroy = 0x04;
inline constexpr std::uint32_t kCmdMemSync = 0x05;
inline constexpr std::uint32_t kDrmCommandBase = 0x40;

/// @brief struct rknpu_action: flags selects the action, value carries the result or argument.
struct Action {
  std::uint32_t flags;
  std::uint32_t value;
};

/// @brief struct rknpu_mem_create (48 bytes since 0.9.6; older drivers read a 40- or 32-byte prefix).
struct MemCreate {
  std::uint32_t handle;
  std::uint32_t flags;
  std::uint64_t size;
  std::uint64_t obj_addr;  ///< kernel pointer to the GEM object: pass back unchanged to MEM_SYNC/DESTROY
  std::uint64_t dma_addr;  ///< NPU IOVA
  std::uint64_t sram_size;
  std::int32_t iommu_domain_id;
  std::uint32_t core_mask;  ///< "reserved" before 0.9.8
};

/// @brief struct rknpu_mem_map: returns the fake offset to mmap on the DRM fd.
struct MemMap {
  std::uint32_t handle;
  std::uint32_t reserved;
  std::uint64_t offset;
};

/// @brief struct rknpu_mem_destroy.
struct MemDestroy {
  std::uint32_t handle;
  std::uint32_t reserved;
  std::uint64_t obj_addr;
};

/// @brief struct rknpu_mem_sync (only valid on RKNPU_MEM_CACHEABLE objects).
struct MemSync {
  std::uint32_t flags;
  std::uint32_t reserved;
  std::uint64_t obj_addr;
  std::uint64_t offset;
  std::uint64_t size;
};

/// @brief struct rknpu_subcore_task.
struct SubcoreTask {
  std::uint32_t task_start;
  std::uint32_t task_number;
};

/// @brief struct rknpu_submit (declared for completeness of the ABI table; librknnrt does submission).
struct Submit {
  std::uint32_t flags;
  std::uint32_t timeout;  ///< milliseconds
  std::uint32_t task_start;
  std::uint32_t task_number;
  std::uint32_t task_counter;
  std::int32_t priority;
  std::uint64_t task_obj_addr;
  std::uint32_t iommu_domain_id;
  std::uint32_t reserved;
  std::uint64_t task_base_addr;
  std::int64_t hw_elapse_time;
  std::uint32_t core_mask;
  std::int32_t fence_fd;
  SubcoreTask subcore_task[5];
};

/// @brief e_rknpu_action values used by the project.
enum ActionId : std::uint32_t {
  kGetHwVersion = 0,
  kGetDrvVersion = 1,
  kGetFreq = 2,
  kGetVolt = 4,
  kGetIommuEn = 18,
  kGetTotalSramSize = 22,
  kGetFreeSramSize = 23,
};

/// @brief e_rknpu_mem_type bits.
namespace mem {
inline constexpr std::uint32_t kContiguous = 0;
inline constexpr std::uint32_t kNonContiguous = 1u << 0;
inline constexpr std::uint32_t kCacheable = 1u << 1;
inline constexpr std::uint32_t kWriteCombine = 1u << 2;
inline constexpr std::uint32_t kKernelMapping = 1u << 3;
inline constexpr std::uint32_t kIommu = 1u << 4;
inline constexpr std::uint32_t kZeroing = 1u << 5;
}  // namespace mem

/// @brief e_rknpu_mem_sync_mode values.
inline constexpr std::uint32_t kMemSyncToDevice = 1;
inline constexpr std::uint32_t kMemSyncFromDevice = 2;

/// @brief Linux _IOC encoding (dir<<30 | size<<16 | type<<8 | nr); identical on arm and arm64.
constexpr std::uint32_t ioc(std::uint32_t dir, std::uint32_t type, std::uint32_t nr, std::size_t size) noexcept {
  return (dir << 30) | (static_cast<std::uint32_t>(size) << 16) | (type << 8) | nr;
}
constexpr std::uint32_t drm_iowr(std::uint32_t nr, std::size_t size) noexcept {
  return ioc(3u, 'd', nr, size);
}

inline constexpr std::uint32_t kIoctlAction = drm_iowr(kDrmCommandBase + kCmdAction, sizeof(Action));
inline constexpr std::uint32_t kIoctlSubmit = drm_iowr(kDrmCommandBase + kCmdSubmit, sizeof(Submit));
inline constexpr std::uint32_t kIoctlMemCreate = drm_iowr(kDrmCommandBase + kCmdMemCreate, sizeof(MemCreate));
inline constexpr std::uint32_t kIoctlMemMap = drm_iowr(kDrmCommandBase + kCmdMemMap, sizeof(MemMap));
inline constexpr std::uint32_t kIoctlMemDestroy = drm_iowr(kDrmCommandBase + kCmdMemDestroy, sizeof(MemDestroy));
inline constexpr std::uint32_t kIoctlMemSync = drm_iowr(kDrmCommandBase + kCmdMemSync, sizeof(MemSync));
/// @brief The misc-device (/dev/rknpu, DMA-heap driver build) ACTION request: _IOWR('r', 0, rknpu_action).
inline constexpr std::uint32_t kMiscIoctlAction = ioc(3u, 'r', kCmdAction, sizeof(Action));

// Fixed-width fields only, 64-bit ones 8-byte aligned on both ABIs: the same numbers on aarch64 and armhf
// (checked with both cross compilers, docs/cross-build.md), and so the same request codes.
static_assert(sizeof(Action) == 8);
static_assert(sizeof(MemCreate) == 48);
static_assert(offsetof(MemCreate, size) == 8 && offsetof(MemCreate, obj_addr) == 16 &&
              offsetof(MemCreate, dma_addr) == 24 && offsetof(MemCreate, sram_size) == 32 &&
              offsetof(MemCreate, iommu_domain_id) == 40 && offsetof(MemCreate, core_mask) == 44);
static_assert(sizeof(MemMap) == 16 && offsetof(MemMap, offset) == 8);
static_assert(sizeof(MemDestroy) == 16 && offsetof(MemDestroy, obj_addr) == 8);
static_assert(sizeof(MemSync) == 32 && offsetof(MemSync, obj_addr) == 8 && offsetof(MemSync, offset) == 16 &&
              offsetof(MemSync, size) == 24);
static_assert(sizeof(SubcoreTask) == 8);
static_assert(sizeof(Submit) == 104 && alignof(Submit) == 8 && alignof(MemCreate) == 8);
static_assert(offsetof(Submit, task_obj_addr) == 24 && offsetof(Submit, iommu_domain_id) == 32 &&
              offsetof(Submit, task_base_addr) == 40 && offsetof(Submit, hw_elapse_time) == 48 &&
              offsetof(Submit, core_mask) == 56 && offsetof(Submit, fence_fd) == 60 &&
              offsetof(Submit, subcore_task) == 64);
static_assert(kIoctlAction == 0xC0086440u);
static_assert(kIoctlSubmit == 0xC0686441u);
static_assert(kIoctlMemCreate == 0xC0306442u);
static_assert(kIoctlMemMap == 0xC0106443u);
static_assert(kIoctlMemDestroy == 0xC0106444u);
static_assert(kIoctlMemSync == 0xC0206445u);
static_assert(kMiscIoctlAction == 0xC0087200u);

}  // namespace vg::rknpu
