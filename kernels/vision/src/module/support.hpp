#pragma once
// What the vg.vision kernels share (module.cpp, geometry.cpp, pixels.cpp): frames as the library's planes,
// and the checks their validate steps repeat.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/plane.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::vision::module_support {

inline ConstPlane const_plane(const ImageView& view, std::uint32_t index = 0) noexcept {
  return {view.plane(index), view.width(), view.height(), static_cast<std::ptrdiff_t>(view.stride(index))};
}
inline Plane plane(const ImageView& view, std::uint32_t index = 0) noexcept {
  return {view.plane(index), view.width(), view.height(), static_cast<std::ptrdiff_t>(view.stride(index))};
}

/// The image parameter @p index, which must be an image in one of @p formats (else fails naming @p name).
const DataMeta& image_input(ValidateContext& v, std::size_t index, const char* name, std::initializer_list<ImageFormat> formats);

/// The input image (parameter 0) in one of @p formats; the output (parameter 1) a gray8 image of its size.
void validate_image_to_gray8(ValidateContext& v, std::initializer_list<ImageFormat> formats);

/// The integer attribute @p key, which must be 0..255.
std::uint8_t byte_attribute(ValidateContext& v, const char* key);

/// The integer attribute @p key, which must be 1..max (an image side, say).
std::uint32_t positive_attribute(ValidateContext& v, const char* key, std::int64_t max);

/// The string attribute @p key, which must be one of @p choices; returns its index there.
std::size_t choice_attribute(ValidateContext& v, const char* key, std::initializer_list<const char*> choices);

/// Declares the `border` and `border_value` attributes; border_attributes_valid checks them, border_of reads them.
KernelDecl& border_attributes(KernelDecl& decl);
void border_attributes_valid(ValidateContext& v);
Border border_of(const KernelContext& ctx);

}  // namespace vg::vision::module_support
