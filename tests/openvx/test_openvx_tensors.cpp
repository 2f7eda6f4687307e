// Tensors of the OpenVX C API: creation and queries, patch copies and maps, views, application memory and
// handle swaps, virtual tensors passed between user kernels in a graph, and the refusals the spec asks for.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <array>
#include <thread>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;

vx_tensor tensor3(vx_context context, vx_size x, vx_size y, vx_size z, vx_enum type = VX_TYPE_UINT16) {
  const vx_size dims[3] = {x, y, z};
  return vxCreateTensor(context, 3, dims, type, 0);
}

/// Fills a dense uint16 tensor of dims x * y * z with value(x, y, z) = x + 10 y + 100 z.
void fill_uint16(vx_tensor tensor, vx_size x, vx_size y, vx_size z) {
  std::vector<vx_uint16> data(x * y * z);
  for (vx_size k = 0; k < z; ++k)
    for (vx_size j = 0; j < y; ++j)
      for (vx_size i = 0; i < x; ++i) data[(k * y + j) * x + i] = static_cast<vx_uint16>(i + 10 * j + 100 * k);
  const vx_size start[3] = {0, 0, 0}, end[3] = {x, y, z};
  const vx_size strides[3] = {2, 2 * x, 2 * x * y};
  ASSERT_EQ(vxCopyTensorPatch(tensor, 3, start, end, strides, data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

TEST_F(OpenVx, TensorsOfEveryDataTypeAndUpToSixDimensionsAreCreatedAndQueried) {
  const std::array<std::pair<vx_enum, vx_size>, 11> types = {{{VX_TYPE_INT8, 1},
                                                             {VX_TYPE_UINT8, 1},
                                                             {VX_TYPE_INT16, 2},
                                                             {VX_TYPE_UINT16, 2},
                                                             {VX_TYPE_INT32, 4},
                                                             {VX_TYPE_UINT32, 4},
                                                             {VX_TYPE_INT64, 8},
                                                             {VX_TYPE_UINT64, 8},
                                                             {VX_TYPE_FLOAT16, 2},
                                                             {VX_TYPE_FLOAT32, 4},
                                                             {VX_TYPE_FLOAT64, 8}}};
  vx_size max_dims = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_MAX_TENSOR_DIMS, &max_dims, sizeof max_dims), VX_SUCCESS);
  ASSERT_EQ(max_dims, 6u);
  const vx_size dims[6] = {2, 3, 1, 4, 2, 2};
  for (const auto& [type, item_size] : types) {
    for (vx_size n = 1; n <= max_dims; ++n) {
      vx_tensor t = vxCreateTensor(context_, n, dims, type, type == VX_TYPE_INT16 ? 8 : 0);
      ASSERT_EQ(vxGetStatus(ref(t)), VX_SUCCESS) << "type 0x" << std::hex << type << std::dec << " dims " << n;
      vx_size queried_n = 0;
      vx_size queried_dims[6] = {};
      vx_enum queried_type = 0;
      vx_int8 fixed = -1;
      EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &queried_n, sizeof queried_n), VX_SUCCESS);
      EXPECT_EQ(queried_n, n);
      EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, queried_dims, n * sizeof(vx_size)), VX_SUCCESS);
      for (vx_size i = 0; i < n; ++i) EXPECT_EQ(queried_dims[i], dims[i]);
      EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, queried_dims, sizeof queried_dims), VX_SUCCESS) << "a larger array is fine";
      EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &queried_type, sizeof queried_type), VX_SUCCESS);
      EXPECT_EQ(queried_type, type);
      EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_FIXED_POINT_POSITION, &fixed, sizeof fixed), VX_SUCCESS);
      EXPECT_EQ(fixed, type == VX_TYPE_INT16 ? 8 : 0);
      if (n == 6) {
        // Map the whole tensor: the strides are dense, the first is the element size.
        const vx_size start[6] = {}, end[6] = {2, 3, 1, 4, 2, 2};
        vx_size stride[6] = {};
        void* ptr = nullptr;
        vx_map_id id = 0;
        ASSERT_EQ(vxMapTensorPatch(t, 6, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
        EXPECT_EQ(stride[0], item_size);
        for (vx_size i = 1; i < 6; ++i) EXPECT_EQ(stride[i], stride[i - 1] * dims[i - 1]);
        EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
      }
      EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
      EXPECT_EQ(t, nullptr);
    }
  }
}

TEST_F(OpenVx, TensorCreationRefusesBadTypesAndShapes) {
  const vx_size dims[7] = {2, 2, 2, 2, 2, 2, 2};
  const vx_size with_zero[2] = {3, 0};
  EXPECT_EQ(vxCreateTensor(nullptr, 2, dims, VX_TYPE_UINT8, 0), nullptr);
  EXPECT_EQ(vxCreateVirtualTensor(nullptr, 2, dims, VX_TYPE_UINT8, 0), nullptr);
  EXPECT_EQ(vxCreateTensorFromView(nullptr, 2, dims, dims), nullptr);
  for (vx_enum bad_type : {VX_TYPE_INVALID, VX_TYPE_BOOL, VX_TYPE_CHAR, VX_TYPE_RECTANGLE, VX_TYPE_TENSOR}) {
    EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 2, dims, bad_type, 0))), VX_ERROR_INVALID_TYPE);
  }
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 0, dims, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 7, dims, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 2, nullptr, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 2, with_zero, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  const vx_size huge[2] = {~vx_size{0} / 2, 4};
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensor(context_, 2, huge, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  vx_graph graph = vxCreateGraph(context_);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualTensor(graph, 7, dims, VX_TYPE_UINT8, 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualTensor(graph, 2, dims, VX_TYPE_BOOL, 0))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

TEST_F(OpenVx, TensorCallsRefuseNullAndWrongTypeHandles) {
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  auto wrong = reinterpret_cast<vx_tensor>(scalar);
  const vx_size start[1] = {0}, end[1] = {1}, stride[1] = {1};
  vx_size out_stride[1] = {};
  vx_uint8 byte = 0;
  void* ptr = nullptr;
  vx_map_id id = 0;
  vx_size n = 0;
  for (vx_tensor t : {static_cast<vx_tensor>(nullptr), wrong}) {
    EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCopyTensorPatch(t, 1, start, end, stride, &byte, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxMapTensorPatch(t, 1, start, end, &id, out_stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
              VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxUnmapTensorPatch(t, 1), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSwapTensorHandle(t, nullptr, nullptr), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxCreateTensorFromView(t, 1, start, end), nullptr);
  }
  EXPECT_EQ(vxReleaseTensor(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseTensor(&wrong), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(wrong, reinterpret_cast<vx_tensor>(scalar)) << "a refused release leaves the handle";
  // A released tensor is no longer a tensor.
  vx_tensor t = tensor3(context_, 2, 2, 2);
  vx_tensor copy = t;
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
  EXPECT_EQ(vxQueryTensor(copy, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
}

TEST_F(OpenVx, TensorQueriesCheckSizesAndAttributes) {
  vx_tensor t = tensor3(context_, 4, 3, 2);
  vx_size dims[3] = {};
  vx_enum type = 0;
  vx_uint16 small = 0;  // smaller than vx_size on every ABI
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, nullptr, sizeof(vx_size)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, dims, 2 * sizeof(vx_size)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, dims, sizeof dims), VX_SUCCESS);
  EXPECT_EQ(dims[0], 4u);
  EXPECT_EQ(dims[2], 2u);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &type, 1), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_FIXED_POINT_POSITION, &type, sizeof type), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_LUT_TYPE, &type, sizeof type), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TensorPatchCopiesReadBackWhatWasWritten) {
  vx_tensor t = tensor3(context_, 5, 4, 3);
  fill_uint16(t, 5, 4, 3);
  // Read a patch starting at (1, 2, 1), into a user buffer with padded rows.
  const vx_size start[3] = {1, 2, 1}, end[3] = {4, 4, 3};
  const vx_size user_stride[3] = {2, 2 * 4, 2 * 4 * 2};  // rows of 4 elements for a 3-wide patch
  std::vector<vx_uint16> patch(4 * 2 * 2, 0xFFFF);
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, user_stride, patch.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (vx_size k = 0; k < 2; ++k)
    for (vx_size j = 0; j < 2; ++j) {
      for (vx_size i = 0; i < 3; ++i) EXPECT_EQ(patch[(k * 2 + j) * 4 + i], (1 + i) + 10 * (2 + j) + 100 * (1 + k));
      EXPECT_EQ(patch[(k * 2 + j) * 4 + 3], 0xFFFF) << "the padding is left alone";
    }
  // Write a patch with element strides wider than the element (every other uint16 of the buffer).
  const vx_size wstart[3] = {2, 1, 0}, wend[3] = {4, 2, 1};
  const vx_size wide[3] = {4, 8, 8};
  const vx_uint16 values[4] = {7000, 0, 7001, 0};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, wstart, wend, wide, const_cast<vx_uint16*>(values), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  std::vector<vx_uint16> all(5 * 4 * 3);
  const vx_size zero[3] = {0, 0, 0}, full[3] = {5, 4, 3}, dense[3] = {2, 10, 40};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, zero, full, dense, all.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(all[1 * 5 + 2], 7000);
  EXPECT_EQ(all[1 * 5 + 3], 7001);
  EXPECT_EQ(all[1 * 5 + 1], 11) << "beside the patch: unchanged";
  EXPECT_EQ(all[2 * 5 + 2], 22);
  // Fewer dimensions than the tensor: the rest are taken at index 0.
  vx_uint16 row[5] = {};
  const vx_size one_start[1] = {0}, one_end[1] = {5}, one_stride[1] = {2};
  ASSERT_EQ(vxCopyTensorPatch(t, 1, one_start, one_end, one_stride, row, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(row[4], 4);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TensorCopiesRefuseBadRangesStridesAndUsages) {
  vx_tensor t = tensor3(context_, 4, 3, 2);
  std::vector<vx_uint16> buffer(64);
  const vx_size start[3] = {0, 0, 0}, end[3] = {4, 3, 2}, stride[3] = {2, 8, 24};
  auto copy = [&](vx_size n, const vx_size* s, const vx_size* e, const vx_size* st, void* p, vx_enum usage, vx_enum mem) {
    return vxCopyTensorPatch(t, n, s, e, st, p, usage, mem);
  };
  EXPECT_EQ(copy(3, start, end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(copy(0, start, end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(4, start, end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  // No start: the origin; no end: the far end of each dimension.
  EXPECT_EQ(copy(3, nullptr, end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(copy(3, start, nullptr, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_size beyond_start[3] = {4, 0, 0};
  EXPECT_EQ(copy(3, beyond_start, nullptr, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, nullptr, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, stride, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  const vx_size past_end[3] = {5, 3, 2}, empty_start[3] = {2, 0, 0}, empty_end[3] = {2, 3, 2};
  EXPECT_EQ(copy(3, start, past_end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, empty_start, empty_end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  const vx_size short_item[3] = {1, 8, 24}, overlapping[3] = {2, 6, 24}, overlapping_planes[3] = {2, 8, 16};
  EXPECT_EQ(copy(3, start, end, short_item, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, overlapping, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, overlapping_planes, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, stride, buffer.data(), VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, stride, buffer.data(), 0, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, stride, buffer.data(), VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TensorMapsPointIntoTheTensorWithItsStrides) {
  vx_tensor t = tensor3(context_, 5, 4, 3);
  fill_uint16(t, 5, 4, 3);
  const vx_size start[3] = {1, 1, 2}, end[3] = {3, 4, 3};
  vx_size stride[3] = {};
  void* ptr = nullptr;
  vx_map_id id = 0;
  ASSERT_EQ(vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_NE(id, 0u);
  EXPECT_EQ(stride[0], 2u);
  EXPECT_EQ(stride[1], 10u);
  EXPECT_EQ(stride[2], 40u);
  auto at = [&](vx_size x, vx_size y) -> vx_uint16& {
    return *reinterpret_cast<vx_uint16*>(static_cast<vx_uint8*>(ptr) + x * stride[0] + y * stride[1]);
  };
  EXPECT_EQ(at(0, 0), 1 + 10 + 200);
  EXPECT_EQ(at(1, 2), 2 + 30 + 200);
  at(1, 2) = 9999;
  EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_ERROR_INVALID_PARAMETERS) << "already unmapped";
  EXPECT_EQ(vxUnmapTensorPatch(t, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapTensorPatch(t, 12345), VX_ERROR_INVALID_PARAMETERS) << "never mapped";
  vx_uint16 value = 0;
  const vx_size one_start[3] = {2, 3, 2}, one_end[3] = {3, 4, 3}, one_stride[3] = {2, 2, 2};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, one_start, one_end, one_stride, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 9999) << "the map wrote into the tensor";
  // Bad arguments.
  const vx_size past_end[3] = {6, 4, 3};
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, past_end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapTensorPatch(t, 0, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, nullptr, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  // Without bounds: the whole tensor.
  ASSERT_EQ(vxMapTensorPatch(t, 3, nullptr, nullptr, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(*static_cast<vx_uint16*>(ptr), 0);
  EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, &id, nullptr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, &id, stride, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, 0, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TooManyOutstandingTensorMapsRunOutOfResources) {
  vx_tensor t = tensor3(context_, 2, 2, 2);
  const vx_size start[3] = {0, 0, 0}, end[3] = {2, 2, 2};
  vx_size stride[3];
  void* ptr = nullptr;
  std::vector<vx_map_id> ids;
  for (;;) {
    vx_map_id id = 0;
    const vx_status s = vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    if (s != VX_SUCCESS) {
      EXPECT_EQ(s, VX_ERROR_NO_RESOURCES);
      break;
    }
    ids.push_back(id);
    ASSERT_LT(ids.size(), 1000u);
  }
  EXPECT_GE(ids.size(), 4u);
  for (vx_map_id id : ids) EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
  vx_map_id id = 0;
  EXPECT_EQ(vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TensorMapsFromManyThreadsAtOnce) {
  vx_tensor t = tensor3(context_, 8, 1, 1, VX_TYPE_UINT32);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (vx_size x = 0; x < 8; ++x) {
    threads.emplace_back([&, x] {
      const vx_size start[3] = {x, 0, 0}, end[3] = {x + 1, 1, 1};
      for (int i = 0; i < 500; ++i) {
        vx_size stride[3];
        void* ptr = nullptr;
        vx_map_id id = 0;
        if (vxMapTensorPatch(t, 3, start, end, &id, stride, &ptr, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) {
          ++failures;
          continue;
        }
        *static_cast<vx_uint32*>(ptr) += 1;
        if (vxUnmapTensorPatch(t, id) != VX_SUCCESS) ++failures;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  vx_uint32 values[8] = {};
  const vx_size start[3] = {0, 0, 0}, end[3] = {8, 1, 1}, stride[3] = {4, 32, 32};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, stride, values, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (vx_uint32 v : values) EXPECT_EQ(v, 500u);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
}

TEST_F(OpenVx, TensorViewsShareTheParentsMemory) {
  vx_tensor parent = tensor3(context_, 6, 5, 2);
  fill_uint16(parent, 6, 5, 2);
  const vx_size start[3] = {2, 1, 1}, end[3] = {5, 4, 2};
  vx_tensor view = vxCreateTensorFromView(parent, 3, start, end);
  ASSERT_EQ(vxGetStatus(ref(view)), VX_SUCCESS);
  vx_size dims[3] = {};
  EXPECT_EQ(vxQueryTensor(view, VX_TENSOR_DIMS, dims, sizeof dims), VX_SUCCESS);
  EXPECT_EQ(dims[0], 3u);
  EXPECT_EQ(dims[1], 3u);
  EXPECT_EQ(dims[2], 1u);
  // The view's element (0, 0, 0) is the parent's (2, 1, 1).
  vx_uint16 value = 0;
  const vx_size origin[3] = {0, 0, 0}, one[3] = {1, 1, 1}, s[3] = {2, 2, 2};
  ASSERT_EQ(vxCopyTensorPatch(view, 3, origin, one, s, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 2 + 10 + 100);
  // A write through the view is seen in the parent, and the other way round.
  value = 4242;
  const vx_size last[3] = {2, 2, 0}, last_end[3] = {3, 3, 1};
  ASSERT_EQ(vxCopyTensorPatch(view, 3, last, last_end, s, &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  const vx_size in_parent[3] = {4, 3, 1}, in_parent_end[3] = {5, 4, 2};
  value = 0;
  ASSERT_EQ(vxCopyTensorPatch(parent, 3, in_parent, in_parent_end, s, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 4242);
  // A view of the view, mapped: its strides are the parent's.
  const vx_size inner_start[3] = {1, 1, 0}, inner_end[3] = {3, 3, 1};
  vx_tensor inner = vxCreateTensorFromView(view, 3, inner_start, inner_end);
  ASSERT_EQ(vxGetStatus(ref(inner)), VX_SUCCESS);
  vx_size stride[3] = {};
  void* ptr = nullptr;
  vx_map_id id = 0;
  const vx_size inner_full[3] = {2, 2, 1};
  ASSERT_EQ(vxMapTensorPatch(inner, 3, origin, inner_full, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(stride[1], 12u);
  EXPECT_EQ(*static_cast<vx_uint16*>(ptr), 3 + 20 + 100);
  EXPECT_EQ(*reinterpret_cast<vx_uint16*>(static_cast<vx_uint8*>(ptr) + stride[0] + stride[1]), 4242);
  EXPECT_EQ(vxUnmapTensorPatch(view, id), VX_ERROR_INVALID_PARAMETERS) << "the map belongs to the inner view";
  EXPECT_EQ(vxUnmapTensorPatch(inner, id), VX_SUCCESS);
  // Views outlive their parent.
  EXPECT_EQ(vxReleaseTensor(&parent), VX_SUCCESS);
  value = 0;
  ASSERT_EQ(vxCopyTensorPatch(inner, 3, origin, one, s, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 3 + 20 + 100);
  EXPECT_EQ(vxReleaseTensor(&inner), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&view), VX_SUCCESS);
}

TEST_F(OpenVx, TensorViewsOutsideTheParentAreRefused) {
  vx_tensor parent = tensor3(context_, 4, 4, 4);
  const vx_size start[3] = {0, 0, 0}, end[3] = {4, 4, 4}, past[3] = {4, 5, 4}, empty_start[3] = {1, 1, 1}, empty_end[3] = {1, 2, 2};
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(parent, 3, start, past))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(parent, 3, empty_start, empty_end))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(parent, 2, start, end))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(parent, 3, nullptr, end))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(parent, 3, start, nullptr))), VX_ERROR_INVALID_PARAMETERS);
  vx_tensor whole = vxCreateTensorFromView(parent, 3, start, end);
  EXPECT_EQ(vxGetStatus(ref(whole)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&whole), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&parent), VX_SUCCESS);
}

TEST_F(OpenVx, TensorsOnApplicationMemoryAndHandleSwaps) {
  // 3 x 2 int32 elements with padded rows (4 elements a row).
  vx_int32 first[8] = {1, 2, 3, -1, 4, 5, 6, -1};
  vx_int32 second[8] = {10, 20, 30, -1, 40, 50, 60, -1};
  const vx_size dims[2] = {3, 2}, strides[2] = {4, 16};
  vx_tensor t = vxCreateTensorFromHandle(context_, 2, dims, VX_TYPE_INT32, 0, strides, first, VX_MEMORY_TYPE_HOST);
  ASSERT_EQ(vxGetStatus(ref(t)), VX_SUCCESS);
  vx_int32 dense[6] = {};
  const vx_size start[2] = {0, 0}, end[2] = {3, 2}, dense_strides[2] = {4, 12};
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, dense_strides, dense, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(dense[2], 3);
  EXPECT_EQ(dense[3], 4);
  // A map points into the application's memory, with its strides.
  vx_size stride[2] = {};
  void* ptr = nullptr;
  vx_map_id id = 0;
  const vx_size second_row[2] = {0, 1};
  ASSERT_EQ(vxMapTensorPatch(t, 2, second_row, end, &id, stride, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(ptr, &first[4]);
  EXPECT_EQ(stride[1], 16u);
  // No swap while mapped.
  void* previous = nullptr;
  EXPECT_EQ(vxSwapTensorHandle(t, second, &previous), VX_FAILURE);
  EXPECT_EQ(vxUnmapTensorPatch(t, id), VX_SUCCESS);
  // A view of it follows the swap.
  const vx_size view_start[2] = {1, 1};
  vx_tensor view = vxCreateTensorFromView(t, 2, view_start, end);
  ASSERT_EQ(vxGetStatus(ref(view)), VX_SUCCESS);
  ASSERT_EQ(vxSwapTensorHandle(t, second, &previous), VX_SUCCESS);
  EXPECT_EQ(previous, first);
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, dense_strides, dense, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(dense[0], 10);
  EXPECT_EQ(dense[5], 60);
  vx_int32 value = 0;
  const vx_size origin[2] = {0, 0}, one[2] = {1, 1}, s[2] = {4, 4};
  ASSERT_EQ(vxCopyTensorPatch(view, 2, origin, one, s, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 50);
  // A map through the view also blocks a swap.
  ASSERT_EQ(vxMapTensorPatch(view, 2, origin, one, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxSwapTensorHandle(t, first, nullptr), VX_FAILURE);
  EXPECT_EQ(vxUnmapTensorPatch(view, id), VX_SUCCESS);
  EXPECT_EQ(vxSwapTensorHandle(view, first, nullptr), VX_ERROR_INVALID_PARAMETERS) << "a view is not from a handle";
  // Swapped out for NULL: no access until a pointer is back.
  ASSERT_EQ(vxSwapTensorHandle(t, nullptr, &previous), VX_SUCCESS);
  EXPECT_EQ(previous, second);
  EXPECT_EQ(vxCopyTensorPatch(t, 2, start, end, dense_strides, dense, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(vxMapTensorPatch(t, 2, start, end, &id, stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_NO_RESOURCES);
  ASSERT_EQ(vxSwapTensorHandle(t, first, &previous), VX_SUCCESS);
  EXPECT_EQ(previous, nullptr);
  EXPECT_EQ(vxReleaseTensor(&view), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
  EXPECT_EQ(first[0], 1) << "the application's memory stays the application's";
  // A library-allocated tensor takes the application's memory too (the conformance suite swaps one): the
  // previous pointer is the library's, which stays the tensor's until it goes, and swapping it back works.
  vx_tensor own = tensor3(context_, 2, 2, 2);
  void* library = nullptr;
  ASSERT_EQ(vxSwapTensorHandle(own, first, &library), VX_SUCCESS);
  EXPECT_NE(library, nullptr);
  ASSERT_EQ(vxSwapTensorHandle(own, library, &previous), VX_SUCCESS);
  EXPECT_EQ(previous, static_cast<void*>(first));
  EXPECT_EQ(vxReleaseTensor(&own), VX_SUCCESS);
}

TEST_F(OpenVx, TensorsFromHandleRefuseBadArguments) {
  vx_int32 memory[16] = {};
  const vx_size dims[2] = {3, 2}, strides[2] = {4, 12};
  auto status = [&](vx_size n, const vx_size* d, vx_enum type, const vx_size* s, void* p, vx_enum mem) {
    vx_tensor t = vxCreateTensorFromHandle(context_, n, d, type, 0, s, p, mem);
    const vx_status result = vxGetStatus(ref(t));
    if (result == VX_SUCCESS) vxReleaseTensor(&t);
    return result;
  };
  EXPECT_EQ(vxCreateTensorFromHandle(nullptr, 2, dims, VX_TYPE_INT32, 0, strides, memory, VX_MEMORY_TYPE_HOST), nullptr);
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, strides, memory, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, strides, memory, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  // A null pointer makes a tensor without memory until a swap gives it some (the conformance suite's form).
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, strides, nullptr, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  {
    vx_tensor empty = vxCreateTensorFromHandle(context_, 2, dims, VX_TYPE_INT32, 0, strides, nullptr, VX_MEMORY_TYPE_HOST);
    const vx_size start[2] = {0, 0};
    EXPECT_NE(vxCopyTensorPatch(empty, 2, start, dims, strides, memory, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    ASSERT_EQ(vxSwapTensorHandle(empty, memory, nullptr), VX_SUCCESS);
    EXPECT_EQ(vxCopyTensorPatch(empty, 2, start, dims, strides, memory, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(vxReleaseTensor(&empty), VX_SUCCESS);
  }
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, nullptr, memory, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status(0, dims, VX_TYPE_INT32, strides, memory, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status(2, dims, VX_TYPE_BOOL, strides, memory, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_TYPE);
  const vx_size small_item[2] = {2, 12}, overlapping[2] = {4, 8};
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, small_item, memory, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status(2, dims, VX_TYPE_INT32, overlapping, memory, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(OpenVx, VirtualTensorsAreNotAccessibleToTheApplication) {
  vx_graph graph = vxCreateGraph(context_);
  const vx_size dims[2] = {4, 4};
  vx_tensor open = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_INVALID, 0);
  ASSERT_EQ(vxGetStatus(ref(open)), VX_SUCCESS);
  vx_tensor known = vxCreateVirtualTensor(graph, 2, dims, VX_TYPE_UINT8, 0);
  ASSERT_EQ(vxGetStatus(ref(known)), VX_SUCCESS);
  vx_size n = 9;
  EXPECT_EQ(vxQueryTensor(open, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_SUCCESS) << "queries are allowed";
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(vxQueryTensor(known, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_SUCCESS);
  EXPECT_EQ(n, 2u);
  const vx_size start[2] = {0, 0}, stride[2] = {1, 4};
  vx_uint8 buffer[16] = {};
  vx_size out_stride[2];
  void* ptr = nullptr;
  vx_map_id id = 0;
  EXPECT_EQ(vxCopyTensorPatch(known, 2, start, dims, stride, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapTensorPatch(known, 2, start, dims, &id, out_stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxGetStatus(ref(vxCreateTensorFromView(known, 2, start, dims))), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxSwapTensorHandle(known, buffer, nullptr), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseTensor(&open), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&known), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

// ---- graphs: a virtual tensor between two user kernels ----

enum class MetaBy { attributes, reference };
MetaBy meta_by = MetaBy::attributes;

// producer: out = 2 * in (int16), out's description from in.
vx_status VX_CALLBACK producer_validate(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  auto in = reinterpret_cast<vx_tensor>(parameters[0]);
  if (meta_by == MetaBy::reference) return vxSetMetaFormatFromReference(metas[1], parameters[0]);
  vx_size n = 0, dims[6] = {};
  vx_enum type = VX_TYPE_INVALID;
  vx_int8 fixed = 0;
  vx_status s = vxQueryTensor(in, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n);
  s |= vxQueryTensor(in, VX_TENSOR_DIMS, dims, n * sizeof(vx_size));
  s |= vxQueryTensor(in, VX_TENSOR_DATA_TYPE, &type, sizeof type);
  s |= vxQueryTensor(in, VX_TENSOR_FIXED_POINT_POSITION, &fixed, sizeof fixed);
  s |= vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n);
  s |= vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, dims, n * sizeof(vx_size));
  s |= vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
  s |= vxSetMetaFormatAttribute(metas[1], VX_TENSOR_FIXED_POINT_POSITION, &fixed, sizeof fixed);
  return s == VX_SUCCESS ? VX_SUCCESS : VX_FAILURE;
}

vx_status VX_CALLBACK producer(vx_node, const vx_reference* parameters, vx_uint32) {
  auto in = reinterpret_cast<vx_tensor>(parameters[0]);
  auto out = reinterpret_cast<vx_tensor>(parameters[1]);
  vx_size dims[2] = {};
  if (vxQueryTensor(out, VX_TENSOR_DIMS, dims, sizeof dims) != VX_SUCCESS) return VX_FAILURE;
  const vx_size start[2] = {0, 0};
  vx_size in_stride[2], out_stride[2];
  void *in_ptr = nullptr, *out_ptr = nullptr;
  vx_map_id in_id = 0, out_id = 0;
  vx_status s = vxMapTensorPatch(in, 2, start, dims, &in_id, in_stride, &in_ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s != VX_SUCCESS) return s;
  s = vxMapTensorPatch(out, 2, start, dims, &out_id, out_stride, &out_ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (s != VX_SUCCESS) return s;
  for (vx_size y = 0; y < dims[1]; ++y)
    for (vx_size x = 0; x < dims[0]; ++x) {
      const auto* from = reinterpret_cast<const vx_int16*>(static_cast<vx_uint8*>(in_ptr) + x * in_stride[0] + y * in_stride[1]);
      auto* to = reinterpret_cast<vx_int16*>(static_cast<vx_uint8*>(out_ptr) + x * out_stride[0] + y * out_stride[1]);
      *to = static_cast<vx_int16>(*from * 2);
    }
  s = vxUnmapTensorPatch(in, in_id);
  return s != VX_SUCCESS ? s : vxUnmapTensorPatch(out, out_id);
}

// consumer: out = in + 1, with copies; out's description from in (by reference).
vx_status VX_CALLBACK consumer_validate(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  return vxSetMetaFormatFromReference(metas[1], parameters[0]);
}

vx_status VX_CALLBACK consumer(vx_node, const vx_reference* parameters, vx_uint32) {
  auto in = reinterpret_cast<vx_tensor>(parameters[0]);
  auto out = reinterpret_cast<vx_tensor>(parameters[1]);
  vx_size dims[2] = {};
  if (vxQueryTensor(in, VX_TENSOR_DIMS, dims, sizeof dims) != VX_SUCCESS) return VX_FAILURE;
  std::vector<vx_int16> data(dims[0] * dims[1]);
  const vx_size start[2] = {0, 0}, stride[2] = {2, 2 * dims[0]};
  vx_status s = vxCopyTensorPatch(in, 2, start, dims, stride, data.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s != VX_SUCCESS) return s;  // fails the run: kernels must reach the virtual tensor's data
  for (vx_int16& v : data) v = static_cast<vx_int16>(v + 1);
  return vxCopyTensorPatch(out, 2, start, dims, stride, data.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

class OpenVxTensorGraph : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    producer_kernel_ = add_kernel("org.visiongraph.test.tensor_producer", producer, producer_validate);
    consumer_kernel_ = add_kernel("org.visiongraph.test.tensor_consumer", consumer, consumer_validate);
    const vx_size dims[2] = {5, 3};
    in_ = vxCreateTensor(context_, 2, dims, VX_TYPE_INT16, 0);
    out_ = vxCreateTensor(context_, 2, dims, VX_TYPE_INT16, 0);
    std::vector<vx_int16> values(15);
    for (int i = 0; i < 15; ++i) values[i] = static_cast<vx_int16>(i - 5);
    const vx_size start[2] = {0, 0}, stride[2] = {2, 10};
    EXPECT_EQ(vxCopyTensorPatch(in_, 2, start, dims, stride, values.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    graph_ = vxCreateGraph(context_);
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseGraph(&graph_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseTensor(&in_), VX_SUCCESS);
    EXPECT_EQ(vxReleaseTensor(&out_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(producer_kernel_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(consumer_kernel_), VX_SUCCESS);
    meta_by = MetaBy::attributes;
    OpenVx::TearDown();
  }
  vx_kernel add_kernel(const char* name, vx_kernel_f function, vx_kernel_validate_f validate) {
    return add_user_kernel(context_, name, function, {{VX_INPUT, VX_TYPE_TENSOR}, {VX_OUTPUT, VX_TYPE_TENSOR}}, validate);
  }
  vx_node node(vx_kernel kernel, vx_tensor in, vx_tensor out) {
    vx_node n = vxCreateGenericNode(graph_, kernel);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
    return n;
  }
  /// in -> producer -> virtual -> consumer -> out; out must be 2 * in + 1.
  void run_chain(vx_tensor middle) {
    vx_node a = node(producer_kernel_, in_, middle);
    vx_node b = node(consumer_kernel_, middle, out_);
    ASSERT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
    vx_size n = 0, dims[2] = {};
    vx_enum type = 0;
    EXPECT_EQ(vxQueryTensor(middle, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_SUCCESS);
    EXPECT_EQ(n, 2u) << "verification settled the virtual tensor";
    EXPECT_EQ(vxQueryTensor(middle, VX_TENSOR_DIMS, dims, sizeof dims), VX_SUCCESS);
    EXPECT_EQ(dims[0], 5u);
    EXPECT_EQ(dims[1], 3u);
    EXPECT_EQ(vxQueryTensor(middle, VX_TENSOR_DATA_TYPE, &type, sizeof type), VX_SUCCESS);
    EXPECT_EQ(type, VX_TYPE_INT16);
    for (int run = 0; run < 3; ++run) {
      ASSERT_EQ(vxProcessGraph(graph_), VX_SUCCESS);
      std::vector<vx_int16> result(15);
      const vx_size start[2] = {0, 0}, stride[2] = {2, 10};
      ASSERT_EQ(vxCopyTensorPatch(out_, 2, start, dims, stride, result.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
      for (int i = 0; i < 15; ++i) EXPECT_EQ(result[i], 2 * (i - 5) + 1);
    }
    // After the run, the application still cannot reach it.
    std::vector<vx_int16> data(15);
    const vx_size start[2] = {0, 0}, stride[2] = {2, 10};
    EXPECT_EQ(vxCopyTensorPatch(middle, 2, start, dims, stride, data.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
              VX_ERROR_OPTIMIZED_AWAY);
    EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&b), VX_SUCCESS);
  }

  vx_kernel producer_kernel_ = nullptr, consumer_kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_tensor in_ = nullptr, out_ = nullptr;
};

TEST_F(OpenVxTensorGraph, AVirtualTensorTakesItsShapeFromValidateAttributes) {
  vx_tensor middle = vxCreateVirtualTensor(graph_, 0, nullptr, VX_TYPE_INVALID, 0);
  run_chain(middle);
  EXPECT_EQ(vxReleaseTensor(&middle), VX_SUCCESS);
}

TEST_F(OpenVxTensorGraph, AVirtualTensorTakesItsShapeFromAValidateReference) {
  meta_by = MetaBy::reference;
  const vx_size partly[2] = {5, 0};  // the second dimension is left open
  vx_tensor middle = vxCreateVirtualTensor(graph_, 2, partly, VX_TYPE_INVALID, 0);
  run_chain(middle);
  EXPECT_EQ(vxReleaseTensor(&middle), VX_SUCCESS);
}

TEST_F(OpenVxTensorGraph, AVirtualTensorLikeAnExemplarFromTheGraph) {
  // vxCreateVirtualTensor with every attribute given: it must match validate, and gets memory at verify.
  const vx_size dims[2] = {5, 3};
  vx_tensor middle = vxCreateVirtualTensor(graph_, 2, dims, VX_TYPE_INT16, 0);
  run_chain(middle);
  EXPECT_EQ(vxReleaseTensor(&middle), VX_SUCCESS);
}

TEST_F(OpenVxTensorGraph, OutputsThatDoNotMatchValidateFailVerification) {
  const vx_size other_dims[2] = {5, 4};
  vx_tensor wrong_shape = vxCreateTensor(context_, 2, other_dims, VX_TYPE_INT16, 0);
  vx_node a = node(producer_kernel_, in_, wrong_shape);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("dimension 1 of the tensor is 4, validate says 3")) << (vg_openvx_test::log_lines.empty() ? "" : vg_openvx_test::log_lines.back());
  const vx_size dims[2] = {5, 3};
  vx_tensor virtual_wrong_type = vxCreateVirtualTensor(graph_, 2, dims, VX_TYPE_UINT8, 0);
  EXPECT_EQ(vxSetParameterByIndex(a, 1, ref(virtual_wrong_type)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_TYPE) << "a virtual tensor's given attributes must match too";
  for (vx_tensor* t : {&wrong_shape, &virtual_wrong_type}) EXPECT_EQ(vxReleaseTensor(t), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&a), VX_SUCCESS);
}

}  // namespace
