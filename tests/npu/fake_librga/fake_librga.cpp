// Test-only stand-in for librga's im2d C entry points, with the vendor's documented rules (docs/npu.md,
// "RGA facts"): the same symbol names and struct layouts (visiongraph/npu/rga_types.hpp), the same status
// values (checks answer NOERROR, operations SUCCESS), imports that fail when the buffer is smaller than
// described, the alignment, size and scale limits of the RGA2 core (or RGA3's with FAKE_RGA_CORE=rga3),
// and no asynchronous job from the 7-argument improcess. It does the work on the CPU (bilinear resize
// from pixel centres, BT.601 limited-range NV12 -> RGB, fills in 0xAABBGGRR), so a test can compare its
// pixels with the CPU letterbox.
//
// Buffer lifetimes are tracked: an import holds a mapping until releasebuffer_handle; using or releasing
// a handle that is not live fails and is counted. fake_rga_stats() reports the counts to tests.
// FAKE_RGA_FAIL_PROCESS_AT=N makes the N-th improcess fail (IM_STATUS_FAILED), as a hardware timeout would;
// FAKE_RGA_NO_PIXELS=1 makes jobs check and count but not compute (what the engine costs the CPU, in bench/).
#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "fake_librga_stats.hpp"
#include "visiongraph/npu/rga_types.hpp"

namespace rga = vg::npu::rga;

#define FAKE_RGA_API extern "C" __attribute__((visibility("default")))

namespace {

using Stats = vg::test::FakeRgaStats;

struct Import {
  rga::BufferHandle handle = 0;  // 0: free slot
  std::uint8_t* data = nullptr;
  std::size_t bytes = 0;
  bool mapped = false;  // mmap'd from an fd (unmapped on release)
  rga::HandleParam param;
};

constexpr int kMaxImports = 256;

struct State {
  std::mutex lock;
  Import imports[kMaxImports];
  rga::BufferHandle next_handle = 1;  // never reused, so a stale handle is always told apart
  Stats stats;
  long fail_process_at = -1;
  bool rga3 = false;
  bool no_pixels = false;  // FAKE_RGA_NO_PIXELS=1: jobs check and count but leave the pixels (benchmarks)
  State() {
    if (const char* skip = std::getenv("FAKE_RGA_NO_PIXELS")) no_pixels = std::strcmp(skip, "1") == 0;
    if (const char* at = std::getenv("FAKE_RGA_FAIL_PROCESS_AT")) fail_process_at = std::atol(at);
    if (const char* core = std::getenv("FAKE_RGA_CORE")) rga3 = std::strcmp(core, "rga3") == 0;
  }
  ~State() {
    if (stats.live != 0) std::fprintf(stderr, "fake librga: %ld imported handle(s) never released\n", stats.live);
  }
};

State& state() {
  static State s;
  return s;
}

int refuse(State& s, int status, const char* what) {
  ++s.stats.refused;
  std::snprintf(s.stats.last_error, sizeof(s.stats.last_error), "%s", what);
  return status;
}

bool is_yuv420(int format) { return format == rga::kFormatYCbCr420Sp || format == rga::kFormatYCrCb420Sp; }

int bytes_per_pixel(int format) {
  switch (format) {
    case rga::kFormatRgba8888:
    case rga::kFormatRgbx8888:
    case rga::kFormatBgra8888: return 4;
    case rga::kFormatRgb888:
    case rga::kFormatBgr888: return 3;
    case rga::kFormatYCbCr420Sp:
    case rga::kFormatYCrCb420Sp: return 1;  // luma plane; chroma follows at wstride * hstride
    default: return 0;
  }
}

std::size_t image_bytes(int format, std::size_t wstride, std::size_t hstride) {
  const auto bpp = static_cast<std::size_t>(bytes_per_pixel(format));
  return is_yuv420(format) ? wstride * hstride * 3 / 2 : wstride * hstride * bpp;
}

Import* find(State& s, rga::BufferHandle h) {
  for (Import& i : s.imports)
    if (i.handle != 0 && i.handle == h) return &i;
  return nullptr;
}

rga::BufferHandle add_import(State& s, std::uint8_t* data, std::size_t bytes, bool mapped, const rga::HandleParam& p) {
  for (Import& i : s.imports) {
    if (i.handle != 0) continue;
    i.handle = s.next_handle++;
    i.data = data;
    i.bytes = bytes;
    i.mapped = mapped;
    i.param = p;
    ++s.stats.imports;
    ++s.stats.live;
    return i.handle;
  }
  return 0;
}

/// Where a buffer's pixels are, after the priority rule (handle, phy_addr, fd, vir_addr); null with a
/// status when it names nothing usable.
std::uint8_t* pixels(State& s, const rga::Buffer& b, int& status) {
  status = rga::kStatusSuccess;
  if (b.handle != 0) {
    Import* i = find(s, b.handle);
    if (i == nullptr) {
      ++s.stats.stale_handles;
      status = refuse(s, rga::kStatusInvalidParam, "buffer handle is not imported (released or never imported)");
      return nullptr;
    }
    if (static_cast<std::uint32_t>(b.wstride) > i->param.width || static_cast<std::uint32_t>(b.hstride) > i->param.height) {
      status = refuse(s, rga::kStatusInvalidParam, "buffer strides exceed what the handle was imported with");
      return nullptr;
    }
    return i->data;
  }
  if (b.phy_addr != nullptr || b.fd > 0) {
    status = refuse(s, rga::kStatusNotSupported, "the stand-in takes imported handles and virtual addresses only");
    return nullptr;
  }
  if (b.vir_addr == nullptr) {
    status = refuse(s, rga::kStatusInvalidParam, "buffer names no memory");
    return nullptr;
  }
  return static_cast<std::uint8_t*>(b.vir_addr);
}

/// The rules of one image and its rect; @p output selects the output limits.
int check_image(State& s, const rga::Buffer& b, const rga::Rect& r, bool output) {
  if (bytes_per_pixel(b.format) == 0) return refuse(s, rga::kStatusNotSupported, "format not supported");
  const int max_w = s.rga3 ? (output ? 8128 : 8176) : (output ? 4096 : 8192);
  const int min_w = s.rga3 ? 68 : 2;
  if (b.width < min_w || b.height < 2 || b.width > max_w || b.height > max_w)
    return refuse(s, rga::kStatusInvalidParam, "image size outside the core's limits");
  if (b.wstride < b.width || b.hstride < b.height) return refuse(s, rga::kStatusInvalidParam, "stride below the size");
  const int align = s.rga3 ? 16 : 4;  // pixels, for RGB888 and YUV 4:2:0 (RGBA needs none on RGA2, 4 on RGA3)
  const bool packed32 = bytes_per_pixel(b.format) == 4;
  if ((!packed32 || s.rga3) && b.wstride % (packed32 ? 4 : align) != 0)
    return refuse(s, rga::kStatusInvalidParam, "wstride not aligned as the core needs");
  const rga::Rect whole{0, 0, b.width, b.height};
  const rga::Rect& q = (r.width == 0 && r.height == 0) ? whole : r;
  if (q.x < 0 || q.y < 0 || q.width < 2 || q.height < 2 || q.x + q.width > b.wstride || q.y + q.height > b.hstride)
    return refuse(s, rga::kStatusInvalidParam, "rect outside the image or smaller than 2x2");
  if (is_yuv420(b.format) && ((q.x | q.y | q.width | q.height | b.hstride | b.width | b.height) & 1))
    return refuse(s, rga::kStatusInvalidParam, "YUV 4:2:0 needs even sizes, offsets and hstride");
  return rga::kStatusNoError;
}

int check_scale(State& s, const rga::Rect& src, const rga::Rect& dst) {
  const double limit = s.rga3 ? 8.0 : 16.0;
  const double fx = static_cast<double>(dst.width) / src.width, fy = static_cast<double>(dst.height) / src.height;
  if (fx > limit || fy > limit || fx < 1.0 / limit || fy < 1.0 / limit)
    return refuse(s, rga::kStatusInvalidParam, "scale outside the core's 1/N..N");
  return rga::kStatusNoError;
}

rga::Rect whole_if_empty(const rga::Rect& r, const rga::Buffer& b) {
  return (r.width == 0 && r.height == 0) ? rga::Rect{0, 0, b.width, b.height} : r;
}

int check_all(State& s, const rga::Buffer& src, const rga::Buffer& dst, const rga::Rect& sr, const rga::Rect& dr,
              int usage) {
  if (usage & rga::kUsageAsync)
    return refuse(s, rga::kStatusInvalidParam, "IM_ASYNC needs a release fence pointer (not in this call)");
  int st = check_image(s, dst, dr, true);
  if (st != rga::kStatusNoError) return st;
  if (usage & rga::kUsageColorFill) return rga::kStatusNoError;
  st = check_image(s, src, sr, false);
  if (st != rga::kStatusNoError) return st;
  return check_scale(s, whole_if_empty(sr, src), whole_if_empty(dr, dst));
}

std::uint8_t clamp_u8(float v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 255.0f))); }

/// Sample (r, g, b) at source position (fx, fy), bilinear between pixel centres, edges clamped.
void sample(const rga::Buffer& b, const std::uint8_t* px, const rga::Rect& r, float fx, float fy, float rgb[3]) {
  auto clampf = [](float v, float lo, float hi) { return std::min(std::max(v, lo), hi); };
  fx = clampf(fx, 0.0f, static_cast<float>(r.width - 1));
  fy = clampf(fy, 0.0f, static_cast<float>(r.height - 1));
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const int x1 = std::min(x0 + 1, r.width - 1), y1 = std::min(y0 + 1, r.height - 1);
  const float ax = fx - x0, ay = fy - y0;
  if (is_yuv420(b.format)) {
    const std::uint8_t* luma = px;
    const std::uint8_t* chroma = px + static_cast<std::size_t>(b.wstride) * b.hstride;
    auto L = [&](int x, int y) { return static_cast<float>(luma[(r.y + y) * b.wstride + r.x + x]); };
    const float yv = (L(x0, y0) * (1 - ax) + L(x1, y0) * ax) * (1 - ay) + (L(x0, y1) * (1 - ax) + L(x1, y1) * ax) * ay;
    // Chroma: half resolution, its centres at (2i + 0.5) in luma coordinates.
    const int cw = r.width / 2, ch = r.height / 2;
    const float cx = clampf((fx + 0.5f) / 2 - 0.5f, 0.0f, static_cast<float>(cw - 1));
    const float cy = clampf((fy + 0.5f) / 2 - 0.5f, 0.0f, static_cast<float>(ch - 1));
    const int u0 = static_cast<int>(cx), v0 = static_cast<int>(cy);
    const int u1 = std::min(u0 + 1, cw - 1), v1 = std::min(v0 + 1, ch - 1);
    const float bx = cx - u0, by = cy - v0;
    const bool nv21 = b.format == rga::kFormatYCrCb420Sp;
    auto C = [&](int x, int y, int k) {
      return static_cast<float>(chroma[(r.y / 2 + y) * b.wstride + r.x + 2 * x + k]);
    };
    float uv[2];
    for (int k = 0; k < 2; ++k)
      uv[k] = (C(u0, v0, k) * (1 - bx) + C(u1, v0, k) * bx) * (1 - by) + (C(u0, v1, k) * (1 - bx) + C(u1, v1, k) * bx) * by;
    const float u = (nv21 ? uv[1] : uv[0]) - 128.0f, v = (nv21 ? uv[0] : uv[1]) - 128.0f;
    const float yy = 1.164f * (yv - 16.0f);  // BT.601 limited range, librga's default for YUV -> RGB
    rgb[0] = yy + 1.596f * v;
    rgb[1] = yy - 0.391f * u - 0.813f * v;
    rgb[2] = yy + 2.018f * u;
    return;
  }
  const int bpp = bytes_per_pixel(b.format);
  const bool bgr = b.format == rga::kFormatBgr888 || b.format == rga::kFormatBgra8888;
  for (int c = 0; c < 3; ++c) {
    const int k = bgr ? 2 - c : c;
    auto P = [&](int x, int y) { return static_cast<float>(px[(r.y + y) * b.wstride * bpp + (r.x + x) * bpp + k]); };
    rgb[c] = (P(x0, y0) * (1 - ax) + P(x1, y0) * ax) * (1 - ay) + (P(x0, y1) * (1 - ax) + P(x1, y1) * ax) * ay;
  }
}

void store(const rga::Buffer& b, std::uint8_t* px, int x, int y, const float rgb[3]) {
  const int bpp = bytes_per_pixel(b.format);
  const bool bgr = b.format == rga::kFormatBgr888 || b.format == rga::kFormatBgra8888;
  std::uint8_t* p = px + static_cast<std::size_t>(y) * b.wstride * bpp + static_cast<std::size_t>(x) * bpp;
  for (int c = 0; c < 3; ++c) p[bgr ? 2 - c : c] = clamp_u8(rgb[c]);
  if (bpp == 4) p[3] = 255;
}

}  // namespace

FAKE_RGA_API const char* querystring(int name) {
  switch (name) {
    case rga::kInfoVendor: return "RGA vendor            : Rockchip Electronics Co.,Ltd. (stand-in)\n";
    case rga::kInfoVersion: return "RGA_api version       : 1.10.1_[0] (stand-in)\nRGA_driver version    : 1.3.1\n";
    default: return "unknown";
  }
}

FAKE_RGA_API const char* imStrError_t(int status) {
  switch (status) {
    case rga::kStatusNoError: return "No errors during operation";
    case rga::kStatusSuccess: return "Run successfully";
    case rga::kStatusNotSupported: return "Unsupported function";
    case rga::kStatusInvalidParam: return "Invalid parameters";
    default: return "Fatal error";
  }
}

FAKE_RGA_API rga::BufferHandle importbuffer_fd(int fd, rga::HandleParam* param) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  if (param == nullptr || fd < 0 || bytes_per_pixel(static_cast<int>(param->format)) == 0) {
    ++s.stats.failed_imports;
    refuse(s, 0, "importbuffer_fd: bad fd, parameters or format");
    return 0;
  }
  const std::size_t bytes = image_bytes(static_cast<int>(param->format), param->width, param->height);
  struct stat st{};
  if (::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) < bytes || bytes == 0) {
    ++s.stats.failed_imports;
    refuse(s, 0, "importbuffer_fd: the buffer is smaller than the parameters describe");
    return 0;
  }
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    ++s.stats.failed_imports;
    refuse(s, 0, "importbuffer_fd: cannot map the fd");
    return 0;
  }
  const rga::BufferHandle h = add_import(s, static_cast<std::uint8_t*>(data), bytes, true, *param);
  if (h == 0) ::munmap(data, bytes);
  return h;
}

FAKE_RGA_API rga::BufferHandle importbuffer_virtualaddr(void* va, rga::HandleParam* param) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  if (param == nullptr || va == nullptr || bytes_per_pixel(static_cast<int>(param->format)) == 0) {
    ++s.stats.failed_imports;
    refuse(s, 0, "importbuffer_virtualaddr: bad address, parameters or format");
    return 0;
  }
  return add_import(s, static_cast<std::uint8_t*>(va),
                    image_bytes(static_cast<int>(param->format), param->width, param->height), false, *param);
}

FAKE_RGA_API int releasebuffer_handle(rga::BufferHandle handle) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  Import* i = find(s, handle);
  if (i == nullptr) {
    ++s.stats.stale_handles;
    return refuse(s, rga::kStatusInvalidParam, "releasebuffer_handle: handle is not live");
  }
  if (i->mapped) ::munmap(i->data, i->bytes);
  *i = Import{};
  ++s.stats.releases;
  --s.stats.live;
  return rga::kStatusSuccess;
}

namespace {
rga::Buffer wrap(int width, int height, int wstride, int hstride, int format) {
  rga::Buffer b;
  b.width = width;
  b.height = height;
  b.wstride = wstride != 0 ? wstride : width;
  b.hstride = hstride != 0 ? hstride : height;
  b.format = format;
  b.global_alpha = 0xff;
  b.rd_mode = 1;  // raster
  return b;
}
}  // namespace

FAKE_RGA_API rga::Buffer wrapbuffer_handle_t(rga::BufferHandle handle, int width, int height, int wstride, int hstride,
                                             int format) {
  rga::Buffer b = wrap(width, height, wstride, hstride, format);
  b.handle = handle;
  return b;
}

FAKE_RGA_API rga::Buffer wrapbuffer_virtualaddr_t(void* va, int width, int height, int wstride, int hstride,
                                                  int format) {
  rga::Buffer b = wrap(width, height, wstride, hstride, format);
  b.vir_addr = va;
  return b;
}

FAKE_RGA_API int imcheck_t(const rga::Buffer src, const rga::Buffer dst, const rga::Buffer, const rga::Rect src_rect,
                           const rga::Rect dst_rect, const rga::Rect, const int usage) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  ++s.stats.checks;
  int st = rga::kStatusSuccess;
  if (pixels(s, dst, st) == nullptr) return st;
  if (!(usage & rga::kUsageColorFill) && pixels(s, src, st) == nullptr) return st;
  return check_all(s, src, dst, src_rect, dst_rect, usage);
}

FAKE_RGA_API int improcess(rga::Buffer src, rga::Buffer dst, rga::Buffer, rga::Rect src_rect, rga::Rect dst_rect,
                           rga::Rect, int usage) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  int st = check_all(s, src, dst, src_rect, dst_rect, usage);
  if (st != rga::kStatusNoError) return st;
  const std::uint8_t* in = pixels(s, src, st);
  if (in == nullptr) return st;
  std::uint8_t* out = pixels(s, dst, st);
  if (out == nullptr) return st;
  ++s.stats.processes;
  if (s.fail_process_at > 0 && s.stats.processes == s.fail_process_at)
    return refuse(s, rga::kStatusFailed, "improcess: the job failed (FAKE_RGA_FAIL_PROCESS_AT)");
  if (s.no_pixels) return rga::kStatusSuccess;
  const rga::Rect sr = whole_if_empty(src_rect, src), dr = whole_if_empty(dst_rect, dst);
  const float kx = static_cast<float>(sr.width) / dr.width, ky = static_cast<float>(sr.height) / dr.height;
  for (int y = 0; y < dr.height; ++y) {
    const float fy = (y + 0.5f) * ky - 0.5f;
    for (int x = 0; x < dr.width; ++x) {
      float rgb[3];
      sample(src, in, sr, (x + 0.5f) * kx - 0.5f, fy, rgb);
      store(dst, out, dr.x + x, dr.y + y, rgb);
    }
  }
  return rga::kStatusSuccess;
}

FAKE_RGA_API int imfill_t(rga::Buffer dst, rga::Rect rect, int color, int) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  int st = check_all(s, dst, dst, rect, rect, rga::kUsageColorFill);
  if (st != rga::kStatusNoError) return st;
  std::uint8_t* out = pixels(s, dst, st);
  if (out == nullptr) return st;
  if (is_yuv420(dst.format)) return refuse(s, rga::kStatusNotSupported, "the stand-in fills RGB images only");
  ++s.stats.fills;
  const auto c = static_cast<std::uint32_t>(color);
  const float rgb[3] = {static_cast<float>(c & 0xff), static_cast<float>((c >> 8) & 0xff),
                        static_cast<float>((c >> 16) & 0xff)};
  const rga::Rect r = whole_if_empty(rect, dst);
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x) store(dst, out, x, y, rgb);
  return rga::kStatusSuccess;
}

// ---- test hooks (not part of librga)

FAKE_RGA_API void fake_rga_stats(Stats* out) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  *out = s.stats;
}

FAKE_RGA_API void fake_rga_reset(long fail_process_at, int rga3) {
  State& s = state();
  const std::lock_guard guard(s.lock);
  const long live = s.stats.live;
  s.stats = Stats{};
  s.stats.live = live;  // imports outlive a reset; their count stays true
  s.fail_process_at = fail_process_at;
  s.rga3 = rga3 != 0;
}
