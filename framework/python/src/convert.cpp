#include "convert.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <string_view>

namespace py = pybind11;

namespace vg::python {

namespace {

template <class Enum, std::size_t N>
Enum parse_or_throw(const std::string& name, const char* what, const char* const (&names)[N]) {
  Enum out{};
  if (parse(name, out)) return out;
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  throw py::value_error(std::string("unknown ") + what + " '" + name + "' (expected one of: " + list + ")");
}

bool is_bool(py::handle v) { return PyBool_Check(v.ptr()) || py::isinstance(v, py::module_::import("numpy").attr("bool_")); }
bool is_integer(py::handle v) {
  if (is_bool(v)) return false;
  return PyLong_Check(v.ptr()) || py::isinstance(v, py::module_::import("numpy").attr("integer"));
}
bool is_real(py::handle v) {
  return is_integer(v) || PyFloat_Check(v.ptr()) || py::isinstance(v, py::module_::import("numpy").attr("floating"));
}
std::string type_name(py::handle v) { return py::str(py::type::handle_of(v).attr("__name__")); }

std::vector<double> numbers_from(py::handle value, const std::string& where) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) || !py::hasattr(value, "__iter__"))
    throw py::type_error(where + ": expects a list of numbers, got " + type_name(value));
  std::vector<double> out;
  for (py::handle item : py::iter(value)) {
    if (!is_real(item)) throw py::type_error(where + ": expects a list of numbers, got an item of type " + type_name(item));
    out.push_back(item.cast<double>());
  }
  return out;
}

}  // namespace

ImageFormat image_format_from(const std::string& name) {
  static const char* const names[] = {"rgb24", "bgr24", "gray8", "nv12"};
  return parse_or_throw<ImageFormat>(name, "image format", names);
}

DataKind data_kind_from(const std::string& name) {
  static const char* const names[] = {"image", "tensor", "scalar", "user_data", "array"};
  return parse_or_throw<DataKind>(name, "data kind", names);
}

TensorLayout tensor_layout_from(const std::string& name) {
  static const char* const names[] = {"unspecified", "nchw", "nhwc", "nc1hwc2"};
  return parse_or_throw<TensorLayout>(name, "tensor layout", names);
}

InputPolicy input_policy_from(const std::string& name) {
  if (name == "block") return InputPolicy::block;
  if (name == "latest_wins") return InputPolicy::latest_wins;
  if (name == "reject_new") return InputPolicy::reject_new;
  throw py::value_error("unknown input policy '" + name + "' (expected one of: block, latest_wins, reject_new)");
}

StopMode stop_mode_from(const std::string& name) {
  if (name == "drain") return StopMode::drain;
  if (name == "abandon") return StopMode::abandon;
  throw py::value_error("unknown stop mode '" + name + "' (expected drain or abandon)");
}

ElementType element_type_from(py::handle value) {
  if (py::isinstance<py::str>(value)) {
    ElementType t{};
    if (parse(value.cast<std::string>(), t)) return t;
  }
  py::dtype dt;
  try {
    dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(value));
  } catch (const py::error_already_set&) {
    throw py::type_error("unknown element type " + py::repr(value).cast<std::string>() +
                         " (expected u8, i8, u16, i16, u32, i32, i64, f16, f32, f64 or a numpy dtype)");
  }
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  if (kind == 'u' && size == 1) return ElementType::u8;
  if (kind == 'i' && size == 1) return ElementType::i8;
  if (kind == 'u' && size == 2) return ElementType::u16;
  if (kind == 'i' && size == 2) return ElementType::i16;
  if (kind == 'u' && size == 4) return ElementType::u32;
  if (kind == 'i' && size == 4) return ElementType::i32;
  if (kind == 'i' && size == 8) return ElementType::i64;
  if (kind == 'f' && size == 2) return ElementType::f16;
  if (kind == 'f' && size == 4) return ElementType::f32;
  if (kind == 'f' && size == 8) return ElementType::f64;
  throw py::type_error("numpy dtype " + py::str(dt).cast<std::string>() + " has no visiongraph element type");
}

py::dtype dtype_of(ElementType type) {
  switch (type) {
    case ElementType::u8: return py::dtype("uint8");
    case ElementType::i8: return py::dtype("int8");
    case ElementType::u16: return py::dtype("uint16");
    case ElementType::i16: return py::dtype("int16");
    case ElementType::u32: return py::dtype("uint32");
    case ElementType::i32: return py::dtype("int32");
    case ElementType::i64: return py::dtype("int64");
    case ElementType::f16: return py::dtype("float16");
    case ElementType::f32: return py::dtype("float32");
    case ElementType::f64: return py::dtype("float64");
  }
  return py::dtype("uint8");
}

AttrValue attr_value_from(py::handle value, const AttrDecl* decl, const std::string& where) {
  if (value.is_none()) throw py::type_error(where + ": None is not an attribute value");
  if (!decl) {
    if (is_bool(value)) return value.cast<bool>();
    if (is_integer(value)) return value.cast<std::int64_t>();
    if (is_real(value)) return value.cast<double>();
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    return numbers_from(value, where);
  }
  const std::string expects = where + ": expects " + std::string(to_string(decl->type)) + ", got ";
  switch (decl->type) {
    case AttrType::boolean:
      if (!is_bool(value)) throw py::type_error(expects + type_name(value));
      return value.cast<bool>();
    case AttrType::integer:
      if (!is_integer(value)) throw py::type_error(expects + type_name(value));
      return value.cast<std::int64_t>();
    case AttrType::number:
      if (!is_real(value)) throw py::type_error(expects + type_name(value));
      return value.cast<double>();
    case AttrType::string:
      if (py::isinstance<py::str>(value)) return value.cast<std::string>();
      if (py::hasattr(value, "__fspath__")) return py::str(value.attr("__fspath__")()).cast<std::string>();
      throw py::type_error(expects + type_name(value));
    case AttrType::numbers:
      return numbers_from(value, where);
  }
  throw py::type_error(expects + type_name(value));
}

py::object to_python(const AttrValue& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

py::dict meta_to_dict(const DataMeta& meta) {
  py::dict d;
  d["kind"] = std::string(to_string(meta.kind));
  d["valid"] = meta.valid;
  if (meta.valid) {
    switch (meta.kind) {
      case DataKind::image:
        d["width"] = meta.image.width;
        d["height"] = meta.image.height;
        d["format"] = std::string(to_string(meta.image.format));
        d["row_stride"] = meta.image.row_stride;
        break;
      case DataKind::tensor: {
        py::list shape;
        for (std::uint32_t i = 0; i < meta.tensor.rank; ++i) shape.append(meta.tensor.dims[i]);
        d["shape"] = py::tuple(shape);
        d["dtype"] = std::string(to_string(meta.tensor.type));
        d["layout"] = std::string(to_string(meta.tensor.layout));
        d["scale"] = meta.tensor.scale;
        d["zero_point"] = meta.tensor.zero_point;
        break;
      }
      case DataKind::scalar: d["dtype"] = std::string(to_string(meta.scalar.type)); break;
      case DataKind::user_data:
        d["type_name"] = std::string(meta.user_data.name());
        d["size"] = meta.user_data.size;
        break;
      case DataKind::array:
        d["item_type"] = std::string(meta.array.name());
        d["item_size"] = meta.array.item_size;
        d["capacity"] = meta.array.capacity;
        break;
    }
    d["description"] = meta.describe();
  }
  return d;
}

std::chrono::nanoseconds timeout_from(double seconds, const char* what) {
  if (!std::isfinite(seconds) || seconds < 0)
    throw py::value_error(std::string(what) + ": timeout must be a finite number of seconds >= 0");
  return std::chrono::nanoseconds(static_cast<std::int64_t>(seconds * 1e9));
}

}  // namespace vg::python
