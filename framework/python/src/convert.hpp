#pragma once
/// @file
/// @brief Conversions between Python values and visiongraph's types: names of enumerations, numpy
/// dtypes, attribute values, data metadata.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "visiongraph/data/meta.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/kernel/kernel_decl.hpp"

namespace vg::python {

/// @brief "bgr24" -> ImageFormat; ValueError listing the formats otherwise.
ImageFormat image_format_from(const std::string& name);
/// @brief "image", "tensor", ... -> DataKind; ValueError otherwise.
DataKind data_kind_from(const std::string& name);
/// @brief "nhwc", ... -> TensorLayout; ValueError otherwise.
TensorLayout tensor_layout_from(const std::string& name);
/// @brief "block", "latest_wins", "reject_new" -> InputPolicy; ValueError otherwise.
InputPolicy input_policy_from(const std::string& name);
/// @brief "drain", "abandon" -> StopMode; ValueError otherwise.
StopMode stop_mode_from(const std::string& name);
/// @brief An element type from its visiongraph name ("f32") or anything numpy.dtype() takes.
ElementType element_type_from(pybind11::handle value);
/// @brief The numpy dtype of an element type (f16 -> float16).
pybind11::dtype dtype_of(ElementType type);

/// @brief A Python value as an attribute value. With @p decl, typed as the kernel declares it (an int
/// for a number becomes a double, a sequence becomes a list of numbers); TypeError naming @p where when
/// it cannot be. Without (an attribute the kernel does not declare), typed by its Python type, so
/// verify() reports the unknown key.
AttrValue attr_value_from(pybind11::handle value, const AttrDecl* decl, const std::string& where);
/// @brief An attribute value as a Python bool, int, float, str or list of floats.
pybind11::object to_python(const AttrValue& value);

/// @brief Metadata as a dict: kind, and per kind width/height/format/row_stride, shape/dtype/layout/
/// scale/zero_point, dtype, type_name/size, item_type/item_size/capacity; "valid" and "description".
pybind11::dict meta_to_dict(const DataMeta& meta);

/// @brief Timeout in seconds (float) -> nanoseconds; ValueError when negative or not finite.
std::chrono::nanoseconds timeout_from(double seconds, const char* what);

}  // namespace vg::python
