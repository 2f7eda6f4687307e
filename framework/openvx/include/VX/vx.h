/*
 * OpenVX 1.3 top-level header: version numbers, then the whole core API (types, kernels, functions
 * and node creators). Part of the visiongraph OpenVX library.
 */
#ifndef VG_OPENVX_VX_H
#define VG_OPENVX_VX_H

/* Version numbers: major in the high byte, minor in the low byte (1.3 is 0x0103). */
#define VX_VERSION_MAJOR(x) (((x) & 0xFFU) << 8)
#define VX_VERSION_MINOR(x) (((x) & 0xFFU) << 0)

#define VX_VERSION_1_0 (VX_VERSION_MAJOR(1) | VX_VERSION_MINOR(0))
#define VX_VERSION_1_1 (VX_VERSION_MAJOR(1) | VX_VERSION_MINOR(1))
#define VX_VERSION_1_2 (VX_VERSION_MAJOR(1) | VX_VERSION_MINOR(2))
#define VX_VERSION_1_3 (VX_VERSION_MAJOR(1) | VX_VERSION_MINOR(3))

/* The version this implementation provides. */
#ifndef VX_VERSION
#define VX_VERSION (VX_VERSION_1_3)
#endif

#include <VX/vx_vendors.h>
#include <VX/vx_types.h>
#include <VX/vx_kernels.h>
#include <VX/vx_api.h>
#include <VX/vx_nodes.h>

#endif /* VG_OPENVX_VX_H */
