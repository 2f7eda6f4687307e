#pragma once
// What the standard kernels this library implements share: the table that gives a standard kernel its
// function and validate, checks of image and scalar parameters for validate (refusals logged with the
// parameter's name), and whole images mapped while a kernel function runs.
#include <VX/vx.h>

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <span>

#include "image.hpp"
#include "object.hpp"

struct _vx_kernel;

namespace vg::openvx {

/// Gives @p kernel, a standard declaration, its function and validate when this library implements it
/// (kernel->implemented then says so); leaves it declared only otherwise.
void implement_standard_kernel(_vx_kernel* kernel) noexcept;

/// A standard kernel this library implements: its function and its validate.
struct StandardKernelFunctions {
  vx_enum kernel_enum;
  vx_kernel_f function;
  vx_kernel_validate_f validate;
};

/// The kernels of each family file: arithmetic.cpp (Add, Subtract, AbsDiff, Min, Max, Multiply),
/// conversion.cpp (ConvertDepth, TableLookup, Threshold, ChannelExtract, ChannelCombine) and
/// filters.cpp (Dilate3x3, Erode3x3, Median3x3, Box3x3, Gaussian3x3).
std::span<const StandardKernelFunctions> arithmetic_kernels() noexcept;
std::span<const StandardKernelFunctions> conversion_kernels() noexcept;
std::span<const StandardKernelFunctions> filter_kernels() noexcept;
/// gradients.cpp (Sobel3x3, Magnitude, Phase, Convolve) and statistics.cpp (IntegralImage,
/// Histogram, EqualizeHist, MinMaxLoc; MeanStdDev is in the table above).
std::span<const StandardKernelFunctions> gradient_kernels() noexcept;
std::span<const StandardKernelFunctions> statistics_kernels() noexcept;
/// tensors.cpp (TensorAdd, TensorSubtract, TensorMultiply, TensorTableLookup, TensorTranspose,
/// TensorConvertDepth) and data.cpp (Copy). NonLinearFilter is a filter, WeightedAverage and the
/// accumulations arithmetic: they join those tables.
std::span<const StandardKernelFunctions> tensor_kernels() noexcept;
std::span<const StandardKernelFunctions> data_kernels() noexcept;
/// pyramids.cpp (GaussianPyramid, HalfScaleGaussian, LaplacianPyramid, LaplacianReconstruct).
std::span<const StandardKernelFunctions> pyramid_kernels() noexcept;
/// remap.cpp (Remap), fast_corners.cpp (FastCorners) and harris_corners.cpp (HarrisCorners).
std::span<const StandardKernelFunctions> remap_kernels() noexcept;
/// hough_lines.cpp (HoughLinesP).
std::span<const StandardKernelFunctions> hough_lines_kernels() noexcept;
/// lbp.cpp (LBP).
std::span<const StandardKernelFunctions> lbp_kernels() noexcept;
/// match_template.cpp (MatchTemplate).
std::span<const StandardKernelFunctions> match_template_kernels() noexcept;
/// non_max_suppression.cpp (NonMaxSuppression).
std::span<const StandardKernelFunctions> non_max_suppression_kernels() noexcept;
/// control_flow.cpp (Select, ScalarOperation).
std::span<const StandardKernelFunctions> control_flow_kernels() noexcept;
/// color_convert.cpp (ColorConvert) and geometric.cpp (ScaleImage, WarpAffine, WarpPerspective).
std::span<const StandardKernelFunctions> color_convert_kernels() noexcept;
std::span<const StandardKernelFunctions> geometric_kernels() noexcept;
std::span<const StandardKernelFunctions> fast_kernels() noexcept;
/// canny.cpp (CannyEdgeDetector).
std::span<const StandardKernelFunctions> canny_kernels() noexcept;
std::span<const StandardKernelFunctions> harris_kernels() noexcept;
/// optical_flow.cpp (OpticalFlowPyrLK).
std::span<const StandardKernelFunctions> optical_flow_kernels() noexcept;

/// The largest window_dimension OpticalFlowPyrLK takes (VX_CONTEXT_OPTICAL_FLOW_MAX_WINDOW_DIMENSION; the
/// specification asks for at least 9, and the Khronos conformance suite verifies a graph with 10).
inline constexpr vx_size kOpticalFlowMaxWindowDimension = 31;

// --- the implemented kernels (one function and one validate each) --------------------------------------

vx_status VX_CALLBACK not_function(vx_node node, const vx_reference* parameters, vx_uint32 num);
vx_status VX_CALLBACK not_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]);
vx_status VX_CALLBACK and_function(vx_node node, const vx_reference* parameters, vx_uint32 num);
vx_status VX_CALLBACK or_function(vx_node node, const vx_reference* parameters, vx_uint32 num);
vx_status VX_CALLBACK xor_function(vx_node node, const vx_reference* parameters, vx_uint32 num);
/// And, Or and Xor: two images of one size and format (U8 or U1) in, an image of that size and format out.
vx_status VX_CALLBACK bitwise_binary_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]);
vx_status VX_CALLBACK mean_stddev_function(vx_node node, const vx_reference* parameters, vx_uint32 num);
vx_status VX_CALLBACK mean_stddev_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]);

// --- validate helpers ---------------------------------------------------------------------------------

/// Copies @p input's contents into @p output (objects, not handles), of the same type and attributes
/// (data.cpp: Copy, Select).
vx_status copy_object(vx_reference input, vx_reference output) noexcept;
/// Whether copy_object takes objects of @p type.
bool copy_supported(vx_enum type) noexcept;

/// Logs why @p node's validate refuses its parameters (prefixed with the kernel's name) and returns
/// @p status.
vx_status refuse(vx_node node, vx_status status, const char* format, ...) noexcept
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/// Printable name of an image format ("U8", "S16", ..., or its hexadecimal code).
const char* format_name(vx_df_image format) noexcept;

/// The image bound to an input parameter, with its size and format settled (a virtual input is settled by
/// its producer's validate, which runs first). Refuses an image with no format or size yet.
vx_status input_image(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept;

/// input_image, and the image is U8 (VX_ERROR_INVALID_FORMAT naming it otherwise).
vx_status u8_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, const _vx_image*& image) noexcept;

inline bool u8_or_s16(vx_df_image format) noexcept { return format == VX_DF_IMAGE_U8 || format == VX_DF_IMAGE_S16; }

/// A VX_TYPE_ENUM scalar parameter whose value must be one of @p allowed. The value is checked when it
/// can be read: a virtual scalar gets its value only while the graph runs (the kernel function checks it
/// then), and @p value is then the first allowed one.
vx_status enum_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name,
                         std::initializer_list<vx_enum> allowed, vx_enum& value) noexcept;

/// An input scalar of @p type (named @p type_name in the log): @p known is true and its value is copied
/// into @p value (@p size bytes) when it can be read at validation (a virtual scalar gets its value only
/// while the graph runs).
vx_status scalar_input_bytes(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type,
                             const char* type_name, void* value, std::size_t size, bool& known) noexcept;

template <typename T>
vx_status scalar_input(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_enum type,
                       const char* type_name, T& value, bool& known) noexcept {
  return scalar_input_bytes(node, parameters, index, name, type, type_name, &value, sizeof value, known);
}

/// The output array of keypoints at @p index (corner detectors): its items must be VX_TYPE_KEYPOINT (or
/// open); its meta gets that type, and @p open_capacity when the application left the capacity open.
vx_status keypoint_array_output(vx_node node, const vx_reference parameters[], vx_meta_format metas[], vx_uint32 index,
                                const char* name, vx_size open_capacity) noexcept;

/// An optional VX_TYPE_SIZE output scalar at @p index (num_corners): absent is fine, any other type refused.
vx_status optional_size_output(vx_node node, const vx_reference parameters[], vx_meta_format metas[], vx_uint32 index,
                               const char* name) noexcept;

/// An output array filled up to its capacity through a batch on the stack (no allocation per frame): emptied
/// when made, items added while has_room(), finish() writes what is left and returns the first failure. A null
/// array (an optional output left out) takes nothing.
template <typename Item>
class BoundedArrayFill {
 public:
  explicit BoundedArrayFill(vx_array array) noexcept : array_(array) {
    if (array_ == nullptr) return;
    status_ = vxQueryArray(array_, VX_ARRAY_CAPACITY, &room_, sizeof room_);
    if (status_ == VX_SUCCESS) status_ = vxTruncateArray(array_, 0);
  }
  bool has_room() const noexcept { return array_ != nullptr && status_ == VX_SUCCESS && room_ > 0; }
  /// Only while has_room().
  void add(const Item& item) noexcept {
    batch_[count_++] = item;
    --room_;
    if (count_ == kBatch || room_ == 0) flush();
  }
  vx_status finish() noexcept {
    flush();
    return status_;
  }

 private:
  void flush() noexcept {
    if (count_ == 0 || status_ != VX_SUCCESS) return;
    status_ = vxAddArrayItems(array_, count_, batch_, sizeof(Item));
    count_ = 0;
  }
  static constexpr vx_size kBatch = 64;
  vx_array array_;
  vx_status status_ = VX_SUCCESS;
  vx_size room_ = 0, count_ = 0;
  Item batch_[kBatch];
};

/// Where a corner detector's keypoints go: the array filled up to its capacity (BoundedArrayFill); finish()
/// also writes, when the optional num_corners scalar is given, every corner found (which can exceed what the
/// array holds).
class KeypointWriter {
 public:
  explicit KeypointWriter(vx_array array) noexcept : corners_(array) {}
  void add(vx_uint32 x, vx_uint32 y, vx_float32 strength) noexcept {
    ++found_;
    if (corners_.has_room())
      corners_.add(vx_keypoint_t{static_cast<vx_int32>(x), static_cast<vx_int32>(y), strength, 0.0f, 0.0f, 1, 0.0f});
  }
  vx_status finish(vx_reference num_corners) noexcept {
    const vx_status status = corners_.finish();
    if (status != VX_SUCCESS || num_corners == nullptr) return status;
    vx_size found = found_;
    return vxCopyScalar(reinterpret_cast<vx_scalar>(num_corners), &found, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }

 private:
  BoundedArrayFill<vx_keypoint_t> corners_;
  vx_size found_ = 0;
};

/// An overflow policy parameter (VX_CONVERT_POLICY_WRAP or _SATURATE), named "policy" in the log.
inline vx_status policy_parameter(vx_node node, const vx_reference parameters[], vx_uint32 index, vx_enum& policy) noexcept {
  return enum_parameter(node, parameters, index, "policy", {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}, policy);
}

/// Both inputs have one size; refuses (VX_ERROR_INVALID_PARAMETERS) otherwise.
vx_status same_size(vx_node node, const _vx_image* a, const char* a_name, const _vx_image* b, const char* b_name) noexcept;

/// Checks an output image against what the kernel makes (@p width x @p height of @p format) where the
/// image was given a size or format, refuses a uniform (read-only) image, and sets @p meta so a virtual
/// image with open attributes takes them.
vx_status output_image(vx_node node, const vx_reference parameters[], vx_uint32 index, const char* name, vx_uint32 width,
                       vx_uint32 height, vx_df_image format, vx_meta_format meta) noexcept;

// --- kernel function helpers ----------------------------------------------------------------------------

inline vx_image image_at(const vx_reference* parameters, vx_uint32 index) noexcept { return reinterpret_cast<vx_image>(parameters[index]); }

/// One plane of an image (plane 0 unless asked), mapped whole for the life of this object while a kernel
/// function runs (virtual images are reachable there). Mapping allocates nothing, so a kernel stays
/// allocation-free per frame. width() and height() are in image pixels, as the patch addressing gives
/// them; a subsampled plane's pixel (x, y) of the image is at row(y / step_y) + (x / step_x) * stride_x.
class MappedImage {
 public:
  MappedImage(vx_image image, vx_enum usage, vx_uint32 plane = 0) noexcept;
  ~MappedImage();
  MappedImage(const MappedImage&) = delete;
  MappedImage& operator=(const MappedImage&) = delete;

  vx_status status() const noexcept { return status_; }
  vx_uint32 width() const noexcept { return addressing_.dim_x; }
  vx_uint32 height() const noexcept { return addressing_.dim_y; }
  vx_int32 stride_x() const noexcept { return addressing_.stride_x; }
  vx_uint8* row(vx_uint32 y) const noexcept { return base_ + static_cast<std::ptrdiff_t>(y) * addressing_.stride_y; }
  const vx_imagepatch_addressing_t& addressing() const noexcept { return addressing_; }

 private:
  vx_image image_;
  vx_map_id map_id_ = 0;
  vx_imagepatch_addressing_t addressing_{};
  vx_uint8* base_ = nullptr;
  vx_status status_;
};

/// The first failed mapping's status among @p images, or VX_SUCCESS.
template <typename... Mapped>
vx_status mapped(const Mapped&... images) noexcept {
  vx_status status = VX_SUCCESS;
  ((status = status == VX_SUCCESS ? images.status() : status), ...);
  return status;
}

/// Pixel loads and stores through memcpy: rows of images from handles need not be aligned.
template <typename T>
inline T load(const vx_uint8* p) noexcept {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
template <typename T>
inline void store(vx_uint8* p, T value) noexcept {
  std::memcpy(p, &value, sizeof value);
}

/// out(x, y) = op(in(x, y)) over the whole image. Rows whose pixels are packed take a loop with constant
/// steps, which the compiler vectorises; others (images from handles with gaps) step by their strides.
template <typename In, typename Out, typename Op>
void for_each_pixel(const MappedImage& in, const MappedImage& out, Op op) noexcept {
  const bool packed = in.stride_x() == static_cast<vx_int32>(sizeof(In)) && out.stride_x() == static_cast<vx_int32>(sizeof(Out));
  const std::ptrdiff_t in_step = packed ? sizeof(In) : in.stride_x();
  const std::ptrdiff_t out_step = packed ? sizeof(Out) : out.stride_x();
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    if (packed) {
      for (vx_uint32 x = 0; x < width; ++x) store<Out>(o + x * sizeof(Out), op(load<In>(a + x * sizeof(In))));
    } else {
      for (vx_uint32 x = 0; x < width; ++x) store<Out>(o + x * out_step, op(load<In>(a + x * in_step)));
    }
  }
}

/// out(x, y) = op(in1(x, y), in2(x, y)) over the whole image; packed rows as for_each_pixel.
template <typename In1, typename In2, typename Out, typename Op>
void for_each_pixel(const MappedImage& in1, const MappedImage& in2, const MappedImage& out, Op op) noexcept {
  const bool packed = in1.stride_x() == static_cast<vx_int32>(sizeof(In1)) && in2.stride_x() == static_cast<vx_int32>(sizeof(In2)) &&
                      out.stride_x() == static_cast<vx_int32>(sizeof(Out));
  const std::ptrdiff_t step1 = in1.stride_x(), step2 = in2.stride_x(), out_step = out.stride_x();
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in1.row(y);
    const vx_uint8* b = in2.row(y);
    vx_uint8* o = out.row(y);
    if (packed) {
      for (vx_uint32 x = 0; x < width; ++x) {
        store<Out>(o + x * sizeof(Out), op(load<In1>(a + x * sizeof(In1)), load<In2>(b + x * sizeof(In2))));
      }
    } else {
      for (vx_uint32 x = 0; x < width; ++x) store<Out>(o + x * out_step, op(load<In1>(a + x * step1), load<In2>(b + x * step2)));
    }
  }
}


// --- U1 images ------------------------------------------------------------------------------------------
// Eight pixels to a byte, pixel x at bit x % 8 of byte x / 8 of its row (a whole-image map starts on a
// byte: U1 regions start at multiples of 8). The last byte of a row may hold bits past the width: those
// belong to the parent of a region, so the kernels below keep them as they are.

/// The bits of a row's last byte that are pixels (all eight when the width is a multiple of 8).
inline vx_uint8 u1_last_mask(vx_uint32 width) noexcept {
  return width % 8 == 0 ? vx_uint8{0xFF} : static_cast<vx_uint8>((1u << (width % 8)) - 1);
}

/// Stores @p bits as the U1 byte at @p o, only the bits @p mask selects.
inline void store_u1_bits(vx_uint8* o, vx_uint8 bits, vx_uint8 mask) noexcept {
  *o = mask == 0xFF ? bits : static_cast<vx_uint8>((*o & ~mask) | (bits & mask));
}

/// out = op(in) byte by byte over U1 images (Not): eight pixels at a time.
template <typename Op>
void for_each_u1_byte(const MappedImage& in, const MappedImage& out, Op op) noexcept {
  const vx_uint32 bytes = (out.width() + 7) / 8;
  const vx_uint8 last = u1_last_mask(out.width());
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    for (vx_uint32 i = 0; i + 1 < bytes; ++i) o[i] = op(a[i]);
    store_u1_bits(o + bytes - 1, op(a[bytes - 1]), last);
  }
}

/// out = op(in1, in2) byte by byte over U1 images (And, Or, Xor).
template <typename Op>
void for_each_u1_byte(const MappedImage& in1, const MappedImage& in2, const MappedImage& out, Op op) noexcept {
  const vx_uint32 bytes = (out.width() + 7) / 8;
  const vx_uint8 last = u1_last_mask(out.width());
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in1.row(y);
    const vx_uint8* b = in2.row(y);
    vx_uint8* o = out.row(y);
    for (vx_uint32 i = 0; i + 1 < bytes; ++i) o[i] = op(a[i], b[i]);
    store_u1_bits(o + bytes - 1, op(a[bytes - 1], b[bytes - 1]), last);
  }
}

/// U1 out(x, y) = pred(in(x, y)) for an input of pixels of type In (Threshold, ConvertDepth to U1).
template <typename In, typename Pred>
void pack_u1(const MappedImage& in, const MappedImage& out, Pred pred) noexcept {
  const std::ptrdiff_t step = in.stride_x();
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < width; x += 8) {
      const vx_uint32 n = width - x < 8 ? width - x : 8;
      unsigned bits = 0;
      for (vx_uint32 b = 0; b < n; ++b) bits |= (pred(load<In>(a + (x + b) * step)) ? 1u : 0u) << b;
      store_u1_bits(o + x / 8, static_cast<vx_uint8>(bits), n == 8 ? vx_uint8{0xFF} : u1_last_mask(n));
    }
  }
}

/// out(x, y) = op(U1 in(x, y)) for an output of pixels of type Out (ConvertDepth from U1).
template <typename Out, typename Op>
void unpack_u1(const MappedImage& in, const MappedImage& out, Op op) noexcept {
  const std::ptrdiff_t step = out.stride_x();
  const vx_uint32 width = out.width();
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    const vx_uint8* a = in.row(y);
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < width; ++x) store<Out>(o + x * step, op(((a[x / 8] >> (x % 8)) & 1u) != 0));
  }
}

}  // namespace vg::openvx
