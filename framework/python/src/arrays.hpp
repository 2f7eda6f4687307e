#pragma once
/// @file
/// @brief numpy arrays <-> graph buffers: checking an array against a data object's metadata, importing
/// it without a copy when its layout allows, copying otherwise, and numpy views/copies of buffers.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "visiongraph/data/buffer.hpp"
#include "visiongraph/data/meta.hpp"
#include "visiongraph/memory/external_buffer.hpp"

namespace vg::python {

/// @brief "uint8 array of shape (480, 640, 3)": what an array for @p meta (image or tensor) must be.
std::string expected_array(const DataMeta& meta);

/// @brief Check dtype (TypeError) and shape (ValueError) of @p array against @p meta (image or tensor);
/// messages name @p what and say what was expected and what was given.
void check_array(const DataMeta& meta, const pybind11::array& array, const std::string& what);

/// @brief The array's memory as an ExternalBuffer when the graph can read it in place: images with
/// packed pixels (any row pitch, NV12 planes one after the other), tensors C-contiguous; aligned and
/// with positive strides. nullopt otherwise (the caller copies). @p array must have passed check_array.
std::optional<ExternalBuffer> external_of(const DataMeta& meta, const pybind11::array& array);

/// @brief Copy @p array (checked) into @p buffer, honouring the buffer's row strides.
void copy_into(const DataMeta& meta, const Buffer& buffer, const pybind11::array& array);

/// @brief A numpy array over an image or tensor buffer: a view kept alive by @p owner, or a copy.
/// NV12 whose planes are not adjacent in memory always comes out as a copy.
pybind11::array array_of(const DataMeta& meta, const Buffer& buffer, pybind11::handle owner, bool copy);

/// @brief A scalar buffer's value as a Python int or float.
pybind11::object scalar_of(const DataMeta& meta, const Buffer& buffer);
/// @brief Write a Python number into a scalar buffer (converted to its element type); TypeError naming
/// @p what for anything else.
void set_scalar(const DataMeta& meta, const Buffer& buffer, pybind11::handle value, const std::string& what);

}  // namespace vg::python
