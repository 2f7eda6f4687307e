// A test plugin for the CLI: `test.gate` holds each frame until a file exists, so a test can keep a
// frame running for as long as it likes and check what left the process meanwhile.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "visiongraph/visiongraph.hpp"

namespace {

struct Gate {
  explicit Gate(vg::KernelContext& ctx) : path(ctx.string("path")), timeout_ms(ctx.integer("timeout_ms")) {}
  vg::Status process(vg::KernelContext&) noexcept {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    std::error_code ec;
    while (!std::filesystem::exists(path, ec)) {
      if (std::chrono::steady_clock::now() > until) return vg::Status::timeout;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return vg::Status::ok;
  }
  std::string path;
  std::int64_t timeout_ms;
};

// test.crash: raises SIGSEGV on the worker thread when it processes frame `frame`.
struct Crash {
  explicit Crash(vg::KernelContext& ctx) : frame(ctx.integer("frame")) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    if (static_cast<std::int64_t>(ctx.frame().sequence) == frame) std::raise(SIGSEGV);
    return vg::Status::ok;
  }
  std::int64_t frame;
};

// test.leak: leaks `megabytes` MiB of written (resident) memory per frame, as a buggy kernel would.
struct Leak {
  explicit Leak(vg::KernelContext& ctx) : bytes(static_cast<std::size_t>(ctx.integer("megabytes")) << 20) {}
  vg::Status process(vg::KernelContext&) noexcept {
    void* lost = std::malloc(bytes);
    if (lost != nullptr) std::memset(lost, 1, bytes);
    last = lost;  // escapes: the compiler may not drop the allocation
    return vg::Status::ok;
  }
  std::size_t bytes;
  static inline void* volatile last = nullptr;
};

void fill(vg::Module& m) {
  m.set_name("test.gate");
  m.add(vg::KernelDecl("test.gate", "waits until the file 'path' exists (at most timeout_ms)")
            .required_attribute("path", vg::AttrType::string, "the file that opens the gate")
            .attribute("timeout_ms", 60000, "give up (the frame fails) after this long"));
  m.implement("test.gate", "cpu", vg::callbacks_for<Gate>());
  m.add(vg::KernelDecl("test.crash", "raises SIGSEGV on frame 'frame'").attribute("frame", 3, "the frame to crash on"));
  m.implement("test.crash", "cpu", vg::callbacks_for<Crash>());
  m.add(vg::KernelDecl("test.leak", "leaks 'megabytes' MiB per frame").attribute("megabytes", 4, "MiB lost per frame"));
  m.implement("test.leak", "cpu", vg::callbacks_for<Leak>());
}

}  // namespace

VG_DEFINE_MODULE(fill)
