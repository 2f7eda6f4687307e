#pragma once
/// @file
/// @brief Enumerations describing data objects: kinds, image formats, element types, tensor layouts.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vg {

/// @brief What a data object is.
enum class DataKind : std::uint8_t { image, tensor, scalar, user_data, array };

/// @brief Pixel formats of images. NV12 has two planes (Y, interleaved UV at half resolution).
enum class ImageFormat : std::uint8_t { rgb24, bgr24, gray8, nv12 };

/// @brief Element types of tensors and scalars.
enum class ElementType : std::uint8_t { u8, i8, u16, i16, u32, i32, i64, f16, f32, f64 };

/// @brief Memory layout tag of a tensor (NC1HWC2 is the Rockchip NPU native layout).
enum class TensorLayout : std::uint8_t { unspecified, nchw, nhwc, nc1hwc2 };

/// @brief Size in bytes of one element.
constexpr std::size_t element_size(ElementType type) noexcept {
  switch (type) {
    case ElementType::u8:
    case ElementType::i8:
      return 1;
    case ElementType::u16:
    case ElementType::i16:
    case ElementType::f16:
      return 2;
    case ElementType::u32:
    case ElementType::i32:
    case ElementType::f32:
      return 4;
    case ElementType::i64:
    case ElementType::f64:
      return 8;
  }
  return 0;
}

constexpr std::string_view to_string(DataKind kind) noexcept {
  switch (kind) {
    case DataKind::image: return "image";
    case DataKind::tensor: return "tensor";
    case DataKind::scalar: return "scalar";
    case DataKind::user_data: return "user_data";
    case DataKind::array: return "array";
  }
  return "?";
}

constexpr std::string_view to_string(ImageFormat format) noexcept {
  switch (format) {
    case ImageFormat::rgb24: return "rgb24";
    case ImageFormat::bgr24: return "bgr24";
    case ImageFormat::gray8: return "gray8";
    case ImageFormat::nv12: return "nv12";
  }
  return "?";
}

constexpr std::string_view to_string(ElementType type) noexcept {
  switch (type) {
    case ElementType::u8: return "u8";
    case ElementType::i8: return "i8";
    case ElementType::u16: return "u16";
    case ElementType::i16: return "i16";
    case ElementType::u32: return "u32";
    case ElementType::i32: return "i32";
    case ElementType::i64: return "i64";
    case ElementType::f16: return "f16";
    case ElementType::f32: return "f32";
    case ElementType::f64: return "f64";
  }
  return "?";
}

constexpr std::string_view to_string(TensorLayout layout) noexcept {
  switch (layout) {
    case TensorLayout::unspecified: return "unspecified";
    case TensorLayout::nchw: return "nchw";
    case TensorLayout::nhwc: return "nhwc";
    case TensorLayout::nc1hwc2: return "nc1hwc2";
  }
  return "?";
}

/// @brief Parse helpers for text formats (YAML, CLI). Return false on an unknown name.
bool parse(std::string_view text, DataKind& out) noexcept;
bool parse(std::string_view text, ImageFormat& out) noexcept;
bool parse(std::string_view text, ElementType& out) noexcept;
bool parse(std::string_view text, TensorLayout& out) noexcept;

}  // namespace vg
