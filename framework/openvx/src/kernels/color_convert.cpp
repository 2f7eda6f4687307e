// The standard kernel ColorConvert: a function and a validate (standard_kernel_support.hpp).
//
// Inputs RGB, RGBX, NV12, NV21, UYVY, YUYV, IYUV; outputs RGB, RGBX, NV12, NV21, IYUV, YUV4; one size.
// RGB <-> RGBX copies the colour (X becomes 255). RGB to YUV: per pixel
//   Y = Kr R + (1 - Kr - Kb) G + Kb B,  U = (B - Y) / (2 (1 - Kb)) + 128,  V = (R - Y) / (2 (1 - Kr)) + 128,
// rounded; the chroma of a subsampled output averages its 2 (4:2:2) or 2x2 (4:2:0) pixels, rounding down,
// as the conformance suite's reference does. YUV to RGB: the inverse, each pixel with the chroma sample
// that covers it. YUV to YUV: the luma copied; chroma of a finer output repeats the input's sample,
// 4:2:2 to 4:2:0 averages the two rows (rounding down). The coefficients are BT.709's (Kr 0.2126, Kb
// 0.0722: VX_COLOR_SPACE_BT709 and DEFAULT), or BT.601's (0.299, 0.114) for an image whose VX_IMAGE_SPACE
// is BT601_525 or BT601_625: the YUV side's space decides. Full-range values, as the specification's
// formulas have them.
//
// Packed images (all but strided patches of images from handles) are converted by the vision library
// (color_layout.hpp, rgb_to_yuv.hpp, yuv_to_rgb.hpp: the same bytes, vectorised); the per-pixel code here
// takes the others. Nothing is allocated per frame.
#include <VX/vx.h>

#include <algorithm>
#include <cstddef>
#include <optional>

#include "image.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "visiongraph/kernels/vision/color_layout.hpp"
#include "visiongraph/kernels/vision/rgb_to_yuv.hpp"
#include "visiongraph/kernels/vision/yuv_to_rgb.hpp"

namespace vg::openvx {
namespace {

/// The chroma layout of a format: 444, 422 or 420 for YUV, 0 for RGB(X).
int chroma_code(vx_df_image f) noexcept {
  switch (f) {
    case VX_DF_IMAGE_YUV4: return 444;
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_YUYV: return 422;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21:
    case VX_DF_IMAGE_IYUV: return 420;
    default: return 0;
  }
}

bool is_input_format(vx_df_image f) noexcept {
  return f == VX_DF_IMAGE_RGB || f == VX_DF_IMAGE_RGBX || f == VX_DF_IMAGE_NV12 || f == VX_DF_IMAGE_NV21 ||
         f == VX_DF_IMAGE_UYVY || f == VX_DF_IMAGE_YUYV || f == VX_DF_IMAGE_IYUV;
}
bool is_output_format(vx_df_image f) noexcept {
  return f == VX_DF_IMAGE_RGB || f == VX_DF_IMAGE_RGBX || f == VX_DF_IMAGE_NV12 || f == VX_DF_IMAGE_NV21 ||
         f == VX_DF_IMAGE_IYUV || f == VX_DF_IMAGE_YUV4;
}

vx_uint32 plane_count(vx_df_image f) noexcept {
  switch (f) {
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: return 2;
    case VX_DF_IMAGE_IYUV:
    case VX_DF_IMAGE_YUV4: return 3;
    default: return 1;
  }
}

/// The planes of one image, mapped for the kernel's run, and where each of its components sits.
class Planes {
 public:
  Planes(vx_image image, vx_df_image format, vx_enum usage) noexcept : format_(format) {
    for (vx_uint32 p = 0; p < plane_count(format); ++p) planes_[p].emplace(image, usage, p);
  }
  vx_status status() const noexcept {
    for (const auto& p : planes_)
      if (p && p->status() != VX_SUCCESS) return p->status();
    return VX_SUCCESS;
  }
  /// Byte of plane @p p for image pixel (@p x, @p y), through the plane's subsampling.
  vx_uint8* at(vx_uint32 p, vx_uint32 x, vx_uint32 y) const noexcept {
    const vx_imagepatch_addressing_t& a = planes_[p]->addressing();
    const vx_uint32 px = static_cast<vx_uint32>(static_cast<std::uint64_t>(x) * a.scale_x / VX_SCALE_UNITY);
    const vx_uint32 py = static_cast<vx_uint32>(static_cast<std::uint64_t>(y) * a.scale_y / VX_SCALE_UNITY);
    return planes_[p]->row(py) + static_cast<std::ptrdiff_t>(px) * a.stride_x;
  }
  // Components of pixel (x, y). For RGB(X) c is R, G, B (0..2); for YUV c is Y, U, V.
  const MappedImage& plane(vx_uint32 p) const noexcept { return *planes_[p]; }
  /// RGBX's X byte of pixel (x, y).
  vx_uint8* x_byte(vx_uint32 x, vx_uint32 y) const noexcept { return at(0, x, y) + 3; }
  vx_uint8* component(int c, vx_uint32 x, vx_uint32 y) const noexcept {
    switch (format_) {
      case VX_DF_IMAGE_RGB:
      case VX_DF_IMAGE_RGBX: return at(0, x, y) + c;
      case VX_DF_IMAGE_NV12: return c == 0 ? at(0, x, y) : at(1, x, y) + (c - 1);
      case VX_DF_IMAGE_NV21: return c == 0 ? at(0, x, y) : at(1, x, y) + (2 - c);
      case VX_DF_IMAGE_IYUV:
      case VX_DF_IMAGE_YUV4: return at(static_cast<vx_uint32>(std::clamp(c, 0, 2)), x, y);
      case VX_DF_IMAGE_YUYV:  // Y0 U Y1 V per pixel pair: each pixel its Y and, the even one U, the odd one V
      case VX_DF_IMAGE_UYVY: {  // U Y0 V Y1
        // Through each pixel's own address: an image from a handle may have a gap after each pixel's two bytes.
        const vx_uint32 chroma_at = format_ == VX_DF_IMAGE_YUYV ? 1 : 0;
        if (c == 0) return at(0, x, y) + (1 - chroma_at);
        return at(0, c == 1 ? (x & ~1u) : (x | 1u), y) + chroma_at;
      }
      default: return at(0, x, y);
    }
  }

 private:
  vx_df_image format_;
  std::optional<MappedImage> planes_[3];
};

/// The luma weights of a colour space: Kr and Kb.
struct Coefficients {
  float kr, kb;
};
Coefficients coefficients_of(vx_enum space) noexcept {
  if (space == VX_COLOR_SPACE_BT601_525 || space == VX_COLOR_SPACE_BT601_625) return {0.299f, 0.114f};
  return {0.2126f, 0.0722f};
}

vx_uint8 saturate(float v) noexcept { return static_cast<vx_uint8>(std::clamp(static_cast<int>(v), 0, 255)); }

void rgb_to_yuv(const Coefficients& k, vx_uint8 r, vx_uint8 g, vx_uint8 b, vx_uint8& y, vx_uint8& u, vx_uint8& v) noexcept {
  const float kg = 1.0f - k.kr - k.kb;
  y = saturate(r * k.kr + g * kg + b * k.kb + 0.5f);
  // The chroma rows: (B - Y) / (2 (1 - Kb)) and (R - Y) / (2 (1 - Kr)), expanded.
  const float ub = 0.5f, ur = -0.5f * k.kr / (1.0f - k.kb), ug = -0.5f * kg / (1.0f - k.kb);
  const float vr = 0.5f, vg = -0.5f * kg / (1.0f - k.kr), vb = -0.5f * k.kb / (1.0f - k.kr);
  u = saturate(r * ur + g * ug + b * ub + 128.5f);
  v = saturate(r * vr + g * vg + b * vb + 128.5f);
}

void yuv_to_rgb(const Coefficients& k, vx_uint8 y, vx_uint8 u, vx_uint8 v, vx_uint8* rgb) noexcept {
  const float kg = 1.0f - k.kr - k.kb;
  const float cu = static_cast<float>(u) - 128.0f, cv = static_cast<float>(v) - 128.0f;
  const float rv = 2.0f * (1.0f - k.kr), bu = 2.0f * (1.0f - k.kb);
  rgb[0] = saturate(y + rv * cv + 0.5f);
  rgb[1] = saturate(y - (k.kb * bu / kg) * cu - (k.kr * rv / kg) * cv + 0.5f);
  rgb[2] = saturate(y + bu * cu + 0.5f);
}

void rgb_to_rgb(const Planes& in, const Planes& out, bool out_x, vx_uint32 w, vx_uint32 h) noexcept {
  for (vx_uint32 y = 0; y < h; ++y)
    for (vx_uint32 x = 0; x < w; ++x) {
      for (int c = 0; c < 3; ++c) *out.component(c, x, y) = *in.component(c, x, y);
      if (out_x) *out.x_byte(x, y) = 255;
    }
}

void rgb_to_yuv_image(const Planes& in, const Planes& out, int code, const Coefficients& k, vx_uint32 w, vx_uint32 h) noexcept {
  // Blocks of the chroma sample: 1x1 (4:4:4), 2x1 (4:2:2) or 2x2 (4:2:0) pixels.
  const vx_uint32 bw = code == 444 ? 1 : 2, bh = code == 420 ? 2 : 1;
  for (vx_uint32 by = 0; by + bh <= h; by += bh)
    for (vx_uint32 bx = 0; bx + bw <= w; bx += bw) {
      unsigned su = 0, sv = 0;
      for (vx_uint32 y = by; y < by + bh; ++y)
        for (vx_uint32 x = bx; x < bx + bw; ++x) {
          vx_uint8 yy, u, v;
          rgb_to_yuv(k, *in.component(0, x, y), *in.component(1, x, y), *in.component(2, x, y), yy, u, v);
          *out.component(0, x, y) = yy;
          su += u;
          sv += v;
        }
      const unsigned n = bw * bh;
      *out.component(1, bx, by) = static_cast<vx_uint8>(su / n);
      *out.component(2, bx, by) = static_cast<vx_uint8>(sv / n);
    }
}

void yuv_to_rgb_image(const Planes& in, const Planes& out, bool out_x, const Coefficients& k, vx_uint32 w, vx_uint32 h) noexcept {
  for (vx_uint32 y = 0; y < h; ++y)
    for (vx_uint32 x = 0; x < w; ++x) {
      vx_uint8 rgb[3];
      yuv_to_rgb(k, *in.component(0, x, y), *in.component(1, x, y), *in.component(2, x, y), rgb);
      for (int c = 0; c < 3; ++c) *out.component(c, x, y) = rgb[c];
      if (out_x) *out.x_byte(x, y) = 255;
    }
}

void yuv_to_yuv_image(const Planes& in, int in_code, const Planes& out, int out_code, vx_uint32 w, vx_uint32 h) noexcept {
  for (vx_uint32 y = 0; y < h; ++y)
    for (vx_uint32 x = 0; x < w; ++x) *out.component(0, x, y) = *in.component(0, x, y);
  if (in_code == 422 && out_code == 420) {  // two rows of chroma into one
    for (vx_uint32 y = 0; y + 1 < h; y += 2)
      for (vx_uint32 x = 0; x < w; x += 2)
        for (int c = 1; c <= 2; ++c)
          *out.component(c, x, y) = static_cast<vx_uint8>((*in.component(c, x, y) + *in.component(c, x, y + 1)) >> 1);
    return;
  }
  // A finer (or equal) output repeats the input's sample over the pixels it covers.
  for (vx_uint32 y = 0; y < h; ++y)
    for (vx_uint32 x = 0; x < w; ++x)
      for (int c = 1; c <= 2; ++c) *out.component(c, x, y) = *in.component(c, x, y);
}

/// The bytes from one pixel to the next in each plane of a packed image of format @p f (0 past its planes).
vx_int32 packed_stride_x(vx_df_image f, vx_uint32 plane) noexcept {
  switch (f) {
    case VX_DF_IMAGE_RGB: return plane == 0 ? 3 : 0;
    case VX_DF_IMAGE_RGBX: return plane == 0 ? 4 : 0;
    case VX_DF_IMAGE_UYVY:
    case VX_DF_IMAGE_YUYV: return plane == 0 ? 2 : 0;
    case VX_DF_IMAGE_NV12:
    case VX_DF_IMAGE_NV21: return plane == 0 ? 1 : plane == 1 ? 2 : 0;
    default: return plane < 3 ? 1 : 0;  // IYUV, YUV4
  }
}

/// Whether every plane's pixels follow each other with no gap (all images but a strided patch of one from a
/// handle).
bool is_packed(const Planes& planes, vx_df_image f) noexcept {
  for (vx_uint32 p = 0; p < plane_count(f); ++p)
    if (planes.plane(p).stride_x() != packed_stride_x(f, p)) return false;
  return true;
}

vision::YuvLayout layout_of(vx_df_image f) noexcept {
  switch (f) {
    case VX_DF_IMAGE_NV12: return vision::YuvLayout::nv12;
    case VX_DF_IMAGE_NV21: return vision::YuvLayout::nv21;
    case VX_DF_IMAGE_IYUV: return vision::YuvLayout::iyuv;
    case VX_DF_IMAGE_YUYV: return vision::YuvLayout::yuyv;
    case VX_DF_IMAGE_UYVY: return vision::YuvLayout::uyvy;
    default: return vision::YuvLayout::yuv4;
  }
}

vision::YuvImage yuv_image(const Planes& planes, vx_df_image f, vx_uint32 w, vx_uint32 h) noexcept {
  vision::YuvImage image{layout_of(f), w, h, {}, {}};
  for (vx_uint32 p = 0; p < plane_count(f); ++p) {
    image.data[p] = planes.plane(p).row(0);
    image.stride[p] = planes.plane(p).addressing().stride_y;
  }
  return image;
}

/// The conversion by the vision library (the same bytes, vectorised), when both images are packed and
/// subsampled ones have even sizes (as images of those formats are created); false otherwise.
bool convert_by_library(const Planes& in, vx_df_image in_format, const Planes& out, vx_df_image out_format, vx_enum in_space,
                        vx_enum out_space, vx_uint32 w, vx_uint32 h) noexcept {
  if (!is_packed(in, in_format) || !is_packed(out, out_format)) return false;
  const int in_code = chroma_code(in_format), out_code = chroma_code(out_format);
  const bool subsampled = (in_code != 0 && in_code != 444) || (out_code != 0 && out_code != 444);
  if (subsampled && (w % 2 != 0 || h % 2 != 0)) return false;
  const auto rgb_plane = [&](const Planes& planes) {
    const MappedImage& m = planes.plane(0);
    return vision::Plane{m.row(0), w, h, m.addressing().stride_y};
  };
  const int in_channels = in_format == VX_DF_IMAGE_RGBX ? 4 : 3, out_channels = out_format == VX_DF_IMAGE_RGBX ? 4 : 3;
  if (in_code == 0 && out_code == 0) {
    vision::repack_rgb(rgb_plane(in), in_channels, rgb_plane(out), out_channels);
  } else if (in_code == 0) {
    const Coefficients k = coefficients_of(out_space);
    vision::rgb_to_yuv(rgb_plane(in), in_channels, yuv_image(out, out_format, w, h), vision::RgbToYuvFactors::of(k.kr, k.kb));
  } else if (out_code == 0) {
    const Coefficients k = coefficients_of(in_space);
    vision::yuv_to_rgb(yuv_image(in, in_format, w, h), rgb_plane(out), out_channels == 4, vision::YuvToRgbFactors::of(k.kr, k.kb));
  } else {
    vision::yuv_to_yuv(yuv_image(in, in_format, w, h), yuv_image(out, out_format, w, h));
  }
  return true;
}

vx_status VX_CALLBACK color_convert_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 2) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 2 parameters, got %u", num);
  const _vx_image* input = nullptr;
  if (const vx_status s = input_image(node, parameters, 0, "input", input); s != VX_SUCCESS) return s;
  if (!is_input_format(input->format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "input has format %s (RGB, RGBX, NV12, NV21, UYVY, YUYV or IYUV)",
                  format_name(input->format));
  }
  if (!valid_handle(parameters[1], VX_TYPE_IMAGE)) return refuse(node, VX_ERROR_INVALID_REFERENCE, "output is not an image");
  const vx_df_image out_format = as<_vx_image>(parameters[1])->declared_format;
  if (!is_output_format(out_format)) {
    return refuse(node, VX_ERROR_INVALID_FORMAT, "output has format %s (RGB, RGBX, NV12, NV21, IYUV or YUV4: the output's format says "
                  "what to convert to)", format_name(out_format));
  }
  if (out_format == input->format) return refuse(node, VX_ERROR_INVALID_FORMAT, "input and output are both %s", format_name(out_format));
  return output_image(node, parameters, 1, "output", input->width, input->height, out_format, metas[1]);
}

vx_status VX_CALLBACK color_convert_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  if (!valid_handle(parameters[0], VX_TYPE_IMAGE) || !valid_handle(parameters[1], VX_TYPE_IMAGE)) return VX_ERROR_INVALID_REFERENCE;
  const auto* in_image = as<_vx_image>(parameters[0]);
  const auto* out_image = as<_vx_image>(parameters[1]);
  const vx_df_image in_format = in_image->format, out_format = out_image->format;
  if (!is_input_format(in_format) || !is_output_format(out_format) || in_image->width != out_image->width ||
      in_image->height != out_image->height) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const Planes in(image_at(parameters, 0), in_format, VX_READ_ONLY);
  const Planes out(image_at(parameters, 1), out_format, VX_WRITE_ONLY);
  if (const vx_status s = in.status(); s != VX_SUCCESS) return s;
  if (const vx_status s = out.status(); s != VX_SUCCESS) return s;
  const vx_uint32 w = in_image->width, h = in_image->height;
  const int in_code = chroma_code(in_format), out_code = chroma_code(out_format);
  const bool out_x = out_format == VX_DF_IMAGE_RGBX;
  if (convert_by_library(in, in_format, out, out_format, in_image->space, out_image->space, w, h)) return VX_SUCCESS;
  // Images with gaps between pixels (strided patches from handles), pixel by pixel.
  if (in_code == 0 && out_code == 0) {
    rgb_to_rgb(in, out, out_x, w, h);
  } else if (in_code == 0) {
    rgb_to_yuv_image(in, out, out_code, coefficients_of(out_image->space), w, h);
  } else if (out_code == 0) {
    yuv_to_rgb_image(in, out, out_x, coefficients_of(in_image->space), w, h);
  } else {
    yuv_to_yuv_image(in, in_code, out, out_code, w, h);
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kColorConvertKernels[] = {
    {VX_KERNEL_COLOR_CONVERT, &color_convert_function, &color_convert_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> color_convert_kernels() noexcept { return kColorConvertKernels; }

}  // namespace vg::openvx
