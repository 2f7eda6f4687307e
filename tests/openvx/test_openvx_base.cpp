// OpenVX base: context, reference counting, error objects, logging, directives, user structs, ids,
// kernels (standard declarations and user kernels), modules, graphs, nodes, parameters, scalars, meta
// formats and the checks of vxVerifyGraph. Every test runs in a fixture that asserts the context holds as
// many references, modules and kernels at the end as at the start.
#include <VX/vx.h>
#include <VX/vx_khr_nn.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vxu.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::Counts;
using vg_openvx_test::counts_of;
using vg_openvx_test::log_lines;
using vg_openvx_test::log_statuses;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;

// --- a user kernel for graphs: out = in + 1, int32 scalars ---------------------------------------------

vx_status VX_CALLBACK add_one(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

int validate_calls = 0;
vx_enum validate_output_type = VX_TYPE_INT32;  // what validate says the output is

vx_status VX_CALLBACK validate_add_one(vx_node node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  ++validate_calls;
  if (node == nullptr || count != 2 || parameters[0] == nullptr || metas[1] == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum in_type = VX_TYPE_INVALID;
  if (vxQueryScalar(reinterpret_cast<vx_scalar>(parameters[0]), VX_SCALAR_TYPE, &in_type, sizeof in_type) != VX_SUCCESS) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (in_type != VX_TYPE_INT32) return VX_ERROR_INVALID_TYPE;
  const vx_status s = vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &validate_output_type, sizeof validate_output_type);
  if (s != VX_SUCCESS) return s;
  vx_enum back = VX_TYPE_INVALID;  // 1.3: a kernel can read its meta format back
  if (vxQueryMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &back, sizeof back) != VX_SUCCESS || back != validate_output_type) {
    return VX_FAILURE;
  }
  return VX_SUCCESS;
}

vx_kernel add_add_one(vx_context context, const char* name = "org.visiongraph.test.add_one_local") {
  return add_user_kernel(context, name, add_one, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}, validate_add_one);
}

// --- context -------------------------------------------------------------------------------------------

TEST_F(OpenVx, ContextAttributes) {
  vx_uint16 version = 0, vendor = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_VERSION, &version, sizeof version), VX_SUCCESS);
  EXPECT_EQ(version, VX_VERSION_1_3);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_VENDOR_ID, &vendor, sizeof vendor), VX_SUCCESS);
  EXPECT_EQ(vendor, VX_ID_USER);
  vx_char implementation[VX_MAX_IMPLEMENTATION_NAME] = {};
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_IMPLEMENTATION, implementation, sizeof implementation), VX_SUCCESS);
  EXPECT_STREQ(implementation, "visiongraph");
  vx_size extensions_size = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS_SIZE, &extensions_size, sizeof extensions_size), VX_SUCCESS);
  std::vector<vx_char> extensions(extensions_size);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_EXTENSIONS, extensions.data(), extensions.size()), VX_SUCCESS);
  vx_size dims = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_MAX_TENSOR_DIMS, &dims, sizeof dims), VX_SUCCESS);
  EXPECT_GE(dims, 4u);
  // Wrong size, NULL pointer, unknown attribute.
  vx_uint32 small = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_VERSION, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_VERSION, nullptr, sizeof version), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryContext(context_, VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_CONTEXT) + 0x7F, &small, sizeof small),
            VX_ERROR_NOT_SUPPORTED);
}

TEST_F(OpenVx, EveryListedKernelIsFoundByNameAndByEnumAndDescribesItsParameters) {
  vx_uint32 n = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNELS, &n, sizeof n), VX_SUCCESS);
  ASSERT_GE(n, 60u);  // the 1.3 standard kernels are declared
  std::vector<vx_kernel_info_t> table(n);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNEL_TABLE, table.data(), n * sizeof(vx_kernel_info_t)), VX_SUCCESS);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNEL_TABLE, table.data(), (n - 1) * sizeof(vx_kernel_info_t)),
            VX_ERROR_INVALID_PARAMETERS);
  for (const vx_kernel_info_t& info : table) {
    vx_kernel by_name = vxGetKernelByName(context_, info.name);
    ASSERT_EQ(vxGetStatus(ref(by_name)), VX_SUCCESS) << info.name;
    vx_kernel by_enum = vxGetKernelByEnum(context_, info.enumeration);
    ASSERT_EQ(vxGetStatus(ref(by_enum)), VX_SUCCESS) << info.name;
    EXPECT_EQ(by_name, by_enum) << info.name;
    vx_enum e = 0;
    vx_uint32 params = 0;
    vx_char name[VX_MAX_KERNEL_NAME] = {};
    EXPECT_EQ(vxQueryKernel(by_name, VX_KERNEL_ENUM, &e, sizeof e), VX_SUCCESS);
    EXPECT_EQ(e, info.enumeration);
    EXPECT_EQ(vxQueryKernel(by_name, VX_KERNEL_NAME, name, sizeof name), VX_SUCCESS);
    EXPECT_STREQ(name, info.name);
    EXPECT_EQ(vxQueryKernel(by_name, VX_KERNEL_PARAMETERS, &params, sizeof params), VX_SUCCESS);
    EXPECT_GE(params, 1u) << info.name;
    for (vx_uint32 i = 0; i < params; ++i) {
      vx_parameter p = vxGetKernelParameterByIndex(by_name, i);
      ASSERT_EQ(vxGetStatus(ref(p)), VX_SUCCESS);
      vx_enum dir = 0, type = 0, state = 0;
      EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_DIRECTION, &dir, sizeof dir), VX_SUCCESS);
      EXPECT_TRUE(dir == VX_INPUT || dir == VX_OUTPUT || dir == VX_BIDIRECTIONAL) << info.name << " " << i;
      EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_TYPE, &type, sizeof type), VX_SUCCESS);
      EXPECT_NE(type, VX_TYPE_INVALID) << info.name << " " << i;
      EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_STATE, &state, sizeof state), VX_SUCCESS);
      EXPECT_TRUE(state == VX_PARAMETER_STATE_REQUIRED || state == VX_PARAMETER_STATE_OPTIONAL);
      EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
    EXPECT_EQ(vxGetStatus(ref(vxGetKernelParameterByIndex(by_name, params))), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxReleaseKernel(&by_name), VX_SUCCESS);
    EXPECT_EQ(vxReleaseKernel(&by_enum), VX_SUCCESS);
  }
}

TEST_F(OpenVx, StandardKernelsHaveTheirSpecificationNames) {
  struct Known {
    vx_enum e;
    const char* name;
    vx_uint32 params;
  };
  for (const Known& k : {Known{VX_KERNEL_COLOR_CONVERT, "org.khronos.openvx.color_convert", 2},
                         Known{VX_KERNEL_NOT, "org.khronos.openvx.not", 2}, Known{VX_KERNEL_ADD, "org.khronos.openvx.add", 4},
                         Known{VX_KERNEL_MEAN_STDDEV, "org.khronos.openvx.mean_stddev", 3}}) {
    vx_kernel kernel = vxGetKernelByEnum(context_, k.e);
    ASSERT_EQ(vxGetStatus(ref(kernel)), VX_SUCCESS) << k.name;
    vx_char name[VX_MAX_KERNEL_NAME] = {};
    vx_uint32 params = 0;
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_NAME, name, sizeof name), VX_SUCCESS);
    EXPECT_STREQ(name, k.name);
    EXPECT_EQ(vxQueryKernel(kernel, VX_KERNEL_PARAMETERS, &params, sizeof params), VX_SUCCESS);
    EXPECT_EQ(params, k.params) << k.name;
    EXPECT_EQ(vxReleaseKernel(&kernel), VX_SUCCESS);
  }
  vx_kernel none = vxGetKernelByName(context_, "org.khronos.openvx.no_such_kernel");
  EXPECT_EQ(vxGetStatus(ref(none)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("no_such_kernel"));
  EXPECT_EQ(vxGetStatus(ref(vxGetKernelByEnum(context_, VX_KERNEL_BASE(VX_ID_USER, 0) + 77))), VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(OpenVx, ImmediateBorderAndPolicy) {
  vx_border_t border{};
  border.mode = VX_BORDER_CONSTANT;
  border.constant_value.U8 = 7;
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_SUCCESS);
  vx_border_t back{};
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_IMMEDIATE_BORDER, &back, sizeof back), VX_SUCCESS);
  EXPECT_EQ(back.mode, VX_BORDER_CONSTANT);
  EXPECT_EQ(back.constant_value.U8, 7);
  border.mode = VX_TYPE_IMAGE;  // not a border mode
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER, &border, sizeof border), VX_ERROR_INVALID_VALUE);
  vx_enum policy = VX_BORDER_POLICY_RETURN_ERROR;
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_IMMEDIATE_BORDER_POLICY, &policy, sizeof policy), VX_SUCCESS);
  vx_uint32 version = 0;
  EXPECT_EQ(vxSetContextAttribute(context_, VX_CONTEXT_VERSION, &version, sizeof version), VX_ERROR_NOT_SUPPORTED);
}

TEST_F(OpenVx, ImmediateModeTargets) {
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_ANY, nullptr), VX_SUCCESS);
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, "Any"), VX_SUCCESS);
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, "cpu0"), VX_SUCCESS);
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, "NPU0"), VX_SUCCESS);
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, "gpu7"), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxSetImmediateModeTarget(context_, VX_TARGET_STRING, nullptr), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxSetImmediateModeTarget(nullptr, VX_TARGET_ANY, nullptr), VX_ERROR_INVALID_REFERENCE);
}

TEST(OpenVxContext, TwoContextsAreIndependentAndReleaseTakesWhatWasLeft) {
  vx_context a = vxCreateContext();
  vx_context b = vxCreateContext();
  ASSERT_NE(a, b);
  vx_graph g = vxCreateGraph(a);
  vx_scalar s = vxCreateScalar(b, VX_TYPE_UINT8, nullptr);
  vx_node n = vxCreateGenericNode(g, vxGetKernelByEnum(b, VX_KERNEL_NOT));  // a kernel of another context
  EXPECT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(n)), VX_ERROR_INVALID_REFERENCE);
  vx_uint32 refs = 0;
  EXPECT_EQ(vxQueryContext(b, VX_CONTEXT_REFERENCES, &refs, sizeof refs), VX_SUCCESS);
  EXPECT_EQ(refs, 1u);  // the scalar (the leaked kernel handle is not counted: kernels never are)
  // Released with objects still held: the context takes them (ASan checks nothing leaks).
  EXPECT_EQ(vxReleaseContext(&a), VX_SUCCESS);
  EXPECT_EQ(vxQueryGraph(g, VX_GRAPH_NUMNODES, &refs, sizeof refs), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseContext(&b), VX_SUCCESS);
  EXPECT_EQ(vxQueryScalar(s, VX_SCALAR_TYPE, &refs, sizeof refs), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseContext(&b), VX_ERROR_INVALID_REFERENCE);
}

TEST(OpenVxContext, RetainedContextLivesUntilTheLastRelease) {
  vx_context c = vxCreateContext();
  ASSERT_EQ(vxRetainReference(reinterpret_cast<vx_reference>(c)), VX_SUCCESS);
  vx_context second = c;
  EXPECT_EQ(vxReleaseContext(&c), VX_SUCCESS);
  EXPECT_EQ(c, nullptr);
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryReference(reinterpret_cast<vx_reference>(second), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 1u);
  vx_reference as_ref = reinterpret_cast<vx_reference>(second);
  EXPECT_EQ(vxReleaseReference(&as_ref), VX_SUCCESS);  // the generic release takes contexts too
  EXPECT_EQ(as_ref, nullptr);
}

// --- references --------------------------------------------------------------------------------------

TEST_F(OpenVx, RetainReleaseAndCounts) {
  vx_graph graph = vxCreateGraph(context_);
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryReference(ref(graph), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 1u);
  vx_uint32 refs = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &refs, sizeof refs), VX_SUCCESS);
  EXPECT_EQ(refs, at_start_.references + 1);
  EXPECT_EQ(vxRetainReference(ref(graph)), VX_SUCCESS);
  EXPECT_EQ(vxQueryReference(ref(graph), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2u);
  vx_graph copy = graph;
  EXPECT_EQ(vxReleaseGraph(&copy), VX_SUCCESS);
  EXPECT_EQ(copy, nullptr);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryReference(ref(graph), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_GRAPH);
  EXPECT_EQ(vxQueryReference(ref(graph), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 1u);
  vx_reference generic = ref(graph);
  EXPECT_EQ(vxReleaseReference(&generic), VX_SUCCESS);
  EXPECT_EQ(generic, nullptr);
  // The handle is gone: every call refuses it rather than reading freed memory.
  EXPECT_EQ(vxQueryReference(ref(graph), VX_REFERENCE_COUNT, &count, sizeof count), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(OpenVx, ReferenceNames) {
  vx_scalar s = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  EXPECT_EQ(vxSetReferenceName(ref(s), "threshold"), VX_SUCCESS);
  vx_char* name = nullptr;
  EXPECT_EQ(vxQueryReference(ref(s), VX_REFERENCE_NAME, &name, sizeof name), VX_SUCCESS);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "threshold");
  const std::string too_long(VX_MAX_REFERENCE_NAME + 20, 'x');
  EXPECT_EQ(vxSetReferenceName(ref(s), too_long.c_str()), VX_SUCCESS);
  EXPECT_EQ(vxQueryReference(ref(s), VX_REFERENCE_NAME, &name, sizeof name), VX_SUCCESS);
  EXPECT_EQ(std::strlen(name), static_cast<std::size_t>(VX_MAX_REFERENCE_NAME - 1));
  EXPECT_EQ(vxSetReferenceName(nullptr, "x"), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
}

TEST_F(OpenVx, ErrorObjects) {
  EXPECT_EQ(vxGetStatus(nullptr), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(vxGetStatus(ref(context_)), VX_SUCCESS);
  vx_scalar bad = vxCreateScalar(context_, VX_TYPE_IMAGE, nullptr);
  EXPECT_EQ(vxGetStatus(ref(bad)), VX_ERROR_INVALID_TYPE);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryReference(ref(bad), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_ERROR);
  // An error object is no scalar, cannot be retained or released, and is not counted.
  EXPECT_EQ(vxQueryScalar(bad, VX_SCALAR_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRetainReference(ref(bad)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&bad), VX_ERROR_INVALID_REFERENCE);
  // One error object per status.
  EXPECT_EQ(ref(vxCreateScalar(context_, VX_TYPE_GRAPH, nullptr)), ref(bad));
  // Not implemented yet: creators answer with an error object, other calls with the status.
  vx_image image = vxCreateImage(context_, 64, 48, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  EXPECT_EQ(vxGetStatus(ref(vxSoftmaxLayer(graph, nullptr, nullptr))), VX_ERROR_NOT_IMPLEMENTED);  // vx_khr_nn
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_INVALID_GRAPH) << "a graph without nodes does not verify";
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
}

// --- logging and directives ----------------------------------------------------------------------------

TEST_F(OpenVx, LogEntriesReachTheCallbackUntilLoggingIsDisabled) {
  vxAddLogEntry(ref(context_), VX_FAILURE, "value %d of %s", 42, "answer");
  ASSERT_EQ(log_lines.size(), 1u);
  EXPECT_EQ(log_lines[0], "value 42 of answer");
  EXPECT_EQ(log_statuses[0], VX_FAILURE);
  EXPECT_EQ(vxDirective(ref(context_), VX_DIRECTIVE_DISABLE_LOGGING), VX_SUCCESS);
  vxAddLogEntry(ref(context_), VX_FAILURE, "dropped");
  EXPECT_EQ(log_lines.size(), 1u);
  EXPECT_EQ(vxDirective(ref(context_), VX_DIRECTIVE_ENABLE_LOGGING), VX_SUCCESS);
  const std::string long_message(3 * VX_MAX_LOG_MESSAGE_LEN, 'y');
  vxAddLogEntry(ref(context_), VX_SUCCESS, "%s", long_message.c_str());
  ASSERT_EQ(log_lines.size(), 2u);
  EXPECT_EQ(log_lines[1].size(), static_cast<std::size_t>(VX_MAX_LOG_MESSAGE_LEN - 1));
  vxAddLogEntry(nullptr, VX_FAILURE, "no reference");  // ignored, no crash
  EXPECT_EQ(log_lines.size(), 2u);
  vxRegisterLogCallback(context_, nullptr, vx_false_e);
  vxAddLogEntry(ref(context_), VX_FAILURE, "no callback");
  EXPECT_EQ(log_lines.size(), 2u);
}

TEST_F(OpenVx, Directives) {
  EXPECT_EQ(vxDirective(ref(context_), VX_DIRECTIVE_DISABLE_PERFORMANCE), VX_SUCCESS);
  EXPECT_EQ(vxDirective(ref(context_), VX_DIRECTIVE_ENABLE_PERFORMANCE), VX_SUCCESS);
  EXPECT_EQ(vxDirective(ref(context_), VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_DIRECTIVE) + 0x40), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxDirective(nullptr, VX_DIRECTIVE_ENABLE_LOGGING), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxHint(ref(context_), VX_HINT_PERFORMANCE_LOW_POWER, nullptr, 0), VX_SUCCESS);
  EXPECT_EQ(vxHint(ref(context_), VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_HINT) + 0x40, nullptr, 0), VX_ERROR_NOT_SUPPORTED);
}

// --- user structs and ids ------------------------------------------------------------------------------

TEST_F(OpenVx, UserStructs) {
  struct Pair {
    vx_int32 a, b;
  };
  const vx_enum first = vxRegisterUserStruct(context_, sizeof(Pair));
  EXPECT_EQ(first, VX_TYPE_USER_STRUCT_START);
  const vx_enum named = vxRegisterUserStructWithName(context_, 12, "my_triple");
  EXPECT_EQ(named, VX_TYPE_USER_STRUCT_START + 1);
  EXPECT_EQ(vxRegisterUserStruct(context_, 0), VX_TYPE_INVALID);
  EXPECT_EQ(vxRegisterUserStructWithName(context_, 4, "my_triple"), VX_TYPE_INVALID);
  vx_char name[VX_MAX_REFERENCE_NAME] = {};
  EXPECT_EQ(vxGetUserStructNameByEnum(context_, named, name, sizeof name), VX_SUCCESS);
  EXPECT_STREQ(name, "my_triple");
  EXPECT_EQ(vxGetUserStructNameByEnum(context_, named, name, 4), VX_ERROR_NO_MEMORY);
  EXPECT_EQ(vxGetUserStructNameByEnum(context_, first, name, sizeof name), VX_ERROR_INVALID_PARAMETERS);  // no name
  // The conformance suite's answers: NULL context, an enum that is no user struct, a NULL name.
  EXPECT_EQ(vxGetUserStructNameByEnum(nullptr, named, name, sizeof name), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetUserStructNameByEnum(context_, VX_TYPE_ERROR, name, sizeof name), VX_FAILURE);
  vx_enum found = 0;
  EXPECT_EQ(vxGetUserStructEnumByName(context_, nullptr, &found), VX_FAILURE);
  EXPECT_EQ(vxGetUserStructEnumByName(context_, "my_triple", &found), VX_SUCCESS);
  EXPECT_EQ(found, named);
  EXPECT_EQ(vxGetUserStructEnumByName(context_, "nope", &found), VX_FAILURE);
  // A scalar holds a user struct of its registered size, copied in and out whole.
  const Pair in{3, -4};
  vx_scalar s = vxCreateScalarWithSize(context_, first, &in, sizeof in);
  ASSERT_EQ(vxGetStatus(ref(s)), VX_SUCCESS);
  Pair out{};
  EXPECT_EQ(vxCopyScalarWithSize(s, sizeof out, &out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(out.a, 3);
  EXPECT_EQ(out.b, -4);
  EXPECT_EQ(vxCopyScalarWithSize(s, sizeof out - 1, &out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateScalarWithSize(context_, first, &in, 3))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
}

TEST_F(OpenVx, UserKernelAndLibraryIds) {
  vx_enum a = 0, b = 0;
  EXPECT_EQ(vxAllocateUserKernelId(context_, &a), VX_SUCCESS);
  EXPECT_EQ(vxAllocateUserKernelId(context_, &b), VX_SUCCESS);
  EXPECT_EQ(a, VX_KERNEL_BASE(VX_ID_USER, 0));
  EXPECT_EQ(b, a + 1);
  EXPECT_EQ(vxAllocateUserKernelId(context_, nullptr), VX_ERROR_INVALID_PARAMETERS);
  vx_enum lib = 0;
  vx_enum last = 0;
  int n = 0;
  while (vxAllocateUserKernelLibraryId(context_, &lib) == VX_SUCCESS) {
    EXPECT_EQ(lib, last + 1);
    last = lib;
    ++n;
  }
  EXPECT_EQ(n, 255);  // library ids fill the 8-bit library field of VX_KERNEL_BASE
  EXPECT_EQ(vxAllocateUserKernelLibraryId(context_, &lib), VX_ERROR_NO_RESOURCES);
}

// --- user kernels --------------------------------------------------------------------------------------

TEST_F(OpenVx, UserKernelLifecycle) {
  vx_kernel k = add_add_one(context_);
  vx_uint32 kernels = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNELS, &kernels, sizeof kernels), VX_SUCCESS);
  EXPECT_EQ(kernels, at_start_.kernels + 1);
  vx_kernel found = vxGetKernelByName(context_, "org.visiongraph.test.add_one_local");
  EXPECT_EQ(found, k);
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryReference(ref(k), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(vxReleaseKernel(&found), VX_SUCCESS);
  vx_size local = 1;
  EXPECT_EQ(vxQueryKernel(k, VX_KERNEL_LOCAL_DATA_SIZE, &local, sizeof local), VX_SUCCESS);
  EXPECT_EQ(local, 0u);
  EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_LOCAL_DATA_SIZE, &local, sizeof local), VX_ERROR_NOT_SUPPORTED);  // finalized
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(vxGetKernelByName(context_, "org.visiongraph.test.add_one_local"))), VX_ERROR_INVALID_PARAMETERS);
  // A standard kernel cannot be removed.
  vx_kernel standard = vxGetKernelByEnum(context_, VX_KERNEL_ADD);
  EXPECT_EQ(vxRemoveKernel(standard), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxReleaseKernel(&standard), VX_SUCCESS);
}

// The conformance suite's streaming kernels have no validate callback and use enums of standard kernels
// (VX_KERNEL_BASE(VX_ID_DEFAULT, 0) + n): both are accepted, and the standard kernel keeps its enum.
TEST_F(OpenVx, UserKernelWithoutValidateAndAStandardEnumRuns) {
  vx_kernel k = vxAddUserKernel(context_, "x.no_validate", VX_KERNEL_ADD, add_one, 1, nullptr, nullptr, nullptr);
  ASSERT_EQ(vxGetStatus(ref(k)), VX_SUCCESS);
  ASSERT_EQ(vxAddParameterToKernel(k, 0, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  vx_kernel by_enum = vxGetKernelByEnum(context_, VX_KERNEL_ADD);
  vx_char name[VX_MAX_KERNEL_NAME] = {};
  EXPECT_EQ(vxQueryKernel(by_enum, VX_KERNEL_NAME, name, sizeof name), VX_SUCCESS);
  EXPECT_STREQ(name, "org.khronos.openvx.add");
  EXPECT_EQ(vxReleaseKernel(&by_enum), VX_SUCCESS);
  vx_graph g = vxCreateGraph(context_);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  vx_node node = vxCreateGenericNode(g, k);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(out)), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(g), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
}

// VX_CONTEXT_REFERENCES does not count kernels: the suite's leak check runs after tests that keep one.
TEST_F(OpenVx, AKernelHandleIsNotACountedReference) {
  vx_uint32 before = 0, after = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &before, sizeof before), VX_SUCCESS);
  vx_kernel k = vxGetKernelByEnum(context_, VX_KERNEL_NOT);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &after, sizeof after), VX_SUCCESS);
  EXPECT_EQ(after, before);
  EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
}

TEST_F(OpenVx, UserKernelDeclarationErrors) {
  vx_enum id = 0;
  ASSERT_EQ(vxAllocateUserKernelId(context_, &id), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(vxAddUserKernel(context_, "x.no_function", id, nullptr, 1, validate_add_one, nullptr, nullptr))),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxAddUserKernel(context_, "", id, add_one, 1, validate_add_one, nullptr, nullptr))),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxAddUserKernel(context_, "org.khronos.openvx.add", id, add_one, 1, validate_add_one, nullptr, nullptr))),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("a kernel of that name exists"));
  // Two user kernels may not share an enum (a standard kernel's enum may be reused: UserKernelWithoutValidate).
  vx_kernel first = vxAddUserKernel(context_, "x.first_of_enum", id, add_one, 1, validate_add_one, nullptr, nullptr);
  ASSERT_EQ(vxGetStatus(ref(first)), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(vxAddUserKernel(context_, "x.same_enum", id, add_one, 1, validate_add_one, nullptr, nullptr))),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("a kernel with that enum exists"));
  EXPECT_EQ(vxRemoveKernel(first), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(nullptr, 0, VX_INPUT, VX_TYPE_IMAGE, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAddUserKernel(nullptr, "x.y", id, add_one, 1, validate_add_one, nullptr, nullptr), nullptr);

  vx_kernel k = vxAddUserKernel(context_, "x.partial", id, add_one, 3, validate_add_one, nullptr, nullptr);
  ASSERT_EQ(vxGetStatus(ref(k)), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(k, 3, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_BIDIRECTIONAL, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_UINT8, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_IMAGE, 12345), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_OUTPUT, VX_TYPE_DELAY, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_IMAGE, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(k, 2, VX_OUTPUT, VX_TYPE_REFERENCE, VX_PARAMETER_STATE_OPTIONAL), VX_SUCCESS);
  const vx_size local = 64;
  EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_LOCAL_DATA_SIZE, &local, sizeof local), VX_SUCCESS);
  EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_LOCAL_DATA_SIZE, &local, 2), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxFinalizeKernel(k), VX_ERROR_INVALID_PARAMETERS);  // parameter 1 missing
  EXPECT_TRUE(logged("parameter 1 was never added"));
  // Not finalized: not found, not counted, no node.
  EXPECT_EQ(vxGetStatus(ref(vxGetKernelByName(context_, "x.partial"))), VX_ERROR_INVALID_PARAMETERS);
  vx_graph g = vxCreateGraph(context_);
  EXPECT_EQ(vxGetStatus(ref(vxCreateGenericNode(g, k))), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_ARRAY, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  vx_size back = 0;
  EXPECT_EQ(vxQueryKernel(k, VX_KERNEL_LOCAL_DATA_SIZE, &back, sizeof back), VX_SUCCESS);
  EXPECT_EQ(back, local);
  EXPECT_EQ(vxFinalizeKernel(k), VX_ERROR_INVALID_PARAMETERS);  // once
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
}

TEST_F(OpenVx, KernelStaysWhileANodeUsesItAfterRemoval) {
  vx_kernel k = add_add_one(context_);
  vx_graph g = vxCreateGraph(context_);
  vx_node n = vxCreateGenericNode(g, k);
  ASSERT_EQ(vxGetStatus(ref(n)), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
  vx_uint32 params = 0;
  EXPECT_EQ(vxQueryNode(n, VX_NODE_PARAMETERS, &params, sizeof params), VX_SUCCESS);
  EXPECT_EQ(params, 2u);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
}

// --- modules -------------------------------------------------------------------------------------------

using ModuleCounter = int (*)();

ModuleCounter module_counter(const char* symbol) {
  // The same library libopenvx loaded: dlopen returns the loaded copy, so its counters are the module's.
  void* handle = dlopen(VG_OPENVX_TEST_MODULE, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  auto f = reinterpret_cast<ModuleCounter>(dlsym(handle, symbol));
  dlclose(handle);
  return f;
}

TEST_F(OpenVx, ModuleLoadPublishesAndUnloadUnpublishes) {
  ASSERT_EQ(vxLoadKernels(context_, VG_OPENVX_TEST_MODULE), VX_SUCCESS);
  vx_uint32 modules = 0, kernels = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_MODULES, &modules, sizeof modules), VX_SUCCESS);
  EXPECT_EQ(modules, at_start_.modules + 1);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNELS, &kernels, sizeof kernels), VX_SUCCESS);
  EXPECT_EQ(kernels, at_start_.kernels + 1);
  // Keep the library mapped past vxUnloadKernels's dlclose so its counters can still be read.
  void* keep = dlopen(VG_OPENVX_TEST_MODULE, RTLD_NOW);
  ASSERT_NE(keep, nullptr);
  ModuleCounter published = module_counter("vg_test_module_published");
  ModuleCounter unpublished = module_counter("vg_test_module_unpublished");
  ASSERT_NE(published, nullptr);
  ASSERT_NE(unpublished, nullptr);
  EXPECT_EQ(published(), 1);
  const int unpublished_before = unpublished();
  // A graph with the module's kernel verifies.
  vx_kernel k = vxGetKernelByName(context_, "org.visiongraph.test.add_one");
  ASSERT_EQ(vxGetStatus(ref(k)), VX_SUCCESS);
  vx_graph g = vxCreateGraph(context_);
  const vx_int32 one = 1;
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  vx_scalar out = vxCreateVirtualScalar(g, VX_TYPE_INVALID);
  vx_node n = vxCreateGenericNode(g, k);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  for (vx_reference r : {ref(n), ref(in), ref(out), ref(g), ref(k)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  // Loading twice is one module.
  EXPECT_EQ(vxLoadKernels(context_, VG_OPENVX_TEST_MODULE), VX_SUCCESS);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_MODULES, &modules, sizeof modules), VX_SUCCESS);
  EXPECT_EQ(modules, at_start_.modules + 1);
  EXPECT_EQ(vxUnloadKernels(context_, VG_OPENVX_TEST_MODULE), VX_SUCCESS);
  EXPECT_EQ(unpublished(), unpublished_before + 1);
  EXPECT_EQ(vxUnloadKernels(context_, VG_OPENVX_TEST_MODULE), VX_ERROR_INVALID_PARAMETERS);
  dlclose(keep);
}

// A kernel library linked into the application, registered by name (vxRegisterKernelLibrary).
int linked_published = 0, linked_unpublished = 0;
vx_status linked_publish_result = VX_SUCCESS;
vx_status VX_CALLBACK linked_kernel(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }
vx_status VX_CALLBACK linked_validate(vx_node, const vx_reference[], vx_uint32, vx_meta_format[]) { return VX_SUCCESS; }
vx_status VX_CALLBACK publish_linked(vx_context context) {
  ++linked_published;
  if (linked_publish_result != VX_SUCCESS) return linked_publish_result;
  vx_enum id = 0;
  if (vxAllocateUserKernelId(context, &id) != VX_SUCCESS) return VX_FAILURE;
  vx_kernel k = vxAddUserKernel(context, "org.visiongraph.test.linked", id, linked_kernel, 1, linked_validate, nullptr, nullptr);
  vx_status s = vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  if (s == VX_SUCCESS) s = vxFinalizeKernel(k);
  if (vxReleaseKernel(&k) != VX_SUCCESS) s = VX_FAILURE;  // the context's table keeps it
  return s;
}
vx_status VX_CALLBACK unpublish_linked(vx_context context) {
  ++linked_unpublished;
  vx_kernel k = vxGetKernelByName(context, "org.visiongraph.test.linked");
  return vxRemoveKernel(k);
}

TEST_F(OpenVx, ARegisteredKernelLibraryLoadsAndUnloadsWithoutASharedLibrary) {
  linked_published = linked_unpublished = 0;
  linked_publish_result = VX_SUCCESS;
  EXPECT_EQ(vxRegisterKernelLibrary(nullptr, "linked", publish_linked, unpublish_linked), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterKernelLibrary(context_, nullptr, publish_linked, unpublish_linked), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxRegisterKernelLibrary(context_, "linked", nullptr, unpublish_linked), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxLoadKernels(context_, "linked"), VX_ERROR_INVALID_PARAMETERS) << "no liblinked.so before registering";
  ASSERT_EQ(vxRegisterKernelLibrary(context_, "linked", publish_linked, unpublish_linked), VX_SUCCESS);
  ASSERT_EQ(vxLoadKernels(context_, "linked"), VX_SUCCESS);
  EXPECT_EQ(linked_published, 1);
  vx_uint32 modules = 0, kernels = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_MODULES, &modules, sizeof modules), VX_SUCCESS);
  EXPECT_EQ(modules, at_start_.modules + 1);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_UNIQUE_KERNELS, &kernels, sizeof kernels), VX_SUCCESS);
  EXPECT_EQ(kernels, at_start_.kernels + 1);
  EXPECT_EQ(vxLoadKernels(context_, "linked"), VX_SUCCESS) << "loaded once per context";
  EXPECT_EQ(linked_published, 1);
  EXPECT_EQ(vxUnloadKernels(context_, "linked"), VX_SUCCESS);
  EXPECT_EQ(linked_unpublished, 1);
  vx_kernel gone = vxGetKernelByName(context_, "org.visiongraph.test.linked");
  EXPECT_NE(vxGetStatus(ref(gone)), VX_SUCCESS);
  // A publish function that fails: nothing stays loaded, and the next load tries again.
  linked_publish_result = VX_ERROR_NO_RESOURCES;
  EXPECT_EQ(vxLoadKernels(context_, "linked"), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_MODULES, &modules, sizeof modules), VX_SUCCESS);
  EXPECT_EQ(modules, at_start_.modules);
  linked_publish_result = VX_SUCCESS;
  EXPECT_EQ(vxLoadKernels(context_, "linked"), VX_SUCCESS);
  EXPECT_EQ(vxUnloadKernels(context_, "linked"), VX_SUCCESS);  // (vxReleaseContext would unload it too)
}

TEST_F(OpenVx, ModuleByBareNameResolvesAsLibNameDotSo) {
  // LD_LIBRARY_PATH (set by the test registration) holds the module's folder.
  ASSERT_EQ(vxLoadKernels(context_, "vg_openvx_test_module"), VX_SUCCESS);
  EXPECT_EQ(vxUnloadKernels(context_, "vg_openvx_test_module"), VX_SUCCESS);
}

TEST_F(OpenVx, ModuleErrorsNameTheModule) {
  EXPECT_EQ(vxLoadKernels(context_, "no_such_module_here"), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("no_such_module_here")) << (log_lines.empty() ? "" : log_lines.back());
  EXPECT_TRUE(logged("libno_such_module_here.so"));
  EXPECT_EQ(vxLoadKernels(context_, VG_OPENVX_NOT_A_MODULE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_TRUE(logged("exports no vxPublishKernels"));
  EXPECT_EQ(vxLoadKernels(context_, nullptr), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxLoadKernels(nullptr, VG_OPENVX_TEST_MODULE), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxUnloadKernels(context_, "never_loaded"), VX_ERROR_INVALID_PARAMETERS);
}

TEST(OpenVxModules, ReleasingTheContextUnpublishesItsModules) {
  vx_context c = vxCreateContext();
  ASSERT_EQ(vxLoadKernels(c, VG_OPENVX_TEST_MODULE), VX_SUCCESS);
  ModuleCounter unpublished = module_counter("vg_test_module_unpublished");
  ASSERT_NE(unpublished, nullptr);
  const int before = unpublished();
  // Keep the library mapped past the context's dlclose so the counter can be read.
  void* keep = dlopen(VG_OPENVX_TEST_MODULE, RTLD_NOW);
  EXPECT_EQ(vxReleaseContext(&c), VX_SUCCESS);
  EXPECT_EQ(unpublished(), before + 1);
  dlclose(keep);
}

// --- graphs, nodes, parameters -------------------------------------------------------------------------

class OpenVxGraph : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    kernel_ = add_add_one(context_);
    graph_ = vxCreateGraph(context_);
    const vx_int32 one = 1;
    in_ = vxCreateScalar(context_, VX_TYPE_INT32, &one);
    out_ = vxCreateVirtualScalar(graph_, VX_TYPE_INVALID);
    node_ = vxCreateGenericNode(graph_, kernel_);
    validate_calls = 0;
    validate_output_type = VX_TYPE_INT32;
  }
  void TearDown() override {
    for (vx_reference r : {ref(node_), ref(in_), ref(out_), ref(graph_)}) {
      if (r != nullptr) {
        EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
      }
    }
    EXPECT_EQ(vxRemoveKernel(kernel_), VX_SUCCESS);
    OpenVx::TearDown();
  }
  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_scalar in_ = nullptr, out_ = nullptr;
  vx_node node_ = nullptr;
};

TEST_F(OpenVxGraph, VerifyRunsValidateAndTypesTheVirtualOutput) {
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node_, 1, ref(out_)), VX_SUCCESS);
  vx_enum state = 0;
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_STATE, &state, sizeof state), VX_SUCCESS);
  EXPECT_EQ(state, VX_GRAPH_STATE_UNVERIFIED);
  EXPECT_EQ(vxIsGraphVerified(graph_), vx_false_e);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  EXPECT_EQ(validate_calls, 1);
  EXPECT_EQ(vxIsGraphVerified(graph_), vx_true_e);
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_STATE, &state, sizeof state), VX_SUCCESS);
  EXPECT_EQ(state, VX_GRAPH_STATE_VERIFIED);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryScalar(out_, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT32);
  // Any change needs verification again.
  vx_border_t border{};
  border.mode = VX_BORDER_REPLICATE;
  EXPECT_EQ(vxSetNodeAttribute(node_, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
  EXPECT_EQ(vxIsGraphVerified(graph_), vx_false_e);
}

TEST_F(OpenVxGraph, VerifyNamesWhatIsWrong) {
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_NOT_SUFFICIENT);
  EXPECT_TRUE(logged("no value for required parameter 1")) << log_lines.back();
  vx_status node_status = VX_SUCCESS;
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_STATUS, &node_status, sizeof node_status), VX_SUCCESS);
  EXPECT_EQ(node_status, VX_ERROR_NOT_SUFFICIENT);

  // Validate refuses the input type.
  vx_scalar f = vxCreateScalar(context_, VX_TYPE_FLOAT32, nullptr);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(f)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node_, 1, ref(out_)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("validate callback returned"));
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(in_)), VX_SUCCESS);

  // A non-virtual output of another type than validate's.
  vx_scalar u8 = vxCreateScalar(context_, VX_TYPE_UINT8, nullptr);
  EXPECT_EQ(vxSetParameterByIndex(node_, 1, ref(u8)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("validate says"));

  // Two writers of one object.
  vx_node second = vxCreateGenericNode(graph_, kernel_);
  EXPECT_EQ(vxSetParameterByIndex(node_, 1, ref(out_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 0, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 1, ref(out_)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_MULTIPLE_WRITERS);

  // A cycle: node_ reads what second writes and second reads what node_ writes.
  vx_scalar loop = vxCreateVirtualScalar(graph_, VX_TYPE_INVALID);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(loop)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 0, ref(out_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(second, 1, ref(loop)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_ERROR_INVALID_GRAPH);
  EXPECT_TRUE(logged("cycle"));

  // Removing the second node leaves a valid graph.
  EXPECT_EQ(vxRemoveNode(&second), VX_SUCCESS);
  EXPECT_EQ(second, nullptr);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (vx_reference r : {ref(f), ref(u8), ref(loop)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVxGraph, StandardKernelNodesByEnumAreWiredByIndex) {
  vx_graph g = vxCreateGraph(context_);
  vx_kernel not_kernel = vxGetKernelByEnum(context_, VX_KERNEL_NOT);
  vx_node not_node = vxCreateGenericNode(g, not_kernel);
  ASSERT_EQ(vxGetStatus(ref(not_node)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(not_node, 0, ref(in_)), VX_ERROR_INVALID_TYPE);  // Not takes images
  EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_NOT_SUFFICIENT);
  EXPECT_EQ(vxRemoveNode(&not_node), VX_SUCCESS);
  // Scalar operation takes only scalars: a generic node of it by enum verifies and runs (1 + 1).
  vx_kernel op_kernel = vxGetKernelByEnum(context_, VX_KERNEL_SCALAR_OPERATION);
  vx_node op = vxCreateGenericNode(g, op_kernel);
  const vx_enum add = VX_SCALAR_OP_ADD;
  vx_scalar operation = vxCreateScalar(context_, VX_TYPE_ENUM, &add);
  vx_scalar result = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  EXPECT_EQ(vxSetParameterByIndex(op, 0, ref(operation)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(op, 1, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(op, 2, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(op, 3, ref(result)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(g), VX_SUCCESS);
  vx_int32 sum = 0;
  EXPECT_EQ(vxCopyScalar(result, &sum, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(sum, 2);
  for (vx_reference r : {ref(op), ref(operation), ref(result), ref(op_kernel), ref(not_kernel), ref(g)}) {
    EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  }
}

TEST_F(OpenVxGraph, EmptyGraphDoesNotVerify) {
  vx_graph g = vxCreateGraph(context_);
  EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_GRAPH);
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
}

TEST_F(OpenVxGraph, ParametersCheckTypeIndexAndContext) {
  EXPECT_EQ(vxSetParameterByIndex(node_, 2, ref(in_)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(graph_)), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, nullptr), VX_ERROR_INVALID_REFERENCE);
  vx_context other = vxCreateContext();
  vx_scalar foreign = vxCreateScalar(other, VX_TYPE_INT32, nullptr);
  EXPECT_EQ(vxSetParameterByIndex(node_, 0, ref(foreign)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseContext(&other), VX_SUCCESS);

  vx_parameter p = vxGetParameterByIndex(node_, 0);
  ASSERT_EQ(vxGetStatus(ref(p)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByReference(p, ref(in_)), VX_SUCCESS);
  vx_reference bound = nullptr;
  EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_REF, &bound, sizeof bound), VX_SUCCESS);
  EXPECT_EQ(bound, ref(in_));
  EXPECT_EQ(vxReleaseReference(&bound), VX_SUCCESS);  // the query handed out a handle
  vx_uint32 index = 9;
  EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_INDEX, &index, sizeof index), VX_SUCCESS);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(vxGetStatus(ref(vxGetParameterByIndex(node_, 5))), VX_ERROR_INVALID_PARAMETERS);

  // Graph parameters.
  EXPECT_EQ(vxAddParameterToGraph(graph_, p), VX_SUCCESS);
  vx_parameter q = vxGetParameterByIndex(node_, 1);
  EXPECT_EQ(vxAddParameterToGraph(graph_, q), VX_SUCCESS);
  vx_uint32 n = 0;
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_NUMPARAMETERS, &n, sizeof n), VX_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 1, ref(out_)), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph_, 2, ref(out_)), VX_ERROR_INVALID_VALUE);
  vx_parameter gp = vxGetGraphParameterByIndex(graph_, 1);
  EXPECT_EQ(vxQueryParameter(gp, VX_PARAMETER_INDEX, &index, sizeof index), VX_SUCCESS);
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(vxGetStatus(ref(vxGetGraphParameterByIndex(graph_, 7))), VX_ERROR_INVALID_PARAMETERS);
  vx_graph other_graph = vxCreateGraph(context_);
  EXPECT_EQ(vxAddParameterToGraph(other_graph, p), VX_ERROR_INVALID_PARAMETERS);  // not its node
  vx_parameter kp = vxGetKernelParameterByIndex(kernel_, 0);
  EXPECT_EQ(vxAddParameterToGraph(graph_, kp), VX_ERROR_INVALID_PARAMETERS);  // no node
  EXPECT_EQ(vxSetParameterByReference(kp, ref(in_)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxVerifyGraph(graph_), VX_SUCCESS);
  for (vx_reference r : {ref(p), ref(q), ref(gp), ref(kp), ref(other_graph)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

TEST_F(OpenVxGraph, NodeAttributesCallbacksAndTargets) {
  vx_uint32 n = 0;
  EXPECT_EQ(vxQueryGraph(graph_, VX_GRAPH_NUMNODES, &n, sizeof n), VX_SUCCESS);
  EXPECT_EQ(n, 1u);
  vx_border_t border{};
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_BORDER, &border, sizeof border), VX_SUCCESS);
  EXPECT_EQ(border.mode, VX_BORDER_UNDEFINED);
  vx_bool flags[2] = {vx_true_e, vx_true_e};
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_REPLICATE_FLAGS, flags, sizeof flags), VX_SUCCESS);
  EXPECT_EQ(flags[1], vx_false_e);
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_REPLICATE_FLAGS, flags, sizeof flags[0]), VX_ERROR_INVALID_PARAMETERS);
  vx_perf_t perf{};
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_PERFORMANCE, &perf, sizeof perf), VX_SUCCESS);
  EXPECT_EQ(perf.num, 0u);
  vx_enum node_state = -1;
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_STATE, &node_state, sizeof node_state), VX_SUCCESS);
  EXPECT_EQ(node_state, VX_NODE_STATE_STEADY);
  const vx_size local = 32;
  EXPECT_EQ(vxSetNodeAttribute(node_, VX_NODE_LOCAL_DATA_SIZE, &local, sizeof local), VX_SUCCESS);
  vx_size back = 0;
  EXPECT_EQ(vxQueryNode(node_, VX_NODE_LOCAL_DATA_SIZE, &back, sizeof back), VX_SUCCESS);
  EXPECT_EQ(back, local);

  auto callback = [](vx_node) -> vx_action { return VX_ACTION_CONTINUE; };
  vx_nodecomplete_f f = callback;
  EXPECT_EQ(vxAssignNodeCallback(node_, f), VX_SUCCESS);
  EXPECT_EQ(vxRetrieveNodeCallback(node_), f);
  EXPECT_EQ(vxAssignNodeCallback(node_, f), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxAssignNodeCallback(node_, nullptr), VX_SUCCESS);
  EXPECT_EQ(vxRetrieveNodeCallback(node_), nullptr);

  EXPECT_EQ(vxSetNodeTarget(node_, VX_TARGET_ANY, nullptr), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(node_, VX_TARGET_STRING, "aNy"), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(node_, VX_TARGET_STRING, "cpu1"), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeTarget(node_, VX_TARGET_STRING, "dsp0"), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxSetNodeTarget(node_, VX_TARGET_VENDOR_BEGIN, nullptr), VX_ERROR_NOT_SUPPORTED);
}

TEST_F(OpenVxGraph, NodeOutlivesItsGraphDetached) {
  vx_graph g = vxCreateGraph(context_);
  vx_node n = vxCreateGenericNode(g, kernel_);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  vx_uint32 params = 0;
  EXPECT_EQ(vxQueryNode(n, VX_NODE_PARAMETERS, &params, sizeof params), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(in_)), VX_SUCCESS);
  EXPECT_EQ(vxRemoveNode(&n), VX_SUCCESS);  // no graph left to remove it from: just released
  EXPECT_EQ(n, nullptr);
}

// --- scalars and meta formats --------------------------------------------------------------------------

TEST_F(OpenVx, ScalarsOfEveryPlainType) {
  struct Case {
    vx_enum type;
    vx_size size;
  };
  for (const Case& c : {Case{VX_TYPE_CHAR, 1}, Case{VX_TYPE_INT8, 1}, Case{VX_TYPE_UINT8, 1}, Case{VX_TYPE_INT16, 2},
                        Case{VX_TYPE_UINT16, 2}, Case{VX_TYPE_INT32, 4}, Case{VX_TYPE_UINT32, 4}, Case{VX_TYPE_INT64, 8},
                        Case{VX_TYPE_UINT64, 8}, Case{VX_TYPE_FLOAT32, 4}, Case{VX_TYPE_FLOAT64, 8}, Case{VX_TYPE_ENUM, 4},
                        Case{VX_TYPE_SIZE, sizeof(vx_size)}, Case{VX_TYPE_DF_IMAGE, 4}, Case{VX_TYPE_BOOL, sizeof(vx_bool)}}) {
    unsigned char in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    vx_scalar s = vxCreateScalar(context_, c.type, in);
    ASSERT_EQ(vxGetStatus(ref(s)), VX_SUCCESS) << c.type;
    vx_enum type = 0;
    EXPECT_EQ(vxQueryScalar(s, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
    EXPECT_EQ(type, c.type);
    unsigned char out[8] = {};
    EXPECT_EQ(vxCopyScalarWithSize(s, c.size, out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS) << c.type;
    EXPECT_EQ(std::memcmp(in, out, c.size), 0) << c.type;
    EXPECT_EQ(vxCopyScalar(s, out, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxCopyScalar(s, out, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxCopyScalar(s, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
  vx_int32 v = 5;
  vx_scalar s = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  EXPECT_EQ(vxCopyScalar(s, &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  v = 0;
  EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(v, 5);
  EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateScalar(context_, VX_TYPE_RECTANGLE, nullptr))), VX_ERROR_INVALID_TYPE);
  vx_rectangle_t rect{1, 2, 3, 4};
  vx_scalar r = vxCreateScalarWithSize(context_, VX_TYPE_RECTANGLE, &rect, sizeof rect);
  EXPECT_EQ(vxGetStatus(ref(r)), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&r), VX_SUCCESS);
}

vx_status VX_CALLBACK validate_with_meta_checks(vx_node, const vx_reference parameters[], vx_uint32, vx_meta_format metas[]) {
  // Attributes of another object type, wrong sizes and NULL are refused; an exemplar sets the type.
  const vx_uint32 width = 8;
  if (vxSetMetaFormatAttribute(metas[1], VX_IMAGE_WIDTH, &width, sizeof width) != VX_ERROR_INVALID_TYPE) return VX_FAILURE;
  const vx_enum type = VX_TYPE_INT32;
  if (vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, 2) != VX_ERROR_INVALID_PARAMETERS) return VX_FAILURE;
  if (vxSetMetaFormatAttribute(nullptr, VX_SCALAR_TYPE, &type, sizeof type) != VX_ERROR_INVALID_REFERENCE) return VX_FAILURE;
  if (vxSetMetaFormatAttribute(metas[1], VX_VALID_RECT_CALLBACK, &type, sizeof(void*)) != VX_ERROR_INVALID_TYPE) return VX_FAILURE;
  if (vxSetMetaFormatFromReference(metas[1], nullptr) != VX_ERROR_INVALID_REFERENCE) return VX_FAILURE;
  return vxSetMetaFormatFromReference(metas[1], parameters[0]);
}

TEST_F(OpenVx, MetaFormatFromAnExemplar) {
  vx_kernel k = add_user_kernel(context_, "x.copy_scalar", add_one, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}},
                                validate_with_meta_checks);
  vx_graph g = vxCreateGraph(context_);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_UINT16, nullptr);
  vx_scalar out = vxCreateVirtualScalar(g, VX_TYPE_INVALID);
  vx_node n = vxCreateGenericNode(g, k);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  vx_enum type = 0;
  EXPECT_EQ(vxQueryScalar(out, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_UINT16);
  for (vx_reference r : {ref(n), ref(in), ref(out), ref(g)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
}

// --- NULL and wrong handle types everywhere ------------------------------------------------------------

TEST_F(OpenVx, NullAndWrongTypesAreInvalidReferences) {
  vx_graph graph = vxCreateGraph(context_);
  vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
  auto* as_graph = reinterpret_cast<vx_graph>(scalar);
  auto* as_node = reinterpret_cast<vx_node>(graph);
  auto* as_kernel = reinterpret_cast<vx_kernel>(graph);
  auto* as_scalar = reinterpret_cast<vx_scalar>(graph);
  auto* as_parameter = reinterpret_cast<vx_parameter>(graph);
  auto* as_context = reinterpret_cast<vx_context>(graph);
  auto* as_meta = reinterpret_cast<vx_meta_format>(graph);
  vx_uint32 u = 0;
  for (vx_graph g : {static_cast<vx_graph>(nullptr), as_graph}) {
    EXPECT_EQ(vxQueryGraph(g, VX_GRAPH_NUMNODES, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetGraphAttribute(g, VX_GRAPH_NUMNODES, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxIsGraphVerified(g), vx_false_e);
    EXPECT_EQ(vxAddParameterToGraph(g, nullptr), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetGraphParameterByIndex(g, 0, nullptr), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxGetGraphParameterByIndex(g, 0), nullptr);
    EXPECT_EQ(vxCreateGenericNode(g, nullptr), nullptr);
    EXPECT_EQ(vxCreateVirtualScalar(g, VX_TYPE_INT32), nullptr);
    vx_graph copy = g;
    EXPECT_EQ(vxReleaseGraph(&copy), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxReleaseGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  for (vx_node n : {static_cast<vx_node>(nullptr), as_node}) {
    EXPECT_EQ(vxQueryNode(n, VX_NODE_PARAMETERS, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_BORDER, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(scalar)), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxGetParameterByIndex(n, 0), nullptr);
    EXPECT_EQ(vxAssignNodeCallback(n, nullptr), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxRetrieveNodeCallback(n), nullptr);
    EXPECT_EQ(vxSetNodeTarget(n, VX_TARGET_ANY, nullptr), VX_ERROR_INVALID_REFERENCE);
    vx_node copy = n;
    EXPECT_EQ(vxReleaseNode(&copy), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxRemoveNode(&copy), VX_ERROR_INVALID_REFERENCE);
  }
  for (vx_kernel k : {static_cast<vx_kernel>(nullptr), as_kernel}) {
    EXPECT_EQ(vxQueryKernel(k, VX_KERNEL_PARAMETERS, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxSetKernelAttribute(k, VX_KERNEL_LOCAL_DATA_SIZE, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxFinalizeKernel(k), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxRemoveKernel(k), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxGetKernelParameterByIndex(k, 0), nullptr);
    vx_kernel copy = k;
    EXPECT_EQ(vxReleaseKernel(&copy), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxQueryScalar(as_scalar, VX_SCALAR_TYPE, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCopyScalar(nullptr, &u, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryParameter(as_parameter, VX_PARAMETER_INDEX, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetParameterByReference(as_parameter, ref(scalar)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryContext(as_context, VX_CONTEXT_VERSION, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetContextAttribute(nullptr, VX_CONTEXT_IMMEDIATE_BORDER, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCreateGraph(as_context), nullptr);
  EXPECT_EQ(vxCreateScalar(nullptr, VX_TYPE_INT32, nullptr), nullptr);
  EXPECT_EQ(vxGetKernelByName(as_context, "org.khronos.openvx.add"), nullptr);
  EXPECT_EQ(vxGetKernelByEnum(nullptr, VX_KERNEL_ADD), nullptr);
  EXPECT_EQ(vxQueryReference(nullptr, VX_REFERENCE_COUNT, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRetainReference(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseReference(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetContext(nullptr), nullptr);
  EXPECT_EQ(vxGetContext(ref(graph)), context_);
  EXPECT_EQ(vxSetMetaFormatAttribute(as_meta, VX_SCALAR_TYPE, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryMetaFormatAttribute(as_meta, VX_SCALAR_TYPE, &u, sizeof u), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetMetaFormatFromReference(as_meta, ref(scalar)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterUserStruct(nullptr, 4), VX_TYPE_INVALID);
  EXPECT_EQ(vxAllocateUserKernelId(as_context, nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxDirective(nullptr, VX_DIRECTIVE_ENABLE_LOGGING), VX_ERROR_INVALID_REFERENCE);
  for (vx_reference r : {ref(graph), ref(scalar)}) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

}  // namespace

namespace {
// vxSetParameterByIndex with NULL unsets an optional parameter and is refused for a required one (the
// conformance suite's SmokeTest.vxSetParameterByIndex, on Sobel3x3 whose two outputs are optional).
TEST_F(OpenVx, NullUnsetsAnOptionalParameterOnly) {
  vx_graph graph = vxCreateGraph(context_);
  vx_image in = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_image dx = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_S16);
  vx_image dy = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_S16);
  vx_node node = vxSobel3x3Node(graph, in, dx, dy);
  ASSERT_EQ(vxGetStatus(ref(node)), VX_SUCCESS);
  EXPECT_NE(vxSetParameterByIndex(node, 0, nullptr), VX_SUCCESS) << "the input is required";
  EXPECT_EQ(vxSetParameterByIndex(node, 1, nullptr), VX_SUCCESS);
  vx_parameter p = vxGetParameterByIndex(node, 1);
  vx_reference now = reinterpret_cast<vx_reference>(1);
  EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_REF, &now, sizeof now), VX_SUCCESS);
  EXPECT_EQ(now, nullptr);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << "one output is enough";
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  for (vx_image* image : {&in, &dx, &dy}) EXPECT_EQ(vxReleaseImage(image), VX_SUCCESS);
}
}  // namespace

namespace {
// A handle is never reused: after a release, no later object has the same handle, so a stale handle is
// refused instead of reaching the newer object (with a plain allocator the next image got the freed
// address, and a stale vxuNot succeeded on it).
TEST_F(OpenVx, AReleasedHandleNeverNamesALaterObject) {
  std::set<const void*> seen;
  vx_image stale = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  seen.insert(stale);
  vx_image kept = stale;
  ASSERT_EQ(vxReleaseImage(&kept), VX_SUCCESS);
  for (int i = 0; i < 2000; ++i) {
    vx_image image = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
    ASSERT_EQ(vxGetStatus(ref(image)), VX_SUCCESS);
    EXPECT_TRUE(seen.insert(image).second) << "handle reused at creation " << i;
    vx_scalar scalar = vxCreateScalar(context_, VX_TYPE_INT32, nullptr);
    EXPECT_TRUE(seen.insert(scalar).second) << "handle reused at creation " << i;
    EXPECT_EQ(vxReleaseScalar(&scalar), VX_SUCCESS);
    if (i + 1 < 2000) EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
    else kept = image;
  }
  vx_df_image format = 0;
  EXPECT_EQ(vxQueryImage(stale, VX_IMAGE_FORMAT, &format, sizeof format), VX_ERROR_INVALID_REFERENCE);
  vx_image out = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  EXPECT_EQ(vxuNot(context_, stale, out), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxuNot(context_, kept, out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&kept), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  // A released context is not confused with a new one either.
  vx_context gone = vxCreateContext();
  vx_context copy = gone;
  ASSERT_EQ(vxReleaseContext(&gone), VX_SUCCESS);
  vx_context fresh = vxCreateContext();
  EXPECT_NE(fresh, copy);
  EXPECT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(vxCreateGraph(copy))), VX_ERROR_NO_RESOURCES) << "NULL: no context";
  EXPECT_EQ(vxReleaseContext(&fresh), VX_SUCCESS);
}
}  // namespace

namespace {
// Releasing a graph releases its nodes: a node handle the application kept no longer counts in
// VX_CONTEXT_REFERENCES (the conformance suite's vxNot.Sizes never releases its node), yet stays usable.
TEST_F(OpenVx, ANodeKeptPastItsGraphIsNotCounted) {
  vx_uint32 before = 0, with_graph = 0, after = 0;
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &before, sizeof before), VX_SUCCESS);
  vx_image in = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8), out = vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxNotNode(graph, in, out);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &with_graph, sizeof with_graph), VX_SUCCESS);
  EXPECT_EQ(with_graph, before + 4);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&out), VX_SUCCESS);
  ASSERT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &after, sizeof after), VX_SUCCESS);
  EXPECT_EQ(after, before);
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryNode(node, VX_NODE_PARAMETERS, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
}
}  // namespace
