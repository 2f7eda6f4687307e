// ABI of the OpenVX 1.3 headers: scalar and handle types, every status code and type identifier, the
// enum-list and attribute values, the standard kernel identifiers, image format codes, and the size,
// alignment and member offsets of every public structure, on LP64 and ILP32 targets alike; the same for
// the neural network extension (vx_khr_nn.h) and the compatibility header (vx_compatibility.h). The
// expected values are written out as plain numbers, so a wrong macro cannot hide a wrong value.
#include <VX/vx.h>
#include <VX/vx_compatibility.h>
#include <VX/vx_khr_nn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <type_traits>

namespace {

// Compares an enumerator (or macro) with its published number.
#define VG_ABI_VALUE(name, value) static_assert(static_cast<long long>(name) == static_cast<long long>(value), #name)
#define VG_ABI_OFFSET(type, member, value) static_assert(offsetof(type, member) == (value), #type "::" #member)
#define VG_ABI_MEMBER(type, member, member_type) \
  static_assert(std::is_same_v<decltype(type::member), member_type>, #type "::" #member " type")

constexpr bool kPointers32 = UINTPTR_MAX == 0xFFFFFFFFu;

// ---- Scalar types -----------------------------------------------------------------------------------

static_assert(std::is_same_v<vx_char, char>);
static_assert(std::is_same_v<vx_uint8, std::uint8_t>);
static_assert(std::is_same_v<vx_uint16, std::uint16_t>);
static_assert(std::is_same_v<vx_uint32, std::uint32_t>);
static_assert(std::is_same_v<vx_uint64, std::uint64_t>);
static_assert(std::is_same_v<vx_int8, std::int8_t>);
static_assert(std::is_same_v<vx_int16, std::int16_t>);
static_assert(std::is_same_v<vx_int32, std::int32_t>);
static_assert(std::is_same_v<vx_int64, std::int64_t>);
static_assert(std::is_same_v<vx_bitfield, std::uint32_t>);
static_assert(std::is_same_v<vx_float32, float>);
static_assert(std::is_same_v<vx_float64, double>);
static_assert(std::is_same_v<vx_enum, std::int32_t>);
static_assert(std::is_same_v<vx_size, std::size_t>);
static_assert(std::is_same_v<vx_df_image, std::uint32_t>);
static_assert(std::is_same_v<vx_map_id, std::uintptr_t>);
static_assert(std::is_same_v<vx_bool, vx_enum>);
static_assert(std::is_same_v<vx_status, vx_enum>);
static_assert(std::is_same_v<vx_action, vx_enum>);
VG_ABI_VALUE(vx_false_e, 0);
VG_ABI_VALUE(vx_true_e, 1);

#if UINTPTR_MAX == 0xFFFFFFFFu
static_assert(sizeof(vx_size) == 4 && sizeof(vx_map_id) == 4 && sizeof(vx_reference) == 4);
#else
static_assert(sizeof(vx_size) == 8 && sizeof(vx_map_id) == 8 && sizeof(vx_reference) == 8);
#endif

// ---- Handles: distinct pointer types to incomplete structs --------------------------------------

template <typename... Handles>
constexpr bool all_pointer_handles() {
  return ((std::is_pointer_v<Handles> && sizeof(Handles) == sizeof(void*)) && ...);
}
static_assert(all_pointer_handles<vx_reference, vx_context, vx_graph, vx_node, vx_kernel, vx_parameter, vx_image,
                                  vx_array, vx_object_array, vx_scalar, vx_matrix, vx_convolution, vx_distribution,
                                  vx_threshold, vx_lut, vx_remap, vx_pyramid, vx_delay, vx_tensor, vx_meta_format>());
static_assert(!std::is_same_v<vx_image, vx_array>);
static_assert(!std::is_same_v<vx_image, vx_reference>);
static_assert(!std::is_same_v<vx_graph, vx_node>);
static_assert(!std::is_same_v<vx_lut, vx_array>);
static_assert(!std::is_same_v<vx_tensor, vx_object_array>);
static_assert(!std::is_convertible_v<vx_image, vx_array>);

// ---- Macros ---------------------------------------------------------------------------------------

VG_ABI_VALUE(VX_VERSION_1_0, 0x0100);
VG_ABI_VALUE(VX_VERSION_1_1, 0x0101);
VG_ABI_VALUE(VX_VERSION_1_2, 0x0102);
VG_ABI_VALUE(VX_VERSION_1_3, 0x0103);
VG_ABI_VALUE(VX_VERSION, 0x0103);
VG_ABI_VALUE(VX_VERSION_MAJOR(2), 0x0200);
VG_ABI_VALUE(VX_VERSION_MINOR(7), 0x0007);
VG_ABI_VALUE(VX_MAX_IMPLEMENTATION_NAME, 64);
VG_ABI_VALUE(VX_MAX_KERNEL_NAME, 256);
VG_ABI_VALUE(VX_MAX_LOG_MESSAGE_LEN, 1024);
VG_ABI_VALUE(VX_MAX_REFERENCE_NAME, 64);
VG_ABI_VALUE(VX_SCALE_UNITY, 1024);
VG_ABI_VALUE(VX_VENDOR_MASK, 0xFFF00000u);
VG_ABI_VALUE(VX_TYPE_MASK, 0x000FFF00u);
VG_ABI_VALUE(VX_LIBRARY_MASK, 0x000FF000u);
VG_ABI_VALUE(VX_KERNEL_MASK, 0x00000FFFu);
VG_ABI_VALUE(VX_ATTRIBUTE_ID_MASK, 0x000000FFu);
VG_ABI_VALUE(VX_ENUM_TYPE_MASK, 0x000FF000u);
VG_ABI_VALUE(VX_ENUM_MASK, 0x00000FFFu);
VG_ABI_VALUE(VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_IMAGE), 0x00080F00);
VG_ABI_VALUE(VX_ATTRIBUTE_BASE(VX_ID_TI, VX_TYPE_IMAGE), 0x00180F00);
VG_ABI_VALUE(VX_KERNEL_BASE(VX_ID_KHRONOS, VX_LIBRARY_KHR_BASE), 0);
VG_ABI_VALUE(VX_KERNEL_BASE(VX_ID_NVIDIA, 0x12), 0x00312000);
VG_ABI_VALUE(VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_BORDER), 0x0000C000);
VG_ABI_VALUE(VX_ENUM_BASE(VX_ID_INTEL, VX_ENUM_BORDER), 0x00F0C000);
static_assert(static_cast<vx_uint32>(VX_KERNEL_BASE(VX_ID_USER, 1)) == 0xFFE01000u);
static_assert(static_cast<vx_uint32>(VX_ATTRIBUTE_BASE(VX_ID_DEFAULT, 0xC00)) == 0xFFFC0000u);
static_assert(std::is_same_v<decltype(VX_ATTRIBUTE_BASE(0, 0)), vx_int32>);
static_assert(std::is_same_v<decltype(VX_KERNEL_BASE(0, 0)), vx_int32>);
static_assert(std::is_same_v<decltype(VX_ENUM_BASE(0, 0)), vx_int32>);
VG_ABI_VALUE(VX_VENDOR(VX_KERNEL_BASE(VX_ID_USER, 3)), 0xFFE);
VG_ABI_VALUE(VX_LIBRARY(VX_KERNEL_BASE(VX_ID_USER, 3)), 3);
VG_ABI_VALUE(VX_TYPE(VX_CONTEXT_VERSION), VX_TYPE_CONTEXT);
VG_ABI_VALUE(VX_ENUM_TYPE(VX_BORDER_REPLICATE), VX_ENUM_BORDER);
VG_ABI_VALUE(VX_DF_IMAGE('A', 'B', 'C', 'D'), 0x44434241u);
VG_ABI_VALUE(VX_DF_IMAGE('\xFF', 0, 0, '\x80'), 0x800000FFu);
VG_ABI_VALUE(VX_NOGAP_X, 1);

// ---- Vendors ----------------------------------------------------------------------------------------

VG_ABI_VALUE(VX_ID_KHRONOS, 0x000);
VG_ABI_VALUE(VX_ID_TI, 0x001);
VG_ABI_VALUE(VX_ID_QUALCOMM, 0x002);
VG_ABI_VALUE(VX_ID_NVIDIA, 0x003);
VG_ABI_VALUE(VX_ID_ARM, 0x004);
VG_ABI_VALUE(VX_ID_BDTI, 0x005);
VG_ABI_VALUE(VX_ID_RENESAS, 0x006);
VG_ABI_VALUE(VX_ID_VIVANTE, 0x007);
VG_ABI_VALUE(VX_ID_XILINX, 0x008);
VG_ABI_VALUE(VX_ID_AXIS, 0x009);
VG_ABI_VALUE(VX_ID_MOVIDIUS, 0x00A);
VG_ABI_VALUE(VX_ID_SAMSUNG, 0x00B);
VG_ABI_VALUE(VX_ID_FREESCALE, 0x00C);
VG_ABI_VALUE(VX_ID_AMD, 0x00D);
VG_ABI_VALUE(VX_ID_BROADCOM, 0x00E);
VG_ABI_VALUE(VX_ID_INTEL, 0x00F);
VG_ABI_VALUE(VX_ID_MARVELL, 0x010);
VG_ABI_VALUE(VX_ID_MEDIATEK, 0x011);
VG_ABI_VALUE(VX_ID_ST, 0x012);
VG_ABI_VALUE(VX_ID_CEVA, 0x013);
VG_ABI_VALUE(VX_ID_ITSEEZ, 0x014);
VG_ABI_VALUE(VX_ID_IMAGINATION, 0x015);
VG_ABI_VALUE(VX_ID_NXP, 0x016);
VG_ABI_VALUE(VX_ID_VIDEANTIS, 0x017);
VG_ABI_VALUE(VX_ID_SYNOPSYS, 0x018);
VG_ABI_VALUE(VX_ID_CADENCE, 0x019);
VG_ABI_VALUE(VX_ID_HUAWEI, 0x01A);
VG_ABI_VALUE(VX_ID_SOCIONEXT, 0x01B);
VG_ABI_VALUE(VX_ID_BOSCH, 0x01C);
VG_ABI_VALUE(VX_ID_USER, 0xFFE);
VG_ABI_VALUE(VX_ID_MAX, 0xFFF);
VG_ABI_VALUE(VX_ID_DEFAULT, 0xFFF);

// ---- Status codes ---------------------------------------------------------------------------------

VG_ABI_VALUE(VX_STATUS_MIN, -25);
VG_ABI_VALUE(VX_ERROR_REFERENCE_NONZERO, -24);
VG_ABI_VALUE(VX_ERROR_MULTIPLE_WRITERS, -23);
VG_ABI_VALUE(VX_ERROR_GRAPH_ABANDONED, -22);
VG_ABI_VALUE(VX_ERROR_GRAPH_SCHEDULED, -21);
VG_ABI_VALUE(VX_ERROR_INVALID_SCOPE, -20);
VG_ABI_VALUE(VX_ERROR_INVALID_NODE, -19);
VG_ABI_VALUE(VX_ERROR_INVALID_GRAPH, -18);
VG_ABI_VALUE(VX_ERROR_INVALID_TYPE, -17);
VG_ABI_VALUE(VX_ERROR_INVALID_VALUE, -16);
VG_ABI_VALUE(VX_ERROR_INVALID_DIMENSION, -15);
VG_ABI_VALUE(VX_ERROR_INVALID_FORMAT, -14);
VG_ABI_VALUE(VX_ERROR_INVALID_LINK, -13);
VG_ABI_VALUE(VX_ERROR_INVALID_REFERENCE, -12);
VG_ABI_VALUE(VX_ERROR_INVALID_MODULE, -11);
VG_ABI_VALUE(VX_ERROR_INVALID_PARAMETERS, -10);
VG_ABI_VALUE(VX_ERROR_OPTIMIZED_AWAY, -9);
VG_ABI_VALUE(VX_ERROR_NO_MEMORY, -8);
VG_ABI_VALUE(VX_ERROR_NO_RESOURCES, -7);
VG_ABI_VALUE(VX_ERROR_NOT_COMPATIBLE, -6);
VG_ABI_VALUE(VX_ERROR_NOT_ALLOCATED, -5);
VG_ABI_VALUE(VX_ERROR_NOT_SUFFICIENT, -4);
VG_ABI_VALUE(VX_ERROR_NOT_SUPPORTED, -3);
VG_ABI_VALUE(VX_ERROR_NOT_IMPLEMENTED, -2);
VG_ABI_VALUE(VX_FAILURE, -1);
VG_ABI_VALUE(VX_SUCCESS, 0);

// ---- Type identifiers -----------------------------------------------------------------------------

VG_ABI_VALUE(VX_TYPE_INVALID, 0x000);
VG_ABI_VALUE(VX_TYPE_CHAR, 0x001);
VG_ABI_VALUE(VX_TYPE_INT8, 0x002);
VG_ABI_VALUE(VX_TYPE_UINT8, 0x003);
VG_ABI_VALUE(VX_TYPE_INT16, 0x004);
VG_ABI_VALUE(VX_TYPE_UINT16, 0x005);
VG_ABI_VALUE(VX_TYPE_INT32, 0x006);
VG_ABI_VALUE(VX_TYPE_UINT32, 0x007);
VG_ABI_VALUE(VX_TYPE_INT64, 0x008);
VG_ABI_VALUE(VX_TYPE_UINT64, 0x009);
VG_ABI_VALUE(VX_TYPE_FLOAT32, 0x00A);
VG_ABI_VALUE(VX_TYPE_FLOAT64, 0x00B);
VG_ABI_VALUE(VX_TYPE_ENUM, 0x00C);
VG_ABI_VALUE(VX_TYPE_SIZE, 0x00D);
VG_ABI_VALUE(VX_TYPE_DF_IMAGE, 0x00E);
VG_ABI_VALUE(VX_TYPE_FLOAT16, 0x00F);
VG_ABI_VALUE(VX_TYPE_BOOL, 0x010);
VG_ABI_VALUE(VX_TYPE_RECTANGLE, 0x020);
VG_ABI_VALUE(VX_TYPE_KEYPOINT, 0x021);
VG_ABI_VALUE(VX_TYPE_COORDINATES2D, 0x022);
VG_ABI_VALUE(VX_TYPE_COORDINATES3D, 0x023);
VG_ABI_VALUE(VX_TYPE_COORDINATES2DF, 0x024);
VG_ABI_VALUE(VX_TYPE_HOG_PARAMS, 0x028);
VG_ABI_VALUE(VX_TYPE_HOUGH_LINES_PARAMS, 0x029);
VG_ABI_VALUE(VX_TYPE_LINE_2D, 0x02A);
VG_ABI_VALUE(VX_TYPE_TENSOR_MATRIX_MULTIPLY_PARAMS, 0x02B);
VG_ABI_VALUE(VX_TYPE_USER_STRUCT_START, 0x100);
VG_ABI_VALUE(VX_TYPE_VENDOR_STRUCT_START, 0x400);
VG_ABI_VALUE(VX_TYPE_KHRONOS_OBJECT_START, 0x800);
VG_ABI_VALUE(VX_TYPE_VENDOR_OBJECT_START, 0xC00);
VG_ABI_VALUE(VX_TYPE_KHRONOS_STRUCT_MAX, 0x0FF);
VG_ABI_VALUE(VX_TYPE_USER_STRUCT_END, 0x3FF);
VG_ABI_VALUE(VX_TYPE_VENDOR_STRUCT_END, 0x7FF);
VG_ABI_VALUE(VX_TYPE_KHRONOS_OBJECT_END, 0xBFF);
VG_ABI_VALUE(VX_TYPE_VENDOR_OBJECT_END, 0xFFF);
VG_ABI_VALUE(VX_TYPE_REFERENCE, 0x800);
VG_ABI_VALUE(VX_TYPE_CONTEXT, 0x801);
VG_ABI_VALUE(VX_TYPE_GRAPH, 0x802);
VG_ABI_VALUE(VX_TYPE_NODE, 0x803);
VG_ABI_VALUE(VX_TYPE_KERNEL, 0x804);
VG_ABI_VALUE(VX_TYPE_PARAMETER, 0x805);
VG_ABI_VALUE(VX_TYPE_DELAY, 0x806);
VG_ABI_VALUE(VX_TYPE_LUT, 0x807);
VG_ABI_VALUE(VX_TYPE_DISTRIBUTION, 0x808);
VG_ABI_VALUE(VX_TYPE_PYRAMID, 0x809);
VG_ABI_VALUE(VX_TYPE_THRESHOLD, 0x80A);
VG_ABI_VALUE(VX_TYPE_MATRIX, 0x80B);
VG_ABI_VALUE(VX_TYPE_CONVOLUTION, 0x80C);
VG_ABI_VALUE(VX_TYPE_SCALAR, 0x80D);
VG_ABI_VALUE(VX_TYPE_ARRAY, 0x80E);
VG_ABI_VALUE(VX_TYPE_IMAGE, 0x80F);
VG_ABI_VALUE(VX_TYPE_REMAP, 0x810);
VG_ABI_VALUE(VX_TYPE_ERROR, 0x811);
VG_ABI_VALUE(VX_TYPE_META_FORMAT, 0x812);
VG_ABI_VALUE(VX_TYPE_OBJECT_ARRAY, 0x813);
VG_ABI_VALUE(VX_TYPE_TENSOR, 0x815);

// ---- Enum list identifiers ------------------------------------------------------------------------

VG_ABI_VALUE(VX_ENUM_DIRECTION, 0x00);
VG_ABI_VALUE(VX_ENUM_ACTION, 0x01);
VG_ABI_VALUE(VX_ENUM_HINT, 0x02);
VG_ABI_VALUE(VX_ENUM_DIRECTIVE, 0x03);
VG_ABI_VALUE(VX_ENUM_INTERPOLATION, 0x04);
VG_ABI_VALUE(VX_ENUM_OVERFLOW, 0x05);
VG_ABI_VALUE(VX_ENUM_COLOR_SPACE, 0x06);
VG_ABI_VALUE(VX_ENUM_COLOR_RANGE, 0x07);
VG_ABI_VALUE(VX_ENUM_PARAMETER_STATE, 0x08);
VG_ABI_VALUE(VX_ENUM_CHANNEL, 0x09);
VG_ABI_VALUE(VX_ENUM_CONVERT_POLICY, 0x0A);
VG_ABI_VALUE(VX_ENUM_THRESHOLD_TYPE, 0x0B);
VG_ABI_VALUE(VX_ENUM_BORDER, 0x0C);
VG_ABI_VALUE(VX_ENUM_COMPARISON, 0x0D);
VG_ABI_VALUE(VX_ENUM_MEMORY_TYPE, 0x0E);
VG_ABI_VALUE(VX_ENUM_TERM_CRITERIA, 0x0F);
VG_ABI_VALUE(VX_ENUM_NORM_TYPE, 0x10);
VG_ABI_VALUE(VX_ENUM_ACCESSOR, 0x11);
VG_ABI_VALUE(VX_ENUM_ROUND_POLICY, 0x12);
VG_ABI_VALUE(VX_ENUM_TARGET, 0x13);
VG_ABI_VALUE(VX_ENUM_BORDER_POLICY, 0x14);
VG_ABI_VALUE(VX_ENUM_GRAPH_STATE, 0x15);
VG_ABI_VALUE(VX_ENUM_NONLINEAR, 0x16);
VG_ABI_VALUE(VX_ENUM_PATTERN, 0x17);
VG_ABI_VALUE(VX_ENUM_LBP_FORMAT, 0x18);
VG_ABI_VALUE(VX_ENUM_COMP_METRIC, 0x19);
VG_ABI_VALUE(VX_ENUM_SCALAR_OPERATION, 0x20);

// ---- Enumerated values (Khronos vendor, so the value is list << 12 | index) ------------------------

VG_ABI_VALUE(VX_ACTION_CONTINUE, 0x01000);
VG_ABI_VALUE(VX_ACTION_ABANDON, 0x01001);
VG_ABI_VALUE(VX_INPUT, 0x00000);
VG_ABI_VALUE(VX_OUTPUT, 0x00001);
VG_ABI_VALUE(VX_BIDIRECTIONAL, 0x00002);
VG_ABI_VALUE(VX_HINT_PERFORMANCE_DEFAULT, 0x02001);
VG_ABI_VALUE(VX_HINT_PERFORMANCE_LOW_POWER, 0x02002);
VG_ABI_VALUE(VX_HINT_PERFORMANCE_HIGH_SPEED, 0x02003);
VG_ABI_VALUE(VX_DIRECTIVE_DISABLE_LOGGING, 0x03000);
VG_ABI_VALUE(VX_DIRECTIVE_ENABLE_LOGGING, 0x03001);
VG_ABI_VALUE(VX_DIRECTIVE_DISABLE_PERFORMANCE, 0x03002);
VG_ABI_VALUE(VX_DIRECTIVE_ENABLE_PERFORMANCE, 0x03003);
VG_ABI_VALUE(VX_INTERPOLATION_NEAREST_NEIGHBOR, 0x04000);
VG_ABI_VALUE(VX_INTERPOLATION_BILINEAR, 0x04001);
VG_ABI_VALUE(VX_INTERPOLATION_AREA, 0x04002);
VG_ABI_VALUE(VX_COLOR_SPACE_NONE, 0x06000);
VG_ABI_VALUE(VX_COLOR_SPACE_BT601_525, 0x06001);
VG_ABI_VALUE(VX_COLOR_SPACE_BT601_625, 0x06002);
VG_ABI_VALUE(VX_COLOR_SPACE_BT709, 0x06003);
VG_ABI_VALUE(VX_COLOR_SPACE_DEFAULT, 0x06003);
VG_ABI_VALUE(VX_CHANNEL_RANGE_FULL, 0x07000);
VG_ABI_VALUE(VX_CHANNEL_RANGE_RESTRICTED, 0x07001);
VG_ABI_VALUE(VX_PARAMETER_STATE_REQUIRED, 0x08000);
VG_ABI_VALUE(VX_PARAMETER_STATE_OPTIONAL, 0x08001);
VG_ABI_VALUE(VX_CHANNEL_0, 0x09000);
VG_ABI_VALUE(VX_CHANNEL_1, 0x09001);
VG_ABI_VALUE(VX_CHANNEL_2, 0x09002);
VG_ABI_VALUE(VX_CHANNEL_3, 0x09003);
VG_ABI_VALUE(VX_CHANNEL_R, 0x09010);
VG_ABI_VALUE(VX_CHANNEL_G, 0x09011);
VG_ABI_VALUE(VX_CHANNEL_B, 0x09012);
VG_ABI_VALUE(VX_CHANNEL_A, 0x09013);
VG_ABI_VALUE(VX_CHANNEL_Y, 0x09014);
VG_ABI_VALUE(VX_CHANNEL_U, 0x09015);
VG_ABI_VALUE(VX_CHANNEL_V, 0x09016);
VG_ABI_VALUE(VX_CONVERT_POLICY_WRAP, 0x0A000);
VG_ABI_VALUE(VX_CONVERT_POLICY_SATURATE, 0x0A001);
VG_ABI_VALUE(VX_THRESHOLD_TYPE_BINARY, 0x0B000);
VG_ABI_VALUE(VX_THRESHOLD_TYPE_RANGE, 0x0B001);
VG_ABI_VALUE(VX_BORDER_UNDEFINED, 0x0C000);
VG_ABI_VALUE(VX_BORDER_CONSTANT, 0x0C001);
VG_ABI_VALUE(VX_BORDER_REPLICATE, 0x0C002);
VG_ABI_VALUE(VX_MEMORY_TYPE_NONE, 0x0E000);
VG_ABI_VALUE(VX_MEMORY_TYPE_HOST, 0x0E001);
VG_ABI_VALUE(VX_TERM_CRITERIA_ITERATIONS, 0x0F000);
VG_ABI_VALUE(VX_TERM_CRITERIA_EPSILON, 0x0F001);
VG_ABI_VALUE(VX_TERM_CRITERIA_BOTH, 0x0F002);
VG_ABI_VALUE(VX_NORM_L1, 0x10000);
VG_ABI_VALUE(VX_NORM_L2, 0x10001);
VG_ABI_VALUE(VX_READ_ONLY, 0x11001);
VG_ABI_VALUE(VX_WRITE_ONLY, 0x11002);
VG_ABI_VALUE(VX_READ_AND_WRITE, 0x11003);
VG_ABI_VALUE(VX_ROUND_POLICY_TO_ZERO, 0x12001);
VG_ABI_VALUE(VX_ROUND_POLICY_TO_NEAREST_EVEN, 0x12002);
VG_ABI_VALUE(VX_TARGET_ANY, 0x13000);
VG_ABI_VALUE(VX_TARGET_STRING, 0x13001);
VG_ABI_VALUE(VX_TARGET_VENDOR_BEGIN, 0x14000);
VG_ABI_VALUE(VX_BORDER_POLICY_DEFAULT_TO_UNDEFINED, 0x14000);
VG_ABI_VALUE(VX_BORDER_POLICY_RETURN_ERROR, 0x14001);
VG_ABI_VALUE(VX_GRAPH_STATE_UNVERIFIED, 0x15000);
VG_ABI_VALUE(VX_GRAPH_STATE_VERIFIED, 0x15001);
VG_ABI_VALUE(VX_GRAPH_STATE_RUNNING, 0x15002);
VG_ABI_VALUE(VX_GRAPH_STATE_ABANDONED, 0x15003);
VG_ABI_VALUE(VX_GRAPH_STATE_COMPLETED, 0x15004);
VG_ABI_VALUE(VX_NONLINEAR_FILTER_MEDIAN, 0x16000);
VG_ABI_VALUE(VX_NONLINEAR_FILTER_MIN, 0x16001);
VG_ABI_VALUE(VX_NONLINEAR_FILTER_MAX, 0x16002);
VG_ABI_VALUE(VX_PATTERN_BOX, 0x17000);
VG_ABI_VALUE(VX_PATTERN_CROSS, 0x17001);
VG_ABI_VALUE(VX_PATTERN_DISK, 0x17002);
VG_ABI_VALUE(VX_PATTERN_OTHER, 0x17003);
VG_ABI_VALUE(VX_LBP, 0x18000);
VG_ABI_VALUE(VX_MLBP, 0x18001);
VG_ABI_VALUE(VX_ULBP, 0x18002);
VG_ABI_VALUE(VX_COMPARE_HAMMING, 0x19000);
VG_ABI_VALUE(VX_COMPARE_L1, 0x19001);
VG_ABI_VALUE(VX_COMPARE_L2, 0x19002);
VG_ABI_VALUE(VX_COMPARE_CCORR, 0x19003);
VG_ABI_VALUE(VX_COMPARE_L2_NORM, 0x19004);
VG_ABI_VALUE(VX_COMPARE_CCORR_NORM, 0x19005);
VG_ABI_VALUE(VX_SCALAR_OP_AND, 0x20000);
VG_ABI_VALUE(VX_SCALAR_OP_OR, 0x20001);
VG_ABI_VALUE(VX_SCALAR_OP_XOR, 0x20002);
VG_ABI_VALUE(VX_SCALAR_OP_NAND, 0x20003);
VG_ABI_VALUE(VX_SCALAR_OP_EQUAL, 0x20004);
VG_ABI_VALUE(VX_SCALAR_OP_NOTEQUAL, 0x20005);
VG_ABI_VALUE(VX_SCALAR_OP_LESS, 0x20006);
VG_ABI_VALUE(VX_SCALAR_OP_LESSEQ, 0x20007);
VG_ABI_VALUE(VX_SCALAR_OP_GREATER, 0x20008);
VG_ABI_VALUE(VX_SCALAR_OP_GREATEREQ, 0x20009);
VG_ABI_VALUE(VX_SCALAR_OP_ADD, 0x2000A);
VG_ABI_VALUE(VX_SCALAR_OP_SUBTRACT, 0x2000B);
VG_ABI_VALUE(VX_SCALAR_OP_MULTIPLY, 0x2000C);
VG_ABI_VALUE(VX_SCALAR_OP_DIVIDE, 0x2000D);
VG_ABI_VALUE(VX_SCALAR_OP_MODULUS, 0x2000E);
VG_ABI_VALUE(VX_SCALAR_OP_MIN, 0x2000F);
VG_ABI_VALUE(VX_SCALAR_OP_MAX, 0x20010);

// ---- Attributes (Khronos vendor, so the value is object type << 8 | index) -------------------------

VG_ABI_VALUE(VX_REFERENCE_COUNT, 0x80000);
VG_ABI_VALUE(VX_REFERENCE_TYPE, 0x80001);
VG_ABI_VALUE(VX_REFERENCE_NAME, 0x80002);

VG_ABI_VALUE(VX_CONTEXT_VENDOR_ID, 0x80100);
VG_ABI_VALUE(VX_CONTEXT_VERSION, 0x80101);
VG_ABI_VALUE(VX_CONTEXT_UNIQUE_KERNELS, 0x80102);
VG_ABI_VALUE(VX_CONTEXT_MODULES, 0x80103);
VG_ABI_VALUE(VX_CONTEXT_REFERENCES, 0x80104);
VG_ABI_VALUE(VX_CONTEXT_IMPLEMENTATION, 0x80105);
VG_ABI_VALUE(VX_CONTEXT_EXTENSIONS_SIZE, 0x80106);
VG_ABI_VALUE(VX_CONTEXT_EXTENSIONS, 0x80107);
VG_ABI_VALUE(VX_CONTEXT_CONVOLUTION_MAX_DIMENSION, 0x80108);
VG_ABI_VALUE(VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION, 0x80109);
VG_ABI_VALUE(VX_CONTEXT_IMMEDIATE_BORDER, 0x8010A);
VG_ABI_VALUE(VX_CONTEXT_UNIQUE_KERNEL_TABLE, 0x8010B);
VG_ABI_VALUE(VX_CONTEXT_IMMEDIATE_BORDER_POLICY, 0x8010C);
VG_ABI_VALUE(VX_CONTEXT_NONLINEAR_MAX_DIMENSION, 0x8010D);
VG_ABI_VALUE(VX_CONTEXT_MAX_TENSOR_DIMS, 0x8010E);

VG_ABI_VALUE(VX_GRAPH_NUMNODES, 0x80200);
VG_ABI_VALUE(VX_GRAPH_PERFORMANCE, 0x80202);
VG_ABI_VALUE(VX_GRAPH_NUMPARAMETERS, 0x80203);
VG_ABI_VALUE(VX_GRAPH_STATE, 0x80204);

VG_ABI_VALUE(VX_NODE_STATUS, 0x80300);
VG_ABI_VALUE(VX_NODE_PERFORMANCE, 0x80301);
VG_ABI_VALUE(VX_NODE_BORDER, 0x80302);
VG_ABI_VALUE(VX_NODE_LOCAL_DATA_SIZE, 0x80303);
VG_ABI_VALUE(VX_NODE_LOCAL_DATA_PTR, 0x80304);
VG_ABI_VALUE(VX_NODE_PARAMETERS, 0x80305);
VG_ABI_VALUE(VX_NODE_IS_REPLICATED, 0x80306);
VG_ABI_VALUE(VX_NODE_REPLICATE_FLAGS, 0x80307);
VG_ABI_VALUE(VX_NODE_VALID_RECT_RESET, 0x80308);

VG_ABI_VALUE(VX_KERNEL_PARAMETERS, 0x80400);
VG_ABI_VALUE(VX_KERNEL_NAME, 0x80401);
VG_ABI_VALUE(VX_KERNEL_ENUM, 0x80402);
VG_ABI_VALUE(VX_KERNEL_LOCAL_DATA_SIZE, 0x80403);

VG_ABI_VALUE(VX_PARAMETER_INDEX, 0x80500);
VG_ABI_VALUE(VX_PARAMETER_DIRECTION, 0x80501);
VG_ABI_VALUE(VX_PARAMETER_TYPE, 0x80502);
VG_ABI_VALUE(VX_PARAMETER_STATE, 0x80503);
VG_ABI_VALUE(VX_PARAMETER_REF, 0x80504);
VG_ABI_VALUE(VX_PARAMETER_META_FORMAT, 0x80505);

VG_ABI_VALUE(VX_DELAY_TYPE, 0x80600);
VG_ABI_VALUE(VX_DELAY_SLOTS, 0x80601);

VG_ABI_VALUE(VX_LUT_TYPE, 0x80700);
VG_ABI_VALUE(VX_LUT_COUNT, 0x80701);
VG_ABI_VALUE(VX_LUT_SIZE, 0x80702);
VG_ABI_VALUE(VX_LUT_OFFSET, 0x80703);

VG_ABI_VALUE(VX_DISTRIBUTION_DIMENSIONS, 0x80800);
VG_ABI_VALUE(VX_DISTRIBUTION_OFFSET, 0x80801);
VG_ABI_VALUE(VX_DISTRIBUTION_RANGE, 0x80802);
VG_ABI_VALUE(VX_DISTRIBUTION_BINS, 0x80803);
VG_ABI_VALUE(VX_DISTRIBUTION_WINDOW, 0x80804);
VG_ABI_VALUE(VX_DISTRIBUTION_SIZE, 0x80805);

VG_ABI_VALUE(VX_PYRAMID_LEVELS, 0x80900);
VG_ABI_VALUE(VX_PYRAMID_SCALE, 0x80901);
VG_ABI_VALUE(VX_PYRAMID_WIDTH, 0x80902);
VG_ABI_VALUE(VX_PYRAMID_HEIGHT, 0x80903);
VG_ABI_VALUE(VX_PYRAMID_FORMAT, 0x80904);

VG_ABI_VALUE(VX_THRESHOLD_TYPE, 0x80A00);
VG_ABI_VALUE(VX_THRESHOLD_INPUT_FORMAT, 0x80A07);
VG_ABI_VALUE(VX_THRESHOLD_OUTPUT_FORMAT, 0x80A08);

VG_ABI_VALUE(VX_MATRIX_TYPE, 0x80B00);
VG_ABI_VALUE(VX_MATRIX_ROWS, 0x80B01);
VG_ABI_VALUE(VX_MATRIX_COLUMNS, 0x80B02);
VG_ABI_VALUE(VX_MATRIX_SIZE, 0x80B03);
VG_ABI_VALUE(VX_MATRIX_ORIGIN, 0x80B04);
VG_ABI_VALUE(VX_MATRIX_PATTERN, 0x80B05);

VG_ABI_VALUE(VX_CONVOLUTION_ROWS, 0x80C00);
VG_ABI_VALUE(VX_CONVOLUTION_COLUMNS, 0x80C01);
VG_ABI_VALUE(VX_CONVOLUTION_SCALE, 0x80C02);
VG_ABI_VALUE(VX_CONVOLUTION_SIZE, 0x80C03);

VG_ABI_VALUE(VX_SCALAR_TYPE, 0x80D00);

VG_ABI_VALUE(VX_ARRAY_ITEMTYPE, 0x80E00);
VG_ABI_VALUE(VX_ARRAY_NUMITEMS, 0x80E01);
VG_ABI_VALUE(VX_ARRAY_CAPACITY, 0x80E02);
VG_ABI_VALUE(VX_ARRAY_ITEMSIZE, 0x80E03);

VG_ABI_VALUE(VX_IMAGE_WIDTH, 0x80F00);
VG_ABI_VALUE(VX_IMAGE_HEIGHT, 0x80F01);
VG_ABI_VALUE(VX_IMAGE_FORMAT, 0x80F02);
VG_ABI_VALUE(VX_IMAGE_PLANES, 0x80F03);
VG_ABI_VALUE(VX_IMAGE_SPACE, 0x80F04);
VG_ABI_VALUE(VX_IMAGE_RANGE, 0x80F05);
VG_ABI_VALUE(VX_IMAGE_MEMORY_TYPE, 0x80F07);
VG_ABI_VALUE(VX_IMAGE_IS_UNIFORM, 0x80F08);
VG_ABI_VALUE(VX_IMAGE_UNIFORM_VALUE, 0x80F09);

VG_ABI_VALUE(VX_REMAP_SOURCE_WIDTH, 0x81000);
VG_ABI_VALUE(VX_REMAP_SOURCE_HEIGHT, 0x81001);
VG_ABI_VALUE(VX_REMAP_DESTINATION_WIDTH, 0x81002);
VG_ABI_VALUE(VX_REMAP_DESTINATION_HEIGHT, 0x81003);

VG_ABI_VALUE(VX_VALID_RECT_CALLBACK, 0x81201);

VG_ABI_VALUE(VX_OBJECT_ARRAY_ITEMTYPE, 0x81300);
VG_ABI_VALUE(VX_OBJECT_ARRAY_NUMITEMS, 0x81301);

VG_ABI_VALUE(VX_TENSOR_NUMBER_OF_DIMS, 0x81500);
VG_ABI_VALUE(VX_TENSOR_DIMS, 0x81501);
VG_ABI_VALUE(VX_TENSOR_DATA_TYPE, 0x81502);
VG_ABI_VALUE(VX_TENSOR_FIXED_POINT_POSITION, 0x81503);

// ---- Image formats (four characters, first in the lowest byte) -------------------------------------

VG_ABI_VALUE(VX_DF_IMAGE_VIRT, 0x54524956u);
VG_ABI_VALUE(VX_DF_IMAGE_RGB, 0x32424752u);
VG_ABI_VALUE(VX_DF_IMAGE_RGBX, 0x41424752u);
VG_ABI_VALUE(VX_DF_IMAGE_NV12, 0x3231564Eu);
VG_ABI_VALUE(VX_DF_IMAGE_NV21, 0x3132564Eu);
VG_ABI_VALUE(VX_DF_IMAGE_UYVY, 0x59565955u);
VG_ABI_VALUE(VX_DF_IMAGE_YUYV, 0x56595559u);
VG_ABI_VALUE(VX_DF_IMAGE_IYUV, 0x56555949u);
VG_ABI_VALUE(VX_DF_IMAGE_YUV4, 0x34565559u);
VG_ABI_VALUE(VX_DF_IMAGE_U1, 0x31303055u);
VG_ABI_VALUE(VX_DF_IMAGE_U8, 0x38303055u);
VG_ABI_VALUE(VX_DF_IMAGE_U16, 0x36313055u);
VG_ABI_VALUE(VX_DF_IMAGE_S16, 0x36313053u);
VG_ABI_VALUE(VX_DF_IMAGE_U32, 0x32333055u);
VG_ABI_VALUE(VX_DF_IMAGE_S32, 0x32333053u);

// ---- Standard kernels -----------------------------------------------------------------------------

VG_ABI_VALUE(VX_LIBRARY_KHR_BASE, 0);
VG_ABI_VALUE(VX_KERNEL_COLOR_CONVERT, 0x01);
VG_ABI_VALUE(VX_KERNEL_CHANNEL_EXTRACT, 0x02);
VG_ABI_VALUE(VX_KERNEL_CHANNEL_COMBINE, 0x03);
VG_ABI_VALUE(VX_KERNEL_SOBEL_3x3, 0x04);
VG_ABI_VALUE(VX_KERNEL_MAGNITUDE, 0x05);
VG_ABI_VALUE(VX_KERNEL_PHASE, 0x06);
VG_ABI_VALUE(VX_KERNEL_SCALE_IMAGE, 0x07);
VG_ABI_VALUE(VX_KERNEL_TABLE_LOOKUP, 0x08);
VG_ABI_VALUE(VX_KERNEL_HISTOGRAM, 0x09);
VG_ABI_VALUE(VX_KERNEL_EQUALIZE_HISTOGRAM, 0x0A);
VG_ABI_VALUE(VX_KERNEL_ABSDIFF, 0x0B);
VG_ABI_VALUE(VX_KERNEL_MEAN_STDDEV, 0x0C);
VG_ABI_VALUE(VX_KERNEL_THRESHOLD, 0x0D);
VG_ABI_VALUE(VX_KERNEL_INTEGRAL_IMAGE, 0x0E);
VG_ABI_VALUE(VX_KERNEL_DILATE_3x3, 0x0F);
VG_ABI_VALUE(VX_KERNEL_ERODE_3x3, 0x10);
VG_ABI_VALUE(VX_KERNEL_MEDIAN_3x3, 0x11);
VG_ABI_VALUE(VX_KERNEL_BOX_3x3, 0x12);
VG_ABI_VALUE(VX_KERNEL_GAUSSIAN_3x3, 0x13);
VG_ABI_VALUE(VX_KERNEL_CUSTOM_CONVOLUTION, 0x14);
VG_ABI_VALUE(VX_KERNEL_GAUSSIAN_PYRAMID, 0x15);
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE, 0x16);
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE_WEIGHTED, 0x17);
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE_SQUARE, 0x18);
VG_ABI_VALUE(VX_KERNEL_MINMAXLOC, 0x19);
VG_ABI_VALUE(VX_KERNEL_CONVERTDEPTH, 0x1A);
VG_ABI_VALUE(VX_KERNEL_CANNY_EDGE_DETECTOR, 0x1B);
VG_ABI_VALUE(VX_KERNEL_AND, 0x1C);
VG_ABI_VALUE(VX_KERNEL_OR, 0x1D);
VG_ABI_VALUE(VX_KERNEL_XOR, 0x1E);
VG_ABI_VALUE(VX_KERNEL_NOT, 0x1F);
VG_ABI_VALUE(VX_KERNEL_MULTIPLY, 0x20);
VG_ABI_VALUE(VX_KERNEL_ADD, 0x21);
VG_ABI_VALUE(VX_KERNEL_SUBTRACT, 0x22);
VG_ABI_VALUE(VX_KERNEL_WARP_AFFINE, 0x23);
VG_ABI_VALUE(VX_KERNEL_WARP_PERSPECTIVE, 0x24);
VG_ABI_VALUE(VX_KERNEL_HARRIS_CORNERS, 0x25);
VG_ABI_VALUE(VX_KERNEL_FAST_CORNERS, 0x26);
VG_ABI_VALUE(VX_KERNEL_OPTICAL_FLOW_PYR_LK, 0x27);
VG_ABI_VALUE(VX_KERNEL_REMAP, 0x28);
VG_ABI_VALUE(VX_KERNEL_HALFSCALE_GAUSSIAN, 0x29);
VG_ABI_VALUE(VX_KERNEL_MAX_1_0, 0x2A);
VG_ABI_VALUE(VX_KERNEL_LAPLACIAN_PYRAMID, 0x2A);
VG_ABI_VALUE(VX_KERNEL_LAPLACIAN_RECONSTRUCT, 0x2B);
VG_ABI_VALUE(VX_KERNEL_NON_LINEAR_FILTER, 0x2C);
VG_ABI_VALUE(VX_KERNEL_MAX_1_1, 0x2D);
VG_ABI_VALUE(VX_KERNEL_MATCH_TEMPLATE, 0x2D);
VG_ABI_VALUE(VX_KERNEL_LBP, 0x2E);
VG_ABI_VALUE(VX_KERNEL_HOUGH_LINES_P, 0x2F);
VG_ABI_VALUE(VX_KERNEL_TENSOR_MULTIPLY, 0x30);
VG_ABI_VALUE(VX_KERNEL_TENSOR_ADD, 0x31);
VG_ABI_VALUE(VX_KERNEL_TENSOR_SUBTRACT, 0x32);
VG_ABI_VALUE(VX_KERNEL_TENSOR_TABLE_LOOKUP, 0x33);
VG_ABI_VALUE(VX_KERNEL_TENSOR_TRANSPOSE, 0x34);
VG_ABI_VALUE(VX_KERNEL_TENSOR_CONVERT_DEPTH, 0x35);
VG_ABI_VALUE(VX_KERNEL_TENSOR_MATRIX_MULTIPLY, 0x36);
VG_ABI_VALUE(VX_KERNEL_COPY, 0x37);
VG_ABI_VALUE(VX_KERNEL_NON_MAX_SUPPRESSION, 0x38);
VG_ABI_VALUE(VX_KERNEL_SCALAR_OPERATION, 0x39);
VG_ABI_VALUE(VX_KERNEL_HOG_FEATURES, 0x3A);
VG_ABI_VALUE(VX_KERNEL_HOG_CELLS, 0x3B);
VG_ABI_VALUE(VX_KERNEL_BILATERAL_FILTER, 0x3C);
VG_ABI_VALUE(VX_KERNEL_SELECT, 0x3D);
VG_ABI_VALUE(VX_KERNEL_MAX_1_2, 0x3E);
VG_ABI_VALUE(VX_KERNEL_MAX, 0x3E);
VG_ABI_VALUE(VX_KERNEL_MIN, 0x3F);
VG_ABI_VALUE(VX_KERNEL_WEIGHTED_AVERAGE, 0x40);
VG_ABI_VALUE(VX_KERNEL_SWAP, 0x41);
VG_ABI_VALUE(VX_KERNEL_MOVE, 0x42);

// ---- Structures: members, offsets, sizes, alignment -------------------------------------------------
// No public structure holds a pointer or a vx_size, so offsets and sizes are the same on LP64 and
// ILP32; only the alignment of 64-bit members differs (4 on 32-bit x86, 8 elsewhere).

VG_ABI_MEMBER(vx_imagepatch_addressing_t, dim_x, vx_uint32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, dim_y, vx_uint32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, stride_x, vx_int32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, stride_y, vx_int32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, scale_x, vx_uint32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, scale_y, vx_uint32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, step_x, vx_uint32);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, step_y, vx_uint16);
VG_ABI_MEMBER(vx_imagepatch_addressing_t, stride_x_bits, vx_uint16);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, dim_x, 0);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, dim_y, 4);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, stride_x, 8);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, stride_y, 12);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, scale_x, 16);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, scale_y, 20);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, step_x, 24);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, step_y, 28);
VG_ABI_OFFSET(vx_imagepatch_addressing_t, stride_x_bits, 30);
static_assert(sizeof(vx_imagepatch_addressing_t) == 32 && alignof(vx_imagepatch_addressing_t) == 4);

VG_ABI_OFFSET(vx_perf_t, tmp, 0);
VG_ABI_OFFSET(vx_perf_t, beg, 8);
VG_ABI_OFFSET(vx_perf_t, end, 16);
VG_ABI_OFFSET(vx_perf_t, sum, 24);
VG_ABI_OFFSET(vx_perf_t, avg, 32);
VG_ABI_OFFSET(vx_perf_t, min, 40);
VG_ABI_OFFSET(vx_perf_t, num, 48);
VG_ABI_OFFSET(vx_perf_t, max, 56);
VG_ABI_MEMBER(vx_perf_t, tmp, vx_uint64);
VG_ABI_MEMBER(vx_perf_t, max, vx_uint64);
static_assert(sizeof(vx_perf_t) == 64);
#if defined(__i386__) || defined(_M_IX86)
static_assert(alignof(vx_perf_t) == 4);
#else
static_assert(alignof(vx_perf_t) == 8);
#endif

VG_ABI_MEMBER(vx_hough_lines_p_t, rho, vx_float32);
VG_ABI_MEMBER(vx_hough_lines_p_t, threshold, vx_int32);
VG_ABI_MEMBER(vx_hough_lines_p_t, theta_min, vx_float32);
VG_ABI_OFFSET(vx_hough_lines_p_t, rho, 0);
VG_ABI_OFFSET(vx_hough_lines_p_t, theta, 4);
VG_ABI_OFFSET(vx_hough_lines_p_t, threshold, 8);
VG_ABI_OFFSET(vx_hough_lines_p_t, line_length, 12);
VG_ABI_OFFSET(vx_hough_lines_p_t, line_gap, 16);
VG_ABI_OFFSET(vx_hough_lines_p_t, theta_max, 20);
VG_ABI_OFFSET(vx_hough_lines_p_t, theta_min, 24);
static_assert(sizeof(vx_hough_lines_p_t) == 28 && alignof(vx_hough_lines_p_t) == 4);

VG_ABI_MEMBER(vx_line2d_t, start_x, vx_float32);
VG_ABI_OFFSET(vx_line2d_t, start_x, 0);
VG_ABI_OFFSET(vx_line2d_t, start_y, 4);
VG_ABI_OFFSET(vx_line2d_t, end_x, 8);
VG_ABI_OFFSET(vx_line2d_t, end_y, 12);
static_assert(sizeof(vx_line2d_t) == 16 && alignof(vx_line2d_t) == 4);

VG_ABI_MEMBER(vx_tensor_matrix_multiply_params_t, transpose_input1, vx_bool);
VG_ABI_OFFSET(vx_tensor_matrix_multiply_params_t, transpose_input1, 0);
VG_ABI_OFFSET(vx_tensor_matrix_multiply_params_t, transpose_input2, 4);
VG_ABI_OFFSET(vx_tensor_matrix_multiply_params_t, transpose_input3, 8);
static_assert(sizeof(vx_tensor_matrix_multiply_params_t) == 12);

VG_ABI_MEMBER(vx_kernel_info_t, enumeration, vx_enum);
VG_ABI_MEMBER(vx_kernel_info_t, name, vx_char[256]);
VG_ABI_OFFSET(vx_kernel_info_t, enumeration, 0);
VG_ABI_OFFSET(vx_kernel_info_t, name, 4);
static_assert(sizeof(vx_kernel_info_t) == 260 && alignof(vx_kernel_info_t) == 4);

VG_ABI_MEMBER(vx_keypoint_t, x, vx_int32);
VG_ABI_MEMBER(vx_keypoint_t, strength, vx_float32);
VG_ABI_MEMBER(vx_keypoint_t, tracking_status, vx_int32);
VG_ABI_MEMBER(vx_keypoint_t, error, vx_float32);
VG_ABI_OFFSET(vx_keypoint_t, x, 0);
VG_ABI_OFFSET(vx_keypoint_t, y, 4);
VG_ABI_OFFSET(vx_keypoint_t, strength, 8);
VG_ABI_OFFSET(vx_keypoint_t, scale, 12);
VG_ABI_OFFSET(vx_keypoint_t, orientation, 16);
VG_ABI_OFFSET(vx_keypoint_t, tracking_status, 20);
VG_ABI_OFFSET(vx_keypoint_t, error, 24);
static_assert(sizeof(vx_keypoint_t) == 28 && alignof(vx_keypoint_t) == 4);

VG_ABI_MEMBER(vx_rectangle_t, start_x, vx_uint32);
VG_ABI_OFFSET(vx_rectangle_t, start_x, 0);
VG_ABI_OFFSET(vx_rectangle_t, start_y, 4);
VG_ABI_OFFSET(vx_rectangle_t, end_x, 8);
VG_ABI_OFFSET(vx_rectangle_t, end_y, 12);
static_assert(sizeof(vx_rectangle_t) == 16 && alignof(vx_rectangle_t) == 4);

VG_ABI_MEMBER(vx_coordinates2d_t, x, vx_uint32);
VG_ABI_OFFSET(vx_coordinates2d_t, y, 4);
static_assert(sizeof(vx_coordinates2d_t) == 8);
VG_ABI_MEMBER(vx_coordinates2df_t, x, vx_float32);
VG_ABI_OFFSET(vx_coordinates2df_t, y, 4);
static_assert(sizeof(vx_coordinates2df_t) == 8);
VG_ABI_MEMBER(vx_coordinates3d_t, z, vx_uint32);
VG_ABI_OFFSET(vx_coordinates3d_t, y, 4);
VG_ABI_OFFSET(vx_coordinates3d_t, z, 8);
static_assert(sizeof(vx_coordinates3d_t) == 12);

VG_ABI_MEMBER(vx_pixel_value_t, RGB, vx_uint8[3]);
VG_ABI_MEMBER(vx_pixel_value_t, RGBX, vx_uint8[4]);
VG_ABI_MEMBER(vx_pixel_value_t, YUV, vx_uint8[3]);
VG_ABI_MEMBER(vx_pixel_value_t, U1, vx_bool);
VG_ABI_MEMBER(vx_pixel_value_t, U8, vx_uint8);
VG_ABI_MEMBER(vx_pixel_value_t, U16, vx_uint16);
VG_ABI_MEMBER(vx_pixel_value_t, S16, vx_int16);
VG_ABI_MEMBER(vx_pixel_value_t, U32, vx_uint32);
VG_ABI_MEMBER(vx_pixel_value_t, S32, vx_int32);
VG_ABI_MEMBER(vx_pixel_value_t, reserved, vx_uint8[16]);
static_assert(std::is_union_v<vx_pixel_value_t>);
static_assert(sizeof(vx_pixel_value_t) == 16 && alignof(vx_pixel_value_t) == 4);

VG_ABI_MEMBER(vx_hog_t, cell_width, vx_int32);
VG_ABI_MEMBER(vx_hog_t, window_stride, vx_int32);
VG_ABI_MEMBER(vx_hog_t, threshold, vx_float32);
VG_ABI_OFFSET(vx_hog_t, cell_width, 0);
VG_ABI_OFFSET(vx_hog_t, cell_height, 4);
VG_ABI_OFFSET(vx_hog_t, block_width, 8);
VG_ABI_OFFSET(vx_hog_t, block_height, 12);
VG_ABI_OFFSET(vx_hog_t, block_stride, 16);
VG_ABI_OFFSET(vx_hog_t, num_bins, 20);
VG_ABI_OFFSET(vx_hog_t, window_width, 24);
VG_ABI_OFFSET(vx_hog_t, window_height, 28);
VG_ABI_OFFSET(vx_hog_t, window_stride, 32);
VG_ABI_OFFSET(vx_hog_t, threshold, 36);
static_assert(sizeof(vx_hog_t) == 40 && alignof(vx_hog_t) == 4);

VG_ABI_MEMBER(vx_border_t, mode, vx_enum);
VG_ABI_MEMBER(vx_border_t, constant_value, vx_pixel_value_t);
VG_ABI_OFFSET(vx_border_t, mode, 0);
VG_ABI_OFFSET(vx_border_t, constant_value, 4);
static_assert(sizeof(vx_border_t) == 20 && alignof(vx_border_t) == 4);

static_assert(std::is_standard_layout_v<vx_imagepatch_addressing_t> && std::is_trivial_v<vx_imagepatch_addressing_t>);
static_assert(std::is_standard_layout_v<vx_border_t> && std::is_trivial_v<vx_border_t>);
static_assert(std::is_standard_layout_v<vx_kernel_info_t> && std::is_trivial_v<vx_kernel_info_t>);

// ---- Neural network extension (vx_khr_nn.h) ---------------------------------------------------------

VG_ABI_VALUE(VX_LIBRARY_KHR_NN_EXTENSION, 0x1);
VG_ABI_VALUE(VX_KERNEL_CONVOLUTION_LAYER, 0x1000);
VG_ABI_VALUE(VX_KERNEL_FULLY_CONNECTED_LAYER, 0x1001);
VG_ABI_VALUE(VX_KERNEL_POOLING_LAYER, 0x1002);
VG_ABI_VALUE(VX_KERNEL_SOFTMAX_LAYER, 0x1003);
VG_ABI_VALUE(VX_KERNEL_ACTIVATION_LAYER, 0x1005);
VG_ABI_VALUE(VX_KERNEL_ROI_POOLING_LAYER, 0x1006);
VG_ABI_VALUE(VX_KERNEL_DECONVOLUTION_LAYER, 0x1007);
VG_ABI_VALUE(VX_KERNEL_LOCAL_RESPONSE_NORMALIZATION_LAYER, 0x1008);

VG_ABI_VALUE(VX_ENUM_NN_ROUNDING_TYPE, 0x1A);
VG_ABI_VALUE(VX_ENUM_NN_POOLING_TYPE, 0x1B);
VG_ABI_VALUE(VX_ENUM_NN_NORMALIZATION_TYPE, 0x1C);
VG_ABI_VALUE(VX_ENUM_NN_ACTIVATION_FUNCTION_TYPE, 0x1D);
VG_ABI_VALUE(VX_NN_DS_SIZE_ROUNDING_FLOOR, 0x1A000);
VG_ABI_VALUE(VX_NN_DS_SIZE_ROUNDING_CEILING, 0x1A001);
VG_ABI_VALUE(VX_NN_POOLING_MAX, 0x1B000);
VG_ABI_VALUE(VX_NN_POOLING_AVG, 0x1B001);
VG_ABI_VALUE(VX_NN_NORMALIZATION_SAME_MAP, 0x1C000);
VG_ABI_VALUE(VX_NN_NORMALIZATION_ACROSS_MAPS, 0x1C001);
VG_ABI_VALUE(VX_NN_ACTIVATION_LOGISTIC, 0x1D000);
VG_ABI_VALUE(VX_NN_ACTIVATION_HYPERBOLIC_TAN, 0x1D001);
VG_ABI_VALUE(VX_NN_ACTIVATION_RELU, 0x1D002);
VG_ABI_VALUE(VX_NN_ACTIVATION_BRELU, 0x1D003);
VG_ABI_VALUE(VX_NN_ACTIVATION_SOFTRELU, 0x1D004);
VG_ABI_VALUE(VX_NN_ACTIVATION_ABS, 0x1D005);
VG_ABI_VALUE(VX_NN_ACTIVATION_SQUARE, 0x1D006);
VG_ABI_VALUE(VX_NN_ACTIVATION_SQRT, 0x1D007);
VG_ABI_VALUE(VX_NN_ACTIVATION_LINEAR, 0x1D008);

VG_ABI_VALUE(VX_TYPE_NN_CONVOLUTION_PARAMS, 0x025);
VG_ABI_VALUE(VX_TYPE_NN_DECONVOLUTION_PARAMS, 0x026);
VG_ABI_VALUE(VX_TYPE_NN_ROI_POOL_PARAMS, 0x027);

VG_ABI_MEMBER(vx_nn_convolution_params_t, padding_x, vx_size);
VG_ABI_MEMBER(vx_nn_convolution_params_t, padding_y, vx_size);
VG_ABI_MEMBER(vx_nn_convolution_params_t, overflow_policy, vx_enum);
VG_ABI_MEMBER(vx_nn_convolution_params_t, rounding_policy, vx_enum);
VG_ABI_MEMBER(vx_nn_convolution_params_t, down_scale_size_rounding, vx_enum);
VG_ABI_MEMBER(vx_nn_convolution_params_t, dilation_x, vx_size);
VG_ABI_MEMBER(vx_nn_convolution_params_t, dilation_y, vx_size);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, padding_x, vx_size);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, padding_y, vx_size);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, overflow_policy, vx_enum);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, rounding_policy, vx_enum);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, a_x, vx_size);
VG_ABI_MEMBER(vx_nn_deconvolution_params_t, a_y, vx_size);
VG_ABI_MEMBER(vx_nn_roi_pool_params_t, pool_type, vx_enum);
VG_ABI_OFFSET(vx_nn_convolution_params_t, padding_x, 0);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, padding_x, 0);
VG_ABI_OFFSET(vx_nn_roi_pool_params_t, pool_type, 0);
static_assert(sizeof(vx_nn_roi_pool_params_t) == 4 && alignof(vx_nn_roi_pool_params_t) == 4);
#if UINTPTR_MAX == 0xFFFFFFFFu
VG_ABI_OFFSET(vx_nn_convolution_params_t, padding_y, 4);
VG_ABI_OFFSET(vx_nn_convolution_params_t, overflow_policy, 8);
VG_ABI_OFFSET(vx_nn_convolution_params_t, rounding_policy, 12);
VG_ABI_OFFSET(vx_nn_convolution_params_t, down_scale_size_rounding, 16);
VG_ABI_OFFSET(vx_nn_convolution_params_t, dilation_x, 20);
VG_ABI_OFFSET(vx_nn_convolution_params_t, dilation_y, 24);
static_assert(sizeof(vx_nn_convolution_params_t) == 28 && alignof(vx_nn_convolution_params_t) == 4);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, padding_y, 4);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, overflow_policy, 8);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, rounding_policy, 12);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, a_x, 16);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, a_y, 20);
static_assert(sizeof(vx_nn_deconvolution_params_t) == 24 && alignof(vx_nn_deconvolution_params_t) == 4);
#else
VG_ABI_OFFSET(vx_nn_convolution_params_t, padding_y, 8);
VG_ABI_OFFSET(vx_nn_convolution_params_t, overflow_policy, 16);
VG_ABI_OFFSET(vx_nn_convolution_params_t, rounding_policy, 20);
VG_ABI_OFFSET(vx_nn_convolution_params_t, down_scale_size_rounding, 24);
VG_ABI_OFFSET(vx_nn_convolution_params_t, dilation_x, 32);  // 4 bytes of padding before it
VG_ABI_OFFSET(vx_nn_convolution_params_t, dilation_y, 40);
static_assert(sizeof(vx_nn_convolution_params_t) == 48 && alignof(vx_nn_convolution_params_t) == 8);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, padding_y, 8);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, overflow_policy, 16);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, rounding_policy, 20);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, a_x, 24);
VG_ABI_OFFSET(vx_nn_deconvolution_params_t, a_y, 32);
static_assert(sizeof(vx_nn_deconvolution_params_t) == 40 && alignof(vx_nn_deconvolution_params_t) == 8);
#endif
static_assert(std::is_standard_layout_v<vx_nn_convolution_params_t> && std::is_trivial_v<vx_nn_convolution_params_t>);
static_assert(std::is_standard_layout_v<vx_nn_deconvolution_params_t> && std::is_trivial_v<vx_nn_deconvolution_params_t>);

// ---- Compatibility names (vx_compatibility.h) ----------------------------------------------------------

// Renamed: the old name is the current one.
VG_ABI_VALUE(VX_TYPE_SCALAR_MAX, 0x011);
VG_ABI_VALUE(VX_ENUM_BORDER_MODE, 0x0C);
VG_ABI_VALUE(VX_BORDER_MODE_CONSTANT, 0x0C001);
VG_ABI_VALUE(VX_BORDER_MODE_UNSUPPORTED_POLICY_RETURN_ERROR, 0x14001);
VG_ABI_VALUE(VX_REF_ATTRIBUTE_NAME, VX_REFERENCE_NAME);
VG_ABI_VALUE(VX_CONTEXT_ATTRIBUTE_IMMEDIATE_BORDER_MODE, 0x8010A);
VG_ABI_VALUE(VX_CONTEXT_ATTRIBUTE_CONVOLUTION_MAXIMUM_DIMENSION, 0x80108);
VG_ABI_VALUE(VX_NODE_ATTRIBUTE_BORDER_MODE, 0x80302);
VG_ABI_VALUE(VX_IMAGE_ATTRIBUTE_WIDTH, 0x80F00);
VG_ABI_VALUE(VX_THRESHOLD_ATTRIBUTE_TYPE, 0x80A00);
VG_ABI_VALUE(VX_DELAY_ATTRIBUTE_SLOTS, VX_DELAY_SLOTS);
VG_ABI_VALUE(VX_INTERPOLATION_TYPE_BILINEAR, VX_INTERPOLATION_BILINEAR);
VG_ABI_VALUE(VX_IMPORT_TYPE_HOST, 0x0E001);
VG_ABI_VALUE(VX_TYPE_OBJECT_MAX, 0xBFF);
VG_ABI_VALUE(VX_TYPE_STRUCT_MAX, 0x0FF);
static_assert(std::is_same_v<vx_border_mode_t, vx_border_t>);
static_assert(std::is_same_v<enum vx_border_mode_e, enum vx_border_e>);
static_assert(std::is_same_v<enum vx_import_type_e, enum vx_memory_type_e>);
// Values with no current name.
VG_ABI_VALUE(VX_KERNEL_ATTRIBUTE_LOCAL_DATA_PTR, 0x80404);
VG_ABI_VALUE(VX_GRAPH_ATTRIBUTE_STATUS, 0x80201);
VG_ABI_VALUE(VX_IMAGE_SIZE, 0x80F06);
VG_ABI_VALUE(VX_IMAGE_ATTRIBUTE_SIZE, 0x80F06);
VG_ABI_VALUE(VX_META_FORMAT_ATTRIBUTE_DELTA_RECTANGLE, 0x81200);
VG_ABI_VALUE(VX_HINT_SERIALIZE, 0x02000);
VG_ABI_VALUE(VX_THRESHOLD_THRESHOLD_VALUE, 0x80A01);
VG_ABI_VALUE(VX_THRESHOLD_THRESHOLD_LOWER, 0x80A02);
VG_ABI_VALUE(VX_THRESHOLD_THRESHOLD_UPPER, 0x80A03);
VG_ABI_VALUE(VX_THRESHOLD_TRUE_VALUE, 0x80A04);
VG_ABI_VALUE(VX_THRESHOLD_FALSE_VALUE, 0x80A05);
VG_ABI_VALUE(VX_THRESHOLD_DATA_TYPE, 0x80A06);
VG_ABI_VALUE(VX_KERNEL_INVALID, 0x00);
VG_ABI_VALUE(VX_KERNEL_NORMALIZATION_LAYER, 0x1004);
// Also core enumerators here; the macros keep the enum type.
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE, 0x16);
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE_WEIGHTED, 0x17);
VG_ABI_VALUE(VX_KERNEL_ACCUMULATE_SQUARE, 0x18);
VG_ABI_VALUE(VX_BIDIRECTIONAL, 0x00002);
static_assert(std::is_same_v<decltype(VX_BIDIRECTIONAL), enum vx_direction_e>);
static_assert(std::is_same_v<decltype(VX_KERNEL_ACCUMULATE), enum vx_kernel_e>);

VG_ABI_MEMBER(vx_delta_rectangle_t, delta_start_x, vx_int32);
VG_ABI_MEMBER(vx_delta_rectangle_t, delta_end_y, vx_int32);
VG_ABI_OFFSET(vx_delta_rectangle_t, delta_start_x, 0);
VG_ABI_OFFSET(vx_delta_rectangle_t, delta_start_y, 4);
VG_ABI_OFFSET(vx_delta_rectangle_t, delta_end_x, 8);
VG_ABI_OFFSET(vx_delta_rectangle_t, delta_end_y, 12);
static_assert(sizeof(vx_delta_rectangle_t) == 16 && alignof(vx_delta_rectangle_t) == 4);

static_assert(std::is_same_v<vx_kernel_input_validate_f, vx_status (*)(vx_node, vx_uint32)>);
static_assert(std::is_same_v<vx_kernel_output_validate_f, vx_status (*)(vx_node, vx_uint32, vx_meta_format)>);

// ---- Callback signatures --------------------------------------------------------------------------

static_assert(std::is_same_v<vx_nodecomplete_f, vx_action (*)(vx_node)>);
static_assert(std::is_same_v<vx_publish_kernels_f, vx_status (*)(vx_context)>);
static_assert(std::is_same_v<vx_unpublish_kernels_f, vx_status (*)(vx_context)>);
static_assert(std::is_same_v<vx_kernel_f, vx_status (*)(vx_node, const vx_reference*, vx_uint32)>);
static_assert(std::is_same_v<vx_kernel_initialize_f, vx_status (*)(vx_node, const vx_reference*, vx_uint32)>);
static_assert(std::is_same_v<vx_kernel_deinitialize_f, vx_status (*)(vx_node, const vx_reference*, vx_uint32)>);
static_assert(
    std::is_same_v<vx_kernel_validate_f, vx_status (*)(vx_node, const vx_reference*, vx_uint32, vx_meta_format*)>);
static_assert(std::is_same_v<vx_kernel_image_valid_rectangle_f,
                             vx_status (*)(vx_node, vx_uint32, const vx_rectangle_t* const*, vx_rectangle_t* const*)>);
static_assert(std::is_same_v<vx_log_callback_f, void (*)(vx_context, vx_reference, vx_status, const vx_char*)>);

// ---- Runtime checks ---------------------------------------------------------------------------------

TEST(OpenvxAbi, PointerWideTypesFollowTheTarget) {
  const std::size_t pointer = kPointers32 ? 4u : 8u;
  EXPECT_EQ(sizeof(void*), pointer);
  EXPECT_EQ(sizeof(vx_size), pointer);
  EXPECT_EQ(sizeof(vx_map_id), pointer);
  EXPECT_EQ(sizeof(vx_reference), pointer);
  EXPECT_EQ(sizeof(vx_image), pointer);
  EXPECT_EQ(sizeof(vx_tensor), pointer);
  EXPECT_EQ(sizeof(vx_enum), 4u);
  EXPECT_EQ(sizeof(vx_bool), 4u);
  EXPECT_EQ(sizeof(vx_df_image), 4u);
}

TEST(OpenvxAbi, StructureSizes) {
  EXPECT_EQ(sizeof(vx_imagepatch_addressing_t), 32u);
  EXPECT_EQ(sizeof(vx_perf_t), 64u);
  EXPECT_EQ(sizeof(vx_hough_lines_p_t), 28u);
  EXPECT_EQ(sizeof(vx_line2d_t), 16u);
  EXPECT_EQ(sizeof(vx_tensor_matrix_multiply_params_t), 12u);
  EXPECT_EQ(sizeof(vx_kernel_info_t), 260u);
  EXPECT_EQ(sizeof(vx_keypoint_t), 28u);
  EXPECT_EQ(sizeof(vx_rectangle_t), 16u);
  EXPECT_EQ(sizeof(vx_coordinates2d_t), 8u);
  EXPECT_EQ(sizeof(vx_coordinates2df_t), 8u);
  EXPECT_EQ(sizeof(vx_coordinates3d_t), 12u);
  EXPECT_EQ(sizeof(vx_pixel_value_t), 16u);
  EXPECT_EQ(sizeof(vx_hog_t), 40u);
  EXPECT_EQ(sizeof(vx_border_t), 20u);
  EXPECT_EQ(sizeof(vx_nn_convolution_params_t), kPointers32 ? 28u : 48u);
  EXPECT_EQ(sizeof(vx_nn_deconvolution_params_t), kPointers32 ? 24u : 40u);
  EXPECT_EQ(sizeof(vx_nn_roi_pool_params_t), 4u);
  EXPECT_EQ(sizeof(vx_delta_rectangle_t), 16u);
}

TEST(OpenvxAbi, InitializerMacrosZeroEveryMember) {
  const vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  const vx_imagepatch_addressing_t zero_addr{};
  EXPECT_EQ(std::memcmp(&addr, &zero_addr, sizeof addr), 0);
  const vx_perf_t perf = VX_PERF_INIT;
  EXPECT_EQ(perf.tmp + perf.beg + perf.end + perf.sum + perf.avg + perf.min + perf.num + perf.max, 0u);
}

TEST(OpenvxAbi, PixelValueMembersShareStorage) {
  vx_pixel_value_t value{};
  value.U32 = 0x04030201u;
  EXPECT_EQ(value.RGBX[0] | value.RGBX[1] << 8 | value.RGBX[2] << 16 | value.RGBX[3] << 24, 0x04030201);
  value.S16 = -2;
  EXPECT_EQ(value.U16, 0xFFFEu);
  vx_border_t border{};
  border.mode = VX_BORDER_CONSTANT;
  border.constant_value.U8 = 9u;
  unsigned char bytes[sizeof border];
  std::memcpy(bytes, &border, sizeof border);
  EXPECT_EQ(bytes[4], 9u);  // the value follows the 4-byte mode
}

TEST(OpenvxAbi, StatusCodesAreContiguousAndDistinct) {
  const vx_status codes[] = {
      VX_ERROR_REFERENCE_NONZERO, VX_ERROR_MULTIPLE_WRITERS, VX_ERROR_GRAPH_ABANDONED, VX_ERROR_GRAPH_SCHEDULED,
      VX_ERROR_INVALID_SCOPE,     VX_ERROR_INVALID_NODE,     VX_ERROR_INVALID_GRAPH,   VX_ERROR_INVALID_TYPE,
      VX_ERROR_INVALID_VALUE,     VX_ERROR_INVALID_DIMENSION, VX_ERROR_INVALID_FORMAT, VX_ERROR_INVALID_LINK,
      VX_ERROR_INVALID_REFERENCE, VX_ERROR_INVALID_MODULE,   VX_ERROR_INVALID_PARAMETERS, VX_ERROR_OPTIMIZED_AWAY,
      VX_ERROR_NO_MEMORY,         VX_ERROR_NO_RESOURCES,     VX_ERROR_NOT_COMPATIBLE,  VX_ERROR_NOT_ALLOCATED,
      VX_ERROR_NOT_SUFFICIENT,    VX_ERROR_NOT_SUPPORTED,    VX_ERROR_NOT_IMPLEMENTED, VX_FAILURE,
      VX_SUCCESS};
  const std::set<vx_status> distinct(std::begin(codes), std::end(codes));
  EXPECT_EQ(distinct.size(), std::size(codes));
  EXPECT_EQ(*distinct.begin(), VX_STATUS_MIN + 1);
  EXPECT_EQ(*distinct.rbegin(), VX_SUCCESS);
}

TEST(OpenvxAbi, StandardKernelIdsAreDistinctAndInTheKhronosLibrary) {
  const vx_enum kernels[] = {
      VX_KERNEL_COLOR_CONVERT,       VX_KERNEL_CHANNEL_EXTRACT,       VX_KERNEL_CHANNEL_COMBINE,
      VX_KERNEL_SOBEL_3x3,           VX_KERNEL_MAGNITUDE,             VX_KERNEL_PHASE,
      VX_KERNEL_SCALE_IMAGE,         VX_KERNEL_TABLE_LOOKUP,          VX_KERNEL_HISTOGRAM,
      VX_KERNEL_EQUALIZE_HISTOGRAM,  VX_KERNEL_ABSDIFF,               VX_KERNEL_MEAN_STDDEV,
      VX_KERNEL_THRESHOLD,           VX_KERNEL_INTEGRAL_IMAGE,        VX_KERNEL_DILATE_3x3,
      VX_KERNEL_ERODE_3x3,           VX_KERNEL_MEDIAN_3x3,            VX_KERNEL_BOX_3x3,
      VX_KERNEL_GAUSSIAN_3x3,        VX_KERNEL_CUSTOM_CONVOLUTION,    VX_KERNEL_GAUSSIAN_PYRAMID,
      VX_KERNEL_ACCUMULATE,          VX_KERNEL_ACCUMULATE_WEIGHTED,   VX_KERNEL_ACCUMULATE_SQUARE,
      VX_KERNEL_MINMAXLOC,           VX_KERNEL_CONVERTDEPTH,          VX_KERNEL_CANNY_EDGE_DETECTOR,
      VX_KERNEL_AND,                 VX_KERNEL_OR,                    VX_KERNEL_XOR,
      VX_KERNEL_NOT,                 VX_KERNEL_MULTIPLY,              VX_KERNEL_ADD,
      VX_KERNEL_SUBTRACT,            VX_KERNEL_WARP_AFFINE,           VX_KERNEL_WARP_PERSPECTIVE,
      VX_KERNEL_HARRIS_CORNERS,      VX_KERNEL_FAST_CORNERS,          VX_KERNEL_OPTICAL_FLOW_PYR_LK,
      VX_KERNEL_REMAP,               VX_KERNEL_HALFSCALE_GAUSSIAN,    VX_KERNEL_LAPLACIAN_PYRAMID,
      VX_KERNEL_LAPLACIAN_RECONSTRUCT, VX_KERNEL_NON_LINEAR_FILTER,   VX_KERNEL_MATCH_TEMPLATE,
      VX_KERNEL_LBP,                 VX_KERNEL_HOUGH_LINES_P,         VX_KERNEL_TENSOR_MULTIPLY,
      VX_KERNEL_TENSOR_ADD,          VX_KERNEL_TENSOR_SUBTRACT,       VX_KERNEL_TENSOR_TABLE_LOOKUP,
      VX_KERNEL_TENSOR_TRANSPOSE,    VX_KERNEL_TENSOR_CONVERT_DEPTH,  VX_KERNEL_TENSOR_MATRIX_MULTIPLY,
      VX_KERNEL_COPY,                VX_KERNEL_NON_MAX_SUPPRESSION,   VX_KERNEL_SCALAR_OPERATION,
      VX_KERNEL_HOG_FEATURES,        VX_KERNEL_HOG_CELLS,             VX_KERNEL_BILATERAL_FILTER,
      VX_KERNEL_SELECT,              VX_KERNEL_MAX,                   VX_KERNEL_MIN,
      VX_KERNEL_WEIGHTED_AVERAGE};
  const std::set<vx_enum> distinct(std::begin(kernels), std::end(kernels));
  EXPECT_EQ(distinct.size(), std::size(kernels));
  EXPECT_EQ(distinct.size(), 0x40u);  // 0x01 through 0x40, no gaps
  for (vx_enum kernel : kernels) {
    EXPECT_EQ(VX_VENDOR(kernel), static_cast<vx_uint32>(VX_ID_KHRONOS));
    EXPECT_EQ(VX_LIBRARY(kernel), static_cast<vx_uint32>(VX_LIBRARY_KHR_BASE));
    EXPECT_GE(kernel, 0x01);
    EXPECT_LE(kernel, 0x40);
  }
}

TEST(OpenvxAbi, AttributesCarryTheirObjectType) {
  struct Case {
    vx_enum attribute;
    vx_enum type;
  };
  const Case cases[] = {
      {VX_REFERENCE_NAME, VX_TYPE_REFERENCE},      {VX_CONTEXT_MAX_TENSOR_DIMS, VX_TYPE_CONTEXT},
      {VX_GRAPH_STATE, VX_TYPE_GRAPH},             {VX_NODE_VALID_RECT_RESET, VX_TYPE_NODE},
      {VX_KERNEL_LOCAL_DATA_SIZE, VX_TYPE_KERNEL}, {VX_PARAMETER_META_FORMAT, VX_TYPE_PARAMETER},
      {VX_DELAY_SLOTS, VX_TYPE_DELAY},             {VX_LUT_OFFSET, VX_TYPE_LUT},
      {VX_DISTRIBUTION_SIZE, VX_TYPE_DISTRIBUTION}, {VX_PYRAMID_FORMAT, VX_TYPE_PYRAMID},
      {VX_THRESHOLD_OUTPUT_FORMAT, VX_TYPE_THRESHOLD}, {VX_MATRIX_PATTERN, VX_TYPE_MATRIX},
      {VX_CONVOLUTION_SIZE, VX_TYPE_CONVOLUTION},  {VX_SCALAR_TYPE, VX_TYPE_SCALAR},
      {VX_ARRAY_ITEMSIZE, VX_TYPE_ARRAY},          {VX_IMAGE_UNIFORM_VALUE, VX_TYPE_IMAGE},
      {VX_REMAP_DESTINATION_HEIGHT, VX_TYPE_REMAP}, {VX_VALID_RECT_CALLBACK, VX_TYPE_META_FORMAT},
      {VX_OBJECT_ARRAY_NUMITEMS, VX_TYPE_OBJECT_ARRAY}, {VX_TENSOR_FIXED_POINT_POSITION, VX_TYPE_TENSOR}};
  for (const Case& c : cases) {
    EXPECT_EQ(VX_VENDOR(c.attribute), 0u) << c.attribute;
    EXPECT_EQ(VX_TYPE(c.attribute), static_cast<vx_uint32>(c.type)) << c.attribute;
  }
}

}  // namespace
