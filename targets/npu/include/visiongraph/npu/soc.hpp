#pragma once
/// @file
/// @brief Which Rockchip SoC this is and how many NPU cores it has, from the device tree.
///
/// The rknpu driver accepts a core mask only within its SoC's cores (it answers -EINVAL otherwise):
/// RK3588 has cores 0..2 (mask 0x7), RK3576 0..1 (0x3), RK3566/RK3568, RK3562 and RV1106/RV1103 one (0x1)
/// (the driver's per-SoC configuration, rknpu_drv.c). docs/npu.md lists the sources.

#include <string>
#include <string_view>

namespace vg::npu {

/// @brief The SoC and its NPU core count.
struct NpuSoc {
  std::string name;    ///< "rk3588", "rk3576", ...; empty when unknown
  unsigned cores = 0;  ///< NPU cores; 0 = unknown (not a Rockchip board, or a SoC not in the table)
  std::string source;  ///< where the answer came from: "device tree (...)", "VG_NPU_CORES", or why unknown
};

/// @brief NPU cores of a SoC name as the device tree spells it ("rk3588", "rk3588s", "rv1106", ...); 0 if
///        the name is not a known Rockchip SoC with an NPU.
unsigned npu_cores_of(std::string_view soc) noexcept;

/// @brief Detects the SoC: the environment variable VG_NPU_CORES (1..3) overrides the count; else the first
///        "rockchip,<soc>" entry of @p compatible_path (NUL-separated strings) that names a known SoC.
/// @throws std::invalid_argument when VG_NPU_CORES is set to anything but 1, 2 or 3.
NpuSoc detect_npu_soc(const std::string& compatible_path = "/proc/device-tree/compatible");

}  // namespace vg::npu
