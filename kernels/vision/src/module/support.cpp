// The checks the vg.vision kernels' validate steps share (support.hpp).
#include "support.hpp"

namespace vg::vision::module_support {

const DataMeta& image_input(ValidateContext& v, std::size_t index, const char* name, std::initializer_list<ImageFormat> formats) {
  const DataMeta& in = v.meta(index);
  bool accepted = false;
  std::string names;
  for (ImageFormat f : formats) {
    accepted = accepted || (in.kind == DataKind::image && in.image.format == f);
    names += (names.empty() ? "" : " or ") + std::string(to_string(f));
  }
  if (!accepted) v.fail(name, "expects a " + names + " image, got " + in.describe());
  return in;
}

DataMeta s16_plane(std::uint32_t width, std::uint32_t height) {
  return DataMeta::tensor_of({static_cast<std::int64_t>(height), static_cast<std::int64_t>(width)}, ElementType::i16);
}

const DataMeta& s16_plane_input(ValidateContext& v, std::size_t index, const char* name) {
  const DataMeta& in = v.meta(index);
  const bool plane = in.kind == DataKind::tensor && in.tensor.type == ElementType::i16 && in.tensor.rank == 2 &&
                     in.tensor.dims[0] > 0 && in.tensor.dims[1] > 0 && in.tensor.dims[0] <= UINT32_MAX &&
                     in.tensor.dims[1] <= UINT32_MAX / 2;
  if (!plane) v.fail(name, "expects an S16 plane (an i16 tensor [height, width]), got " + in.describe());
  return in;
}

void validate_image_to_gray8(ValidateContext& v, std::initializer_list<ImageFormat> formats) {
  const DataMeta& in = image_input(v, 0, "input", formats);
  v.set_meta(1, DataMeta::image_of(in.image.width, in.image.height, ImageFormat::gray8));
}

void validate_two_gray8(ValidateContext& v) {
  const DataMeta& a = image_input(v, 0, "in1", {ImageFormat::gray8});
  const DataMeta& b = image_input(v, 1, "in2", {ImageFormat::gray8});
  if (a.image.width != b.image.width || a.image.height != b.image.height)
    v.fail("in2", "is " + std::to_string(b.image.width) + "x" + std::to_string(b.image.height) + " but in1 is " +
                      std::to_string(a.image.width) + "x" + std::to_string(a.image.height) + ": they must have one size");
  v.set_meta(2, DataMeta::image_of(a.image.width, a.image.height, ImageFormat::gray8));
}

std::uint8_t byte_attribute(ValidateContext& v, const char* key) {
  const std::int64_t value = v.integer(key);
  if (value < 0 || value > 255) v.fail(key, "must be 0..255, got " + std::to_string(value));
  return static_cast<std::uint8_t>(value);
}

std::uint32_t positive_attribute(ValidateContext& v, const char* key, std::int64_t max) {
  const std::int64_t value = v.integer(key);
  if (value < 1 || value > max) v.fail(key, "must be 1.." + std::to_string(max) + ", got " + std::to_string(value));
  return static_cast<std::uint32_t>(value);
}

std::size_t choice_attribute(ValidateContext& v, const char* key, std::span<const char* const> choices) {
  const std::string& text = v.string(key);
  std::string names;
  std::size_t i = 0;
  for (const char* c : choices) {
    if (text == c) return i;
    names += (names.empty() ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(c);
    ++i;
  }
  v.fail(key, "must be " + names + ", got '" + text + "'");
  return 0;
}

KernelDecl& border_attributes(KernelDecl& decl) {
  return decl.attribute("border", "replicate", "outside the image: replicate (the nearest edge pixel) or constant")
      .attribute("border_value", 0, "the constant border's value, 0..255");
}

void border_attributes_valid(ValidateContext& v) {
  BorderMode mode{};
  if (!parse_border_mode(v.string("border"), mode)) v.fail("border", "must be replicate or constant, got '" + v.string("border") + "'");
  byte_attribute(v, "border_value");
}

Border border_of(const KernelContext& ctx) {
  Border border;
  parse_border_mode(ctx.string("border"), border.mode);  // validate checked it
  border.constant = static_cast<std::uint8_t>(ctx.integer("border_value"));
  return border;
}

}  // namespace vg::vision::module_support
