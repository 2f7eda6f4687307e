#pragma once
/// @file
/// @brief Metadata of data objects, fixed before verify (validate callbacks fill in outputs).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

#include "visiongraph/data/types.hpp"

namespace vg {

inline constexpr std::size_t kMaxTensorDims = 6;
inline constexpr std::size_t kMaxTypeNameLength = 63;

/// @brief Image metadata. row_stride 0 means tightly packed rows.
struct ImageMeta {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  ImageFormat format = ImageFormat::bgr24;
  std::uint32_t row_stride = 0;  ///< bytes per row of plane 0; 0 = width * bytes per pixel

  std::uint32_t num_planes() const noexcept { return format == ImageFormat::nv12 ? 2u : 1u; }
  std::size_t bytes_per_pixel() const noexcept;  ///< of plane 0
  std::size_t stride(std::uint32_t plane) const noexcept;
  std::size_t plane_rows(std::uint32_t plane) const noexcept;
  std::size_t byte_size() const noexcept;  ///< all planes
};

/// @brief Tensor metadata: up to six dimensions, element type, layout tag and affine quantization.
struct TensorMeta {
  std::uint32_t rank = 0;
  std::array<std::int64_t, kMaxTensorDims> dims{};
  ElementType type = ElementType::f32;
  TensorLayout layout = TensorLayout::unspecified;
  float scale = 1.0f;        ///< real = (q - zero_point) * scale
  std::int32_t zero_point = 0;

  std::int64_t num_elements() const noexcept;
  std::size_t byte_size() const noexcept { return static_cast<std::size_t>(num_elements()) * element_size(type); }
};

/// @brief Scalar metadata (one element stored in the object's buffer).
struct ScalarMeta {
  ElementType type = ElementType::f64;
};

/// @brief A fixed-size, trivially copyable record identified by a type name (e.g. a detections packet).
struct UserDataMeta {
  std::array<char, kMaxTypeNameLength + 1> type_name{};
  std::size_t size = 0;
  std::size_t alignment = alignof(std::max_align_t);
  std::string_view name() const noexcept { return type_name.data(); }
};

/// @brief A fixed-capacity array of trivially copyable items identified by an item type name.
struct ArrayMeta {
  std::array<char, kMaxTypeNameLength + 1> item_type{};
  std::size_t item_size = 0;
  std::size_t capacity = 0;
  std::string_view name() const noexcept { return item_type.data(); }
};

/// @brief Metadata of any data object: `kind` says which member is meaningful.
/// @code
/// auto img = vg::DataMeta::image_of(640, 480, vg::ImageFormat::bgr24);
/// auto t = vg::DataMeta::tensor_of({1, 128, 128, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc);
/// @endcode
struct DataMeta {
  DataKind kind = DataKind::image;
  bool valid = false;  ///< false until the metadata is known (virtual objects before validate)
  ImageMeta image{};
  TensorMeta tensor{};
  ScalarMeta scalar{};
  UserDataMeta user_data{};
  ArrayMeta array{};

  static DataMeta image_of(const ImageMeta& meta) noexcept;
  static DataMeta image_of(std::uint32_t width, std::uint32_t height, ImageFormat format,
                           std::uint32_t row_stride = 0) noexcept;
  static DataMeta tensor_of(std::initializer_list<std::int64_t> dims, ElementType type,
                            TensorLayout layout = TensorLayout::unspecified, float scale = 1.0f,
                            std::int32_t zero_point = 0);
  static DataMeta tensor_of(const TensorMeta& meta) noexcept;
  static DataMeta scalar_of(ElementType type) noexcept;
  static DataMeta user_data_of(std::string_view type_name, std::size_t size,
                               std::size_t alignment = alignof(std::max_align_t));
  static DataMeta array_of(std::string_view item_type, std::size_t item_size, std::size_t capacity);

  template <class T>
  static DataMeta user_data_of(std::string_view type_name) {
    static_assert(std::is_trivially_copyable_v<T>, "user data must be trivially copyable");
    return user_data_of(type_name, sizeof(T), alignof(T));
  }
  template <class T>
  static DataMeta array_of(std::string_view item_type, std::size_t capacity) {
    static_assert(std::is_trivially_copyable_v<T>, "array items must be trivially copyable");
    return array_of(item_type, sizeof(T), capacity);
  }

  /// @brief Bytes of storage one buffer of this object needs.
  std::size_t byte_size() const noexcept;
  /// @brief True when both describe the same kind, shape and type (used to check graph-parameter buffers).
  bool same_shape(const DataMeta& other) const noexcept;
  /// @brief One-line description, e.g. "tensor f32 nhwc [1,128,128,3]".
  std::string describe() const;
};

}  // namespace vg
