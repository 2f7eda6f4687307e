/*
 * OpenVX neural network extension (vx_khr_nn, the version OpenVX 1.3 ships): kernel identifiers, enums,
 * parameter structures and node creators for convolutional network layers working on vx_tensor objects
 * (tensors themselves are part of the core API). Part of the visiongraph OpenVX library.
 */
#ifndef VG_OPENVX_VX_KHR_NN_H
#define VG_OPENVX_VX_KHR_NN_H

#define OPENVX_KHR_NN "vx_khr_nn"

#include <VX/vx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel library of the extension. */
#define VX_LIBRARY_KHR_NN_EXTENSION (0x1)

/* Layer kernels: VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + index. Index 0x4, the
 * normalization layer of earlier versions, lives on in <VX/vx_compatibility.h>. */
enum vx_kernel_nn_ext_e {
    VX_KERNEL_CONVOLUTION_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x0,
    VX_KERNEL_FULLY_CONNECTED_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x1,
    VX_KERNEL_POOLING_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x2,
    VX_KERNEL_SOFTMAX_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x3,
    VX_KERNEL_ACTIVATION_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x5,
    VX_KERNEL_ROI_POOLING_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x6,
    VX_KERNEL_DECONVOLUTION_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x7,
    VX_KERNEL_LOCAL_RESPONSE_NORMALIZATION_LAYER = VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_NN_EXTENSION) + 0x8
};

/* Enum-list identifiers of the extension (the 0x1A-0x1D range the core leaves to it). */
enum vx_nn_enum_e {
    VX_ENUM_NN_ROUNDING_TYPE = 0x1A,
    VX_ENUM_NN_POOLING_TYPE = 0x1B,
    VX_ENUM_NN_NORMALIZATION_TYPE = 0x1C,
    VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE = 0x1D
};

/* How an output size that is not a whole number is rounded (convolution and pooling). */
enum vx_nn_rounding_type_e {
    VX_NN_DS_SIZE_ROUNDING_FLOOR = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ROUNDING_TYPE) + 0x0,
    VX_NN_DS_SIZE_ROUNDING_CEILING = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ROUNDING_TYPE) + 0x1
};

/* Pooling: the largest value of the window, or the mean. */
enum vx_nn_pooling_type_e {
    VX_NN_POOLING_MAX = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_POOLING_TYPE) + 0x0,
    VX_NN_POOLING_AVG = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_POOLING_TYPE) + 0x1
};

/* Local response normalization: within one feature map, or across neighbouring maps. */
enum vx_nn_norm_type_e {
    VX_NN_NORMALIZATION_SAME_MAP = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_NORMALIZATION_TYPE) + 0x0,
    VX_NN_NORMALIZATION_ACROSS_MAPS = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_NORMALIZATION_TYPE) + 0x1
};

/* Activation functions; some take the parameters a and b of vxActivationLayer. */
enum vx_nn_activation_function_e {
    VX_NN_ACTIVATION_LOGISTIC = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x0,
    VX_NN_ACTIVATION_HYPERBOLIC_TAN = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x1,
    VX_NN_ACTIVATION_RELU = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x2,
    VX_NN_ACTIVATION_BRELU = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x3,
    VX_NN_ACTIVATION_SOFTRELU = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x4,
    VX_NN_ACTIVATION_ABS = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x5,
    VX_NN_ACTIVATION_SQUARE = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x6,
    VX_NN_ACTIVATION_SQRT = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x7,
    VX_NN_ACTIVATION_LINEAR = VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE) + 0x8
};

/* Type identifiers of the parameter structures below (vx_type_e values the core leaves free). */
enum vx_nn_type_e {
    VX_TYPE_NN_CONVOLUTION_PARAMS = 0x025,
    VX_TYPE_NN_DECONVOLUTION_PARAMS = 0x026,
    VX_TYPE_NN_ROI_POOL_PARAMS = 0x027
};

/* vxConvolutionLayer parameters: zero padding on each side of the input, the overflow (vx_convert_policy_e)
 * and rounding (vx_round_policy_e) policies, how the output size is rounded (vx_nn_rounding_type_e), and
 * the number of zeros inserted between kernel taps (dilation) in x and y. */
typedef struct _vx_nn_convolution_params_t {
    vx_size padding_x;
    vx_size padding_y;
    vx_enum overflow_policy;
    vx_enum rounding_policy;
    vx_enum down_scale_size_rounding;
    vx_size dilation_x;
    vx_size dilation_y;
} vx_nn_convolution_params_t;

/* vxDeconvolutionLayer parameters: elements removed on each side of the output, the overflow and
 * rounding policies, and a_x / a_y, which pick one of the possible output sizes of the upscale. */
typedef struct _vx_nn_deconvolution_params_t {
    vx_size padding_x;
    vx_size padding_y;
    vx_enum overflow_policy;
    vx_enum rounding_policy;
    vx_size a_x;
    vx_size a_y;
} vx_nn_deconvolution_params_t;

/* vxROIPoolingLayer parameters: the pooling type (VX_NN_POOLING_MAX is the one the extension requires). */
typedef struct _vx_nn_roi_pool_params_t {
    vx_enum pool_type;
} vx_nn_roi_pool_params_t;

/* ---- Layer node creators. Every tensor is a vx_tensor; the size_of_* arguments give the size of the
 * structure the caller passes, so the structures can grow in later versions. ---- */

/* Convolution of inputs with weights, plus biases (may be NULL). */
VX_API_ENTRY vx_node VX_API_CALL vxConvolutionLayer(vx_graph graph, vx_tensor inputs, vx_tensor weights,
                                                    vx_tensor biases,
                                                    const vx_nn_convolution_params_t *convolution_params,
                                                    vx_size size_of_convolution_params, vx_tensor outputs);

/* Fully connected layer: every output is a weighted sum of all inputs, plus a bias. */
VX_API_ENTRY vx_node VX_API_CALL vxFullyConnectedLayer(vx_graph graph, vx_tensor inputs, vx_tensor weights,
                                                       vx_tensor biases, vx_enum overflow_policy,
                                                       vx_enum rounding_policy, vx_tensor outputs);

/* Max or average pooling over pooling_size_x x pooling_size_y windows (vx_nn_pooling_type_e). */
VX_API_ENTRY vx_node VX_API_CALL vxPoolingLayer(vx_graph graph, vx_tensor inputs, vx_enum pooling_type,
                                                vx_size pooling_size_x, vx_size pooling_size_y,
                                                vx_size pooling_padding_x, vx_size pooling_padding_y,
                                                vx_enum rounding, vx_tensor outputs);

/* Softmax of inputs. */
VX_API_ENTRY vx_node VX_API_CALL vxSoftmaxLayer(vx_graph graph, vx_tensor inputs, vx_tensor outputs);

/* Local response normalization (vx_nn_norm_type_e) with a bias term. */
VX_API_ENTRY vx_node VX_API_CALL vxLocalResponseNormalizationLayer(vx_graph graph, vx_tensor inputs, vx_enum type,
                                                                   vx_size normalization_size, vx_float32 alpha,
                                                                   vx_float32 beta, vx_float32 bias,
                                                                   vx_tensor outputs);

/* Element-wise activation (vx_nn_activation_function_e) with its parameters a and b. */
VX_API_ENTRY vx_node VX_API_CALL vxActivationLayer(vx_graph graph, vx_tensor inputs, vx_enum function, vx_float32 a,
                                                   vx_float32 b, vx_tensor outputs);

/* Region-of-interest pooling of input_data over the rectangles of input_rois. */
VX_API_ENTRY vx_node VX_API_CALL vxROIPoolingLayer(vx_graph graph, vx_tensor input_data, vx_tensor input_rois,
                                                   const vx_nn_roi_pool_params_t *roi_pool_params,
                                                   vx_size size_of_roi_params, vx_tensor output_arr);

/* Deconvolution (transposed convolution) of inputs with weights, plus biases (may be NULL). */
VX_API_ENTRY vx_node VX_API_CALL vxDeconvolutionLayer(vx_graph graph, vx_tensor inputs, vx_tensor weights,
                                                      vx_tensor biases,
                                                      const vx_nn_deconvolution_params_t *deconvolution_params,
                                                      vx_size size_of_deconv_params, vx_tensor outputs);

#ifdef __cplusplus
}
#endif

#endif /* VG_OPENVX_VX_KHR_NN_H */
