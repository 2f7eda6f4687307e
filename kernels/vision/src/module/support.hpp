#pragma once
// What the vg.vision kernels share (module.cpp, geometry.cpp, pixels.cpp): frames as the library's planes,
// and the checks their validate steps repeat.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::vision::module_support {

inline ConstPlane const_plane(const ImageView& view, std::uint32_t index = 0) noexcept {
  return {view.plane(index), view.width(), view.height(), static_cast<std::ptrdiff_t>(view.stride(index))};
}
inline Plane plane(const ImageView& view, std::uint32_t index = 0) noexcept {
  return {view.plane(index), view.width(), view.height(), static_cast<std::ptrdiff_t>(view.stride(index))};
}

/// S16 planes (gradients, magnitudes, template scores) travel between vg.vision kernels as i16 tensors of dims
/// [height, width]: OpenVX's S16 images, rows dense.
DataMeta s16_plane(std::uint32_t width, std::uint32_t height);
/// The parameter @p index, which must be such a tensor (else fails naming @p name).
const DataMeta& s16_plane_input(ValidateContext& v, std::size_t index, const char* name);
inline Pixels s16_pixels(const TensorView& t) noexcept {
  const auto width = static_cast<std::uint32_t>(t.meta().dims[1]);
  return {t.data(), width, static_cast<std::uint32_t>(t.meta().dims[0]), static_cast<std::ptrdiff_t>(width) * 2, PixelType::s16};
}

/// The image parameter @p index, which must be an image in one of @p formats (else fails naming @p name).
const DataMeta& image_input(ValidateContext& v, std::size_t index, const char* name, std::initializer_list<ImageFormat> formats);

/// The input image (parameter 0) in one of @p formats; the output (parameter 1) a gray8 image of its size.
void validate_image_to_gray8(ValidateContext& v, std::initializer_list<ImageFormat> formats);

/// Two gray8 images of one size (parameters 0 and 1, named in1 and in2); the output (2) a gray8 image of that size.
void validate_two_gray8(ValidateContext& v);

/// The integer attribute @p key, which must be 0..255.
std::uint8_t byte_attribute(ValidateContext& v, const char* key);

/// The integer attribute @p key, which must be 1..max (an image side, say).
std::uint32_t positive_attribute(ValidateContext& v, const char* key, std::int64_t max);

/// The string attribute @p key, which must be one of @p choices; returns its index there.
std::size_t choice_attribute(ValidateContext& v, const char* key, std::span<const char* const> choices);
inline std::size_t choice_attribute(ValidateContext& v, const char* key, std::initializer_list<const char*> choices) {
  return choice_attribute(v, key, std::span<const char* const>(choices.begin(), choices.size()));
}

/// Declares the `border` and `border_value` attributes; border_attributes_valid checks them, border_of reads them.
KernelDecl& border_attributes(KernelDecl& decl);
void border_attributes_valid(ValidateContext& v);
Border border_of(const KernelContext& ctx);

/// Fills the array parameter @p array_param by @p fill(span, found) (a library function writing up to the
/// span's size and counting all it found), trims the array to what was written, and writes the count to the
/// u32 scalar @p count_param when it is bound: so items past the capacity are counted, not lost silently.
template <class Item, class Fill>
Status fill_array(KernelContext& ctx, std::size_t array_param, std::size_t count_param, Fill&& fill) noexcept {
  ArrayView<Item> items = ctx.array<Item>(array_param);
  const std::size_t capacity = items.capacity();
  (void)items.resize(capacity);
  std::size_t found = 0;
  if (!fill(std::span<Item>(items.data(), capacity), found)) {
    (void)items.resize(0);
    return Status::invalid_argument;
  }
  (void)items.resize(found < capacity ? found : capacity);
  if (ctx.is_bound(count_param)) ctx.scalar(count_param).set(static_cast<std::uint32_t>(found < UINT32_MAX ? found : UINT32_MAX));
  return Status::ok;
}

}  // namespace vg::vision::module_support
