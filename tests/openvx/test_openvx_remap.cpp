// OpenVX remap tables: creation, queries, patches copied and mapped in place, virtual remaps between
// kernels, and the errors.
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::status_of;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;


TEST_F(OpenVx, RemapTablesHoldOneSourceCoordinatePerDestinationPixel) {
  vx_remap remap = vxCreateRemap(context_, 64, 48, 8, 6);
  ASSERT_EQ(status_of(remap), VX_SUCCESS);
  vx_uint32 value = 0;
  EXPECT_EQ(vxQueryRemap(remap, VX_REMAP_SOURCE_WIDTH, &value, sizeof value), VX_SUCCESS);
  EXPECT_EQ(value, 64u);
  EXPECT_EQ(vxQueryRemap(remap, VX_REMAP_SOURCE_HEIGHT, &value, sizeof value), VX_SUCCESS);
  EXPECT_EQ(value, 48u);
  EXPECT_EQ(vxQueryRemap(remap, VX_REMAP_DESTINATION_WIDTH, &value, sizeof value), VX_SUCCESS);
  EXPECT_EQ(value, 8u);
  EXPECT_EQ(vxQueryRemap(remap, VX_REMAP_DESTINATION_HEIGHT, &value, sizeof value), VX_SUCCESS);
  EXPECT_EQ(value, 6u);
  // Write the whole table: destination (x, y) reads source (8x, 8y).
  std::vector<vx_coordinates2df_t> all(8 * 6);
  for (vx_uint32 y = 0; y < 6; ++y) {
    for (vx_uint32 x = 0; x < 8; ++x) all[y * 8 + x] = vx_coordinates2df_t{8.0f * x, 8.0f * y};
  }
  const vx_rectangle_t whole{0, 0, 8, 6};
  ASSERT_EQ(vxCopyRemapPatch(remap, &whole, 8 * sizeof(vx_coordinates2df_t), all.data(), VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY,
                             VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  // Map a patch in place and change one entry.
  const vx_rectangle_t patch{2, 3, 5, 5};
  vx_map_id id = 0;
  vx_size stride_y = 0;
  void* ptr = nullptr;
  ASSERT_EQ(vxMapRemapPatch(remap, &patch, &id, &stride_y, &ptr, VX_TYPE_COORDINATES2DF, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(stride_y, 8 * sizeof(vx_coordinates2df_t));
  auto* first = static_cast<vx_coordinates2df_t*>(ptr);
  EXPECT_EQ(first->x, 16.0f);
  EXPECT_EQ(first->y, 24.0f);
  auto* second_row = reinterpret_cast<vx_coordinates2df_t*>(static_cast<vx_uint8*>(ptr) + stride_y);
  second_row[1] = vx_coordinates2df_t{-1.5f, 2.5f};  // destination (3, 4)
  EXPECT_EQ(vxUnmapRemapPatch(remap, id), VX_SUCCESS);
  EXPECT_EQ(vxUnmapRemapPatch(remap, id), VX_ERROR_INVALID_PARAMETERS);
  // Read a patch back into a buffer with padded rows.
  std::vector<vx_coordinates2df_t> out(2 * 4, vx_coordinates2df_t{7.0f, 7.0f});
  const vx_rectangle_t two{3, 4, 5, 5};
  ASSERT_EQ(vxCopyRemapPatch(remap, &two, 4 * sizeof(vx_coordinates2df_t), out.data(), VX_TYPE_COORDINATES2DF, VX_READ_ONLY,
                             VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  EXPECT_EQ(out[0].x, -1.5f);
  EXPECT_EQ(out[0].y, 2.5f);
  EXPECT_EQ(out[1].x, 32.0f);
  EXPECT_EQ(out[2].x, 7.0f) << "the padding is left alone";
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
  EXPECT_EQ(remap, nullptr);
}

TEST_F(OpenVx, RemapErrorsNameWhatIsWrong) {
  EXPECT_EQ(status_of(vxCreateRemap(context_, 0, 4, 4, 4)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCreateRemap(nullptr, 4, 4, 4, 4), nullptr);
  vx_remap remap = vxCreateRemap(context_, 4, 4, 4, 4);
  vx_coordinates2df_t buffer[16] = {};
  const vx_rectangle_t outside{0, 0, 5, 4}, whole{0, 0, 4, 4};
  EXPECT_EQ(vxCopyRemapPatch(remap, &outside, 64, buffer, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyRemapPatch(remap, &whole, 16, buffer, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS)
      << "rows overlap";
  EXPECT_EQ(vxCopyRemapPatch(remap, &whole, 32, buffer, VX_TYPE_COORDINATES2D, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS)
      << "coordinates are floats";
  EXPECT_EQ(vxCopyRemapPatch(remap, &whole, 32, buffer, VX_TYPE_COORDINATES2DF, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_uint32 value = 0;
  EXPECT_EQ(vxQueryRemap(remap, VX_REMAP_SOURCE_WIDTH, &value, 2), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryRemap(remap, VX_IMAGE_WIDTH, &value, sizeof value), VX_ERROR_NOT_SUPPORTED);
  vx_image image = vxCreateImage(context_, 4, 4, VX_DF_IMAGE_U8);
  EXPECT_EQ(vxQueryRemap(reinterpret_cast<vx_remap>(image), VX_REMAP_SOURCE_WIDTH, &value, sizeof value), VX_ERROR_INVALID_REFERENCE);
  vx_map_id id = 0;
  vx_size stride = 0;
  void* ptr = nullptr;
  EXPECT_EQ(vxMapRemapPatch(nullptr, &whole, &id, &stride, &ptr, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  // A virtual remap's table is out of the application's reach.
  vx_graph graph = vxCreateGraph(context_);
  vx_remap hidden = vxCreateVirtualRemap(graph, 4, 4, 4, 4);
  EXPECT_EQ(vxMapRemapPatch(hidden, &whole, &id, &stride, &ptr, VX_TYPE_COORDINATES2DF, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_OPTIMIZED_AWAY);
  EXPECT_EQ(vxQueryRemap(hidden, VX_REMAP_DESTINATION_WIDTH, &value, sizeof value), VX_SUCCESS) << "its attributes are not";
  EXPECT_EQ(vxReleaseRemap(&hidden), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  EXPECT_EQ(vxReleaseRemap(&remap), VX_SUCCESS);
}

// "shift": writes a remap table of destination (x, y) <- source (x + 1, y); "apply": copies the table's
// first entry into a float32 scalar. A virtual remap passes between them.
vx_status VX_CALLBACK shift(vx_node, const vx_reference* parameters, vx_uint32) {
  auto remap = reinterpret_cast<vx_remap>(parameters[1]);
  const vx_rectangle_t whole{0, 0, 4, 4};
  vx_map_id id = 0;
  vx_size stride = 0;
  void* ptr = nullptr;
  if (vx_status s = vxMapRemapPatch(remap, &whole, &id, &stride, &ptr, VX_TYPE_COORDINATES2DF, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST); s != VX_SUCCESS) return s;
  for (vx_uint32 y = 0; y < 4; ++y) {
    auto* row = reinterpret_cast<vx_coordinates2df_t*>(static_cast<vx_uint8*>(ptr) + y * stride);
    for (vx_uint32 x = 0; x < 4; ++x) row[x] = vx_coordinates2df_t{x + 1.0f, static_cast<vx_float32>(y)};
  }
  return vxUnmapRemapPatch(remap, id);
}
vx_status VX_CALLBACK apply(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_coordinates2df_t first{};
  const vx_rectangle_t one{0, 0, 1, 1};
  if (vx_status s = vxCopyRemapPatch(reinterpret_cast<vx_remap>(parameters[0]), &one, sizeof first, &first, VX_TYPE_COORDINATES2DF, VX_READ_ONLY,
                                     VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &first.x, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}
vx_status VX_CALLBACK validate_shift(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  return vxSetMetaFormatFromReference(metas[1], parameters[0]);
}
vx_status VX_CALLBACK validate_apply(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  const vx_enum type = VX_TYPE_FLOAT32;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

TEST_F(OpenVx, AVirtualRemapCarriesATableBetweenKernels) {
  vx_kernel kernels[2] = {};
  const struct {
    const char* name;
    vx_kernel_f function;
    vx_kernel_validate_f validate;
    vx_enum in, out;
  } decls[2] = {{"org.visiongraph.test.shift", shift, validate_shift, VX_TYPE_REMAP, VX_TYPE_REMAP},
                {"org.visiongraph.test.apply", apply, validate_apply, VX_TYPE_REMAP, VX_TYPE_SCALAR}};
  for (int k = 0; k < 2; ++k) {
    kernels[k] = add_user_kernel(context_, decls[k].name, decls[k].function, {{VX_INPUT, decls[k].in}, {VX_OUTPUT, decls[k].out}},
                                 decls[k].validate);
  }
  vx_graph graph = vxCreateGraph(context_);
  vx_remap shape = vxCreateRemap(context_, 4, 4, 4, 4);
  vx_remap between = vxCreateVirtualRemap(graph, 4, 4, 4, 4);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  vx_node a = vxCreateGenericNode(graph, kernels[0]), b = vxCreateGenericNode(graph, kernels[1]);
  EXPECT_EQ(vxSetParameterByIndex(a, 0, reinterpret_cast<vx_reference>(shape)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(a, 1, reinterpret_cast<vx_reference>(between)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(b, 0, reinterpret_cast<vx_reference>(between)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(b, 1, reinterpret_cast<vx_reference>(out)), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  vx_float32 x = 0;
  EXPECT_EQ(vxCopyScalar(out, &x, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(x, 1.0f);
  // A remap output of other sizes than validate says fails verification.
  vx_remap wrong = vxCreateVirtualRemap(graph, 4, 4, 2, 2);
  EXPECT_EQ(vxSetParameterByIndex(a, 1, reinterpret_cast<vx_reference>(wrong)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(b, 0, reinterpret_cast<vx_reference>(wrong)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("validate says 4x4 to 4x4"));
  for (vx_node* n : {&a, &b}) EXPECT_EQ(vxReleaseNode(n), VX_SUCCESS);
  for (vx_remap* r : {&shape, &between, &wrong}) EXPECT_EQ(vxReleaseRemap(r), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_kernel k : kernels) EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
}

}  // namespace
