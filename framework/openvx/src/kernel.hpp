#pragma once
// Kernels (standard declarations and user kernels) and the parameter objects that describe one parameter of
// a kernel or of a node.
#include <string>
#include <vector>

#include "object.hpp"

namespace vg::openvx {

struct ParameterSignature {
  vx_enum direction = VX_INPUT;
  vx_enum type = VX_TYPE_INVALID;  // VX_TYPE_INVALID until vxAddParameterToKernel declares it
  vx_enum state = VX_PARAMETER_STATE_REQUIRED;
};

}  // namespace vg::openvx

struct _vx_kernel final : _vx_reference {
  explicit _vx_kernel(vx_context owner) noexcept : _vx_reference(VX_TYPE_KERNEL, owner) {}

  std::string kernel_name;
  vx_enum enumeration = 0;
  std::vector<vg::openvx::ParameterSignature> signature;
  bool user = false;         // added by vxAddUserKernel (only those can be removed)
  bool finalized = false;    // standard declarations are final; user kernels after vxFinalizeKernel
  bool implemented = false;  // has a function to run: user kernels, and the standard kernels standard_kernel_support.cpp lists
  bool removed = false;      // vxRemoveKernel ran: no longer found by name or enum
  vx_kernel_f function = nullptr;
  vx_kernel_validate_f validate = nullptr;
  vx_kernel_initialize_f initialize = nullptr;
  vx_kernel_deinitialize_f deinitialize = nullptr;
  vx_size local_data_size = 0;
  vx_uint32 pipeup_input_depth = 1;
  vx_uint32 pipeup_output_depth = 1;
  // The visiongraph kernels running it, by a node's number of predecessors (declared when first needed).
  std::vector<std::string> runtime_kernels;
};

struct _vx_parameter final : _vx_reference {
  _vx_parameter(vx_context owner, vx_kernel kernel_, vx_node node_, vx_uint32 index_) noexcept;
  ~_vx_parameter() override;

  vx_kernel kernel;  // held internally
  vx_node node;      // held internally; null for a kernel's parameter
  vx_uint32 index;
};

namespace vg::openvx {

/// A new parameter object (one application hold) for parameter @p index of @p kernel, or of @p node when
/// not null; an error object of @p owner's context when the index is out of range.
vx_parameter make_parameter(vx_reference owner, vx_kernel kernel, vx_node node, vx_uint32 index) noexcept;

}  // namespace vg::openvx
