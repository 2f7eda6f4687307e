/*
 * OpenVX user data object extension (vx_khr_user_data_object): a named, sized block of bytes that
 * can be passed between nodes like any other data object. Part of the visiongraph OpenVX library.
 */
#ifndef VG_OPENVX_VX_KHR_USER_DATA_OBJECT_H
#define VG_OPENVX_VX_KHR_USER_DATA_OBJECT_H

#define OPENVX_KHR_USER_DATA_OBJECT "vx_khr_user_data_object"

#include <VX/vx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handle of a user data object. */
typedef struct _vx_user_data_object *vx_user_data_object;

/* Object type of a user data object. */
#define VX_TYPE_USER_DATA_OBJECT 0x816

/* Attributes (read-only): the type name, a vx_char[VX_MAX_REFERENCE_NAME], and the size in bytes, a vx_size. */
enum vx_user_data_object_attribute_e {
    VX_USER_DATA_OBJECT_NAME = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_USER_DATA_OBJECT) + 0x0,
    VX_USER_DATA_OBJECT_SIZE = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_USER_DATA_OBJECT) + 0x1
};

VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateUserDataObject(vx_context context, const vx_char *type_name,
                                                                    vx_size size, const void *ptr);
VX_API_ENTRY vx_user_data_object VX_API_CALL vxCreateVirtualUserDataObject(vx_graph graph, const vx_char *type_name,
                                                                           vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseUserDataObject(vx_user_data_object *user_data_object);
VX_API_ENTRY vx_status VX_API_CALL vxQueryUserDataObject(vx_user_data_object user_data_object, vx_enum attribute,
                                                         void *ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyUserDataObject(vx_user_data_object user_data_object, vx_size offset,
                                                        vx_size size, void *user_ptr, vx_enum usage,
                                                        vx_enum user_mem_type);
VX_API_ENTRY vx_status VX_API_CALL vxMapUserDataObject(vx_user_data_object user_data_object, vx_size offset,
                                                       vx_size size, vx_map_id *map_id, void **ptr, vx_enum usage,
                                                       vx_enum mem_type, vx_uint32 flags);
VX_API_ENTRY vx_status VX_API_CALL vxUnmapUserDataObject(vx_user_data_object user_data_object, vx_map_id map_id);

#ifdef __cplusplus
}
#endif

#endif /* VG_OPENVX_VX_KHR_USER_DATA_OBJECT_H */
