#pragma once
/// @file
/// @brief Typed, non-owning views of one buffer of a data object, handed to kernels and applications.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "visiongraph/data/buffer.hpp"
#include "visiongraph/data/meta.hpp"

namespace vg {

/// @brief View of an image buffer. Cheap to copy; valid while the graph is.
class ImageView {
 public:
  ImageView() = default;
  ImageView(const DataMeta* meta, Buffer* buffer) noexcept : meta_(meta), buffer_(buffer) {}
  bool valid() const noexcept { return meta_ != nullptr && buffer_ != nullptr; }
  const ImageMeta& meta() const noexcept { return meta_->image; }
  std::uint32_t width() const noexcept { return meta_->image.width; }
  std::uint32_t height() const noexcept { return meta_->image.height; }
  ImageFormat format() const noexcept { return meta_->image.format; }
  std::uint8_t* plane(std::uint32_t index = 0) const noexcept { return buffer_->plane[index]; }
  std::size_t stride(std::uint32_t index = 0) const noexcept { return buffer_->stride[index]; }
  const MemoryBlock& block() const noexcept { return buffer_->block; }

 private:
  const DataMeta* meta_ = nullptr;
  Buffer* buffer_ = nullptr;
};

/// @brief View of a tensor buffer (one contiguous block of meta().byte_size() bytes).
class TensorView {
 public:
  TensorView() = default;
  TensorView(const DataMeta* meta, Buffer* buffer) noexcept : meta_(meta), buffer_(buffer) {}
  bool valid() const noexcept { return meta_ != nullptr && buffer_ != nullptr; }
  const TensorMeta& meta() const noexcept { return meta_->tensor; }
  void* data() const noexcept { return buffer_->plane[0]; }
  template <class T>
  T* data_as() const noexcept {
    return reinterpret_cast<T*>(buffer_->plane[0]);
  }
  std::size_t byte_size() const noexcept { return meta_->tensor.byte_size(); }
  const MemoryBlock& block() const noexcept { return buffer_->block; }

 private:
  const DataMeta* meta_ = nullptr;
  Buffer* buffer_ = nullptr;
};

/// @brief View of a scalar buffer; get/set convert through the declared element type's storage size.
class ScalarView {
 public:
  ScalarView() = default;
  ScalarView(const DataMeta* meta, Buffer* buffer) noexcept : meta_(meta), buffer_(buffer) {}
  ElementType type() const noexcept { return meta_->scalar.type; }
  template <class T>
  T get() const noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    std::memcpy(&value, buffer_->plane[0], sizeof(T) <= 8 ? sizeof(T) : 8);
    return value;
  }
  template <class T>
  void set(const T& value) noexcept {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
    std::memcpy(buffer_->plane[0], &value, sizeof(T));
  }

 private:
  const DataMeta* meta_ = nullptr;
  Buffer* buffer_ = nullptr;
};

/// @brief View of a fixed-capacity array of T. push_back fails (returns false) when full: never grows.
template <class T>
class ArrayView {
 public:
  static_assert(std::is_trivially_copyable_v<T>);
  ArrayView() = default;
  ArrayView(const DataMeta* meta, Buffer* buffer) noexcept : meta_(meta), buffer_(buffer) {}
  T* data() const noexcept { return reinterpret_cast<T*>(buffer_->plane[0]); }
  std::size_t size() const noexcept { return buffer_->count; }
  std::size_t capacity() const noexcept { return meta_->array.capacity; }
  T& operator[](std::size_t i) const noexcept { return data()[i]; }
  T* begin() const noexcept { return data(); }
  T* end() const noexcept { return data() + size(); }
  void clear() noexcept { buffer_->count = 0; }
  bool resize(std::size_t n) noexcept {
    if (n > capacity()) return false;
    buffer_->count = n;
    return true;
  }
  [[nodiscard]] bool push_back(const T& value) noexcept {
    if (buffer_->count >= capacity()) return false;
    data()[buffer_->count++] = value;
    return true;
  }

 private:
  const DataMeta* meta_ = nullptr;
  Buffer* buffer_ = nullptr;
};

}  // namespace vg
