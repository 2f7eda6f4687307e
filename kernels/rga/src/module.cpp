#include "visiongraph/kernels/rga/module.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/detection/letterbox.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/rga/rga_letterbox.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::rga {
namespace {

struct Params {
  static constexpr std::size_t input = 0, output = 1, geometry = 2;
};

/// After this many failed RGA jobs in a row the node stops trying RGA and letterboxes on the CPU.
constexpr int kMaxConsecutiveFailures = 8;

std::optional<detection::PixelFormat> pixel_format(ImageFormat f) noexcept {
  switch (f) {
    case ImageFormat::bgr24: return detection::PixelFormat::bgr24;
    case ImageFormat::rgb24: return detection::PixelFormat::rgb24;
    case ImageFormat::nv12: return detection::PixelFormat::nv12;
    case ImageFormat::gray8: return std::nullopt;
  }
  return std::nullopt;
}

detection::ImageRef image_ref(const ImageView& v, detection::PixelFormat f) noexcept {
  detection::ImageRef r;
  r.format = f;
  r.width = static_cast<int>(v.width());
  r.height = static_cast<int>(v.height());
  r.plane[0] = v.plane(0);
  r.stride[0] = v.stride(0);
  if (f == detection::PixelFormat::nv12) {
    r.plane[1] = v.plane(1);
    r.stride[1] = v.stride(1);
  }
  return r;
}

/// The model input's width and height when it is a u8 [1,H,W,3] NHWC tensor; else nullopt.
std::optional<std::pair<int, int>> u8_nhwc_size(const TensorMeta& t) noexcept {
  const bool nhwc = t.layout == TensorLayout::nhwc || t.layout == TensorLayout::unspecified;
  if (t.rank != 4 || t.dims[0] != 1 || t.dims[3] != 3 || !nhwc || t.type != ElementType::u8) return std::nullopt;
  if (t.dims[1] <= 0 || t.dims[2] <= 0) return std::nullopt;
  return std::make_pair(static_cast<int>(t.dims[2]), static_cast<int>(t.dims[1]));
}

/// What validate decided, handed to create.
struct Decision {
  bool use_rga = false;
  std::string reason;  // why the CPU letterboxes (empty when RGA does)
  std::shared_ptr<const npu::RgaRuntime> runtime;
};

RgaLetterboxSpec spec_of(const ImageMeta& im, int dst_w, int dst_h, bool rgb, std::int64_t pad,
                         std::int64_t max_imports) {
  RgaLetterboxSpec s;
  s.src_w = static_cast<int>(im.width);
  s.src_h = static_cast<int>(im.height);
  s.src_format = *pixel_format(im.format);
  s.src_stride = im.stride(0);
  s.dst_w = dst_w;
  s.dst_h = dst_h;
  s.rgb = rgb;
  s.pad_value = static_cast<std::uint8_t>(pad);
  s.max_imported_buffers = static_cast<std::size_t>(max_imports);
  return s;
}

/// engine auto/rga: can RGA do this node's letterbox here? Empty reason and a runtime when it can.
Decision decide(const std::string& engine, const RgaLetterboxSpec& spec, const std::string& librga_path) {
  Decision d;
  if (engine == "cpu") {
    d.reason = "engine: cpu";
    return d;
  }
  if (std::string why = rga_letterbox_unsupported(spec); !why.empty()) {
    d.reason = why;
    return d;
  }
  if (std::string missing = npu::rga_device_missing(); !missing.empty()) {
    d.reason = std::move(missing);
    return d;
  }
  try {
    d.runtime = npu::RgaRuntime::open(librga_path);
  } catch (const std::exception& e) {
    d.reason = e.what();
    return d;
  }
  d.use_rga = true;
  return d;
}

void validate(ValidateContext& v) {
  const DataMeta& in = v.meta(Params::input);
  if (in.kind != DataKind::image || !pixel_format(in.image.format))
    v.fail("input", "expects a bgr24, rgb24 or nv12 image, got " + in.describe());
  if (in.image.width == 0 || in.image.height == 0) v.fail("input", "image has no pixels: " + in.describe());
  const std::int64_t pad = v.integer("pad_value");
  if (pad < 0 || pad > 255) v.fail("pad_value", "must be 0..255, got " + std::to_string(pad));
  const std::string& engine = v.string("engine");
  if (engine != "auto" && engine != "rga" && engine != "cpu")
    v.fail("engine", "must be auto, rga or cpu, got '" + engine + "'");
  const std::int64_t max_imports = v.integer("max_imported_buffers");
  if (max_imports < 1 || max_imports > 64)
    v.fail("max_imported_buffers", "must be 1..64, got " + std::to_string(max_imports));
  int dst_w = 0, dst_h = 0;
  const DataMeta& out = v.meta(Params::output);
  if (out.valid) {
    const auto size = out.kind == DataKind::tensor ? u8_nhwc_size(out.tensor) : std::nullopt;
    if (!size)
      v.fail("output", "expects a u8 [1,H,W,3] NHWC tensor (RGA writes bytes: fold mean/std into the model, or use "
                       "vg.detection.letterbox for f32), got " + out.describe());
    dst_w = size->first;
    dst_h = size->second;
  } else {
    const std::int64_t w = v.integer("width"), h = v.integer("height");
    if (w <= 0 || h <= 0) v.fail("output", "is virtual: set attributes width and height to define it");
    dst_w = static_cast<int>(w);
    dst_h = static_cast<int>(h);
    v.set_meta(Params::output, DataMeta::tensor_of({1, h, w, 3}, ElementType::u8, TensorLayout::nhwc));
  }
  v.set_meta(Params::geometry,
             DataMeta::user_data_of<detection::LetterboxGeometry>(detection::kGeometryTypeName));
  auto decision = std::make_shared<Decision>(
      decide(engine, spec_of(in.image, dst_w, dst_h, v.boolean("rgb"), pad, max_imports), v.string("librga_path")));
  if (engine == "rga" && !decision->use_rga)
    v.fail("engine", "is rga, but RGA cannot letterbox here: " + decision->reason + " (engine: auto falls back to the CPU)");
  v.hand_to_create(std::move(decision));
}

/// The letterbox: RGA when validate chose it, the CPU otherwise and for any frame RGA fails.
class RgaLetterboxKernel {
 public:
  explicit RgaLetterboxKernel(KernelContext& ctx) {
    const ImageMeta& im = ctx.meta(Params::input).image;
    format_ = *pixel_format(im.format);
    const auto size = u8_nhwc_size(ctx.meta(Params::output).tensor);
    if (!size) throw Error(std::string(ctx.node_name()) + ": output is not a u8 [1,H,W,3] tensor");
    std::shared_ptr<Decision> decision = ctx.take_from_validate_as<Decision>();
    if (!decision) throw Error(std::string(ctx.node_name()) + ": validate did not run");
    const RgaLetterboxSpec spec = spec_of(im, size->first, size->second, ctx.boolean("rgb"), ctx.integer("pad_value"),
                                          ctx.integer("max_imported_buffers"));
    // Both engines place the content on whole pixels, so the geometry (and the detections mapped back
    // through it) does not depend on which engine ran.
    const detection::LetterboxGeometry g = rga_letterbox_geometry(spec.src_w, spec.src_h, spec.dst_w, spec.dst_h);
    detection::PreprocessConfig cfg;
    cfg.format = detection::TensorFormat::u8_nhwc;
    cfg.mapping = detection::PixelMapping::none();
    cfg.pad_value = spec.pad_value;
    cfg.rgb = spec.rgb;
    cpu_ = std::make_unique<detection::Preprocessor>(g, cfg);
    reason_ = decision->reason;
    if (decision->use_rga) {
      rga_ = std::make_unique<RgaLetterbox>(decision->runtime, spec);
      // librga's own check on the first buffers (the graph's, when it owns them): a refusal here is a
      // choice at verify, not a failure per frame.
      const ImageView img = ctx.image(Params::input);
      const TensorView out = ctx.tensor(Params::output);
      if (img.plane(0) != nullptr) {
        const int st = rga_->check(image_ref(img, format_), img.block(), out.data(), out.block());
        if (st != npu::rga::kStatusNoError) {
          std::string why = "librga's imcheck refused the buffers: ";
          why += st == npu::rga::kStatusNotSupported && rga_->last_failure()[0] != '\0'
                     ? rga_->last_failure()
                     : std::string(npu::rga_status_name(st)) + " " + rga_->runtime().status_text(st);
          if (ctx.string("engine") == "rga") throw Error(std::string(ctx.node_name()) + ", engine rga: " + why);
          reason_ = why;
          rga_.reset();
        }
      }
    }
    ctx.user_data<detection::LetterboxGeometry>(Params::geometry) = g;
  }

  Status process(KernelContext& ctx) noexcept {
    const ImageView img = ctx.image(Params::input);
    const TensorView out = ctx.tensor(Params::output);
    const detection::ImageRef ref = image_ref(img, format_);
    if (rga_) {
      const int st = rga_->run(ref, img.block(), out.data(), out.block());
      if (st == npu::rga::kStatusSuccess) {
        consecutive_failures_ = 0;
        ++rga_frames_;
        return Status::ok;
      }
      // This frame goes to the CPU; librga's status is in the frame's sample (0, IM_STATUS_FAILED, would
      // read as "no code" there).
      ctx.report_code(st != npu::rga::kStatusFailed ? st : kSampleCodeFailed);
      if (++consecutive_failures_ >= kMaxConsecutiveFailures) {
        std::snprintf(gave_up_, sizeof(gave_up_), "RGA failed %d frames in a row, last: %.190s", consecutive_failures_,
                      rga_->last_failure());
        rga_.reset();
      }
    }
    begin_cpu(img.block(), CpuAccess::read);
    begin_cpu(out.block(), CpuAccess::write);
    const bool ok = cpu_->run(ref, out.data());
    end_cpu(out.block(), CpuAccess::write);
    end_cpu(img.block(), CpuAccess::read);
    if (!ok) {
      ctx.set_error("rga letterbox: image does not match its metadata (null plane)");
      return Status::invalid_argument;
    }
    ++cpu_frames_;
    return Status::ok;
  }

  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) noexcept {
    if (cmd.id != kCmdGetEngine) return Status::unknown_command;
    char text[kMaxCommandPayload];
    const RgaLetterbox::Counters c = rga_ ? rga_->counters() : RgaLetterbox::Counters{};
    const char* why = gave_up_[0] != '\0' ? gave_up_ : reason_.c_str();
    std::snprintf(text, sizeof(text), "engine=%s rga_frames=%llu cpu_frames=%llu imports=%llu fills=%llu%s%.150s",
                  rga_ ? "rga" : "cpu", static_cast<unsigned long long>(rga_frames_),
                  static_cast<unsigned long long>(cpu_frames_), static_cast<unsigned long long>(c.imports),
                  static_cast<unsigned long long>(c.fills), *why != '\0' ? " why=" : "", why);
    reply.write_text(text);
    return Status::ok;
  }

 private:
  static void begin_cpu(const MemoryBlock& b, CpuAccess mode) noexcept {
    if (b.owner != nullptr) (void)b.owner->begin_cpu_access(b, mode);
  }
  static void end_cpu(const MemoryBlock& b, CpuAccess mode) noexcept {
    if (b.owner != nullptr) (void)b.owner->end_cpu_access(b, mode);
  }

  detection::PixelFormat format_ = detection::PixelFormat::bgr24;
  std::unique_ptr<RgaLetterbox> rga_;
  std::unique_ptr<detection::Preprocessor> cpu_;
  std::string reason_;
  char gave_up_[256] = {};
  int consecutive_failures_ = 0;
  std::uint64_t rga_frames_ = 0, cpu_frames_ = 0;
};

}  // namespace

Module make_rga_module() {
  Module m("vg.rga");
  m.add(KernelDecl(std::string(kLetterboxKernel),
                   "letterbox an image into a u8 model input on Rockchip's RGA (resize, centre, pad, colour "
                   "convert in one job), on the CPU where RGA is absent")
            .input("input", DataKind::image, true, "bgr24, rgb24 or nv12 image of any size")
            .output("output", DataKind::tensor, true, "u8 [1,H,W,3] NHWC (RGB or BGR bytes)")
            .static_output("geometry", DataKind::user_data, true, "LetterboxGeometry, written once in create")
            .attribute("engine", "auto",
                       "auto (RGA when librga and the device exist and RGA's limits allow, else the CPU), rga "
                       "(verify fails where RGA cannot) or cpu")
            .attribute("pad_value", 0, "pad grey level 0..255")
            .attribute("rgb", true, "tensor channel order RGB (else BGR)")
            .attribute("librga_path", "", "librga (default: VG_LIBRGA_PATH, else librga.so)")
            .attribute("max_imported_buffers", 8, "DMA-BUFs imported into RGA once and kept (1..64)")
            .attribute("width", 0, "virtual output only: tensor width")
            .attribute("height", 0, "virtual output only: tensor height")
            .command(kCmdGetEngine, "get_engine", PayloadKind::none,
                     "reply: the engine (rga or cpu), frames on each, imports, fills, and why the CPU")
            .deadline(std::chrono::seconds(10))
            .validate(validate));
  m.implement(std::string(kLetterboxKernel), "cpu", callbacks_for<RgaLetterboxKernel>());
  return m;
}

}  // namespace vg::rga
