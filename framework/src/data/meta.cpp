#include "visiongraph/data/meta.hpp"

#include <algorithm>
#include <sstream>

#include "visiongraph/core/error.hpp"

namespace vg {

namespace {
template <std::size_t N>
void copy_name(std::array<char, N>& dst, std::string_view src, const char* what) {
  if (src.size() >= N) throw Error(std::string(what) + " '" + std::string(src) + "' is longer than " + std::to_string(N - 1) + " characters");
  dst.fill('\0');
  std::copy(src.begin(), src.end(), dst.begin());
}
}  // namespace

std::size_t ImageMeta::bytes_per_pixel() const noexcept {
  switch (format) {
    case ImageFormat::rgb24:
    case ImageFormat::bgr24:
      return 3;
    case ImageFormat::gray8:
    case ImageFormat::nv12:
      return 1;
  }
  return 0;
}

std::size_t ImageMeta::stride(std::uint32_t plane) const noexcept {
  const std::size_t packed = static_cast<std::size_t>(width) * bytes_per_pixel();
  const std::size_t s = row_stride ? std::max<std::size_t>(row_stride, packed) : packed;
  return plane < num_planes() ? s : 0;  // NV12's UV plane has the same stride as Y
}

std::size_t ImageMeta::plane_rows(std::uint32_t plane) const noexcept {
  if (plane == 0) return height;
  if (plane == 1 && format == ImageFormat::nv12) return (height + 1) / 2;
  return 0;
}

std::size_t ImageMeta::byte_size() const noexcept {
  std::size_t total = 0;
  for (std::uint32_t p = 0; p < num_planes(); ++p) total += stride(p) * plane_rows(p);
  return total;
}

std::int64_t TensorMeta::num_elements() const noexcept {
  if (rank == 0) return 0;
  std::int64_t n = 1;
  for (std::uint32_t i = 0; i < rank; ++i) n *= dims[i] > 0 ? dims[i] : 0;
  return n;
}

DataMeta DataMeta::image_of(const ImageMeta& meta) noexcept {
  DataMeta m;
  m.kind = DataKind::image;
  m.valid = true;
  m.image = meta;
  return m;
}

DataMeta DataMeta::image_of(std::uint32_t width, std::uint32_t height, ImageFormat format, std::uint32_t row_stride) noexcept {
  return image_of(ImageMeta{width, height, format, row_stride});
}

DataMeta DataMeta::tensor_of(std::initializer_list<std::int64_t> dims, ElementType type, TensorLayout layout, float scale,
                          std::int32_t zero_point) {
  if (dims.size() == 0 || dims.size() > kMaxTensorDims)
    throw Error("tensor: rank " + std::to_string(dims.size()) + " is outside 1.." + std::to_string(kMaxTensorDims));
  TensorMeta t;
  t.rank = static_cast<std::uint32_t>(dims.size());
  std::copy(dims.begin(), dims.end(), t.dims.begin());
  t.type = type;
  t.layout = layout;
  t.scale = scale;
  t.zero_point = zero_point;
  return tensor_of(t);
}

DataMeta DataMeta::tensor_of(const TensorMeta& meta) noexcept {
  DataMeta m;
  m.kind = DataKind::tensor;
  m.valid = true;
  m.tensor = meta;
  return m;
}

DataMeta DataMeta::scalar_of(ElementType type) noexcept {
  DataMeta m;
  m.kind = DataKind::scalar;
  m.valid = true;
  m.scalar.type = type;
  return m;
}

DataMeta DataMeta::user_data_of(std::string_view type_name, std::size_t size, std::size_t alignment) {
  DataMeta m;
  m.kind = DataKind::user_data;
  m.valid = true;
  copy_name(m.user_data.type_name, type_name, "user data type name");
  m.user_data.size = size;
  m.user_data.alignment = alignment;
  return m;
}

DataMeta DataMeta::array_of(std::string_view item_type, std::size_t item_size, std::size_t capacity) {
  DataMeta m;
  m.kind = DataKind::array;
  m.valid = true;
  copy_name(m.array.item_type, item_type, "array item type name");
  m.array.item_size = item_size;
  m.array.capacity = capacity;
  return m;
}

std::size_t DataMeta::byte_size() const noexcept {
  switch (kind) {
    case DataKind::image: return image.byte_size();
    case DataKind::tensor: return tensor.byte_size();
    case DataKind::scalar: return 8;  // room for the widest element type
    case DataKind::user_data: return user_data.size;
    case DataKind::array: return array.item_size * array.capacity;
  }
  return 0;
}

bool DataMeta::same_shape(const DataMeta& o) const noexcept {
  if (kind != o.kind) return false;
  switch (kind) {
    case DataKind::image:
      return image.width == o.image.width && image.height == o.image.height && image.format == o.image.format;
    case DataKind::tensor:
      if (tensor.rank != o.tensor.rank || tensor.type != o.tensor.type) return false;
      for (std::uint32_t i = 0; i < tensor.rank; ++i)
        if (tensor.dims[i] != o.tensor.dims[i]) return false;
      return true;
    case DataKind::scalar: return scalar.type == o.scalar.type;
    case DataKind::user_data: return user_data.size == o.user_data.size && user_data.name() == o.user_data.name();
    case DataKind::array:
      return array.item_size == o.array.item_size && array.capacity == o.array.capacity && array.name() == o.array.name();
  }
  return false;
}

std::string DataMeta::describe() const {
  std::ostringstream out;
  if (!valid) {
    out << to_string(kind) << " (metadata not set)";
    return out.str();
  }
  switch (kind) {
    case DataKind::image:
      out << "image " << image.width << "x" << image.height << " " << to_string(image.format);
      break;
    case DataKind::tensor:
      out << "tensor " << to_string(tensor.type) << " " << to_string(tensor.layout) << " [";
      for (std::uint32_t i = 0; i < tensor.rank; ++i) out << (i ? "," : "") << tensor.dims[i];
      out << "]";
      if (tensor.scale != 1.0f || tensor.zero_point != 0) out << " q(scale=" << tensor.scale << ", zp=" << tensor.zero_point << ")";
      break;
    case DataKind::scalar: out << "scalar " << to_string(scalar.type); break;
    case DataKind::user_data: out << "user_data " << user_data.name() << " (" << user_data.size << " bytes)"; break;
    case DataKind::array: out << "array of " << array.name() << " x" << array.capacity; break;
  }
  return out.str();
}

namespace {
template <class E, std::size_t N>
bool parse_enum(std::string_view text, E& out, const std::array<E, N>& values) {
  for (E v : values)
    if (to_string(v) == text) {
      out = v;
      return true;
    }
  return false;
}
}  // namespace

bool parse(std::string_view text, DataKind& out) noexcept {
  return parse_enum(text, out, std::array{DataKind::image, DataKind::tensor, DataKind::scalar, DataKind::user_data, DataKind::array});
}
bool parse(std::string_view text, ImageFormat& out) noexcept {
  return parse_enum(text, out, std::array{ImageFormat::rgb24, ImageFormat::bgr24, ImageFormat::gray8, ImageFormat::nv12});
}
bool parse(std::string_view text, ElementType& out) noexcept {
  return parse_enum(text, out,
                    std::array{ElementType::u8, ElementType::i8, ElementType::u16, ElementType::i16, ElementType::u32,
                               ElementType::i32, ElementType::i64, ElementType::f16, ElementType::f32, ElementType::f64});
}
bool parse(std::string_view text, TensorLayout& out) noexcept {
  return parse_enum(text, out, std::array{TensorLayout::unspecified, TensorLayout::nchw, TensorLayout::nhwc, TensorLayout::nc1hwc2});
}

}  // namespace vg
