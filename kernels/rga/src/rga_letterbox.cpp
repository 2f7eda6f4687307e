#include "visiongraph/kernels/rga/rga_letterbox.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "visiongraph/core/error.hpp"

namespace vg::rga {
namespace {

namespace im = npu::rga;

// The RGA2 core's limits (airockchip/librga docs, "Design Index"; RK3588's RGA3 cores are stricter, and the
// driver falls back to RGA2 when a job does not fit them): input up to 8192, output up to 4096 pixels a
// side, every rect at least 2x2, scale between 1/16 and 16.
constexpr int kMaxInputSide = 8192;
constexpr int kMaxOutputSide = 4096;
constexpr double kMaxScale = 16.0;
// Width stride alignment in pixels for RGB888 and YUV 4:2:0 on RGA2 (byte stride 4 words).
constexpr int kStrideAlignment = 4;

int im_format(detection::PixelFormat f) noexcept {
  switch (f) {
    case detection::PixelFormat::bgr24: return im::kFormatBgr888;
    case detection::PixelFormat::rgb24: return im::kFormatRgb888;
    case detection::PixelFormat::nv12: return im::kFormatYCbCr420Sp;
  }
  return im::kFormatRgb888;
}

const char* format_name(detection::PixelFormat f) noexcept {
  switch (f) {
    case detection::PixelFormat::bgr24: return "bgr24";
    case detection::PixelFormat::rgb24: return "rgb24";
    case detection::PixelFormat::nv12: return "nv12";
  }
  return "?";
}

im::Rect content_rect(const detection::LetterboxGeometry& g) noexcept {
  const int w = static_cast<int>(std::lround(g.src_w * static_cast<double>(g.scale)));
  const int h = static_cast<int>(std::lround(g.src_h * static_cast<double>(g.scale)));
  return {static_cast<int>(g.pad_x), static_cast<int>(g.pad_y), std::clamp(w, 1, g.dst_w), std::clamp(h, 1, g.dst_h)};
}

}  // namespace

detection::LetterboxGeometry rga_letterbox_geometry(int src_w, int src_h, int dst_w, int dst_h) noexcept {
  detection::LetterboxGeometry g = detection::make_letterbox(src_w, src_h, dst_w, dst_h);
  if (!g.valid()) return g;
  const double s = std::min(static_cast<double>(dst_w) / src_w, static_cast<double>(dst_h) / src_h);
  const int w = std::clamp(static_cast<int>(std::lround(src_w * s)), 1, dst_w);
  const int h = std::clamp(static_cast<int>(std::lround(src_h * s)), 1, dst_h);
  g.pad_x = static_cast<float>((dst_w - w) / 2);
  g.pad_y = static_cast<float>((dst_h - h) / 2);
  return g;
}

std::string rga_letterbox_unsupported(const RgaLetterboxSpec& s) {
  const std::string src = std::to_string(s.src_w) + "x" + std::to_string(s.src_h);
  if (s.src_w < 2 || s.src_h < 2 || s.src_w > kMaxInputSide || s.src_h > kMaxInputSide)
    return "source " + src + " is outside RGA's input sizes (2..8192 a side)";
  if (s.dst_w < 2 || s.dst_h < 2 || s.dst_w > kMaxOutputSide || s.dst_h > kMaxOutputSide)
    return "model input " + std::to_string(s.dst_w) + "x" + std::to_string(s.dst_h) +
           " is outside RGA's output sizes (2..4096 a side)";
  if (s.dst_w % kStrideAlignment != 0)
    return "model input width " + std::to_string(s.dst_w) + " is not a multiple of 4 pixels (RGA's RGB888 stride rule)";
  const bool nv12 = s.src_format == detection::PixelFormat::nv12;
  const std::size_t bpp = nv12 ? 1 : 3;
  const std::size_t stride = s.src_stride != 0 ? s.src_stride : static_cast<std::size_t>(s.src_w) * bpp;
  if (stride % bpp != 0)
    return "source row stride " + std::to_string(stride) + " bytes is not a whole number of pixels";
  if ((stride / bpp) % kStrideAlignment != 0)
    return std::string("source ") + format_name(s.src_format) + " row stride of " + std::to_string(stride / bpp) +
           " pixels is not a multiple of 4 (RGA's stride rule for RGB888 and NV12)";
  if (nv12 && ((s.src_w | s.src_h) & 1)) return "NV12 source " + src + " has an odd side (RGA needs even YUV sizes)";
  const detection::LetterboxGeometry g = rga_letterbox_geometry(s.src_w, s.src_h, s.dst_w, s.dst_h);
  const im::Rect c = content_rect(g);
  if (c.width < 2 || c.height < 2) return "the scaled source is thinner than 2 pixels (RGA's smallest rect)";
  const double fx = static_cast<double>(c.width) / s.src_w, fy = static_cast<double>(c.height) / s.src_h;
  if (fx < 1.0 / kMaxScale || fy < 1.0 / kMaxScale || fx > kMaxScale || fy > kMaxScale) {
    char text[160];
    std::snprintf(text, sizeof(text), "scaling %s to %dx%d is beyond RGA's 1/16..16 (%.3g x %.3g)", src.c_str(),
                  c.width, c.height, fx, fy);
    return text;
  }
  return {};
}

RgaLetterbox::RgaLetterbox(std::shared_ptr<const npu::RgaRuntime> runtime, const RgaLetterboxSpec& spec)
    : runtime_(std::move(runtime)), spec_(spec) {
  if (!runtime_) throw Error("RgaLetterbox: no librga");
  if (std::string why = rga_letterbox_unsupported(spec); !why.empty()) throw Error(why);
  geometry_ = rga_letterbox_geometry(spec.src_w, spec.src_h, spec.dst_w, spec.dst_h);
  content_ = content_rect(geometry_);
  src_format_ = im_format(spec.src_format);
  dst_format_ = spec.rgb ? im::kFormatRgb888 : im::kFormatBgr888;
  known_.assign(std::max<std::size_t>(spec.max_imported_buffers, 2), Known{});
}

RgaLetterbox::~RgaLetterbox() {
  for (Known& k : known_)
    if (k.used) release(k);
}

void RgaLetterbox::release(Known& k) noexcept {
  if (k.dmabuf && k.handle != 0) {
    const int st = runtime_->api().release_handle(k.handle);
    if (st == im::kStatusSuccess) {
      ++counters_.releases;
    } else {
      (void)fail("releasebuffer_handle", st);
    }
  }
  k = Known{};
}

int RgaLetterbox::fail(const char* call, int status) noexcept {
  ++counters_.failures;
  std::snprintf(last_failure_, sizeof(last_failure_), "%s: %s (%d): %s", call, npu::rga_status_name(status), status,
                runtime_->status_text(status));
  return status;
}

RgaLetterbox::Known* RgaLetterbox::find_or_import(const MemoryBlock& block, const void* address, int format,
                                                  int wstride, int hstride) noexcept {
  struct stat st{};
  const bool dmabuf = block.is_dmabuf();
  if (dmabuf && ::fstat(block.dmabuf_fd, &st) != 0) return nullptr;
  ++clock_;
  Known* oldest = &known_.front();
  for (Known& k : known_) {
    if (k.used && k.dmabuf == dmabuf && k.format == format && k.wstride == wstride && k.hstride == hstride &&
        (dmabuf ? (k.dev == st.st_dev && k.ino == st.st_ino) : k.address == address)) {
      k.last_use = clock_;
      return &k;
    }
    if (!k.used || (oldest->used && k.last_use < oldest->last_use)) oldest = &k;
  }
  if (oldest->used) {
    ++counters_.evictions;
    release(*oldest);
  }
  Known& k = *oldest;
  if (dmabuf) {
    im::HandleParam param{static_cast<std::uint32_t>(wstride), static_cast<std::uint32_t>(hstride),
                          static_cast<std::uint32_t>(format)};
    const im::BufferHandle h = runtime_->api().import_fd(block.dmabuf_fd, &param);
    if (h == 0) {
      (void)fail("importbuffer_fd", im::kStatusFailed);
      return nullptr;
    }
    ++counters_.imports;
    k.handle = h;
    k.dev = st.st_dev;
    k.ino = st.st_ino;
  }
  k.used = true;
  k.dmabuf = dmabuf;
  k.address = address;
  k.format = format;
  k.wstride = wstride;
  k.hstride = hstride;
  k.last_use = clock_;
  return &k;
}

bool RgaLetterbox::describe(const void* plane0, const void* plane1, std::size_t stride, int width, int height,
                            int format, int bytes_per_pixel, const MemoryBlock& block, bool output,
                            Described& out) noexcept {
  auto layout = [&](const char* why) {
    std::snprintf(last_failure_, sizeof(last_failure_), "%s %s", output ? "model input:" : "image:", why);
    return false;
  };
  if (plane0 == nullptr) return layout("no CPU address and no whole DMA-BUF");
  if (stride == 0 || stride % static_cast<std::size_t>(bytes_per_pixel) != 0)
    return layout("row stride is not a whole number of pixels");
  const int wstride = static_cast<int>(stride / static_cast<std::size_t>(bytes_per_pixel));
  int hstride = height;
  if (format == im::kFormatYCbCr420Sp) {
    // librga finds the chroma plane at wstride * hstride bytes after the luma plane.
    if (plane1 == nullptr || plane1 <= plane0) return layout("NV12 chroma plane does not follow the luma plane");
    const auto gap = static_cast<std::size_t>(static_cast<const char*>(plane1) - static_cast<const char*>(plane0));
    if (gap % stride != 0 || gap / stride < static_cast<std::size_t>(height))
      return layout("NV12 chroma plane is not a whole number of rows after the luma plane");
    hstride = static_cast<int>(gap / stride);
  }
  // A DMA-BUF is imported when the image starts at the fd's first byte (an import names the whole fd).
  const bool whole_fd = block.is_dmabuf() && block.fd_offset == 0 && block.data == plane0;
  // Host memory (or a DMA-BUF at an offset) goes by its address; an output's address is remembered only
  // to fill its pad once.
  out.known = nullptr;
  if (whole_fd || output) {
    const MemoryBlock host{};
    out.known = find_or_import(whole_fd ? block : host, plane0, format, wstride, hstride);
    if (out.known == nullptr) return false;  // the failed import is in last_failure_
  }
  if (whole_fd) {
    out.buffer = runtime_->api().wrap_handle(out.known->handle, width, height, wstride, hstride, format);
  } else {
    out.buffer = runtime_->api().wrap_virtual_addr(const_cast<void*>(plane0), width, height, wstride, hstride, format);
    ++counters_.by_address;
  }
  return true;
}

bool RgaLetterbox::describe_frame(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
                                  const MemoryBlock& tensor_block, Described& src, Described& dst) noexcept {
  if (image.width != spec_.src_w || image.height != spec_.src_h) {
    std::snprintf(last_failure_, sizeof(last_failure_), "image: %dx%d, not the %dx%d planned", image.width,
                  image.height, spec_.src_w, spec_.src_h);
    return false;
  }
  const int bpp = image.format == detection::PixelFormat::nv12 ? 1 : 3;
  return describe(image.plane[0], image.plane[1], image.stride[0], image.width, image.height, src_format_, bpp,
                  image_block, false, src) &&
         describe(tensor, nullptr, static_cast<std::size_t>(spec_.dst_w) * 3, spec_.dst_w, spec_.dst_h, dst_format_, 3,
                  tensor_block, true, dst);
}

int RgaLetterbox::check(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
                        const MemoryBlock& tensor_block) noexcept {
  Described src, dst;
  if (!describe_frame(image, image_block, tensor, tensor_block, src, dst)) return im::kStatusNotSupported;
  const im::Buffer none{};
  return runtime_->api().check(src.buffer, dst.buffer, none, im::Rect{}, content_, im::Rect{}, 0);
}

int RgaLetterbox::run(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
                      const MemoryBlock& tensor_block) noexcept {
  Described src, dst;
  if (!describe_frame(image, image_block, tensor, tensor_block, src, dst)) return im::kStatusNotSupported;
  const im::Buffer none{};
  if (!dst.known->padded) {
    // The whole output once; the job below then overwrites the content rect every frame.
    const std::uint8_t v = spec_.pad_value;
    const int st = runtime_->api().fill(dst.buffer, im::Rect{0, 0, spec_.dst_w, spec_.dst_h}, im::fill_color(v, v, v), 1);
    if (st != im::kStatusSuccess) return fail("imfill_t", st);
    dst.known->padded = true;
    ++counters_.fills;
  }
  if (image.format == detection::PixelFormat::nv12) dst.buffer.color_space_mode = im::kYuvToRgbBt601Limit;
  const int st = runtime_->api().process(src.buffer, dst.buffer, none, im::Rect{}, content_, im::Rect{}, im::kUsageSync);
  if (st != im::kStatusSuccess) return fail("improcess", st);
  ++counters_.jobs;
  return st;
}

}  // namespace vg::rga
