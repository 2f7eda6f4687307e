// vg.rga.letterbox and its engine, against the stand-in librga (fake_librga/, which keeps the vendor's
// documented rules) and memfd DMA-BUFs. Nothing here needs a board; docs/npu.md says what is unverified.
// Built twice: VG_RGA_ZERO_ALLOC=1 links the counting allocator and runs only the allocation test.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fake_librga/fake_librga_stats.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/kernels/rga/board_check.hpp"
#include "visiongraph/kernels/rga/module.hpp"
#include "visiongraph/kernels/rga/rga_letterbox.hpp"
#include "visiongraph/npu/memfd_allocator.hpp"
#include "visiongraph/npu/rga_runtime.hpp"
#include "visiongraph/visiongraph.hpp"
#if VG_RGA_ZERO_ALLOC
#include "alloc_counter.hpp"
#endif

#include <dlfcn.h>

namespace {

using namespace std::chrono_literals;
namespace im = vg::npu::rga;
using vg::detection::ImageRef;
using vg::detection::PixelFormat;
using vg::rga::RgaLetterbox;
using vg::rga::RgaLetterboxSpec;

/// The stand-in librga's counters.
[[maybe_unused]] vg::test::FakeRgaStats fake_stats(const vg::npu::RgaRuntime& rt) {
  auto fn = reinterpret_cast<vg::test::FakeRgaStatsFn>(::dlsym(rt.native_handle(), "fake_rga_stats"));
  vg::test::FakeRgaStats s;
  if (fn != nullptr) fn(&s);
  return s;
}
void fake_reset(const vg::npu::RgaRuntime& rt, long fail_process_at = -1, bool rga3 = false) {
  auto fn = reinterpret_cast<vg::test::FakeRgaResetFn>(::dlsym(rt.native_handle(), "fake_rga_reset"));
  ASSERT_NE(fn, nullptr);
  fn(fail_process_at, rga3 ? 1 : 0);
}

/// A deterministic picture: smooth gradients per channel (bilinear results then differ only by rounding).
[[maybe_unused]] void paint_bgr(std::uint8_t* p, std::size_t stride, int w, int h, int seed = 0) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* px = p + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x) * 3;
      px[0] = static_cast<std::uint8_t>((x * 255 / w + seed) & 0xff);
      px[1] = static_cast<std::uint8_t>(y * 255 / h);
      px[2] = static_cast<std::uint8_t>(((x + y) * 127 / (w + h) + 64 + seed) & 0xff);
    }
}

[[maybe_unused]] void paint_nv12(std::uint8_t* luma, std::uint8_t* chroma, std::size_t stride, int w, int h) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) luma[static_cast<std::size_t>(y) * stride + x] = static_cast<std::uint8_t>(16 + (x * 200 / w));
  for (int y = 0; y < h / 2; ++y)
    for (int x = 0; x < w / 2; ++x) {
      chroma[static_cast<std::size_t>(y) * stride + 2 * x] = static_cast<std::uint8_t>(100 + y * 50 / h);
      chroma[static_cast<std::size_t>(y) * stride + 2 * x + 1] = static_cast<std::uint8_t>(150 - x * 40 / w);
    }
}

[[maybe_unused]] int max_difference(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  int worst = 0;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(int{a[i]} - int{b[i]}));
  return worst;
}

/// What the CPU letterbox writes for the same image with the same (whole-pixel) geometry.
[[maybe_unused]] std::vector<std::uint8_t> cpu_letterbox(const ImageRef& img, int dst_w, int dst_h, bool rgb, std::uint8_t pad) {
  vg::detection::PreprocessConfig cfg;
  cfg.format = vg::detection::TensorFormat::u8_nhwc;
  cfg.mapping = vg::detection::PixelMapping::none();
  cfg.pad_value = pad;
  cfg.rgb = rgb;
  vg::detection::Preprocessor pre(vg::rga::rga_letterbox_geometry(img.width, img.height, dst_w, dst_h), cfg);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(dst_w) * dst_h * 3);
  EXPECT_TRUE(pre.run(img, out.data()));
  return out;
}

class RgaEnv : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("VG_LIBRGA_PATH", VG_FAKE_LIBRGA_PATH, 1);
    ::setenv("VG_RGA_DEVICE", "/dev/null", 1);  // stands for /dev/rga: the device exists
    rt_ = vg::npu::RgaRuntime::open();
    fake_reset(*rt_);
  }
  void TearDown() override {
    ::unsetenv("VG_LIBRGA_PATH");
    ::unsetenv("VG_RGA_DEVICE");
  }
  std::shared_ptr<const vg::npu::RgaRuntime> rt_;
  vg::npu::MemfdAllocator memfd_;
};

#if !VG_RGA_ZERO_ALLOC

// ------------------------------------------------------------------------------------------ the binding

TEST_F(RgaEnv, TheRuntimeBindsTheCEntryPointsAndReportsItsVersion) {
  EXPECT_NE(rt_->version().find("RGA_api version"), std::string::npos) << rt_->version();
  EXPECT_EQ(rt_->version().find('\n'), std::string::npos);
  EXPECT_STREQ(vg::npu::rga_status_name(im::kStatusInvalidParam), "IM_STATUS_INVALID_PARAM");
  EXPECT_STREQ(rt_->status_text(im::kStatusInvalidParam), "Invalid parameters");  // imStrError_t
}

TEST(RgaRuntime, AMissingLibraryOrSymbolIsNamed) {
  try {
    (void)vg::npu::RgaRuntime::open("/nonexistent/librga.so");
    FAIL() << "opened a missing library";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/librga.so not found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("VG_LIBRGA_PATH"), std::string::npos) << e.what();
  }
  try {  // the stand-in librknnrt is a library, but not librga
    (void)vg::npu::RgaRuntime::open(VG_FAKE_RKNNRT_PATH);
    FAIL() << "bound a library without librga's entry points";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not export querystring"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------------------------------ the stand-in's rules

TEST_F(RgaEnv, TheStandInRefusesWhatTheVendorDocumentsAsRefused) {
  const auto& api = rt_->api();
  vg::MemoryBlock small = memfd_.allocate(1000, 64);
  im::HandleParam too_big{64, 64, static_cast<std::uint32_t>(im::kFormatRgb888)};
  EXPECT_EQ(api.import_fd(small.dmabuf_fd, &too_big), 0u) << "an import larger than the buffer must fail";
  memfd_.release(small);

  vg::MemoryBlock a = memfd_.allocate(64 * 64 * 3, 64), b = memfd_.allocate(32 * 32 * 3, 64);
  im::HandleParam pa{64, 64, static_cast<std::uint32_t>(im::kFormatRgb888)};
  im::HandleParam pb{32, 32, static_cast<std::uint32_t>(im::kFormatRgb888)};
  const im::BufferHandle ha = api.import_fd(a.dmabuf_fd, &pa), hb = api.import_fd(b.dmabuf_fd, &pb);
  ASSERT_NE(ha, 0u);
  ASSERT_NE(hb, 0u);
  const im::Buffer src = api.wrap_handle(ha, 64, 64, 64, 64, im::kFormatRgb888);
  const im::Buffer dst = api.wrap_handle(hb, 32, 32, 32, 32, im::kFormatRgb888);
  const im::Buffer none{};
  EXPECT_EQ(api.check(src, dst, none, {}, {}, {}, 0), im::kStatusNoError);  // checks answer NOERROR
  EXPECT_EQ(api.process(src, dst, none, {}, {}, {}, im::kUsageSync), im::kStatusSuccess);  // jobs SUCCESS
  EXPECT_EQ(api.process(src, dst, none, {}, {}, {}, im::kUsageAsync), im::kStatusInvalidParam)
      << "IM_ASYNC needs a release fence, which the 7-argument improcess cannot take";
  const im::Buffer odd_stride = api.wrap_handle(ha, 30, 30, 30, 30, im::kFormatRgb888);
  EXPECT_EQ(api.process(odd_stride, dst, none, {}, {}, {}, 0), im::kStatusInvalidParam) << "RGB888 wstride % 4";
  EXPECT_EQ(api.process(src, dst, none, {}, im::Rect{0, 0, 1, 32}, {}, 0), im::kStatusInvalidParam) << "rect < 2";
  EXPECT_EQ(api.release_handle(hb), im::kStatusSuccess);
  EXPECT_EQ(api.process(src, dst, none, {}, {}, {}, 0), im::kStatusInvalidParam) << "a released handle";
  EXPECT_EQ(api.release_handle(hb), im::kStatusInvalidParam) << "released twice";
  EXPECT_EQ(fake_stats(*rt_).stale_handles, 2);
  EXPECT_EQ(api.release_handle(ha), im::kStatusSuccess);
  EXPECT_EQ(fake_stats(*rt_).live, 0);
  memfd_.release(a);
  memfd_.release(b);
}

// ------------------------------------------------------------------------------------------ the engine

TEST(RgaLetterboxPlan, SizesFormatsAndScalesOutsideTheVendorsLimitsAreNamed) {
  RgaLetterboxSpec s;
  s.src_w = 640, s.src_h = 480, s.dst_w = 256, s.dst_h = 256;
  EXPECT_EQ(vg::rga::rga_letterbox_unsupported(s), "");
  RgaLetterboxSpec far = s;
  far.src_w = far.src_h = 8192;  // 8192 -> 256: 1/32
  EXPECT_NE(vg::rga::rga_letterbox_unsupported(far).find("1/16..16"), std::string::npos);
  RgaLetterboxSpec odd = s;
  odd.src_w = 642;  // bgr24 rows of 642 pixels
  EXPECT_NE(vg::rga::rga_letterbox_unsupported(odd).find("multiple of 4"), std::string::npos);
  RgaLetterboxSpec nv12 = s;
  nv12.src_format = PixelFormat::nv12;
  nv12.src_w = 644, nv12.src_h = 481;
  EXPECT_NE(vg::rga::rga_letterbox_unsupported(nv12).find("odd side"), std::string::npos);
  RgaLetterboxSpec model = s;
  model.dst_w = 250;
  EXPECT_NE(vg::rga::rga_letterbox_unsupported(model).find("model input width 250"), std::string::npos);
  RgaLetterboxSpec big = s;
  big.dst_w = big.dst_h = 8192;
  EXPECT_NE(vg::rga::rga_letterbox_unsupported(big).find("output sizes"), std::string::npos);
}

TEST(RgaLetterboxPlan, TheGeometryPlacesTheContentOnWholePixels) {
  const vg::detection::LetterboxGeometry g = vg::rga::rga_letterbox_geometry(1920, 1080, 640, 640);
  EXPECT_FLOAT_EQ(g.pad_x, 0.0f);
  EXPECT_FLOAT_EQ(g.pad_y, 140.0f);  // 1080 / 3 = 360 rows, (640 - 360) / 2
  const vg::detection::LetterboxGeometry h = vg::rga::rga_letterbox_geometry(1366, 768, 256, 256);
  EXPECT_FLOAT_EQ(h.pad_y, 56.0f);  // 768 * 256 / 1366 = 143.9 -> 144 rows, 112 / 2
  EXPECT_FLOAT_EQ(h.scale, static_cast<float>(256.0 / 1366.0));
}

TEST_F(RgaEnv, OneJobPerFrameThePadOncePerBufferAndEveryImportReleased) {
  vg::MemoryBlock in = memfd_.allocate(640 * 480 * 3, 64), out = memfd_.allocate(256 * 256 * 3, 64);
  auto* src = static_cast<std::uint8_t*>(in.data);
  paint_bgr(src, 640 * 3, 640, 480);
  ImageRef img;
  img.format = PixelFormat::bgr24, img.width = 640, img.height = 480, img.plane[0] = src, img.stride[0] = 640 * 3;
  RgaLetterboxSpec spec;
  spec.src_w = 640, spec.src_h = 480, spec.dst_w = 256, spec.dst_h = 256, spec.pad_value = 114;
  {
    RgaLetterbox lb(rt_, spec);
    EXPECT_EQ(lb.check(img, in, out.data, out), im::kStatusNoError);
    for (int frame = 0; frame < 5; ++frame) ASSERT_EQ(lb.run(img, in, out.data, out), im::kStatusSuccess) << lb.last_failure();
    const vg::test::FakeRgaStats s = fake_stats(*rt_);
    EXPECT_EQ(s.processes, 5);
    EXPECT_EQ(s.fills, 1) << "the pad never changes: one fill per output buffer";
    EXPECT_EQ(s.imports, 2) << "the image and the model input, each imported once";
    EXPECT_EQ(s.live, 2);
    EXPECT_EQ(lb.counters().jobs, 5u);
    EXPECT_EQ(lb.counters().by_address, 0u) << "both are whole DMA-BUFs";
    const auto want = cpu_letterbox(img, 256, 256, true, 114);
    EXPECT_LE(max_difference(static_cast<const std::uint8_t*>(out.data), want.data(), want.size()), 2);
    const auto* o = static_cast<const std::uint8_t*>(out.data);
    EXPECT_EQ(o[0], 114);  // top pad row (640x480 -> 256x192, 32 rows above)
    EXPECT_EQ(o[(255 * 256 + 255) * 3 + 2], 114);
  }
  const vg::test::FakeRgaStats s = fake_stats(*rt_);
  EXPECT_EQ(s.releases, 2);
  EXPECT_EQ(s.live, 0) << "every import is released with the engine";
  EXPECT_EQ(s.stale_handles, 0);
  memfd_.release(in);
  memfd_.release(out);
}

TEST_F(RgaEnv, Nv12BecomesRgbOrBgrAsTheCpuLetterboxMakesIt) {
  const int w = 320, h = 240;
  vg::MemoryBlock in = memfd_.allocate(w * h * 3 / 2, 64), out = memfd_.allocate(128 * 128 * 3, 64);
  auto* y = static_cast<std::uint8_t*>(in.data);
  paint_nv12(y, y + w * h, w, w, h);
  ImageRef img;
  img.format = PixelFormat::nv12, img.width = w, img.height = h;
  img.plane[0] = y, img.plane[1] = y + w * h, img.stride[0] = img.stride[1] = w;
  for (bool rgb : {true, false}) {
    RgaLetterboxSpec spec;
    spec.src_format = PixelFormat::nv12, spec.src_w = w, spec.src_h = h, spec.dst_w = 128, spec.dst_h = 128;
    spec.rgb = rgb;
    RgaLetterbox lb(rt_, spec);
    ASSERT_EQ(lb.run(img, in, out.data, out), im::kStatusSuccess) << lb.last_failure();
    const auto want = cpu_letterbox(img, 128, 128, rgb, 0);
    EXPECT_LE(max_difference(static_cast<const std::uint8_t*>(out.data), want.data(), want.size()), 3) << "rgb " << rgb;
  }
  EXPECT_EQ(fake_stats(*rt_).live, 0);
  memfd_.release(in);
  memfd_.release(out);
}

TEST_F(RgaEnv, HostMemoryGoesByAddressWithoutAnImport) {
  std::vector<std::uint8_t> src(320 * 240 * 3), out(128 * 128 * 3);
  paint_bgr(src.data(), 320 * 3, 320, 240);
  ImageRef img;
  img.width = 320, img.height = 240, img.plane[0] = src.data(), img.stride[0] = 320 * 3;
  RgaLetterboxSpec spec;
  spec.src_w = 320, spec.src_h = 240, spec.dst_w = 128, spec.dst_h = 128;
  RgaLetterbox lb(rt_, spec);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(lb.run(img, {}, out.data(), {}), im::kStatusSuccess) << lb.last_failure();
  EXPECT_EQ(fake_stats(*rt_).imports, 0);
  EXPECT_EQ(fake_stats(*rt_).fills, 1);
  EXPECT_EQ(lb.counters().by_address, 6u);
  const auto want = cpu_letterbox(img, 128, 128, true, 0);
  EXPECT_LE(max_difference(out.data(), want.data(), want.size()), 2);
}

TEST_F(RgaEnv, ImportsAreKeptUpToTheLimitAndTheLeastRecentlyUsedIsReleased) {
  std::vector<vg::MemoryBlock> frames;
  for (int i = 0; i < 4; ++i) {
    frames.push_back(memfd_.allocate(64 * 64 * 3, 64));
    paint_bgr(static_cast<std::uint8_t*>(frames.back().data), 64 * 3, 64, 64, i * 40);
  }
  vg::MemoryBlock out = memfd_.allocate(32 * 32 * 3, 64);
  RgaLetterboxSpec spec;
  spec.src_w = 64, spec.src_h = 64, spec.dst_w = 32, spec.dst_h = 32, spec.max_imported_buffers = 3;
  {
    RgaLetterbox lb(rt_, spec);
    for (int round = 0; round < 3; ++round)
      for (const vg::MemoryBlock& f : frames) {
        ImageRef img;
        img.width = 64, img.height = 64, img.plane[0] = static_cast<const std::uint8_t*>(f.data), img.stride[0] = 64 * 3;
        ASSERT_EQ(lb.run(img, f, out.data, out), im::kStatusSuccess) << lb.last_failure();
        EXPECT_LE(fake_stats(*rt_).live, 3) << "never more imports than the limit";
      }
    EXPECT_GT(lb.counters().evictions, 0u);
    EXPECT_EQ(fake_stats(*rt_).stale_handles, 0);
  }
  EXPECT_EQ(fake_stats(*rt_).live, 0);
  for (vg::MemoryBlock& f : frames) memfd_.release(f);
  memfd_.release(out);
}

TEST_F(RgaEnv, AReusedFdNumberIsANewBufferNotTheOldImport) {
  RgaLetterboxSpec spec;
  spec.src_w = 64, spec.src_h = 64, spec.dst_w = 32, spec.dst_h = 32;
  RgaLetterbox lb(rt_, spec);
  vg::MemoryBlock out = memfd_.allocate(32 * 32 * 3, 64);
  auto run_on = [&](int shade) {
    vg::MemoryBlock f = memfd_.allocate(64 * 64 * 3, 64);
    std::memset(f.data, shade, 64 * 64 * 3);
    ImageRef img;
    img.width = 64, img.height = 64, img.plane[0] = static_cast<const std::uint8_t*>(f.data), img.stride[0] = 64 * 3;
    const int fd = f.dmabuf_fd;
    EXPECT_EQ(lb.run(img, f, out.data, out), im::kStatusSuccess) << lb.last_failure();
    memfd_.release(f);  // closes the fd: the next allocation gets the same number
    return fd;
  };
  const int first = run_on(10);
  EXPECT_EQ(static_cast<const std::uint8_t*>(out.data)[0], 10);
  const int second = run_on(200);
  EXPECT_EQ(first, second) << "the test needs the fd number reused";
  EXPECT_EQ(static_cast<const std::uint8_t*>(out.data)[0], 200) << "the new buffer's pixels, not the old import's";
  EXPECT_EQ(lb.counters().imports, 3u);  // two frames and the output
  memfd_.release(out);
}

TEST_F(RgaEnv, AFailedJobIsReportedWithTheCallAndLibrgasStatus) {
  fake_reset(*rt_, 2);
  std::vector<std::uint8_t> src(64 * 64 * 3, 50), out(32 * 32 * 3);
  ImageRef img;
  img.width = 64, img.height = 64, img.plane[0] = src.data(), img.stride[0] = 64 * 3;
  RgaLetterboxSpec spec;
  spec.src_w = 64, spec.src_h = 64, spec.dst_w = 32, spec.dst_h = 32;
  RgaLetterbox lb(rt_, spec);
  EXPECT_EQ(lb.run(img, {}, out.data(), {}), im::kStatusSuccess);
  EXPECT_EQ(lb.run(img, {}, out.data(), {}), im::kStatusFailed);
  EXPECT_NE(std::string(lb.last_failure()).find("improcess: IM_STATUS_FAILED"), std::string::npos) << lb.last_failure();
  EXPECT_EQ(lb.run(img, {}, out.data(), {}), im::kStatusSuccess);
  EXPECT_EQ(lb.counters().failures, 1u);
}

TEST_F(RgaEnv, TheBoardCheckLetterboxesACameraFrameOnBothEnginesAndComparesThem) {
  const vg::rga::RgaBoardCheck c = vg::rga::letterbox_board_check();
  EXPECT_EQ(c.result, vg::rga::RgaBoardCheck::Result::pass) << c.detail;
  for (const char* part : {"1920x1080 NV12 -> 640x640 RGB on ", "RGA ", "CPU ", "largest difference from the CPU letterbox ",
                           "2 DMA-BUF imports"})
    EXPECT_NE(c.detail.find(part), std::string::npos) << part << "\n" << c.detail;
  EXPECT_EQ(fake_stats(*rt_).live, 0);
  fake_reset(*rt_, 1);  // the first job fails
  const vg::rga::RgaBoardCheck failed = vg::rga::letterbox_board_check();
  EXPECT_EQ(failed.result, vg::rga::RgaBoardCheck::Result::fail);
  EXPECT_NE(failed.detail.find("the first RGA job failed: improcess: IM_STATUS_FAILED"), std::string::npos) << failed.detail;
  ::setenv("VG_RGA_DEVICE", "/nonexistent/rga", 1);
  const vg::rga::RgaBoardCheck skipped = vg::rga::letterbox_board_check();
  EXPECT_EQ(skipped.result, vg::rga::RgaBoardCheck::Result::skip);
  EXPECT_NE(skipped.detail.find("no RGA device"), std::string::npos) << skipped.detail;
}

#endif  // !VG_RGA_ZERO_ALLOC

// ------------------------------------------------------------------------------------------ the kernel

/// image -> vg.rga.letterbox (cpu0) -> u8 tensor + geometry.
struct LetterboxGraph {
  LetterboxGraph(vg::Context& ctx, int w, int h, vg::ImageFormat format, int dst = 256)
      : g(ctx, "rga_letterbox") {
    image = g.add_data("image", vg::DataMeta::image_of(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h), format));
    tensor = g.add_data("tensor", vg::DataMeta::tensor_of({1, dst, dst, 3}, vg::ElementType::u8, vg::TensorLayout::nhwc));
    geometry = g.add_virtual("geometry", vg::DataKind::user_data);
    node = g.add_node("letterbox", vg::rga::kLetterboxKernel);
    g.bind(node, "input", image).bind(node, "output", tensor).bind(node, "geometry", geometry);
    g.set_target(node, "cpu0");
  }
  std::string engine() {
    vg::CommandReply reply;
    const vg::Status s = g.send_command(node, vg::ControlCommand::make(vg::rga::kCmdGetEngine), 1s, &reply);
    return s == vg::Status::ok ? std::string(reply.text()) : "command failed";
  }
  ImageRef ref() const {
    const vg::ImageView v = g.image(image);
    ImageRef r;
    r.format = v.meta().format == vg::ImageFormat::nv12 ? PixelFormat::nv12 : PixelFormat::bgr24;
    r.width = static_cast<int>(v.width()), r.height = static_cast<int>(v.height());
    r.plane[0] = v.plane(0), r.stride[0] = v.stride(0);
    if (r.format == PixelFormat::nv12) r.plane[1] = v.plane(1), r.stride[1] = v.stride(1);
    return r;
  }
  vg::Graph g;
  vg::DataId image, tensor, geometry;
  vg::NodeId node;
};

class RgaKernel : public RgaEnv {
 protected:
  void SetUp() override {
    RgaEnv::SetUp();
    ctx_ = std::make_unique<vg::Context>();
    ctx_->load_module(vg::detection::make_detection_module());
    ctx_->load_module(vg::rga::make_rga_module());
    // DMA-BUF memory for the node's objects, as a DMA heap gives on a board.
    ctx_->set_target_allocator("cpu0", &memfd_);
  }
  void TearDown() override {
    ctx_.reset();
    RgaEnv::TearDown();
  }
  std::unique_ptr<vg::Context> ctx_;
};

#if !VG_RGA_ZERO_ALLOC

std::string verify_error(vg::Graph& g) {
  try {
    g.verify();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST_F(RgaKernel, ChosenAtVerifyWhereLibrgaAndTheDeviceExistAndWritesWhatTheCpuWrites) {
  {
    LetterboxGraph lg(*ctx_, 640, 480, vg::ImageFormat::bgr24);
    lg.g.verify();
    const vg::ImageView v = lg.g.image(lg.image);
    paint_bgr(v.plane(0), v.stride(0), 640, 480);
    for (int i = 0; i < 4; ++i) ASSERT_EQ(lg.g.process(), vg::Status::ok) << lg.g.last_error().describe();
    const std::string engine = lg.engine();
    EXPECT_NE(engine.find("engine=rga rga_frames=4 cpu_frames=0 imports=2 fills=1"), std::string::npos) << engine;
    const auto* geo = lg.g.user_data<vg::detection::LetterboxGeometry>(lg.geometry);
    ASSERT_NE(geo, nullptr);
    EXPECT_FLOAT_EQ(geo->pad_y, 32.0f);
    const auto want = cpu_letterbox(lg.ref(), 256, 256, true, 0);
    EXPECT_LE(max_difference(lg.g.tensor(lg.tensor).data_as<std::uint8_t>(), want.data(), want.size()), 2);
    EXPECT_EQ(fake_stats(*rt_).live, 2);
  }
  EXPECT_EQ(fake_stats(*rt_).live, 0) << "the graph's release releases every import";
}

TEST_F(RgaKernel, WithoutTheDeviceOrLibrgaTheCpuLetterboxesAndSaysWhy) {
  ::setenv("VG_RGA_DEVICE", "/nonexistent/rga", 1);
  {
    LetterboxGraph lg(*ctx_, 640, 480, vg::ImageFormat::bgr24);
    lg.g.verify();
    paint_bgr(lg.g.image(lg.image).plane(0), 640 * 3, 640, 480);
    ASSERT_EQ(lg.g.process(), vg::Status::ok);
    const std::string engine = lg.engine();
    EXPECT_NE(engine.find("engine=cpu rga_frames=0 cpu_frames=1"), std::string::npos) << engine;
    EXPECT_NE(engine.find("no RGA device (/nonexistent/rga does not exist"), std::string::npos) << engine;
    const auto want = cpu_letterbox(lg.ref(), 256, 256, true, 0);
    EXPECT_EQ(max_difference(lg.g.tensor(lg.tensor).data_as<std::uint8_t>(), want.data(), want.size()), 0);
  }
  ::setenv("VG_RGA_DEVICE", "/dev/null", 1);
  LetterboxGraph lg(*ctx_, 640, 480, vg::ImageFormat::bgr24);
  lg.g.set_attribute(lg.node, "librga_path", std::string("/nonexistent/librga.so"));
  lg.g.verify();
  const std::string engine = lg.engine();
  EXPECT_NE(engine.find("why=/nonexistent/librga.so not found"), std::string::npos) << engine;
}

TEST_F(RgaKernel, EngineRgaFailsVerifyNamingTheNodeTheKeyAndTheReason) {
  ::setenv("VG_RGA_DEVICE", "/nonexistent/rga", 1);
  LetterboxGraph lg(*ctx_, 640, 480, vg::ImageFormat::bgr24);
  lg.g.set_attribute(lg.node, "engine", std::string("rga"));
  const std::string error = verify_error(lg.g);
  EXPECT_NE(error.find("'letterbox'"), std::string::npos) << error;
  EXPECT_NE(error.find("'engine'"), std::string::npos) << error;
  EXPECT_NE(error.find("no RGA device"), std::string::npos) << error;

  ::setenv("VG_RGA_DEVICE", "/dev/null", 1);
  LetterboxGraph far(*ctx_, 642, 480, vg::ImageFormat::bgr24);  // rows of 642 pixels: not RGA's alignment
  far.g.set_attribute(far.node, "engine", std::string("rga"));
  EXPECT_NE(verify_error(far.g).find("multiple of 4"), std::string::npos);
  LetterboxGraph fallback(*ctx_, 642, 480, vg::ImageFormat::bgr24);
  fallback.g.verify();  // auto: the CPU does it
  EXPECT_NE(fallback.engine().find("engine=cpu"), std::string::npos);
}

TEST_F(RgaKernel, AFloatModelInputIsRefusedWithWhatToDoInstead) {
  vg::Graph g(*ctx_, "f32");
  const auto image = g.add_data("image", vg::DataMeta::image_of(64, 64, vg::ImageFormat::bgr24));
  const auto tensor = g.add_data("tensor", vg::DataMeta::tensor_of({1, 32, 32, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc));
  const auto geometry = g.add_virtual("geometry", vg::DataKind::user_data);
  const auto n = g.add_node("letterbox", vg::rga::kLetterboxKernel);
  g.bind(n, "input", image).bind(n, "output", tensor).bind(n, "geometry", geometry);
  const std::string error = verify_error(g);
  EXPECT_NE(error.find("'output'"), std::string::npos) << error;
  EXPECT_NE(error.find("vg.detection.letterbox for f32"), std::string::npos) << error;
}

TEST_F(RgaKernel, AFrameRgaFailsIsLetterboxedOnTheCpuAndItsCodeIsInTheSample) {
  fake_reset(*rt_, 3);
  LetterboxGraph lg(*ctx_, 320, 240, vg::ImageFormat::bgr24, 128);
  lg.g.verify();
  paint_bgr(lg.g.image(lg.image).plane(0), 320 * 3, 320, 240);
  const auto want = cpu_letterbox(lg.ref(), 128, 128, true, 0);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(lg.g.process(), vg::Status::ok) << lg.g.last_error().describe();
    EXPECT_LE(max_difference(lg.g.tensor(lg.tensor).data_as<std::uint8_t>(), want.data(), want.size()), 2) << i;
    vg::FrameSample sample;
    ASSERT_EQ(lg.g.frame_sample(static_cast<std::uint64_t>(i), sample), vg::Status::ok);
    ASSERT_EQ(sample.count, 1u);
    EXPECT_EQ(sample.stages[0].status, vg::Status::ok) << "the CPU letterboxed the frame";
    EXPECT_EQ(sample.stages[0].code, i == 2 ? vg::rga::kSampleCodeFailed : 0) << i;
  }
  const std::string engine = lg.engine();
  EXPECT_NE(engine.find("engine=rga rga_frames=4 cpu_frames=1"), std::string::npos) << engine;
}

TEST_F(RgaKernel, AfterEightFailuresInARowTheNodeStaysOnTheCpu) {
  fake_reset(*rt_, -1);
  LetterboxGraph lg(*ctx_, 320, 240, vg::ImageFormat::bgr24, 128);
  lg.g.verify();
  // Each reset makes the stand-in's next job fail.
  for (int i = 0; i < 8; ++i) {
    fake_reset(*rt_, 1);
    ASSERT_EQ(lg.g.process(), vg::Status::ok);
  }
  fake_reset(*rt_, -1);
  ASSERT_EQ(lg.g.process(), vg::Status::ok);
  const std::string engine = lg.engine();
  EXPECT_NE(engine.find("engine=cpu rga_frames=0 cpu_frames=9"), std::string::npos) << engine;
  EXPECT_NE(engine.find("why=RGA failed 8 frames in a row, last: improcess: IM_STATUS_FAILED"), std::string::npos)
      << engine;
  EXPECT_EQ(fake_stats(*rt_).live, 0) << "giving up RGA releases its imports";
}

#else  // VG_RGA_ZERO_ALLOC

TEST_F(RgaKernel, ZeroAllocationsPerFrameOnRga) {
  LetterboxGraph lg(*ctx_, 640, 480, vg::ImageFormat::nv12);
  lg.g.verify();
  ASSERT_EQ(lg.g.process(), vg::Status::ok);  // first frame: imports and the pad fill
  vg::test::arm_alloc_counter();
  for (int i = 0; i < VG_RGA_ZERO_ALLOC_FRAMES; ++i) ASSERT_EQ(lg.g.process(), vg::Status::ok);
  const vg::test::AllocCounts counts = vg::test::disarm_alloc_counter();
  EXPECT_EQ(counts.news, 0u);
  if (vg::test::malloc_counted()) {
    EXPECT_EQ(counts.mallocs, 0u);
  }
  const std::string frames = "engine=rga rga_frames=" + std::to_string(VG_RGA_ZERO_ALLOC_FRAMES + 1);
  EXPECT_NE(lg.engine().find(frames), std::string::npos) << lg.engine();
}

#endif

}  // namespace
