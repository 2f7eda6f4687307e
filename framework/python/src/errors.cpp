#include "errors.hpp"

#include <Python.h>

#include "visiongraph/core/error.hpp"
#include "visiongraph/yaml/source_position.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

// The classes live as attributes of the module for the life of the interpreter; these are borrowed.
PyObject* g_error = nullptr;
PyObject* g_load_error = nullptr;
PyObject* g_status_error = nullptr;

PyObject* new_class(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = std::string("visiongraph.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!type) throw py::error_already_set();
  m.attr(name) = py::handle(type);  // the module holds the reference
  Py_DECREF(type);
  return type;
}

/// Raise @p type with @p message and extra attributes (set on the instance).
void raise_with(PyObject* type, const char* message, const py::dict& attributes) {
  py::object instance = py::reinterpret_steal<py::object>(PyObject_CallFunction(type, "s", message));
  if (!instance) return;  // the call set an error already
  for (auto item : attributes) py::setattr(instance, item.first, item.second);
  PyErr_SetObject(type, instance.ptr());
}

}  // namespace

void throw_status(Status status, const std::string& what, const std::string& detail) {
  std::string message = what + ": " + std::string(to_string(status)) + " (" + std::string(describe(status)) + ")";
  if (!detail.empty()) message += ": " + detail;
  throw StatusFailure(status, message);
}

void bind_errors(py::module_& m) {
  g_error = new_class(m, "Error", PyExc_RuntimeError,
                      "A visiongraph error: building, loading or verifying a graph (vg::Error), or a bad "
                      "request. The message names the node, data object, parameter or key at fault.");
  g_load_error = new_class(m, "LoadError", g_error,
                           "A graph file error (vg::yaml::LoadError): attributes file, line, column, key, "
                           "detail.");
  g_status_error = new_class(m, "StatusError", g_error,
                             "A run-time call failed: attribute status (visiongraph.Status).");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const yaml::LoadError& e) {
      py::dict a;
      a["file"] = e.position().file;
      a["line"] = e.position().line;
      a["column"] = e.position().column;
      a["key"] = e.key();
      a["detail"] = e.detail();
      raise_with(g_load_error, e.what(), a);
    } catch (const StatusFailure& e) {
      py::dict a;
      a["status"] = py::cast(e.status());
      raise_with(g_status_error, e.what(), a);
    } catch (const Error& e) {
      PyErr_SetString(g_error, e.what());
    }
  });
}

}  // namespace vg::python
