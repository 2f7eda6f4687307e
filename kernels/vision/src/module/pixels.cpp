// The vg.vision kernels that map pixels to pixels without changing the geometry: convolve,
// non_linear_filter, bilateral_filter, equalize_hist, table_lookup, channel_extract, channel_combine and color_convert, over the
// library functions libopenvx's Convolve, NonLinearFilter, BilateralFilter, EqualizeHist, TableLookup,
// ChannelExtract, ChannelCombine and ColorConvert run.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/bilateral.hpp"
#include "visiongraph/kernels/vision/channels.hpp"
#include "visiongraph/kernels/vision/convolve.hpp"
#include "visiongraph/kernels/vision/histogram.hpp"
#include "visiongraph/kernels/vision/lookup.hpp"
#include "visiongraph/kernels/vision/non_linear_filter.hpp"
#include "visiongraph/kernels/vision/rgb_to_yuv.hpp"
#include "visiongraph/kernels/vision/yuv_to_rgb.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

// --- convolve ----------------------------------------------------------------------------------------------

constexpr int kMaxConvolutionSide = 15;

struct ConvolveKernel {
  explicit ConvolveKernel(KernelContext& ctx)
      : columns(static_cast<int>(ctx.integer("columns"))), rows(static_cast<int>(ctx.integer("rows"))), border(border_of(ctx)) {
    const std::vector<double>& c = ctx.numbers("coefficients");
    const std::size_t n = c.size();
    for (std::size_t i = 0; i < n; ++i) flipped[i] = static_cast<std::int16_t>(c[n - 1 - i]);  // a convolution, as OpenVX's
    const auto scale = static_cast<std::uint64_t>(ctx.integer("scale"));
    while ((std::uint64_t{1} << shift) < scale) ++shift;
  }
  Status process(KernelContext& ctx) noexcept {
    return convolve(const_plane(ctx.image(0)), pixels_of(plane(ctx.image(1))), flipped, columns, rows, shift, border) ? Status::ok
                                                                                                                       : Status::invalid_argument;
  }
  std::int16_t flipped[kMaxConvolutionSide * kMaxConvolutionSide] = {};
  int columns, rows;
  unsigned shift = 0;
  Border border;
};

void add_convolve(Module& m) {
  KernelDecl decl("vg.vision.convolve",
                  "OpenVX Convolve on gray8: the sum of the window times the matrix (flipped: a convolution), divided by scale, "
                  "truncated toward zero and saturated");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of the input's size")
      .required_attribute("coefficients", AttrType::numbers, "columns x rows integers in -32768..32767, row by row")
      .attribute("columns", 3, "the matrix's width: odd, 1..15")
      .attribute("rows", 3, "the matrix's height: odd, 1..15")
      .attribute("scale", 1, "the divisor: a power of two, 1..2^31");
  border_attributes(decl).validate([](ValidateContext& v) {
    validate_image_to_gray8(v, {ImageFormat::gray8});
    for (const char* key : {"columns", "rows"}) {
      const std::int64_t side = v.integer(key);
      if (side < 1 || side > kMaxConvolutionSide || side % 2 == 0) v.fail(key, "must be odd and 1..15, got " + std::to_string(side));
    }
    const std::vector<double>& c = v.numbers("coefficients");
    const auto expected = static_cast<std::size_t>(v.integer("columns") * v.integer("rows"));
    if (c.size() != expected)
      v.fail("coefficients", "must hold columns x rows = " + std::to_string(expected) + " numbers, got " + std::to_string(c.size()));
    for (const double e : c)
      if (!(e == std::floor(e) && e >= -32768 && e <= 32767)) v.fail("coefficients", "holds " + std::to_string(e) + ": each must be an integer in -32768..32767");
    const std::int64_t scale = v.integer("scale");
    if (scale < 1 || scale > (std::int64_t{1} << 31) || (scale & (scale - 1)) != 0)
      v.fail("scale", "must be a power of two, 1..2^31, got " + std::to_string(scale));
    border_attributes_valid(v);
  });
  m.add(std::move(decl));
  m.implement("vg.vision.convolve", "cpu", callbacks_for<ConvolveKernel>());
}

// --- non_linear_filter -------------------------------------------------------------------------------------

constexpr int kMaxMaskSide = 9;  // OpenVX's VX_CONTEXT_NONLINEAR_MAX_DIMENSION

struct NonLinearKernel {
  explicit NonLinearKernel(KernelContext& ctx)
      : columns(static_cast<int>(ctx.integer("columns"))), rows(static_cast<int>(ctx.integer("rows"))), border(border_of(ctx)) {
    parse_non_linear_function(ctx.string("function"), function);
    const std::vector<double>& given = ctx.numbers("mask");
    const auto n = static_cast<std::size_t>(columns * rows);
    for (std::size_t i = 0; i < n; ++i) mask[i] = given.empty() || given[i] != 0 ? 1 : 0;  // no mask: the box
  }
  Status process(KernelContext& ctx) noexcept {
    return non_linear_filter(function, const_plane(ctx.image(0)), plane(ctx.image(1)), mask, columns, rows, border) ? Status::ok
                                                                                                                     : Status::invalid_argument;
  }
  NonLinearFunction function = NonLinearFunction::median;
  std::uint8_t mask[kMaxMaskSide * kMaxMaskSide] = {};
  int columns, rows;
  Border border;
};

void add_non_linear_filter(Module& m) {
  KernelDecl decl("vg.vision.non_linear_filter",
                  "OpenVX NonLinearFilter on gray8: the median, minimum or maximum of the pixels a mask selects around each pixel "
                  "(the median of n values is the one at index n / 2 sorted: the upper one for an even n)");
  decl.input("input", DataKind::image, true, "gray8 image of any size")
      .output("output", DataKind::image, true, "gray8 image of the input's size")
      .attribute("function", "median", "median, min or max")
      .attribute("mask", AttrValue(std::vector<double>{}), "columns x rows numbers, row by row, 1 selects and 0 not, centred on the pixel "
                                                           "(default: all selected, a box)")
      .attribute("columns", 5, "the mask's width: odd, 1..9")
      .attribute("rows", 5, "the mask's height: odd, 1..9");
  border_attributes(decl).validate([](ValidateContext& v) {
    validate_image_to_gray8(v, {ImageFormat::gray8});
    choice_attribute(v, "function", {"median", "min", "max"});
    for (const char* key : {"columns", "rows"}) {
      const std::int64_t side = v.integer(key);
      if (side < 1 || side > kMaxMaskSide || side % 2 == 0) v.fail(key, "must be odd and 1..9, got " + std::to_string(side));
    }
    const std::vector<double>& mask = v.numbers("mask");
    if (!mask.empty()) {
      const auto expected = static_cast<std::size_t>(v.integer("columns") * v.integer("rows"));
      if (mask.size() != expected)
        v.fail("mask", "must hold columns x rows = " + std::to_string(expected) + " numbers, got " + std::to_string(mask.size()));
      for (const double e : mask)
        if (e != 0 && e != 1) v.fail("mask", "holds " + std::to_string(e) + ": each entry must be 0 or 1");
      if (std::none_of(mask.begin(), mask.end(), [](double e) { return e != 0; })) v.fail("mask", "selects no pixel (every entry is 0)");
    }
    border_attributes_valid(v);
  });
  m.add(std::move(decl));
  m.implement("vg.vision.non_linear_filter", "cpu", callbacks_for<NonLinearKernel>());
}

// --- bilateral_filter ----------------------------------------------------------------------------------------

struct BilateralKernel {
  explicit BilateralKernel(KernelContext& ctx) {
    const ImageMeta& in = ctx.meta(0).image;
    options.width = in.width;
    options.height = in.height;
    options.channels = in.format == ImageFormat::gray8 ? 1 : 3;
    options.diameter = static_cast<int>(ctx.integer("diameter"));
    options.sigma_space = static_cast<float>(ctx.number("sigma_space"));
    options.sigma_values = static_cast<float>(ctx.number("sigma_values"));
    const Border border = border_of(ctx);
    options.constant_border = border.mode == BorderMode::constant;
    options.constant = border.constant;
    scratch.resize(bilateral_filter_scratch_size(in.width, options.channels));
  }
  BilateralLayout layout_of(const ImageView& v) const noexcept {
    const auto stride = static_cast<std::ptrdiff_t>(v.stride(0));
    return {1, options.channels, stride, (static_cast<std::ptrdiff_t>(v.height()) - 1) * stride + static_cast<std::ptrdiff_t>(v.width()) * options.channels - 1};
  }
  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(0), out = ctx.image(1);
    return bilateral_filter(in.plane(0), layout_of(in), out.plane(0), layout_of(out), options, scratch) ? Status::ok : Status::invalid_argument;
  }
  BilateralOptions options;
  std::vector<std::uint8_t> scratch;  // sized at create
};

void add_bilateral_filter(Module& m) {
  KernelDecl decl("vg.vision.bilateral_filter",
                  "OpenVX BilateralFilter: each pixel the mean of its window weighted by distance and by likeness (edges stay sharp)");
  decl.input("input", DataKind::image, true, "gray8, rgb24 or bgr24 image of any size")
      .output("output", DataKind::image, true, "an image of the input's size and format")
      .attribute("diameter", 5, "the window's side: odd, 3..15 (a disc of that diameter)")
      .attribute("sigma_space", 2.0, "the distance weight's spread, in pixels, above 0")
      .attribute("sigma_values", 25.0, "the likeness weight's spread, in grey levels (summed over the channels), above 0");
  border_attributes(decl).validate([](ValidateContext& v) {
    const DataMeta& in = image_input(v, 0, "input", {ImageFormat::gray8, ImageFormat::rgb24, ImageFormat::bgr24});
    const std::int64_t diameter = v.integer("diameter");
    if (diameter < 3 || diameter > kMaxBilateralDiameter || diameter % 2 == 0)
      v.fail("diameter", "must be odd and 3..15, got " + std::to_string(diameter));
    for (const char* key : {"sigma_space", "sigma_values"}) {
      const double sigma = v.number(key);
      if (!(sigma > 0 && sigma < 1e30)) v.fail(key, "must be above 0, got " + std::to_string(sigma));
    }
    border_attributes_valid(v);
    v.set_meta(1, DataMeta::image_of(in.image.width, in.image.height, in.image.format));
  });
  m.add(std::move(decl));
  m.implement("vg.vision.bilateral_filter", "cpu", callbacks_for<BilateralKernel>());
}

// --- equalize_hist, table_lookup ------------------------------------------------------------------------------

Status equalize_process(KernelContext& ctx) noexcept {
  equalize_histogram(const_plane(ctx.image(0)), plane(ctx.image(1)));
  return Status::ok;
}

struct LookupKernel {
  explicit LookupKernel(KernelContext& ctx) {
    const std::vector<double>& values = ctx.numbers("table");
    for (std::size_t i = 0; i < 256; ++i) table[i] = static_cast<std::uint8_t>(values[i]);
  }
  Status process(KernelContext& ctx) noexcept {
    lookup(const_plane(ctx.image(0)), plane(ctx.image(1)), table);
    return Status::ok;
  }
  std::uint8_t table[256] = {};
};

void add_lookups(Module& m) {
  m.add(KernelDecl("vg.vision.equalize_hist", "OpenVX EqualizeHist on gray8: spreads the values over 0..255 by their cumulative histogram")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::image, true, "gray8 image of the input's size")
            .validate([](ValidateContext& v) { validate_image_to_gray8(v, {ImageFormat::gray8}); }));
  m.implement("vg.vision.equalize_hist", "cpu", KernelCallbacks{nullptr, &equalize_process, nullptr, nullptr});

  m.add(KernelDecl("vg.vision.table_lookup", "OpenVX TableLookup on gray8: output = table[input] (a gamma curve, say)")
            .input("input", DataKind::image, true, "gray8 image of any size")
            .output("output", DataKind::image, true, "gray8 image of the input's size")
            .required_attribute("table", AttrType::numbers, "256 integers in 0..255: the output for each input value")
            .validate([](ValidateContext& v) {
              const std::vector<double>& t = v.numbers("table");
              if (t.size() != 256) v.fail("table", "must hold 256 numbers, got " + std::to_string(t.size()));
              for (const double e : t)
                if (!(e == std::floor(e) && e >= 0 && e <= 255)) v.fail("table", "holds " + std::to_string(e) + ": each must be an integer in 0..255");
              validate_image_to_gray8(v, {ImageFormat::gray8});
            }));
  m.implement("vg.vision.table_lookup", "cpu", callbacks_for<LookupKernel>());
}

// --- channel_extract, channel_combine --------------------------------------------------------------------------

struct ExtractKernel {
  explicit ExtractKernel(KernelContext& ctx) : rgb_index(ctx.string("channel") == "r" ? 0 : ctx.string("channel") == "g" ? 1 : 2) {}
  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(0);
    const int byte = in.format() == ImageFormat::bgr24 ? 2 - rgb_index : rgb_index;
    extract_channel(const_plane(in), 3, byte, plane(ctx.image(1)));
    return Status::ok;
  }
  int rgb_index;  // the channel's place in RGB order
};

Status combine_process(KernelContext& ctx) noexcept {
  const ImageView out = ctx.image(3);
  const bool bgr = out.format() == ImageFormat::bgr24;
  const ConstPlane r = const_plane(ctx.image(0)), g = const_plane(ctx.image(1)), b = const_plane(ctx.image(2));
  const ConstPlane planes[3] = {bgr ? b : r, g, bgr ? r : b};
  combine_channels(planes, 3, plane(out));
  return Status::ok;
}

void add_channels(Module& m) {
  KernelDecl extract("vg.vision.channel_extract", "OpenVX ChannelExtract: one channel of a bgr24 or rgb24 image as gray8");
  extract.input("input", DataKind::image, true, "bgr24 or rgb24 image")
      .output("output", DataKind::image, true, "gray8 image of the input's size")
      .attribute("channel", "g", "r, g or b")
      .validate([](ValidateContext& v) {
        choice_attribute(v, "channel", {"r", "g", "b"});
        validate_image_to_gray8(v, {ImageFormat::bgr24, ImageFormat::rgb24});
      });
  m.add(std::move(extract));
  m.implement("vg.vision.channel_extract", "cpu", callbacks_for<ExtractKernel>());

  KernelDecl combine("vg.vision.channel_combine", "OpenVX ChannelCombine: three gray8 planes into one rgb24 or bgr24 image");
  combine.input("red", DataKind::image, true, "gray8 image")
      .input("green", DataKind::image, true, "gray8 image of red's size")
      .input("blue", DataKind::image, true, "gray8 image of red's size")
      .output("output", DataKind::image, true, "image of that size in `format`")
      .attribute("format", "rgb24", "rgb24 or bgr24")
      .validate([](ValidateContext& v) {
        const std::size_t format = choice_attribute(v, "format", {"rgb24", "bgr24"});
        const DataMeta& red = image_input(v, 0, "red", {ImageFormat::gray8});
        const char* names[3] = {"red", "green", "blue"};
        for (std::size_t i = 1; i < 3; ++i) {
          const DataMeta& other = image_input(v, i, names[i], {ImageFormat::gray8});
          if (other.image.width != red.image.width || other.image.height != red.image.height)
            v.fail(names[i], "is " + other.describe() + " but red is " + red.describe() + ": the three must have one size");
        }
        v.set_meta(3, DataMeta::image_of(red.image.width, red.image.height, format == 0 ? ImageFormat::rgb24 : ImageFormat::bgr24));
      });
  m.add(std::move(combine));
  m.implement("vg.vision.channel_combine", "cpu", KernelCallbacks{nullptr, &combine_process, nullptr, nullptr});
}

// --- color_convert ---------------------------------------------------------------------------------------------

struct ColorConvertKernel {
  explicit ColorConvertKernel(KernelContext& ctx) {
    const bool bt601 = ctx.string("color_space") == "bt601";
    const float kr = bt601 ? 0.299f : 0.2126f, kb = bt601 ? 0.114f : 0.0722f;  // OpenVX's BT.601 and BT.709 factors
    to_rgb = YuvToRgbFactors::of(kr, kb);
    to_yuv = RgbToYuvFactors::of(kr, kb);
  }
  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(0), out = ctx.image(1);
    if (in.format() == ImageFormat::nv12) {
      const ConstSemiPlanar src{const_plane(in, 0), in.plane(1), static_cast<std::ptrdiff_t>(in.stride(1)), false};
      yuv420sp_to_rgb(src, plane(out), false, to_rgb);
    } else {
      Yuv420Out yuv;
      yuv.luma = plane(out, 0);
      yuv.uv = {out.plane(1), out.width() / 2, out.height() / 2, static_cast<std::ptrdiff_t>(out.stride(1))};
      rgb_to_yuv420(const_plane(in), 3, yuv, to_yuv);
    }
    return Status::ok;
  }
  YuvToRgbFactors to_rgb;
  RgbToYuvFactors to_yuv;
};

void add_color_convert(Module& m) {
  m.add(KernelDecl("vg.vision.color_convert", "OpenVX ColorConvert: nv12 to rgb24, or rgb24 to nv12 (OpenVX's float formula)")
            .input("input", DataKind::image, true, "nv12 or rgb24 image (rgb24: even width and height)")
            .output("output", DataKind::image, true, "rgb24 for an nv12 input, nv12 for an rgb24 one, of the input's size")
            .attribute("color_space", "bt709", "bt709 (OpenVX's default) or bt601: the YUV side's coefficients")
            .validate([](ValidateContext& v) {
              choice_attribute(v, "color_space", {"bt709", "bt601"});
              const DataMeta& in = image_input(v, 0, "input", {ImageFormat::nv12, ImageFormat::rgb24});
              const std::uint32_t w = in.image.width, h = in.image.height;
              if (in.image.format == ImageFormat::rgb24 && (w % 2 != 0 || h % 2 != 0))
                v.fail("input", "is " + in.describe() + ": nv12 needs an even width and height");
              v.set_meta(1, DataMeta::image_of(w, h, in.image.format == ImageFormat::nv12 ? ImageFormat::rgb24 : ImageFormat::nv12));
            }));
  m.implement("vg.vision.color_convert", "cpu", callbacks_for<ColorConvertKernel>());
}

}  // namespace

void add_pixel_kernels(Module& m) {
  add_convolve(m);
  add_non_linear_filter(m);
  add_bilateral_filter(m);
  add_lookups(m);
  add_channels(m);
  add_color_convert(m);
}

}  // namespace vg::vision
