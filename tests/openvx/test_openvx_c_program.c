/* An OpenVX application in C99, as one would write it against any implementation: a user kernel, a
 * graph with scalars, verification, queries, runs (processed, scheduled and waited for), and every
 * reference released at the end. Exits non-zero with
 * a message naming the failed call. */
#include <VX/vx.h>
#include <VX/vx_khr_nn.h>
#include <VX/vxu.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(call, expected)                                                                          \
  do {                                                                                                 \
    vx_status status_ = (call);                                                                        \
    if (status_ != (expected)) {                                                                       \
      fprintf(stderr, "%s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, #call, status_, (int)(expected)); \
      ++failures;                                                                                      \
    }                                                                                                  \
  } while (0)

static vx_status VX_CALLBACK double_it(vx_node node, const vx_reference* parameters, vx_uint32 count) {
  vx_float32 value = 0.0f;
  (void)node;
  (void)count;
  vxCopyScalar((vx_scalar)parameters[0], &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  value *= 2.0f;
  return vxCopyScalar((vx_scalar)parameters[1], &value, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}

static vx_status VX_CALLBACK validate(vx_node node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  vx_enum type = VX_TYPE_INVALID;
  (void)node;
  if (count != 2) return VX_ERROR_INVALID_PARAMETERS;
  vxQueryScalar((vx_scalar)parameters[0], VX_SCALAR_TYPE, &type, sizeof type);
  if (type != VX_TYPE_FLOAT32) return VX_ERROR_INVALID_TYPE;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

int main(void) {
  vx_context context = vxCreateContext();
  vx_enum kernel_id = 0;
  vx_kernel kernel;
  vx_graph graph;
  vx_node node;
  vx_scalar in, out;
  vx_float32 two = 2.0f, three = 3.0f, result = 0.0f;
  vx_uint32 count = 0;
  vx_image image;
  char name[VX_MAX_KERNEL_NAME];

  CHECK(vxGetStatus((vx_reference)context), VX_SUCCESS);
  CHECK(vxAllocateUserKernelId(context, &kernel_id), VX_SUCCESS);
  kernel = vxAddUserKernel(context, "org.example.double", kernel_id, double_it, 2, validate, NULL, NULL);
  CHECK(vxGetStatus((vx_reference)kernel), VX_SUCCESS);
  CHECK(vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  CHECK(vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  CHECK(vxFinalizeKernel(kernel), VX_SUCCESS);
  CHECK(vxQueryKernel(kernel, VX_KERNEL_NAME, name, sizeof name), VX_SUCCESS);
  if (strcmp(name, "org.example.double") != 0) {
    fprintf(stderr, "VX_KERNEL_NAME is '%s'\n", name);
    ++failures;
  }

  graph = vxCreateGraph(context);
  in = vxCreateScalar(context, VX_TYPE_FLOAT32, &two);
  out = vxCreateScalar(context, VX_TYPE_FLOAT32, NULL);
  node = vxCreateGenericNode(graph, kernel);
  CHECK(vxGetStatus((vx_reference)node), VX_SUCCESS);
  CHECK(vxSetParameterByIndex(node, 0, (vx_reference)in), VX_SUCCESS);
  CHECK(vxSetParameterByIndex(node, 1, (vx_reference)out), VX_SUCCESS);
  CHECK(vxSetParameterByIndex(node, 1, (vx_reference)graph), VX_ERROR_INVALID_TYPE);
  CHECK(vxVerifyGraph(graph), VX_SUCCESS);
  CHECK(vxQueryGraph(graph, VX_GRAPH_NUMNODES, &count, sizeof count), VX_SUCCESS);
  if (count != 1) {
    fprintf(stderr, "VX_GRAPH_NUMNODES is %u\n", count);
    ++failures;
  }

  CHECK(vxProcessGraph(graph), VX_SUCCESS);
  CHECK(vxCopyScalar(out, &result, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  if (result != 4.0f) {
    fprintf(stderr, "vxProcessGraph: out is %f, expected 4\n", (double)result);
    ++failures;
  }
  CHECK(vxCopyScalar(in, &three, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  CHECK(vxScheduleGraph(graph), VX_SUCCESS);
  CHECK(vxWaitGraph(graph), VX_SUCCESS);
  CHECK(vxCopyScalar(out, &result, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  if (result != 6.0f) {
    fprintf(stderr, "vxScheduleGraph: out is %f, expected 6\n", (double)result);
    ++failures;
  }

  /* Not implemented yet: every entry links and answers. */
  image = vxCreateImage(context, 64, 48, VX_DF_IMAGE_U8);
  CHECK(vxGetStatus((vx_reference)image), VX_SUCCESS);
  CHECK(vxGetStatus((vx_reference)vxSoftmaxLayer(graph, NULL, NULL)), VX_ERROR_NOT_IMPLEMENTED);

  CHECK(vxReleaseImage(&image), VX_SUCCESS);
  CHECK(vxReleaseNode(&node), VX_SUCCESS);
  CHECK(vxReleaseScalar(&in), VX_SUCCESS);
  CHECK(vxReleaseScalar(&out), VX_SUCCESS);
  CHECK(vxReleaseGraph(&graph), VX_SUCCESS);
  CHECK(vxRemoveKernel(kernel), VX_SUCCESS);
  CHECK(vxQueryContext(context, VX_CONTEXT_REFERENCES, &count, sizeof count), VX_SUCCESS);
  if (count != 0) {
    fprintf(stderr, "%u references left before vxReleaseContext\n", count);
    ++failures;
  }
  CHECK(vxReleaseContext(&context), VX_SUCCESS);
  if (context != NULL) {
    fprintf(stderr, "vxReleaseContext did not clear the handle\n");
    ++failures;
  }
  if (failures == 0) printf("OpenVX C program: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
