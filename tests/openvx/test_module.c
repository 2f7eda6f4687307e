/* A kernel module as an OpenVX application ships one: vxPublishKernels adds a user kernel,
 * vxUnpublishKernels removes it. Counters let the tests see both ran. Written in C on purpose. */
#include <VX/vx.h>

#define VG_TEST_MODULE_KERNEL_NAME "org.visiongraph.test.add_one"

static int published = 0;
static int unpublished = 0;

__attribute__((visibility("default"))) int vg_test_module_published(void) { return published; }
__attribute__((visibility("default"))) int vg_test_module_unpublished(void) { return unpublished; }

static vx_status VX_CALLBACK add_one(vx_node node, const vx_reference* parameters, vx_uint32 count) {
  vx_int32 value = 0;
  (void)node;
  if (count != 2) return VX_ERROR_INVALID_PARAMETERS;
  vxCopyScalar((vx_scalar)parameters[0], &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  value += 1;
  return vxCopyScalar((vx_scalar)parameters[1], &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

static vx_status VX_CALLBACK validate(vx_node node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  vx_enum type = VX_TYPE_INT32;
  (void)node;
  (void)parameters;
  if (count != 2) return VX_ERROR_INVALID_PARAMETERS;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

__attribute__((visibility("default"))) vx_status VX_API_CALL vxPublishKernels(vx_context context) {
  vx_enum id = 0;
  vx_kernel kernel;
  vx_status status = vxAllocateUserKernelId(context, &id);
  if (status != VX_SUCCESS) return status;
  kernel = vxAddUserKernel(context, VG_TEST_MODULE_KERNEL_NAME, id, add_one, 2, validate, NULL, NULL);
  status = vxGetStatus((vx_reference)kernel);
  if (status != VX_SUCCESS) return status;
  status = vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  if (status == VX_SUCCESS) status = vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED);
  if (status == VX_SUCCESS) status = vxFinalizeKernel(kernel);
  if (status != VX_SUCCESS) {
    vxRemoveKernel(kernel);
    return status;
  }
  ++published;
  return vxReleaseKernel(&kernel);
}

__attribute__((visibility("default"))) vx_status VX_API_CALL vxUnpublishKernels(vx_context context) {
  vx_kernel kernel = vxGetKernelByName(context, VG_TEST_MODULE_KERNEL_NAME);
  vx_status status = vxGetStatus((vx_reference)kernel);
  if (status != VX_SUCCESS) return status;
  ++unpublished;
  return vxRemoveKernel(kernel);
}
