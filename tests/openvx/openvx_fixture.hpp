#pragma once
// The fixture every OpenVX test runs in: a context with a recording log callback, and at teardown the
// context must hold exactly as many references, modules and kernels as at setup (nothing leaked, nothing
// released twice).
#include <VX/vx.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vg_openvx_test {

struct Counts {
  vx_uint32 references = 0, modules = 0, kernels = 0;
};

inline Counts counts_of(vx_context context) {
  Counts c;
  EXPECT_EQ(vxQueryContext(context, VX_CONTEXT_REFERENCES, &c.references, sizeof c.references), VX_SUCCESS);
  EXPECT_EQ(vxQueryContext(context, VX_CONTEXT_MODULES, &c.modules, sizeof c.modules), VX_SUCCESS);
  EXPECT_EQ(vxQueryContext(context, VX_CONTEXT_UNIQUE_KERNELS, &c.kernels, sizeof c.kernels), VX_SUCCESS);
  return c;
}

/// What the log callback received (one test at a time).
inline std::vector<std::string> log_lines;
inline std::vector<vx_status> log_statuses;

inline void VX_CALLBACK record_log(vx_context, vx_reference, vx_status status, const vx_char string[]) {
  log_lines.emplace_back(string);
  log_statuses.push_back(status);
}

/// vxGetStatus of any handle (an object, or the error object a failed creator returned).
inline vx_status status_of(void* object) { return vxGetStatus(static_cast<vx_reference>(object)); }

/// The value of an INT32 scalar (-1 and a test failure when it cannot be read).
inline vx_int32 read_int32(void* scalar) {
  vx_int32 v = -1;
  EXPECT_EQ(vxCopyScalar(static_cast<vx_scalar>(scalar), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  return v;
}
inline void write_int32(void* scalar, vx_int32 v) {
  EXPECT_EQ(vxCopyScalar(static_cast<vx_scalar>(scalar), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
}

/// A kernel validator for kernels whose last parameter is an INT32 scalar output.
inline vx_status VX_CALLBACK int32_output(vx_node, const vx_reference[], vx_uint32 count, vx_meta_format metas[]) {
  const vx_enum type = VX_TYPE_INT32;
  return vxSetMetaFormatAttribute(metas[count - 1], VX_SCALAR_TYPE, &type, sizeof type);
}

/// One parameter of a user kernel, as vxAddParameterToKernel takes it.
struct Param {
  vx_enum direction;
  vx_enum type;
  vx_enum state = VX_PARAMETER_STATE_REQUIRED;
};

/// A finalized user kernel @p name with @p params (in index order), for tests that need a working kernel, not for
/// the tests of vxAddUserKernel itself; the caller removes it with vxRemoveKernel.
inline vx_kernel add_user_kernel(vx_context context, const char* name, vx_kernel_f function, const std::vector<Param>& params,
                                 vx_kernel_validate_f validate, vx_kernel_initialize_f initialize = nullptr,
                                 vx_kernel_deinitialize_f deinitialize = nullptr) {
  vx_enum id = 0;
  EXPECT_EQ(vxAllocateUserKernelId(context, &id), VX_SUCCESS) << name;
  vx_kernel kernel = vxAddUserKernel(context, name, id, function, static_cast<vx_uint32>(params.size()), validate, initialize,
                                     deinitialize);
  EXPECT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(kernel)), VX_SUCCESS) << name;
  for (vx_uint32 i = 0; i < params.size(); ++i) {
    EXPECT_EQ(vxAddParameterToKernel(kernel, i, params[i].direction, params[i].type, params[i].state), VX_SUCCESS) << name;
  }
  EXPECT_EQ(vxFinalizeKernel(kernel), VX_SUCCESS) << name;
  return kernel;
}

class OpenVx : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = vxCreateContext();
    ASSERT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(context_)), VX_SUCCESS);
    log_lines.clear();
    log_statuses.clear();
    vxRegisterLogCallback(context_, record_log, vx_false_e);
    at_start_ = counts_of(context_);
  }
  void TearDown() override {
    const Counts at_end = counts_of(context_);
    EXPECT_EQ(at_end.references, at_start_.references) << "references leaked (or released twice) by the test";
    EXPECT_EQ(at_end.modules, at_start_.modules) << "modules left loaded";
    EXPECT_EQ(at_end.kernels, at_start_.kernels) << "kernels left added";
    EXPECT_EQ(vxReleaseContext(&context_), VX_SUCCESS);
    EXPECT_EQ(context_, nullptr);
  }
  static vx_reference ref(void* handle) { return static_cast<vx_reference>(handle); }
  static bool logged(const std::string& part) {
    for (const std::string& l : log_lines) {
      if (l.find(part) != std::string::npos) return true;
    }
    return false;
  }

  vx_context context_ = nullptr;
  Counts at_start_;
};

}  // namespace vg_openvx_test
