#pragma once
// Tensors: N-dimensional arrays of numbers, views sharing their parent's memory, and tensors on
// application memory (vxCreateTensorFromHandle).
#include <memory>
#include <mutex>

#include "map_table.hpp"
#include "object.hpp"

namespace vg::openvx {

/// The memory of a tensor and of every view made from it, with the maps outstanding on any of them (so a
/// handle swap can see a map through a view).
struct TensorMemory {
  std::mutex lock;
  std::unique_ptr<vx_uint8[]> owned;  // allocated by the library; null for application memory
  vx_uint8* base = nullptr;           // owned.get(), or the application's memory (null once swapped out)
  vx_size bytes = 0;                  // size of owned memory
  bool from_handle = false;
  MapTable maps;
};

}  // namespace vg::openvx

struct _vx_tensor_t final : _vx_reference {
  explicit _vx_tensor_t(vx_context owner) noexcept : _vx_reference(VX_TYPE_TENSOR, owner) {}

  vx_size number_of_dims = 0;
  vx_size dims[vg::openvx::kMaxTensorDims] = {};
  vx_size strides[vg::openvx::kMaxTensorDims] = {};  // bytes from one element to the next, per dimension
  vx_enum data_type = VX_TYPE_INVALID;
  vx_int8 fixed_point_position = 0;
  std::shared_ptr<vg::openvx::TensorMemory> memory;  // null for a virtual tensor until vxVerifyGraph
  vx_size offset = 0;                                // of element (0, ..., 0) in memory (views)
  bool is_virtual = false;
  bool is_view = false;
  // What a virtual tensor was created with; 0 and VX_TYPE_INVALID are left open for validate to set.
  vx_size requested_number_of_dims = 0;
  vx_size requested_dims[vg::openvx::kMaxTensorDims] = {};
  vx_enum requested_data_type = VX_TYPE_INVALID;
};

namespace vg::openvx {

/// Element size of a tensor data type; 0 for a type a tensor does not hold.
vx_size tensor_item_size(vx_enum data_type) noexcept;

/// A tensor like @p exemplar owned by @p owner (a graph makes it virtual); see data_object.hpp.
vx_reference tensor_like(vx_reference owner, const _vx_tensor_t* exemplar) noexcept;

/// vxSetMetaFormatFromReference for a tensor.
vx_status tensor_meta_from(vx_meta_format meta, const _vx_tensor_t* exemplar) noexcept;

/// Validate's tensor attributes applied to an output tensor (data_object.hpp, apply_meta).
vx_status tensor_apply_meta(_vx_tensor_t* tensor, vx_meta_format meta, char* why, vx_size why_size) noexcept;

}  // namespace vg::openvx
