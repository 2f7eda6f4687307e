#include "visiongraph/kernels/detection/module.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/letterbox.hpp"
#include "visiongraph/kernels/detection/overlay.hpp"
#include "visiongraph/kernels/detection/postprocess.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/detection/tracker.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::detection {
namespace {

// ------------------------------------------------------------------------------------------ helpers

std::optional<PixelFormat> to_pixel_format(ImageFormat f) noexcept {
  switch (f) {
    case ImageFormat::bgr24: return PixelFormat::bgr24;
    case ImageFormat::rgb24: return PixelFormat::rgb24;
    case ImageFormat::nv12: return PixelFormat::nv12;
    case ImageFormat::gray8: return std::nullopt;
  }
  return std::nullopt;
}

ImageRef image_ref(const ImageView& v, PixelFormat f) noexcept {
  ImageRef r;
  r.format = f;
  r.width = static_cast<int>(v.width());
  r.height = static_cast<int>(v.height());
  r.plane[0] = v.plane(0);
  r.stride[0] = v.stride(0);
  if (f == PixelFormat::nv12) {
    r.plane[1] = v.plane(1);
    r.stride[1] = v.stride(1);
  }
  return r;
}

void check_image(ValidateContext& v, std::size_t param, const char* name) {
  const DataMeta& m = v.meta(param);
  if (m.kind != DataKind::image) v.fail(name, "expects an image, got " + m.describe());
  if (!to_pixel_format(m.image.format))
    v.fail(name, "expects a bgr24, rgb24 or nv12 image, got " + m.describe());
  if (m.image.width == 0 || m.image.height == 0) v.fail(name, "image has no pixels: " + m.describe());
}

void check_user_data(ValidateContext& v, std::size_t param, const char* name, std::string_view type_name,
                     std::size_t size) {
  const DataMeta& m = v.meta(param);
  if (m.kind != DataKind::user_data || m.user_data.name() != type_name || m.user_data.size != size)
    v.fail(name, "expects user_data " + std::string(type_name) + " (" + std::to_string(size) + " bytes), got " +
                     m.describe());
}

// Brackets CPU access to memory that may be a cached DMA-BUF shared with a device (no-op on host memory).
void begin_cpu(const MemoryBlock& b, CpuAccess mode) noexcept {
  if (b.owner != nullptr) (void)b.owner->begin_cpu_access(b, mode);
}
void end_cpu(const MemoryBlock& b, CpuAccess mode) noexcept {
  if (b.owner != nullptr) (void)b.owner->end_cpu_access(b, mode);
}

// ------------------------------------------------------------------------------------------ letterbox

struct TensorShape {
  TensorFormat format = TensorFormat::f32_nhwc;
  int width = 0;
  int height = 0;
};

// Reads the output tensor's shape, or returns an error text naming what is wrong.
std::optional<TensorShape> tensor_shape(const TensorMeta& t, std::string& error) {
  if (t.rank != 4 || t.dims[0] != 1) {
    error = "expects a [1,H,W,3] or [1,3,H,W] tensor";
    return std::nullopt;
  }
  bool nhwc = t.layout == TensorLayout::nhwc || (t.layout == TensorLayout::unspecified && t.dims[3] == 3);
  bool nchw = t.layout == TensorLayout::nchw || (t.layout == TensorLayout::unspecified && !nhwc && t.dims[1] == 3);
  TensorShape s;
  if (nhwc && t.dims[3] == 3) {
    s.height = static_cast<int>(t.dims[1]);
    s.width = static_cast<int>(t.dims[2]);
    if (t.type == ElementType::u8) {
      s.format = TensorFormat::u8_nhwc;
    } else if (t.type == ElementType::f32) {
      s.format = TensorFormat::f32_nhwc;
    } else {
      error = "NHWC tensors must be u8 or f32";
      return std::nullopt;
    }
  } else if (nchw && t.dims[1] == 3) {
    s.height = static_cast<int>(t.dims[2]);
    s.width = static_cast<int>(t.dims[3]);
    if (t.type != ElementType::f32) {
      error = "NCHW tensors must be f32";
      return std::nullopt;
    }
    s.format = TensorFormat::f32_nchw;
  } else {
    error = "expects 3 channels: [1,H,W,3] (nhwc) or [1,3,H,W] (nchw)";
    return std::nullopt;
  }
  if (s.width <= 0 || s.height <= 0) {
    error = "tensor has no pixels";
    return std::nullopt;
  }
  return s;
}

// Mapping attributes -> PixelMapping, or an error text.
template <class Ctx>
std::optional<PixelMapping> read_mapping(const Ctx& c, std::string& error) {
  const std::string& name = c.string("mapping");
  PixelMapping m;
  if (name == "mean_std") {
    const auto& mean = c.numbers("mean");
    const auto& sd = c.numbers("std");
    if (mean.size() != 3 || sd.size() != 3) {
      error = "mapping mean_std needs attributes mean and std with 3 numbers each";
      return std::nullopt;
    }
    float fm[3], fs[3];
    for (int i = 0; i < 3; ++i) {
      fm[i] = static_cast<float>(mean[static_cast<std::size_t>(i)]);
      fs[i] = static_cast<float>(sd[static_cast<std::size_t>(i)]);
      if (!(fs[i] != 0.0f) || !std::isfinite(fs[i])) {
        error = "std values must be finite and non-zero";
        return std::nullopt;
      }
    }
    return PixelMapping::mean_std(fm, fs);
  }
  if (!parse_mapping(name, m)) {
    error = "unknown mapping '" + name + "' (blazeface, unit, none or mean_std)";
    return std::nullopt;
  }
  return m;
}

void validate_letterbox(ValidateContext& v) {
  check_image(v, LetterboxParams::input, "input");
  std::string error;
  if (!read_mapping(v, error)) v.fail("mapping", error);
  const std::int64_t pad = v.integer("pad_value");
  if (pad < 0 || pad > 255) v.fail("pad_value", "must be 0..255 (before mapping), got " + std::to_string(pad));
  const DataMeta& out = v.meta(LetterboxParams::output);
  if (out.valid) {
    if (out.kind != DataKind::tensor) v.fail("output", "expects a tensor, got " + out.describe());
    if (!tensor_shape(out.tensor, error)) v.fail("output", error + ", got " + out.describe());
  } else {
    // Virtual output: the attributes say what to make.
    const std::int64_t w = v.integer("width"), h = v.integer("height");
    if (w <= 0 || h <= 0)
      v.fail("output", "is virtual: set attributes width and height (and type, layout) to define it");
    const std::string& type = v.string("type");
    const std::string& layout = v.string("layout");
    if (type != "f32" && type != "u8") v.fail("type", "must be f32 or u8, got '" + type + "'");
    if (layout != "nhwc" && layout != "nchw") v.fail("layout", "must be nhwc or nchw, got '" + layout + "'");
    if (type == "u8" && layout == "nchw") v.fail("layout", "u8 output is NHWC only");
    const ElementType et = type == "u8" ? ElementType::u8 : ElementType::f32;
    v.set_meta(LetterboxParams::output,
               layout == "nhwc" ? DataMeta::tensor_of({1, h, w, 3}, et, TensorLayout::nhwc)
                                : DataMeta::tensor_of({1, 3, h, w}, et, TensorLayout::nchw));
  }
  v.set_meta(LetterboxParams::geometry, DataMeta::user_data_of<LetterboxGeometry>(kGeometryTypeName));
}

/// Letterbox: image -> tensor, and the geometry written once.
class LetterboxKernel {
 public:
  explicit LetterboxKernel(KernelContext& ctx) {
    const ImageMeta& im = ctx.meta(LetterboxParams::input).image;
    format_ = *to_pixel_format(im.format);
    std::string error;
    const auto shape = tensor_shape(ctx.meta(LetterboxParams::output).tensor, error);
    const auto mapping = read_mapping(ctx, error);
    if (!shape || !mapping) throw Error(std::string(ctx.node_name()) + ": " + error);
    const LetterboxGeometry g =
        make_letterbox(static_cast<int>(im.width), static_cast<int>(im.height), shape->width, shape->height);
    PreprocessConfig cfg;
    cfg.format = shape->format;
    cfg.mapping = *mapping;
    cfg.pad_value = static_cast<std::uint8_t>(ctx.integer("pad_value"));
    cfg.rgb = ctx.boolean("rgb");
    pre_ = std::make_unique<Preprocessor>(g, cfg);
    // One immutable source of truth for every consumer that maps detections back.
    ctx.user_data<LetterboxGeometry>(LetterboxParams::geometry) = g;
  }

  Status process(KernelContext& ctx) noexcept {
    const ImageView img = ctx.image(LetterboxParams::input);
    const TensorView out = ctx.tensor(LetterboxParams::output);
    begin_cpu(img.block(), CpuAccess::read);
    begin_cpu(out.block(), CpuAccess::write);
    const bool ok = pre_->run(image_ref(img, format_), out.data());
    end_cpu(out.block(), CpuAccess::write);
    end_cpu(img.block(), CpuAccess::read);
    if (!ok) {
      ctx.set_error("letterbox: image does not match its metadata (null plane)");
      return Status::invalid_argument;
    }
    return Status::ok;
  }

 private:
  PixelFormat format_ = PixelFormat::bgr24;
  std::unique_ptr<Preprocessor> pre_;
};

// ------------------------------------------------------------------------------------------ postprocess

const char* const kInNames[PostprocessParams::max_tensors] = {"in0", "in1", "in2", "in3", "in4",
                                                                "in5", "in6", "in7", "in8"};

std::optional<ElemType> to_elem(ElementType t) noexcept {
  switch (t) {
    case ElementType::f32: return ElemType::f32;
    case ElementType::i8: return ElemType::i8;
    case ElementType::u8: return ElemType::u8;
    default: return std::nullopt;
  }
}

TensorRef ref_of(const TensorMeta& m, ElemType type) noexcept {
  TensorRef t;
  t.type = type;
  t.rank = static_cast<int>(std::min<std::uint32_t>(m.rank, kMaxRank));
  for (int i = 0; i < t.rank; ++i) t.dims[i] = m.dims[static_cast<std::size_t>(i)];
  t.scale = m.scale;
  t.zero_point = m.zero_point;
  return t;
}

// Bound tensors in0..in(n-1) as TensorRefs (no data). Throws through fail() on a gap or bad type.
template <class Ctx, class Fail>
std::size_t collect_tensors(const Ctx& c, std::array<TensorRef, PostprocessParams::max_tensors>& refs, Fail&& fail) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < PostprocessParams::max_tensors; ++i) {
    if (!c.is_bound(i)) continue;
    if (i != n) fail(kInNames[i], std::string("is bound but ") + kInNames[n] + " is not: bind in0, in1, ... without gaps");
    const DataMeta& m = c.meta(i);
    if (m.kind != DataKind::tensor) fail(kInNames[i], "expects a tensor, got " + m.describe());
    const auto type = to_elem(m.tensor.type);
    if (!type) fail(kInNames[i], "expects an f32, i8 or u8 tensor, got " + m.describe());
    refs[i] = ref_of(m.tensor, *type);
    ++n;
  }
  return n;
}

// Model input size the decoder assumes when neither the attributes nor the geometry give it at validate:
// the finest YOLO grid has stride 8; BlazeFace only needs a square.
void guess_model_size(DecoderKind kind, std::span<const TensorRef> t, int& w, int& h) noexcept {
  w = h = 128;
  if (kind == DecoderKind::blazeface || t.size() == 1) return;
  std::int64_t gw = 0, gh = 0;
  for (const TensorRef& r : t)
    if (r.rank == 4 && r.dims[3] > gw) {
      gw = r.dims[3];
      gh = r.dims[2];
    }
  w = static_cast<int>(gw * 8);
  h = static_cast<int>(gh * 8);
}

struct PostprocessSettings {
  PostprocessConfig config;
  bool explicit_size = false;
};

template <class Ctx, class Fail>
PostprocessSettings read_settings(const Ctx& c, Fail&& fail) {
  PostprocessSettings s;
  PostprocessConfig& cfg = s.config;
  if (!parse_decoder(c.string("decoder"), cfg.decoder))
    fail("decoder", "unknown decoder '" + c.string("decoder") + "' (blazeface, yolov5, yolov8)");
  const double score = c.number("score_threshold");
  if (!(score >= 0.0 && score <= 1.0)) fail("score_threshold", "must be in [0, 1], got " + std::to_string(score));
  cfg.decode.score_threshold = static_cast<float>(score);
  const bool face = cfg.decoder == DecoderKind::blazeface;
  double iou = c.number("iou_threshold");
  if (iou < 0.0) iou = face ? 0.3 : 0.45;  // MediaPipe / Rockchip model zoo defaults
  if (!(iou <= 1.0)) fail("iou_threshold", "must be in [0, 1] (or negative for the decoder default)");
  cfg.nms.iou_threshold = static_cast<float>(iou);
  const std::string& nms = c.string("nms");
  if (nms == "auto") {
    cfg.nms.kind = face ? NmsKind::weighted : NmsKind::hard;
  } else if (!parse_nms(nms, cfg.nms.kind)) {
    fail("nms", "unknown nms '" + nms + "' (auto, hard, weighted)");
  }
  const std::int64_t max_det = c.integer("max_det");
  if (max_det < 1 || max_det > kMaxDetections)
    fail("max_det", "must be 1.." + std::to_string(kMaxDetections) + ", got " + std::to_string(max_det));
  cfg.nms.max_det = static_cast<int>(max_det);
  const std::int64_t top_k = c.integer("top_k_per_class");
  if (top_k < 1 || top_k > kMaxDetections)
    fail("top_k_per_class", "must be 1.." + std::to_string(kMaxDetections) + ", got " + std::to_string(top_k));
  cfg.nms.top_k_per_class = static_cast<int>(top_k);
  const std::int64_t max_cand = c.integer("max_candidates");
  if (max_cand < 1 || max_cand > (1 << 20)) fail("max_candidates", "must be 1..1048576");
  cfg.max_candidates = static_cast<std::size_t>(max_cand);
  if (!cfg.decode.class_filter.parse(c.string("classes")))
    fail("classes", "expects comma-separated class ids 0..255 (empty = all), got '" + c.string("classes") + "'");
  const std::int64_t mw = c.integer("model_width"), mh = c.integer("model_height");
  if (mw < 0 || mh < 0 || (mw == 0) != (mh == 0)) fail("model_width", "set both model_width and model_height, or neither");
  cfg.decode.input_w = static_cast<int>(mw);
  cfg.decode.input_h = static_cast<int>(mh);
  s.explicit_size = mw > 0;
  const auto& anchors = c.numbers("anchors");
  if (!anchors.empty()) {
    if (anchors.size() != 18) fail("anchors", "expects 18 numbers (3 strides x 3 anchors x w,h)");
    for (std::size_t i = 0; i < 18; ++i) cfg.decode.yolov5_anchors[i / 6][i % 6] = static_cast<float>(anchors[i]);
  }
  return s;
}

void validate_postprocess(ValidateContext& v) {
  auto fail = [&](const char* what, const std::string& msg) { v.fail(what, msg); };
  PostprocessSettings s = read_settings(v, fail);
  std::array<TensorRef, PostprocessParams::max_tensors> refs{};
  const std::size_t n = collect_tensors(v, refs, fail);
  if (v.is_bound(PostprocessParams::geometry))
    check_user_data(v, PostprocessParams::geometry, "geometry", kGeometryTypeName, sizeof(LetterboxGeometry));
  else if (!s.explicit_size)
    v.fail("geometry", "is not bound: bind the letterbox geometry or set model_width/model_height");
  int w = s.config.decode.input_w, h = s.config.decode.input_h;
  if (!s.explicit_size) guess_model_size(s.config.decoder, std::span(refs.data(), n), w, h);
  const LayoutCheck check = check_layout(s.config.decoder, std::span(refs.data(), n), w, h);
  if (!check.ok) v.fail(check.tensor >= 0 ? kInNames[check.tensor] : "in0", check.message);
  v.set_meta(PostprocessParams::detections, DataMeta::user_data_of<DetectionPacket>(kDetectionsTypeName));
}

/// Postprocess: model outputs -> DetectionPacket in source pixels.
class PostprocessKernel {
 public:
  explicit PostprocessKernel(KernelContext& ctx) {
    auto fail = [&](const char* what, const std::string& msg) {
      throw Error(std::string(ctx.node_name()) + ", parameter '" + what + "': " + msg);
    };
    PostprocessSettings s = read_settings(ctx, fail);
    config_ = s.config;
    num_tensors_ = collect_tensors(ctx, refs_, fail);
    has_geometry_ = ctx.is_bound(PostprocessParams::geometry);
    if (!s.explicit_size) {
      // The letterbox node wrote the geometry in its create, which ran before ours (creation follows the
      // execution order), so the model input size is known now.
      const LetterboxGeometry& g = ctx.user_data<LetterboxGeometry>(PostprocessParams::geometry);
      if (!g.valid()) fail("geometry", "holds no valid letterbox geometry (is its writer a vg.detection.letterbox?)");
      config_.decode.input_w = g.dst_w;
      config_.decode.input_h = g.dst_h;
    }
    const std::span<const TensorRef> refs(refs_.data(), num_tensors_);
    const LayoutCheck check = check_layout(config_.decoder, refs, config_.decode.input_w, config_.decode.input_h);
    if (!check.ok) fail(check.tensor >= 0 ? kInNames[check.tensor] : "in0", check.message);
    scratch_ = std::make_unique<PostprocessScratch>(config_, refs);
    identity_ = make_letterbox(config_.decode.input_w, config_.decode.input_h, config_.decode.input_w,
                               config_.decode.input_h);
  }

  Status process(KernelContext& ctx) noexcept {
    for (std::size_t i = 0; i < num_tensors_; ++i) {
      const TensorView t = ctx.tensor(i);
      begin_cpu(t.block(), CpuAccess::read);
      refs_[i].data = t.data();
    }
    const LetterboxGeometry& g =
        has_geometry_ ? ctx.user_data<LetterboxGeometry>(PostprocessParams::geometry) : identity_;
    DetectionPacket& pkt = ctx.user_data<DetectionPacket>(PostprocessParams::detections);
    postprocess(config_, std::span<const TensorRef>(refs_.data(), num_tensors_), g, *scratch_, pkt);
    pkt.sequence = ctx.frame().sequence;
    pkt.timestamp_ns = ctx.frame().timestamp_ns;
    for (std::size_t i = 0; i < num_tensors_; ++i) end_cpu(ctx.tensor(i).block(), CpuAccess::read);
    return Status::ok;
  }

  Status control(KernelContext& /*ctx*/, const ControlCommand& cmd, CommandReply& reply) noexcept {
    Status status = Status::ok;
    switch (cmd.id) {
      case kCmdSetScoreThreshold: {
        double v = 0;
        if (!cmd.read(v) || !(v >= 0.0 && v <= 1.0)) {
          status = Status::invalid_argument;
        } else {
          config_.decode.score_threshold = static_cast<float>(v);
        }
        break;
      }
      case kCmdSetIouThreshold: {
        double v = 0;
        if (!cmd.read(v) || !(v >= 0.0 && v <= 1.0)) {
          status = Status::invalid_argument;
        } else {
          config_.nms.iou_threshold = static_cast<float>(v);
        }
        break;
      }
      case kCmdSetMaxDet: {
        std::int64_t v = 0;
        if (!cmd.read(v) || v < 1 || v > kMaxDetections) {
          status = Status::invalid_argument;
        } else {
          config_.nms.max_det = static_cast<int>(v);
        }
        break;
      }
      case kCmdSetClassFilter:
        if (!config_.decode.class_filter.parse(cmd.text())) status = Status::invalid_argument;
        break;
      case kCmdGetSettings:
        break;
      default:
        return Status::unknown_command;
    }
    write_settings(reply, status);
    return status;
  }

 private:
  void write_settings(CommandReply& reply, Status status) const noexcept {
    // A long class list is cut at 80 characters ("...") so the reply always fits the payload.
    char classes[84];
    if (config_.decode.class_filter.format(classes, sizeof classes) > 80) std::memcpy(classes + 77, "...", 4);
    char text[kMaxCommandPayload];
    const std::string_view dec = to_string(config_.decoder);
    const std::string_view nms = to_string(config_.nms.kind);
    std::snprintf(text, sizeof text,
                  "%sdecoder=%.*s score_threshold=%g iou_threshold=%g nms=%.*s max_det=%d top_k_per_class=%d "
                  "classes=%.80s",
                  status == Status::ok ? "" : "error: invalid value; ", static_cast<int>(dec.size()), dec.data(),
                  static_cast<double>(config_.decode.score_threshold), static_cast<double>(config_.nms.iou_threshold),
                  static_cast<int>(nms.size()), nms.data(), config_.nms.max_det, config_.nms.top_k_per_class,
                  classes);
    reply.write_text(text);
  }

  PostprocessConfig config_;
  std::array<TensorRef, PostprocessParams::max_tensors> refs_{};
  std::size_t num_tensors_ = 0;
  bool has_geometry_ = false;
  LetterboxGeometry identity_{};
  std::unique_ptr<PostprocessScratch> scratch_;
};

// ------------------------------------------------------------------------------------------ overlay

void validate_overlay(ValidateContext& v) {
  check_image(v, OverlayParams::image, "image");
  check_user_data(v, OverlayParams::detections, "detections", kDetectionsTypeName, sizeof(DetectionPacket));
  if (v.integer("thickness") < 1 || v.integer("thickness") > 64) v.fail("thickness", "must be 1..64");
  if (v.integer("keypoint_radius") < 1 || v.integer("keypoint_radius") > 64) v.fail("keypoint_radius", "must be 1..64");
  if (!(v.number("font_scale") > 0.0 && v.number("font_scale") <= 4.0)) v.fail("font_scale", "must be in (0, 4]");
  const ImageMeta& im = v.meta(OverlayParams::image).image;
  v.set_meta(OverlayParams::output, DataMeta::image_of(im.width, im.height, ImageFormat::bgr24));
}

std::vector<std::string> split_labels(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto b = item.find_first_not_of(' ');
    const auto e = item.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? std::string() : item.substr(b, e - b + 1));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::uint8_t clamp_u8(int v) noexcept { return static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v)); }

/// Overlay: copy (or convert) the image to BGR24, then draw the detections.
class OverlayKernel {
 public:
  explicit OverlayKernel(KernelContext& ctx)
      : format_(*to_pixel_format(ctx.meta(OverlayParams::image).image.format)),
        overlay_(
            OverlayStyle{static_cast<int>(ctx.integer("thickness")), static_cast<int>(ctx.integer("keypoint_radius")),
                         ctx.number("font_scale"), ctx.boolean("draw_labels"), ctx.boolean("draw_keypoints")},
            split_labels(ctx.string("labels"))) {}

  Status process(KernelContext& ctx) noexcept {
    const ImageView in = ctx.image(OverlayParams::image);
    const ImageView out = ctx.image(OverlayParams::output);
    const auto& pkt = ctx.user_data<DetectionPacket>(OverlayParams::detections);
    begin_cpu(in.block(), CpuAccess::read);
    begin_cpu(out.block(), CpuAccess::write);
    copy_to_bgr(in, out);
    overlay_.draw(out.plane(0), static_cast<int>(out.width()), static_cast<int>(out.height()), out.stride(0), pkt);
    end_cpu(out.block(), CpuAccess::write);
    end_cpu(in.block(), CpuAccess::read);
    return Status::ok;
  }

 private:
  void copy_to_bgr(const ImageView& in, const ImageView& out) const noexcept {
    const int w = static_cast<int>(in.width()), h = static_cast<int>(in.height());
    for (int y = 0; y < h; ++y) {
      std::uint8_t* d = out.plane(0) + static_cast<std::size_t>(y) * out.stride(0);
      if (format_ == PixelFormat::bgr24) {
        std::memcpy(d, in.plane(0) + static_cast<std::size_t>(y) * in.stride(0), static_cast<std::size_t>(w) * 3);
      } else if (format_ == PixelFormat::rgb24) {
        const std::uint8_t* s = in.plane(0) + static_cast<std::size_t>(y) * in.stride(0);
        for (int x = 0; x < w; ++x) {
          d[3 * x] = s[3 * x + 2];
          d[3 * x + 1] = s[3 * x + 1];
          d[3 * x + 2] = s[3 * x];
        }
      } else {
        // NV12 -> BGR, BT.601 limited range in fixed point (the cv::COLOR_YUV2BGR_NV12 convention).
        const std::uint8_t* ys = in.plane(0) + static_cast<std::size_t>(y) * in.stride(0);
        const std::uint8_t* uv = in.plane(1) + static_cast<std::size_t>(y / 2) * in.stride(1);
        for (int x = 0; x < w; ++x) {
          const int c = 298 * (std::max(ys[x] - 16, 0));
          const int u = uv[(x / 2) * 2] - 128;
          const int v = uv[(x / 2) * 2 + 1] - 128;
          d[3 * x] = clamp_u8((c + 516 * u + 128) >> 8);
          d[3 * x + 1] = clamp_u8((c - 100 * u - 208 * v + 128) >> 8);
          d[3 * x + 2] = clamp_u8((c + 409 * v + 128) >> 8);
        }
      }
    }
  }

  PixelFormat format_;
  Overlay overlay_;
};

// ------------------------------------------------------------------------------------------ track

TrackerConfig tracker_config_of(double high, double low, double iou, double size_change, std::int64_t min_hits,
                                std::int64_t max_age) noexcept {
  TrackerConfig c;
  c.max_size_change = static_cast<float>(size_change);
  c.high_score = static_cast<float>(high);
  c.low_score = static_cast<float>(low);
  c.iou_threshold = static_cast<float>(iou);
  c.min_hits = static_cast<int>(std::clamp<std::int64_t>(min_hits, -1, 1 << 20));
  c.max_age = static_cast<int>(std::clamp<std::int64_t>(max_age, -1, 1 << 20));
  return c;
}

void validate_track(ValidateContext& v) {
  check_user_data(v, TrackParams::detections, "detections", kDetectionsTypeName, sizeof(DetectionPacket));
  const TrackerConfig c = tracker_config_of(v.number("high_score"), v.number("low_score"), v.number("iou_threshold"),
                                            v.number("max_size_change"), v.integer("min_hits"), v.integer("max_age"));
  if (const char* why = check_tracker_config(c); why != nullptr) {
    // The message starts with the attribute's name.
    const std::string text(why);
    v.fail(text.substr(0, text.find(' ')).c_str(), text);
  }
  v.set_meta(TrackParams::tracked, DataMeta::user_data_of<DetectionPacket>(kDetectionsTypeName));
}

/// Track: the input packet copied to the output with a track id in each detection.
class TrackKernel {
 public:
  explicit TrackKernel(KernelContext& ctx)
      : tracker_(std::make_unique<Tracker>(tracker_config_of(ctx.number("high_score"), ctx.number("low_score"),
                                                             ctx.number("iou_threshold"), ctx.number("max_size_change"), ctx.integer("min_hits"),
                                                             ctx.integer("max_age")))) {}

  Status process(KernelContext& ctx) noexcept {
    const auto& in = ctx.user_data<DetectionPacket>(TrackParams::detections);
    auto& out = ctx.user_data<DetectionPacket>(TrackParams::tracked);
    const std::uint32_t n = std::min<std::uint32_t>(in.count, kMaxDetections);
    out.sequence = in.sequence;
    out.timestamp_ns = in.timestamp_ns;
    out.count = n;
    out.flags = in.flags;
    std::copy(in.items, in.items + n, out.items);
    tracker_->update(out);
    return Status::ok;
  }

  Status control(KernelContext& /*ctx*/, const ControlCommand& cmd, CommandReply& reply) noexcept {
    Status status = Status::ok;
    TrackerConfig c = tracker_->config();
    double value = 0;
    switch (cmd.id) {
      case kCmdTrackReset: tracker_->reset(); break;
      case kCmdTrackSetIouThreshold:
      case kCmdTrackSetHighScore:
      case kCmdTrackSetLowScore:
        if (!cmd.read(value)) {
          status = Status::invalid_argument;
          break;
        }
        (cmd.id == kCmdTrackSetIouThreshold ? c.iou_threshold : cmd.id == kCmdTrackSetHighScore ? c.high_score : c.low_score) =
            static_cast<float>(value);
        if (!tracker_->set_config(c)) status = Status::invalid_argument;
        break;
      case kCmdTrackGetSettings: break;
      default: return Status::invalid_argument;
    }
    const TrackerConfig& now = tracker_->config();
    char text[256];
    std::snprintf(text, sizeof text,
                  "%shigh_score=%g low_score=%g iou_threshold=%g max_size_change=%g min_hits=%d max_age=%d live=%d confirmed=%d "
                  "started=%llu dropped=%llu",
                  status == Status::ok ? "" : "error: invalid value; ", static_cast<double>(now.high_score),
                  static_cast<double>(now.low_score), static_cast<double>(now.iou_threshold),
                  static_cast<double>(now.max_size_change), now.min_hits, now.max_age,
                  tracker_->live_tracks(), tracker_->confirmed_tracks(),
                  static_cast<unsigned long long>(tracker_->stats().tracks_started),
                  static_cast<unsigned long long>(tracker_->stats().tracks_dropped));
    reply.write_text(text);
    return status;
  }

 private:
  std::unique_ptr<Tracker> tracker_;  // 600 KB of fixed tables: on the heap, once, in create
};

}  // namespace

Module make_detection_module() {
  Module m("vg.detection");
  // Each of these takes milliseconds per frame; one still running after 10 s is stuck, not slow, and is
  // reported and contained (docs/service.md, deadlines) instead of freezing the graph.
  constexpr std::chrono::seconds kRunDeadline{10};

  m.add(KernelDecl(std::string(kLetterboxKernel),
                   "letterbox an image into a model input tensor (resize keeping aspect, centre, pad, normalise)")
            .input("input", DataKind::image, true, "bgr24, rgb24 or nv12 image of any size")
            .output("output", DataKind::tensor, true, "u8/f32 [1,H,W,3] or f32 [1,3,H,W]")
            .static_output("geometry", DataKind::user_data, true, "LetterboxGeometry, written once in create")
            .attribute("mapping", "blazeface", "blazeface (v/127.5-1), unit (v/255), none (v) or mean_std")
            .attribute("mean", AttrValue(std::vector<double>{}), "mapping mean_std: 3 means in 0..255 units")
            .attribute("std", AttrValue(std::vector<double>{}), "mapping mean_std: 3 standard deviations")
            .attribute("pad_value", 0, "pad colour 0..255 before mapping (0 -> -1.0 with blazeface; 114 for YOLO)")
            .attribute("rgb", true, "tensor channel order RGB (else BGR)")
            .attribute("width", 0, "virtual output only: tensor width")
            .attribute("height", 0, "virtual output only: tensor height")
            .attribute("type", "f32", "virtual output only: f32 or u8")
            .attribute("layout", "nhwc", "virtual output only: nhwc or nchw")
            .deadline(kRunDeadline)
            .validate(validate_letterbox));
  m.implement(std::string(kLetterboxKernel), "cpu", callbacks_for<LetterboxKernel>());

  KernelDecl post(std::string(kPostprocessKernel),
                  "decode model outputs (BlazeFace, YOLOv5, YOLOv8/11), NMS, map back to source pixels");
  for (std::size_t i = 0; i < PostprocessParams::max_tensors; ++i)
    post.input(kInNames[i], DataKind::tensor, i == 0, i == 0 ? "model output 0" : "model output (optional)");
  post.static_input("geometry", DataKind::user_data, false, "LetterboxGeometry from vg.detection.letterbox")
      .output("detections", DataKind::user_data, true, "DetectionPacket")
      .attribute("decoder", "blazeface", "blazeface, yolov5 or yolov8 (also yolo11)")
      .attribute("score_threshold", 0.5, "keep candidates scoring >= this (0..1)")
      .attribute("iou_threshold", -1.0, "NMS IoU threshold; negative = decoder default (0.3 blazeface, 0.45 yolo)")
      .attribute("nms", "auto", "auto (weighted for blazeface, else hard), hard or weighted")
      .attribute("max_det", 100, "detections per frame (1..256)")
      .attribute("top_k_per_class", 100, "detections per class per frame (1..256)")
      .attribute("max_candidates", 4096, "candidate buffer; the best are kept when more pass the threshold")
      .attribute("classes", "", "comma-separated class ids to report; empty = all")
      .attribute("model_width", 0, "model input width; 0 = from the geometry")
      .attribute("model_height", 0, "model input height; 0 = from the geometry")
      .attribute("anchors", AttrValue(std::vector<double>{}), "yolov5: 18 anchor sizes (default: COCO anchors)")
      .command(kCmdSetScoreThreshold, "set_score_threshold", PayloadKind::number, "new score threshold (0..1)")
      .command(kCmdSetIouThreshold, "set_iou_threshold", PayloadKind::number, "new NMS IoU threshold (0..1)")
      .command(kCmdSetMaxDet, "set_max_det", PayloadKind::integer, "new detection cap (1..256)")
      .command(kCmdSetClassFilter, "set_class_filter", PayloadKind::text, "class ids '0,2,7'; empty = all")
      .command(kCmdGetSettings, "get_settings", PayloadKind::none, "reply with the current settings")
      .deadline(kRunDeadline)
      .validate(validate_postprocess);
  m.add(std::move(post));
  m.implement(std::string(kPostprocessKernel), "cpu", callbacks_for<PostprocessKernel>());

  m.add(KernelDecl(std::string(kOverlayKernel), "draw detections (boxes, labels, keypoints) on a BGR copy of the image")
            .input("image", DataKind::image, true, "bgr24, rgb24 or nv12 image the detections refer to")
            .input("detections", DataKind::user_data, true, "DetectionPacket")
            .output("output", DataKind::image, true, "bgr24 image, same size, annotated")
            .attribute("labels", "", "comma-separated class names (index = class id)")
            .attribute("thickness", 2, "box line width in pixels")
            .attribute("keypoint_radius", 3, "keypoint disc radius in pixels")
            .attribute("font_scale", 0.5, "label size (Hershey simplex scale)")
            .attribute("draw_labels", true, "draw 'label score%' above each box")
            .attribute("draw_keypoints", true, "draw keypoints")
            .deadline(kRunDeadline)
            .validate(validate_overlay));
  m.implement(std::string(kOverlayKernel), "cpu", callbacks_for<OverlayKernel>());

  m.add(KernelDecl(std::string(kTrackKernel),
                   "give each detection a track id stable across frames (IoU + constant-velocity Kalman, SORT/ByteTrack style)")
            .input("detections", DataKind::user_data, true, "DetectionPacket")
            .output("tracked", DataKind::user_data, true, "DetectionPacket: the same detections, track_id set (0 = none yet)")
            .attribute("high_score", 0.5, "detections scoring at least this are matched first and may start tracks")
            .attribute("low_score", 0.1, "detections in [low_score, high_score) only continue confirmed tracks")
            .attribute("iou_threshold", 0.3, "least IoU between a detection and a track's predicted box to match")
            .attribute("max_size_change", 1.5, "a detection this many times wider/taller or narrower/shorter than the track's "
                                               "prediction does not continue it (a cut to a close-up)")
            .attribute("min_hits", 3, "matched frames in a row before a track gets its id")
            .attribute("max_age", 30, "frames a track is kept (predicted) without a match")
            .command(kCmdTrackReset, "reset", PayloadKind::none, "drop every track (ids keep increasing)")
            .command(kCmdTrackSetIouThreshold, "set_iou_threshold", PayloadKind::number, "new IoU threshold (0..1]")
            .command(kCmdTrackSetHighScore, "set_high_score", PayloadKind::number, "new high score (low_score..1)")
            .command(kCmdTrackSetLowScore, "set_low_score", PayloadKind::number, "new low score (0..high_score)")
            .command(kCmdTrackGetSettings, "get_settings", PayloadKind::none, "reply with the settings and track counts")
            .deadline(kRunDeadline)
            .validate(validate_track));
  m.implement(std::string(kTrackKernel), "cpu", callbacks_for<TrackKernel>());
  return m;
}

}  // namespace vg::detection
