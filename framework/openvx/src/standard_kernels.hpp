#pragma once
// The declaration table of every standard OpenVX 1.3 kernel: names, enums and parameter signatures, so
// vxGetKernelByName / vxGetKernelByEnum / vxQueryKernel answer for kernels that are not implemented yet.
#include <VX/vx.h>

#include <cstdint>
#include <span>

namespace vg::openvx {

struct StandardParameter {
  vx_enum direction;  // VX_INPUT, VX_OUTPUT, VX_BIDIRECTIONAL
  vx_enum type;       // VX_TYPE_IMAGE, VX_TYPE_SCALAR, ... (VX_TYPE_REFERENCE where any object is accepted)
  vx_enum state;      // VX_PARAMETER_STATE_REQUIRED or VX_PARAMETER_STATE_OPTIONAL
};

inline constexpr std::uint32_t kMaxStandardParameters = 12;

struct StandardKernel {
  vx_enum kernel_enum;  // VX_KERNEL_...
  const char* name;     // "org.khronos.openvx.<name>"
  std::uint32_t parameter_count;
  StandardParameter parameters[kMaxStandardParameters];
};

/// Every standard kernel of OpenVX 1.3 (vision, enhanced vision, neural network and tensor kernels), in
/// enum order.
std::span<const StandardKernel> standard_kernels() noexcept;

}  // namespace vg::openvx
