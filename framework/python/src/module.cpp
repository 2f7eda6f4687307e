// The extension module visiongraph._visiongraph; the package's __init__.py re-exports it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "errors.hpp"
#include "py_context.hpp"
#include "py_graph.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/core/status.hpp"
#if VG_PY_HAVE_OPENCV
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "convert.hpp"
#endif

namespace py = pybind11;

namespace vg::python {
void bind_run(py::module_& m);  // run.cpp
namespace {

void bind_status(py::module_& m) {
  py::enum_<Status> status(m, "Status", "Result codes of run-time calls (vg::Status).");
#define VG_PY_STATUS_VALUE(name, desc) status.value(#name, Status::name, desc);
  VG_STATUS_LIST(VG_PY_STATUS_VALUE)
#undef VG_PY_STATUS_VALUE
  status.def_property_readonly("description", [](Status s) { return std::string(describe(s)); });
}

#if VG_PY_HAVE_OPENCV
/// Decode an image file exactly as `visiongraph run --input FILE` does (cv::imread), in a visiongraph format.
py::array imread(const std::string& path, const std::string& format_name) {
  const ImageFormat format = image_format_from(format_name);
  if (format == ImageFormat::nv12) throw py::value_error("imread: nv12 is not a decoded-image format (rgb24, bgr24, gray8)");
  if (!std::filesystem::exists(path)) {
    errno = ENOENT;
    PyErr_SetFromErrnoWithFilename(PyExc_FileNotFoundError, path.c_str());
    throw py::error_already_set();
  }
  cv::Mat image;
  {
    py::gil_scoped_release unlocked;
    image = cv::imread(path, format == ImageFormat::gray8 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
    if (!image.empty() && format == ImageFormat::rgb24) cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
  }
  if (image.empty()) throw Error("imread: '" + path + "': cannot decode the image");
  const auto h = static_cast<py::ssize_t>(image.rows), w = static_cast<py::ssize_t>(image.cols);
  py::array_t<std::uint8_t> out = format == ImageFormat::gray8 ? py::array_t<std::uint8_t>({h, w})
                                                               : py::array_t<std::uint8_t>({h, w, py::ssize_t{3}});
  const std::size_t row = static_cast<std::size_t>(w) * (format == ImageFormat::gray8 ? 1 : 3);
  auto* dst = static_cast<std::uint8_t*>(out.mutable_data());
  for (int r = 0; r < image.rows; ++r) std::memcpy(dst + static_cast<std::size_t>(r) * row, image.ptr(r), row);
  return out;
}
#endif

}  // namespace
}  // namespace vg::python

PYBIND11_MODULE(_visiongraph, m) {
  using namespace vg::python;
  m.doc() = "visiongraph: edge-vision graphs of kernels (C++), from Python. See docs/python.md.";
  m.attr("__version__") = VG_PY_VERSION;
  py::module_::import("numpy");  // fail at import, not at the first array
  bind_status(m);
  bind_errors(m);
  bind_context(m);
  bind_graph(m);
  bind_loader(m);
  bind_run(m);
#if VG_PY_HAVE_OPENCV
  m.def("imread", &imread, py::arg("path"), py::arg("format") = "bgr24",
        "Decode an image file as `visiongraph run --input FILE` does (OpenCV's imread): a uint8 array (H, W, 3) "
        "in bgr24 or rgb24, or (H, W) in gray8.");
  m.attr("HAVE_OPENCV") = true;
#else
  m.attr("HAVE_OPENCV") = false;
#endif
}
