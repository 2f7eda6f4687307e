// A module library for the Python tests, loaded by path (Context.load_module("/path/libvg_python_test_plugin.so")):
//  - pytest.image_sum (cpu): total = sum of every byte of an image's pixels (+ offset). Reads the image in
//    place, so a test can prove the graph reads a numpy array without a copy. Fails a frame (kernel_error,
//    "total over the limit") whose total exceeds `limit` when that is >= 0.
//  - pytest.tensor_sum (cpu): total = sum of an f32 tensor's elements (+ offset).
//  - pytest.fill (cpu): writes `value` into every byte of an output image of width x height, format gray8.
// Commands of the two sums: set_offset (number), get_offset (none), echo (text), poke (bytes: replies
// with their count), fail (none: refuses with invalid_argument).
#include <cstdio>
#include <cstring>

#include "visiongraph/visiongraph.hpp"

namespace {

enum Command : std::uint32_t { kSetOffset = 1, kGetOffset = 2, kEcho = 3, kPoke = 4, kFail = 5 };

struct Summer {
  explicit Summer(vg::KernelContext& ctx) : offset(ctx.number("offset")) {}
  vg::Status control(vg::KernelContext&, const vg::ControlCommand& c, vg::CommandReply& reply) noexcept {
    char text[64];
    switch (c.id) {
      case kSetOffset:
        if (!c.read(offset)) return vg::Status::invalid_argument;
        break;
      case kGetOffset: break;
      case kEcho: (void)reply.write_text(c.text()); return vg::Status::ok;
      case kPoke:
        std::snprintf(text, sizeof(text), "%u bytes", c.size);
        (void)reply.write_text(text);
        return vg::Status::ok;
      case kFail: return vg::Status::invalid_argument;
      default: return vg::Status::unknown_command;
    }
    std::snprintf(text, sizeof(text), "offset=%g", offset);
    (void)reply.write_text(text);
    return vg::Status::ok;
  }
  double offset;
};

struct ImageSum : Summer {
  explicit ImageSum(vg::KernelContext& ctx) : Summer(ctx), limit(ctx.number("limit")) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView in = ctx.image(0);
    const std::size_t row = in.width() * in.meta().bytes_per_pixel();
    double total = 0;
    for (std::uint32_t y = 0; y < in.height(); ++y)
      for (std::size_t x = 0; x < row; ++x) total += in.plane()[y * in.stride() + x];
    if (limit >= 0 && total > limit) {  // a frame that fails, with a message
      ctx.set_error("total over the limit");
      return vg::Status::kernel_error;
    }
    ctx.scalar(1).set(total + offset);
    return vg::Status::ok;
  }
  double limit;
};

struct TensorSum : Summer {
  using Summer::Summer;
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::TensorView in = ctx.tensor(0);
    const float* data = in.data_as<float>();
    double total = 0;
    for (std::int64_t i = 0; i < in.meta().num_elements(); ++i) total += data[i];
    ctx.scalar(1).set(total + offset);
    return vg::Status::ok;
  }
};

struct Fill {
  explicit Fill(vg::KernelContext& ctx) : value(static_cast<std::uint8_t>(ctx.integer("value"))) {}
  vg::Status process(vg::KernelContext& ctx) noexcept {
    const vg::ImageView out = ctx.image(0);
    for (std::uint32_t y = 0; y < out.height(); ++y) std::memset(out.plane() + y * out.stride(), value, out.width());
    return vg::Status::ok;
  }
  std::uint8_t value;
};

vg::KernelDecl& with_commands(vg::KernelDecl& d) {
  return d.attribute("offset", 0.0, "added to the total")
      .command(kSetOffset, "set_offset", vg::PayloadKind::number, "replace the offset; replies offset=<value>")
      .command(kGetOffset, "get_offset", vg::PayloadKind::none, "reply offset=<value>")
      .command(kEcho, "echo", vg::PayloadKind::text, "reply with the text")
      .command(kPoke, "poke", vg::PayloadKind::bytes, "reply with the payload's size")
      .command(kFail, "fail", vg::PayloadKind::none, "always refused (invalid_argument)");
}

void fill(vg::Module& m) {
  m.set_name("pytest.plugin");
  vg::KernelDecl image_sum("pytest.image_sum", "total = sum of the image's bytes + offset");
  image_sum.input("image", vg::DataKind::image).output("total", vg::DataKind::scalar).validate([](vg::ValidateContext& v) {
    if (v.meta(0).image.format == vg::ImageFormat::nv12) v.fail("image", "expects a packed image (rgb24, bgr24, gray8)");
    v.set_meta(1, vg::DataMeta::scalar_of(vg::ElementType::f64));
  });
  image_sum.attribute("limit", -1.0, "fail frames whose total exceeds it (negative: never)");
  m.add(with_commands(image_sum));
  vg::KernelDecl tensor_sum("pytest.tensor_sum", "total = sum of an f32 tensor + offset");
  tensor_sum.input("tensor", vg::DataKind::tensor).output("total", vg::DataKind::scalar).validate([](vg::ValidateContext& v) {
    if (v.meta(0).tensor.type != vg::ElementType::f32) v.fail("tensor", "expects an f32 tensor, got " + v.meta(0).describe());
    v.set_meta(1, vg::DataMeta::scalar_of(vg::ElementType::f64));
  });
  m.add(with_commands(tensor_sum));
  m.add(vg::KernelDecl("pytest.fill", "writes value into every pixel of a gray8 image")
            .output("image", vg::DataKind::image)
            .attribute("width", 8, "pixels")
            .attribute("height", 4, "pixels")
            .attribute("value", 7, "byte written")
            .validate([](vg::ValidateContext& v) {
              const auto w = static_cast<std::uint32_t>(v.integer("width"));
              const auto h = static_cast<std::uint32_t>(v.integer("height"));
              v.set_meta(0, vg::DataMeta::image_of(w, h, vg::ImageFormat::gray8));
            }));
  m.implement("pytest.image_sum", "cpu", vg::callbacks_for<ImageSum>());
  m.implement("pytest.tensor_sum", "cpu", vg::callbacks_for<TensorSum>());
  m.implement("pytest.fill", "cpu", vg::callbacks_for<Fill>());
}

}  // namespace

VG_DEFINE_MODULE(fill)
