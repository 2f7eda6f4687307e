// The enhanced-vision kernel MatchTemplate: a function and a validate (standard_kernel_support.hpp).
//
// A U8 source and a U8 template no larger than it; an S16 output of (W - w + 1) x (H - h + 1), one value per
// placement of the template's top-left corner, over the template's pixels s (source) and t (template):
//   HAMMING      the number of differing bits,       L1  sum |s - t|,       L2  sum (s - t)^2,
//   CCORR        sum s t,
//   L2_NORM      sum (s - t)^2 / sqrt(sum s^2 * sum t^2)   and
//   CCORR_NORM   sum s t / sqrt(sum s^2 * sum t^2),   the two normalised ones in Q7.8 (1.0 is 256);
// each saturated to S16 (the unnormalised sums of large templates exceed it, which keeps the best match
// where a search for the minimum, or the maximum for the correlations, finds it). A normalised value of a
// placement whose pixels are all zero (or of an all-zero template) is 0.
//
// Images with packed pixels go to the vision library's function (kernels/vision: vectorised, computing only
// the method's sums; the same values); the per-pixel walk below serves the rest. Nothing is allocated per
// frame.
#include <VX/vx.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "image.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "kernels/vision_planes.hpp"
#include "visiongraph/kernels/vision/match_template.hpp"

namespace vg::openvx {
namespace {

constexpr std::initializer_list<vx_enum> kMethods = {VX_COMPARE_HAMMING, VX_COMPARE_L1,      VX_COMPARE_L2,
                                                     VX_COMPARE_CCORR,   VX_COMPARE_L2_NORM, VX_COMPARE_CCORR_NORM};

vx_status VX_CALLBACK match_template_validate(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) {
  if (num != 4) return refuse(node, VX_ERROR_INVALID_PARAMETERS, "expects 4 parameters, got %u", num);
  const _vx_image* source = nullptr;
  const _vx_image* templ = nullptr;
  if (const vx_status s = u8_input(node, parameters, 0, "src", source); s != VX_SUCCESS) return s;
  if (const vx_status s = u8_input(node, parameters, 1, "templateImage", templ); s != VX_SUCCESS) return s;
  if (templ->width > source->width || templ->height > source->height) {
    return refuse(node, VX_ERROR_INVALID_DIMENSION, "templateImage is %ux%u, larger than src (%ux%u)", templ->width, templ->height,
                  source->width, source->height);
  }
  vx_enum method = 0;
  if (const vx_status s = enum_parameter(node, parameters, 2, "matchingMethod", kMethods, method); s != VX_SUCCESS) return s;
  return output_image(node, parameters, 3, "output", source->width - templ->width + 1, source->height - templ->height + 1,
                      VX_DF_IMAGE_S16, metas[3]);
}

vision::CompareMethod compare_method(vx_enum method) noexcept {
  switch (method) {
    case VX_COMPARE_HAMMING: return vision::CompareMethod::hamming;
    case VX_COMPARE_L1: return vision::CompareMethod::l1;
    case VX_COMPARE_L2: return vision::CompareMethod::l2;
    case VX_COMPARE_CCORR: return vision::CompareMethod::ccorr;
    case VX_COMPARE_L2_NORM: return vision::CompareMethod::l2_norm;
    default: return vision::CompareMethod::ccorr_norm;
  }
}

vx_int16 saturate16(double v) noexcept { return static_cast<vx_int16>(std::clamp(v, -32768.0, 32767.0)); }

vx_status VX_CALLBACK match_template_function(vx_node, const vx_reference* parameters, vx_uint32 num) {
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  vx_enum method = 0;
  if (const vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &method, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      s != VX_SUCCESS) {
    return s;
  }
  if (std::find(kMethods.begin(), kMethods.end(), method) == kMethods.end()) return VX_ERROR_INVALID_VALUE;
  const MappedImage src(image_at(parameters, 0), VX_READ_ONLY);
  const MappedImage tpl(image_at(parameters, 1), VX_READ_ONLY);
  const MappedImage out(image_at(parameters, 3), VX_WRITE_ONLY);
  if (const vx_status s = mapped(src, tpl, out); s != VX_SUCCESS) return s;
  const vx_uint32 tw = tpl.width(), th = tpl.height();
  if (tw > src.width() || th > src.height() || out.width() != src.width() - tw + 1 || out.height() != src.height() - th + 1) {
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (vision::Pixels o; packed(src, 1) && packed(tpl, 1) && vision_pixels(out, VX_DF_IMAGE_S16, o) &&
                        vision::match_template(const_plane(src), const_plane(tpl), compare_method(method), o)) {
    return VX_SUCCESS;
  }
  const std::ptrdiff_t ss = src.stride_x(), ts = tpl.stride_x(), os = out.stride_x();
  double t2 = 0.0;  // sum t^2, for the normalised methods
  for (vx_uint32 j = 0; j < th; ++j)
    for (vx_uint32 i = 0; i < tw; ++i) {
      const double t = tpl.row(j)[static_cast<std::ptrdiff_t>(i) * ts];
      t2 += t * t;
    }
  for (vx_uint32 y = 0; y < out.height(); ++y) {
    vx_uint8* o = out.row(y);
    for (vx_uint32 x = 0; x < out.width(); ++x) {
      std::uint64_t hamming = 0, l1 = 0, l2 = 0, cross = 0, s2 = 0;
      for (vx_uint32 j = 0; j < th; ++j) {
        const vx_uint8* sr = src.row(y + j) + static_cast<std::ptrdiff_t>(x) * ss;
        const vx_uint8* tr = tpl.row(j);
        for (vx_uint32 i = 0; i < tw; ++i) {
          const unsigned s = sr[static_cast<std::ptrdiff_t>(i) * ss], t = tr[static_cast<std::ptrdiff_t>(i) * ts];
          const int d = static_cast<int>(s) - static_cast<int>(t);
          hamming += static_cast<unsigned>(std::popcount(s ^ t));
          l1 += static_cast<unsigned>(d < 0 ? -d : d);
          l2 += static_cast<std::uint64_t>(d * d);
          cross += s * t;
          s2 += s * s;
        }
      }
      const double norm = std::sqrt(static_cast<double>(s2) * t2);
      double v = 0.0;
      switch (method) {
        case VX_COMPARE_HAMMING: v = static_cast<double>(hamming); break;
        case VX_COMPARE_L1: v = static_cast<double>(l1); break;
        case VX_COMPARE_L2: v = static_cast<double>(l2); break;
        case VX_COMPARE_CCORR: v = static_cast<double>(cross); break;
        case VX_COMPARE_L2_NORM: v = norm > 0.0 ? std::round(256.0 * static_cast<double>(l2) / norm) : 0.0; break;
        default: v = norm > 0.0 ? std::round(256.0 * static_cast<double>(cross) / norm) : 0.0; break;  // CCORR_NORM
      }
      store<vx_int16>(o + static_cast<std::ptrdiff_t>(x) * os, saturate16(v));
    }
  }
  return VX_SUCCESS;
}

constexpr StandardKernelFunctions kMatchTemplateKernels[] = {
    {VX_KERNEL_MATCH_TEMPLATE, &match_template_function, &match_template_validate},
};

}  // namespace

std::span<const StandardKernelFunctions> match_template_kernels() noexcept { return kMatchTemplateKernels; }

}  // namespace vg::openvx
