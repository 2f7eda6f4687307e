/* Every public OpenVX header, compiled as strict C99 (-std=c99 -pedantic -Wall -Wextra -Werror), with a
 * few compile-time checks and a function that touches the main types, macros and callbacks. */
#include <VX/vx.h>
#include <VX/vx_compatibility.h>
#include <VX/vx_khr_nn.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>
#include <VX/vxu.h>

/* C99 has no _Static_assert: a negative array size fails the build instead. */
#define VG_C99_CHECK(name, condition) typedef char vg_c99_check_##name[(condition) ? 1 : -1]

VG_C99_CHECK(enum_is_32_bits, sizeof(vx_enum) == 4);
VG_C99_CHECK(bool_is_enum, sizeof(vx_bool) == sizeof(vx_enum));
VG_C99_CHECK(size_is_pointer_wide, sizeof(vx_size) == sizeof(void *));
VG_C99_CHECK(map_id_is_pointer_wide, sizeof(vx_map_id) == sizeof(void *));
VG_C99_CHECK(version, VX_VERSION == 0x0103);
VG_C99_CHECK(context_version_attribute, VX_CONTEXT_VERSION == 0x00080101);
VG_C99_CHECK(df_image_u8, VX_DF_IMAGE_U8 == 0x38303055);
VG_C99_CHECK(kernel_weighted_average, VX_KERNEL_WEIGHTED_AVERAGE == 0x40);
VG_C99_CHECK(status_min, VX_STATUS_MIN == -25);
VG_C99_CHECK(patch_size, sizeof(vx_imagepatch_addressing_t) == 32);
VG_C99_CHECK(pixel_value_size, sizeof(vx_pixel_value_t) == 16);
VG_C99_CHECK(border_size, sizeof(vx_border_t) == 20);
VG_C99_CHECK(kernel_info_size, sizeof(vx_kernel_info_t) == 4 + VX_MAX_KERNEL_NAME);
VG_C99_CHECK(perf_size, sizeof(vx_perf_t) == 64);
VG_C99_CHECK(nn_kernel_lrn, VX_KERNEL_LOCAL_RESPONSE_NORMALIZATION_LAYER == 0x1008);
VG_C99_CHECK(nn_activation_linear, VX_NN_ACTIVATION_LINEAR == 0x1D008);
VG_C99_CHECK(nn_convolution_params_size, sizeof(vx_nn_convolution_params_t) == 4 * sizeof(vx_size) + 3 * 4 +
                                                                                 (sizeof(vx_size) == 8 ? 4 : 0));
VG_C99_CHECK(nn_deconvolution_params_size, sizeof(vx_nn_deconvolution_params_t) == 4 * sizeof(vx_size) + 2 * 4);
VG_C99_CHECK(nn_roi_pool_params_size, sizeof(vx_nn_roi_pool_params_t) == 4);
VG_C99_CHECK(compat_normalization_layer, VX_KERNEL_NORMALIZATION_LAYER == 0x1004);
VG_C99_CHECK(compat_border_mode, VX_BORDER_MODE_REPLICATE == VX_BORDER_REPLICATE);
VG_C99_CHECK(compat_delta_rectangle_size, sizeof(vx_delta_rectangle_t) == 16);

static vx_status VX_CALLBACK c99_kernel(vx_node node, const vx_reference *parameters, vx_uint32 num) {
    (void)node;
    (void)parameters;
    return num == 0u ? VX_SUCCESS : VX_FAILURE;
}

static vx_status VX_CALLBACK c99_validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                          vx_meta_format metas[]) {
    (void)node;
    (void)parameters;
    (void)num;
    (void)metas;
    return VX_SUCCESS;
}

static vx_status VX_CALLBACK c99_output_validate(vx_node node, vx_uint32 index, vx_meta_format meta) {
    (void)node;
    (void)meta;
    return index == 0u ? VX_SUCCESS : VX_ERROR_INVALID_PARAMETERS;
}

static void VX_CALLBACK c99_log(vx_context context, vx_reference ref, vx_status status, const vx_char string[]) {
    (void)context;
    (void)ref;
    (void)status;
    (void)string;
}

int vg_openvx_c99_headers_check(void);

int vg_openvx_c99_headers_check(void) {
    vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
    vx_perf_t perf = VX_PERF_INIT;
    vx_rectangle_t rect = {0u, 0u, 8u, 8u};
    vx_border_t border;
    vx_keypoint_t point = {1, 2, 0.5f, 0.0f, 0.0f, 1, 0.0f};
    vx_coordinates2d_t at = {3u, 4u};
    vx_hog_t hog = {8, 8, 16, 16, 8, 9, 64, 128, 8, 0.2f};
    vx_kernel_f kernel = c99_kernel;
    vx_kernel_validate_f validate = c99_validate;
    vx_log_callback_f log = c99_log;
    vx_kernel_output_validate_f output_validate = c99_output_validate;
    vx_nn_convolution_params_t conv = {1u, 1u, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                       VX_NN_DS_SIZE_ROUNDING_FLOOR, 0u, 0u};
    vx_nn_roi_pool_params_t roi = {VX_NN_POOLING_MAX};
    vx_border_mode_t old_border;
    vx_bool flag = vx_true_e;
    vx_enum type = VX_TYPE_IMAGE;
    vx_df_image format = VX_DF_IMAGE('U', '0', '0', '8');
    vx_reference ref = NULL;
    vx_image image = NULL;

    border.mode = VX_BORDER_CONSTANT;
    border.constant_value.U8 = 7u;
    old_border.mode = VX_BORDER_MODE_UNDEFINED;
    addr.dim_x = rect.end_x - rect.start_x;
    perf.num = 1u;
    ref = (vx_reference)image;
    log(NULL, ref, VX_SUCCESS, "c99");

    return (int)(addr.dim_x + (vx_uint32)perf.num + (vx_uint32)point.x + at.y + (vx_uint32)hog.num_bins) +
           (kernel(NULL, NULL, 0u) == VX_SUCCESS) + (validate(NULL, NULL, 0u, NULL) == VX_SUCCESS) +
           (flag == vx_true_e) + (type == VX_TYPE_IMAGE) + (format == VX_DF_IMAGE_U8) +
           (border.constant_value.U8 == 7u) + (VX_TYPE(VX_IMAGE_WIDTH) == VX_TYPE_IMAGE) +
           (output_validate(NULL, 0u, NULL) == VX_SUCCESS) + (int)conv.padding_x + (roi.pool_type == VX_NN_POOLING_MAX) +
           (old_border.mode == VX_BORDER_UNDEFINED);
}
