/*
 * OpenVX 1.3 vendor identifiers: the upper twelve bits of every attribute, enum and kernel value.
 * Part of the visiongraph OpenVX library.
 */
#ifndef VG_OPENVX_VX_VENDORS_H
#define VG_OPENVX_VX_VENDORS_H

/* Registered vendors, then the ranges left for users and for unregistered authors. */
enum vx_vendor_id_e {
    VX_ID_KHRONOS     = 0x000,
    VX_ID_TI          = 0x001,
    VX_ID_QUALCOMM    = 0x002,
    VX_ID_NVIDIA      = 0x003,
    VX_ID_ARM         = 0x004,
    VX_ID_BDTI        = 0x005,
    VX_ID_RENESAS     = 0x006,
    VX_ID_VIVANTE     = 0x007,
    VX_ID_XILINX      = 0x008,
    VX_ID_AXIS        = 0x009,
    VX_ID_MOVIDIUS    = 0x00A,
    VX_ID_SAMSUNG     = 0x00B,
    VX_ID_FREESCALE   = 0x00C,
    VX_ID_AMD         = 0x00D,
    VX_ID_BROADCOM    = 0x00E,
    VX_ID_INTEL       = 0x00F,
    VX_ID_MARVELL     = 0x010,
    VX_ID_MEDIATEK    = 0x011,
    VX_ID_ST          = 0x012,
    VX_ID_CEVA        = 0x013,
    VX_ID_ITSEEZ      = 0x014,
    VX_ID_IMAGINATION = 0x015,
    VX_ID_NXP         = 0x016,
    VX_ID_VIDEANTIS   = 0x017,
    VX_ID_SYNOPSYS    = 0x018,
    VX_ID_CADENCE     = 0x019,
    VX_ID_HUAWEI      = 0x01A,
    VX_ID_SOCIONEXT   = 0x01B,
    VX_ID_BOSCH       = 0x01C,

    VX_ID_USER        = 0xFFE, /* ids handed out by vxAllocateUserKernelId / vxAllocateUserKernelLibraryId */
    VX_ID_MAX         = 0xFFF,
    VX_ID_DEFAULT     = VX_ID_MAX
};

#endif /* VG_OPENVX_VX_VENDORS_H */
