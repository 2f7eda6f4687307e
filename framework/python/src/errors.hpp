#pragma once
/// @file
/// @brief The module's exception classes (visiongraph.Error, LoadError, StatusError) and the C++
/// exceptions that become them.

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "visiongraph/core/status.hpp"

namespace vg::python {

/// @brief A runtime call returned a failing Status; becomes visiongraph.StatusError (with .status).
class StatusFailure : public std::runtime_error {
 public:
  StatusFailure(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

/// @brief Throw StatusFailure "WHAT: STATUS (description)[: DETAIL]".
[[noreturn]] void throw_status(Status status, const std::string& what, const std::string& detail = {});

/// @brief Create the exception classes on @p m and translate vg::Error, vg::yaml::LoadError and
/// StatusFailure into them.
void bind_errors(pybind11::module_& m);

}  // namespace vg::python
