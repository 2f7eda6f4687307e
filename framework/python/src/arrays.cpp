#include "arrays.hpp"

#include <cstring>
#include <vector>

#include "convert.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

using Shape = std::vector<py::ssize_t>;

/// The shape and dtype an array for @p meta has (gray8 also takes (H, W, 1); see shape_matches).
Shape shape_of(const DataMeta& meta) {
  if (meta.kind == DataKind::image) {
    const auto h = static_cast<py::ssize_t>(meta.image.height), w = static_cast<py::ssize_t>(meta.image.width);
    switch (meta.image.format) {
      case ImageFormat::rgb24:
      case ImageFormat::bgr24: return {h, w, 3};
      case ImageFormat::gray8: return {h, w};
      case ImageFormat::nv12: return {h * 3 / 2, w};
    }
  }
  Shape s;
  for (std::uint32_t i = 0; i < meta.tensor.rank; ++i) s.push_back(static_cast<py::ssize_t>(meta.tensor.dims[i]));
  return s;
}

py::dtype dtype_for(const DataMeta& meta) {
  return meta.kind == DataKind::image ? py::dtype("uint8") : dtype_of(meta.tensor.type);
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

Shape shape_of(const py::array& a) {
  Shape s;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s.push_back(a.shape(i));
  return s;
}

bool shape_matches(const DataMeta& meta, const py::array& a) {
  const Shape want = shape_of(meta), got = shape_of(a);
  if (got == want) return true;
  // gray8 images also come as (H, W, 1), the shape OpenCV and PIL give single-channel images.
  return meta.kind == DataKind::image && meta.image.format == ImageFormat::gray8 && got.size() == 3 && got[2] == 1 &&
         got[0] == want[0] && got[1] == want[1];
}

bool aligned(const py::array& a) { return (a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0; }

}  // namespace

std::string expected_array(const DataMeta& meta) {
  return py::str(dtype_for(meta)).cast<std::string>() + " array of shape " + shape_text(shape_of(meta)) + " (" +
         meta.describe() + ")";
}

void check_array(const DataMeta& meta, const py::array& array, const std::string& what) {
  if (meta.kind != DataKind::image && meta.kind != DataKind::tensor)
    throw py::type_error(what + ": is " + meta.describe() + ", not an image or tensor: it takes no array");
  const py::dtype want = dtype_for(meta);
  if (!array.dtype().attr("__eq__")(want).cast<bool>())
    throw py::type_error(what + ": expects a " + expected_array(meta) + ", got dtype " +
                         py::str(array.dtype()).cast<std::string>());
  if (!shape_matches(meta, array))
    throw py::value_error(what + ": expects a " + expected_array(meta) + ", got shape " + shape_text(shape_of(array)));
}

std::optional<ExternalBuffer> external_of(const DataMeta& meta, const py::array& array) {
  if (array.size() == 0 || !aligned(array)) return std::nullopt;
  ExternalBuffer ext;
  ext.block.data = const_cast<void*>(array.data());  // inputs are only read; outputs need writeable arrays
  if (meta.kind == DataKind::tensor) {
    if (!(array.flags() & py::array::c_style)) return std::nullopt;
    ext.block.size = static_cast<std::size_t>(array.nbytes());
    return ext;  // num_planes 0: dense, laid out from the metadata
  }
  const ImageMeta& im = meta.image;
  const std::size_t pixel = im.bytes_per_pixel();
  const std::size_t row_bytes = static_cast<std::size_t>(im.width) * pixel;
  const py::ssize_t rows = array.shape(0);
  // Pixels packed within a row (a size-1 axis may carry any stride), rows at a positive pitch.
  if (array.shape(1) > 1 && array.strides(1) != static_cast<py::ssize_t>(pixel)) return std::nullopt;
  if (array.ndim() == 3 && array.shape(2) > 1 && array.strides(2) != 1) return std::nullopt;
  const std::size_t pitch = rows > 1 ? static_cast<std::size_t>(array.strides(0)) : row_bytes;
  if (rows > 1 && (array.strides(0) <= 0 || pitch < row_bytes)) return std::nullopt;
  ext.block.size = pitch * static_cast<std::size_t>(rows - 1) + row_bytes;
  ext.num_planes = im.num_planes();
  ext.offset[0] = 0;
  ext.stride[0] = pitch;
  if (im.format == ImageFormat::nv12) {  // the UV rows follow the Y rows at the same pitch
    ext.offset[1] = pitch * im.height;
    ext.stride[1] = pitch;
  }
  return ext;
}

void copy_into(const DataMeta& meta, const Buffer& buffer, const py::array& array) {
  py::module_ np = py::module_::import("numpy");
  // A view of the graph's memory: copyto writes through it, honouring both sides' strides.
  py::capsule no_owner(buffer.plane[0], [](void*) {});
  if (meta.kind == DataKind::image && meta.image.format == ImageFormat::nv12) {
    const auto h = static_cast<py::ssize_t>(meta.image.height), w = static_cast<py::ssize_t>(meta.image.width);
    py::array y(py::dtype("uint8"), Shape{h, w}, Shape{static_cast<py::ssize_t>(buffer.stride[0]), 1}, buffer.plane[0], no_owner);
    py::array uv(py::dtype("uint8"), Shape{h / 2, w}, Shape{static_cast<py::ssize_t>(buffer.stride[1]), 1}, buffer.plane[1], no_owner);
    np.attr("copyto")(y, array[py::slice(0, h, 1)]);
    np.attr("copyto")(uv, array[py::slice(h, h + h / 2, 1)]);
    return;
  }
  py::array dst = array_of(meta, buffer, no_owner, false);
  np.attr("copyto")(dst, array.attr("reshape")(dst.attr("shape")));
}

py::array array_of(const DataMeta& meta, const Buffer& buffer, py::handle owner, bool copy) {
  if (meta.kind == DataKind::tensor) {
    py::array view(dtype_of(meta.tensor.type), shape_of(meta), buffer.plane[0], owner);
    return copy ? py::array(view.attr("copy")()) : view;
  }
  const ImageMeta& im = meta.image;
  const auto h = static_cast<py::ssize_t>(im.height), w = static_cast<py::ssize_t>(im.width);
  const auto pitch = static_cast<py::ssize_t>(buffer.stride[0]);
  const py::dtype u8("uint8");
  if (im.format == ImageFormat::nv12) {
    const bool adjacent = buffer.plane[1] == buffer.plane[0] + pitch * h && buffer.stride[1] == buffer.stride[0];
    if (adjacent) {
      py::array view(u8, Shape{h * 3 / 2, w}, Shape{pitch, 1}, buffer.plane[0], owner);
      return copy ? py::array(view.attr("copy")()) : view;
    }
    py::array out(u8, Shape{h * 3 / 2, w});
    auto* dst = static_cast<std::uint8_t*>(out.mutable_data());
    for (py::ssize_t r = 0; r < h; ++r) std::memcpy(dst + r * w, buffer.plane[0] + r * pitch, static_cast<std::size_t>(w));
    for (py::ssize_t r = 0; r < h / 2; ++r)
      std::memcpy(dst + (h + r) * w, buffer.plane[1] + r * static_cast<py::ssize_t>(buffer.stride[1]), static_cast<std::size_t>(w));
    return out;
  }
  py::array view = im.format == ImageFormat::gray8
                       ? py::array(u8, Shape{h, w}, Shape{pitch, 1}, buffer.plane[0], owner)
                       : py::array(u8, Shape{h, w, 3}, Shape{pitch, 3, 1}, buffer.plane[0], owner);
  return copy ? py::array(view.attr("copy")()) : view;
}

py::object scalar_of(const DataMeta& meta, const Buffer& buffer) {
  const std::size_t size = element_size(meta.scalar.type);
  py::bytes raw(reinterpret_cast<const char*>(buffer.plane[0]), size);
  return py::module_::import("numpy").attr("frombuffer")(raw, dtype_of(meta.scalar.type))[py::int_(0)].attr("item")();
}

void set_scalar(const DataMeta& meta, const Buffer& buffer, py::handle value, const std::string& what) {
  const bool number = PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr()) ||
                      py::isinstance(value, py::module_::import("numpy").attr("number"));
  if (!number || PyBool_Check(value.ptr()))
    throw py::type_error(what + ": a scalar takes an int or a float, got " +
                         py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
  py::module_ np = py::module_::import("numpy");
  py::array typed = np.attr("array")(value, dtype_of(meta.scalar.type));
  std::memcpy(buffer.plane[0], typed.data(), element_size(meta.scalar.type));
}

}  // namespace vg::python
