// Arrays, object arrays and user data objects: creation, queries, items, copies and maps, the errors the
// specification names, reference counts of object array items, and virtual ones passed between two user
// kernels in a graph (their attributes set by the first kernel's validate).

#include <VX/vx.h>
#include <VX/vx_khr_user_data_object.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;

vx_size query_size(vx_array array, vx_enum attribute) {
  vx_size value = 12345;
  EXPECT_EQ(vxQueryArray(array, attribute, &value, sizeof value), VX_SUCCESS);
  return value;
}
vx_size num_items(vx_array array) { return query_size(array, VX_ARRAY_NUMITEMS); }
vx_enum item_type(vx_array array) {
  vx_enum type = -1;
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_ITEMTYPE, &type, sizeof type), VX_SUCCESS);
  return type;
}
vx_uint32 reference_count(vx_reference r) {
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryReference(r, VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  return count;
}
vx_uint32 context_references(vx_context context) {
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryContext(context, VX_CONTEXT_REFERENCES, &count, sizeof count), VX_SUCCESS);
  return count;
}
std::string user_data_name(vx_user_data_object object) {
  vx_char name[VX_MAX_REFERENCE_NAME] = {'?'};
  EXPECT_EQ(vxQueryUserDataObject(object, VX_USER_DATA_OBJECT_NAME, name, sizeof name), VX_SUCCESS);
  return name;
}
vx_size user_data_size(vx_user_data_object object) {
  vx_size size = 0;
  EXPECT_EQ(vxQueryUserDataObject(object, VX_USER_DATA_OBJECT_SIZE, &size, sizeof size), VX_SUCCESS);
  return size;
}
std::vector<vx_int32> read_all(vx_array array) {
  std::vector<vx_int32> values(num_items(array));
  if (!values.empty()) {
    EXPECT_EQ(vxCopyArrayRange(array, 0, values.size(), sizeof(vx_int32), values.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------- arrays

TEST_F(OpenVx, AnArrayAnswersItsAttributes) {
  vx_array array = vxCreateArray(context_, VX_TYPE_KEYPOINT, 10);
  ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS);
  EXPECT_EQ(item_type(array), VX_TYPE_KEYPOINT);
  EXPECT_EQ(num_items(array), 0u);
  EXPECT_EQ(query_size(array, VX_ARRAY_CAPACITY), 10u);
  EXPECT_EQ(query_size(array, VX_ARRAY_ITEMSIZE), sizeof(vx_keypoint_t));
  vx_enum type = 0;
  EXPECT_EQ(vxQueryReference(ref(array), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_ARRAY);
  // Wrong sizes, unknown attributes, wrong handles.
  vx_uint16 small = 0;  // smaller than vx_size on every ABI
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_CAPACITY, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryArray(array, VX_ARRAY_CAPACITY, nullptr, sizeof(vx_size)), VX_ERROR_INVALID_PARAMETERS);
  vx_size value = 0;
  EXPECT_EQ(vxQueryArray(array, VX_OBJECT_ARRAY_NUMITEMS, &value, sizeof value), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxQueryArray(nullptr, VX_ARRAY_CAPACITY, &value, sizeof value), VX_ERROR_INVALID_REFERENCE);
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  EXPECT_EQ(vxQueryArray(reinterpret_cast<vx_array>(scalar), VX_ARRAY_CAPACITY, &value, sizeof value), VX_ERROR_INVALID_REFERENCE);
  vx_array as_array = reinterpret_cast<vx_array>(scalar);
  EXPECT_EQ(vxReleaseArray(&as_array), VX_ERROR_INVALID_REFERENCE) << "not an array";
  EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
  EXPECT_EQ(array, nullptr);
  EXPECT_EQ(vxReleaseArray(&array), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseArray(nullptr), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(OpenVx, ArraysHoldScalarTypesStandardStructsAndUserStructs) {
  struct Expected {
    vx_enum type;
    vx_size size;
  };
  struct Triple {
    vx_float64 a, b, c;
  };
  const vx_enum user = vxRegisterUserStruct(context_, sizeof(Triple));
  ASSERT_NE(user, VX_TYPE_INVALID);
  const Expected expected[] = {
      {VX_TYPE_CHAR, sizeof(vx_char)},         {VX_TYPE_INT8, 1},
      {VX_TYPE_UINT8, 1},                      {VX_TYPE_INT16, 2},
      {VX_TYPE_UINT16, 2},                     {VX_TYPE_INT32, 4},
      {VX_TYPE_UINT32, 4},                     {VX_TYPE_INT64, 8},
      {VX_TYPE_UINT64, 8},                     {VX_TYPE_FLOAT16, 2},
      {VX_TYPE_FLOAT32, 4},                    {VX_TYPE_FLOAT64, 8},
      {VX_TYPE_ENUM, sizeof(vx_enum)},         {VX_TYPE_SIZE, sizeof(vx_size)},
      {VX_TYPE_DF_IMAGE, sizeof(vx_df_image)}, {VX_TYPE_BOOL, sizeof(vx_bool)},
      {VX_TYPE_RECTANGLE, sizeof(vx_rectangle_t)},
      {VX_TYPE_KEYPOINT, sizeof(vx_keypoint_t)},
      {VX_TYPE_COORDINATES2D, sizeof(vx_coordinates2d_t)},
      {VX_TYPE_COORDINATES3D, sizeof(vx_coordinates3d_t)},
      {VX_TYPE_COORDINATES2DF, sizeof(vx_coordinates2df_t)},
      {VX_TYPE_HOG_PARAMS, sizeof(vx_hog_t)},
      {VX_TYPE_HOUGH_LINES_PARAMS, sizeof(vx_hough_lines_p_t)},
      {VX_TYPE_LINE_2D, sizeof(vx_line2d_t)},
      {VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS, sizeof(vx_tensor_matrix_multiply_params_t)},
      {user, sizeof(Triple)},
  };
  for (const Expected& e : expected) {
    vx_array array = vxCreateArray(context_, e.type, 3);
    ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS) << "type 0x" << std::hex << e.type;
    EXPECT_EQ(item_type(array), e.type);
    EXPECT_EQ(query_size(array, VX_ARRAY_ITEMSIZE), e.size) << "type 0x" << std::hex << e.type;
    EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
  }
}

TEST_F(OpenVx, ArrayCreationRefusesBadTypesAndCapacities) {
  EXPECT_EQ(vxCreateArray(nullptr, VX_TYPE_INT32, 4), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_INVALID, 4))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_IMAGE, 4))), VX_ERROR_INVALID_TYPE) << "an object type";
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_USER_STRUCT_START + 77, 4))), VX_ERROR_INVALID_TYPE)
      << "a user struct never registered";
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_VENDOR_STRUCT_END, 4))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_INT32, 0))), VX_ERROR_INVALID_PARAMETERS) << "capacity 0";
  EXPECT_EQ(vxGetStatus(ref(vxCreateArray(context_, VX_TYPE_INT64, SIZE_MAX / 4))), VX_ERROR_NO_MEMORY)
      << "a capacity whose bytes overflow";
  EXPECT_TRUE(logged("not an item type"));
}

TEST_F(OpenVx, AddedItemsComeBackByCopyWithAnyStride) {
  vx_array array = vxCreateArray(context_, VX_TYPE_COORDINATES2D, 5);
  // Items spaced by a larger stride in user memory.
  struct Padded {
    vx_coordinates2d_t c;
    vx_uint32 pad[3];
  };
  const Padded in[3] = {{{1, 2}, {}}, {{3, 4}, {}}, {{5, 6}, {}}};
  EXPECT_EQ(vxAddArrayItems(array, 3, in, sizeof(Padded)), VX_SUCCESS);
  EXPECT_EQ(num_items(array), 3u);
  vx_coordinates2d_t packed[3] = {};
  EXPECT_EQ(vxCopyArrayRange(array, 0, 3, sizeof(vx_coordinates2d_t), packed, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(packed[i].x, in[i].c.x);
    EXPECT_EQ(packed[i].y, in[i].c.y);
  }
  // Read back into a strided buffer, a sub-range.
  Padded out[2] = {};
  EXPECT_EQ(vxCopyArrayRange(array, 1, 3, sizeof(Padded), out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(out[0].c.x, 3u);
  EXPECT_EQ(out[1].c.y, 6u);
  // Packed adds append.
  const vx_coordinates2d_t more[2] = {{7, 8}, {9, 10}};
  EXPECT_EQ(vxAddArrayItems(array, 2, more, sizeof(vx_coordinates2d_t)), VX_SUCCESS);
  EXPECT_EQ(num_items(array), 5u);
  vx_coordinates2d_t last{};
  EXPECT_EQ(vxCopyArrayRange(array, 4, 5, sizeof last, &last, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(last.x, 9u);
  // Full: adding fails and changes nothing.
  EXPECT_EQ(vxAddArrayItems(array, 1, more, sizeof(vx_coordinates2d_t)), VX_FAILURE);
  EXPECT_EQ(num_items(array), 5u);
  EXPECT_EQ(vxAddArrayItems(array, 0, nullptr, 0), VX_SUCCESS) << "nothing to add";
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, AddingItemsChecksItsArguments) {
  vx_array array = vxCreateArray(context_, VX_TYPE_INT32, 4);
  const vx_int32 values[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(vxAddArrayItems(nullptr, 1, values, sizeof(vx_int32)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAddArrayItems(reinterpret_cast<vx_array>(context_), 1, values, sizeof(vx_int32)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAddArrayItems(array, 1, nullptr, sizeof(vx_int32)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddArrayItems(array, 1, values, 2), VX_ERROR_INVALID_PARAMETERS) << "stride below the item size";
  EXPECT_EQ(vxAddArrayItems(array, 5, values, sizeof(vx_int32)), VX_FAILURE) << "more than the capacity";
  EXPECT_EQ(num_items(array), 0u);
  EXPECT_EQ(vxAddArrayItems(array, 3, values, sizeof(vx_int32)), VX_SUCCESS);
  EXPECT_EQ(vxAddArrayItems(array, 2, values, sizeof(vx_int32)), VX_FAILURE) << "more than the room left";
  EXPECT_EQ(vxAddArrayItems(array, 1, values + 3, sizeof(vx_int32)), VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{1, 2, 3, 4}));
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, TruncatingKeepsTheFirstItems) {
  vx_array array = vxCreateArray(context_, VX_TYPE_INT32, 8);
  const vx_int32 values[4] = {10, 20, 30, 40};
  EXPECT_EQ(vxAddArrayItems(array, 4, values, sizeof(vx_int32)), VX_SUCCESS);
  EXPECT_EQ(vxTruncateArray(array, 5), VX_ERROR_INVALID_PARAMETERS) << "more than it holds";
  EXPECT_EQ(vxTruncateArray(array, 4), VX_SUCCESS);
  EXPECT_EQ(vxTruncateArray(array, 2), VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{10, 20}));
  EXPECT_EQ(vxAddArrayItems(array, 1, values + 3, sizeof(vx_int32)), VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{10, 20, 40}));
  EXPECT_EQ(vxTruncateArray(array, 0), VX_SUCCESS);
  EXPECT_EQ(num_items(array), 0u);
  EXPECT_EQ(vxTruncateArray(nullptr, 0), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, CopyingARangeWritesAndReadsAndChecksItsArguments) {
  vx_array array = vxCreateArray(context_, VX_TYPE_INT32, 8);
  const vx_int32 zeros[4] = {};
  EXPECT_EQ(vxAddArrayItems(array, 4, zeros, sizeof(vx_int32)), VX_SUCCESS);
  // Strided write of items 1 and 2.
  const vx_int32 strided[4] = {7, -1, 8, -1};
  EXPECT_EQ(vxCopyArrayRange(array, 1, 3, 2 * sizeof(vx_int32), const_cast<vx_int32*>(strided), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{0, 7, 8, 0}));
  vx_int32 buffer[8] = {};
  const vx_size s = sizeof(vx_int32);
  EXPECT_EQ(vxCopyArrayRange(nullptr, 0, 1, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCopyArrayRange(array, 2, 2, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS) << "empty";
  EXPECT_EQ(vxCopyArrayRange(array, 3, 2, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(array, 0, 5, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS)
      << "beyond the items (though within the capacity)";
  EXPECT_EQ(vxCopyArrayRange(array, 0, 1, s - 1, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(array, 0, 1, s, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(array, 0, 1, s, buffer, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(array, 0, 1, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(array, 0, 1, s, buffer, 0, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_array empty = vxCreateArray(context_, VX_TYPE_INT32, 8);
  EXPECT_EQ(vxCopyArrayRange(empty, 0, 1, s, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseArray(&empty), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, MapsPointIntoTheArrayAndWritesStay) {
  vx_array array = vxCreateArray(context_, VX_TYPE_INT32, 8);
  const vx_int32 values[6] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(vxAddArrayItems(array, 6, values, sizeof(vx_int32)), VX_SUCCESS);
  vx_map_id read_id = 0, write_id = 0;
  vx_size stride = 0;
  void* base = nullptr;
  ASSERT_EQ(vxMapArrayRange(array, 0, 6, &read_id, &stride, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(stride, sizeof(vx_int32));
  for (vx_size i = 0; i < 6; ++i) EXPECT_EQ(vxArrayItem(vx_int32, base, i, stride), values[i]);
  // A second map of part of the range, for writing: its own id, the same memory.
  void* part = nullptr;
  ASSERT_EQ(vxMapArrayRange(array, 2, 4, &write_id, &stride, &part, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, VX_NOGAP_X), VX_SUCCESS);
  EXPECT_NE(write_id, read_id);
  EXPECT_EQ(part, vxFormatArrayPointer(base, 2, stride)) << "no copy: straight into the array";
  vxArrayItem(vx_int32, part, 0, stride) = 30;
  vxArrayItem(vx_int32, part, 1, stride) = 40;
  EXPECT_EQ(vxUnmapArrayRange(array, write_id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapArrayRange(array, read_id), VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{1, 2, 30, 40, 5, 6}));
  // Read and write in place.
  vx_map_id id = 0;
  ASSERT_EQ(vxMapArrayRange(array, 4, 6, &id, &stride, &base, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  for (vx_size i = 0; i < 2; ++i) vxArrayItem(vx_int32, base, i, stride) *= 10;
  EXPECT_EQ(vxUnmapArrayRange(array, id), VX_SUCCESS);
  EXPECT_EQ(read_all(array), (std::vector<vx_int32>{1, 2, 30, 40, 50, 60}));
  // Unmapping twice, or an id never given.
  EXPECT_EQ(vxUnmapArrayRange(array, id), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapArrayRange(array, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapArrayRange(array, 12345), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapArrayRange(nullptr, id), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, MappingAnArrayChecksItsArgumentsAndLimitsOutstandingMaps) {
  vx_array array = vxCreateArray(context_, VX_TYPE_UINT8, 4);
  const vx_uint8 values[3] = {1, 2, 3};
  EXPECT_EQ(vxAddArrayItems(array, 3, values, 1), VX_SUCCESS);
  vx_map_id id = 0;
  vx_size stride = 0;
  void* ptr = nullptr;
  const vx_enum host = VX_MEMORY_TYPE_HOST;
  EXPECT_EQ(vxMapArrayRange(nullptr, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxMapArrayRange(array, 0, 0, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 2, 1, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 4, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS) << "past the items";
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, nullptr, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, &id, nullptr, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, &id, &stride, nullptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, &id, &stride, &ptr, 0, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapArrayRange(array, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, host, 0x100), VX_ERROR_INVALID_PARAMETERS)
      << "an unknown flag";
  // Sixteen maps may be outstanding at once; the next one waits for an unmap.
  std::vector<vx_map_id> ids;
  for (int i = 0; i < 16; ++i) {
    ASSERT_EQ(vxMapArrayRange(array, 0, 3, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_SUCCESS) << i;
    ids.push_back(id);
  }
  EXPECT_EQ(vxMapArrayRange(array, 0, 3, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(vxUnmapArrayRange(array, ids.back()), VX_SUCCESS);
  ids.pop_back();
  ASSERT_EQ(vxMapArrayRange(array, 0, 3, &id, &stride, &ptr, VX_READ_ONLY, host, 0), VX_SUCCESS);
  for (vx_map_id other : ids) EXPECT_NE(id, other);
  ids.push_back(id);
  for (vx_map_id m : ids) EXPECT_EQ(vxUnmapArrayRange(array, m), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, ThreadsMapOneArrayAtOnce) {
  vx_array array = vxCreateArray(context_, VX_TYPE_INT32, 1);
  const vx_int32 zero = 0;
  EXPECT_EQ(vxAddArrayItems(array, 1, &zero, sizeof zero), VX_SUCCESS);
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        vx_map_id id = 0;
        vx_size stride = 0;
        void* ptr = nullptr;
        if (vxMapArrayRange(array, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0) != VX_SUCCESS ||
            vxUnmapArrayRange(array, id) != VX_SUCCESS) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, (std::vector<int>(4, 0)));
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
}

TEST_F(OpenVx, AVirtualArrayMayLeaveItsAttributesOpenButIsNotTheApplications) {
  vx_graph graph = vxCreateGraph(context_);
  EXPECT_EQ(vxCreateVirtualArray(nullptr, VX_TYPE_INT32, 4), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualArray(graph, VX_TYPE_GRAPH, 4))), VX_ERROR_INVALID_TYPE);
  vx_array open = vxCreateVirtualArray(graph, VX_TYPE_INVALID, 0);
  ASSERT_EQ(vxGetStatus(ref(open)), VX_SUCCESS);
  EXPECT_EQ(item_type(open), VX_TYPE_INVALID);
  EXPECT_EQ(query_size(open, VX_ARRAY_CAPACITY), 0u);
  vx_array typed = vxCreateVirtualArray(graph, VX_TYPE_RECTANGLE, 7);
  EXPECT_EQ(item_type(typed), VX_TYPE_RECTANGLE);
  EXPECT_EQ(query_size(typed, VX_ARRAY_CAPACITY), 7u);
  EXPECT_EQ(query_size(typed, VX_ARRAY_ITEMSIZE), sizeof(vx_rectangle_t));
  // Outside graph execution the application cannot touch the contents.
  vx_rectangle_t r{};
  vx_map_id id = 0;
  vx_size stride = 0;
  void* ptr = nullptr;
  EXPECT_EQ(vxAddArrayItems(typed, 1, &r, sizeof r), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxTruncateArray(typed, 0), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyArrayRange(typed, 0, 1, sizeof r, &r, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapArrayRange(typed, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxUnmapArrayRange(typed, 1), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxReleaseArray(&open), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&typed), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

// -------------------------------------------------------------------------------- user data objects

struct Pair {
  vx_int32 sum;
  vx_int32 count;
  vx_float64 mean;
};

TEST_F(OpenVx, TheContextListsTheUserDataObjectExtension) {
  vx_size size = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS_SIZE, &size, sizeof size), VX_SUCCESS);
  std::vector<vx_char> extensions(size);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS, extensions.data(), extensions.size()), VX_SUCCESS);
  EXPECT_NE(std::string(extensions.data()).find(OPENVX_KHR_USER_DATA_OBJECT), std::string::npos);
}

TEST_F(OpenVx, AUserDataObjectHoldsItsNameSizeAndInitialBytes) {
  const Pair initial{6, 3, 2.0};
  vx_user_data_object object = vxCreateUserDataObject(context_, "pair", sizeof(Pair), &initial);
  ASSERT_EQ(vxGetStatus(ref(object)), VX_SUCCESS);
  EXPECT_EQ(user_data_name(object), "pair");
  EXPECT_EQ(user_data_size(object), sizeof(Pair));
  vx_enum type = 0;
  EXPECT_EQ(vxQueryReference(ref(object), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_USER_DATA_OBJECT);
  Pair read{};
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 0, &read, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS) << "size 0: the whole";
  EXPECT_EQ(read.sum, 6);
  EXPECT_EQ(read.count, 3);
  EXPECT_EQ(read.mean, 2.0);
  // Without initial contents: zeros, and no name.
  vx_user_data_object blank = vxCreateUserDataObject(context_, nullptr, 32, nullptr);
  ASSERT_EQ(vxGetStatus(ref(blank)), VX_SUCCESS);
  EXPECT_EQ(user_data_name(blank), "");
  std::vector<vx_uint8> bytes(32, 0xAB);
  EXPECT_EQ(vxCopyUserDataObject(blank, 0, 32, bytes.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(bytes, std::vector<vx_uint8>(32, 0));
  // Query errors.
  vx_size size = 0;
  vx_uint16 small = 0;  // smaller than vx_size on every ABI
  EXPECT_EQ(vxQueryUserDataObject(object, VX_USER_DATA_OBJECT_SIZE, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryUserDataObject(object, VX_ARRAY_CAPACITY, &size, sizeof size), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxQueryUserDataObject(nullptr, VX_USER_DATA_OBJECT_SIZE, &size, sizeof size), VX_ERROR_INVALID_REFERENCE);
  vx_char name[2] = {};
  EXPECT_EQ(vxQueryUserDataObject(object, VX_USER_DATA_OBJECT_NAME, name, sizeof name), VX_ERROR_INVALID_PARAMETERS)
      << "too small for the name";
  EXPECT_EQ(vxReleaseUserDataObject(&blank), VX_SUCCESS);
  EXPECT_EQ(vxReleaseUserDataObject(&object), VX_SUCCESS);
  EXPECT_EQ(object, nullptr);
  EXPECT_EQ(vxReleaseUserDataObject(&object), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(OpenVx, UserDataObjectCreationRefusesBadArguments) {
  EXPECT_EQ(vxCreateUserDataObject(nullptr, "x", 4, nullptr), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateUserDataObject(context_, "x", 0, nullptr))), VX_ERROR_INVALID_PARAMETERS);
  const std::string longest(VX_MAX_REFERENCE_NAME - 1, 'n'), too_long(VX_MAX_REFERENCE_NAME, 'n');
  EXPECT_EQ(vxGetStatus(ref(vxCreateUserDataObject(context_, too_long.c_str(), 4, nullptr))), VX_ERROR_INVALID_PARAMETERS);
  vx_user_data_object object = vxCreateUserDataObject(context_, longest.c_str(), 4, nullptr);
  ASSERT_EQ(vxGetStatus(ref(object)), VX_SUCCESS);
  EXPECT_EQ(user_data_name(object), longest);
  EXPECT_EQ(vxReleaseUserDataObject(&object), VX_SUCCESS);
}

TEST_F(OpenVx, UserDataCopiesTakeAnOffsetAndASize) {
  vx_user_data_object object = vxCreateUserDataObject(context_, "bytes", 16, nullptr);
  const vx_uint8 four[4] = {1, 2, 3, 4};
  EXPECT_EQ(vxCopyUserDataObject(object, 12, 4, const_cast<vx_uint8*>(four), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_uint8 all[16] = {};
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 0, all, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(all[12], 1);
  EXPECT_EQ(all[15], 4);
  vx_uint8 tail[6] = {};
  EXPECT_EQ(vxCopyUserDataObject(object, 10, 0, tail, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS) << "to the end: 6 bytes";
  EXPECT_EQ(tail[2], 1);
  EXPECT_EQ(tail[5], 4);
  vx_uint8 buffer[32] = {};
  EXPECT_EQ(vxCopyUserDataObject(object, 16, 0, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 8, 9, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 17, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, SIZE_MAX, 2, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 1, SIZE_MAX, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 4, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 4, buffer, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(object, 0, 4, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyUserDataObject(nullptr, 0, 4, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  vx_array array = vxCreateArray(context_, VX_TYPE_UINT8, 4);
  EXPECT_EQ(vxCopyUserDataObject(reinterpret_cast<vx_user_data_object>(array), 0, 4, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
  EXPECT_EQ(vxReleaseUserDataObject(&object), VX_SUCCESS);
}

TEST_F(OpenVx, UserDataMapsPointIntoTheObject) {
  vx_user_data_object object = vxCreateUserDataObject(context_, "pair", sizeof(Pair), nullptr);
  vx_map_id id = 0;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  auto* pair = static_cast<Pair*>(ptr);
  pair->sum = 10;
  pair->count = 4;
  pair->mean = 2.5;
  // A second map of the count alone, read and write: the same memory, at the offset.
  vx_map_id count_id = 0;
  void* count_ptr = nullptr;
  ASSERT_EQ(vxMapUserDataObject(object, offsetof(Pair, count), sizeof(vx_int32), &count_id, &count_ptr, VX_READ_AND_WRITE,
                                VX_MEMORY_TYPE_HOST, 0),
            VX_SUCCESS);
  EXPECT_NE(count_id, id);
  EXPECT_EQ(count_ptr, &pair->count);
  *static_cast<vx_int32*>(count_ptr) += 1;
  EXPECT_EQ(vxUnmapUserDataObject(object, count_id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapUserDataObject(object, id), VX_SUCCESS);
  Pair read{};
  EXPECT_EQ(vxCopyUserDataObject(object, 0, sizeof read, &read, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(read.sum, 10);
  EXPECT_EQ(read.count, 5);
  EXPECT_EQ(read.mean, 2.5);
  // Errors.
  EXPECT_EQ(vxUnmapUserDataObject(object, id), VX_ERROR_INVALID_PARAMETERS) << "unmapped already";
  EXPECT_EQ(vxUnmapUserDataObject(object, 999), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapUserDataObject(nullptr, id), VX_ERROR_INVALID_REFERENCE);
  const vx_enum host = VX_MEMORY_TYPE_HOST;
  EXPECT_EQ(vxMapUserDataObject(nullptr, 0, 0, &id, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxMapUserDataObject(object, sizeof(Pair), 0, &id, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 4, sizeof(Pair), &id, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, nullptr, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, &id, nullptr, VX_READ_ONLY, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, 0, host, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_NONE, 0), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, VX_READ_ONLY, host, 0x8), VX_ERROR_INVALID_PARAMETERS);
  std::vector<vx_map_id> ids;
  for (int i = 0; i < 16; ++i) {
    ASSERT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, VX_READ_ONLY, host, 0), VX_SUCCESS);
    ids.push_back(id);
  }
  EXPECT_EQ(vxMapUserDataObject(object, 0, 0, &id, &ptr, VX_READ_ONLY, host, 0), VX_ERROR_NO_RESOURCES);
  for (vx_map_id m : ids) EXPECT_EQ(vxUnmapUserDataObject(object, m), VX_SUCCESS);
  EXPECT_EQ(vxReleaseUserDataObject(&object), VX_SUCCESS);
}

TEST_F(OpenVx, AVirtualUserDataObjectIsNotTheApplications) {
  vx_graph graph = vxCreateGraph(context_);
  EXPECT_EQ(vxCreateVirtualUserDataObject(nullptr, "pair", 8), nullptr);
  vx_user_data_object open = vxCreateVirtualUserDataObject(graph, nullptr, 0);
  ASSERT_EQ(vxGetStatus(ref(open)), VX_SUCCESS);
  EXPECT_EQ(user_data_size(open), 0u);
  EXPECT_EQ(user_data_name(open), "");
  vx_user_data_object sized = vxCreateVirtualUserDataObject(graph, "pair", sizeof(Pair));
  EXPECT_EQ(user_data_size(sized), sizeof(Pair));
  EXPECT_EQ(user_data_name(sized), "pair");
  Pair pair{};
  vx_map_id id = 0;
  void* ptr = nullptr;
  EXPECT_EQ(vxCopyUserDataObject(sized, 0, 0, &pair, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxCopyUserDataObject(sized, 0, 0, &pair, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapUserDataObject(sized, 0, 0, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxUnmapUserDataObject(sized, 1), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxReleaseUserDataObject(&open), VX_SUCCESS);
  EXPECT_EQ(vxReleaseUserDataObject(&sized), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
}

// ------------------------------------------------------------------------------------ object arrays

vx_size object_array_count(vx_object_array array) {
  vx_size count = 0;
  EXPECT_EQ(vxQueryObjectArray(array, VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count), VX_SUCCESS);
  return count;
}
vx_enum object_array_type(vx_object_array array) {
  vx_enum type = 0;
  EXPECT_EQ(vxQueryObjectArray(array, VX_OBJECT_ARRAY_ITEMTYPE, &type, sizeof type), VX_SUCCESS);
  return type;
}

TEST_F(OpenVx, AnObjectArrayOfScalarsHoldsIndependentItemsLikeItsExemplar) {
  const vx_int16 seven = 7;
  vx_scalar exemplar = vxCreateScalar(context_, VX_TYPE_INT16, &seven);
  vx_object_array array = vxCreateObjectArray(context_, ref(exemplar), 3);
  ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS);
  EXPECT_EQ(object_array_type(array), VX_TYPE_SCALAR);
  EXPECT_EQ(object_array_count(array), 3u);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryReference(ref(array), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_OBJECT_ARRAY);
  vx_scalar items[3] = {};
  for (vx_uint32 i = 0; i < 3; ++i) {
    items[i] = reinterpret_cast<vx_scalar>(vxGetObjectArrayItem(array, i));
    ASSERT_EQ(vxGetStatus(ref(items[i])), VX_SUCCESS);
    EXPECT_NE(ref(items[i]), ref(exemplar));
    vx_enum data_type = 0;
    EXPECT_EQ(vxQueryScalar(items[i], VX_SCALAR_TYPE, &data_type, sizeof data_type), VX_SUCCESS);
    EXPECT_EQ(data_type, VX_TYPE_INT16);
    vx_int16 value = -1;
    EXPECT_EQ(vxCopyScalar(items[i], &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(value, 0) << "the exemplar's value is not copied";
  }
  EXPECT_NE(items[0], items[1]);
  const vx_int16 one = 1;
  EXPECT_EQ(vxCopyScalar(items[1], const_cast<vx_int16*>(&one), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_int16 value = -1;
  EXPECT_EQ(vxCopyScalar(items[0], &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 0);
  // The same item again is the same object.
  vx_reference again = vxGetObjectArrayItem(array, 1);
  EXPECT_EQ(again, ref(items[1]));
  EXPECT_EQ(vxCopyScalar(reinterpret_cast<vx_scalar>(again), &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(value, 1);
  EXPECT_EQ(vxReleaseReference(&again), VX_SUCCESS);
  for (vx_scalar& item : items) EXPECT_EQ(vxReleaseScalar(&item), VX_SUCCESS);
  // Errors.
  EXPECT_EQ(vxGetStatus(vxGetObjectArrayItem(array, 3)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetObjectArrayItem(nullptr, 0), nullptr);
  EXPECT_EQ(vxGetObjectArrayItem(reinterpret_cast<vx_object_array>(exemplar), 0), nullptr);
  vx_size count = 0;
  vx_uint16 small = 0;  // smaller than vx_size on every ABI
  EXPECT_EQ(vxQueryObjectArray(array, VX_OBJECT_ARRAY_NUMITEMS, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryObjectArray(array, VX_ARRAY_NUMITEMS, &count, sizeof count), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxQueryObjectArray(nullptr, VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseObjectArray(&array), VX_SUCCESS);
  EXPECT_EQ(array, nullptr);
  EXPECT_EQ(vxReleaseObjectArray(&array), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&exemplar), VX_SUCCESS);
}

TEST_F(OpenVx, ObjectArrayItemsAreCountedWhileTheApplicationHoldsThem) {
  vx_array exemplar = vxCreateArray(context_, VX_TYPE_INT32, 4);
  const vx_uint32 before = context_references(context_);
  vx_object_array array = vxCreateObjectArray(context_, ref(exemplar), 5);
  ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS);
  EXPECT_EQ(context_references(context_), before + 1) << "the items are the object array's, not the application's";
  EXPECT_EQ(reference_count(ref(array)), 1u);
  vx_reference item = vxGetObjectArrayItem(array, 2);
  EXPECT_EQ(reference_count(item), 1u);
  EXPECT_EQ(context_references(context_), before + 2);
  vx_reference same = vxGetObjectArrayItem(array, 2);
  EXPECT_EQ(reference_count(item), 2u);
  EXPECT_EQ(vxReleaseReference(&same), VX_SUCCESS);
  EXPECT_EQ(reference_count(item), 1u);
  // The item outlives its object array while the application holds it.
  EXPECT_EQ(vxReleaseObjectArray(&array), VX_SUCCESS);
  EXPECT_EQ(context_references(context_), before + 1);
  vx_array as_array = reinterpret_cast<vx_array>(item);
  EXPECT_EQ(query_size(as_array, VX_ARRAY_CAPACITY), 4u);
  const vx_int32 v = 3;
  EXPECT_EQ(vxAddArrayItems(as_array, 1, &v, sizeof v), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&as_array), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(item), VX_ERROR_INVALID_REFERENCE) << "gone with the last hold";
  EXPECT_EQ(context_references(context_), before);
  EXPECT_EQ(vxReleaseArray(&exemplar), VX_SUCCESS);
}

TEST_F(OpenVx, ObjectArraysOfArraysAndUserDataObjectsTakeTheExemplarsAttributes) {
  vx_array array_exemplar = vxCreateArray(context_, VX_TYPE_KEYPOINT, 6);
  const vx_keypoint_t kp{1, 2, 3.0f, 4.0f, 5.0f, 1, 0.5f};
  EXPECT_EQ(vxAddArrayItems(array_exemplar, 1, &kp, sizeof kp), VX_SUCCESS);
  vx_object_array arrays = vxCreateObjectArray(context_, ref(array_exemplar), 2);
  ASSERT_EQ(vxGetStatus(ref(arrays)), VX_SUCCESS);
  EXPECT_EQ(object_array_type(arrays), VX_TYPE_ARRAY);
  for (vx_uint32 i = 0; i < 2; ++i) {
    vx_array item = reinterpret_cast<vx_array>(vxGetObjectArrayItem(arrays, i));
    EXPECT_EQ(item_type(item), VX_TYPE_KEYPOINT);
    EXPECT_EQ(query_size(item, VX_ARRAY_CAPACITY), 6u);
    EXPECT_EQ(num_items(item), 0u) << "items are not copied from the exemplar";
    EXPECT_EQ(vxReleaseArray(&item), VX_SUCCESS);
  }
  const Pair pair{1, 2, 3.0};
  vx_user_data_object udo_exemplar = vxCreateUserDataObject(context_, "pair", sizeof pair, &pair);
  vx_object_array udos = vxCreateObjectArray(context_, ref(udo_exemplar), 4);
  ASSERT_EQ(vxGetStatus(ref(udos)), VX_SUCCESS);
  EXPECT_EQ(object_array_type(udos), VX_TYPE_USER_DATA_OBJECT);
  EXPECT_EQ(object_array_count(udos), 4u);
  vx_user_data_object udo = reinterpret_cast<vx_user_data_object>(vxGetObjectArrayItem(udos, 3));
  EXPECT_EQ(user_data_name(udo), "pair");
  EXPECT_EQ(user_data_size(udo), sizeof(Pair));
  Pair read{9, 9, 9.0};
  EXPECT_EQ(vxCopyUserDataObject(udo, 0, 0, &read, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(read.sum, 0);
  EXPECT_EQ(read.mean, 0.0);
  EXPECT_EQ(vxReleaseUserDataObject(&udo), VX_SUCCESS);
  for (vx_reference r : {ref(arrays), ref(udos), ref(array_exemplar), ref(udo_exemplar)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVx, ObjectArraysRefuseExemplarsThatCannotBeItems) {
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr);
  vx_object_array array = vxCreateObjectArray(context_, ref(scalar), 2);
  vx_graph graph = vxCreateGraph(context_);
  EXPECT_EQ(vxCreateObjectArray(nullptr, ref(scalar), 2), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, ref(array), 2))), VX_ERROR_INVALID_TYPE) << "no object array of object arrays";
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, ref(graph), 2))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, ref(context_), 2))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, nullptr, 2))), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, ref(scalar), 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateVirtualObjectArray(graph, ref(array), 2))), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxCreateVirtualObjectArray(nullptr, ref(scalar), 2), nullptr);
  // An exemplar from another context.
  vx_context other = vxCreateContext();
  vx_scalar foreign = vxCreateScalar(other, VX_TYPE_UINT8, nullptr);
  EXPECT_NE(vxGetStatus(ref(vxCreateObjectArray(context_, ref(foreign), 2))), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&foreign), VX_SUCCESS);
  EXPECT_EQ(vxReleaseContext(&other), VX_SUCCESS);
  EXPECT_TRUE(logged("cannot be an item"));
  for (vx_reference r : {ref(scalar), ref(array), ref(graph)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVx, AVirtualObjectArrayHasVirtualItems) {
  vx_graph graph = vxCreateGraph(context_);
  vx_user_data_object exemplar = vxCreateUserDataObject(context_, "pair", sizeof(Pair), nullptr);
  vx_object_array array = vxCreateVirtualObjectArray(graph, ref(exemplar), 2);
  ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS);
  EXPECT_EQ(object_array_type(array), VX_TYPE_USER_DATA_OBJECT);
  EXPECT_EQ(object_array_count(array), 2u);
  vx_user_data_object item = reinterpret_cast<vx_user_data_object>(vxGetObjectArrayItem(array, 0));
  EXPECT_EQ(user_data_size(item), sizeof(Pair));
  Pair pair{};
  EXPECT_EQ(vxCopyUserDataObject(item, 0, 0, &pair, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxReleaseUserDataObject(&item), VX_SUCCESS);
  for (vx_reference r : {ref(array), ref(exemplar), ref(graph)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

// ------------------------------------------------------------------------- virtual objects in graphs

// "produce": in (array of int32) -> doubled (virtual array), stats (virtual user data object), parts
// (virtual object array of int32 arrays: item i holds i * 100 and the item count).
// "consume": doubled, stats, parts -> out (array: doubled, then every part's items), summary (user data).
struct Kernels {
  vx_kernel produce = nullptr, consume = nullptr;
};

vx_status VX_CALLBACK produce_validate(vx_node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  if (count != 4) return VX_ERROR_INVALID_PARAMETERS;
  // The doubled array is like the input (from the reference); stats and parts are described one by one.
  vx_status s = vxSetMetaFormatFromReference(metas[1], parameters[0]);
  const vx_size stats_size = sizeof(Pair);
  const vx_char stats_name[] = "pair";
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[2], VX_USER_DATA_OBJECT_SIZE, &stats_size, sizeof stats_size);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[2], VX_USER_DATA_OBJECT_NAME, stats_name, sizeof stats_name);
  const vx_enum part_type = VX_TYPE_ARRAY;
  const vx_size parts = 3;
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[3], VX_OBJECT_ARRAY_ITEMTYPE, &part_type, sizeof part_type);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[3], VX_OBJECT_ARRAY_NUMITEMS, &parts, sizeof parts);
  return s;
}

vx_status VX_CALLBACK produce(vx_node, const vx_reference* parameters, vx_uint32) {
  auto in = reinterpret_cast<vx_array>(parameters[0]);
  auto doubled = reinterpret_cast<vx_array>(parameters[1]);
  auto stats = reinterpret_cast<vx_user_data_object>(parameters[2]);
  auto parts = reinterpret_cast<vx_object_array>(parameters[3]);
  vx_size n = 0;
  vx_status s = vxQueryArray(in, VX_ARRAY_NUMITEMS, &n, sizeof n);
  if (s == VX_SUCCESS) s = vxTruncateArray(doubled, 0);  // a new frame
  Pair pair{0, static_cast<vx_int32>(n), 0.0};
  if (s == VX_SUCCESS && n > 0) {
    vx_map_id id = 0;
    vx_size stride = 0;
    void* base = nullptr;
    s = vxMapArrayRange(in, 0, n, &id, &stride, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
    if (s != VX_SUCCESS) return s;
    for (vx_size i = 0; i < n && s == VX_SUCCESS; ++i) {
      const vx_int32 twice = 2 * vxArrayItem(vx_int32, base, i, stride);
      pair.sum += twice;
      s = vxAddArrayItems(doubled, 1, &twice, sizeof twice);
    }
    const vx_status unmapped = vxUnmapArrayRange(in, id);
    if (s == VX_SUCCESS) s = unmapped;
    pair.mean = static_cast<vx_float64>(pair.sum) / static_cast<vx_float64>(n);
  }
  // The user data object through a map, written whole.
  vx_map_id id = 0;
  void* ptr = nullptr;
  if (s == VX_SUCCESS) s = vxMapUserDataObject(stats, 0, 0, &id, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0);
  if (s == VX_SUCCESS) {
    std::memcpy(ptr, &pair, sizeof pair);
    s = vxUnmapUserDataObject(stats, id);
  }
  vx_size count = 0;
  if (s == VX_SUCCESS) s = vxQueryObjectArray(parts, VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count);
  for (vx_uint32 i = 0; i < count && s == VX_SUCCESS; ++i) {
    vx_array part = reinterpret_cast<vx_array>(vxGetObjectArrayItem(parts, i));
    const vx_int32 values[2] = {static_cast<vx_int32>(i) * 100, static_cast<vx_int32>(count)};
    s = vxTruncateArray(part, 0);
    if (s == VX_SUCCESS) s = vxAddArrayItems(part, 2, values, sizeof(vx_int32));
    (void)vxReleaseArray(&part);
  }
  return s;
}

vx_status VX_CALLBACK consume_validate(vx_node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  if (count != 5) return VX_ERROR_INVALID_PARAMETERS;
  // The producer's validate has run: the virtual inputs have their attributes now.
  vx_enum type = VX_TYPE_INVALID;
  vx_status s = vxQueryArray(reinterpret_cast<vx_array>(parameters[0]), VX_ARRAY_ITEMTYPE, &type, sizeof type);
  if (s != VX_SUCCESS || type != VX_TYPE_INT32) return VX_ERROR_INVALID_TYPE;
  const vx_size capacity = 16;
  s = vxSetMetaFormatAttribute(metas[3], VX_ARRAY_ITEMTYPE, &type, sizeof type);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[3], VX_ARRAY_CAPACITY, &capacity, sizeof capacity);
  if (s == VX_SUCCESS) s = vxSetMetaFormatFromReference(metas[4], parameters[1]);
  return s;
}

vx_status VX_CALLBACK consume(vx_node, const vx_reference* parameters, vx_uint32) {
  auto doubled = reinterpret_cast<vx_array>(parameters[0]);
  auto stats = reinterpret_cast<vx_user_data_object>(parameters[1]);
  auto parts = reinterpret_cast<vx_object_array>(parameters[2]);
  auto out = reinterpret_cast<vx_array>(parameters[3]);
  auto summary = reinterpret_cast<vx_user_data_object>(parameters[4]);
  vx_status s = vxTruncateArray(out, 0);
  vx_size n = 0;
  if (s == VX_SUCCESS) s = vxQueryArray(doubled, VX_ARRAY_NUMITEMS, &n, sizeof n);
  std::vector<vx_int32> values(n);
  if (s == VX_SUCCESS && n > 0) {
    s = vxCopyArrayRange(doubled, 0, n, sizeof(vx_int32), values.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  }
  if (s == VX_SUCCESS && n > 0) s = vxAddArrayItems(out, n, values.data(), sizeof(vx_int32));
  vx_size count = 0;
  if (s == VX_SUCCESS) s = vxQueryObjectArray(parts, VX_OBJECT_ARRAY_NUMITEMS, &count, sizeof count);
  for (vx_uint32 i = 0; i < count && s == VX_SUCCESS; ++i) {
    vx_array part = reinterpret_cast<vx_array>(vxGetObjectArrayItem(parts, i));
    vx_map_id id = 0;
    vx_size stride = 0;
    void* base = nullptr;
    s = vxMapArrayRange(part, 0, 2, &id, &stride, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0);
    if (s == VX_SUCCESS) {
      s = vxAddArrayItems(out, 2, base, stride);
      const vx_status unmapped = vxUnmapArrayRange(part, id);
      if (s == VX_SUCCESS) s = unmapped;
    }
    (void)vxReleaseArray(&part);
  }
  Pair pair{};
  if (s == VX_SUCCESS) s = vxCopyUserDataObject(stats, 0, 0, &pair, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyUserDataObject(summary, 0, sizeof pair, &pair, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return s;
}

class OpenVxGraph : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    produce_ = add_user_kernel(context_, "org.visiongraph.test.arrays_produce", produce,
                               {{VX_INPUT, VX_TYPE_ARRAY},
                                {VX_OUTPUT, VX_TYPE_ARRAY},
                                {VX_OUTPUT, VX_TYPE_USER_DATA_OBJECT},
                                {VX_OUTPUT, VX_TYPE_OBJECT_ARRAY}},
                               produce_validate);
    ASSERT_EQ(vxGetStatus(ref(produce_)), VX_SUCCESS);
    consume_ = add_user_kernel(context_, "org.visiongraph.test.arrays_consume", consume,
                               {{VX_INPUT, VX_TYPE_ARRAY},
                                {VX_INPUT, VX_TYPE_USER_DATA_OBJECT},
                                {VX_INPUT, VX_TYPE_OBJECT_ARRAY},
                                {VX_OUTPUT, VX_TYPE_ARRAY},
                                {VX_OUTPUT, VX_TYPE_USER_DATA_OBJECT}},
                               consume_validate);
    ASSERT_EQ(vxGetStatus(ref(consume_)), VX_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(vxRemoveKernel(produce_), VX_SUCCESS);
    EXPECT_EQ(vxRemoveKernel(consume_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  static vx_node node(vx_graph graph, vx_kernel kernel, std::initializer_list<vx_reference> parameters) {
    vx_node n = vxCreateGenericNode(graph, kernel);
    vx_uint32 i = 0;
    for (vx_reference p : parameters) EXPECT_EQ(vxSetParameterByIndex(n, i++, p), VX_SUCCESS);
    return n;
  }

  vx_kernel produce_ = nullptr, consume_ = nullptr;
};

TEST_F(OpenVxGraph, VirtualArraysUserDataAndObjectArraysPassBetweenKernels) {
  vx_graph graph = vxCreateGraph(context_);
  vx_array in = vxCreateArray(context_, VX_TYPE_INT32, 8);
  const vx_int32 values[3] = {1, 2, 3};
  EXPECT_EQ(vxAddArrayItems(in, 3, values, sizeof(vx_int32)), VX_SUCCESS);
  // Virtual objects with everything open: the producer's validate says what they are.
  vx_array doubled = vxCreateVirtualArray(graph, VX_TYPE_INVALID, 0);
  vx_user_data_object stats = vxCreateVirtualUserDataObject(graph, nullptr, 0);
  vx_array part_exemplar = vxCreateArray(context_, VX_TYPE_INT32, 2);
  vx_object_array parts = vxCreateVirtualObjectArray(graph, ref(part_exemplar), 3);
  vx_array out = vxCreateArray(context_, VX_TYPE_INT32, 16);
  vx_user_data_object summary = vxCreateUserDataObject(context_, "pair", sizeof(Pair), nullptr);
  vx_node first = node(graph, produce_, {ref(in), ref(doubled), ref(stats), ref(parts)});
  vx_node second = node(graph, consume_, {ref(doubled), ref(stats), ref(parts), ref(out), ref(summary)});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  // Verification gave the virtual objects the producer's attributes.
  EXPECT_EQ(item_type(doubled), VX_TYPE_INT32);
  EXPECT_EQ(query_size(doubled, VX_ARRAY_CAPACITY), 8u) << "from vxSetMetaFormatFromReference(in)";
  EXPECT_EQ(user_data_size(stats), sizeof(Pair));
  EXPECT_EQ(user_data_name(stats), "pair");
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_all(out), (std::vector<vx_int32>{2, 4, 6, 0, 3, 100, 3, 200, 3}));
  Pair pair{};
  EXPECT_EQ(vxCopyUserDataObject(summary, 0, 0, &pair, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(pair.sum, 12);
  EXPECT_EQ(pair.count, 3);
  EXPECT_EQ(pair.mean, 4.0);
  // Next frame, new input.
  const vx_int32 ten = 10;
  EXPECT_EQ(vxTruncateArray(in, 0), VX_SUCCESS);
  EXPECT_EQ(vxAddArrayItems(in, 1, &ten, sizeof ten), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_all(out), (std::vector<vx_int32>{20, 0, 3, 100, 3, 200, 3}));
  EXPECT_EQ(vxCopyUserDataObject(summary, 0, 0, &pair, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(pair.sum, 20);
  EXPECT_EQ(pair.count, 1);
  // The virtual objects stay out of the application's reach after the run too.
  vx_int32 v = 0;
  vx_map_id id = 0;
  vx_size stride = 0;
  void* ptr = nullptr;
  EXPECT_EQ(vxCopyArrayRange(doubled, 0, 1, sizeof v, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapArrayRange(doubled, 0, 1, &id, &stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxMapUserDataObject(stats, 0, 0, &id, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_OPTIMIZED_AWAY);
  vx_array part = reinterpret_cast<vx_array>(vxGetObjectArrayItem(parts, 1));
  EXPECT_EQ(num_items(part), 2u) << "attributes stay queryable";
  EXPECT_EQ(vxCopyArrayRange(part, 0, 1, sizeof v, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxReleaseArray(&part), VX_SUCCESS);
  for (vx_reference r : {ref(first), ref(second), ref(in), ref(doubled), ref(stats), ref(part_exemplar), ref(parts), ref(out),
                         ref(summary), ref(graph)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVxGraph, OutputsMustMatchWhatValidateSays) {
  vx_graph graph = vxCreateGraph(context_);
  vx_array in = vxCreateArray(context_, VX_TYPE_INT32, 8);
  vx_array doubled = vxCreateVirtualArray(graph, VX_TYPE_INVALID, 0);
  vx_user_data_object stats = vxCreateVirtualUserDataObject(graph, nullptr, 0);
  vx_array part_exemplar = vxCreateArray(context_, VX_TYPE_INT32, 2);
  vx_object_array parts = vxCreateVirtualObjectArray(graph, ref(part_exemplar), 3);
  vx_array wrong_type = vxCreateArray(context_, VX_TYPE_FLOAT32, 16);
  vx_array too_small = vxCreateArray(context_, VX_TYPE_INT32, 15);
  vx_user_data_object summary = vxCreateUserDataObject(context_, "pair", sizeof(Pair), nullptr);
  vx_user_data_object wrong_size = vxCreateUserDataObject(context_, "pair", sizeof(Pair) + 1, nullptr);
  vx_user_data_object wrong_name = vxCreateUserDataObject(context_, "other", sizeof(Pair), nullptr);
  vx_node first = node(graph, produce_, {ref(in), ref(doubled), ref(stats), ref(parts)});
  vx_node second = node(graph, consume_, {ref(doubled), ref(stats), ref(parts), ref(wrong_type), ref(summary)});
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("output parameter 3"));
  EXPECT_EQ(vxSetParameterByIndex(second, 3, ref(too_small)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("room for 15 items"));
  vx_array big_enough = vxCreateArray(context_, VX_TYPE_INT32, 100);
  EXPECT_EQ(vxSetParameterByIndex(second, 3, ref(big_enough)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 4, ref(wrong_size)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(vxSetParameterByIndex(second, 4, ref(wrong_name)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("'other'"));
  EXPECT_EQ(vxSetParameterByIndex(second, 4, ref(summary)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << "a larger array than validate asks for is fine";
  // Object arrays of the wrong count, or of another item type.
  vx_object_array four = vxCreateVirtualObjectArray(graph, ref(part_exemplar), 4);
  EXPECT_EQ(vxSetParameterByIndex(first, 3, ref(four)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 2, ref(four)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("has 4 items, validate says 3"));
  vx_object_array of_scalars = nullptr;
  {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    of_scalars = vxCreateObjectArray(context_, ref(s), 3);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  EXPECT_EQ(vxSetParameterByIndex(first, 3, ref(of_scalars)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 2, ref(of_scalars)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE) << "items of another type";
  // A virtual object array made like a virtual array with open attributes: its items stay open.
  vx_array open_exemplar = vxCreateVirtualArray(graph, VX_TYPE_INVALID, 0);
  vx_object_array open_parts = vxCreateVirtualObjectArray(graph, ref(open_exemplar), 3);
  EXPECT_EQ(vxSetParameterByIndex(first, 3, ref(open_parts)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 2, ref(open_parts)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("item 0 (made like the exemplar)"));
  EXPECT_EQ(vxSetParameterByIndex(first, 3, ref(parts)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 2, ref(parts)), VX_SUCCESS);
  // A virtual array whose item type was given at creation keeps it: validate must agree.
  vx_array float_doubled = vxCreateVirtualArray(graph, VX_TYPE_FLOAT32, 0);
  EXPECT_EQ(vxSetParameterByIndex(first, 1, ref(float_doubled)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 0, ref(float_doubled)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxSetParameterByIndex(first, 1, ref(doubled)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 0, ref(doubled)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  for (vx_reference r : {ref(first), ref(second), ref(in), ref(doubled), ref(stats), ref(part_exemplar), ref(parts), ref(wrong_type),
                         ref(too_small), ref(big_enough), ref(summary), ref(wrong_size), ref(wrong_name), ref(four), ref(of_scalars),
                         ref(open_exemplar), ref(open_parts), ref(float_doubled), ref(graph)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

}  // namespace
