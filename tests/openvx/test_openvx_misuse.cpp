// Misuse of the C API that must be refused with a status (and a log line), never accepted: sizes whose
// byte counts wrap (chosen to wrap on 32-bit hosts as well as 64-bit ones), map ids of another object,
// user strides that leave the address space, a reference enqueued twice, a node reading its own output,
// a virtual object used outside its graph, a graph parameter added twice, containers of absurd counts.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;
using vg_openvx_test::status_of;

constexpr vx_size kSizeMax = SIZE_MAX;

class OpenVxMisuse : public OpenVx {
 protected:
  /// Releases whatever a creator gave (an object or an error object: releasing the latter is refused).
  static void drop(vx_reference r) {
    if (vxGetStatus(r) == VX_SUCCESS) {
      EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
    }
  }
};

TEST_F(OpenVxMisuse, RemapWhoseTableSizeWrapsIsRefused) {
  // 2^31 x 2^31 entries of 8 bytes wrap a 64-bit size to 0; 2^20 x 2^20 x 8 wraps a 32-bit one to 0 and is
  // beyond what one object may hold on 64-bit.
  for (vx_uint32 side : {1u << 31, 1u << 20, 0xffffffffu}) {
    vx_remap remap = vxCreateRemap(context_, 64, 64, side, side);
    EXPECT_NE(status_of(remap), VX_SUCCESS) << side;
    EXPECT_EQ(vxCopyRemapPatch(remap, nullptr, 0, nullptr, VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
              VX_ERROR_INVALID_REFERENCE);
    drop(reinterpret_cast<vx_reference>(remap));
  }
  EXPECT_TRUE(logged("remap")) << "the refusal says what was wrong";
}

TEST_F(OpenVxMisuse, ImageWhoseSizeWrapsIsRefused) {
  struct Case {
    vx_uint32 width, height;
    vx_df_image format;
  };
  // 2^31 x 2^31 x 4 wraps 64 bits; 2^20 x 2^20 x 4 wraps 32 bits; a 2^30-pixel U32 row is more than a vx_int32 stride.
  for (const Case c : {Case{1u << 31, 1u << 31, VX_DF_IMAGE_U32}, Case{1u << 20, 1u << 20, VX_DF_IMAGE_U32},
                       Case{1u << 30, 1, VX_DF_IMAGE_U32}, Case{0xfffffffeu, 0xfffffffeu, VX_DF_IMAGE_IYUV},
                       Case{0xffffffffu, 0xffffffffu, VX_DF_IMAGE_RGB}}) {
    vx_image image = vxCreateImage(context_, c.width, c.height, c.format);
    EXPECT_NE(status_of(image), VX_SUCCESS) << c.width << "x" << c.height;
    // Nothing can be mapped from what was refused.
    vx_rectangle_t rect{0, 0, 64, 64};
    vx_map_id id = 0;
    vx_imagepatch_addressing_t addr{};
    void* ptr = nullptr;
    EXPECT_EQ(vxMapImagePatch(image, &rect, 0, &id, &addr, &ptr, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_ERROR_INVALID_REFERENCE);
    drop(reinterpret_cast<vx_reference>(image));
  }
  EXPECT_TRUE(logged("image"));
}

TEST_F(OpenVxMisuse, DataObjectsWhoseSizesWrapAreRefused) {
  // Arrays: capacity x item size past every size type.
  EXPECT_NE(status_of(vxCreateArray(context_, VX_TYPE_UINT32, kSizeMax / 4 + 1)), VX_SUCCESS);
  EXPECT_NE(status_of(vxCreateArray(context_, VX_TYPE_COORDINATES3D, kSizeMax / 2)), VX_SUCCESS);
  // Tensors: 2^16 cubed wraps 32 bits and is beyond one object on 64-bit; 2^32 x 2^32 wraps 64 bits.
  const vx_size cube[3] = {vx_size{1} << 16, vx_size{1} << 16, vx_size{1} << 16};
  EXPECT_NE(status_of(vxCreateTensor(context_, 3, cube, VX_TYPE_UINT8, 0)), VX_SUCCESS);
  const vx_size huge[2] = {kSizeMax / 2, 3};
  EXPECT_NE(status_of(vxCreateTensor(context_, 2, huge, VX_TYPE_INT16, 0)), VX_SUCCESS);
  // Matrices: rows x columns x 4.
  EXPECT_NE(status_of(vxCreateMatrix(context_, VX_TYPE_FLOAT32, vx_size{1} << 21, vx_size{1} << 21)), VX_SUCCESS);
  EXPECT_NE(status_of(vxCreateMatrix(context_, VX_TYPE_INT32, kSizeMax, 2)), VX_SUCCESS);
  // User data objects: more than one object may hold.
  EXPECT_NE(status_of(vxCreateUserDataObject(context_, "big", kSizeMax, nullptr)), VX_SUCCESS);
  // Distributions: 2^30 bins of 4 bytes wrap a 32-bit size (on 64-bit they are a legitimate 4 GiB: not tried).
  if constexpr (sizeof(vx_size) == 4) {
    EXPECT_NE(status_of(vxCreateDistribution(context_, vx_size{1} << 30, 0, 0xffffffffu)), VX_SUCCESS);
  }
  // Pyramids: a level that grows past a vx_uint32 width is refused, not cast.
  EXPECT_NE(status_of(vxCreatePyramid(context_, 2, 1e30f, 1, 1, VX_DF_IMAGE_U8)), VX_SUCCESS);
  EXPECT_TRUE(logged("beyond what one object may hold"));
}

TEST_F(OpenVxMisuse, ContainersOfAbsurdCountsFailFast) {
  vx_image exemplar = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_U8);
  ASSERT_EQ(status_of(exemplar), VX_SUCCESS);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(status_of(vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), vx_size{1} << 28)),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), kSizeMax)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(status_of(vxCreateDelay(context_, reinterpret_cast<vx_reference>(exemplar), vx_size{1} << 28)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_NE(status_of(vxCreatePyramid(context_, vx_size{1} << 28, VX_SCALE_PYRAMID_HALF, 64, 64, VX_DF_IMAGE_U8)), VX_SUCCESS);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << "refused before anything is made";
  EXPECT_TRUE(logged("object array"));
  // Within the count, but together more bytes than one object may hold: 65536 x 64 MiB.
  vx_image big = vxCreateImage(context_, 8192, 8192, VX_DF_IMAGE_U8);
  ASSERT_EQ(status_of(big), VX_SUCCESS);
  EXPECT_EQ(status_of(vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(big), 65536)), VX_ERROR_NO_MEMORY);
  // A sane count still works.
  vx_object_array fine = vxCreateObjectArray(context_, reinterpret_cast<vx_reference>(exemplar), 3);
  EXPECT_EQ(status_of(fine), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&fine), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&big), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&exemplar), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, UnmapWithAnotherObjectsMapIdIsRefused) {
  vx_image a = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_image b = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_rectangle_t rect{0, 0, 16, 16};
  vx_imagepatch_addressing_t addr{};
  void* ptr = nullptr;
  vx_map_id id_b = 0, id_a = 0;
  ASSERT_EQ(vxMapImagePatch(b, &rect, 0, &id_b, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  ASSERT_EQ(vxMapImagePatch(a, &rect, 0, &id_a, &addr, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_NE(id_a, id_b) << "map ids are unique in the context, not per object";
  EXPECT_EQ(vxUnmapImagePatch(a, id_b), VX_ERROR_INVALID_PARAMETERS) << "b's map is not a's";
  EXPECT_TRUE(logged("map id"));
  // Other types: an array's map id does not unmap a tensor's or a LUT's map, and the reverse.
  vx_array array = vxCreateArray(context_, VX_TYPE_UINT8, 4);
  const vx_uint8 items[4] = {1, 2, 3, 4};
  ASSERT_EQ(vxAddArrayItems(array, 4, items, 1), VX_SUCCESS);
  const vx_size dims[1] = {4};
  vx_tensor tensor = vxCreateTensor(context_, 1, dims, VX_TYPE_UINT8, 0);
  vx_lut lut = vxCreateLUT(context_, VX_TYPE_UINT8, 256);
  vx_map_id id_array = 0, id_tensor = 0, id_lut = 0;
  vx_size stride = 0;
  vx_size tensor_stride[1] = {};
  ASSERT_EQ(vxMapArrayRange(array, 0, 4, &id_array, &stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  ASSERT_EQ(vxMapTensorPatch(tensor, 1, nullptr, nullptr, &id_tensor, tensor_stride, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  ASSERT_EQ(vxMapLUT(lut, &id_lut, &ptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), VX_SUCCESS);
  EXPECT_EQ(vxUnmapTensorPatch(tensor, id_array), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapArrayRange(array, id_lut), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapLUT(lut, id_tensor), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxUnmapImagePatch(b, id_a), VX_ERROR_INVALID_PARAMETERS);
  // Each map is still there for its own object.
  EXPECT_EQ(vxUnmapImagePatch(a, id_a), VX_SUCCESS);
  EXPECT_EQ(vxUnmapImagePatch(b, id_b), VX_SUCCESS);
  EXPECT_EQ(vxUnmapArrayRange(array, id_array), VX_SUCCESS);
  EXPECT_EQ(vxUnmapTensorPatch(tensor, id_tensor), VX_SUCCESS);
  EXPECT_EQ(vxUnmapLUT(lut, id_lut), VX_SUCCESS);
  EXPECT_EQ(vxUnmapImagePatch(a, id_a), VX_ERROR_INVALID_PARAMETERS) << "unmapped already";
  EXPECT_EQ(vxReleaseLUT(&lut), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&tensor), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&a), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&b), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, UserStridesThatLeaveTheAddressSpaceAreRefused) {
  // The library reaches the application's elements as offsets from its pointer: a stride whose span is not
  // an address is refused before anything is read or written.
  vx_remap remap = vxCreateRemap(context_, 8, 8, 8, 8);
  vx_rectangle_t rect{0, 0, 8, 2};
  vx_coordinates2df_t entries[16] = {};
  EXPECT_EQ(vxCopyRemapPatch(remap, &rect, kSizeMax / 2, entries, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyRemapPatch(remap, &rect, 8 * sizeof(vx_coordinates2df_t), entries, VX_TYPE_COORDINATES2DF, VX_READ_ONLY,
                             VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  vx_array array = vxCreateArray(context_, VX_TYPE_UINT8, 4);
  const vx_uint8 items[4] = {};
  EXPECT_EQ(vxAddArrayItems(array, 2, items, kSizeMax / 2 + 1), VX_ERROR_INVALID_PARAMETERS);
  ASSERT_EQ(vxAddArrayItems(array, 4, items, 1), VX_SUCCESS);
  vx_uint8 out[4] = {};
  EXPECT_EQ(vxCopyArrayRange(array, 0, 3, kSizeMax / 2, out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  const vx_size dims[2] = {4, 4};
  vx_tensor tensor = vxCreateTensor(context_, 2, dims, VX_TYPE_UINT8, 0);
  vx_uint8 cells[16] = {};
  const vx_size wild[2] = {1, kSizeMax / 2};
  EXPECT_EQ(vxCopyTensorPatch(tensor, 2, nullptr, nullptr, wild, cells, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  const vx_size packed[2] = {1, 4};
  EXPECT_EQ(vxCopyTensorPatch(tensor, 2, nullptr, nullptr, packed, cells, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&tensor), VX_SUCCESS);
  EXPECT_EQ(vxReleaseArray(&array), VX_SUCCESS);
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, ReferenceEnqueuedTwiceInOneCallIsRefused) {
  vx_graph graph = vxCreateGraph(context_);
  vx_image ins[2] = {vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8), vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8)};
  vx_image outs[2] = {vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8), vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8)};
  vx_node node = vxNotNode(graph, ins[0], outs[0]);
  for (vx_uint32 i = 0; i < 2; ++i) {
    vx_parameter p = vxGetParameterByIndex(node, i);
    ASSERT_EQ(vxAddParameterToGraph(graph, p), VX_SUCCESS);
    EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  }
  vx_graph_parameter_queue_params_t params[2] = {{0, 2, reinterpret_cast<vx_reference*>(ins)},
                                                 {1, 2, reinterpret_cast<vx_reference*>(outs)}};
  ASSERT_EQ(vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_MANUAL, 2, params), VX_SUCCESS);
  // Three references (one of them twice) for a queue of two.
  vx_reference three[3] = {reinterpret_cast<vx_reference>(ins[0]), reinterpret_cast<vx_reference>(ins[0]),
                           reinterpret_cast<vx_reference>(ins[1])};
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, three, 3), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("twice"));
  // Nothing of the refused call was queued: each may be enqueued once now.
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, &three[1], 2), VX_SUCCESS);
  vx_reference out_refs[2] = {reinterpret_cast<vx_reference>(outs[0]), reinterpret_cast<vx_reference>(outs[1])};
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph, 1, out_refs, 2), VX_SUCCESS);
  EXPECT_EQ(vxScheduleGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(graph), VX_SUCCESS);
  vx_reference done[2] = {};
  vx_uint32 n = 0, total = 0;
  while (total < 2 && vxGraphParameterDequeueDoneRef(graph, 1, done, 2, &n) == VX_SUCCESS) total += n;
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image& image : ins) EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  for (vx_image& image : outs) EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, NodeReadingItsOwnOutputFailsVerification) {
  vx_graph graph = vxCreateGraph(context_);
  vx_image image = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_node node = vxNotNode(graph, image, image);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_GRAPH);
  EXPECT_TRUE(logged("also parameter"));
  EXPECT_NE(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, VirtualObjectOfAnotherGraphFailsVerification) {
  vx_graph g2 = vxCreateGraph(context_);
  vx_graph g5 = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_image foreign = vxCreateVirtualImage(g2, 8, 8, VX_DF_IMAGE_U8);
  vx_node first = vxNotNode(g5, in, foreign);
  vx_node second = vxNotNode(g5, foreign, out);
  EXPECT_EQ(vxVerifyGraph(g5), VX_ERROR_INVALID_SCOPE);
  EXPECT_TRUE(logged("another graph"));
  // The same chain through a virtual image of g5 itself verifies.
  vx_image own = vxCreateVirtualImage(g5, 8, 8, VX_DF_IMAGE_U8);
  vx_parameter p = vxGetParameterByIndex(first, 1);
  EXPECT_EQ(vxSetParameterByReference(p, reinterpret_cast<vx_reference>(own)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  p = vxGetParameterByIndex(second, 0);
  EXPECT_EQ(vxSetParameterByReference(p, reinterpret_cast<vx_reference>(own)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(g5), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&first), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&second), VX_SUCCESS);
  for (vx_image* image : {&in, &out, &foreign, &own}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&g2), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&g5), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, SameNodeParameterAddedToGraphTwiceIsRefused) {
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_image out = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_node node = vxNotNode(graph, in, out);
  vx_parameter p = vxGetParameterByIndex(node, 0);
  EXPECT_EQ(vxAddParameterToGraph(graph, p), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToGraph(graph, p), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("graph parameter already"));
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryGraph(graph, VX_GRAPH_NUMPARAMETERS, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
}

TEST_F(OpenVxMisuse, ReleasedHandleIsAnInvalidReference) {
  vx_image image = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_image stale = image;
  ASSERT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(stale, VX_IMAGE_WIDTH, &width, sizeof width), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseImage(&stale), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(stale)), VX_ERROR_INVALID_REFERENCE);
}

}  // namespace
