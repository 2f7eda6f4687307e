// A test plugin for the CLI: `test.gate` holds each frame until a file exists, so a test can keep a
// frame running for as long as it likes and check what left the process meanwhile.
#include <chrono>
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

void fill(vg::Module& m) {
  m.set_name("test.gate");
  m.add(vg::KernelDecl("test.gate", "waits until the file 'path' exists (at most timeout_ms)")
            .required_attribute("path", vg::AttrType::string, "the file that opens the gate")
            .attribute("timeout_ms", 60000, "give up (the frame fails) after this long"));
  m.implement("test.gate", "cpu", vg::callbacks_for<Gate>());
}

}  // namespace

VG_DEFINE_MODULE(fill)
