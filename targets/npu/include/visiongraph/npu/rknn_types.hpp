#pragma once
/// @file
/// @brief The project's own declarations of the librknnrt C ABI (types, constants, function signatures).
///
/// Written from the layout facts in docs/npu.md (runtime 1.3.0 .. 2.3.2). Nothing here links against
/// librknnrt: RknnRuntime binds the functions with dlsym at run time, so a host without the runtime
/// still builds and runs everything else.

#include <cstddef>
#include <cstdint>

namespace vg::rknn {

// The handle is 32-bit only on 32-bit ARM; every by-value argument and rknn_init_extend depend on it.
#if defined(__arm__)
using Context = std::uint32_t;
#else
using Context = std::uint64_t;
#endif

inline constexpr std::uint32_t kMaxDims = 16;
inline constexpr std::uint32_t kMaxNumChannel = 15;
inline constexpr std::uint32_t kMaxNameLen = 256;

/// @brief rknn_query_cmd values (C enums are 4 bytes).
enum QueryCmd : std::int32_t {
  kQueryInOutNum = 0,
  kQueryInputAttr = 1,
  kQueryOutputAttr = 2,
  kQueryPerfDetail = 3,
  kQueryPerfRun = 4,
  kQuerySdkVersion = 5,
  kQueryMemSize = 6,
  kQueryCustomString = 7,
  kQueryNativeInputAttr = 8,   ///< alias NATIVE_NC1HWC2_INPUT_ATTR
  kQueryNativeOutputAttr = 9,  ///< alias NATIVE_NC1HWC2_OUTPUT_ATTR
  kQueryNativeNhwcInputAttr = 10,
  kQueryNativeNhwcOutputAttr = 11,
  kQueryDeviceMemInfo = 12,
  kQueryInputDynamicRange = 13,
  kQueryCurrentInputAttr = 14,
  kQueryCurrentOutputAttr = 15,
  kQueryCurrentNativeInputAttr = 16,
  kQueryCurrentNativeOutputAttr = 17,
};

/// @brief rknn_tensor_type values. INT4 since 1.6.0, BFLOAT16 since 2.3.0.
enum TensorType : std::int32_t {
  kTensorFloat32 = 0,
  kTensorFloat16 = 1,
  kTensorInt8 = 2,
  kTensorUint8 = 3,
  kTensorInt16 = 4,
  kTensorUint16 = 5,
  kTensorInt32 = 6,
  kTensorUint32 = 7,
  kTensorInt64 = 8,
  kTensorBool = 9,
  kTensorInt4 = 10,
  kTensorBfloat16 = 11,
};

/// @brief rknn_tensor_format values.
enum TensorFormat : std::int32_t {
  kFormatNchw = 0,
  kFormatNhwc = 1,
  kFormatNc1hwc2 = 2,
  kFormatUndefined = 3,
};

/// @brief rknn_tensor_qnt_type values.
enum QntType : std::int32_t {
  kQntNone = 0,
  kQntDfp = 1,
  kQntAffineAsymmetric = 2,
};

/// @brief rknn_core_mask values (CORE_ALL only since 2.0.0).
enum CoreMask : std::int32_t {
  kCoreAuto = 0,
  kCore0 = 1,
  kCore1 = 2,
  kCore2 = 4,
  kCore01 = 3,
  kCore012 = 7,
  kCoreAll = 0xffff,
};

/// @brief rknn_mem_sync_mode values (rknn_mem_sync exists since 1.6.0).
enum MemSyncMode : std::int32_t {
  kSyncToDevice = 0x1,
  kSyncFromDevice = 0x2,
  kSyncBidirectional = 0x3,
};

/// @brief rknn_tensor_mem_flags values.
enum TensorMemFlags : std::uint32_t {
  kMemFlagAllocInside = 1,
  kMemFlagFromFd = 2,
  kMemFlagFromPhys = 3,
};

/// @brief rknn_init flag bits (RKNN_FLAG_*).
namespace flag {
inline constexpr std::uint32_t kPriorHigh = 0x0;
inline constexpr std::uint32_t kPriorMedium = 0x1;
inline constexpr std::uint32_t kPriorLow = 0x2;
inline constexpr std::uint32_t kAsyncMask = 0x4;
inline constexpr std::uint32_t kCollectPerfMask = 0x8;
inline constexpr std::uint32_t kMemAllocOutside = 0x10;
inline constexpr std::uint32_t kShareWeightMem = 0x20;
inline constexpr std::uint32_t kFenceInOutside = 0x40;
inline constexpr std::uint32_t kFenceOutOutside = 0x80;
inline constexpr std::uint32_t kCollectModelInfoOnly = 0x100;
inline constexpr std::uint32_t kInternalAllocOutside = 0x200;
inline constexpr std::uint32_t kEnableSram = 0x800;
inline constexpr std::uint32_t kDisableFlushInputMemCache = 0x4000;
inline constexpr std::uint32_t kDisableFlushOutputMemCache = 0x8000;
}  // namespace flag

/// @brief rknn_create_mem2 allocation flags (>= 2.0.0).
namespace mem_alloc {
inline constexpr std::uint64_t kDefault = 0;  ///< same as cacheable
inline constexpr std::uint64_t kCacheable = 1;
inline constexpr std::uint64_t kNonCacheable = 2;
}  // namespace mem_alloc

/// @brief Error codes returned by every librknnrt call.
enum ErrorCode : std::int32_t {
  kSucc = 0,
  kErrFail = -1,
  kErrTimeout = -2,
  kErrDeviceUnavailable = -3,
  kErrMallocFail = -4,
  kErrParamInvalid = -5,
  kErrModelInvalid = -6,
  kErrCtxInvalid = -7,
  kErrInputInvalid = -8,
  kErrOutputInvalid = -9,
  kErrDeviceUnmatch = -10,
  kErrIncompatiblePreCompileModel = -11,
  kErrIncompatibleOptimizationLevelVersion = -12,
  kErrTargetPlatformUnmatch = -13,
};

/// @brief Symbolic name of a librknnrt error code ("RKNN_ERR_TIMEOUT"), "unknown" otherwise.
const char* error_name(int code) noexcept;

/// @brief rknn_input_output_num.
struct InputOutputNum {
  std::uint32_t n_input;
  std::uint32_t n_output;
};

/// @brief rknn_tensor_attr in its >= 1.3.0 form (376 bytes; 1.2.x had 372 and no h_stride).
struct TensorAttr {
  std::uint32_t index;
  std::uint32_t n_dims;
  std::uint32_t dims[kMaxDims];
  char name[kMaxNameLen];
  std::uint32_t n_elems;
  std::uint32_t size;
  TensorFormat fmt;
  TensorType type;
  QntType qnt_type;
  std::int8_t fl;
  std::int32_t zp;
  float scale;
  std::uint32_t w_stride;  ///< read-only; 0 means equal to width
  std::uint32_t size_with_stride;
  std::uint8_t pass_through;
  std::uint32_t h_stride;  ///< write-only; 0 means equal to height
};

/// @brief rknn_tensor_mem (struct _rknn_tensor_memory).
struct TensorMem {
  void* virt_addr;
  std::uint64_t phys_addr;
  std::int32_t fd;
  std::int32_t offset;
  std::uint32_t size;
  std::uint32_t flags;
  void* priv_data;
};

/// @brief rknn_run_extend: the runtime fills frame_id; timeout_ms bounds a blocking run (or rknn_wait).
///        non_block = 1 makes rknn_run return at once; on a context initialised with
///        flag::kFenceOutOutside the runtime returns the run's output fence in fence_fd.
struct RunExtend {
  std::uint64_t frame_id;
  std::int32_t non_block;
  std::int32_t timeout_ms;
  std::int32_t fence_fd;
};

/// @brief rknn_output_extend.
struct OutputExtend {
  std::uint64_t frame_id;
};

/// @brief rknn_sdk_version: api_version is the runtime ("1.6.0 (...)"), drv_version the kernel driver.
struct SdkVersion {
  char api_version[256];
  char drv_version[256];
};

/// @brief rknn_perf_run: duration of the last rknn_run in microseconds.
struct PerfRun {
  std::int64_t run_duration;
};

/// @brief rknn_mem_size in its >= 1.4.0 form.
struct MemSize {
  std::uint32_t total_weight_size;
  std::uint32_t total_internal_size;
  std::uint64_t total_dma_allocated_size;
  std::uint32_t total_sram_size;
  std::uint32_t free_sram_size;
  std::uint32_t reserved[10];
};

/// @brief rknn_init_extend in its >= 2.1.0 form; the byte size is the same in every version.
struct InitExtend {
  Context ctx;
  std::int32_t real_model_offset;
  std::uint32_t real_model_size;
  std::int32_t model_buffer_fd;
  std::uint32_t model_buffer_flags;
  std::uint8_t reserved[112];
};

// ABI checks, per ABI: LP64 (aarch64 boards; x86-64 hosts, same numbers) and 32-bit ARM EABI hard-float
// (armhf boards: 4-byte pointers and rknn_context, 64-bit members still 8-byte aligned). Each number was
// checked with sizeof/offsetof from aarch64-linux-gnu-g++ and arm-linux-gnueabihf-g++ (docs/cross-build.md).
// Layouts without a pointer or a rknn_context are the same on both.
static_assert(sizeof(InputOutputNum) == 8);
static_assert(sizeof(TensorAttr) == 376, "rknn_tensor_attr must be 376 bytes (runtime >= 1.3.0)");
static_assert(offsetof(TensorAttr, dims) == 8);
static_assert(offsetof(TensorAttr, name) == 72);
static_assert(offsetof(TensorAttr, n_elems) == 328);
static_assert(offsetof(TensorAttr, size) == 332);
static_assert(offsetof(TensorAttr, fmt) == 336);
static_assert(offsetof(TensorAttr, type) == 340);
static_assert(offsetof(TensorAttr, qnt_type) == 344);
static_assert(offsetof(TensorAttr, fl) == 348);
static_assert(offsetof(TensorAttr, zp) == 352);
static_assert(offsetof(TensorAttr, scale) == 356);
static_assert(offsetof(TensorAttr, w_stride) == 360);
static_assert(offsetof(TensorAttr, size_with_stride) == 364);
static_assert(offsetof(TensorAttr, pass_through) == 368);
static_assert(offsetof(TensorAttr, h_stride) == 372);
static_assert(sizeof(TensorMem) == 40, "rknn_tensor_mem must be 40 bytes");
static_assert(alignof(TensorMem) == 8, "phys_addr is 8-byte aligned on every supported ABI");
#if UINTPTR_MAX == 0xffffffffu
// armhf: virt_addr is bytes 0..3 then 4 bytes of padding; priv_data is 32..35 then 4 bytes of tail padding.
static_assert(sizeof(void*) == 4);
#else
static_assert(sizeof(void*) == 8);
#endif
static_assert(offsetof(TensorMem, virt_addr) == 0);
static_assert(offsetof(TensorMem, phys_addr) == 8);
static_assert(offsetof(TensorMem, fd) == 16);
static_assert(offsetof(TensorMem, offset) == 20);
static_assert(offsetof(TensorMem, size) == 24);
static_assert(offsetof(TensorMem, flags) == 28);
static_assert(offsetof(TensorMem, priv_data) == 32);
static_assert(sizeof(RunExtend) == 24);
static_assert(offsetof(RunExtend, non_block) == 8);
static_assert(offsetof(RunExtend, timeout_ms) == 12);
static_assert(offsetof(RunExtend, fence_fd) == 16);
static_assert(sizeof(OutputExtend) == 8);
static_assert(sizeof(SdkVersion) == 512);
static_assert(offsetof(SdkVersion, drv_version) == 256);
static_assert(sizeof(PerfRun) == 8);
static_assert(sizeof(MemSize) == 64);
static_assert(sizeof(QueryCmd) == 4 && sizeof(TensorType) == 4 && sizeof(TensorFormat) == 4);
#if defined(__arm__)
// armhf: a 4-byte rknn_context moves every later rknn_init_extend field 4 bytes down.
static_assert(sizeof(Context) == 4 && alignof(Context) == 4);
static_assert(sizeof(InitExtend) == 132 && alignof(InitExtend) == 4);
static_assert(offsetof(InitExtend, real_model_offset) == 4 && offsetof(InitExtend, real_model_size) == 8 &&
              offsetof(InitExtend, model_buffer_fd) == 12 && offsetof(InitExtend, model_buffer_flags) == 16 &&
              offsetof(InitExtend, reserved) == 20);
#else
static_assert(sizeof(Context) == 8 && alignof(Context) == 8);
static_assert(sizeof(InitExtend) == 136 && alignof(InitExtend) == 8);
static_assert(offsetof(InitExtend, real_model_offset) == 8 && offsetof(InitExtend, real_model_size) == 12 &&
              offsetof(InitExtend, model_buffer_fd) == 16 && offsetof(InitExtend, model_buffer_flags) == 20 &&
              offsetof(InitExtend, reserved) == 24);
#endif

/// @brief Byte size of rknn_tensor_attr for a runtime version: 372 before 1.3.0, 376 from 1.3.0 on.
constexpr std::size_t tensor_attr_size_for(int major, int minor) noexcept {
  return (major < 1 || (major == 1 && minor < 3)) ? 372u : 376u;
}

// Function signatures as bound with dlsym. The names mirror the C API.
extern "C" {
using InitFn = int (*)(Context* context, void* model, std::uint32_t size, std::uint32_t flag,
                       InitExtend* extend);
using DestroyFn = int (*)(Context context);
using DupContextFn = int (*)(Context* context_in, Context* context_out);
using QueryFn = int (*)(Context context, QueryCmd cmd, void* info, std::uint32_t size);
using RunFn = int (*)(Context context, RunExtend* extend);
using WaitFn = int (*)(Context context, RunExtend* extend);
using SetCoreMaskFn = int (*)(Context context, CoreMask core_mask);
using CreateMemFromFdFn = TensorMem* (*)(Context ctx, std::int32_t fd, void* virt_addr,
                                         std::uint32_t size, std::int32_t offset);
using CreateMemFn = TensorMem* (*)(Context ctx, std::uint32_t size);
using CreateMem2Fn = TensorMem* (*)(Context ctx, std::uint64_t size, std::uint64_t alloc_flags);
using DestroyMemFn = int (*)(Context ctx, TensorMem* mem);
using SetIoMemFn = int (*)(Context ctx, TensorMem* mem, TensorAttr* attr);
using MemSyncFn = int (*)(Context context, TensorMem* mem, MemSyncMode mode);
}

}  // namespace vg::rknn
