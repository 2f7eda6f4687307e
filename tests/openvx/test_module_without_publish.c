/* A shared library that is not a kernel module: it exports no vxPublishKernels. */
__attribute__((visibility("default"))) int vg_not_a_module(void) { return 1; }
